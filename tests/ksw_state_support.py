"""Helpers of the state tests (journaled installs, locks, damaged state files): scratch
environments, wheels of the test kernels (also padded, so that pip takes seconds to install
them), a source tree that "builds" a given wheel at once, and the real CLI."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import psutil
from ksw_testsupport import load_file

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
KERNELS = TESTS / "data" / "bad_kernels"


def fresh_env(folder: Path) -> Path:
    """python of a new venv that sees the base installation's pip (nothing installed)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(folder)], check=True)
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def site_packages(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                               check=True).stdout.strip())


def padded_wheel(folder: Path, kernel: str, version: str, pad: int) -> Path:
    """The test kernel ``kernel`` as ksw-probe-kernel ``version``, with ``pad`` extra modules
    (pip then needs seconds to install it: time to interrupt it)."""
    package = folder / f"pkg-{kernel}-{version}"
    shutil.copytree(KERNELS / kernel, package)
    for i in range(pad):
        (package / "ksw_probe" / f"pad_{i:04d}.py").write_text(
            f"X = {i}\n" + "#" * 1500 + "\n", encoding="utf-8")
    return _root_conftest().wheel_from(package, folder / f"wheels-{kernel}-{version}", version)


def faults_conftest() -> Any:
    """The fault suite's shared checks (tests/ksw_faults.py: run_cli, assert_clean_failure …)."""
    import ksw_faults

    return ksw_faults


def _root_conftest() -> Any:
    """tests/conftest.py (its ``wheel_from`` makes the kernel_wheel fixture's wheels)."""
    return load_file("ksw_tests_root_conftest", TESTS / "conftest.py")


BACKEND = '''
"""An in-tree build backend that "builds" the wheel named in wheel.txt (a copy)."""
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    source = Path((HERE / "wheel.txt").read_text(encoding="utf-8").strip())
    shutil.copy(source, Path(wheel_directory) / source.name)
    print("built", source.name, flush=True)
    return source.name


def get_requires_for_build_wheel(config_settings=None):
    return []
'''


def wheel_source(folder: Path, wheel: Path) -> Path:
    """A source folder whose build produces ``wheel`` at once (for ``build --source``)."""
    tree = folder / f"src-{wheel.stem}"
    tree.mkdir(parents=True)
    (tree / "pyproject.toml").write_text(textwrap.dedent('''
        [build-system]
        requires = []
        build-backend = "copy_backend"
        backend-path = ["."]
    '''), encoding="utf-8")
    (tree / "copy_backend.py").write_text(BACKEND, encoding="utf-8")
    (tree / "wheel.txt").write_text(str(wheel), encoding="utf-8")
    return tree


def cli(*args: str, data: Path, timeout: float = 300,
        **extra: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, KSW_DATA_DIR=str(data), PYTHONUNBUFFERED="1", **extra)
    return subprocess.run([sys.executable, "-m", "app", "--headless", *args], cwd=REPO,
                          capture_output=True, text=True, env=env, timeout=timeout, input="")


def start(*args: str, data: Path, **extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ, KSW_DATA_DIR=str(data), PYTHONUNBUFFERED="1", **extra)
    return subprocess.Popen([sys.executable, "-m", "app", "--headless", *args], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True)


def pip_install_child(proc: subprocess.Popen[str]) -> psutil.Process | None:
    """The ``pip install`` (not ``--target``) the CLI runs now, if any."""
    try:
        children = psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        return None
    for child in children:
        try:
            line = child.cmdline()
        except psutil.Error:
            continue
        if "pip" in line and "install" in line and "--target" not in line \
                and "--force-reinstall" in line:
            return child
    return None


def kill_group(proc: subprocess.Popen[str]) -> None:
    """kill -9 of the CLI and everything it started, at once (a crash, a power cut): its
    children run in process groups of their own, so each one is killed by its pid."""
    if proc.poll() is not None:
        return  # ended (and reaped) already
    try:
        top = psutil.Process(proc.pid)
        tree = top.children(recursive=True)
    except psutil.Error:
        top, tree = None, []
    for victim in [p for p in (top, *tree) if p is not None]:
        try:
            victim.send_signal(signal.SIGKILL)
        except psutil.Error:
            pass
    proc.wait(timeout=30)
    psutil.wait_procs(tree, timeout=10)


def wait_for(condition: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def stash_entries(python: Path) -> list[str]:
    return sorted(p.name for p in site_packages(python).iterdir() if p.name.startswith("~"))
