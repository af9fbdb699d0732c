"""How well the build-log diagnosis explains real failures (goals, on the held-out part:
first error >= 95 %, cause precision >= 97 %, cause recall >= 85 %).

    python benchmarks/diagnose_accuracy.py [--corpus DIR ...] [--rules FILE] [--split PART] [-v]
    python benchmarks/diagnose_accuracy.py --sets a b c d e f g --held-out h [-v]

``--sets`` prints one row per independent late set (``tests/data/logs/late-2026-11-28`` is
set ``a``, ``late-2026-11-28b`` set ``b``, ...): first error, cause precision, cause recall and
family, each set scored alone, then the studied sets together. ``--held-out`` names the sets a
round did not study (leave one set out): they get their own rows and total, the estimate of what
users will meet, and ``-v`` never lists their misses. Only the sets named are read, so a set
being gathered stays unseen.

Two corpora of real logs: ``tests/data/logs/real`` (53 logs the rules were first built from)
and ``tests/data/logs/field`` (336 logs from the threads of 87 projects, collected 2026-11-26
and, index-e.toml to index-g.toml, 2026-11-27; each file's line 1 the thread's URL). The
field corpus is split by thread (sha256 of the URL: 30 % held out); rules are built from the
training part only, and the held-out part is scored but its misses are never listed (``-v``
lists the training part's only). The held-out figure is the one that counts.

The corpus is real failing build logs from public issue threads (``tests/data/logs/real``), each
described in ``index.toml`` by the line a person should be shown first and the cause the thread
established (a signature id of ``failures.toml``, or "unknown"). For every log this feeds the log
line by line through :class:`LogDiagnoser` and compares:

- **first error**: the report's first error is exactly the expected line;
- **cause** (both measures): a label names a failures.toml id, a cause group or one of its
  variants; the wizard's cause is right when its group is the label, or the variant that named
  it is;
- **cause precision**: of the logs for which the wizard names a cause, the share where it is the
  right one (naming any cause for an "unknown" log is wrong);
- **cause recall**: of the logs whose cause is known, the share where the wizard names it
  (saying nothing counts as a miss);
- **family right**: the report's family (where the log stopped: ``environment``, ``resolve``,
  ``configure``, ``compile``, ``compiler-crash``, ``link``, ``package``, ``import``,
  ``first-use``) is the index entry's ``family``. The field corpus's families were derived
  from its ``stage`` (where the thread's log stopped) and, for a cause of the environment
  (a missing or wrong compiler, toolkit, PyTorch, Python or setting) or of the compiler
  itself, from its cause; they are data in the index files.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kernel_wizard.diagnose import LogDiagnoser, default_rules, load_rules  # noqa: E402

CORPUS = REPO / "tests" / "data" / "logs" / "real"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class CorpusLog:
    """One entry of the corpus index."""

    file: str
    source: str
    first_error: str
    cause: str
    os: str
    lang: str
    advice: str | None = None  # text the fix must contain (version-dependent advice)
    split: str = "train"  # "train" or "heldout" (by thread)
    project: str = ""
    stage: str = ""
    family: str = ""  # where it stopped: a family id of kernel_wizard.diagnose.families
    corpus: Path = CORPUS


@dataclass(frozen=True)
class LogResult:
    log: CorpusLog
    first_error: str | None  # what the wizard showed first
    cause: str | None  # the cause it named (None: it said it does not know)
    fix: str | None
    family: str | None = None  # the family it named (where the log stopped)
    signature: str | None = None  # the signature that named the cause (a variant of the group)

    @property
    def family_ok(self) -> bool:
        return self.family is not None and self.family == self.log.family

    @property
    def first_ok(self) -> bool:
        return self.first_error is not None and self.first_error.strip() == self.log.first_error

    @property
    def cause_ok(self) -> bool:
        # a label names a failures.toml id: a cause group, or one variant of it (a label that
        # names the variant is right only when that variant named it)
        return (self.cause or UNKNOWN) == self.log.cause or (
            self.signature is not None and self.signature == self.log.cause)


@dataclass(frozen=True)
class Scores:
    results: tuple[LogResult, ...]

    @property
    def first_error(self) -> float:
        return sum(r.first_ok for r in self.results) / len(self.results)

    @property
    def named(self) -> list[LogResult]:
        return [r for r in self.results if r.cause is not None]

    @property
    def precision(self) -> float:
        named = self.named
        return sum(r.cause_ok for r in named) / len(named) if named else 1.0

    @property
    def known(self) -> list[LogResult]:
        return [r for r in self.results if r.log.cause != UNKNOWN]

    @property
    def recall(self) -> float:
        known = self.known
        return sum(r.cause_ok for r in known) / len(known) if known else 1.0


    @property
    def family(self) -> float:
        return sum(r.family_ok for r in self.results) / len(self.results)


FIELD = REPO / "tests" / "data" / "logs" / "field"
CORPORA = (CORPUS, FIELD)
LOGS = REPO / "tests" / "data" / "logs"


def late_set(letter: str) -> Path:
    """The folder of an independent late set: ``a`` is ``late-2026-11-28``, ``b`` to ``j``
    add their letter to it, ``k`` and on are ``late-2026-11-29`` with their letter."""
    if len(letter) != 1 or not letter.isalpha():
        raise ValueError(f"a late set is one letter, not {letter!r}")
    letter = letter.lower()
    if letter == "a":
        return LOGS / "late-2026-11-28"
    return LOGS / (("late-2026-11-28" if letter <= "j" else "late-2026-11-29") + letter)


def per_set(letters: Sequence[str], rules_path: Path | None = None) -> dict[str, Scores]:
    """Each named late set scored alone (every log of a late set counts: none is held out of
    it by thread), then, under ``"all"``, all of them together."""
    scores = {letter: evaluate(late_set(letter), rules_path) for letter in letters}
    if letters:
        scores["all"] = Scores(tuple(r for letter in letters for r in scores[letter].results))
    return scores


def set_table(title: str, scores: dict[str, Scores]) -> None:
    """One row per set: logs, first error, precision (right/named), recall, family."""
    print(f"== {title}")
    print(f"{'set':<5}{'logs':>5}  {'first error':>11}  {'precision':>17}  {'recall':>15}  "
          f"{'family':>7}")
    for name, s in scores.items():
        right = sum(r.cause_ok for r in s.named)
        found = sum(r.cause_ok for r in s.known)
        print(f"{name:<5}{len(s.results):>5}  {s.first_error:>10.1%}  "
              f"{s.precision:>7.1%} ({right:>3}/{len(s.named):<3})  "
              f"{s.recall:>6.1%} ({found:>3}/{len(s.known):<3})  {s.family:>6.1%}")
    print()


def load_corpus(corpus: Path = CORPUS) -> list[CorpusLog]:
    """Every entry of the folder's index.toml and index-*.toml files."""
    logs: list[CorpusLog] = []
    for index in sorted(corpus.glob("index*.toml")):
        data = tomllib.loads(index.read_text(encoding="utf-8"))
        logs += [
            CorpusLog(
                file=entry["file"],
                source=entry["source"],
                first_error=entry["first_error"].strip(),
                cause=entry["cause"],
                os=entry["os"],
                lang=entry["lang"],
                advice=entry.get("advice"),
                split=entry.get("split", "train"),
                project=entry.get("project", ""),
                stage=entry.get("stage", ""),
                family=entry.get("family", ""),
                corpus=corpus,
            )
            for entry in data["log"]
        ]
    return logs


