"""How true the build ETA is: real recorded builds replayed with their timestamps (goal: within
±25 % of the time really left, or within 15 s in the last seconds, from 25 % of the units on
and at every moment from 25 % of the elapsed time to the end).

    python benchmarks/eta_accuracy.py [--data tests/data/buildtimes] [--poll 1.0] [-v]
    python benchmarks/eta_accuracy.py --recording OUT/NAME [--kernel ID --version LABEL
                                      --archs 9.0 --cores N --ram-gb G --jobs J]
    python benchmarks/eta_accuracy.py --trace NAME   # the estimate along one build
    python benchmarks/eta_accuracy.py --synthetic    # made-up builds of known shapes

Each recording (``tests/data/buildtimes/index.toml``) is a real build's output with every
line's arrival time (``NAME.tlog``) and ninja's own ``NAME.ninja_log`` (a build of several
torch extensions: every extension's log, in the order they were built, each with its own
``# ninja log`` header). The replay feeds :class:`kernel_wizard.build.eta.EtaEstimator` exactly what
the build runner feeds it live: the ``[n/N]`` lines when they arrived, each ninja run's start
and unit count when its ``build.ninja`` appears (seen at the runner's next poll), and the
``.ninja_log`` entries of finished units. It compares the estimated time left with the time
the build really took to finish (its wheel written):

    error = (estimated − actual) / actual

Two measures:

* **units**: at the moment 10/25/50/75 % of the units have finished (builds of at least 4
  units);
* **elapsed time**: at 100 evenly spaced moments from 25 % of the build's elapsed time to its
  end (every build, one unit or 73): the share of those moments within the goal, and the worst
  error among the moments the 15 s allowance does not cover. The columns "10/25/50/75 % time"
  show the error at those shares of the time.

Two priors per indexed recording: **cold**, the recipe's calibrated cost model (a first
build), and **warm**, the user's own earlier build of the same configuration (``history`` in
the index: another recording, never the same one).

**The CPU signal**: a recording made since issue 29 item 4 holds the CPU seconds the build's
process tree had received, every second (``[cpu X]`` lines in the tlog); the replay feeds them
to the estimate as the runner does (:meth:`EtaEstimator.cpu_sample`), and replays such a
recording without them too ("cold, units only", "warm, units only": the unit-based model
alone, not counted in the goals). A recording without them is replayed with the unit-based
model alone (its "CPU signal" column: "no CPU signal recorded").

**Held out**: after the index, the recordings of ``HELD_OUT`` (never calibrated on: the
SageAttention builds on the H200 machines, the probe builds made on the 2-core box after the
CPU model was frozen) are scored apart, cold, and warm where their ``.toml`` names a history.

``--synthetic`` scores builds made up from units of known shapes (``SHAPES``: units that
differ by 15, 30 or 50 %, two kinds, many short and a few long, units that grow longer through
the build, a prior 1.5 times too slow or 0.7 times too fast), each with several seeds, the
recipe's mean unit right unless said; and builds of several extensions the prior plans run by
run (``RUN_SHAPES``: four ninja runs of 2, 8, 2 and 2 units, as planned, slower or faster than
planned, each extension at a pace of its own); and first builds whose CPU is sampled
(``CPU_SHAPES``: one unit or 20, on an idle machine, where the samples must change nothing,
or with each compiler getting a share of a core, once with the load easing off mid-build); and
FlashMLA's recorded H100 build with every unit 0.8, 1.25 or 1.4 times as long (``PACED``: a
machine faster or slower than the one the recipe's slowest unit was measured on): a
check against fitting the estimator to the dozen real recordings (it calibrates nothing
either).

``--recording OUT/NAME`` scores one recording that is not in the index (``OUT/NAME.tlog`` and
``OUT/NAME.ninja_log`` from ``benchmarks/record_build.py``), cold only: a fresh build that
must not calibrate anything. What the wizard's plan saw (kernel, version, archs, cores, RAM,
jobs) is read from ``OUT/NAME.toml`` when there is one, else from the wizard's own output in
the recording (``build --verbose`` prints its plan); the options override both.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kernel_wizard.build.buildtimes import BuildRecord, Machine, make_record, prior_from_record  # noqa: E402
from kernel_wizard.build.eta import (  # noqa: E402
    CpuTrack,
    EtaEstimator,
    Prior,
    UnitTime,
    parse_ninja_log,
    plan_run,
)
from kernel_wizard.build.plan import estimate_build  # noqa: E402
from kernel_wizard.catalog import OsName, load_catalog  # noqa: E402

DATA = REPO / "tests" / "data" / "buildtimes"
CHECKPOINTS = (10, 25, 50, 75)
GOAL = 0.25  # ±25 % from 25 % of the units (and of the elapsed time) on
# ... or this many seconds, where so little is left that a quarter of it is a second or two
# (a 6-unit build's last unit: 7 s left); the table shows the relative error all the same
LAST_SECONDS = 15.0
MIN_UNITS = 4  # fewer: "x % of the units" is one unit ending near the end; time checkpoints only
GRID = 100  # moments from 25 % of the elapsed time to the end
GRID_FROM = 25
GIB_GB = 1.073741824  # GiB → GB
_NINJA = re.compile(r"^\s*\[(\d+)/(\d+)\]")
_START = re.compile(r"^• compile")  # the wizard's step line: its build starts here
_END = re.compile(r"Created wheel for |^\s*creating '.*\.whl'")
# the recorder's own lines: the load average every 5 s, the build's CPU seconds every second
_LOAD = re.compile(r"^\[load [\d.]+\]$")
_CPU = re.compile(r"^\[cpu ([\d.]+)\]$")


@dataclass(frozen=True)
class Recording:
    name: str
    kernel: str
    version: str
    archs: tuple[str, ...]
    cores: int
    ram_gb: float
    os: str
    jobs: int
    machine: str
    command: str
    history: str | None = None
    cpu_only: bool = False
    variant: str | None = None


@dataclass
class Build:
    """A recording parsed: the build's window, its unit lines and ninja's units, per ninja run
    (one per torch extension that setup.py builds)."""

    recording: Recording
    start: float  # the build (pip) started, seconds in the tlog
    end: float  # its wheel was written
    lines: list[tuple[float, str]]
    unit_lines: list[tuple[float, int, int, str]]  # (time, n, N, line), every run's
    runs: list[list[UnitTime]]  # ninja's log of each run, finish order ([] where not kept)
    run_starts: list[float]  # when each run's ninja started, in the tlog's clock
    run_totals: list[int]  # each run's N
    # for each unit line: when the next line of other output came, if it was the run's last
    # ([N/N]: the runner counts that unit once something other than "FAILED:" follows)
    confirms: list[float] = field(default_factory=list)
    # the CPU seconds the build's process tree had received, sampled about once a second by
    # the recorder ("[cpu X]" lines): (time in the tlog, seconds); [] where none were recorded
    cpu: list[tuple[float, float]] = field(default_factory=list)

    @property
    def units(self) -> list[UnitTime]:
        return [u for run in self.runs for u in run]

    @property
    def ninja_start(self) -> float:
        return self.run_starts[0] if self.run_starts else self.start

    @property
    def total(self) -> int:
        return sum(self.run_totals) if self.run_totals else len(self.units)

    def compile_cpu_seconds(self) -> float:
        """The CPU seconds the compile received (ninja's start to its last unit's end), as
        the runner stores it in the build-time record; 0 without samples."""
        track = CpuTrack()
        for at, used in self.cpu:
            track.add(at, used)
        ends = [begun + max(u.end for u in run) for begun, run
                in zip(self.run_starts, self.runs, strict=True) if run]
        last = max(ends) if ends else self.end
        return track.received(self.ninja_start, last) or 0.0 if self.cpu else 0.0

    def record(self) -> BuildRecord:
        """What the runner would have stored after this build."""
        rec = self.recording
        return make_record(kernel=rec.kernel, version=rec.version, archs=rec.archs,
                           jobs=rec.jobs, nvcc_threads=1, total_seconds=self.end - self.start,
                           ninja_started=self.ninja_start - self.start, units=self.units,
                           machine=Machine("replay", rec.machine),
                           runs=[(begun - self.start, run) for begun, run
                                 in zip(self.run_starts, self.runs, strict=True)],
                           compile_cpu_seconds=self.compile_cpu_seconds())


def _recording(r: dict[str, object], name: str | None = None) -> Recording:
    archs = r.get("archs", ())
    assert isinstance(archs, (list, tuple))
    history = r.get("history")
    variant = r.get("variant")
    return Recording(
        name=str(name or r["name"]), kernel=str(r["kernel"]), version=str(r["version"]),
        archs=tuple(str(a) for a in archs), cores=int(str(r["cores"])),
        ram_gb=float(str(r["ram_gb"])), os=str(r.get("os", "linux")), jobs=int(str(r["jobs"])),
        machine=str(r.get("machine", "")), command=str(r.get("command", "")),
        history=str(history) if history else None, cpu_only=bool(r.get("cpu_only", False)),
        variant=str(variant) if variant else None)


def load_index(data: Path = DATA) -> list[Recording]:
    index = tomllib.loads((data / "index.toml").read_text(encoding="utf-8"))
    return [_recording(r) for r in index["recording"]]


def _split_runs(unit_lines: list[tuple[float, int, int, str]]) -> list[int]:
    """Where each ninja run's lines begin: a ``[1/N]`` after ``[N/N]`` (or another N) is the
    next extension's run."""
    starts: list[int] = []
    last_n, last_total = 0, 0
    for i, (_t, n, total, _text) in enumerate(unit_lines):
        if not starts or total != last_total or n <= last_n:
            starts.append(i)
        last_n, last_total = n, total
    return starts


