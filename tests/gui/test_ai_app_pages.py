"""The AI programs on the pages (issue 22): the Hardware page proposes the one program found,
says what the search could not look at, and adds a program from a folder the user chooses (its
Python found by the program's own layout); the Done page says how that program is told to use
the kernel, with a link to the program's documentation, and changes nothing in it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog
from test_verify_page import install, walk_to_verify, wizard_for
from test_wizard_shell import open_hardware_page

from kernel_wizard.base.messages import msg
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.machine.environment import Candidate, Candidates, inspect_python
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

TESTS = Path(__file__).resolve().parents[1]
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"


def h100() -> Any:
    import json

    recording = json.loads(H100.read_text(encoding="utf-8"))
    return detect(lambda: ReplayNvmlApi(recording))


def comfyui(folder: Path) -> Path:
    """ComfyUI's own files (comfyanonymous/ComfyUI: main.py, nodes.py, comfy/, comfy_extras/)."""
    (folder / "comfy").mkdir(parents=True, exist_ok=True)
    (folder / "comfy_extras").mkdir(exist_ok=True)
    for name in ("main.py", "nodes.py"):
        (folder / name).write_text("", encoding="utf-8")
    return folder


def test_the_one_program_is_proposed_and_a_limit_is_said(qtbot: Any, torch_venv: Path) -> None:
    found = Candidates([Candidate(torch_venv, "ComfyUI (portable) in D:\\ComfyUI_windows_portable",
                                  "ComfyUI (portable)", "comfyui"),
                        Candidate(torch_venv.with_name("python3"), "the Python running this "
                                  "wizard")])
    found.limits = (msg("The search for AI programs stopped early and did not look in {left} "
                        "folders (for example {example}); if a program is in one of them, add "
                        "its folder yourself.", left=12, example="/home/zoe/big/x"),)
    services = SessionServices(detect=h100, discover=lambda: found, inspect=inspect_python)
    _, page = open_hardware_page(qtbot, services)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    assert page.env_combo.currentIndex() == 0
    assert page.env_combo.currentText() == f"ComfyUI (portable) — {torch_venv}"
    assert page.apps_label.text().startswith("Found the Python of ComfyUI (portable) and "
                                             "selected it")
    assert "Nothing is installed until you confirm it at the end" in page.apps_label.text()
    assert page.limits_label.isVisible()
    assert page.limits_label.text() == (
        "The search for AI programs stopped early and did not look in 12 folders (for example "
        "/home/zoe/big/x); if a program is in one of them, add its folder yourself.")
    page.grab().save("/tmp/ksw-hardware-proposed.png")
    page.grab().save("/tmp/ksw-limit.png")


def banner_text(banner: Any) -> str:
    from PySide6.QtWidgets import QLabel

    return " ".join(label.text() for label in banner.findChildren(QLabel))


def test_add_a_folder_finds_the_programs_python(qtbot: Any, tmp_path: Path, torch_venv: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    comfy = comfyui(tmp_path / "Stuff" / "my comfy")
    (comfy / "venv").symlink_to(torch_venv.parent.parent, target_is_directory=True)
    services = SessionServices(detect=h100, discover=lambda: [Candidate(torch_venv, "test env")],
                               inspect=inspect_python)
    _, page = open_hardware_page(qtbot, services)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    assert page.folder_button.text() == "Add a folder…" and page.folder_button.isEnabled()
    chosen: list[str] = []

    def dialog(*args: Any) -> str:
        chosen.append(args[1])
        return str(comfy)

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", dialog)
    page.folder_button.click()  # the real button, the dialog answered as a user would
    assert chosen == ["Choose the folder of an AI program"]
    # looked up off the GUI thread, the page busy meanwhile (a big folder, a network drive)
    assert page.is_busy() or page.env_combo.currentText().startswith("ComfyUI")
    qtbot.waitUntil(lambda: page.env_combo.currentText().startswith("ComfyUI"), timeout=60_000)
    python = comfy / "venv" / "bin" / "python"
    assert page.env_combo.currentText() == f"ComfyUI — {python}"
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    env = page.session.environment
    assert env is not None and env.executable == python
    page.grab().save("/tmp/ksw-hardware-added-folder.png")
    # a folder without a program: said so, nothing added
    count = page.env_combo.count()
    (tmp_path / "empty").mkdir()
    assert page.add_folder(tmp_path / "empty") is True  # the lookup started
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=60_000)
    assert page.env_combo.count() == count
    assert f"No Python of an AI program was found in {tmp_path / 'empty'}." in \
        banner_text(page.env_banner)


