"""Timing a kernel on a GPU against PyTorch's SDPA (default and math methods), for the
verification harness (``harness_common`` re-exports everything here). Run in the *target*
interpreter; keep the syntax compatible with Python 3.9. Imports only ``harness_io`` and
``queued_timing`` of the harness (``harness_common`` imports this module, not the other way
round)."""

from __future__ import annotations

import contextlib
import statistics
import time

import harness_io as hio
import queued_timing as qt

# Each measurement of a pair (kernel, SDPA's methods, SDPA math) runs for about this long after
# its warm-up (half as long in the quick mode): the calls per group are fitted to one call's
# time. Two pairs per adapter keep the whole timing well under 10 s of GPU time.
MEASURE_BUDGET_S = 0.6
MIN_REPS = 3


def cuda_median_ms(torch, fn, warmup, reps, budget_s=None):
    """Median of ``reps`` CUDA-event timings of ``fn`` after ``warmup`` calls. With
    ``budget_s``, the repetitions are reduced (down to MIN_REPS, or 1 for a call that alone
    takes longer) so that the measurement takes about that long."""
    for _ in range(max(0, warmup - 1)):
        fn()
    torch.cuda.synchronize()
    started = time.perf_counter()
    fn()  # the last warm-up call, timed by the clock to fit the repetitions
    torch.cuda.synchronize()
    once = time.perf_counter() - started
    if budget_s is not None and once > 0:
        fitted = int(budget_s / once)
        reps = max(1 if once > budget_s else min(MIN_REPS, reps), min(reps, fitted))
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times), reps


def median_ms(torch, fn, warmup, reps, cuda):
    """(median ms, repetitions) of ``fn`` after ``warmup`` calls: CUDA events on a GPU, the
    clock on the CPU (the wizard's own tests). One return type for both, so that code timed on
    the CPU in the tests is the code that runs on a GPU."""
    if cuda:
        return cuda_median_ms(torch, fn, warmup, reps)
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times), reps


@contextlib.contextmanager
def sdpa_math(torch):
    """SDPA restricted to its plain math method inside the block."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:  # torch < 2.3
        context = torch.backends.cuda.sdp_kernel(
            enable_flash=False, enable_math=True, enable_mem_efficient=False
        )
    else:
        context = sdpa_kernel(SDPBackend.MATH)
    with context:
        yield


# SDPA's fast methods, as PyTorch names them (torch.nn.attention.SDPBackend) and as people do
SDPA_BACKENDS = (
    ("cuDNN", "CUDNN_ATTENTION"),
    ("flash", "FLASH_ATTENTION"),
    ("memory-efficient", "EFFICIENT_ATTENTION"),
)


def sdpa_backend_fns(torch, sdpa_fn):
    """(name, argument-less call) for each fast SDPA method this PyTorch has: ``sdpa_fn``
    restricted to that method. Empty before torch 2.3 (no way to choose one)."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return []
    fns = []
    for name, member in SDPA_BACKENDS:
        backend = getattr(SDPBackend, member, None)
        if backend is None:
            continue

        def call(backend=backend):
            with sdpa_kernel(backend):
                return sdpa_fn()

        fns.append((name, call))
    return fns


def timing_label(dtype, *parts, causal=None):
    """What was timed, in words: 'float16 · batch 2 · 4,096 tokens · 16 heads · head size
    128 · causal'. ``parts``: (number, 'word {n}') pairs or plain strings."""
    words = [dtype]
    for part in parts:
        if isinstance(part, tuple):
            number, template = part
            words.append(template.format(n=f"{number:,}"))
        else:
            words.append(part)
    if causal is not None:
        words.append("causal" if causal else "full attention")
    return " · ".join(words)


def _out_of_memory(torch, exc):
    oom = getattr(torch.cuda, "OutOfMemoryError", ())
    return (oom and isinstance(exc, oom)) or "out of memory" in str(exc).lower()


def _timed(h, fn, who):
    """(Timing or None, error text) of one measurement, queued the way a model runs calls
    (:func:`queued_timing.queued_ms`); never raises."""
    torch = h.torch
    try:
        budget = MEASURE_BUDGET_S / 2 if h.quick else MEASURE_BUDGET_S
        return qt.queued_ms(torch, fn, budget_s=budget), None
    except Exception as exc:
        if _out_of_memory(torch, exc):
            text = f"{who}: not enough GPU memory at this size"
        else:
            text = f"{who}: {hio.short_exception(exc)}"
        try:
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
        except Exception:
            pass
        return None, text


