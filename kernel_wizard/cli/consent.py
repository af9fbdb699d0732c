"""The one consent rule of the headless commands that change a Python environment or the system.

``fix`` (installs PyTorch, ninja, pip; changes the registry or git's settings), ``rollback``
(uninstalls a kernel, puts back what it replaced) and ``build`` when it installs: each says what
it is about to change, then

* on an interactive terminal (standard input is a terminal): asks, ``[y/N]``; anything but
  "y"/"yes" (also an empty line or end of input) changes nothing (exit code 130, like a cancel);
* without a terminal to ask in (a script, a pipe, ``</dev/null``, a scheduled task): changes
  nothing and says so, with the exact command that adds ``--yes`` (exit code 2, a usage error:
  ``--json`` reports it as kind ``usage``);
* with ``--yes`` (``-y``): goes on without asking.

It imports only what sits below the command modules (errors, advice, lifetime), so that
every command module uses this one helper, also ``prereqs/cli.py``, which sits below the
others.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Sequence
from typing import TextIO

from kernel_wizard.base.advice import cli_command
from kernel_wizard.base.errors import Cancelled, ExitCode, WizardError
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.machine.lifetime import current

YES_HELP = ("go on without asking first (default: ask on a terminal; without a terminal to "
            "ask in, nothing is changed unless --yes is given)")


class ConsentNeeded(WizardError):
    """A command that changes an environment had no terminal to ask in, and no ``--yes``."""

    exit_code = ExitCode.USAGE


class Declined(Cancelled):
    """The person answered no: nothing was changed."""


def add_yes_option(parser: argparse.ArgumentParser) -> None:
    """``--yes``/``-y`` on a command that changes an environment."""
    parser.add_argument("--yes", "-y", action="store_true", help=YES_HELP)


def with_yes(arguments: Sequence[str]) -> str:
    """The command as typed (``arguments``: after ``--headless``) with ``--yes`` added."""
    words = list(arguments)
    if "--yes" not in words and "-y" not in words:
        words.append("--yes")
    return cli_command(*words)


def interactive(stdin: TextIO | None = None) -> bool:
    """Whether there is a person at a terminal to ask (standard input is a terminal)."""
    stream = stdin if stdin is not None else sys.stdin
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):  # closed or replaced standard input
        return False


def confirm(change: str, question: str, *, yes: bool, arguments: Sequence[str], out: TextIO,
            alternative: str = "") -> None:
    """Go on only with the person's consent to ``change`` (one sentence: what will change).

    ``yes``: ``--yes`` was given. ``question``: asked after ``change`` on a terminal
    (``"Roll it back?"``).
    ``arguments``: the command line after ``--headless`` (the refusal repeats it with --yes).
    ``alternative``: another way that needs no consent ("or add --no-install ..."), said when
    there is no terminal. Raises :class:`ConsentNeeded` (no terminal) or :class:`Declined`."""
    if yes:
        return
    if not interactive():
        # nobody to ask: never act without an explicit --yes
        raise ConsentNeeded(
            msg("Nothing was run. {change} The wizard asks before it changes an environment "
                "or the system, but there is no terminal to ask in (standard input is not a "
                "terminal).", change=change),
            hint=msg("To go on without being asked, add --yes:\n  {command}{alternative}",
                     command=with_yes(arguments),
                     alternative=f"\n{alternative}" if alternative else ""))
    prompt = out if _is_terminal(out) or not _is_terminal(sys.stderr) else sys.stderr
    prompt.write(f"{change}\n{question} [y/N] ")
    prompt.flush()
    answer = _read_answer()
    if not answer:  # end of input (Ctrl-D), or Ctrl-C: no answer is a no
        prompt.write("\n")
        prompt.flush()
    if answer is None or answer.strip().lower() not in {"y", "yes"}:
        raise Declined(N_("Nothing was changed: you answered no."))


def _read_answer() -> str | None:
    """One line from the terminal; None when a signal (Ctrl-C, a closed terminal) came first.

    Read on a thread of its own, from the file descriptor (no lock of Python's ``sys.stdin``
    is held): a signal handler of :mod:`.lifetime` only sets a flag, which a read in the main
    thread would not notice before the person pressed Enter."""
    lines: list[str] = []
    done = threading.Event()

    def read() -> None:
        data = b""
        try:
            fd = sys.stdin.fileno()
            while not data.endswith(b"\n"):
                chunk = os.read(fd, 256)
                if not chunk:
                    break
                data += chunk
        except (OSError, ValueError, AttributeError):
            pass
        finally:
            lines.append(data.decode(errors="replace"))
            done.set()

    threading.Thread(target=read, name="consent answer", daemon=True).start()
    life = current()
    while not done.wait(0.1):
        if life is not None and life.interruption is not None:
            return None
    return lines[0]


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


__all__ = ["YES_HELP", "ConsentNeeded", "Declined", "add_yes_option", "confirm", "interactive",
           "with_yes"]
