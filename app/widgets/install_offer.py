"""The offer after a verification passed: "Install into <the target Python>" (the commit point)
or "Finish without installing", with the environment folder named under it; and what an install
did (:func:`installed_text`). The Verify page connects the two buttons; this widget only shows
the offer."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from kernel_wizard.install.installer import InstallResult

from ..i18n import Texts

ELIDE_PX = 480  # a longer path is shortened in the middle on the button (whole in its tooltip)

TEXT = Texts("Verify", {  # the Verify page's context: its translations stay where they are
    "install": "Install into {python}",
    "install_note": "Installs the kernel into the Python environment in “{folder}”. What it "
                    "replaces there is backed up first, and “Roll back” undoes the install.",
    "skip": "Finish without installing",
    "skip_tip": "Leave your Python environment as it is and go to the summary",
    "installed_anyway": "{name} {version} is now installed in {python}.",
    "replaced_kept": "It replaced {name} {version}, which is kept: Roll back puts it back.",
    "nothing_before": "Nothing was installed there before: Roll back removes it again.",
})


def installed_text(result: InstallResult) -> str:
    """What an install did: what is installed where, and what Roll back would put back."""
    replaced = (TEXT["replaced_kept"].format(name=result.previous.name,
                                             version=result.previous.version)
                if result.previous is not None else TEXT["nothing_before"])
    installed = TEXT["installed_anyway"].format(name=result.name, version=result.version,
                                                python=result.python)
    return f"{installed} {replaced}"


class InstallOffer(QWidget):
    """Hidden until :meth:`offer` names the target (see the module's text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        panel = QVBoxLayout(self)
        panel.setContentsMargins(0, 6, 0, 6)
        buttons = QHBoxLayout()
        self.install_button = QPushButton()
        big = QFont(self.install_button.font())
        big.setPointSizeF(big.pointSizeF() * 1.15)
        big.setBold(True)
        self.install_button.setFont(big)
        self.install_button.setMinimumHeight(self.install_button.sizeHint().height() + 10)
        self.install_button.setAutoDefault(False)
        self.skip_install = QPushButton(TEXT["skip"])
        self.skip_install.setToolTip(TEXT["skip_tip"])
        self.skip_install.setAutoDefault(False)
        buttons.addWidget(self.install_button)
        buttons.addWidget(self.skip_install)
        buttons.addStretch(1)
        panel.addLayout(buttons)
        self.install_note = QLabel()
        self.install_note.setWordWrap(True)
        self.install_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        panel.addWidget(self.install_note)
        self.setVisible(False)

    def offer(self, python: Path, folder: Path | None) -> None:
        """"Install into <python>" and "Finish without installing", both enabled."""
        metrics = QFontMetrics(self.install_button.font())
        shown = metrics.elidedText(str(python), Qt.TextElideMode.ElideMiddle, ELIDE_PX)
        self.install_button.setText(TEXT["install"].format(python=shown))
        self.install_button.setToolTip(str(python))
        self.install_note.setText(TEXT["install_note"].format(folder=folder))
        self.set_choosing(True)
        self.setVisible(True)

    def set_choosing(self, enabled: bool) -> None:
        """Whether the person can choose now (not while an install runs)."""
        self.install_button.setEnabled(enabled)
        self.skip_install.setEnabled(enabled)
