"""What every toolchain parser shares: its two errors and small helpers for versions and text."""

from __future__ import annotations

from collections.abc import Sequence

from kernel_wizard.base.errors import WizardError

Version = tuple[int, ...]


class ToolchainParseError(WizardError):
    """A tool's answer (or a toolkit file) is not in the shape this program knows."""


class ToolchainProbeError(WizardError):
    """A tool could not be run at all: missing, not executable, or it did not answer in time."""


def snippet(text: str, limit: int = 120) -> str:
    """The start of ``text`` on one line, for error messages."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def parse_dotted(text: str) -> Version:
    """'17.14.37027.9' → (17, 14, 37027, 9). Raises ValueError on anything else."""
    parts = text.strip().split(".")
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(f"not a dotted version: {text!r}")
    return tuple(int(p) for p in parts)


def dotted_text(version: Sequence[int]) -> str:
    return ".".join(str(v) for v in version)


def _pad(a: Sequence[int], b: Sequence[int]) -> tuple[Version, Version]:
    width = max(len(a), len(b))
    return tuple(a) + (0,) * (width - len(a)), tuple(b) + (0,) * (width - len(b))


def version_lt(a: Sequence[int], b: Sequence[int]) -> bool:
    """``a < b`` with missing trailing parts read as 0: (13,) < (13, 3), (15, 2, 0) < (16,)."""
    pa, pb = _pad(a, b)
    return pa < pb

