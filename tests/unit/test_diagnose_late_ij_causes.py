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


@pytest.mark.parametrize("line", [
    # J/npms-pr8-libc10-so-import-torch-first.log (the fix: "import torch" first)
    "`ImportError: libc10.so: cannot open shared object file: No such file or directory`",
    # J/image-adaptive-3dlut-28-trilinear-libc10-import-order.log (a maintainer's answer)
    "I have followed the guide in README but it doesn't work with the message 'ImportError: "
    "libc10.so: cannot open shared object file'",
])
def test_libc10_not_found_is_an_extension_imported_before_torch(line: str) -> None:
    report = failed([line])
    assert report.primary is not None
    assert report.primary.signature_id == "torch-symbol-before-import"
    assert "libc10.so" in report.primary.title  # the library, not called a symbol
    assert "symbol" not in report.primary.title
    assert "Import torch before the kernel" in report.primary.fix


def test_a_library_torch_may_lack_is_not_called_an_import_order_problem() -> None:
    # field/mmcv-660-libtorch-cpu-so-missing.log: built for another PyTorch
    report = failed(["ImportError: libtorch_cpu.so: cannot open shared object file: No such "
                     "file or directory"])
    assert report.primary is None or report.primary.signature_id != "torch-symbol-before-import"


def test_host_config_c1189_cut_short_is_the_visual_studio_version_check() -> None:
    # I/mamba-yolo-5-selective-scan-unsupported-visual-studio-cuda-12-1.log: the log wraps
    # host_config.h's message mid-word
    report = failed([
        "      selective_scan_core_bwd.cu",
        "      C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1\\include\\crt/"
        "host_config.h(153): fatal error C1189: #error:  -- unsupp",
        "orted Microsoft Visual Studio version! Only the versions between 2017 and 2022 "
        "(inclusive) are supported! The nvcc flag '-allow-unsu",
    ])
    assert cause(report) == "msvc-too-new-for-cuda"
    assert family(report) == "environment"


def test_nvcc_binary_not_located_is_no_cuda_toolkit() -> None:
    # J/alphapose-413-nvcc-binary-could-not-be-located.log
    report = failed(["    raise EnvironmentError('The nvcc binary could not be '",
                     "OSError: The nvcc binary could not be located in your $PATH. Either add it "
                     "to your path, or set $CUDAHOME"])
    assert cause(report) == "cuda-home-not-set"


def test_xformers_built_with_cuda_none_still_names_the_mismatch() -> None:
    # late-2026-11-28c/dynamicrafter-86-xformers-built-for-torch-230.log
    report = failed([
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:",
        "    PyTorch 2.3.0+cu121 with CUDA None (you have 2.0.0+cu117)",
        "    Python  3.11.9 (you have 3.11.9)",
    ])
    assert cause(report) == "extension-abi-mismatch"
    # field/xformers-874-built-for-torch-2-0-1-have-2-1-0.log: older xFormers name no CUDA
    older = failed([
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:",
        "    PyTorch 2.0.1 (you have 2.1.0+cu121)",
        "    Python  3.11.5 (you have 3.11.5)",
    ])
    assert cause(older) == "extension-abi-mismatch"


@pytest.mark.parametrize("line", [
    # the same line with three established causes and none (the field corpus, late sets d, h):
    # I/hunyuan3d-2-185-custom-rasterizer-dll-procedure-ko.log, without the PyTorch it was
    # built for in the log
    "DLL load failed while importing custom_rasterizer_kernel: 지정된 프로시저를 찾을 수 없습니다.",
    # J/pytorch-geometric-6931-windows-torch-sparse-winerror-127.log
    "OSError: [WinError 127] the specified procedure could not be found",
])
def test_a_procedure_not_found_names_the_family_alone(line: str) -> None:
    report = failed([line])
    assert report.primary is None
    assert family(report) == "import"


@pytest.mark.parametrize("line", [
    # I/comfyui-nvidia-docker-102-nvcc-command-not-found-user.log
    "bash: nvcc: command not found",
    # m/cufinufft-148-sudo-make-nvcc-not-found-zh.log (sudo make: sudo's own PATH)
    "/bin/sh: 1: nvcc: not found",
    "zsh: command not found: nvcc",
])
def test_nvcc_not_found_by_the_shell_is_no_cuda_toolkit_on_path(line: str) -> None:
    # FAMILIES.md's ruling (set m): no CUDA toolkit found, or its bin folder not on PATH
    report = failed([line])
    assert report.primary is not None
    assert (report.primary.cause_id, report.primary.signature_id) == (
        "cuda-home-not-set", "nvcc-not-on-path")
    assert "PATH" in report.primary.fix and family(report) == "environment"


