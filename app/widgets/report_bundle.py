""""Save report bundle…": one zip with what a bug report needs, from any page that can fail.

The bundle (:func:`kernel_wizard.verify.history.make_bundle`) holds the wizard's logs, verification
reports and install records, this machine's hardware and target Python as the session knows
them, and any extra files the page names (a build log kept outside the data folder). The Build
and Verify pages use the same button.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QFileDialog, QMessageBox, QPushButton, QWidget

from kernel_wizard.base.paths import timestamp
from kernel_wizard.flow.session import Session
from kernel_wizard.verify.history import make_bundle

from ..i18n import tr


def session_summary(session: Session) -> dict[str, object]:
    """What the bundle says about this machine and the chosen Python."""
    return {
        "hardware": session.hardware.to_json() if session.hardware else None,
        "python": session.environment.to_json() if session.environment else None,
    }


class ReportBundleButton(QPushButton):
    """Asks where to save, then writes the bundle; ``saved`` carries its path."""

    saved = Signal(object)

    def __init__(self, session: Callable[[], Session],
                 extra_files: Callable[[], Sequence[Path]] = lambda: (),
                 parent: QWidget | None = None) -> None:
        super().__init__(tr("Save report bundle…"), parent)
        self._session = session
        self._extra_files = extra_files
        self.setToolTip(tr("Save the logs, reports and a description of this computer in one zip "
                        "file, to attach to a bug report"))
        self.clicked.connect(self._ask)

    @Slot()
    def _ask(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self, tr("Save a report bundle"),
            str(Path.home() / f"ksw-report-{timestamp()}.zip"), tr("Zip archives (*.zip)"))
        if not name:
            return
        try:
            self.save(Path(name))
        except OSError as exc:
            QMessageBox.warning(self, tr("Report bundle not saved"),
                                tr("The report bundle could not be saved as {name}: "
                                   "{error}.\n\nChoose another folder, e.g. your Documents or "
                                   "Desktop.").format(name=name, error=exc.strerror or exc))

    def save(self, path: Path) -> Path:
        """Write the bundle to ``path`` (what choosing a file in the dialog does)."""
        bundle = make_bundle(path, session_summary(self._session()),
                             [p for p in self._extra_files() if p.is_file()])
        self.saved.emit(bundle)
        return bundle
