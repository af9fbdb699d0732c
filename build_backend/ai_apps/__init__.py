"""Where popular AI programs keep their Python: the environments people want a kernel in.

Someone who double-clicked the wizard wants FlashAttention inside *ComfyUI* or *Forge*, not in a
Python they have never heard of. Each program keeps its own interpreter somewhere of its own:

- **ComfyUI portable** (Windows zip): ``ComfyUI_windows_portable/python_embeded/python.exe`` next
  to ``ComfyUI/``; **Fooocus** ships the same way (``python_embeded`` next to ``Fooocus/``).
- **ComfyUI Desktop**: ``config.json`` in its settings folder (``%APPDATA%\\ComfyUI``,
  ``~/.config/ComfyUI``, ``~/Library/Application Support/ComfyUI``) names ``basePath``; the
  venv is ``<basePath>/.venv``.
- **ComfyUI** from git with a venv: ``main.py`` and ``comfy/`` with ``venv``/``.venv``.
- **AUTOMATIC1111 / Forge / reForge / SD.Next**: ``webui.py`` or ``launch.py`` with ``venv/``;
  Forge's one-click package: ``system/python/python.exe`` next to ``webui/``.
- **text-generation-webui**: a conda env in ``installer_files/env`` next to ``server.py``.
- **InvokeAI**: ``invokeai.yaml`` with ``.venv/`` in its root folder.
- **StabilityMatrix**: packages under ``<library>/Packages/<name>/venv``; the library is
  ``library.json``'s ``LibraryPath`` in its settings folder (``%APPDATA%\\StabilityMatrix``,
  ``~/.config/StabilityMatrix``), the settings folder itself by default, or ``Data/`` next to
  a portable ``StabilityMatrix.exe``.
- **Pinokio**: apps under ``<home>/api/<app>``, their venvs at ``app/env`` or ``env``; the home
  is ``~/pinokio`` (or ``C:\\pinokio``) unless its config says otherwise.
- Plain venvs in the usual folders: ``~/.venvs``, ``~/venvs``, ``~/.virtualenvs``, ``~/envs``.

Portable programs are unpacked anywhere, so the usual places (home, Desktop, Downloads,
Documents, and on Windows each drive's root) are looked at two folders deep — directory
listings only, no recursion, nothing is run. Every interpreter found is still inspected before
use (:func:`build_backend.environment.inspect_python`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from .platforms import Platform

SCAN_DEPTH = 2  # levels below each search root that are listed
MAX_ENTRIES = 400  # per listed folder: a huge folder (Downloads) is only partly looked at
MAX_FOLDERS = 4000  # folders listed in one scan, whatever the roots hold
VENV_FOLDERS = (".venvs", "venvs", ".virtualenvs", "envs")


@dataclass(frozen=True)
class AppEnvironment:
    """An AI program's Python."""

    app: str  # "ComfyUI (portable)", "StabilityMatrix: ComfyUI"
    python: Path
    folder: Path  # the program's folder

    @property
    def origin(self) -> str:
        return f"{self.app} in {self.folder}"


def _listing(folder: Path) -> tuple[set[str], list[Path]]:
    """(every entry name, the sub-folders) of ``folder``; empty when it cannot be read."""
    names: set[str] = set()
    folders: list[Path] = []
    try:
        with os.scandir(folder) as it:
            for entry in it:
                if len(names) >= MAX_ENTRIES:
                    break
                names.add(entry.name)
                try:
                    if entry.is_dir() and not entry.name.startswith("$"):
                        folders.append(Path(entry.path))
                except OSError:
                    continue
    except OSError:
        pass
    return names, sorted(folders)


def _subdirs(folder: Path) -> list[Path]:
    return _listing(folder)[1]


def _webui_label(name: str) -> str:
    low = name.lower()
    if "reforge" in low:
        return "Stable Diffusion WebUI reForge"
    if "forge" in low:
        return "Stable Diffusion WebUI Forge"
    if low in {"automatic", "sdnext", "sd.next"}:
        return "SD.Next"
    return "AUTOMATIC1111 Stable Diffusion WebUI"


def recognise(folder: Path, plat: Platform,
              names: set[str] | None = None) -> Iterator[AppEnvironment]:
    """The AI program environments whose markers are in ``folder`` itself (``names``: its
    entries, when already listed)."""
    entries = names if names is not None else _listing(folder)[0]

    def has(*wanted: str) -> bool:
        return all(n in entries for n in wanted)

    def found(app: str, prefix: Path) -> Iterator[AppEnvironment]:
        python = plat.python_in_prefix(prefix)
        if python.is_file():
            yield AppEnvironment(app, python, folder)

    if has("python_embeded", "ComfyUI"):
        yield from found("ComfyUI (portable)", folder / "python_embeded")
    elif has("python_embeded", "Fooocus"):
        yield from found("Fooocus (portable)", folder / "python_embeded")
    if has("system", "webui") and (folder / "system" / "python").is_dir():
        yield from found("Stable Diffusion WebUI Forge (one-click package)",
                         folder / "system" / "python")
    if has("main.py", "comfy"):
        for venv in ("venv", ".venv"):
            if (folder / venv).is_dir():
                yield from found("ComfyUI", folder / venv)
                break
    if (has("webui.py") or has("launch.py")) and (folder / "venv").is_dir() and not has("comfy"):
        yield from found(_webui_label(folder.name), folder / "venv")
    if has("installer_files") and (has("server.py") or has("one_click.py")):
        yield from found("text-generation-webui", folder / "installer_files" / "env")
    if has("invokeai.yaml", ".venv"):
        yield from found("InvokeAI", folder / ".venv")
    if has("Data", "StabilityMatrix.exe") or has("Data", "StabilityMatrix.AppImage"):
        yield from _stability_matrix_packages(folder / "Data", plat)


