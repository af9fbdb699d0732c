"""How true the build ETA is: real recorded builds replayed with their timestamps (goal: within
±25 % from 25 % of the units on).

    python benchmarks/eta_accuracy.py [--data tests/data/buildtimes] [--poll 1.0] [-v]

Each recording (``tests/data/buildtimes/index.toml``) is a real build's output with every
line's arrival time (``NAME.tlog``) and ninja's own ``NAME.ninja_log``. The replay feeds
:class:`build_backend.eta.EtaEstimator` exactly what the build runner feeds it live: the
``[n/N]`` lines when they arrived, ninja's start and unit count when ``build.ninja`` appears
(seen at the runner's next poll), and the ``.ninja_log`` entries of finished units. At the
moment 10/25/50/75 % of the units have finished it compares the estimated time left with the
time the build really took to finish (its wheel written):

    error = (estimated − actual) / actual

Two priors per recording: **cold**, the recipe's calibrated cost model (a first build), and
**warm**, the user's own earlier build of the same configuration (``history`` in the index:
another recording, never the same one). Builds of one or two units have no unit checkpoints;
for them (and for all) the error at 10/25/50/75 % of the build's *time* is shown too.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from build_backend.buildtimes import BuildRecord, Machine, make_record, prior_from_record  # noqa: E402
from build_backend.catalog import OsName, load_catalog  # noqa: E402
from build_backend.eta import EtaEstimator, Prior, UnitTime, parse_ninja_log  # noqa: E402
from build_backend.plan import estimate_build  # noqa: E402

DATA = REPO / "tests" / "data" / "buildtimes"
CHECKPOINTS = (10, 25, 50, 75)
GOAL = 0.25  # ±25 % from 25 % of the units on
# ... or this many seconds, where so little is left that a quarter of it is a second or two
# (a 6-unit build's last unit: 7 s left); the table shows the relative error all the same
LAST_SECONDS = 15.0
MIN_UNITS = 4  # fewer: "x % of the units" is one unit ending near the end; time checkpoints only
_NINJA = re.compile(r"^\s*\[(\d+)/(\d+)\]")
_START = re.compile(r"^• compile")  # the wizard's step line: its build starts here
_END = re.compile(r"Created wheel for |^\s*creating '.*\.whl'")


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


@dataclass
class Build:
    """A recording parsed: the build's window, its unit lines and ninja's units."""

    recording: Recording
    start: float  # the build (pip) started, seconds in the tlog
    end: float  # its wheel was written
    lines: list[tuple[float, str]]
    unit_lines: list[tuple[float, int, int, str]]  # (time, n, N, line)
    units: list[UnitTime]  # ninja's log, finish order
    ninja_start: float  # in the tlog's clock

    @property
    def total(self) -> int:
        return self.unit_lines[-1][2] if self.unit_lines else len(self.units)

    def record(self) -> BuildRecord:
        """What the runner would have stored after this build."""
        rec = self.recording
        return make_record(kernel=rec.kernel, version=rec.version, archs=rec.archs,
                           jobs=rec.jobs, nvcc_threads=1, total_seconds=self.end - self.start,
                           ninja_started=self.ninja_start - self.start, units=self.units,
                           machine=Machine("replay", rec.machine))


def load_index(data: Path = DATA) -> list[Recording]:
    index = tomllib.loads((data / "index.toml").read_text(encoding="utf-8"))
    return [Recording(
        name=r["name"], kernel=r["kernel"], version=r["version"], archs=tuple(r["archs"]),
        cores=int(r["cores"]), ram_gb=float(r["ram_gb"]), os=r["os"], jobs=int(r["jobs"]),
        machine=r["machine"], command=r["command"], history=r.get("history"),
        cpu_only=bool(r.get("cpu_only", False)),
    ) for r in index["recording"]]


def load_build(rec: Recording, data: Path = DATA) -> Build:
    lines: list[tuple[float, str]] = []
    for raw in (data / f"{rec.name}.tlog").read_text(encoding="utf-8").splitlines():
        stamp, _, text = raw.partition("\t")
        lines.append((float(stamp), text))
    start = next((t for t, text in lines if _START.match(text)), 0.0)
    end = next((t for t, text in lines if _END.search(text)), lines[-1][0])
    unit_lines = [(t, int(m.group(1)), int(m.group(2)), text) for t, text in lines
                  if (m := _NINJA.match(text)) and start <= t <= end]
    log = data / f"{rec.name}.ninja_log"
    runs = parse_ninja_log(log.read_text(encoding="utf-8")) if log.exists() else []
    units = runs[-1] if runs else []
    ends = sorted(u.end for u in units)
    offsets = sorted(t - e for (t, *_), e in zip(unit_lines, ends, strict=False))
    ninja_start = offsets[len(offsets) // 2] if offsets else start
    return Build(rec, start, end, lines, unit_lines, units, ninja_start)


def cold_prior(rec: Recording) -> Prior:
    recipe = load_catalog().get(rec.kernel)
    version = recipe.version(rec.version)
    estimate = estimate_build(recipe, version, list(rec.archs), rec.cores, rec.ram_gb,
                              OsName(rec.os), cpu_only=rec.cpu_only)
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


def replay(build: Build, prior: Prior | None, poll: float = 1.0,
           jobs: int | None = None) -> EtaEstimator:
    """An estimator fed with the whole build (for tests that look at it afterwards)."""
    est = EtaEstimator(prior, jobs or build.recording.jobs)
    _feed(build, est, build.end + 1.0, poll)
    return est


def _feed(build: Build, est: EtaEstimator, until: float, poll: float,
          state: dict[str, float] | None = None, log: bool = True) -> None:
    """Feed every event up to ``until`` (a resumable replay: ``state`` keeps the position);
    ``log``: whether the runner can read ninja's build folder (build.ninja, .ninja_log)."""
    st = state if state is not None else {}
    if "started" not in st:
        est.start(build.start)
        st.update(started=1.0, tick=build.start, line=0.0, unit=0.0)
    total = build.total
    while True:
        tick = st["tick"]
        i = int(st["line"])
        next_line = build.unit_lines[i][0] if i < len(build.unit_lines) else math.inf
        at = min(tick, next_line)
        if at > until:
            return
        if next_line <= tick:
            t, n, n_total, text = build.unit_lines[i]
            est.unit_line(t, n, n_total, text)
            st["line"] = i + 1
            if log:
                _log_until(build, est, t + 0.05, st)
        else:
            if log and tick >= build.ninja_start:
                est.ninja_start(tick, total)  # build.ninja seen at this poll
                _log_until(build, est, tick, st)
            st["tick"] = tick + poll


