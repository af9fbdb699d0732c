"""Linux and WSL2."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import platformdirs

from . import InterpreterHint


class LinuxPlatform:
    name = "linux"
    host_include_var = "CPLUS_INCLUDE_PATH"

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

    def cuda_toolkit_folders(self) -> list[Path]:
        found: list[Path] = []
        for base in (Path("/usr/local"), Path("/opt")):
            try:
                found += sorted(
                    p for p in base.iterdir() if p.name.startswith("cuda") and p.is_dir()
                )
            except OSError:
                continue
        return found

    def executable(self, name: str) -> str:
        return name
