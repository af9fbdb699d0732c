"""Install a verified wheel into the target environment as a journaled transaction.

One install, start to end, while holding the environment's lock (:mod:`.locks`):

1. a journal (``journal/<id>.json``, :mod:`.records`) says what is about to happen — written
   *before* anything is copied or pip starts;
2. the files of the version already installed (if any) are copied into the install's own
   folder in ``backups/`` (:func:`backup_distribution`);
3. ``pip install --no-deps --force-reinstall`` runs;
4. the install is recorded (``installs.json`` and a receipt in its backup folder) and the
   journal removed.

If pip fails or is cancelled, the previous files are put back at once (:func:`restore`): what
pip left of the new version is removed, pip's ``~…`` stash folders are cleaned, the backup is
copied back. If the process is killed, the journal stays; the next start of the wizard (GUI or
CLI) calls :func:`recover_interrupted`, which finishes an install that had completed (it is
recorded) or rolls back one that had not — and says which. :func:`rollback_install` undoes a
recorded install on request and brings the record of what it had replaced back.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import zipfile
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name, parse_wheel_filename

from kernel_wizard.base.advice import choose_python, cli_command, cli_prefix
from kernel_wizard.base.errors import ProcessError, WizardError
from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.locks import Held, LockBusy
from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.base.oserrors import cause_of, fix_for, words
from kernel_wizard.base.paths import (
    DATA_DIR_ALTERNATIVE,
    backups_dir,
    data_dir,
    hold_env,
    journal_dir,
    same_env,
    timestamp,
)
from kernel_wizard.base.process_guard import shielded
from kernel_wizard.base.processes import CapturedOutput, run_captured
from kernel_wizard.base.resources import resource_path
from kernel_wizard.base.statefile import write_json
from kernel_wizard.install.records import (
    InstallRecord,
    InstallsRead,
    JournalEntry,
    ReceiptState,
    Record,
    drop_record,
    find_record,
    installs_file,
    journal_entries,
    load_installs,
    mark_receipt,
    new_transaction_id,
    now,
    put_record,
    read_installs,
    read_receipt,
    remove_journal,
    rewrite_records,
    write_journal,
    write_receipt,
)

BEGIN = "@@KSW-DIST-BEGIN@@"
END = "@@KSW-DIST-END@@"
PIP_STASH_CHARS = "-~.=%0123456789"  # pip's AdjacentTempDirectory: "~" + these + a name's tail
PREVIOUS_DEPTH = 3  # records kept in a record's chain of what it replaced

Say = Callable[[str], None]


class InstallError(WizardError):
    """Installing into (or restoring) the target environment failed."""


@dataclass(frozen=True)
class Backup:
    """The files of a distribution as they were before an install replaced them."""

    name: str
    version: str
    root: Path  # site-packages (the folder the distribution's file paths are relative to)
    folder: Path  # where the copies are
    files: tuple[str, ...]

    def manifest(self) -> Path:
        return self.folder / "backup.json"


@dataclass(frozen=True)
class InstallResult:
    name: str
    version: str
    python: Path
    wheel: Path
    previous: Backup | None  # None when nothing was installed before
    seconds: float
    output: str
    transaction: Path | None = None  # the install's folder in backups/ (receipt, copies)


@dataclass(frozen=True)
class RollbackResult:
    name: str
    python: Path
    removed_version: str
    restored: Backup | None  # None: nothing was installed before; the kernel was removed
    restored_record: InstallRecord | None  # the wizard's record of what is back, if it made it

    @property
    def message(self) -> Msg:
        if self.restored is None:
            return msg("Removed {name} {version} from {python}; nothing was installed there "
                       "before.", name=self.name, version=self.removed_version,
                       python=self.python)
        text = msg("Removed {name} {version} and put back {restored} {restored_version} in "
                   "{python}.", name=self.name, version=self.removed_version,
                   restored=self.restored.name, restored_version=self.restored.version,
                   python=self.python)
        if self.restored_record is not None:
            status = self.restored_record.verification_status
            if status == "pass":
                return join((text, N_("Its verification had passed.")))
            if status:
                return join((text, msg("Its verification had {status}.", status=status)))
        return text


def _run_python(python: Path, args: list[str], timeout: float = 600) -> CapturedOutput:
    """Raises :class:`~kernel_wizard.base.errors.ProcessError` (cannot start, time limit)."""
    with shielded():  # a stop request (a signal) lets pip finish: never half-installed
        return run_captured([str(python), *args], timeout_s=timeout)


def installed_files(python: Path, name: str, check: bool = False) -> dict[str, Any]:
    """What the target environment has installed of ``name`` (``found`` False if nothing);
    ``purelib``: where pip installs; with ``check``, ``complete``: every file as recorded."""
    probe = [str(resource_path("probes", "dist_files.py")), name, *(["--check"] if check else [])]
    try:
        result = _run_python(python, probe, 120)
    except ProcessError as exc:
        raise InstallError(msg("Could not ask {python} which files of {name} it has "
                               "installed.", python=python, name=name),
                           why=exc.describe(),
                           hint=N_("Check that this Python environment still works (the "
                                   "Hardware page).")) from exc
    out = result.stdout
    begin, end = out.rfind(BEGIN), out.rfind(END)
    if begin < 0 or end < begin:
        raise InstallError(
            msg("Could not ask {python} which files of {name} it has installed.",
                python=python, name=name),
            why=(result.stderr or out).strip()[-500:],
            hint=msg("Check that this Python environment still works, or {choose}.",
                     choose=words(choose_python())),
        )
    data: dict[str, Any] = json.loads(out[begin + len(BEGIN) : end])
    return data


def _copy_backup(info: Mapping[str, Any], folder: Path) -> Backup:
    root = Path(info["root"])
    kept: list[str] = []
    for relative in info.get("files", []):
        source = (root / relative).resolve()
        if not source.is_file() or source.suffix == ".pyc":
            continue  # byte-code caches are rebuilt; scripts outside root may be absent
        try:
            source.relative_to(root.resolve())
        except ValueError:
            continue  # files outside site-packages (console scripts) are restored by pip
        target = folder / "files" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        kept.append(relative)
    backup = Backup(str(info["name"]), str(info["version"]), root, folder, tuple(kept))
    write_json(backup.manifest(), {**asdict(backup), "root": str(root), "folder": str(folder)},
               keep_previous=False)
    return backup


def backup_distribution(python: Path, name: str, into: Path | None = None) -> Backup | None:
    """Copy the installed files of ``name`` aside (into a new folder in ``into``, default
    ``backups/``); None when it is not installed."""
    info = installed_files(python, name)
    if not info.get("found"):
        return None
    folder = (into or backups_dir()) / f"{canonicalize_name(name)}-{info['version']}-{timestamp()}"
    folder.mkdir(parents=True, exist_ok=True)
    return _copy_backup(info, folder)


def load_backup(folder: Path) -> Backup | None:
    """The backup kept in ``folder``; None when the folder holds none (nothing was installed
    before that install) or its manifest is unreadable."""
    try:
        data = read_json_file(folder / "backup.json")
        files = data["files"]
        if not (isinstance(files, list) and all(isinstance(f, str) for f in files)) or not all(
                isinstance(data[k], str) for k in ("name", "version", "root")):
            return None  # not the manifest this module writes
        return Backup(data["name"], data["version"], Path(data["root"]), folder, tuple(files))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def wheel_members(wheel: Path) -> list[str]:
    """The files a wheel puts into site-packages (its ``.data`` scripts are pip's to place)."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            names = archive.namelist()
    except (OSError, zipfile.BadZipFile):
        return []
    return [n for n in names if not n.endswith("/") and ".data/" not in n.split("/", 1)[0] + "/"]


# -- undoing what pip did -------------------------------------------------------------------


def _top_names(paths: Iterable[str]) -> set[str]:
    return {p.replace("\\", "/").split("/", 1)[0] for p in paths if p}


def is_pip_stash(entry: str, name: str) -> bool:
    """Whether ``entry`` is a name pip's AdjacentTempDirectory makes for ``name``: ``~``, then
    pip's leading characters, then the rest of the name (same length), or the whole name."""
    if not entry.startswith("~") or entry == name:
        return False
    if len(entry) == len(name):
        return any(entry[i:] == name[i:] and all(c in PIP_STASH_CHARS for c in entry[1:i])
                   for i in range(1, len(name)))
    prefix = len(entry) - len(name)
    return prefix > 0 and entry.endswith(name) and all(c in PIP_STASH_CHARS
                                                         for c in entry[1:prefix])


def clean_pip_stash(root: Path, names: Iterable[str]) -> list[Path]:
    """Remove pip's stash folders of ``names`` (top-level entries of site-packages) that a
    cut-off pip run left behind (see :func:`is_pip_stash`)."""
    removed: list[Path] = []
    targets = {n for n in names if n}
    try:
        entries = list(root.iterdir())
    except OSError:
        return removed
    for entry in entries:
        if not any(is_pip_stash(entry.name, t) for t in targets):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        removed.append(entry)
    return removed


def _remove_leftovers(root: Path, members: Iterable[str]) -> None:
    """Delete what a (partial) install of a wheel put into ``root``: its files, its
    dist-info folder and the byte-code caches of its packages."""
    members = list(members)
    folders: set[Path] = set()
    for member in members:
        path = root / member
        if path.is_file() or path.is_symlink():
            path.unlink(missing_ok=True)
        folders.add(path.parent)
    for top in _top_names(members):
        path = root / top
        if top.endswith(".dist-info") and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        elif path.is_dir():
            for cache in path.rglob("__pycache__"):
                shutil.rmtree(cache, ignore_errors=True)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        while folder != root and root in folder.parents:
            try:
                folder.rmdir()  # only when empty
            except OSError:
                break
            folder = folder.parent


def _same_record(backup: Backup) -> bool:
    """Whether what is installed is exactly the backed-up install (its RECORD is the same
    file): a reinstall of the same version is not "untouched"."""
    records = [f for f in backup.files if f.replace("\\", "/").endswith(".dist-info/RECORD")]
    if not records:
        return False
    try:
        return all((backup.folder / "files" / f).read_bytes() == (backup.root / f).read_bytes()
                   for f in records)
    except OSError:
        return False


def restore(python: Path, name: str, root: Path | None, members: Iterable[str],
            backup: Backup | None) -> None:
    """Put the environment back as it was before a (partial or complete) install of a wheel
    with ``members``: the new files go, pip's stash folders go, the backup comes back.

    Raises :class:`InstallError` when the environment could not be put back."""
    members = list(members)
    info = installed_files(python, name, check=True)
    root = root or (Path(info["root"]) if info.get("root") else None) or \
        (Path(info["purelib"]) if info.get("purelib") else None)
    untouched = (backup is not None and info.get("found") and info.get("complete")
                 and info.get("version") == backup.version and _same_record(backup))
    if not untouched:
        if info.get("found") and info.get("version") != (backup.version if backup else None):
            try:  # also removes console scripts pip placed outside site-packages
                _run_python(python, ["-m", "pip", "uninstall", "-y", "--no-input",
                                     "--disable-pip-version-check", name])
            except ProcessError:
                pass  # what is left is removed file by file below
        if root is not None:
            _remove_leftovers(root, members)
        if backup is not None:
            for relative in backup.files:
                source = backup.folder / "files" / relative
                target = backup.root / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
    if root is not None:
        clean_pip_stash(root, _top_names([*members, *(backup.files if backup else ())]))
    after = installed_files(python, name, check=True)
    if backup is not None and (not after.get("found") or after.get("version") != backup.version
                               or not after.get("complete")):
        raise InstallError(
            msg("Could not put {name} {version} back into {python}.", name=backup.name,
                version=backup.version, python=python),
            why="; ".join(after.get("problems") or []) or
            f"the environment has {after.get('version') or 'nothing'} of {name}",
            hint=msg("Close programs that use this environment, then run '{command}'. The "
                     "copies are in {folder}.",
                     command=cli_command("rollback", "--python", str(python)),
                     folder=backup.folder))
    if backup is None and after.get("found"):
        raise InstallError(msg("Could not remove {name} {version} from {python}.", name=name,
                               version=after.get("version"), python=python),
                           why="; ".join(after.get("problems") or []),
                           hint=N_("Close programs that use this environment, then try "
                                   "again."))


# -- the transaction ------------------------------------------------------------------------


LOCK_TAG = "[lock]"  # as the build's own lines about its folder's lock (pipeline.build_slot)


def lock_line(text: str) -> Msg:
    """A line about the environment's lock, tagged as the build tags its own: the CLI shows
    such lines always (not only with --verbose) and the build's log keeps them."""
    return join((LOCK_TAG, text))


def _env_lock(python: Path, purpose: str, say: Say | None,
              cancel: threading.Event | None) -> AbstractContextManager[Held]:
    """The environment's lock; a wait for another run is told to ``say`` once, naming that run
    (process, command, start time, what it does), as a build names the one it waits for."""
    on_wait = (lambda text: say(lock_line(text))) if say is not None else None
    return hold_env(python, purpose, on_wait=on_wait, cancel=cancel)


def install_wheel(
    python: Path,
    wheel: Path,
    *,
    on_line: Say | None = None,
    backup_into: Path | None = None,
    kernel: str | None = None,
    adapter: str | None = None,
    verification: Mapping[str, Any] | None = None,
    cancel: threading.Event | None = None,
) -> InstallResult:
    """``pip install`` the wheel (no dependencies touched) as a journaled transaction; the old
    files are restored on failure. ``verification``: what the record says of the check made
    before (status, report). Waits (saying so) while another run installs into ``python``."""
    name = str(parse_wheel_filename(wheel.name)[0])
    with _env_lock(python, f"installing {name} into {python}", on_line, cancel) as held:
        if held.took_over is not None and on_line is not None:
            on_line(lock_line(msg("The lock on this environment left by {holder} — no longer "
                                  "running — was taken over.", holder=held.took_over.describe())))
        for notice in recover_interrupted(python, locked=True):
            if on_line is not None:
                on_line(notice)
        return _install_locked(python, wheel, on_line, backup_into, kernel, adapter,
                               verification)


def _install_locked(python: Path, wheel: Path, on_line: Say | None, backup_into: Path | None,
                    kernel: str | None, adapter: str | None,
                    verification: Mapping[str, Any] | None) -> InstallResult:
    started = time.monotonic()
    name_v, version_v, _, _ = parse_wheel_filename(wheel.name)
    name, version = str(name_v), str(version_v)
    transaction = new_transaction_id(canonicalize_name(name))
    folder = (backup_into or backups_dir()) / transaction
    info = installed_files(python, name)
    members = wheel_members(wheel)
    journal: Record = {
        "id": transaction, "phase": "backup", "python": str(python), "name": name,
        "version": version, "wheel": str(wheel), "kernel": kernel, "adapter": adapter,
        "verification": dict(verification) if verification else None, "folder": str(folder),
        "root": info.get("root") or info.get("purelib"), "members": members,
        "previous_version": info.get("version") if info.get("found") else None,
        "previous_record": _previous_json(find_record(python, name)), "pid": os.getpid(),
        "started": now(),
    }
    write_journal(journal)  # before anything changes
    try:
        folder.mkdir(parents=True, exist_ok=True)
        previous = _copy_backup(info, folder) if info.get("found") else None
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        remove_journal(transaction)
        raise InstallError(msg("Could not keep a copy of {name} {version} before replacing "
                               "it; nothing was changed.", name=name,
                               version=info.get("version")),
                           why=f"{exc.strerror or exc} ({exc.filename or folder})",
                           hint=fix_for(cause_of(exc, folder), folder,
                                        DATA_DIR_ALTERNATIVE)) from exc
    write_journal({**journal, "phase": "install"})  # pip may change the environment now
    command = ["-m", "pip", "install", "--no-deps", "--force-reinstall", "--no-input",
               "--disable-pip-version-check", str(wheel)]
    try:
        result = _run_python(python, command)
    except (ProcessError, KeyboardInterrupt) as exc:
        _undo(python, journal, previous)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise InstallError(msg("Installing {wheel} did not finish; the environment was "
                               "restored.", wheel=wheel.name), why=exc.describe(),
                           hint=N_("Check that this Python environment still works, then try "
                                   "again.")) from exc
    output = result.stdout + result.stderr
    if on_line is not None:
        for line in output.splitlines():
            on_line(line)
    if result.returncode != 0:
        _undo(python, journal, previous)
        raise InstallError(
            msg("Installing {wheel} failed; the environment was restored.", wheel=wheel.name),
            why=output.strip()[-800:],
            hint=N_("See the message above; nothing of the new build remains installed."),
        )
    root = Path(journal["root"]) if journal["root"] else None
    if root is not None:
        clean_pip_stash(root, _top_names([*members, *(previous.files if previous else ())]))
    _commit(journal)
    return InstallResult(name, version, python, wheel, previous, time.monotonic() - started,
                         output, folder)


def _previous_json(record: InstallRecord | None) -> Record | None:
    """What the journal keeps of the record an install replaces: the record with at most
    :data:`PREVIOUS_DEPTH` records of what it replaced in turn."""
    chained = record.chained(PREVIOUS_DEPTH) if record is not None else None
    return chained.to_json() if chained is not None else None


def _record_of(journal: Mapping[str, Any]) -> InstallRecord:
    folder = Path(journal["folder"])
    previous = journal.get("previous_record")
    return InstallRecord(
        name=journal["name"], version=journal["version"], python=journal["python"],
        wheel=journal.get("wheel"), kernel=journal.get("kernel"),
        adapter=journal.get("adapter"),
        backup=str(folder) if load_backup(folder) is not None else None,
        transaction=str(folder), installed=now(),
        verification=journal.get("verification"),
        previous=InstallRecord.from_json(previous) if previous is not None else None,
    )


def _commit(journal: Mapping[str, Any]) -> InstallRecord:
    record = _record_of(journal)
    write_receipt(Path(journal["folder"]), record, ReceiptState.INSTALLED)
    put_record(record)
    remove_journal(str(journal["id"]))
    return record


def _undo(python: Path, journal: Mapping[str, Any], previous: Backup | None) -> None:
    """After a failed or cancelled pip run: put the environment back; the journal stays when
    that fails (the next start tries again)."""
    try:
        restore(python, str(journal["name"]), Path(journal["root"]) if journal["root"] else None,
                journal.get("members") or [], previous)
    except WizardError as exc:
        raise InstallError(
            msg("Installing {name} failed, and the environment could not be put back as it "
                "was.", name=journal["name"]), why=exc.describe(),
            hint=msg("Start the wizard (or any '{command}' command) again: it finishes "
                     "undoing the install.", command=cli_prefix())) from exc
    shutil.rmtree(Path(journal["folder"]) / "files", ignore_errors=True)
    remove_journal(str(journal["id"]))


# -- recovery of installs that were cut off ---------------------------------------------------


def _recover_one(entry: Mapping[str, Any]) -> Msg:
    if entry.get("kind") == "rollback":
        return _recover_rollback(entry)
    python = Path(entry["python"])
    name, version = str(entry["name"]), str(entry.get("version") or "?")
    what = {"name": name, "version": version, "python": python, "started": entry.get("started")}
    folder = Path(entry["folder"])
    if entry["phase"] == "backup":  # pip had not started: nothing in the environment changed
        shutil.rmtree(folder, ignore_errors=True)
        remove_journal(str(entry["id"]))
        return msg("The install of {name} {version} into {python} (started {started}) was "
                   "interrupted before it changed anything; nothing needed undoing.", **what)
    if not python.exists():
        remove_journal(str(entry["id"]))
        return msg("The install of {name} {version} into {python} (started {started}) was "
                   "interrupted, and that Python no longer exists; nothing to undo.", **what)
    info = installed_files(python, name, check=True)
    kept = load_backup(folder)
    if info.get("found") and kept is not None and kept.version == entry.get("version") and \
            _same_record(kept):
        # a reinstall of the same version cut before pip replaced a file: what is installed
        # is still the earlier build, byte for byte (its RECORD), and so is its record
        shutil.rmtree(folder, ignore_errors=True)
        remove_journal(str(entry["id"]))
        return msg("The reinstall of {name} {version} into {python} (started {started}) was "
                   "interrupted before pip changed anything; the earlier build is still "
                   "installed and recorded.", **what)
    if info.get("found") and info.get("version") == entry.get("version") and \
            info.get("complete"):
        root = Path(entry["root"]) if entry.get("root") else Path(info["root"])
        clean_pip_stash(root, _top_names([*(entry.get("members") or []),
                                          *(kept.files if kept is not None else ())]))
        _commit(entry)
        return msg("The install of {name} {version} into {python} (started {started}) was "
                   "interrupted after pip had finished; it was completed and is now recorded "
                   "(roll it back with '{command}').", command=cli_command("rollback"), **what)
    previous = load_backup(folder)
    restore(python, name, Path(entry["root"]) if entry.get("root") else None,
            entry.get("members") or [], previous)
    write_receipt(folder, _record_of(entry), ReceiptState.FAILED)
    shutil.rmtree(folder / "files", ignore_errors=True)
    remove_journal(str(entry["id"]))
    if previous is not None:
        return msg("The install of {name} {version} into {python} (started {started}) was "
                   "interrupted; it was rolled back: {previous} {previous_version} is installed "
                   "again, as before.", previous=previous.name,
                   previous_version=previous.version, **what)
    return msg("The install of {name} {version} into {python} (started {started}) was "
               "interrupted; it was rolled back: the half-installed {name} was removed.", **what)


def recover_interrupted(python: Path | None = None, *, locked: bool = False) -> list[str]:
    """Finish or roll back installs that were cut off (a journal is left); one notice each.

    ``python``: only that environment's (``locked``: its lock is held by the caller). Installs
    that another run is doing right now are left alone. Never raises: a failure is a notice."""
    notices: list[str] = []
    for found in journal_entries():
        if found.entry is None:
            notices.append(join((found.notice, msg("Run '{command}' to see what the wizard "
                                                   "installed.",
                                                   command=cli_command("installs")))))
            continue
        entry = found.entry
        if python is not None and not same_env(entry["python"], python):
            continue
        try:
            if locked:
                notices.append(_recover_one(entry))
                continue
            with hold_env(Path(entry["python"]), "finishing an interrupted install",
                          wait=False):
                notices.append(_recover_one(entry))
        except LockBusy:
            continue  # being installed right now by another run: not interrupted
        except WizardError as exc:
            notices.append(msg("An interrupted install of {name} into {python} could not be "
                               "finished or rolled back yet. {error}", name=entry["name"],
                               python=entry["python"], error=exc.describe()))
        except OSError as exc:
            notices.append(msg("An interrupted install of {name} into {python} could not be "
                               "rolled back yet: {error}. The next start tries again.",
                               name=entry["name"], python=entry["python"],
                               error=exc.strerror or exc))
    return notices


def unfinished_installs() -> list[JournalEntry]:
    return journal_entries()


def has_journals() -> bool:
    """Whether an install journal exists (cheap: no file is parsed, nothing is started)."""
    try:
        return any(journal_dir().glob("*.json"))
    except OSError:
        return False


def startup_notices() -> list[str]:
    """What a start of the wizard (GUI or CLI) must tell first: a damaged install list that
    was repaired, and installs that were cut off and have now been finished or rolled back."""
    try:
        if not data_dir(create=False).is_dir():
            return []  # a first start: nothing to recover, and no data folder is made for it
    except OSError:
        pass

    def repaired() -> list[str]:
        return list(read_installs().notices)

    notices: list[str] = []
    steps: tuple[Callable[[], list[str]], ...] = (repaired, recover_interrupted)
    for step in steps:
        try:
            notices += step()
        except WizardError as exc:
            notices.append(exc.describe())
        except OSError as exc:  # e.g. a data folder that cannot be read: the command says more
            error = exc.strerror or exc
            notices.append(msg("The wizard's install records could not be checked: {error} "
                               "({file}).", error=error, file=exc.filename) if exc.filename else
                           msg("The wizard's install records could not be checked: {error}.",
                               error=error))
    return notices


# -- roll-back on request -----------------------------------------------------------------------


def rollback_install(python: Path, name: str, *, on_line: Say | None = None,
                     cancel: threading.Event | None = None) -> RollbackResult:
    """Undo the wizard's install of ``name`` in ``python``: remove it, put back what it
    replaced, and bring back the record of that (when the wizard had installed it)."""
    with _env_lock(python, f"rolling back {name} in {python}", on_line, cancel):
        for notice in recover_interrupted(python, locked=True):
            if on_line is not None:
                on_line(notice)
        record = find_record(python, name)
        if record is None:
            raise InstallError(msg("The wizard has no record of installing {name} into "
                                   "{python}.", name=name, python=python),
                               hint=msg("'{command}' lists what it installed.",
                                        command=cli_command("installs")))
        return _rollback_locked(python, name, record, rollback_backup(record))


def rollback_backup(record: InstallRecord) -> Backup | None:
    """What a roll-back of ``record`` puts back: its backup, or None when nothing was installed
    before it. Raises :class:`InstallError` when the copy it recorded is gone."""
    folder = record.transaction or record.backup
    backup = load_backup(Path(folder)) if folder else None
    if backup is None and record.backup:
        raise InstallError(msg("The copy of what {name} replaced in {python} is missing.",
                               name=record.name, python=record.python),
                           why=f"{record.backup} has no backup.json",
                           hint=N_("Reinstall the version you want instead."))
    return backup


def _rollback_locked(python: Path, name: str, record: InstallRecord | None,
                     backup: Backup | None) -> RollbackResult:
    """The roll-back as a transaction: (1) the records are written once unchanged, proving
    that the result can be recorded (a full disk or a read-only records file stop here, with
    nothing changed); (2) a journal says what is being undone; (3) the environment is put back;
    (4) the records follow; (5) the journal goes. A roll-back cut off anywhere after (2) is
    finished by the next start (:func:`recover_interrupted`), so ``installs`` never lists a
    version the environment no longer has."""
    info = installed_files(python, name)
    removed = str(info.get("version") or (record.version if record is not None else "?"))
    members: list[str] = []
    wheel = Path(record.wheel) if record is not None and record.wheel else None
    if wheel is not None:
        members = wheel_members(wheel)
    if not members and info.get("found"):
        members = [str(f) for f in info.get("files", [])]
    root = Path(info["root"]) if info.get("root") else None
    previous = record.previous if record is not None else None
    back = previous if backup is not None and previous is not None \
        and previous.version == backup.version else None
    rewrite_records()
    journal: Record = {
        "id": new_transaction_id(f"rollback-{canonicalize_name(name)}"), "kind": "rollback",
        "phase": "rollback", "python": str(python), "name": name, "version": removed,
        "folder": str(backup.folder) if backup is not None else "",
        "root": str(root) if root is not None else None, "members": members,
        "restore_record": back.to_json() if back is not None else None,
        "transaction": record.transaction if record is not None else None,
        "started": now(),
    }
    write_journal(journal)
    _finish_rollback(journal, backup)
    return RollbackResult(name, python, removed, backup, back)


def _finish_rollback(journal: Mapping[str, Any], backup: Backup | None) -> None:
    """Steps (3) to (5) of a roll-back; each may run again after a crash (restore() checks what
    is there first, the records are set, not appended)."""
    python, name = Path(journal["python"]), str(journal["name"])
    restore(python, name, Path(journal["root"]) if journal.get("root") else None,
            journal.get("members") or [], backup)
    back = journal.get("restore_record")
    drop_record(python, name,
                restore=InstallRecord.from_json(back) if back is not None else None)
    if journal.get("transaction"):
        mark_receipt(journal.get("transaction"), ReceiptState.ROLLED_BACK)
    remove_journal(str(journal["id"]))


def _recover_rollback(entry: Mapping[str, Any]) -> Msg:
    python = Path(entry["python"])
    what = {"name": entry["name"], "version": entry.get("version") or "?", "python": python,
            "started": entry.get("started")}
    if not python.exists():
        remove_journal(str(entry["id"]))
        drop_record(python, str(entry["name"]), restore=None)
        return msg("A roll-back of {name} {version} in {python} (started {started}) was "
                   "interrupted, and that Python no longer exists; its record was removed.",
                   **what)
    backup = load_backup(Path(entry["folder"])) if entry.get("folder") else None
    if entry.get("folder") and backup is None:
        raise InstallError(msg("The copy of what {name} replaced in {python} is missing.",
                               name=entry["name"], python=python),
                           why=f"{entry['folder']} has no backup.json",
                           hint=N_("Reinstall the version you want instead."))
    _finish_rollback(entry, backup)
    if backup is not None:
        return msg("A roll-back of {name} {version} in {python} (started {started}) was "
                   "interrupted; it was finished: {previous} {previous_version} is installed "
                   "again.", previous=backup.name, previous_version=backup.version, **what)
    return msg("A roll-back of {name} {version} in {python} (started {started}) was "
               "interrupted; it was finished: {name} was removed.", **what)


def rollback(python: Path, name: str, backup: Backup | None) -> RollbackResult:
    """Remove what the wizard installed of ``name`` and put ``backup`` (if any) back; the
    install records are updated to match (the record of what is back returns)."""
    with _env_lock(python, f"rolling back {name} in {python}", None, None):
        return _rollback_locked(python, name, find_record(python, name), backup)


__all__ = [
    "Backup", "InstallError", "InstallRecord", "InstallResult", "InstallsRead", "RollbackResult",
    "backup_distribution", "clean_pip_stash", "has_journals", "install_wheel", "installed_files",
    "installs_file", "load_backup", "load_installs", "read_installs", "read_receipt",
    "recover_interrupted", "restore", "rollback", "rollback_backup", "rollback_install",
    "startup_notices",
    "unfinished_installs",
]
