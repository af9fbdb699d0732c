"""Disk and path errors in plain words: one translation from :class:`OSError` to a message.

Every place where the wizard meets the file system at a boundary (the CLI's entry, the GUI's
background work, the data folder, staging, logs, reports, ``detect --record``) turns an
``OSError`` into a :class:`~base.errors.StorageError` through :func:`explain`: the path,
the cause in words (no permission, a read-only drive, a full disk with how much is free, a name
that is too long, a file where a folder should be, a file in use) and the fix.

The cause is read from ``errno`` and, on Windows, from ``winerror`` first (Windows maps several
different errors to one ``errno``: a sharing violation and "access denied" both become EACCES,
a path that is too long becomes ENOENT). Output of a child program (pip unpacking a wheel, a
build) is read for the same causes by :func:`cause_in_output`.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import tempfile
import time
from enum import Enum
from pathlib import Path

from kernel_wizard.base.advice import cli_command
from kernel_wizard.base.errors import StorageError
from kernel_wizard.base.messages import N_, Msg, msg


class Cause(Enum):
    """Why a file or folder could not be read or written."""

    NO_PERMISSION = "no permission"
    READ_ONLY = "read-only drive"
    NO_SPACE = "disk full"
    NAME_TOO_LONG = "name too long"
    NOT_A_FOLDER = "a file where a folder should be"
    IS_A_FOLDER = "a folder where a file should be"
    MISSING = "does not exist"
    IN_USE = "in use by another program"
    TOO_LARGE = "file too large"
    OTHER = "other"


# Windows system error codes (winerror) that name the cause better than the errno they map to.
WINERROR_CAUSES: dict[int, Cause] = {
    2: Cause.MISSING,  # ERROR_FILE_NOT_FOUND
    3: Cause.MISSING,  # ERROR_PATH_NOT_FOUND
    5: Cause.NO_PERMISSION,  # ERROR_ACCESS_DENIED
    19: Cause.READ_ONLY,  # ERROR_WRITE_PROTECT
    32: Cause.IN_USE,  # ERROR_SHARING_VIOLATION (maps to EACCES)
    33: Cause.IN_USE,  # ERROR_LOCK_VIOLATION
    39: Cause.NO_SPACE,  # ERROR_HANDLE_DISK_FULL
    112: Cause.NO_SPACE,  # ERROR_DISK_FULL
    183: Cause.NOT_A_FOLDER,  # ERROR_ALREADY_EXISTS (checked against the path, as EEXIST)
    206: Cause.NAME_TOO_LONG,  # ERROR_FILENAME_EXCED_RANGE (maps to ENOENT)
    267: Cause.NOT_A_FOLDER,  # ERROR_DIRECTORY: "The directory name is invalid"
    1295: Cause.NO_SPACE,  # ERROR_DISK_QUOTA_EXCEEDED
}

ERRNO_CAUSES: dict[int, Cause] = {
    errno.EACCES: Cause.NO_PERMISSION,
    errno.EPERM: Cause.NO_PERMISSION,
    errno.EROFS: Cause.READ_ONLY,
    errno.ENOSPC: Cause.NO_SPACE,
    errno.ENAMETOOLONG: Cause.NAME_TOO_LONG,
    errno.ENOTDIR: Cause.NOT_A_FOLDER,
    errno.EEXIST: Cause.NOT_A_FOLDER,  # only when a file stands there (see cause_of)
    errno.EISDIR: Cause.IS_A_FOLDER,
    errno.ENOENT: Cause.MISSING,
    errno.EBUSY: Cause.IN_USE,
    errno.ETXTBSY: Cause.IN_USE,
    errno.EFBIG: Cause.TOO_LARGE,
}
if hasattr(errno, "EDQUOT"):  # not on Windows
    ERRNO_CAUSES[errno.EDQUOT] = Cause.NO_SPACE

# What a child program prints for these causes: the C library's and Windows' error texts and
# codes, as Python (pip, setuptools), compilers and linkers print them.
OUTPUT_PATTERNS: tuple[tuple[Cause, re.Pattern[str]], ...] = (
    (Cause.NO_SPACE, re.compile(
        r"\[Errno 28\]|\[Errno 122\]|No space left on device|Disk quota exceeded|"
        r"\[WinError (?:112|39|1295)\]|There is not enough space on the disk", re.IGNORECASE)),
    (Cause.READ_ONLY, re.compile(r"\[Errno 30\]|Read-only file system|\[WinError 19\]",
                                 re.IGNORECASE)),
    (Cause.NAME_TOO_LONG, re.compile(r"\[Errno 36\]|File name too long|\[WinError 206\]",
                                     re.IGNORECASE)),
    (Cause.IN_USE, re.compile(r"\[WinError 32\]|being used by another process", re.IGNORECASE)),
    (Cause.NO_PERMISSION, re.compile(r"\[Errno 13\]|Permission denied|\[WinError 5\]|"
                                     r"Access is denied", re.IGNORECASE)),
)


def cause_of(exc: OSError, path: Path | None = None) -> Cause:
    """The cause of ``exc`` (``path``: where it happened, when the error does not say)."""
    winerror = getattr(exc, "winerror", None)
    cause = WINERROR_CAUSES.get(winerror) if isinstance(winerror, int) else None
    if cause is None and exc.errno is None:  # e.g. shutil.Error: the causes are in its text
        cause = cause_in_output(str(exc)) or Cause.OTHER
    if cause is None:
        cause = ERRNO_CAUSES.get(exc.errno or 0, Cause.OTHER)
    if cause is Cause.NOT_A_FOLDER and (exc.errno == errno.EEXIST or winerror == 183):
        where = path if path is not None else _filename(exc)
        if where is None or not where.exists() or where.is_dir():
            return Cause.OTHER  # it exists, and it is a folder: not a file in the way
    if cause is Cause.MISSING:
        where = path if path is not None else _filename(exc)
        if where is not None and blocking_file(where) is not None:
            return Cause.NOT_A_FOLDER  # Windows says "path not found" for a file in the way
    return cause


def cause_in_output(text: str) -> Cause | None:
    """The disk or path problem a child program's output shows, if any (the first listed
    cause that matches: a full disk explains a failed write better than what followed)."""
    for cause, pattern in OUTPUT_PATTERNS:
        if pattern.search(text):
            return cause
    return None


def cause_line(text: str, limit: int = 400) -> str:
    """The line of a child's output that shows its disk or path problem (the last one), for
    the "why" of a message; the last line when none does."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        if cause_in_output(line) is not None:
            return line[-limit:]
    return lines[-1][-limit:] if lines else ""


