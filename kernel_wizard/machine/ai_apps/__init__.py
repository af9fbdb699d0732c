"""Where popular AI programs keep their Python: the environments people want a kernel in.

Someone who double-clicked the wizard wants FlashAttention inside *ComfyUI* or *Forge*, not in a
Python they have never heard of. Each program keeps its own interpreter somewhere of its own;
:mod:`.layouts` knows each program by its own files and where its Python is, citing the
program's install scripts. Found here:

- programs that say where they are: **ComfyUI Desktop** (``config.json``'s ``basePath`` in its
  settings folder; the venv is ``<basePath>/.venv``, Comfy-Org/desktop
  src/virtualEnvironment.ts), **StabilityMatrix** (``library.json``'s ``LibraryPath`` in its
  settings folder, the settings folder itself by default; packages under
  ``<library>/Packages/<name>/venv``), **Pinokio** (``~/pinokio`` or the ``home`` of its
  config; apps under ``<home>/api/<app>``);
- portable and cloned programs anywhere in the likely places, looked at up to two folders
  deep: the home folder's own entries, Desktop, Downloads, Documents, ``AI``; second disks
  (Linux: the folders under ``/mnt``, ``/media/$USER``, ``/run/media/$USER``; Windows: every
  drive's root);
- plain venvs in ``~/.venvs``, ``~/venvs``, ``~/.virtualenvs``, ``~/envs``, and conda envs
  (:func:`.markers.conda_prefixes`): those whose installed packages name a program
  (:mod:`.markers`: ``pip install open-webui`` into any venv is Open WebUI, the documented
  ``conda create -n wan2gp`` env is Wan2GP) are that program's Python.

Likely places come first and every folder's entries are read whole, so directory order never
decides what is found; when the scan's budget (folders listed, seconds) runs out, the result
says so (:attr:`ScanResult.limits`) instead of dropping programs without a word. Folders are
compared after resolving symbolic links, so a linked folder lists its program once. A venv
whose base Python was removed is listed with the reason (:mod:`.venvs`). Nothing is run;
every interpreter found is still inspected before use
(:func:`kernel_wizard.machine.environment.inspect_python`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.messages import Msg, msg
from kernel_wizard.machine.ai_apps.layouts import (
    APP_BY_ID,
    APPS,
    AppEnvironment,
    identify,
    listing,
    pinokio_apps,
    recognise,
    stability_matrix_packages,
)
from kernel_wizard.machine.ai_apps.markers import conda_environments, environment_app
from kernel_wizard.machine.ai_apps.venvs import broken_venv, has_python, prefix_of
from kernel_wizard.machine.platforms import Platform

__all__ = [
    "APPS", "APP_BY_ID", "AppEnvironment", "FolderChoice", "NoPythonInFolder", "ScanResult",
    "environment_app", "environments_in_folder", "python_argument", "python_in_folder",
    "find_app_environments", "identify", "recognise", "scan_app_environments",
]

SCAN_DEPTH = 2  # levels below each search root that are looked at
MAX_FOLDERS = 6000  # folders listed in one scan
SCAN_SECONDS = 8.0  # and at most this long (a slow network drive)
VENV_FOLDERS = (".venvs", "venvs", ".virtualenvs", "envs")
# never looked into below a root: the system's own folders, caches, packages
SKIPPED = frozenset({
    "windows", "program files", "program files (x86)", "programdata", "$recycle.bin",
    "system volume information", "recovery", "perflogs", "appdata", "node_modules",
    "__pycache__", "site-packages", "lost+found", "snap", "proc", "sys", "dev",
})
# names that make a folder worth looking into first (the order only; labels come from markers)
LIKELY = ("comfy", "forge", "webui", "stable", "diffusion", "sd", "ai", "fooocus", "swarm",
          "invoke", "kohya", "text-gen", "textgen", "pinokio", "stability", "framepack", "wan",
          "portable", "llm", "gen")


@dataclass
class ScanResult:
    """The programs found, and what the scan could not look at."""

    environments: list[AppEnvironment] = field(default_factory=list)
    limits: list[Msg] = field(default_factory=list)  # one sentence per limit hit


def _read_json(path: Path) -> Mapping[str, object]:
    try:
        data = read_json_file(path, encoding='utf-8-sig')
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
    # Comfy-Org/desktop: config.json (basePath, installState) in the app's userData folder;
    # src/virtualEnvironment.ts: venvPath = path.join(basePath, '.venv')
    for folder in settings_folders("ComfyUI", environ, home):
        base = _read_json(folder / "config.json").get("basePath")
        if isinstance(base, str) and base:
            python = plat.python_in_prefix(Path(base) / ".venv")
            if has_python(python):
                broken = broken_venv(python)
                yield AppEnvironment("ComfyUI Desktop", python, Path(base), "comfyui",
                                     str(broken.summary) if broken else "")


def _stability_matrix(environ: Mapping[str, str], home: Path,
                      plat: Platform) -> Iterator[AppEnvironment]:
    # LykosAI/StabilityMatrix: library.json's LibraryPath in %APPDATA%\StabilityMatrix
    # (~/.config/StabilityMatrix), else the settings folder itself is the library
    for folder in settings_folders("StabilityMatrix", environ, home):
        library = _read_json(folder / "library.json").get("LibraryPath")
        yield from stability_matrix_packages(
            Path(library) if isinstance(library, str) and library else folder, plat)


def _pinokio(environ: Mapping[str, str], home: Path, roots: Iterable[Path],
             plat: Platform) -> Iterator[AppEnvironment]:
    # pinokiocomputer/pinokio: the home folder is chosen at first start (default ~/pinokio,
    # on Windows often C:\pinokio) and kept as "home" in its config
    homes = [home / "pinokio"] + [root / "pinokio" for root in roots]
    for config in (home / ".pinokio" / "config.json", *(
            f / "config.json" for f in settings_folders("Pinokio", environ, home))):
        configured = _read_json(config).get("home")
        if isinstance(configured, str) and configured:
            homes.insert(0, Path(configured))
    for pinokio_home in dict.fromkeys(homes):
        yield from pinokio_apps(pinokio_home, plat)


def _plain_venvs(home: Path, plat: Platform) -> Iterator[AppEnvironment]:
    for holder in VENV_FOLDERS:
        for venv in sorted(_subfolders(home / holder)):
            python = plat.python_in_prefix(venv)
            if has_python(python) and (venv / "pyvenv.cfg").is_file():
                app_env = environment_app(venv, plat, f"venv '{venv.name}'")
                if app_env is not None:  # pip install open-webui into ~/.venvs/x
                    yield app_env
                    continue
                broken = broken_venv(python)
                yield AppEnvironment(f"virtual environment '{venv.name}'", python, venv, "",
                                     str(broken.summary) if broken else "")


def _subfolders(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as it:
            return [Path(e.path) for e in it if _is_dir_entry(e)]
    except OSError:
        return []


def _is_dir_entry(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def search_roots(home: Path, environ: Mapping[str, str], drives: Iterable[Path] = ()) -> list[Path]:
    """Where programs are usually unpacked or cloned, most likely first."""
    roots = [home / "Desktop", home / "Downloads", home / "Documents", home / "AI", home]
    if environ.get("OneDrive"):
        roots += [Path(environ["OneDrive"]) / "Desktop", Path(environ["OneDrive"]) / "Documents"]
    roots += list(drives)
    return [r for r in dict.fromkeys(roots) if _is_dir(r)]


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


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


def mount_roots(environ: Mapping[str, str], fs_root: Path = Path("/")) -> list[Path]:
    """Linux: second disks where desktops and admins mount them: every folder under ``/mnt``,
    ``/media/$USER`` and ``/run/media/$USER`` (udisks2's places; ``/media/<disk>`` on older
    systems). Windows has no such folders: none."""
    user = environ.get("USER") or environ.get("LOGNAME") or ""
    holders = [fs_root / "mnt"]
    if user:
        holders += [fs_root / "media" / user, fs_root / "run" / "media" / user]
    holders.append(fs_root / "media")
    mounts: list[Path] = []
    for holder in holders:
        for mount in sorted(_subfolders(holder)):
            if holder.name == "media" and user and mount.name == user:
                continue  # /media/$USER itself is a holder, listed above
            mounts.append(mount)
    return mounts


def _real(path: Path) -> str:
    try:
        return os.path.normcase(os.path.realpath(path))
    except (OSError, ValueError):
        return os.path.normcase(os.path.abspath(path))


def python_key(python: Path) -> str:
    """One key per environment: its folder with symbolic links resolved (a linked folder
    lists its program once), the interpreter's own name not (a venv's python is a link to its
    base Python, yet another environment)."""
    return os.path.join(_real(python.parent), os.path.normcase(python.name))


def _likely_first(folder: Path) -> tuple[int, str]:
    name = folder.name.lower()
    return (0 if any(word in name for word in LIKELY) else 1, name)


class _Budget:
    def __init__(self, folders: int, seconds: float) -> None:
        self.folders = folders
        self.deadline = time.monotonic() + seconds
        self.listed = 0

    def spent(self) -> bool:
        return self.listed >= self.folders or time.monotonic() > self.deadline


def _scan(roots: list[Path], plat: Platform, budget: _Budget,
          limits: list[Msg]) -> Iterator[AppEnvironment]:
    """Breadth first: every root, then every root's folders, then theirs; within a level the
    folders of likelier roots first, likely names first. What the budget leaves is named."""
    level: list[tuple[int, Path]] = [(rank, root) for rank, root in enumerate(roots)]
    seen: set[str] = set()
    for depth in range(SCAN_DEPTH + 1):
        following: list[tuple[int, Path]] = []
        left: list[Path] = []
        for rank, folder in level:
            key = _real(folder)
            if key in seen:
                continue
            if budget.spent():
                left.append(folder)
                continue
            seen.add(key)
            budget.listed += 1
            entries = listing(folder)
            found = recognise(folder, plat, entries)
            yield from found
            if found or identify(folder, entries) is not None or depth == SCAN_DEPTH:
                continue  # a program's own folder: nothing else to find inside
            children = [folder / name for name in entries
                        if not name.startswith((".", "$")) and name.lower() not in SKIPPED]
            dirs = sorted((c for c in children if _is_dir(c)), key=_likely_first)
            following.extend((rank, child) for child in dirs)
        if left:
            limits.append(_limit_sentence(left))
            return
        following.sort(key=lambda item: (item[0], _likely_first(item[1])))
        level = following


def _limit_sentence(left: list[Path]) -> Msg:
    """One plain sentence for the folders the search had no time for (no plural forms in the
    translations: one sentence for one folder, one for several)."""
    if len(left) == 1:
        return msg("The search for AI programs stopped early and did not look in {example}; "
                   "if a program is there, add that folder yourself.", example=str(left[0]))
    return msg("The search for AI programs stopped early and did not look in {left} folders "
               "(for example {example}); if a program is in one of them, add its folder "
               "yourself.", left=len(left), example=str(left[0]))


def scan_app_environments(
    plat: Platform,
    environ: Mapping[str, str],
    home: Path,
    drives: Iterable[Path] = (),
    *,
    mounts: Iterable[Path] | None = None,
    max_folders: int = MAX_FOLDERS,
    seconds: float = SCAN_SECONDS,
) -> ScanResult:
    """Every AI program environment found, without duplicates, in a stable order, and the
    limits the search hit (``mounts``: second disks' folders, default :func:`mount_roots`)."""
    extra = list(mounts) if mounts is not None else mount_roots(environ)
    roots = search_roots(home, environ, [*extra, *drives, *drive_roots(environ)])
    result = ScanResult()
    found: dict[str, AppEnvironment] = {}
    budget = _Budget(max_folders, seconds)
    sources: Iterable[Iterator[AppEnvironment]] = (
        _comfyui_desktop(environ, home, plat),
        _stability_matrix(environ, home, plat),
        _pinokio(environ, home, roots, plat),
        _scan(roots, plat, budget, result.limits),
        conda_environments(environ, home, plat),
        _plain_venvs(home, plat),
    )
    for source in sources:
        for env in source:
            found.setdefault(python_key(env.python), env)
    result.environments = list(found.values())
    return result


def find_app_environments(
    plat: Platform,
    environ: Mapping[str, str],
    home: Path,
    drives: Iterable[Path] = (),
    mounts: Iterable[Path] | None = None,
) -> list[AppEnvironment]:
    """Every AI program environment found (see :func:`scan_app_environments`)."""
    return scan_app_environments(plat, environ, home, drives, mounts=mounts).environments


def environments_in_folder(folder: Path, plat: Platform) -> list[AppEnvironment]:
    """The Pythons of the AI program in a folder the user chose ("Add a folder…",
    ``--python DIR``), by the same layout rules as the search: the program's folder or its
    portable wrapper, a program's folder inside a wrapper (``ComfyUI_windows_portable/ComfyUI``
    finds ``python_embeded`` beside it), an environment folder itself (``ComfyUI/venv``), a
    StabilityMatrix library or data folder, a Pinokio home, or any program one level down."""
    found: dict[str, AppEnvironment] = {}

    def add(envs: Iterable[AppEnvironment]) -> None:
        for env in envs:
            found.setdefault(python_key(env.python), env)

    add(recognise(folder, plat))
    if not found:  # an environment folder itself: venv/, .venv, python_embeded/, a conda env
        python = plat.python_in_prefix(folder)
        if has_python(python):
            owner = folder.parent
            app = identify(owner)
            wrapped_here = [e for e in recognise(owner, plat) if prefix_of(e.python) == folder]
            by_markers = environment_app(folder, plat, f"environment '{folder.name}'")
            if wrapped_here:
                add(wrapped_here)
            elif app is None and by_markers is not None:  # a conda env or venv of its own
                add([by_markers])
            else:
                broken = broken_venv(python)
                label = app.label(owner) if app is not None else f"environment '{folder.name}'"
                add([AppEnvironment(label, python, owner if app else folder,
                                    app.id if app else "", str(broken.summary) if broken else "")])
    if not found:  # a program's folder inside a portable wrapper
        add(e for e in recognise(folder.parent, plat) if folder.parent != folder)
    if not found:  # a StabilityMatrix library (or its Data folder), a Pinokio home
        add(stability_matrix_packages(folder, plat))
        add(pinokio_apps(folder, plat))
    if not found:  # programs one level down
        for child in sorted(_subfolders(folder)):
            add(recognise(child, plat))
    return list(found.values())


class NoPythonInFolder(LookupError):
    """A folder the user named holds no Python the layout rules know."""


@dataclass(frozen=True)
class FolderChoice:
    """The Pythons found in a folder the user named; the first is used."""

    folder: Path
    environments: tuple[AppEnvironment, ...]

    @property
    def chosen(self) -> AppEnvironment:
        return self.environments[0]

    def sentence(self) -> str:
        env = self.chosen
        others = [e.app for e in self.environments[1:]]
        also = f" (also in this folder: {', '.join(others)}; name one's python to use it)" \
            if others else ""
        return f"{self.folder} is {env.app}: using its Python {env.python}{also}."


def python_in_folder(folder: Path, plat: Platform | None = None) -> FolderChoice:
    """The Python of the AI program in ``folder`` (:func:`environments_in_folder`); raises
    :class:`NoPythonInFolder` with a sentence a person can act on when there is none."""
    from kernel_wizard.machine.platforms import current

    envs = environments_in_folder(folder, plat if plat is not None else current())
    if not envs:
        names = ", ".join(dict.fromkeys(app.name.split(" (")[0] for app in APPS))
        raise NoPythonInFolder(
            f"{folder} holds no Python of an AI program the wizard knows ({names}, "
            "StabilityMatrix, Pinokio, ComfyUI Desktop) and is no environment folder (venv, "
            ".venv, python_embeded, a conda env). Give the python executable itself.")
    return FolderChoice(folder, tuple(envs))


def python_argument(text: str) -> Path:
    """``--python PATH``: an interpreter, or a folder (an AI program's folder, its portable
    wrapper, an environment folder), resolved by the layout rules; says on stderr which
    Python a folder stands for."""
    import argparse
    import sys

    path = Path(text)
    if not _is_dir(path):
        return path
    try:
        choice = python_in_folder(path)
    except NoPythonInFolder as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    print(choice.sentence(), file=sys.stderr)
    return choice.chosen.python
