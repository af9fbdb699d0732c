"""The DeepEP adapter on the CPU: one process per rank with gloo, against a stand-in ``deep_ep``
(tests/data/bad_kernels/deepep_standin) that reaches the same answers by another route, and the
same stand-in with one planted bug at a time (``KSW_STANDIN_BUG``): the adapter must pass the
correct one and name each bug in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from verify_testsupport import verify_test_mode

from kernel_wizard.verify import ErrorKind, VerifyStatus, report_view, run_verification
from kernel_wizard.verify.markdown import render_markdown
from kernel_wizard.verify.wording import speed_text

STANDIN = Path(__file__).resolve().parents[1] / "data" / "bad_kernels" / "deepep_standin"
pytestmark = pytest.mark.slow


@pytest.fixture
def cpu_mode(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    verify_test_mode(monkeypatch)
    monkeypatch.setenv("KSW_VERIFY_DEEPEP_WORLDS", "2")
    monkeypatch.delenv("KSW_STANDIN_BUG", raising=False)
    return monkeypatch


def verify(python: Path, **kwargs: object):  # type: ignore[no-untyped-def]
    return run_verification(python, "deepep", device="cpu", extra_pythonpath=[STANDIN],
                            timeout=240, **kwargs)  # type: ignore[arg-type]


def test_correct_dispatch_and_combine_pass_on_two_and_four_ranks(
    torch_venv: Path, cpu_mode: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cpu_mode.setenv("KSW_VERIFY_DEEPEP_WORLDS", "2,4")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    cpu_mode.setenv("TMPDIR", str(scratch))
    report = verify(torch_venv)
    # each GPU count's processes wrote their results in a folder of their own: none is left
    assert not list(scratch.glob("ksw-deepep-*")), list(scratch.iterdir())
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    names = [c.name for c in report.cases]
    assert len(names) == 8  # 4 checks × 2 GPU counts
    assert any(n.startswith("2 GPUs · dispatch (forward)") for n in names)
    assert any(n.startswith("4 GPUs · backward of combine") for n in names)
    assert all("bfloat16" in n and "tokens per GPU" in n for n in names)


def test_the_speed_and_the_report_speak_of_deepep_not_attention(
    torch_venv: Path, cpu_mode: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The stand-in returns what the real API returns (events, a 6-tuple handle, lists): the
    # timing of dispatch and combine, which runs after the checks as on the GPUs, must come out
    # as numbers. (On the first real 2-GPU run the timing helper's (median, reps) pair reached
    # a division, and a correct kernel was reported as 'the check itself failed: TypeError'.)
    report = verify(torch_venv)
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    assert [t.name for t in report.timings] == ["dispatch on 2 GPUs", "combine on 2 GPUs"]
    for timing in report.timings:
        assert timing.error is None, timing.error
        assert timing.kernel_ms is not None and timing.kernel_ms > 0
        assert timing.sdpa_ms is not None and timing.speedup is not None
        assert "all_to_all_single (gloo)" in timing.reference
        assert "2 GPUs" in timing.label and "hidden 128" in timing.label
    lines = speed_text(report).lines
    assert all("as fast as plain PyTorch (" in line or "slower than plain PyTorch (" in line
               for line in lines), lines
    assert all("all_to_all_single (gloo)" in line for line in lines), lines
    assert not any("SDPA" in line or "attention" in line for line in lines), lines
    # DeepEP's own rule, and the shapes of what was moved
    assert report.rule["text"].startswith("DeepEP's rule")
    assert "bit for bit" in report.rule["text"]
    markdown = render_markdown(report)
    assert "FlashAttention" not in markdown and "SDPA" not in markdown
    assert "## Speed against plain PyTorch" in markdown
    row = next(line for line in markdown.splitlines() if "dispatch (forward)" in line)
    assert "x 96x128, topk_idx 96x4" in row, row


@pytest.mark.parametrize(
    ("bug", "check", "words"),
    [
        ("order", "dispatch", "the same rows arrived in a different order"),
        ("drop", "dispatch", "received tokens: the kernel returned shape"),
        ("combine", "combine", "the sums are wrong"),
    ],
)
def test_a_planted_bug_fails_its_check_with_a_reason_in_words(
    torch_venv: Path, cpu_mode: pytest.MonkeyPatch, bug: str, check: str, words: str
) -> None:
    cpu_mode.setenv("KSW_STANDIN_BUG", bug)
    report = verify(torch_venv)
    assert report.status is VerifyStatus.FAIL, report_view(report).lines()
    failed = [c for c in report.cases if c.status.value == "fail"]
    assert any(c.extra.get("check") == check for c in failed), [c.name for c in failed]
    reason = next(c for c in failed if c.extra.get("check") == check).reasons[0]
    assert words in reason, reason
    assert reason.startswith("on GPU ")  # names the rank where it went wrong
    layout = next(c for c in report.cases if c.extra.get("check") == "layout")
    assert layout.status.value == "pass"  # the routing itself was right


def test_a_rank_that_crashes_is_an_error_naming_the_process(
    torch_venv: Path, cpu_mode: pytest.MonkeyPatch
) -> None:
    cpu_mode.setenv("KSW_STANDIN_BUG", "crash")
    report = verify(torch_venv)
    assert report.status is VerifyStatus.ERROR
    text = " ".join(report.reasons)
    assert "process 1 of 2 failed" in text and "dispatch failed on purpose" in text


def test_gpu_counts_that_do_not_parse_are_refused(
    torch_venv: Path, cpu_mode: pytest.MonkeyPatch
) -> None:
    cpu_mode.setenv("KSW_VERIFY_DEEPEP_WORLDS", "two")
    report = verify(torch_venv)
    assert report.status is VerifyStatus.ERROR
    assert report.error_kind is ErrorKind.BAD_OPTION
