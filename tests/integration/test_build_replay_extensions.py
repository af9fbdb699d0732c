"""The real output of a SageAttention 2 build on the H100 (four torch extensions built one after
another: _qattn_sm80 2 units, _qattn_sm89 8, _qattn_sm90 2, _fused 2; recorded 2026-11-26 by
scripts/sage_gpu.sh, ptxas' per-kernel info lines left out), replayed by a real subprocess
through the wizard's build runner. Before, the bar stayed at "1/2 units" and the build sat in
"link" for minutes while three more extensions compiled, and the record said 0 units."""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from eta_testsupport import REPLAY, faster, replay_output

from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build import run as build_module
from kernel_wizard.build.buildtimes import load_records
from kernel_wizard.build.plan import estimate_build, make_plan
from kernel_wizard.build.run import (
    BuildEvent,
    BuildStatus,
    ProgressEvent,
    Step,
    StepEvent,
    StepState,
    run_build,
)
from kernel_wizard.catalog import OsName, load_catalog

RECORDED = Path(__file__).parent.parent / "data" / "buildtimes" / "sageattention-h100"
RUNS = (2, 8, 2, 2)  # units of each ninja run, in the order setup.py builds them


def test_four_extensions_replayed(tmp_path: Path) -> None:
    outcome, events = replay_output(tmp_path, RECORDED / "build-output.log")
    # no wheel comes out of a replay; what counts here is how the build was shown
    assert outcome.status is not BuildStatus.CANCELLED

    progress = [e for e in events if isinstance(e, ProgressEvent) and e.total]
    done = [p.done for p in progress]
    assert done == sorted(done), done  # the bar never steps back across extensions
    assert max(p.total for p in progress) == sum(RUNS)  # every extension's units counted
    assert max(p.run for p in progress) == len(RUNS)
    assert all(p.done <= p.total for p in progress)

    steps = [(e.step, e.state) for e in events if isinstance(e, StepEvent)]
    assert steps.count((Step.COMPILE, StepState.DONE)) == 1, steps
    compiled = next(i for i, e in enumerate(events) if isinstance(e, StepEvent)
                    and (e.step, e.state) == (Step.COMPILE, StepState.DONE))
    later = [e for e in events[compiled:] if isinstance(e, ProgressEvent) and e.total]
    assert all(e.done == sum(RUNS) for e in later), \
        "compile was reported finished while a later extension compiled"
    assert (Step.LINK, StepState.RUNNING) not in steps[:steps.index((Step.COMPILE,
                                                                       StepState.DONE))]


def test_every_extension_is_named_when_its_lines_come_in_one_batch(tmp_path: Path) -> None:
    """On a busy machine the runner reads a build's output in batches, and a display needs one
    progress event per batch; but each extension in the batch gets its own, so the page and the
    terminal name every extension (before: 'extension 3' was never shown when its two units
    and the next extension's came in one read). The whole recorded output here is written at
    once, the most a batch can hold."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "setup.py").write_text("# replayed\n", encoding="utf-8")
    plan = make_plan(kernel="sageattention", version="2.2.0", source_dir=source,
                     python=Path(sys.executable), python_scripts=None,
                     output_dir=tmp_path / "dist", log_path=tmp_path / "logs" / "build.log",
                     parallelism=Parallelism(16, 1, "test"))
    at_once = "import sys; sys.stdout.write(open(sys.argv[1], encoding='utf-8').read())"
    plan = replace(plan, command=(sys.executable, "-c", at_once,
                                  str(RECORDED / "build-output.log")))
    events: list[BuildEvent] = []
    run_build(plan, events.append)
    runs = [e.run for e in events if isinstance(e, ProgressEvent) and e.several_runs]
    assert set(range(2, len(RUNS) + 1)) <= set(runs), runs
    assert runs == sorted(runs)  # in the order the extensions were built


# -- the same build with its timing: the runner's ETA across the four extensions ---------------

TIMED = Path(__file__).parent.parent / "data" / "buildtimes" / "sageattention-sm90-h100.tlog"
SPEED = 20.0  # 456 s in about 23 s


def test_four_extensions_replayed_with_their_timing(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorded build (466 s on the H100) replayed 20 times faster by a child process that
    writes each extension's build.ninja and .ninja_log in a folder of its own, as
    SageAttention's setup.py does. The runner finds every folder, the bar counts 14 units from
    the start, the time left does not rise when the next extension starts (before: +170 s,
    +109 s, +89 s), and the build is remembered run by run for the next estimate."""
    monkeypatch.setattr(build_module, "POLL_S", 1.0 / SPEED)
    # the build's own output (pip's), without the wizard's lines of the recording
    lines = TIMED.read_text(encoding="utf-8").splitlines()
    begun = next(i for i, line in enumerate(lines) if line.endswith("\t• compile…"))
    kept = [line for line in lines[begun + 1:]
            if not line.split("\t", 1)[1].startswith(("•", "✔"))
            and " elapsed" not in line]
    tlog = tmp_path / "sage.tlog"
    tlog.write_text("\n".join(kept) + "\n", encoding="utf-8")
    shutil.copyfile(TIMED.with_suffix(".ninja_log"), tlog.with_suffix(".ninja_log"))

    recipe = load_catalog().get("sageattention")
    version = recipe.version("2.2.0 (d1a57a5)")
    source = tmp_path / "SageAttention"
    source.mkdir()
    out = tmp_path / "staging"
    plan = make_plan(kernel=recipe.id, version=version.label, source_dir=source,
                     python=Path(sys.executable), python_scripts=None, output_dir=out,
                     log_path=tmp_path / "logs" / "build.log",
                     parallelism=Parallelism(16, 1, "16 jobs (as on the H100 device)"),
                     archs=("9.0",))
    estimate = estimate_build(recipe, version, ["9.0"], 16, 124.3, OsName.LINUX)
    plan = replace(plan, estimate=faster(estimate, SPEED), command=(
        sys.executable, str(REPLAY), str(out), str(tlog), str(SPEED)))
    events: list[BuildEvent] = []
    outcome = run_build(plan, events.append)
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.hint

    progress = [e for e in events if isinstance(e, ProgressEvent)]
    assert {p.total for p in progress} == {sum(RUNS)}
    assert max(p.run for p in progress) == len(RUNS)
    compiling = [p for p in progress if p.eta_seconds is not None and p.run >= 1]
    rises = [b.eta_seconds - (a.eta_seconds - (b.elapsed_seconds - a.elapsed_seconds))
             for a, b in zip(compiling, compiling[1:], strict=False)
             if b.run > a.run and a.eta_seconds is not None and b.eta_seconds is not None]
    assert len(rises) == len(RUNS) - 1
    assert max(rises) < 30.0 / SPEED, rises  # a rise of 30 s of the real build at most

    assert len(outcome.units) == sum(RUNS)
    (record,) = load_records()
    assert record.runs == RUNS
    assert [n for n, _ in record.units][:2] == [
        "sageattention._qattn_sm80/csrc/qattn/pybind_sm80.o",
        "sageattention._qattn_sm80/csrc/qattn/qk_int_sv_f16_cuda_sm80.o"]
