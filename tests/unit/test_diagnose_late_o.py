"""What a user sees on real excerpts of late set o (tests/data/logs/late-2026-11-29o, issue 31),
projects furthest from the corpus (Ollama, Darknet, Caffe, Julia's CUDA.jl): an old driver
missing a driver API function, make's and PowerShell's words for a program not found, the
linker in German, MSBuild's error list in Chinese, PyTorch's own DLLs, a Mac named by its chip.
Each excerpt is copied from the file named beside it (O/ is the set's folder)."""

from __future__ import annotations

import pytest
from diagnose_testsupport import cause, failed, family, first

SET_O = "late-2026-11-29o"  # the set the excerpts come from (for the reader)


@pytest.mark.parametrize("line", [
    # O/ollama-5493-unable-to-load-nvcuda-cuctxcreate-v3-driver-418.log
    "dlerr: /usr/lib64/libcuda.so.418.74: undefined symbol: cuCtxCreate_v3",
    # O/ollama-6604-windows-nvcuda-cuctxcreate-v3-driver-too-old-zh.log
    'time=2024-09-03T16:36:00.677+08:00 level=INFO source=gpu.go:568 msg="unable to load cuda '
    'driver library" library=C:\\WINDOWS\\system32\\nvcuda.dll error="symbol lookup for '
    'cuCtxCreate_v3 failed: 找不到指定的程序。"',
])
def test_the_drivers_library_without_a_driver_function_is_an_old_driver(line: str) -> None:
    report = failed([line])
    assert report.primary is not None and report.primary.signature_id == "driver-too-old"


def test_a_symbol_missing_from_another_library_is_no_old_driver() -> None:
    # O/sglang-8131-common-ops-undefined-symbol-cugreenctxstreamcreate.log: the package's own
    # library wants a driver function (never settled: an old driver, or a build for another CUDA)
    report = failed(["ImportError: /opt/conda/lib/python3.10/site-packages/sgl_kernel/"
                     "common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate"])
    assert report.primary is None or report.primary.signature_id != "driver-too-old"
    assert family(report) == "import"


@pytest.mark.parametrize(("line", "signature"), [
    # O/pytorch-knn-cuda-6-docker-make-nvcc-command-not-found.log
    ("make: nvcc: Command not found", "nvcc-not-on-path"),
    # O/vscode-cuda-9-powershell-nvcc-not-recognized.log
    ("nvcc : The term 'nvcc' is not recognized as the name of a cmdlet, function, script file, "
     "or operable program.", "nvcc-not-on-path"),
    ("make: protoc: Command not found", "build-tool-missing"),
    ("cmake : The term 'cmake' is not recognized as the name of a cmdlet, function, script "
     "file, or operable program.", "build-tool-missing"),
])
def test_make_and_powershell_not_finding_a_program(line: str, signature: str) -> None:
    report = failed([line])
    assert report.primary is not None and report.primary.signature_id == signature
    assert family(report) == "environment"


def test_the_linker_not_finding_libcuda_in_german() -> None:
    # O/darknet-1923-ld-lcuda-kann-nicht-gefunden-werden-de.log
    assert cause(failed(["/usr/bin/ld: -lcuda kann nicht gefunden werden"])) == \
        "libcuda-not-found"


def test_msbuilds_error_list_in_chinese_is_the_compile_that_failed() -> None:
    # O/caffe-ocr-62-msb3721-compute-20-exit-code-2-zh.log
    line = ('错误\tMSB3721\t命令“"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v8.0\\bin'
            '\\nvcc.exe" -gencode=arch=compute_20,code=\\"sm_20,compute_20\\"”'
            '已退出，返回代码为 2。')
    report = failed(["1>------ 已启动生成: 项目: libcaffe, 配置: Release x64 ------", line])
    assert first(report) == line and family(report) == "compile"


def test_a_torch_dll_that_is_no_windows_program_is_pytorchs() -> None:
    # O/sd-webui-forge-721-winerror-193-nvfuser-codegen-dll.log
    report = failed(['OSError: [WinError 193] %1 is not a valid Win32 application. Error loading '
                     '"D:\\ai\\webui_forge_cu121_torch21\\system\\python\\lib\\site-packages\\torch'
                     '\\lib\\nvfuser_codegen.dll'])
    assert report.primary is not None and report.primary.signature_id == "torch-dll-load-failed"


def test_a_mac_named_by_its_chip_has_no_cuda() -> None:
    # O/mtet-7-macos-m1-torch-not-compiled-with-cuda.log
    report = failed(["I have tried the example on my Macbook M1 pro but got this error:",
                     "AssertionError: Torch not compiled with CUDA enabled"])
    assert cause(report) == "platform-unsupported"


def test_cmake_without_a_c_compiler_on_windows_is_msvc() -> None:
    report = failed(["-- Building for: C:/Program Files/Microsoft Visual Studio/2022",
                     "CMake Error at CMakeLists.txt:3 (ENABLE_LANGUAGE):",
                     "  No CMAKE_C_COMPILER could be found."])
    assert report.primary is not None and report.primary.cause_group == "msvc-not-found"
