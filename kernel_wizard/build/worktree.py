"""The build's own copy of a source: builds never write into the user's folder, the cache or
the wizard's own files.

Every source folder (the probe bundled with the wizard, a local folder the user chose, an
extracted archive, a downloaded tree in the source cache) is copied into the build root before
patches and the build touch it, so the original stays byte-identical whatever the build does
(``build/``, ``*.egg-info``, patched files, a cancelled or failed build). :func:`stage_source`
is the one copy step (the pipeline calls it through
:func:`kernel_wizard.flow.pipeline.stage_plan`); builds of one source running at once each get
a copy of their own (``slot``).

The copy is reused only when the whole configuration matches: the source's content (every
file's path, size and modification time), the build's configuration (the target Python and its
torch, the CUDA toolkit, the architectures, every environment variable the plan sets except
the parallelism) and the patches. Then its object files are still the right ones and ninja
skips them; any difference gives a fresh copy, so a second build with other settings never
silently skips compiling. One copy per source is kept: a new configuration replaces the old.

After the build, :func:`source_change` says whether the original was removed or changed while
it ran (the wheel was built from the copy taken at the start).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.messages import msg
from kernel_wizard.base.paths import short_name

STAMP = ".ksw-worktree.json"  # in the copy: the key it was made for
# what a build leaves in a source folder: never part of the content, never copied
BUILD_OUTPUTS = ("build", "dist", "__pycache__", ".ksw-patches", STAMP)
EGG_INFO = ".egg-info"


def _skipped(name: str) -> bool:
    return name in BUILD_OUTPUTS or name.endswith(EGG_INFO)


def _files(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    """(relative path with '/', stat) of every file under ``root``, build outputs left out;
    symbolic links are listed as themselves, never followed."""
    stack = [root]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if _skipped(entry.name):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                else:
                    rel = Path(entry.path).relative_to(root).as_posix()
                    yield rel, entry.stat(follow_symlinks=False)


def content_key(root: Path) -> str:
    """A digest of the tree's files: path, size and modification time of each."""
    digest = hashlib.sha256()
    for rel, st in sorted(_files(root)):
        digest.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8",
                                                                        "surrogateescape"))
    return digest.hexdigest()


def config_key(settings: Mapping[str, object]) -> str:
    """A digest of the build's configuration (JSON-able values)."""
    text = json.dumps(settings, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class StagedSource:
    path: Path  # the copy the build runs in
    original: Path
    content: str  # content_key of the original when it was copied
    reused: bool  # an earlier copy of the same content and configuration

    def describe(self) -> str:
        if self.reused:
            return msg("building in {path}, the copy of an earlier build with the same source "
                       "and settings (its compiled files are reused)", path=self.path)
        return msg("building in a fresh copy of the source: {path} (the original folder is "
                   "not written to)", path=self.path)


def stage_source(original: Path, build_root: Path, settings: Mapping[str, object],
                 slot: int = 1) -> StagedSource:
    """The build's copy of ``original`` under ``build_root`` (see the module docstring)."""
    content = content_key(original)
    key = config_key({"content": content, **settings})
    name = short_name(original.name or "source")
    prefix = f"w-{name}-" + (f"s{slot}-" if slot > 1 else "")
    target = build_root / f"{prefix}{key[:12]}"
    if _stamp(target) == key:
        return StagedSource(target, original, content, reused=True)
    _remove_siblings(build_root, prefix, keep=target)
    if target.exists():
        shutil.rmtree(target)
    try:
        shutil.copytree(original, target, symlinks=True,
                        ignore=lambda _folder, names: [n for n in names if _skipped(n)])
        if content_key(original) != content:  # it changed while it was copied
            raise SourceChanged(original)
        (target / STAMP).write_text(json.dumps({"key": key, "original": str(original)}),
                                    encoding="utf-8")
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)  # never half a copy
        raise
    return StagedSource(target, original, content, reused=False)


class SourceChanged(Exception):
    """The source folder changed while it was being copied."""

    def __init__(self, folder: Path) -> None:
        super().__init__(str(folder))
        self.folder = folder


def source_change(staged: StagedSource) -> str | None:
    """None when the original is as it was copied; else what happened to it, in words."""
    if not staged.original.is_dir():
        return msg("The source folder {folder} was removed during the build; the wheel was "
                   "built from the copy taken at its start ({copy}).", folder=staged.original,
                   copy=staged.path)
    try:
        now = content_key(staged.original)
    except OSError:
        return msg("The source folder {folder} could not be read after the build; the wheel "
                   "was built from the copy taken at its start ({copy}).",
                   folder=staged.original, copy=staged.path)
    if now != staged.content:
        return msg("The source folder {folder} changed during the build; the wheel was built "
                   "from the copy taken at its start ({copy}). Build again to include the "
                   "changes.", folder=staged.original, copy=staged.path)
    return None


def _stamp(folder: Path) -> str | None:
    try:
        data = read_json_file(folder / STAMP)
    except (OSError, ValueError):
        return None
    key = data.get("key") if isinstance(data, dict) else None
    return key if isinstance(key, str) else None


def _remove_siblings(root: Path, prefix: str, keep: Path) -> None:
    """Older copies of the same source (other configurations): one per source is kept."""
    for folder in _children(root):
        if folder.name.startswith(prefix) and folder != keep and len(folder.name) == \
                len(prefix) + 12:
            shutil.rmtree(folder, ignore_errors=True)


def _children(root: Path) -> Iterable[Path]:
    try:
        return [p for p in root.iterdir() if p.is_dir()]
    except OSError:
        return []


__all__ = ["BUILD_OUTPUTS", "SourceChanged", "StagedSource", "config_key", "content_key",
           "source_change", "stage_source"]
