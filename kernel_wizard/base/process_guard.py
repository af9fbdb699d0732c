"""What keeps the runner's children from outliving the wizard, and the one way to stop them all.

The runner (:mod:`.processes`) starts every child; this module holds the process-wide pieces it
consults, below it so that the front ends' :mod:`.lifetime` can set them:

* **A stop request** (:func:`request_stop`): a signal (Ctrl-C, a closed terminal, ``kill``) or a
  closing window asks every running child of this process to stop, and no new one to start;
  each runner call then stops its whole tree and raises
  :class:`~kernel_wizard.base.errors.Cancelled` with the reason. Work that must end whole (pip
  installing into the target environment, a roll-back) runs inside :func:`shielded`: its
  children are let finish.
* **Linux: the child dies with the wizard.** Every child gets ``PR_SET_PDEATHSIG(SIGKILL)``
  (:func:`child_preexec`), so a wizard killed outright (``kill -9``, the OOM killer) takes its
  direct children along. The kernel sends it when the *thread* that started the child ends: the
  runner waits for every child on the thread that started it, so that thread always outlives
  the child. Grandchildren (a compiler under ninja under pip) are not covered by that; the
  watchdog (:mod:`.watchdog`, started by :mod:`.lifetime`) is told every process the runner
  sees (:func:`report_processes`) and stops what is left once the wizard is gone.
* **Windows: a Job Object** with kill-on-close (:class:`ChildGuard`, set by :mod:`.lifetime`
  from :mod:`.platforms.windows`): every child is put into it before it runs, and Windows ends
  the whole job when the wizard ends, however it ends (Task Manager included).
* **Child subreaper** (Linux, :func:`become_child_subreaper`): orphaned grandchildren are
  re-parented to the wizard, not to init, so that they stay findable.

The markers every child carries in its environment start with this process's
:data:`RUN_TOKEN` (:func:`new_marker`): the watchdog finds them by it after the wizard died.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Protocol

# One value per wizard process: the prefix of every marker its children carry.
RUN_TOKEN = f"{os.getpid()}-{uuid.uuid4().hex[:10]}"


def new_marker() -> str:
    """A marker for one child's tree (see :data:`kernel_wizard.base.processes.MARKER_VAR`)."""
    return f"{RUN_TOKEN}-{uuid.uuid4().hex[:12]}"


# =============================================================================================
# Stop requests
# =============================================================================================

USER_CANCEL = "cancelled by the user"

_STOP = threading.Event()
_STOP_REASON: list[str] = []
_SHIELD = threading.local()


def request_stop(reason: str) -> None:
    """Stop every running child of this process (each runner call stops its tree and raises
    ``Cancelled``) and refuse new ones, except inside :func:`shielded`. The first reason
    stays. Safe to call from a signal handler."""
    if not _STOP_REASON:
        _STOP_REASON.append(reason)
    _STOP.set()


def stop_reason() -> str | None:
    """Why a stop was requested (``"cancelled by the user (Ctrl-C)"``), or None."""
    return (_STOP_REASON[0] if _STOP_REASON else USER_CANCEL) if _STOP.is_set() else None


def clear_stop() -> None:
    """Forget a stop request (a front end that handled it and goes on, and tests)."""
    _STOP.clear()
    _STOP_REASON.clear()


def stop_applies() -> bool:
    """Whether a stop was requested and this thread is not inside :func:`shielded`."""
    return _STOP.is_set() and not getattr(_SHIELD, "depth", 0)


@contextmanager
def shielded() -> Iterator[None]:
    """Children started on this thread meanwhile are let finish after a stop request (their
    own ``cancel`` still works): for work that must not be cut in half."""
    _SHIELD.depth = getattr(_SHIELD, "depth", 0) + 1
    try:
        yield
    finally:
        _SHIELD.depth -= 1


# =============================================================================================
# Linux: PR_SET_PDEATHSIG and the child subreaper
# =============================================================================================

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_PR_SET_CHILD_SUBREAPER = 36
_PRCTL: list[Callable[..., int]] = []


def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    if not _PRCTL:
        import ctypes

        try:
            _PRCTL.append(ctypes.CDLL(None, use_errno=True).prctl)
        except (OSError, AttributeError):
            return None
    return _PRCTL[0]


def become_child_subreaper() -> bool:
    """Linux: make this process the "child subreaper" of its descendants
    (``prctl(PR_SET_CHILD_SUBREAPER)``), so that a grandchild whose parent exits — also one
    that started its own session with ``setsid`` — is re-parented to us instead of to init,
    and stays findable and killable. False where the OS has no such thing or refused it."""
    prctl = _prctl()
    return prctl is not None and int(prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0


def child_preexec() -> Callable[[], None] | None:
    """Linux: the ``preexec_fn`` that makes a child die (SIGKILL) when the wizard dies; None
    elsewhere. It runs in the forked child before ``exec``: it only calls ``prctl`` (looked up
    beforehand, here) and, should the wizard have died already, ends the child."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()
    kill = int(signal.SIGKILL)

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, kill, 0, 0, 0)
        if os.getppid() != parent:  # the wizard died before prctl took effect
            os.kill(os.getpid(), kill)

    return preexec


# =============================================================================================
# Windows: a guard every child is put under before it runs (a Job Object)
# =============================================================================================


class ChildGuard(Protocol):
    """Puts each child under something that ends it with the wizard (Windows: a Job Object
    with kill-on-close). The runner starts the child with ``creationflags`` added (Windows:
    suspended), then calls :meth:`adopt`, which must let the child run whatever happens."""

    creationflags: int

    def adopt(self, pid: int, handle: int) -> bool:
        """Put the child under the guard, then let it run; False when it could not be put
        under it (it runs anyway)."""
        ...


_GUARD: list[ChildGuard] = []


def set_child_guard(guard: ChildGuard | None) -> None:
    _GUARD[:] = [guard] if guard is not None else []


def child_guard() -> ChildGuard | None:
    return _GUARD[0] if _GUARD else None


# =============================================================================================
# What the watchdog is told
# =============================================================================================

_FEED: list[int] = []  # the write end of the watchdog's pipe, when one runs
_FEED_LOCK = threading.Lock()


def set_watchdog_feed(fd: int | None) -> None:
    with _FEED_LOCK:
        _FEED[:] = [fd] if fd is not None else []


def report_processes(kind: str, found: Iterable[tuple[int, float]]) -> None:
    """Tell the watchdog about processes of the runner's trees: ``"root"`` (a child the runner
    started: its session is the tree's) or ``"seen"`` (a descendant), each (pid, creation
    time). Nothing happens without a watchdog; a full or closed pipe drops the news."""
    if not _FEED:
        return
    lines = [f"{kind} {pid} {created:.3f}\n".encode() for pid, created in found]
    with _FEED_LOCK:
        if not _FEED:
            return
        for start in range(0, len(lines), 64):  # < PIPE_BUF per write: never half a line
            try:
                os.write(_FEED[0], b"".join(lines[start:start + 64]))
            except OSError:  # the watchdog is gone or behind: the runner still stops trees
                return


__all__ = [
    "RUN_TOKEN", "USER_CANCEL", "ChildGuard", "become_child_subreaper", "child_guard",
    "child_preexec", "clear_stop", "new_marker", "report_processes", "request_stop",
    "set_child_guard", "set_watchdog_feed", "shielded", "stop_applies", "stop_reason",
]
