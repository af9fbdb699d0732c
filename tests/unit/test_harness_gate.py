"""One verification's GPU work at a time (issue 29, item 5): the kernels of one Python are
verified in one process while DeepEP's verification runs beside it; the gate
(resources/verify/harness_gate.py) lets only one of them use the GPU at a time, so that no
timing measures another kernel's work. Real processes and a real file lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from verify_testsupport import HARNESS, harness_module

HOLDER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
import harness_gate
gate = harness_gate.Gate(sys.argv[2]).enter()
print("held %.3f %.3f" % (time.time(), gate.waited), flush=True)
time.sleep(float(sys.argv[3]))
print("left %.3f" % time.time(), flush=True)
gate.leave()
"""


@pytest.fixture(scope="module")
def gate_module() -> Iterator[ModuleType]:
    yield from harness_module("harness_gate")


def holder(lock: Path, seconds: float) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", HOLDER, str(HARNESS), str(lock), str(seconds)],
                            stdout=subprocess.PIPE, text=True)


def first_line(proc: subprocess.Popen[str]) -> list[str]:
    assert proc.stdout is not None
    return proc.stdout.readline().split()


def test_a_second_verification_waits_until_the_first_leaves_the_gpu(tmp_path: Path) -> None:
    lock = tmp_path / "gpu.lock"
    first = holder(lock, 1.0)
    assert first_line(first)[0] == "held"
    second = holder(lock, 0.0)
    _, got, waited = first_line(second)
    out, _ = first.communicate(timeout=30)
    left = float(out.split()[1])
    second.communicate(timeout=30)
    # the second got the GPU only after the first let it go, and said how long it waited
    assert float(got) >= left
    assert float(waited) > 0.5


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_verification_that_is_killed_frees_the_gpu_for_the_next(tmp_path: Path) -> None:
    lock = tmp_path / "gpu.lock"
    stuck = holder(lock, 3600.0)
    assert first_line(stuck)[0] == "held"
    os.kill(stuck.pid, signal.SIGKILL)
    stuck.wait(timeout=30)
    started = time.monotonic()
    after = holder(lock, 0.0)
    assert first_line(after)[0] == "held"
    after.communicate(timeout=30)
    assert time.monotonic() - started < 20  # not the hour the killed one meant to hold it


def test_without_a_gate_nothing_waits_and_no_turn_is_recorded(
    gate_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(gate_module.ENV, raising=False)
    assert not gate_module.configured()
    with gate_module.held() as gate:
        assert gate.handle is None and gate.waited == 0.0


def test_the_runner_and_the_harness_name_the_same_variable(gate_module: ModuleType) -> None:
    from kernel_wizard.verify.runner import GPU_GATE_ENV, harness_env_changes

    assert GPU_GATE_ENV == gate_module.ENV
    changes = {c.name: c.value for c in harness_env_changes([], gpu_gate=Path("/x/gpu.lock"))}
    assert changes[GPU_GATE_ENV] == str(Path("/x/gpu.lock"))
    assert GPU_GATE_ENV not in {c.name for c in harness_env_changes([])}
