"""The Kernel page, offscreen: the catalog against this machine and a recorded H100.

This machine has no NVIDIA GPU and the test venv a CPU build of torch: only the probe kernel
fits. The recorded H100 (tests/data/nvml/h100-driver580.json through ReplayNvmlApi), with a
PythonEnv of a CUDA 13.0 torch and a CUDA 13.0 toolkit, is where the real libraries fit.
"""

from __future__ import annotations

import json
import shutil
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from gui_support import is_greyed
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWizard
from test_prereqs_page import linux

from app.pages.kernel import GREY, KernelPage
from app.widgets.banner import Tone
from app.wizard import InstallerWizard
from kernel_wizard.base.errors import WizardError
from kernel_wizard.base.resources import resource_path
from kernel_wizard.build.plan import BuildRequest, plan_build
from kernel_wizard.catalog import load_catalog
from kernel_wizard.flow.pipeline import SourceMode
from kernel_wizard.flow.recommend import minutes_text
from kernel_wizard.flow.session import FlowStep, Session, SessionServices
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo, inspect_python
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.machine.toolchain import parse_nvcc_version
from kernel_wizard.machine.toolkits import CudaToolkit

TESTS = Path(__file__).resolve().parents[1]
H100 = TESTS / "data" / "nvml" / "h100-driver580.json"
NVCC_13 = TESTS / "data" / "nvcc" / "nvcc-13.0-linux.txt"


# -- nothing modal may wait offscreen -------------------------------------------------------


@dataclass
class Dialogs:
    """What the page asked the user through dialogs, and what the 'user' answers."""

    folder: str = ""  # what QFileDialog.getExistingDirectory returns ("" = cancelled)
    file: str = ""  # what QFileDialog.getOpenFileName returns
    shown: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, title, text)


@pytest.fixture(autouse=True)
def dialogs(monkeypatch: pytest.MonkeyPatch) -> Dialogs:
    answers = Dialogs()

    def message(kind: str, result: Any) -> Any:
        def show(_parent: Any, title: str, text: str, *_a: Any, **_k: Any) -> Any:
            answers.shown.append((kind, title, text))
            return result
        return show

    monkeypatch.setattr(QMessageBox, "question",
                        message("question", QMessageBox.StandardButton.Yes))
    monkeypatch.setattr(QMessageBox, "warning", message("warning", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "information",
                        message("information", QMessageBox.StandardButton.Ok))

    def folder(*_a: Any, **_k: Any) -> str:
        answers.shown.append(("folder", "", ""))
        return answers.folder

    def open_file(*_a: Any, **_k: Any) -> tuple[str, str]:
        answers.shown.append(("file", "", ""))
        return answers.file, ""

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", folder)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_file)
    return answers


# -- machines -------------------------------------------------------------------------------


def h100() -> HardwareReport:
    recording = json.loads(H100.read_text(encoding="utf-8"))
    return detect(lambda: ReplayNvmlApi(recording))


def cuda_env(tmp_path: Path, torch: str = "2.11.0+cu130", platform: str = "linux_x86_64"
             ) -> PythonEnv:
    """A target Python with a CUDA 13.0 build of torch, as inspect_python reports one."""
    return PythonEnv(
        executable=tmp_path / "env" / "bin" / "python",
        status=EnvStatus.READY,
        summary=f"PyTorch {torch} with CUDA 13.0",
        version="3.12.3",
        bits=64,
        platform_tag=platform,
        interpreter_tag="cp312",
        torch=TorchInfo(torch, "13.0", True, 1, ("sm_90",), True),
        raw={"python": {"scripts": str(tmp_path / "env" / "bin")}},
    )


def cuda_13() -> CudaToolkit:
    version = parse_nvcc_version(NVCC_13.read_text(encoding="utf-8"))
    root = Path("/usr/local/cuda-13.0")
    return CudaToolkit(root, root / "bin" / "nvcc", version, "recorded")


def no_build(state: Session, sink: Any, cancel: Any) -> Any:
    raise WizardError("The tests build nothing.", hint="(a stand-in for the Build page)")


def open_kernel_page(
    qtbot: Any, hardware: HardwareReport, env: PythonEnv, **services: Any
) -> tuple[InstallerWizard, KernelPage]:
    """The wizard opened at the Kernel page with what the Hardware page found."""
    services.setdefault("discover_toolkits", lambda: [cuda_13()])
    wizard = InstallerWizard(SessionServices(build=no_build, **services))
    qtbot.addWidget(wizard)
    wizard.session.hardware = hardware
    wizard.session.environment = env
    # what the Prerequisites step leaves: the facts gathered, no check that rules anything out
    wizard.session.facts = linux(hardware=hardware, env=env)
    wizard.setStartId(int(FlowStep.KERNEL))
    wizard.resize(900, 680)
    wizard.show()
    page = wizard.page_of(FlowStep.KERNEL)
    assert isinstance(page, KernelPage) and wizard.currentId() == FlowStep.KERNEL
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=60_000)
    # the speed check runs beside the page (Next never waits for it): a test that ends at once
    # must not leave its thread running when the window is dropped without closing
    qtbot.waitUntil(lambda: not page.background_busy(), timeout=60_000)
    return wizard, page


