"""Locks between runs, with two real processes: the second one is told who holds the lock
(process, command, start time), waits or refuses, and takes over the lock of a killed one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kernel_wizard.base.errors import Cancelled
from kernel_wizard.base.locks import LockBusy, hold, read_holder

REPO = Path(__file__).resolve().parents[2]

HOLDER = """
import sys, time
from pathlib import Path
from kernel_wizard.base.locks import hold
with hold(Path(sys.argv[1]), "building probe 0.1.0"):
    print("held", flush=True)
    time.sleep(120)
"""


def start_holder(lock: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock)], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_process_is_told_who_holds_the_lock(tmp_path: Path) -> None:
    lock = tmp_path / "locks" / "build-x.lock"
    holder = start_holder(lock)
    try:
        with pytest.raises(LockBusy) as caught:
            with hold(lock, "building probe 0.1.0", wait=False):
                pass
        busy = caught.value
        assert busy.holder is not None and busy.holder.pid == holder.pid
        assert "building probe 0.1.0" in busy.what
        assert f"process {holder.pid}" in busy.why and "-c" in busy.why  # its command line
        assert "since" in busy.why
    finally:
        holder.kill()
        holder.wait()


def test_a_waiting_run_says_so_and_goes_on_when_the_holder_is_killed(tmp_path: Path) -> None:
    lock = tmp_path / "env.lock"
    holder = start_holder(lock)
    said: list[str] = []
    threading.Timer(1.0, lambda: os.kill(holder.pid, signal.SIGKILL)).start()
    started = time.monotonic()
    with hold(lock, "installing into env", on_wait=said.append) as held:
        waited = time.monotonic() - started
        assert held.took_over is not None and held.took_over.pid == holder.pid  # named
        assert read_holder(lock) == held.holder  # now ours, for the next waiter
    holder.wait()
    assert 0.5 < waited < 10
    assert len(said) == 1 and f"process {holder.pid}" in said[0] and "Waiting" in said[0]
    assert read_holder(lock) is None  # released: nobody named any more


def test_waiting_can_be_cancelled(tmp_path: Path) -> None:
    lock = tmp_path / "env.lock"
    holder = start_holder(lock)
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    try:
        with pytest.raises(Cancelled) as caught:
            with hold(lock, "installing", cancel=cancel):
                pass
        assert f"process {holder.pid}" in caught.value.why
    finally:
        holder.kill()
        holder.wait()
