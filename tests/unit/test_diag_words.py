"""The build's own sentences (retry reasons, the failed build's message and hint, the advice for
a too new Visual Studio) are translatable Msg sentences whose English, which the CLI prints and
the log keeps, is exactly the English written before they became translatable."""

from __future__ import annotations

import sys
from pathlib import Path

from kernel_wizard.base.messages import Msg
from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import BuildPlan, make_plan
from kernel_wizard.build.run import _failed, retry_plan
from kernel_wizard.diagnose import RetryAction, diagnose_lines
from kernel_wizard.diagnose.facts import LogFacts, _msvc_too_new_advice


def _plan(tmp_path: Path, jobs: int = 8, threads: int = 1,
          cuda_home: Path | None = None) -> BuildPlan:
    return make_plan(kernel="fake", version="0.1", source_dir=tmp_path,
                     python=Path(sys.executable), python_scripts=None,
                     output_dir=tmp_path / "out", log_path=tmp_path / "build.log",
                     parallelism=Parallelism(jobs, threads, "test"), cuda_home=cuda_home)


def test_retry_reasons_read_as_before(tmp_path: Path) -> None:
    retry = retry_plan(_plan(tmp_path, 8), RetryAction.HALVE_JOBS)
    assert retry is not None
    plan, reason = retry
    assert reason == "The build ran out of memory; trying again with 8 → 4 parallel compile jobs."
    assert isinstance(reason, Msg) and reason.template.startswith("The build ran out of memory")
    assert plan.parallelism.reason == "halved after running out of memory: 8 → 4 parallel " \
        "compile jobs"
    retry = retry_plan(_plan(tmp_path, 1, 4), RetryAction.HALVE_JOBS)
    assert retry is not None
    assert retry[1] == "The build ran out of memory; trying again with 4 → 2 nvcc threads."

    cccl = tmp_path / "cuda" / "include" / "cccl"
    cccl.mkdir(parents=True)
    retry = retry_plan(_plan(tmp_path, cuda_home=tmp_path / "cuda"), RetryAction.ADD_CCCL_INCLUDE)
    assert retry is not None
    assert retry[1] == (f"The host compiler could not find CUDA 13's CCCL headers; adding {cccl} "
                        "to its include path and trying again.")
    retry = retry_plan(_plan(tmp_path), RetryAction.FORCE_BUILD)
    assert retry is not None
    assert retry[1] == "Skipping the library's own wheel download and building."


def test_a_failed_builds_message_and_hint_read_as_before(tmp_path: Path) -> None:
    plan = _plan(tmp_path)
    plan.log_path.write_text("", encoding="utf-8")
    known = diagnose_lines(["nvcc error   : '\"$CICC_PATH/cicc\"' died due to signal 9 "
                            "(Kill signal)",
                            "Out of memory: Killed process 4242 (cc1plus) total-vm:9876543kB"])
    outcome = _failed(plan, known, 1, 1, 0.0, [])
    assert outcome.message == "The build failed: The compiler ran out of memory."
    assert outcome.hint == known.primary.fix  # type: ignore[union-attr]

    unknown = diagnose_lines(["x.cu(3): error: something odd"])
    outcome = _failed(plan, unknown, 1, 1, 0.0, [])
    assert outcome.message == "The build failed."
    assert outcome.hint == ("The first error was: x.cu(3): error: something odd — see the log "
                            f"for details: {plan.log_path}")
    nothing = diagnose_lines(["all fine"])
    assert _failed(plan, nothing, 1, 1, 0.0, []).hint == \
        f"See the log for details: {plan.log_path}"


def test_the_visual_studio_advice_reads_as_before() -> None:
    advice = _msvc_too_new_advice(LogFacts(cuda=(12, 1), msc_ver=1944))
    assert advice == (
        "CUDA 12.1 accepts MSVC up to 14.39 (_MSC_VER below 1940) (the compiler here is MSVC "
        "14.44, _MSC_VER 1944): Visual Studio 2022 17.10 and later bring MSVC 14.40 or newer, "
        "which it rejects (and whose C++ library needs CUDA 12.4 anyway). Install CUDA 12.4 or "
        "newer together with the matching PyTorch, or build with an older toolset installed side "
        "by side: 14.39 (vcvarsall -vcvars_ver=14.39) or, for CUDA 11.x, the Visual Studio 2019 "
        "toolset 14.29. The nvcc flag -allow-unsupported-compiler skips the check, but is a last "
        "resort: the build or the kernel may then fail or compute wrong results.")
    assert isinstance(advice, Msg) and len(advice.parts) == 2


def test_a_lost_download_reads_as_before() -> None:
    from kernel_wizard.base.download.wording import stopped_error

    error = stopped_error("x.whl", "https://example.org/x.whl", 2_000_000, 5_000_000,
                          "the connection was reset", kept=True, retries=2)
    assert error.what == "The download of x.whl stopped at 2.0 MB of 5.0 MB."
    assert error.why == ("The connection to example.org was lost (the connection was reset), "
                         "also after 2 retries.")
    assert error.hint == ("Check the internet connection and try again; the part already "
                          "downloaded is kept and a later attempt continues from it.")
    assert isinstance(error.what, Msg) and isinstance(error.why, Msg)
