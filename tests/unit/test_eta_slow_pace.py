"""A first build's slowest units at the machine's pace (issue 29, item 4): the recipe's slowest
unit is a figure measured on the machine it was calibrated on (FlashMLA: 128 s on the H100
device). On another machine the slowest units run at about that machine's pace, which the
build's short units show early: FlashMLA on a lent H200 compiled its short units in 0.77 of
the H100's time and its slowest in 91-100 s; the ETA said 141 s at the start and never came
down from the H100's 128 s (0 of 100 moments within the goal) until it followed that pace."""

from __future__ import annotations

from types import ModuleType

import pytest
from eta_testsupport import accuracy_benchmark

import kernel_wizard.build.eta as eta_module
from kernel_wizard.base.durations import time_left
from kernel_wizard.build.eta import EtaEstimator

H200 = "flashmla-sm90-h200"  # 111 s on a lent H200 (16 cores), the recipe's 141 s
H100 = "flashmla-sm90-h100-pip"  # 142 s on the H100 device the recipe is calibrated on


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return accuracy_benchmark()


def _shown(bench: ModuleType, name: str, units_done: int) -> tuple[float, float, str]:
    """(the time left the ETA shows, the time really left, its words) just after the
    ``units_done``-th unit of the recorded build ended."""
    rec = {r.name: r for r in bench.load_index()}[name]
    build = bench.load_build(rec)
    at = build.unit_lines[units_done - 1][0] + 0.01
    est = EtaEstimator(bench.cold_prior(rec), rec.jobs)
    bench._feed(build, est, at, 1.0, {})
    eta = est.estimate(at)
    assert eta.done == units_done and eta.total == 24
    assert eta.remaining is not None
    return eta.remaining, build.end - at, time_left(eta.remaining)


def test_on_a_faster_machine_the_slowest_units_follow_its_pace(
        bench: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The H200 build: with 8 of its 24 units done (only short ones, 83 s left) the ETA is
    within a quarter of the time left, the recipe's figure for the slow units 35 % over; with
    20 done (the four slow units in flight, 46 s left) 55 s, the recipe's 76 s; with 21 done (the
    first slow unit ended after 91 s, 10 s left) "about 10 s left", where the H100's 128 s
    said "about 40 s left"."""
    early, early_really, _ = _shown(bench, H200, 8)
    assert abs(early - early_really) <= 0.25 * early_really, (early, early_really)
    left, really, _ = _shown(bench, H200, 20)
    assert 40 < really < 50
    assert abs(left - really) <= max(0.25 * really, 15.0), (left, really)
    last, last_really, words = _shown(bench, H200, 21)
    assert last_really < 15 and words == "about 10 s left", (last, last_really)
    monkeypatch.setattr(eta_module, "SLOW_TRANSFER", 0.0)  # the recipe's figure as it is
    recipe_early, _, _ = _shown(bench, H200, 8)
    assert recipe_early > 1.3 * early_really and early < recipe_early - 10
    recipe_left, _, _ = _shown(bench, H200, 20)
    assert recipe_left > 1.5 * really and left < recipe_left - 10
    _, _, recipe_words = _shown(bench, H200, 21)
    assert recipe_words == "about 40 s left"


def test_on_the_machine_the_recipe_was_measured_on_nothing_changes(bench: ModuleType) -> None:
    """The H100 build the recipe's 128 s comes from: its short units show the recipe's pace,
    so the slow units keep the recipe's time (20 of 24 done, 63 s left: about 1 min)."""
    left, really, words = _shown(bench, H100, 20)
    assert abs(left - really) <= 0.15 * really, (left, really)
    assert words == "about 1 min left"


def test_the_recorded_h200_build_meets_the_goal_throughout(bench: ModuleType) -> None:
    """From a quarter of its time to the end, every one of 100 moments within ±25 % of the
    time really left (or 15 s in the last seconds): 0 of 100 before the slow units followed
    the machine's pace."""
    rec = {r.name: r for r in bench.load_index()}[H200]
    result = bench.evaluate(bench.load_build(rec), bench.cold_prior(rec), "cold")
    assert result.grid_inside == len(result.grid) == 100


@pytest.mark.parametrize("slower", [1.25, 1.4])
def test_a_slower_machine_makes_the_slowest_units_slower(bench: ModuleType, slower: float,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The H100 build's units made 1.25 and 1.4 times as slow (a slower machine, made up from
    the recording): with 20 of 24 units done the ETA expects the slow units to run past the
    recipe's 128 s, as they do (160-180 s), and shows a time left within a quarter of the
    truth, where the recipe's figure would say half of it (1.25: 73 s of 80 s, the recipe's
    figure 47 s; 1.4: 74 s of 89 s, the recipe's 38 s)."""
    rec = {r.name: r for r in bench.load_index()}[H100]
    units = sorted(bench.load_build(rec).units, key=lambda u: u.start)
    build = bench.synthesize(rec, [[(u.name, slower * u.seconds) for u in units]], setup=12.0,
                             tail=2.5)
    at = build.unit_lines[19][0] + 0.01
    really = build.end - at

    def shown() -> float:
        est = EtaEstimator(bench.cold_prior(rec), rec.jobs)
        bench._feed(build, est, at, 1.0, {})
        eta = est.estimate(at)
        assert eta.done == 20 and eta.remaining is not None
        return eta.remaining

    left = shown()
    assert at - build.run_starts[0] + left > 128 + 10  # the slow units beyond the recipe's
    assert abs(left - really) <= 0.25 * really, (left, really)
    monkeypatch.setattr(eta_module, "SLOW_TRANSFER", 0.0)  # the recipe's figure as it is
    assert abs(left - really) < abs(shown() - really) - 10
