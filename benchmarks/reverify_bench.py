"""How long re-verifying the installed kernels takes: ``--verify --quick`` as a user runs it.

    python benchmarks/reverify_bench.py [--full] [--separate] [--json out.json]
    python benchmarks/reverify_bench.py --standins [--python PY] [--json out.json]

The first form runs ``python -m app --verify --quick --json`` (``--full``: without ``--quick``)
for the kernels the wizard installed on this machine (its records in the wizard's data folder;
``KSW_DATA_DIR`` names another) and prints, per kernel, the seconds its harness measured for
it and whether it shared one process with the other kernels of its Python, then the whole
command's wall-clock time. Like any ``--verify``, it saves the reports in the history.
``--separate`` also times each kernel the way re-verification did before (issue 29, item 5):
one harness process per kernel, run one after the other, each importing torch and starting
CUDA again (nothing is saved).

The second form needs no installed kernel: it verifies the CPU stand-ins of the wizard's own
tests (tests/data/bad_kernels: probe, FlashAttention 2 and 3, FlashMLA, SageAttention) in the
harness's test mode with ``PY`` (default: the tests' CPU torch venv), once in one process and
once one process each, through the same calls ``--verify`` makes. It shows what sharing the
process saves on a machine without a GPU; the GPU figure is the first form's.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from verify_testsupport import test_mode_env  # noqa: E402

from kernel_wizard.verify import (  # noqa: E402
    VerifyReport,
    run_verification,
    run_verifications,
)

BAD = ROOT / "tests" / "data" / "bad_kernels"
STANDINS = {  # adapter: the folder of its CPU stand-in
    "probe": BAD / "correct",
    "flash_attn": BAD / "flash_attn_correct",
    "flash_attn_3": BAD / "flash_attn_3_correct",
    "flashmla": BAD / "flashmla_correct",
    "sageattention": BAD / "sageattention_standin",
}


def machine() -> str:
    gpu = ""
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=20, check=False)
        names = [n.strip() for n in done.stdout.splitlines() if n.strip()]
        gpu = f", {len(names)}x {names[0]}" if names else ""
    except (OSError, subprocess.SubprocessError):
        pass
    return f"{platform.node()} ({os.cpu_count()} cores{gpu})"


def installed(args: argparse.Namespace) -> dict[str, Any]:
    """``--verify`` of the installed kernels, timed from outside."""
    command = [sys.executable, "-m", "app", "--verify", "--json"]
    if not args.full:
        command.append("--quick")
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    total = time.perf_counter() - started
    try:
        results = json.loads(done.stdout)
    except json.JSONDecodeError:
        sys.exit(f"--verify gave no JSON (exit code {done.returncode}):\n"
                 f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    if isinstance(results, dict):  # the error document: nothing installed, ...
        sys.exit(results.get("error", {}).get("message") or json.dumps(results))
    rows = []
    for item in results:
        report = VerifyReport.from_json(json.loads(Path(item["report"]).read_text("utf-8")))
        rows.append({"kernel": item["kernel"], "python": item["python"],
                     "adapter": report.adapter, "status": item["status"],
                     "seconds": report.seconds,
                     "shared_with": list(report.options.get("shared_process") or [])})
    figures: dict[str, Any] = {"mode": "full" if args.full else "quick", "kernels": rows,
                               "total_s": round(total, 2), "exit_code": done.returncode}
    if args.separate:
        figures["separate"] = separate(results, quick=not args.full)
    return figures


def separate(results: list[dict[str, Any]], *, quick: bool) -> dict[str, Any]:
    """Each installed kernel in a harness process of its own, one after the other."""
    from kernel_wizard.flow.reverify import runtime_path_for
    from kernel_wizard.machine.platforms import current
    from kernel_wizard.machine.toolkits import discover_toolkits

    toolkits, system = discover_toolkits(), current().name
    rows = []
    started = time.perf_counter()
    for item in results:
        python = Path(item["python"])
        adapter = VerifyReport.from_json(
            json.loads(Path(item["report"]).read_text("utf-8"))).adapter
        began = time.perf_counter()
        report = run_verification(python, adapter, quick=quick,
                                  path_prepend=runtime_path_for(python, toolkits, system))
        rows.append({"kernel": item["kernel"], "adapter": adapter,
                     "status": report.status.value,
                     "wall_s": round(time.perf_counter() - began, 2)})
    return {"kernels": rows, "total_s": round(time.perf_counter() - started, 2)}


def standins(args: argparse.Namespace) -> dict[str, Any]:
    python = Path(args.python) if args.python else tests_torch_python()
    os.environ.update(test_mode_env(cc="9.0"))  # the harness's test mode, as the tests use it
    adapters = list(STANDINS)
    extra = list(STANDINS.values())
    quick = not args.full
    started = time.perf_counter()
    together = run_verifications(python, adapters, device="cpu", quick=quick,
                                 extra_pythonpath=extra)
    shared_total = time.perf_counter() - started
    alone_rows = []
    started = time.perf_counter()
    for adapter in adapters:
        began = time.perf_counter()
        report = run_verification(python, adapter, device="cpu", quick=quick,
                                  extra_pythonpath=extra)
        alone_rows.append({"adapter": adapter, "status": report.status.value,
                           "wall_s": round(time.perf_counter() - began, 2)})
    alone_total = time.perf_counter() - started
    return {
        "mode": ("full" if args.full else "quick") + ", CPU stand-ins in test mode",
        "python": str(python),
        "kernels": [{"kernel": r.adapter, "adapter": r.adapter, "status": r.status.value,
                     "seconds": r.seconds,
                     "shared_with": list(r.options.get("shared_process") or [])}
                    for r in together],
        "total_s": round(shared_total, 2),
        "separate": {"kernels": alone_rows, "total_s": round(alone_total, 2)},
    }


def tests_torch_python() -> Path:
    root = Path(os.environ.get("KSW_TEST_CACHE") or Path.home() / ".cache" / "ksw-tests")
    found = sorted(root.glob("venv-torch-*/bin/python")) + sorted(
        root.glob("venv-torch-*/Scripts/python.exe"))
    if not found:
        sys.exit(f"No CPU torch venv of the tests under {root}: give --python, or run the "
                 "tests once (they make it).")
    return found[-1]


def show(figures: dict[str, Any]) -> None:
    print(f"Machine: {figures['machine']}")
    print(f"--verify ({figures['mode']}), one process per Python where it can be:")
    for row in figures["kernels"]:
        shared = (f"shared with {len(row['shared_with']) - 1} other(s)"
                  if row["shared_with"] else "own process")
        print(f"  {row['kernel']:<16} {row['status']:<6} {row['seconds']:7.2f} s  ({shared})")
    count = len(figures["kernels"])
    print(f"  total {figures['total_s']:.2f} s wall for {count} kernel(s)"
          + (f", {figures['total_s'] / count:.2f} s per kernel" if count else ""))
    alone = figures.get("separate")
    if alone:
        print("One harness process per kernel (the way before; the harness runs alone, "
              "without the wizard's own start):")
        for row in alone["kernels"]:
            print(f"  {row.get('kernel', row['adapter']):<16} {row['status']:<6} "
                  f"{row['wall_s']:7.2f} s wall")
        print(f"  total {alone['total_s']:.2f} s wall")
        if figures["total_s"]:
            print(f"Ratio: {alone['total_s'] / figures['total_s']:.2f}x as long one process "
                  "per kernel")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the full verification, not quick")
    parser.add_argument("--separate", action="store_true",
                        help="also time one harness process per kernel (the way before)")
    parser.add_argument("--standins", action="store_true",
                        help="time the CPU stand-ins of the tests instead of installed kernels")
    parser.add_argument("--python", help="with --standins: the Python with torch to use")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    figures = standins(args) if args.standins else installed(args)
    figures["machine"] = machine()
    show(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
