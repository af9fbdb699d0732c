"""The blind record (benchmarks/diagnose_blind.py): each late set diagnosed again by the rules
frozen before it was scored, rebuilt from git history. A maintainer reads it as the figure users
meet; it must reproduce what each set's SCORE.md reported when it was scored once."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks import diagnose_blind  # noqa: E402
from benchmarks.diagnose_accuracy import late_set  # noqa: E402


def _in_history(commit: str) -> bool:
    done = subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{commit}^{{commit}}"],
                          capture_output=True, check=False)
    return done.returncode == 0


def test_every_scored_set_names_the_commit_its_rules_were_frozen_at() -> None:
    frozen = diagnose_blind.frozen_commits()
    scored = sorted(p.parent for p in (REPO / "tests/data/logs").glob("late-*/SCORE.md"))
    assert len(frozen) == len(scored) >= 12
    assert [late_set(letter) for letter in frozen] == scored
    assert frozen["l"] == "4d0109e"


def _score_md_counts(letter: str) -> dict[str, tuple[int, int]]:
    text = (late_set(letter) / "SCORE.md").read_text(encoding="utf-8")
    counts = {}
    for name in ("first error", "cause precision", "cause recall"):
        found = re.search(rf"^{name}\s+[\d.]+%\s+(\d+)/(\d+)", text, re.MULTILINE)
        assert found is not None, name
        counts[name] = (int(found.group(1)), int(found.group(2)))
    return counts


@pytest.mark.parametrize("letter", ["k", "l"])
def test_a_blind_score_is_reproduced_from_the_commit_it_was_frozen_at(letter: str) -> None:
    commit = diagnose_blind.frozen_commits()[letter]
    if not _in_history(commit):
        pytest.skip(f"commit {commit} is not in this checkout (a shallow clone)")
    figures = diagnose_blind.Figures.of(diagnose_blind.blind_calls(letter))
    reported = _score_md_counts(letter)
    assert (figures.first, figures.logs) == reported["first error"]
    assert (figures.right, figures.named) == reported["cause precision"]
    assert (figures.found, figures.known) == reported["cause recall"]


def test_the_frozen_rules_are_not_todays(tmp_path: Path) -> None:
    """Set l's blind run named causes today's rules no longer name (it is not today's score
    relabelled): the three macOS and Windows DLL calls it got wrong are right today."""
    commit = diagnose_blind.frozen_commits()["l"]
    if not _in_history(commit):
        pytest.skip(f"commit {commit} is not in this checkout (a shallow clone)")
    calls = {c.file: c for c in diagnose_blind.blind_calls("l")}
    mac = calls["textgen-3760-macos-exllamav2-egg-info-cuda-home.log"]
    assert (mac.cause, mac.cause_ok) == ("cuda-home-not-set", False)
    assert (mac.now, mac.now_ok) == ("platform-unsupported", True)


def test_a_missing_commit_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(diagnose_blind.HistoryMissing, match="full clone"):
        diagnose_blind.frozen_tree("0" * 40, tmp_path)
