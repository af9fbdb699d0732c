"""Get a kernel's source tree into a short, cached build root: git, archive + submodules, local.

Routes (:func:`fetch_source`):

* **git** (when git is installed): ``git clone --no-checkout [--filter=blob:none]``, the tag or
  commit resolved with ``rev-parse <ref>^{commit}`` (and checked against the commit the recipe
  expects: a moved tag is refused), ``checkout --detach``, then ``git submodule update --init
  --recursive`` for the submodules the recipe needs, each at the commit the superproject pins.
  Every git command gets the platform's ``git -c`` settings (Windows: ``core.longpaths=true``)
  plus ``core.autocrlf=false``, so that the bytes are upstream's on every OS. git's progress
  lines go to ``on_line``; ``cancel`` stops the whole git process tree.
* **archive** (git absent, or git failed — not for an unknown tag or a full disk): the
  repository's source archive at the commit (or tag) through :func:`build_backend.download.download`
  (resumable, verified), then each submodule's archive at its pinned commit, extracted into
  the submodule's folder (a GitHub archive has none). The URL builders are
  :class:`SourceHosts` (GitHub by default; tests point them at a loopback server).
* **local**: :func:`prepare_local` checks a folder the user chose (built in place: no copy) —
  a ``setup.py`` or ``pyproject.toml``, and every submodule the recipe needs populated (the
  recipe's marker file, e.g. ``include/cutlass/cutlass.h``, when it declares one);
  :func:`prepare_local_archive` extracts a ``.tar.gz`` / ``.zip`` the user chose into the cache
  and checks it the same way. For offline and air-gapped machines.

The cache is ``<build root>/<recipe>-<ref>`` (default build root: the platform's
``default_build_root()/src``, short on purpose). A cached tree is **verified, never assumed**:

* every tree carries ``.ksw-source.json`` (what was fetched, from where, at which commit),
  written last, inside the temporary folder, before the folder is renamed into place: a tree
  without it is an interrupted fetch and is not used;
* patches applied by :mod:`build_backend.patches` are put back first (only files whose bytes
  are exactly what the patcher wrote), so that what is checked is the pristine upstream tree;
* git trees: ``git rev-parse HEAD`` is the expected commit, ``git status --porcelain`` shows
  nothing but build outputs (``build/``, ``dist/``, ``*.egg-info``, ...), every needed
  submodule is at the commit the superproject pins (``git submodule status``) and populated;
* archive trees: the SHA-256 of every file, recorded right after extraction, is computed again
  and compared (changed, missing and extra files; extra build outputs are allowed).

A tree that fails is reported (:class:`SourceEvent` ``CACHE_REJECTED`` with the reason), removed,
and fetched again. Downloads and extraction go to a temporary folder beside the cache that is
renamed into place only when complete: a half-extracted tree is never trusted.

Errors are :class:`SourceError` (a :class:`~build_backend.errors.WizardError`) in plain words:
offline, unknown tag, a tag that moved, git failing, a full disk, a broken or unsafe archive,
an empty submodule folder. Cancel raises :class:`SourceCancelled`.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import queue
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import threading
import zipfile
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import requests

from .catalog import Recipe, RecipeVersion, SourceKind
from .download import DownloadCancelled, DownloadError, DownloadProgress, download
from .errors import ExitCode, WizardError
from .patches import LEDGER_DIR, revert_patches
from .platforms import Platform, current, process_group_options
from .processes import kill_tree
from .resources import resource_path

__all__ = [
    "SOURCE_RECORD",
    "FetchRoute",
    "SourceCancelled",
    "SourceError",
    "SourceEvent",
    "SourceEventKind",
    "SourceHosts",
    "SourceSpec",
    "SourceTree",
    "SubmoduleSpec",
    "SubmoduleState",
    "TreeKind",
    "default_source_root",
    "fetch_recipe_source",
    "fetch_source",
    "github_archive_url",
    "github_gitlink_url",
    "prepare_local",
    "prepare_local_archive",
    "source_spec",
]

SOURCE_RECORD = ".ksw-source.json"  # in the tree root
_RECORD_SCHEMA = "ksw.source/1"
_DOWNLOADS = ".downloads"  # archives, beside the trees: <build root>/.downloads
_TMP_PREFIX = ".tmp-"
_OWN_NAMES = frozenset({SOURCE_RECORD, LEDGER_DIR})  # ours, at the tree root

# What a build leaves in a source tree; never counts as a change to the source.
_BUILD_DIRS = frozenset({"build", "dist", ".eggs", "__pycache__"})
_BUILD_DIR_SUFFIXES = (".egg-info",)
_BUILD_FILE_SUFFIXES = (".so", ".pyd", ".pyc", ".o", ".obj")
_BUILD_FILES = frozenset({".ninja_log", ".ninja_deps"})

_SHA_RE = re.compile(r"^[0-9a-f]{40}$")
_GITHUB_RE = re.compile(r"^https://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?$")
_OFFLINE_MARKERS = (
    "could not resolve host", "failed to connect", "unable to access", "connection refused",
    "connection timed out", "network is unreachable", "could not read from remote repository",
    "connection reset", "operation timed out", "temporary failure in name resolution",
    "no route to host",
)
_DISK_FULL_MARKERS = ("no space left on device", "disk quota exceeded", "not enough space")
_MIN_GIT_SUBMODULE_FILTER = (2, 36)


# =============================================================================================
# Errors, events, results
# =============================================================================================


class SourceError(WizardError):
    """The source tree could not be fetched, checked or prepared."""

    exit_code = ExitCode.FAILURE


class SourceCancelled(SourceError):
    """The person cancelled; nothing half-done was left in the cache."""

    exit_code = ExitCode.CANCELLED


class TreeKind(Enum):
    GIT = "git"  # a git checkout made by the wizard
    ARCHIVE = "archive"  # extracted archives (downloaded, or a local archive the user chose)
    LOCAL = "local"  # a folder the user chose, used in place


class FetchRoute(Enum):
    AUTO = "auto"  # git when installed, the archive when git is absent or fails
    GIT = "git"
    ARCHIVE = "archive"


class SourceEventKind(Enum):
    STEP = "step"  # something starts: cloning, downloading, extracting
    CACHE_HIT = "cache_hit"  # a cached tree passed verification and is used
    CACHE_REJECTED = "cache_rejected"  # a cached tree failed verification: removed, re-fetched
    FALLBACK = "fallback"  # git failed or is absent: the archive route is taken
    WARNING = "warning"  # worth showing, not stopping
    DONE = "done"


@dataclass(frozen=True)
class SourceEvent:
    kind: SourceEventKind
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class SubmoduleSpec:
    path: str  # relative to the tree, "/" separated: "csrc/cutlass"
    commit: str | None = None  # pinned; None: the superproject's gitlink decides
    marker: str | None = None  # a file, relative to the submodule, a populated checkout has
    url: str | None = None  # None: read from .gitmodules


@dataclass(frozen=True)
class SourceSpec:
    """What to fetch: one repository at one ref, with the submodules it needs."""

    name: str  # for people: "FlashMLA"
    url: str  # the clone URL (tests: a local path or file:// URL)
    ref: str  # the tag or commit to check out
    commit: str | None = None  # the commit expected at ref, when known
    submodules: tuple[SubmoduleSpec, ...] = ()
    slug: str = ""  # the cache folder name; derived from the URL and ref when empty

    @property
    def cache_name(self) -> str:
        if self.slug:
            return _safe_name(self.slug)
        return f"{_safe_name(_repo_name(self.url).lower())}-{_short_ref(self.ref)}"


@dataclass(frozen=True)
class SubmoduleState:
    path: str
    commit: str | None  # what is checked out / was extracted; None when not known
    populated: bool


@dataclass(frozen=True)
class SourceTree:
    path: Path
    kind: TreeKind
    ref: str
    commit: str | None
    from_cache: bool
    submodules: tuple[SubmoduleState, ...] = ()
    origin: str = ""  # the URL or local path it came from


def github_archive_url(repo_url: str, ref: str) -> str:
    """``https://codeload.github.com/{owner}/{repo}/tar.gz/{ref}`` for a GitHub repository."""
    owner, repo = _github_parts(repo_url)
    return f"https://codeload.github.com/{owner}/{repo}/tar.gz/{ref}"


