"""The GUI's top level for errors: a dialog in plain words instead of a crash.

:func:`install_excepthook` catches what a page action raised on the GUI thread (Qt hands an
exception from a slot or a page's ``initializePage`` to ``sys.excepthook`` and carries on): an
``OSError`` becomes the :class:`~kernel_wizard.base.errors.StorageError` that names the path, the
cause and the fix (:func:`kernel_wizard.base.paths.storage_error`), a
:class:`~kernel_wizard.base.errors.WizardError` is shown as it is, anything else is shown as an
unexpected problem with its details (and printed to stderr for a bug report). The wizard keeps
running. :func:`check_data_folder` runs once at start: without a usable data folder nothing can
be built, so the wizard says why and how to choose another one, and does not open.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from types import TracebackType

from PySide6.QtWidgets import QMessageBox, QWidget

from kernel_wizard.base.errors import WizardError
from kernel_wizard.base.paths import check_data_dir, storage_error

from .i18n import tr, tr_core

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]

# Dialogs open at the moment (non-blocking: an exception may come while another is shown).
_OPEN: list[QMessageBox] = []


def error_box(parent: QWidget | None, exc: BaseException, details: str = "") -> QMessageBox:
    """A dialog for ``exc``: what happened, what to do, and (one click away) why."""
    error = storage_error(exc) if isinstance(exc, OSError) else exc
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(tr("Kernel Setup Wizard"))
    if isinstance(error, WizardError):
        box.setText(tr_core(error.what))
        box.setInformativeText(tr("What to do: {hint}").format(hint=tr_core(error.hint))
                               if error.hint else "")
        box.setDetailedText("\n\n".join(part for part in (error.why, details) if part))
    else:
        box.setText(tr("Something went wrong inside the wizard: {error}").format(
            error=f"{type(error).__name__}: {error}"))
        box.setInformativeText(tr("Your environment was not changed by this. You can go on; if "
                               "it happens again, please report it with the details below."))
        box.setDetailedText(details)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    return box


def show_error(parent: QWidget | None, exc: BaseException, details: str = "") -> QMessageBox:
    """Show :func:`error_box` without blocking (it stays open until the person closes it)."""
    box = error_box(parent, exc, details)
    _OPEN.append(box)
    box.finished.connect(lambda _result: _OPEN.remove(box) if box in _OPEN else None)
    box.open()
    return box


def install_excepthook(parent: QWidget) -> ExceptHook:
    """Show what a page action raised in a dialog over ``parent``; returns the previous hook
    (to put back when the window is gone)."""
    previous = sys.excepthook

    def hook(kind: type[BaseException], exc: BaseException,
             tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            previous(kind, exc, tb)
            return
        details = ""
        if not isinstance(exc, (OSError, WizardError)):  # a bug: keep the whole story
            details = "".join(traceback.format_exception(kind, exc, tb))
            print(details, file=sys.stderr, end="")
        show_error(parent, exc, details)

    sys.excepthook = hook
    return previous


def check_data_folder() -> WizardError | None:
    """None when the wizard's data folder can be created and written to; else the error that
    says why and how to choose another (KSW_DATA_DIR)."""
    try:
        check_data_dir()
    except WizardError as exc:
        return exc
    return None
