"""The verified-wheel cache: every wheel that passed verification, kept to install again.

Building is the slow path (FlashAttention 2: 14 minutes on 32 cores, hours on a laptop), and
the same wheel is needed again whenever an AI program recreates its environment (ComfyUI
portable's updates replace ``python_embeded``) or a second program wants the same kernel. So a
wheel that passed the wizard's verification is kept here, content-addressed by its SHA-256,
with what it is (kernel, version, build variant, where it came from: a build of which source or
a publisher's wheel), what it was built for (:class:`WheelTarget`: the PyTorch build, the
Python tag, the platform, the GPU architectures) and every verification it passed
(:class:`PassedOn`: date, PyTorch, CUDA, Python, GPU, driver, the report).

Installing the same kernel and version into an environment that matches (:func:`find`: the
same PyTorch build, Python tag and platform, and GPUs the wheel was built for) takes the cached
wheel (:func:`take`: its digest is checked again first), verifies it in that environment and
installs it: no compiling. The cache has a size cap (:func:`cache_cap_bytes`, 5 GB unless
``KSW_WHEEL_CACHE_MB`` says otherwise): the least recently used wheels go first.

Layout, under the wizard's data folder::

    wheel-cache/<sha256>/<the wheel's own file name>
    wheel-cache/<sha256>/entry.json     what it is, what it was built for, what it passed

The entry is written after the wheel (a crash between the two leaves a folder without an entry,
which :func:`entries` ignores and :func:`prune` removes); changes are made holding the cache's
lock, so two runs of the wizard never write one entry at once.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from kernel_wizard.base.download import hash_file
from kernel_wizard.base.locks import hold
from kernel_wizard.base.paths import data_dir, locks_dir, storage_error
from kernel_wizard.base.statefile import StateStatus, read_json, write_json

SCHEMA = 1
ENTRY = "entry.json"
DEFAULT_CAP_MB = 5000
CAP_VARIABLE = "KSW_WHEEL_CACHE_MB"


class CacheEntryError(ValueError):
    """An entry file that is not what this module writes."""


@dataclass(frozen=True)
class WheelTarget:
    """What an environment must have for a wheel to be reused there unchanged.

    ``torch``: PyTorch's full version with its build label (``2.11.0+cu130``): a kernel
    compiled against one PyTorch build uses its C++ ABI, which no other build promises;
    ``python_tag``: ``cp312`` (``cp313t`` free-threaded); ``platform``: ``linux_x86_64`` or
    ``win_amd64``; ``archs``: the GPU architectures (compute capabilities such as ``9.0``)
    the wheel holds code for, or that the target's GPUs are (empty: no GPU code needed)."""

    torch: str
    python_tag: str
    platform: str
    archs: tuple[str, ...] = ()

    def fits(self, target: WheelTarget) -> bool:
        """Whether a wheel built for ``self`` runs unchanged where ``target`` describes."""
        return (self.torch == target.torch and self.python_tag == target.python_tag
                and self.platform == target.platform
                and set(target.archs) <= set(self.archs))

    def differences(self, target: WheelTarget) -> list[str]:
        """What keeps a wheel built for ``self`` from ``target``, in words (empty: it fits)."""
        out = []
        if self.torch != target.torch:
            out.append(f"PyTorch {self.torch}, here {target.torch}")
        if self.python_tag != target.python_tag:
            out.append(f"Python {self.python_tag}, here {target.python_tag}")
        if self.platform != target.platform:
            out.append(f"platform {self.platform}, here {target.platform}")
        missing = sorted(set(target.archs) - set(self.archs))
        if missing:
            out.append(f"no code for GPU architecture {', '.join(missing)}")
        return out


@dataclass(frozen=True)
class PassedOn:
    """One verification the wheel passed: when, and on what."""

    date: str  # ISO 8601, local time with offset
    python: str  # the interpreter that ran the harness
    torch: str
    torch_cuda: str | None = None
    gpus: tuple[str, ...] = ()
    driver: str | None = None
    report: str = ""  # the saved report's JSON file
    quick: bool = False