def github_gitlink_url(repo_url: str, ref: str, path: str) -> str:
    """The GitHub API address that says which commit a submodule is pinned to at ``ref``."""
    owner, repo = _github_parts(repo_url)
    return f"https://api.github.com/repos/{owner}/{repo}/contents/{path}?ref={ref}"


@dataclass(frozen=True)
class SourceHosts:
    """Where source archives (and submodule pins) are downloaded from."""

    archive: Callable[[str, str], str] = github_archive_url  # (repo URL, ref) -> URL
    gitlink: Callable[[str, str, str], str] | None = github_gitlink_url  # (repo, ref, path)


def _github_parts(repo_url: str) -> tuple[str, str]:
    match = _GITHUB_RE.match(repo_url.strip())
    if match is None:
        raise SourceError(
            f"No source archive address is known for {repo_url}.",
            why="Source archives are downloaded from GitHub; this repository is not on GitHub.",
            hint="Install git, or choose a local copy of the source (Kernel page → Local "
            "folder).",
        )
    return match.group(1), match.group(2)


# =============================================================================================
# Public entry points
# =============================================================================================


def source_spec(recipe: Recipe, version: RecipeVersion) -> SourceSpec:
    """The :class:`SourceSpec` of a git recipe's version."""
    source = recipe.source
    if source.kind is not SourceKind.GIT or not source.url:
        raise SourceError(
            f"{recipe.name} has no git source to fetch.",
            why=f"Its recipe ships the source with the wizard ({source.path}).",
            hint="This is a bug in the caller: use fetch_recipe_source.",
        )
    return SourceSpec(
        name=recipe.name,
        url=source.url,
        ref=version.ref,
        commit=version.commit,
        submodules=tuple(
            SubmoduleSpec(
                path=p,
                commit=source.submodule_commits.get(p),
                marker=source.submodule_markers.get(p),
            )
            for p in source.submodules
        ),
        slug=f"{recipe.id}-{_short_ref(version.ref)}",
    )


def default_source_root(platform: Platform | None = None) -> Path:
    """``<the platform's short build root>/src``."""
    return (platform or current()).default_build_root() / "src"


def fetch_recipe_source(recipe: Recipe, version: RecipeVersion, **options: Any) -> SourceTree:
    """The source of a recipe's version: :func:`fetch_source` for git recipes, the shipped
    folder (checked with :func:`prepare_local`) for recipes whose source comes with the wizard."""
    if recipe.source.kind is SourceKind.LOCAL:
        folder = resource_path(*PurePosixPath(recipe.source.path or "").parts)
        return prepare_local(folder, None, on_event=options.get("on_event"))
    return fetch_source(source_spec(recipe, version), **options)


def fetch_source(
    spec: SourceSpec,
    *,
    build_root: Path | None = None,
    route: FetchRoute = FetchRoute.AUTO,
    git: str | None = None,
    hosts: SourceHosts = SourceHosts(),
    allow_http: bool = False,
    blob_filter: bool = True,
    git_config: Sequence[tuple[str, str]] = (),
    download_retries: int = 3,
    platform: Platform | None = None,
    on_event: Callable[[SourceEvent], None] | None = None,
    on_line: Callable[[str], None] | None = None,
    on_progress: Callable[[DownloadProgress], None] | None = None,
    cancel: threading.Event | None = None,
) -> SourceTree:
    """Fetch ``spec`` into the cache under ``build_root`` (or verify and reuse it).

    ``git``: the git executable (default: ``git`` found on PATH; none found: the archive route).
    ``allow_http`` is for loopback tests only. ``git_config``: extra ``git -c`` settings (tests:
    ``protocol.file.allow=always``). See the module doc for the routes and the cache.
    """
    plat = platform or current()
    fetcher = _Fetcher(
        spec=spec,
        root=Path(build_root) if build_root is not None else default_source_root(plat),
        git=git if git is not None else shutil.which("git"),
        hosts=hosts,
        allow_http=allow_http,
        blob_filter=blob_filter,
        git_config=(*plat.git_config, *git_config),
        download_retries=download_retries,
        on_event=on_event,
        on_line=on_line,
        on_progress=on_progress,
        cancel=cancel,
    )
    return fetcher.fetch(route)


def prepare_local(
    path: Path,
    spec: SourceSpec | None = None,
    *,
    git: str | None = None,
    on_event: Callable[[SourceEvent], None] | None = None,
) -> SourceTree:
    """Check a source folder the user chose, to be built in place (nothing is copied).

    It must hold ``setup.py`` or ``pyproject.toml``, and every submodule ``spec`` needs must be
    populated (its marker file present, when the recipe names one). Raises :class:`SourceError`
    naming the folder or the submodule and what to do.
    """
    folder = Path(path)
    if not folder.is_dir():
        raise SourceError(
            f"The source folder {folder} does not exist.",
            hint="Choose the folder that holds the kernel's setup.py.",
        )
    _check_package_root(folder)
    git_exe = git if git is not None else shutil.which("git")
    emit = on_event or (lambda _e: None)
    states: list[SubmoduleState] = []
    gitmodules = _read_gitmodules(folder)
    subs = spec.submodules if spec is not None else ()
    for sub in subs:
        problem = _submodule_problem(folder, sub)
        if problem is not None:
            assert spec is not None
            raise _empty_submodule_error(folder, spec, sub, problem, gitmodules)
        commit = _local_commit(folder / sub.path, git_exe)
        if sub.commit and commit and commit != sub.commit:
            emit(SourceEvent(
                SourceEventKind.WARNING,
                f"{sub.path} is at commit {commit[:12]}, the recipe pins {sub.commit[:12]}: "
                "the build may differ from the tested one.",
            ))
        states.append(SubmoduleState(sub.path, commit, True))
    commit = _local_commit(folder, git_exe)
    if spec is not None and spec.commit and commit and commit != spec.commit:
        emit(SourceEvent(
            SourceEventKind.WARNING,
            f"The folder is at commit {commit[:12]}; the recipe's version {spec.ref} is "
            f"{spec.commit[:12]}.",
        ))
    emit(SourceEvent(SourceEventKind.DONE, f"Using the source folder {folder} as it is."))
    return SourceTree(
        path=folder,
        kind=TreeKind.LOCAL,
        ref=spec.ref if spec is not None else "",
        commit=commit,
        from_cache=False,
        submodules=tuple(states),
        origin=str(folder),
    )


