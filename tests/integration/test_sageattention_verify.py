"""SageAttention's verification (issue 22) catches the kernels that make black images and
passes a correctly quantized one.

Real subprocesses in the torch venv (torch 2.13.0 CPU), the adapter in the harness's test mode
(``KSW_VERIFY_TEST_CPU=1``) against a CPU stand-in of ``sageattention.sageattn`` that quantizes
as SageAttention2 does (INT8 Q·K per block with K smoothed, FP8 P and V):
tests/data/bad_kernels/sageattention_standin. ``KSW_SAGE_STANDIN_BUG`` plants one bug at a
time; each must fail exactly the cases it should, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
from verify_testsupport import verify_test_mode

from kernel_wizard.verify import (
    CaseStatus,
    VerifyReport,
    VerifyStatus,
    report_view,
    run_verification,
)

REPO = Path(__file__).resolve().parents[2]
STANDIN = REPO / "tests" / "data" / "bad_kernels" / "sageattention_standin"


@pytest.fixture
def test_mode(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    verify_test_mode(monkeypatch)
    monkeypatch.delenv("KSW_SAGE_STANDIN_BUG", raising=False)
    return monkeypatch


def verify(python: Path, quick: bool = False) -> VerifyReport:
    return run_verification(python, "sageattention", extra_pythonpath=[STANDIN], device="cpu",
                            quick=quick)


def failed(report: VerifyReport) -> set[str]:
    return {c.name for c in report.cases if c.status is not CaseStatus.PASS}


def test_a_correctly_quantized_kernel_passes_every_case(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    report = verify(torch_venv)
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    cases = report.cases
    assert {c.dtype for c in cases} == {"float16", "bfloat16"}
    assert {c.causal for c in cases} == {True, False}
    assert {c.shapes["q"][-1] for c in cases} == {64, 128}
    assert {c.extra["tensor_layout"] for c in cases} == {"HND", "NHD"}
    assert {c.extra["kind"] for c in cases} == {"accuracy", "long", "overflow", "k-outliers"}
    assert any(c.extra["gqa"] for c in cases)
    for case in cases:
        assert not case.backward  # forward only
        (m,) = case.measures
        assert m.rule == "sageattention" and m.passed
        s = m.stats
        # a quantized kernel's real error: not float attention's, well inside the limits
        assert 0.999 < s["cos_sim"] < 0.99999
        assert 0.01 < s["rel_l1"] < s["rel_l1_max"] / 1.5
        assert s["worst_row_l1"] < s["row_l1_max"] / 2
        assert s["rmse"] > 0
    overflow = [c for c in cases if c.extra["kind"] == "overflow"]
    assert overflow and all(c.extra["max_abs_scores"] > 65504 for c in overflow)
    said = " ".join(report.notes)
    assert "SageAttention has no backward pass" in said and "only the forward pass" in said
    assert report.rule["name"] == "sageattention" and report.rule["cos_min"] == 0.99


@pytest.mark.parametrize(("bug", "should_fail", "why"), [
    # the black image: scores formed in fp16 overflow to inf, the softmax turns them into NaN
    ("fp16_scores", lambda c: c.extra["kind"] == "overflow", "NaN"),
    ("causal_shift", lambda c: c.causal, "worst query row"),
    ("nhd_as_hnd", lambda c: c.extra["tensor_layout"] == "NHD", "cosine similarity"),
    ("no_smooth", lambda c: c.extra["kind"] == "k-outliers", "relative L1 error"),
])
def test_a_planted_bug_fails_exactly_its_cases(
    torch_venv: Path, test_mode: pytest.MonkeyPatch, bug: str, should_fail, why: str
) -> None:
    test_mode.setenv("KSW_SAGE_STANDIN_BUG", bug)
    report = verify(torch_venv)
    assert report.status is VerifyStatus.FAIL
    expected = {c.name for c in report.cases if should_fail(c)}
    assert expected and failed(report) == expected
    for case in report.cases:
        if case.name in expected:
            assert why in case.reasons[0], case.reasons
    if bug == "fp16_scores":
        m = report.cases[[c.name for c in report.cases].index(sorted(expected)[0])].measures[0]
        assert m.problem == "nonfinite" and m.nan_count > 0
        assert any("black or noise image" in r for r in report.reasons)


def test_the_quick_check_keeps_the_overflow_case(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    test_mode.setenv("KSW_SAGE_STANDIN_BUG", "fp16_scores")
    report = verify(torch_venv, quick=True)
    assert len(report.cases) == 3
    assert report.status is VerifyStatus.FAIL
    assert failed(report) == {c.name for c in report.cases if c.extra["kind"] == "overflow"}


def test_without_a_gpu_it_is_an_error(torch_venv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KSW_VERIFY_TEST_CPU", raising=False)
    report = run_verification(torch_venv, "sageattention", extra_pythonpath=[STANDIN],
                              quick=True)
    assert report.status is VerifyStatus.ERROR
    assert "cannot use a CUDA GPU" in report.reasons[0]
