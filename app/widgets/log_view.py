"""A live log view: monospace, bounded memory, follows the end unless the user scrolled up.

Lines arrive in batches (:meth:`append_lines`), one document edit per batch, so tens of
thousands of lines per second don't stall the event loop. Only the last ``max_lines`` lines are
kept on screen (the full log is always in the log file). Search, copy and save are built in.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextCursor
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..i18n import tr

DEFAULT_MAX_LINES = 20_000
MAX_INSERT = 500  # lines inserted per batch (measured: 500 take ~6 ms, 2000 ~47 ms); a flood
# shows the newest of each batch and a marker; every line is in the log file


class LogView(QWidget):
    def __init__(self, max_lines: int = DEFAULT_MAX_LINES, parent: QWidget | None = None,
                 max_insert: int = MAX_INSERT) -> None:
        super().__init__(parent)
        self.max_insert = max_insert
        self.lines_skipped = 0
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setUndoRedoEnabled(False)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setMaximumBlockCount(max_lines)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setCenterOnScroll(False)
        self.lines_received = 0
        self.source_file: Path | None = None

        self.search = QLineEdit()
        self.search.setPlaceholderText(tr("Search the log…"))
        self.search.returnPressed.connect(self.find_next)
        self.find_button = QPushButton(tr("Find"))
        self.find_button.clicked.connect(self.find_next)
        self.copy_button = QPushButton(tr("Copy"))
        self.copy_button.setToolTip(tr("Copy the lines shown to the clipboard"))
        self.copy_button.clicked.connect(self.copy_all)
        self.save_button = QPushButton(tr("Save…"))
        self.save_button.setToolTip(tr("Save the complete log to a file"))
        self.save_button.clicked.connect(self._save_dialog)
        self.status = QLabel()

        bar = QHBoxLayout()
        bar.addWidget(self.search, 1)
        bar.addWidget(self.find_button)
        bar.addWidget(self.copy_button)
        bar.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.status)

    # -- feeding ---------------------------------------------------------------------------

    def at_end(self) -> bool:
        bar = self.text.verticalScrollBar()
        return bar.value() >= bar.maximum() - 2

    def append_lines(self, lines: Sequence[str]) -> None:
        """Append a batch. A batch larger than ``max_insert`` (a flood: tens of thousands of
        lines since the last screen update) shows its newest lines after a marker saying how
        many were left out of the view; every line is in the log file (Save… saves it all)."""
        if not lines:
            return
        received = len(lines)
        if received > self.max_insert:
            skipped = received - self.max_insert
            self.lines_skipped += skipped
            lines = [tr("… {skipped} lines not shown here (the log file has them all) …")
                     .format(skipped=f"{skipped:,}"),
                     *lines[-self.max_insert:]]
        follow = self.at_end()
        bar = self.text.verticalScrollBar()
        position = bar.value()
        cursor = QTextCursor(self.text.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.beginEditBlock()
        prefix = "\n" if not self.text.document().isEmpty() else ""
        cursor.insertText(prefix + "\n".join(lines))
        cursor.endEditBlock()
        self.lines_received += received
        if follow:
            bar.setValue(bar.maximum())
        else:
            bar.setValue(position)  # the user scrolled up to read: stay there

    def clear(self) -> None:
        self.text.clear()
        self.lines_received = 0
        self.lines_skipped = 0

    def shown_text(self) -> str:
        return self.text.toPlainText()

    # -- actions ---------------------------------------------------------------------------

    @Slot()
    def find_next(self) -> bool:
        needle = self.search.text()
        if not needle:
            return False
        found = self.text.find(needle)
        if not found:  # wrap around
            self.text.moveCursor(QTextCursor.MoveOperation.Start)
            found = self.text.find(needle)
        self.status.setText("" if found else tr("“{needle}” not found in the lines shown")
                            .format(needle=needle))
        return found

    @Slot()
    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText(self.shown_text())
        self.status.setText(tr("Copied to the clipboard."))

    def save_to(self, path: Path) -> None:
        """The complete log when the build's log file is known, else the lines shown."""
        if self.source_file is not None and self.source_file.exists():
            path.write_bytes(self.source_file.read_bytes())
        else:
            path.write_text(self.shown_text() + "\n", encoding="utf-8")
        self.status.setText(tr("Saved to {path}").format(path=path))

    @Slot()
    def _save_dialog(self) -> None:
        name, _ = QFileDialog.getSaveFileName(self, tr("Save the build log"), "build.log")
        if name:
            self.save_to(Path(name))


__all__ = ["LogView"]
