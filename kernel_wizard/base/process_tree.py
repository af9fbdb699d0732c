"""Process trees: find every process a child started, also one that left the tree, and stop them.

"The whole tree" of a child means every descendant, also one that left it: on Windows the
compilers are grandchildren (pip → python → ninja → nvcc → cl.exe), and on Linux a grandchild
may call ``setsid`` and be orphaned. :class:`TreeWatch` keeps four nets for one child: the live
tree (psutil), every descendant seen while the child ran (sampled twice a second, checked by
creation time against pid reuse), the marker variable (:data:`MARKER_VAR`) every descendant
inherits in its environment, and — Linux, where the wizard is the *child subreaper* — orphans
re-parented to the wizard since the child started (a daemon that also cleared its
environment). What it sees is told to the watchdog (:mod:`.process_guard`). The runner
(:mod:`.processes`) is the only user; the names are re-exported there.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from kernel_wizard.base import process_guard
from kernel_wizard.base.process_guard import become_child_subreaper

if TYPE_CHECKING:
    import psutil

# Every child (and every descendant that keeps its environment) carries this, with a value
# unique to one run: how descendants that left the process tree are still found and stopped.
MARKER_VAR = "KSW_PROCESS_TREE"




# Names of the programs that do the real compiling (shown when a build is quiet for long).
COMPILER_NAMES = frozenset(
    {
        "nvcc", "cicc", "ptxas", "fatbinary", "nvlink", "cudafe++", "cc1plus", "cc1", "gcc",
        "g++", "c++", "ld", "collect2", "cl.exe", "link.exe", "nvcc.exe", "cicc.exe",
        "ptxas.exe", "ninja", "ninja.exe",
    }
)


def tree(pid: int) -> list[psutil.Process]:
    """The process and all its descendants that are still alive (parent first)."""
    import psutil  # lazily: not needed before the first page (start-up time)

    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def marked(marker: str) -> list[psutil.Process]:
    """Every process whose environment carries ``MARKER_VAR=marker`` (this user's, alive)."""
    import psutil  # lazily: not needed before the first page (start-up time)

    found: list[psutil.Process] = []
    me = os.getpid()
    for proc in psutil.process_iter():
        if proc.pid == me:
            continue
        try:
            if proc.environ().get(MARKER_VAR) == marker:
                found.append(proc)
        except (psutil.Error, OSError):
            continue
    return found


def stop_processes(
    collect: Callable[[], list[psutil.Process]], grace_s: float = 3.0
) -> list[int]:
    """Suspend, terminate and (after ``grace_s``) kill what ``collect`` finds; collected twice,
    so that a child started meanwhile is caught. Returns the pids still alive at the end."""
    import psutil  # lazily: not needed before the first page (start-up time)

    members = _alive(collect())
    # Stop the parents first so they cannot start new children while we work down the tree.
    for proc in members:
        try:
            proc.suspend()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    members = _union(members, _alive(collect()))
    for proc in members:
        try:
            proc.terminate()
            proc.resume()  # a suspended process only acts on SIGTERM once resumed
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    alive = _wait_gone(members, grace_s)
    for proc in alive:
        try:
            proc.kill()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return [p.pid for p in _wait_gone(alive, grace_s)]


def _wait_gone(procs: list[psutil.Process], timeout: float) -> list[psutil.Process]:
    """Wait until none of ``procs`` runs any more; those still running after ``timeout``.
    A zombie counts as gone: a process that is not our child stays one until its own parent
    collects it (psutil.wait_procs would wait out the whole timeout for it)."""
    deadline = time.monotonic() + timeout
    alive = _alive(procs)
    while alive and time.monotonic() < deadline:
        time.sleep(0.02)
        alive = _alive(alive)
    return alive


def kill_tree(pid: int, grace_s: float = 3.0) -> list[int]:
    """Terminate ``pid`` and every descendant; kill survivors after ``grace_s``.

    Returns the pids that were still alive at the end (empty when the tree is gone)."""
    return stop_processes(lambda: tree(pid), grace_s)


def running_compilers(pid: int) -> list[str]:
    """'nvcc (pid 123, 45 s)' for each compiler process in the tree of ``pid``."""
    import psutil  # lazily: not needed before the first page (start-up time)

    found: list[str] = []
    now = time.time()
    for proc in tree(pid)[1:]:
        try:
            name = proc.name()
            if name.lower() in COMPILER_NAMES:
                found.append(f"{name} (pid {proc.pid}, running {now - proc.create_time():.0f} s)")
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def _union(a: Sequence[psutil.Process], b: Sequence[psutil.Process]) -> list[psutil.Process]:
    seen = {p.pid for p in a}
    return list(a) + [p for p in b if p.pid not in seen]


def _is_alive(proc: psutil.Process) -> bool:
    import psutil  # lazily: not needed before the first page (start-up time)

    try:
        return bool(proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def _alive(procs: Iterable[psutil.Process]) -> list[psutil.Process]:
    return _union([], [p for p in procs if _is_alive(p)])


def alive_of(procs: Iterable[psutil.Process]) -> list[psutil.Process]:
    """Those of ``procs`` that still run (not zombies), each once."""
    return _alive(procs)


def describe_pids(pids: Iterable[int]) -> str:
    """'python (pid 123), cc1plus (pid 456)': processes named for a person."""
    import psutil  # lazily: not needed before the first page (start-up time)

    named = []
    for pid in pids:
        try:
            named.append(f"{psutil.Process(pid).name()} (pid {pid})")
        except psutil.Error:
            named.append(f"pid {pid}")
    return ", ".join(named)


_SUBREAPER: bool | None = None
_ADOPTABLE: dict[int, float] = {}  # grandchildren seen, by pid → creation time: may become ours
_LOCK = threading.Lock()
_SPAWN_LOCK = threading.Lock()  # starting a child and listing adopted orphans exclude each other
_ROOTS: set[int] = set()  # the children the runner started and has not yet waited for
_HELPERS: set[int] = set()  # children of the program that are not the runner's (the watchdog)


@contextmanager
def spawning() -> Iterator[set[int]]:
    """Held while the runner starts a child (it adds the pid to the set it gets): a child
    being started is never mistaken for an adopted orphan."""
    with _SPAWN_LOCK:
        yield _ROOTS


def forget_root(pid: int) -> None:
    """The runner has waited for this child."""
    _ROOTS.discard(pid)


def note_helper(pid: int) -> None:
    """A child the program started itself (not through the runner): never an adopted orphan."""
    _HELPERS.add(pid)


def _adopted(since: float) -> list[psutil.Process]:
    """Orphans re-parented to this process (the subreaper) that were started since ``since``
    (a creation time): a daemon that left its tree with ``setsid`` and a cleared environment."""
    import psutil  # lazily: not needed before the first page (start-up time)

    if not _SUBREAPER:
        return []
    found = []
    with _SPAWN_LOCK:
        try:
            children = psutil.Process().children()
        except psutil.Error:
            return []
        for proc in children:
            if proc.pid in _ROOTS or proc.pid in _HELPERS:
                continue
            try:
                if proc.create_time() >= since - 0.01:
                    found.append(proc)
            except psutil.Error:
                continue
    return found


def use_subreaper() -> bool:
    """Become the child subreaper (once; Linux)."""
    global _SUBREAPER
    with _LOCK:
        if _SUBREAPER is None:
            _SUBREAPER = become_child_subreaper()
        return _SUBREAPER


def reap_adopted() -> None:
    """Collect the exit status of grandchildren that were re-parented to us and have ended,
    so they do not linger as zombies. Only pids seen in a runner's tree: never another
    part of the program's child (that would steal its exit status)."""
    import psutil  # lazily: not needed before the first page (start-up time)

    if not _SUBREAPER or not hasattr(os, "WNOHANG"):
        return
    with _LOCK:
        for pid, created in list(_ADOPTABLE.items()):
            try:
                proc = psutil.Process(pid)
                same = abs(proc.create_time() - created) < 0.01
            except psutil.Error:
                _ADOPTABLE.pop(pid, None)  # gone (reaped elsewhere, by init or by us)
                continue
            if not same:
                _ADOPTABLE.pop(pid, None)  # the pid now belongs to another process
                continue
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    _ADOPTABLE.pop(pid, None)
            except ChildProcessError:
                pass  # not ours (yet): its parent is alive


class TreeWatch:
    """Everything one child started: the live tree, every descendant seen, the marked."""

    SAMPLE_S = 0.5

    def __init__(self, pid: int, marker: str) -> None:
        import psutil  # lazily: not needed before the first page (start-up time)

        self.pid = pid
        self.marker = marker
        self.seen: dict[int, float] = {}
        self._next = 0.0
        try:
            self.created = psutil.Process(pid).create_time()
        except psutil.Error:
            self.created = time.time()
        process_guard.report_processes("root", [(pid, self.created)])

    def sample(self, now: float) -> None:
        import psutil  # lazily: not needed before the first page (start-up time)

        if now < self._next:
            return
        self._next = now + self.SAMPLE_S
        new: list[tuple[int, float]] = []
        for proc in tree(self.pid)[1:] + _adopted(self.created):
            try:
                if proc.pid not in self.seen:
                    self.seen[proc.pid] = proc.create_time()
                    new.append((proc.pid, self.seen[proc.pid]))
            except psutil.Error:
                continue
        with _LOCK:
            _ADOPTABLE.update(self.seen)
        process_guard.report_processes("seen", new)

    def members(self, *, include_root: bool = True) -> list[psutil.Process]:
        import psutil  # lazily: not needed before the first page (start-up time)

        found = tree(self.pid) if include_root else tree(self.pid)[1:]
        for pid, created in self.seen.items():
            try:
                proc = psutil.Process(pid)
                if abs(proc.create_time() - created) < 0.01:
                    found.append(proc)
            except psutil.Error:
                continue
        if self.marker:
            found += marked(self.marker)
        return _union([], found + _adopted(self.created))

    def stop(self, grace_s: float = 3.0) -> tuple[int, ...]:
        leftover = stop_processes(self.members, grace_s)
        reap_adopted()
        return tuple(leftover)


__all__ = [
    "COMPILER_NAMES", "MARKER_VAR", "TreeWatch", "alive_of", "describe_pids", "forget_root",
    "kill_tree", "marked", "note_helper", "reap_adopted", "running_compilers", "spawning",
    "stop_processes", "tree", "use_subreaper",
]
