"""Durations and time estimates for a person: "1 min 57 s", "about 25 s left".

The rounding is decided here, once, for both front ends: the command line prints the English
forms (:data:`ENGLISH`), the GUI passes the same forms translated (``app/time_words.py``), each
a whole template that a translation can reorder.
"""

from __future__ import annotations

from collections.abc import Mapping

# The forms, by key; a front end may pass its own (translated) mapping with the same keys.
ENGLISH: Mapping[str, str] = {
    "seconds": "{seconds} s",
    "minutes": "{minutes} min {seconds} s",
    "hours": "{hours} h {minutes} min",
    "few_seconds_left": "a few seconds left",
    "seconds_left": "about {seconds} s left",
    "minutes_left": "about {minutes} min left",
    "hours_left": "about {hours} h {minutes} min left",
    "overdue": "{left} (longer than estimated)",
}


def duration(seconds: float, forms: Mapping[str, str] = ENGLISH) -> str:
    """'42 s', '4 min 05 s', '2 h 03 min'."""
    total = max(0, int(round(seconds)))
    if total < 60:
        return forms["seconds"].format(seconds=total)
    minutes, rest = divmod(total, 60)
    if minutes < 60:
        return forms["minutes"].format(minutes=minutes, seconds=f"{rest:02d}")
    hours, minutes = divmod(minutes, 60)
    return forms["hours"].format(hours=hours, minutes=f"{minutes:02d}")


def time_left(seconds: float | None, overdue: bool = False,
              forms: Mapping[str, str] = ENGLISH) -> str:
    """'about 9 min left', rounded as far as an estimate deserves ('' when unknown)."""
    if seconds is None:
        return ""
    if seconds < 10:
        text = forms["few_seconds_left"]
    elif seconds < 60:
        text = forms["seconds_left"].format(seconds=max(10, 5 * round(seconds / 5)))
    elif seconds < 3600:
        text = forms["minutes_left"].format(minutes=max(1, round(seconds / 60)))
    else:
        hours, minutes = divmod(round(seconds / 60), 60)
        text = forms["hours_left"].format(hours=hours, minutes=f"{minutes:02d}")
    return forms["overdue"].format(left=text) if overdue else text


__all__ = ["ENGLISH", "duration", "time_left"]
