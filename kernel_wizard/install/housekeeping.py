"""Housekeeping: old builds are removed, the ones that matter never are.

What the wizard leaves behind per build: the wheel's folder in staging
(``<data>/staging/<kernel>-<timestamp>``), its log (``<data>/logs/<timestamp>-<kernel>.log``) and,
in the build root, the copy of a bundled source or the fetched source tree with its compiled
objects (``<build root>/<name>-<hash>``, ``<build root>/src/<repo>-<ref>``). Left alone they add
up (462 MB after one test campaign; a FlashAttention build leaves GBs).

* After every build, :func:`prune_after_build` keeps the last :data:`KEEP` builds of that kernel
  and removes older ones (never raises: housekeeping must not fail a build).
* ``python -m app --headless clean [--all] [--dry-run]`` and the wizard's "Free space…" button
  use :func:`plan_clean` and :func:`clean`: the same rule for every kernel, or (``everything``)
  every old build and cached source.

Never removed: a folder in use (a running process has its working folder there or names a
path inside it on its command line, e.g. a build writing its wheel there), a folder the
current build uses, and anything an install record or other state file of the data folder
points to (``installs.json``: the installed wheel, the backup), the backups folder and the
verification reports (``--verify`` compares with them). A damaged ``installs.json`` protects
every staged build (what it pointed to cannot be known). Temporary folders of an interrupted
step are removed only once they are a day old (a step in another wizard may still write them).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.paths import data_dir, logs_dir, staging_dir
from kernel_wizard.base.statefile import DAMAGED_MARK, PREVIOUS_SUFFIX
from kernel_wizard.install.records import InstallRecord, undone
from kernel_wizard.machine.platforms import current as current_platform

KEEP = 3  # builds kept per kernel
LOG_KEEP = 10  # logs kept per kernel (small, and what a bug report needs)
TEMP_AGE_S = 24 * 3600  # a temporary folder younger than this may still be written to
SOURCE_RECORD = ".ksw-source.json"  # what a fetched source tree records (see .sources)
_STAMP = r"\d{8}-\d{6}"
_STAGED = re.compile(rf"^(?P<kernel>.+)-(?P<stamp>{_STAMP})(?:-\d+)?$")
_VERIFY = re.compile(rf"^verify-{_STAMP}-")
_LOG = re.compile(rf"^(?P<stamp>{_STAMP})-(?P<kernel>.+?)(?:-download)?\.log$")
_TMP_PREFIX = ".ksw-tmp-"


class Kind(Enum):
    """What an item is, in words."""

    BUILD = N_("build output")  # a staging folder: the wheel a build made (or tried to)
    LOG = N_("build log")
    SOURCE_COPY = N_("build folder")  # a copied (bundled) source with its compiled objects
    SOURCE_CACHE = N_("downloaded source")  # a fetched source tree, with its compiled objects
    TEMPORARY = N_("leftover temporary folder")


@dataclass(frozen=True)
class Item:
    """One file or folder the housekeeping looked at."""

    path: Path
    kind: Kind
    group: str  # the kernel (or source) it belongs to; KEEP is counted per group
    size: int  # bytes (-1: not measured yet; see :func:`measured`)
    age_key: str  # newer sorts later (a timestamp in the name, or the modification time)

    def to_json(self) -> dict[str, Any]:
        return {"path": str(self.path), "kind": self.kind.name.lower(),
                "what": self.kind.value, "group": self.group, "bytes": self.size}


def measured(item: Item) -> Item:
    return item if item.size >= 0 else replace(item, size=tree_size(item.path))


@dataclass(frozen=True)
class Kept:
    item: Item
    reason: str  # why it stays, in words

    def to_json(self) -> dict[str, Any]:
        return {**self.item.to_json(), "reason": self.reason}


@dataclass(frozen=True)
class CleanPlan:
    """What :func:`clean` would remove, and what it keeps on purpose (in use, installed)."""

    remove: tuple[Item, ...]
    protected: tuple[Kept, ...]
    keep: int

    @property
    def size(self) -> int:
        return sum(item.size for item in self.remove)


@dataclass(frozen=True)
class CleanResult:
    plan: CleanPlan
    removed: tuple[Item, ...]
    failed: tuple[tuple[Item, str], ...]  # what could not be removed, and why
    dry_run: bool

    @property
    def freed(self) -> int:
        return sum(item.size for item in self.removed)


def format_size(size: int) -> str:
    if size >= 1024**3:
        return f"{size / 1024**3:.1f} GB"
    if size >= 1024**2:
        return f"{size / 1024**2:.1f} MB"
    return f"{max(size, 0) / 1024:.0f} KB"


# -- looking ----------------------------------------------------------------------------------


def tree_size(path: Path) -> int:
    """Bytes of a file or a whole folder (links are not followed)."""
    try:
        info = path.lstat()
    except OSError:
        return 0
    if not stat.S_ISDIR(info.st_mode):
        return info.st_size
    total = 0
    for folder, dirs, files in os.walk(path, onerror=lambda _e: None):
        for name in [*files, *dirs]:
            try:
                entry = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if not stat.S_ISDIR(entry.st_mode):
                total += entry.st_size
    return total


def _mtime_key(path: Path) -> str:
    try:
        return f"{path.stat().st_mtime:020.6f}"
    except OSError:
        return ""


def _children(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def staged_builds(root: Path | None = None) -> Iterator[Item]:
    """The folders in staging: build outputs (per kernel) and leftover test unpackings."""
    base = root if root is not None else staging_dir(create=False)
    for path in _children(base):
        if not path.is_dir():
            continue
        if _VERIFY.match(path.name):
            yield Item(path, Kind.TEMPORARY, "verify", -1, _mtime_key(path))
            continue
        match = _STAGED.match(path.name)
        if match is not None:
            yield Item(path, Kind.BUILD, match.group("kernel"), -1,
                       match.group("stamp"))


def build_logs(root: Path | None = None) -> Iterator[Item]:
    base = root if root is not None else logs_dir(create=False)
    for path in _children(base):
        match = _LOG.match(path.name)
        if match is not None and path.is_file():
            yield Item(path, Kind.LOG, match.group("kernel"), -1,
                       match.group("stamp"))


def build_root_trees(root: Path) -> Iterator[Item]:
    """Copied sources in the build root and fetched sources in its ``src`` folder."""
    for path in _children(root):
        if not path.is_dir() or path.name == "src":
            continue
        if path.name.startswith(_TMP_PREFIX):
            yield Item(path, Kind.TEMPORARY, "temporary", -1, _mtime_key(path))
            continue
        yield Item(path, Kind.SOURCE_COPY, path.name.rsplit("-", 1)[0], -1,
                   _mtime_key(path))
    for path in _children(root / "src"):
        if not path.is_dir():
            continue
        if path.name.startswith(_TMP_PREFIX):
            yield Item(path, Kind.TEMPORARY, "temporary", -1, _mtime_key(path))
            continue
        yield Item(path, Kind.SOURCE_CACHE, _source_group(path), -1,
                   _mtime_key(path))


def _source_group(tree: Path) -> str:
    """A fetched source's repository (or archive), so that versions of one kernel count
    together: its record's URL or origin, else its name without the version."""
    try:
        record = read_json_file(tree / SOURCE_RECORD)
    except (OSError, ValueError):
        record = None
    if isinstance(record, dict):
        for key in ("url", "origin"):
            value = record.get(key)
            if isinstance(value, str) and value:
                return value
    return tree.name.rsplit("-", 1)[0]


