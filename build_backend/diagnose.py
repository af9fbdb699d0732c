"""Build-log diagnosis: known failure signatures → cause, fix and an automatic retry.

The known failures live in ``resources/diagnosis/failures.toml`` (one entry per row of
``shared/knowledge/failures.md``); adding one is a data edit. :func:`load_rules` reads and
validates that file once and compiles every pattern; a broken entry raises
:class:`~build_backend.errors.DiagnosisDataError` naming the file and the entry.

:class:`LogDiagnoser` is fed the build log one line at a time while the build runs::

    diagnoser = LogDiagnoser()
    for line in build_output:
        for hit in diagnoser.feed(line):   # only new hits, each signature at most once
            show(hit)
    report = diagnoser.summary()           # hits, the first real error, a suggested retry

It keeps memory bounded: it never stores the log, only a small ring of recent lines (context
for the first error) and at most one hit per signature. Besides the signatures it finds the
**first real error**: the first line that looks like a compiler, linker (GNU ``ld``,
``collect2``, MSVC ``LNK``), shell or Python error, skipping lines known to be harmless
(``[[ignore]]``, e.g. git's ``pathspec 'csrc/cutlass'`` message in FlashMLA logs) and wrapper
lines that only say that something above failed (``[[wrapper]]``, e.g. ``ninja: build stopped:
subcommand failed``). A Python traceback's header and frames are never the first error; its
exception line is.

Some causes are printed as warnings (PyTorch reports a missing ``cl.exe`` as ``UserWarning:
Error checking compiler version for cl``). Such a warning is remembered and becomes the headline
when nothing after it explains the failure (no error at all, or only a Python exception without
a known cause). Advice can depend on versions the log shows: the "Visual Studio too new" advice
names the MSVC toolsets that the CUDA version in the log accepts.
"""

from __future__ import annotations

import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import DiagnosisDataError
from .resources import resource_path
from .toolchain import msc_ver_for_toolset

if sys.version_info >= (3, 11):
    from re import _constants as sre_constants
    from re import _parser as sre_parse

    import tomllib
else:  # Python 3.10: the tomli backport, a declared dependency there
    import sre_constants
    import sre_parse

    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

SCHEMA_VERSION = 1
DEFAULT_CONTEXT_LINES = 6  # lines kept before the first error
DEFAULT_AFTER_LINES = 3  # lines kept after it (gcc's caret, a wrapped Python message)
MAX_LINE_CHARS = 2000  # longer lines are cut in the context kept (nvcc command lines: ~3000)


class Severity(Enum):
    """How bad a matched signature is."""

    ERROR = "error"  # the build (or the kernel) fails
    WARNING = "warning"  # it works, but slowly or noisily
    INFO = "info"  # a consequence of another problem; explains a confusing line


class RetryAction(Enum):
    """Automatic retries the build step knows how to run."""

    HALVE_JOBS = "halve-jobs"  # out of memory: half the parallel compile jobs
    ADD_CCCL_INCLUDE = "add-cccl-include"  # CUDA 13: <cuda>/include/cccl on the host include path
    FORCE_BUILD = "force-build"  # flash-attn: FLASH_ATTENTION_FORCE_BUILD=TRUE, skip wheel download


@dataclass(frozen=True)
class FailureSignature:
    """One known failure: what the log shows (``patterns``) and what it means."""

    id: str
    title: str
    patterns: tuple[re.Pattern[str], ...]
    cause: str
    fix: str
    severity: Severity
    retry: RetryAction | None = None
    row: int | None = None  # row number in shared/knowledge/failures.md
    requires: tuple[str, ...] = ()  # facts the lines around a match must show ("windows", ...)

    def matches(self, line: str) -> bool:
        return any(p.search(line) is not None for p in self.patterns)


@dataclass(frozen=True)
class LineRule:
    """A class of lines that are harmless (``ignore``) or only wrap another failure."""

    id: str
    patterns: tuple[re.Pattern[str], ...]
    reason: str

    def matches(self, line: str) -> bool:
        return any(p.search(line) is not None for p in self.patterns)


@dataclass(frozen=True)
class Diagnosis:
    """A signature found in the log, with the line where it was first seen."""

    signature_id: str
    title: str
    cause: str
    fix: str
    severity: Severity
    retry: RetryAction | None
    line: str
    line_number: int  # 1-based, counting every line fed


@dataclass(frozen=True)
class FirstError:
    """The first line of the log that looks like a real error, with the lines around it."""

    line: str
    line_number: int  # 1-based
    context_before: tuple[str, ...]  # up to ``context_lines`` lines just before it
    context_after: tuple[str, ...] = ()  # up to ``after_lines`` lines just after it
    signature_ids: tuple[str, ...] = ()  # signatures matched on this line or the lines after
    from_warning: bool = False  # a warning that names the cause (no real error explained it)


