"""The summary line of a timing names slow kernels as 'N× slower', never '0.00x SDPA's speed'
(the probe on the H100: 18.2 ms against SDPA's 0.077 ms)."""

from __future__ import annotations

from kernel_wizard.verify.report import Timing
from kernel_wizard.verify.view import _timing_text


def timing(kernel_ms: float, sdpa_ms: float, math_ms: float) -> Timing:
    return Timing(name="forward", shapes={}, dtype="float16", kernel_ms=kernel_ms,
                  sdpa_ms=sdpa_ms, speedup=sdpa_ms / kernel_ms, math_ms=math_ms,
                  label="float16 · batch 2")


def test_a_slow_kernel_is_said_to_be_slower() -> None:
    text = _timing_text(timing(18.233, 0.077, 3.107))
    assert "(kernel 237x slower than SDPA, 5.87x slower than its math method)" in text
    assert "0.00x" not in text


def test_a_fast_kernel_is_said_to_be_faster() -> None:
    text = _timing_text(timing(0.069, 23.821, 23.772))
    assert "(kernel 345.23x as fast as SDPA, 344.52x as fast as its math method)" in text
