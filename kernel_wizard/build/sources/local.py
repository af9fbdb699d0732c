"""Sources the user chose: a folder built in place, or an archive extracted into the cache;
and the submodule checks every route shares."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath

from kernel_wizard.base.errors import ProcessError
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.paths import short_name
from kernel_wizard.base.processes import run_captured
from kernel_wizard.build.sources.cache import (
    clean_stale,
    disk_error,
    file_sha256,
    make_dir,
    manifest,
    manifest_problem,
    new_work,
    read_record,
    remove_tree,
    write_record,
)
from kernel_wizard.build.sources.extract import extract_archive
from kernel_wizard.build.sources.model import (
    GIT_ENV,
    SHA_RE,
    SourceError,
    SourceEvent,
    SourceEventKind,
    SourceSpec,
    SourceTree,
    SubmoduleSpec,
    SubmoduleState,
    TreeKind,
    check_cancel,
    opt_str,
    safe_name,
)
from kernel_wizard.machine.platforms import Platform, current


def default_source_root(platform: Platform | None = None) -> Path:
    """``<the platform's short build root>/src``."""
    return (platform or current()).default_build_root() / "src"


def prepare_local(
    path: Path,
    spec: SourceSpec | None = None,
    *,
    git: str | None = None,
    on_event: Callable[[SourceEvent], None] | None = None,
) -> SourceTree:
    """Check a source folder the user chose, to be built in place (nothing is copied).

    It must hold ``setup.py`` or ``pyproject.toml`` (in ``spec.subdir`` when the recipe's
    package lives in a subfolder, FlashAttention 3's ``hopper``), and every submodule ``spec``
    needs must be populated (its marker file present, when the recipe names one). Raises
    :class:`SourceError` naming the folder or the submodule and what to do.
    """
    folder = Path(path)
    if not folder.is_dir():
        raise SourceError(
            msg("The source folder {folder} does not exist.", folder=folder),
            hint=N_("Choose the folder that holds the kernel's setup.py."),
        )
    _check_package_root(folder, spec.subdir if spec is not None else "")
    git_exe = git if git is not None else shutil.which("git")
    emit = on_event or (lambda _e: None)
    states: list[SubmoduleState] = []
    gitmodules = read_gitmodules(folder)
    subs = spec.submodules if spec is not None else ()
    for sub in subs:
        problem = submodule_problem(folder, sub)
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
        digest = file_sha256(archive)
    except OSError as exc:
        raise SourceError(
            msg("The archive {archive} could not be read.", archive=archive),
            why=f"{exc.strerror or exc}.",
            hint=N_("Choose a .tar.gz or .zip file of the kernel's source."),
        ) from exc
    root = Path(build_root) if build_root is not None else default_source_root(
        platform or current())
    base = spec.cache_name if spec is not None else short_name(
        safe_name(archive.name.split(".")[0]))
    final = root / f"{base}-local-{digest[:12]}"
    make_dir(root)
    clean_stale(root, final.name)
    from_cache = False
    if final.exists():
        record = read_record(final)
        reason = "it has no record of a complete extraction"
        if record is not None and record.get("archive_sha256") == digest:
            reason = manifest_problem(final, record) or ""
        if not reason:
            from_cache = True
            emit(SourceEvent(SourceEventKind.CACHE_HIT,
                             f"Using the extracted copy of {archive.name} (verified)."))
        else:
            emit(SourceEvent(SourceEventKind.CACHE_REJECTED,
                             f"The extracted copy of {archive.name} is not used: {reason}. "
                             "Extracting it again."))
            remove_tree(final)
    if not from_cache:
        emit(SourceEvent(SourceEventKind.STEP, f"Extracting {archive.name}"))
        work = new_work(root, final.name)
        try:
            check_cancel(cancel)
            tree, commit = extract_archive(archive, work / "x", archive.name)
            write_record(tree, {
                "kind": TreeKind.ARCHIVE.value, "origin": str(archive), "archive_sha256": digest,
                "url": spec.url if spec is not None else "", "ref": spec.ref if spec else "",
                "commit": commit, "submodules": {}, "files": manifest(tree),
            })
            os.replace(tree, final)
        except OSError as exc:
            raise disk_error(exc, root) from exc
        finally:
            remove_tree(work, quiet=True)
    local = prepare_local(final, spec, git="", on_event=None)
    record = read_record(final) or {}
    commit = opt_str(record.get("commit"))
    if spec is not None and spec.commit and commit and commit != spec.commit:
        emit(SourceEvent(SourceEventKind.WARNING,
                         f"{archive.name} was made from commit {commit[:12]}; the recipe's "
                         f"version {spec.ref} is {spec.commit[:12]}."))
    emit(SourceEvent(SourceEventKind.DONE, f"Source ready in {final}"))
    return SourceTree(
        path=final, kind=TreeKind.ARCHIVE, ref=local.ref, commit=commit, from_cache=from_cache,
        submodules=local.submodules, origin=str(archive),
    )


