"""The shapes a prerequisites page (or the headless ``check``/``fix`` commands) works with.

A check is a pure function of :class:`~kernel_wizard.prereqs.facts.SystemFacts` that returns a
:class:`CheckResult`: a status, one line for a non-expert, the details, and optionally a
:class:`Fix`. A fix says up front what it will do (``description``, ``command_preview``) and
whether it needs administrator rights, then runs with a line callback, an optional progress
callback and a cancel :class:`threading.Event`, and returns a :class:`FixOutcome`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


class CheckId(Enum):
    """The prerequisite checks, in the order the page shows them."""

    COMPILER = "compiler"
    CUDA = "cuda-toolkit"
    COMPAT = "compiler-cuda"
    LONG_PATHS = "long-paths"
    PYTHON_ENV = "python-env"
    RESOURCES = "resources"
    TRITON = "triton"


class CheckStatus(Enum):
    """OK and WARNING let the build go on; MISSING and BLOCKED stop it.

    MISSING: something is not installed (usually with a fix that installs it).
    BLOCKED: something is there but unusable, or a limit that no button can lift.

    Only what no kernel can do without stops the build (no usable Python, no C++ compiler):
    what only the kernels with GPU code need (a CUDA toolkit, a CUDA build of PyTorch, ...) is
    a WARNING whose :attr:`CheckResult.needed_for` names those kernels, so that the probe can
    still be chosen and built (see :func:`scoped`).
    """

    OK = "ok"
    NOT_CHECKED = "not_checked"  # nothing to check yet (e.g. Triton before a CUDA PyTorch)
    WARNING = "warning"
    MISSING = "missing"
    BLOCKED = "blocked"

    @property
    def blocks(self) -> bool:
        return self in (CheckStatus.MISSING, CheckStatus.BLOCKED)

    @property
    def severity(self) -> int:
        """0 (OK) … 3 (BLOCKED): the worst finding of a check decides its status."""
        return _SEVERITY[self]

    @property
    def label(self) -> str:
        return "-" if self is CheckStatus.NOT_CHECKED else self.name


_SEVERITY = {CheckStatus.OK: 0, CheckStatus.NOT_CHECKED: 0, CheckStatus.WARNING: 1,
             CheckStatus.MISSING: 2,
             CheckStatus.BLOCKED: 3}


def worst(*statuses: CheckStatus) -> CheckStatus:
    """The most severe of ``statuses`` (OK when none)."""
    return max(statuses, key=lambda s: s.severity, default=CheckStatus.OK)


def scoped(status: CheckStatus, gpu_only: bool) -> CheckStatus:
    """What a finding means for the wizard as a whole. One that only the kernels with GPU code
    need never stops the build (the probe builds its CPU part without it): it becomes a
    WARNING that rules those kernels out."""
    return CheckStatus.WARNING if gpu_only and status.blocks else status


def needed_for_text(kernels: tuple[str, ...] | list[str], first: bool = False) -> str:
    """'needed for FlashAttention 2 / FlashMLA / DeepEP' ('Needed …' with ``first``)."""
    if not kernels:
        return ""
    return ("Needed" if first else "needed") + " for " + " / ".join(kernels)


class FixStatus(Enum):
    DONE = "done"
    DONE_RESTART_NEEDED = "done_restart_needed"  # it worked; Windows must restart to see it
    DECLINED = "declined"  # the user said No at the administrator (UAC) prompt
    CANCELLED = "cancelled"  # cancelled here, or in the installer's own window
    FAILED = "failed"
    MANUAL = "manual"  # the fix is a command the user has to run (Linux: sudo apt-get ...)

    @property
    def succeeded(self) -> bool:
        return self in (FixStatus.DONE, FixStatus.DONE_RESTART_NEEDED)


@dataclass(frozen=True)
class FixOutcome:
    status: FixStatus
    message: str  # one line: what happened
    hint: str = ""  # what to do now ('' when nothing)
    log_path: Path | None = None  # the fix's own log (every command and its output)
    exit_code: int | None = None  # of the program the fix ran, when one ran

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "message": self.message,
            "hint": self.hint,
            "log": str(self.log_path) if self.log_path else None,
            "exit_code": self.exit_code,
        }


@dataclass(frozen=True)
class FixProgress:
    """How far a long step is (a download, pip fetching a wheel)."""

    text: str  # "Downloading vs_buildtools.exe"
    fraction: float | None  # 0.0 … 1.0; None when the total is unknown
    done_bytes: int | None = None
    total_bytes: int | None = None


LineCallback = Callable[[str], None]
ProgressCallback = Callable[[FixProgress], None]


@runtime_checkable
class Fix(Protocol):
    """Something the wizard can do about a failed check.

    ``automatic`` False means the fix is a command the user must run (e.g. with sudo): the page
    shows ``command_preview`` with a copy button, and ``run`` only returns
    :attr:`FixStatus.MANUAL`.
    """

    @property
    def id(self) -> str: ...  # "vs-buildtools", "long-paths", "ninja", ...

    @property
    def title(self) -> str: ...  # the button: "Install Visual Studio Build Tools 2022"

    @property
    def description(self) -> str: ...  # what it will do, in words, before it runs

    @property
    def needs_admin(self) -> bool: ...  # Windows asks for administrator rights for this step

    @property
    def automatic(self) -> bool: ...

    @property
    def command_preview(self) -> tuple[str, ...]: ...  # what will run, one command a line

    def run(
        self,
        on_line: LineCallback,
        cancel: threading.Event,
        on_progress: ProgressCallback | None = None,
    ) -> FixOutcome: ...


def fix_json(fix: Fix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    return {
        "id": fix.id,
        "title": fix.title,
        "description": fix.description,
        "needs_admin": fix.needs_admin,
        "automatic": fix.automatic,
        "command_preview": list(fix.command_preview),
    }


@dataclass(frozen=True)
class CheckResult:
    id: CheckId
    title: str  # "C++ compiler"
    status: CheckStatus
    summary: str  # one line for a non-expert
    detail: str = ""  # what was found, where, and why it matters (several lines)
    hint: str = ""  # what to do when there is no fix button (or beside it)
    fix: Fix | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)  # JSON-ready, for --json
    # The kernels that cannot be built until this is fixed, where other kernels (the probe)
    # can: the status is then WARNING, and the Kernel page shows these kernels as ruled out.
    needed_for: tuple[str, ...] = ()

    @property
    def blocks(self) -> bool:
        return self.status.blocks

    @property
    def rules_out(self) -> bool:
        """Whether some kernels cannot be built until this is fixed (but others can)."""
        return bool(self.needed_for)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id.value,
            "title": self.title,
            "status": self.status.value,
            "blocks": self.blocks,
            "summary": self.summary,
            "detail": self.detail,
            "hint": self.hint,
            "fix": fix_json(self.fix),
            "facts": dict(self.facts),
            "needed_for": list(self.needed_for),
        }


def blocking(results: list[CheckResult] | tuple[CheckResult, ...]) -> list[CheckResult]:
    """The results that stop the build."""
    return [r for r in results if r.blocks]


__all__ = [
    "CheckId",
    "CheckResult",
    "CheckStatus",
    "Fix",
    "FixOutcome",
    "FixProgress",
    "FixStatus",
    "LineCallback",
    "ProgressCallback",
    "blocking",
    "fix_json",
    "needed_for_text",
    "scoped",
    "worst",
]
