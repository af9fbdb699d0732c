"""Which AI program a folder holds, and where that program keeps its Python.

Each program is recognised by files that only it has (its own entry scripts and packages), never
by the name of the folder it was unpacked or cloned into: a Forge clone called ``sd`` is Forge,
and a project of one's own with a ``webui.py`` and a ``venv`` is nobody's. Where each program
keeps its Python comes from its own install scripts and documentation, cited at each entry
(paths are in the program's GitHub repository unless a URL is given).

Two kinds of layout:

- **the program's own folder** holds its environment (a git clone with ``venv``/``.venv``, a
  conda env under ``installer_files``): :data:`APPS` lists the markers and the prefixes;
- **a portable wrapper** holds the program's folder next to a bundled Python
  (``ComfyUI_windows_portable/{ComfyUI, python_embeded}``, a one-click package's
  ``{webui, system/python}``): :func:`wrapped` looks at the inner folder's markers.

Nothing is run and nothing is read but directory listings, ``.git/config`` (to tell a fork of a
program from the program) and ``pyvenv.cfg``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.machine.ai_apps.venvs import broken_venv, has_python
from kernel_wizard.machine.platforms import Platform


@dataclass(frozen=True)
class AppEnvironment:
    """An AI program's Python."""

    app: str  # for a person: "ComfyUI (portable)", "StabilityMatrix: ComfyUI"
    python: Path
    folder: Path  # the program's folder
    app_id: str = ""  # the program (resources/apps/<app_id>.toml): "comfyui", "forge", ...
    problem: str = ""  # why this Python cannot start (a broken venv); "" when none is known

    @property
    def origin(self) -> str:
        return f"{self.app} in {self.folder}"


Entries = frozenset[str]


def listing(folder: Path) -> Entries:
    """The names in ``folder`` (every one: recognition must not depend on directory order);
    empty when it cannot be read."""
    try:
        with os.scandir(folder) as it:
            return frozenset(entry.name for entry in it)
    except OSError:
        return frozenset()


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def _git_remote(folder: Path) -> str:
    """The clone's remote URLs (lower case), "" without a ``.git/config``."""
    try:
        return (folder / ".git" / "config").read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return ""


@dataclass(frozen=True)
class App:
    """One program: how to recognise its folder, and where its own Python may be."""

    id: str
    name: str
    matches: Callable[[Path, Entries], bool]
    prefixes: tuple[str, ...]  # environment folders inside the program's folder, in order
    fork_names: tuple[tuple[str, str], ...] = ()  # (remote URL part, the fork's name)

    def label(self, folder: Path) -> str:
        if self.fork_names:
            remote = _git_remote(folder)
            for part, name in self.fork_names:
                if part in remote:
                    return name
        return self.name


def _comfyui(folder: Path, e: Entries) -> bool:
    # comfyanonymous/ComfyUI: main.py, the comfy/ package (comfy/cli_args.py), comfy_extras/
    # and nodes.py at the top of the repository
    return "main.py" in e and "comfy" in e and ("comfy_extras" in e or "nodes.py" in e)


def _forge(folder: Path, e: Entries) -> bool:
    # lllyasviel/stable-diffusion-webui-forge: A1111's launch.py/webui.py plus its own
    # modules_forge/ package (and backend/ since 2024-08; backend/args.py); reForge
    # (Panchovix/stable-diffusion-webui-reForge) keeps modules_forge/ too
    return "modules_forge" in e and ("launch.py" in e or "webui.py" in e)


def _sdnext(folder: Path, e: Entries) -> bool:
    # vladmandic/sdnext (formerly vladmandic/automatic): launch.py starts installer.py, which
    # A1111 has not; modules/ holds the program
    return "installer.py" in e and "launch.py" in e and "modules" in e


def _a1111(folder: Path, e: Entries) -> bool:
    # AUTOMATIC1111/stable-diffusion-webui: webui.py + launch.py + modules/launch_utils.py
    # (since 1.3.0; older ones: modules/sd_hijack.py); Forge and SD.Next are told apart first
    if not ("webui.py" in e and "launch.py" in e and "modules" in e):
        return False
    if _forge(folder, e) or _sdnext(folder, e):
        return False
    modules = folder / "modules"
    return _is_file(modules / "launch_utils.py") or _is_file(modules / "sd_hijack.py")


def _fooocus(folder: Path, e: Entries) -> bool:
    # lllyasviel/Fooocus: entry_with_update.py (what run.bat starts) and fooocus_version.py
    return "entry_with_update.py" in e and "fooocus_version.py" in e


def _text_generation_webui(folder: Path, e: Entries) -> bool:
    # oobabooga/text-generation-webui: server.py + modules/ with its launchers
    # (one_click.py and start_windows.bat/start_linux.sh; the portable build keeps start_*)
    return "server.py" in e and "modules" in e and (
        "one_click.py" in e or "start_windows.bat" in e or "start_linux.sh" in e)


