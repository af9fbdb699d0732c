"""Where the data shipped with the program lives, frozen or from source, and the folders of
kernels that are not shipped with it.

A kernel is one recipe (``resources/recipes/<id>.toml``) and one verification adapter
(``resources/verify/adapters/<name>.py``); no Python code of the wizard names it. A kernel of
one's own can live outside the program: :data:`EXTRA_KERNELS_ENV` names folders (separated
like ``PATH``), each with a ``recipes/`` and/or an ``adapters/`` folder laid out as the shipped
ones. Their recipes join the catalog (a shipped recipe's id cannot be taken), their adapters
join the harness's (``--adapter-path``), as if they were shipped."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from kernel_wizard.base.errors import ResourceMissingError


def resources_root() -> Path:
    """The ``resources/`` folder: inside a PyInstaller bundle or next to the source tree."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def resource_path(*parts: str) -> Path:
    """A file or folder under ``resources/``; raises a clear error when it is missing."""
    path = resources_root().joinpath(*parts)
    if not path.exists():
        raise ResourceMissingError(
            f"A file the wizard needs is missing: {path}",
            why="The installation or the bundle is incomplete.",
            hint="Reinstall the Kernel Setup Wizard (or download the bundle again).",
        )
    return path


def is_frozen() -> bool:
    """True when running from a PyInstaller bundle (sys.executable is then the wizard itself)."""
    return bool(getattr(sys, "frozen", False))


EXTRA_KERNELS_ENV = "KSW_EXTRA_KERNELS"


def extra_kernel_folders() -> tuple[Path, ...]:
    """The folders :data:`EXTRA_KERNELS_ENV` names, in its order (empty entries ignored)."""
    text = os.environ.get(EXTRA_KERNELS_ENV, "")
    return tuple(Path(part) for part in text.split(os.pathsep) if part.strip())


def extra_recipe_folders() -> tuple[Path, ...]:
    """The ``recipes/`` folders of the extra kernel folders that have one."""
    return tuple(f / "recipes" for f in extra_kernel_folders() if (f / "recipes").is_dir())


def extra_adapter_folders() -> tuple[Path, ...]:
    """The ``adapters/`` folders of the extra kernel folders that have one."""
    return tuple(f / "adapters" for f in extra_kernel_folders() if (f / "adapters").is_dir())
