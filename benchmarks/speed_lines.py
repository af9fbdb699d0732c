"""The verification's speed lines: each kernel against the strongest plain-PyTorch way.

    python benchmarks/speed_lines.py --adapter flash_attn_3 [--python PY] [--json out.json]
    python benchmarks/speed_lines.py --recorded        # the figures kept in docs/recorded

The first form runs the real verification harness on this machine's GPU for the installed
kernel of ``--adapter`` (flash_attn, flash_attn_3, flashmla, ...) in the interpreter ``--python``
and prints its timings: the kernel, SDPA with its default choice and each of its fast methods
alone (cuDNN, flash, memory-efficient), its math method, or a named plain-PyTorch baseline
(FlashMLA: torch.bmm + softmax; DeepEP: the collectives), with TFLOPs or GB/s. The second form
prints the same table from every verification recorded on the lent machines.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernel_wizard.verify import Timing, VerifyReport, run_verification  # noqa: E402

RECORDED = ROOT / "docs" / "recorded"


def rows(report: VerifyReport) -> Iterator[str]:
    kernel = report.kernel.display_version if report.kernel else "?"
    env = report.environment
    gpu = env.device_name if env is not None and env.device_name else "?"
    for t in report.timings:
        yield " | ".join([report.adapter, kernel, gpu, t.name, t.label or t.dtype,
                          _ms(t.kernel_ms, t), _baseline(t), _ms(t.sdpa_ms, t),
                          f"{t.speedup:.2f}x" if t.speedup else (t.error or "-"),
                          _methods(t)])


def _ms(ms: float | None, t: Timing) -> str:
    if ms is None:
        return "-"
    rate = t.rate(ms)
    return f"{ms:.3f} ms" + (f" ({rate})" if rate else "")


def _baseline(t: Timing) -> str:
    if t.reference:
        return t.reference
    return f"SDPA {t.sdpa_backend}" if t.sdpa_backend else "SDPA"


def _methods(t: Timing) -> str:
    parts = [f"{name} {ms:.3f}" if ms else f"{name} -" for name, ms in t.backends.items()]
    if t.math_ms:
        parts.append(f"math {t.math_ms:.3f}")
    return ", ".join(parts) or "-"


HEADER = ("adapter | kernel | GPU | measure | what | kernel | baseline | baseline time | "
          "speed | SDPA methods (ms)")


def recorded_reports(folder: Path) -> Iterable[tuple[Path, VerifyReport]]:
    """Every verification kept under ``folder``: build JSON files (``verification``) and
    report.json files."""
    for path in sorted(folder.rglob("*.json")):
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("verification"), dict):
            data = data["verification"]
        if not isinstance(data, dict) or not str(data.get("schema", "")).startswith(
                "ksw.verify/"):
            continue
        try:
            report = VerifyReport.from_json(data)
        except Exception:  # a report of another schema: not this table's
            continue
        if report.timings:
            yield path, report


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--adapter", help="the kernel's verification adapter")
    parser.add_argument("--python", type=Path, default=Path(sys.executable))
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument("--recorded", action="store_true",
                        help="print the figures recorded in docs/recorded")
    args = parser.parse_args()
    if args.recorded:
        print(HEADER)
        for path, report in recorded_reports(RECORDED):
            for row in rows(report):
                print(f"{row} | {path.relative_to(ROOT)}")
        return 0
    if not args.adapter:
        parser.error("give --adapter, or --recorded")
    report = run_verification(args.python, args.adapter, device="cuda")
    if args.json:
        args.json.write_text(report.to_json_text(), encoding="utf-8")
    print(f"verification: {report.status.value} ({len(report.cases)} checks)")
    print(HEADER)
    for row in rows(report):
        print(row)
    return 0 if report.timings else 1


if __name__ == "__main__":
    sys.exit(main())
