"""The installed PySide6 keeps the reference count of True through many signal emissions.

PySide6 6.12.0 on CPython 3.10/3.11 loses one reference to True per emission and the
interpreter aborts after a few hundred ("Fatal Python error: bool_dealloc"): the wizard dies
mid-build. pyproject.toml keeps that combination out; these tests fail on any combination that
has the defect (run them on every Python CI covers). They run in a child process, so that a
broken PySide6 fails the test with its exit instead of aborting the test worker.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# Several thousand emissions: on a broken combination True's count (a few hundred once Qt is
# imported) reaches zero long before the end, and the child aborts.
EMISSIONS = 3000

CHILD = f"""
import sys
from app.qt_health import true_refcount_change
change = true_refcount_change({EMISSIONS})
print("change", change)
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, cwd=REPO)


def test_thousands_of_signal_emissions_keep_the_count_of_true() -> None:
    done = _run(CHILD)
    assert done.returncode == 0, (
        f"the interpreter died after emitting signals (exit {done.returncode}): "
        f"{done.stderr[-600:]}"
    )
    assert done.stdout.split() == ["change", "0"], done.stdout + done.stderr


def test_the_self_test_says_the_signals_are_sound() -> None:
    done = _run(
        "import io, sys\n"
        "from app import selftest\n"
        "report = selftest.Report(out=io.StringIO(), marks=('ok', 'FAIL'))\n"
        "report.check('Qt signals', selftest._signals)\n"
        "print(report.lines[0])\n"
    )
    assert done.returncode == 0, done.stderr[-600:]
    assert done.stdout.startswith("ok Qt signals: 192 emissions"), done.stdout


def test_a_lost_reference_is_worded_for_the_user() -> None:
    done = _run("from app.qt_health import describe_problem\n"
                "print(repr(describe_problem(0)))\nprint(describe_problem(-192))")
    assert done.returncode == 0, done.stderr[-600:]
    first, second = done.stdout.splitlines()[:2]
    assert first == "''"
    assert "moved by -192" in second and "abort mid-build" in second
    assert "Python 3.12 or newer" in second
