"""The machine, and whether a kernel version fits it (every reason in plain words)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from kernel_wizard.base.advice import choose_python, prerequisite_fix
from kernel_wizard.base.messages import N_, join, msg
from kernel_wizard.catalog.model import (
    CC,
    GIB,
    ArchKnob,
    OsName,
    Recipe,
    RecipeVersion,
    Requirements,
    Target,
    Ver,
    and_list,
    cc_text,
    data_text,
    or_list,
    parse_cc,
    parse_version,
    ver_text,
)
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import GpuInfo, HardwareReport, NvmlState, arch_name

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
        chosen = tuple(selected) if selected is not None else None
        if nvlink is None and hardware.links is not None:
            # what NVML said about the selected GPUs (None stays "could not be checked")
            indices = chosen if chosen is not None else [g.index for g in hardware.usable_gpus]
            nvlink = hardware.links.connected(indices)
        return cls(
            hardware=hardware,
            env=env,
            os=os,
            toolkit=toolkit,
            selected=chosen,
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
    LIBRARY = "library"  # NCCL too old or NVSHMEM missing in the target environment
    PREREQUISITE = "prerequisite"  # a prerequisite check found something this kernel needs


@dataclass(frozen=True)
class Reason:
    """One reason a kernel version does not fit, in plain words, and what to do.

    ``fix_check``: the prerequisite check (its id, e.g. "python-env") whose Fix removes this
    reason, so that a front end can lead there (a button in the wizard, a command in a
    terminal); "" when no check can."""

    kind: ReasonKind
    text: str
    hint: str = ""
    fix_check: str = ""

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
            return (N_("Fits this computer (CPU part only).") if self.cpu_only
                    else N_("Fits this computer."))
        more = len(self.reasons) - 1
        first = self.reasons[0].text
        if not more:
            return first
        if more == 1:
            return msg("{reason} (and {more} more reason)", reason=first, more=more)
        return msg("{reason} (and {more} more reasons)", reason=first, more=more)


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
    GPUs. Without archs (no GPU chosen), upstream's default list is built. A recipe without
    targets builds the GPUs' own archs that its requirements allow (the probe: cc 7.5 and up).
    """
    knob = recipe.knob_for(version)
    ccs = [parse_cc(a) for a in archs]
    gpu_archs = tuple(archs)
    version_targets = recipe.targets_for(version)
    values: tuple[str, ...]
    if not recipe.targets:
        req = recipe.requirements_for(version)
        fitting = tuple(a for a, cc in zip(archs, ccs, strict=True) if req.cc_ok(cc))
        values = fitting if knob is not ArchKnob.NONE else ()
        unfit = tuple(a for a in gpu_archs if a not in fitting)
        return ArchSelection(knob, gpu_archs, (), values, unfit)
    unserved = tuple(a for a, cc in zip(archs, ccs, strict=True)
                     if not any(t.serves(cc) for t in version_targets))
    if knob is ArchKnob.NONE or not ccs:
        chosen = version_targets
        values = ()
    else:
        chosen = tuple(t for t in version_targets if any(t.serves(cc) for cc in ccs))
        values = tuple(t.arch for t in chosen)
    return ArchSelection(knob, gpu_archs, chosen, values, unserved)


def _gpu_label(gpu: GpuInfo, several: bool, start: bool = True) -> str:
    """'GPU 1 (NVIDIA A100)' among several; 'Your NVIDIA A100' ('your …' inside a sentence)."""
    name = gpu.name or msg("unknown NVIDIA GPU")
    if several:
        return msg("GPU {index} ({name})", index=gpu.index, name=name)
    return msg("Your {name}", name=name) if start else msg("your {name}", name=name)


def _gpu_part(name: str, cpu_fallback: bool, start: bool = False) -> str:
    """The kernel a GPU build is about: the kernel, or "the probe's GPU part" for a kernel with
    a CPU fallback (``start``: at the start of a sentence)."""
    if not cpu_fallback:
        return name
    if start:
        return msg("The {name}'s GPU part", name=name)
    return msg("the {name}'s GPU part", name=name)


