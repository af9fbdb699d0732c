"""The wizard window: :class:`InstallerWizard` and the :class:`PageId` of every page.

A page is a module in ``app/pages`` and an entry in :class:`PageId`; :data:`PAGES` says which
class implements which id. Pages reach the core through :class:`Services`, so tests can swap in
a replayed NVML without touching the pages.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import IntEnum
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWizard, QWizardPage

from build_backend import __version__
from build_backend.build import BuildOutcome, BuildPlan, run_build
from build_backend.catalog import Catalog, load_catalog
from build_backend.environment import Candidate, PythonEnv, discover_candidates, inspect_python
from build_backend.hardware import HardwareReport, detect
from build_backend.install import InstallResult, install_wheel, load_installs
from build_backend.pipeline import KernelChoice, PlanError, plan_build, probe_request, run_pipeline
from build_backend.prereqs import (
    CheckId,
    CheckResult,
    SystemFacts,
    gather_facts,
    refresh,
    run_checks,
)
from build_backend.reverify import ReverifyResult, reverify_all
from build_backend.stage import FlowOutcome, verify_then_install
from build_backend.toolkits import CudaToolkit, discover_toolkits
from build_backend.wheels import WheelCandidate

from .workers import BackgroundTask


class PageId(IntEnum):
    WELCOME = 0
    HARDWARE = 1
    PREREQS = 2
    KERNEL = 3
    BUILD = 4
    VERIFY = 5
    DONE = 6


@dataclass
class WizardState:
    """What the pages have learned so far; later pages read what earlier ones found."""

    hardware: HardwareReport | None = None
    candidates: list[Candidate] = field(default_factory=list)
    environment: PythonEnv | None = None
    reverify_only: bool = False
    kernel_choice: KernelChoice | None = None  # None: the bundled probe kernel
    # the Kernel page's choice of a matching prebuilt wheel instead of a source build (None:
    # build): the Build page then downloads it (pipeline.fetch_prebuilt)
    prebuilt: WheelCandidate | None = None
    build_outcome: BuildOutcome | None = None
    verify_outcome: FlowOutcome | None = None
    checks: list[CheckResult] = field(default_factory=list)  # the Prerequisites page's results

    @property
    def verify_adapter(self) -> str:
        choice = self.kernel_choice
        return choice.recipe.verify_adapter if choice is not None else "probe"


def default_plan(state: WizardState) -> BuildPlan:
    """The plan of a bundled probe build (what the screenshots and some tests start from)."""
    if state.environment is None or state.hardware is None:
        raise PlanError("Choose a Python environment on the Hardware page first.")
    return plan_build(probe_request(state.environment, state.hardware))


def probe_choice() -> KernelChoice:
    recipe = load_catalog().get("probe")
    return KernelChoice.default(recipe, recipe.newest)


def default_build(state: WizardState, sink: Callable[[object], None],
                  cancel: threading.Event) -> BuildOutcome:
    """Source, patches and build of the chosen kernel (the probe when none was chosen)."""
    if state.environment is None or state.hardware is None:
        raise PlanError("Choose a Python environment on the Hardware page first.")
    choice = state.kernel_choice or probe_choice()
    if state.prebuilt is not None:  # the Kernel page chose a matching prebuilt wheel
        choice = replace(choice, prebuilt=state.prebuilt)
    return run_pipeline(choice, state.environment, state.hardware, sink, cancel)


@dataclass
class Services:
    """The core functions the pages call (replaceable in tests)."""

    detect: Callable[[], HardwareReport] = detect
    discover: Callable[[], list[Candidate]] = discover_candidates
    inspect: Callable[[Path], PythonEnv] = inspect_python
    build: Callable[[WizardState, Callable[[object], None], threading.Event], BuildOutcome] = (
        default_build
    )
    make_plan: Callable[[WizardState], BuildPlan] | None = None  # set: build this plan only
    run_build: Callable[..., BuildOutcome] = run_build
    verify_then_install: Callable[..., FlowOutcome] = verify_then_install
    install_wheel: Callable[..., InstallResult] = install_wheel
    reverify_all: Callable[[], list[ReverifyResult]] = reverify_all
    installs: Callable[[], list[dict[str, Any]]] = load_installs
    # the Prerequisites page: gather_facts(env=..., hardware=...), then run_checks(facts);
    # after a fix refresh(facts, check_id) and run_checks again
    gather_facts: Callable[..., SystemFacts] = gather_facts
    run_checks: Callable[[SystemFacts], list[CheckResult]] = run_checks
    refresh: Callable[[SystemFacts, CheckId], SystemFacts] = refresh
    # the Kernel page: the recipes, and the CUDA toolkits (runs nvcc: a worker thread calls it)
    load_catalog: Callable[[], Catalog] = load_catalog
    discover_toolkits: Callable[[], list[CudaToolkit]] = discover_toolkits


class InstallerWizard(QWizard):
    def __init__(self, services: Services | None = None) -> None:
        super().__init__()
        self.services = services if services is not None else Services()
        self.state = WizardState()
        self.setWindowTitle("Kernel Setup Wizard")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setMinimumSize(860, 600)

        from .pages.build import BuildPage
        from .pages.done import DonePage
        from .pages.hardware import HardwarePage
        from .pages.kernel import KernelPage
        from .pages.prereqs import PrereqsPage
        from .pages.verify import VerifyPage
        from .pages.welcome import WelcomePage

        pages: dict[PageId, QWizardPage] = {
            PageId.WELCOME: WelcomePage(),
            PageId.HARDWARE: HardwarePage(),
            PageId.PREREQS: PrereqsPage(),
            PageId.KERNEL: KernelPage(),
            PageId.BUILD: BuildPage(),
            PageId.VERIFY: VerifyPage(),
            PageId.DONE: DonePage(),
        }
        for page_id, page in pages.items():
            self.setPage(int(page_id), page)
        self.setStartId(int(PageId.WELCOME))

    def page_of(self, page_id: PageId) -> QWizardPage:
        page = self.page(int(page_id))
        assert page is not None
        return page

    def reject(self) -> None:
        """Cancel/close. A running build stops only after the user confirms; a running
        verification or install is let finish (never left half-installed); other background
        work is waited for, so no thread outlives the window."""
        from .pages.build import BuildPage
        from .pages.verify import VerifyPage

        build = self.page_of(PageId.BUILD)
        assert isinstance(build, BuildPage)
        if build.session is not None:
            if not build.ask_cancel():
                return  # the user chose to keep building
            if build.session is None:  # it finished while the question was open
                self._close()
                return
            build.session.finished.connect(lambda _outcome: self._close())
            return
        verify = self.page_of(PageId.VERIFY)
        assert isinstance(verify, VerifyPage)
        if verify.task is not None:
            QMessageBox.information(
                self, "Please wait",
                "The kernel is being verified or installed. The wizard closes as soon as that "
                "step is finished, so your environment is never left half-installed.")
            verify.task.finished.connect(lambda _result: self._close())
            verify.task.failed.connect(lambda _error: self._close())
            return
        self._close()

    def _close(self) -> None:
        for page_id in self.pageIds():
            page = self.page(page_id)
            for name in ("_detect_task", "_inspect_task", "_task", "task"):
                task = getattr(page, name, None)
                if isinstance(task, BackgroundTask) and task.is_running():
                    task.finish()
        QWizard.reject(self)


def run_gui(resume: bool = False) -> int:
    """``resume``: started with ``--resume`` after a restart a fix asked for: detect again and
    go on to the page the saved state names (see :mod:`app.resume`)."""
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setApplicationName("Kernel Setup Wizard")
    app.setApplicationVersion(__version__)
    app.setAttribute(Qt.ApplicationAttribute.AA_DontShowIconsInMenus, False)
    wizard = InstallerWizard()
    wizard.show()
    if resume:
        from .resume import resume as resume_saved

        resume_saved(wizard)
    return int(app.exec())