# -- what must stay ---------------------------------------------------------------------------


def _paths_in(value: Any) -> Iterator[Path]:
    if isinstance(value, str):
        if os.path.isabs(value):
            yield Path(value)
    elif isinstance(value, dict):
        for inner in value.values():
            yield from _paths_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _paths_in(inner)


def recorded_paths(root: Path | None = None) -> list[Path] | None:
    """Every path the data folder's state files (``installs.json``, its previous copy and the
    other ``*.json`` there) point to; None when ``installs.json`` cannot be read or a damaged
    copy of it was kept aside (then nothing it might point to may go). Install records whose
    install was rolled back (:func:`~kernel_wizard.install.records.undone`) point to nothing."""
    base = root if root is not None else data_dir(create=False)
    found: list[Path] = []
    for state in _children(base):
        if state.name.startswith("installs.json" + DAMAGED_MARK):
            # a damaged install list kept aside at a start (statefile.py): what it pointed to
            # cannot be read, so nothing it may have pointed to goes until it is removed
            return None
        if not state.is_file() or not (state.suffix == ".json"
                                       or state.name.endswith(".json" + PREVIOUS_SUFFIX)):
            continue
        try:
            document = read_json_file(state)
        except (OSError, ValueError):
            if state.name == "installs.json":
                return None
            continue
        if state.name.startswith("installs.json") and isinstance(document, list):
            # a record whose install was rolled back (its receipt says so) points to nothing
            # that is installed: its build goes like any other ('installs' does not list it)
            document = [r for r in document if not _undone_json(r)]
        found += _paths_in(document)
    return found


