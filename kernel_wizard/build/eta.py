"""Progress that tells the truth: elapsed time and the time left of a kernel build.

A torch extension build is ``pip wheel`` → ``setup.py`` → one ninja run that compiles N
units in parallel (``MAX_JOBS``) → link → wheel. In a pipe, ninja prints ``[n/N] command``
when a unit *finishes*, and appends every finished unit's start and end (milliseconds since
ninja started) to ``.ninja_log`` in the build folder. From these, :class:`EtaEstimator`
says how long the rest takes:

* **before the first unit** — the prior (:class:`Prior`: the user's own last build of this
  kernel on this machine, else the recipe's calibrated cost model) minus the time elapsed;
  the total number of units is known as soon as ninja's ``build.ninja`` exists;
* **while units compile** — the units still to run are scheduled onto the ``jobs`` slots
  (a list schedule, like ninja's), each unit in flight holding its slot for its expected
  rest. Unit costs come from what this build has measured so far (finished units, and the
  age of those in flight), blended with the prior; with history, per unit by name, scaled by
  how fast this build runs compared with the last one;
* **a unit in flight, given its age** — what it still needs is the rest of a unit of its kind
  that has run that long: how much one unit differs from another is the prior's guess while
  few units have ended, then what this build's finished units show (FlashAttention 2's units
  differ by about 30 %, so one at 350 s is near its end, not half-way);
* **bound by the longest unit** — a unit known to be slow (by name from history, or the
  recipe's ``slowest_unit_core_seconds`` while no unit that long has finished, or while a
  unit in flight is older than every finished one) and a unit in flight for long set a floor:
  the build cannot end before they do (FlashMLA on an H100 spends 109 s of a 125 s compile in
  one unit; FlashAttention 3's two backward units outlast two forward units that are nearly
  as slow); no ordinary unit is expected to run past the slowest one;
  on a first build the recipe's slowest unit runs at this machine's pace, in part
  (``SLOW_TRANSFER``): the pace its units show against the recipe's, the short units that end
  first read against the recipe's short units, not against its mean (FlashMLA on an H200:
  short units 0.77 times the recipe's, the slowest 91-100 s against the recipe's 128 s,
  measured on an H100);
* **the last of the units in flight** — where no unit is known to stand out, the build waits
  for whichever of its last units ends last: the expected end of the slowest of them
  (:func:`expected_end`), later than the last of their expected ends by as much as this
  build's units differ from one another (FlashAttention 2: 16 units in flight at the end);
* **after the last unit** — link and wheel: the prior's tail;
* **several extensions** — a ``setup.py`` that builds several torch extensions runs ninja once
  per extension, one after another, each with its own ``[1/N] … [N/N]`` (and its own
  ``build.ninja``, in the same ``build/temp.*`` folder or one per extension). A run that starts
  after the previous one compiled all its units is the next extension's (:attr:`Eta.run` says
  which). When the prior plans the runs (:attr:`Prior.run_plan`: the recipe's extensions for
  the selected targets, SageAttention's 4 units for an RTX 3090 and 14 for an H100, or the
  user's last build run by run), every run's units count in the total from the start and the
  time left is the current run's units, then every later run at this build's pace (this
  build's finished units against their planned times, each unit in flight running longer
  than planned counting as at least its age; a finished unit of a plan that does not name its
  units is the planned unit of its rank, below every unit still running that has run longer
  than it), one after another, then link and wheel: the next extension
  starting changes nothing, since its time was in the estimate all along. Without a plan, the
  units the prior expects beyond those known (a recipe's count of extensions,
  :attr:`Prior.runs`) stay in the estimate between runs, and the total grows run by run. A
  run that starts before the previous one finished starts that run over (ninja's count of
  what is left).

**The CPU the build gets** — a build on a busy or slow machine runs at the pace the machine
gives its compilers, which neither the prior nor a build of one unit can know: the probe on a
2-core box took 23 s, 171 s and 351 s, the same unit each time. Where the runner samples the CPU
seconds the build's process tree has received (:meth:`EtaEstimator.cpu_sample`, about once a
second; Linux, from ``/proc``: :mod:`kernel_wizard.machine.platforms.proc_cpu`), and the prior
knows the compile's work in core-seconds (:attr:`Prior.compile_core_seconds`), the compile
still needs that work less the CPU seconds received since ninja started (a unit's rest given
its age, in CPU seconds instead of wall seconds), at the share of the CPU the build gets now
(CPU seconds per wall second over the last ``CPU_WINDOW`` seconds of the compile, a minute). That
estimate is blended with the units' own (:meth:`EtaEstimator._with_cpu`): it is all there is
while no unit has finished, and weighs less with every unit that finishes, whose pace
measures the machine as it is (many units: the units' pace). Without samples (Windows, an old
recording) or without core-seconds (a history record of a build that sampled none) the
estimate is the units' alone, as before. A first build's prior (the recipe's) carries no
core-seconds (those were measured on other CPUs, see :meth:`BuildEstimate.prior`): it takes the
**load signal** instead (:meth:`EtaEstimator._loaded`), which needs none: the share of the CPU
the build gets against the parallelism its units in flight could use (one core each, at most
``jobs``). A build getting all of it (an idle machine) keeps the units' estimate; one getting
half of it runs at half speed, and the prior's time left is stretched to twice as long, the
compile so far counting at the pace it ran. It holds only until a unit of the build ends (whose
time measures the pace, load included).

No total (a build without ninja) or no prior: elapsed only, or the prior alone.

Pure: no files are read here except by :func:`find_ninja_dir` / :class:`NinjaLogReader`,
which the build runner polls; times are ``time.monotonic()`` seconds handed in by the caller
(so recorded builds replay exactly, see ``benchmarks/eta_accuracy.py``).
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path

# -- ninja's own records ----------------------------------------------------------------------


@dataclass(frozen=True)
class UnitTime:
    """One compiled unit: its name and its start/end in seconds since ninja started."""

    name: str
    start: float
    end: float

    @property
    def seconds(self) -> float:
        return max(0.0, self.end - self.start)


_TEMP_DIR = re.compile(r"(?:^|/)build/temp\.[^/]+/(?:(?:Release|Debug)/)?(.+)$")


def unit_name(output: str) -> str:
    """A unit's name that stays the same from build to build: its object file relative to
    setuptools' ``build/temp.*`` folder ("csrc/sm90/decode/dense/instantiations/fp16.o"),
    whatever folder the source was built in."""
    path = output.strip().strip('"').replace("\\", "/")
    match = _TEMP_DIR.search(path)
    if match:
        return match.group(1)
    parts = [p for p in path.split("/") if p]
    return "/".join(parts[-3:]) if parts else path


def parse_ninja_log(text: str) -> list[list[UnitTime]]:
    """The runs in a ``.ninja_log`` (format v5 to v7), oldest first, each in finish order.

    ninja appends one line per finished output: ``start end mtime output hash`` with times in
    ms since that ninja run started. A later run (a retry in the same folder) starts its
    clock again, so an end time that goes back starts a new run; so does a ``# ninja log``
    header after entries (several extensions' logs, one after another, as
    ``benchmarks/record_build.py`` keeps them)."""
    runs: list[list[UnitTime]] = []
    current: list[UnitTime] = []
    last_end = -1
    for line in text.splitlines():
        if line.startswith("# ninja log") and current:
            runs.append(current)
            current = []
            last_end = -1
            continue
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < 4:
            continue
        try:
            start, end = int(fields[0]), int(fields[1])
        except ValueError:
            continue
        if end < last_end and current:
            runs.append(current)
            current = []
        last_end = end
        current.append(UnitTime(unit_name(fields[3]), start / 1000.0, end / 1000.0))
    if current:
        runs.append(current)
    return runs


def find_ninja_dir(source_dir: Path) -> Path | None:
    """The folder where ninja runs for a setuptools/torch extension build of ``source_dir``
    (``build/temp.<platform>-<python>/``, on Windows maybe with ``Release/`` below), once it
    has a ``build.ninja``; None before that. The newest if there are several."""
    found = find_ninja_dirs(source_dir)
    return found[-1] if found else None


def find_ninja_dirs(source_dir: Path) -> list[Path]:
    """Every folder under ``source_dir/build/temp.*`` with a ``build.ninja``, oldest first
    (extensions built with their own temporary folders each have one: SageAttention's
    ``setup.py`` compiles each extension in ``temp.*/<extension name>/``)."""
    build = source_dir / "build"
    try:
        temps = [p for p in build.iterdir() if p.name.startswith("temp.") and p.is_dir()]
    except OSError:
        return []
    candidates: list[Path] = []
    for temp in temps:
        candidates.append(temp)
        try:
            candidates += sorted(p for p in temp.iterdir() if p.is_dir())
        except OSError:
            continue
    found = {folder for top in candidates for folder in (top, top / "Release", top / "Debug")
             if (folder / "build.ninja").is_file()}
    return sorted(found, key=lambda f: (_mtime(f / "build.ninja"), str(f)))


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


_COMPILE_EDGE = re.compile(r"^build\s+.+?:\s*(\w*compile\w*)\b", re.MULTILINE)


def count_ninja_units(build_ninja: str) -> int:
    """The compile edges in a torch-generated ``build.ninja`` (``compile``, ``cuda_compile``,
    ``sycl_compile``...): what ninja will report as N in ``[n/N]`` in a fresh folder."""
    return len(_COMPILE_EDGE.findall(build_ninja))


class NinjaLogReader:
    """Reads what ninja appended to ``.ninja_log`` since the reader was made (an earlier
    build in the same folder left entries that are not this build's)."""

    def __init__(self, folder: Path, offset: int | None = None) -> None:
        """``offset``: where this build's entries begin (default: the log's size now)."""
        self.path = folder / ".ninja_log"
        self._offset = self._size() if offset is None else offset
        self._pending = ""
        self.units: list[UnitTime] = []  # this build's, every ninja run, in finish order

    def _size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def poll(self) -> list[UnitTime]:
        """The units finished since the last poll (whole lines only)."""
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self._offset)
                data = fh.read()
        except OSError:
            return []
        if not data:
            return []
        self._offset += len(data)
        text = self._pending + data.decode("utf-8", "replace")
        complete, _, self._pending = text.rpartition("\n")
        if not complete:
            return []
        new: list[UnitTime] = []
        for run in parse_ninja_log(complete + "\n"):
            # every run since the reader was made is this build's (one per extension that
            # setup.py builds in this folder; a retry of the build gets a new reader)
            new += run
        self.units += new
        return new


