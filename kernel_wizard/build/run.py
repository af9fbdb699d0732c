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

import math
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import IO, NoReturn

from kernel_wizard.base.download import DownloadResult
from kernel_wizard.base.errors import Cancelled, ProcessStartError
from kernel_wizard.base.messages import N_, Msg, msg
from kernel_wizard.base.oserrors import Cause, cause_in_output, fix_for, free_bytes, sentence
from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.base.paths import BUILD_ROOT_ALTERNATIVE, DATA_DIR_ALTERNATIVE, in_data_dir
from kernel_wizard.base.processes import (
    EnvChange,
    EnvMode,
    ProcessResult,
    decode_line,
    describe_pids,
    running_compilers,
    stream,
    withheld_names,
)
from kernel_wizard.build.buildtimes import make_record, record_version, save_record
from kernel_wizard.build.eta import (
    Eta,
    EtaEstimator,
    NinjaLogReader,
    Phase,
    PriorSource,
    UnitTime,
    count_ninja_units,
    find_ninja_dirs,
    slowest,
)
from kernel_wizard.build.plan import BuildPlan
from kernel_wizard.catalog import ArchKnob, load_catalog
from kernel_wizard.diagnose import Diagnosis, DiagnosisReport, LogDiagnoser, RetryAction
from kernel_wizard.diagnose.context import KernelContext, context_for_recipe
from kernel_wizard.machine.platforms import current as current_platform

GIB = 1024**3


# -- events -------------------------------------------------------------------------------------


class Step(Enum):
    DOWNLOAD = "download"  # a prebuilt wheel instead of a build
    CACHE = "cache"  # a wheel that passed verification before, from the verified-wheel cache
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
    """Where the build (or a download) stands. ``total`` 0: not known yet (an indeterminate
    bar); ``eta_seconds``: the time left (None: nothing to go by)."""

    done: int
    total: int
    eta_seconds: float | None
    elapsed_seconds: float = 0.0
    phase: Phase = Phase.COMPILE
    overdue: bool = False  # running longer than the estimate said the whole build would
    basis: PriorSource = PriorSource.NONE  # what the estimate leaned on before it measured
    unit: str = "units"  # what done/total count ("KiB" for a download)
    # several extensions, one ninja run each: done/total count every run so far; ``run`` is
    # the one compiling (0/1: the first), ``more_expected`` that the plan expects more units
    run: int = 0
    more_expected: bool = False

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0

    @property
    def several_runs(self) -> bool:
        """Whether the front ends show the build as several extensions ("extension 2 · 5/10
        units"): a second ninja run has begun, or the estimate expects units beyond this
        run's. A build of one extension reads as it always did."""
        return self.unit == "units" and (self.run >= 2 or self.more_expected)

    @classmethod
    def of(cls, eta: Eta) -> ProgressEvent:
        return cls(eta.done, eta.total, eta.remaining, eta.elapsed, eta.phase, eta.overdue,
                   eta.basis, run=eta.run, more_expected=eta.more_expected)


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


def unhandled(event: NoReturn) -> NoReturn:
    """The last branch of a dispatch over :data:`BuildEvent` (``typing.assert_never`` for
    Python 3.10): mypy reports a call that can be reached, i.e. a kind of event the dispatch
    forgot."""
    raise AssertionError(f"an event nobody shows: {event!r}")


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
    # the compiled units (ninja's log), and the slowest three, slowest first
    units: tuple[UnitTime, ...] = ()
    slowest_units: tuple[UnitTime, ...] = ()
    download: DownloadResult | None = None  # a prebuilt wheel: where from, sha256, checks
    disk_full: Path | None = None  # set: the build failed because the disk holding it is full


# -- decoding and progress ----------------------------------------------------------------------


_NINJA = re.compile(r"^\s*\[(\d+)/(\d+)\]")  # pip -v indents the build's output
_NINJA_FAILED = re.compile(r"^\s*FAILED: ")  # the unit of the [n/N] line before did not compile


POLL_S = 1.0  # how often the build folder is looked at (build.ninja, .ninja_log)
# [n/N] lines closer than this share one estimate: it bounds the estimator's work in a flood of
# units (an estimate looks at every unit); what is shown, and how often, is the display's
# business (:class:`.progress_view.ProgressView`)
ESTIMATE_INTERVAL = 0.02


