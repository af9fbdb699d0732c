"""The calibration of the diagnosis's cause rules: for each pattern of failures.toml that named a
cause on a labelled log, how often the cause was right and how often wrong (issue 31; the project
lead's ruling: a specific cause is named only when its evidence has held up).

    python benchmarks/diagnose_calibration.py          # print the table
    python benchmarks/diagnose_calibration.py --write  # rewrite the calibration file
    python benchmarks/diagnose_calibration.py --check  # exit 1 when the file is not the table

The labelled logs studied: the training part of the corpus (``tests/data/logs/real`` and
``tests/data/logs/field``, split by thread; the held-out part is never read here) and the
independent late sets studied so far (``SETS``; a set still held out, or being gathered, is not
read). Each log is diagnosed with the calibration switched off (every pattern as it is written),
and the pattern that named the report's cause is credited with a right or a wrong call (naming
any cause for a log labelled "unknown" is wrong, as in benchmarks/diagnose_accuracy.py).

A pattern with a wrong call, in the corpus or a late set, is **demoted**: from then on it names
its cause only when a line of its signature's ``evidence`` (failures.toml) is in the log, and
otherwise the report names the family alone. The table is data
(``resources/diagnosis/calibration.toml``); tests/unit/test_diagnose_calibration.py recomputes it,
so it cannot drift from the rules and labels silently.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import diagnose_accuracy as accuracy  # noqa: E402

from kernel_wizard.diagnose import DiagnosisRules, LogDiagnoser, default_rules  # noqa: E402

CALIBRATION = REPO / "resources" / "diagnosis" / "calibration.toml"
# The late sets studied (a = late-2026-11-28, ...): set i is the held-out estimate of this round
# and set j is being gathered, so neither is read here
SETS = ("a", "b", "c", "d", "e", "f", "g", "h")


@dataclass
class Record:
    """One pattern's record: right and wrong calls in the corpus and in the late sets."""

    signature: str
    pattern: int  # its index in the signature's patterns; -1: named from the log's structure
    text: str
    corpus: list[int]  # [right, wrong]
    late: list[int]  # [right, wrong]

    @property
    def demoted(self) -> bool:
        return self.corpus[1] + self.late[1] > 0


def labelled_logs(sets: Sequence[str] = SETS) -> list[tuple[str, accuracy.CorpusLog]]:
    """("corpus" or "late", log) for every labelled log studied."""
    logs = [("corpus", log) for folder in accuracy.CORPORA for log in accuracy.load_corpus(folder)
            if log.split == "train"]
    logs += [("late", log) for letter in sets
             for log in accuracy.load_corpus(accuracy.late_set(letter))]
    return logs


def calibrate(rules: DiagnosisRules | None = None, sets: Sequence[str] = SETS
              ) -> list[Record]:
    """Every pattern's record, the calibration switched off (sorted by signature, pattern)."""
    raw = replace(rules if rules is not None else default_rules(), demoted=frozenset())
    records: dict[tuple[str, int], Record] = {}
    for where, log in labelled_logs(sets):
        diagnoser = LogDiagnoser(raw)
        for line in accuracy.log_lines(log):
            diagnoser.feed(line)
        primary = diagnoser.summary(failed=True).primary
        if primary is None:
            continue
        key = (primary.signature_id, primary.pattern)
        if key not in records:
            sig = raw.signature(primary.signature_id)
            text = sig.patterns[primary.pattern].pattern if primary.pattern >= 0 else ""
            records[key] = Record(primary.signature_id, primary.pattern, text, [0, 0], [0, 0])
        right = primary.cause_group == log.cause or primary.signature_id == log.cause
        tally = records[key].corpus if where == "corpus" else records[key].late
        tally[0 if right else 1] += 1
    return [records[k] for k in sorted(records)]


def _literal(text: str) -> str:
    """A TOML literal string holding ``text`` unchanged."""
    if "'''" in text:  # pragma: no cover - no pattern holds three quotes
        raise ValueError(f"a pattern with ''' can't be written: {text!r}")
    return f"'''{text}'''" if "'" in text or "\n" in text else f"'{text}'"


def render(records: Sequence[Record], sets: Sequence[str] = SETS) -> str:
    """The calibration file's text."""
    demoted = sum(r.demoted for r in records)
    lines = [
        "# The calibration of the diagnosis's cause rules (issue 31): for each pattern of",
        "# failures.toml that named a cause on a labelled log, its right and wrong calls.",
        "# Written by `python benchmarks/diagnose_calibration.py --write`; do not edit by hand",
        "# (tests/unit/test_diagnose_calibration.py recomputes it from the labelled logs).",
        "#",
        "# corpus = [right, wrong] on the training part of tests/data/logs/real and field",
        "# late   = [right, wrong] on the independent late sets studied (sets below)",
        "# demoted: a wrong call anywhere; the pattern then names its cause only when a line of",
        "#          its signature's `evidence` (failures.toml) is in the log, else the report",
        "#          names the family alone. pattern = -1: a cause named from the log's structure.",
        "",
        f"sets = [{', '.join(repr(s).replace(chr(39), chr(34)) for s in sets)}]",
        f"# {len(records)} patterns named a cause; {demoted} demoted",
        "",
    ]
    for r in records:
        lines += [
            "[[rule]]",
            f'signature = "{r.signature}"',
            f"pattern = {r.pattern}",
            f"text = {_literal(r.text)}",
            f"corpus = [{r.corpus[0]}, {r.corpus[1]}]",
            f"late = [{r.late[0]}, {r.late[1]}]",
            f"demoted = {'true' if r.demoted else 'false'}",
            "",
        ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help=f"rewrite {CALIBRATION.name}")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 when {CALIBRATION.name} is not the table recomputed")
    args = parser.parse_args(argv)
    records = calibrate()
    text = render(records)
    if args.write:
        CALIBRATION.write_text(text, encoding="utf-8")
    if args.check:
        same = CALIBRATION.is_file() and CALIBRATION.read_text(encoding="utf-8") == text
        print(f"{CALIBRATION.name}: {'up to date' if same else 'OUT OF DATE (--write)'}")
        return 0 if same else 1
    print(f"{'signature#pattern':<42}{'corpus':>10}{'late':>10}  demoted")
    for r in records:
        print(f"{r.signature + '#' + str(r.pattern):<42}{r.corpus[0]:>5}/{sum(r.corpus):<4}"
              f"{r.late[0]:>5}/{sum(r.late):<4}  {'yes' if r.demoted else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
