"""What a verification found, below the Verify page's verdict: the details (folded), the checks in
words with their results, the error chart, the speed and the snippet that uses the kernel.

It renders a :class:`~kernel_wizard.verify.ReportView` (the core decides every sentence; the
Markdown report and the command line render the same view) and knows nothing of installing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from kernel_wizard.verify import CaseStatus, ReportView, VerifyReport

from ..i18n import N_, Texts, tr, tr_core
from .error_chart import ErrorChart

COLUMNS = (N_("What was checked"), N_("Result"), N_("Largest error"))
RESULT_COLUMN = 1
ROWS_BEFORE_SCROLLING = 6  # the table's height at least; the page scrolls beyond 12 rows
ROWS_AT_MOST = 12

TEXT = Texts("Verify", {  # the Verify page's context: its translations stay where they are
    "details": "Details",
    "speed": "Speed",
    "usage": "Use it in your code",
    "copy": "Copy",
    "copied": "Copied",
})


class VerifyResults(QWidget):
    """The results part of the Verify page (see the module's text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.details_toggle = QToolButton()
        self.details_toggle.setText(TEXT["details"])
        self.details_toggle.setCheckable(True)
        self.details_toggle.setAutoRaise(True)
        self.details_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.details_toggle.toggled.connect(self._toggle_details)
        self.details_toggle.setVisible(False)
        layout.addWidget(self.details_toggle)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setVisible(False)
        layout.addWidget(self.details)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([tr(column) for column in COLUMNS])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(self._table_height(ROWS_BEFORE_SCROLLING))
        layout.addWidget(self.table, 3)
        self.chart = ErrorChart()
        layout.addWidget(self.chart)

        self.speed_heading = QLabel(f"<b>{TEXT['speed']}</b>")
        self.speed = QLabel()
        self.speed.setWordWrap(True)
        self.speed.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.speed_heading)
        layout.addWidget(self.speed)

        usage_row = QHBoxLayout()
        self.usage_heading = QLabel(f"<b>{TEXT['usage']}</b>")
        self.copy_usage = QPushButton(TEXT["copy"])
        self.copy_usage.clicked.connect(self._copy_usage)
        usage_row.addWidget(self.usage_heading)
        usage_row.addStretch(1)
        usage_row.addWidget(self.copy_usage)
        layout.addLayout(usage_row)
        self.usage = QPlainTextEdit()
        self.usage.setReadOnly(True)
        self.usage.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.usage.setFixedHeight(self.usage.fontMetrics().lineSpacing() * 5 + 12)
        layout.addWidget(self.usage)
        self.show_results(False)

    def show_report(self, view: ReportView, report: VerifyReport, usage: str) -> None:
        """The checks in words with their results, the chart, the speed and ``usage`` (the
        snippet, shown only after a pass)."""
        self.table.setRowCount(len(view.rows))
        for row, check in enumerate(view.rows):
            # a check that did not run is "NOT RUN" in grey, never a red failure
            tip = "\n".join(tr_core(line) for line in check.details())
            for column, text in enumerate((check.words, check.result, check.largest_error)):
                item = QTableWidgetItem(tr_core(text))
                if column == RESULT_COLUMN:
                    item.setForeground(
                        Qt.GlobalColor.darkGreen if check.passed else Qt.GlobalColor.gray
                        if check.status is CaseStatus.SKIPPED else Qt.GlobalColor.red)
                item.setToolTip(tip)
                self.table.setItem(row, column, item)
        rows = max(len(view.rows), 1)
        self.table.setMinimumHeight(self._table_height(min(rows, ROWS_AT_MOST)))
        self.table.setMaximumHeight(self._table_height(rows))
        self.chart.set_report(report)
        speed = view.speed
        self.speed.setText("\n".join(tr_core(line) for line in (speed.heading, *speed.lines)))
        self.show_results(True)
        self.usage.setPlainText(usage if view.passed else "")
        for widget in (self.usage, self.usage_heading, self.copy_usage):
            widget.setVisible(bool(self.usage.toPlainText()))

    def show_results(self, shown: bool) -> None:
        """Show or hide the table, the chart and the speed (the snippet only ever hides here:
        :meth:`show_report` shows it after a pass)."""
        for widget in (self.table, self.chart, self.speed_heading, self.speed):
            widget.setVisible(shown)
        if not shown:
            for snippet in (self.usage, self.usage_heading, self.copy_usage):
                snippet.setVisible(False)

    def set_details(self, lines: list[str]) -> None:
        self.details.setText("\n".join(lines))
        self.details_toggle.setVisible(bool(lines))
        if not lines:
            self.details_toggle.setChecked(False)

    def _table_height(self, rows: int) -> int:
        table = self.table
        row = table.verticalHeader().defaultSectionSize()
        header = table.horizontalHeader().sizeHint().height()
        return header + rows * row + 2 * table.frameWidth() + 2

    @Slot(bool)
    def _toggle_details(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self.details_toggle.setArrowType(Qt.ArrowType.DownArrow if shown
                                         else Qt.ArrowType.RightArrow)

    @Slot()
    def _copy_usage(self) -> None:
        QGuiApplication.clipboard().setText(self.usage.toPlainText())
        self.copy_usage.setText(TEXT["copied"])