def test_done_says_how_comfyui_is_told_to_use_it(
    qtbot: Any, tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any
) -> None:
    """The whole flow into a ComfyUI's Python: the Done page names ComfyUI, links its
    documentation and says nothing in ComfyUI was changed; nothing in ComfyUI's folder is."""
    comfy = comfyui(tmp_path)  # the scratch env (tmp_path/"scratch env") is this ComfyUI's
    before = sorted({p.name for p in comfy.iterdir()} - {"ksw-data"})
    wizard = wizard_for(qtbot, tmp_path, scratch_torch_env, kernel_wheel("correct"))
    page = walk_to_verify(qtbot, wizard)
    install(qtbot, page)
    wizard.next()
    done: Any = wizard.page_of(FlowStep.DONE)
    assert done.used_box.isVisibleTo(wizard)
    assert done.used_box.title() == "Is it actually used?"
    text = done.used.text()
    # the probe kernel is nothing ComfyUI has an option for: said so
    assert "<b>ComfyUI</b>: ComfyUI has no start option for this kernel" in text
    assert '<a href="https://github.com/comfyanonymous/ComfyUI/blob/master/comfy/cli_args.py">' \
        in text
    assert "The wizard changed nothing in ComfyUI" in text
    # ComfyUI's own files are as they were (the wizard's data and build are its own folders)
    after = {p.name for p in comfy.iterdir()} - {"ksw-data", "staging", "build.log", "wheels"}
    assert sorted(after) == before
    assert all((comfy / n).read_text(encoding="utf-8") == "" for n in ("main.py", "nodes.py"))
    assert not any((comfy / "comfy").iterdir())

    # SageAttention in the same ComfyUI: the launch flag and how to see it is used
    wizard.session.candidates = [Candidate(scratch_torch_env, f"ComfyUI in {comfy}", "ComfyUI",
                                           "comfyui")]
    done.show_use_hint(done.use_hint(scratch_torch_env, "sageattention"))
    text = done.used.text()
    assert "ComfyUI uses SageAttention only when it is started with --use-sage-attention" in text
    assert "run_nvidia_gpu.bat" in text and "Using sage attention" in text
    done.resize(1200, 900)
    done.grab().save("/tmp/ksw-done-comfyui-hint.png")


def test_done_shows_no_hint_for_a_python_of_no_program(qtbot: Any, tmp_path: Path) -> None:
    from app.wizard import InstallerWizard

    wizard = InstallerWizard(SessionServices(detect=h100, discover=lambda: []))
    qtbot.addWidget(wizard)
    done: Any = wizard.page_of(FlowStep.DONE)
    python = Path(shutil.which("python3") or os.sys.executable)  # type: ignore[attr-defined]
    assert done.use_hint(python, "flash_attn") is None
    done.show_use_hint(None)
    assert not done.used_box.isVisibleTo(wizard)


def test_add_a_folder_keeps_the_page_busy_while_it_looks(
        qtbot: Any, torch_venv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow lookup (a network drive) runs off the GUI thread: the page is busy, Next and the
    folder buttons wait, and the window keeps answering; the result arrives afterwards."""
    import threading

    from app.pages import hardware

    comfy = comfyui(tmp_path / "slow" / "ComfyUI")
    (comfy / "venv").symlink_to(torch_venv.parent.parent, target_is_directory=True)
    services = SessionServices(detect=h100, discover=lambda: [Candidate(torch_venv, "test env")],
                               inspect=inspect_python)
    _, page = open_hardware_page(qtbot, services)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    release = threading.Event()
    real = hardware.environments_in_folder

    def slow(folder: Path, plat: Any) -> Any:
        assert threading.current_thread() is not threading.main_thread()
        release.wait(30)
        return real(folder, plat)

    monkeypatch.setattr(hardware, "environments_in_folder", slow)
    assert page.add_folder(comfy) is True
    assert page.is_busy() and not page.isComplete()
    assert not page.folder_button.isEnabled() and not page.browse_button.isEnabled()
    assert page.busy_label.text() == f"Looking for an AI program's Python in {comfy}…"
    assert page.add_folder(comfy) is False  # one lookup at a time
    qtbot.wait(50)  # the event loop runs while the lookup waits
    release.set()
    qtbot.waitUntil(lambda: page.env_combo.currentText().startswith("ComfyUI"), timeout=60_000)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    assert page.folder_button.isEnabled()
