"""The kernel catalog: recipes as data, and whether a kernel version fits this machine.

Every ``resources/recipes/*.toml`` file is one kernel library. :func:`load_catalog` reads and
validates them all when the wizard starts; a broken recipe never crashes it: it is left out and
reported as a :class:`RecipeProblem` that names the file and the field
(``flash_attn.toml: versions[3].tag: missing``), and the other recipes still load.

:func:`assess` answers "does this kernel version fit here?" for a :class:`Machine` (the hardware
report, the target Python, the OS, the chosen CUDA toolkit and the selected GPUs) with a
:class:`Verdict` that lists *every* reason in plain words, and warnings that don't block.
:func:`arch_list`, :func:`select_targets`, :func:`recommended_version` and
:func:`estimate_build` are the other questions the Kernel page and the build plan ask.

Recipe format (schema 1)
========================

Top level::

    schema = 1
    id = "flash_attn"                 # slug: a-z, 0-9, _ ; unique in the catalog
    name, description                 # shown to people; description is one line
    homepage, license                 # homepage optional for local sources
    package, import_name              # the distribution and the module it installs
    verify_adapter = "flash_attn"     # which resources/verify adapter checks the result
    arch_knob = "torch_cuda_arch_list" | "flash_attn_cuda_archs" | "flashmla_disable_flags" | "none"

``[source]``: ``kind = "git"`` with ``url`` (and optional ``submodules``, ``submodule_commits``,
``submodule_markers``: table path → a file, relative to the submodule, that a populated checkout
has, e.g. ``"csrc/cutlass" = "include/cutlass/cutlass.h"``) or ``kind = "local"`` with ``path``
(relative to ``resources/``).

``[requirements]``: ``os`` (list of "linux", "windows"), ``min_cc`` / ``max_cc`` /
``supported_cc`` (compute capabilities as strings, "8.0"), ``gpu_text`` (how to name the GPUs it
needs), ``min_cuda``, ``min_cuda_per_arch`` (table cc → CUDA version), ``min_torch``,
``min_python``, ``max_python``, ``min_gpus``, ``gpu_counts`` (allowed GPU counts), ``nvlink``,
``cpu_fallback`` (true: without a usable GPU/CUDA it still builds a CPU part), ``os_warnings``
(table os → text), ``unchecked`` (requirements the wizard can't check, shown as warnings) and
``[[requirements.blocked]]`` (``os``, ``archs``, ``label``, ``reason``, ``alternative =
"wsl2"``): builds that can't work natively on that OS.

``[[targets]]``: what the library can compile and which GPUs can run it: ``arch`` (the value
handed to the arch knob, "8.0"), ``name`` ("sm_80"), ``runs_on`` (list of cc), ``min_cuda``,
``disable_env`` (for ``flashmla_disable_flags``). No targets: each GPU's own arch is built
(``torch_cuda_arch_list``).

``[build]``: ``memory_gb_per_thread`` (peak RAM of one compile thread), ``nvcc_threads_knob``
(whether NVCC_THREADS is read), ``nvcc_threads_default``, ``max_nvcc_threads`` (the most the
build plan uses), ``translation_units_per_arch``, ``core_seconds_per_unit`` (CPU-core-seconds to
compile one unit for one arch), ``host_core_seconds`` (arch-independent compile work),
``fixed_seconds`` (work that doesn't run in parallel: setup, link, packing) and
``windows_factor``. See :func:`estimate_build`.

``[env]``: variables always set for a source build. ``[[knobs]]``: ``name``, ``default``,
``meaning`` (documentation of the library's build switches).

``[[patches]]``: declarative source patches (applied by :mod:`build_backend.patches`): ``id``,
``file``, ``kind = "literal" | "regex"``, ``pattern``, ``replacement``, ``expected_count``,
``why`` and ``when = { os = [...], min_cuda = "...", max_cuda = "...", versions = [...] }``.

``[[wheel_sources]]``: prebuilt wheels (see :mod:`build_backend.wheels`): ``id``, ``kind =
"official" | "community"``, ``name``, ``homepage``, ``os``, ``url`` (a template: ``{tag}``,
``{filename}`` or ``{asset}``), ``filename`` (official: a template with ``{version}``,
``{cuda}``, ``{torch}``, ``{cxx11abi}``, ``{python}``, ``{platform}``), ``cuda_match = "major" |
"major_minor"``, ``assets`` (community: "release/filename" entries) and ``note``.

``[[versions]]`` (oldest first): ``tag`` and/or ``commit`` (git), ``label``, ``version`` (PEP 440,
default: the tag without its "v"), ``released``, ``recommended`` (list of OS), ``notes``, and
overrides of the recipe's defaults: ``min_python``, ``max_python``, ``min_torch``, ``min_cuda``,
``arch_knob``, ``targets`` (list of target archs this version can build),
``nvcc_threads_default``, ``nvcc_threads_knob``, ``max_jobs_auto``,
``translation_units_per_arch``, ``wheel_cuda`` (table: PyTorch's CUDA major → the "cu" part of
the official wheel name) and ``official_wheels = { python, torch, platforms }`` (what upstream's
release build matrix covered).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from .build import ArchKnob, arch_env, choose_parallelism
from .environment import EnvStatus, PythonEnv, TorchInfo
from .errors import RecipeError
from .hardware import GpuInfo, HardwareReport, NvmlState, arch_name
from .resources import resource_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the tomli backport, a declared dependency there
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

SCHEMA_VERSION = 1
GIB = 1024**3

CC = tuple[int, int]  # compute capability (major, minor)
Ver = tuple[int, ...]  # a dotted version: (12, 8), (3, 10), (2, 10)
E = TypeVar("E", bound=Enum)


# =============================================================================================
# Recipes
# =============================================================================================


class OsName(Enum):
    LINUX = "linux"
    WINDOWS = "windows"
    MACOS = "macos"

    @property
    def label(self) -> str:
        return {"linux": "Linux", "windows": "Windows", "macos": "macOS"}[self.value]

    @classmethod
    def parse(cls, text: str) -> OsName | None:
        """'Windows 11', 'win32', 'Linux 6.18.4', 'linux' → the OS; None when unknown."""
        low = text.strip().lower()
        if low.startswith(("win", "cygwin", "msys")):
            return cls.WINDOWS
        if low.startswith("linux"):
            return cls.LINUX
        if low.startswith(("darwin", "mac")):
            return cls.MACOS
        return None


class SourceKind(Enum):
    GIT = "git"
    LOCAL = "local"


class PatchKind(Enum):
    LITERAL = "literal"
    REGEX = "regex"


class WheelSourceKind(Enum):
    OFFICIAL = "official"
    COMMUNITY = "community"


class CudaMatch(Enum):
    """How a wheel's CUDA tag is compared with PyTorch's CUDA version."""

    MAJOR = "major"  # cu12 (or upstream's binned cu122/cu123): any PyTorch built for CUDA 12
    MAJOR_MINOR = "major_minor"  # cu128: PyTorch built for CUDA 12.8


@dataclass(frozen=True)
class RecipeProblem:
    """One thing wrong with one recipe file."""

    file: str  # "flash_attn.toml"
    field: str  # "versions[3].tag"; "" for the whole file
    message: str  # "missing"
    path: Path | None = None

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}" if self.field else (
            f"{self.file}: {self.message}"
        )


@dataclass(frozen=True)
class Source:
    kind: SourceKind
    url: str | None = None  # git
    path: str | None = None  # local, relative to resources/
    submodules: tuple[str, ...] = ()
    submodule_commits: Mapping[str, str] = field(default_factory=dict)
    # submodule path → a file (relative to it) that proves the folder is populated
    submodule_markers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class BlockedBuild:
    """A build that can't work natively on one OS for some archs (and what to use instead)."""

    os: OsName
    archs: tuple[CC, ...]
    label: str  # "Hopper (SM90)"
    reason: str
    alternative: str | None = None  # "wsl2"


