"""Environment inspection against real interpreters and real folders."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from kernel_wizard.machine.environment import (
    EnvStatus,
    _env_from_facts,
    _extract_probe_json,
    discover_candidates,
    inspect_python,
)
from kernel_wizard.machine.platforms.linux import LinuxPlatform

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")


def test_cpu_torch_venv(torch_venv: Path) -> None:
    env = inspect_python(torch_venv)
    assert env.status is EnvStatus.CPU_TORCH, env.detail
    assert env.usable
    assert env.torch is not None
    assert env.torch.version.startswith("2.13.0")
    assert env.torch.cuda is None and not env.torch.cuda_available
    assert env.torch.major_minor == "2.13"
    assert env.torch.arch_list == ()
    assert "CPU-only" in env.summary
    assert env.bits == 64
    # the torch venv's own Python (CI makes it from another Python than the one running the
    # tests: KSW_TEST_TORCH_PYTHON)
    version = subprocess.run([str(torch_venv), "-c", "import sys; print('%d%d' % "
                              "sys.version_info[:2])"], capture_output=True, text=True,
                             check=True).stdout.strip()
    assert env.interpreter_tag == f"cp{version}"
    assert env.platform_tag == sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert env.pip_version
    assert env.ninja is not None and Path(env.ninja).name == "ninja"
    assert env.is_venv
    assert "torch" not in sys.modules  # never imported into the wizard's process


def test_venv_without_torch(plain_venv: Path) -> None:
    env = inspect_python(plain_venv)
    assert env.status is EnvStatus.NO_TORCH
    assert env.usable  # the prerequisites page can install torch
    assert env.torch is None
    assert "without PyTorch" in env.summary


def test_python_without_pip_in_a_non_ascii_folder(tmp_path: Path) -> None:
    venv = tmp_path / "Dösen Ordner" / "my env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    env = inspect_python(venv / "bin" / "python")
    assert env.status is EnvStatus.NO_PIP
    assert not env.usable
    assert "ensurepip" in env.hint
    assert env.prefix == venv


def test_torch_that_fails_to_import(tmp_path: Path) -> None:
    venv = tmp_path / "broken"
    # pip comes from the base installation (system site packages): quick to create
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)],
        check=True,
    )
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    package = Path(site) / "torch"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "raise ImportError('libtorch_cpu.so: cannot open shared object file')\n"
    )
    env = inspect_python(venv / "bin" / "python")
    assert env.status is EnvStatus.TORCH_BROKEN
    assert not env.usable
    assert "libtorch_cpu.so" in env.detail
    assert "Reinstall PyTorch" in env.hint


def test_not_an_interpreter(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    assert inspect_python(text).status is EnvStatus.NOT_AN_INTERPRETER
    assert inspect_python(tmp_path).status is EnvStatus.NOT_AN_INTERPRETER
    missing = inspect_python(tmp_path / "nope" / "python")
    assert missing.status is EnvStatus.NOT_AN_INTERPRETER
    assert missing.summary == "There is no file at this path."  # the path is shown beside it
    assert inspect_python(tmp_path).summary == "This is a folder, not a Python."


def test_program_that_is_not_python(tmp_path: Path) -> None:
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\necho 'I am not Python' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    env = inspect_python(fake)
    assert env.status is EnvStatus.BROKEN
    assert "exit code 3" in env.detail and "I am not Python" in env.detail


def test_interpreter_that_hangs(tmp_path: Path) -> None:
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\nexec sleep 30\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    env = inspect_python(fake, timeout=1)
    assert env.status is EnvStatus.BROKEN
    assert "did not answer" in env.summary


def _real_probe_facts(python: Path) -> dict:
    """What the probe printed for a real interpreter (to vary one fact a test can't make)."""
    from kernel_wizard.base.resources import resource_path

    out = subprocess.run(
        [str(python), str(resource_path("probes", "inspect_env.py"))],
        capture_output=True, text=True, check=True,
    ).stdout
    facts = _extract_probe_json(out)
    assert facts is not None
    return facts


def test_32_bit_python_is_refused(plain_venv: Path) -> None:
    # No 32-bit CPython can run on this machine: the real probe output of a 64-bit one is
    # replayed with the one fact a 32-bit interpreter reports differently.
    facts = _real_probe_facts(plain_venv)
    facts["python"]["bits"] = 32
    env = _env_from_facts(plain_venv, facts, 0.0)
    assert env.status is EnvStatus.BITS32
    assert not env.usable
    assert "64-bit" in env.summary and "64-bit" in env.hint


def test_noisy_interpreter_output_is_tolerated() -> None:
    noisy = "UserWarning: something\n@@KSW-ENV-BEGIN@@\n{\"python\": {}}\n@@KSW-ENV-END@@\n"
    assert _extract_probe_json(noisy) == {"python": {}}
    assert _extract_probe_json("no markers here") is None


def test_discovery_finds_active_venv_conda_envs_and_dedups(
    tmp_path: Path, plain_venv: Path, torch_venv: Path
) -> None:
    home = tmp_path / "home"
    (home / ".conda").mkdir(parents=True)
    torch_prefix = torch_venv.parent.parent
    plain_prefix = plain_venv.parent.parent
    (home / ".conda" / "environments.txt").write_text(
        f"{torch_prefix}\n{tmp_path / 'deleted-env'}\n{plain_prefix}\n"
    )
    environ = {"VIRTUAL_ENV": str(plain_prefix), "PATH": os.defpath}
    found = discover_candidates(LinuxPlatform(), environ, home, launched_from=torch_venv)
    paths = [c.path for c in found]
    assert paths[0] == plain_prefix / "bin" / "python"
    assert found[0].origin == "active virtual environment"
    assert paths[1] == torch_venv and found[1].origin == "the Python running this wizard"
    assert len(paths) == len(set(paths))  # the conda list repeats both: no duplicates
    assert not any("deleted-env" in str(p) for p in paths)  # only existing interpreters
