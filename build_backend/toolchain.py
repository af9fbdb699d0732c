"""Toolchain facts read off what the OS and the tools answered.

Visual Studio instances (``vswhere -format json``), MSVC toolsets (the folders under
``VC\\Tools\\MSVC``), the CUDA toolkit (``nvcc --version``, ``version.json``), CUDA's
host-compiler gate (``include/crt/host_config.h``), gcc (``gcc --version``), a registry value
(``reg query``) and CUDA folders (environment variables, folder names).

The module has three layers, top to bottom:

1. **Parsers**: pure functions of the text a tool printed or a file holds. They never start a
   process, so they are tested on any OS with recorded real outputs (``tests/data/``).
2. **Decisions**: pure functions over parsed facts: does nvcc accept this compiler, which MSVC
   toolset should a build pin, which Visual Studio instances can be used and why not.
3. **Run-and-parse helpers** (at the end): the only code here that starts processes or touches
   the file system. Argument lists and a timeout, never a shell string.

The bounds nvcc puts on the host compiler are read from the installed ``host_config.h`` rather
than from a table: they move with every CUDA release, and a header that a user edited is what
nvcc actually enforces.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from .errors import ProcessStartError, ProcessTimeout, WizardError
from .processes import CapturedOutput, run_captured

Version = tuple[int, ...]

# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class ToolchainParseError(WizardError):
    """A tool's answer (or a toolkit file) is not in the shape this program knows."""


class ToolchainProbeError(WizardError):
    """A tool could not be run at all: missing, not executable, or it did not answer in time."""


