"""Target Python environments: discover the candidates, inspect the chosen one.

The wizard never imports torch (or anything of the target environment) into its own process:
:func:`inspect_python` runs ``resources/probes/inspect_env.py`` with the target interpreter in
a subprocess and reads the JSON it prints.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from kernel_wizard.base.advice import prerequisite_fix
from kernel_wizard.base.errors import ProcessStartError, ProcessTimeout
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.paths import env_identity, env_key
from kernel_wizard.base.processes import EnvChange, exit_text, run_captured, show_command
from kernel_wizard.base.resources import is_frozen, resource_path
from kernel_wizard.machine.ai_apps import ScanResult, environment_app, scan_app_environments
from kernel_wizard.machine.ai_apps.venvs import broken_venv
from kernel_wizard.machine.platforms import Platform
from kernel_wizard.machine.platforms import current as current_platform

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
    UNREADABLE = "unreadable"  # it answered, but the answer is cut off or damaged
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
    # NVIDIA's communication libraries as a multi-GPU kernel's build finds them: the pip
    # package's version ("2.28.9"), else the NCCL torch was built with; None: not there
    nccl: str | None = None
    nccl_source: str = ""  # "nvidia-nccl-cu13", "torch"
    nvshmem: str | None = None
    nvshmem_source: str = ""
    # Triton as installed (read from its metadata, never imported): the version and the
    # distribution that brought it ("triton", "triton-windows", "pytorch-triton"); "": looked
    # for and not installed; None: not looked for (an older probe's answer)
    triton: str | None = None
    triton_dist: str = ""

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
            "nccl": self.nccl,
            "nvshmem": self.nvshmem,
            "triton": self.triton,
            "triton_dist": self.triton_dist,
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
    app: str = ""  # the AI program whose Python this is ("ComfyUI (portable)"); "" for others
    app_id: str = ""  # that program's id (resources/apps/<app_id>.toml); "" for others
    problem: str = ""  # why it cannot start, when known without running it (a broken venv)


class Candidates(list[Candidate]):
    """The candidates, most likely first, and what the search for AI programs could not look
    at (:attr:`limits`, one sentence each; empty when nothing was left out)."""

    limits: tuple[str, ...] = ()

    @property
    def proposed_app(self) -> Candidate | None:
        """The AI program proposed as the default: the first candidate, when it is the only AI
        program found (an active environment comes before it)."""
        apps = [c for c in self if c.app and not c.problem]
        return apps[0] if len(apps) == 1 and self and self[0] is apps[0] else None


def inspect_python(executable: Path | str, timeout: float = PROBE_TIMEOUT_S) -> PythonEnv:
    """Run the probe in ``executable``. Never raises for a bad interpreter: returns a state.

    When the probe gives no answer, a one-line question that every Python since 2.x
    understands asks the version: an old Python (Python 2.7 cannot run the probe) is named as
    such, and a Python that works is not called broken. A PyTorch whose import kills the
    interpreter is told apart by the probe's answer from before the import (its last words).
    """
    exe = env_identity(executable)  # one name however it was typed: records, locks, reports
    started = time.perf_counter()

    def failed(status: EnvStatus, summary: str, hint: str, detail: str = "",
               version: str | None = None) -> PythonEnv:
        return PythonEnv(
            executable=exe,
            status=status,
            summary=summary,
            hint=hint,
            detail=detail,
            version=version,
            seconds=time.perf_counter() - started,
        )

    not_python_hint = N_(
        "Choose the python executable of the environment you want the kernel in "
        "(for a venv: its bin/python or Scripts\\python.exe)."
    )
    if not exe.exists():
        broken = broken_venv(exe)  # a venv whose base Python was removed: its link dangles
        if broken is not None:
            return failed(EnvStatus.BROKEN, broken.summary, broken.hint)
        return failed(EnvStatus.NOT_AN_INTERPRETER, N_("There is no file at this path."),
                      not_python_hint)
    if exe.is_dir():
        return failed(
            EnvStatus.NOT_AN_INTERPRETER, N_("This is a folder, not a Python."), not_python_hint
        )
    try:
        completed = run_captured(
            [str(exe), str(resource_path("probes", "inspect_env.py"))],
            timeout_s=timeout,
            # faulthandler: a crash in an import prints the Python stack that led to it
            env_changes=[EnvChange("PYTHONIOENCODING", "utf-8"),
                         EnvChange("PYTHONFAULTHANDLER", "1")],
            unset=["PYTHONHOME"],  # a frozen wizard's own settings must not leak into the target
        )
    except ProcessTimeout:
        return failed(
            EnvStatus.BROKEN,
            msg("This Python did not answer within {seconds} seconds.",
                seconds=f"{timeout:.0f}"),
            N_("Try again; if it happens again, the environment may be damaged (a hung "
               "import)."),
        )
    except ProcessStartError as exc:
        return failed(
            EnvStatus.NOT_AN_INTERPRETER,
            msg("{name} could not be run as a program.", name=exe.name),
            not_python_hint,
            detail=exc.why,
        )
    stdout = completed.stdout
    stderr = completed.stderr
    code = completed.returncode
    tail = "\n".join((stderr or stdout).strip().splitlines()[-5:])
    facts = _extract_probe_json(stdout)
    if facts is None:
        broken = broken_venv(exe)  # Windows: the venv's launcher finds no Python at 'home'
        if broken is not None:
            return failed(EnvStatus.BROKEN, broken.summary, broken.hint,
                          detail=f"{exit_text(code)}\n{tail}")
        version = _ask_version(exe)
        if version is not None and _version_tuple(version) < MIN_PYTHON:
            return failed(EnvStatus.UNSUPPORTED_PYTHON, *_too_old(version, exe),
                          detail=f"{exit_text(code)}\n{tail}", version=version)
        if PROBE_BEGIN in stdout:
            return failed(EnvStatus.UNREADABLE, *_unreadable(exe),
                          detail=f"{exit_text(code)}; its answer was cut off or damaged:\n"
                          + _snippet(stdout[stdout.find(PROBE_BEGIN):]), version=version)
        if version is not None:
            return failed(
                EnvStatus.BROKEN,
                msg("Python {version} starts, but it failed while the wizard looked at what "
                    "is installed in it ({how}).", version=version, how=exit_text(code)),
                N_("The details show the error. Repair this environment (a damaged package "
                   "or sitecustomize usually causes this), or choose another Python."),
                detail=tail, version=version,
            )
        return failed(
            EnvStatus.BROKEN,
            N_("This program did not behave like a working Python interpreter."),
            N_("Choose another interpreter, or repair this environment (reinstall Python)."),
            detail=f"{exit_text(code)}\n{tail}",
        )
    seconds = time.perf_counter() - started
    try:
        problem = _answer_problem(facts)
        if problem is None:
            last_words = "\n".join(stderr.strip().splitlines()[:6])  # the crash, innermost first
            return _env_from_facts(exe, facts, seconds, crash=(
                code, last_words or "It printed nothing before it ended."))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        problem = f"{type(exc).__name__}: {exc}"
    return failed(EnvStatus.UNREADABLE, *_unreadable(exe), detail=f"{problem}\n"
                  + _snippet(json.dumps(facts)))


# Works on every Python since 2.x, where the probe itself may not even parse.
_VERSION_QUESTION = "import sys; sys.stdout.write('%d.%d.%d' % tuple(sys.version_info[:3]))"
_VERSION_ANSWER = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def _ask_version(exe: Path) -> str | None:
    """'2.7.18': the version of a Python that gave the probe no answer; None if it is none."""
    try:
        done = run_captured([str(exe), "-c", _VERSION_QUESTION], timeout_s=30,
                            unset=["PYTHONHOME"])
    except (ProcessTimeout, ProcessStartError):
        return None
    answer = done.stdout.strip()
    return answer if done.returncode == 0 and _VERSION_ANSWER.match(answer) else None


def _version_tuple(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in version.split(".")[:2])
    except ValueError:
        return (0, 0)


def _too_old(version: str, exe: Path) -> tuple[str, str]:
    need = f"{MIN_PYTHON[0]}.{MIN_PYTHON[1]}"
    return (msg("This is Python {version} at {python}; kernels need Python {need} or newer "
                "with PyTorch.", version=version, python=exe, need=need),
            msg("Choose another Python ({need} or newer), or create an environment with one "
                "and choose that.", need=need))


def _unreadable(exe: Path) -> tuple[str, str]:
    return (msg("The wizard could not read the answer of {python}: it ran, but what it "
                "printed is not the inspection's answer (cut off or damaged).", python=exe),
            N_("Try again. If it happens again, save a report bundle (the details show what "
               "it printed) and choose another Python meanwhile."))


def _snippet(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


_TYPES: dict[str, tuple[type, ...]] = {"python": (dict,), "pip": (dict,), "torch": (dict,),
                                       "ninja": (dict, type(None)),
                                       "dev_files": (dict, type(None))}


def _answer_problem(facts: Mapping[str, Any]) -> str | None:
    """What is wrong with the shape of a probe answer; None when it can be read."""
    for key, types in _TYPES.items():
        if not isinstance(facts.get(key), types):
            return f"'{key}' is missing or not what the probe writes"
    version = facts["python"].get("version")
    if not isinstance(version, str) or re.match(r"^\d+\.\d+", version) is None:
        return f"no Python version in it (python.version = {version!r})"
    return None


def _extract_probe_json(stdout: str) -> dict[str, Any] | None:
    """The last complete answer between the markers (a probe answers once before importing
    torch and once after); None when there is none."""
    found: dict[str, Any] | None = None
    position = 0
    while (begin := stdout.find(PROBE_BEGIN, position)) >= 0:
        end = stdout.find(PROBE_END, begin)
        if end < 0:
            break
        try:
            data = json.loads(stdout[begin + len(PROBE_BEGIN) : end])
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict):
            found = data
        position = end + len(PROBE_END)
    return found


def _platform_tag(sysconfig_platform: str) -> str:
    return sysconfig_platform.replace("-", "_").replace(".", "_")


def _env_from_facts(exe: Path, facts: dict[str, Any], seconds: float,
                    crash: tuple[int, str] | None = None) -> PythonEnv:
    """The environment a probe answer describes. ``crash``: how the probe ended and its last
    lines, for an answer from before ``import torch`` (the import ended the process). Raises
    TypeError/ValueError for values of the wrong kind (the caller says: unreadable)."""
    py = facts.get("python", {})
    pip = facts.get("pip", {})
    torch_facts = facts.get("torch", {})
    version = _text(py, "version") or "?"
    bits = int(py.get("bits") or 0) or None
    prefix = Path(_text(py, "prefix") or "") if py.get("prefix") else None
    base: dict[str, Any] = dict(
        executable=exe,
        version=version,
        bits=bits,
        platform_tag=_platform_tag(str(py.get("platform", ""))),
        interpreter_tag=_text(py, "interpreter_tag"),
        prefix=prefix,
        is_venv=bool(py.get("prefix") and py.get("prefix") != py.get("base_prefix")),
        is_conda=bool(py.get("is_conda")),
        pip_version=_text(pip, "version") if pip.get("present") else None,
        ninja=_text(facts.get("ninja") or {}, "executable"),
        dev_files=_dev_files(facts.get("dev_files") or {}),
        implementation=_text(py, "implementation"),
        seconds=seconds,
        raw=facts,
        **_libraries(facts.get("libraries"), torch_facts),
    )
    torch: TorchInfo | None = None
    if torch_facts.get("present") and "version" in torch_facts:
        arch_list = torch_facts.get("arch_list") or []
        if not isinstance(arch_list, list) or not all(isinstance(a, str) for a in arch_list):
            raise TypeError(f"torch.arch_list is {arch_list!r}, not a list of names")
        torch = TorchInfo(
            version=str(torch_facts["version"]),
            cuda=_text(torch_facts, "cuda"),
            cuda_available=bool(torch_facts.get("cuda_available")),
            device_count=int(torch_facts.get("device_count") or 0),
            arch_list=tuple(arch_list),
            cxx11_abi=bool(torch_facts.get("cxx11_abi")),
        )
    status, summary, hint, detail = _verdict(exe, version, bits, pip, torch_facts, torch, crash)
    return PythonEnv(status=status, summary=summary, hint=hint, detail=detail, torch=torch, **base)


def _libraries(libraries: object, torch_facts: Mapping[str, Any]) -> dict[str, Any]:
    """PythonEnv's nccl/nvshmem/triton fields from the probe's answer (malformed parts are
    ignored)."""
    found: dict[str, Any] = {}
    libs = libraries if isinstance(libraries, dict) else {}
    for lib in ("nccl", "nvshmem"):
        entry = libs.get(lib)
        if isinstance(entry, dict) and isinstance(entry.get("version"), str):
            found[lib] = entry["version"]
            found[f"{lib}_source"] = str(entry.get("dist") or "")
    triton = libs.get("triton")
    if isinstance(triton, dict) and isinstance(triton.get("version"), str):
        found["triton"], found["triton_dist"] = triton["version"], str(triton.get("dist") or "")
    elif "triton" in libs and triton is None:  # looked for, not there ("": missing)
        found["triton"] = ""
    torch_nccl = torch_facts.get("nccl")
    if "nccl" not in found and isinstance(torch_nccl, str) and torch_nccl:
        found["nccl"], found["nccl_source"] = torch_nccl, "torch"
    return found


def _text(facts: Mapping[str, Any], key: str) -> str | None:
    """A text field of the probe's answer (None when absent); TypeError for anything else."""
    value = facts.get(key)
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"{key} is {value!r}, not text")


