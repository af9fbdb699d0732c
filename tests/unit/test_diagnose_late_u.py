"""What a user sees on real excerpts of late set u (tests/data/logs/late-2026-11-29u, issue 31),
studied after it was scored blind: a CPU-only PyTorch in R's words and in an installer's, ptxas
refusing an old architecture as a post copies it, JAX's GPU backend that does not start, a
package's own "CUDA Error: no kernel image", a package's check of PyTorch's CUDA against the
toolkit's, a Rust build finding no CUDA, CMake's compiler check as environment, pip's last line
alone, nvcc of CUDA 11 with gcc 11's std_function.h, and an unset CUDA_HOME in a library path.
Each excerpt is copied from the file named beside it (U/ is the set's folder)."""

from __future__ import annotations

from diagnose_testsupport import cause, failed, family, first

U = "late-2026-11-29u"  # the set the excerpts come from (for the reader)


def test_a_cpu_only_pytorch_in_rs_words_and_an_installers() -> None:
    # U/torch-272-r-torch-not-linked-with-cuda.log: R's error header, its message below it
    header = "Error in cpp_torch_tensor(data, rev(dimension), options$ptr, requires_grad,  : "
    report = failed(['> torch_tensor(1, device = "cuda")', header,
                     "  PyTorch is not linked with support for cuda devices (getDeviceGuardImpl "
                     "at ../c10/core/impl/DeviceGuardImplInterface.h:216)"])
    assert first(report) == header.strip()
    assert report.primary is not None and report.primary.signature_id == "torch-cpu-only"
    assert family(report) == "first-use"
    # U/ez-corridorkey-67-torch-installed-without-cuda-windows.log
    line = ("NVIDIA GPU detected via nvidia-smi, but torch was installed without CUDA support. "
            "The driver may be too old for CorridorKey's current torch build, or the install "
            "fell back to CPU-only wheels.")
    report = failed([line, "- **Torch:** 2.9.1+cpu"])
    assert report.primary is not None and report.primary.signature_id == "torch-cpu-only"
    assert first(report) == line


def test_ptxas_refusing_an_old_architecture_as_a_post_copies_it() -> None:
    # U/llama-cpp-python-449-sm-30-not-defined-for-gpu-name.log
    line = "Value ‘SM_30‘ is not defined for option ‘gpu-name‘"
    report = failed(["when i install with cublas:", "i came across:", line])
    assert first(report) == line
    assert report.primary is not None \
        and report.primary.signature_id == "gpu-arch-dropped-by-cuda"
    assert family(report) == "environment"


def test_jaxs_gpu_backend_that_does_not_start() -> None:
    # U/jax-20722-cuda-backend-failed-to-initialize.log: the line is the first error (its cause,
    # CUDA_ERROR_NOT_INITIALIZED, is not one the log settles)
    line = ("CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:90: operation "
            "gpuDeviceGetAttribute( &major, GPU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "
            "device) failed: CUDA_ERROR_NOT_INITIALIZED (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun "
            "for more info.)")
    report = failed([">>> import jax", ">>> jax.devices()", line, "[CpuDevice(id=0)]"])
    assert first(report) == line and family(report) == "first-use"
    # U/alphapulldown-237-jax-cusolver-older-than-built-against.log: JAX's older wording
    line = ("I0105 14:05:05.749943 140453630969664 xla_bridge.py:660] Unable to initialize "
            "backend 'cuda': Found cuSOLVER version 11002, but JAX was built against version "
            "11401, which is newer.")
    report = failed(["2024-01-05 14:04:56.743208: W tensorflow/compiler/tf2tensorrt/utils/"
                     "py_utils.cc:38] TF-TRT Warning: Could not find TensorRT", line])
    assert report.primary is not None \
        and report.primary.signature_id == "jax-cuda-libraries"
    assert first(report) == line


def test_a_packages_own_no_kernel_image_with_a_capital() -> None:
    # U/cpm_kernels-13-no-kernel-image-rtx-5070-ti.log: cpm_kernels' "CUDA Error:", not
    # PyTorch's "CUDA error:"
    assert cause(failed(["RuntimeError: CUDA Error: no kernel image is available for execution "
                         "on the device"])) == "gpu-arch-unsupported"
    assert failed(["RuntimeError: CUDA error: no kernel image is available for execution on "
                   "the device"]).primary is None


