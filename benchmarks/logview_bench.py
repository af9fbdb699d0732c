"""Log view throughput and GUI responsiveness under a flood of build output.

    QT_QPA_PLATFORM=offscreen python benchmarks/logview_bench.py [--lines 200000]

A real child process (tests/data/standins/fake_build.py, mode 'flood') prints N ninja-style
lines as fast as it can; they go through the real runner (run_build), the BuildWorker batching
and into the LogView of a shown window. Measured: lines per second from the first line shown to
the last, the event loop's stalls (a 5 ms QTimer records the gap between its ticks: p50/p99/max),
the lines kept by the view (bounded) and the process's peak RSS growth.
Goals (issue 5): ≥ 20,000 lines/s, p99 stall ≤ 50 ms, bounded memory. Run it once as fast as
the child can print (--rate 0) and once at a steady --rate 25000.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import psutil
from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from app.widgets.log_view import LogView
from app.workers import BuildWorker
from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import make_plan
from kernel_wizard.build.run import run_build

STANDIN = REPO / "tests" / "data" / "standins" / "fake_build.py"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--rate", type=float, default=0.0,
                        help="lines/s the child prints (0: as fast as it can)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/ksw-logview-bench"))
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    process = psutil.Process()
    view = LogView()
    view.resize(900, 500)
    view.show()
    out = args.out
    plan = make_plan(kernel="bench", version="0", source_dir=out.parent,
                     python=Path(sys.executable), python_scripts=None,
                     output_dir=out / "staging", log_path=out / "bench.log",
                     parallelism=Parallelism(1, 1, "bench"))
    plan = replace(plan, command=(sys.executable, str(STANDIN), str(out / "staging"), "flood",
                                  str(args.lines), str(args.rate)))
    session = BuildWorker(lambda sink, cancel: run_build(plan, sink, cancel))
    first_shown: list[float] = []

    def on_lines(lines: list[str]) -> None:
        if not first_shown:
            first_shown.append(time.perf_counter())
        view.append_lines(lines)

    session.lines.connect(on_lines)
    done = QEventLoop()
    finished_at: list[float] = []
    session.finished.connect(lambda _: (finished_at.append(time.perf_counter()), done.quit()))

    gaps: list[float] = []
    clock = QElapsedTimer()
    tick = QTimer()
    tick.setInterval(5)

    def on_tick() -> None:
        gaps.append(clock.restart())

    tick.timeout.connect(on_tick)
    rss_before = process.memory_info().rss
    clock.start()
    tick.start()
    started = time.perf_counter()
    session.start()
    QTimer.singleShot(600_000, done.quit)
    done.exec()
    tick.stop()
    rss_after = process.memory_info().rss
    total = view.lines_received
    span = (finished_at[0] - first_shown[0]) if first_shown and finished_at else float("nan")
    gaps_sorted = sorted(gaps[1:]) or [0.0]
    p99 = gaps_sorted[min(len(gaps_sorted) - 1, int(len(gaps_sorted) * 0.99))]
    rate = f"{args.rate:,.0f} lines/s" if args.rate else "as fast as it can"
    print(f"lines received by the view: {total} (child printed {args.lines} + build lines, "
          f"{rate}); shown {total - view.lines_skipped}, left to the log file only "
          f"{view.lines_skipped}")
    print(f"wall time from start: {finished_at[0] - started:.2f} s; first to last line shown: "
          f"{span:.2f} s")
    print(f"throughput: {total / span:,.0f} lines/s")
    print(f"event-loop gaps (5 ms timer): median {statistics.median(gaps_sorted):.1f} ms, "
          f"p99 {p99:.1f} ms, max {gaps_sorted[-1]:.1f} ms over {len(gaps_sorted)} ticks")
    print(f"lines kept by the view: {view.text.document().blockCount()} "
          f"(maximumBlockCount {view.text.maximumBlockCount()})")
    print(f"RSS growth: {(rss_after - rss_before) / 2**20:.1f} MiB")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
