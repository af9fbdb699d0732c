"""Recipes as typed data: the schema's enums and dataclasses, and small value helpers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from kernel_wizard.base.errors import RecipeError, UnknownChoiceError
from kernel_wizard.base.messages import Msg, msg
from kernel_wizard.machine.hardware import arch_name

SCHEMA_VERSION = 1
GIB = 1024**3

CC = tuple[int, int]  # compute capability (major, minor)
Ver = tuple[int, ...]  # a dotted version: (12, 8), (3, 10), (2, 10)
E = TypeVar("E", bound=Enum)


class ArchKnob(Enum):
    """How a recipe is told which GPU architectures to build (the recipe's ``arch_knob``)."""

    NONE = "none"
    TORCH_CUDA_ARCH_LIST = "torch_cuda_arch_list"  # "8.6;9.0"
    FLASH_ATTN_CUDA_ARCHS = "flash_attn_cuda_archs"  # "86;90"
    FLASHMLA_DISABLE_FLAGS = "flashmla_disable_flags"  # the targets' disable_env flags

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
        """'Windows 11', 'win32', 'Linux 6.18.4', 'linux' and wheel platform tags
        ('win_amd64', 'manylinux_2_28_x86_64', 'macosx_14_0_arm64') → the OS; None when
        unknown. The one OS-name mapping."""
        low = text.strip().lower()
        if low.startswith(("win", "cygwin", "msys")):
            return cls.WINDOWS
        if low.startswith(("linux", "manylinux", "musllinux")):
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
    # the folder, relative to the source root, that holds setup.py / pyproject.toml
    # (FlashAttention 3: "hopper"); "" = the root
    subdir: str = ""


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
    # NVIDIA communication libraries the build links against (multi-GPU kernels): NCCL at
    # least this version, NVSHMEM present; found in the target environment's pip packages
    min_nccl: Ver | None = None
    nvshmem: bool = False

    def cc_ok(self, cc: CC) -> bool:
        if self.supported_cc and cc not in self.supported_cc:
            return False
        if self.min_cc is not None and cc < self.min_cc:
            return False
        return self.max_cc is None or cc <= self.max_cc

    def describe_gpus(self) -> str:
        if self.gpu_text:
            return data_text(self.gpu_text)
        if self.supported_cc:
            return msg("a GPU with compute capability {ccs}",
                       ccs=or_list(cc_text(c) for c in self.supported_cc))
        if self.min_cc is not None:
            return msg("{arch} (cc {cc}) or newer", arch=arch_name(self.min_cc),
                       cc=cc_text(self.min_cc))
        return msg("an NVIDIA GPU")


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
class BuildExtension:
    """One torch extension of a ``setup.py`` that builds several, one ninja run each, in the
    order it builds them (the recipe's ``[[build.extension]]``). SageAttention 2 builds
    ``_qattn_sm80`` for any of its GPUs, ``_qattn_sm89`` for Ada, Hopper and Blackwell,
    ``_qattn_sm90`` for Hopper only and ``_fused`` always: 4 units for an RTX 3090, 14 for an
    H100. Costs left out are the recipe's ``[build]`` figures."""

    name: str
    units: int  # what ninja compiles for it (its [n/N]'s N)
    archs: tuple[str, ...] = ()  # built when one of these targets is selected; (): always
    host_units: int = 1  # of ``units``, compiled by the host compiler only (the bindings)
    core_seconds_per_unit: float | None = None  # one device unit for one arch
    slowest_unit_core_seconds: float | None = None  # its slowest device unit, for one arch
    host_core_seconds: float | None = None  # one host unit

    def built_for(self, targets: Iterable[str]) -> bool:
        """Whether setup.py builds it when these target archs are selected."""
        return not self.archs or any(a in self.archs for a in targets)


@dataclass(frozen=True)
class BuildCosts:
    memory_gb_per_thread: float
    nvcc_threads_knob: bool = False
    nvcc_threads_default: int = 1
    max_nvcc_threads: int = 1
    translation_units_per_arch: int = 1
    core_seconds_per_unit: float = 60.0
    host_core_seconds: float = 0.0
    fixed_seconds: float = 30.0  # setup (pip, setup.py) + tail: not parallel
    windows_factor: float = 1.5
    # the slowest unit's core-seconds for one arch (0: no unit stands out): a build can't
    # end before it does, however many jobs run
    slowest_unit_core_seconds: float = 0.0
    # the same, for the targets whose slowest unit differs (a [[targets]] arch → core-seconds;
    # FlashMLA's sm100 dense attention units: 214 s for sm100 against 128 s for sm90): an nvcc
    # thread per target compiles them side by side, so the slowest target bounds the unit
    slowest_unit_core_seconds_per_target: Mapping[str, float] = field(default_factory=dict)
    tail_seconds: float = 3.0  # of fixed_seconds: link and wheel, after the last unit
    # torch extensions setup.py builds one after another, one ninja run each (SageAttention's
    # four): the estimate's units are those of every run, expected from the first run on
    extensions: int = 1
    # those extensions one by one, when the recipe knows them (``[[build.extension]]``): which
    # targets build each, its units and costs; the estimate then plans every run
    extension_list: tuple[BuildExtension, ...] = ()
    # a variable that makes the build compile its CPU part only (recipes with cpu_fallback):
    # the plan sets it to 1 when the target's PyTorch is a CPU-only build
    cpu_only_env: str = ""


@dataclass(frozen=True)
class BuildVariant:
    """One way of building a recipe's source that a person chooses between (the recipe's
    ``[[variants]]``), e.g. FlashAttention 3's compact build (head size 128, fp16/bf16) and its
    full build. ``env``: variables set for this variant only; the unit counts and costs replace
    the recipe's ``[build]`` figures for the estimate."""

    id: str
    label: str
    description: str
    env: Mapping[str, str] = field(default_factory=dict)
    default: bool = False
    translation_units_per_arch: int | None = None
    core_seconds_per_unit: float | None = None
    slowest_unit_core_seconds: float | None = None


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
    # the publisher's list in resources/wheels/<name>.json (catalog.wheels), instead of assets
    wheel_list: str | None = None


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
    min_nccl: Ver | None = None  # overrides requirements.min_nccl
    nvshmem: bool | None = None  # overrides requirements.nvshmem

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
    variants: tuple[BuildVariant, ...] = ()  # the first marked default (or the first) is used
    # how a person calls the kernel once it is installed (Python code; "": none to show)
    usage: str = ""
    # the upstream tags that are releases of this kernel, a regular expression matched against
    # the whole tag name (catalog.tags merges newer ones); None: upstream tags are not followed
    tag_pattern: str | None = None
    # its verification runs in a harness process of its own, never beside other kernels
    # (DeepEP's check starts one process per GPU itself)
    verify_alone: bool = False
    # the kernel the wizard builds when none is chosen: the bundled probe (one in the catalog)
    toolchain_probe: bool = False
    file: Path | None = None

    def version(self, key: str) -> RecipeVersion:
        """The version with this label, tag or commit (a leading 'v' is optional)."""
        for v in self.versions:
            if key in (v.label, v.tag, v.commit, v.version) or (v.tag and v.tag == f"v{key}"):
                return v
        raise UnknownChoiceError(
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

    @property
    def default_variant(self) -> BuildVariant | None:
        marked = [v for v in self.variants if v.default]
        return marked[0] if marked else (self.variants[0] if self.variants else None)

    def variant(self, key: str | None) -> BuildVariant | None:
        """The variant with this id (None: the default one); None for a recipe without
        variants. An unknown id is a usage error that lists the known ones."""
        if not self.variants:
            if key:
                raise UnknownChoiceError(
                    f"{self.name} has no build variants.",
                    why=f"'{key}' was asked for; {self.name} is built one way only.",
                    hint="Leave the build variant out.",
                )
            return None
        if not key:
            return self.default_variant
        for variant in self.variants:
            if variant.id == key:
                return variant
        raise UnknownChoiceError(
            f"{self.name} has no build variant '{key}'.",
            why="Known variants: " + ", ".join(v.id for v in self.variants),
            hint="Choose one of the listed variants.",
        )

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

    @property
    def probe(self) -> Recipe:
        """The toolchain probe: what "no kernel chosen" builds (the recipe that says
        ``toolchain_probe = true``)."""
        for recipe in self.recipes:
            if recipe.toolchain_probe:
                return recipe
        raise RecipeError(
            "The catalog has no probe kernel.",
            why="No recipe says toolchain_probe = true"
            + (f" (broken recipes: {'; '.join(str(p) for p in self.problems)})"
               if self.problems else "."),
            hint="Reinstall the wizard, or fix the recipe if you edited it.",
        )

    def usage(self, adapter: str) -> str:
        """How a person calls the kernel that ``adapter`` verifies, once it is installed (its
        recipe's ``usage``); "" when no recipe of the adapter has one."""
        return next((r.usage for r in self.recipes if r.verify_adapter == adapter and r.usage),
                    "")

    def get(self, recipe_id: str) -> Recipe:
        for recipe in self.recipes:
            if recipe.id == recipe_id:
                return recipe
        broken = [p for p in self.problems if p.file == f"{recipe_id}.toml"]
        kind = RecipeError if broken else UnknownChoiceError  # a broken recipe is no usage error
        raise kind(
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
SLUG_RE = re.compile(r"^[a-z][a-z0-9_]*$")
COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")


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


def data_text(text: str) -> str:
    """A sentence from a recipe file (a GPU description, a reason, a warning) as a sentence a
    front end translates (``scripts/translations.py`` collects the recipes' user-visible
    fields), so that it is translated also where it is a value in another sentence."""
    return text if isinstance(text, Msg) or not text else Msg(text)


def or_list(items: Iterable[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    seq = list(items)
    if len(seq) <= 1:
        return "".join(seq)
    return msg("{items} or {last}", items=", ".join(seq[:-1]), last=seq[-1])


def and_list(items: Iterable[str]) -> str:
    seq = list(items)
    if len(seq) <= 1:
        return "".join(seq)
    return msg("{items} and {last}", items=", ".join(seq[:-1]), last=seq[-1])