def prepare_local_archive(
    archive: Path,
    spec: SourceSpec | None = None,
    *,
    build_root: Path | None = None,
    platform: Platform | None = None,
    on_event: Callable[[SourceEvent], None] | None = None,
    cancel: threading.Event | None = None,
) -> SourceTree:
    """Extract a ``.tar.gz`` / ``.zip`` the user chose into the cache and check it like
    :func:`prepare_local`. The extracted tree is cached by the archive's SHA-256 and verified
    like a downloaded one."""
    archive = Path(archive)
    emit = on_event or (lambda _e: None)
    try:
        digest = _file_sha256(archive)
    except OSError as exc:
        raise SourceError(
            f"The archive {archive} could not be read.",
            why=f"{exc.strerror or exc}.",
            hint="Choose a .tar.gz or .zip file of the kernel's source.",
        ) from exc
    root = Path(build_root) if build_root is not None else default_source_root(
        platform or current())
    base = spec.cache_name if spec is not None else _safe_name(archive.name.split(".")[0])
    final = root / f"{base}-local-{digest[:12]}"
    _mkdir(root)
    _clean_stale(root, final.name)
    from_cache = False
    if final.exists():
        record = _read_record(final)
        reason = "it has no record of a complete extraction"
        if record is not None and record.get("archive_sha256") == digest:
            reason = _manifest_problem(final, record) or ""
        if not reason:
            from_cache = True
            emit(SourceEvent(SourceEventKind.CACHE_HIT,
                             f"Using the extracted copy of {archive.name} (verified)."))
        else:
            emit(SourceEvent(SourceEventKind.CACHE_REJECTED,
                             f"The extracted copy of {archive.name} is not used: {reason}. "
                             "Extracting it again."))
            _rmtree(final)
    if not from_cache:
        emit(SourceEvent(SourceEventKind.STEP, f"Extracting {archive.name}"))
        work = _new_work(root, final.name)
        try:
            _check_cancel(cancel)
            tree, commit = _extract_archive(archive, work / "x", archive.name)
            _write_record(tree, {
                "kind": TreeKind.ARCHIVE.value, "origin": str(archive), "archive_sha256": digest,
                "url": spec.url if spec is not None else "", "ref": spec.ref if spec else "",
                "commit": commit, "submodules": {}, "files": _manifest(tree),
            })
            os.replace(tree, final)
        except OSError as exc:
            raise _disk_error(exc, root) from exc
        finally:
            _rmtree(work, quiet=True)
    local = prepare_local(final, spec, git="", on_event=None)
    record = _read_record(final) or {}
    commit = _opt_str(record.get("commit"))
    if spec is not None and spec.commit and commit and commit != spec.commit:
        emit(SourceEvent(SourceEventKind.WARNING,
                         f"{archive.name} was made from commit {commit[:12]}; the recipe's "
                         f"version {spec.ref} is {spec.commit[:12]}."))
    emit(SourceEvent(SourceEventKind.DONE, f"Source ready in {final}"))
    return SourceTree(
        path=final, kind=TreeKind.ARCHIVE, ref=local.ref, commit=commit, from_cache=from_cache,
        submodules=local.submodules, origin=str(archive),
    )


# =============================================================================================
# The fetcher
# =============================================================================================


class _GitFailed(Exception):
    """Internal: git could not fetch; the archive route may still work."""

    def __init__(self, summary: str, offline: bool) -> None:
        super().__init__(summary)
        self.summary = summary
        self.offline = offline


