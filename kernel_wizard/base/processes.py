"""The one process runner: every child the core starts goes through here.

* :func:`stream` — a long child (a build, a fix's installer, the verification harness, git):
  its merged stdout+stderr is read in 64 KiB chunks by a reader thread, split into lines,
  decoded robustly (:func:`decode_line`) and handed to a callback in batches, as it comes.
  A quiet child is reported once per silent stretch (``on_stall``).
* :func:`run_captured` — a short probe (``git rev-parse``, ``vswhere``, ``pip --target``):
  run, wait, return the exit code and the output (stdout and stderr apart, or merged).

Both take an argument list (never a shell string; the one exception, a ``cmd.exe`` command
line for ``vcvarsall.bat``, is spelled :class:`WindowsCommandLine`), build the child's
environment in one place (:func:`child_environment`: base + :class:`EnvChange` s, with secrets
the child does not need left out), start the child in its own process group/session
(:func:`process_group_options`) and honour one cancel mechanism: a
``threading.Event``. Cancel raises :class:`~kernel_wizard.base.errors.Cancelled`, a time limit
:class:`~kernel_wizard.base.errors.ProcessTimeout`, a program that cannot start
:class:`~kernel_wizard.base.errors.ProcessStartError`; each stops the whole tree first.

Stopping "the whole tree" means every descendant, also one that left the tree (grandchildren
that called ``setsid``, orphans, daemons): :mod:`.process_tree` finds them (four nets) and
stops them; whatever survives is reported as leftover pids, named in the message. A stop
request for the whole program (:func:`.process_guard.request_stop`: a signal, a closing window)
stops every running child like a cancel, and :mod:`.process_guard` keeps children from
outliving a wizard that is killed outright (Linux ``PR_SET_PDEATHSIG`` and the watchdog,
Windows a Job Object).

:func:`show_command` / :func:`quote_arg` are the one way a command is shown to a person.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import partial
from pathlib import Path
from typing import IO

from kernel_wizard.base import process_guard
from kernel_wizard.base.errors import Cancelled, ProcessStartError, ProcessTimeout
from kernel_wizard.base.messages import msg
from kernel_wizard.base.process_tree import (
    COMPILER_NAMES,
    MARKER_VAR,
    TreeWatch,
    alive_of,
    describe_pids,
    forget_root,
    kill_tree,
    marked,
    note_helper,
    reap_adopted,
    running_compilers,
    spawning,
    stop_processes,
    tree,
    use_subreaper,
)

# =============================================================================================
# Environment
# =============================================================================================


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


# Secrets a build, a fix or a probe never needs; a setup.py must not be able to print them
# into a log that may end up in a bug-report bundle. Matched case-insensitively.
SECRET_NAMES = frozenset({
    "GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITLAB_TOKEN", "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACE_TOKEN", "HUGGINGFACEHUB_API_TOKEN",
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
    "AZURE_STORAGE_KEY", "AZURE_STORAGE_CONNECTION_STRING", "AZURE_CLIENT_CERTIFICATE_PASSWORD",
    "GOOGLE_APPLICATION_CREDENTIALS", "DOCKER_AUTH_CONFIG", "NPM_TOKEN", "NODE_AUTH_TOKEN",
    "TWINE_PASSWORD", "PYPI_TOKEN", "MYSQL_PWD", "PGPASSWORD", "SLACK_WEBHOOK_URL",
})
SECRET_SUFFIXES = (
    "_TOKEN", "_API_KEY", "_APIKEY", "_SECRET", "_SECRET_KEY", "_ACCESS_KEY", "_PRIVATE_KEY",
    "_PASSWORD", "_PASSWD", "_PASSPHRASE", "_CREDENTIALS", "_PAT",
)
SECRET_WORDS = ("SECRET", "PASSWORD", "PASSWD")  # anywhere in the name
_CLOUD_PREFIXES = ("AWS_", "AZURE_", "ARM_", "GOOGLE_", "GCP_", "GCLOUD_")
_CLOUD_WORDS = ("KEY", "TOKEN", "CREDENTIAL", "CONNECTION_STRING", "SAS")


def is_secret_name(name: str) -> bool:
    """Whether an environment variable looks like a credential (kept from every child).

    Names builds rely on (``PATH``, ``CUDA_*``, ``MAX_JOBS``, ``TORCH_CUDA_ARCH_LIST``,
    ``TOKENIZERS_PARALLELISM`` ...) never match."""
    upper = name.upper()
    if upper in SECRET_NAMES or upper.endswith(SECRET_SUFFIXES):
        return True
    if any(word in upper for word in SECRET_WORDS):
        return True
    return upper.startswith(_CLOUD_PREFIXES) and any(w in upper for w in _CLOUD_WORDS)


# How Windows reports a process that crashed (what abort() and a segfault become there).
_NTSTATUS = {
    0xC0000005: msg("an access violation"),
    0xC000001D: msg("an illegal instruction"),
    0xC0000135: msg("a DLL it needs was not found"),
    0xC0000409: msg("it stopped itself (abort or a failed check)"),
}


def exit_text(code: int) -> str:
    """How a child ended, in words: 'exit code 1', 'killed by signal SIGABRT', 'exit code
    0xC0000005, an access violation' (Windows)."""
    if code < 0:
        try:
            return msg("killed by signal {signal}", signal=signal.Signals(-code).name)
        except ValueError:
            return msg("killed by signal {signal}", signal=-code)
    if code >= 0xC0000000:  # a Windows NTSTATUS such as 0xC0000005 (access violation)
        name = _NTSTATUS.get(code)
        if name:
            return msg("exit code {code}, {meaning}", code=f"0x{code:08X}", meaning=name)
        return msg("exit code {code}", code=f"0x{code:08X}")
    return msg("exit code {code}", code=code)


