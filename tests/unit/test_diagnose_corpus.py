"""The field corpus of real failing logs (tests/data/logs/field, issue 21) is what it claims to
be, and the diagnosis keeps its measured figures on both parts.

The corpus: 336 logs from the public threads of 87 projects that build CUDA/C++ extensions for
PyTorch, Windows and Linux, several languages, failures at build, import and first use; each
file's line 1 is its thread's URL; split by thread (sha256 of the URL) into a training part the
rules were built from and a held-out part (about 30 %) they were never tuned against. The logs
of index-e.toml, index-f.toml and index-g.toml were labelled from their threads, their split
the URL's. The floors
below are the figures measured when the families were last widened
(benchmarks/diagnose_accuracy.py prints them): a change that loses ground on either part fails
here.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest
from test_diagnose import _accuracy_module

from kernel_wizard.diagnose import LogDiagnoser

REPO = Path(__file__).resolve().parents[2]
FIELD = REPO / "tests" / "data" / "logs" / "field"


ACCURACY = _accuracy_module()  # benchmarks/diagnose_accuracy.py
LOGS = ACCURACY.load_corpus(FIELD)


def test_the_field_corpus_is_large_varied_and_split_by_thread() -> None:
    assert len(LOGS) >= 330
    assert len({log.project for log in LOGS}) >= 10
    assert {"windows", "linux"} <= {log.os for log in LOGS}
    assert sum(log.os == "windows" for log in LOGS) >= len(LOGS) // 4
    assert len({log.lang for log in LOGS} - {"en"}) >= 3  # localized compilers and systems
    assert sum(log.stage in ("import", "first-use") for log in LOGS) >= 20
    held = [log for log in LOGS if log.split == "heldout"]
    assert len(held) >= 0.25 * len(LOGS)
    by_thread: dict[str, set[str]] = {}
    for log in LOGS:
        by_thread.setdefault(log.source, set()).add(log.split)
        expected = ("heldout" if int(hashlib.sha256(log.source.encode()).hexdigest(), 16) % 10 < 3
                    else "train")
        assert log.split == expected, log.file  # the split is the URL's, not a choice
    assert all(len(splits) == 1 for splits in by_thread.values())


@pytest.mark.parametrize("log", LOGS, ids=lambda log: log.file)
def test_each_field_log_names_its_thread_and_holds_its_first_error(log: object) -> None:
    path = FIELD / log.file  # type: ignore[attr-defined]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == log.source  # type: ignore[attr-defined]
    assert log.source.startswith("https://")  # type: ignore[attr-defined]
    assert log.first_error in [line.strip() for line in lines[1:]]  # type: ignore[attr-defined]


def test_no_field_log_crashes_the_diagnoser_or_takes_a_second() -> None:
    for log in LOGS:
        diagnoser = LogDiagnoser()
        started = time.process_time()  # (this process's CPU: a busy machine must not fail it)
        for line in ACCURACY.log_lines(log):
            diagnoser.feed(line)
        diagnoser.summary(failed=True)
        assert time.process_time() - started < 1.0, log.file


@pytest.mark.parametrize(("split", "first", "precision", "recall"), [
    # 97.9 / 99.6 / 89.1 % on 291 logs (a symptom of several causes names the family alone:
    # precision over recall, issue 31's late sets; late set d: "no kernel image" and Windows'
    # "procedure not found" named only on evidence)
    # after the calibration (resources/diagnosis/calibration.toml, the project lead's ruling 1:
    # a pattern that named a wrong cause on a labelled log names it only with evidence): 99.0 /
    # 100.0 / 84.6 %, 226 of 226; recall gate lowered for it (13 right causes now the family
    # alone: "Killed", signal 9, undefined torch symbols in source trees, ...)
    ("train", 0.97, 0.99, 0.84),
    # measured once after collector g's logs (index-g.toml) and the precision fixes of round 2:
    # 96.9 / 97.4 / 88.1 % on 97 logs (20 of them new); reported as is, not tuned against
    # after issue 31's gate on symptoms of several causes (round 3): recall 84.5 %, measured, not
    # tuned against; after late set d's gates (round 4): 96.9 / 98.5 / 79.8 %, 67 of 68 named
    # causes right (71 of 72 before: the same one wrong, 4 right ones now the family alone),
    # measured once, not tuned against; after late set f's precision round: 96.9 / 98.5 /
    # 78.6 %, 66 of 67 named causes right (the same one wrong; one right cause now the family
    # alone), family 88.7 %, measured once, not tuned against
    # after the calibration: 96.9 / 98.4 / 71.4 %, 60 of 61 named causes right (the same one
    # wrong; 6 right ones now the family alone), family 90.7 %; measured once, not tuned against
    ("heldout", 0.96, 0.97, 0.71),
])
def test_the_diagnosis_keeps_its_measured_figures(split: str, first: float, precision: float,
                                                  recall: float) -> None:
    scores = ACCURACY.evaluate(list(ACCURACY.CORPORA), None, split)
    assert scores.first_error >= first
    assert scores.precision >= precision
    assert scores.recall >= recall
