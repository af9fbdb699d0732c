"""Helpers for the diagnosis tests (importable from every test folder)."""

from __future__ import annotations

from collections.abc import Iterable

from kernel_wizard.diagnose import LogDiagnoser


def fed(lines: Iterable[str]) -> LogDiagnoser:
    """A diagnoser that has read these lines one at a time, as a running build's log arrives
    (its ``summary()`` is then the diagnosis a failed build shows)."""
    diagnoser = LogDiagnoser()
    for line in lines:
        diagnoser.feed(line)
    return diagnoser