def time_pair(h, name, shapes, dtype, kernel_fn, sdpa_fn, note="", label="", math=True,
              backends=True, flops=0.0, bytes_moved=0.0, reference=""):
    """Time ``kernel_fn`` against ``sdpa_fn`` (both argument-less) and record a timing entry.

    Both are timed the same way, with their calls queued back to back between two CUDA events
    after a warm-up (:mod:`queued_timing`: how a model runs them; the CPU's own time per call
    is kept beside it as ``host_ms``). The baseline is the fastest way PyTorch has: SDPA with
    its default choice of method and, with ``backends``, each of its fast methods alone
    (cuDNN, flash, memory-efficient), so the comparison is against the best of them, named;
    with ``math``, also its plain math method. The quick mode (a re-verification) times
    neither the single methods nor math: the kernel against SDPA's own choice. ``flops``
    (floating-point operations of one call) or ``bytes_moved`` (bytes read and written, for
    memory-bound kernels) let the report give TFLOPs or GB/s beside the times.
    ``reference``: the baseline's name when ``sdpa_fn`` is not SDPA (then ``backends`` and
    ``math`` are off)."""
    torch = h.torch
    math = math and not h.quick
    backends = backends and not h.quick
    entry = {
        "name": name,
        "shapes": shapes,
        "dtype": dtype,
        "label": label,
        "kernel_ms": None,
        "sdpa_ms": None,
        "math_ms": None,
        "speedup": None,
        "runs": 0,
        "warmup": 0,
        "note": note,
        "error": None,
        "sdpa_backend": "",
        "backends": {},
        "flops": float(flops or 0.0),
        "bytes": float(bytes_moved or 0.0),
        "reference": reference,
        "method": qt.METHOD,
        "groups": 0,
        "host_ms": None,
        "sdpa_host_ms": None,
    }
    errors = []
    captured = []
    with hio.captured_fds(captured):
        timing, error = _timed(h, kernel_fn, "kernel")
    if timing is not None:
        entry["kernel_ms"], entry["host_ms"] = timing.ms, timing.host_ms
        entry["runs"], entry["groups"] = timing.calls, timing.groups
    errors.append(error)
    timing, error = _timed(h, sdpa_fn, "sdpa")
    if timing is not None:
        entry["sdpa_ms"], entry["sdpa_host_ms"] = timing.ms, timing.host_ms
    entry["sdpa_backend"] = "default" if entry["sdpa_ms"] else ""
    if backends:
        for backend, fn in sdpa_backend_fns(torch, sdpa_fn):
            with hio.captured_fds([]):  # "not supported for this shape" warnings
                timing, why = _timed(h, fn, backend)
            entry["backends"][backend] = timing.ms if timing is not None else None
            if timing is not None and (entry["sdpa_ms"] is None or timing.ms < entry["sdpa_ms"]):
                entry["sdpa_ms"], entry["sdpa_backend"], error = timing.ms, backend, None
                entry["sdpa_host_ms"] = timing.host_ms
    errors.append(error)
    if math:
        def math_fn():
            with sdpa_math(torch):
                return sdpa_fn()

        timing, error = _timed(h, math_fn, "math")
        entry["math_ms"] = timing.ms if timing is not None else None
        errors.append(error)
    entry["error"] = "; ".join(e for e in errors if e) or None
    if entry["kernel_ms"] and entry["sdpa_ms"]:
        entry["speedup"] = entry["sdpa_ms"] / entry["kernel_ms"]
    h.report["timings"].append(entry)

    def ms(value):
        return f"{value:.3f}" if value else "-"

    ratio = f", {entry['speedup']:.2f}x" if entry["speedup"] else ""
    methods = "".join(f", {b} {ms(t)} ms" for b, t in entry["backends"].items())
    host = f" (CPU {ms(entry['host_ms'])} ms per call)" if entry["host_ms"] else ""
    hio.log(
        f"timing {name} ({entry['runs']} calls queued x {entry['groups']}): kernel "
        f"{ms(entry['kernel_ms'])} ms{host}, sdpa {ms(entry['sdpa_ms'])} ms "
        f"({entry['sdpa_backend'] or '-'}){methods}, sdpa math {ms(entry['math_ms'])} ms{ratio}"
    )
    return entry


