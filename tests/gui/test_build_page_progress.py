"""The Build page's progress: the events of a real recorded build (FlashMLA, 24 units,
replayed by the runner 40 times faster) fed to the page as the worker hands them over —
the bar is busy until ninja says how many units there are, then counts them; the label
shows the time elapsed and the time left from the start; the slowest units are named."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from eta_testsupport import replay

from app.pages.build import BuildPage
from kernel_wizard.build import run as build_module
from kernel_wizard.build.eta import Phase
from kernel_wizard.build.run import (
    BuildEvent,
    BuildOutcome,
    BuildStatus,
    LogLine,
    ProgressEvent,
)

SPEED = 40.0


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BuildOutcome,
                                                                          list[BuildEvent]]]:
    folder = tmp_path_factory.mktemp("replay")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build_module, "POLL_S", 1.0 / SPEED)
        patch.setenv("KSW_DATA_DIR", str(folder / "ksw-data"))
        yield replay(folder, SPEED)


def test_bar_and_label_follow_a_real_build(qtbot: Any, replayed: tuple[BuildOutcome,
                                                                         list[BuildEvent]]
                                           ) -> None:
    outcome, events = replayed
    assert outcome.status is BuildStatus.SUCCEEDED
    page = BuildPage()
    qtbot.addWidget(page)
    seen: dict[str, tuple[int, int, str, str]] = {}
    for event in events:
        if isinstance(event, LogLine):
            continue
        if isinstance(event, ProgressEvent):
            page.show_progress(event)
            state = (page.progress.minimum(), page.progress.maximum(), page.progress.text(),
                     page.eta.text())
            if event.phase is Phase.SETUP:
                seen.setdefault("setup", state)
            elif event.total and event.done == 0:
                seen.setdefault("ninja started", state)
            elif event.done == 12:
                seen.setdefault("half", state)
        else:
            page._on_event(event)
    assert set(seen) == {"setup", "ninja started", "half"}
    low, high, _text, label = seen["setup"]
    assert (low, high) == (0, 0)  # busy: how many units is not known yet
    assert label.startswith("preparing · 0 s elapsed · ")
    assert seen["ninja started"][1:3] == (24, "0 / 24 units")  # determinate from ninja's start
    assert " elapsed · " in seen["ninja started"][3] and "left" in seen["ninja started"][3]
    assert seen["half"][1:3] == (24, "12 / 24 units")
    assert seen["half"][3].endswith("left") or seen["half"][3].endswith("estimated)")

    page._on_finished(outcome)
    assert page.eta.text().startswith("took ")
    # a sentence leads; the wheel's file name comes under it, then the slowest units and the log
    assert "is built and ready to be verified." in page.banner.title.text()
    assert page.banner.hint.text().startswith(
        "Wheel: replayed-0.1-cp312-cp312-linux_x86_64.whl\n"
        "Slowest to compile: bf16.o 3 s, fp16.o 3 s, fmha_cutlass_bwd_sm100.o 3 s\nLog: ")


def test_label_words(qtbot: Any) -> None:
    page = BuildPage()
    qtbot.addWidget(page)
    page.show_progress(ProgressEvent(12, 73, 9 * 60 + 4, 250.0, Phase.COMPILE))
    assert page.eta.text() == "4 min 10 s elapsed · about 9 min left"
    assert page.progress.text() == "12 / 73 units"
    page.show_progress(ProgressEvent(73, 73, 3.0, 1520.0, Phase.FINISH, overdue=True))
    assert page.eta.text() == ("packaging · 25 min 20 s elapsed · a few seconds left "
                               "(longer than estimated)")
    page.show_progress(ProgressEvent(0, 0, None, 5.0, Phase.SETUP))  # nothing to go by
    assert page.eta.text() == "preparing · 5 s elapsed"
    assert page.progress.maximum() == 0
    page.show_progress(ProgressEvent(512, 2048, 4.0, unit="KiB"))  # a prebuilt wheel
    assert page.progress.text() == "512 / 2048 KiB"
    assert page.eta.text() == "a few seconds left"
