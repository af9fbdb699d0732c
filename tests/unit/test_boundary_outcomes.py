"""A boundary call's outcome says what a program making that call would meet (issue 30).

A call that raises a Python error a program can catch is "raised"; one whose error is CUDA's
sticky kind (a kernel trapped: "unspecified launch failure", an illegal memory access, a
device-side assert) leaves the process without a usable GPU, so it is a crash, whatever
exception carried it (DeepEP's intranode dispatch at hidden 7000 on an H200 did exactly that,
docs/recorded/h200-2026-11-28/boundary.json). Real child processes, plain Python calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from verify_testsupport import harness_module


@pytest.fixture(scope="module")
def hb() -> Iterator[ModuleType]:
    yield from harness_module("harness_boundary")


def call(body: str) -> str:
    return f"def sync():\n    pass\ndef call():\n    {body}\n"


def test_sticky_cuda_errors_are_crashes_and_plain_errors_are_raised(hb: ModuleType) -> None:
    results = hb.run_calls("", [
        call('raise RuntimeError("process 0 of 2: AcceleratorError: CUDA error: unspecified '
             'launch failure")'),
        call('raise RuntimeError("CUDA error: an illegal memory access was encountered")'),
        call('raise ValueError("DeepEP needs hidden to be a multiple of 16; got 7000")'),
        call("return 1"),
    ], timeout_s=60)
    (first, why), (second, _), (third, message), (fourth, _) = results
    assert first == "crashed" and "cannot use the GPU any more" in why
    assert "unspecified launch failure" in why
    assert second == "crashed"
    assert third == "raised" and message.startswith("ValueError: DeepEP needs hidden")
    assert fourth == "ran"


def test_calls_run_at_once_and_answers_keep_their_order(hb: ModuleType, tmp_path: Path) -> None:
    # each of the first two calls waits for the other to have started: run one after the other
    # (the earlier zygote), the first would give up and raise; a crash and a hang among them
    # take only their own process
    first, second = tmp_path / "first", tmp_path / "second"
    wait_for = (
        "import pathlib, time\n"
        "    pathlib.Path({mine!r}).touch()\n"
        "    end = time.monotonic() + 5\n"
        "    while not pathlib.Path({other!r}).exists():\n"
        "        if time.monotonic() > end:\n"
        "            raise TimeoutError('the other call never started')\n"
        "        time.sleep(0.01)\n"
        "    return 1"
    )
    setups = [
        call(wait_for.format(mine=str(first), other=str(second))),
        call(wait_for.format(mine=str(second), other=str(first))),
        call("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"),
        call("import time; time.sleep(60)"),
        call('raise ValueError("left out: head size 256")'),
    ]
    results = hb.run_calls("", setups, timeout_s=8, parallel=4)
    assert [outcome for outcome, _ in results] == ["ran", "ran", "crashed", "hung", "raised"]
    assert "SIGSEGV" in results[2][1]
    assert results[4][1] == "ValueError: left out: head size 256"


@pytest.mark.parametrize(("visible", "seen"), [(None, "0"), ("2,3", "2"),
                                               ("GPU-5f0c, GPU-77aa", "GPU-5f0c")])
def test_a_boundary_call_sees_only_the_gpu_the_check_uses(
        hb: ModuleType, monkeypatch: pytest.MonkeyPatch, visible: str | None, seen: str) -> None:
    # torch.device("cuda") is the first GPU this process sees: the call's process sees it
    # alone (a CUDA start-up that sets up every other GPU too is what made the boundary
    # calls slow on a 4-GPU machine)
    if visible is None:
        monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    else:
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", visible)
    body = 'import os; raise LookupError(os.environ.get("CUDA_VISIBLE_DEVICES", "unset"))'
    assert hb.run_calls("", [call(body)], timeout_s=30, one_gpu=True) == [
        ("raised", f"LookupError: {seen}")]
    # the sweep's calls (DeepEP's among them) keep every GPU
    expected = visible if visible is not None else "unset"
    assert hb.run_calls("", [call(body)], timeout_s=30) == [("raised", f"LookupError: {expected}")]


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the zygote needs os.fork")
def test_a_zygote_started_ahead_serves_the_calls_and_an_unused_one_is_stopped(
    hb: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the harness starts it before its own torch import; here it imports only json
    monkeypatch.setattr(hb, "PRELOAD", "import json\n")
    hb.prestart(2, one_gpu=False)
    ready = [proc for _, proc in hb._READY]
    assert len(ready) == 2
    started = hb.start_calls("", [call("return 1"), call('raise ValueError("left out")')])
    assert started["proc"] is ready[0]  # taken, not a fresh process
    (ran, _), (raised, message) = hb.finish_calls(started)
    assert ran == "ran" and raised == "raised" and "left out" in message
    hb._stop_unused()  # what happens at exit
    assert not hb._READY
    assert ready[1].wait(timeout=30) is not None