@dataclass(frozen=True)
class DiagnosisReport:
    """What the diagnosis found in a whole log."""

    hits: tuple[Diagnosis, ...]  # in the order they appeared, one per signature
    first_error: FirstError | None
    primary: Diagnosis | None  # the hit that explains the failure, if one does
    retry: RetryAction | None  # the automatic retry worth trying, if any
    lines_seen: int

    @property
    def errors(self) -> tuple[Diagnosis, ...]:
        return tuple(h for h in self.hits if h.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Diagnosis, ...]:
        return tuple(h for h in self.hits if h.severity is Severity.WARNING)

    def describe(self) -> str:
        """Plain text for the CLI and the saved log: the first error, then each known problem."""
        parts: list[str] = []
        if self.first_error is not None:
            parts.append(
                f"First error (line {self.first_error.line_number}): "
                f"{self.first_error.line.strip()}"
            )
        elif not self.hits:
            parts.append("No errors and no known problems found in the log.")
        for hit in self.hits:
            parts.append(
                f"[{hit.severity.value}] {hit.title} (line {hit.line_number})\n"
                f"  Why: {hit.cause}\n  What to do: {hit.fix}"
            )
        if self.retry is not None:
            parts.append(f"Suggested automatic retry: {self.retry.value}")
        return "\n".join(parts)


@dataclass(frozen=True)
class DiagnosisRules:
    """Everything loaded from one failures file, compiled."""

    source: Path
    signatures: tuple[FailureSignature, ...]
    ignore: tuple[LineRule, ...]
    wrappers: tuple[LineRule, ...]
    # Prefilter: text every match of a pattern must contain (lower-cased). A line containing
    # none of them can't match those signatures, which settles almost every line of a log with
    # a few substring tests instead of ~50 regular expressions.
    literals: tuple[str, ...] = field(repr=False, compare=False)
    unfiltered: tuple[FailureSignature, ...] = field(repr=False, compare=False)  # run always

    def signature(self, signature_id: str) -> FailureSignature:
        for sig in self.signatures:
            if sig.id == signature_id:
                return sig
        raise KeyError(signature_id)


# --------------------------------------------------------------------------------------------
# What "looks like an error": the generic part, independent of the known signatures.
# --------------------------------------------------------------------------------------------

_ERROR_LINE = re.compile(
    r"""
    (?i:                            # gcc/clang/nvcc/MSVC/link/pip/git messages, at line start
      (?: ^\s*(?:\d+>)? | :\s+ )    # (or MSBuild's "3>") or after a location ("file:1: ")
      (?: fatal\s+ )? error (?: \s+[a-z]+\d+ )? \s*:   # error: / error C2039: / fatal error LNK1
    )
    | (?i: ^\s*fatal\s*: )                      # git: "fatal: unable to access ..."
    | (?i: \b(?:nvcc|ptxas|nvlink|fatbinary|cicc|cudafe\+\+)(?:\.exe)?\s+(?:fatal|error)\s*: )
    | (?i: (?:^|:)\s*\#error\b )                # preprocessor #error reported on its own
    | (?i: \bCMake\s+Error\b )
    | ^\s*Killed\s*$                            # the kernel's OOM killer, as the shell reports it
    | ^\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit)(?::|$)  # Python exception
    # GNU ld / lld / collect2 ("/usr/bin/ld: cannot find -lcuda"), not its context lines
    # ("in function `f':", "skipping incompatible ... when searching for -lx") or warnings
    | ^\s*(?:\S*/)?(?:ld(?:\.\w+)?|lld|collect2)(?:\.exe)?:\s
        (?! .*:\s+in\s+function\s ) (?! .*\bskipping\s+incompatible\b ) (?! \s*warning\b )
    | \bundefined\s+reference\s+to\b | \bmultiple\s+definition\s+of\b
    | \bninja:\s+(?:fatal|error)\s*: | \bCreateProcess\s+failed\b
    # the shell reporting a program it could not run ("/bin/sh: 1: /opt/x/g++: not found")
    | ^\s*(?:\S*/)?(?:ba|da|z)?sh:\s.*(?:\bnot\s+found|No\s+such\s+file\s+or\s+directory)\s*$
    """,
    re.VERBOSE,
)
# A Python exception line (the end of a traceback), as opposed to a compiler's or linker's error.
_PY_EXCEPTION = re.compile(
    r"^\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit)(?::|$)"
)
# Python's warning line ("x.py:383: UserWarning: ..."); the line after it echoes the source.
_PY_WARNING = re.compile(r":\d+: [A-Z]\w*Warning: ")
# A Python traceback's frame line; the line after it echoes source code, which may well contain
# the text of an error message ("raise OSError('CUDA_HOME environment variable is not set')").
_FRAME = re.compile(r'^\s*File "[^"]*", line \d+')
# Warnings are never "the first error", even when they mention a known problem; a warning that
# names a cause can still be the headline when nothing else explains the failure.
_WARNING_LINE = re.compile(r"(?i:\bwarning\s*(?:[a-z]*\d+|\#\d+-d)?\s*:)|\b[A-Z]\w*Warning:")
# Every line _ERROR_LINE can match contains one of these (lower-cased).
_ERROR_WORDS = (
    "error",
    "fatal",
    "killed",
    "exception",
    "interrupt",
    "exit",
    "ld:",
    "lld:",
    "collect2",
    "undefined reference",
    "multiple definition",
    "createprocess",
    "not found",
    "no such file",
)
_MIN_LITERAL = 3  # shorter required text is no useful prefilter
# Long lines that are never a failure and never name one: a compiler or linker command echoed
# by ninja or setuptools ("[3/24] /usr/local/cuda/bin/nvcc -I...", "cl /showIncludes ..."),
# whatever error-ish words its flags contain (-Werror, -I.../nvshmem/include), and the CUDA
# tools' info and warning lines ("ptxas info    : Compiling entry function '_ZN...'"), which
# carry kilobytes of mangled names. Checked on long lines only: they are most of a log's bytes.
_NOT_A_MESSAGE = re.compile(
    r"""^\s*(?:
        (?:\[\d+/\d+\]\s+)?["']?(?:[^\s"']*[\\/])?
        (?:nvcc|g\+\+|gcc|c\+\+|cc|clang\+\+|clang|cl|(?:\w+-)+g(?:cc|\+\+)|hipcc)
        (?:\.exe)?["']?\s+[-/]
      | (?:ptxas|nvlink|fatbinary|cicc)\s+(?:info|warning)\s*:
    )""",
    re.VERBOSE | re.IGNORECASE,
)
_LONG_LINE = 400  # characters from which a line is checked against _NOT_A_MESSAGE

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