def _undone_json(document: object) -> bool:
    """Whether ``document``, an item of an install list, is the record of an install that was
    rolled back; an item that is no record is kept (what it points to stays)."""
    try:
        return undone(InstallRecord.from_json(document))
    except ValueError:
        return False


def paths_in_use(roots: Sequence[Path]) -> list[Path]:
    """Paths under ``roots`` that a live process works in or names on its command line."""
    import psutil  # lazily: not needed before the first page (start-up time)

    resolved = [os.path.realpath(r) for r in roots]
    found: list[Path] = []

    def inside(text: str) -> bool:
        return any(text == r or text.startswith(r + os.sep) for r in resolved)

    for proc in psutil.process_iter(["cmdline", "cwd"]):
        info = proc.info
        cwd = info.get("cwd")
        if isinstance(cwd, str) and inside(os.path.realpath(cwd)):
            found.append(Path(os.path.realpath(cwd)))
        for part in info.get("cmdline") or ():
            candidates = [part, part.partition("=")[2]] if "=" in part else [part]
            for candidate in candidates:
                if candidate and os.path.isabs(candidate) \
                        and inside(os.path.realpath(candidate)):
                    found.append(Path(os.path.realpath(candidate)))
    return found


def _holds(item: Path, paths: Iterable[Path]) -> bool:
    """Whether ``item`` is one of ``paths`` or holds one of them."""
    mine = os.path.realpath(item)
    for other in paths:
        theirs = os.path.realpath(other)
        if theirs == mine or theirs.startswith(mine + os.sep):
            return True
    return False


# -- deciding ---------------------------------------------------------------------------------


