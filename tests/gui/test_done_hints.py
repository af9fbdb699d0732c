"""The Done page names the command as this program is started (issue 24): ``python -m app
--verify`` from source; the bundle's console program when frozen (a bundle user has no
``python -m app``), in Chinese too."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from app.pages.done import DonePage


def later_text(qtbot: Any) -> str:
    page = DonePage()
    qtbot.addWidget(page)
    return page.later_text.text()


def test_done_from_source_says_python_m_app(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """from source: '(From a terminal: python -m app --verify)', as before"""
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert later_text(qtbot).endswith("(From a terminal: python -m app --verify)")


def test_done_frozen_names_the_bundles_program(qtbot: Any, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """frozen: the console program beside the wizard, by its path (quoted: spaces), or by its
    name where PATH finds it; never 'python -m app'"""
    folder = tmp_path / "Kernel Setup Wizard"
    folder.mkdir()
    for name in ("kernel-setup-wizard", "kernel-setup-wizard-cli"):
        (folder / name).write_bytes(b"")
        (folder / name).chmod(0o755)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(folder / "kernel-setup-wizard"))
    monkeypatch.setenv("PATH", str(tmp_path))
    text = later_text(qtbot)
    assert text.endswith(f'(From a terminal: "{folder / "kernel-setup-wizard-cli"}" --verify)')
    assert "python -m app" not in text
    monkeypatch.setenv("PATH", str(folder))
    assert later_text(qtbot).endswith("(From a terminal: kernel-setup-wizard-cli --verify)")


def test_done_frozen_in_chinese(qtbot: Any, qapp: Any, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """in Chinese, the same sentence names the bundle's program"""
    from PySide6.QtCore import QTranslator

    from app.i18n import install_translator

    folder = tmp_path / "bundle"
    folder.mkdir()
    (folder / "kernel-setup-wizard").write_bytes(b"")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(folder / "kernel-setup-wizard"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    try:
        text = later_text(qtbot)
    finally:
        for translator in qapp.findChildren(QTranslator):
            qapp.removeTranslator(translator)
            translator.deleteLater()
    assert text.endswith(f"（在终端中：{folder / 'kernel-setup-wizard'} --verify）"), text
