"""A real recorded build, replayed by a child process at a chosen speed, as a build plan
(for the runner, CLI-output and Build-page tests of the progress and ETA)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from ksw_testsupport import load_file

from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.eta import RunPlan
from kernel_wizard.build.plan import BuildEstimate, BuildPlan, estimate_build, make_plan
from kernel_wizard.build.run import BuildEvent, BuildOutcome, run_build
from kernel_wizard.catalog import OsName, load_catalog

TESTS = Path(__file__).resolve().parent
REPLAY = TESTS / "data" / "standins" / "replay_build.py"
REPLAY_OUTPUT = TESTS / "data" / "standins" / "replay_output.py"
BUILDTIMES = TESTS / "data" / "buildtimes"
FLASHMLA = "flashmla-sm90-h100-pip"  # 24 units, 142 s on the H100 device
ACCURACY = TESTS.parent / "benchmarks" / "eta_accuracy.py"


def accuracy_benchmark() -> ModuleType:
    """``benchmarks/eta_accuracy.py`` as a module (loaded once): its replays of the recorded
    builds are what the ETA tests check the estimator against."""
    module: ModuleType = load_file("eta_accuracy", ACCURACY)
    return module


def faster(estimate: BuildEstimate, speed: float) -> BuildEstimate:
    """The recipe's estimate for a replay that runs ``speed`` times faster than the build,
    every planned run (a recipe of several extensions) too."""
    return replace(estimate, seconds=estimate.seconds / speed,
                   unit_seconds=estimate.unit_seconds / speed,
                   longest_unit_seconds=estimate.longest_unit_seconds / speed,
                   setup_seconds=estimate.setup_seconds / speed,
                   tail_seconds=estimate.tail_seconds / speed,
                   runs=tuple(RunPlan(r.units, r.seconds / speed,
                                      tuple((n, c / speed) for n, c in r.costs))
                              for r in estimate.runs))


def replay_plan(tmp_path: Path, speed: float, recording: str = FLASHMLA) -> BuildPlan:
    """The FlashMLA sm_90 build of the H100 device, replayed ``speed`` times faster, planned
    as the wizard plans it (16 jobs, the recipe's estimate)."""
    recipe = load_catalog().get("flashmla")
    version = recipe.versions[0]
    source = tmp_path / "FlashMLA"
    source.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "staging"
    plan = make_plan(kernel=recipe.id, version=version.label, source_dir=source,
                     python=Path(sys.executable), python_scripts=None, output_dir=out,
                     log_path=tmp_path / "logs" / "build.log",
                     parallelism=Parallelism(16, 1, "16 jobs (as on the H100 device)"),
                     archs=("9.0",))
    estimate = estimate_build(recipe, version, ["9.0"], 16, 125, OsName.LINUX)
    return replace(plan, estimate=faster(estimate, speed), command=(
        sys.executable, str(REPLAY), str(out), str(BUILDTIMES / f"{recording}.tlog"),
        str(speed)))


def replay(tmp_path: Path, speed: float) -> tuple[BuildOutcome, list[BuildEvent]]:
    events: list[BuildEvent] = []
    outcome = run_build(replay_plan(tmp_path, speed), events.append)
    return outcome, events


def replay_output(tmp_path: Path, log: Path, kernel: str = "sageattention",
                  version: str = "2.2.0") -> tuple[BuildOutcome, list[BuildEvent]]:
    """A recorded build's output (a plain log, no timestamps: SageAttention's four ninja runs
    in tests/data/buildtimes/sageattention-h100/) printed by a child process through the real
    runner, planned for ``kernel`` with 16 jobs; no wheel comes out of it."""
    source = tmp_path / "src"
    source.mkdir(parents=True, exist_ok=True)
    (source / "setup.py").write_text("# replayed\n", encoding="utf-8")
    plan = make_plan(kernel=kernel, version=version, source_dir=source,
                     python=Path(sys.executable), python_scripts=None,
                     output_dir=tmp_path / "dist", log_path=tmp_path / "logs" / "build.log",
                     parallelism=Parallelism(16, 1, "test"))
    plan = replace(plan, command=(sys.executable, str(REPLAY_OUTPUT), str(log)))
    events: list[BuildEvent] = []
    outcome = run_build(plan, events.append)
    return outcome, events
