"""Signals and sudden ends: Ctrl-C, SIGTERM, a closed terminal, ``kill -9`` of the wizard.

Each trial starts the real program (the headless CLI, or the wizard offscreen) on a fixture
that never ends — a setup.py that compiles forever and spawns grandchildren (one in its own
session, one daemon with a cleared environment), a kernel whose verification hangs, pip
waiting on an index that never answers, a download that drips — waits until it runs, ends it
the way a person or the system would, and asserts: the documented exit code (128 + the signal),
a plain message and no traceback, the log finished with the cancel line, no process of the
tree left, and the target environment unchanged.
"""

from __future__ import annotations

import json
import os
import pty
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from ksw_testsupport import pip_freeze
from signal_support import (
    Output,
    family_source,
    hanging_kernel,
    log_tail,
    start_cli,
    start_download,
    start_gui,
    wait_for_file,
    wait_until_gone,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from loopback_http import LoopbackServer, Resource  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="POSIX signals; Windows is covered by the seam's tests")


@pytest.fixture(scope="module")
def torch_freeze(torch_venv: Path) -> str:
    return pip_freeze(torch_venv)


def build_cli(tmp_path: Path, source: Path, python: Path) -> tuple[subprocess.Popen[str], Output]:
    proc = start_cli("build", "--kernel", "probe", "--source", str(source), "--python",
                     str(python), "--verbose", "--yes", data=tmp_path / "data")
    assert proc.stdout is not None
    return proc, Output(proc.stdout)


def finished(proc: subprocess.Popen[str], output: Output, timeout: float = 30) -> str:
    proc.wait(timeout=timeout)
    text = output.finish()
    assert "Traceback (most recent call last)" not in text, text
    return text


def assert_build_log_cancelled(data: Path, reason: str) -> None:
    cancel_line, exit_line = log_tail(data, "*-probe.log")
    assert cancel_line.startswith(f"[wizard] {reason}: the build and every compiler it "
                                  "started were stopped"), cancel_line
    assert "still running" not in cancel_line
    assert exit_line == "# exit code None (cancelled)"


# -- during a build (the headless CLI) ---------------------------------------------------------


def test_ctrl_c_during_a_build_stops_every_compiler(
        tmp_path: Path, marker: str, torch_venv: Path, torch_freeze: str) -> None:
    """Ctrl-C (twice) in a build with grandchildren and a daemon → 130, log says so, none left"""
    proc, output = build_cli(tmp_path, family_source(tmp_path, marker), torch_venv)
    output.wait_for("started grandchildren")
    time.sleep(0.6)  # the runner has looked at the tree once (it samples twice a second)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)  # an impatient second press changes nothing
    text = finished(proc, output)
    assert proc.returncode == 130, text
    assert "Stopping the build and its compilers and every program it started (you pressed " \
        "Ctrl-C)" in text
    assert "The build was cancelled; nothing was installed." in text
    assert wait_until_gone(marker) == []
    assert_build_log_cancelled(tmp_path / "data", "cancelled by the user (Ctrl-C)")
    assert pip_freeze(torch_venv) == torch_freeze


def test_sigterm_during_a_build_stops_even_what_ignores_it(
        tmp_path: Path, marker: str, torch_venv: Path) -> None:
    """SIGTERM in a build whose setup.py ignores SIGTERM → exit 143, everything stopped"""
    proc, output = build_cli(tmp_path, family_source(tmp_path, marker, stubborn=True),
                             torch_venv)
    output.wait_for("started grandchildren")
    time.sleep(0.6)
    proc.send_signal(signal.SIGTERM)
    text = finished(proc, output)
    assert proc.returncode == 143, text
    assert "(the wizard was asked to stop (SIGTERM))" in text
    assert "The build was cancelled; nothing was installed." in text
    assert wait_until_gone(marker) == []
    assert_build_log_cancelled(tmp_path / "data",
                               "cancelled: the wizard was asked to stop (SIGTERM)")


