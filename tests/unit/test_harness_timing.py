"""The harness's speed measurement (resources/verify/harness_common.py) without a GPU.

CUDA's timing API cannot exist on a machine without a GPU, so ``torch.cuda`` is stood in for by
a clock, and the timed functions take as long as PyTorch SDPA took on the H100 (2026-11-23,
torch 2.11.0+cu130, float16, batch 2 · 4,096 tokens · 16 heads · head size 128, causal):
default 0.32 ms forward, math 14.8 ms forward (8.5 GiB at its peak). Checked: both SDPA methods
are timed and labelled, a method that runs out of memory is named in plain words, and a slow
kernel gets fewer repetitions so that the measurement stays within its time budget. The real
thing runs in tests/gpu/test_speed_gpu.py.
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "resources" / "verify"))
import harness_common as hc  # noqa: E402
import harness_timing  # noqa: E402

DEFAULT_MS, MATH_MS = 0.32, 14.8  # recorded on the H100


class OutOfMemoryError(RuntimeError):
    pass


class ClockEvent:
    def __init__(self, enable_timing: bool = True) -> None:
        self.at = 0.0

    def record(self) -> None:
        self.at = time.perf_counter()

    def synchronize(self) -> None:
        pass

    def elapsed_time(self, other: ClockEvent) -> float:
        return (other.at - self.at) * 1000.0


def clock_torch() -> Any:
    cuda = SimpleNamespace(Event=ClockEvent, synchronize=lambda: None, empty_cache=lambda: None,
                           OutOfMemoryError=OutOfMemoryError)
    backends = SimpleNamespace(cuda=SimpleNamespace(
        sdp_kernel=lambda **_kw: contextlib.nullcontext()))
    return SimpleNamespace(cuda=cuda, backends=backends)


def harness(quick: bool = False) -> Any:
    return SimpleNamespace(torch=clock_torch(), quick=quick, report={"timings": []})


def takes(ms: float) -> Any:
    return lambda: time.sleep(ms / 1000.0)


@pytest.fixture(autouse=True)
def math_context(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """sdpa_math() on the stand-in: records that the math method was asked for."""
    used: list[str] = []

    @contextlib.contextmanager
    def math(_torch: Any) -> Any:
        used.append("math")
        yield

    monkeypatch.setattr(harness_timing, "sdpa_math", math)  # where time_pair looks it up
    return used


def test_both_sdpa_methods_are_timed_and_labelled(math_context: list[str]) -> None:
    h = harness()
    label = hc.timing_label("float16", (2, "batch {n}"), (4096, "{n} tokens"),
                            (16, "{n} heads"), (128, "head size {n}"), causal=True)
    assert label == "float16 · batch 2 · 4,096 tokens · 16 heads · head size 128 · causal"

    def sdpa() -> None:  # default first, then inside sdpa_math()
        time.sleep((MATH_MS if math_context else DEFAULT_MS) / 1000.0)

    entry = hc.time_pair(h, "forward", {"q": [2, 4096, 16, 128]}, "float16", takes(0.5), sdpa,
                         label=label)
    assert h.report["timings"] == [entry]
    assert entry["label"] == label and entry["error"] is None
    assert entry["math_ms"] > 10 * entry["sdpa_ms"]  # the math method measured separately
    assert 0.3 < entry["kernel_ms"] < 5 and entry["speedup"] < 1


def test_out_of_memory_is_said_plainly_and_the_rest_is_kept(math_context: list[str]) -> None:
    def sdpa() -> None:
        if math_context:
            raise OutOfMemoryError("CUDA out of memory. Tried to allocate 8.00 GiB")
        time.sleep(DEFAULT_MS / 1000.0)

    entry = hc.time_pair(harness(), "forward+backward", {}, "float16", takes(1), sdpa)
    assert entry["math_ms"] is None
    assert entry["error"] == "math: not enough GPU memory at this size"
    assert entry["kernel_ms"] and entry["sdpa_ms"] and entry["speedup"]


def test_a_slow_kernel_gets_fewer_repetitions_within_the_budget() -> None:
    started = time.perf_counter()
    median, reps = hc.cuda_median_ms(clock_torch(), takes(400), warmup=2, reps=10,
                                     budget_s=hc.MEASURE_BUDGET_S)
    took = time.perf_counter() - started
    assert reps == hc.MIN_REPS and 350 < median < 800
    assert took < 2 * 0.4 + hc.MIN_REPS * 0.4 + 1.0  # 2 warm-ups, 3 timed runs, no more
    _median, once = hc.cuda_median_ms(clock_torch(), takes(1100), warmup=1, reps=10,
                                      budget_s=hc.MEASURE_BUDGET_S)
    assert once == 1  # one call longer than the whole budget: timed once
