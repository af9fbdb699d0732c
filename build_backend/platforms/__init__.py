"""The seam between the core and the operating system.

Code above this package never branches on ``sys.platform``: it asks :func:`current` for the
:class:`Platform` of this machine. Probes that read Windows-only facts are pure functions of
what the OS returned (text, JSON) so they are tested anywhere with recorded real outputs.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class InterpreterHint:
    """A Python interpreter the platform knows about, with where we learned of it."""

    path: Path
    origin: str  # e.g. "py launcher (-V:3.12)"


@runtime_checkable
class Platform(Protocol):
    """What the core needs to know from, and do on, the operating system."""

    name: str  # "linux" or "windows"

    def python_in_prefix(self, prefix: Path) -> Path:
        """The interpreter inside an environment prefix (venv or conda env)."""
        ...

    def registered_interpreters(self) -> list[InterpreterHint]:
        """Interpreters the OS registers (Windows: ``py -0p``); may be empty."""
        ...

    def has_display(self, environ: Mapping[str, str]) -> bool:
        """Whether a GUI can open a window in this session."""
        ...

    def default_build_root(self) -> Path:
        """A short folder for source trees and builds (short paths matter on Windows)."""
        ...

    def interpreter_names(self) -> Sequence[str]:
        """Executable names to look for on PATH (``python3``, ``python.exe`` ...)."""
        ...

    def cuda_toolkit_folders(self) -> list[Path]:
        """Existing folders where CUDA toolkits are installed by default."""
        ...

    def executable(self, name: str) -> str:
        """``nvcc`` → ``nvcc`` (Linux) or ``nvcc.exe`` (Windows)."""
        ...

    host_include_var: str  # where the host compiler takes extra include folders from
    # ``git -c key=value`` settings every git command needs here (Windows: core.longpaths)
    git_config: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ProcessGroupOptions:
    """Popen arguments that give a child its own process group, so its tree can be stopped."""

    start_new_session: bool
    creationflags: int


def process_group_options() -> ProcessGroupOptions:
    if sys.platform == "win32":
        import subprocess

        return ProcessGroupOptions(False, subprocess.CREATE_NEW_PROCESS_GROUP)  # type: ignore[attr-defined,unused-ignore]
    return ProcessGroupOptions(True, 0)


_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>


def become_child_subreaper() -> bool:
    """Linux: make this process the "child subreaper" of its descendants
    (``prctl(PR_SET_CHILD_SUBREAPER)``), so that a grandchild whose parent exits — also one
    that started its own session with ``setsid`` — is re-parented to us instead of to init,
    and stays findable and killable. False where the OS has no such thing (Windows, macOS)
    or refused it."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def current() -> Platform:
    """The platform of this machine."""
    if sys.platform == "win32":
        from .windows import WindowsPlatform

        return WindowsPlatform()
    from .linux import LinuxPlatform

    return LinuxPlatform()


__all__ = [
    "InterpreterHint",
    "Platform",
    "ProcessGroupOptions",
    "become_child_subreaper",
    "current",
    "process_group_options",
]
