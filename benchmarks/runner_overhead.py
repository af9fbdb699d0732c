"""The build runner's overhead over the bare ``pip wheel`` command, on the real probe build.

    python benchmarks/runner_overhead.py --python TORCH_VENV_PYTHON [--rounds 2]

Plans the probe-kernel build for the given environment and copies its source into the build
root (as the wizard does: the shipped ``resources/probe_kernel`` is never built in), then
alternates:
the bare command (same argv, environment and folder; output to /dev/null) and the same plan
through ``run_build`` (streaming, progress, diagnosis, log file). Each run starts from a clean
tree (build/ and *.egg-info removed). Prints each time, the medians and the overhead.
Goals (issue 5): overhead under 5 %; the probe's CPU build under 2 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kernel_wizard.base.paths import timestamp
from kernel_wizard.build.plan import BuildRequest, plan_build
from kernel_wizard.build.run import BuildStatus, run_build
from kernel_wizard.catalog import load_catalog
from kernel_wizard.flow.pipeline import stage_plan
from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.platforms import current


def clean(source: Path, out: Path) -> None:
    shutil.rmtree(source / "build", ignore_errors=True)
    for egg in source.glob("*.egg-info"):
        shutil.rmtree(egg, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    env = inspect_python(args.python)
    probe = load_catalog().get("probe")
    plan, _copy = stage_plan(plan_build(BuildRequest(probe, probe.newest, env, detect())), env,
                             current().default_build_root())
    print(f"probe build for {env.summary}\n{plan.describe()}\n")
    bare_times, runner_times = [], []
    for round_ in range(args.rounds):
        out = plan.output_dir.parent / f"bench-bare-{timestamp()}-{round_}"
        clean(plan.source_dir, out)
        command = list(plan.command)
        command[command.index("-w") + 1] = str(out)
        started = time.perf_counter()
        subprocess.run(command, cwd=plan.cwd, env=plan.environment(), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        bare_times.append(time.perf_counter() - started)
        print(f"round {round_ + 1}: bare pip wheel   {bare_times[-1]:6.1f} s")

        out = plan.output_dir.parent / f"bench-runner-{timestamp()}-{round_}"
        clean(plan.source_dir, out)
        runner_plan = replace(plan, output_dir=out,
                              command=tuple(str(out) if c == str(plan.output_dir) else c
                                            for c in plan.command))
        started = time.perf_counter()
        outcome = run_build(runner_plan)
        runner_times.append(time.perf_counter() - started)
        assert outcome.status is BuildStatus.SUCCEEDED, outcome.message
        print(f"round {round_ + 1}: through runner  {runner_times[-1]:6.1f} s "
              f"({outcome.log_path.stat().st_size // 1024} KiB log)")
    bare, runner = statistics.median(bare_times), statistics.median(runner_times)
    print(f"\nmedian bare {bare:.1f} s, median through the runner {runner:.1f} s: "
          f"overhead {100 * (runner - bare) / bare:+.1f} % on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
