"""The CPU time a process tree has received, from Linux's ``/proc`` (standard library only).

A build is ``pip`` → ``python setup.py`` → ``ninja`` → the compilers (``c++`` → ``cc1plus``,
``nvcc`` → ``cicc``, ``ptxas``). What the compilers get of the CPU is the build's real pace on
a busy machine: :func:`tree_cpu_seconds` sums, over the live tree under a pid, each process's
own user + system time and the times of its children that it has waited for (``cutime`` +
``cstime``: a compiler that has ended is counted in its parent, ninja or the ``c++`` driver,
once that parent has reaped it). Every CPU second of the tree is counted once; a process that
ends between two looks is counted a moment late (never twice: parents are read before their
children, see :func:`tree_cpu_seconds`).

``benchmarks/record_build.py`` loads this file by its path (it runs on bare machines without
the wizard's dependencies): keep it free of imports from the project.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

PROC = "/proc"


def clock_ticks() -> int:
    """Clock ticks per second of ``/proc/<pid>/stat``'s times (100 nearly everywhere)."""
    try:
        return int(os.sysconf("SC_CLK_TCK")) or 100
    except (AttributeError, ValueError, OSError):
        return 100


def parse_stat(text: str, ticks: int = 100) -> tuple[int, float] | None:
    """``/proc/<pid>/stat`` → (parent pid, CPU seconds of the process and of its children it
    has waited for: ``utime + stime + cutime + cstime``); None when it does not parse.

    The command name (field 2) is in parentheses and may hold spaces and parentheses itself:
    the fields are counted from its last ``)``."""
    close = text.rfind(")")
    if close < 0:
        return None
    rest = text[close + 1:].split()
    # rest[0] is field 3 (state): field k is rest[k - 3]
    try:
        ppid = int(rest[1])
        used = int(rest[11]) + int(rest[12]) + int(rest[13]) + int(rest[14])
    except (IndexError, ValueError):
        return None
    return ppid, used / max(1, ticks)


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read()
    except OSError:  # the process ended meanwhile, or /proc is not there
        return None


def _pids(proc: str) -> Iterable[int]:
    try:
        names = os.listdir(proc)
    except OSError:
        return []
    return [int(n) for n in names if n.isdigit()]


def tree_cpu_seconds(pid: int, proc: str = PROC,
                     read: Callable[[str], str | None] | None = None) -> float | None:
    """The CPU seconds the process ``pid`` and every live descendant have used, with the
    children each has reaped; None when ``pid`` is not there (ended, or no ``/proc``).

    The parent of every process is read first (one pass over ``/proc``); then the tree is
    read again from ``pid`` down, parents before their children: a child reaped between the
    two reads is missing from the sum until the next look (when its parent's ``cutime`` holds
    it) rather than counted twice."""
    reader = read if read is not None else _read
    ticks = clock_ticks()
    children: dict[int, list[int]] = {}
    for other in _pids(proc):
        text = reader(f"{proc}/{other}/stat")
        parsed = parse_stat(text, ticks) if text else None
        if parsed is not None:
            children.setdefault(parsed[0], []).append(other)
    total = 0.0
    found = False
    queue = [pid]
    seen: set[int] = set()
    while queue:
        current = queue.pop(0)
        if current in seen:
            continue
        seen.add(current)
        text = reader(f"{proc}/{current}/stat")
        parsed = parse_stat(text, ticks) if text else None
        if parsed is None:
            continue  # ended since the first pass: its parent's cutime will hold it
        found = found or current == pid
        total += parsed[1]
        queue += children.get(current, [])
    return total if found else None


__all__ = ["clock_ticks", "parse_stat", "tree_cpu_seconds"]