@dataclass
class _Fetcher:
    spec: SourceSpec
    root: Path
    git: str | None
    hosts: SourceHosts
    allow_http: bool
    blob_filter: bool
    git_config: Sequence[tuple[str, str]]
    download_retries: int
    on_event: Callable[[SourceEvent], None] | None
    on_line: Callable[[str], None] | None
    on_progress: Callable[[DownloadProgress], None] | None
    cancel: threading.Event | None
    _git_version: tuple[int, ...] | None = field(default=None, init=False)

    # -- flow -----------------------------------------------------------------------------------

    def fetch(self, route: FetchRoute) -> SourceTree:
        spec = self.spec
        _check_cancel(self.cancel)
        _mkdir(self.root)
        final = self.root / spec.cache_name
        _clean_stale(self.root, final.name)
        if route is FetchRoute.GIT and not self.git:
            raise SourceError(
                f"git is needed to fetch {spec.name} this way, but it is not installed.",
                hint="Install git (https://git-scm.com), or let the wizard download the source "
                "archive instead.",
            )
        cached = self._cached(final, route)
        if cached is not None:
            return cached

        git_failure: _GitFailed | None = None
        if self.git and route is not FetchRoute.ARCHIVE:
            try:
                return self._git_fetch(final)
            except _GitFailed as failed:
                if route is FetchRoute.GIT:
                    raise self._git_error(failed) from None
                git_failure = failed
                self._emit(SourceEventKind.FALLBACK,
                           f"git could not fetch {spec.name} ({failed.summary}); downloading "
                           "the source archive instead.")
        elif route is FetchRoute.AUTO:
            self._emit(SourceEventKind.FALLBACK,
                       "git is not installed; downloading the source archive instead.")
        try:
            return self._archive_fetch(final)
        except SourceCancelled:
            raise
        except SourceError as err:
            if git_failure is not None:
                err.why = (err.why + " " if err.why else "") + (
                    f"git had failed before: {git_failure.summary}.")
            raise

    def _emit(self, kind: SourceEventKind, message: str) -> None:
        if self.on_event is not None:
            self.on_event(SourceEvent(kind, message))

    # -- the cache ------------------------------------------------------------------------------

    def _cached(self, final: Path, route: FetchRoute) -> SourceTree | None:
        if not final.exists():
            return None
        spec = self.spec
        record = _read_record(final)
        tree: SourceTree | None = None
        if record is None:
            reason = "it has no record of a complete fetch (an interrupted earlier attempt?)"
        elif record.get("url") != spec.url or record.get("ref") != spec.ref:
            reason = (f"it holds {record.get('url')} at {record.get('ref')}, not {spec.url} at "
                      f"{spec.ref}")
        elif record.get("kind") == TreeKind.GIT.value and route is FetchRoute.ARCHIVE:
            reason = "it is a git checkout and a source archive was asked for"
        elif record.get("kind") == TreeKind.ARCHIVE.value and route is FetchRoute.GIT:
            reason = "it was extracted from an archive and a git checkout was asked for"
        elif record.get("kind") == TreeKind.GIT.value and not self.git:
            reason = "it is a git checkout, and git, needed to check it, is not installed"
        else:
            reverted = revert_patches(final)
            if reverted.reverted:
                self._emit(SourceEventKind.STEP,
                           f"Put back {len(reverted.reverted)} file(s) changed by recipe "
                           "patches before checking the cached source.")
            if record.get("kind") == TreeKind.GIT.value:
                reason, tree = self._check_git_tree(final, record)
            elif record.get("kind") == TreeKind.ARCHIVE.value:
                reason, tree = self._check_archive_tree(final, record)
            else:
                reason = f"its record names an unknown kind {record.get('kind')!r}"
        if tree is not None and not reason:
            self._emit(SourceEventKind.CACHE_HIT,
                       f"Using the cached {spec.name} source in {final} (verified: "
                       f"{'git commit and status' if tree.kind is TreeKind.GIT else 'file hashes'}"
                       ").")
            self._emit(SourceEventKind.DONE, f"Source ready in {final}")
            return tree
        self._emit(SourceEventKind.CACHE_REJECTED,
                   f"The cached {spec.name} source in {final} is not used: {reason}. It is "
                   "removed and fetched again.")
        _rmtree(final)
        return None

    def _check_git_tree(
        self, final: Path, record: Mapping[str, Any]
    ) -> tuple[str, SourceTree | None]:
        spec = self.spec
        expected = spec.commit or _opt_str(record.get("commit"))
        try:
            head = self._git_text(["rev-parse", "HEAD"], final)
            if expected is None:
                expected = self._git_text(["rev-parse", "--verify", f"{spec.ref}^{{commit}}"],
                                          final)
            if head != expected:
                return f"its HEAD is at {head[:12]}, not at {expected[:12]} ({spec.ref})", None
            changed = self._git_changes(final)
            if changed:
                return "files were changed: " + _some(changed), None
            states, problem = self._git_submodules(final)
            if problem:
                return problem, None
        except _GitFailed as failed:
            return f"git could not check it ({failed.summary})", None
        tree = SourceTree(final, TreeKind.GIT, spec.ref, head, True, tuple(states), spec.url)
        return "", tree

    def _check_archive_tree(
        self, final: Path, record: Mapping[str, Any]
    ) -> tuple[str, SourceTree | None]:
        spec = self.spec
        subs = record.get("submodules")
        subs = subs if isinstance(subs, dict) else {}
        for sub in spec.submodules:
            if sub.commit and subs.get(sub.path) != sub.commit:
                return (f"its {sub.path} is at {str(subs.get(sub.path))[:12]}, the recipe pins "
                        f"{sub.commit[:12]}"), None
        problem = _manifest_problem(final, record)
        if problem:
            return problem, None
        states = tuple(
            SubmoduleState(s.path, _opt_str(subs.get(s.path)), True) for s in spec.submodules)
        commit = _opt_str(record.get("commit"))
        return "", SourceTree(final, TreeKind.ARCHIVE, spec.ref, commit, True, states, spec.url)

    # -- git route --------------------------------------------------------------------------------

    def _git_fetch(self, final: Path) -> SourceTree:
        spec = self.spec
        work = _new_work(self.root, final.name)
        checkout = work / "t"
        try:
            self._emit(SourceEventKind.STEP, f"Cloning {spec.url} ({spec.ref})")
            clone = ["clone", "--no-checkout", "--progress"]
            if self.blob_filter:
                clone.append("--filter=blob:none")
            self._git_stream([*clone, "--", spec.url, str(checkout)], work)
            commit = self._resolve(checkout)
            self._emit(SourceEventKind.STEP, f"Checking out {spec.ref} ({commit[:12]})")
            self._git_stream(["-c", "advice.detachedHead=false", "checkout", "--progress",
                              "--detach", commit], checkout)
            if spec.submodules or (checkout / ".gitmodules").is_file():
                paths = [s.path for s in spec.submodules]
                self._emit(SourceEventKind.STEP,
                           "Fetching submodules" + (": " + ", ".join(paths) if paths else ""))
                update = ["submodule", "update", "--init", "--recursive", "--progress"]
                if self.blob_filter and self._git_at_least(_MIN_GIT_SUBMODULE_FILTER):
                    update.append("--filter=blob:none")
                self._git_stream([*update, "--", *paths], checkout)
            states, problem = self._git_submodules(checkout)
            if problem:
                raise SourceError(
                    f"The {spec.name} submodules are incomplete after the clone: {problem}.",
                    hint="Try again; if it keeps failing, choose a local copy (Kernel page → "
                    "Local folder).",
                )
            for sub, state in zip(spec.submodules, states, strict=False):
                if sub.commit and state.commit and sub.commit != state.commit:
                    self._emit(SourceEventKind.WARNING,
                               f"{spec.name} {spec.ref} pins {sub.path} at "
                               f"{state.commit[:12]}; the recipe names {sub.commit[:12]}. "
                               "Using the commit the source pins.")
            _exclude_own_files(checkout)
            _write_record(checkout, {
                "kind": TreeKind.GIT.value, "url": spec.url, "ref": spec.ref, "commit": commit,
                "submodules": {s.path: s.commit for s in states},
            })
            _check_cancel(self.cancel)
            os.replace(checkout, final)
        except OSError as exc:
            raise _disk_error(exc, self.root) from exc
        finally:
            _rmtree(work, quiet=True)
        self._emit(SourceEventKind.DONE, f"Source ready in {final}")
        return SourceTree(final, TreeKind.GIT, spec.ref, commit, False, tuple(states), spec.url)

    def _resolve(self, checkout: Path) -> str:
        """The commit ``spec.ref`` names in the fresh clone (fetched when it is a bare SHA)."""
        spec = self.spec
        rev = ["rev-parse", "--verify", "--quiet", f"{spec.ref}^{{commit}}"]
        rc, lines = self._git_run(rev, checkout, stream=False)
        if rc != 0 and _SHA_RE.match(spec.ref):
            self._git_run(["fetch", "--quiet", "origin", spec.ref], checkout, stream=False)
            rc, lines = self._git_run(rev, checkout, stream=False)
        if rc != 0 or not lines:
            raise SourceError(
                f"{spec.name} has no tag or commit '{spec.ref}' at {spec.url}.",
                why="The repository was reached, but it does not contain that version (a tag "
                "removed or renamed upstream, or a typing error in a local recipe).",
                hint="Choose another version on the Kernel page, or report this if the version "
                "came with the wizard.",
            )
        commit = lines[-1].strip()
        if spec.commit and commit != spec.commit:
            raise SourceError(
                f"The {spec.name} tag {spec.ref} now points at a different commit.",
                why=f"The recipe expects {spec.commit}, the repository has {commit}: the tag "
                "was moved upstream, so this is not the source the recipe was tested with.",
                hint="Choose another version, or report this to the wizard's maintainers.",
            )
        return commit

    def _git_submodules(self, tree: Path) -> tuple[list[SubmoduleState], str]:
        """States of the needed submodules (``git submodule status``), and the first problem."""
        spec = self.spec
        rc, lines = self._git_run(["submodule", "status", "--recursive"], tree, stream=False)
        if rc != 0:
            raise _GitFailed("git submodule status failed: " + _tail(lines), offline=False)
        listed: dict[str, tuple[str, str]] = {}
        for line in lines:
            if len(line) < 42:
                continue
            flag, rest = line[0], line[1:]
            sha, _, tail = rest.partition(" ")
            path = tail.rsplit(" (", 1)[0].strip() if tail.endswith(")") else tail.strip()
            listed[path] = (flag, sha)
        wanted = list(spec.submodules) or [SubmoduleSpec(p) for p in listed
                                           if listed[p][0] != "-"]
        states: list[SubmoduleState] = []
        problem = ""
        for sub in wanted:
            flag, sha = listed.get(sub.path, ("?", ""))
            populated = _submodule_problem(tree, sub) is None
            states.append(SubmoduleState(sub.path, sha or None, populated and flag == " "))
            if problem:
                continue
            if flag == "?":
                problem = f"{sub.path} is not a submodule of this source"
            elif flag == "-":
                problem = f"the submodule {sub.path} is not checked out"
            elif flag == "+":
                problem = (f"the submodule {sub.path} is at {sha[:12]}, not at the commit the "
                           "source pins")
            elif flag != " ":
                problem = f"the submodule {sub.path} is in a conflicted state"
            elif not populated:
                problem = f"the submodule folder {sub.path} is {_submodule_problem(tree, sub)}"
        return states, problem

    def _git_changes(self, tree: Path) -> list[str]:
        """Paths ``git status`` reports, less build outputs and the wizard's own files."""
        out = self._git_bytes(["status", "--porcelain=v1", "-z", "--untracked-files=all",
                               "--ignore-submodules=none"], tree)
        entries = out.split(b"\0")
        changed: list[str] = []
        i = 0
        while i < len(entries):
            entry = entries[i]
            i += 1
            if len(entry) < 4:
                continue
            code, path = entry[:2].decode("ascii", "replace"), entry[3:].decode(
                "utf-8", "replace")
            if code[0] in "RC":
                i += 1  # the original path follows a rename or copy
            if code == "??" and _is_build_output(path):
                continue
            if code == "??" and PurePosixPath(path).parts[0] in _OWN_NAMES:
                continue
            changed.append(f"{path} ({_status_words(code)})")
        return changed

    # -- archive route ----------------------------------------------------------------------------

    def _archive_fetch(self, final: Path) -> SourceTree:
        spec = self.spec
        ref = spec.commit or spec.ref
        work = _new_work(self.root, final.name)
        downloads = self.root / _DOWNLOADS
        try:
            url = self.hosts.archive(spec.url, ref)
            archive = self._download(url, downloads / f"{spec.cache_name}.tar.gz",
                                     f"the {spec.name} source")
            _check_cancel(self.cancel)
            self._emit(SourceEventKind.STEP, f"Extracting {archive.name}")
            tree, made_from = _extract_archive(archive, work / "x", archive.name)
            if spec.commit and made_from and made_from != spec.commit:
                raise SourceError(
                    f"The downloaded {spec.name} archive is not the expected version.",
                    why=f"It was made from commit {made_from}; the recipe expects "
                    f"{spec.commit} ({spec.ref}).",
                    hint="Try again later; if it persists, report this to the wizard's "
                    "maintainers.",
                )
            commit_known = spec.commit or made_from or (ref if _SHA_RE.match(ref) else None)
            gitmodules = _read_gitmodules(tree)
            pinned: dict[str, str] = {}
            for n, sub in enumerate(spec.submodules):
                _check_cancel(self.cancel)
                commit = sub.commit or self._gitlink(sub, ref, work / f"gitlink-{n}.json")
                sub_url = sub.url or gitmodules.get(sub.path)
                if not sub_url:
                    raise SourceError(
                        f"The {spec.name} source does not say where its submodule {sub.path} "
                        "comes from.",
                        why="Its .gitmodules file has no entry for that folder.",
                        hint="Install git and try again, or choose a local copy with the "
                        "submodule (Kernel page → Local folder).",
                    )
                sub_url = _resolve_relative_url(spec.url, sub_url)
                sub_archive = self._download(
                    self.hosts.archive(sub_url, commit),
                    downloads / f"{_safe_name(_repo_name(sub_url).lower())}-{commit[:12]}.tar.gz",
                    f"the submodule {sub.path}",
                )
                self._emit(SourceEventKind.STEP, f"Extracting {sub_archive.name} into {sub.path}")
                sub_tree, sub_made_from = _extract_archive(sub_archive, work / f"s{n}",
                                                           sub_archive.name)
                if sub_made_from and sub_made_from != commit:
                    raise SourceError(
                        f"The downloaded archive of {sub.path} is not the pinned commit.",
                        why=f"It was made from {sub_made_from}; {spec.name} pins {commit}.",
                        hint="Try again later; if it persists, report this to the wizard's "
                        "maintainers.",
                    )
                _place_submodule(sub_tree, tree, sub.path)
                problem = _submodule_problem(tree, sub)
                if problem is not None:
                    raise SourceError(
                        f"The archive of {sub.path} at {commit[:12]} does not look like the "
                        f"submodule {spec.name} needs: the folder {problem}.",
                        hint="Report this; meanwhile choose a local copy (Kernel page → Local "
                        "folder).",
                    )
                pinned[sub.path] = commit
            _check_cancel(self.cancel)
            self._emit(SourceEventKind.STEP, "Recording file hashes of the extracted source")
            _write_record(tree, {
                "kind": TreeKind.ARCHIVE.value, "url": spec.url, "ref": spec.ref,
                "commit": commit_known, "archive_url": url, "submodules": pinned,
                "files": _manifest(tree),
            })
            os.replace(tree, final)
        except OSError as exc:
            raise _disk_error(exc, self.root) from exc
        finally:
            _rmtree(work, quiet=True)
        self._emit(SourceEventKind.DONE, f"Source ready in {final}")
        states = tuple(SubmoduleState(p, c, True) for p, c in pinned.items())
        return SourceTree(final, TreeKind.ARCHIVE, spec.ref, commit_known, False, states,
                          spec.url)

    def _download(self, url: str, dest: Path, what: str) -> Path:
        self._emit(SourceEventKind.STEP, f"Downloading {what} ({url})")
        try:
            result = download(url, dest, progress=self.on_progress, cancel=self.cancel,
                              allow_http=self.allow_http, max_retries=self.download_retries)
        except DownloadCancelled as exc:
            raise SourceCancelled("The source download was cancelled.",
                                  why="The part downloaded so far is kept for the next try.") \
                from exc
        except DownloadError as exc:
            raise self._download_error(exc, url, what) from exc
        if result.from_cache:
            self._emit(SourceEventKind.STEP, f"{dest.name} was downloaded before (verified).")
        elif result.resumed:
            self._emit(SourceEventKind.STEP, f"{dest.name}: continued an earlier download.")
        return result.path

    def _download_error(self, exc: DownloadError, url: str, what: str) -> SourceError:
        host = urlsplit(url).hostname or url
        if isinstance(exc.__cause__, (requests.ConnectionError, requests.Timeout)):
            return SourceError(
                f"Could not reach {host} to download {what}.",
                why=exc.why or exc.what,
                hint="Check the internet connection and try again, or choose a local copy of "
                "the source (Kernel page → Local folder).",
            )
        if "HTTP 404" in exc.what or "HTTP 410" in exc.what:
            return SourceError(
                f"{host} has no source archive of {what} at that version.",
                why=f"{url} does not exist: the tag or commit is not in the repository.",
                hint="Choose another version on the Kernel page, or report this if the version "
                "came with the wizard.",
            )
        return SourceError(
            f"The download of {what} failed: {exc.what}",
            why=exc.why,
            hint=(exc.hint + " " if exc.hint else "") + "If this computer has no internet "
            "access, choose a local copy of the source (Kernel page → Local folder).",
        )

    def _gitlink(self, sub: SubmoduleSpec, ref: str, dest: Path) -> str:
        """The commit the superproject pins ``sub`` to at ``ref`` (the GitHub contents API)."""
        spec = self.spec
        if self.hosts.gitlink is None:
            raise SourceError(
                f"The recipe does not pin the commit of {spec.name}'s submodule {sub.path}.",
                why="A source archive has no submodules, and the commit to fetch is not known.",
                hint="Install git and try again, or choose a local copy with the submodule "
                "(Kernel page → Local folder).",
            )
        path = self._download(self.hosts.gitlink(spec.url, ref, sub.path), dest,
                              f"the commit of {sub.path}")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            sha = str(data["sha"]) if isinstance(data, dict) else ""
        except (OSError, ValueError, KeyError) as exc:
            raise SourceError(
                f"Which commit {spec.name} pins for {sub.path} could not be read.",
                why=f"The answer was not understood ({exc}).",
                hint="Install git and try again, or choose a local copy.",
            ) from exc
        if not _SHA_RE.match(sha):
            raise SourceError(
                f"Which commit {spec.name} pins for {sub.path} could not be read.",
                why=f"The answer named {sha!r}, not a commit.",
                hint="Install git and try again, or choose a local copy.",
            )
        return sha

    # -- running git ----------------------------------------------------------------------------

    def _git_cmd(self, args: Sequence[str]) -> list[str]:
        assert self.git
        config = [
            ("core.autocrlf", "false"),  # upstream's bytes on every OS (patches, hashes)
            ("core.quotepath", "false"),
            ("http.lowSpeedLimit", "1"),  # a transfer stalled for 5 minutes fails (then the
            ("http.lowSpeedTime", "300"),  # archive route) instead of hanging forever
            *self.git_config,
        ]
        cmd = [self.git]
        for key, value in config:
            cmd += ["-c", f"{key}={value}"]
        return cmd + list(args)

    def _git_stream(self, args: Sequence[str], cwd: Path) -> None:
        rc, lines = self._git_run(args, cwd, stream=True)
        if rc != 0:
            raise self._classify(args, lines)

    def _git_text(self, args: Sequence[str], cwd: Path) -> str:
        rc, lines = self._git_run(args, cwd, stream=False)
        if rc != 0 or not lines:
            raise _GitFailed(f"git {args[0]} failed: {_tail(lines)}", offline=False)
        return lines[-1].strip()

    def _git_bytes(self, args: Sequence[str], cwd: Path) -> bytes:
        try:
            done = subprocess.run(self._git_cmd(args), cwd=cwd, env=_git_env(),
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=600,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise _GitFailed(f"git {args[0]} could not run: {exc}", offline=False) from exc
        if done.returncode != 0:
            text = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise _GitFailed(f"git {args[0]} failed: {_tail(text)}", offline=False)
        return done.stdout

    def _git_version_tuple(self) -> tuple[int, ...]:
        if self._git_version is None:
            rc, lines = self._git_run(["--version"], None, stream=False)
            match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", " ".join(lines)) if rc == 0 else None
            self._git_version = (tuple(int(g) for g in match.groups() if g is not None)
                                 if match else (0,))
        return self._git_version

    def _git_at_least(self, version: tuple[int, ...]) -> bool:
        return self._git_version_tuple() >= version

    def _git_run(
        self, args: Sequence[str], cwd: Path | None, *, stream: bool
    ) -> tuple[int, list[str]]:
        """Run git; its output lines (progress split at CR too) go to ``on_line`` when
        ``stream``. Returns (exit status, the last 200 lines). Honours ``cancel``."""
        _check_cancel(self.cancel)
        group = process_group_options()
        try:
            proc = subprocess.Popen(
                self._git_cmd(args), cwd=cwd, env=_git_env(), stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                start_new_session=group.start_new_session, creationflags=group.creationflags,
            )
        except OSError as exc:
            raise _GitFailed(f"git could not be started ({exc.strerror or exc})",
                             offline=False) from exc
        assert proc.stdout is not None
        chunks: queue.Queue[bytes | None] = queue.Queue()
        pipe = proc.stdout
        fd = pipe.fileno()

        def pump() -> None:
            try:
                while True:
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        break
                    chunks.put(chunk)
            except (OSError, ValueError):
                pass
            finally:
                chunks.put(None)

        reader = threading.Thread(target=pump, name="git-output", daemon=True)
        reader.start()
        lines: deque[str] = deque(maxlen=200)
        pending = b""
        try:
            while True:
                if self.cancel is not None and self.cancel.is_set():
                    kill_tree(proc.pid, grace_s=2.0)
                    raise SourceCancelled(
                        "Fetching the source was cancelled.",
                        why="git was stopped; the unfinished copy is removed.",
                    )
                try:
                    chunk = chunks.get(timeout=0.1)
                except queue.Empty:
                    continue
                if chunk is None:
                    break
                pending += chunk
                *complete, pending = re.split(rb"\r\n|\r|\n", pending)
                for raw in complete:
                    self._line(raw, lines, stream)
            if pending:
                self._line(pending, lines, stream)
            rc = proc.wait()
        finally:
            if proc.poll() is None:
                kill_tree(proc.pid, grace_s=2.0)
                proc.wait()
            reader.join(timeout=5)
            pipe.close()
        return rc, list(lines)

    def _line(self, raw: bytes, lines: deque[str], stream: bool) -> None:
        text = raw.decode("utf-8", "replace").rstrip()
        if not text:
            return
        lines.append(text)
        if stream and self.on_line is not None:
            self.on_line(text)

    def _classify(self, args: Sequence[str], lines: Sequence[str]) -> Exception:
        low = "\n".join(lines).lower()
        if any(m in low for m in _DISK_FULL_MARKERS):
            return SourceError(
                f"The disk is full: git could not write {self.spec.name}'s source.",
                why=_tail(lines),
                hint=f"Free some space on the drive of {self.root} (the source with its "
                "submodules can take a few GB), then try again.",
            )
        offline = any(m in low for m in _OFFLINE_MARKERS)
        return _GitFailed(f"git {args[0]} failed: {_tail(lines)}", offline=offline)

    def _git_error(self, failed: _GitFailed) -> SourceError:
        host = urlsplit(self.spec.url).hostname or self.spec.url
        if failed.offline:
            return SourceError(
                f"Could not reach {host} to fetch {self.spec.name}.",
                why=failed.summary,
                hint="Check the internet connection and try again, or choose a local copy of "
                "the source (Kernel page → Local folder).",
            )
        return SourceError(
            f"git could not fetch {self.spec.name}.",
            why=failed.summary,
            hint="Try again; if it keeps failing, let the wizard download the source archive "
            "or choose a local copy (Kernel page → Local folder).",
        )


def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "GIT_TERMINAL_PROMPT": "0",  # never wait for a password nobody will type
        "GCM_INTERACTIVE": "never",
        "LC_ALL": "C",  # messages in English: they are matched above
        "LANGUAGE": "C",
    })
    return env


