"""A terminal progress display for headless builds.

On a terminal: one line redrawn in place at every unit and every second (bar, n/N units,
elapsed, time left). Piped into a file or CI log: a plain line at each step change, every
10 % of the units and every 30 s ("compile 12/73 units · 4 min 10 s elapsed · about 9 min
left"), so logs stay readable.
"""

from __future__ import annotations

from typing import TextIO

from kernel_wizard.base.durations import duration
from kernel_wizard.build.eta import UnitTime
from kernel_wizard.build.progress_view import ProgressFrame, ProgressView
from kernel_wizard.build.run import (
    BuildEvent,
    DiagnosisEvent,
    LogLine,
    PlanEvent,
    ProgressEvent,
    RetryEvent,
    StallEvent,
    StepEvent,
    StepState,
    unhandled,
)

BAR_WIDTH = 30
SHOWN_PREFIXES = ("[source]", "[patch]", "[lock]")  # log lines shown without --verbose


def slowest_text(units: tuple[UnitTime, ...] | list[UnitTime], total: int) -> list[str]:
    """The slowest compiled units, one line each, for the build's summary."""
    if not units:
        return []
    lines = ["The compiled unit:" if total == 1 else f"Slowest of the {total} compiled units:"]
    lines += [f"  {duration(u.seconds):>12}  {u.name}" for u in units]
    return lines


class TerminalProgress:
    """Prints a build's events: steps, known problems, stalls, retries, the plan and the
    source's lines as they come, and the progress as :class:`.progress_view.ProgressView`
    says (redrawn in place on a terminal, plain lines in a log)."""

    def __init__(self, out: TextIO, verbose: bool = False, interactive: bool | None = None) -> None:
        self.out = out
        self.verbose = verbose
        self.interactive = out.isatty() if interactive is None else interactive
        self.view = ProgressView.for_display() if self.interactive else ProgressView.for_log()
        self._drawn = False
        self._width = 0  # of the line drawn last (a shorter one blanks the rest)
        self._progress: ProgressFrame | None = None  # drawn last

    def _clear(self) -> None:
        if self._drawn:
            self.out.write("\r" + " " * 100 + "\r")
            self._drawn = False

    def _say(self, text: str) -> None:
        self._clear()
        self.out.write(text + "\n")
        self.out.flush()
        if self.interactive:  # the bar again under the message, the newest progress in it
            frame = self.view.last() or self._progress
            if frame is not None:
                self._progress = frame
                self._draw(frame)

    def _draw(self, frame: ProgressFrame) -> None:
        filled = int(BAR_WIDTH * frame.fraction)
        line = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {frame.line}"
        self.out.write("\r" + line[:99].ljust(self._width))
        self._width = min(99, len(line))
        self.out.flush()
        self._drawn = True

    def __call__(self, event: BuildEvent) -> None:
        if isinstance(event, LogLine):
            if event.text.startswith(SHOWN_PREFIXES):
                self._say(f"  {event.text}")
            elif self.verbose:
                self._say(event.text)
        elif isinstance(event, ProgressEvent):
            self.view.feed(event)
            frame = self.view.take()
            if frame is None:
                return
            if self.interactive:
                self._progress = frame
                self._draw(frame)
            else:
                self._say(f"  {frame.line}")
        elif isinstance(event, StepEvent):
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
        elif isinstance(event, PlanEvent):
            plan = event.plan
            self._say("What will run:\n" + "".join(f"  {line}\n"
                                                   for line in plan.describe().splitlines())
                      + f"Log: {plan.log_path}")
        else:
            unhandled(event)

    def close(self) -> None:
        self._clear()