@dataclass(frozen=True)
class Requirements:
    os: tuple[OsName, ...]
    min_cc: CC | None = None
    max_cc: CC | None = None
    supported_cc: tuple[CC, ...] = ()  # when given: exactly these
    gpu_text: str = ""
    min_cuda: Ver | None = None
    min_cuda_per_arch: Mapping[CC, Ver] = field(default_factory=dict)
    min_torch: Ver | None = None
    min_python: Ver | None = None
    max_python: Ver | None = None
    min_gpus: int = 1
    gpu_counts: tuple[int, ...] = ()  # when given: exactly one of these counts
    nvlink: bool = False
    cpu_fallback: bool = False
    blocked: tuple[BlockedBuild, ...] = ()
    os_warnings: Mapping[OsName, str] = field(default_factory=dict)
    unchecked: tuple[str, ...] = ()

    def cc_ok(self, cc: CC) -> bool:
        if self.supported_cc and cc not in self.supported_cc:
            return False
        if self.min_cc is not None and cc < self.min_cc:
            return False
        return self.max_cc is None or cc <= self.max_cc

    def describe_gpus(self) -> str:
        if self.gpu_text:
            return self.gpu_text
        if self.supported_cc:
            return "a GPU with compute capability " + _or(cc_text(c) for c in self.supported_cc)
        if self.min_cc is not None:
            return f"{arch_name(self.min_cc)} (cc {cc_text(self.min_cc)}) or newer"
        return "an NVIDIA GPU"


@dataclass(frozen=True)
class Target:
    """Code a library can compile for one arch, and the GPUs that can run it."""

    arch: str  # the value handed to the arch knob: "8.0"
    name: str  # "sm_80"
    runs_on: tuple[CC, ...]
    min_cuda: Ver | None = None
    disable_env: str | None = None

    @property
    def cc(self) -> CC:
        return parse_cc(self.arch)

    def serves(self, cc: CC) -> bool:
        return cc in self.runs_on


@dataclass(frozen=True)
class BuildCosts:
    memory_gb_per_thread: float
    nvcc_threads_knob: bool = False
    nvcc_threads_default: int = 1
    max_nvcc_threads: int = 1
    translation_units_per_arch: int = 1
    core_seconds_per_unit: float = 60.0
    host_core_seconds: float = 0.0
    fixed_seconds: float = 30.0
    windows_factor: float = 1.5


@dataclass(frozen=True)
class Knob:
    name: str
    meaning: str
    default: str | None = None


@dataclass(frozen=True)
class PatchCondition:
    os: tuple[OsName, ...] = ()  # empty: any OS
    min_cuda: Ver | None = None
    max_cuda: Ver | None = None
    versions: tuple[str, ...] = ()  # tags or labels; empty: every version

    def applies(self, os: OsName, cuda: Ver | None, version: RecipeVersion) -> bool:
        if self.os and os not in self.os:
            return False
        names = {version.tag, version.label, version.commit}
        if self.versions and not names & set(self.versions):
            return False
        if self.min_cuda is not None and (cuda is None or cuda < self.min_cuda):
            return False
        return self.max_cuda is None or (cuda is not None and cuda[:2] <= self.max_cuda)


@dataclass(frozen=True)
class Patch:
    id: str
    file: str  # relative to the source root, "/" separated
    kind: PatchKind
    pattern: str
    replacement: str
    expected_count: int
    why: str = ""
    when: PatchCondition = PatchCondition()


@dataclass(frozen=True)
class WheelSource:
    id: str
    kind: WheelSourceKind
    name: str
    url: str  # template
    os: tuple[OsName, ...]
    homepage: str = ""
    filename: str | None = None  # official: a template
    cuda_match: CudaMatch = CudaMatch.MAJOR_MINOR
    assets: tuple[str, ...] = ()  # community: "release/filename"
    note: str = ""


@dataclass(frozen=True)
class OfficialWheels:
    """What upstream's release build matrix covered for one version."""

    python: tuple[Ver, ...] = ()
    torch: tuple[Ver, ...] = ()
    platforms: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecipeVersion:
    label: str
    version: str  # PEP 440 text used in wheel names: "2.8.3.post1"
    tag: str | None = None
    commit: str | None = None
    released: str | None = None
    recommended: tuple[OsName, ...] = ()
    notes: str = ""
    min_python: Ver | None = None
    max_python: Ver | None = None
    min_torch: Ver | None = None
    min_cuda: Ver | None = None
    arch_knob: ArchKnob | None = None
    targets: tuple[str, ...] | None = None
    nvcc_threads_default: int | None = None
    nvcc_threads_knob: bool | None = None
    max_jobs_auto: bool | None = None
    translation_units_per_arch: int | None = None
    wheel_cuda: Mapping[int, str] = field(default_factory=dict)
    official_wheels: OfficialWheels | None = None

    @property
    def ref(self) -> str:
        """What the source step checks out: the tag, else the commit, else the label."""
        return self.tag or self.commit or self.label


@dataclass(frozen=True)
class Recipe:
    id: str
    name: str
    description: str
    license: str
    package: str
    import_name: str
    verify_adapter: str
    arch_knob: ArchKnob
    source: Source
    requirements: Requirements
    build: BuildCosts
    versions: tuple[RecipeVersion, ...]
    homepage: str = ""
    targets: tuple[Target, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    knobs: tuple[Knob, ...] = ()
    patches: tuple[Patch, ...] = ()
    wheel_sources: tuple[WheelSource, ...] = ()
    file: Path | None = None

    def version(self, key: str) -> RecipeVersion:
        """The version with this label, tag or commit (a leading 'v' is optional)."""
        for v in self.versions:
            if key in (v.label, v.tag, v.commit, v.version) or (v.tag and v.tag == f"v{key}"):
                return v
        raise RecipeError(
            f"{self.name} has no version '{key}'.",
            why="Known versions: " + ", ".join(v.label for v in self.versions),
            hint="Choose one of the listed versions.",
        )

    @property
    def newest(self) -> RecipeVersion:
        return self.versions[-1]

    def knob_for(self, version: RecipeVersion) -> ArchKnob:
        return version.arch_knob if version.arch_knob is not None else self.arch_knob

    def targets_for(self, version: RecipeVersion) -> tuple[Target, ...]:
        if version.targets is None:
            return self.targets
        return tuple(t for t in self.targets if t.arch in version.targets)

    def requirements_for(self, version: RecipeVersion) -> Requirements:
        """The recipe's requirements with this version's overrides applied."""
        req = self.requirements
        changes: dict[str, Any] = {}
        for name in ("min_python", "max_python", "min_torch", "min_cuda"):
            value = getattr(version, name)
            if value is not None:
                changes[name] = value
        return replace(req, **changes) if changes else req

    def nvcc_threads(self, version: RecipeVersion) -> tuple[int, bool]:
        """(upstream's default NVCC_THREADS, whether the variable is read) for a version."""
        default = version.nvcc_threads_default
        knob = version.nvcc_threads_knob
        return (
            default if default is not None else self.build.nvcc_threads_default,
            knob if knob is not None else self.build.nvcc_threads_knob,
        )

    def translation_units(self, version: RecipeVersion) -> int:
        units = version.translation_units_per_arch
        return units if units is not None else self.build.translation_units_per_arch

    def patches_for(
        self, version: RecipeVersion, os: OsName, cuda: Ver | None
    ) -> tuple[Patch, ...]:
        return tuple(p for p in self.patches if p.when.applies(os, cuda, version))

    def recommended_for(self, os: OsName) -> RecipeVersion | None:
        marked = [v for v in self.versions if os in v.recommended]
        return marked[-1] if marked else None


@dataclass(frozen=True)
class Catalog:
    recipes: tuple[Recipe, ...]
    problems: tuple[RecipeProblem, ...]
    folder: Path | None = None

    def __iter__(self) -> Iterator[Recipe]:
        return iter(self.recipes)

    def __len__(self) -> int:
        return len(self.recipes)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.recipes)

    def get(self, recipe_id: str) -> Recipe:
        for recipe in self.recipes:
            if recipe.id == recipe_id:
                return recipe
        broken = [p for p in self.problems if p.file == f"{recipe_id}.toml"]
        raise RecipeError(
            f"There is no kernel '{recipe_id}' in the catalog.",
            why=(f"Its recipe is broken: {broken[0]}" if broken else
                 "Known kernels: " + ", ".join(self.ids)),
            hint="Choose one of the listed kernels."
            if not broken else "Reinstall the wizard, or fix the recipe if you edited it.",
        )


# =============================================================================================
# Small parsers and formatters
# =============================================================================================

_CC_RE = re.compile(r"^(\d{1,2})\.(\d)$")
_VER_RE = re.compile(r"^\d+(\.\d+){0,3}$")
_SLUG_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")


