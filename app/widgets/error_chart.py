"""A small chart: each case's worst error as a share of its tolerance (log scale), and, on a
GPU, the kernel's speed relative to PyTorch's SDPA.

A bar left of the tolerance line passed; one that crosses it failed. Painted by hand (no
QtCharts: the bundle stays small).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from kernel_wizard.verify import VerifyCase, VerifyReport
from kernel_wizard.verify.wording import TIMING_NAMES, case_words

from ..i18n import Texts, tr_core

TEXT = Texts("ErrorChart", {
    "errors": "largest error, as a share of the allowed error (log scale)",
    "limit": "allowed",
    "speed": "speed compared with PyTorch's built-in attention (right of 1× is faster)",
    "no_number": "no number (NaN/inf or missing)",
    "ok": "ok",
})
LOW, HIGH = 1e-4, 1e2  # ratios shown: from 1/10000 of the tolerance to 100× over it
ROW = 18


@dataclass(frozen=True)
class Bar:
    label: str
    ratio: float | None  # worst kernel_err / tolerance; None: no number (NaN, missing)
    passed: bool


def bars(report: VerifyReport) -> list[Bar]:
    return [_bar(case) for case in report.cases]


def _bar(case: VerifyCase) -> Bar:
    ratios: list[float] = []
    broken = False
    for m in case.measures:
        if m.kernel_err is None or m.tolerance <= 0:
            broken = broken or not m.passed
            continue
        ratios.append(m.kernel_err / m.tolerance)
    label = tr_core(case_words(case))
    if broken or not ratios:
        return Bar(label, None, case.passed)
    return Bar(label, max(ratios), case.passed)


class ErrorChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items: list[Bar] = []
        self.speedups: list[tuple[str, float]] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_report(self, report: VerifyReport | None) -> None:
        self.items = bars(report) if report is not None else []
        self.speedups = [
            (tr_core(TIMING_NAMES.get(t.name, t.name)), t.speedup)
            for t in (report.timings if report else ())
            if t.speedup is not None
        ]
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        rows = len(self.items) + (len(self.speedups) + 1 if self.speedups else 0)
        return QSize(500, 28 + ROW * max(rows, 1) + self.fontMetrics().height() // 2)

    def _x(self, ratio: float, left: float, width: float) -> float:
        clamped = min(max(ratio, LOW), HIGH)
        return left + width * (math.log10(clamped) - math.log10(LOW)) / (
            math.log10(HIGH) - math.log10(LOW))

    def paintEvent(self, event: object) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1))
        painter.setFont(font)
        label_w = min(380.0, self.width() * 0.45)
        left, right = label_w + 8, self.width() - 10
        width = max(10.0, right - left)
        top = 18.0
        painter.setPen(QColor("#555"))
        painter.drawText(QRectF(left, 0, width, 16), Qt.AlignmentFlag.AlignLeft,
                         TEXT["errors"])
        tol_x = self._x(1.0, left, width)
        for i, item in enumerate(self.items):
            y = top + i * ROW
            painter.setPen(QColor("#222"))
            painter.drawText(QRectF(0, y, label_w, ROW), Qt.AlignmentFlag.AlignVCenter
                             | Qt.AlignmentFlag.AlignRight, _elided(painter, item.label, label_w))
            color = QColor("#2e8b57") if item.passed else QColor("#c0392b")
            if item.ratio is None:
                painter.setPen(color)
                painter.drawText(QRectF(left, y, width, ROW), Qt.AlignmentFlag.AlignVCenter,
                                 TEXT["no_number"] if not item.passed else TEXT["ok"])
                continue
            end = self._x(item.ratio, left, width)
            painter.fillRect(QRectF(left, y + 4, max(2.0, end - left), ROW - 8), color)
        painter.setPen(QPen(QColor("#000"), 1.5, Qt.PenStyle.DashLine))
        bottom = top + ROW * len(self.items)
        painter.drawLine(int(tol_x), int(top), int(tol_x), int(bottom))
        # as tall and wide as the words need (CJK glyphs are taller: 允许值 was cut at 14 px)
        metrics = painter.fontMetrics()
        painter.drawText(QRectF(tol_x + 3, bottom - 2, metrics.horizontalAdvance(TEXT["limit"])
                                + 6, metrics.height() + 2), Qt.AlignmentFlag.AlignLeft,
                         TEXT["limit"])
        if self.speedups:
            y0 = bottom + ROW
            painter.setPen(QColor("#555"))
            painter.drawText(QRectF(left, y0 - ROW + 4, width, 16), Qt.AlignmentFlag.AlignLeft,
                             TEXT["speed"])
            one_x = self._x(1.0, left, width)
            for j, (name, speedup) in enumerate(self.speedups):
                y = y0 + j * ROW
                painter.setPen(QColor("#222"))
                painter.drawText(QRectF(0, y, label_w, ROW), Qt.AlignmentFlag.AlignVCenter
                                 | Qt.AlignmentFlag.AlignRight, _short(name, 42))
                end = self._x(speedup, left, width)
                x0, x1 = sorted((one_x, end))
                painter.fillRect(QRectF(x0, y + 4, max(2.0, x1 - x0), ROW - 8),
                                 QColor("#2f5b9a"))
                painter.drawText(QRectF(x1 + 4, y, 80, ROW), Qt.AlignmentFlag.AlignVCenter,
                                 f"{speedup:.2g}×")
        painter.end()


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _elided(painter: QPainter, text: str, width: float) -> str:
    return painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, int(width))
