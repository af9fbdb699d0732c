"""Microsoft's C++ compiler on Windows: which Visual Studio, which MSVC toolset, which
environment the build runs in.

One module for what the prerequisites page shows and what a build plan uses:

1. **Facts** (:class:`VsInstanceFacts`, :class:`MsvcFacts`, :func:`gather_msvc`): vswhere's
   answer (decoded strictly as UTF-8, then in the console's code page: vswhere 3.0.1 ignores
   ``-utf8``), the toolset folders under ``VC\\Tools\\MSVC`` that are really installed (a
   ``cl.exe`` in them, an installer component behind them, not a Preview), the default toolset
   and the Windows SDKs. Everything that runs a program goes through the platform seam
   (:class:`MsvcPlatform`); everything else is a pure function of what Windows printed.
2. **Decisions**: :func:`judge_instances` (usable instances, and why the others are not) and
   :func:`choose_msvc` (the newest toolset the CUDA toolkit's ``host_config.h`` accepts).
3. **The build environment** (:func:`build_environment`, the one entry point for planning):
   ``vcvarsall.bat x64 -vcvars_ver=<full version>`` run by ``cmd /u`` without an inherited
   ``VCToolsVersion``, its ``set`` output captured, checked (``VCToolsVersion`` and the banner
   of the ``cl.exe`` it puts first are the chosen toolset), and handed to the build as
   changes together with ``DISTUTILS_USE_SDK=1`` and a short TEMP.

torch's and setuptools' own discovery pick the *newest* Visual Studio, which CUDA 12.x rejects
when VS 2026 is installed beside VS 2022: that is why the wizard sets the environment itself.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from kernel_wizard.base.advice import prerequisite_fix
from kernel_wizard.base.errors import ProcessError, WizardError
from kernel_wizard.base.messages import join, msg
from kernel_wizard.base.processes import EnvChange
from kernel_wizard.machine.platforms import Platform, ProgramOutput
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.machine.toolchain import (
    HostCompilerBounds,
    MsvcToolset,
    ToolchainParseError,
    ToolsetChoice,
    VsInstance,
    list_msvc_toolsets,
    parse_msvc_toolsets,
    parse_vctools_default,
    parse_vswhere,
    pick_msvc_toolset,
    read_host_config,
    read_vctools_default,
    select_vs_instances,
    vswhere_args,
)

_TIMEOUT_S = 30.0
_NO_BOUNDS = HostCompilerBounds(msvc=None, gcc=None, clang=None)


class CompilerEnvError(WizardError):
    """The Visual Studio build environment could not be set up."""


# --------------------------------------------------------------------------------------------
# The platform seam, as far as MSVC needs it
# --------------------------------------------------------------------------------------------


@runtime_checkable
class MsvcPlatform(Platform, Protocol):
    """What this module needs from the OS (both platform classes implement it; on Linux
    there is no vswhere and no cmd.exe)."""

    def vswhere_path(self) -> Path | None: ...
    def windows_sdk_versions(self) -> list[str]: ...
    def console_encodings(self) -> tuple[str, ...]: ...
    def run_program(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
                    timeout: float = _TIMEOUT_S) -> ProgramOutput: ...
    def run_capture(self, command: str, env: Mapping[str, str] | None = None,
                    timeout: float = 120) -> bytes: ...


def msvc_platform(plat: Platform | None = None) -> MsvcPlatform:
    chosen = plat if plat is not None else current_platform()
    if not isinstance(chosen, MsvcPlatform):
        raise TypeError(f"{type(chosen).__name__} does not implement the MSVC seam")
    return chosen


# --------------------------------------------------------------------------------------------
# Decoding what console programs print
# --------------------------------------------------------------------------------------------


def decode_console(data: bytes, fallbacks: Sequence[str]) -> tuple[str, str]:
    """``data`` as text and the encoding that read it: strict UTF-8 first, then each of
    ``fallbacks`` (the OEM and ANSI code pages: vswhere 3.0.1 ignores ``-utf8`` and prints the
    console code page, microsoft/vswhere#262), and as a last resort UTF-8 with replacement
    characters. A CP932 "ソ" (``83 5C``) read as anything but CP932 leaves a stray backslash in
    a JSON string; read strictly, ``0x83`` is not UTF-8, so CP932 gets its turn."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for encoding in ("utf-8", *fallbacks):
        try:
            return data.decode(encoding), encoding
        except (UnicodeDecodeError, LookupError):
            continue
    return data.decode("utf-8", errors="replace"), "utf-8 (with replacement characters)"


# --------------------------------------------------------------------------------------------
# Installed packages (vswhere -include packages) and the toolsets they stand behind
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VsPackage:
    """One installed package of an instance, as ``vswhere -include packages`` lists it."""

    id: str  # "Microsoft.VisualStudio.Component.VC.14.38.17.8.x86.x64"
    version: str
    type: str  # "Component", "Vsix", "Workload", ...


def parse_vswhere_packages(json_text: str) -> dict[str, tuple[VsPackage, ...]]:
    """The ``packages`` of each instance in vswhere's JSON, keyed by ``installationPath``
    (case-folded). Instances without a ``packages`` list (vswhere run without
    ``-include packages``) are left out: for them nothing is known."""
    try:
        data = json.loads(json_text.lstrip("\ufeff"))
    except json.JSONDecodeError:
        return {}
    result: dict[str, tuple[VsPackage, ...]] = {}
    if not isinstance(data, list):
        return result
    for item in data:
        if not isinstance(item, dict) or not isinstance(item.get("packages"), list):
            continue
        path = item.get("installationPath")
        if not isinstance(path, str):
            continue
        packages = tuple(
            VsPackage(str(p.get("id", "")), str(p.get("version", "")), str(p.get("type", "")))
            for p in item["packages"] if isinstance(p, dict)
        )
        result[path.casefold()] = packages
    return result


# Microsoft.VisualStudio.Component.VC.14.38.17.8.x86.x64 (the Installer's "MSVC v143 ...
# (v14.38-17.8)") and the packages it installs, Microsoft.VC.14.38.17.8.Tools.HostX64.TargetX64...
_TOOLSET_PACKAGE = re.compile(
    r"^Microsoft\.(?:VisualStudio\.Component\.)?VC\.14\.(?P<minor>\d+)\.", re.IGNORECASE)


def _backing_packages(toolset: MsvcToolset, packages: Iterable[VsPackage]) -> list[VsPackage]:
    out = []
    for package in packages:
        match = _TOOLSET_PACKAGE.match(package.id)
        if (match is not None and int(match.group("minor")) == toolset.version[1]) \
                or package.version == toolset.text:
            out.append(package)
    return out


@dataclass(frozen=True)
class UnusableToolset:
    """A folder under ``VC\\Tools\\MSVC`` the build must not use, and why."""

    toolset: MsvcToolset
    reason: str


def sort_toolsets(
    listed: Sequence[MsvcToolset],
    default: tuple[int, int, int] | None,
    packages: Sequence[VsPackage] | None,
    has_cl: Mapping[MsvcToolset, bool],
    prerelease: bool = False,
) -> tuple[tuple[MsvcToolset, ...], tuple[UnusableToolset, ...]]:
    """Split the toolset folders of one instance into usable ones and the others.

    Not usable: a folder without ``bin\\Hostx64\\x64\\cl.exe``; a folder no installed
    component stands behind (a leftover of an update or uninstall: MSBuild rejects such a
    toolset with MSB8052, and nothing keeps it complete) — known only when vswhere listed the
    packages (``packages`` None: not known, not held against it); a Preview toolset (from a
    prerelease instance, or installed only by a ``...Preview`` component). The default toolset
    (``Microsoft.VCToolsVersion.default.txt``) comes with the required
    ``VC.Tools.x86.x64`` component itself."""
    usable: list[MsvcToolset] = []
    unusable: list[UnusableToolset] = []
    for toolset in listed:
        if not has_cl.get(toolset, True):
            unusable.append(UnusableToolset(toolset, "its folder has no bin\\Hostx64\\x64\\"
                                            "cl.exe (a leftover of an update or uninstall)"))
            continue
        if prerelease:
            unusable.append(UnusableToolset(toolset, "it belongs to a Preview of Visual "
                                            "Studio"))
            continue
        if packages is not None and toolset.version != default:
            backing = _backing_packages(toolset, packages)
            if not backing:
                unusable.append(UnusableToolset(toolset, "no installed Visual Studio component "
                                                "stands behind this folder (a leftover: "
                                                "MSBuild rejects such toolsets, MSB8052)"))
                continue
            if all("preview" in p.id.casefold() for p in backing):
                unusable.append(UnusableToolset(toolset, "it is a Preview toolset"))
                continue
        usable.append(toolset)
    return tuple(usable), tuple(unusable)


# --------------------------------------------------------------------------------------------
# The facts
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VsInstanceFacts:
    """One Visual Studio instance with the MSVC toolsets found in it."""

    instance: VsInstance
    toolsets: tuple[MsvcToolset, ...]  # usable ones, newest first; empty: none installed
    default_toolset: tuple[int, int, int] | None  # Microsoft.VCToolsVersion.default.txt
    unusable_toolsets: tuple[UnusableToolset, ...] = ()  # folders that must not be used


@dataclass(frozen=True)
class MsvcFacts:
    """Windows: Visual Studio / Build Tools as vswhere reports them, and the Windows SDKs."""

    vswhere: Path | None  # None: the Visual Studio Installer is not installed
    vswhere_output: str  # vswhere's stdout as it was (kept for bug reports and --json)
    instances: tuple[VsInstanceFacts, ...]
    windows_sdks: tuple[str, ...]  # "10.0.22621.0", newest first
    error: str = ""  # vswhere failed or printed something unreadable
    encoding: str = "utf-8"  # the encoding vswhere's answer was read in


def vswhere_query(vswhere: Path) -> list[str]:
    """vswhere's command line: every instance with the x64 C++ tools, with its packages."""
    return [*vswhere_args(vswhere), "-include", "packages"]


def msvc_facts_from_output(
    vswhere: Path,
    output: ProgramOutput,
    encodings: Sequence[str],
    sdks: Sequence[str],
    listing: Mapping[str, tuple[Sequence[str], str | None]] | None = None,
) -> MsvcFacts:
    """The facts from vswhere's raw answer. ``listing``: per ``installationPath`` the toolset
    folder names and the default-toolset file's text (tests: recorded ``dir /b`` and file);
    None reads the disk."""
    text, encoding = decode_console(output.stdout, encodings)
    if output.returncode != 0:
        err, _ = decode_console(output.stderr, encodings)
        return MsvcFacts(vswhere, text, (), tuple(sdks),
                         error=f"vswhere failed (exit code {output.returncode}): "
                         f"{(err or text).strip()[:300]}", encoding=encoding)
    try:
        instances = parse_vswhere(text)
    except WizardError as exc:
        return MsvcFacts(vswhere, text, (), tuple(sdks), error=exc.describe(), encoding=encoding)
    packages = parse_vswhere_packages(text)
    found = []
    for instance in instances:
        install = instance.installation_path
        default: tuple[int, int, int] | None
        if listing is not None:
            names, default_text = listing.get(str(install), ((), None))
            listed = parse_msvc_toolsets(names, install)
            has_cl = {t: True for t in listed}
            default = parse_vctools_default(default_text) if default_text else None
        else:
            listed = list_msvc_toolsets(install)
            has_cl = {t: (install / "VC" / "Tools" / "MSVC" / t.text / "bin" / "Hostx64" / "x64"
                          / "cl.exe").is_file() for t in listed}
            default = read_vctools_default(install)
        usable, unusable = sort_toolsets(listed, default,
                                         packages.get(str(install).casefold()), has_cl,
                                         prerelease=instance.is_prerelease)
        found.append(VsInstanceFacts(instance, usable, default, unusable))
    return MsvcFacts(vswhere, text, tuple(found), tuple(sdks), encoding=encoding)


def gather_msvc(platform: Platform | None = None) -> MsvcFacts:
    """Visual Studio instances, their usable MSVC toolsets and the Windows SDKs (Windows)."""
    plat = msvc_platform(platform)
    sdks = tuple(plat.windows_sdk_versions())
    vswhere = plat.vswhere_path()
    if vswhere is None:
        return MsvcFacts(None, "", (), sdks)
    try:
        output = plat.run_program(vswhere_query(vswhere), timeout=_TIMEOUT_S)
    except ProcessError as exc:
        return MsvcFacts(vswhere, "", (), sdks, error=f"vswhere could not run: {exc}")
    return msvc_facts_from_output(vswhere, output, plat.console_encodings(), sdks)


# --------------------------------------------------------------------------------------------
# Judging instances, choosing the toolset
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VsVerdict:
    """Visual Studio instances split into usable ones (best first) and the others, with why."""

    usable: tuple[VsInstanceFacts, ...]
    rejected: tuple[tuple[VsInstanceFacts, str], ...]


def judge_instances(msvc: MsvcFacts) -> VsVerdict:
    """Reject incomplete, reboot-pending and non-launchable instances (vswhere's flags) and
    instances without any usable MSVC toolset; keep the reasons."""
    by_id = {id(i.instance): i for i in msvc.instances}
    selection = select_vs_instances(i.instance for i in msvc.instances)
    usable: list[VsInstanceFacts] = []
    rejected: list[tuple[VsInstanceFacts, str]] = []
    for instance in selection.usable:
        facts = by_id[id(instance)]
        if facts.toolsets:
            usable.append(facts)
        elif facts.unusable_toolsets:
            why = "; ".join(f"MSVC {u.toolset.text}: {u.reason}" for u in facts.unusable_toolsets)
            rejected.append((facts, f"it has no usable MSVC toolset ({why})."))
        else:
            rejected.append((facts, "it has no MSVC toolset (VC\\Tools\\MSVC is empty or "
                             "missing): the C++ build tools are not installed in it."))
    for item in selection.rejected:
        reasons = " Also, ".join(r.text for r in item.reasons)
        rejected.append((by_id[id(item.instance)], reasons))
    return VsVerdict(tuple(usable), tuple(rejected))


@dataclass(frozen=True)
class MsvcChoice:
    """The MSVC toolset a CUDA build uses, the instance it comes from, and what was skipped."""

    instance: VsInstanceFacts
    choice: ToolsetChoice
    skipped_elsewhere: tuple[tuple[MsvcToolset, VsInstanceFacts], ...]  # newer, rejected

    @property
    def toolset(self) -> MsvcToolset:
        assert self.choice.chosen is not None
        return self.choice.chosen

    @property
    def vcvarsall(self) -> Path:
        return self.instance.instance.installation_path / "VC" / "Auxiliary" / "Build" / \
            "vcvarsall.bat"

    @property
    def vcvars_ver(self) -> str:
        """The ``-vcvars_ver=`` value the build passes: always the full version. Without it
        vcvarsall takes ``Microsoft.VCToolsVersion.v143.default.txt`` (read before the
        generic default file) or a ``VCToolsVersion`` inherited from a Developer Prompt."""
        return self.toolset.vcvars_ver

    def explain(self, cuda: str) -> str:
        parts = [msg("{toolset} from {instance} will be used.", toolset=self.toolset.label,
                     instance=self.instance.instance.label)]
        if self.skipped_elsewhere:
            newer = ", ".join(f"MSVC {t.text} ({i.instance.label})"
                              for t, i in self.skipped_elsewhere)
            values = dict(newer=newer, cuda=cuda, accepted=self.choice.accepted_range)
            parts.append(msg("The newer {newer} is installed too, but CUDA {cuda} accepts only "
                             "{accepted}.", **values) if len(self.skipped_elsewhere) == 1 else
                         msg("The newer {newer} are installed too, but CUDA {cuda} accepts "
                             "only {accepted}.", **values))
        parts.append(msg("The build selects it with vcvarsall.bat x64 -vcvars_ver={version}.",
                         version=self.vcvars_ver))
        return join(parts)


def choose_msvc(instances: Sequence[VsInstanceFacts],
                bounds: HostCompilerBounds | None) -> MsvcChoice | None:
    """The newest toolset nvcc accepts across the usable instances; on a tie, the instance
    where it is the default, then the instances' order (best first)."""
    limits = bounds if bounds is not None else _NO_BOUNDS
    candidates: list[tuple[tuple[int, int, int], int, int, VsInstanceFacts, ToolsetChoice]] = []
    for order, inst in enumerate(instances):
        choice = pick_msvc_toolset(inst.toolsets, limits, inst.default_toolset)
        if choice.chosen is not None:
            candidates.append((choice.chosen.version, 0 if choice.needs_pin else 1, -order,
                               inst, choice))
    if not candidates:
        return None
    version, _, _, inst, choice = max(candidates, key=lambda c: c[:3])
    skipped = tuple(
        (t, other) for other in instances if other is not inst for t in other.toolsets
        if t.version > version and t in pick_msvc_toolset(
            other.toolsets, limits, other.default_toolset).rejected
    )
    return MsvcChoice(inst, choice, skipped)


# --------------------------------------------------------------------------------------------
# cl.exe's banner (localized)
# --------------------------------------------------------------------------------------------

_CL_VERSION = re.compile(r"(?<![\d.])19\.(\d{1,2})\.(\d{4,5})(?:\.(\d+))?(?![\d.])")
_CL_ARCH = re.compile(r"(?<![A-Za-z0-9_])(x64|x86|ARM64EC|ARM64|ARM|80x86|AMD64)"
                      r"(?![A-Za-z0-9_])", re.IGNORECASE)


@dataclass(frozen=True)
class ClBanner:
    """What ``cl.exe`` says about itself on its first line."""

    version: tuple[int, ...]  # (19, 44, 35211)
    target: str  # "x64", "x86", "arm64"
    line: str

    @property
    def toolset_minor(self) -> int:
        """44 for 19.44.x: the toolset is 14.44 (``_MSC_VER`` 1944). Build numbers of the
        compiler and of its toolset folder differ (19.44.35217 lives in 14.44.35207)."""
        return self.version[1]

    @property
    def msc_ver(self) -> int:
        return 1900 + self.version[1]


def parse_cl_banner(text: str) -> ClBanner:
    """The version and target of ``cl.exe``'s banner, in any language: "Microsoft (R) C/C++
    Optimizing Compiler Version 19.44.35211 for x64", "... Version 19.42.34435 für x64",
    "用于 x64 的 Microsoft (R) C/C++ 优化编译器 19.44.35217 版", "... 버전 19.29.30145(x64)"."""
    for line in text.splitlines():
        if "Microsoft" not in line:
            continue
        version = _CL_VERSION.search(line)
        if version is None:
            continue
        arch = _CL_ARCH.search(line[: version.start()] + " " + line[version.end():])
        target = arch.group(1).lower() if arch else ""
        target = {"80x86": "x86", "amd64": "x64"}.get(target, target)
        numbers = tuple(int(g) for g in version.groups() if g is not None)
        return ClBanner((19, *numbers), target, line.strip())
    raise ToolchainParseError(
        "cl.exe did not print the banner this program knows.",
        why=f"it printed {text.strip()[:160]!r}",
        hint="Repair Visual Studio Build Tools (C++ workload) in the Visual Studio Installer.",
    )


# --------------------------------------------------------------------------------------------
# vcvarsall: the environment it sets
# --------------------------------------------------------------------------------------------

# Variables the build must not take from the capture (they describe the capturing cmd.exe).
_SKIP = {"prompt", "promptcommand", "=c:", "=d:", "=exitcode", "cmdcmdline", "errorlevel"}
# Variables that must not reach vcvarsall from the parent: vcvars.bat reuses a VCToolsVersion
# it inherits (from a Developer Prompt) instead of the toolset asked for.
_NOT_INHERITED = {"vctoolsversion"}


def parse_set_output(data: bytes | str) -> dict[str, str]:
    """``set``'s ``NAME=value`` lines as a dict (``cmd /u`` prints UTF-16-LE)."""
    if isinstance(data, bytes):
        encoding = "utf-16-le" if data[1:2] == b"\x00" else "utf-8"
        text = data.decode(encoding, errors="replace")
    else:
        text = data
    text = text.lstrip("\ufeff")
    result: dict[str, str] = {}
    for line in text.splitlines():
        if "=" not in line or line.startswith("="):
            continue  # cmd's hidden per-drive variables (=C:=C:\...) and stray output
        name, _, value = line.partition("=")
        result[name] = value
    return result


def env_changes_from_capture(
    captured: Mapping[str, str], base: Mapping[str, str]
) -> list[EnvChange]:
    """What vcvarsall changed or added, as changes to ``base`` (names matched ignoring case,
    as Windows does; the base's spelling is kept so no variable exists twice)."""
    base_names = {name.casefold(): name for name in base}
    changes: list[EnvChange] = []
    for name, value in captured.items():
        key = name.casefold()
        if key in _SKIP:
            continue
        existing = base_names.get(key)
        if existing is not None and base[existing] == value:
            continue
        changes.append(EnvChange(existing or name, value, why="Visual Studio build environment"
                                 if key in ("path", "include", "lib", "libpath") else ""))
    return changes


def vcvars_command(vcvarsall: Path, arch: str = "x64", vcvars_ver: str | None = None) -> str:
    """The command line that prints the environment of ``vcvarsall.bat``.

    A batch file's environment can only be read through ``cmd``: this is the one place where
    a command line is handed to a shell (as setuptools does). It is one string on purpose:
    given a list, Python would escape the inner quotes as ``\\"``, which cmd.exe does not
    understand. ``cmd /c ""path with spaces" x64 && set"``: cmd strips the outer pair."""
    pin = f" -vcvars_ver={vcvars_ver}" if vcvars_ver else ""
    return f'cmd.exe /u /c ""{vcvarsall}" {arch}{pin} && set"'


def capture_environment(base: Mapping[str, str]) -> dict[str, str]:
    """The environment ``cmd`` runs vcvarsall in: ``base`` without what vcvars would reuse."""
    return {k: v for k, v in base.items() if k.casefold() not in _NOT_INHERITED}


def _captured_value(captured: Mapping[str, str], name: str) -> str | None:
    for key, value in captured.items():
        if key.casefold() == name.casefold():
            return value
    return None


def confirm_compiler(plat: MsvcPlatform, captured: Mapping[str, str],
                     choice: MsvcChoice) -> ClBanner:
    """Run the captured environment's ``cl.exe`` (no arguments: it prints its banner and
    usage) and check it is the chosen toolset, for x64."""
    tools = _captured_value(captured, "VCToolsInstallDir")
    cl = (Path(tools.rstrip("\\/")) if tools else choice.instance.instance.installation_path
          / "VC" / "Tools" / "MSVC" / choice.toolset.text) / "bin" / "Hostx64" / "x64" / "cl.exe"
    try:
        output = plat.run_program([str(cl)], env=dict(captured), timeout=_TIMEOUT_S)
    except ProcessError as exc:
        raise CompilerEnvError(
            f"The C++ compiler of MSVC {choice.toolset.text} could not be started.",
            why=f"{cl}: {exc}",
            hint="Repair Visual Studio Build Tools (C++ workload) in the Visual Studio Installer.",
        ) from None
    text, _ = decode_console(output.stderr + b"\n" + output.stdout, plat.console_encodings())
    banner = parse_cl_banner(text)
    if banner.toolset_minor != choice.toolset.version[1] or banner.target != "x64":
        raise CompilerEnvError(
            f"The compiler in the build environment is not MSVC {choice.toolset.text} for x64.",
            why=f"{cl} says: {banner.line}",
            hint="Repair Visual Studio Build Tools (C++ workload) in the Visual Studio Installer.",
        )
    return banner


def windows_build_env(
    plat: MsvcPlatform,
    instances: Sequence[VsInstanceFacts],
    bounds: HostCompilerBounds | None,
    cuda_text: str,
    base: Mapping[str, str],
    temp_dir: Path,
) -> tuple[list[EnvChange], str]:
    """The build's MSVC environment and a note saying which toolset it is and why.
    ``instances``: the usable Visual Studio instances (:func:`judge_instances`)."""
    choice = choose_msvc(instances, bounds)
    if choice is None:
        raise CompilerEnvError(
            f"No Visual Studio C++ toolset that CUDA {cuda_text} accepts is installed.",
            hint="Install Visual Studio 2022 Build Tools with the C++ workload: "
            + prerequisite_fix("compiler") + ".",
        )
    if not choice.vcvarsall.is_file():
        raise CompilerEnvError(
            f"{choice.vcvarsall} is missing: the Visual Studio installation looks damaged.",
            hint="Repair Visual Studio Build Tools in the Visual Studio Installer.",
        )
    output = plat.run_capture(vcvars_command(choice.vcvarsall, "x64", choice.vcvars_ver),
                              capture_environment(base))
    captured = parse_set_output(output)
    loaded = _captured_value(captured, "VCToolsVersion")
    if loaded is None:
        raise CompilerEnvError(
            "vcvarsall.bat did not set up the C++ build environment.",
            why=(output.decode("utf-16-le", "replace") if isinstance(output, bytes)
                 else str(output))[-500:],
            hint="Repair Visual Studio Build Tools (C++ workload) in the Visual Studio Installer.",
        )
    if loaded.strip() != choice.toolset.text:
        raise CompilerEnvError(
            f"vcvarsall.bat loaded MSVC {loaded.strip()}, not the MSVC {choice.toolset.text} "
            f"that CUDA {cuda_text} needs.",
            why=f"vcvarsall.bat x64 -vcvars_ver={choice.vcvars_ver} set VCToolsVersion="
            f"{loaded.strip()}",
            hint="Repair Visual Studio Build Tools in the Visual Studio Installer, or start the "
            "wizard from a normal (not a Developer) command prompt.",
        )
    banner = confirm_compiler(plat, captured, choice)
    changes = env_changes_from_capture(captured, base)
    changes.append(EnvChange("DISTUTILS_USE_SDK", "1",
                             why="use this environment as it is (and /Zc:__cplusplus in "
                             "flash-attn ≥ 2.8.1)"))
    temp_dir.mkdir(parents=True, exist_ok=True)
    changes.append(EnvChange("TEMP", str(temp_dir), why="a short TEMP: 260-character paths"))
    changes.append(EnvChange("TMP", str(temp_dir)))
    note = choice.explain(cuda_text) + \
        f" cl.exe {'.'.join(map(str, banner.version))} for {banner.target} confirmed."
    return changes, note


def build_environment(
    toolkit_root: Path | None,
    cuda_version_text: str,
    build_root: Path,
    *,
    platform: Platform | None = None,
    environ: Mapping[str, str] | None = None,
    msvc: MsvcFacts | None = None,
) -> tuple[list[EnvChange], str]:
    """The entry point for planning: read the toolkit's ``host_config.h`` bounds, judge the
    Visual Studio instances, capture the chosen toolset's vcvarsall environment. Returns the
    changes for the build's environment and a note for the user. Raises
    :class:`CompilerEnvError`. ``msvc``: facts already gathered (else vswhere is asked)."""
    plat = msvc_platform(platform)
    bounds = None
    if toolkit_root is not None:
        try:
            bounds = read_host_config(toolkit_root)
        except WizardError:
            bounds = None  # no header: no bounds to respect
    facts = msvc if msvc is not None else gather_msvc(plat)
    usable = judge_instances(facts).usable
    base = dict(environ if environ is not None else os.environ)
    return windows_build_env(plat, usable, bounds, cuda_version_text, base, build_root / "t")


def instance_json(i: VsInstanceFacts, usable: bool, reason: str) -> dict[str, Any]:
    """One instance for ``--json`` and bug reports."""
    return {
        "name": i.instance.label,
        "path": str(i.instance.installation_path),
        "version": ".".join(str(v) for v in i.instance.installation_version),
        "product": i.instance.product_id,
        "usable": usable,
        "reason": reason,
        "toolsets": [t.text for t in i.toolsets],
        "unusable_toolsets": {u.toolset.text: u.reason for u in i.unusable_toolsets},
        "default_toolset": ".".join(map(str, i.default_toolset)) if i.default_toolset else None,
    }


__all__ = [
    "ClBanner",
    "CompilerEnvError",
    "MsvcChoice",
    "MsvcFacts",
    "MsvcPlatform",
    "UnusableToolset",
    "VsInstanceFacts",
    "VsPackage",
    "VsVerdict",
    "build_environment",
    "capture_environment",
    "choose_msvc",
    "confirm_compiler",
    "decode_console",
    "env_changes_from_capture",
    "gather_msvc",
    "instance_json",
    "judge_instances",
    "msvc_facts_from_output",
    "msvc_platform",
    "parse_cl_banner",
    "parse_set_output",
    "parse_vswhere_packages",
    "sort_toolsets",
    "vcvars_command",
    "vswhere_query",
    "windows_build_env",
]
