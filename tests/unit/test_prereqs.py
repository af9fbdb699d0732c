"""The prerequisite checks as pure functions over SystemFacts built from RECORDED real outputs.

vswhere JSON, MSVC toolset listings and default-toolset files, ``reg query`` output,
``nvcc --version`` texts, host_config.h excerpts, gcc banners and the NVML recording of a real
H100 (all in tests/data) become the facts; each check's status and words are asserted as a
user would read them on the Prerequisites page.
"""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from kernel_wizard.base import advice
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import GpuInfo, HardwareReport, HostInfo, NvmlState, detect
from kernel_wizard.machine.msvc import MsvcFacts, VsInstanceFacts
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.machine.platforms.windows import parse_windows_sdk_versions, run_once_command
from kernel_wizard.machine.toolchain import (
    CudaVersion,
    parse_cuda_version_json,
    parse_gcc_version,
    parse_host_config,
    parse_msvc_toolsets,
    parse_nvcc_version,
    parse_reg_query_dword,
    parse_vctools_default,
    parse_vswhere,
)
from kernel_wizard.machine.toolkits import CudaToolkit
from kernel_wizard.prereqs import CheckId, CheckStatus, FixStatus, run_checks
from kernel_wizard.prereqs.checks import find_fix, parse_check_id
from kernel_wizard.prereqs.compat import check_compat, describe_gcc_bound
from kernel_wizard.prereqs.compiler import check_compiler
from kernel_wizard.prereqs.cuda import check_cuda
from kernel_wizard.prereqs.distro import cuda_install_commands, gcc_install_commands
from kernel_wizard.prereqs.facts import (
    GccFacts,
    GitFacts,
    LongPathsFacts,
    SystemFacts,
    ToolkitFacts,
    parse_git_bool,
    parse_os_release,
)
from kernel_wizard.prereqs.fixes import (
    CudaToolkitFix,
    GitLongPathsFix,
    LongPathsFix,
    ManualCommandFix,
    PipInstallFix,
    VsBuildToolsFix,
    interpret_cuda_installer_exit,
    interpret_vs_installer_exit,
    pip_progress_bar_mode,
)
from kernel_wizard.prereqs.longpaths import check_long_paths
from kernel_wizard.prereqs.resources import check_resources
from kernel_wizard.prereqs.resume import resume_argv
from kernel_wizard.prereqs.target import check_python_env
from kernel_wizard.prereqs.versions import (
    cc_support,
    pick_cuda_release,
    pick_torch_cuda,
    windows_cuda_components,
)

DATA = Path(__file__).resolve().parent.parent / "data"
GIB = 1024**3
SDK = ("10.0.26100.0", "10.0.22621.0")
BT_2022 = r"C:\Program Files (x86)\Microsoft Visual Studio\2022\BuildTools"
COMMUNITY_2022 = r"C:\Program Files\Microsoft Visual Studio\2022\Community"
COMMUNITY_2026 = r"C:\Program Files\Microsoft Visual Studio\18\Community"
PRO_2019 = r"D:\Program Files (x86)\Microsoft Visual Studio\2019\Professional"


def text(*parts: str) -> str:
    return DATA.joinpath(*parts).read_bytes().decode("utf-8")


# -- builders: recorded outputs → facts --------------------------------------------------------

# which recorded `dir /b` listing and default-toolset file belong to which instance
LISTINGS: dict[str, tuple[str, str | None]] = {
    BT_2022: ("buildtools-2022-17.14.dir-b.txt", "vctools-default-2022-17.14.txt"),
    COMMUNITY_2022: ("community-2022-with-v142.dir-b.txt", "vctools-default-2022-17.14.txt"),
    COMMUNITY_2026: ("community-2026-with-v143.dir-b.txt", "vctools-default-2026.txt"),
    PRO_2019: ("community-2022-with-v142.dir-b.txt", None),
}


def msvc(vswhere_file: str, sdks: tuple[str, ...] = SDK,
         listings: dict[str, tuple[str, str | None]] | None = None,
         only: str | None = None) -> MsvcFacts:
    output = text("vswhere", vswhere_file)
    table = listings or LISTINGS
    found = []
    for instance in parse_vswhere(output):
        key = str(instance.installation_path)
        if only is not None and key != only:
            continue
        listing, default = table[key]
        toolsets = parse_msvc_toolsets(text("msvc", listing).splitlines(),
                                       instance.installation_path)
        found.append(VsInstanceFacts(
            instance, tuple(toolsets),
            parse_vctools_default(text("msvc", default)) if default else None))
    vswhere = Path(r"C:\Program Files (x86)\Microsoft Visual Studio\Installer\vswhere.exe")
    return MsvcFacts(vswhere, output, tuple(found), sdks)


def gcc_facts(gxx: bool = True, version_file: str = "gcc-version-debian12.txt") -> GccFacts:
    version = parse_gcc_version(text("gcc", version_file))
    distro = parse_os_release('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n'
                              'VERSION_ID="12"\n')
    return GccFacts(Path("/usr/bin/gcc"), version, Path("/usr/bin/g++") if gxx else None,
                    version if gxx else None, distro)


