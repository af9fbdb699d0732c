"""The whole wizard, offscreen, through real clicks, at three window sizes.

The happy path of the recorded H100 (NVML replayed), the prerequisites of a recorded healthy
Linux machine, a scratch venv that sees the CPU PyTorch of the test cache, the stand-in builder
copying a correct probe wheel, and the real verification harness and install. On every page,
at the size a 1366×768 laptop at 125 % gives the window (1093×614 logical pixels less taskbar
and title bar), at the default size, at 1600×1000 and maximized on a 1920×1080 screen:

* every primary control is shown, or can be scrolled into view;
* nothing is cut off: no widget outside the window unless it sits in a scroll area, no label or
  button smaller than its text;
* large windows use the room (the Verify table shows every check without scrolling);

and the navigation rules: Cancel asks only where work would be lost, verifying installs nothing,
installing is the person's own step ("Install into <python>") and the commit point (no Back into
a second install), Done shows Finish only.

Screenshots of every page at every size go to ``KSW_SCREENSHOTS`` (default: a temporary
folder); ``scripts/screenshots.py`` copies the README's ones into docs/screenshots.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from gui_support import Dialogs, layout_problems, unreachable
from ksw_testsupport import build_this_plan, installed
from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtWidgets import QWidget, QWizard
from test_prereqs_page import linux

from app.wizard import DEFAULT_SIZE, InstallerWizard, initial_size
from kernel_wizard.base.parallelism import choose_parallelism
from kernel_wizard.build.plan import BuildPlan, make_plan
from kernel_wizard.build.run import run_build
from kernel_wizard.flow.session import FlowStep, Session, SessionServices
from kernel_wizard.install.installer import load_installs
from kernel_wizard.machine.environment import Candidate
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

TESTS = Path(__file__).resolve().parents[1]
STANDIN = TESTS / "data" / "standins" / "fake_build.py"
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"

# 1366×768 at 125 %: 1093×614 logical pixels, less a 38 px taskbar, as the wizard sizes itself
LAPTOP = initial_size(QSize(1093, 614 - 38))
# a maximized window on a 1920×1080 screen at 100 % (less a 40 px taskbar and the title bar)
FULL_HD = QSize(1920, 1080 - 40 - 23)
SIZES = {"laptop": LAPTOP, "default": DEFAULT_SIZE, "large": QSize(1600, 1000),
         "fullhd": FULL_HD}
Buttons = QWizard.WizardButton


def screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("KSW_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def make_wizard(qtbot: Any, tmp_path: Path, python: Path, wheel: Path) -> InstallerWizard:
    recording = json.loads(H100.read_text(encoding="utf-8"))

    def plan(state: Session) -> BuildPlan:
        out = tmp_path / "staging"
        made = make_plan(kernel="probe", version="0.1.0", source_dir=tmp_path,
                         python=Path(sys.executable), python_scripts=None, output_dir=out,
                         log_path=tmp_path / "build.log",
                         parallelism=choose_parallelism(4, 16 * 2**30, 5.0, 4))
        return replace(made, command=(sys.executable, str(STANDIN), str(out), "copy", str(wheel)))

    wizard = InstallerWizard(SessionServices(
        detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
        discover=lambda: [Candidate(python, "active virtual environment")],  # as found
        gather_facts=lambda **_kw: linux(),  # a recorded healthy Linux machine's facts
        build=build_this_plan(plan, run_build),
    ))
    qtbot.addWidget(wizard)
    wizard.show()
    return wizard


def click(qtbot: Any, button: QWidget) -> None:
    assert button.isVisible() and button.isEnabled(), button
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def shown_buttons(wizard: InstallerWizard) -> set[str]:
    names = {Buttons.BackButton: "Back", Buttons.NextButton: "Next",
             Buttons.FinishButton: "Finish", Buttons.CancelButton: "Cancel"}
    return {name for button, name in names.items() if wizard.button(button).isVisible()}


def at_every_size(wizard: InstallerWizard, name: str, controls: list[QWidget],
                  shots: Path) -> dict[str, list[str]]:
    """Check the current page at each size and save its screenshots; the problems found."""
    page = wizard.currentPage()
    found: dict[str, list[str]] = {}
    for size_name, size in SIZES.items():
        wizard.resize(size)
        for _ in range(3):
            QCoreApplication.processEvents()
        assert wizard.size() == size, f"{name}: the window cannot be {size}"
        problems = layout_problems(wizard, page)
        wanted = (Buttons.NextButton, Buttons.FinishButton, Buttons.CancelButton)
        buttons = [wizard.button(b) for b in wanted if wizard.button(b).isVisible()]
        problems += unreachable(wizard, [*controls, *buttons])
        if problems:
            found[size_name] = problems
        page_area = getattr(page, "scroll_area", None)
        if page_area is not None:  # the screenshot shows the top of the page
            page_area.verticalScrollBar().setValue(0)
        QCoreApplication.processEvents()
        wizard.grab().save(str(shots / f"{name}-{size_name}.png"))
    wizard.resize(DEFAULT_SIZE)
    QCoreApplication.processEvents()
    return found


def test_walk_through_every_page_at_three_sizes(
    qtbot: Any, tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any
) -> None:
    shots = screenshots(tmp_path)
    problems: dict[str, dict[str, list[str]]] = {}
    dialogs = Dialogs(lambda seen: seen.buttons[-1])  # the safe answer (e.g. "Keep … open")
    wizard = make_wizard(qtbot, tmp_path, scratch_torch_env, kernel_wheel("correct"))
    assert LAPTOP.height() <= 614 - 38 - 30 and LAPTOP.width() <= 1093  # fits with its frame
    assert wizard.minimumSize().height() <= LAPTOP.height()
    next_button, back = wizard.button(Buttons.NextButton), wizard.button(Buttons.BackButton)

    # Welcome
    welcome = wizard.currentPage()
    assert shown_buttons(wizard) == {"Next", "Cancel"}
    assert not wizard.windowIcon().isNull()  # the icon in the window
    assert wizard.steps.current_name() == "Welcome"
    problems["welcome"] = at_every_size(
        wizard, "welcome", [welcome.install_choice, welcome.reverify_choice], shots)  # type: ignore[attr-defined]
    click(qtbot, next_button)

    # Hardware
    hardware = wizard.page_of(FlowStep.HARDWARE)
    qtbot.waitUntil(hardware.isComplete, timeout=120_000)
    assert wizard.steps.current_name() == "Hardware"
    assert wizard.steps.states[int(FlowStep.WELCOME)] == "done"
    problems["hardware"] = at_every_size(wizard, "hardware", [
        hardware.gpu_table, hardware.env_combo, hardware.browse_button], shots)  # type: ignore[attr-defined]
    click(qtbot, next_button)

    # Prerequisites
    prereqs = wizard.page_of(FlowStep.PREREQS)
    qtbot.waitUntil(lambda: prereqs.session.facts is not None and not prereqs.is_busy(),  # type: ignore[attr-defined]
                    timeout=60_000)
    rows = list(prereqs.rows.values())  # type: ignore[attr-defined]
    assert len(rows) == 7  # with Triton's (SageAttention)
    problems["prereqs"] = at_every_size(wizard, "prereqs", [
        prereqs.check_all_button, *(row.details_toggle for row in rows)], shots)  # type: ignore[attr-defined]
    click(qtbot, next_button)

    # Kernel
    kernel = wizard.page_of(FlowStep.KERNEL)
    qtbot.waitUntil(kernel.isComplete, timeout=60_000)
    assert kernel.current_recipe().id == "probe"  # type: ignore[attr-defined]
    problems["kernel"] = at_every_size(wizard, "kernel", [
        kernel.tree, kernel.build_choice, kernel.details], shots)  # type: ignore[attr-defined]
    click(qtbot, next_button)

    # Build (the stand-in builder makes the wheel)
    build = wizard.page_of(FlowStep.BUILD)
    qtbot.waitUntil(build.isComplete, timeout=60_000)
    assert not build.diagnosis.isVisible()  # type: ignore[attr-defined]  # empty: no box
    assert "files at a time" in build.banner.hint.text() or build.banner.tone.name == "OK"  # type: ignore[attr-defined]
    problems["build"] = at_every_size(wizard, "build", [
        build.log.text, build.plan_toggle, build.log.search], shots)  # type: ignore[attr-defined]
    # built but not installed: Cancel asks before the build is thrown away; "Keep" keeps it
    click(qtbot, wizard.button(Buttons.CancelButton))
    qtbot.waitUntil(lambda: bool(dialogs.shown), timeout=5_000)
    asked = dialogs.shown[-1]
    assert asked.title == "Quit without installing?"
    assert asked.buttons[-1] == "Keep the wizard open" and "Quit" in asked.buttons
    assert "not installed yet" in asked.text
    qtbot.wait(50)
    assert wizard.isVisible()
    click(qtbot, next_button)

    # Verify: the real harness; nothing installed until "Install into …"
    verify = wizard.page_of(FlowStep.VERIFY)
    qtbot.waitUntil(lambda: verify.task is None  # type: ignore[attr-defined]
                    and verify.session.current_verification() is not None,  # type: ignore[attr-defined]
                    timeout=120_000)
    assert verify.verdict.text() == "✔ PASS — the kernel works."  # type: ignore[attr-defined]
    assert verify.explanation.text().startswith("The kernel computes the same results as "  # type: ignore[attr-defined]
                                                "PyTorch in all 8 checks. It is not installed")
    assert verify.results.table.item(0, 0).text().startswith("float64 · ")  # type: ignore[attr-defined]
    assert verify.results.speed.text().startswith("Speed was not measured")  # type: ignore[attr-defined]
    assert load_installs() == []
    assert back.isEnabled() and not next_button.isEnabled()  # the choice comes first
    assert verify.install_panel.install_button.text().startswith("Install into /")  # type: ignore[attr-defined]
    assert verify.install_panel.install_button.toolTip() == str(scratch_torch_env)  # type: ignore[attr-defined]
    problems["verify-pass"] = at_every_size(wizard, "verify-pass", [
        verify.install_panel.install_button, verify.install_panel.skip_install,  # type: ignore[attr-defined]
        verify.install_panel.install_note, verify.results.table,  # type: ignore[attr-defined]
        verify.results.usage, verify.results.copy_usage,  # type: ignore[attr-defined]
        verify.bundle_button, verify.report_button], shots)  # type: ignore[attr-defined]
    click(qtbot, verify.install_panel.install_button)  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: verify.task is None and installed(verify) is not None,  # type: ignore[attr-defined]
                    timeout=60_000)
    assert verify.verdict.text() == "✔ PASS — the kernel works, and it is installed."  # type: ignore[attr-defined]
    assert len(load_installs()) == 1
    assert not back.isEnabled()  # installed: the commit point, no way back into a re-install
    assert next_button.isEnabled()
    problems["verify"] = at_every_size(wizard, "verify", [
        verify.results.table, verify.results.usage, verify.results.copy_usage, verify.bundle_button,  # type: ignore[attr-defined]
        verify.report_button, verify.rollback_button], shots)  # type: ignore[attr-defined]
    wizard.resize(SIZES["large"])
    QCoreApplication.processEvents()
    table = verify.results.table  # type: ignore[attr-defined]
    assert table.verticalScrollBar().maximum() == 0  # the large window shows every check
    wizard.resize(DEFAULT_SIZE)
    click(qtbot, next_button)

    # Done: Finish only
    done = wizard.page_of(FlowStep.DONE)
    assert wizard.currentId() == FlowStep.DONE
    assert shown_buttons(wizard) == {"Finish"}
    summary = done.summary.text()  # type: ignore[attr-defined]
    assert "Installed Probe kernel 0.1.0" in summary and "ksw-probe-kernel 0.1.0" in summary
    assert done.report_button.isVisible() and done.folder_button.isVisible()  # type: ignore[attr-defined]
    assert "choose “Check the installed kernels again”" in done.later_text.text()  # type: ignore[attr-defined]
    problems["done"] = at_every_size(wizard, "done", [
        done.report_button, done.folder_button, done.files_toggle, done.shortcut_button],  # type: ignore[attr-defined]
        shots)
    assert {k: v for k, v in problems.items() if v} == {}
    asked_before = len(dialogs.shown)
    click(qtbot, wizard.button(Buttons.FinishButton))
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=5_000)
    assert wizard.result() == QWizard.DialogCode.Accepted
    assert len(dialogs.shown) == asked_before  # Finish asks nothing
    assert len(load_installs()) == 1  # installed once: no second install, no second backup
    dialogs.stop()


def test_cancel_on_an_idle_page_quits_without_asking(qtbot: Any, tmp_path: Path) -> None:
    dialogs = Dialogs(lambda seen: seen.buttons[0])
    wizard = InstallerWizard(SessionServices(detect=lambda: detect(lambda: ReplayNvmlApi(
        json.loads(H100.read_text(encoding="utf-8")))), discover=lambda: []))
    qtbot.addWidget(wizard)
    wizard.show()
    click(qtbot, wizard.button(Buttons.CancelButton))
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=5_000)
    qtbot.wait(100)
    assert dialogs.shown == []  # nothing to lose, nothing asked
    dialogs.stop()
