"""What a user sees on real excerpts of late set l (tests/data/logs/late-2026-11-29l, issue 31),
the classes its one blind scoring got wrong or missed: NVIDIA CUDA missing on macOS is the
platform (never "install the CUDA toolkit"); a Windows DLL named by any loader is a DLL dependency
missing, the same loader naming a Linux .so is not; conda's and mamba's solver not finding a
package is the resolve family, its own line the first error. Each excerpt is copied from the
file named beside it (L/ is the set's folder)."""

from __future__ import annotations

import pytest
from diagnose_testsupport import cause, failed, family, first

from kernel_wizard.diagnose import diagnose_lines

L = "late-2026-11-29l"  # the set the excerpts come from (for the reader)


def _advice(report_primary: object) -> str:
    return " ".join(str(getattr(report_primary, k)) for k in ("title", "cause", "fix"))


@pytest.mark.parametrize(("lines", "stopped"), [
    # L/textgen-3760-macos-exllamav2-egg-info-cuda-home.log
    (["Collecting exllamav2==0.0.4 (from -r requirements_apple_silicon.txt (line 11))",
      "  Preparing metadata (setup.py) ... error",
      "  error: subprocess-exited-with-error",
      "        File \"/Users/philippbauer/.miniforge3/envs/oobabooga/lib/python3.10/"
      "site-packages/torch/utils/cpp_extension.py\", line 1179, in library_paths",
      "          if (not os.path.exists(_join_cuda_home(lib_dir)) and",
      "      OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA "
      "install root."],
     "environment"),
    # L/comfy-controlnet-preprocessors-51-macos-torch-not-compiled-with-cuda.log
    (["  File \"/Users/{user}/miniconda3/envs/sdweb/lib/python3.10/site-packages/torch/cuda/"
      "__init__.py\", line 239, in _lazy_init",
      "    raise AssertionError(\"Torch not compiled with CUDA enabled\")",
      "AssertionError: Torch not compiled with CUDA enabled"],
     "first-use"),
    # L/instant-ngp-134-macos-cmake-could-not-find-nvcc.log
    (["instant-ngp macpro15$ cmake . -B build",
      "CMake Error at /usr/local/Cellar/cmake/3.22.2/share/cmake/Modules/"
      "CMakeDetermineCUDACompiler.cmake:115 (message):",
      "  Could not find nvcc executable in path specified by environment variable",
      "  CUDAToolkit_ROOT=/usr/local/cuda",
      "-- Configuring incomplete, errors occurred!",
      "See also \"/Users/macpro15/instant-ngp/build/CMakeFiles/CMakeOutput.log\"."],
     "environment"),
])
def test_cuda_missing_on_a_mac_is_the_platform_not_a_toolkit_to_install(
        lines: list[str], stopped: str) -> None:
    report = failed(lines)
    assert cause(report) == "platform-unsupported"
    assert family(report) == stopped
    assert report.primary is not None
    advice = _advice(report.primary)
    assert "macOS" in report.primary.title
    assert "does not exist on a Mac" in advice
    # never the Linux/Windows advice: install the toolkit, set CUDA_HOME, the CUDA build of torch
    assert "install the CUDA toolkit" not in advice.lower()
    assert "CUDA_HOME to" not in advice
    assert "CUDA build of PyTorch can be installed there" in advice
    assert report.retry is None


def test_the_same_lines_without_a_mac_keep_their_cause() -> None:
    # (L/textgen-3760's CUDA_HOME line on Linux: the toolkit is missing, the usual advice)
    report = failed([
        "        File \"/home/u/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py\","
        " line 1179, in library_paths",
        "      OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA "
        "install root."])
    assert cause(report) == "cuda-home-not-set"


def test_a_mac_post_quoting_the_error_is_still_the_platform() -> None:
    # L/mask2former-219-macos-apple-silicon-cuda-home-is-none.log (the post retells the error)
    report = diagnose_lines([
        "According to the installation instruction at https://github.com/facebookresearch/"
        "Mask2Former/blob/main/INSTALL.md this is compatible with MacOS.",
        "When trying to execute the command \"sh make.sh\" it crashes with \"NotImplementedError:"
        " CUDA_HOME is None. Please set environment variable CUDA_HOME\".",
    ])
    assert cause(report) == "platform-unsupported"
    assert report.primary is not None
    assert "does not exist on a Mac" in str(report.primary.fix)


