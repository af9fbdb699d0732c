"""The specific cause (``DiagnosisReport.primary``) on real excerpts of late sets i and j
(tests/data/logs/late-2026-11-28i and -28j, issue 31): the cause is named where its evidence is
unambiguous, and otherwise the report names the family alone (an honest "not known" beats a
confident wrong cause). Each excerpt is copied from the file named beside it."""

from __future__ import annotations

import pytest
from diagnose_testsupport import cause, failed, family

I = "late-2026-11-28i"  # noqa: E741 - the sets the excerpts come from (for the reader)
J = "late-2026-11-28j"


def test_cl_found_but_its_version_undecodable_is_not_msvc_missing() -> None:
    # J/lita-gs-3-diff-gaussian-rasterization-winerror2-cl-codec-zh.log: cl.exe ran (its version
    # output could not be decoded in a Chinese code page), then a program the build starts was
    # not found; the thread never said which: the family alone, not "cl.exe was not found"
    report = failed([
        "      running build_ext",
        "      E:\\Anconda\\envs\\LITA-GS-main\\lib\\site-packages\\torch\\utils\\cpp_extension.py"
        ":380: UserWarning: Error checking compiler version for cl: 'cp1' codec can't decode "
        "bytes in position 0--1: No mapping for the Unicode character exists in the target code "
        "page.",
        "        warnings.warn(f'Error checking compiler version for {compiler}: {error}')",
        "      error: [WinError 2] 系统找不到指定的文件。",
        "      [end of output]",
    ])
    assert report.primary is None and report.family is not None


def test_a_bare_winerror_2_at_build_ext_names_the_family_alone() -> None:
    # J/gaussian-splatting-1214-diff-gaussian-rasterization-winerror2-zh.log
    report = failed(["  error: subprocess-exited-with-error",
                     "      running build_ext",
                     "      error: [WinError 2] 系统找不到指定的文件。"])
    assert report.primary is None and report.family is not None


def test_spanish_procedure_not_found_is_not_read_as_a_pytorch_mismatch() -> None:
    # I/comfyui-10367-custom-rasterizer-dll-procedure-es.log: Spanish Windows' wording of
    # WinError 127; Windows does not say which DLL lacks the procedure: the family alone
    report = failed(["ImportError: DLL load failed while importing custom_rasterizer_kernel: "
                     "No se encontró el proceso especificado."])
    assert report.primary is None
    assert family(report) == "import"


def test_xformers_built_for_another_pytorch_names_the_mismatch() -> None:
    # I/framepack-408-xformers-built-for-2-0-0-cu118-have-2-6-0.log
    report = failed([
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:",
        "    PyTorch 2.0.0+cu118 with CUDA 1108 (you have 2.6.0+cu126)",
        "    Python  3.10.11 (you have 3.10.6)",
    ])
    assert cause(report) == "extension-abi-mismatch"


def test_xformers_with_the_same_pytorch_names_no_mismatch() -> None:
    # xFormers' own lines with the versions agreeing: the installed PyTorch is not the reason
    report = failed([
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:",
        "    PyTorch 2.6.0+cu126 with CUDA 1206 (you have 2.6.0+cu126)",
    ])
    assert cause(report) != "extension-abi-mismatch"


def test_another_packages_dll_failing_to_initialise_names_the_family_alone() -> None:
    # J/comfyui-pulid-flux-enhanced-16-onnx-dll-init-failed.log: onnx's native module; the
    # thread does not establish why
    report = failed([
        "Cannot import E:\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\ComfyUI-PuLID-Flux-"
        "Enhanced module for custom nodes: DLL load failed while importing onnx_cpp2py_export: A "
        "dynamic link library (DLL) initialization routine failed."])
    assert report.primary is None
    assert family(report) == "import"


def test_libtriton_failing_to_initialise_is_a_library_mismatch() -> None:
    # field/framepack-390-libtriton-dll-init-failed.log (Triton on Windows: the field corpus
    # labels the same line so in 6 logs)
    report = failed(["ImportError: DLL load failed while importing libtriton: A dynamic link "
                     "library (DLL) initialization routine failed."])
    assert cause(report) == "library-mismatch"


@pytest.mark.parametrize("line", [
    # I/bitsandbytes-1641-windows-old-cuda-setup-windowspath-not-iterable.log has bitsandbytes on
    # other lines; without the package named, the same line names the family alone
    "TypeError: argument of type 'WindowsPath' is not iterable",
])
def test_windowspath_not_iterable_needs_bitsandbytes_in_the_log(line: str) -> None:
    assert failed([line]).primary is None
    named = failed(["CUDA SETUP: Loading binary C:\\venv\\lib\\site-packages\\bitsandbytes\\"
                    "libbitsandbytes_cuda121.so...", line])
    assert cause(named) == "platform-unsupported"
