"""The step list beside the pages: where the person is, what is done, what comes next."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ..i18n import N_, tr

# -- the texts (one place) ---------------------------------------------------------------------

HEADING = N_("Steps")
STATE_TEXT = {
    "done": "✔  {name}",
    "current": "▶  {name}",
    "next": "{name}",
}
ACCESSIBLE = {
    "done": "{name}: done",
    "current": "{name}: you are here",
    "next": "{name}: still to come",
}

COLOURS = {  # (foreground, background)
    "done": ("#1d6b32", "transparent"),
    "current": ("palette(highlighted-text)", "palette(highlight)"),
    "next": ("palette(mid)", "transparent"),
}


class StepList(QFrame):
    """One line per step; :meth:`show_position` marks the current one."""

    def __init__(self, steps: Sequence[tuple[int, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("step-list")
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 12, 10, 12)
        layout.setSpacing(4)
        heading = QLabel(f"<b>{tr(HEADING)}</b>")
        layout.addWidget(heading)
        self.steps = list(steps)
        self.labels: dict[int, QLabel] = {}
        for step_id, name in self.steps:
            label = QLabel(name)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setMinimumWidth(130)
            layout.addWidget(label)
            self.labels[step_id] = label
        layout.addStretch(1)
        self.states: dict[int, str] = {}

    def show_position(self, current: int, visited: Iterable[int], hidden: Iterable[int] = ()
                      ) -> None:
        """``current``: the page shown; ``visited``: the pages behind it; ``hidden``: steps
        this path skips (re-verification goes from Welcome straight to Verify)."""
        done = set(visited) - {current}
        skipped = set(hidden)
        for step_id, name in self.steps:
            label = self.labels[step_id]
            label.setVisible(step_id not in skipped)
            state = "current" if step_id == current else "done" if step_id in done else "next"
            self.states[step_id] = state
            label.setText(STATE_TEXT[state].format(name=name))
            label.setAccessibleName(ACCESSIBLE[state].format(name=name))
            foreground, background = COLOURS[state]
            weight = "bold" if state == "current" else "normal"
            label.setStyleSheet(f"QLabel {{ color: {foreground}; background: {background}; "
                                f"font-weight: {weight}; padding: 3px 6px; "
                                "border-radius: 3px; }")

    def current_name(self) -> str:
        return next((name for step_id, name in self.steps
                     if self.states.get(step_id) == "current"), "")


__all__ = ["StepList"]