def read_tlog(path: Path, cpu: list[tuple[float, float]] | None = None
              ) -> list[tuple[float, str]]:
    """The build's output lines with their times; the recorder's own lines (load average,
    CPU seconds) are not the build's output: left out, the CPU samples into ``cpu``."""
    lines: list[tuple[float, str]] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        stamp, _, text = raw.partition("\t")
        try:
            at = float(stamp)
        except ValueError:
            continue
        if (m := _CPU.match(text)) is not None:
            if cpu is not None:
                cpu.append((at, float(m.group(1))))
            continue
        if _LOAD.match(text):
            continue
        lines.append((at, text))
    return lines


def load_build(rec: Recording, data: Path = DATA, prefix: Path | None = None) -> Build:
    """``prefix``: the recording's files without their suffix (default: ``data/NAME``)."""
    base = prefix if prefix is not None else data / rec.name
    cpu: list[tuple[float, float]] = []
    lines = read_tlog(base.with_name(base.name + ".tlog"), cpu)
    start = next((t for t, text in lines if _START.match(text)), 0.0)
    end = next((t for t, text in lines if _END.search(text)), lines[-1][0])
    unit_lines = [(t, int(m.group(1)), int(m.group(2)), text) for t, text in lines
                  if (m := _NINJA.match(text)) and start <= t <= end]
    log = base.with_name(base.name + ".ninja_log")
    log_runs = parse_ninja_log(log.read_text(encoding="utf-8")) if log.exists() else []
    firsts = _split_runs(unit_lines)
    bounds = list(zip(firsts, firsts[1:] + [len(unit_lines)], strict=True))
    # ninja's logs belong to the last runs when fewer were kept (an older recorder copied the
    # newest .ninja_log only)
    skip = max(0, len(bounds) - len(log_runs))
    runs: list[list[UnitTime]] = []
    run_starts: list[float] = []
    run_totals: list[int] = []
    for k, (a, b) in enumerate(bounds):
        run = log_runs[k - skip] if k >= skip and k - skip < len(log_runs) else []
        ends = sorted(u.end for u in run)
        offsets = sorted(t - e for (t, *_), e in zip(unit_lines[a:b], ends, strict=False))
        if offsets:
            begun = offsets[len(offsets) // 2]
        else:  # no log: ninja started after the run before it ended
            begun = unit_lines[a - 1][0] if a else start
        runs.append(run)
        run_starts.append(begun)
        run_totals.append(unit_lines[a][2])
    if not bounds and log_runs:  # a recording without [n/N] lines
        for run in log_runs:
            runs.append(run)
            run_starts.append(start)
            run_totals.append(len(run))
    return Build(rec, start, end, lines, unit_lines, runs, run_starts, run_totals,
                 _confirms(lines, unit_lines), cpu)


def _confirms(lines: Sequence[tuple[float, str]],
              unit_lines: Sequence[tuple[float, int, int, str]]) -> list[float]:
    """For each unit line that is its run's last, when the next other line (not ``[n/N]``,
    not ``FAILED:``) came; infinity for the others."""
    out = []
    k = 0
    for t, n, total, text in unit_lines:
        while k < len(lines) and (lines[k][0] < t or lines[k][1] != text):
            k += 1
        later = (lt for lt, lx in lines[k + 1:] if not _NINJA.match(lx)
                 and not lx.lstrip().startswith("FAILED:"))
        out.append(next(later, math.inf) if n >= total else math.inf)
    return out


def synthesize(rec: Recording, runs: Sequence[Sequence[tuple[str, float]]], setup: float,
               tail: float, gap: float = 0.5,
               cpu: Callable[[float], float] | None = None) -> Build:
    """A build of several ninja runs made up from its units' times (``runs``: each run's
    units, name and seconds, in the order ninja starts them), scheduled onto ``rec.jobs``
    slots as ninja does: for the shapes no recording has (SageAttention for an RTX 3090: 2
    runs, 4 units; a machine slower than the recipe's). ``cpu``: the share of a core each
    process of the build gets at a time (1: an idle machine), for CPU samples every second
    (every unit in flight one process, and one more for pip and setup.py outside the
    compile); None: no samples."""
    lines: list[tuple[float, str]] = [(0.0, "• compile…")]
    unit_lines: list[tuple[float, int, int, str]] = []
    logs: list[list[UnitTime]] = []
    starts: list[float] = []
    at = setup
    for run in runs:
        starts.append(at)
        free = [0.0] * max(1, min(rec.jobs, len(run)))
        done: list[UnitTime] = []
        for name, seconds in run:
            begun = min(free)
            free[free.index(begun)] = begun + seconds
            done.append(UnitTime(name, begun, begun + seconds))
        done.sort(key=lambda u: u.end)
        for n, unit in enumerate(done, 1):
            text = f"  [{n}/{len(run)}] nvcc -c x.cu -o /s/build/temp.x/{unit.name}"
            unit_lines.append((at + unit.end, n, len(run), text))
            lines.append((at + unit.end, text))
        logs.append(done)
        lines.append((at + max(u.end for u in done) + 0.05, "  g++ -shared ... -o x.so"))
        at += max(u.end for u in done) + gap
    end = at - gap + tail
    lines.append((end, "  Created wheel for synthetic"))
    lines.sort(key=lambda line: line[0])
    samples: list[tuple[float, float]] = []
    if cpu is not None:
        spans = [(begun + u.start, begun + u.end) for begun, run in zip(starts, logs, strict=True)
                 for u in run]
        used, t, step = 0.0, 0.0, 0.1
        while t <= end:
            if abs(t - round(t)) < step / 2:
                samples.append((round(t), used))
            busy = sum(a <= t < b for a, b in spans)
            used += cpu(t) * max(1, busy) * step
            t += step
    return Build(rec, 0.0, end, lines, unit_lines, logs, starts, [len(r) for r in runs],
                 _confirms(lines, unit_lines), samples)


def cold_prior(rec: Recording) -> Prior:
    recipe = load_catalog().get(rec.kernel)
    version = recipe.version(rec.version)
    variant = recipe.variant(rec.variant) if rec.variant else None
    estimate = estimate_build(recipe, version, list(rec.archs), rec.cores, rec.ram_gb,
                              OsName(rec.os), cpu_only=rec.cpu_only, variant=variant)
    return estimate.prior()


def warm_prior(history: Build, jobs: int) -> Prior:
    return prior_from_record(history.record(), jobs)


@dataclass
class Result:
    name: str
    scenario: str
    total: int
    actual: float  # seconds the build took
    predicted: float | None  # the prior's total
    units: dict[int, float | None] = field(default_factory=dict)  # checkpoint → error
    times: dict[int, float | None] = field(default_factory=dict)
    # checkpoint → |said − real| in seconds at the units checkpoints
    units_off: dict[int, float] = field(default_factory=dict)
    # the elapsed-time measure: (share of the build's time, error, |said − real|) at each
    # moment from 25 % of the time on (error None: no estimate)
    grid: list[tuple[float, float | None, float]] = field(default_factory=list)
    cpu: bool = False  # the recording holds the CPU samples the estimate can use

    @property
    def grid_inside(self) -> int:
        return sum(within_goal(e, off) for _, e, off in self.grid)

    @property
    def grid_worst(self) -> tuple[float, float] | None:
        """The worst |error| the 15 s allowance does not cover, with its share of the time;
        None: every moment was within 15 s."""
        counted = [(math.inf if e is None else abs(e), at) for at, e, off in self.grid
                   if e is None or off > LAST_SECONDS]
        return max(counted) if counted else None


def within_goal(error: float | None, off: float) -> bool:
    return error is not None and (abs(error) <= GOAL or off <= LAST_SECONDS)


def replay(build: Build, prior: Prior | None, poll: float = 1.0,
           jobs: int | None = None) -> EtaEstimator:
    """An estimator fed with the whole build (for tests that look at it afterwards)."""
    est = EtaEstimator(prior, jobs or build.recording.jobs)
    _feed(build, est, build.end + 1.0, poll)
    return est


def _log_events(build: Build) -> list[tuple[float, UnitTime]]:
    """Every finished unit with when it ended in the tlog's clock, run by run."""
    return [(begun + u.end, u) for begun, run in zip(build.run_starts, build.runs, strict=True)
            for u in run]


def _feed(build: Build, est: EtaEstimator, until: float, poll: float,
          state: dict[str, float] | None = None, log: bool = True) -> None:
    """Feed every event up to ``until`` (a resumable replay: ``state`` keeps the position);
    ``log``: whether the runner can read ninja's build folders (build.ninja, .ninja_log)."""
    st = state if state is not None else {}
    if "started" not in st:
        est.start(build.start)
        st.update(started=1.0, tick=build.start, line=0.0, unit=0.0, run=0.0)
    events = _log_events(build)
    st.setdefault("confirm", math.inf)
    while True:
        tick = st["tick"]
        i = int(st["line"])
        next_line = build.unit_lines[i][0] if i < len(build.unit_lines) else math.inf
        at = min(tick, next_line, st["confirm"])
        if at > until:
            _cpu_until(build, est, until, st)
            return
        _cpu_until(build, est, at, st)
        if st["confirm"] <= min(tick, next_line):  # output after [N/N]: that unit compiled
            est.confirm_last()
            st["confirm"] = math.inf
        elif next_line <= tick:
            t, n, n_total, text = build.unit_lines[i]
            est.unit_line(t, n, n_total, text)
            st["line"] = i + 1
            if i < len(build.confirms):
                st["confirm"] = build.confirms[i]
            if log:
                _log_until(events, est, t + 0.05, st)
        else:
            if log:
                # a build.ninja written since the last look: that run's ninja started
                r = int(st["run"])
                while r < len(build.run_starts) and tick >= build.run_starts[r]:
                    # the poller sees the newest build.ninja; one written and done between
                    # two looks is seen all the same (each extension has its own folder)
                    _log_until(events, est, tick, st)
                    est.ninja_start(tick, build.run_totals[r], seq=r + 1)
                    r += 1
                st["run"] = float(r)
                _log_until(events, est, tick, st)
            st["tick"] = tick + poll


def _cpu_until(build: Build, est: EtaEstimator, now: float, st: dict[str, float]) -> None:
    """The CPU samples taken up to ``now`` (the runner samples at its looks, about once a
    second, as the recorder did)."""
    k = int(st.get("cpu", 0.0))
    while k < len(build.cpu) and build.cpu[k][0] <= now:
        est.cpu_sample(*build.cpu[k])
        k += 1
    st["cpu"] = float(k)


def _log_until(events: list[tuple[float, UnitTime]], est: EtaEstimator, now: float,
               st: dict[str, float]) -> None:
    k = int(st["unit"])
    new = []
    while k < len(events) and events[k][0] <= now:
        new.append(events[k][1])
        k += 1
    st["unit"] = k
    if new:
        est.log_units(new, now)


def evaluate(build: Build, prior: Prior | None, scenario: str, poll: float = 1.0,
             log: bool = True) -> Result:
    rec = build.recording
    actual = build.end - build.start
    result = Result(rec.name, scenario, build.total, actual,
                    prior.total_seconds if prior is not None else None, cpu=bool(build.cpu))
    total = build.total
    moments: list[tuple[str, float, float]] = []
    for pct in CHECKPOINTS:
        k = max(1, math.ceil(pct * total / 100)) if total else 0
        if total >= MIN_UNITS and k < total and k <= len(build.unit_lines):
            moments.append(("units", pct, build.unit_lines[k - 1][0] + 1e-6))
        else:
            result.units[pct] = None
        moments.append(("times", pct, build.start + actual * pct / 100))
    for i in range(GRID):
        share = GRID_FROM + (100 - GRID_FROM) * i / GRID
        moments.append(("grid", share, build.start + actual * share / 100))
    est = EtaEstimator(prior, rec.jobs)
    state: dict[str, float] = {}
    for kind, pct, at in sorted(moments, key=lambda m: m[2]):
        _feed(build, est, at, poll, state, log)
        eta = est.estimate(at)
        truth = build.end - at
        error = None if eta.remaining is None or truth <= 0 else \
            (eta.remaining - truth) / truth
        off = math.inf if eta.remaining is None else abs(eta.remaining - truth)
        if kind == "grid":
            result.grid.append((pct, error, off))
            continue
        getattr(result, kind)[int(pct)] = error
        if kind == "units" and eta.remaining is not None:
            result.units_off[int(pct)] = off
    return result


def boundary_rises(build: Build, prior: Prior | None, poll: float = 1.0,
                   log: bool = True, window: float = 5.0) -> list[float]:
    """How far the time left rises (beyond the time that passed) when each later ninja run
    (the next extension) starts: the largest rise from one look to the next, the runner
    looking every ``poll`` seconds, from the previous run's last unit's end to ``window``
    seconds after the next run's ninja started (a unit that ends later than planned before
    or after that is news, not the start)."""
    est = EtaEstimator(prior, build.recording.jobs)
    state: dict[str, float] = {}
    firsts = _split_runs(build.unit_lines)
    windows = [(build.unit_lines[i - 1][0], begun + window)
               for i, begun in zip(firsts[1:], build.run_starts[1:], strict=False)]
    rises = [0.0] * len(windows)
    at, before = build.start, None
    while at < build.end:
        _feed(build, est, at, poll, state, log)
        left = est.estimate(at).remaining
        for k, (a, b) in enumerate(windows):
            if a <= at <= b and before is not None and left is not None:
                rises[k] = max(rises[k], left - (before - poll))
        before = left
        at += poll
    return rises


def trace(build: Build, prior: Prior | None, steps: int = 20, poll: float = 1.0) -> str:
    """The estimate against the truth along the build, in seconds (``--trace NAME``)."""
    est = EtaEstimator(prior, build.recording.jobs)
    state: dict[str, float] = {}
    rows = [f"{build.recording.name}: {build.end - build.start:.0f} s, ninja runs started at "
            + ", ".join(f"{s - build.start:.1f}" for s in build.run_starts)
            + f" s, prior {prior}"]
    for i in range(1, steps):
        at = build.start + (build.end - build.start) * i / steps
        _feed(build, est, at, poll, state)
        eta = est.estimate(at)
        said = "—" if eta.remaining is None else f"{eta.remaining:6.1f}"
        rows.append(f"  {at - build.start:6.1f} s  {eta.phase.value:8} run {eta.run} "
                    f"{eta.done:>3}/{eta.total:<3} left: said {said}, really "
                    f"{build.end - at:6.1f}")
    return "\n".join(rows)


def run(data: Path = DATA, poll: float = 1.0, lines_only: bool = False) -> list[Result]:
    """Every recording, cold and warm; ``lines_only``: also cold without ninja's build folder
    (only the [n/N] lines: how much the .ninja_log is worth)."""
    recordings = load_index(data)
    builds = {r.name: load_build(r, data) for r in recordings}
    results = []
    for rec in recordings:
        build = builds[rec.name]
        results.append(evaluate(build, cold_prior(rec), "cold", poll))
        if lines_only:
            results.append(evaluate(build, cold_prior(rec), "cold, lines only", poll,
                                    log=False))
        if rec.history and rec.history in builds:
            results.append(evaluate(build, warm_prior(builds[rec.history], rec.jobs), "warm",
                                    poll))
        results += units_only(build, cold_prior(rec), warm_prior(builds[rec.history], rec.jobs)
                              if rec.history and rec.history in builds else None, poll)
    return results


def units_only(build: Build, cold: Prior, warm: Prior | None, poll: float = 1.0
               ) -> list[Result]:
    """A recording with CPU samples replayed without them too (the unit-based model alone,
    as before the CPU signal; not counted in the goals): what the CPU signal changes."""
    if not build.cpu:
        return []
    blind = replace(build, cpu=[])
    out = [evaluate(blind, cold, "cold, units only", poll)]
    if warm is not None:
        out.append(evaluate(blind, warm, "warm, units only", poll))
    return out


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:+.0%}"


