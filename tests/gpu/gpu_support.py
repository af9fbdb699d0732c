"""What the GPU tests share: the wizard run as a user runs it, and the outputs kept for the
issue notes (KSW_GPU_ARTIFACTS, optional)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = os.environ.get("KSW_GPU_ARTIFACTS")


def app(*args: str, timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "app", *args], cwd=REPO, capture_output=True,
                            text=True, timeout=timeout)
    seconds = time.perf_counter() - started
    print(f"\n$ python -m app {' '.join(args)}   [{seconds:.1f} s, exit {result.returncode}]")
    print(result.stdout[-6000:])
    print(result.stderr[-4000:])
    return result


def keep(name: str, text: str) -> None:
    if ARTIFACTS:
        Path(ARTIFACTS).mkdir(parents=True, exist_ok=True)
        (Path(ARTIFACTS) / name).write_text(text, encoding="utf-8")
