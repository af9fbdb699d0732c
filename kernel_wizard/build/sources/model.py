"""Source fetching: what is asked for (specs), what comes back (trees, events), its errors,
and the small helpers every route shares."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from urllib.parse import urlsplit

from kernel_wizard.base.errors import Cancelled, ExitCode, StorageError, WizardError
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.processes import EnvChange
from kernel_wizard.build.patches import LEDGER_DIR

SOURCE_RECORD = ".ksw-source.json"  # in the tree root
RECORD_SCHEMA = "ksw.source/1"
DOWNLOADS = ".downloads"  # archives, beside the trees: <build root>/.downloads
TMP_PREFIX = ".tmp-"
OWN_NAMES = frozenset({SOURCE_RECORD, LEDGER_DIR})  # ours, at the tree root

# What a build leaves in a source tree; never counts as a change to the source.
BUILD_DIRS = frozenset({"build", "dist", ".eggs", "__pycache__"})
BUILD_DIR_SUFFIXES = (".egg-info",)
BUILD_FILE_SUFFIXES = (".so", ".pyd", ".pyc", ".o", ".obj")
BUILD_FILES = frozenset({".ninja_log", ".ninja_deps"})

SHA_RE = re.compile(r"^[0-9a-f]{40}$")
_GITHUB_RE = re.compile(r"^https://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?$")
OFFLINE_MARKERS = (
    "could not resolve host", "failed to connect", "unable to access", "connection refused",
    "connection timed out", "network is unreachable", "could not read from remote repository",
    "connection reset", "operation timed out", "temporary failure in name resolution",
    "no route to host",
)
DISK_FULL_MARKERS = ("no space left on device", "disk quota exceeded", "not enough space")
MIN_GIT_SUBMODULE_FILTER = (2, 36)

# What every git command gets in its environment.
GIT_ENV = (
    EnvChange("GIT_TERMINAL_PROMPT", "0", why="never wait for a password nobody will type"),
    EnvChange("GCM_INTERACTIVE", "never"),
    EnvChange("LC_ALL", "C", why="messages in English: they are matched"),
    EnvChange("LANGUAGE", "C"),
)


class SourceError(WizardError):
    """The source tree could not be fetched, checked or prepared."""

    exit_code = ExitCode.FAILURE


class SourceStorageError(StorageError, SourceError):
    """The source could not be written: a full disk, no permission, a name too long, ... (a
    :class:`SourceError` that is also a :class:`~kernel_wizard.base.errors.StorageError`)."""


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
    subdir: str = ""  # where setup.py lives, relative to the root ("hopper"); "" = the root

    @property
    def cache_name(self) -> str:
        if self.slug:
            return safe_name(self.slug)
        return f"{safe_name(repo_name(self.url).lower())}-{short_ref(self.ref)}"


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
            msg("No source archive address is known for {url}.", url=repo_url),
            why=N_("Source archives are downloaded from GitHub; this repository is not on "
                   "GitHub."),
            hint=N_("Install git, or choose a local copy of the source (Kernel page → Local "
                    "folder)."),
        )
    return match.group(1), match.group(2)



@dataclass
class Route:
    """What every fetch route shares: the spec, the build root, events and the cancel event."""

    spec: SourceSpec
    root: Path
    on_event: Callable[[SourceEvent], None] | None
    cancel: threading.Event | None

    def _emit(self, kind: SourceEventKind, message: str) -> None:
        if self.on_event is not None:
            self.on_event(SourceEvent(kind, message))


def check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled("Fetching the source was cancelled.")


def short_ref(ref: str) -> str:
    return ref[:12] if SHA_RE.match(ref) else safe_name(ref)[:40]


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "source"


def repo_name(url: str) -> str:
    path = urlsplit(url).path if "://" in url else url
    name = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return name[:-4] if name.endswith(".git") else name


def opt_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def some_of(items: Iterable[str], limit: int = 3) -> str:
    seq = list(items)
    shown = ", ".join(seq[:limit])
    return shown + (f" and {len(seq) - limit} more" if len(seq) > limit else "")


def last_lines(lines: Sequence[str], n: int = 3) -> str:
    """The last lines worth showing: git's fatal/error lines when there are any."""
    useful = [line.strip() for line in lines if line.strip()]
    errors = [line for line in useful if line.lower().startswith(("fatal:", "error:"))]
    chosen = (errors or useful)[-n:]
    return " | ".join(chosen) if chosen else "no output"
