"""Advice that points somewhere, worded for the front end that shows it.

A sentence such as "install a CUDA build of PyTorch" ends differently in the wizard (its
Prerequisites step has a Fix button for it) and in a terminal (the command to run). The core
words such advice once, through these functions; the CLI says at start that it is the front
end (:func:`use_terminal`), the wizard is the default. Nothing here names a page to a terminal
user, or a command to someone who double-clicked the wizard. Each piece is a translatable
sentence (:func:`~build_backend.words.msg`): the wizard shows it in the user's language also
where it is a value in a longer sentence.
"""

from __future__ import annotations

from enum import Enum

from .words import msg

CLI = "python -m app --headless"


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
    return f"{CLI} fix {check}"


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
        return msg("'{command}' says what to do", command=f"{CLI} check")
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
        return msg("'{command}' lists them", command=f"{CLI} kernels")
    return msg("the Kernel step lists them")


__all__ = [
    "CLI", "FrontEnd", "choose_kernel_version", "choose_python", "choose_source",
    "fix_command", "front_end", "prerequisite_check", "prerequisite_commands",
    "prerequisite_fix", "use_terminal",
]
