"""Windows: the Job Object every child joins and the console close handler, checked call by
call against a recording kernel32 (Windows cannot run here; what only a real Windows machine
confirms: that the job really ends the tree when the wizard is ended from the Task Manager,
and that closing the console window gives the handler its ~5 seconds)."""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from kernel_wizard.base import process_guard
from kernel_wizard.base.processes import run_captured
from kernel_wizard.machine import lifetime
from kernel_wizard.machine.platforms.windows import (
    CONSOLE_CLOSE_GRACE_S,
    CREATE_SUSPENDED,
    CTRL_BREAK_EVENT,
    CTRL_C_EVENT,
    CTRL_CLOSE_EVENT,
    CTRL_LOGOFF_EVENT,
    CTRL_SHUTDOWN_EVENT,
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    KillOnCloseJob,
    console_close_handler,
    install_console_close_handler,
    kill_on_close_limits,
)


class FakeKernel32:
    """Records every call; answers like kernel32 would (handles are numbers)."""

    def __init__(self, *, create: int = 0x1F0, set_info: int = 1, assign: int = 1) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self._create, self._set_info, self._assign = create, set_info, assign
        self.limits: Any = None

    def CreateJobObjectW(self, attributes: Any, name: Any) -> int:  # noqa: N802
        self.calls.append(("CreateJobObjectW", attributes, name))
        return self._create

    def SetInformationJobObject(self, job: int, info_class: int, info: Any,  # noqa: N802
                                size: int) -> int:
        self.limits = info._obj  # what byref() points to
        self.calls.append(("SetInformationJobObject", job, info_class, size))
        return self._set_info

    def AssignProcessToJobObject(self, job: int, process: int) -> int:  # noqa: N802
        self.calls.append(("AssignProcessToJobObject", job, process))
        return self._assign

    def SetConsoleCtrlHandler(self, handler: Any, add: int) -> int:  # noqa: N802
        self.calls.append(("SetConsoleCtrlHandler", handler, add))
        return 1

    def last_error(self) -> int:
        return 5  # ERROR_ACCESS_DENIED

    def console_handler(self, function: Any) -> Any:
        return function  # the real one wraps it in a WINFUNCTYPE callback

    def resume(self, pid: int) -> None:
        self.calls.append(("resume", pid))


@pytest.fixture(autouse=True)
def no_guard_left() -> Iterator[None]:
    yield
    process_guard.set_child_guard(None)
    process_guard.clear_stop()


def test_the_job_ends_its_processes_when_its_last_handle_closes() -> None:
    api = FakeKernel32()
    job = KillOnCloseJob.create(api)
    assert job is not None and job.handle == 0x1F0
    assert api.calls[0] == ("CreateJobObjectW", None, None)
    name, handle, info_class, size = api.calls[1]
    assert (name, handle, info_class) == ("SetInformationJobObject", 0x1F0, 9)
    assert api.limits.BasicLimitInformation.LimitFlags == JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    assert size == ctypes.sizeof(kill_on_close_limits())
    if ctypes.sizeof(ctypes.c_void_p) == 8:
        assert size == 144  # sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION) on 64-bit Windows
    assert job.creationflags == CREATE_SUSPENDED == 0x4


@pytest.mark.parametrize("api", [FakeKernel32(create=0), FakeKernel32(set_info=0)])
def test_no_job_when_windows_refuses_one(api: FakeKernel32) -> None:
    assert KillOnCloseJob.create(api) is None  # children then run as before, unguarded


def test_a_child_joins_the_job_before_it_runs() -> None:
    api = FakeKernel32()
    job = KillOnCloseJob.create(api)
    assert job is not None
    assert job.adopt(4242, 0x2A0) is True
    assert api.calls[2:] == [("AssignProcessToJobObject", 0x1F0, 0x2A0), ("resume", 4242)]


def test_a_child_the_job_refuses_still_runs_and_the_refusal_is_kept() -> None:
    api = FakeKernel32(assign=0)
    job = KillOnCloseJob.create(api)
    assert job is not None
    assert job.adopt(4242, 0x2A0) is False
    assert api.calls[-1] == ("resume", 4242)  # never left suspended
    assert job.failures == [(4242, 5)]


def test_the_runner_puts_every_child_under_the_guard() -> None:
    class Recorder:
        creationflags = 0  # on Windows CREATE_SUSPENDED; POSIX accepts only 0

        def __init__(self) -> None:
            self.adopted: list[int] = []

        def adopt(self, pid: int, handle: int) -> bool:
            self.adopted.append(pid)
            return True

    guard = Recorder()
    process_guard.set_child_guard(guard)
    done = run_captured([sys.executable, "-c", "import os; print(os.getpid())"])
    assert guard.adopted == [int(done.stdout)]


@pytest.mark.parametrize("event, reason", [
    (CTRL_CLOSE_EVENT, "cancelled: the console window was closed"),
    (CTRL_LOGOFF_EVENT, "cancelled: the user is signing out"),
    (CTRL_SHUTDOWN_EVENT, "cancelled: Windows is shutting down"),
])
def test_closing_the_console_stops_the_work_within_the_grace_windows_gives(
        event: int, reason: str) -> None:
    said: list[object] = []
    handler = console_close_handler(said.append, lambda s: said.append(("waited", s)))
    assert handler(event) == 1  # handled: Windows ends the process after it returns
    assert said == [reason, ("waited", CONSOLE_CLOSE_GRACE_S)]
    assert CONSOLE_CLOSE_GRACE_S < 5  # Windows allows about 5 s after CTRL_CLOSE_EVENT


@pytest.mark.parametrize("event", [CTRL_C_EVENT, CTRL_BREAK_EVENT])
def test_ctrl_c_and_ctrl_break_are_left_to_python(event: int) -> None:
    said: list[object] = []
    assert console_close_handler(said.append, said.append)(event) == 0
    assert said == []


def test_the_console_handler_is_registered_and_reaches_the_lifetime() -> None:
    api = FakeKernel32()
    life = lifetime.Lifetime()
    life.stopped.set()  # the front end has finished stopping: the handler does not wait
    lifetime._install_windows(life, api)
    guard = process_guard.child_guard()
    assert isinstance(guard, KillOnCloseJob) and guard.api is api
    registered = [c for c in api.calls if c[0] == "SetConsoleCtrlHandler"]
    assert len(registered) == 1 and registered[0][2] == 1
    cancel = threading.Event()
    with life.watch(cancel, "the build"):
        assert registered[0][1](CTRL_CLOSE_EVENT) == 1
    assert cancel.is_set()
    assert process_guard.stop_reason() == "cancelled: the console window was closed"
    # the stopped work's code (130: it was cancelled) becomes the signal's; work that
    # finished anyway (0) keeps its result
    assert life.exit_code(130) == 128 + int(signal.SIGTERM)
    assert life.exit_code(0) == 0


def test_install_reports_a_refused_console_handler() -> None:
    class Refusing(FakeKernel32):
        def SetConsoleCtrlHandler(self, handler: Any, add: int) -> int:  # noqa: N802
            return 0

    assert install_console_close_handler(print, print, Refusing()) is False
