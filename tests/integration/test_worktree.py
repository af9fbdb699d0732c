"""Builds never write into a source folder, the user's or the wizard's own: the build's own copy
(build.worktree, through the pipeline's one copy step ``stage_plan``).

Real folders and files; the last tests build the probe kernel for real: from a local folder,
twice with the same settings (the second reuses the compiled files), checking that the user's
folder is byte-identical after each build (another source or other settings get a fresh copy:
the tests above); and from the source bundled with the wizard, which stays byte-identical
too."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kernel_wizard.base.resources import resource_path
from kernel_wizard.build import worktree
from kernel_wizard.build.plan import BuildRequest, plan_build
from kernel_wizard.build.worktree import SourceChanged, source_change, stage_source
from kernel_wizard.catalog import load_catalog
from kernel_wizard.flow.pipeline import stage_plan
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

REPO = Path(__file__).resolve().parents[2]
H100 = REPO / "tests" / "data" / "nvml" / "h100-driver580.json"
SETTINGS = {"python": "/envs/a/bin/python", "archs": ["9.0"], "env": [["X", "1"]]}


def tree_digest(folder: Path) -> str:
    """Every file's path and bytes, and every folder: 'byte-identical' made checkable."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path.relative_to(folder)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def user_source(root: Path) -> Path:
    source = root / "my kernel ä"
    (source / "csrc").mkdir(parents=True)
    (source / "setup.py").write_text("print('setup')\n", encoding="utf-8")
    (source / "csrc" / "k.cu").write_text("// kernel\n", encoding="utf-8")
    (source / "build").mkdir()  # the user's own earlier build: never copied, never touched
    (source / "build" / "old.o").write_bytes(b"stale object")
    (source / "k.egg-info").mkdir()
    return source


def test_the_copy_leaves_out_build_outputs_and_the_original_alone(tmp_path: Path) -> None:
    source = user_source(tmp_path)
    before = tree_digest(source)
    staged = stage_source(source, tmp_path / "b", SETTINGS)
    assert not staged.reused and staged.path.parent == tmp_path / "b"
    assert (staged.path / "csrc" / "k.cu").read_text(encoding="utf-8") == "// kernel\n"
    assert not (staged.path / "build").exists() and not (staged.path / "k.egg-info").exists()
    (staged.path / "build").mkdir()  # what the build then writes goes into the copy
    (staged.path / "csrc" / "k.cu").write_text("// patched\n", encoding="utf-8")
    assert tree_digest(source) == before
    assert source_change(staged) is None


def test_the_copy_is_reused_only_for_the_same_source_and_settings(tmp_path: Path) -> None:
    source = user_source(tmp_path)
    first = stage_source(source, tmp_path / "b", SETTINGS)
    (first.path / "build").mkdir()
    (first.path / "build" / "k.o").write_bytes(b"object")  # compiled by the first build
    again = stage_source(source, tmp_path / "b", SETTINGS)
    assert again.reused and again.path == first.path
    assert (again.path / "build" / "k.o").exists()  # ninja will skip it: same configuration

    other = stage_source(source, tmp_path / "b", {**SETTINGS, "archs": ["8.0"]})
    assert not other.reused and other.path != first.path
    assert not (other.path / "build").exists()  # nothing compiled for other settings
    assert not first.path.exists()  # one copy per source is kept

    (source / "csrc" / "k.cu").write_text("// changed\n", encoding="utf-8")
    changed = stage_source(source, tmp_path / "b", {**SETTINGS, "archs": ["8.0"]})
    assert not changed.reused and changed.path != other.path
    assert (changed.path / "csrc" / "k.cu").read_text(encoding="utf-8") == "// changed\n"


def test_a_source_removed_or_changed_during_the_build_is_named(tmp_path: Path) -> None:
    source = user_source(tmp_path)
    staged = stage_source(source, tmp_path / "b", SETTINGS)
    (source / "csrc" / "k.cu").write_text("// edited meanwhile\n", encoding="utf-8")
    said = source_change(staged)
    assert said is not None and said.startswith(f"The source folder {source} changed during "
                                                "the build")
    assert "Build again to include the changes." in said
    shutil.rmtree(source)
    said = source_change(staged)
    assert said is not None and f"{source} was removed during the build" in said
    assert str(staged.path) in said and (staged.path / "setup.py").is_file()


def test_a_source_that_changes_while_it_is_copied_leaves_no_half_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = user_source(tmp_path)
    keys = iter(["before", "after"])  # the digest taken after the copy differs
    monkeypatch.setattr(worktree, "content_key", lambda _root: next(keys))
    with pytest.raises(SourceChanged):
        stage_source(source, tmp_path / "b", SETTINGS)
    assert list((tmp_path / "b").iterdir()) == []