# NVLink multicast (NVLS) stays off in every child the wizard starts: a build, a verification
# with NCCL/NVSHMEM or torch's symmetric memory must never call cuMulticastCreate (it can hang
# or fail on virtualised and partitioned machines). A value the user set is kept.
MULTICAST_OFF = {
    "NCCL_NVLS_ENABLE": "0",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
    "NVSHMEM_DISABLE_NVLS": "1",
}


def child_environment(
    changes: Sequence[EnvChange] = (),
    base: Mapping[str, str] | None = None,
    *,
    unset: Iterable[str] = (),
    ignore_case: bool | None = None,
) -> dict[str, str]:
    """The environment of a child: ``base`` (default: this process's) without secrets
    (:func:`is_secret_name`) and without ``unset``, with NVLink multicast off
    (:data:`MULTICAST_OFF`, unless set), then ``changes`` in order (a PREPEND puts
    its value in front of the list already there). ``ignore_case`` (default: on Windows, where
    ``Path`` and ``PATH`` are one variable): a change goes to the spelling already there."""
    fold = os.name == "nt" if ignore_case is None else ignore_case
    drop = {n.upper() for n in unset}
    env = {
        k: v
        for k, v in (os.environ if base is None else base).items()
        if not is_secret_name(k) and k.upper() not in drop
    }
    for key, value in MULTICAST_OFF.items():
        env.setdefault(key, value)
    for change in changes:
        name = change.name
        if fold:
            name = next((k for k in env if k.upper() == name.upper()), name)
        if change.mode is EnvMode.PREPEND and env.get(name):
            env[name] = change.value + os.pathsep + env[name]
        else:
            env[name] = change.value
    return env


def withheld_names(base: Mapping[str, str] | None = None) -> list[str]:
    """The names :func:`child_environment` leaves out of ``base`` as secrets (for a log)."""
    return sorted(k for k in (os.environ if base is None else base) if is_secret_name(k))


# =============================================================================================
# How a child is started so that its whole tree can be stopped (the runner's OS details)
# =============================================================================================


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