def _worst(result: Result) -> str:
    worst = result.grid_worst
    if worst is None:
        return "—"
    error, at = worst
    return "no estimate" if math.isinf(error) else f"{error:.0%} at {at:.0f} %"


def table(results: Sequence[Result]) -> str:
    head = ("| recording | prior | units | took | prior said | "
            + " | ".join(f"{p} % units" for p in CHECKPOINTS) + " | "
            + " | ".join(f"{p} % time" for p in CHECKPOINTS)
            + " | time ≥25 % within | worst | CPU signal |")
    rows = [head, "|" + "---|" * (8 + 2 * len(CHECKPOINTS))]
    for r in results:
        said = "—" if r.predicted is None else f"{r.predicted:.0f} s"
        rows.append(f"| {r.name} | {r.scenario} | {r.total} | {r.actual:.0f} s | {said} | "
                    + " | ".join(_pct(r.units[p]) for p in CHECKPOINTS) + " | "
                    + " | ".join(_pct(r.times[p]) for p in CHECKPOINTS)
                    + f" | {r.grid_inside}/{len(r.grid)} | {_worst(r)} | "
                    + ("recorded" if r.cpu else "recorded, left out" if "units only" in r.scenario
                       else "no CPU signal recorded (units only)") + " |")
    return "\n".join(rows)


