"""What the Kernel page preselects, and the two ways to get a kernel: prebuilt or built.

:func:`recommend_kernel` picks the kernel a newcomer should start with on this machine: with a
CUDA build of PyTorch and a usable GPU, the most specialised library that fits (the one whose
oldest supported GPU is newest: FlashMLA on a Hopper GPU, FlashAttention 2 on an Ampere one);
otherwise the bundled probe kernel, which builds at least its CPU part anywhere, so that every
step of the wizard can be walked on any machine. :func:`how_to_get` lists the matching prebuilt
wheels of a version and estimates the source build on this machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kernel_wizard.base.advice import prerequisite_fix
from kernel_wizard.base.messages import msg
from kernel_wizard.build.buildtimes import load_records
from kernel_wizard.build.plan import BuildEstimate, estimate_build
from kernel_wizard.catalog import (
    CC,
    Catalog,
    Judge,
    Machine,
    Recipe,
    RecipeVersion,
    SourceKind,
    Verdict,
    assess,
    cc_text,
    recommended_version,
)
from kernel_wizard.catalog.wheels import WheelCandidate, candidate_wheel_urls
from kernel_wizard.machine.hardware import GpuInfo

PREBUILT_SECONDS = 120.0  # download and install of a prebuilt wheel: about two minutes


def is_probe(recipe: Recipe) -> bool:
    """The bundled toolchain check: a source shipped with the wizard that falls back to its CPU
    part where no GPU build is possible."""
    return recipe.source.kind is SourceKind.LOCAL and recipe.requirements.cpu_fallback


@dataclass(frozen=True)
class KernelPick:
    recipe: Recipe
    version: RecipeVersion
    verdict: Verdict
    why: str  # one line: why this one


def _oldest_gpu(recipe: Recipe) -> CC:
    """The oldest compute capability the recipe runs on (higher: more specialised)."""
    req = recipe.requirements
    floors = [c for c in (req.min_cc, min(req.supported_cc, default=None)) if c is not None]
    return max(floors, default=(0, 0))


def describe_gpus(gpus: Sequence[GpuInfo]) -> str:
    """'your NVIDIA H100 80GB HBM3 (Hopper, cc 9.0)' / 'your 2 selected GPUs (Hopper, Ampere)'."""
    known = [g for g in gpus if g.compute_capability is not None]
    if len(known) == 1:
        g = known[0]
        cc = g.compute_capability
        assert cc is not None
        return msg("your {name} ({arch}, cc {cc})", name=g.name or msg("NVIDIA GPU"),
                   arch=g.arch, cc=cc_text(cc))
    archs = ", ".join(dict.fromkeys(g.arch for g in known))
    return msg("your {count} selected GPUs ({archs})", count=len(known), archs=archs)


def recommend_kernel(catalog: Catalog, machine: Machine, judge: Judge = assess,
                     ) -> KernelPick | None:
    """The kernel and version to preselect, and why; None for an empty catalog. ``judge``:
    how a kernel version is judged (the session's adds what the prerequisites found)."""
    torch = machine.torch
    gpu_ready = torch is not None and torch.cuda_version is not None and bool(machine.gpus)
    if gpu_ready:
        fits: list[tuple[CC, int, Recipe, RecipeVersion, Verdict]] = []
        for order, recipe in enumerate(catalog):
            if is_probe(recipe):
                continue
            version = recommended_version(recipe, machine, judge)
            verdict = judge(recipe, version, machine)
            if verdict.available and not verdict.cpu_only:
                fits.append((_oldest_gpu(recipe), -order, recipe, version, verdict))
        if fits:
            _, _, recipe, version, verdict = max(fits, key=lambda f: (f[0], f[1]))
            others = len(fits) - 1
            gpus = describe_gpus(machine.gpus)
            if not others:
                why = msg("{kernel} is the most specialised library that fits {gpus}.",
                          kernel=recipe.name, gpus=gpus)
            elif others == 1:
                why = msg("{kernel} is the most specialised library that fits {gpus}; 1 other "
                          "library fits too.", kernel=recipe.name, gpus=gpus)
            else:
                why = msg("{kernel} is the most specialised library that fits {gpus}; {others} "
                          "other libraries fit too.", kernel=recipe.name, gpus=gpus,
                          others=others)
            return KernelPick(recipe, version, verdict, why)
    probes = [r for r in catalog if is_probe(r)]
    candidates = probes or list(catalog)
    if not candidates:
        return None
    recipe = candidates[0]
    version = recommended_version(recipe, machine, judge)
    verdict = judge(recipe, version, machine)
    if not probes:
        why = msg("{kernel} is the first kernel of the catalog.", kernel=recipe.name)
    elif torch is None:
        why = msg("PyTorch is not installed in the chosen Python, and every kernel needs it; "
                  "install it first ({fix}).", fix=prerequisite_fix("python-env"))
    elif not machine.hardware.usable_gpus:
        why = msg("There is no usable NVIDIA GPU here, so the {kernel} is the one that fits: "
                  "it builds its CPU part, so you can walk through every step of the wizard.",
                  kernel=recipe.name)
    elif torch.cuda_version is None:
        why = msg("PyTorch here is a CPU-only build, so no GPU library can be built yet; the "
                  "{kernel} builds its CPU part and proves the toolchain works.",
                  kernel=recipe.name)
    elif not machine.gpus:
        why = msg("No GPU is selected; the {kernel} builds its CPU part. Select a GPU to see "
                  "which libraries fit.", kernel=recipe.name)
    else:
        why = msg("None of the libraries fits {gpus} yet (select one to see why); the {kernel} "
                  "proves the toolchain works in a few minutes.",
                  gpus=describe_gpus(machine.gpus), kernel=recipe.name)
    return KernelPick(recipe, version, verdict, why)


@dataclass(frozen=True)
class HowToGet:
    """The ways to get one kernel version into the target environment."""

    wheels: tuple[WheelCandidate, ...]  # matching prebuilt wheels, the best first
    build: BuildEstimate  # a source build on this machine

    @property
    def prebuilt(self) -> WheelCandidate | None:
        return self.wheels[0] if self.wheels else None


def how_to_get(
    recipe: Recipe, version: RecipeVersion, verdict: Verdict, machine: Machine,
    variant: str | None = None,
) -> HowToGet:
    """The matching prebuilt wheels and the source build's estimate (for ``variant``, the
    recipe's build variant; None: its default)."""
    matching = [c for c in candidate_wheel_urls(recipe, version, machine.env) if c.match.matched]
    wheels = tuple(sorted(matching, key=lambda c: not c.listed))  # upstream's own list first
    return HowToGet(wheels, source_build_estimate(recipe, version, verdict, machine, variant))


def source_build_estimate(recipe: Recipe, version: RecipeVersion, verdict: Verdict,
                          machine: Machine, variant: str | None = None) -> BuildEstimate:
    """How long a source build of ``variant`` (None: the default) should take here: the
    user's own last build of it first, else the recipe's cost model."""
    return estimate_build(recipe, version, list(verdict.archs), machine.cpu_cores,
                          machine.ram_gb, machine.os, cpu_only=verdict.cpu_only,
                          records=load_records(), variant=recipe.variant(variant))


def minutes_text(seconds: float) -> str:
    """'2 min', '49 min', '1 h 50 min', '2 h' (rounded to minutes, at least 1 min)."""
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return msg("{minutes} min", minutes=minutes)
    hours, rest = divmod(minutes, 60)
    return (msg("{hours} h {minutes} min", hours=hours, minutes=rest) if rest
            else msg("{hours} h", hours=hours))
