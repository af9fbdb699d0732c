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
from kernel_wizard.install.records import InstallRecord
from kernel_wizard.verify import CaseStatus, VerifyReport, report_view
from kernel_wizard.verify.history import (
    Stage,
    baseline_for,
    compare,
    history,
    load_saved,
    save_report,
)

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
    line = next(x for x in report_view(skipped).lines() if first.name in x)
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
    record = InstallRecord("ksw-probe-kernel", "0.1.0", str(python), kernel="probe")
    result = ReverifyResult(record, current, previous, compare(previous.report, current.report))
    text = "\n".join(result.lines())
    assert "REGRESSION" not in text
    assert "PASS - all 2 checks passed" in text
    assert "a full one; only the 1 check both ran is compared" in text


# -- the record beside each saved report, of every wizard version ------------------------------

FIRST_META = {"kernel": "probe", "python": "/envs/a/bin/python", "stage": "installed",
              "wheel": None, "saved_at": "20261120-100000", "wizard_version": "0.1.0"}


def _saved_folder(root: Path, name: str, meta: dict[str, object] | None) -> Path:
    document = json.loads((DATA / "probe-cpu-full.json").read_text(encoding="utf-8"))
    if meta is not None:
        document["ksw_meta"] = meta
    folder = root / name
    folder.mkdir()
    (folder / "report.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    return folder


def test_reports_of_the_first_writer_and_of_before_the_record_still_read(tmp_path: Path) -> None:
    first = load_saved(_saved_folder(tmp_path, "20261120-100000-probe", FIRST_META))
    assert first is not None and first.record.wheel_sha256 is None
    assert (first.kernel, first.python, first.stage, first.saved_at) == (
        "probe", "/envs/a/bin/python", "installed", "20261120-100000")
    bare = load_saved(_saved_folder(tmp_path, "20261119-090000-probe", None))
    assert bare is not None and bare.stage == "" and bare.saved_at == "20261119-090000"
    assert bare.kernel == bare.report.adapter and bare.python == bare.report.python
    # both are history: the newer passing one is what a re-verification compares with
    assert [s.saved_at for s in history(root=tmp_path)] == ["20261119-090000",
                                                           "20261120-100000"]


def test_a_saved_record_has_every_key_other_tools_read(tmp_path: Path) -> None:
    saved = save_report(real("probe-cpu-quick"), kernel="probe", python="/envs/a/bin/python",
                        stage=Stage.STAGED, root=tmp_path)
    meta = json.loads(saved.json_path.read_text(encoding="utf-8"))["ksw_meta"]
    assert list(meta) == ["kernel", "python", "stage", "wheel", "wheel_sha256",
                          "wheel_download", "saved_at", "wizard_version"]
    again = load_saved(saved.folder)
    assert again is not None and again.record == saved.record