def _check_package_root(folder: Path, subdir: str = "") -> None:
    if subdir:
        package = folder.joinpath(*PurePosixPath(subdir).parts)
        if (package / "setup.py").is_file() or (package / "pyproject.toml").is_file():
            return
        if folder.name == PurePosixPath(subdir).name and (folder / "setup.py").is_file():
            raise SourceError(  # the package folder itself: its setup.py needs its parent
                msg("The folder {folder} is only the {subdir} part of the kernel's source.",
                    folder=folder, subdir=subdir),
                why=msg("Its setup.py reads files from the folder above it (the repository "
                        "root), so the whole repository is needed."),
                hint=msg("Choose the folder {folder} instead: the repository that holds "
                         "{subdir}.", folder=folder.parent, subdir=subdir),
            )
        raise SourceError(
            msg("The folder {folder} has no {subdir} folder with a setup.py.", folder=folder,
                subdir=subdir),
            why=msg("The kernel's package lives in {subdir} of its repository.", subdir=subdir),
            hint=N_("Choose the top folder of the kernel's repository."),
        )
    if (folder / "setup.py").is_file() or (folder / "pyproject.toml").is_file():
        return
    hint = N_("Choose the top folder of the kernel's source: the one that holds setup.py.")
    try:
        inner = [d for d in folder.iterdir() if d.is_dir() and (
            (d / "setup.py").is_file() or (d / "pyproject.toml").is_file())]
    except OSError:
        inner = []
    if len(inner) == 1:
        hint = msg("Choose the folder {folder} instead: it holds the setup.py.",
                   folder=inner[0])
    raise SourceError(
        msg("The folder {folder} is not a Python package source.", folder=folder),
        why=N_("It has neither a setup.py nor a pyproject.toml."),
        hint=hint,
    )


def submodule_problem(tree: Path, sub: SubmoduleSpec) -> str | None:
    """None when the submodule folder is populated; else what is wrong, in words."""
    folder = tree.joinpath(*PurePosixPath(sub.path).parts)
    if not folder.is_dir():
        return msg("missing")
    try:
        entries = [e for e in folder.iterdir() if e.name != ".git"]
    except OSError:
        return msg("not readable")
    if not entries:
        return msg("empty")
    if sub.marker and not folder.joinpath(*PurePosixPath(sub.marker).parts).is_file():
        return msg("incomplete (it has no {marker})", marker=sub.marker)
    return None


def _empty_submodule_error(
    folder: Path, spec: SourceSpec, sub: SubmoduleSpec, problem: str,
    gitmodules: Mapping[str, str],
) -> SourceError:
    url = sub.url or gitmodules.get(sub.path)
    if url:
        url = resolve_relative_url(spec.url, url)
    repo = url or msg("the submodule's repository")
    where = (msg("{repo} at commit {commit}", repo=repo, commit=sub.commit) if sub.commit
             else msg("{repo} at the commit the source pins", repo=repo))
    return SourceError(
        msg("The submodule folder {path} in {folder} is {problem}.", path=sub.path,
            folder=folder, problem=problem),
        why=msg("{name} needs {path} ({where}). A GitHub 'Download ZIP' or source archive does "
                "not contain submodules.", name=spec.name, path=sub.path, where=where),
        hint=msg("In that folder run: git submodule update --init --recursive {path} — or "
                 "download {where} as an archive and extract it into {path} — or let the "
                 "wizard fetch the source (Kernel page → Download).", path=sub.path,
                 where=where),
    )


def read_gitmodules(tree: Path) -> dict[str, str]:
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


def resolve_relative_url(base: str, url: str) -> str:
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
        done = run_captured([git, "-C", str(folder), "rev-parse", "HEAD"], env_changes=GIT_ENV,
                            timeout_s=30)
    except ProcessError:
        return None
    out = done.stdout.strip()
    return out if done.returncode == 0 and SHA_RE.match(out) else None