def reinstall_torch_command(exe: Path, dist_version: str | None) -> str:
    """The pip command that puts the same PyTorch back: the same version, from PyTorch's own
    index for a ``+cu130``/``+cpu`` build."""
    args = [str(exe), "-m", "pip", "install", "--force-reinstall"]
    public, _, local = (dist_version or "").partition("+")
    args.append(f"torch=={public}" if public else "torch")
    if re.fullmatch(r"cu\d+|cpu|rocm[\d.]+", local):
        args += ["--index-url", f"https://download.pytorch.org/whl/{local}"]
    return show_command(args)


def _verdict(
    exe: Path,
    version: str,
    bits: int | None,
    pip: Mapping[str, Any],
    torch_facts: Mapping[str, Any],
    torch: TorchInfo | None,
    crash: tuple[int, str] | None = None,
) -> tuple[EnvStatus, str, str, str]:
    version_tuple = _version_tuple(version)
    if bits is not None and bits != 64:
        return (
            EnvStatus.BITS32,
            msg("This is a {bits}-bit Python {version}; CUDA kernels need a 64-bit Python.",
                bits=bits, version=version),
            N_("Install 64-bit Python (python.org: 'Windows installer (64-bit)') and choose "
               "it."),
            "",
        )
    if version_tuple < MIN_PYTHON:
        return (EnvStatus.UNSUPPORTED_PYTHON, *_too_old(version, exe), "")
    if not pip.get("present"):
        return (
            EnvStatus.NO_PIP,
            msg("Python {version} has no pip, so nothing can be installed into it.",
                version=version),
            N_("Run 'python -m ensurepip --upgrade' with this interpreter, or choose another."),
            "",
        )
    if not torch_facts.get("present"):
        return (
            EnvStatus.NO_TORCH,
            msg("Python {version} without PyTorch.", version=version),
            msg("Install the PyTorch build that fits this computer into it: {where}.",
                where=prerequisite_fix("python-env")),
            "",
        )
    if torch_facts.get("importing"):  # the answer from before "import torch" was its last
        code, last_words = crash if crash is not None else (0, "")
        dist = torch_facts.get("dist_version")
        name = f"PyTorch {dist}" if isinstance(dist, str) and dist else "PyTorch"
        return (
            EnvStatus.TORCH_BROKEN,
            msg("Python {version} works, but importing {name} crashes it ({how}).",
                version=version, name=name, how=exit_text(code)),
            msg("Reinstall PyTorch in that environment: {command} (or choose another "
                "environment).",
                command=reinstall_torch_command(exe, dist if isinstance(dist, str) else None)),
            last_words,
        )
    if torch is None:
        error = str(torch_facts.get("import_error", "unknown error"))
        return (
            EnvStatus.TORCH_BROKEN,
            N_("PyTorch is installed here but fails to import."),
            N_("Reinstall PyTorch in this environment (pip install --force-reinstall torch), or "
               "choose another environment."),
            error,
        )
    if torch.cuda is None:
        return (
            EnvStatus.CPU_TORCH,
            msg("Python {version} with PyTorch {torch}, a CPU-only build: only the CPU probe "
                "kernel can be built here.", version=version, torch=torch.version),
            msg("For GPU kernels on a computer with an NVIDIA GPU, install a CUDA build of "
                "PyTorch: {where}.", where=prerequisite_fix("python-env")),
            "",
        )
    if not torch.cuda_available:
        return (
            EnvStatus.CUDA_TORCH_NO_GPU,
            msg("Python {version} with PyTorch {torch} (CUDA {cuda}), but PyTorch cannot use "
                "the GPU right now.", version=version, torch=torch.version, cuda=torch.cuda),
            msg("Kernels can still be built; to verify them on the GPU, check the NVIDIA driver "
                "(see the GPU table) and that the driver supports CUDA {cuda}.",
                cuda=str(torch.cuda)),
            str(torch_facts.get("cuda_error", "")),
        )
    return (
        EnvStatus.READY,
        msg("Python {version} with PyTorch {torch} (CUDA {cuda}, 1 GPU usable).",
            version=version, torch=torch.version, cuda=torch.cuda)
        if torch.device_count == 1 else
        msg("Python {version} with PyTorch {torch} (CUDA {cuda}, {count} GPUs usable).",
            version=version, torch=torch.version, cuda=torch.cuda, count=torch.device_count),
        "",
        "",
    )


