"""Quick and full verifications compared with what ran before, from real harness reports.

``tests/data/verify/probe-cpu-*.json`` are reports the real harness wrote for the correct
probe kernel (CPU torch 2.13.0) in quick and full mode, and for a kernel with a wrong softmax
scale in quick mode. A quick verification runs 2 checks, one of them quick-only; the full one
runs 8.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from kernel_wizard.flow.reverify import ReverifyResult
from kernel_wizard.verify import CaseStatus, VerifyReport
from kernel_wizard.verify.history import Stage, baseline_for, compare, history, save_report

DATA = Path(__file__).resolve().parents[1] / "data" / "verify"


def real(name: str) -> VerifyReport:
    return VerifyReport.from_json(json.loads((DATA / f"{name}.json").read_text("utf-8")))


def test_the_recordings_are_what_the_defect_needs() -> None:
    quick, full = real("probe-cpu-quick"), real("probe-cpu-full")
    assert quick.passed and quick.quick and len(quick.cases) == 2
    assert full.passed and not full.quick and len(full.cases) == 8
    quick_only = {c.name for c in quick.cases} - {c.name for c in full.cases}
    assert quick_only == {"cpu-float32-full-b1h2s128d64-scale0.3"}


def test_a_passing_quick_run_after_a_full_one_is_no_regression() -> None:
    comparison = compare(real("probe-cpu-full"), real("probe-cpu-quick"))
    assert comparison.regressions == ()  # the defect: the 7 checks it did not run were listed
    assert comparison.compared == 1
    assert len(comparison.not_run) == 7
    assert comparison.changes == ()


def test_a_full_run_after_a_quick_one_does_not_flag_the_quick_only_check() -> None:
    comparison = compare(real("probe-cpu-quick"), real("probe-cpu-full"))
    assert comparison.regressions == ()
    assert comparison.not_run == ("cpu-float32-full-b1h2s128d64-scale0.3",)


def test_a_check_that_failed_this_time_is_still_a_regression() -> None:
    comparison = compare(real("probe-cpu-quick"), real("probe-cpu-quick-wrong-scale"))
    assert comparison.regressions  # a real regression is still named
    assert set(comparison.regressions) <= {c.name for c in real("probe-cpu-quick").cases}
    worse_than_full = compare(real("probe-cpu-full"), real("probe-cpu-quick-wrong-scale"))
    assert worse_than_full.regressions == ("cpu-float64-causal-b2h3s77d32",)  # ran both times


def test_a_skipped_check_is_not_run_never_a_failure() -> None:
    full = real("probe-cpu-full")
    first = full.cases[0]
    skipped = replace(full, cases=(replace(first, status=CaseStatus.SKIPPED,
                                           reasons=("needs a CUDA GPU",)), *full.cases[1:]))
    comparison = compare(full, skipped)
    assert comparison.regressions == ()
    assert comparison.not_run == (first.name,)
    line = next(x for x in skipped.summary_lines() if first.name in x)
    assert line.split()[:2] == ["NOT", "RUN"] and "FAIL" not in line


def test_quick_and_full_histories_are_kept_apart(tmp_path: Path) -> None:
    python = tmp_path / "env" / "bin" / "python"
    full = save_report(real("probe-cpu-full"), kernel="probe", python=python,
                       stage=Stage.INSTALLED, root=tmp_path)
    # only a full verification passed so far: a quick run is compared with it
    assert baseline_for("probe", python, quick=True, root=tmp_path) == full
    quick = save_report(real("probe-cpu-quick"), kernel="probe", python=python,
                        stage=Stage.INSTALLED, root=tmp_path)
    assert len(history("probe", python, tmp_path)) == 2
    assert baseline_for("probe", python, quick=True, root=tmp_path) == quick
    assert baseline_for("probe", python, quick=False, root=tmp_path) == full  # not the quick one


def test_the_reverify_lines_say_what_was_compared(tmp_path: Path) -> None:
    python = tmp_path / "env" / "bin" / "python"
    previous = save_report(real("probe-cpu-full"), kernel="probe", python=python,
                           stage=Stage.INSTALLED, root=tmp_path)
    current = save_report(real("probe-cpu-quick"), kernel="probe", python=python,
                          stage=Stage.INSTALLED, root=tmp_path)
    result = ReverifyResult({"kernel": "probe", "name": "ksw-probe-kernel", "python": str(python)},
                            current, previous, compare(previous.report, current.report))
    text = "\n".join(result.lines())
    assert "REGRESSION" not in text
    assert "PASS - all 2 checks passed" in text
    assert "a full one; only the 1 check both ran is compared" in text
