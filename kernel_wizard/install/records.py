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
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.locks import Held, hold
from kernel_wizard.base.messages import N_, join, msg
from kernel_wizard.base.paths import backups_dir, data_dir, env_key, journal_dir, locks_dir
from kernel_wizard.base.statefile import StateStatus, read_json, write_json

Record = dict[str, Any]

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


def rewrite_records() -> None:
    """Write the install list again as it is: proves, before an environment is changed, that
    the change can be recorded (a full disk or a read-only records file fail here, with
    nothing changed yet)."""
    with records_lock():
        write_json(installs_file(), load_installs())


def check_record(record: object) -> Record:
    """A record as the wizard writes it; raises ValueError naming what is wrong."""
    if not isinstance(record, dict):
        raise ValueError(f"a record is a {type(record).__name__}, not an object")
    for key in REQUIRED:
        value = record.get(key)
        if not isinstance(value, str) or not value:
            raise ValueError(f"a record has no {key!r}")
    for key in ("kernel", "adapter", "wheel", "backup", "installed", "transaction"):
        if record.get(key) is not None and not isinstance(record[key], str):
            raise ValueError(f"a record's {key!r} is not text")
    previous = record.get("previous")
    if previous is not None:
        check_record(previous)
    return record


def _parse_records(document: object) -> list[Record]:
    if not isinstance(document, list):
        raise ValueError(f"a list of records was expected, found a {type(document).__name__}")
    return [check_record(r) for r in document]


def _salvage(path: Path | None) -> list[Record]:
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
            found.append(check_record(item))
        except ValueError:
            continue
    return found


def key_of(record: Mapping[str, Any]) -> tuple[str, str]:
    """One environment and kernel: the environment by its identity, however its path was
    typed (records written before identities were kept compare equal too)."""
    return env_key(str(record["python"])), str(record["name"])


@dataclass(frozen=True)
class InstallsRead:
    records: list[Record]
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
    merged: dict[tuple[str, str], Record] = {}
    for record in [*(found.value or []), *_salvage(found.kept)]:
        if not undone(record):  # the previous copy may predate a roll-back
            merged[key_of(record)] = record
    for record in rebuilt:  # the receipts know the newest state of the wizard's own installs
        merged[key_of(record)] = record
    records = list(merged.values())
    notice: list[str] = [found.notice]
    if rebuilt:
        notice.append(msg("{n} install record(s) were rebuilt from the backups folder "
                          "({folder}).", n=len(rebuilt), folder=backups_dir()))
    try:
        write_json(path, records, keep_previous=False)
    except Exception:  # noqa: BLE001 - reading must work on a read-only data folder too
        notice.append(N_("The repaired list could not be saved yet."))
    text = join(notice)
    return InstallsRead(records, (text,) if text else ())


def load_installs() -> list[Record]:
    return read_installs().records


def find_record(python: Path | str, name: str) -> Record | None:
    for record in load_installs():
        if key_of(record) == (env_key(python), name):
            return record
    return None


def put_record(record: Record) -> None:
    """Add (or replace) the record of its (environment, distribution)."""
    check_record(record)
    with records_lock():
        records = [r for r in load_installs() if key_of(r) != key_of(record)]
        records.append(record)
        write_json(installs_file(), records)


def drop_record(python: Path | str, name: str, restore: Record | None = None) -> None:
    """Remove the record of ``name`` in ``python``; put ``restore`` (the record of what a
    roll-back brought back) in its place."""
    with records_lock():
        records = load_installs()
        kept = [r for r in records if key_of(r) != (env_key(python), name)]
        if restore is not None:
            kept.append(check_record(restore))
        if kept != records:
            write_json(installs_file(), kept)


# -- receipts (one per install, in its backup folder) ---------------------------------------


def write_receipt(folder: Path, record: Record, state: str) -> None:
    write_json(folder / RECEIPT, {"schema": RECEIPT_SCHEMA, "state": state, "updated": now(),
                                  "record": record}, keep_previous=False)


def _parse_receipt(document: object) -> tuple[str, Record]:
    if not isinstance(document, dict) or document.get("schema") != RECEIPT_SCHEMA:
        raise ValueError("not an install receipt")
    return str(document["state"]), check_record(document["record"])


def read_receipt(folder: Path) -> tuple[str, Record] | None:
    found = read_json(folder / RECEIPT, _parse_receipt, repair=False)
    return found.value if found.status is StateStatus.OK else None


def mark_receipt(folder: str | Path | None, state: str) -> None:
    if not folder:
        return
    receipt = read_receipt(Path(folder))
    if receipt is not None:
        write_receipt(Path(folder), receipt[1], state)


def undone(record: Mapping[str, Any]) -> bool:
    """Whether the install a record describes was undone: its receipt says it was rolled back
    (or never happened). Such a record, left in an older copy of installs.json, no longer
    describes anything installed: it protects nothing and is never brought back."""
    folder = record.get("transaction")
    if not isinstance(folder, str) or not folder:
        return False
    receipt = read_receipt(Path(folder))
    return receipt is not None and receipt[0] in (ReceiptState.ROLLED_BACK, ReceiptState.FAILED)


def rebuild_records() -> list[Record]:
    """installs.json as the receipts tell it: per (environment, distribution), the newest
    install that was not rolled back."""
    newest: dict[tuple[str, str], tuple[str, Record]] = {}
    try:
        folders = sorted(p for p in backups_dir().iterdir() if p.is_dir())
    except OSError:
        return []
    for folder in folders:
        receipt = read_receipt(folder)
        if receipt is None or receipt[0] != ReceiptState.INSTALLED:
            continue
        state, record = receipt
        when = str(record.get("installed") or "") + folder.name
        key = key_of(record)
        if key not in newest or newest[key][0] <= when:
            newest[key] = (when, dict(record, rebuilt=True))
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
    back = document.get("restore_record")
    if back is not None:
        check_record(back)  # ValueError when it is not a record
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
    "InstallsRead", "JournalEntry", "ReceiptState", "Record", "check_record", "drop_record",
    "find_record", "installs_file", "journal_entries", "journal_path", "load_installs",
    "mark_receipt", "new_transaction_id", "put_record", "read_installs", "read_receipt",
    "rebuild_records", "remove_journal", "rewrite_records", "undone", "write_journal",
    "write_receipt",
]
