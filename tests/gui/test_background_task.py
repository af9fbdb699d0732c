"""The background calls behind every page (``app.workers.BackgroundTask``): results, failures
and narration reach the GUI thread in order, and a page dropped while its call still runs
(a wizard closed or a test torn down mid-detection) neither crashes the program nor hears
from the call afterwards."""

from __future__ import annotations

import gc
import threading
from typing import Any

from PySide6.QtWidgets import QWidget

from app.workers import BackgroundTask
from kernel_wizard.base.errors import StorageError


def test_the_result_and_the_narration_arrive_on_the_gui_thread_in_order(qtbot: Any) -> None:
    gui = threading.get_ident()
    heard: list[tuple[str, object, int]] = []

    def work(say: Any) -> str:
        for i in range(50):
            say(f"step {i}")
        return "done"

    task = BackgroundTask(work, narrated=True)
    task.said.connect(lambda line: heard.append(("said", line, threading.get_ident())))
    task.finished.connect(lambda result: heard.append(("finished", result, threading.get_ident())))
    with qtbot.waitSignal(task.finished, timeout=10_000):
        task.start()
    assert [h[1] for h in heard] == [f"step {i}" for i in range(50)] + ["done"]
    assert {h[2] for h in heard} == {gui}
    assert not task.is_running()


def test_a_full_disk_arrives_as_the_error_that_explains_it(qtbot: Any, tmp_path: Any) -> None:
    def work() -> None:
        raise OSError(28, "No space left on device", str(tmp_path / "wheel.whl"))

    task = BackgroundTask(work)
    with qtbot.waitSignal(task.failed, timeout=10_000) as blocker:
        task.start()
    error = blocker.args[0]
    assert isinstance(error, StorageError)
    assert "space" in (error.what + error.hint).lower()


def test_pages_dropped_while_their_calls_run_neither_crash_nor_hear_back(qtbot: Any) -> None:
    """Thirty pages, each with a call still running when the page is deleted; the calls then
    end (one with a failure, some narrating). The program goes on, and no dropped page's
    handler runs."""
    gate = threading.Event()
    heard: list[object] = []
    tasks: list[BackgroundTask] = []
    for i in range(30):
        page = QWidget()
        narrated = i % 3 == 0

        def work(*say: Any, i: int = i) -> int:
            gate.wait(30)
            for s in say:
                s("late line")
            if i % 5 == 0:
                raise RuntimeError("late failure")
            return i

        task = BackgroundTask(work, page, narrated=narrated)
        task.finished.connect(heard.append)
        task.failed.connect(heard.append)
        task.said.connect(heard.append)
        task.start()
        tasks.append(task)
        page.deleteLater()
    qtbot.wait(50)  # the pages (and their tasks) are deleted by the event loop
    del page, task
    gc.collect()
    gate.set()
    qtbot.wait(300)  # the calls end meanwhile; the event loop goes on
    assert heard == []
    # a task of a page still shown goes on working after all that
    alive = QWidget()
    fresh = BackgroundTask(lambda: "still here", alive)
    with qtbot.waitSignal(fresh.finished, timeout=10_000) as blocker:
        fresh.start()
    assert blocker.args == ["still here"]


def test_finish_lets_the_call_end_without_the_event_loop(qtbot: Any) -> None:
    gate = threading.Event()
    task = BackgroundTask(lambda: gate.wait(30))
    task.start()
    assert task.is_running()
    assert task.finish(50) is False  # still running: the window is told so
    gate.set()
    assert task.finish(10_000) is True
    assert task.is_running()  # ended, but its result is not delivered yet
    with qtbot.waitSignal(task.finished, timeout=10_000):
        pass
    assert not task.is_running()