def next_enabled(wizard: InstallerWizard) -> bool:
    return bool(wizard.button(QWizard.WizardButton.NextButton).isEnabled())


def select_version(page: KernelPage, recipe_id: str, label: str) -> None:
    """What choosing a version in the kernel's picker does."""
    combo = page.tree.combo(recipe_id)
    row = combo.findData(label)
    assert row >= 0, f"{recipe_id} has no version {label}"
    combo.setCurrentIndex(row)


def go_next(qtbot: Any, wizard: InstallerWizard) -> None:
    wizard.next()
    assert wizard.currentId() == FlowStep.BUILD
    build = wizard.page_of(FlowStep.BUILD)
    qtbot.waitUntil(lambda: build.job is None, timeout=30_000)  # type: ignore[attr-defined]


# -- this machine: no GPU, CPU torch ----------------------------------------------------------


def test_on_this_machine_only_the_probe_fits(qtbot: Any, torch_venv: Path) -> None:
    hardware, env = detect(), inspect_python(torch_venv)
    assert not hardware.usable_gpus and env.torch is not None and env.torch.cuda is None
    wizard, page = open_kernel_page(qtbot, hardware, env)  # the real toolkit search

    assert set(page.tree.kernel_ids()) == {"probe", "flash_attn", "flash_attn_3", "flashmla",
                                           "deepep", "sageattention", "sageattention3"}
    assert page.tree.kernel_ids()[0] == "probe"
    recipe, verdict = page.current_recipe(), page.current_verdict()
    assert recipe is not None and recipe.id == "probe"
    assert verdict is not None and verdict.available and verdict.cpu_only
    assert page.tree.status_text("probe") == "✔ Fits (CPU part only)"
    assert not is_greyed(page.tree, "probe")
    assert page.pick_banner.title.text().endswith("Recommended: Probe kernel 0.1.0</b>")
    assert "no usable NVIDIA GPU" in page.pick_banner.hint.text()
    assert "walk through every step" in page.pick_banner.hint.text()
    assert "GPU: none usable" in page.machine_label.text()
    assert "CPU-only" in page.machine_label.text()
    assert not page.gpu_row.isVisible()
    # bundled: no source to choose; only a build, with its estimate
    assert page.bundled_label.isVisible() and "Bundled with the wizard" in page.bundled_label.text()
    assert not page.download_choice.isEnabled() and not page.local_choice.isEnabled()
    assert not page.prebuilt_choice.isVisible()
    assert page.build_choice.isChecked() and "Build from source (est. " in page.build_choice.text()
    assert "CPU part" in page.details.toPlainText()
    assert next_enabled(wizard)

    for rid in ("flash_attn", "flashmla", "deepep"):
        assert is_greyed(page.tree, rid), rid
        # the cell in a few words, the tooltip with every reason in full
        assert page.tree.status_text(rid).startswith("✖ Needs an NVIDIA GPU"), rid
        assert "No NVIDIA GPU detected" in page.tree.status_tip(rid)
        page.select_kernel(rid)
        details = page.details.toPlainText()
        assert "Does not fit this computer" in details
        assert "No NVIDIA GPU detected" in details  # every reason, not just the first
        assert "CPU-only build" in details
        # no GPU here: no promise of a CUDA build (the Fix would install the CPU build)
        assert "→ A CUDA build of PyTorch is of use only on a computer with an NVIDIA GPU" \
            in details
        assert "prerequisites page" not in details.lower()
        assert not page.isComplete() and not next_enabled(wizard)
        combo = page.tree.combo(rid)
        # a version that does not fit is never called recommended (issue 13, item 5)
        assert combo.currentText().startswith("✖ ") and "(recommended)" not in combo.currentText()
    page.select_kernel("deepep")
    assert "DeepEP needs 2, 4 or 8 GPUs" in page.details.toPlainText()

    page.select_kernel("probe")
    assert next_enabled(wizard)
    go_next(qtbot, wizard)
    choice = wizard.session.kernel_choice
    assert choice is not None and choice.recipe.id == "probe"
    assert choice.source_mode is SourceMode.BUNDLED and choice.local_path is None
    assert choice.gpu_indices is None
    assert wizard.session.prebuilt is None


