"""Re-verification: what it says when the last passing verification had no check in common
with this one, and how the installs of one Python go to one harness run (issue 29, item 5).

From real harness reports (tests/data/verify/probe-cpu-*.json). A quick DeepEP run checks other
sizes than a full one, so no check name is shared; it said "Nothing changed since the last
passing verification … only the 0 checks both ran are compared"."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import kernel_wizard.flow.reverify
import kernel_wizard.install.installer
from kernel_wizard.cli.main import main as cli_main
from kernel_wizard.flow.reverify import ReverifyResult, reverify_all
from kernel_wizard.install.records import InstallRecord
from kernel_wizard.verify import CaseStatus, VerifyReport
from kernel_wizard.verify.history import SavedReport, Stage, compare, save_report

DATA = Path(__file__).resolve().parents[1] / "data" / "verify"
NOT_COMPARED = "Not compared: the last passing verification ({when}) ran none of the checks "


def real(name: str) -> VerifyReport:
    return VerifyReport.from_json(json.loads((DATA / f"{name}.json").read_text("utf-8")))


def renamed(report: VerifyReport, suffix: str) -> VerifyReport:
    """The same report with checks of other names (as a quick DeepEP run's other sizes)."""
    return replace(report, cases=tuple(replace(c, name=c.name + suffix) for c in report.cases))


def result_of(tmp_path: Path, before: VerifyReport, now: VerifyReport) -> ReverifyResult:
    python = tmp_path / "env" / "bin" / "python"
    previous = save_report(before, kernel="probe", python=python, stage=Stage.INSTALLED,
                           root=tmp_path)
    current = save_report(now, kernel="probe", python=python, stage=Stage.INSTALLED,
                          root=tmp_path)
    return ReverifyResult(InstallRecord("ksw-probe-kernel", "0.1.0", str(python), kernel="probe"),
                          current, previous, compare(previous.report, current.report))


def test_a_quick_run_with_no_check_in_common_says_nothing_was_compared(tmp_path: Path) -> None:
    result = result_of(tmp_path, real("probe-cpu-full"), renamed(real("probe-cpu-quick"), "-q"))
    assert result.comparison is not None and result.comparison.compared == 0
    assert result.previous is not None
    text = "\n".join(result.lines())
    when = f"{result.previous.saved_at}, a full one"
    assert NOT_COMPARED.format(when=when) + "this one ran." in text
    assert "Nothing changed" not in text and "0 checks" not in text
    assert "REGRESSION" not in text  # nothing ran both times: nothing regressed either
    # what can still be said: the driver, PyTorch ... are those of then
    assert "The driver, CUDA, PyTorch, GPU, Python and kernel version are the same as then." \
        in text
    assert result.comparison_sentence == NOT_COMPARED.format(when=when) + "this one ran."


def test_no_check_in_common_in_the_same_mode_and_with_changes(tmp_path: Path) -> None:
    before = real("probe-cpu-quick")
    assert before.environment is not None
    older = replace(before, environment=replace(before.environment, torch_version="2.12.1+cpu"))
    result = result_of(tmp_path, older, renamed(before, "-other-size"))
    assert result.previous is not None
    lines = result.lines()
    index = lines.index("  " + NOT_COMPARED.format(when=result.previous.saved_at)
                        + "this one ran.")
    assert lines[index + 1:index + 3] == ["  Changed since then:",
                                          "    PyTorch: 2.12.1+cpu → 2.13.0+cpu"]
    assert not any(line.startswith("  Not run this time") for line in lines)  # said once


def test_a_run_that_ran_no_check_says_so(tmp_path: Path) -> None:
    quick = real("probe-cpu-quick")
    skipped = replace(quick, cases=tuple(replace(c, status=CaseStatus.SKIPPED)
                                         for c in quick.cases))
    result = result_of(tmp_path, quick, skipped)
    assert result.previous is not None
    assert result.comparison_sentence == (
        "Not compared: this verification ran no check to compare with the last passing one "
        f"({result.previous.saved_at}).")


def test_nothing_changed_is_said_only_when_checks_were_compared(tmp_path: Path) -> None:
    result = result_of(tmp_path, real("probe-cpu-full"), real("probe-cpu-quick"))
    assert result.comparison is not None and result.comparison.compared == 1
    assert result.comparison_sentence is not None
    assert result.comparison_sentence.startswith("Nothing changed since the last passing "
                                                 "verification (")
    assert "a full one; only the 1 check both ran is compared" in result.comparison_sentence


def test_the_json_says_how_many_checks_were_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = result_of(tmp_path, real("probe-cpu-full"), renamed(real("probe-cpu-quick"), "-q"))
    monkeypatch.setattr(kernel_wizard.install.installer, "load_installs", lambda: [result.record])
    monkeypatch.setattr(kernel_wizard.flow.reverify, "reverify_all", lambda **_: [result])
    out = io.StringIO()
    cli_main(["verify", "--quick", "--json"], out=out)
    (document,) = json.loads(out.getvalue())
    assert document["compared"] == 0
    assert document["comparison"].startswith("Not compared: the last passing verification (")
    assert document["regressions"] == [] and document["changes"] == []


def test_the_kernels_of_one_python_go_to_one_harness_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = [
        InstallRecord("flash-attn", "2.8.3", "/envs/a/bin/python", kernel="flash_attn"),
        InstallRecord("ksw-probe-kernel", "0.1.0", "/envs/b/bin/python", kernel="probe",
                      adapter="probe"),
        # the same environment spelled another way (an install made from another folder)
        InstallRecord("sageattention", "2.2.0", "/envs/a/bin/../bin/python",
                      kernel="sageattention"),
    ]
    calls: list[tuple[str, list[str], bool]] = []

    def run_verifications(python: Path, adapters: list[str], **kwargs: Any) -> list[
            VerifyReport]:
        calls.append((str(python), list(adapters), kwargs["quick"]))
        return [replace(real("probe-cpu-quick"), adapter=a) for a in adapters]

    monkeypatch.setattr(kernel_wizard.flow.reverify, "load_installs", lambda: records)
    monkeypatch.setattr(kernel_wizard.flow.reverify, "run_verifications", run_verifications)
    results = reverify_all(quick=True, toolkits=[], os_name="linux")
    assert calls == [("/envs/a/bin/python", ["flash_attn", "sageattention"], True),
                     ("/envs/b/bin/python", ["probe"], True)]
    assert [r.record for r in results] == records  # in the order of the records
    assert [r.report.adapter for r in results] == ["flash_attn", "probe", "sageattention"]
    assert all(isinstance(r.saved, SavedReport) and r.saved.json_path.exists()
               for r in results)
