"""What a front end shows of a build's progress, decided once: :class:`ProgressFrame` (the
bar's fraction and the words) and :class:`ProgressView` (when the display changes).

Both front ends render the same frames. The command line prints :attr:`ProgressFrame.line`,
one line ("compile 12/73 units · 4 min 10 s elapsed · about 9 min left"); the Build page puts
:attr:`ProgressFrame.bar` in its bar ("12 / 73 units") and :attr:`ProgressFrame.status`
beside it ("4 min 10 s elapsed · about 9 min left"). Which phase, which extension, whether the
count is "so far", the rounding of the times: decided here for both.

The command line speaks English (:data:`ENGLISH`); the GUI passes the same forms translated
(its ``Texts`` with these keys, as it does for :mod:`kernel_wizard.base.durations`' forms),
each a whole template a translation can reorder.

A build emits progress far more often than anyone can read it (every unit's line, a poll every
second, a download's every chunk): :class:`ProgressView` is the one throttle, fed every event,
saying when an update is due. The runner's own limit on how often it *estimates*
(:data:`.run.ESTIMATE_INTERVAL`) bounds the estimator's work, not the display.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace

from kernel_wizard.base import durations
from kernel_wizard.base.durations import duration, time_left
from kernel_wizard.build.eta import Phase
from kernel_wizard.build.run import ProgressEvent

# The bar and the words beside it, by key; a front end may pass its own (translated) mapping
# with the same keys.
ENGLISH: Mapping[str, str] = {
    "bar": "{done} / {total} units",
    "bar_runs": "extension {run} · {done} / {total} units",
    "bar_runs_so_far": "extension {run} · {done} / {total} units so far",
    "bar_download": "{done} / {total} {unit}",
    "preparing": "preparing",
    "packaging": "packaging",
    "extension": "extension {run}",
    "elapsed": "{duration} elapsed",
}

# The one-line form's phases (the command line's words: English)
LINE_PHASES = {Phase.SETUP: "preparing", Phase.COMPILE: "compile",
               Phase.FINISH: "link and package"}


def _units(done: int, total: int) -> str:
    return f"{done}/{total} unit{'s' if total != 1 else ''}"


def line_text(event: ProgressEvent) -> str:
    """The one-line form: 'compile 12/73 units · 4 min 10 s elapsed · about 9 min left';
    several extensions: 'compile extension 2 · 5/10 units · ...' (the units of every extension
    so far; 'so far' while more are expected); a download: '100/400 KiB · a few seconds
    left'."""
    if event.unit != "units":  # a download
        parts = [f"{event.done}/{event.total} {event.unit}" if event.total
                 else f"{event.done} {event.unit}"]
    else:
        counted = bool(event.total) and event.phase is not Phase.SETUP
        what = LINE_PHASES[event.phase]
        if event.several_runs:
            if event.phase is not Phase.SETUP:
                what += f" extension {_extension(event)}"
            parts = [what]
            if counted:
                parts.append(_units(event.done, event.total)
                             + (" so far" if event.more_expected else ""))
        else:
            parts = [f"{what} {_units(event.done, event.total)}" if counted else what]
        parts.append(f"{duration(event.elapsed_seconds)} elapsed")
    left = time_left(event.eta_seconds, event.overdue)
    if left:
        parts.append(left)
    return " · ".join(parts)


def bar_text(event: ProgressEvent, words: Mapping[str, str] = ENGLISH) -> str:
    """The bar's words: '12 / 73 units'; several extensions (one ninja run each): 'extension
    2 · 5 / 10 units' (the units of every extension so far; 'so far' while more are expected);
    a download: '512 / 2048 KiB'."""
    if event.unit != "units":
        return words["bar_download"].format(done=event.done, total=event.total, unit=event.unit)
    if not event.several_runs:
        return words["bar"].format(done=event.done, total=event.total)
    form = words["bar_runs_so_far"] if event.more_expected else words["bar_runs"]
    return form.format(run=_extension(event), done=event.done, total=event.total)


def status_text(event: ProgressEvent, words: Mapping[str, str] = ENGLISH,
                times: Mapping[str, str] = durations.ENGLISH) -> str:
    """Beside the bar: '4 min 10 s elapsed · about 9 min left', led by the phase when it is
    not compiling ('preparing', 'packaging') or by the extension that compiles; a download:
    only the time left."""
    parts = []
    if event.unit == "units":
        if event.phase is Phase.SETUP:
            parts.append(words["preparing"])
        elif event.phase is Phase.FINISH:
            parts.append(words["packaging"])
        elif event.several_runs:
            parts.append(words["extension"].format(run=_extension(event)))
        parts.append(words["elapsed"].format(duration=duration(event.elapsed_seconds, times)))
    left = time_left(event.eta_seconds, event.overdue, times)
    if left:
        parts.append(left)
    return " · ".join(parts)


def _extension(event: ProgressEvent) -> int:
    return max(1, event.run)


