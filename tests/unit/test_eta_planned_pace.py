"""The ETA of a build whose extensions are planned run by run (issue 29, item 4, the planned
path): a build slower than its plan (a machine whose cores other builds share) must not read as
nearly done, and must count every unit in flight past its planned time.

Before: SageAttention-like plan (run 1: a 200 s unit and a 36 s host unit), the host unit
ending after 130 s took the 130 s unit for the 200 s one at a fast pace and left the real
200 s unit, still running, as the 36 s one: the time left dropped by about 100 s at once.
"""

from __future__ import annotations

from kernel_wizard.build.eta import EtaEstimator, Prior, UnitTime, _rank_match, plan_run

JOBS = 16


def _prior() -> Prior:
    runs = (plan_run([("", 200.0), ("", 36.0)], JOBS),
            plan_run([("", 102.0)] * 7 + [("", 36.0)], JOBS),
            plan_run([("", 85.0), ("", 36.0)], JOBS))
    compile_s = sum(r.seconds for r in runs)
    return Prior(total_seconds=10.0 + compile_s + 5.0, jobs=JOBS, unit_seconds=80.0, units=12,
                 setup_seconds=10.0, tail_seconds=5.0, longest_unit_seconds=200.0, runs=3,
                 run_plan=runs)


def _in_run_one(host_end: float, now: float) -> EtaEstimator:
    est = EtaEstimator(_prior(), JOBS)
    est.start(0.0)
    est.ninja_start(10.0, total=2)
    est.unit_line(10.0 + host_end, 1, 2, "[1/2] c++ -c api.cpp -o /s/build/temp.x/api.o")
    est.log_units([UnitTime("api.o", 0.0, host_end)], 10.0 + host_end)
    return est


def test_a_slow_host_unit_is_the_host_unit_and_the_time_left_does_not_drop() -> None:
    before = _in_run_one(130.0, 139.0)
    # just before the host unit ended, at 139 s: nothing finished, the 200 s unit in flight
    fresh = EtaEstimator(_prior(), JOBS)
    fresh.start(0.0)
    fresh.ninja_start(10.0, total=2)
    left_before = fresh.estimate(139.0).remaining
    left_after = before.estimate(141.0).remaining
    assert left_before is not None and left_after is not None
    # the host unit took 3.6 times its plan: the build is slower, not nearly done
    assert left_after >= left_before - 2.0
    # the 200 s unit, 131 s old at a slower pace, has more than a minute left; runs 2 and 3 too
    assert left_after > 250.0


def test_the_rank_match_knows_a_unit_in_flight_is_longer_than_one_that_ended() -> None:
    assert _rank_match([130.0], [36.0, 200.0]) == [1]  # alone: the nearer planned time
    assert _rank_match([130.0], [36.0, 200.0], [131.0]) == [0]  # the longer one runs on
    # a unit in flight younger than it changes nothing
    assert _rank_match([130.0], [36.0, 200.0], [20.0]) == [1]


def test_every_unit_in_flight_past_its_plan_slows_the_pace() -> None:
    est = EtaEstimator(_prior(), JOBS)
    est.start(0.0)
    est.ninja_start(10.0, total=2)
    est.unit_line(46.0, 1, 2, "[1/2] c++ -c api.cpp -o /s/build/temp.x/api.o")
    est.log_units([UnitTime("api.o", 0.0, 36.0)], 46.0)
    est.unit_line(210.0, 2, 2, "[2/2] nvcc -c a.cu -o /s/build/temp.x/a.o")
    est.log_units([UnitTime("a.o", 0.0, 200.0)], 210.0)
    # run 2 starts at 211 s; its host unit ends as planned, its seven 102 s units run on
    est.ninja_start(211.0, total=8, seq=2)
    est.unit_line(247.0, 1, 8, "[1/8] c++ -c api2.cpp -o /s/build/temp.x/api2.o")
    est.log_units([UnitTime("api2.o", 0.0, 36.0)], 247.0)
    # at 361 s the seven units are 150 s old, 1.5 times their plan: each of them says the
    # build runs slower than planned, so run 3 (85 s planned) is not taken at the plan's pace
    eta = est.estimate(361.0)
    assert eta.remaining is not None
    assert eta.remaining > 5.0 + 85.0 * 1.15
