"""The AI programs' Pythons are found where each program keeps them, in real folder trees laid
out as the programs lay them out (Windows layouts with the Windows platform's path rules, Linux
layouts with Linux's): each with its program's name; nothing is found where nothing is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from build_backend.ai_apps import MAX_ENTRIES, find_app_environments
from build_backend.environment import discover_candidates
from build_backend.platforms.linux import LinuxPlatform
from build_backend.platforms.windows import WindowsPlatform


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("", encoding="utf-8")
    return path


def found(home: Path, environ: dict[str, str] | None = None, windows: bool = True,
          drives: tuple[Path, ...] = ()) -> dict[str, Path]:
    plat = WindowsPlatform() if windows else LinuxPlatform()
    envs = find_app_environments(plat, environ or {}, home, drives)
    return {e.app: e.python for e in envs}


def test_comfyui_portable_unpacked_in_downloads_two_levels_deep(tmp_path: Path) -> None:
    home = tmp_path / "Users" / "Zoë Müller"
    root = home / "Downloads" / "ComfyUI_windows_portable_nvidia" / "ComfyUI_windows_portable"
    python = touch(root / "python_embeded" / "python.exe")
    touch(root / "ComfyUI" / "main.py")
    assert found(home) == {"ComfyUI (portable)": python}


def test_portable_programs_at_a_drive_root(tmp_path: Path) -> None:
    drive = tmp_path / "D"
    fooocus = touch(drive / "Fooocus_win64_2-5-0" / "python_embeded" / "python.exe")
    (drive / "Fooocus_win64_2-5-0" / "Fooocus").mkdir()
    forge = drive / "webui_forge_cu121_torch231"
    forge_python = touch(forge / "system" / "python" / "python.exe")
    (forge / "webui").mkdir()
    assert found(tmp_path / "home", drives=(drive,)) == {
        "Fooocus (portable)": fooocus,
        "Stable Diffusion WebUI Forge (one-click package)": forge_python,
    }


def test_comfyui_desktop_reads_its_base_path(tmp_path: Path) -> None:
    appdata = tmp_path / "AppData" / "Roaming"
    base = tmp_path / "Documents" / "ComfyUI"
    python = touch(base / ".venv" / "Scripts" / "python.exe")
    touch(appdata / "ComfyUI" / "config.json").write_text(
        json.dumps({"basePath": str(base), "installState": "installed"}), encoding="utf-8")
    assert found(tmp_path / "home", {"APPDATA": str(appdata)}) == {"ComfyUI Desktop": python}


def test_webuis_and_text_generation_webui_in_the_home_folder(tmp_path: Path) -> None:
    home = tmp_path / "home" / "me"
    a1111 = home / "stable-diffusion-webui"
    touch(a1111 / "webui.py")
    a1111_python = touch(a1111 / "venv" / "bin" / "python")
    forge = home / "AI" / "stable-diffusion-webui-forge"
    touch(forge / "launch.py")
    forge_python = touch(forge / "venv" / "bin" / "python")
    tgw = home / "text-generation-webui"
    touch(tgw / "server.py")
    tgw_python = touch(tgw / "installer_files" / "env" / "bin" / "python")
    comfy = home / "ComfyUI"
    touch(comfy / "main.py")
    (comfy / "comfy").mkdir()
    comfy_python = touch(comfy / ".venv" / "bin" / "python")
    assert found(home, windows=False) == {
        "AUTOMATIC1111 Stable Diffusion WebUI": a1111_python,
        "ComfyUI": comfy_python,
        "text-generation-webui": tgw_python,
        "Stable Diffusion WebUI Forge": forge_python,
    }


def test_stability_matrix_packages_from_its_library(tmp_path: Path) -> None:
    appdata = tmp_path / "AppData" / "Roaming"
    library = tmp_path / "SM Library"
    touch(appdata / "StabilityMatrix" / "library.json").write_text(
        json.dumps({"LibraryPath": str(library)}), encoding="utf-8")
    comfy = touch(library / "Packages" / "ComfyUI" / "venv" / "Scripts" / "python.exe")
    forge = touch(library / "Packages" / "stable-diffusion-webui-forge" / "venv" / "Scripts"
                  / "python.exe")
    (library / "Packages" / "broken-install").mkdir()  # no venv: not listed
    assert found(tmp_path / "home", {"APPDATA": str(appdata)}) == {
        "StabilityMatrix: ComfyUI": comfy,
        "StabilityMatrix: stable-diffusion-webui-forge": forge,
    }


def test_pinokio_apps_and_plain_venvs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    comfy = touch(home / "pinokio" / "api" / "comfy.git" / "app" / "env" / "bin" / "python")
    fluxgym = touch(home / "pinokio" / "api" / "fluxgym.git" / "env" / "bin" / "python")
    venv = home / ".venvs" / "llm"
    venv_python = touch(venv / "bin" / "python")
    touch(venv / "pyvenv.cfg")
    touch(home / ".venvs" / "not-a-venv" / "bin" / "python")  # no pyvenv.cfg
    assert found(home, windows=False) == {
        "Pinokio: comfy": comfy,
        "Pinokio: fluxgym": fluxgym,
        "virtual environment 'llm'": venv_python,
    }


def test_nothing_where_nothing_is(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "Downloads" / "ComfyUI" / "ComfyUI").mkdir(parents=True)  # no Python next to it
    touch(home / "Documents" / "webui.py")  # no venv
    assert found(home) == {}
    assert found(tmp_path / "missing") == {}


def test_a_huge_folder_is_only_partly_listed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for i in range(MAX_ENTRIES + 50):
        (home / "Downloads" / f"folder {i:04d}").mkdir(parents=True)
    assert found(home) == {}  # finishes, finds nothing


def test_candidates_name_the_program_and_come_after_the_active_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    root = home / "Desktop" / "ComfyUI_windows_portable"
    python = touch(root / "python_embeded" / "bin" / "python")  # Linux rules: prefix/bin
    (root / "ComfyUI").mkdir()
    candidates = discover_candidates(platform=LinuxPlatform(), environ={"PATH": ""}, home=home,
                                     launched_from=tmp_path / "no-such-python")
    assert [(c.path, c.app) for c in candidates] == [(python, "ComfyUI (portable)")]
    assert candidates[0].origin == f"ComfyUI (portable) in {root}"
