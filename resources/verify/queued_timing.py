"""Timing a GPU call the way a model runs it: many calls queued back to back between two CUDA
events, after a warm-up. One method for the SDPA probe that runs before a build
(``resources/probes/sdpa_speed.py``) and for the verification after it (``harness_timing``).

Why queued: a model issues its layers' calls one after another without waiting for each; the
CPU's Python overhead of a call (tens of microseconds for some kernels' wrappers) overlaps the
GPU's work on the calls before it. Timing one call at a time with a synchronize in between
adds that overhead to every call and calls a faster kernel slower (measured: FlashAttention 3
against cuDNN on an H200, 1.22x faster queued, 0.98x one at a time). The CPU's own time per call
is kept as a figure of its own (``host_ms``): where it is near or above the GPU time (small
shapes, decoding), the call is bound by the CPU, and the report says so.

Standard library and torch only; no import of the harness (the probe imports this file too).
Keep the syntax compatible with Python 3.8.
"""

import statistics
import time

METHOD = "queued"
# In words, for the reports: the method in one plain sentence ({calls} calls per group).
METHOD_SENTENCE = ("Timed as a model runs it: {calls} calls queued back to back between two "
                   "CUDA events after a warm-up, median of {groups} groups.")
WARMUP_S = 0.05  # at least this long of warm-up calls (clocks up, kernels chosen, caches full)
WARMUP_CALLS = 3  # and at least this many
MAX_WARMUP_CALLS = 50
MIN_CALLS = 5  # per group
MAX_CALLS = 200
GROUPS = 5


class Timing:
    """One measurement: ``ms`` the GPU time per call (queued), ``host_ms`` the CPU's time to
    issue one call, ``calls`` per group, ``groups`` timed."""

    __slots__ = ("ms", "host_ms", "calls", "groups")

    def __init__(self, ms, host_ms, calls, groups):
        self.ms = ms
        self.host_ms = host_ms
        self.calls = calls
        self.groups = groups

    @property
    def cpu_bound(self):
        """Whether issuing a call takes the CPU about as long as the GPU takes to run it (then
        the queued time is the CPU's pace, and the kernel's speed hardly matters)."""
        return self.host_ms >= 0.8 * self.ms

    def as_dict(self):
        return {"ms": self.ms, "host_ms": self.host_ms, "calls": self.calls,
                "groups": self.groups, "method": METHOD}

    def __repr__(self):
        return (f"Timing(ms={self.ms:.4g}, host_ms={self.host_ms:.4g}, calls={self.calls}, "
                f"groups={self.groups})")


def _sync(torch, cuda):
    if cuda:
        torch.cuda.synchronize()


def _group(torch, fn, calls, cuda):
    """(ms per call, CPU ms per call) of ``calls`` calls queued back to back."""
    if cuda:
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        issued = time.perf_counter()
        for _ in range(calls):
            fn()
        host = time.perf_counter() - issued
        stop.record()
        stop.synchronize()
        return start.elapsed_time(stop) / calls, host * 1000.0 / calls
    started = time.perf_counter()
    for _ in range(calls):
        fn()
    took = (time.perf_counter() - started) * 1000.0 / calls
    return took, took


def queued_ms(torch, fn, budget_s=0.5, cuda=True, groups=GROUPS, max_calls=MAX_CALLS):
    """Time the argument-less ``fn``: warm-up, then ``groups`` groups of calls queued back to
    back, each group about ``budget_s / groups`` long (at least MIN_CALLS calls, at most
    ``max_calls``). A call that alone outlasts its group's share is timed alone, 3 times (once
    when it outlasts the whole budget): its own time dwarfs any overhead. That is judged by the
    second call: the first one's one-time work (a JIT compile: SageAttention's Triton kernels,
    FlashAttention 3's first launch) made a 0.1 ms call look slow and timed it alone, its
    Python overhead included (measured on the H200, 2026-11-28). Returns a
    :class:`Timing` whose ``ms`` is the median per-call time over the groups. ``cuda`` False
    times on the CPU by the clock (the wizard's own tests): the same code path. Raises what
    ``fn`` raises."""
    fn()  # the first call alone: one-time work (kernel choice, workspace, a JIT compile)
    _sync(torch, cuda)
    started = time.perf_counter()
    fn()  # the second, timed by the clock: is one call long enough to be timed alone?
    _sync(torch, cuda)
    once = time.perf_counter() - started
    share = budget_s / max(1, groups)
    if once > 2 * share:
        groups = 1 if once > budget_s else min(groups, 3)
        results = [_group(torch, fn, 1, cuda) for _ in range(groups)]
        return Timing(statistics.median(r[0] for r in results),
                      statistics.median(r[1] for r in results), 1, groups)
    done = 2
    while done < WARMUP_CALLS or (time.perf_counter() - started < WARMUP_S
                                  and done < MAX_WARMUP_CALLS):
        fn()
        done += 1
    _sync(torch, cuda)
    per_call, _ = _group(torch, fn, 2, cuda)  # fits the group size
    calls = max(MIN_CALLS, min(max_calls, int(share / max(per_call / 1000.0, 1e-7))))
    results = [_group(torch, fn, calls, cuda) for _ in range(groups)]
    return Timing(statistics.median(r[0] for r in results),
                  statistics.median(r[1] for r in results), calls, groups)


def method_sentence(calls, groups):
    return METHOD_SENTENCE.format(calls=calls, groups=groups)
