"""The Build page after a failure (issue 13, item 4): the bar shows the failure, the first
real error is named, and the report bundle can be saved from the page, as on the Verify page.

The failing build replays a REAL log: the probe built with CXX=/opt/nonexistent/g++ on this
project's test machine (tests/data/logs/probe-cxx-missing.log), through the fake_build.py
stand-in, so the page sees exactly the lines a real failure streams.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox
from test_build_page import open_build_page, standin

from app.widgets.banner import Tone

LOG = Path(__file__).resolve().parents[1] / "data" / "logs" / "probe-cxx-missing.log"


@pytest.fixture(autouse=True)
def no_modal_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)


def test_a_failed_build_shows_failure_on_the_bar_and_offers_the_report_bundle(
    qtbot: Any, tmp_path: Path, torch_venv: Path, isolated_wizard_data: Path
) -> None:
    wizard, page = open_build_page(qtbot, standin(tmp_path, "replay", str(LOG)), torch_venv)
    assert not page.bundle_button.isVisible()  # nothing to report while it runs
    qtbot.waitUntil(lambda: not page.is_running(), timeout=30_000)

    assert page.banner.tone is Tone.ERROR
    said = page.banner.title.text() + page.banner.hint.text()
    # the cause, named with this log's own fact: the compiler that could not be run
    assert "A build tool is missing or cannot be run: /opt/nonexistent/g++" in said, said
    assert "Traceback" not in said
    # the log said [1/1]: the bar must not read like a finished build
    assert page.progress.text().startswith("Failed")
    assert page.progress.text() != "1 / 1"
    assert page.rebuild_button.isVisible()

    assert page.bundle_button.isVisible() and page.bundle_button.text() == "Save report bundle…"
    bundle = page.save_bundle(tmp_path / "report ü.zip")
    names = zipfile.ZipFile(bundle).namelist()
    assert "environment.json" in names
    assert "extra/build.log" in names  # the failed build's log, kept outside the data folder
    assert str(bundle) in page.bundle_saved.text() and page.bundle_saved.isVisible()


    page.rebuild_button.click()  # building again starts from a fresh bar
    assert not page.progress.text().startswith("Failed")
    assert not page.bundle_button.isVisible() and not page.bundle_saved.isVisible()
    qtbot.waitUntil(lambda: not page.is_running(), timeout=30_000)


def test_a_failure_of_no_known_cause_is_never_shown_as_clean(
    qtbot: Any, tmp_path: Path, torch_venv: Path, isolated_wizard_data: Path
) -> None:
    """a failed build whose log has no compiler-style error and no known cause: the page
    shows the line where it failed, says the cause is not known, and offers the bundle"""
    log = tmp_path / "no-known-cause.log"
    log.write_text("running build_ext\n"
                   "./build.sh: line 3: ./tools/gen: cannot execute binary file\n"
                   "error: subprocess-exited-with-error\n", encoding="utf-8")
    wizard, page = open_build_page(qtbot, standin(tmp_path, "replay", str(log)), torch_venv)
    qtbot.waitUntil(lambda: not page.is_running(), timeout=30_000)
    assert page.banner.tone is Tone.ERROR
    shown = page.diagnosis.toPlainText()
    assert "→ ./build.sh: line 3: ./tools/gen: cannot execute binary file" in shown, shown
    # the family (where it stopped) and its next step stand in for the unknown cause
    assert "The cause is not one the wizard knows; it stopped while preparing the build" in shown
    assert "Stopped while preparing the build" in shown
    assert "No errors" not in shown + page.banner.title.text() + page.banner.hint.text()
    assert page.bundle_button.isVisible()
