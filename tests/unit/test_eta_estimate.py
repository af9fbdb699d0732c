"""Progress that tells the truth: the ETA of real recorded builds, ninja's files, the history
of the user's own builds, and how progress is worded.

The recorded builds (tests/data/buildtimes/, README.md there) are replayed with their real
timestamps through benchmarks/eta_accuracy.py's replay, exactly as the runner feeds them live.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from eta_testsupport import accuracy_benchmark

from kernel_wizard.base.durations import time_left
from kernel_wizard.build.buildtimes import (
    KEEP_PER_KEY,
    Machine,
    find_record,
    load_records,
    make_record,
    prior_from_record,
    save_record,
)
from kernel_wizard.build.eta import (
    EtaEstimator,
    NinjaLogReader,
    Phase,
    Prior,
    PriorSource,
    UnitTime,
    count_ninja_units,
    find_ninja_dir,
    output_of_command,
    parse_ninja_log,
    schedule,
    unit_name,
)
from kernel_wizard.build.plan import estimate_build
from kernel_wizard.build.progress_view import line_text as progress_text
from kernel_wizard.catalog import OsName, load_catalog
from kernel_wizard.cli.terminal import slowest_text

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "buildtimes"
HERE = Machine("m1", "test machine")


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return accuracy_benchmark()


# -- the goal on recorded builds ------------------------------------------------------------------


def test_recordings_are_real_builds_with_their_ninja_logs(bench: ModuleType) -> None:
    recordings = bench.load_index(DATA)
    names = {r.name for r in recordings}
    assert {p.name.removesuffix(".tlog") for p in DATA.glob("*.tlog")} == names
    for rec in recordings:
        build = bench.load_build(rec, DATA)
        assert build.units, rec.name  # ninja's own log of the build
        assert build.total == len(build.units)
        assert 0 < build.start < build.ninja_start < build.end or build.start == 0.0
        # every [n/N] line arrived after its unit ended (ninja prints at the end, in a pipe)
        ends = sorted(u.end for u in build.units)
        for (t, n, _total, _line), end in zip(build.unit_lines, ends, strict=True):
            assert t >= build.ninja_start + end - 0.5, (rec.name, n)
        assert rec.history is None or rec.history in names


def test_eta_is_within_25_percent_from_a_quarter_of_the_units_on(bench: ModuleType) -> None:
    """The issue's goal, on every recorded build with enough units, cold (the recipe's
    calibrated model) and warm (the user's own earlier build of it): within ±25 %, or within
    15 s where only seconds are left (FlashAttention 3's last unit: 7 s)."""
    results = bench.run(DATA)
    checked = [r for r in results if r.units.get(25) is not None]
    # (and a recording with CPU samples replayed without them, "cold, units only")
    assert {"cold", "warm"} <= {r.scenario for r in checked}
    assert len(checked) >= 5
    for result in checked:
        for pct in (25, 50, 75):
            error = result.units[pct]
            assert error is not None, (result.name, result.scenario, pct)
            off = result.units_off[pct]
            assert abs(error) <= 0.25 or off <= bench.LAST_SECONDS, (
                result.name, result.scenario, pct, error, off)
        assert bench.units_goal(result)
    text, _ok = bench.summary(results)
    assert "goal over units (within ±25 %, or 15 s in the last seconds, from 25 % of units " \
        "on): met" in text


# Replays that do not meet the goal over the elapsed time yet, and why (issue 29, item 4):
SHORT_OF_THE_GOAL = {
    # one unit whose time depends on what else the 2-core box runs: 171 s and 351 s with
    # other work (load ~5 and ~9), 24 s nearly idle; neither the recipe nor the last build
    # can know it, and nothing in the build's output tells it before the unit ends
    ("probe-cpu-2core-1", "cold"), ("probe-cpu-2core-1", "warm"),
    ("probe-cpu-2core-2", "cold"), ("probe-cpu-2core-2", "warm"),
    ("probe-cpu-2core-3", "cold"), ("probe-cpu-2core-3", "warm"),
    # split units whose end nothing pins: FlashAttention 2's last units in flight (91 of 100
    # moments, 58 before the last of the units in flight was waited for; its last two units
    # ran 311 s and 381 s where this build's units took 100-373 s)
    ("flash-attn-2.8.3-h100", "cold"),
    # the same probe with the CPU the build got sampled (issue 29 item 4), on the 2-core box
    # shared with other work (load 7.6-12): cold, the recipe's 34 s of compiling (an idle
    # Xeon's) against 27-29 CPU seconds here, stretched by a share of 0.1-0.3 of a core,
    # misses the last tens of seconds; warm, the share of a shared machine comes and goes
    # (0.17 -> 0.29 -> 0.2 within a build) faster than any estimate of the time left can know
    ("probe-cpu-2core-4", "cold"), ("probe-cpu-2core-5", "cold"), ("probe-cpu-2core-5", "warm"),
    ("probe-cpu-2core-6", "cold"), ("probe-cpu-2core-6", "warm"),
}


def test_eta_is_within_25_percent_over_the_elapsed_time(bench: ModuleType) -> None:
    """The goal over time: at every one of 100 moments from a quarter of the elapsed time to
    the end, within ±25 % of the time really left (or 15 s in the last seconds), cold and
    warm, for every recording but those listed above (the benchmark prints them all)."""
    results = [r for r in bench.run(DATA) if r.scenario in ("cold", "warm")]
    met = {(r.name, r.scenario) for r in results if bench.elapsed_goal(r)}
    every = {(r.name, r.scenario) for r in results}
    assert every - met <= SHORT_OF_THE_GOAL, sorted(every - met - SHORT_OF_THE_GOAL)
    assert ("sageattention-sm90-h100", "cold") in met
    assert len(met) >= 10


def test_the_cpu_signal_brings_one_unit_builds_on_a_busy_machine_nearer(
        bench: ModuleType) -> None:
    """The probe recorded with its CPU samples (probe-cpu-2core-4/5/6: 96 s, 141 s, 243 s,
    one unit of 27-29 CPU seconds each): warm, with the CPU seconds of the user's last build
    here, more moments within the goal than the unit-based model alone, and the build beside a
    shared machine's other work meets it throughout. Cold, the recipe's core-seconds (measured
    on other CPUs) are not used, but the share of a core the unit gets stretches the prior's
    time left (the load signal): more moments within the goal than the prior alone too."""
    results = {(r.name, r.scenario): r for r in bench.run(DATA)}
    for n in (4, 5, 6):
        name = f"probe-cpu-2core-{n}"
        for prior in ("cold", "warm"):
            with_cpu = results[(name, prior)]
            without = results[(name, f"{prior}, units only")]
            assert with_cpu.cpu and not without.cpu
            assert with_cpu.grid_inside > without.grid_inside, (name, prior)
    assert bench.elapsed_goal(results[("probe-cpu-2core-4", "warm")])
    # the recordings without samples are replayed as before (units only)
    assert not results[("probe-cpu-2core-1", "cold")].cpu


def test_an_overdue_unit_counts_down_instead_of_pushing_the_estimate_up(
        bench: ModuleType) -> None:
    """FlashAttention 3 compact: after 4 of 6 units (131 s) the two backward units run on
    until 181 s and 187 s, past the recipe's slowest unit (160 s). The time left must count
    down over those 45 s (once, it rose from 70 s to 80 s while 56 s became 9 s), never rise
    by more than 2 s from one look to the next, never read below 5 s, and stay within the
    goal (±25 %, or 15 s) at every look: 45, 37, 31, 26, 23, 23 s while 56 s became 11 s."""
    rec = {r.name: r for r in bench.load_index(DATA)}["fa3-compact-h100"]
    build = bench.load_build(rec, DATA)
    est = EtaEstimator(bench.cold_prior(rec), rec.jobs)
    state: dict[str, float] = {}
    fourth = build.unit_lines[3][0]
    said = []
    for at in [fourth + 1 + 9 * i for i in range(6)]:
        bench._feed(build, est, at, 1.0, state, True)
        eta = est.estimate(at)
        assert eta.remaining is not None
        said.append(eta.remaining)
        really = build.end - at
        assert abs(eta.remaining - really) <= max(0.25 * really, bench.LAST_SECONDS), (
            at, eta.remaining, really)
    assert all(b < a + 2.0 for a, b in zip(said, said[1:], strict=False)), said
    assert said[-1] < said[0] - 20.0, said
    assert min(said) >= 5.0, said


def test_a_flashmla_build_is_bound_by_its_longest_unit(bench: ModuleType) -> None:
    """FlashMLA: 20 of 24 units are done after 77 s, but the 4 slow ones (118-128 s) run on
    until 128 s. The ETA must not say "almost done" at 20/24."""
    rec = {r.name: r for r in bench.load_index(DATA)}["flashmla-sm90-h100-pip"]
    build = bench.load_build(rec, DATA)
    at = build.unit_lines[19][0] + 0.01  # the 20th unit just ended
    actual = build.end - at
    assert actual > 45
    prior = bench.cold_prior(rec)
    assert prior.longest_unit_seconds == 128
    for used in (prior, replace(prior, longest_unit_seconds=0.0)):
        est = EtaEstimator(used, rec.jobs)
        bench._feed(build, est, at, 1.0, {})
        eta = est.estimate(at)
        assert eta.done == 20 and eta.total == 24
        if used.longest_unit_seconds:
            assert eta.remaining is not None and abs(eta.remaining - actual) / actual < 0.25
        else:  # without knowing a slow unit exists, it says far too little
            assert eta.remaining is not None and eta.remaining < 0.8 * actual


def test_history_knows_each_unit_by_name(bench: ModuleType) -> None:
    recordings = {r.name: r for r in bench.load_index(DATA)}
    history = bench.load_build(recordings["flashmla-sm90-h100-wizard"], DATA)
    prior = bench.warm_prior(history, 16)
    assert prior.source is PriorSource.HISTORY and prior.units == 24
    slow = dict(prior.unit_costs)["csrc/sm100/prefill/dense/fmha_cutlass_bwd_sm100.o"]
    assert slow == pytest.approx(128.5, abs=0.1)
    assert prior.longest_unit_seconds == slow
    # with half the jobs the same units are rescheduled: longer, never shorter
    assert prior_from_record(history.record(), 8).total_seconds > prior.total_seconds


# -- phases: before any unit, unknown totals, after the last unit ------------------------------


def _prior(**kw: object) -> Prior:
    base = Prior(total_seconds=100.0, jobs=4, unit_seconds=20.0, units=8, setup_seconds=10.0,
                 tail_seconds=5.0)
    return replace(base, **kw)  # type: ignore[arg-type]


def test_before_any_unit_the_prior_counts_down_and_the_total_waits_for_ninja() -> None:
    est = EtaEstimator(_prior(), 4)
    est.start(0.0)
    first = est.estimate(4.0)
    assert (first.phase, first.total) == (Phase.SETUP, 0)
    assert first.remaining == pytest.approx(96.0, rel=0.02)
    est.ninja_start(10.0, total=8)  # build.ninja appeared: 8 compile edges
    started = est.estimate(10.0)
    assert (started.phase, started.total, started.done) == (Phase.COMPILE, 8, 0)
    assert started.remaining == pytest.approx(90.0, rel=0.05)
    later = est.estimate(60.0)
    assert later.remaining is not None and 30 < later.remaining < started.remaining
    assert not later.overdue
    # much longer than expected: still an estimate (growing), and flagged
    late = est.estimate(300.0)
    assert late.overdue and late.remaining is not None and late.remaining > 5.0


def test_without_ninja_or_prior_there_is_elapsed_time_only() -> None:
    est = EtaEstimator(None, 2)
    est.start(0.0)
    eta = est.estimate(30.0)
    assert (eta.elapsed, eta.remaining, eta.total) == (30.0, None, 0)
    with_prior = EtaEstimator(_prior(), 2)  # a build without ninja: the prior alone
    with_prior.start(0.0)
    assert with_prior.estimate(30.0).remaining == pytest.approx(70.0, rel=0.02)


def test_after_the_last_unit_only_link_and_wheel_remain() -> None:
    est = EtaEstimator(_prior(), 4)
    est.start(0.0)
    est.ninja_start(10.0, 2)
    est.unit_line(30.0, 1, 2, "[1/2] c++ -c a.cpp -o /s/build/temp.linux/a.o")
    est.unit_line(40.0, 2, 2, "[2/2] c++ -c b.cpp -o /s/build/temp.linux/b.o")
    # ninja prints the last line for a failing unit too: not counted until confirmed
    waiting = est.estimate(40.5)
    assert waiting.phase is Phase.COMPILE and (waiting.done, waiting.total) == (1, 2)
    est.confirm_last()  # the next output line is not "FAILED:"
    eta = est.estimate(41.0)
    assert eta.phase is Phase.FINISH and eta.fraction == 1.0
    assert eta.remaining is not None and 3.0 < eta.remaining <= 5.0


def test_a_retry_starts_the_units_over() -> None:
    est = EtaEstimator(None, 2)
    est.start(0.0)
    for n in range(1, 4):
        est.unit_line(float(n), n, 8, "")
    est.unit_line(10.0, 1, 5, "")  # the second ninja run: 5 units left
    eta = est.estimate(10.0)
    assert (eta.done, eta.total) == (1, 5)


def test_units_in_flight_come_from_ninjas_log() -> None:
    """With the log, a unit in flight is known to have run since ninja started (not since
    the last unit ended): its age moves the estimate."""
    est = EtaEstimator(_prior(units=3, unit_seconds=10.0, total_seconds=40.0), 2)
    est.start(0.0)
    est.ninja_start(0.0, 3)
    est.unit_line(10.0, 1, 3, "")
    est.log_units([UnitTime("a.o", 0.0, 10.0)], 10.0)
    # b.o started at 0 and is still running at 30 s; c.o started at 10 s
    eta = est.estimate(30.0)
    assert eta.remaining is not None and eta.remaining > 5.0  # b.o is late: not "done soon"


def test_schedule_is_a_list_schedule() -> None:
    assert schedule([10, 10, 10, 10], (), 2) == 20
    assert schedule([10], (5.0, 30.0), 2) == 30  # the long unit in flight bounds it
    assert schedule([], (7.0,), 4) == 7


# -- ninja's files -----------------------------------------------------------------------------


def test_ninja_log_runs_and_unit_names() -> None:
    text = (DATA / "flashmla-sm90-h100-pip.ninja_log").read_text(encoding="utf-8")
    runs = parse_ninja_log(text)
    assert len(runs) == 1 and len(runs[0]) == 24
    assert {u.name for u in runs[0]} >= {"csrc/api/api.o",
                                        "csrc/sm90/decode/dense/instantiations/bf16.o"}
    # a retry in the same folder appends a second run whose clock starts again
    again = parse_ninja_log(text + "5\t900\t0\t/x/build/temp.y/csrc/api/api.o\tff\n")
    assert [len(r) for r in again] == [24, 1]
    assert unit_name(r"C:\b\fa\build\temp.win-amd64-cpython-312\Release\csrc\flash_api.obj") \
        == "csrc/flash_api.obj"
    assert output_of_command("[3/73] cl /c x.cpp /FoC:\\b\\build\\temp.win-amd64-cpython-312"
                             "\\Release\\csrc\\x.obj /O2") == "csrc/x.obj"
    assert output_of_command("[1/2] nvcc -c a.cu -o /s/build/temp.linux-x86_64-cpython-312/"
                             "csrc/a.o -O3") == "csrc/a.o"


def test_build_ninja_units_are_counted(tmp_path: Path) -> None:
    real = (DATA / "probe-cpu-2core-1.build.ninja").read_text(encoding="utf-8")
    assert count_ninja_units(real) == 1  # torch's file for the CPU-only probe
    windows = ("rule compile\n  command = cl\nrule cuda_compile\n  command = nvcc\n"
               "build C$:\\b\\build\\temp.win\\Release\\a.obj: compile C$:\\b\\a.cpp\n"
               "build C$:\\b\\build\\temp.win\\Release\\b.obj: cuda_compile C$:\\b\\b.cu\n"
               "build C$:\\b\\build\\temp.win\\Release\\c.obj: cuda_compile C$:\\b\\c.cu\n")
    assert count_ninja_units(windows) == 3
    source = tmp_path / "src"
    assert find_ninja_dir(source) is None
    folder = source / "build" / "temp.win-amd64-cpython-312" / "Release"
    folder.mkdir(parents=True)
    assert find_ninja_dir(source) is None  # no build.ninja yet
    (folder / "build.ninja").write_text(windows)
    assert find_ninja_dir(source) == folder


def test_ninja_log_reader_reads_only_this_builds_whole_lines(tmp_path: Path) -> None:
    log = tmp_path / ".ninja_log"
    log.write_text("# ninja log v7\n0\t5000\t0\t/s/build/temp.l/old.o\tab\n")  # an earlier build
    reader = NinjaLogReader(tmp_path)  # from the current end
    assert reader.poll() == []
    with open(log, "a") as fh:
        fh.write("0\t1500\t0\t/s/build/temp.l/a.o\tcd\n0\t26")  # the second line half written
    assert [u.name for u in reader.poll()] == ["a.o"]
    with open(log, "a") as fh:
        fh.write("00\t0\t/s/build/temp.l/b.o\tef\n")
    new = reader.poll()
    assert [(u.name, u.seconds) for u in new] == [("b.o", 2.6)]
    assert [u.name for u in reader.units] == ["a.o", "b.o"]
    assert [u.name for u in NinjaLogReader(tmp_path, offset=0).poll()][:1] == ["old.o"]


# -- the user's own builds --------------------------------------------------------------------


def _record(seconds: float, version: str = "1.0", archs: tuple[str, ...] = ("9.0",)) -> object:
    units = [UnitTime("a.o", 0.0, seconds), UnitTime("b.o", 0.0, seconds / 2)]
    return make_record(kernel="flashmla", version=version, archs=archs, jobs=2, nvcc_threads=1,
                       total_seconds=seconds + 12, ninja_started=10.0, units=units,
                       machine=HERE)


def test_history_is_kept_per_kernel_version_archs_and_machine(tmp_path: Path) -> None:
    file = tmp_path / "buildtimes.json"
    assert load_records(file) == []
    for seconds in (100.0, 110.0, 120.0, 130.0):
        save_record(_record(seconds), file)  # type: ignore[arg-type]
    save_record(_record(50.0, version="0.9"), file)  # type: ignore[arg-type]
    records = load_records(file)
    same = [r for r in records if r.version == "1.0"]
    assert len(same) == KEEP_PER_KEY  # the newest few of each key
    found = find_record("flashmla", "1.0", ("9.0",), records, HERE)
    assert found is not None and found.total_seconds == 142.0  # the newest
    assert found.setup_seconds == 10.0 and found.tail_seconds == pytest.approx(2.0)
    assert dict(found.units) == {"a.o": 130.0, "b.o": 65.0}
    assert find_record("flashmla", "1.0", ("8.0",), records, HERE) is None  # other archs
    assert find_record("flashmla", "1.0", ("9.0",), records, Machine("m2", "other")) is None
    assert not list(tmp_path.glob(".buildtimes.json.*"))  # no temporary file left behind


@pytest.mark.parametrize("content", ["", "{not json", '{"schema": "other"}',
                                     '{"schema": "ksw.buildtimes/1", "records": [{"x": 1}]}'])
def test_a_damaged_history_is_treated_as_none(tmp_path: Path, content: str) -> None:
    file = tmp_path / "buildtimes.json"
    file.write_text(content)
    assert load_records(file) == []
    save_record(_record(10.0), file)  # type: ignore[arg-type]  # and is replaced, whole
    assert json.loads(file.read_text())["schema"] == "ksw.buildtimes/1"


def test_the_estimate_prefers_the_users_own_last_build() -> None:
    catalog = load_catalog()
    recipe = catalog.get("probe")
    version = recipe.versions[0]
    cold = estimate_build(recipe, version, ["9.0"], 16, 125, OsName.LINUX)
    assert cold.history is None and cold.prior().source is PriorSource.RECIPE
    record = make_record(kernel="probe", version=version.label, archs=("9.0",), jobs=cold.jobs,
                         nvcc_threads=1, total_seconds=300.0, ninja_started=20.0,
                         units=[UnitTime("csrc/probe_attention.o", 0.0, 270.0)])
    warm = estimate_build(recipe, version, ["9.0"], 16, 125, OsName.LINUX, records=[record])
    assert warm.history == record and warm.seconds == pytest.approx(300.0)
    assert "your last build of it on this computer" in warm.explanation
    assert warm.prior().source is PriorSource.HISTORY


# -- words ----------------------------------------------------------------------------------------


def test_progress_is_worded_for_a_person() -> None:
    from kernel_wizard.build.run import ProgressEvent

    event = ProgressEvent(12, 73, 9 * 60 + 4, 250.0, Phase.COMPILE)
    assert progress_text(event) == "compile 12/73 units · 4 min 10 s elapsed · about 9 min left"
    setup = ProgressEvent(0, 0, 130.0, 8.0, Phase.SETUP)
    assert progress_text(setup) == "preparing · 8 s elapsed · about 2 min left"
    unknown = ProgressEvent(0, 0, None, 8.0, Phase.SETUP)
    assert progress_text(unknown) == "preparing · 8 s elapsed"
    assert time_left(4) == "a few seconds left"
    assert time_left(42) == "about 40 s left"
    assert time_left(2 * 3600 + 5 * 60) == "about 2 h 05 min left"
    assert time_left(100, overdue=True) == "about 2 min left (longer than estimated)"
    download = ProgressEvent(100, 400, 3.0, unit="KiB")
    assert progress_text(download) == "100/400 KiB · a few seconds left"
    units = (UnitTime("csrc/x/bwd.o", 0.0, 128.5), UnitTime("csrc/y.o", 0.0, 61.2))
    assert slowest_text(units, 24) == ["Slowest of the 24 compiled units:",
                                       "    2 min 08 s  csrc/x/bwd.o", "    1 min 01 s  csrc/y.o"]


def test_estimates_between_lines_give_what_one_estimate_at_the_end_gives() -> None:
    """The lines-only model is kept between looks (so that a flood of units costs the same per
    line at the 100,000th as at the first): looking after every line must not change it."""
    prior = Prior(total_seconds=600.0, jobs=8, unit_seconds=20.0, units=400, setup_seconds=5.0,
                  tail_seconds=3.0, longest_unit_seconds=60.0)
    looked, once = EtaEstimator(prior, 8), EtaEstimator(prior, 8)
    for est in (looked, once):
        est.start(0.0)
        est.ninja_start(5.0, 400)
    said = []
    for n in range(1, 301):
        at = 5.0 + n * 1.7 + (n % 7) * 0.3
        looked.unit_line(at, n, 400)
        once.unit_line(at, n, 400)
        said.append(looked.estimate(at + 0.1).remaining)
    final = once.estimate(5.0 + 300 * 1.7 + 0.4)
    again = looked.estimate(5.0 + 300 * 1.7 + 0.4)
    assert again.remaining == pytest.approx(final.remaining)
    assert again.done == final.done == 300
    assert all(s is not None for s in said)
