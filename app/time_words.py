"""Durations and time estimates in the user's language: "1 min 57 s", "about 25 s left".

The same rounding as the command line's (:mod:`build_backend.terminal`), whose words stay
English; here each form is a whole template (context ``Time``) that a translation can reorder.
"""

from __future__ import annotations

from .i18n import Texts

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
    total = max(0, int(round(seconds)))
    if total < 60:
        return TEXT["seconds"].format(seconds=total)
    minutes, rest = divmod(total, 60)
    if minutes < 60:
        return TEXT["minutes"].format(minutes=minutes, seconds=f"{rest:02d}")
    hours, minutes = divmod(minutes, 60)
    return TEXT["hours"].format(hours=hours, minutes=f"{minutes:02d}")


def time_left_text(seconds: float | None, overdue: bool = False) -> str:
    """'about 9 min left', rounded as far as an estimate deserves ('' when unknown)."""
    if seconds is None:
        return ""
    if seconds < 10:
        text = TEXT["few_seconds_left"]
    elif seconds < 60:
        text = TEXT["seconds_left"].format(seconds=max(10, 5 * round(seconds / 5)))
    elif seconds < 3600:
        text = TEXT["minutes_left"].format(minutes=max(1, round(seconds / 60)))
    else:
        hours, minutes = divmod(round(seconds / 60), 60)
        text = TEXT["hours_left"].format(hours=hours, minutes=f"{minutes:02d}")
    return TEXT["overdue"].format(left=text) if overdue else text


__all__ = ["duration_text", "time_left_text"]
