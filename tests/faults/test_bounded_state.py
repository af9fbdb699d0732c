"""State files that used to crash or hang every command (issue: Reliability 3, item 5).

JSON nested 3,000 deep (RecursionError, exit 1), a journal of the right schema with a field of
the wrong type (KeyError/TypeError on every command), an NVML recording of the wrong shape (a
traceback and exit 1 instead of the documented 4), ``installs.json`` as a FIFO (every command
hung) or as a link to ``/dev/zero`` (read without end). Each trial runs the real CLI with a time
limit and checks the documented exit code, a plain message, no traceback, and the file kept
aside."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from ksw_state_support import cli, faults_conftest

from kernel_wizard.install.records import write_journal

_faults = faults_conftest()
assert_clean_failure = _faults.assert_clean_failure

DEEP = "[" * 3000 + "]" * 3000
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero are POSIX")


def test_install_list_nested_3000_deep(data: Path) -> None:
    (data / "installs.json").write_text(DEEP, "utf-8")
    result = cli("installs", data=data)
    # "nested too deep" where json gives up (3.10-3.12), "a record is a list" where it parses
    # it (3.13): damaged either way, never a RecursionError
    assert_clean_failure(result, 0, "installs.json was damaged",
                         "The wizard has not installed any kernel yet.")
    assert len(list(data.glob("installs.json.damaged-*"))) == 1


@POSIX
def test_install_list_as_a_fifo_does_not_hang(data: Path) -> None:
    os.mkfifo(data / "installs.json")
    started = time.monotonic()
    result = cli("installs", data=data)
    assert time.monotonic() - started < 60
    assert_clean_failure(result, 0, "installs.json was damaged", "not a regular file")
    kept = list(data.glob("installs.json.damaged-*"))
    assert len(kept) == 1 and not kept[0].is_file()  # the FIFO itself, set aside


@POSIX
def test_install_list_linked_to_dev_zero_is_not_read_without_end(data: Path) -> None:
    (data / "installs.json").symlink_to("/dev/zero")
    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "installs.json was damaged", "not a regular file")
    assert Path("/dev/zero").exists()  # the link was set aside, not what it points to


def test_journal_with_fields_of_the_wrong_type_is_kept_aside(tmp_path: Path, data: Path) -> None:
    write_journal({"id": "tx-bad", "phase": "install", "python": str(tmp_path / "python"),
                   "name": "ksw-probe-kernel", "version": "0.2.0",
                   "folder": str(data / "backups" / "tx-bad"), "started": "now"})
    path = data / "journal" / "tx-bad.json"
    document = json.loads(path.read_text("utf-8"))
    for bad in ({"members": "not-a-list"}, {"version": 7}, {"root": ["x"]}):
        path.write_text(json.dumps({**document, **bad}), "utf-8")
        for _ in range(2):  # the first run sets it aside; the next one runs clean
            result = cli("installs", data=data)
            assert_clean_failure(result, 0)
        assert not path.exists()
        assert list((data / "journal").glob("tx-bad.json.damaged-*"))


def test_journal_nested_3000_deep(data: Path) -> None:
    journal = data / "journal"
    journal.mkdir(parents=True, exist_ok=True)
    (journal / "tx-deep.json").write_text(DEEP, "utf-8")
    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "tx-deep.json was damaged")


@pytest.mark.parametrize("document", [
    {"calls": {"init": {"ok": None}, "device_count": {"ok": 1}, "devices": ["x"]}},
    {"calls": {"init": {"ok": None}, "device_count": {"ok": "two"}}},
    {"calls": {"init": {"ok": None}, "device_count": {"ok": 1},
               "devices": [{"compute_capability": {"ok": [9]}}]}},
    {"calls": []},
    [1, 2, 3],
])
def test_recording_of_the_wrong_shape_is_exit_code_4(tmp_path: Path, data: Path,
                                                     document: object) -> None:
    recording = tmp_path / "rec.json"
    recording.write_text(json.dumps(document), "utf-8")
    result = cli("detect", "--replay", str(recording), data=data)
    assert_clean_failure(result, 4, "Could not read the NVML recording",
                         "not an NVML recording")


def test_recording_nested_3000_deep_is_exit_code_4(tmp_path: Path, data: Path) -> None:
    recording = tmp_path / "rec.json"
    recording.write_text('{"calls": ' + DEEP + "}", "utf-8")
    result = cli("detect", "--replay", str(recording), data=data)
    assert_clean_failure(result, 4, "Could not read the NVML recording")
