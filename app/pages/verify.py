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
from PySide6.QtGui import QDesktopServices, QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QProgressBar, QPushButton

from kernel_wizard.base.paths import data_dir
from kernel_wizard.flow.reverify import ReverifyResult, reverify_title
from kernel_wizard.flow.session import FlowStep
from kernel_wizard.flow.verify_install import VerifyInstallOutcome
from kernel_wizard.install.installer import InstallResult, RollbackResult
from kernel_wizard.verify import ReportView, VerifyReport, report_view

from ..i18n import Texts, kernel_name, tr, tr_core
from ..widgets.install_offer import InstallOffer, installed_text
from ..widgets.report_bundle import ReportBundleButton
from ..widgets.verify_results import VerifyResults
from ..workers import BackgroundTask
from .base import SessionPage
from .navigation import lock_back

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
    "installing": "Installing into {python}…",
    "declined": "Nothing was installed: your Python environment is as it was.",
    "details_python": "Python: {python}",
    "details_report": "Report: {report}",
    "open_report": "Open the report",
    "reverifying": "Testing the kernels this wizard installed again…",
    "reverify_where": "Installs recorded in {path}.",
    "nothing_to_verify": "Nothing to verify: the build did not produce a wheel.",
    "could_not_run": "The verification could not run.",
    "bundle_saved": "Report bundle saved: {bundle}",
})


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
        self.install_panel = InstallOffer()
        self.install_panel.install_button.clicked.connect(self.do_install)
        self.install_panel.skip_install.clicked.connect(self.finish_without_installing)
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

        self.results = VerifyResults()
        layout.addWidget(self.results, 3)
        layout.addStretch(0)

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
        installed = result.installed is not None
        view = report_view(report, installed=installed)
        self.show_report(view, report)
        env = self.session.environment
        lines = [TEXT["details_python"].format(python=env.executable if env else "?"),
                 TEXT["details_report"].format(report=result.saved.markdown_path)]
        self.report_path = result.saved.markdown_path
        self.report_button.setVisible(True)
        self.verdict.setText(tr_core(view.title))
        self.verdict.setStyleSheet("color: #1d6b32;" if view.passed else "color: #a11d1d;")
        self.explanation.setText(tr_core(view.explanation))
        if view.passed and not installed:
            self._offer_install()
        elif not view.passed:
            self.install_anyway.setVisible(True)
            self.rebuild.setVisible(True)
        self.results.set_details([*lines, *(tr_core(line) for line in view.detail_lines())])
        self.completeChanged.emit()

    def show_report(self, view: ReportView, report: VerifyReport) -> None:
        """The checks in words with their results, the chart, the speed and the snippet."""
        self.results.show_report(view, report, self.session.catalog().usage(report.adapter))

    def _reset_view(self) -> None:
        self.verdict.setStyleSheet("")
        self.results.show_results(False)
        self.results.set_details([])
        self.report_button.setVisible(False)
        self.install_panel.setVisible(False)
        for button in (self.install_anyway, self.rebuild, self.rollback_button):
            button.setVisible(False)

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
        python = self.target_python()
        if python is not None:
            self.install_panel.offer(python, self.target_folder())

    @Slot()
    def do_install(self) -> bool:
        """Install the verified kernel into the target Python (in the background, its lines
        shown): the commit point, after which Back stays locked."""
        flow = self._flow()
        if flow is None or not flow.report.passed or flow.installed is not None \
                or self.task is not None:
            return False
        self.install_panel.set_choosing(False)
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
        flow = self._flow()
        if flow is not None:
            self.verdict.setText(tr_core(report_view(flow.report, installed=True).title))
        self.verdict.setStyleSheet("color: #1d6b32;")
        self.explanation.setText(installed_text(result))
        self._lock_back()
        self.completeChanged.emit()

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
        self.explanation.setText(installed_text(result))
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
        self.verdict.setText(tr_core(reverify_title(results)))
        if results:
            self.verdict.setStyleSheet("color: #1d6b32;" if all(r.ok for r in results)
                                       else "color: #a11d1d;")
        self.explanation.setText("\n".join(tr_core(line) for r in results
                                           for line in r.summary()))
        self.results.set_details([tr_core(line) for r in results for line in r.lines()
                                  if not line.startswith("    PASS")])
        if results:
            self.show_report(report_view(results[-1].report), results[-1].report)
            self.report_path = results[-1].saved.markdown_path
            self.report_button.setVisible(True)
        self.completeChanged.emit()
