"""AI programs' environments recognised by what is installed in them (ai_apps.markers): conda
envs and venvs of the user's own naming; the scan-limit sentence; the Triton tables' sources.

Environments are real folders laid out as venv/conda/pip make them: a real venv
(``python -m venv``) with a wheel installed by pip, conda envs as conda lays them out
(``conda-meta/``, ``bin/python``, ``lib/pythonX.Y/site-packages``) and listed in
``~/.conda/environments.txt``."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from kernel_wizard.machine.ai_apps import (
    environments_in_folder,
    scan_app_environments,
)
from kernel_wizard.machine.ai_apps.markers import app_of_environment
from kernel_wizard.machine.environment import discover_candidates
from kernel_wizard.machine.platforms.linux import LinuxPlatform
from kernel_wizard.machine.platforms.windows import WindowsPlatform
from kernel_wizard.prereqs.triton import LINUX_TRITON, WINDOWS_TRITON

LINUX = LinuxPlatform()
WIN = WindowsPlatform()


def touch(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def conda_env(prefix: Path, *dists: str, scripts: tuple[str, ...] = (),
              windows: bool = False) -> Path:
    """A conda env as conda lays it out, with pip-installed distributions (name, version)."""
    (prefix / "conda-meta").mkdir(parents=True, exist_ok=True)
    touch(prefix / "conda-meta" / "history", "==> 2026-01-01 <==\n# cmd: conda create -n x\n")
    site = prefix / ("Lib/site-packages" if windows else "lib/python3.10/site-packages")
    for dist in dists:
        name, _, version = dist.partition("==")
        touch(site / f"{name}-{version or '1.0'}.dist-info" / "METADATA",
              f"Metadata-Version: 2.1\nName: {name}\nVersion: {version or '1.0'}\n")
    for script in scripts:
        touch(prefix / ("Scripts" if windows else "bin") / (f"{script}.exe" if windows
                                                             else script))
    return touch(prefix / ("python.exe" if windows else "bin/python"))


def register(home: Path, *prefixes: Path) -> None:
    """conda's own list of the envs it made (~/.conda/environments.txt)."""
    touch(home / ".conda" / "environments.txt", "".join(f"{p}\n" for p in prefixes))


def apps(home: Path, environ: dict[str, str] | None = None, windows: bool = False,
         ) -> dict[str, str]:
    result = scan_app_environments(WIN if windows else LINUX, environ or {}, home, mounts=())
    return {str(e.python): e.app for e in result.environments}


# -- conda envs named in the programs' docs ---------------------------------------------------

def test_documented_conda_envs_are_their_programs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    envs = home / "miniconda3" / "envs"
    # Wan2GP README: conda create -n wan2gp; pip install -r requirements.txt (mmgp first)
    wan = conda_env(envs / "wan2gp", "mmgp==3.7.6", "diffusers==0.36.0")
    # text-generation-webui README: conda create -n textgen; requirements bring llama_cpp_binaries
    textgen = conda_env(envs / "textgen", "llama_cpp_binaries==0.74.0", "gradio==4.37.2")
    # Open WebUI docs "Install with Conda": conda create -n open-webui; pip install open-webui
    webui = conda_env(envs / "open-webui", "open_webui==0.6.5", scripts=("open-webui",))
    # an env of one's own with common packages only: not called anything
    mine = conda_env(envs / "ml", "torch==2.7.0", "diffusers==0.36.0")
    assert apps(home) == {str(wan): "Wan2GP (conda env 'wan2gp')",
                          str(textgen): "text-generation-webui (conda env 'textgen')",
                          str(webui): "Open WebUI (conda env 'open-webui')"}
    assert app_of_environment(mine.parent.parent) is None


def test_markers_not_names_decide(tmp_path: Path) -> None:
    home = tmp_path / "home"
    # named wan2gp, yet nothing of Wan2GP's in it: a plain env
    conda_env(home / "miniconda3" / "envs" / "wan2gp", "torch==2.7.0")
    # named anything, yet Open WebUI is installed in it: Open WebUI
    other = tmp_path / "elsewhere" / "chat"
    webui = conda_env(other, "open_webui==0.6.5")
    register(home, other)  # made with conda create -p, listed by conda
    assert apps(home) == {str(webui): "Open WebUI (conda env 'chat')"}


def test_windows_conda_env_with_the_program_script(tmp_path: Path) -> None:
    home = tmp_path / "home"
    invoke = conda_env(home / "miniconda3" / "envs" / "invoke", "InvokeAI==5.6.0",
                       scripts=("invokeai-web",), windows=True)
    assert apps(home, windows=True) == {str(invoke): "InvokeAI (conda env 'invoke')"}