def _cuda_needs(
    recipe: Recipe, req: Requirements, selection: ArchSelection, ccs: Sequence[CC]
) -> list[tuple[Ver, str]]:
    """(minimum CUDA, why) pairs; why is '' for the recipe-wide minimum."""
    needs: list[tuple[Ver, str]] = []
    if req.min_cuda is not None:
        needs.append((req.min_cuda, ""))
    for t in selection.targets:
        if t.min_cuda is not None:
            needs.append((t.min_cuda, msg(" for {arch} ({target})", arch=arch_name(t.cc),
                                          target=t.name)))
    for cc in ccs:
        if cc in req.min_cuda_per_arch:
            needs.append((req.min_cuda_per_arch[cc],
                           msg(" for {arch} (cc {cc})", arch=arch_name(cc), cc=cc_text(cc))))
    return needs


def _strictest(needs: Sequence[tuple[Ver, str]]) -> tuple[Ver, str] | None:
    if not needs:
        return None
    top = max(v for v, _ in needs)
    whys = [why for v, why in needs if v == top]
    return top, ("" if "" in whys else whys[0])


@dataclass
class _Findings:
    """What :func:`assess` looks at, and what its steps have found so far.

    Each step reads the machine and the version's requirements and adds to the three lists:
    ``reasons`` block the kernel; ``gpu_reasons`` block it too, except for a recipe with a CPU
    fallback, where they become warnings (its CPU part still fits); ``warnings`` never block.
    """

    recipe: Recipe
    version: RecipeVersion
    machine: Machine
    req: Requirements
    archs: list[str]
    selection: ArchSelection
    reasons: list[Reason] = field(default_factory=list)
    gpu_reasons: list[Reason] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    alternative: str | None = None  # "wsl2": where a blocked native build can run

    @property
    def name(self) -> str:
        return self.recipe.name

    @property
    def gpu_name(self) -> str:
        """The kernel a GPU build is about. A recipe with a CPU fallback (the probe) still fits
        without a GPU build: what a GPU build needs is said of its GPU part, never of the
        kernel that is shown as fitting."""
        return _gpu_part(self.name, self.req.cpu_fallback)

    @property
    def gpus(self) -> tuple[GpuInfo, ...]:
        return self.machine.gpus

    @property
    def several(self) -> bool:
        return len(self.gpus) > 1

    @property
    def fitting(self) -> list[GpuInfo]:
        """The selected GPUs whose compute capability the requirements allow."""
        return [g for g in self.gpus if g.compute_capability is not None
                and self.req.cc_ok(g.compute_capability)]


def assess(recipe: Recipe, version: RecipeVersion, machine: Machine) -> Verdict:
    """Does this kernel version fit this machine? Every reason it doesn't, and warnings.

    Reasons block the kernel (``available`` is False); warnings don't. For a recipe with
    ``cpu_fallback`` (the probe), GPU and CUDA problems become warnings and ``cpu_only`` is set.
    The steps run in the order the reasons and warnings are listed.
    """
    archs = arch_list(machine.gpus)
    found = _Findings(recipe, version, machine, recipe.requirements_for(version), archs,
                      select_targets(recipe, version, archs))
    _check_os(found)
    _check_gpus(found)
    _check_version_targets(found)
    _check_native_blocks(found)
    _check_gpu_count(found)
    found.reasons.extend(library_reasons(recipe, version, machine.env))
    _check_torch(found)
    _check_cuda(found)
    _check_python(found)
    return _verdict(found)


def _check_os(found: _Findings) -> None:
    """The operating system: one the version runs on."""
    req, system = found.req, found.machine.os
    if system not in req.os:
        found.reasons.append(Reason(
            ReasonKind.OS,
            msg("{name} runs on {systems} only; this computer runs {system}.", name=found.name,
                systems=or_list(o.label for o in req.os), system=system.label),
            N_("Use a Linux machine (WSL2 counts).") if OsName.LINUX in req.os else "",
        ))


