"""Keeping the user on a page while its long work runs."""

from __future__ import annotations

from PySide6.QtWidgets import QWizardPage


def lock_back(page: QWizardPage, locked: bool) -> None:
    """Disable (or re-enable) the wizard's Back button while ``page`` runs long work.

    QWizard recomputes the Back button on every state change and disables it exactly when
    the previous page is a commit page, so the previous page is marked as one while the work
    runs (and unmarked after): the wizard itself then keeps Back disabled.
    """
    wizard = page.wizard()
    if wizard is None:
        return
    own = [i for i in wizard.pageIds() if wizard.page(i) is page]
    # During initializePage() the page is not in the history yet; afterwards it is last.
    history = [i for i in wizard.visitedIds() if i not in own]
    if history:
        previous = wizard.page(history[-1])
        if previous is not None:
            previous.setCommitPage(locked)
    page.completeChanged.emit()  # makes QWizard update its buttons now