def _log_until(build: Build, est: EtaEstimator, now: float, st: dict[str, float]) -> None:
    k = int(st["unit"])
    new = []
    while k < len(build.units) and build.ninja_start + build.units[k].end <= now:
        new.append(build.units[k])
        k += 1
    st["unit"] = k
    if new:
        est.log_units(new, now)


def evaluate(build: Build, prior: Prior | None, scenario: str, poll: float = 1.0,
             log: bool = True) -> Result:
    rec = build.recording
    actual = build.end - build.start
    result = Result(rec.name, scenario, build.total, actual,
                    prior.total_seconds if prior is not None else None)
    total = build.total
    moments: list[tuple[str, int, float]] = []
    for pct in CHECKPOINTS:
        k = max(1, math.ceil(pct * total / 100)) if total else 0
        if total >= MIN_UNITS and k < total and k <= len(build.unit_lines):
            moments.append(("units", pct, build.unit_lines[k - 1][0] + 1e-6))
        else:
            result.units[pct] = None
        moments.append(("times", pct, build.start + actual * pct / 100))
    est = EtaEstimator(prior, rec.jobs)
    state: dict[str, float] = {}
    for kind, pct, at in sorted(moments, key=lambda m: m[2]):
        _feed(build, est, at, poll, state, log)
        eta = est.estimate(at)
        truth = build.end - at
        error = None if eta.remaining is None or truth <= 0 else \
            (eta.remaining - truth) / truth
        getattr(result, kind)[pct] = error
        if kind == "units" and eta.remaining is not None:
            result.units_off[pct] = abs(eta.remaining - truth)
    return result