# -- the recorded H100 with a CUDA 13.0 torch -------------------------------------------------


def test_h100_flashmla_from_a_local_folder_reaches_the_build_plan(
    qtbot: Any, tmp_path: Path, dialogs: Dialogs
) -> None:
    hardware, env = h100(), cuda_env(tmp_path)
    wizard, page = open_kernel_page(qtbot, hardware, env)

    recipe, verdict = page.current_recipe(), page.current_verdict()
    assert recipe is not None and recipe.id == "flash_attn_3"  # the Hopper attention kernel
    assert verdict is not None and verdict.available and verdict.archs == ("9.0",)
    assert "Recommended: FlashAttention 3" in page.pick_banner.title.text()
    assert "most specialised library that fits your NVIDIA H100 80GB HBM3 (Hopper, cc 9.0)" in (
        page.pick_banner.hint.text())
    assert "builds for architecture 9.0" in page.machine_label.text()
    assert "CUDA toolkit 13.0" in page.machine_label.text()
    assert "built for sm_90a" in page.details.toPlainText()
    page.select_kernel("flashmla")
    assert "built for sm90" in page.details.toPlainText()
    assert page.tree.status_text("flash_attn") == "✔ Fits"
    assert page.tree.status_text("probe") == "✔ Fits"

    assert is_greyed(page.tree, "deepep")
    assert page.tree.status_text("deepep").startswith("✖ Needs more GPUs")
    assert ("2, 4 or 8 GPUs connected with NVLink; this machine has 1"
            in page.tree.status_tip("deepep"))
    page.select_kernel("deepep")
    assert "DeepEP needs 2, 4 or 8 GPUs connected with NVLink" in page.details.toPlainText()
    assert "Not checked by the wizard: RDMA network" in page.details.toPlainText()  # warnings
    assert not next_enabled(wizard)

    page.select_kernel("flashmla")
    label = page.tree.combo("flashmla").currentData()
    select_version(page, "flashmla", label)
    assert "(recommended)" in page.tree.combo("flashmla").currentText()
    assert page.download_choice.isChecked() and page.download_choice.isEnabled()
    assert "github.com/deepseek-ai/FlashMLA" in page.path_label.text()
    assert not page.prebuilt_choice.isVisible()  # FlashMLA publishes no wheels
    assert next_enabled(wizard)

    page.local_choice.click()  # Local, but no folder yet: Next waits for one
    assert page.method_box.source_mode is SourceMode.LOCAL
    assert not page.isComplete() and not next_enabled(wizard)
    assert "Choose the folder or archive" in page.path_label.text()
    dialogs.folder = ""
    page.folder_button.click()  # cancelled: nothing changes
    assert not next_enabled(wizard)
    source = tmp_path / "FlashMLA source"
    source.mkdir()
    dialogs.folder = str(source)
    page.folder_button.click()
    assert page.method_box.local_path == source
    assert str(source) in page.path_label.text()
    assert next_enabled(wizard)

    go_next(qtbot, wizard)
    choice = wizard.session.kernel_choice
    assert choice is not None
    assert choice.recipe.id == "flashmla" and choice.version.label == label
    assert choice.source_mode is SourceMode.LOCAL and choice.local_path == source
    assert choice.gpu_indices == (0,)
    assert wizard.session.prebuilt is None

    # the choices reach the build plan: the H100 only, one nvcc thread for its one arch
    request = BuildRequest(choice.recipe, choice.version, env, hardware, source_dir=source,
                           gpu_indices=choice.gpu_indices)
    plan = plan_build(request, toolkits=[], build_root=tmp_path / "build root")
    assert plan.source_dir == source
    assert plan.env_value("FLASH_MLA_DISABLE_SM100") == "1"
    assert plan.env_value("FLASH_MLA_DISABLE_SM90") is None
    assert plan.env_value("NVCC_THREADS") == "1"