_SIGNATURE_KEYS = frozenset(
    {
        "id",
        "row",
        "title",
        "patterns",
        "case_sensitive",
        "cause",
        "fix",
        "severity",
        "retry",
        "requires",
    }
)
_RULE_KEYS = frozenset({"id", "patterns", "case_sensitive", "reason"})


# --------------------------------------------------------------------------------------------
# Loading and validation
# --------------------------------------------------------------------------------------------


class _Entry:
    """Validation helper: typed access to one TOML table, with errors that name it."""

    def __init__(self, path: Path, table: str, index: int, raw: object) -> None:
        self.path = path
        self.table = table
        self.index = index
        self.id: str | None = None
        if not isinstance(raw, Mapping):
            raise self._error(f"is a {type(raw).__name__}, not a table")
        self.raw: Mapping[str, Any] = raw
        ident = raw.get("id")
        if isinstance(ident, str) and ident:
            self.id = ident

    @property
    def name(self) -> str:
        where = f"[[{self.table}]] #{self.index + 1}"
        return f"entry '{self.id}' ({where})" if self.id else f"entry {where}"

    def _error(self, problem: str, *, why: str = "") -> DiagnosisDataError:
        return DiagnosisDataError(
            f"{self.path}: {self.name} {problem}",
            why=why or "The list of known build failures is broken, so logs can't be diagnosed.",
            hint="If you edited this file, fix the entry; otherwise reinstall the wizard.",
        )

    def check_keys(self, allowed: frozenset[str]) -> None:
        unknown = sorted(set(self.raw) - allowed)
        if unknown:
            raise self._error(
                f"has unknown field(s) {', '.join(unknown)}",
                why=f"Allowed fields are: {', '.join(sorted(allowed))}.",
            )

    def text(self, key: str) -> str:
        value = self.raw.get(key)
        if value is None:
            raise self._error(f"is missing the field '{key}'")
        if not isinstance(value, str) or not value.strip():
            raise self._error(f"has an empty or non-text '{key}'")
        return value.strip()

    def slug(self) -> str:
        value = self.text("id")
        if not _SLUG.match(value):
            raise self._error(
                "has an invalid id", why="Ids are lower-case words joined by '-', e.g. 'oom'."
            )
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.raw.get(key, default)
        if not isinstance(value, bool):
            raise self._error(f"has a non-boolean '{key}'")
        return value

    def patterns(self) -> tuple[re.Pattern[str], ...]:
        sources = self.raw.get("patterns")
        if sources is None:
            raise self._error("is missing the field 'patterns'")
        if (
            not isinstance(sources, list)
            or not sources
            or not all(isinstance(s, str) and s for s in sources)
        ):
            raise self._error("needs 'patterns' as a non-empty list of non-empty strings")
        flags = 0 if self.flag("case_sensitive", False) else re.IGNORECASE
        compiled: list[re.Pattern[str]] = []
        for number, source in enumerate(sources, start=1):
            try:
                pattern = re.compile(source, flags)
            except re.error as exc:
                raise self._error(
                    f"pattern {number} is not a valid regular expression: {exc} "
                    f"(pattern: {source!r})"
                ) from exc
            if pattern.search("") is not None:
                raise self._error(
                    f"pattern {number} matches an empty line, so it would match every line "
                    f"(pattern: {source!r})"
                )
            compiled.append(pattern)
        return tuple(compiled)

    def enum_value(self, key: str, enum: type[Severity] | type[RetryAction]) -> str:
        value = self.text(key)
        allowed = [member.value for member in enum]
        if value not in allowed:
            raise self._error(
                f"has an unknown {key} '{value}'",
                why=f"Known values: {', '.join(allowed)}.",
            )
        return value


