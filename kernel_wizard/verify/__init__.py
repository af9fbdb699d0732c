"""Verify a kernel in the target environment: run ``resources/verify/verify_kernel.py`` with the
target interpreter and read its JSON report into :class:`VerifyReport`.

The wizard never imports torch or the kernel itself: the harness runs in a subprocess (an
argument list, never a shell string), its output lines are streamed to ``on_line`` as they come,
and the report (schema ``ksw.verify/1``) is read from the file it writes (or, failing that, from
between the markers it prints). A staged wheel (``pip install --target <dir>``) is verified
before it is installed by passing that folder in ``extra_pythonpath``: it is put first on the
child's ``PYTHONPATH``. :func:`run_verifications` verifies the kernels of several adapters in
one Python in one harness process (one torch import and CUDA start), each reported as alone.

Outcomes: :class:`VerifyStatus` PASS / FAIL (the kernel computed something wrong, crashed, or
lacks a backward) / ERROR (the verification could not run: kernel not importable, no GPU,
timeout...). Only cancellation raises (:class:`~kernel_wizard.base.errors.Cancelled`); a bad
adapter or device name raises :class:`VerifyError`. Reports round-trip through
:meth:`VerifyReport.to_json` / :meth:`VerifyReport.from_json`. What a report shows a person is
decided once, in :func:`report_view` (a :class:`ReportView`): the Verify page, the Markdown
summary (:func:`write_markdown`) and the command line render that.

The package: :mod:`.report` (the report model and its JSON), :mod:`.runner` (running the
harness), :mod:`.protocol` (what the runner and the harness share, read from the harness's own
``harness_protocol.py``: markers, progress lines, the adapters), :mod:`.wording` (the report's
sentences), :mod:`.view` (the view every front end renders), :mod:`.markdown` (the readable
summary), :mod:`.history` (saved reports, compared over time).
"""

from __future__ import annotations

from kernel_wizard.verify.markdown import render_markdown, write_markdown
from kernel_wizard.verify.protocol import BEGIN, END, PROGRESS_PREFIX, adapter_names
from kernel_wizard.verify.report import (
    SCHEMA,
    CaseStatus,
    EnvironmentFacts,
    ErrorKind,
    ErrorMeasure,
    KernelFacts,
    Timing,
    VerifyCase,
    VerifyError,
    VerifyReport,
    VerifyStatus,
)
from kernel_wizard.verify.runner import (
    DEFAULT_TIMEOUT_S,
    DEVICES,
    LOG_TAIL_LINES,
    harness_command,
    harness_env_changes,
    harness_path,
    run_verification,
    run_verifications,
)
from kernel_wizard.verify.view import CheckRow, MeasureLine, ReportView, report_view

__all__ = [
    "BEGIN",
    "CheckRow",
    "DEFAULT_TIMEOUT_S",
    "DEVICES",
    "END",
    "LOG_TAIL_LINES",
    "MeasureLine",
    "PROGRESS_PREFIX",
    "ReportView",
    "SCHEMA",
    "CaseStatus",
    "EnvironmentFacts",
    "ErrorKind",
    "ErrorMeasure",
    "KernelFacts",
    "Timing",
    "VerifyCase",
    "VerifyError",
    "VerifyReport",
    "VerifyStatus",
    "adapter_names",
    "harness_command",
    "harness_env_changes",
    "harness_path",
    "render_markdown",
    "report_view",
    "run_verification",
    "run_verifications",
    "write_markdown",
]
