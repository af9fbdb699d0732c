"""Fault trials: disk and path errors (issue 12, item 7) and --json error documents (item 10).

Every trial starts the real CLI (or the real wizard, offscreen) against real folders: a data
folder that is a file or sits on a read-only or full disk (a small tmpfs), an unwritable
``detect --record`` target, a file size limit, names too long for the file system. Each asserts
the documented exit code (6: a file or folder could not be written), a message that names the
path, the cause and the fix, no traceback, and nothing half-written.
"""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
from disk_faults import (
    TRACEBACK,
    cli,
    error_document,
    fill,
    leftovers,
    quick_package,
    tmpfs,
    unwritable,
)
from ksw_testsupport import pip_freeze

from kernel_wizard.base.errors import ExitCode
from kernel_wizard.flow.session import SessionServices

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # the wizard's trials run offscreen
STORAGE = int(ExitCode.STORAGE)


def clean_failure(result: subprocess.CompletedProcess[str], code: int, *needles: str) -> str:
    output = result.stdout + result.stderr
    assert TRACEBACK not in output, output
    assert result.returncode == code, f"rc={result.returncode}\n{output}"
    for needle in needles:
        assert needle in output, f"{needle!r} missing from:\n{output}"
    return output


# -- the data folder --------------------------------------------------------------------------


def test_data_folder_is_a_file(tmp_path: Path) -> None:
    """KSW_DATA_DIR is a file → exit 6, names it and KSW_DATA_DIR; a JSON error document"""
    data = tmp_path / "data"
    data.write_text("not a folder\n", encoding="utf-8")
    result = cli("verify", "--json", data=data, build_root=tmp_path / "b")
    clean_failure(result, STORAGE, f"{data} is a file, where a folder should be",
                  "KSW_DATA_DIR")
    document = error_document(result.stdout)
    assert document["exit_code"] == STORAGE and document["command"] == "verify"
    error: Any = document["error"]
    assert error["kind"] == "storage" and error["path"] == str(data)
    assert "KSW_DATA_DIR" in error["next_step"]
    assert data.read_text(encoding="utf-8") == "not a folder\n"  # left as it was


def test_data_folder_below_a_file(tmp_path: Path) -> None:
    """KSW_DATA_DIR=<file>/sub → exit 6, names the file in the way: rename or remove it"""
    blocker = tmp_path / "notes"
    blocker.write_text("x", encoding="utf-8")
    result = cli("verify", data=blocker / "sub", build_root=tmp_path / "b")
    clean_failure(result, STORAGE, f"{blocker} is a file, where a folder of {blocker / 'sub'}",
                  f"Rename or remove the file {blocker}")


def test_data_folder_on_a_read_only_disk(tmp_path: Path) -> None:
    """KSW_DATA_DIR on a read-only disk → exit 6, 'read-only drive', the folder, KSW_DATA_DIR"""
    with unwritable(tmp_path / "ro") as (folder, cause):
        result = cli("verify", data=folder / "data", build_root=tmp_path / "b")
        clean_failure(result, STORAGE, str(folder / "data"), cause, "KSW_DATA_DIR")
        assert not (folder / "data").exists()


def test_full_disk_while_staging_the_wheel(tmp_path: Path, scratch_torch_env: Path,
                                           marker: str) -> None:
    """disk full while staging → exit 6, 'is full (N MB free)', no 'build again', env unchanged"""
    before = pip_freeze(scratch_torch_env)
    source = quick_package(tmp_path / "src", data_bytes=600_000)
    with tmpfs(tmp_path / "disk", size="1m") as disk:
        data = disk / f"data-{marker}"
        result = cli("build", "--kernel", "probe", "--python", str(scratch_torch_env),
                     "--source", str(source), "--yes", data=data, build_root=tmp_path / "b")
        output = clean_failure(result, STORAGE, "Could not unpack the built wheel",
                               f"the disk holding {data / 'staging'}", "MB free)",
                               "Free space on that disk", "KSW_DATA_DIR")
        assert "build again" not in output.lower()
        assert not list((data / "staging").glob("verify-*"))  # no half-unpacked copy
        assert leftovers(marker) == []
    assert pip_freeze(scratch_torch_env) == before