# =============================================================================================
# Decoding and quoting
# =============================================================================================


def decode_text(raw: bytes) -> str:
    """Output of a program as text, whatever it was encoded in; never raises.

    UTF-8 first; MSVC and other Windows tools often speak the ANSI code page (cp1252), so
    text that is not valid UTF-8 is read as cp1252; bytes that fit neither become U+FFFD."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return raw.decode("cp1252")
        except UnicodeDecodeError:
            return raw.decode("utf-8", errors="replace")


def decode_line(raw: bytes) -> str:
    """One line of output (see :func:`decode_text`), without its line ending."""
    return decode_text(raw).rstrip("\r\n")


class QuoteStyle(Enum):
    POSIX = "posix"  # sh/bash: 'single quotes'
    WINDOWS = "windows"  # cmd.exe / CommandLineToArgvW: "double quotes", \" inside


def default_quote_style() -> QuoteStyle:
    return QuoteStyle.WINDOWS if os.name == "nt" else QuoteStyle.POSIX


_POSIX_SAFE = re.compile(r"[\w@%+=:,./-]+")
_WINDOWS_SAFE = re.compile(r"[\w@%+=:,./\\-]+")


def quote_arg(text: str, style: QuoteStyle | None = None) -> str:
    """One argument as a person would type it in this style's shell (quotes only when
    needed). Default style: this machine's."""
    style = style if style is not None else default_quote_style()
    if style is QuoteStyle.POSIX:
        if text and _POSIX_SAFE.fullmatch(text):
            return text
        return "'" + text.replace("'", "'\"'\"'") + "'"
    if text and _WINDOWS_SAFE.fullmatch(text):
        return text
    # The C runtime's rules: backslashes are literal except before a quote (or the closing
    # quote), where they are doubled; a quote inside is \".
    out: list[str] = []
    backslashes = 0
    for ch in text:
        if ch == "\\":
            backslashes += 1
            continue
        if ch == '"':
            out.append("\\" * (backslashes * 2 + 1) + '"')
        else:
            out.append("\\" * backslashes + ch)
        backslashes = 0
    out.append("\\" * (backslashes * 2))
    return '"' + "".join(out) + '"'


def show_command(argv: Sequence[str | os.PathLike[str]], style: QuoteStyle | None = None) -> str:
    """A command as one line a person can read and paste into a terminal."""
    style = style if style is not None else default_quote_style()
    return " ".join(quote_arg(os.fspath(a), style) for a in argv)


# =============================================================================================
# Running
# =============================================================================================


@dataclass(frozen=True)
class WindowsCommandLine:
    """A ``cmd.exe`` command line handed over as one string: the single place where a
    shell reads a command (a batch file's environment can only be read through cmd; given a
    list, Python would escape inner quotes as ``\\"``, which cmd does not understand).
    Windows only."""

    text: str


Command = Sequence[str | os.PathLike[str]] | WindowsCommandLine


@dataclass(frozen=True)
class ProcessResult:
    """How a streamed child ended (cancel and time-outs raise instead)."""

    command: tuple[str, ...]
    returncode: int
    seconds: float
    # Descendants that still held the output open after the child had ended: stopped, and
    # listed here so that a log can say so; those that survived even that are leftovers.
    strays: tuple[int, ...] = ()
    leftover_pids: tuple[int, ...] = ()


@dataclass(frozen=True)
class CapturedOutput:
    """What a short child printed, and how it ended."""

    command: tuple[str, ...]
    returncode: int
    stdout_bytes: bytes
    stderr_bytes: bytes  # empty when merged into stdout
    seconds: float

    @property
    def stdout(self) -> str:
        return decode_text(self.stdout_bytes)

    @property
    def stderr(self) -> str:
        return decode_text(self.stderr_bytes)

    @property
    def ok(self) -> bool:
        return self.returncode == 0


LinesCallback = Callable[[list[str]], None]
StallCallback = Callable[[float, int], None]  # (seconds quiet, pid of the child)