def units_goal(result: Result) -> bool:
    """Within the goal at 25/50/75 % of the units (a build of at least 4 units)."""
    checked = [(abs(e), result.units_off.get(p, math.inf)) for p in CHECKPOINTS[1:]
               if (e := result.units.get(p)) is not None]
    return all(e <= GOAL or off <= LAST_SECONDS for e, off in checked)


def elapsed_goal(result: Result) -> bool:
    """Within the goal at every moment from 25 % of the elapsed time to the end."""
    return bool(result.grid) and result.grid_inside == len(result.grid)


def summary(results: Sequence[Result]) -> tuple[str, bool]:
    """Both goals over the cold and warm replays (not the lines-only ones: extra): over the
    units and over the elapsed time."""
    results = [r for r in results if r.scenario in ("cold", "warm")]
    lines = []
    units_ok = True
    for pct in CHECKPOINTS:
        checked = [(abs(e), r.units_off.get(pct, math.inf)) for r in results
                   if (e := r.units.get(pct)) is not None]
        if not checked:
            continue
        errors = [e for e, _ in checked]
        inside = sum(e <= GOAL or off <= LAST_SECONDS for e, off in checked)
        worst = max(errors)
        if pct >= 25 and inside < len(checked):
            units_ok = False
        lines.append(f"at {pct:>2} % of units: mean |error| {sum(errors) / len(errors):.0%}, "
                     f"worst {worst:.0%}, within ±{GOAL:.0%} or {LAST_SECONDS:.0f} s: "
                     f"{inside}/{len(errors)}")
    later = [abs(e) for r in results for p in CHECKPOINTS[1:]
             if (e := r.times.get(p)) is not None]
    if later:
        lines.append(f"at 25/50/75 % of the time: worst |error| {max(later):.0%}")
    points = sum(len(r.grid) for r in results)
    inside = sum(r.grid_inside for r in results)
    whole = [r for r in results if r.grid and r.grid_inside == len(r.grid)]
    worsts = [(w[0], r.name, r.scenario, w[1]) for r in results
              if (w := r.grid_worst) is not None]
    elapsed_ok = inside == points
    if points:
        lines.append(f"from {GRID_FROM} % of the elapsed time on: {inside}/{points} moments "
                     f"({inside / points:.0%}) within ±{GOAL:.0%} or {LAST_SECONDS:.0f} s; "
                     f"replays within the goal throughout: {len(whole)}/{len(results)}")
        if worsts:
            error, name, scenario, at = max(worsts)
            worst = "no estimate" if math.isinf(error) else f"{error:.0%}"
            lines.append(f"  worst |error| beyond {LAST_SECONDS:.0f} s: {worst} ({name}, "
                         f"{scenario}, at {at:.0f} % of its time)")
    lines.append(f"goal over units (within ±25 %, or {LAST_SECONDS:.0f} s in the last seconds, "
                 "from 25 % of units on): " + ("met" if units_ok else "NOT met"))
    lines.append(f"goal over elapsed time (the same, at every moment from {GRID_FROM} % of the "
                 "time on): " + ("met" if elapsed_ok else "NOT met"))
    return "\n".join(lines), units_ok and elapsed_ok