def _check_gpus(found: _Findings) -> None:
    """The GPUs: a compute capability that can be read, at least one selected, each of a
    generation the version supports."""
    machine, req = found.machine, found.req
    unreadable = [g for g in machine.hardware.gpus
                  if g.compute_capability is None
                  and (machine.selected is None or g.index in machine.selected)]
    for g in unreadable:
        found.warnings.append(msg("The compute capability of GPU {index} could not be read; "
                                  "it is left out.", index=g.index))
    if not found.gpus:
        state = machine.hardware.state
        if state is NvmlState.OK and machine.hardware.usable_gpus:
            text = N_("No GPU is selected.")
            hint = N_("Select at least one GPU.")
        else:
            text = N_("No NVIDIA GPU detected.")
            if state not in (NvmlState.OK, NvmlState.NO_GPU) and machine.hardware.message:
                text = msg("No NVIDIA GPU detected: {problem}",
                           problem=data_text(machine.hardware.message))
            hint = machine.hardware.hint or N_("This kernel needs an NVIDIA GPU.")
        found.gpu_reasons.append(Reason(ReasonKind.NO_GPU, text, hint))
    fitting = found.fitting
    for g in found.gpus:
        cc = g.compute_capability
        assert cc is not None  # machine.gpus only holds GPUs with a known cc
        if not req.cc_ok(cc):
            hint = (N_("Deselect this GPU to build for the others.")
                    if found.several and fitting
                    else N_("Choose a kernel that supports this GPU (the probe kernel runs on "
                            "any)."))
            found.gpu_reasons.append(Reason(
                ReasonKind.GPU_UNSUPPORTED,
                msg("{gpu} is {arch} (cc {cc}); {kernel} needs {gpus}.",
                    gpu=_gpu_label(g, found.several), arch=g.arch, cc=cc_text(cc),
                    kernel=found.gpu_name, gpus=req.describe_gpus()),
                hint,
            ))


def _check_version_targets(found: _Findings) -> None:
    """A recipe with targets: this version builds code that each supported GPU can run (else
    the newest version that does is named)."""
    recipe, version = found.recipe, found.version
    if not recipe.targets:
        return
    version_targets = recipe.targets_for(version)
    for g in found.fitting:
        cc = g.compute_capability
        assert cc is not None
        if any(t.serves(cc) for t in version_targets):
            continue
        newer = [v for v in recipe.versions
                 if any(t.serves(cc) for t in recipe.targets_for(v))]
        hint = (msg("Choose version {version} or newer.", version=newer[0].label)
                if newer else "")
        built = and_list(t.name for t in version_targets) or msg("no GPU code")
        found.gpu_reasons.append(Reason(
            ReasonKind.VERSION_LACKS_ARCH,
            msg("{name} {version} builds code only for {targets}, which {gpu} ({arch}, "
                "cc {cc}) cannot run.", name=found.name, version=version.label, targets=built,
                gpu=_gpu_label(g, found.several, start=False), arch=g.arch, cc=cc_text(cc)),
            hint,
        ))


def _check_native_blocks(found: _Findings) -> None:
    """Builds the recipe knows cannot run natively on this system for these GPUs (and where
    they can: WSL2)."""
    system = found.machine.os
    for block in found.req.blocked:
        if block.os is not system:
            continue
        hit = [g for g in found.fitting if g.compute_capability in block.archs]
        if not hit:
            continue
        text = msg("{name} cannot be built natively on {system} for {target}: {reason}.",
                   name=found.name, system=system.label, target=data_text(block.label),
                   reason=data_text(block.reason))
        hint = ""
        if block.alternative == "wsl2":
            text = join([text, N_("Use WSL2 (the wizard can build there).")])
            hint = N_("Run the wizard inside WSL2 (Ubuntu) on this PC and build there.")
            found.alternative = "wsl2"
        found.gpu_reasons.append(Reason(ReasonKind.NATIVE_BUILD_BLOCKED, text, hint))


def _check_gpu_count(found: _Findings) -> None:
    """Multi-GPU kernels: how many GPUs are selected, and whether NVLink connects them."""
    req, machine, name = found.req, found.machine, found.name
    count = len(found.gpus)
    total = len(machine.hardware.usable_gpus)
    count_bad = (req.gpu_counts and count not in req.gpu_counts) or count < req.min_gpus
    if count_bad and (req.min_gpus > 1 or req.gpu_counts):
        wanted = (or_list(str(n) for n in req.gpu_counts) if req.gpu_counts
                  else msg("at least {count}", count=req.min_gpus))
        have = msg("this machine has {total}", total=total) if count == total else msg(
            "{count} of this machine's {total} are selected", count=count, total=total)
        found.reasons.append(Reason(
            ReasonKind.GPU_COUNT,
            msg("{name} needs {wanted} GPUs connected with NVLink; {have}.", name=name,
                wanted=wanted, have=have) if req.nvlink else
            msg("{name} needs {wanted} GPUs; {have}.", name=name, wanted=wanted, have=have),
            N_("Select a matching number of GPUs.")
            if total >= max(req.min_gpus, 1) and count != total else "",
        ))
    elif req.nvlink and count >= 2:
        if machine.nvlink is False:
            found.reasons.append(Reason(
                ReasonKind.NVLINK,
                msg("{name} needs the GPUs connected with NVLink; the selected GPUs are not.",
                    name=name),
            ))
        elif machine.nvlink is None:
            found.warnings.append(msg("Whether the GPUs are connected with NVLink could not "
                                      "be checked; {name} needs NVLink.", name=name))