def test_closing_the_terminal_during_a_build_leaves_nothing(
        tmp_path: Path, marker: str, torch_venv: Path) -> None:
    """The terminal is closed mid-build (pty hang-up) → exit 129, log finished, none left"""
    source = family_source(tmp_path, marker)
    main, secondary = pty.openpty()
    env = dict(os.environ, KSW_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")

    def own_terminal() -> None:  # a session whose controlling terminal is the pty
        import fcntl
        import termios
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "--headless", "build", "--kernel", "probe", "--source",
         str(source), "--python", str(torch_venv), "--verbose", "--yes"],
        cwd=Path(__file__).resolve().parents[2], env=env, stdin=secondary, stdout=secondary,
        stderr=secondary, preexec_fn=own_terminal)
    os.close(secondary)
    seen = b""
    deadline = time.monotonic() + 120
    while b"started grandchildren" not in seen and time.monotonic() < deadline:
        try:
            seen += os.read(main, 65536)
        except OSError:
            break
    assert b"started grandchildren" in seen, seen.decode(errors="replace")
    time.sleep(0.6)
    os.close(main)  # the terminal goes away: the kernel hangs up the session
    proc.wait(timeout=30)
    assert proc.returncode == 129
    assert wait_until_gone(marker) == []
    assert_build_log_cancelled(tmp_path / "data", "cancelled: the terminal was closed (SIGHUP)")


def test_kill_9_of_the_cli_during_a_build_leaves_nothing(
        tmp_path: Path, marker: str, torch_venv: Path, torch_freeze: str) -> None:
    """kill -9 of the CLI mid-build → PDEATHSIG and the watchdog leave nothing running"""
    proc, output = build_cli(tmp_path, family_source(tmp_path, marker), torch_venv)
    output.wait_for("started grandchildren")
    time.sleep(1.2)  # the daemon was adopted and reported to the watchdog
    proc.kill()
    proc.wait(timeout=10)
    assert wait_until_gone(marker) == []
    last = log_tail(tmp_path / "data", "*-probe.log", 1)[0]
    assert last.strip() == "started grandchildren"  # what the build printed reached the log
    assert pip_freeze(torch_venv) == torch_freeze


# -- during a verification (python -m app --verify) -----------------------------------------


@pytest.fixture
def hanging_install(tmp_path: Path, marker: str, torch_venv: Path) -> Iterator[dict[str, str]]:
    """An install record for the probe kernel in the torch venv, whose ``ksw_probe`` (first on
    PYTHONPATH) hangs when the verification imports it; the environment to start --verify in."""
    data = tmp_path / "data"
    data.mkdir()
    record = {"name": "ksw-probe-kernel", "version": "0.1.0", "python": str(torch_venv),
              "kernel": "probe", "adapter": "probe"}
    (data / "installs.json").write_text(json.dumps([record]), encoding="utf-8")
    ready = tmp_path / "harness-ready"
    yield {"PYTHONPATH": str(hanging_kernel(tmp_path, marker)), "KSW_TEST_HANG_READY": str(ready)}


def verify_cli(tmp_path: Path, extra: dict[str, str]) -> tuple[subprocess.Popen[str], Output]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "--verify"], cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
        env=dict(os.environ, KSW_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1",
                 **{**extra, "PYTHONPATH": f"{Path(__file__).resolve().parents[2]}"
                    f"{os.pathsep}{extra['PYTHONPATH']}"}),
        start_new_session=True)
    assert proc.stdout is not None
    output = Output(proc.stdout)
    wait_for_file(Path(extra["KSW_TEST_HANG_READY"]))
    time.sleep(0.3)
    return proc, output


@pytest.mark.parametrize("sig, code, cause", [
    (signal.SIGINT, 130, "you pressed Ctrl-C"),
    (signal.SIGTERM, 143, "the wizard was asked to stop (SIGTERM)"),
])
def test_a_signal_during_verification_stops_the_harness(
        tmp_path: Path, marker: str, hanging_install: dict[str, str], sig: int, code: int,
        cause: str, torch_venv: Path, torch_freeze: str) -> None:
    """Ctrl-C / SIGTERM while the verification hangs → exit 130 / 143, no harness left"""
    proc, output = verify_cli(tmp_path, hanging_install)
    proc.send_signal(sig)
    text = finished(proc, output)
    assert proc.returncode == code, text
    assert f"every program it started ({cause})" in text
    assert "The verification was cancelled." in text
    assert wait_until_gone(marker) == []
    assert pip_freeze(torch_venv) == torch_freeze


def test_kill_9_during_verification_leaves_no_harness(
        tmp_path: Path, marker: str, hanging_install: dict[str, str]) -> None:
    """kill -9 of the wizard while the harness runs → the harness and its grandchild are gone"""
    proc, output = verify_cli(tmp_path, hanging_install)
    time.sleep(0.6)
    proc.kill()
    proc.wait(timeout=10)
    output.finish()
    assert wait_until_gone(marker) == []


# -- during a fix (pip installing into the target) ------------------------------------------