# -- builds of known shapes --------------------------------------------------------------------


UnitShape = Callable[[random.Random, int], float]


def _lognormal(spread: float) -> UnitShape:
    return lambda rnd, _i: 240.0 * math.exp(spread * rnd.gauss(0.0, 1.0))


# name: (a unit's seconds from a seeded random source and its index, the prior's mean unit
# against the true mean, units, jobs)
SHAPES: dict[str, tuple[UnitShape, float, int, int]] = {
    "units differ by 15 %": (_lognormal(0.15), 1.0, 64, 16),
    "units differ by 30 %": (_lognormal(0.3), 1.0, 64, 16),
    "units differ by 50 %": (_lognormal(0.5), 1.0, 64, 16),
    "two kinds, 180 s and 300 s": (lambda rnd, _i: (180.0 if rnd.random() < 0.5 else 300.0)
                                   * math.exp(0.05 * rnd.gauss(0.0, 1.0)), 1.0, 64, 16),
    "80 % short, 20 % five times as long": (
        lambda rnd, _i: (60.0 if rnd.random() < 0.8 else 300.0)
        * math.exp(0.1 * rnd.gauss(0.0, 1.0)), 1.0, 64, 16),
    "units grow longer through the build": (
        lambda rnd, i: (100.0 + 3.0 * i) * math.exp(0.1 * rnd.gauss(0.0, 1.0)), 1.0, 64, 16),
    "prior 1.5 times too slow": (_lognormal(0.3), 1.5, 64, 16),
    "prior 0.7 times too fast": (_lognormal(0.3), 0.7, 64, 16),
    "20 units on 8 jobs": (_lognormal(0.3), 1.0, 20, 8),
}
SEEDS = 15


