"""Linux and WSL2."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import platformdirs

from . import InterpreterHint


class LinuxPlatform:
    name = "linux"

    def python_in_prefix(self, prefix: Path) -> Path:
        return prefix / "bin" / "python"

    def registered_interpreters(self) -> list[InterpreterHint]:
        return []

    def has_display(self, environ: Mapping[str, str]) -> bool:
        if environ.get("QT_QPA_PLATFORM", "").split(":")[0] in {"offscreen", "minimal", "vnc"}:
            return True
        return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))

    def default_build_root(self) -> Path:
        return Path(platformdirs.user_cache_dir("kernel-setup-wizard", appauthor=False)) / "b"

    def interpreter_names(self) -> Sequence[str]:
        return ("python3", "python")
