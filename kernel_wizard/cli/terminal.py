"""A terminal progress display for headless builds.

On a terminal: one line redrawn in place at every unit and every second (bar, n/N units,
elapsed, time left). Piped into a file or CI log: a plain line at each step change, every
10 % of the units and every 30 s ("compile 12/73 units · 4 min 10 s elapsed · about 9 min
left"), so logs stay readable.
"""

from __future__ import annotations

import time
from typing import TextIO

from kernel_wizard.base.durations import duration, time_left
from kernel_wizard.build.eta import Phase, UnitTime
from kernel_wizard.build.run import (
    BuildEvent,
    DiagnosisEvent,
    LogLine,
    ProgressEvent,
    RetryEvent,
    StallEvent,
    StepEvent,
    StepState,
)

BAR_WIDTH = 30
PLAIN_EVERY_S = 30.0  # a plain progress line at least this often when not on a terminal


PHASE_WORDS = {Phase.SETUP: "preparing", Phase.COMPILE: "compile",
               Phase.FINISH: "link and package"}


def progress_text(event: ProgressEvent) -> str:
    """'compile 12/73 units · 4 min 10 s elapsed · about 9 min left'; several extensions:
    'compile extension 2 · 5/10 units · ...' (the units of every extension so far; 'so far'
    while more are expected)."""
    if event.unit != "units":  # a download
        parts = [f"{event.done}/{event.total} {event.unit}" if event.total
                 else f"{event.done} {event.unit}"]
    elif event.several_runs:
        what = PHASE_WORDS[event.phase]
        if event.phase is not Phase.SETUP:
            what += f" extension {max(1, event.run)}"
        parts = [what]
        if event.total and event.phase is not Phase.SETUP:
            so_far = " so far" if event.more_expected else ""
            parts.append(f"{event.done}/{event.total} unit{'s' if event.total != 1 else ''}"
                         f"{so_far}")
        parts.append(f"{duration(event.elapsed_seconds)} elapsed")
    else:
        what = PHASE_WORDS[event.phase]
        if event.total and event.phase is not Phase.SETUP:
            what += f" {event.done}/{event.total} unit{'s' if event.total != 1 else ''}"
        parts = [what, f"{duration(event.elapsed_seconds)} elapsed"]
    left = time_left(event.eta_seconds, event.overdue)
    if left:
        parts.append(left)
    return " · ".join(parts)


def slowest_text(units: tuple[UnitTime, ...] | list[UnitTime], total: int) -> list[str]:
    """The slowest compiled units, one line each, for the build's summary."""
    if not units:
        return []
    lines = ["The compiled unit:" if total == 1 else f"Slowest of the {total} compiled units:"]
    lines += [f"  {duration(u.seconds):>12}  {u.name}" for u in units]
    return lines


class TerminalProgress:
    def __init__(self, out: TextIO, verbose: bool = False, interactive: bool | None = None) -> None:
        self.out = out
        self.verbose = verbose
        self.interactive = out.isatty() if interactive is None else interactive
        self.step = "compile"
        self._last_tenth = -1
        self._last_plain = -PLAIN_EVERY_S
        self._last_phase: Phase | None = None
        self._last_run = 0
        self._drawn = False
        self._last_draw = 0.0
        self._width = 0  # of the line drawn last (a shorter one blanks the rest)
        self._progress: ProgressEvent | None = None
        self._shown: ProgressEvent | None = None  # drawn last

    def _clear(self) -> None:
        if self._drawn:
            self.out.write("\r" + " " * 100 + "\r")
            self._drawn = False

    def _say(self, text: str) -> None:
        self._clear()
        self.out.write(text + "\n")
        self.out.flush()
        if self._progress is not None and self.interactive:
            self._draw(self._progress, force=True)

    def _draw(self, event: ProgressEvent, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last_draw < 0.1:
            return
        self._last_draw = now
        filled = int(BAR_WIDTH * event.fraction)
        line = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {progress_text(event)}"
        self.out.write("\r" + line[:99].ljust(self._width))
        self._width = min(99, len(line))
        self.out.flush()
        self._drawn = True

    def __call__(self, event: BuildEvent) -> None:
        if isinstance(event, LogLine):
            if self.verbose:
                self._say(event.text)
        elif isinstance(event, ProgressEvent):
            self._progress = event
            if self.interactive:
                shown = self._shown
                self._draw(event, force=shown is None or event.done != shown.done)
                self._shown = event
            else:
                self._plain(event)
        elif isinstance(event, StepEvent):
            self.step = event.step.value
            if event.state is StepState.RUNNING:
                self._say(f"• {event.step.value}…")
            else:
                self._say(f"  {event.step.value}: {event.state.value} in {duration(event.seconds)}")
        elif isinstance(event, DiagnosisEvent):
            hit = event.diagnosis
            self._say(f"! {hit.title} (log line {hit.line_number})\n  Why: {hit.cause}\n"
                      f"  What to do: {hit.fix}")
        elif isinstance(event, StallEvent):
            running = ", ".join(event.compilers) or "no compiler found"
            self._say(f"  (no output for {duration(event.quiet_seconds)}; running: {running})")
        elif isinstance(event, RetryEvent):
            self._say(f"↻ attempt {event.attempt}: {event.reason}")

    def _plain(self, event: ProgressEvent) -> None:
        """Not a terminal: a line per 10 % of the units, per 30 s, and when the phase or the
        extension changes — never one per event."""
        tenth = int(event.fraction * 10) if event.total else -1
        now = event.elapsed_seconds
        next_run = event.several_runs and event.run != self._last_run
        if (tenth != self._last_tenth and event.total) or event.phase is not self._last_phase \
                or next_run or now - self._last_plain >= PLAIN_EVERY_S:
            self._last_tenth = tenth
            self._last_phase = event.phase
            self._last_run = event.run
            self._last_plain = now
            self._say(f"  {progress_text(event)}")

    def close(self) -> None:
        self._clear()
