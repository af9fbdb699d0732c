"""One error hierarchy for everything the core can report to a person.

Every error carries *what* happened, *why* (when known) and a *hint*: the next step a
non-expert can take. The CLI turns them into a message and an exit code; the GUI shows them
in a dialog or a status row, never as a traceback.
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    """Exit codes of the headless front end (documented in README.md)."""

    OK = 0
    FAILURE = 1  # the step ran and found a problem (e.g. a failed check or verification)
    USAGE = 2  # bad command line
    ENVIRONMENT = 3  # the target Python environment is unusable
    HARDWARE = 4  # hardware detection could not run at all
    NO_DISPLAY = 5  # the GUI was asked for but there is no display
    STORAGE = 6  # a file or folder could not be written or read: disk full, no permission, ...
    HANGUP = 129  # 128 + SIGHUP: the terminal went away (lifetime.py)
    CANCELLED = 130  # 128 + SIGINT
    TERMINATED = 143  # 128 + SIGTERM: stopped by the system or another program


EXIT_CODE_MEANINGS: dict[ExitCode, str] = {
    ExitCode.OK: "done; nothing wrong",
    ExitCode.FAILURE: "a step ran and failed (a failed check, build or verification)",
    ExitCode.USAGE: "bad command line (also: a command that changes an environment ran "
    "without a terminal to ask in, and without --yes)",
    ExitCode.ENVIRONMENT: "the target Python cannot be used",
    ExitCode.HARDWARE: "hardware detection could not run (an unreadable --replay recording)",
    ExitCode.NO_DISPLAY: "the wizard's window was asked for, but there is no display",
    ExitCode.STORAGE: "a file or folder could not be written or read (disk full, no "
    "permission, read-only drive, name too long, a file where a folder should be)",
    ExitCode.HANGUP: "stopped because the terminal was closed (SIGHUP); a build or install "
    "in progress was stopped cleanly",
    ExitCode.CANCELLED: "cancelled (Ctrl-C), or a question answered no",
    ExitCode.TERMINATED: "stopped by the system or another program (SIGTERM); a build or "
    "install in progress was stopped cleanly",
}


class WizardError(Exception):
    """Base class: an error a person can act on."""

    exit_code: ExitCode = ExitCode.FAILURE

    def __init__(self, what: str, *, why: str = "", hint: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.why = why
        self.hint = hint

    def describe(self) -> str:
        """The full message: what happened, why, and what to do."""
        parts = [self.what]
        if self.why:
            parts.append(f"Why: {self.why}")
        if self.hint:
            parts.append(f"What to do: {self.hint}")
        return "\n".join(parts)


class Cancelled(WizardError):
    """The user (or a signal) stopped the work; nothing was changed that was not put back.

    The one way cancellation surfaces from the core: every long step raises this when its
    cancel event is set. ``leftover_pids``: processes of a stopped child's tree that were
    still alive afterwards (should be none; reported, not hidden). ``reason``: who stopped it,
    for a log ("cancelled by the user (Ctrl-C)", "cancelled: the terminal was closed")."""

    exit_code = ExitCode.CANCELLED

    def __init__(
        self,
        what: str = "Cancelled.",
        *,
        why: str = "",
        hint: str = "",
        leftover_pids: tuple[int, ...] = (),
        reason: str = "cancelled by the user",
    ) -> None:
        super().__init__(what, why=why, hint=hint)
        self.leftover_pids = leftover_pids
        self.reason = reason


class StorageError(WizardError):
    """A file or folder could not be written or read: a full disk, no permission, a read-only
    drive, a name that is too long, a file where a folder should be (see :mod:`.oserrors`,
    which builds these from an ``OSError``). ``path``: where; ``cause``: the cause in words."""

    exit_code = ExitCode.STORAGE

    def __init__(self, what: str, *, why: str = "", hint: str = "", path: Path | None = None,
                 cause: str = "") -> None:
        super().__init__(what, why=why, hint=hint)
        self.path = path
        self.cause = cause


class EnvironmentProbeError(WizardError):
    """The target Python environment could not be inspected."""

    exit_code = ExitCode.ENVIRONMENT


class HardwareError(WizardError):
    """Hardware detection could not run at all (not: 'no GPU', which is a normal state): the
    NVML recording to replay (``--replay``) cannot be read."""

    exit_code = ExitCode.HARDWARE


class ResourceMissingError(WizardError):
    """A file the program ships with is missing (a broken install or bundle)."""

    exit_code = ExitCode.FAILURE


class DownloadError(WizardError):
    """A file could not be downloaded: unreachable server, HTTP error, a connection that kept
    dropping, or a file that arrived damaged or changed (see :mod:`kernel_wizard.base.download`)."""

    exit_code = ExitCode.FAILURE


class DiagnosisDataError(WizardError):
    """The shipped list of known build failures (resources/diagnosis/failures.toml) is broken:
    bad TOML, a missing field, an invalid regular expression or an unknown retry action. The
    message names the file and the entry."""

    exit_code = ExitCode.FAILURE


class RecipeError(WizardError):
    """A kernel recipe (resources/recipes/*.toml) is broken, or a kernel or version asked for
    is not in the catalog. Broken recipes found at start are reported, not raised (see
    :func:`kernel_wizard.catalog.load_catalog`)."""

    exit_code = ExitCode.FAILURE


class UnknownChoiceError(RecipeError):
    """A kernel or a version that is not in the catalog was asked for: a mistake on the command
    line like an unknown fix name or bad GPU indices, so it exits with the same code."""

    exit_code = ExitCode.USAGE


class ProcessError(WizardError):
    """A child program could not be run as asked (see :mod:`kernel_wizard.base.processes`)."""

    exit_code = ExitCode.FAILURE

    def __init__(
        self, what: str, *, command: tuple[str, ...] = (), why: str = "", hint: str = ""
    ) -> None:
        super().__init__(what, why=why, hint=hint)
        self.command = command


class ProcessStartError(ProcessError):
    """The program could not be started at all (missing, not executable, bad folder).
    ``not_found``: there is no such program."""

    def __init__(
        self,
        what: str,
        *,
        command: tuple[str, ...] = (),
        why: str = "",
        hint: str = "",
        not_found: bool = False,
    ) -> None:
        super().__init__(what, command=command, why=why, hint=hint)
        self.not_found = not_found


class ProcessTimeout(ProcessError):
    """The program ran past its time limit; its whole process tree was stopped."""

    def __init__(
        self,
        what: str,
        *,
        command: tuple[str, ...] = (),
        limit_s: float = 0.0,
        why: str = "",
        hint: str = "",
        leftover_pids: tuple[int, ...] = (),
    ) -> None:
        super().__init__(what, command=command, why=why, hint=hint)
        self.limit_s = limit_s
        self.leftover_pids = leftover_pids
