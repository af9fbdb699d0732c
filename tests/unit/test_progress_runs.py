"""Several ninja runs in one build (one per torch extension) on the terminal: which extension
compiles and the units of every extension so far; a build of one extension reads as before."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from kernel_wizard.build.eta import Eta, EtaEstimator, Phase, Prior
from kernel_wizard.build.plan import estimate_build
from kernel_wizard.build.progress_view import line_text as progress_text
from kernel_wizard.build.run import ProgressEvent
from kernel_wizard.catalog import OsName, load_catalog
from kernel_wizard.cli.terminal import TerminalProgress


def test_one_extension_reads_as_before() -> None:
    for run in (0, 1):
        event = ProgressEvent(12, 73, 9 * 60 + 4, 250.0, Phase.COMPILE, run=run)
        assert not event.several_runs
        assert progress_text(event) == \
            "compile 12/73 units · 4 min 10 s elapsed · about 9 min left"
    finish = ProgressEvent(73, 73, 3.0, 1520.0, Phase.FINISH, run=1)
    assert progress_text(finish) == "link and package 73/73 units · 25 min 20 s elapsed · " \
        "a few seconds left"


def test_several_extensions_say_which_one_compiles() -> None:
    second = ProgressEvent(5, 10, 200.0, 250.0, Phase.COMPILE, run=2)
    assert progress_text(second) == \
        "compile extension 2 · 5/10 units · 4 min 10 s elapsed · about 3 min left"
    # the estimate expects more extensions: the units are those known so far
    first = ProgressEvent(2, 2, 300.0, 60.0, Phase.COMPILE, run=1, more_expected=True)
    assert progress_text(first) == \
        "compile extension 1 · 2/2 units so far · 1 min 00 s elapsed · about 5 min left"
    last = ProgressEvent(14, 14, 4.0, 390.0, Phase.FINISH, run=4)
    assert progress_text(last) == \
        "link and package extension 4 · 14/14 units · 6 min 30 s elapsed · a few seconds left"


def test_plain_output_says_when_the_next_extension_starts() -> None:
    out = io.StringIO()
    terminal = TerminalProgress(out, interactive=False)
    terminal(ProgressEvent(2, 2, 60.0, 30.0, Phase.COMPILE, run=1))
    terminal(ProgressEvent(2, 10, 60.0, 31.0, Phase.COMPILE, run=2))  # same tenth: a new run
    lines = out.getvalue().splitlines()
    assert lines == ["  compile 2/2 units · 30 s elapsed · about 1 min left",
                     "  compile extension 2 · 2/10 units · 31 s elapsed · about 1 min left"]


def sage_prior(archs: tuple[str, ...] = ("9.0",), listed: bool = True) -> Prior:
    """The recipe's SageAttention 2 prior for these archs on the 16-core H100; ``listed``
    False: as a recipe that does not list its extensions (one run of its unit count)."""
    recipe = load_catalog().get("sageattention")
    version = next(v for v in recipe.versions if v.label.startswith("2.2.0"))
    if not listed:
        recipe = replace(recipe, build=replace(recipe.build, extension_list=(), extensions=1))
    return estimate_build(recipe, version, list(archs), 16, 125.0, OsName.LINUX).prior()


def after_the_first_extension(prior: Prior) -> Eta:
    """SageAttention 2 on the H100: the first extension's 2 units (of 14 in 4 extensions) have
    compiled; its link runs and the second extension's ninja has not started yet."""
    eta = EtaEstimator(prior, prior.jobs)
    eta.start(0.0)
    eta.ninja_start(11.0, 2)
    eta.unit_line(47.0, 1, 2)  # the bindings, 36 s
    eta.unit_line(211.0, 2, 2)  # the kernel, 200 s (as recorded)
    eta.confirm_last()  # the link's output came after it
    return eta.estimate(212.0)


def test_the_recipe_knows_each_targets_extensions_and_units() -> None:
    """SageAttention's setup.py builds _qattn_sm80 for every GPU, _qattn_sm89 for Ada, Hopper
    and Blackwell, _qattn_sm90 for Hopper and _fused always: an RTX 3090 compiles 4 units in 2
    runs, an RTX 4090 12 in 3, an H100 14 in 4 (recorded: 2 + 8 + 2 + 2)."""
    for archs, runs in ((("8.6",), (2, 2)), (("8.9",), (2, 8, 2)), (("9.0",), (2, 8, 2, 2)),
                        (("12.0",), (2, 8, 2)), (("8.6", "9.0"), (2, 8, 2, 2))):
        prior = sage_prior(archs)
        assert tuple(r.units for r in prior.run_plan) == runs, archs
        assert prior.units == sum(runs) and prior.runs == len(runs)
        # one extension after another: the compile is the sum of the runs, each bound by
        # its slowest unit, not the units spread over every job at once
        assert prior.compile_seconds == pytest.approx(sum(r.seconds for r in prior.run_plan))
        assert all(r.seconds == max(c for _, c in r.costs) for r in prior.run_plan)
    assert sage_prior(("9.0",)).total_seconds > 2 * sage_prior(("8.6",)).total_seconds / 1.5


def test_every_extensions_units_count_from_the_first_run_on() -> None:
    """The recipe lists the four extensions of an H100 build: the bar counts all 14 units from
    the start (before, 2 "so far", then 10, then 12, then 14), and after the first extension's
    2 units the other three extensions' time is still to come (not the link and wheel tail, 'a
    few seconds', until the second extension's ninja run began)."""
    prior = sage_prior()
    assert prior.runs == 4 and prior.units == 14
    eta = after_the_first_extension(prior)
    assert (eta.done, eta.total, eta.run, eta.more_expected) == (2, 14, 1, False)
    later = sum(r.seconds for r in prior.run_plan[1:])
    assert eta.remaining is not None and eta.remaining == pytest.approx(later + 5.0, rel=0.1)
    assert progress_text(ProgressEvent.of(eta)).startswith("compile 2/14 units · ")
    # a recipe that gives only its count of extensions: the units known so far, as before
    counted = load_catalog().get("sageattention3")
    assert counted.build.extensions == 2 and not counted.build.extension_list
    # one that gives neither: the recipe's count is the model's error
    single = after_the_first_extension(sage_prior(listed=False))
    assert not single.more_expected
    assert single.remaining is not None and single.remaining < 10.0
