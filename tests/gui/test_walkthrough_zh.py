"""The whole wizard in Simplified Chinese, offscreen, through real clicks, at three sizes.

The happy path of test_walkthrough.py (the recorded H100, a recorded healthy Linux machine, the
stand-in builder, the real verification, then "Install into …" and the install) with the
shipped zh_CN translation loaded as the wizard loads it for a Chinese system. On every page
(Welcome, Hardware, Prerequisites with every row's details open, Kernel, Build with its plan
open, Verify after the pass and after the install, Done), at every size:

* nothing is cut off and every control can be reached (Chinese texts have other widths);
* no English word is left among what the page shows (english.py: labels, buttons, group boxes,
  the headers and cells of tables and trees, combo box entries, progress texts, tool tips, the
  title and subtitle; names, units, versions, paths and code are not words), nor in a dialog
  the walk answers. There are no exceptions: the build log, the commands a fix would run and
  the usage snippet are the programs' output, not the wizard's, and are not read.

Screenshots go to ``KSW_SCREENSHOTS`` (default: a temporary folder) as ``zh-<page>-<size>``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from english import english_in, english_words
from gui_support import Dialogs
from ksw_testsupport import installed
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QApplication, QWidget
from test_walkthrough import Buttons, at_every_size, click, make_wizard, screenshots

from app.i18n import install_translator
from app.wizard import InstallerWizard
from kernel_wizard.flow.session import FlowStep


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    yield
    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)
        translator.deleteLater()


def machine_output(wizard: InstallerWizard) -> list[QWidget]:
    """The widgets that show programs' own output, not the wizard's words: the build log, the
    commands a fix runs and its output, the usage snippet to copy."""
    widgets: list[QWidget] = []
    for row in wizard.page_of(FlowStep.PREREQS).rows.values():  # type: ignore[attr-defined]
        widgets += [row.command_text, row.log]
    build = wizard.page_of(FlowStep.BUILD)
    widgets += [build.log, build.plan_text]  # type: ignore[attr-defined]
    widgets.append(wizard.page_of(FlowStep.VERIFY).results.usage)  # type: ignore[attr-defined]
    widgets.append(wizard.page_of(FlowStep.DONE).usage)  # type: ignore[attr-defined]
    return widgets


def test_walk_through_every_page_in_chinese(
    qtbot: Any, tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any, chinese: None
) -> None:
    shots = screenshots(tmp_path)
    dialogs = Dialogs(lambda seen: seen.buttons[-1])
    wizard = make_wizard(qtbot, tmp_path, scratch_torch_env, kernel_wheel("correct"))
    next_button = wizard.button(Buttons.NextButton)
    assert next_button.text() != "Next"  # Qt's own words come from qtbase_zh_CN
    english: dict[str, list[str]] = {}
    layout: dict[str, dict[str, list[str]]] = {}

    def look(name: str, controls: list[QWidget]) -> None:
        QCoreApplication.processEvents()
        english[name] = english_words(wizard.currentPage(), machine_output(wizard))
        layout[name] = at_every_size(wizard, f"zh-{name}", controls, shots)

    assert wizard.windowTitle() == "内核安装向导"
    look("welcome", [])
    click(qtbot, next_button)

    hardware = wizard.page_of(FlowStep.HARDWARE)
    qtbot.waitUntil(hardware.isComplete, timeout=120_000)
    look("hardware", [hardware.env_combo])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    prereqs = wizard.page_of(FlowStep.PREREQS)
    qtbot.waitUntil(lambda: prereqs.session.facts is not None and not prereqs.is_busy(),  # type: ignore[attr-defined]
                    timeout=60_000)
    for row in prereqs.rows.values():  # type: ignore[attr-defined]
        if row.details_toggle.isVisible() and not row.details_toggle.isChecked():
            row.details_toggle.click()  # the details are words too
    look("prereqs", [prereqs.check_all_button])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    kernel = wizard.page_of(FlowStep.KERNEL)
    qtbot.waitUntil(kernel.isComplete, timeout=60_000)
    look("kernel", [kernel.tree, kernel.details])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    build = wizard.page_of(FlowStep.BUILD)
    qtbot.waitUntil(build.isComplete, timeout=60_000)
    build.plan_toggle.setChecked(True)  # type: ignore[attr-defined]
    look("build", [build.plan_toggle])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    verify = wizard.page_of(FlowStep.VERIFY)
    qtbot.waitUntil(lambda: verify.task is None  # type: ignore[attr-defined]
                    and verify.session.current_verification() is not None,  # type: ignore[attr-defined]
                    timeout=120_000)
    assert verify.verdict.text().startswith("✔")  # type: ignore[attr-defined]
    look("verify-pass", [verify.install_panel.install_button,  # type: ignore[attr-defined]
                         verify.install_panel.skip_install, verify.results.table])  # type: ignore[attr-defined]
    click(qtbot, verify.install_panel.install_button)  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: verify.task is None and installed(verify) is not None,  # type: ignore[attr-defined]
                    timeout=60_000)
    look("verify", [verify.results.table, verify.results.copy_usage, verify.rollback_button])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    assert wizard.currentId() == FlowStep.DONE
    look("done", [])
    dialogs.stop()
    assert {k: v for k, v in layout.items() if v} == {}
    for seen in dialogs.shown:  # what the dialogs said is words too
        english.setdefault("dialogs", []).extend(
            f"{seen.title}: {text[:160]!r}" for text in (seen.title, seen.text, *seen.buttons)
            if english_in(text))
    assert set(english) >= {"welcome", "hardware", "prereqs", "kernel", "build", "verify-pass",
                            "verify", "done"}
    left = [f"{page}: {found}" for page, items in english.items() for found in items]
    assert not left, "English left on the pages:\n" + "\n".join(left)
