"""``python -m app --resume``: open the wizard where the user left off before a restart.

A fix that needs a restart (Windows long paths) saves a small state file and has Windows start
the wizard once with ``--resume`` after the next logon. :func:`resume` reads that state; the
wizard then detects the hardware again, selects the Python environment chosen before the
restart, and moves on by itself to the page the state names (the Prerequisites page, which
checks everything again). The state is cleared once that page is reached. If anything does not
settle (the saved Python is gone, detection fails), the wizard simply stays where it is and the
user goes on by hand.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QWizard

from kernel_wizard.flow.session import FlowStep
from kernel_wizard.prereqs.resume import ResumeState, clear_resume_state, load_resume_state

from .pages.hardware import HardwarePage

PAGE_NAMES = {"prerequisites": "PREREQS", "prereqs": "PREREQS", "hardware": "HARDWARE"}


def target_page(name: str) -> FlowStep | None:
    """The page a saved state names ("prerequisites"), or None when the wizard has none."""
    key = PAGE_NAMES.get(name.strip().lower(), name.strip().upper())
    return FlowStep.__members__.get(key)


class ResumeDriver(QObject):
    """Moves the wizard on, page by page, as each page settles, until the target is shown."""

    def __init__(self, wizard: QWizard, state: ResumeState, target: FlowStep,
                 directory: Path | None = None, timeout_s: float = 600.0,
                 interval_ms: int = 100) -> None:
        super().__init__(wizard)
        self.wizard = wizard
        self.state = state
        self.target = target
        self.directory = directory
        self.deadline = time.monotonic() + timeout_s
        self.python = Path(state.python) if state.python else None
        self._python_chosen = self.python is None
        self.done = False
        self.reached = False
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.step)

    def start(self) -> None:
        self._timer.start()

    def stop(self, reached: bool) -> None:
        self._timer.stop()
        self.done = True
        self.reached = reached
        if reached:
            clear_resume_state(self.directory)  # used: a later start is a normal one

    @Slot()
    def step(self) -> None:
        wizard = self.wizard
        current = wizard.currentId()
        if current == int(self.target):
            self.stop(reached=True)
            return
        if current > int(self.target) or time.monotonic() > self.deadline:
            self.stop(reached=False)  # the user went on by hand, or something never settled
            return
        if current == -1:
            return  # not shown yet
        page = wizard.currentPage()
        busy = getattr(page, "is_busy", None)
        if callable(busy) and busy():
            return
        if current == int(FlowStep.HARDWARE) and not self._python_chosen \
                and isinstance(page, HardwarePage):
            self._python_chosen = True
            env = page.session.environment
            if self.python is not None and (env is None or env.executable != self.python):
                page.add_interpreter(self.python)  # inspected in the background
                return
        if page is not None and page.isComplete():
            wizard.next()


def resume(wizard: QWizard, directory: Path | None = None,
           timeout_s: float = 600.0) -> ResumeDriver | None:
    """Arm the resume for a shown (or about to be shown) wizard. None when nothing was saved
    or the saved page is unknown (then the state is cleared and the wizard starts as usual)."""
    state = load_resume_state(directory)
    if state is None:
        return None
    target = target_page(state.page)
    if target is None:
        clear_resume_state(directory)
        return None
    driver = ResumeDriver(wizard, state, target, directory, timeout_s)
    driver.start()
    return driver


__all__ = ["ResumeDriver", "resume", "target_page"]
