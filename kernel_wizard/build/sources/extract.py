"""Safe extraction of source archives (.tar.gz / .zip): no member outside the folder, no
device files, links checked, the single top folder stripped while extracting."""

from __future__ import annotations

import os
import re
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from kernel_wizard.base.messages import N_, msg
from kernel_wizard.build.sources.model import SHA_RE, SourceError


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


# What a source archive may unpack to. The largest source the catalog fetches (FlashAttention
# with CUTLASS) is under 1 GB unpacked; more than this, or a member packed more than 1,000 to 1,
# is a broken or hostile archive, refused before anything is written.
MAX_EXTRACTED_BYTES = 4 * 1024**3
MAX_RATIO = 1000
_DEVICE = "a device file"


def _unsafe_archive(label: str, member: str, why: str) -> SourceError:
    because = (msg("It contains {member}, a device file or pipe, which a source archive never "
                   "holds.", member=repr(member)) if why == _DEVICE else
               msg("It contains {member}, {why}, which would be written outside the source "
                   "folder.", member=repr(member), why=why))
    return SourceError(
        msg("The archive {label} is unsafe and was not extracted.", label=label),
        why=because,
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
                why = _DEVICE
            if why is not None:
                raise _unsafe_archive(label, m.name, why)
        _check_size(label, sum(max(m.size, 0) for m in members if m.isfile()), None)
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


def _check_size(label: str, total: int, ratio: float | None) -> None:
    """Refuse an archive that would unpack to more than MAX_EXTRACTED_BYTES, or whose members
    are packed past MAX_RATIO (a zip bomb), before a byte is written."""
    if total > MAX_EXTRACTED_BYTES or (ratio is not None and ratio > MAX_RATIO):
        raise SourceError(
            msg("The archive {label} was not extracted: it would unpack to {size} GB, more "
                "than any kernel's source.", label=label, size=f"{total / 1e9:.1f}"),
            why=(msg("One of its files is packed {ratio} to 1, as only a damaged or hostile "
                     "archive is.", ratio=f"{ratio:,.0f}") if ratio and ratio > MAX_RATIO else
                 msg("The limit is {limit} GB.", limit=f"{MAX_EXTRACTED_BYTES / 1e9:.1f}")),
            hint=N_("Use the source archive from the project's own page (GitHub), not a copy "
                    "from elsewhere."),
        )


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
        _check_size(label, sum(i.file_size for i in infos),
                    max((i.file_size / max(i.compress_size, 1) for i in infos
                         if i.file_size > 1024**2), default=None))
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

