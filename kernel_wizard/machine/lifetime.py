"""How a front end lives and ends: nothing it started may outlive it.

The CLI (:func:`kernel_wizard.cli.main.main`) and the GUI (``app.wizard.run_gui``) each install one
:class:`Lifetime` at start (:func:`guard`). It

* handles **SIGINT, SIGTERM and SIGHUP** (Ctrl-C, ``kill``/``timeout``/a logout, a closed
  terminal): the running operation is cancelled — every child of the runner stops its whole
  tree (:func:`.process_guard.request_stop`, and the cancel events registered with
  :meth:`Lifetime.watch`) — the log is written to its end by the normal cancel path, and the
  program exits with 128 + the signal's number (130, 143, 129; :meth:`Lifetime.exit_code`).
  A second signal while it stops says "still stopping"; the work is always waited for, since
  the runner bounds how long a stop takes;
* starts the **watchdog** (Linux, :mod:`.watchdog`): a small process in its own session that
  learns every process the runner sees and, once the wizard has ended in any way (``kill -9``
  included), stops what is left. With ``PR_SET_PDEATHSIG`` on every child
  (:mod:`.process_guard`) a wizard killed outright leaves nothing running either;
* on **Windows** creates the Job Object with kill-on-close that every child joins
  (:class:`.platforms.windows.KillOnCloseJob`) and handles closing the console window
  (``CTRL_CLOSE_EVENT``), signing out and shutting down like SIGHUP/SIGTERM.

:func:`run_cancellable` runs work on a worker thread while the main thread waits for it (the
headless build and fix commands): signals then only set flags, and the worker ends through
the runner's cancel, never abandoned mid-way.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, TextIO, TypeVar

from kernel_wizard.base import process_guard
from kernel_wizard.base.processes import MARKER_VAR, note_helper

T = TypeVar("T")

# Why the work stops: as the log says it, and as the person is told.
SIGNAL_REASONS = {
    "SIGINT": ("cancelled by the user (Ctrl-C)", "you pressed Ctrl-C"),
    "SIGTERM": ("cancelled: the wizard was asked to stop (SIGTERM)",
                "the wizard was asked to stop (SIGTERM)"),
    "SIGHUP": ("cancelled: the terminal was closed (SIGHUP)", "the terminal was closed"),
    "SIGBREAK": ("cancelled by the user (Ctrl-Break)", "you pressed Ctrl-Break"),
}
HANDLED = tuple(name for name in SIGNAL_REASONS if hasattr(signal, name))


@dataclass(frozen=True)
class Interruption:
    """What asked the program to stop."""

    name: str  # "SIGINT", or "CTRL_CLOSE_EVENT" on Windows
    reason: str  # for the log: "cancelled by the user (Ctrl-C)"
    exit_code: int  # 128 + the signal's number
    cause: str = ""  # for the person: "you pressed Ctrl-C"


class Lifetime:
    """One front end's handlers and what they stop (see the module docstring)."""

    def __init__(self, out: TextIO | None = None,
                 on_stop: Callable[[Interruption], None] | None = None) -> None:
        self.out = out
        self.on_stop = on_stop
        self.interruption: Interruption | None = None
        self.signals = 0
        self.stopped = threading.Event()  # set when the front end has finished stopping
        self._watched: list[tuple[threading.Event, str]] = []
        self._previous: dict[int, Any] = {}
        self._streams: list[tuple[str, TextIO]] = []

    def keep_output_alive(self) -> None:
        """``sys.stdout``/``sys.stderr`` stop writing, instead of failing, once their terminal
        is gone (a hang-up: EIO; a closed pipe): the stop then ends as it should, with its
        exit code, and the log says the rest."""
        for name in ("stdout", "stderr"):
            stream = getattr(sys, name)
            if stream is not None and not isinstance(stream, SurvivingOutput):
                self._streams.append((name, stream))
                setattr(sys, name, SurvivingOutput(stream))

    # -- what a signal stops ----------------------------------------------------------------

    @contextmanager
    def watch(self, cancel: threading.Event, what: str = "what was running") -> Iterator[None]:
        """``cancel`` is set when the program is asked to stop; ``what`` names it in the
        message ("the build and its compilers")."""
        entry = (cancel, what)
        self._watched.append(entry)
        if self.interruption is not None:
            cancel.set()
        try:
            yield
        finally:
            self._watched.remove(entry)

    def interrupt(self, name: str, reason: str, exit_code: int, cause: str = "") -> None:
        """Stop everything: a signal, or Windows closing the console. Safe in a signal
        handler (it only sets flags and writes one line)."""
        self.signals += 1
        first = self.interruption is None
        if first:
            self.interruption = Interruption(name, reason, exit_code, cause or reason)
        process_guard.request_stop(reason)
        for cancel, _what in list(self._watched):
            cancel.set()
        if self.out is not None:
            what = self._watched[-1][1] if self._watched else "what was running"
            because = f" ({cause})" if cause else ""
            self._say(f"\nStopping {what} and every program it started{because}…\n" if first
                      else "\nStill stopping; please wait a few seconds…\n")
        if first and self.on_stop is not None:
            self.on_stop(self.interruption)  # type: ignore[arg-type]

    def _say(self, text: str) -> None:
        try:
            assert self.out is not None
            self.out.write(text)
            self.out.flush()
        except (OSError, ValueError):  # the terminal is gone (SIGHUP)
            pass

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        reason, cause = SIGNAL_REASONS.get(name, (f"cancelled: {name}", name))
        self.interrupt(name, reason, 128 + signum, cause)

    # -- the result --------------------------------------------------------------------------

    def exit_code(self, code: int) -> int:
        """The program's exit code: 128 + the signal's number after a signal that stopped the
        work (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP), else ``code``. Work that finished anyway
        (``code`` 0: a stop during pip waits for the install, which must not be cut in half)
        keeps its result, and says so after the "Stopping ..." line."""
        if self.interruption is None:
            return code
        if code == 0:
            if self.out is not None:
                self._say("The stop came when the work could no longer be stopped safely: it "
                          "was finished, and its result above stands.\n")
            return 0
        return self.interruption.exit_code

    # -- installing ------------------------------------------------------------------------

    def install(self) -> None:
        if threading.current_thread() is threading.main_thread():
            for name in HANDLED:
                number = getattr(signal, name)
                try:
                    self._previous[number] = signal.signal(number, self._handle)
                except (OSError, ValueError):
                    continue
        if sys.platform == "win32":
            _install_windows(self)
        else:
            start_watchdog()

    def close(self) -> None:
        """Restore the handlers this lifetime replaced; a later stop request is forgotten.

        After a signal the program is ending: further signals are ignored instead (an
        impatient second Ctrl-C must not turn a clean stop into "killed by SIGINT")."""
        self.stopped.set()
        for number, previous in self._previous.items():
            try:
                # SIG_IGN, not a Python handler: it holds through the interpreter's own exit
                signal.signal(number, previous if self.interruption is None else signal.SIG_IGN)
            except (OSError, ValueError, TypeError):
                pass
        self._previous.clear()
        for name, stream in self._streams:
            setattr(sys, name, stream)
            if self.interruption is not None:
                _detach_if_gone(stream)
        self._streams.clear()
        process_guard.clear_stop()
        if _CURRENT and _CURRENT[-1] is self:
            _CURRENT.pop()