def _stability_matrix_packages(library: Path, plat: Platform) -> Iterator[AppEnvironment]:
    for package in _subdirs(library / "Packages"):
        python = plat.python_in_prefix(package / "venv")
        if python.is_file():
            yield AppEnvironment(f"StabilityMatrix: {package.name}", python, package)


def _read_json(path: Path) -> Mapping[str, object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def settings_folders(name: str, environ: Mapping[str, str], home: Path) -> list[Path]:
    """Where a desktop program called ``name`` keeps its settings, per OS convention."""
    folders = []
    if environ.get("APPDATA"):
        folders.append(Path(environ["APPDATA"]) / name)
    folders.append(Path(environ.get("XDG_CONFIG_HOME") or home / ".config") / name)
    folders.append(home / "Library" / "Application Support" / name)
    return folders


def _comfyui_desktop(environ: Mapping[str, str], home: Path,
                     plat: Platform) -> Iterator[AppEnvironment]:
    for folder in settings_folders("ComfyUI", environ, home):
        base = _read_json(folder / "config.json").get("basePath")
        if isinstance(base, str) and base:
            python = plat.python_in_prefix(Path(base) / ".venv")
            if python.is_file():
                yield AppEnvironment("ComfyUI Desktop", python, Path(base))


def _stability_matrix(environ: Mapping[str, str], home: Path,
                      plat: Platform) -> Iterator[AppEnvironment]:
    for folder in settings_folders("StabilityMatrix", environ, home):
        library = _read_json(folder / "library.json").get("LibraryPath")
        yield from _stability_matrix_packages(
            Path(library) if isinstance(library, str) and library else folder, plat)


def _pinokio(environ: Mapping[str, str], home: Path, roots: Iterable[Path],
             plat: Platform) -> Iterator[AppEnvironment]:
    homes = [home / "pinokio"] + [root / "pinokio" for root in roots]
    for config in (home / ".pinokio" / "config.json", *(
            f / "config.json" for f in settings_folders("Pinokio", environ, home))):
        configured = _read_json(config).get("home")
        if isinstance(configured, str) and configured:
            homes.insert(0, Path(configured))
    for pinokio_home in dict.fromkeys(homes):
        for app in _subdirs(pinokio_home / "api"):
            for prefix in (app / "app" / "env", app / "env", app / "app" / "venv", app / "venv"):
                python = plat.python_in_prefix(prefix)
                if python.is_file():
                    name = app.name.removesuffix(".git")
                    yield AppEnvironment(f"Pinokio: {name}", python, app)
                    break


def _plain_venvs(home: Path, plat: Platform) -> Iterator[AppEnvironment]:
    for holder in VENV_FOLDERS:
        for venv in _subdirs(home / holder):
            python = plat.python_in_prefix(venv)
            if python.is_file() and (venv / "pyvenv.cfg").is_file():
                yield AppEnvironment(f"virtual environment '{venv.name}'", python, venv)


def search_roots(home: Path, environ: Mapping[str, str], drives: Iterable[Path] = ()) -> list[Path]:
    """Where portable programs are usually unpacked."""
    roots = [home, home / "Desktop", home / "Downloads", home / "Documents", home / "AI"]
    if environ.get("OneDrive"):
        roots += [Path(environ["OneDrive"]) / "Desktop", Path(environ["OneDrive"]) / "Documents"]
    roots += list(drives)
    return [r for r in dict.fromkeys(roots) if r.is_dir()]


def drive_roots(environ: Mapping[str, str]) -> list[Path]:
    """Windows: the root of every drive that exists (C:\\, D:\\ ...), where portable programs
    are often unpacked; elsewhere (no ``SystemDrive`` variable) none."""
    if not environ.get("SystemDrive"):
        return []
    roots = []
    for letter in "CDEFGHIJKLMNOPQRSTUVWXYZ":
        root = Path(f"{letter}:\\")
        try:
            if root.is_dir():
                roots.append(root)
        except OSError:
            continue
    return roots


def _scan(roots: Iterable[Path], plat: Platform) -> Iterator[AppEnvironment]:
    level = list(roots)
    seen: set[Path] = set()
    for depth in range(SCAN_DEPTH + 1):
        following: list[Path] = []
        for folder in level:
            if folder in seen or len(seen) >= MAX_FOLDERS:
                continue
            seen.add(folder)
            names, folders = _listing(folder)
            yield from recognise(folder, plat, names)
            if depth < SCAN_DEPTH:
                following.extend(d for d in folders if not d.name.startswith("."))
        level = following


def find_app_environments(
    plat: Platform,
    environ: Mapping[str, str],
    home: Path,
    drives: Iterable[Path] = (),
) -> list[AppEnvironment]:
    """Every AI program environment found, without duplicates, in a stable order."""
    roots = search_roots(home, environ, [*drives, *drive_roots(environ)])
    found: dict[str, AppEnvironment] = {}
    sources: Iterable[Iterator[AppEnvironment]] = (
        _comfyui_desktop(environ, home, plat),
        _stability_matrix(environ, home, plat),
        _pinokio(environ, home, roots, plat),
        _scan(roots, plat),
        _plain_venvs(home, plat),
    )
    for source in sources:
        for env in source:
            key = os.path.normcase(os.path.abspath(str(env.python)))
            found.setdefault(key, env)
    return list(found.values())
