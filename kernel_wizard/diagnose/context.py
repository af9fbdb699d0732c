"""Which package a build log belongs to, and that package's own switches.

Advice names a package's own setting (its force-build switch, its GPU-architecture setting, the
GPUs it supports) only when the log's package is known: from the recipe being built (the
wizard's own builds: :func:`context_for_recipe`), or from the log itself ("Building wheel for
causal-conv1d", flash-attn's "Guessing wheel URL: …/flash-attention/releases/…"). Otherwise the
advice says what to look for in words, and never names another package's switch.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from kernel_wizard.base.messages import N_, msg


@dataclass(frozen=True)
class KernelContext:
    """The facts of the package a log belongs to that advice may name."""

    package: str
    arch_setting: str = ""
    force_build: str = ""
    gpu_text: str = ""
    memory_note: str = ""  # how much memory its compiler processes need (its own numbers)
    jobs_setting: str = ""  # its settings for parallel compile jobs and threads

    def facts(self) -> dict[str, str]:
        """Values for the ``{package}``, ``{arch_setting}``, ``{force_build}``, ``{gpu_text}``,
        ``{memory_note}`` and ``{jobs_setting}`` placeholders of failures.toml (generic words
        where not known: never another package's numbers or switches)."""
        generic = GENERIC.facts()
        return {
            "package": self.package or generic["package"],
            "arch_setting": self.arch_setting or generic["arch_setting"],
            "force_build": self.force_build or generic["force_build"],
            "gpu_text": self.gpu_text or generic["gpu_text"],
            "memory_note": self.memory_note or generic["memory_note"],
            "jobs_setting": self.jobs_setting or generic["jobs_setting"],
        }


class _Generic(KernelContext):
    def facts(self) -> dict[str, str]:
        return {
            "package": N_("this package"),
            "arch_setting": N_("the package's own setting for the GPU architectures to build "
                               "(for most PyTorch extensions TORCH_CUDA_ARCH_LIST)"),
            "force_build": N_("the package's own switch that skips the download and builds "
                              "from source, if its setup.py has one"),
            "gpu_text": N_("the GPUs the package's documentation lists"),
            "memory_note": N_("compiling CUDA kernels can take several GB of RAM per compiler "
                              "process"),
            "jobs_setting": N_("MAX_JOBS for most PyTorch extensions"),
        }


GENERIC: KernelContext = _Generic("")

# Packages whose switches are known without a recipe: their own setup.py reads these
# (flash-attention setup.py: FLASH_ATTENTION_FORCE_BUILD, FLASH_ATTN_CUDA_ARCHS;
# Dao-AILab/causal-conv1d setup.py: CAUSAL_CONV1D_FORCE_BUILD; state-spaces/mamba setup.py:
# MAMBA_FORCE_BUILD; deepseek-ai/FlashMLA setup.py: FLASH_MLA_DISABLE_SM90/SM100).
KNOWN: Mapping[str, KernelContext] = {
    "flash-attn": KernelContext(
        "flash-attn", arch_setting="FLASH_ATTN_CUDA_ARCHS (e.g. 80;90)",
        force_build="FLASH_ATTENTION_FORCE_BUILD=TRUE",
        gpu_text=N_("FlashAttention 2 needs an Ampere GPU (RTX 30 series, A100) or newer"),
        memory_note=N_("FlashAttention needs about 5 GB of RAM per compiler thread"),
        jobs_setting=N_("MAX_JOBS, and NVCC_THREADS for FlashAttention's compiler threads")),
    "causal-conv1d": KernelContext("causal-conv1d", force_build="CAUSAL_CONV1D_FORCE_BUILD=TRUE"),
    "mamba-ssm": KernelContext("mamba-ssm", force_build="MAMBA_FORCE_BUILD=TRUE"),
    "flash-mla": KernelContext(
        "FlashMLA",
        arch_setting="FLASH_MLA_DISABLE_SM90 / FLASH_MLA_DISABLE_SM100 (1 leaves that "
        "architecture out)",
        gpu_text=N_("FlashMLA needs a Hopper (SM90) or Blackwell datacenter (SM100) GPU")),
}
_ALIASES = {"flash_attn": "flash-attn", "flash-attention": "flash-attn",
            "causal_conv1d": "causal-conv1d", "mamba_ssm": "mamba-ssm", "mamba": "mamba-ssm",
            "flash_mla": "flash-mla", "flashmla": "flash-mla"}

# The package a log is building: pip's "Building wheel for X", flash-attn-style setup.py's
# "Guessing wheel URL: https://github.com/<org>/<repo>/releases/…".
_PACKAGE_LINE = re.compile(
    r"(?:Building (?:wheel|editable) for|Running setup\.py (?:install|develop) for)\s+"
    r"(?P<name>[A-Za-z0-9][\w.-]*)"
    r"|Guessing wheel URL:\s+\S*github\.com/[\w.-]+/(?P<repo>[\w.-]+)/releases"
)


def package_in_line(line: str) -> str | None:
    """The package a log line says is being built, normalised ("flash-attn"), or None."""
    found = _PACKAGE_LINE.search(line)
    if found is None:
        return None
    name = (found.group("name") or found.group("repo") or "").lower().rstrip(".")
    return _ALIASES.get(name, name) or None


def package_id(name: str) -> str:
    """A package's name as failures.toml names it ("flash-attn" for flash_attn, FlashAttention)."""
    low = name.lower().replace("_", "-")
    return _ALIASES.get(low, _ALIASES.get(low.replace("-", "_"), low))


def context_for_package(name: str) -> KernelContext:
    """What is known of a package by name (from the log), or just its name."""
    return KNOWN.get(_ALIASES.get(name, name), KernelContext(name))


def context_for_recipe(package: str, arch_setting: str, force_build: str,
                       gpu_text: str) -> KernelContext:
    """The context of a recipe's build, from its data (the caller reads the recipe)."""
    known = context_for_package(package.lower().replace("_", "-"))
    return KernelContext(
        package=package,
        arch_setting=arch_setting or known.arch_setting,
        force_build=force_build or known.force_build,
        gpu_text=msg("{package} needs {gpus}", package=package, gpus=gpu_text) if gpu_text
        else known.gpu_text,
        memory_note=known.memory_note,
        jobs_setting=known.jobs_setting,
    )


__all__ = ["GENERIC", "KNOWN", "KernelContext", "context_for_package", "context_for_recipe",
           "package_id", "package_in_line"]