_CURRENT: list[Lifetime] = []


def current() -> Lifetime | None:
    """The lifetime a front end installed (None in tests that call the core directly)."""
    return _CURRENT[-1] if _CURRENT else None


@contextmanager
def guard(out: TextIO | None = None,
          on_stop: Callable[[Interruption], None] | None = None, *,
          terminal: bool = False) -> Iterator[Lifetime]:
    """Install a :class:`Lifetime` for the duration of a front end's run.

    ``out``: where "Stopping…" is said (the CLI's stderr); ``on_stop``: called once, on the
    main thread, when a signal asks the program to stop (the GUI closes its window);
    ``terminal``: the program writes to a terminal that may go away (the CLI):
    ``sys.stdout``/``sys.stderr`` are kept from failing then."""
    life = Lifetime(out, on_stop)
    _CURRENT.append(life)
    if terminal:
        life.keep_output_alive()
        if out is not None and not isinstance(out, SurvivingOutput):
            life.out = SurvivingOutput(out)  # type: ignore[assignment]
    life.install()
    try:
        yield life
    finally:
        life.close()


def run_cancellable(work: Callable[[], T], cancel: threading.Event,
                    what: str = "what was running") -> T:
    """Run ``work`` on a worker thread and wait for it. A signal (through the installed
    :class:`Lifetime`) or, without one, Ctrl-C sets ``cancel``; the work then ends through the
    runner's cancel (the whole process tree stopped) and is always waited for — never left
    running behind an exiting program."""
    result: list[T] = []
    failure: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # noqa: BLE001 - re-raised on the calling thread
            failure.append(exc)
        finally:
            done.set()

    life = current()
    worker = threading.Thread(target=run, name=what, daemon=True)
    with life.watch(cancel, what) if life is not None else _nothing():
        worker.start()
        while not done.is_set():
            try:
                done.wait(0.2)
            except KeyboardInterrupt:  # no Lifetime installed: Python's own Ctrl-C
                cancel.set()
    if failure:
        raise failure[0]
    return result[0]


