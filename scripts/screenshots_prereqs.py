"""Screenshots of the Prerequisites page (offscreen).

    QT_QPA_PLATFORM=offscreen python scripts/screenshots_prereqs.py \\
        --python TORCH_VENV_PYTHON --plain PLAIN_VENV_PYTHON [--out docs/screenshots]

- prereqs-healthy.png: this machine's real checks with TORCH_VENV as the target;
- prereqs-broken.png: this machine's real checks with PLAIN_VENV (no PyTorch: MISSING, with
  the pip fix), one row's details open;
- prereqs-windows.png: a Windows machine built from recorded real outputs (an empty vswhere
  answer, no CUDA toolkit, LongPathsEnabled unset) on the recorded
  H100, after the long-paths Fix was tried and the administrator prompt declined.
Nothing is installed or changed: the Windows fix runs with a stand-in elevation that declines.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offscreen import wait_until
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from app.pages.prereqs import PrereqsPage
from app.wizard import InstallerWizard
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.machine.environment import Candidate, EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import HardwareReport, HostInfo, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.machine.platforms.windows import ElevationDeclined
from kernel_wizard.machine.toolchain import parse_reg_query_dword
from kernel_wizard.prereqs import CheckId, CheckResult, SystemFacts, run_checks
from kernel_wizard.prereqs.facts import (
    GitFacts,
    LongPathsFacts,
    MsvcFacts,
    ToolkitFacts,
)
from kernel_wizard.prereqs.fixes import LongPathsFix

DATA = REPO / "tests" / "data"
H100 = DATA / "nvml" / "h100-driver580.json"
GIB = 1024**3




def to_prereqs(services: SessionServices, size: tuple[int, int] = (960, 900)) -> tuple[
        InstallerWizard, PrereqsPage]:
    wizard = InstallerWizard(services)
    wizard.resize(*size)
    wizard.show()
    wizard.next()
    hardware = wizard.page_of(FlowStep.HARDWARE)
    wait_until(hardware.isComplete)
    wizard.next()
    page = wizard.page_of(FlowStep.PREREQS)
    assert isinstance(page, PrereqsPage)
    wait_until(lambda: page.session.facts is not None and not page.is_busy())
    QCoreApplication.processEvents()
    return wizard, page


def save(wizard: InstallerWizard, path: Path) -> None:
    wait_until(lambda: False, 0.3)  # let layouts settle
    wizard.grab().save(str(path))
    print(path)


def windows_facts(hardware: HardwareReport) -> SystemFacts:
    """A Windows machine as recorded: vswhere printed '[]' (no Visual Studio), no CUDA toolkit,
    reg query found no LongPathsEnabled value, git's core.longpaths already true."""
    vswhere = (DATA / "vswhere" / "empty.json").read_text(encoding="utf-8")
    enabled = parse_reg_query_dword("", "LongPathsEnabled")  # reg.exe: value not found
    torch = TorchInfo("2.9.0+cu130", "13.0", True, 1, ("sm_80", "sm_90", "sm_100", "sm_120"),
                      False)
    env = PythonEnv(Path(r"C:\Users\me\envs\ml\Scripts\python.exe"), EnvStatus.READY,
                    "Python 3.12 with PyTorch 2.9.0+cu130", version="3.12.8", bits=64,
                    pip_version="24.3.1", ninja=r"C:\Users\me\envs\ml\Scripts\ninja.exe",
                    torch=torch)
    host = HostInfo(cpu_logical=24, cpu_physical=16, ram_total=64 * GIB,
                    ram_available=52 * GIB, disk_path=Path("C:\\ksw"), disk_free=310 * GIB,
                    os_name="Windows 11 (10.0.26100)")
    return SystemFacts(
        platform="windows",
        compiler=MsvcFacts(Path(r"C:\Program Files (x86)\Microsoft Visual Studio\Installer"
                                r"\vswhere.exe"), vswhere, (), ("10.0.26100.0",)),
        toolkits=tuple[ToolkitFacts, ...](),
        long_paths=LongPathsFacts(True, enabled, 260),
        git=GitFacts(Path(r"C:\Program Files\Git\cmd\git.exe"), True),
        build_root=Path("C:\\ksw"),
        host_include_var="INCLUDE",
        hardware=replace(hardware, host=host),
        env=env,
    )


def declining(argv: object, *, show_window: bool = True) -> int:
    raise ElevationDeclined("The administrator prompt was declined.")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", type=Path, required=True, help="a venv with torch")
    parser.add_argument("--plain", type=Path, required=True, help="a venv without torch")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ["KSW_DATA_DIR"] = tempfile.mkdtemp(prefix="ksw-shots-")
    app = QApplication.instance() or QApplication(sys.argv)
    QMessageBox.question = staticmethod(  # type: ignore[method-assign]
        lambda *a, **k: QMessageBox.StandardButton.Yes)

    # 1. this machine, the torch venv
    wizard, page = to_prereqs(
        SessionServices(discover=lambda: [Candidate(args.python, "torch venv")]), (960, 820))
    save(wizard, args.out / "prereqs-healthy.png")
    wizard.close()

    # 2. this machine, a venv without torch
    wizard, page = to_prereqs(
        SessionServices(discover=lambda: [Candidate(args.plain, "plain venv")]))
    row = page.rows[CheckId.PYTHON_ENV]
    row.details_toggle.setChecked(True)
    save(wizard, args.out / "prereqs-broken.png")
    wizard.close()

    # 3. a recorded Windows machine; the long-paths fix declined at the UAC prompt
    recording = json.loads(H100.read_text(encoding="utf-8"))

    def gather(**_kw: object) -> SystemFacts:
        return windows_facts(detect(lambda: ReplayNvmlApi(recording)))

    def checks(facts: SystemFacts) -> list[CheckResult]:
        out = []
        for result in run_checks(facts):
            if isinstance(result.fix, LongPathsFix):
                result = replace(result, fix=replace(result.fix, elevate=declining))
            out.append(result)
        return out

    services = SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(args.python, "torch venv")],
        gather_facts=gather, run_checks=checks, refresh=lambda facts, _check: facts,
    )
    wizard, page = to_prereqs(services, (960, 1000))
    page.start_fix(page.rows[CheckId.LONG_PATHS])
    wait_until(lambda: not page.is_busy(), 60)
    save(wizard, args.out / "prereqs-windows.png")
    wizard.close()
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
