"""Where the data shipped with the program lives, frozen or from source."""

from __future__ import annotations

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
