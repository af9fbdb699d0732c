"""What a user sees on real excerpts of late set n (tests/data/logs/late-2026-11-29n, issue 31),
the classes its one blind scoring got wrong or missed: the line shown first (pip's step that
failed, a chained exception's child process, glog's fatal line, a package's own "ERROR!" box,
Python's bare Exception, nvcc's count of errors put above them, not a traceback's quote of the
source), PyTorch's own DLLs loaded through ctypes, a 32-bit conda, a CUDAExtension on a Mac, and
a library installed apart from the package as a prerequisite. Each excerpt is copied from the
file named beside it (N/ is the set's folder)."""

from __future__ import annotations

import pytest
from diagnose_testsupport import cause, failed, family, first

N = "late-2026-11-29n"  # the set the excerpts come from (for the reader)


def test_pips_failed_step_is_shown_not_its_exit_code() -> None:
    # N/neural-renderer-140-macos-m2-cudaextension-egg-info.log (the excerpt ends in frames)
    lines = ["  Preparing metadata (setup.py) ... error",
             "  error: subprocess-exited-with-error",
             "  ",
             "  × python setup.py egg_info did not run successfully.",
             "  │ exit code: 1",
             "  ╰─> [12 lines of output]",
             "      Traceback (most recent call last):",
             '        File "<string>", line 2, in <module>']
    assert first(failed(lines)) == "× python setup.py egg_info did not run successfully."


def test_a_chained_child_process_failure_is_shown_before_the_next_traceback() -> None:
    # N/livetalking-100-windows-pytorch3d-ninja-failed-zh.log
    lines = ["    raise CalledProcessError(retcode, process.args,",
             "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit "
             "status 1.",
             "",
             "The above exception was the direct cause of the following exception:",
             "",
             "Traceback (most recent call last):",
             '  File "E:\\projects\\pytorch3d\\setup.py", line 144, in <module>',
             "    setup("]
    assert first(failed(lines)) == lines[1]


def test_a_traceback_quoting_the_source_that_raises_is_not_the_error() -> None:
    # N/nvdiffmodeling-7-windows-renderutils-plugin-jit-build.log (frames without a header)
    lines = ['  File "C:\\Anaconda3\\lib\\site-packages\\torch\\utils\\cpp_extension.py", line '
             "1408, in _write_ninja_file_and_build_library",
             "    error_prefix=f\"Error building extension '{name}'\")",
             '  File "C:\\Anaconda3\\lib\\site-packages\\torch\\utils\\cpp_extension.py", line '
             "1682, in _run_ninja_build",
             "    raise RuntimeError(message) from e",
             "RuntimeError: Error building extension 'renderutils_plugin'"]
    assert first(failed(lines)) == lines[-1]


@pytest.mark.parametrize(("lines", "shown"), [
    # N/nvdiffrast-237-cannot-compile-cuda-extension-metadata.log: the package's own box
    (["  **********************************************************************",
      "  ERROR! Cannot compile nvdiffrast CUDA extension. Please ensure that:",
      "",
      "  1. You have PyTorch installed",
      "  error: subprocess-exited-with-error",
      "  × Preparing metadata (pyproject.toml) did not run successfully.",
      "  │ exit code: 1"],
     "ERROR! Cannot compile nvdiffrast CUDA extension. Please ensure that:"),
    # N/nvdiffrast-29-wsl2-eglinitialize-failed.log: glog's fatal line, then the abort
    (["Mesh has 12 triangles and 24 vertices.",
      "[F glutil.cpp:338] eglInitialize() failed",
      "Aborted"],
     "[F glutil.cpp:338] eglInitialize() failed"),
    # N/open3d-ml-139-windows-open3d-not-built-with-pytorch.log: Python's bare Exception
    (["Traceback (most recent call last):",
      '  File "train.py", line 3, in <module>',
      "    import open3d.ml.torch as ml3d",
      "Exception: Open3D was not built with PyTorch support!"],
     "Exception: Open3D was not built with PyTorch support!"),
    # N/pytorch3d-1860-windows-cuda-12-6-vector-types-expected.log: nvcc's count put first
    (['16 errors detected in the compilation of "C:/x/pulsar/cuda/renderer.backward.gpu.cu".',
      "renderer.backward.gpu.cu",
      "Cuda compilation tools, release 12.6, V12.6.20",
      "C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6/include\\cuda/std/__tuple_dir/"
      "vector_types.h(88): error: expected a \">\""],
     "C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.6/include\\cuda/std/__tuple_dir/"
     "vector_types.h(88): error: expected a \">\""),
])
def test_the_line_that_says_what_failed_is_shown_first(lines: list[str], shown: str) -> None:
    assert first(failed(lines)) == shown


