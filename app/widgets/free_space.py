""""Free space…": how much the old builds take, a question, then their removal.

The same housekeeping as ``python -m app --headless clean --all``
(:mod:`kernel_wizard.install.housekeeping`): every old build, build log beyond the last few and
downloaded source that nothing uses; installed kernels, their backups and the verification
reports stay. Measuring and removing run off the GUI thread (a FlashAttention source tree has
tens of thousands of files); the dialogs do not block, so the rest of the window stays alive.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from kernel_wizard.install.housekeeping import (
    CleanPlan,
    CleanResult,
    clean,
    format_size,
    plan_clean,
)

from ..i18n import Texts, tr_core
from ..workers import BackgroundTask

MAX_LISTED = 8

TEXT = Texts("FreeSpace", {
    "button": "Free space…",
    "tip": "Remove old builds and downloaded sources that nothing uses any more (installed "
           "kernels, their backups and reports are kept).",
    "measuring": "Measuring…",
    "removing": "Removing…",
    "title": "Free space",
    "nothing": "Nothing to remove: there are no old builds or downloaded sources.",
    "item": "• {size} — {kind}: {name}",
    "more": "• and {count} more",
    "question": "Old builds and downloaded sources take {size}. Remove them?",
    "kept": "Installed kernels, their backups and the verification reports are kept. A later "
            "build downloads and compiles again.",
    "freed_failed": "Freed {size}; {count} item(s) could not be removed.",
    "freed": "Freed {size}.",
    "failed": "The old builds could not be measured or removed.",
})


class FreeSpaceButton(QPushButton):
    """A button that offers to remove old builds, saying first how much space they take."""

    finished = Signal(object)  # the CleanResult, or None when nothing was removed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(TEXT["button"], parent)
        self.setToolTip(TEXT["tip"])
        self.dialog: QMessageBox | None = None
        self.plan: CleanPlan | None = None
        self.result: CleanResult | None = None
        self.clicked.connect(self.measure)

    @Slot()
    def measure(self) -> None:
        self.setEnabled(False)
        self.setText(TEXT["measuring"])
        task = BackgroundTask(lambda: plan_clean(keep=0), self)
        task.finished.connect(self._ask)
        task.failed.connect(self._failed)
        task.start()

    def _show(self, icon: QMessageBox.Icon, text: str, detail: str = "",
              question: bool = False) -> QMessageBox:
        box = QMessageBox(icon, TEXT["title"], text, parent=self)
        if detail:
            box.setInformativeText(detail)
        if question:
            box.setStandardButtons(QMessageBox.StandardButton.Yes
                                   | QMessageBox.StandardButton.No)
            box.setDefaultButton(QMessageBox.StandardButton.No)
        self.dialog = box
        box.open()
        return box

    @Slot(object)
    def _ask(self, plan: object) -> None:
        assert isinstance(plan, CleanPlan)
        self.plan = plan
        self._reset()
        if not plan.remove:
            self._show(QMessageBox.Icon.Information, TEXT["nothing"])
            self.finished.emit(None)
            return
        listed = [TEXT["item"].format(size=format_size(i.size), kind=tr_core(i.kind.value),
                                      name=i.path.name)
                  for i in sorted(plan.remove, key=lambda i: -i.size)[:MAX_LISTED]]
        if len(plan.remove) > MAX_LISTED:
            listed.append(TEXT["more"].format(count=len(plan.remove) - MAX_LISTED))
        box = self._show(
            QMessageBox.Icon.Question,
            TEXT["question"].format(size=format_size(plan.size)),
            "\n".join(listed) + "\n\n" + TEXT["kept"],
            question=True)
        box.finished.connect(self._answered)

    @Slot(int)
    def _answered(self, answer: int) -> None:
        if answer != int(QMessageBox.StandardButton.Yes) or self.plan is None:
            self.finished.emit(None)
            return
        plan = self.plan
        self.setEnabled(False)
        self.setText(TEXT["removing"])
        task = BackgroundTask(lambda: clean(plan), self)
        task.finished.connect(self._removed)
        task.failed.connect(self._failed)
        task.start()

    @Slot(object)
    def _removed(self, result: object) -> None:
        assert isinstance(result, CleanResult)
        self.result = result
        self._reset()
        if result.failed:
            self._show(QMessageBox.Icon.Warning,
                       TEXT["freed_failed"].format(size=format_size(result.freed),
                                                   count=len(result.failed)),
                       tr_core(result.failed[0][1]))
        else:
            self._show(QMessageBox.Icon.Information,
                       TEXT["freed"].format(size=format_size(result.freed)))
        self.finished.emit(result)

    @Slot(object)
    def _failed(self, exc: object) -> None:
        self._reset()
        from kernel_wizard.base.errors import WizardError

        if isinstance(exc, WizardError):
            self._show(QMessageBox.Icon.Warning, tr_core(exc.what), tr_core(exc.hint))
        else:
            self._show(QMessageBox.Icon.Warning, TEXT["failed"], str(exc))
        self.finished.emit(None)

    def _reset(self) -> None:
        self.setEnabled(True)
        self.setText(TEXT["button"])
