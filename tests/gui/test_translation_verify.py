"""The Verify page and the error dialog in Simplified Chinese: the sentences the core makes (the
verdict, each check in words, why a check failed, the speed line, a disk error's cause and fix)
are shown translated, with their numbers and paths filled in; the English stays as it was."""

from __future__ import annotations

import errno
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from app.error_dialog import error_box
from app.i18n import install_translator, tr_core
from app.pages.verify import VerifyPage
from app.widgets.verify_results import RESULT_COLUMN
from app.wizard import InstallerWizard
from kernel_wizard.base.messages import Msg
from kernel_wizard.base.oserrors import explain
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.flow.verify_install import VerifyInstallOutcome
from kernel_wizard.verify import CaseStatus, VerifyReport, report_view, run_verification
from kernel_wizard.verify.history import SavedReport, VerificationRecord
from kernel_wizard.verify.wording import case_reason, failure_details, speed_text, verdict_sentence

TESTS = Path(__file__).resolve().parents[1]
WRONG_SCALE = TESTS / "data" / "verify" / "probe-cpu-quick-wrong-scale.json"  # the real harness's
BAD = TESTS / "data" / "bad_kernels"


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    yield
    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)
        translator.deleteLater()


def wrong_scale() -> VerifyReport:
    return VerifyReport.from_json(json.loads(WRONG_SCALE.read_text(encoding="utf-8")))


def verify_page(qtbot: Any) -> tuple[InstallerWizard, VerifyPage]:
    wizard = InstallerWizard(SessionServices(discover=lambda: []))
    qtbot.addWidget(wizard)
    page = wizard.page_of(FlowStep.VERIFY)
    assert isinstance(page, VerifyPage)
    return wizard, page  # the wizard is kept: it owns the page


def show_failed(page: VerifyPage, tmp_path: Path) -> VerifyReport:
    report = wrong_scale()
    saved = SavedReport(tmp_path, report,
                        VerificationRecord("probe", "python", "staged", None, "today"))
    page._on_verified(VerifyInstallOutcome(report, saved, None))
    return report


def test_a_failed_verification_is_shown_in_chinese_with_its_numbers(
    qtbot: Any, tmp_path: Path, chinese: None
) -> None:
    _wizard, page = verify_page(qtbot)
    show_failed(page, tmp_path)
    assert page.verdict.text() == "✖ 失败 — 内核计算结果错误，没有安装。"
    explanation = page.explanation.text()
    assert explanation.startswith(  # the lead sentence, its counts filled in
        "2 项检查中有 2 项失败：内核结果与精确答案的差距超出了 PyTorch 自身结果所允许的范围。 "
        "没有安装任何东西：你的 Python 环境保持原样。")
    details = page.results.details.text()
    assert "失败的项目：" in details
    # a failure reason, every number of it kept
    assert ("• float64 · 因果掩码 · 77 个词元 · 头维度 32 · 在 CPU 上：out 与 float64 参考结果的"
            "差距最大为 0.00211（位于索引 [1, 1, 42, 15]，各维依次为 batch, heads, seqlen, "
            "head_dim），超出了允许范围（2 × PyTorch 自身的 float64 误差 0 + 下限 1e-08 = 1e-08）；"
            "98.7% 的元素偏差超过这个值。") in details
    assert page.results.table.item(0, 0).text() == (
        "float64 · 因果掩码 · 77 个词元 · 头维度 32 · 在 CPU 上")
    assert page.results.table.item(0, RESULT_COLUMN).text() == "失败"
    assert page.results.table.item(0, 2).text().startswith("允许误差的 ")
    assert page.results.table.horizontalHeaderItem(0).text() == "检查内容"
    assert page.results.speed.text() == (
        "没有测量速度：速度只在 NVIDIA GPU 上测量，而这些检查是在 CPU 上运行的。")


def test_the_same_page_in_english_reads_as_the_cli_does(qtbot: Any, tmp_path: Path) -> None:
    _wizard, page = verify_page(qtbot)
    report = show_failed(page, tmp_path)
    assert page.explanation.text().startswith(
        "2 of 2 checks failed: the kernel's results are further from the exact answer than "
        "PyTorch's own are allowed to be. Nothing was installed: your Python environment is as "
        "it was.")
    # the harness's own reason, word for word, after the check in words
    assert (f"• float64 · causal · 77 tokens · head size 32 · on the CPU: "
            f"{report.cases[0].reasons[0]}") in page.results.details.text()
    assert page.results.table.item(0, RESULT_COLUMN).text() == "FAIL"


