"""Damaged verification reports are skipped (never crash, never count as a pass), and a second
build of a bundled source at the same time gets a folder of its own instead of deleting the
first one's (a real second process holds the first folder's lock)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from kernel_wizard.base.paths import build_lock_path
from kernel_wizard.base.resources import resource_path
from kernel_wizard.build.run import LogLine
from kernel_wizard.build.worktree import stage_source
from kernel_wizard.catalog import load_catalog
from kernel_wizard.flow.pipeline import KernelChoice, build_slot
from kernel_wizard.verify import VerifyReport, VerifyStatus
from kernel_wizard.verify.history import history, last_passing, load_saved, save_report

REPO = Path(__file__).resolve().parents[2]


def test_a_report_that_is_a_list_or_truncated_is_skipped(tmp_path: Path) -> None:
    passing = VerifyReport("probe", VerifyStatus.PASS, ())
    good = save_report(passing, kernel="probe", python="/env/python", stage="staged",
                       root=tmp_path)
    for name, text in (("20990101-000000-probe", "[1, 2]"),
                       ("20990101-000001-probe", '{"schema": "ksw.verify/1", "stat'),
                       ("20990101-000002-probe", '{"ksw_meta": [], "status": "pass"}')):
        (tmp_path / name).mkdir()
        (tmp_path / name / "report.json").write_text(text, encoding="utf-8")
        assert load_saved(tmp_path / name) is None  # no AttributeError, no KeyError
    assert [s.folder for s in history(root=tmp_path)] == [good.folder]
    found = last_passing("probe", "/env/python", root=tmp_path)
    assert found is not None and found.folder == good.folder


HOLD = """
import sys, time
from pathlib import Path
from kernel_wizard.base.locks import hold
with hold(Path(sys.argv[1]), "building Probe kernel 0.1.0"):
    print("held", flush=True)
    time.sleep(120)
"""


def test_a_second_bundled_build_gets_its_own_folder(tmp_path: Path) -> None:
    recipe = load_catalog().get("probe")
    choice = KernelChoice.default(recipe, recipe.newest)
    first = subprocess.Popen([sys.executable, "-c", HOLD,
                              str(build_lock_path(f"bundled:{recipe.id}:1"))], cwd=REPO,
                             text=True, stdout=subprocess.PIPE,
                             env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "held"
        said: list[object] = []
        with build_slot(choice, said.append, threading.Event()) as slot:
            assert slot == 2
            source = resource_path(recipe.source.path or "")
            settings = {"python": "/env/bin/python"}  # the same settings: only the slot differs
            mine = stage_source(source, tmp_path, settings, slot).path
            theirs = stage_source(source, tmp_path, settings, 1).path
            (theirs / "build").mkdir()  # the first build's work in progress
            again = stage_source(source, tmp_path, settings, slot).path  # mine only
            assert again == mine != theirs and (theirs / "build").is_dir()
            # other settings: a fresh copy replaces mine, never the first build's
            other = stage_source(source, tmp_path, {"python": "/other/bin/python"}, slot).path
            assert other != mine and not mine.exists() and (theirs / "build").is_dir()
        lines = [e.text for e in said if isinstance(e, LogLine)]
        assert len(lines) == 1 and f"process {first.pid}" in lines[0]
        assert "this one builds in a folder of its own" in lines[0]
    finally:
        first.kill()
        first.wait()
    said.clear()
    with build_slot(choice, said.append, threading.Event()) as slot:
        assert slot == 1  # alone again: the usual folder; the killed run's lock is taken over
    (line,) = [e.text for e in said if isinstance(e, LogLine)]
    assert f"left by process {first.pid}" in line and "no longer running" in line


def test_only_the_stash_folders_of_the_kernel_are_cleaned(tmp_path: Path) -> None:
    from kernel_wizard.install.installer import clean_pip_stash

    site = tmp_path / "site-packages"
    for name in ("~sw_probe", "~-w_probe", "~sw_probe_kernel-0.1.0.dist-info",  # pip's stash
                 "~orch", "~ther_pkg", "~e", "ksw_probe", "numpy"):  # someone else's, and real ones
        (site / name).mkdir(parents=True)
    removed = clean_pip_stash(site, {"ksw_probe", "ksw_probe_kernel-0.1.0.dist-info"})
    assert sorted(p.name for p in removed) == ["~-w_probe", "~sw_probe",
                                               "~sw_probe_kernel-0.1.0.dist-info"]
    assert sorted(p.name for p in site.iterdir()) == ["ksw_probe", "numpy", "~e", "~orch",
                                                      "~ther_pkg"]
