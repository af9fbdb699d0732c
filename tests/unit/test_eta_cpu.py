"""The ETA from the CPU the build gets (issue 29): the CPU seconds the build's process tree has
received, sampled about once a second, and the share of the CPU it gets now say how long the
compile's remaining core-seconds take on a busy or slow machine, where a build of one unit has
no pace of its own to learn (the probe on a 2-core box: 23 s, 171 s, 351 s).
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build import run as build_run
from kernel_wizard.build.buildtimes import BuildRecord, Machine, make_record, prior_from_record
from kernel_wizard.build.eta import (
    CPU_WEIGHT,
    CPU_WINDOW,
    SPREAD_PRIOR,
    CpuTrack,
    EtaEstimator,
    Prior,
    UnitTime,
    _rest,
)
from kernel_wizard.build.plan import BuildPlan, make_plan
from kernel_wizard.build.run import BuildClock
from kernel_wizard.machine.platforms.proc_cpu import parse_stat, tree_cpu_seconds
from kernel_wizard.machine.platforms.windows import WindowsPlatform

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# one unit of 40 core-seconds, ninja starting at 5 s, 2 s of link and wheel after it
ONE_UNIT = Prior(total_seconds=47.0, jobs=1, unit_seconds=40.0, units=1, setup_seconds=5.0,
                 tail_seconds=2.0, compile_core_seconds=40.0)


def _one_unit_build(shares: list[tuple[float, float]], until: float,
                    prior: Prior = ONE_UNIT) -> EtaEstimator:
    """A build of one unit whose ninja starts at 5 s, the build getting ``shares`` of the CPU
    (from each time on: CPU seconds per second), sampled every second up to ``until``."""
    est = EtaEstimator(prior, jobs=1)
    est.start(0.0)
    est.ninja_start(5.0, total=1, seq=1)
    used, t = 0.0, 0.0
    while t <= until:
        est.cpu_sample(t, used)
        rate = [s for begun, s in shares if begun <= t][-1]
        used += rate
        t += 1.0
    return est


def test_cpu_track_never_goes_back_and_interpolates() -> None:
    track = CpuTrack()
    for at, used in [(0.0, 0.0), (1.0, 1.0), (2.0, 0.5), (3.0, 3.0), (3.0, 9.0)]:
        track.add(at, used)
    # a dip (a child reaped between two reads) is held at the last value; a repeated time is
    # dropped
    assert track.samples == [(0.0, 0.0), (1.0, 1.0), (2.0, 1.0), (3.0, 3.0)]
    assert track.at(2.5) == pytest.approx(2.0)
    assert track.at(-1.0) is None
    assert track.received(1.0, 3.0) == pytest.approx(2.0)
    assert track.share(3.0, since=0.0, window=10.0) == pytest.approx(1.0)
    assert track.share(3.0, since=2.0, window=10.0) is None  # one second: not yet a share


def test_a_one_unit_build_gets_half_the_cpu_midway_and_the_estimate_grows() -> None:
    """A unit of 200 core-seconds at a full core until 100 s (95 received), then at half a
    core: a minute later (the share's window) its rest takes twice as long as at a full core,
    and the time left grows with it."""
    prior = replace(ONE_UNIT, total_seconds=207.0, unit_seconds=200.0,
                    compile_core_seconds=200.0)
    at = 100.0 + CPU_WINDOW
    steady = _one_unit_build([(0.0, 1.0)], until=at, prior=prior).estimate(at)
    halved = _one_unit_build([(0.0, 1.0), (100.0, 0.5)], until=at, prior=prior).estimate(at)
    before = _one_unit_build([(0.0, 1.0)], until=100.0, prior=prior).estimate(100.0)
    assert steady.remaining is not None and halved.remaining is not None
    assert before.remaining is not None
    # at 100 s: 105 core-seconds left at a full core, and the link
    assert before.remaining == pytest.approx(_rest(200.0, 95.0, SPREAD_PRIOR) + 2.0, rel=0.05)
    # a minute later: at a full core 155 received; at half a core since 100 s, 125: what a
    # unit of 200 still needs given that (it may be longer than 200), at the share now
    assert steady.remaining == pytest.approx(_rest(200.0, 155.0, SPREAD_PRIOR) + 2.0, rel=0.05)
    assert halved.remaining == pytest.approx(2 * _rest(200.0, 125.0, SPREAD_PRIOR) + 2.0,
                                             rel=0.05)
    assert halved.remaining > before.remaining > steady.remaining
    assert halved.remaining > 2.0 * steady.remaining


def test_a_busy_machine_from_the_start_is_seen_at_once() -> None:
    """The prior says 40 s of compiling; the build gets a quarter of a core: 160 s. Without
    the CPU signal the estimate would follow the prior (it cannot know), with it the time left
    at 45 s (40 s of compiling, 10 core-seconds received) is about 120 s."""
    est = _one_unit_build([(0.0, 0.25)], until=45.0)
    eta = est.estimate(45.0)
    assert eta.remaining == pytest.approx(122.0, rel=0.15)
    blind = EtaEstimator(ONE_UNIT, jobs=1)
    blind.start(0.0)
    blind.ninja_start(5.0, total=1, seq=1)
    left = blind.estimate(45.0).remaining
    assert left is not None and left < 30.0


def test_without_samples_the_estimate_is_the_units_alone() -> None:
    """No samples (Windows, an old recording): the estimate is exactly what it was before,
    with core-seconds in the prior or without."""
    unknown = Prior(total_seconds=47.0, jobs=1, unit_seconds=40.0, units=1, setup_seconds=5.0,
                    tail_seconds=2.0)
    for prior in (ONE_UNIT, unknown):
        plain = EtaEstimator(prior, jobs=1)
        plain.start(0.0)
        plain.ninja_start(5.0, total=1, seq=1)
        left = plain.estimate(45.0).remaining
        assert left == pytest.approx(2.0 + _rest(40.0, 40.0, SPREAD_PRIOR))


def test_a_first_build_on_a_busy_machine_is_stretched_by_the_share_it_gets() -> None:
    """A first build (the prior from the recipe: 40 s of compiling, no core-seconds) whose one
    unit gets a quarter of a core: it takes four times as long. At 45 s (40 s of compiling,
    the work of 10 s done) about 30 s of the prior's compile are left, at a quarter of a core
    some 120 s, not the few seconds of the prior alone; on an idle machine (a whole core)
    the estimate is the prior's, as without samples."""
    unknown = Prior(total_seconds=47.0, jobs=1, unit_seconds=40.0, units=1, setup_seconds=5.0,
                    tail_seconds=2.0)
    busy = _one_unit_build([(0.0, 0.25)], until=45.0, prior=unknown).estimate(45.0).remaining
    assert busy == pytest.approx(2.0 + 4 * _rest(40.0, 10.0, SPREAD_PRIOR), rel=0.05)
    assert busy == pytest.approx(122.0, rel=0.15)
    idle = _one_unit_build([(0.0, 1.0)], until=45.0, prior=unknown).estimate(45.0).remaining
    plain = EtaEstimator(unknown, jobs=1)
    plain.start(0.0)
    plain.ninja_start(5.0, total=1, seq=1)
    assert idle == plain.estimate(45.0).remaining


def test_when_the_load_eases_off_the_estimate_falls_within_seconds() -> None:
    """A first build's unit at a quarter of a core for a minute, then a whole core: ten
    seconds later the time left is that of the work still to do at a whole core (the share of
    the last seconds, when higher than the minute's), not four times as much."""
    unknown = Prior(total_seconds=127.0, jobs=1, unit_seconds=120.0, units=1,
                    setup_seconds=5.0, tail_seconds=2.0)
    at = 5.0 + 60.0 + 12.0
    left = _one_unit_build([(0.0, 0.25), (65.0, 1.0)], until=at,
                           prior=unknown).estimate(at).remaining
    assert left is not None
    # about 15 + 12 s of the 120 s of work done: some 90 s left at a whole core
    assert left < 130.0
    loaded = _one_unit_build([(0.0, 0.25)], until=at, prior=unknown).estimate(at).remaining
    assert loaded is not None and loaded > 3 * left


def test_a_build_whose_processes_hardly_use_the_cpu_keeps_the_units_estimate() -> None:
    """A share far below any busy machine's (ccache hits, a compile server, a replayed
    build: the compiling is not done in the build's own processes) is no pace: the CPU signal
    is not used (else 40 core-seconds at 0.01 would be an hour)."""
    idle = _one_unit_build([(0.0, 0.01)], until=45.0).estimate(45.0).remaining
    blind = EtaEstimator(ONE_UNIT, jobs=1)
    blind.start(0.0)
    blind.ninja_start(5.0, total=1, seq=1)
    assert idle == blind.estimate(45.0).remaining


def test_many_finished_units_outweigh_the_cpu_signal() -> None:
    """Twenty units of 10 s finished, on 2 jobs: the units' pace says the rest; the CPU's
    estimate (its prior's core-seconds far too high) weighs 2/22 of it."""
    prior = Prior(total_seconds=130.0, jobs=2, unit_seconds=10.0, units=24, setup_seconds=5.0,
                  tail_seconds=2.0, compile_core_seconds=2400.0)
    est = EtaEstimator(prior, jobs=2)
    est.start(0.0)
    est.ninja_start(5.0, total=24, seq=1)
    for k in range(1, 21):
        est.unit_line(5.0 + 5.0 * k, k, 24, f"[{k}/24] c++ -c u{k}.cpp -o u{k}.o")
    units_only = est.estimate(106.0).remaining
    for t in range(0, 107):
        est.cpu_sample(float(t), 2.0 * max(0.0, t - 5.0))
    both = est.estimate(106.0).remaining
    assert units_only is not None and both is not None
    weight = CPU_WEIGHT / (CPU_WEIGHT + 20)
    assert both > units_only
    assert both - units_only < weight * 1200.0 + 1.0  # the CPU's share of the blend, no more


def test_the_record_keeps_the_compile_cpu_seconds_and_the_next_prior_uses_them(
        tmp_path: Path) -> None:
    record = make_record(kernel="probe", version="0.1.0", archs=(), jobs=2, nvcc_threads=1,
                         total_seconds=24.0, ninja_started=2.5,
                         units=[UnitTime("csrc/probe.o", 0.0, 20.6)],
                         machine=Machine("m", "this box"), compile_cpu_seconds=20.1)
    again = BuildRecord.from_json(record.to_json())
    assert again.compile_cpu_seconds == pytest.approx(20.1)
    assert prior_from_record(again, 2).compile_core_seconds == pytest.approx(20.1)
    old = record.to_json()
    old.pop("compile_cpu_seconds")  # a record written before the CPU was sampled
    assert BuildRecord.from_json(old).compile_cpu_seconds == 0.0


def test_stat_lines_parse_with_any_command_name() -> None:
    # utime 150, stime 50, cutime 300, cstime 100 ticks at 100 a second: 6 s
    line = "4242 (cc1plus (x) y) R 4241 4242 4242 0 -1 4194304 1 0 0 0 150 50 300 100 20 0 1"
    assert parse_stat(line, ticks=100) == (4241, pytest.approx(6.0))
    assert parse_stat("garbage", ticks=100) is None


def _burner(seconds: float) -> list[str]:
    """A shell that runs a Python burning CPU for ``seconds`` as its child, then sleeps: the
    child's CPU time is the shell's (cutime) once it has ended."""
    code = f"import time\nt = time.process_time()\nwhile time.process_time() - t < {seconds}: pass"
    return ["sh", "-c", f'"{sys.executable}" -c "{code}"; sleep 30']


@linux_only
def test_the_cpu_time_of_a_real_process_tree_is_read_from_proc() -> None:
    """A real child burning 0.6 s of CPU under a shell: while it runs its own time counts,
    once it has ended its parent's cutime does; the tree has received at least that."""
    proc = subprocess.Popen(_burner(0.6))
    try:
        seen: list[float] = []
        deadline = time.monotonic() + 20.0
        while time.monotonic() < deadline:
            used = tree_cpu_seconds(proc.pid)
            assert used is not None
            seen.append(used)
            if used >= 0.6:
                break
            time.sleep(0.05)
        assert seen[-1] >= 0.6
        time.sleep(0.3)  # the burner has ended and the shell has reaped it by now
        after = tree_cpu_seconds(proc.pid)
        assert after is not None and 0.6 <= after < 5.0
    finally:
        proc.kill()
        proc.wait()
    assert tree_cpu_seconds(proc.pid) is None  # gone


def _clock_plan(tmp_path: Path) -> BuildPlan:
    return make_plan(kernel="k", version="1", source_dir=tmp_path, python=Path("python"),
                     python_scripts=None, output_dir=tmp_path / "out",
                     log_path=tmp_path / "log", parallelism=Parallelism(1, 1, "test"))


@linux_only
def test_the_runner_samples_the_build_process_on_linux(tmp_path: Path) -> None:
    proc = subprocess.Popen(_burner(0.3))
    try:
        clock = BuildClock(_clock_plan(tmp_path))
        clock.watch(proc.pid)
        for _ in range(3):
            clock.tick()
            time.sleep(0.1)
        assert len(clock.estimator.cpu.samples) == 3
    finally:
        proc.kill()
        proc.wait()


def test_windows_falls_back_to_the_unit_model(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows does not measure the tree's CPU time (yet): the runner feeds no samples and
    the ETA is the unit-based one."""
    assert WindowsPlatform().tree_cpu_seconds(12345) is None
    monkeypatch.setattr(build_run, "current_platform", WindowsPlatform)
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        clock = BuildClock(_clock_plan(tmp_path))
        clock.watch(proc.pid)
        clock.tick()
        clock.tick()
        assert clock.estimator.cpu.samples == []
        assert clock.compile_cpu_seconds() == 0.0
    finally:
        proc.kill()
        proc.wait()


def _eight_units(share: float | None, at: float) -> float | None:
    """A first build of 8 units of 60 s on 8 jobs, ninja at 5 s, each unit's compiler
    getting ``share`` of a core (None: not sampled); the time left at ``at``."""
    prior = Prior(total_seconds=67.0, jobs=8, unit_seconds=60.0, units=8, setup_seconds=5.0,
                  tail_seconds=2.0)
    est = EtaEstimator(prior, jobs=8)
    est.start(0.0)
    est.ninja_start(5.0, total=8, seq=1)
    if share is not None:
        for t in range(int(at) + 1):
            est.cpu_sample(float(t), 0.2 * min(t, 5) + 8 * share * max(0.0, t - 5.0))
    return est.estimate(at).remaining


def test_units_that_get_their_cores_keep_the_estimate_and_half_a_core_doubles_it() -> None:
    """Eight units on eight jobs, none finished at 35 s: where each compiler gets its whole
    core (the share is the parallelism the plan expected), the time left is what it is without
    samples; where each gets half a core, the compile runs at half speed: the 30 s of the
    prior's 60 s done by now are 15, and what is left takes twice as long."""
    blind = _eight_units(None, 35.0)
    assert blind is not None
    assert _eight_units(1.0, 35.0) == blind
    halved = _eight_units(0.5, 35.0)
    assert halved is not None and halved == pytest.approx(
        2.0 + 2 * _rest(60.0, 15.0, SPREAD_PRIOR), rel=0.1)
    assert halved > 2 * blind
