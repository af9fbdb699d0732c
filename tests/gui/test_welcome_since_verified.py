"""At start, the Welcome page says in one line what changed since the installed kernels last
passed verification, names a kernel that no longer imports with its fix, and "Re-verify now"
goes to the Verify step; it says nothing when nothing changed (issue 33, item 4).

Real pieces: the install record in installs.json and a real harness report (made in a CPU torch
venv) in the report history of the test's data folder, the tests' CPU torch venv inspected by
the wizard's own inspection, the probe's import tried there in a child process, a recorded
H100 (driver 580.159.04) as the hardware. Only the report's "before" side is edited, as an
update would have left it; the re-verification itself is a stand-in (its page is tested
elsewhere)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.pages.welcome import WelcomePage
from app.wizard import InstallerWizard
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.install.records import InstallRecord, put_record
from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.verify import VerifyReport
from kernel_wizard.verify.history import Stage, save_report

TESTS = Path(__file__).resolve().parents[1]
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"
REPORT = TESTS / "data" / "verify" / "probe-cpu-full.json"


def h100() -> HardwareReport:
    return detect(lambda: ReplayNvmlApi(json.loads(H100.read_text(encoding="utf-8"))))


def installed_probe(where: Path, **before: object) -> None:
    """The probe installed into the Python ``where`` by the wizard, its last passing
    verification made with the environment facts ``before``."""
    real = VerifyReport.from_json(json.loads(REPORT.read_text("utf-8")))
    assert real.environment is not None
    save_report(replace(real, environment=replace(real.environment, **before)), kernel="probe",
                python=where, stage=Stage.INSTALLED)
    put_record(InstallRecord("ksw-probe-kernel", "0.1.0", str(where), kernel="probe",
                             adapter="probe"))


def welcome(qtbot: Any) -> tuple[InstallerWizard, WelcomePage]:
    wizard = InstallerWizard(SessionServices(detect=h100, discover=lambda: [],
                                             reverify_all=lambda: []))
    qtbot.addWidget(wizard)
    wizard.show()
    page = wizard.currentPage()
    assert isinstance(page, WelcomePage)
    task = page.since_task
    assert task is not None  # there is an install: the look at what changed has started
    qtbot.waitUntil(lambda: not task.is_running(), timeout=120_000)
    return wizard, page


def test_a_pytorch_update_is_said_with_the_kernel_it_broke_and_re_verify_goes_on(
        qtbot: Any, torch_venv: Path) -> None:
    env = inspect_python(torch_venv)
    assert env.torch is not None and env.version is not None
    installed_probe(torch_venv, torch_version="2.12.1+cpu", python=env.version,
                    driver_version="580.159.04")
    wizard, page = welcome(qtbot)
    assert page.changes.isVisible() and page.reverify_now.isVisible()
    # the probe is not installed in the shared venv: after the PyTorch change it does not import
    assert page.changes.title.text() == (
        "<b>⚠  Probe kernel may not work any more: PyTorch changed (2.12.1+cpu → "
        f"{env.torch.version}). Re-verify now to see what still works.</b>")
    lines = page.changes.hint.text()
    assert f"Probe kernel in {torch_venv}: Probe kernel no longer imports" in lines
    assert (f"What to do: Build it again for PyTorch {env.torch.version} (the wizard&#x27;s "
            "Kernel step, or") in lines
    qtbot.mouseClick(page.reverify_now, Qt.MouseButton.LeftButton)
    assert wizard.currentId() == int(FlowStep.VERIFY)
    assert wizard.session.reverify_only


def test_nothing_changed_shows_no_line(qtbot: Any, torch_venv: Path) -> None:
    env = inspect_python(torch_venv)
    assert env.torch is not None and env.version is not None
    installed_probe(torch_venv, torch_version=env.torch.version, python=env.version,
                    driver_version="580.159.04")
    _wizard, page = welcome(qtbot)
    assert page.since_verified and not page.since_verified[0].needs_attention
    assert not page.changes.isVisible() and not page.reverify_now.isVisible()