def test_a_listed_prebuilt_wheel_is_offered_before_a_build(qtbot: Any, tmp_path: Path) -> None:
    env = cuda_env(tmp_path, torch="2.10.0+cu130")  # in FlashAttention's release matrix
    wizard, page = open_kernel_page(qtbot, h100(), env)
    page.select_kernel("flash_attn")
    assert page.prebuilt_choice.isVisible()
    assert page.prebuilt_choice.text() == "A matching prebuilt wheel exists (about 2 min)"
    assert page.prebuilt_choice.isChecked()  # offered first
    assert "flash_attn-2.8.3.post1+cu13torch2.10cxx11abiTRUE-cp312-cp312-linux_x86_64.whl" in (
        page.prebuilt_choice.toolTip())
    estimate = page.method_box.how.build.seconds if page.method_box.how else 0.0
    assert page.build_choice.text() == f"Build from source (est. {minutes_text(estimate)})"
    assert not page.download_choice.isEnabled()  # a wheel needs no source
    go_next(qtbot, wizard)
    wheel = wizard.session.prebuilt
    assert wheel is not None and wheel.listed and wheel.match.matched
    assert wheel.url.startswith("https://github.com/Dao-AILab/flash-attention/releases/")
    choice = wizard.session.kernel_choice
    assert choice is not None and choice.recipe.id == "flash_attn"


def test_an_unlisted_wheel_is_offered_but_the_build_stays_chosen(
    qtbot: Any, tmp_path: Path
) -> None:
    wizard, page = open_kernel_page(qtbot, h100(), cuda_env(tmp_path))  # torch 2.11: unlisted
    page.select_kernel("flash_attn")
    # the page proposes a version with a published wheel for torch 2.11 (2.8.3, a community
    # build); of 2.8.3.post1 only upstream's computed address is known
    assert page.tree.combo("flash_attn").currentText() == "2.8.3 (recommended)"
    select_version(page, "flash_attn", "2.8.3.post1")
    assert page.prebuilt_choice.text() == "A matching prebuilt wheel may exist (about 2 min)"
    assert "may not exist" in page.wheel_label.text()
    assert page.build_choice.isChecked()
    page.prebuilt_choice.click()  # the user may still try it
    go_next(qtbot, wizard)
    assert wizard.session.prebuilt is not None and not wizard.session.prebuilt.listed