def _signature(entry: _Entry) -> FailureSignature:
    entry.check_keys(_SIGNATURE_KEYS)
    row = entry.raw.get("row")
    if row is not None and (not isinstance(row, int) or isinstance(row, bool) or row < 1):
        raise entry._error("has a 'row' that is not a positive whole number")
    retry = None
    if "retry" in entry.raw:
        retry = RetryAction(entry.enum_value("retry", RetryAction))
    return FailureSignature(
        id=entry.slug(),
        title=entry.text("title"),
        patterns=entry.patterns(),
        cause=entry.text("cause"),
        fix=entry.text("fix"),
        severity=Severity(entry.enum_value("severity", Severity)),
        retry=retry,
        row=row,
        requires=_requires(entry),
    )


_REQUIREMENT = re.compile(r"^(?:windows|linux|cuda(?:>=|<)\d+\.\d+)$")


def _requires(entry: _Entry) -> tuple[str, ...]:
    value = entry.raw.get("requires", [])
    if not isinstance(value, list) or not all(
        isinstance(v, str) and _REQUIREMENT.match(v) for v in value
    ):
        raise entry._error(
            "has an invalid 'requires'",
            why='It is a list of facts: "windows", "linux", "cuda>=13.0", "cuda<12.4".',
        )
    return tuple(value)


def _line_rule(entry: _Entry) -> LineRule:
    entry.check_keys(_RULE_KEYS)
    return LineRule(id=entry.slug(), patterns=entry.patterns(), reason=entry.text("reason"))


def _tables(path: Path, data: Mapping[str, Any], key: str, required: bool) -> list[object]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise DiagnosisDataError(
            f"{path}: '{key}' must be a list of tables ([[{key}]])",
            why="The list of known build failures is broken, so logs can't be diagnosed.",
            hint="If you edited this file, fix it; otherwise reinstall the wizard.",
        )
    if required and not value:
        raise DiagnosisDataError(
            f"{path}: no [[{key}]] entries",
            why="Without signatures no build failure can be explained.",
            hint="If you edited this file, fix it; otherwise reinstall the wizard.",
        )
    return value


def required_literal(pattern: re.Pattern[str]) -> str | None:
    """Lower-cased text that every match of ``pattern`` contains, or None if none is known.

    The longest run of plain characters in the pattern's top-level sequence (outside
    alternatives, classes and repeats). Only ASCII text is used: lower-casing the line and the
    literal then agrees with the pattern's case-insensitive matching (leaving aside the odd
    Unicode letter that case-folds onto ASCII, such as the long s). Uses the standard library's
    regular-expression parser; should that ever fail, the pattern simply runs on every line.
    """
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
        best = current = ""
        # The top-level sequence: each plain character in it is part of every match. Groups,
        # alternatives (also a whole-pattern "a|b"), classes and repeats end a run.
        for op, arg in parsed.data:
            if op is sre_constants.LITERAL and isinstance(arg, int):
                current += chr(arg)
            else:
                best = max(best, current, key=len)
                current = ""
        best = max(best, current, key=len)
    except Exception:  # a parser change must cost speed, never correctness
        return None
    if len(best) < _MIN_LITERAL or not best.isascii():
        return None
    return best.lower()


def _prefilter(
    signatures: Sequence[FailureSignature],
) -> tuple[tuple[str, ...], tuple[FailureSignature, ...]]:
    """The prefilter's needles, and the signatures it can't cover (they run on every line)."""
    literals: set[str] = set()
    unfiltered: list[FailureSignature] = []
    for sig in signatures:
        found = [required_literal(p) for p in sig.patterns]
        if all(found):
            literals.update(lit for lit in found if lit)
        else:
            unfiltered.append(sig)
    # "killed" covers "killed signal terminated program": keep only the shortest needles.
    minimal = sorted(lit for lit in literals if not any(o != lit and o in lit for o in literals))
    return tuple(minimal), tuple(unfiltered)


