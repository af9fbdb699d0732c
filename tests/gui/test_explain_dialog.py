""""Explain a log…" on the Welcome page (issue 31, item 2), offscreen: a real failing log
chosen in the file dialog is explained in a dialog that shows its first error line verbatim,
the cause, the next step and the search link; a clean log says so."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog

from app.pages.welcome import WelcomePage
from app.widgets.explain_dialog import ExplainDialog
from app.wizard import InstallerWizard
from kernel_wizard.diagnose.explain import explain_file
from kernel_wizard.flow.session import SessionServices
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
FAILED = LOGS / "field" / "flash-attention-509-nvcc-not-found.log"  # a training log
CLEAN = LOGS / "clean" / "pip-install-flash-attn-ok.log"
H100 = Path(__file__).resolve().parents[1] / "data" / "nvml" / "h100-driver580.json"


def h100_detect() -> HardwareReport:
    return detect(lambda: ReplayNvmlApi(json.loads(H100.read_text(encoding="utf-8"))))


def open_welcome(qtbot: Any) -> tuple[InstallerWizard, WelcomePage]:
    wizard = InstallerWizard(SessionServices(detect=h100_detect, discover=lambda: []))
    qtbot.addWidget(wizard)
    wizard.show()
    page = wizard.currentPage()
    assert isinstance(page, WelcomePage)
    return wizard, page  # the wizard is kept alive by the caller


def explain_via_button(qtbot: Any, page: WelcomePage, path: Path,
                       monkeypatch: pytest.MonkeyPatch) -> ExplainDialog:
    chosen: list[str] = []

    def pick(*args: Any, **kwargs: Any) -> tuple[str, str]:
        chosen.append("asked")
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", pick)
    assert page.explain_button.isVisible() and page.explain_button.text() == "Explain a log…"
    page.explain_button.click()
    assert chosen == ["asked"]
    qtbot.waitUntil(lambda: page.explainer.dialog is not None
                    and page.explainer.dialog.isVisible(), timeout=10_000)
    dialog = page.explainer.dialog
    assert dialog is not None
    return dialog


def test_a_real_failed_log_shows_its_first_error_verbatim(
        qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _wizard, page = open_welcome(qtbot)
    dialog = explain_via_button(qtbot, page, FAILED, monkeypatch)
    expected = explain_file(FAILED)
    assert expected.first_error is not None
    assert dialog.first_error.isVisible()
    assert dialog.first_error.toPlainText() == expected.first_error.strip()
    assert f"line {expected.first_error_line}" in dialog.headline.text()
    details = dialog.details.text()
    assert "Stopped while checking the prerequisites" in details
    assert "Cause: No CUDA toolkit was found" in details
    assert "Next step:" in details
    assert expected.search_url is not None
    assert f'href="{expected.search_url}"' in details.replace("&amp;", "&")
    assert "Dao-AILab/flash-attention" in details
    assert dialog.details.openExternalLinks()
    shot = Path(os.environ.get("KSW_EXPLAIN_SCREENSHOT", tmp_path / "explain.png"))
    assert dialog.grab().save(str(shot))


def test_a_clean_log_says_no_failure(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _wizard, page = open_welcome(qtbot)
    dialog = explain_via_button(qtbot, page, CLEAN, monkeypatch)
    assert dialog.headline.text() == "No failure found in this log."
    assert not dialog.first_error.isVisible()
    assert "href" not in dialog.details.text()
