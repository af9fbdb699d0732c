"""The msvc module on recorded Windows outputs: vswhere (also in a Japanese code page), the
toolset folders, vcvarsall's captured environment, cl.exe banners in several languages, and the
build environment a plan gets — all through the platform seam, replaying what Windows printed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from test_prereqs import COMMUNITY_2026, msvc  # recorded vswhere + toolset listings

from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.base.processes import EnvChange
from kernel_wizard.build.plan import make_plan
from kernel_wizard.machine.msvc import (
    CompilerEnvError,
    MsvcFacts,
    VsInstanceFacts,
    build_environment,
    capture_environment,
    env_changes_from_capture,
    judge_instances,
    msvc_facts_from_output,
    parse_cl_banner,
    parse_set_output,
    vcvars_command,
    vswhere_query,
    windows_build_env,
)
from kernel_wizard.machine.platforms import ProgramOutput
from kernel_wizard.machine.platforms.linux import LinuxPlatform
from kernel_wizard.machine.toolchain import parse_host_config
from kernel_wizard.machine.toolkits import cuda_bin_dirs
from kernel_wizard.prereqs.compiler import check_compiler
from kernel_wizard.prereqs.model import CheckStatus

DATA = Path(__file__).resolve().parents[1] / "data"
CAPTURE = (DATA / "windows" / "vcvarsall-x64-14.44-set.utf16le.txt").read_bytes()
BANNER_14_44 = (DATA / "msvc" / "cl" / "en-19.44.35213-x64.txt").read_bytes()
VSWHERE = Path(r"C:\Program Files (x86)\Microsoft Visual Studio\Installer\vswhere.exe")
BT_2022 = r"C:\Program Files (x86)\Microsoft Visual Studio\2022\BuildTools"
BASE = {
    "PATH": r"C:\WINDOWS\system32;C:\WINDOWS;C:\WINDOWS\System32\Wbem;C:\Users\Zoë Müller"
            r"\AppData\Local\Programs\Python\Python312\Scripts\;C:\Users\Zoë Müller\AppData"
            r"\Local\Programs\Python\Python312\;C:\Program Files\NVIDIA GPU Computing Toolkit"
            r"\CUDA\v12.6\bin",
    "NUMBER_OF_PROCESSORS": "16",
    "OS": "Windows_NT",
    "PROMPT": "$P$G",
}


class RecordedWindows(LinuxPlatform):
    """The platform seam answering with what Windows printed (recorded), and keeping what it
    was asked to run."""

    name = "windows"

    def __init__(self, *, capture: bytes = CAPTURE, cl: bytes = BANNER_14_44,
                 vswhere: bytes = b"[]", encodings: tuple[str, ...] = ("cp437", "cp1252"),
                 ) -> None:
        self.capture, self.cl, self.vswhere, self.encodings = capture, cl, vswhere, encodings
        self.programs: list[tuple[list[str], dict[str, str] | None]] = []
        self.captures: list[tuple[str, dict[str, str] | None]] = []

    def vswhere_path(self) -> Path | None:
        return VSWHERE

    def windows_sdk_versions(self) -> list[str]:
        return ["10.0.26100.0"]

    def console_encodings(self) -> tuple[str, ...]:
        return self.encodings

    def run_program(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
                    timeout: float = 30.0) -> ProgramOutput:
        self.programs.append((list(argv), dict(env) if env is not None else None))
        if argv[0].endswith("cl.exe"):
            return ProgramOutput(0, b"usage: cl [ option... ] filename... [ /link linkoption... ]"
                                 b"\r\n", self.cl)
        return ProgramOutput(0, self.vswhere)

    def run_capture(self, command: str, env: Mapping[str, str] | None = None,
                    timeout: float = 120) -> bytes:
        self.captures.append((command, dict(env) if env is not None else None))
        return self.capture


@pytest.fixture()
def vcvarsall_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    def exists(self: Path) -> bool:  # the recorded instance's vcvarsall.bat "exists"
        return self.name == "vcvarsall.bat" or os.path.isfile(self)

    monkeypatch.setattr(Path, "is_file", exists)


@pytest.fixture()
def vs2026_only() -> list[VsInstanceFacts]:
    """VS 2026 (default toolset 14.50) with the 14.44 toolset also installed (recorded)."""
    usable = judge_instances(msvc("vs2026-beside-buildtools-2022.json", only=COMMUNITY_2026)).usable
    assert usable
    return list(usable)


CUDA_12_6 = parse_host_config((DATA / "host_config" / "cuda-12.6-windows.h").read_bytes()
                              .decode("utf-8"))


# -- vcvarsall's captured environment --------------------------------------------------------


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
    assert vcvars_command(vcvarsall, "x64", "14.44.35207") == (
        f'cmd.exe /u /c ""{vcvarsall}" x64 -vcvars_ver=14.44.35207 && set"')
    assert vcvars_command(vcvarsall) == f'cmd.exe /u /c ""{vcvarsall}" x64 && set"'


def test_cuda_12_6_gets_the_14_44_toolset_through_vcvars(
    vs2026_only: list[VsInstanceFacts], tmp_path: Path, vcvarsall_exists: None
) -> None:
    plat = RecordedWindows()
    changes, note = windows_build_env(plat, vs2026_only, CUDA_12_6, "12.6", BASE, tmp_path / "t")
    ((command, _),) = plat.captures
    assert 'vcvarsall.bat" x64 -vcvars_ver=14.44.35207' in command  # not VS 2026's 14.50
    assert command.endswith(' && set"')
    names = {c.name: c.value for c in changes}
    assert names["DISTUTILS_USE_SDK"] == "1"
    assert names["TEMP"] == names["TMP"] == str(tmp_path / "t")
    assert "-vcvars_ver=14.44.35207" in note and "cl.exe 19.44.35213 for x64 confirmed" in note


def test_the_toolset_is_pinned_even_where_it_is_the_default(
    tmp_path: Path, vcvarsall_exists: None
) -> None:
    """Build Tools 2022 whose default *is* 14.44: vcvarsall still gets the full version (a
    v143 default file or an inherited VCToolsVersion would otherwise decide), and the parent's
    VCToolsVersion (a Developer Prompt) does not reach cmd."""
    usable = judge_instances(msvc("buildtools-2022.json")).usable
    plat = RecordedWindows()
    inherited = {**BASE, "VCToolsVersion": "14.38.33130", "VSCMD_VER": "17.14.28"}
    windows_build_env(plat, usable, CUDA_12_6, "12.6", inherited, tmp_path / "t")
    ((command, env),) = plat.captures
    assert "-vcvars_ver=14.44.35207" in command
    assert env is not None and "VCToolsVersion" not in env and env["PATH"] == BASE["PATH"]
    assert capture_environment({"vctoolsversion": "x", "A": "1"}) == {"A": "1"}


def test_a_capture_of_another_toolset_is_a_clear_error(
    vs2026_only: list[VsInstanceFacts], tmp_path: Path, vcvarsall_exists: None
) -> None:
    # the recorded capture as vcvars prints it when it reuses an inherited 14.38
    other = CAPTURE.decode("utf-16-le").replace("VCToolsVersion=14.44.35207",
                                                "VCToolsVersion=14.38.33130")
    plat = RecordedWindows(capture=other.encode("utf-16-le"))
    with pytest.raises(CompilerEnvError) as caught:
        windows_build_env(plat, vs2026_only, CUDA_12_6, "12.6", BASE, tmp_path / "t")
    assert caught.value.what == ("vcvarsall.bat loaded MSVC 14.38.33130, not the MSVC "
                                 "14.44.35207 that CUDA 12.6 needs.")
    assert "Developer" in caught.value.hint


def test_a_compiler_of_another_toolset_is_refused(
    vs2026_only: list[VsInstanceFacts], tmp_path: Path, vcvarsall_exists: None
) -> None:
    wrong = (DATA / "msvc" / "cl" / "zh-19.41.34120-x64.txt").read_text("utf-8")
    plat = RecordedWindows(cl=wrong.encode("gbk"), encodings=("cp936",))
    with pytest.raises(CompilerEnvError) as caught:
        windows_build_env(plat, vs2026_only, CUDA_12_6, "12.6", BASE, tmp_path / "t")
    assert "is not MSVC 14.44.35207 for x64" in caught.value.what
    assert "用于 x64 的 Microsoft (R) C/C++ 优化编译器 19.41.34120 版" in caught.value.why
    (cl_argv, cl_env), = plat.programs
    assert cl_argv[0].replace("/", "\\").endswith(r"bin\Hostx64\x64\cl.exe")
    assert cl_env is not None and cl_env["VCToolsVersion"] == "14.44.35207"  # the captured env


def test_a_failed_vcvars_run_is_a_clear_error(vs2026_only: list[VsInstanceFacts],
                                              tmp_path: Path, vcvarsall_exists: None) -> None:
    broken = "ERROR: Cannot determine the location of the VS Common Tools folder.\r\n"
    plat = RecordedWindows(capture=broken.encode("utf-16-le"))
    with pytest.raises(CompilerEnvError) as caught:
        windows_build_env(plat, vs2026_only, None, "13.0", BASE, tmp_path / "t")
    assert "Repair Visual Studio" in caught.value.hint
    assert "VS Common Tools" in caught.value.why


def test_no_accepted_toolset_points_to_the_prerequisites(tmp_path: Path) -> None:
    with pytest.raises(CompilerEnvError, match="No Visual Studio C\\+\\+ toolset"):
        windows_build_env(RecordedWindows(), [], None, "12.4", BASE, tmp_path / "t")


def test_build_environment_is_the_one_entry_point_for_planning(
    tmp_path: Path, vcvarsall_exists: None
) -> None:
    """Toolkit root → host_config bounds; the recorded vswhere answer → instances; capture."""
    cuda = tmp_path / "CUDA" / "v12.6"
    (cuda / "include" / "crt").mkdir(parents=True)
    (cuda / "include" / "crt" / "host_config.h").write_bytes(
        (DATA / "host_config" / "cuda-12.6-windows.h").read_bytes())
    facts = msvc("vs2026-beside-buildtools-2022.json")
    changes, note = build_environment(cuda, "12.6", tmp_path, platform=RecordedWindows(),
                                      environ=BASE, msvc=facts)
    assert "MSVC 14.44.35207" in note and "14.50.35717" in note  # the newer one skipped
    assert {c.name: c.value for c in changes}["TEMP"] == str(tmp_path / "t")


# -- vswhere: code pages, installed components ----------------------------------------------


def test_vswhere_in_the_japanese_code_page_is_still_read() -> None:
    """vswhere 3.0.1 ignores -utf8 (microsoft/vswhere#262): CP932 "ソ" is 83 5C, a stray
    backslash in the JSON string if read as anything else. Read strictly as UTF-8 first, then
    in the OEM code page."""
    raw = (DATA / "vswhere" / "community-2017-ja.cp932.json").read_bytes()
    assert b"\x83\x5c" in raw
    facts = msvc_facts_from_output(VSWHERE, ProgramOutput(0, raw), ("cp932",), ("10.0.1",),
                                   listing={})
    assert facts.error == "" and facts.encoding == "cp932"
    (found,) = facts.instances
    assert found.instance.display_name == "Visual Studio Community 2017"
    assert "オープン ソース" in facts.vswhere_output
    # before the fix: decoded as UTF-8 with replacement, JSON rejected the answer
    broken = msvc_facts_from_output(VSWHERE, ProgramOutput(0, raw), (), (), listing={})
    assert "not the JSON list" in broken.error


def test_vswhere_is_asked_for_the_installed_packages() -> None:
    args = vswhere_query(VSWHERE)
    assert args[-2:] == ["-include", "packages"] and "-utf8" in args and "-all" in args


def test_leftover_and_preview_toolsets_are_not_used() -> None:
    """Build Tools 2022 (vswhere -include packages): 14.44 is the default, 14.40 has its
    "MSVC v143 ... (v14.40-17.10)" component, 14.38 is a folder nothing installed any more."""
    raw = (DATA / "vswhere" / "buildtools-2022-with-packages.json").read_bytes()
    listing = {BT_2022: ((DATA / "msvc" / "buildtools-2022-leftovers.dir-b.txt")
                         .read_text("utf-8").splitlines(),
                         (DATA / "msvc" / "vctools-default-2022-17.14.txt").read_text("utf-8"))}
    facts = msvc_facts_from_output(VSWHERE, ProgramOutput(0, raw), (), ("10.0.1",),
                                   listing=listing)
    (found,) = facts.instances
    assert [t.text for t in found.toolsets] == ["14.44.35207", "14.40.33807"]
    ((left, reason),) = [(u.toolset.text, u.reason) for u in found.unusable_toolsets]
    assert left == "14.38.33130" and "MSB8052" in reason
    result = check_compiler_facts(facts)
    assert result.status is CheckStatus.OK
    assert "MSVC 14.38.33130 in Visual Studio Build Tools 2022 17.14.28 is not used" in \
        result.detail


def test_toolsets_of_a_preview_instance_are_not_used() -> None:
    import json

    answer = json.loads((DATA / "vswhere" / "buildtools-2022.json").read_text("utf-8"))
    answer[0]["isPrerelease"] = True  # the same instance, installed from the Preview channel
    listing = {BT_2022: (["14.44.35207"], None)}
    facts = msvc_facts_from_output(VSWHERE, ProgramOutput(0, json.dumps(answer).encode()), (),
                                   ("10.0.1",), listing=listing)
    verdict = judge_instances(facts)
    assert verdict.usable == ()
    assert "Preview" in verdict.rejected[0][1]


def check_compiler_facts(facts: MsvcFacts):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from test_prereqs import windows

    return check_compiler(replace(windows(), compiler=facts))


# -- cl.exe banners --------------------------------------------------------------------------

BANNERS = {
    "en-19.44.35213-x64.txt": ((19, 44, 35213), "x64"),
    "de-19.43.34809-x64.txt": ((19, 43, 34809), "x64"),
    "de-19.38.33133-x86.txt": ((19, 38, 33133), "x86"),
    "zh-19.44.35217-x64.txt": ((19, 44, 35217), "x64"),
    "zh-19.41.34120-x64.txt": ((19, 41, 34120), "x64"),
    "ja-19.29.30159-x64.txt": ((19, 29, 30159), "x64"),
    "ko-19.29.30133-x64.txt": ((19, 29, 30133), "x64"),
    "ru-19.44.35213-x86.txt": ((19, 44, 35213), "x86"),
    "fr-19.30.30706-x64.txt": ((19, 30, 30706), "x64"),
}


@pytest.mark.parametrize("name", sorted(BANNERS))
def test_cl_banners_in_every_language_give_version_and_target(name: str) -> None:
    banner = parse_cl_banner((DATA / "msvc" / "cl" / name).read_text("utf-8"))
    assert (banner.version, banner.target) == BANNERS[name]
    assert banner.msc_ver == 1900 + BANNERS[name][0][1]


def test_cl_banner_build_number_differs_from_its_folder() -> None:
    # the French banner 19.30.30706 came from ...\MSVC\14.30.30705\bin\Hostx64\x64\cl.exe
    banner = parse_cl_banner((DATA / "msvc" / "cl" / "fr-19.30.30706-x64.txt").read_text("utf-8"))
    assert banner.toolset_minor == 30


def test_a_banner_that_is_not_cl_is_a_clear_error() -> None:
    with pytest.raises(Exception, match="banner"):
        parse_cl_banner("'cl' is not recognized as an internal or external command,\r\n")


# -- CUDA 13's bin\x64 -----------------------------------------------------------------------


def test_cuda_13_on_windows_puts_bin_x64_on_path_before_bin(tmp_path: Path) -> None:
    cuda = Path(r"C:\CUDA\v13.0")
    assert cuda_bin_dirs(cuda, (13, 0), "windows") == [cuda / "bin" / "x64", cuda / "bin"]
    assert cuda_bin_dirs(cuda, (12, 8), "windows") == [cuda / "bin"]
    assert cuda_bin_dirs(Path("/usr/local/cuda-13.0"), (13, 0), "linux") == \
        [Path("/usr/local/cuda-13.0/bin")]
    plan = make_plan(
        kernel="k", version="1", source_dir=tmp_path, python=Path(r"C:\env\python.exe"),
        python_scripts=Path(r"C:\env\Scripts"), output_dir=tmp_path / "o",
        log_path=tmp_path / "l.log", parallelism=Parallelism(2, 1, "test"),
        cuda_home=cuda, cuda_version=(13, 0), host_include_var="INCLUDE",
        platform_name="windows",
    )
    path = plan.environment(BASE)["PATH"]
    assert path.startswith(str(cuda / "bin" / "x64") + os.pathsep + str(cuda / "bin") +
                           os.pathsep + r"C:\env\Scripts")


def test_the_verification_gets_the_same_path(tmp_path: Path) -> None:
    from kernel_wizard.base.processes import child_environment
    from kernel_wizard.verify.runner import harness_env_changes

    cuda = Path(r"C:\CUDA\v13.0")
    changes = harness_env_changes([], path_prepend=cuda_bin_dirs(cuda, (13, 0), "windows"))
    env = child_environment(changes, base={"Path": "C:\\WINDOWS"}, ignore_case=True)
    assert env["Path"] == os.pathsep.join([str(cuda / "bin" / "x64"), str(cuda / "bin"),
                                           "C:\\WINDOWS"])  # the one PATH, its own spelling


def test_the_captured_path_comes_before_the_cuda_and_env_prepends(tmp_path: Path) -> None:
    captured = env_changes_from_capture(parse_set_output(CAPTURE), BASE)
    plan = make_plan(
        kernel="k", version="1", source_dir=tmp_path, python=Path(r"C:\env\python.exe"),
        python_scripts=Path(r"C:\env\Scripts"), output_dir=tmp_path / "o",
        log_path=tmp_path / "l.log", parallelism=Parallelism(2, 1, "test"),
        cuda_home=Path(r"C:\CUDA\v12.6"), cuda_version=(12, 6), host_include_var="INCLUDE",
        compiler_env=[*captured, EnvChange("DISTUTILS_USE_SDK", "1")], platform_name="windows",
    )
    env = plan.environment(BASE)
    path = env["PATH"]
    cuda_bin = str(Path(r"C:\CUDA\v12.6") / "bin")
    assert path.startswith(cuda_bin)  # nvcc first, then the target's ninja, then cl.exe
    assert path.index(cuda_bin) < path.index(r"C:\env\Scripts") < path.index(r"HostX64\x64")
    assert path.endswith(BASE["PATH"])
    assert env["DISTUTILS_USE_SDK"] == "1" and env["VCToolsVersion"] == "14.44.35207"
