"""Everything the prerequisite checks look at, gathered once: :class:`SystemFacts`.

Gathering runs programs (vswhere, nvcc, gcc, git, reg query, the target Python) and reads
folders; it goes through the platform seam, never through ``sys.platform``. The checks
themselves (:mod:`.checks`) are pure functions of the facts, so they are tested with facts
built from recorded real outputs.

Gathering takes a few seconds (inspecting the target Python imports torch): a GUI runs
:func:`gather_facts` on a worker thread, passes the :class:`HardwareReport` and
:class:`PythonEnv` it already has, and after a fix calls :func:`refresh` with the check id to
re-read only what that fix can have changed.
"""

from __future__ import annotations

import os
import platform as host_platform
import re
import shlex
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Protocol, runtime_checkable

from kernel_wizard.base.errors import ProcessError, WizardError
from kernel_wizard.base.processes import run_captured
from kernel_wizard.catalog import load_catalog
from kernel_wizard.machine.environment import PythonEnv, inspect_python
from kernel_wizard.machine.hardware import HardwareReport, NvmlApi, detect, detect_host
from kernel_wizard.machine.msvc import MsvcFacts, MsvcPlatform, VsInstanceFacts, gather_msvc
from kernel_wizard.machine.platforms import Platform
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.machine.toolchain import (
    GccVersion,
    HostCompilerBounds,
    read_host_config,
    run_gcc_version,
)
from kernel_wizard.machine.toolkits import CudaToolkit, ToolkitChoice, discover_toolkits
from kernel_wizard.prereqs.model import CheckId
from kernel_wizard.prereqs.resume import restart_pending


@cache
def gpu_kernel_names() -> tuple[str, ...]:
    """The catalog's kernels that need a GPU build (every recipe without a CPU fallback):
    what a CUDA toolkit, a CUDA build of PyTorch and the like are "needed for"."""
    try:
        catalog = load_catalog()
    except Exception:  # noqa: BLE001 - a broken catalog is the Kernel page's to report
        return ()
    return tuple(r.name for r in catalog if not r.requirements.cpu_fallback)


# --------------------------------------------------------------------------------------------
# The platform seam, as far as the prerequisites need it
# --------------------------------------------------------------------------------------------


@runtime_checkable
class PrereqPlatform(MsvcPlatform, Protocol):
    """What the prerequisites need from the OS beyond :class:`Platform` and the MSVC seam
    (both platform classes implement it; Linux answers "not applicable" where a question is
    Windows-only)."""

    def max_path(self) -> int | None: ...
    def read_long_paths_enabled(self) -> int | None: ...
    def run_elevated(self, argv: Sequence[str], *, show_window: bool = True) -> int: ...
    def register_resume_once(self, name: str, argv: Sequence[str]) -> str: ...
    def os_release_text(self) -> str: ...


def prereq_platform(plat: Platform | None = None) -> PrereqPlatform:
    chosen = plat if plat is not None else current_platform()
    if not isinstance(chosen, PrereqPlatform):
        raise TypeError(f"{type(chosen).__name__} does not implement the prerequisites seam")
    return chosen


# --------------------------------------------------------------------------------------------
# The facts
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinuxDistro:
    """From /etc/os-release: which package manager commands to show."""

    id: str  # "debian", "ubuntu", "rhel", "fedora", ...
    id_like: tuple[str, ...]
    version_id: str  # "12", "24.04", "9.4"
    pretty_name: str
    wsl: bool = False
    machine: str = "x86_64"

    @property
    def family(self) -> str:
        """'debian' (apt), 'rhel' (dnf), 'suse' (zypper), 'arch' (pacman) or 'other'."""
        names = (self.id, *self.id_like)
        for family, members in (
            ("debian", {"debian", "ubuntu"}),
            ("rhel", {"rhel", "fedora", "centos", "rocky", "almalinux"}),
            ("suse", {"suse", "opensuse", "sles", "opensuse-leap", "opensuse-tumbleweed"}),
            ("arch", {"arch"}),
        ):
            if any(n in members for n in names):
                return family
        return "other"


