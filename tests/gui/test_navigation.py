"""Leaving, stopping and asking, offscreen, through the real dialogs (their buttons as shown).

A running build asked to close says that the wizard closes; a cancelled build names the button
that starts it again; fix confirmations and the "no pip" question are verbs; the blocking
prerequisite comes first; the Python file dialog filters for Python programs and opens next to
the current one; Done's buttons open the report and its folder and make the re-verify shortcut.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gui_support import Dialogs, Shown
from PySide6.QtCore import QObject, QSize, QTimer, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QFileDialog, QWizard
from test_build_page import open_build_page, standin
from test_prereqs_page import gcc, linux, open_page, python_env, settle

from app.pages.hardware import HardwarePage, browse_start, python_file_filter
from app.wizard import DEFAULT_SIZE, MIN_SIZE, InstallerWizard, initial_size, wizard_style
from kernel_wizard.build.run import BuildStatus
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.machine.environment import Candidate, inspect_python
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.prereqs import CheckId

H100 = Path(__file__).resolve().parents[1] / "data" / "nvml" / "h100-driver580.json"


class Answers:
    """Answer dialogs in turn with the given button texts."""

    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)
        self.dialogs = Dialogs(self._choose)

    def _choose(self, seen: Shown) -> str:
        return self.texts.pop(0)

    @property
    def shown(self) -> list[Shown]:
        return self.dialogs.shown


@pytest.fixture
def answers() -> Iterator[list[Answers]]:
    made: list[Answers] = []
    yield made
    for a in made:
        a.dialogs.stop()


def answer(made: list[Answers], *texts: str) -> Answers:
    a = Answers(*texts)
    made.append(a)
    return a


def test_the_window_fits_a_laptop_and_opens_large_elsewhere() -> None:
    laptop = initial_size(QSize(1093, 614 - 38))  # 1366×768 at 125 %, taskbar below
    assert laptop.height() <= 614 - 38 - 30 and laptop.width() <= 1093 - 16
    assert initial_size(QSize(2560, 1400)) == DEFAULT_SIZE
    assert initial_size(QSize(640, 400)) == MIN_SIZE  # never below the smallest usable size
    assert wizard_style("windows") is None  # Qt's native (Aero) wizard on Windows
    assert wizard_style("linux") is QWizard.WizardStyle.ModernStyle


def test_closing_during_a_build_says_the_wizard_closes(
    qtbot: Any, tmp_path: Path, torch_venv: Path, answers: list[Answers]
) -> None:
    wizard, page = open_build_page(qtbot, standin(tmp_path, "grandchildren"), torch_venv)
    qtbot.waitUntil(lambda: "pids" in page.log.shown_text(), timeout=20_000)
    asked = answer(answers, "Keep building", "Stop and close")
    wizard.reject()  # the window's close button, or Cancel
    assert asked.shown[0].title == "Stop the build and close the wizard?"
    assert asked.shown[0].buttons == ["Stop and close", "Keep building"]
    assert "close the wizard" in asked.shown[0].text
    assert wizard.isVisible() and page.is_running()
    wizard.reject()
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=15_000)
    outcome = page.session.current_build()
    assert outcome is not None and outcome.status is BuildStatus.CANCELLED


def test_a_cancelled_build_names_the_button_that_starts_it_again(
    qtbot: Any, tmp_path: Path, torch_venv: Path, answers: list[Answers]
) -> None:
    wizard, page = open_build_page(qtbot, standin(tmp_path, "grandchildren"), torch_venv)
    qtbot.waitUntil(lambda: "pids" in page.log.shown_text(), timeout=20_000)
    asked = answer(answers, "Stop the build")
    page.cancel_button.click()
    assert asked.shown[0].buttons == ["Stop the build", "Keep building"]
    qtbot.waitUntil(lambda: not page.is_running(), timeout=15_000)
    assert page.banner.title.text() == ("<b>⚠  The build was cancelled; nothing was "
                                        "installed.</b>")
    assert f"“{page.rebuild_button.text()}”" in page.banner.hint.text()
    assert page.rebuild_button.isVisible()
    # nothing built: Cancel quits without a second question
    before = len(asked.shown)
    wizard.button(QWizard.WizardButton.CancelButton).click()
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=5_000)
    assert len(asked.shown) == before


def test_fix_confirmation_uses_verbs_and_the_blocking_row_comes_first(
    qtbot: Any, answers: list[Answers]
) -> None:
    facts = linux(compiler=gcc(gxx=False), env=python_env(ninja=False))
    wizard, page = open_page(qtbot, lambda **_: facts)
    layout = page.list_layout
    order = [layout.itemAt(i).widget() for i in range(len(page.rows))]
    statuses = [row.result.status.value for row in order]  # type: ignore[union-attr]
    order_of = ["missing", "blocked", "warning", "ok", "not_checked"]
    assert statuses == sorted(statuses, key=order_of.index)
    assert order[0] is page.rows[CheckId.COMPILER]  # g++ missing: first, though checks list it 1st
    row = page.rows[CheckId.PYTHON_ENV]
    assert row.result.fix is not None and row.result.fix.title == "Install ninja"
    asked = answer(answers, "Not now")
    row.fix_button.click()
    assert asked.shown[0].buttons == ["Install ninja", "Not now"]
    assert "This will run:" in asked.shown[0].text and "ninja" in asked.shown[0].text
    assert page.fix_job is None and not row.fix_panel.isVisible()  # "Not now" ran nothing
    settle(qtbot, page)


def test_no_pip_gets_an_install_button_that_asks_with_verbs(
    qtbot: Any, tmp_path: Path, answers: list[Answers]
) -> None:
    venv = tmp_path / "no pip"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    recording = json.loads(H100.read_text(encoding="utf-8"))
    wizard = InstallerWizard(SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(python, "test")], inspect=inspect_python))
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    page = wizard.page_of(FlowStep.HARDWARE)
    assert isinstance(page, HardwarePage)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=60_000)
    assert "has no pip" in page.env_banner.title.text()
    assert page.pip_button.isVisible() and page.pip_button.text() == "Install pip"
    asked = answer(answers, "Not now")
    page.pip_button.click()
    assert asked.shown[0].title == "Install pip?"
    assert asked.shown[0].buttons == ["Install pip", "Not now"]
    assert "-m ensurepip" in asked.shown[0].text
    assert not page.is_busy()  # nothing runs after "Not now" (the fix itself: integration test)


def test_the_python_file_dialog_filters_for_python_programs(
    qtbot: Any, tmp_path: Path, torch_venv: Path
) -> None:
    assert python_file_filter("windows").startswith("Python programs (python.exe pythonw.exe)")
    assert browse_start(None, tmp_path) == tmp_path
    assert browse_start(torch_venv, tmp_path) == torch_venv.parent
    recording = json.loads(H100.read_text(encoding="utf-8"))
    wizard = InstallerWizard(SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(torch_venv, "test")]))
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    page = wizard.page_of(FlowStep.HARDWARE)
    assert isinstance(page, HardwarePage)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    seen: list[tuple[list[str], str]] = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QFileDialog):
            seen.append((dialog.nameFilters(), dialog.directory().absolutePath()))
            dialog.reject()
        else:
            QTimer.singleShot(20, look)

    QTimer.singleShot(20, look)
    page.browse_button.click()
    assert seen, "no file dialog opened"
    filters, folder = seen[0]
    assert filters[0] == "Python programs (python python3 python3.*)"
    assert Path(folder) == torch_venv.parent  # next to the Python chosen now


class Opened(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def handle(self, url: QUrl) -> None:
        self.urls.append(url.toLocalFile())


def test_done_opens_the_report_folder_and_makes_the_shortcut(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / "Desktop").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    opened = Opened()
    QDesktopServices.setUrlHandler("file", opened, "handle")
    try:
        wizard = InstallerWizard(SessionServices(detect=lambda: detect(lambda: ReplayNvmlApi(
            json.loads(H100.read_text(encoding="utf-8")))), discover=lambda: []))
        wizard.setStartId(int(FlowStep.DONE))
        qtbot.addWidget(wizard)
        wizard.show()
        done = wizard.currentPage()
        assert wizard.currentId() == FlowStep.DONE
        assert "Nothing was installed" in done.summary.text()  # type: ignore[attr-defined]
        assert not done.report_button.isVisible()  # type: ignore[attr-defined]  # no report
        done.folder_button.click()  # type: ignore[attr-defined]
        assert opened.urls and opened.urls[-1].endswith("reports")
        done.shortcut_button.click()  # type: ignore[attr-defined]
        banner = done.shortcut_banner  # type: ignore[attr-defined]
        assert banner.isVisible() and "Shortcut created." in banner.title.text()
        entry = home / ".local" / "share" / "applications" / "kernel-setup-wizard-reverify.desktop"
        assert "--reverify" in entry.read_text(encoding="utf-8")
        assert (home / "Desktop" / entry.name).is_file()
        assert str(entry) in banner.hint.text()
    finally:
        QDesktopServices.unsetUrlHandler("file")