def load_rules(path: Path) -> DiagnosisRules:
    """Read, validate and compile a failures file; :class:`DiagnosisDataError` if it is broken."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DiagnosisDataError(
            f"Can't read the list of known build failures: {path}",
            why=str(exc),
            hint="Reinstall the Kernel Setup Wizard (or download the bundle again).",
        ) from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DiagnosisDataError(
            f"{path} is not valid TOML: {exc}",
            why="The list of known build failures is broken, so logs can't be diagnosed.",
            hint="If you edited this file, fix the syntax; otherwise reinstall the wizard.",
        ) from exc
    schema = data.get("schema")
    if schema != SCHEMA_VERSION:
        raise DiagnosisDataError(
            f"{path}: schema is {schema!r}, this wizard reads schema {SCHEMA_VERSION}",
            why="The file was written for a different version of the wizard.",
            hint="Use the failures file that came with this version of the wizard.",
        )

    signatures = tuple(
        _signature(_Entry(path, "signature", i, raw))
        for i, raw in enumerate(_tables(path, data, "signature", required=True))
    )
    ignore = tuple(
        _line_rule(_Entry(path, "ignore", i, raw))
        for i, raw in enumerate(_tables(path, data, "ignore", required=False))
    )
    wrappers = tuple(
        _line_rule(_Entry(path, "wrapper", i, raw))
        for i, raw in enumerate(_tables(path, data, "wrapper", required=False))
    )
    for kind, entries in (("signature", signatures), ("ignore", ignore), ("wrapper", wrappers)):
        seen: set[str] = set()
        for item in entries:
            if item.id in seen:
                raise DiagnosisDataError(
                    f"{path}: entry '{item.id}' appears twice in [[{kind}]]",
                    why="Every entry needs its own id; hits are reported once per id.",
                    hint="If you edited this file, rename one of them; otherwise reinstall.",
                )
            seen.add(item.id)

    unknown = sorted(set(data) - {"schema", "signature", "ignore", "wrapper"})
    if unknown:
        raise DiagnosisDataError(
            f"{path}: unknown top-level key(s) {', '.join(unknown)}",
            why="Allowed are: schema, [[signature]], [[ignore]], [[wrapper]].",
            hint="If you edited this file, fix it; otherwise reinstall the wizard.",
        )
    literals, unfiltered = _prefilter(signatures)
    return DiagnosisRules(
        source=path,
        signatures=signatures,
        ignore=ignore,
        wrappers=wrappers,
        literals=literals,
        unfiltered=unfiltered,
    )


@lru_cache(maxsize=1)
def default_rules() -> DiagnosisRules:
    """The rules shipped in ``resources/diagnosis/failures.toml``, loaded once per process."""
    return load_rules(resource_path("diagnosis", "failures.toml"))


# --------------------------------------------------------------------------------------------
# Facts the log shows (OS, CUDA and MSVC versions), read off the lines around a match
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogFacts:
    """What some lines of a log say about the machine; None/False where they say nothing."""

    windows: bool = False
    linux: bool = False
    cuda: tuple[int, int] | None = None  # (major, minor)
    msc_ver: int | None = None  # the MSVC in use, as _MSC_VER (1944 for MSVC 14.44)

    def merged(self, other: LogFacts) -> LogFacts:
        return LogFacts(
            windows=self.windows or other.windows,
            linux=self.linux or other.linux,
            cuda=self.cuda if self.cuda is not None else other.cuda,
            msc_ver=self.msc_ver if self.msc_ver is not None else other.msc_ver,
        )

    def satisfies(self, requirement: str) -> bool:
        if requirement == "windows":
            return self.windows
        if requirement == "linux":
            return self.linux
        found = re.match(r"cuda(>=|<)(\d+)\.(\d+)$", requirement)
        if found is None or self.cuda is None:
            return False
        bound = (int(found.group(2)), int(found.group(3)))
        return self.cuda >= bound if found.group(1) == ">=" else self.cuda < bound


# CUDA\v12.4 (Windows, also with doubled backslashes), cuda-12.4 (Linux), nvcc's "release 12.4, V".
_CUDA_VERSION = re.compile(
    r"(?i:CUDA[\\/]+v(\d+)\.(\d+)(?!\d)|\bcuda-(\d+)\.(\d+)(?!\d)|\brelease (\d+)\.(\d+), V\d)"
)
# MSVC\14.44.35207 in a path, or cl's banner "Compiler Version 19.44.35207".
_MSVC_VERSION = re.compile(r"(?i:\bMSVC[\\/]+14\.(\d+)\.\d+|Compiler Version 19\.(\d+)\.\d+)")
_WINDOWS_HINT = re.compile(
    r"(?:^|[\s\"'(=])[A-Za-z]:[\\/]|\bwin(?:-amd64|_amd64|32)\b|\.(?:exe|obj|pyd|vcxproj)\b"
)
_LINUX_HINT = re.compile(r"(?:^|[\s\"'(=])/(?:usr|home|opt|tmp|root|mnt)/|linux-x86_64|\.so\b")


def read_facts(lines: Iterable[str]) -> LogFacts:
    """The facts that ``lines`` show (the first CUDA and MSVC version found)."""
    windows = linux = False
    cuda: tuple[int, int] | None = None
    msc_ver: int | None = None
    for line in lines:
        windows = windows or _WINDOWS_HINT.search(line) is not None
        linux = linux or _LINUX_HINT.search(line) is not None
        if cuda is None and (found := _CUDA_VERSION.search(line)) is not None:
            major, minor = (g for g in found.groups() if g is not None)
            cuda = (int(major), int(minor))
        if msc_ver is None and (found := _MSVC_VERSION.search(line)) is not None:
            minor_text = found.group(1) or found.group(2)
            msc_ver = msc_ver_for_toolset((14, int(minor_text)))
    return LogFacts(windows=windows, linux=linux, cuda=cuda, msc_ver=msc_ver)


# The upper _MSC_VER bound (exclusive) in CUDA's host_config.h, from the first CUDA release with
# that bound. Read off real headers (tests/data/host_config): 11.0 → 1930; 11.8 and 12.1 → 1940;
# 12.4, 12.6, 12.8, 13.0 → 1950. CUDA 11.6 is the first to accept Visual Studio 2022.
_MSVC_UPPER_BOUNDS: tuple[tuple[tuple[int, int], int], ...] = (
    ((11, 0), 1930),
    ((11, 6), 1940),
    ((12, 4), 1950),
)


def msvc_bound_for_cuda(cuda: tuple[int, int]) -> int | None:
    """The newest _MSC_VER + 1 that this CUDA's host_config.h accepts, if known."""
    bound: int | None = None
    for first_release, upper in _MSVC_UPPER_BOUNDS:
        if cuda >= first_release:
            bound = upper
    return bound


