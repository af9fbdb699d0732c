"""Shared fixtures: real virtual environments made once per machine and reused.

``torch_venv`` is a venv with ``torch==2.13.0`` (a CPU build), ninja, setuptools and wheel;
``plain_venv`` is a venv with pip and nothing else. They live under ``KSW_TEST_CACHE``
(default ``~/.cache/ksw-tests``) and are rebuilt when their ``.complete`` marker is missing, so
an interrupted creation is never trusted. Tests must not install into them: install into a
``--target`` folder or a copy instead, so the venvs stay as created.

The torch venv is made from ``KSW_TEST_TORCH_PYTHON`` when it is set, else from the first
Python here for which pip finds the CPU build of ``torch==2.13.0`` (asked with a dry run; the
Python running the tests first, then the others on PATH and pyenv's). The wizard's target Python
is a separate interpreter in real use (an app's own Python), and a CPU build of torch may exist
for one Python version only (here: the machine's own 3.11). Where no Python gets one, the tests
that need the torch venv skip with a one-line reason instead of failing on a CUDA build.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from filelock import FileLock
from ksw_testsupport import pip_freeze  # noqa: F401 - re-exported for the tests

TORCH_PIN = "torch==2.13.0"
REPO = Path(__file__).resolve().parent.parent


def cache_root() -> Path:
    root = Path(os.environ.get("KSW_TEST_CACHE", Path.home() / ".cache" / "ksw-tests"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def venv_python(venv: Path) -> Path:
    if sys.platform == "win32":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def _interpreters() -> list[str]:
    """Pythons 3.10+ on this machine, the one running the tests first."""
    found = [sys.executable]
    for name in ("python3", "python3.10", "python3.11", "python3.12", "python3.13"):
        where = shutil.which(name)
        if where:
            found.append(where)
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    if pyenv.is_dir():
        found += sorted(str(p) for p in pyenv.glob("3.1[0-9]*/bin/python3"))
    unique: dict[str, str] = {}
    for python in found:
        unique.setdefault(os.path.realpath(python), python)
    return list(unique.values())


def _pip_gets_cpu_torch(python: str) -> bool:
    """Whether pip, for ``python``, installs TORCH_PIN as a CPU build (asked with a dry run:
    metadata only; remembered per interpreter in the test cache)."""
    memo = cache_root() / "torch-resolution.json"
    key = f"{os.path.realpath(python)} {TORCH_PIN}"
    try:
        known = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if key in known:
        return bool(known[key])
    report = cache_root() / f"torch-resolution-{os.getpid()}.json"
    try:
        done = subprocess.run(
            [python, "-c", "import sys; assert sys.version_info >= (3, 10)"],
            capture_output=True, timeout=60, check=False)
        cpu = False
        if done.returncode == 0:
            subprocess.run([python, "-m", "pip", "install", "--dry-run", "--ignore-installed",
                            "--no-deps", "--quiet", "--report", str(report), TORCH_PIN],
                           capture_output=True, timeout=600, check=False)
            items = json.loads(report.read_text(encoding="utf-8")).get("install", [])
            cpu = any(i.get("metadata", {}).get("version", "").endswith("+cpu") for i in items)
    except (OSError, ValueError, subprocess.SubprocessError):
        cpu = False
    finally:
        report.unlink(missing_ok=True)
    known[key] = cpu
    memo.write_text(json.dumps(known, indent=1), encoding="utf-8")
    return cpu


def torch_base_python() -> str | None:
    """The interpreter the torch venv (and venvs that share its packages) are made from:
    ``KSW_TEST_TORCH_PYTHON``, else the first Python here (this one first) for which pip finds
    the CPU build of TORCH_PIN (none: None, and the tests that need it skip, saying why)."""
    given = os.environ.get("KSW_TEST_TORCH_PYTHON")
    if given:
        return given
    with FileLock(str(cache_root() / "torch-resolution.lock")):
        return next((p for p in _interpreters() if _pip_gets_cpu_torch(p)), None)


NO_CPU_TORCH = (
    "needs {pin} as a CPU build in a test venv (the tests build and verify kernels without a "
    "GPU), and pip finds only other builds for the Pythons here ({tried}): set "
    "KSW_TEST_TORCH_PYTHON to a Python 3.10+ whose pip gets the CPU build"
)


def require_torch_base() -> str:
    base = torch_base_python()
    if base is None:
        pytest.skip(NO_CPU_TORCH.format(pin=TORCH_PIN, tried=", ".join(_interpreters())))
    return base


def _version_tag(python: str) -> str:
    if python == sys.executable:
        return f"py{sys.version_info[0]}{sys.version_info[1]}"
    code = "import sys; print('py%d%d' % sys.version_info[:2])"
    return subprocess.run([python, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def make_venv(name: str, packages: list[str], base: str | None = None) -> Path:
    """Create (or reuse) a venv of ``base`` (default: this interpreter) under the test cache;
    returns its python executable."""
    base = base or sys.executable
    tag = _version_tag(base)
    venv = cache_root() / f"{name}-{tag}"
    marker = venv / ".complete"
    # the test workers (pytest-xdist) share the cache: one creates, the others wait for it
    with FileLock(str(cache_root() / f"{name}-{tag}.lock")):
        if marker.exists() and venv_python(venv).exists():
            return venv_python(venv)
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
        if packages:
            subprocess.run(
                [str(venv_python(venv)), "-m", "pip", "install", "-q", *packages], check=True
            )
        marker.write_text("\n".join(packages) + "\n", encoding="utf-8")
    return venv_python(venv)


@pytest.fixture(scope="session")
def torch_venv() -> Path:
    """python of a venv with torch 2.13.0 (CPU), ninja, setuptools and wheel."""
    return make_venv("venv-torch-2.13.0", [TORCH_PIN, "ninja", "setuptools", "wheel"],
                     base=require_torch_base())


@pytest.fixture(scope="session")
def plain_venv() -> Path:
    """python of a venv with pip only (no torch)."""
    return make_venv("venv-plain", [])


@pytest.fixture(autouse=True)
def isolated_wizard_data(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
                         monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own wizard data folder (logs, reports, installs.json) and its own
    build folder: the user's real ones (~/.cache/kernel-setup-wizard/b ...) are never written,
    so that ``clean`` never lists the tests' leftovers as the user's."""
    folder = tmp_path / "ksw-data"
    monkeypatch.setenv("KSW_DATA_DIR", str(folder))
    # beside the test's own folder, which some tests compare before and after
    monkeypatch.setenv("KSW_BUILD_ROOT", str(tmp_path_factory.mktemp("ksw-build")))
    # the computer-wide environment locks too (their real place is shared by every run)
    monkeypatch.setenv("KSW_MACHINE_LOCK_DIR", str(tmp_path_factory.mktemp("ksw-locks")))
    return folder