@pytest.fixture
def silent_index() -> Iterator[str]:
    """A package index on loopback that accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/simple/"
    sock.close()


@pytest.fixture
def scratch_env(tmp_path: Path, marker: str) -> Path:
    """A fresh venv (pip from the base installation) whose path carries the marker."""
    venv = tmp_path / f"env-{marker}"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    return venv / "bin" / "python"


@pytest.mark.parametrize("sig, code, group", [
    (signal.SIGINT, 130, False),
    (signal.SIGHUP, 129, True),  # a hang-up reaches the terminal's whole process group
])
def test_a_signal_during_a_fix_stops_pip(
        tmp_path: Path, marker: str, scratch_env: Path, silent_index: str, sig: int, code: int,
        group: bool) -> None:
    """Ctrl-C / group hang-up while a fix's pip waits → 130 / 129, no pip, env unchanged"""
    before = pip_freeze(scratch_env)
    # no ninja on PATH for this run (the fix is offered only where ninja is missing)
    no_ninja = tmp_path / "bin without ninja"
    no_ninja.mkdir()
    proc = start_cli("fix", "ninja", "--python", str(scratch_env), "--yes",
                     data=tmp_path / "data", PATH=str(no_ninja),
                     PIP_CONFIG_FILE=os.devnull, PIP_FIND_LINKS="",
                     PIP_INDEX_URL=silent_index, PIP_DEFAULT_TIMEOUT="60")
    assert proc.stdout is not None
    output = Output(proc.stdout)
    output.wait_for("Looking in indexes")
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    text = finished(proc, output)
    assert proc.returncode == code, text
    assert "Stopping the fix 'Install ninja' and every program it started" in text
    assert "Installing ninja was cancelled." in text
    assert wait_until_gone(marker) == []
    assert pip_freeze(scratch_env) == before
    assert log_tail(tmp_path / "data", "*-fix-ninja.log", 1)[0].startswith("== cancelled")


# -- during a prebuilt download -----------------------------------------------------------------


def test_ctrl_c_during_a_prebuilt_download_stops_it(tmp_path: Path, torch_venv: Path) -> None:
    """Ctrl-C while a prebuilt wheel drips in → exit 130 within seconds, no wheel staged"""
    server = LoopbackServer().start()
    try:
        url = server.add("/releases/ksw_probe_kernel-0.1.0-py3-none-any.whl",
                         Resource(b"\0" * (64 << 20), chunk_delay=0.2))
        proc = start_download(torch_venv, url, tmp_path / "driver", tmp_path / "data")
        assert proc.stdout is not None
        output = Output(proc.stdout)
        deadline = time.monotonic() + 60
        while server.body_bytes("/releases/ksw_probe_kernel-0.1.0-py3-none-any.whl") < 1 << 18:
            assert time.monotonic() < deadline and proc.poll() is None, output.text
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        text = finished(proc, output)
        assert time.monotonic() - stopped < 5, text
        assert proc.returncode == 130, text
        assert "Stopping the download" in text and "cancelled" in text
        assert not list((tmp_path / "data").rglob("*.whl"))
    finally:
        server.stop()


# -- the wizard (GUI, offscreen) -------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_wizard_ended_during_a_build_leaves_nothing(
        tmp_path: Path, marker: str, torch_venv: Path, sig: int) -> None:
    """The wizard ended (SIGTERM / SIGKILL) mid-build → nothing of the build left"""
    out = tmp_path / "gui"
    # a target with setuptools (a venv of Python 3.12+ has pip only, and the fixture tree is
    # built with --no-build-isolation like every kernel)
    proc = start_gui(torch_venv, family_source(tmp_path, marker), out, tmp_path / "data")
    assert proc.stdout is not None
    output = Output(proc.stdout)
    deadline = time.monotonic() + 120
    log = out / "build.log"
    while not (log.exists() and "started grandchildren" in log.read_text(errors="replace")):
        assert proc.poll() is None and time.monotonic() < deadline, output.text
        time.sleep(0.05)
    time.sleep(1.2)
    proc.send_signal(sig)
    text = finished(proc, output)
    assert wait_until_gone(marker) == []
    if sig == signal.SIGTERM:
        assert proc.returncode == 143, text
        cancel_line, exit_line = [line for line in log.read_text().splitlines() if line][-2:]
        assert cancel_line.startswith("[wizard] cancelled: the wizard was asked to stop "
                                      "(SIGTERM): the build and every compiler it started")
        assert exit_line == "# exit code None (cancelled)"
    else:
        assert proc.returncode == -signal.SIGKILL
    assert not psutil.pid_exists(proc.pid) or psutil.Process(proc.pid).status() == "zombie"
