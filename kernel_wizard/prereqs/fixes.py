"""The fixes behind the prerequisites page's buttons (and ``--headless fix``).

Every fix is a frozen dataclass that implements :class:`~kernel_wizard.prereqs.model.Fix`:
it says what it will do before it runs (``description``, ``command_preview``), whether Windows
will ask for administrator rights, and then runs with a line callback, an optional progress
callback and a cancel event. Every fix writes its own log (commands and output) to the user's
logs folder and returns a :class:`FixOutcome`; none raises for an expected failure.

The OS-touching pieces are seams with production defaults, so tests swap in stand-ins:

* ``elevate`` (:class:`Elevator`): run one program as administrator and return its exit code;
  raise :class:`ElevationDeclined` when the user says No. Default: the platform's
  ``run_elevated`` (Windows: ``ShellExecuteExW`` with the verb ``runas``).
* ``autostart`` (:class:`Autostart`): start the wizard once after the next logon. Default: the
  platform's ``register_resume_once`` (Windows: HKCU RunOnce).
* ``url`` / ``allow_http``: where installers come from (tests: the loopback server).

Fixes that need the system package manager on Linux are :class:`ManualCommandFix`: they only
show the exact command and return :attr:`FixStatus.MANUAL`.
"""

from __future__ import annotations

import re
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO
from urllib.parse import urlparse

from kernel_wizard.base.download import DownloadProgress, download
from kernel_wizard.base.errors import Cancelled, DownloadError, ProcessStartError, WizardError
from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.base.paths import data_dir, logs_dir, timestamp
from kernel_wizard.base.processes import QuoteStyle, show_command, stream
from kernel_wizard.machine.platforms.windows import ElevationDeclined
from kernel_wizard.machine.toolchain import LONG_PATHS_KEY, LONG_PATHS_VALUE
from kernel_wizard.prereqs.model import (
    FixOutcome,
    FixProgress,
    FixStatus,
    LineCallback,
    ProgressCallback,
)
from kernel_wizard.prereqs.resume import RUN_ONCE_NAME, resume_argv, save_resume_state
from kernel_wizard.prereqs.versions import (
    FullVersion,
    installer_url,
    vtext,
    windows_cuda_components,
)

VS_BUILDTOOLS_URL = "https://aka.ms/vs/17/release/vs_buildtools.exe"
VS_BUILDTOOLS_ARGS: tuple[str, ...] = (
    "--passive", "--wait", "--norestart", "--nocache",
    "--add", "Microsoft.VisualStudio.Workload.VCTools", "--includeRecommended",
)


class Elevator(Protocol):
    def __call__(self, argv: Sequence[str], *, show_window: bool = True) -> int: ...


Autostart = Callable[[str, Sequence[str]], str]


def _default_elevator() -> Elevator:
    from kernel_wizard.prereqs.facts import prereq_platform

    return prereq_platform().run_elevated


def _default_autostart() -> Autostart:
    from kernel_wizard.prereqs.facts import prereq_platform

    return prereq_platform().register_resume_once


def downloads_dir() -> Path:
    path = data_dir() / "downloads"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _windows_command(argv: Sequence[str | Path]) -> str:
    """A command of a Windows-only fix, shown as cmd.exe reads it (on every OS)."""
    return show_command(argv, QuoteStyle.WINDOWS)


# --------------------------------------------------------------------------------------------
# Logging and running
# --------------------------------------------------------------------------------------------


class FixLog:
    """The fix's log file; every line also goes to the page/terminal (``on_line``)."""

    def __init__(self, fix_id: str, on_line: LineCallback) -> None:
        self.path = logs_dir() / f"{timestamp()}-fix-{fix_id}.log"
        self._file: TextIO = self.path.open("a", encoding="utf-8")
        self._on_line = on_line

    def line(self, text: str, show: bool = True) -> None:
        self._file.write(text + "\n")
        self._file.flush()
        if show:
            self._on_line(text)

    def close(self) -> None:
        self._file.close()

    def outcome(self, status: FixStatus, message: str, hint: str = "",
                exit_code: int | None = None) -> FixOutcome:
        self.line(f"== {status.value}: {message}" + (f" ({hint})" if hint else ""), show=False)
        self.close()
        return FixOutcome(status, message, hint, self.path, exit_code)


def stream_command(
    argv: Sequence[str | Path],
    log: FixLog,
    cancel: threading.Event,
    *,
    env: Mapping[str, str] | None = None,
    intercept: Callable[[str], bool] | None = None,
) -> int:
    """Run ``argv``, stream its merged output line by line into ``log``; its exit code.
    ``intercept`` may swallow lines (e.g. pip's raw progress lines, turned into progress
    reports). Raises :class:`~kernel_wizard.base.errors.Cancelled` when ``cancel`` is set (the whole
    process tree is stopped) and :class:`~kernel_wizard.base.errors.ProcessStartError` when the
    program cannot be started."""

    def on_lines(lines: list[str]) -> None:
        for text in lines:
            if intercept is None or not intercept(text):
                log.line(text)

    return stream(argv, on_lines, env=env, cancel=cancel).returncode


