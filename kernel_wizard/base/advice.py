"""Advice that points somewhere, worded for the front end that shows it.

A sentence such as "install a CUDA build of PyTorch" ends differently in the wizard (its
Prerequisites step has a Fix button for it) and in a terminal (the command to run). The core
words such advice once, through these functions; the CLI says at start that it is the front
end (:func:`use_terminal`), the wizard is the default. Nothing here names a page to a terminal
user, or a command to someone who double-clicked the wizard. Each piece is a translatable
sentence (:func:`~kernel_wizard.base.messages.msg`): the wizard shows it in the user's language also
where it is a value in a longer sentence.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from enum import Enum
from pathlib import Path

from kernel_wizard.base.messages import msg

SOURCE_PROGRAM = "python -m app"  # how the program starts from a source checkout
CONSOLE_SUFFIX = "-cli"  # the bundle's console program beside the windowed one (installer.spec)


def program(frozen: bool | None = None, executable: str | os.PathLike[str] | None = None) -> str:
    """How a person starts this program from a terminal, as every hint writes it.

    From source: ``python -m app``. The bundled program (PyInstaller, ``sys.frozen``) has no
    ``python -m app``: its console executable (``kernel-setup-wizard-cli`` beside
    ``kernel-setup-wizard``, the one whose output appears in a terminal), by its name where
    ``PATH`` finds that very file, else by its full path (quoted when it has a space)."""
    is_frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    if not is_frozen:
        return SOURCE_PROGRAM
    exe = Path(executable if executable is not None else sys.executable)
    stem, suffix = exe.stem, exe.suffix
    if not stem.endswith(CONSOLE_SUFFIX):
        console = exe.with_name(f"{stem}{CONSOLE_SUFFIX}{suffix}")
        if console.is_file():
            exe = console
    found = shutil.which(exe.name)
    if found is not None and _same_file(Path(found), exe):
        return exe.name
    return quote(str(exe))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


_PLAIN = re.compile(r"[\w@%+=:,./\\-]+")


def quote(word: str) -> str:
    """``word`` as a terminal reads it: as it is when plain, else in double quotes (which
    cmd.exe, PowerShell and POSIX shells all read)."""
    if word and _PLAIN.fullmatch(word):
        return word
    return '"' + re.sub(r'(["$`])', r"\\\1", word) + '"'


def cli_prefix() -> str:
    """The headless command line's start: ``python -m app --headless`` from source, the
    bundle's console program with ``--headless`` when frozen (see :func:`program`)."""
    return f"{program()} --headless"


def cli_command(*words: str) -> str:
    """A headless command as a person types it: ``cli_command("installs")`` →
    ``python -m app --headless installs`` (the bundle: its program's name)."""
    return " ".join([cli_prefix(), *(quote(w) for w in words)])


class FrontEnd(Enum):
    WIZARD = "wizard"
    TERMINAL = "terminal"


_current = FrontEnd.WIZARD


def use_terminal(on: bool = True) -> None:
    """The headless CLI calls this first: advice names commands, not pages."""
    global _current
    _current = FrontEnd.TERMINAL if on else FrontEnd.WIZARD


def front_end() -> FrontEnd:
    return _current


def fix_command(check: str) -> str:
    """The command that runs the fix a prerequisite check offers."""
    return cli_command("fix", check)


def prerequisite_fix(check: str) -> str:
    """Where the fix for a prerequisite is: "the Prerequisites step (its Fix button)" in the
    wizard, the command in a terminal."""
    if _current is FrontEnd.TERMINAL:
        return msg("run: {command}", command=fix_command(check))
    return msg("the Prerequisites step can do it (its Fix button)")


def prerequisite_commands(check: str) -> str:
    """Where the commands are that a person must run for a prerequisite (a fix that needs
    sudo on Linux): shown by the Prerequisites step, or by the fix command."""
    if _current is FrontEnd.TERMINAL:
        return msg("'{command}' shows the commands to run", command=fix_command(check))
    return msg("the Prerequisites step shows the commands to run")


def prerequisite_check(check: str) -> str:
    """Where a prerequisite's advice is, when the wizard has no fix for it."""
    if _current is FrontEnd.TERMINAL:
        return msg("'{command}' says what to do", command=cli_command("check"))
    return msg("the Prerequisites step says what to do")


def choose_python() -> str:
    """Where another Python environment is chosen."""
    if _current is FrontEnd.TERMINAL:
        return msg("pass another one with {option}", option="--python PATH")
    return msg("choose another one on the Hardware step")


def choose_source() -> str:
    """Where the kernel's source is chosen."""
    if _current is FrontEnd.TERMINAL:
        return msg("pass it with {option}", option="--source PATH")
    return msg("choose it on the Kernel step")


def choose_kernel_version() -> str:
    """Where the kernel versions are listed."""
    if _current is FrontEnd.TERMINAL:
        return msg("'{command}' lists them", command=cli_command("kernels"))
    return msg("the Kernel step lists them")


__all__ = [
    "FrontEnd", "choose_kernel_version", "choose_python", "choose_source", "cli_command",
    "cli_prefix", "fix_command", "front_end", "prerequisite_check", "prerequisite_commands",
    "prerequisite_fix", "program", "quote", "use_terminal",
]
