"""A coloured one-line status with an optional second line saying what to do."""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout


class Tone(Enum):
    INFO = ("#eef3fb", "#2f5b9a", "ℹ")
    OK = ("#ecf7ee", "#1d6b32", "✔")
    WARNING = ("#fff6e0", "#8a5a00", "⚠")
    ERROR = ("#fdecec", "#a11d1d", "✖")


class Banner(QFrame):
    def __init__(self) -> None:
        super().__init__()
        self.tone = Tone.INFO
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.title)
        layout.addWidget(self.hint)
        self.setVisible(False)

    def show_message(self, tone: Tone, text: str, hint: str = "") -> None:
        self.tone = tone
        background, foreground, symbol = tone.value
        self.setStyleSheet(
            f"Banner {{ background: {background}; border: 1px solid {foreground}; "
            f"border-radius: 4px; }} QLabel {{ color: {foreground}; }}"
        )
        self.title.setText(f"<b>{symbol}  {text}</b>")
        self.hint.setText(hint)
        self.hint.setVisible(bool(hint))
        self.setVisible(True)
