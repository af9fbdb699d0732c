"""Which AI program an environment belongs to, by what is installed in it.

Several programs are installed with pip into an environment of the user's own choosing: a conda
env whose name the program's docs suggest, or any venv (``~/.venvs/x``). The env's *name* says
nothing reliable (``conda create -n myenv`` works as well), so an environment is recognised by
the program's own files inside it:

- the program's own distribution (``<name>-<version>.dist-info`` / ``.egg-info`` in
  site-packages) or its console script (``bin/<name>``, ``Scripts\\<name>.exe``);
- for a program run from a git clone (``python wgp.py``), a package that only this program
  installs, or an editable install of the clone itself (pip's ``direct_url.json``, PEP 610,
  points at the folder, which is then recognised by :func:`.layouts.identify`).

Documented conda envs, each cited:

- Open WebUI: docs.openwebui.com "Install with Conda" (open-webui/docs,
  docs/getting-started/quick-start: ``conda create -n open-webui python=3.11``,
  ``pip install open-webui``, ``open-webui serve``) and its venv variant (``python3 -m venv
  venv``, ``pip install open-webui``): the ``open-webui`` distribution and console script;
- InvokeAI: docs/installation/manual.md: ``uv venv ... .venv`` then ``uv pip install invokeai``
  (any venv works): the ``invokeai`` distribution and the ``invokeai-web`` script;
- Wan2GP: README "Installation": ``conda create -n wan2gp python=3.10.9`` (later
  ``python=3.11.14``), then ``pip install -r requirements.txt`` in the clone; the first line of
  requirements.txt is ``mmgp==...``, deepbeepmeep's own "Memory Management for the GPU Poor"
  package (his older ports such as HunyuanVideoGP and YuEGP use it too; their envs are then
  called Wan2GP as well);
- text-generation-webui: README "Manual installation using Conda": ``conda create -n textgen
  python=3.11``, ``pip install -r requirements/full/requirements.txt``, which installs
  ``llama_cpp_binaries`` from oobabooga/llama-cpp-binaries' releases (built for this program);
- kohya_ss: requirements.txt ends with ``-e ./sd-scripts`` (older versions: ``.``), an
  editable install of its ``library`` package whose ``direct_url.json`` names the clone;
- FramePack: README "Linux": "an independent Python 3.10" with ``pip install -r
  requirements.txt``: only common packages (diffusers, transformers, gradio...), nothing of
  its own, so its env cannot be told from any other; it stays a plain environment (the clone's
  own ``venv``/``.venv`` is found by :mod:`.layouts`).

Only directory listings and small metadata files are read; nothing is run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.machine.ai_apps.layouts import APP_BY_ID, AppEnvironment, identify
from kernel_wizard.machine.ai_apps.venvs import broken_venv, has_python
from kernel_wizard.machine.platforms import Platform


@dataclass(frozen=True)
class EnvMarker:
    """What an environment of one program has installed."""

    app_id: str
    distributions: tuple[str, ...] = ()  # normalised names (PEP 503): any one is enough
    scripts: tuple[str, ...] = ()  # console scripts: any one is enough


# In order: the first match names the program (the program's own package before a helper).
MARKERS: tuple[EnvMarker, ...] = (
    EnvMarker("open-webui", ("open-webui",), ("open-webui",)),
    EnvMarker("invokeai", ("invokeai",), ("invokeai-web",)),
    EnvMarker("text-generation-webui", ("llama-cpp-binaries",)),
    EnvMarker("wan2gp", ("mmgp",)),
)

_NAME = re.compile(r"^(?P<name>[^-]+)-.*\.(?:dist-info|egg-info)$", re.IGNORECASE)


def normalise(name: str) -> str:
    """PEP 503: ``Open_WebUI`` -> ``open-webui``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _listing(folder: Path) -> list[str]:
    try:
        with os.scandir(folder) as it:
            return [entry.name for entry in it]
    except OSError:
        return []


def site_packages(prefix: Path) -> list[Path]:
    """The environment's site-packages folders: ``lib/pythonX.Y/site-packages`` (Linux venvs
    and conda envs), ``Lib/site-packages`` (Windows)."""
    found = [prefix / "Lib" / "site-packages"]
    for lib in ("lib", "lib64"):
        found += [prefix / lib / name / "site-packages" for name in _listing(prefix / lib)
                  if name.startswith("python")]
    return [folder for folder in found if folder.is_dir()]


