"""Start-up (issue 24): ``KSW_EXIT_AFTER_FIRST_PAGE`` quits the real program once its first page
has been shown — offscreen too, where PySide6 6.12 never paints that page — so that
``benchmarks/bundle_bench.py`` measures something; and what the first page does not need is not
imported before it shows."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MARK = "KSW-FIRST-PAGE"
LIMIT_S = 120  # generous: a loaded 2-core machine shows the first page in about 1-3 s

# Shown when its page is used, imported lazily (kernel_wizard: locks, hardware, process_tree…;
# requests and urllib3, about 80 ms, only when something is downloaded: download, tags, sources).
NOT_BEFORE_THE_FIRST_PAGE = ("psutil", "filelock", "requests", "urllib3")

# The program as python -m app starts it, but the probe's clock also writes down which modules
# were imported at the moment it reads the time: when the first page has been shown.
REPORT = """
import os, sys, time
import app.selftest as probe

class Clock:
    def time(self):
        with open(os.environ["KSW_MODULES"], "w", encoding="utf-8") as f:
            f.write("\\n".join(sorted(sys.modules)))
        return time.time()

probe.time = Clock()
from app.__main__ import main
sys.exit(main([]))
"""


def start(tmp_path: Path, target: str, *command: str) -> tuple[subprocess.CompletedProcess[str],
                                                                float]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", KSW_EXIT_AFTER_FIRST_PAGE=target,
               KSW_DATA_DIR=str(tmp_path / "data"), KSW_MODULES=str(tmp_path / "modules.txt"))
    started = time.time()
    result = subprocess.run([sys.executable, *command], cwd=REPO, env=env, capture_output=True,
                            text=True, timeout=LIMIT_S, stdin=subprocess.DEVNULL)
    return result, started


def test_exit_after_first_page_quits_offscreen(tmp_path: Path) -> None:
    """python -m app, offscreen, KSW_EXIT_AFTER_FIRST_PAGE=1 → exits 0 on its own, printing
    'KSW-FIRST-PAGE <unix time>' once, a time after the spawn"""
    result, started = start(tmp_path, "1", "-m", "app")
    assert result.returncode == 0, result.stdout + result.stderr
    marks = [line for line in result.stdout.splitlines() if line.startswith(MARK)]
    assert len(marks) == 1, result.stdout + result.stderr
    shown = float(marks[0].split()[1])
    assert started < shown < started + LIMIT_S
    assert "Traceback" not in result.stderr


def test_exit_after_first_page_writes_its_file(tmp_path: Path) -> None:
    """a file instead of 1 (the windowed Windows program has no stdout) → the line is in it;
    nothing the first page does not need (psutil, filelock, requests) was imported"""
    mark_file = tmp_path / "first-page.txt"
    result, _ = start(tmp_path, str(mark_file), "-c", REPORT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert mark_file.read_text(encoding="utf-8").startswith(f"{MARK} ")
    modules = set((tmp_path / "modules.txt").read_text(encoding="utf-8").splitlines())
    assert "app.wizard" in modules
    assert not modules & set(NOT_BEFORE_THE_FIRST_PAGE), modules & set(NOT_BEFORE_THE_FIRST_PAGE)
