"""The wizard window: :class:`InstallerWizard` and the :data:`PageId` of every page.

The wizard owns the core's flow object (:class:`build_backend.session.Session`): pages read
and change it and never call each other; the page ids are the session's stages. Tests swap the
session's services (a replayed NVML, a stand-in build), never the flow.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QWizard, QWizardPage

from build_backend import __version__
from build_backend.plan import BuildPlan, BuildRequest, plan_build
from build_backend.session import Session, SessionServices, Stage

from .pages.base import SessionPage

PageId = Stage  # one page per stage of the flow


def default_plan(session: Session) -> BuildPlan:
    """The plan of a bundled probe build (what the screenshots and some tests start from)."""
    env, hardware = session.require_target()
    probe = session.catalog().get("probe")
    return plan_build(BuildRequest(probe, probe.newest, env, hardware),
                      toolkits=session.toolkits())


# The wizard drives the core's flow object; tests and scripts swap its services.
Services = SessionServices
WizardState = Session


class InstallerWizard(QWizard):
    def __init__(self, services: SessionServices | None = None) -> None:
        super().__init__()
        self.session = Session(services if services is not None else SessionServices())
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

        pages: dict[PageId, SessionPage] = {
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

    @property
    def services(self) -> SessionServices:
        return self.session.services

    @property
    def state(self) -> Session:
        """The session (what the pages have learned so far)."""
        return self.session

    def flow_pages(self) -> list[SessionPage]:
        pages = [self.page(i) for i in self.pageIds()]
        return [p for p in pages if isinstance(p, SessionPage)]

    def reject(self) -> None:
        """Cancel/close. Every page is asked whether it may close: a running build stops only
        after the person confirms, a running verification or install is let finish (never left
        half-installed); the wizard then closes once that work has ended."""
        for page in self.flow_pages():
            if not page.prepare_close(self._close):
                return
        self._close()

    def _close(self) -> None:
        for page in self.flow_pages():
            page.finish_background()  # no thread outlives the window
        QWizard.reject(self)

    def stop_and_quit(self, exit_code: int, limit_s: float = 60.0) -> None:
        """The program was told to stop (SIGTERM, SIGHUP, Ctrl-C in its terminal): nobody is
        asked. Every page stops its work (the runner already stops every child's process
        tree; an install is let finish), the wizard waits for that — at most ``limit_s`` —
        closes, and the application quits with ``exit_code``."""
        for page in self.flow_pages():
            page.stop_work()
        deadline = time.monotonic() + limit_s
        timer = QTimer(self)

        def quit_when_idle() -> None:
            busy = any(page.is_busy() for page in self.flow_pages())
            if busy and time.monotonic() < deadline:
                return
            timer.stop()
            self._close()
            QApplication.exit(exit_code)

        timer.timeout.connect(quit_when_idle)
        timer.start(100)


def run_gui(resume: bool = False) -> int:
    """``resume``: started with ``--resume`` after a restart a fix asked for: detect again and
    go on to the page the saved state names (see :mod:`app.resume`)."""
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setApplicationName("Kernel Setup Wizard")
    app.setApplicationVersion(__version__)
    app.setAttribute(Qt.ApplicationAttribute.AA_DontShowIconsInMenus, False)
    from build_backend.errors import ExitCode

    from .error_dialog import check_data_folder, error_box, install_excepthook

    problem = check_data_folder()
    if problem is not None:  # nothing can be built without it: say why, and how to fix it
        print(problem.describe(), file=sys.stderr)
        error_box(None, problem).exec()
        return int(ExitCode.STORAGE)
    wizard = InstallerWizard()
    install_excepthook(wizard)

    def after_show() -> None:
        if resume:
            from .resume import resume as resume_saved

            resume_saved(wizard)

    return run_wizard(app, wizard, after_show)


def run_wizard(app: QApplication, wizard: InstallerWizard,
               after_show: Callable[[], None] | None = None) -> int:
    """Show ``wizard`` and run the event loop with the program's lifetime installed
    (:mod:`build_backend.lifetime`): SIGTERM, SIGHUP or Ctrl-C stop every child's process
    tree and quit with 128 + the signal; children die with the wizard even if it is killed
    outright (Linux: PR_SET_PDEATHSIG and the watchdog; Windows: the Job Object)."""
    from build_backend.lifetime import Interruption, guard

    def on_stop(stop: Interruption) -> None:  # on the GUI thread, inside a signal handler
        QTimer.singleShot(0, lambda: wizard.stop_and_quit(stop.exit_code))

    with guard(on_stop=on_stop) as life:
        # Python runs its signal handlers only between bytecodes: while Qt waits for events,
        # this timer gives it that chance five times a second.
        ping = QTimer()
        ping.timeout.connect(lambda: None)
        ping.start(200)
        wizard.show()
        if after_show is not None:
            after_show()
        code = int(app.exec())
        ping.stop()
        return life.exit_code(code)
