""""Resume where you left off" across a Windows restart.

A fix that needs a restart (long paths) saves a small state file in the user's data folder and
asks the platform to start the wizard once at the next logon with ``--resume`` (Windows:
``HKCU\\...\\RunOnce``, which Windows deletes before running it). On start, the wizard reads
the state with :func:`load_resume_state`, opens the page it names, and calls
:func:`clear_resume_state`.

The state also tells whether Windows has restarted since it was saved (the boot time is
recorded), so the long-paths check can say "restart pending" instead of a misleading OK.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.paths import data_dir
from kernel_wizard.base.statefile import write_json

SCHEMA = "ksw.resume/1"
FILE_NAME = "resume.json"
RUN_ONCE_NAME = "KernelSetupWizardResume"
RESUME_FLAG = "--resume"
_BOOT_TOLERANCE_S = 5.0  # boot_time() is computed from the uptime and wobbles a little


@dataclass(frozen=True)
class ResumeState:
    page: str  # the wizard page to open: "prerequisites"
    reason: str  # the fix that asked for the restart: "long-paths"
    python: str | None  # the target interpreter chosen before the restart
    saved_at: float  # epoch seconds
    boot_time: float  # psutil.boot_time() when saved: a different one means Windows restarted

    def to_json(self) -> dict[str, Any]:
        return {"schema": SCHEMA, **asdict(self)}


def _path(directory: Path | None) -> Path:
    return (directory if directory is not None else data_dir()) / FILE_NAME


def save_resume_state(
    reason: str, python: Path | None, page: str = "prerequisites",
    directory: Path | None = None,
) -> Path:
    """Write the state file (atomically); its path."""
    import psutil  # lazily: not needed before the first page (start-up time)

    state = ResumeState(page=page, reason=reason, python=str(python) if python else None,
                        saved_at=time.time(), boot_time=psutil.boot_time())
    path = _path(directory)
    write_json(path, state.to_json(), keep_previous=False)
    return path


def load_resume_state(directory: Path | None = None) -> ResumeState | None:
    """The saved state; None when there is none or it is unreadable (never raises)."""
    try:
        data = read_json_file(_path(directory))
        if data.get("schema") != SCHEMA:
            return None
        return ResumeState(page=str(data["page"]), reason=str(data["reason"]),
                           python=data.get("python"), saved_at=float(data["saved_at"]),
                           boot_time=float(data["boot_time"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def clear_resume_state(directory: Path | None = None) -> None:
    try:
        _path(directory).unlink()
    except FileNotFoundError:
        pass


def restart_pending(directory: Path | None = None, boot_time: float | None = None) -> bool:
    """True while a saved state asks for a restart that has not happened yet."""
    import psutil  # lazily: not needed before the first page (start-up time)

    state = load_resume_state(directory)
    if state is None:
        return False
    now_boot = float(boot_time if boot_time is not None else psutil.boot_time())
    return bool(abs(now_boot - state.boot_time) <= _BOOT_TOLERANCE_S)


def resume_argv(frozen: bool | None = None, executable: Path | None = None) -> list[str]:
    """The command that starts the wizard again and resumes.

    The bundled program: ``<wizard.exe> --resume``. From source: ``python -m app --resume``
    with ``pythonw.exe`` where it exists (no console window at logon).
    """
    is_frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    exe = Path(executable if executable is not None else sys.executable)
    if is_frozen:
        return [str(exe), RESUME_FLAG]
    windowless = exe.with_name("pythonw.exe")
    if exe.name.lower() == "python.exe" and windowless.is_file():
        exe = windowless
    return [str(exe), "-m", "app", RESUME_FLAG]


__all__ = [
    "RESUME_FLAG",
    "RUN_ONCE_NAME",
    "ResumeState",
    "clear_resume_state",
    "load_resume_state",
    "restart_pending",
    "resume_argv",
    "save_resume_state",
]
