"""Toolchain facts read off what the OS and the tools answered.

Visual Studio instances (``vswhere -format json``), MSVC toolsets (the folders under
``VC\\Tools\\MSVC``), the CUDA toolkit (``nvcc --version``, ``version.json``), CUDA's
host-compiler gate (``include/crt/host_config.h``), gcc (``gcc --version``), a registry value
(``reg query``) and CUDA folders (environment variables, folder names).

The package has three layers, top to bottom:

1. **Parsers**: pure functions of the text a tool printed or a file holds. They never start a
   process, so they are tested on any OS with recorded real outputs (``tests/data/``).
2. **Decisions**: pure functions over parsed facts: does nvcc accept this compiler, which MSVC
   toolset should a build pin, which Visual Studio instances can be used and why not.
3. **Run-and-parse helpers** (:mod:`.run`): the only code here that starts processes or touches
   the file system. Argument lists and a timeout, never a shell string.

The bounds nvcc puts on the host compiler are read from the installed ``host_config.h`` rather
than from a table: they move with every CUDA release, and a header that a user edited is what
nvcc actually enforces.

The package: :mod:`.base` (the errors, version helpers), :mod:`.vswhere` (Visual Studio
instances), :mod:`.toolsets` (MSVC toolsets and which one to pin), :mod:`.host_config` (the
host-compiler gate), :mod:`.cuda` (toolkit versions and folders), :mod:`.gcc`,
:mod:`.registry` (``reg query``), :mod:`.run` (running the tools).
"""

from __future__ import annotations

from kernel_wizard.machine.toolchain.base import ToolchainParseError, ToolchainProbeError, Version
from kernel_wizard.machine.toolchain.cuda import (
    CudaCandidate,
    CudaVersion,
    cccl_include_dir,
    cuda_candidates_from_env,
    cuda_candidates_from_folders,
    cuda_version_from_folder,
    parse_cuda_version_json,
    parse_nvcc_version,
)
from kernel_wizard.machine.toolchain.gcc import GccVersion, parse_gcc_version
from kernel_wizard.machine.toolchain.host_config import (
    CompilerBound,
    HostCompilerBounds,
    clang_supported,
    describe_msvc_bound,
    gcc_supported,
    msvc_supported,
    parse_host_config,
)
from kernel_wizard.machine.toolchain.registry import (
    LONG_PATHS_KEY,
    LONG_PATHS_VALUE,
    parse_reg_query_dword,
)
from kernel_wizard.machine.toolchain.run import (
    DEFAULT_TIMEOUT_S,
    VC_TOOLS_COMPONENT,
    list_msvc_toolsets,
    read_host_config,
    read_vctools_default,
    run_gcc_version,
    run_nvcc_version,
    run_reg_query_dword,
    run_vswhere,
    vswhere_args,
    vswhere_locations,
)
from kernel_wizard.machine.toolchain.toolsets import (
    MsvcToolset,
    ToolsetChoice,
    msc_ver_for_toolset,
    parse_msvc_toolsets,
    parse_vctools_default,
    pick_msvc_toolset,
)
from kernel_wizard.machine.toolchain.vswhere import (
    RejectedVsInstance,
    VsInstance,
    VsProduct,
    VsRejection,
    VsSelection,
    parse_vswhere,
    select_vs_instances,
    vs_rejections,
)

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "LONG_PATHS_KEY",
    "LONG_PATHS_VALUE",
    "VC_TOOLS_COMPONENT",
    "CompilerBound",
    "CudaCandidate",
    "CudaVersion",
    "GccVersion",
    "HostCompilerBounds",
    "MsvcToolset",
    "RejectedVsInstance",
    "ToolchainParseError",
    "ToolchainProbeError",
    "ToolsetChoice",
    "Version",
    "VsInstance",
    "VsProduct",
    "VsRejection",
    "VsSelection",
    "cccl_include_dir",
    "clang_supported",
    "cuda_candidates_from_env",
    "cuda_candidates_from_folders",
    "cuda_version_from_folder",
    "describe_msvc_bound",
    "gcc_supported",
    "list_msvc_toolsets",
    "msc_ver_for_toolset",
    "msvc_supported",
    "parse_cuda_version_json",
    "parse_gcc_version",
    "parse_host_config",
    "parse_msvc_toolsets",
    "parse_nvcc_version",
    "parse_reg_query_dword",
    "parse_vctools_default",
    "parse_vswhere",
    "pick_msvc_toolset",
    "read_host_config",
    "read_vctools_default",
    "run_gcc_version",
    "run_nvcc_version",
    "run_reg_query_dword",
    "run_vswhere",
    "select_vs_instances",
    "vs_rejections",
    "vswhere_args",
    "vswhere_locations",
]
