"""The headless front end, run as a user runs it: ``python -m app --headless detect``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
H100 = REPO / "tests" / "data" / "nvml" / "h100-driver580.json"


def run_app(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_detect_human_readable_on_a_recorded_h100(torch_venv: Path) -> None:
    result = run_app("--headless", "detect", "--replay", str(H100), "--python", str(torch_venv))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "1 NVIDIA GPU found." in out
    assert "NVIDIA H100 80GB HBM3 — Hopper, cc 9.0, 79.6 GiB" in out
    assert "Driver 580.159.04, supports CUDA up to 13.0" in out
    assert "torch 2.13.0+cpu, CUDA none (CPU build)" in out
    assert "CPU cores:" in out and "RAM:" in out and "Disk:" in out


def test_detect_json(torch_venv: Path) -> None:
    result = run_app(
        "--headless", "detect", "--json", "--replay", str(H100), "--python", str(torch_venv)
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["schema"] == "ksw.detect/1"
    assert document["gpus"][0]["arch"] == "Hopper"
    assert document["environment"]["status"] == "cpu_torch"
    assert document["environment"]["torch"]["version"].startswith("2.13.0")


def test_detect_on_this_machine_without_driver_exits_zero() -> None:
    result = run_app("--headless", "detect")
    assert result.returncode == 0, result.stderr
    assert "GPUs" in result.stdout and "Host" in result.stdout


def test_unusable_python_is_an_error_exit(tmp_path: Path) -> None:
    result = run_app("--headless", "detect", "--python", str(tmp_path / "missing" / "python"))
    assert result.returncode == 3
    assert "There is no file at this path." in result.stderr
    # the path is named once, not "X: X does not exist"
    assert result.stderr.count(str(tmp_path / "missing" / "python")) == 1, result.stderr


def test_unreadable_recording_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "recording.json"
    bad.write_text("not json")
    result = run_app("--headless", "detect", "--replay", str(bad))
    assert result.returncode == 4  # detection could not run (--help: exit codes)
    assert "Could not read the NVML recording" in result.stderr
    assert "Traceback" not in result.stderr
    # in words, not the JSON parser's "Expecting value: line 1 column 1 (char 0)"
    assert "It is not a JSON file, so not a recording written by 'detect --record'" in (
        result.stderr)
    assert "Expecting value" not in result.stderr
    other = tmp_path / "other.json"
    other.write_text('{"gpus": []}')
    result = run_app("--headless", "detect", "--replay", str(other))
    assert "It is JSON, but not an NVML recording" in result.stderr


def test_record_writes_a_replayable_file(tmp_path: Path) -> None:
    target = tmp_path / "nvml recording ü.json"
    result = run_app("--headless", "detect", "--record", str(target))
    assert result.returncode == 0, result.stderr
    recording = json.loads(target.read_text(encoding="utf-8"))
    assert recording["format"] == "ksw.nvml-recording/1"
    replayed = run_app("--headless", "detect", "--json", "--replay", str(target))
    assert replayed.returncode == 0
    live = run_app("--headless", "detect", "--json")
    assert json.loads(replayed.stdout)["nvml"] == json.loads(live.stdout)["nvml"]


def test_bad_command_line() -> None:
    result = run_app("--headless", "frobnicate")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_gui_without_display_points_to_headless_mode() -> None:
    import os

    hidden = {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    result = subprocess.run(
        [sys.executable, "-m", "app"], cwd=REPO, capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 5
    assert "no display" in result.stderr
    assert "python -m app --headless detect" in result.stderr
    assert "Traceback" not in result.stderr


def test_detect_and_check_give_one_verdict_on_a_python_without_torch(plain_venv: Path) -> None:
    """detect said "OK" where check said "MISSING, blocks the build": one word for both"""
    detected = run_app("--headless", "detect", "--python", str(plain_venv))
    assert "MISSING: Python" in detected.stdout and "without PyTorch" in detected.stdout
    assert "OK: Python" not in detected.stdout
    checked = run_app("--headless", "check", "--python", str(plain_venv))
    assert "MISSING  Python environment" in checked.stdout


# -- AI programs: the program as a field, the folder a user names, the one program proposed --

def comfyui_with(home: Path, torch_venv: Path) -> Path:
    """A ComfyUI clone in HOME (its own files) whose venv is the test venv with torch."""
    comfy = home / "ComfyUI"
    (comfy / "comfy").mkdir(parents=True)
    (comfy / "comfy_extras").mkdir()
    (comfy / "main.py").write_text("", encoding="utf-8")
    (comfy / "nodes.py").write_text("", encoding="utf-8")
    (comfy / "venv").symlink_to(torch_venv.parent.parent, target_is_directory=True)
    return comfy


def run_as_user(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_EXE")}
    env["HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "app", "--headless", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=180)


def test_the_only_program_found_is_proposed_and_named_in_json(tmp_path: Path,
                                                              torch_venv: Path) -> None:
    home = tmp_path / "home"
    comfy = comfyui_with(home, torch_venv)
    result = run_as_user(home, "detect", "--replay", str(H100))
    assert result.returncode == 0, result.stderr
    assert f"{comfy / 'venv' / 'bin' / 'python'} (ComfyUI in {comfy})" in result.stdout
    assert "Proposed because it is the only AI program found" in result.stdout
    result = run_as_user(home, "detect", "--json", "--replay", str(H100))
    document = json.loads(result.stdout)
    assert document["program"] == {"id": "comfyui", "name": "ComfyUI", "folder": str(comfy)}
    assert document["candidates"][0]["program"]["id"] == "comfyui"
    assert all(c["program"] is None for c in document["candidates"][1:])
    assert document["scan_limits"] == []
    assert document["environment"]["torch"]["version"].startswith("2.13.0")


def test_python_and_app_folder_accept_a_programs_folder(tmp_path: Path, torch_venv: Path) -> None:
    comfy = comfyui_with(tmp_path / "elsewhere", torch_venv)
    for option in ("--python", "--app-folder"):
        result = run_as_user(tmp_path / "home", "detect", "--json", "--replay", str(H100),
                             option, str(comfy))
        assert result.returncode == 0, result.stderr
        assert f"{comfy} is ComfyUI: using its Python {comfy / 'venv' / 'bin' / 'python'}" \
            in result.stderr
        document = json.loads(result.stdout)
        assert document["program"]["name"] == "ComfyUI"
        assert document["environment"]["executable"] == str(comfy / "venv" / "bin" / "python")
    result = run_as_user(tmp_path / "home", "detect", "--app-folder", str(tmp_path / "home"))
    assert result.returncode == 3
    assert "holds no Python of an AI program the wizard knows" in result.stderr


def test_python_on_a_broken_venv_says_recreate_it(tmp_path: Path) -> None:
    base = tmp_path / "base" / "bin"
    base.mkdir(parents=True)
    os.symlink(os.path.realpath(sys.executable), base / "python3")
    subprocess.run([str(base / "python3"), "-m", "venv", "--without-pip", str(tmp_path / "v")],
                   check=True)
    (base / "python3").unlink()
    result = run_app("--headless", "detect", "--python", str(tmp_path / "v" / "bin" / "python"))
    assert result.returncode == 3
    assert f"This venv's base Python ({base / 'python3'}) is gone" in result.stderr
    assert "recreate the venv" in result.stderr
    assert "There is no file at this path." not in result.stderr
