"""Target Python environments: discover the candidates, inspect the chosen one.

The wizard never imports torch (or anything of the target environment) into its own process:
:func:`inspect_python` runs ``resources/probes/inspect_env.py`` with the target interpreter in
a subprocess and reads the JSON it prints.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from .advice import prerequisite_fix
from .errors import ProcessStartError, ProcessTimeout
from .platforms import Platform
from .platforms import current as current_platform
from .processes import EnvChange, run_captured
from .resources import is_frozen, resource_path

PROBE_BEGIN = "@@KSW-ENV-BEGIN@@"
PROBE_END = "@@KSW-ENV-END@@"
PROBE_TIMEOUT_S = 120.0  # importing torch from a cold disk can take tens of seconds
MIN_PYTHON = (3, 9)


class EnvStatus(Enum):
    """The verdict on a target environment. ``usable`` says whether the wizard can go on."""

    READY = "ready"  # torch with CUDA, and CUDA works
    CUDA_TORCH_NO_GPU = "cuda_torch_no_gpu"  # a CUDA build of torch that sees no GPU
    CPU_TORCH = "cpu_torch"  # a CPU build of torch: the probe kernel's CPU path only
    NO_TORCH = "no_torch"  # the prerequisites page can install torch
    TORCH_BROKEN = "torch_broken"
    NO_PIP = "no_pip"
    BITS32 = "bits32"
    UNSUPPORTED_PYTHON = "unsupported_python"
    BROKEN = "broken"  # it ran, but the probe failed
    NOT_AN_INTERPRETER = "not_an_interpreter"

    @property
    def usable(self) -> bool:
        return self in _USABLE


_USABLE = {EnvStatus.READY, EnvStatus.CUDA_TORCH_NO_GPU, EnvStatus.CPU_TORCH, EnvStatus.NO_TORCH}


@dataclass(frozen=True)
class TorchInfo:
    version: str
    cuda: str | None  # "13.0"; None for a CPU build
    cuda_available: bool
    device_count: int
    arch_list: tuple[str, ...]
    cxx11_abi: bool

    @property
    def cuda_version(self) -> tuple[int, int] | None:
        if not self.cuda:
            return None
        major, _, minor = self.cuda.partition(".")
        try:
            return int(major), int(minor.split(".")[0] or 0)
        except ValueError:
            return None

    @property
    def major_minor(self) -> str:
        """'2.13' for '2.13.0+cpu'."""
        return ".".join(self.version.split("+")[0].split(".")[:2])


@dataclass(frozen=True)
class DevFiles:
    """Python's C headers and (Windows) import library, which every extension build needs."""

    include_dir: Path | None  # sysconfig.get_paths()["include"]
    python_h: bool
    libs_dir: Path | None = None  # Windows: <base_exec_prefix>\libs
    import_lib: str | None = None  # Windows: "python312.lib"
    import_lib_present: bool | None = None  # None: not a question on this OS
    release_level: str = "final"

    @property
    def missing(self) -> tuple[str, ...]:
        """What is missing, as paths a person can look for."""
        out: list[str] = []
        if not self.python_h:
            out.append(str(self.include_dir / "Python.h") if self.include_dir else "Python.h")
        if self.import_lib_present is False and self.import_lib:
            out.append(str(self.libs_dir / self.import_lib) if self.libs_dir
                       else self.import_lib)
        return tuple(out)


def _dev_files(facts: Mapping[str, Any]) -> DevFiles | None:
    if not isinstance(facts, Mapping) or "python_h" not in facts:
        return None  # an older probe
    include = facts.get("include")
    libs = facts.get("libs_dir")
    present = facts.get("import_lib_present")
    return DevFiles(
        include_dir=Path(include) if include else None,
        python_h=bool(facts.get("python_h")),
        libs_dir=Path(libs) if libs else None,
        import_lib=facts.get("import_lib") or None,
        import_lib_present=bool(present) if present is not None else None,
        release_level=str(facts.get("release_level") or "final"),
    )