def test_versions_that_lack_the_gpus_arch_are_greyed_with_the_reason(
    qtbot: Any, tmp_path: Path
) -> None:
    report = h100()
    rtx = replace(report.gpus[0], name="NVIDIA GeForce RTX 5090", compute_capability=(12, 0))
    wizard, page = open_kernel_page(qtbot, replace(report, gpus=(rtx,)), cuda_env(tmp_path))
    page.select_kernel("flash_attn")
    combo = page.tree.combo("flash_attn")
    recipe = load_catalog().get("flash_attn")
    assert combo.count() == len(recipe.versions)
    assert combo.itemData(0) == recipe.newest.label  # newest first
    # proposed: the newest version that fits and installs from a published wheel (2.8.3 for
    # torch 2.11), not 2.8.3.post1, which would compile
    assert combo.currentText() == "2.8.3 (recommended)"
    old = combo.findData("2.5.0")
    assert combo.itemText(old).startswith("✖ 2.5.0")
    assert combo.itemData(old, Qt.ItemDataRole.ForegroundRole).color() == GREY
    select_version(page, "flash_attn", "2.5.0")
    assert page.tree.status_text("flash_attn") == "✖ This version lacks code for your GPU"
    assert "FlashAttention 2 2.5.0 builds code only" in page.tree.status_tip("flash_attn")
    assert is_greyed(page.tree, "flash_attn")
    details = page.details.toPlainText()
    assert "cannot run" in details and "→ Choose version" in details
    assert not next_enabled(wizard)
    select_version(page, "flash_attn", recipe.newest.label)
    assert next_enabled(wizard)
    go_next(qtbot, wizard)
    choice = wizard.session.kernel_choice
    assert choice is not None and choice.version.label == recipe.newest.label
    assert choice.source_mode is SourceMode.DOWNLOAD


def test_multi_gpu_selection_narrows_the_archs_and_reassesses(
    qtbot: Any, tmp_path: Path
) -> None:
    report = h100()
    a100 = replace(report.gpus[0], index=1, name="NVIDIA A100-SXM4-80GB",
                   compute_capability=(8, 0), uuid="GPU-a100")
    wizard, page = open_kernel_page(qtbot, replace(report, gpus=(report.gpus[0], a100)),
                                    cuda_env(tmp_path))
    assert page.gpu_row.isVisible()
    assert sorted(page.gpu_checks) == [0, 1]
    assert all(check.isChecked() for check in page.gpu_checks.values())
    assert "architectures 8.0, 9.0 (the union of the selected GPUs)" in page.machine_label.text()
    recipe = page.current_recipe()
    assert recipe is not None and recipe.id == "flash_attn"  # the only library for both
    assert "built for sm_80, sm_90" in page.details.toPlainText()
    assert is_greyed(page.tree, "flashmla")

    page.gpu_checks[1].setChecked(False)  # the H100 alone: the preselection follows the advice
    recipe = page.current_recipe()
    assert recipe is not None and recipe.id == "flash_attn_3"
    assert "Recommended: FlashAttention 3" in page.pick_banner.title.text()
    page.gpu_checks[1].setChecked(True)
    recipe = page.current_recipe()
    assert recipe is not None and recipe.id == "flash_attn"

    page.select_kernel("flashmla")
    assert "GPU 1 (NVIDIA A100-SXM4-80GB) is Ampere (cc 8.0)" in page.details.toPlainText()
    assert "→ Deselect this GPU to build for the others." in page.details.toPlainText()

    page.gpu_checks[1].setChecked(False)  # build for the H100 only
    assert "builds for architecture 9.0" in page.machine_label.text()
    assert not is_greyed(page.tree, "flashmla")
    recipe = page.current_recipe()
    assert recipe is not None and recipe.id == "flashmla"  # the user's selection stays
    assert "built for sm90" in page.details.toPlainText()
    assert next_enabled(wizard)

    page.gpu_checks[0].setChecked(False)  # nothing selected: only the probe's CPU part fits
    assert "No GPU is selected." in page.details.toPlainText()
    assert not next_enabled(wizard)
    assert page.tree.status_text("probe") == "✔ Fits (CPU part only)"
    page.gpu_checks[0].setChecked(True)
    go_next(qtbot, wizard)
    choice = wizard.session.kernel_choice
    assert choice is not None and choice.recipe.id == "flashmla" and choice.gpu_indices == (0,)