def test_mamba_on_a_mac_without_cudatoolkit_is_the_platform_stopped_resolving() -> None:
    # L/bark-60-macos-mamba-cudatoolkit-11-8-does-not-exist.log
    report = failed([
        "I'm trying to install on MacOS 13.2.1. When I get to `mamba env create -f "
        "environment-cuda.yml` it gives me the error ```",
        "Could not solve for environment specs",
        "The following packages are incompatible",
        "├─ cudatoolkit 11.8.0**  does not exist (perhaps a typo or a missing channel);",
        "└─ pytorch-cuda 11.8**  is uninstallable because it requires",
        "   └─ cuda 11.8.* , which does not exist (perhaps a missing channel).",
    ])
    assert first(report) == "Could not solve for environment specs"
    assert family(report) == "resolve"
    assert cause(report) == "platform-unsupported"


@pytest.mark.parametrize(("lines", "dll"), [
    # L/comfyui-gimm-vfi-17-windows-cupy-nvrtc64-120-0-dll.log
    (["RuntimeError: CuPy failed to load nvrtc64_120_0.dll: FileNotFoundError: Could not find "
      "module 'nvrtc64_120_0.dll' (or one of its dependencies). Try using the full path with "
      "constructor syntax."],
     "nvrtc64_120_0.dll"),
    # L/monodle-23-windows-numba-nvvm-dll-then-ptxas-version-zh.log
    (["运行报错：",
      "numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda install "
      "cudatoolkit`:",
      "Could not find module 'nvvm.dll' (or one of its dependencies). Try using the full path "
      "with constructor syntax."],
     "nvvm.dll"),
    # L/tensorflow-windows-wheel-185-cudart64-101-dll-zh.log
    ([">>> import tensorflow as tf",
      "2022-12-02 15:37:30.344596: W tensorflow/stream_executor/platform/default/"
      "dso_loader.cc:55] Could not load dynamic library 'cudart64_101.dll'; dlerror: "
      "cudart64_101.dll not found",
      "2022-12-02 15:37:30.344660: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore "
      "above cudart dlerror if you do not have a GPU set up on your machine."],
     "cudart64_101.dll"),
    # L/paddle-39256-windows-cudnn64-8-dll-error-126-zh.log
    (["但是，使用 paddle.utils.run_check() 提示我 cudnn64_8未正常安装：PreconditionNotMetError: "
      "The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not "
      "configured correctly. (error code is 126)"],
     "cudnn64_8.dll"),
])
def test_a_dll_named_by_any_loader_is_a_windows_dll_dependency(
        lines: list[str], dll: str) -> None:
    report = failed(lines)
    assert report.primary is not None
    assert report.primary.signature_id == "dll-dependency-missing"
    assert dll in str(report.primary.title)  # the user sees which DLL


def test_the_first_error_of_the_numba_log_is_its_own_line() -> None:
    # L/monodle-23: numba's error first, the DLL under it
    report = failed([
        "numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda install "
        "cudatoolkit`:",
        "Could not find module 'nvvm.dll' (or one of its dependencies). Try using the full path "
        "with constructor syntax."])
    assert first(report) is not None
    assert first(report).startswith("numba.cuda.cudadrv.error.NvvmSupportError")  # type: ignore[union-attr]


@pytest.mark.parametrize("lines", [
    # L/robust-e-nerf-1-windows-conda-cudatoolkit-dev-resolvepackagenotfound.log
    ["D:\\Githubproject\\robust-e-nerf>conda env create -f environment.yml",
     "Collecting package metadata (repodata.json): done",
     "Solving environment: failed",
     "ResolvePackageNotFound:",
     "  - cudatoolkit-dev=11.3.1"],
    # L/stable-diffusion-145-aarch64-conda-resolvepackagenotfound-cudatoolkit.log
    ["conda env create -f environment.yaml",
     "conda activate ldm",
     "ResolvePackageNotFound: ",
     "  - cudatoolkit=11.3",
     "  - pytorch=1.11.0"],
])
def test_conda_not_finding_a_package_is_resolve(lines: list[str]) -> None:
    report = failed(lines)
    assert first(report) == "ResolvePackageNotFound:"
    assert family(report) == "resolve"
    assert cause(report) is None  # the family alone: the log does not say why
