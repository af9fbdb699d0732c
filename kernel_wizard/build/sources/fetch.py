"""The fetcher: the cache first (verified, never assumed), then git, then the archive."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from kernel_wizard.base.download import DownloadProgress
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.resources import resource_path
from kernel_wizard.build.patches import revert_patches
from kernel_wizard.build.sources.archive import ArchiveRoute
from kernel_wizard.build.sources.cache import clean_stale, make_dir, read_record, remove_tree
from kernel_wizard.build.sources.git import GitFailed, GitRoute
from kernel_wizard.build.sources.local import default_source_root, prepare_local
from kernel_wizard.build.sources.model import (
    FetchRoute,
    Route,
    SourceError,
    SourceEvent,
    SourceEventKind,
    SourceHosts,
    SourceSpec,
    SourceTree,
    SubmoduleSpec,
    TreeKind,
    check_cancel,
    short_ref,
)
from kernel_wizard.catalog import Recipe, RecipeVersion, SourceKind
from kernel_wizard.machine.platforms import Platform, current

DEFAULT_HOSTS = SourceHosts()  # GitHub


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
        slug=f"{recipe.id}-{short_ref(version.ref)}",
        subdir=source.subdir,
    )


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
    hosts: SourceHosts = DEFAULT_HOSTS,
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
    root = Path(build_root) if build_root is not None else default_source_root(plat)
    git_exe = git if git is not None else shutil.which("git")
    git_route = None
    if git_exe:
        git_route = GitRoute(spec, root, on_event, cancel, git=git_exe, blob_filter=blob_filter,
                             git_config=(*plat.git_config, *git_config), on_line=on_line)
    archive = ArchiveRoute(spec, root, on_event, cancel, hosts=hosts, allow_http=allow_http,
                           download_retries=download_retries, on_progress=on_progress)
    return _Fetcher(spec, root, on_event, cancel, git=git_route, archive=archive).fetch(route)


@dataclass
class _Fetcher(Route):
    git: GitRoute | None
    archive: ArchiveRoute

    def fetch(self, route: FetchRoute) -> SourceTree:
        spec = self.spec
        check_cancel(self.cancel)
        make_dir(self.root)
        final = self.root / spec.cache_name
        clean_stale(self.root, final.name)
        if route is FetchRoute.GIT and not self.git:
            raise SourceError(
                msg("git is needed to fetch {name} this way, but it is not installed.",
                    name=spec.name),
                hint=N_("Install git (https://git-scm.com), or let the wizard download the "
                        "source archive instead."),
            )
        cached = self._cached(final, route)
        if cached is not None:
            return cached

        git_failure: GitFailed | None = None
        if self.git and route is not FetchRoute.ARCHIVE:
            try:
                return self.git.fetch(final)
            except GitFailed as failed:
                if route is FetchRoute.GIT:
                    raise self.git.git_error(failed) from None
                git_failure = failed
                self._emit(SourceEventKind.FALLBACK,
                           f"git could not fetch {spec.name} ({failed.summary}); downloading "
                           "the source archive instead.")
        elif route is FetchRoute.AUTO:
            self._emit(SourceEventKind.FALLBACK,
                       "git is not installed; downloading the source archive instead.")
        try:
            return self.archive.fetch(final)
        except SourceError as err:
            if git_failure is not None:
                err.why = (err.why + " " if err.why else "") + (
                    f"git had failed before: {git_failure.summary}.")
            raise

    # -- the cache ------------------------------------------------------------------------------

    def _cached(self, final: Path, route: FetchRoute) -> SourceTree | None:
        if not final.exists():
            return None
        spec = self.spec
        record = read_record(final)
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
            if record.get("kind") == TreeKind.GIT.value and self.git is not None:
                reason, tree = self.git.check_tree(final, record)
            elif record.get("kind") == TreeKind.ARCHIVE.value:
                reason, tree = self.archive.check_tree(final, record)
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
        remove_tree(final)
        return None
