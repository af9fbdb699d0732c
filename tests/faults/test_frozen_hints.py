"""The bundled program names itself in its hints (issue 24): a person who unpacked the bundle has
no ``python -m app``, so every command the CLI tells them to run starts with the bundle's console
program; from source, with ``python -m app``.

The real CLI runs in a subprocess as the frozen program would: ``sys.frozen`` set and
``sys.executable`` the bundle's program — here a stand-in launcher (``kernel-setup-wizard``, with
``kernel-setup-wizard-cli`` beside it, as installer.spec lays them out) in a folder whose name has
spaces, which starts the wizard from source (so that what the frozen program starts itself, the
watchdog, runs too). ``kernel_wizard.base.advice.program`` is also checked directly, with
``sys.frozen``/``sys.executable`` monkeypatched.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ksw_faults import REPO, cli_env, run_cli

from app.__main__ import USAGE_ROWS
from kernel_wizard.base import advice
from kernel_wizard.base.statefile import write_json

FROZEN = """
import sys
sys.frozen = True  # as PyInstaller's bootloader sets it
sys.executable = sys.argv.pop(1)
from app.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture()
def bundle(tmp_path: Path) -> Path:
    """A bundle folder (with spaces) holding the stand-in program and its console twin."""
    folder = tmp_path / "Kernel Setup Wizard"
    folder.mkdir()
    program = folder / "kernel-setup-wizard"
    program.write_text(f'#!/bin/sh\ncd "{REPO}" && exec "{sys.executable}" -m app "$@"\n',
                       encoding="utf-8")
    program.chmod(0o755)
    (folder / "kernel-setup-wizard-cli").symlink_to(program.name)
    return program


def frozen_cli(program: Path, *args: str, data: Path,
               **extra: str) -> subprocess.CompletedProcess[str]:
    """The headless CLI as the frozen program runs it (standard input empty)."""
    return subprocess.run([sys.executable, "-c", FROZEN, str(program), "--headless", *args],
                          cwd=REPO, capture_output=True, text=True, env=cli_env(data, **extra),
                          timeout=300, input="")


def record(python: Path) -> dict[str, object]:
    return {"name": "ksw-probe-kernel", "version": "0.1.0", "python": str(python),
            "kernel": "probe", "adapter": "probe", "wheel": None, "backup": None,
            "installed": "2026-11-20 10:00:00", "verification": {"status": "pass"}}


def test_frozen_hints_name_the_bundles_program(tmp_path: Path, bundle: Path,
                                               plain_venv: Path) -> None:
    """frozen: rollback, check, a refusal without --yes, --help → name the bundle's console
    program (its path, quoted), never 'python -m app'"""
    data = tmp_path / "data"
    console = f'"{bundle.parent / "kernel-setup-wizard-cli"}" --headless'
    nothing = frozen_cli(bundle, "rollback", data=data)
    assert nothing.returncode == 1
    assert f"{console} installs" in nothing.stderr, nothing.stderr

    checked = frozen_cli(bundle, "check", "--python", str(plain_venv), data=data)
    assert f"run: {console} fix python-env" in checked.stdout, checked.stdout

    write_json(data / "installs.json", [record(tmp_path / "env" / "bin" / "python")])
    refused = frozen_cli(bundle, "rollback", "--kernel", "probe", data=data)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert f"{console} rollback --kernel probe --yes" in refused.stderr, refused.stderr

    usage = frozen_cli(bundle, "--help", data=data).stdout
    assert usage.startswith(f"usage: {console}"), usage
    for result in (nothing, checked, refused):
        assert "python -m app" not in result.stdout + result.stderr
        assert "Traceback" not in result.stdout + result.stderr


def test_frozen_program_found_on_path_is_named_alone(tmp_path: Path, bundle: Path) -> None:
    """frozen, its folder on PATH → hints say 'kernel-setup-wizard-cli --headless …'"""
    data = tmp_path / "data"
    path = f"{bundle.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    result = frozen_cli(bundle, "rollback", data=data, PATH=path)
    assert "'kernel-setup-wizard-cli --headless installs'" in result.stderr, result.stderr


def test_from_source_hints_say_python_m_app(tmp_path: Path, plain_venv: Path) -> None:
    """from source: the same hints say 'python -m app --headless …'"""
    data = tmp_path / "data"
    nothing = run_cli("rollback", data=data)
    assert "'python -m app --headless installs'" in nothing.stderr, nothing.stderr
    checked = run_cli("check", "--python", str(plain_venv), data=data)
    assert "run: python -m app --headless fix python-env" in checked.stdout
    assert run_cli("--help", data=data).stdout.startswith("usage: python -m app --headless")


