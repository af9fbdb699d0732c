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
import queued_timing as qt  # noqa: E402

DEFAULT_MS, MATH_MS = 0.32, 14.8  # recorded on the H100


class OutOfMemoryError(RuntimeError):
    pass


class Clock:
    """The stand-ins' time: each stand-in call moves it by what the call costs, and the timing
    code reads it as ``time.perf_counter`` (the ``clock`` fixture), so a loaded machine's late
    wake-ups from sleep cannot change what is measured (the tests failed so on a busy CI: a
    0.32 ms sleep took longer than a 0.5 ms one)."""

    now = 0.0

    @classmethod
    def sleep(cls, seconds: float) -> None:
        cls.now += seconds


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> type[Clock]:
    Clock.now = 0.0
    monkeypatch.setattr(qt.time, "perf_counter", lambda: Clock.now)  # the time module's own
    return Clock


class ClockEvent:
    def __init__(self, enable_timing: bool = True) -> None:
        self.at = 0.0

    def record(self) -> None:
        self.at = Clock.now

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
    return lambda: Clock.sleep(ms / 1000.0)


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
        Clock.sleep((MATH_MS if math_context else DEFAULT_MS) / 1000.0)

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
        Clock.sleep(DEFAULT_MS / 1000.0)

    entry = hc.time_pair(harness(), "forward+backward", {}, "float16", takes(1), sdpa)
    assert entry["math_ms"] is None
    assert entry["error"] == "math: not enough GPU memory at this size"
    assert entry["kernel_ms"] and entry["sdpa_ms"] and entry["speedup"]


def test_a_slow_kernel_is_timed_alone_within_the_budget() -> None:
    started = time.perf_counter()
    timing = qt.queued_ms(clock_torch(), takes(400), budget_s=hc.MEASURE_BUDGET_S)
    took = time.perf_counter() - started
    assert (timing.calls, timing.groups) == (1, 3) and 350 < timing.ms < 800
    assert took < 4 * 0.4 + 1.0  # the first call and 3 timed alone, no more
    once = qt.queued_ms(clock_torch(), takes(1100), budget_s=hc.MEASURE_BUDGET_S)
    assert (once.calls, once.groups) == (1, 1)  # longer than the whole budget: timed once


class Stream:
    """A GPU stand-in that runs work after the CPU queues it, as CUDA does: a call costs the
    CPU ``host`` seconds to issue and the GPU ``gpu`` seconds to run, and the GPU runs the
    calls one after another from when each was queued. Events read the GPU's timeline; the
    CPU's time is :class:`Clock`'s."""

    def __init__(self) -> None:
        self.free_at = 0.0  # when the GPU has finished what was queued so far

    def call(self, host_ms: float, gpu_ms: float) -> Any:
        def run() -> None:
            Clock.sleep(host_ms / 1000.0)
            self.free_at = max(self.free_at, Clock.now) + gpu_ms / 1000.0
        return run

    def synchronize(self) -> None:
        Clock.now = max(Clock.now, self.free_at)

    def torch(self) -> Any:
        stream = self

        class Event:
            def __init__(self, enable_timing: bool = True) -> None:
                self.at = 0.0

            def record(self) -> None:
                self.at = max(stream.free_at, Clock.now)

            def synchronize(self) -> None:
                stream.synchronize()

            def elapsed_time(self, other: Any) -> float:
                return (other.at - self.at) * 1000.0

        cuda = SimpleNamespace(Event=Event, synchronize=stream.synchronize,
                               empty_cache=lambda: None, OutOfMemoryError=OutOfMemoryError)
        return SimpleNamespace(cuda=cuda, backends=SimpleNamespace())


@pytest.fixture
def stream() -> Stream:
    return Stream()


def test_queued_timing_hides_the_python_overhead_a_model_hides(stream: Stream) -> None:
    """The case of FlashAttention 3 against cuDNN on an H200 (issue 29): the kernel runs
    faster on the GPU but spends more of the CPU's time per call. A model queues its calls,
    so the GPU time decides; timing one call at a time adds the overhead to each call and
    calls the faster kernel slower. Stand-in times scaled ×10."""
    torch = stream.torch()
    kernel = stream.call(host_ms=0.9, gpu_ms=2.2)
    sdpa = stream.call(host_ms=0.2, gpu_ms=2.7)
    k, s = qt.queued_ms(torch, kernel, 0.5), qt.queued_ms(torch, sdpa, 0.5)
    assert 1.9 < k.ms < 2.6 and 2.4 < s.ms < 3.1
    assert s.ms / k.ms > 1.1  # queued: the kernel is faster, as in a model
    assert 0.8 < k.host_ms < 1.6 and not k.cpu_bound
    one_k, _ = hc.cuda_median_ms(torch, kernel, 2, 10)  # the old way: one call at a time
    one_s, _ = hc.cuda_median_ms(torch, sdpa, 2, 10)
    assert one_s / one_k < 1.0  # ... where the overhead made it look slower


def test_a_call_bound_by_the_cpu_is_said_to_be(stream: Stream) -> None:
    decode = stream.call(host_ms=1.0, gpu_ms=0.3)  # a small decoding step
    timing = qt.queued_ms(stream.torch(), decode, 0.3)
    assert timing.cpu_bound and timing.ms >= 0.8 * timing.host_ms


def test_the_quick_mode_leaves_out_the_math_method_and_the_single_methods(
        math_context: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # a re-verification times the kernel against SDPA's own choice only (on the 4-GPU H200
    # the single methods made most of FlashAttention 3's 7 s of timing in the quick mode)
    monkeypatch.setattr(harness_timing, "sdpa_backend_fns",
                        lambda _torch, fn: [("cuDNN", takes(DEFAULT_MS / 2))])
    full = hc.time_pair(harness(), "forward", {}, "float16", takes(0.5), takes(DEFAULT_MS))
    assert full["sdpa_backend"] == "cuDNN" and set(full["backends"]) == {"cuDNN"}
    math_context.clear()
    h = harness(quick=True)
    entry = hc.time_pair(h, "forward", {}, "float16", takes(0.5), takes(DEFAULT_MS))
    assert entry["backends"] == {} and entry["sdpa_backend"] == "default"
    assert math_context == [] and entry["math_ms"] is None and entry["error"] is None
    assert entry["method"] == "queued" and entry["runs"] >= qt.MIN_CALLS
    assert entry["host_ms"] is not None and entry["groups"] == qt.GROUPS


def test_a_slow_first_call_does_not_make_a_fast_call_timed_alone(stream: Stream) -> None:
    """The first call of a kernel does one-time work (SageAttention compiles its Triton kernels
    then): on the H200 that made 0.1 ms calls look slow, timed one at a time with their Python
    overhead (2026-11-28). Only the second call decides how a call is timed."""
    steady = stream.call(host_ms=0.5, gpu_ms=1.0)
    calls = {"n": 0}

    def kernel() -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            Clock.sleep(0.5)  # the compile
        steady()

    timing = qt.queued_ms(stream.torch(), kernel, 0.5)
    assert timing.calls >= qt.MIN_CALLS and timing.groups == qt.GROUPS
    assert 0.8 < timing.ms < 1.4