def test_kohya_env_named_by_its_editable_install(tmp_path: Path) -> None:
    """kohya_ss's requirements.txt ends with -e ./sd-scripts: pip records the clone's folder in
    direct_url.json (PEP 610), and that folder's parent is kohya_ss."""
    home = tmp_path / "home"
    clone = tmp_path / "src" / "trainer"
    touch(clone / "kohya_gui.py")
    touch(clone / "kohya_gui" / "__init__.py")
    (clone / "sd-scripts").mkdir()
    prefix = home / "miniconda3" / "envs" / "kohya"
    python = conda_env(prefix, "library==0.0.0")
    touch(prefix / "lib/python3.10/site-packages/library-0.0.0.dist-info/direct_url.json",
          json.dumps({"url": (clone / "sd-scripts").as_uri(), "dir_info": {"editable": True}}))
    found = scan_app_environments(LINUX, {}, home, mounts=()).environments
    assert [(e.python, e.app, e.app_id, e.folder) for e in found] == [
        (python, "Kohya's GUI (kohya_ss), conda env 'kohya'", "kohya_ss", clone)]


def test_the_active_conda_env_is_labelled_as_its_program(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    prefix = tmp_path / "opt" / "wan2gp"
    python = conda_env(prefix, "mmgp==3.7.6")
    found = discover_candidates(LINUX, {"CONDA_PREFIX": str(prefix),
                                        "CONDA_DEFAULT_ENV": "wan2gp", "PATH": ""},
                                home, launched_from=Path(sys.executable))
    first = found[0]
    assert (first.path, first.origin, first.app, first.app_id) == (
        python, "active conda env 'wan2gp'", "Wan2GP (active conda env 'wan2gp')", "wan2gp")


# -- a real venv with Open WebUI installed by pip ---------------------------------------------

def _wheel(folder: Path) -> Path:
    """A wheel named open-webui with the open-webui console script, as PyPI's has them."""
    wheel = folder / "open_webui-0.6.5-py3-none-any.whl"
    info = "open_webui-0.6.5.dist-info"
    files = {
        "open_webui/__init__.py": "def main():\n    pass\n",
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: open-webui\nVersion: 0.6.5\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n",
        f"{info}/entry_points.txt": "[console_scripts]\nopen-webui = open_webui:main\n",
    }
    with zipfile.ZipFile(wheel, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
        z.writestr(f"{info}/RECORD", "".join(f"{n},,\n" for n in files) + f"{info}/RECORD,,\n")
    return wheel


@pytest.mark.skipif(sys.platform == "win32", reason="the venv layout of Linux")
def test_pip_install_open_webui_into_any_venv_is_open_webui(tmp_path: Path) -> None:
    home = tmp_path / "home"
    venv = home / ".venvs" / "x"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                    "install", "--no-index", "--no-deps", "--quiet", str(_wheel(tmp_path))],
                   check=True)
    assert (venv / "bin" / "open-webui").is_file()
    python = venv / "bin" / "python"
    assert apps(home) == {str(python): "Open WebUI (venv 'x')"}
    # "Add a folder…" on the venv itself says the same
    assert [(e.python, e.app_id) for e in environments_in_folder(venv, LINUX)] == \
        [(python, "open-webui")]
    # a venv without it stays a plain venv
    plain = home / ".venvs" / "y"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(plain)], check=True)
    assert apps(home)[str(plain / "bin" / "python")] == "virtual environment 'y'"


# -- the scan-limit sentence -------------------------------------------------------------------

def test_the_limit_is_one_plain_sentence_with_the_right_number(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for i in range(40):
        (home / f"folder {i:02d}" / "deeper").mkdir(parents=True)
    limit = str(scan_app_environments(LINUX, {}, home, mounts=(), max_folders=30).limits[0])
    assert limit.startswith("The search for AI programs stopped early and did not look in ")
    assert " folders (for example " in limit and limit.endswith(
        "; if a program is in one of them, add its folder yourself.")
    assert "level(s)" not in limit and limit.count(". ") == 0
    # one folder left: no number, no plural
    home2 = tmp_path / "home2"
    for name in ("a", "b"):
        (home2 / name).mkdir(parents=True)
    result = scan_app_environments(LINUX, {}, home2, mounts=(), max_folders=2)
    (one,) = result.limits
    assert str(one).startswith(f"The search for AI programs stopped early and did not look in "
                               f"{home2 / 'b'}; if a program is there, add that folder yourself.")


# -- Triton: every PyTorch version triton-windows' README lists --------------------------------

def test_triton_tables_follow_their_sources() -> None:
    # triton-windows README "3. PyTorch" (8743423): 2.4 .. 2.13
    assert WINDOWS_TRITON == {(2, 4): (3, 1), (2, 5): (3, 1), (2, 6): (3, 2), (2, 7): (3, 3),
                              (2, 8): (3, 4), (2, 9): (3, 5), (2, 10): (3, 6), (2, 11): (3, 6),
                              (2, 12): (3, 7), (2, 13): (3, 7)}
    # PyTorch's wheels: triton==3.0.0 for 2.4 (pytorch#130336), the same minors otherwise
    assert LINUX_TRITON == {**WINDOWS_TRITON, (2, 4): (3, 0)}