def _key(path: Path) -> str:
    """One key per environment: ``bin/python`` and ``bin/python3`` of one venv (or conda env)
    are one candidate. Not a plain resolve(): a venv's python is a link to the base
    interpreter, yet another environment, so a venv is known by its folder."""
    ident = env_identity(path)
    root = ident.parent.parent if ident.parent.name in ("bin", "Scripts") else ident.parent
    if (root / "pyvenv.cfg").is_file():
        return "venv:" + os.path.normcase(str(root))
    try:
        return os.path.normcase(os.path.realpath(ident))
    except (OSError, ValueError):
        return env_key(path)


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
    apps: ScanResult | None = None,
) -> Candidates:
    """Interpreters the user may want to install into, most likely first, without duplicates:
    the active venv/conda env, the Python running this wizard (not in the bundled .exe), the AI
    programs' environments (:mod:`machine.ai_apps`), conda envs, the py launcher's list,
    then what is on PATH. The first one is the default target of the command line; when
    exactly one AI program was found (and no environment is active), that program's Python
    comes first, before the wizard's own: it is proposed, never installed into unasked.
    ``apps``: the AI programs' search, when already done.

    Only existing files are returned; they are not inspected here (that runs each one).
    """
    plat = platform if platform is not None else current_platform()
    env = environ if environ is not None else os.environ
    home_dir = home if home is not None else Path.home()
    found = Candidates()
    seen: set[str] = set()

    def add(path: Path | None, origin: str) -> None:
        if path is None or not path.is_file():
            return
        key = _key(path)
        if key not in seen:
            seen.add(key)
            found.append(Candidate(path, origin))

    def add_active(prefix: Path, origin: str) -> None:
        # an active env that is an AI program's (its packages say so: ai_apps.markers) is
        # listed as that program
        app_env = environment_app(prefix, plat, origin)
        if app_env is None or not app_env.python.is_file() or _key(app_env.python) in seen:
            add(plat.python_in_prefix(prefix), origin)
            return
        seen.add(_key(app_env.python))
        found.append(Candidate(app_env.python, origin, app_env.app, app_env.app_id))

    if env.get("VIRTUAL_ENV"):
        add_active(Path(env["VIRTUAL_ENV"]), "active virtual environment")
    if env.get("CONDA_PREFIX"):
        name = env.get("CONDA_DEFAULT_ENV") or Path(env["CONDA_PREFIX"]).name
        add_active(Path(env["CONDA_PREFIX"]), f"active conda env '{name}'")
    if launched_from is None and not is_frozen():
        launched_from = Path(sys.executable)
    active = len(found)
    if launched_from is not None:
        add(launched_from, "the Python running this wizard")
    scan = apps if apps is not None else scan_app_environments(plat, env, home_dir)
    found.limits = tuple(scan.limits)
    programs: list[Candidate] = []
    for app_env in scan.environments:
        if _key(app_env.python) not in seen:
            seen.add(_key(app_env.python))
            programs.append(Candidate(app_env.python, app_env.origin, app_env.app,
                                      app_env.app_id, app_env.problem))
    usable = [c for c in programs if not c.problem]
    if len(usable) == 1 and active == 0:  # the one AI program found: proposed first
        found.insert(0, usable[0])
        found.extend(c for c in programs if c is not usable[0])
    else:
        found.extend(programs)
    for prefix, origin in _conda_env_prefixes(env, home_dir):
        add(plat.python_in_prefix(prefix), origin)
    for hint in plat.registered_interpreters():
        add(hint.path, hint.origin)
    for name in plat.interpreter_names():
        which = shutil.which(name, path=env.get("PATH"))
        add(Path(which) if which else None, f"'{name}' on PATH")
    return found
