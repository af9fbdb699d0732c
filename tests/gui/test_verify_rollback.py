"""Install anyway, then Roll back, on the Verify page (offscreen, real wheels, harness and venv):
the previous, verified kernel comes back *with its record* (so --verify and Welcome's re-verify
still find it), the page says what happened at each step, and Next leads on after the roll-back.
Both buttons go through the session (Session.install_anyway / Session.rollback). The Welcome
page first finishes an install that was cut off, and says so."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ksw_testsupport import build_this_plan, installed
from ksw_testsupport import pip_freeze as freeze
from PySide6.QtWidgets import QMessageBox

from app.pages.verify import VerifyPage
from app.wizard import InstallerWizard
from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import BuildPlan, make_plan
from kernel_wizard.flow.session import FlowStep, Session, SessionServices
from kernel_wizard.install.installer import install_wheel, load_installs
from kernel_wizard.machine.environment import Candidate
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

TESTS = Path(__file__).resolve().parents[1]
STANDIN = TESTS / "data" / "standins" / "fake_build.py"
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("question", "warning"):
        monkeypatch.setattr(QMessageBox, name, lambda *a, **k: QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: QMessageBox.StandardButton.Ok)


def wizard_for(qtbot: Any, tmp_path: Path, python: Path, wheel: Path) -> InstallerWizard:
    recording = json.loads(H100.read_text(encoding="utf-8"))

    def make(state: Session) -> BuildPlan:
        out = tmp_path / "staging"
        plan = make_plan(kernel="probe", version="0.1.0", source_dir=tmp_path,
                         python=Path(sys.executable), python_scripts=None, output_dir=out,
                         log_path=tmp_path / "build.log", parallelism=Parallelism(1, 1, "test"))
        return replace(plan, command=(sys.executable, str(STANDIN), str(out), "copy", str(wheel)))

    wizard = InstallerWizard(SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(python, "test env")],
        build=build_this_plan(make),
        run_checks=lambda _facts: [],
    ))
    qtbot.addWidget(wizard)
    wizard.show()
    return wizard


def test_install_anyway_then_roll_back_brings_the_verified_kernel_and_its_record_back(
    qtbot: Any, tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any
) -> None:
    env = scratch_torch_env
    install_wheel(env, kernel_wheel("correct"), kernel="probe", adapter="probe",
                  verification={"status": "pass", "report": "/reports/earlier/report.json"})
    verified = freeze(env)
    wizard = wizard_for(qtbot, tmp_path, env, kernel_wheel("wrong_scale"))
    qtbot.waitUntil(wizard.currentPage().isComplete, timeout=60_000)  # start-up recovery ran
    wizard.next()
    while wizard.currentId() != FlowStep.VERIFY:
        qtbot.waitUntil(wizard.currentPage().isComplete, timeout=120_000)
        wizard.next()
    page = wizard.currentPage()
    assert isinstance(page, VerifyPage)
    qtbot.waitUntil(lambda: page.task is None
                    and page.session.current_verification() is not None, timeout=120_000)
    assert page.verdict.text().startswith("✖ FAIL") and "as it was" in page.explanation.text()
    assert freeze(env) == verified

    assert page.ask_install_anyway() is True
    qtbot.waitUntil(lambda: page.task is None and installed(page) is not None, timeout=60_000)
    text = page.explanation.text()
    assert "unchanged" not in text  # it is changed now, and the page says how
    assert "It replaced ksw-probe-kernel 0.1.0, which is kept: Roll back puts it back." in text
    (record,) = load_installs()
    assert record.installed_despite_failure is True

    page.do_rollback()
    qtbot.waitUntil(lambda: page.task is None and page.session.rolled_back is not None,
                    timeout=60_000)
    assert "Rolled back" in page.verdict.text()
    assert "put back ksw-probe-kernel 0.1.0" in page.explanation.text()
    assert "Its verification had passed." in page.explanation.text()
    assert freeze(env) == verified
    (record,) = load_installs()  # the verified kernel's record is back: re-verify finds it
    assert record.verification_status == "pass"
    assert wizard.session.installs() == [record]
    assert page.isComplete()  # Next leads on, not only Cancel
    wizard.next()
    assert wizard.currentId() == FlowStep.DONE


def test_the_welcome_page_finishes_an_interrupted_install_first_and_says_so(
    qtbot: Any, tmp_path: Path
) -> None:
    from kernel_wizard.base.paths import backups_dir
    from kernel_wizard.install.records import write_journal

    folder = backups_dir() / "tx-cut"
    (folder / "files").mkdir(parents=True)
    write_journal({"id": "tx-cut", "phase": "backup", "python": sys.executable,
                   "name": "ksw-probe-kernel", "version": "0.2.0", "folder": str(folder),
                   "started": "2026-11-20 10:00:00"})
    wizard = wizard_for(qtbot, tmp_path, Path(sys.executable), tmp_path / "unused.whl")
    page = wizard.currentPage()
    qtbot.waitUntil(page.isComplete, timeout=60_000)  # Next waits for the recovery
    assert page.recovery.isVisible()  # type: ignore[attr-defined]
    text = page.recovery.text()  # type: ignore[attr-defined]
    assert "Since the last start" in text and "interrupted before it changed anything" in text
    assert not folder.exists() and not wizard.session.needs_recovery()