def test_full_disk_for_the_build_log(tmp_path: Path, torch_venv: Path, marker: str) -> None:
    """data folder's disk full at the build log → exit 6, names the log; no empty log left"""
    source = quick_package(tmp_path / f"src-{marker}")
    with tmpfs(tmp_path / "disk", size="1m") as disk:
        (disk / "data").mkdir()
        fill(disk)
        result = cli("build", "--kernel", "probe", "--python", str(torch_venv), "--source",
                     str(source), "--no-install", data=disk / "data",
                     build_root=tmp_path / "b")
        assert leftovers(marker) == []
        clean_failure(result, STORAGE, "Could not write the build log: the disk holding "
                      f"{disk / 'data' / 'logs'}", "is full (0 MB free)", "KSW_DATA_DIR")
        assert not [p for p in (disk / "data" / "logs").iterdir() if p.stat().st_size == 0]
        assert not list((disk / "data" / "staging").iterdir())


def test_full_disk_during_the_build(tmp_path: Path, torch_venv: Path, marker: str) -> None:
    """disk of the build folder full during setup.py → exit 6, 'The build stopped: the disk
    holding <the build's copy of the source> is full'; the user's own folder is untouched"""
    data = tmp_path / "data"
    source = quick_package(tmp_path / f"src-{marker}", data_bytes=600_000)
    before = sorted(p.relative_to(source) for p in source.rglob("*"))
    with tmpfs(tmp_path / "disk", size="1m") as disk:  # the copy fits, build/ does not
        result = cli("build", "--kernel", "probe", "--python", str(torch_venv), "--source",
                     str(source), "--no-install", "--json", data=data, build_root=disk / "b")
        output = clean_failure(result, STORAGE,
                               f"The build stopped: the disk holding {disk / 'b'}",
                               "Free space on that disk")
        document = json.loads(result.stdout)
        assert document["status"] == "failed"
        # what the log shows agrees with the verdict: a full disk, nothing else; the only
        # "build again" is the disk-full advice, after freeing space
        assert {d["id"] for d in document["diagnoses"]} <= {"disk-full"}
        for line in output.lower().splitlines():
            assert "build again" not in line or "free disk space" in line, line
        assert document["disk_full"].startswith(str(disk / "b" / f"w-src-{marker}-"))
        assert leftovers(marker) == []
    assert sorted(p.relative_to(source) for p in source.rglob("*")) == before


# -- detect --record --------------------------------------------------------------------------


def test_record_into_a_file_where_a_folder_should_be(tmp_path: Path) -> None:
    """detect --record <file>/x.json → exit 6, names the file in the way, another --record"""
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    result = cli("detect", "--record", str(blocker / "x.json"), data=tmp_path / "data",
                 build_root=tmp_path / "b")
    clean_failure(result, STORAGE, "Could not save the NVML recording",
                  f"{blocker} is a file, where a folder", "choose another file with --record")


def test_record_onto_an_existing_folder(tmp_path: Path) -> None:
    """detect --record <folder> → exit 6, 'is a folder, where a file should be', untouched"""
    folder = tmp_path / "recordings"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine", encoding="utf-8")
    result = cli("detect", "--record", str(folder), data=tmp_path / "data",
                 build_root=tmp_path / "b")
    clean_failure(result, STORAGE, f"{folder} is a folder, where a file should be")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["recordings"]  # no temporary file
    assert sorted(p.name for p in folder.iterdir()) == ["keep.txt"]


def test_record_with_a_name_too_long(tmp_path: Path) -> None:
    """detect --record, 300-character name → exit 6, 'too long (300 characters; … 255)'"""
    target = tmp_path / ("n" * 295 + ".json")
    result = cli("detect", "--record", str(target), data=tmp_path / "data",
                 build_root=tmp_path / "b")
    clean_failure(result, STORAGE, "is too long (300 characters; this drive allows 255)",
                  "Use a shorter folder or file name")
    assert list(tmp_path.iterdir()) == []


def test_record_on_a_read_only_disk(tmp_path: Path) -> None:
    """detect --record onto a read-only disk → exit 6, 'read-only drive', nothing written"""
    with unwritable(tmp_path / "ro") as (folder, cause):
        result = cli("detect", "--record", str(folder / "rec.json"), data=tmp_path / "data",
                     build_root=tmp_path / "b")
        clean_failure(result, STORAGE, str(folder), cause)
        assert list(folder.iterdir()) == []


