"""The build: a :class:`BuildPlan` that says exactly what will run, and the runner that runs it.

The plan is data: command, working folder, environment changes and output folder; the Build
page shows it as "what will run" and the runner executes nothing else. The runner streams the
merged output line by line (robust decoding), turns ninja's ``[n/N]`` into progress and an ETA,
reports steps with durations, matches known failures as they stream (:mod:`.diagnose`), retries
by itself where that is safe (out of memory → half the jobs; CUDA 13 CCCL headers → add the
include path), writes the full log to the user's data folder, notices when the build goes
quiet, and stops the whole process tree on cancel.

Nothing here writes into the target environment: ``pip wheel`` produces a wheel in a staging
folder; installing it is :mod:`.install`'s job, after verification.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import IO

from .diagnose import Diagnosis, DiagnosisReport, LogDiagnoser, RetryAction
from .errors import Cancelled, ProcessStartError
from .parallelism import Parallelism
from .plan import BuildPlan
from .processes import (
    EnvChange,
    EnvMode,
    decode_line,
    describe_pids,
    running_compilers,
    stream,
    withheld_names,
)

GIB = 1024**3


# -- events -------------------------------------------------------------------------------------


class Step(Enum):
    DOWNLOAD = "download"  # a prebuilt wheel instead of a build
    SOURCE = "source"
    PATCH = "patch"
    COMPILE = "compile"
    LINK = "link"
    WHEEL = "wheel"


class StepState(Enum):
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class LogLine:
    text: str
    number: int  # 1-based over the whole build, retries included


@dataclass(frozen=True)
class ProgressEvent:
    done: int
    total: int
    eta_seconds: float | None

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0


@dataclass(frozen=True)
class StepEvent:
    step: Step
    state: StepState
    seconds: float = 0.0  # duration, for DONE/FAILED/CANCELLED


@dataclass(frozen=True)
class PlanEvent:
    """The exact plan, known once the source is ready (shown as "what will run")."""

    plan: BuildPlan


@dataclass(frozen=True)
class DiagnosisEvent:
    diagnosis: Diagnosis


@dataclass(frozen=True)
class StallEvent:
    quiet_seconds: float
    compilers: tuple[str, ...]  # what is still running


@dataclass(frozen=True)
class RetryEvent:
    attempt: int  # the attempt about to start (2, 3, ...)
    reason: str


BuildEvent = (
    LogLine | ProgressEvent | StepEvent | DiagnosisEvent | StallEvent | RetryEvent | PlanEvent
)


class BuildStatus(Enum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class StepTiming:
    step: Step
    state: StepState
    seconds: float


@dataclass(frozen=True)
class BuildOutcome:
    status: BuildStatus
    message: str  # one line for a person
    hint: str
    plan: BuildPlan | None  # the plan of the last attempt; None for a downloaded prebuilt wheel
    wheel: Path | None
    log_path: Path
    seconds: float
    attempts: int
    exit_code: int | None
    diagnosis: DiagnosisReport | None
    steps: tuple[StepTiming, ...] = ()
    leftover_pids: tuple[int, ...] = ()  # processes that survived a cancel (should be none)


# -- decoding and progress ----------------------------------------------------------------------


_NINJA = re.compile(r"^\s*\[(\d+)/(\d+)\]")  # pip -v indents the build's output


class ProgressTracker:
    """ninja's ``[n/N]`` → done/total and an ETA from the pace so far."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._first: tuple[float, int] | None = None  # (time, done) at the first ninja line
        self.done = 0
        self.total = 0

    def feed(self, line: str) -> ProgressEvent | None:
        match = _NINJA.match(line)
        if match is None:
            return None
        done, total = int(match.group(1)), int(match.group(2))
        now = self._clock()
        if self._first is None or total != self.total:
            self._first = (now, done - 1)  # ninja prints a line when it *starts* a job
        self.done, self.total = done, total
        eta = None
        start_time, start_done = self._first
        finished = done - start_done - 1
        if finished > 0:
            pace = (now - start_time) / finished
            eta = max(0.0, pace * (total - done + 1))
        return ProgressEvent(done=done, total=total, eta_seconds=eta)


_LINK = re.compile(r"(\s-shared\s|\blink\.exe\b|\s/DLL\b|^Linking\b)", re.IGNORECASE)
_WHEEL = re.compile(r"^\s*(installing to build/bdist|creating '.*\.whl'|Created wheel for)")


# -- the runner -------------------------------------------------------------------------------


EventSink = Callable[[BuildEvent], None]
DEFAULT_STALL_S = 180.0


