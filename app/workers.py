"""The one place that turns backend work into Qt signals.

:class:`BackgroundTask` runs a plain callable of the core on its own QThread and emits
``finished(result)`` or ``failed(exception)`` back on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot


class _Runner(QObject):
    done = Signal(object)
    failed = Signal(object)

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__()
        self._fn = fn

    @Slot()
    def run(self) -> None:
        try:
            result = self._fn()
        except BaseException as exc:  # noqa: BLE001 - reported to the GUI, never swallowed
            self.failed.emit(exc)
        else:
            self.done.emit(result)


class BackgroundTask(QObject):
    """Run ``fn`` off the GUI thread; one task object per run."""

    finished = Signal(object)
    failed = Signal(object)

    def __init__(self, fn: Callable[[], Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._runner = _Runner(fn)
        self._runner.moveToThread(self._thread)
        self._thread.started.connect(self._runner.run)
        self._runner.done.connect(self._on_done)
        self._runner.failed.connect(self._on_failed)

    def start(self) -> None:
        self._thread.start()

    def is_running(self) -> bool:
        return self._thread.isRunning()

    def wait(self, ms: int = 30_000) -> bool:
        return self._thread.wait(ms)

    def _stop(self) -> None:
        self._thread.quit()
        self._thread.wait()

    @Slot(object)
    def _on_done(self, result: object) -> None:
        self._stop()
        self.finished.emit(result)

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self._stop()
        self.failed.emit(exc)