def _kohya(folder: Path, e: Entries) -> bool:
    # bmaltais/kohya_ss: kohya_gui.py and the kohya_gui/ package
    return "kohya_gui.py" in e and "kohya_gui" in e


def _framepack(folder: Path, e: Entries) -> bool:
    # lllyasviel/FramePack: demo_gradio.py and the diffusers_helper/ package
    return "demo_gradio.py" in e and "diffusers_helper" in e


def _wan2gp(folder: Path, e: Entries) -> bool:
    # deepbeepmeep/Wan2GP: wgp.py (its one program; README: python wgp.py) with models/
    return "wgp.py" in e


def _swarmui(folder: Path, e: Entries) -> bool:
    # mcmonkeyprojects/SwarmUI: src/SwarmUI.csproj, launchtools/ and launch-windows.bat
    return "launchtools" in e and "src" in e and (
        _is_file(folder / "src" / "SwarmUI.csproj") or "launch-windows.bat" in e)


def _entry_script(folder: Path, prefix: str, name: str) -> bool:
    return any(_is_file(folder / prefix / sub / exe)
               for sub, exe in (("bin", name), ("Scripts", f"{name}.exe")))


def _invokeai(folder: Path, e: Entries) -> bool:
    # invoke-ai/InvokeAI: the launcher and the manual install (docs/installation/manual.md:
    # `uv venv ... .venv`, `uv pip install invokeai`) put a .venv with the invokeai-web
    # program into the install folder; invokeai.yaml appears there on the first start
    return ".venv" in e and _entry_script(folder, ".venv", "invokeai-web")


def _open_webui(folder: Path, e: Entries) -> bool:
    # open-webui/open-webui: installed with pip/uv into a venv or conda env (docs:
    # "pip install open-webui", then "open-webui serve"); its program is the venv's open-webui
    return any(p in e and _entry_script(folder, p, "open-webui") for p in ("venv", ".venv"))


# In order: the first match names the program (forks before the program they fork).
APPS: tuple[App, ...] = (
    # ComfyUI from git: README "Manual Install": a venv of one's own; the Desktop app and
    # comfy-cli make .venv
    App("comfyui", "ComfyUI", _comfyui, ("venv", ".venv")),
    # Forge: webui-user.bat/webui.sh make venv/ (VENV_DIR, as in A1111)
    App("forge", "Stable Diffusion WebUI Forge", _forge, ("venv",),
        fork_names=(("reforge", "Stable Diffusion WebUI reForge"),)),
    # SD.Next: webui.bat/webui.sh make venv/ (VENV_DIR)
    App("sdnext", "SD.Next", _sdnext, ("venv",)),
    # A1111: webui.bat `set VENV_DIR=%~dp0%venv`, webui.sh `venv_dir="venv"`
    App("a1111", "AUTOMATIC1111 Stable Diffusion WebUI", _a1111, ("venv",)),
    # Fooocus: README, Linux: `python3 -m venv fooocus_env` in the Fooocus folder
    App("fooocus", "Fooocus", _fooocus, ("fooocus_env", "venv")),
    # text-generation-webui: cmd_windows.bat/one_click.py: INSTALL_ENV_DIR=installer_files\env
    # (a conda env); the portable builds: .github/workflows/build-portable-release-cuda.yml
    # moves a standalone Python to portable_env/
    App("text-generation-webui", "text-generation-webui", _text_generation_webui,
        ("installer_files/env", "portable_env", "venv")),
    # kohya_ss: setup.bat/setup.sh make venv/; gui-uv.bat/setup-uv.bat (uv) make .venv/
    App("kohya_ss", "Kohya's GUI (kohya_ss)", _kohya, ("venv", ".venv")),
    # FramePack: README, Linux: a Python 3.10 environment of one's own
    App("framepack", "FramePack", _framepack, ("venv", ".venv")),
    # Wan2GP: README: `conda create -n wan2gp` or a venv of one's own
    App("wan2gp", "Wan2GP", _wan2gp, ("venv", ".venv", "env")),
    # SwarmUI installs ComfyUI as its backend: Windows unpacks the ComfyUI portable build to
    # dlbackend/comfy/ (docs name dlbackend\comfy\python_embeded\python.exe),
    # launchtools/comfy-install-linux.sh clones it to dlbackend/ComfyUI with its own venv
    App("swarmui", "SwarmUI (its ComfyUI backend)", _swarmui,
        ("dlbackend/comfy/python_embeded", "dlbackend/ComfyUI/venv")),
    App("invokeai", "InvokeAI", _invokeai, (".venv",)),
    App("open-webui", "Open WebUI", _open_webui, ("venv", ".venv")),
)
APP_BY_ID = {app.id: app for app in APPS}


