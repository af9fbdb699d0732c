"""The archive route: the repository's source archive at the commit, then each submodule's
archive at its pinned commit, extracted into its folder; downloads through
:func:`kernel_wizard.base.download.download` (resumable, verified). Also the check of a cached
extracted tree (SHA-256 of every file)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kernel_wizard.base.download import DownloadError, DownloadProgress, download
from kernel_wizard.base.errors import Cancelled
from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.messages import N_, join, msg
from kernel_wizard.build.sources.cache import (
    disk_error,
    manifest,
    manifest_problem,
    new_work,
    remove_tree,
    write_record,
)
from kernel_wizard.build.sources.extract import extract_archive, place_submodule
from kernel_wizard.build.sources.local import (
    read_gitmodules,
    resolve_relative_url,
    submodule_problem,
)
from kernel_wizard.build.sources.model import (
    DOWNLOADS,
    SHA_RE,
    Route,
    SourceError,
    SourceEventKind,
    SourceHosts,
    SourceTree,
    SubmoduleSpec,
    SubmoduleState,
    TreeKind,
    check_cancel,
    opt_str,
    repo_name,
    safe_name,
)


@dataclass
class ArchiveRoute(Route):
    hosts: SourceHosts
    allow_http: bool
    download_retries: int
    on_progress: Callable[[DownloadProgress], None] | None

    def check_tree(
        self, final: Path, record: Mapping[str, Any]
    ) -> tuple[str, SourceTree | None]:
        spec = self.spec
        subs = record.get("submodules")
        subs = subs if isinstance(subs, dict) else {}
        for sub in spec.submodules:
            if sub.commit and subs.get(sub.path) != sub.commit:
                return (f"its {sub.path} is at {str(subs.get(sub.path))[:12]}, the recipe pins "
                        f"{sub.commit[:12]}"), None
        problem = manifest_problem(final, record)
        if problem:
            return problem, None
        states = tuple(
            SubmoduleState(s.path, opt_str(subs.get(s.path)), True) for s in spec.submodules)
        commit = opt_str(record.get("commit"))
        return "", SourceTree(final, TreeKind.ARCHIVE, spec.ref, commit, True, states, spec.url)

    # -- git route --------------------------------------------------------------------------------

    def fetch(self, final: Path) -> SourceTree:
        spec = self.spec
        ref = spec.commit or spec.ref
        work = new_work(self.root, final.name)
        downloads = self.root / DOWNLOADS
        try:
            url = self.hosts.archive(spec.url, ref)
            archive = self._download(url, downloads / f"{spec.cache_name}.tar.gz",
                                     f"the {spec.name} source")
            check_cancel(self.cancel)
            self._emit(SourceEventKind.STEP, f"Extracting {archive.name}")
            tree, made_from = extract_archive(archive, work / "x", archive.name)
            if spec.commit and made_from and made_from != spec.commit:
                raise SourceError(
                    msg("The downloaded {name} archive is not the expected version.",
                        name=spec.name),
                    why=msg("It was made from commit {made_from}; the recipe expects {commit} "
                            "({ref}).", made_from=made_from, commit=spec.commit, ref=spec.ref),
                    hint=N_("Try again later; if it persists, report this to the wizard's "
                            "maintainers."),
                )
            commit_known = spec.commit or made_from or (ref if SHA_RE.match(ref) else None)
            gitmodules = read_gitmodules(tree)
            pinned: dict[str, str] = {}
            for n, sub in enumerate(spec.submodules):
                check_cancel(self.cancel)
                commit = sub.commit or self._gitlink(sub, ref, work / f"gitlink-{n}.json")
                sub_url = sub.url or gitmodules.get(sub.path)
                if not sub_url:
                    raise SourceError(
                        msg("The {name} source does not say where its submodule {path} comes "
                            "from.", name=spec.name, path=sub.path),
                        why=N_("Its .gitmodules file has no entry for that folder."),
                        hint=N_("Install git and try again, or choose a local copy with the "
                                "submodule (Kernel page → Local folder)."),
                    )
                sub_url = resolve_relative_url(spec.url, sub_url)
                sub_archive = self._download(
                    self.hosts.archive(sub_url, commit),
                    downloads / f"{safe_name(repo_name(sub_url).lower())}-{commit[:12]}.tar.gz",
                    f"the submodule {sub.path}",
                )
                self._emit(SourceEventKind.STEP, f"Extracting {sub_archive.name} into {sub.path}")
                sub_tree, sub_made_from = extract_archive(sub_archive, work / f"s{n}",
                                                           sub_archive.name)
                if sub_made_from and sub_made_from != commit:
                    raise SourceError(
                        msg("The downloaded archive of {path} is not the pinned commit.",
                            path=sub.path),
                        why=msg("It was made from {made_from}; {name} pins {commit}.",
                                made_from=sub_made_from, name=spec.name, commit=commit),
                        hint=N_("Try again later; if it persists, report this to the wizard's "
                                "maintainers."),
                    )
                place_submodule(sub_tree, tree, sub.path)
                problem = submodule_problem(tree, sub)
                if problem is not None:
                    raise SourceError(
                        msg("The archive of {path} at {commit} does not look like the "
                            "submodule {name} needs: the folder {problem}.", path=sub.path,
                            commit=commit[:12], name=spec.name, problem=problem),
                        hint=N_("Report this; meanwhile choose a local copy (Kernel page → "
                                "Local folder)."),
                    )
                pinned[sub.path] = commit
            check_cancel(self.cancel)
            self._emit(SourceEventKind.STEP, "Recording file hashes of the extracted source")
            write_record(tree, {
                "kind": TreeKind.ARCHIVE.value, "url": spec.url, "ref": spec.ref,
                "commit": commit_known, "archive_url": url, "submodules": pinned,
                "files": manifest(tree),
            })
            os.replace(tree, final)
        except OSError as exc:
            raise disk_error(exc, self.root) from exc
        finally:
            remove_tree(work, quiet=True)
        self._emit(SourceEventKind.DONE, f"Source ready in {final}")
        states = tuple(SubmoduleState(p, c, True) for p, c in pinned.items())
        return SourceTree(final, TreeKind.ARCHIVE, spec.ref, commit_known, False, states,
                          spec.url)

    def _download(self, url: str, dest: Path, what: str) -> Path:
        self._emit(SourceEventKind.STEP, f"Downloading {what} ({url})")
        try:
            result = download(url, dest, progress=self.on_progress, cancel=self.cancel,
                              allow_http=self.allow_http, max_retries=self.download_retries)
        except Cancelled as exc:
            raise Cancelled("The source download was cancelled.",
                            why="The part downloaded so far is kept for the next try.") from exc
        except DownloadError as exc:
            raise self._download_error(exc, url, what) from exc
        if result.from_cache:
            self._emit(SourceEventKind.STEP, f"{dest.name} was downloaded before (verified).")
        elif result.resumed:
            self._emit(SourceEventKind.STEP, f"{dest.name}: continued an earlier download.")
        return result.path

    def _download_error(self, exc: DownloadError, url: str, what: str) -> SourceError:
        import requests  # lazily: not needed to start the wizard

        host = urlsplit(url).hostname or url
        if isinstance(exc.__cause__, (requests.ConnectionError, requests.Timeout)):
            return SourceError(
                msg("Could not reach {host} to download {what}.", host=host, what=what),
                why=exc.why or exc.what,
                hint=N_("Check the internet connection and try again, or choose a local copy "
                        "of the source (Kernel page → Local folder)."),
            )
        if "HTTP 404" in exc.what or "HTTP 410" in exc.what:
            return SourceError(
                msg("{host} has no source archive of {what} at that version.", host=host,
                    what=what),
                why=msg("{url} does not exist: the tag or commit is not in the repository.",
                        url=url),
                hint=N_("Choose another version on the Kernel page, or report this if the "
                        "version came with the wizard."),
            )
        offline = N_("If this computer has no internet access, choose a local copy of the "
                     "source (Kernel page → Local folder).")
        return SourceError(
            msg("The download of {what} failed: {error}", what=what, error=exc.what),
            why=exc.why,
            hint=join([exc.hint, offline]) if exc.hint else offline,
        )

    def _gitlink(self, sub: SubmoduleSpec, ref: str, dest: Path) -> str:
        """The commit the superproject pins ``sub`` to at ``ref`` (the GitHub contents API)."""
        spec = self.spec
        if self.hosts.gitlink is None:
            raise SourceError(
                msg("The recipe does not pin the commit of {name}'s submodule {path}.",
                    name=spec.name, path=sub.path),
                why=N_("A source archive has no submodules, and the commit to fetch is not "
                       "known."),
                hint=N_("Install git and try again, or choose a local copy with the submodule "
                        "(Kernel page → Local folder)."),
            )
        path = self._download(self.hosts.gitlink(spec.url, ref, sub.path), dest,
                              f"the commit of {sub.path}")
        try:
            data = read_json_file(path)
            sha = str(data["sha"]) if isinstance(data, dict) else ""
        except (OSError, ValueError, KeyError) as exc:
            raise SourceError(
                msg("Which commit {name} pins for {path} could not be read.", name=spec.name,
                    path=sub.path),
                why=msg("The answer was not understood ({error}).", error=exc),
                hint=N_("Install git and try again, or choose a local copy."),
            ) from exc
        if not SHA_RE.match(sha):
            raise SourceError(
                msg("Which commit {name} pins for {path} could not be read.", name=spec.name,
                    path=sub.path),
                why=msg("The answer named {sha}, not a commit.", sha=repr(sha)),
                hint=N_("Install git and try again, or choose a local copy."),
            )
        return sha
