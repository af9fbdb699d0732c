"""Declarative, idempotent source patches from recipes (``[[patches]]`` in a recipe TOML).

A :class:`~kernel_wizard.catalog.Patch` says: in ``file`` (relative to the source root), replace
``pattern`` (``kind = "literal"``: the exact text; ``"regex"``: a Python regular expression whose
``replacement`` may use ``\\1`` / ``\\g<name>``) by ``replacement``, and expect exactly
``expected_count`` occurrences; ``when`` limits it to some OS, a CUDA range or some versions.

:func:`apply_patches` gives one :class:`PatchResult` per patch, in order:

* **applied** — the pattern was found ``expected_count`` times and replaced;
* **already applied** — the patch is in the tree already, proven one of two ways:

  1. *recorded*: the ledger ``.ksw-patches/ledger.json`` that this module writes lists the patch
     (same id and the same pattern/replacement fingerprint) for the file, and the file's SHA-256
     is still the one written after patching. This is the normal case on a re-run, and sound:
     the bytes on disk are exactly the bytes this module produced.
  2. *by content* (no usable record, e.g. the ledger was deleted): the pattern matches nowhere
     **and** the replacement text is present exactly ``expected_count`` times (for a regex, the
     replacement template with its group references as wildcards within a line). A replacement
     that occurs elsewhere in the file too ("() {") cannot be told apart from upstream text;
     then the file is reported as a mismatch instead of being guessed at.

* **skipped** — the condition is false (with the reason, e.g. "only on Windows; this is Linux");
* **mismatch** — the pattern was found a different number of times, or neither the pattern nor
  the replacement was found as expected, or the file is missing: the upstream source changed.
  :class:`PatchError` is raised (it names the recipe, the patch id and the file, and carries
  every result in ``results``) and **no file is written**: all patches are checked in memory
  first, so a tree is never left half-patched.

Files are bytes in, bytes out: they are decoded as UTF-8 with ``surrogateescape`` (any byte
sequence round-trips unchanged), line endings are never translated, and in a CRLF file the
line breaks of a multi-line literal pattern and of every inserted replacement are written as
CRLF. Writes are atomic (a temporary file, then :func:`os.replace`) and keep the file mode.

Before a file is first changed its original bytes are kept, content-addressed, under
``.ksw-patches/original/``; :func:`revert_patches` puts them back (the source cache does this
before it checks a cached tree against its pristine state, see :mod:`kernel_wizard.build.sources`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

from kernel_wizard.base.advice import choose_kernel_version
from kernel_wizard.base.errors import WizardError
from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.catalog import OsName, Patch, PatchKind, RecipeVersion, Ver

__all__ = [
    "LEDGER_DIR",
    "PatchContext",
    "PatchError",
    "PatchResult",
    "PatchStatus",
    "RevertResult",
    "apply_patches",
    "condition_reason",
    "revert_patches",
]

LEDGER_DIR = ".ksw-patches"  # in the source root: ledger.json and original/<sha256>
_LEDGER_FILE = "ledger.json"
_ORIGINALS = "original"
_SCHEMA = "ksw.patches/1"
_ENCODING = "utf-8"
_ERRORS = "surrogateescape"  # any bytes decode and encode back unchanged


class PatchError(WizardError):
    """A recipe patch does not fit the source (or the recipe's patch is broken).

    ``results`` holds every patch's result as far as they were checked; nothing was written.
    """

    def __init__(
        self,
        what: str,
        *,
        why: str = "",
        hint: str = "",
        recipe: str = "",
        patch_id: str = "",
        file: str = "",
        results: Sequence[PatchResult] = (),
    ) -> None:
        super().__init__(what, why=why, hint=hint)
        self.recipe = recipe
        self.patch_id = patch_id
        self.file = file
        self.results = tuple(results)


class PatchStatus(Enum):
    APPLIED = "applied"
    ALREADY_APPLIED = "already applied"
    SKIPPED = "skipped"
    MISMATCH = "mismatch"


@dataclass(frozen=True)
class PatchContext:
    """What the conditions of a patch are evaluated against."""

    os: OsName
    cuda: Ver | None = None  # the CUDA toolkit that will compile: (12, 8)
    version: RecipeVersion | None = None  # None: unknown (a local folder)
    recipe: str = ""  # the kernel's name for messages: "FlashMLA"


@dataclass(frozen=True)
class PatchResult:
    patch_id: str
    file: str
    status: PatchStatus
    count: int = 0  # applied: replacements made; already applied / mismatch: occurrences seen
    detail: str = ""  # skipped: why; already applied: how it was detected; mismatch: what

    @property
    def ok(self) -> bool:
        return self.status is not PatchStatus.MISMATCH

    def describe(self) -> str:
        """One line for the build log."""
        head = f"patch {self.patch_id} ({self.file}): "
        if self.status is PatchStatus.APPLIED:
            return head + f"applied, {_times(self.count, 'replacement')}"
        if self.status is PatchStatus.ALREADY_APPLIED:
            return head + f"already applied ({self.detail})"
        if self.status is PatchStatus.SKIPPED:
            return head + f"skipped: {self.detail}"
        return head + f"MISMATCH: {self.detail}"


class _HasPath(Protocol):
    @property
    def path(self) -> Path: ...


# ---------------------------------------------------------------------------------------------
# Conditions


def condition_reason(patch: Patch, context: PatchContext) -> str | None:
    """None when the patch applies in ``context``; else why not, in words.

    Mirrors :meth:`~kernel_wizard.catalog.PatchCondition.applies`, with reasons.
    """
    when = patch.when
    if when.os and context.os not in when.os:
        wanted = _or(o.label for o in when.os)
        return f"only on {wanted}; this is {context.os.label}"
    if when.versions:
        version = context.version
        if version is None:
            return (f"only for version {_or(when.versions)}; the version being built is not "
                    "known")
        names = {version.tag, version.label, version.commit}
        if not names & set(when.versions):
            return f"only for version {_or(when.versions)}; this is {version.label}"
    if when.min_cuda is not None:
        if context.cuda is None:
            return f"needs CUDA {_ver(when.min_cuda)} or newer; the CUDA version is not known"
        if context.cuda < when.min_cuda:
            return f"needs CUDA {_ver(when.min_cuda)} or newer; this is CUDA {_ver(context.cuda)}"
    if when.max_cuda is not None:
        if context.cuda is None:
            return f"only up to CUDA {_ver(when.max_cuda)}; the CUDA version is not known"
        if context.cuda[:2] > when.max_cuda:
            return f"only up to CUDA {_ver(when.max_cuda)}; this is CUDA {_ver(context.cuda)}"
    return None


# ---------------------------------------------------------------------------------------------
# Applying


@dataclass
class _FileWork:
    rel: str
    path: Path
    original: bytes | None  # None: the file is missing
    text: str = ""
    crlf: bool = False
    changed: bool = False
    ledger_valid: bool = False  # the ledger's record for this file describes these bytes
    applied: list[dict[str, Any]] = field(default_factory=list)  # ledger entries after the run


def apply_patches(
    tree: Path | _HasPath,
    patches: Iterable[Patch],
    context: PatchContext,
    *,
    dry_run: bool = False,
) -> list[PatchResult]:
    """Apply ``patches`` (in order) to the source tree at ``tree``; see the module doc.

    Raises :class:`PatchError` on a mismatch (nothing is written then). With ``dry_run`` the
    results say what would happen and nothing is written (a mismatch still raises).
    """
    root = Path(tree) if isinstance(tree, (str, os.PathLike)) else Path(tree.path)
    patch_list = list(patches)
    ledger = _Ledger.load(root)
    files: dict[str, _FileWork] = {}
    results: list[PatchResult] = []
    first_bad: tuple[Patch, PatchResult] | None = None

    for patch in patch_list:
        rel = _relative(patch, context)
        why_not = condition_reason(patch, context)
        if why_not is not None:
            if _recorded_in_file(root, rel, patch, ledger):
                why_not += ("; it was applied in an earlier run and is still in the file "
                            "(fetch the source again to get the original)")
            results.append(PatchResult(patch.id, rel, PatchStatus.SKIPPED, 0, why_not))
            continue
        work = files.get(rel)
        if work is None:
            work = _load_file(root, rel, ledger)
            files[rel] = work
        result = _apply_one(patch, work, ledger, context)
        results.append(result)
        if result.status is PatchStatus.MISMATCH and first_bad is None:
            first_bad = (patch, result)

    if first_bad is not None:
        raise _mismatch_error(first_bad[0], first_bad[1], context, results)
    if dry_run:
        return results

    for work in files.values():
        if work.original is None:
            continue
        new_bytes = work.text.encode(_ENCODING, _ERRORS)
        if work.changed and new_bytes != work.original:
            ledger.keep_original(work.rel, work.original)
            ledger.record(work.rel, work.original, new_bytes, work.applied)
            ledger.save()  # first: a crash after this leaves a file the ledger can explain
            _write_atomic(work.path, new_bytes)
        elif work.applied and not work.ledger_valid:
            # Already patched, found by content: record it so a re-run is proven, not guessed.
            ledger.record(work.rel, None, work.original, work.applied)
            ledger.save()
    return results


def _recorded_in_file(root: Path, rel: str, patch: Patch, ledger: _Ledger) -> bool:
    entry = ledger.files.get(rel)
    if entry is None or not any(p.get("id") == patch.id for p in entry.get("patches", [])):
        return False
    try:
        data = root.joinpath(*PurePosixPath(rel).parts).read_bytes()
    except OSError:
        return False
    return entry.get("patched_sha256") == _sha(data)


def _relative(patch: Patch, context: PatchContext) -> str:
    rel = patch.file.replace("\\", "/")
    parts = PurePosixPath(rel).parts
    if not rel or rel.startswith("/") or ".." in parts or (parts and ":" in parts[0]):
        raise PatchError(
            f"The {context.recipe or 'recipe'} patch '{patch.id}' names the file {patch.file!r}, "
            "which is not inside the source tree.",
            why="A patch may only change files below the source folder.",
            hint="This is a bug in the recipe: report it.",
            recipe=context.recipe, patch_id=patch.id, file=patch.file,
        )
    return rel


def _load_file(root: Path, rel: str, ledger: _Ledger) -> _FileWork:
    path = root.joinpath(*PurePosixPath(rel).parts)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return _FileWork(rel, path, None)
    except OSError as exc:
        raise PatchError(
            f"The file {rel} could not be read for patching.",
            why=f"{exc.strerror or exc} ({path}).",
            hint="Check that the source folder is readable, then try again.",
            file=rel,
        ) from exc
    work = _FileWork(rel, path, data, text=data.decode(_ENCODING, _ERRORS), crlf=_is_crlf(data))
    entry = ledger.files.get(rel)
    if entry is not None and entry.get("patched_sha256") == _sha(data):
        work.ledger_valid = True
        work.applied = [dict(p) for p in entry.get("patches", [])]
    return work


def _apply_one(
    patch: Patch, work: _FileWork, ledger: _Ledger, context: PatchContext
) -> PatchResult:
    rel = work.rel
    if work.original is None:
        return PatchResult(patch.id, rel, PatchStatus.MISMATCH, 0,
                           "the file does not exist in this source tree")
    fingerprint = _fingerprint(patch)
    if work.ledger_valid and any(
        p.get("id") == patch.id and p.get("fingerprint") == fingerprint for p in work.applied
    ):
        return PatchResult(patch.id, rel, PatchStatus.ALREADY_APPLIED, patch.expected_count,
                           "recorded by the wizard; the file is unchanged since")

    expected = patch.expected_count
    finder = _Finder(patch, work.crlf)
    found = finder.count(work.text)
    if found == expected:
        try:
            new_text, made = finder.replace(work.text)
        except (re.error, IndexError) as exc:
            raise PatchError(
                f"The {context.recipe or 'recipe'} patch '{patch.id}' has a broken replacement.",
                why=f"{exc} (replacement {patch.replacement!r}).",
                hint="This is a bug in the recipe: report it.",
                recipe=context.recipe, patch_id=patch.id, file=rel,
            ) from exc
        if made != expected:  # cannot differ from count(); kept as a guard
            return PatchResult(patch.id, rel, PatchStatus.MISMATCH, made,
                               f"{made} replacements made, {expected} expected")
        left = finder.count(new_text)
        if left:
            raise PatchError(
                f"The {context.recipe or 'recipe'} patch '{patch.id}' is not idempotent.",
                why=f"After the replacement in {rel} its pattern still matches {left} "
                "time(s), so a second run would patch the file again.",
                hint="This is a bug in the recipe (the replacement must not contain what the "
                "pattern matches): report it.",
                recipe=context.recipe, patch_id=patch.id, file=rel,
            )
        work.text = new_text
        work.changed = True
        work.applied.append(_ledger_entry(patch, fingerprint, made, context))
        return PatchResult(patch.id, rel, PatchStatus.APPLIED, made)
    if found == 0:
        evidence = finder.evidence(work.text)
        if evidence is None:  # a deletion: nothing is left to look for
            work.applied.append(_ledger_entry(patch, fingerprint, 0, context))
            return PatchResult(patch.id, rel, PatchStatus.ALREADY_APPLIED, 0,
                               "the text it removes is gone")
        if evidence == expected:
            work.applied.append(_ledger_entry(patch, fingerprint, evidence, context))
            return PatchResult(
                patch.id, rel, PatchStatus.ALREADY_APPLIED, evidence,
                f"pattern gone, replacement found {_times(evidence, 'time')}",
            )
        return PatchResult(
            patch.id, rel, PatchStatus.MISMATCH, 0,
            f"pattern not found (expected {expected}) and the replacement found "
            f"{_times(evidence, 'time')} (expected {expected} if already applied)",
        )
    return PatchResult(patch.id, rel, PatchStatus.MISMATCH, found,
                       f"pattern found {_times(found, 'time')}, expected {expected}")


def _mismatch_error(
    patch: Patch, result: PatchResult, context: PatchContext, results: Sequence[PatchResult]
) -> PatchError:
    recipe = context.recipe or "recipe"
    version = f" {context.version.label}" if context.version is not None else ""
    others = sum(1 for r in results if r.status is PatchStatus.MISMATCH) - 1
    more = f" ({others} more patch(es) do not fit either.)" if others > 0 else ""
    return PatchError(
        f"The {recipe}{version} source patch '{patch.id}' does not fit {result.file}: "
        f"{result.detail}.",
        why="The upstream source is not the one the recipe was written for (it changed, or "
        f"a different version or a modified copy was chosen). Patch: {patch.why or patch.id}."
        + more + " No file was changed.",
        hint=f"Choose the version the recipe pins ({choose_kernel_version()}) and let the wizard "
        "fetch it, or, if you did choose it, report this with the build log.",
        recipe=context.recipe, patch_id=patch.id, file=result.file, results=results,
    )


def _ledger_entry(
    patch: Patch, fingerprint: str, count: int, context: PatchContext
) -> dict[str, Any]:
    return {"id": patch.id, "fingerprint": fingerprint, "count": count, "recipe": context.recipe}


class _Finder:
    """Counting, replacing and looking for the replacement, for one patch in one file."""

    def __init__(self, patch: Patch, crlf: bool) -> None:
        self.patch = patch
        self.crlf = crlf
        if patch.kind is PatchKind.LITERAL:
            self.literal = _to_crlf(patch.pattern) if crlf else patch.pattern
            self.literal_new = _to_crlf(patch.replacement) if crlf else patch.replacement
        else:
            self.regex = re.compile(patch.pattern)

    def count(self, text: str) -> int:
        if self.patch.kind is PatchKind.LITERAL:
            return text.count(self.literal) if self.literal else 0
        return sum(1 for _ in self.regex.finditer(text))

    def replace(self, text: str) -> tuple[str, int]:
        if self.patch.kind is PatchKind.LITERAL:
            return text.replace(self.literal, self.literal_new), text.count(self.literal)
        template = self.patch.replacement
        fix: Callable[[str], str] = _to_crlf if self.crlf else (lambda s: s)
        return self.regex.subn(lambda m: fix(m.expand(template)), text)

    def evidence(self, text: str) -> int | None:
        """How often the replacement is in ``text``; None when it is empty (a deletion)."""
        if self.patch.kind is PatchKind.LITERAL:
            if not self.literal_new:
                return None
            return text.count(self.literal_new)
        shape = _template_regex(self.patch.replacement)
        if shape is None:
            return None
        return sum(1 for _ in re.finditer(shape, text))


_GROUP_REF = re.compile(r"\\(?:g<[^>]*>|[1-9][0-9]?)")
_TEMPLATE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a",
                     "b": "\b", "\\": "\\"}


def _template_regex(template: str) -> str | None:
    """A regex for the text a replacement template produces: literal parts as themselves,
    group references as "anything within a line", line breaks as ``\\r?\\n``."""
    out: list[str] = []
    literal = False
    i = 0
    while i < len(template):
        ch = template[i]
        if ch == "\\" and i + 1 < len(template):
            ref = _GROUP_REF.match(template, i)
            if ref is not None:
                out.append(r"[^\r\n]*?")
                i = ref.end()
                continue
            nxt = template[i + 1]
            out.append(_literal_piece(_TEMPLATE_ESCAPES.get(nxt, "\\" + nxt)))
            literal = True
            i += 2
            continue
        out.append(_literal_piece(ch))
        literal = True
        i += 1
    return "".join(out) if literal else None


def _literal_piece(text: str) -> str:
    return "".join(r"\r?\n" if c == "\n" else re.escape(c) for c in text)


def _is_crlf(data: bytes) -> bool:
    """Whether the file's line breaks are CRLF (all of them, or most when mixed)."""
    crlf = data.count(b"\r\n")
    return crlf > 0 and crlf * 2 >= data.count(b"\n")


def _to_crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _fingerprint(patch: Patch) -> str:
    blob = json.dumps([patch.kind.value, patch.file, patch.pattern, patch.replacement,
                       patch.expected_count], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".ksw-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        try:
            shutil.copymode(path, tmp)
        except OSError:
            pass
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise PatchError(
            f"The patched {path.name} could not be written.",
            why=f"{exc.strerror or exc} ({path.parent}).",
            hint="Check that the drive has free space and the source folder may be written to.",
            file=str(path),
        ) from exc


# ---------------------------------------------------------------------------------------------
# The ledger and reverting


class _Ledger:
    def __init__(self, root: Path, files: dict[str, dict[str, Any]]) -> None:
        self.root = root
        self.files = files

    @property
    def folder(self) -> Path:
        return self.root / LEDGER_DIR

    @staticmethod
    def load(root: Path) -> _Ledger:
        path = root / LEDGER_DIR / _LEDGER_FILE
        try:
            data = read_json_file(path)
        except (OSError, ValueError):
            return _Ledger(root, {})
        if not isinstance(data, dict) or data.get("schema") != _SCHEMA:
            return _Ledger(root, {})
        files = data.get("files")
        if not isinstance(files, dict):
            return _Ledger(root, {})
        return _Ledger(root, {k: v for k, v in files.items() if isinstance(v, dict)})

    def keep_original(self, rel: str, original: bytes) -> None:
        entry = self.files.get(rel)
        if entry is not None and entry.get("patched_sha256") == _sha(original):
            return  # the file was patched by us before: the first original is kept already
        folder = self.folder / _ORIGINALS
        target = folder / _sha(original)
        if target.exists() and _sha(target.read_bytes()) == _sha(original):
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
            _write_atomic_plain(target, original)
        except OSError as exc:
            raise PatchError(
                f"A copy of {rel} could not be kept before patching.",
                why=f"{exc.strerror or exc} ({folder}).",
                hint="Check that the drive has free space and the source folder may be written "
                "to.",
                file=rel,
            ) from exc

    def record(
        self, rel: str, before: bytes | None, after: bytes, applied: list[dict[str, Any]]
    ) -> None:
        entry = self.files.get(rel)
        if entry is not None and before is not None and entry.get("patched_sha256") == _sha(
            before
        ):
            original = entry.get("original_sha256")  # patched again on top of our own patch
        elif before is not None:
            original = _sha(before)
        else:
            original = None  # found already patched: the original is not known
        self.files[rel] = {
            "original_sha256": original,
            "patched_sha256": _sha(after),
            "patches": applied,
        }

    def save(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"schema": _SCHEMA, "files": self.files}, indent=1,
                              ensure_ascii=False)
            _write_atomic_plain(self.folder / _LEDGER_FILE, text.encode("utf-8"))
        except OSError as exc:
            raise PatchError(
                "The wizard could not record which patches it applied.",
                why=f"{exc.strerror or exc} ({self.folder}).",
                hint="Check that the drive has free space and the source folder may be written "
                "to.",
            ) from exc


def _write_atomic_plain(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


@dataclass(frozen=True)
class RevertResult:
    reverted: tuple[str, ...]  # files put back to their original bytes
    kept: tuple[str, ...]  # files changed since they were patched (or without an original)
    had_ledger: bool

    @property
    def clean(self) -> bool:
        return not self.kept


def revert_patches(tree: Path | _HasPath) -> RevertResult:
    """Put every file patched by :func:`apply_patches` back to its original bytes.

    Only a file whose bytes are still exactly what was written after patching is reverted
    (anything else was changed by someone else, and is listed in ``kept``). The ledger folder is
    removed when every file was reverted.
    """
    root = Path(tree) if isinstance(tree, (str, os.PathLike)) else Path(tree.path)
    ledger = _Ledger.load(root)
    if not ledger.files:
        had = ledger.folder.exists()
        if had:
            shutil.rmtree(ledger.folder, ignore_errors=True)
        return RevertResult((), (), had)
    reverted: list[str] = []
    kept: list[str] = []
    for rel, entry in ledger.files.items():
        path = root.joinpath(*PurePosixPath(rel).parts)
        original_sha = entry.get("original_sha256")
        try:
            current = _sha(path.read_bytes())
        except OSError:
            kept.append(rel)
            continue
        if current == original_sha:
            reverted.append(rel)  # already back to the original
            continue
        backup = ledger.folder / _ORIGINALS / str(original_sha)
        if current != entry.get("patched_sha256") or not isinstance(original_sha, str):
            kept.append(rel)
            continue
        try:
            data = backup.read_bytes()
        except OSError:
            kept.append(rel)
            continue
        if _sha(data) != original_sha:
            kept.append(rel)
            continue
        _write_atomic(path, data)
        reverted.append(rel)
    if not kept:
        shutil.rmtree(ledger.folder, ignore_errors=True)
    return RevertResult(tuple(reverted), tuple(kept), True)


# ---------------------------------------------------------------------------------------------
# Small helpers


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _times(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _ver(v: Ver) -> str:
    return ".".join(str(x) for x in v)


def _or(items: Iterable[str]) -> str:
    seq = list(items)
    if len(seq) <= 1:
        return "".join(seq)
    return ", ".join(seq[:-1]) + " or " + seq[-1]