@dataclass(frozen=True)
class PythonEnv:
    """The inspection result of one interpreter."""

    executable: Path
    status: EnvStatus
    summary: str  # one line for a non-expert
    hint: str = ""  # what to do next
    version: str | None = None
    bits: int | None = None
    platform_tag: str | None = None  # "linux_x86_64", "win_amd64"
    interpreter_tag: str | None = None  # "cp311"
    prefix: Path | None = None
    is_venv: bool = False
    is_conda: bool = False
    pip_version: str | None = None
    ninja: str | None = None  # ninja executable found for this environment
    torch: TorchInfo | None = None
    dev_files: DevFiles | None = None  # None: not inspected (the interpreter did not answer)
    implementation: str | None = None  # "CPython"
    detail: str = ""  # raw error text, for the details view
    seconds: float = 0.0
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def usable(self) -> bool:
        return self.status.usable

    def to_json(self) -> dict[str, Any]:
        torch = self.torch
        return {
            "executable": str(self.executable),
            "status": self.status.value,
            "usable": self.usable,
            "summary": self.summary,
            "hint": self.hint,
            "python_version": self.version,
            "bits": self.bits,
            "platform_tag": self.platform_tag,
            "interpreter_tag": self.interpreter_tag,
            "prefix": str(self.prefix) if self.prefix else None,
            "is_venv": self.is_venv,
            "is_conda": self.is_conda,
            "pip_version": self.pip_version,
            "ninja": self.ninja,
            "torch": None
            if torch is None
            else {
                "version": torch.version,
                "cuda": torch.cuda,
                "cuda_available": torch.cuda_available,
                "device_count": torch.device_count,
                "arch_list": list(torch.arch_list),
                "cxx11_abi": torch.cxx11_abi,
            },
            "dev_files": None
            if self.dev_files is None
            else {
                "include": str(self.dev_files.include_dir) if self.dev_files.include_dir else None,
                "python_h": self.dev_files.python_h,
                "libs_dir": str(self.dev_files.libs_dir) if self.dev_files.libs_dir else None,
                "import_lib": self.dev_files.import_lib,
                "import_lib_present": self.dev_files.import_lib_present,
                "missing": list(self.dev_files.missing),
            },
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Candidate:
    """An interpreter the user might want to install into, and how we found it."""

    path: Path
    origin: str  # "this program's Python", "active venv", "conda env 'ml'", ...


def inspect_python(executable: Path | str, timeout: float = PROBE_TIMEOUT_S) -> PythonEnv:
    """Run the probe in ``executable``. Never raises for a bad interpreter: returns a state."""
    exe = Path(executable)
    started = time.perf_counter()

    def failed(status: EnvStatus, summary: str, hint: str, detail: str = "") -> PythonEnv:
        return PythonEnv(
            executable=exe,
            status=status,
            summary=summary,
            hint=hint,
            detail=detail,
            seconds=time.perf_counter() - started,
        )

    not_python_hint = (
        "Choose the python executable of the environment you want the kernel in "
        "(for a venv: its bin/python or Scripts\\python.exe)."
    )
    if not exe.exists():
        return failed(EnvStatus.NOT_AN_INTERPRETER, f"{exe} does not exist.", not_python_hint)
    if exe.is_dir():
        return failed(
            EnvStatus.NOT_AN_INTERPRETER, f"{exe} is a folder, not a Python.", not_python_hint
        )
    try:
        completed = run_captured(
            [str(exe), str(resource_path("probes", "inspect_env.py"))],
            timeout_s=timeout,
            env_changes=[EnvChange("PYTHONIOENCODING", "utf-8")],
            unset=["PYTHONHOME"],  # a frozen wizard's own settings must not leak into the target
        )
    except ProcessTimeout:
        return failed(
            EnvStatus.BROKEN,
            f"This Python did not answer within {timeout:.0f} seconds.",
            "Try again; if it happens again, the environment may be damaged (a hung import).",
        )
    except ProcessStartError as exc:
        return failed(
            EnvStatus.NOT_AN_INTERPRETER,
            f"{exe.name} could not be run as a program.",
            not_python_hint,
            detail=exc.why,
        )
    stdout = completed.stdout
    stderr = completed.stderr
    facts = _extract_probe_json(stdout)
    if facts is None:
        tail = (stderr or stdout).strip().splitlines()[-5:]
        return failed(
            EnvStatus.BROKEN,
            "This program did not behave like a working Python interpreter.",
            "Choose another interpreter, or repair this environment (reinstall Python).",
            detail=f"exit code {completed.returncode}\n" + "\n".join(tail),
        )
    return _env_from_facts(exe, facts, time.perf_counter() - started)


def _extract_probe_json(stdout: str) -> dict[str, Any] | None:
    begin = stdout.rfind(PROBE_BEGIN)
    end = stdout.rfind(PROBE_END)
    if begin < 0 or end < begin:
        return None
    try:
        data = json.loads(stdout[begin + len(PROBE_BEGIN) : end])
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def _platform_tag(sysconfig_platform: str) -> str:
    return sysconfig_platform.replace("-", "_").replace(".", "_")


def _env_from_facts(exe: Path, facts: dict[str, Any], seconds: float) -> PythonEnv:
    py = facts.get("python", {})
    pip = facts.get("pip", {})
    torch_facts = facts.get("torch", {})
    version = str(py.get("version", "?"))
    bits = int(py.get("bits", 0)) or None
    prefix = Path(py["prefix"]) if py.get("prefix") else None
    base = dict(
        executable=exe,
        version=version,
        bits=bits,
        platform_tag=_platform_tag(str(py.get("platform", ""))),
        interpreter_tag=py.get("interpreter_tag"),
        prefix=prefix,
        is_venv=bool(py.get("prefix") and py.get("prefix") != py.get("base_prefix")),
        is_conda=bool(py.get("is_conda")),
        pip_version=pip.get("version") if pip.get("present") else None,
        ninja=(facts.get("ninja") or {}).get("executable"),
        dev_files=_dev_files(facts.get("dev_files") or {}),
        implementation=py.get("implementation"),
        seconds=seconds,
        raw=facts,
    )
    torch: TorchInfo | None = None
    if torch_facts.get("present") and "version" in torch_facts:
        torch = TorchInfo(
            version=str(torch_facts["version"]),
            cuda=torch_facts.get("cuda"),
            cuda_available=bool(torch_facts.get("cuda_available")),
            device_count=int(torch_facts.get("device_count") or 0),
            arch_list=tuple(torch_facts.get("arch_list") or ()),
            cxx11_abi=bool(torch_facts.get("cxx11_abi")),
        )
    status, summary, hint, detail = _verdict(version, bits, pip, torch_facts, torch)
    return PythonEnv(status=status, summary=summary, hint=hint, detail=detail, torch=torch, **base)


def _verdict(
    version: str,
    bits: int | None,
    pip: Mapping[str, Any],
    torch_facts: Mapping[str, Any],
    torch: TorchInfo | None,
) -> tuple[EnvStatus, str, str, str]:
    try:
        version_tuple = tuple(int(p) for p in version.split(".")[:2])
    except ValueError:
        version_tuple = (0, 0)
    if bits is not None and bits != 64:
        return (
            EnvStatus.BITS32,
            f"This is a {bits}-bit Python {version}; CUDA kernels need a 64-bit Python.",
            "Install 64-bit Python (python.org: 'Windows installer (64-bit)') and choose it.",
            "",
        )
    if version_tuple < MIN_PYTHON:
        return (
            EnvStatus.UNSUPPORTED_PYTHON,
            f"Python {version} is too old; PyTorch needs Python "
            f"{MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer.",
            "Create an environment with a newer Python and choose it.",
            "",
        )
    if not pip.get("present"):
        return (
            EnvStatus.NO_PIP,
            f"Python {version} has no pip, so nothing can be installed into it.",
            "Run 'python -m ensurepip --upgrade' with this interpreter, or choose another.",
            "",
        )
    if not torch_facts.get("present"):
        return (
            EnvStatus.NO_TORCH,
            f"Python {version} without PyTorch.",
            f"Install the PyTorch build that fits this computer into it: "
            f"{prerequisite_fix('python-env')}.",
            "",
        )
    if torch is None:
        error = str(torch_facts.get("import_error", "unknown error"))
        return (
            EnvStatus.TORCH_BROKEN,
            "PyTorch is installed here but fails to import.",
            "Reinstall PyTorch in this environment (pip install --force-reinstall torch), or "
            "choose another environment.",
            error,
        )
    if torch.cuda is None:
        return (
            EnvStatus.CPU_TORCH,
            f"Python {version} with PyTorch {torch.version}, a CPU-only build: only the CPU "
            "probe kernel can be built here.",
            "For GPU kernels on a computer with an NVIDIA GPU, install a CUDA build of PyTorch: "
            f"{prerequisite_fix('python-env')}.",
            "",
        )
    if not torch.cuda_available:
        return (
            EnvStatus.CUDA_TORCH_NO_GPU,
            f"Python {version} with PyTorch {torch.version} (CUDA {torch.cuda}), but PyTorch "
            "cannot use the GPU right now.",
            "Kernels can still be built; to verify them on the GPU, check the NVIDIA driver "
            "(see the GPU table) and that the driver supports CUDA " + str(torch.cuda) + ".",
            str(torch_facts.get("cuda_error", "")),
        )
    return (
        EnvStatus.READY,
        f"Python {version} with PyTorch {torch.version} (CUDA {torch.cuda}, "
        f"{torch.device_count} GPU{'s' if torch.device_count != 1 else ''} usable).",
        "",
        "",
    )


def _key(path: Path) -> str:
    # Not resolve(): a venv's python is a symlink to the base interpreter, yet a different env.
    return os.path.normcase(os.path.abspath(str(path)))


def _conda_env_prefixes(environ: Mapping[str, str], home: Path) -> list[tuple[Path, str]]:
    prefixes: list[tuple[Path, str]] = []
    conda_exe = environ.get("CONDA_EXE")
    if conda_exe:
        root = Path(conda_exe).parent.parent
        prefixes.append((root, "conda base"))
    listing = home / ".conda" / "environments.txt"  # conda records every env it creates here
    try:
        lines = listing.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    for line in lines:
        if line.strip():
            prefix = Path(line.strip())
            prefixes.append((prefix, f"conda env '{prefix.name}'"))
    return prefixes


# What "no --python" means, in discover_candidates' order (the CLI's help texts say it).
PYTHON_DEFAULT = ("default: the active virtual or conda environment, else the Python running "
                  "this wizard; 'detect' lists the candidates")


def discover_candidates(
    platform: Platform | None = None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
    launched_from: Path | None = None,
) -> list[Candidate]:
    """Interpreters the user may want to install into, most likely first, without duplicates.

    Only existing files are returned; they are not inspected here (that runs each one).
    """
    plat = platform if platform is not None else current_platform()
    env = environ if environ is not None else os.environ
    home_dir = home if home is not None else Path.home()
    found: list[Candidate] = []
    seen: set[str] = set()

    def add(path: Path | None, origin: str) -> None:
        if path is None or not path.is_file():
            return
        key = _key(path)
        if key not in seen:
            seen.add(key)
            found.append(Candidate(path, origin))

    if env.get("VIRTUAL_ENV"):
        add(plat.python_in_prefix(Path(env["VIRTUAL_ENV"])), "active virtual environment")
    if env.get("CONDA_PREFIX"):
        name = env.get("CONDA_DEFAULT_ENV") or Path(env["CONDA_PREFIX"]).name
        add(plat.python_in_prefix(Path(env["CONDA_PREFIX"])), f"active conda env '{name}'")
    if launched_from is None and not is_frozen():
        launched_from = Path(sys.executable)
    if launched_from is not None:
        add(launched_from, "the Python running this wizard")
    for prefix, origin in _conda_env_prefixes(env, home_dir):
        add(plat.python_in_prefix(prefix), origin)
    for hint in plat.registered_interpreters():
        add(hint.path, hint.origin)
    for name in plat.interpreter_names():
        which = shutil.which(name, path=env.get("PATH"))
        add(Path(which) if which else None, f"'{name}' on PATH")
    return found
