"""Run-and-parse helpers: the only code of the toolchain package that starts processes or
reads disks. Argument lists and a timeout, never a shell string."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from kernel_wizard.base.errors import ProcessStartError, ProcessTimeout
from kernel_wizard.base.processes import CapturedOutput, run_captured
from kernel_wizard.machine.toolchain.base import ToolchainParseError, ToolchainProbeError, snippet
from kernel_wizard.machine.toolchain.cuda import CudaVersion, parse_nvcc_version
from kernel_wizard.machine.toolchain.gcc import GccVersion, parse_gcc_version
from kernel_wizard.machine.toolchain.host_config import HostCompilerBounds, parse_host_config
from kernel_wizard.machine.toolchain.registry import parse_reg_query_dword
from kernel_wizard.machine.toolchain.toolsets import (
    MsvcToolset,
    parse_msvc_toolsets,
    parse_vctools_default,
)
from kernel_wizard.machine.toolchain.vswhere import VsInstance, parse_vswhere

VC_TOOLS_COMPONENT = "Microsoft.VisualStudio.Component.VC.Tools.x86.x64"
DEFAULT_TIMEOUT_S = 30.0


def vswhere_locations(environ: Mapping[str, str]) -> list[Path]:
    """Where vswhere.exe is installed: under ``%ProgramFiles(x86)%``, else ``%ProgramFiles%``."""
    out: list[Path] = []
    for var in ("ProgramFiles(x86)", "ProgramFiles"):
        base = environ.get(var, "").strip()
        if base:
            out.append(Path(base) / "Microsoft Visual Studio" / "Installer" / "vswhere.exe")
    return out


def vswhere_args(vswhere: Path, version_range: str | None = None) -> list[str]:
    """The vswhere command line: every instance with the x64 C++ tools, in any state.

    ``-all`` matters: without it vswhere silently hides incomplete and reboot-pending
    instances, and the wizard could not tell the user why their Visual Studio is not used.
    ``-products *`` includes Build Tools; ``-prerelease`` includes previews.
    """
    args = [
        str(vswhere),
        "-all",
        "-prerelease",
        "-products",
        "*",
        "-requires",
        VC_TOOLS_COMPONENT,
        "-format",
        "json",
        "-utf8",
    ]
    if version_range:
        args += ["-version", version_range]
    return args


def _run_tool(args: Sequence[str], what: str, timeout: float) -> CapturedOutput:
    try:
        return run_captured(list(args), timeout_s=timeout)
    except ProcessStartError as exc:
        if exc.not_found:
            raise ToolchainProbeError(
                f"{what} was not found.", why=f"there is no program at {args[0]}"
            ) from None
        raise ToolchainProbeError(f"{what} could not be started.", why=exc.why) from None
    except ProcessTimeout:
        raise ToolchainProbeError(
            f"{what} did not answer within {timeout:.0f} seconds.",
            hint="Close other heavy programs and run the wizard again.",
        ) from None


def run_vswhere(
    vswhere: Path, version_range: str | None = None, timeout: float = DEFAULT_TIMEOUT_S
) -> list[VsInstance]:
    """Run vswhere (see :func:`vswhere_args`) and parse its answer."""
    done = _run_tool(vswhere_args(vswhere, version_range), "vswhere", timeout)
    if done.returncode != 0:
        raise ToolchainProbeError(
            f"vswhere failed (exit code {done.returncode}).",
            why=snippet(done.stderr or done.stdout),
            hint="Update or repair the Visual Studio Installer, then run the wizard again.",
        )
    return parse_vswhere(done.stdout)


def list_msvc_toolsets(install: Path) -> list[MsvcToolset]:
    """The toolsets under ``<install>\\VC\\Tools\\MSVC`` (none when the folder is missing)."""
    folder = install / "VC" / "Tools" / "MSVC"
    try:
        names = [p.name for p in folder.iterdir() if p.is_dir()]
    except OSError:
        return []
    return parse_msvc_toolsets(names, install)


def read_vctools_default(install: Path) -> tuple[int, int, int] | None:
    """The default toolset of an instance; None when the file is missing or unreadable."""
    path = install / "VC" / "Auxiliary" / "Build" / "Microsoft.VCToolsVersion.default.txt"
    try:
        return parse_vctools_default(path.read_text(encoding="utf-8-sig", errors="replace"))
    except (OSError, ToolchainParseError):
        return None


def run_nvcc_version(nvcc: Path | str, timeout: float = DEFAULT_TIMEOUT_S) -> CudaVersion:
    """Run ``nvcc --version`` and parse it."""
    done = _run_tool([str(nvcc), "--version"], "nvcc", timeout)
    return parse_nvcc_version(done.stdout + "\n" + done.stderr)


def run_gcc_version(gcc: Path | str = "gcc", timeout: float = DEFAULT_TIMEOUT_S) -> GccVersion:
    """Run ``gcc -dumpfullversion -dumpversion`` (full version on old and new gcc alike)."""
    done = _run_tool([str(gcc), "-dumpfullversion", "-dumpversion"], "gcc", timeout)
    return parse_gcc_version(done.stdout)


def read_host_config(cuda_root: Path) -> HostCompilerBounds:
    """Parse ``<cuda_root>/include/crt/host_config.h``."""
    path = cuda_root / "include" / "crt" / "host_config.h"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ToolchainProbeError(
            "The CUDA toolkit's host_config.h could not be read.",
            why=f"{path}: {exc.strerror or exc}",
            hint="Reinstall the CUDA toolkit (its compiler headers are missing).",
        ) from None
    return parse_host_config(text)


def run_reg_query_dword(
    key: str, value_name: str, timeout: float = DEFAULT_TIMEOUT_S
) -> int | None:
    """``reg query <key> /v <value_name>`` → the REG_DWORD, or None when it is not set.

    Windows only (reg.exe). Reading HKLM needs no elevation.
    """
    done = _run_tool(["reg", "query", key, "/v", value_name], "reg.exe", timeout)
    return parse_reg_query_dword(done.stdout, value_name)

