"""Shared fixtures: real virtual environments made once per machine and reused.

``torch_venv`` is a venv with ``torch==2.13.0`` (a CPU build), ninja, setuptools and wheel;
``plain_venv`` is a venv with pip and nothing else. They live under ``KSW_TEST_CACHE``
(default ``~/.cache/ksw-tests``) and are rebuilt when their ``.complete`` marker is missing, so
an interrupted creation is never trusted. Tests must not install into them: install into a
``--target`` folder or a copy instead, so the venvs stay as created.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TORCH_PIN = "torch==2.13.0"
REPO = Path(__file__).resolve().parent.parent


def cache_root() -> Path:
    root = Path(os.environ.get("KSW_TEST_CACHE", Path.home() / ".cache" / "ksw-tests"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def venv_python(venv: Path) -> Path:
    if sys.platform == "win32":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def make_venv(name: str, packages: list[str]) -> Path:
    """Create (or reuse) a venv under the test cache; returns its python executable."""
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}"
    venv = cache_root() / f"{name}-{tag}"
    marker = venv / ".complete"
    if marker.exists() and venv_python(venv).exists():
        return venv_python(venv)
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    if packages:
        subprocess.run(
            [str(venv_python(venv)), "-m", "pip", "install", "-q", *packages], check=True
        )
    marker.write_text("\n".join(packages) + "\n", encoding="utf-8")
    return venv_python(venv)


@pytest.fixture(scope="session")
def torch_venv() -> Path:
    """python of a venv with torch 2.13.0 (CPU), ninja, setuptools and wheel."""
    return make_venv("venv-torch-2.13.0", [TORCH_PIN, "ninja", "setuptools", "wheel"])


@pytest.fixture(scope="session")
def plain_venv() -> Path:
    """python of a venv with pip only (no torch)."""
    return make_venv("venv-plain", [])


def pip_freeze(python: Path) -> str:
    """The environment's package list, for 'left exactly as before' comparisons."""
    return subprocess.run(
        [str(python), "-m", "pip", "freeze", "--all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
