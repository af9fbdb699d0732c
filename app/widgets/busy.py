"""A one-line busy indicator: a text and an indeterminate progress bar."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget


class BusyRow(QWidget):
    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.label = QLabel(text)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # indeterminate
        self.bar.setMaximumWidth(200)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.bar)
        row.addStretch(1)
        self.setVisible(False)