def _filename(exc: OSError) -> Path | None:
    name = exc.filename
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    return Path(name) if isinstance(name, str) and name else None


def existing_ancestor(path: Path) -> Path | None:
    """``path`` or the nearest folder above it that exists (None if none can be read)."""
    current = Path(os.path.abspath(path))
    while True:
        try:
            if current.exists():
                return current if current.is_dir() else current.parent
        except OSError:
            pass
        if current.parent == current:
            return None
        current = current.parent


def free_bytes(path: Path) -> int | None:
    """Free space on the disk that holds ``path`` (or would hold it); None if unknown."""
    where = existing_ancestor(path)
    if where is None:
        return None
    try:
        return shutil.disk_usage(where).free
    except OSError:
        return None


def format_free(free: int | None) -> str:
    if free is None:
        return msg("free space unknown")
    if free >= 10 * 1024**3:
        return msg("{gb} GB free", gb=f"{free / 1024**3:.0f}")
    return msg("{mb} MB free", mb=free // (1024 * 1024))


def blocking_file(path: Path) -> Path | None:
    """The file that stands where ``path`` or one of the folders above it should be."""
    current = Path(os.path.abspath(path))
    chain = [current, *current.parents]
    for candidate in reversed(chain):  # from the root down: the first file in the way
        try:
            if candidate.exists() and not candidate.is_dir():
                return candidate
        except OSError:
            return None
    return None


def first_missing(path: Path) -> Path | None:
    """The topmost folder of ``path`` (or ``path`` itself) that does not exist."""
    current = Path(os.path.abspath(path))
    for candidate in reversed([current, *current.parents]):
        try:
            if not candidate.exists():
                return candidate
        except OSError:
            return None
    return None


def _name_limits(path: Path) -> tuple[int | None, int | None]:
    """This file system's longest name and longest path (None where the OS does not say)."""
    where = existing_ancestor(path)
    if where is None or not hasattr(os, "pathconf"):
        return None, None
    limits: list[int | None] = []
    for key in ("PC_NAME_MAX", "PC_PATH_MAX"):
        try:
            limits.append(int(os.pathconf(where, key)))
        except (OSError, ValueError):
            limits.append(None)
    return limits[0], limits[1]


def words(text: str) -> Msg:
    """``text`` as a sentence a front end translates (a fixed one is looked up as itself): for
    texts handed in by callers (an action, an alternative) that go into a sentence here."""
    return text if isinstance(text, Msg) else msg(text)


def sentence(cause: Cause, path: Path, *, purpose: str = "") -> str:
    """The cause in one sentence that names the path."""
    if cause is Cause.NO_SPACE:
        return msg("the disk holding {path} is full ({free})", path=path,
                   free=format_free(free_bytes(path)))
    if cause is Cause.NO_PERMISSION:
        return msg("you have no permission to write to {path}", path=path)
    if cause is Cause.READ_ONLY:
        return msg("{path} is on a read-only drive", path=path)
    if cause is Cause.NAME_TOO_LONG:
        longest = max((len(part) for part in path.parts), default=0)
        name_max, path_max = _name_limits(path)
        if name_max is not None and longest > name_max:
            return msg("a name in {path} is too long ({longest} characters; this drive allows "
                       "{limit})", path=path, longest=longest, limit=name_max)
        if path_max:
            return msg("the path {path} is too long ({length} characters; the limit here is "
                       "{limit})", path=path, length=len(str(path)), limit=path_max)
        return msg("the path {path} is too long ({length} characters)", path=path,
                   length=len(str(path)))
    if cause is Cause.NOT_A_FOLDER:
        file = blocking_file(path)
        if file is not None and file != path:
            return msg("{file} is a file, where a folder of {path} should be", file=file,
                       path=path)
        return msg("{path} is a file, where a folder should be", path=path)
    if cause is Cause.IS_A_FOLDER:
        return msg("{path} is a folder, where a file should be", path=path)
    if cause is Cause.MISSING:
        missing = first_missing(path)
        if missing is not None and missing != path:
            return msg("the folder {folder} does not exist", folder=missing)
        return msg("{path} does not exist", path=path)
    if cause is Cause.IN_USE:
        return msg("{path} is in use by another program", path=path)
    if cause is Cause.TOO_LARGE:
        return msg("a file in {path} grew larger than this drive or this session allows",
                   path=path)
    if purpose:
        return msg("{path} could not be {purpose}", path=path, purpose=words(purpose))
    return msg("{path} could not be used", path=path)


def fix_for(cause: Cause, path: Path, alternative: str = "") -> str:
    """The next step for ``cause`` at ``path``; ``alternative``: how to choose another place
    (e.g. "choose another data folder (set KSW_DATA_DIR to it)")."""
    other = words(alternative) if alternative else None

    def instead(default: str) -> Msg:
        return other if other is not None else words(default)

    if cause is Cause.NO_SPACE:
        return msg("Free space on that disk (old builds: {clean}), or {alternative}.",
                   clean=cli_command("clean"),
                   alternative=instead(N_("choose a folder on a disk with more space")))
    if cause is Cause.NO_PERMISSION:
        return msg("Give your user write access to {path}, or {alternative}.", path=path,
                   alternative=instead(N_("choose a folder you may write to")))
    if cause is Cause.READ_ONLY:
        return msg("Make the drive writable, or {alternative}.",
                   alternative=instead(N_("choose a folder on a writable drive")))
    if cause is Cause.NAME_TOO_LONG:
        if other is not None:
            return msg("Use a shorter folder or file name, or a folder closer to the top of the "
                       "drive (on Windows: turn on long paths, in the Prerequisites step), or "
                       "{alternative}.", alternative=other)
        return msg("Use a shorter folder or file name, or a folder closer to the top of the "
                   "drive (on Windows: turn on long paths, in the Prerequisites step).")
    if cause is Cause.NOT_A_FOLDER:
        file = blocking_file(path) or path
        return msg("Rename or remove the file {file}, or {alternative}.", file=file,
                   alternative=instead(N_("choose another folder")))
    if cause is Cause.IS_A_FOLDER:
        return msg("Rename or remove the folder {path}, or {alternative}.", path=path,
                   alternative=instead(N_("choose another name")))
    if cause is Cause.MISSING:
        return msg("Check the path; create the folder {folder} first, or {alternative}.",
                   folder=first_missing(path.parent) or path.parent,
                   alternative=instead(N_("choose another folder")))
    if cause is Cause.IN_USE:
        if other is not None:
            return msg("Close the programs that may use it (an editor, a terminal in that "
                       "folder, a running build, a virus scan), then try again, or "
                       "{alternative}.", alternative=other)
        return msg("Close the programs that may use it (an editor, a terminal in that folder, "
                   "a running build, a virus scan), then try again.")
    if cause is Cause.TOO_LARGE:
        return msg("Free space or lift the file size limit, or {alternative}.",
                   alternative=instead(N_("choose another folder")))
    if other is not None:
        return msg("Check that {path} can be written to, then try again, or {alternative}.",
                   path=path, alternative=other)
    return msg("Check that {path} can be written to, then try again.", path=path)


def explain(
    exc: OSError,
    *,
    path: Path | str | None = None,
    action: str = "",
    alternative: str = "",
) -> StorageError:
    """``exc`` as a :class:`StorageError`: what could not be done, where, why, and the fix.

    ``path``: where it happened, used when the error names no file (a failed ``write()``);
    ``action``: what the wizard was doing ("save the report"); ``alternative``: how to choose
    another place, added to the fix."""
    where = _filename(exc) or (Path(path) if path is not None else None)
    if where is None:
        where = Path(os.getcwd())
    cause = cause_of(exc, where)
    return explain_cause(cause, where, action=action, alternative=alternative,
                         why=_os_words(exc))


def explain_cause(
    cause: Cause,
    path: Path,
    *,
    action: str = "",
    alternative: str = "",
    why: str = "",
) -> StorageError:
    """A :class:`StorageError` for a cause found another way (a child program's output)."""
    text = sentence(cause, path)
    what = (msg("Could not {action}: {cause}.", action=words(action), cause=text) if action
            else _Capitalized(msg("{cause}.", cause=text)))
    return StorageError(what, why=why, hint=fix_for(cause, path, alternative),
                        path=path, cause=cause.value)


class _Capitalized(Msg):
    """A sentence whose English begins with a capital letter (its first field begins it in
    lower case); translated as the sentence it capitalizes."""

    def __new__(cls, sentence: Msg) -> _Capitalized:
        self = str.__new__(cls, sentence[:1].upper() + sentence[1:])
        self.template = sentence.template
        self.fields = sentence.fields
        self.parts = ()
        self.separator = ""
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_Capitalized, (Msg(self.template, self.fields),))