def synthetic(seeds: int = SEEDS) -> list[tuple[str, int, int, int]]:
    """Each shape's builds replayed cold: (shape, moments within the goal, moments, builds
    that miss the units goal)."""
    out = []
    for shape, (unit, scale, count, jobs) in SHAPES.items():
        inside = misses = 0
        for seed in range(seeds):
            rnd = random.Random(seed)
            units = [(f"u{i}.o", unit(rnd, i)) for i in range(count)]
            rec = Recording("synthetic", "synthetic", "-", ("9.0",), jobs, 64.0, "linux", jobs,
                            "", "")
            build = synthesize(rec, [units], setup=10.0, tail=3.0)
            mean = sum(c for _, c in units) / count * scale
            prior = Prior(total_seconds=10.0 + count * mean / jobs + 3.0, jobs=jobs,
                          unit_seconds=mean, units=count, setup_seconds=10.0, tail_seconds=3.0)
            result = evaluate(build, prior, "cold")
            inside += result.grid_inside
            misses += not units_goal(result)
        out.append((shape, inside, seeds * GRID, misses))
    return out


# several extensions, planned run by run (as a recipe's ``[[build.extension]]`` plans them):
# each run's units' planned seconds, in the order ninja starts them
RUN_PLAN: tuple[tuple[float, ...], ...] = (
    (300.0, 40.0), (120.0,) * 7 + (40.0,), (90.0, 40.0), (60.0, 40.0))
# name: (this build's pace against the plan, how much each extension's pace differs from it
# (log standard deviation), how much one unit differs from its planned time at that pace)
RUN_SHAPES: dict[str, tuple[float, float, float]] = {
    "4 extensions, as planned": (1.0, 0.0, 0.1),
    "4 extensions, 1.5 times slower than planned": (1.5, 0.0, 0.1),
    "4 extensions, 2.5 times slower than planned": (2.5, 0.0, 0.1),
    "4 extensions, 0.7 times the plan": (0.7, 0.0, 0.1),
    "4 extensions, each at its own pace": (1.0, 0.3, 0.1),
    "4 extensions, slower, each at its own pace": (1.6, 0.3, 0.1),
}


def synthetic_runs(seeds: int = SEEDS) -> list[tuple[str, int, int, int]]:
    """The builds of several extensions (``RUN_SHAPES``), replayed cold against the plan."""
    jobs = 16
    costs = [[("", c) for c in run] for run in RUN_PLAN]
    runs_plan = tuple(plan_run(run, jobs) for run in costs)
    prior = Prior(total_seconds=10.0 + sum(r.seconds for r in runs_plan) + 3.0, jobs=jobs,
                  unit_seconds=sum(c for run in RUN_PLAN for c in run)
                  / sum(len(run) for run in RUN_PLAN),
                  units=sum(len(run) for run in RUN_PLAN), setup_seconds=10.0, tail_seconds=3.0,
                  longest_unit_seconds=max(max(run) for run in RUN_PLAN), runs=len(RUN_PLAN),
                  run_plan=runs_plan)
    out = []
    for shape, (pace, run_spread, unit_spread) in RUN_SHAPES.items():
        inside = misses = 0
        for seed in range(seeds):
            rnd = random.Random(seed)
            units = []
            for r, run in enumerate(RUN_PLAN):
                own = pace * math.exp(run_spread * rnd.gauss(0.0, 1.0))
                units.append([(f"r{r}u{i}.o", c * own * math.exp(unit_spread
                                                                 * rnd.gauss(0.0, 1.0)))
                              for i, c in enumerate(run)])
            rec = Recording("synthetic", "synthetic", "-", ("9.0",), jobs, 64.0, "linux", jobs,
                            "", "")
            result = evaluate(synthesize(rec, units, setup=10.0, tail=3.0), prior, "cold")
            inside += result.grid_inside
            misses += not units_goal(result)
        out.append((shape, inside, seeds * GRID, misses))
    return out


# builds whose CPU is sampled, on an idle machine or a busy one: a first build (the prior
# without core-seconds). name: (the unit's seconds on an idle machine against the prior's, the
# share of a core each process gets from each time on, units, jobs). The units on a busy
# machine take as much longer as they get less of a core
CPU_SHAPES: dict[str, tuple[float, tuple[tuple[float, float], ...], int, int]] = {
    "one unit, idle machine, CPU sampled": (1.0, ((0.0, 1.0),), 1, 2),
    "one unit, a third of a core": (1.0, ((0.0, 1 / 3),), 1, 2),
    "one unit, a fifth of a core, prior 1.3 times too slow": (1 / 1.3, ((0.0, 0.2),), 1, 2),
    "one unit, a quarter of a core, then the load eases off": (1.0, ((0.0, 0.25), (80.0, 1.0)),
                                                               1, 2),
    "20 units on 8 jobs, idle machine, CPU sampled": (1.0, ((0.0, 1.0),), 20, 8),
    "20 units on 8 jobs, half a core each": (1.0, ((0.0, 0.5),), 20, 8),
}


# a machine faster or slower than the one a recipe was calibrated on: FlashMLA's recorded H100
# build with every unit's time scaled, replayed cold against the recipe (its slowest unit,
# 128 s, measured on that H100)
PACED = (0.8, 1.25, 1.4)


def synthetic_paced() -> list[tuple[str, int, int, int]]:
    """The recipe's own build at another machine's pace, one build each (``PACED``)."""
    rec = {r.name: r for r in load_index()}["flashmla-sm90-h100-pip"]
    units = sorted(load_build(rec).units, key=lambda u: u.start)
    out = []
    for factor in PACED:
        build = synthesize(rec, [[(u.name, factor * u.seconds) for u in units]], setup=12.0,
                           tail=2.5)
        result = evaluate(build, cold_prior(rec), "cold")
        out.append((f"FlashMLA's H100 build, every unit {factor:g} times as long (1 build)",
                    result.grid_inside, len(result.grid), int(not units_goal(result))))
    return out


def _share_at(shares: tuple[tuple[float, float], ...]) -> Callable[[float], float]:
    return lambda t: [s for begun, s in shares if begun <= t][-1]


def _loaded_unit(seconds: float, begun: float, share: Callable[[float], float]) -> float:
    """How long a unit of ``seconds`` of a full core takes from ``begun`` at these shares."""
    work, t, step = seconds, begun, 0.1
    while work > 0:
        work -= share(t) * step
        t += step
    return t - begun


