"""The build runner with real child processes: streaming, progress, diagnosis, retries, cancel.

The child is ``tests/data/standins/fake_build.py``, a stand-in for ``pip wheel`` that prints
what a ninja-driven extension build prints (and real recorded logs), so each behaviour can be
produced on purpose. The real probe-kernel build is in ``test_probe_build_e2e.py``.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import BuildPlan, make_plan
from kernel_wizard.build.run import (
    BuildEvent,
    BuildStatus,
    DiagnosisEvent,
    LogLine,
    ProgressEvent,
    RetryEvent,
    StallEvent,
    Step,
    StepEvent,
    StepState,
    run_build,
)
from kernel_wizard.diagnose import RetryAction

STANDIN = Path(__file__).resolve().parents[1] / "data" / "standins" / "fake_build.py"
SHARED_LOGS = Path(__file__).resolve().parents[1] / "data" / "logs" / "flashmla"  # from shared/logs


def standin_plan(tmp_path: Path, *mode: str, jobs: int = 2, **kw: object) -> BuildPlan:
    out = tmp_path / "staging"
    plan = make_plan(
        kernel="fake",
        version="0.1",
        source_dir=tmp_path,
        python=Path(sys.executable),
        python_scripts=None,
        output_dir=out,
        log_path=tmp_path / "logs" / "build.log",
        parallelism=Parallelism(jobs, 1, "test"),
        **kw,  # type: ignore[arg-type]
    )
    return replace(plan, command=(sys.executable, str(STANDIN), str(out), *mode))


def collect(plan: BuildPlan, **kw: object) -> tuple[object, list[BuildEvent]]:
    events: list[BuildEvent] = []
    outcome = run_build(plan, events.append, **kw)  # type: ignore[arg-type]
    return outcome, events


def test_successful_build_streams_progress_steps_and_log(tmp_path: Path) -> None:
    outcome, events = collect(standin_plan(tmp_path, "ok", "6", "0.05"))
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.message
    assert outcome.wheel is not None and outcome.wheel.exists()
    assert outcome.wheel.parent == tmp_path / "staging"

    progress = [e for e in events if isinstance(e, ProgressEvent)]
    assert (progress[0].done, progress[0].total) == (0, 0)  # elapsed from the start
    units = [p for p in progress if p.total]
    shown = list(dict.fromkeys(p.done for p in units))
    # one event per batch of lines read: under load two [n/6] lines can share a batch, so
    # a unit may be skipped, but the bar only moves forward, to the end, in several steps
    assert shown == sorted(shown) and shown[-1] == 6 and len(shown) >= 3, shown
    assert any(3 <= done < 6 for done in shown), shown
    assert {p.total for p in units} == {6}
    assert units[-1].fraction == 1.0
    midway = [p for p in units if 3 <= p.done < 6]
    assert midway and all(p.eta_seconds is not None and 0 < p.eta_seconds < 5 for p in midway)
    elapsed = [p.elapsed_seconds for p in progress]
    assert elapsed == sorted(elapsed)  # the clock only moves on

    steps = [(e.step, e.state) for e in events if isinstance(e, StepEvent)]
    assert steps == [
        (Step.COMPILE, StepState.RUNNING), (Step.COMPILE, StepState.DONE),
        (Step.LINK, StepState.RUNNING), (Step.LINK, StepState.DONE),
        (Step.WHEEL, StepState.RUNNING), (Step.WHEEL, StepState.DONE),
    ]
    assert {t.step for t in outcome.steps} == {Step.COMPILE, Step.LINK, Step.WHEEL}
    assert outcome.steps[0].seconds >= 0.25  # six steps 50 ms apart

    lines = [e.text for e in events if isinstance(e, LogLine)]
    log = outcome.log_path.read_text(encoding="utf-8")
    for text in lines:
        assert text in log
    assert "pip wheel" in log or "fake_build.py" in log  # the plan heads the log
    assert "# exit code 0" in log


def test_any_encoding_is_decoded_and_the_stream_survives(tmp_path: Path) -> None:
    outcome, events = collect(standin_plan(tmp_path, "encodings"))
    assert outcome.status is BuildStatus.SUCCEEDED
    lines = [e.text for e in events if isinstance(e, LogLine)]
    assert "UTF-8: Grüße aus Köln" in lines
    assert "cp1252: Fehler in Datei C:\\Benutzer\\Jürgen\\x.cu" in lines
    assert any(t.startswith("broken: ") for t in lines)  # undecodable bytes don't stop it
    assert any("Created wheel" in t for t in lines)  # and the stream went on to the end


def test_failure_is_diagnosed_with_the_first_real_error(tmp_path: Path) -> None:
    log = SHARED_LOGS / "flashmla-cuda13-missing-cccl.log"
    if not log.exists():
        pytest.skip(f"recorded logs not found at {SHARED_LOGS}")
    outcome, events = collect(standin_plan(tmp_path, "replay", str(log)))
    assert outcome.status is BuildStatus.FAILED
    assert outcome.diagnosis is not None
    first = outcome.diagnosis.first_error
    assert first is not None and "cuda/std/utility" in first.line
    assert "ninja: build stopped" not in outcome.message
    hits = [e.diagnosis for e in events if isinstance(e, DiagnosisEvent)]
    assert any(h.retry is RetryAction.ADD_CCCL_INCLUDE for h in hits)
    assert "include" in outcome.hint.lower()  # the fix, in words
    assert outcome.attempts == 1  # no CUDA home in this plan: the retry can't help


def test_out_of_memory_is_retried_with_half_the_jobs(tmp_path: Path) -> None:
    outcome, events = collect(standin_plan(tmp_path, "oom-above", "4", jobs=16))
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.hint
    assert outcome.attempts == 3  # 16 jobs → 8 (still too many) → 4
    retries = [e for e in events if isinstance(e, RetryEvent)]
    assert len(retries) == 2 and all("memory" in r.reason for r in retries)
    assert "16 → 8" in retries[0].reason and "8 → 4" in retries[1].reason
    assert outcome.plan.env_value("MAX_JOBS") == "4"


def test_missing_cccl_headers_are_added_and_the_build_retried(tmp_path: Path) -> None:
    cuda = tmp_path / "fake cuda 13"
    (cuda / "include" / "cccl").mkdir(parents=True)
    plan = standin_plan(tmp_path, "cccl", cuda_home=cuda, cuda_version=(12, 9))
    assert plan.env_value("CPLUS_INCLUDE_PATH") is None  # not CUDA 13: not added up front
    outcome, events = collect(plan)
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.hint
    assert outcome.attempts == 2
    (retry,) = [e for e in events if isinstance(e, RetryEvent)]
    assert "CCCL" in retry.reason
    assert outcome.plan.env_value("CPLUS_INCLUDE_PATH") == str(cuda / "include" / "cccl")


def test_cancel_stops_the_whole_tree_quickly(tmp_path: Path) -> None:
    cancel = threading.Event()
    pids: list[int] = []

    def on_event(event: BuildEvent) -> None:
        if isinstance(event, LogLine) and event.text.startswith("pids "):
            pids.extend(int(p) for p in event.text.split()[1:])
            cancel.set()

    plan = standin_plan(tmp_path, "grandchildren")
    started = time.monotonic()
    outcome = run_build(plan, on_event, cancel)
    assert outcome.status is BuildStatus.CANCELLED
    assert time.monotonic() - started < 15
    assert len(pids) == 2
    time.sleep(0.2)
    for pid in pids:
        alive = psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        assert not alive, f"grandchild {pid} survived the cancel"
    assert outcome.leftover_pids == ()
    assert not list((tmp_path / "staging").glob("*.whl"))
    assert "nothing was installed" in outcome.message


def test_a_quiet_build_reports_the_compilers_still_running(tmp_path: Path) -> None:
    outcome, events = collect(standin_plan(tmp_path, "quiet", "2"), stall_after_s=0.7)
    assert outcome.status is BuildStatus.SUCCEEDED
    (stall,) = [e for e in events if isinstance(e, StallEvent)]
    assert stall.quiet_seconds >= 0.7
    assert any(c.startswith("nvcc (pid") for c in stall.compilers), stall.compilers


def test_a_program_that_cannot_start_is_a_failed_build(tmp_path: Path) -> None:
    plan = replace(standin_plan(tmp_path, "ok", "1"), command=(str(tmp_path / "no-python"),))
    outcome, _ = collect(plan)
    assert outcome.status is BuildStatus.FAILED
    assert "could not start" in outcome.log_path.read_text(encoding="utf-8")


def test_tokens_in_the_environment_never_reach_the_build_or_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_do_not_leak_1")
    monkeypatch.setenv("HF_TOKEN", "hf_do_not_leak_2")
    plan = replace(standin_plan(tmp_path, "ok", "1"), command=(
        sys.executable, "-c", "import os; print(sorted(os.environ.items()))"))
    outcome, events = collect(plan)
    log = outcome.log_path.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    shown = "\n".join(e.text for e in events if isinstance(e, LogLine))
    assert "do_not_leak" not in log and "do_not_leak" not in shown
    assert "('MAX_JOBS', '2')" in shown  # the plan's own settings do arrive
    assert "GITHUB_TOKEN" in log and "HF_TOKEN" in log  # the log says what was withheld
