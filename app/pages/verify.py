"""Verify: the built kernel is tested against PyTorch before it is installed.

After a build, the wheel is verified from a staging folder; a pass installs it (with a backup
of what it replaces). A failure installs nothing; the user can install anyway after a clear
warning, rebuild, or save a report bundle. Chosen from the Welcome page instead, the page
re-verifies every kernel the wizard installed and says what changed since the last pass.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from build_backend.install import InstallResult, RollbackResult
from build_backend.paths import data_dir
from build_backend.reverify import ReverifyResult
from build_backend.stage import FlowOutcome
from build_backend.verify import CaseStatus, VerifyReport

from ..widgets.error_chart import ErrorChart
from ..widgets.report_bundle import ReportBundleButton
from ..workers import BackgroundTask
from .base import SessionPage
from .navigation import lock_back

USAGE = {
    "probe": "import torch, ksw_probe\n"
             "q = k = v = torch.randn(1, 8, 128, 64)\n"
             "out = ksw_probe.attention(q, k, v, causal=True)",
    "flash_attn": "import torch\nfrom flash_attn import flash_attn_func\n"
                  "q = k = v = torch.randn(1, 1024, 16, 128, device='cuda', dtype=torch.float16)\n"
                  "out = flash_attn_func(q, k, v, causal=True)",
    "flashmla": "from flash_mla import flash_mla_with_kvcache, get_mla_metadata\n"
                "# see the FlashMLA README for the decoding call sequence",
}
COLUMNS = ("Check", "dtype", "causal", "worst error ≤ tolerance", "Result")


class VerifyPage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Verify")
        self.setSubTitle("The kernel is checked against PyTorch before anything is installed.")
        self.task: BackgroundTask | None = None
        self._verify_cancel: threading.Event | None = None  # stops a running verification
        self.flow: FlowOutcome | None = None
        self.results: list[ReverifyResult] = []
        self.installed: InstallResult | None = None
        self.rolled_back: RollbackResult | None = None
        self._started = False

        layout = QVBoxLayout(self)
        self.verdict = QLabel("Verifying…")
        font = QFont(self.verdict.font())
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.verdict.setFont(font)
        self.verdict.setWordWrap(True)
        layout.addWidget(self.verdict)
        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.explanation)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        layout.addWidget(self.busy)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 2)
        self.chart = ErrorChart()
        layout.addWidget(self.chart)

        self.usage = QPlainTextEdit()
        self.usage.setReadOnly(True)
        self.usage.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.usage.setMaximumHeight(90)
        self.usage.setVisible(False)
        layout.addWidget(self.usage)

        buttons = QHBoxLayout()
        self.install_anyway = QPushButton("Install anyway…")
        self.install_anyway.clicked.connect(self.ask_install_anyway)
        self.rebuild = QPushButton("Rebuild")
        self.rebuild.clicked.connect(self._rebuild)
        self.rollback_button = QPushButton("Roll back")
        self.rollback_button.setToolTip("Remove this install and restore what was there before")
        self.rollback_button.clicked.connect(self.do_rollback)
        self.bundle_button = ReportBundleButton(lambda: self.session)
        self.bundle_button.saved.connect(self._on_bundle_saved)
        for button in (self.install_anyway, self.rebuild, self.rollback_button):
            button.setVisible(False)
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.bundle_button)
        layout.addLayout(buttons)

    # -- QWizardPage -----------------------------------------------------------------------


    def initializePage(self) -> None:
        if self._started:
            return
        self._started = True
        if self.session.reverify_only:
            self.start_reverify()
        else:
            self.start_verify()

    def cleanupPage(self) -> None:  # Back: a later visit verifies the (new) build again
        self._started = False
        self.flow = None
        self.installed = None
        self.rolled_back = None

    def isComplete(self) -> bool:
        if self.task is not None:
            return False
        if self.installer() is not None and self.session.reverify_only:
            return bool(self.results)
        return self.installed is not None or self.rolled_back is not None or (
            self.flow is not None and self.flow.report.passed)

    # -- after a build ---------------------------------------------------------------------

    def start_verify(self) -> None:
        session = self.session
        outcome = session.current_build()
        if outcome is None or outcome.wheel is None or session.environment is None:
            self._show_error("Nothing to verify: the build did not produce a wheel.")
            return
        self.verdict.setText(f"Verifying {outcome.wheel.name}…")
        self.explanation.setText("Forward and backward passes are compared with PyTorch. "
                                 "Nothing is installed unless every check passes.")
        cancel = self._verify_cancel = threading.Event()
        self._run(lambda: session.verify_and_install(cancel=cancel), self._on_verified)

    def is_busy(self) -> bool:
        return self.task is not None or self.background_busy()

    def prepare_close(self, close: Callable[[], None]) -> bool:
        """Asks first; then a running verification is stopped (its whole process tree), while
        an install or a roll-back is let finish (never left half-installed). The wizard closes
        once the task has ended."""
        if self.task is None:
            return True
        answer = QMessageBox.question(
            self, "Stop and close?",
            "The kernel is being verified or installed. Stop the verification and close the "
            "wizard? An install that has already begun is finished first, so your environment "
            "is never left half-installed.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self.stop_work()
        self.task.finished.connect(lambda _result: close())
        self.task.failed.connect(lambda _error: close())
        return False

    def stop_work(self) -> None:
        if self._verify_cancel is not None:
            self._verify_cancel.set()

    def _run(self, work: Callable[[], object], done: Callable[[object], None]) -> None:
        self.busy.setVisible(True)
        self.task = BackgroundTask(work, self)
        self.task.finished.connect(done)
        self.task.failed.connect(self._on_failed)
        lock_back(self, True)  # no second run on the same env
        self.task.start()
        self.completeChanged.emit()

    def _task_done(self) -> None:
        self.task = None
        self.busy.setVisible(False)
        lock_back(self, False)

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self._task_done()
        from build_backend.errors import WizardError

        if isinstance(exc, WizardError):
            self._show_error(exc.what, exc.hint)
        else:
            self._show_error("The verification could not run.", str(exc))
        self.completeChanged.emit()

    def _show_error(self, text: str, hint: str = "") -> None:
        self.verdict.setText(f"✖ {text}")
        self.verdict.setStyleSheet("color: #a11d1d;")
        self.explanation.setText(hint)
        self.busy.setVisible(False)
        self.rebuild.setVisible(True)

    @Slot(object)
    def _on_verified(self, result: object) -> None:
        self._task_done()
        assert isinstance(result, FlowOutcome)
        self.flow = result
        self.installed = result.installed
        report = result.report
        self.show_report(report)
        if report.passed:
            self.verdict.setText("✔ PASS — the kernel computes correctly. It is installed.")
            self.verdict.setStyleSheet("color: #1d6b32;")
            env = self.session.environment
            where = env.executable if env else "the environment"
            self.explanation.setText(f"{result.message} Python: {where}. "
                                     f"Report: {result.saved.markdown_path}")
            self.usage.setPlainText(USAGE.get(report.adapter, ""))
            self.usage.setVisible(bool(self.usage.toPlainText()))
        else:
            self.verdict.setText("✖ FAIL — not installed." if report.status.value == "fail"
                                 else "✖ The kernel could not be verified — not installed.")
            self.verdict.setStyleSheet("color: #a11d1d;")
            reasons = "\n".join(f"• {r}" for r in report.reasons[:6])
            self.explanation.setText(
                f"{reasons}\n\nYour environment is unchanged. You can rebuild, save a report "
                f"bundle for a bug report, or install anyway (not recommended).\n"
                f"Report: {result.saved.markdown_path}"
            )
            self.install_anyway.setVisible(True)
            self.rebuild.setVisible(True)
        self.completeChanged.emit()

    def show_report(self, report: VerifyReport) -> None:
        self.table.setRowCount(len(report.cases))
        for row, case in enumerate(report.cases):
            worst = "; ".join(f"{m.name} {m.cell()}" for m in case.measures)
            cells = (case.name, case.dtype, "yes" if case.causal else "no", worst,
                     case.status.label)  # a check that did not run is "NOT RUN", not red
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 4:
                    item.setForeground(
                        Qt.GlobalColor.darkGreen if case.passed else Qt.GlobalColor.gray
                        if case.status is CaseStatus.SKIPPED else Qt.GlobalColor.red)
                if case.reasons:
                    item.setToolTip("\n".join(case.reasons))
                self.table.setItem(row, column, item)
        self.chart.set_report(report)

    @Slot()
    def ask_install_anyway(self) -> bool:
        if self.flow is None or self.session.environment is None:
            return False
        answer = QMessageBox.warning(
            self,
            "Install a kernel that failed verification?",
            "This kernel did not compute correctly in the checks (or could not be checked). "
            "Programs that use it may give wrong results without any error.\n\n"
            "Install it anyway? (The wizard keeps what it replaces, so you can roll back.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self._run(self.session.install_anyway, self._on_installed_anyway)
        return True

    @Slot(object)
    def _on_installed_anyway(self, result: object) -> None:
        self._task_done()
        assert isinstance(result, InstallResult)
        self.installed = result  # the session's verification names it (the Done page)
        self.install_anyway.setVisible(False)
        self.rollback_button.setVisible(True)
        self.verdict.setText("⚠ Installed although the verification failed.")
        self.verdict.setStyleSheet("color: #8a5a00;")
        replaced = (f"It replaced {result.previous.name} {result.previous.version}, which is "
                    "kept: Roll back puts it back." if result.previous is not None else
                    "Nothing was installed there before: Roll back removes it again.")
        self.explanation.setText(f"{result.name} {result.version} is now installed in "
                                 f"{result.python}. {replaced}")
        self.completeChanged.emit()

    @Slot()
    def do_rollback(self) -> None:
        if self.installed is None:
            return
        self.verdict.setText("Rolling back…")
        self._run(self.session.rollback, self._on_rolled_back)

    @Slot(object)
    def _on_rolled_back(self, result: object) -> None:
        self._task_done()
        assert isinstance(result, RollbackResult)
        self.installed = None
        self.rolled_back = result  # Next leads on to the summary
        self.rollback_button.setVisible(False)
        self.verdict.setText("↩ Rolled back: the environment is as it was before.")
        self.verdict.setStyleSheet("")
        self.explanation.setText(result.message)
        self.completeChanged.emit()

    @Slot()
    def _rebuild(self) -> None:
        # The session drops the build; the Build step starts a new one when it is shown.
        self.session.discard_build()
        self.installer().back()

    def save_bundle(self, path: Path) -> Path:
        """What "Save report bundle…" does once a file is chosen."""
        return self.bundle_button.save(path)

    @Slot(object)
    def _on_bundle_saved(self, bundle: object) -> None:
        self.explanation.setText(self.explanation.text() + f"\nReport bundle saved: {bundle}")

    # -- re-verification (from the Welcome page) -------------------------------------------

    def start_reverify(self) -> None:
        self.setTitle("Re-verify installed kernels")
        self.verdict.setText("Re-verifying the kernels this wizard installed…")
        self.explanation.setText(f"Installs recorded in {data_dir() / 'installs.json'}.")
        self._run(self.session.reverify, self._on_reverified)

    @Slot(object)
    def _on_reverified(self, result: object) -> None:
        self._task_done()
        self.results = list(cast("list[ReverifyResult]", result))
        ok = all(r.report.passed and not (r.comparison and r.comparison.regressed)
                 for r in self.results)
        if not self.results:
            self.verdict.setText("Nothing to verify yet.")
        elif ok:
            self.verdict.setText(f"✔ PASS — all {len(self.results)} installed kernel(s) work.")
            self.verdict.setStyleSheet("color: #1d6b32;")
        else:
            self.verdict.setText("✖ Something no longer works — see below.")
            self.verdict.setStyleSheet("color: #a11d1d;")
        self.explanation.setText("\n".join(line for r in self.results for line in r.lines()
                                           if not line.startswith("    PASS")))
        if self.results:
            self.show_report(self.results[-1].report)
        self.completeChanged.emit()
