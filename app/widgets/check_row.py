"""One prerequisite check on the Prerequisites page: its status, what it means, and its fix.

A :class:`CheckRow` shows a :class:`~kernel_wizard.prereqs.CheckResult` (status badge, title,
one-line summary, expandable detail) and, where the check offers a fix, either a **Fix** button
(an automatic fix; the UAC shield when Windows will ask for administrator rights) or the exact
command to run with a **Copy** button (a manual fix). While a fix runs, the row shows its output,
its progress and a Cancel button; afterwards one status line says how it went.

The row only displays and emits signals; the page decides what runs.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QFontDatabase, QFontMetrics, QGuiApplication, QIcon
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from kernel_wizard.prereqs import (
    CheckId,
    CheckResult,
    CheckStatus,
    FixOutcome,
    FixProgress,
)
from kernel_wizard.prereqs import FixStatus as FixStatusEnum

from ..i18n import N_, Texts, tr, tr_core
from .banner import Tone

# status → (symbol, word, foreground, background); the word is shown translated
STATUS_STYLE: dict[CheckStatus, tuple[str, str, str, str]] = {
    CheckStatus.OK: ("✔", N_("OK"), "#1d6b32", "#ecf7ee"),
    CheckStatus.NOT_CHECKED: ("–", N_("Pending"), "#5a5a5a", "#f2f2f2"),
    CheckStatus.WARNING: ("⚠", N_("Warning"), "#8a5a00", "#fff6e0"),
    CheckStatus.MISSING: ("✖", N_("Missing"), "#a11d1d", "#fdecec"),
    CheckStatus.BLOCKED: ("⊘", N_("Blocked"), "#6e1313", "#f3dede"),
}

TEXT = Texts("CheckRow", {
    "blocks": "Blocks the build",
    "does_not_block": "Does not block the build",
    "does_not_block_for": "Does not block the build; needed for {kernels}",
    "needed_for": "<b>Needed for {kernels}</b> — the probe kernel can be built without it.",
    "fix_tip_admin": "{title}. Windows will ask for administrator rights for this step only.",
    "fix_action": "<b>Fix:</b> {title}",
    "fix_action_admin": "<b>Fix:</b> {title} (asks for administrator rights)",
    "what_to_do_html": "<b>What to do:</b> {hint}",
    "manual": "<b>{title}:</b> run this in a terminal, then click Re-check. The wizard does "
              "not run it for you.",
    "manual_admin": "<b>{title}:</b> run this in a terminal (they need administrator rights), "
                    "then click Re-check. The wizard does not run it for you.",
    "what_to_do": "What to do: {hint}",
    "the_fix": "The fix: {description}",
    "the_commands": "The commands: {description}",
    "running": "Running: {title}…",
    "running_fix": "Running the fix…",
    "stopping": "Stopping the fix…",
    "restart_needed": "Restart needed: {message}",
    "full_log": "Full log: {path}",
    "crashed": "The fix stopped unexpectedly: {error}",
})

# how a fix ended → the tone of the row's status line
OUTCOME_TONE: dict[FixStatusEnum, Tone] = {
    FixStatusEnum.DONE: Tone.OK,
    FixStatusEnum.DONE_RESTART_NEEDED: Tone.WARNING,
    FixStatusEnum.DECLINED: Tone.WARNING,
    FixStatusEnum.CANCELLED: Tone.INFO,
    FixStatusEnum.FAILED: Tone.ERROR,
    FixStatusEnum.MANUAL: Tone.INFO,
}

RESTART_NOTE = N_("Restart Windows to finish. The wizard opens again by itself after the "
                  "restart and continues here, where you left off.")
ADMIN_TIP = N_("Windows will ask for administrator rights for this step only.")


def kernels_text(kernels: Sequence[str]) -> str:
    """'FlashAttention 2 / FlashMLA' (names, not sentences)."""
    return " / ".join(kernels)


class CheckRow(QFrame):
    """One check. ``fix_clicked``/``recheck_clicked``/``cancel_clicked`` carry the row."""

    fix_clicked = Signal(object)
    recheck_clicked = Signal(object)
    cancel_clicked = Signal(object)

    def __init__(self, result: CheckResult, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result = result
        self.fix_status_tone: Tone | None = None  # how the last fix here ended (None: none ran)
        self.setObjectName(f"check-{result.id.value}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

        outer = QHBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 6)
        outer.setSpacing(10)
        self.badge = QLabel()
        self.badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.badge.setFixedWidth(92)
        outer.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)

        body = QVBoxLayout()
        body.setSpacing(3)
        outer.addLayout(body, 1)

        head = QHBoxLayout()
        self.title_label = QLabel()
        self.details_toggle = QToolButton()
        self.details_toggle.setText(tr("Details"))
        self.details_toggle.setCheckable(True)
        self.details_toggle.setAutoRaise(True)
        self.details_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.details_toggle.toggled.connect(self._toggle_details)
        self.recheck_button = QPushButton(tr("Re-check"))
        self.recheck_button.setToolTip(tr("Look again (after you changed something yourself)"))
        self.recheck_button.clicked.connect(lambda: self.recheck_clicked.emit(self))
        head.addWidget(self.title_label)
        head.addStretch(1)
        head.addWidget(self.recheck_button)
        head.addWidget(self.details_toggle)
        body.addLayout(head)

        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        body.addWidget(self.summary_label)
        # a warning that rules some kernels out (not every kernel needs what is missing)
        self.needed_label = QLabel()
        self.needed_label.setWordWrap(True)
        self.needed_label.setVisible(False)
        body.addWidget(self.needed_label)

        # what to do: an automatic fix (Fix), or advice; Re-check beside it
        actions = QHBoxLayout()
        self.action_label = QLabel()
        self.action_label.setWordWrap(True)
        self.action_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fix_button = QPushButton(tr("Fix"))
        self.fix_button.clicked.connect(lambda: self.fix_clicked.emit(self))
        actions.addWidget(self.action_label, 1)
        actions.addWidget(self.fix_button, 0, Qt.AlignmentFlag.AlignTop)
        self.action_row = QWidget()
        self.action_row.setLayout(actions)
        actions.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.action_row)

        # a manual fix: the exact command, to copy into a terminal
        self.manual = QWidget()
        manual_layout = QVBoxLayout(self.manual)
        manual_layout.setContentsMargins(0, 0, 0, 0)
        manual_layout.setSpacing(2)
        self.manual_label = QLabel()
        self.manual_label.setWordWrap(True)
        manual_layout.addWidget(self.manual_label)
        command_row = QHBoxLayout()
        self.command_text = QPlainTextEdit()
        self.command_text.setReadOnly(True)
        self.command_text.setFont(mono)
        self.command_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.copy_button = QPushButton(tr("Copy"))
        self.copy_button.setToolTip(tr("Copy the commands to the clipboard"))
        self.copy_button.clicked.connect(self.copy_command)
        command_row.addWidget(self.command_text, 1)
        command_row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        manual_layout.addLayout(command_row)
        body.addWidget(self.manual)

        self.detail_label = QLabel()
        self.detail_label.setWordWrap(True)
        self.detail_label.setTextFormat(Qt.TextFormat.PlainText)
        self.detail_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail_label.setVisible(False)
        self.detail_label.setStyleSheet("QLabel { color: #333; }")
        body.addWidget(self.detail_label)

        # a running / finished fix
        self.fix_panel = QWidget()
        panel = QVBoxLayout(self.fix_panel)
        panel.setContentsMargins(0, 2, 0, 0)
        panel.setSpacing(2)
        self.fix_status = QLabel()
        self.fix_status.setWordWrap(True)
        self.fix_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        panel.addWidget(self.fix_status)
        progress_row = QHBoxLayout()
        self.progress_text = QLabel()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumHeight(16)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.clicked.connect(lambda: self.cancel_clicked.emit(self))
        progress_row.addWidget(self.progress_text)
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.cancel_button)
        self.progress_box = QWidget()
        self.progress_box.setLayout(progress_row)
        progress_row.setContentsMargins(0, 0, 0, 0)
        panel.addWidget(self.progress_box)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setFont(mono)
        self.log.setMaximumBlockCount(2000)
        self.log.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.log.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self._fit_log(1)
        panel.addWidget(self.log)
        self.fix_panel.setVisible(False)
        body.addWidget(self.fix_panel)

        self.set_result(result)

    # -- what the row shows ----------------------------------------------------------------

    @property
    def check_id(self) -> CheckId:
        return self.result.id

    @property
    def fix_is_automatic(self) -> bool:
        fix = self.result.fix
        return fix is not None and fix.automatic

    def set_result(self, result: CheckResult) -> None:
        """Show ``result`` (a first result or a re-check's); a fix's status line stays."""
        self.result = result
        symbol, word, foreground, background = STATUS_STYLE[result.status]
        self.setStyleSheet(
            f"CheckRow {{ background: palette(base); border: 1px solid #d0d0d0; "
            f"border-left: 5px solid {foreground}; border-radius: 3px; }}"
        )
        self.badge.setText(f"{symbol} {tr(word)}")
        self.badge.setStyleSheet(
            f"QLabel {{ color: {foreground}; background: {background}; font-weight: bold; "
            f"border: 1px solid {foreground}; border-radius: 9px; padding: 2px 6px; }}"
        )
        kernels = kernels_text(result.needed_for)
        self.badge.setToolTip(TEXT["blocks"] if result.blocks else
                              TEXT["does_not_block_for"].format(kernels=kernels)
                              if result.needed_for else TEXT["does_not_block"])
        self.title_label.setText(f"<b>{_html(tr_core(result.title))}</b>")
        self.summary_label.setText(tr_core(result.summary))
        self.needed_label.setVisible(result.rules_out)
        self.needed_label.setText(TEXT["needed_for"].format(kernels=_html(kernels))
                                  if result.rules_out else "")

        fix = result.fix
        automatic = fix is not None and fix.automatic
        manual = fix is not None and not fix.automatic
        self.fix_button.setVisible(automatic)
        title = tr_core(fix.title) if fix is not None else ""
        hint = tr_core(result.hint)
        if automatic and fix is not None and fix.needs_admin:
            # the UAC shield (drawn by the Windows style; other styles have none)
            self.fix_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_VistaShield))
            self.fix_button.setToolTip(TEXT["fix_tip_admin"].format(title=title))
        else:
            self.fix_button.setIcon(QIcon())
            self.fix_button.setToolTip(title)
        if automatic and fix is not None:
            action = TEXT["fix_action_admin" if fix.needs_admin else "fix_action"].format(
                title=_html(title))
            if hint:
                action += f"<br><span style='color:#555'>{_html(hint)}</span>"
        elif hint and result.status is not CheckStatus.OK:
            action = TEXT["what_to_do_html"].format(hint=_html(hint))
        else:
            action = ""
        self.action_label.setText(action)
        self._update_actions()

        self.manual.setVisible(manual)
        if manual and fix is not None:
            self.manual_label.setText(TEXT["manual_admin" if fix.needs_admin else "manual"]
                                      .format(title=_html(title)))
            commands = "\n".join(fix.command_preview)
            self.command_text.setPlainText(commands)
            lines = max(1, len(fix.command_preview))
            metrics = QFontMetrics(self.command_text.font())
            self.command_text.setFixedHeight(metrics.lineSpacing() * min(lines, 6) + 14)
        else:
            self.command_text.setPlainText("")

        parts = [tr_core(result.detail)] if result.detail else []
        if hint and automatic:
            parts.append(TEXT["what_to_do"].format(hint=hint))
        if fix is not None:
            parts.append(TEXT["the_fix" if automatic else "the_commands"].format(
                description=tr_core(fix.description)))
        self.detail_label.setText("\n\n".join(parts))
        self.details_toggle.setVisible(bool(parts))

    def _update_actions(self) -> None:
        """Re-check wherever something is not OK, and after a fix ran here."""
        recheck = self.result.status is not CheckStatus.OK or self.fix_status_tone is not None
        self.recheck_button.setVisible(recheck)
        self.action_row.setVisible(self.fix_is_automatic or bool(self.action_label.text()))

    def set_actions_enabled(self, enabled: bool) -> None:
        """Disabled while anything on the page runs (one fix or check at a time)."""
        self.fix_button.setEnabled(enabled)
        self.recheck_button.setEnabled(enabled)

    # -- a fix -----------------------------------------------------------------------------

    def fix_started(self) -> None:
        fix = self.result.fix
        self.fix_panel.setVisible(True)
        self.progress_box.setVisible(True)
        self.progress.setRange(0, 0)
        self.progress_text.setText("")
        self.cancel_button.setEnabled(True)
        self.log.clear()
        self._fit_log(1)
        self.log.setVisible(True)
        self._status(Tone.INFO, TEXT["running"].format(title=tr_core(fix.title)) if fix
                     else TEXT["running_fix"])

    def append_lines(self, lines: Sequence[str]) -> None:
        if lines:
            self.log.appendPlainText("\n".join(lines))
            self._fit_log(self.log.blockCount())
            bar = self.log.verticalScrollBar()
            bar.setValue(bar.maximum())

    def _fit_log(self, lines: int, least: int = 4, most: int = 8) -> None:
        """Grows with its lines from ``least`` (room for a wrapped command) to ``most``
        (then it scrolls)."""
        spacing = QFontMetrics(self.log.font()).lineSpacing()
        self.log.setFixedHeight(spacing * max(least, min(lines + 1, most)) + 10)

    def show_progress(self, progress: FixProgress) -> None:
        self.progress_text.setText(tr_core(progress.text))
        if progress.fraction is None:
            self.progress.setRange(0, 0)
        else:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(round(max(0.0, min(1.0, progress.fraction)) * 1000)))

    def cancelling(self) -> None:
        self.cancel_button.setEnabled(False)
        self._status(Tone.INFO, TEXT["stopping"])

    def fix_finished(self, outcome: FixOutcome, resumes: bool = False) -> None:
        """One status line says how the fix went. ``resumes``: the wizard has arranged to open
        again after a restart (a restart-needing fix saved where the user is)."""
        self.progress_box.setVisible(False)
        hint = tr_core(outcome.hint)
        text = tr_core(outcome.message)
        if outcome.status is FixStatusEnum.DONE_RESTART_NEEDED:
            text = TEXT["restart_needed"].format(message=text)
            if resumes:
                hint = tr(RESTART_NOTE)
        if hint:
            text += f" {hint}"
        if outcome.log_path is not None and outcome.status is FixStatusEnum.FAILED:
            text += " " + TEXT["full_log"].format(path=outcome.log_path)
        self._status(OUTCOME_TONE[outcome.status], text)
        self.log.setVisible(bool(self.log.toPlainText()))
        self._update_actions()

    def fix_crashed(self, error: str) -> None:
        self.progress_box.setVisible(False)
        self._status(Tone.ERROR, TEXT["crashed"].format(error=error))
        self._update_actions()

    def _status(self, tone: Tone, text: str) -> None:
        _background, foreground, symbol = tone.value
        self.fix_status.setStyleSheet(f"QLabel {{ color: {foreground}; }}")
        self.fix_status.setText(f"{symbol}  {text}")
        self.fix_status_tone = tone

    # -- small actions ---------------------------------------------------------------------

    @Slot(bool)
    def _toggle_details(self, shown: bool) -> None:
        self.detail_label.setVisible(shown)
        self.details_toggle.setArrowType(Qt.ArrowType.DownArrow if shown
                                         else Qt.ArrowType.RightArrow)

    @Slot()
    def copy_command(self) -> None:
        QGuiApplication.clipboard().setText(self.command_text.toPlainText())
        self.copy_button.setText(tr("Copied"))


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


__all__ = ["ADMIN_TIP", "RESTART_NOTE", "STATUS_STYLE", "CheckRow"]