def parse_os_release(text: str, *, wsl: bool = False, machine: str = "x86_64") -> LinuxDistro:
    """The fields of an os-release file (``KEY=value`` / ``KEY="value"`` lines)."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        match = re.match(r'^\s*([A-Z_]+)\s*=\s*"?(.*?)"?\s*$', line)
        if match:
            values[match.group(1)] = match.group(2)
    return LinuxDistro(
        id=values.get("ID", "").lower(),
        id_like=tuple(values.get("ID_LIKE", "").lower().split()),
        version_id=values.get("VERSION_ID", ""),
        pretty_name=values.get("PRETTY_NAME", "") or values.get("NAME", "Linux"),
        wsl=wsl,
        machine=machine,
    )


# PyTorch's extension builds compile with $CXX instead of the default C++ compiler (c++ on
# Linux, cl on Windows), and hand $CC to nvcc as its host compiler (-ccbin): when one is set,
# the build uses what it names, so that is what the compiler check must look at.
COMPILER_VARIABLES = ("CC", "CXX")
_WRAPPERS = ("ccache", "sccache")  # "ccache g++": the compiler is the next word


@dataclass(frozen=True)
class CompilerVariable:
    """``CC`` or ``CXX`` set in the environment the build inherits."""

    name: str  # "CC" | "CXX"
    value: str  # as set
    program: Path | None  # the program it names (a path, or found on PATH); None: nothing

    @property
    def text(self) -> str:
        return f"{self.name}={self.value}"

    @property
    def is_path(self) -> bool:
        """Whether it names a file by its path (not a name looked up on PATH)."""
        word = self.first_word
        return "/" in word or "\\" in word

    @property
    def first_word(self) -> str:
        try:
            words = shlex.split(self.value, posix="\\" not in self.value)
        except ValueError:
            words = self.value.split()
        words = [w.strip('"') for w in words] or [self.value]
        if Path(words[0]).name.lower().removesuffix(".exe") in _WRAPPERS and len(words) > 1:
            return words[1]
        return words[0]


def gather_compiler_variables(environ: Mapping[str, str] | None = None,
                              ) -> tuple[CompilerVariable, ...]:
    """The ``CC``/``CXX`` the build will inherit, and what each names."""
    env = environ if environ is not None else os.environ
    found: list[CompilerVariable] = []
    for name in COMPILER_VARIABLES:
        value = env.get(name, "").strip()
        if not value:
            continue
        probe = CompilerVariable(name, value, None)
        program = shutil.which(probe.first_word, path=env.get("PATH"))
        found.append(CompilerVariable(name, value, Path(program) if program else None))
    return tuple(found)


@dataclass(frozen=True)
class GccFacts:
    """Linux: the host compilers a torch extension build uses (``cc``/``c++`` are gcc here,
    or what ``CC``/``CXX`` name when they are set)."""

    gcc: Path | None
    gcc_version: GccVersion | None
    gxx: Path | None
    gxx_version: GccVersion | None
    distro: LinuxDistro | None = None
    error: str = ""  # a compiler that is there but did not answer
    gcc_variable: CompilerVariable | None = None  # CC, when set: gcc is what it names
    gxx_variable: CompilerVariable | None = None  # CXX, when set: g++ is what it names


CompilerFacts = MsvcFacts | GccFacts


@dataclass(frozen=True)
class ToolkitFacts:
    """One CUDA toolkit, with the host-compiler bounds of its own host_config.h."""

    toolkit: CudaToolkit
    bounds: HostCompilerBounds | None
    bounds_error: str = ""  # host_config.h missing or unreadable
    cccl_include: Path | None = None  # <root>/include/cccl (CUDA 13+), when it exists


@dataclass(frozen=True)
class LongPathsFacts:
    applicable: bool  # False on Linux: no 260-character limit to lift
    enabled: int | None = None  # LongPathsEnabled; None = not set (Windows default: off)
    max_path: int | None = None  # 260 on Windows
    restart_pending: bool = False  # the wizard set it, and Windows has not restarted since
    error: str = ""


@dataclass(frozen=True)
class GitFacts:
    executable: Path | None
    core_longpaths: bool | None = None  # git config --global core.longpaths; None = not set
    error: str = ""


@dataclass(frozen=True)
class SystemFacts:
    """What the checks look at. Built by :func:`gather_facts`, or by tests from recordings."""

    platform: str  # "windows" | "linux"
    compiler: CompilerFacts
    toolkits: tuple[ToolkitFacts, ...]
    long_paths: LongPathsFacts
    git: GitFacts
    build_root: Path
    host_include_var: str  # "INCLUDE" (cl.exe) or "CPLUS_INCLUDE_PATH" (gcc)
    hardware: HardwareReport
    env: PythonEnv | None  # None: no target Python chosen/found
    seconds: float = 0.0
    compiler_variables: tuple[CompilerVariable, ...] = ()  # CC/CXX the build inherits
    # the kernels that need a GPU build (what GPU-only prerequisites are "needed for")
    gpu_kernels: tuple[str, ...] = field(default_factory=gpu_kernel_names)
    # the session's toolkit decision these toolkits came from (None: facts gathered on their
    # own; the CUDA check then chooses as a build would)
    toolkit_choice: ToolkitChoice | None = None

    @property
    def torch_cuda(self) -> tuple[int, int] | None:
        torch = self.env.torch if self.env is not None else None
        return torch.cuda_version if torch is not None else None


# --------------------------------------------------------------------------------------------
# Gathering
# --------------------------------------------------------------------------------------------

StepCallback = Callable[[str], None]
_TIMEOUT_S = 30.0


def gather_compiler(plat: PrereqPlatform,
                    variables: Sequence[CompilerVariable] = ()) -> CompilerFacts:
    if plat.name == "windows":
        return gather_msvc(plat)
    return _gather_gcc(plat, variables)


def _is_wsl() -> bool:
    try:
        text = Path("/proc/sys/kernel/osrelease").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "microsoft" in text.lower()


def _gather_gcc(plat: PrereqPlatform, variables: Sequence[CompilerVariable] = ()) -> GccFacts:
    distro = parse_os_release(plat.os_release_text(), wsl=_is_wsl(),
                              machine=host_platform.machine() or "x86_64")
    errors: list[str] = []
    named = {v.name: v for v in variables}

    def probe(name: str, variable: CompilerVariable | None,
              ) -> tuple[Path | None, GccVersion | None]:
        if variable is not None:  # the build uses what CC/CXX names, not gcc/g++ on PATH
            found = str(variable.program) if variable.program is not None else None
        else:
            found = shutil.which(plat.executable(name))
        if found is None:
            return None, None
        try:
            return Path(found), run_gcc_version(found)
        except WizardError as exc:
            errors.append(f"{variable.text if variable else name}: {exc.describe()}")
            return Path(found), None

    gcc, gcc_version = probe("gcc", named.get("CC"))
    gxx, gxx_version = probe("g++", named.get("CXX"))
    return GccFacts(gcc, gcc_version, gxx, gxx_version, distro, "\n".join(errors),
                    named.get("CC"), named.get("CXX"))


def gather_toolkits(plat: PrereqPlatform, environ: Mapping[str, str] | None = None,
                    found: Sequence[CudaToolkit] | None = None) -> tuple[ToolkitFacts, ...]:
    """What the checks know of each toolkit: ``found`` (the session's, searched once), or
    those found here when none are given."""
    out: list[ToolkitFacts] = []
    for toolkit in (found if found is not None else discover_toolkits(plat, environ)):
        try:
            bounds: HostCompilerBounds | None = read_host_config(toolkit.root)
            error = ""
        except WizardError as exc:
            bounds, error = None, exc.describe()
        out.append(ToolkitFacts(toolkit, bounds, error, toolkit.cccl_include))
    return tuple(out)


def gather_long_paths(plat: PrereqPlatform) -> LongPathsFacts:
    max_path = plat.max_path()
    if max_path is None:
        return LongPathsFacts(applicable=False)
    try:
        value = plat.read_long_paths_enabled()
        error = ""
    except WizardError as exc:
        value, error = None, exc.describe()
    return LongPathsFacts(True, value, max_path, restart_pending=restart_pending(), error=error)


def parse_git_bool(text: str) -> bool | None:
    """``git config --bool`` prints 'true'/'false'; anything else → None."""
    value = text.strip().lower()
    return {"true": True, "false": False}.get(value)


def gather_git(plat: PrereqPlatform, environ: Mapping[str, str] | None = None) -> GitFacts:
    env = dict(environ if environ is not None else os.environ)
    found = shutil.which(plat.executable("git"), path=env.get("PATH"))
    if found is None:
        return GitFacts(None)
    try:
        done = run_captured([found, "config", "--global", "--bool", "--get", "core.longpaths"],
                            timeout_s=_TIMEOUT_S, env=env)
    except ProcessError as exc:
        return GitFacts(Path(found), None, f"git could not run: {exc.what} {exc.why}".strip())
    if done.returncode == 1:  # the key is not set
        return GitFacts(Path(found), None)
    if done.returncode != 0:
        return GitFacts(Path(found), None, done.stderr.strip()[:300])
    return GitFacts(Path(found), parse_git_bool(done.stdout))


def gather_facts(
    python: Path | None = None,
    *,
    env: PythonEnv | None = None,
    hardware: HardwareReport | None = None,
    nvml: Callable[[], NvmlApi] | None = None,
    platform: Platform | None = None,
    environ: Mapping[str, str] | None = None,
    build_root: Path | None = None,
    on_step: StepCallback | None = None,
    toolkits: ToolkitChoice | None = None,
) -> SystemFacts:
    """Gather every fact the checks need (a few seconds; run it off the GUI thread).

    ``env``/``hardware``: pass what an earlier page already found; otherwise ``python`` is
    inspected and NVML is asked (``nvml``: a replay of a recorded machine, for tests and
    ``check --replay``). ``on_step`` hears a short line before each part. ``toolkits``: the
    session's toolkit decision (its toolkits are not searched for again; the CUDA check reads
    its choice).
    """
    started = time.perf_counter()
    plat = prereq_platform(platform)
    say = on_step or (lambda _text: None)
    root = build_root if build_root is not None else plat.default_build_root()
    say("Looking for the C++ compiler…")
    variables = gather_compiler_variables(environ)
    compiler = gather_compiler(plat, variables)
    say("Looking for CUDA toolkits…")
    toolkit_facts = gather_toolkits(plat, environ, toolkits.found if toolkits else None)
    say("Checking long path support…")
    long_paths = gather_long_paths(plat)
    git = gather_git(plat, environ)
    if hardware is None:
        say("Asking the NVIDIA driver about the GPUs…")
        hardware = detect(nvml, build_path=root)
    elif hardware.host.disk_path != root:
        hardware = replace(hardware, host=detect_host(root))
    if env is None and python is not None:
        say(f"Inspecting the Python environment {python}…")
        env = inspect_python(python)
    return SystemFacts(
        platform=plat.name,
        compiler=compiler,
        toolkits=toolkit_facts,
        long_paths=long_paths,
        git=git,
        build_root=root,
        host_include_var=plat.host_include_var,
        hardware=hardware,
        env=env,
        seconds=time.perf_counter() - started,
        compiler_variables=variables,
        toolkit_choice=toolkits,
    )


def refresh(
    facts: SystemFacts,
    check: CheckId,
    *,
    platform: Platform | None = None,
    environ: Mapping[str, str] | None = None,
    toolkits: ToolkitChoice | None = None,
) -> SystemFacts:
    """Re-read what a fix for ``check`` can have changed (after a fix ran), keep the rest.
    ``toolkits``: the session's new toolkit decision (a CUDA fix; not searched again here)."""
    plat = prereq_platform(platform)
    if check is CheckId.COMPILER:
        variables = gather_compiler_variables(environ)
        return replace(facts, compiler=gather_compiler(plat, variables),
                       compiler_variables=variables)
    if check in (CheckId.CUDA, CheckId.COMPAT):
        variables = gather_compiler_variables(environ)
        return replace(facts, compiler=gather_compiler(plat, variables),
                       compiler_variables=variables, toolkit_choice=toolkits,
                       toolkits=gather_toolkits(plat, environ,
                                                toolkits.found if toolkits else None))
    if check is CheckId.LONG_PATHS:
        return replace(facts, long_paths=gather_long_paths(plat), git=gather_git(plat, environ))
    if check in (CheckId.PYTHON_ENV, CheckId.TRITON):
        env = inspect_python(facts.env.executable) if facts.env is not None else None
        return replace(facts, env=env)
    return replace(facts, hardware=replace(facts.hardware, host=detect_host(facts.build_root)))


__all__ = [
    "COMPILER_VARIABLES",
    "CompilerFacts",
    "CompilerVariable",
    "GccFacts",
    "GitFacts",
    "LinuxDistro",
    "LongPathsFacts",
    "MsvcFacts",
    "PrereqPlatform",
    "SystemFacts",
    "ToolkitFacts",
    "VsInstanceFacts",
    "gather_compiler_variables",
    "gather_facts",
    "gather_msvc",
    "gpu_kernel_names",
    "parse_git_bool",
    "parse_os_release",
    "prereq_platform",
    "refresh",
]
