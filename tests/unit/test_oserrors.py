"""OSError → a plain message (kernel_wizard.base.oserrors): every cause names the path and the fix.

Linux errors are made for real (a file in the way, a name too long, a missing folder); Windows
errors cannot happen here, so they are built as Python on Windows raises them: the system error
code (``winerror``), Windows' own message text for it, and the ``errno`` CPython maps it to
(ERROR_SHARING_VIOLATION → EACCES and ERROR_FILENAME_EXCED_RANGE → ENOENT, which is why
``winerror`` is read first). Only a Windows machine can confirm them for real.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from kernel_wizard.base.errors import EXIT_CODE_MEANINGS, Cancelled, ExitCode, StorageError
from kernel_wizard.base.oserrors import (
    Cause,
    cause_in_output,
    cause_of,
    explain,
    write_text_atomic,
)
from kernel_wizard.base.paths import short_name, storage_error
from kernel_wizard.cli.main import error_document, error_kind, exit_code_epilog

REPO = Path(__file__).resolve().parents[2]


class WindowsOSError(OSError):
    """An OSError as Python on Windows raises it: errno mapped by the C runtime, winerror set."""

    def __init__(self, code: int, winerror: int, text: str, filename: str) -> None:
        super().__init__(code, text, filename)
        self.winerror = winerror


# errno (as CPython maps it), winerror, and Windows' message text (FormatMessage, English).
WINDOWS_ERRORS = [
    (errno.EACCES, 5, "Access is denied", Cause.NO_PERMISSION),
    (errno.EACCES, 32, "The process cannot access the file because it is being used by "
     "another process", Cause.IN_USE),
    (errno.ENOSPC, 112, "There is not enough space on the disk", Cause.NO_SPACE),
    (errno.ENOENT, 206, "The filename or extension is too long", Cause.NAME_TOO_LONG),
]


@pytest.mark.parametrize(("code", "winerror", "text", "cause"), WINDOWS_ERRORS)
def test_windows_errors_are_read_by_winerror(code: int, winerror: int, text: str,
                                             cause: Cause) -> None:
    exc = WindowsOSError(code, winerror, text, r"C:\ksw\src\flash-attention-v2.8.3\csrc")
    assert cause_of(exc) is cause
    error = explain(exc, action="write the kernel's source")
    assert error.what.startswith("Could not write the kernel's source: ")
    assert "flash-attention-v2.8.3" in error.what
    assert f"WinError {winerror}" in error.why and error.hint


def test_windows_file_in_use_says_which_programs_to_close() -> None:
    exc = WindowsOSError(errno.EACCES, 32, WINDOWS_ERRORS[1][2], r"C:\ksw\b\build.ninja")
    error = explain(exc)
    assert "is in use by another program" in error.what
    assert "Close the programs that may use it" in error.hint


def test_a_file_where_a_folder_should_be(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(OSError) as caught:
        (blocker / "logs").mkdir(parents=True)
    error = storage_error(caught.value, action="create the logs folder")
    assert isinstance(error, StorageError) and error.exit_code is ExitCode.STORAGE
    assert f"{blocker} is a file, where a folder of {blocker / 'logs'} should be" in error.what
    assert f"Rename or remove the file {blocker}" in error.hint


def test_mkdir_over_a_file_is_a_file_in_the_way_not_already_exists(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(FileExistsError) as caught:
        blocker.mkdir(parents=True, exist_ok=True)
    assert cause_of(caught.value) is Cause.NOT_A_FOLDER


def test_a_name_too_long_says_the_limit(tmp_path: Path) -> None:
    target = tmp_path / ("x" * 300)
    with pytest.raises(OSError) as caught:
        target.write_text("x", encoding="utf-8")
    error = explain(caught.value)
    assert "is too long (300 characters; this drive allows 255)" in error.what


def test_a_missing_folder_names_the_topmost_missing_one(tmp_path: Path) -> None:
    with pytest.raises(OSError) as caught:
        (tmp_path / "a" / "b" / "c.json").write_text("x", encoding="utf-8")
    error = explain(caught.value)
    assert error.what == f"The folder {tmp_path / 'a'} does not exist."
    assert f"create the folder {tmp_path / 'a'} first" in error.hint


def test_a_full_disk_names_the_free_space_and_the_data_folder(tmp_path: Path,
                                                              isolated_wizard_data: Path) -> None:
    where = isolated_wizard_data / "staging" / "probe-20260101-000000"
    error = storage_error(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(where)),
                          action="write the wheel")
    assert error.what.startswith(f"Could not write the wheel: the disk holding {where} is full (")
    assert "free)" in error.what
    assert "choose another data folder (set KSW_DATA_DIR to it)" in error.hint
    assert error.cause == "disk full" and error.path == where


@pytest.mark.parametrize(("line", "cause"), [
    ("OSError: [Errno 28] No space left on device: '/data/staging/x'", Cause.NO_SPACE),
    ("/usr/bin/ld: final link failed: No space left on device", Cause.NO_SPACE),
    ("ERROR: Could not install packages due to an OSError: [WinError 112] There is not enough "
     "space on the disk", Cause.NO_SPACE),
    ("OSError: [Errno 30] Read-only file system: '/mnt/ro/x'", Cause.READ_ONLY),
    ("PermissionError: [Errno 13] Permission denied: '/root/x'", Cause.NO_PERMISSION),
    ("error: could not create 'build': File name too long", Cause.NAME_TOO_LONG),
    ("error: command 'gcc' failed with exit status 1", None),
])
def test_causes_in_a_childs_output(line: str, cause: Cause | None) -> None:
    assert cause_in_output(line) is cause


def test_atomic_write_leaves_the_old_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "installs.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(TypeError):
        write_text_atomic(target, 42)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["installs.json"]
    with pytest.raises(IsADirectoryError) as caught:
        write_text_atomic(tmp_path, "x")
    assert caught.value.filename == str(tmp_path)  # the file asked for, not the temporary one


def test_short_name_keeps_short_names_and_hashes_long_ones() -> None:
    assert short_name("flash-attention") == "flash-attention"
    long = short_name("s" * 243)
    assert len(long) == 64 and long != short_name("s" * 242 + "t")


def test_error_kinds_and_the_error_document() -> None:
    assert error_kind(StorageError("x")) == "storage"
    assert error_kind(Cancelled()) == "cancelled"
    document = error_document(StorageError("Could not x.", hint="Do y.", path=Path("/a"),
                                           cause="disk full"), command="build")
    assert document == {
        "schema": "ksw.error/1", "status": "error", "command": "build", "exit_code": 6,
        "error": {"kind": "storage", "message": "Could not x.", "detail": None,
                  "next_step": "Do y.", "path": "/a", "cause": "disk full"},
    }


def test_every_exit_code_is_documented_in_the_readme_and_the_help() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("Exit codes:"):][:900]
    epilog = exit_code_epilog()
    assert set(EXIT_CODE_MEANINGS) == set(ExitCode)
    for code in ExitCode:
        assert f" {int(code)} " in f" {section} ".replace(";", " ").replace(",", " "), code
        assert f"  {int(code):<4} " in epilog
