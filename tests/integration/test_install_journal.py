"""``installs`` and ``rollback`` show and undo what the wizard installed; a roll-back brings the
record of what it restores back, with its verification; a damaged install list is rebuilt from
the backups. (Installs cut off by kill -9: tests/faults/test_state.py.)"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ksw_state_support import (
    fresh_env,
    padded_wheel,
)
from ksw_testsupport import pip_freeze as freeze

from kernel_wizard.cli.main import main
from kernel_wizard.install.installer import install_wheel, load_installs


def run(*args: str, capsys: Any) -> tuple[int, str, str]:
    """The CLI's own entry point in this process (no interpreter start-up): code, out, err."""
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


PASS = {"status": "pass", "report": "/reports/a/report.json"}
FAIL = {"status": "fail", "report": "/reports/b/report.json", "installed_despite_failure": True}


def module_version(python: Path) -> str:
    code = "import importlib.metadata as m; print(m.version('ksw-probe-kernel'))"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


@pytest.fixture()
def data() -> Path:
    return Path(os.environ["KSW_DATA_DIR"])  # the test's own data folder (tests/conftest.py)


def test_rollback_restores_the_previous_kernel_and_its_record(
    tmp_path: Path, kernel_wheel: Any, capsys: Any
) -> None:
    env = fresh_env(tmp_path / "env")
    install_wheel(env, kernel_wheel("correct"), kernel="probe", adapter="probe",
                  verification=PASS)
    verified = freeze(env)
    install_wheel(env, padded_wheel(tmp_path, "wrong_scale", "0.2.0", pad=2), kernel="probe",
                  adapter="probe", verification=FAIL)  # "Install anyway…"
    _, listing, _ = run("installs", capsys=capsys)
    assert "verification FAILED (installed anyway, as chosen)" in listing
    assert "a roll-back puts back: ksw-probe-kernel 0.1.0" in listing

    code, out, err = run("rollback", "--kernel", "probe", "--yes", capsys=capsys)
    assert code == 0, out + err
    assert "put back ksw-probe-kernel 0.1.0" in out and "Its verification had passed." in out
    assert freeze(env) == verified and module_version(env) == "0.1.0"
    (record,) = load_installs()  # the restored kernel's record is back: --verify finds it
    assert record.version == "0.1.0" and record.verification_status == "pass"
    as_json = json.loads(run("installs", "--json", capsys=capsys)[1])
    assert as_json["schema"] == "ksw.installs/1"
    assert [i["version"] for i in as_json["installs"]] == ["0.1.0"]

    code, out, _ = run("rollback", "--python", str(env), "--yes", capsys=capsys)  # none before
    assert code == 0 and "nothing was installed there before" in out
    assert "ksw-probe-kernel" not in freeze(env) and load_installs() == []
    code, _, err = run("rollback", capsys=capsys)
    assert code == 1 and "Nothing to roll back" in err


def test_a_damaged_install_list_is_kept_aside_and_rebuilt_from_the_backups(
    tmp_path: Path, kernel_wheel: Any, data: Path, capsys: Any
) -> None:
    envs = [fresh_env(tmp_path / f"env{i}") for i in (1, 2)]
    for env in envs:
        install_wheel(env, kernel_wheel("correct"), kernel="probe", verification=PASS)
    installs = data / "installs.json"
    installs.write_text(installs.read_text(encoding="utf-8")[:40], encoding="utf-8")  # cut
    (data / "installs.json.prev").unlink()  # no earlier copy to fall back on either

    code, out, err = run("installs", capsys=capsys)
    assert code == 0
    assert "installs.json was damaged (it is not valid JSON" in err
    assert "2 install record(s) were rebuilt from the backups folder" in err
    kept = list(data.glob("installs.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8").startswith("[")
    assert all(str(env) in out for env in envs)
    assert sorted(r.python for r in load_installs()) == sorted(map(str, envs))
