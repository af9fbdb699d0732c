"""The Verify and Done pages, offscreen, with real wheels, the real harness and real venvs.

Verifying installs nothing: after a pass the page offers "Install into <the target Python>"
(the commit point: Back is locked after it) or "Finish without installing"."""

from __future__ import annotations

import json
import sys
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ksw_testsupport import build_this_plan, installed
from ksw_testsupport import pip_freeze as freeze
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWizard

from app.pages.verify import VerifyPage
from app.widgets.verify_results import RESULT_COLUMN
from app.wizard import InstallerWizard
from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import BuildPlan, make_plan
from kernel_wizard.flow.session import FlowStep, Session, SessionServices
from kernel_wizard.install.installer import load_installs
from kernel_wizard.machine.environment import Candidate
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

TESTS = Path(__file__).resolve().parents[1]
STANDIN = TESTS / "data" / "standins" / "fake_build.py"
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: QMessageBox.StandardButton.Ok)


def wizard_for(qtbot: Any, tmp_path: Path, python: Path, wheel: Path | None) -> InstallerWizard:
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
        run_checks=lambda _facts: [],  # prerequisites: tests/gui/test_prereqs_page.py
    ))
    qtbot.addWidget(wizard)
    wizard.show()
    return wizard


def walk_to_verify(qtbot: Any, wizard: InstallerWizard) -> VerifyPage:
    wizard.next()
    hardware = wizard.page_of(FlowStep.HARDWARE)
    qtbot.waitUntil(hardware.isComplete, timeout=120_000)
    while wizard.currentId() != FlowStep.BUILD:  # through the pages between (Kernel, ...)
        current = wizard.currentPage()
        qtbot.waitUntil(current.isComplete, timeout=120_000)
        wizard.next()
    build = wizard.page_of(FlowStep.BUILD)
    qtbot.waitUntil(build.isComplete, timeout=60_000)
    wizard.next()
    page = wizard.page_of(FlowStep.VERIFY)
    assert isinstance(page, VerifyPage) and wizard.currentId() == FlowStep.VERIFY
    qtbot.waitUntil(lambda: page.task is None
                    and page.session.current_verification() is not None, timeout=120_000)
    return page


def install(qtbot: Any, page: VerifyPage) -> None:
    """Click "Install into …" and wait for the install (in the background) to end."""
    assert page.install_panel.isVisible() and page.install_panel.install_button.isEnabled()
    qtbot.mouseClick(page.install_panel.install_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.task is None and installed(page) is not None, timeout=60_000)


