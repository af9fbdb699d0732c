"""Done: what was installed where, the report and its folder, and how to check it again later.

Installing was the commit point: this page shows Finish only. Someone who double-clicked the
wizard learns how to re-verify after a driver or PyTorch update (open the wizard again and
choose the check on its first page) and can ask for a "Re-verify GPU kernels" shortcut.

The page leads with one sentence (what happened), then its parts side by side in a wide window
(what was installed and how to use it on the left; checking again later, where the files are
and freeing disk space on the right) and one under the other in a narrow one.
"""

from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QFont, QFontDatabase, QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
)

from kernel_wizard.base.advice import program
from kernel_wizard.base.paths import data_dir, logs_dir, reports_dir
from kernel_wizard.base.resources import resource_path
from kernel_wizard.machine.ai_apps.usage import UseHint, hint_for_python
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.machine.platforms.shortcuts import create_shortcuts, reverify_shortcut
from kernel_wizard.verify import VerifyReport, report_view

from ..i18n import Texts, kernel_name, tr_core
from ..widgets.banner import Banner, Tone
from ..widgets.free_space import FreeSpaceButton
from .base import SessionPage

# -- the texts (one place, whole sentences) ------------------------------------------------------

TEXT = Texts("Done", {
    "title": "Done",
    "subtitle_installed": "The kernel is installed.",
    "subtitle_reverify": "The installed kernels were checked again.",
    "subtitle_nothing": "Nothing was installed.",
    "headline_installed": "✔ {kernel} is installed and ready to use",
    "headline_not_passed": "⚠ {kernel} is installed, although its verification failed",
    "headline_reverify": "✔ The installed kernels were checked again",
    "headline_nothing": "Nothing was installed",
    "installed": "<p><b>Installed {kernel}</b> (the Python package {package} {version}) into "
                 "<code>{python}</code>.</p>",
    "replaced": "<p>It replaced {name} {version}, kept in <code>{folder}</code> so that it can be "
                "restored.</p>",
    "passed": "<p>Its verification passed.</p>",
    "not_passed": "<p>Its verification did <b>not</b> pass: it was installed because you chose "
                  "to.</p>",
    "reverified": "<p>The installed kernels were checked again; the Verify step showed the "
                  "results.</p>",
    "nothing": "<p>Nothing was installed. Your Python environment is as it was.</p>",
    "declined": "<p>Nothing was installed, as you chose: the kernel passed its verification, "
                "and your Python environment <code>{python}</code> is unchanged.</p>"
                "<p>To install it later, open this wizard again and build the same kernel for "
                "the same Python (the second build is quicker), then click “Install into …” "
                "after its checks have passed.</p>",
    "what": "What was installed",
    "checks": "What was checked",
    "checks_summary": "{passed} of {count} checks passed. Each compares the kernel's results "
                      "with PyTorch's, forward and backward; the share is of the error PyTorch "
                      "itself is allowed.",
    "what_nothing": "Your Python environment",
    "files": "<p>Build log: <code>{log}</code><br>All logs: <code>{logs}</code><br>All reports: "
             "<code>{reports}</code><br>Install records: <code>{installs}</code></p>",
    "files_no_build": "<p>All logs: <code>{logs}</code><br>All reports: <code>{reports}</code>"
                      "<br>Install records: <code>{installs}</code></p>",
    "files_box": "Files",
    "files_toggle": "Where the files are",
    "open_report": "Open the report",
    "open_folder": "Open the folder",
    "open_folder_tip": "The folder with the reports and logs: {folder}",
    "usage": "Use it in your code",
    "usage_text": "In the Python it was installed into:",
    "copy": "Copy",
    "copied": "Copied",
    "later": "Checking again later",
    "later_text": "After you update the NVIDIA driver or PyTorch, check that the kernel still "
                  "works: open this wizard again and choose “Check the installed kernels "
                  "again” on its first page. It compares the results with today's and names "
                  "anything that changed. (From a terminal: {command})",
    "shortcut_name": "Re-verify GPU kernels",
    "shortcut_comment": "Check the GPU kernels the Kernel Setup Wizard installed, e.g. after a "
                        "driver or PyTorch update",
    "shortcut": "Create a “{name}” shortcut",
    "shortcut_tip": "Puts a shortcut in the applications menu and on the desktop that opens "
                    "this wizard straight at the check.",
    "shortcut_done": "Shortcut created.",
    "shortcut_failed": "The shortcut could not be created.",
    "used": "Is it actually used?",
    "used_how": "<p><b>{app}</b>: {how}</p>",
    "used_check": "<p>To see that it is: {check}</p>",
    "used_docs": "<p><a href=\"{url}\">{app}'s documentation</a>. The wizard changed nothing in "
                 "{app}: you decide whether to set this.</p>",
    "disk": "Disk space",
    "disk_text": "Builds leave their folders and downloaded sources behind, so that a second "
                 "build is quicker. They can take several GB; the kernel you installed does "
                 "not need them.",
})

