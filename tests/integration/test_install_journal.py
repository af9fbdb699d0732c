"""Installs are journaled transactions: a real CLI killed (-9) during a real ``pip install`` is
rolled back at the next start, one killed after pip finished is completed, and both say so;
``installs`` and ``rollback`` show and undo what the wizard installed, and a roll-back brings
the record of what it restores back, with its verification."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ksw_state_support import (
    REPO,
    cli,
    fresh_env,
    kill_group,
    padded_wheel,
    pip_install_child,
    site_packages,
    stash_entries,
    start,
    wait_for,
    wheel_source,
)
from ksw_testsupport import pip_freeze as freeze

from build_backend.install import install_wheel, load_installs

PASS = {"status": "pass", "report": "/reports/a/report.json"}
FAIL = {"status": "fail", "report": "/reports/b/report.json", "installed_despite_failure": True}


def module_version(python: Path) -> str:
    code = "import importlib.metadata as m; print(m.version('ksw-probe-kernel'))"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


@pytest.fixture()
def data() -> Path:
    return Path(os.environ["KSW_DATA_DIR"])  # the test's own data folder (tests/conftest.py)


def test_kill_9_during_pip_install_is_rolled_back_at_the_next_start(
    tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any, data: Path
) -> None:
    env = scratch_torch_env
    install_wheel(env, kernel_wheel("correct"), kernel="probe", verification=PASS)
    before = freeze(env)
    new = padded_wheel(tmp_path, "correct", "0.2.0", pad=1500)
    proc = start("build", "--kernel", "probe", "--source", str(wheel_source(tmp_path, new)),
                 "--python", str(env), "--skip-verify", data=data)
    package = site_packages(env) / "ksw_probe"
    try:
        wait_for(lambda: pip_install_child(proc) is not None, 120, "pip install to start")
        wait_for(lambda: len(list(package.glob("pad_*.py"))) > 50, 60, "pip to write files")
    finally:
        kill_group(proc)  # the CLI and pip, mid-install
    assert list((data / "journal").glob("*.json")), "the journal was written before pip ran"
    assert module_version(env) != "0.1.0" or list(package.glob("pad_*.py"))  # half-installed

    result = cli("installs", data=data)
    assert result.returncode == 0, result.stderr
    assert "was interrupted; it was rolled back: ksw-probe-kernel 0.1.0 is installed again" \
        in result.stderr
    assert freeze(env) == before
    assert module_version(env) == "0.1.0" and not list(package.glob("pad_*.py"))
    assert stash_entries(env) == []  # pip's ~… stash folders are cleaned
    assert not list((data / "journal").glob("*.json"))
    assert "probe: ksw-probe-kernel 0.1.0" in result.stdout  # the record still says what is in
    assert "Traceback" not in result.stdout + result.stderr
    again = cli("installs", data=data)  # said once: nothing left to recover
    assert "interrupted" not in again.stderr


FINISH_THEN_DIE = """
import os, sys
from pathlib import Path
import build_backend.install as install
install._commit = lambda journal: os._exit(9)  # killed right after pip finished
install.install_wheel(Path(sys.argv[1]), Path(sys.argv[2]), kernel="probe")
"""


def test_an_install_killed_after_pip_finished_is_completed_and_recorded(
    tmp_path: Path, kernel_wheel: Any, data: Path
) -> None:
    env = fresh_env(tmp_path / "env")
    install_wheel(env, kernel_wheel("correct"), kernel="probe", verification=PASS)
    new = padded_wheel(tmp_path, "correct", "0.2.0", pad=3)
    died = subprocess.run([sys.executable, "-c", FINISH_THEN_DIE, str(env), str(new)],
                          cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert died.returncode == 9
    assert [r["version"] for r in load_installs()] == ["0.1.0"]  # not recorded yet

    result = cli("installs", data=data)
    assert "after pip had finished; it was completed and is now recorded" in result.stderr
    assert "probe: ksw-probe-kernel 0.2.0" in result.stdout
    assert "a roll-back puts back: ksw-probe-kernel 0.1.0" in result.stdout
    (record,) = load_installs()
    assert record["version"] == "0.2.0" and record["previous"]["version"] == "0.1.0"
    assert module_version(env) == "0.2.0" and stash_entries(env) == []


def test_rollback_restores_the_previous_kernel_and_its_record(
    tmp_path: Path, kernel_wheel: Any, data: Path
) -> None:
    env = fresh_env(tmp_path / "env")
    install_wheel(env, kernel_wheel("correct"), kernel="probe", adapter="probe",
                  verification=PASS)
    verified = freeze(env)
    install_wheel(env, padded_wheel(tmp_path, "wrong_scale", "0.2.0", pad=2), kernel="probe",
                  adapter="probe", verification=FAIL)  # "Install anyway…"
    listing = cli("installs", data=data)
    assert "verification FAILED (installed anyway, as chosen)" in listing.stdout
    assert "a roll-back puts back: ksw-probe-kernel 0.1.0" in listing.stdout

    result = cli("rollback", "--kernel", "probe", data=data)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "put back ksw-probe-kernel 0.1.0" in result.stdout
    assert "Its verification had passed." in result.stdout
    assert freeze(env) == verified and module_version(env) == "0.1.0"
    (record,) = load_installs()  # the restored kernel's record is back: --verify finds it
    assert record["version"] == "0.1.0" and record["verification"]["status"] == "pass"
    as_json = json.loads(cli("installs", "--json", data=data).stdout)
    assert as_json["schema"] == "ksw.installs/1"
    assert [i["version"] for i in as_json["installs"]] == ["0.1.0"]

    second = cli("rollback", "--python", str(env), data=data)  # nothing was there before
    assert second.returncode == 0 and "nothing was installed there before" in second.stdout
    assert "ksw-probe-kernel" not in freeze(env) and load_installs() == []
    third = cli("rollback", data=data)
    assert third.returncode == 1 and "Nothing to roll back" in third.stderr
    assert "Traceback" not in third.stderr


def test_a_damaged_install_list_is_kept_aside_and_rebuilt_from_the_backups(
    tmp_path: Path, kernel_wheel: Any, data: Path
) -> None:
    envs = [fresh_env(tmp_path / f"env{i}") for i in (1, 2)]
    for env in envs:
        install_wheel(env, kernel_wheel("correct"), kernel="probe", verification=PASS)
    installs = data / "installs.json"
    installs.write_text(installs.read_text(encoding="utf-8")[:40], encoding="utf-8")  # cut
    (data / "installs.json.prev").unlink()  # no earlier copy to fall back on either

    result = cli("installs", data=data)
    assert result.returncode == 0
    assert "installs.json was damaged (it is not valid JSON" in result.stderr
    assert "2 install record(s) were rebuilt from the backups folder" in result.stderr
    kept = list(data.glob("installs.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8").startswith("[")
    assert all(str(env) in result.stdout for env in envs)
    assert sorted(r["python"] for r in load_installs()) == sorted(map(str, envs))