def synthetic_cpu(seeds: int = SEEDS) -> list[tuple[str, int, int, int]]:
    """The builds of ``CPU_SHAPES``, their CPU sampled, replayed cold (a prior without
    core-seconds: a first build)."""
    out = []
    setup, tail = 10.0, 3.0
    for shape, (scale, shares, count, jobs) in CPU_SHAPES.items():
        share = _share_at(shares)
        inside = misses = 0
        for seed in range(seeds):
            rnd = random.Random(seed)
            mean = 34.0 if count == 1 else 240.0
            idle = [mean * scale * math.exp(0.2 * rnd.gauss(0.0, 1.0)) for _ in range(count)]
            # each unit at the shares it gets (ninja's order: a unit starts when a slot frees)
            free = [setup] * min(jobs, count)
            units = []
            for i, seconds in enumerate(idle):
                begun = min(free)
                took = _loaded_unit(seconds, begun, share)
                free[free.index(begun)] = begun + took
                units.append((f"u{i}.o", took))
            rec = Recording("synthetic", "synthetic", "-", ("9.0",), jobs, 64.0, "linux", jobs,
                            "", "")
            build = synthesize(rec, [units], setup=setup, tail=tail, cpu=share)
            prior = Prior(total_seconds=setup + count * mean / jobs + tail, jobs=jobs,
                          unit_seconds=mean, units=count, setup_seconds=setup,
                          tail_seconds=tail)
            if count == 1:
                prior = replace(prior, total_seconds=setup + mean + tail)
            result = evaluate(build, prior, "cold")
            inside += result.grid_inside
            misses += not units_goal(result)
        out.append((shape, inside, seeds * GRID, misses))
    return out


def synthetic_table(rows: Sequence[tuple[str, int, int, int]]) -> str:
    lines = [f"| shape ({SEEDS} builds each) | time ≥25 % within | builds missing the units "
             "goal |", "|---|---|---|"]
    lines += [f"| {shape} | {inside}/{moments} ({inside / moments:.0%}) | {misses} |"
              for shape, inside, moments, misses in rows]
    return "\n".join(lines)


# -- a recording that is not in the index ------------------------------------------------------


# Recordings never calibrated on (nothing was tuned against them: the model was frozen before
# they were made or seen), scored after the index and apart from it. Each PREFIX.toml says
# what the plan saw; a ``history`` there names an index recording of the same configuration
# on the same machine, for a warm replay too (the user's last build).
HELD_OUT = (
    "docs/recorded/h200-2026-11-28/eta/sage-h200",
    "docs/recorded/h200x4-2026-11-28/eta/sage-x4",
    "docs/recorded/dev2core-2026-11-28/eta/probe-cpu-2core-held-1",
    "docs/recorded/dev2core-2026-11-28/eta/probe-cpu-2core-held-2",
    # recorded with its CPU samples; seen once with the CPU signal of cold builds (28/100),
    # which was then turned off for cold builds: not clean for that one choice
    "docs/recorded/h200-2026-11-28b/eta/sage-h200-cpu",
    # fresh builds on a lent H200 (2026-11-29), recorded before the model froze at 1a990bd and
    # scored once after: 100/100 each (FlashMLA's of the same round missed, 0/100, and was then
    # studied: training, not held out; docs/recorded/h200-2026-11-29/README.md)
    "docs/recorded/h200-2026-11-29/eta/sage-h200-1129",
    "docs/recorded/h200-2026-11-29/eta/fa3-compact-h200-1129",
    # and two more, recorded after the model froze again at ed22ac8 (the slowest unit following
    # the machine's pace), scored once: 100/100 each
    "docs/recorded/h200-2026-11-29/eta/fa3-compact-h200-1129c",
    "docs/recorded/h200-2026-11-29/eta/flashmla-h200-1129c",
    # and three more (2026-11-29, a later round), recorded with the model as 4c5bf77 left it
    # (unchanged since ed22ac8) and scored once: FA3 59/100, FlashMLA 100/100, SageAttention
    # 100/100 (docs/recorded/h200-2026-11-29/README.md)
    "docs/recorded/h200-2026-11-29/eta/fa3-compact-h200-1129d",
    "docs/recorded/h200-2026-11-29/eta/flashmla-h200-1129d",
    "docs/recorded/h200-2026-11-29/eta/sage-h200-1129d",
)


def held_out(data: Path = DATA, poll: float = 1.0,
             prefixes: Sequence[str] = HELD_OUT) -> list[Result]:
    """The held-out recordings, cold (and warm where their ``.toml`` names a history)."""
    index = {r.name: r for r in load_index(data)}
    results = []
    for name in prefixes:
        prefix = REPO / name
        if not prefix.with_name(prefix.name + ".tlog").exists():
            continue
        rec = load_recording(prefix, {})
        build = load_build(rec, prefix.parent, prefix=prefix)
        results.append(evaluate(build, cold_prior(rec), "cold", poll))
        meta = prefix.with_name(prefix.name + ".toml")
        history = tomllib.loads(meta.read_text(encoding="utf-8")).get("history") \
            if meta.exists() else None
        warm = None
        if history and history in index:
            warm = warm_prior(load_build(index[str(history)], data), rec.jobs)
            results.append(evaluate(build, warm, "warm", poll))
        results += units_only(build, cold_prior(rec), warm, poll)
    return results



_KERNEL = re.compile(r"^Kernel: (.+?) \((?:source|prebuilt wheel): ")
_MAX_JOBS = re.compile(r"\bMAX_JOBS=(\d+)")
_MACHINE = re.compile(r"\((\d+) cores, ([\d.]+) GB RAM available")
_ARCH_LIST = re.compile(r"\bTORCH_CUDA_ARCH_LIST=([0-9.;+A-Za-z_]+)")
_FA_ARCHS = re.compile(r"\bFLASH_ATTN_CUDA_ARCHS=([0-9;]+)")
# FlashMLA's plan names no arch list: it turns an architecture's kernels off instead
_MLA_OFF = re.compile(r"^export FLASH_MLA_DISABLE_SM(90|100)=1\b")
_MLA_ARCHS = (("90", "9.0"), ("100", "10.0"))


