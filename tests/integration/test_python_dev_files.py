"""A target Python without its C headers (an embedded Python, ComfyUI portable): the probe
finds out on a real stripped-down interpreter copy, the check explains it, and the fix fetches
a NuGet-shaped package from a real HTTP server on loopback and puts the headers in place."""

from __future__ import annotations

import importlib.util
import io
import os
import shutil
import sys
import sysconfig
import threading
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from loopback_http import LoopbackServer, Resource

from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.prereqs.fixes import PythonDevFilesFix, check_python_nupkg
from kernel_wizard.prereqs.model import CheckStatus, FixStatus
from kernel_wizard.prereqs.target import check_python_env

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))  # test_prereqs' facts

VERSION = ".".join(str(n) for n in sys.version_info[:3])
LIB = f"python{sys.version_info[0]}{sys.version_info[1]}.lib"


pytestmark = pytest.mark.usefixtures("no_proxy")  # tests/integration/conftest.py


@pytest.fixture
def stripped_python(tmp_path: Path) -> Path:
    """A copy of this interpreter in a prefix of its own, with the standard library but
    without include/ — laid out like an embedded Python that ships no headers."""
    if sys.platform == "win32" or not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        pytest.skip("needs a Linux interpreter linked against libpython")
    prefix = tmp_path / "embedded python"
    (prefix / "bin").mkdir(parents=True)
    exe = prefix / "bin" / Path(sys._base_executable).name  # type: ignore[attr-defined]
    shutil.copy2(os.path.realpath(sys._base_executable), exe)  # type: ignore[attr-defined]
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    lib = prefix / "lib" / stdlib.name
    lib.mkdir(parents=True)
    for entry in stdlib.iterdir():  # the standard library as it is, entry by entry
        if entry.name not in ("site-packages", "dist-packages"):
            (lib / entry.name).symlink_to(entry)
    # pip where this prefix's interpreter looks for packages: beside the standard library for
    # python.org builds, in dist-packages for Debian's (whose pip is not in the stdlib folder)
    spec = importlib.util.find_spec("pip")
    assert spec is not None and spec.origin is not None, "the tests need pip"
    pip = Path(spec.origin).parent
    for site in (lib / "site-packages", lib / "dist-packages",
                 prefix / "lib" / "python3" / "dist-packages"):
        site.mkdir(parents=True, exist_ok=True)
        (site / "pip").symlink_to(pip)
    return exe


def nupkg(version: str = VERSION) -> bytes:
    """A zip shaped like python.org's NuGet package (tools/include, tools/libs)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        bundle.writestr("python.nuspec", f"<package><metadata><version>{version}</version>"
                        "</metadata></package>")
        bundle.writestr("tools/include/Python.h", "/* Python.h */\n")
        bundle.writestr("tools/include/patchlevel.h", f'#define PY_VERSION "{version}"\n')
        bundle.writestr("tools/include/cpython/object.h", "/* nested */\n")
        bundle.writestr(f"tools/libs/{LIB}", b"!<arch>\n")
        bundle.writestr("tools/libs/python3.lib", b"!<arch>\n")
        bundle.writestr("tools/python.exe", b"MZ")
    return buffer.getvalue()


def test_the_probe_reports_the_missing_headers_and_the_check_offers_the_fix(
    stripped_python: Path, tmp_path: Path
) -> None:
    env = inspect_python(stripped_python)
    dev = env.dev_files
    assert dev is not None and not dev.python_h
    assert dev.include_dir == tmp_path / "embedded python" / "include" / \
        f"python{sys.version_info[0]}.{sys.version_info[1]}"
    assert dev.missing == (str(dev.include_dir / "Python.h"),)

    from test_prereqs import facts  # the recorded H100 machine (Linux)

    result = check_python_env(replace(facts(), env=env))
    assert result.status.blocks
    assert result.summary == ("This Python has no C headers (Python.h), so no kernel can be "
                              "built for it.")
    assert str(dev.include_dir / "Python.h") in result.detail
    fix = result.fix
    assert isinstance(fix, PythonDevFilesFix) and fix.version == VERSION
    assert fix.include_dir == dev.include_dir and fix.import_lib is None
    assert f"https://www.nuget.org/api/v2/package/python/{VERSION}" in fix.description
    assert str(dev.include_dir) in fix.description  # what is written where, before it runs
    assert "no SHA-256" in fix.description


def test_a_full_interpreter_has_its_headers() -> None:
    env = inspect_python(Path(sys.executable))
    assert env.dev_files is not None
    assert env.dev_files.python_h == (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file()


def test_the_fix_places_headers_and_import_library_from_the_package(
    server: LoopbackServer, stripped_python: Path, tmp_path: Path
) -> None:
    env = inspect_python(stripped_python)
    assert env.dev_files is not None and env.dev_files.include_dir is not None
    url = server.add(f"/api/v2/package/python/{VERSION}", Resource(nupkg()))
    libs = tmp_path / "embedded python" / "libs"
    libs.mkdir()
    (libs / "python3.lib").write_bytes(b"mine")  # already there: kept as it is
    fix = PythonDevFilesFix(VERSION, env.dev_files.include_dir, libs, LIB, url=url,
                            download_to=tmp_path / "dl" / "python.nupkg", allow_http=True)
    assert fix.command_preview[1] == f"copy tools/include/* → {env.dev_files.include_dir}"
    lines: list[str] = []
    outcome = fix.run(lines.append, threading.Event())
    assert outcome.status is FixStatus.DONE, outcome
    assert (env.dev_files.include_dir / "cpython" / "object.h").is_file()
    assert (libs / LIB).read_bytes() == b"!<arch>\n"
    assert (libs / "python3.lib").read_bytes() == b"mine"
    assert not (tmp_path / "embedded python" / "python.exe").exists()  # only headers and libs
    assert any("kept 1" in line for line in lines)
    again = inspect_python(stripped_python)  # what the page re-checks after the fix
    assert again.dev_files is not None and again.dev_files.python_h


def test_a_package_of_another_version_changes_nothing(
    server: LoopbackServer, tmp_path: Path
) -> None:
    url = server.add("/python/other", Resource(nupkg("3.9.13")))
    include = tmp_path / "include"
    fix = PythonDevFilesFix(VERSION, include, url=url, download_to=tmp_path / "p.nupkg",
                            allow_http=True)
    outcome = fix.run(lambda _line: None, threading.Event())
    assert outcome.status is FixStatus.FAILED
    assert f"its headers are Python 3.9.13, not {VERSION}" in outcome.message
    assert not include.exists() and not (tmp_path / "p.nupkg").exists()


def test_the_package_check_names_what_is_missing(tmp_path: Path) -> None:
    archive = tmp_path / "p.nupkg"
    archive.write_bytes(nupkg())
    assert check_python_nupkg(archive, VERSION, LIB) == ""
    assert check_python_nupkg(archive, VERSION, "python299.lib") == \
        "the package has no tools/libs/python299.lib"
    archive.write_bytes(b"<html>not a zip</html>")
    assert check_python_nupkg(archive, VERSION, None).startswith("the download is not a "
                                                                 "readable zip")


def test_a_check_status_stays_ok_with_headers(tmp_path: Path) -> None:
    from test_prereqs import facts

    env = inspect_python(Path(sys.executable))
    if env.dev_files is None or not env.dev_files.python_h:
        pytest.skip("this interpreter has no headers")
    result = check_python_env(replace(facts(), env=env))
    assert "missing_dev_files" not in result.facts
    assert result.status is not CheckStatus.BLOCKED or "C headers" not in result.summary
