"""What every page shares: typed access to the wizard and the session, the Back lock, and the
background work it runs (so the wizard can ask any page whether it may close, and wait for it).

Pages read and change the :class:`~kernel_wizard.flow.session.Session`; they never call each other.
The wizard maps the session's state to pages; a page's Next is the session's gate
(:meth:`SessionPage.flow_allows`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget, QWizard, QWizardPage

from kernel_wizard.flow.session import FlowStep, Session

from ..workers import BackgroundTask
from .navigation import lock_back


class SessionPage(QWizardPage):
    """A wizard page of the flow."""

    # -- typed access ---------------------------------------------------------------------

    def installer(self) -> QWizard:
        """The wizard this page is in (pages know it only as a QWizard: they never import
        the window, see the import-linter contracts)."""
        wizard = self.wizard()
        assert wizard is not None, "the page is not in a wizard yet"
        return wizard

    @property
    def session(self) -> Session:
        """The wizard's flow object (every page reads and changes this one session)."""
        session = getattr(self.installer(), "session", None)
        assert isinstance(session, Session), "the wizard holds no session"
        return session

    # -- layout ---------------------------------------------------------------------------

    def scrolled(self) -> QVBoxLayout:
        """The page's content layout, inside a scroll area: a small window (a 1366×768 laptop
        at 125 %) scrolls instead of squeezing or clipping the widgets, a large one gives the
        stretching widgets (tables, logs) the room."""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = QWidget()
        content.setObjectName("page-content")
        self.scroll_area.setWidget(content)
        outer.addWidget(self.scroll_area)
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 4, 0)
        return layout

    # -- busy state and background work ----------------------------------------------------

    def background_tasks(self) -> list[BackgroundTask]:
        """Every :class:`BackgroundTask` this page started (they are its Qt children)."""
        return self.findChildren(BackgroundTask)

    def background_busy(self) -> bool:
        return any(t.is_running() for t in self.background_tasks())

    def is_busy(self) -> bool:
        """Whether the page runs work that the wizard must not cut off."""
        return self.background_busy()

    def flow_allows(self, step: FlowStep) -> bool:
        """What every page's ``isComplete`` is: nothing runs on the page and the session lets
        the flow enter ``step`` (:meth:`Session.blocker` knows every reason it cannot: the
        prerequisites, the build, the verification and the install question). A page keeps
        widget state only; what the flow has learned is the session's."""
        if self.is_busy() or self.wizard() is None:
            return False
        return self.session.blocker(step) is None

    def lock_back(self, locked: bool) -> None:
        """No way back while the page's long work runs (see :func:`.navigation.lock_back`)."""
        lock_back(self, locked)

    # -- closing -------------------------------------------------------------------------

    def prepare_close(self, close: Callable[[], None]) -> bool:
        """The wizard is being closed. True: nothing of this page is running, close now.
        False: the page has arranged for ``close`` to be called once its work has ended (after
        asking, where stopping loses work), or the person chose to keep the wizard open."""
        return True

    def stop_work(self) -> None:
        """The program was told to stop (a signal): stop what can be stopped, without asking
        (the runner already stops every child; a page cancels its own jobs). An install is
        let finish. Default: nothing of its own to stop."""

    def finish_background(self) -> None:
        """The window is closing: let running calls end and stop their threads."""
        for task in self.background_tasks():
            if task.is_running():
                task.finish()
