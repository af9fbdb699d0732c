"""The Build page under Simplified Chinese: a failed build's diagnosis (the known problem's
title, why and what to do, from resources/diagnosis/failures.toml or composed with the
versions the log shows), the failure banner, retry notes and stall warnings appear in Chinese;
the lines copied from the compiler's log stay exactly as the compiler printed them.

The failing build replays a REAL log (tests/data/logs/msvc-unsupported-vs.log: CUDA 12.4 with a
too new Visual Studio) through the fake_build.py stand-in, as tests/gui/test_build_failure.py
does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication, QMessageBox
from test_build_page import open_build_page, standin

from app.i18n import install_translator, tr_core
from app.widgets.banner import Tone
from kernel_wizard.build.run import RetryEvent, StallEvent, retry_plan
from kernel_wizard.diagnose import RetryAction
from kernel_wizard.diagnose.facts import LogFacts, _msvc_too_new_advice

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
LOG = LOGS / "msvc-unsupported-vs.log"
FIRST_ERROR = ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\include\\crt/"
               "host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft Visual "
               "Studio version! Only the versions between 2017 and 2022 (inclusive) are "
               "supported!")


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    yield
    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)
        translator.deleteLater()


@pytest.fixture(autouse=True)
def no_modal_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)


def test_a_failed_build_is_explained_in_chinese_with_the_compilers_line_as_it_is(
    qtbot: Any, tmp_path: Path, torch_venv: Path, isolated_wizard_data: Path, chinese: None
) -> None:
    assert FIRST_ERROR in LOG.read_text(encoding="utf-8")
    wizard, page = open_build_page(qtbot, standin(tmp_path, "replay", str(LOG)), torch_venv)
    qtbot.waitUntil(lambda: not page.is_running(), timeout=30_000)

    assert page.banner.tone is Tone.ERROR
    assert "编译失败：这个 CUDA 版本不接受你的 Visual Studio 版本。" in page.banner.title.text()
    # the advice names the CUDA version and the _MSC_VER bound the log shows, in Chinese
    assert page.banner.hint.text().startswith(
        "CUDA 12.4 最高只接受 MSVC 14.4x（_MSC_VER 低于 1950）")
    assert page.progress.text().startswith("失败")

    shown = page.diagnosis.toPlainText()
    outcome = page.session.current_build()
    assert outcome is not None and outcome.diagnosis is not None
    line = outcome.diagnosis.primary.line_number  # type: ignore[union-attr]
    assert f"● 这个 CUDA 版本不接受你的 Visual Studio 版本（第 {line} 行）" in shown
    assert "  原因：安装的 Visual Studio C++ 编译器比这个 CUDA 工具包所支持的更新" in shown
    assert "  怎么办：CUDA 12.4 最高只接受 MSVC 14.4x（_MSC_VER 低于 1950）" in shown
    assert "nvcc 的 -allow-unsupported-compiler 选项可以跳过这项检查" in shown
    assert f"第一个错误（第 {line} 行）：" in shown
    assert f"→ {FIRST_ERROR}" in shown  # the compiler's own line, verbatim
    assert f"完整日志：{tmp_path / 'build.log'}" in shown
    for english in ("Why:", "What to do:", "First error", "Full log", "Visual Studio 2026 (MSVC"):
        assert english not in shown
    headers = page.steps.headerItem()
    assert [headers.text(i) for i in range(3)] == ["步骤", "状态", "用时"]
    assert page.bundle_button.text() == "保存报告包…"


def test_retry_notes_and_stall_warnings_are_in_chinese(
    qtbot: Any, tmp_path: Path, torch_venv: Path, isolated_wizard_data: Path, chinese: None
) -> None:
    wizard, page = open_build_page(qtbot, standin(tmp_path, "quiet", "30"), torch_venv)
    plan = standin(tmp_path, "quiet", "30")  # 2 jobs: running out of memory halves them
    retry = retry_plan(plan, RetryAction.HALVE_JOBS)
    assert retry is not None
    page._on_event(RetryEvent(2, retry[1]))
    assert "第 2 次尝试" in page.banner.title.text()
    assert page.banner.hint.text() == "编译时内存不足；正在调整后重试：并行编译任务 2 → 1 个。"
    assert "↻ 编译时内存不足；正在调整后重试：并行编译任务 2 → 1 个。" in \
        page.diagnosis.toPlainText()

    page._on_event(StallEvent(200.0, ("nvcc", "cicc")))
    assert page.stall.text().startswith("已经 ")
    assert "没有输出。仍在运行：nvcc, cicc。" in page.stall.text()
    page.cancel_now()
    qtbot.waitUntil(lambda: not page.is_running(), timeout=30_000)
    assert "编译已取消，没有安装任何东西。" in page.banner.title.text()


def test_the_advice_for_a_too_new_visual_studio_names_the_versions_in_chinese(
    chinese: None,
) -> None:
    advice = _msvc_too_new_advice(LogFacts(windows=True, cuda=(11, 8), msc_ver=1944))
    assert advice is not None
    assert tr_core(advice).startswith(
        "CUDA 11.8 最高只接受 MSVC 14.39（_MSC_VER 低于 1940）（这里的编译器是 MSVC 14.44，"
        "_MSC_VER 1944）：")
