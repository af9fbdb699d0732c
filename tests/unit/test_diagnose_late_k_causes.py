"""The specific cause (``DiagnosisReport.primary``) on real excerpts of late set k
(tests/data/logs/late-2026-11-29k, issue 31), the classes its one blind scoring got wrong or
missed: a CUDA library's loader naming a Windows DLL is a DLL dependency missing, the same
loader naming a Linux .so a library mismatch; nvcc too old for an option value (-arch=native) is
not a toolkit too old for an architecture; lines that say less stay the family alone. Each
excerpt is copied from the file named beside it."""

from __future__ import annotations

import pytest
from diagnose_testsupport import cause, failed, family

K = "late-2026-11-29k"  # the set the excerpts come from (for the reader)


@pytest.mark.parametrize(("lines", "dll"), [
    # K/faster-whisper-85-windows-cudnn-ops-infer64-8-dll-error-126.log
    (["Could not load library cudnn_ops_infer64_8.dll. Error code 126",
      "Please make sure cudnn_ops_infer64_8.dll is in your library path!"],
     "cudnn_ops_infer64_8.dll"),
    # K/speech-recognition-835-windows-cudnn-ops64-9-dll.log
    (["INFO:faster_whisper:Processing audio with duration 00:02.368",
      "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!",
      "Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor"],
     "cudnn_ops64_9.dll"),
    # K/ballonstranslator-404-windows-ctranslate2-cublas64-12-dll.log
    (["    tokenized_translated = self.translator.translate_batch(tokenized_text)",
      "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded"],
     "cublas64_12.dll"),
    # K/deep-live-cam-954-windows-onnxruntime-providers-cuda-error-126.log (shortened path)
    (["2025-02-23 00:51:23.0112321 [E:onnxruntime:Default, provider_bridge_ort.cc:1862 "
      "onnxruntime::TryGetProviderInfo_CUDA] D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\"
      "provider_bridge_ort.cc:1539 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : "
      "FAIL : LoadLibrary failed with error 126 \"\" when trying to load \"C:\\Users\\Tuga\\"
      "venv\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\""],
     "onnxruntime_providers_cuda.dll"),
])
def test_a_cuda_library_dll_not_loaded_on_windows_is_a_missing_dependency(
        lines: list[str], dll: str) -> None:
    report = failed(lines)
    assert report.primary is not None
    assert report.primary.signature_id == "dll-dependency-missing"
    assert dll in report.primary.title  # the user sees which DLL


def test_the_same_loader_naming_a_linux_library_is_a_library_mismatch() -> None:
    # K/whisper-ctranslate2-74-colab-libcublas-so-11.log: CTranslate2 built for CUDA 11 on a
    # system with CUDA 12's libraries
    report = failed([
        "  File \"/usr/local/lib/python3.10/dist-packages/faster_whisper/transcribe.py\", "
        "line 629, in encode",
        "    return self.model.encode(features, to_cpu=to_cpu)",
        "RuntimeError: Library libcublas.so.11 is not found or cannot be loaded",
    ])
    assert report.primary is not None
    assert report.primary.signature_id == "library-mismatch"
    assert "libcublas.so.11" in report.primary.title


def test_nvcc_without_arch_native_is_too_old_for_the_option() -> None:
    # K/llamafile-56-nvcc-arch-native-not-defined.log: the distribution's old nvcc knows neither
    # -arch=native nor compute_86; the first error is the option
    report = failed([
        "`building ggml-cuda with nvcc -arch=native...",
        "nvcc fatal   : Value 'native' is not defined for option 'gpu-architecture'",
        "/usr/bin/nvcc: returned nonzero exit status",
        "building nvidia compute capability detector...",
        "building ggml-cuda with nvcc -arch=compute_86...",
        "nvcc fatal   : Value 'compute_86' is not defined for option 'gpu-architecture'",
        "/usr/bin/nvcc: returned nonzero exit status",
    ])
    assert report.primary is not None
    assert report.primary.signature_id == "nvcc-too-old-for-option"
    assert cause(report) == "tool-version-required"


def test_compute_native_names_the_family_alone() -> None:
    # K/fastllm-187-nvcc-unsupported-compute-native-zh.log: CMake's "native" architecture passed
    # on by a CMake or an nvcc too old for it (the log does not say which): not a malformed
    # setting, not a toolkit too old for a GPU
    report = failed([
        "# GPU编译失败",
        "nvcc fatal   : Unsupported gpu architecture 'compute_native'",
        "make[2]: *** [CMakeFiles/fastllm.dir/build.make:244: CMakeFiles/fastllm.dir/src/devices/"
        "cuda/fastllm-cuda.cu.o] Error 1",
    ])
    assert report.primary is None
    assert family(report) is not None


def test_a_name_missing_from_a_compiled_module_is_no_version_named() -> None:
    # K/spconv-655-cannot-import-cudaevent-from-cumm.log: "(unknown location)", a compiled
    # module; a build without the part as much as another version: the family alone
    report = failed([
        "from cumm.core_cc.tensorview_bind import CUDAKernelTimer, CUDAEvent, Context",
        "ImportError: cannot import name 'CUDAEvent' from 'cumm.core_cc.tensorview_bind' "
        "(unknown location)",
    ])
    assert report.primary is None
    assert family(report) == "import"


def test_cl_warning_before_the_linker_failing_is_not_msvc_missing() -> None:
    # K/frnn-14-windows-link-exe-1120-zh.log: PyTorch could not check cl's version, then MSVC's
    # link.exe ran and failed (LNK1120): cl.exe was found
    report = failed([
        "D:\\Anaconda\\envs\\SPT\\lib\\site-packages\\torch\\utils\\cpp_extension.py:359: "
        "UserWarning: Error checking compiler version for cl: [WinError 2] 系统找不到指定的文件。",
        " warnings.warn(f'Error checking compiler version for {compiler}: {error}')",
        "error: command 'C:\\\\Program Files\\\\Microsoft Visual Studio\\\\2022\\\\Community\\\\VC"
        "\\\\Tools\\\\MSVC\\\\14.37.32822\\\\bin\\\\HostX86\\\\x64\\\\link.exe' failed with exit "
        "code 1120",
        "[end of output]",
    ])
    assert cause(report) != "msvc-not-found"


def test_th_header_missing_in_chinese_msvc_is_the_removed_api() -> None:
    # K/dcnv2-latest-75-windows-th-h-c1083-zh.log: Chinese MSVC writes C1083 with a full-width
    # colon ("C1083：")
    report = failed([
        "您好，我的配置与您相同，但始终报错，我用的是visual studio2022，报错如下：致命错误 C1083："
        "无法打开包括文件：“TH/TH.h”：没有这样的文件或目录",
    ])
    assert cause(report) == "torch-api-changed"
