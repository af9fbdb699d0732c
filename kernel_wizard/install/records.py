"""What the wizard installed where: ``installs.json``, install receipts and install journals.

* ``installs.json`` — one record per (environment, distribution) the wizard installed, read by
  ``--verify``, ``--headless installs`` and the Welcome page. A record keeps the record it
  replaced (``previous``), so a roll-back brings the earlier install's record back, with its
  verification. Written atomically (:mod:`.statefile`); a damaged file is kept aside, never read
  as empty, and rebuilt from the receipts.
* Receipts — every install has a folder in ``backups/`` (what it replaced, if anything, and
  ``receipt.json``: its record and whether it is still installed or was rolled back). They are
  what ``installs.json`` is rebuilt from.
* Journals — ``journal/<id>.json`` exists while an install runs (written before pip starts);
  one left behind is an install that was cut off (:mod:`.install` finishes or undoes it).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.locks import Held, hold
from kernel_wizard.base.messages import N_, join, msg
from kernel_wizard.base.paths import backups_dir, data_dir, env_key, journal_dir, locks_dir
from kernel_wizard.base.statefile import StateStatus, read_json, write_json

Record = dict[str, Any]  # a journal entry as written (its own schema)

RECEIPT = "receipt.json"
RECEIPT_SCHEMA = "ksw.install-receipt/1"
JOURNAL_SCHEMA = "ksw.install-journal/1"
REQUIRED = ("name", "version", "python")


class ReceiptState:
    INSTALLED = "installed"
    ROLLED_BACK = "rolled-back"
    FAILED = "failed"  # the install did not happen (undone)


def installs_file() -> Path:
    return data_dir() / "installs.json"


def now() -> str:
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def new_transaction_id(name: str) -> str:
    return f"{name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"


# -- records --------------------------------------------------------------------------------


_TEXT_FIELDS = ("kernel", "adapter", "wheel", "backup", "installed", "transaction")


@dataclass(frozen=True)
class InstallRecord:
    """One install the wizard made: ``name`` (the distribution) ``version`` in ``python``.

    Read from JSON by :meth:`from_json` only, written by :meth:`to_json` only. Files written
    before a field existed still read: ``kernel`` (the catalog id) is missing from the oldest
    ones, where ``name`` is all there is (:attr:`kernel_id` falls back to it). ``verification``
    is what the install said of the check made before it (``status``, ``report``, ``quick``,
    ``installed_despite_failure``), kept as written. ``previous``: the record this one replaced
    (a roll-back brings it back). ``rebuilt``: rebuilt from the receipts after installs.json
    was damaged."""

    name: str
    version: str
    python: str
    wheel: str | None = None
    kernel: str | None = None
    adapter: str | None = None
    backup: str | None = None
    transaction: str | None = None
    installed: str | None = None
    verification: Mapping[str, Any] | None = None
    previous: InstallRecord | None = None
    rebuilt: bool = False

    @property
    def kernel_id(self) -> str:
        """The catalog kernel (``probe``, ``flash_attn``); the distribution name for a record
        written before the kernel was recorded."""
        return self.kernel or self.name

    @property
    def key(self) -> tuple[str, str]:
        """One environment and kernel: the environment by its identity, however its path was
        typed (records written before identities were kept compare equal too)."""
        return env_key(self.python), self.name

    @property
    def verification_status(self) -> str | None:
        """``pass``, ``fail``, ``error``, ``skipped`` (installed without verifying); None when
        the record says nothing of a verification."""
        status = (self.verification or {}).get("status")
        return str(status) if status else None

    @property
    def installed_despite_failure(self) -> bool:
        return bool((self.verification or {}).get("installed_despite_failure"))

    @classmethod
    def from_json(cls, record: object) -> InstallRecord:
        """A record as the wizard writes it (any version of it); raises ValueError naming
        what is wrong."""
        if not isinstance(record, dict):
            raise ValueError(f"a record is a {type(record).__name__}, not an object")
        for key in REQUIRED:
            value = record.get(key)
            if not isinstance(value, str) or not value:
                raise ValueError(f"a record has no {key!r}")
        for key in _TEXT_FIELDS:
            if record.get(key) is not None and not isinstance(record[key], str):
                raise ValueError(f"a record's {key!r} is not text")
        verification = record.get("verification")
        if verification is not None and not isinstance(verification, dict):
            raise ValueError("a record's 'verification' is not an object")
        previous = record.get("previous")
        return cls(
            name=record["name"], version=record["version"], python=record["python"],
            **{key: record.get(key) for key in _TEXT_FIELDS},
            verification=verification,
            previous=cls.from_json(previous) if previous is not None else None,
            rebuilt=record.get("rebuilt") is True,
        )

    def to_json(self) -> Record:
        """The record as installs.json and the receipts keep it (the keys and their order of
        every wizard version since records had a kernel; ``rebuilt`` only when it is)."""
        document: Record = {
            "name": self.name, "version": self.version, "python": self.python,
            "wheel": self.wheel, "kernel": self.kernel, "adapter": self.adapter,
            "backup": self.backup, "transaction": self.transaction, "installed": self.installed,
            "verification": dict(self.verification) if self.verification is not None else None,
            "previous": self.previous.to_json() if self.previous is not None else None,
        }
        if self.rebuilt:
            document["rebuilt"] = True
        return document

    def chained(self, depth: int) -> InstallRecord | None:
        """This record with at most ``depth`` records of what it replaced (None at 0)."""
        if depth <= 0:
            return None
        return replace(self, previous=self.previous.chained(depth - 1)
                       if self.previous is not None else None)



def rewrite_records() -> None:
    """Write the install list again as it is: proves, before an environment is changed, that
    the change can be recorded (a full disk or a read-only records file fail here, with
    nothing changed yet)."""
    with records_lock():
        _write_records(load_installs())


def _parse_records(document: object) -> list[InstallRecord]:
    if not isinstance(document, list):
        raise ValueError(f"a list of records was expected, found a {type(document).__name__}")
    return [InstallRecord.from_json(r) for r in document]


def _write_records(records: list[InstallRecord], *, keep_previous: bool = True) -> None:
    write_json(installs_file(), [r.to_json() for r in records], keep_previous=keep_previous)


def _salvage(path: Path | None) -> list[InstallRecord]:
    """The sound records of a damaged file (it may be a list with one bad record)."""
    if path is None:
        return []
    try:
        document = read_json_file(path)
    except (OSError, ValueError):
        return []
    found = []
    for item in document if isinstance(document, list) else []:
        try:
            found.append(InstallRecord.from_json(item))
        except ValueError:
            continue
    return found


@dataclass(frozen=True)
class InstallsRead:
    records: list[InstallRecord]
    notices: tuple[str, ...] = ()


@contextmanager
def records_lock() -> Iterator[Held]:
    """Held around every read-modify-write of installs.json (two wizards, two environments)."""
    with hold(locks_dir() / "installs.lock", "updating the install records") as held:
        yield held


def read_installs() -> InstallsRead:
    """The records; a damaged installs.json is kept aside and rebuilt (and said so)."""
    path = installs_file()
    found = read_json(path, _parse_records)
    if found.status is StateStatus.OK:
        return InstallsRead(list(found.value or []))
    if found.status is StateStatus.MISSING:
        return InstallsRead([])
    rebuilt = rebuild_records()
    merged: dict[tuple[str, str], InstallRecord] = {}
    for record in [*(found.value or []), *_salvage(found.kept)]:
        if not undone(record):  # the previous copy may predate a roll-back
            merged[record.key] = record
    for record in rebuilt:  # the receipts know the newest state of the wizard's own installs
        merged[record.key] = record
    records = list(merged.values())
    notice: list[str] = [found.notice]
    if rebuilt:
        notice.append(msg("{n} install record(s) were rebuilt from the backups folder "
                          "({folder}).", n=len(rebuilt), folder=backups_dir()))
    try:
        _write_records(records, keep_previous=False)
    except Exception:  # noqa: BLE001 - reading must work on a read-only data folder too
        notice.append(N_("The repaired list could not be saved yet."))
    text = join(notice)
    return InstallsRead(records, (text,) if text else ())


def load_installs() -> list[InstallRecord]:
    """The wizard's installs, in the order they were recorded (``read_installs().records``)."""
    return read_installs().records