def test_the_speed_line_is_translated_with_its_numbers(chinese: None) -> None:
    from dataclasses import replace

    from kernel_wizard.verify import Timing

    timing = Timing("forward", {"q": (2, 4096, 16, 128)}, "float16", kernel_ms=0.8,
                    sdpa_ms=0.5, speedup=0.625, math_ms=9.6, label="float16 · batch 2")
    speed = speed_text(replace(wrong_scale(), timings=(timing,)))
    assert speed.lines[0] == ("Forward pass: 0.8 ms — 1.6× slower than PyTorch's built-in "
                              "attention (SDPA, its fastest method here); 12× as fast as "
                              "PyTorch's plain math attention.")  # the CLI's English
    assert tr_core(speed.lines[0]) == (
        "前向计算：0.8 毫秒 — 耗时是 PyTorch 的内置注意力（SDPA，这里它最快的方法）的 1.6 倍；"
        "速度是 PyTorch 的普通数学注意力（math）的 12 倍。")
    assert tr_core(speed.heading) == "速度（测量条件：float16 · batch 2）："


def test_a_disk_error_is_explained_in_chinese_in_the_error_dialog(
    qtbot: Any, tmp_path: Path, chinese: None
) -> None:
    target = tmp_path / "reports" / "report.json"
    box = error_box(None, PermissionError(errno.EACCES, "Permission denied", str(target)))
    qtbot.addWidget(box)
    assert box.text() == f"你没有写入 {target} 的权限。"
    assert box.informativeText() == (
        f"怎么办：请给你的用户授予 {target} 的写入权限，或者选择一个你有写入权限的文件夹。")
    assert "Permission denied" in box.detailedText()  # what the system said, as it said it
    with_action = explain(OSError(errno.EROFS, "Read-only file system", str(target)),
                          action="save the verification report")
    assert tr_core(with_action.what) == f"无法保存验证报告：{target} 位于只读驱动器上。"


def test_disk_errors_keep_their_english() -> None:
    target = Path("/data/reports/report.json")
    error = explain(PermissionError(errno.EACCES, "Permission denied", str(target)))
    assert error.what == f"You have no permission to write to {target}."
    assert error.hint == (f"Give your user write access to {target}, or choose a folder you "
                          "may write to.")
    error = explain(OSError(errno.EROFS, "Read-only file system", str(target)),
                    action="save the report", alternative="choose another data folder")
    assert error.what == f"Could not save the report: {target} is on a read-only drive."
    assert error.hint == "Make the drive writable, or choose another data folder."
    in_use = explain(OSError(errno.EBUSY, "Device or resource busy", str(target)))
    assert in_use.hint == ("Close the programs that may use it (an editor, a terminal in that "
                           "folder, a running build, a virus scan), then try again.")


def test_the_verdicts_keep_their_english() -> None:
    report = wrong_scale()
    sentence = verdict_sentence(report, installed=False)
    assert isinstance(sentence, Msg)
    assert sentence == ("2 of 2 checks failed: the kernel's results are further from the exact "
                        "answer than PyTorch's own are allowed to be.")
    first = failure_details(report)[0]
    assert first == f"float64 · causal · 77 tokens · head size 32 · on the CPU: " \
                    f"{report.cases[0].reasons[0]}"


@pytest.mark.parametrize("kernel", ["wrong_scale", "nan_output", "unwritten_rows",
                                    "wrong_backward", "low_precision"])
def test_every_reason_the_harness_gives_for_a_wrong_number_is_translatable(
    torch_venv: Path, kernel: str
) -> None:
    """The core puts a failed measure in the harness's own words (the same English, number for
    number), so that the GUI can translate it."""
    report = run_verification(torch_venv, "probe", extra_pythonpath=[BAD / kernel], quick=True)
    failed = [c for c in report.cases if c.status is CaseStatus.FAIL]
    assert failed, report_view(report).lines()
    measured = 0
    for case in failed:
        for reason in case.reasons:
            words = case_reason(case, reason)
            assert words == reason
            if any(reason.startswith((m.label or m.name) + " ") or
                   reason.startswith((m.label or m.name) + ":") for m in case.failed_measures()):
                assert isinstance(words, Msg) and words.template != reason, reason
                measured += 1
    assert measured
