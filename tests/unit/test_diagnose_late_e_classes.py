"""Classes late set e (tests/data/logs/late-2026-11-28e, scored once, then studied) showed the
two-level diagnosis got wrong (issue 31): code compiled when a program first runs it, the choice
of the first error line, and causes a log states plainly. Each test is a short excerpt of a real
thread's log, as the thread printed it."""

from __future__ import annotations

from diagnose_testsupport import cause, failed, family, first

# -- code compiled when a program first runs it: first-use, whatever step failed -------------

def test_a_jit_build_named_by_its_bare_object_file_is_first_use() -> None:
    # ComfyUI-3D-Pack #254: nvdiffrast's plugin built by torch's JIT build.ninja ("FAILED:
    # torch_rasterize_gl.o", no build/temp folder), the SDK headers missing
    report = failed([
        r"C:\Program Files\Microsoft Visual Studio\2022\Community\VC\Tools\MSVC\14.41.34120"
        r"\include\cstddef(11): fatal error C1083: Cannot open include file: 'stddef.h': No "
        "such file or directory",
        r"[5/6] cl /showIncludes -DTORCH_EXTENSION_NAME=nvdiffrast_plugin_gl "
        r"-ID:\ComfyUI\python_embeded\Lib\site-packages\torch\include /c torch_rasterize_gl.cpp",
        "FAILED: torch_rasterize_gl.o"])
    assert family(report) == "first-use"


def test_a_setup_py_object_file_is_not_a_jit_build() -> None:
    report = failed([
        "/tmp/x/csrc/a.cu(10): error: identifier \"foo\" is undefined",
        "FAILED: /tmp/x/build/temp.linux-x86_64-cpython-310/csrc/a.o"])
    assert family(report) == "compile"


def test_torch_compile_inductor_failing_to_find_libcuda_is_first_use_and_names_it() -> None:
    # nnUNet #2164: Triton, under torch.compile, looks libcuda.so up before linking
    report = failed([
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
        "AssertionError: libcuda.so cannot found!",
        "Possible files are located at ['/lib/x86_64-linux-gnu/libcuda.so.1']."
        "Please create a symlink of libcuda.so to any of the file."])
    assert first(report) == "AssertionError: libcuda.so cannot found!"
    assert cause(report) == "libcuda-not-found"
    assert family(report) == "first-use"


def test_nvdiffrast_not_finding_msvc_is_first_use_and_msvc_not_found() -> None:
    # Hunyuan3D-1 #27: nvdiffrast's _get_plugin searches Visual Studio's folders for cl.exe
    report = failed([
        r'\python\Lib\site-packages\nvdiffrast\torch\ops.py", line 47, in _get_plugin',
        '    raise RuntimeError("Could not locate a supported Microsoft Visual C++ '
        'installation")',
        "RuntimeError: Could not locate a supported Microsoft Visual C++ installation"])
    assert first(report) == \
        "RuntimeError: Could not locate a supported Microsoft Visual C++ installation"
    assert cause(report) == "msvc-not-found"
    assert family(report) == "first-use"


def test_a_torch_jit_load_frame_makes_a_build_step_first_use() -> None:
    # ppq #218: torch.utils.cpp_extension.load() from the package's import; CUDA_HOME begins
    # with ':', so the command ninja runs can never start
    report = failed([
        "RuntimeError: Error building extension 'PPQ_Cuda_Impls': [1/6] "
        ":/usr/local/cuda-10.2/bin/nvcc",
        "Traceback (most recent call last):",
        '  File "/root/env/lib/python3.8/site-packages/ppq/core/ffi.py", line 16, in <module>',
        "    __CUDA_EXTENTION__ = load(",
        '  File "/root/env/lib/python3.8/site-packages/torch/utils/cpp_extension.py", line '
        "1124, in load",
        "    return _jit_compile("])
    assert report.primary is not None
    assert report.primary.signature_id == "tool-path-malformed"
    assert family(report) == "first-use"


def test_triton_windows_toolchain_search_is_first_use() -> None:
    # triton-windows #135: Triton looks for Python's libs when it first compiles a kernel
    report = failed([
        r"C:\ComfyUI\python_embeded>python test_triton.py",
        r"C:\ComfyUI\python_embeded\Lib\site-packages\triton\windows_utils.py:315: "
        "UserWarning: Failed to find Python libs.",
        '  warnings.warn("Failed to find Python libs.")'])
    assert family(report) == "first-use"


# -- TorchScript's run-time compiler (NVRTC) too old for the GPU ------------------------------

def test_torchscript_header_gives_way_to_the_nvrtc_error_under_it() -> None:
    # DiffusionDet #107: RTX 4090, PyTorch with CUDA 11.2
    report = failed([
        "When i run  python train_net.py --num-gpus 1 on 4090, some error occurs.",
        "RuntimeError: The following operation failed in the TorchScript interpreter.",
        "Traceback of TorchScript (most recent call last):",
        "RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)"])
    assert first(report) == \
        "RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)"
    assert cause(report) == "tool-version-required"
    assert report.primary is not None
    assert report.primary.signature_id == "torch-too-old-for-gpu-arch"
    assert family(report) == "first-use"


