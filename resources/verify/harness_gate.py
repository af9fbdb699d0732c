"""One verification's GPU work at a time, across processes.

The wizard verifies the kernels of one Python in one process, and a kernel that needs several
processes of its own (DeepEP) in another, both at once: their start-up (importing torch, the
worker processes importing it again) overlaps. Their GPU work must not: a timing taken while
another process computes on the same GPU measures both. So each adapter's GPU work (its checks
and timings; DeepEP's from the moment its workers are ready) holds this gate, an exclusive lock
on the file that ``KSW_VERIFY_GPU_GATE`` names (the runner sets it; without it there is no
gate). The lock goes with its process: a verification that crashes or is killed frees it.

Standard library only; keep the syntax compatible with Python 3.8.
"""

import contextlib
import os
import time

ENV = "KSW_VERIFY_GPU_GATE"

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt
else:
    msvcrt = None


def _lock(handle):
    if fcntl is not None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        return
    while True:  # msvcrt's LK_LOCK tries for about 10 s, then raises: try again
        try:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
            return
        except OSError:
            time.sleep(0.05)


def _unlock(handle):
    if fcntl is not None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        return
    handle.seek(0)
    msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)


def configured():
    return bool(os.environ.get(ENV))


class Gate:
    """Hold the gate between :meth:`enter` and :meth:`leave` (or as a context manager).
    ``waited``: seconds :meth:`enter` waited for another verification's GPU work."""

    def __init__(self, path=None):
        self.path = path if path is not None else os.environ.get(ENV, "")
        self.handle = None
        self.waited = 0.0

    def enter(self):
        if not self.path or self.handle is not None:
            return self
        started = time.monotonic()
        handle = open(self.path, "a+b")
        try:
            _lock(handle)
        except BaseException:
            handle.close()
            raise
        self.handle = handle
        self.waited = time.monotonic() - started
        return self

    def leave(self):
        handle, self.handle = self.handle, None
        if handle is None:
            return
        try:
            _unlock(handle)
        except OSError:
            pass
        finally:
            handle.close()

    def __enter__(self):
        return self.enter()

    def __exit__(self, *exc):
        self.leave()
        return False


def record_turn(report, gate):
    """Note in ``report``'s options that its GPU work began now, after waiting ``gate.waited``
    seconds (``gpu_turns``: one entry per turn, wall-clock seconds); returns the entry for
    :func:`end_turn`."""
    turn = {"waited_s": round(gate.waited, 3), "from": time.time(), "to": None}
    report.setdefault("options", {}).setdefault("gpu_turns", []).append(turn)
    return turn


def waited_words(gate):
    """The progress line to show when ``gate`` made its holder wait (None: it hardly did)."""
    if gate.waited < 0.5:
        return None
    return (f"waited {gate.waited:.1f} s for another kernel's verification to finish its GPU "
            "work (one at a time on the GPU: timings are not disturbed)")


def end_turn(turn):
    turn["to"] = time.time()


@contextlib.contextmanager
def held():
    """The gate held for the ``with`` block (nothing when no gate is configured)."""
    gate = Gate().enter()
    try:
        yield gate
    finally:
        gate.leave()