def trace(build: Build, prior: Prior | None, steps: int = 20, poll: float = 1.0) -> str:
    """The estimate against the truth along the build, in seconds (``--trace NAME``)."""
    est = EtaEstimator(prior, build.recording.jobs)
    state: dict[str, float] = {}
    rows = [f"{build.recording.name}: {build.end - build.start:.0f} s, ninja started at "
            f"{build.ninja_start - build.start:.1f} s, prior {prior}"]
    for i in range(1, steps):
        at = build.start + (build.end - build.start) * i / steps
        _feed(build, est, at, poll, state)
        eta = est.estimate(at)
        said = "—" if eta.remaining is None else f"{eta.remaining:6.1f}"
        rows.append(f"  {at - build.start:6.1f} s  {eta.phase.value:8} {eta.done:>3}/{eta.total:<3}"
                    f" left: said {said}, really {build.end - at:6.1f}")
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
    return results


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:+.0%}"


def table(results: Sequence[Result]) -> str:
    head = ("| recording | prior | units | took | prior said | "
            + " | ".join(f"{p} % units" for p in CHECKPOINTS) + " | "
            + " | ".join(f"{p} % time" for p in CHECKPOINTS) + " |")
    rows = [head, "|" + "---|" * (5 + 2 * len(CHECKPOINTS))]
    for r in results:
        said = "—" if r.predicted is None else f"{r.predicted:.0f} s"
        rows.append(f"| {r.name} | {r.scenario} | {r.total} | {r.actual:.0f} s | {said} | "
                    + " | ".join(_pct(r.units[p]) for p in CHECKPOINTS) + " | "
                    + " | ".join(_pct(r.times[p]) for p in CHECKPOINTS) + " |")
    return "\n".join(rows)


def summary(results: Sequence[Result]) -> tuple[str, bool]:
    """The goal over the cold and warm replays (not the lines-only ones: extra)."""
    results = [r for r in results if r.scenario in ("cold", "warm")]
    lines = []
    ok = True
    for pct in CHECKPOINTS:
        checked = [(abs(e), r.units_off.get(pct, math.inf)) for r in results
                   if (e := r.units.get(pct)) is not None]
        if not checked:
            continue
        errors = [e for e, _ in checked]
        inside = sum(e <= GOAL or off <= LAST_SECONDS for e, off in checked)
        worst = max(errors)
        if pct >= 25 and inside < len(checked):
            ok = False
        lines.append(f"at {pct:>2} % of units: mean |error| {sum(errors) / len(errors):.0%}, "
                     f"worst {worst:.0%}, within ±{GOAL:.0%} or {LAST_SECONDS:.0f} s: "
                     f"{inside}/{len(errors)}")
    later = [abs(e) for r in results for p in CHECKPOINTS[1:]
             if (e := r.times.get(p)) is not None]
    if later:
        lines.append(f"at 25-75 % of the time: worst |error| {max(later):.0%}")
    lines.append(f"goal (within ±25 %, or {LAST_SECONDS:.0f} s in the last seconds, from 25 % "
                 "of units on): " + ("met" if ok else "NOT met"))
    return "\n".join(lines), ok


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--poll", type=float, default=1.0,
                        help="seconds between the runner's looks at build.ninja (default 1)")
    parser.add_argument("--lines-only", action="store_true",
                        help="also replay cold without ninja's build folder (lines only)")
    parser.add_argument("--trace", metavar="NAME", action="append", default=[],
                        help="show the estimate along this recording's build (cold, warm)")
    args = parser.parse_args(argv)
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
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