_OUTPUT_ARG = re.compile(r'(?:\s-o\s+|\s/Fo)("[^"]+"|\S+)')


def output_of_command(line: str) -> str | None:
    """The object a ninja ``[n/N] command`` line writes (``-o x.o``, MSVC's ``/Fox.obj``)."""
    found = _OUTPUT_ARG.findall(line)
    return unit_name(found[-1]) if found else None


# -- what is expected before the build says anything ------------------------------------------


class PriorSource(Enum):
    HISTORY = "history"  # the user's own last build of this kernel on this machine
    RECIPE = "recipe"  # the recipe's calibrated cost model
    NONE = "none"


@dataclass(frozen=True)
class RunPlan:
    """One ninja run the build is expected to have (one per torch extension): its units and
    their expected wall-clock times at this build's parallelism, in the order they start
    (named where the user's last build named them, else ``""``), and the run's compile time
    (its units scheduled onto the build's jobs)."""

    units: int
    seconds: float
    costs: tuple[tuple[str, float], ...] = ()

    @property
    def named(self) -> bool:
        return any(name for name, _ in self.costs)


def plan_run(costs: Sequence[tuple[str, float]], jobs: int, units: int | None = None) -> RunPlan:
    """A run of these unit costs (in start order) on ``jobs`` slots."""
    return RunPlan(units if units is not None else len(costs),
                   schedule((c for _, c in costs), (), max(1, jobs)), tuple(costs))


@dataclass(frozen=True)
class Prior:
    """The expected build, before it says anything.

    ``unit_seconds``: one unit's wall-clock time at this build's parallelism;
    ``longest_unit_seconds``: the slowest unit's (0: not known to stand out);
    ``unit_costs``: per unit by name, in the order they started (history only)."""

    total_seconds: float
    jobs: int
    unit_seconds: float
    units: int | None = None
    setup_seconds: float = 0.0  # the build starts → ninja starts
    tail_seconds: float = 0.0  # the last unit ends → the wheel is written
    longest_unit_seconds: float = 0.0
    unit_costs: tuple[tuple[str, float], ...] = ()
    source: PriorSource = PriorSource.RECIPE
    # ninja runs the build is expected to have (one per torch extension; the recipe's
    # ``extensions``): more than one, and ``units`` counts every run's from the first run on
    runs: int = 1
    # those runs one by one, when known (the recipe's extensions for the selected targets, or
    # the user's last build): the estimate then knows every run's units up front and plans the
    # runs still to come one after another; () not known
    run_plan: tuple[RunPlan, ...] = ()
    # the slowest unit of each target where the targets' differ, longest first (FlashMLA for
    # sm90 and sm100: 214 s and 128 s); () where one figure holds for all
    slow_unit_seconds: tuple[float, ...] = ()
    # the compile's work: the CPU seconds its compilers use, every unit together (the CPU time
    # the user's last build here received); 0: not known (a first build: see plan.py)
    compile_core_seconds: float = 0.0

    @property
    def compile_seconds(self) -> float:
        return max(0.0, self.total_seconds - self.setup_seconds - self.tail_seconds)


def schedule(durations: Iterable[float], slots: Sequence[float], jobs: int) -> float:
    """When the last of ``durations`` (in start order) ends if each starts on the first free
    of ``jobs`` slots, ``slots`` being when the busy ones free up (the rest are free now)."""
    free = sorted(slots)[:jobs] if len(slots) >= jobs else sorted(slots) + \
        [0.0] * (jobs - len(slots))
    heapq.heapify(free)
    end = max(free) if slots else 0.0
    for duration in durations:
        start = heapq.heappop(free)
        finish = start + duration
        end = max(end, finish)
        heapq.heappush(free, finish)
    return end


def expected_end(durations: Iterable[float], slots: Sequence[float], jobs: int,
                 spread: float, slot_sds: Sequence[float] | None = None) -> float:
    """:func:`schedule`, where every time is a mean and each unit's time varies by ``spread``
    (the standard deviation of its logarithm): the expected end of the last unit, which is
    later than the last of the expected ends when several units may end last (the build waits
    for the slowest of the units in flight, not for the average one).

    Each slot's free time is taken as normal: a unit in flight with its expected rest r
    varies by about ``spread · r`` (a young unit as much as a unit does, an old one, whose
    rest is short, little), a unit queued onto a slot by its own; the units go
    onto the slot expected to free first, as ninja does (so the variation of the earlier units
    of a slot evens out: its last unit's is what is left). E[max] = ∫ (1 − Π Φ) dt."""
    rel = math.sqrt(math.expm1(spread * spread)) if spread > 0 else 0.0
    sds = list(slot_sds) if slot_sds is not None else [rel * r for r in slots]
    if rel <= 0 and not any(sd > 0 for sd in sds):
        return schedule(durations, slots, jobs)
    jobs = max(1, jobs)
    busy = sorted(zip(slots, sds, strict=True))[:jobs]  # as schedule() keeps them
    busy += [(0.0, 0.0)] * (jobs - len(busy))
    free = [(r, sd * sd) for r, sd in busy]
    heapq.heapify(free)
    for duration in durations:
        # ninja gives the next unit to the slot that frees first, so how the earlier units
        # on a slot varied evens out: the last unit on each slot is what varies
        mean, _var = heapq.heappop(free)
        heapq.heappush(free, (mean + duration, (rel * duration) ** 2))
    ends = [(m, math.sqrt(v)) for m, v in free if m > 0]
    if not ends:
        return 0.0
    plain = max(m for m, _ in ends)
    if all(sd <= 0 for _, sd in ends):
        return plain
    # only the slots that may end last matter
    ends = [(m, sd) for m, sd in ends if m + 4 * sd >= plain]
    top = max(m + 6 * sd for m, sd in ends)
    steps = 200
    dt = top / steps
    total = 0.0
    for k in range(steps):
        t = (k + 0.5) * dt
        below = 1.0
        for m, sd in ends:
            below *= 1.0 if sd <= 0 and t >= m else 0.0 if sd <= 0 else \
                0.5 * math.erfc((m - t) / (sd * math.sqrt(2)))
            if below == 0.0:
                break
        total += (1.0 - below) * dt
    return max(plain, total)


def history_compile_seconds(costs: Sequence[tuple[str, float]], jobs: int) -> float:
    """The compile time of units with these costs (in start order) on ``jobs`` slots."""
    return schedule((c for _, c in costs), (), max(1, jobs))


# -- the estimate -----------------------------------------------------------------------------


class Phase(Enum):
    SETUP = "setup"  # pip and setup.py before the first compile
    COMPILE = "compile"
    FINISH = "finish"  # link and wheel


@dataclass(frozen=True)
class Eta:
    """Where the build stands: what a progress display shows."""

    elapsed: float
    remaining: float | None  # seconds; None: nothing to go by
    done: int
    total: int  # 0: not known (yet)
    phase: Phase
    basis: PriorSource  # what the estimate leans on before this build measured anything
    overdue: bool = False  # it has run longer than the prior said the whole build would
    run: int = 0  # which ninja run (extension) compiles: 1, 2, ...; 0 before the first
    more_expected: bool = False  # the prior expects units beyond those known so far

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0