def infer_recording(name: str, lines: Sequence[tuple[float, str]]) -> dict[str, object]:
    """What the wizard's plan saw, from its own output (``build --verbose`` prints the plan):
    the kernel and version from ``Kernel: …``, the jobs, cores and RAM from the ``MAX_JOBS``
    line, the archs from the arch variable it sets (FlashMLA's: the architectures it does not
    turn off). Only what was found."""
    found: dict[str, object] = {"name": name, "os": "linux"}
    mla_off: set[str] = set()
    catalog = load_catalog()
    for _t, text in lines[:400]:
        plain = text.strip()
        if "kernel" not in found and (m := _KERNEL.match(plain)):
            for recipe in catalog.recipes:
                if m.group(1).startswith(recipe.name + " "):
                    label = m.group(1)[len(recipe.name) + 1:]
                    if any(v.label == label for v in recipe.versions):
                        found.update(kernel=recipe.id, version=label)
                        break
        if "jobs" not in found and (m := _MAX_JOBS.search(plain)):
            found["jobs"] = int(m.group(1))
            if machine := _MACHINE.search(plain):
                found.update(cores=int(machine.group(1)), ram_gb=float(machine.group(2)))
        if "archs" not in found and (m := _ARCH_LIST.search(plain)):
            found["archs"] = [a.replace("sm_", "").replace("+PTX", "").rstrip("a")
                              for a in m.group(1).split(";") if a]
        if "archs" not in found and (m := _FA_ARCHS.search(plain)):
            found["archs"] = [f"{a[:-1]}.{a[-1]}" for a in m.group(1).split(";") if a]
        if m := _MLA_OFF.match(plain):
            mla_off.add(m.group(1))
        if "CPU_ONLY=1" in plain and plain.startswith("export "):
            found["cpu_only"] = True
        if plain.startswith("\\") or ":\\" in plain[:12]:
            found["os"] = "windows"
    if "archs" not in found and mla_off and found.get("kernel") == "flashmla":
        found["archs"] = [arch for sm, arch in _MLA_ARCHS if sm not in mla_off]
    return found


def load_recording(prefix: Path, overrides: dict[str, object]) -> Recording:
    """A recording outside the index: ``PREFIX.toml`` (the index's fields) if present, else
    what the wizard's output says; ``overrides`` (the options) win."""
    fields: dict[str, object] = {}
    meta = prefix.with_name(prefix.name + ".toml")
    if meta.exists():
        fields.update(tomllib.loads(meta.read_text(encoding="utf-8")))
    lines = read_tlog(prefix.with_name(prefix.name + ".tlog"))
    for key, value in infer_recording(prefix.name, lines).items():
        fields.setdefault(key, value)
    fields.update({k: v for k, v in overrides.items() if v is not None})
    # the recorder's own look at the machine, where the wizard's output did not say
    if "cpu_count" in fields:
        fields.setdefault("cores", fields["cpu_count"])
    if "memory_available_gib" in fields:
        fields.setdefault("ram_gb", float(str(fields["memory_available_gib"])) * GIB_GB)
    fields.setdefault("archs", [])
    missing = [k for k in ("kernel", "version", "cores", "ram_gb", "jobs") if k not in fields]
    if missing:
        raise SystemExit(f"{prefix}: not found in the recording, give them as options: "
                         + ", ".join("--" + k.replace("_", "-") for k in missing))
    fields.setdefault("machine", "")
    fields.setdefault("command", "")
    fields.pop("history", None)  # scored on its own: cold, never against another recording
    return _recording(fields, name=prefix.name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--poll", type=float, default=1.0,
                        help="seconds between the runner's looks at build.ninja (default 1)")
    parser.add_argument("--lines-only", action="store_true",
                        help="also replay cold without ninja's build folder (lines only)")
    parser.add_argument("--synthetic", action="store_true",
                        help="score made-up builds of known shapes instead of the index")
    parser.add_argument("--trace", metavar="NAME", action="append", default=[],
                        help="show the estimate along this recording's build (cold, warm)")
    parser.add_argument("--recording", metavar="PREFIX", type=Path, action="append",
                        default=[], help="score PREFIX.tlog + PREFIX.ninja_log (not in the "
                        "index; cold only, calibrates nothing) instead of the index")
    parser.add_argument("--kernel", help="with --recording: the recipe id")
    parser.add_argument("--version", dest="kernel_version", help="with --recording: the "
                        "recipe version's label")
    parser.add_argument("--variant", help="with --recording: the build variant")
    parser.add_argument("--archs", help="with --recording: the archs built, '9.0;8.6'")
    parser.add_argument("--cores", type=int, help="with --recording: the machine's cores")
    parser.add_argument("--ram-gb", type=float, help="with --recording: RAM available, GB")
    parser.add_argument("--jobs", type=int, help="with --recording: MAX_JOBS of the build")
    parser.add_argument("--cpu-only", action="store_true", default=None,
                        help="with --recording: a CPU-only build (the probe)")
    args = parser.parse_args(argv)
    if args.synthetic:
        print(synthetic_table(synthetic() + synthetic_runs() + synthetic_cpu()
                              + synthetic_paced()))
        return 0
    if args.recording:
        overrides: dict[str, object] = {
            "kernel": args.kernel, "version": args.kernel_version, "variant": args.variant,
            "archs": args.archs.split(";") if args.archs else None, "cores": args.cores,
            "ram_gb": args.ram_gb, "jobs": args.jobs, "cpu_only": args.cpu_only}
        results = []
        for prefix in args.recording:
            rec = load_recording(prefix, overrides)
            build = load_build(rec, prefix.parent, prefix=prefix)
            print(f"{rec.name}: {rec.kernel} {rec.version}, archs {';'.join(rec.archs) or '—'}"
                  f", {rec.cores} cores, {rec.ram_gb:g} GB, {rec.jobs} jobs; {len(build.runs)} "
                  f"ninja run(s), {build.total} units, {build.end - build.start:.0f} s")
            if args.trace:
                print(trace(build, cold_prior(rec), poll=args.poll))
            results.append(evaluate(build, cold_prior(rec), "cold", args.poll))
        print(table(results))
        text, ok = summary(results)
        print()
        print(text)
        return 0 if ok else 1
    if args.trace:
        recordings = {r.name: r for r in load_index(args.data)}
        for name in args.trace:
            rec = recordings[name]
            build = load_build(rec, args.data)
            print(trace(build, cold_prior(rec), poll=args.poll))
            if rec.history:
                print(trace(build, warm_prior(load_build(recordings[rec.history], args.data),
                                              rec.jobs), poll=args.poll))
        return 0
    results = run(args.data, args.poll, args.lines_only)
    print(table(results))
    text, ok = summary(results)
    print()
    print(text)
    if args.data == DATA and not args.lines_only:
        kept = held_out(args.data, args.poll)
        if kept:
            print()
            print("Held out (never calibrated on; benchmarks/eta_accuracy.py HELD_OUT):")
            print()
            print(table(kept))
            print()
            print(summary(kept)[0])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
