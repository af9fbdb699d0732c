"""How many realistic users get a prebuilt kernel wheel without compiling.

    python benchmarks/wheel_coverage.py            # a table per kernel and OS, then the misses
    python benchmarks/wheel_coverage.py --json     # the same as JSON

The users: every GPU family (Ampere RTX 3090 cc 8.6, Ada RTX 4090 cc 8.9, Hopper H100 cc 9.0,
Blackwell RTX 5090 cc 12.0) × PyTorch 2.4 ... 2.13 × Python 3.10 ... 3.13 × Linux x86_64 and
Windows x64, for FlashAttention 2, FlashAttention 3 and SageAttention 2, each counted only
where the kernel supports the GPU (the recipe's compute capabilities: FA3 is Hopper only) and
where that PyTorch exists for that Python and GPU (below). Each user's PyTorch is the CUDA
build ``pip install torch`` gives for that release (TORCH_CUDA below); a Blackwell user needs
a CUDA 12.8+ build and takes PyTorch's cu128 build where the default is older (none exists
before 2.7, so Blackwell users of 2.4 ... 2.6 are not counted). Linux PyTorch from 2.7 on is
built with the C++11 ABI, before 2.7 without it; Windows has no such flag.

For each user the wizard's own matching decides (:func:`candidate_wheel_urls` over the
publishers' lists in resources/wheels, exactly as the Kernel page asks it): "recommended" is
the version the wizard proposes for that OS (the recipe's recommended one, else the newest),
"any version" is whether some version of the kernel has a matching wheel (the Kernel page lets
the user pick another version). Only wheels known to exist count: a publisher's listed wheel,
or upstream's computed name inside that release's build matrix (while upstream's release list
could not be read); an unlisted upstream URL, which the wizard offers as "may not exist", does
not.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from kernel_wizard.catalog import Catalog, OsName, Recipe, load_catalog
from kernel_wizard.catalog.wheels import candidate_wheel_urls, load_wheel_list, proposed_version
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo

# The CUDA of the wheel ``pip install torch==X.Y`` installs (Linux: PyPI's wheel; Windows:
# the same CUDA from download.pytorch.org, as PyPI's Windows wheels are CPU-only). From the
# "Previous PyTorch versions" page (pytorch.org/get-started/previous-versions) for 2.4 ... 2.9
# (2.4: 12.1, 2.5 and 2.6: 12.4, 2.7: 12.6, 2.8 and 2.9: 12.8); 2.10 keeps 12.8; 2.11 on
# default to CUDA 13.0 (shared/knowledge: the 2.11+cu130 builds used on the lent machines;
# issue 33's ComfyUI portable with 2.13 + cu130).
TORCH_CUDA: dict[str, str] = {
    "2.4": "12.1", "2.5": "12.4", "2.6": "12.4", "2.7": "12.6", "2.8": "12.8", "2.9": "12.8",
    "2.10": "12.8", "2.11": "13.0", "2.12": "13.0", "2.13": "13.0",
}
# The Pythons each PyTorch publishes wheels for, within 3.10 ... 3.13 (2.4: up to 3.12).
TORCH_PYTHONS: dict[str, tuple[str, ...]] = {
    v: ("3.10", "3.11", "3.12") if v == "2.4" else ("3.10", "3.11", "3.12", "3.13")
    for v in TORCH_CUDA
}
BLACKWELL_CUDA = "12.8"  # the oldest CUDA build of PyTorch that runs on cc 12.0
GPUS: dict[str, tuple[int, int]] = {
    "Ampere": (8, 6), "Ada": (8, 9), "Hopper": (9, 0), "Blackwell": (12, 0),
}
KERNELS = ("flash_attn", "flash_attn_3", "sageattention")
PLATFORMS: dict[OsName, str] = {OsName.LINUX: "linux_x86_64", OsName.WINDOWS: "win_amd64"}


@dataclass(frozen=True)
class User:
    gpu: str
    torch: str  # "2.8"
    cuda: str  # "12.8"
    python: str  # "3.12"
    os: str  # "linux" / "windows"


@dataclass(frozen=True)
class Outcome:
    user: User
    recommended: str | None  # the wheel for the proposed version, if any
    any_version: str | None  # a wheel for some version (the newest version that has one)


def users(os: OsName) -> Iterator[User]:
    for gpu, cc in GPUS.items():
        for torch, cuda in TORCH_CUDA.items():
            if cc >= (12, 0) and tuple(map(int, cuda.split("."))) < (12, 8):
                if torch in ("2.4", "2.5", "2.6"):
                    continue  # no PyTorch build of these runs on Blackwell
                cuda = BLACKWELL_CUDA
            for python in TORCH_PYTHONS[torch]:
                yield User(gpu, torch, cuda, python, os.value)


def environment(user: User) -> PythonEnv:
    """What the wizard's environment probe reports for this user's Python."""
    torch = TorchInfo(version=f"{user.torch}.0+cu{user.cuda.replace('.', '')}", cuda=user.cuda,
                      cuda_available=True, device_count=1, arch_list=(),
                      cxx11_abi=user.os == "linux" and tuple(map(int, user.torch.split(".")))
                      >= (2, 7))
    major, minor = user.python.split(".")
    return PythonEnv(executable=Path("python"), status=EnvStatus.READY, summary="",
                     version=f"{user.python}.0", platform_tag=PLATFORMS[OsName(user.os)],
                     interpreter_tag=f"cp{major}{minor}", implementation="CPython", torch=torch)


def outcome(recipe: Recipe, user: User) -> Outcome:
    env = environment(user)
    marked = recipe.recommended_for(OsName(user.os)) or recipe.newest
    # what the wizard proposes (Session.recommended_version's rule; every version counted as
    # fitting the user's GPU, which the matrix already chose by the kernel's GPU families)
    proposed = proposed_version(recipe, marked, env, lambda _version: True)

    def wheel(version_index: int) -> str | None:
        version = recipe.versions[version_index]
        found = [c for c in candidate_wheel_urls(recipe, version, env)
                 if c.match.matched and c.listed]  # not an unlisted upstream URL (a maybe-404)
        return found[0].filename if found else None

    recommended = wheel(recipe.versions.index(proposed))
    any_version = recommended or next(
        (w for i in reversed(range(len(recipe.versions))) if (w := wheel(i)) is not None), None)
    return Outcome(user, recommended, any_version)


def coverage(catalog: Catalog) -> dict[str, dict[str, list[Outcome]]]:
    """Per kernel and OS, the outcome for every user the kernel supports there."""
    table: dict[str, dict[str, list[Outcome]]] = defaultdict(dict)
    for kernel in KERNELS:
        recipe = catalog.get(kernel)
        for os in PLATFORMS:
            if os not in recipe.requirements.os:
                continue
            table[kernel][os.value] = [
                outcome(recipe, u) for u in users(os)
                if recipe.requirements.cc_ok(GPUS[u.gpu])]
    return table


def share(outcomes: list[Outcome], field: str) -> float:
    return sum(1 for o in outcomes if getattr(o, field)) / len(outcomes) if outcomes else 0.0


def misses(outcomes: list[Outcome]) -> list[str]:
    """The PyTorch/CUDA/Python combinations with no wheel in any version (GPUs merged)."""
    missing = sorted({(tuple(map(int, o.user.torch.split("."))), o.user.cuda, o.user.python)
                      for o in outcomes if o.any_version is None})
    return [f"torch {'.'.join(map(str, t))} cu{c.replace('.', '')} py{p}"
            for t, c, p in missing]


def lists_read() -> dict[str, str]:
    catalog = load_catalog()
    names = {s.wheel_list for k in KERNELS for s in catalog.get(k).wheel_sources if s.wheel_list}
    return {n: f"{load_wheel_list(n).read}, {len(load_wheel_list(n).wheels or ())} wheels"
            for n in sorted(names)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    table = coverage(load_catalog())
    if args.json:
        out = {"wheel_lists": lists_read(), "torch_cuda": TORCH_CUDA, "kernels": {
            kernel: {os: {"users": len(o), "recommended": round(share(o, "recommended"), 4),
                          "any_version": round(share(o, "any_version"), 4),
                          "misses": misses(o),
                          "outcomes": [asdict(x) for x in o]}
                     for os, o in per_os.items()}
            for kernel, per_os in table.items()}}
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    print("Wheel lists: " + "; ".join(f"{k} ({v})" for k, v in lists_read().items()))
    print(f"{'kernel':<14}{'OS':<9}{'users':>6}{'recommended':>13}{'any version':>13}")
    for kernel, per_os in table.items():
        for os, o in per_os.items():
            print(f"{kernel:<14}{os:<9}{len(o):>6}{share(o, 'recommended'):>12.1%}"
                  f"{share(o, 'any_version'):>13.1%}")
    for kernel, per_os in table.items():
        for os, o in per_os.items():
            missing = misses(o)
            if missing:
                print(f"\n{kernel} on {os}: no wheel in any version for {len(missing)} "
                      f"combination(s): " + ", ".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
