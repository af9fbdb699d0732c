"""Progress and ETA through the real runner: a recorded FlashMLA build (24 units, 142 s on the
H100 device) replayed 40 times faster by a child process that writes ninja's build.ninja and
.ninja_log as the real build did; and the headless CLI's progress lines for it.

The ETA's accuracy is checked without the clock in tests/unit/test_eta_estimate.py (exact replays);
here what a person sees: the time from the start, the bar's total as soon as ninja starts, an
estimate from the first unit on, the slowest units, and the build remembered for next time.
"""

from __future__ import annotations

import io
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from eta_testsupport import replay

from kernel_wizard.build import run as build_module
from kernel_wizard.build.buildtimes import load_records
from kernel_wizard.build.eta import Phase, PriorSource
from kernel_wizard.build.plan import estimate_build
from kernel_wizard.build.run import BuildEvent, BuildOutcome, BuildStatus, ProgressEvent
from kernel_wizard.catalog import OsName, load_catalog
from kernel_wizard.cli.terminal import TerminalProgress

SPEED = 40.0


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replayed]:
    """One replay for the tests of this file, with its own wizard data folder. The runner
    looks at the build folder every second; 40 times faster: every 25 ms."""
    folder = tmp_path_factory.mktemp("replay")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build_module, "POLL_S", 1.0 / SPEED)
        patch.setenv("KSW_DATA_DIR", str(folder / "ksw-data"))
        outcome, events = replay(folder, SPEED)
        yield Replayed(outcome, events, folder / "ksw-data")


@dataclass
class Replayed:
    outcome: BuildOutcome
    events: list[BuildEvent]
    data: Path


def test_a_replayed_build_shows_time_units_and_eta_from_the_start(replayed: Replayed) -> None:
    outcome, events = replayed.outcome, replayed.events
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.hint
    progress = [e for e in events if isinstance(e, ProgressEvent)]

    first = progress[0]  # before pip has printed anything: elapsed and the recipe's estimate
    assert (first.done, first.total, first.phase) == (0, 0, Phase.SETUP)
    assert first.basis is PriorSource.RECIPE and first.eta_seconds is not None
    # ninja's build.ninja is seen before its first unit ends: a determinate bar at 0/24
    assert any(p.total == 24 and p.done == 0 and p.phase is Phase.COMPILE for p in progress)
    units = [p for p in progress if p.done]
    assert [p.done for p in units] == sorted(p.done for p in units)
    assert all(p.total == 24 and p.eta_seconds is not None for p in units)
    assert units[-1].done == 24
    elapsed = [p.elapsed_seconds for p in progress]
    assert elapsed == sorted(elapsed) and elapsed[-1] > 2.0  # 142 s / 40

    # the report names the slowest units, with ninja's times (the replay's: 40 times less)
    assert len(outcome.units) == 24
    assert [u.name.rsplit("/", 1)[-1] for u in outcome.slowest_units] == [
        "bf16.o", "fp16.o", "fmha_cutlass_bwd_sm100.o"]
    assert outcome.slowest_units[0].seconds == pytest.approx(127.76 / SPEED, abs=0.002)
    assert "# slowest units: csrc/sm90/decode/dense/instantiations/bf16.o 3.2 s" in \
        outcome.log_path.read_text(encoding="utf-8")

    # ... and it is remembered: the next estimate of it here is this build
    records = load_records(replayed.data / "buildtimes.json")
    assert [(r.kernel, len(r.units)) for r in records] == [("flashmla", 24)]
    recipe = load_catalog().get("flashmla")
    again = estimate_build(recipe, recipe.versions[0], ["9.0"], 16, 125, OsName.LINUX,
                           records=records)
    assert again.history == records[0]
    assert dict(again.history.units)["csrc/sm90/decode/dense/instantiations/bf16.o"] == \
        pytest.approx(127.76 / SPEED, abs=0.002)


PLAIN = re.compile(
    r"^  (preparing|compile \d+/24 units|link and package 24/24 units) · "
    r"(\d+ s|\d+ min \d\d s) elapsed"
    r"( · (a few seconds left|about \d+ (s|min) left)( \(longer than estimated\))?)?$")


def test_cli_progress_lines_are_few_and_well_formed_in_a_log(replayed: Replayed) -> None:
    """Not a terminal (a CI log, a file): one line per 10 % of the units, phase change or
    30 s — never one per event — each one the same shape."""
    outcome, events = replayed.outcome, replayed.events
    assert outcome.status is BuildStatus.SUCCEEDED
    out = io.StringIO()
    show = TerminalProgress(out, interactive=False)
    for event in events:
        show(event)
    show.close()
    lines = [line for line in out.getvalue().splitlines() if "elapsed" in line]
    progress_events = [e for e in events if isinstance(e, ProgressEvent)]
    assert len(progress_events) > 40  # a line for each would flood the log
    assert 5 <= len(lines) <= 16
    for line in lines:
        assert PLAIN.match(line), line
    assert lines[0].startswith("  preparing")
    assert any(line.startswith("  compile 0/24 units") for line in lines)
    assert any(re.match(r"  compile 1[234]/24 units", line) for line in lines)  # half-way
    assert lines[-1].startswith("  link and package 24/24 units")


def test_cli_progress_redraws_one_line_on_a_terminal(replayed: Replayed) -> None:
    outcome, events = replayed.outcome, replayed.events
    assert outcome.status is BuildStatus.SUCCEEDED
    out = io.StringIO()
    show = TerminalProgress(out, interactive=True)
    for event in events:
        show(event)
    drawn = out.getvalue()
    frames = [f for f in drawn.split("\r") if f.startswith("[")]
    assert len(frames) >= 24  # at least one per unit
    assert all("elapsed" in f for f in frames)
    assert all(re.search(r"\] (preparing|compile \d+/24 units|link and package 24/24 units) · "
                         r".* elapsed", f) for f in frames)
    assert any(re.search(r"\] compile 1\d/24 units · .* elapsed · .* left", f) for f in frames)


def test_an_earlier_build_in_the_same_folder_is_not_counted(tmp_path: Path) -> None:
    """A source folder built before keeps build/temp.*/ with an old build.ninja and an old
    .ninja_log (ninja appends): only this build's units are counted, named and remembered."""
    source = tmp_path / "FlashMLA" / "build" / "temp.replay"
    source.mkdir(parents=True)
    (source / "build.ninja").write_text("rule compile\nbuild old.o: compile old.cu\n")
    (source / ".ninja_log").write_text(f"# ninja log v7\n0\t999000\t0\t{source}/old.o\tab\n")
    past = time.time() - 3600
    os.utime(source / "build.ninja", (past, past))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build_module, "POLL_S", 0.01)
        patch.setenv("KSW_DATA_DIR", str(tmp_path / "ksw-data"))
        outcome, events = replay(tmp_path, 100.0)
    assert outcome.status is BuildStatus.SUCCEEDED
    assert len(outcome.units) == 24 and "old.o" not in {u.name for u in outcome.units}
    totals = {e.total for e in events if isinstance(e, ProgressEvent)}
    assert totals <= {0, 24}  # never the old build.ninja's one unit
