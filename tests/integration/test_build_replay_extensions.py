"""The real output of a SageAttention 2 build on the H100 (four torch extensions built one after
another: _qattn_sm80 2 units, _qattn_sm89 8, _qattn_sm90 2, _fused 2; recorded 2026-11-26 by
scripts/sage_gpu.sh, ptxas' per-kernel info lines left out), replayed by a real subprocess
through the wizard's build runner. Before, the bar stayed at "1/2 units" and the build sat in
"link" for minutes while three more extensions compiled, and the record said 0 units."""

from __future__ import annotations

from pathlib import Path

from eta_testsupport import replay_output

from build_backend.build import (
    BuildStatus,
    ProgressEvent,
    Step,
    StepEvent,
    StepState,
)

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