# How much an estimate trusts the prior against this build's own measurements, in units.
PRIOR_WEIGHT = 2.0
# ... and a planned build's pace (its units against their planned times) the plan's, in units:
# two, as the prior's. One (tried 2026-11-29: a slower machine shows from its first units) won
# the synthetic builds of 4 extensions but no real recording of the training part, and halved
# the held-out SageAttention build on the 4x H200 (70 -> 38 of 100 moments within the goal)
PACE_WEIGHT = 2.0
# How uncertain an expected time is (standard deviation of its logarithm): a unit known by
# name from the user's last build; a unit known only as "a unit of this build"; the recipe's
# slowest unit; the prior's whole compile before any unit has finished; link and wheel.
SPREAD_NAMED = 0.2
SPREAD_UNIT = 0.6
SPREAD_SLOWEST = 0.3
SPREAD_PRIOR = 0.3
SPREAD_TAIL = 0.5
SPREAD_PLANNED = 0.2  # a unit of a planned run (the recipe's figure for that extension)
# ... once this build's pace is known: how much one unit differs from its planned time at it
SPREAD_PACED = 0.1
# The share of slow units when the prior knows the slowest unit's time (FlashMLA: 4 of 24).
SLOW_SHARE = 0.15
# a unit's duration is taken as cut off this many log standard deviations above its kind's mean
TAIL_SIGMAS = 2.0
REST_FLOOR = 0.15  # an overdue unit: at least this share of its age × its spread is left
UNIT_BOUND = 1.2  # no unit takes much longer than the slowest known: 1.2 times it at most
FINISHED_BOUND = 1.1  # and at most 1.1 times the slowest that ended, once a slow one has
# The recipe's slowest unit at this build's pace (a first build: the recipe's figures were
# measured on another machine): the pace is how long this build's units take against the
# recipe's (:func:`_slow_pace`: its logarithm as uncertain as SPREAD_PRIOR before any unit
# ends, then as the finished units and those in flight show), and the slowest unit's expected
# time follows pace ** SLOW_TRANSFER (1: all of it; 0: none), its spread growing by the pace's
# uncertainty and by the part not carried over. Chosen on the training recordings
# (2026-11-29): FlashMLA on an H200 (short units 0.77 times the recipe's, slowest 0.75-0.83)
# meets the goal throughout from 0.7 on, FlashAttention 3 and FlashMLA on the H100 at every
# transfer up to 1 (0.6: FlashMLA on the H200 99/100; without the pace's uncertainty in the
# spread FlashAttention 3, whose 18 s host unit reads as a fast machine, missed from 0.9 on)
SLOW_TRANSFER = 0.8
# The CPU signal: the share of the CPU the build gets is taken over this many seconds of its
# compile (its recent pace: long enough that the load of a shared machine, which comes and goes
# from one 10 s to the next, evens out; short enough that a load that came to stay shows within
# a minute; chosen on probe-cpu-2core-4/5/6), once at least CPU_MIN_SPAN seconds of samples
# are there. A share below CPU_MIN_SHARE is no pace the machine gives the compilers but a sign
# that the compiling is not done in the build's own processes (ccache hits, a compile server,
# distcc, a replayed build): the CPU signal is then not used, the units' estimate stands
CPU_WINDOW = 60.0
CPU_MIN_SPAN = 3.0
CPU_MIN_SHARE = 0.05
# how much the CPU estimate weighs against the units', in units: w = CPU_WEIGHT / (CPU_WEIGHT
# + units finished)
CPU_WEIGHT = 2.0
# The load signal, which needs no core-seconds (a first build: the recipe's were measured on
# other CPUs): the share of the CPU the build's processes get against the parallelism its units
# in flight could use (one core each, at most ``jobs``), over the same window. A compile that
# gets at least LOAD_IDLE of that is taken as running on an idle machine (an nvcc unit waiting
# on its files, a link between two units: the estimate stays the units' own); below LOAD_FULL
# the whole shortfall stretches the time left (half the cores it could use: twice as long);
# between the two, part of it (no jump at LOAD_IDLE). Used while no unit of the build has
# finished (a unit that has finished measured the pace itself), and only over a window where
# units were in flight for at least LOAD_MIN_BUSY of the time on average.
LOAD_IDLE = 0.9
LOAD_FULL = 0.5
LOAD_MIN_BUSY = 0.5
LOAD_WINDOW = CPU_WINDOW
# ... or over the last LOAD_RECENT seconds where the build got more of the CPU then: a load that
# eases off shows within seconds, one that comes is averaged over the minute (a 10 s share
# jumps with a shared machine's other work; taken the other way it would chase every dip)
LOAD_RECENT = 10.0
# how much the compile's CPU seconds vary (standard deviation of their logarithm): the recipe's
# core-seconds on another machine (SPREAD_PRIOR), the user's last build of it on this one (the
# probe here: 28.4 and 27.2 CPU seconds where the wall time was 96 s and 141 s)
SPREAD_CPU_HISTORY = 0.1


@dataclass
class CpuTrack:
    """The CPU seconds a build's process tree has received, sampled: ``(time, seconds so
    far)``, never going back (a compiler that ended is counted in its parent a moment late)."""

    samples: list[tuple[float, float]] = field(default_factory=list)

    def add(self, now: float, seconds: float) -> None:
        if self.samples:
            last_t, last_c = self.samples[-1]
            if now <= last_t:
                return
            seconds = max(seconds, last_c)
        self.samples.append((now, seconds))

    def at(self, when: float) -> float | None:
        """The CPU seconds received by ``when`` (between two samples: as if evenly); None
        before the first sample."""
        samples = self.samples
        if not samples or when < samples[0][0]:
            return None
        if when >= samples[-1][0]:
            return samples[-1][1]
        lo, hi = 0, len(samples) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if samples[mid][0] <= when:
                lo = mid
            else:
                hi = mid
        (t0, c0), (t1, c1) = samples[lo], samples[hi]
        return c0 + (c1 - c0) * (when - t0) / (t1 - t0) if t1 > t0 else c1

    def received(self, since: float, now: float) -> float | None:
        """CPU seconds received from ``since`` (or the first sample after it) to ``now``."""
        if not self.samples or now < self.samples[0][0]:
            return None
        begun = self.at(max(since, self.samples[0][0]))
        until = self.at(now)
        return None if begun is None or until is None else max(0.0, until - begun)

    def share(self, now: float, since: float, window: float | None = None,
              min_span: float = CPU_MIN_SPAN) -> float | None:
        """CPU seconds per wall second over the last ``window`` seconds (default
        ``CPU_WINDOW``) before ``now`` (not before ``since``); None with less than
        ``min_span`` seconds of samples there."""
        window = CPU_WINDOW if window is None else window
        inside = [(t, c) for t, c in self.samples if max(since, now - window) <= t <= now]
        if len(inside) < 2 or inside[-1][0] - inside[0][0] < min_span:
            return None
        (t0, c0), (t1, c1) = inside[0], inside[-1]
        return max(0.0, c1 - c0) / (t1 - t0)



@dataclass
class _LinesState:
    """The lines-only model of the units so far (see :meth:`EtaEstimator._units`)."""

    key: tuple[float, int, int]  # (ninja's start, N, jobs) it was made for
    pending: list[float]  # when the units in flight started (a heap)
    launched: int
    seen: int = 0  # [n/N] lines taken in
    durations: list[float] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


