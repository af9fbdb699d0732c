"""Helpers for GUI tests: answering real dialogs, and checking that a page fits its window.

:class:`Dialogs` answers the modal dialogs a click opens — the real QMessageBox, with the
buttons the person would see — and records what they said. :func:`layout_problems` lists what
a person would notice at a window size: a widget outside the window and not in a scroll area,
text cut off because a label or button is smaller than its text needs, and a control that
cannot be scrolled into view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QPoint, QRect, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QLabel,
    QMessageBox,
    QScrollArea,
    QWidget,
)

from app.pages.kernel_list import GREY, KernelList


@dataclass
class Shown:
    title: str
    text: str
    buttons: list[str]


@dataclass
class Dialogs:
    """Answer every modal QMessageBox by clicking the button whose text ``choose`` returns."""

    choose: Callable[[Shown], str]
    shown: list[Shown] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def _poll(self) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not box.isVisible():
            return
        if getattr(box, "_answered", False):
            return
        box._answered = True  # type: ignore[attr-defined]
        buttons = [b for b in box.buttons() if b.isVisible()]
        seen = Shown(box.windowTitle(), box.text(), [b.text() for b in buttons])
        self.shown.append(seen)
        wanted = self.choose(seen)
        target = next(b for b in buttons if b.text() == wanted)
        QTimer.singleShot(0, target.click)

    def stop(self) -> None:
        self.timer.stop()


def scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area whose viewport holds ``widget`` (it can be scrolled into view)."""
    parent = widget.parentWidget()
    child = widget
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and child is parent.viewport():
            return parent
        child, parent = parent, parent.parentWidget()
    return None


def describe(widget: QWidget) -> str:
    text = ""
    if isinstance(widget, (QLabel, QAbstractButton)):
        text = " " + repr(widget.text()[:40])
    name = widget.objectName()
    return f"{type(widget).__name__}{(' #' + name) if name else ''}{text}"


def rect_in(widget: QWidget, top: QWidget) -> QRect:
    return QRect(widget.mapTo(top, QPoint(0, 0)), widget.size())


def layout_problems(window: QWidget, page: QWidget) -> list[str]:
    """What is cut off or out of reach on ``page`` as ``window`` is now."""
    QCoreApplication.processEvents()
    problems: list[str] = []
    bounds = window.rect()
    for widget in page.findChildren(QWidget):
        if not widget.isVisibleTo(window) or widget.width() <= 0 or widget.height() <= 0:
            continue
        if scroll_area_of(widget) is None and not bounds.contains(rect_in(widget, window)):
            problems.append(f"{describe(widget)} lies outside the window")
        if isinstance(widget, QLabel) and widget.text():
            if widget.wordWrap():
                need = widget.heightForWidth(widget.width())
                if need > widget.height() + 1:
                    problems.append(f"{describe(widget)} is {widget.height()} px high but its "
                                    f"text needs {need} px")
            elif widget.minimumSizeHint().width() > widget.width() + 1:
                problems.append(f"{describe(widget)} is {widget.width()} px wide but its text "
                                f"needs {widget.minimumSizeHint().width()} px")
        elif isinstance(widget, QAbstractButton) and widget.text():
            hint = widget.minimumSizeHint()
            if hint.width() > widget.width() + 1 or hint.height() > widget.height() + 1:
                problems.append(f"{describe(widget)} is {widget.width()}×{widget.height()} px, "
                                f"its text needs {hint.width()}×{hint.height()}")
    return problems


def unreachable(window: QWidget, controls: Iterable[QWidget]) -> list[str]:
    """Controls that are hidden, or that cannot be brought into view (by scrolling)."""
    problems: list[str] = []
    for control in controls:
        if not control.isVisibleTo(window):
            problems.append(f"{describe(control)} is not shown")
            continue
        area = scroll_area_of(control)
        while area is not None and isinstance(area, QScrollArea):
            area.ensureWidgetVisible(control, 0, 0)
            QCoreApplication.processEvents()
            viewport = rect_in(area.viewport(), window)
            if not viewport.contains(rect_in(control, window).topLeft()):
                problems.append(f"{describe(control)} cannot be scrolled into view")
            area = scroll_area_of(area)
        if not window.rect().contains(rect_in(control, window).topLeft()):
            problems.append(f"{describe(control)} is outside the window")
    return problems


def is_greyed(tree: KernelList, recipe_id: str) -> bool:
    """Whether the Kernel page shows this kernel's row greyed out (its shown version does not
    fit this computer)."""
    return bool(tree.item(recipe_id).foreground(0).color() == GREY)
