"""The verification harness must catch wrong kernels, and pass right ones.

Real subprocesses in a real torch venv (``torch_venv``, torch 2.13.0 CPU): each fake kernel
under ``tests/data/bad_kernels/<name>/`` is a package with the kernel's import name, put first
on the child's PYTHONPATH through ``run_verification(extra_pythonpath=...)`` exactly as a staged
wheel is. The GPU adapters (flash_attn, flashmla) run here in the harness's test mode
(``KSW_VERIFY_TEST_CPU=1``) against CPU stand-ins; the real ones need a GPU (tests/gpu).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from verify_testsupport import verify_test_mode

from kernel_wizard.base.errors import Cancelled
from kernel_wizard.verify import (
    SCHEMA,
    CaseStatus,
    ErrorKind,
    ErrorMeasure,
    VerifyCase,
    VerifyError,
    VerifyReport,
    VerifyStatus,
    render_markdown,
    report_view,
    run_verification,
    write_markdown,
)

REPO = Path(__file__).resolve().parents[2]
BAD = REPO / "tests" / "data" / "bad_kernels"
PROBE_SOURCE = REPO / "resources" / "probe_kernel"


def verify(python: Path, kernel: str | None, adapter: str = "probe", **kwargs: Any) -> VerifyReport:
    extra = [BAD / kernel] if kernel else []
    return run_verification(python, adapter, extra_pythonpath=extra, **kwargs)


def measures_by_name(case: VerifyCase) -> dict[str, ErrorMeasure]:
    return {m.name: m for m in case.measures}


# ------------------------------------------------------------------------------------------
# The control: a correct kernel passes, with sensible numbers
# ------------------------------------------------------------------------------------------


def test_correct_kernel_passes_every_check(torch_venv: Path) -> None:
    lines: list[str] = []
    report = verify(torch_venv, "correct", on_line=lines.append)
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    assert report.error_kind is None and report.reasons == ()
    assert report.kernel is not None
    assert Path(report.kernel.file or "").is_relative_to(BAD / "correct")  # the staged copy won
    assert report.kernel.version == "0.0.0+correct"
    assert report.environment is not None
    assert report.environment.torch_version == "2.13.0+cpu"
    assert not report.environment.cuda_available
    assert "only the CPU path was checked" in " ".join(report.notes)
    # float64 and float32, head dims 32 and 64, a non-power-of-two seqlen, causal and not
    assert len(report.cases) == 8
    assert {c.dtype for c in report.cases} == {"float64", "float32"}
    assert {c.shapes["q"][3] for c in report.cases} == {32, 64}
    assert 77 in {c.shapes["q"][2] for c in report.cases}
    assert {c.causal for c in report.cases} == {True, False}
    for case in report.cases:
        assert case.status is CaseStatus.PASS
        m = measures_by_name(case)
        assert set(m) == {"out", "dq", "dk", "dv"}
        for measure in m.values():
            assert measure.passed and measure.kernel_err is not None
            assert measure.kernel_err <= measure.tolerance
            assert measure.nan_count == 0
        if case.dtype == "float64":
            assert case.reference_dtype == "float64"
            assert m["out"].reference_dtype_err == 0.0  # same computation: the floor decides
            assert m["out"].tolerance == pytest.approx(1e-8)
            assert m["out"].kernel_err is not None and m["out"].kernel_err < 1e-13
        else:
            pt = m["out"].reference_dtype_err
            assert pt is not None and 1e-8 < pt < 1e-4  # float32 PyTorch has a real error
            assert m["out"].tolerance == pytest.approx(2 * pt + 1e-5)
            assert m["dq"].tolerance == pytest.approx(3 * (m["dq"].reference_dtype_err or 0) + 5e-5)
    floors = report.rule["floors"]
    assert floors["float64"] == {"output": 1e-8, "gradient": 2e-8}
    assert report.rule["output_factor"] == 2.0 and report.rule["gradient_factor"] == 3.0
    # progress streamed line by line, the JSON blob not
    assert any(line.startswith("[ksw-verify] case 1/8: ") for line in lines)
    assert any(line.startswith("[ksw-verify] overall: PASS") for line in lines)
    assert not any(line.startswith("{") for line in lines)
    assert report.exit_code == 0
    assert "torch" not in sys.modules  # never imported into the wizard's process


# ------------------------------------------------------------------------------------------
# Wrong kernels fail, for the right reason
# ------------------------------------------------------------------------------------------


def test_softmax_scale_off_by_a_thousandth_fails_the_output(torch_venv: Path) -> None:
    report = verify(torch_venv, "wrong_scale", quick=True)
    assert report.status is VerifyStatus.FAIL
    assert report.cases and all(c.status is CaseStatus.FAIL for c in report.cases)
    for case in report.cases:
        out = measures_by_name(case)["out"]
        assert not out.passed and out.problem == "error"
        assert out.kernel_err is not None and out.kernel_err > 1e-4  # real, visible error
        assert out.fraction_over is not None and out.fraction_over > 0.5  # everywhere
        assert case.reasons[0].startswith(f"out differs from the {case.reference_dtype} reference")
        assert "more than allowed" in case.reasons[0]
    assert report.reasons[0].startswith(report.cases[0].name)
    assert "FAIL" in report.headline


def test_wrong_backward_fails_only_the_broken_gradient(
    torch_venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a relative staging folder works too (the harness runs in a temporary working folder)
    monkeypatch.chdir(REPO)
    staged = Path("tests", "data", "bad_kernels", "wrong_backward")
    report = run_verification(torch_venv, "probe", extra_pythonpath=[staged], quick=True)
    assert report.kernel is not None and report.kernel.version == "0.0.0+wrong-backward"
    assert report.status is VerifyStatus.FAIL
    for case in report.cases:
        m = measures_by_name(case)
        assert m["out"].passed and m["dq"].passed and m["dk"].passed
        assert not m["dv"].passed
        assert [r.split(" ")[0] for r in case.reasons] == ["dv"]
        assert case.reasons[0].startswith("dv (gradient of v) differs")


def test_unwritten_output_rows_are_caught(torch_venv: Path) -> None:
    report = verify(torch_venv, "unwritten_rows", quick=True)
    assert report.status is VerifyStatus.FAIL
    for case in report.cases:
        out = measures_by_name(case)["out"]
        assert not out.passed
        assert out.problem in ("nonfinite", "error")  # NaN-poisoned memory, or garbage/zeros
        seqlen = case.shapes["q"][2]
        assert out.worst_index is not None
        assert out.worst_index[2] >= seqlen - 5  # the worst element is in the unwritten rows
        assert case.reasons[0].startswith("out ")
        # only the last 5 of each (batch, head)'s rows are wrong, not everything
        assert out.fraction_over is not None and out.fraction_over <= 5 / seqlen + 1e-9


def test_nan_in_the_output_is_reported_with_its_position(torch_venv: Path) -> None:
    report = verify(torch_venv, "nan_output", quick=True)
    assert report.status is VerifyStatus.FAIL
    for case in report.cases:
        out = measures_by_name(case)["out"]
        assert out.nan_count == 1 and out.kernel_err is None and not out.passed
        assert out.worst_index == (0, 0, case.shapes["q"][2] - 1, 1)
        assert "contains 1 NaN value(s)" in case.reasons[0]
        assert out.cell() == "NaN x1"


def test_float64_kernel_computing_in_float32_fails_on_float64_only(torch_venv: Path) -> None:
    report = verify(torch_venv, "low_precision", quick=True)
    assert report.status is VerifyStatus.FAIL
    by_dtype = {c.dtype: c for c in report.cases}
    assert by_dtype["float64"].status is CaseStatus.FAIL
    out64 = measures_by_name(by_dtype["float64"])["out"]
    assert out64.kernel_err is not None and 1e-7 < out64.kernel_err < 1e-5  # float32 rounding
    assert by_dtype["float32"].status is CaseStatus.PASS


# ------------------------------------------------------------------------------------------
# A kernel that is missing or cannot load is an ERROR with a reason a person can act on
# ------------------------------------------------------------------------------------------


def test_missing_kernel_is_an_error_saying_so(torch_venv: Path) -> None:
    report = verify(torch_venv, None, quick=True)
    assert report.status is VerifyStatus.ERROR
    assert report.error_kind is ErrorKind.NOT_INSTALLED
    assert report.reasons[0].startswith("ksw_probe is not installed in this environment")
    assert report.cases == ()
    assert "could not be verified" in report.headline


def test_kernel_built_against_another_torch_says_rebuild(torch_venv: Path) -> None:
    report = verify(torch_venv, "abi_mismatch", quick=True)
    assert report.status is VerifyStatus.ERROR
    assert report.error_kind is ErrorKind.ABI_MISMATCH
    assert "built against another version of PyTorch" in report.reasons[0]
    assert "undefined symbol" in report.reasons[0] and "rebuild" in report.reasons[0]


def test_interpreter_that_does_not_exist(tmp_path: Path) -> None:
    report = run_verification(tmp_path / "no-python", "probe")
    assert report.status is VerifyStatus.ERROR
    assert report.error_kind is ErrorKind.NOT_STARTED
    assert "could not be started" in report.reasons[0]


def test_unknown_adapter_or_device_is_refused(tmp_path: Path) -> None:
    with pytest.raises(VerifyError, match="Unknown verification adapter"):
        run_verification(Path(sys.executable), "xformers")
    with pytest.raises(VerifyError, match="Unknown device"):
        run_verification(Path(sys.executable), "probe", device="tpu")


# ------------------------------------------------------------------------------------------
# The runner: crash, hang, cancel
# ------------------------------------------------------------------------------------------


def _fake_probe(folder: Path, body: str) -> Path:
    package = folder / "ksw_probe"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(body, encoding="utf-8")
    return folder


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_kernel_that_crashes_the_process_fails_naming_the_check(
    torch_venv: Path, tmp_path: Path
) -> None:
    staged = _fake_probe(
        tmp_path / "crash",
        "import ctypes\n"
        "def has_cuda():\n    return False\n"
        "def attention(q, k, v, causal=False, scale=None):\n"
        "    ctypes.string_at(0)  # a real segmentation fault, as a broken extension makes\n",
    )
    report = run_verification(torch_venv, "probe", extra_pythonpath=[staged], quick=True)
    assert report.status is VerifyStatus.FAIL
    assert report.error_kind is ErrorKind.CRASHED
    assert "SIGSEGV" in report.reasons[0]
    assert "during the check 'cpu-float64-causal-b2h3s77d32'" in report.reasons[0]
    assert any("case 1/2" in line for line in report.log_tail)


def test_hanging_kernel_times_out(torch_venv: Path, tmp_path: Path) -> None:
    staged = _fake_probe(tmp_path / "hang", "import time\ntime.sleep(600)\n")
    started = time.monotonic()
    report = run_verification(torch_venv, "probe", extra_pythonpath=[staged], timeout=4)
    assert time.monotonic() - started < 20
    assert report.status is VerifyStatus.ERROR
    assert report.error_kind is ErrorKind.TIMEOUT
    assert "did not finish within 4 seconds" in report.reasons[0]


def test_cancel_stops_the_harness_process(
    torch_venv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid_file = tmp_path / "pid"
    staged = _fake_probe(
        tmp_path / "slow",
        "import os, time\n"
        "open(os.environ['KSW_TEST_PID_FILE'], 'w').write(str(os.getpid()))\n"
        "def has_cuda():\n    return False\n"
        "def attention(q, k, v, causal=False, scale=None):\n    time.sleep(600)\n",
    )
    monkeypatch.setenv("KSW_TEST_PID_FILE", str(pid_file))
    cancel = threading.Event()

    def on_line(line: str) -> None:
        if line.startswith("[ksw-verify] case 1/"):
            cancel.set()

    started = time.monotonic()
    with pytest.raises(Cancelled) as caught:
        run_verification(
            torch_venv, "probe", extra_pythonpath=[staged], cancel=cancel, on_line=on_line
        )
    assert time.monotonic() - started < 30
    assert caught.value.exit_code == 130
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


# ------------------------------------------------------------------------------------------
# GPU adapters, in the harness's test mode on the CPU
# ------------------------------------------------------------------------------------------


@pytest.fixture
def test_mode(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    return verify_test_mode(monkeypatch)


def test_flash_attn_adapter_passes_a_correct_stand_in(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    report = verify(torch_venv, "flash_attn_correct", "flash_attn", device="cpu", quick=True)
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    assert report.options.get("test_mode") is True
    assert any(n.startswith("TEST MODE") for n in report.notes)
    apis = {c.api for c in report.cases}
    assert apis == {"flash_attn.flash_attn_func", "flash_attn.flash_attn_varlen_func"}
    assert {c.dtype for c in report.cases} == {"float16", "bfloat16"}
    assert any(c.extra.get("gqa") for c in report.cases)  # fewer kv heads
    for case in report.cases:
        m = measures_by_name(case)
        assert set(m) == {"out", "dq", "dk", "dv"}
        pt = m["out"].reference_dtype_err
        assert pt is not None and pt > 1e-5  # half precision: PyTorch's own error is real
        assert m["out"].tolerance == pytest.approx(2 * pt + m["out"].floor)


def test_flash_attn_wheel_without_backward_fails_with_that_reason(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    report = verify(torch_venv, "flash_attn_forward_only", "flash_attn", device="cpu", quick=True)
    assert report.status is VerifyStatus.FAIL
    for case in report.cases:
        assert measures_by_name(case)["out"].passed  # the forward is right
        assert case.reasons[0].startswith("backward raised RuntimeError")
        assert "forward-only" in case.reasons[0]


def test_flash_attn_without_a_gpu_is_an_error(torch_venv: Path) -> None:
    report = verify(torch_venv, "flash_attn_correct", "flash_attn", quick=True)
    assert report.status is VerifyStatus.ERROR
    assert report.error_kind is ErrorKind.NO_DEVICE
    assert "cannot use a CUDA GPU" in report.reasons[0]


def test_flash_attention_3_compact_build_passes_on_the_head_size_it_has(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    report = verify(torch_venv, "flash_attn_3_correct", "flash_attn_3", device="cpu")
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    cases = [c for c in report.cases if not c.extra.get("boundary")]
    apis = {c.api for c in cases}
    assert apis == {"flash_attn_interface.flash_attn_func",
                    "flash_attn_interface.flash_attn_varlen_func"}
    assert {c.shapes["q"][-1] for c in cases} == {128}  # compact: head size 128 only
    assert {c.dtype for c in cases} == {"float16", "bfloat16"}
    assert {c.causal for c in cases} == {True, False}
    assert any(c.extra.get("gqa") for c in cases)
    for case in cases:
        assert set(measures_by_name(case)) == {"out", "dq", "dk", "dv"}  # forward and backward
    said = " ".join(report.notes)
    assert "leaves out head size 64, head size 96, head size 192, head size 256, FP8" in said
    assert report.kernel is not None
    assert report.kernel.extra["build_flags"]["FLASHATTENTION_DISABLE_HDIM64"] is True


def test_flash_attention_3_compact_build_raises_for_what_it_left_out(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    """The boundary checks: each left-out call runs in a child process and must raise."""
    report = verify(torch_venv, "flash_attn_3_correct", "flash_attn_3", device="cpu")
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    boundary = {c.extra["left_out"]: c for c in report.cases if c.extra.get("boundary")}
    assert set(boundary) == {"head size 192", "head size 256", "softcap", "sliding windows",
                             "paged KV", "FP8"}
    for what, case in boundary.items():
        assert case.status is CaseStatus.PASS, (what, case.reasons)
        assert case.extra["outcome"] == "raised"
        assert "RuntimeError: This FlashAttention 3 build has no kernel for" in \
            case.extra["message"]
    said = " ".join(report.notes)
    assert ("Calls to what this build left out, each run in a process of its own: head size "
            "192 -> raised, head size 256 -> raised") in said
    assert "What such a call says: RuntimeError: This FlashAttention 3 build has no kernel " \
        "for head size 192" in said and "Full variant" in said


def test_flash_attention_3_build_that_crashes_on_a_left_out_call_fails(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    """Upstream's behaviour planted: a left-out head size kills the process (SIGSEGV). The
    forward/backward checks still pass; the boundary checks fail the verification and say so
    in words."""
    test_mode.setenv("KSW_FA3_STANDIN_CRASH", "1")
    report = verify(torch_venv, "flash_attn_3_correct", "flash_attn_3", device="cpu", quick=True)
    assert report.status is VerifyStatus.FAIL
    normal = [c for c in report.cases if not c.extra.get("boundary")]
    assert normal and all(c.status is CaseStatus.PASS for c in normal)
    crashed = [c for c in report.cases if c.extra.get("boundary")]
    assert [c.extra["left_out"] for c in crashed] == ["head size 192", "head size 256"]
    for case in crashed:
        assert case.status is CaseStatus.FAIL
        assert case.extra["outcome"] == "crashed"
    first = report.reasons[0]
    assert "head size 192, which this build left out, crashed the Python process" in first
    assert "segmentation fault (SIGSEGV" in first


def test_flash_attention_3_with_kv_heads_tiled_fails_the_gqa_checks_only(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    test_mode.setenv("KSW_FA3_STANDIN_GQA", "repeat")
    report = verify(torch_venv, "flash_attn_3_correct", "flash_attn_3", device="cpu")
    assert report.status is VerifyStatus.FAIL
    for case in report.cases:
        gqa = bool(case.extra.get("gqa"))
        assert (case.status is CaseStatus.FAIL) is gqa, case.name
        if gqa:
            assert not measures_by_name(case)["out"].passed


def test_flash_attention_3_without_a_gpu_is_an_error(torch_venv: Path) -> None:
    report = verify(torch_venv, "flash_attn_3_correct", "flash_attn_3", quick=True)
    assert report.status is VerifyStatus.ERROR
    assert report.error_kind is ErrorKind.NO_DEVICE
    assert "cannot use a CUDA GPU" in report.reasons[0]


def test_flashmla_sm90_decoding_with_either_metadata_api(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    test_mode.setenv("KSW_VERIFY_TEST_CC", "9.0")
    for kernel, call in (
        ("flashmla_correct", "get_mla_metadata()"),  # today's lazy API
        ("flashmla_no_kernel", "get_mla_metadata(cache_seqlens, 16, 1)"),  # the old one
    ):
        report = verify(torch_venv, kernel, "flashmla", device="cpu", quick=True)
        decoding = [c for c in report.cases if not c.extra.get("boundary")]
        assert decoding and all(c.status is CaseStatus.PASS for c in decoding)
        (prefill,) = [c for c in report.cases if c.extra.get("boundary")]
        if kernel == "flashmla_correct":  # the wizard's patched interface: a plain refusal
            assert report.status is VerifyStatus.PASS, report_view(report).lines()
            assert prefill.extra["outcome"] == "raised"
            assert "runs on SM100 GPUs (B200, GB200) only; this GPU is sm_90" in \
                prefill.extra["message"]
        else:  # the old one returns its buffers unwritten on SM90: a silent wrong result
            assert report.status is VerifyStatus.FAIL
            assert prefill.extra["outcome"] == "ran"
            assert "which this build says it left out, ran" in prefill.reasons[0]
        assert any("no backward pass on SM90" in n for n in report.notes)
        first = report.cases[0]
        assert first.api == "flash_mla.flash_mla_with_kvcache" and not first.backward
        assert first.extra["metadata_call"] == call
        m = measures_by_name(first)
        assert set(m) == {"out", "lse"}
        assert m["out"].rule == "upstream_allclose" and m["out"].abs_tol == 8e-4


def test_flashmla_prefill_on_sm90_must_say_what_to_do(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    """Upstream's behaviour planted: the SM100-only dense prefill fails on SM90 with a bare
    CUDA launch failure. The exception carries CUDA's sticky error: the process has no usable
    GPU after it, so the boundary check counts it as a crash and fails the verification."""
    test_mode.setenv("KSW_VERIFY_TEST_CC", "9.0")
    test_mode.setenv("KSW_FLASHMLA_STANDIN_UNGUARDED", "1")
    report = verify(torch_venv, "flashmla_correct", "flashmla", device="cpu", quick=True)
    assert report.status is VerifyStatus.FAIL
    (prefill,) = [c for c in report.cases if c.extra.get("boundary")]
    assert prefill.status is CaseStatus.FAIL and prefill.extra["outcome"] == "crashed"
    assert "stopped the GPU (the GPU stopped the call (unspecified launch failure)" in \
        prefill.reasons[0]
    assert "cannot use the GPU any more" in prefill.reasons[0]


def test_flashmla_no_kernel_instantiated_is_a_failure(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    test_mode.setenv("KSW_VERIFY_TEST_CC", "10.0")
    report = verify(torch_venv, "flashmla_no_kernel", "flashmla", device="cpu", quick=True)
    assert report.status is VerifyStatus.FAIL
    for case in report.cases:
        assert case.api == "flash_mla.flash_attn_varlen_func"
        assert case.reasons[0].startswith("the kernel printed 'No kernel instantiated for head_dim")
        assert "No kernel instantiated" in case.kernel_output  # captured at the fd level
        assert not measures_by_name(case)["out"].passed


def test_flashmla_on_an_unsupported_gpu_is_an_error(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    test_mode.setenv("KSW_VERIFY_TEST_CC", "8.6")
    report = verify(torch_venv, "flashmla_correct", "flashmla", device="cpu", quick=True)
    assert report.status is VerifyStatus.ERROR
    assert report.error_kind is ErrorKind.UNSUPPORTED_GPU
    assert "SM90" in report.reasons[0] and "8.6" in report.reasons[0]


# ------------------------------------------------------------------------------------------
# The report: JSON round trip, markdown
# ------------------------------------------------------------------------------------------


def _sample_report_json() -> dict[str, object]:
    nan_measure = {
        "name": "out",
        "rule": "flash_attn",
        "factor": 2.0,
        "floor": 1e-10,
        "kernel_err": None,
        "reference_dtype_err": 0.0,
        "tolerance": 1e-10,
        "passed": False,
        "nan_count": 3,
        "inf_count": 0,
        "worst_index": [0, 1, 76, 2],
        "fraction_over": 0.0002,
        "problem": "nonfinite",
    }
    good = dict(nan_measure, name="dv", kernel_err=2e-15, tolerance=1e-9, passed=True,
                nan_count=0, problem=None, worst_index=[1, 0, 3, 4])  # fmt: skip
    return {
        "schema": SCHEMA,
        "adapter": "probe",
        "status": "fail",
        "error_kind": None,
        "reasons": ["cpu-float64-causal: out contains 3 NaN value(s)"],
        "notes": ["a note | with a pipe"],
        "started_at": "2026-11-21T10:00:00+00:00",
        "seconds": 2.5,
        "options": {"device": "auto", "quick": True, "seed": 0},
        "rule": {"text": "rule text", "floors": {"float64": {"output": 1e-10, "gradient": 1e-9}}},
        "environment": {
            "python": "3.11.7",
            "python_executable": "/venv/bin/python",
            "platform": "Linux",
            "torch_version": "2.11.0+cu130",
            "torch_cuda": "13.0",
            "cuda_available": True,
            "device_name": "NVIDIA H100 80GB HBM3",
            "device_capability": [9, 0],
            "device_memory_bytes": 85520809984,
            "driver_version": "580.159.04",
            "cuda_driver_api": "13.0",
            "cpu_threads": 16,
        },
        "kernel": {
            "module": "ksw_probe",
            "version": "0.1.0",
            "dist_version": "0.1.0",
            "file": "/staged/ksw_probe/__init__.py",
            "has_cuda": True,
        },  # fmt: skip
        "cases": [
            {
                "name": "cpu-float64-causal",
                "api": "ksw_probe.attention",
                "device": "cpu",
                "dtype": "float64",
                "causal": True,
                "shapes": {"q": [2, 3, 77, 32], "k": [2, 3, 77, 32], "v": [2, 3, 77, 32]},
                "scale": None,
                "status": "fail",
                "reasons": ["out contains 3 NaN value(s)"],
                "measures": [nan_measure, good],
                "kernel_output": "",
                "reference_dtype": "float64",
                "backward": True,
                "layout": "batch, heads, seqlen, head_dim",
                "seconds": 0.25,
            }
        ],
        "timings": [
            {
                "name": "forward",
                "shapes": {"q": [4, 8, 1024, 64]},
                "dtype": "float16",
                "kernel_ms": 0.5,
                "sdpa_ms": 0.25,
                "speedup": 0.5,
                "runs": 10,
                "warmup": 3,
                "note": "",
                "error": None,
            },
        ],  # fmt: skip
    }


def test_report_json_round_trip() -> None:
    report = VerifyReport.from_json(_sample_report_json())
    assert report.status is VerifyStatus.FAIL
    case = report.cases[0]
    assert case.shapes["q"] == (2, 3, 77, 32)
    assert case.extra == {"scale": None}
    out = case.measure("out")
    assert out is not None and out.nan_count == 3 and out.worst_index == (0, 1, 76, 2)
    assert case.failed_measures() == (out,)
    assert report.environment is not None and report.environment.device_capability == (9, 0)
    assert report.environment.extra == {"cpu_threads": 16}
    assert report.kernel is not None and report.kernel.extra == {"has_cuda": True}
    assert report.timings[0].speedup == 0.5
    again = VerifyReport.from_json(report.to_json())
    assert again == report
    assert VerifyReport.from_json_text(report.to_json_text()) == report
    json.loads(report.to_json_text())  # strict JSON: no NaN/Infinity tokens


def test_report_from_another_schema_is_refused() -> None:
    data = _sample_report_json()
    data["schema"] = "ksw.verify/2"
    with pytest.raises(VerifyError, match="cannot read"):
        VerifyReport.from_json(data)
    with pytest.raises(VerifyError, match="not a kernel verification report"):
        VerifyReport.from_json({"schema": "something/1"})
    with pytest.raises(VerifyError, match="not valid JSON"):
        VerifyReport.from_json_text("{nope")


def test_markdown_summary(tmp_path: Path) -> None:
    report = VerifyReport.from_json(_sample_report_json())
    path = write_markdown(report, tmp_path / "reports" / "verify.md")
    text = path.read_text(encoding="utf-8")
    assert text == render_markdown(report)
    assert text.startswith("# Kernel verification: FAIL")
    assert "| Kernel | ksw_probe 0.1.0 (`/staged/ksw_probe/__init__.py`) |" in text
    assert "NVIDIA H100 80GB HBM3, compute capability 9.0, 80 GiB" in text
    assert "| Driver | 580.159.04 (CUDA 13.0) |" in text
    assert "| Result | Check | Device | dtype | Causal | Shapes | out | dv |" in text
    assert "| FAIL | cpu-float64-causal | cpu | float64 | yes |" in text
    assert "**NaN x3**" in text and "2e-15 <= 1e-09" in text
    # an old report: no SDPA method named, no work figure for a rate
    assert "| forward | q 4x8x1024x64, float16 | 0.500 | - | - | 0.250 | - | - | 0.50x | - |" \
        in text
    assert "| float64 | 1e-10 | 1e-09 |" in text
    assert "a note \\| with a pipe" in text  # table-safe
    lines = report_view(report).lines()
    assert lines[0].startswith("ksw_probe 0.1.0: FAIL - 1 of 1 checks failed.")
    assert any("GPU NVIDIA H100 80GB HBM3 (cc 9.0), driver 580.159.04" in x for x in lines)
    assert any("timing forward: kernel 0.500 ms, SDPA 0.250 ms" in x for x in lines)


# ------------------------------------------------------------------------------------------
# The real probe kernel: build it, stage it with pip --target, verify it before installing
# ------------------------------------------------------------------------------------------


def _probe_source_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(PROBE_SOURCE.rglob("*")):
        rel = path.relative_to(PROBE_SOURCE)
        if path.is_file() and not {"build", "dist", "__pycache__"} & set(rel.parts):
            if ".egg-info" not in str(rel):
                digest.update(str(rel).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _probe_wheel(python: Path, tmp_path: Path) -> Path:
    """Build the probe from a copy of its source (never in the repo); the wheel is cached in
    the test cache (as conftest's venvs are) by source hash, so later runs skip the build."""
    root = Path(os.environ.get("KSW_TEST_CACHE", Path.home() / ".cache" / "ksw-tests"))
    code = "import sys; print('%d%d' % sys.version_info[:2])"
    version = subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                             check=True).stdout.strip()
    tag = f"{_probe_source_hash()}-py{version}"  # the Python the wheel is built for
    cache = root / "probe-wheels" / tag
    wheels = sorted(cache.glob("ksw_probe_kernel-*.whl"))
    if wheels:
        return wheels[0]
    source = tmp_path / "probe src"
    shutil.copytree(
        PROBE_SOURCE, source, ignore=shutil.ignore_patterns("build", "dist", "*.egg-info")
    )
    out = tmp_path / "wheel"
    env = dict(os.environ, KSW_PROBE_CPU_ONLY="1")
    subprocess.run(
        [str(python), "-m", "pip", "wheel", ".", "--no-build-isolation", "--no-deps", "-w",
         str(out)],
        cwd=source, env=env, check=True, capture_output=True,
    )  # fmt: skip
    built = sorted(out.glob("ksw_probe_kernel-*.whl"))
    assert built, "pip wheel produced no wheel"
    cache.mkdir(parents=True, exist_ok=True)
    shutil.copy2(built[0], cache / built[0].name)
    return cache / built[0].name


