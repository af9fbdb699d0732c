"""What a user sees on real excerpts of late set q (tests/data/logs/late-2026-11-29q, issue 31):
a program's own code without a kernel for the GPU, one of PyTorch's own DLLs under a bare
WinError 126, CMake's NOTFOUND placeholder on the link line, a compiler path with a leading
colon, localized and Visual Studio error-list lines as first errors, a library's exception
wrapping nvcc's own error, and Apple's "mps" device as the sign of a Mac. Each excerpt is copied
from the file named beside it (Q/ is the set's folder)."""

from __future__ import annotations

import pytest
from diagnose_testsupport import cause, failed, family, first

Q = "late-2026-11-29q"  # the set the excerpts come from (for the reader)


@pytest.mark.parametrize("lines", [
    # Q/da-faster-rcnn-pytorch-24-cudacheckerror-no-kernel-image.log (the program's own check)
    ["cudaCheckError() failed : no kernel image is available for execution on the device"],
    # Q/openpose-1708-rtx-3090-no-kernel-image-check-failed.log (Caffe's glog check)
    ["Check failed: error == cudaSuccess (48 vs. 0) no kernel image is available for execution "
     "on the device."],
    # Q/gpustack-1382-llama-box-rtx-5090d-no-kernel-image-zh.log (ggml, at its .cu source)
    ["0.17.512.622 E ggml_cuda_compute_forward: ADD failed",
     r"D:\a\llama-box\llama-box\llama.cpp\ggml\src\ggml-cuda\ggml-cuda.cu:72: CUDA error",
     "0.17.512.848 E CUDA error: no kernel image is available for execution on the device"],
    # Q/pytorch-tutorials-8-gtx-950m-invalid-device-function-sm-50.log (the old THC's wording)
    ["`RuntimeError: cuda runtime error (8) : invalid device function at /data/users/soumith/"
     "miniconda2/conda-bld/pytorch-0.1.6_1484802121799/work/torch/lib/THC/generated/../generic/"
     "THCTensorMathPointwise.cu:246"],
])
def test_a_programs_own_code_without_a_kernel_for_the_gpu(lines: list[str]) -> None:
    report = failed(lines)
    assert report.primary is not None and report.primary.signature_id == "no-kernel-image"
    assert family(report) == "first-use"


def test_the_bare_runtime_error_alone_still_names_no_cause() -> None:
    """The error with nothing that says whose code it is: most often a PyTorch too old for the
    GPU (late sets a-d), so no specific cause."""
    report = failed(["RuntimeError: CUDA error: no kernel image is available for execution on "
                     "the device"])
    assert report.primary is None and family(report) == "first-use"


def test_one_of_pytorchs_own_dlls_under_a_bare_winerror_126() -> None:
    # Q/hi3dgen-1click-3-windows-torch-fbgemm-dll-winerror-126.log
    report = failed([
        "OSError: [WinError 126] The specified module could not be found.",
        "Traceback (most recent call last):",
        r'  File "C:\Hi3DGen_1Click_v04-Triton\code\app.py", line 34, in <module>',
        "    import torch",
        r'OSError: [WinError 126] The specified module could not be found. Error loading '
        r'"C:\Hi3DGen_1Click_v04-Triton\code\venv\lib\site-packages\torch\lib\fbgemm.dll" or '
        "one of its dependencies.",
    ])
    assert report.primary is not None
    assert report.primary.signature_id == "torch-dll-load-failed"
    assert "fbgemm.dll" in report.primary.title
    assert "Visual C++ Redistributable" in report.primary.fix


def test_another_dll_of_torchs_folder_is_not_called_pytorchs_own() -> None:
    """cuDNN's DLL in torch's lib folder (late set a): not PyTorch's own, and the VC++ runtime
    advice would mislead."""
    report = failed([
        "OSError: [WinError 126] The specified module could not be found. Error loading "
        r'"C:\venv\lib\site-packages\torch\lib\cudnn_ops64_9.dll" or one of its dependencies.'])
    assert report.primary is None or report.primary.signature_id != "torch-dll-load-failed"
    assert family(report) == "import"


def test_cmakes_notfound_placeholder_for_libcuda_on_the_link_line() -> None:
    # Q/wsl-6119-ld-cannot-find-lcuda-cuda-library-notfound.log
    report = failed(["/usr/bin/ld: cannot find -lCUDA_CUDA_LIBRARY-NOTFOUND"])
    assert cause(report) == "libcuda-not-found" and family(report) == "link"


