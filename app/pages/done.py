"""Done: what was installed where, and where the logs and reports are."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout

from build_backend.paths import data_dir, logs_dir, reports_dir

from ..widgets.free_space import FreeSpaceButton
from .base import SessionPage


class DonePage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Done")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.summary.setOpenExternalLinks(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        self.free_space = FreeSpaceButton(self)  # old builds: their size, then a question
        layout.addWidget(self.free_space, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)

    def initializePage(self) -> None:
        state = self.session
        flow = state.verify_outcome
        lines: list[str] = []
        if flow is not None and flow.installed is not None:
            installed = flow.installed
            lines.append(f"<p><b>Installed {installed.name} {installed.version}</b> into "
                         f"<code>{installed.python}</code>.</p>")
            if installed.previous is not None:
                lines.append(f"<p>It replaced {installed.previous.name} "
                             f"{installed.previous.version}, kept in "
                             f"<code>{installed.previous.folder}</code> for a roll-back.</p>")
            verdict = "passed" if flow.report.passed else "did <b>not</b> pass"
            lines.append(f"<p>Its verification {verdict}: report "
                         f"<code>{flow.saved.markdown_path}</code>.</p>")
        elif state.reverify_only:
            lines.append("<p>Re-verification finished.</p>")
        else:
            lines.append("<p>Nothing was installed.</p>")
        if state.build_outcome is not None:
            lines.append(f"<p>Build log: <code>{state.build_outcome.log_path}</code></p>")
        lines.append(f"<p>All logs: <code>{logs_dir()}</code><br>All reports: "
                     f"<code>{reports_dir()}</code><br>Install records: "
                     f"<code>{data_dir() / 'installs.json'}</code></p>")
        lines.append("<p><b>After a driver or PyTorch update</b>, run the wizard again and "
                     "choose <i>Only re-run the verification</i>, or run "
                     "<code>python -m app --verify</code> — it compares with today's results "
                     "and names anything that changed.</p>")
        self.summary.setText("".join(lines))
