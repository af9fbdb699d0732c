"""Durations and time estimates in the user's language: "1 min 57 s", "about 25 s left".

The rounding and the English forms are the core's (:mod:`kernel_wizard.base.durations`, which the
command line prints as they are); here each form is a whole template (context ``Time``) that a
translation can reorder.
"""

from __future__ import annotations

from kernel_wizard.base.durations import duration, time_left

from .i18n import Texts

# The core's English forms (kernel_wizard.base.durations.ENGLISH), written out here so that
# scripts/translations.py finds them; tests/gui/test_translation_prereqs.py keeps them equal.
TEXT = Texts("Time", {
    "seconds": "{seconds} s",
    "minutes": "{minutes} min {seconds} s",
    "hours": "{hours} h {minutes} min",
    "few_seconds_left": "a few seconds left",
    "seconds_left": "about {seconds} s left",
    "minutes_left": "about {minutes} min left",
    "hours_left": "about {hours} h {minutes} min left",
    "overdue": "{left} (longer than estimated)",
})


def duration_text(seconds: float) -> str:
    """'42 s', '4 min 05 s', '2 h 03 min'."""
    return duration(seconds, TEXT)


def time_left_text(seconds: float | None, overdue: bool = False) -> str:
    """'about 9 min left', rounded as far as an estimate deserves ('' when unknown)."""
    return time_left(seconds, overdue, TEXT)


__all__ = ["duration_text", "time_left_text"]
