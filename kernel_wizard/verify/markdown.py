"""A readable Markdown summary of a verification report: :func:`render_markdown` renders the
report's :class:`~kernel_wizard.verify.view.ReportView`, one section per function."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kernel_wizard.verify.report import VerifyReport, VerifyStatus
from kernel_wizard.verify.view import CheckRow, ReportView, report_view

PLAIN_INTRO = ("The same data moved or computed by plain PyTorch (median of timings, the slowest "
               "process for collectives).")
PLAIN_HEADER = ("Measure", "What", "Kernel (ms)", "Plain PyTorch", "Its time (ms)",
                "Kernel speed", "Kernel rate", "Plain PyTorch's rate")
SDPA_INTRO = ("SDPA: `torch.nn.functional.scaled_dot_product_attention` on the same data. The "
              "baseline is the fastest of its methods here: its default choice, and each of "
              "cuDNN, flash and memory-efficient alone; its plain math method is shown beside "
              "it. ")
SDPA_HEADER = ("Measure", "What", "Kernel (ms)", "Kernel rate", "SDPA, fastest method",
               "SDPA (ms)", "SDPA rate", "SDPA math (ms)", "Kernel speed vs SDPA",
               "vs SDPA math", "CPU per kernel call (ms)")
CHECKS_HEADER = ("Result", "Check", "Device", "dtype", "Causal", "Shapes")


def render_markdown(report: VerifyReport) -> str:
    view = report_view(report)
    sections = (_title(view), _facts(view), _why(view), _checks(view), _problems(view),
                _speed_against_plain(view), _speed_against_sdpa(view), _rule(view),
                _notes(view))
    return "\n".join(line for section in sections for line in section)


def write_markdown(report: VerifyReport, path: Path) -> Path:
    """Write :func:`render_markdown` to ``path`` (UTF-8); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_markdown(report), encoding="utf-8")
    return path


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A table with a blank line after it (the cells already escaped)."""
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows), ""]


def _ms(value: float | None) -> str:
    return f"{value:.3f}" if value is not None else "-"


def _title(view: ReportView) -> list[str]:
    return [f"# Kernel verification: {view.verdict}", "", _md(view.summary), "",
            _md(str(view.headline)), ""]


def _facts(view: ReportView) -> list[str]:
    """A table of two columns without headings."""
    return ["| | |", "| --- | --- |", *(_row((_md(k), _md(v))) for k, v in view.facts), ""]


def _why(view: ReportView) -> list[str]:
    if view.status is VerifyStatus.PASS or not view.reasons:
        return []
    return ["## Why", "", *(f"- {_md(r)}" for r in view.reasons), ""]


def _check_cells(row: CheckRow, names: Sequence[str]) -> list[str]:
    cells = [row.result, row.check_id, row.device, row.dtype, "yes" if row.causal else "no",
             row.shapes]
    for name in names:
        found = row.measure(name)
        cells.append("" if found is None else found.cell if found.passed
                     else f"**{found.cell}**")
    return [_md(c) for c in cells]


def _checks(view: ReportView) -> list[str]:
    if not view.rows:
        return []
    return ["## Checks", "", *_table((*CHECKS_HEADER, *view.measure_names),
                                     [_check_cells(r, view.measure_names) for r in view.rows])]


def _problems(view: ReportView) -> list[str]:
    problems = [row for row in view.rows if not row.passed]
    if not problems:
        return []
    out = ["### Problems", ""]
    for row in problems:
        out.append(f"- **{_md(row.check_id)}** ({row.result.lower()}):")
        out += [f"  - {_md(r)}" for r in row.reasons]
        if row.kernel_output:
            out.append(f"  - the kernel printed: `{_md(row.kernel_output)}`")
    return [*out, ""]


def _speed_against_plain(view: ReportView) -> list[str]:
    plain = [t for t in view.timings if t.reference]
    if not plain:
        return []
    rows = [[_md(c) for c in (
        t.name, t.label or t.dtype, _ms(t.kernel_ms), t.reference, _ms(t.sdpa_ms),
        f"{t.speedup:.2f}x" if t.speedup is not None else (t.error or "-"),
        t.rate(t.kernel_ms) or "-", t.rate(t.sdpa_ms) or "-")] for t in plain]
    return ["## Speed against plain PyTorch", "", PLAIN_INTRO, "", *_table(PLAIN_HEADER, rows)]


def _speed_against_sdpa(view: ReportView) -> list[str]:
    timed = [t for t in view.timings if not t.reference]
    if not timed:
        return []
    rows = []
    for t in timed:
        shapes = ", ".join(f"{k} {'x'.join(str(n) for n in v)}" for k, v in t.shapes.items())
        host = "-" if t.host_ms is None else \
            f"{t.host_ms:.3f}" + (" (CPU-bound)" if t.cpu_bound else "")
        rows.append([_md(c) for c in (
            t.name, t.label or f"{shapes}, {t.dtype}", _ms(t.kernel_ms),
            t.rate(t.kernel_ms) or "-", t.sdpa_backend or "-", _ms(t.sdpa_ms),
            t.rate(t.sdpa_ms) or "-", _ms(t.math_ms),
            f"{t.speedup:.2f}x" if t.speedup is not None else (t.error or "-"),
            f"{t.math_speedup:.2f}x" if t.math_speedup is not None else "-", host)])
    intro = SDPA_INTRO + str(view.method or "")
    return ["## Speed against PyTorch SDPA", "", intro, "", *_table(SDPA_HEADER, rows)]


def _rule(view: ReportView) -> list[str]:
    if not view.rule_text and not view.rule_floors:
        return []
    out = ["## Rule", "", _md(view.rule_text), ""]
    if view.rule_floors:
        out += _table(("dtype", "floor (output)", "floor (gradients)"),
                      [(_md(dtype), output, gradient)
                       for dtype, output, gradient in view.rule_floors])
    return out


def _notes(view: ReportView) -> list[str]:
    if not view.notes:
        return []
    return ["## Notes", "", *(f"- {_md(n)}" for n in view.notes), ""]
