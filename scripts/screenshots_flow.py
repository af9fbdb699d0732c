"""Screenshots of the Build and Verify pages in their interesting states (offscreen).

    QT_QPA_PLATFORM=offscreen python scripts/screenshots_flow.py --python TORCH_VENV_PYTHON
        [--out docs/screenshots]

- build-running.png: the real probe kernel building into TORCH_VENV (mid-compile);
- build-failed.png: a recorded real FlashMLA log (CUDA 13 CCCL headers missing) replayed
  through the stand-in builder, diagnosed;
- verify-fail.png: the real harness on a subtly wrong kernel (tests/data/bad_kernels), in a
  scratch venv that sees TORCH_VENV's torch (verify-pass.png: scripts/screenshots.py).
Writes into a temporary wizard data folder; TORCH_VENV itself is not modified.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from ksw_testsupport import build_this_plan, probe_plan
from offscreen import wait_until
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from app.wizard import DEFAULT_SIZE, InstallerWizard
from kernel_wizard.build.run import BuildPlan
from kernel_wizard.flow.session import FlowStep, Session, SessionServices
from kernel_wizard.machine.environment import Candidate
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

STANDIN = REPO / "tests" / "data" / "standins" / "fake_build.py"
H100 = REPO / "tests" / "data" / "nvml" / "h100-driver580.json"
CCCL_LOG = REPO / "tests" / "data" / "logs" / "flashmla" / "flashmla-cuda13-missing-cccl.log"




def scratch_env(root: Path, torch_python: Path) -> Path:
    venv = root / "scratch env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    python = venv / "bin" / "python"
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"

    def purelib(py: Path) -> Path:
        return Path(subprocess.run([str(py), "-c", code], capture_output=True, text=True,
                                   check=True).stdout.strip())

    (purelib(python) / "shared.pth").write_text(str(purelib(torch_python)) + "\n")
    return python


def make_wizard(python: Path, make_plan=probe_plan) -> InstallerWizard:  # type: ignore[no-untyped-def]
    recording = json.loads(H100.read_text(encoding="utf-8"))
    wizard = InstallerWizard(SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(python, "chosen for this screenshot")],
        build=build_this_plan(make_plan),
        run_checks=lambda _facts: [],  # the Prerequisites page: screenshots_prereqs.py
    ))
    wizard.resize(DEFAULT_SIZE)
    wizard.show()
    return wizard


def to_build(wizard: InstallerWizard) -> object:
    wizard.next()
    hardware = wizard.page_of(FlowStep.HARDWARE)
    wait_until(hardware.isComplete)
    while wizard.currentId() != FlowStep.BUILD:  # through the pages between (Kernel, ...)
        wait_until(wizard.currentPage().isComplete)
        wizard.next()
    return wizard.page_of(FlowStep.BUILD)


def standin(kind: str, *args: str):  # type: ignore[no-untyped-def]
    def make(state: Session) -> BuildPlan:
        plan = probe_plan(state)
        out = plan.output_dir
        return replace(plan, command=(sys.executable, str(STANDIN), str(out), kind, *args))
    return make


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", type=Path, required=True, help="a venv with torch (CPU)")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="ksw-shots-"))
    os.environ["KSW_DATA_DIR"] = str(root / "data")
    app = QApplication.instance() or QApplication(sys.argv)
    from app.i18n import install_translator

    install_translator(app)  # KSW_LANG=zh_CN: the Chinese pages

    # 1. the real probe build, mid-compile
    wizard = make_wizard(args.python)
    page = to_build(wizard)
    wait_until(lambda: "running build_ext" in page.log.shown_text())  # type: ignore[attr-defined]
    wait_until(lambda: False, 1.5)
    page.plan_toggle.setChecked(True)  # type: ignore[attr-defined]
    QCoreApplication.processEvents()
    wizard.grab().save(str(args.out / "build-running.png"))
    page.cancel_now()  # type: ignore[attr-defined]
    wait_until(lambda: not page.is_running(), 30)  # type: ignore[attr-defined]
    wizard.close()

    # 2. a diagnosed failure (a recorded real log)
    if CCCL_LOG.exists():
        wizard = make_wizard(args.python, standin("replay", str(CCCL_LOG)))
        page = to_build(wizard)
        wait_until(lambda: not page.is_running())  # type: ignore[attr-defined]
        QCoreApplication.processEvents()
        wizard.grab().save(str(args.out / "build-failed.png"))
        wizard.close()

    # 3. verification of a subtly wrong kernel
    from conftest import wheel_from  # tests/conftest.py

    env = scratch_env(root, args.python)
    for name, shot in (("wrong_scale", "verify-fail.png"),):
        wheel = wheel_from(REPO / "tests" / "data" / "bad_kernels" / name, root / "w" / name)
        wizard = make_wizard(env, standin("copy", str(wheel)))
        page = to_build(wizard)
        wait_until(page.isComplete)  # type: ignore[attr-defined]
        wizard.next()
        verify = wizard.page_of(FlowStep.VERIFY)
        wait_until(lambda v=verify: v.task is None and v.session.current_verification() is not None)  # type: ignore[attr-defined,misc]
        QCoreApplication.processEvents()
        wizard.grab().save(str(args.out / shot))
        wizard.close()
    for png in sorted(args.out.glob("*.png")):
        print(png)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
