"""The AI programs' Pythons are found where each program keeps them, in real folder trees laid
out as the programs' own install scripts lay them out (machine/ai_apps/layouts.py cites
them): Windows layouts through the Windows platform's path rules (python.exe, Scripts\\),
Linux layouts with Linux's (bin/python). Each program is named by its own files, never by the
folder's name; nothing is dropped without a word."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kernel_wizard.machine.ai_apps import (
    NoPythonInFolder,
    environments_in_folder,
    find_app_environments,
    python_in_folder,
    scan_app_environments,
)
from kernel_wizard.machine.ai_apps.usage import app_of_python, hint_for_python, how_to_use
from kernel_wizard.machine.environment import EnvStatus, discover_candidates, inspect_python
from kernel_wizard.machine.platforms.linux import LinuxPlatform
from kernel_wizard.machine.platforms.windows import WindowsPlatform

WIN = WindowsPlatform()
LINUX = LinuxPlatform()


def touch(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def mkdirs(root: Path, *names: str) -> Path:
    for name in names:
        (root / name).mkdir(parents=True, exist_ok=True)
    return root


def venv_python(prefix: Path, windows: bool) -> Path:
    """A venv as `python -m venv` lays it out (pyvenv.cfg naming a base that exists)."""
    touch(prefix / "pyvenv.cfg", f"home = {Path(sys.executable).parent}\nversion = 3.11.7\n")
    return touch(prefix / ("Scripts/python.exe" if windows else "bin/python"))


# -- each program's own files (the markers layouts.py cites) ------------------------------

def comfyui(folder: Path) -> Path:
    touch(folder / "main.py")
    touch(folder / "nodes.py")
    touch(folder / "comfy" / "cli_args.py")
    (folder / "comfy_extras").mkdir(parents=True, exist_ok=True)
    return folder


def a1111(folder: Path) -> Path:
    for name in ("webui.py", "launch.py", "webui-user.bat", "modules/launch_utils.py"):
        touch(folder / name)
    return folder


def forge(folder: Path) -> Path:
    a1111(folder)
    mkdirs(folder, "modules_forge", "backend")
    return folder


def sdnext(folder: Path) -> Path:
    for name in ("webui.py", "launch.py", "installer.py", "modules/shared.py"):
        touch(folder / name)
    return folder


def fooocus(folder: Path) -> Path:
    for name in ("entry_with_update.py", "fooocus_version.py", "launch.py", "webui.py"):
        touch(folder / name)
    return folder


def tgw(folder: Path) -> Path:
    for name in ("server.py", "one_click.py", "start_windows.bat", "modules/shared.py"):
        touch(folder / name)
    return folder


def kohya(folder: Path) -> Path:
    touch(folder / "kohya_gui.py")
    touch(folder / "kohya_gui" / "__init__.py")
    return folder


def framepack(folder: Path) -> Path:
    touch(folder / "demo_gradio.py")
    touch(folder / "diffusers_helper" / "hunyuan.py")
    return folder


def wan2gp(folder: Path) -> Path:
    touch(folder / "wgp.py")
    return folder


def swarmui(folder: Path) -> Path:
    touch(folder / "src" / "SwarmUI.csproj")
    touch(folder / "launchtools" / "comfy-install-linux.sh")
    touch(folder / "launch-windows.bat")
    return folder


def found(home: Path, environ: dict[str, str] | None = None, windows: bool = True,
          drives: tuple[Path, ...] = (), mounts: tuple[Path, ...] = ()) -> dict[str, Path]:
    envs = find_app_environments(WIN if windows else LINUX, environ or {}, home, drives,
                                 mounts=mounts)
    return {e.app: e.python for e in envs}


# -- Windows layouts ------------------------------------------------------------------------

def test_windows_portable_and_one_click_packages(tmp_path: Path) -> None:
    home = tmp_path / "Users" / "Zoë Müller"
    comfy_root = home / "Downloads" / "ComfyUI_windows_portable_nvidia" / "ComfyUI_windows_portable"
    comfy_python = touch(comfy_root / "python_embeded" / "python.exe")
    comfyui(comfy_root / "ComfyUI")
    drive = tmp_path / "D"
    fooocus_python = touch(drive / "Fooocus_win64_2-5-0" / "python_embeded" / "python.exe")
    fooocus(drive / "Fooocus_win64_2-5-0" / "Fooocus")
    forge_python = touch(drive / "webui_forge_cu121_torch231" / "system" / "python" / "python.exe")
    forge(drive / "webui_forge_cu121_torch231" / "webui")
    a1111_python = touch(drive / "sd.webui" / "system" / "python" / "python.exe")
    a1111(drive / "sd.webui" / "webui")
    fp_python = touch(drive / "framepack_cu126_torch26" / "system" / "python" / "python.exe")
    framepack(drive / "framepack_cu126_torch26" / "webui")
    swarm = swarmui(drive / "SwarmUI")
    swarm_python = touch(swarm / "dlbackend" / "comfy" / "python_embeded" / "python.exe")
    comfyui(swarm / "dlbackend" / "comfy" / "ComfyUI")
    tgw_portable = tgw(home / "Desktop" / "textgen-portable-3.4")
    tgw_python = touch(tgw_portable / "portable_env" / "python.exe")
    assert found(home, drives=(drive,)) == {
        "ComfyUI (portable)": comfy_python,
        "Fooocus (portable)": fooocus_python,
        "Stable Diffusion WebUI Forge (one-click package)": forge_python,
        "AUTOMATIC1111 Stable Diffusion WebUI (one-click package)": a1111_python,
        "FramePack (one-click package)": fp_python,
        "SwarmUI (its ComfyUI backend)": swarm_python,
        "text-generation-webui": tgw_python,
    }


def test_comfyui_desktop_reads_its_base_path(tmp_path: Path) -> None:
    appdata = tmp_path / "AppData" / "Roaming"
    base = tmp_path / "Documents" / "ComfyUI"
    python = venv_python(base / ".venv", windows=True)
    touch(appdata / "ComfyUI" / "config.json",
          json.dumps({"basePath": str(base), "installState": "installed"}))
    assert found(tmp_path / "home", {"APPDATA": str(appdata)}) == {"ComfyUI Desktop": python}


def test_stability_matrix_library_and_portable_mode(tmp_path: Path) -> None:
    appdata = tmp_path / "AppData" / "Roaming"
    library = tmp_path / "SM Library"
    touch(appdata / "StabilityMatrix" / "library.json", json.dumps({"LibraryPath": str(library)}))
    comfy = comfyui(library / "Packages" / "ComfyUI")
    comfy_python = venv_python(comfy / "venv", windows=True)
    # a Forge package under a name of the user's choosing: named Forge by its files
    renamed = forge(library / "Packages" / "my-sd")
    forge_python = venv_python(renamed / "venv", windows=True)
    (library / "Packages" / "broken-install").mkdir()  # no venv: nothing to list
    portable = tmp_path / "home" / "Desktop" / "StabilityMatrix"
    touch(portable / "StabilityMatrix.exe")
    touch(portable / "Data" / ".sm-portable")
    sdn = sdnext(portable / "Data" / "Packages" / "automatic")
    sdnext_python = venv_python(sdn / "venv", windows=True)
    assert found(tmp_path / "home", {"APPDATA": str(appdata)}) == {
        "StabilityMatrix: ComfyUI": comfy_python,
        "StabilityMatrix: Stable Diffusion WebUI Forge": forge_python,
        "StabilityMatrix: SD.Next": sdnext_python,
    }


def test_pinokio_apps_in_its_configured_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    pinokio = tmp_path / "C" / "pinokio"
    touch(home / ".pinokio" / "config.json", json.dumps({"home": str(pinokio)}))
    comfy = pinokio / "api" / "comfy.git"
    comfyui(comfy / "app")
    comfy_python = venv_python(comfy / "app" / "env", windows=True)
    wan = pinokio / "api" / "wan.git"
    wan2gp(wan / "app")
    wan_python = venv_python(wan / "app" / "env", windows=True)
    other = venv_python(pinokio / "api" / "fluxgym.git" / "env", windows=True)
    assert found(home) == {"Pinokio: ComfyUI": comfy_python, "Pinokio: Wan2GP": wan_python,
                           "Pinokio: fluxgym": other}


# -- Linux layouts --------------------------------------------------------------------------

def test_linux_clones_named_by_their_files_not_their_folders(tmp_path: Path) -> None:
    home = tmp_path / "home" / "me"
    programs = {
        "AUTOMATIC1111 Stable Diffusion WebUI": (a1111(home / "stable-diffusion-webui"), "venv"),
        "Stable Diffusion WebUI Forge": (forge(home / "sd"), "venv"),  # Forge, whatever its name
        "SD.Next": (sdnext(home / "AI" / "automatic"), "venv"),
        "ComfyUI": (comfyui(home / "ComfyUI"), ".venv"),
        "text-generation-webui": (tgw(home / "Documents" / "tgw"), "installer_files/env"),
        "Fooocus": (fooocus(home / "Fooocus"), "fooocus_env"),
        "Kohya's GUI (kohya_ss)": (kohya(home / "kohya_ss"), "venv"),
        "FramePack": (framepack(home / "FramePack"), "venv"),
        "Wan2GP": (wan2gp(home / "Wan2GP"), "venv"),
    }
    expected = {name: venv_python(folder / prefix, windows=False)
                for name, (folder, prefix) in programs.items()}
    swarm = swarmui(home / "SwarmUI")
    comfyui(swarm / "dlbackend" / "ComfyUI")
    expected["SwarmUI (its ComfyUI backend)"] = venv_python(
        swarm / "dlbackend" / "ComfyUI" / "venv", windows=False)
    invoke = home / "invokeai"
    expected["InvokeAI"] = venv_python(invoke / ".venv", windows=False)
    touch(invoke / ".venv" / "bin" / "invokeai-web")
    webui = home / "open-webui"
    expected["Open WebUI"] = venv_python(webui / "venv", windows=False)
    touch(webui / "venv" / "bin" / "open-webui")
    # someone's own project with webui.py, launch.py and a venv is no known program
    mine = home / "my-project"
    touch(mine / "webui.py")
    touch(mine / "launch.py")
    venv_python(mine / "venv", windows=False)
    assert found(home, windows=False) == expected


def test_forks_are_told_apart_by_their_git_remote(tmp_path: Path) -> None:
    home = tmp_path / "home"
    reforge = forge(home / "webui")
    touch(reforge / ".git" / "config", '[remote "origin"]\n\turl = https://github.com/'
          'Panchovix/stable-diffusion-webui-reForge.git\n')
    python = venv_python(reforge / "venv", windows=False)
    assert found(home, windows=False) == {"Stable Diffusion WebUI reForge": python}


def test_second_disks_under_linux_mount_points(tmp_path: Path) -> None:
    root = tmp_path / "root"
    comfy = comfyui(root / "mnt" / "data" / "AI" / "ComfyUI")
    comfy_python = venv_python(comfy / "venv", windows=False)
    forge_dir = forge(root / "run" / "media" / "zoe" / "Big Disk" / "forge")
    forge_python = venv_python(forge_dir / "venv", windows=False)
    from kernel_wizard.machine.ai_apps import mount_roots

    mounts = mount_roots({"USER": "zoe"}, fs_root=root)
    assert root / "mnt" / "data" in mounts and root / "run" / "media" / "zoe" / "Big Disk" in mounts
    assert found(tmp_path / "home", windows=False, mounts=tuple(mounts)) == {
        "ComfyUI": comfy_python, "Stable Diffusion WebUI Forge": forge_python}


def test_plain_venvs_and_nothing_where_nothing_is(tmp_path: Path) -> None:
    home = tmp_path / "home"
    llm = venv_python(home / ".venvs" / "llm", windows=False)
    touch(home / ".venvs" / "not-a-venv" / "bin" / "python")  # no pyvenv.cfg
    (home / "Downloads" / "ComfyUI" / "ComfyUI").mkdir(parents=True)  # no Python next to it
    touch(home / "Documents" / "webui.py")
    assert found(home, windows=False) == {"virtual environment 'llm'": llm}
    assert found(tmp_path / "missing") == {}


# -- never drop a program without a word ------------------------------------------------------

def test_a_crowded_home_still_finds_the_programs_in_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for i in range(2000):
        (home / f"project {i:04d}" / "src").mkdir(parents=True)
    # named to sort last, as directory order may put them
    expected = {
        "ComfyUI": venv_python(comfyui(home / "zz-comfy") / "venv", windows=False),
        "Stable Diffusion WebUI Forge": venv_python(forge(home / "zz-forge") / "venv",
                                                    windows=False),
        "text-generation-webui": venv_python(tgw(home / "zz-tgw") / "installer_files" / "env",
                                             windows=False),
        "SD.Next": venv_python(sdnext(home / "zz-sdnext") / "venv", windows=False),
    }
    result = scan_app_environments(LINUX, {}, home, mounts=())
    assert {e.app: e.python for e in result.environments} == expected
    assert result.limits == []  # everything was looked at


def test_a_limit_hit_is_said_not_swallowed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for i in range(60):
        (home / f"folder {i:02d}" / "deeper").mkdir(parents=True)
    python = venv_python(comfyui(home / "folder 59" / "ComfyUI") / "venv", windows=False)
    result = scan_app_environments(LINUX, {}, home, mounts=(), max_folders=30)
    assert python not in [e.python for e in result.environments]
    assert len(result.limits) == 1
    limit = str(result.limits[0])
    assert limit.startswith("The search for AI programs stopped early and did not look in ")
    assert "add its folder yourself" in limit
    # the folder the user then adds is found by the same rules
    assert [e.python for e in environments_in_folder(home / "folder 59" / "ComfyUI", LINUX)] \
        == [python]


def test_a_symlinked_folder_lists_its_program_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    real = comfyui(tmp_path / "disk" / "ComfyUI")
    python = venv_python(real / "venv", windows=False)
    (home / "Desktop").mkdir(parents=True)
    os.symlink(real, home / "ComfyUI", target_is_directory=True)
    os.symlink(real, home / "Desktop" / "ComfyUI link", target_is_directory=True)
    envs = find_app_environments(LINUX, {}, home, mounts=())
    assert len(envs) == 1 and envs[0].app == "ComfyUI"
    assert os.path.realpath(envs[0].python.parent) == os.path.realpath(python.parent)


# -- broken venvs -----------------------------------------------------------------------------

@pytest.fixture
def broken_venv(tmp_path: Path) -> Path:
    """A real venv made from a Python that is then removed (its bin/python link dangles)."""
    base = tmp_path / "base-python" / "bin"
    base.mkdir(parents=True)
    os.symlink(os.path.realpath(sys.executable), base / "python3")
    comfy = comfyui(tmp_path / "home" / "ComfyUI")
    subprocess.run([str(base / "python3"), "-m", "venv", "--without-pip", str(comfy / "venv")],
                   check=True, capture_output=True)
    (base / "python3").unlink()
    return comfy / "venv" / "bin" / "python"


def test_a_broken_venv_is_listed_with_its_reason(broken_venv: Path, tmp_path: Path) -> None:
    assert not broken_venv.exists() and broken_venv.is_symlink()
    envs = find_app_environments(LINUX, {}, tmp_path / "home", mounts=())
    assert [(e.app, e.python) for e in envs] == [("ComfyUI", broken_venv)]
    assert "base Python" in envs[0].problem and "is gone" in envs[0].problem
    assert str(tmp_path / "base-python" / "bin" / "python3") in envs[0].problem
    candidates = discover_candidates(platform=LINUX, environ={"PATH": ""},
                                     home=tmp_path / "home",
                                     launched_from=tmp_path / "no-such-python")
    assert [c.problem for c in candidates] == [envs[0].problem]
    assert candidates.proposed_app is None  # a Python that cannot start is never proposed


def test_inspecting_a_broken_venv_says_recreate_it(broken_venv: Path) -> None:
    env = inspect_python(broken_venv)
    assert env.status is EnvStatus.BROKEN
    assert "is gone" in env.summary and "recreate the venv" in env.summary
    assert "does not exist" not in env.summary and "no file" not in env.summary
    assert f"python -m venv --clear {broken_venv.parent.parent}" in env.hint


def test_a_windows_venv_whose_home_is_gone(tmp_path: Path) -> None:
    prefix = comfyui(tmp_path / "ComfyUI") / "venv"
    touch(prefix / "pyvenv.cfg", f"home = {tmp_path / 'Python311'}\n")
    python = touch(prefix / "Scripts" / "python.exe")  # the venv launcher is still there
    envs = environments_in_folder(tmp_path / "ComfyUI", WIN)
    assert [e.python for e in envs] == [python]
    assert f"({tmp_path / 'Python311'}) is gone" in envs[0].problem


# -- the default target, the folder the user names --------------------------------------------

def test_the_one_program_found_is_proposed_before_the_wizards_own_python(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = home / "Desktop" / "ComfyUI_windows_portable"
    python = touch(root / "python_embeded" / "bin" / "python")  # Linux rules: prefix/bin
    comfyui(root / "ComfyUI")
    candidates = discover_candidates(platform=LINUX, environ={"PATH": ""}, home=home,
                                     launched_from=Path(sys.executable))
    assert [c.path for c in candidates][:2] == [python, Path(sys.executable)]
    assert candidates[0].app == "ComfyUI (portable)" and candidates[0].app_id == "comfyui"
    assert candidates.proposed_app is candidates[0]
    # an environment the user activated stays first
    active = venv_python(tmp_path / "active", windows=False)
    candidates = discover_candidates(platform=LINUX, home=home, launched_from=Path(sys.executable),
                                     environ={"PATH": "", "VIRTUAL_ENV": str(tmp_path / "active")})
    assert candidates[0].path == active and candidates.proposed_app is None
    # two programs: nothing is proposed, the wizard's Python stays the default
    venv_python(forge(home / "forge") / "venv", windows=False)
    candidates = discover_candidates(platform=LINUX, environ={"PATH": ""}, home=home,
                                     launched_from=Path(sys.executable))
    assert candidates[0].path == Path(sys.executable) and candidates.proposed_app is None


def test_a_folder_the_user_names_is_resolved_by_the_same_rules(tmp_path: Path) -> None:
    root = tmp_path / "anywhere" / "ComfyUI_windows_portable"
    python = touch(root / "python_embeded" / "python.exe")
    comfyui(root / "ComfyUI")
    for given in (root, root / "ComfyUI", root / "python_embeded"):
        envs = environments_in_folder(given, WIN)
        assert [(e.app, e.python) for e in envs] == [("ComfyUI (portable)", python)], given
    clone = comfyui(tmp_path / "x")
    venv = venv_python(clone / "venv", windows=False)
    assert python_in_folder(clone / "venv", LINUX).chosen.python == venv
    assert python_in_folder(clone / "venv", LINUX).chosen.app == "ComfyUI"
    with pytest.raises(NoPythonInFolder, match="Give the python executable itself"):
        python_in_folder(tmp_path / "anywhere", LINUX)


# -- is it actually used? -----------------------------------------------------------------------

def test_use_hints_come_from_the_data_files_with_their_sources(tmp_path: Path) -> None:
    hint = how_to_use("comfyui", "sageattention")
    assert hint is not None and "--use-sage-attention" in hint.how
    assert hint.docs.startswith("https://github.com/comfyanonymous/ComfyUI")
    assert hint.source.startswith("https://")
    flash = how_to_use("comfyui", "flash_attn")
    assert flash is not None and "--use-flash-attention" in flash.how
    other = how_to_use("comfyui", "flashmla")
    assert other is not None and "no start option" in other.how
    assert how_to_use("no-such-program", "flash_attn") is None
    # every program the layouts know has its facts
    from kernel_wizard.machine.ai_apps import APPS

    assert all(how_to_use(app.id, "flash_attn") is not None for app in APPS)


def test_the_program_is_found_from_its_python(tmp_path: Path) -> None:
    portable = tmp_path / "ComfyUI_windows_portable"
    python = touch(portable / "python_embeded" / "python.exe")
    comfyui(portable / "ComfyUI")
    app = app_of_python(python)
    assert app is not None and app.id == "comfyui"
    swarm = swarmui(tmp_path / "SwarmUI")
    comfyui(swarm / "dlbackend" / "ComfyUI")
    swarm_python = venv_python(swarm / "dlbackend" / "ComfyUI" / "venv", windows=False)
    hint = hint_for_python(swarm_python, "sageattention")
    assert hint is not None and hint.app_id == "swarmui" and "ExtraArgs" in hint.how
    assert hint_for_python(Path(sys.executable), "flash_attn") is None


def test_verify_says_how_the_program_is_told_to_use_it(tmp_path: Path) -> None:
    """What `verify` prints under an install into a ComfyUI portable's Python (and its JSON)."""
    from kernel_wizard.cli.build import _use_hint, _use_hint_json
    from kernel_wizard.install.records import InstallRecord

    portable = tmp_path / "ComfyUI_windows_portable"
    python = touch(portable / "python_embeded" / "python.exe")
    comfyui(portable / "ComfyUI")
    hint = _use_hint(InstallRecord("sageattention", "2.2.0", str(python), kernel="sageattention"))
    assert hint is not None
    lines = hint.lines()
    assert lines[0].startswith("Is it used? ComfyUI: ComfyUI uses SageAttention only when it is "
                               "started with --use-sage-attention")
    assert lines[1] == '  To see that it is: When it starts, ComfyUI\'s console says "Using sage ' \
        'attention".'
    assert lines[2] == ("  ComfyUI's documentation: "
                        "https://github.com/comfyanonymous/ComfyUI/blob/master/comfy/cli_args.py")
    document = _use_hint_json(InstallRecord("flash_attn", "2.8.3", str(python),
                                            kernel="flash_attn"))
    assert document is not None and document["program"] == "comfyui"
    assert "--use-flash-attention" in document["how"]
    assert _use_hint_json(InstallRecord("flash_attn", "2.8.3", sys.executable,
                                        kernel="flash_attn")) is None
