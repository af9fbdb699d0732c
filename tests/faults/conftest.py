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
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not os.environ.get("KSW_FAULT_TABLE"):
        return
    doc = (getattr(item, "function", None).__doc__ or "").strip().splitlines()  # type: ignore[union-attr]
    line = doc[0] if doc else item.name
    fault, _, expected = line.partition("→")
    observed = "as expected" if report.passed else ("skipped" if report.skipped else "FAILED")
    record(f"{item.name}: {fault.strip()}", expected.strip(), observed)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("KSW_FAULT_TABLE")
    if not path or not TABLE:
        return
    lines = ["| trial | expected | observed |", "|---|---|---|"]
    lines += [f"| {t} | {e} | {o} |" for t, e, o in TABLE]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
