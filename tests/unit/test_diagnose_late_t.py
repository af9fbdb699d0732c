"""What a user sees on real excerpts of late set t (tests/data/logs/late-2026-11-29t, issue 31),
studied after it was scored blind: a package saying in its own words that its CUDA part was never
built, an install script listing the CUDA versions it supports, CMake's failed compiler check as
CMakeError.log records it, the CUDA samples' failed runtime call, a program's own "no kernel
image" (not PyTorch's), CUDA refusing the Intel compiler, Triton's launcher compiled at first
use, a header not found without the file that included it, pip's summary alone, and Triton 2's
triton.common. Each excerpt is copied from the file named beside it (T/ is the set's folder)."""

from __future__ import annotations

from diagnose_testsupport import cause, failed, family, first

T = "late-2026-11-29t"  # the set the excerpts come from (for the reader)


def test_a_package_saying_its_cuda_part_was_never_built() -> None:
    # T/natten-34-not-compiled-with-cuda.log: the call that needs the GPU refuses
    line = ("> RuntimeError: NATTEN is not compiled with CUDA! Please make sure you installed "
            "correctly by referring to shi-labs.com/natten.")
    report = failed([line])
    assert cause(report) == "built-without-cuda" and first(report) == line
    # T/autogptq-246-cuda-extension-not-installed-windows.log: only a warning, at import; the
    # warning is what the user is shown (no error line), and the stage is the import
    warning = "> WARNING:CUDA extension not installed. "
    report = failed([warning, "Python 3.11, cuda 11.7, 11.8, 12.2. autoGPTQ 0.3.2 version."])
    assert cause(report) == "built-without-cuda"
    assert first(report) == warning.strip() and family(report) == "import"
    assert cause(failed(["2023-08-10 18:25:55 WARNING:CUDA kernels for auto_gptq are not "
                         "installed, this will result in very slow inference speed."])) \
        == "built-without-cuda"
    # the build's own notice that it leaves the GPU part out is not this (it may go on to fail
    # for another reason: late set e's warp-ctc #146, a permission error)
    assert cause(failed(["Torch was not built with CUDA support, not building warp-ctc GPU "
                         "extensions."])) != "built-without-cuda"


def test_an_install_script_listing_the_cuda_versions_it_supports() -> None:
    # T/comfyui-3d-pack-392-install-py-unsupported-cuda-toolkit.log
    script = ('  File "c:\\ComfyUI_windows_portable_nightly_pytorch\\ComfyUI\\custom_nodes\\'
              'ComfyUI-3D-Pack\\install.py", line 19, in <module>')
    line = ("RuntimeError: Please install/reinstall CUDA tookit with any of the following "
            "supported version: ['12.4', '12.1', '11.8']")
    report = failed(["Traceback (most recent call last):", script, "    from build_utils import (",
                     line])
    assert cause(report) == "tool-version-required" and first(report) == line
    # the install script checks a prerequisite before anything is built
    assert family(report) == "environment"
    assert report.primary is not None and "CUDA" in report.primary.title


def test_a_setup_scripts_own_exception_stops_the_build_not_a_program() -> None:
    # T/vllm-windows-6-unknown-runtime-environment-space-in-path.log: the frame's long path puts
    # setup.py far from the line's start
    report = failed([
        '  File "C:\\Users\\TARGET STORE\\Desktop\\1\\vllm-windows\\setup.py", line 667, in '
        'get_vllm_version',
        '    raise RuntimeError("Unknown runtime environment")',
        "RuntimeError: Unknown runtime environment"])
    assert first(report) == "RuntimeError: Unknown runtime environment"
    assert family(report) == "configure"


def test_cmakes_failed_compiler_check_as_cmakeerror_log_records_it() -> None:
    # T/installlibrealsense-1-no-cmake-cuda-compiler.log
    head = 'Compiling the CUDA compiler identification source file "CMakeCUDACompilerId.cu" failed.'
    report = failed(["`CMakeFiles/CMakeError.log`", head,
                     "Compiler: CMAKE_CUDA_COMPILER-NOTFOUND ", "Build flags: ",
                     "Id flags:  -v;--keep;--keep-dir;tmp", "The output was:",
                     "No such file or directory"])
    assert first(report) == head
    assert report.primary is not None \
        and report.primary.signature_id == "cmake-cuda-compiler-not-found"
    assert family(report) == "environment"


