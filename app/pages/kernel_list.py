"""The Kernel page's list: one row per kernel (name and description, a version picker, whether
it fits), greyed where it does not fit.

The list only shows what it is given and says what the user did (``version_changed``); the
page decides what fits (the session's verdicts) and what happens next.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kernel_wizard.catalog import RecipeVersion, Verdict
from kernel_wizard.flow.session import KernelRow

from ..i18n import N_, kernel_name, tr, tr_core
from .kernel_source import TEXT as SOURCE_TEXT
from .kernel_texts import reasons_tooltip, row_status, version_text

COLUMNS = (N_("Kernel"), N_("Version"), N_("Fits this computer?"))
ID_ROLE = Qt.ItemDataRole.UserRole
DESCRIPTION_ROLE = Qt.ItemDataRole.UserRole + 1
GREY = QColor("#8a8a8a")
GREEN = QColor("#1d6b32")
RED = QColor("#a11d1d")


class KernelDelegate(QStyledItemDelegate):
    """The kernel column: the name in bold, its one-line description below."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        title = opt.text
        description = str(index.data(DESCRIPTION_ROLE) or "")
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        rect = rect.adjusted(3, 0, -3, 0)
        if opt.state & QStyle.StateFlag.State_Selected:
            color = opt.palette.color(QPalette.ColorRole.HighlightedText)
        else:
            brush = index.data(Qt.ItemDataRole.ForegroundRole)
            color = brush.color() if isinstance(brush, QBrush) else opt.palette.color(
                QPalette.ColorRole.Text)
        bold = QFont(opt.font)
        bold.setBold(True)
        bold_metrics, metrics = QFontMetrics(bold), QFontMetrics(opt.font)
        top = rect.top() + (rect.height() - bold_metrics.height() - metrics.height()) // 2
        painter.save()
        painter.setPen(color)
        painter.setFont(bold)
        painter.drawText(QRect(rect.left(), top, rect.width(), bold_metrics.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         bold_metrics.elidedText(title, Qt.TextElideMode.ElideRight, rect.width()))
        painter.setFont(opt.font)
        painter.drawText(QRect(rect.left(), top + bold_metrics.height(), rect.width(),
                               metrics.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         metrics.elidedText(description, Qt.TextElideMode.ElideRight,
                                            rect.width()))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        metrics = QFontMetrics(option.font)
        return QSize(size.width(), 2 * metrics.height() + 12)


class KernelList(QTreeWidget):
    """The catalog as rows. ``version_changed`` carries the recipe id whose picker the user
    changed (never while the list is being filled)."""

    version_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.populating = False  # the page, not the user, is filling the list
        self._items: dict[str, QTreeWidgetItem] = {}
        self._combos: dict[str, QComboBox] = {}
        self.setColumnCount(len(COLUMNS))
        self.setHeaderLabels([tr(c) for c in COLUMNS])
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setWordWrap(True)  # a reason in the last column takes two lines
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setItemDelegateForColumn(0, KernelDelegate(self))
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        self.fit_columns()

    # -- filling -------------------------------------------------------------------------------

    def populate(self, rows: Sequence[KernelRow], shown: dict[str, RecipeVersion],
                 current_id: str | None) -> None:
        """One row per kernel of the session's table, in the order given, showing
        ``shown[recipe.id]``; each picker lists every version (newest first), marking those
        that do not fit and the recommended one (if it fits; its tip says when it is ready
        from the verified-wheel cache)."""
        self.populating = True
        self.clear()
        self._items.clear()
        self._combos.clear()
        for row_of in rows:
            recipe = row_of.recipe
            item = QTreeWidgetItem(self)
            name = kernel_name(recipe.name)
            item.setText(0, name)
            item.setData(0, ID_ROLE, recipe.id)
            description = tr_core(recipe.description)
            item.setData(0, DESCRIPTION_ROLE, description)
            item.setToolTip(0, f"{name}: {description}")
            combo = QComboBox()
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            for judged in reversed(row_of.versions):  # newest first
                version, verdict = judged.version, judged.verdict
                combo.addItem(version_text(version, verdict, version is row_of.recommended),
                              version.label)
                row = combo.count() - 1
                if not verdict.available:
                    combo.setItemData(row, QBrush(GREY), Qt.ItemDataRole.ForegroundRole)
                    combo.setItemData(row, reasons_tooltip(verdict), Qt.ItemDataRole.ToolTipRole)
                elif version is row_of.recommended and row_of.cached is not None:
                    # no compiling for this one: said where the version is picked
                    combo.setItemData(row, SOURCE_TEXT["cached"].format(
                        date=row_of.cached.verified_on), Qt.ItemDataRole.ToolTipRole)
                elif version.notes:
                    combo.setItemData(row, tr_core(version.notes), Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(combo.findData(shown[recipe.id].label))
            combo.currentIndexChanged.connect(
                lambda _row, rid=recipe.id: self._on_combo(rid))
            holder = QWidget()
            holder_layout = QVBoxLayout(holder)
            holder_layout.setContentsMargins(2, 2, 2, 2)
            holder_layout.addWidget(combo, 0, Qt.AlignmentFlag.AlignVCenter)
            self.setItemWidget(item, 1, holder)
            self._items[recipe.id] = item
            self._combos[recipe.id] = combo
            self.show_row(recipe.id, row_of.verdict(shown[recipe.id]))
        self.fit_height()
        self.fit_columns()
        target = self._items.get(current_id or "") or (
            self.topLevelItem(0) if self.topLevelItemCount() else None)
        if target is not None:
            self.setCurrentItem(target)
        self.populating = False

    def _on_combo(self, recipe_id: str) -> None:
        if not self.populating:
            self.version_changed.emit(recipe_id)

    def fit_height(self) -> None:
        """As tall as its rows (up to 6), so the details below get the rest of the page."""
        rows = min(self.topLevelItemCount(), 6)
        height = self.header().sizeHint().height() + 2 * self.frameWidth() + 2
        if rows:
            height += rows * self.sizeHintForRow(0)
        self.setFixedHeight(height)

    def fit_columns(self) -> None:
        """The version pickers as wide as their longest entry; the "Fits this computer?"
        column as wide as its longest verdict (and its header), so that none is cut off; the
        kernels' names and descriptions take the rest (their descriptions may be elided: the
        details below show them whole)."""
        header = self.header()
        metrics = QFontMetrics(self.font())
        bold = QFont(self.font())
        bold.setBold(True)
        heading = QFontMetrics(header.font())
        # a picker as wide as its longest entry, with room for its mark and its arrow
        pickers = [max((c.fontMetrics().horizontalAdvance(c.itemText(i))
                        for i in range(c.count())), default=0) + 48
                   for c in self._combos.values()]
        version = max([*pickers, heading.horizontalAdvance(tr(COLUMNS[1])) + 24, 120]) + 8
        statuses = [metrics.horizontalAdvance(item.text(2)) for item in self._items.values()]
        status = max([*statuses, heading.horizontalAdvance(tr(COLUMNS[2])) + 16]) + 24
        room = max(self.viewport().width(), 600)
        # the kernel column keeps at least a third of the list
        status = min(status, max(room - version - room // 3, 160))
        version = min(version, max(room - status - room // 3, 120))
        header.resizeSection(1, version)
        header.resizeSection(2, status)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit_columns()

    def show_row(self, recipe_id: str, verdict: Verdict) -> None:
        item = self._items[recipe_id]
        status, tip = row_status(verdict)
        if verdict.available:
            item.setForeground(0, QBrush(self.palette().color(QPalette.ColorRole.Text)))
            item.setForeground(2, QBrush(GREEN))
        else:
            item.setForeground(0, QBrush(GREY))
            item.setForeground(2, QBrush(RED))
        item.setToolTip(2, tip)
        item.setText(2, status)
        if not self.populating:
            self.fit_columns()

    # -- reading -------------------------------------------------------------------------------

    def kernel_ids(self) -> list[str]:
        items = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return [str(item.data(0, ID_ROLE)) for item in items if item is not None]

    def current_id(self) -> str | None:
        item = self.currentItem()
        return str(item.data(0, ID_ROLE)) if item is not None else None

    def item(self, recipe_id: str) -> QTreeWidgetItem:
        return self._items[recipe_id]

    def combo(self, recipe_id: str) -> QComboBox:
        return self._combos[recipe_id]

    def picked_label(self, recipe_id: str) -> str:
        return str(self._combos[recipe_id].currentData())

    def status_text(self, recipe_id: str) -> str:
        return self._items[recipe_id].text(2)

    def status_tip(self, recipe_id: str) -> str:
        """Every reason in full (the cell says the first in a few words)."""
        return self._items[recipe_id].toolTip(2)


__all__ = ["COLUMNS", "GREEN", "GREY", "RED", "KernelDelegate", "KernelList"]
