"""The Prerequisites page in Simplified Chinese beyond the healthy machine of the walkthrough:
every check's row (badge, title, summary, what to do, the fix and its details opened) for
machines where something is missing or blocked, on Linux and on Windows, and the question a
fix asks before it runs, with no English word left (english.py decides what a word is; the
commands a fix runs are the programs' own). Also the durations of the Build page."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from english import english_in, english_words
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication
from test_prereqs_page import cuda13, gcc, h100, linux, python_env, windows

from app.i18n import install_translator, tr_core
from app.pages.prereqs import TEXT, summarize
from app.time_words import duration_text, time_left_text
from app.widgets.check_row import CheckRow
from kernel_wizard.machine.environment import EnvStatus
from kernel_wizard.machine.hardware import HostInfo
from kernel_wizard.prereqs import SystemFacts, run_checks
from kernel_wizard.prereqs.facts import GitFacts, LongPathsFacts, MsvcFacts

GIB = 1024**3


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translator(qapp, {"KSW_LANG": "zh_CN"}, "en_US") == "zh_CN"
    yield
    for translator in qapp.findChildren(QTranslator):
        qapp.removeTranslator(translator)
        translator.deleteLater()


def small_host(disk_gib: float, ram_gib: float) -> HostInfo:
    return HostInfo(cpu_logical=4, cpu_physical=2, ram_total=int(ram_gib * GIB),
                    ram_available=int(ram_gib * GIB * 0.8), disk_free=int(disk_gib * GIB),
                    disk_path=Path("/home"), os_name="Linux")


MACHINES: dict[str, Any] = {
    "linux-healthy": lambda: linux(),
    "linux-no-g++": lambda: linux(compiler=gcc(gxx=False)),
    "linux-no-cuda": lambda: linux(toolkits=()),
    "linux-no-cccl": lambda: linux(toolkits=(cuda13(cccl=False),)),
    "linux-no-torch-no-ninja": lambda: linux(env=python_env(EnvStatus.NO_TORCH, ninja=False,
                                                            torch=False)),
    "linux-small-disk": lambda: linux(hardware=replace(h100(), host=small_host(5, 6))),
    "linux-tiny-disk": lambda: linux(hardware=replace(h100(), host=small_host(0.5, 6))),
    "windows-healthy": lambda: windows(),
    "windows-long-paths-off": lambda: windows(
        long_paths=LongPathsFacts(True, 0, 260),
        git=GitFacts(Path(r"C:\Program Files\Git\cmd\git.exe"), False)),
    "windows-restart-pending": lambda: windows(long_paths=LongPathsFacts(True, 1, 260, True)),
    "windows-no-visual-studio": lambda: windows(compiler=MsvcFacts(None, "", (), ())),
    "windows-no-cuda": lambda: windows(toolkits=()),
}


@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_every_prerequisite_row_speaks_chinese(qtbot: Any, chinese: None, machine: str) -> None:
    facts: SystemFacts = MACHINES[machine]()
    results = run_checks(facts)
    english: list[str] = []
    for result in results:
        row = CheckRow(result)
        qtbot.addWidget(row)
        row.show()
        if row.details_toggle.isVisible():
            row.details_toggle.setChecked(True)
        english += [f"{result.id.value}: {found}"
                    for found in english_words(row, [row.command_text, row.log])]
        fix = result.fix
        if fix is not None:  # the question before it runs (its commands are the programs')
            question = TEXT["confirm"].format(description=tr_core(fix.description),
                                              commands="")
            english += [f"{result.id.value} asks: {word}"
                        for word in english_in(f"{tr_core(fix.title)} {question}")]
    tone, title, hint = summarize(results)
    english += [f"banner: {word}" for word in english_in(f"{title} {hint}")]
    assert not english, f"{machine}: English left:\n" + "\n".join(english)


def test_durations_and_estimates_speak_chinese(chinese: None) -> None:
    assert duration_text(117) == "1 分 57 秒"
    assert duration_text(42) == "42 秒"
    assert duration_text(2 * 3600 + 180) == "2 小时 03 分"
    assert time_left_text(24) == "大约还剩 25 秒"
    assert time_left_text(540, overdue=True) == "大约还剩 9 分钟（比预计的时间长）"
    assert time_left_text(3) == "还剩几秒"


def test_durations_in_english_are_what_the_command_line_says() -> None:
    from app.time_words import TEXT
    from kernel_wizard.base.durations import ENGLISH, duration, time_left

    assert {key: TEXT.english(key) for key in TEXT} == dict(ENGLISH)  # one set of forms
    for seconds in (0, 7, 42, 117, 3599, 3600, 7380):
        assert duration_text(seconds) == duration(seconds)
        assert time_left_text(seconds) == time_left(seconds)
        assert time_left_text(seconds, True) == time_left(seconds, True)


@pytest.mark.parametrize(("text", "english"), [
    ("Nothing blocks the build", True),
    ("about 25 s left", True),
    ("1 min 57 s", True),
    ("Free space…", True),
    ("<b>✔ 正常</b>", False),
    ("1 分 57 秒", False),
    ("gcc：/usr/bin/gcc（12.2.0）", False),
    ("已安装 探测内核 0.1.0（Python 包 ksw-probe-kernel 0.1.0）", False),
    ("将使用位于 C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0 的 CUDA 13.0", False),
    ("PyTorch 2.13.0+cpu · 仅 CPU 版本（没有 CUDA）· 含有计算能力 8.0, 9.0 的 GPU 代码", False),
    ("编译会失败，并报告“cuda/std/...: No such file”。", False),  # quoted output of a program
    ("探测内核 needs what the CUDA toolkit row found missing", True),
])
def test_what_counts_as_an_english_word(text: str, english: bool) -> None:
    assert bool(english_in(text)) is english, english_in(text)
