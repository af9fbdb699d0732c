"""Environment prefixes: which folder holds a Python, and whether a venv can still start.

A venv is a folder with ``pyvenv.cfg``; its ``home`` key names the folder of the Python it was
made from (CPython's ``Lib/venv/__init__.py`` writes it; ``site.py`` reads it at start-up). On
Linux ``bin/python`` is a symbolic link to that Python, on Windows ``Scripts\\python.exe`` is a
small launcher that starts ``home``'s ``python.exe``. When that Python is uninstalled or
upgraded (a new patch version of Python from the Microsoft Store or python.org, a removed
pyenv/uv Python) the venv cannot start any more: on Linux the link dangles, on Windows the
launcher says ``No Python at '...'``. Nothing fixes that but making the venv again, so the
wizard names the missing Python and says so instead of calling the path missing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.base.messages import Msg, msg


def prefix_of(python: Path) -> Path:
    """The environment folder of an interpreter path (``venv/bin/python`` → ``venv``;
    an embedded ``python_embeded/python.exe`` or a conda ``python.exe`` → its folder)."""
    parent = python.parent
    return parent.parent if parent.name in ("bin", "Scripts") else parent


def venv_config(prefix: Path) -> dict[str, str] | None:
    """``pyvenv.cfg``'s keys (lower case), None when ``prefix`` is no venv."""
    try:
        text = (prefix / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    config: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            config[key.strip().lower()] = value.strip()
    return config


@dataclass(frozen=True)
class BrokenVenv:
    """A venv whose base Python is gone."""

    prefix: Path
    base: str  # the Python it was made from (a path, as pyvenv.cfg or the link names it)

    @property
    def summary(self) -> Msg:
        return msg("This venv's base Python ({base}) is gone, so the venv cannot start; "
                   "recreate the venv.", base=self.base)

    @property
    def hint(self) -> Msg:
        return msg("Recreate it with a Python of the same version (python -m venv --clear "
                   "{prefix}) and install the program's packages again (an AI program: run "
                   "its installer or update script again), or choose another Python.",
                   prefix=str(self.prefix))


def broken_venv(python: Path) -> BrokenVenv | None:
    """Why the venv of ``python`` cannot start, or None (not a venv, or its base is there).

    Only the file system is read: the interpreter link (Linux) and ``pyvenv.cfg``'s ``home``."""
    prefix = prefix_of(python)
    config = venv_config(prefix)
    if config is None:
        return None
    if os.path.islink(python) and not os.path.exists(python):  # a dangling link
        return BrokenVenv(prefix, str(_missing_target(python) or config.get("home", "?")))
    home = config.get("home")
    if home and not _exists(Path(home)):
        return BrokenVenv(prefix, home)
    return None


def _missing_target(link: Path) -> Path | None:
    """The first missing file a chain of links leads to (``python -> python3 -> /gone``)."""
    current = link
    for _ in range(16):
        try:
            target = Path(os.readlink(current))
        except OSError:
            return None
        current = target if target.is_absolute() else current.parent / target
        if not os.path.islink(current):
            return None if os.path.exists(current) else current
    return None


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def has_python(python: Path) -> bool:
    """The interpreter file is there, or it is a venv's (dangling) link: a broken venv is
    listed with its reason, never dropped without a word."""
    return python.is_file() or (os.path.islink(python) and (prefix_of(python)
                                                             / "pyvenv.cfg").is_file())