def _exclude_own_files(checkout: Path) -> None:
    """Tell git to ignore the wizard's record and patch ledger in this checkout."""
    info = checkout / ".git" / "info"
    if not (checkout / ".git").is_dir():
        return
    info.mkdir(parents=True, exist_ok=True)
    exclude = info / "exclude"
    old = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
    lines = [f"/{SOURCE_RECORD}", f"/{LEDGER_DIR}/"]
    add = [line for line in lines if line not in old.splitlines()]
    if add:
        sep = "" if not old or old.endswith("\n") else "\n"
        exclude.write_text(old + sep + "\n".join(add) + "\n", encoding="utf-8")


def _status_words(code: str) -> str:
    if code == "??":
        return "not part of the source"
    words = {"M": "modified", "A": "added", "D": "deleted", "R": "renamed", "C": "copied",
             "T": "type changed", "U": "conflict"}
    for ch in code:
        if ch in words:
            return words[ch]
    return code.strip() or "changed"


# =============================================================================================
# Archives: extraction, manifest, record
# =============================================================================================


def _extract_archive(archive: Path, dest: Path, label: str) -> tuple[Path, str | None]:
    """Extract ``archive`` into ``dest`` safely. Returns the tree and the commit the archive
    says it was made from (``git archive`` and GitHub write it into the tar's pax global
    header), if any. A single top folder (``FlashMLA-<commit>/``) is stripped while extracting,
    so no path is ever longer than in the final tree (Windows' 260 characters). Raises
    :class:`SourceError` for unsafe or broken archives."""
    dest.mkdir(parents=True, exist_ok=True)
    commit: str | None = None
    try:
        if zipfile.is_zipfile(archive):
            stripped = _extract_zip(archive, dest, label)
        elif tarfile.is_tarfile(archive):
            stripped, commit = _extract_tar(archive, dest, label)
        else:
            raise SourceError(
                f"{label} is not a .tar.gz or .zip archive.",
                hint="Choose the source archive (a .tar.gz or .zip file).",
            )
    except (tarfile.TarError, zipfile.BadZipFile, EOFError) as exc:
        raise SourceError(
            f"The archive {label} is damaged and could not be extracted.",
            why=f"{type(exc).__name__}: {exc}.",
            hint="Download it again (the wizard does this when you retry), or choose another "
            "copy.",
        ) from exc
    if not stripped:  # only Pythons without extraction filters: strip after the fact
        entries = list(dest.iterdir())
        if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
            return entries[0], commit
    return dest, commit


