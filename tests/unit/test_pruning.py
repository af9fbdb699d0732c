"""Housekeeping rules on real folders: what a build's pruning may touch, and what it never does."""

from __future__ import annotations

import os
import time
from pathlib import Path

from kernel_wizard.build.worktree import stage_source
from kernel_wizard.install.housekeeping import Kind, plan_clean, prune_after_build


def copies(root: Path, name: str, count: int) -> list[Path]:
    """Build-root copies of a bundled source, oldest first (as repeated builds leave them)."""
    made = []
    for index in range(count):
        folder = root / f"{name}-{index:012x}"
        (folder / "build").mkdir(parents=True)
        (folder / "build" / "x.o").write_bytes(b"\0" * 1000)
        stamp = time.time() - (count - index) * 3600
        os.utime(folder, (stamp, stamp))
        made.append(folder)
    return made


def test_pruning_after_a_build_touches_only_that_kernels_copies(tmp_path: Path) -> None:
    root = tmp_path / "b"
    probe = copies(root, "probe_kernel", 5)
    other = copies(root, "other_kernel", 5)
    result = prune_after_build("probe", [probe[0]], build_root=root)  # the build used the oldest
    assert result is not None and not result.failed
    assert sorted(p.name for p in root.iterdir() if p.name.startswith("probe_kernel")) == \
        sorted(p.name for p in (probe[0], probe[2], probe[3], probe[4]))
    assert all(p.exists() for p in other)  # another kernel's copies: not this build's business


def test_young_temporary_folders_stay_old_ones_go(tmp_path: Path) -> None:
    root = tmp_path / "b"
    young = root / "src" / ".ksw-tmp-flash-attention-v2.8.3-abc"
    old = root / "src" / ".ksw-tmp-flash-attention-v2.8.2-def"
    for folder in (young, old):
        folder.mkdir(parents=True)
    two_days_ago = time.time() - 2 * 24 * 3600
    os.utime(old, (two_days_ago, two_days_ago))
    plan = plan_clean(keep=0, build_root=root)
    assert [i.path for i in plan.remove if i.kind is Kind.TEMPORARY] == [old]
    assert [k.item.path for k in plan.protected] == [young]


def test_a_bundled_source_with_a_long_name_gets_a_short_build_copy(tmp_path: Path) -> None:
    source = tmp_path / ("p" * 243)
    source.mkdir()
    (source / "setup.py").write_text("print('hi')\n", encoding="utf-8")
    copy = stage_source(source, tmp_path / "b", {}).path
    assert len(copy.name) <= 80 and (copy / "setup.py").is_file()
