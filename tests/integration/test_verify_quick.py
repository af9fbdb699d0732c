"""``python -m app --verify --quick`` after a full verification: the real CLI, the real harness,
a real install (issue 13, item 1: it reported "PASS" and "Nothing changed", then a REGRESSION
of the 7 checks a quick run does not run, and exited 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from kernel_wizard.install.installer import install_wheel
from kernel_wizard.verify import VerifyReport
from kernel_wizard.verify.history import Stage, history, save_report

REPO = Path(__file__).resolve().parents[2]
FULL = REPO / "tests" / "data" / "verify" / "probe-cpu-full.json"


def test_quick_reverify_after_a_full_pass_is_no_regression(
    scratch_torch_env: Path, kernel_wheel: Any, isolated_wizard_data: Path
) -> None:
    install_wheel(scratch_torch_env, kernel_wheel("correct"), kernel="probe", adapter="probe")
    # the last passing verification there was a full one (the real harness's report)
    full = VerifyReport.from_json(json.loads(FULL.read_text(encoding="utf-8")))
    save_report(full, kernel="probe", python=scratch_torch_env, stage=Stage.STAGED)

    env = dict(os.environ, KSW_DATA_DIR=str(isolated_wizard_data))
    done = subprocess.run([sys.executable, "-m", "app", "--verify", "--quick"], cwd=REPO,
                          capture_output=True, text=True, env=env, timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "PASS - all 2 checks passed" in out
    assert "REGRESSION" not in out
    assert "a full one; only the 1 check both ran is compared" in out
    assert "All installed kernels pass." in out
    saved = history("probe", scratch_torch_env)[-1]
    assert saved.report.quick and saved.report.passed  # kept as a quick one, apart
