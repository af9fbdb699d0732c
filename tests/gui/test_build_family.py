"""The Build page's diagnosis panel shows where a failed build stopped (issue 31): a line
"Stopped while <family>: <next step>" and the first error line verbatim, also when no specific
cause is known (then an honest sentence instead of a made-up cause), in English and Chinese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from diagnose_testsupport import fed
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from app.i18n import install_translator
from app.pages.build import BuildPage
from kernel_wizard.build.run import BuildOutcome, BuildStatus

FIRST = 'a.cu(12): error: identifier "frobnicate" is undefined'


def outcome(lines: list[str], tmp_path: Path) -> BuildOutcome:
    diagnoser = fed(lines)
    return BuildOutcome(status=BuildStatus.FAILED, message="failed", hint="", plan=None,
                        wheel=None, log_path=tmp_path / "build.log", seconds=1.0, attempts=1,
                        exit_code=1, diagnosis=diagnoser.summary(failed=True))


UNKNOWN = ["Building wheel for foo (setup.py) ... error",
           "[1/3] /usr/local/cuda/bin/nvcc -c a.cu -o a.o", FIRST]


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    yield
    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)


def test_the_panel_says_where_it_stopped_and_the_first_error(qapp: QApplication,
                                                             tmp_path: Path) -> None:
    shown = BuildPage.failure_text(outcome(UNKNOWN, tmp_path))
    assert "Stopped while compiling the package's source: Read the first error line" in shown
    assert f"→ {FIRST}" in shown  # verbatim
    assert "The cause is not one the wizard knows; it stopped while compiling the package's " \
           "source: that usually means" in shown


def test_a_known_cause_keeps_its_advice_beside_the_family(qapp: QApplication,
                                                          tmp_path: Path) -> None:
    # the kernel's own log says the system ran short of memory (a bare "Killed" names the
    # family alone since 3c80106: late sets a and g showed it wrong as out of memory)
    shown = BuildPage.failure_text(outcome(
        ["Building wheel for vllm (pyproject.toml) ... error",
         "[ 8123.456789] Out of memory: Killed process 48213 (cc1plus) total-vm:9876543kB",
         "Killed"], tmp_path))
    assert "The compiler ran out of memory" in shown
    assert "Stopped while compiling, when the compiler itself crashed or was stopped" in shown
    assert "5 GB" not in shown  # FlashAttention's numbers are not vLLM's


def test_the_family_in_chinese(chinese: None, tmp_path: Path) -> None:
    shown = BuildPage.failure_text(outcome(UNKNOWN, tmp_path))
    assert "出错阶段：编译软件包的源代码。" in shown
    assert "这个原因不在向导已知的范围内" in shown
    assert f"→ {FIRST}" in shown  # the compiler's line stays as it printed it


def test_a_version_floor_and_the_windows_compiler_in_chinese(chinese: None) -> None:
    from app.i18n import tr_core
    from kernel_wizard.diagnose import diagnose_lines

    floor = diagnose_lines(["#error We need GCC 9 or later."]).primary
    assert floor is not None
    assert "GCC 9 或更新版本" in tr_core(floor.title) and "GCC 9 或更新版本" in tr_core(floor.fix)
    windows = diagnose_lines([
        '  File "C:\\env\\Lib\\site-packages\\triton\\runtime\\build.py", line 32, in _build',
        "RuntimeError: Failed to find C compiler. Please specify via CC environment variable."
    ]).primary
    assert windows is not None
    assert "Visual Studio Build Tools（MSVC，Windows 上的 C 编译器）" in tr_core(windows.fix)
