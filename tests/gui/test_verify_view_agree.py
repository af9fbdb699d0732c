"""The Verify page, the Markdown report and the command line say the same about one report: the
same verdict sentence, the same checks with the same results, the same measures (one
:class:`ReportView` renders all three). Reports of the real harness (tests/data/verify): a pass,
a failure, and a pass in which half of the checks did not run (only part could be compared)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.pages.verify import VerifyPage
from app.widgets.verify_results import RESULT_COLUMN
from app.wizard import InstallerWizard
from kernel_wizard.flow.reverify import ReverifyResult
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.flow.verify_install import VerifyInstallOutcome
from kernel_wizard.install.records import InstallRecord
from kernel_wizard.verify import CaseStatus, VerifyReport, render_markdown, report_view
from kernel_wizard.verify.history import Stage, save_report

DATA = Path(__file__).resolve().parents[1] / "data" / "verify"


def real(name: str) -> VerifyReport:
    return VerifyReport.from_json(json.loads((DATA / f"{name}.json").read_text("utf-8")))


def partly_run() -> VerifyReport:
    """A pass where every second check did not run here (NOT RUN: nothing to compare)."""
    full = real("probe-cpu-full")
    cases = tuple(replace(case, status=CaseStatus.SKIPPED, measures=(),
                          reasons=("not applicable to this build",)) if i % 2 else case
                  for i, case in enumerate(full.cases))
    return replace(full, cases=cases)


REPORTS = {
    "pass": lambda: real("probe-cpu-full"),
    "fail": lambda: real("probe-cpu-quick-wrong-scale"),
    "partly run": partly_run,
}


@pytest.mark.parametrize("kind", REPORTS)
def test_page_markdown_and_command_line_agree(qtbot: Any, tmp_path: Path, kind: str) -> None:
    report = REPORTS[kind]()
    python = tmp_path / "env" / "bin" / "python"
    saved = save_report(report, kernel="probe", python=python, stage=Stage.STAGED,
                        root=tmp_path)
    view = report_view(report)
    assert view.rows and view.measure_names  # something to agree about
    if kind == "partly run":
        assert {row.result for row in view.rows} == {"PASS", "NOT RUN"}

    wizard = InstallerWizard(SessionServices(discover=lambda: []))
    qtbot.addWidget(wizard)
    page = wizard.page_of(FlowStep.VERIFY)
    assert isinstance(page, VerifyPage)
    page._on_verified(VerifyInstallOutcome(report, saved, None))
    markdown = render_markdown(report)
    record = InstallRecord("ksw-probe-kernel", "0.1.0", str(python), kernel="probe")
    cli = ReverifyResult(record, saved, None, None).lines()  # what 'verify' prints

    # the verdict: one sentence, everywhere
    headline = str(view.headline)
    assert page.explanation.text().startswith(headline)
    assert f"\n{headline}\n" in markdown and f"    {headline}" in cli
    assert page.verdict.text() == view.title
    assert markdown.startswith(f"# Kernel verification: {view.verdict}\n")
    assert cli[1] == f"  {view.summary}"

    # every check: its result, its id, its measures
    table = page.results.table
    assert table.rowCount() == len(view.rows) == len(report.cases)
    columns = " | ".join(view.measure_names)
    assert f"| Result | Check | Device | dtype | Causal | Shapes | {columns} |" in markdown
    for index, row in enumerate(view.rows):
        assert table.item(index, 0).text() == str(row.words)
        assert table.item(index, RESULT_COLUMN).text() == row.result
        tip = table.item(index, 0).toolTip().splitlines()
        assert tip[0] == f"Check {row.check_id}"
        markdown_row = next(line for line in markdown.splitlines()
                            if line.startswith(f"| {row.result} | {row.check_id} |"))
        cli_row = next(line for line in cli  # its result, then its id
                       if line.strip().startswith(f"{row.result:7s} {row.check_id}"))
        for measure in row.measures:
            assert str(measure.text) in tip  # the page: the measure by its label
            assert str(measure.text).startswith(str(measure.label))
            assert measure.cell in markdown_row  # the report and the command line: its numbers
            assert f"{measure.name} {measure.cell}" in cli_row
        assert not row.passed or not any(f"          - {r}" in cli for r in row.reasons)
