"""The core must import and work with PySide6 unavailable (design: the core never imports Qt)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import importlib, pkgutil, sys
sys.modules["PySide6"] = None  # any 'import PySide6...' now raises ImportError
sys.modules["app"] = None      # and the core may not reach into the GUI either
import kernel_wizard
names = [m.name for m in pkgutil.walk_packages(kernel_wizard.__path__, "kernel_wizard.")]
for name in names:
    importlib.import_module(name)
from kernel_wizard.cli.main import main
assert main(["detect", "--json", "--python", sys.executable]) == 0
print("imported", len(names), "modules")
"""


def test_every_core_module_imports_without_qt() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "imported" in result.stdout
