"""The Windows build environment: vcvarsall's captured output (recorded) → the plan."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_prereqs import COMMUNITY_2026, msvc  # recorded vswhere + toolset listings

from build_backend.compiler_env import (
    CompilerEnvError,
    env_changes_from_capture,
    parse_set_output,
    vcvars_command,
    windows_build_env,
)
from build_backend.parallelism import Parallelism
from build_backend.plan import make_plan
from build_backend.prereqs.compiler import judge_instances
from build_backend.processes import EnvChange
from build_backend.toolchain import parse_host_config

DATA = Path(__file__).resolve().parents[1] / "data"
CAPTURE = (DATA / "windows" / "vcvarsall-x64-14.44-set.utf16le.txt").read_bytes()
BASE = {
    "PATH": r"C:\WINDOWS\system32;C:\WINDOWS;C:\WINDOWS\System32\Wbem;C:\Users\Zoë Müller"
            r"\AppData\Local\Programs\Python\Python312\Scripts\;C:\Users\Zoë Müller\AppData"
            r"\Local\Programs\Python\Python312\;C:\Program Files\NVIDIA GPU Computing Toolkit"
            r"\CUDA\v12.6\bin",
    "NUMBER_OF_PROCESSORS": "16",
    "OS": "Windows_NT",
    "PROMPT": "$P$G",
}


def test_set_output_is_read_from_utf16() -> None:
    captured = parse_set_output(CAPTURE)
    assert captured["VCToolsVersion"] == "14.44.35207"
    assert captured["VSCMD_ARG_TGT_ARCH"] == "x64"
    assert captured["Path"].split(";")[0].endswith(r"MSVC\14.44.35207\bin\HostX64\x64")
    assert "Zoë Müller" in captured["APPDATA"]  # non-ASCII letters survive
    assert not any(k.startswith("*") or k.startswith("[") for k in captured)  # the banner


def test_only_what_vcvarsall_changed_becomes_a_change_with_the_base_spelling() -> None:
    changes = {c.name: c for c in env_changes_from_capture(parse_set_output(CAPTURE), BASE)}
    assert "PATH" in changes and "Path" not in changes  # one PATH, as Windows sees it
    assert changes["PATH"].value.endswith(BASE["PATH"])
    assert {"INCLUDE", "LIB", "LIBPATH", "VCToolsVersion", "VSCMD_ARG_TGT_ARCH"} <= set(changes)
    assert "OS" not in changes and "NUMBER_OF_PROCESSORS" not in changes  # unchanged
    assert "PROMPT" not in changes


def test_vcvars_command_pins_the_toolset() -> None:
    vcvarsall = Path(r"C:\Program Files\Microsoft Visual Studio\18\Community\VC\Auxiliary"
                     r"\Build\vcvarsall.bat")
    # one command line: cmd.exe strips the outer quotes of /c ""...""; a list would make
    # Python escape the inner quotes as \" (which cmd does not understand)
    assert vcvars_command(vcvarsall, "x64", "14.44") == (
        f'cmd.exe /u /c ""{vcvarsall}" x64 -vcvars_ver=14.44 && set"')
    assert vcvars_command(vcvarsall) == f'cmd.exe /u /c ""{vcvarsall}" x64 && set"'


@pytest.fixture()
def vs2026_only(tmp_path: Path) -> list[object]:
    """VS 2026 (default toolset 14.50) with the 14.44 toolset also installed (recorded)."""
    usable = judge_instances(msvc("vs2026-beside-buildtools-2022.json", only=COMMUNITY_2026)).usable
    assert usable
    return list(usable)


def test_cuda_12_6_gets_the_14_44_toolset_through_vcvars(
    vs2026_only: list[object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bounds = parse_host_config((DATA / "host_config" / "cuda-12.6-windows.h").read_bytes()
                               .decode("utf-8"))
    commands: list[str] = []

    def capture(command: str) -> bytes:
        commands.append(command)
        return CAPTURE

    def exists(self: Path) -> bool:  # the recorded instance's vcvarsall.bat "exists"
        return self.name == "vcvarsall.bat" or os.path.isfile(self)

    monkeypatch.setattr(Path, "is_file", exists)
    changes, note = windows_build_env(capture, vs2026_only, bounds, "12.6", BASE,
                                      tmp_path / "t")
    (command,) = commands
    assert 'vcvarsall.bat" x64 -vcvars_ver=14.44' in command  # not VS 2026's 14.50
    assert command.endswith(' && set"')
    names = {c.name: c.value for c in changes}
    assert names["DISTUTILS_USE_SDK"] == "1"
    assert names["TEMP"] == names["TMP"] == str(tmp_path / "t")
    assert "14.44" in note and "-vcvars_ver=14.44" in note


def test_a_failed_vcvars_run_is_a_clear_error(vs2026_only: list[object], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Path, "is_file", lambda self: True)
    broken = "ERROR: Cannot determine the location of the VS Common Tools folder.\r\n"
    with pytest.raises(CompilerEnvError) as caught:
        windows_build_env(lambda c: broken.encode("utf-16-le"), vs2026_only, None, "13.0",
                          BASE, tmp_path / "t")
    assert "Repair Visual Studio" in caught.value.hint
    assert "VS Common Tools" in caught.value.why


def test_no_accepted_toolset_points_to_the_prerequisites(tmp_path: Path) -> None:
    with pytest.raises(CompilerEnvError, match="No Visual Studio C\\+\\+ toolset"):
        windows_build_env(lambda c: b"", [], None, "12.4", BASE, tmp_path / "t")


def test_the_captured_path_comes_before_the_cuda_and_env_prepends(tmp_path: Path) -> None:
    captured = env_changes_from_capture(parse_set_output(CAPTURE), BASE)
    plan = make_plan(
        kernel="k", version="1", source_dir=tmp_path, python=Path(r"C:\env\python.exe"),
        python_scripts=Path(r"C:\env\Scripts"), output_dir=tmp_path / "o",
        log_path=tmp_path / "l.log", parallelism=Parallelism(2, 1, "test"),
        cuda_home=Path(r"C:\CUDA\v12.6"), cuda_version=(12, 6), host_include_var="INCLUDE",
        compiler_env=[*captured, EnvChange("DISTUTILS_USE_SDK", "1")],
    )
    env = plan.environment(BASE)
    path = env["PATH"]
    cuda_bin = str(Path(r"C:\CUDA\v12.6") / "bin")
    assert path.startswith(cuda_bin)  # nvcc first, then the target's ninja, then cl.exe
    assert path.index(cuda_bin) < path.index(r"C:\env\Scripts") < path.index(r"HostX64\x64")
    assert path.endswith(BASE["PATH"])
    assert env["DISTUTILS_USE_SDK"] == "1" and env["VCToolsVersion"] == "14.44.35207"
