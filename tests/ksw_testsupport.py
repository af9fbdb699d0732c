"""Plain helper functions for the tests (importable from every test folder)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def pip_freeze(python: Path) -> str:
    """The environment's package list, for 'left exactly as before' comparisons."""
    return subprocess.run(
        [str(python), "-m", "pip", "freeze", "--all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