def plan_clean(
    *,
    keep: int = KEEP,
    build_root: Path | None = None,
    protect: Sequence[Path] = (),
    only: Callable[[Item], bool] | None = None,
    now: float | None = None,
) -> CleanPlan:
    """What to remove: per kernel (per source) all but the newest ``keep`` builds, logs
    beyond the newest :data:`LOG_KEEP`, and temporary folders older than a day; nothing in
    use, nothing ``protect`` names, nothing a state file points to. ``only``: look at these
    items only (the kernel just built)."""
    root = build_root if build_root is not None else current_platform().default_build_root()
    items = [*staged_builds(), *build_logs(), *build_root_trees(root)]
    if only is not None:
        items = [item for item in items if only(item)]
    recorded = recorded_paths()
    in_use = paths_in_use([staging_dir(create=False), root])
    clock = time.time() if now is None else now
    remove: list[Item] = []
    protected: list[Kept] = []
    groups: dict[tuple[Kind, str], list[Item]] = {}
    for item in items:
        groups.setdefault((item.kind, item.group), []).append(item)
    for (kind, _group), members in groups.items():
        members.sort(key=lambda i: i.age_key, reverse=True)  # newest first
        limit = LOG_KEEP if kind is Kind.LOG else keep
        for index, item in enumerate(members):
            reason = ""
            if _holds(item.path, protect):
                reason = N_("the current build uses it")
            elif _holds(item.path, in_use):
                reason = N_("a running program uses it")
            elif recorded is None and kind is Kind.BUILD:
                reason = N_("installs.json is damaged: it may point here")
            elif recorded and _holds(item.path, recorded):
                reason = N_("an install record points to it")
            elif kind is Kind.TEMPORARY:
                if clock - _mtime(item.path) < TEMP_AGE_S:
                    reason = N_("less than a day old: a step may still write it")
            elif index < limit:
                continue  # one of the newest: kept, and not worth mentioning
            if reason:
                protected.append(Kept(measured(item), reason))
            else:
                remove.append(measured(item))
    return CleanPlan(tuple(remove), tuple(protected), keep)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


# -- removing ---------------------------------------------------------------------------------


def _remove(path: Path) -> None:
    def unlock(func: Callable[..., Any], target: str, _exc: Any) -> None:
        os.chmod(target, stat.S_IWRITE | stat.S_IREAD | stat.S_IEXEC)  # read-only files (git)
        func(target)

    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, onerror=unlock)
    else:
        path.unlink()


def clean(plan: CleanPlan, *, dry_run: bool = False) -> CleanResult:
    """Remove what ``plan`` lists (nothing with ``dry_run``); what cannot be removed is
    reported with the reason, the rest is removed anyway."""
    if dry_run:
        return CleanResult(plan, plan.remove, (), True)
    removed: list[Item] = []
    failed: list[tuple[Item, str]] = []
    for item in plan.remove:
        try:
            _remove(item.path)
        except OSError as exc:
            from kernel_wizard.base.paths import storage_error

            left = tree_size(item.path)
            if left < item.size:  # part of it went
                removed.append(Item(item.path, item.kind, item.group, item.size - left,
                                    item.age_key))
            action = msg("remove {path}", path=item.path)
            failed.append((item, storage_error(exc, path=item.path, action=action).describe()))
        else:
            removed.append(item)
    return CleanResult(plan, tuple(removed), tuple(failed), False)


def prune_after_build(kernel: str, protect: Sequence[Path], *, keep: int = KEEP,
                      build_root: Path | None = None) -> CleanResult | None:
    """After a build of ``kernel``: keep its newest ``keep`` builds (and whatever
    ``protect`` names: the build just made), remove older ones. Never raises: the result, or
    None when housekeeping could not run."""
    try:
        root = build_root if build_root is not None \
            else current_platform().default_build_root()
        real_root = os.path.realpath(root)
        copies = {p.name.rsplit("-", 1)[0] for p in protect
                  if os.path.realpath(p.parent) == real_root}
        sources = {_source_group(p) for p in protect
                   if os.path.realpath(p.parent) == os.path.join(real_root, "src")}
    except Exception:  # noqa: BLE001 - housekeeping never fails a build
        return None

    def mine(item: Item) -> bool:
        if item.kind in (Kind.BUILD, Kind.LOG):
            return item.group == kernel
        if item.kind is Kind.SOURCE_CACHE:
            return item.group in sources
        return item.kind is Kind.SOURCE_COPY and item.group in copies

    try:
        return clean(plan_clean(keep=keep, build_root=root, protect=protect, only=mine))
    except Exception:  # noqa: BLE001 - housekeeping never fails a build
        return None


__all__ = [
    "KEEP", "CleanPlan", "CleanResult", "Item", "Kept", "Kind", "clean", "format_size",
    "plan_clean", "prune_after_build", "recorded_paths", "tree_size",
]
