"""What users meet: each late set diagnosed by the rules as they stood *before* anyone studied
it, rebuilt from git history (issue 31).

    python benchmarks/diagnose_blind.py [--sets d e ...] [-v] [--json FILE]

Every late set was gathered by a helper that read neither the rules nor the diagnoser and was
scored once, with the rules frozen at a commit its ``SCORE.md`` names. That
score is the only honest figure for logs nobody here collected; the leave-one-set-out estimate
of ``diagnose_calibration.py --loso`` runs rules written *after* studying every set, and it
overstated blind precision by 12 to 31 points. This benchmark re-runs each blind score from the
commit it was frozen at (``git archive`` of that commit's tree without ``tests`` and ``docs``
into a temporary folder, run there in a child Python) against the set's labels as they are now,
and prints:

- one row per set and the pooled figures over all of them (the blind record: the figure a
  user can expect, not one any rule was fitted to);
- every wrong cause the frozen rules named, whether the label was a different cause or
  ``unknown`` (the thread never established one), and what the current rules say about the
  same log (``-v``: also the first-error and family misses).

The pooled record is the baseline a new round must beat on its *next* fresh set; it is never a
figure to tune against. Needs the git history (a clone, not an archive).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.diagnose_accuracy import UNKNOWN, evaluate, late_set  # noqa: E402

_FROZEN_AT = re.compile(r"rules frozen at ([0-9a-f]{7,40})\b")


def frozen_commits() -> dict[str, str]:
    """The commit each late set was scored blind at, read off its ``SCORE.md`` ("rules frozen
    at ..."), in set order; a set not yet scored has no SCORE.md and is not listed."""
    found: dict[str, str] = {}
    for letter in "abcdefghijklmnopqrstuvwxyz":
        score = late_set(letter) / "SCORE.md"
        if not score.is_file():
            continue
        match = _FROZEN_AT.search(score.read_text(encoding="utf-8"))
        if match is None:
            raise ValueError(f"{score} does not say which commit its rules were frozen at")
        found[letter] = match.group(1)
    return found


FROZEN = frozen_commits()

# Run inside the archived tree: its own benchmark reads the labels (today's index.toml, given
# by path) and its own rules diagnose each log; one JSON object per log on stdout. Written for
# every version of the benchmark since set d (``family`` came with the two levels).
_CHILD = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
import benchmarks.diagnose_accuracy as da
for log in da.load_corpus(Path(sys.argv[1])):
    diagnoser = da.LogDiagnoser(da.default_rules())
    for line in da.log_lines(log):
        diagnoser.feed(line)
    report = diagnoser.summary(failed=True)
    primary = report.primary
    family = getattr(report, "family", None)
    print(json.dumps({
        "file": log.file,
        "cause": primary.cause_group if primary is not None else None,
        "signature": getattr(primary, "signature_id", None) if primary is not None else None,
        "family": family.id if family is not None else None,
        "first_error": report.first_error.line if report.first_error is not None else None,
    }))
"""


@dataclass(frozen=True)
class BlindCall:
    """One log of a late set as the frozen rules saw it, beside its label."""

    set: str
    file: str
    os: str
    label_cause: str
    label_family: str
    label_first: str
    cause: str | None
    signature: str | None
    family: str | None
    first_error: str | None
    now: str | None = None  # the cause (variant) today's rules name for the same log
    now_ok: bool = False  # and whether it is the label

    @property
    def cause_ok(self) -> bool:
        return (self.cause or UNKNOWN) == self.label_cause or (
            self.signature is not None and self.signature == self.label_cause)

    @property
    def family_ok(self) -> bool:
        return self.family is not None and self.family == self.label_family

    @property
    def first_ok(self) -> bool:
        return self.first_error is not None and self.first_error.strip() == self.label_first


class HistoryMissing(RuntimeError):
    """The commit a set was frozen at is not in this checkout's history."""


def frozen_tree(commit: str, into: Path) -> Path:
    """The diagnoser, its rules and its benchmark as ``commit`` left them, under ``into`` (the
    commit's whole tree but its logs and documents: the core has moved since set a)."""
    archive = into / "tree.tar"
    listed = subprocess.run(["git", "-C", str(REPO), "ls-tree", "--name-only", commit],
                            capture_output=True, text=True, check=False)
    # the code and its data wherever that commit kept them (the core moved in the redesign),
    # without the logs and documents
    top = [name for name in listed.stdout.splitlines() if name not in {"tests", "docs"}]
    with archive.open("wb") as out:
        done = subprocess.run(
            ["git", "-C", str(REPO), "archive", "--format=tar", commit, *top],
            stdout=out, stderr=subprocess.PIPE, text=False, check=False)
    if listed.returncode != 0 or done.returncode != 0:
        raise HistoryMissing(
            f"commit {commit} is not in this checkout's history "
            f"({listed.stderr.strip()}); the blind record needs a "
            "full clone (git fetch --unshallow)")
    tree = into / "tree"
    tree.mkdir()
    with tarfile.open(archive) as tar:
        if sys.version_info >= (3, 12):
            tar.extractall(tree, filter="data")
        else:  # pragma: no cover - Python < 3.12
            tar.extractall(tree)  # noqa: S202 - our own git archive
    return tree


def blind_calls(letter: str) -> list[BlindCall]:
    """Set ``letter`` diagnosed by the rules frozen before it was scored, with today's labels
    and today's answer beside each log."""
    folder = late_set(letter)
    with tempfile.TemporaryDirectory(prefix=f"blind-{letter}-") as tmp:
        tree = frozen_tree(FROZEN[letter], Path(tmp))
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(folder)], cwd=tree, capture_output=True,
            text=True, check=False, env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin",
                                         "PYTHONIOENCODING": "utf-8"})
    if done.returncode != 0:
        raise RuntimeError(f"set {letter} at {FROZEN[letter]}: {done.stderr.strip()[-2000:]}")
    then = {row["file"]: row for row in map(json.loads, done.stdout.splitlines())}
    calls: list[BlindCall] = []
    for now in evaluate(folder).results:
        row = then[now.log.file]
        calls.append(BlindCall(
            set=letter, file=now.log.file, os=now.log.os, label_cause=now.log.cause,
            label_family=now.log.family, label_first=now.log.first_error,
            cause=row["cause"], signature=row["signature"], family=row["family"],
            first_error=row["first_error"], now=now.signature or now.cause,
            now_ok=now.cause_ok))
    return calls


