"""Fault trials of the one consent rule (issue 24): every command that changes a Python
environment — ``fix``, ``rollback``, ``build`` when it installs — asks on a terminal, changes
nothing without one unless ``--yes`` is given, and takes ``--yes``.

Each trial runs the real CLI (``python -m app --headless``): without a terminal (standard input
empty, as a script or a pipe) or on a real pseudo-terminal that answers the question, and checks
what the person sees, the exit code and that the environment is exactly as before when nothing
was to change.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from ksw_faults import REPO, assert_clean_failure, cli_env, run_cli
from ksw_state_support import fresh_env, padded_wheel, wheel_source
from ksw_testsupport import pip_freeze

from kernel_wizard.base.errors import ExitCode
from kernel_wizard.install.installer import install_wheel, load_installs

USAGE = int(ExitCode.USAGE)
CANCELLED = int(ExitCode.CANCELLED)
PASS = {"status": "pass", "report": "/reports/a/report.json"}


@pytest.fixture()
def data() -> Path:
    return Path(os.environ["KSW_DATA_DIR"])  # the trial's own data folder (tests/conftest.py)


@pytest.fixture()
def installed(tmp_path: Path, kernel_wheel: Any) -> Path:
    """python of a fresh venv into which the wizard installed ksw-probe-kernel 0.1.0 (nothing
    was there before it)."""
    env = fresh_env(tmp_path / "env")
    install_wheel(env, kernel_wheel("correct"), kernel="probe", adapter="probe",
                  verification=PASS)
    return env


def on_terminal(args: list[str], answer: str | None, data: Path,
                timeout: float = 120) -> tuple[int, str]:
    """The CLI on a pseudo-terminal of its own (stdin, stdout and stderr), as a person runs it
    in a terminal window; ``answer`` is typed once the question "[y/N]" shows (None: none
    expected). Returns the exit code and everything the terminal showed."""
    main, secondary = pty.openpty()

    def own_terminal() -> None:  # a session whose controlling terminal is the pty
        import fcntl
        import termios
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([sys.executable, "-m", "app", "--headless", *args], cwd=REPO,
                            env=cli_env(data), stdin=secondary, stdout=secondary,
                            stderr=secondary, preexec_fn=own_terminal)
    os.close(secondary)
    seen = b""
    answered = answer is None
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # EIO: the program ended and closed the terminal
                    break
                if not chunk:
                    break
                seen += chunk
            if not answered and b"[y/N]" in seen:
                os.write(main, (answer or "").encode() + b"\n")
                answered = True
            if proc.poll() is not None and not ready:
                break
        code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    return code, seen.decode(errors="replace").replace("\r\n", "\n")


def module_version(python: Path) -> str:
    code = "import importlib.metadata as m; print(m.version('ksw-probe-kernel'))"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    return done.stdout.strip() or "not installed"


# -- rollback -----------------------------------------------------------------------------------


def test_rollback_without_a_terminal_changes_nothing(installed: Path, data: Path) -> None:
    """rollback, stdin not a terminal, no --yes → exit 2, says why and the command with --yes"""
    before = pip_freeze(installed)
    result = run_cli("rollback", "--kernel", "probe", data=data)
    output = assert_clean_failure(
        result, USAGE, "Nothing was run", "This removes ksw-probe-kernel 0.1.0 from "
        f"{installed}; nothing was installed there before.", "standard input is not a terminal",
        "python -m app --headless rollback --kernel probe --yes")
    assert "Removed" not in output
    assert pip_freeze(installed) == before and module_version(installed) == "0.1.0"
    assert [r.version for r in load_installs()] == ["0.1.0"]  # still recorded


def test_rollback_with_yes_goes_on_without_asking(installed: Path, data: Path) -> None:
    """rollback --yes, no terminal → exit 0, the kernel removed, the record gone"""
    result = run_cli("rollback", "--yes", data=data)
    output = assert_clean_failure(result, 0, "Removed ksw-probe-kernel 0.1.0 from",
                                  "nothing was installed there before")
    assert "[y/N]" not in output
    assert module_version(installed) == "not installed" and load_installs() == []


def test_rollback_on_a_terminal_asks_and_a_no_changes_nothing(installed: Path,
                                                              data: Path) -> None:
    """rollback on a terminal, answer 'n' → exit 130, 'Nothing was changed', kernel still there"""
    before = pip_freeze(installed)
    code, output = on_terminal(["rollback"], "n", data)
    assert code == CANCELLED, output
    assert "This removes ksw-probe-kernel 0.1.0" in output and "Roll it back? [y/N]" in output
    assert "Nothing was changed: you answered no." in output and "Traceback" not in output
    assert pip_freeze(installed) == before and len(load_installs()) == 1


def test_rollback_on_a_terminal_asks_and_a_yes_rolls_back(installed: Path, data: Path) -> None:
    """rollback on a terminal, answer 'y' → exit 0, the kernel removed"""
    code, output = on_terminal(["rollback"], "y", data)
    assert code == 0, output
    assert "Roll it back? [y/N]" in output and "Removed ksw-probe-kernel 0.1.0" in output
    assert module_version(installed) == "not installed" and load_installs() == []


def test_rollback_of_a_lost_backup_is_refused_before_asking(tmp_path: Path,
                                                            data: Path) -> None:
    """rollback whose backup is gone, on a terminal → exit 1, nothing asked"""
    from kernel_wizard.base.statefile import write_json

    env = tmp_path / "env" / "bin" / "python"
    write_json(data / "installs.json", [{
        "name": "ksw-probe-kernel", "version": "0.2.0", "python": str(env), "kernel": "probe",
        "backup": str(data / "backups" / "gone"), "verification": PASS}])
    code, output = on_terminal(["rollback"], None, data)
    assert code == 1 and "[y/N]" not in output, output
    assert "The copy of what ksw-probe-kernel replaced" in output


# -- fix ----------------------------------------------------------------------------------------


def test_fix_on_a_terminal_asks_and_a_no_changes_nothing(tmp_path: Path, data: Path) -> None:
    """fix python-env on a terminal, answer 'n' → exit 130, 'Nothing was changed', env as before"""
    env = fresh_env(tmp_path / "bare env")
    before = pip_freeze(env)
    code, output = on_terminal(["fix", "python-env", "--python", str(env)], "n", data)
    assert code == CANCELLED, output
    assert "What will run:" in output and "Run it? [y/N]" in output
    assert "Nothing was changed: you answered no." in output and "Traceback" not in output
    assert pip_freeze(env) == before


# -- build (it installs) ------------------------------------------------------------------------


def test_build_that_installs_without_a_terminal_runs_nothing(
    tmp_path: Path, scratch_torch_env: Path, data: Path
) -> None:
    """build (installs), stdin not a terminal, no --yes → exit 2 before building, --yes and
    --no-install named; with --json the error is kind 'usage'"""
    wheel = padded_wheel(tmp_path, "correct", "0.3.0", pad=0)
    source = wheel_source(tmp_path, wheel)
    before = pip_freeze(scratch_torch_env)
    args = ["build", "--kernel", "probe", "--source", str(source), "--python",
            str(scratch_torch_env)]
    result = run_cli(*args, data=data)
    assert_clean_failure(result, USAGE, "Nothing was run", "This builds Probe kernel",
                         f"installs it into {scratch_torch_env}", "add --yes",
                         f'--python "{scratch_torch_env}" --yes',  # quoted: a space in it
                         "--no-install")
    assert not (data / "logs").exists() or not list((data / "logs").iterdir())  # not built
    as_json = run_cli(*args, "--json", data=data)
    document = json.loads(as_json.stdout)
    assert as_json.returncode == USAGE and document["error"]["kind"] == "usage"
    assert "--yes" in document["error"]["next_step"]
    assert pip_freeze(scratch_torch_env) == before and load_installs() == []


def test_build_on_a_terminal_asks_before_anything_runs(tmp_path: Path, scratch_torch_env: Path,
                                                      data: Path) -> None:
    """build (installs) on a terminal, answer 'n' → exit 130 before building, env as before"""
    source = wheel_source(tmp_path, padded_wheel(tmp_path, "correct", "0.3.0", pad=0))
    before = pip_freeze(scratch_torch_env)
    code, output = on_terminal(["build", "--kernel", "probe", "--source", str(source),
                                "--python", str(scratch_torch_env)], "n", data)
    assert code == CANCELLED, output
    assert f"installs it into {scratch_torch_env}" in output and "Go on? [y/N]" in output
    assert "Nothing was changed: you answered no." in output
    assert "What will run" not in output and "Log:" not in output  # nothing was built
    assert pip_freeze(scratch_torch_env) == before and load_installs() == []


def test_build_without_install_needs_no_consent(tmp_path: Path, scratch_torch_env: Path,
                                                data: Path) -> None:
    """build --no-install, no terminal, no --yes → builds (exit 0): it changes no environment"""
    source = wheel_source(tmp_path, padded_wheel(tmp_path, "correct", "0.3.0", pad=0))
    result = run_cli("build", "--kernel", "probe", "--source", str(source), "--python",
                     str(scratch_torch_env), "--no-install", "--skip-verify", data=data)
    output = assert_clean_failure(result, 0, "Built ksw_probe_kernel-0.3.0")
    assert "Nothing was run" not in output and load_installs() == []


def test_every_command_that_changes_an_environment_takes_yes(tmp_path: Path) -> None:
    """--help of build, fix and rollback → each offers --yes; the main help states the rule"""
    data = tmp_path / "data"
    for command in ("build", "fix", "rollback"):
        result = run_cli(command, "--help", data=data)
        assert result.returncode == 0 and "--yes" in result.stdout, result.stdout
    main = run_cli("--help", data=data).stdout
    assert "ask first on a terminal" in " ".join(main.split())
    assert "unless --yes is given" in " ".join(main.split())
