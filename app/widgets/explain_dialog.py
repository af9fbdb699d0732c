""""Explain a log…": a saved log of any failed build, install or import, explained.

For failures outside the wizard too (a ``pip install flash-attn`` that failed in a terminal, a
ComfyUI node that failed to load). The core reads the log (kernel_wizard/diagnose/explain.py);
this dialog shows the first error line verbatim, where the log stopped, the cause when it is
known, the next step, and a link that searches the first error line in the failing package's
issue tracker. :func:`pick_and_explain` asks for the file and reads it off the GUI thread.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from kernel_wizard.diagnose.explain import Explanation, explain_file

from ..i18n import Texts, tr_core
from ..workers import BackgroundTask

TEXT = Texts("ExplainLog", {
    "title": "Explain a log",
    "button": "Explain a log…",
    "button_tip": "Read a saved log of a build, install or import that failed (also one from "
                  "outside the wizard, such as a pip install in a terminal or a ComfyUI node "
                  "that did not load) and say where it stopped and what to do.",
    "pick": "Choose a log file to explain",
    "filter": "Logs and text (*.log *.txt *.out);;All files (*)",
    "file": "Log: {name} ({lines} lines)",
    "first_error": "First error (line {number}), as the log shows it:",
    "stopped": "Stopped while {family}.",
    "cause": "Cause: {cause}",
    "next": "Next step:",
    "search_in": "Search for this error in {repo}'s issues",
    "search_any": "Search for this error on GitHub",
    "unreadable": "The log could not be read: {error}",
})


class ExplainDialog(QDialog):
    """What a log shows, as :class:`Explanation` says."""

    def __init__(self, explanation: Explanation, path: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.explanation = explanation
        self.setWindowTitle(TEXT["title"])
        self.setMinimumWidth(640)
        layout = QVBoxLayout(self)
        name = "stdin" if path == "-" else Path(path).name
        self.file_label = QLabel(TEXT["file"].format(name=name, lines=explanation.lines))
        layout.addWidget(self.file_label)

        self.headline = QLabel()
        self.headline.setWordWrap(True)
        layout.addWidget(self.headline)
        # the first error line verbatim: selectable, monospace, never reflowed
        self.first_error = QPlainTextEdit()
        self.first_error.setReadOnly(True)
        self.first_error.setObjectName("first_error")
        self.first_error.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.first_error.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.first_error.setMaximumHeight(90)
        self.first_error.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.first_error)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(self.details.textFormat().RichText)
        self.details.setOpenExternalLinks(True)
        layout.addWidget(self.details)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        self._fill()

    def _fill(self) -> None:
        e = self.explanation
        esc = html.escape
        if not e.failed:
            self.headline.setText(tr_core(e.headline()))
            self.first_error.setVisible(False)
            self.details.setText("<br>".join(esc(tr_core(n)) for n in e.notes))
            return
        if e.first_error is not None:
            self.headline.setText(TEXT["first_error"].format(number=e.first_error_line))
            self.first_error.setPlainText(e.first_error.strip())
        else:
            self.headline.setText(tr_core(e.headline()))
            self.first_error.setVisible(False)
        parts: list[str] = []
        if e.family_title:
            parts.append(esc(TEXT["stopped"].format(family=tr_core(e.family_title))))
        if e.cause:
            cause = f"<b>{esc(TEXT['cause'].format(cause=tr_core(e.cause)))}</b>"
            parts.append(cause + (f"<br>{esc(tr_core(e.why))}" if e.why else ""))
        if e.advice:
            parts.append(f"<b>{esc(TEXT['next'])}</b> {esc(tr_core(e.advice))}")
        parts.extend(esc(tr_core(n)) for n in e.notes)
        if e.search_url:
            words = (TEXT["search_in"].format(repo=e.tracker) if e.tracker
                     else TEXT["search_any"])
            parts.append(f'<a href="{esc(e.search_url, quote=True)}">{esc(words)}</a>')
        self.details.setText("<p>" + "</p><p>".join(parts) + "</p>")


class LogExplainer:
    """Asks for a log file, reads it off the GUI thread, then shows :class:`ExplainDialog`
    (not modal: the wizard stays usable). ``dialog``: the one shown last."""

    def __init__(self, parent: QWidget) -> None:
        self.parent = parent
        self.task: BackgroundTask | None = None
        self.dialog: ExplainDialog | None = None
        self._path = ""

    def pick_and_explain(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.parent, TEXT["pick"], "", TEXT["filter"])
        if path:
            self.explain(path)

    def explain(self, path: str) -> None:
        self._path = path
        self.task = BackgroundTask(lambda: explain_file(path), self.parent)
        self.task.finished.connect(self._show)
        self.task.failed.connect(self._failed)
        self.task.start()

    @Slot(object)
    def _show(self, result: object) -> None:
        assert isinstance(result, Explanation)
        self.dialog = ExplainDialog(result, self._path, self.parent)
        self.dialog.show()

    @Slot(object)
    def _failed(self, exc: object) -> None:
        QMessageBox.warning(self.parent, TEXT["title"],
                            TEXT["unreadable"].format(error=tr_core(str(exc))))


__all__ = ["TEXT", "ExplainDialog", "LogExplainer"]