@dataclass(frozen=True)
class CachedWheel:
    """One kept wheel (see the module's text)."""

    digest: str
    filename: str
    size: int
    kernel: str
    version: str
    variant: str | None
    source: str  # where the wheel came from, in words ("built from ...", "prebuilt ...")
    built_for: WheelTarget
    passed: tuple[PassedOn, ...]
    added: str
    last_used: str
    folder: Path = field(compare=False)

    @property
    def path(self) -> Path:
        return self.folder / self.filename

    @property
    def verified_on(self) -> str:
        """The date (YYYY-MM-DD) of its latest passing verification."""
        return max(p.date for p in self.passed)[:10] if self.passed else self.added[:10]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("folder")
        data["schema"] = SCHEMA
        return data

    @classmethod
    def from_json(cls, data: Any, folder: Path) -> CachedWheel:
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise CacheEntryError(f"not a schema-{SCHEMA} cache entry")
        try:
            built = data["built_for"]
            return cls(
                digest=str(data["digest"]), filename=str(data["filename"]),
                size=int(data["size"]), kernel=str(data["kernel"]),
                version=str(data["version"]),
                variant=None if data.get("variant") is None else str(data["variant"]),
                source=str(data.get("source", "")),
                built_for=WheelTarget(str(built["torch"]), str(built["python_tag"]),
                                      str(built["platform"]),
                                      tuple(str(a) for a in built.get("archs", ()))),
                passed=tuple(PassedOn(**{**p, "gpus": tuple(p.get("gpus", ()))})
                             for p in data.get("passed", ())),
                added=str(data["added"]), last_used=str(data.get("last_used", data["added"])),
                folder=folder,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CacheEntryError(f"a damaged cache entry: {exc}") from exc


def cache_dir(create: bool = True) -> Path:
    path = data_dir(create) / "wheel-cache"
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise storage_error(exc, path=path,
                                action="create the verified-wheel cache folder") from exc
    return path


def cache_cap_bytes() -> int:
    """The cache's size cap: ``KSW_WHEEL_CACHE_MB`` megabytes (0 keeps nothing), else 5 GB."""
    raw = os.environ.get(CAP_VARIABLE, "").strip()
    try:
        megabytes = int(raw) if raw else DEFAULT_CAP_MB
    except ValueError:
        megabytes = DEFAULT_CAP_MB
    return max(0, megabytes) * 1_000_000


def now() -> str:
    return datetime.now().astimezone().isoformat(timespec="microseconds")


@contextmanager
def _locked() -> Iterator[None]:
    with hold(locks_dir() / "wheel-cache.lock", "changing the verified-wheel cache"):
        yield


def _entry_path(folder: Path) -> Path:
    return folder / ENTRY


def _read(folder: Path) -> CachedWheel | None:
    entry = _entry_path(folder)
    if not entry.is_file():
        return None
    state = read_json(entry, lambda data: CachedWheel.from_json(data, folder), repair=False)
    if state.status is not StateStatus.OK or state.value is None:
        return None
    wheel = state.value
    return wheel if wheel.path.is_file() else None


def entries(root: Path | None = None) -> list[CachedWheel]:
    """Every complete entry, newest use first (a folder without its entry or wheel is left
    out: :func:`prune` removes it)."""
    base = root if root is not None else cache_dir(create=False)
    if not base.is_dir():
        return []
    found = [w for folder in sorted(base.iterdir()) if folder.is_dir()
             if (w := _read(folder)) is not None]
    return sorted(found, key=lambda w: w.last_used, reverse=True)


def total_size(root: Path | None = None) -> int:
    return sum(w.size for w in entries(root))


def keep(wheel: Path, *, kernel: str, version: str, variant: str | None, source: str,
         built_for: WheelTarget, passed: PassedOn, root: Path | None = None,
         cap_bytes: int | None = None) -> CachedWheel | None:
    """Keep ``wheel`` after a passing verification (or add that verification to the entry
    it already has); then hold the cache under its cap, this wheel last to go. None when the
    cap keeps nothing (``KSW_WHEEL_CACHE_MB=0``)."""
    cap = cache_cap_bytes() if cap_bytes is None else cap_bytes
    if cap <= 0:
        return None
    base = root if root is not None else cache_dir()
    digest = hash_file(wheel)
    folder = base / digest
    with _locked():
        current = _read(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if current is None:
                part = folder / (wheel.name + ".part")
                shutil.copyfile(wheel, part)
                os.replace(part, folder / wheel.name)
        except OSError as exc:
            raise storage_error(exc, path=folder,
                                action="keep the verified wheel in the cache") from exc
        stamp = now()
        if current is None:
            entry = CachedWheel(digest, wheel.name, wheel.stat().st_size, kernel, version,
                                variant, source, built_for, (passed,), stamp, stamp, folder)
        else:
            entry = replace(current, passed=(*current.passed, passed), last_used=stamp)
        write_json(_entry_path(folder), entry.to_json(), keep_previous=False)
        _prune_locked(base, cap, keep_digest=digest)
    return entry


def find(kernel: str, version: str, variant: str | None, target: WheelTarget,
         root: Path | None = None) -> CachedWheel | None:
    """The most recently verified cached wheel of this kernel, version and variant that runs
    unchanged where ``target`` describes, or None."""
    fits = [w for w in entries(root)
            if w.kernel == kernel and w.version == version and w.variant == variant
            and w.built_for.fits(target)]
    return max(fits, key=lambda w: w.verified_on, default=None)


class CacheChanged(ValueError):
    """A cached wheel's content no longer matches its digest (the entry is removed)."""


def take(wheel: CachedWheel, into: Path) -> Path:
    """Copy the cached wheel into the folder ``into`` (its file name kept) after checking its
    digest again; marks it used. Raises :class:`CacheChanged` (and drops the entry) when the
    file changed on disk since it was kept."""
    if hash_file(wheel.path) != wheel.digest:
        remove(wheel)
        raise CacheChanged(f"The cached {wheel.filename} changed on disk since it was verified; "
                           "it was removed from the cache.")
    try:
        into.mkdir(parents=True, exist_ok=True)
        target = into / wheel.filename
        shutil.copyfile(wheel.path, target)
    except OSError as exc:
        raise storage_error(exc, path=into, action="copy the cached wheel") from exc
    with _locked():
        current = _read(wheel.folder)
        if current is not None:
            write_json(_entry_path(wheel.folder),
                       replace(current, last_used=now()).to_json(), keep_previous=False)
    return target


def remove(wheel: CachedWheel) -> None:
    with _locked():
        shutil.rmtree(wheel.folder, ignore_errors=True)


def clear(root: Path | None = None) -> tuple[int, int]:
    """Remove every kept wheel: (how many, how many bytes)."""
    base = root if root is not None else cache_dir(create=False)
    kept = entries(root)
    with _locked():
        if base.is_dir():
            shutil.rmtree(base, ignore_errors=True)
    return len(kept), sum(w.size for w in kept)


def prune(cap_bytes: int | None = None, root: Path | None = None) -> list[CachedWheel]:
    """Hold the cache under its cap (least recently used first) and drop incomplete folders;
    the wheels removed."""
    base = root if root is not None else cache_dir(create=False)
    if not base.is_dir():
        return []
    with _locked():
        return _prune_locked(base, cache_cap_bytes() if cap_bytes is None else cap_bytes)


def _prune_locked(base: Path, cap: int, keep_digest: str | None = None) -> list[CachedWheel]:
    complete = {w.digest for w in entries(base)}
    for folder in base.iterdir():
        if folder.is_dir() and folder.name not in complete and folder.name != keep_digest:
            shutil.rmtree(folder, ignore_errors=True)
    removed: list[CachedWheel] = []
    kept = sorted(entries(base), key=lambda w: w.last_used)  # oldest use first
    size = sum(w.size for w in kept)
    for wheel in kept:
        if size <= cap:
            break
        if wheel.digest == keep_digest:
            continue
        shutil.rmtree(wheel.folder, ignore_errors=True)
        size -= wheel.size
        removed.append(wheel)
    return removed


def describe(wheels: Iterable[CachedWheel]) -> list[str]:
    """One line per kept wheel, for ``installs`` and the logs."""
    return [f"{w.kernel} {w.version}{f' ({w.variant})' if w.variant else ''}: {w.filename}, "
            f"{w.size / 1e6:.1f} MB, for PyTorch {w.built_for.torch} {w.built_for.python_tag}"
            f"{' GPU ' + '/'.join(w.built_for.archs) if w.built_for.archs else ''}, "
            f"verified on {w.verified_on}" for w in wheels]
