"""The self-test's walk of the wizard (``python -m app --self-test``): it shows each page from
Welcome on and stops before the first page that starts long work, so that checking an
installation never builds, verifies or installs anything."""

from __future__ import annotations

import io

import pytest
from PySide6.QtWidgets import QApplication

from app import selftest
from app.pages.kernel import KernelPage
from app.pages.prereqs import PrereqsPage


def test_the_walk_stops_before_the_build_page(qapp: QApplication,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """prerequisites met, a kernel chosen → the walk shows Kernel, stops before Build, and no
    service that plans, builds, verifies or installs ran"""
    # what a person does on these two pages (fix what is missing, pick a kernel) is taken as
    # done: the walk goes as far as a complete machine lets it
    monkeypatch.setattr(PrereqsPage, "isComplete", lambda self: True)
    monkeypatch.setattr(KernelPage, "isComplete", lambda self: True)
    report = selftest.Report(out=io.StringIO(), marks=("ok", "FAIL"))
    selftest._gui(report)
    assert report.failed == 0, report.lines
    assert "ok Page KERNEL" in "\n".join(report.lines)
    assert "ok Walk stopped: before BUILD: it starts long work" in report.lines
    assert "ok No build started: no plan, build, verification or install ran" in report.lines