def test_record_past_the_file_size_limit(tmp_path: Path) -> None:
    """detect --record, RLIMIT_FSIZE=64 → exit 6, 'grew larger than …', no partial file"""
    target = tmp_path / "rec.json"
    result = cli("detect", "--record", str(target), data=tmp_path / "data",
                 build_root=tmp_path / "b", fsize_limit=64)
    clean_failure(result, STORAGE, "Could not save the NVML recording",
                  "grew larger than this drive or this session allows")
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name != "data"] == []


# -- long names -------------------------------------------------------------------------------


def test_source_archive_with_a_243_character_name(tmp_path: Path, torch_venv: Path,
                                                  marker: str) -> None:
    """--source <243-character name>.tar.gz → extracted under a short name and built, exit 0"""
    tree = quick_package(tmp_path / "pkg" / "ksw-quick")
    archive = tmp_path / ("s" * 243 + ".tar.gz")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tree, arcname="ksw-quick")
    root = tmp_path / "b"
    result = cli("build", "--kernel", "probe", "--python", str(torch_venv), "--source",
                 str(archive), "--skip-verify", "--no-install",
                 data=tmp_path / f"data-{marker}", build_root=root)
    clean_failure(result, 0, "Built ksw_quick-0.0.1")
    assert leftovers(marker) == []
    extracted = [p for p in (root / "src").iterdir() if not p.name.startswith(".")]
    assert len(extracted) == 1 and len(extracted[0].name) <= 100, extracted


# -- --json error documents and usage ---------------------------------------------------------


@pytest.mark.parametrize(("args", "code", "kind", "words"), [
    (["verify", "--json"], 1, "error", "no kernel has been installed"),
    (["kernels", "--json", "--python", "/nonexistent/python"], 3, "environment_probe",
     "/nonexistent/python"),
    (["detect", "--json", "--replay", "/nonexistent/rec.json"], 4, "hardware",
     "Could not read the NVML recording"),
    (["build", "--json", "--bogus"], 2, "usage", "unrecognized arguments: --bogus"),
])
def test_json_error_document(tmp_path: Path, args: list[str], code: int, kind: str,
                             words: str) -> None:
    """an error with --json → one ksw.error/1 document on stdout: exit code, kind, message"""
    result = cli(*args, data=tmp_path / "data", build_root=tmp_path / "b")
    clean_failure(result, code, words)
    document = error_document(result.stdout)
    error: Any = document["error"]
    assert document["exit_code"] == code and error["kind"] == kind
    assert words in error["message"] + (error["detail"] or "")
    assert error["next_step"]


# -- the wizard's window ----------------------------------------------------------------------


def test_gui_with_a_data_folder_that_is_a_file(qtbot: Any, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """wizard starts, KSW_DATA_DIR is a file → dialog with the file and the fix, exit code 6"""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.wizard import run_gui

    data = tmp_path / "data"
    data.write_text("x", encoding="utf-8")
    monkeypatch.setenv("KSW_DATA_DIR", str(data))
    seen: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, answer)
            return
        seen.append(f"{box.text()}\n{box.informativeText()}")
        box.accept()

    QTimer.singleShot(50, answer)
    assert run_gui() == STORAGE
    assert seen and f"{data} is a file, where a folder should be" in seen[0]
    assert "KSW_DATA_DIR" in seen[0]


