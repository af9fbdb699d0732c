"""Questions whose buttons say what they do ("Install ninja" / "Not now"), not Yes / No."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

# QMessageBox.question as Qt ships it. Tests answer dialogs by replacing QMessageBox.question
# (a modal dialog offscreen would wait forever); when it has been replaced, ask() asks it.
_QT_QUESTION = QMessageBox.question


def ask(parent: QWidget | None, title: str, text: str, do: str, dont: str, *,
        warning: bool = False, default_do: bool = False) -> bool:
    """Ask ``text``; True when the person chose the button labelled ``do``. ``dont`` is the
    default (Escape and closing the dialog choose it too) unless ``default_do``."""
    yes, no = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No
    if QMessageBox.question is not _QT_QUESTION:
        return bool(QMessageBox.question(parent, title, text, yes | no,
                                         yes if default_do else no) == yes)
    icon = QMessageBox.Icon.Warning if warning else QMessageBox.Icon.Question
    box = QMessageBox(icon, title, text, yes | no, parent)
    box.button(yes).setText(do)
    box.button(no).setText(dont)
    box.setDefaultButton(yes if default_do else no)
    box.setEscapeButton(no)
    return box.exec() == yes


__all__ = ["ask"]