def purelib(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                               check=True).stdout.strip())


@pytest.fixture()
def scratch_torch_env(tmp_path: Path, torch_venv: Path) -> Path:
    """python of a fresh venv that sees torch (through a .pth into the shared torch venv) and
    pip (from the base installation): installs land here, the shared venv stays untouched."""
    venv = tmp_path / "scratch env"
    # of the torch venv's own Python: torch's compiled parts load in that version only
    subprocess.run([require_torch_base(), "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    python = venv_python(venv)
    (purelib(python) / "shared_torch.pth").write_text(str(purelib(torch_venv)) + "\n")
    return python


KERNELS = REPO / "tests" / "data" / "bad_kernels"


def wheel_from(package_dir: Path, out: Path, version: str = "0.1.0") -> Path:
    """A real wheel (named ksw-probe-kernel) of the pure-Python ksw_probe in ``package_dir``."""
    dist = f"ksw_probe_kernel-{version}"
    files: dict[str, bytes] = {
        f"ksw_probe/{path.relative_to(package_dir / 'ksw_probe').as_posix()}": path.read_bytes()
        for path in sorted((package_dir / "ksw_probe").rglob("*.py"))
    }
    files[f"{dist}.dist-info/METADATA"] = (
        f"Metadata-Version: 2.1\nName: ksw-probe-kernel\nVersion: {version}\n".encode()
    )
    files[f"{dist}.dist-info/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist}.dist-info/RECORD,,")
    files[f"{dist}.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return wheel


@pytest.fixture()
def kernel_wheel(tmp_path: Path) -> Callable[[str], Path]:
    """kernel_wheel("correct") / ("wrong_scale") ...: a wheel of that test kernel."""
    return lambda name: wheel_from(KERNELS / name, tmp_path / "wheels" / name)


# -- a clean exit -------------------------------------------------------------------------------
# After the whole suite has run and reported, CPython's finalization can crash inside PySide6's
# C extension (seen once here: "Fatal Python error: bool_dealloc" while garbage-collecting Qt
# objects at exit, rc 134, after "762 passed"). The results are final by then, so the test
# process leaves with pytest's own exit status without running that teardown.
_EXIT_STATUS: list[int] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _EXIT_STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    worker = hasattr(config, "workerinput")  # a pytest-xdist worker: leave through xdist's own exit
    if (_EXIT_STATUS and not worker and "PySide6.QtCore" in sys.modules
            and not os.environ.get("KSW_NO_FAST_EXIT")):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT_STATUS[-1])


@pytest.fixture(autouse=True)
def _advice_for_the_wizard() -> Iterator[None]:
    """A test that runs the CLI in-process (cli.main calls advice.use_terminal()) must not leave
    the advice of later tests in the same worker naming commands instead of wizard pages."""
    yield
    from kernel_wizard.base import advice
    advice.use_terminal(False)