def test_a_compiler_path_with_a_leading_colon_in_ninjas_echo() -> None:
    # Q/minkowskiengine-368-nvcc-path-leading-colon.log (the echo is cut here; it is longer)
    echo = (":/usr/local/cuda/bin/nvcc -I/home/username/anaconda3/envs/py37/lib/python3.7/"
            "site-packages/torch/include -I:/usr/local/cuda/include -c -c /home/username/"
            "MinkowskiEngine/src/math_functions_gpu.cu -o /home/username/MinkowskiEngine/build/"
            "temp.linux-x86_64-3.7/home/username/MinkowskiEngine/src/math_functions_gpu.o "
            "-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ --expt-relaxed-constexpr "
            "-gencode=arch=compute_75,code=sm_75 -std=c++14")
    report = failed(["FAILED: /home/username/MinkowskiEngine/build/temp.linux-x86_64-3.7/home/"
                     "username/MinkowskiEngine/src/math_functions_gpu.o ", echo])
    assert cause(report) == "bad-env-path" and family(report) == "environment"
    assert report.primary is not None and ":/usr/local/cuda" in report.primary.title


def test_an_ordinary_compiler_echo_is_still_no_message() -> None:
    echo = ("/usr/local/cuda/bin/nvcc -I/usr/include -Werror -c x.cu -o x.o "
            + "-I/opt/error/include " * 30)
    report = failed(["FAILED: x.o", echo, "x.cu(3): error: identifier \"foo\" is undefined"])
    assert first(report) == 'x.cu(3): error: identifier "foo" is undefined'
    assert cause(report) != "bad-env-path"


@pytest.mark.parametrize(("line", "fam"), [
    # Q/pfpnet-pytorch-5-nms-kernel-cu-missing-zh.log (gcc in a Chinese locale)
    ("gcc: 错误：nms/nms_kernel.cu：没有那个文件或目录", "compile"),
    # the same in English: the source file the compiler is to compile is missing
    ("gcc: error: nms/nms_kernel.cu: No such file or directory", "compile"),
])
def test_the_compiler_driver_missing_its_source_file(line: str, fam: str) -> None:
    report = failed([line, "error: command '/usr/local/cuda/bin/nvcc' failed with exit status 4"])
    assert first(report) == line and family(report) == fam


def test_a_linker_code_copied_from_visual_studios_error_list() -> None:
    # Q/builder-867-windows-libtorch-lnk2001-warp-size.log
    line = ('> LNK2001\tunresolved external symbol ""int __cdecl at::cuda::warp_size(void)" '
            '(?warp_size@cuda@at@@YAHXZ)"')
    report = failed(["I get the error: ", "", line])
    assert first(report) == line and family(report) == "link"


def test_a_librarys_exception_gives_way_to_the_nvcc_error_it_wraps() -> None:
    # Q/worddumb-230-windows-cupy-nvcc-host-compiler-targets-unsupported-os.log
    report = failed([
        "cupy.cuda.compiler.NVCCException: `nvcc` command returns non-zero exit status. ",
        "return-code: 1",
        "tmpxft_000075f0_00000000-2.cpp",
        "nvcc fatal   : Host compiler targets unsupported OS.",
    ])
    assert first(report) == "nvcc fatal   : Host compiler targets unsupported OS."
    assert report.primary is not None
    assert report.primary.signature_id == "host-compiler-unsupported"


def test_apples_mps_device_shows_a_mac() -> None:
    # Q/tango-12-apple-m1-torch-not-compiled-with-cuda.log
    report = failed([
        'Error message ive got:tango/venv/lib/python3.10/site-packages/torch/cuda/__init__.py", '
        "line 221, in _lazy_init",
        '    raise AssertionError("Torch not compiled with CUDA enabled")',
        "AssertionError: Torch not compiled with CUDA enabled",
        "Did the following: ",
        'tango = Tango("declare-lab/tango", "mps")',
    ])
    assert cause(report) == "platform-unsupported"


def test_without_a_sign_of_a_mac_it_is_a_cpu_only_pytorch() -> None:
    report = failed(["AssertionError: Torch not compiled with CUDA enabled",
                     'tango = Tango("declare-lab/tango", "cuda")'])
    assert cause(report) == "built-without-cuda"