def log_lines(log: CorpusLog) -> list[str]:
    """The log as the wizard would read it: a field log's line 1 (its thread's URL) is not."""
    with (log.corpus / log.file).open(encoding="utf-8", errors="replace") as handle:
        lines = handle.readlines()
    if lines and lines[0].strip() == log.source:
        lines = lines[1:]
    return lines


def evaluate(corpus: Path | Sequence[Path] = CORPUS, rules_path: Path | None = None,
             split: str | None = None) -> Scores:
    """Scores over the corpora (``split``: only that part)."""
    rules = load_rules(rules_path) if rules_path is not None else default_rules()
    folders = [corpus] if isinstance(corpus, Path) else list(corpus)
    results: list[LogResult] = []
    for log in (entry for folder in folders for entry in load_corpus(folder)):
        if split is not None and log.split != split:
            continue
        diagnoser = LogDiagnoser(rules)
        for line in log_lines(log):
            diagnoser.feed(line)
        report = diagnoser.summary(failed=True)  # every corpus log is of a failed build
        first = report.first_error
        primary = report.primary
        results.append(
            LogResult(
                log=log,
                first_error=first.line if first is not None else None,
                cause=primary.cause_group if primary is not None else None,
                fix=primary.fix if primary is not None else None,
                family=report.family.id if report.family is not None else None,
                signature=primary.signature_id if primary is not None else None,
            )
        )
    return Scores(tuple(results))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, action="append",
                        help="a corpus folder (repeatable; default: tests/data/logs/real and "
                        "tests/data/logs/field)")
    parser.add_argument("--rules", type=Path, help="a failures.toml (default: the shipped one)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list every miss of the training part (never the held-out one)")
    parser.add_argument("--split", choices=("train", "heldout"),
                        help="score only that part (while tuning: train, so that the held-out "
                        "figure is seen once, at the end)")
    parser.add_argument("--sets", nargs="*", metavar="LETTER",
                        help="late sets studied (a = late-2026-11-28, b = late-2026-11-28b, "
                        "...): one row each")
    parser.add_argument("--held-out", nargs="*", default=[], metavar="LETTER",
                        help="late sets not studied (leave one set out): their own rows and "
                        "total, the estimate for unseen logs; -v never lists their misses")
    args = parser.parse_args(argv)
    if args.sets is not None or args.held_out:
        studied = per_set(args.sets or [], args.rules)
        if studied:
            set_table("STUDIED late sets (rules may have been built from these)", studied)
            if args.verbose:
                for letter in args.sets:
                    print(f"-- set {letter}")
                    report(studied[letter], verbose=True, summary=False)
                print()
        if args.held_out:
            set_table("HELD-OUT late sets (not studied: the estimate for unseen logs)",
                      per_set(args.held_out, args.rules))
        return 0
    corpora = args.corpus or list(CORPORA)
    for split, title in (("train", "TRAINING part (rules are built from these)"),
                         ("heldout", "HELD-OUT part (never tuned against: the figure that "
                          "counts)")):
        if args.split is not None and split != args.split:
            continue
        scores = evaluate(corpora, args.rules, split)
        print(f"== {title}")
        if scores.results:
            report(scores, verbose=args.verbose and split == "train")
        else:
            print("no logs")
        print()
    return 0


