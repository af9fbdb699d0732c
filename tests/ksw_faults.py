"""The fault suite's shared pieces, an ordinary module (``from ksw_faults import ...``) so that
every test folder finds the same one: the real CLI in a subprocess, fixture source trees whose
setup.py misbehaves, and the checks every trial makes (documented exit code, a clear message,
no traceback, no process of the tree left, the target environment unchanged). The fixtures and
the fault table are in tests/faults/conftest.py."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]

TABLE: list[tuple[str, str, str]] = []  # rows of the fault table (conftest writes it)


def cli_env(data: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, KSW_DATA_DIR=str(data), PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


def run_cli(*args: str, data: Path, timeout: float = 300, stdin: str | None = "",
            **extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m app --headless ARGS`` to completion (stdin empty, not a terminal)."""
    return subprocess.run([sys.executable, "-m", "app", "--headless", *args], cwd=REPO,
                          capture_output=True, text=True, env=cli_env(data, **extra),
                          timeout=timeout, input=stdin)


def start_cli(*args: str, data: Path, **extra: str) -> subprocess.Popen[str]:
    """The CLI started in its own process group (as a terminal would), output captured."""
    return subprocess.Popen([sys.executable, "-m", "app", "--headless", *args], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL, env=cli_env(data, **extra),
                            start_new_session=True)


def assert_clean_failure(result: subprocess.CompletedProcess[str], code: int,
                         *needles: str) -> str:
    """The documented exit code, no traceback, and every needle in the output; returns it."""
    output = result.stdout + result.stderr
    assert "Traceback (most recent call last)" not in output, output
    assert result.returncode == code, f"rc={result.returncode}\n{output}"
    for needle in needles:
        assert needle in output, f"{needle!r} missing from:\n{output}"
    return output


def processes_with(marker: str) -> list[psutil.Process]:
    """Live processes whose command line or environment carries ``marker``."""
    found = []
    for proc in psutil.process_iter(["cmdline", "pid"]):
        try:
            if any(marker in part for part in (proc.info["cmdline"] or [])):
                found.append(proc)
                continue
            if marker in "".join(f"{k}={v}" for k, v in proc.environ().items()):
                found.append(proc)
        except (psutil.Error, OSError):
            continue
    return [p for p in found if p.pid != os.getpid()]


def wait_until_gone(marker: str, seconds: float = 10.0) -> list[psutil.Process]:
    deadline = time.monotonic() + seconds
    left = processes_with(marker)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = processes_with(marker)
    return left


SETUP_HEAD = '''
import os, subprocess, sys, time
from setuptools import setup
MARKER = {marker!r}
'''

SETUP_BODIES = {
    # runs forever, printing now and then (a compile that never ends)
    "hang": "print('compiling forever', flush=True)\nwhile True:\n    time.sleep(0.5)\n",
    # starts a grandchild in the same session and one in a new session, then hangs
    "grandchildren": textwrap.dedent('''
        code = "import time\\nwhile True: time.sleep(0.5)"
        subprocess.Popen([sys.executable, "-c", code, MARKER])
        subprocess.Popen([sys.executable, "-c", code, MARKER], start_new_session=True)
        print("started grandchildren", flush=True)
        while True:
            time.sleep(0.5)
    '''),
    # output that is not UTF-8, then a normal failure
    "invalid_utf8": textwrap.dedent('''
        sys.stdout.buffer.write(b"caf\\xe9 \\xff\\xfe garbage\\n")
        sys.stdout.flush()
        sys.exit("error: something went wrong")
    '''),
    # a Python exception in setup.py
    "raise": "raise RuntimeError('setup.py exploded on purpose')\n",
    # exits 0 without producing a wheel
    "no_wheel": "print('did nothing', flush=True)\nsys.exit(0)\n",
}


def fault_source(folder: Path, kind: str, marker: str) -> Path:
    """A source tree whose setup.py behaves as ``kind`` (see SETUP_BODIES); the marker is in
    its path, so every process started from it carries the marker in its command line."""
    tree = folder / f"src-{kind}-{marker}"
    tree.mkdir(parents=True)
    body = SETUP_HEAD.format(marker=marker) + SETUP_BODIES[kind]
    if kind not in {"raise"}:
        body += "\nsetup(name='ksw-fault', version='0.0.1')\n"
    (tree / "setup.py").write_text(body, encoding="utf-8")
    return tree


def record(trial: str, expected: str, observed: str) -> None:
    """Adds a row to the fault table (written at the end when KSW_FAULT_TABLE is set)."""
    TABLE.append((trial, expected, observed))