def test_on_windows_flashmla_points_to_wsl2(
    qtbot: Any, tmp_path: Path, dialogs: Dialogs
) -> None:
    report = h100()
    windows = replace(report, host=replace(report.host, os_name="Windows 11"))
    wizard, page = open_kernel_page(qtbot, windows, cuda_env(tmp_path, platform="win_amd64"))
    recipe = page.current_recipe()
    assert recipe is not None and recipe.id == "flash_attn"  # FlashMLA can't build natively
    # a version with a published Windows wheel for this PyTorch is preselected and marked,
    # before the one marked for Windows (2.7.4.post1: the newest that compiles with MSVC)
    assert page.tree.combo("flash_attn").currentText() == "2.8.3 (recommended)"
    assert page.machine_label.text().startswith("Windows")
    assert not page.wsl_button.isVisible()
    page.select_kernel("flashmla")
    verdict = page.current_verdict()
    assert verdict is not None and verdict.alternative == "wsl2"
    assert page.wsl_button.isVisible()
    details = page.details.toPlainText()
    assert "cannot be built natively on Windows for Hopper (SM90)" in details
    assert "Use WSL2" in details
    assert page.tree.status_text("deepep").startswith("✖ Not for this operating system")
    assert "DeepEP runs on Linux only" in page.tree.status_tip("deepep")
    page.wsl_button.click()
    kind, title, text = dialogs.shown[-1]
    assert kind == "information" and "WSL2" in title and "wsl --install" in text


def test_a_broken_recipe_is_listed_and_the_page_still_works(
    qtbot: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "recipes"
    folder.mkdir()
    for name in ("probe.toml", "flashmla.toml"):
        shutil.copy(resource_path("recipes", name), folder / name)
    deepep = resource_path("recipes", "deepep.toml").read_text(encoding="utf-8")
    (folder / "deepep.toml").write_text(deepep.replace("min_gpus = 2", 'min_gpus = "two"'),
                                        encoding="utf-8")
    (folder / "oops.toml").write_text("this is = = not TOML\n", encoding="utf-8")
    catalog = load_catalog(folder)
    assert len(catalog.problems) == 2

    wizard, page = open_kernel_page(qtbot, h100(), cuda_env(tmp_path),
                                    load_catalog=lambda: catalog)
    assert page.tree.kernel_ids() == ["probe", "flashmla"]
    assert page.problems_banner.isVisible() and page.problems_banner.tone is Tone.WARNING
    assert "2 broken recipes were left out (deepep.toml, oops.toml)" in (
        page.problems_banner.title.text())
    problems = page.problems_banner.hint.text()
    assert "deepep.toml: requirements.min_gpus: expected an integer" in problems
    assert "oops.toml: not valid TOML" in problems
    recipe = page.current_recipe()
    assert recipe is not None and recipe.id == "flashmla"
    assert next_enabled(wizard)
    go_next(qtbot, wizard)
    choice = wizard.session.kernel_choice
    assert choice is not None and choice.recipe.id == "flashmla"


def test_the_toolkit_search_runs_in_the_background(qtbot: Any, tmp_path: Path) -> None:
    gate = threading.Event()

    def slow_toolkits() -> list[CudaToolkit]:
        gate.wait(30)
        return [cuda_13()]

    wizard = InstallerWizard(SessionServices(build=no_build, discover_toolkits=slow_toolkits))
    qtbot.addWidget(wizard)
    wizard.session.hardware, wizard.session.environment = h100(), cuda_env(tmp_path)
    wizard.session.facts = linux(hardware=h100(), env=cuda_env(tmp_path))  # checked: all well
    wizard.setStartId(int(FlowStep.KERNEL))
    wizard.show()
    page = wizard.page_of(FlowStep.KERNEL)
    assert isinstance(page, KernelPage)
    try:
        assert page.is_busy() and page.busy.isVisible()
        assert not next_enabled(wizard)
        qtbot.wait(200)  # the GUI keeps running meanwhile
        assert page.is_busy()
    finally:
        gate.set()
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=30_000)
    assert not page.busy.isVisible()
    assert next_enabled(wizard)


def test_without_a_matching_toolkit_the_cuda_libraries_say_why(
    qtbot: Any, tmp_path: Path
) -> None:
    old = CudaToolkit(Path("/usr/local/cuda-12.4"), Path("/usr/local/cuda-12.4/bin/nvcc"),
                      parse_nvcc_version((TESTS / "data" / "nvcc" / "nvcc-12.4-linux.txt")
                                         .read_text(encoding="utf-8")), "recorded")
    wizard, page = open_kernel_page(qtbot, h100(), cuda_env(tmp_path),
                                    discover_toolkits=lambda: [old])
    assert "CUDA toolkit 12.4" in page.machine_label.text()
    page.select_kernel("flashmla")
    details = page.details.toPlainText()
    assert "does not match the CUDA 13.0 that PyTorch was built with" in details
    assert not next_enabled(wizard)



