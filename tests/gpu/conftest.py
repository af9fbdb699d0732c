"""GPU tests: they run only where an NVIDIA GPU and its driver answer (nvidia-smi works)."""

from __future__ import annotations

import shutil
import subprocess

import pytest


def _gpu_present() -> bool:
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return False
    try:
        result = subprocess.run([exe, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and "GPU" in result.stdout


HAVE_GPU = _gpu_present()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason="no NVIDIA GPU with a working driver (nvidia-smi -L failed)")
    for item in items:
        if "tests/gpu" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.gpu)
            if not HAVE_GPU:
                item.add_marker(skip)
