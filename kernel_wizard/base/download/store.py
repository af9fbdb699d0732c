"""What a download keeps on disk: the part, its side file, and the record of a verified file.

Next to ``dest`` there may be

* ``<dest>.part``: the body received so far, until it is complete and verified;
* ``<dest>.part.json``: what the part belongs to (URL, ETag / Last-Modified, the size the
  server announced, the expected size and SHA-256), so that a later attempt may continue it;
* ``<dest>.json``: the record written after ``dest`` was verified (URL, size, SHA-256, the
  checks it passed, when). It is what lets a later call reuse ``dest`` without a published
  digest, and what a report quotes about the file (:func:`verified_record`).

Every JSON file is written atomically (a crash leaves the old file or the new one).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.oserrors import replace_file, write_text_atomic

PART_SCHEMA = "ksw.download-part/1"
RECORD_SCHEMA = "ksw.download/1"
_SHA256_RE = re.compile(r"[0-9a-f]{64}")


def part_path(dest: Path) -> Path:
    """Where the body is written until it is verified: ``<dest>.part``."""
    return dest.with_name(dest.name + ".part")


def part_meta_path(dest: Path) -> Path:
    """The side file of the part: ``<dest>.part.json``."""
    return dest.with_name(dest.name + ".part.json")


def record_path(dest: Path) -> Path:
    """The record written next to a verified download: ``<dest>.json``."""
    return dest.with_name(dest.name + ".json")


@dataclass(frozen=True)
class PartMeta:
    """The side file ``<dest>.part.json``: what the part belongs to."""

    url: str
    etag: str | None
    last_modified: str | None
    total: int | None  # the full size the server announced, if it did
    expected_size: int | None
    sha256: str | None

    @property
    def validator(self) -> str | None:
        """What goes into If-Range: a strong ETag, else Last-Modified (RFC 9110 §13.1.5)."""
        if self.etag and not self.etag.startswith("W/"):
            return self.etag
        return self.last_modified or None

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": PART_SCHEMA,
            "url": self.url,
            "etag": self.etag,
            "last_modified": self.last_modified,
            "total": self.total,
            "expected_size": self.expected_size,
            "sha256": self.sha256,
        }

    @staticmethod
    def load(path: Path) -> PartMeta | None:
        data = read_json(path)
        if data is None or data.get("schema") != PART_SCHEMA:
            return None
        try:
            return PartMeta(
                url=str(data["url"]),
                etag=opt_str(data.get("etag")),
                last_modified=opt_str(data.get("last_modified")),
                total=opt_int(data.get("total")),
                expected_size=opt_int(data.get("expected_size")),
                sha256=opt_str(data.get("sha256")),
            )
        except (KeyError, TypeError, ValueError):
            return None


@dataclass(frozen=True)
class Cached:
    """An existing ``dest`` that may be returned without going to the network."""

    size: int
    sha256: str
    checks: tuple[str, ...]  # what was verified when it was downloaded
    announced: int | None  # the size the server announced then, if it did


def cached(url: str, dest: Path, expected_size: int | None, sha256: str | None) -> Cached | None:
    """An existing ``dest`` that may be returned as is, or None.

    With a ``sha256``: ``dest`` must hash to it (a ``dest`` with another hash is deleted, with
    its record, so nothing trusts it). Without one: the record must name the same URL, the
    file's size and SHA-256, and the file must still hash to that (and have ``expected_size``,
    when given).
    """
    try:
        if not dest.is_file():
            return None
        size = dest.stat().st_size
        record = read_json(record_path(dest))
        if record is not None and (
            record.get("schema") != RECORD_SCHEMA or record.get("url") != url
        ):
            record = None
        if sha256 is not None:
            digest = hash_file(dest)
            if digest == sha256 and (expected_size is None or size == expected_size):
                return Cached(size, digest, _checks(record), _announced(record))
            # A file known to be wrong: nothing may trust it, a fresh download replaces it.
            unlink_quietly(dest)
            unlink_quietly(record_path(dest))
            return None
        if (
            record is None
            or record.get("verified") is not True
            or record.get("size") != size
            or (expected_size is not None and size != expected_size)
        ):
            return None
        digest = hash_file(dest)
        if digest != record.get("sha256"):
            return None
        return Cached(size, digest, _checks(record), _announced(record))
    except OSError:
        return None


def write_record(dest: Path, record: dict[str, Any]) -> None:
    """The record of a verified ``dest`` (schema, URL, size, sha256, checks, …)."""
    write_json(record_path(dest), {"schema": RECORD_SCHEMA, "verified": True, **record})


def verified_record(path: Path, sha256: str | None = None) -> dict[str, Any] | None:
    """The download record of ``path`` when it still describes the file on disk, else None.

    ``sha256``: the file's hash when the caller already has it (saves reading it again).
    """
    record = read_json(record_path(path))
    if (
        record is None
        or record.get("schema") != RECORD_SCHEMA
        or record.get("verified") is not True
    ):
        return None
    try:
        digest = sha256 if sha256 is not None else hash_file(path)
    except OSError:
        return None
    return record if record.get("sha256") == digest else None


def _checks(record: dict[str, Any] | None) -> tuple[str, ...]:
    checks = record.get("checks") if record is not None else None
    return tuple(str(c) for c in checks) if isinstance(checks, list) else ()


def _announced(record: dict[str, Any] | None) -> int | None:
    value = record.get("announced_size") if record is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def resumable_bytes(dest: Path, url: str) -> int:
    """How many bytes of ``url`` a later :func:`download` to ``dest`` would continue from
    (0: none, or a part that cannot be continued because the server gave no validator)."""
    size = file_size(part_path(dest))
    meta = PartMeta.load(part_meta_path(dest))
    if not size or meta is None or meta.url != url or meta.validator is None:
        return 0
    return size


# -- files ------------------------------------------------------------------------------------


def hash_file(path: Path) -> str:
    hasher = hashlib.sha256()
    hash_into(path, hasher.update, limit=None)
    return hasher.hexdigest()


def hash_into(path: Path, update: Callable[[bytes], None], *, limit: int | None) -> None:
    """Feed the first ``limit`` bytes of ``path`` (all when None) to ``update``.

    Raises OSError when the file is shorter than ``limit``.
    """
    left = limit
    with path.open("rb") as handle:
        while left is None or left > 0:
            block = handle.read(1024 * 1024 if left is None else min(1024 * 1024, left))
            if not block:
                break
            update(block)
            if left is not None:
                left -= len(block)
    if left:
        raise OSError(f"{path} is shorter than expected")


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = read_json_file(path)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half of one."""
    write_text_atomic(path, json.dumps(data, indent=1))


replace = replace_file  # a downloaded file put in place (retried while a scanner holds it)


def unlink(path: Path) -> None:
    path.unlink(missing_ok=True)


def unlink_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def file_size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


# -- values -----------------------------------------------------------------------------------


def normalise_sha256(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip().lower()
    if not _SHA256_RE.fullmatch(text):
        raise ValueError(f"sha256 must be 64 hex digits, not {value!r}")
    return text


def same_or_unknown(a: object, b: object) -> bool:
    return a is None or b is None or a == b


def opt_str(value: object) -> str | None:
    return None if value is None else str(value)


def opt_int(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not an integer: {value!r}")
    return value
