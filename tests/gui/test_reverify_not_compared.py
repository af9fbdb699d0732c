"""The Verify page after a re-verification that had no check in common with the last passing
one (a quick DeepEP run after a full one: other sizes, other check names): it says that nothing
could be compared, never "Nothing changed" (issue 29, item 5)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.pages.verify import VerifyPage
from app.wizard import InstallerWizard
from kernel_wizard.flow.reverify import ReverifyResult
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.install.records import InstallRecord
from kernel_wizard.machine.environment import Candidate
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.verify import VerifyReport
from kernel_wizard.verify.history import Stage, compare, save_report

TESTS = Path(__file__).resolve().parents[1]
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"
DATA = TESTS / "data" / "verify"


def real(name: str) -> VerifyReport:
    return VerifyReport.from_json(json.loads((DATA / f"{name}.json").read_text("utf-8")))


def test_the_page_says_nothing_could_be_compared(qtbot: Any, tmp_path: Path) -> None:
    python = tmp_path / "env" / "bin" / "python"
    record = InstallRecord("ksw-probe-kernel", "0.1.0", str(python), kernel="probe",
                           adapter="probe")
    previous = save_report(real("probe-cpu-full"), kernel="probe", python=python,
                           stage=Stage.INSTALLED)
    quick = real("probe-cpu-quick")
    other = replace(quick, cases=tuple(replace(c, name=c.name + "-other-size")
                                       for c in quick.cases))
    current = save_report(other, kernel="probe", python=python, stage=Stage.INSTALLED)
    result = ReverifyResult(record, current, previous, compare(previous.report, other))
    assert result.comparison is not None and result.comparison.compared == 0
    recording = json.loads(H100.read_text(encoding="utf-8"))
    wizard = InstallerWizard(SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(python, "test env")],
        installs=lambda: [record],
        reverify_all=lambda: [result],
        run_checks=lambda _facts: [],
    ))
    qtbot.addWidget(wizard)
    wizard.show()
    assert wizard.start_reverify()
    page = wizard.page_of(FlowStep.VERIFY)
    assert isinstance(page, VerifyPage)
    qtbot.waitUntil(lambda: page.task is None and bool(page.session.reverify_results),
                    timeout=60_000)
    text = page.explanation.text()
    # the same sentence as the command line's (one wording), the earlier run's mode included
    assert (f"Not compared: the last passing verification ({previous.saved_at}, a full one) ran "
            "none of the checks this one ran.") in text
    assert "Nothing changed" not in text
