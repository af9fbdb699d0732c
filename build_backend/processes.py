"""Child processes: start a build so that its whole tree can be stopped, and stop it.

On Windows the compilers are grandchildren (pip → python → ninja → nvcc → cl.exe), so stopping
the direct child is not enough: :func:`kill_tree` walks the tree with psutil, terminates every
member, and kills whatever is left after a grace period.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import psutil


class EnvMode(Enum):
    SET = "set"
    PREPEND = "prepend"  # a path list: put the value in front of what is there


@dataclass(frozen=True)
class EnvChange:
    """One change to a child's environment, with the reason shown to the user."""

    name: str
    value: str
    mode: EnvMode = EnvMode.SET
    why: str = ""


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
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def kill_tree(pid: int, grace_s: float = 3.0) -> list[int]:
    """Terminate ``pid`` and every descendant; kill survivors after ``grace_s``.

    Returns the pids that were still alive at the end (empty when the tree is gone).
    """
    members = tree(pid)
    # Stop the parents first so they cannot start new children while we work down the tree.
    for proc in members:
        try:
            proc.suspend()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    members = _union(members, tree(pid))
    for proc in members:
        try:
            proc.terminate()
            proc.resume()  # a suspended process only acts on SIGTERM once resumed
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    _, alive = psutil.wait_procs(members, timeout=grace_s)
    for proc in alive:
        try:
            proc.kill()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    _, alive = psutil.wait_procs(alive, timeout=grace_s)
    return [p.pid for p in alive]


def _union(a: Sequence[psutil.Process], b: Sequence[psutil.Process]) -> list[psutil.Process]:
    seen = {p.pid for p in a}
    return list(a) + [p for p in b if p.pid not in seen]


def running_compilers(pid: int) -> list[str]:
    """'nvcc (pid 123, 45 s)' for each compiler process in the tree of ``pid``."""
    import time

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