def _command(argv: Command) -> tuple[tuple[str, ...], str | list[str]]:
    """(the command as shown/recorded, what Popen gets)."""
    if isinstance(argv, WindowsCommandLine):
        if sys.platform != "win32":
            raise ValueError("a WindowsCommandLine runs only on Windows")
        return (argv.text,), argv.text
    parts = [os.fspath(a) for a in argv]
    if not parts:
        raise ValueError("an empty command")
    return tuple(parts), parts


def _program(command: tuple[str, ...]) -> str:
    return Path(command[0]).name if command else "the program"


def _start(
    command: tuple[str, ...],
    popen_args: str | list[str],
    *,
    cwd: Path | None,
    env: dict[str, str],
    merge: bool,
) -> subprocess.Popen[bytes]:
    group = process_group_options()
    guard = process_guard.child_guard()
    try:
        with spawning() as roots:
            proc = subprocess.Popen(
                popen_args,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                start_new_session=group.start_new_session,
                creationflags=group.creationflags | (guard.creationflags if guard else 0),
                preexec_fn=process_guard.child_preexec(),  # Linux: dies with the wizard
            )
            roots.add(proc.pid)
        if guard is not None:  # Windows: into the Job Object, then let it run
            guard.adopt(proc.pid, int(getattr(proc, "_handle", 0)))
        return proc
    except OSError as exc:
        not_found = isinstance(exc, FileNotFoundError) and (
            cwd is None or Path(cwd).is_dir())
        where = f" in {cwd}" if cwd is not None and not Path(cwd).is_dir() else ""
        raise ProcessStartError(
            f"{_program(command)} could not be started{where}.",
            command=command,
            why=f"{exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else ""),
            hint="Check that the program exists and may be run, then try again.",
            not_found=not_found,
        ) from exc


def _prepared_env(
    env: Mapping[str, str] | None,
    env_changes: Sequence[EnvChange],
    unset: Iterable[str],
    mark: bool = True,
) -> tuple[dict[str, str], str]:
    child = child_environment(env_changes, env, unset=[*unset, MARKER_VAR])
    marker = ""
    if mark:
        marker = process_guard.new_marker()
        child[MARKER_VAR] = marker
    return child, marker


def _timeout_error(command: tuple[str, ...], limit_s: float,
                   leftover: tuple[int, ...]) -> ProcessTimeout:
    return ProcessTimeout(
        f"{_program(command)} did not finish within {limit_s:g} seconds and was stopped.",
        command=command,
        limit_s=limit_s,
        why=f"The command was: {show_command(command)}",
        hint="Close other heavy programs and try again; if it keeps happening, save a report "
        "bundle and report it.",
        leftover_pids=leftover,
    )


def _stop_wanted(cancel: threading.Event | None) -> bool:
    """The caller's cancel, or a stop request for the whole program (a signal, a closing
    window) that this thread is not shielded from."""
    return cancel is not None and cancel.is_set() or process_guard.stop_applies()


def _cancelled(command: tuple[str, ...], leftover: tuple[int, ...]) -> Cancelled:
    why = f"{_program(command)} and every program it had started were stopped."
    if leftover:
        why += f" These could not be stopped: {describe_pids(leftover)}."
    reason = process_guard.stop_reason() if process_guard.stop_applies() else None
    return Cancelled(f"{_program(command)} was cancelled.", why=why, leftover_pids=leftover,
                     reason=reason or process_guard.USER_CANCEL)


_SPLIT_CR = re.compile(rb"\r\n|\r|\n")


