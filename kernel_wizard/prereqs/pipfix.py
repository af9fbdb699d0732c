"""The fix for a Python without pip: Python's own installer of pip (``ensurepip``).

Every CPython since 3.4 carries a copy of pip and installs it with ``python -m ensurepip``,
without a download. Debian and Ubuntu remove that module from the system Python (the
``python3-pip`` / ``python3-venv`` packages bring it back): the fix then says so plainly.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.base.errors import Cancelled
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.processes import show_command
from kernel_wizard.prereqs.fixes import FixLog, run_step
from kernel_wizard.prereqs.model import FixOutcome, FixStatus, LineCallback, ProgressCallback

# -- the texts (one place, whole sentences) ------------------------------------------------------

# (the sentences with values are made with msg() where they are used)
TITLE = N_("Install pip")
CANCELLED = N_("Installing pip was cancelled.")
CANCELLED_HINT = N_("Run the fix again to finish.")
NOT_STARTED_HINT = N_("Choose the Python environment again; it may have moved.")
DEBIAN = N_("This Python comes from Debian or Ubuntu, which leave out Python's own installer of "
            "pip.")
DEBIAN_HINT = N_("Install it with the system's package manager: sudo apt install python3-pip "
                 "python3-venv — then click Re-check. Or choose a virtual environment instead.")
NO_MODULE = N_("This Python has no ensurepip module, so it cannot install pip by itself.")
NO_MODULE_HINT = N_("Install pip with the package manager of the system this Python came from, "
                    "or choose another Python environment.")

DEBIAN_MARKERS = ("ensurepip is disabled in debian", "apt install python3-")


@dataclass(frozen=True)
class EnsurePipFix:
    """``python -m ensurepip --upgrade --default-pip`` in the target environment."""

    python: Path
    id: str = "pip"
    needs_admin: bool = False
    automatic: bool = True

    @property
    def title(self) -> str:
        return TITLE

    @property
    def description(self) -> str:
        return msg("Runs Python's own installer of pip (ensurepip) with {python}. It installs "
                   "the pip that came with this Python; nothing is downloaded.",
                   python=self.python)

    def argv(self) -> list[str]:
        return [str(self.python), "-m", "ensurepip", "--upgrade", "--default-pip"]

    @property
    def command_preview(self) -> tuple[str, ...]:
        return (show_command(self.argv()),)

    def run(self, on_line: LineCallback, cancel: threading.Event,
            on_progress: ProgressCallback | None = None) -> FixOutcome:
        tail: deque[str] = deque(maxlen=40)

        def keep(line: str) -> None:
            tail.append(line)
            on_line(line)

        log = FixLog(self.id, keep)
        try:
            result = run_step(self.argv(), log, cancel)
        except Cancelled:
            return log.outcome(FixStatus.CANCELLED, CANCELLED, CANCELLED_HINT)
        if isinstance(result, str):
            return log.outcome(FixStatus.FAILED, result, NOT_STARTED_HINT)
        if result == 0:
            return log.outcome(FixStatus.DONE, msg("Installed pip into {python}.",
                                                   python=self.python))
        output = "\n".join(tail).lower()
        if any(marker in output for marker in DEBIAN_MARKERS):
            return log.outcome(FixStatus.FAILED, DEBIAN, DEBIAN_HINT, exit_code=result)
        if "no module named ensurepip" in output:
            return log.outcome(FixStatus.FAILED, NO_MODULE, NO_MODULE_HINT, exit_code=result)
        return log.outcome(FixStatus.FAILED,
                           msg("pip could not be installed (ensurepip exit code {code}).",
                               code=result),
                           msg("The last lines of the output say why; the full output is in "
                               "{log}.", log=log.path), exit_code=result)


__all__ = ["EnsurePipFix"]
