"""Where the wizard keeps its own files: logs, reports, staged wheels, caches.

All under the user's data folder (``platformdirs``), overridable with ``KSW_DATA_DIR`` (tests,
portable installs). Folders are created on first use; a folder that cannot be created (a full or
read-only disk, no permission, a file in the way) raises a
:class:`~kernel_wizard.base.errors.StorageError` that names it and says how to choose another one.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs

from kernel_wizard.base.errors import StorageError
from kernel_wizard.base.locks import Held, hold, lock_name
from kernel_wizard.base.messages import msg
from kernel_wizard.base.oserrors import Cause, explain, explain_cause

APP_NAME = "kernel-setup-wizard"
DATA_DIR_ALTERNATIVE = msg("choose another data folder (set {var} to it)", var="KSW_DATA_DIR")
BUILD_ROOT_ALTERNATIVE = msg("choose another build folder (set {var} to it)", var="KSW_BUILD_ROOT")


def data_dir(create: bool = True) -> Path:
    override = os.environ.get("KSW_DATA_DIR")
    root = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, False))
    if create:
        _mkdir(root, "create the wizard's data folder")
    return root


def _sub(name: str, create: bool = True) -> Path:
    path = data_dir(create) / name
    if create:
        _mkdir(path, f"create the wizard's {name} folder")
    return path


def _mkdir(path: Path, action: str) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise storage_error(exc, path=path, action=action) from exc


def check_data_dir() -> Path:
    """The data folder, created and proven writable (a file is written and removed); raises
    a StorageError that says why not and how to choose another one."""
    root = data_dir()
    probe = root / f".ksw-write-test-{os.getpid()}"
    try:
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as exc:
        raise storage_error(exc, path=root, action="write to the wizard's data folder") from exc
    return root


def in_data_dir(path: Path) -> bool:
    """Whether ``path`` lies in the wizard's data folder (where KSW_DATA_DIR helps)."""
    try:
        Path(os.path.abspath(path)).relative_to(os.path.abspath(data_dir(create=False)))
    except ValueError:
        return False
    return True


def storage_error(exc: OSError, *, path: Path | None = None, action: str = "",
                  alternative: str = "") -> StorageError:
    """``exc`` in plain words (:func:`.oserrors.explain`); inside the data folder the fix also
    says how to choose another one."""
    where = Path(os.fsdecode(exc.filename)) if exc.filename else path
    if not alternative and where is not None and in_data_dir(where):
        alternative = DATA_DIR_ALTERNATIVE
    return explain(exc, path=path, action=action, alternative=alternative)


def logs_dir(create: bool = True) -> Path:
    return _sub("logs", create)


def reports_dir() -> Path:
    return _sub("reports")


def staging_dir(create: bool = True) -> Path:
    """Built wheels wait here until they are verified and installed."""
    return _sub("staging", create)


def backups_dir() -> Path:
    """What an install replaced, kept so it can be rolled back."""
    return _sub("backups")


def locks_dir() -> Path:
    """Lock files (and who holds them) of builds and installs running now."""
    return _sub("locks")


def journal_dir() -> Path:
    """Installs under way: one journal file each, removed when the install has ended."""
    return _sub("journal")


def _strip_long_prefix(text: str) -> str:
    if text.startswith("\\\\?\\UNC\\"):
        return "\\\\" + text[8:]
    if text.startswith("\\\\?\\"):
        return text[4:]
    return text


def env_identity(python: Path | str) -> Path:
    """The interpreter ``python`` as the wizard names it: absolute, ``.`` and ``..`` gone, the
    Windows long-path prefix dropped; a linked folder is kept as the user knows it (shown as
    typed). Two spellings of one environment compare equal by :func:`env_key`."""
    return Path(os.path.abspath(_strip_long_prefix(str(python))))


def env_key(python: Path | str) -> str:
    """What every spelling of one interpreter has in common: :func:`env_identity` with the
    folder's links resolved (``.venv/../.venv/bin/python`` and a path through a linked folder
    are one), and on Windows without regard to case. The file name itself is not resolved: a
    venv's ``python`` is a link to the base interpreter, yet another environment."""
    path = env_identity(python)
    try:
        folder = os.path.realpath(path.parent)
    except (OSError, ValueError):
        folder = str(path.parent)
    return os.path.normcase(os.path.join(folder, path.name))


