"""Prerequisites: every check a build needs, one row each, with the fixes the wizard can apply.

On first show the facts are gathered in the background (compiler, CUDA toolkits, long paths,
git, the chosen Python environment and hardware) and the checks run over them. A row's **Fix**
asks first (showing exactly what will run), then runs on a worker thread with its output,
progress and Cancel in the row; afterwards the row is checked again. Next is enabled when
nothing blocks (MISSING and BLOCKED block; WARNING does not).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import cast

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from kernel_wizard.build.run import LogLine
from kernel_wizard.flow.session import FlowStep
from kernel_wizard.install.installer import LOCK_TAG
from kernel_wizard.prereqs import (
    CheckId,
    CheckResult,
    CheckStatus,
    FixOutcome,
    FixProgress,
    FixStatus,
    load_resume_state,
)

from ..i18n import Texts, tr, tr_core
from ..widgets.banner import Banner, Tone
from ..widgets.busy import BusyRow
from ..widgets.check_row import CheckRow
from ..widgets.dialogs import ask
from ..workers import BackgroundTask, BuildWorker
from .base import SessionPage

TEXT = Texts("PrereqsPage", {
    "must_fix_one": "1 thing must be fixed before building",
    "must_fix_many": "{count} things must be fixed before building",
    "use_fix": "Use the Fix buttons below, then Re-check. Next is enabled once nothing blocks.",
    "follow_advice": "Follow the advice in each row, then Re-check. Next is enabled once "
                     "nothing blocks.",
    "nothing_blocks": "Nothing blocks the build",
    "nothing_blocks_one": "Nothing blocks the build (1 warning)",
    "nothing_blocks_many": "Nothing blocks the build ({count} warnings)",
    "ruled_out_one": "The probe kernel can be built now; {kernels} needs what the {rows} row "
                     "found missing: use the Fix button first, or come back later.",
    "ruled_out_many": "The probe kernel can be built now; {kernels} need what the {rows} row "
                      "found missing: use the Fix button first, or come back later.",
    "ruled_out_rows": "The probe kernel can be built now; {kernels} need what the {rows} rows "
                      "found missing: use the Fix button first, or come back later.",
    "rows_and": "{first} and {second}",
    "warnings": "The warnings don't stop the build; read them before you go on.",
    "in_place": "Everything a build needs is in place.",
    "confirm": "{description}\n\nThis will run:\n{commands}",
    "confirm_admin": "{text}\n\nWindows will ask for administrator rights for this step.",
    "not_now": "Not now",
    "checking_all": "Checking the compiler, CUDA toolkit, long paths and the Python "
                    "environment…",
    "checking_again": "Checking again: {title}…",
    "check_failed_hint": "{error}\nClick “Check all again” to try once more.",
    "running": "Running: {title}…",
})


def _rows(titles: list[str]) -> str:
    """'CUDA toolkit', 'CUDA toolkit and Python environment', 'A, B and C' (translated)."""
    names = [tr_core(t) for t in titles]
    if len(names) == 1:
        return names[0]
    return TEXT["rows_and"].format(first=", ".join(names[:-1]), second=names[-1])


def summarize(results: list[CheckResult]) -> tuple[Tone, str, str]:
    """The line at the top of the page: (tone, text, hint)."""
    blocking = [r for r in results if r.blocks]
    warnings = [r for r in results if r.status is CheckStatus.WARNING]
    if blocking:
        fixable = sum(1 for r in blocking if r.fix is not None)
        title = (TEXT["must_fix_one"] if len(blocking) == 1
                 else TEXT["must_fix_many"].format(count=len(blocking)))
        return Tone.ERROR, title, TEXT["use_fix"] if fixable else TEXT["follow_advice"]
    counted = (TEXT["nothing_blocks_one"] if len(warnings) == 1
               else TEXT["nothing_blocks_many"].format(count=len(warnings)))
    ruling = [r for r in results if r.rules_out]
    if ruling:
        kernels = list(dict.fromkeys(k for r in ruling for k in r.needed_for))
        key = ("ruled_out_rows" if len(ruling) > 1 else
               "ruled_out_one" if len(kernels) == 1 else "ruled_out_many")
        return (Tone.WARNING, counted, TEXT[key].format(
            kernels=" / ".join(kernels), rows=_rows([r.title for r in ruling])))
    if warnings:
        return Tone.WARNING, counted, TEXT["warnings"]
    return Tone.OK, TEXT["nothing_blocks"], TEXT["in_place"]


def shown_order(results: list[CheckResult]) -> list[CheckResult]:
    """What blocks first, then warnings, then what is fine (each in the checks' order)."""
    rank = {CheckStatus.BLOCKED: 0, CheckStatus.MISSING: 0, CheckStatus.WARNING: 1,
            CheckStatus.OK: 2, CheckStatus.NOT_CHECKED: 3}
    return sorted(results, key=lambda r: rank.get(r.status, 1))




class PrereqsPage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(tr("Prerequisites"))
        self.setSubTitle(tr("Everything a build needs on this computer, checked. Where something "
                         "is missing, the wizard can usually fix it for you."))
        self.rows: dict[CheckId, CheckRow] = {}
        self.task: BackgroundTask | None = None  # gathering or re-checking
        self.fix_job: BuildWorker[object] | None = None  # a running fix
        self.fix_row: CheckRow | None = None
        self._stale = False  # the environment changed while something ran: check again after
        self._hooked = False

        layout = QVBoxLayout(self)
        self.busy = BusyRow()
        self.busy_label = self.busy.label
        layout.addWidget(self.busy)

        top = QHBoxLayout()
        self.banner = Banner()
        self.check_all_button = QPushButton(tr("Check all again"))
        self.check_all_button.setToolTip(tr("Look at everything again, e.g. after you installed "
                                         "something yourself"))
        self.check_all_button.clicked.connect(self.start_check)
        top.addWidget(self.banner, 1)
        top.addWidget(self.check_all_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)

        self.list_widget = QWidget()
        self.list_layout = QVBoxLayout(self.list_widget)
        self.list_layout.setContentsMargins(0, 0, 4, 0)
        self.list_layout.setSpacing(6)
        self.list_layout.addStretch(1)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(self.list_widget)
        layout.addWidget(self.scroll_area, 1)

    # -- QWizardPage -----------------------------------------------------------------------


    def initializePage(self) -> None:
        wizard = self.wizard()
        if wizard is not None and not self._hooked:
            wizard.finished.connect(self.shutdown)
            self._hooked = True
        # long work starts once the page is shown; again only when the user chose another
        # environment on the Hardware page meanwhile (the session then dropped its facts)
        if self.session.facts is not None:
            return
        if self.is_busy():
            self._stale = True
        else:
            self.start_check()

    def isComplete(self) -> bool:
        return self.flow_allows(FlowStep.KERNEL)

    def is_busy(self) -> bool:
        return self.task is not None or self.fix_job is not None

    # -- checking --------------------------------------------------------------------------

    @Slot()
    def start_check(self) -> None:
        """Gather every fact (a few seconds, off the GUI thread), then run the checks."""
        if self.is_busy():
            return
        session = self.session
        self._stale = False

        def work() -> list[CheckResult]:
            return session.check()

        self._run_task(work, TEXT["checking_all"])
        if not self.rows:
            self.banner.show_message(Tone.INFO, tr("Checking what a build needs…"),
                                     tr("This takes a few seconds."))

    def recheck(self, check: CheckId) -> None:
        """Re-read what ``check`` looks at (refresh), then run every check again (one finding
        can change another's verdict, e.g. a new toolkit and the compiler pairing)."""
        if self.is_busy():
            return
        session = self.session
        if session.facts is None:
            self.start_check()
            return

        def work() -> list[CheckResult]:
            return session.recheck(check)

        row = self.rows.get(check)
        title = tr_core(row.result.title) if row is not None else check.value
        self._run_task(work, TEXT["checking_again"].format(title=title))

    def _run_task(self, work: Callable[[], object], text: str) -> None:
        task = BackgroundTask(work, self)
        task.finished.connect(self._on_checked)
        task.failed.connect(self._on_check_failed)
        self.task = task
        self.busy_label.setText(text)
        self._update_busy()
        task.start()

    @Slot(object)
    def _on_checked(self, result: object) -> None:
        results = cast("list[CheckResult]", result)
        self.task = None
        self.show_results(results)
        self._update_busy()
        if self._stale:
            self.start_check()

    @Slot(object)
    def _on_check_failed(self, exc: object) -> None:
        self.task = None
        self.banner.show_message(Tone.ERROR, tr("The prerequisites could not be checked."),
                                 TEXT["check_failed_hint"].format(error=exc))
        self._update_busy()

    def show_results(self, results: list[CheckResult]) -> None:
        """One row per result (rows are updated in place, so a fix's status line stays)."""
        wanted = {r.id for r in results}
        for check in [c for c in self.rows if c not in wanted]:
            gone = self.rows.pop(check)
            gone.setParent(None)
            gone.deleteLater()
        for result in results:  # self.rows keeps the checks' order
            row = self.rows.get(result.id)
            if row is None:
                row = CheckRow(result)
                row.fix_clicked.connect(self._on_fix_clicked)
                row.recheck_clicked.connect(self._on_recheck_clicked)
                row.cancel_clicked.connect(self._on_cancel_clicked)
                self.rows[result.id] = row
            else:
                row.set_result(result)
        for index, result in enumerate(shown_order(results)):  # the page: blocking rows first
            row = self.rows[result.id]
            self.list_layout.insertWidget(index, row)
            row.show()  # now, not in a queued event: the row is usable when this returns
        tone, text, hint = summarize(results)
        self.banner.show_message(tone, text, hint)

    # -- fixes -----------------------------------------------------------------------------

    @Slot(object)
    def _on_recheck_clicked(self, row: object) -> None:
        self.recheck(cast(CheckRow, row).check_id)

    @Slot(object)
    def _on_fix_clicked(self, row: object) -> None:
        self.start_fix(cast(CheckRow, row))

    def confirm_fix(self, row: CheckRow) -> bool:
        """Ask before a fix runs; the buttons say what happens ("Install ninja" / "Not now")."""
        fix = row.result.fix
        assert fix is not None
        commands = "\n".join(f"    {line}" for line in fix.command_preview)
        text = TEXT["confirm"].format(description=tr_core(fix.description), commands=commands)
        if fix.needs_admin:
            text = TEXT["confirm_admin"].format(text=text)
        title = tr_core(fix.title)
        return ask(self, title, text, title, TEXT["not_now"])

    def start_fix(self, row: CheckRow) -> bool:
        """Ask, then run the row's fix on a worker thread. False when it did not start."""
        fix = row.result.fix
        if fix is None or not fix.automatic or self.is_busy():
            return False
        if not self.confirm_fix(row):
            return False

        flow = self.session

        def run(sink: Callable[[object], None], cancel: threading.Event) -> FixOutcome:
            # the session runs it (holding the environment's lock, as an install does);
            # BuildWorker batches LogLines for the GUI and hands FixProgress on as events
            return flow.run_fix(fix, lambda text: sink(LogLine(text, 0)), cancel, sink)

        worker = BuildWorker(run, parent=self)  # lines batched, progress as events
        worker.lines.connect(row.append_lines)
        worker.lines.connect(self._on_fix_lines)
        worker.other_event.connect(self._on_fix_event)
        worker.finished.connect(self._on_fix_finished)
        self.fix_job = worker
        self.fix_row = row
        row.fix_started()
        self.busy_label.setText(TEXT["running"].format(title=tr_core(fix.title)))
        self._update_busy()
        worker.start()
        return True

    @Slot(list)
    def _on_fix_lines(self, lines: list[str]) -> None:
        """A wait for another run's lock on the environment: the busy line says whom it waits
        for (instead of "Running: …" over a fix that does not move)."""
        waiting = [line for line in lines if line.startswith(LOCK_TAG)]
        if waiting:
            self.busy_label.setText(tr_core(waiting[-1]).removeprefix(LOCK_TAG).strip())

    @Slot(object)
    def _on_fix_event(self, event: object) -> None:
        if isinstance(event, FixProgress) and self.fix_row is not None:
            self.fix_row.show_progress(event)

    @Slot(object)
    def _on_cancel_clicked(self, row: object) -> None:
        self.cancel_fix()

    def cancel_fix(self) -> None:
        if self.fix_job is not None and self.fix_row is not None:
            self.fix_row.cancelling()
            self.fix_job.cancel()

    @Slot(object)
    def _on_fix_finished(self, outcome: object) -> None:
        row = self.fix_row
        self.fix_job = None
        self.fix_row = None
        if row is None:
            self._update_busy()
            return
        if isinstance(outcome, FixOutcome):
            resumes = (outcome.status is FixStatus.DONE_RESTART_NEEDED
                       and load_resume_state() is not None)
            row.fix_finished(outcome, resumes=resumes)
        else:
            row.fix_crashed(str(outcome))
        self._update_busy()
        self.recheck(row.check_id)  # what changed shows in the row

    @Slot()
    def prepare_close(self, close: Callable[[], None]) -> bool:
        self.shutdown()
        return True

    def stop_work(self) -> None:
        if self.fix_job is not None:
            self.fix_job.cancel()

    def shutdown(self) -> None:
        """The wizard closes: a running fix is cancelled (its process tree stopped), a running
        check is let finish (a few seconds) so that its thread does not outlive the window."""
        if self.fix_job is not None:
            self.fix_job.cancel()
        if self.task is not None:
            self.task.finish()

    # -- busy state ------------------------------------------------------------------------

    def _update_busy(self) -> None:
        busy = self.is_busy()
        self.busy.setVisible(busy)
        self.check_all_button.setEnabled(not busy)
        for row in self.rows.values():
            row.set_actions_enabled(not busy)
        self.completeChanged.emit()
