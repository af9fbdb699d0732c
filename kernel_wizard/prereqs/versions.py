"""Which CUDA toolkit and which PyTorch CUDA build fit a machine: small tables and pickers.

Facts and where they come from:

* ``CUDA_RELEASES``: the newest patch release of each CUDA minor version that has a Windows
  network installer, as listed by the Jimver/cuda-toolkit GitHub action
  (``src/links/windows-links.ts`` at commit 3d45d157, March 2026). URL pattern from
  shared/knowledge/toolchain.md.
* Compute capability support: CUDA 13.0 removed compilation for cc < 7.5 and sm_120 needs
  CUDA ≥ 12.8 (toolchain.md). The other first-supported versions (sm_89/sm_90 in 11.8, sm_100
  in 12.8, sm_103 and sm_121 in 12.9, sm_110 in 13.0) are from NVIDIA's release notes as best
  known; a capability newer than the table is reported as unknown, not as unsupported.
* PyTorch CUDA wheel indexes ``https://download.pytorch.org/whl/cuXYZ`` (toolchain.md): which
  torch versions each index holds changes with every release; the newest index the driver
  supports is chosen.
* Windows installer subpackages are ``<name>_<major>.<minor>``. A torch extension needs the
  compiler, the runtime and the headers/import libraries of cuBLAS, cuSPARSE, cuSOLVER and
  cuRAND (ATen's CUDA headers include them) plus Thrust/CUB (the set PyTorch-style CI scripts
  install). From CUDA 13 the compiler's ``include/crt`` headers and NVVM are separate
  subpackages (``crt_13.x``, ``nvvm_13.x``): without them ``host_config.h`` is missing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Release = tuple[int, int]
FullVersion = tuple[int, int, int]

CUDA_RELEASES: tuple[FullVersion, ...] = (
    (13, 2, 0),
    (13, 1, 1),
    (13, 0, 2),
    (12, 9, 1),
    (12, 8, 1),
    (12, 6, 3),
    (12, 5, 1),
    (12, 4, 1),
    (12, 3, 2),
    (12, 2, 2),
    (12, 1, 1),
    (12, 0, 1),
    (11, 8, 0),
)

CUDA_NETWORK_INSTALLER = (
    "https://developer.download.nvidia.com/compute/cuda/{v}/network_installers/"
    "cuda_{v}_windows_network.exe"
)

# The first CUDA release that compiles for each compute capability (sm_XY).
MIN_CUDA_FOR_CC: dict[Release, Release] = {
    (5, 0): (6, 0), (5, 2): (6, 5), (6, 0): (8, 0), (6, 1): (8, 0), (7, 0): (9, 0),
    (7, 2): (10, 0), (7, 5): (10, 0), (8, 0): (11, 0), (8, 6): (11, 1), (8, 7): (11, 4),
    (8, 9): (11, 8), (9, 0): (11, 8), (10, 0): (12, 8), (10, 3): (12, 9), (11, 0): (13, 0),
    (12, 0): (12, 8), (12, 1): (12, 9),
}
# The lowest compute capability each CUDA major still compiles for.
MIN_CC_FOR_CUDA_MAJOR: dict[int, Release] = {11: (3, 5), 12: (5, 0), 13: (7, 5)}

# PyTorch's CUDA wheel indexes, newest first.
TORCH_CUDA_INDEXES: tuple[Release, ...] = (
    (13, 0), (12, 9), (12, 8), (12, 6), (12, 4), (12, 1), (11, 8),
)
TORCH_INDEX_BASE = "https://download.pytorch.org/whl/"

# Driver minimums (toolchain.md): CUDA 13.x needs ≥ 580, CUDA 12.x ≥ 525 (Linux).
DRIVER_FOR_CUDA_MAJOR: dict[int, str] = {13: "580", 12: "525 (Linux) / 528.33 (Windows)"}


def vtext(version: Sequence[int] | None) -> str:
    return ".".join(str(v) for v in version) if version else "unknown"


def installer_url(version: FullVersion) -> str:
    text = vtext(version)
    return CUDA_NETWORK_INSTALLER.format(v=text)


def full_release(release: Release) -> FullVersion | None:
    """The newest known patch release of ``release``: (13, 0) → (13, 0, 2)."""
    for full in CUDA_RELEASES:
        if full[:2] == release:
            return full
    return None


def cc_support(release: Release, cc: Release) -> tuple[bool | None, str]:
    """Whether CUDA ``release`` compiles for compute capability ``cc``, and why not.

    (None, reason) when ``cc`` is newer than this table knows.
    """
    lowest = MIN_CC_FOR_CUDA_MAJOR.get(release[0])
    if lowest is not None and cc < lowest:
        return False, (
            f"CUDA {vtext(release)} no longer compiles for compute capability {vtext(cc)} "
            f"(CUDA {release[0]} needs {vtext(lowest)} or newer)"
        )
    first = MIN_CUDA_FOR_CC.get(cc)
    if first is None:
        if cc > max(MIN_CUDA_FOR_CC):
            return None, f"compute capability {vtext(cc)} is newer than this wizard knows"
        return True, ""
    if release < first:
        return False, (
            f"compute capability {vtext(cc)} (sm_{cc[0]}{cc[1]}) needs CUDA {vtext(first)} or "
            f"newer"
        )
    return True, ""


def release_fits(release: Release, driver: Release | None, ccs: Iterable[Release]) -> bool:
    if driver is not None and release > driver:
        return False
    return all(cc_support(release, cc)[0] is not False for cc in ccs)


def pick_torch_cuda(driver: Release | None, ccs: Iterable[Release]) -> Release | None:
    """The newest PyTorch CUDA index the driver supports and that covers every GPU."""
    wanted = list(ccs)
    if driver is None:
        return None
    for release in TORCH_CUDA_INDEXES:
        if release_fits(release, driver, wanted):
            return release
    return None


def torch_index_url(release: Release) -> str:
    return f"{TORCH_INDEX_BASE}cu{release[0]}{release[1]}"


def pick_cuda_release(
    torch_cuda: Release | None, driver: Release | None, ccs: Iterable[Release]
) -> FullVersion | None:
    """The toolkit to install: torch's own CUDA version when known (a major mismatch is an
    error in torch, a minor one only a warning, so the exact one is best), else the newest
    one of torch's major; without torch, the CUDA of the PyTorch build that fits the driver.
    Never newer than the driver supports, always one that compiles for every GPU."""
    wanted = list(ccs)
    target = torch_cuda if torch_cuda is not None else pick_torch_cuda(driver, wanted)
    fitting = [v for v in CUDA_RELEASES if release_fits(v[:2], driver, wanted)]
    if target is not None:
        exact = [v for v in fitting if v[:2] == target]
        if exact:
            return exact[0]
        same_major = [v for v in fitting if v[0] == target[0] and v[:2] <= target]
        same_major = same_major or [v for v in fitting if v[0] == target[0]]
        return same_major[0] if same_major else None
    return fitting[0] if fitting else None


def windows_cuda_components(release: Release) -> tuple[str, ...]:
    """The installer subpackages a torch extension build needs, e.g. 'nvcc_13.0'."""
    names = ["nvcc", "cudart", "cublas", "cublas_dev", "cusparse", "cusparse_dev", "cusolver",
             "cusolver_dev", "curand", "curand_dev", "nvrtc", "nvrtc_dev", "thrust", "nvtx"]
    if release >= (13, 0):
        names[1:1] = ["crt", "nvvm"]
    suffix = f"_{release[0]}.{release[1]}"
    return tuple(name + suffix for name in names)


__all__ = [
    "CUDA_RELEASES",
    "DRIVER_FOR_CUDA_MAJOR",
    "MIN_CUDA_FOR_CC",
    "TORCH_CUDA_INDEXES",
    "cc_support",
    "full_release",
    "installer_url",
    "pick_cuda_release",
    "pick_torch_cuda",
    "release_fits",
    "torch_index_url",
    "vtext",
    "windows_cuda_components",
]