def test_a_packages_check_of_pytorchs_cuda_against_the_toolkits() -> None:
    # U/k2-1158-pytorch-cuda-version-assertion.log: k2's setup.py
    line = "AssertionError: PyTorch is built with CUDA version: 11.7."
    report = failed(["Traceback (most recent call last):",
                     '  File "setup.py", line 220, in <module>',
                     '  File "/media/x/k2/get_version.py", line 45, in get_cuda_version',
                     "    assert cuda_version in running_cuda_version, \\",
                     line, "The current running CUDA version is: 10.2.89"])
    assert first(report) == line and cause(report) == "cuda-torch-mismatch"
    assert family(report) == "environment"


def test_a_rust_build_finding_no_cuda() -> None:
    # U/risc0-1022-find-cuda-helper-could-not-find-cuda.log
    report = failed([
        "  thread 'main' panicked at /home/cj/.cargo/registry/src/index.crates.io-6f17d22bba15001f"
        "/find_cuda_helper-0.2.0/src/lib.rs:12:13:",
        "  Could not find a cuda installation"])
    assert first(report) == "Could not find a cuda installation"
    assert cause(report) == "cuda-home-not-set" and family(report) == "environment"


def test_cmakes_compiler_check_failing_is_the_environment() -> None:
    # U/instant-ngp-998-cmake-cuda-compiler-id-failed-windows.log (a CUDACXX that is no compiler)
    header = ("CMake Error at C:/Program Files/CMake/share/cmake-3.24/Modules/"
              "CMakeDetermineCompilerId.cmake:739 (message):")
    report = failed(["PS E:\\instant-ngp> cmake . -B build", header,
                     "  Compiling the CUDA compiler identification source file",
                     '  "CMakeCUDACompilerId.cu" failed.', "  Compiler: $(which",
                     "  Build flags:"])
    assert first(report) == header and family(report) == "environment"


def test_pips_last_line_alone_is_the_first_error() -> None:
    # U/xtuner-1105-failed-to-build-grouped-gemm-zh.log: a Chinese sentence that says an error
    # was reported, then pip's clean-up and its last line
    report = failed(["按照官方文档安装GroupedGEMM，无法build。报错如下",
                     "  Running setup.py clean for grouped_gemm", "  running clean",
                     "Failed to build grouped_gemm"])
    assert first(report) == "Failed to build grouped_gemm" and family(report) == "compile"
    # ... and pip's summary above it stays the line shown (late set t)
    report = failed(["  ERROR: Failed building wheel for sageattention",
                     "Failed to build sageattention"])
    assert first(report) == "ERROR: Failed building wheel for sageattention"


def test_nvcc_of_cuda_11_with_gcc_11s_std_function() -> None:
    # U/whisper.cpp-3308-gcc11-std-function-parameter-packs.log
    line = ("/usr/include/c++/11/bits/std_function.h:530:146: error: parameter packs not "
            "expanded with ‘...’:")
    report = failed([line, "  530 |         operator=(_Functor&& __f)"])
    assert report.primary is not None \
        and report.primary.signature_id == "host-compiler-unsupported"
    assert first(report) == line and family(report) == "environment"


def test_an_unset_cuda_home_in_a_library_path() -> None:
    # U/ktransformers-54-ninja-lib64-libcudart-missing.log
    line = ("ninja: error: '/lib64/libcudart.so', needed by '/home/xxx/projects/ktransformers/"
            "build/lib.linux-x86_64-cpython-311/cpuinfer_ext.cpython-311-x86_64-linux-gnu.so', "
            "missing and no known rule to make it")
    report = failed([line])
    assert first(report) == line and cause(report) == "cuda-home-not-set"
    assert family(report) == "environment"
    # the library under a real toolkit folder is another failure
    assert cause(failed(["ninja: error: '/usr/local/cuda/lib64/libcudart.so', needed by 'x.so', "
                         "missing and no known rule to make it"])) != "cuda-home-not-set"