@pytest.mark.parametrize("lines", [
    # N/facemaskdetection-72-windows-torch-winerror-126-es.log: torch/__init__.py, then ctypes
    ['  File "c:\\Sergio\\anaconda3\\envs\\f\\lib\\site-packages\\torch\\__init__.py", line 81, '
     "in <module>",
     "    ctypes.CDLL(dll)",
     '  File "c:\\Sergio\\anaconda3\\envs\\f\\lib\\ctypes\\__init__.py", line 364, in __init__',
     "    self._handle = _dlopen(self._name, mode)",
     "**OSError: [WinError 126] No se puede encontrar el módulo especificado**"],
    # N/comflowyspace-325-windows-torch-backend-with-compiler-dll-zh.log: one of torch's own
    [' OSError: [WinError 126] 找不到指定的模块。 Error loading "C:\\anaconda3\\envs\\comf lowy'
     '\\lib\\site-packages\\torch\\lib\\backend_with_compiler.dll" or one of its depend encies.'],
])
def test_pytorchs_own_dll_failing_is_pytorchs(lines: list[str]) -> None:
    report = failed(lines)
    assert report.primary is not None
    assert report.primary.signature_id == "torch-dll-load-failed"


def test_a_32_bit_conda_without_a_cuda_package_is_the_platform() -> None:
    # N/cudf-8414-conda-packagesnotfound-linux-32.log
    report = failed([
        "PackagesNotFoundError: The following packages are not available from current channels:",
        "",
        "  - cudatoolkit=10.1",
        "  - cudf=0.19",
        "",
        "Current channels:",
        "",
        "  - https://conda.anaconda.org/rapidsai/linux-32",
        "  - https://conda.anaconda.org/nvidia/linux-32"])
    assert cause(report) == "platform-unsupported" and family(report) == "resolve"
    assert report.primary is not None and "64-bit" in report.primary.fix
    assert "Mac" not in report.primary.fix


def test_a_cuda_extension_built_on_a_mac_is_the_platform() -> None:
    # N/neural-renderer-140-macos-m2-cudaextension-egg-info.log
    report = failed([
        "System: MacOS 12.5, Apple M2",
        "  × python setup.py egg_info did not run successfully.",
        "  │ exit code: 1",
        "  ╰─> [12 lines of output]",
        "      Traceback (most recent call last):",
        '        File "/private/var/folders/yp/T/pip-install/setup.py", line 21, in <module>',
        "          CUDAExtension('neural_renderer.cuda.load_textures', ["])
    assert cause(report) == "platform-unsupported" and family(report) == "environment"


def test_cmake_finding_a_cuda_toolkit_without_a_part_is_not_no_toolkit() -> None:
    # N/chatglm-cpp-89-wsl-could-not-find-cudatoolkit-cudart-zh.log (WSL2: only Windows' CUDA)
    lines = ["-- Unable to find cudart library.",
             '-- Could NOT find CUDAToolkit (missing: CUDA_CUDART) (found version "12.1.105")',
             "-- CUDAToolkit_FOUND=FALSE"]
    report = failed(lines)
    assert cause(report) is None
    assert first(report) == lines[1] and family(report) == "environment"


@pytest.mark.parametrize("line", [
    # N/horovod-3378-nccl-h-no-such-file.log
    "/tmp/pip-install-1o9yj4k1/horovod/horovod/common/ops/nccl_operations.h:22:10: fatal error: "
    "nccl.h: No such file or directory",
    # N/transformerengine-918-slurm-cudnn-h-no-such-file.log
    "torch/include/ATen/cudnn/cudnn-wrapper.h:3:10: fatal error: cudnn.h: No such file or "
    "directory",
    # N/torchsparse-359-google-dense-hash-map-missing.log
    "torchsparse/backend/hashmap/hashmap_cpu.hpp:7:10: fatal error: google/dense_hash_map: No "
    "such file or directory",
])
def test_a_library_installed_apart_missing_is_a_prerequisite(line: str) -> None:
    assert family(failed(["running build_ext", line])) == "environment"


def test_the_packages_own_header_missing_is_its_source() -> None:
    # a header of the package's own tree (a submodule not fetched): where it compiles
    report = failed(["running build_ext",
                     "csrc/flash_attn/flash_api.cpp:12:10: fatal error: cutlass/numeric_types.h: "
                     "No such file or directory"])
    assert family(report) == "compile"
