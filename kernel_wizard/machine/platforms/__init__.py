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

    def missing_display_libraries(self, environ: Mapping[str, str]) -> list[str]:
        """System libraries the GUI toolkit needs here and cannot load (Linux, Qt's xcb
        plugin: ``libxcb-cursor.so.0``); empty when none is missing or none is needed."""
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

    def tree_cpu_seconds(self, pid: int) -> float | None:
        """The CPU seconds process ``pid`` and its descendants (a build's compilers) have
        received so far, ended children included; None where it is not measured (Windows:
        the build's ETA then keeps its unit-based model) or ``pid`` has ended."""
        ...

    host_include_var: str  # where the host compiler takes extra include folders from
    # ``git -c key=value`` settings every git command needs here (Windows: core.longpaths)
    git_config: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ProgramOutput:
    """What a short-lived tool printed (raw bytes: the caller knows its encoding) and its exit
    code."""

    returncode: int
    stdout: bytes
    stderr: bytes = b""


def run_program(argv: Sequence[str], *, env: Mapping[str, str] | None = None,
                timeout: float = 30.0) -> ProgramOutput:
    """Run a tool that answers quickly (vswhere, cl.exe, reg.exe) and keep its raw output
    (through the one process runner). Raises :class:`~kernel_wizard.base.errors.ProcessError`
    (:class:`~kernel_wizard.base.errors.ProcessStartError` when it cannot start,
    :class:`~kernel_wizard.base.errors.ProcessTimeout` when it does not finish)."""
    from kernel_wizard.base.processes import run_captured

    done = run_captured(list(argv), timeout_s=timeout, env=env)
    return ProgramOutput(done.returncode, done.stdout_bytes, done.stderr_bytes)


def current() -> Platform:
    """The platform of this machine."""
    if sys.platform == "win32":
        from kernel_wizard.machine.platforms.windows import WindowsPlatform

        return WindowsPlatform()
    from kernel_wizard.machine.platforms.linux import LinuxPlatform

    return LinuxPlatform()


__all__ = [
    "InterpreterHint",
    "Platform",
    "ProgramOutput",
    "current",
    "run_program",
]