def test_a_passing_kernel_is_installed_only_on_the_button_and_done_says_where(
    qtbot: Any, tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any
) -> None:
    before = freeze(scratch_torch_env)
    wizard = wizard_for(qtbot, tmp_path, scratch_torch_env, kernel_wheel("correct"))
    back = wizard.button(QWizard.WizardButton.BackButton)
    page = walk_to_verify(qtbot, wizard)
    assert page.verdict.text() == "✔ PASS — the kernel works."
    # verified, not installed: the person is asked, the target named
    assert page.explanation.text() == ("The kernel computes the same results as PyTorch in all "
                                       "8 checks. It is not installed yet: your Python "
                                       "environment is unchanged.")
    assert load_installs() == [] and freeze(scratch_torch_env) == before
    assert not page.isComplete() and back.isEnabled()  # Next waits for the choice
    offer = page.install_panel
    assert offer.install_button.isVisible() and offer.skip_install.isVisible()
    # the target named: a long path shortened in its middle, whole in the tooltip
    shown = page.install_panel.install_button.text()
    assert shown.startswith("Install into /") and shown.endswith("scratch env/bin/python")
    assert shown == f"Install into {scratch_torch_env}" or "…" in shown
    assert page.install_panel.install_button.toolTip() == str(scratch_torch_env)
    folder = scratch_torch_env.parent.parent
    assert page.install_panel.install_note.text() == (
        f"Installs the kernel into the Python environment in “{folder}”. What it replaces there "
        "is backed up first, and “Roll back” undoes the install.")
    assert page.install_panel.skip_install.text() == "Finish without installing"
    assert not page.install_anyway.isVisible() and not page.rollback_button.isVisible()

    install(qtbot, page)
    assert page.verdict.text() == "✔ PASS — the kernel works, and it is installed."
    assert page.explanation.text() == (
        f"ksw-probe-kernel 0.1.0 is now installed in {scratch_torch_env}. Nothing was "
        "installed there before: Roll back removes it again.")
    assert not page.install_panel.isVisible() and page.rollback_button.isVisible()
    assert "ksw-probe-kernel" in freeze(scratch_torch_env)
    assert not back.isEnabled()  # installed: the commit point, the wizard only goes forward
    assert wizard.session.verify_outcome is not None
    assert wizard.session.verify_outcome.installed is not None
    assert page.results.table.rowCount() == 8
    assert all(page.results.table.item(r, RESULT_COLUMN).text() == "PASS" for r in range(8))
    assert page.results.table.item(0, 0).text() == (
        "float64 · full attention · 77 tokens · head size 32 · scale 0.3 · on the CPU")
    assert page.results.speed.text().startswith(
        "Speed was not measured: it is measured on an NVIDIA GPU only")
    assert len(page.results.chart.items) == 8 and all(b.ratio is not None and b.ratio < 1
                                              for b in page.results.chart.items)
    usage = page.results.usage
    assert usage.isVisible() and "ksw_probe.attention" in usage.toPlainText()
    assert page.results.usage_heading.text() == "<b>Use it in your code</b>"
    page.results.copy_usage.click()
    assert QGuiApplication.clipboard().text() == page.results.usage.toPlainText()
    assert page.isComplete()
    (record,) = load_installs()
    assert record.python == str(scratch_torch_env)
    assert record.verification_status == "pass"  # the verification it passed, recorded
    assert record.verification is not None
    assert record.verification["installed_despite_failure"] is False
    assert Path(record.verification["report"]).is_file()
    assert page.do_install() is False  # a second click installs nothing

    bundle = page.save_bundle(tmp_path / "bundle ü.zip")
    names = zipfile.ZipFile(bundle).namelist()
    assert "environment.json" in names and "installs.json" in names
    assert any(n.endswith("report.json") for n in names)

    wizard.next()
    done = wizard.page_of(FlowStep.DONE)
    text = done.summary.text()  # type: ignore[attr-defined]
    assert "Installed Probe kernel 0.1.0" in text and "ksw-probe-kernel 0.1.0" in text
    assert str(scratch_torch_env) in text
    assert "--verify" in done.later_text.text()  # type: ignore[attr-defined]
    assert "open this wizard again and choose “Check the installed kernels again”" in \
        done.later_text.text()  # type: ignore[attr-defined]
    assert not back.isVisible() or not back.isEnabled()
    assert len(load_installs()) == 1


def test_finish_without_installing_leaves_the_environment_as_it_was(
    qtbot: Any, tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any
) -> None:
    before = freeze(scratch_torch_env)
    wizard = wizard_for(qtbot, tmp_path, scratch_torch_env, kernel_wheel("correct"))
    page = walk_to_verify(qtbot, wizard)
    assert page.verdict.text().startswith("✔ PASS") and not page.isComplete()
    qtbot.mouseClick(page.install_panel.skip_install, Qt.MouseButton.LeftButton)
    assert wizard.currentId() == FlowStep.DONE  # the button leads on to the summary
    assert page.session.install_declined and installed(page) is None
    done = wizard.page_of(FlowStep.DONE)
    assert done.headline.text() == "Nothing was installed"  # type: ignore[attr-defined]
    assert done.subTitle() == "Nothing was installed."
    text = done.summary.text()  # type: ignore[attr-defined]
    assert "Nothing was installed, as you chose" in text
    assert str(scratch_torch_env) in text and "is unchanged" in text
    assert "To install it later, open this wizard again and build the same kernel" in text
    assert "Install into …" in text
    assert not done.usage_box.isVisibleTo(wizard)  # type: ignore[attr-defined]
    assert load_installs() == [] and freeze(scratch_torch_env) == before
    assert wizard.lost_work() is None  # the person chose: Finish or closing asks nothing