def same_env(a: Path | str, b: Path | str) -> bool:
    return env_key(a) == env_key(b)


def env_lock_path(python: Path) -> Path:
    """The lock of one target environment (its interpreter's folder, however it was typed:
    ``bin/python`` and ``bin/python3`` of a venv are one environment)."""
    folder = os.path.dirname(env_key(python))
    return locks_dir() / lock_name("env", folder)


def machine_locks_dir() -> Path:
    """Locks every run of the wizard on this computer sees, whichever user or data folder it
    has (the bundle and a source checkout; two accounts sharing one environment):
    ``KSW_MACHINE_LOCK_DIR``, else ``%ProgramData%\\kernel-setup-wizard\\locks`` on
    Windows and ``<temp>/kernel-setup-wizard-locks`` (``/tmp``) elsewhere."""
    override = os.environ.get("KSW_MACHINE_LOCK_DIR")
    if override:
        return Path(override)
    if os.name == "nt":
        return Path(platformdirs.site_data_dir(APP_NAME, False)) / "locks"
    return Path(tempfile.gettempdir()) / f"{APP_NAME}-locks"


def machine_env_lock_path(python: Path) -> Path | None:
    """The computer-wide lock of one environment; None where that folder cannot be used (then
    the data folder's lock alone keeps runs apart, as before)."""
    folder = machine_locks_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if os.name != "nt" and folder.stat().st_uid == os.getuid():
            os.chmod(folder, 0o1777)  # every user may add a lock; only its owner removes it
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return None
    return folder / lock_name("env", os.path.dirname(env_key(python)))


@contextmanager
def hold_env(python: Path, purpose: str, **options: Any) -> Iterator[Held]:
    """Hold the environment ``python``: its computer-wide lock (when it can be had), then the
    data folder's (which ``installs`` and recovery read). ``options`` as for
    :func:`~kernel_wizard.base.locks.hold`: a busy lock names its holder, from either place."""
    with ExitStack() as stack:
        shared = machine_env_lock_path(python)
        if shared is not None:
            try:
                stack.enter_context(hold(shared, purpose, shared=True, **options))
            except StorageError:
                pass  # a lock folder of another user's that we cannot write: the local one
        yield stack.enter_context(hold(env_lock_path(python), purpose, **options))


def build_lock_path(key: str) -> Path:
    """The lock of one build folder (``key`` names it: a source folder, a kernel version)."""
    return locks_dir() / lock_name("build", key)


def downloads_dir(create: bool = True) -> Path:
    """Downloaded files the wizard keeps (prebuilt wheels, installers)."""
    return _sub("downloads", create)


def url_cache_dir(url: str, create: bool = True) -> Path:
    """One stable folder per URL under ``downloads/by-url/``: a download that was cut off
    finds its part there in a later run, and a verified file is reused from there."""
    key = hashlib.sha256(url.encode("utf-8")).hexdigest()[:20]
    path = downloads_dir(create) / "by-url" / key
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


NAME_LIMIT = 64  # the longest folder name the wizard makes from a name the user chose


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """``name`` itself, or (when longer than ``limit``) its start and a hash of the whole: a
    folder named after a user's file (an archive, a source folder) must stay far below the
    file system's 255-character names and Windows' 260-character paths, whatever the wizard
    appends to it."""
    if len(name) <= limit:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{name[:limit - 9]}-{digest}"


def storage_problem(cause: Cause, path: Path, *, action: str = "", why: str = "") -> StorageError:
    """A disk or path problem found another way (a child program's output), in the same words
    as :func:`storage_error`."""
    alternative = DATA_DIR_ALTERNATIVE if in_data_dir(path) else ""
    return explain_cause(cause, path, action=action, alternative=alternative, why=why)


def timestamp() -> str:
    """A sortable, file-name-safe local timestamp: 20261121-161430."""
    return datetime.now().strftime("%Y%m%d-%H%M%S")
