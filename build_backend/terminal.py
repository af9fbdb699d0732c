"""A terminal progress display for headless builds.

On a terminal: one line redrawn in place (bar, n/N, step, ETA). Piped into a file or CI log:
a plain line at each step change and every 10 %, so logs stay readable.
"""

from __future__ import annotations

import time
from typing import TextIO

from .build import (
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


def duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class TerminalProgress:
    def __init__(self, out: TextIO, verbose: bool = False, interactive: bool | None = None) -> None:
        self.out = out
        self.verbose = verbose
        self.interactive = out.isatty() if interactive is None else interactive
        self.step = "compile"
        self._last_tenth = -1
        self._drawn = False
        self._last_draw = 0.0
        self._progress: ProgressEvent | None = None

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
        eta = f", about {duration(event.eta_seconds)} left" if event.eta_seconds else ""
        line = (f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {event.done}/{event.total} "
                f"{self.step}{eta}")
        self.out.write("\r" + line[:99])
        self.out.flush()
        self._drawn = True

    def __call__(self, event: BuildEvent) -> None:
        if isinstance(event, LogLine):
            if self.verbose:
                self._say(event.text)
        elif isinstance(event, ProgressEvent):
            self._progress = event
            if self.interactive:
                self._draw(event)
            else:
                tenth = int(event.fraction * 10)
                if tenth != self._last_tenth:
                    self._last_tenth = tenth
                    self._say(f"  {event.done}/{event.total} ({event.fraction:.0%})")
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

    def close(self) -> None:
        self._clear()
