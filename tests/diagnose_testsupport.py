"""Helpers for the diagnosis tests (importable from every test folder)."""

from __future__ import annotations

from collections.abc import Iterable

from kernel_wizard.diagnose import DiagnosisReport, LogDiagnoser
from kernel_wizard.diagnose.context import KernelContext


def fed(lines: Iterable[str], context: KernelContext | None = None) -> LogDiagnoser:
    """A diagnoser that has read these lines one at a time, as a running build's log arrives
    (its ``summary()`` is then the diagnosis a failed build shows)."""
    diagnoser = LogDiagnoser(context=context)
    for line in lines:
        diagnoser.feed(line)
    return diagnoser


def failed(lines: Iterable[str], context: KernelContext | None = None) -> DiagnosisReport:
    """The diagnosis of a log that ended in a failure (an excerpt, as people paste them)."""
    return fed(lines, context).summary(failed=True)


def family(report: DiagnosisReport) -> str | None:
    """The family's id (where the log stopped), None where there is none."""
    return report.family.id if report.family is not None else None


def first(report: DiagnosisReport) -> str | None:
    """The first error line as shown, None where none was found."""
    return report.first_error.line.strip() if report.first_error is not None else None


def cause(report: DiagnosisReport) -> str | None:
    """The named cause's group, None where only the family is given."""
    return report.primary.cause_group if report.primary is not None else None
