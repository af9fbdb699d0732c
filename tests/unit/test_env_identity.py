"""One environment, one identity, however its path was typed (issue: installing with
``.venv/bin/python`` and again with ``.venv/../.venv/bin/python`` made two records, and rolling
back both left the module importable while ``installs`` said nothing was installed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from kernel_wizard.base.paths import env_identity, env_key, env_lock_path, same_env
from kernel_wizard.install.records import (
    InstallRecord,
    drop_record,
    find_record,
    load_installs,
    put_record,
)
from kernel_wizard.machine.environment import inspect_python


def spellings(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A venv-like folder's python typed three ways: plainly, through '..', through a link."""
    bin_dir = tmp_path / "env" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.symlink_to(sys.executable)  # a venv's python is a link to the base interpreter
    (tmp_path / "link").symlink_to(tmp_path / "env", target_is_directory=True)
    return python, tmp_path / "env" / ".." / "env" / "bin" / "python", \
        tmp_path / "link" / "bin" / "python"


def test_one_interpreter_has_one_identity(tmp_path: Path) -> None:
    plain, dotted, linked = spellings(tmp_path)
    assert env_identity(dotted) == env_identity(plain) == plain  # '..' gone, shown as typed
    assert env_identity(linked) == linked  # a linked folder stays as the user knows it
    assert env_key(plain) == env_key(dotted) == env_key(linked)  # ... yet one environment
    assert same_env(dotted, linked)
    assert env_lock_path(dotted) == env_lock_path(plain) == env_lock_path(linked)
    # the interpreter itself is not resolved: a venv is not its base Python
    assert env_identity(plain) != Path(os.path.realpath(sys.executable))
    assert not same_env(plain, sys.executable)


def test_windows_long_path_prefix_is_not_part_of_the_identity() -> None:
    typed = "\\\\?\\" + os.path.join(os.path.sep, "opt", "env", "python")
    assert env_key(typed) == env_key(os.path.join(os.path.sep, "opt", "env", "python"))


def test_inspecting_a_dotted_path_names_the_environment_once(tmp_path: Path) -> None:
    _, dotted, _ = spellings(tmp_path)
    env = inspect_python(dotted)
    assert env.executable == tmp_path / "env" / "bin" / "python"
    assert ".." not in env.executable.parts


def test_install_records_of_two_spellings_are_one_record(tmp_path: Path) -> None:
    plain, dotted, linked = spellings(tmp_path)
    put_record(InstallRecord("ksw-probe-kernel", "0.1.0", str(plain)))
    put_record(InstallRecord("ksw-probe-kernel", "0.1.1", str(dotted)))
    records = load_installs()
    assert len(records) == 1 and records[0].version == "0.1.1"
    found = find_record(linked, "ksw-probe-kernel")
    assert found is not None and found.version == "0.1.1"
    drop_record(dotted, "ksw-probe-kernel")
    assert load_installs() == []


def test_python_and_python3_of_one_venv_are_one_candidate(tmp_path: Path) -> None:
    """``detect`` listed the active venv twice (as bin/python and as bin/python3)."""
    from kernel_wizard.machine.environment import _key

    venvs = []
    for name in ("one", "two"):
        bin_dir = tmp_path / name / "bin"
        bin_dir.mkdir(parents=True)
        (tmp_path / name / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
        for exe in ("python", "python3"):
            (bin_dir / exe).symlink_to(sys.executable)
        venvs.append(bin_dir)
    assert _key(venvs[0] / "python") == _key(venvs[0] / "python3")
    assert _key(venvs[0] / "python") != _key(venvs[1] / "python")  # same base, two envs