@dataclass(frozen=True)
class Figures:
    logs: int
    first: int
    named: int
    right: int
    known: int
    found: int
    family: int

    @classmethod
    def of(cls, calls: Sequence[BlindCall]) -> Figures:
        named = [c for c in calls if c.cause is not None]
        known = [c for c in calls if c.label_cause != UNKNOWN]
        return cls(logs=len(calls), first=sum(c.first_ok for c in calls), named=len(named),
                   right=sum(c.cause_ok for c in named), known=len(known),
                   found=sum(c.cause_ok for c in known), family=sum(c.family_ok for c in calls))

    def row(self, name: str) -> str:
        def pct(part: int, whole: int) -> str:
            return f"{part / whole:6.1%}" if whole else "     —"
        return (f"{name:<5}{self.logs:>5}  {pct(self.first, self.logs):>11}  "
                f"{pct(self.right, self.named)} ({self.right:>3}/{self.named:<3})  "
                f"{pct(self.found, self.known)} ({self.found:>3}/{self.known:<3})  "
                f"{pct(self.family, self.logs):>7}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="*", default=list(FROZEN), metavar="LETTER",
                        help=f"late sets (default: every set scored blind, {' '.join(FROZEN)})")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also list the first-error and family misses")
    parser.add_argument("--json", type=Path, help="write every call to this file")
    args = parser.parse_args(argv)
    unknown = [s for s in args.sets if s not in FROZEN]
    if unknown:
        parser.error(f"no blind score recorded for set(s) {' '.join(unknown)}: "
                     f"known {' '.join(FROZEN)}")
    try:
        calls = {letter: blind_calls(letter) for letter in args.sets}
    except HistoryMissing as missing:
        print(f"error: {missing}", file=sys.stderr)
        return 2
    everything = [c for letter in args.sets for c in calls[letter]]
    print("== Each late set diagnosed by the rules frozen before it was scored (blind)")
    print(f"{'set':<5}{'logs':>5}  {'first error':>11}  {'precision':>17}  {'recall':>15}  "
          f"{'family':>7}")
    for letter in args.sets:
        print(Figures.of(calls[letter]).row(letter) + f"   rules {FROZEN[letter]}")
    print(Figures.of(everything).row("all"))
    wrong = [c for c in everything if c.cause is not None and not c.cause_ok]
    unlabelled = sum(c.label_cause == UNKNOWN for c in wrong)
    print(f"\n== {len(wrong)} wrong causes named blind: {unlabelled} where the thread "
          f"established none (label unknown), {len(wrong) - unlabelled} where it established "
          "another")
    for c in wrong:
        today = ("right: " if c.now_ok else "") + (c.now or "family only")
        print(f"- {c.set} {c.os:<8} {c.file}: named {c.signature or c.cause}, label "
              f"{c.label_cause}; today {today}")
    if args.verbose:
        for c in everything:
            if not c.first_ok:
                print(f"- first error {c.set}/{c.file}: got {c.first_error!r}")
            if not c.family_ok:
                print(f"- family {c.set}/{c.file}: expected {c.label_family}, got {c.family}")
    if args.json is not None:
        args.json.write_text(json.dumps([c.__dict__ for c in everything], indent=1) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
