"""ksw-probe-kernel: the Kernel Setup Wizard's bundled probe extension.

A small but real PyTorch C++/CUDA extension (scaled-dot-product attention, forward and
backward) that the wizard builds in a minute or two to prove that a toolchain can build torch
extensions into the target environment, before it starts an hours-long kernel build.

Build it against the target environment's own torch, always without build isolation:

    python -m pip wheel . --no-build-isolation --no-deps -w dist

Build selection: a CUDAExtension (C++ + CUDA, ``-DKSW_WITH_CUDA``) when torch is a CUDA build,
torch finds a CUDA toolkit (``CUDA_HOME``) and ``KSW_PROBE_CPU_ONLY`` is not ``1``; otherwise a
CPU-only CppExtension. The CUDA architectures come from ``TORCH_CUDA_ARCH_LIST``, as torch
handles it (unset: the visible GPUs' archs, or torch's default list).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_py import build_py

try:
    import torch
    from torch.utils import cpp_extension
except ImportError as exc:  # pragma: no cover - exercised only in a misconfigured build
    raise SystemExit(
        "ksw-probe-kernel: torch is not importable in the build environment "
        f"({exc}). Build with `pip wheel . --no-build-isolation` from the Python that has the "
        "torch this extension is for."
    ) from exc

NAME = "ksw-probe-kernel"
VERSION = "0.1.0"
HERE = os.path.dirname(os.path.abspath(__file__))


def _want_cuda() -> tuple[bool, str]:
    if os.environ.get("KSW_PROBE_CPU_ONLY", "").strip() == "1":
        return False, "KSW_PROBE_CPU_ONLY=1"
    if torch.version.cuda is None:
        return False, f"torch {torch.__version__} is not a CUDA build"
    if cpp_extension.CUDA_HOME is None:
        return False, "no CUDA toolkit found (CUDA_HOME/CUDA_PATH, nvcc on PATH)"
    return True, f"torch CUDA {torch.version.cuda}, toolkit at {cpp_extension.CUDA_HOME}"


def _make_ninja_visible() -> bool:
    """torch looks for `ninja` on PATH only. A venv's python run without activating the venv
    has the venv's ninja off PATH: put it there for this build (this process only)."""
    if shutil.which("ninja"):
        return True
    candidates = [sysconfig.get_path("scripts"), os.path.dirname(sys.executable)]
    try:  # the `ninja` PyPI package knows where its binary is
        import ninja  # type: ignore[import-not-found]

        candidates.insert(0, getattr(ninja, "BIN_DIR", ""))
    except ImportError:
        pass
    for folder in candidates:
        if folder and shutil.which("ninja", path=folder):
            os.environ["PATH"] = folder + os.pathsep + os.environ.get("PATH", "")
            return True
    return False


def _arch_list(with_cuda: bool) -> list[str]:
    """The CUDA archs this build compiles for, as "8.6", "9.0+PTX", ... ([] without CUDA)."""
    if not with_cuda:
        return []
    env = os.environ.get("TORCH_CUDA_ARCH_LIST", "").strip()
    if env:
        return [a for a in re.split(r"[;\s]+", env) if a]
    # Unset: ask torch which flags it will use (private helper, so guarded).
    try:
        flags = cpp_extension._get_cuda_arch_flags()  # noqa: SLF001
    except Exception:  # noqa: BLE001
        return []
    archs: list[str] = []
    for flag in flags:
        m = re.search(r"arch=compute_(\d+)(\w?),code=(sm|compute)_\d+", flag)
        if m:
            cc = m.group(1)
            name = f"{cc[:-1]}.{cc[-1]}{m.group(2)}" + ("+PTX" if m.group(3) == "compute" else "")
            if name.endswith("+PTX") and name[: -len("+PTX")] in archs:
                archs.remove(name[: -len("+PTX")])
            if name not in archs:
                archs.append(name)
    return archs


WITH_CUDA, CUDA_REASON = _want_cuda()
HAVE_NINJA = _make_ninja_visible()
ARCHS = _arch_list(WITH_CUDA)
print(
    f"ksw-probe-kernel {VERSION}: building {'CUDA + CPU' if WITH_CUDA else 'CPU-only'} "
    f"({CUDA_REASON}); torch {torch.__version__}; ninja {'yes' if HAVE_NINJA else 'no'}"
    + (f"; archs {' '.join(ARCHS) or '(torch default)'}" if WITH_CUDA else ""),
    flush=True,
)

if sys.platform == "win32":
    CXX_FLAGS = ["/O2"]
else:
    CXX_FLAGS = ["-O3", "-g0"]  # -g0: Python's own CFLAGS may carry -g (a 4x larger binary)
NVCC_FLAGS = ["-O3"]

if WITH_CUDA:
    ext = cpp_extension.CUDAExtension(
        name="ksw_probe._C",
        sources=["csrc/probe_attention.cpp", "csrc/probe_attention_cuda.cu"],
        define_macros=[("KSW_WITH_CUDA", None)],
        extra_compile_args={"cxx": CXX_FLAGS, "nvcc": NVCC_FLAGS},
    )
else:
    ext = cpp_extension.CppExtension(
        name="ksw_probe._C",
        sources=["csrc/probe_attention.cpp"],
        extra_compile_args={"cxx": CXX_FLAGS},
    )


class BuildPyWithInfo(build_py):
    """Writes ksw_probe/_build_info.py into the build tree (never into the source folder)."""

    def run(self) -> None:
        super().run()
        if self.dry_run:
            return
        target = os.path.join(self.build_lib, "ksw_probe", "_build_info.py")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as fh:
            fh.write('"""Generated by setup.py at build time. Do not edit."""\n\n')
            fh.write(f"VERSION = {VERSION!r}\n")
            fh.write(f"CUDA = {WITH_CUDA!r}\n")
            fh.write(f"CUDA_REASON = {CUDA_REASON!r}\n")
            fh.write(f"CUDA_ARCH_LIST = {ARCHS!r}\n")
            fh.write(
                f"TORCH_CUDA_ARCH_LIST_ENV = {os.environ.get('TORCH_CUDA_ARCH_LIST') or None!r}\n"
            )
            fh.write(f"TORCH_VERSION = {torch.__version__!r}\n")
            fh.write(f"TORCH_CUDA_VERSION = {torch.version.cuda!r}\n")
            fh.write(f"NINJA = {HAVE_NINJA!r}\n")


setup(
    name=NAME,
    version=VERSION,
    description="Kernel Setup Wizard probe: a small attention extension that proves a "
    "PyTorch C++/CUDA toolchain works",
    license="MIT",
    python_requires=">=3.10",
    packages=["ksw_probe"],
    ext_modules=[ext],
    cmdclass={
        "build_ext": cpp_extension.BuildExtension.with_options(use_ninja=HAVE_NINJA),
        "build_py": BuildPyWithInfo,
    },
    zip_safe=False,
)
