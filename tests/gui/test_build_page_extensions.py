"""The Build page during a build of several torch extensions (one ninja run each): the real
output of a SageAttention 2 build on the H100 (four extensions, 2+8+2+2 units; the recording
tests/integration/test_build_replay_extensions.py replays) run through the build runner and
fed to the page. The bar counts every extension's units and says which extension compiles;
the label too; the terminal's line says the same; in Chinese as well. A build of one
extension reads as before (tests/gui/test_build_page_progress.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eta_testsupport import replay_output
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from app.i18n import install_translator
from app.pages.build import BuildPage
from kernel_wizard.build.eta import Phase
from kernel_wizard.build.progress_view import line_text as progress_text
from kernel_wizard.build.run import BuildEvent, ProgressEvent

RECORDED = Path(__file__).parent.parent / "data" / "buildtimes" / "sageattention-h100"


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> list[BuildEvent]:
    folder = tmp_path_factory.mktemp("extensions")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KSW_DATA_DIR", str(folder / "ksw-data"))
        _outcome, recorded = replay_output(folder, RECORDED / "build-output.log")
    return recorded


def shown(qtbot: Any, events: list[BuildEvent]) -> list[tuple[ProgressEvent, str, str]]:
    page = BuildPage()
    qtbot.addWidget(page)
    out = []
    for event in events:
        if isinstance(event, ProgressEvent) and event.total:
            page.show_progress(event)
            out.append((event, page.progress.text(), page.eta.text()))
    return out


def test_the_bar_and_the_terminal_say_which_extension_compiles(
        qtbot: Any, events: list[BuildEvent]) -> None:
    seen = shown(qtbot, events)
    # the second extension's first progress shown (the runner reads the replayed lines in
    # chunks: on a busy machine its first unit may come together with the next ones)
    second = [(e, bar, label) for e, bar, label in seen if e.run == 2]
    assert second, "the second extension's progress was shown"
    event, bar, label = second[0]
    assert event.phase is Phase.COMPILE and 3 <= event.done < 10
    assert bar in (f"extension 2 · {event.done} / 10 units",
                   f"extension 2 · {event.done} / 10 units so far")
    assert label.startswith("extension 2 · ") and " elapsed" in label
    assert progress_text(event).startswith(f"compile extension 2 · {event.done}/10 units")
    last = seen[-1]
    assert last[0].run == 4 and last[0].done == last[0].total == 14
    assert last[1].startswith("extension 4 · 14 / 14 units")
    assert all(not (e.run <= 1 and not e.more_expected) or ("extension" not in bar)
               for e, bar, _label in seen)  # one run so far, none expected: as before


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    yield
    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)
        translator.deleteLater()


def test_in_chinese(qtbot: Any, chinese: None) -> None:
    page = BuildPage()
    qtbot.addWidget(page)
    page.show_progress(ProgressEvent(5, 10, 200.0, 250.0, Phase.COMPILE, run=2))
    assert page.progress.text() == "第 2 个扩展 · 5 / 10 个编译单元"
    assert page.eta.text().startswith("第 2 个扩展 · ")
    page.show_progress(ProgressEvent(2, 2, 300.0, 60.0, Phase.COMPILE, run=1,
                                    more_expected=True))
    assert page.progress.text() == "第 1 个扩展 · 目前 2 / 2 个编译单元"
    page.show_progress(ProgressEvent(12, 73, 540.0, 250.0, Phase.COMPILE, run=1))
    assert page.progress.text() == "12 / 73 个编译单元"  # one extension: as before
    assert not page.eta.text().startswith("第")


def test_one_extension_reads_as_before(qtbot: Any) -> None:
    page = BuildPage()
    qtbot.addWidget(page)
    page.show_progress(ProgressEvent(12, 73, 9 * 60 + 4, 250.0, Phase.COMPILE, run=1))
    assert page.progress.text() == "12 / 73 units"
    assert page.eta.text() == "4 min 10 s elapsed · about 9 min left"


