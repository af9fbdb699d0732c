"""The one throttle between a build's progress and the display (kernel_wizard/build/
progress_view.py): a display redrawn in place gets at most one update per interval while
nothing new happens, every new unit at once, and the last update always; a log gets a line
per tenth of the units, per phase and per extension, and every 30 s of the build."""

from __future__ import annotations

from kernel_wizard.build.eta import Phase
from kernel_wizard.build.progress_view import ProgressFrame, ProgressView
from kernel_wizard.build.run import ProgressEvent


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def tick(done: int, elapsed: float) -> ProgressEvent:
    return ProgressEvent(done, 40, 300.0 - elapsed, elapsed, Phase.COMPILE)


def test_one_update_per_interval_and_the_last_one_always() -> None:
    clock = Clock()
    view = ProgressView.for_display(clock=clock, interval=0.1)
    shown: list[ProgressFrame] = []
    # the same unit count, an event every 30 ms for 0.33 s (the poller's ticks, a download's
    # chunks): one update per 0.1 s
    for step in range(12):
        clock.now = step * 0.03
        view.feed(tick(12, 100.0 + clock.now))
        frame = view.take()
        if frame is not None:
            shown.append(frame)
    assert [round(f.event.elapsed_seconds - 100.0, 2) for f in shown] == [0.0, 0.12, 0.24]
    # the newest (at 0.33 s) was held back: it is not lost
    last = view.last()
    assert last is not None and round(last.event.elapsed_seconds - 100.0, 2) == 0.33
    assert view.last() is None and view.take() is None  # shown once


def test_a_new_unit_shows_at_once() -> None:
    clock = Clock()
    view = ProgressView.for_display(clock=clock, interval=0.1)
    view.feed(tick(12, 100.0))
    assert view.take() is not None
    clock.now = 0.01
    view.feed(tick(13, 100.01))
    frame = view.take()
    assert frame is not None and frame.line.startswith("compile 13/40 units")
    assert frame.bar == "13 / 40 units" and frame.fraction == 13 / 40


def test_a_log_gets_a_line_per_tenth_phase_and_half_minute() -> None:
    view = ProgressView.for_log()
    lines = []
    for done in range(41):  # a unit every 2 s of the build
        view.feed(tick(done, 2.0 * done))
        frame = view.take()
        if frame is not None:
            lines.append(frame.line)
    view.feed(ProgressEvent(40, 40, 2.0, 82.0, Phase.FINISH))
    frame = view.take()
    assert frame is not None
    lines.append(frame.line)
    assert [line.split(" · ")[0] for line in lines] == [
        f"compile {done}/40 units" for done in range(0, 41, 4)] + ["link and package 40/40 units"]
