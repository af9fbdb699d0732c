"""The known build failures: ``resources/diagnosis/failures.toml`` read, validated and compiled.

:func:`load_rules` reads and validates a failures file and compiles every pattern; a broken entry
raises :class:`~kernel_wizard.base.errors.DiagnosisDataError` naming the file and the entry.
:func:`default_rules` is the shipped file, loaded once per process. The prefilter
(:func:`required_literal`) finds text every match of a pattern must contain, so that most log
lines are settled with a few substring tests.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any

from kernel_wizard.base.errors import DiagnosisDataError
from kernel_wizard.base.resources import resource_path

if sys.version_info >= (3, 11):
    from re import _constants as sre_constants
    from re import _parser as sre_parse

    import tomllib
else:  # Python 3.10: the tomli backport, a declared dependency there
    import sre_constants
    import sre_parse

    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

SCHEMA_VERSION = 1


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
    # A group of causes: its patterns' named groups ((?P<tool>...)) are this log's facts, and
    # its title, cause and fix name them ({tool}); ``defaults`` stand in for a fact a match did
    # not show. Context facts ({package}, {arch_setting}, ...) come from the kernel being built.
    defaults: Mapping[str, str] = field(default_factory=dict)
    group: str = ""  # a variant of this group of causes (its id); "" for the group itself
    # Lines that contradict its advice when the log shows them anywhere (PyTorch saying that it
    # has no code for this GPU contradicts "build the kernel for your GPU"): then the symptom's
    # cause is not the one this signature names, and the report names the family alone
    contradicted_by: tuple[re.Pattern[str], ...] = ()
    # A symptom of several known causes (a compiler killed by a signal, a DLL that Windows does
    # not name): the signature names its cause only when the log confirms it, by a line of
    # ``confirmed_by`` anywhere in it, or by the package it is bound to (``confirmed_for``: the
    # log's package, or "own-build" for the wizard's own builds); until then the report names
    # the family alone
    confirmed_by: tuple[re.Pattern[str], ...] = ()
    confirmed_for: tuple[str, ...] = ()
    # Evidence that holds up a pattern the calibration demoted (resources/diagnosis/
    # calibration.toml: a pattern that named a wrong cause on a labelled log): such a pattern
    # names its cause only when a line of ``evidence`` is anywhere in the log
    evidence: tuple[re.Pattern[str], ...] = ()

    @property
    def needs_confirmation(self) -> bool:
        return bool(self.confirmed_by or self.confirmed_for)

    @property
    def generic(self) -> bool:
        """A general cause group (or a variant of one): it gives way to a specific signature."""
        return self.cause_id in CAUSE_GROUPS

    @property
    def cause_id(self) -> str:
        """The cause reports name: the group of a variant, else the signature's own id."""
        return self.group or self.id

    def matches(self, line: str) -> bool:
        return any(p.search(line) is not None for p in self.patterns)

    def pattern_index(self, line: str) -> int:
        """The index of the first pattern that matches ``line`` (-1: none)."""
        return next((i for i, p in enumerate(self.patterns) if p.search(line) is not None), -1)

    def facts_of(self, line: str) -> dict[str, str]:
        """The named groups of the first pattern that matches ``line`` (those it filled)."""
        for pattern in self.patterns:
            found = pattern.search(line)
            if found is not None:
                return {k: v.strip() for k, v in found.groupdict().items()
                        if v is not None and v.strip()}
        return {}

    @property
    def placeholders(self) -> frozenset[str]:
        """The facts its title, cause and fix name."""
        return frozenset(name for text in (self.title, self.cause, self.fix)
                         for _, name, _, _ in string.Formatter().parse(text) if name)


@dataclass(frozen=True)
class LineRule:
    """A class of lines that are harmless (``ignore``) or only wrap another failure."""

    id: str
    patterns: tuple[re.Pattern[str], ...]
    reason: str

    def matches(self, line: str) -> bool:
        return any(p.search(line) is not None for p in self.patterns)


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
    # Patterns the calibration demoted (resources/diagnosis/calibration.toml): (signature id,
    # pattern index; -1 for a cause named from the log's structure) that named a wrong cause on
    # a labelled log, so that they name their cause only with their signature's evidence
    demoted: frozenset[tuple[str, int]] = frozenset()

    def signature(self, signature_id: str) -> FailureSignature:
        for sig in self.signatures:
            if sig.id == signature_id:
                return sig
        raise KeyError(signature_id)


