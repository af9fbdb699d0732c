"""The fault suite's fixtures and the fault table (the helpers are in tests/ksw_faults.py, an
ordinary module: ``from ksw_faults import run_cli, ...``).

Each trial's docstring is one line "fault → expected"; with ``KSW_FAULT_TABLE=path`` the suite
writes a Markdown table (trial, expected, observed) there, for the closing note.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from ksw_faults import TABLE, processes_with, record


@pytest.fixture
def data() -> Path:
    """The trial's own wizard data folder (tests/conftest.py points KSW_DATA_DIR at it)."""
    folder = Path(os.environ["KSW_DATA_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def marker() -> Iterator[str]:
    """A unique word that every fixture child carries in its command line; killed at the end
    whatever happens, so a failing trial cannot leave processes behind for the next one."""
    word = f"kswfault{uuid.uuid4().hex[:12]}"
    yield word
    for proc in processes_with(word):
        try:
            proc.kill()
        except psutil.Error:
            pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Puts each trial's "fault → expected" line on its report (it travels from a pytest-xdist
    worker to the main process, which writes the table)."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        function = getattr(item, "function", None)
        doc = ((function.__doc__ if function else None) or "").strip().splitlines()
        report.user_properties.append(("fault_line", doc[0] if doc else item.name))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call" or not os.environ.get("KSW_FAULT_TABLE"):
        return
    line = dict(report.user_properties).get("fault_line")
    if not isinstance(line, str):
        return
    fault, _, expected = line.partition("→")
    observed = "as expected" if report.passed else ("skipped" if report.skipped else "FAILED")
    name = report.nodeid.split("::")[-1]
    record(f"{name}: {fault.strip()}", expected.strip(), observed)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("KSW_FAULT_TABLE")
    if not path or not TABLE or hasattr(session.config, "workerinput"):
        return
    lines = ["| trial | expected | observed |", "|---|---|---|"]
    lines += [f"| {t} | {e} | {o} |" for t, e, o in sorted(TABLE)]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