def _pump(stream: IO[bytes], batches: queue.Queue[list[bytes] | None], split_cr: bool) -> None:
    """Read the child's output in chunks and queue it as batches of complete lines."""
    fd = stream.fileno()
    pending = b""
    try:
        while True:
            chunk = os.read(fd, 1 << 16)  # returns what is there, up to 64 KiB
            if not chunk:
                break
            pending += chunk
            if split_cr:
                if b"\n" not in chunk and b"\r" not in chunk:
                    continue
                held = b"\r" if pending.endswith(b"\r") else b""  # \r\n may be split
                *complete, rest = _SPLIT_CR.split(pending[: len(pending) - len(held)])
                pending = rest + held
            else:
                if b"\n" not in chunk:
                    continue
                *complete, pending = pending.split(b"\n")
            if complete:
                batches.put(complete)
    except (OSError, ValueError):
        pass
    finally:
        if split_cr and pending:
            pending = b"\n".join(p for p in _SPLIT_CR.split(pending) if p)
        if pending:
            batches.put(pending.split(b"\n") if split_cr else [pending])
        batches.put(None)


def stream(
    argv: Sequence[str | os.PathLike[str]],
    on_lines: LinesCallback,
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    env_changes: Sequence[EnvChange] = (),
    unset: Iterable[str] = (),
    cancel: threading.Event | None = None,
    timeout_s: float | None = None,
    stall_after_s: float | None = None,
    on_stall: StallCallback | None = None,
    split_cr: bool = False,
    linger_s: float = 5.0,
    poll_s: float = 0.1,
    on_start: Callable[[int], None] | None = None,
) -> ProcessResult:
    """Run ``argv`` and hand its merged output to ``on_lines`` in batches of decoded lines.

    ``env`` is the base environment (default: this process's), ``env_changes`` and ``unset``
    are applied to it by :func:`child_environment`. ``split_cr``: a bare carriage return ends
    a line too (git's progress). ``on_stall(quiet_s, pid)`` is called once per silent stretch
    of ``stall_after_s`` seconds; ``on_start(pid)`` once the child runs (the build's ETA
    samples the CPU time of its tree). A child that has ended while descendants still hold its
    output open is waited for ``linger_s`` seconds, then those descendants are stopped.

    Raises :class:`Cancelled` when ``cancel`` is set, :class:`ProcessTimeout` after
    ``timeout_s``, :class:`ProcessStartError` when the program cannot start; the whole tree
    is stopped before. An exception from ``on_lines`` also stops the tree, and propagates.
    """
    command, popen_args = _command(argv)
    if _stop_wanted(cancel):
        raise _cancelled(command, ())
    child_env, marker = _prepared_env(env, env_changes, unset)
    use_subreaper()
    reap_adopted()
    started = time.monotonic()
    proc = _start(command, popen_args, cwd=cwd, env=child_env, merge=True)
    watch = TreeWatch(proc.pid, marker)
    if on_start is not None:
        on_start(proc.pid)
    batches: queue.Queue[list[bytes] | None] = queue.Queue(maxsize=1000)
    assert proc.stdout is not None
    reader = threading.Thread(target=_pump, args=(proc.stdout, batches, split_cr),
                              name=f"output of {_program(command)}", daemon=True)
    reader.start()
    last_output = started
    stall_reported = False
    exited_at: float | None = None
    strays: tuple[int, ...] = ()
    leftover: tuple[int, ...] = ()
    try:
        finished = False
        while not finished:
            now = time.monotonic()
            if _stop_wanted(cancel):
                raise _cancelled(command, watch.stop(grace_s=3.0))
            if timeout_s is not None and now - started > timeout_s:
                raise _timeout_error(command, timeout_s, watch.stop(grace_s=3.0))
            watch.sample(now)
            try:
                batch = batches.get(timeout=poll_s)
            except queue.Empty:
                quiet = time.monotonic() - last_output
                if (on_stall is not None and stall_after_s is not None
                        and quiet >= stall_after_s and not stall_reported):
                    stall_reported = True
                    on_stall(quiet, proc.pid)
                if proc.poll() is not None:  # ended, but something still holds the pipe
                    exited_at = exited_at if exited_at is not None else time.monotonic()
                    if time.monotonic() - exited_at >= linger_s:
                        holders = watch.members(include_root=False)
                        strays = tuple(p.pid for p in holders)
                        leftover = tuple(stop_processes(partial(alive_of, holders)))
                        break
                continue
            raw_lines: list[bytes] = []
            while batch is not None:  # take what is queued without waiting (high line rates)
                raw_lines += batch
                try:
                    batch = batches.get_nowait()
                except queue.Empty:
                    break
            if batch is None:
                finished = True  # the output pipe closed: the process is finishing
            if raw_lines:
                last_output = time.monotonic()
                stall_reported = False
                on_lines([decode_line(raw) for raw in raw_lines])
                time.sleep(0)  # let a GUI thread in this process take the GIL between batches
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # closed its output but does not end
            leftover = watch.stop()
            code = proc.wait()
    finally:
        if proc.poll() is None:  # an exception on the way: nothing may keep running
            watch.stop(grace_s=2.0)
            proc.wait()
        reader.join(timeout=5)
        if not reader.is_alive():
            proc.stdout.close()
        forget_root(proc.pid)
        reap_adopted()
    return ProcessResult(command, code, time.monotonic() - started, strays, leftover)