def _os_words(exc: OSError) -> str:
    """What the operating system said, with its error number."""
    code = getattr(exc, "winerror", None)
    label = f"WinError {code}" if isinstance(code, int) else (
        errno.errorcode.get(exc.errno or 0, f"errno {exc.errno}") if exc.errno else "")
    words = exc.strerror or str(exc)
    return f"{words} ({label})" if label else words


def replace_file(src: Path | str, dst: Path | str) -> None:
    """``os.replace``, retried briefly: on Windows a virus scanner may hold a fresh file open
    for a moment (PermissionError)."""
    for pause in (0.1, 0.25, 0.5, 1.0):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            time.sleep(pause)
    os.replace(src, dst)


def write_bytes_atomic(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` whole or not at all: a temporary file beside it, flushed to
    the disk, then put in place with :func:`replace_file` (with ``mode``, when given). On an
    error the temporary file is removed, ``path`` is as it was, and the OSError names ``path``.
    The one atomic writer of the wizard's own files (state files, history, records, shortcuts)."""
    path = Path(path)
    temp = ""
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        replace_file(temp, path)
    except BaseException as exc:
        if temp:
            try:
                os.unlink(temp)
            except OSError:
                pass
        if isinstance(exc, OSError) and exc.filename is not None and (
                os.fsdecode(exc.filename) == temp
                or Path(os.fsdecode(exc.filename)).name.startswith(f".{path.name}.")):
            exc.filename = str(path)  # name the file the person asked for, not the temporary
        raise


def write_text_atomic(path: Path, text: str, *, mode: int | None = None) -> None:
    """:func:`write_bytes_atomic` of ``text`` in UTF-8 (TypeError for anything but text)."""
    if not isinstance(text, str):
        raise TypeError(f"text to write must be str, not {type(text).__name__}")
    write_bytes_atomic(path, text.encode("utf-8"), mode=mode)


__all__ = [
    "Cause", "blocking_file", "cause_in_output", "cause_line", "cause_of", "existing_ancestor",
    "explain", "explain_cause", "fix_for", "format_free", "free_bytes", "replace_file",
    "sentence", "words", "write_bytes_atomic", "write_text_atomic",
]
