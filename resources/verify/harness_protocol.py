"""What the verification harness and the wizard that runs it agree on, in one place.

Both sides read this file: the harness imports it (``verify_kernel.py``, ``harness_common``,
the progress lines of ``harness_io``), and the wizard loads it by its path
(``kernel_wizard/verify/protocol.py``), so that the markers around the report, the report's
schema, the progress lines, the exit codes and the adapter list cannot drift apart.

* The report (a JSON object, schema :data:`SCHEMA`) is written to ``--out`` and printed
  between a line :data:`BEGIN` and a line :data:`END`; what is printed outside the markers is
  the harness's log.
* Progress lines start with :data:`PROGRESS`; ``case N/M: NAME`` starts a check and
  ``result NAME: STATUS ...`` ends it (:func:`case_line`, :func:`result_line`).
* Exit codes: :data:`EXIT_CODES` by the report's status, :data:`EXIT_USAGE` for a bad command
  line.
* The adapters are the modules of the ``adapters/`` folder next to this file (one per kernel
  family, ``<name>.py`` with ``run(h)``), plus those of each folder given with
  :data:`ADAPTER_PATH_OPTION` (:func:`adapter_names`): there is no list of them elsewhere.

Standard library only; run by the *target* interpreter too: keep the syntax compatible with
Python 3.9.
"""

from __future__ import annotations

import os
import re

SCHEMA = "ksw.verify/1"
BEGIN = "@@KSW-VERIFY-BEGIN@@"
END = "@@KSW-VERIFY-END@@"
PROGRESS = "[ksw-verify] "

EXIT_CODES = {"pass": 0, "fail": 1, "error": 2}
EXIT_ERROR = EXIT_CODES["error"]
EXIT_USAGE = 64

ADAPTERS_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters")
# More adapter folders (a kernel that is not shipped with the wizard): each folder's modules
# join the ``adapters`` package, as if they were in ADAPTERS_FOLDER.
ADAPTER_PATH_OPTION = "--adapter-path"

# "[ksw-verify] case 3/12: cpu-float64-causal-b2h3s77d32"
CASE_LINE = re.compile(r"^" + re.escape(PROGRESS) + r"case \d+/\d+: (?P<name>.+)$")
# "[ksw-verify] verifying adapter 'probe' (device auto, seed 0) with Python 3.12.3": one kernel
# starts (with several in one process, each kernel's lines follow its own such line)
ADAPTER_LINE = re.compile(r"^" + re.escape(PROGRESS) + r"verifying adapter '(?P<name>[^']+)'")
# "[ksw-verify] stopping after 'flashmla': WHY; no report for: deepep, ...": a process that
# verifies several kernels gives up on the rest
STOP_LINE = re.compile(r"^" + re.escape(PROGRESS) + r"stopping after '(?P<name>[^']+)': "
                       r"(?P<why>.+?); no report for: ")


def adapter_names(extra_folders=()):
    """The adapters there are: every ``<name>.py`` of :data:`ADAPTERS_FOLDER` and of
    ``extra_folders`` whose name does not start with ``_``, sorted; a name in two folders
    counts once (the shipped one is the one used)."""
    names = set()
    for folder in (ADAPTERS_FOLDER,) + tuple(str(f) for f in extra_folders):
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for entry in entries:
            stem, ext = os.path.splitext(entry)
            if ext == ".py" and not stem.startswith("_") and stem.isidentifier():
                names.add(stem)
    return tuple(sorted(names))


def adapter_line(name, details):
    """The progress line that starts kernel ``name`` (without the prefix)."""
    return f"verifying adapter '{name}' {details}"


def stop_line(name, why, left):
    """The progress line of a process that stops after kernel ``name`` (without the prefix):
    ``why``, and the kernels ``left`` without a report."""
    return f"stopping after '{name}': {why}; no report for: {', '.join(left)}"


def case_line(number, total, name):
    """The progress line that starts check ``number`` of ``total`` (without the prefix)."""
    return f"case {number}/{total}: {name}"


def result_line(name, status, first_reason=""):
    """The progress line that ends check ``name`` (without the prefix): ``result NAME:
    PASS`` or ``result NAME: FAIL - the first reason``."""
    first = (" - " + first_reason) if first_reason else ""
    return f"result {name}: {status.upper()}{first}"


def result_prefix(name):
    """How the progress line that ends check ``name`` starts (prefix included)."""
    return f"{PROGRESS}result {name}:"


def report_block(text):
    """The report's JSON text between the markers, as the harness prints it."""
    return "\n" + BEGIN + "\n" + text + "\n" + END + "\n"
