"""Toolchain parsers and decisions on recorded real outputs, plus this machine's real tools.

Recorded data lives in tests/data/{vswhere,msvc,nvcc,host_config,gcc,reg,cuda}; each folder's
README.md says where every file came from and which ones are verbatim.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kernel_wizard.machine.toolchain import (
    CudaVersion,
    HostCompilerBounds,
    MsvcToolset,
    ToolchainParseError,
    ToolchainProbeError,
    VsProduct,
    VsRejection,
    cccl_include_dir,
    clang_supported,
    cuda_candidates_from_env,
    cuda_candidates_from_folders,
    cuda_version_from_folder,
    gcc_supported,
    list_msvc_toolsets,
    msc_ver_for_toolset,
    msvc_supported,
    parse_cuda_version_json,
    parse_gcc_version,
    parse_host_config,
    parse_msvc_toolsets,
    parse_nvcc_version,
    parse_reg_query_dword,
    parse_vctools_default,
    parse_vswhere,
    pick_msvc_toolset,
    read_host_config,
    read_vctools_default,
    run_gcc_version,
    run_nvcc_version,
    run_vswhere,
    select_vs_instances,
    vswhere_args,
    vswhere_locations,
)

DATA = Path(__file__).resolve().parent.parent / "data"
REAL_CUDA = Path("/usr/local/cuda")
REAL_NVCC = REAL_CUDA / "bin" / "nvcc"
REAL_HOST_CONFIG = REAL_CUDA / "include" / "crt" / "host_config.h"


def read(*parts: str) -> str:
    """A recorded file exactly as stored (bytes decoded as UTF-8, line endings kept)."""
    return DATA.joinpath(*parts).read_bytes().decode("utf-8")


def header(name: str) -> HostCompilerBounds:
    return parse_host_config(read("host_config", name))


def toolsets(*names: str) -> list[MsvcToolset]:
    return parse_msvc_toolsets(names)


# ------------------------------------------------------------------------------- vswhere


def test_vswhere_build_tools_only() -> None:
    [bt] = parse_vswhere(read("vswhere", "buildtools-2022.json"))
    assert (
        str(bt.installation_path)
        == r"C:\Program Files (x86)\Microsoft Visual Studio\2022\BuildTools"
    )
    assert bt.installation_version == (17, 14, 37027, 9)
    assert bt.product is VsProduct.BUILD_TOOLS
    assert bt.display_name == "Visual Studio Build Tools 2022"
    assert bt.product_display_version == "17.14.28"
    assert bt.product_line_version == "2022"
    assert (bt.is_complete, bt.is_launchable, bt.is_reboot_required, bt.is_prerelease) == (
        True,
        True,
        False,
        False,
    )
    assert bt.state == 4294967295
    assert bt.channel_id == "VisualStudio.17.Release"
    assert bt.year == "2022" and bt.major == 17
    assert bt.label == "Visual Studio Build Tools 2022 17.14.28"
    selection = select_vs_instances([bt])
    assert selection.best == bt and selection.rejected == ()


def test_vswhere_community_2022_toolchain_doc_example() -> None:
    [vs] = parse_vswhere(read("vswhere", "community-2022-17.5.json"))
    assert vs.installation_version == (17, 5, 33530, 505)
    assert vs.product is VsProduct.COMMUNITY
    assert vs.product_display_version == "17.5.4"


def test_vswhere_community_and_build_tools() -> None:
    instances = parse_vswhere(read("vswhere", "community-and-buildtools-2022.json"))
    assert [i.product for i in instances] == [VsProduct.COMMUNITY, VsProduct.BUILD_TOOLS]
    assert [i.product_display_version for i in instances] == ["17.13.4", "17.14.28"]
    selection = select_vs_instances(instances)
    # both usable; the newer Build Tools 17.14 comes first
    assert [i.product for i in selection.usable] == [VsProduct.BUILD_TOOLS, VsProduct.COMMUNITY]
    assert selection.rejected == ()


def test_vswhere_vs2026_beside_2022() -> None:
    instances = parse_vswhere(read("vswhere", "vs2026-beside-buildtools-2022.json"))
    vs2026 = next(i for i in instances if i.major == 18)
    assert vs2026.display_name == "Visual Studio Community 2026"
    assert str(vs2026.installation_path) == r"C:\Program Files\Microsoft Visual Studio\18\Community"
    # VS 2026 says "18" in productLineVersion; the year shown to people is still 2026
    assert vs2026.product_line_version == "18"
    assert vs2026.year == "2026"
    assert vs2026.channel_id == "VisualStudio.18.Stable"
    # vswhere -utf8 output with a localised description parses (non-ASCII text)
    assert vs2026.label == "Visual Studio Community 2026 18.10.2"
    selection = select_vs_instances(instances)
    assert selection.best == vs2026  # newest first; MSVC fit is pick_msvc_toolset's job


def test_vswhere_empty_array_is_no_instance() -> None:
    assert parse_vswhere(read("vswhere", "empty.json")) == []
    assert select_vs_instances([]).best is None


def test_vswhere_incomplete_and_reboot_required_are_rejected_with_reasons() -> None:
    instances = parse_vswhere(read("vswhere", "incomplete-and-reboot-required.json"))
    selection = select_vs_instances(instances)
    assert selection.usable == ()
    by_product = {r.instance.product: r for r in selection.rejected}
    incomplete = by_product[VsProduct.PROFESSIONAL]
    assert incomplete.instance.state == 13
    assert incomplete.reasons == (VsRejection.INCOMPLETE, VsRejection.NOT_LAUNCHABLE)
    assert "Repair" in incomplete.explain()
    assert "Visual Studio Professional 2019 16.4.5" in incomplete.explain()
    reboot = by_product[VsProduct.BUILD_TOOLS]
    assert reboot.reasons[0] is VsRejection.REBOOT_REQUIRED  # the thing to do comes first
    assert "Restart the computer" in reboot.explain()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json at all",
        '{"instanceId": "abc"}',  # an object, not a list
        "[1, 2]",
        '[{"installationPath": "C:\\\\VS"}]',  # no installationVersion
        '[{"installationPath": "C:\\\\VS", "installationVersion": "seventeen"}]',
        # vswhere's default text format, i.e. -format json was forgotten
        "Visual Studio Locator version 2.8.4+ff0de50053 [query version 2.3.2200.14893]\r\n"
        "Copyright (C) Microsoft Corporation. All rights reserved.\r\n\r\n"
        "instanceId: 720b6bb8\r\n",
    ],
)
def test_vswhere_garbage_is_a_clear_error(text: str) -> None:
    with pytest.raises(ToolchainParseError) as info:
        parse_vswhere(text)
    assert "vswhere" in info.value.what
    assert info.value.hint


def test_vswhere_command_line_lists_instances_in_any_state() -> None:
    args = vswhere_args(
        Path(r"C:\Program Files (x86)\Microsoft Visual Studio\Installer\vswhere.exe")
    )
    assert args[1:] == [
        "-all",
        "-prerelease",
        "-products",
        "*",
        "-requires",
        "Microsoft.VisualStudio.Component.VC.Tools.x86.x64",
        "-format",
        "json",
        "-utf8",
    ]
    assert vswhere_args(Path("vswhere.exe"), "[17.0,18.0)")[-2:] == ["-version", "[17.0,18.0)"]
    locations = vswhere_locations(
        {"ProgramFiles(x86)": r"C:\Program Files (x86)", "ProgramFiles": r"C:\Program Files"}
    )
    assert [str(p).replace("/", "\\") for p in locations] == [
        r"C:\Program Files (x86)\Microsoft Visual Studio\Installer\vswhere.exe",
        r"C:\Program Files\Microsoft Visual Studio\Installer\vswhere.exe",
    ]


def test_run_vswhere_without_vswhere_is_a_probe_error(tmp_path: Path) -> None:
    with pytest.raises(ToolchainProbeError) as info:
        run_vswhere(tmp_path / "vswhere.exe")
    assert "not found" in info.value.what


# ------------------------------------------------------------------------------- MSVC toolsets


def test_msc_ver_is_1900_plus_toolset_minor() -> None:
    assert msc_ver_for_toolset((14, 16, 27023)) == 1916  # VS 2017 15.9
    assert msc_ver_for_toolset((14, 29, 30133)) == 1929  # VS 2019 16.11
    assert msc_ver_for_toolset((14, 30, 30705)) == 1930  # VS 2022 17.0
    assert msc_ver_for_toolset((14, 40, 33807)) == 1940  # VS 2022 17.10
    assert msc_ver_for_toolset((14, 44, 35207)) == 1944  # VS 2022 17.14
    assert msc_ver_for_toolset((14, 50, 35717)) == 1950  # VS 2026
    with pytest.raises(ValueError):
        msc_ver_for_toolset((15, 0, 0))


def test_toolset_listings() -> None:
    listing = read("msvc", "community-2022-with-v142.dir-b.txt").splitlines()
    found = parse_msvc_toolsets(listing)
    assert [t.text for t in found] == ["14.44.35207", "14.29.30133"]  # newest first
    assert [t.msc_ver for t in found] == [1944, 1929]
    assert [t.platform_toolset for t in found] == ["v143", "v142"]
    vs2026 = parse_msvc_toolsets(read("msvc", "community-2026-with-v143.dir-b.txt").splitlines())
    assert [(t.text, t.msc_ver, t.platform_toolset) for t in vs2026] == [
        ("14.50.35717", 1950, "v145"),
        ("14.44.35207", 1944, "v143"),
    ]
    assert vs2026[0].label == "MSVC 14.50.35717 (v145, _MSC_VER 1950)"
    assert [
        t.text
        for t in parse_msvc_toolsets(read("msvc", "buildtools-2022-17.14.dir-b.txt").splitlines())
    ] == ["14.44.35207"]


def test_toolset_listing_skips_what_is_not_a_toolset() -> None:
    found = parse_msvc_toolsets(
        ["desktop.ini", "14.44", "", "14.44.35207", "15.0.1", "14.44.35207"]
    )
    assert [t.text for t in found] == ["14.44.35207"]
    assert parse_msvc_toolsets([]) == []


def test_vctools_default_files() -> None:
    assert parse_vctools_default(read("msvc", "vctools-default-2022-17.14.txt")) == (14, 44, 35207)
    assert parse_vctools_default(read("msvc", "vctools-default-2022-17.9.txt")) == (14, 39, 33519)
    assert parse_vctools_default(read("msvc", "vctools-default-2026.txt")) == (14, 50, 35717)
    assert parse_vctools_default("\ufeff14.44.35207\r\n") == (14, 44, 35207)
    with pytest.raises(ToolchainParseError):
        parse_vctools_default("")
    with pytest.raises(ToolchainParseError):
        parse_vctools_default("<html>404</html>")


def test_toolsets_and_default_from_a_real_folder_tree(tmp_path: Path) -> None:
    install = tmp_path / "Microsoft Visual Studio" / "18" / "Community"
    for name in ("14.44.35207", "14.50.35717"):
        (install / "VC" / "Tools" / "MSVC" / name).mkdir(parents=True)
    (install / "VC" / "Tools" / "MSVC" / "readme.txt").write_text("not a toolset")
    build = install / "VC" / "Auxiliary" / "Build"
    build.mkdir(parents=True)
    (build / "Microsoft.VCToolsVersion.default.txt").write_bytes(
        DATA.joinpath("msvc", "vctools-default-2026.txt").read_bytes()
    )
    found = list_msvc_toolsets(install)
    assert [t.text for t in found] == ["14.50.35717", "14.44.35207"]
    assert all(t.install == install for t in found)
    assert read_vctools_default(install) == (14, 50, 35717)
    assert list_msvc_toolsets(tmp_path / "nowhere") == []
    assert read_vctools_default(tmp_path / "nowhere") is None


# ------------------------------------------------------------------------------- nvcc


@pytest.mark.parametrize(
    ("name", "release", "full", "build"),
    [
        ("nvcc-11.0-linux.txt", (11, 0), (11, 0, 221), "cuda_11.0_bu.TC445_37.28845127_0"),
        ("nvcc-11.1-linux.txt", (11, 1), (11, 1, 105), "cuda_11.1.TC455_06.29190527_0"),
        ("nvcc-11.8-linux.txt", (11, 8), (11, 8, 89), "cuda_11.8.r11.8/compiler.31833905_0"),
        ("nvcc-12.1-linux.txt", (12, 1), (12, 1, 105), "cuda_12.1.r12.1/compiler.32688072_0"),
        ("nvcc-12.1-windows.txt", (12, 1), (12, 1, 105), "cuda_12.1.r12.1/compiler.32688072_0"),
        ("nvcc-12.4-linux.txt", (12, 4), (12, 4, 131), "cuda_12.4.r12.4/compiler.34097967_0"),
        ("nvcc-12.8-linux.txt", (12, 8), (12, 8, 93), "cuda_12.8.r12.8/compiler.35583870_0"),
        ("nvcc-13.0-linux.txt", (13, 0), (13, 0, 88), "cuda_13.0.r13.0/compiler.36424714_0"),
        ("ptxas-11.8-linux.txt", (11, 8), (11, 8, 89), "cuda_11.8.r11.8/compiler.31833905_0"),
        ("ptxas-12.1-linux.txt", (12, 1), (12, 1, 105), "cuda_12.1.r12.1/compiler.32688072_0"),
        ("ptxas-12.4-linux.txt", (12, 4), (12, 4, 131), "cuda_12.4.r12.4/compiler.34097967_0"),
        ("ptxas-12.8-linux.txt", (12, 8), (12, 8, 93), "cuda_12.8.r12.8/compiler.35583870_0"),
        ("ptxas-13.0-linux.txt", (13, 0), (13, 0, 88), "cuda_13.0.r13.0/compiler.36424714_0"),
    ],
)
def test_nvcc_version_files(
    name: str, release: tuple[int, int], full: tuple[int, ...], build: str
) -> None:
    text = read("nvcc", name)
    version = parse_nvcc_version(text)
    assert (version.release, version.full, version.build) == (release, full, build)
    assert version.text == f"{release[0]}.{release[1]}"
    # the same answer captured through a Windows console (CRLF) reads the same
    assert parse_nvcc_version(text.replace("\n", "\r\n")) == version


@pytest.mark.parametrize("text", ["", "nvcc fatal   : Unknown option '--versoin'\n"])
def test_nvcc_garbage_is_a_clear_error(text: str) -> None:
    with pytest.raises(ToolchainParseError) as info:
        parse_nvcc_version(text)
    assert "nvcc" in info.value.what


def test_nvcc_not_found_message_of_cmd_is_not_a_version() -> None:
    with pytest.raises(ToolchainParseError) as info:
        parse_nvcc_version(read("nvcc", "nvcc-not-found-windows-cmd.txt"))
    assert "is not recognized" in info.value.why


@pytest.mark.skipif(not REAL_NVCC.exists(), reason="no CUDA toolkit at /usr/local/cuda")
def test_real_nvcc_of_this_machine() -> None:
    done = subprocess.run(
        [str(REAL_NVCC), "--version"], capture_output=True, text=True, timeout=60, check=True
    )
    version = parse_nvcc_version(done.stdout)
    assert version.major >= 11 and version.build is not None
    assert f"V{version.full_text}" in done.stdout
    assert run_nvcc_version(REAL_NVCC) == version


def test_run_nvcc_that_does_not_exist(tmp_path: Path) -> None:
    with pytest.raises(ToolchainProbeError):
        run_nvcc_version(tmp_path / "bin" / "nvcc")


def test_cuda_version_json() -> None:
    assert parse_cuda_version_json(read("cuda", "version-12.6.3-windows.json")) == (12, 6, 3)
    for bad in ("", "{}", '{"cuda": {"version": "twelve"}}', "[1]"):
        with pytest.raises(ToolchainParseError):
            parse_cuda_version_json(bad)


# ------------------------------------------------------------------------------- host_config.h


@pytest.mark.parametrize(
    ("name", "msvc", "gcc_max", "clang_max"),
    [
        ("cuda-11.8.h", ((1910,), (1940,)), (12,), (15,)),
        ("cuda-12.1.h", ((1910,), (1940,)), (13,), (16,)),
        ("cuda-12.4.h", ((1910,), (1950,)), (14,), (18,)),
        ("cuda-12.6-windows.h", ((1910,), (1950,)), (14,), (19,)),
        ("cuda-12.8.h", ((1910,), (1950,)), (15,), (20,)),
        ("cuda-13.0.h", ((1920,), (1950,)), (16,), (21,)),
    ],
)
def test_host_config_bounds(
    name: str,
    msvc: tuple[tuple[int], tuple[int]],
    gcc_max: tuple[int],
    clang_max: tuple[int],
) -> None:
    bounds = header(name)
    assert bounds.msvc is not None and bounds.gcc is not None and bounds.clang is not None
    assert (bounds.msvc.minimum, bounds.msvc.maximum) == msvc
    assert (bounds.gcc.minimum, bounds.gcc.maximum) == (None, gcc_max)
    # the generic clang check, not the Grace or HOS (Horizon) clang ones beside it
    assert (bounds.clang.minimum, bounds.clang.maximum) == ((3, 3), clang_max)
    assert bounds.msvc.message.startswith("unsupported Microsoft Visual Studio version!")
    assert bounds.gcc.message.startswith("unsupported GNU version!")
    assert bounds.msvc_deprecated is None  # "_MSC_VER >= 1910 && _MSC_VER < 1910" is empty
    # the recorded line number points at the #error nvcc reports
    lines = read("host_config", name).replace("\r\n", "\n").split("\n")
    assert lines[bounds.msvc.line - 1].startswith("#error -- unsupported Microsoft Visual Studio")
    assert lines[bounds.gcc.line - 1].startswith("#error -- unsupported GNU version")


def test_windows_header_keeps_its_crlf_line_endings() -> None:
    # guards the recording itself: the CRLF copy must stay CRLF for the test above to mean it
    assert b"\r\n" in DATA.joinpath("host_config", "cuda-12.6-windows.h").read_bytes()


def test_cuda_13_accepts_gcc_12_and_13_and_up_to_15() -> None:
    bounds = header("cuda-13.0.h")
    for major in (12, 13, 14, 15):
        assert gcc_supported(bounds, major)
    assert not gcc_supported(bounds, 16)


def test_cuda_12_1_rejects_ubuntu_24_04_gcc_13() -> None:
    bounds = header("cuda-12.1.h")
    gcc = parse_gcc_version(read("gcc", "gcc-version-ubuntu24.04-firstline.txt"))
    assert (gcc.major, gcc.minor) == (13, 3)
    assert not gcc_supported(bounds, gcc.major, gcc.minor)
    assert gcc_supported(bounds, 12, 3)
    assert gcc_supported(header("cuda-12.4.h"), 13, 3)
    assert not gcc_supported(header("cuda-12.4.h"), 14)


def test_msvc_bounds_by_cuda_version() -> None:
    for name in ("cuda-11.8.h", "cuda-12.1.h"):  # 11.8 and 12.0–12.3: upper bound 1940
        bounds = header(name)
        assert msvc_supported(bounds, 1939) and not msvc_supported(bounds, 1940)
        assert msvc_supported(bounds, 1910) and not msvc_supported(bounds, 1909)
    for name in ("cuda-12.4.h", "cuda-12.6-windows.h", "cuda-12.8.h"):  # 12.4–12.9: 1950
        bounds = header(name)
        assert msvc_supported(bounds, 1944) and not msvc_supported(bounds, 1950)
    bounds = header("cuda-13.0.h")  # 13.0: VS 2017 dropped, VS 2026 not yet accepted
    assert not msvc_supported(bounds, 1916)
    assert msvc_supported(bounds, 1920) and msvc_supported(bounds, 1949)
    assert not msvc_supported(bounds, 1950)
    assert (
        bounds.msvc_range_text() == "_MSC_VER 1920–1949 (MSVC 14.20–14.49, Visual Studio 2019–2022)"
    )


def test_clang_bounds() -> None:
    bounds = header("cuda-12.8.h")
    assert clang_supported(bounds, 19) and not clang_supported(bounds, 20)
    assert clang_supported(bounds, 3, 3) and not clang_supported(bounds, 3, 2)


def test_header_with_deleted_gcc_error_checks_no_gcc() -> None:
    # CUDA 11.0 header whose owner deleted the gcc/clang #error lines: nvcc no longer
    # rejects any gcc, so neither do we; MSVC is still checked, with the VS 2012–2013
    # "deprecated" branch of that release
    bounds = header("cuda-11.0-gcc-check-removed.h")
    assert bounds.gcc is None and bounds.clang is None
    assert gcc_supported(bounds, 16)
    assert bounds.msvc is not None
    assert (bounds.msvc.minimum, bounds.msvc.maximum) == ((1700,), (1930,))
    assert bounds.msvc_deprecated == (1700, 1900)
    assert not msvc_supported(bounds, 1930)  # VS 2022 is too new for CUDA 11.0


def test_user_edited_header_is_taken_as_written() -> None:
    bounds = header("cuda-13.0-msvc-bound-edited.h")
    assert msvc_supported(bounds, 1950) and not msvc_supported(bounds, 1951)


def test_host_config_gcc_minor_bound() -> None:
    # a check that also limits the minor version (the form "gcc 13.3 is too new" takes)
    text = (
        "#if defined(__GNUC__)\n"
        "#if __GNUC__ > 13 || (__GNUC__ == 13 && __GNUC_MINOR__ > 2)\n"
        "#error -- unsupported GNU version! gcc versions later than 13.2 are not supported!\n"
        "#endif\n"
        "#endif\n"
    )
    bounds = parse_host_config(text)
    assert bounds.gcc is not None and bounds.gcc.maximum == (13, 3)
    assert gcc_supported(bounds, 13, 2) and not gcc_supported(bounds, 13, 3)
    assert bounds.msvc is None and msvc_supported(bounds, 1999)


@pytest.mark.parametrize("text", ["", "int main() { return 0; }\n", "#error something else\n"])
def test_not_a_host_config_is_a_clear_error(text: str) -> None:
    with pytest.raises(ToolchainParseError):
        parse_host_config(text)


@pytest.mark.skipif(not REAL_HOST_CONFIG.exists(), reason="no CUDA toolkit at /usr/local/cuda")
def test_real_host_config_of_this_machine() -> None:
    bounds = read_host_config(REAL_CUDA)
    assert bounds.msvc is not None and bounds.gcc is not None
    version = run_nvcc_version(REAL_NVCC)
    if version.release == (13, 0):  # the recorded excerpt comes from this very file
        recorded = header("cuda-13.0.h")
        for real, excerpt in ((bounds.msvc, recorded.msvc), (bounds.gcc, recorded.gcc)):
            assert excerpt is not None
            assert (real.minimum, real.maximum, real.message) == (
                excerpt.minimum,
                excerpt.maximum,
                excerpt.message,
            )
        assert bounds.gcc.maximum == (16,) and bounds.msvc.maximum == (1950,)
        assert gcc_supported(bounds, 12) and gcc_supported(bounds, 13)
    # nvcc's own error names this line: "host_config.h(164): fatal error C1189"
    lines = REAL_HOST_CONFIG.read_text().split("\n")
    assert "unsupported Microsoft Visual Studio" in lines[bounds.msvc.line - 1]


def test_read_host_config_of_a_folder_without_one(tmp_path: Path) -> None:
    with pytest.raises(ToolchainProbeError):
        read_host_config(tmp_path)


# ------------------------------------------------------------------------------- toolset choice


def test_vs2026_toolset_skipped_for_cuda_12_4_to_12_9() -> None:
    installed = parse_msvc_toolsets(read("msvc", "community-2026-with-v143.dir-b.txt").splitlines())
    default = parse_vctools_default(read("msvc", "vctools-default-2026.txt"))
    for name in ("cuda-12.4.h", "cuda-12.6-windows.h", "cuda-12.8.h"):
        choice = pick_msvc_toolset(installed, header(name), default)
        assert choice.chosen is not None and choice.chosen.text == "14.44.35207"
        assert [t.text for t in choice.skipped_newer] == ["14.50.35717"]
        assert choice.needs_pin  # vcvarsall would otherwise give 14.50
        explanation = choice.explain()
        assert "14.50.35717" in explanation and "_MSC_VER 1910–1949" in explanation
        assert "-vcvars_ver=14.44.35207" in explanation


def test_cuda_12_1_needs_the_older_v14_38_toolset() -> None:
    installed = parse_msvc_toolsets(
        read("msvc", "buildtools-2022-with-v14.38.dir-b.txt").splitlines()
    )
    choice = pick_msvc_toolset(installed, header("cuda-12.1.h"), (14, 44, 35207))
    assert choice.chosen is not None and choice.chosen.text == "14.38.33130"
    assert [t.text for t in choice.skipped_newer] == ["14.44.35207"]


def test_no_toolset_fits() -> None:
    installed = parse_msvc_toolsets(read("msvc", "buildtools-2022-17.14.dir-b.txt").splitlines())
    choice = pick_msvc_toolset(installed, header("cuda-12.1.h"), (14, 44, 35207))
    assert choice.chosen is None and not choice.needs_pin
    assert [t.text for t in choice.rejected] == ["14.44.35207"]
    assert "No installed MSVC toolset" in choice.explain()
    assert "_MSC_VER 1910–1939" in choice.explain()


def test_default_toolset_that_fits_needs_no_pin() -> None:
    installed = toolsets("14.29.30133", "14.44.35207")
    choice = pick_msvc_toolset(installed, header("cuda-13.0.h"), (14, 44, 35207))
    assert choice.chosen is not None and choice.chosen.text == "14.44.35207"
    assert choice.skipped_newer == () and not choice.needs_pin
    assert "-vcvars_ver" not in choice.explain()
    # CUDA 11.8 (upper bound 1940) takes the VS 2019 toolset beside it
    older = pick_msvc_toolset(installed, header("cuda-11.8.h"), (14, 44, 35207))
    assert older.chosen is not None and older.chosen.text == "14.29.30133"


def test_edited_header_lets_vs2026_through() -> None:
    choice = pick_msvc_toolset(
        toolsets("14.44.35207", "14.50.35717"), header("cuda-13.0-msvc-bound-edited.h")
    )
    assert choice.chosen is not None and choice.chosen.text == "14.50.35717"
    assert choice.needs_pin  # no known default: pin what was chosen


# ------------------------------------------------------------------------------- reg query


def test_reg_query_long_paths_enabled() -> None:
    raw = DATA.joinpath("reg", "longpaths-enabled.stdout.txt").read_bytes()
    assert raw.startswith(b"\r\nHKEY_LOCAL_MACHINE\\") and raw.endswith(b"\r\n\r\n")
    assert parse_reg_query_dword(raw.decode("ascii"), "LongPathsEnabled") == 1
    assert parse_reg_query_dword(raw.decode("ascii"), "longpathsenabled") == 1  # names: any case


def test_reg_query_long_paths_disabled() -> None:
    assert (
        parse_reg_query_dword(read("reg", "longpaths-disabled.stdout.txt"), "LongPathsEnabled") == 0
    )


def test_reg_query_value_missing() -> None:
    stderr = read("reg", "longpaths-missing.stderr.txt")
    assert parse_reg_query_dword(stderr, "LongPathsEnabled") is None
    assert parse_reg_query_dword("", "LongPathsEnabled") is None
    # another value of the same key does not count
    other = read("reg", "longpaths-enabled.stdout.txt")
    assert parse_reg_query_dword(other, "NtfsDisable8dot3NameCreation") is None


def test_reg_query_value_of_the_wrong_type() -> None:
    text = (
        "\r\nHKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\FileSystem\r\n"
        "    LongPathsEnabled    REG_SZ    1\r\n\r\n"
    )
    with pytest.raises(ToolchainParseError) as info:
        parse_reg_query_dword(text, "LongPathsEnabled")
    assert "REG_SZ" in info.value.what


# ------------------------------------------------------------------------------- gcc


@pytest.mark.parametrize(
    ("name", "version"),
    [
        ("gcc-version-debian12.txt", (12, 2, 0)),
        ("gcc-dumpfullversion-debian12.txt", (12, 2, 0)),
        ("gcc-dumpversion-debian12.txt", (12, 0, 0)),
        ("gcc-version-ubuntu24.04-firstline.txt", (13, 3, 0)),
        ("gcc-version-rhel9.txt", (11, 4, 1)),
    ],
)
def test_gcc_version_files(name: str, version: tuple[int, int, int]) -> None:
    parsed = parse_gcc_version(read("gcc", name))
    assert (parsed.major, parsed.minor, parsed.patch) == version


def test_gcc_version_other_forms() -> None:
    assert parse_gcc_version("g++ (Rev3, Built by MSYS2 project) 13.2.0\n").text == "13.2.0"
    assert parse_gcc_version("gcc version 12.2.0 (Debian 12.2.0-14+deb12u1)").text == "12.2.0"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Apple clang version 15.0.0 (clang-1500.3.9.4)\nTarget: arm64-apple-darwin23.4.0\n",
        "bash: gcc: command not found\n",
    ],
)
def test_gcc_garbage_is_a_clear_error(text: str) -> None:
    with pytest.raises(ToolchainParseError):
        parse_gcc_version(text)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc on PATH")
def test_real_gcc_of_this_machine() -> None:
    done = subprocess.run(
        ["gcc", "--version"], capture_output=True, text=True, timeout=60, check=True
    )
    from_banner = parse_gcc_version(done.stdout)
    assert from_banner == run_gcc_version("gcc")
    assert from_banner.major >= 5


@pytest.mark.skipif(
    shutil.which("gcc") is None or not REAL_NVCC.exists(), reason="needs gcc and nvcc"
)
def test_gcc_decision_matches_what_real_nvcc_does(tmp_path: Path) -> None:
    # this machine's gcc against this machine's CUDA: our answer is the one nvcc gives when
    # it preprocesses a .cu file with that gcc (host_config.h's #error fires right there)
    gcc = run_gcc_version("gcc")
    bounds = read_host_config(REAL_CUDA)
    source = tmp_path / "probe.cu"
    source.write_text("__global__ void k() {}\n")
    probe = subprocess.run(
        [str(REAL_NVCC), "-ccbin", "gcc", "-E", str(source), "-o", os.devnull],
        capture_output=True,
        text=True,
        timeout=300,
    )
    accepted = gcc_supported(bounds, gcc.major, gcc.minor)
    assert accepted == (probe.returncode == 0), probe.stderr
    if not accepted:
        assert "unsupported GNU version" in probe.stderr


def test_run_gcc_that_does_not_exist(tmp_path: Path) -> None:
    with pytest.raises(ToolchainProbeError):
        run_gcc_version(tmp_path / "gcc")


# ------------------------------------------------------------------------------- CUDA folders


def test_cuda_candidates_from_windows_environment() -> None:
    environ = {
        "CUDA_PATH": r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4",
        "CUDA_PATH_V11_8": r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8",
        "CUDA_PATH_V12_4": "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\",
        "CUDA_PATH_V13_0": "",
        "PATH": r"C:\Windows",
    }
    found = cuda_candidates_from_env(environ)
    assert [(str(c.root), c.version, c.origin) for c in found] == [
        (
            r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4",
            (12, 4),
            "CUDA_PATH, CUDA_PATH_V12_4",
        ),
        (r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8", (11, 8), "CUDA_PATH_V11_8"),
    ]


def test_cuda_home_comes_before_cuda_path() -> None:
    found = cuda_candidates_from_env(
        {"CUDA_PATH": "/opt/cuda-12.8", "CUDA_HOME": "/usr/local/cuda"}
    )
    assert [(str(c.root), c.version, c.origin) for c in found] == [
        ("/usr/local/cuda", None, "CUDA_HOME"),
        ("/opt/cuda-12.8", (12, 8), "CUDA_PATH"),
    ]
    assert cuda_candidates_from_env({}) == []


def test_cuda_candidates_from_folders() -> None:
    names = [
        "/usr/local/cuda",
        "/usr/local/cuda-12.4",
        "/usr/local/bin",
        "/usr/local/cuda-13.0",
        "/usr/local/cuda-12",
        r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.8",
        r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.8",
    ]
    found = cuda_candidates_from_folders(names)
    assert [(str(c.root), c.version) for c in found] == [
        ("/usr/local/cuda-13.0", (13, 0)),
        (r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.8", (12, 8)),
        ("/usr/local/cuda-12.4", (12, 4)),
        ("/usr/local/cuda", None),
        ("/usr/local/cuda-12", None),
    ]
    assert cuda_version_from_folder("v11.8") == (11, 8)
    assert cuda_version_from_folder("cudnn") is None


@pytest.mark.skipif(not REAL_CUDA.exists(), reason="no CUDA toolkit at /usr/local/cuda")
def test_cuda_folders_of_this_machine() -> None:
    found = cuda_candidates_from_folders(sorted(str(p) for p in Path("/usr/local").iterdir()))
    assert found, "a /usr/local/cuda* folder exists but none was found"
    version = run_nvcc_version(REAL_NVCC)
    assert any(c.version == version.release for c in found) or any(c.version is None for c in found)


def test_cccl_include_dir(tmp_path: Path) -> None:
    (tmp_path / "include" / "cccl").mkdir(parents=True)
    assert cccl_include_dir(tmp_path, (13, 0)) == tmp_path / "include" / "cccl"
    assert (
        cccl_include_dir(tmp_path, CudaVersion(13, 1, (13, 1, 80))) == tmp_path / "include" / "cccl"
    )
    assert cccl_include_dir(tmp_path, (12, 8)) is None  # CUDA 12 keeps them in include/
    assert cccl_include_dir(tmp_path / "missing", (13, 0)) is None


@pytest.mark.skipif(not REAL_NVCC.exists(), reason="no CUDA toolkit at /usr/local/cuda")
def test_cccl_include_dir_of_this_machine() -> None:
    version = run_nvcc_version(REAL_NVCC)
    folder = cccl_include_dir(REAL_CUDA, version)
    if version.major >= 13:
        assert folder is not None and (folder / "cuda" / "std" / "utility").exists()
    else:
        assert folder is None
