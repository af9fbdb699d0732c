"""Verify: the built kernel is tested against PyTorch before it is installed.

After a build, the wheel is verified from a staging folder; nothing is installed by that. A pass
offers "Install into <the target Python>" (the commit point: what it replaces is backed up, Roll
back undoes it, and the wizard only goes forward after it) or "Finish without installing". A
failure installs nothing; the user can install anyway after a clear warning, rebuild, or save a
report bundle. Chosen from the Welcome page instead, the page
re-verifies every kernel the wizard installed and says what changed since the last pass.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QFont, QFontDatabase, QFontMetrics, QGuiApplication
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
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from kernel_wizard.base.paths import data_dir
from kernel_wizard.flow.reverify import ReverifyResult
from kernel_wizard.flow.session import FlowStep
from kernel_wizard.flow.verify_install import VerifyInstallOutcome
from kernel_wizard.install.installer import InstallResult, RollbackResult
from kernel_wizard.verify import CaseStatus, ErrorMeasure, VerifyReport
from kernel_wizard.verify.wording import (
    NOTHING_INSTALLED,
    case_reason,
    case_words,
    error_share,
    failure_details,
    speed_text,
    verdict_sentence,
)

from ..i18n import N_, Texts, kernel_name, tr, tr_core
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
COLUMNS = (N_("What was checked"), N_("Result"), N_("Largest error"))
RESULT_COLUMN = 1

# -- the texts (one place, whole sentences) ------------------------------------------------------

TEXT = Texts("Verify", {
    "title": "Verify",
    "subtitle": "The kernel is tested against PyTorch. Then you choose whether to install it: "
                "nothing is installed before that.",
    "title_reverify": "Check the installed kernels again",
    "subtitle_reverify": "The kernels this wizard installed are tested against PyTorch again, "
                         "and compared with their last passing check.",
    "verifying": "Testing {name}…",
    "verifying_text": "Its results are compared with PyTorch's, forward and backward. Nothing "
                      "is installed now: once every check has passed, you choose whether to "
                      "install it.",
    "pass": "✔ PASS — the kernel works, and it is installed.",
    "pass_not_installed": "✔ PASS — the kernel works.",
    "not_yet": "It is not installed yet: your Python environment is unchanged.",
    "install": "Install into {python}",
    "install_note": "Installs the kernel into the Python environment in “{folder}”. What it "
                    "replaces there is backed up first, and “Roll back” undoes the install.",
    "skip": "Finish without installing",
    "skip_tip": "Leave your Python environment as it is and go to the summary",
    "installing": "Installing into {python}…",
    "declined": "Nothing was installed: your Python environment is as it was.",
    "fail": "✖ FAIL — the kernel computes wrong results. It was not installed.",
    "error": "✖ The kernel could not be checked, so it was not installed.",
    "fail_next": "You can build it again, save a report bundle for a bug report, or install "
                 "it anyway (not recommended).",
    "details": "Details",
    "details_python": "Python: {python}",
    "details_report": "Report: {report}",
    "details_failed": "What failed:",
    "details_notes": "Notes:",
    "speed": "Speed",
    "usage": "Use it in your code",
    "copy": "Copy",
    "copied": "Copied",
    "open_report": "Open the report",
    "reverifying": "Testing the kernels this wizard installed again…",
    "reverify_where": "Installs recorded in {path}.",
    "reverify_none": "Nothing to check yet: this wizard has not installed a kernel.",
    "reverify_pass": "✔ PASS — all {n} installed kernels work.",
    "reverify_pass_one": "✔ PASS — the installed kernel works.",
    "reverify_fail": "✖ Something no longer works — see below.",
    "reverify_kernel": "{kernel}: {sentence}",
    "reverify_same": "Nothing changed since the last passing verification.",
    "reverify_not_compared": "Not compared: the last passing verification ({when}) ran none of "
                             "the checks this one ran.",
    "reverify_none_ran": "Not compared: this verification ran no check to compare with the "
                         "last passing one ({when}).",
    "reverify_changed": "Changed since the last passing verification: {changes}.",
    "reverify_first": "There is no earlier passing verification to compare with.",
    "reverify_regressed": "These checks passed before and fail now: {checks}.",
    "nothing_to_verify": "Nothing to verify: the build did not produce a wheel.",
    "could_not_run": "The verification could not run.",
    "installed_anyway": "{name} {version} is now installed in {python}.",
    "replaced_kept": "It replaced {name} {version}, which is kept: Roll back puts it back.",
    "nothing_before": "Nothing was installed there before: Roll back removes it again.",
    "bundle_saved": "Report bundle saved: {bundle}",
    "check_id": "Check {id}",
    "measure": "{label}: largest error {error}, allowed {limit}",
    "measure_over": "{label}: largest error {error}, more than the {limit} allowed",
    "measure_other": "{label}: {value}",
    "measure_missing": "{label}: the kernel returned nothing",
    "measure_shape": "{label}: wrong shape",
    "measure_invalid": "{label}: {nan} NaN and {inf} infinite values",
    "measure_none": "{label}: not measured",
    "output": "the output",
    "gradient": "{name}, the gradient of {of}",
})


def measure_text(m: ErrorMeasure) -> str:
    """One measure of a check in words: 'the output: largest error 1.8e-15, allowed 1e-08'."""
    if m.name == "out":
        label = TEXT["output"]
    elif len(m.name) == 2 and m.name.startswith("d"):
        label = TEXT["gradient"].format(name=m.name, of=m.name[1:])
    else:
        label = m.name
    if m.problem == "missing":
        return TEXT["measure_missing"].format(label=label)
    if m.problem == "shape":
        return TEXT["measure_shape"].format(label=label)
    if m.nan_count or m.inf_count:
        return TEXT["measure_invalid"].format(label=label, nan=m.nan_count, inf=m.inf_count)
    if m.kernel_err is None:
        return TEXT["measure_none"].format(label=label)
    if m.problem is None and m.rule != "upstream_allclose":
        return TEXT["measure" if m.passed else "measure_over"].format(
            label=label, error=f"{m.kernel_err:.2g}", limit=f"{m.tolerance:.2g}")
    return TEXT["measure_other"].format(label=label, value=m.cell())


class VerifyPage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(TEXT["title"])
        self.setSubTitle(TEXT["subtitle"])
        self.task: BackgroundTask | None = None
        self._verify_cancel: threading.Event | None = None  # stops a running verification
        self.report_path: Path | None = None
        self._started = False

        layout = self.scrolled()
        self.verdict = QLabel(tr("Verifying…"))
        font = QFont(self.verdict.font())
        font.setPointSizeF(font.pointSizeF() * 1.5)
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

        # after a pass: installing is asked for, the target named (visible without scrolling)
        self.install_panel = QWidget()
        panel = QVBoxLayout(self.install_panel)
        panel.setContentsMargins(0, 6, 0, 6)
        offer = QHBoxLayout()
        self.install_button = QPushButton()
        big = QFont(self.install_button.font())
        big.setPointSizeF(big.pointSizeF() * 1.15)
        big.setBold(True)
        self.install_button.setFont(big)
        self.install_button.setMinimumHeight(self.install_button.sizeHint().height() + 10)
        self.install_button.setAutoDefault(False)
        self.install_button.clicked.connect(self.do_install)
        self.skip_install = QPushButton(TEXT["skip"])
        self.skip_install.setToolTip(TEXT["skip_tip"])
        self.skip_install.setAutoDefault(False)
        self.skip_install.clicked.connect(self.finish_without_installing)
        offer.addWidget(self.install_button)
        offer.addWidget(self.skip_install)
        offer.addStretch(1)
        panel.addLayout(offer)
        self.install_note = QLabel()
        self.install_note.setWordWrap(True)
        self.install_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        panel.addWidget(self.install_note)
        self.install_panel.setVisible(False)
        layout.addWidget(self.install_panel)

        # what the person can do, right under the verdict (visible without scrolling)
        buttons = QHBoxLayout()
        self.install_anyway = QPushButton(tr("Install anyway…"))
        self.install_anyway.clicked.connect(self.ask_install_anyway)
        self.rebuild = QPushButton(tr("Build again"))
        self.rebuild.clicked.connect(self._rebuild)
        self.rollback_button = QPushButton(tr("Roll back"))
        self.rollback_button.setToolTip(tr("Remove this install and restore what was there before"))
        self.rollback_button.clicked.connect(self.do_rollback)
        self.report_button = QPushButton(TEXT["open_report"])
        self.report_button.clicked.connect(self.open_report)
        self.report_button.setVisible(False)
        self.bundle_button = ReportBundleButton(lambda: self.session)
        self.bundle_button.saved.connect(self._on_bundle_saved)
        for button in (self.install_anyway, self.rebuild, self.rollback_button):
            button.setVisible(False)
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.report_button)
        buttons.addWidget(self.bundle_button)
        layout.addLayout(buttons)

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
        self.table.setMinimumHeight(self._table_height(6))  # six rows before the page scrolls
        self.table.setVisible(False)
        layout.addWidget(self.table, 3)
        self.chart = ErrorChart()
        self.chart.setVisible(False)  # no axis labels before there are results
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
        layout.addStretch(0)
        self._show_results_area(False)

    # -- QWizardPage -----------------------------------------------------------------------


    def initializePage(self) -> None:
        if self._started:
            return
        self._started = True
        if self.session.reverify_only:
            self.start_reverify()
        else:
            self.setTitle(TEXT["title"])
            self.setSubTitle(TEXT["subtitle"])
            self.start_verify()

    def cleanupPage(self) -> None:  # Back: a later visit verifies the (new) build again
        self._started = False

    def isComplete(self) -> bool:
        # after a pass, Next waits for a choice: "Install into …" or "Finish without installing"
        # (the session knows it: Session.blocker)
        return self.flow_allows(FlowStep.DONE)

    # -- what the session knows -------------------------------------------------------------

    def _flow(self) -> VerifyInstallOutcome | None:
        """The verification of the current build (the session's)."""
        return self.session.current_verification() if self.wizard() is not None else None

    def _installed(self) -> InstallResult | None:
        flow = self._flow()
        return flow.installed if flow is not None else None

    # -- after a build ---------------------------------------------------------------------

    def start_verify(self) -> None:
        session = self.session
        outcome = session.current_build()
        if outcome is None or outcome.wheel is None or session.environment is None:
            self._show_error(TEXT["nothing_to_verify"])
            return
        self._reset_view()
        choice = session.effective_choice()
        self.verdict.setText(TEXT["verifying"].format(
            name=f"{kernel_name(choice.recipe.name)} {kernel_name(choice.version.label)}"))
        self.verdict.setToolTip(str(outcome.wheel.name))  # the file, for who wants it
        self.explanation.setText(TEXT["verifying_text"])
        cancel = self._verify_cancel = threading.Event()
        # verification only: installing is the person's choice afterwards ("Install into …")
        self._run(lambda: session.verify_and_install(install=False, cancel=cancel),
                  self._on_verified)

    def is_busy(self) -> bool:
        return self.task is not None or self.background_busy()

    def prepare_close(self, close: Callable[[], None]) -> bool:
        """Asks first; then a running verification is stopped (its whole process tree), while
        an install or a roll-back is let finish (never left half-installed). The wizard closes
        once the task has ended."""
        if self.task is None:
            return True
        answer = QMessageBox.question(
            self, tr("Stop and close?"),
            tr("The kernel is being verified or installed. Stop the verification and close the "
            "wizard? An install that has already begun is finished first, so your environment "
            "is never left half-installed."),
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

    def _run(self, work: Callable[..., object], done: Callable[[object], None], *,
             narrated: bool = False) -> None:
        """``work`` off the GUI thread; ``narrated``: it takes a function for the lines it
        says (shown under the verdict while it runs)."""
        self.busy.setVisible(True)
        self.task = BackgroundTask(work, self, narrated=narrated)
        self.task.said.connect(self._on_said)
        self.task.finished.connect(done)
        self.task.failed.connect(self._on_failed)
        lock_back(self, True)  # no second run on the same env
        self.task.start()
        self.completeChanged.emit()

    @Slot(str)
    def _on_said(self, line: str) -> None:
        self.explanation.setText(tr_core(line))

    def _task_done(self) -> None:
        self.task = None
        self.busy.setVisible(False)
        self._lock_back()

    def _lock_back(self) -> None:
        """No way back while something runs, nor once a kernel is installed: installing is the
        commit point (Back then Next would verify and install it again)."""
        lock_back(self, self.task is not None or self._installed() is not None)

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self._task_done()
        from kernel_wizard.base.errors import WizardError

        if isinstance(exc, WizardError):
            self._show_error(tr_core(exc.what), tr_core(exc.hint))
        else:
            self._show_error(TEXT["could_not_run"], str(exc))
        flow = self._flow()
        if flow is not None and flow.report.passed and flow.installed is None \
                and self.session.rolled_back is None:
            self._offer_install()  # the install failed: it can be tried again, or skipped
        self.completeChanged.emit()

    def _show_error(self, text: str, hint: str = "") -> None:
        self.verdict.setText(f"✖ {text}")
        self.verdict.setStyleSheet("color: #a11d1d;")
        self.explanation.setText(hint)
        self.busy.setVisible(False)
        self.rebuild.setVisible(True)

    @Slot(object)
    def _on_verified(self, result: object) -> None:
        assert isinstance(result, VerifyInstallOutcome)
        self._task_done()
        report = result.report
        self.show_report(report)
        env = self.session.environment
        lines = [TEXT["details_python"].format(python=env.executable if env else "?"),
                 TEXT["details_report"].format(report=result.saved.markdown_path)]
        self.report_path = result.saved.markdown_path
        self.report_button.setVisible(True)
        if report.passed:
            installed = result.installed is not None
            self.verdict.setText(TEXT["pass"] if installed else TEXT["pass_not_installed"])
            self.verdict.setStyleSheet("color: #1d6b32;")
            sentence = tr_core(verdict_sentence(report, installed))
            self.explanation.setText(sentence if installed else f"{sentence} {TEXT['not_yet']}")
            self.usage.setPlainText(USAGE.get(report.adapter, ""))
            if not installed:
                self._offer_install()
        else:
            failed = report.status.value == "fail"
            self.verdict.setText(TEXT["fail"] if failed else TEXT["error"])
            self.verdict.setStyleSheet("color: #a11d1d;")
            self.explanation.setText(" ".join((tr_core(verdict_sentence(report, False)),
                                               tr_core(NOTHING_INSTALLED), TEXT["fail_next"])))
            self.install_anyway.setVisible(True)
            self.rebuild.setVisible(True)
            problems = failure_details(report)
            if problems:
                lines += ["", TEXT["details_failed"], *(f"• {tr_core(p)}" for p in problems)]
        if report.notes:
            lines += ["", TEXT["details_notes"], *(f"• {tr_core(n)}" for n in report.notes)]
        self.set_details(lines)
        self.completeChanged.emit()

    def show_report(self, report: VerifyReport) -> None:
        """The checks in words with their results, the chart, the speed and the snippet."""
        self.table.setRowCount(len(report.cases))
        for row, case in enumerate(report.cases):
            numbers = "\n".join(measure_text(m) for m in case.measures)
            # a check that did not run is "NOT RUN" in grey, never a red failure
            cells = (case_words(case), case.status.label, error_share(case))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(tr_core(text))
                if column == RESULT_COLUMN:
                    item.setForeground(
                        Qt.GlobalColor.darkGreen if case.passed else Qt.GlobalColor.gray
                        if case.status is CaseStatus.SKIPPED else Qt.GlobalColor.red)
                tip = "\n".join([TEXT["check_id"].format(id=case.name), numbers,
                                 *(tr_core(case_reason(case, r)) for r in case.reasons)])
                item.setToolTip(tip)
                self.table.setItem(row, column, item)
        # every check without a second scroll bar (up to 12; the page scrolls instead)
        rows = max(len(report.cases), 1)
        self.table.setMinimumHeight(self._table_height(min(rows, 12)))
        self.table.setMaximumHeight(self._table_height(rows))
        self.chart.set_report(report)
        speed = speed_text(report)
        self.speed.setText("\n".join(tr_core(line) for line in (speed.heading, *speed.lines)))
        self._show_results_area(True)
        self.usage.setPlainText(USAGE.get(report.adapter, "") if report.passed else "")
        shown = bool(self.usage.toPlainText())
        for widget in (self.usage, self.usage_heading, self.copy_usage):
            widget.setVisible(shown)

    def _table_height(self, rows: int) -> int:
        table = self.table
        row = table.verticalHeader().defaultSectionSize()
        header = table.horizontalHeader().sizeHint().height()
        return header + rows * row + 2 * table.frameWidth() + 2

    def _show_results_area(self, shown: bool) -> None:
        results: tuple[QWidget, ...] = (self.table, self.chart, self.speed_heading, self.speed)
        for widget in results:
            widget.setVisible(shown)
        if not shown:
            snippet: tuple[QWidget, ...] = (self.usage, self.usage_heading, self.copy_usage)
            for widget in snippet:
                widget.setVisible(False)

    def _reset_view(self) -> None:
        self.verdict.setStyleSheet("")
        self._show_results_area(False)
        self.set_details([])
        self.report_button.setVisible(False)
        self.install_panel.setVisible(False)
        for button in (self.install_anyway, self.rebuild, self.rollback_button):
            button.setVisible(False)

    def set_details(self, lines: list[str]) -> None:
        self.details.setText("\n".join(lines))
        self.details_toggle.setVisible(bool(lines))
        if not lines:
            self.details_toggle.setChecked(False)

    @Slot(bool)
    def _toggle_details(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self.details_toggle.setArrowType(Qt.ArrowType.DownArrow if shown
                                         else Qt.ArrowType.RightArrow)

    @Slot()
    def _copy_usage(self) -> None:
        QGuiApplication.clipboard().setText(self.usage.toPlainText())
        self.copy_usage.setText(TEXT["copied"])

    @Slot()
    def open_report(self) -> bool:
        path = self.report_path
        return path is not None and QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))

    # -- installing: the person's explicit step, the commit point ----------------------------

    def target_python(self) -> Path | None:
        env = self.session.environment
        return env.executable if env is not None else None

    def target_folder(self) -> Path | None:
        """The environment folder the kernel goes into (its prefix)."""
        env = self.session.environment
        if env is None:
            return None
        return env.prefix or env.executable.parent.parent

    def _offer_install(self) -> None:
        """"Install into <python>" (the target named; a long path shortened in the middle,
        whole in the tooltip and the environment folder in the line under it) and "Finish
        without installing"."""
        python, folder = self.target_python(), self.target_folder()
        if python is None:
            return
        metrics = QFontMetrics(self.install_button.font())
        shown = metrics.elidedText(str(python), Qt.TextElideMode.ElideMiddle, 480)
        self.install_button.setText(TEXT["install"].format(python=shown))
        self.install_button.setToolTip(str(python))
        self.install_note.setText(TEXT["install_note"].format(folder=folder))
        self.install_button.setEnabled(True)
        self.skip_install.setEnabled(True)
        self.install_panel.setVisible(True)

    @Slot()
    def do_install(self) -> bool:
        """Install the verified kernel into the target Python (in the background, its lines
        shown): the commit point, after which Back stays locked."""
        flow = self._flow()
        if flow is None or not flow.report.passed or flow.installed is not None \
                or self.task is not None:
            return False
        self.install_button.setEnabled(False)
        self.skip_install.setEnabled(False)
        self.verdict.setText(TEXT["installing"].format(python=self.target_python()))
        self.verdict.setStyleSheet("")
        self._run(self.session.install_verified, self._on_installed, narrated=True)
        return True

    @Slot(object)
    def _on_installed(self, result: object) -> None:
        self._task_done()
        assert isinstance(result, InstallResult)
        self.install_panel.setVisible(False)
        self.rollback_button.setVisible(True)
        self.verdict.setText(TEXT["pass"])
        self.verdict.setStyleSheet("color: #1d6b32;")
        self.explanation.setText(self._installed_text(result))
        self._lock_back()
        self.completeChanged.emit()

    def _installed_text(self, result: InstallResult) -> str:
        replaced = (TEXT["replaced_kept"].format(name=result.previous.name,
                                                 version=result.previous.version)
                    if result.previous is not None else TEXT["nothing_before"])
        installed = TEXT["installed_anyway"].format(name=result.name, version=result.version,
                                                    python=result.python)
        return f"{installed} {replaced}"

    @Slot()
    def finish_without_installing(self) -> None:
        """The person chose not to install: nothing changes, and the summary says so."""
        if self.task is not None or self._installed() is not None \
                or self._flow() is None:
            return
        self.session.decline_install()
        self.install_panel.setVisible(False)
        self.explanation.setText(TEXT["declined"])
        self.completeChanged.emit()
        wizard = self.wizard()
        if wizard is not None and wizard.currentPage() is self:
            wizard.next()

    @Slot()
    def ask_install_anyway(self) -> bool:
        if self._flow() is None or self.session.environment is None:
            return False
        answer = QMessageBox.warning(
            self,
            tr("Install a kernel that failed verification?"),
            tr("This kernel did not compute correctly in the checks (or could not be checked). "
            "Programs that use it may give wrong results without any error.\n\n"
            "Install it anyway? (The wizard keeps what it replaces, so you can roll back.)"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self._run(self.session.install_anyway, self._on_installed_anyway, narrated=True)
        return True

    @Slot(object)
    def _on_installed_anyway(self, result: object) -> None:
        self._task_done()
        assert isinstance(result, InstallResult)  # the session's verification names it
        self.install_anyway.setVisible(False)
        self.rollback_button.setVisible(True)
        self.verdict.setText(tr("⚠ Installed although the verification failed."))
        self.verdict.setStyleSheet("color: #8a5a00;")
        self.explanation.setText(self._installed_text(result))
        self._lock_back()
        self.completeChanged.emit()

    @Slot()
    def do_rollback(self) -> None:
        if self._installed() is None:
            return
        self.verdict.setText(tr("Rolling back…"))
        self._run(self.session.rollback, self._on_rolled_back, narrated=True)

    @Slot(object)
    def _on_rolled_back(self, result: object) -> None:
        self._task_done()
        assert isinstance(result, RollbackResult)  # the session's: Next leads to the summary
        self.rollback_button.setVisible(False)
        self.verdict.setText(tr("↩ Rolled back: the environment is as it was before."))
        self.verdict.setStyleSheet("")
        self.explanation.setText(tr_core(result.message))
        self._lock_back()
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
        self.explanation.setText(self.explanation.text() + "\n"
                                 + TEXT["bundle_saved"].format(bundle=bundle))

    # -- re-verification (from the Welcome page) -------------------------------------------

    def start_reverify(self) -> None:
        self.setTitle(TEXT["title_reverify"])
        self.setSubTitle(TEXT["subtitle_reverify"])
        self._reset_view()
        self.verdict.setText(TEXT["reverifying"])
        self.explanation.setText(TEXT["reverify_where"].format(path=data_dir() / "installs.json"))
        self._run(self.session.reverify, self._on_reverified)

    @Slot(object)
    def _on_reverified(self, result: object) -> None:
        self._task_done()
        results = list(cast("list[ReverifyResult]", result))  # the session keeps them too
        ok = all(r.report.passed and not (r.comparison and r.comparison.regressed)
                 for r in results)
        if not results:
            self.verdict.setText(TEXT["reverify_none"])
        elif ok:
            self.verdict.setText(TEXT["reverify_pass_one"] if len(results) == 1
                                 else TEXT["reverify_pass"].format(n=len(results)))
            self.verdict.setStyleSheet("color: #1d6b32;")
        else:
            self.verdict.setText(TEXT["reverify_fail"])
            self.verdict.setStyleSheet("color: #a11d1d;")
        self.explanation.setText("\n".join(self.reverify_lines()))
        self.set_details([tr_core(line) for r in results for line in r.lines()
                          if not line.startswith("    PASS")])
        if results:
            self.show_report(results[-1].report)
            self.report_path = results[-1].saved.markdown_path
            self.report_button.setVisible(True)
        self.completeChanged.emit()

    def reverify_lines(self) -> list[str]:
        """Per kernel: whether it still works (one sentence), then what changed since its last
        passing check."""
        lines: list[str] = []
        for result in self.session.reverify_results or []:
            lines.append(TEXT["reverify_kernel"].format(
                kernel=tr_core(result.label),
                sentence=tr_core(verdict_sentence(result.report, installed=False))))
            comparison = result.comparison
            if comparison is None:
                lines.append(TEXT["reverify_first"])
                continue
            if comparison.compared == 0:  # never "nothing changed" when nothing was compared
                when = result.previous.saved_at if result.previous is not None else ""
                ran = any(c.status is not CaseStatus.SKIPPED for c in result.report.cases)
                lines.append(TEXT["reverify_not_compared" if ran else "reverify_none_ran"]
                             .format(when=when))
            if comparison.changes:
                lines.append(TEXT["reverify_changed"].format(
                    changes="; ".join(tr_core(c.sentence()) for c in comparison.changes)))
            elif comparison.compared:
                lines.append(TEXT["reverify_same"])
            if comparison.regressions:
                lines.append(TEXT["reverify_regressed"].format(
                    checks=", ".join(comparison.regressions)))
        return lines
