"""A GPU with a CPU-only PyTorch (issue 13, item 3), through real clicks offscreen.

The Hardware page replays the recorded H100 (tests/data/nvml/h100-driver580.json) and inspects
the real test venv (torch 2.13.0, a CPU build). The prerequisites are the real checks over
facts made of recorded outputs (gcc 12 on Debian 12, no CUDA toolkit), so the run is the same
on every machine. Before the fix, Prerequisites blocked Next until a multi-GB CUDA PyTorch was
installed, so the probe, the one kernel that fits, could never be chosen.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gui_support import is_greyed
from ksw_testsupport import build_this_plan
from PySide6.QtWidgets import QMessageBox, QWizard

from app.pages.build import BuildPage
from app.pages.kernel import KernelPage
from app.pages.prereqs import PrereqsPage
from app.wizard import InstallerWizard
from kernel_wizard.build.plan import BuildPlan
from kernel_wizard.build.run import BuildStatus, run_build
from kernel_wizard.flow.session import FlowStep, Session, SessionServices
from kernel_wizard.machine.environment import Candidate, PythonEnv
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.machine.toolchain import parse_gcc_version
from kernel_wizard.prereqs import CheckId, CheckStatus, SystemFacts
from kernel_wizard.prereqs.facts import GccFacts, GitFacts, LongPathsFacts, parse_os_release

TESTS = Path(__file__).resolve().parents[1]
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"
STANDIN = TESTS / "data" / "standins" / "fake_build.py"
GCC = TESTS / "data" / "gcc" / "gcc-version-debian12.txt"


@pytest.fixture(autouse=True)
def no_modal_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)


def recorded_facts(tmp_path: Path) -> Any:
    """The prerequisites' facts: gcc 12 (recorded banner), no CUDA toolkit, the session's
    hardware and Python."""
    version = parse_gcc_version(GCC.read_text(encoding="utf-8"))
    distro = parse_os_release('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
    compiler = GccFacts(Path("/usr/bin/gcc"), version, Path("/usr/bin/g++"), version, distro)

    def gather(env: PythonEnv | None = None, hardware: HardwareReport | None = None,
               **_: Any) -> SystemFacts:
        assert hardware is not None
        return SystemFacts("linux", compiler, (), LongPathsFacts(applicable=False),
                           GitFacts(None), tmp_path / "build", "CPLUS_INCLUDE_PATH", hardware,
                           env)
    return gather


def test_a_gpu_with_cpu_torch_lets_the_probe_be_chosen_and_built(
    qtbot: Any, tmp_path: Path, torch_venv: Path
) -> None:
    planned: list[BuildPlan] = []

    def make_plan(session: Session) -> BuildPlan:
        plan = session.plan_preview()  # the real plan for these choices
        planned.append(plan)
        out = tmp_path / "staging"  # built by the stand-in, in seconds
        return replace(plan, command=(sys.executable, str(STANDIN), str(out), "ok", "3"),
                       cwd=tmp_path, output_dir=out, log_path=tmp_path / "build.log")

    recording = json.loads(H100.read_text(encoding="utf-8"))
    wizard = InstallerWizard(SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(torch_venv, "test")],
        gather_facts=recorded_facts(tmp_path),
        discover_toolkits=lambda: [],
        build=build_this_plan(make_plan, run_build),
    ))
    qtbot.addWidget(wizard)
    wizard.resize(1093, 614)  # 1366×768 at 125 %
    wizard.show()
    wizard.next()
    hardware = wizard.page_of(FlowStep.HARDWARE)
    qtbot.waitUntil(hardware.isComplete, timeout=120_000)
    next_button = wizard.button(QWizard.WizardButton.NextButton)

    wizard.next()
    prereqs = wizard.page_of(FlowStep.PREREQS)
    assert isinstance(prereqs, PrereqsPage)
    qtbot.waitUntil(lambda: prereqs.session.facts is not None and not prereqs.is_busy(),
                    timeout=120_000)
    # nothing blocks: the missing CUDA toolkit and CUDA PyTorch only rule the GPU kernels out
    assert prereqs.isComplete() and next_button.isEnabled()
    for check in (CheckId.PYTHON_ENV, CheckId.CUDA):
        row = prereqs.rows[check]
        assert row.result.status is CheckStatus.WARNING and not row.result.blocks
        assert row.needed_label.isVisible()
        assert "Needed for" in row.needed_label.text()
        assert "FlashAttention 2" in row.needed_label.text()
        assert "FlashMLA" in row.needed_label.text()
    torch_row = prereqs.rows[CheckId.PYTHON_ENV]
    assert torch_row.fix_button.isVisible()  # the warning keeps its Fix
    assert "CPU-only build" in torch_row.summary_label.text()
    assert "The probe kernel can be built now" in prereqs.banner.hint.text()

    wizard.next()
    kernel = wizard.page_of(FlowStep.KERNEL)
    assert isinstance(kernel, KernelPage)
    qtbot.waitUntil(lambda: not kernel.is_busy() and kernel.machine is not None,
                    timeout=60_000)
    assert kernel.current_recipe() is not None and kernel.current_recipe().id == "probe"
    assert kernel.tree.status_text("probe") == "✔ Fits (CPU part only)"
    details = kernel.details.toPlainText()
    assert "needs a CUDA build" not in details.split("Warnings")[0]  # nothing contradicts ✔
    assert next_button.isEnabled()

    # the kernels the missing prerequisites rule out say which, with the way back
    kernel.select_kernel("flash_attn")
    assert is_greyed(kernel.tree, "flash_attn")
    details = kernel.details.toPlainText()
    assert "PyTorch is a CPU-only build" in details
    assert "CUDA toolkit: No CUDA toolkit is installed." in details
    assert "the Prerequisites step can do it (its Fix button)" in details
    assert "(recommended)" not in kernel.tree.combo("flash_attn").currentText()
    assert kernel.prereqs_button.isVisible() and not next_button.isEnabled()
    kernel.prereqs_button.click()
    assert wizard.currentId() == FlowStep.PREREQS

    wizard.next()  # back to the Kernel page, the probe chosen, and on to the build
    assert wizard.currentId() == FlowStep.KERNEL
    kernel.select_kernel("probe")
    assert next_button.isEnabled()
    wizard.next()
    build = wizard.page_of(FlowStep.BUILD)
    assert isinstance(build, BuildPage) and wizard.currentId() == FlowStep.BUILD
    qtbot.waitUntil(lambda: not build.is_running(), timeout=60_000)
    outcome = build.session.current_build()
    assert outcome is not None and outcome.status is BuildStatus.SUCCEEDED
    (plan,) = planned
    assert plan.kernel == "probe"
    assert plan.env_value("KSW_PROBE_CPU_ONLY") == "1"  # the CPU part, with a GPU present
