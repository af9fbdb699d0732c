"""The write-point crash sweep of an install over an earlier one (tests/ksw_write_points.py
says how)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ksw_state_support import cli, faults_conftest, padded_wheel, site_packages
from ksw_write_points import PASS, REINSTALL, importable, sweep

from kernel_wizard.install.installer import install_wheel

_faults = faults_conftest()
assert_clean_failure = _faults.assert_clean_failure


@pytest.mark.slow
@pytest.mark.parametrize("new_version", ["0.2.0", "0.3.0"], ids=["same-version", "upgrade"])
def test_install_killed_at_every_write_point(
    tmp_path: Path, scratch_torch_env: Path, data: Path, new_version: str
) -> None:
    """an install over 0.2.0 (another build of 0.2.0, or 0.3.0) killed before each write →
    next start: one build whole (3 pad modules: the old one, 4: the new one), its record
    naming that build, no journal (the same-version case was: cut before pip, completed as
    "after pip had finished" with the old build's files)"""
    env = scratch_torch_env
    old = padded_wheel(tmp_path / "old", "correct", "0.2.0", pad=3)
    new = padded_wheel(tmp_path / "new", "correct", new_version, pad=4)
    install_wheel(env, old, kernel="probe", verification=PASS)
    package = site_packages(env) / "ksw_probe"
    outcomes: dict[str, int] = {}

    def check(point: int) -> None:
        after = cli("installs", data=data)
        assert_clean_failure(after, 0)
        pads = len(list(package.glob("pad_*.py")))
        build = {3: "old", 4: "new"}.get(pads, f"broken ({pads} pad modules)")
        version = "0.2.0" if build == "old" else new_version
        assert importable(env) == version, (point, build, importable(env), after.stderr)
        records = json.loads((data / "installs.json").read_text("utf-8"))
        assert [Path(r["wheel"]) for r in records] == [old if build == "old" else new], \
            (point, build, records, after.stdout + after.stderr)
        assert not list((data / "journal").glob("*.json")), point
        outcomes[build] = outcomes.get(build, 0) + 1

    kills = sweep(tmp_path, env, data, ["-c", REINSTALL, str(env), str(new)], check)
    print(f"install of {new_version} over 0.2.0: {len(kills)} write points, after recovery "
          f"{outcomes}")
    assert outcomes.get("old") and outcomes.get("new")
    assert len(list(package.glob("pad_*.py"))) == 4  # the last run finished: the new build
