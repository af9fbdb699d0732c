"""The wizard window: :class:`InstallerWizard` and the :class:`PageId` of every page.

A page is a module in ``app/pages`` and an entry in :class:`PageId`; :data:`PAGES` says which
class implements which id. Pages reach the core through :class:`Services`, so tests can swap in
a replayed NVML without touching the pages.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWizard, QWizardPage

from build_backend import __version__
from build_backend.environment import Candidate, PythonEnv, discover_candidates, inspect_python
from build_backend.hardware import HardwareReport, detect


class PageId(IntEnum):
    WELCOME = 0
    HARDWARE = 1


@dataclass
class Services:
    """The core functions the pages call (replaceable in tests)."""

    detect: Callable[[], HardwareReport] = detect
    discover: Callable[[], list[Candidate]] = discover_candidates
    inspect: Callable[[Path], PythonEnv] = inspect_python


@dataclass
class WizardState:
    """What the pages have learned so far; later pages read what earlier ones found."""

    hardware: HardwareReport | None = None
    candidates: list[Candidate] = field(default_factory=list)
    environment: PythonEnv | None = None
    reverify_only: bool = False


class InstallerWizard(QWizard):
    def __init__(self, services: Services | None = None) -> None:
        super().__init__()
        self.services = services if services is not None else Services()
        self.state = WizardState()
        self.setWindowTitle("Kernel Setup Wizard")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setMinimumSize(860, 600)

        from .pages.hardware import HardwarePage
        from .pages.welcome import WelcomePage

        pages: dict[PageId, QWizardPage] = {
            PageId.WELCOME: WelcomePage(),
            PageId.HARDWARE: HardwarePage(),
        }
        for page_id, page in pages.items():
            self.setPage(int(page_id), page)
        self.setStartId(int(PageId.WELCOME))

    def page_of(self, page_id: PageId) -> QWizardPage:
        page = self.page(int(page_id))
        assert page is not None
        return page


def run_gui() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setApplicationName("Kernel Setup Wizard")
    app.setApplicationVersion(__version__)
    app.setAttribute(Qt.ApplicationAttribute.AA_DontShowIconsInMenus, False)
    wizard = InstallerWizard()
    wizard.show()
    return int(app.exec())
