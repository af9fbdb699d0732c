"""Fault trials: a target Python the wizard can't use, and GPU indices this computer doesn't have.

The CLI runs for real (``python -m app --headless``). Target Pythons are real where they can be
(a real Python 2.7 when one is installed, else its recorded answers; a real venv whose torch
aborts the interpreter); the "GPU machine" is the recorded H100 (``--replay``), the machine
without a GPU this development machine's own recording.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ksw_faults import assert_clean_failure, run_cli, wait_until_gone
from ksw_target_pythons import answering_python, real_python, recorded_python2, torch_crash_env
from ksw_testsupport import pip_freeze

from kernel_wizard.machine.environment import PROBE_BEGIN

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX venvs and stand-ins")

NVML = Path(__file__).resolve().parents[1] / "data" / "nvml"
H100 = NVML / "h100-driver580.json"
NO_DRIVER = NVML / "no-driver-linux.json"
ENVIRONMENT, USAGE = 3, 2  # kernel_wizard.base.errors.ExitCode


def recording_target(folder: Path, real: Path) -> tuple[Path, Path]:
    """A target 'python' that notes every start in a log, then runs ``real``: a GPU check
    that fails "before anything runs" leaves no log."""
    log = folder / "started.log"
    python = folder / "target env" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    return python, log


# -- the target Python (issue 12, item 8) --------------------------------------------------------


def test_python_2_as_the_target(tmp_path: Path, marker: str) -> None:
    """build --python <Python 2.7> → exit 3, 'This is Python 2.7.18 at …; … 3.9 or newer'"""
    python = real_python("2.7") or recorded_python2(tmp_path / marker)
    result = run_cli("build", "--plan-only", "--python", str(python), data=tmp_path / "data")
    output = assert_clean_failure(result, ENVIRONMENT, f"This is Python 2.7.18 at {python}",
                                  "kernels need Python 3.9 or newer with PyTorch",
                                  "Choose another Python")
    assert "not behave like a working Python" not in output
    assert wait_until_gone(marker) == []


def test_torch_that_aborts_at_import(tmp_path: Path, marker: str) -> None:
    """build --python <venv whose torch aborts> → exit 3, 'importing PyTorch … crashes it' + pip"""
    python = torch_crash_env(tmp_path / marker, "abort")
    before = pip_freeze(python)
    result = run_cli("build", "--plan-only", "--python", str(python), data=tmp_path / "data")
    assert_clean_failure(result, ENVIRONMENT, "works, but importing PyTorch 2.5.1+cu124 crashes it",
                         "killed by signal SIGABRT", f"{python} -m pip install --force-reinstall "
                         "torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124")
    assert pip_freeze(python) == before  # nothing was installed or removed
    assert wait_until_gone(marker) == []


def test_probe_answer_cut_off(tmp_path: Path, marker: str) -> None:
    """detect --python <a Python whose answer is cut off> → exit 3, 'could not read the answer'"""
    python = answering_python(tmp_path / marker, f"\n{PROBE_BEGIN}\n{{\"python\": {{\"vers")
    result = run_cli("detect", "--python", str(python), data=tmp_path / "data")
    assert_clean_failure(result, ENVIRONMENT, f"could not read the answer of {python}",
                         "BLOCKED", "Try again")
    assert wait_until_gone(marker) == []


# -- --gpus (issue 12, item 9) --------------------------------------------------------------------


@pytest.fixture
def target(tmp_path: Path, torch_venv: Path) -> tuple[Path, Path]:
    return recording_target(tmp_path, torch_venv)


def build_gpus(tmp_path: Path, python: Path, gpus: str, *replay: Path) -> str:
    args = ["build", "--plan-only", "--python", str(python), f"--gpus={gpus}"]
    for recording in replay:
        args += ["--replay", str(recording)]
    result = run_cli(*args, data=tmp_path / "data")
    return result.stdout + result.stderr if result.returncode == 0 else assert_clean_failure(
        result, USAGE)


def test_gpus_not_numbers(tmp_path: Path, target: tuple[Path, Path]) -> None:
    """build --gpus 0,x → exit 2, 'not a list of GPU indices', before the target Python runs"""
    python, started = target
    output = build_gpus(tmp_path, python, "0,x", H100)
    assert "--gpus '0,x' is not a list of GPU indices" in output
    assert not started.exists()  # nothing ran


def test_gpus_negative(tmp_path: Path, target: tuple[Path, Path]) -> None:
    """build --gpus -1 on the H100 → exit 2, 'GPU indices start at 0', names GPU 0"""
    python, started = target
    output = build_gpus(tmp_path, python, "-1", H100)
    assert "GPU indices start at 0: -1 is not a GPU." in output
    assert "This computer has GPU 0 (NVIDIA H100 80GB HBM3)" in output
    assert not started.exists()


def test_gpus_twice(tmp_path: Path, target: tuple[Path, Path]) -> None:
    """build --gpus 0,0 on the H100 → exit 2, 'GPU 0 is chosen twice'"""
    python, started = target
    assert "GPU 0 is chosen twice." in build_gpus(tmp_path, python, "0,0", H100)
    assert not started.exists()


def test_gpus_valid_and_missing_mixed(tmp_path: Path, target: tuple[Path, Path]) -> None:
    """build --gpus 0,1 on the one-GPU H100 → exit 2, 'There is no GPU 1' (not silently dropped)"""
    python, started = target
    output = build_gpus(tmp_path, python, "0,1", H100)
    assert "There is no GPU 1: this computer has GPU 0 (NVIDIA H100 80GB HBM3)." in output
    assert "leave out --gpus to build for all of them" in output
    assert not started.exists()


def test_gpus_on_a_machine_without_gpus(tmp_path: Path, target: tuple[Path, Path]) -> None:
    """build --gpus 0 without an NVIDIA driver → exit 2, 'no NVIDIA GPU that the wizard can use'"""
    python, started = target
    output = build_gpus(tmp_path, python, "0", NO_DRIVER)
    assert "GPU 0 was chosen, but this computer has no NVIDIA GPU that the wizard can use" in output
    assert "No NVIDIA driver was found" in output and "Leave out --gpus" in output
    assert not started.exists()


def test_gpus_that_exist_are_accepted(tmp_path: Path, target: tuple[Path, Path]) -> None:
    """build --gpus 0 on the H100 --plan-only → exit 0, the plan is shown (the control)"""
    python, started = target
    output = build_gpus(tmp_path, python, "0", H100)
    assert "What will run:" in output
    assert started.exists()  # the target Python was inspected this time
