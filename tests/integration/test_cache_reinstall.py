"""A kernel verified once installs into a second matching environment without compiling
(issue 33, item 1): the verified-wheel cache, through the headless build command as a user
runs it. Real probe build, real verification, real installs into two real environments that
share one PyTorch build (an AI program's venv recreated by its update, a second program)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def purelib(python: Path) -> Path:
    return Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"], check=True,
                               capture_output=True, text=True).stdout.strip())


def second_env(tmp_path: Path, first: Path) -> Path:
    """Another fresh environment that sees the same PyTorch as ``first`` (made the way the
    tests' scratch environment is: a venv of the same Python, PyTorch through a .pth)."""
    venv = tmp_path / "second env"
    subprocess.run([str(first), "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / (
        "python.exe" if os.name == "nt" else "python")
    shared = purelib(first) / "shared_torch.pth"
    (purelib(python) / shared.name).write_bytes(shared.read_bytes())
    return python


def headless(data: Path, root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, KSW_DATA_DIR=str(data), KSW_BUILD_ROOT=str(root))
    return subprocess.run([sys.executable, "-m", "app", "--headless", *argv], cwd=REPO,
                          capture_output=True, text=True, env=env, timeout=900)


def imports_probe(python: Path) -> bool:
    return subprocess.run([str(python), "-c", "import ksw_probe"], capture_output=True,
                          timeout=300).returncode == 0


@pytest.mark.slow
def test_a_verified_probe_reinstalls_into_a_matching_env_without_compiling(
        scratch_torch_env: Path, torch_venv: Path, isolated_wizard_data: Path,
        tmp_path: Path) -> None:
    root = tmp_path / "build root"
    first = headless(isolated_wizard_data, root, "build", "--kernel", "probe", "--python",
                     str(scratch_torch_env), "--yes", "--json")
    assert first.returncode == 0, first.stdout + first.stderr
    built = json.loads(first.stdout)
    assert built["plan"] is not None and "cache" not in [s["step"] for s in built["steps"]]
    assert imports_probe(scratch_torch_env)

    other = second_env(tmp_path, scratch_torch_env)
    assert not imports_probe(other)
    listed = headless(isolated_wizard_data, root, "kernels", "--python", str(other),
                      "--no-speed")
    assert "ready from the verified cache (verified on" in listed.stdout, listed.stdout
    again = headless(isolated_wizard_data, root, "build", "--kernel", "probe", "--python",
                     str(other), "--yes", "--json")
    assert again.returncode == 0, again.stdout + again.stderr
    taken = json.loads(again.stdout)
    assert taken["plan"] is None, "nothing was planned or compiled"
    assert [s["step"] for s in taken["steps"]] == ["cache"]
    assert "nothing was compiled" in taken["message"]
    assert "ready from the verified cache" in again.stderr  # the header names the route
    assert imports_probe(other)
    installs = json.loads(headless(isolated_wizard_data, root, "installs", "--json").stdout)
    assert {Path(r["python"]).parent.parent.name for r in installs["installs"]} >= {
        "scratch env", "second env"}
    (kept,) = installs["verified_wheels"]
    assert len(kept["passed"]) == 2  # verified in each environment

    # --no-cache builds from source again
    forced = headless(isolated_wizard_data, root, "build", "--kernel", "probe", "--python",
                      str(other), "--no-cache", "--no-install", "--skip-verify", "--json")
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert json.loads(forced.stdout)["plan"] is not None
