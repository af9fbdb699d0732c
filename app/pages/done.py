"""Done: what was installed where, the report and its folder, and how to check it again later.

Installing was the commit point: this page shows Finish only. Someone who double-clicked the
wizard learns how to re-verify after a driver or PyTorch update (open the wizard again and
choose the check on its first page) and can ask for a "Re-verify GPU kernels" shortcut.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
)

from build_backend.paths import data_dir, logs_dir, reports_dir
from build_backend.platforms import current as current_platform
from build_backend.platforms.shortcuts import REVERIFY_NAME, create_shortcuts, reverify_shortcut
from build_backend.resources import resource_path

from ..i18n import Texts, tr_core
from ..widgets.banner import Banner, Tone
from ..widgets.free_space import FreeSpaceButton
from .base import SessionPage

# -- the texts (one place, whole sentences) ------------------------------------------------------

TEXT = Texts("Done", {
    "title": "Done",
    "subtitle_installed": "The kernel is installed.",
    "subtitle_reverify": "The installed kernels were checked again.",
    "subtitle_nothing": "Nothing was installed.",
    "installed": "<p><b>Installed {name} {version}</b> into <code>{python}</code>.</p>",
    "replaced": "<p>It replaced {name} {version}, kept in <code>{folder}</code> so that it can be "
                "restored.</p>",
    "passed": "<p>Its verification passed.</p>",
    "not_passed": "<p>Its verification did <b>not</b> pass: it was installed because you chose "
                  "to.</p>",
    "reverified": "<p>The installed kernels were checked again; the Verify step showed the "
                  "results.</p>",
    "nothing": "<p>Nothing was installed. Your Python environment is as it was.</p>",
    "files": "<p>Build log: <code>{log}</code><br>All logs: <code>{logs}</code><br>All reports: "
             "<code>{reports}</code><br>Install records: <code>{installs}</code></p>",
    "files_no_build": "<p>All logs: <code>{logs}</code><br>All reports: <code>{reports}</code>"
                      "<br>Install records: <code>{installs}</code></p>",
    "files_toggle": "Where the files are",
    "open_report": "Open the report",
    "open_folder": "Open the folder",
    "open_folder_tip": "The folder with the reports and logs: {folder}",
    "later": "Checking again later",
    "later_text": "After you update the NVIDIA driver or PyTorch, check that the kernel still "
                  "works: open this wizard again and choose “Check the installed kernels "
                  "again” on its first page. It compares the results with today's and names "
                  "anything that changed. (From a terminal: python -m app --verify)",
    "shortcut": "Create a “{name}” shortcut",
    "shortcut_tip": "Puts a shortcut in the applications menu and on the desktop that opens "
                    "this wizard straight at the check.",
    "shortcut_done": "Shortcut created.",
    "shortcut_failed": "The shortcut could not be created.",
})


class DonePage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(TEXT["title"])
        self.report: Path | None = None
        layout = self.scrolled()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.summary.setOpenExternalLinks(True)
        layout.addWidget(self.summary)

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

        buttons = QHBoxLayout()
        self.report_button = QPushButton(TEXT["open_report"])
        self.report_button.clicked.connect(self.open_report)
        self.folder_button = QPushButton(TEXT["open_folder"])
        self.folder_button.clicked.connect(self.open_folder)
        buttons.addWidget(self.report_button)
        buttons.addWidget(self.folder_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.files_toggle)
        layout.addWidget(self.files)

        later = QGroupBox(TEXT["later"])
        later_layout = QVBoxLayout(later)
        self.later_text = QLabel(TEXT["later_text"])
        self.later_text.setWordWrap(True)
        self.later_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        later_layout.addWidget(self.later_text)
        shortcut_row = QHBoxLayout()
        self.shortcut_button = QPushButton(TEXT["shortcut"].format(name=REVERIFY_NAME))
        self.shortcut_button.setToolTip(TEXT["shortcut_tip"])
        self.shortcut_button.clicked.connect(self.create_shortcut)
        shortcut_row.addWidget(self.shortcut_button)
        shortcut_row.addStretch(1)
        later_layout.addLayout(shortcut_row)
        self.shortcut_banner = Banner()
        later_layout.addWidget(self.shortcut_banner)
        layout.addWidget(later)

        self.free_space = FreeSpaceButton(self)  # old builds: their size, then a question
        layout.addWidget(self.free_space, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)

    def initializePage(self) -> None:
        state = self.session
        flow = state.verify_outcome
        parts: list[str] = []
        e = html.escape
        self.report = None
        if flow is not None and flow.installed is not None:
            installed = flow.installed
            self.setSubTitle(TEXT["subtitle_installed"])
            parts.append(TEXT["installed"].format(name=e(installed.name),
                                                  version=e(installed.version),
                                                  python=e(str(installed.python))))
            if installed.previous is not None:
                parts.append(TEXT["replaced"].format(
                    name=e(installed.previous.name), version=e(installed.previous.version),
                    folder=e(str(installed.previous.folder))))
            parts.append(TEXT["passed"] if flow.report.passed else TEXT["not_passed"])
            self.report = flow.saved.markdown_path
        elif state.reverify_only:
            self.setSubTitle(TEXT["subtitle_reverify"])
            parts.append(TEXT["reverified"])
        else:
            self.setSubTitle(TEXT["subtitle_nothing"])
            parts.append(TEXT["nothing"])
            if flow is not None:
                self.report = flow.saved.markdown_path
        folders = {"logs": e(str(logs_dir())), "reports": e(str(reports_dir())),
                   "installs": e(str(data_dir() / "installs.json"))}
        if state.build_outcome is not None:
            files = TEXT["files"].format(log=e(str(state.build_outcome.log_path)), **folders)
        else:
            files = TEXT["files_no_build"].format(**folders)
        self.summary.setText("".join(parts))
        self.files.setText(files)
        self.report_button.setVisible(self.report is not None)
        self.folder_button.setToolTip(TEXT["open_folder_tip"].format(folder=self.folder()))
        self.shortcut_banner.setVisible(False)

    @Slot(bool)
    def _toggle_files(self, shown: bool) -> None:
        self.files.setVisible(shown)
        self.files_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

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
        result = create_shortcuts(reverify_shortcut(icon if icon.is_file() else None))
        tone = Tone.OK if result.ok else (Tone.WARNING if result.created else Tone.ERROR)
        title = TEXT["shortcut_done"] if result.created else TEXT["shortcut_failed"]
        self.shortcut_banner.show_message(tone, title,
                                          "\n".join(tr_core(m) for m in result.messages))
        return result.ok
