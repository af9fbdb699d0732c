"""Fault trials: housekeeping (issue 12, item 10): old builds pile up, some must never go.

Real staging folders, logs, build-root trees, install records and running processes; the real
CLI (``clean``, ``build``) or the real wizard offscreen. Each trial asserts the exit code, what
was removed and what was kept (with the reason), the sizes reported, and no traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from disk_faults import (
    TRACEBACK,
    cli,
    install_record,
    leftovers,
    old_builds,
    quick_package,
    tmpfs,
)

from kernel_wizard.base.errors import ExitCode

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # the wizard's trials run offscreen
STAMPS = ["20200101-000001", "20200102-000002", "20200103-000003", "20200104-000004",
          "20200105-000005"]


def ok(result: subprocess.CompletedProcess[str], code: int = 0) -> str:
    output = result.stdout + result.stderr
    assert TRACEBACK not in output, output
    assert result.returncode == code, f"rc={result.returncode}\n{output}"
    return output


def staged(data: Path) -> list[str]:
    return sorted(p.name for p in (data / "staging").iterdir())


def test_clean_dry_run_removes_nothing(tmp_path: Path) -> None:
    """clean --dry-run, 5 old builds → lists the 2 oldest with sizes, removes nothing"""
    data = tmp_path / "data"
    old_builds(data, "probe", STAMPS, size=300_000)
    before = staged(data)
    output = ok(cli("clean", "--dry-run", data=data, build_root=tmp_path / "b"))
    assert "Would remove (all but the last 3 builds of each kernel):" in output
    assert output.count("build output: ") == 2 and "probe-20200101-000001" in output
    assert "293 KB" in output  # 300,000 bytes each
    assert "Would free 586 KB; nothing was removed" in output
    assert staged(data) == before


def test_clean_keeps_the_last_three_and_what_is_installed(tmp_path: Path) -> None:
    """clean, 5 old builds, oldest installed → removes 1, keeps last 3 + installed; size freed"""
    data = tmp_path / "data"
    folders = old_builds(data, "probe", STAMPS, size=200_000)
    old_builds(data, "flashmla", STAMPS[:2])  # another kernel: its own last three
    install_record(data, next(folders[0].glob("*.whl")))
    output = ok(cli("clean", data=data, build_root=tmp_path / "b"))
    assert staged(data) == ["flashmla-20200101-000001", "flashmla-20200102-000002",
                            "probe-20200101-000001", "probe-20200103-000003",
                            "probe-20200104-000004", "probe-20200105-000005"]
    assert f"kept: {folders[0]} (an install record points to it)" in output
    assert "Freed 195 KB." in output  # probe-20200102 only; the installed one stays


def test_clean_all_spares_a_folder_in_use(tmp_path: Path) -> None:
    """clean --all, a program works in a build folder → that one kept, every other removed"""
    data, root = tmp_path / "data", tmp_path / "b"
    folders = old_builds(data, "probe", STAMPS[:2])
    copy = root / "probe_kernel-0123456789ab"
    (copy / "build").mkdir(parents=True)
    (copy / "build" / "x.o").write_bytes(os.urandom(50_000))
    (root / "src" / "flash-attention-v2.8.3").mkdir(parents=True)
    busy = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                            cwd=folders[1])
    try:
        output = ok(cli("clean", "--all", data=data, build_root=root))
    finally:
        busy.kill()
        busy.wait()
    assert staged(data) == [folders[1].name]
    assert f"kept: {folders[1]} (a running program uses it)" in output
    assert not copy.exists() and not (root / "src" / "flash-attention-v2.8.3").exists()


def test_clean_json_reports_sizes(tmp_path: Path) -> None:
    """clean --all --json → a ksw.clean/1 document whose freed_bytes is what left the disk"""
    data = tmp_path / "data"
    old_builds(data, "probe", STAMPS[:2], size=100_000)
    stale = tmp_path / "b" / "src" / ".ksw-tmp-flash-attention-v2.8.3-x1"
    stale.mkdir(parents=True)
    (stale / "part").write_bytes(os.urandom(10_000))
    day_ago = time.time() - 2 * 24 * 3600
    os.utime(stale, (day_ago, day_ago))
    result = cli("clean", "--all", "--json", data=data, build_root=tmp_path / "b")
    ok(result)
    document = json.loads(result.stdout)
    assert document["schema"] == "ksw.clean/1" and document["status"] == "ok"
    assert document["freed_bytes"] == sum(item["bytes"] for item in document["removed"])
    kinds = sorted(item["kind"] for item in document["removed"])
    assert kinds == ["build", "build", "temporary"]
    assert document["freed_bytes"] >= 2 * 100_000 + 10_000
    assert not stale.exists() and staged(data) == []


def test_clean_with_damaged_install_records(tmp_path: Path) -> None:
    """installs.json damaged → clean --all keeps every staged build; the file kept aside"""
    data = tmp_path / "data"
    old_builds(data, "probe", STAMPS[:4])
    damaged = data / "installs.json"
    damaged.write_bytes(b'[{"name": "ksw-probe-kernel", "wheel": "/x/y.whl"')  # cut short
    output = ok(cli("clean", "--all", data=data, build_root=tmp_path / "b"))
    assert len(staged(data)) == 4
    assert output.count("installs.json is damaged: it may point here") == 4
    # the start set the damaged file aside (said so) and kept its bytes
    kept = list(data.glob("installs.json.damaged*"))
    assert len(kept) == 1 and "installs.json" in output
    assert kept[0].read_bytes() == b'[{"name": "ksw-probe-kernel", "wheel": "/x/y.whl"'


def test_clean_when_a_folder_cannot_be_removed(tmp_path: Path) -> None:
    """an old build cannot be removed (a mount inside) → exit 6 naming it; the others go"""
    data = tmp_path / "data"
    folders = old_builds(data, "probe", STAMPS, size=10_000)
    with tmpfs(folders[0] / "mounted", size="64k"):
        result = cli("clean", data=data, build_root=tmp_path / "b")
        output = ok(result, int(ExitCode.STORAGE))
        assert f"could not remove {folders[0]}" in output
        assert "1 of 2 old items could not be removed" in output
        assert not folders[1].exists()  # the other old one went
        assert folders[0].exists()


def test_old_builds_pruned_after_a_build(tmp_path: Path, torch_venv: Path, marker: str) -> None:
    """a build after 5 earlier ones → the last 3 builds remain, plus the installed one"""
    data = tmp_path / "data"
    folders = old_builds(data, "probe", STAMPS)
    install_record(data, next(folders[0].glob("*.whl")))
    other = old_builds(data, "flashmla", STAMPS[:4])  # another kernel: untouched by a probe build
    source = quick_package(tmp_path / f"src-{marker}")
    ok(cli("build", "--kernel", "probe", "--python", str(torch_venv), "--source", str(source),
           "--skip-verify", "--no-install", data=data, build_root=tmp_path / "b"))
    assert leftovers(marker) == []
    names = staged(data)
    probes = [n for n in names if n.startswith("probe-")]
    assert len(probes) == 4, names  # the new one, 20200105, 20200104, and the installed one
    assert {folders[0].name, folders[3].name, folders[4].name} <= set(probes)
    assert all(f.exists() for f in other)


def test_gui_free_space_asks_then_frees(qtbot: Any, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Done page 'Free space…' → says the size, asks, removes on Yes; installed build stays"""
    from PySide6.QtWidgets import QMessageBox

    from app.widgets.free_space import FreeSpaceButton

    data = tmp_path / "data"
    monkeypatch.setenv("KSW_DATA_DIR", str(data))
    monkeypatch.setenv("KSW_BUILD_ROOT", str(tmp_path / "b"))
    folders = old_builds(data, "probe", STAMPS[:3], size=2_000_000)
    install_record(data, next(folders[2].glob("*.whl")))
    button = FreeSpaceButton()
    qtbot.addWidget(button)
    button.show()
    button.click()
    qtbot.waitUntil(lambda: button.dialog is not None and button.dialog.isVisible(),
                    timeout=10_000)
    box = button.dialog
    assert box is not None
    assert "take 3.8 MB. Remove them?" in box.text()
    assert "Installed kernels, their backups and the verification reports are kept" \
        in box.informativeText()
    assert staged(data) == [f.name for f in folders]  # nothing removed before the answer
    with qtbot.waitSignal(button.finished, timeout=10_000) as done:
        box.button(QMessageBox.StandardButton.Yes).click()
    assert done.args is not None and done.args[0] is not None
    assert staged(data) == [folders[2].name]
    qtbot.waitUntil(lambda: button.dialog is not box and button.dialog is not None)
    assert button.dialog is not None and "Freed 3.8 MB." in button.dialog.text()