def report(scores: Scores, *, verbose: bool, summary: bool = True) -> None:
    results = scores.results
    if not summary:
        _misses(results)
        return
    langs = sorted({r.log.lang for r in results})
    print(
        f"corpus: {len(results)} logs ({sum(r.log.os == 'windows' for r in results)} Windows, "
        f"{sum(r.log.os == 'linux' for r in results)} Linux; languages {', '.join(langs)}), "
        f"{len(scores.known)} with a known cause"
    )
    print(f"{'measure':<18}{'value':>8}  {'count':>9}  goal")
    print(
        f"{'first error':<18}{scores.first_error:>8.1%}  "
        f"{sum(r.first_ok for r in results):>4}/{len(results):<4}  >= 95 %"
    )
    print(
        f"{'cause precision':<18}{scores.precision:>8.1%}  "
        f"{sum(r.cause_ok for r in scores.named):>4}/{len(scores.named):<4}  >= 97 %"
    )
    print(
        f"{'cause recall':<18}{scores.recall:>8.1%}  "
        f"{sum(r.cause_ok for r in scores.known):>4}/{len(scores.known):<4}  >= 85 %"
    )
    print(
        f"{'family right':<18}{scores.family:>8.1%}  "
        f"{sum(r.family_ok for r in results):>4}/{len(results):<4}  >= 95 %"
    )
    projects = sorted({r.log.project for r in results if r.log.project})
    if projects:
        print(f"projects: {len(projects)} ({', '.join(projects)})")
    if verbose:
        _misses(results)


def _misses(results: Sequence[LogResult]) -> None:
    for r in results:
        if not r.first_ok:
            print(f"- first error {r.log.file}: got {r.first_error!r}")
        if not r.cause_ok:
            print(f"- cause {r.log.file}: expected {r.log.cause}, got {r.cause or UNKNOWN}")
        if not r.family_ok:
            print(f"- family {r.log.file}: expected {r.log.family}, got {r.family}")


if __name__ == "__main__":
    sys.exit(main())
