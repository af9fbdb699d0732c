"""The Kernel and Hardware pages in Simplified Chinese: why a kernel does not fit, the
recommendation, the build estimate and the GPU links are the core's sentences, shown in the
user's language with their values (GPU counts, versions, names) filled in.

The recorded H100 (tests/data/nvml/h100-driver580.json) with a CUDA 13.0 torch, as in
tests/gui/test_kernel_page.py: DeepEP needs 2, 4 or 8 NVLink-connected GPUs and this machine has
one, so it does not fit, and says so in Chinese.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gui_support import is_greyed
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication
from test_kernel_page import cuda_env, h100, open_kernel_page
from test_wizard_shell import open_hardware_page

from app.i18n import install_translator
from kernel_wizard.flow.session import SessionServices
from kernel_wizard.machine.environment import Candidate, inspect_python
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

NVML = Path(__file__).resolve().parents[1] / "data" / "nvml"


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    yield
    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)
        translator.deleteLater()


def test_a_kernel_that_does_not_fit_says_why_in_chinese(qtbot: Any, tmp_path: Path,
                                                       chinese: None) -> None:
    _, page = open_kernel_page(qtbot, h100(), cuda_env(tmp_path))

    # the recommendation, with the GPU's name and compute capability filled in
    assert "推荐：FlashAttention 3" in page.pick_banner.title.text()
    assert ("FlashAttention 3 是适合你的 NVIDIA H100 80GB HBM3（Hopper，cc 9.0）的最专门的库"
            in page.pick_banner.hint.text())
    assert "为架构 9.0 编译" in page.machine_label.text()
    assert page.tree.status_text("flash_attn") == "✔ 适合"

    # DeepEP: its GPU count, in Chinese, with the numbers of the recipe and of this machine
    assert is_greyed(page.tree, "deepep")
    status = page.tree.status_text("deepep")
    assert status.startswith("✖ 需要更多 GPU")  # in a few words; every reason in the tooltip
    assert "DeepEP 需要 2, 4 或 8 个通过 NVLink 连接的 GPU；这台机器有 1 个。" in \
        page.tree.status_tip("deepep")
    page.select_kernel("deepep")
    details = page.details.toPlainText()
    assert "✖ 不适合这台电脑" in details
    assert "DeepEP 需要 2, 4 或 8 个通过 NVLink 连接的 GPU；这台机器有 1 个。" in details
    # a warning whose value comes from the recipe file is translated too
    assert "本向导不检查：RDMA 网络（仅用于跨节点内核，本向导不验证这些内核）。" in details
    assert "needs" not in details and "GPUs" not in details

    # the build estimate of a kernel that fits: minutes and the parallelism in Chinese
    page.select_kernel("flashmla")
    assert page.build_choice.text().startswith("从源码编译（预计 ")
    assert "分钟" in page.build_choice.text() or "小时" in page.build_choice.text()
    tip = page.build_choice.toolTip()
    assert "个架构 × " in tip and "个编译线程" in tip and "CPU-core-seconds" not in tip


def test_the_hardware_page_describes_the_gpus_in_chinese(qtbot: Any, torch_venv: Path,
                                                        chinese: None) -> None:
    recording = json.loads((NVML / "constructed-8x-h100-nvlink.json").read_text(encoding="utf-8"))
    services = SessionServices(detect=lambda: detect(lambda: ReplayNvmlApi(recording)),
                        discover=lambda: [Candidate(torch_venv, "chosen by you")],
                        inspect=inspect_python)
    _, page = open_hardware_page(qtbot, services)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=120_000)
    assert page.gpu_banner.title.text().endswith("找到 8 个 NVIDIA GPU。</b>")
    assert page.links_label.text() == "GPU 互连：GPU 0–7 全部通过 NVLink 连接（每个 18 条链路）。"
    assert page.env_combo.itemText(0) == f"{torch_venv}  （由你选择）"
    assert "最高支持 CUDA" in page.driver_label.text()
