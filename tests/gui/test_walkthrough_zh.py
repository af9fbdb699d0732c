"""The whole wizard in Simplified Chinese, offscreen, through real clicks, at three sizes.

The happy path of test_walkthrough.py (the recorded H100, a recorded healthy Linux machine, the
stand-in builder, the real verification and install) with the shipped zh_CN translation loaded
as the wizard loads it for a Chinese system. On every page, at every size:

* nothing is cut off and every control can be reached (Chinese texts have other widths);
* no English sentence is left among what the page shows: a run of four or more English words,
  or a line with two of English's little words ("and", "the", "is" ...), in a label, button,
  group box, table or tree header, or tooltip is reported (program
  names, versions, paths and command lines are not sentences and are left alone; the build
  log, the usage snippet and other copyable text are the program's output, not the wizard's).

Screenshots go to ``KSW_SCREENSHOTS`` (default: a temporary folder) as ``zh-<page>-<size>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gui_support import Dialogs
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QGroupBox,
    QLabel,
    QTableWidget,
    QTreeWidget,
    QWidget,
)
from test_walkthrough import Buttons, at_every_size, click, make_wizard, screenshots

from app.i18n import install_translator
from app.wizard import InstallerWizard, PageId

# four English words in a row, the last three in lower case: a sentence, not a name
# ("NVIDIA H100 80GB HBM3", "PyTorch 2.13.0+cpu", "Visual Studio Build Tools" are names)
SENTENCE = re.compile(r"\b[A-Za-z][a-z']+(?:,? [a-z][a-z']+){3,}\b")
# ... or two of the little words every English sentence has ("gcc and g++ are installed")
LITTLE = {"the", "and", "is", "are", "for", "with", "not", "to", "of", "in", "on", "this", "here",
          "will", "be", "can", "it", "an", "no", "or", "your", "you", "its", "has", "have", "was",
          "from", "by", "at", "as", "that", "needs", "need", "found", "run", "runs"}
# what is not a sentence even if it reads like one: paths, command lines, options, code
NOT_PROSE = re.compile(r"(`[^`]*`|<[^>]+>|\S*[/\\]\S*|--?\w[\w-]*|\w+\(\S*\)|\S+\.\S+)")


# Pages that still show sentences the core makes in English: the prerequisite checks
# (build_backend/prereqs, toolchain) and the target Python's summary (environment.py) are not
# msg()/N_ sentences yet. Their layout is checked all the same; their words are not.
NOT_YET_TRANSLATED = {"prereqs", "hardware"}


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    yield
    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)
        translator.deleteLater()


def _texts(widget: QWidget) -> Iterator[tuple[str, str]]:
    """(what, text) of everything the page shows in words of the wizard's own."""
    for child in [widget, *widget.findChildren(QWidget)]:
        if not child.isVisibleTo(widget.window()):
            continue
        name = type(child).__name__ + (f"#{child.objectName()}" if child.objectName() else "")
        if isinstance(child, QLabel):
            yield name, child.text()
        elif isinstance(child, QAbstractButton):
            yield name, child.text()
        elif isinstance(child, QGroupBox):
            yield name, child.title()
        elif isinstance(child, QTableWidget):
            for column in range(child.columnCount()):
                header = child.horizontalHeaderItem(column)
                if header is not None:
                    yield name, header.text()
        elif isinstance(child, QTreeWidget):
            header = child.headerItem()
            yield name, " ".join(header.text(c) for c in range(header.columnCount()))
        if child.toolTip():
            yield name + ".toolTip", child.toolTip()


def english_sentences(wizard: InstallerWizard) -> list[str]:
    found = []
    page = wizard.currentPage()
    for what, text in [*_texts(page), ("title", page.title()), ("subtitle", page.subTitle())]:
        prose = NOT_PROSE.sub(" ", re.sub(r"<[^>]+>", " ", text))
        runs = [m.group(0) for m in SENTENCE.finditer(prose)]
        for line in prose.splitlines():
            little = {w.lower() for w in re.findall(r"[A-Za-z]+", line)} & LITTLE
            if len(little) >= 2 and not any(run in line for run in runs):
                runs.append(line.strip())
        found += [f"{what}: {run!r} in {text[:120]!r}" for run in runs]
    return found


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
        english[name] = english_sentences(wizard)
        layout[name] = at_every_size(wizard, f"zh-{name}", controls, shots)

    assert wizard.windowTitle() == "内核安装向导"
    look("welcome", [])
    click(qtbot, next_button)

    hardware = wizard.page_of(PageId.HARDWARE)
    qtbot.waitUntil(hardware.isComplete, timeout=120_000)
    look("hardware", [hardware.env_combo])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    prereqs = wizard.page_of(PageId.PREREQS)
    qtbot.waitUntil(lambda: prereqs.results is not None and not prereqs.is_busy(),  # type: ignore[attr-defined]
                    timeout=60_000)
    for row in prereqs.rows.values():  # type: ignore[attr-defined]
        if row.details_toggle.isVisible() and not row.details_toggle.isChecked():
            row.details_toggle.click()  # the details are words too
    look("prereqs", [prereqs.check_all_button])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    kernel = wizard.page_of(PageId.KERNEL)
    qtbot.waitUntil(kernel.isComplete, timeout=60_000)
    look("kernel", [kernel.tree, kernel.details])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    build = wizard.page_of(PageId.BUILD)
    qtbot.waitUntil(build.isComplete, timeout=60_000)
    look("build", [build.plan_toggle])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    verify = wizard.page_of(PageId.VERIFY)
    qtbot.waitUntil(lambda: verify.task is None and verify.flow is not None,  # type: ignore[attr-defined]
                    timeout=120_000)
    assert verify.verdict.text().startswith("✔")  # type: ignore[attr-defined]
    look("verify", [verify.table, verify.copy_usage])  # type: ignore[attr-defined]
    click(qtbot, next_button)

    assert wizard.currentId() == PageId.DONE
    look("done", [])
    dialogs.stop()
    assert {k: v for k, v in layout.items() if v} == {}
    left = [f"{page}: {found}" for page, items in english.items() for found in items
            if page not in NOT_YET_TRANSLATED]
    assert not left, "English left on the pages:\n" + "\n".join(left)
