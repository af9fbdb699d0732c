"""The whole pipeline from the command line, for real: the probe kernel is built from its
bundled source with the target's torch 2.13.0 (CPU), verified from staging, installed, and
its op runs; a broken source fails, is diagnosed, and leaves the environment as it was."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ksw_testsupport import pip_freeze as freeze

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def app(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, KSW_DATA_DIR=str(data))
    return subprocess.run([sys.executable, "-m", "app", "--headless", *args], cwd=REPO,
                          capture_output=True, text=True, env=env, timeout=900)


def test_probe_is_built_verified_installed_and_runs(
    scratch_torch_env: Path, isolated_wizard_data: Path
) -> None:
    result = app("build", "--kernel", "probe", "--python", str(scratch_torch_env), "--json",
                 "--yes", data=isolated_wizard_data)
    assert result.returncode == 0, result.stdout + result.stderr
    document = json.loads(result.stdout)
    assert document["status"] == "succeeded" and document["installed"] is True
    assert document["verification"]["status"] == "pass"
    assert [s["step"] for s in document["steps"]][:1] == ["compile"]
    assert document["plan"]["env"]["KSW_PROBE_CPU_ONLY"] == "1"
    assert Path(document["log"]).is_file()
    assert "Verified and installed" in result.stderr
    # progress in a log (not a terminal): well-formed lines from the start, not one per event
    progress = [line for line in result.stderr.splitlines() if " elapsed" in line]
    shape = re.compile(r"^  (preparing|compile [01]/1 unit|link and package 1/1 unit) · "
                       r"(\d+ s|\d+ min \d\d s) elapsed( · .*left( \(longer than estimated\))?)?$")
    assert progress and all(shape.match(line) for line in progress), progress
    assert any(line.startswith("  compile 0/1 unit · ") for line in progress)  # ninja's total
    assert len(progress) <= 3 + document["seconds"] / 30 + 1
    assert document["units"] == 1
    assert document["slowest_units"][0]["name"] == "csrc/probe_attention.o"
    assert "The compiled unit:" in result.stderr and "csrc/probe_attention.o" in result.stderr
    # remembered for the next estimate of the probe on this machine
    history = json.loads((isolated_wizard_data / "buildtimes.json").read_text(encoding="utf-8"))
    assert [(r["kernel"], r["archs"], len(r["units"])) for r in history["records"]] == [
        ("probe", [], 1)]
    code = ("import torch, ksw_probe; q = torch.randn(1, 2, 5, 8, dtype=torch.float64); "
            "ref = torch.nn.functional.scaled_dot_product_attention(q, q, q); "
            "print(float((ksw_probe.attention(q, q, q) - ref).abs().max()), "
            "ksw_probe.build_info()['cuda'])")
    run = subprocess.run([str(scratch_torch_env), "-c", code], capture_output=True, text=True,
                         check=True)
    error, cuda = run.stdout.split()
    assert float(error) < 1e-12 and cuda == "False"

    again = app("verify", data=isolated_wizard_data)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "All installed kernels pass." in again.stdout


def test_a_failed_build_changes_nothing(
    scratch_torch_env: Path, isolated_wizard_data: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "probe source"
    shutil.copytree(REPO / "resources" / "probe_kernel", broken)
    cpp = broken / "csrc" / "probe_attention.cpp"
    cpp.write_text(cpp.read_text() + "\nthis is not C++;\n")
    before = freeze(scratch_torch_env)
    result = app("build", "--kernel", "probe", "--python", str(scratch_torch_env),
                 "--source", str(broken), "--yes", data=isolated_wizard_data)
    assert result.returncode == 1
    assert "The build failed" in result.stdout
    assert "First error" in result.stdout and "probe_attention.cpp" in result.stdout
    assert freeze(scratch_torch_env) == before
    assert not (isolated_wizard_data / "installs.json").exists()
