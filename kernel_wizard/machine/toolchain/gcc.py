"""gcc's version, from any of the ways gcc prints it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernel_wizard.machine.toolchain.base import ToolchainParseError, snippet


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
            why=f"it printed {snippet(first)!r}" if first else "it printed nothing",
            hint="Install gcc (e.g. 'sudo apt install build-essential') or point the wizard at "
            "a gcc that the CUDA toolkit accepts.",
        )
    return GccVersion(int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 0))

