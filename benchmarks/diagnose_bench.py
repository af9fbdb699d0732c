"""How fast the build-log diagnosis runs (the goal: at least 100,000 lines per second).

    python benchmarks/diagnose_bench.py [--log PATH ...] [--lines 200000] [--runs 5]
    python benchmarks/diagnose_bench.py --pathological   # damaged "logs" (goal: < 1 s each)

Feeds each real FlashMLA build log (``tests/data/logs/flashmla``, copied from shared/logs)
repeated to about ``--lines`` lines through one :class:`LogDiagnoser`, line by line as a
build would stream it, and prints the lines per second (best and median of ``--runs``) and
what it found.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kernel_wizard.diagnose import LogDiagnoser, default_rules  # noqa: E402

SHARED_LOGS = REPO / "tests" / "data" / "logs" / "flashmla"  # copied from shared/logs


def bench(log: Path, target_lines: int, runs: int) -> None:
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
    repeated = lines * max(1, round(target_lines / len(lines)))
    rates = []
    report = None
    for _ in range(runs):
        diagnoser = LogDiagnoser()
        started = time.perf_counter()
        for line in repeated:
            diagnoser.feed(line)
        rates.append(len(repeated) / (time.perf_counter() - started))
        report = diagnoser.summary()
    assert report is not None
    mb = sum(map(len, repeated)) / 1e6
    print(
        f"{log.name}: {len(repeated):,} lines ({mb:.1f} MB), best {max(rates):,.0f} lines/s, "
        f"median {statistics.median(rates):,.0f} lines/s"
    )
    first = report.first_error
    print(
        f"  hits: {[h.signature_id for h in report.hits]}; "
        f"first error: {'line ' + str(first.line_number) if first else 'none'}; "
        f"retry: {report.retry.value if report.retry else 'none'}"
    )


PATHOLOGICAL = {  # what a damaged or hostile log can be (Reliability 3: 9.8 s, goal < 1 s)
    "10,000 lines of one character": ["a"] * 10_000,
    "10,000 lines of 1,000 'e'": ["e" * 1000] * 10_000,
    "10,000 lines of 1,000 '/'": ["/" * 1000] * 10_000,
    "10,000 lines of 1,000 '0'": ["0" * 1000] * 10_000,
    "one line of 10 MB": ["x" * 10_000_000],
    "10,000 lines of 1,000 bytes of binary": [bytes(range(256)).decode("latin-1") * 4] * 10_000,
}


def pathological() -> int:
    from kernel_wizard.diagnose import diagnose_lines

    worst = 0.0
    for name, lines in PATHOLOGICAL.items():
        started = time.perf_counter()
        diagnose_lines(lines)
        seconds = time.perf_counter() - started
        worst = max(worst, seconds)
        print(f"{name}: {seconds:.2f} s")
    print(f"worst {worst:.2f} s (goal < 1 s): {'met' if worst < 1 else 'NOT met'}")
    return 0 if worst < 1 else 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", type=Path, action="append", help="a build log (repeatable)")
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pathological", action="store_true",
                        help="time damaged logs instead (one character, long runs, binary)")
    args = parser.parse_args()
    if args.pathological:
        return pathological()
    logs = args.log or sorted(SHARED_LOGS.glob("*.log"))
    if not logs:
        print(f"no logs given and none in {SHARED_LOGS}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    rules = default_rules()
    print(
        f"rules: {len(rules.signatures)} signatures, {len(rules.literals)} prefilter needles, "
        f"loaded in {(time.perf_counter() - started) * 1000:.1f} ms"
    )
    for log in logs:
        bench(log, args.lines, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
