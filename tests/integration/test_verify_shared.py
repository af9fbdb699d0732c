"""Several kernels of one Python verified in one harness process (issue 29, item 5): the real
harness in the CPU torch venv, the GPU adapters in their test mode (``KSW_VERIFY_TEST_CPU=1``)
against the CPU stand-ins in tests/data/bad_kernels, as tests/integration/test_verify_harness.py
runs them one at a time. Each kernel must get the report it gets alone; a kernel that crashes or
hangs the shared process must cost no other kernel its report."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from verify_testsupport import verify_test_mode

from kernel_wizard.base.errors import Cancelled
from kernel_wizard.verify import (
    ErrorKind,
    VerifyReport,
    VerifyStatus,
    report_view,
    run_verification,
    run_verifications,
)

REPO = Path(__file__).resolve().parents[2]
BAD = REPO / "tests" / "data" / "bad_kernels"
STANDINS = [BAD / "flash_attn_correct", BAD / "flash_attn_3_correct", BAD / "flashmla_correct",
            BAD / "sageattention_standin", BAD / "deepep_standin"]
CORRECT_PROBE = BAD / "correct" / "ksw_probe" / "__init__.py"


@pytest.fixture
def test_mode(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    verify_test_mode(monkeypatch, cc="9.0")  # FlashMLA's checks are those of sm90
    monkeypatch.setenv("KSW_VERIFY_DEEPEP_WORLDS", "2")
    monkeypatch.delenv("KSW_STANDIN_BUG", raising=False)
    return monkeypatch


def probe_that_crashes(folder: Path, when: str) -> Path:
    """A ``ksw_probe`` that is the correct one, except that its attention() ends the process
    with a segmentation fault when ``when`` (Python source) is true."""
    package = folder / "ksw_probe"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f'''
import ctypes, importlib.util, sys
_spec = importlib.util.spec_from_file_location("_correct_probe", {str(CORRECT_PROBE)!r})
_correct = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_correct)
__version__ = "0.0.0+crashes"
has_cuda, build_info = _correct.has_cuda, _correct.build_info

def attention(q, k, v, causal=False, scale=None):
    if {when}:
        ctypes.string_at(0)  # a real segmentation fault, as a kernel's bad memory access
    return _correct.attention(q, k, v, causal=causal, scale=scale)
''', encoding="utf-8")
    return folder


def probe_that_hangs(folder: Path) -> Path:
    package = folder / "ksw_probe"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('''
import time
__version__ = "0.0.0+hangs"
def has_cuda():
    return False
def build_info():
    return {}
def attention(q, k, v, causal=False, scale=None):
    time.sleep(3600)
''', encoding="utf-8")
    return folder


def shared_run(python: Path, adapters: list[str], probe: Path,
               **kwargs: object) -> tuple[list[VerifyReport], list[str]]:
    lines: list[str] = []
    reports = run_verifications(python, adapters, device="cpu", quick=True,
                                extra_pythonpath=[probe, *STANDINS], on_line=lines.append,
                                **kwargs)  # type: ignore[arg-type]
    return reports, lines


def started_processes(lines: list[str]) -> int:
    """How many harness processes the lines come from (each starts with one of these)."""
    return sum(1 for line in lines if line.startswith("[ksw-verify] verifying ")
               and not line.endswith(" in this process]"))


@pytest.mark.slow
def test_the_kernels_of_one_python_are_verified_in_one_process_each_as_alone(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    adapters = ["probe", "flash_attn", "flash_attn_3", "flashmla", "sageattention", "deepep"]
    reports, lines = shared_run(torch_venv, adapters, BAD / "correct")
    assert [r.adapter for r in reports] == adapters
    for report in reports:
        assert report.status is VerifyStatus.PASS, report_view(report).lines()
        assert report.quick and report.cases
        assert not any(n.startswith("Verified in a process of its own") for n in report.notes)
    shared = adapters[:-1]
    # one process for the five, one for DeepEP (it starts its own processes: kept apart)
    assert sum(1 for line in lines if line.startswith(
        "[ksw-verify] verifying 5 kernels in one process: " + ", ".join(shared))) == 1
    assert started_processes(lines) == 2
    for report in reports[:-1]:
        assert report.options["shared_process"] == shared
        # its own log: its own lines, none of the other kernels'
        own = [line for line in report.log_tail
               if line.startswith("[ksw-verify] verifying adapter")]
        assert own and all(f"'{report.adapter}'" in line for line in own), own
    assert "shared_process" not in reports[-1].options
    # each report is the one the kernel gets alone: same checks, same numbers (same seeds)
    for adapter in ("probe", "flashmla"):
        together = reports[adapters.index(adapter)]
        alone = run_verification(torch_venv, adapter, device="cpu", quick=True,
                                 extra_pythonpath=[BAD / "correct", *STANDINS])
        assert [c.name for c in together.cases] == [c.name for c in alone.cases]
        assert [[m.kernel_err for m in c.measures] for c in together.cases] == \
            [[m.kernel_err for m in c.measures] for c in alone.cases]
        assert together.kernel == alone.kernel


def test_a_kernel_that_crashes_the_shared_process_costs_no_other_its_report(
    torch_venv: Path, test_mode: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # the probe crashes only beside flash_attn (loaded in the same process): alone it passes
    probe = probe_that_crashes(tmp_path / "beside", "'flash_attn' in sys.modules")
    reports, lines = shared_run(torch_venv, ["flash_attn", "probe", "sageattention"], probe)
    first, crashed, after = reports
    assert [r.status for r in reports] == [VerifyStatus.PASS] * 3, [
        report_view(r).lines() for r in reports]
    assert first.options["shared_process"] == ["flash_attn", "probe", "sageattention"]
    assert not any(n.startswith("Verified in a process of its own") for n in first.notes)
    said = ("The verification of flash_attn, probe, sageattention in one process ended (killed "
            "by signal SIGSEGV) during probe's check 'cpu-float64-causal-b2h3s77d32': verifying "
            "probe, sageattention each in a process of its own.")
    assert said in lines, [line for line in lines if "own" in line]
    for report in (crashed, after):  # verified again alone, and the report says why
        assert "shared_process" not in report.options
        assert ("Verified in a process of its own: the verification of flash_attn, probe, "
                "sageattention in one process ended (killed by signal SIGSEGV) during probe's "
                "check 'cpu-float64-causal-b2h3s77d32'.") in report.notes
    assert crashed.kernel is not None and crashed.kernel.version == "0.0.0+crashes"
    assert started_processes(lines) == 3


def test_a_kernel_that_always_crashes_is_reported_crashed_and_the_others_pass(
    torch_venv: Path, test_mode: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    probe = probe_that_crashes(tmp_path / "always", "True")
    reports, lines = shared_run(torch_venv, ["sageattention", "probe", "flash_attn"], probe)
    before, crashed, after = reports
    assert before.status is VerifyStatus.PASS and after.status is VerifyStatus.PASS
    assert before.options["shared_process"] == ["sageattention", "probe", "flash_attn"]
    assert crashed.status is VerifyStatus.FAIL and crashed.error_kind is ErrorKind.CRASHED
    assert "crashed the verification process" in crashed.reasons[0]
    assert any("process of its own" in line for line in lines)


def test_a_kernel_that_hangs_gets_its_timeout_and_the_next_one_its_report(
    torch_venv: Path, test_mode: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    probe = probe_that_hangs(tmp_path / "hangs")
    reports, lines = shared_run(torch_venv, ["flash_attn", "probe", "sageattention"], probe,
                                timeout=20)
    first, hung, after = reports
    assert first.status is VerifyStatus.PASS  # its 20 s were its own, not shared with the hang
    assert hung.status is VerifyStatus.ERROR and hung.error_kind is ErrorKind.TIMEOUT
    assert hung.reasons[0] == ("The verification did not finish within 20 seconds (it was "
                               "running the check 'cpu-float64-causal-b2h3s77d32').")
    assert after.status is VerifyStatus.PASS
    assert any("was stopped: probe did not finish within 20 seconds" in n for n in after.notes)
    assert started_processes(lines) == 2  # the hung kernel is not run (and waited for) again


def test_cancel_stops_the_shared_process_and_verifies_nothing_more(
    torch_venv: Path, test_mode: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    probe = probe_that_hangs(tmp_path / "hangs")
    cancel = threading.Event()
    seen: list[str] = []

    def on_line(line: str) -> None:
        seen.append(line)
        if line.startswith("[ksw-verify] case 1/") and any("'probe'" in s for s in seen):
            cancel.set()

    started = time.monotonic()
    with pytest.raises(Cancelled) as caught:
        run_verifications(torch_venv, ["flash_attn", "probe", "sageattention"], device="cpu",
                          quick=True, extra_pythonpath=[probe, *STANDINS], cancel=cancel,
                          on_line=on_line)
    assert time.monotonic() - started < 60
    assert caught.value.exit_code == 130
    assert caught.value.what == "The verification was cancelled."
    assert started_processes(seen) == 1  # no kernel was verified alone after the cancel


@pytest.mark.slow
def test_deepep_is_verified_beside_the_shared_process_and_they_take_turns_on_the_gpu(
    torch_venv: Path, test_mode: pytest.MonkeyPatch
) -> None:
    # DeepEP starts its worker processes while the others are verified, but no two kernels'
    # checks or timings run on the GPU at the same time (a timing would measure both)
    adapters = ["flash_attn", "sageattention", "deepep"]
    reports, lines = shared_run(torch_venv, adapters, BAD / "correct")
    assert [r.adapter for r in reports] == adapters
    assert all(r.status is VerifyStatus.PASS for r in reports), [r.reasons for r in reports]
    turns = sorted((t["from"], t["to"], r.adapter) for r in reports
                   for t in r.options.get("gpu_turns", []))
    assert [adapter for *_, adapter in turns].count("deepep") == 1, turns
    assert {adapter for *_, adapter in turns} == set(adapters)
    for (_, end, first), (start, _, second) in zip(turns, turns[1:], strict=False):
        assert end <= start, f"{first} and {second} used the GPU at the same time: {turns}"
    # beside, not after: DeepEP's harness had started before the shared process finished
    began = next(i for i, line in enumerate(lines)
                 if line.startswith("[ksw-verify] verifying adapter 'deepep'"))
    last_shared = next(i for i, line in enumerate(lines)
                       if line.startswith("[ksw-verify] verifying adapter 'sageattention'"))
    assert began < last_shared, lines
