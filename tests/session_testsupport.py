"""Helpers that set a :class:`~kernel_wizard.flow.session.Session`'s state directly, for tests
that need a state no front end reaches in one step (the front ends choose through
:meth:`Session.choose`, which decides the version, the fit, the source and the wheel)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kernel_wizard.catalog.wheels import WheelCandidate
    from kernel_wizard.flow.pipeline import KernelChoice
    from kernel_wizard.flow.session import Session


def set_kernel_choice(session: Session, choice: KernelChoice | None,
                      prebuilt: WheelCandidate | None = None) -> None:
    """Set the session's kernel choice as it is (None: the probe), deciding nothing."""
    session.kernel_choice = choice
    session.prebuilt = prebuilt