def run_captured(
    argv: Command,
    *,
    timeout_s: float = 120.0,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    env_changes: Sequence[EnvChange] = (),
    unset: Iterable[str] = (),
    cancel: threading.Event | None = None,
    merge_stderr: bool = False,
    mark: bool = True,
) -> CapturedOutput:
    """Run a short child, wait for it, and return its exit code and output (stdout and
    stderr apart, or merged into stdout). The environment is built like :func:`stream`'s.

    Raises :class:`ProcessStartError`, :class:`ProcessTimeout` (the tree is stopped) and
    :class:`Cancelled` (when ``cancel`` is set; the tree is stopped). ``mark=False`` leaves
    :data:`MARKER_VAR` out of the child's environment (for a child that prints its
    environment as its answer, such as ``set`` after ``vcvarsall.bat``)."""
    command, popen_args = _command(argv)
    if _stop_wanted(cancel):
        raise _cancelled(command, ())
    child_env, marker = _prepared_env(env, env_changes, unset, mark)
    started = time.monotonic()
    proc = _start(command, popen_args, cwd=cwd, env=child_env, merge=merge_stderr)
    watch = TreeWatch(proc.pid, marker)
    deadline = started + timeout_s
    step = 0.1  # a cancel, or a stop request for the whole program, is noticed this fast
    try:
        while True:
            left = deadline - time.monotonic()
            try:
                out, err = proc.communicate(timeout=max(0.0, min(left, step)))
                break
            except subprocess.TimeoutExpired:
                if _stop_wanted(cancel):
                    raise _cancelled(command, watch.stop(grace_s=2.0)) from None
                if time.monotonic() >= deadline:
                    raise _timeout_error(command, timeout_s, watch.stop(grace_s=2.0)) from None
    finally:
        if proc.poll() is None:
            watch.stop(grace_s=2.0)
        if proc.returncode is None or proc.stdout is not None and not proc.stdout.closed:
            try:
                proc.communicate(timeout=5)
            except (subprocess.TimeoutExpired, ValueError, OSError):
                for pipe in (proc.stdout, proc.stderr):
                    if pipe is not None:
                        pipe.close()
                proc.wait()
        forget_root(proc.pid)
    return CapturedOutput(command, proc.returncode, out or b"", err or b"",
                          time.monotonic() - started)


__all__ = [
    "COMPILER_NAMES",
    "MARKER_VAR",
    "CapturedOutput",
    "Command",
    "EnvChange",
    "EnvMode",
    "ProcessResult",
    "QuoteStyle",
    "WindowsCommandLine",
    "child_environment",
    "decode_line",
    "decode_text",
    "default_quote_style",
    "describe_pids",
    "exit_text",
    "is_secret_name",
    "kill_tree",
    "marked",
    "note_helper",
    "quote_arg",
    "run_captured",
    "running_compilers",
    "show_command",
    "stop_processes",
    "stream",
    "tree",
    "withheld_names",
]