_MIN_LITERAL = 3  # shorter required text is no useful prefilter

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
        "defaults",
        "group",
        "contradicted_by",
        "confirmed_by",
        "confirmed_for",
        "evidence",
    }
)
# Facts every signature may name: they describe the kernel being built (kernel_wizard.diagnose
# .context), or say so generically when the log's package is not known.
CONTEXT_FACTS = frozenset({"package", "arch_setting", "force_build", "gpu_text", "memory_note",
                           "jobs_setting"})
# The general families (failures.toml, "Families"): on a line a specific signature explains too,
# the specific one stands alone.
CAUSE_GROUPS = frozenset({"tool-version-required", "build-tool-missing", "bad-env-path",
                      "library-mismatch", "platform-unsupported", "torch-api-changed"})
_RULE_KEYS = frozenset({"id", "patterns", "case_sensitive", "reason"})


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

    def slug_of(self, key: str) -> str:
        value = self.text(key)
        if not _SLUG.match(value):
            raise self._error(f"has an invalid '{key}'", why="It is the id of another entry.")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.raw.get(key, default)
        if not isinstance(value, bool):
            raise self._error(f"has a non-boolean '{key}'")
        return value

    def patterns(self, key: str = "patterns") -> tuple[re.Pattern[str], ...]:
        sources = self.raw.get(key)
        if sources is None:
            raise self._error(f"is missing the field '{key}'")
        if (
            not isinstance(sources, list)
            or not sources
            or not all(isinstance(s, str) and s for s in sources)
        ):
            raise self._error(f"needs '{key}' as a non-empty list of non-empty strings")
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
    signature = FailureSignature(
        id=entry.slug(),
        title=entry.text("title"),
        patterns=entry.patterns(),
        cause=entry.text("cause"),
        fix=entry.text("fix"),
        severity=Severity(entry.enum_value("severity", Severity)),
        retry=retry,
        row=row,
        requires=_requires(entry),
        defaults=_defaults(entry),
        group=entry.slug_of("group") if "group" in entry.raw else "",
        contradicted_by=entry.patterns("contradicted_by") if "contradicted_by" in entry.raw
        else (),
        confirmed_by=entry.patterns("confirmed_by") if "confirmed_by" in entry.raw else (),
        confirmed_for=_confirmed_for(entry),
        evidence=entry.patterns("evidence") if "evidence" in entry.raw else (),
    )
    try:
        named = signature.placeholders
    except ValueError as exc:  # an unbalanced brace
        raise entry._error(
            f"has a title, cause or fix that is not a valid template: {exc}") from exc
    groups = {g for p in signature.patterns for g in p.groupindex}
    missing = sorted(named - groups - set(signature.defaults) - CONTEXT_FACTS)
    if missing:
        raise entry._error(
            f"names {', '.join('{' + m + '}' for m in missing)} without a default",
            why="Every fact a text names needs a named group in a pattern, or a default.",
        )
    return signature


def _defaults(entry: _Entry) -> dict[str, str]:
    value = entry.raw.get("defaults", {})
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise entry._error("has 'defaults' that are not a table of texts")
    return dict(value)


