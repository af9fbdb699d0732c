"""CUDA's host-compiler gate: the bounds ``include/crt/host_config.h`` puts on MSVC, gcc and
clang, read from the installed header rather than from a table (they move with every CUDA
release, and a header that a user edited is what nvcc actually enforces)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kernel_wizard.base.messages import msg
from kernel_wizard.machine.toolchain.base import ToolchainParseError, Version, version_lt


def _vs_year_for_msc_ver(msc_ver: int) -> str:
    minor = msc_ver - 1900
    if minor >= 50:
        return "2026"
    if minor >= 30:
        return "2022"
    if minor >= 20:
        return "2019"
    if minor >= 10:
        return "2017"
    return "2015"


@dataclass(frozen=True)
class CompilerBound:
    """The versions of one host compiler that nvcc accepts: ``minimum <= v < maximum``.

    Versions are tuples compared with missing parts read as 0: gcc "later than 15 are not
    supported" is ``maximum=(16,)``; clang "greater than 3.2" is ``minimum=(3, 3)``; MSVC is
    compared by ``_MSC_VER``: ``(1920,) <= (1944,) < (1950,)``.
    """

    minimum: Version | None  # inclusive; None = no lower bound
    maximum: Version | None  # exclusive; None = no upper bound
    line: int  # the 1-based line of the ``#error`` in host_config.h
    message: str  # the #error text, e.g. "unsupported GNU version! gcc versions later ..."

    def accepts(self, version: Sequence[int]) -> bool:
        if self.minimum is not None and version_lt(version, self.minimum):
            return False
        return not (self.maximum is not None and not version_lt(version, self.maximum))


@dataclass(frozen=True)
class HostCompilerBounds:
    """What a CUDA toolkit's ``host_config.h`` enforces. None = that compiler is not checked.

    A compiler that the header does not check is not rejected by nvcc (a header whose
    ``#error`` lines were deleted by hand is what nvcc enforces, so that is what counts).
    """

    msvc: CompilerBound | None
    gcc: CompilerBound | None
    clang: CompilerBound | None
    msvc_deprecated: tuple[int, int] | None = None  # [lo, hi) of _MSC_VER: nvcc warns

    def msvc_range_text(self) -> str:
        """'_MSC_VER 1920–1949 (MSVC 14.20–14.49, Visual Studio 2019–2022)', for messages."""
        return describe_msvc_bound(self.msvc)


def describe_msvc_bound(bound: CompilerBound | None) -> str:
    """A person-readable form of an MSVC bound."""
    if bound is None:
        return msg("any MSVC version (this CUDA does not check)")
    lo = bound.minimum[0] if bound.minimum else None
    hi = bound.maximum[0] - 1 if bound.maximum else None
    if lo is not None and hi is not None:
        return msg("_MSC_VER {lo}–{hi} (MSVC 14.{lo_minor}–14.{hi_minor}, Visual Studio "
                   "{lo_year}–{hi_year})", lo=lo, hi=hi, lo_minor=lo - 1900, hi_minor=hi - 1900,
                   lo_year=_vs_year_for_msc_ver(lo), hi_year=_vs_year_for_msc_ver(hi))
    if hi is not None:
        return msg("_MSC_VER up to {hi} (MSVC up to 14.{minor})", hi=hi, minor=hi - 1900)
    assert lo is not None
    return msg("_MSC_VER {lo} or newer (MSVC 14.{minor} or newer)", lo=lo, minor=lo - 1900)


_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$")
_COMPARISON = r"\s*(>=|<=|>|<)\s*(\d+)"


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) with comments blanked out and backslash continuations joined."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        if pending is not None:
            start, head = pending
            raw = head + " " + raw
            number = start
            pending = None
        if raw.rstrip().endswith("\\"):
            pending = (number, raw.rstrip()[:-1])
            continue
        out.append((number, raw))
    if pending is not None:
        out.append(pending)
    return out


def _bound_from_condition(
    condition: str, major_var: str, minor_var: str | None
) -> tuple[Version | None, Version | None]:
    """Read ``(minimum inclusive, maximum exclusive)`` off a rejecting ``#if`` condition.

    ``__GNUC__ > 15`` rejects 16+ → maximum (16,); ``__clang_major__ < 3`` with
    ``(__clang_major__ == 3) && (__clang_minor__ < 3)`` rejects below 3.3 → minimum (3, 3).
    """
    minimum: Version | None = None
    maximum: Version | None = None
    for op, number in re.findall(re.escape(major_var) + r"(?![\w])" + _COMPARISON, condition):
        n = int(number)
        if op == ">":
            maximum = (n + 1,)
        elif op == ">=":
            maximum = (n,)
        elif op == "<":
            minimum = (n,)
        else:  # "<=" rejects n and below
            minimum = (n + 1,)
    if minor_var is not None:
        pattern = (
            re.escape(major_var)
            + r"\s*==\s*(\d+)\s*\)?\s*&&\s*\(?\s*"
            + re.escape(minor_var)
            + _COMPARISON
        )
        for major_text, op, minor_text in re.findall(pattern, condition):
            major, minor = int(major_text), int(minor_text)
            if op in {"<", "<="} and minimum is not None and minimum[0] == major:
                minimum = (major, minor + 1 if op == "<=" else minor)
            if op in {">", ">="} and maximum is not None and maximum[0] == major + 1:
                maximum = (major, minor + 1 if op == ">" else minor)
    return minimum, maximum


def parse_host_config(text: str) -> HostCompilerBounds:
    """The host-compiler bounds that a CUDA ``include/crt/host_config.h`` enforces.

    Every ``#error`` is paired with the condition of the ``#if``/``#elif`` branch it sits in;
    the error's message says which compiler it is about ("unsupported Microsoft Visual Studio
    version", "unsupported GNU version", "unsupported clang version" — not the Grace or HOS
    clang variants). A condition without an ``#error`` rejects nothing. Raises
    :class:`ToolchainParseError` when no host-compiler check is found at all.
    """
    stack: list[str] = []
    errors: list[tuple[int, str, str]] = []
    deprecated: tuple[int, int] | None = None
    for number, line in _logical_lines(text):
        match = _DIRECTIVE.match(line)
        if match is None:
            continue
        name, rest = match.group(1), match.group(2).strip()
        if name in {"if", "ifdef", "ifndef"}:
            stack.append(rest if name == "if" else f"{name} {rest}")
        elif name == "elif":
            if stack:
                stack[-1] = rest
        elif name == "else":
            if stack:
                stack[-1] = f"!({stack[-1]})"
        elif name == "endif":
            if stack:
                stack.pop()
        elif name == "error":
            errors.append((number, stack[-1] if stack else "", rest))
        elif name == "pragma" and "deprecated" in rest and "Visual Studio" in rest and stack:
            found = re.search(r"_MSC_VER\s*>=\s*(\d+)\s*&&\s*_MSC_VER\s*<\s*(\d+)", stack[-1])
            if found and int(found.group(1)) < int(found.group(2)):
                deprecated = (int(found.group(1)), int(found.group(2)))

    msvc = gcc = clang = None
    for number, condition, message in errors:
        text_of_error = message.lstrip("- ").strip()
        if msvc is None and "unsupported Microsoft Visual Studio version" in message:
            lo, hi = _bound_from_condition(condition, "_MSC_VER", None)
            msvc = CompilerBound(lo, hi, number, text_of_error)
        elif gcc is None and "unsupported GNU version" in message:
            lo, hi = _bound_from_condition(condition, "__GNUC__", "__GNUC_MINOR__")
            gcc = CompilerBound(lo, hi, number, text_of_error)
        elif clang is None and re.match(r"-*\s*unsupported clang version", message):
            lo, hi = _bound_from_condition(condition, "__clang_major__", "__clang_minor__")
            clang = CompilerBound(lo, hi, number, text_of_error)
    if msvc is None and gcc is None and clang is None:
        raise ToolchainParseError(
            "This file has no CUDA host-compiler check in it.",
            why="no '#error -- unsupported ... version' line was found; it does not look like "
            "a CUDA include/crt/host_config.h",
            hint="Point the wizard at the CUDA toolkit folder itself (the one with bin\\nvcc).",
        )
    return HostCompilerBounds(msvc=msvc, gcc=gcc, clang=clang, msvc_deprecated=deprecated)


def msvc_supported(bounds: HostCompilerBounds, msc_ver: int) -> bool:
    """Whether nvcc accepts a cl.exe whose ``_MSC_VER`` is ``msc_ver`` (1944 for 14.44)."""
    return bounds.msvc is None or bounds.msvc.accepts((msc_ver,))


def gcc_supported(bounds: HostCompilerBounds, major: int, minor: int = 0) -> bool:
    """Whether nvcc accepts gcc ``major.minor`` as its host compiler."""
    return bounds.gcc is None or bounds.gcc.accepts((major, minor))


def clang_supported(bounds: HostCompilerBounds, major: int, minor: int = 0) -> bool:
    """Whether nvcc accepts clang ``major.minor`` as its host compiler."""
    return bounds.clang is None or bounds.clang.accepts((major, minor))