@dataclass(frozen=True)
class Installed:
    """What an environment has installed: distribution names, and the folders its editable or
    local installs came from (PEP 610 ``direct_url.json``)."""

    names: frozenset[str]
    sources: tuple[Path, ...]


def installed(prefix: Path) -> Installed:
    names: set[str] = set()
    sources: list[Path] = []
    for folder in site_packages(prefix):
        for entry in _listing(folder):
            match = _NAME.match(entry)
            if match is None:
                continue
            names.add(normalise(match.group("name")))
            source = _direct_url_folder(folder / entry / "direct_url.json")
            if source is not None:
                sources.append(source)
    return Installed(frozenset(names), tuple(sources))


def _direct_url_folder(path: Path) -> Path | None:
    """The local folder a distribution was installed from (``file://`` URL), or None."""
    try:
        data = read_json_file(path)
    except (OSError, ValueError):
        return None
    url = data.get("url") if isinstance(data, dict) else None
    if not isinstance(url, str) or not url.startswith("file:"):
        return None
    parsed = urlparse(url)
    text = unquote(parsed.path)
    if re.match(r"^/[A-Za-z]:", text):  # file:///C:/... on Windows
        text = text[1:]
    return Path(text)


def _has_script(prefix: Path, name: str) -> bool:
    return any((prefix / sub / exe).is_file()
               for sub, exe in (("bin", name), ("Scripts", f"{name}.exe")))


def is_environment(prefix: Path) -> bool:
    """A venv (``pyvenv.cfg``) or a conda env (``conda-meta``): never a system Python, whose
    site-packages may hold anything."""
    return (prefix / "pyvenv.cfg").is_file() or (prefix / "conda-meta").is_dir()


def app_of_environment(prefix: Path) -> tuple[str, Path | None] | None:
    """The program whose markers are installed in the environment ``prefix``: its id and, when
    known, its folder (an editable install of the program's clone); None for none."""
    if not is_environment(prefix):
        return None
    have = installed(prefix)
    for source in have.sources:  # an editable install of the program's clone (kohya_ss)
        for folder in (source, source.parent):
            app = identify(folder)
            if app is not None:
                return app.id, folder
    for marker in MARKERS:
        if have.names & set(marker.distributions) or any(
                _has_script(prefix, script) for script in marker.scripts):
            return marker.app_id, None
    return None


def environment_app(prefix: Path, plat: Platform, kind: str) -> AppEnvironment | None:
    """The environment ``prefix`` as a program's Python when its markers say whose it is
    (``kind``: how it was found, for the label: "conda env 'wan2gp'", "venv 'x'")."""
    python = plat.python_in_prefix(prefix)
    if not has_python(python):
        return None
    found = app_of_environment(prefix)
    if found is None:
        return None
    app_id, folder = found
    app = APP_BY_ID[app_id]
    name = app.label(folder) if folder is not None else app.name
    broken = broken_venv(python)
    label = f"{name}, {kind}" if name.endswith(")") else f"{name} ({kind})"
    return AppEnvironment(label, python, folder or prefix, app_id,
                          str(broken.summary) if broken else "")


def conda_prefixes(environ: Mapping[str, str], home: Path) -> Iterator[Path]:
    """Every conda env this user has: those conda lists in ``~/.conda/environments.txt`` (conda
    writes every env it creates there: conda/core/envs_manager.py, ``register_env``), and the
    ``envs/`` folders of the installation that is active (``CONDA_EXE``) and of the usual
    install places (Miniconda's, Anaconda's and Miniforge's installers default to
    ``~/miniconda3``, ``~/anaconda3``, ``~/miniforge3``; ``~/.conda/envs`` for envs made
    without write access to the installation)."""
    try:
        lines = (home / ".conda" / "environments.txt").read_text(
            encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    for line in lines:
        if line.strip():
            yield Path(line.strip())
    roots = [home / name for name in ("miniconda3", "anaconda3", "miniforge3", "mambaforge",
                                      ".conda")]
    if environ.get("CONDA_EXE"):
        roots.insert(0, Path(environ["CONDA_EXE"]).parent.parent)
    for root in dict.fromkeys(roots):
        for name in sorted(_listing(root / "envs")):
            yield root / "envs" / name


def conda_environments(environ: Mapping[str, str], home: Path,
                       plat: Platform) -> Iterator[AppEnvironment]:
    """The conda envs whose markers name a program (the others are plain conda envs)."""
    for prefix in dict.fromkeys(conda_prefixes(environ, home)):
        env = environment_app(prefix, plat, f"conda env '{prefix.name}'")
        if env is not None:
            yield env
