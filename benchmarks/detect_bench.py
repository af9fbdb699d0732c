"""How long hardware detection takes on this machine (the issue's goal: well under 1 s).

    python benchmarks/detect_bench.py [--runs 20]

Runs the real detection (NVML + host) in this process repeatedly and prints min/median/max,
plus one environment inspection of this interpreter (a subprocess; importing torch dominates).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kernel_wizard.machine.environment import inspect_python  # noqa: E402
from kernel_wizard.machine.hardware import detect  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--python", type=Path, default=Path(sys.executable))
    args = parser.parse_args()
    times = []
    report = None
    for _ in range(args.runs):
        started = time.perf_counter()
        report = detect()
        times.append(time.perf_counter() - started)
    assert report is not None
    print(f"NVML state: {report.state.value}; GPUs: {[g.name for g in report.gpus]}")
    print(
        f"detect(): {args.runs} runs, min {min(times) * 1000:.1f} ms, "
        f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
    )
    started = time.perf_counter()
    env = inspect_python(args.python)
    print(
        f"inspect_python({args.python}): {(time.perf_counter() - started) * 1000:.0f} ms "
        f"-> {env.status.value}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
