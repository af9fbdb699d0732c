"""CUDA toolkits installed on this machine, and the one a build should use.

Discovery follows torch's own order of trust (``CUDA_HOME``, ``CUDA_PATH``, the Windows
installers' ``CUDA_PATH_Vx_y``, ``nvcc`` on PATH, the default folders); each candidate's
version is what its own ``nvcc --version`` says, never the folder name alone.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.base.errors import WizardError
from kernel_wizard.machine.platforms import Platform
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.machine.toolchain import (
    CudaVersion,
    cccl_include_dir,
    cuda_candidates_from_env,
    cuda_candidates_from_folders,
    run_nvcc_version,
)


@dataclass(frozen=True)
class CudaToolkit:
    root: Path
    nvcc: Path
    version: CudaVersion | None  # None: nvcc did not run or did not answer
    origin: str  # "CUDA_HOME", "nvcc on PATH", "folder", ...
    error: str = ""  # why version is None

    @property
    def release(self) -> tuple[int, int] | None:
        return self.version.release if self.version is not None else None

    @property
    def label(self) -> str:
        version = self.version.text if self.version else "unknown version"
        return f"CUDA {version} at {self.root}"

    @property
    def cccl_include(self) -> Path | None:
        """``<root>/include/cccl`` when this is CUDA 13+ and the folder exists."""
        return cccl_include_dir(self.root, self.version) if self.version else None

    def bin_dirs(self, os_name: str) -> list[Path]:
        """The folders of this toolkit that go first on a child's PATH (:func:`cuda_bin_dirs`)."""
        return cuda_bin_dirs(self.root, self.release, os_name)


def cuda_bin_dirs(cuda_home: Path, version: tuple[int, int] | None, os_name: str) -> list[Path]:
    """The folders of a toolkit that go on PATH, first first: ``bin`` (nvcc), and on Windows
    from CUDA 13 on ``bin\\x64`` in front of it, where the runtime DLLs moved
    (``cudart64_13.dll``, ``cublas64_13.dll``...; CUDA 13's installer leaves only ``bin`` on
    PATH, so a build or a verification that loads them fails with "DLL load failed")."""
    if os_name == "windows" and version is not None and version >= (13, 0):
        return [cuda_home / "bin" / "x64", cuda_home / "bin"]
    return [cuda_home / "bin"]


def runtime_path(toolkits: Sequence[CudaToolkit], torch_cuda: tuple[int, int] | None,
                 os_name: str) -> list[Path]:
    """What a verification of a kernel gets first on PATH: the folders of the toolkit a build
    for torch's CUDA uses (:func:`choose_toolkit`), so that on Windows CUDA 13's runtime DLLs
    in ``bin\\x64`` are found; [] when no toolkit works."""
    chosen = choose_toolkit(toolkits, torch_cuda)
    return chosen.bin_dirs(os_name) if chosen is not None else []


def discover_toolkits(
    platform: Platform | None = None, environ: Mapping[str, str] | None = None
) -> list[CudaToolkit]:
    """Every CUDA toolkit found, in the order of trust, each with its nvcc's version."""
    plat = platform if platform is not None else current_platform()
    env = environ if environ is not None else os.environ
    nvcc_name = plat.executable("nvcc")
    roots: list[tuple[Path, str]] = [(c.root, c.origin) for c in cuda_candidates_from_env(env)]
    on_path = shutil.which(nvcc_name, path=env.get("PATH"))
    if on_path:
        roots.append((Path(on_path).resolve().parent.parent, "nvcc on PATH"))
    roots += [(c.root, "default folder") for c in cuda_candidates_from_folders(
        plat.cuda_toolkit_folders())]
    found: list[CudaToolkit] = []
    seen: set[Path] = set()
    for root, origin in roots:
        try:
            key = root.resolve()
        except OSError:
            key = root
        if key in seen:
            continue
        seen.add(key)
        nvcc = root / "bin" / nvcc_name
        if not nvcc.is_file() or not (root / "include" / "cuda_runtime.h").is_file():
            continue  # e.g. /usr/local/bin/nvcc as a wrapper script: not a toolkit root
        try:
            version: CudaVersion | None = run_nvcc_version(nvcc)
            error = ""
        except WizardError as exc:
            version, error = None, exc.describe()
        found.append(CudaToolkit(root, nvcc, version, origin, error))
    return found


def choose_toolkit(
    toolkits: Sequence[CudaToolkit], torch_cuda: tuple[int, int] | None
) -> CudaToolkit | None:
    """The toolkit to build with: torch's exact CUDA if present, else the newest of torch's
    major (a minor mismatch only warns in torch), else the first working one."""
    working = [t for t in toolkits if t.release is not None]
    if not working:
        return None
    if torch_cuda is None:
        return working[0]
    exact = [t for t in working if t.release == torch_cuda]
    if exact:
        return exact[0]
    same_major = [t for t in working if t.release and t.release[0] == torch_cuda[0]]
    if same_major:
        return max(same_major, key=lambda t: t.release or (0, 0))
    return working[0]


@dataclass(frozen=True)
class ToolkitChoice:
    """The CUDA toolkit decision: every toolkit found and the one a build for ``torch_cuda``
    uses (None: a CPU-only PyTorch, or none works). The session makes it once
    (:meth:`~kernel_wizard.flow.session.Session.toolkit_choice`) and passes it down to the plan, the
    pipeline, the machine and the prerequisite facts, which take it as decided."""

    found: tuple[CudaToolkit, ...]
    chosen: CudaToolkit | None
    torch_cuda: tuple[int, int] | None

    @classmethod
    def of(cls, found: Sequence[CudaToolkit],
           torch_cuda: tuple[int, int] | None) -> ToolkitChoice:
        chosen = choose_toolkit(found, torch_cuda) if torch_cuda is not None else None
        return cls(tuple(found), chosen, torch_cuda)

    @property
    def release(self) -> tuple[int, int] | None:
        return self.chosen.release if self.chosen is not None else None


def decide_toolkit(
    toolkits: Sequence[CudaToolkit] | ToolkitChoice | None,
    torch_cuda: tuple[int, int] | None,
    platform: Platform | None = None,
) -> ToolkitChoice:
    """A decision made already (the session's) is kept as it is. For direct callers of the
    core API (tests, ``make_plan``): choose among the toolkits given, or among those found here
    when none are given (nvcc runs then; not at all for a CPU-only PyTorch)."""
    if isinstance(toolkits, ToolkitChoice):
        return toolkits
    if toolkits is None:
        toolkits = discover_toolkits(platform) if torch_cuda is not None else []
    return ToolkitChoice.of(toolkits, torch_cuda)
