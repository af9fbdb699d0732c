"""How far a download is: :class:`DownloadProgress`, throttled to ~10 reports a second."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

PROGRESS_INTERVAL_S = 0.1  # at most ~10 progress reports a second
RATE_WINDOW_S = 3.0  # the speed shown is the average over the last few seconds


@dataclass(frozen=True)
class DownloadProgress:
    """How far a download is. Sizes in bytes; ``total`` is None when the server did not say."""

    received: int  # bytes of the file on disk so far, including a resumed part
    total: int | None
    bytes_per_second: float  # recent average; 0.0 until it can be measured
    eta_seconds: float | None  # None while the total or the speed is unknown
    resumed_from: int  # bytes that were already on disk when the current response began

    @property
    def fraction(self) -> float | None:
        """0.0 … 1.0, or None when the total is unknown."""
        if not self.total:
            return None
        return min(1.0, self.received / self.total)


class Reporter:
    """Turns byte counts into :class:`DownloadProgress` at most every PROGRESS_INTERVAL_S."""

    def __init__(self, callback: Callable[[DownloadProgress], None] | None) -> None:
        self.callback = callback
        self.samples: deque[tuple[float, int]] = deque()
        self.last_emit = float("-inf")
        self.resumed_from = 0

    def begin(self, start: int) -> None:
        self.samples.clear()
        self.samples.append((time.monotonic(), start))
        self.resumed_from = start

    def update(self, received: int, total: int | None) -> None:
        if self.callback is None:
            return
        now = time.monotonic()
        self.samples.append((now, received))
        while len(self.samples) > 2 and now - self.samples[0][0] > RATE_WINDOW_S:
            self.samples.popleft()
        if now - self.last_emit >= PROGRESS_INTERVAL_S:
            self.last_emit = now
            self._emit(received, total, final=False)

    def finish(self, size: int) -> None:
        if self.callback is None:
            return
        self.samples.append((time.monotonic(), size))
        self._emit(size, size, final=True)

    def _emit(self, received: int, total: int | None, *, final: bool) -> None:
        assert self.callback is not None
        (t0, b0), (t1, b1) = self.samples[0], self.samples[-1]
        rate = (b1 - b0) / (t1 - t0) if t1 > t0 else 0.0
        if final:
            eta: float | None = 0.0
        elif total is not None and rate > 0:
            eta = max(0.0, (total - received) / rate)
        else:
            eta = None
        self.callback(
            DownloadProgress(
                received=received,
                total=total,
                bytes_per_second=rate,
                eta_seconds=eta,
                resumed_from=self.resumed_from,
            )
        )