def _check_torch(found: _Findings) -> None:
    """PyTorch in the target Python: importable, new enough, and a CUDA build."""
    machine, req, name = found.machine, found.req, found.name
    torch = machine.torch
    if torch is None:
        broken = machine.env.status is EnvStatus.TORCH_BROKEN
        found.reasons.append(Reason(
            ReasonKind.NO_TORCH,
            N_("PyTorch is installed in this Python but fails to import.") if broken
            else N_("PyTorch is not installed in this Python."),
            msg("Install PyTorch into this Python: {fix}.", fix=prerequisite_fix("python-env")),
            fix_check="python-env",
        ))
        return
    torch_v = _torch_version(torch)
    if req.min_torch is not None and torch_v is not None and torch_v < req.min_torch:
        found.reasons.append(Reason(
            ReasonKind.TORCH_TOO_OLD,
            msg("{name} needs PyTorch {need} or newer; this Python has PyTorch {have}.",
                name=name, need=ver_text(req.min_torch), have=torch.version),
            msg("Install PyTorch {need} or newer.", need=ver_text(req.min_torch)),
        ))
    if torch.cuda is None:
        found.gpu_reasons.append(Reason(
            ReasonKind.TORCH_CPU_ONLY,
            msg("PyTorch is a CPU-only build ({version}); {kernel} needs a CUDA build of "
                "PyTorch.", version=torch.version, kernel=found.gpu_name),
            # without a GPU, the Fix installs the CPU build: it cannot help here
            msg("Install a CUDA build of PyTorch into this Python: {fix}.",
                fix=prerequisite_fix("python-env")) if machine.hardware.usable_gpus else
            N_("A CUDA build of PyTorch is of use only on a computer with an NVIDIA GPU and "
               "its driver."),
            fix_check="python-env" if machine.hardware.usable_gpus else "",
        ))


def _check_cuda(found: _Findings) -> None:
    """CUDA, for a CUDA build of PyTorch: the chosen toolkit matches PyTorch's major version
    and is new enough for the version and the GPUs, and the driver can run it."""
    machine = found.machine
    torch_cuda = machine.torch.cuda_version if machine.torch is not None else None
    if torch_cuda is None:
        return
    toolkit = machine.toolkit
    mismatch = toolkit is not None and toolkit[0] != torch_cuda[0]
    if toolkit is not None and mismatch:
        found.gpu_reasons.append(Reason(
            ReasonKind.TOOLKIT_MISMATCH,
            msg("The selected CUDA toolkit {toolkit} does not match the CUDA {torch_cuda} "
                "that PyTorch was built with: the major versions must be the same to build "
                "extensions.", toolkit=cc_text(toolkit), torch_cuda=cc_text(torch_cuda)),
            msg("Choose a CUDA {major}.x toolkit, or a PyTorch built for CUDA "
                "{toolkit_major}.", major=torch_cuda[0], toolkit_major=toolkit[0]),
        ))
    new_enough = _check_cuda_minimum(found, torch_cuda)
    if (machine.os is OsName.WINDOWS and toolkit is not None and toolkit < (12, 4)
            and not mismatch and new_enough):
        found.warnings.append(msg("CUDA {toolkit} is older than 12.4: current Visual Studio "
                                  "2022 C++ libraries refuse it (STL1002); choose CUDA 12.4 "
                                  "or newer.", toolkit=cc_text(toolkit)))
    driver = machine.hardware.cuda_driver_version
    if found.gpus and driver is not None and torch_cuda[0] > driver[0]:
        found.warnings.append(msg("The NVIDIA driver supports CUDA up to {driver}, but PyTorch "
                                  "here uses CUDA {torch_cuda}: update the driver before the "
                                  "kernel can run.", driver=cc_text(driver),
                                  torch_cuda=cc_text(torch_cuda)))


