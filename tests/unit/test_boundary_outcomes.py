"""A boundary call's outcome says what a program making that call would meet (issue 30).

A call that raises a Python error a program can catch is "raised"; one whose error is CUDA's
sticky kind (a kernel trapped: "unspecified launch failure", an illegal memory access, a
device-side assert) leaves the process without a usable GPU, so it is a crash, whatever
exception carried it (DeepEP's intranode dispatch at hidden 7000 on an H200 did exactly that,
docs/recorded/h200-2026-11-28/boundary.json). Real child processes, plain Python calls.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

VERIFY = Path(__file__).resolve().parents[2] / "resources" / "verify"


@pytest.fixture(scope="module")
def hb() -> Iterator[ModuleType]:
    sys.path.insert(0, str(VERIFY))
    try:
        import harness_boundary

        yield harness_boundary
    finally:
        sys.path.remove(str(VERIFY))


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