def test_program_name_frozen_and_from_source(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """advice.program(): 'python -m app' from source; the bundle's console program when frozen"""
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert advice.program() == "python -m app"
    assert advice.cli_command("fix", "ninja") == "python -m app --headless fix ninja"

    folder = tmp_path / "dist" / "Kernel Setup Wizard"
    folder.mkdir(parents=True)
    gui, console = folder / "kernel-setup-wizard", folder / "kernel-setup-wizard-cli"
    gui.write_bytes(b"")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(gui))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert advice.program() == f'"{gui}"'  # no console twin: the program itself
    console.write_bytes(b"")
    assert advice.program() == f'"{console}"'  # the one whose output reaches a terminal
    for exe in (gui, console):
        exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    assert advice.cli_prefix() == "kernel-setup-wizard-cli --headless"
    assert advice.fix_command("python-env") == "kernel-setup-wizard-cli --headless fix python-env"


def frozen_app(program: Path, *args: str, data: Path,
               **extra: str) -> subprocess.CompletedProcess[str]:
    """The program (not its --headless CLI) as the frozen program runs it."""
    return subprocess.run([sys.executable, "-c", FROZEN, str(program), *args],
                          cwd=REPO, capture_output=True, text=True, env=cli_env(data, **extra),
                          timeout=300, input="")


def test_frozen_usage_and_no_display_name_the_bundles_program(tmp_path: Path,
                                                              bundle: Path) -> None:
    """frozen: the top-level --help, an unknown argument and the no-display message name the
    bundle's console program in every command, never 'python -m app'"""
    data = tmp_path / "data"
    program = f'"{bundle.parent / "kernel-setup-wizard-cli"}"'
    usage = frozen_app(bundle, "--help", data=data)
    assert usage.returncode == 0, usage.stderr
    lines = usage.stdout.splitlines()
    assert lines[0].startswith(f"usage: {program}"), usage.stdout
    assert len(lines) == len(USAGE_ROWS) and all(program in line for line in lines), usage.stdout
    wrong = frozen_app(bundle, "--bogus", data=data)
    assert wrong.returncode == 2 and f"usage: {program}" in wrong.stderr, wrong.stderr

    env = {k: v for k, v in cli_env(data).items() if k not in {"DISPLAY", "WAYLAND_DISPLAY"}}
    env.pop("QT_QPA_PLATFORM", None)
    blind = subprocess.run([sys.executable, "-c", FROZEN, str(bundle)], cwd=REPO, env=env,
                           capture_output=True, text=True, timeout=300, input="")
    if sys.platform.startswith("linux"):
        assert blind.returncode == 5, blind.stderr  # ExitCode.NO_DISPLAY
        assert f"    {program} --headless detect" in blind.stderr, blind.stderr
        assert f"    {program} --headless --help" in blind.stderr, blind.stderr
        assert f"run '{program}' again" in blind.stderr, blind.stderr
    for result in (usage, wrong, blind):
        assert "python -m app" not in result.stdout + result.stderr
        assert "Traceback" not in result.stdout + result.stderr


def test_usage_texts_from_source_and_frozen(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """app.__main__.usage()/no_display(): 'python -m app' from source (as before); the bundle's
    program by name when PATH finds it, the descriptions still in one column"""
    from app.__main__ import no_display, usage

    monkeypatch.delattr(sys, "frozen", raising=False)
    source = usage()
    assert source.splitlines()[0] == "usage: python -m app" + " " * 28 + "open the wizard"
    assert "    python -m app --headless detect\n" in no_display()

    folder = tmp_path / "Kernel Setup Wizard"
    folder.mkdir()
    for name in ("kernel-setup-wizard", "kernel-setup-wizard-cli"):
        (folder / name).write_bytes(b"")
        (folder / name).chmod(0o755)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(folder / "kernel-setup-wizard"))
    monkeypatch.setenv("PATH", str(folder))
    frozen = usage()
    lines = frozen.splitlines()
    assert lines[0].startswith("usage: kernel-setup-wizard-cli ")
    assert all("kernel-setup-wizard-cli" in line for line in lines)
    assert len({line.index(what) for line, what in zip(lines, (
        "open the wizard", "re-verify", "run a step", "explain a failed", "check this",
        "open the wizard where",
        "open the wizard at"), strict=True)}) == 1  # one column
    assert "python -m app" not in frozen + no_display()
    assert "    kernel-setup-wizard-cli --headless detect\n" in no_display()