def run_step(argv: Sequence[str | Path], log: FixLog, cancel: threading.Event,
              env: Mapping[str, str] | None = None,
              intercept: Callable[[str], bool] | None = None,
              style: QuoteStyle | None = None) -> int | str:
    """:func:`stream_command` with the command logged first; a str when it could not start.
    Raises :class:`~kernel_wizard.base.errors.Cancelled`."""
    log.line(f"$ {show_command(argv, style)}")
    try:
        return stream_command(argv, log, cancel, env=env, intercept=intercept)
    except ProcessStartError as exc:
        return msg("{program} could not be started: {why}", program=Path(str(argv[0])).name,
                   why=exc.why)


def _download_progress(on_progress: ProgressCallback | None, text: str,
                       ) -> Callable[[DownloadProgress], None] | None:
    if on_progress is None:
        return None

    def report(p: DownloadProgress) -> None:
        on_progress(FixProgress(text, p.fraction, p.received, p.total))

    return report


def _fetch(url: str, dest: Path, log: FixLog, cancel: threading.Event,
           on_progress: ProgressCallback | None, allow_http: bool) -> Path | FixOutcome:
    log.line(f"Downloading {url}")
    try:
        result = download(url, dest, cancel=cancel, allow_http=allow_http,
                          progress=_download_progress(on_progress, msg("Downloading {name}",
                                                                       name=dest.name)))
    except Cancelled:
        return log.outcome(FixStatus.CANCELLED, N_("The download was cancelled; nothing was "
                           "installed."), N_("The part already downloaded is kept for next "
                                             "time."))
    except DownloadError as exc:
        return log.outcome(FixStatus.FAILED, exc.what, exc.hint or exc.why)
    how = "already downloaded" if result.from_cache else f"{result.size / 2**20:.1f} MB"
    log.line(f"Saved {dest} ({how}, SHA-256 {result.sha256[:16]}…)")
    return result.path


# --------------------------------------------------------------------------------------------
# Installer exit codes
# --------------------------------------------------------------------------------------------


CANCELLED_BEFORE_INSTALLER = N_("Cancelled before the installer started.")
DECLINED_NOTHING_INSTALLED = N_("The administrator prompt was declined; nothing was installed.")


def interpret_vs_installer_exit(code: int) -> tuple[FixStatus, str, str]:
    """The Visual Studio bootstrapper's exit code → (status, message, hint)."""
    logs = N_("The installer's logs are the dd_*.log files in %TEMP%.")
    if code == 0:
        return (FixStatus.DONE, N_("Visual Studio Build Tools with the C++ compiler are "
                                   "installed."), "")
    if code == 3010:
        return (FixStatus.DONE_RESTART_NEEDED,
                N_("Visual Studio Build Tools are installed; Windows must restart to finish."),
                N_("Restart Windows, then run the wizard again."))
    if code == 1641:
        return (FixStatus.DONE_RESTART_NEEDED,
                N_("Visual Studio Build Tools are installed; the installer has started a "
                   "restart."),
                N_("Save your work: Windows is restarting. Run the wizard again afterwards."))
    if code in (1602, 5004):
        return (FixStatus.CANCELLED, N_("The installation was cancelled in the Visual Studio "
                "Installer."), N_("Choose Fix again to install the C++ build tools."))
    if code == 5003:
        return (FixStatus.FAILED, N_("The Visual Studio Installer could not download its "
                                     "files."),
                join([N_("Check the internet connection (and proxy settings), then try "
                         "again."), logs]))
    if code == 5005:
        return (FixStatus.FAILED, N_("The Visual Studio Installer rejected its command line."),
                join([N_("This is a bug in the wizard; please report it with the log."), logs]))
    if code == 5007:
        return (FixStatus.FAILED, N_("This computer does not meet Visual Studio Build Tools' "
                "requirements."), join([N_("Visual Studio 2022 needs 64-bit Windows 10 or 11 "
                                           "with current updates."), logs]))
    if code == 8006:
        return (FixStatus.FAILED, N_("Visual Studio is running, so the installer could not "
                "change it."), N_("Close every Visual Studio window and installer, then try "
                                  "again."))
    if code == 740:
        return (FixStatus.FAILED, N_("The Visual Studio Installer needs administrator rights."),
                N_("Run the wizard from an account that may install software."))
    return (FixStatus.FAILED, msg("The Visual Studio Installer failed (exit code {code}).",
                                  code=code),
            join([logs, N_("Or install 'Desktop development with C++' from the Visual Studio "
                           "Installer yourself.")]))