@dataclass
class EtaEstimator:
    """Feed it the build's events (with their times) and ask :meth:`estimate` at any time.

    ``total``, ``ninja_started``, the lines and the log entries below are the current ninja
    run's; the runs before it (earlier extensions) are summed in ``_earlier_*``."""

    prior: Prior | None
    jobs: int
    started: float = 0.0
    ninja_started: float | None = None  # the current run's
    total: int = 0  # the current run's N; the prior's unit count is a guess the bar does not show
    _all_log: list[UnitTime] = field(default_factory=list)  # .ninja_log: every run's units
    _run_log_start: int = 0  # where the current run's entries begin in _all_log
    _line_times: list[float] = field(default_factory=list)  # when [1/N], [2/N]... arrived
    _names: list[str | None] = field(default_factory=list)  # the units those lines named
    failed: int = 0  # units whose [n/N] line was followed by ninja's "FAILED:"
    # ninja prints [N/N] for the last unit whether it compiled or not ("FAILED:" follows): the
    # last unit counts once something confirms it (more output, .ninja_log, the end)
    last_unconfirmed: bool = False
    _lines_state: _LinesState | None = None  # the lines-only unit model, kept between looks
    run: int = 0  # the current ninja run, 1-based (0: none seen yet)
    first_ninja_started: float | None = None  # the first run's start (the build's record)
    _earlier_done: int = 0  # units compiled by the runs before this one
    _earlier_total: int = 0
    _earlier_line_durations: list[float] = field(default_factory=list)  # lines-only model
    # each earlier run's finished units: (durations, names), for the planned estimate
    _earlier_runs: list[tuple[list[float], list[str]]] = field(default_factory=list)
    # each earlier run's start and how many log entries it has (where the next run's begin)
    _run_starts: list[tuple[float | None, int]] = field(default_factory=list)
    _run_floor: float = 0.0  # the current run started after this (the previous run's end)
    cpu: CpuTrack = field(default_factory=CpuTrack)  # the CPU the build's processes received

    def __post_init__(self) -> None:
        self.jobs = max(1, self.jobs)

    # -- input ------------------------------------------------------------------------------

    def start(self, now: float) -> None:
        self.started = now
        self._run_floor = now

    def ninja_start(self, now: float, total: int = 0, seq: int | None = None) -> None:
        """ninja's ``build.ninja`` appeared, or was written again (ninja starts now); ``total``:
        its compile edges. After a run that compiled all its units, this is the next run.
        ``seq``: how many ninja starts the build folder has shown so far, this one included.
        The poller may see a start only after the run's own ``[n/N]`` lines (a short
        extension compiles between two looks): a start the lines already counted
        (``seq`` <= the run they are in) changes nothing."""
        if seq is not None and seq < self.run:
            return  # an earlier run's folder, seen late
        if self._line_times and self.run_complete and (seq is None or seq > self.run):
            self._next_run(now)
        if self.ninja_started is None:
            self.ninja_started = now
            if self.first_ninja_started is None:
                self.first_ninja_started = now
        if self.run == 0:
            self.run = 1
        if total > 0 and not self._line_times:
            self.total = total

    @property
    def run_complete(self) -> bool:
        """The current run printed its ``[N/N]`` line and no unit failed."""
        return bool(self.total) and len(self._line_times) >= self.total and not self.failed

    def _next_run(self, now: float) -> None:
        """The current run compiled everything: the next ninja run (another extension)."""
        done = max(len(self._line_times), len(self._run_log()))
        if self.ninja_started is not None:
            durations, _ages, names = self._units(now)
            self._earlier_runs.append((list(durations), list(names)))
        else:
            self._earlier_runs.append(([], []))
        state = self._lines_state
        if len(self._run_log()) < done and state is not None:
            self._earlier_line_durations += state.durations
        self._run_starts.append((self.ninja_started, done))
        # the next run began after this one's last unit ended (not when it was seen)
        ended = min(now, self._line_times[-1]) if self._line_times else now
        self._earlier_done += done
        self._earlier_total += max(self.total, done)
        self._run_log_start += done
        self._restart_run(ended)
        self.run += 1

    def logged_runs(self) -> list[tuple[float | None, list[UnitTime]]]:
        """Each ninja run so far: when it started (in the caller's clock; None: not known)
        and the units ``.ninja_log`` holds of it (seconds since that run started), in order."""
        out: list[tuple[float | None, list[UnitTime]]] = []
        at = 0
        for begun, size in self._run_starts:
            out.append((begun, self._all_log[at:at + size]))
            at += size
        out.append((self.ninja_started, self._all_log[at:]))
        return out

    def _restart_run(self, now: float) -> None:
        self._line_times.clear()
        self._names.clear()
        self.failed = 0
        self.last_unconfirmed = False
        self.ninja_started = None
        self._lines_state = None
        self.total = 0
        self._run_floor = now

    def unit_line(self, now: float, done: int, total: int, line: str = "") -> None:
        """A ``[done/total]`` line: a unit finished (ninja in a pipe prints at the end)."""
        if self._line_times and (total != self.total or done <= len(self._line_times)):
            if self.run_complete:  # the next extension's ninja run
                self._next_run(now)
            else:
                # another ninja run before this one finished (ninja's count of what is left):
                # this run starts over
                del self._all_log[self._run_log_start:]
                self._restart_run(self._run_floor)
        if self.run == 0:
            self.run = 1
        self.total = total
        self.last_unconfirmed = bool(total) and done >= total and \
            len(self._run_log()) < total
        name = output_of_command(line) if line else None
        while len(self._line_times) < done:
            self._line_times.append(now)
            self._names.append(name)
        if self.ninja_started is None:
            # not seen starting: about one expected unit before this line (without a prior:
            # when the build, or the previous run, started); a planned run: its shortest
            guess = self.prior.unit_seconds if self.prior is not None else now
            planned = self._plan_of(self.run)
            if planned is not None and planned.costs:
                guess = min(c for _, c in planned.costs) * self._speed(now, finished_only=True)
            self.ninja_started = max(self._run_floor, now - guess)
            if self.first_ninja_started is None:
                self.first_ninja_started = self.ninja_started

    def cpu_sample(self, now: float, seconds: float) -> None:
        """The CPU seconds the build's process tree (its compilers too) has received so far,
        sampled by the runner about once a second."""
        self.cpu.add(now, seconds)

    def compile_cpu_seconds(self, until: float | None = None) -> float:
        """The CPU seconds the build received from its first ninja start to ``until`` (its
        last unit's end; default: the last sample): the compile's work, for the build-time
        record. 0 where no samples were taken."""
        begun = self.first_ninja_started
        if begun is None or not self.cpu.samples:
            return 0.0
        end = until if until is not None else self.cpu.samples[-1][0]
        return self.cpu.received(begun, end) or 0.0

    def _cpu_left(self, now: float, scale: float = 1.0) -> float | None:
        """The compile's time left from the CPU signal: the prior's core-seconds less what the
        build received since ninja started (as a unit's rest given its age, in CPU seconds),
        at the share of the CPU it gets now. None without samples, core-seconds or a share
        measured over the compile yet, and where the share is below ``CPU_MIN_SHARE`` (the
        compiling is done elsewhere)."""
        prior = self.prior
        begun = self.first_ninja_started
        if prior is None or prior.compile_core_seconds <= 0 or begun is None:
            return None
        share = self.cpu.share(now, begun)
        got = self.cpu.received(begun, now)
        if share is None or got is None or share < CPU_MIN_SHARE:
            return None
        work = prior.compile_core_seconds * scale
        spread = SPREAD_CPU_HISTORY if prior.source is PriorSource.HISTORY else SPREAD_PRIOR
        return _rest(work, got, spread) / share

    def _busy(self, now: float) -> list[tuple[float, float]]:
        """When each unit of the build ran so far (the caller's clock; a unit in flight until
        ``now``): every run's units that ``.ninja_log`` holds, and the current run's from its
        lines where the log has not caught up."""
        spans: list[tuple[float, float]] = []
        for begun, units in self.logged_runs()[:-1]:
            if begun is not None:
                spans += [(begun + u.start, begun + u.end) for u in units]
        t0 = self.ninja_started
        if t0 is None:
            return spans
        durations, ages, _names = self._units(now)
        log = self._run_log()
        if log and len(log) >= len(durations):
            spans += [(t0 + u.start, t0 + u.end) for u in log]
        else:
            ends = self._line_times[:len(durations)]
            spans += [(end - d, end) for end, d in zip(ends, durations, strict=False)]
        spans += [(now - a, now) for a in ages]
        return spans

    def _parallelism(self, since: float, now: float,
                     spans: dict[float, list[tuple[float, float]]]) -> float:
        """How many cores the build's units could use on average from ``since`` to ``now``:
        the units in flight, one core each, at most ``jobs``. ``spans``: the units' spans
        already found, by the time they were found at (one estimate looks at several
        windows that end at the same sample)."""
        if now <= since:
            return 0.0
        if now not in spans:
            spans[now] = self._busy(now)
        events: list[tuple[float, int]] = []
        for begun, ended in spans[now]:
            lo, hi = max(begun, since), min(ended, now)
            if hi > lo:
                events += [(lo, 1), (hi, -1)]
        events.sort()
        busy = 0.0
        count = 0
        last = since
        for at, step in events:
            busy += min(count, self.jobs) * (at - last)
            count += step
            last = at
        return busy / (now - since)

    def _load(self, now: float, window: float | None = None,
              spans: dict[float, list[tuple[float, float]]] | None = None) -> float | None:
        """How fast the compile runs against an idle machine (1: as fast; 0.5: half as fast),
        from the share of the CPU the build gets over the last ``window`` seconds of its
        compile (default ``CPU_WINDOW``; ``math.inf``: all of it) against the parallelism its
        units could use then (see ``LOAD_IDLE``). None without samples there, while too few
        units ran, or where the share is below ``CPU_MIN_SHARE`` (the compiling is done
        elsewhere)."""
        begun = self.first_ninja_started
        if begun is None or not self.cpu.samples:
            return None
        window = LOAD_WINDOW if window is None else window
        share = self.cpu.share(now, begun, window)
        if share is None or share < CPU_MIN_SHARE:
            return None
        inside = [t for t, _ in self.cpu.samples if max(begun, now - window) <= t <= now]
        expected = self._parallelism(inside[0], inside[-1], {} if spans is None else spans)
        if expected < LOAD_MIN_BUSY:
            return None
        ratio = min(1.0, share / expected)
        if ratio >= LOAD_IDLE:
            return 1.0
        if ratio <= LOAD_FULL:
            return ratio
        return float(ratio ** ((LOAD_IDLE - ratio) / (LOAD_IDLE - LOAD_FULL)))

    def _loaded(self, now: float) -> tuple[float, float] | None:
        """The load signal for the time left of a build none of whose units has finished and
        whose prior carries no core-seconds: (how fast the compile ran so far, how fast it
        runs now), against an idle machine; None where it does not apply (see :meth:`_load`)."""
        if self._earlier_done or self._done():
            return None
        prior = self.prior
        if prior is not None and prior.compile_core_seconds > 0:
            return None  # the CPU signal in core-seconds (:meth:`_cpu_left`) says it
        spans: dict[float, list[tuple[float, float]]] = {}
        pace_now = self._load(now, None, spans)
        if pace_now is None:
            return None
        if LOAD_RECENT:
            recent = self._load(now, LOAD_RECENT, spans)
            if recent is not None:
                pace_now = max(pace_now, recent)
        so_far = self._load(now, math.inf, spans)
        return (so_far if so_far is not None else pace_now), pace_now

    def _with_cpu(self, now: float, left: float, done: int, scale: float = 1.0) -> float:
        """The units' estimate of the compile's time left blended with the CPU signal's
        (:meth:`_cpu_left`): the CPU's alone while no unit has finished, less with every unit
        that has (``done``: units finished over every run)."""
        by_cpu = self._cpu_left(now, scale)
        if by_cpu is None:
            return left
        weight = CPU_WEIGHT / (CPU_WEIGHT + max(0, done))
        return weight * by_cpu + (1.0 - weight) * left

    def unit_failed(self) -> None:
        """ninja's ``FAILED: <output>``: the unit of the last ``[n/N]`` line did not compile
        (ninja prints the line for a failed unit too; its ``.ninja_log`` keeps only the units
        that compiled). The bar does not count it as done."""
        if self.failed < len(self._line_times):
            self.failed += 1
        self.last_unconfirmed = False

    def confirm_last(self) -> None:
        """Output after the last ``[N/N]`` line that is not ``FAILED:``: it compiled."""
        self.last_unconfirmed = False

    def _run_log(self) -> list[UnitTime]:
        """The current run's ``.ninja_log`` entries (the log may run ahead of the lines: the
        entries past this run's N are the next run's)."""
        start = self._run_log_start
        end = start + self.total if self.total else len(self._all_log)
        return self._all_log[start:end]

    def _done(self) -> int:
        done = max(len(self._line_times) - self.failed, len(self._run_log()))
        return min(done, self.total - 1) if self.last_unconfirmed else done

    def log_units(self, units: Iterable[UnitTime], now: float) -> None:
        """New entries of ``.ninja_log`` (exact starts and ends of finished units)."""
        self._all_log += units
        log = self._run_log()
        if self.total and len(log) >= self.total:
            self.last_unconfirmed = False  # .ninja_log keeps only units that compiled
        if log and self._line_times:
            # ninja's clock → ours: a unit's line arrived when it ended
            offsets = [self._line_times[i] - u.end for i, u in enumerate(log)
                       if i < len(self._line_times)]
            offsets.sort()
            estimate = offsets[len(offsets) // 2]
            self.ninja_started = estimate if self.ninja_started is None else \
                min(max(estimate, self._run_floor), now)
        elif log and self.run <= 1:
            estimate = now - log[-1].end
            self.ninja_started = estimate if self.ninja_started is None else \
                min(max(estimate, self.started), now)
        if self.first_ninja_started is None or self.run <= 1:
            self.first_ninja_started = self.ninja_started

    @property
    def units_done(self) -> int:
        """Units compiled over every run so far (what the bar shows)."""
        return self._earlier_done + self._done()

    @property
    def units_known(self) -> int:
        """Units of every run so far (the bar's total)."""
        return self._earlier_total + self.total

    def expected_more(self) -> int:
        """Units the prior expects beyond those of the runs known so far: the user's last
        build (which counted every run), the recipe's count when the recipe says the build has
        several extensions (:attr:`Prior.runs`), or once a second run has shown that it has
        (during the first run of a recipe of one extension a count that differs from ninja's is
        taken for the model's error)."""
        prior = self.prior
        if prior is None or not prior.units:
            return 0
        known = self.units_known
        more = prior.units - known
        if more <= 0:
            return 0
        if prior.source is PriorSource.HISTORY or self.run >= 2 or prior.runs > 1:
            return more
        return 0

    def _earlier(self) -> tuple[list[float], list[str]]:
        """Durations and names of the units the earlier runs compiled."""
        start = self._run_log_start
        if not start:
            return [], []
        log = self._all_log[:start]
        if len(log) >= start:
            return [u.seconds for u in log], [u.name for u in log]
        return list(self._earlier_line_durations), []

    # -- planned runs (the recipe's extensions, or the user's last build) -------------------

    def _plan_of(self, run: int) -> RunPlan | None:
        """The planned run ``run`` (1-based), None past the plan or without one."""
        plan = self.prior.run_plan if self.prior is not None else ()
        return plan[run - 1] if 1 <= run <= len(plan) else None

    def _speed(self, now: float, finished_only: bool = False) -> float:
        return self._pace(now, finished_only)[0]

    def _pace(self, now: float, finished_only: bool = False) -> tuple[float, float]:
        """How long this build's units take against the plan's (1: as planned): the finished
        units against their planned times, blended with the plan, and a unit in flight longer
        than planned at this pace counts as at least its age (so a slow unit ending changes
        nothing at once: the runs after it were already planned at its pace)."""
        prior = self.prior
        if prior is None or not prior.run_plan:
            return 1.0, 1.0
        every = [c for r in prior.run_plan for _, c in r.costs]
        mean = sum(every) / len(every) if every else prior.unit_seconds
        weight = PACE_WEIGHT * max(mean, 1e-3)
        measured = expected = 0.0
        for k, (durations, names) in enumerate(self._earlier_runs):
            planned = self._plan_of(k + 1)
            if planned is not None and planned.costs:
                m, e = _matched(durations, names, planned.costs, whole=True)
                measured += m
                expected += e
        planned = self._plan_of(self.run)
        in_flight: list[tuple[float, float]] = []
        if planned is not None and planned.costs and self.ninja_started is not None \
                and self._done():
            durations, ages, names = self._units(now)
            m, e = _matched(durations, names, planned.costs, whole=False, ages=ages)
            measured += m
            expected += e
            # the units in flight, oldest first, as the units left in the order the estimate
            # gives them (the longest planned for the oldest; a unit counted in flight may not
            # have started: ninja waits for what it needs)
            left = _remaining_costs(planned, names, durations, ages)
            if not planned.named:
                left.sort(reverse=True)
            in_flight = list(zip(sorted(ages, reverse=True), left, strict=False))
        elif planned is not None and planned.costs and self.ninja_started is not None:
            age = max(0.0, now - self.ninja_started)
            units = self.total or planned.units
            in_flight = [(age, c) for c in sorted((c for _, c in planned.costs),
                                                  reverse=True)[:min(self.jobs, units)]]
        speed = (weight + measured) / (weight + expected)
        share = weight / (weight + expected)  # how much of it is still the plan's
        if finished_only:
            return speed, share
        # overdue units: each at least its age so far (every unit in flight past its planned
        # time at this pace: seven units of an extension all running 40 % longer than planned
        # say more than the oldest one alone)
        late = [(a, c) for a, c in in_flight if c > 0 and a > c * speed]
        if late:
            speed = (weight + measured + sum(a for a, _ in late)) / \
                (weight + expected + sum(c for _, c in late))
        return speed, share

    def _planned_left(self, planned: RunPlan, pace: tuple[float, float], durations: list[float],
                      ages: list[float], names: list[str], total: int) -> float:
        """What a planned run still needs: its units not finished, at this build's pace; those
        in flight each their expected rest (the longest planned for the oldest), the others
        scheduled onto the free slots."""
        speed, share = pace
        left = [c * speed for c in _remaining_costs(planned, names, durations, ages)]
        if total and total != planned.units:  # ninja counts another number than planned
            mean = sum(c for _, c in planned.costs) / max(1, len(planned.costs)) * speed
            want = max(0, total - len(durations))
            left = sorted(left, reverse=True)[:want] + [mean] * max(0, want - len(left))
        # a unit's time is as uncertain as the pace (while the plan weighs in it) and then as
        # one unit differs from another at that pace
        spread = math.hypot(SPREAD_PACED, (SPREAD_NAMED if planned.named else SPREAD_PLANNED)
                            * share)
        oldest_first = sorted(ages, reverse=True)
        if not planned.named:
            left.sort(reverse=True)
        rests = [_rest(c, a, spread) for c, a in zip(left, oldest_first, strict=False)]
        mean = sum(left) / len(left) if left else 0.0
        rests += [_rest(mean, a, SPREAD_UNIT) for a in oldest_first[len(left):]]
        return schedule(left[len(ages):], rests, self.jobs)

    def _estimate_planned(self, now: float) -> Eta:
        """The estimate of a build whose ninja runs are planned (:attr:`Prior.run_plan`): the
        current run's units, then every planned run after it at this build's pace, one after
        another, then link and wheel. Every run's units count in the total from the start."""
        prior = self.prior
        assert prior is not None
        plan = prior.run_plan
        elapsed = max(0.0, now - self.started)
        basis = prior.source
        overdue = elapsed > prior.total_seconds
        done = self._done()
        total = self.total
        run = self.run
        current = self._plan_of(run)
        later = plan[run:] if run >= 1 else plan
        shown_total = self._earlier_total + (total or (current.units if current else 0)) + \
            sum(r.units for r in later)
        shown_done = self._earlier_done + done

        def eta(left: float | None, phase: Phase) -> Eta:
            return Eta(elapsed, left, shown_done, shown_total, phase, basis, overdue, run=run)

        if self.failed:  # ninja stops at a failed unit: no time left to promise
            return eta(None, Phase.COMPILE)
        pace = self._pace(now)
        speed = pace[0]
        tail = prior.tail_seconds
        if run == 0 or (self.ninja_started is None and not self._line_times and run <= 1):
            # pip and setup.py: the compile starts when ninja does
            rest = _rest(prior.setup_seconds, elapsed, SPREAD_PRIOR) if prior.setup_seconds \
                else 0.0
            return eta(rest + sum(r.seconds for r in plan) + tail, Phase.SETUP)
        if total and done >= total:  # this run compiled
            last = self._line_times[-1] if self._line_times else now
            if later:  # the next run, as if it began when this one ended (ninja starts then)
                first, rest_of = later[0], later[1:]
                age = max(0.0, now - last)
                left = self._planned_left(first, pace, [], [age] * min(self.jobs, first.units),
                                          [], 0)
                return eta(left + speed * sum(r.seconds for r in rest_of) + tail,
                           Phase.COMPILE)
            return eta(_rest(tail, now - last, SPREAD_TAIL), Phase.FINISH)
        after = speed * sum(r.seconds for r in (plan[run:] if current is not None else ()))
        if current is None:  # a run past the plan: as a run of one extension
            eta_legacy = self._estimate(now)
            return eta(eta_legacy.remaining, eta_legacy.phase)
        started = self.ninja_started if self.ninja_started is not None else self._run_floor
        if done == 0:
            units = total or current.units
            age = max(0.0, now - started)
            loaded = self._loaded(now)
            if loaded is not None:
                # a busy machine: the compile so far counts at the pace it ran, the rest at the
                # pace it runs now
                so_far, pace_now = loaded
                left = self._planned_left(current, pace, [],
                                          [age * so_far] * min(self.jobs, units), [], total)
                return eta((left + after) / pace_now + tail, Phase.COMPILE)
            left = self._planned_left(current, pace, [], [age] * min(self.jobs, units), [],
                                      total)
            left = self._with_cpu(now, left + after, self._earlier_done)
            return eta(left + tail, Phase.COMPILE)
        durations, ages, names = self._units(now)
        left = self._planned_left(current, pace, durations, ages, names, total)
        left = self._with_cpu(now, left + after, self._earlier_done + done)
        return eta(left + tail, Phase.COMPILE)

    # -- the state of the units -------------------------------------------------------------

    def _units(self, now: float) -> tuple[list[float], list[float], list[str]]:
        """(durations of finished units, ages of the units in flight, names finished)."""
        assert self.ninja_started is not None
        t0 = self.ninja_started
        total = self.total
        log = self._run_log()
        done = max(len(self._line_times), len(log))
        if log and len(log) >= done:
            durations = [u.seconds for u in log]
            names = [u.name for u in log]
            starts = sorted(t0 + u.start for u in log)
            ends = sorted(t0 + u.end for u in log)
        else:  # lines only: the oldest unit in flight is assumed to finish first
            state = self._lines_state
            key = (t0, total, self.jobs)
            if state is None or state.key != key or state.seen > len(self._line_times):
                pending = [t0] * min(self.jobs, total or self.jobs)
                heapq.heapify(pending)
                state = self._lines_state = _LinesState(key, pending, len(pending))
            # only the lines that came since the last estimate: a flood of units costs the
            # same per line at the 100,000th as at the first
            for i in range(state.seen, len(self._line_times)):
                at = self._line_times[i]
                begun = heapq.heappop(state.pending) if state.pending else at
                state.durations.append(max(0.0, at - begun))
                state.names.append(self._names[i] or "")  # "" where the line named no output
                if not total or state.launched < total:
                    heapq.heappush(state.pending, at)
                    state.launched += 1
            state.seen = len(self._line_times)
            return state.durations, [max(0.0, now - s) for s in state.pending], state.names
        # every slot restarts when a unit ends; what was started and has not ended is in flight
        slot_starts = [t0] * min(self.jobs, total or self.jobs)
        for at in ends:
            if total and len(slot_starts) >= total:
                break
            slot_starts.append(at)
        in_flight = _multiset_minus(slot_starts, starts)
        return durations, [max(0.0, now - s) for s in in_flight], names

    # -- output -----------------------------------------------------------------------------

    def estimate(self, now: float) -> Eta:
        if self.prior is not None and self.prior.run_plan:
            return self._estimate_planned(now)
        eta = self._estimate(now)
        more = self.expected_more() > 0
        if self.run <= 1 and not more:
            return replace(eta, run=self.run)  # one run (so far): as it always was
        return replace(eta, done=self._earlier_done + eta.done,
                       total=self._earlier_total + eta.total, run=self.run, more_expected=more)

    def _estimate(self, now: float) -> Eta:
        """The current run's units; the time left of the whole build."""
        elapsed = max(0.0, now - self.started)
        prior = self.prior
        basis = prior.source if prior is not None else PriorSource.NONE
        overdue = prior is not None and elapsed > prior.total_seconds
        done = self._done()
        total = self.total
        if self.failed:  # ninja stops at a failed unit: no time left to promise
            return Eta(elapsed, None, done, total, Phase.COMPILE, basis, overdue)
        tail = prior.tail_seconds if prior is not None else 0.0
        more = self.expected_more()
        if self.run >= 2 and (done == 0 or self.ninja_started is None):
            # the next extension's run, nothing of it measured yet: its units (and those the
            # prior expects after it) at the earlier runs' pace
            durations, names = self._earlier()
            age = now - self.ninja_started if self.ninja_started is not None else 0.0
            ages = [age] * min(self.jobs, total) if total else []
            left = self._compile_left(durations, ages, names, total + more, 0)
            return Eta(elapsed, left + tail, done, total, Phase.COMPILE, basis, overdue)
        if total and done >= total:  # this run compiled: link (and wheel, or the next run)
            last = self._line_times[-1] if self._line_times else now
            if more:  # more runs expected: their units at this build's pace
                durations, names = self._earlier()
                run_durations, _, run_names = self._units(now)
                left = self._compile_left(durations + run_durations, [], names + run_names,
                                          more, 0)
                return Eta(elapsed, left + tail, done, total, Phase.COMPILE, basis, overdue)
            rest = _rest(tail, now - last, SPREAD_TAIL) if prior is not None else None
            return Eta(elapsed, rest, done, total, Phase.FINISH, basis, overdue)
        if prior is None and self.ninja_started is None:
            return Eta(elapsed, None, done, total, Phase.SETUP, basis)
        if prior is not None and (self.ninja_started is None or done == 0):
            # nothing measured yet: the prior, less what has passed
            if self.ninja_started is None:  # (or a build without ninja: the prior alone)
                left = _rest(prior.total_seconds, elapsed, SPREAD_PRIOR)
                return Eta(elapsed, left, done, total, Phase.SETUP, basis, overdue)
            compile_s = prior.compile_seconds
            scale = 1.0
            if total and prior.units and total != prior.units and not more:
                scale = total / prior.units  # another unit count: scale
            age = now - self.ninja_started
            loaded = self._loaded(now)
            if loaded is not None:
                # a busy machine: the compile so far counts at the pace it ran, the rest at the
                # pace it runs now (a unit getting a third of its core takes three times as long)
                so_far, pace_now = loaded
                left = _rest(compile_s * scale, age * so_far, SPREAD_PRIOR) / pace_now
            else:
                left = _rest(compile_s * scale, age, SPREAD_PRIOR)
                left = self._with_cpu(now, left, self._earlier_done, scale)
            return Eta(elapsed, left + tail, done, total, Phase.COMPILE, basis, overdue)
        if done == 0:
            return Eta(elapsed, None, done, total, Phase.COMPILE, basis)
        durations, ages, names = self._units(now)
        if self.run >= 2:
            earlier, earlier_names = self._earlier()
            durations, names = earlier + durations, earlier_names + names
        left = self._compile_left(durations, ages, names, total + more, done)
        left = self._with_cpu(now, left, self._earlier_done + done)
        return Eta(elapsed, left + tail, done, total, Phase.COMPILE, basis, overdue)

    def _compile_left(self, durations: list[float], ages: list[float], names: list[str],
                      total: int, done: int) -> float:
        prior = self.prior
        queued_count = max(0, (total or done + len(ages)) - done - len(ages))
        known = dict(prior.unit_costs) if prior is not None else {}
        if prior is not None and known and any(n in known for n in names):
            return self._left_from_history(prior, durations, ages, names, queued_count)
        mu0 = prior.unit_seconds if prior is not None else 0.0
        longest = prior.longest_unit_seconds if prior is not None else 0.0
        mu = _unit_mean(durations, ages, mu0, PRIOR_WEIGHT if prior is not None else 0.0)
        # the recipe's slowest unit: as uncertain as the recipe while few units have ended,
        # then as one slow unit differs from another
        slow_spread = math.hypot(SPREAD_PACED, SPREAD_SLOWEST * PRIOR_WEIGHT
                                 / (PRIOR_WEIGHT + len(durations)))
        # how much one unit differs from another: as the prior says while few units have
        # ended, then as this build's finished units differ (FlashAttention 2's 73 units
        # 100-380 s: 0.3, not 0.6, so a unit at 350 s is near its end, not half-way)
        n = len(durations)
        measured = _measured_spread(durations)
        unit_spread = math.sqrt((PRIOR_WEIGHT * SPREAD_UNIT ** 2 + n * measured ** 2)
                                / (PRIOR_WEIGHT + n))
        kinds = [(1.0, mu, unit_spread)]
        # the prior knows a unit that stands out (against its own mean: units in flight long
        # raise this build's mean, and they are the likeliest to be that unit)
        stands_out = longest > 1.5 * min(mu, mu0) if mu0 > 0 else longest > 1.5 * mu
        slow_figures = prior.slow_unit_seconds if prior is not None else ()
        if stands_out and durations and not slow_figures and SLOW_TRANSFER > 0:
            # the slowest unit at this machine's pace: what the finished units (and those in
            # flight, each at least as long as its age) show of it against the recipe's units,
            # carried over in part (FlashMLA on an H200: its short units 0.77 times the
            # recipe's, its slowest 91-100 s against the recipe's 128 s, measured on an H100),
            # as uncertain as the pace still is, and the part not carried over as the pace is
            # far from the recipe's.
            # Not where each target has its own slowest unit (several targets compiled side by
            # side by nvcc's threads): the recipe's mean unit is no ordinary unit's time there
            # (FlashMLA for sm90 and sm100, 8 jobs × 2 threads: its ordinary units 1.2 times
            # the mean's, its slowest as the recipe says), so their pace says nothing of the
            # machine
            pace, pace_sd = _slow_pace(durations, ages, mu0, longest)
            slow_spread = math.hypot(slow_spread, SLOW_TRANSFER * pace_sd,
                                     (1 - SLOW_TRANSFER) * abs(math.log(pace)))
            longest *= pace ** SLOW_TRANSFER
        if stands_out:
            # ordinary units and a few slow ones (the mean stays mu)
            ordinary = (mu - SLOW_SHARE * longest) / (1 - SLOW_SHARE)
            if ordinary > 0:
                kinds = [(1 - SLOW_SHARE, ordinary, unit_spread),
                         (SLOW_SHARE, longest, slow_spread)]
        # the slowest unit the prior knows is slower than any ordinary unit
        rests = [_rest_mixed(kinds, a, longest if len(kinds) > 1 else math.inf) for a in ages]
        slow_oldest: int | None = None
        figures = slow_figures if len(kinds) > 1 else ()
        not_started: list[float] | None = None  # slow units not started (figures only)
        if len(figures) > 1 and ages:
            # each target's slowest unit, not yet finished, is one of the oldest units in
            # flight (the longest for the oldest); the others are ordinary units, the queued
            # ones too once every slow unit has started
            rests, not_started = _slow_by_age(kinds[0], figures, durations, ages, slow_spread)
            slow_oldest = max(range(len(ages)), key=ages.__getitem__)
        elif stands_out and ages and (max(ages) > max(durations, default=0.0)
                                    or not any(d >= 0.7 * longest for d in durations)):
            # a slow unit is known to exist and none that long has ended: the oldest unit in
            # flight is taken for it (it bounds the build: FlashMLA's 128 s of 141 s)
            oldest = max(range(len(ages)), key=ages.__getitem__)
            rests[oldest] = max(rests[oldest], _rest(longest, ages[oldest], slow_spread))
            slow_oldest = oldest
        # no unit runs far past the slowest one known (the recipe's, or one of this build's):
        # an overdue unit counts down towards that bound instead of pushing the estimate up
        slowest_done = max(durations, default=0.0)
        bound = UNIT_BOUND * max(longest, slowest_done, mu)
        if longest > 0 and slowest_done >= 0.8 * longest:
            # a slow unit of this build has ended: the others of its kind end about then
            bound = min(bound, FINISHED_BOUND * slowest_done)
        # ... and a unit near that bound ends between now and it: what is left of the slowest
        # kind's times below the bound, not the whole way to it (FlashAttention 3's backward
        # units at 166 s of a bound of 192 s: about 10 s, not 26 s)
        # (before its kind's mean: that mean, then what is left of it there)
        _share, top, top_spread = kinds[-1]
        at_top = _rest_mixed([(1.0, top, top_spread)], top, bound=bound)
        rests = [min(r, max(_rest_mixed([(1.0, top, top_spread)], a, bound=bound)
                            if a >= top else min(bound - a, top - a + at_top),
                            REST_FLOOR * SPREAD_SLOWEST * a))
                 for r, a in zip(rests, ages, strict=True)]
        # the build ends with the last of its units: where no unit is known to stand out, any
        # of the last ones may be it, each differing from its expected time as this build's
        # finished units differ from one another (what the units share, this build's pace,
        # makes none of them the last; a slow unit the prior knows bounds the build itself)
        spread = measured * math.sqrt(n / (PRIOR_WEIGHT + n))
        if len(kinds) > 1 or slow_oldest is not None:
            spread = 0.0
        sds = [min(r, _rest_sd([(1.0, mu, spread)], a)) for r, a in zip(rests, ages, strict=True)]
        if not_started is not None:
            queued_costs = (not_started + [kinds[0][1]] * queued_count)[:queued_count]
            return expected_end(queued_costs, rests, self.jobs, spread, sds)
        queued = mu
        if len(kinds) > 1 and queued_count:
            # the slow units the build has (its share of every unit) that have not shown
            # themselves yet: those finished, and those in flight as likely as their age makes
            # them one, are not among the units still queued (FlashMLA starts its four slow
            # units first: the twenty after them are ordinary ones)
            count = queued_count + len(ages) + len(durations)
            seen = sum(d >= 0.7 * longest for d in durations) + \
                sum(_slow_posterior(kinds, a) for a in ages)
            owed = min(queued_count, max(0.0, SLOW_SHARE * count - seen))
            queued = (owed * longest + (queued_count - owed) * kinds[0][1]) / queued_count
        return expected_end([queued] * queued_count, rests, self.jobs, spread, sds)

    def _left_from_history(self, prior: Prior, durations: list[float], ages: list[float],
                           names: list[str], queued_count: int) -> float:
        costs = dict(prior.unit_costs)
        finished = set(names)
        # how fast this build runs compared with the one in history
        measured = [(d, costs[n]) for d, n in zip(durations, names, strict=False) if n in costs]
        mean_cost = sum(costs.values()) / max(1, len(costs))
        weight = PRIOR_WEIGHT * mean_cost
        speed = (weight + sum(d for d, _ in measured)) / (weight + sum(c for _, c in measured))
        left = [c * speed for n, c in prior.unit_costs if n not in finished]
        mu = mean_cost * speed
        oldest_first = sorted(ages, reverse=True)
        # in flight: the next units in the order they started last time
        rests = [_rest(c, a, SPREAD_NAMED) for c, a in zip(left, oldest_first, strict=False)]
        rests += [_rest(mu, a, SPREAD_UNIT) for a in oldest_first[len(left):]]
        queued = left[len(ages):]
        queued = (queued + [mu] * max(0, queued_count - len(queued)))[:queued_count]
        return schedule(queued, rests, self.jobs)


def _matched(durations: Sequence[float], names: Sequence[str],
             costs: Sequence[tuple[str, float]], whole: bool,
             ages: Sequence[float] = ()) -> tuple[float, float]:
    """(measured, planned) seconds of the finished units a plan knows: by name where it names
    them, else each to a planned time of its rank among those (see :func:`_rank_match`; the
    units in flight, ``ages``, are at least as long as they have run)."""
    named = {n: c for n, c in costs if n}
    if named:
        pairs = [(d, named[n]) for d, n in zip(durations, names, strict=False) if n in named]
        return sum(d for d, _ in pairs), sum(c for _, c in pairs)
    planned = sorted(c for _, c in costs)
    measured = sorted(durations)
    if whole or len(measured) >= len(planned):
        measured = measured[-len(planned):] if planned else []
        planned = planned[-len(measured):] if measured else []
        return sum(measured), sum(planned)
    chosen = _rank_match(measured, planned, ages)
    return sum(measured), sum(planned[j] for j in chosen)


def _rank_match(measured: Sequence[float], planned: Sequence[float],
                ages: Sequence[float] = ()) -> list[int]:
    """Which of the ``planned`` times (sorted) the ``measured`` ones (sorted, fewer) are: the
    same order, each as near as can be (least total log distance): DeepEP's host unit, the
    fifth to end, is its 40 s host unit and not a sixth 16 s kernel.

    A unit in flight (``ages``) already longer than a finished one is a longer unit of the
    plan than it: SageAttention's host unit ending after 130 s while the main unit runs on is
    the 36 s host unit at a slow pace, not the 200 s unit at a fast one (which would leave a
    36 s unit running for 130 s)."""
    k, n = len(measured), len(planned)
    inf = math.inf
    # the i-th measured unit (0-based) has the k-1-i measured after it and the units in
    # flight that have run longer than it above it in the plan
    spare = n - k
    highest = [n - k + i - min(spare, sum(a > measured[i] for a in ages)) for i in range(k)]
    # best[i][j]: the first i measured matched within the first j planned
    best = [[0.0] * (n + 1)] + [[inf] * (n + 1) for _ in range(k)]
    for i in range(1, k + 1):
        for j in range(i, n + 1):
            take = best[i - 1][j - 1] + abs(math.log(max(measured[i - 1], 1e-3)
                                                     / max(planned[j - 1], 1e-3))) \
                if j - 1 <= highest[i - 1] else inf
            best[i][j] = min(best[i][j - 1], take)
    chosen: list[int] = []
    i, j = k, n
    while i > 0:
        if best[i][j] == best[i][j - 1] and j > i:
            j -= 1
        else:
            chosen.append(j - 1)
            i -= 1
            j -= 1
    return chosen[::-1]


def _remaining_costs(planned: RunPlan, names: Sequence[str],
                     durations: Sequence[float], ages: Sequence[float] = ()) -> list[float]:
    """The planned costs of a run's units not finished yet: by name where the plan names them
    (in the order they started last time), else those the finished units' times did not match
    (:func:`_rank_match`), longest first."""
    if planned.named:
        gone = set(names)
        return [c for n, c in planned.costs if n not in gone]
    ordered = sorted(c for _, c in planned.costs)
    if len(durations) >= len(ordered):
        return []
    chosen = set(_rank_match(sorted(durations), ordered, ages))
    return sorted((c for j, c in enumerate(ordered) if j not in chosen), reverse=True)


def _rest_mixed(parts: Sequence[tuple[float, float, float]], age: float,
                cap: float = math.inf, bound: float = math.inf) -> float:
    """What a unit still needs after ``age`` seconds when it is one of several kinds
    ``(weight, mean, spread)`` (ordinary units, slow ones) whose durations D are log-normal
    with these means and log standard deviations, cut off at ``mean · e^(TAIL_SIGMAS·spread)``
    (a compile unit does not run for ever): E[D − age | age < D < cut-off].

    Young, about ``mean − age``; late, the longer a unit runs the likelier it is a slow one;
    near its kind's cut-off, the rest shrinks towards a floor of ``REST_FLOOR · spread · age``,
    so an overdue unit counts down instead of pushing the estimate up."""
    if age <= 0:
        weight = sum(w for w, m, _ in parts if m > 0)
        return sum(w * m for w, m, _ in parts if m > 0) / weight if weight > 0 else 0.0
    weight = total = 0.0
    for share, mean, spread in parts:
        if share <= 0 or mean <= 0:
            continue
        sigma = max(spread, 1e-3)
        median = mean * math.exp(-sigma * sigma / 2)
        z = (math.log(age) - math.log(median)) / sigma
        cut = TAIL_SIGMAS + sigma  # the cut-off mean·e^(TAIL_SIGMAS·σ), in z units
        if mean < cap:  # a kind of units faster than ``cap``: none runs past it
            cut = min(cut, (math.log(cap) - math.log(median)) / sigma)
        if bound < math.inf:  # no unit of any kind runs past ``bound``
            cut = min(cut, (math.log(bound) - math.log(median)) / sigma)
        if z >= cut:
            continue
        # P(age < D < cut-off) and E[D; age < D < cut-off]
        weight += share * 0.5 * (math.erfc(z / math.sqrt(2)) - math.erfc(cut / math.sqrt(2)))
        total += share * mean * 0.5 * (math.erfc((z - sigma) / math.sqrt(2))
                                       - math.erfc((cut - sigma) / math.sqrt(2)))
    floor = REST_FLOOR * max((s for w, m, s in parts if w > 0 and m > 0), default=0.5) * age
    if weight < 1e-12:
        return floor
    return max(floor, total / weight - age)


def _slow_by_age(ordinary: tuple[float, float, float], figures: Sequence[float],
                 durations: Sequence[float], ages: Sequence[float],
                 slow_spread: float) -> tuple[list[float], list[float]]:
    """The rests of the units in flight when the build has one slow unit of each of
    ``figures`` (longest first): those not finished (a finished unit of at least 0.7 times a
    figure was that one, the longest first) go to the oldest units in flight, the longest to
    the oldest; every other unit is an ordinary one. Also the slow units not started yet."""
    left = sorted(figures, reverse=True)
    for d in sorted(durations, reverse=True):
        match = next((f for f in left if d >= 0.7 * f), None)
        if match is not None:
            left.remove(match)
    _share, mean, spread = ordinary
    rests = [_rest(mean, a, spread) for a in ages]
    oldest_first = sorted(range(len(ages)), key=lambda i: -ages[i])
    for figure, i in zip(left, oldest_first, strict=False):
        rests[i] = max(rests[i], _rest(figure, ages[i], slow_spread))
    return rests, left[len(ages):]


def _slow_pace(durations: Sequence[float], ages: Sequence[float], mean: float,
               longest: float) -> tuple[float, float]:
    """How long this build's units take against a recipe whose units take ``mean`` seconds
    on average, a share ``SLOW_SHARE`` of them ``longest``: the posterior mean of the pace (of
    its logarithm, which the recipe leaves as uncertain as ``SPREAD_PRIOR``), given the
    finished units' times (ordinary units varying by ``SPREAD_UNIT``, slow ones by
    ``SPREAD_SLOWEST``) and the units in flight (each an ordinary unit that has not ended yet,
    or a slow one). The units that end first are the short ones: a build as fast as the recipe
    shows a pace of about 1, not its short units' mean against every unit's (FlashMLA on the
    H100 it was calibrated on: 0.9-1.1; on an H200: 0.8). Also the standard deviation of the
    pace's logarithm."""
    ordinary = (mean - SLOW_SHARE * longest) / (1 - SLOW_SHARE)
    if ordinary <= 0 or longest <= 0:
        return 1.0, 0.0
    kinds = ((1 - SLOW_SHARE, ordinary, SPREAD_UNIT), (SLOW_SHARE, longest, SPREAD_SLOWEST))
    steps = 60
    lo, hi = math.log(1 / 3), math.log(3.0)
    logs, weights = [], []
    for k in range(steps + 1):
        g = lo + (hi - lo) * k / steps
        scale = math.exp(g)
        total = -0.5 * (g / SPREAD_PRIOR) ** 2
        for d in durations:
            total += math.log(sum(w * _lognormal_pdf(max(d, 0.5), m * scale, s)
                                  for w, m, s in kinds) + 1e-300)
        for a in ages:
            # a slow unit in flight says nothing of the pace until it ends (how long the
            # slowest units take shows in their end: four at 115 s of the recipe's 128 s are
            # no sign of a slow machine)
            total += math.log((1 - SLOW_SHARE) * _lognormal_survival(a, ordinary * scale,
                                                                     SPREAD_UNIT)
                              + SLOW_SHARE)
        logs.append(g)
        weights.append(total)
    top = max(weights)
    weights = [math.exp(w - top) for w in weights]
    norm = sum(weights)
    centre = sum(w * g for w, g in zip(weights, logs, strict=True)) / norm
    sd = math.sqrt(sum(w * (g - centre) ** 2 for w, g in zip(weights, logs, strict=True)) / norm)
    return math.exp(centre), sd


def _lognormal_pdf(x: float, mean: float, spread: float) -> float:
    """The density at ``x`` of a log-normal time of this mean and log standard deviation."""
    median = mean * math.exp(-spread * spread / 2)
    z = (math.log(x) - math.log(median)) / spread
    return math.exp(-0.5 * z * z) / (x * spread * math.sqrt(2 * math.pi))


def _lognormal_survival(x: float, mean: float, spread: float) -> float:
    """P(D > x) for such a time D."""
    if x <= 0:
        return 1.0
    median = mean * math.exp(-spread * spread / 2)
    return 0.5 * math.erfc((math.log(x) - math.log(median)) / (spread * math.sqrt(2)))


def _slow_posterior(parts: Sequence[tuple[float, float, float]], age: float) -> float:
    """How likely a unit of the kinds ``(weight, mean, spread)`` (ordinary units first, then
    slow ones, log-normal) that has run ``age`` seconds is of the last, slow kind."""
    if age <= 0:
        return parts[-1][0]
    survive = []
    for share, mean, spread in parts:
        if share <= 0 or mean <= 0:
            survive.append(0.0)
            continue
        sigma = max(spread, 1e-3)
        z = (math.log(age) - math.log(mean) + sigma * sigma / 2) / sigma
        survive.append(share * 0.5 * math.erfc(z / math.sqrt(2)))
    total = sum(survive)
    return survive[-1] / total if total > 0 else 1.0


def _rest_sd(parts: Sequence[tuple[float, float, float]], age: float) -> float:
    """The standard deviation of what a unit of :func:`_rest_mixed` still needs after
    ``age`` seconds (0 where nothing of the kinds is left past ``age``)."""
    weight = first = second = 0.0
    for share, mean, spread in parts:
        if share <= 0 or mean <= 0 or spread <= 0:
            continue
        sigma = spread
        median = mean * math.exp(-sigma * sigma / 2)
        z = (math.log(max(age, 1e-9)) - math.log(median)) / sigma
        cut = TAIL_SIGMAS + sigma
        if z >= cut:
            continue

        def part(k: float, z: float = z, cut: float = cut, sigma: float = sigma) -> float:
            return 0.5 * (math.erfc((z - k * sigma) / math.sqrt(2))
                          - math.erfc((cut - k * sigma) / math.sqrt(2)))
        weight += share * part(0)
        first += share * mean * part(1)
        second += share * mean * mean * math.exp(sigma * sigma) * part(2)
    if weight < 1e-12:
        return 0.0
    return math.sqrt(max(0.0, second / weight - (first / weight) ** 2))


def _rest(expected: float, age: float, spread: float) -> float:
    """:func:`_rest_mixed` for a unit of one kind."""
    if expected <= 0:
        return 0.0
    return _rest_mixed([(1.0, expected, spread)], age)


def _unit_mean(durations: Sequence[float], ages: Sequence[float], prior: float,
               weight: float, spread: float = SPREAD_UNIT) -> float:
    """The expected time of a unit not yet started: the finished units' times and those in
    flight (each at least its age, plus its expected rest), blended with the prior."""
    mu = prior if prior > 0 else (max(durations) if durations else max(ages, default=1.0))
    if not durations:
        return mu
    count = len(durations) + len(ages)
    finished = sum(durations)
    for _ in range(30):  # a contraction (in-flight units weigh less than one): converges
        observed = finished + sum(a + _rest(mu, a, spread) for a in ages)
        new = (weight * prior + observed) / (weight + count)
        if abs(new - mu) < 1e-3:
            return new
        mu = new
    return mu


def _measured_spread(durations: Sequence[float]) -> float:
    """How much this build's finished units differ from one another: the standard deviation
    of the logarithm of their times, from the median absolute deviation (so one short host
    unit among long kernels, FlashAttention 3's 18 s API unit among 70-170 s kernels, does not
    widen it); 0 before two have ended."""
    logs = sorted(math.log(max(d, 1e-3)) for d in durations)
    if len(logs) < 2:
        return 0.0
    middle = len(logs) // 2
    median = logs[middle] if len(logs) % 2 else (logs[middle - 1] + logs[middle]) / 2
    deviations = sorted(abs(x - median) for x in logs)
    return 1.4826 * deviations[len(deviations) // 2]


def _multiset_minus(items: Sequence[float], remove: Sequence[float]) -> list[float]:
    """``items`` without one nearest element for each of ``remove`` (both sorted)."""
    left = sorted(items)
    for value in sorted(remove):
        if not left:
            break
        # the nearest remaining element
        best = min(range(len(left)), key=lambda i: abs(left[i] - value))
        left.pop(best)
    return left


def slowest(units: Sequence[UnitTime], count: int = 3) -> list[UnitTime]:
    """The ``count`` slowest units, slowest first."""
    return sorted(units, key=lambda u: u.seconds, reverse=True)[:count]


__all__ = [
    "CpuTrack", "Eta", "EtaEstimator", "NinjaLogReader", "Phase", "Prior", "PriorSource", "RunPlan",
    "UnitTime", "count_ninja_units", "expected_end", "find_ninja_dir", "find_ninja_dirs",
    "history_compile_seconds", "output_of_command", "parse_ninja_log", "plan_run", "schedule",
    "slowest", "unit_name",
]
