"""Build: the kernel is compiled in the background; the log streams, failures are explained."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QGuiApplication, QShowEvent, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from kernel_wizard.base.errors import ExitCode, WizardError
from kernel_wizard.base.paths import logs_dir
from kernel_wizard.build.eta import UnitTime
from kernel_wizard.build.plan import BuildPlan
from kernel_wizard.build.progress_view import ProgressFrame, ProgressView
from kernel_wizard.build.run import (
    BuildEvent,
    BuildOutcome,
    BuildStatus,
    DiagnosisEvent,
    LogLine,
    PlanEvent,
    ProgressEvent,
    RetryEvent,
    StallEvent,
    Step,
    StepEvent,
    StepState,
    unhandled,
)
from kernel_wizard.diagnose import Diagnosis
from kernel_wizard.flow.session import FlowStep

from ..i18n import N_, Texts, kernel_name, tr, tr_core
from ..time_words import TEXT as TIME_WORDS
from ..time_words import duration_text as format_duration
from ..widgets.banner import Banner, Tone
from ..widgets.dialogs import ask
from ..widgets.log_view import LogView
from ..widgets.report_bundle import ReportBundleButton
from ..workers import BuildWorker
from .base import SessionPage
from .navigation import lock_back

STEP_TITLES = {
    Step.DOWNLOAD: N_("Download the prebuilt wheel"),
    Step.CACHE: N_("Take the verified wheel from the cache"),
    Step.SOURCE: N_("Get the source"),
    Step.PATCH: N_("Apply patches"),
    Step.COMPILE: N_("Compile"),
    Step.LINK: N_("Link"),
    Step.WHEEL: N_("Package the wheel"),
}
STATE_TEXT = {
    StepState.RUNNING: N_("running…"),
    StepState.DONE: N_("done"),
    StepState.FAILED: N_("failed"),
    StepState.CANCELLED: N_("cancelled"),
}

# -- the texts (one place) ---------------------------------------------------------------------

TEXT = Texts("Build", {
    "jobs_one": "Compiling one file at a time: this computer's processor and memory allow no "
                "more. The details are under “What will run”.",
    "jobs_many": "Compiling {jobs} files at a time: as many as this computer's processor and "
                 "memory allow. The details are under “What will run”.",
    "stop_title": "Stop the build?",
    "stop_text": "Stop the build now? Everything compiled so far is discarded. Nothing has been "
                 "installed, so your Python environment stays as it is.",
    "stop_do": "Stop the build",
    "stop_dont": "Keep building",
    "close_title": "Stop the build and close the wizard?",
    "close_text": "The build is still running. Stop it and close the wizard? Everything "
                  "compiled so far is discarded. Nothing has been installed, so your Python "
                  "environment stays as it is.",
    "close_do": "Stop and close",
    "cancelled": "The build was cancelled; nothing was installed.",
    "cancelled_hint": "Click “Build again” to start it over, or Back to choose something else.",
    "building": "Building {name}…",
    "built": "{name} is built and ready to be verified.",
    "downloaded": "{name}: the prebuilt wheel is downloaded and ready to be verified.",
    "wheel_file": "Wheel: {file}",
    "plan_waiting": "The exact commands appear once the source is ready.",
    # the progress bar and the words beside it: kernel_wizard.build.progress_view's forms
    # (ENGLISH), written out here so that scripts/translations.py finds them;
    # tests/gui/test_build_progress_agree.py keeps them equal
    "bar": "{done} / {total} units",
    "bar_download": "{done} / {total} {unit}",
    "preparing": "preparing",
    "packaging": "packaging",
    # a build of several extensions (one ninja run each); {run}: which one compiles
    "extension": "extension {run}",
    "bar_runs": "extension {run} · {done} / {total} units",
    "bar_runs_so_far": "extension {run} · {done} / {total} units so far",
    "elapsed": "{duration} elapsed",
    "took": "took {duration}",
    "slowest": "Slowest to compile: {units}",
    "log": "Log: {path}",
    "hit": "● {title} (line {line})",
    "why": "  Why: {cause}",
    "what_to_do": "  What to do: {fix}",
    "other_hit": "○ {title} (line {line})",
    "first_error": "First error (line {line}):",
    "stopped": "Stopped while {family}: {next_step}",
    "cause_unknown": "The wizard does not know this cause. The lines above are where the build "
                     "failed; save the report bundle (the button above) and attach it when you "
                     "ask for help.",
    "cause_unknown_family": "The cause is not one the wizard knows; it stopped while {family}: "
                            "that usually means {usually}. Save the report bundle (the button "
                            "above) and attach it when you ask for help.",
    "full_log": "Full log: {path}",
    "see_log": "See the log: {path}",
    "error_why": "Why: {why}",
    "error_do": "What to do: {hint}",
    "stall": "No output for {quiet}. Still running: {running}. Large kernels can compile for "
             "many minutes without printing.",
    "no_compiler": "no compiler process found",
    "attempt": "Attempt {attempt}",
    "bar_failed": "Failed",
    "bar_done": "Done",
    "bar_cancelled": "Cancelled",
    "bar_failed_after": "Failed: %v of %m units compiled",
    "bar_cancelled_after": "Cancelled: %v of %m units compiled",
    "bundle_saved": "Report bundle saved: {bundle} — attach it to your bug report.",
    "step": "Step",
    "state": "State",
    "time": "Time",
})


class BuildPage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(tr("Build"))
        self.setSubTitle(tr("The kernel is compiled into a wheel. Nothing is installed yet."))
        self.job: BuildWorker[BuildEvent] | None = None
        self._frame: ProgressFrame | None = None  # the progress shown last
        self.plan: BuildPlan | None = None
        self._step_items: dict[Step, QTreeWidgetItem] = {}

        layout = self.scrolled()
        self.banner = Banner()
        layout.addWidget(self.banner)

        plan_row = QHBoxLayout()
        self.plan_toggle = QToolButton()
        self.plan_toggle.setText(tr("What will run"))
        self.plan_toggle.setCheckable(True)
        self.plan_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.plan_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.plan_toggle.toggled.connect(self._toggle_plan)
        self.copy_plan = QPushButton(tr("Copy the commands"))
        self.copy_plan.clicked.connect(self._copy_plan)
        plan_row.addWidget(self.plan_toggle)
        plan_row.addStretch(1)
        plan_row.addWidget(self.copy_plan)
        layout.addLayout(plan_row)
        self.plan_text = QPlainTextEdit()
        self.plan_text.setReadOnly(True)
        self.plan_text.setMaximumHeight(130)
        self.plan_text.setVisible(False)
        layout.addWidget(self.plan_text)

        progress_row = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # busy until the number of units is known
        self.eta = QLabel()  # "4 min 10 s elapsed · about 9 min left"
        self.cancel_button = QPushButton(tr("Cancel build"))
        self.cancel_button.clicked.connect(self.ask_cancel)
        self.rebuild_button = QPushButton(tr("Build again"))
        self.rebuild_button.clicked.connect(self.start_build)
        self.rebuild_button.setVisible(False)
        # the same button as on the Verify page: logs, reports and this machine in one zip
        self.bundle_button = ReportBundleButton(lambda: self.session, self._bundle_extras)
        self.bundle_button.saved.connect(self._on_bundle_saved)
        self.bundle_button.setVisible(False)
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.eta)
        progress_row.addWidget(self.cancel_button)
        progress_row.addWidget(self.rebuild_button)
        progress_row.addWidget(self.bundle_button)
        layout.addLayout(progress_row)
        self.bundle_saved = QLabel()
        self.bundle_saved.setWordWrap(True)
        self.bundle_saved.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bundle_saved.setVisible(False)
        layout.addWidget(self.bundle_saved)
        self.stall = QLabel()
        self.stall.setWordWrap(True)
        self.stall.setVisible(False)
        layout.addWidget(self.stall)

        splitter = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        top_layout = QHBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        self.steps = QTreeWidget()
        self.steps.setHeaderLabels([TEXT["step"], TEXT["state"], TEXT["time"]])
        self.steps.setRootIsDecorated(False)
        self.steps.setMaximumWidth(340)
        top_layout.addWidget(self.steps)
        self.diagnosis = QPlainTextEdit()
        self.diagnosis.setReadOnly(True)
        self.diagnosis.setVisible(False)  # shown once the log names a known problem
        top_layout.addWidget(self.diagnosis, 1)
        top_layout.addStretch(0)
        self._top = top
        splitter.addWidget(top)
        self.log = LogView()
        self.log.setMinimumHeight(170)  # a small window scrolls the page instead
        splitter.addWidget(self.log)
        splitter.setStretchFactor(1, 3)
        splitter.setChildrenCollapsible(False)
        self._splitter = splitter
        layout.addWidget(splitter, 1)
        self._fit_top()

    # -- QWizardPage -----------------------------------------------------------------------


    def initializePage(self) -> None:
        # Long work starts once the page is shown; a build of other choices (the user went
        # back and picked another kernel, version, source or Python) is not reused.
        self._start_if_needed()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        # Shown again by Back from the Verify step after "Build again": the session has no
        # build for the current choices any more, so one starts.
        super().showEvent(event)
        self._start_if_needed()

    def _start_if_needed(self) -> None:
        # once per set of choices (and again after the session dropped the build)
        if self.job is None and not self.session.build_started():
            self.start_build()

    def isComplete(self) -> bool:
        return self.flow_allows(FlowStep.VERIFY)

    def is_running(self) -> bool:
        return self.job is not None

    # -- running ---------------------------------------------------------------------------

    @Slot()
    def start_build(self) -> None:
        session = self.session
        session.begin_build()  # the old build is forgotten now, not when the worker starts
        self.plan = None
        self.plan_text.setPlainText(TEXT["plan_waiting"])
        self.log.clear()
        self.log.source_file = None
        self.diagnosis.clear()
        self.steps.clear()
        self._fit_top()
        self._step_items.clear()
        self.stall.setVisible(False)
        self._show_bar_state(None)
        self.progress.setRange(0, 0)
        self.eta.setText("")
        self.bundle_button.setVisible(False)
        self.bundle_saved.setVisible(False)
        self.banner.show_message(Tone.INFO, TEXT["building"].format(name=self.kernel_text()))

        self.job = BuildWorker(session.build, parent=self,
                               view=ProgressView.for_display(TEXT, TIME_WORDS))
        self.job.lines.connect(self.log.append_lines)
        self.job.progress.connect(self._on_progress)
        self.job.other_event.connect(self._on_event)
        self.job.finished.connect(self._on_finished)
        self.cancel_button.setVisible(True)
        self.cancel_button.setEnabled(True)
        self.rebuild_button.setVisible(False)
        lock_back(self, True)
        self.job.start()
        self.completeChanged.emit()

    def _show_plan(self, plan: BuildPlan) -> None:
        self.plan = plan
        self.plan_text.setPlainText(plan.describe())
        self.log.source_file = plan.log_path
        jobs = plan.parallelism.jobs
        self.banner.show_message(Tone.INFO,
                                 TEXT["building"].format(name=self.kernel_text()),
                                 TEXT["jobs_one"] if jobs == 1
                                 else TEXT["jobs_many"].format(jobs=jobs))
        self.banner.setToolTip(tr_core(plan.parallelism.reason))

    def kernel_text(self) -> str:
        """'Probe kernel 0.1.0': the chosen kernel and version, in the user's language."""
        try:
            choice = self.session.effective_choice()
        except Exception:  # noqa: BLE001 - no catalog: the words must not fail the page
            return kernel_name("Probe kernel")
        return f"{kernel_name(choice.recipe.name)} {kernel_name(choice.version.label)}"

    @Slot()
    def ask_cancel(self) -> bool:
        """Ask, then stop the build. Returns True if the build is (being) stopped."""
        return self._ask_stop(TEXT["stop_title"], TEXT["stop_text"], TEXT["stop_do"])

    def _ask_stop(self, title: str, text: str, do: str) -> bool:
        if self.job is None:
            return True
        if not ask(self, title, text, do, TEXT["stop_dont"], warning=True):
            return False
        self.cancel_now()
        return True

    def is_busy(self) -> bool:
        return self.job is not None or self.background_busy()

    def prepare_close(self, close: Callable[[], None]) -> bool:
        """A running build stops only after the person confirms; then the wizard closes once
        the whole process tree has stopped."""
        if self.job is None:
            return True
        if not self._ask_stop(TEXT["close_title"], TEXT["close_text"], TEXT["close_do"]):
            return False  # the person chose to keep building
        if self.job is None:  # it finished while the question was open
            return True
        self.job.finished.connect(lambda _outcome: close())
        return False

    def stop_work(self) -> None:
        self.cancel_now()

    def cancel_now(self) -> None:
        if self.job is not None:
            self.cancel_button.setEnabled(False)
            self.banner.show_message(Tone.INFO, tr("Stopping the build and its compilers…"))
            self.job.cancel()

    def show_progress(self, event: ProgressEvent) -> None:
        """Show ``event`` now (the worker's view decides when during a build)."""
        self._on_progress(ProgressFrame.of(event, TEXT, TIME_WORDS))

    @Slot(object)
    def _on_progress(self, frame: ProgressFrame) -> None:
        """Render the core's frame: the bar (busy until the count is known) and the words
        beside it."""
        self._frame = frame
        if frame.determinate:
            self.progress.setFormat(frame.bar)
            self.progress.setRange(0, frame.event.total)
            self.progress.setValue(frame.event.done)
        else:
            self.progress.setRange(0, 0)
        self.eta.setText(frame.status)

    @staticmethod
    def slowest_text(units: tuple[UnitTime, ...]) -> str:
        """'Slowest to compile: bf16.o 2 min 03 s, ...' (names without their folders)."""
        if not units:
            return ""
        return TEXT["slowest"].format(units=", ".join(
            f"{u.name.rsplit('/', 1)[-1]} {format_duration(u.seconds)}" for u in units))

    @Slot(object)
    def _on_event(self, event: BuildEvent) -> None:
        """Every event but the log's lines and the progress (the worker hands those on by
        themselves); those two are shown too if they come this way."""
        if isinstance(event, LogLine):
            self.log.append_lines([event.text])
        elif isinstance(event, ProgressEvent):
            self.show_progress(event)
        elif isinstance(event, PlanEvent):
            self._show_plan(event.plan)
        elif isinstance(event, StepEvent):
            item = self._step_items.get(event.step)
            if item is None:
                item = QTreeWidgetItem([tr(STEP_TITLES.get(event.step, event.step.value)), "", ""])
                self.steps.addTopLevelItem(item)
                self._step_items[event.step] = item
            item.setText(1, tr(STATE_TEXT[event.state]))
            if event.state is not StepState.RUNNING:
                item.setText(2, format_duration(event.seconds))
            self.steps.resizeColumnToContents(0)
            self._fit_top()
        elif isinstance(event, DiagnosisEvent):
            self.diagnosis.appendPlainText(self.hit_text(event.diagnosis) + "\n")
            self._fit_top()
        elif isinstance(event, StallEvent):
            running = ", ".join(event.compilers) or TEXT["no_compiler"]
            self.stall.setText(TEXT["stall"].format(
                quiet=format_duration(event.quiet_seconds), running=running))
            self.stall.setVisible(True)
        elif isinstance(event, RetryEvent):
            reason = tr_core(event.reason)
            self.banner.show_message(Tone.WARNING, TEXT["attempt"].format(attempt=event.attempt),
                                     reason)
            self.diagnosis.appendPlainText(f"↻ {reason}\n")
            self._fit_top()
        else:
            unhandled(event)
        if not isinstance(event, StallEvent):
            self.stall.setVisible(False)

    @Slot(object)
    def _on_finished(self, outcome: object) -> None:
        self.job = None
        self.cancel_button.setVisible(False)
        self.rebuild_button.setVisible(True)
        lock_back(self, False)
        if not isinstance(outcome, BuildOutcome):
            if isinstance(outcome, WizardError) and outcome.exit_code == ExitCode.CANCELLED:
                self._show_bar_state(BuildStatus.CANCELLED)
                self.banner.show_message(Tone.WARNING, TEXT["cancelled"],
                                         TEXT["cancelled_hint"])
            elif isinstance(outcome, WizardError):  # the source or a patch failed: explained
                self._show_bar_state(BuildStatus.FAILED)
                self.bundle_button.setVisible(True)
                self.banner.show_message(Tone.ERROR, tr_core(outcome.what),
                                         tr_core(outcome.hint))
                self.diagnosis.setPlainText(self.error_text(outcome))
                self._fit_top()
            else:
                self._show_bar_state(BuildStatus.FAILED)
                self.bundle_button.setVisible(True)
                self.banner.show_message(Tone.ERROR, tr("The build stopped unexpectedly."),
                                         str(outcome))
            self.completeChanged.emit()
            return

        if outcome.status is BuildStatus.SUCCEEDED:
            if self.progress.maximum() > 0 and self._frame is not None:
                # the units counted: all of them, every extension's ("24 / 24 units")
                self._on_progress(self._frame.completed(TEXT, TIME_WORDS))
            else:  # a build that never said how many units (no ninja): a full bar, "Done"
                self.progress.setRange(0, 1)
                self.progress.setValue(1)
                self.progress.setFormat(TEXT["bar_done"])
            self.eta.setText(TEXT["took"].format(duration=format_duration(outcome.seconds)))
            slow = self.slowest_text(outcome.slowest_units)
            # a sentence leads; the wheel's file name (or the download's) comes under it
            if outcome.download is not None:
                headline = TEXT["downloaded"].format(name=self.kernel_text())
                what = tr_core(outcome.message)
            else:
                headline = TEXT["built"].format(name=self.kernel_text())
                what = (TEXT["wheel_file"].format(file=outcome.wheel.name)
                        if outcome.wheel is not None else "")
            self.banner.show_message(Tone.OK, headline, "\n".join(
                line for line in (what, slow, TEXT["log"].format(path=outcome.log_path))
                if line))
            self.rebuild_button.setVisible(False)
        elif outcome.status is BuildStatus.CANCELLED:
            self.eta.setText("")
            self._show_bar_state(BuildStatus.CANCELLED)
            self.banner.show_message(Tone.WARNING, TEXT["cancelled"],
                                     tr_core(outcome.hint) if outcome.leftover_pids
                                     else TEXT["cancelled_hint"])
        else:
            self.eta.setText("")
            self._show_bar_state(BuildStatus.FAILED)
            self.bundle_button.setVisible(True)
            self.banner.show_message(Tone.ERROR, tr_core(outcome.message), tr_core(outcome.hint))
            self.diagnosis.setPlainText(self.failure_text(outcome))
            self.diagnosis.moveCursor(QTextCursor.MoveOperation.Start)
            self._fit_top()
        self.completeChanged.emit()

    def _show_bar_state(self, status: BuildStatus | None) -> None:
        """The bar never looks like success after a failure: it stays where the build stopped,
        red, and says so ("Failed: 3 of 24 units compiled"). None: a fresh bar for a new build."""
        bar = self.progress
        if status is None:
            self._frame = None
            bar.setFormat(tr("%v / %m"))
            bar.setStyleSheet("")
            return
        failed = status is BuildStatus.FAILED
        if bar.maximum() == 0:  # no step count was seen: nothing to show but the word
            bar.setRange(0, 1)
            bar.setValue(0)
            bar.setFormat(TEXT["bar_failed"] if failed else TEXT["bar_cancelled"])
        else:
            bar.setFormat(TEXT["bar_failed_after"] if failed else TEXT["bar_cancelled_after"])
        if status is BuildStatus.FAILED:
            # text-align: a style sheet otherwise draws the text at the top left, clipped
            bar.setStyleSheet("QProgressBar { color: #a11d1d; text-align: center; "
                              "border: 1px solid #b9b9b9; border-radius: 2px; } "
                              "QProgressBar::chunk { background-color: #d9a0a0; }")

    def _bundle_extras(self) -> list[Path]:
        """The build log goes into the bundle too when it lives outside the data folder."""
        outcome = self.session.current_build()
        log = outcome.log_path if outcome is not None else (
            self.plan.log_path if self.plan is not None else None)
        if log is None or log.is_relative_to(logs_dir(create=False)):
            return []  # the bundle has the logs folder anyway
        return [log]

    def save_bundle(self, path: Path) -> Path:
        """What "Save report bundle…" does once a file is chosen."""
        return self.bundle_button.save(path)

    @Slot(object)
    def _on_bundle_saved(self, bundle: object) -> None:
        self.bundle_saved.setText(TEXT["bundle_saved"].format(bundle=bundle))
        self.bundle_saved.setVisible(True)

    @staticmethod
    def hit_text(hit: Diagnosis) -> str:
        """A known problem the log showed: its title, why it happens and what to do, in the
        user's language."""
        return "\n".join((TEXT["hit"].format(title=tr_core(hit.title), line=hit.line_number),
                          TEXT["why"].format(cause=tr_core(hit.cause)),
                          TEXT["what_to_do"].format(fix=tr_core(hit.fix))))

    @staticmethod
    def error_text(error: WizardError) -> str:
        """A failed source or patch step: what happened, why, and what to do."""
        parts = [tr_core(error.what)]
        if error.why:
            parts.append(TEXT["error_why"].format(why=tr_core(error.why)))
        if error.hint:
            parts.append(TEXT["error_do"].format(hint=tr_core(error.hint)))
        return "\n".join(parts)

    @classmethod
    def failure_text(cls, outcome: BuildOutcome) -> str:
        """The explanation of a failed build: the cause first, then the first error's context,
        then anything else the log showed. The log's own lines are shown as they are."""
        report = outcome.diagnosis
        parts: list[str] = []
        if report is None:
            return TEXT["see_log"].format(path=outcome.log_path)
        primary = report.primary
        if primary is not None:
            parts.append(cls.hit_text(primary) + "\n")
        family = report.family
        if family is not None:  # where it stopped, and the next step right for that stage
            parts.append(TEXT["stopped"].format(family=tr_core(family.title),
                                                next_step=tr_core(family.next_step)) + "\n")
        first = report.first_error
        if first is not None:
            context = "\n".join(first.context_before[-3:])
            parts.append(f"{TEXT['first_error'].format(line=first.line_number)}\n{context}\n"
                         f"→ {first.line}\n")
        if report.cause_unknown and family is not None:  # never "no errors"
            parts.append(TEXT["cause_unknown_family"].format(
                family=tr_core(family.title), usually=tr_core(family.usually)) + "\n")
        elif report.cause_unknown:  # never "no errors": the build failed, the cause is unknown
            parts.append(TEXT["cause_unknown"] + "\n")
        for hit in report.hits:
            if hit is not primary:
                parts.append(TEXT["other_hit"].format(title=tr_core(hit.title),
                                                      line=hit.line_number)
                             + f"\n  {tr_core(hit.cause)}\n")
        parts.append(TEXT["full_log"].format(path=outcome.log_path))
        return "\n".join(parts)

    def _fit_top(self) -> None:
        """The steps list as tall as its rows; the known-problems box only when it has
        something to say (until then the log gets its room)."""
        has_text = bool(self.diagnosis.toPlainText())
        appears = has_text and not self.diagnosis.isVisibleTo(self)
        self.diagnosis.setVisible(has_text)
        rows = max(3, min(self.steps.topLevelItemCount(), 6))
        row = self.steps.sizeHintForRow(0) if self.steps.topLevelItemCount() else 0
        row = row if row > 0 else self.steps.fontMetrics().height() + 4
        height = self.steps.header().sizeHint().height() + rows * row + 2 * self.steps.frameWidth()
        self.steps.setFixedHeight(height + 20)  # room for a horizontal scroll bar
        self._top.setMaximumHeight(16_777_215 if has_text else height + 20)
        if appears:  # the explanation gets room to be read; the log keeps the rest
            total = sum(self._splitter.sizes())
            top = max(height + 20, min(240, total // 2))
            self._splitter.setSizes([top, max(1, total - top)])

    # -- plan ------------------------------------------------------------------------------

    @Slot(bool)
    def _toggle_plan(self, shown: bool) -> None:
        self.plan_text.setVisible(shown)
        self.plan_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    @Slot()
    def _copy_plan(self) -> None:
        QGuiApplication.clipboard().setText(self.plan_text.toPlainText())