def _check_cuda_minimum(found: _Findings, torch_cuda: tuple[int, int]) -> bool:
    """The strictest CUDA minimum of the version, its targets and the GPUs' archs, against the
    chosen toolkit (or, with none chosen yet, PyTorch's CUDA major). False: too old."""
    req, toolkit = found.req, found.machine.toolkit
    ccs = [parse_cc(a) for a in found.archs]
    strictest = _strictest(_cuda_needs(found.recipe, req, found.selection, ccs))
    kernel = _gpu_part(found.name, req.cpu_fallback, start=True)
    if strictest is None:
        if toolkit is None:
            found.warnings.append(msg("No CUDA toolkit is selected yet: building {kernel} needs "
                                      "one of version {major}.x to match PyTorch.",
                                      kernel=found.gpu_name, major=torch_cuda[0]))
        return True
    need, why = strictest
    if toolkit is not None:
        if toolkit >= need[:2]:
            return True
        found.gpu_reasons.append(Reason(
            ReasonKind.CUDA_TOO_OLD,
            msg("{kernel} needs CUDA {need} or newer{why}; the selected toolkit is "
                "{toolkit}.", kernel=kernel, need=ver_text(need), why=why,
                toolkit=cc_text(toolkit)),
            msg("Install CUDA {need} or newer (with a PyTorch built for the same "
                "CUDA major version).", need=ver_text(need)),
        ))
        return False
    if torch_cuda[0] < need[0]:
        found.gpu_reasons.append(Reason(
            ReasonKind.CUDA_TOO_OLD,
            msg("{kernel} needs CUDA {need} or newer{why}; PyTorch here is built for "
                "CUDA {torch_cuda}, and the toolkit must have the same major version as "
                "PyTorch's.", kernel=kernel, need=ver_text(need), why=why,
                torch_cuda=cc_text(torch_cuda)),
            msg("Install a PyTorch built for CUDA {need} or newer.", need=ver_text(need)),
        ))
        return False
    found.warnings.append(msg(
        "No CUDA toolkit is selected yet: building {kernel} needs CUDA {need} or "
        "newer{why}, version {major}.x to match PyTorch.", kernel=found.gpu_name,
        need=ver_text(need), why=why, major=torch_cuda[0]))
    return True


def _check_python(found: _Findings) -> None:
    """The target Python: inspectable, and within the version's Python range."""
    req, name, label = found.req, found.name, found.version.label
    py = found.machine.python
    if py is None:
        found.reasons.append(Reason(ReasonKind.PYTHON,
                                    N_("The target Python could not be inspected."),
                                    msg("Use a working Python: {where}.",
                                        where=choose_python())))
        return
    if req.min_python is not None and py < req.min_python:
        found.reasons.append(Reason(
            ReasonKind.PYTHON,
            msg("{name} {version} needs Python {need} or newer; the target Python is "
                "{have}.", name=name, version=label, need=ver_text(req.min_python),
                have=ver_text(py)),
            N_("Choose an environment with a newer Python."),
        ))
    if req.max_python is not None and py > req.max_python:
        found.reasons.append(Reason(
            ReasonKind.PYTHON,
            msg("{name} {version} supports Python up to {most}; the target Python is "
                "{have}.", name=name, version=label, most=ver_text(req.max_python),
                have=ver_text(py)),
            N_("Choose an environment with an older Python."),
        ))


def _verdict(found: _Findings) -> Verdict:
    """The findings as a verdict: a CPU fallback turns the GPU reasons into warnings, else
    every reason is listed in the order of :class:`ReasonKind`; then the recipe's own
    warnings for this system and what the wizard does not check."""
    req, system = found.req, found.machine.os
    reasons, warnings = found.reasons, found.warnings
    cpu_only = bool(req.cpu_fallback and found.gpu_reasons)
    if cpu_only:
        for r in found.gpu_reasons:
            warnings.append(msg("{reason} Only the {name}'s CPU part is built here.",
                                reason=r.text, name=found.name))
    else:
        order = list(ReasonKind)
        reasons = sorted(reasons + found.gpu_reasons, key=lambda r: order.index(r.kind))
    if system in req.os_warnings and system in req.os:
        warnings.append(data_text(req.os_warnings[system]))
    for item in req.unchecked:
        warnings.append(msg("Not checked by the wizard: {item}.", item=data_text(item)))
    return Verdict(
        recipe_id=found.recipe.id,
        version=found.version.label,
        reasons=tuple(reasons),
        warnings=tuple(warnings),
        archs=tuple(found.archs),
        cpu_only=cpu_only,
        alternative=found.alternative,
    )


