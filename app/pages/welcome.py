"""Welcome: what will happen, what the user needs, and the re-verify option.

At start, once an install cut off last time is settled, the page asks the core what changed
since each installed kernel last passed its verification (the driver, PyTorch, PyTorch's CUDA,
Python; :meth:`~kernel_wizard.flow.session.Session.since_verification`, in the background: it
inspects the environments) and, when something did, says so in one line with "Re-verify now",
each kernel that no longer loads named under it with its fix. Nothing is shown when nothing
changed."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QRadioButton

from kernel_wizard.base.errors import WizardError
from kernel_wizard.flow.changes import SinceVerified, notice
from kernel_wizard.flow.session import FlowStep

from ..i18n import N_, Texts, kernel_name, tr, tr_core
from ..widgets.banner import Banner, Tone
from ..widgets.explain_dialog import TEXT as EXPLAIN_TEXT
from ..widgets.explain_dialog import LogExplainer
from ..workers import BackgroundTask
from .base import SessionPage

INTRO = N_("""\
<p>This wizard installs a fast attention kernel library (FlashAttention&nbsp;2, FlashMLA, or the
small <i>probe</i> kernel) into a Python environment of your choice, and proves that it computes
correctly on your GPU.</p>
<p><b>What will happen</b></p>
<ol>
<li><b>Hardware</b> &mdash; your NVIDIA GPUs, driver, memory and disk are detected, and you choose
the Python environment to install into.</li>
<li><b>Prerequisites</b> &mdash; the compiler, CUDA toolkit and other requirements are checked;
where something is missing the wizard offers to fix it.</li>
<li><b>Kernel</b> &mdash; you pick a kernel and a version that fit your machine.</li>
<li><b>Build</b> &mdash; the kernel is compiled in the background; you can watch the log.</li>
<li><b>Verify</b> &mdash; the result is tested against PyTorch. Only if it passes can you
install it, with a button that names the Python it goes into (&ldquo;Install into &hellip;&rdquo;);
or you finish without installing.</li>
</ol>
<p><b>What you need</b>: an NVIDIA GPU with a current driver (without one you can still try the
CPU probe kernel), a Python environment (PyTorch can be installed for you), an internet
connection or a local copy of the kernel's source, and several GB of free disk space.
Nothing is changed in your Python environment until you confirm it: every fix asks first, and
the kernel is installed only when you click &ldquo;Install into &hellip;&rdquo;.</p>
""")


TEXT = Texts("Welcome", {
    "title": "Welcome to the Kernel Setup Wizard",
    "install": "Install and verify a kernel",
    "reverify": "Check the installed kernels again (after a driver or PyTorch update)",
    "reverify_tip": "Checks {names} again and names anything that changed since the last "
                    "passing check.",
    "nothing_tip": "Nothing has been installed by this wizard yet. Once a kernel is installed "
                   "and verified, come back here after driver or PyTorch updates to check it "
                   "again.",
    "since": "Since the last start:",
    "reverify_now": "Re-verify now",
    "reverify_now_tip": "Verifies the installed kernels again now, in the environments they "
                        "were installed into, and compares each with its last passing check.",
    "kernel_line": "{kernel} in {python}: {broken}. What to do: {fix}",
    "since_failed": "What changed since the last verification could not be looked at: "
                    "{error}",
})


class WelcomePage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(TEXT["title"])
        layout = self.scrolled()
        intro = QLabel(tr(INTRO))
        intro.setWordWrap(True)
        intro.setTextFormat(intro.textFormat().RichText)
        layout.addWidget(intro)

        self.install_choice = QRadioButton(TEXT["install"])
        self.install_choice.setChecked(True)
        self.reverify_choice = QRadioButton(TEXT["reverify"])
        layout.addWidget(self.install_choice)
        layout.addWidget(self.reverify_choice)
        # an install cut off last time is finished or rolled back first, and said so here
        self.recovery = QLabel()
        self.recovery.setWordWrap(True)
        self.recovery.setTextFormat(Qt.TextFormat.RichText)
        self.recovery.setVisible(False)
        layout.addWidget(self.recovery)
        # what changed since the installed kernels last passed verification (a driver or
        # PyTorch update), with the one click that checks them again
        self.changes = Banner()
        self.changes.hint.setTextFormat(Qt.TextFormat.RichText)  # the kernels' lines, small
        layout.addWidget(self.changes)
        self.reverify_now = QPushButton(TEXT["reverify_now"])
        self.reverify_now.setToolTip(TEXT["reverify_now_tip"])
        self.reverify_now.clicked.connect(self._reverify_now)
        self.reverify_now.setVisible(False)
        now_row = QHBoxLayout()
        now_row.addWidget(self.reverify_now)
        now_row.addStretch(1)
        layout.addLayout(now_row)
        layout.addStretch(1)
        # a failed build or install from elsewhere (a terminal, ComfyUI): its log explained
        self.explainer = LogExplainer(self)
        self.explain_button = QPushButton(EXPLAIN_TEXT["button"])
        self.explain_button.setToolTip(EXPLAIN_TEXT["button_tip"])
        self.explain_button.clicked.connect(self.explainer.pick_and_explain)
        row = QHBoxLayout()
        row.addWidget(self.explain_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.recovery_task: BackgroundTask | None = None
        self._recovery_started = False
        self.recovery_notices: list[str] = []
        self.since_task: BackgroundTask | None = None
        self._since_started = False
        self.since_verified: list[SinceVerified] = []

    def initializePage(self) -> None:
        if not self._recovery_started:
            self._recovery_started = True
            if self.session.needs_recovery():  # pip runs: off the GUI thread
                self.recovery_task = BackgroundTask(self.session.recover_interrupted, self)
                self.recovery_task.finished.connect(self._on_recovered)
                self.recovery_task.failed.connect(self._on_recovered)
                self.recovery_task.start()
            else:  # only reads (and, if damaged, repairs) installs.json
                self._on_recovered(self.session.recover_interrupted())
        self._show_installs()

    def isComplete(self) -> bool:  # the environment is settled before anything else runs
        return self.flow_allows(FlowStep.HARDWARE)

    def is_busy(self) -> bool:
        """The recovery holds Next; the look at what changed runs beside the flow (it only
        reads) and never does."""
        return any(t.is_running() for t in self.background_tasks() if t is not self.since_task)

    @Slot(object)
    def _on_recovered(self, result: object) -> None:
        items = result if isinstance(result, list) else [result]
        # a notice the core made (a translatable sentence) is kept as it is
        notices = [n if isinstance(n, str) else str(n) for n in items]
        self.recovery_notices = [n for n in notices if n]
        if self.recovery_notices:
            self.recovery.setText(f"<b>{html.escape(TEXT['since'])}</b><br>" + "<br>".join(
                html.escape(tr_core(n)) for n in self.recovery_notices))
            self.recovery.setVisible(True)
        self._show_installs()
        self.completeChanged.emit()
        self._start_since_verification()

    def _start_since_verification(self) -> None:
        """Once, after the recovery (which may change the install list): what changed since
        the installed kernels last passed verification, in the background."""
        if self._since_started or not self.session.installs():
            return
        self._since_started = True
        self.since_task = BackgroundTask(self.session.since_verification, self)
        self.since_task.finished.connect(self._on_since_verification)
        self.since_task.failed.connect(self._on_since_verification_failed)
        self.since_task.start()

    @Slot(object)
    def _on_since_verification(self, result: object) -> None:
        items = [i for i in result if isinstance(i, SinceVerified)] \
            if isinstance(result, list) else []
        self.since_verified = items
        line = notice(items)
        if line is None:  # nothing changed: nothing to say
            self.changes.setVisible(False)
            self.reverify_now.setVisible(False)
            return
        broken = [i for i in items if i.broken is not None]
        lines = [TEXT["kernel_line"].format(
            kernel=kernel_name(i.name), python=i.record.python, broken=tr_core(i.broken or ""),
            fix=tr_core(i.fix or "")) for i in broken]
        self.changes.show_message(
            Tone.WARNING if broken else Tone.INFO, html.escape(tr_core(line)),
            f"<small>{'<br>'.join(html.escape(text) for text in lines)}</small>"
            if lines else "")
        self.reverify_now.setVisible(self.reverify_choice.isEnabled())

    @Slot(object)
    def _on_since_verification_failed(self, exc: object) -> None:
        """The look could not be made (an unreadable catalog or report history): said in
        one line; re-verifying compares the installs itself, so it is offered still."""
        self.since_verified = []
        self.changes.show_message(Tone.INFO, html.escape(TEXT["since_failed"].format(
            error=tr_core(exc.what) if isinstance(exc, WizardError) else str(exc))))
        self.reverify_now.setVisible(self.reverify_choice.isEnabled())

    @Slot()
    def _reverify_now(self) -> None:
        """The re-verify choice, and on to its step (the Verify page)."""
        self.reverify_choice.setChecked(True)
        self.installer().next()

    def _show_installs(self) -> None:
        installs = self.session.installs()
        self.reverify_choice.setEnabled(bool(installs))
        if installs:
            names = ", ".join(sorted({r.kernel_id for r in installs}))
            self.reverify_choice.setToolTip(TEXT["reverify_tip"].format(names=names))
        else:
            self.reverify_choice.setChecked(False)
            self.install_choice.setChecked(True)
            self.reverify_choice.setToolTip(TEXT["nothing_tip"])

    def validatePage(self) -> bool:
        self.session.reverify_only = self.reverify_choice.isChecked()
        return True

    def nextId(self) -> int:
        if self.reverify_choice.isChecked():
            return int(FlowStep.VERIFY)
        return int(FlowStep.HARDWARE)
