"""A readable Markdown summary of a :class:`~kernel_wizard.verify.report.VerifyReport`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from kernel_wizard.verify.report import (
    CaseStatus,
    VerifyReport,
    VerifyStatus,
)
from kernel_wizard.verify.wording import method_sentence

ATTENTION_TENSORS = ("q", "k", "v", "k_cache")


def render_markdown(report: VerifyReport) -> str:
    verdict = {
        VerifyStatus.PASS: "PASS",
        VerifyStatus.FAIL: "FAIL",
        VerifyStatus.ERROR: "could not be verified",
    }[report.status]
    kernel = report.kernel
    out: list[str] = [f"# Kernel verification: {verdict}", "", _md(report.headline), ""]
    facts: list[tuple[str, str]] = []
    if kernel is not None:
        where = f" (`{kernel.file}`)" if kernel.file else ""
        facts.append(("Kernel", f"{kernel.module} {kernel.display_version}{where}"))
    facts.append(("Adapter", report.adapter))
    env = report.environment
    if env is not None:
        facts.append(("Python", f"{env.python} (`{env.python_executable or report.python}`)"))
        cuda = f"CUDA {env.torch_cuda}" if env.torch_cuda else "CPU build"
        facts.append(("PyTorch", f"{env.torch_version or '?'} ({cuda})"))
        if env.device_name:
            gpu = env.device_name
            if env.device_capability:
                gpu += f", compute capability {env.device_capability[0]}."
                gpu += f"{env.device_capability[1]}"
            if env.device_memory_bytes:
                gpu += f", {env.device_memory_bytes / 1024**3:.0f} GiB"
            facts.append(("GPU", gpu))
        if env.driver_version or env.cuda_driver_api:
            facts.append(
                (
                    "Driver",
                    f"{env.driver_version or '?'}"
                    + (f" (CUDA {env.cuda_driver_api})" if env.cuda_driver_api else ""),
                )
            )
        facts.append(("Platform", env.platform))
    elif report.python:
        facts.append(("Python", f"`{report.python}`"))
    if report.extra_pythonpath:
        facts.append(("Extra PYTHONPATH", ", ".join(f"`{p}`" for p in report.extra_pythonpath)))
    options = report.options
    facts.append(
        (
            "Run",
            f"{report.started_at or '?'}, {report.seconds:.1f} s, device "
            f"{options.get('device', '?')}, seed {options.get('seed', '?')}"
            + (", quick" if options.get("quick") else ""),
        )
    )
    out += ["| | |", "| --- | --- |"]
    out += [f"| {_md(k)} | {_md(v)} |" for k, v in facts]
    out.append("")
    if report.status is not VerifyStatus.PASS and report.reasons:
        out += ["## Why", ""]
        out += [f"- {_md(r)}" for r in report.reasons]
        out.append("")
    if report.cases:
        names: list[str] = []
        for case in report.cases:
            for m in case.measures:
                if m.name not in names:
                    names.append(m.name)
        out += ["## Checks", ""]
        header = ["Result", "Check", "Device", "dtype", "Causal", "Shapes", *names]
        out.append("| " + " | ".join(header) + " |")
        out.append("| " + " | ".join("---" for _ in header) + " |")
        for case in report.cases:
            # attention: its tensors (not the sequence-length lists); other kernels: all
            shown = [k for k in case.shapes if k in ATTENTION_TENSORS] or list(case.shapes)
            shapes = ", ".join(
                f"{k} {'x'.join(str(n) for n in case.shapes[k])}" for k in shown
            )
            row = [
                case.status.label,
                case.name,
                case.device,
                case.dtype,
                "yes" if case.causal else "no",
                shapes,
            ]
            for name in names:
                found = case.measure(name)
                cell = found.cell() if found is not None else ""
                row.append(f"**{cell}**" if found is not None and not found.passed else cell)
            out.append("| " + " | ".join(_md(c) for c in row) + " |")
        out.append("")
        problems = [c for c in report.cases if c.status is not CaseStatus.PASS]
        if problems:
            out += ["### Problems", ""]
            for case in problems:
                out.append(f"- **{_md(case.name)}** ({case.status.label.lower()}):")
                out += [f"  - {_md(r)}" for r in case.reasons]
                if case.kernel_output:
                    first = case.kernel_output.strip().splitlines()[0]
                    out.append(f"  - the kernel printed: `{_md(first)}`")
            out.append("")
    plain = [t for t in report.timings if t.reference]
    if plain:
        out += [
            "## Speed against plain PyTorch",
            "",
            "The same data moved or computed by plain PyTorch (median of timings, the slowest "
            "process for collectives).",
            "",
            "| Measure | What | Kernel (ms) | Plain PyTorch | Its time (ms) | Kernel speed |"
            " Kernel rate | Plain PyTorch's rate |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for t in plain:
            row = [
                t.name,
                t.label or t.dtype,
                f"{t.kernel_ms:.3f}" if t.kernel_ms is not None else "-",
                t.reference,
                f"{t.sdpa_ms:.3f}" if t.sdpa_ms is not None else "-",
                f"{t.speedup:.2f}x" if t.speedup is not None else (t.error or "-"),
                (t.rate(t.kernel_ms) or "-"),
                (t.rate(t.sdpa_ms) or "-"),
            ]
            out.append("| " + " | ".join(_md(c) for c in row) + " |")
        out.append("")
    if any(not t.reference for t in report.timings):
        out += [
            "## Speed against PyTorch SDPA",
            "",
            "SDPA: `torch.nn.functional.scaled_dot_product_attention` on the same data. The "
            "baseline is the fastest of its methods here: its default choice, and each of cuDNN, "
            "flash and memory-efficient alone; its plain math method is shown beside it. "
            + str(method_sentence(report.timings) or ""),
            "",
            "| Measure | What | Kernel (ms) | Kernel rate | SDPA, fastest method | SDPA (ms) "
            "| SDPA rate | SDPA math (ms) | Kernel speed vs SDPA | vs SDPA math "
            "| CPU per kernel call (ms) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for t in report.timings:
            if t.reference:
                continue
            shapes = ", ".join(f"{k} {'x'.join(str(n) for n in v)}" for k, v in t.shapes.items())
            what = t.label or f"{shapes}, {t.dtype}"
            row = [
                t.name,
                what,
                f"{t.kernel_ms:.3f}" if t.kernel_ms is not None else "-",
                (t.rate(t.kernel_ms) or "-"),
                t.sdpa_backend or "-",
                f"{t.sdpa_ms:.3f}" if t.sdpa_ms is not None else "-",
                (t.rate(t.sdpa_ms) or "-"),
                f"{t.math_ms:.3f}" if t.math_ms is not None else "-",
                f"{t.speedup:.2f}x" if t.speedup is not None else (t.error or "-"),
                f"{t.math_speedup:.2f}x" if t.math_speedup is not None else "-",
                (f"{t.host_ms:.3f}" + (" (CPU-bound)" if t.cpu_bound else ""))
                if t.host_ms is not None else "-",
            ]
            out.append("| " + " | ".join(_md(c) for c in row) + " |")
        out.append("")
    rule = report.rule
    if rule:
        out += ["## Rule", "", _md(str(rule.get("text", ""))), ""]
        floors = rule.get("floors")
        if isinstance(floors, Mapping) and floors:
            out += ["| dtype | floor (output) | floor (gradients) |", "| --- | --- | --- |"]
            for dtype, values in floors.items():
                if isinstance(values, Mapping):
                    out.append(
                        f"| {_md(str(dtype))} | {values.get('output')} | {values.get('gradient')} |"
                    )
            out.append("")
    if report.notes:
        out += ["## Notes", ""]
        out += [f"- {_md(n)}" for n in report.notes]
        out.append("")
    return "\n".join(out)


def write_markdown(report: VerifyReport, path: Path) -> Path:
    """Write :func:`render_markdown` to ``path`` (UTF-8); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_markdown(report), encoding="utf-8")
    return path


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")