@dataclass(frozen=True)
class ProgressFrame:
    """One update of the display: the event it shows and what each front end shows of it."""

    event: ProgressEvent
    line: str  # the command line's one line
    bar: str  # the bar's words (the Build page)
    status: str  # beside the bar (the Build page)

    @property
    def fraction(self) -> float:
        """How full the bar is, 0..1 (0 while the count is not known)."""
        return self.event.fraction

    @property
    def determinate(self) -> bool:
        """Whether the count is known (else a busy bar)."""
        return bool(self.event.total)

    @classmethod
    def of(cls, event: ProgressEvent, words: Mapping[str, str] = ENGLISH,
           times: Mapping[str, str] = durations.ENGLISH) -> ProgressFrame:
        return cls(event, line_text(event), bar_text(event, words),
                   status_text(event, words, times))

    def completed(self, words: Mapping[str, str] = ENGLISH,
                  times: Mapping[str, str] = durations.ENGLISH) -> ProgressFrame:
        """The frame of a build that finished: the whole count done, every extension's units
        in one count ('24 / 24 units')."""
        event = self.event
        return ProgressFrame.of(replace(event, done=event.total, run=0, more_expected=False),
                                words, times)


def _unit_mark(event: ProgressEvent) -> Hashable:
    """A display that redraws in place: every compiled unit, phase or extension shows at once
    (a download's chunks only as often as the interval allows)."""
    return event.done if event.unit == "units" else None, event.total, event.phase, event.run


def _tenth_mark(event: ProgressEvent) -> Hashable:
    """A log: a line per tenth of the units, per phase and per extension."""
    tenth = int(event.fraction * 10) if event.total else -1
    return tenth, event.phase, event.run if event.several_runs else 0


class ProgressView:
    """The one throttle between a build's progress events and what is shown of them.

    Fed every :class:`ProgressEvent` (:meth:`feed`, from any thread); :meth:`take` hands out
    the frame of the newest one when an update is due: when it crosses a *mark* (a new unit
    count, phase or extension for a display that redraws in place; a tenth of the units for a
    log), else at most once per ``interval`` by ``clock`` (a download's chunks, the poller's
    ticks). Whatever is held back is not lost:
    :meth:`last` hands out the newest event not shown yet (when the build ends, the last one
    is always shown).

    The two kinds a front end uses: :meth:`for_display` (a bar or a line redrawn in place:
    every unit, and ten updates a second at most otherwise) and :meth:`for_log` (plain lines
    in a file: every tenth of the units, each phase and extension, and every 30 s of the
    build's time)."""

    def __init__(
        self,
        interval: float,
        mark: Callable[[ProgressEvent], Hashable] = _unit_mark,
        clock: Callable[[ProgressEvent], float] = lambda _event: time.monotonic(),
        words: Mapping[str, str] = ENGLISH,
        times: Mapping[str, str] = durations.ENGLISH,
    ) -> None:
        self.interval = interval
        self._mark = mark
        self._clock = clock
        self.words = words
        self.times = times
        self._lock = threading.Lock()
        self._newest: ProgressEvent | None = None  # fed, not shown yet
        self._shown_mark: Hashable | None = None
        self._shown_at: float | None = None  # by the clock; None: nothing shown yet

    @classmethod
    def for_display(cls, words: Mapping[str, str] = ENGLISH,
                    times: Mapping[str, str] = durations.ENGLISH,
                    clock: Callable[[], float] = time.monotonic,
                    interval: float = 0.1) -> ProgressView:
        """A bar or a line redrawn in place (the Build page, a terminal)."""
        return cls(interval, _unit_mark, lambda _event: clock(), words, times)

    @classmethod
    def for_log(cls, interval: float = 30.0) -> ProgressView:
        """Plain lines in a file or a CI log: few, and each one says something new; the time
        is the build's own (its elapsed seconds), so a replayed build logs as the real one."""
        return cls(interval, _tenth_mark, lambda event: event.elapsed_seconds)

    def feed(self, event: ProgressEvent) -> None:
        """The newest progress (the view keeps only the newest)."""
        with self._lock:
            self._newest = event

    def take(self) -> ProgressFrame | None:
        """The frame to show now, or None when no update is due."""
        with self._lock:
            event = self._newest
            if event is None:
                return None
            now = self._clock(event)
            mark = self._mark(event)
            if self._shown_at is not None and mark == self._shown_mark \
                    and now - self._shown_at < self.interval:
                return None
            return self._show(event, mark, now)

    def last(self) -> ProgressFrame | None:
        """The newest event's frame if it was held back (None when it was shown already)."""
        with self._lock:
            event = self._newest
            if event is None:
                return None
            return self._show(event, self._mark(event), self._clock(event))

    def _show(self, event: ProgressEvent, mark: Hashable, now: float) -> ProgressFrame:
        self._newest = None
        self._shown_mark, self._shown_at = mark, now
        return ProgressFrame.of(event, self.words, self.times)


__all__ = ["ENGLISH", "ProgressFrame", "ProgressView", "bar_text", "line_text", "status_text"]
