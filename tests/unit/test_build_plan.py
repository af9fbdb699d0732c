"""The build plan: parallelism from cores and RAM, arch knobs, CUDA 13 headers, 'what will run'."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

from kernel_wizard.base.parallelism import GIB, Parallelism, choose_parallelism
from kernel_wizard.base.processes import EnvChange, EnvMode
from kernel_wizard.build.eta import Phase
from kernel_wizard.build.plan import BuildPlan, make_plan
from kernel_wizard.build.run import (
    BuildClock,
    LogLine,
    ProgressEvent,
    _Attempt,
    decode_line,
    retry_plan,
)
from kernel_wizard.diagnose import RetryAction


@pytest.mark.parametrize(
    ("cores", "ram_gb", "gb", "threads", "expected"),
    [
        (16, 125, 5, 4, (4, 4)),  # H100 box, FlashAttention: cores decide
        (2, 23, 5, 4, (1, 2)),  # this CI machine: two threads, one job
        (32, 16, 5, 2, (1, 2)),  # many cores, little RAM: RAM decides (16*.85/5 = 2 threads)
        (8, 3, 5, 2, (1, 1)),  # too little RAM for even one thread: still one job
        (16, 125, 1.5, 1, (16, 1)),  # the probe: small units, one job per core
        (64, 512, 5, 4, (16, 4)),
    ],
)
def test_parallelism(cores: int, ram_gb: float, gb: float, threads: int,
                     expected: tuple[int, int]) -> None:
    par = choose_parallelism(cores, int(ram_gb * GIB), gb, threads)
    assert (par.jobs, par.nvcc_threads) == expected
    assert par.jobs * par.nvcc_threads * gb <= max(ram_gb * 0.85, gb * par.nvcc_threads)
    assert "limited by" in par.reason


def test_ram_limit_is_named_when_it_decides() -> None:
    assert "limited by RAM" in choose_parallelism(32, 16 * GIB, 5, 2).reason
    assert "limited by CPU cores" in choose_parallelism(4, 512 * GIB, 5, 2).reason


def plan_with_cuda(tmp_path: Path, cuda: Path, version: tuple[int, int]) -> object:
    return make_plan(
        kernel="flashmla", version="main", source_dir=tmp_path / "src dir",
        python=Path("/envs/ml/bin/python"), python_scripts=Path("/envs/ml/bin"),
        output_dir=tmp_path / "out", log_path=tmp_path / "build.log",
        parallelism=Parallelism(4, 8, "4 jobs × 8 threads"), archs=["9.0"],
        arch_changes=[EnvChange("FLASH_MLA_DISABLE_SM100", "1")], uses_nvcc_threads=True,
        cuda_home=cuda, cuda_version=version,
    )


def test_cuda13_plan_adds_the_cccl_headers(tmp_path: Path) -> None:
    cuda = Path("/usr/local/cuda")
    if not (cuda / "include" / "cccl").is_dir():
        pytest.skip("no CUDA 13 toolkit with include/cccl on this machine")
    plan = plan_with_cuda(tmp_path, cuda, (13, 0))
    assert plan.env_value("CPLUS_INCLUDE_PATH") == str(cuda / "include" / "cccl")
    env = plan.environment({"PATH": "/usr/bin", "CPLUS_INCLUDE_PATH": "/opt/inc"})
    assert env["CPLUS_INCLUDE_PATH"] == f"{cuda}/include/cccl{os.pathsep}/opt/inc"
    assert env["PATH"].split(os.pathsep)[:3] == [f"{cuda}/bin", "/envs/ml/bin", "/usr/bin"]
    assert env["CUDA_HOME"] == str(cuda)
    assert env["MAX_JOBS"] == "4" and env["NVCC_THREADS"] == "8"
    assert env["FLASH_MLA_DISABLE_SM100"] == "1"
    assert "CUDA 13: CCCL headers added to the host include path" in plan.notes


def test_older_cuda_gets_no_cccl_path(tmp_path: Path) -> None:
    cuda = tmp_path / "cuda-12.8"
    (cuda / "include" / "cccl").mkdir(parents=True)
    assert plan_with_cuda(tmp_path, cuda, (12, 8)).env_value("CPLUS_INCLUDE_PATH") is None


def test_the_plan_always_builds_a_wheel_without_isolation_into_staging(tmp_path: Path) -> None:
    plan = plan_with_cuda(tmp_path, tmp_path / "cuda", (13, 0))
    assert plan.command[:4] == ("/envs/ml/bin/python", "-m", "pip", "wheel")
    assert "--no-build-isolation" in plan.command and "--no-deps" in plan.command
    assert plan.command[plan.command.index("-w") + 1] == str(tmp_path / "out")
    assert "install" not in plan.command


def test_describe_is_copyable(tmp_path: Path) -> None:
    plan = plan_with_cuda(tmp_path, tmp_path / "cuda", (13, 0))
    text = plan.describe()
    assert f"cd '{tmp_path / 'src dir'}'" in text  # a path with a space is quoted
    assert "export MAX_JOBS=4" in text
    assert 'export PATH=/envs/ml/bin":$PATH"' in text
    assert text.splitlines()[-1].startswith("/envs/ml/bin/python -m pip wheel .")


def test_with_env_replaces_a_variable_and_keeps_path_prepends(tmp_path: Path) -> None:
    plan = plan_with_cuda(tmp_path, tmp_path / "cuda", (13, 0))
    changed = plan.with_env(EnvChange("MAX_JOBS", "2"), note="halved")
    assert changed.env_value("MAX_JOBS") == "2"
    assert [c.name for c in changed.env_changes].count("MAX_JOBS") == 1
    assert [c.name for c in changed.env_changes].count("PATH") == 2
    assert changed.notes[-1] == "halved"


def test_retry_plans(tmp_path: Path) -> None:
    plan = plan_with_cuda(tmp_path, tmp_path / "cuda", (13, 0))
    halved = retry_plan(plan, RetryAction.HALVE_JOBS)
    assert halved is not None and halved[0].env_value("MAX_JOBS") == "2"
    one_job = plan.with_env(EnvChange("MAX_JOBS", "1"))
    one_job = type(plan)(**{**one_job.__dict__, "parallelism": Parallelism(1, 8, "")})
    threads = retry_plan(one_job, RetryAction.HALVE_JOBS)
    assert threads is not None and threads[0].env_value("NVCC_THREADS") == "4"
    floor = type(plan)(**{**plan.__dict__, "parallelism": Parallelism(1, 1, "")})
    assert retry_plan(floor, RetryAction.HALVE_JOBS) is None  # nothing left to halve
    assert retry_plan(plan, RetryAction.ADD_CCCL_INCLUDE) is None  # no cccl folder there
    forced = retry_plan(plan, RetryAction.FORCE_BUILD)
    assert forced is not None and forced[0].env_value("FLASH_ATTENTION_FORCE_BUILD") == "TRUE"
    assert retry_plan(forced[0], RetryAction.FORCE_BUILD) is None


def test_path_prepend_mode_is_recorded() -> None:
    change = EnvChange("PATH", "/x", EnvMode.PREPEND)
    assert change.mode is EnvMode.PREPEND


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (b"plain ascii\n", "plain ascii"),
        ("Grüße\r\n".encode(), "Grüße"),
        ("Jürgen".encode("cp1252"), "Jürgen"),
        (b"\x81\xff broken", "\ufffd\ufffd broken"),
    ],
)
def test_decoding(raw: bytes, text: str) -> None:
    assert decode_line(raw) == text


def _clock_plan(tmp_path: Path, jobs: int = 1) -> BuildPlan:
    return make_plan(kernel="k", version="1", source_dir=tmp_path, python=Path("python"),
                     python_scripts=None, output_dir=tmp_path / "out",
                     log_path=tmp_path / "log", parallelism=Parallelism(jobs, 1, "test"))


def test_progress_eta_from_the_pace_without_an_estimate(tmp_path: Path) -> None:
    """No recipe estimate, no ninja log: the ETA comes from the pace of the [n/N] lines."""
    now = [0.0]
    clock = BuildClock(_clock_plan(tmp_path), clock=lambda: now[0])
    assert clock.line("running build_ext") is None
    start = clock.tick()
    assert (start.done, start.total, start.eta_seconds) == (0, 0, None)  # nothing to go by
    now[0] = 10.0
    first = clock.line("[1/11] nvcc -c a.cu -o a.o")
    assert first is not None and first.elapsed_seconds == 10.0
    assert first.eta_seconds == pytest.approx(100.0)  # 10 s a unit, one job, 10 to go
    now[0] = 20.0
    second = clock.line("[2/11] nvcc -c b.cu -o b.o")
    assert second is not None and second.eta_seconds == pytest.approx(90.0)
    assert second.fraction == pytest.approx(2 / 11)


def test_progress_reads_pips_indented_ninja_lines(tmp_path: Path) -> None:
    clock = BuildClock(_clock_plan(tmp_path))
    event = clock.line("  [3/24] /usr/local/cuda/bin/nvcc -c a.cu -o a.o")
    assert event is not None and (event.done, event.total) == (3, 24)


def test_a_late_older_progress_view_never_moves_the_bar_back(tmp_path: Path) -> None:
    """The output thread and the poller each compute a progress event, then emit it; when the
    poller's newer view (22 units) is emitted first, the output thread's older one (21) that
    arrives after it is dropped: the bar never steps back, the elapsed time never runs back.
    (Seen in a CI run: 20, 22, 21, 22 — a bar that jumps back a unit.)"""
    shown: list[object] = []
    attempt = _Attempt(_clock_plan(tmp_path), shown.append, io.StringIO(), threading.Event(),
                       stall_after_s=180.0, line_offset=0)
    newer = ProgressEvent(22, 24, 5.0, elapsed_seconds=40.2)
    older = ProgressEvent(21, 24, 6.0, elapsed_seconds=40.1)
    later = ProgressEvent(22, 24, 4.0, elapsed_seconds=41.0)
    attempt.emit(newer)
    attempt.emit(older)
    attempt.emit(LogLine("[22/24] nvcc -c b.cu -o b.o", 1))  # other events always pass
    attempt.emit(later)
    assert shown == [newer, LogLine("[22/24] nvcc -c b.cu -o b.o", 1), later]


def test_the_last_unit_counts_once_the_build_goes_on(tmp_path: Path) -> None:
    """after the last "[2/2]" line, any other output (the link step) means it compiled: the bar
    shows 2/2 and the link-and-package phase from then on"""
    now = [0.0]
    clock = BuildClock(_clock_plan(tmp_path), clock=lambda: now[0])
    clock.tick()
    now[0] = 3.0
    clock.line("[1/2] g++ -c a.cpp -o a.o")
    now[0] = 6.0
    last = clock.line("[2/2] g++ -c b.cpp -o b.o")
    assert last is not None and last.done == 1
    now[0] = 6.1
    confirmed = clock.other_line()
    assert confirmed is not None and (confirmed.done, confirmed.phase) == (2, Phase.FINISH)
    assert clock.other_line() is None  # once is enough


def test_a_failed_unit_is_not_counted_as_done(tmp_path: Path) -> None:
    """ninja prints "[1/1] <command>" for a unit that fails too, then "FAILED: <output>": the
    bar stays at 0/1 in the compile phase with no time promised, instead of a full "1/1" and
    "link and package · a few seconds left" just before "The build failed"."""
    now = [0.0]
    clock = BuildClock(_clock_plan(tmp_path), clock=lambda: now[0])
    clock.tick()
    now[0] = 3.0
    first = clock.line("  [1/2] g++ -c a.cpp -o a.o")
    assert first is not None and (first.done, first.total) == (1, 2)
    now[0] = 6.0
    line = clock.line("  [2/2] /opt/nonexistent/g++ -c b.cpp -o b.o")
    # the last unit's line alone does not count it: "FAILED:" may follow (in another read,
    # after the poller's tick)
    assert line is not None and (line.done, line.phase) == (1, Phase.COMPILE)
    now[0] = 6.5
    assert (clock.tick().done, clock.tick().phase) == (1, Phase.COMPILE)
    failed = clock.line("  FAILED: [code=127] b.o")
    assert failed is not None
    assert (failed.done, failed.total, failed.phase) == (1, 2, Phase.COMPILE)
    assert failed.eta_seconds is None
    # a FAILED line for the other unit (both were running), then a stray one: 0, never below
    again = clock.line("FAILED: a.o")
    assert again is not None and again.done == 0
    stray = clock.line("FAILED: c.o")
    assert stray is not None and stray.done == 0