def _unsafe_name(name: str) -> str | None:
    """Why a member name would land outside the extraction folder; None when it is safe."""
    norm = name.replace("\\", "/")
    if norm.startswith("/") or re.match(r"^[A-Za-z]:", norm):
        return "an absolute path"
    if ".." in PurePosixPath(norm).parts:
        return "a path with '..'"
    return None


def _unsafe_archive(label: str, member: str, why: str) -> SourceError:
    return SourceError(
        f"The archive {label} is unsafe and was not extracted.",
        why=f"It contains {member!r}, {why}, which would be written outside the source folder.",
        hint="Use the source archive from the project's own page (GitHub), not a copy from "
        "elsewhere.",
    )


def _common_top(names: Iterable[tuple[str, bool]]) -> str | None:
    """The one top folder every member is in (``(name, is_dir)`` pairs), or None."""
    top: str | None = None
    for name, is_dir in names:
        norm = name.replace("\\", "/").strip("/")
        while norm.startswith("./"):
            norm = norm[2:]
        if not norm or norm == ".":
            continue
        first, _, rest = norm.partition("/")
        if top is None:
            top = first
        if first != top or (not rest and not is_dir):
            return None
    return top


def _strip_top(name: str, top: str) -> str:
    norm = name.replace("\\", "/").strip("/")
    while norm.startswith("./"):
        norm = norm[2:]
    return norm[len(top) + 1:] if norm.startswith(top + "/") else ""


