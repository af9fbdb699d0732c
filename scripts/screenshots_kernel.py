"""Render the Kernel page offscreen to PNG files (for the README and for review).

    QT_QPA_PLATFORM=offscreen python scripts/screenshots_kernel.py [--out docs/screenshots]
        [--python PATH]

kernel.png: the recorded H100 (tests/data/nvml/h100-driver580.json) with a target Python whose
PyTorch is a CUDA 13.0 build and the CUDA 13.0 toolkit (recorded ``nvcc --version``), and
PyTorch's attention as the H200 timed it at every workload (tests/data/speed/h200-workloads.json):
the speed line and the workload chooser. kernel-video.png: the same with "video" chosen.
kernel-cpu.png: this machine as it is (its NVML, its toolkits) with --python as the target (by
default the first interpreter the wizard discovers).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offscreen import wait_until
from PySide6.QtCore import QCoreApplication  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.wizard import InstallerWizard  # noqa: E402
from kernel_wizard.catalog.worth import speed_from_probe  # noqa: E402
from kernel_wizard.flow.session import FlowStep, SessionServices  # noqa: E402
from kernel_wizard.machine.environment import (  # noqa: E402
    EnvStatus,
    PythonEnv,
    TorchInfo,
    discover_candidates,
    inspect_python,
)
from kernel_wizard.machine.hardware import HardwareReport, detect  # noqa: E402
from kernel_wizard.machine.nvml_record import ReplayNvmlApi  # noqa: E402
from kernel_wizard.machine.toolchain import parse_nvcc_version  # noqa: E402
from kernel_wizard.machine.toolkits import CudaToolkit  # noqa: E402

DATA = REPO / "tests" / "data"




def shoot(services: SessionServices, hardware: HardwareReport, env: PythonEnv, path: Path,
          workload: str = "") -> None:
    wizard = InstallerWizard(services)
    wizard.session.hardware, wizard.session.environment = hardware, env
    wizard.session.workload_choice = workload
    wizard.setStartId(int(FlowStep.KERNEL))
    wizard.resize(900, int(os.environ.get("KSW_SHOT_HEIGHT", "680")))
    wizard.show()
    page = wizard.page_of(FlowStep.KERNEL)
    wait_until(lambda: not page.is_busy())  # type: ignore[attr-defined]
    wait_until(lambda: page._speed_task is None)  # type: ignore[attr-defined]  # the speed line
    QCoreApplication.processEvents()
    wizard.grab().save(str(path))
    print(path)
    wizard.close()
    wizard.deleteLater()


def recorded_h100() -> tuple[SessionServices, HardwareReport, PythonEnv]:
    recording = json.loads((DATA / "nvml" / "h100-driver580.json").read_text(encoding="utf-8"))
    hardware = detect(lambda: ReplayNvmlApi(recording))
    env = PythonEnv(
        executable=Path("/home/user/venvs/llm/bin/python"),
        status=EnvStatus.READY,
        summary="PyTorch 2.11.0+cu130 with CUDA 13.0",
        version="3.12.3",
        bits=64,
        platform_tag="linux_x86_64",
        interpreter_tag="cp312",
        torch=TorchInfo("2.11.0+cu130", "13.0", True, 1, ("sm_90",), True),
    )
    version = parse_nvcc_version((DATA / "nvcc" / "nvcc-13.0-linux.txt").read_text("utf-8"))
    root = Path("/usr/local/cuda-13.0")
    toolkit = CudaToolkit(root, root / "bin" / "nvcc", version, "recorded")
    document = json.loads((DATA / "speed" / "h200-workloads.json").read_text(encoding="utf-8"))
    speed = speed_from_probe(document["probe"], measured_at="2026-11-28 12:35")
    return SessionServices(discover_toolkits=lambda: [toolkit],
                           time_sdpa=lambda _hw, _env: speed), hardware, env


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--python", type=Path, help="the target interpreter of kernel-cpu.png")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv)
    from app.i18n import install_translator

    install_translator(app)  # KSW_LANG=zh_CN: the Chinese pages

    services, hardware, env = recorded_h100()
    shoot(services, hardware, env, args.out / "kernel.png")
    shoot(services, hardware, env, args.out / "kernel-video.png", workload="video")

    python = args.python
    if python is None:
        candidates = discover_candidates()
        if not candidates:
            print("no Python found for kernel-cpu.png; pass --python", file=sys.stderr)
            return 1
        python = candidates[0].path
    shoot(SessionServices(), detect(), inspect_python(python), args.out / "kernel-cpu.png")
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