def interpret_cuda_installer_exit(code: int, installer: Path) -> tuple[FixStatus, str, str]:
    """The CUDA installer's exit code → (status, message, hint). 0 is success; 3010/1641 are
    read as Windows installers use them (restart needed), others as failure."""
    if code == 0:
        return FixStatus.DONE, N_("The CUDA toolkit is installed."), ""
    if code in (3010, 1641):
        return (FixStatus.DONE_RESTART_NEEDED, N_("The CUDA toolkit is installed; Windows must "
                "restart to finish."), N_("Restart Windows, then run the wizard again."))
    if code in (1602, 1223):
        return (FixStatus.CANCELLED, N_("The CUDA installation was cancelled."),
                N_("Choose Fix again to install the toolkit."))
    return (FixStatus.FAILED, msg("The CUDA installer failed (exit code {code}).", code=code),
            msg("Run {installer} yourself to see what went wrong (it shows its own messages), "
                "or download the toolkit from developer.nvidia.com/cuda-downloads.",
                installer=installer))


# --------------------------------------------------------------------------------------------
# The fixes
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ManualCommandFix:
    """A command the user runs (Linux: sudo ...). ``run`` shows it and returns MANUAL."""

    id: str
    title: str
    description: str
    commands: tuple[str, ...]
    needs_admin: bool = True
    automatic: bool = False

    @property
    def command_preview(self) -> tuple[str, ...]:
        return self.commands

    def run(self, on_line: LineCallback, cancel: threading.Event,
            on_progress: ProgressCallback | None = None) -> FixOutcome:
        on_line("Run these commands in a terminal (they need administrator rights):")
        for command in self.commands:
            on_line(f"  {command}")
        return FixOutcome(FixStatus.MANUAL, N_("This step needs the system's package manager; "
                          "run the commands shown yourself."),
                          N_("Then choose 'Check again'."))


@dataclass(frozen=True)
class PipStep:
    packages: tuple[str, ...]
    index_url: str | None = None
    options: tuple[str, ...] = ()  # e.g. ("--force-reinstall",)

    def argv(self, python: Path, progress_bar: str = "off") -> list[str]:
        args = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
                "--progress-bar", progress_bar, *self.options, *self.packages]
        if self.index_url:
            args += ["--index-url", self.index_url]
        return args


_PIP_PROGRESS = re.compile(r"^\s*Progress (\d+) of (\d+|\?)(?: bytes)?\s*$")

# pip's own words when the package index cannot be reached (its retries, then a resolution
# failure that only looks like "no such version": ResolutionImpossible / "from versions: none")
PIP_OFFLINE_MARKERS = (
    "newconnectionerror", "failed to establish a new connection", "connecttimeouterror",
    "temporary failure in name resolution", "name or service not known", "getaddrinfo failed",
    "network is unreachable", "no route to host", "connection refused", "read timed out",
    "proxyerror", "could not fetch url", "connection aborted", "remotedisconnected",
)


_NO_MATCH = ("no matching distribution found", "resolutionimpossible", "(from versions: none)")


