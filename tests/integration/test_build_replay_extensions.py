"""The real output of a SageAttention 2 build on the H100 (four torch extensions built one after
another: _qattn_sm80 2 units, _qattn_sm89 8, _qattn_sm90 2, _fused 2; recorded 2026-11-26 by
scripts/sage_gpu.sh, ptxas' per-kernel info lines left out), replayed by a real subprocess
through the wizard's build runner. Before, the bar stayed at "1/2 units" and the build sat in
"link" for minutes while three more extensions compiled, and the record said 0 units."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from build_backend.build import (
    BuildEvent,
    BuildStatus,
    ProgressEvent,
    Step,
    StepEvent,
    StepState,
    run_build,
)
from build_backend.parallelism import Parallelism
from build_backend.plan import make_plan

RECORDED = Path(__file__).parent.parent / "data" / "buildtimes" / "sageattention-h100"
RUNS = (2, 8, 2, 2)  # units of each ninja run, in the order setup.py builds them

REPLAY = """
import sys, time
for line in open(sys.argv[1], encoding="utf-8"):
    sys.stdout.write(line)
    sys.stdout.flush()
    if line.lstrip().startswith("["):
        time.sleep(0.01)
"""


def test_four_extensions_replayed(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "setup.py").write_text("# replayed\n", encoding="utf-8")
    replay = tmp_path / "replay.py"
    replay.write_text(REPLAY, encoding="utf-8")
    plan = make_plan(kernel="sageattention", version="2.2.0", source_dir=source,
                     python=Path(sys.executable), python_scripts=None,
                     output_dir=tmp_path / "dist", log_path=tmp_path / "logs" / "build.log",
                     parallelism=Parallelism(16, 1, "test"))
    plan = replace(plan, command=(sys.executable, str(replay),
                                  str(RECORDED / "build-output.log")))
    events: list[BuildEvent] = []
    outcome = run_build(plan, events.append)
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
