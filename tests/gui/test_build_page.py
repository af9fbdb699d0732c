"""The Build page, offscreen, driving real child processes (the fake_build.py stand-in)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ksw_testsupport import build_this_plan
from PySide6.QtWidgets import QMessageBox, QWizard

from app.pages.build import BuildPage
from app.widgets.banner import Tone
from app.wizard import InstallerWizard
from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import BuildPlan, make_plan
from kernel_wizard.build.run import BuildStatus, run_build
from kernel_wizard.flow.session import FlowStep, Session, SessionServices
from kernel_wizard.machine.environment import Candidate
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

TESTS = Path(__file__).resolve().parents[1]
STANDIN = TESTS / "data" / "standins" / "fake_build.py"
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"
SHARED_LOGS = TESTS / "data" / "logs" / "flashmla"  # real FlashMLA logs (from shared/logs)


@pytest.fixture(autouse=True)
def answer_yes_at_teardown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal question offscreen would wait forever: closing the wizard at teardown while a
    build still runs answers "Yes, stop it" (tests that ask about it patch their own answer)."""
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: QMessageBox.StandardButton.Ok)


def standin(tmp_path: Path, *mode: str) -> BuildPlan:
    out = tmp_path / "staging"
    plan = make_plan(
        kernel="fake", version="0.1", source_dir=tmp_path, python=Path(sys.executable),
        python_scripts=None, output_dir=out, log_path=tmp_path / "build.log",
        parallelism=Parallelism(2, 1, "2 jobs (test)"),
    )
    return replace(plan, command=(sys.executable, str(STANDIN), str(out), *mode))


def open_build_page(
    qtbot: Any, plan: BuildPlan, torch_venv: Path
) -> tuple[InstallerWizard, BuildPage]:
    recording = json.loads(H100.read_text(encoding="utf-8"))

    def make(state: Session) -> BuildPlan:
        return plan

    services = SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(torch_venv, "test")],
        build=build_this_plan(make, run_build),
        run_checks=lambda _facts: [],  # prerequisites: tests/gui/test_prereqs_page.py
    )
    wizard = InstallerWizard(services)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    hardware = wizard.page_of(FlowStep.HARDWARE)
    qtbot.waitUntil(lambda: hardware.isComplete(), timeout=120_000)
    while wizard.currentId() != FlowStep.BUILD:  # through the pages between (Kernel, ...)
        current = wizard.currentPage()
        qtbot.waitUntil(current.isComplete, timeout=120_000)
        wizard.next()
    page = wizard.page_of(FlowStep.BUILD)
    assert isinstance(page, BuildPage) and wizard.currentId() == FlowStep.BUILD
    return wizard, page


def back(wizard: InstallerWizard) -> Any:
    return wizard.button(QWizard.WizardButton.BackButton)


def test_streams_progress_and_completes(qtbot: Any, tmp_path: Path, torch_venv: Path) -> None:
    wizard, page = open_build_page(qtbot, standin(tmp_path, "ok", "20", "0.03"), torch_venv)
    assert page.is_running()
    assert not back(wizard).isEnabled()  # no going back while building
    assert not page.isComplete()
    qtbot.waitUntil(lambda: page.progress.maximum() == 20, timeout=10_000)
    qtbot.waitUntil(lambda: not page.is_running(), timeout=30_000)
    assert page.progress.value() == page.progress.maximum()
    assert page.progress.text() == "20 / 20 units"  # all the units, not "1 / 1" at the end
    assert page.log.lines_received >= 20
    assert "[20/20]" in page.log.shown_text()
    assert page.banner.tone is Tone.OK
    assert page.isComplete()
    assert back(wizard).isEnabled()
    steps = [page.steps.topLevelItem(i).text(0) for i in range(page.steps.topLevelItemCount())]
    assert steps == ["Compile", "Link", "Package the wheel"]
    assert "fake_build.py" in page.plan_text.toPlainText()  # "what will run"
    assert wizard.session.build_outcome is not None
    assert wizard.session.build_outcome.status is BuildStatus.SUCCEEDED


def test_cancel_asks_then_stops(qtbot: Any, tmp_path: Path, torch_venv: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    wizard, page = open_build_page(qtbot, standin(tmp_path, "grandchildren"), torch_venv)
    qtbot.waitUntil(lambda: "pids" in page.log.shown_text(), timeout=20_000)

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    assert page.ask_cancel() is False
    qtbot.wait(300)
    assert page.is_running()  # "No" keeps the build going

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert page.ask_cancel() is True
    qtbot.waitUntil(lambda: not page.is_running(), timeout=10_000)
    outcome = page.session.current_build()
    assert outcome is not None and outcome.status is BuildStatus.CANCELLED
    assert page.banner.tone is Tone.WARNING
    assert not page.isComplete()
    assert page.rebuild_button.isVisible()


def test_closing_the_wizard_during_a_build_asks_first(
    qtbot: Any, tmp_path: Path, torch_venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wizard, page = open_build_page(qtbot, standin(tmp_path, "grandchildren"), torch_venv)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    wizard.reject()
    assert wizard.isVisible() and page.is_running()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    wizard.reject()
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=10_000)
    outcome = page.session.current_build()
    assert outcome is not None and outcome.status is BuildStatus.CANCELLED


def test_a_diagnosed_failure_is_explained(qtbot: Any, tmp_path: Path, torch_venv: Path) -> None:
    log = SHARED_LOGS / "flashmla-cuda13-missing-cccl.log"
    if not log.exists():
        pytest.skip(f"recorded logs not found at {SHARED_LOGS}")
    wizard, page = open_build_page(qtbot, standin(tmp_path, "replay", str(log)), torch_venv)
    qtbot.waitUntil(lambda: not page.is_running(), timeout=30_000)
    assert page.banner.tone is Tone.ERROR
    text = page.diagnosis.toPlainText()
    assert "cuda/std/utility" in text  # the first real error, quoted
    assert "include" in text.lower()  # and the fix
    assert "ninja: build stopped" not in page.banner.title.text()
    assert not page.isComplete()


def test_changing_the_kernel_after_a_build_builds_again(
    qtbot: Any, tmp_path: Path, torch_venv: Path
) -> None:
    from kernel_wizard.catalog import load_catalog
    from kernel_wizard.flow.pipeline import KernelChoice, SourceMode

    wizard, page = open_build_page(qtbot, standin(tmp_path, "ok", "2"), torch_venv)
    qtbot.waitUntil(page.isComplete, timeout=30_000)
    first = page.session.current_build()
    page.initializePage()  # shown again with the same choices: the build is reused
    assert not page.is_running() and page.session.current_build() is first
    recipe = load_catalog().get("probe")  # the user went back and chose another source
    wizard.session.kernel_choice = KernelChoice(recipe, recipe.newest, SourceMode.LOCAL,
                                              tmp_path / "my probe")
    page.initializePage()
    assert page.is_running() and page.session.current_build() is None  # not the old result
    assert wizard.session.build_outcome is None  # the Verify page cannot pick up the old wheel
    qtbot.waitUntil(lambda: not page.is_running(), timeout=30_000)
    assert page.session.current_build() is not None and page.session.current_build() is not first
