"""Is it actually used? How an AI program is told to use a kernel installed into its Python.

A kernel in ComfyUI's Python does nothing until ComfyUI is started with
``--use-sage-attention``; FramePack picks it up by itself; Forge has no option for it at all.
The facts, with their sources, are data: ``resources/apps/<app id>.toml`` (see its README).
The wizard only tells: it never edits a program's settings or start scripts.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from kernel_wizard.base.resources import resources_root
from kernel_wizard.machine.ai_apps.layouts import APP_BY_ID, App, identify
from kernel_wizard.machine.ai_apps.venvs import prefix_of

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]


@dataclass(frozen=True)
class UseHint:
    """How one program is told to use one kernel (the sentences are translated by the GUI:
    scripts/translations.py collects them from the data files)."""

    app_id: str
    app_name: str
    how: str
    check: str = ""
    docs: str = ""  # the program's own documentation of it (a link for a person)
    source: str = ""  # where the fact comes from

    def lines(self) -> list[str]:
        """For a terminal."""
        out = [f"Is it used? {self.app_name}: {self.how}"]
        if self.check:
            out.append(f"  To see that it is: {self.check}")
        if self.docs:
            out.append(f"  {self.app_name}'s documentation: {self.docs}")
        return out


def apps_folder() -> Path:
    return resources_root() / "apps"


@cache
def _load(app_id: str) -> dict[str, object]:
    path = apps_folder() / f"{app_id}.toml"
    try:
        data: dict[str, object] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data


def how_to_use(app_id: str, kernel: str) -> UseHint | None:
    """How the program ``app_id`` is told to use ``kernel`` (a recipe id); None when the
    wizard has no facts about the program."""
    data = _load(app_id)
    if not data:
        return None
    name = str(data.get("name") or app_id)
    docs = str(data.get("docs") or "")
    uses = data.get("use")
    for use in uses if isinstance(uses, list) else []:
        if isinstance(use, dict) and kernel in use.get("kernels", ()):
            return UseHint(app_id, name, str(use["how"]), str(use.get("check") or ""), docs,
                           str(use.get("source") or ""))
    other = data.get("other")
    if isinstance(other, dict) and other.get("how"):
        return UseHint(app_id, name, str(other["how"]), "", docs, str(other.get("source") or ""))
    return None


def workload_of_app(app_id: str) -> str:
    """What the program ``app_id`` runs attention for ("llm", "image", "video"), from its data
    file; "" when the wizard has no such fact."""
    workload = _load(app_id).get("workload") if app_id else None
    return workload if isinstance(workload, str) else ""


def workload_for_python(python: Path, app_id: str = "") -> tuple[str, str]:
    """(workload, the program's name) for the program whose Python ``python`` is (``app_id``
    when known already); ("", "") for a Python of no known program."""
    if not app_id:
        app = app_of_python(python)
        app_id = app.id if app is not None else ""
    workload = workload_of_app(app_id) if app_id in APP_BY_ID else ""
    return (workload, APP_BY_ID[app_id].name) if workload else ("", "")


def app_of_python(python: Path) -> App | None:
    """The program whose Python ``python`` is, from the folders around it (its environment's
    folder, the program's folder, a portable wrapper, a StabilityMatrix package, a Pinokio
    app): the same markers as the search. None for a Python of no known program."""
    prefix = prefix_of(python)
    folders = [prefix.parent, *list(prefix.parent.parents)[:4]]
    found = [app for app in map(identify, folders) if app is not None]
    if found:
        return found[-1]  # the outermost: SwarmUI's dlbackend/ComfyUI is SwarmUI's backend
    for folder in folders:  # the program's folder beside the Python: portable wrappers
        for inner in ("ComfyUI", "Fooocus", "webui", "app"):
            app = identify(folder / inner)
            if app is not None:
                return app
    return None


def hint_for_python(python: Path, kernel: str, app_id: str = "") -> UseHint | None:
    """The hint for the program whose Python got ``kernel`` (``app_id`` when known already)."""
    if not app_id:
        app = app_of_python(python)
        app_id = app.id if app is not None else ""
    return how_to_use(app_id, kernel) if app_id in APP_BY_ID else None
