"""The double-clickable bundle: ``installer.spec`` builds it, and it works like the source does.

``--self-test`` from source is quick. The slow tests build the one-folder bundle with PyInstaller
(or take the one ``.ci/run`` built, ``KSW_BUNDLE_DIR``) and run, from the frozen program,
``--self-test`` (offscreen and, where Xvfb exists, on a real X display), ``--headless detect``,
and a headless build → verify → install of the probe kernel into a scratch Python that sees the
torch venv: the frozen program must drive that outside interpreter, never itself. They also
break a copy of the bundle to see that the self-test names what is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from ksw_testsupport import pip_freeze

REPO = Path(__file__).resolve().parents[2]
NAME = "kernel-setup-wizard"
CLI = "kernel-setup-wizard-cli"
# The goal for the Linux one-folder bundle, per Python (docs/bundle.md): 80 MiB where
# pyproject.toml keeps PySide6 below 6.12 (3.10, 3.11: measured 78.3-79.7 MiB); 84 MiB from 3.12
# on, which gets PySide6 6.12 (bigger Qt libraries) and a bigger libpython (3.12: 7.0 MB
# stripped against 3.11's 5.7 MB): measured 81.1 MiB with Python 3.12.1 on 2026-11-28.
def max_bundle_bytes(bundle_python: tuple[int, int]) -> int:
    return (80 if bundle_python < (3, 12) else 84) * 1024**2


def bundled_python(internal: Path) -> tuple[int, int]:
    """The Python a bundle was made with (its libpython3.X), not the one running the tests:
    CI tests the 3.10 bundle from 3.13 too."""
    for lib in internal.glob("libpython3.*"):
        minor = lib.name.removeprefix("libpython3.").split(".")[0]
        if minor.isdigit():
            return 3, int(minor)
    return sys.version_info[0], sys.version_info[1]

ITEMS = (
    "Installation", "Recipes", "Probe kernel source", "Verification harness",
    "Environment probe", "Install probe", "Known build failures", "Hardware detection",
    "Target Pythons", "Child processes", "Qt platform plugins", "Qt started", "Text and ICU",
    "Icon", "Wizard built", "Page WELCOME", "Page HARDWARE", "No build started",
)


def quiet_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The user's environment, offscreen, with the wizard's files and caches in tmp_path."""
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        PYTHONIOENCODING="utf-8",
        KSW_DATA_DIR=str(tmp_path / "ksw-data"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),  # caches; not shared with other runs
        KSW_BUILD_ROOT=str(tmp_path / "build-root"),
    )
    env.update(extra)
    return env


def run(cmd: list[str], env: dict[str, str], timeout: float = 300,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8",
                          errors="replace", env=env, timeout=timeout, cwd=cwd or REPO,
                          stdin=subprocess.DEVNULL)