class BuildClock:
    """The build's progress and ETA: ninja's ``[n/N]`` lines, its ``build.ninja`` (the unit
    count, as soon as ninja starts) and ``.ninja_log`` (each unit's start and end), read by
    polling the build folder, fed to :class:`.eta.EtaEstimator`. Thread-safe: the output
    thread and the poller both feed it.

    A setup.py that builds several extensions runs ninja once per extension: torch writes
    ``build.ninja`` again (in the same folder, or in each extension's own) and ninja appends to
    that folder's ``.ninja_log``. Every such folder is read, a rewritten ``build.ninja`` after
    a run that compiled everything is the next run (the estimator also tells it from the
    ``[1/N]`` that follows ``[N/N]``), and the units of every run are the build's."""

    def __init__(self, plan: BuildPlan, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        prior = plan.estimate.prior() if plan.estimate is not None else None
        self.started = clock()
        self._wall_started = time.time()
        self.estimator = EtaEstimator(prior, plan.parallelism.jobs)
        self.estimator.start(self.started)
        self._source = plan.cwd
        self._lock = threading.Lock()
        self._estimated = -math.inf  # when the last estimate was made
        self._readers: dict[Path, NinjaLogReader] = {}  # every ninja folder, oldest first
        self._starts = 0  # build.ninja files seen written (ninja starts)
        self._written: dict[Path, int] = {}  # each folder's build.ninja, when read last
        # what ninja logs existed before this build (a folder built before keeps its log)
        self._before = {p: _size(p) for p in (plan.cwd / "build").glob("temp.*/**/.ninja_log")}
        self._pid: int | None = None  # the build command's process, once it runs
        self._platform = current_platform()

    def watch(self, pid: int) -> None:
        """The build command runs as ``pid``: each :meth:`tick` samples the CPU time its
        process tree (the compilers) has received, where the platform measures it."""
        self._pid = pid

    def _sample_cpu(self) -> None:
        """The CPU seconds of the build's tree now, to the estimator (outside the lock: it
        reads ``/proc``; Windows: nothing, the ETA keeps its unit model)."""
        pid = self._pid
        if pid is None:
            return
        used = self._platform.tree_cpu_seconds(pid)
        if used is None:
            return
        now = self.clock()
        with self._lock:
            self.estimator.cpu_sample(now, used)

    def line(self, text: str) -> ProgressEvent | None:
        """A line of output: a progress event if it was ninja's ``[n/N]``."""
        match = _NINJA.match(text)
        if match is None:
            if _NINJA_FAILED.match(text):
                with self._lock:
                    self.estimator.unit_failed()
                    return ProgressEvent.of(self.estimator.estimate(self.clock()))
            return None
        now = self.clock()
        done, total = int(match.group(1)), int(match.group(2))
        with self._lock:
            self.estimator.unit_line(now, done, total, text)
            interval = ESTIMATE_INTERVAL * (1 + done / 2000)  # an estimate looks at every unit
            if done < total and done > 1 and now - self._estimated < interval:
                return None  # a flood of units: a few estimates a second (the poller ticks too)
            self._estimated = now
            self._poll_log(now)
            return ProgressEvent.of(self.estimator.estimate(now))

    def other_line(self) -> ProgressEvent | None:
        """A line that is neither ``[n/N]`` nor ``FAILED:``: after the last unit's line it
        means that unit compiled (the bar may show it now)."""
        with self._lock:
            if not self.estimator.last_unconfirmed:
                return None
            self.estimator.confirm_last()
            return ProgressEvent.of(self.estimator.estimate(self.clock()))

    def tick(self) -> ProgressEvent:
        """The poller's look at the build folder and at the CPU the build gets; the estimate
        now."""
        self._sample_cpu()
        now = self.clock()
        with self._lock:
            self._find_reader(now)
            self._poll_log(now)
            return ProgressEvent.of(self.estimator.estimate(now))

    def _fresh(self, folder: Path) -> bool:
        """Whether ninja runs for this build in ``folder`` (a folder built before keeps an old
        ``build.ninja``: torch rewrites it only when it changes, or ninja logs a new unit)."""
        log = folder / ".ninja_log"
        try:
            written = (folder / "build.ninja").stat().st_mtime
        except OSError:
            return False
        return written >= self._wall_started - 2.0 or _size(log) > self._before.get(log, 0)

    def _poll_log(self, now: float) -> None:
        for reader in self._readers.values():  # in the order the runs began
            new = reader.poll()
            if new:
                self.estimator.log_units(new, now)

    def _find_reader(self, now: float) -> None:
        """Read ninja's log in every build folder ninja runs in for this build, and tell the
        estimator whenever a ``build.ninja`` is written (ninja starts) (under the lock)."""
        for folder in find_ninja_dirs(self._source):
            try:
                written = (folder / "build.ninja").stat().st_mtime_ns
            except OSError:
                continue
            if self._written.get(folder) == written:
                continue
            if folder not in self._readers:
                if not self._fresh(folder):
                    continue
                self._poll_log(now)  # what the runs before wrote comes first
                self._readers[folder] = NinjaLogReader(
                    folder, self._before.get(folder / ".ninja_log", 0))
            self._written[folder] = written
            try:
                text = (folder / "build.ninja").read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            self._starts += 1
            self.estimator.ninja_start(now, count_ninja_units(text), seq=self._starts)

    def units(self) -> list[UnitTime]:
        """The units ninja compiled (every run's log), also for a build too short for the
        poller to have seen its build folder."""
        with self._lock:
            now = self.clock()
            self._find_reader(now)
            self._poll_log(now)
            return [u for reader in self._readers.values() for u in reader.units]

    def runs(self) -> list[tuple[float, list[UnitTime]]]:
        """Each ninja run (extension) of the build: its start in seconds after the build
        started and its units, in order (for the build-time record; call :meth:`units`
        first); [] unless every run's start and units were seen."""
        with self._lock:
            runs = self.estimator.logged_runs()
            if any(begun is None or not units for begun, units in runs):
                return []
            return [(begun - self.started, units) for begun, units in runs
                    if begun is not None]

    def compile_cpu_seconds(self) -> float:
        """The CPU seconds the compile received, from ninja's start to its last unit's end
        (for the build-time record; 0: not measured)."""
        with self._lock:
            runs = self.estimator.logged_runs()
            ends = [begun + max(u.end for u in units) for begun, units in runs
                    if begun is not None and units]
            return self.estimator.compile_cpu_seconds(max(ends) if ends else None)

    @property
    def run(self) -> int:
        """The ninja run (extension) that compiles now, 1-based (0: none yet)."""
        return self.estimator.run

    @property
    def ninja_started(self) -> float | None:
        started = self.estimator.first_ninja_started
        return None if started is None else started - self.started


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


_LINK = re.compile(r"(\s-shared\s|\blink\.exe\b|\s/DLL\b|^Linking\b)", re.IGNORECASE)
_WHEEL = re.compile(r"^\s*(installing to build/bdist|creating '.*\.whl'|Created wheel for)")


# -- the runner -------------------------------------------------------------------------------


EventSink = Callable[[BuildEvent], None]  # where a build's events go (every front end's type)
DEFAULT_STALL_S = 180.0


def diagnosis_context(kernel: str) -> KernelContext | None:
    """What the diagnosis may say of the kernel being built: its name, its own setting for the
    GPU architectures, its force-build switch and the GPUs it needs, read from its recipe (so
    advice never names another package's switch). None for a kernel the catalog lacks."""
    try:
        recipe = load_catalog().get(kernel)
    except Exception:  # noqa: BLE001 - advice falls back to the log's own words
        return None
    knob = recipe.arch_knob
    if knob is ArchKnob.TORCH_CUDA_ARCH_LIST:
        arch = "TORCH_CUDA_ARCH_LIST (e.g. 8.6;9.0)"
    elif knob is ArchKnob.FLASH_ATTN_CUDA_ARCHS:
        arch = "FLASH_ATTN_CUDA_ARCHS (e.g. 80;90)"
    elif knob is ArchKnob.FLASHMLA_DISABLE_FLAGS:
        flags = [t.disable_env for t in recipe.targets if t.disable_env]
        arch = " / ".join(flags) + " (1 leaves that architecture out)" if flags else ""
    else:
        arch = ""
    force = next((f"{k.name}=TRUE" for k in recipe.knobs if k.name.endswith("FORCE_BUILD")), "")
    return context_for_recipe(recipe.name, arch, force, recipe.requirements.describe_gpus())


class _InTurn:
    """The attempt's events passed on in turn. The output thread and the poller both emit;
    each computes its progress event under the clock's lock and emits it after, so an older
    view can arrive second: it is dropped (a bar never steps back, the elapsed time never runs
    backwards)."""

    def __init__(self, emit: EventSink) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self._shown = -1.0  # the elapsed time of the newest progress event passed on

    def __call__(self, event: BuildEvent) -> None:
        with self._lock:
            if isinstance(event, ProgressEvent):
                if event.elapsed_seconds < self._shown:
                    return
                self._shown = event.elapsed_seconds
            self._emit(event)


class _Attempt:
    """One run of the plan's command: its output goes to the log, becomes events (lines,
    progress, steps, known problems) and feeds the diagnosis; :meth:`run` says how it ended.

    Reading order: :meth:`run` (start, stream, end), :meth:`_lines` (each batch of output:
    :meth:`_progress_of` and :meth:`_follow_steps` per line), then the steps' bookkeeping
    (:meth:`_enter`, :meth:`_link`, :meth:`_wheel`, :meth:`_last_link`, :meth:`_close_step`).
    """

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
        self.emit: EventSink = _InTurn(emit)
        self.log = log
        self.cancel = cancel
        self.stall_after_s = stall_after_s
        self.line_number = line_offset
        self.diagnoser = LogDiagnoser(context=diagnosis_context(plan.kernel))
        self.clock = BuildClock(plan)
        self.seconds = 0.0
        self.steps: list[StepTiming] = []
        self._step: Step | None = None
        self._step_started = 0.0
        self._run = 0  # the ninja run the steps have seen last
        self._link_at: float | None = None  # the latest link line of this run
        self.leftover: list[int] = []

    # -- the run ------------------------------------------------------------------------------

    def run(self) -> tuple[int | None, bool]:
        """(exit code or None, cancelled)."""
        self._enter(Step.COMPILE)
        self._note_withheld()
        self.emit(self.clock.tick())  # elapsed and the estimate from the start
        try:
            with self._polling():
                result = self._stream()
        except ProcessStartError as exc:
            return self._not_started(exc)
        except Cancelled as exc:
            return self._cancelled(exc)
        return self._ended(result)

    def _note_withheld(self) -> None:
        """The log says which secrets of this environment the build does not get."""
        withheld = withheld_names()
        if withheld:
            self.log.write("# not passed to the build (secrets it does not need): "
                           + ", ".join(withheld) + "\n")

    @contextmanager
    def _polling(self) -> Iterator[None]:
        """The poller looks at the build folder while the command runs; the attempt's time is
        taken when it stops."""
        stop = threading.Event()
        poller = threading.Thread(target=self._poll, args=(stop,), name="build progress",
                                  daemon=True)
        poller.start()
        try:
            yield
        finally:
            stop.set()
            poller.join()
            self.seconds = time.monotonic() - self.clock.started

    def _stream(self) -> ProcessResult:
        """The plan's command, its output in batches to :meth:`_lines`; a quiet spell becomes
        a :class:`StallEvent` naming the compilers still running."""

        def stalled(quiet: float, pid: int) -> None:
            self.emit(StallEvent(quiet, tuple(running_compilers(pid))))

        return stream(
            self.plan.command, self._lines, cwd=self.plan.cwd,
            env_changes=self.plan.env_changes, cancel=self.cancel,
            stall_after_s=self.stall_after_s, on_stall=stalled, on_start=self.clock.watch,
        )

    def _not_started(self, exc: ProcessStartError) -> tuple[int | None, bool]:
        self._line(f"[wizard] could not start {self.plan.command[0]}: {exc.why}")
        self._close_step(StepState.FAILED)
        return None, False

    def _cancelled(self, exc: Cancelled) -> tuple[int | None, bool]:
        self.leftover = list(exc.leftover_pids)
        self._line(f"[wizard] {exc.reason}: the build and every compiler it started were "
                   "stopped" + (f"; still running: {describe_pids(exc.leftover_pids)}"
                                if exc.leftover_pids else ""))
        self._close_step(StepState.CANCELLED)
        return None, True

    def _ended(self, result: ProcessResult) -> tuple[int | None, bool]:
        """The command ended by itself: strays noted, the last unit and link accounted for,
        the step closed as the exit code says."""
        if result.strays:
            self._line(f"[wizard] stopped {len(result.strays)} process(es) the build left "
                       "running after it ended")
        self.leftover = list(result.leftover_pids)
        code = result.returncode
        if code == 0:  # a build that succeeded compiled its last unit too
            confirmed = self.clock.other_line()
            if confirmed is not None:
                self.emit(confirmed)
        self._last_link()
        self._close_step(StepState.DONE if code == 0 else StepState.FAILED)
        return code, False

    def _poll(self, stop: threading.Event) -> None:
        """Every POLL_S: a look at the build folder and the estimate now (the display's
        elapsed time and ETA move on while the compiler prints nothing)."""
        while not stop.wait(POLL_S):
            try:
                event = self.clock.tick()
            except Exception:  # noqa: BLE001 - an estimate is never worth a failed build
                continue
            self.emit(event)

    def units(self) -> list[UnitTime]:
        try:
            return self.clock.units()
        except Exception:  # noqa: BLE001 - as above
            return []

    # -- the output ---------------------------------------------------------------------------

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
            event, unit_line = self._progress_of(text)
            if event is not None and progress is not None and event.run != progress.run:
                emit(progress)  # each extension's last progress in the batch: every one named
            progress = event or progress
            if unit_line:
                continue  # a unit's [n/N] line says nothing more
            self._follow_steps(text)
            for hit in feed(text):
                emit(DiagnosisEvent(hit))
        if progress is not None:  # one progress event per batch (and extension) is enough
            emit(progress)

    def _progress_of(self, text: str) -> tuple[ProgressEvent | None, bool]:
        """The progress a line moves (None: none), and whether it is a unit's ``[n/N]``
        line. Ninja's ``FAILED:`` moves it too (that unit did not compile); any other line
        after the last unit's line means that unit compiled."""
        clock = self.clock
        if "[" in text[:12] or "FAILED:" in text[:16]:  # cheap test before the regexes
            event = clock.line(text)
            if event is not None:
                return event, not _NINJA_FAILED.match(text)
        if clock.estimator.last_unconfirmed:
            return clock.other_line(), False
        return None, False

    def _follow_steps(self, text: str) -> None:
        """The steps a line shows: the next extension began (the link before was not the
        last), a link, the wheel being packed."""
        if self.clock.run != self._run:
            self._run, self._link_at = self.clock.run, None
        if self._step is Step.COMPILE and self._link_at is None and _LINK.search(text):
            self._link()
        if self._step is not Step.WHEEL and _WHEEL.search(text):
            self._wheel()

    # -- the steps ----------------------------------------------------------------------------

    def _enter(self, step: Step) -> None:
        if self._step is step:
            return
        self._close_step(StepState.DONE)
        self._step = step
        self._step_started = time.monotonic()
        self.emit(StepEvent(step, StepState.RUNNING))

    def _link(self) -> None:
        """A link line. setup.py may build another extension after it (a new ninja run), so
        the step stays COMPILE; the link is shown as the LINK step once it proves to be the
        last (the wheel step begins), with its own duration. Compile is never shown finished
        while a later extension compiles."""
        self._link_at = time.monotonic()

    def _wheel(self) -> None:
        self._last_link()
        self._enter(Step.WHEEL)

    def _last_link(self) -> None:
        """The build goes on past its last link (the wheel, or the end): the LINK step, from
        that link line on."""
        if self._step is Step.COMPILE and self._link_at is not None:
            link_at, self._link_at = self._link_at, None
            seconds = link_at - self._step_started
            self.steps.append(StepTiming(Step.COMPILE, StepState.DONE, seconds))
            self.emit(StepEvent(Step.COMPILE, StepState.DONE, seconds))
            self._step, self._step_started = Step.LINK, link_at
            self.emit(StepEvent(Step.LINK, StepState.RUNNING))

    def _close_step(self, state: StepState) -> None:
        if self._step is None:
            return
        seconds = time.monotonic() - self._step_started
        self.steps.append(StepTiming(self._step, state, seconds))
        self.emit(StepEvent(self._step, state, seconds))
        self._step = None


def retry_plan(plan: BuildPlan, action: RetryAction) -> tuple[BuildPlan, str] | None:
    """The plan for an automatic retry, with what changed — or None if it would not help."""
    if action is RetryAction.HALVE_JOBS:
        par = plan.parallelism
        if par.jobs > 1:
            jobs, threads = max(1, par.jobs // 2), par.nvcc_threads
            what = msg("{old} → {new} parallel compile jobs", old=par.jobs, new=jobs)
        elif par.nvcc_threads > 1:
            jobs, threads = 1, max(1, par.nvcc_threads // 2)
            what = msg("{old} → {new} nvcc threads", old=par.nvcc_threads, new=threads)
        else:
            return None
        new = Parallelism(jobs, threads, msg("halved after running out of memory: {what}",
                                             what=what))
        changes = [EnvChange("MAX_JOBS", str(new.jobs), why=new.reason)]
        if plan.env_value("NVCC_THREADS") is not None:
            changes.append(EnvChange("NVCC_THREADS", str(new.nvcc_threads)))
        retried = replace(plan.with_env(*changes, note=new.reason), parallelism=new)
        return retried, msg("The build ran out of memory; trying again with {what}.",
                            what=what)
    if action is RetryAction.ADD_CCCL_INCLUDE:
        if plan.cuda_home is None:
            return None
        folder = plan.cuda_home / "include" / "cccl"
        if not folder.is_dir() or any(str(folder) == c.value for c in plan.env_changes):
            return None
        change = EnvChange(plan.host_include_var, str(folder), EnvMode.PREPEND,
                           why="CUDA 13 CCCL headers for the host compiler")
        return (plan.with_env(change, note="CUDA 13: CCCL headers added after the first try"),
                msg("The host compiler could not find CUDA 13's CCCL headers; adding {folder} "
                    "to its include path and trying again.", folder=folder))
    if action is RetryAction.FORCE_BUILD:
        if plan.env_value("FLASH_ATTENTION_FORCE_BUILD") == "TRUE":
            return None
        change = EnvChange("FLASH_ATTENTION_FORCE_BUILD", "TRUE",
                           why="skip setup.py's own prebuilt-wheel download")
        return plan.with_env(change), N_(
            "Skipping the library's own wheel download and building.")
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
    units: list[UnitTime] = []
    tried: set[RetryAction] = set()
    with open(plan.log_path, "w", encoding="utf-8", errors="replace") as log:
        if preamble:
            log.write("\n".join(preamble) + "\n\n")

        def finish(outcome: BuildOutcome) -> BuildOutcome:
            """The compiled units into the outcome and the log; a whole successful build
            into the build-time history (the next estimate of it here)."""
            top = tuple(slowest(units))
            if top:
                log.write("# slowest units: " + ", ".join(
                    f"{u.name} {u.seconds:.1f} s" for u in top) + "\n")
            if outcome.status is BuildStatus.SUCCEEDED and attempts == 1 and units:
                try:
                    save_record(make_record(
                        kernel=plan.kernel, version=record_version(plan.version, plan.variant),
                        archs=plan.archs,
                        jobs=plan.parallelism.jobs, nvcc_threads=plan.parallelism.nvcc_threads,
                        total_seconds=attempt.seconds,
                        ninja_started=attempt.clock.ninja_started or 0.0, units=units,
                        runs=attempt.clock.runs(),
                        compile_cpu_seconds=attempt.clock.compile_cpu_seconds()))
                except (OSError, ValueError) as exc:
                    log.write(f"# build times not kept for the next estimate: {exc}\n")
            return replace(outcome, units=tuple(units), slowest_units=top)

        while True:
            attempts += 1
            log.write(f"# attempt {attempts}\n{plan.describe()}\n\n")
            log.flush()
            attempt = _Attempt(plan, emit, log, stop, stall_after_s, line_offset)
            code, cancelled = attempt.run()
            line_offset = attempt.line_number
            steps += attempt.steps
            units += attempt.units()
            report = attempt.diagnoser.summary(failed=not cancelled and code != 0)
            log.write(f"\n# exit code {code}{' (cancelled)' if cancelled else ''}\n")
            log.flush()
            if cancelled:
                hint = N_("Start it again whenever you like; your environment is unchanged.")
                if attempt.leftover:
                    hint = msg("These processes of the build could not be stopped: {pids}. "
                               "End them (Task Manager, 'kill'), then start again; your "
                               "environment is unchanged.",
                               pids=describe_pids(attempt.leftover))
                return finish(BuildOutcome(
                    status=BuildStatus.CANCELLED,
                    message=N_("The build was cancelled; nothing was installed."),
                    hint=hint,
                    plan=plan, wheel=None, log_path=plan.log_path,
                    seconds=time.monotonic() - started, attempts=attempts, exit_code=code,
                    diagnosis=report, steps=tuple(steps),
                    leftover_pids=tuple(attempt.leftover),
                ))
            if code == 0:
                wheels = sorted(
                    (p for p in plan.output_dir.glob("*.whl")
                     if before.get(p.name) != p.stat().st_mtime_ns),  # new or rewritten
                    key=lambda p: p.stat().st_mtime,
                )
                if wheels:
                    return finish(BuildOutcome(
                        status=BuildStatus.SUCCEEDED,
                        message=msg("Built {wheel}.", wheel=wheels[-1].name),
                        hint="",
                        plan=plan, wheel=wheels[-1], log_path=plan.log_path,
                        seconds=time.monotonic() - started, attempts=attempts, exit_code=0,
                        diagnosis=report, steps=tuple(steps),
                    ))
                return finish(_failed(plan, report, code, attempts, started, steps,
                                      N_("The build finished but produced no wheel.")))
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
            return finish(_failed(plan, report, code, attempts, started, steps))


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
            msg("The build failed: {title}.", title=Msg(primary.title)) if primary is not None
            else N_("The build failed.")
        )
    hint: str
    full = disk_full_in(plan)
    if full is not None:  # a full disk explains the failure; "build again" would not help
        message = msg("The build stopped: {why}.", why=sentence(Cause.NO_SPACE, full))
        hint = fix_for(Cause.NO_SPACE, full, _alternative(full))
    elif primary is not None:
        hint = primary.fix
    elif report.first_error is not None:  # the compiler's line stays as it is (a value)
        hint = msg("The first error was: {line} — see the log for details: {log}",
                   line=report.first_error.line.strip()[:300], log=plan.log_path)
    else:
        hint = msg("See the log for details: {log}", log=plan.log_path)
    return BuildOutcome(
        status=BuildStatus.FAILED, message=message, hint=hint, plan=plan, wheel=None,
        log_path=plan.log_path, seconds=time.monotonic() - started, attempts=attempts,
        exit_code=code, diagnosis=report, steps=tuple(steps), disk_full=full,
    )


LOG_TAIL_BYTES = 256 * 1024


def _alternative(folder: Path) -> str:
    """How to move the wizard's part of the work to another disk."""
    if in_data_dir(folder):
        return DATA_DIR_ALTERNATIVE
    if folder.is_relative_to(current_platform().default_build_root()):
        return BUILD_ROOT_ALTERNATIVE
    return ""


def disk_full_in(plan: BuildPlan) -> Path | None:
    """When the end of the build's log shows a full disk: the folder the build writes to whose
    disk has the least space left (the source's build folder, the wheel's folder, or the
    temporary folder the compilers use); else None."""
    try:
        with open(plan.log_path, "rb") as log:
            log.seek(0, os.SEEK_END)
            log.seek(max(0, log.tell() - LOG_TAIL_BYTES))
            tail = log.read().decode("utf-8", "replace")
    except OSError:
        return None
    if cause_in_output(tail) is not Cause.NO_SPACE:
        return None
    folders = [plan.source_dir, plan.output_dir, Path(tempfile.gettempdir())]
    return min(folders, key=lambda folder: free_bytes(folder) or 0)


__all__ = [
    "BuildEvent", "BuildOutcome", "BuildStatus", "DiagnosisEvent", "EventSink", "LogLine",
    "PlanEvent",
    "BuildClock", "ProgressEvent", "RetryEvent", "StallEvent", "Step", "StepEvent",
    "StepState", "StepTiming", "decode_line", "retry_plan", "run_build", "unhandled",
]
