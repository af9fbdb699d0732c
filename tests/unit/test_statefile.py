"""State files: atomic writes keep the previous copy; damaged files are told apart from missing
ones, kept aside (never deleted, never read as empty), and the previous copy stands in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kernel_wizard.base.statefile import (
    StateFileError,
    StateStatus,
    read_json,
    write_json,
)


def as_list(document: Any) -> list[Any]:
    if not isinstance(document, list):
        raise ValueError(f"a list was expected, found a {type(document).__name__}")
    return document


def test_a_write_replaces_the_file_and_keeps_the_previous_copy(tmp_path: Path) -> None:
    path = tmp_path / "installs.json"
    write_json(path, [1])
    write_json(path, [1, 2])
    assert json.loads(path.read_text(encoding="utf-8")) == [1, 2]
    assert json.loads((tmp_path / "installs.json.prev").read_text(encoding="utf-8")) == [1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["installs.json", "installs.json.prev"]


def test_missing_is_not_damaged(tmp_path: Path) -> None:
    found = read_json(tmp_path / "none.json", as_list)
    assert found.status is StateStatus.MISSING and found.value is None and not found.notice


@pytest.mark.parametrize("content, problem", [
    (b"[{\"name\": \"a\"", "not valid JSON"),
    (b"", "it is empty"),
    (b"{\"name\": \"a\"}", "found a dict"),
    (b"\xff\xfe\x00garbage", "not text"),
])
def test_a_damaged_file_is_kept_aside_and_the_previous_copy_used(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    path = tmp_path / "installs.json"
    write_json(path, ["first"])
    write_json(path, ["first", "second"])  # .prev holds ["first"]
    path.write_bytes(content)  # a crash of an older writer, a disk fault, a hand edit
    found = read_json(path, as_list)
    assert found.status is StateStatus.DAMAGED and problem in found.problem
    assert found.value == ["first"] and found.from_previous
    assert found.kept is not None and found.kept.name.startswith("installs.json.damaged-")
    assert found.kept.read_bytes() == content  # nothing deleted
    assert json.loads(path.read_text(encoding="utf-8")) == ["first"]  # put back in place
    assert "kept aside as installs.json.damaged-" in found.notice
    assert "previous copy was used" in found.notice


def test_a_damaged_file_without_a_previous_copy_gives_nothing_but_says_so(
    tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    path.write_text("{not json", encoding="utf-8")
    found = read_json(path, as_list)
    assert found.status is StateStatus.DAMAGED and found.value is None
    assert not path.exists() and found.kept is not None and found.kept.exists()
    second = read_json(path, as_list)  # the next read: missing (the damaged one stays aside)
    assert second.status is StateStatus.MISSING


def test_read_only_callers_move_nothing(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text("[]", encoding="utf-8")
    found = read_json(path, lambda d: d["schema"], repair=False)
    assert found.damaged and found.kept is None and path.read_text(encoding="utf-8") == "[]"


def test_a_failed_write_names_the_file_and_leaves_the_old_one(tmp_path: Path) -> None:
    path = tmp_path / "installs.json"
    write_json(path, ["kept"])
    (tmp_path / "installs.json.prev").mkdir()  # cannot be replaced by a file: the write fails
    (tmp_path / "installs.json.prev" / "x").write_text("x", encoding="utf-8")
    with pytest.raises(StateFileError) as caught:
        write_json(path, ["new"])
    assert str(path) in caught.value.what and caught.value.why and caught.value.hint
    assert json.loads(path.read_text(encoding="utf-8")) == ["kept"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_state_file_on_a_read_only_drive_is_not_told_to_free_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--verify on a read-only drive said "Free some disk space": the advice follows the
    cause. (A read-only mount needs privileges a test lacks: the OS error is raised here.)"""
    import errno

    from kernel_wizard.base import statefile
    def read_only(path: Path, data: bytes) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(statefile, "write_bytes_atomic", read_only)
    with pytest.raises(statefile.StateFileError) as raised:
        statefile.write_json(tmp_path / "report.json", {"a": 1})
    assert raised.value.hint.startswith("Make the drive writable, or choose a folder on a "
                                        "writable drive.")
    assert "Free" not in raised.value.hint
    assert raised.value.hint.endswith("The earlier copy of the file was left as it was.")