def _snippet(text: str, limit: int = 120) -> str:
    """The start of ``text`` on one line, for error messages."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _strip_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def _parse_version(text: str) -> Version:
    """'17.14.37027.9' → (17, 14, 37027, 9). Raises ValueError on anything else."""
    parts = text.strip().split(".")
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(f"not a dotted version: {text!r}")
    return tuple(int(p) for p in parts)


def _version_text(version: Sequence[int]) -> str:
    return ".".join(str(v) for v in version)


def _pad(a: Sequence[int], b: Sequence[int]) -> tuple[Version, Version]:
    width = max(len(a), len(b))
    return tuple(a) + (0,) * (width - len(a)), tuple(b) + (0,) * (width - len(b))


def _version_lt(a: Sequence[int], b: Sequence[int]) -> bool:
    """``a < b`` with missing trailing parts read as 0: (13,) < (13, 3), (15, 2, 0) < (16,)."""
    pa, pb = _pad(a, b)
    return pa < pb


# --------------------------------------------------------------------------------------------
# Visual Studio instances (vswhere)
# --------------------------------------------------------------------------------------------


class VsProduct(Enum):
    """The Visual Studio product (``productId``) of an instance."""

    BUILD_TOOLS = "Microsoft.VisualStudio.Product.BuildTools"
    COMMUNITY = "Microsoft.VisualStudio.Product.Community"
    PROFESSIONAL = "Microsoft.VisualStudio.Product.Professional"
    ENTERPRISE = "Microsoft.VisualStudio.Product.Enterprise"
    OTHER = "other"  # Team Explorer, SQL Server Management Studio, a future product...

    @classmethod
    def from_product_id(cls, product_id: str) -> VsProduct:
        for member in cls:
            if member.value.casefold() == product_id.casefold():
                return member
        return cls.OTHER


# The installation major version → the year in the product's name. VS 2026 reports
# ``catalog.productLineVersion`` "18", not "2026", and installs under ``...\\18\\<Edition>``.
_VS_YEAR_BY_MAJOR: dict[int, str] = {15: "2017", 16: "2019", 17: "2022", 18: "2026"}


@dataclass(frozen=True)
class VsInstance:
    """One Visual Studio (or Build Tools) instance as ``vswhere -format json`` describes it."""

    installation_path: Path
    installation_version: Version  # (17, 14, 37027, 9)
    product_id: str  # "Microsoft.VisualStudio.Product.BuildTools"
    display_name: str  # "Visual Studio Build Tools 2022" (localised by vswhere)
    product_display_version: str  # catalog.productDisplayVersion: "17.14.28"; "" if absent
    product_line_version: str  # catalog.productLineVersion: "2022" (but "18" for VS 2026)
    is_complete: bool
    is_launchable: bool
    is_reboot_required: bool
    is_prerelease: bool
    instance_id: str = ""
    channel_id: str = ""  # "VisualStudio.17.Release", "VisualStudio.18.Stable"
    state: int | None = None  # the raw InstanceState bit field; 4294967295 = complete

    @property
    def product(self) -> VsProduct:
        return VsProduct.from_product_id(self.product_id)

    @property
    def major(self) -> int:
        """17 for VS 2022, 18 for VS 2026."""
        return self.installation_version[0]

    @property
    def year(self) -> str:
        """'2022', '2026': the year of the product name, whatever the catalog says."""
        return _VS_YEAR_BY_MAJOR.get(self.major, self.product_line_version)

    @property
    def version_text(self) -> str:
        """'17.14.28' (the version the Visual Studio Installer shows), else the full one."""
        return self.product_display_version or _version_text(self.installation_version)

    @property
    def label(self) -> str:
        """'Visual Studio Build Tools 2022 17.14.28', for one line in the UI."""
        name = self.display_name or f"Visual Studio {self.year}"
        return f"{name} {self.version_text}"


def _json_bool(obj: Mapping[str, Any], key: str, default: bool) -> bool:
    value = obj.get(key, default)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):  # vswhere's text format prints 0/1
        return value != 0
    if isinstance(value, str) and value.strip().lower() in {"true", "false", "1", "0"}:
        return value.strip().lower() in {"true", "1"}
    raise ToolchainParseError(
        f"vswhere gave an unexpected value for {key!r}: {value!r}.",
        hint="Update the Visual Studio Installer (it ships vswhere), then try again.",
    )


def _json_str(obj: Mapping[str, Any], key: str) -> str:
    value = obj.get(key, "")
    return value if isinstance(value, str) else str(value)


def _vs_instance(item: Any, index: int) -> VsInstance:
    if not isinstance(item, dict):
        raise ToolchainParseError(
            f"vswhere's list holds something that is not an instance (item {index}).",
            why=f"got {_snippet(repr(item))}",
            hint="Update the Visual Studio Installer (it ships vswhere), then try again.",
        )
    path = item.get("installationPath")
    version_text = item.get("installationVersion")
    if not isinstance(path, str) or not path or not isinstance(version_text, str):
        raise ToolchainParseError(
            f"vswhere listed an instance without an installation path or version (item {index}).",
            why=f"got {_snippet(json.dumps(item))}",
            hint="Open the Visual Studio Installer and repair that installation.",
        )
    try:
        version = _parse_version(version_text)
    except ValueError:
        raise ToolchainParseError(
            f"vswhere gave an installation version this program cannot read: {version_text!r}.",
            hint="Update the Visual Studio Installer (it ships vswhere), then try again.",
        ) from None
    catalog = item.get("catalog")
    catalog = catalog if isinstance(catalog, dict) else {}
    state = item.get("state")
    return VsInstance(
        installation_path=Path(path),
        installation_version=version,
        product_id=_json_str(item, "productId"),
        display_name=_json_str(item, "displayName"),
        product_display_version=_json_str(catalog, "productDisplayVersion"),
        product_line_version=_json_str(catalog, "productLineVersion"),
        # vswhere older than 2.5 does not print these: absent means "not known to be bad"
        is_complete=_json_bool(item, "isComplete", True),
        is_launchable=_json_bool(item, "isLaunchable", True),
        is_reboot_required=_json_bool(item, "isRebootRequired", False),
        is_prerelease=_json_bool(item, "isPrerelease", False),
        instance_id=_json_str(item, "instanceId"),
        channel_id=_json_str(item, "channelId"),
        state=state if isinstance(state, int) and not isinstance(state, bool) else None,
    )


def parse_vswhere(json_text: str) -> list[VsInstance]:
    """The instances in the output of ``vswhere -format json`` (in vswhere's order).

    ``[]`` (vswhere found nothing) gives an empty list. Anything that is not a JSON list of
    instances raises :class:`ToolchainParseError`, including vswhere's text format and an
    empty output (vswhere always prints at least ``[]`` when it works).
    """
    text = _strip_bom(json_text).strip()
    hint = (
        "Run the wizard again. If this repeats, update or repair the Visual Studio Installer "
        "(vswhere.exe comes with it)."
    )
    if not text:
        raise ToolchainParseError("vswhere printed nothing.", hint=hint)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolchainParseError(
            "vswhere's answer is not the JSON list this program asked for.",
            why=f"{exc.msg} (it began with {_snippet(text)!r})",
            hint=hint,
        ) from None
    if not isinstance(data, list):
        raise ToolchainParseError(
            "vswhere's answer is JSON, but not a list of Visual Studio instances.",
            why=f"it began with {_snippet(text)!r}",
            hint=hint,
        )
    return [_vs_instance(item, i) for i, item in enumerate(data)]


class VsRejection(Enum):
    """Why an instance cannot be used to build. The order is the order of importance."""

    REBOOT_REQUIRED = "reboot_required"
    INCOMPLETE = "incomplete"
    NOT_LAUNCHABLE = "not_launchable"

    @property
    def text(self) -> str:
        """A plain sentence for the UI: what is wrong and what to do."""
        return _REJECTION_TEXT[self]


_REJECTION_TEXT: dict[VsRejection, str] = {
    VsRejection.REBOOT_REQUIRED: (
        "Windows must restart to finish installing it. Restart the computer, then run the "
        "wizard again."
    ),
    VsRejection.INCOMPLETE: (
        "its installation did not finish (an install or update was interrupted). Open the "
        "Visual Studio Installer and choose Repair, or finish the pending update."
    ),
    VsRejection.NOT_LAUNCHABLE: (
        "the Visual Studio Installer reports it cannot be used in its current state. Open the "
        "Visual Studio Installer and repair or update it."
    ),
}


def vs_rejections(instance: VsInstance) -> tuple[VsRejection, ...]:
    """Every reason ``instance`` cannot be used, most important first; () when usable.

    A pending reboot also leaves an instance incomplete; the reboot comes first because it is
    the one thing the user has to do.
    """
    reasons: list[VsRejection] = []
    if instance.is_reboot_required:
        reasons.append(VsRejection.REBOOT_REQUIRED)
    if not instance.is_complete:
        reasons.append(VsRejection.INCOMPLETE)
    if not instance.is_launchable:
        reasons.append(VsRejection.NOT_LAUNCHABLE)
    return tuple(reasons)


@dataclass(frozen=True)
class RejectedVsInstance:
    """An instance that cannot be used, with every reason."""

    instance: VsInstance
    reasons: tuple[VsRejection, ...]

    def explain(self) -> str:
        """'Visual Studio Build Tools 2022 17.14.28 (C:\\...) can't be used: Windows must...'"""
        details = " Also, ".join(r.text for r in self.reasons)
        return f"{self.instance.label} ({self.instance.installation_path}) can't be used: {details}"


@dataclass(frozen=True)
class VsSelection:
    """The instances split into usable ones (best first) and rejected ones (with reasons)."""

    usable: tuple[VsInstance, ...]
    rejected: tuple[RejectedVsInstance, ...]

    @property
    def best(self) -> VsInstance | None:
        return self.usable[0] if self.usable else None


def select_vs_instances(instances: Iterable[VsInstance]) -> VsSelection:
    """Reject incomplete, non-launchable and reboot-pending instances, keeping the reasons.

    Usable instances are ordered releases before previews, then newest first. Whether the
    newest one's MSVC fits the CUDA toolkit is a separate question
    (:func:`pick_msvc_toolset`).
    """
    usable: list[VsInstance] = []
    rejected: list[RejectedVsInstance] = []
    for instance in instances:
        reasons = vs_rejections(instance)
        if reasons:
            rejected.append(RejectedVsInstance(instance, reasons))
        else:
            usable.append(instance)
    usable.sort(key=lambda i: (not i.is_prerelease, i.installation_version), reverse=True)
    return VsSelection(tuple(usable), tuple(rejected))


# --------------------------------------------------------------------------------------------
# MSVC toolsets
# --------------------------------------------------------------------------------------------

_TOOLSET_FOLDER = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def msc_ver_for_toolset(version: Sequence[int]) -> int:
    """The ``_MSC_VER`` of an MSVC toolset: 1900 + its minor version.

    14.16 (VS 2017 15.9) → 1916, 14.29 (VS 2019 16.11) → 1929, 14.30 (VS 2022 17.0) → 1930,
    14.44 (VS 2022 17.14) → 1944, 14.50 (VS 2026) → 1950. Raises ValueError for a toolset
    major other than 14, where no such rule is known.
    """
    if len(version) < 2 or version[0] != 14:
        raise ValueError(f"no known _MSC_VER for MSVC toolset {_version_text(version)}")
    return 1900 + version[1]


def _platform_toolset(minor: int) -> str:
    """'v143' for 14.3x and 14.4x: the name the Visual Studio Installer uses for the toolset."""
    if minor >= 50:
        return "v145"
    if minor >= 30:
        return "v143"
    if minor >= 20:
        return "v142"
    if minor >= 10:
        return "v141"
    return "v140"


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
class MsvcToolset:
    """One MSVC toolset: a folder ``<VS>\\VC\\Tools\\MSVC\\14.44.35207``."""

    version: tuple[int, int, int]  # (14, 44, 35207)
    install: Path | None = None  # the Visual Studio instance that holds it, when known

    @property
    def text(self) -> str:
        """'14.44.35207': the folder name, and what ``vcvarsall -vcvars_ver=`` takes."""
        return _version_text(self.version)

    @property
    def msc_ver(self) -> int:
        """1944 for 14.44.x (see :func:`msc_ver_for_toolset`)."""
        return msc_ver_for_toolset(self.version)

    @property
    def platform_toolset(self) -> str:
        """'v143': how the Visual Studio Installer names this toolset's component."""
        return _platform_toolset(self.version[1])

    @property
    def vcvars_ver(self) -> str:
        """The value for ``vcvarsall.bat x64 -vcvars_ver=...`` that selects exactly this one."""
        return self.text

    @property
    def label(self) -> str:
        """'MSVC 14.44.35207 (v143, _MSC_VER 1944)'."""
        return f"MSVC {self.text} ({self.platform_toolset}, _MSC_VER {self.msc_ver})"


def parse_msvc_toolsets(
    folder_names: Iterable[str], install: Path | None = None
) -> list[MsvcToolset]:
    """The toolsets in a listing of ``VC\\Tools\\MSVC``, newest first.

    Names that are not an MSVC 14.x version folder (``desktop.ini``, a stray ``14.44`` without
    a build number) are skipped: the folder belongs to the user's machine, not to us.
    """
    found: set[tuple[int, int, int]] = set()
    for name in folder_names:
        match = _TOOLSET_FOLDER.match(name.strip())
        if match is None:
            continue
        version = (int(match.group(1)), int(match.group(2)), int(match.group(3)))
        if version[0] == 14:
            found.add(version)
    return [MsvcToolset(v, install) for v in sorted(found, reverse=True)]


def parse_vctools_default(text: str) -> tuple[int, int, int]:
    """The default toolset named by ``VC\\Auxiliary\\Build\\Microsoft.VCToolsVersion.default.txt``.

    The file holds one line such as ``14.44.35207`` (CRLF-terminated, sometimes with a BOM).
    """
    value = _strip_bom(text).strip()
    match = _TOOLSET_FOLDER.match(value)
    if match is None:
        raise ToolchainParseError(
            "Visual Studio's default-toolset file does not name a toolset version.",
            why=f"Microsoft.VCToolsVersion.default.txt holds {_snippet(value)!r}",
            hint="Open the Visual Studio Installer and repair the C++ build tools.",
        )
    return int(match.group(1)), int(match.group(2)), int(match.group(3))


# --------------------------------------------------------------------------------------------
# CUDA toolkit version (nvcc --version, version.json)
# --------------------------------------------------------------------------------------------

_NVCC_RELEASE = re.compile(r"release (\d+)\.(\d+), V(\d+(?:\.\d+)*)")
_NVCC_BUILD = re.compile(r"^Build (\S+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class CudaVersion:
    """A CUDA toolkit's version as its compiler reports it."""

    major: int
    minor: int
    full: Version  # (12, 4, 131) from "V12.4.131"
    build: str | None = None  # "cuda_12.4.r12.4/compiler.34097967_0"

    @property
    def release(self) -> tuple[int, int]:
        return self.major, self.minor

    @property
    def text(self) -> str:
        """'12.4': what torch calls the CUDA version."""
        return f"{self.major}.{self.minor}"

    @property
    def full_text(self) -> str:
        """'12.4.131'."""
        return _version_text(self.full)


def parse_nvcc_version(text: str) -> CudaVersion:
    """The version in the output of ``nvcc --version`` (``ptxas --version`` works too).

    Reads ``Cuda compilation tools, release 12.4, V12.4.131`` and the ``Build ...`` line.
    Raises :class:`ToolchainParseError` on anything else, e.g. cmd.exe's "'nvcc' is not
    recognized..." captured instead of nvcc's answer.
    """
    match = _NVCC_RELEASE.search(text)
    if match is None:
        raise ToolchainParseError(
            "nvcc did not report a CUDA version.",
            why=f"its output was {_snippet(text)!r}" if text.strip() else "its output was empty",
            hint="Check that this is the nvcc of a CUDA toolkit (…\\CUDA\\vX.Y\\bin\\nvcc.exe or "
            "/usr/local/cuda-X.Y/bin/nvcc); reinstall the toolkit if it does not run.",
        )
    build = _NVCC_BUILD.search(text)
    return CudaVersion(
        major=int(match.group(1)),
        minor=int(match.group(2)),
        full=_parse_version(match.group(3)),
        build=build.group(1) if build else None,
    )


def parse_cuda_version_json(text: str) -> Version:
    """The toolkit version in ``<cuda>/version.json``: ``{"cuda": {"version": "12.6.3"}}``.

    Full installers write this file; it tells the version without running anything.
    """
    try:
        data = json.loads(_strip_bom(text))
        version = data["cuda"]["version"]
        return _parse_version(version)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        raise ToolchainParseError(
            "The CUDA toolkit's version.json does not name the toolkit version.",
            why=f"it began with {_snippet(text)!r}",
            hint="Reinstall the CUDA toolkit, or let the wizard ask nvcc instead.",
        ) from None


# --------------------------------------------------------------------------------------------
# The host-compiler gate in include/crt/host_config.h
# --------------------------------------------------------------------------------------------


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
        if self.minimum is not None and _version_lt(version, self.minimum):
            return False
        return not (self.maximum is not None and not _version_lt(version, self.maximum))


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
        return "any MSVC version (this CUDA does not check)"
    lo = bound.minimum[0] if bound.minimum else None
    hi = bound.maximum[0] - 1 if bound.maximum else None
    if lo is not None and hi is not None:
        return (
            f"_MSC_VER {lo}–{hi} (MSVC 14.{lo - 1900}–14.{hi - 1900}, "
            f"Visual Studio {_vs_year_for_msc_ver(lo)}–{_vs_year_for_msc_ver(hi)})"
        )
    if hi is not None:
        return f"_MSC_VER up to {hi} (MSVC up to 14.{hi - 1900})"
    assert lo is not None
    return f"_MSC_VER {lo} or newer (MSVC 14.{lo - 1900} or newer)"


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


@dataclass(frozen=True)
class ToolsetChoice:
    """The MSVC toolset a CUDA build should use, and what was passed over and why."""

    chosen: MsvcToolset | None
    skipped_newer: tuple[MsvcToolset, ...]  # newer than ``chosen`` but rejected by nvcc
    rejected: tuple[MsvcToolset, ...]  # every installed toolset nvcc rejects, newest first
    accepted_range: str  # describe_msvc_bound(...) of the CUDA toolkit
    default: tuple[int, int, int] | None = None  # what vcvarsall picks without -vcvars_ver

    @property
    def needs_pin(self) -> bool:
        """True when the build must pass ``-vcvars_ver=<chosen>`` to vcvarsall."""
        if self.chosen is None:
            return False
        return self.default is None or self.chosen.version != self.default

    def explain(self) -> str:
        """A plain-language account for the prerequisites page."""
        if self.chosen is None:
            installed = ", ".join(t.label for t in self.rejected) or "none"
            return (
                f"No installed MSVC toolset is accepted by this CUDA toolkit, which accepts "
                f"{self.accepted_range}. Installed: {installed}."
            )
        text = f"{self.chosen.label} will be used."
        if self.skipped_newer:
            newer = ", ".join(t.label for t in self.skipped_newer)
            verb = "is" if len(self.skipped_newer) == 1 else "are"
            text += (
                f" The newer {newer} {verb} installed too, but this CUDA toolkit accepts only "
                f"{self.accepted_range}."
            )
        if self.needs_pin:
            text += f" The build selects it with vcvarsall -vcvars_ver={self.chosen.vcvars_ver}."
        return text


def pick_msvc_toolset(
    toolsets: Iterable[MsvcToolset],
    bounds: HostCompilerBounds,
    default: tuple[int, int, int] | None = None,
) -> ToolsetChoice:
    """The newest installed toolset that nvcc accepts, and the newer ones it had to skip.

    With VS 2026 (MSVC 14.50, ``_MSC_VER`` 1950) beside 14.44 and a CUDA 12.4–12.9 header
    (``_MSC_VER < 1950``), 14.44 is chosen and 14.50 is reported as skipped.
    """
    unique = dict.fromkeys(toolsets)  # drop duplicates, keep the caller's order for ties
    ordered = sorted(unique, key=lambda t: t.version, reverse=True)
    accepted = [t for t in ordered if msvc_supported(bounds, t.msc_ver)]
    chosen = accepted[0] if accepted else None
    rejected = tuple(t for t in ordered if t not in accepted)
    skipped = tuple(t for t in rejected if chosen is None or t.version > chosen.version)
    return ToolsetChoice(
        chosen=chosen,
        skipped_newer=skipped if chosen is not None else (),
        rejected=rejected,
        accepted_range=describe_msvc_bound(bounds.msvc),
        default=default,
    )


# --------------------------------------------------------------------------------------------
# reg query
# --------------------------------------------------------------------------------------------

# "    LongPathsEnabled    REG_DWORD    0x1": reg.exe separates the columns with four spaces.
_REG_VALUE = re.compile(r"^\s+(?P<name>.+?)\s{4}(?P<type>REG_[A-Z_]+)(?:\s{4}(?P<data>.*?))?\s*$")


def parse_reg_query_dword(text: str, value_name: str) -> int | None:
    """The REG_DWORD ``value_name`` in the output of ``reg query <key> /v <value_name>``.

    None when the output does not list the value (reg.exe then prints "ERROR: The system was
    unable to find the specified registry key or value." on stderr, in the user's language).
    Raises :class:`ToolchainParseError` when the value exists with another type.
    """
    for line in text.splitlines():
        match = _REG_VALUE.match(line)
        if match is None or match.group("name").casefold() != value_name.casefold():
            continue
        data = (match.group("data") or "").strip()
        if match.group("type") != "REG_DWORD":
            raise ToolchainParseError(
                f"The registry value {value_name} is a {match.group('type')}, not a REG_DWORD.",
                why=f"reg query printed {_snippet(line)!r}",
                hint=f"Delete the value {value_name} and let the wizard set it again.",
            )
        try:
            return int(data, 16) if data.lower().startswith("0x") else int(data)
        except ValueError:
            raise ToolchainParseError(
                f"reg query printed an unreadable number for {value_name}: {data!r}.",
                hint="Run the wizard again.",
            ) from None
    return None


# --------------------------------------------------------------------------------------------
# gcc
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GccVersion:
    major: int
    minor: int
    patch: int

    @property
    def text(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


_BARE_VERSION = re.compile(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?$")
# "gcc (Debian 12.2.0-14+deb12u1) 12.2.0", "gcc (GCC) 11.4.1 20231218 (Red Hat 11.4.1-3)",
# "g++ (Rev3, Built by MSYS2 project) 13.2.0": the version follows the package note.
_GCC_BANNER = re.compile(r"^\S+\s+\((?:[^()]|\([^()]*\))*\)\s+(\d+)\.(\d+)(?:\.(\d+))?(?:\s|$)")
_GCC_V = re.compile(r"\bgcc version (\d+)\.(\d+)(?:\.(\d+))?")


def parse_gcc_version(text: str) -> GccVersion:
    """gcc's version from ``gcc -dumpfullversion`` ("12.2.0"), ``-dumpversion`` ("12"),
    ``gcc --version`` (its first line) or ``gcc -v`` ("gcc version 12.2.0 ...")."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    match = _BARE_VERSION.match(first) or _GCC_V.search(text)
    if match is None and "clang" not in first.lower():
        match = _GCC_BANNER.match(first)
    if match is None:
        raise ToolchainParseError(
            "This compiler did not report a gcc version.",
            why=f"it printed {_snippet(first)!r}" if first else "it printed nothing",
            hint="Install gcc (e.g. 'sudo apt install build-essential') or point the wizard at "
            "a gcc that the CUDA toolkit accepts.",
        )
    return GccVersion(int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 0))


# --------------------------------------------------------------------------------------------
# CUDA toolkit folders
# --------------------------------------------------------------------------------------------

_CUDA_FOLDER = re.compile(r"^(?:cuda-|v)(\d+)(?:\.(\d+))?$", re.IGNORECASE)
_CUDA_PATH_VAR = re.compile(r"^CUDA_PATH_V(\d+)_(\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class CudaCandidate:
    """A folder that may hold a CUDA toolkit, with the version its name promises."""

    root: Path
    version: tuple[int, int] | None  # from the folder or variable name; None = unknown
    origin: str  # "CUDA_PATH, CUDA_PATH_V12_4", "folder"


def _last_component(path_text: str) -> str:
    parts = re.split(r"[\\/]+", path_text.strip().rstrip("\\/"))
    return parts[-1] if parts else ""


def cuda_version_from_folder(path: str | Path) -> tuple[int, int] | None:
    """(12, 4) for ``...\\CUDA\\v12.4`` or ``/usr/local/cuda-12.4``; None for ``cuda``,
    ``cuda-12`` (major only) or any other name."""
    match = _CUDA_FOLDER.match(_last_component(str(path)))
    if match is None or match.group(2) is None:
        return None
    return int(match.group(1)), int(match.group(2))


def _is_cuda_folder(path: str | Path) -> bool:
    name = _last_component(str(path))
    return name.lower() == "cuda" or _CUDA_FOLDER.match(name) is not None


def _path_key(path_text: str) -> str:
    text = path_text.strip().rstrip("\\/")
    windows = "\\" in text or re.match(r"^[A-Za-z]:", text) is not None
    return text.replace("/", "\\").casefold() if windows else text


def _merge_candidates(
    entries: Iterable[tuple[str, tuple[int, int] | None, str]],
) -> list[CudaCandidate]:
    merged: dict[str, tuple[str, tuple[int, int] | None, list[str]]] = {}
    for path_text, version, origin in entries:
        key = _path_key(path_text)
        if key in merged:
            first_text, first_version, origins = merged[key]
            origins.append(origin)
            merged[key] = (first_text, first_version or version, origins)
        else:
            merged[key] = (path_text.strip(), version, [origin])
    return [CudaCandidate(Path(t), v, ", ".join(o)) for t, v, o in merged.values()]


def cuda_candidates_from_env(environ: Mapping[str, str]) -> list[CudaCandidate]:
    """CUDA toolkits named by the environment, in the order torch trusts them.

    ``CUDA_HOME``, then ``CUDA_PATH``, then the ``CUDA_PATH_V12_4``-style variables the
    Windows installers set (newest first). The same folder named twice is one candidate with
    both origins. The version comes from the variable name or the folder name.
    """
    entries: list[tuple[str, tuple[int, int] | None, str]] = []
    for name in ("CUDA_HOME", "CUDA_PATH"):
        value = environ.get(name, "").strip()
        if value:
            entries.append((value, cuda_version_from_folder(value), name))
    versioned: list[tuple[tuple[int, int], str, str]] = []
    for name, value in environ.items():
        match = _CUDA_PATH_VAR.match(name)
        if match and value.strip():
            versioned.append(((int(match.group(1)), int(match.group(2))), name.upper(), value))
    for version, name, value in sorted(versioned, reverse=True):
        entries.append((value, version, name))
    return _merge_candidates(entries)


def cuda_candidates_from_folders(paths: Iterable[str | Path]) -> list[CudaCandidate]:
    """The CUDA toolkit folders among ``paths`` (e.g. a listing of ``/usr/local`` or of
    ``C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA``), versioned newest first,
    then the unversioned ones (``/usr/local/cuda``, ``cuda-12``) in their given order."""
    entries = [(str(p), cuda_version_from_folder(p), "folder") for p in paths if _is_cuda_folder(p)]
    candidates = _merge_candidates(entries)
    versioned = sorted(
        (c for c in candidates if c.version is not None),
        key=lambda c: c.version or (0, 0),
        reverse=True,
    )
    return versioned + [c for c in candidates if c.version is None]


def cccl_include_dir(cuda_root: Path, version: tuple[int, int] | CudaVersion) -> Path | None:
    """``<cuda>/include/cccl`` for CUDA 13 and later, when it exists; None otherwise.

    CUDA 13 moved the CCCL headers (``cuda/std/...``) there. nvcc finds them, but the host
    compiler building a torch extension's .cpp files does not, so the build adds this folder
    to the host include path.
    """
    release = version.release if isinstance(version, CudaVersion) else version
    if release < (13, 0):
        return None
    folder = cuda_root / "include" / "cccl"
    return folder if folder.is_dir() else None


# --------------------------------------------------------------------------------------------
# Run-and-parse helpers: the only code in this module that starts processes or reads disks
# --------------------------------------------------------------------------------------------

VC_TOOLS_COMPONENT = "Microsoft.VisualStudio.Component.VC.Tools.x86.x64"
DEFAULT_TIMEOUT_S = 30.0


def vswhere_locations(environ: Mapping[str, str]) -> list[Path]:
    """Where vswhere.exe is installed: under ``%ProgramFiles(x86)%``, else ``%ProgramFiles%``."""
    out: list[Path] = []
    for var in ("ProgramFiles(x86)", "ProgramFiles"):
        base = environ.get(var, "").strip()
        if base:
            out.append(Path(base) / "Microsoft Visual Studio" / "Installer" / "vswhere.exe")
    return out


def vswhere_args(vswhere: Path, version_range: str | None = None) -> list[str]:
    """The vswhere command line: every instance with the x64 C++ tools, in any state.

    ``-all`` matters: without it vswhere silently hides incomplete and reboot-pending
    instances, and the wizard could not tell the user why their Visual Studio is not used.
    ``-products *`` includes Build Tools; ``-prerelease`` includes previews.
    """
    args = [
        str(vswhere),
        "-all",
        "-prerelease",
        "-products",
        "*",
        "-requires",
        VC_TOOLS_COMPONENT,
        "-format",
        "json",
        "-utf8",
    ]
    if version_range:
        args += ["-version", version_range]
    return args


def _run_tool(args: Sequence[str], what: str, timeout: float) -> CapturedOutput:
    try:
        return run_captured(list(args), timeout_s=timeout)
    except ProcessStartError as exc:
        if exc.not_found:
            raise ToolchainProbeError(
                f"{what} was not found.", why=f"there is no program at {args[0]}"
            ) from None
        raise ToolchainProbeError(f"{what} could not be started.", why=exc.why) from None
    except ProcessTimeout:
        raise ToolchainProbeError(
            f"{what} did not answer within {timeout:.0f} seconds.",
            hint="Close other heavy programs and run the wizard again.",
        ) from None


def run_vswhere(
    vswhere: Path, version_range: str | None = None, timeout: float = DEFAULT_TIMEOUT_S
) -> list[VsInstance]:
    """Run vswhere (see :func:`vswhere_args`) and parse its answer."""
    done = _run_tool(vswhere_args(vswhere, version_range), "vswhere", timeout)
    if done.returncode != 0:
        raise ToolchainProbeError(
            f"vswhere failed (exit code {done.returncode}).",
            why=_snippet(done.stderr or done.stdout),
            hint="Update or repair the Visual Studio Installer, then run the wizard again.",
        )
    return parse_vswhere(done.stdout)


def list_msvc_toolsets(install: Path) -> list[MsvcToolset]:
    """The toolsets under ``<install>\\VC\\Tools\\MSVC`` (none when the folder is missing)."""
    folder = install / "VC" / "Tools" / "MSVC"
    try:
        names = [p.name for p in folder.iterdir() if p.is_dir()]
    except OSError:
        return []
    return parse_msvc_toolsets(names, install)


def read_vctools_default(install: Path) -> tuple[int, int, int] | None:
    """The default toolset of an instance; None when the file is missing or unreadable."""
    path = install / "VC" / "Auxiliary" / "Build" / "Microsoft.VCToolsVersion.default.txt"
    try:
        return parse_vctools_default(path.read_text(encoding="utf-8-sig", errors="replace"))
    except (OSError, ToolchainParseError):
        return None


def run_nvcc_version(nvcc: Path | str, timeout: float = DEFAULT_TIMEOUT_S) -> CudaVersion:
    """Run ``nvcc --version`` and parse it."""
    done = _run_tool([str(nvcc), "--version"], "nvcc", timeout)
    return parse_nvcc_version(done.stdout + "\n" + done.stderr)


def run_gcc_version(gcc: Path | str = "gcc", timeout: float = DEFAULT_TIMEOUT_S) -> GccVersion:
    """Run ``gcc -dumpfullversion -dumpversion`` (full version on old and new gcc alike)."""
    done = _run_tool([str(gcc), "-dumpfullversion", "-dumpversion"], "gcc", timeout)
    return parse_gcc_version(done.stdout)


def read_host_config(cuda_root: Path) -> HostCompilerBounds:
    """Parse ``<cuda_root>/include/crt/host_config.h``."""
    path = cuda_root / "include" / "crt" / "host_config.h"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ToolchainProbeError(
            "The CUDA toolkit's host_config.h could not be read.",
            why=f"{path}: {exc.strerror or exc}",
            hint="Reinstall the CUDA toolkit (its compiler headers are missing).",
        ) from None
    return parse_host_config(text)


def run_reg_query_dword(
    key: str, value_name: str, timeout: float = DEFAULT_TIMEOUT_S
) -> int | None:
    """``reg query <key> /v <value_name>`` → the REG_DWORD, or None when it is not set.

    Windows only (reg.exe). Reading HKLM needs no elevation.
    """
    done = _run_tool(["reg", "query", key, "/v", value_name], "reg.exe", timeout)
    return parse_reg_query_dword(done.stdout, value_name)


LONG_PATHS_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem"
LONG_PATHS_VALUE = "LongPathsEnabled"

__all__ = [
    "CompilerBound",
    "CudaCandidate",
    "CudaVersion",
    "GccVersion",
    "HostCompilerBounds",
    "LONG_PATHS_KEY",
    "LONG_PATHS_VALUE",
    "MsvcToolset",
    "RejectedVsInstance",
    "ToolchainParseError",
    "ToolchainProbeError",
    "ToolsetChoice",
    "VsInstance",
    "VsProduct",
    "VsRejection",
    "VsSelection",
    "cccl_include_dir",
    "clang_supported",
    "cuda_candidates_from_env",
    "cuda_candidates_from_folders",
    "cuda_version_from_folder",
    "describe_msvc_bound",
    "gcc_supported",
    "list_msvc_toolsets",
    "msc_ver_for_toolset",
    "msvc_supported",
    "parse_cuda_version_json",
    "parse_gcc_version",
    "parse_host_config",
    "parse_msvc_toolsets",
    "parse_nvcc_version",
    "parse_reg_query_dword",
    "parse_vctools_default",
    "parse_vswhere",
    "pick_msvc_toolset",
    "read_host_config",
    "read_vctools_default",
    "run_gcc_version",
    "run_nvcc_version",
    "run_reg_query_dword",
    "run_vswhere",
    "select_vs_instances",
    "vs_rejections",
    "vswhere_args",
    "vswhere_locations",
]