def assert_all_passed(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    for item in ITEMS:
        assert f"✔ {item}" in result.stdout, f"{item} missing:\n{result.stdout}"
    assert "✖" not in result.stdout
    assert "Self-test passed" in result.stdout


# -- from source ----------------------------------------------------------------------------


def test_self_test_from_source_names_every_item(tmp_path: Path) -> None:
    result = run([sys.executable, "-m", "app", "--self-test"], quiet_env(tmp_path))
    assert_all_passed(result)
    assert "source checkout" in result.stdout
    # the walk never starts a build: it stops before the Build page, or earlier at a page
    # whose Next is disabled (Prerequisites, when this Python has no torch)
    assert ("Walk stopped: before BUILD" in result.stdout
            or "Walk stopped: at PREREQS" in result.stdout), result.stdout


BROKEN_RESOURCES = """\
import sys
from pathlib import Path
import kernel_wizard.base.resources as resources
resources.resources_root = lambda: Path(sys.argv[1])
from app.__main__ import main
sys.exit(main(["--self-test"]))
"""


def test_self_test_says_what_is_missing(tmp_path: Path) -> None:
    resources = tmp_path / "resources"
    shutil.copytree(REPO / "resources", resources)
    (resources / "verify" / "verify_kernel.py").unlink()
    (resources / "recipes" / "probe.toml").write_text("schema = 1\nid = [broken\n")
    result = run([sys.executable, "-c", BROKEN_RESOURCES, str(resources)], quiet_env(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "✖ Verification harness" in out and "verify_kernel.py" in out
    assert "✖ Recipe problem: probe.toml" in out
    assert "✔ Environment probe" in out  # the rest is still checked and reported
    assert "Self-test FAILED" in out


# -- the bundle -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Bundle:
    folder: Path  # dist/kernel-setup-wizard
    work: Path | None  # PyInstaller's work folder (generated version resources), if known

    @property
    def cli(self) -> Path:
        return self.folder / (f"{CLI}.exe" if sys.platform == "win32" else CLI)

    @property
    def internal(self) -> Path:
        return self.folder / "_internal"


def build_bundle(dist: Path, work: Path, *spec_args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("PyInstaller", reason="PyInstaller is missing (pip install -e .[dev])")
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--distpath", str(dist),
               "--workpath", str(work), str(REPO / "installer.spec")]
    if spec_args:
        command += ["--", *spec_args]
    result = run(command, dict(os.environ), timeout=1200)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    return result


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    given = os.environ.get("KSW_BUNDLE_DIR")
    if given:  # .ci/run built it already
        work = os.environ.get("KSW_BUNDLE_WORK")
        return Bundle(Path(given), Path(work) if work else None)
    root = tmp_path_factory.mktemp("bundle")
    build_bundle(root / "dist", root / "work")
    return Bundle(root / "dist" / NAME, root / "work" / "installer")


def files_of(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]


@pytest.mark.slow
def test_bundle_layout_contents_and_size(bundle: Bundle) -> None:
    assert (bundle.folder / NAME).exists() or (bundle.folder / f"{NAME}.exe").exists()
    assert bundle.cli.exists()
    resources = bundle.internal / "resources"
    for part in ("recipes/probe.toml", "recipes/flash_attn.toml", "probe_kernel/setup.py",
                 "verify/verify_kernel.py", "probes/inspect_env.py",
                 "diagnosis/failures.toml", "icons/ksw.png", "icons/ksw.ico",
                 "translations/ksw_zh_CN.qm"):
        assert (resources / part).is_file(), part
    names = [p.relative_to(bundle.internal).as_posix() for p in files_of(bundle.internal)]
    for unwanted in ("torch", "PyQt5", "PyQt6", "PySide2", "QtNetwork", "Qt6Network",
                     "Qt6Pdf", "Qt6Quick", "Qt6Qml", "libqgtk3", "numpy", "cryptography"):
        assert not [n for n in names if unwanted in n], unwanted
    # of Qt's own translations only the basic words of the shipped languages
    qt_translations = sorted(Path(n).name for n in names
                             if "translations/" in n and not n.startswith("resources/"))
    assert qt_translations in ([], ["qtbase_zh_CN.qm"]), qt_translations
    assert not (resources / "translations" / "ksw_zh_CN.ts").exists()  # the source, not shipped
    if sys.platform.startswith("linux"):
        sizes = sorted(((p.stat().st_size, p) for p in files_of(bundle.folder)), reverse=True)
        total = sum(size for size, _ in sizes)
        biggest = "\n".join(f"{s / 1e6:7.1f} MB {p}" for s, p in sizes[:10])
        limit = max_bundle_bytes(bundled_python(bundle.internal))
        assert total <= limit, f"{total / 1024**2:.1f} MiB > {limit / 1024**2:.0f} MiB:\n{biggest}"


@pytest.mark.slow
def test_windows_version_resource_comes_from_the_project_version(bundle: Bundle) -> None:
    from kernel_wizard import __version__
    if bundle.work is None:
        pytest.skip("the bundle's PyInstaller work folder is unknown (KSW_BUNDLE_WORK)")
    text = (bundle.work / f"version-{NAME}.txt").read_text(encoding="utf-8")

    def record(kind: str) -> Any:
        return lambda *args, **kwargs: (kind, args, kwargs)

    kinds = ("VSVersionInfo", "FixedFileInfo", "StringFileInfo", "StringTable", "StringStruct",
             "VarFileInfo", "VarStruct")
    info = eval(text, {k: record(k) for k in kinds})  # noqa: S307 - our own generated file
    fixed = info[2]["ffi"][2]
    numbers = [int(n) for n in __version__.split(".")[:3]]
    assert list(fixed["filevers"][:3]) == numbers and list(fixed["prodvers"][:3]) == numbers
    strings = dict(s[1] for s in info[2]["kids"][0][1][0][0][1][1])
    assert strings["FileVersion"] == __version__ and strings["ProductVersion"] == __version__
    assert strings["OriginalFilename"] == f"{NAME}.exe"


@pytest.mark.slow
def test_frozen_self_test(bundle: Bundle, tmp_path: Path) -> None:
    result = run([str(bundle.cli), "--self-test"], quiet_env(tmp_path), cwd=tmp_path)
    assert_all_passed(result)
    assert ", bundle, resources at " in result.stdout
    assert str(bundle.internal) in result.stdout  # resources found inside the bundle
    assert "platform 'offscreen'" in result.stdout


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run (apt install xvfb)")
def test_frozen_self_test_on_an_x_display(bundle: Bundle, tmp_path: Path) -> None:
    env = quiet_env(tmp_path)
    env.pop("QT_QPA_PLATFORM")
    env.pop("WAYLAND_DISPLAY", None)
    result = run(["xvfb-run", "-a", str(bundle.cli), "--self-test"], env, cwd=tmp_path)
    assert_all_passed(result)
    assert "platform 'xcb'" in result.stdout  # the bundled xcb plugin and its libraries load


@pytest.mark.slow
def test_frozen_headless_detect(bundle: Bundle, tmp_path: Path, torch_venv: Path) -> None:
    env = quiet_env(tmp_path)
    plain = run([str(bundle.cli), "--headless", "detect"], env, cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert "GPUs" in plain.stdout and "Host" in plain.stdout
    assert "Target Python environment" in plain.stdout
    # the wizard never offers itself as a Python; it names itself only in the commands it
    # tells the person to run (its console program, never 'python -m app')
    itself = [line for line in plain.stdout.splitlines() if str(bundle.folder) in line]
    assert all(f"{bundle.cli} --headless " in line for line in itself), itself
    assert "python -m app" not in plain.stdout + plain.stderr
    as_json = run([str(bundle.cli), "--headless", "detect", "--json", "--python",
                   str(torch_venv)], env, cwd=tmp_path)
    assert as_json.returncode == 0, as_json.stderr
    document = json.loads(as_json.stdout)
    assert document["environment"]["executable"] == str(torch_venv)
    assert document["environment"]["torch"]["version"].startswith("2.13.0")


@pytest.mark.slow
def test_frozen_program_builds_verifies_and_installs_the_probe_kernel(
    bundle: Bundle, tmp_path: Path, scratch_torch_env: Path, torch_venv: Path
) -> None:
    shared_before = pip_freeze(torch_venv)
    bundle_before = sorted(str(p.relative_to(bundle.folder)) for p in bundle.folder.rglob("*"))
    env = quiet_env(tmp_path)
    result = run([str(bundle.cli), "--headless", "build", "--kernel", "probe", "--python",
                  str(scratch_torch_env), "--quick-verify", "--json", "--yes"], env, timeout=900,
                 cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    outcome = json.loads(result.stdout)
    assert outcome["status"] == "succeeded", outcome["message"]
    wheel = Path(outcome["wheel"])
    assert wheel.is_file() and wheel.name.startswith("ksw_probe_kernel-")
    assert Path(env["KSW_DATA_DIR"]) in wheel.parents
    # the build and the verification ran in the target Python, not in the frozen wizard
    assert outcome["plan"]["command"][0] == str(scratch_torch_env)
    verification = outcome["verification"]
    assert verification["status"] == "pass"
    assert verification["environment"]["python_executable"] == str(scratch_torch_env)
    assert outcome["installed"] is True
    imported = run([str(scratch_torch_env), "-c",
                    "import ksw_probe, torch; print(ksw_probe.__file__)"], env, cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert str(scratch_torch_env.parent.parent) in imported.stdout  # installed in the scratch env
    assert pip_freeze(torch_venv) == shared_before  # the shared torch venv is untouched
    # the program's own folder is never written (no build/, *.egg-info in its probe source):
    # a bundle in Program Files or on a read-only mount builds all the same
    assert Path(outcome["plan"]["cwd"]).parent == Path(env["KSW_BUILD_ROOT"])
    after = sorted(str(p.relative_to(bundle.folder)) for p in bundle.folder.rglob("*"))
    assert after == bundle_before


@pytest.mark.slow
def test_frozen_self_test_names_what_is_missing(bundle: Bundle, tmp_path: Path) -> None:
    copy = tmp_path / "copy" / NAME
    shutil.copytree(bundle.folder, copy, symlinks=True)
    resources = copy / "_internal" / "resources"
    (resources / "probe_kernel" / "setup.py").unlink()
    (resources / "recipes" / "flash_attn.toml").write_text("schema = [\n", encoding="utf-8")
    cli = copy / bundle.cli.name
    result = run([str(cli), "--self-test"], quiet_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "✖ Probe kernel source" in result.stdout and "setup.py" in result.stdout
    assert "✖ Recipe problem: flash_attn.toml" in result.stdout
    assert "Self-test FAILED" in result.stdout


@pytest.mark.slow
def test_onefile_switch_builds_a_single_executable(tmp_path: Path) -> None:
    build_bundle(tmp_path / "dist", tmp_path / "work", "--onefile")
    exe = tmp_path / "dist" / (f"{NAME}.exe" if sys.platform == "win32" else NAME)
    assert exe.is_file()
    assert not (tmp_path / "dist" / NAME / "_internal").exists()
    cli = tmp_path / "dist" / (f"{CLI}.exe" if sys.platform == "win32" else CLI)
    result = run([str(cli), "--self-test"], quiet_env(tmp_path), cwd=tmp_path)
    assert_all_passed(result)