@pytest.mark.qt_no_exception_capture
def test_gui_page_action_hitting_a_disk_error(qtbot: Any, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """OSError in a page action → a dialog with the path and the fix; the wizard goes on"""
    import sys

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox

    from app.error_dialog import install_excepthook
    from app.wizard import InstallerWizard

    wizard = InstallerWizard(SessionServices(discover=lambda: []))
    qtbot.addWidget(wizard)
    previous = install_excepthook(wizard)
    try:
        wizard.show()
        data = tmp_path / "gone"
        data.write_text("x", encoding="utf-8")
        monkeypatch.setenv("KSW_DATA_DIR", str(data))
        QTimer.singleShot(0, wizard.restart)  # Welcome asks the data folder what is installed
        qtbot.waitUntil(lambda: any(isinstance(w, QMessageBox) and w.isVisible()
                                    for w in wizard.findChildren(QMessageBox)), timeout=5000)
        box = next(w for w in wizard.findChildren(QMessageBox) if w.isVisible())
        assert f"{data} is a file, where a folder should be" in box.text()
        assert "KSW_DATA_DIR" in box.informativeText()
        assert wizard.isVisible()
        box.accept()
    finally:
        sys.excepthook = previous
    assert os.environ["KSW_DATA_DIR"] == str(data)


# -- one exit code per kind of mistake ---------------------------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    (["build", "--json", "--kernel", "nope"], "There is no kernel 'nope' in the catalog."),
    (["build", "--json", "--version", "9.9.9"], "has no version '9.9.9'"),
    (["build", "--plan-only", "--json", "--kernel", "probe", "--version", "0.0.9"],
     "has no version '0.0.9'"),
])
def test_a_kernel_or_version_not_in_the_catalog_is_a_usage_error(
        tmp_path: Path, args: list[str], words: str) -> None:
    """unknown --kernel / --version → exit 2, like an unknown fix name or bad --gpus (was 1)"""
    result = cli(*args, data=tmp_path / "data", build_root=tmp_path / "b")
    clean_failure(result, int(ExitCode.USAGE), words)
    document = error_document(result.stdout)
    assert document["exit_code"] == int(ExitCode.USAGE)
    assert document["error"]["kind"] == "unknown_choice"  # type: ignore[index]


@pytest.mark.slow
def test_rollback_on_a_full_disk_changes_nothing(tmp_path: Path,
                                                 scratch_torch_env: Path) -> None:
    """roll-back with the data folder's disk full → exit 6 before pip uninstalls anything: the
    kernel and its record stay (was: uninstalled, then "Could not save", the record still
    listing what was gone)"""
    from ksw_state_support import padded_wheel

    from kernel_wizard.install.installer import install_wheel

    with tmpfs(tmp_path / "data", size="2m") as data:
        os.environ["KSW_DATA_DIR"] = str(data)  # the test's own: reset by the autouse fixture
        install_wheel(scratch_torch_env, padded_wheel(tmp_path, "correct", "0.1.0", pad=0),
                      kernel="probe", verification={"status": "pass", "report": "/r.json"})
        before = pip_freeze(scratch_torch_env)
        fill(data)
        result = cli("rollback", "--yes", data=data, build_root=tmp_path / "b")
        output = result.stdout + result.stderr
        assert result.returncode == int(ExitCode.STORAGE), output
        assert "Could not save" in output and TRACEBACK not in output
        assert pip_freeze(scratch_torch_env) == before  # still installed
        records = json.loads((data / "installs.json").read_text("utf-8"))
        assert [r["version"] for r in records] == ["0.1.0"]
        assert not list((data / "journal").glob("*.json"))


def test_rollback_that_cannot_take_its_lock_is_a_storage_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """rollback, the environment's lock file cannot be made (a folder in its place) → exit 6
    naming the path, not 1; the install record is kept"""
    from kernel_wizard.base.paths import env_lock_path

    data = tmp_path / "data"
    env = tmp_path / "env" / "bin" / "python"
    records = [{"name": "ksw-probe-kernel", "version": "0.1.0", "python": str(env),
                "kernel": "probe", "adapter": "probe", "wheel": None, "backup": None,
                "installed": "2026-11-20 10:00:00", "verification": {"status": "pass"}}]
    data.mkdir()
    (data / "installs.json").write_text(json.dumps(records), encoding="utf-8")
    monkeypatch.setenv("KSW_DATA_DIR", str(data))
    blocker = env_lock_path(env)
    blocker.mkdir(parents=True)  # where the lock file goes
    result = cli("rollback", "--yes", data=data, build_root=tmp_path / "b")
    output = clean_failure(result, STORAGE, str(blocker))
    assert "Could not take the lock that keeps two runs of the wizard apart" in output, output
    assert json.loads((data / "installs.json").read_text(encoding="utf-8")) == records


def test_help_names_every_exit_code(tmp_path: Path) -> None:
    """--help lists 129 (terminal closed) and 143 (SIGTERM) with the others"""
    result = cli("--help", data=tmp_path / "data", build_root=tmp_path / "b")
    assert result.returncode == 0
    for code in ("0", "1", "2", "3", "5", "6", "129", "130", "143"):
        assert f"\n  {code:<4} " in result.stdout, (code, result.stdout)