def test_the_cuda_samples_failed_runtime_call_is_the_first_error() -> None:
    # T/wsl-8174-devicequery-driver-insufficient.log
    report = failed(["cudaGetDeviceCount returned 35",
                     "-> CUDA driver version is insufficient for CUDA runtime version",
                     "Result = FAIL"])
    assert first(report) == "cudaGetDeviceCount returned 35"
    assert report.primary is not None and report.primary.signature_id == "driver-too-old"
    assert family(report) == "first-use"


def test_a_programs_own_no_kernel_image_names_the_cause() -> None:
    # T/sgm-23-jetson-tx2-no-kernel-image.log: a standalone CUDA program, quoted in a sentence
    line = ('When I run this code by "./sgm dir p1 p2", there is a error that is "Error: no kernel '
            'image is available for execution on the device 48". What happend when I run it?')
    assert cause(failed([line])) == "gpu-arch-unsupported"
    # an extension's own wording (late set l's oneformer #67)
    assert cause(failed(["error in ms_deformable_im2col_cuda: no kernel image is available for "
                         "execution on the device"])) == "gpu-arch-unsupported"
    # PyTorch's own wording stays unnamed: its own operators may be what lacks the kernel
    report = failed(["RuntimeError: CUDA error: no kernel image is available for execution on "
                     "the device"])
    assert report.primary is None and family(report) == "first-use"


def test_cuda_refusing_the_intel_compiler_is_the_host_compiler_not_the_platform() -> None:
    # T/gomc-124-unsupported-icc-configuration.log
    line = ("/usr/local/cuda/include/host_config.h(79): error: #error directive: -- unsupported "
            "ICC configuration! Only ICC 15.0 and ICC 16.0 on Linux x86_64 are supported!")
    report = failed([line])
    assert report.primary is not None \
        and report.primary.signature_id == "host-compiler-unsupported"
    assert first(report) == line and family(report) == "environment"


def test_tritons_launcher_compiled_at_first_use() -> None:
    # T/peft-2152-unsloth-triton-mingw-gcc-failed.log
    line = ("subprocess.CalledProcessError: Command '['C:\\\\MinGW\\\\bin\\\\gcc.EXE', "
            "'C:\\\\Users\\\\JAMESM~1\\\\AppData\\\\Local\\\\Temp\\\\tmpuu9daoqv\\\\main.c', "
            "'-O3', '-shared', '-ID:\\\\DevelopTools\\\\anaconda3\\\\envs\\\\llama3\\\\Lib\\\\"
            "site-packages\\\\triton\\\\common\\\\..\\\\third_party\\\\cuda\\\\include']' "
            "returned non-zero exit status 1.")
    report = failed(['  File "D:\\DevelopTools\\anaconda3\\envs\\llama3\\Lib\\subprocess.py", '
                     'line 413, in check_call', "    raise CalledProcessError(retcode, cmd)",
                     line])
    assert first(report) == line and family(report) == "first-use"


def test_a_header_not_found_without_the_file_that_included_it_is_the_compiler() -> None:
    # T/rade-gs-6-glm-gtx-pca-hpp-missing-zh.log
    line = "fatal error: glm/gtx/pca.hpp: 没有那个文件或目录"
    report = failed(["pip3 install submodules/diff-gaussian-rasterization is failed.", line,
                     "20 | #include <glm/gtx/pca.hpp>"])
    assert first(report) == line and family(report) == "compile"


def test_pips_summary_alone_is_a_build_that_stopped_compiling() -> None:
    # T/stabilitymatrix-1316-sageattention-failed-building-wheel.log
    report = failed([
        "  note: This error originates from a subprocess, and is likely not a problem with pip.",
        "  ERROR: Failed building wheel for sageattention",
        "  Running setup.py clean for sageattention",
        "Failed to build sageattention"])
    assert first(report) == "ERROR: Failed building wheel for sageattention"
    assert family(report) == "compile" and report.primary is None


def test_triton_2s_build_helpers_missing_from_a_newer_triton() -> None:
    # T/llamafactory-2050-unsloth-no-module-triton-common-zh.log
    report = failed(["    from triton.common.build import libcuda_dirs",
                     "ModuleNotFoundError: No module named 'triton.common'"])
    assert report.primary is not None \
        and report.primary.signature_id == "dependency-version-mismatch"
    assert family(report) == "import"