def _extract_tar(archive: Path, dest: Path, label: str) -> tuple[bool, str | None]:
    with tarfile.open(archive, "r:*") as tar:
        members = tar.getmembers()
        comment = str(tar.pax_headers.get("comment", "")).strip()
        for m in members:
            why = _unsafe_name(m.name)
            if why is None and (m.issym() or m.islnk()):
                link = m.linkname.replace("\\", "/")
                joined = str(PurePosixPath(m.name).parent / link) if m.issym() else link
                if _unsafe_name(link) == "an absolute path" or _escapes(joined):
                    why = f"a link to {m.linkname!r}"
            if why is None and (m.isdev() or m.isfifo()):
                why = "a device file"
            if why is not None:
                raise _unsafe_archive(label, m.name, why)
        commit = comment if _SHA_RE.match(comment) else None
        if not hasattr(tarfile, "data_filter"):  # pragma: no cover - Pythons before filters
            tar.extractall(dest, members=members)
            return False, commit
        top = _common_top((m.name, m.isdir()) for m in members)

        def strip(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
            if top is not None:
                name = _strip_top(member.name, top)
                if not name:
                    return None  # the top folder itself
                link = _strip_top(member.linkname, top) if member.islnk() else member.linkname
                member = member.replace(name=name, linkname=link, deep=False)
            return tarfile.data_filter(member, path)

        tar.extractall(dest, members=members, filter=strip)
    return top is not None, commit


def _escapes(relative: str) -> bool:
    depth = 0
    for part in PurePosixPath(relative).parts:
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    return False


def _extract_zip(archive: Path, dest: Path, label: str) -> bool:
    with zipfile.ZipFile(archive) as zf:
        infos = zf.infolist()
        for info in infos:
            why = _unsafe_name(info.filename)
            if why is not None:
                raise _unsafe_archive(label, info.filename, why)
        top = _common_top((i.filename, i.is_dir()) for i in infos)
        for info in infos:
            if top is not None:
                name = _strip_top(info.filename, top)
                if not name:
                    continue
                info.filename = name + ("/" if info.is_dir() and not name.endswith("/") else "")
            zf.extract(info, dest)
            mode = (info.external_attr >> 16) & 0o777
            if mode & 0o111 and not info.is_dir():
                target = dest.joinpath(*PurePosixPath(info.filename.replace("\\", "/")).parts)
                os.chmod(target, (target.stat().st_mode | 0o100) & 0o7777)
    return top is not None


def _place_submodule(sub_tree: Path, tree: Path, rel: str) -> None:
    target = tree.joinpath(*PurePosixPath(rel).parts)
    if target.is_dir():
        if any(target.iterdir()):
            raise SourceError(
                f"The source archive already has files in the submodule folder {rel}.",
                hint="Report this; meanwhile choose a local copy (Kernel page → Local folder).",
            )
        target.rmdir()
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(sub_tree, target)


def _manifest(tree: Path) -> dict[str, str]:
    """relative path → SHA-256 of every file (a symlink: of its target text), without the
    wizard's own files at the root."""
    files: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(tree):
        here = Path(dirpath)
        rel_dir = here.relative_to(tree).as_posix()
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d not in _OWN_NAMES]
            filenames = [f for f in filenames if f not in _OWN_NAMES]
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
                files[rel] = _file_sha256(path)
    return files


def _manifest_problem(tree: Path, record: Mapping[str, Any]) -> str | None:
    want = record.get("files")
    if not isinstance(want, dict) or not want:
        return "its record has no file hashes"
    have = _manifest(tree)
    changed = sorted(p for p in want if p in have and have[p] != want[p])
    missing = sorted(p for p in want if p not in have)
    extra = sorted(p for p in have if p not in want and not _is_build_output(p))
    parts = []
    if changed:
        parts.append("changed: " + _some(changed))
    if missing:
        parts.append("missing: " + _some(missing))
    if extra:
        parts.append("not part of the source: " + _some(extra))
    return "; ".join(parts) if parts else None


