"""The wizard's own state files (``installs.json``, reports, journals, caches), written safely.

* :func:`write_json` / :func:`write_text` write atomically: a temporary file beside the target,
  flushed and ``fsync``-ed, then ``os.replace``-d over it (and the folder synced on POSIX), so a
  crash or a full disk leaves either the old file or the new one, never half of one. The file
  being replaced is kept as ``<name>.prev`` first.
* :func:`read_json` tells *missing* from *damaged*: a file that is not JSON, or whose content
  does not have the expected shape (``parse`` raises), is **never** read as empty. It is kept
  aside as ``<name>.damaged-<time>`` (nothing is deleted), and the previous copy is used when it
  is sound (and put back in place); the caller hears what happened (:attr:`StateRead.notice`)
  and can rebuild what the previous copy cannot give back.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any, Generic, TypeVar

from kernel_wizard.base.errors import StorageError
from kernel_wizard.base.jsonfile import parse_json_bytes, read_bounded
from kernel_wizard.base.messages import N_, join, msg
from kernel_wizard.base.oserrors import cause_of, fix_for, write_bytes_atomic

T = TypeVar("T")

PREVIOUS_SUFFIX = ".prev"
DAMAGED_MARK = ".damaged-"


class StateStatus(Enum):
    OK = "ok"
    MISSING = "missing"
    DAMAGED = "damaged"


class StateFileError(StorageError):
    """A state file could not be written (the old one, if any, is still in place): a storage
    problem like any other (exit code 6, JSON kind "storage")."""


@dataclass(frozen=True)
class StateRead(Generic[T]):
    """What reading a state file found.

    ``value`` is the parsed content when ``status`` is OK, or — for a damaged file — what the
    previous copy gave back (``from_previous``), else None. ``kept`` is where the damaged file
    was put aside."""

    path: Path
    status: StateStatus
    value: T | None
    problem: str = ""
    kept: Path | None = None
    from_previous: bool = False

    @property
    def damaged(self) -> bool:
        return self.status is StateStatus.DAMAGED

    @property
    def notice(self) -> str:
        """One plain paragraph for the person (empty unless the file was damaged)."""
        if not self.damaged:
            return ""
        parts: list[str] = [msg("{name} was damaged ({problem}).", name=self.path.name,
                                problem=self.problem)]
        if self.kept is not None:
            parts.append(msg("It was kept aside as {name}; nothing was deleted.",
                             name=self.kept.name))
        if self.from_previous:
            parts.append(N_("Its previous copy was used instead."))
        return join(parts)


def previous_copy(path: Path) -> Path:
    return path.with_name(path.name + PREVIOUS_SUFFIX)


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":
        return  # Windows cannot open a folder for fsync; os.replace is atomic there too
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes(path: Path, data: bytes, *, keep_previous: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically; the replaced file is kept as ``.prev``.

    Raises :class:`StateFileError` naming the file and the cause (the old file is untouched)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if keep_previous and path.is_file():
            fd_prev, temp_prev = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".prev.tmp",
                                                  dir=path.parent)
            os.close(fd_prev)
            try:
                shutil.copy2(path, temp_prev)
                os.replace(temp_prev, previous_copy(path))
            except OSError:
                Path(temp_prev).unlink(missing_ok=True)
                raise
        write_bytes_atomic(path, data)
        _fsync_folder(path.parent)
    except OSError as exc:
        cause = cause_of(exc, path)
        raise StateFileError(
            msg("Could not save {path}.", path=path),
            why=f"{exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else ""),
            # the next step for what happened (a read-only drive is not a full one)
            hint=join((fix_for(cause, path.parent),
                       N_("The earlier copy of the file was left as it was."))),
            path=path,
            cause=cause.value,
        ) from exc


def write_text(path: Path, text: str, *, keep_previous: bool = True) -> None:
    write_bytes(path, text.encode("utf-8"), keep_previous=keep_previous)


def write_json(path: Path, data: Any, *, keep_previous: bool = True, indent: int = 2) -> None:
    write_text(path, json.dumps(data, indent=indent, ensure_ascii=False) + "\n",
               keep_previous=keep_previous)


def keep_aside(path: Path) -> Path | None:
    """Rename a damaged file to ``<name>.damaged-<time>`` (never overwriting an earlier one)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}{DAMAGED_MARK}{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}{DAMAGED_MARK}{stamp}-{n}")
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target


def _parse_file(path: Path, parse: Callable[[Any], T]) -> T:
    """Raises ValueError (with a plain reason) when the file is not what ``parse`` expects."""
    try:  # bounded: a FIFO, /dev/zero or a huge file is damaged, never read forever
        raw = read_bounded(path)
    except OSError as exc:
        raise ValueError(f"it could not be read: {exc.strerror or exc}") from exc
    if not raw.strip():
        raise ValueError("it is empty")
    document = parse_json_bytes(raw)  # ValueError also for nesting past the recursion limit
    try:
        return parse(document)
    except RecursionError as exc:
        raise ValueError("its content is not what the wizard wrote: nested too deep") from exc
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        reason = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
        raise ValueError(f"its content is not what the wizard wrote: {reason}") from exc


def read_json(path: Path, parse: Callable[[Any], T], *, repair: bool = True) -> StateRead[T]:
    """Read and check a state file. ``parse`` turns the JSON document into a value and raises
    (ValueError, KeyError, TypeError) on anything unexpected.

    ``repair``: a damaged file is kept aside and the previous copy, when sound, is put back in
    its place (else the file is gone and the caller rebuilds it). Without ``repair`` nothing
    is moved (read-only callers)."""
    path = Path(path)
    if not path.exists():
        prev = previous_copy(path)
        if prev.is_file():  # a crash between the two renames of an older writer
            try:
                value = _parse_file(prev, parse)
            except ValueError:
                return StateRead(path, StateStatus.MISSING, None)
            return StateRead(path, StateStatus.OK, value, from_previous=True)
        return StateRead(path, StateStatus.MISSING, None)
    try:
        return StateRead(path, StateStatus.OK, _parse_file(path, parse))
    except ValueError as exc:
        problem = str(exc)
    kept = keep_aside(path) if repair else None
    prev = previous_copy(path)
    if prev.is_file():
        try:
            value = _parse_file(prev, parse)
        except ValueError:
            pass
        else:
            if repair:
                try:
                    write_bytes(path, prev.read_bytes(), keep_previous=False)
                except (OSError, StateFileError):
                    pass
            return StateRead(path, StateStatus.DAMAGED, value, problem, kept, True)
    return StateRead(path, StateStatus.DAMAGED, None, problem, kept)


__all__ = [
    "StateFileError", "StateRead", "StateStatus", "keep_aside", "previous_copy", "read_json",
    "write_bytes", "write_json", "write_text",
]
