"""Build-log diagnosis: known failure signatures → cause, fix and an automatic retry.

The known failures live in ``resources/diagnosis/failures.toml`` (one entry per row of
``shared/knowledge/failures.md``); adding one is a data edit. :func:`load_rules` reads and
validates that file once and compiles every pattern; a broken entry raises
:class:`~kernel_wizard.base.errors.DiagnosisDataError` naming the file and the entry.

:class:`LogDiagnoser` is fed the build log one line at a time while the build runs::

    diagnoser = LogDiagnoser()
    for line in build_output:
        for hit in diagnoser.feed(line):   # only new hits, each signature at most once
            show(hit)
    report = diagnoser.summary()           # hits, the first real error, a suggested retry

It keeps memory bounded: it never stores the log, only a small ring of recent lines (context
for the first error) and at most one hit per signature. Besides the signatures it finds the
**first real error**: the first line that looks like a compiler, linker (GNU ``ld``,
``collect2``, MSVC ``LNK``), shell or Python error, skipping lines known to be harmless
(``[[ignore]]``, e.g. git's ``pathspec 'csrc/cutlass'`` message in FlashMLA logs) and wrapper
lines that only say that something above failed (``[[wrapper]]``, e.g. ``ninja: build stopped:
subcommand failed``). A Python traceback's header and frames are never the first error; its
exception line is.

Some causes are printed as warnings (PyTorch reports a missing ``cl.exe`` as ``UserWarning:
Error checking compiler version for cl``). Such a warning is remembered and becomes the headline
when nothing after it explains the failure (no error at all, or only a Python exception without
a known cause). Advice can depend on versions the log shows: the "Visual Studio too new" advice
names the MSVC toolsets that the CUDA version in the log accepts.

Two levels (issue 31): every failed log gets a **family** (``DiagnosisReport.family``, from
:mod:`.families`): where it stopped (prerequisites and environment, resolving or downloading,
configuring, compiling, the compiler crashing, linking, packaging, importing, first use), with a
next step right for the family. A **specific cause** (``DiagnosisReport.primary``) is added only
when a signature's evidence is unambiguous; otherwise ``primary`` is None and the report says
that the cause is not one the wizard knows, where it stopped and what that usually means.
Signatures of one kind of cause form a **cause group** (``Diagnosis.cause_group``).

**Precision first** (issue 31, the project lead's ruling): a specific cause is named only when
its evidence has held up. ``resources/diagnosis/calibration.toml`` records, for each pattern that
named a cause on a labelled log (the corpus's training part and the late sets studied), its right
and wrong calls; a pattern with a wrong call is *demoted*: it names its cause only when a line of
its signature's ``evidence`` is in the log ("Killed" is out of memory only beside the kernel's
OOM killer or "out of memory"), else the report names the family alone (its first error, its
family and a harmless retry stay). ``benchmarks/diagnose_calibration.py --write`` recomputes the
table; ``tests/unit/test_diagnose_calibration.py`` fails when it has drifted.

The package: :mod:`.rules` (the failures file: loading, validation, the prefilter),
:mod:`.facts` (versions and OS read off the log, advice that depends on them),
:mod:`.matcher` (the streaming matcher and its report), :mod:`.families` (the stage a log
stopped at).
"""

from __future__ import annotations

from kernel_wizard.diagnose.facts import LogFacts, msvc_bound_for_cuda, read_facts
from kernel_wizard.diagnose.families import FAMILIES, FAMILY_IDS, Family, family_of
from kernel_wizard.diagnose.matcher import (
    DEFAULT_AFTER_LINES,
    DEFAULT_CONTEXT_LINES,
    MAX_LINE_CHARS,
    Diagnosis,
    DiagnosisReport,
    FirstError,
    LogDiagnoser,
    diagnose_file,
    diagnose_lines,
)
from kernel_wizard.diagnose.rules import (
    SCHEMA_VERSION,
    DiagnosisRules,
    FailureSignature,
    LineRule,
    RetryAction,
    Severity,
    default_rules,
    load_rules,
    required_literal,
)

__all__ = [
    "DEFAULT_AFTER_LINES",
    "DEFAULT_CONTEXT_LINES",
    "MAX_LINE_CHARS",
    "SCHEMA_VERSION",
    "Diagnosis",
    "DiagnosisReport",
    "DiagnosisRules",
    "FAMILIES",
    "FAMILY_IDS",
    "Family",
    "FailureSignature",
    "FirstError",
    "LineRule",
    "LogDiagnoser",
    "LogFacts",
    "RetryAction",
    "Severity",
    "default_rules",
    "diagnose_file",
    "diagnose_lines",
    "family_of",
    "load_rules",
    "msvc_bound_for_cuda",
    "read_facts",
    "required_literal",
]