def test_another_environment_chosen_on_the_way_back_is_reassessed(
    qtbot: Any, tmp_path: Path
) -> None:
    wizard, page = open_kernel_page(qtbot, h100(), cuda_env(tmp_path))
    page.select_kernel("flash_attn")
    cpu = replace(cuda_env(tmp_path), status=EnvStatus.CPU_TORCH,
                  torch=TorchInfo("2.13.0+cpu", None, False, 0, (), True))
    wizard.session.environment = cpu  # what Back, another interpreter and Next again do
    page.initializePage()
    recipe = page.current_recipe()
    assert recipe is not None and recipe.id == "probe"  # a new start from the advice
    assert "CPU-only build" in page.pick_banner.hint.text()
    assert is_greyed(page.tree, "flashmla") and is_greyed(page.tree, "flash_attn")
    assert "(CPU-only)" in page.machine_label.text()
    assert next_enabled(wizard)


# -- worth building here? (issue 20) --------------------------------------------------------


def recorded_h100_speed(_hardware: Any, _env: Any) -> Any:
    """What resources/probes/sdpa_speed.py printed on the lent H100 (tests/data/speed)."""
    from kernel_wizard.catalog.worth import _parse

    document = json.loads((TESTS / "data" / "speed" / "h100-sdpa.json").read_text("utf-8"))
    return _parse(document["probe"])


def test_on_a_hopper_gpu_the_page_says_flashattention_2_does_not_pay_off(
    qtbot: Any, tmp_path: Path
) -> None:
    wizard, page = open_kernel_page(qtbot, h100(), cuda_env(tmp_path),
                                    time_sdpa=recorded_h100_speed)
    qtbot.waitUntil(lambda: page.speed is not None, timeout=30_000)
    page.select_kernel("flash_attn")
    said = page.speed_label.text()
    assert page.speed_label.isVisible()
    # FlashAttention 2's queued H200 figure scaled to this H100's cuDNN (measured.toml)
    assert said.startswith("Speed on this GPU: Not expected to pay off: PyTorch's own cuDNN "
                           "attention is about 1.5× faster on this GPU"), said
    assert "You can still build it" in said
    assert next_enabled(wizard)  # advice, never a block: it can still be built
    page.select_kernel("flashmla")  # no SDPA equivalent: no speed line
    assert not page.speed_label.isVisible()
    page.select_kernel("flash_attn")
    page.grab().save(str(tmp_path / "kernel-speed.png"))
    import os
    if os.environ.get("KSW_SHOT"):
        wizard.grab().save(os.environ["KSW_SHOT"])


def test_without_a_cuda_pytorch_nothing_is_timed(qtbot: Any, torch_venv: Path) -> None:
    asked: list[object] = []
    env = inspect_python(torch_venv)
    wizard, page = open_kernel_page(qtbot, h100(), env,
                                    time_sdpa=lambda *a: asked.append(a))
    assert not page.speed_label.isVisible() and asked == []


