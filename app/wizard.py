"""The wizard window: :class:`InstallerWizard`, one page per step of the flow.

The wizard owns the core's flow object (:class:`kernel_wizard.flow.session.Session`): pages read
and change it and never call each other; the page ids are the session's steps
(:class:`kernel_wizard.flow.session.FlowStep`). Tests swap the
session's services (a replayed NVML, a stand-in build), never the flow.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QSize, Qt, QTimer, Slot
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication, QWizard, QWizardPage

from kernel_wizard import __version__
from kernel_wizard.base.resources import resource_path
from kernel_wizard.build.run import BuildStatus
from kernel_wizard.flow.session import FlowStep, Session, SessionServices
from kernel_wizard.machine.platforms import current as current_platform

from .i18n import N_, install_translator, tr
from .pages.base import SessionPage
from .time_words import duration_text as format_duration
from .widgets.dialogs import ask
from .widgets.steps import StepList

# Sizes. The smallest window fits a 1366×768 laptop at 125 % scaling (1093×614 logical pixels,
# less the taskbar and the title bar); pages scroll where their content needs more.
MIN_SIZE = QSize(720, 480)
DEFAULT_SIZE = QSize(1024, 720)
FRAME = QSize(16, 40)  # what the window frame and title bar add around the wizard

# -- the texts (one place) ---------------------------------------------------------------------

TITLE = N_("Kernel Setup Wizard")
STEP_NAMES = {
    FlowStep.WELCOME: N_("Welcome"),
    FlowStep.HARDWARE: N_("Hardware"),
    FlowStep.PREREQS: N_("Prerequisites"),
    FlowStep.KERNEL: N_("Kernel"),
    FlowStep.BUILD: N_("Build"),
    FlowStep.VERIFY: N_("Verify"),
    FlowStep.DONE: N_("Done"),
}
QUIT_TITLE = N_("Quit without installing?")
QUIT_TEXT = N_("The kernel was built (that took {took}) but it is not installed yet. If you "
                "quit now, the next run has to build it again.")
QUIT_DO = N_("Quit")
QUIT_DONT = N_("Keep the wizard open")


def initial_size(available: QSize) -> QSize:
    """The window's first size: :data:`DEFAULT_SIZE` where the screen's work area has room
    for it (with the window frame), else as much as there is, never below :data:`MIN_SIZE`."""
    width = min(DEFAULT_SIZE.width(), available.width() - FRAME.width())
    height = min(DEFAULT_SIZE.height(), available.height() - FRAME.height())
    return QSize(max(MIN_SIZE.width(), width), max(MIN_SIZE.height(), height))


def wizard_style(platform_name: str) -> QWizard.WizardStyle | None:
    """The wizard style to set; None keeps Qt's native choice (Windows: the Aero wizard of the
    windowsvista/windows11 style, not a look forced on it)."""
    return None if platform_name == "windows" else QWizard.WizardStyle.ModernStyle


def window_icon(platform_name: str) -> QIcon:
    name = "ksw.ico" if platform_name == "windows" else "ksw.png"
    return QIcon(str(resource_path("icons", name)))


class InstallerWizard(QWizard):
    def __init__(self, services: SessionServices | None = None) -> None:
        super().__init__()
        self.session = Session(services if services is not None else SessionServices())
        platform_name = current_platform().name
        self.setWindowTitle(tr(TITLE))
        self.setWindowIcon(window_icon(platform_name))
        style = wizard_style(platform_name)
        if style is not None:
            self.setWizardStyle(style)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        # Done shows Finish only: installing is the commit point, nothing to go back into
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, True)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.setMinimumSize(MIN_SIZE)
        self.resize(DEFAULT_SIZE)
        self.steps = StepList([(int(page_id), tr(name)) for page_id, name in STEP_NAMES.items()])
        self.setSideWidget(self.steps)
        self.currentIdChanged.connect(self._show_step)

        from .pages.build import BuildPage
        from .pages.done import DonePage
        from .pages.hardware import HardwarePage
        from .pages.kernel import KernelPage
        from .pages.prereqs import PrereqsPage
        from .pages.verify import VerifyPage
        from .pages.welcome import WelcomePage

        pages: dict[FlowStep, SessionPage] = {
            FlowStep.WELCOME: WelcomePage(),
            FlowStep.HARDWARE: HardwarePage(),
            FlowStep.PREREQS: PrereqsPage(),
            FlowStep.KERNEL: KernelPage(),
            FlowStep.BUILD: BuildPage(),
            FlowStep.VERIFY: VerifyPage(),
            FlowStep.DONE: DonePage(),
        }
        for page_id, page in pages.items():
            self.setPage(int(page_id), page)
        self.setStartId(int(FlowStep.WELCOME))

    def page_of(self, page_id: FlowStep) -> QWizardPage:
        page = self.page(int(page_id))
        assert page is not None
        return page

    def flow_pages(self) -> list[SessionPage]:
        pages = [self.page(i) for i in self.pageIds()]
        return [p for p in pages if isinstance(p, SessionPage)]

    @Slot(int)
    def _show_step(self, page_id: int) -> None:
        skipped = ({int(p) for p in (FlowStep.HARDWARE, FlowStep.PREREQS, FlowStep.KERNEL,
                                     FlowStep.BUILD)} if self.session.reverify_only else set())
        self.steps.show_position(page_id, self.visitedIds(), skipped)

    def lost_work(self) -> str | None:
        """What quitting now would lose, in words for :data:`QUIT_TEXT` (how long the build
        took); None when nothing would be lost."""
        session = self.session
        if session.reverify_only or self.currentId() == FlowStep.DONE:
            return None  # on Done the person has chosen: installed, or finished without
        build = session.current_build()
        if build is None or build.status is not BuildStatus.SUCCEEDED:
            return None
        outcome = session.verify_outcome
        if outcome is not None and (outcome.installed is not None or not outcome.report.passed):
            return None  # installed, or it failed its verification: nothing worth keeping
        return format_duration(build.seconds)

    def reject(self) -> None:
        """Cancel/close. Every page is asked whether it may close: a running build stops only
        after the person confirms, a running verification or install is let finish (never left
        half-installed); the wizard then closes once that work has ended. When a built kernel
        is not installed yet, the person is asked first; otherwise it closes at once."""
        for page in self.flow_pages():
            if not page.prepare_close(self._close):
                return
        took = self.lost_work()
        if took is not None and not ask(self, tr(QUIT_TITLE), tr(QUIT_TEXT).format(took=took),
                                        tr(QUIT_DO), tr(QUIT_DONT)):
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


    def start_reverify(self) -> bool:
        """Go straight to re-verifying the installed kernels (``--reverify``, the shortcut).
        False when nothing is installed yet: the Welcome page stays and says so."""
        welcome = self.page_of(FlowStep.WELCOME)
        choice = getattr(welcome, "reverify_choice", None)
        if choice is None or not choice.isEnabled():
            return False
        choice.setChecked(True)
        self.next()
        return True


def run_gui(resume: bool = False, reverify: bool = False) -> int:
    """``resume``: started with ``--resume`` after a restart a fix asked for: detect again and
    go on to the page the saved state names (see :mod:`app.resume`). ``reverify``: started
    from the "Re-verify GPU kernels" shortcut: go straight to the re-verification."""
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setApplicationName(TITLE)
    install_translator(app)  # the system's language (KSW_LANG overrides), when shipped
    app.setApplicationVersion(__version__)
    app.setAttribute(Qt.ApplicationAttribute.AA_DontShowIconsInMenus, False)
    from kernel_wizard.base.errors import ExitCode

    from .error_dialog import check_data_folder, error_box, install_excepthook

    problem = check_data_folder()
    if problem is not None:  # nothing can be built without it: say why, and how to fix it
        print(problem.describe(), file=sys.stderr)
        error_box(None, problem).exec()
        return int(ExitCode.STORAGE)
    wizard = InstallerWizard()
    install_excepthook(wizard)
    app.setWindowIcon(wizard.windowIcon())
    screen = QGuiApplication.primaryScreen()
    if screen is not None:
        wizard.resize(initial_size(screen.availableGeometry().size()))

    def after_show() -> None:
        if resume:
            from .resume import resume as resume_saved

            resume_saved(wizard)
        elif reverify:
            wizard.start_reverify()

    return run_wizard(app, wizard, after_show)


def run_wizard(app: QApplication, wizard: InstallerWizard,
               after_show: Callable[[], None] | None = None) -> int:
    """Show ``wizard`` and run the event loop with the program's lifetime installed
    (:mod:`kernel_wizard.machine.lifetime`): SIGTERM, SIGHUP or Ctrl-C stop every child's process
    tree and quit with 128 + the signal; children die with the wizard even if it is killed
    outright (Linux: PR_SET_PDEATHSIG and the watchdog; Windows: the Job Object)."""
    from kernel_wizard.machine.lifetime import Interruption, guard

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