def _is_build_output(rel: str) -> bool:
    parts = PurePosixPath(rel.rstrip("/")).parts
    if not parts:
        return False
    for part in parts[:-1]:
        if part in _BUILD_DIRS or part.endswith(_BUILD_DIR_SUFFIXES):
            return True
    last = parts[-1]
    return (last in _BUILD_DIRS or last.endswith(_BUILD_DIR_SUFFIXES)
            or last.endswith(_BUILD_FILE_SUFFIXES) or last in _BUILD_FILES)


def _write_record(tree: Path, data: Mapping[str, Any]) -> None:
    payload = {"schema": _RECORD_SCHEMA, **data}
    (tree / SOURCE_RECORD).write_text(json.dumps(payload, indent=1, ensure_ascii=False),
                                      encoding="utf-8")


def _read_record(tree: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((tree / SOURCE_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("schema") != _RECORD_SCHEMA:
        return None
    return data


# =============================================================================================
# Local folders and submodules
# =============================================================================================


def _check_package_root(folder: Path) -> None:
    if (folder / "setup.py").is_file() or (folder / "pyproject.toml").is_file():
        return
    hint = "Choose the top folder of the kernel's source: the one that holds setup.py."
    try:
        inner = [d for d in folder.iterdir() if d.is_dir() and (
            (d / "setup.py").is_file() or (d / "pyproject.toml").is_file())]
    except OSError:
        inner = []
    if len(inner) == 1:
        hint = f"Choose the folder {inner[0]} instead: it holds the setup.py."
    raise SourceError(
        f"The folder {folder} is not a Python package source.",
        why="It has neither a setup.py nor a pyproject.toml.",
        hint=hint,
    )


def _submodule_problem(tree: Path, sub: SubmoduleSpec) -> str | None:
    """None when the submodule folder is populated; else what is wrong, in words."""
    folder = tree.joinpath(*PurePosixPath(sub.path).parts)
    if not folder.is_dir():
        return "missing"
    try:
        entries = [e for e in folder.iterdir() if e.name != ".git"]
    except OSError:
        return "not readable"
    if not entries:
        return "empty"
    if sub.marker and not folder.joinpath(*PurePosixPath(sub.marker).parts).is_file():
        return f"incomplete (it has no {sub.marker})"
    return None


def _empty_submodule_error(
    folder: Path, spec: SourceSpec, sub: SubmoduleSpec, problem: str,
    gitmodules: Mapping[str, str],
) -> SourceError:
    url = sub.url or gitmodules.get(sub.path)
    if url:
        url = _resolve_relative_url(spec.url, url)
    at = f" at commit {sub.commit}" if sub.commit else " at the commit the source pins"
    where = f"{url}{at}" if url else f"the submodule's repository{at}"
    return SourceError(
        f"The submodule folder {sub.path} in {folder} is {problem}.",
        why=f"{spec.name} needs {sub.path} ({where}). A GitHub 'Download ZIP' or source archive "
        "does not contain submodules.",
        hint=f"In that folder run: git submodule update --init --recursive {sub.path} — or "
        f"download {where} as an archive and extract it into {sub.path} — or let the wizard "
        "fetch the source (Kernel page → Download).",
    )


def _read_gitmodules(tree: Path) -> dict[str, str]:
    """submodule path → URL, from ``.gitmodules``."""
    try:
        text = (tree / ".gitmodules").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    sections: dict[str, dict[str, str]] = {}
    current_name: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        header = re.match(r'^\[submodule\s+"(.+)"\]$', line)
        if header is not None:
            current_name = header.group(1)
            sections.setdefault(current_name, {})
            continue
        if line.startswith("["):
            current_name = None
            continue
        if current_name is not None and "=" in line:
            key, _, value = line.partition("=")
            sections[current_name][key.strip().lower()] = value.strip().strip('"')
    return {s["path"]: s["url"] for s in sections.values() if "path" in s and "url" in s}


def _resolve_relative_url(base: str, url: str) -> str:
    """A submodule URL relative to the superproject's (``../cutlass.git``), made absolute."""
    if not url.startswith(("./", "../")):
        return url
    trimmed = base.rstrip("/")
    for part in url.split("/"):
        if part == "..":
            trimmed = trimmed.rsplit("/", 1)[0]
        elif part not in (".", ""):
            trimmed = f"{trimmed}/{part}"
    return trimmed


def _local_commit(folder: Path, git: str | None) -> str | None:
    """HEAD of a git checkout (best effort; None without git or outside a checkout)."""
    if not git or not (folder / ".git").exists():
        return None
    try:
        done = subprocess.run([git, "-C", str(folder), "rev-parse", "HEAD"], env=_git_env(),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = done.stdout.strip()
    return out if done.returncode == 0 and _SHA_RE.match(out) else None


# =============================================================================================
# Files and folders
# =============================================================================================


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _mkdir(root: Path) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _disk_error(exc, root) from exc


def _new_work(root: Path, name: str) -> Path:
    try:
        return Path(tempfile.mkdtemp(prefix=f"{_TMP_PREFIX}{name}-", dir=root))
    except OSError as exc:
        raise _disk_error(exc, root) from exc


def _clean_stale(root: Path, name: str) -> None:
    """Remove temporary folders an interrupted earlier fetch of ``name`` left behind."""
    for stale in root.glob(f"{_TMP_PREFIX}{name}-*"):
        _rmtree(stale, quiet=True)


def _rmtree(path: Path, *, quiet: bool = False) -> None:
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
            f"The old copy of the source in {path} could not be removed.",
            why="Some of its files are in use or write-protected.",
            hint="Close programs that may use files there (editors, terminals, a running "
            "build), then try again.",
        )


def _disk_error(exc: OSError, where: Path) -> SourceError:
    full = exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)) or getattr(
        exc, "winerror", None) in (39, 112)
    if full:
        return SourceError(
            "The disk is full: the source could not be written.",
            why=f"{exc.strerror or exc} ({where}).",
            hint=f"Free some space on the drive of {where} (a kernel's source with its "
            "submodules can take a few GB), then try again.",
        )
    return SourceError(
        "The source could not be written to disk.",
        why=f"{exc.strerror or exc} ({getattr(exc, 'filename', None) or where}).",
        hint=f"Check that {where} may be written to, then try again.",
    )


def _check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise SourceCancelled("Fetching the source was cancelled.")


# =============================================================================================
# Small helpers
# =============================================================================================


def _short_ref(ref: str) -> str:
    return ref[:12] if _SHA_RE.match(ref) else _safe_name(ref)[:40]


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "source"


def _repo_name(url: str) -> str:
    path = urlsplit(url).path if "://" in url else url
    name = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return name[:-4] if name.endswith(".git") else name


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _some(items: Iterable[str], limit: int = 3) -> str:
    seq = list(items)
    shown = ", ".join(seq[:limit])
    return shown + (f" and {len(seq) - limit} more" if len(seq) > limit else "")


def _tail(lines: Sequence[str], n: int = 3) -> str:
    """The last lines worth showing: git's fatal/error lines when there are any."""
    useful = [line.strip() for line in lines if line.strip()]
    errors = [line for line in useful if line.lower().startswith(("fatal:", "error:"))]
    chosen = (errors or useful)[-n:]
    return " | ".join(chosen) if chosen else "no output"
