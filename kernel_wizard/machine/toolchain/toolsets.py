"""MSVC toolsets: the folders under ``VC\\Tools\\MSVC``, their ``_MSC_VER``, and which one a
CUDA build should pin (the newest that the toolkit's ``host_config.h`` accepts)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.machine.toolchain.base import (
    ToolchainParseError,
    dotted_text,
    snippet,
    strip_bom,
)
from kernel_wizard.machine.toolchain.host_config import (
    HostCompilerBounds,
    describe_msvc_bound,
    msvc_supported,
)

_TOOLSET_FOLDER = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def msc_ver_for_toolset(version: Sequence[int]) -> int:
    """The ``_MSC_VER`` of an MSVC toolset: 1900 + its minor version.

    14.16 (VS 2017 15.9) → 1916, 14.29 (VS 2019 16.11) → 1929, 14.30 (VS 2022 17.0) → 1930,
    14.44 (VS 2022 17.14) → 1944, 14.50 (VS 2026) → 1950. Raises ValueError for a toolset
    major other than 14, where no such rule is known.
    """
    if len(version) < 2 or version[0] != 14:
        raise ValueError(f"no known _MSC_VER for MSVC toolset {dotted_text(version)}")
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


@dataclass(frozen=True)
class MsvcToolset:
    """One MSVC toolset: a folder ``<VS>\\VC\\Tools\\MSVC\\14.44.35207``."""

    version: tuple[int, int, int]  # (14, 44, 35207)
    install: Path | None = None  # the Visual Studio instance that holds it, when known

    @property
    def text(self) -> str:
        """'14.44.35207': the folder name, and what ``vcvarsall -vcvars_ver=`` takes."""
        return dotted_text(self.version)

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
    value = strip_bom(text).strip()
    match = _TOOLSET_FOLDER.match(value)
    if match is None:
        raise ToolchainParseError(
            "Visual Studio's default-toolset file does not name a toolset version.",
            why=f"Microsoft.VCToolsVersion.default.txt holds {snippet(value)!r}",
            hint="Open the Visual Studio Installer and repair the C++ build tools.",
        )
    return int(match.group(1)), int(match.group(2)), int(match.group(3))


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

