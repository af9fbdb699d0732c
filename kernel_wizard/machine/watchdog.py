"""The watchdog: stops what the wizard's children left running once the wizard has ended.

Started once per wizard process by :func:`kernel_wizard.machine.lifetime.start_watchdog` (Linux), in
its own session, so that neither Ctrl-C nor a closed terminal reaches it. It reads, from a
pipe whose other end only the wizard holds, what the runner tells it
(:func:`kernel_wizard.base.process_guard.report_processes`): ``root PID CREATED`` for each child the
runner started (its session is the child's tree), ``seen PID CREATED`` for each descendant it
saw. When the pipe closes — the wizard ended, normally or killed outright (``kill -9``, the
OOM killer, a crash) — it stops every process that is still alive and is one of these:

* a process seen in a tree (same pid *and* creation time: never a reused pid);
* a member of a root's session started after the root (a grandchild that cleared its
  environment but stayed in the session);
* a process whose environment carries the wizard's marker (:data:`MARKER_VAR` starting with
  the wizard's run token), wherever it went (``setsid``, orphaned, re-parented to init).

Then it exits. The wizard's direct children die with it already (``PR_SET_PDEATHSIG``); this
catches their descendants, which the kernel re-parents to init.

Run as ``python -m kernel_wizard.machine.watchdog RUN_TOKEN`` (the frozen program: ``--ksw-watchdog
RUN_TOKEN``), with the pipe as its standard input.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterable, Sequence

import psutil

from kernel_wizard.base.processes import MARKER_VAR, stop_processes


class Reports:
    """What the wizard told the watchdog."""

    def __init__(self) -> None:
        self.roots: dict[int, float] = {}
        self.seen: dict[int, float] = {}

    def feed(self, lines: Iterable[bytes]) -> None:
        for raw in lines:
            parts = raw.split()
            if len(parts) != 3:
                continue
            try:
                pid, created = int(parts[1]), float(parts[2])
            except ValueError:
                continue
            if parts[0] == b"root":
                self.roots[pid] = created
            elif parts[0] == b"seen":
                self.seen[pid] = created


def left_behind(token: str, reports: Reports) -> list[psutil.Process]:
    """The processes of the wizard's trees that are still alive (see the module docstring)."""
    found: list[psutil.Process] = []
    me = os.getpid()
    prefix = token + "-"
    for proc in psutil.process_iter():
        if proc.pid == me:
            continue
        try:
            created = proc.create_time()
            seen = reports.seen.get(proc.pid)
            if seen is not None and abs(seen - created) < 0.01:
                found.append(proc)
                continue
            root = reports.roots.get(_session_of(proc.pid))
            if root is not None and created >= root - 0.01:
                found.append(proc)
                continue
            if proc.environ().get(MARKER_VAR, "").startswith(prefix):
                found.append(proc)
        except (psutil.Error, OSError):
            continue
    return found


def _session_of(pid: int) -> int:
    try:
        return os.getsid(pid)
    except OSError:
        return -1


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m kernel_wizard.machine.watchdog RUN_TOKEN  (the pipe on stdin)",
              file=sys.stderr)
        return 2
    token = args[0]
    for name in ("SIGINT", "SIGHUP"):  # only the end of the pipe ends the watch
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    reports = Reports()
    pipe = sys.stdin.buffer
    pending = b""
    while True:
        try:
            chunk = os.read(pipe.fileno(), 1 << 16)
        except InterruptedError:
            continue
        except OSError:
            break
        if not chunk:
            break  # the wizard has ended
        pending += chunk
        *lines, pending = pending.split(b"\n")
        reports.feed(lines)
    stop_processes(lambda: left_behind(token, reports), grace_s=2.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
