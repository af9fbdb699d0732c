"""Where the wizard keeps its own files: logs, reports, staged wheels, caches.

All under the user's data folder (``platformdirs``), overridable with ``KSW_DATA_DIR`` (tests,
portable installs). Folders are created on first use.
"""

from __future__ import annotations

import hashlib
import os
from datetime import datetime
from pathlib import Path

import platformdirs

from .locks import lock_name

APP_NAME = "kernel-setup-wizard"


def data_dir(create: bool = True) -> Path:
    override = os.environ.get("KSW_DATA_DIR")
    root = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, False))
    if create:
        root.mkdir(parents=True, exist_ok=True)
    return root


def _sub(name: str, create: bool = True) -> Path:
    path = data_dir(create) / name
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


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


def env_lock_path(python: Path) -> Path:
    """The lock of one target environment (its interpreter's folder: ``bin/python`` and
    ``bin/python3`` of a venv are one environment)."""
    folder = os.path.normcase(os.path.abspath(Path(python).parent))
    return locks_dir() / lock_name("env", folder)


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


def timestamp() -> str:
    """A sortable, file-name-safe local timestamp: 20261121-161430."""
    return datetime.now().strftime("%Y%m%d-%H%M%S")