WIDE = 1000  # from this page width on, the page's parts stand in two columns
MAX_CHECKS = 12  # listed on the page (the report has them all)


class DonePage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(TEXT["title"])
        self.report: Path | None = None
        self.wide: bool | None = None
        layout = self.scrolled()

        self.headline = QLabel()
        font = QFont(self.headline.font())
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.headline.setFont(font)
        self.headline.setWordWrap(True)
        layout.addWidget(self.headline)

        # what was installed, with the report
        self.what_box = QGroupBox(TEXT["what"])
        what = QVBoxLayout(self.what_box)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.summary.setOpenExternalLinks(True)
        what.addWidget(self.summary)
        buttons = QHBoxLayout()
        self.report_button = QPushButton(TEXT["open_report"])
        self.report_button.clicked.connect(self.open_report)
        self.folder_button = QPushButton(TEXT["open_folder"])
        self.folder_button.clicked.connect(self.open_folder)
        buttons.addWidget(self.report_button)
        buttons.addWidget(self.folder_button)
        buttons.addStretch(1)
        what.addLayout(buttons)

        # what the verification checked
        self.checks_box = QGroupBox(TEXT["checks"])
        checks = QVBoxLayout(self.checks_box)
        self.checks = QLabel()
        self.checks.setWordWrap(True)
        self.checks.setTextFormat(Qt.TextFormat.RichText)
        checks.addWidget(self.checks)

        # how to use it
        self.usage_box = QGroupBox(TEXT["usage"])
        usage = QVBoxLayout(self.usage_box)
        usage_row = QHBoxLayout()
        self.usage_label = QLabel(TEXT["usage_text"])
        self.usage_label.setWordWrap(True)
        self.copy_usage = QPushButton(TEXT["copy"])
        self.copy_usage.clicked.connect(self._copy_usage)
        usage_row.addWidget(self.usage_label, 1)
        usage_row.addWidget(self.copy_usage)
        usage.addLayout(usage_row)
        self.usage = QPlainTextEdit()
        self.usage.setReadOnly(True)
        self.usage.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.usage.setFixedHeight(self.usage.fontMetrics().lineSpacing() * 5 + 12)
        usage.addWidget(self.usage)

        # is it actually used? how the AI program whose Python got it is told to use it
        self.used_box = QGroupBox(TEXT["used"])
        used = QVBoxLayout(self.used_box)
        self.used = QLabel()
        self.used.setWordWrap(True)
        self.used.setTextFormat(Qt.TextFormat.RichText)
        self.used.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.used.setOpenExternalLinks(True)
        used.addWidget(self.used)
        self.used_box.setVisible(False)

        # checking again later
        self.later_box = QGroupBox(TEXT["later"])
        later_layout = QVBoxLayout(self.later_box)
        # the command as this program is started: python -m app, or the bundle's program
        self.later_text = QLabel(TEXT["later_text"].format(command=f"{program()} --verify"))
        self.later_text.setWordWrap(True)
        self.later_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        later_layout.addWidget(self.later_text)
        shortcut_row = QHBoxLayout()
        self.shortcut_button = QPushButton(TEXT["shortcut"].format(name=TEXT["shortcut_name"]))
        self.shortcut_button.setToolTip(TEXT["shortcut_tip"])
        self.shortcut_button.clicked.connect(self.create_shortcut)
        shortcut_row.addWidget(self.shortcut_button)
        shortcut_row.addStretch(1)
        later_layout.addLayout(shortcut_row)
        self.shortcut_banner = Banner()
        later_layout.addWidget(self.shortcut_banner)

        # where the files are
        self.files_box = QGroupBox(TEXT["files_box"])
        files_layout = QVBoxLayout(self.files_box)
        self.files_toggle = QToolButton()
        self.files_toggle.setText(TEXT["files_toggle"])
        self.files_toggle.setCheckable(True)
        self.files_toggle.setAutoRaise(True)
        self.files_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.files_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.files_toggle.toggled.connect(self._toggle_files)
        self.files = QLabel()
        self.files.setWordWrap(True)
        self.files.setTextFormat(Qt.TextFormat.RichText)
        self.files.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.files.setVisible(False)
        files_layout.addWidget(self.files_toggle, 0, Qt.AlignmentFlag.AlignLeft)
        files_layout.addWidget(self.files)

        # disk space
        self.disk_box = QGroupBox(TEXT["disk"])
        disk_layout = QVBoxLayout(self.disk_box)
        self.disk_text = QLabel(TEXT["disk_text"])
        self.disk_text.setWordWrap(True)
        disk_layout.addWidget(self.disk_text)
        self.free_space = FreeSpaceButton(self)  # old builds: their size, then a question
        disk_layout.addWidget(self.free_space, 0, Qt.AlignmentFlag.AlignLeft)

        # two columns side by side (wide) or one under the other (narrow)
        self.columns = QBoxLayout(QBoxLayout.Direction.TopToBottom)
        self.columns.setSpacing(16)
        for boxes in ((self.what_box, self.used_box, self.checks_box, self.usage_box),
                      (self.later_box, self.files_box, self.disk_box)):
            column = QVBoxLayout()
            column.setSpacing(10)
            for box in boxes:
                column.addWidget(box)
            column.addStretch(1)
            self.columns.addLayout(column, 1)
        layout.addLayout(self.columns)
        layout.addStretch(1)
        self._arrange(False)

    # -- the layout ------------------------------------------------------------------------

    def _arrange(self, wide: bool) -> None:
        """Two columns in a wide window (what was installed and how to use it | checking
        again, the files, disk space), one column in a narrow one."""
        if wide == self.wide:
            return
        self.wide = wide
        self.columns.setDirection(QBoxLayout.Direction.LeftToRight if wide
                                  else QBoxLayout.Direction.TopToBottom)
        self.columns.setStretch(0, 3 if wide else 1)
        self.columns.setStretch(1, 2 if wide else 1)
        if wide and not self.files_toggle.isChecked():
            self.files_toggle.setChecked(True)  # there is room: where the files are, shown

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._arrange(event.size().width() >= WIDE)

    # -- showing ---------------------------------------------------------------------------

    def initializePage(self) -> None:
        state = self.session
        flow = state.verify_outcome
        parts: list[str] = []
        e = html.escape
        self.report = None
        usage = ""
        hint: UseHint | None = None
        if flow is not None and flow.installed is not None:
            installed = flow.installed
            self.setSubTitle(TEXT["subtitle_installed"])
            choice = state.effective_choice()
            kernel = f"{kernel_name(choice.recipe.name)} {kernel_name(choice.version.label)}"
            passed = flow.report.passed
            self.headline.setText(TEXT["headline_installed" if passed
                                       else "headline_not_passed"].format(kernel=kernel))
            self.headline.setStyleSheet("QLabel { color: %s; }"
                                        % ("#1d6b32" if passed else "#8a5a00"))
            parts.append(TEXT["installed"].format(kernel=e(kernel), package=e(installed.name),
                                                  version=e(installed.version),
                                                  python=e(str(installed.python))))
            if installed.previous is not None:
                parts.append(TEXT["replaced"].format(
                    name=e(installed.previous.name), version=e(installed.previous.version),
                    folder=e(str(installed.previous.folder))))
            parts.append(TEXT["passed"] if passed else TEXT["not_passed"])
            self.report = flow.saved.markdown_path
            usage = self.session.catalog().usage(flow.report.adapter)
            hint = self.use_hint(Path(installed.python), choice.recipe.id)
            self.what_box.setTitle(TEXT["what"])
            self.show_checks(flow.report)
        elif state.reverify_only:
            self.setSubTitle(TEXT["subtitle_reverify"])
            self.headline.setText(TEXT["headline_reverify"])
            self.headline.setStyleSheet("QLabel { color: #1d6b32; }")
            parts.append(TEXT["reverified"])
            self.what_box.setTitle(TEXT["what_nothing"])
        else:
            self.setSubTitle(TEXT["subtitle_nothing"])
            self.headline.setText(TEXT["headline_nothing"])
            self.headline.setStyleSheet("")
            declined = flow is not None and flow.report.passed and state.rolled_back is None
            python = state.environment.executable if state.environment is not None else "?"
            parts.append(TEXT["declined"].format(python=e(str(python))) if declined
                         else TEXT["nothing"])
            self.what_box.setTitle(TEXT["what_nothing"])
            if flow is not None:
                self.report = flow.saved.markdown_path
        folders = {"logs": e(str(logs_dir())), "reports": e(str(reports_dir())),
                   "installs": e(str(data_dir() / "installs.json"))}
        if state.build_outcome is not None:
            files = TEXT["files"].format(log=e(str(state.build_outcome.log_path)), **folders)
        else:
            files = TEXT["files_no_build"].format(**folders)
        if flow is None or flow.installed is None:
            self.checks_box.setVisible(False)
        self.summary.setText("".join(parts))
        self.files.setText(files)
        self.show_use_hint(hint)
        self.usage.setPlainText(usage)
        self.usage_box.setVisible(bool(usage))
        self.copy_usage.setText(TEXT["copy"])
        self.report_button.setVisible(self.report is not None)
        self.folder_button.setToolTip(TEXT["open_folder_tip"].format(folder=self.folder()))
        self.shortcut_banner.setVisible(False)

    def use_hint(self, python: Path, kernel: str) -> UseHint | None:
        """How the AI program whose Python got the kernel is told to use it (None: no known
        program). The program is the one the Hardware page found for that Python, else it is
        recognised from the folders around the Python."""
        app_id = next((c.app_id for c in self.session.candidates
                       if c.path == python and c.app_id), "")
        return hint_for_python(python, kernel, app_id)

    def show_use_hint(self, hint: UseHint | None) -> None:
        self.used_box.setVisible(hint is not None)
        if hint is None:
            self.used.setText("")
            return
        e = html.escape
        app = e(hint.app_name)
        parts = [TEXT["used_how"].format(app=app, how=e(tr_core(hint.how)))]
        if hint.check:
            parts.append(TEXT["used_check"].format(check=e(tr_core(hint.check))))
        if hint.docs:
            parts.append(TEXT["used_docs"].format(url=e(hint.docs), app=app))
        self.used.setText("".join(parts))

    def show_checks(self, report: VerifyReport) -> None:
        """The verification's checks in words, each with its result and its largest error."""
        e = html.escape
        checks = report_view(report).rows  # as the Verify page, the report and the CLI show them
        passed = sum(1 for c in checks if c.passed)
        rows = "".join(
            f"<tr><td>{e(tr_core(c.words))}</td>"
            f"<td style='color:{'#1d6b32' if c.passed else '#a11d1d'}; padding: 0 12px'>"
            f"{e(tr_core(c.result))}</td><td>{e(tr_core(c.largest_error))}</td></tr>"
            for c in checks[:MAX_CHECKS])
        more = f"<tr><td>… (+{len(checks) - MAX_CHECKS})</td></tr>" \
            if len(checks) > MAX_CHECKS else ""
        self.checks.setText(
            f"<p>{e(TEXT['checks_summary'].format(passed=passed, count=len(checks)))}</p>"
            f"<table cellspacing='0' cellpadding='1'>{rows}{more}</table>")
        self.checks_box.setVisible(bool(checks))

    @Slot(bool)
    def _toggle_files(self, shown: bool) -> None:
        self.files.setVisible(shown)
        self.files_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    @Slot()
    def _copy_usage(self) -> None:
        QGuiApplication.clipboard().setText(self.usage.toPlainText())
        self.copy_usage.setText(TEXT["copied"])

    def folder(self) -> Path:
        """The report's own folder (report.md, report.json), else all reports."""
        return self.report.parent if self.report is not None else reports_dir()

    @Slot()
    def open_report(self) -> bool:
        if self.report is None:
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.report)))

    @Slot()
    def open_folder(self) -> bool:
        folder = self.folder()
        folder.mkdir(parents=True, exist_ok=True)
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    @Slot()
    def create_shortcut(self) -> bool:
        icon = resource_path("icons", "ksw.ico" if current_platform().name == "windows"
                             else "ksw.png")
        # named in the user's language, as the button said
        shortcut = replace(reverify_shortcut(icon if icon.is_file() else None),
                           name=TEXT["shortcut_name"], comment=TEXT["shortcut_comment"])
        result = create_shortcuts(shortcut)
        tone = Tone.OK if result.ok else (Tone.WARNING if result.created else Tone.ERROR)
        title = TEXT["shortcut_done"] if result.created else TEXT["shortcut_failed"]
        self.shortcut_banner.show_message(tone, title,
                                          "\n".join(tr_core(m) for m in result.messages))
        return result.ok
