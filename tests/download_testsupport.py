"""Helpers for the download tests: a certificate for an HTTPS loopback server, and wheels that
are damaged or renamed in one precise way (real zip files, written here)."""

from __future__ import annotations

import base64
import hashlib
import ssl
import zipfile
from collections.abc import Mapping
from pathlib import Path


def tls_context(folder: Path) -> tuple[ssl.SSLContext, Path]:
    """A server context for 127.0.0.1 signed by a fresh test CA, and the CA's PEM file (give it
    to the client as REQUESTS_CA_BUNDLE)."""
    import trustme

    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1", "localhost")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    certificate.configure_cert(context)
    folder.mkdir(parents=True, exist_ok=True)
    pem = folder / "test-ca.pem"
    authority.cert_pem.write_to_path(str(pem))
    return context, pem


def rewrite_wheel(src: Path, dest: Path, changes: Mapping[str, bytes | None] = {}, *,
                  rehash: bool = False) -> Path:
    """A copy of the wheel ``src`` at ``dest`` (any name) whose members in ``changes`` are
    replaced (bytes), added (a new name) or left out (None). RECORD is copied as it was, so a
    changed file no longer matches its hash; ``rehash``: RECORD is written anew to match."""
    with zipfile.ZipFile(src) as old:
        members = {info.filename: old.read(info) for info in old.infolist()}
    for name, data in changes.items():
        if data is None:
            members.pop(name, None)
        else:
            members[name] = data
    if rehash:
        record = next(n for n in members if n.endswith(".dist-info/RECORD"))
        rows = []
        for name, data in members.items():
            if name != record:
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                rows.append(f"{name},sha256={digest.decode()},{len(data)}")
        members[record] = ("\n".join([*rows, f"{record},,"]) + "\n").encode()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(dest, "w") as new:
        for name, data in members.items():
            new.writestr(name, data)
    return dest


def member(wheel: Path, suffix: str) -> str:
    """The name of the member of ``wheel`` that ends with ``suffix`` (e.g. "/RECORD")."""
    with zipfile.ZipFile(wheel) as archive:
        return next(n for n in archive.namelist() if n.endswith(suffix))


def big_wheel(src: Path, folder: Path) -> bytes:
    """The bytes of a sound copy of the wheel ``src`` grown to ~600 kB by an incompressible
    data file listed in RECORD, so that a transfer can be cut (or dripped) in the middle."""
    payload = hashlib.sha256(b"seed").digest() * (600_000 // 32)
    digest = base64.urlsafe_b64encode(hashlib.sha256(payload).digest()).rstrip(b"=").decode()
    record_name = member(src, ".dist-info/RECORD")
    with zipfile.ZipFile(src) as archive:
        record = archive.read(record_name).decode()
    record = record.replace(f"{record_name},,", f"ksw_probe/blob.bin,sha256={digest},"
                            f"{len(payload)}\n{record_name},,")
    out = rewrite_wheel(src, folder / "big" / src.name,
                        {"ksw_probe/blob.bin": payload, record_name: record.encode()})
    return out.read_bytes()
