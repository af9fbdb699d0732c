"""The Hardware page names the AI programs whose Python it found (and asks which one), and says
how the GPUs are connected (recorded NVML answers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_wizard_shell import open_hardware_page

from kernel_wizard.flow.session import SessionServices
from kernel_wizard.machine.environment import Candidate, inspect_python
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

NVML = Path(__file__).resolve().parents[1] / "data" / "nvml"


def replay(name: str) -> Any:
    recording = json.loads((NVML / name).read_text(encoding="utf-8"))
    return lambda: detect(lambda: ReplayNvmlApi(recording))


def test_app_environments_are_named_and_the_user_is_asked(qtbot: Any, torch_venv: Path) -> None:
    candidates = [
        Candidate(torch_venv, "ComfyUI (portable) in D:\\ComfyUI_windows_portable",
                  "ComfyUI (portable)"),
        Candidate(torch_venv.with_name("python3"), "Forge in C:\\forge",
                  "Stable Diffusion WebUI Forge"),
    ]
    services = SessionServices(detect=replay("constructed-8x-h100-nvlink.json"),
                        discover=lambda: candidates, inspect=inspect_python)
    _, page = open_hardware_page(qtbot, services)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    assert page.env_combo.itemText(0) == f"ComfyUI (portable) — {torch_venv}"
    assert page.apps_label.isVisible()
    text = page.apps_label.text()
    assert "ComfyUI (portable), Stable Diffusion WebUI Forge" in text
    assert "Choose the program" in text
    assert page.links_label.text() == (
        "GPU links: GPUs 0–7 are all connected with NVLink (18 links each).")


def test_pcie_only_gpus_are_said_to_be_so(qtbot: Any, torch_venv: Path) -> None:
    services = SessionServices(detect=replay("constructed-2x-h100-pcie.json"),
                        discover=lambda: [Candidate(torch_venv, "test venv")],
                        inspect=inspect_python)
    _, page = open_hardware_page(qtbot, services)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    assert "no NVLink between 0↔1" in page.links_label.text()
    assert not page.apps_label.isVisible()
