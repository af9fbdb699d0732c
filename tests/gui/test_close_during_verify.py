"""Closing the wizard while a verification runs: it asks, and "Yes" stops the verification's
whole process tree before the window closes (a real child tree; the harness is stood in for by
a process that never ends, started through the one process runner as the harness is)."""

from __future__ import annotations

import json
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import psutil
import pytest
from PySide6.QtWidgets import QMessageBox

from app.wizard import InstallerWizard
from kernel_wizard.base.processes import stream
from kernel_wizard.build.run import BuildOutcome, BuildStatus
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

H100 = Path(__file__).resolve().parents[1] / "data" / "nvml" / "h100-driver580.json"
LOOP = "import time\nwhile True: time.sleep(0.2)"


def running(word: str) -> list[psutil.Process]:
    return [p for p in psutil.process_iter(["cmdline"])
            if any(word in part for part in p.info["cmdline"] or [])]


def test_closing_during_a_verification_asks_then_stops_its_process_tree(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        request: pytest.FixtureRequest) -> None:
    word = f"ksw-verify-{uuid.uuid4().hex[:10]}"
    stopped = threading.Event()

    def kill_leftovers() -> None:  # a failing test must not leave its processes behind
        for proc in running(word):
            proc.kill()

    request.addfinalizer(kill_leftovers)

    def verify(python: Path, wheel: Path, *, cancel: threading.Event | None = None,
               **options: Any) -> Any:
        grandchild = f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', " \
                     f"{LOOP!r}, {word!r}], start_new_session=True)\n{LOOP}"
        try:
            stream([sys.executable, "-c", grandchild, word], lambda lines: None, cancel=cancel)
        finally:
            stopped.set()

    wheel = tmp_path / "ksw_probe_kernel-0.1.0-py3-none-any.whl"
    outcome = BuildOutcome(BuildStatus.SUCCEEDED, "Built.", "", None, wheel,
                           tmp_path / "build.log", 1.0, 1, 0, None)
    recording = json.loads(H100.read_text(encoding="utf-8"))
    wizard = InstallerWizard(SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        build=lambda session, sink, cancel: outcome,
        verify_then_install=verify,
        run_checks=lambda _facts: []))
    qtbot.addWidget(wizard)
    session = wizard.session
    session.detect()
    session.choose_environment(session.inspect(Path(sys.executable)))
    session.build()
    wizard.setStartId(int(FlowStep.VERIFY))
    wizard.show()
    qtbot.waitUntil(lambda: len(running(word)) == 2, timeout=30_000)  # child + grandchild

    asked: list[str] = []

    def answer(button: QMessageBox.StandardButton) -> Any:
        def ask(parent: Any, title: str, text: str, *args: Any) -> QMessageBox.StandardButton:
            asked.append(title)
            return button
        return ask

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    wizard.reject()
    time.sleep(0.3)
    assert asked and wizard.isVisible() and len(running(word)) == 2  # "No": it goes on

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    wizard.reject()
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=15_000)
    assert stopped.is_set() and running(word) == []
