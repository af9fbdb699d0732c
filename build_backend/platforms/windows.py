"""Windows. Importable on any OS: Windows-only modules are imported inside the functions.

Everything that interprets what Windows returned is a pure function (``parse_py_launcher``
and friends) so it is tested on any OS with recorded real outputs.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from . import InterpreterHint

# ``py -0p`` of the launcher shipped with Python >= 3.11:
#   " -V:3.12 *        C:\Users\me\AppData\Local\Programs\Python\Python312\python.exe"
# and of older launchers (Python <= 3.10):
#   " -3.9-64        C:\Python39\python.exe *"
_PY_LAUNCHER_LINE = re.compile(
    r"^\s*-(?:V:)?(?P<tag>\S+)\s+(?:\*\s+)?(?P<path>.+?)(?:\s+\*)?\s*$"
)


def parse_py_launcher(output: str) -> list[InterpreterHint]:
    """Interpreters listed by ``py -0p`` (either launcher generation)."""
    hints: list[InterpreterHint] = []
    for line in output.splitlines():
        if not line.strip().startswith("-"):
            continue  # headers such as "Installed Pythons found by py Launcher for Windows"
        match = _PY_LAUNCHER_LINE.match(line)
        if match is None:
            continue
        path = match.group("path").strip()
        if not path.lower().endswith(".exe"):
            continue  # "-V:3.13 (Store)" entries without a path, or unknown formats
        hints.append(InterpreterHint(Path(path), f"py launcher (-{match.group('tag')})"))
    return hints


class WindowsPlatform:
    name = "windows"
    host_include_var = "INCLUDE"  # cl.exe reads extra include folders from INCLUDE

    def python_in_prefix(self, prefix: Path) -> Path:
        # venvs keep it in Scripts\, conda environments in the prefix itself
        scripts = prefix / "Scripts" / "python.exe"
        return scripts if scripts.exists() else prefix / "python.exe"

    def registered_interpreters(self) -> list[InterpreterHint]:
        try:
            completed = subprocess.run(
                ["py", "-0p"],
                capture_output=True,
                text=True,
                encoding="utf-8",
                errors="replace",
                timeout=15,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return []  # no launcher installed
        return parse_py_launcher(completed.stdout + "\n" + completed.stderr)

    def has_display(self, environ: Mapping[str, str]) -> bool:
        return True  # an interactive Windows session always has a desktop

    def default_build_root(self) -> Path:
        # Short on purpose: nvcc and cl.exe still trip over 260-character paths.
        drive = os.environ.get("SystemDrive", "C:")
        return Path(drive + "\\") / "ksw"

    def interpreter_names(self) -> Sequence[str]:
        return ("python.exe",)

    def cuda_toolkit_folders(self) -> list[Path]:
        base = Path(os.environ.get("ProgramFiles", r"C:\Program Files"))
        root = base / "NVIDIA GPU Computing Toolkit" / "CUDA"
        try:
            return sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            return []

    def executable(self, name: str) -> str:
        return name if name.lower().endswith(".exe") else name + ".exe"