def parse_cc(text: str) -> CC:
    """'8.6' → (8, 6); ValueError for anything else."""
    m = _CC_RE.match(text.strip())
    if m is None:
        raise ValueError(f"not a compute capability like \"8.0\": {text!r}")
    return int(m.group(1)), int(m.group(2))


def parse_version(text: str) -> Ver:
    """'12.8' → (12, 8); '2.10.0' → (2, 10, 0); ValueError for anything else."""
    core = text.strip().split("+")[0]
    if not _VER_RE.match(core):
        raise ValueError(f"not a version like \"12.8\": {text!r}")
    return tuple(int(p) for p in core.split("."))


def cc_text(cc: CC) -> str:
    return f"{cc[0]}.{cc[1]}"


def ver_text(v: Ver) -> str:
    return ".".join(str(p) for p in v)


def _or(items: Iterable[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    seq = list(items)
    if len(seq) <= 1:
        return "".join(seq)
    return ", ".join(seq[:-1]) + " or " + seq[-1]


def _and(items: Iterable[str]) -> str:
    seq = list(items)
    if len(seq) <= 1:
        return "".join(seq)
    return ", ".join(seq[:-1]) + " and " + seq[-1]


# =============================================================================================
# Loading and validation
# =============================================================================================

_TYPE_NAMES: dict[type, str] = {
    str: "a string",
    bool: "true or false",
    int: "an integer",
    float: "a number",
    list: "a list",
    dict: "a table",
}


def _type_name(value: object) -> str:
    for kind, name in _TYPE_NAMES.items():
        if type(value) is kind:
            return name
    return type(value).__name__


class _Fields:
    """Typed access to one TOML table; every problem is recorded with its field path."""

    def __init__(
        self,
        problems: list[RecipeProblem],
        file: Path,
        data: Mapping[str, Any],
        where: str,
        allowed: Iterable[str],
    ) -> None:
        self.problems = problems
        self.file = file
        self.data = data
        self.where = where
        allowed_set = set(allowed)
        for key in data:
            if key not in allowed_set:
                self.problem(key, "unknown field (a typo?)")

    def path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def problem(self, key: str, message: str) -> None:
        self.problems.append(RecipeProblem(self.file.name, self.path(key), message, self.file))

    def _get(self, key: str, kind: type | tuple[type, ...], required: bool) -> Any:
        if key not in self.data:
            if required:
                self.problem(key, "missing")
            return None
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = any(
            type(value) is k or (k is float and type(value) is int) for k in kinds
        )
        if not ok:
            wanted = _or(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
            self.problem(key, f"expected {wanted}, got {_type_name(value)} ({value!r})")
            return None
        return value

    def text(self, key: str, default: str = "", *, required: bool = True) -> str:
        value = self._get(key, str, required)
        if value is None:
            return default
        if required and not value.strip():
            self.problem(key, "empty")
        return str(value)

    def opt_text(self, key: str) -> str | None:
        value = self._get(key, str, False)
        return str(value) if value is not None else None

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._get(key, bool, False)
        return bool(value) if value is not None else default

    def opt_flag(self, key: str) -> bool | None:
        value = self._get(key, bool, False)
        return bool(value) if value is not None else None

    def integer(self, key: str, default: int, *, minimum: int = 0) -> int:
        value = self._get(key, int, False)
        if value is None:
            return default
        if value < minimum:
            self.problem(key, f"must be {minimum} or more, got {value}")
            return default
        return int(value)

    def opt_integer(self, key: str, *, minimum: int = 0) -> int | None:
        if key not in self.data:
            return None
        return self.integer(key, minimum, minimum=minimum)

    def number(self, key: str, default: float, *, positive: bool = False) -> float:
        value = self._get(key, float, False)
        if value is None:
            return default
        if value < 0 or (positive and value <= 0):
            self.problem(key, f"must be {'more than' if positive else 'at least'} 0, got {value}")
            return default
        return float(value)

    def convert(self, key: str, parse: Callable[[str], Any], *, required: bool = False) -> Any:
        value = self._get(key, str, required)
        if value is None:
            return None
        try:
            return parse(value)
        except ValueError as exc:
            self.problem(key, str(exc))
            return None

    def texts(self, key: str) -> tuple[str, ...]:
        value = self._get(key, list, False)
        if value is None:
            return ()
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str):
                self.problem(f"{key}[{i}]", f"expected a string, got {_type_name(item)}")
            else:
                out.append(item)
        return tuple(out)

    def converted_list(self, key: str, parse: Callable[[str], Any]) -> tuple[Any, ...]:
        out: list[Any] = []
        value = self._get(key, list, False)
        for i, item in enumerate(value or ()):
            if not isinstance(item, str):
                self.problem(f"{key}[{i}]", f"expected a string, got {_type_name(item)}")
                continue
            try:
                out.append(parse(item))
            except ValueError as exc:
                self.problem(f"{key}[{i}]", str(exc))
        return tuple(out)

    def enum(
        self, key: str, kind: type[E], *, required: bool = True, what: str = "value"
    ) -> E | None:
        value = self._get(key, str, required)
        if value is None:
            return None
        try:
            return kind(value)
        except ValueError:
            known = ", ".join(f'"{m.value}"' for m in kind)
            self.problem(key, f"unknown {what} {value!r} (known: {known})")
            return None

    def enums(self, key: str, kind: type[E], *, what: str = "value") -> tuple[E, ...]:
        out: list[E] = []
        value = self._get(key, list, False)
        for i, item in enumerate(value or ()):
            try:
                out.append(kind(item))
            except ValueError:
                known = ", ".join(f'"{m.value}"' for m in kind)
                self.problem(f"{key}[{i}]", f"unknown {what} {item!r} (known: {known})")
        return tuple(out)

    def table(self, key: str, allowed: Iterable[str], *, required: bool = False) -> _Fields | None:
        value = self._get(key, dict, required)
        if value is None:
            return None
        return _Fields(self.problems, self.file, value, self.path(key), allowed)

    def free_table(self, key: str) -> Mapping[str, Any]:
        """A table whose keys are data (env names, cc values), not field names."""
        value = self._get(key, dict, False)
        return value if value is not None else {}

    def tables(self, key: str, allowed: Iterable[str], *, required: bool = False) -> list[_Fields]:
        value = self._get(key, list, required)
        if value is None:
            return []
        if required and not value:
            self.problem(key, "empty: at least one entry is needed")
        out: list[_Fields] = []
        allowed_list = list(allowed)
        for i, item in enumerate(value):
            where = f"{key}[{i}]"
            if not isinstance(item, dict):
                self.problem(where, f"expected a table, got {_type_name(item)}")
                continue
            out.append(_Fields(self.problems, self.file, item, self.path(where), allowed_list))
        return out


_TOP = {
    "schema", "id", "name", "description", "homepage", "license", "package", "import_name",
    "verify_adapter", "arch_knob", "source", "requirements", "targets", "build", "env", "knobs",
    "patches", "wheel_sources", "versions",
}
_SOURCE = {"kind", "url", "path", "submodules", "submodule_commits", "submodule_markers"}
_REQ = {
    "os", "min_cc", "max_cc", "supported_cc", "gpu_text", "min_cuda", "min_cuda_per_arch",
    "min_torch", "min_python", "max_python", "min_gpus", "gpu_counts", "nvlink", "cpu_fallback",
    "blocked", "os_warnings", "unchecked",
}
_BLOCKED = {"os", "archs", "label", "reason", "alternative"}
_TARGET = {"arch", "name", "runs_on", "min_cuda", "disable_env"}
_BUILD = {
    "memory_gb_per_thread", "nvcc_threads_knob", "nvcc_threads_default", "max_nvcc_threads",
    "translation_units_per_arch", "core_seconds_per_unit", "host_core_seconds", "fixed_seconds",
    "windows_factor",
}
_KNOB = {"name", "default", "meaning"}
_PATCH = {"id", "file", "kind", "pattern", "replacement", "expected_count", "why", "when"}
_WHEN = {"os", "min_cuda", "max_cuda", "versions"}
_WHEEL = {
    "id", "kind", "name", "homepage", "os", "url", "filename", "cuda_match", "assets", "note",
}
_VERSION = {
    "tag", "commit", "label", "version", "released", "recommended", "notes", "min_python",
    "max_python", "min_torch", "min_cuda", "arch_knob", "targets", "nvcc_threads_default",
    "nvcc_threads_knob", "max_jobs_auto", "translation_units_per_arch", "wheel_cuda",
    "official_wheels",
}
_OFFICIAL = {"python", "torch", "platforms"}
_ALTERNATIVES = {"wsl2"}
_ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def load_catalog(folder: Path | None = None) -> Catalog:
    """Every recipe in ``folder`` (default: the shipped ``resources/recipes``), validated.

    Never raises for a broken recipe: it is left out and reported in ``Catalog.problems``.
    """
    root = folder if folder is not None else resource_path("recipes")
    recipes: list[Recipe] = []
    problems: list[RecipeProblem] = []
    seen: dict[str, str] = {}
    for path in sorted(root.glob("*.toml")):
        recipe, found = load_recipe(path)
        if recipe is not None and recipe.id in seen:
            found = [RecipeProblem(path.name, "id",
                                   f"'{recipe.id}' is already used by {seen[recipe.id]}", path)]
            recipe = None
        problems += found
        if recipe is not None:
            seen[recipe.id] = path.name
            recipes.append(recipe)
    return Catalog(recipes=tuple(recipes), problems=tuple(problems), folder=root)


def load_recipe(path: Path) -> tuple[Recipe | None, list[RecipeProblem]]:
    """One recipe file: (the recipe, []) or (None, every problem found in it)."""
    problems: list[RecipeProblem] = []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        return None, [RecipeProblem(path.name, "", f"can't be read ({exc})", path)]
    except UnicodeDecodeError as exc:
        return None, [RecipeProblem(path.name, "", f"is not UTF-8 text ({exc})", path)]
    except tomllib.TOMLDecodeError as exc:
        return None, [RecipeProblem(path.name, "", f"not valid TOML: {exc}", path)]
    top = _Fields(problems, path, data, "", _TOP)
    schema = top._get("schema", int, True)
    if schema is not None and schema != SCHEMA_VERSION:
        top.problem("schema", f"is {schema}; this wizard reads schema {SCHEMA_VERSION}")
    recipe = _recipe(top, path)
    return (None if problems else recipe), problems


def _recipe(top: _Fields, path: Path) -> Recipe:
    rid = top.text("id")
    if rid and not _SLUG_RE.match(rid):
        top.problem("id", f"{rid!r} is not a slug (lower-case letters, digits, _)")
    knob = top.enum("arch_knob", ArchKnob, what="arch knob") or ArchKnob.NONE
    source = _source(top)
    targets = tuple(_target(t) for t in top.tables("targets", _TARGET))
    _check_targets(top, targets)
    versions = tuple(_version(v, source) for v in top.tables("versions", _VERSION, required=True))
    _check_versions(top, versions)
    req_fields = top.table("requirements", _REQ, required=True)
    requirements = _requirements(req_fields) if req_fields else Requirements(os=())
    build_fields = top.table("build", _BUILD, required=True)
    build = _build(build_fields) if build_fields else BuildCosts(memory_gb_per_thread=1.0)
    env: dict[str, str] = {}
    for name, value in top.free_table("env").items():
        if not _ENV_NAME_RE.match(name):
            top.problem(f"env.{name}", "not an environment variable name")
        elif not isinstance(value, str):
            top.problem(f"env.{name}", f"expected a string, got {_type_name(value)}")
        else:
            env[name] = value
    knobs = tuple(
        Knob(name=k.text("name"), meaning=k.text("meaning"), default=k.opt_text("default"))
        for k in top.tables("knobs", _KNOB)
    )
    patches = tuple(_patch(p, versions) for p in top.tables("patches", _PATCH))
    _unique(top, "patches", [p.id for p in patches])
    wheel_sources = tuple(_wheel_source(w) for w in top.tables("wheel_sources", _WHEEL))
    _unique(top, "wheel_sources", [w.id for w in wheel_sources])
    for i, v in enumerate(versions):
        for arch in v.targets or ():
            if arch not in {t.arch for t in targets}:
                top.problem(f"versions[{i}].targets",
                            f"'{arch}' is not the arch of any [[targets]] entry")
        v_knob = v.arch_knob if v.arch_knob is not None else knob
        _check_knob(top, f"versions[{i}].arch_knob" if v.arch_knob else "arch_knob", v_knob,
                    targets)
    return Recipe(
        id=rid,
        name=top.text("name"),
        description=top.text("description"),
        homepage=top.text("homepage", required=source.kind is SourceKind.GIT),
        license=top.text("license"),
        package=top.text("package"),
        import_name=top.text("import_name"),
        verify_adapter=top.text("verify_adapter"),
        arch_knob=knob,
        source=source,
        requirements=requirements,
        build=build,
        versions=versions,
        targets=targets,
        env=env,
        knobs=knobs,
        patches=patches,
        wheel_sources=wheel_sources,
        file=path,
    )


def _unique(top: _Fields, key: str, ids: Sequence[str]) -> None:
    seen: set[str] = set()
    for i, ident in enumerate(ids):
        if ident in seen:
            top.problem(f"{key}[{i}].id", f"'{ident}' appears twice")
        seen.add(ident)


def _check_knob(top: _Fields, where: str, knob: ArchKnob, targets: Sequence[Target]) -> None:
    if knob in (ArchKnob.FLASH_ATTN_CUDA_ARCHS, ArchKnob.FLASHMLA_DISABLE_FLAGS) and not targets:
        top.problems.append(RecipeProblem(
            top.file.name, where, f"'{knob.value}' needs [[targets]] entries", top.file))
    if knob is ArchKnob.FLASHMLA_DISABLE_FLAGS:
        for i, t in enumerate(targets):
            if not t.disable_env:
                top.problems.append(RecipeProblem(
                    top.file.name, f"targets[{i}].disable_env",
                    "missing (arch_knob \"flashmla_disable_flags\" needs one per target)",
                    top.file))


def _source(top: _Fields) -> Source:
    f = top.table("source", _SOURCE, required=True)
    if f is None:
        return Source(kind=SourceKind.LOCAL, path="")
    kind = f.enum("kind", SourceKind, what="source kind") or SourceKind.GIT
    url = f.opt_text("url")
    path = f.opt_text("path")
    if kind is SourceKind.GIT:
        if url is None:
            f.problem("url", "missing (a git source needs a URL)")
        elif not url.startswith("https://"):
            f.problem("url", f"must be an https:// URL, got {url!r}")
    if kind is SourceKind.LOCAL and not path:
        f.problem("path", "missing (a local source needs a folder under resources/)")
    commits: dict[str, str] = {}
    for name, value in f.free_table("submodule_commits").items():
        if not isinstance(value, str) or not _COMMIT_RE.match(value):
            f.problem(f"submodule_commits.{name}", "expected a 40-character commit hash")
        else:
            commits[name] = value
    submodules = f.texts("submodules")
    markers: dict[str, str] = {}
    for name, value in f.free_table("submodule_markers").items():
        if name not in submodules:
            f.problem(f"submodule_markers.{name}", "not one of the listed submodules")
        elif not isinstance(value, str) or not value or value.startswith("/") or ".." in value:
            f.problem(f"submodule_markers.{name}",
                      "expected a file path relative to the submodule folder")
        else:
            markers[name] = value
    return Source(kind=kind, url=url, path=path, submodules=submodules,
                  submodule_commits=commits, submodule_markers=markers)


def _requirements(f: _Fields) -> Requirements:
    os_list = f.enums("os", OsName, what="OS")
    if "os" not in f.data:
        f.problem("os", "missing")
    per_arch: dict[CC, Ver] = {}
    for key, value in f.free_table("min_cuda_per_arch").items():
        where = f"min_cuda_per_arch.{key}"
        try:
            cc = parse_cc(key)
        except ValueError as exc:
            f.problem(where, str(exc))
            continue
        if not isinstance(value, str):
            f.problem(where, f"expected a string, got {_type_name(value)}")
            continue
        try:
            per_arch[cc] = parse_version(value)
        except ValueError as exc:
            f.problem(where, str(exc))
    blocked: list[BlockedBuild] = []
    for b in f.tables("blocked", _BLOCKED):
        alternative = b.opt_text("alternative")
        if alternative is not None and alternative not in _ALTERNATIVES:
            b.problem("alternative", f"unknown alternative {alternative!r} (known: \"wsl2\")")
        blocked.append(BlockedBuild(
            os=b.enum("os", OsName, what="OS") or OsName.WINDOWS,
            archs=b.converted_list("archs", parse_cc),
            label=b.text("label"),
            reason=b.text("reason"),
            alternative=alternative,
        ))
    os_warnings: dict[OsName, str] = {}
    for key, value in f.free_table("os_warnings").items():
        parsed = OsName(key) if key in {o.value for o in OsName} else None
        if parsed is None:
            f.problem(f"os_warnings.{key}", "unknown OS (known: \"linux\", \"windows\", \"macos\")")
        elif not isinstance(value, str):
            f.problem(f"os_warnings.{key}", f"expected a string, got {_type_name(value)}")
        else:
            os_warnings[parsed] = value
    counts: list[int] = []
    raw_counts = f._get("gpu_counts", list, False)
    for i, item in enumerate(raw_counts or ()):
        if type(item) is not int or item < 1:
            f.problem(f"gpu_counts[{i}]", f"expected a positive integer, got {item!r}")
        else:
            counts.append(item)
    return Requirements(
        os=os_list,
        min_cc=f.convert("min_cc", parse_cc),
        max_cc=f.convert("max_cc", parse_cc),
        supported_cc=f.converted_list("supported_cc", parse_cc),
        gpu_text=f.text("gpu_text", required=False),
        min_cuda=f.convert("min_cuda", parse_version),
        min_cuda_per_arch=per_arch,
        min_torch=f.convert("min_torch", parse_version),
        min_python=f.convert("min_python", parse_version),
        max_python=f.convert("max_python", parse_version),
        min_gpus=f.integer("min_gpus", 1, minimum=1),
        gpu_counts=tuple(counts),
        nvlink=f.flag("nvlink"),
        cpu_fallback=f.flag("cpu_fallback"),
        blocked=tuple(blocked),
        os_warnings=os_warnings,
        unchecked=f.texts("unchecked"),
    )


def _target(f: _Fields) -> Target:
    arch = f.text("arch")
    try:
        parse_cc(arch)
    except ValueError as exc:
        if arch:
            f.problem("arch", str(exc))
    return Target(
        arch=arch,
        name=f.text("name"),
        runs_on=f.converted_list("runs_on", parse_cc),
        min_cuda=f.convert("min_cuda", parse_version),
        disable_env=f.opt_text("disable_env"),
    )


def _check_targets(top: _Fields, targets: Sequence[Target]) -> None:
    seen: set[str] = set()
    for i, t in enumerate(targets):
        if t.arch in seen:
            top.problem(f"targets[{i}].arch", f"'{t.arch}' appears twice")
        seen.add(t.arch)
        if not t.runs_on:
            top.problem(f"targets[{i}].runs_on", "missing or empty")


def _build(f: _Fields) -> BuildCosts:
    if "memory_gb_per_thread" not in f.data:
        f.problem("memory_gb_per_thread", "missing")
    return BuildCosts(
        memory_gb_per_thread=f.number("memory_gb_per_thread", 1.0, positive=True),
        nvcc_threads_knob=f.flag("nvcc_threads_knob"),
        nvcc_threads_default=f.integer("nvcc_threads_default", 1, minimum=1),
        max_nvcc_threads=f.integer("max_nvcc_threads", 1, minimum=1),
        translation_units_per_arch=f.integer("translation_units_per_arch", 1),
        core_seconds_per_unit=f.number("core_seconds_per_unit", 60.0),
        host_core_seconds=f.number("host_core_seconds", 0.0),
        fixed_seconds=f.number("fixed_seconds", 30.0),
        windows_factor=f.number("windows_factor", 1.5, positive=True),
    )


def _version(f: _Fields, source: Source) -> RecipeVersion:
    tag = f.opt_text("tag")
    commit = f.opt_text("commit")
    if commit is not None and not _COMMIT_RE.match(commit):
        f.problem("commit", f"expected a 40-character lower-case commit hash, got {commit!r}")
    if source.kind is SourceKind.GIT and tag is None and commit is None:
        f.problem("tag", "missing (a git version needs a tag or a commit)")
    label = f.text("label", tag[1:] if tag and tag.startswith("v") else (tag or ""),
                   required=tag is None)
    version_text = f.opt_text("version")
    if version_text is None:
        version_text = tag[1:] if tag and tag.startswith("v") else (tag or label)
    wheel_cuda: dict[int, str] = {}
    for key, value in f.free_table("wheel_cuda").items():
        if not key.isdigit() or not isinstance(value, str) or not value.isdigit():
            f.problem(f"wheel_cuda.{key}",
                      "expected a CUDA major version mapped to digits, like \"12\" = \"123\"")
        else:
            wheel_cuda[int(key)] = value
    official: OfficialWheels | None = None
    o = f.table("official_wheels", _OFFICIAL)
    if o is not None:
        official = OfficialWheels(
            python=o.converted_list("python", parse_version),
            torch=o.converted_list("torch", parse_version),
            platforms=o.texts("platforms"),
        )
    targets = f.texts("targets") if "targets" in f.data else None
    return RecipeVersion(
        label=label,
        version=version_text,
        tag=tag,
        commit=commit,
        released=f.opt_text("released"),
        recommended=f.enums("recommended", OsName, what="OS"),
        notes=f.text("notes", required=False),
        min_python=f.convert("min_python", parse_version),
        max_python=f.convert("max_python", parse_version),
        min_torch=f.convert("min_torch", parse_version),
        min_cuda=f.convert("min_cuda", parse_version),
        arch_knob=f.enum("arch_knob", ArchKnob, required=False, what="arch knob"),
        targets=targets,
        nvcc_threads_default=f.opt_integer("nvcc_threads_default", minimum=1),
        nvcc_threads_knob=f.opt_flag("nvcc_threads_knob"),
        max_jobs_auto=f.opt_flag("max_jobs_auto"),
        translation_units_per_arch=f.opt_integer("translation_units_per_arch"),
        wheel_cuda=wheel_cuda,
        official_wheels=official,
    )


def _check_versions(top: _Fields, versions: Sequence[RecipeVersion]) -> None:
    seen: set[str] = set()
    for i, v in enumerate(versions):
        if v.label and v.label in seen:
            top.problem(f"versions[{i}].label", f"'{v.label}' appears twice")
        seen.add(v.label)


def _patch(f: _Fields, versions: Sequence[RecipeVersion]) -> Patch:
    kind = f.enum("kind", PatchKind, what="patch kind") or PatchKind.LITERAL
    pattern = f.text("pattern")
    if kind is PatchKind.REGEX and pattern:
        try:
            re.compile(pattern)
        except re.error as exc:
            f.problem("pattern", f"not a valid regular expression: {exc}")
    when = PatchCondition()
    w = f.table("when", _WHEN)
    if w is not None:
        when = PatchCondition(
            os=w.enums("os", OsName, what="OS"),
            min_cuda=w.convert("min_cuda", parse_version),
            max_cuda=w.convert("max_cuda", parse_version),
            versions=w.texts("versions"),
        )
        known = {x for v in versions for x in (v.tag, v.label, v.commit) if x}
        for i, name in enumerate(when.versions):
            if name not in known:
                w.problem(f"versions[{i}]", f"no version {name!r} in this recipe")
    if "expected_count" not in f.data:
        f.problem("expected_count", "missing")
    return Patch(
        id=f.text("id"),
        file=f.text("file"),
        kind=kind,
        pattern=pattern,
        replacement=f.text("replacement", required=False),
        expected_count=f.integer("expected_count", 1, minimum=1),
        why=f.text("why", required=False),
        when=when,
    )


def _wheel_source(f: _Fields) -> WheelSource:
    kind = f.enum("kind", WheelSourceKind, what="wheel source kind") or WheelSourceKind.OFFICIAL
    url = f.text("url")
    if url and not url.startswith("https://"):
        f.problem("url", f"must be an https:// URL template, got {url!r}")
    filename = f.opt_text("filename")
    if kind is WheelSourceKind.OFFICIAL and filename is None:
        f.problem("filename", "missing (an official source computes its file names)")
    if kind is WheelSourceKind.COMMUNITY and "{asset}" not in url:
        f.problem("url", "a community source's URL must contain {asset}")
    assets = f.texts("assets")
    for i, asset in enumerate(assets):
        if asset.count("/") != 1 or not asset.endswith(".whl"):
            f.problem(f"assets[{i}]", f"expected \"release/file.whl\", got {asset!r}")
    return WheelSource(
        id=f.text("id"),
        kind=kind,
        name=f.text("name"),
        url=url,
        os=f.enums("os", OsName, what="OS"),
        homepage=f.text("homepage", required=False),
        filename=filename,
        cuda_match=f.enum("cuda_match", CudaMatch, required=False, what="CUDA match")
        or CudaMatch.MAJOR_MINOR,
        assets=assets,
        note=f.text("note", required=False),
    )


# =============================================================================================
# The machine, and whether a kernel fits it
# =============================================================================================


@dataclass(frozen=True)
class Machine:
    """Everything :func:`assess` looks at: hardware, target Python, OS, toolkit, GPU choice."""

    hardware: HardwareReport
    env: PythonEnv
    os: OsName
    toolkit: tuple[int, int] | None = None  # the chosen CUDA toolkit; None: none chosen yet
    selected: tuple[int, ...] | None = None  # GPU indices; None: every usable GPU
    nvlink: bool | None = None  # whether the selected GPUs are NVLink-connected; None: unknown

    @classmethod
    def from_reports(
        cls,
        hardware: HardwareReport,
        env: PythonEnv,
        os_name: str | OsName | None = None,
        toolkit: tuple[int, int] | None = None,
        selected: Iterable[int] | None = None,
        nvlink: bool | None = None,
    ) -> Machine:
        if isinstance(os_name, OsName):
            os = os_name
        else:
            os = OsName.parse(os_name or hardware.host.os_name) or OsName.LINUX
        return cls(
            hardware=hardware,
            env=env,
            os=os,
            toolkit=toolkit,
            selected=tuple(selected) if selected is not None else None,
            nvlink=nvlink,
        )

    @property
    def gpus(self) -> tuple[GpuInfo, ...]:
        """The selected GPUs whose compute capability is known."""
        usable = self.hardware.usable_gpus
        if self.selected is None:
            return usable
        return tuple(g for g in usable if g.index in self.selected)

    @property
    def torch(self) -> TorchInfo | None:
        return self.env.torch

    @property
    def python(self) -> Ver | None:
        if not self.env.version:
            return None
        try:
            return parse_version(".".join(self.env.version.split(".")[:2]))
        except ValueError:
            return None

    @property
    def cpu_cores(self) -> int:
        return self.hardware.host.cpu_logical

    @property
    def ram_gb(self) -> float:
        return self.hardware.host.ram_available / GIB


class ReasonKind(Enum):
    OS = "os"
    NO_GPU = "no_gpu"
    GPU_UNSUPPORTED = "gpu_unsupported"
    VERSION_LACKS_ARCH = "version_lacks_arch"
    NATIVE_BUILD_BLOCKED = "native_build_blocked"
    GPU_COUNT = "gpu_count"
    NVLINK = "nvlink"
    NO_TORCH = "no_torch"
    TORCH_CPU_ONLY = "torch_cpu_only"
    TORCH_TOO_OLD = "torch_too_old"
    CUDA_TOO_OLD = "cuda_too_old"
    TOOLKIT_MISMATCH = "toolkit_mismatch"
    PYTHON = "python"


@dataclass(frozen=True)
class Reason:
    """One reason a kernel version does not fit, in plain words, and what to do."""

    kind: ReasonKind
    text: str
    hint: str = ""

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Verdict:
    recipe_id: str
    version: str  # the version's label
    reasons: tuple[Reason, ...]
    warnings: tuple[str, ...] = ()
    archs: tuple[str, ...] = ()  # the selected GPUs' archs ("8.6", "8.9")
    cpu_only: bool = False  # a cpu_fallback recipe that will build its CPU part only
    alternative: str | None = None  # "wsl2": where a blocked native build can run

    @property
    def available(self) -> bool:
        return not self.reasons

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(r.text for r in self.reasons)

    def kinds(self) -> set[ReasonKind]:
        return {r.kind for r in self.reasons}

    @property
    def summary(self) -> str:
        if self.available:
            return "Fits this computer (CPU part only)." if self.cpu_only else "Fits this computer."
        more = len(self.reasons) - 1
        return self.reasons[0].text + (f" (and {more} more reason{'s' if more > 1 else ''})"
                                       if more else "")


def arch_list(source: Machine | Iterable[GpuInfo]) -> list[str]:
    """The union of the GPUs' architectures, sorted: ['8.6', '8.9']."""
    gpus = source.gpus if isinstance(source, Machine) else tuple(source)
    ccs = sorted({g.compute_capability for g in gpus if g.compute_capability is not None})
    return [cc_text(cc) for cc in ccs]


@dataclass(frozen=True)
class ArchSelection:
    """What a build compiles for the selected GPUs, and how the arch knob is told."""

    knob: ArchKnob
    gpu_archs: tuple[str, ...]  # the GPUs' own archs
    targets: tuple[Target, ...]  # the recipe targets that will be built (empty: no targets)
    values: tuple[str, ...]  # what the build plan hands the knob (build.make_plan(archs=...))
    unserved: tuple[str, ...]  # GPU archs no target of this version can run on
    env: Mapping[str, str] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        """'sm_80', 'sm90', ... for the chosen targets, or 'sm_86' for plain arch lists."""
        if self.targets:
            return tuple(t.name for t in self.targets)
        return tuple("sm_" + v.replace(".", "") for v in self.values)


def select_targets(
    recipe: Recipe, version: RecipeVersion, archs: Sequence[str]
) -> ArchSelection:
    """Which of the version's targets serve the GPUs with these archs, and the knob's values.

    FlashAttention: a cc 8.6 GPU runs the sm_80 code, so ``["8.6"]`` selects target "8.0" and
    FLASH_ATTN_CUDA_ARCHS=80. FlashMLA: ``["9.0"]`` selects sm90 and sets
    FLASH_MLA_DISABLE_SM100=1. A knob of "none" builds the version's fixed list whatever the
    GPUs. Without archs (no GPU chosen), upstream's default list is built.
    """
    knob = recipe.knob_for(version)
    ccs = [parse_cc(a) for a in archs]
    gpu_archs = tuple(archs)
    version_targets = recipe.targets_for(version)
    values: tuple[str, ...]
    if not recipe.targets:
        values = gpu_archs if knob is not ArchKnob.NONE else ()
        return ArchSelection(knob, gpu_archs, (), values, (), _knob_env(knob, values, recipe))
    unserved = tuple(a for a, cc in zip(archs, ccs, strict=True)
                     if not any(t.serves(cc) for t in version_targets))
    if knob is ArchKnob.NONE or not ccs:
        chosen = version_targets
        values = ()
    else:
        chosen = tuple(t for t in version_targets if any(t.serves(cc) for cc in ccs))
        values = tuple(t.arch for t in chosen)
    return ArchSelection(knob, gpu_archs, chosen, values, unserved,
                         _knob_env(knob, values, recipe))


def _knob_env(knob: ArchKnob, values: Sequence[str], recipe: Recipe) -> dict[str, str]:
    """The environment the knob needs (the same rule as :func:`build.arch_env`)."""
    if not values or knob is ArchKnob.NONE:
        return {}
    if knob is ArchKnob.TORCH_CUDA_ARCH_LIST:
        return {"TORCH_CUDA_ARCH_LIST": ";".join(values)}
    if knob is ArchKnob.FLASH_ATTN_CUDA_ARCHS:
        return {"FLASH_ATTN_CUDA_ARCHS": ";".join(v.replace(".", "") for v in values)}
    return {t.disable_env: "1" for t in recipe.targets
            if t.disable_env and t.arch not in values}


def plan_env(selection: ArchSelection) -> dict[str, str]:
    """The same environment computed by :func:`build.arch_env` (a cross-check for tests)."""
    return {c.name: c.value for c in arch_env(selection.knob, selection.values)}


def _gpu_label(gpu: GpuInfo, several: bool) -> str:
    name = gpu.name or "unknown NVIDIA GPU"
    return f"GPU {gpu.index} ({name})" if several else f"Your {name}"


def _cuda_needs(
    recipe: Recipe, req: Requirements, selection: ArchSelection, ccs: Sequence[CC]
) -> list[tuple[Ver, str]]:
    """(minimum CUDA, why) pairs; why is '' for the recipe-wide minimum."""
    needs: list[tuple[Ver, str]] = []
    if req.min_cuda is not None:
        needs.append((req.min_cuda, ""))
    for t in selection.targets:
        if t.min_cuda is not None:
            needs.append((t.min_cuda, f" for {arch_name(t.cc)} ({t.name})"))
    for cc in ccs:
        if cc in req.min_cuda_per_arch:
            needs.append((req.min_cuda_per_arch[cc], f" for {arch_name(cc)} (cc {cc_text(cc)})"))
    return needs


def _strictest(needs: Sequence[tuple[Ver, str]]) -> tuple[Ver, str] | None:
    if not needs:
        return None
    top = max(v for v, _ in needs)
    whys = [why for v, why in needs if v == top]
    return top, ("" if "" in whys else whys[0])


def assess(recipe: Recipe, version: RecipeVersion, machine: Machine) -> Verdict:
    """Does this kernel version fit this machine? Every reason it doesn't, and warnings.

    Reasons block the kernel (``available`` is False); warnings don't. For a recipe with
    ``cpu_fallback`` (the probe), GPU and CUDA problems become warnings and ``cpu_only`` is set.
    """
    req = recipe.requirements_for(version)
    reasons: list[Reason] = []
    gpu_reasons: list[Reason] = []  # what a CPU fallback turns into warnings
    warnings: list[str] = []
    alternative: str | None = None
    gpus = machine.gpus
    several = len(gpus) > 1
    archs = arch_list(gpus)
    ccs = [parse_cc(a) for a in archs]
    selection = select_targets(recipe, version, archs)
    torch = machine.torch
    name = recipe.name

    # -- operating system ---------------------------------------------------------------------
    if machine.os not in req.os:
        reasons.append(Reason(
            ReasonKind.OS,
            f"{name} runs on {_or(o.label for o in req.os)} only; this computer runs "
            f"{machine.os.label}.",
            "Use a Linux machine (WSL2 counts)." if OsName.LINUX in req.os else "",
        ))

    # -- GPUs ---------------------------------------------------------------------------------
    unreadable = [g for g in machine.hardware.gpus
                  if g.compute_capability is None
                  and (machine.selected is None or g.index in machine.selected)]
    for g in unreadable:
        warnings.append(f"The compute capability of GPU {g.index} could not be read; it is "
                        "left out.")
    if not gpus:
        state = machine.hardware.state
        if state is NvmlState.OK and machine.hardware.usable_gpus:
            text = "No GPU is selected."
            hint = "Select at least one GPU."
        else:
            text = "No NVIDIA GPU detected."
            if state not in (NvmlState.OK, NvmlState.NO_GPU) and machine.hardware.message:
                text = f"No NVIDIA GPU detected: {machine.hardware.message}"
            hint = machine.hardware.hint or "This kernel needs an NVIDIA GPU."
        gpu_reasons.append(Reason(ReasonKind.NO_GPU, text, hint))
    fitting = [g for g in gpus if g.compute_capability is not None
               and req.cc_ok(g.compute_capability)]
    for g in gpus:
        cc = g.compute_capability
        assert cc is not None  # machine.gpus only holds GPUs with a known cc
        if not req.cc_ok(cc):
            hint = ("Deselect this GPU to build for the others." if several and fitting
                    else "Choose a kernel that supports this GPU (the probe kernel runs on "
                    "any).")
            gpu_reasons.append(Reason(
                ReasonKind.GPU_UNSUPPORTED,
                f"{_gpu_label(g, several)} is {g.arch} (cc {cc_text(cc)}); {name} needs "
                f"{req.describe_gpus()}.",
                hint,
            ))
    version_targets = recipe.targets_for(version)
    if recipe.targets:
        for g in fitting:
            cc = g.compute_capability
            assert cc is not None
            if any(t.serves(cc) for t in version_targets):
                continue
            newer = [v for v in recipe.versions
                     if any(t.serves(cc) for t in recipe.targets_for(v))]
            hint = f"Choose version {newer[0].label} or newer." if newer else ""
            built = _and(t.name for t in version_targets) or "no GPU code"
            gpu_reasons.append(Reason(
                ReasonKind.VERSION_LACKS_ARCH,
                f"{name} {version.label} builds code only for {built}, which "
                f"{_gpu_label(g, several).replace('Your ', 'your ')} ({g.arch}, "
                f"cc {cc_text(cc)}) cannot run.",
                hint,
            ))
    for block in req.blocked:
        if block.os is not machine.os:
            continue
        hit = [g for g in fitting if g.compute_capability in block.archs]
        if not hit:
            continue
        text = (f"{name} cannot be built natively on {machine.os.label} for {block.label}: "
                f"{block.reason}.")
        hint = ""
        if block.alternative == "wsl2":
            text += " Use WSL2 (the wizard can build there)."
            hint = "Run the wizard inside WSL2 (Ubuntu) on this PC and build there."
            alternative = "wsl2"
        gpu_reasons.append(Reason(ReasonKind.NATIVE_BUILD_BLOCKED, text, hint))

    # -- GPU count and NVLink --------------------------------------------------------------------
    count = len(gpus)
    total = len(machine.hardware.usable_gpus)
    count_bad = (req.gpu_counts and count not in req.gpu_counts) or count < req.min_gpus
    if count_bad and (req.min_gpus > 1 or req.gpu_counts):
        wanted = (_or(str(n) for n in req.gpu_counts) if req.gpu_counts
                  else f"at least {req.min_gpus}")
        link = " connected with NVLink" if req.nvlink else ""
        have = f"this machine has {total}" if count == total else (
            f"{count} of this machine's {total} are selected")
        reasons.append(Reason(
            ReasonKind.GPU_COUNT,
            f"{name} needs {wanted} GPUs{link}; {have}.",
            "Select a matching number of GPUs." if total >= max(req.min_gpus, 1) and count != total
            else "",
        ))
    elif req.nvlink and count >= 2:
        if machine.nvlink is False:
            reasons.append(Reason(
                ReasonKind.NVLINK,
                f"{name} needs the GPUs connected with NVLink; the selected GPUs are not.",
            ))
        elif machine.nvlink is None:
            warnings.append(f"Whether the GPUs are connected with NVLink could not be checked; "
                            f"{name} needs NVLink.")

    # -- PyTorch ----------------------------------------------------------------------------------
    if torch is None:
        broken = machine.env.status is EnvStatus.TORCH_BROKEN
        reasons.append(Reason(
            ReasonKind.NO_TORCH,
            "PyTorch is installed in this Python but fails to import." if broken
            else "PyTorch is not installed in this Python.",
            "The prerequisites page can install a CUDA build of PyTorch.",
        ))
    else:
        torch_v = _torch_version(torch)
        if req.min_torch is not None and torch_v is not None and torch_v < req.min_torch:
            reasons.append(Reason(
                ReasonKind.TORCH_TOO_OLD,
                f"{name} needs PyTorch {ver_text(req.min_torch)} or newer; this Python has "
                f"PyTorch {torch.version}.",
                f"Install PyTorch {ver_text(req.min_torch)} or newer.",
            ))
        if torch.cuda is None:
            gpu_reasons.append(Reason(
                ReasonKind.TORCH_CPU_ONLY,
                f"PyTorch is a CPU-only build ({torch.version}); {name} needs a CUDA build of "
                "PyTorch.",
                "The prerequisites page can install a CUDA build of PyTorch.",
            ))

    # -- CUDA ---------------------------------------------------------------------------------
    torch_cuda = torch.cuda_version if torch is not None else None
    cuda_ok_for_build = True
    if torch_cuda is not None:
        strictest = _strictest(_cuda_needs(recipe, req, selection, ccs))
        toolkit = machine.toolkit
        if toolkit is not None and toolkit[0] != torch_cuda[0]:
            cuda_ok_for_build = False
            gpu_reasons.append(Reason(
                ReasonKind.TOOLKIT_MISMATCH,
                f"The selected CUDA toolkit {cc_text(toolkit)} does not match the CUDA "
                f"{cc_text(torch_cuda)} that PyTorch was built with: the major versions must "
                "be the same to build extensions.",
                f"Choose a CUDA {torch_cuda[0]}.x toolkit, or a PyTorch built for CUDA "
                f"{toolkit[0]}.",
            ))
        if strictest is not None:
            need, why = strictest
            if toolkit is not None:
                if toolkit < need[:2]:
                    cuda_ok_for_build = False
                    gpu_reasons.append(Reason(
                        ReasonKind.CUDA_TOO_OLD,
                        f"{name} needs CUDA {ver_text(need)} or newer{why}; the selected "
                        f"toolkit is {cc_text(toolkit)}.",
                        f"Install CUDA {ver_text(need)} or newer (with a PyTorch built for the "
                        "same CUDA major version).",
                    ))
            elif torch_cuda[0] < need[0]:
                cuda_ok_for_build = False
                gpu_reasons.append(Reason(
                    ReasonKind.CUDA_TOO_OLD,
                    f"{name} needs CUDA {ver_text(need)} or newer{why}; PyTorch here is built "
                    f"for CUDA {cc_text(torch_cuda)}, and the toolkit must have the same major "
                    "version as PyTorch's.",
                    f"Install a PyTorch built for CUDA {ver_text(need)} or newer.",
                ))
            else:
                warnings.append(
                    f"No CUDA toolkit is selected yet: building {name} needs CUDA "
                    f"{ver_text(need)} or newer{why}, version {torch_cuda[0]}.x to match "
                    "PyTorch.")
        elif toolkit is None:
            warnings.append(f"No CUDA toolkit is selected yet: building {name} needs one of "
                            f"version {torch_cuda[0]}.x to match PyTorch.")
        if (machine.os is OsName.WINDOWS and toolkit is not None and toolkit < (12, 4)
                and cuda_ok_for_build):
            warnings.append(f"CUDA {cc_text(toolkit)} is older than 12.4: current Visual Studio "
                            "2022 C++ libraries refuse it (STL1002); choose CUDA 12.4 or newer.")
        driver = machine.hardware.cuda_driver_version
        if gpus and driver is not None and torch_cuda[0] > driver[0]:
            warnings.append(f"The NVIDIA driver supports CUDA up to {cc_text(driver)}, but "
                            f"PyTorch here uses CUDA {cc_text(torch_cuda)}: update the driver "
                            "before the kernel can run.")

    # -- Python -------------------------------------------------------------------------------
    py = machine.python
    if py is None:
        reasons.append(Reason(ReasonKind.PYTHON, "The target Python could not be inspected.",
                              "Choose a working Python on the environment page."))
    else:
        if req.min_python is not None and py < req.min_python:
            reasons.append(Reason(
                ReasonKind.PYTHON,
                f"{name} {version.label} needs Python {ver_text(req.min_python)} or newer; the "
                f"target Python is {ver_text(py)}.",
                "Choose an environment with a newer Python.",
            ))
        if req.max_python is not None and py > req.max_python:
            reasons.append(Reason(
                ReasonKind.PYTHON,
                f"{name} {version.label} supports Python up to {ver_text(req.max_python)}; the "
                f"target Python is {ver_text(py)}.",
                "Choose an environment with an older Python.",
            ))

    # -- collect ------------------------------------------------------------------------------
    cpu_only = False
    if req.cpu_fallback and gpu_reasons:
        cpu_only = True
        for r in gpu_reasons:
            warnings.append(f"{r.text} The {name} will be built for the CPU only.")
    else:
        order = list(ReasonKind)
        reasons = sorted(reasons + gpu_reasons, key=lambda r: order.index(r.kind))
    if machine.os in req.os_warnings and machine.os in req.os:
        warnings.append(req.os_warnings[machine.os])
    for item in req.unchecked:
        warnings.append(f"Not checked by the wizard: {item}.")
    return Verdict(
        recipe_id=recipe.id,
        version=version.label,
        reasons=tuple(reasons),
        warnings=tuple(warnings),
        archs=tuple(archs),
        cpu_only=cpu_only,
        alternative=alternative,
    )


def _torch_version(torch: TorchInfo) -> Ver | None:
    try:
        return parse_version(torch.major_minor)
    except ValueError:
        return None


def recommended_version(recipe: Recipe, machine: Machine) -> RecipeVersion:
    """The version to preselect: the one marked for this OS if it fits, else the newest that
    fits, else the one marked for this OS (or the newest), so the page can show why not."""
    marked = recipe.recommended_for(machine.os)
    if marked is not None and assess(recipe, marked, machine).available:
        return marked
    for version in reversed(recipe.versions):
        if assess(recipe, version, machine).available:
            return version
    return marked if marked is not None else recipe.newest


# =============================================================================================
# Build time
# =============================================================================================


@dataclass(frozen=True)
class BuildEstimate:
    seconds: float
    jobs: int  # parallel compile jobs (MAX_JOBS)
    nvcc_threads: int  # threads per nvcc
    parallel: float  # compile threads busy at once
    core_seconds: float  # total compile work
    targets: int  # archs compiled
    explanation: str


def estimate_build(
    recipe: Recipe,
    version: RecipeVersion,
    archs: Sequence[str],
    cpu_cores: int,
    ram_gb: float,
    os: OsName,
    *,
    cpu_only: bool = False,
) -> BuildEstimate:
    """A build-time estimate from the recipe's measured costs and this machine's parallelism.

    * Work: ``translation_units_per_arch × targets × core_seconds_per_unit`` CPU-core-seconds
      of device code, plus ``host_core_seconds`` of arch-independent code. ``targets`` is what
      :func:`select_targets` picks for ``archs`` (a fixed list when the version has no knob;
      upstream's default list when ``archs`` is empty; none for a CPU-only probe).
    * Parallelism: :func:`build.choose_parallelism` (the build plan's own rule) decides jobs ×
      nvcc threads from the cores and ``memory_gb_per_thread`` of the available RAM. An nvcc
      thread only helps with more than one arch, and there can't be more jobs than units.
      Versions that ignore NVCC_THREADS use their fixed thread count for the RAM sum.
    * Time: ``(fixed_seconds + work / parallel) × windows_factor`` (on Windows).

    Calibration: FlashMLA on an H100 with 16 cores: 110 s (SM90 only) and 184 s (both archs);
    FlashAttention on 64 cores: 3-5 min for two archs (shared/knowledge/failures.md).
    """
    costs = recipe.build
    selection = select_targets(recipe, version, archs)
    if cpu_only:
        n_targets = 0
    elif recipe.targets:
        n_targets = len(selection.targets)
    elif selection.values:
        n_targets = len(selection.values)
    else:
        n_targets = 0 if recipe.requirements.cpu_fallback and not archs else 1
    units = recipe.translation_units(version)
    default_threads, knob = recipe.nvcc_threads(version)
    cores = max(1, cpu_cores)
    ram_bytes = int(max(ram_gb, 0.0) * GIB)
    if knob:
        cap = max(1, min(costs.max_nvcc_threads, max(1, n_targets)))
        par = choose_parallelism(cores, ram_bytes, costs.memory_gb_per_thread, cap)
        jobs, threads = par.jobs, par.nvcc_threads
    else:
        threads = max(1, default_threads)
        per_job = costs.memory_gb_per_thread * threads
        by_ram = max(1, math.floor(max(ram_gb, 0.0) * 0.85 / max(per_job, 0.1)))
        jobs = max(1, min(cores, by_ram))
    useful_threads = max(1, min(threads, max(1, n_targets)))
    device_work = units * n_targets * costs.core_seconds_per_unit
    work = device_work + costs.host_core_seconds
    work_items = max(1, units if n_targets else 1)
    parallel = float(max(1, min(cores, jobs * useful_threads, work_items * useful_threads)))
    seconds = costs.fixed_seconds + work / parallel
    factor = costs.windows_factor if os is OsName.WINDOWS else 1.0
    seconds *= factor
    what = ("the CPU part" if n_targets == 0 else
            f"{n_targets} arch{'s' if n_targets != 1 else ''} × {units} units")
    explanation = (
        f"{what}: ~{work:,.0f} CPU-core-seconds on {parallel:.0f} compile threads "
        f"({jobs} job{'s' if jobs != 1 else ''} × {threads} nvcc thread"
        f"{'s' if threads != 1 else ''}, {cores} cores, {ram_gb:.0f} GB RAM)"
        + (f", × {factor:g} on Windows" if factor != 1.0 else "")
    )
    return BuildEstimate(
        seconds=seconds,
        jobs=jobs,
        nvcc_threads=threads,
        parallel=parallel,
        core_seconds=work,
        targets=n_targets,
        explanation=explanation,
    )


def estimate_build_seconds(
    recipe: Recipe,
    version: RecipeVersion,
    archs: Sequence[str],
    cpu_cores: int,
    ram_gb: float,
    os: OsName,
) -> float:
    """Seconds a source build should take; see :func:`estimate_build` for the model."""
    return estimate_build(recipe, version, archs, cpu_cores, ram_gb, os).seconds