def test_the_bundled_probe_is_staged_like_any_source(tmp_path: Path) -> None:
    """plan_build names the probe where it ships; the pipeline's one copy step moves the plan
    into a copy in the build root (pip runs there: build/ and *.egg-info never land in the
    program's own folder, a bundle in Program Files or a read-only mount)."""
    bundled = resource_path("probe_kernel")
    before = tree_digest(bundled)
    probe = load_catalog().get("probe")
    torch = TorchInfo("2.13.0+cpu", None, False, 0, (), True)
    env = PythonEnv(executable=tmp_path / "env" / "bin" / "python", status=EnvStatus.CPU_TORCH,
                    summary="test", torch=torch)
    recording = json.loads(H100.read_text(encoding="utf-8"))
    hardware = detect(lambda: ReplayNvmlApi(recording))
    plan = plan_build(BuildRequest(probe, probe.newest, env, hardware), toolkits=[])
    assert plan.source_dir == bundled
    root = tmp_path / "root"
    staged_plan, staged = stage_plan(plan, env, root, slot=2)
    assert staged.original == bundled and not staged.reused
    assert staged_plan.source_dir == staged.path and staged.path.parent == root
    assert staged.path.name.startswith("w-probe_kernel-s2-")  # a slot's copy of its own
    assert (staged_plan.source_dir / "setup.py").is_file()
    assert staged_plan.cwd == staged_plan.source_dir
    assert staged_plan.command == plan.command and staged_plan.log_path == plan.log_path
    (staged.path / "build").mkdir()  # what the build writes goes into the copy
    assert tree_digest(bundled) == before


@pytest.mark.slow
def test_a_local_source_is_built_in_a_copy_and_never_written_to(
    scratch_torch_env: Path, isolated_wizard_data: Path, tmp_path: Path
) -> None:
    source = tmp_path / "probe source"
    shutil.copytree(REPO / "resources" / "probe_kernel", source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    before = tree_digest(source)
    root = tmp_path / "build root"

    def build() -> dict[str, object]:
        env = dict(os.environ, KSW_DATA_DIR=str(isolated_wizard_data), KSW_BUILD_ROOT=str(root))
        result = subprocess.run(
            [sys.executable, "-m", "app", "--headless", "build", "--kernel", "probe", "--python",
             str(scratch_torch_env), "--source", str(source), "--no-install", "--skip-verify",
             "--json"], cwd=REPO, capture_output=True, text=True, env=env, timeout=900)
        assert result.returncode == 0, result.stdout + result.stderr
        document: dict[str, object] = json.loads(result.stdout)
        return document

    first = build()
    assert tree_digest(source) == before  # byte-identical
    cwd = Path(str(first["plan"]["cwd"]))  # type: ignore[index]
    assert cwd.parent == root and cwd.name.startswith("w-probe source-")
    log = Path(str(first["log"])).read_text(encoding="utf-8")
    assert "building in a fresh copy of the source" in log
    assert first["units"] >= 1  # type: ignore[operator]

    second = build()  # the same source and settings: the compiled files are reused
    log = Path(str(second["log"])).read_text(encoding="utf-8")
    assert "the copy of an earlier build with the same source and settings" in log
    assert second["plan"]["cwd"] == first["plan"]["cwd"]  # type: ignore[index]
    assert tree_digest(source) == before

    assert not (source / "build").exists() and not list(source.glob("*.egg-info"))


@pytest.mark.slow
def test_a_bundled_probe_build_leaves_the_wizards_own_folder_alone(
    scratch_torch_env: Path, isolated_wizard_data: Path, tmp_path: Path
) -> None:
    """A probe build through the session (the headless build command) runs in the build
    root's copy; resources/probe_kernel stays byte for byte as it ships."""
    bundled = REPO / "resources" / "probe_kernel"
    before = tree_digest(bundled)
    root = tmp_path / "build root"
    env = dict(os.environ, KSW_DATA_DIR=str(isolated_wizard_data), KSW_BUILD_ROOT=str(root))
    result = subprocess.run(
        [sys.executable, "-m", "app", "--headless", "build", "--kernel", "probe", "--python",
         str(scratch_torch_env), "--no-install", "--skip-verify", "--json"], cwd=REPO,
        capture_output=True, text=True, env=env, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    document = json.loads(result.stdout)
    cwd = Path(str(document["plan"]["cwd"]))
    assert cwd.parent == root and cwd.name.startswith("w-probe_kernel-")
    assert (cwd / "build").is_dir()  # the compile happened in the copy
    log = Path(str(document["log"])).read_text(encoding="utf-8")
    assert "building in a fresh copy of the source" in log
    assert tree_digest(bundled) == before
    assert not (bundled / "build").exists() and not list(bundled.glob("*.egg-info"))