class _Attempt:
    """One run of the plan's command."""

    def __init__(
        self,
        plan: BuildPlan,
        emit: EventSink,
        log: IO[str],
        cancel: threading.Event,
        stall_after_s: float,
        line_offset: int,
    ) -> None:
        self.plan = plan
        self.emit = emit
        self.log = log
        self.cancel = cancel
        self.stall_after_s = stall_after_s
        self.line_number = line_offset
        self.diagnoser = LogDiagnoser()
        self.progress = ProgressTracker()
        self.steps: list[StepTiming] = []
        self._step: Step | None = None
        self._step_started = 0.0
        self.leftover: list[int] = []

    def _enter(self, step: Step) -> None:
        if self._step is step:
            return
        self._close_step(StepState.DONE)
        self._step = step
        self._step_started = time.monotonic()
        self.emit(StepEvent(step, StepState.RUNNING))

    def _close_step(self, state: StepState) -> None:
        if self._step is None:
            return
        seconds = time.monotonic() - self._step_started
        self.steps.append(StepTiming(self._step, state, seconds))
        self.emit(StepEvent(self._step, state, seconds))
        self._step = None

    def _line(self, text: str) -> None:
        self._lines([text])

    def _lines(self, texts: list[str]) -> None:
        """Process a batch of decoded lines: log file, events, progress, steps, diagnosis."""
        self.log.write("\n".join(texts) + "\n")
        self.log.flush()  # what the build printed is in the log even if the wizard is killed
        emit = self.emit
        feed = self.diagnoser.feed
        progress: ProgressEvent | None = None
        for text in texts:
            self.line_number += 1
            emit(LogLine(text, self.line_number))
            if "[" in text[:12]:  # cheap test before the ninja regex
                event = self.progress.feed(text)
                if event is not None:
                    progress = event
                    continue
            if self._step is Step.COMPILE and _LINK.search(text):
                self._enter(Step.LINK)
            if self._step is not Step.WHEEL and _WHEEL.search(text):
                self._enter(Step.WHEEL)
            for hit in feed(text):
                emit(DiagnosisEvent(hit))
        if progress is not None:  # one progress event per batch is enough for any display
            emit(progress)

    def run(self) -> tuple[int | None, bool]:
        """(exit code or None, cancelled)."""
        self._enter(Step.COMPILE)
        withheld = withheld_names()
        if withheld:
            self.log.write("# not passed to the build (secrets it does not need): "
                           + ", ".join(withheld) + "\n")

        def stalled(quiet: float, pid: int) -> None:
            self.emit(StallEvent(quiet, tuple(running_compilers(pid))))

        try:
            result = stream(
                self.plan.command, self._lines, cwd=self.plan.cwd,
                env_changes=self.plan.env_changes, cancel=self.cancel,
                stall_after_s=self.stall_after_s, on_stall=stalled,
            )
        except ProcessStartError as exc:
            self._line(f"[wizard] could not start {self.plan.command[0]}: {exc.why}")
            self._close_step(StepState.FAILED)
            return None, False
        except Cancelled as exc:
            self.leftover = list(exc.leftover_pids)
            self._line(f"[wizard] {exc.reason}: the build and every compiler it started were "
                       "stopped" + (f"; still running: {describe_pids(exc.leftover_pids)}"
                                    if exc.leftover_pids else ""))
            self._close_step(StepState.CANCELLED)
            return None, True
        if result.strays:
            self._line(f"[wizard] stopped {len(result.strays)} process(es) the build left "
                       "running after it ended")
        self.leftover = list(result.leftover_pids)
        code = result.returncode
        self._close_step(StepState.DONE if code == 0 else StepState.FAILED)
        return code, False


