"""Verify before install, history, and ``--verify`` — with real venvs and the real harness.

Kernels are real wheels made from the small ``ksw_probe`` packages in tests/data/bad_kernels
(one correct, one with a subtly wrong softmax scale), installed into a scratch environment that
sees the shared torch venv's packages through a .pth file (so torch is importable and the
shared venv itself is never modified).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ksw_testsupport import pip_freeze as freeze

from kernel_wizard.flow.verify_install import verify_then_install
from kernel_wizard.install.installer import load_installs
from kernel_wizard.verify import report_view
from kernel_wizard.verify.history import history

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture()
def scratch_env(scratch_torch_env: Path) -> Path:
    return scratch_torch_env


def run_app(*args: str, env_dir: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = dict(os.environ, KSW_DATA_DIR=str(env_dir))
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=REPO, capture_output=True,
                          text=True, env=env, timeout=300)


def test_a_failing_wheel_is_not_installed(scratch_env: Path, kernel_wheel: Any) -> None:
    before = freeze(scratch_env)
    wheel = kernel_wheel("wrong_scale")
    flow = verify_then_install(scratch_env, wheel, kernel="probe", adapter="probe")
    assert not flow.report.passed
    assert flow.installed is None
    assert "unchanged" in flow.message
    assert freeze(scratch_env) == before  # exactly as before
    assert load_installs() == []
    assert flow.saved.markdown_path.exists() and flow.saved.json_path.exists()
    (saved,) = history()
    assert saved.stage == "staged" and not saved.report.passed
    meta = json.loads(flow.saved.json_path.read_text(encoding="utf-8"))["ksw_meta"]
    assert meta["wheel_sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert meta["wheel_download"] is None  # built here, not downloaded


def test_a_failure_can_be_installed_only_when_allowed(
    scratch_env: Path, kernel_wheel: Any
) -> None:
    wheel = kernel_wheel("wrong_scale")
    flow = verify_then_install(scratch_env, wheel, kernel="probe", adapter="probe",
                               allow_failed=True)
    assert flow.installed is not None and flow.installed_despite_failure
    assert "although" in flow.message


def test_pass_installs_then_reverify_reports_changes_and_regressions(
    scratch_env: Path, kernel_wheel: Any, isolated_wizard_data: Path
) -> None:
    data = isolated_wizard_data
    wheel = kernel_wheel("correct")
    flow = verify_then_install(scratch_env, wheel, kernel="probe", adapter="probe")
    assert flow.report.passed, report_view(flow.report).lines()
    assert flow.installed is not None
    (record,) = load_installs()
    assert record.python == str(scratch_env) and record.adapter == "probe"

    # Everything as before: --verify passes and says nothing changed.
    same = run_app("--verify", env_dir=data)
    assert same.returncode == 0, same.stdout + same.stderr
    assert "Nothing changed since the last passing verification" in same.stdout

    # The last passing report was taken under an older torch (as after a torch update).
    last = sorted((data / "reports").iterdir())[-1] / "report.json"
    document = json.loads(last.read_text(encoding="utf-8"))
    actual = document["environment"]["torch_version"]
    document["environment"]["torch_version"] = "2.12.1+cpu"
    last.write_text(json.dumps(document), encoding="utf-8")
    changed = run_app("--verify", env_dir=data)
    assert changed.returncode == 0
    assert f"PyTorch: 2.12.1+cpu → {actual}" in changed.stdout

    # The installed kernel now computes garbage (a bad update): non-zero exit, regression named.
    installed_init = Path(subprocess.run(
        [str(scratch_env), "-c", "import ksw_probe; print(ksw_probe.__file__)"],
        capture_output=True, text=True, check=True).stdout.strip())
    assert installed_init.is_relative_to(scratch_env.parent.parent)
    wrong = REPO / "tests" / "data" / "bad_kernels" / "wrong_scale" / "ksw_probe" / "__init__.py"
    installed_init.write_bytes(wrong.read_bytes())
    shutil.rmtree(installed_init.parent / "__pycache__", ignore_errors=True)  # as a reinstall would
    broken = run_app("--verify", env_dir=data)
    assert broken.returncode == 1, broken.stdout
    assert "REGRESSION" in broken.stdout
    assert "Some kernels did not pass" in broken.stdout


def test_verify_with_nothing_installed_says_so(tmp_path: Path) -> None:
    result = run_app("--verify", env_dir=tmp_path / "empty")
    assert result.returncode == 1
    assert "no kernel has been installed by this wizard yet" in result.stdout