def _msvc_too_new_advice(facts: LogFacts) -> str | None:
    """What to do about C1189 "unsupported Microsoft Visual Studio version", for the CUDA version
    the log shows; None when the log shows none (the generic advice applies)."""
    if facts.cuda is None:
        return None
    bound = msvc_bound_for_cuda(facts.cuda)
    if bound is None:
        return None
    cuda = f"{facts.cuda[0]}.{facts.cuda[1]}"
    yours = ""
    if facts.msc_ver is not None:
        yours = f" (the compiler here is MSVC 14.{facts.msc_ver - 1900}, _MSC_VER {facts.msc_ver})"
    last_resort = (
        " The nvcc flag -allow-unsupported-compiler skips the check, but is a last resort: the "
        "build or the kernel may then fail or compute wrong results."
    )
    if bound <= 1930:
        return (
            f"CUDA {cuda} accepts Visual Studio 2017 and 2019 only (MSVC up to 14.29, _MSC_VER "
            f"below {bound}){yours}. Build with the Visual Studio 2019 toolset 14.29 (Build Tools "
            'for Visual Studio 2019, or the "MSVC v142 - VS 2019 C++ build tools" component of '
            "Visual Studio 2022, selected with vcvarsall -vcvars_ver=14.29), or install CUDA 12.4 "
            "or newer together with the matching PyTorch." + last_resort
        )
    if bound <= 1940:
        return (
            f"CUDA {cuda} accepts MSVC up to 14.39 (_MSC_VER below {bound}){yours}: Visual Studio "
            "2022 17.10 and later bring MSVC 14.40 or newer, which it rejects (and whose C++ "
            "library needs CUDA 12.4 anyway). Install CUDA 12.4 or newer together with the "
            "matching PyTorch, or build with an older toolset installed side by side: 14.39 "
            "(vcvarsall -vcvars_ver=14.39) or, for CUDA 11.x, the Visual Studio 2019 toolset "
            "14.29." + last_resort
        )
    return (
        f"CUDA {cuda} accepts MSVC up to 14.4x (_MSC_VER below {bound}){yours}: Visual Studio 2026 "
        "(MSVC 14.50 and newer) is too new for it. Build with the Visual Studio 2022 toolset "
        "(Build Tools for Visual Studio 2022, vcvarsall -vcvars_ver=14.44), or install a CUDA "
        "version that supports your Visual Studio." + last_resort
    )


# Signatures whose advice depends on the facts around the match.
_ADVISERS: dict[str, Callable[[LogFacts], str | None]] = {
    "msvc-too-new-for-cuda": _msvc_too_new_advice,
}


# --------------------------------------------------------------------------------------------
# The streaming matcher
# --------------------------------------------------------------------------------------------


def _clip(line: str) -> str:
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + " …"


