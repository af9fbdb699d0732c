"""One kernel = one recipe + one adapter (issue 32): a made-up kernel, written into a folder
outside the program and named by ``KSW_EXTRA_KERNELS``, is listed by ``python -m app --headless
kernels`` and verified on the CPU like the bundled probe, with no Python code of the wizard
changed. The kernel is the probe under another id ("my_probe"): its recipe is probe.toml with
the id, the name and the adapter changed, its adapter is probe.py copied as my_probe.py, and
the package verified is the correct probe of tests/data/bad_kernels/correct (as the probe's own
CPU verification in test_verify_harness.py uses)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kernel_wizard.base.resources import resource_path
from kernel_wizard.verify import (
    VerifyError,
    VerifyStatus,
    adapter_names,
    run_verification,
    run_verifications,
)

REPO = Path(__file__).resolve().parents[2]
CORRECT_PROBE = REPO / "tests" / "data" / "bad_kernels" / "correct"


def edited(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.fixture
def my_kernel(tmp_path: Path) -> Path:
    """A kernels folder holding recipes/my_probe.toml and adapters/my_probe.py."""
    folder = tmp_path / "my kernels"
    (folder / "recipes").mkdir(parents=True)
    (folder / "adapters").mkdir()
    recipe = resource_path("recipes", "probe.toml").read_text(encoding="utf-8")
    recipe = edited(recipe, 'id = "probe"', 'id = "my_probe"')
    recipe = edited(recipe, 'name = "Probe kernel"', 'name = "My probe kernel"')
    recipe = edited(recipe, 'verify_adapter = "probe"', 'verify_adapter = "my_probe"')
    recipe = edited(recipe, "toolchain_probe = true", "")  # the wizard has its own probe
    (folder / "recipes" / "my_probe.toml").write_text(recipe, encoding="utf-8")
    shutil.copy(resource_path("verify", "adapters", "probe.py"),
                folder / "adapters" / "my_probe.py")
    return folder


def test_a_made_up_kernel_is_listed_by_the_kernels_command(
    my_kernel: Path, torch_venv: Path
) -> None:
    env = {**os.environ, "KSW_EXTRA_KERNELS": str(my_kernel)}
    done = subprocess.run(
        [sys.executable, "-m", "app", "--headless", "kernels", "--json", "--no-speed",
         "--python", str(torch_venv)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    document = json.loads(done.stdout)
    assert document["problems"] == []
    rows = {row["id"]: row for row in document["kernels"]}
    mine, probe = rows["my_probe"], rows["probe"]
    assert mine["name"] == "My probe kernel" and mine["version"] == "0.1.0"
    # it fits this machine exactly as the probe it was copied from does
    assert (mine["available"], mine["recommended"]) == (probe["available"], probe["recommended"])
    assert mine["available"] is True

    listed = subprocess.run(
        [sys.executable, "-m", "app", "--headless", "kernels", "--no-speed",
         "--python", str(torch_venv)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert listed.returncode == 0 and "My probe kernel" in listed.stdout


def test_a_made_up_kernel_passes_a_cpu_verification(
    my_kernel: Path, torch_venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without the folder the wizard does not know the adapter
    monkeypatch.delenv("KSW_EXTRA_KERNELS", raising=False)
    assert "my_probe" not in adapter_names() and "probe" in adapter_names()
    with pytest.raises(VerifyError, match="Unknown verification adapter 'my_probe'"):
        run_verification(torch_venv, "my_probe", device="cpu",
                         extra_pythonpath=[CORRECT_PROBE], quick=True)

    monkeypatch.setenv("KSW_EXTRA_KERNELS", str(my_kernel))
    assert "my_probe" in adapter_names()
    report = run_verification(torch_venv, "my_probe", device="cpu",
                              extra_pythonpath=[CORRECT_PROBE], quick=True)
    assert report.status is VerifyStatus.PASS, report.reasons
    assert report.adapter == "my_probe" and report.cases
    assert report.kernel is not None and report.kernel.module == "ksw_probe"

    # beside a shipped kernel in one harness process: both adapters found, both pass
    lines: list[str] = []
    shared = run_verifications(torch_venv, ["probe", "my_probe"], device="cpu",
                               extra_pythonpath=[CORRECT_PROBE], quick=True,
                               on_line=lines.append)
    assert [(r.adapter, r.status) for r in shared] == [
        ("probe", VerifyStatus.PASS), ("my_probe", VerifyStatus.PASS)]
    assert any("[2/2 in this process]" in line and "'my_probe'" in line for line in lines)
