"""The write-point crash sweep of a roll-back (tests/ksw_write_points.py says how)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ksw_state_support import cli, faults_conftest, padded_wheel
from ksw_write_points import PASS, importable, recorded, sweep

from kernel_wizard.install.installer import install_wheel

_faults = faults_conftest()
assert_clean_failure = _faults.assert_clean_failure


@pytest.mark.slow
def test_rollback_killed_at_every_write_point(
    tmp_path: Path, scratch_torch_env: Path, data: Path
) -> None:
    """roll-back of 0.2.0 (over 0.1.0) killed before each write → next start: 0.2.0 or 0.1.0
    in full, installs agrees, no journal, and roll-back works"""
    env = scratch_torch_env
    install_wheel(env, padded_wheel(tmp_path, "correct", "0.1.0", pad=2), kernel="probe",
                  verification=PASS)
    install_wheel(env, padded_wheel(tmp_path, "correct", "0.2.0", pad=3), kernel="probe",
                  verification=PASS)
    assert recorded(data, env) == ["0.2.0"] and importable(env) == "0.2.0"
    outcomes: dict[str, int] = {}

    def check(point: int) -> None:
        after = cli("installs", data=data)  # the next start: recovery first
        assert_clean_failure(after, 0)
        have = importable(env)
        assert have in ("0.1.0", "0.2.0"), (point, have, after.stderr)
        assert recorded(data, env) == [have], (point, have, after.stdout + after.stderr)
        assert not list((data / "journal").glob("*.json")), point
        outcomes[have] = outcomes.get(have, 0) + 1
        if have == "0.2.0" and outcomes[have] == 1:  # the roll-back had not begun: it works
            again = cli("rollback", "--yes", "--python", str(env), data=data)
            assert again.returncode == 0, again.stdout + again.stderr
            assert importable(env) == "0.1.0" and recorded(data, env) == ["0.1.0"]

    kills = sweep(tmp_path, env, data, ["rollback", "--yes", "--python", str(env)], check)
    print(f"roll-back: {len(kills)} write points, after recovery {outcomes}")
    assert outcomes.get("0.1.0") and outcomes.get("0.2.0")  # killed before and after it began
    assert importable(env) == "0.1.0" and recorded(data, env) == ["0.1.0"]  # the last, whole
