"""Is this PySide6 safe to run the wizard on?

PySide6 6.12.0 on CPython 3.10 and 3.11 drops one reference to ``True`` on every signal
emission, whatever the signal's arguments and whatever it is connected to. ``True`` is not
immortal before Python 3.12, so after a few hundred emissions the interpreter aborts with
``Fatal Python error: bool_dealloc: deallocating True or False`` (3.11) or a heap error (3.10):
the wizard dies in the middle of a build, whose log and progress are signals. Seen here with
6.12.0 on 3.10.13 and 3.11.7; 6.11.3 and 6.10.3 on the same Pythons, and 6.12.0 on 3.12/3.13
(where ``True`` is immortal), keep the count. ``pyproject.toml`` keeps such combinations out;
this check proves the one that is installed, in the tests and in ``--self-test`` (so a bundle is
never built from a broken one without CI noticing).
"""

from __future__ import annotations

import sys

# Few enough that a broken PySide6 cannot bring the count of True anywhere near zero (it starts
# in the hundreds once Qt is imported), many enough that a loss of one per emission is obvious.
SAFE_EMISSIONS = 64


def true_refcount_change(emissions: int = SAFE_EMISSIONS) -> int:
    """Emit signals (with no argument, with a bool, with an int) ``emissions`` times each and
    return how much the reference count of ``True`` changed: 0 on a sound PySide6."""
    from PySide6.QtCore import QCoreApplication, QObject, Signal

    class _Emitter(QObject):
        plain = Signal()
        flag = Signal(bool)
        number = Signal(int)

    app = QCoreApplication.instance() or QCoreApplication([])
    emitter = _Emitter()
    seen: list[object] = []
    emitter.plain.connect(lambda: seen.append(None))
    emitter.flag.connect(seen.append)
    emitter.number.connect(seen.append)
    # warm up: the first emission of a signal may cache objects that hold a reference
    emitter.plain.emit()
    emitter.flag.emit(True)
    emitter.number.emit(1)
    seen.clear()
    before = sys.getrefcount(True)
    for i in range(emissions):
        emitter.plain.emit()
        emitter.flag.emit(False)
        emitter.number.emit(i)
    seen.clear()
    after = sys.getrefcount(True)
    del app
    return after - before


def describe_problem(change: int) -> str:
    """A sentence for a non-zero change, naming what to do; '' when the count held."""
    if change == 0:
        return ""
    from PySide6 import __version__ as pyside

    return (
        f"PySide6 {pyside} on Python {sys.version.split()[0]} loses a reference to True on "
        f"every signal (the count moved by {change}): the wizard would abort mid-build. "
        "Install a PySide6 the project allows (pip install -e . picks one), or use Python 3.12 "
        "or newer."
    )
