"""The terminal and the Build page show one progress (kernel_wizard/build/progress_view.py):
for the events of a real recorded build (SageAttention 2 on the H100: four extensions, 14
units, run through the build runner), every line the terminal draws and what the page shows
for the same event say the same count, extension, time elapsed and time left. The page's
worker hands the newest progress on at most once per interval, and the last one always."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from eta_testsupport import replay_output

from app.pages.build import TEXT, BuildPage
from app.workers import BuildWorker
from kernel_wizard.build.eta import Phase
from kernel_wizard.build.progress_view import ENGLISH, ProgressFrame, ProgressView
from kernel_wizard.build.run import BuildEvent, LogLine, ProgressEvent
from kernel_wizard.cli.terminal import TerminalProgress

RECORDED = Path(__file__).parent.parent / "data" / "buildtimes" / "sageattention-h100"


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> list[BuildEvent]:
    folder = tmp_path_factory.mktemp("agree")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KSW_DATA_DIR", str(folder / "ksw-data"))
        _outcome, recorded = replay_output(folder, RECORDED / "build-output.log")
    return recorded


def facts(count: str, words: str) -> tuple[str | None, str | None, str | None, str]:
    """(done/total, extension, elapsed, what follows the elapsed time: the time left) read
    from what a person sees."""
    units = re.search(r"(\d+) ?/ ?(\d+) units?", count)
    extension = re.search(r"extension (\d+)", count + " " + words)
    elapsed = re.search(r"([\w ]+?) elapsed( · )?(.*)$", words)
    return (f"{units.group(1)}/{units.group(2)}" if units else None,
            extension.group(1) if extension else None,
            elapsed.group(1).strip() if elapsed else None,
            elapsed.group(3) if elapsed else words)


def test_the_terminal_and_the_page_say_the_same(qtbot: Any, events: list[BuildEvent]) -> None:
    page = BuildPage()
    qtbot.addWidget(page)
    out = io.StringIO()
    terminal = TerminalProgress(out, interactive=True)
    compared = 0
    extensions = set()
    for event in events:
        if not isinstance(event, ProgressEvent):
            continue
        before = len(out.getvalue())
        terminal(event)
        drawn = out.getvalue()[before:]
        if not drawn:
            continue  # held back by the terminal's view
        line = drawn.rsplit("\r", 1)[-1].split("] ", 1)[1].strip()
        page.show_progress(event)
        bar = page.progress.text() if event.total else ""
        said = facts(line, line)
        shown = facts(bar, page.eta.text())
        assert said[:3] == shown[:3], (line, bar, page.eta.text())
        # the time left, as far as the terminal's width lets it show
        assert shown[3].startswith(said[3]) and len(said[3]) >= min(len(shown[3]), 8), \
            (line, page.eta.text())
        compared += 1
        extensions.add(said[1])
    # the recording has 14 units in 4 extensions; how many progress events its replay makes
    # depends on the machine's speed (units closer than the runner's estimate interval share
    # one), so what is required is a comparison in every extension
    assert compared >= 4
    named = [(e.run, e.done, e.total, e.phase.name) for e in events
             if isinstance(e, ProgressEvent) and e.several_runs]
    assert {"2", "3", "4"} <= extensions, named  # each extension after the first on both


def test_the_page_translates_the_cores_forms() -> None:
    """The page passes the core's forms translated: the same keys, the same English."""
    assert {key: TEXT.english(key) for key in ENGLISH} == dict(ENGLISH)


def test_the_worker_shows_one_update_per_interval_and_the_last(qtbot: Any) -> None:
    """A flood of progress (a download's chunks) reaches the page a few times, not once per
    event, and the last event always arrives, before the outcome."""
    release = threading.Event()

    def run(sink: Callable[[BuildEvent], None], cancel: threading.Event) -> str:
        sink(LogLine("start", 1))
        for received in range(1, 2001):
            sink(ProgressEvent(received, 2000, None, unit="KiB"))
            if received == 1000:
                release.wait(5)  # the GUI drains meanwhile
        return "done"

    # a clock that stands still: no interval passes, so only the first and the last show
    view = ProgressView.for_display(clock=lambda: 0.0)
    worker: BuildWorker[BuildEvent] = BuildWorker(run, interval_ms=5, view=view)
    frames: list[ProgressFrame] = []
    order: list[str] = []
    worker.progress.connect(lambda frame: (frames.append(frame), order.append("progress")))
    worker.finished.connect(lambda outcome: order.append(str(outcome)))
    worker.start()
    qtbot.waitUntil(lambda: bool(frames), timeout=5000)
    release.set()
    qtbot.waitUntil(lambda: "done" in order, timeout=5000)
    assert len(frames) == 2
    assert frames[-1].event.done == 2000 and frames[-1].bar == "2000 / 2000 KiB"
    assert order[-2:] == ["progress", "done"]


def test_a_finished_build_shows_every_unit_counted(qtbot: Any) -> None:
    page = BuildPage()
    qtbot.addWidget(page)
    page.show_progress(ProgressEvent(12, 14, 30.0, 300.0, Phase.FINISH, run=4))
    assert page.progress.text() == "extension 4 · 12 / 14 units"
    assert page._frame is not None
    page._on_progress(page._frame.completed(TEXT))
    assert page.progress.text() == "14 / 14 units"