def toolkit(nvcc_file: str | None, header: str, root: str = "/usr/local/cuda-13.0",
            version: CudaVersion | None = None, cccl: bool = True) -> ToolkitFacts:
    if version is None:
        assert nvcc_file is not None
        version = parse_nvcc_version(text("nvcc", nvcc_file))
    root_path = Path(root)
    tk = CudaToolkit(root_path, root_path / "bin" / "nvcc", version, "CUDA_HOME")
    cccl_dir = root_path / "include" / "cccl" if cccl and version.release >= (13, 0) else None
    return ToolkitFacts(tk, parse_host_config(text("host_config", header)), "", cccl_dir)


CUDA_13 = toolkit("nvcc-13.0-linux.txt", "cuda-13.0.h")
CUDA_12_4 = toolkit("nvcc-12.4-linux.txt", "cuda-12.4.h", "/usr/local/cuda-12.4")
CUDA_12_8 = toolkit("nvcc-12.8-linux.txt", "cuda-12.8.h", "/usr/local/cuda-12.8")
CUDA_12_1 = toolkit("nvcc-12.1-windows.txt", "cuda-12.1.h",
                    r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.1")
_V1263 = parse_cuda_version_json(text("cuda", "version-12.6.3-windows.json"))
CUDA_12_6_WIN = toolkit(None, "cuda-12.6-windows.h",
                        r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6",
                        CudaVersion(_V1263[0], _V1263[1], _V1263))
CUDA_13_EDITED = toolkit("nvcc-13.0-linux.txt", "cuda-13.0-msvc-bound-edited.h",
                         r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v13.0")

HOST = HostInfo(cpu_logical=16, cpu_physical=8, ram_total=64 * GIB, ram_available=60 * GIB,
                disk_path=Path("/ksw"), disk_free=200 * GIB, os_name="Linux 6.8")


def h100() -> HardwareReport:
    """The real H100 machine (driver 580.159.04, CUDA 13.0), replayed from its recording."""
    replay = ReplayNvmlApi.from_file(DATA / "nvml" / "h100-driver580.json")
    return replace(detect(lambda: replay), host=HOST)


def gpus(*ccs: tuple[int, int], driver: tuple[int, int] | None = (13, 0)) -> HardwareReport:
    cards = tuple(GpuInfo(i, f"GPU cc {cc[0]}.{cc[1]}", None, cc, 8 * GIB, 8 * GIB)
                  for i, cc in enumerate(ccs))
    return HardwareReport(NvmlState.OK, f"{len(cards)} NVIDIA GPU found.", "", "580.95.05",
                          driver, cards, HOST)


def no_gpu() -> HardwareReport:
    return HardwareReport(NvmlState.NO_DRIVER, "No NVIDIA driver was found on this computer.",
                          "Install the NVIDIA driver.", None, None, (), HOST)


def env(status: EnvStatus = EnvStatus.READY, torch: str | None = "2.9.0+cu130",
        cuda: str | None = "13.0", available: bool = True, ninja: bool = True,
        arch: tuple[str, ...] = ("sm_80", "sm_90", "sm_100", "sm_120"),
        bits: int = 64) -> PythonEnv:
    info = None if torch is None else TorchInfo(torch, cuda, available, 1 if available else 0,
                                                arch if cuda else (), True)
    return PythonEnv(Path("/envs/ml/bin/python"), status, "summary", version="3.12.3",
                     bits=bits, pip_version="24.2", ninja="/envs/ml/bin/ninja" if ninja else None,
                     torch=info)


def facts(**kw: object) -> SystemFacts:
    base = SystemFacts(
        platform="linux",
        compiler=gcc_facts(),
        toolkits=(CUDA_13,),
        long_paths=LongPathsFacts(applicable=False),
        git=GitFacts(Path("/usr/bin/git"), True),
        build_root=Path("/home/me/.cache/kernel-setup-wizard/b"),
        host_include_var="CPLUS_INCLUDE_PATH",
        hardware=h100(),
        env=env(),
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def windows(**kw: object) -> SystemFacts:
    base = facts(platform="windows", compiler=msvc("buildtools-2022.json"),
                 long_paths=LongPathsFacts(True, 1, 260),
                 git=GitFacts(Path(r"C:\Program Files\Git\cmd\git.exe"), True),
                 build_root=Path("C:\\ksw"), host_include_var="INCLUDE",
                 toolkits=(CUDA_13_EDITED,))
    return replace(base, **kw)  # type: ignore[arg-type]


def rules_out_gpu_kernels(result: object) -> bool:
    """What only the kernels with GPU code need never blocks (the probe builds its CPU part
    without it): it is a warning naming the kernels it rules out (issue 13, item 3)."""
    from kernel_wizard.prereqs import CheckResult

    assert isinstance(result, CheckResult)
    return (result.status is CheckStatus.WARNING and not result.blocks
            and result.needed_for == facts().gpu_kernels != ())


# -- 1. C++ compiler -------------------------------------------------------------------------


def test_build_tools_2022_only_is_ok_with_its_toolset_and_sdk() -> None:
    result = check_compiler(windows())
    assert result.status is CheckStatus.OK
    assert result.summary == ("Visual Studio Build Tools 2022 17.14.28 is installed, with the x64 "
                              "C++ compiler (MSVC 14.44).")
    assert "MSVC" not in result.hint and result.fix is None
    assert "14.44.35207 (default)" in result.detail
    assert "Windows SDK: 10.0.26100.0, 10.0.22621.0" in result.detail
    assert result.facts["instances"][0]["usable"] is True


def test_community_and_build_tools_lists_both_and_prefers_the_newer() -> None:
    result = check_compiler(windows(compiler=msvc("community-and-buildtools-2022.json")))
    assert result.status is CheckStatus.OK
    assert result.summary.startswith("Visual Studio Build Tools 2022 17.14.28")
    assert "Visual Studio Community 2022 17.13.4" in result.detail
    assert "14.29.30133" in result.detail  # the v142 toolset installed in Community
    assert len(result.facts["instances"]) == 2


def test_vs2026_beside_2022_is_found() -> None:
    result = check_compiler(windows(compiler=msvc("vs2026-beside-buildtools-2022.json")))
    assert result.status is CheckStatus.OK
    assert "Visual Studio Community 2026 18.10.2" in result.summary
    assert "14.50.35717 (default), 14.44.35207" in result.detail


def test_empty_vswhere_means_missing_with_the_build_tools_fix() -> None:
    result = check_compiler(windows(compiler=msvc("empty.json")))
    assert result.status is CheckStatus.MISSING
    assert result.summary == ("No C++ compiler: Visual Studio Build Tools are not installed.")
    fix = result.fix
    assert isinstance(fix, VsBuildToolsFix)
    assert fix.needs_admin and fix.automatic
    assert fix.url == "https://aka.ms/vs/17/release/vs_buildtools.exe"
    assert fix.command_preview[1].startswith(
        "vs_buildtools.exe --passive --wait --norestart --nocache --add "
        "Microsoft.VisualStudio.Workload.VCTools --includeRecommended")
    assert "administrator" in fix.description


def test_no_visual_studio_installer_at_all() -> None:
    result = check_compiler(windows(compiler=MsvcFacts(None, "", (), ())))
    assert result.status is CheckStatus.MISSING
    assert "Visual Studio Installer (vswhere.exe) is not installed" in result.detail
    assert isinstance(result.fix, VsBuildToolsFix)


def test_incomplete_and_reboot_pending_are_rejected_with_reasons() -> None:
    result = check_compiler(windows(compiler=msvc("incomplete-and-reboot-required.json")))
    assert result.status is CheckStatus.BLOCKED
    assert "restart" in result.summary
    assert result.hint == "Restart the computer, then run the wizard again."
    assert result.fix is None  # a restart is something only the user can do
    assert "did not finish" in result.detail  # the 2019 Professional one
    assert "Windows must restart to finish installing it" in result.detail
    assert [i["usable"] for i in result.facts["instances"]] == [False, False]


def test_missing_windows_sdk_blocks_with_the_build_tools_fix() -> None:
    result = check_compiler(windows(compiler=msvc("buildtools-2022.json", sdks=())))
    assert result.status is CheckStatus.MISSING
    assert "Windows SDK is missing" in result.summary
    assert isinstance(result.fix, VsBuildToolsFix)


def test_unreadable_vswhere_answer_is_blocked() -> None:
    broken = MsvcFacts(Path("vswhere.exe"), "garbage", (), SDK, error="not JSON")
    result = check_compiler(windows(compiler=broken))
    assert result.status is CheckStatus.BLOCKED
    assert "not JSON" in result.detail


def test_linux_gcc_from_a_recorded_banner() -> None:
    result = check_compiler(facts())
    assert result.status is CheckStatus.OK
    assert result.summary == "gcc and g++ 12.2.0 are installed."


def test_linux_without_gxx_shows_the_apt_command_to_run_yourself() -> None:
    result = check_compiler(facts(compiler=gcc_facts(gxx=False)))
    assert result.status is CheckStatus.MISSING
    assert result.summary == "No C++ compiler: g++ is not installed."
    fix = result.fix
    assert isinstance(fix, ManualCommandFix)
    assert fix.needs_admin and not fix.automatic
    assert fix.command_preview == ("sudo apt-get update", "sudo apt-get install -y build-essential")
    lines: list[str] = []
    outcome = fix.run(lines.append, threading.Event())
    assert outcome.status is FixStatus.MANUAL
    assert "  sudo apt-get install -y build-essential" in lines


# -- 2. CUDA toolkit -------------------------------------------------------------------------


def test_cuda_13_matching_torch_driver_and_h100_is_ok() -> None:
    result = check_cuda(facts())
    assert result.status is CheckStatus.OK
    assert result.summary == ("CUDA 13.0 at /usr/local/cuda-13.0 will be used, matching "
                              "PyTorch's CUDA 13.0.")
    assert "GPU 0: NVIDIA H100 80GB HBM3: Hopper, compute capability 9.0" in result.detail
    assert result.facts["driver_cuda"] == "13.0"


def test_cpu_torch_gets_one_cuda_verdict_with_or_without_the_sessions_decision() -> None:
    """A CPU build of PyTorch: the toolkit works, no build uses it yet. The Prerequisites page
    (facts with the session's ToolkitChoice, which chooses none for a CPU PyTorch) said "none
    of their nvcc compilers runs" while 'check' (facts on their own) said CUDA 13.0 "will be
    used", for the same machine."""
    from kernel_wizard.machine.toolkits import ToolkitChoice

    cpu = env(torch="2.13.0+cpu", cuda=None, available=False)
    alone = check_cuda(facts(env=cpu))
    decided = check_cuda(facts(env=cpu, toolkit_choice=ToolkitChoice.of([CUDA_13.toolkit],
                                                                         None)))
    for result in (alone, decided):
        assert result.status is CheckStatus.OK
        assert result.summary == ("CUDA 13.0 at /usr/local/cuda-13.0 works; builds use it once "
                                  "PyTorch here is a CUDA build.")
        assert "nvcc compilers runs" not in result.detail and result.fix is None
        assert not rules_out_gpu_kernels(result)  # the Python environment row says why
    assert alone.detail == decided.detail and alone.facts == decided.facts


def test_toolkits_none_of_which_runs_still_say_so() -> None:
    broken = replace(CUDA_13, toolkit=replace(CUDA_13.toolkit, version=None, error="exec"))
    result = check_cuda(facts(toolkits=(broken,)))
    assert rules_out_gpu_kernels(result)
    assert result.summary == "CUDA toolkits were found, but none of their nvcc compilers runs."


def test_all_toolkits_are_listed_and_torchs_one_is_chosen() -> None:
    result = check_cuda(facts(toolkits=(CUDA_12_4, CUDA_13, CUDA_12_8)))
    assert result.status is CheckStatus.OK
    assert "CUDA 12.4.131 at /usr/local/cuda-12.4" in result.detail
    assert "CUDA 13.0.88 at /usr/local/cuda-13.0 (CUDA_HOME) ← the build uses this one" \
        in result.detail
    assert [t["chosen"] for t in result.facts["toolkits"]] == [False, True, False]


def test_major_mismatch_with_torch_blocks_and_offers_torchs_cuda_windows() -> None:
    result = check_cuda(windows(toolkits=(CUDA_12_4,)))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert "CUDA 12.4 does not match PyTorch's CUDA 13.0" in result.summary
    fix = result.fix
    assert isinstance(fix, CudaToolkitFix)
    assert fix.version == (13, 0, 2)
    assert fix.source == ("https://developer.download.nvidia.com/compute/cuda/13.0.2/"
                          "network_installers/cuda_13.0.2_windows_network.exe")
    assert fix.args[:2] == ["-s", "-n"]
    assert {"nvcc_13.0", "cudart_13.0", "crt_13.0", "nvvm_13.0", "cublas_dev_13.0"} <= \
        set(fix.args)
    assert "matches PyTorch's CUDA 13.0" in fix.description


def test_major_mismatch_on_linux_shows_the_repository_commands() -> None:
    result = check_cuda(facts(toolkits=(CUDA_12_4,)))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    fix = result.fix
    assert isinstance(fix, ManualCommandFix) and not fix.automatic
    assert fix.command_preview[-1] == "sudo apt-get install -y cuda-toolkit-13-0"
    assert "repos/debian12/x86_64/cuda-keyring_1.1-1_all.deb" in fix.command_preview[0]


def test_minor_mismatch_only_warns() -> None:
    result = check_cuda(facts(toolkits=(CUDA_12_4,), env=env(torch="2.7.1+cu128", cuda="12.8")))
    assert result.status is CheckStatus.WARNING
    assert "differs from PyTorch's CUDA 12.8 in the minor version" in result.summary
    assert result.facts["suggested_install"] == "12.8.1"


def test_driver_older_than_the_toolkit_major_blocks() -> None:
    result = check_cuda(facts(hardware=gpus((8, 9), driver=(12, 8)), env=env(torch=None,
                                                                        status=EnvStatus.NO_TORCH)))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert result.summary == ("The NVIDIA driver supports CUDA up to 12.8; kernels built with "
                              "CUDA 13.0 would not run on it.")
    assert "needs driver 580" in result.hint


def test_driver_minor_older_than_toolkit_warns() -> None:
    result = check_cuda(facts(toolkits=(CUDA_12_8,), hardware=gpus((8, 9), driver=(12, 4)),
                              env=env(torch="2.7.1+cu128", cuda="12.8")))
    assert result.status is CheckStatus.WARNING
    assert "minor version compatibility" in result.summary


def test_cuda_13_dropped_pascal() -> None:
    result = check_cuda(facts(hardware=gpus((6, 1)), env=env(torch=None,
                                                         status=EnvStatus.NO_TORCH)))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert "CUDA 13.0 no longer compiles for compute capability 6.1" in result.summary
    assert result.facts["suggested_install"] == "12.9.1"  # cu129 is the newest index for Pascal


def test_sm_120_needs_cuda_12_8() -> None:
    result = check_cuda(facts(toolkits=(CUDA_12_4,), hardware=gpus((12, 0), driver=(12, 9)),
                              env=env(torch="2.7.1+cu128", cuda="12.8")))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert "compute capability 12.0 (sm_120) needs CUDA 12.8 or newer" in result.summary


def test_one_of_two_gpus_unsupported_only_warns() -> None:
    result = check_cuda(facts(hardware=gpus((6, 1), (9, 0)),
                              env=env(torch=None, status=EnvStatus.NO_TORCH)))
    assert result.status is CheckStatus.WARNING
    assert "1 of your GPUs" in result.summary


def test_no_toolkit_with_a_gpu_is_missing_with_a_fix() -> None:
    result = check_cuda(windows(toolkits=()))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert result.summary == "No CUDA toolkit is installed."
    assert isinstance(result.fix, CudaToolkitFix) and result.fix.release == (13, 0)


def test_no_toolkit_no_gpu_no_cuda_torch_only_warns() -> None:
    result = check_cuda(facts(toolkits=(), hardware=no_gpu(),
                              env=env(torch="2.13.0+cpu", cuda=None, available=False,
                                      status=EnvStatus.CPU_TORCH)))
    assert result.status is CheckStatus.WARNING
    assert "only the CPU probe kernel" in result.summary


def test_no_driver_warns_that_kernels_cannot_run() -> None:
    result = check_cuda(facts(hardware=no_gpu(), env=env(torch="2.13.0+cpu", cuda=None,
                                                         available=False,
                                                         status=EnvStatus.CPU_TORCH)))
    assert result.status is CheckStatus.WARNING
    assert "No NVIDIA driver answered" in result.summary


def test_version_pickers() -> None:
    assert pick_cuda_release((13, 0), (13, 0), [(9, 0)]) == (13, 0, 2)
    assert pick_cuda_release((13, 0), (12, 8), [(9, 0)]) is None  # the driver is too old
    assert pick_cuda_release(None, (12, 8), [(12, 0)]) == (12, 8, 1)
    assert pick_cuda_release((12, 6), (13, 0), [(8, 6)]) == (12, 6, 3)
    assert pick_torch_cuda((13, 0), [(9, 0)]) == (13, 0)
    assert pick_torch_cuda((12, 4), [(12, 0)]) is None  # RTX 50 needs cu128
    assert pick_torch_cuda(None, []) is None
    assert cc_support((13, 0), (7, 0))[0] is False
    assert cc_support((13, 0), (7, 5)) == (True, "")
    assert cc_support((13, 0), (14, 0))[0] is None
    assert windows_cuda_components((12, 8))[:2] == ("nvcc_12.8", "cudart_12.8")
    assert "crt_12.8" not in windows_cuda_components((12, 8))


# -- 3. compiler ↔ toolkit -------------------------------------------------------------------


def test_vs2026_beside_2022_picks_14_44_for_cuda_12_6() -> None:
    result = check_compat(windows(compiler=msvc("vs2026-beside-buildtools-2022.json"),
                                  toolkits=(CUDA_12_6_WIN,), env=env(torch="2.7.1+cu126",
                                                                     cuda="12.6")))
    assert result.status is CheckStatus.OK
    assert result.summary == ("MSVC 14.44.35207 fits CUDA 12.6 and will be used. The newer MSVC "
                              "14.50.35717 (also installed) is skipped: CUDA 12.6 rejects it.")
    chosen = result.facts["compiler"]
    assert chosen["instance"] == BT_2022  # where 14.44 is the default
    # pinned all the same: vcvarsall would otherwise take a v143 default file or an inherited
    # VCToolsVersion
    assert chosen["vcvars_ver"] == "14.44.35207" and chosen["msc_ver"] == 1944
    assert "_MSC_VER 1910–1949" in result.detail
    assert "MSVC 14.50.35717 (Visual Studio Community 2026 18.10.2) is installed too" in \
        result.detail


def test_only_vs2026_with_the_v143_component_pins_14_44() -> None:
    result = check_compat(windows(
        compiler=msvc("vs2026-beside-buildtools-2022.json", only=COMMUNITY_2026),
        toolkits=(CUDA_12_6_WIN,), env=env(torch="2.7.1+cu126", cuda="12.6")))
    assert result.status is CheckStatus.OK
    assert result.facts["compiler"]["vcvars_ver"] == "14.44.35207"
    assert "vcvarsall.bat x64 -vcvars_ver=14.44.35207" in result.detail
    # (a Windows path held in a PosixPath on Linux joins with "/")
    assert result.facts["compiler"]["vcvarsall"].replace("/", "\\").endswith(
        r"18\Community\VC\Auxiliary\Build\vcvarsall.bat")


def test_hand_edited_cuda_13_header_lets_14_50_through() -> None:
    result = check_compat(windows(compiler=msvc("vs2026-beside-buildtools-2022.json")))
    assert result.status is CheckStatus.OK
    assert result.facts["compiler"]["toolset"] == "14.50.35717"
    assert "INCLUDE" in result.detail and "include" in result.detail and "cccl" in result.detail


def test_cuda_12_1_rejects_14_44_and_asks_for_an_older_toolset_or_newer_cuda() -> None:
    result = check_compat(windows(toolkits=(CUDA_12_1,), env=env(torch="2.5.1+cu121",
                                                                 cuda="12.1")))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert result.summary == "No installed MSVC version is accepted by CUDA 12.1."
    assert result.fix is None  # VS 2022 17.14's own 14.44 would not help either
    assert "newer CUDA toolkit" in result.hint


def test_cuda_12_1_with_the_14_38_component_pins_it() -> None:
    listings = dict(LISTINGS)
    listings[BT_2022] = ("buildtools-2022-with-v14.38.dir-b.txt", "vctools-default-2022-17.14.txt")
    result = check_compat(windows(compiler=msvc("buildtools-2022.json", listings=listings),
                                  toolkits=(CUDA_12_1,), env=env(torch="2.5.1+cu121",
                                                                 cuda="12.1")))
    assert result.status is CheckStatus.OK
    assert result.facts["compiler"]["vcvars_ver"] == "14.38.33130"


def test_gcc_12_fits_cuda_13_and_the_cccl_folder_is_named() -> None:
    result = check_compat(facts())
    assert result.status is CheckStatus.OK
    assert result.summary == "gcc 12.2.0 fits CUDA 13.0 (gcc 15 or older)."
    assert "/usr/local/cuda-13.0/include/cccl" in result.detail
    assert "CPLUS_INCLUDE_PATH" in result.detail


def test_gcc_too_new_for_cuda_is_blocked() -> None:
    too_new = replace(gcc_facts(), gxx_version=parse_gcc_version("16.1.0"),
                      gcc_version=parse_gcc_version("16.1.0"))
    result = check_compat(facts(compiler=too_new))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert result.summary == ("gcc 16.1.0 is not accepted by CUDA 13.0, which accepts gcc 15 or "
                              "older.")


def test_cuda_13_without_its_cccl_folder_warns() -> None:
    broken = replace(CUDA_13, cccl_include=None)
    result = check_compat(facts(toolkits=(broken,)))
    assert result.status is CheckStatus.WARNING
    assert "include/cccl" in result.summary


def test_compat_waits_for_a_toolkit() -> None:
    result = check_compat(facts(toolkits=()))
    # a warning that rules nothing out itself: the CUDA toolkit row says what is missing
    assert result.status is CheckStatus.WARNING and not result.rules_out
    assert "until a CUDA toolkit is installed" in result.summary


def test_describe_gcc_bound() -> None:
    bounds = parse_host_config(text("host_config", "cuda-11.0-gcc-check-removed.h"))
    assert describe_gcc_bound(bounds.gcc) == "any gcc version (this CUDA does not check)"


# -- 4. long paths ---------------------------------------------------------------------------


def reg(name: str) -> int | None:
    return parse_reg_query_dword(text("reg", name), "LongPathsEnabled")


def test_long_paths_enabled_git_on_short_root_is_ok() -> None:
    result = check_long_paths(windows(long_paths=LongPathsFacts(True, reg(
        "longpaths-enabled.stdout.txt"), 260)))
    assert result.status is CheckStatus.OK
    assert result.summary == ("Long paths are on for Windows and git. The build folder path is "
                              "short.")


@pytest.mark.parametrize("recording", ["longpaths-disabled.stdout.txt",
                                       "longpaths-missing.stderr.txt"])
def test_long_paths_off_or_unset_is_missing_with_the_elevated_fix(recording: str) -> None:
    value = reg(recording) if recording.endswith("stdout.txt") else \
        parse_reg_query_dword("", "LongPathsEnabled")  # reg.exe printed the error on stderr
    assert value == (0 if "disabled" in recording else None)
    result = check_long_paths(windows(long_paths=LongPathsFacts(True, value, 260),
                                      git=GitFacts(Path("git.exe"), None)))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert "Windows long paths are off" in result.summary
    fix = result.fix
    assert isinstance(fix, LongPathsFix) and fix.needs_admin
    assert fix.git_fix is not None  # git's setting is fixed in the same go
    assert fix.command_preview == (
        "git.exe config --global core.longpaths true",
        r"reg.exe add HKLM\SYSTEM\CurrentControlSet\Control\FileSystem /v LongPathsEnabled "
        r"/t REG_DWORD /d 1 /f   (as administrator)",
    )
    assert "restart" in fix.description
    assert result.facts["long_paths_enabled"] == value


def test_git_longpaths_off_only_warns_with_the_user_level_fix() -> None:
    result = check_long_paths(windows(git=GitFacts(Path("git.exe"), False)))
    assert result.status is CheckStatus.WARNING
    assert result.summary.startswith("git's core.longpaths is off")
    assert isinstance(result.fix, GitLongPathsFix) and not result.fix.needs_admin


def test_restart_pending_after_the_fix_warns() -> None:
    result = check_long_paths(windows(long_paths=LongPathsFacts(True, 1, 260,
                                                                restart_pending=True)))
    assert result.status is CheckStatus.WARNING
    assert "has not restarted" in result.summary


def test_long_build_root_warns() -> None:
    root = Path("C:\\Users\\Zoë Müller\\AppData\\Local\\kernel-setup-wizard\\Cache\\builds\\b")
    result = check_long_paths(windows(build_root=root))
    assert result.status is CheckStatus.WARNING
    assert f"({len(str(root))} characters)" in result.summary


def test_long_paths_not_applicable_on_linux() -> None:
    result = check_long_paths(facts())
    assert result.status is CheckStatus.OK
    assert result.summary.startswith("Not needed here")
    assert result.fix is None and result.facts["applicable"] is False


# -- 5. target environment -------------------------------------------------------------------


def test_ready_environment_is_ok() -> None:
    result = check_python_env(facts())
    assert result.status is CheckStatus.OK
    assert result.summary == ("Python 3.12.3 with PyTorch 2.9.0+cu130 (CUDA 13.0, GPU usable), pip "
                              "and ninja.")


def test_no_torch_offers_torch_for_the_drivers_cuda() -> None:
    result = check_python_env(facts(env=env(torch=None, status=EnvStatus.NO_TORCH)))
    assert result.status is CheckStatus.MISSING
    fix = result.fix
    assert isinstance(fix, PipInstallFix) and fix.id == "torch" and not fix.needs_admin
    assert fix.command_preview == (
        "/envs/ml/bin/python -m pip install --disable-pip-version-check --no-input "
        "--progress-bar raw torch numpy --index-url https://download.pytorch.org/whl/cu130",)


def test_cpu_torch_with_a_gpu_is_replaced() -> None:
    result = check_python_env(facts(env=env(torch="2.13.0+cpu", cuda=None, available=False,
                                            status=EnvStatus.CPU_TORCH)))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert "CPU-only build" in result.summary
    assert result.fix is not None
    assert "--force-reinstall torch numpy --index-url https://download.pytorch.org/whl/cu130" in \
        result.fix.command_preview[0]
    assert "replaces the PyTorch" in result.fix.description


def test_cpu_torch_without_gpu_only_warns() -> None:
    result = check_python_env(facts(hardware=no_gpu(), env=env(torch="2.13.0+cpu", cuda=None,
                                                               available=False,
                                                               status=EnvStatus.CPU_TORCH)))
    assert result.status is CheckStatus.WARNING
    assert result.fix is None


def test_torch_newer_than_the_driver_is_blocked_with_a_matching_torch() -> None:
    result = check_python_env(facts(hardware=gpus((8, 9), driver=(12, 8))))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert "the driver supports only CUDA 12.8" in result.summary
    assert result.fix is not None and "/whl/cu128" in result.fix.command_preview[0]


def test_torch_without_code_for_the_gpu_is_blocked() -> None:
    old = env(torch="2.6.0+cu126", cuda="12.6", arch=("sm_50", "sm_80", "sm_86", "sm_90"))
    result = check_python_env(facts(hardware=gpus((12, 0), driver=(12, 9)), env=old))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert "no code for GPU 0: GPU cc 12.0 (sm_120)" in result.summary
    assert result.fix is not None and "/whl/cu129" in result.fix.command_preview[0]


def test_ptx_in_torchs_arch_list_covers_newer_gpus() -> None:
    ptx = env(torch="2.6.0+cu126", cuda="12.6", arch=("sm_80", "sm_90", "compute_90"))
    assert check_python_env(facts(hardware=gpus((12, 0), driver=(12, 9)),
                                  env=ptx)).status is CheckStatus.OK


def test_missing_ninja_alone() -> None:
    result = check_python_env(facts(env=env(ninja=False)))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert "ninja is missing" in result.summary
    assert result.fix is not None and result.fix.id == "ninja"
    assert result.fix.command_preview[0].endswith("--progress-bar raw ninja")


def test_missing_torch_and_ninja_is_one_fix_with_two_steps() -> None:
    result = check_python_env(facts(env=env(torch=None, status=EnvStatus.NO_TORCH,
                                            ninja=False)))
    assert result.fix is not None and result.fix.id == "python-packages"
    assert len(result.fix.command_preview) == 2
    assert result.fix.title == "Install PyTorch with CUDA and ninja"


def test_32_bit_python_is_blocked_without_a_fix() -> None:
    bad = PythonEnv(Path("C:\\Python311-32\\python.exe"), EnvStatus.BITS32,
                    "This is a 32-bit Python 3.11.4; CUDA kernels need a 64-bit Python.",
                    "Install 64-bit Python.", version="3.11.4", bits=32)
    result = check_python_env(facts(env=bad))
    assert result.status is CheckStatus.BLOCKED and result.fix is None
    assert "64-bit" in result.summary


def test_no_environment_chosen() -> None:
    result = check_python_env(facts(env=None))
    assert result.status is CheckStatus.MISSING
    assert "choose one on the Hardware step" in result.hint  # the wizard's words
    advice.use_terminal()
    try:
        assert "--python PATH" in check_python_env(facts(env=None)).hint  # the terminal's
    finally:
        advice.use_terminal(False)


def test_pip_progress_modes() -> None:
    assert pip_progress_bar_mode("24.1") == "raw"
    assert pip_progress_bar_mode("25.0.1") == "raw"
    assert pip_progress_bar_mode("23.2.1") == "off"
    assert pip_progress_bar_mode(None) == "off"


# -- 6. resources ----------------------------------------------------------------------------


def test_plenty_of_disk_and_ram_states_the_parallelism() -> None:
    from kernel_wizard.base.parallelism import choose_parallelism

    result = check_resources(facts())
    plan = choose_parallelism(16, 60 * GIB, 5.0, 4)
    assert result.status is CheckStatus.OK
    # plain words, a folder that exists (the build folder is made later), no "nvcc threads"
    from kernel_wizard.machine.hardware import existing_folder

    real = existing_folder(facts().build_root)
    assert real.is_dir()
    assert result.summary == (f"200.0 GiB free for builds (in {real}) and 60.0 GiB of memory: "
                              f"enough to compile {plan.jobs} files at a time for the biggest "
                              "kernels.")
    assert plan.reason in result.detail  # the details keep the jobs × nvcc threads figures
    assert result.facts["parallelism"]["jobs"] == plan.jobs


def test_too_little_disk_blocks() -> None:
    small = replace(h100(), host=replace(HOST, disk_free=5 * GIB))
    result = check_resources(facts(hardware=small))
    assert rules_out_gpu_kernels(result)  # a warning now: the probe still builds
    assert result.summary.startswith("Only 5.0 GiB free on the build drive")


def test_tight_disk_and_small_ram_warn() -> None:
    tight = replace(h100(), host=replace(HOST, disk_free=15 * GIB, ram_total=4 * GIB,
                                         ram_available=3 * GIB))
    result = check_resources(facts(hardware=tight))
    assert result.status is CheckStatus.WARNING
    assert "tight for FlashAttention" in result.summary
    assert "4.0 GiB of memory" in result.detail
    assert result.facts["parallelism"]["jobs"] == 1


# -- all together ------------------------------------------------------------------------------


def test_run_checks_order_and_json() -> None:
    results = run_checks(windows(compiler=msvc("vs2026-beside-buildtools-2022.json")))
    assert [r.id for r in results] == list(CheckId)
    document = json.loads(json.dumps([r.to_json() for r in results]))
    assert document[0]["id"] == "compiler" and document[0]["status"] == "ok"
    assert not any(r.blocks for r in results)


def test_find_fix_by_check_or_fix_id() -> None:
    f = facts(env=env(ninja=False))
    results = run_checks(f)
    result, fix = find_fix("python-env", f, results)
    assert result is not None and fix is not None and fix.id == "ninja"
    assert find_fix("ninja", f, results)[1] is fix
    # Linux has no path limit: nothing to fix, and the long-paths check says why
    result, fix = find_fix("git-longpaths", f, results)
    assert fix is None and result is not None and result.id is CheckId.LONG_PATHS
    w = windows(git=GitFacts(Path(r"C:\Program Files\Git\cmd\git.exe"), None),
                env=env(ninja=False))
    result, fix = find_fix("git-longpaths", w, run_checks(w))
    assert isinstance(fix, GitLongPathsFix) and result is not None
    assert result.id is CheckId.LONG_PATHS
    allowed = windows(git=GitFacts(Path(r"C:\Program Files\Git\cmd\git.exe"), True))
    assert find_fix("git-longpaths", allowed, run_checks(allowed))[1] is None  # set already
    # ninja found: no fix to offer
    found = facts(env=env(ninja=True))
    assert find_fix("ninja", found, run_checks(found))[1] is None
    assert find_fix("nonsense", f, results) == (None, None)
    assert parse_check_id("Long-Paths") is CheckId.LONG_PATHS


# -- pure helpers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "status", "words"),
    [
        (0, FixStatus.DONE, "are installed"),
        (3010, FixStatus.DONE_RESTART_NEEDED, "must restart"),
        (1641, FixStatus.DONE_RESTART_NEEDED, "started a restart"),
        (1602, FixStatus.CANCELLED, "cancelled"),
        (5004, FixStatus.CANCELLED, "cancelled"),
        (5003, FixStatus.FAILED, "could not download"),
        (5005, FixStatus.FAILED, "rejected its command line"),
        (5007, FixStatus.FAILED, "requirements"),
        (8006, FixStatus.FAILED, "Visual Studio is running"),
        (42, FixStatus.FAILED, "exit code 42"),
    ],
)
def test_vs_installer_exit_codes(code: int, status: FixStatus, words: str) -> None:
    got, message, hint = interpret_vs_installer_exit(code)
    assert got is status and words in message
    if status is FixStatus.FAILED and code != 8006:
        assert "dd_" in hint


def test_cuda_installer_exit_codes() -> None:
    exe = Path("cuda.exe")
    assert interpret_cuda_installer_exit(0, exe)[0] is FixStatus.DONE
    assert interpret_cuda_installer_exit(3010, exe)[0] is FixStatus.DONE_RESTART_NEEDED
    failed = interpret_cuda_installer_exit(1, exe)
    assert failed[0] is FixStatus.FAILED and "cuda.exe" in failed[2]


def test_distro_commands() -> None:
    ubuntu = parse_os_release('ID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n')
    wsl = replace(ubuntu, wsl=True)
    rhel = parse_os_release('ID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.4"\n')
    arm = replace(ubuntu, machine="aarch64")
    assert "repos/ubuntu2404/x86_64/" in cuda_install_commands(ubuntu, (12, 8))[0]
    assert "repos/wsl-ubuntu/x86_64/" in cuda_install_commands(wsl, (13, 0))[0]
    assert "repos/ubuntu2404/sbsa/" in cuda_install_commands(arm, (13, 0))[0]
    assert cuda_install_commands(rhel, (13, 0)) == (
        "sudo dnf config-manager --add-repo https://developer.download.nvidia.com/compute/cuda/"
        "repos/rhel9/x86_64/cuda-rhel9.repo",
        "sudo dnf install -y cuda-toolkit-13-0",
    )
    assert gcc_install_commands(rhel) == ("sudo dnf install -y gcc gcc-c++ make",)
    assert gcc_install_commands(parse_os_release("ID=gentoo\n")) == ()


def test_windows_helpers() -> None:
    assert parse_windows_sdk_versions(["10.0.19041.0", "wdf", "10.0.22621.0", "x"]) == \
        ["10.0.22621.0", "10.0.19041.0"]
    assert run_once_command([r"C:\Program Files\KSW\wizard.exe", "--resume"]) == \
        '"C:\\Program Files\\KSW\\wizard.exe" --resume'
    with pytest.raises(ValueError, match="260"):
        run_once_command(["C:\\" + "x" * 300 + "\\wizard.exe", "--resume"])
    assert resume_argv(True, Path("C:/KSW/wizard.exe")) == [str(Path("C:/KSW/wizard.exe")),
                                                            "--resume"]
    assert resume_argv(False, Path("/usr/bin/python3"))[1:] == ["-m", "app", "--resume"]
    assert parse_git_bool("true\n") is True and parse_git_bool("") is None