def find_record(python: Path | str, name: str) -> InstallRecord | None:
    for record in load_installs():
        if record.key == (env_key(python), name):
            return record
    return None


def put_record(record: InstallRecord) -> None:
    """Add (or replace) the record of its (environment, distribution)."""
    with records_lock():
        records = [r for r in load_installs() if r.key != record.key]
        records.append(record)
        _write_records(records)


def drop_record(python: Path | str, name: str, restore: InstallRecord | None = None) -> None:
    """Remove the record of ``name`` in ``python``; put ``restore`` (the record of what a
    roll-back brought back) in its place."""
    with records_lock():
        records = load_installs()
        kept = [r for r in records if r.key != (env_key(python), name)]
        if restore is not None:
            kept.append(restore)
        if kept != records:
            _write_records(kept)


# -- receipts (one per install, in its backup folder) ---------------------------------------


def write_receipt(folder: Path, record: InstallRecord, state: str) -> None:
    write_json(folder / RECEIPT, {"schema": RECEIPT_SCHEMA, "state": state, "updated": now(),
                                  "record": record.to_json()}, keep_previous=False)


def _parse_receipt(document: object) -> tuple[str, InstallRecord]:
    if not isinstance(document, dict) or document.get("schema") != RECEIPT_SCHEMA:
        raise ValueError("not an install receipt")
    return str(document["state"]), InstallRecord.from_json(document["record"])


