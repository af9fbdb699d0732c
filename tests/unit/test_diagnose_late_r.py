"""What a user sees on real excerpts of late set r (tests/data/logs/late-2026-11-29r, issue 31),
studied after it was scored blind: JAX's GPU backend without matching CUDA libraries, a
package's own "Cannot find CUDA_HOME", CMake's CUDACXX naming no nvcc, a shell script not
finding nvcc, torch.compile not finding cl.exe, Rust builds of CUDA crates, Torch7's CUDA check,
mmcv without its CUDA ops and CMake's install step denied. Each excerpt is copied from the file
named beside it (R/ is the set's folder)."""

from __future__ import annotations

import pytest
from diagnose_testsupport import cause, failed, family, first

R = "late-2026-11-29r"  # the set the excerpts come from (for the reader)


@pytest.mark.parametrize(("line", "what"), [
    # R/gcbfplus-1-jax-cudnn-8600-older-than-8906.log
    ("CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against "
     "version 8906, which is newer. The copy of cuDNN that is installed must be at least as new "
     "as the version against which JAX was built. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun f",
     "cuDNN"),
    # R/jax-20519-cuda12-pip-unable-to-load-cudnn.log
    ("CUDA backend failed to initialize: Unable to load cuDNN. Is it installed? (Set "
     "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)", "cuDNN"),
    # R/mt3-145-jax-cuda-backend-unable-to-load-cuda.log
    ("WARNING:jax._src.xla_bridge:CUDA backend failed to initialize: Unable to load CUDA. (Set "
     "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)", "CUDA"),
])
def test_jaxs_gpu_backend_without_matching_cuda_libraries(line: str, what: str) -> None:
    report = failed([line])
    assert report.primary is not None
    assert report.primary.signature_id == "jax-cuda-libraries"
    assert cause(report) == "library-mismatch" and family(report) == "first-use"
    assert what in report.primary.title and "jax[cuda12]" in report.primary.fix


def test_newer_jaxlibs_list_of_outdated_cuda_parts() -> None:
    # R/pixi-dev-scipystack-1-jax-outdated-cudnn-8907.log
    report = failed([
        "E   RuntimeError: Backend 'cuda' failed to initialize: Unable to use CUDA because of the "
        "following issues with CUDA components:",
        "E   Outdated cuDNN installation found.",
        "E   Version JAX was built against: 8907",
    ])
    assert report.primary is not None and "cuDNN" in report.primary.title
    assert family(report) == "first-use"


@pytest.mark.parametrize("line", [
    # R/sageattention-110-windows-cannot-find-cuda-home.log (the package's own setup.py)
    "      RuntimeError: Cannot find CUDA_HOME. CUDA must be available to build the package.",
    # R/torch-int-25-cmake-cudacxx-compiler-not-found.log
    "  Could not find compiler set in environment variable CUDACXX:",
])
def test_no_cuda_toolkit_where_the_build_looks(line: str) -> None:
    assert cause(failed([line])) == "cuda-home-not-set"


def test_a_shell_script_not_finding_nvcc() -> None:
    # R/ccnet-56-build-sh-nvcc-not-found-under-sudo.log (run under sudo: PATH is sudo's own)
    report = failed(["build.sh: 11: build.sh: nvcc: not found"])
    assert report.primary is not None and report.primary.signature_id == "nvcc-not-on-path"
    assert "sudo" in report.primary.cause


def test_torch_compile_not_finding_cl_on_windows() -> None:
    # R/pytorch-157458-windows-inductor-compiler-cl-not-found.log
    report = failed([
        '    raise RuntimeError(f"Compiler: {compiler} is not found.") from exc',
        "torch._dynamo.exc.InternalTorchDynamoError: RuntimeError: Compiler: cl is not found.",
    ])
    assert report.primary is not None and report.primary.signature_id == "msvc-not-found"


@pytest.mark.parametrize("line", [
    # R/llama-cpp-rs-81-cargo-cuda-nvcc-ggml-cuda-failed.log (the cc crate; cut here)
    '  error occurred: Command "nvcc" "-ccbin=c++" "-Xcompiler" "-O3" "-Xcompiler" '
    '"-ffunction-sections" "-I" "./thirdparty/llama.cpp"',
    # R/spiceai-7280-windows-ci-candle-flash-attn-nvcc-error.log (bindgen_cuda; cut here)
    '2025-09-23T05:22:31.4713801Z nvcc error while executing compiling: "nvcc" '
    '"--gpu-architecture=sm_87" "-c" "-o"',
    # R/mistral-rs-999-windows-cudarc-e0422-bindgen-type.log (rustc)
    "error[E0422]: cannot find struct, variant or union type "
    "`cudaExternalMemoryHandleDesc_st__bindgen_ty_1` in module `sys`",
])
def test_rust_builds_of_cuda_crates(line: str) -> None:
    report = failed([line, "", "##[error]Process completed with exit code 1."])
    assert first(report) == line.strip() and family(report) == "compile"


def test_torch7s_cuda_check_with_no_gpu() -> None:
    # R/waifu2x-372-wsl2-cutorch-no-cuda-capable-device.log
    line = ("THCudaCheck FAIL file=/home/dark/torch/extra/cutorch/lib/THC/THCGeneral.c line=70 "
            "error=38 : no CUDA-capable device is detected")
    report = failed(["It now shows:", line])
    assert first(report) == line and family(report) == "first-use"


def test_mmcv_without_its_cuda_ops() -> None:
    # R/lanesegnet-18-ms-deform-attn-impl-cuda-not-found.log
    report = failed(["RuntimeError: ms_deform_attn_impl_forward: implementation for device "
                     "cuda:1 not found."])
    assert cause(report) == "built-without-cuda" and family(report) == "first-use"


def test_cmakes_install_step_denied() -> None:
    # R/fuser-126-cmake-install-nvfuser-tests-permission-denied.log
    report = failed([
        "-- Installing: /usr/local/bin/nvfuser_tests",
        "CMake Error at cmake_install.cmake:121 (file):",
        '  file INSTALL cannot copy file "/home/gaoxiang/Fuser/build/nvfuser_tests" to',
        '  "/usr/local/bin/nvfuser_tests": Permission denied.',
    ])
    assert cause(report) == "permission-denied" and family(report) == "package"