class LogDiagnoser:
    """Feed a build log line by line; get each known problem once, and the first real error.

    Memory stays bounded whatever the log's length: a ring of the last ``context_lines`` lines,
    at most ``after_lines`` lines after the first error, and one hit per signature.
    Not thread-safe: feed it from the one thread that reads the build's output.
    """

    def __init__(
        self,
        rules: DiagnosisRules | None = None,
        *,
        context_lines: int = DEFAULT_CONTEXT_LINES,
        after_lines: int = DEFAULT_AFTER_LINES,
    ) -> None:
        if context_lines < 0 or after_lines < 0:
            raise ValueError("context_lines and after_lines must be >= 0")
        self.rules = rules if rules is not None else default_rules()
        self._literals = self.rules.literals
        self._unfiltered = self.rules.unfiltered
        self._ring: deque[str] = deque(maxlen=context_lines)
        self._after_limit = after_lines
        self._line_number = 0
        self._hits: list[Diagnosis] = []
        self._seen: set[str] = set()
        # First error: found once, then filled with the lines after it.
        self._first: tuple[str, int, tuple[str, ...]] | None = None
        self._first_is_exception = False  # a Python exception line, not a tool's error
        self._first_ids: list[str] = []
        self._after: list[str] = []
        # The first warning that names an error-severity cause (line, number, before, ids).
        self._warning_cause: tuple[str, int, tuple[str, ...], tuple[str, ...]] | None = None
        self._facts: dict[str, LogFacts] = {}  # per advised signature: facts around its hit
        self._previous = ""

    # -- feeding --------------------------------------------------------------------------

    def feed(self, line: str) -> list[Diagnosis]:
        """Take one line of output (its line ending is ignored); return hits seen for the first
        time on it (usually none)."""
        text = line.rstrip("\r\n")
        kept = text if len(text) <= MAX_LINE_CHARS else _clip(text)
        self._line_number += 1
        first_found = self._first is not None
        collecting_after = first_found and len(self._after) < self._after_limit

        if len(text) > _LONG_LINE and _NOT_A_MESSAGE.match(text) is not None:
            if collecting_after:
                self._after.append(kept)
            self._ring.append(kept)
            self._previous = kept
            return []

        # Almost every line stops here: none of the needles, so no signature can match.
        low = text.lower()
        candidates: Sequence[FailureSignature] = self._unfiltered
        for literal in self._literals:
            if literal in low:
                candidates = self.rules.signatures
                break
        maybe_error = False
        if not first_found:
            for word in _ERROR_WORDS:
                if word in low:
                    maybe_error = _ERROR_LINE.search(text) is not None
                    break
        matched = [sig for sig in candidates if sig.matches(text)] if candidates else []
        facts: LogFacts | None = None
        if any(sig.requires or sig.id in _ADVISERS for sig in matched):
            facts = read_facts((*self._ring, text))
            matched = [sig for sig in matched if all(facts.satisfies(r) for r in sig.requires)]

        new_hits: list[Diagnosis] = []
        if (matched or maybe_error) and self._quotes_source(text):
            pass  # source code quoted by a Python traceback, not a message
        elif (matched or maybe_error) and self._is_ignored(text):
            pass  # a known-harmless line: no diagnosis, never the first error
        elif matched or maybe_error:
            for sig in matched:
                if sig.id not in self._seen:
                    self._seen.add(sig.id)
                    fix = sig.fix
                    if facts is not None and sig.id in _ADVISERS:
                        self._facts[sig.id] = facts
                        fix = _ADVISERS[sig.id](facts) or sig.fix
                    hit = Diagnosis(
                        signature_id=sig.id,
                        title=sig.title,
                        cause=sig.cause,
                        fix=fix,
                        severity=sig.severity,
                        retry=sig.retry,
                        line=kept,
                        line_number=self._line_number,
                    )
                    self._hits.append(hit)
                    new_hits.append(hit)
            if collecting_after:
                self._first_ids.extend(s.id for s in matched if s.id not in self._first_ids)
            elif not first_found:
                names_cause = any(s.severity is Severity.ERROR for s in matched)
                is_warning = _WARNING_LINE.search(text) is not None
                is_error = maybe_error or (names_cause and not is_warning)
                if is_warning and names_cause and self._warning_cause is None:
                    self._warning_cause = (
                        kept,
                        self._line_number,
                        tuple(self._ring),
                        tuple(s.id for s in matched if s.severity is Severity.ERROR),
                    )
                elif is_error and not self._is_wrapper(text):
                    self._first = (kept, self._line_number, tuple(self._ring))
                    self._first_is_exception = _PY_EXCEPTION.match(text) is not None
                    self._first_ids = [s.id for s in matched]

        if collecting_after:
            self._after.append(kept)
        self._ring.append(kept)
        self._previous = kept
        return new_hits

    def feed_lines(self, lines: Iterable[str]) -> list[Diagnosis]:
        """Feed many lines (e.g. an open file); return all hits new during them."""
        new_hits: list[Diagnosis] = []
        for line in lines:
            new_hits.extend(self.feed(line))
        return new_hits

    def _quotes_source(self, text: str) -> bool:
        """Whether ``text`` is a source line that Python quotes: under a traceback's ``File ...``
        frame (indented deeper than it; frames without source go straight on to the next one),
        or under a warning (``x.py:383: UserWarning: ...`` then ``  warnings.warn(...)``)."""
        previous = self._previous
        if _FRAME.match(previous):
            frame_indent = len(previous) - len(previous.lstrip())
            return len(text) - len(text.lstrip()) > frame_indent
        return (
            text[:1].isspace()
            and _PY_WARNING.search(previous) is not None
            and len(text) - len(text.lstrip()) > len(previous) - len(previous.lstrip())
        )

    def _is_ignored(self, text: str) -> bool:
        return any(rule.matches(text) for rule in self.rules.ignore)

    def _is_wrapper(self, text: str) -> bool:
        return any(rule.matches(text) for rule in self.rules.wrappers)

    # -- results --------------------------------------------------------------------------

    @property
    def lines_seen(self) -> int:
        return self._line_number

    @property
    def ring_size(self) -> int:
        """How many recent lines are kept at most (the context before the first error)."""
        return self._ring.maxlen or 0

    @property
    def buffered_lines(self) -> int:
        """How many recent lines are held right now (never more than :attr:`ring_size`)."""
        return len(self._ring)

    @property
    def hits(self) -> tuple[Diagnosis, ...]:
        return tuple(self._hits)

    @property
    def first_error(self) -> FirstError | None:
        """The first real error so far: never a traceback's header or frames, never a wrapper
        line. A warning that names a cause stands in when nothing after it explains the failure
        (no error at all, or a Python exception without a known cause of its own)."""
        real: FirstError | None = None
        if self._first is not None:
            line, number, before = self._first
            real = FirstError(line, number, before, tuple(self._after), tuple(self._first_ids))
        warned = self._warning_cause
        if warned is None:
            return real
        explained = real is not None and any(
            self.rules.signature(i).severity is Severity.ERROR for i in real.signature_ids
        )
        if real is None or (self._first_is_exception and not explained):
            line, number, before, ids = warned
            return FirstError(line, number, before, (), ids, from_warning=True)
        return real

    def summary(self) -> DiagnosisReport:
        """The report for everything fed so far (it can be asked for again after more lines)."""
        first = self.first_error
        hits = tuple(self._advised(h, first) for h in self._hits)
        by_id = {h.signature_id: h for h in hits}
        primary: Diagnosis | None = None
        if first is not None:
            primary = next(
                (
                    by_id[i]
                    for i in first.signature_ids
                    if i in by_id and by_id[i].severity is Severity.ERROR
                ),
                None,
            )
        else:
            primary = next((h for h in hits if h.severity is Severity.ERROR), None)

        retry: RetryAction | None = None
        if primary is not None:
            retry = primary.retry
        elif first is None and not any(h.severity is Severity.ERROR for h in hits):
            # Nothing failed that we can see: a warning's retry (e.g. skip flash-attn's wheel
            # download) is the only thing worth trying, if the build failed at all.
            retry = next((h.retry for h in hits if h.retry is not None), None)
        return DiagnosisReport(
            hits=hits,
            first_error=first,
            primary=primary,
            retry=retry,
            lines_seen=self._line_number,
        )

    def _advised(self, hit: Diagnosis, first: FirstError | None) -> Diagnosis:
        """``hit`` with its advice re-read from everything seen around it (the lines after the
        first error name the compiler too: MSBuild prints nvcc's command line after C1189)."""
        adviser = _ADVISERS.get(hit.signature_id)
        if adviser is None:
            return hit
        facts = self._facts.get(hit.signature_id, LogFacts())
        if first is not None and first.line_number == hit.line_number:
            facts = facts.merged(
                read_facts((*first.context_before, first.line, *first.context_after))
            )
        advice = adviser(facts)
        return replace(hit, fix=advice) if advice is not None and advice != hit.fix else hit


def diagnose_lines(lines: Iterable[str], rules: DiagnosisRules | None = None) -> DiagnosisReport:
    """Diagnose a whole log at once (e.g. a saved one)."""
    diagnoser = LogDiagnoser(rules)
    for line in lines:
        diagnoser.feed(line)
    return diagnoser.summary()


def diagnose_file(path: Path, rules: DiagnosisRules | None = None) -> DiagnosisReport:
    """Diagnose a saved log file, streaming it (any encoding; undecodable bytes are replaced)."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        return diagnose_lines(handle, rules)