def retry_plan(plan: BuildPlan, action: RetryAction) -> tuple[BuildPlan, str] | None:
    """The plan for an automatic retry, with what changed — or None if it would not help."""
    if action is RetryAction.HALVE_JOBS:
        par = plan.parallelism
        if par.jobs > 1:
            jobs, threads = max(1, par.jobs // 2), par.nvcc_threads
            what = f"{par.jobs} → {jobs} parallel compile jobs"
        elif par.nvcc_threads > 1:
            jobs, threads = 1, max(1, par.nvcc_threads // 2)
            what = f"{par.nvcc_threads} → {threads} nvcc threads"
        else:
            return None
        new = Parallelism(jobs, threads, f"halved after running out of memory: {what}")
        changes = [EnvChange("MAX_JOBS", str(new.jobs), why=new.reason)]
        if plan.env_value("NVCC_THREADS") is not None:
            changes.append(EnvChange("NVCC_THREADS", str(new.nvcc_threads)))
        retried = replace(plan.with_env(*changes, note=new.reason), parallelism=new)
        return retried, f"The build ran out of memory; trying again with {what}."
    if action is RetryAction.ADD_CCCL_INCLUDE:
        if plan.cuda_home is None:
            return None
        folder = plan.cuda_home / "include" / "cccl"
        if not folder.is_dir() or any(str(folder) == c.value for c in plan.env_changes):
            return None
        change = EnvChange(plan.host_include_var, str(folder), EnvMode.PREPEND,
                           why="CUDA 13 CCCL headers for the host compiler")
        return (plan.with_env(change, note="CUDA 13: CCCL headers added after the first try"),
                f"The host compiler could not find CUDA 13's CCCL headers; adding {folder} to "
                "its include path and trying again.")
    if action is RetryAction.FORCE_BUILD:
        if plan.env_value("FLASH_ATTENTION_FORCE_BUILD") == "TRUE":
            return None
        change = EnvChange("FLASH_ATTENTION_FORCE_BUILD", "TRUE",
                           why="skip setup.py's own prebuilt-wheel download")
        return plan.with_env(change), "Skipping the library's own wheel download and building."
    return None


def run_build(
    plan: BuildPlan,
    on_event: EventSink | None = None,
    cancel: threading.Event | None = None,
    *,
    stall_after_s: float = DEFAULT_STALL_S,
    max_retries: int = 2,
    preamble: Sequence[str] = (),
) -> BuildOutcome:
    """Run the plan (and safe automatic retries); never raises for a failed build.

    ``preamble``: lines that head the log file (what the source and patch steps did)."""
    emit: EventSink = on_event if on_event is not None else (lambda event: None)
    stop = cancel if cancel is not None else threading.Event()
    started = time.monotonic()
    plan.output_dir.mkdir(parents=True, exist_ok=True)
    plan.log_path.parent.mkdir(parents=True, exist_ok=True)
    before = {p.name: p.stat().st_mtime_ns for p in plan.output_dir.glob("*.whl")}
    attempts = 0
    line_offset = 0
    steps: list[StepTiming] = []
    tried: set[RetryAction] = set()
    with open(plan.log_path, "w", encoding="utf-8", errors="replace") as log:
        if preamble:
            log.write("\n".join(preamble) + "\n\n")
        while True:
            attempts += 1
            log.write(f"# attempt {attempts}\n{plan.describe()}\n\n")
            log.flush()
            attempt = _Attempt(plan, emit, log, stop, stall_after_s, line_offset)
            code, cancelled = attempt.run()
            line_offset = attempt.line_number
            steps += attempt.steps
            report = attempt.diagnoser.summary()
            log.write(f"\n# exit code {code}{' (cancelled)' if cancelled else ''}\n")
            log.flush()
            if cancelled:
                hint = "Start it again whenever you like; your environment is unchanged."
                if attempt.leftover:
                    hint = (f"These processes of the build could not be stopped: "
                            f"{describe_pids(attempt.leftover)}. End them (Task Manager, "
                            f"'kill'), then start again; your environment is unchanged.")
                return BuildOutcome(
                    status=BuildStatus.CANCELLED,
                    message="The build was cancelled; nothing was installed.",
                    hint=hint,
                    plan=plan, wheel=None, log_path=plan.log_path,
                    seconds=time.monotonic() - started, attempts=attempts, exit_code=code,
                    diagnosis=report, steps=tuple(steps),
                    leftover_pids=tuple(attempt.leftover),
                )
            if code == 0:
                wheels = sorted(
                    (p for p in plan.output_dir.glob("*.whl")
                     if before.get(p.name) != p.stat().st_mtime_ns),  # new or rewritten
                    key=lambda p: p.stat().st_mtime,
                )
                if wheels:
                    return BuildOutcome(
                        status=BuildStatus.SUCCEEDED,
                        message=f"Built {wheels[-1].name}.",
                        hint="",
                        plan=plan, wheel=wheels[-1], log_path=plan.log_path,
                        seconds=time.monotonic() - started, attempts=attempts, exit_code=0,
                        diagnosis=report, steps=tuple(steps),
                    )
                return _failed(plan, report, code, attempts, started, steps,
                               "The build finished but produced no wheel.")
            action = report.retry
            # Halving may repeat (16 → 8 → 4 jobs); every other fix is tried once.
            repeatable = action is RetryAction.HALVE_JOBS
            if action is not None and (repeatable or action not in tried) \
                    and attempts <= max_retries:
                retry = retry_plan(plan, action)
                if retry is not None:
                    tried.add(action)
                    plan, reason = retry
                    log.write(f"# retry: {reason}\n")
                    emit(RetryEvent(attempts + 1, reason))
                    continue
            return _failed(plan, report, code, attempts, started, steps)


def _failed(
    plan: BuildPlan,
    report: DiagnosisReport,
    code: int | None,
    attempts: int,
    started: float,
    steps: list[StepTiming],
    message: str = "",
) -> BuildOutcome:
    primary = report.primary
    if not message:
        message = (
            f"The build failed: {primary.title}." if primary is not None
            else "The build failed."
        )
    if primary is not None:
        hint = primary.fix
    elif report.first_error is not None:
        hint = (f"The first error was: {report.first_error.line.strip()[:300]} — see the log "
                f"for details: {plan.log_path}")
    else:
        hint = f"See the log for details: {plan.log_path}"
    return BuildOutcome(
        status=BuildStatus.FAILED, message=message, hint=hint, plan=plan, wheel=None,
        log_path=plan.log_path, seconds=time.monotonic() - started, attempts=attempts,
        exit_code=code, diagnosis=report, steps=tuple(steps),
    )


__all__ = [
    "BuildEvent", "BuildOutcome", "BuildStatus", "DiagnosisEvent", "LogLine", "PlanEvent",
    "ProgressEvent", "ProgressTracker", "RetryEvent", "StallEvent", "Step", "StepEvent",
    "StepState", "StepTiming", "decode_line", "retry_plan", "run_build",
]