def test_flash_attention_3_offers_its_compact_build_and_the_full_one(
    qtbot: Any, tmp_path: Path, dialogs: Dialogs
) -> None:
    wizard, page = open_kernel_page(qtbot, h100(), cuda_env(tmp_path))
    page.select_kernel("flash_attn_3")
    box = page.method_box
    assert box.variant_row.isVisible()
    assert box.variant == "compact"  # the default
    items = [box.variant_combo.itemText(i) for i in range(box.variant_combo.count())]
    assert items[0].startswith("Compact build (est. ") and items[1].startswith("Full build (est. ")
    assert "head size 128, fp16 and bf16" in box.variant_combo.toolTip()
    assert "Build variants" in page.details.toPlainText()
    assert "Full build: every head size (64 to 256)" in page.details.toPlainText()
    compact = page.build_choice.text()
    box.select_variant("full")
    assert box.variant == "full"
    assert page.build_choice.text() != compact  # the estimate follows the choice
    assert "every head size (64 to 256)" in box.variant_combo.toolTip()
    import os
    if os.environ.get("KSW_SHOT_FA3"):
        wizard.grab().save(os.environ["KSW_SHOT_FA3"])
    source = tmp_path / "flash-attention"
    (source / "hopper").mkdir(parents=True)
    # a community FA3 wheel fits torch 2.11 + CUDA 13 here and is offered first: build instead
    assert page.prebuilt_choice.isChecked()
    page.build_choice.click()
    page.local_choice.click()
    dialogs.folder = str(source)
    page.folder_button.click()
    go_next(qtbot, wizard)
    choice = wizard.session.kernel_choice
    assert choice is not None and choice.recipe.id == "flash_attn_3"
    assert choice.variant == "full"
    page.select_kernel("flash_attn")  # a library built one way: no variant row
    assert not box.variant_row.isVisible() and box.variant is None


def test_the_more_reasons_tail_never_breaks_inside_its_brackets() -> None:
    """Chinese wrapped "✖ 需要 NVIDIA GPU（另有" / "1 条）" in the "Fits" column."""
    from app.pages.kernel_texts import _unbroken_tail

    for text in ("✖ 需要 NVIDIA GPU（另有 1 条）", "✖ Needs an NVIDIA GPU (+1 more)"):
        kept = _unbroken_tail(text)
        start = max(kept.rfind("("), kept.rfind("（"))
        head, tail = kept[:start], kept[start:]
        assert head == text[:start]  # the line may still break before the brackets
        assert " " not in tail and all(tail[i] == "\u2060" for i in range(1, len(tail), 2))
        assert tail.replace("\u2060", "").replace("\u00a0", " ") == text[start:]


def test_the_kernels_command_and_the_kernel_page_show_the_same_table(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One recorded machine (the H100 recording, a CUDA 13.0 PyTorch, the CUDA 13.0 toolkit):
    ``kernels --json`` and the Kernel page list the same kernels, each version fitting or not
    alike, with the same recommended version (both read Session.kernel_table)."""
    import argparse
    import io
    from functools import partial

    import kernel_wizard.cli.build as cli_build

    env = cuda_env(tmp_path)
    wizard, page = open_kernel_page(qtbot, h100(), env)
    monkeypatch.setattr(cli_build, "resolve_env", lambda _python: env)
    monkeypatch.setattr(cli_build, "detect", h100)
    monkeypatch.setattr(cli_build, "Session", partial(
        Session, SessionServices(discover_toolkits=lambda: [cuda_13()])))
    out = io.StringIO()
    args = argparse.Namespace(python=env.executable, json=True, no_speed=True, workload=None,
                              online=False)
    assert cli_build.run_kernels_command(args, out) == 0
    listed = json.loads(out.getvalue())["kernels"]

    cli: dict[str, dict[str, bool]] = {}  # kernel → version → fits
    cli_recommended: dict[str, str] = {}
    for entry in listed:
        cli.setdefault(entry["id"], {})[entry["version"]] = entry["available"]
        if entry["recommended"]:
            cli_recommended[entry["id"]] = entry["version"]
    tree = page.tree
    shown: dict[str, dict[str, bool]] = {}
    shown_recommended: dict[str, str] = {}
    for kernel in tree.kernel_ids():
        combo = tree.combo(kernel)
        shown[kernel] = {str(combo.itemData(i)): not combo.itemText(i).startswith("✖ ")
                         for i in range(combo.count())}
        marked = [str(combo.itemData(i)) for i in range(combo.count())
                  if "(recommended)" in combo.itemText(i)]
        if marked:
            shown_recommended[kernel] = marked[0]
            assert tree.picked_label(kernel) == marked[0]  # and preselected
    assert shown == cli and len(cli) >= 5  # the whole catalog, every version alike
    assert shown_recommended == cli_recommended and "flash_attn" in cli_recommended
    assert any(not fits for versions in cli.values() for fits in versions.values())
