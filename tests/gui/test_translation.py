"""Translations: the wizard speaks Simplified Chinese where the system (or KSW_LANG) asks for it,
every text shown through the GUI's calls goes through Qt's translation mechanism, and the
shipped .ts/.qm files hold every such text."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from app.i18n import choose_language, install_translator, translations_dir
from app.wizard import InstallerWizard
from kernel_wizard.flow.session import SessionServices

REPO = Path(__file__).resolve().parents[2]
SHOWN_BY = {"setTitle", "setSubTitle", "setText", "setToolTip", "setWindowTitle",
            "setPlaceholderText", "QLabel", "QPushButton", "QGroupBox", "QRadioButton",
            "QCheckBox", "QToolButton", "setButtonText", "show_message", "BusyRow",
            "setHorizontalHeaderLabels", "setFormat", "ask", "addButton"}


@pytest.mark.parametrize(("env", "system", "expected"), [
    ({}, "zh_CN", "zh_CN"),
    ({}, "zh_Hans_CN", "zh_CN"),
    ({}, "zh-SG", "zh_CN"),
    ({}, "zh_TW", None),  # Traditional Chinese is not shipped: English, not Simplified
    ({}, "en_US", None),
    ({}, "de_DE", None),
    ({"KSW_LANG": "zh_CN"}, "en_US", "zh_CN"),
    ({"KSW_LANG": "en"}, "zh_CN", None),
])
def test_the_language_follows_the_system_unless_ksw_lang_says_otherwise(
    env: dict[str, str], system: str, expected: str | None
) -> None:
    assert choose_language(env, system) == expected


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    language = install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US")
    assert language == "zh_CN"
    yield
    from PySide6.QtCore import QTranslator

    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)
        translator.deleteLater()


def test_the_wizard_speaks_simplified_chinese(qtbot: Any, chinese: None) -> None:
    wizard = InstallerWizard(SessionServices(discover=lambda: []))
    qtbot.addWidget(wizard)
    wizard.show()
    page = wizard.currentPage()
    assert page.title() == "欢迎使用内核安装向导"
    assert page.install_choice.text() == "安装并验证一个内核"
    assert wizard.windowTitle() == "内核安装向导"
    assert "前置条件" in [name for _, name in wizard.steps.steps]  # the step list
    assert wizard.steps.current_name() == "欢迎"


def test_every_text_shown_through_the_gui_calls_is_translatable() -> None:
    """No plain string literal is handed to a call that shows it: each is tr("...") (or a
    Texts entry), so that a translation can replace it."""
    plain = []
    for path in sorted((REPO / "app").rglob("*.py")):
        if path.name == "selftest.py":  # the bundle's self-test speaks to the build log
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name not in SHOWN_BY:
                continue
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                        and any(c.isalpha() for c in arg.value)):
                    plain.append(f"{path.relative_to(REPO)}:{arg.lineno}: {arg.value!r}")
    assert plain == []


def test_the_shipped_translation_holds_every_text_and_is_compiled(tmp_path: Path) -> None:
    check = subprocess.run([sys.executable, "scripts/translations.py", "--check"], cwd=REPO,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout  # every GUI text is in ksw_zh_CN.ts
    ts = translations_dir() / "ksw_zh_CN.ts"
    rebuilt = tmp_path / "ksw_zh_CN.qm"
    tool = Path(sys.executable).with_name("pyside6-lrelease")
    subprocess.run([str(tool if tool.exists() else "pyside6-lrelease"), "-silent", str(ts),
                    "-qm", str(rebuilt)], check=True)
    assert rebuilt.read_bytes() == (translations_dir() / "ksw_zh_CN.qm").read_bytes()


def _translator_from(tmp_path: Path, qapp: QApplication, context: str,
                     pairs: dict[str, str]) -> Any:
    """A .qm compiled by pyside6-lrelease from ``pairs``, installed into ``qapp``."""
    from xml.sax.saxutils import escape

    from PySide6.QtCore import QTranslator

    body = "".join(f"<message><source>{escape(k)}</source><translation>{escape(v)}"
                   f"</translation></message>" for k, v in pairs.items())
    ts = tmp_path / "t.ts"
    ts.write_text(f'<?xml version="1.0" encoding="utf-8"?><!DOCTYPE TS><TS version="2.1" '
                  f'language="zh_CN"><context><name>{context}</name>{body}</context></TS>',
                  encoding="utf-8")
    tool = Path(sys.executable).with_name("pyside6-lrelease")
    subprocess.run([str(tool if tool.exists() else "pyside6-lrelease"), "-silent", str(ts),
                    "-qm", str(tmp_path / "t.qm")], check=True)
    translator = QTranslator(qapp)
    assert translator.load(str(tmp_path / "t.qm"))
    qapp.installTranslator(translator)
    return translator


def test_core_sentences_are_shown_translated_with_their_values(
        tmp_path: Path, qapp: QApplication) -> None:
    """A sentence the core made with msg() is translated by its template, the values filled in
    after (a value that is a sentence too is translated); a translation whose template does
    not fit the values falls back to the English sentence, never to an error."""
    from app.i18n import tr_core
    from kernel_wizard.base.messages import join, msg

    translator = _translator_from(tmp_path, qapp, "core", {
        "{n} checks failed": "{n} 项检查失败",
        "Fix {what} first.": "请先修复{what}。",
        "the CUDA toolkit": "CUDA 工具包",
        "{free} free on {drive}": "{空闲} 可用",  # a translator's slip: a field renamed
        "Restart the computer.": "请重新启动计算机。",
    })
    try:
        assert tr_core(msg("{n} checks failed", n=3)) == "3 项检查失败"
        assert tr_core(msg("Fix {what} first.", what=msg("the CUDA toolkit"))) == \
            "请先修复CUDA 工具包。"
        assert tr_core(msg("{free} free on {drive}", free="3 GB", drive="C:")) == \
            "3 GB free on C:"
        assert tr_core("Restart the computer.") == "请重新启动计算机。"  # a fixed sentence
        assert tr_core(join([msg("{n} checks failed", n=1), "Restart the computer."])) == \
            "1 项检查失败 请重新启动计算机。"
        assert tr_core("Not in the translation.") == "Not in the translation."
    finally:
        qapp.removeTranslator(translator)