def identify(folder: Path, entries: Entries | None = None) -> App | None:
    """The program whose own files are in ``folder``, or None."""
    e = listing(folder) if entries is None else entries
    for app in APPS:
        if app.matches(folder, e):
            return app
    return None


def _environment(app: str, app_id: str, prefix: Path, folder: Path,
                 plat: Platform) -> AppEnvironment | None:
    python = plat.python_in_prefix(prefix)
    if not has_python(python):
        return None
    broken = broken_venv(python)
    return AppEnvironment(app, python, folder, app_id, str(broken.summary) if broken else "")


def own_environments(folder: Path, app: App, plat: Platform) -> Iterator[AppEnvironment]:
    """The program's Pythons inside its own folder (the first of its prefixes that holds one)."""
    for prefix in app.prefixes:
        env = _environment(app.label(folder), app.id, folder.joinpath(*prefix.split("/")),
                           folder, plat)
        if env is not None:
            yield env
            return


# Portable wrappers: the bundled Python's folder, the program's folder beside it.
WRAPPERS: tuple[tuple[str, str, str], ...] = (
    # ComfyUI_windows_portable: .ci/windows_nvidia_base_files/run_nvidia_gpu.bat runs
    # .\python_embeded\python.exe -s ComfyUI\main.py; Fooocus_win64_*.7z (README "Windows")
    # has the same shape: python_embeded\ next to Fooocus\ (run.bat)
    ("python_embeded", "(portable)", ""),
    # one-click packages with system\python\ next to webui\: Forge (README: the
    # webui_forge_cu121_torch231.7z package, run.bat/environment.bat), A1111's sd.webui.zip
    # (README "Installation on Windows 10/11 with NVidia-GPUs using release package") and
    # FramePack's framepack_cu126_torch26 (README "Windows")
    ("system/python", "(one-click package)", "webui"),
)


def wrapped(folder: Path, entries: Entries, plat: Platform) -> Iterator[AppEnvironment]:
    """Programs in a portable wrapper: a bundled Python next to the program's folder."""
    for python_dir, suffix, inner_name in WRAPPERS:
        top = python_dir.split("/")[0]
        if top not in entries:
            continue
        inner_names = [inner_name] if inner_name else sorted(entries - {top})
        for name in inner_names:
            inner = folder / name
            if name not in entries or not _is_dir(inner):
                continue
            app = identify(inner)
            if app is None:
                continue
            env = _environment(f"{app.label(inner)} {suffix}", app.id,
                               folder.joinpath(*python_dir.split("/")), folder, plat)
            if env is not None:
                yield env
                break


def stability_matrix_packages(library: Path, plat: Platform) -> Iterator[AppEnvironment]:
    """StabilityMatrix's packages: ``<library>/Packages/<name>/venv`` (LykosAI/StabilityMatrix:
    each package is installed into its own folder with a venv made by its PyVenvRunner)."""
    for package in sorted(_subfolders(library / "Packages")):
        app = identify(package)
        name = app.label(package) if app is not None else package.name
        env = _environment(f"StabilityMatrix: {name}", app.id if app else "",
                           package / "venv", package, plat)
        if env is not None:
            yield env


def pinokio_apps(pinokio_home: Path, plat: Platform) -> Iterator[AppEnvironment]:
    """Pinokio's apps: ``<home>/api/<app>``; their install.js scripts run
    ``shell.run`` with ``venv: "env"`` and ``path: "app"``, so the venv is ``app/env``
    (pinokiocomputer/pinokio docs: "venv" is a path relative to the script's path)."""
    for folder in sorted(_subfolders(pinokio_home / "api")):
        code = folder / "app" if _is_dir(folder / "app") else folder
        app = identify(code)
        name = app.label(code) if app is not None else folder.name.removesuffix(".git")
        for prefix in ("app/env", "env", "app/venv", "venv", "app/.venv"):
            env = _environment(f"Pinokio: {name}", app.id if app else "",
                               folder.joinpath(*prefix.split("/")), folder, plat)
            if env is not None:
                yield env
                break


def _subfolders(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as it:
            return [Path(e.path) for e in it if _entry_is_dir(e)]
    except OSError:
        return []


def _entry_is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def recognise(folder: Path, plat: Platform,
              entries: Entries | None = None) -> list[AppEnvironment]:
    """The AI program environments whose markers are in ``folder`` itself."""
    e = listing(folder) if entries is None else entries
    found: list[AppEnvironment] = list(wrapped(folder, e, plat))
    app = identify(folder, e)
    if app is not None:
        found += own_environments(folder, app, plat)
    # StabilityMatrix portable: Data/.sm-portable next to the program (its Settings
    # manager: IsPortableMode = File.Exists(Path.Combine(appDir, "Data", ".sm-portable")))
    if "Data" in e and _is_file(folder / "Data" / ".sm-portable"):
        found += stability_matrix_packages(folder / "Data", plat)
    return found