def read_receipt(folder: Path) -> tuple[str, InstallRecord] | None:
    found = read_json(folder / RECEIPT, _parse_receipt, repair=False)
    return found.value if found.status is StateStatus.OK else None


def mark_receipt(folder: str | Path | None, state: str) -> None:
    if not folder:
        return
    receipt = read_receipt(Path(folder))
    if receipt is not None:
        write_receipt(Path(folder), receipt[1], state)


def undone(record: InstallRecord) -> bool:
    """Whether the install a record describes was undone: its receipt says it was rolled back
    (or never happened). Such a record, left in an older copy of installs.json, no longer
    describes anything installed: it protects nothing and is never brought back."""
    if not record.transaction:
        return False
    receipt = read_receipt(Path(record.transaction))
    return receipt is not None and receipt[0] in (ReceiptState.ROLLED_BACK, ReceiptState.FAILED)


def rebuild_records() -> list[InstallRecord]:
    """installs.json as the receipts tell it: per (environment, distribution), the newest
    install that was not rolled back."""
    newest: dict[tuple[str, str], tuple[str, InstallRecord]] = {}
    try:
        folders = sorted(p for p in backups_dir().iterdir() if p.is_dir())
    except OSError:
        return []
    for folder in folders:
        receipt = read_receipt(folder)
        if receipt is None or receipt[0] != ReceiptState.INSTALLED:
            continue
        state, record = receipt
        when = (record.installed or "") + folder.name
        if record.key not in newest or newest[record.key][0] <= when:
            newest[record.key] = (when, replace(record, rebuilt=True))
    return [record for _, record in newest.values()]


# -- journals (installs under way) ------------------------------------------------------------


def journal_path(transaction: str) -> Path:
    return journal_dir() / f"{transaction}.json"


def write_journal(entry: Record) -> Path:
    path = journal_path(str(entry["id"]))
    write_json(path, {"schema": JOURNAL_SCHEMA, **entry}, keep_previous=False)
    return path


def _parse_journal(document: object) -> Record:
    if not isinstance(document, dict) or document.get("schema") != JOURNAL_SCHEMA:
        raise ValueError("not an install journal")
    for key in ("id", "python", "name", "phase", "folder"):
        if not isinstance(document.get(key), str):
            raise ValueError(f"the journal has no {key!r}")
    for key in ("version", "root", "started", "kernel", "wheel", "adapter",
                "previous_version"):  # optional, text when given
        if document.get(key) is not None and not isinstance(document[key], str):
            raise ValueError(f"the journal's {key!r} is not text")
    members = document.get("members")
    if members is not None and not (isinstance(members, list)
                                    and all(isinstance(m, str) for m in members)):
        raise ValueError("the journal's 'members' is not a list of paths")
    if document.get("kind", "install") not in ("install", "rollback"):
        raise ValueError("the journal is of an unknown kind")
    for key in ("restore_record", "previous_record"):
        if document.get(key) is not None:
            InstallRecord.from_json(document[key])  # ValueError when it is not a record
    return document


@dataclass(frozen=True)
class JournalEntry:
    path: Path
    entry: Record | None  # None: damaged (kept aside; the notice says so)
    notice: str = ""


def journal_entries() -> list[JournalEntry]:
    try:
        paths = sorted(journal_dir().glob("*.json"))
    except OSError:
        return []
    found = []
    for path in paths:
        read = read_json(path, _parse_journal)
        if read.status is StateStatus.OK:
            found.append(JournalEntry(path, read.value))
        elif read.status is StateStatus.DAMAGED:
            found.append(JournalEntry(path, None, read.notice))
    return found


def remove_journal(transaction: str) -> None:
    journal_path(transaction).unlink(missing_ok=True)


__all__ = [
    "InstallRecord", "InstallsRead", "JournalEntry", "ReceiptState", "Record", "drop_record",
    "find_record", "installs_file", "journal_entries", "journal_path", "load_installs",
    "mark_receipt", "new_transaction_id", "put_record", "read_installs", "read_receipt",
    "rebuild_records", "remove_journal", "rewrite_records", "undone", "write_journal",
    "write_receipt",
]