def test_a_failing_kernel_is_not_installed_unless_the_user_insists(
    qtbot: Any, tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = freeze(scratch_torch_env)
    wizard = wizard_for(qtbot, tmp_path, scratch_torch_env, kernel_wheel("wrong_scale"))
    page = walk_to_verify(qtbot, wizard)
    assert page.verdict.text().startswith("✖ FAIL")
    assert page.explanation.text().startswith(
        "8 of 8 checks failed: the kernel's results are further from the exact answer than "
        "PyTorch's own are allowed to be. Nothing was installed: your Python environment is as "
        "it was.")
    assert "What failed:" in page.results.details.text() and " · " in page.results.details.text()
    assert "differs from the" in page.results.details.text()  # the numbers are in the details
    assert not page.results.usage.isVisible()  # no "use it" snippet: it was not installed
    assert not page.isComplete()
    assert freeze(scratch_torch_env) == before and load_installs() == []
    assert page.install_anyway.isVisible() and page.rebuild.isVisible()
    assert any(b.ratio is not None and b.ratio > 1 for b in page.results.chart.items)

    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.StandardButton.No)
    assert page.ask_install_anyway() is False  # the warning comes first; "No" changes nothing
    assert freeze(scratch_torch_env) == before

    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert page.ask_install_anyway() is True
    # the session knows of the install a moment before the page has shown it: wait for both
    qtbot.waitUntil(lambda: installed(page) is not None and page.task is None, timeout=60_000)
    assert page.verdict.text().startswith("⚠ Installed although")
    assert page.rollback_button.isVisible()
    page.do_rollback()  # in the background: the window stays responsive
    qtbot.waitUntil(lambda: page.task is None, timeout=60_000)
    assert "Rolled back" in page.verdict.text()
    assert wizard.session.verify_outcome is not None
    assert wizard.session.verify_outcome.installed is None  # the Done page says so too
    assert "ksw-probe-kernel" not in freeze(scratch_torch_env)


def test_reverify_needs_an_install(qtbot: Any, tmp_path: Path, scratch_torch_env: Path) -> None:
    wizard = wizard_for(qtbot, tmp_path, scratch_torch_env, None)
    assert wizard.start_reverify() is False  # nothing installed: the Welcome page stays
    assert wizard.currentId() == FlowStep.WELCOME


def test_reverify_from_the_welcome_page(
    qtbot: Any, tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any
) -> None:
    from kernel_wizard.flow.verify_install import verify_then_install

    verify_then_install(scratch_torch_env, kernel_wheel("correct"), kernel="probe",
                        adapter="probe")
    wizard = wizard_for(qtbot, tmp_path, scratch_torch_env, None)
    welcome = wizard.currentPage()
    assert welcome.reverify_choice.isEnabled()  # type: ignore[attr-defined]
    assert wizard.start_reverify()  # what the "Re-verify GPU kernels" shortcut opens
    assert wizard.currentId() == FlowStep.VERIFY
    page = wizard.page_of(FlowStep.VERIFY)
    assert isinstance(page, VerifyPage)
    assert page.title() == "Check the installed kernels again"
    assert page.subTitle().startswith("The kernels this wizard installed are tested against "
                                      "PyTorch again")
    assert not wizard.steps.labels[int(FlowStep.BUILD)].isVisibleTo(wizard)  # a shorter path
    qtbot.waitUntil(lambda: page.task is None and bool(page.session.reverify_results),
                    timeout=120_000)
    assert page.verdict.text().startswith("✔ PASS — the installed kernel works.")  # not "all 1"
    assert "Nothing changed since the last passing verification" in page.explanation.text()
    assert page.explanation.text().startswith("probe in ")
    assert page.isComplete()
