"""The one place that turns backend work into Qt signals.

:class:`BackgroundTask` runs a plain callable of the core on its own thread and emits
``finished(result)`` or ``failed(exception)`` back on the GUI thread. An ``OSError`` from the
work (a full or read-only disk, a name too long, ...) arrives as the
:class:`~kernel_wizard.base.errors.StorageError` that explains it (:func:`plain_error`), so every
page shows it like any other error the core explains.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from kernel_wizard.base.paths import storage_error
from kernel_wizard.build.progress_view import ProgressView
from kernel_wizard.build.run import LogLine, ProgressEvent


def plain_error(exc: BaseException) -> BaseException:
    """``exc``, or for an ``OSError`` the StorageError that says what, where and what to do."""
    return storage_error(exc) if isinstance(exc, OSError) else exc


class BackgroundTask(QObject):
    """Run ``fn`` off the GUI thread; one task object per run. With ``narrated``, ``fn`` is
    called with one argument, a function that passes a line to ``said`` on the GUI thread
    (what a long step is doing, e.g. waiting for another run of the wizard).

    The call runs on a plain Python thread that touches no Qt object: it leaves its result
    (and its narration) in Python fields, and a timer of this task, on the GUI thread, hands
    them on as signals. A page dropped mid-call takes its tasks (Qt children) and their timers
    with it; the thread then ends with its call and nothing is delivered. (A QThread with a
    worker object emitting across threads crashed the GUI thread now and then when its page
    was torn down mid-call.)"""

    finished = Signal(object)
    failed = Signal(object)
    said = Signal(str)

    def __init__(self, fn: Callable[..., Any], parent: QObject | None = None, *,
                 narrated: bool = False, interval_ms: int = 15) -> None:
        super().__init__(parent)
        self._fn = fn
        self._narrated = narrated
        self._lines: deque[str] = deque()
        self._outcome: tuple[bool, object] | None = None  # (failed, result or exception)
        self._thread = threading.Thread(target=self._work, name="background", daemon=True)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._deliver)
        self._settled = False  # its result (or failure) has reached the GUI thread

    def start(self) -> None:
        self._timer.start()
        self._thread.start()

    def _work(self) -> None:  # the background thread: Python objects only
        try:
            result = self._fn(self._lines.append) if self._narrated else self._fn()
        except BaseException as exc:  # noqa: BLE001 - reported to the GUI, never swallowed
            self._outcome = (True, plain_error(exc))
        else:
            self._outcome = (False, result)

    @Slot()
    def _deliver(self) -> None:
        outcome = self._outcome  # read before the lines: every line said before the end goes
        while self._lines:
            self.said.emit(self._lines.popleft())
        if outcome is None or self._settled:
            return
        self._settled = True
        self._timer.stop()
        failed, value = outcome
        (self.failed if failed else self.finished).emit(value)

    def is_running(self) -> bool:
        """Until its result is delivered: the call ends before ``finished`` reaches the GUI
        thread (a page that reads this must not move on in between)."""
        started = self._thread.ident is not None
        return self._thread.is_alive() or (started and not self._settled)

    def wait(self, ms: int = 30_000) -> bool:
        """Wait up to ``ms`` for the call to end (its result is delivered later, by the event
        loop). True when it has ended."""
        if self._thread.ident is not None:  # (started)
            self._thread.join(ms / 1000)
        return not self._thread.is_alive()

    def finish(self, ms: int = 60_000) -> bool:
        """Let the running call end, without the GUI event loop (the window is closing).
        True when it ended within ``ms``; a call still running then is left to end on its own
        (its thread does not keep the program alive)."""
        return self.wait(ms)


EventT = TypeVar("EventT")


class BuildWorker(QObject, Generic[EventT]):
    """Runs a build (or any long step that reports like one: a prerequisite's fix) on its own
    thread and hands its events to the GUI in batches.

    The backend may print tens of thousands of lines per second; one Qt signal per line would
    flood the event loop. Instead the build thread appends to thread-safe queues and a GUI
    timer drains them every ``interval_ms``: ``lines`` carries a batch of log lines,
    ``progress`` a :class:`~kernel_wizard.build.progress_view.ProgressFrame` whenever
    ``view`` says an update is due (and the last one before ``finished``), ``other_event``
    every other event (steps, diagnoses, stalls, retries) in order, and ``finished`` the
    outcome. Without a ``view``, progress events go with the other events.
    """

    lines = Signal(list)
    progress = Signal(object)  # a ProgressFrame
    other_event = Signal(object)  # every other event object (not "event": QObject.event)
    finished = Signal(object)

    def __init__(
        self,
        run: Callable[[Callable[[EventT], None], threading.Event], object],
        interval_ms: int = 25,
        parent: QObject | None = None,
        *,
        view: ProgressView | None = None,
    ) -> None:
        super().__init__(parent)
        self._run = run
        self.cancel_event = threading.Event()
        self._lines: deque[str] = deque()
        self._events: deque[EventT] = deque()
        self._view = view
        self._lock = threading.Lock()
        self._outcome: object | None = None
        self._done = False
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.drain)
        self._thread = threading.Thread(target=self._work, name="build", daemon=True)

    def start(self) -> None:
        self._timer.start()
        self._thread.start()

    def cancel(self) -> None:
        self.cancel_event.set()

    def is_running(self) -> bool:
        return self._thread.is_alive() or not self._done

    def _sink(self, event: EventT) -> None:  # runs on the build thread
        if isinstance(event, LogLine):
            self._lines.append(event.text)
        elif isinstance(event, ProgressEvent) and self._view is not None:
            self._view.feed(event)
        else:
            with self._lock:
                self._events.append(event)

    def _work(self) -> None:
        try:
            outcome: object = self._run(self._sink, self.cancel_event)
        except BaseException as exc:  # noqa: BLE001 - shown to the user by the page
            outcome = plain_error(exc)
        self._outcome = outcome

    @Slot()
    def drain(self) -> None:
        finished = not self._thread.is_alive() and self._outcome is not None
        batch: list[str] = []
        pop = self._lines.popleft
        try:
            for _ in range(len(self._lines)):  # what is there now; more arrives meanwhile
                batch.append(pop())
        except IndexError:
            pass
        if batch:
            self.lines.emit(batch)
        if self._view is not None:
            # the newest progress when an update is due; at the end, the last one always
            frame = self._view.last() if finished else self._view.take()
            if frame is not None:
                self.progress.emit(frame)
        with self._lock:
            events = list(self._events)
            self._events.clear()
        for item in events:
            self.other_event.emit(item)
        if finished and not self._lines and not self._done:
            self._done = True
            self._timer.stop()
            self.finished.emit(self._outcome)