@contextmanager
def _nothing() -> Iterator[None]:
    yield


class SurvivingOutput:
    """A text stream that goes quiet, instead of raising, once what it writes to is gone."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self.stream.write(text)
            except (OSError, ValueError):
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.gone = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _detach_if_gone(stream: TextIO) -> None:
    """After a signal the terminal may be gone (SIGHUP): what is still buffered for it must
    not turn the exit into an error (Python exits with 120 when its final flush fails), so a
    stream that cannot be flushed is pointed at the null device."""
    try:
        stream.flush()
    except (OSError, ValueError):
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
            stream.flush()
        except (OSError, ValueError):
            pass


# =============================================================================================
# The watchdog (Linux)
# =============================================================================================

_WATCHDOG: list[subprocess.Popen[bytes]] = []


def watchdog_command() -> list[str]:
    """How the watchdog is started: the frozen program knows ``--ksw-watchdog``; from
    source, the module runs with the interpreter that runs the wizard."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "--ksw-watchdog", process_guard.RUN_TOKEN]
    return [sys.executable, "-m", "kernel_wizard.machine.watchdog", process_guard.RUN_TOKEN]


def start_watchdog() -> int | None:
    """Start the watchdog once per process (Linux); its pid, or None where it could not
    start (the runner's own stops still work; only a wizard killed outright is not covered)."""
    if _WATCHDOG:
        return _WATCHDOG[0].pid
    if not sys.platform.startswith("linux"):
        return None
    env = {k: v for k, v in os.environ.items() if k != MARKER_VAR}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        proc = subprocess.Popen(watchdog_command(), stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=env, cwd=root, start_new_session=True, close_fds=True)
    except OSError:
        return None
    assert proc.stdin is not None
    os.set_blocking(proc.stdin.fileno(), False)
    _WATCHDOG.append(proc)
    note_helper(proc.pid)
    process_guard.set_watchdog_feed(proc.stdin.fileno())
    return proc.pid


# =============================================================================================
# Windows
# =============================================================================================


def _install_windows(life: Lifetime, api: Any | None = None) -> None:
    """The Job Object every child joins, and the console close handler (``api``: the
    kernel32 seam; tests pass a recording fake)."""
    from kernel_wizard.machine.platforms.windows import (
        KillOnCloseJob,
        install_console_close_handler,
    )

    if process_guard.child_guard() is None:
        job = KillOnCloseJob.create(api)
        if job is not None:
            process_guard.set_child_guard(job)

    def on_close(reason: str) -> None:  # on a thread Windows starts for the event
        life.interrupt("CTRL_CLOSE_EVENT", reason, 128 + int(signal.SIGTERM),
                       reason.removeprefix("cancelled: "))

    install_console_close_handler(on_close, life.stopped.wait, api)


__all__ = [
    "HANDLED", "SIGNAL_REASONS", "Interruption", "Lifetime", "current", "guard",
    "run_cancellable", "start_watchdog", "watchdog_command",
]
