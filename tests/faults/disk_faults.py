"""Real disk faults for the fault trials: small tmpfs mounts (full, read-only), a file size
limit, a quick real package to build, and staged-build folders as builds leave them.

Root ignores permission bits, so "read-only" is a read-only tmpfs when running as root (EROFS,
what a write-protected drive answers) and a folder without write permission otherwise (EACCES).
A full disk is a small tmpfs; where mounting is impossible (not root, or no mount in this
container) those trials are skipped with the reason.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TRACEBACK = "Traceback (most recent call last)"


def env_for(data: Path, build_root: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, KSW_DATA_DIR=str(data), KSW_BUILD_ROOT=str(build_root),
               PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


def cli(*args: str, data: Path, build_root: Path, fsize_limit: int | None = None,
        timeout: float = 300, **extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m app --headless ARGS`` with its own data folder and build root (stdin empty,
    not a terminal); ``fsize_limit``: RLIMIT_FSIZE in bytes for the CLI and its children."""

    def limit() -> None:
        if fsize_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize_limit, fsize_limit))

    return subprocess.run([sys.executable, "-m", "app", "--headless", *args], cwd=REPO,
                          capture_output=True, text=True, input="", timeout=timeout,
                          env=env_for(data, build_root, **extra),
                          preexec_fn=limit if fsize_limit is not None else None)


def can_mount() -> str:
    """Why a tmpfs cannot be mounted here ("" when it can)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root to mount a small tmpfs (a real full or read-only disk)"
    return ""


@contextmanager
def tmpfs(path: Path, size: str = "1m", read_only: bool = False) -> Iterator[Path]:
    """A real tmpfs of ``size`` at ``path`` (skips the trial where it cannot be mounted)."""
    reason = can_mount()
    if reason:
        pytest.skip(reason)
    path.mkdir(parents=True, exist_ok=True)
    options = f"size={size}" + (",ro" if read_only else "")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"mount -t tmpfs failed here ({done.stderr.strip()}): a small tmpfs is the "
                    "only real full disk a test can make")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(folder: Path, leave: int = 0) -> None:
    """Fill the disk holding ``folder`` up to ``leave`` free bytes."""
    import shutil

    free = shutil.disk_usage(folder).free - leave
    with open(folder / "filler.bin", "wb") as handle:
        try:
            handle.write(b"\0" * max(free, 0))
        except OSError:
            pass  # full: that is the point


@contextmanager
def unwritable(path: Path) -> Iterator[tuple[Path, str]]:
    """A folder nothing can be written to, and the word the message must use: a read-only
    tmpfs as root ("read-only"), a folder without write permission otherwise."""
    if can_mount():
        path.mkdir(parents=True)
        path.chmod(0o555)
        try:
            yield path, "no permission"
        finally:
            path.chmod(0o755)
        return
    with tmpfs(path, read_only=True) as mounted:
        yield mounted, "read-only"


def quick_package(folder: Path, data_bytes: int = 0) -> Path:
    """A real, quick-to-build source tree (pure Python, setuptools) with ``data_bytes`` of
    incompressible data, so that its wheel and its unpacked copy take that much disk."""
    tree = folder
    (tree / "kswquick").mkdir(parents=True)
    (tree / "kswquick" / "__init__.py").write_text("VALUE = 42\n", encoding="utf-8")
    (tree / "kswquick" / "data.bin").write_bytes(os.urandom(data_bytes))
    (tree / "setup.py").write_text(
        "from setuptools import setup\n"
        "setup(name='ksw-quick', version='0.0.1', packages=['kswquick'],\n"
        "      package_data={'kswquick': ['*.bin']})\n", encoding="utf-8")
    return tree


def old_builds(data: Path, kernel: str, stamps: list[str], size: int = 4096) -> list[Path]:
    """Staging folders and logs as earlier builds of ``kernel`` left them (oldest first)."""
    made = []
    for stamp in stamps:
        folder = data / "staging" / f"{kernel}-{stamp}"
        folder.mkdir(parents=True)
        (folder / f"{kernel}-0.1-py3-none-any.whl").write_bytes(os.urandom(size))
        (data / "logs").mkdir(parents=True, exist_ok=True)
        (data / "logs" / f"{stamp}-{kernel}.log").write_text("log\n", encoding="utf-8")
        made.append(folder)
    return made


def install_record(data: Path, wheel: Path, python: str = "/usr/bin/python3") -> Path:
    """An installs.json whose record points to ``wheel`` (as an install leaves it)."""
    path = data / "installs.json"
    path.write_text(json.dumps([{
        "name": "ksw-probe-kernel", "version": "0.1.0", "python": python,
        "wheel": str(wheel), "kernel": "probe", "adapter": "probe", "backup": None,
        "installed": "20200101-000000",
    }], indent=2), encoding="utf-8")
    return path


def leftovers(marker: str, seconds: float = 10.0) -> list[str]:
    """Command lines of live processes that carry ``marker`` (waits up to ``seconds`` for
    them to end): a build's children must not outlive the CLI."""
    import time

    import psutil

    deadline = time.monotonic() + seconds
    while True:
        found = []
        for proc in psutil.process_iter(["cmdline", "pid"]):
            try:
                line = " ".join(proc.info["cmdline"] or [])
            except psutil.Error:
                continue
            if marker in line and proc.pid != os.getpid():
                found.append(line)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def error_document(stdout: str) -> dict[str, object]:
    """The one ``ksw.error/1`` JSON document a --json command printed for its error."""
    document = json.loads(stdout)
    assert isinstance(document, dict), stdout
    assert document["schema"] == "ksw.error/1" and document["status"] == "error", document
    return document
