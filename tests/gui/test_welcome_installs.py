"""The Welcome page offers to check the installed kernels again from the install records as they
are on disk: one of the first wizard versions (no kernel id, only the distribution's name) names
its kernel by that name; without records the choice is off and says why."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from app.pages.welcome import WelcomePage
from app.wizard import InstallerWizard
from kernel_wizard.flow.session import SessionServices
from kernel_wizard.install.records import installs_file
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

TESTS = Path(__file__).resolve().parents[1]
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"


def welcome(qtbot: Any) -> tuple[InstallerWizard, WelcomePage]:
    def h100() -> HardwareReport:
        return detect(lambda: ReplayNvmlApi(json.loads(H100.read_text(encoding="utf-8"))))

    wizard = InstallerWizard(SessionServices(detect=h100, discover=lambda: []))
    qtbot.addWidget(wizard)
    wizard.show()
    page = wizard.currentPage()
    assert isinstance(page, WelcomePage)
    return wizard, page  # the wizard is kept alive by the caller


def test_records_of_the_first_writer_are_offered_by_their_distribution(qtbot: Any) -> None:
    installs_file().parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(TESTS / "data" / "installs" / "first-writer.json", installs_file())
    _wizard, page = welcome(qtbot)
    assert page.reverify_choice.isEnabled()
    assert page.reverify_choice.toolTip() == (
        "Checks flash-attn, ksw-probe-kernel again and names anything that changed since the "
        "last passing check.")


def test_without_records_there_is_nothing_to_check_again(qtbot: Any) -> None:
    _wizard, page = welcome(qtbot)
    assert not page.reverify_choice.isEnabled() and page.install_choice.isChecked()
    assert page.reverify_choice.toolTip().startswith("Nothing has been installed by this wizard")