def pip_was_offline(lines: Sequence[str], index_url: str | None = None,
                    timeout_s: float = 3.0) -> bool:
    """Whether pip failed because it could not reach a package index: its own words (the
    retries it logs), or, where it only says that no version matches (with ``--retries 0``
    it logs nothing about the connection), an index that does not answer a connection."""
    text = "\n".join(lines).lower()
    if any(marker in text for marker in PIP_OFFLINE_MARKERS):
        return True
    if not index_url or not any(marker in text for marker in _NO_MATCH):
        return False
    parsed = urlparse(index_url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        return False
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        socket.create_connection((parsed.hostname, port), timeout=timeout_s).close()
    except OSError:
        return True
    return False


def pip_progress_bar_mode(pip_version: str | None) -> str:
    """'raw' (one 'Progress N of M' line at a time, pip ≥ 24.1) or 'off'."""
    try:
        parts = tuple(int(p) for p in (pip_version or "").split(".")[:2])
    except ValueError:
        return "off"
    return "raw" if parts >= (24, 1) else "off"


@dataclass(frozen=True)
class PipInstallFix:
    """``pip install`` into the target environment, one or more steps, output streamed."""

    id: str
    title: str
    description: str
    python: Path
    steps: tuple[PipStep, ...]
    pip_version: str | None = None
    needs_admin: bool = False
    automatic: bool = True

    @property
    def command_preview(self) -> tuple[str, ...]:
        mode = pip_progress_bar_mode(self.pip_version)
        return tuple(show_command(step.argv(self.python, mode)) for step in self.steps)

    def run(self, on_line: LineCallback, cancel: threading.Event,
            on_progress: ProgressCallback | None = None) -> FixOutcome:
        log = FixLog(self.id, on_line)
        mode = pip_progress_bar_mode(self.pip_version)
        for step in self.steps:
            label = ", ".join(step.packages)

            seen: list[str] = []

            def intercept(line: str, label: str = label, seen: list[str] = seen) -> bool:
                match = _PIP_PROGRESS.match(line)
                if match is None:
                    seen.append(line)
                    del seen[:-400]  # the tail is what tells
                    return False
                if on_progress is not None:
                    done = int(match.group(1))
                    total = int(match.group(2)) if match.group(2).isdigit() else None
                    fraction = min(1.0, done / total) if total else None
                    on_progress(FixProgress(msg("Downloading {name}", name=label), fraction,
                                            done, total))
                return True

            if cancel.is_set():
                return log.outcome(FixStatus.CANCELLED, N_("Cancelled before pip started."))
            try:
                result = run_step(step.argv(self.python, mode), log, cancel,
                                   intercept=intercept)
            except Cancelled:
                return log.outcome(FixStatus.CANCELLED, msg("Installing {what} was cancelled.",
                                                            what=label),
                                   N_("pip leaves the environment consistent; run the fix again "
                                      "to finish."))
            if isinstance(result, str):
                return log.outcome(FixStatus.FAILED, result,
                                   N_("Choose the Python environment again; it may have moved."))
            if result != 0 and pip_was_offline(seen, step.index_url):
                server = urlparse(step.index_url).hostname if step.index_url else None
                return log.outcome(
                    FixStatus.FAILED,
                    msg("pip could not reach the download server ({server}) to install "
                        "{what}.", server=server or msg("the Python package index"),
                        what=label),
                    msg("Check the internet connection (and the proxy, if this network uses "
                        "one: set HTTPS_PROXY), then run the fix again. Nothing was installed "
                        "into {python}; pip's output is in {log}.", python=self.python,
                        log=log.path), exit_code=result)
            if result != 0:
                return log.outcome(FixStatus.FAILED, msg("pip could not install {what} (exit "
                                                         "code {code}).", what=label,
                                                         code=result),
                                   msg("The last lines of pip's output say why; the full output "
                                       "is in {log}.", log=log.path), exit_code=result)
        return log.outcome(FixStatus.DONE, msg("Installed {what} into {python}.",
                                               what=self._what(), python=self.python))

    def _what(self) -> str:
        return ", ".join(p for step in self.steps for p in step.packages)


@dataclass(frozen=True)
class GitLongPathsFix:
    """``git config --global core.longpaths true``: for this user, no administrator rights."""

    git: Path
    environ: Mapping[str, str] | None = field(default=None, compare=False, repr=False)
    id: str = "git-longpaths"
    title: str = N_("Let git use long paths")
    needs_admin: bool = False
    automatic: bool = True

    @property
    def description(self) -> str:
        return N_("Sets git's core.longpaths to true in your own git settings (~/.gitconfig), "
                  "so git can check out sources with paths longer than 260 characters "
                  "(CUTLASS, FlashAttention). Nothing else changes.")

    @property
    def argv(self) -> list[str]:
        return [str(self.git), "config", "--global", "core.longpaths", "true"]

    @property
    def command_preview(self) -> tuple[str, ...]:
        return (_windows_command(self.argv),)

    def run(self, on_line: LineCallback, cancel: threading.Event,
            on_progress: ProgressCallback | None = None) -> FixOutcome:
        log = FixLog(self.id, on_line)
        try:
            result = run_step(self.argv, log, cancel, env=self.environ,
                               style=QuoteStyle.WINDOWS)
        except Cancelled:
            return log.outcome(FixStatus.CANCELLED, N_("Cancelled."))
        if isinstance(result, str):
            return log.outcome(FixStatus.FAILED, result, N_("Reinstall Git for Windows."))
        if result != 0:
            return log.outcome(FixStatus.FAILED, msg("git config failed (exit code {code}).",
                                                     code=result),
                               N_("Check that your ~/.gitconfig is writable."), exit_code=result)
        return log.outcome(FixStatus.DONE, N_("git now allows long paths (core.longpaths = "
                                              "true)."))


def long_paths_reg_argv(reg_exe: str = "reg.exe") -> list[str]:
    """The one registry write: LongPathsEnabled = 1 (REG_DWORD)."""
    return [reg_exe, "add", LONG_PATHS_KEY, "/v", LONG_PATHS_VALUE, "/t", "REG_DWORD",
            "/d", "1", "/f"]


@dataclass(frozen=True)
class LongPathsFix:
    """Windows long paths: the one registry value (elevated), plus git's setting when git is
    installed and not set yet. Afterwards Windows must restart: the wizard saves where the
    user was and starts itself once after the next logon with ``--resume``."""

    python: Path | None = None  # the target environment, remembered for the resume
    git_fix: GitLongPathsFix | None = None
    reg_exe: str = "reg.exe"
    elevate: Elevator | None = field(default=None, compare=False, repr=False)
    autostart: Autostart | None = field(default=None, compare=False, repr=False)
    resume_command: tuple[str, ...] | None = None  # default: resume_argv()
    id: str = "long-paths"
    title: str = N_("Turn on long paths")
    needs_admin: bool = True
    automatic: bool = True

    @property
    def description(self) -> str:
        text = msg("Sets the Windows setting LongPathsEnabled to 1 ({key}). Windows asks for "
                   "administrator rights for this one change. It takes effect after a restart; "
                   "the wizard then opens again by itself and continues here.",
                   key="HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem")
        if self.git_fix is not None:
            return join([text, N_("Also sets git's core.longpaths to true for you (no "
                                  "administrator rights).")])
        return text

    @property
    def command_preview(self) -> tuple[str, ...]:
        lines: list[str] = []
        if self.git_fix is not None:
            lines += self.git_fix.command_preview
        lines.append(_windows_command(long_paths_reg_argv(self.reg_exe)) + "   (as administrator)")
        return tuple(lines)

    def run(self, on_line: LineCallback, cancel: threading.Event,
            on_progress: ProgressCallback | None = None) -> FixOutcome:
        git_note: Msg | str = ""
        if self.git_fix is not None:
            git_outcome = self.git_fix.run(on_line, cancel)
            if git_outcome.status is FixStatus.CANCELLED:
                return git_outcome
            git_note = (N_("git's long paths are on.") if git_outcome.status.succeeded
                        else msg("(git: {message})", message=git_outcome.message))
        log = FixLog(self.id, on_line)
        if cancel.is_set():
            return log.outcome(FixStatus.CANCELLED, N_("Cancelled before the registry was "
                                                       "changed."))
        argv = long_paths_reg_argv(self.reg_exe)
        log.line(f"$ {_windows_command(argv)}   (as administrator: Windows asks for permission)")
        elevate = self.elevate if self.elevate is not None else _default_elevator()
        try:
            code = elevate(argv, show_window=False)
        except ElevationDeclined:
            return log.outcome(FixStatus.DECLINED, join([N_("The administrator prompt was "
                               "declined; the Windows setting is unchanged."), git_note]),
                               N_("Choose Fix again and answer Yes, or ask an administrator."))
        except WizardError as exc:
            return log.outcome(FixStatus.FAILED, exc.what, exc.hint or exc.why)
        if code != 0:
            return log.outcome(FixStatus.FAILED, join([msg("reg.exe could not change the "
                               "setting (exit code {code}).", code=code), git_note]),
                               N_("Ask an administrator to set LongPathsEnabled to 1."),
                               exit_code=code)
        log.line("LongPathsEnabled is now 1.")
        hint: Msg | str = N_("Restart Windows. The wizard opens again after the restart and "
                             "continues here.")
        try:
            state = save_resume_state("long-paths", self.python)
            log.line(f"Saved where you are: {state}")
            autostart = self.autostart if self.autostart is not None else _default_autostart()
            command = autostart(RUN_ONCE_NAME, list(self.resume_command or resume_argv()))
            if command:
                log.line(f"After the next logon Windows starts: {command}")
        except (OSError, ValueError, WizardError) as exc:
            log.line(f"Could not arrange the automatic restart of the wizard: {exc}")
            hint = N_("Restart Windows, then start the wizard again yourself.")
        return log.outcome(FixStatus.DONE_RESTART_NEEDED, join([N_("Long paths are turned on; "
                           "Windows must restart before programs can use them."), git_note]),
                           hint, 0)


def _newest_dd_log(since: float) -> Path | None:
    folder = Path(tempfile.gettempdir())
    try:
        logs = [p for p in folder.glob("dd_*.log") if p.stat().st_mtime >= since - 1]
    except OSError:
        return None
    return max(logs, key=lambda p: p.stat().st_mtime, default=None)


@dataclass(frozen=True)
class VsBuildToolsFix:
    """Download Microsoft's Build Tools bootstrapper and install the C++ workload with it."""

    url: str = VS_BUILDTOOLS_URL
    download_to: Path | None = None  # default: <data>/downloads/vs_buildtools.exe
    allow_http: bool = False  # tests only (loopback server)
    elevate: Elevator | None = field(default=None, compare=False, repr=False)
    id: str = "vs-buildtools"
    title: str = N_("Install Visual Studio Build Tools 2022 (C++)")
    needs_admin: bool = True
    automatic: bool = True

    @property
    def description(self) -> str:
        return msg("Downloads Microsoft's Visual Studio Build Tools 2022 installer (from {url}) "
                   "and installs the 'Desktop development with C++' workload with its "
                   "recommended parts: the MSVC compiler and the Windows SDK (several GB). "
                   "Windows asks for administrator rights; the installer shows its own progress "
                   "window.", url=self.url)

    @property
    def command_preview(self) -> tuple[str, ...]:
        return (f"download {self.url}",
                _windows_command(["vs_buildtools.exe", *VS_BUILDTOOLS_ARGS])
                + "   (as administrator)")

    def run(self, on_line: LineCallback, cancel: threading.Event,
            on_progress: ProgressCallback | None = None) -> FixOutcome:
        log = FixLog(self.id, on_line)
        dest = self.download_to or downloads_dir() / "vs_buildtools.exe"
        fetched = _fetch(self.url, dest, log, cancel, on_progress, self.allow_http)
        if isinstance(fetched, FixOutcome):
            return fetched
        if cancel.is_set():
            return log.outcome(FixStatus.CANCELLED, CANCELLED_BEFORE_INSTALLER)
        argv = [str(fetched), *VS_BUILDTOOLS_ARGS]
        log.line(f"$ {_windows_command(argv)}   (as administrator)")
        log.line("The Visual Studio Installer is running in its own window; this can take "
                 "10–30 minutes. It cannot be stopped from here (use Cancel in its window).")
        started = time.time()
        elevate = self.elevate if self.elevate is not None else _default_elevator()
        try:
            code = elevate(argv, show_window=True)
        except ElevationDeclined:
            return log.outcome(FixStatus.DECLINED, DECLINED_NOTHING_INSTALLED,
                               N_("Choose Fix again and answer Yes, or install the Build Tools "
                                  "yourself."))
        except WizardError as exc:
            return log.outcome(FixStatus.FAILED, exc.what, exc.hint or exc.why)
        status, message, hint = interpret_vs_installer_exit(code)
        log.line(f"The installer exited with code {code}.")
        dd_log = _newest_dd_log(started)
        if dd_log is not None and not status.succeeded:
            hint = join([hint, msg("Newest installer log: {log}", log=dd_log)])
        return log.outcome(status, message, hint, code)


@dataclass(frozen=True)
class CudaToolkitFix:
    """Download NVIDIA's network installer for one CUDA version and install the parts a
    torch extension build needs, silently."""

    version: FullVersion  # (13, 0, 2)
    reason: str = ""  # "matches PyTorch's CUDA 13.0"
    url: str | None = None  # default: NVIDIA's network installer for ``version``
    download_to: Path | None = None
    allow_http: bool = False
    elevate: Elevator | None = field(default=None, compare=False, repr=False)
    id: str = "cuda-toolkit"
    needs_admin: bool = True
    automatic: bool = True

    @property
    def release(self) -> tuple[int, int]:
        return self.version[0], self.version[1]

    @property
    def title(self) -> str:
        return msg("Install CUDA {cuda}", cuda=vtext(self.release))

    @property
    def source(self) -> str:
        return self.url or installer_url(self.version)

    @property
    def args(self) -> list[str]:
        return ["-s", "-n", *windows_cuda_components(self.release)]

    @property
    def description(self) -> str:
        if self.reason:
            return msg("Downloads NVIDIA's CUDA {cuda} network installer ({reason}) and "
                       "installs, without questions, only what building PyTorch extensions "
                       "needs: the nvcc compiler, the runtime and the cuBLAS/cuSPARSE/cuSOLVER/"
                       "cuRAND headers (no driver, no samples). Windows asks for administrator "
                       "rights.", cuda=vtext(self.version), reason=self.reason)
        return msg("Downloads NVIDIA's CUDA {cuda} network installer and installs, without "
                   "questions, only what building PyTorch extensions needs: the nvcc compiler, "
                   "the runtime and the cuBLAS/cuSPARSE/cuSOLVER/cuRAND headers (no driver, no "
                   "samples). Windows asks for administrator rights.", cuda=vtext(self.version))

    @property
    def command_preview(self) -> tuple[str, ...]:
        name = Path(self.source.split("?")[0]).name or "cuda_installer.exe"
        return (f"download {self.source}",
                _windows_command([name, *self.args]) + "   (as administrator)")

    def run(self, on_line: LineCallback, cancel: threading.Event,
            on_progress: ProgressCallback | None = None) -> FixOutcome:
        log = FixLog(self.id, on_line)
        name = f"cuda_{vtext(self.version)}_windows_network.exe"
        dest = self.download_to or downloads_dir() / name
        fetched = _fetch(self.source, dest, log, cancel, on_progress, self.allow_http)
        if isinstance(fetched, FixOutcome):
            return fetched
        if cancel.is_set():
            return log.outcome(FixStatus.CANCELLED, CANCELLED_BEFORE_INSTALLER)
        argv = [str(fetched), *self.args]
        log.line(f"$ {_windows_command(argv)}   (as administrator)")
        log.line("The CUDA installer runs silently; this can take 5–20 minutes and cannot be "
                 "stopped from here.")
        elevate = self.elevate if self.elevate is not None else _default_elevator()
        try:
            code = elevate(argv, show_window=False)
        except ElevationDeclined:
            return log.outcome(FixStatus.DECLINED, DECLINED_NOTHING_INSTALLED,
                               N_("Choose Fix again and answer Yes, or install CUDA yourself."))
        except WizardError as exc:
            return log.outcome(FixStatus.FAILED, exc.what, exc.hint or exc.why)
        log.line(f"The installer exited with code {code}.")
        status, message, hint = interpret_cuda_installer_exit(code, fetched)
        if status.succeeded:
            message = msg("CUDA {cuda} is installed.", cuda=vtext(self.version))
        return log.outcome(status, message, hint, code)


# --------------------------------------------------------------------------------------------
# Python's C headers and import library for embedded Pythons
# --------------------------------------------------------------------------------------------

NUGET_PYTHON_URL = "https://www.nuget.org/api/v2/package/python/{version}"
_PY_VERSION_DEFINE = re.compile(rb'^#define\s+PY_VERSION\s+"([^"]+)"', re.MULTILINE)


def check_python_nupkg(archive: Path, version: str, import_lib: str | None) -> str:
    """'' when ``archive`` is python.org's NuGet package of exactly ``version`` with the
    headers (and the import library); otherwise what is wrong. NuGet publishes no SHA-256
    for this download that could be checked before it; the package's own
    ``include/patchlevel.h`` names the version it was built from, and that must match."""
    import zipfile

    try:
        with zipfile.ZipFile(archive) as bundle:
            names = set(bundle.namelist())
            for needed in ("tools/include/Python.h", "tools/include/patchlevel.h",
                           *((f"tools/libs/{import_lib}",) if import_lib else ())):
                if needed not in names:
                    return msg("the package has no {file}", file=needed)
            for name in names:
                if name.startswith("/") or ".." in Path(name).parts:
                    return msg("the package holds an unsafe path: {name}", name=name)
            match = _PY_VERSION_DEFINE.search(bundle.read("tools/include/patchlevel.h"))
    except (OSError, zipfile.BadZipFile) as exc:
        return msg("the download is not a readable zip ({error})", error=exc)
    found = match.group(1).decode("ascii", "replace") if match else "no PY_VERSION"
    if found != version:
        return msg("its headers are Python {found}, not {version}", found=found, version=version)
    return ""


@dataclass(frozen=True)
class PythonDevFilesFix:
    """Download python.org's NuGet package of the target's exact CPython version and place its
    C headers (``tools/include``) and import library (``tools/libs``) where extension builds
    look for them. For embedded Pythons (ComfyUI portable, python.org's embeddable zip) that
    ship without them. Existing files are never overwritten."""

    version: str  # "3.12.7": the exact version, or the headers would not match the DLL
    include_dir: Path
    libs_dir: Path | None = None  # Windows only
    import_lib: str | None = None  # "python312.lib"
    url: str | None = None  # default: NuGet's package URL for ``version``
    sha256: str | None = None  # when known in advance; else the package's structure is checked
    download_to: Path | None = None
    allow_http: bool = False  # tests only (loopback server)
    id: str = "python-dev-files"
    needs_admin: bool = False
    automatic: bool = True

    @property
    def title(self) -> str:
        if self.import_lib:
            return msg("Add Python {version}'s C headers and import library",
                       version=self.version)
        return msg("Add Python {version}'s C headers", version=self.version)

    @property
    def source(self) -> str:
        return self.url or NUGET_PYTHON_URL.format(version=self.version)

    def _libs(self) -> tuple[str, ...]:
        if not self.import_lib:
            return ()
        return tuple(dict.fromkeys((self.import_lib, "python3.lib")))

    @property
    def description(self) -> str:
        where = (msg("the headers (Python.h and the rest of tools/include) into {include}, and "
                     "{libs} into {folder}", include=self.include_dir,
                     libs=", ".join(self._libs()), folder=self.libs_dir)
                 if self.import_lib and self.libs_dir is not None else
                 msg("the headers (Python.h and the rest of tools/include) into {include}",
                     include=self.include_dir))
        check = (msg("checks its SHA-256") if self.sha256 else
                 msg("NuGet publishes no SHA-256 for it that could be checked in advance, so "
                     "the wizard checks that it is a NuGet package of exactly Python {version} "
                     "(its include/patchlevel.h) with the files needed", version=self.version))
        values = dict(version=self.version, source=self.source, check=check, where=where)
        if self.import_lib:
            return msg("This Python has no C headers or import library, which every extension "
                       "build needs. Downloads python.org's package of Python {version} from "
                       "{source} (about 15 MB; {check}) and copies {where}. Files already there "
                       "are left as they are; nothing else changes.", **values)
        return msg("This Python has no C headers, which every extension build needs. Downloads "
                   "python.org's package of Python {version} from {source} (about 15 MB; "
                   "{check}) and copies {where}. Files already there are left as they are; "
                   "nothing else changes.", **values)

    @property
    def command_preview(self) -> tuple[str, ...]:
        lines = [f"download {self.source}",
                 f"copy tools/include/* → {self.include_dir}"]
        if self.import_lib and self.libs_dir is not None:
            lines += [f"copy tools/libs/{name} → {self.libs_dir / name}" for name in self._libs()]
        return tuple(lines)

    def run(self, on_line: LineCallback, cancel: threading.Event,
            on_progress: ProgressCallback | None = None) -> FixOutcome:
        import zipfile

        log = FixLog(self.id, on_line)
        dest = self.download_to or downloads_dir() / f"python.{self.version}.nupkg"
        log.line(f"Downloading {self.source}")
        try:
            result = download(self.source, dest, cancel=cancel, allow_http=self.allow_http,
                              sha256=self.sha256,
                              progress=_download_progress(on_progress, msg(
                                  "Downloading {name}", name=dest.name)))
        except Cancelled:
            return log.outcome(FixStatus.CANCELLED, N_("The download was cancelled; nothing was "
                               "changed."))
        except DownloadError as exc:
            return log.outcome(FixStatus.FAILED, exc.what, exc.hint or exc.why)
        log.line(f"Saved {dest} (SHA-256 {result.sha256})")
        problem = check_python_nupkg(result.path, self.version, self.import_lib)
        if problem:
            result.path.unlink(missing_ok=True)
            return log.outcome(FixStatus.FAILED, msg("The downloaded package is not the one "
                               "expected: {problem}. Nothing was changed.", problem=problem),
                               msg("Try again later; if it repeats, install the full Python "
                                   "{version} from python.org and use it instead.",
                                   version=self.version))
        if cancel.is_set():
            return log.outcome(FixStatus.CANCELLED, N_("Cancelled before anything was "
                                                       "written."))
        plan: list[tuple[str, Path]] = []
        with zipfile.ZipFile(result.path) as bundle:
            for name in sorted(bundle.namelist()):
                if name.startswith("tools/include/") and not name.endswith("/"):
                    plan.append((name, self.include_dir / Path(name).relative_to("tools/include")))
            if self.libs_dir is not None:
                plan += [(f"tools/libs/{lib}", self.libs_dir / lib) for lib in self._libs()
                         if f"tools/libs/{lib}" in bundle.namelist()]
            written = kept = 0
            try:
                for name, target in plan:
                    if target.exists():
                        kept += 1
                        continue
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(bundle.read(name))
                    written += 1
            except OSError as exc:
                return log.outcome(FixStatus.FAILED, msg("{file} could not be written: "
                                   "{error}.", file=exc.filename or msg("A file"),
                                   error=exc.strerror or exc),
                                   N_("Run the wizard as a user who may write into this "
                                      "Python's folder, or copy the files yourself."))
        log.line(f"Wrote {written} files into {self.include_dir}"
                 + (f" and {self.libs_dir}" if self.libs_dir else "")
                 + (f"; kept {kept} that were already there" if kept else "") + ".")
        return log.outcome(FixStatus.DONE, msg("Python {version}'s C headers and import "
                                               "library are in place.", version=self.version)
                           if self.import_lib else
                           msg("Python {version}'s C headers are in place.",
                               version=self.version))


__all__ = [
    "Autostart",
    "CudaToolkitFix",
    "Elevator",
    "FixLog",
    "GitLongPathsFix",
    "LongPathsFix",
    "ManualCommandFix",
    "PipInstallFix",
    "PipStep",
    "PythonDevFilesFix",
    "VS_BUILDTOOLS_ARGS",
    "VS_BUILDTOOLS_URL",
    "VsBuildToolsFix",
    "interpret_cuda_installer_exit",
    "interpret_vs_installer_exit",
    "check_python_nupkg",
    "long_paths_reg_argv",
    "pip_progress_bar_mode",
    "show_command",
    "stream_command",
]
