"""The source cache on disk: the record every complete tree carries, file manifests (SHA-256
of every file) and the folder operations (temporary folders, removal, disk-full errors)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.oserrors import explain
from kernel_wizard.build.sources.model import (
    BUILD_DIR_SUFFIXES,
    BUILD_DIRS,
    BUILD_FILE_SUFFIXES,
    BUILD_FILES,
    OWN_NAMES,
    RECORD_SCHEMA,
    SOURCE_RECORD,
    TMP_PREFIX,
    SourceError,
    SourceStorageError,
    some_of,
)


def manifest(tree: Path) -> dict[str, str]:
    """relative path → SHA-256 of every file (a symlink: of its target text), without the
    wizard's own files at the root."""
    files: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(tree):
        here = Path(dirpath)
        rel_dir = here.relative_to(tree).as_posix()
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d not in OWN_NAMES]
            filenames = [f for f in filenames if f not in OWN_NAMES]
        for d in list(dirnames):
            if (here / d).is_symlink():
                dirnames.remove(d)
                filenames.append(d)
        for name in filenames:
            path = here / name
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            if path.is_symlink():
                files[rel] = "link:" + os.readlink(path)
            else:
                files[rel] = file_sha256(path)
    return files


def manifest_problem(tree: Path, record: Mapping[str, Any]) -> str | None:
    want = record.get("files")
    if not isinstance(want, dict) or not want:
        return "its record has no file hashes"
    have = manifest(tree)
    changed = sorted(p for p in want if p in have and have[p] != want[p])
    missing = sorted(p for p in want if p not in have)
    extra = sorted(p for p in have if p not in want and not is_build_output(p))
    parts = []
    if changed:
        parts.append("changed: " + some_of(changed))
    if missing:
        parts.append("missing: " + some_of(missing))
    if extra:
        parts.append("not part of the source: " + some_of(extra))
    return "; ".join(parts) if parts else None


def is_build_output(rel: str) -> bool:
    parts = PurePosixPath(rel.rstrip("/")).parts
    if not parts:
        return False
    for part in parts[:-1]:
        if part in BUILD_DIRS or part.endswith(BUILD_DIR_SUFFIXES):
            return True
    last = parts[-1]
    return (last in BUILD_DIRS or last.endswith(BUILD_DIR_SUFFIXES)
            or last.endswith(BUILD_FILE_SUFFIXES) or last in BUILD_FILES)


def write_record(tree: Path, data: Mapping[str, Any]) -> None:
    payload = {"schema": RECORD_SCHEMA, **data}
    (tree / SOURCE_RECORD).write_text(json.dumps(payload, indent=1, ensure_ascii=False),
                                      encoding="utf-8")


def read_record(tree: Path) -> dict[str, Any] | None:
    try:
        data = read_json_file(tree / SOURCE_RECORD)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("schema") != RECORD_SCHEMA:
        return None
    return data


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def make_dir(root: Path) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise disk_error(exc, root) from exc


def new_work(root: Path, name: str) -> Path:
    try:
        return Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{name}-", dir=root))
    except OSError as exc:
        raise disk_error(exc, root) from exc


def clean_stale(root: Path, name: str) -> None:
    """Remove temporary folders an interrupted earlier fetch of ``name`` left behind."""
    for stale in root.glob(f"{TMP_PREFIX}{name}-*"):
        remove_tree(stale, quiet=True)


def remove_tree(path: Path, *, quiet: bool = False) -> None:
    def unlock(func: Callable[..., Any], target: str, _exc: Any) -> None:
        try:
            os.chmod(target, stat.S_IWRITE | stat.S_IREAD | stat.S_IEXEC)  # git's read-only files
            func(target)
        except OSError:
            pass

    if not path.exists() and not path.is_symlink():
        return
    if sys.version_info >= (3, 12):
        shutil.rmtree(path, onexc=unlock)
    else:
        shutil.rmtree(path, onerror=unlock)
    if path.exists() and not quiet:
        raise SourceError(
            msg("The old copy of the source in {path} could not be removed.", path=path),
            why=N_("Some of its files are in use or write-protected."),
            hint=N_("Close programs that may use files there (editors, terminals, a running "
                    "build), then try again."),
        )


def disk_error(exc: OSError, where: Path) -> SourceError:
    """``exc`` in plain words (:func:`kernel_wizard.base.oserrors.explain`: the path, the cause,
    the fix), as a :class:`SourceStorageError`."""
    error = explain(exc, path=where, action="write the kernel's source")
    return SourceStorageError(error.what, why=error.why, hint=error.hint, path=error.path,
                              cause=error.cause)
