"""Safe extraction of source archives (.tar.gz / .zip): no member outside the folder, no
device files, links checked, the single top folder stripped while extracting."""

from __future__ import annotations

import os
import re
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from ..words import N_, msg
from .model import SHA_RE, SourceError


def extract_archive(archive: Path, dest: Path, label: str) -> tuple[Path, str | None]:
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
                msg("{label} is not a .tar.gz or .zip archive.", label=label),
                hint=N_("Choose the source archive (a .tar.gz or .zip file)."),
            )
    except (tarfile.TarError, zipfile.BadZipFile, EOFError) as exc:
        raise SourceError(
            msg("The archive {label} is damaged and could not be extracted.", label=label),
            why=f"{type(exc).__name__}: {exc}.",
            hint=N_("Download it again (the wizard does this when you retry), or choose "
                    "another copy."),
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
        msg("The archive {label} is unsafe and was not extracted.", label=label),
        why=msg("It contains {member}, {why}, which would be written outside the source "
                "folder.", member=repr(member), why=why),
        hint=N_("Use the source archive from the project's own page (GitHub), not a copy from "
                "elsewhere."),
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
        commit = comment if SHA_RE.match(comment) else None
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


def place_submodule(sub_tree: Path, tree: Path, rel: str) -> None:
    target = tree.joinpath(*PurePosixPath(rel).parts)
    if target.is_dir():
        if any(target.iterdir()):
            raise SourceError(
                msg("The source archive already has files in the submodule folder {folder}.",
                    folder=rel),
                hint=N_("Report this; meanwhile choose a local copy (Kernel page → Local "
                        "folder)."),
            )
        target.rmdir()
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(sub_tree, target)