@pytest.mark.slow
@pytest.mark.skipif(
    not (PROBE_SOURCE / "setup.py").is_file(), reason="resources/probe_kernel is not there yet"
)
def test_real_probe_kernel_staged_with_pip_target_passes(torch_venv: Path, tmp_path: Path) -> None:
    wheel = _probe_wheel(torch_venv, tmp_path)
    staged = tmp_path / "staged site"
    subprocess.run(
        [str(torch_venv), "-m", "pip", "install", "-q", "--no-deps", "--target", str(staged),
         str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    lines: list[str] = []
    report = run_verification(torch_venv, "probe", extra_pythonpath=[staged], on_line=lines.append)
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    assert report.kernel is not None
    assert Path(report.kernel.file or "").is_relative_to(staged)
    assert report.kernel.dist_version == report.kernel.version
    assert report.kernel.extra["has_cuda"] is False
    assert report.kernel.extra["build_info"]["torch_version"] == "2.13.0+cpu"
    assert report.extra_pythonpath == (str(staged),)
    assert len(report.cases) == 8
    for case in report.cases:
        for m in case.measures:
            assert m.kernel_err is not None
            if case.dtype == "float64":
                assert m.kernel_err < 1e-12  # a real float64 kernel: ~1e-15
            else:
                assert m.kernel_err < 1e-4
                assert m.reference_dtype_err is not None
                assert m.kernel_err <= 10 * m.reference_dtype_err + 1e-6  # PyTorch-like error
    assert report.seconds < 60


def test_flashmla_sparse_prefill_outside_its_sizes_must_raise_not_crash(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    """The full verification also calls sparse prefill with 32 query heads, in a process of its
    own (issue 30): upstream's extension died of a segmentation fault there on an H200, the
    wizard's patched interface raises a ValueError naming the sizes it has."""
    test_mode.setenv("KSW_VERIFY_TEST_CC", "9.0")
    report = verify(torch_venv, "flashmla_correct", "flashmla", device="cpu")
    sparse = [c for c in report.cases if c.extra.get("boundary")
              and "flash_mla_sparse_fwd" in c.api]
    assert len(sparse) == 1 and sparse[0].status is CaseStatus.PASS
    assert "64 or 128 query heads only; got 32" in sparse[0].extra["message"]
    assert report.status is VerifyStatus.PASS, report_view(report).lines()
    quick = verify(torch_venv, "flashmla_correct", "flashmla", device="cpu", quick=True)
    assert not [c for c in quick.cases if "flash_mla_sparse_fwd" in c.api]  # full mode only
    test_mode.setenv("KSW_FLASHMLA_STANDIN_UNGUARDED", "1")
    crashed = verify(torch_venv, "flashmla_correct", "flashmla", device="cpu")
    assert crashed.status is VerifyStatus.FAIL
    (case,) = [c for c in crashed.cases if "flash_mla_sparse_fwd" in c.api]
    assert case.status is CaseStatus.FAIL and case.extra["outcome"] == "crashed"
