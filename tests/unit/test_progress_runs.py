"""Several ninja runs in one build (one per torch extension) on the terminal: which extension
compiles and the units of every extension so far; a build of one extension reads as before."""

from __future__ import annotations

import io
from dataclasses import replace

from build_backend.build import ProgressEvent
from build_backend.catalog import OsName, load_catalog
from build_backend.eta import Eta, EtaEstimator, Phase, Prior
from build_backend.plan import estimate_build
from build_backend.terminal import TerminalProgress, progress_text


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


def sage_prior(extensions: int) -> Prior:
    recipe = load_catalog().get("sageattention")
    version = next(v for v in recipe.versions if v.label.startswith("2.2.0"))
    recipe = replace(recipe, build=replace(recipe.build, extensions=extensions))
    return estimate_build(recipe, version, ["9.0"], 16, 125.0, OsName.LINUX).prior()


def after_the_first_extension(prior: Prior) -> Eta:
    """SageAttention 2 on the H100: the first extension's 2 units (of 14 in 4 extensions) have
    compiled; its link runs and the second extension's ninja has not started yet."""
    eta = EtaEstimator(prior, prior.jobs)
    eta.start(0.0)
    eta.ninja_start(20.0, 2)
    eta.unit_line(40.0, 1, 2)
    eta.unit_line(60.0, 2, 2)
    eta.confirm_last()  # the link's output came after it
    return eta.estimate(62.0)


def test_a_recipe_of_several_extensions_expects_their_units_from_the_first_run_on() -> None:
    """The recipe says four extensions: after the first one's 2 units, the other 12 or so are
    still to come (before, the estimate fell to the link and wheel tail, 'a few seconds', until
    the second extension's ninja run began)."""
    prior = sage_prior(4)
    assert prior.runs == 4 and prior.units is not None and prior.units > 2
    eta = after_the_first_extension(prior)
    assert eta.more_expected and eta.run == 1
    assert eta.remaining is not None and eta.remaining > 60.0
    event = ProgressEvent.of(eta)
    assert progress_text(event).startswith("compile extension 1 · 2/2 units so far · ")
    # a recipe of one extension: the recipe's count is the model's error, as before
    single = after_the_first_extension(sage_prior(1))
    assert not single.more_expected
    assert single.remaining is not None and single.remaining < 10.0
    assert load_catalog().get("sageattention").build.extensions == 4
