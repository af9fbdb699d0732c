"""One view of a verification report, decided once and shown three times.

:func:`report_view` turns a :class:`~kernel_wizard.verify.report.VerifyReport` into a
:class:`ReportView`: the verdict (its word, its title and the plain sentence under it), one
:class:`CheckRow` per check (its plain name, its result, its measures with their labels, its
reasons), the speed in sentences and in tables, the facts of where it ran, the rule and the notes.
The Verify page (``app/pages/verify.py``), the Markdown report (:mod:`.markdown`) and the command
line (:meth:`ReportView.lines`) render only this view, so the three cannot disagree about what a
verification found. The sentences are :class:`~kernel_wizard.base.messages.Msg` (English, and
translatable by the GUI); the tables keep the harness's ids and numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kernel_wizard.base.messages import N_, Msg, msg
from kernel_wizard.verify.report import (
    VERDICT_WORDS,
    CaseStatus,
    ErrorMeasure,
    Timing,
    VerifyCase,
    VerifyReport,
    VerifyStatus,
)
from kernel_wizard.verify.wording import (
    SpeedText,
    case_reason,
    case_words,
    error_share,
    explanation,
    failure_details,
    measure_label,
    measure_text,
    method_sentence,
    speed_text,
    verdict_sentence,
    verdict_title,
)

ATTENTION_TENSORS = ("q", "k", "v", "k_cache")
WHAT_FAILED = N_("What failed:")
NOTES = N_("Notes:")
REASONS_SHOWN = 3  # reasons of a failed check on the command line (all are in the report)


@dataclass(frozen=True)
class MeasureLine:
    """One measure of a check: ``name`` as the harness calls it ("out", "dq"), ``label`` in
    words ("the output"), ``text`` the sentence with its numbers, ``cell`` the numbers alone
    for tables ("1.2e-06 <= 1.2e-05")."""

    name: str
    label: Msg | str
    text: Msg
    cell: str
    passed: bool


@dataclass(frozen=True)
class CheckRow:
    """One check: ``check_id`` as the harness names it, ``words`` what it tested in words,
    ``result`` its verdict ("PASS", "NOT RUN", ...) and ``largest_error`` its largest error as
    a share of what was allowed."""

    check_id: str
    words: Msg
    status: CaseStatus
    result: str
    largest_error: Msg | str
    measures: tuple[MeasureLine, ...]
    reasons: tuple[Msg | str, ...]
    device: str
    dtype: str
    causal: bool
    shapes: str  # attention: its tensors; another kernel: every shape
    kernel_output: str  # the first line the kernel printed, when it printed something

    @property
    def passed(self) -> bool:
        return self.status is CaseStatus.PASS

    def details(self) -> tuple[Msg | str, ...]:
        """Everything about the check beyond its row: its id, each measure, each reason."""
        return (msg("Check {id}", id=self.check_id), *(m.text for m in self.measures),
                *self.reasons)

    def measure(self, name: str) -> MeasureLine | None:
        return next((m for m in self.measures if m.name == name), None)


@dataclass(frozen=True)
class ReportView:
    """What a verification report shows, whoever shows it (see the module's text)."""

    status: VerifyStatus
    verdict: str  # "PASS", "FAIL", "could not be verified"
    title: str  # "✔ PASS — the kernel works."
    headline: Msg | str  # the verdict in one plain sentence
    explanation: Msg  # the sentence, what is installed, and what can be done next
    summary: str  # one line for a log: "ksw_probe 0.1.0: PASS - all 3 checks passed."
    facts: tuple[tuple[str, str], ...]  # where and how it ran, label and value
    environment_line: str  # the same facts in one line, for the command line
    kernel_file: str
    reasons: tuple[str, ...]  # why it did not pass (the report's)
    rows: tuple[CheckRow, ...]
    measure_names: tuple[str, ...]  # every measure of any check, in order: a table's columns
    failures: tuple[Msg, ...]  # each failed check in words with its first reason
    speed: SpeedText
    method: Msg | None  # how the times were taken
    timings: tuple[Timing, ...]
    rule_text: str
    rule_floors: tuple[tuple[str, str, str], ...]  # dtype, floor of the output, of gradients
    notes: tuple[str, ...]
    seconds: float

    @property
    def passed(self) -> bool:
        return self.status is VerifyStatus.PASS

    def detail_lines(self) -> list[Msg | str]:
        """For the details under the verdict: the failed checks in words (of a verification
        that did not pass) and the notes, each list under its heading."""
        lines: list[Msg | str] = []
        if not self.passed and self.failures:
            lines += ["", WHAT_FAILED, *(msg("• {line}", line=f) for f in self.failures)]
        if self.notes:
            lines += ["", NOTES, *(msg("• {line}", line=n) for n in self.notes)]
        return lines

    def lines(self) -> list[str]:
        """The report for the command line: the summary and the plain sentence, where it ran,
        one line per check (with
        the reasons of one that did not pass), per timing, the notes and how long it took."""
        lines = [self.summary, f"  {self.headline}"]
        if self.environment_line:
            lines.append(f"  {self.environment_line}")
        if self.kernel_file:
            lines.append(f"  kernel imported from {self.kernel_file}")
        for row in self.rows:
            cells = ", ".join(f"{m.name} {m.cell}" for m in row.measures)
            lines.append(f"  {row.result:7s} {row.check_id}" + (f": {cells}" if cells else ""))
            if not row.passed:
                lines.extend(f"          - {reason}" for reason in row.reasons[:REASONS_SHOWN])
        lines.extend("  timing " + _timing_text(timing) for timing in self.timings)
        if self.status is VerifyStatus.ERROR:
            lines.extend(f"  - {reason}" for reason in self.reasons[1:])  # [0] is the summary
        lines.extend(f"  note: {note}" for note in self.notes)
        lines.append(f"  ({self.seconds:.1f} s)")
        return lines


def report_view(report: VerifyReport, *, installed: bool = False) -> ReportView:
    """The view of ``report``; ``installed``: the kernel it verified is installed now."""
    rows = tuple(_row(case) for case in report.cases)
    names: list[str] = []
    for row in rows:
        names += [m.name for m in row.measures if m.name not in names]
    rule = report.rule or {}
    floors = rule.get("floors")
    return ReportView(
        status=report.status,
        verdict=VERDICT_WORDS[report.status],
        title=verdict_title(report.status, installed),
        headline=verdict_sentence(report, installed),
        explanation=explanation(report, installed),
        summary=report.headline,
        facts=_facts(report),
        environment_line=_environment_line(report),
        kernel_file=(report.kernel.file or "") if report.kernel is not None else "",
        reasons=tuple(report.reasons),
        rows=rows,
        measure_names=tuple(names),
        failures=tuple(failure_details(report)),
        speed=speed_text(report),
        method=method_sentence(report.timings),
        timings=tuple(report.timings),
        rule_text=str(rule.get("text", "")),
        rule_floors=tuple(
            (str(dtype), str(values.get("output")), str(values.get("gradient")))
            for dtype, values in (floors.items() if isinstance(floors, Mapping) else ())
            if isinstance(values, Mapping)),
        notes=tuple(report.notes),
        seconds=report.seconds,
    )


def _measure(m: ErrorMeasure) -> MeasureLine:
    return MeasureLine(m.name, measure_label(m), measure_text(m), m.cell(), m.passed)


def _row(case: VerifyCase) -> CheckRow:
    shown = [k for k in case.shapes if k in ATTENTION_TENSORS] or list(case.shapes)
    output = case.kernel_output.strip().splitlines() if case.kernel_output else []
    return CheckRow(
        check_id=case.name, words=case_words(case), status=case.status,
        result=case.status.label, largest_error=error_share(case),
        measures=tuple(_measure(m) for m in case.measures),
        reasons=tuple(case_reason(case, r) for r in case.reasons),
        device=case.device, dtype=case.dtype, causal=case.causal,
        shapes=", ".join(f"{k} {'x'.join(str(n) for n in case.shapes[k])}" for k in shown),
        kernel_output=output[0] if output else "",
    )


def _gpu(report: VerifyReport) -> str:
    env = report.environment
    if env is None or not env.device_name:
        return ""
    gpu = env.device_name
    if env.device_capability:
        major, minor = env.device_capability[0], env.device_capability[1]
        gpu += f", compute capability {major}.{minor}"
    if env.device_memory_bytes:
        gpu += f", {env.device_memory_bytes / 1024**3:.0f} GiB"
    return gpu


def _facts(report: VerifyReport) -> tuple[tuple[str, str], ...]:
    """Where and how the verification ran, as the report's table lists it."""
    facts: list[tuple[str, str]] = []
    kernel, env = report.kernel, report.environment
    if kernel is not None:
        where = f" (`{kernel.file}`)" if kernel.file else ""
        facts.append(("Kernel", f"{kernel.module} {kernel.display_version}{where}"))
    facts.append(("Adapter", report.adapter))
    if env is not None:
        facts.append(("Python", f"{env.python} (`{env.python_executable or report.python}`)"))
        cuda = f"CUDA {env.torch_cuda}" if env.torch_cuda else "CPU build"
        facts.append(("PyTorch", f"{env.torch_version or '?'} ({cuda})"))
        if env.device_name:
            facts.append(("GPU", _gpu(report)))
        if env.driver_version or env.cuda_driver_api:
            api = f" (CUDA {env.cuda_driver_api})" if env.cuda_driver_api else ""
            facts.append(("Driver", f"{env.driver_version or '?'}{api}"))
        facts.append(("Platform", env.platform))
    elif report.python:
        facts.append(("Python", f"`{report.python}`"))
    if report.extra_pythonpath:
        facts.append(("Extra PYTHONPATH", ", ".join(f"`{p}`" for p in report.extra_pythonpath)))
    options = report.options
    facts.append(("Run", f"{report.started_at or '?'}, {report.seconds:.1f} s, device "
                         f"{options.get('device', '?')}, seed {options.get('seed', '?')}"
                         + (", quick" if options.get("quick") else "")))
    return tuple(facts)


def _environment_line(report: VerifyReport) -> str:
    """'Python 3.12.3, torch 2.8.0 (CUDA 12.8); GPU NVIDIA H100 (cc 9.0), driver 580.95'."""
    env = report.environment
    if env is None:
        return ""
    torch_text = f"torch {env.torch_version or '?'}"
    torch_text += f" (CUDA {env.torch_cuda})" if env.torch_cuda else " (CPU build)"
    gpu = ""
    if env.device_name:
        cc = env.device_capability
        gpu = f"; GPU {env.device_name}"
        if cc:
            gpu += f" (cc {cc[0]}.{cc[1]})"
        if env.driver_version:
            gpu += f", driver {env.driver_version}"
    return f"Python {env.python}, {torch_text}{gpu}"


def _ratio(speedup: float) -> str:
    """'2.31x as fast as' / '230x slower than' — never '0.00x' for a slow kernel."""
    if speedup >= 1 or speedup <= 0:
        return f"{speedup:.2f}x as fast as"
    slower = 1 / speedup
    return f"{slower:.0f}x slower than" if slower >= 10 else f"{slower:.2f}x slower than"


def _rate_text(t: Timing, ms: float | None) -> str:
    rate = t.rate(ms)
    return f" ({rate})" if rate else ""


def _timing_text(t: Timing) -> str:
    """One timing on one line, for the command line."""
    kernel = f"{t.kernel_ms:.3f} ms" if t.kernel_ms is not None else "-"
    sdpa = f"{t.sdpa_ms:.3f} ms" if t.sdpa_ms is not None else "-"
    if t.reference:
        text = (f"{t.name}: kernel {kernel}{_rate_text(t, t.kernel_ms)}, {t.reference} "
                f"{sdpa}{_rate_text(t, t.sdpa_ms)}")
        if t.speedup is not None:
            text += f" (kernel {_ratio(t.speedup)} {t.reference})"
        if t.label:
            text += f" at {t.label}"
        return text + (f" [{t.error}]" if t.error else "")
    kernel += _rate_text(t, t.kernel_ms)
    method = "" if t.sdpa_backend in ("", "default") else f" ({t.sdpa_backend})"
    text = f"{t.name}: kernel {kernel}, SDPA{method} {sdpa}{_rate_text(t, t.sdpa_ms)}"
    if t.math_ms is not None:
        text += f", SDPA math {t.math_ms:.3f} ms"
    if t.speedup is not None:
        text += f" (kernel {_ratio(t.speedup)} SDPA"
        text += f", {_ratio(t.math_speedup)} its math method)" if t.math_speedup is not None \
            else ")"
    if t.label:
        text += f" at {t.label}"
    if t.host_ms is not None:
        text += f"; CPU {t.host_ms:.3f} ms per call" + (" (CPU-bound)" if t.cpu_bound else "")
    if t.method == "queued":
        text += f"; {t.runs} calls queued x {t.groups}"
    if t.error:
        text += f" [{t.error}]"
    return text


__all__ = ["CheckRow", "MeasureLine", "ReportView", "report_view"]