@pytest.mark.parametrize(("line", "tool"), [
    ("/bin/sh: 1: cmake: not found", "cmake"),
    # m/torch2trt-318-jetson-plugins-protoc-not-found.log: any program the build runs
    ("/bin/sh: 1: protoc: not found", "protoc"),
    ("zsh: command not found: ninja", "ninja"),
])
def test_a_program_the_shell_cannot_find_is_a_missing_build_tool(line: str, tool: str) -> None:
    report = failed([line])
    assert cause(report) == "build-tool-missing"
    assert report.primary is not None and tool in report.primary.title


def test_dash_without_bash_syntax_is_not_a_missing_program() -> None:
    # dash running a bash script: "[[: not found" is the script's syntax, not a tool to install
    assert cause(failed(["./build.sh: 12: [[: not found"])) is None


@pytest.mark.parametrize(("lines", "expected", "fact"), [
    # I/jetson-containers-1174-update-alternatives-gcc-12-missing.log
    (["update-alternatives: error: alternative path /usr/bin/gcc-12 doesn't exist"],
     "build-tool-missing", ("tool", "/usr/bin/gcc-12")),
    # J/simple-knn-vllm-3541-gcc-missing-nvcc-host-compiler.log: nvcc's host compiler
    (["      gcc: No such file or directory",
      "      nvcc fatal   : Failed to preprocess host compiler properties."],
     "build-tool-missing", ("tool", "gcc")),
    # late-2026-11-28b/tensorrt-demos-554-unsupported-arch-compute-n-windows.log: a Makefile's
    # variable left unset
    (["nvcc fatal   : Unsupported gpu architecture 'compute_N'"], "bad-env-path",
     ("value", "compute_N")),
    # late-2026-11-28h/warp-ctc-153-cuda-home-colon-list-ld-cannot-find-lcudart.log
    (["No CUDA runtime is found, using CUDA_HOME=':/usr/local/cuda-9.0:/usr/local/cuda-8.0'"],
     "bad-env-path", ("value", ":/usr/local/cuda-9.0:/usr/local/cuda-8.0")),
    # late-2026-11-28h/s4g-release-5-pointnet2-tharg-check-undefined.log
    (['/src/s4g-release/inference/grasp_proposal/network_models/models/pointnet2_utils/csrc/'
      'interpolate_kernel.cu(323): error: identifier "THArgCheck" is undefined'],
     "torch-api-changed", ("symbol", "THArgCheck")),
    # late-2026-11-28f/rwkv-runner-108-wkv-jit-nvcc-unknown-option-t-wsl.log
    (["nvcc fatal : Unknown option 't'"], "tool-version-required", ("option", "t")),
    # late-2026-11-28h/navrl-70-errno13-record-permission-zh-isaacsim.log (Chinese glibc)
    (["ERROR: Could not install packages due to an OSError: [Errno 13] 权限不够: 'RECORD'"],
     "permission-denied", ("path", "RECORD")),
    # late-2026-11-28b/deepspeed-windows-6-cuda-mismatch-121-vs-118-windows.log
    (["op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version "
      "12.1 does not match the version torch was compiled with 11.8, unable to compile "
      "cuda/cpp extensions without a matching cuda version."], "cuda-torch-mismatch", None),
    # late-2026-11-28c/bitsandbytes-1583-no-module-triton-ops-comfyui-windows.log
    (["    from triton.ops.matmul_perf_model import early_config_prune, estimate_matmul_time",
      "ModuleNotFoundError: No module named 'triton.ops'"], "tool-version-required",
     ("tool", "triton")),
    # late-2026-11-28g/textgen-484-bitsandbytes-dll-invalid-elf-header-wsl.log: a Windows DLL
    # loaded on Linux
    (["/home/ultra/miniconda3/envs/textgen/lib/python3.10/site-packages/bitsandbytes/"
      "libbitsandbytes_cuda116.dll: invalid ELF header"], "library-mismatch",
     ("what", "libbitsandbytes_cuda116.dll")),
])
def test_unambiguous_lines_of_the_late_sets_name_their_cause(
        lines: list[str], expected: str, fact: tuple[str, str] | None) -> None:
    report = failed(lines)
    assert cause(report) == expected
    assert report.primary is not None and (fact is None or fact in report.primary.facts)


def test_a_compiler_error_about_a_missing_source_file_is_not_a_missing_compiler() -> None:
    report = failed(["gcc: error: src/missing.c: No such file or directory"])
    assert cause(report) != "build-tool-missing"
