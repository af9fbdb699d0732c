"""Locks between runs of the wizard: one per build folder, one per target environment.

Two wizards (or a wizard and a headless run) must not build in the same folder or install into
the same environment at once. :func:`hold` takes an operating-system file lock (``filelock``:
``flock`` on POSIX, ``msvcrt.locking`` on Windows) — the system releases it when its process
ends, however it ends, so the lock of a process that was killed is simply taken over. Beside
the lock file, ``<lock>.owner.json`` says who holds it (process id, command line, start time,
what it does), so that a second run can say *who* it waits for; a holder file naming a process
that no longer runs is reported as taken over.
"""

from __future__ import annotations

import hashlib
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

from kernel_wizard.base.errors import Cancelled, WizardError
from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.oserrors import explain
from kernel_wizard.base.statefile import StateFileError, write_json

OWNER_SUFFIX = ".owner.json"


@dataclass(frozen=True)
class Holder:
    """Who holds a lock (from its owner file)."""

    pid: int
    command: str
    started: str  # local time, "2026-11-21 16:14:30"
    purpose: str  # "building probe", "installing ksw-probe-kernel into /path/python"
    host: str

    def alive(self) -> bool:
        import psutil  # lazily: not needed before the first page (start-up time)

        if self.host != socket.gethostname():
            return True  # another computer (a shared folder): cannot tell, assume it runs
        try:
            return bool(psutil.pid_exists(self.pid)) and \
                bool(psutil.Process(self.pid).status() != psutil.STATUS_ZOMBIE)
        except psutil.Error:
            return False

    def describe(self) -> str:
        command = " ".join(self.command.split())  # one line, whatever the command held
        command = command if len(command) <= 120 else command[:117] + "…"
        return f"process {self.pid} ({command}), {self.purpose}, since {self.started}"


class LockBusy(WizardError):
    """Another run holds the lock and this one was told not to wait."""

    def __init__(self, what: str, *, holder: Holder | None, why: str = "",
                 hint: str = "") -> None:
        super().__init__(what, why=why, hint=hint)
        self.holder = holder


def owner_file(lock_path: Path) -> Path:
    return lock_path.with_name(lock_path.name + OWNER_SUFFIX)


def read_holder(lock_path: Path) -> Holder | None:
    try:
        data = read_json_file(owner_file(lock_path))
        return Holder(int(data["pid"]), str(data["command"]), str(data["started"]),
                      str(data["purpose"]), str(data.get("host", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def lock_name(kind: str, key: str) -> str:
    """A short, file-name-safe lock name for any key (a path, a kernel and version)."""
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{kind}-{digest}.lock"


def _this_command() -> str:
    import psutil  # lazily: not needed before the first page (start-up time)

    try:
        return " ".join(psutil.Process().cmdline()) or sys.executable
    except psutil.Error:
        return sys.executable


@dataclass(frozen=True)
class Held:
    """A lock this process holds; ``took_over``: the holder before, a process that had ended
    without letting go of it (the system released it)."""

    path: Path
    holder: Holder
    took_over: Holder | None
    waited_s: float


LOCK_ACTION = N_("take the lock that keeps two runs of the wizard apart")


@contextmanager
def hold(
    lock_path: Path,
    purpose: str,
    *,
    wait: bool = True,
    on_wait: Callable[[str], None] | None = None,
    cancel: threading.Event | None = None,
    timeout_s: float | None = None,
    poll_s: float = 0.25,
    shared: bool = False,
) -> Iterator[Held]:
    """Hold the lock at ``lock_path`` for the ``with`` block.

    Busy: without ``wait`` raises :class:`LockBusy` naming the holder; with it, tells
    ``on_wait`` once who holds it and waits (``cancel`` → :class:`~.errors.Cancelled`,
    ``timeout_s`` → :class:`LockBusy`). ``shared``: the lock file is made for every user of
    this computer (its owner file too)."""
    from filelock import FileLock, Timeout  # lazily (start-up time)

    lock_path = Path(lock_path)
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a read-only or full data folder: a storage problem (exit 6)
        raise explain(exc, path=lock_path.parent, action=LOCK_ACTION) from exc
    # shared: a lock that every user of this computer can take (mode 0o666), for a folder all
    # of them write to
    lock = FileLock(str(lock_path), mode=0o666) if shared else FileLock(str(lock_path))
    started = time.monotonic()
    told = False
    while True:
        try:
            lock.acquire(timeout=0 if not told else poll_s)
            break
        except Timeout:
            holder = read_holder(lock_path)
            who = holder.describe() if holder is not None else "another run of the wizard"
            if not wait:
                raise LockBusy(f"Another run of the wizard is {purpose_of(holder)}.",
                               holder=holder, why=f"It is {who}.",
                               hint="Wait until it has finished, or stop it, then try "
                               "again.") from None
            if not told:
                told = True
                if on_wait is not None:
                    on_wait(msg("Waiting: {who} is using this. This run goes on as soon as "
                                "it has finished (cancel to stop waiting).", who=who))
            if cancel is not None and cancel.is_set():
                raise Cancelled("Cancelled while waiting for another run of the wizard.",
                                why=f"It is {who}.") from None
            if timeout_s is not None and time.monotonic() - started > timeout_s:
                raise LockBusy(f"Another run of the wizard is still {purpose_of(holder)}.",
                               holder=holder, why=f"It is {who}.",
                               hint="Wait until it has finished, or stop it, then try "
                               "again.") from None
        except OSError as exc:
            raise explain(exc, path=lock_path, action=LOCK_ACTION) from exc
    before = read_holder(lock_path)
    if told and before is not None and before.pid != os.getpid():
        # the lock came free while its holder's owner file stayed: it is ending (the system
        # releases a lock when the process closes its files, a moment before it is gone)
        deadline = time.monotonic() + 2.0
        while before.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
    me = Holder(os.getpid(), _this_command(), datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
                purpose, socket.gethostname())
    took_over = before if before is not None and before.pid != me.pid \
        and not before.alive() else None
    try:
        try:
            write_json(owner_file(lock_path), asdict(me), keep_previous=False)
            if shared:
                os.chmod(owner_file(lock_path), 0o666)
        except (StateFileError, OSError):
            pass  # the lock holds without it; a waiter just cannot name us
        yield Held(lock_path, me, took_over, time.monotonic() - started)
    finally:
        try:
            if read_holder(lock_path) == me:
                owner_file(lock_path).unlink(missing_ok=True)
        except OSError:
            pass
        lock.release()


def purpose_of(holder: Holder | None) -> str:
    return holder.purpose if holder is not None else "using this"


__all__ = ["Held", "Holder", "LockBusy", "hold", "lock_name", "owner_file", "read_holder"]
