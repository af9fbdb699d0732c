"""Does a queued timing of one call hold from one measurement to the next? (issue 29, item 2)

On a GPU machine with FlashAttention 3 (or SageAttention) installed: the harness's queued
timing (resources/verify/queued_timing.py) of the kernel and of PyTorch's SDPA at the harness's
forward shape, measured ROUNDS times one after the other in this process, in the quick and the
full budget, kernel first then baseline (as the harness) and the other way round. Prints every
figure: how far they drift tells how far two honest methods may disagree.

    python3 benchmarks/timing_drift.py [--adapter flash_attn_3] [--rounds 6]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "resources" / "verify"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import queued_timing as qt  # noqa: E402
from speed_agreement import attention_calls, plain_queued_ms  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", default="flash_attn_3")
    parser.add_argument("--backend", default="cuDNN")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args(argv)
    import torch

    kernel, baseline = attention_calls(torch, args.adapter, args.backend)
    rows: dict[str, list[float]] = {}
    with torch.no_grad():
        for number in range(args.rounds):
            for budget, name in ((0.25, "quick"), (0.5, "full")):
                first, second = (kernel, baseline) if number % 2 == 0 else (baseline, kernel)
                a = qt.queued_ms(torch, first, budget_s=budget)
                b = qt.queued_ms(torch, second, budget_s=budget)
                k, s = (a, b) if first is kernel else (b, a)
                order = "kernel first" if first is kernel else "baseline first"
                rows.setdefault(f"{name} kernel", []).append(k.ms)
                rows.setdefault(f"{name} baseline", []).append(s.ms)
                rows.setdefault(f"{name} speed-up", []).append(s.ms / k.ms)
                print(f"round {number} {name:5s} ({order}): kernel {k.ms:.4f} ms "
                      f"({k.calls}x{k.groups}), baseline {s.ms:.4f} ms, speed-up "
                      f"{s.ms / k.ms:.3f}", flush=True)
            pk, pb = plain_queued_ms(torch, kernel), plain_queued_ms(torch, baseline)
            rows.setdefault("independent speed-up", []).append(pb / pk)
            print(f"round {number} independent: kernel {pk:.4f} ms, baseline {pb:.4f} ms, "
                  f"speed-up {pb / pk:.3f}", flush=True)
    for name, values in rows.items():
        spread = (max(values) - min(values)) / statistics.median(values)
        print(f"{name:22s} median {statistics.median(values):.4f}  min {min(values):.4f}  "
              f"max {max(values):.4f}  spread {100 * spread:.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