def test_nvrtc_of_another_package_names_no_pytorch_cause() -> None:
    report = failed([
        "cupy.cuda.compiler.CompileException: nvrtc: error: invalid value for "
        "--gpu-architecture (-arch)"])
    assert report.primary is None


# -- the compiler itself crashing on Windows --------------------------------------------------

def test_cicc_crash_status_with_llvm_out_of_memory_is_a_compiler_crash() -> None:
    # pytorch #156181: a CI runner's time stamps in front of every line
    report = failed([
        "2025-06-20T05:54:20.1250272Z LLVM ERROR: out of memory",
        "2025-06-20T05:54:20.1250671Z nvcc error   : '\"\"%CICC_PATH%\\cicc\"' died with status "
        "0xC0000409 ",
        "2025-06-20T05:54:20.1251062Z # --error 0xc0000409 --"])
    assert first(report) == "2025-06-20T05:54:20.1250272Z LLVM ERROR: out of memory"
    assert cause(report) == "compiler-crashed"
    assert family(report) == "compiler-crash"


# -- the first error line: decorations and quoted code -----------------------------------------

def test_a_time_stamped_git_error_is_the_first_error_and_resolve() -> None:
    # mlcommons/inference #1830: docker build's seconds in front of git's lines
    report = failed([
        " 5969.3 Cloning into '/home/u/pytorch/third_party/cutlass'...",
        "6135.8 error: RPC failed; curl 92 HTTP/2 stream 0 was not closed cleanly: CANCEL "
        "(err 8)",
        "6135.8 fatal: the remote end hung up unexpectedly"])
    assert first(report) == ("6135.8 error: RPC failed; curl 92 HTTP/2 stream 0 was not "
                             "closed cleanly: CANCEL (err 8)")
    assert family(report) == "resolve"


def test_a_pip_error_in_backticks_is_the_first_error() -> None:
    # Wan2.2 #53
    report = failed(["pip install flash_attn==2.7.3",
                     "`ERROR: No matching distribution found for flash_attn==2.7.3`"])
    assert first(report) == "`ERROR: No matching distribution found for flash_attn==2.7.3`"
    assert family(report) == "resolve"


def test_a_wrapper_in_backticks_stays_a_wrapper() -> None:
    # DeepSpeed #2428: the post quotes setuptools' summary above the compiler's error
    report = failed([
        r"`error: command 'C:\BuildTools\VC\Tools\MSVC\14.29.30133\bin\HostX86\x64\cl.exe' "
        "failed with exit code 2`",
        r"`csrc\includes\StopWatch.h(3): fatal error C1083: Cannot open include file: "
        "'windows.h': No such file or directory`"])
    assert first(report) is not None and "C1083" in (first(report) or "")


def test_quoted_c_source_is_never_the_first_error_nor_a_cause() -> None:
    # k2 #1342: the title states the error; the post quotes torch's source below it
    report = failed([
        "Windows Install From Source - error C2872: 'std': ambiguous symbol",
        "    TORCH_CHECK_NOT_IMPLEMENTED(",
        '        false, "torch.compile not supported on Windows");'])
    assert first(report) == "Windows Install From Source - error C2872: 'std': ambiguous symbol"
    assert report.primary is None
    assert family(report) == "compile"


def test_cmake_finding_no_cuda_compiler_is_shown_when_nothing_else_is() -> None:
    # instructlab #2891: the CMake Error itself was left out of the post
    report = failed(["      running build_ext",
                     "      -- Found CUDA: /usr/local/cuda (found version \"12.6\")",
                     "      -- The CUDA compiler identification is unknown"])
    assert first(report) == "-- The CUDA compiler identification is unknown"


# -- causes the log states plainly -----------------------------------------------------------

def test_no_kernel_image_under_torchrun_prefixes_is_confirmed_by_the_extension_call() -> None:
    # diffusion-pipe #178: the call into flash_attn_gpu behind "> [rank0]:"
    report = failed([
        "> [rank0]:     out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.varlen_fwd(",
        "> [rank0]: RuntimeError: CUDA error: no kernel image is available for execution on "
        "the device"])
    assert cause(report) == "gpu-arch-unsupported"


def test_rdc_link_error_without_the_symbol_suffix_is_device_link_missing() -> None:
    # extension-cpp #80
    report = failed(["error LNK2001 undefined reference to `__cudaRegisterLinkedBinary occured "])
    assert cause(report) == "cuda-device-link-missing"


def test_a_bare_winerror_5_names_no_folder_to_fix() -> None:
    # inplace_abn #240: "Access is denied" in build_ext, nothing says what was denied
    report = failed(["running build_ext", "error: [WinError 5] Access is denied"])
    assert report.primary is None


def test_pip_denied_on_windows_is_still_permission_denied() -> None:
    report = failed(["ERROR: Could not install packages due to an OSError: [WinError 5] "
                     "Access is denied:",
                     r"'C:\venv\Lib\site-packages\torch\_C.pyd'"])
    assert cause(report) == "permission-denied"


def test_cuda_python_failing_to_dlopen_libcuda_is_a_library_that_does_not_load() -> None:
    # cuda-python #17 (WSL): libcuda.so lives in /usr/lib/wsl/lib
    report = failed(["RuntimeError: Failed to dlopen libcuda.so"])
    assert cause(report) == "library-mismatch"