def _confirmed_for(entry: _Entry) -> tuple[str, ...]:
    value = entry.raw.get("confirmed_for", [])
    if not isinstance(value, list) or not all(
        isinstance(v, str) and _SLUG.match(v) for v in value
    ):
        raise entry._error(
            "has an invalid 'confirmed_for'",
            why='It is a list of package names as the log names them ("flash-attn") or '
                '"own-build" (the wizard\'s own builds).',
        )
    return tuple(value)


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
    alternatives, classes and repeats). Lower-casing the line and the literal then agrees with the
    pattern's case-insensitive matching, for ASCII and for the letters of other scripts whose
    case is a plain one-to-one pair (Cyrillic, accented Latin; Chinese, Japanese and Korean have
    no case), so that the messages of translated tools (cmd.exe, Windows' loader) get a needle
    too; leaving aside the odd letter with extra case forms, such as the long s or the Cyrillic
    rounded ve, which no build log prints. A letter whose lower case is not a single letter
    ends a run. Uses the standard library's regular-expression parser; should that ever fail,
    the pattern simply runs on every line.
    """
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
        best = current = ""
        # The top-level sequence: each plain character in it is part of every match. Groups,
        # alternatives (also a whole-pattern "a|b"), classes and repeats end a run.
        for op, arg in parsed.data:
            if op is sre_constants.LITERAL and isinstance(arg, int) \
                    and len(chr(arg).lower()) == 1:
                current += chr(arg)
            else:
                best = max(best, current, key=len)
                current = ""
        best = max(best, current, key=len)
    except Exception:  # a parser change must cost speed, never correctness
        return None
    if len(best) < _MIN_LITERAL or not best.strip():
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


# What a variant (``group = "..."``) leaves out it says as its group's signature does: a variant
# that only narrows where a cause may be named (its own patterns, ``confirmed_by``,
# ``contradicted_by``) keeps the group's words and retry
_INHERITED_KEYS = ("title", "cause", "fix", "severity", "retry", "defaults")


def _inherited(tables: Sequence[object]) -> list[object]:
    by_id = {table.get("id"): table for table in tables if isinstance(table, Mapping)}
    filled: list[object] = []
    for table in tables:
        group = by_id.get(table.get("group")) if isinstance(table, Mapping) else None
        if isinstance(table, Mapping) and group is not None and group is not table:
            table = {**{key: group[key] for key in _INHERITED_KEYS
                        if key in group and key not in table}, **table}
        filled.append(table)
    return filled


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
        for i, raw in enumerate(_inherited(_tables(path, data, "signature", required=True)))
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
    calibration = path.with_name(CALIBRATION_FILE)
    return DiagnosisRules(
        source=path,
        signatures=signatures,
        ignore=ignore,
        wrappers=wrappers,
        literals=literals,
        unfiltered=unfiltered,
        demoted=load_calibration(calibration, signatures) if calibration.is_file()
        else frozenset(),
    )


CALIBRATION_FILE = "calibration.toml"  # beside the failures file


def load_calibration(path: Path, signatures: Sequence[FailureSignature]
                     ) -> frozenset[tuple[str, int]]:
    """The patterns a calibration file demotes: (signature id, pattern index). Each entry must
    name a signature and pattern of the failures file as they are now (its ``text``), so that a
    pattern edited since the calibration was computed is an error, not a silent drift."""
    def broken(problem: str) -> DiagnosisDataError:
        return DiagnosisDataError(
            f"{path}: {problem}",
            why="The calibration of the known failures does not fit the failures file.",
            hint="Recompute it: python benchmarks/diagnose_calibration.py --write",
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise broken(f"can't be read: {exc}") from exc
    by_id = {sig.id: sig for sig in signatures}
    demoted: set[tuple[str, int]] = set()
    rules = data.get("rule", [])
    if not isinstance(rules, list):
        raise broken("'rule' is not a list of tables")
    for rule in rules:
        if not isinstance(rule, Mapping):
            raise broken("a [[rule]] is not a table")
        sig = by_id.get(str(rule.get("signature")))
        index = rule.get("pattern")
        if sig is None or not isinstance(index, int) or not -1 <= index < len(sig.patterns):
            raise broken(f"[[rule]] {rule.get('signature')}#{index} names no pattern")
        if index >= 0 and rule.get("text") != sig.patterns[index].pattern:
            raise broken(f"[[rule]] {sig.id}#{index}: the pattern was edited since")
        if rule.get("demoted") is True:
            demoted.add((sig.id, index))
    return frozenset(demoted)


@lru_cache(maxsize=1)
def default_rules() -> DiagnosisRules:
    """The rules shipped in ``resources/diagnosis/failures.toml``, loaded once per process."""
    return load_rules(resource_path("diagnosis", "failures.toml"))

