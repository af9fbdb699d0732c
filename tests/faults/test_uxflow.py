"""Fault trials of the user's flow (issue 13): a fix asked for without a terminal, a compiler
variable that names no compiler, recordings that must say they are recordings.

Each trial runs the real CLI (``conftest.run_cli``: standard input empty, not a terminal).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import ksw_faults
import pytest
from ksw_testsupport import pip_freeze

from kernel_wizard.base.errors import ExitCode
from kernel_wizard.cli.main import build_parser

_faults = ksw_faults
run_cli = _faults.run_cli
assert_clean_failure = _faults.assert_clean_failure

DATA = Path(__file__).resolve().parents[1] / "data"
H100 = DATA / "nvml" / "h100-driver580.json"
NO_DRIVER = DATA / "nvml" / "no-driver-linux.json"


@pytest.fixture()
def bare_env(tmp_path: Path) -> Path:
    """A fresh venv without PyTorch that sees the base installation's pip (quick to make; a
    fix would install into the venv itself)."""
    venv = tmp_path / "bare env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def test_fix_without_a_terminal_and_without_yes_runs_nothing(tmp_path: Path,
                                                            bare_env: Path) -> None:
    """fix python-env, stdin not a terminal, no --yes → exit 2, asks for --yes, env unchanged"""
    before = pip_freeze(bare_env)
    result = run_cli("fix", "python-env", "--python", str(bare_env), data=tmp_path / "data",
                     timeout=120)
    output = assert_clean_failure(result, int(ExitCode.USAGE), "--yes",
                                  "standard input is not a terminal")
    assert "Nothing was run" in output
    # the exact command to run instead: as typed (the path quoted: it has a space), with --yes
    assert f'python -m app --headless fix python-env --python "{bare_env}" --yes' in output
    assert pip_freeze(bare_env) == before  # no PyTorch was installed


def test_fix_dry_run_on_a_machine_without_gpu_shows_the_cpu_build(tmp_path: Path,
                                                                  bare_env: Path) -> None:
    """fix python-env --dry-run, no NVIDIA driver (recorded) → the CPU build of PyTorch, its size"""
    result = run_cli("fix", "python-env", "--python", str(bare_env), "--dry-run",
                     "--replay", str(NO_DRIVER), data=tmp_path / "data", timeout=120)
    output = assert_clean_failure(result, int(ExitCode.OK), "What will run:", "dry run",
                                  "Install PyTorch (CPU build)", "about 200 MB")
    assert "--index-url https://download.pytorch.org/whl/cpu" in output
    assert "fits your driver" not in output and "page" not in output.lower()


def test_check_with_cxx_naming_no_compiler_blocks_and_names_the_variable(tmp_path: Path) -> None:
    """check with CXX=/opt/nonexistent/g++ → exit 1, the compiler check names CXX (was: OK)"""
    result = run_cli("check", "--python", sys.executable, data=tmp_path / "data", timeout=120,
                     CXX="/opt/nonexistent/g++")
    output = assert_clean_failure(result, int(ExitCode.FAILURE),
                                  "The CXX variable is set to /opt/nonexistent/g++",
                                  "unset CXX", "block the build: C++ compiler")
    assert "page" not in output.lower()


def test_detect_record_says_where_it_saved(tmp_path: Path) -> None:
    """detect --record FILE → exit 0, names the file it saved (which replays)"""
    target = tmp_path / "my recording.json"
    result = run_cli("detect", "--record", str(target), data=tmp_path / "data", timeout=120)
    assert_clean_failure(result, int(ExitCode.OK), f"Saved NVML's answers for this computer "
                         f"to {target}")
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == "ksw.nvml-recording/1"


def test_detect_record_with_json_keeps_stdout_a_json_document(tmp_path: Path) -> None:
    """detect --json --record FILE → stdout is JSON only; where it saved goes to stderr"""
    target = tmp_path / "rec.json"
    result = run_cli("detect", "--json", "--record", str(target), data=tmp_path / "data",
                     timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["schema"] == "ksw.detect/1"
    assert str(target) in result.stderr


def test_detect_replay_says_the_machine_is_a_recording(tmp_path: Path) -> None:
    """detect --replay h100.json → exit 0, 'A RECORDED MACHINE' said before the GPUs"""
    result = run_cli("detect", "--replay", str(H100), data=tmp_path / "data", timeout=120)
    output = assert_clean_failure(result, int(ExitCode.OK), "A RECORDED MACHINE",
                                  "recorded 2026-11-21", "NVIDIA H100 80GB HBM3")
    assert output.index("A RECORDED MACHINE") < output.index("NVIDIA H100")


def test_every_option_that_takes_a_value_states_its_default() -> None:
    """--help of every command → each option with a value says what happens without it"""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {'/'.join(action.option_strings)}"
        for name, sub in commands.choices.items() for action in sub._actions
        if action.option_strings and action.nargs != 0 and "default" not in (action.help or "")
    ]
    assert missing == []
    build = commands.choices["build"].format_help()
    assert "the Python running this wizard" in " ".join(build.split())