def _cuda_suffix(env: PythonEnv) -> str:
    """'cu13' / 'cu12': NVIDIA's pip packages are per CUDA major, matched to torch's CUDA."""
    cuda = env.torch.cuda_version if env.torch is not None else None
    return f"cu{cuda[0]}" if cuda is not None else "cu13"


def library_reasons(recipe: Recipe, version: RecipeVersion, env: PythonEnv) -> list[Reason]:
    """NCCL / NVSHMEM that ``version``'s build needs and ``env`` lacks (multi-GPU kernels)."""
    req = recipe.requirements
    min_nccl = version.min_nccl or req.min_nccl
    nvshmem = version.nvshmem if version.nvshmem is not None else req.nvshmem
    name = f"{recipe.name} {version.label}"
    python = str(env.executable)
    found: list[Reason] = []
    if min_nccl is not None:
        wanted = ver_text(min_nccl)
        pkg = f"nvidia-nccl-{_cuda_suffix(env)}"
        fix = f'"{python}" -m pip install "{pkg}>={wanted}" --no-deps'
        have: Ver | None = None
        if env.nccl:
            try:
                have = parse_version(env.nccl)
            except ValueError:
                have = None
        if env.nccl is None:
            found.append(Reason(
                ReasonKind.LIBRARY,
                msg("{name} needs NCCL {wanted} or newer in the target Python; none was found "
                    "there.", name=name, wanted=wanted),
                msg("Install it: {command}", command=fix),
            ))
        elif have is not None and have < min_nccl:
            text = (msg("{name} needs NCCL {wanted} or newer; PyTorch's NCCL here is {have}.",
                        name=name, wanted=wanted, have=env.nccl)
                    if env.nccl_source == "torch" else
                    msg("{name} needs NCCL {wanted} or newer; the {package} package's NCCL here "
                        "is {have}.", name=name, wanted=wanted, package=env.nccl_source,
                        have=env.nccl))
            found.append(Reason(
                ReasonKind.LIBRARY,
                text,
                msg("Install a newer NCCL next to PyTorch: {command} (or choose another "
                    "version of {kernel}).", command=fix, kernel=recipe.name),
            ))
    if nvshmem and env.nvshmem is None:
        pkg = f"nvidia-nvshmem-{_cuda_suffix(env)}"
        found.append(Reason(
            ReasonKind.LIBRARY,
            msg("{name} needs NVSHMEM in the target Python; it is not installed there.",
                name=name),
            msg("Install it: {command} (or choose a version of {kernel} that builds without "
                "NVSHMEM).", command=f'"{python}" -m pip install {pkg} --no-deps',
                kernel=recipe.name),
        ))
    return found


def _torch_version(torch: TorchInfo) -> Ver | None:
    try:
        return parse_version(torch.major_minor)
    except ValueError:
        return None


Judge = Callable[[Recipe, RecipeVersion, Machine], Verdict]


def recommended_version(recipe: Recipe, machine: Machine, judge: Judge = assess,
                        ) -> RecipeVersion:
    """The version to preselect: the one marked for this OS if it fits, else the newest that
    fits, else the one marked for this OS (or the newest), so the page can show why not.
    ``judge``: how a version is judged (default :func:`assess`; the session adds what the
    prerequisite checks found)."""
    marked = recipe.recommended_for(machine.os)
    if marked is not None and judge(recipe, marked, machine).available:
        return marked
    for version in reversed(recipe.versions):
        if judge(recipe, version, machine).available:
            return version
    if marked is not None:
        return marked
    # none fits and none is marked for this OS: the one upstream users are pointed to
    return next((v for v in reversed(recipe.versions) if v.recommended), recipe.newest)


def recommended_label(recipe: Recipe, version: RecipeVersion, machine: Machine,
                      judge: Judge = assess) -> bool:
    """Whether ``version`` is shown as "(recommended)": the preselected version, and only when
    it fits (a version that does not fit is never recommended)."""
    return (version is recommended_version(recipe, machine, judge)
            and judge(recipe, version, machine).available)


