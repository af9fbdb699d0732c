"""Diagnosis that holds on failures it has never seen (issue 21): causes as families that carry
this log's facts, advice that names the right package's own switch, a failed build never
reported clean, terminal lines redrawn with carriage returns, and CUDA versions read off folder
names. Lines are from real logs (the field corpus's training part, tests/data/logs/field, and
the threads named)."""

from __future__ import annotations

import pytest

from kernel_wizard.base.messages import Msg
from kernel_wizard.build.run import diagnosis_context
from kernel_wizard.diagnose import LogDiagnoser
from kernel_wizard.diagnose.context import context_for_package, package_in_line
from kernel_wizard.diagnose.facts import floor_words
from kernel_wizard.diagnose.matcher import diagnose_lines

# -- families: one rule, many instances, each named with its own facts ------------------------


@pytest.mark.parametrize(("line", "family", "facts"), [
    ("libcusparse.so.11: cannot open shared object file: No such file or directory",
     "library-mismatch", {"what": "libcusparse.so.11"}),
    # not seen while the rules were written: another library, another version
    ("ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory",
     "library-mismatch", {"what": "libcudnn.so.9"}),
    ("OSError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by "
     "/opt/x/libbitsandbytes_cuda126.so)", "library-mismatch", {"what": "GLIBC_2.34"}),
    ("RuntimeError: causal_conv1d is only supported on CUDA 11.6 and above.",
     "tool-version-required", {"tool": "CUDA", "required": "11.6"}),
    ("RuntimeError: selective_scan is only supported on CUDA 12.3 and above.",
     "tool-version-required", {"tool": "CUDA", "required": "12.3"}),
    ("ImportError: Requires Flash-Attention version >=2.7.1,<=2.7.4 but got 2.8.0.post2.",
     "tool-version-required",
     {"tool": "Flash-Attention", "required": ">=2.7.1,<=2.7.4", "found": "2.8.0.post2"}),
    # ("sh: 1: nvcc: not found": the family alone since late set i labelled it no CUDA toolkit,
    # tests/unit/test_diagnose_late_ij_causes.py)
    ("sh: 1: ninja: not found", "build-tool-missing", {"tool": "ninja"}),
    ("/bin/bash: line 1: cmake: command not found", "build-tool-missing", {"tool": "cmake"}),
    # CMake finding no CUDA compiler is no CUDA toolkit found (tests/data/logs/FAMILIES.md)
    ("No CMAKE_CUDA_COMPILER could be found.", "cuda-home-not-set", {}),
    ("No CMAKE_CXX_COMPILER could be found.", "build-tool-missing",
     {"tool": "CMAKE_CXX_COMPILER"}),
    ("ValueError: Unknown CUDA arch (8.9) or GPU not supported", "tool-version-required",
     {"arch": "8.9"}),
    ("ValueError: Unknown CUDA arch (8.6；8.9) or GPU not supported", "bad-env-path",
     {"value": "8.6；8.9"}),
    ("/root/bitsandbytes/include/Portable.h:35:2: error: #error Compiler must support SSE2",
     "platform-unsupported", {"platform": "SSE2"}),
    ("src/nms_cuda.cpp:2:10: fatal error: THC/THC.h: No such file or directory",
     "torch-api-changed", {"symbol": "THC/THC.h"}),
    ("ModuleNotFoundError: No module named 'torch._six'", "torch-api-changed",
     {"symbol": "torch._six"}),
    # a variable that holds a list or quotes, read as a folder (PyTorch-Encoding #297,
    # SparseConvNet #94, AlphaPose #765: threads the rules were not written from)
    ("/bin/sh: 1: :/usr/local/cuda/bin/nvcc: not found", "bad-env-path",
     {"value": ":/usr/local/cuda"}),
    ("unable to execute ':/usr/local/cuda-8.0/bin/nvcc': No such file or directory",
     "bad-env-path", {"value": ":/usr/local/cuda-8.0"}),
    ("error: command \"'/usr/local/cuda'/bin/nvcc\" failed with exit status 1", "bad-env-path",
     {"value": "'/usr/local/cuda'"}),
    ("ValueError: Unknown CUDA arch (3.0) or GPU not supported", "bad-env-path",
     {"value": "3.0"}),
    # a program that is not there, in the languages of cmd.exe
    ("'nvcc' n'est pas reconnu en tant que commande interne ou externe, un programme "
     "exécutable ou un fichier de commandes.", "build-tool-missing", {"tool": "nvcc"}),
    ("'ninja'은(는) 내부 또는 외부 명령, 실행할 수 있는 프로그램, 또는 배치 파일이 아닙니다.",
     "build-tool-missing", {"tool": "ninja"}),
    ("'git' は、内部コマンドまたは外部コマンド、操作可能なプログラムまたはバッチ ファイルとして"
     "認識されていません。", "build-tool-missing", {"tool": "git"}),
    ("Der Befehl \"cmake\" ist entweder falsch geschrieben oder konnte nicht gefunden werden.",
     "build-tool-missing", {"tool": "cmake"}),
    ("unable to execute 'x86_64-linux-gnu-gcc': No such file or directory", "build-tool-missing",
     {"tool": "x86_64-linux-gnu-gcc"}),
    # versions
    ("AssertionError: MMCV==1.7.2 is used but incompatible. Please install mmcv>=1.3.17, "
     "<=1.5.0.", "tool-version-required", {"tool": "MMCV", "found": "1.7.2"}),
    ("ERROR: Package 'vllm' requires a different Python: 3.8.10 not in '>=3.9'",
     "tool-version-required", {"tool": "Python", "found": "3.8.10", "required": ">=3.9"}),
    ("RuntimeError: The current installed version of g++ (4.8.5) is less than the minimum "
     "required version by CUDA 12.1 (6.0.0). Please make sure to use an adequate version of g++ "
     "(>=6.0.0, <13.0).", "tool-version-required",
     {"tool": "g++", "found": "4.8.5", "required": "6.0.0"}),
    ("libtorch/include/ATen/ATen.h:4:2: error: #error C++17 or later compatible compiler is "
     "required to use ATen.", "tool-version-required", {"tool": "C++", "required": "17"}),
    ("ImportError: cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main'",
     "tool-version-required", {"tool": "cumm", "symbol": "ConvFwdAndBwdInput"}),
    # PyTorch's interfaces
    ("AttributeError: module 'torch.library' has no attribute 'register_fake'",
     "torch-api-changed", {"module": "torch.library", "symbol": "register_fake"}),
    ("ModuleNotFoundError: No module named 'torch.distributed._shard'", "torch-api-changed",
     {"symbol": "torch.distributed._shard"}),
    ("/DCNv2_latest/src/cpu/dcn_v2_cpu.cpp:7:10: fatal error: TH/TH.h: No such file or directory",
     "torch-api-changed", {"symbol": "TH/TH.h"}),
    # Windows' loader in other languages: a DLL whose initialisation failed (library) or a
    # procedure (PyTorch's ABI); a module Windows does not name: test_diagnose_ambiguous.py
    # (libtriton's DLL failing to initialise and a cuDNN DLL of torch's lib folder named wrong
    # causes on late set a: the family alone, tests/unit/test_diagnose_calibration.py)
    # ("argument of type 'WindowsPath' is not iterable": platform-unsupported only with
    # bitsandbytes in the log since late set i, tests/unit/test_diagnose_late_ij_causes.py)
])
def test_a_family_names_the_instance_in_the_log(line: str, family: str,
                                                facts: dict[str, str]) -> None:
    report = diagnose_lines([line], )
    assert report.primary is not None, line
    assert report.primary.cause_group == family
    assert dict(report.primary.facts) == facts
    shown = f"{report.primary.title} {report.primary.cause} {report.primary.fix}"
    for name, value in facts.items():
        # the person reads this log's facts (a version requirement worded as a floor)
        worded = floor_words(value) if name == "required" else value
        assert worded in shown, (worded, shown)
    assert "{" not in shown  # every placeholder was filled


def test_family_texts_keep_their_template_for_translation() -> None:
    report = diagnose_lines(["sh: 1: ninja: not found"])
    assert report.primary is not None
    title = report.primary.title
    assert isinstance(title, Msg)
    assert title.template == "A build tool is missing or cannot be run: {tool}"
    assert title.fields == {"tool": "ninja"}


def test_a_specific_cause_is_not_doubled_by_its_family() -> None:
    # cl.exe is the Visual Studio compiler: its own row, not also "a build tool is missing"
    hits = diagnose_lines(["'cl' is not recognized as an internal or external command,"]).hits
    assert [h.signature_id for h in hits] == ["msvc-not-found"]
    # PyTorch's own symbol: the ABI row; another library's: the library family
    torch = diagnose_lines(["ImportError: /env/lib/python3.10/site-packages/x.so: undefined "
                            "symbol: _ZNK3c1010TensorImpl4sizeEv"])
    assert torch.primary is not None and torch.primary.cause_group == "extension-abi-mismatch"
    std = diagnose_lines(["ImportError: x.so: undefined symbol: "
                          "_ZNSt15__exception_ptr13exception_ptr9_M_addrefEv"])
    assert std.primary is not None and std.primary.cause_group == "library-mismatch"


# -- the right package's switch, never another's -----------------------------------------------

WHEEL_404 = [
    "Building wheel for causal-conv1d (setup.py) ... error",
    "Guessing wheel URL:  https://github.com/Dao-AILab/causal-conv1d/releases/download/v1.4.0/"
    "causal_conv1d-1.4.0+cu12torch2.5cxx11abiFALSE-cp311-cp311-linux_x86_64.whl",
    "Precompiled wheel not found. Building from source...",
]


def test_a_missing_prebuilt_wheel_names_the_packages_own_switch() -> None:
    report = diagnose_lines(WHEEL_404)
    hit = next(h for h in report.hits if h.signature_id == "flash-attn-wheel-404")
    assert "CAUSAL_CONV1D_FORCE_BUILD=TRUE" in hit.fix
    assert "FLASH_ATTENTION" not in f"{hit.title} {hit.cause} {hit.fix}"
    assert "causal-conv1d" in hit.title


def test_the_wheel_url_alone_names_the_package() -> None:
    report = diagnose_lines(WHEEL_404[1:])  # no "Building wheel for" line
    hit = next(h for h in report.hits if h.signature_id == "flash-attn-wheel-404")
    assert "CAUSAL_CONV1D_FORCE_BUILD=TRUE" in hit.fix


def test_an_unknown_packages_missing_wheel_names_no_switch() -> None:
    report = diagnose_lines(["Building wheel for some-kernel (setup.py) ... error",
                             "Precompiled wheel not found. Building from source..."])
    hit = report.hits[0]
    assert "FORCE_BUILD" not in hit.fix and "FLASH" not in hit.fix
    assert "its setup.py has one" in hit.fix
    assert "some-kernel" in hit.title


def test_flashmla_advice_names_flashmla_settings_and_gpus() -> None:
    context = diagnosis_context("flashmla")
    assert context is not None
    arch = LogDiagnoser(context=context)
    arch.feed("nvcc fatal   : Unsupported gpu architecture 'compute_100f'")
    hit = arch.summary().primary
    assert hit is not None and hit.signature_id == "cuda-too-old-for-gpu-arch"
    assert "FLASH_MLA_DISABLE_SM100" in hit.fix and "TORCH_CUDA_ARCH_LIST" not in hit.fix
    gpu = LogDiagnoser(context=context)
    gpu.feed("RuntimeError: CUDA error: no kernel image is available for execution on the device")
    hit = gpu.summary().primary  # the wizard's own kernel ran: its code lacks this GPU
    assert hit is not None and hit.cause_group == "gpu-arch-unsupported"
    assert "FlashMLA needs Hopper" in hit.cause
    assert "FlashAttention" not in hit.cause and "Ampere" not in hit.cause


def test_flash_attn_advice_keeps_its_own_switches() -> None:
    context = diagnosis_context("flash_attn")
    assert context is not None
    facts = context.facts()
    assert facts["force_build"] == "FLASH_ATTENTION_FORCE_BUILD=TRUE"
    assert facts["arch_setting"].startswith("FLASH_ATTN_CUDA_ARCHS")
    assert "Ampere" in facts["gpu_text"]


def test_packages_are_read_off_pip_and_setup_lines() -> None:
    assert package_in_line("  Building wheel for flash-attn (setup.py) ... error") == "flash-attn"
    assert package_in_line("Guessing wheel URL:  https://github.com/state-spaces/mamba/releases/"
                           "download/v2.2.2/x.whl") == "mamba-ssm"
    assert package_in_line("compiling a.cu") is None
    assert context_for_package("mamba-ssm").force_build == "MAMBA_FORCE_BUILD=TRUE"


# -- a failed build is never reported clean ----------------------------------------------------


@pytest.mark.parametrize(("lines", "first"), [
    (["running build_ext", "./build.sh: line 3: ./tools/gen: cannot execute binary file",
      "error: subprocess-exited-with-error"],
     "./build.sh: line 3: ./tools/gen: cannot execute binary file"),
    (["Building wheel for x (pyproject.toml) ... error", "make: No rule to make target 'cuda10x'."
      "  Stop."], "make: No rule to make target 'cuda10x'.  Stop."),
    # pip's step that failed, not the exit code its box adds (late set n)
    (["  × Building wheel for x (pyproject.toml) did not run successfully.", "  │ exit code: 1"],
     "  × Building wheel for x (pyproject.toml) did not run successfully."),
])
def test_a_failed_build_without_a_known_error_shows_its_failure_line(
        lines: list[str], first: str) -> None:
    diagnoser = LogDiagnoser()
    for line in lines:
        diagnoser.feed(line)
    report = diagnoser.summary(failed=True)
    assert report.first_error is not None and report.first_error.line == first
    assert report.first_error.fallback
    text = report.describe()
    assert "No errors" not in text
    if report.primary is None:
        assert "not one the wizard knows" in text and "report bundle" in text


def test_a_tool_that_cannot_run_is_a_named_cause() -> None:
    report = diagnose_lines(["running build_ext", "/bin/sh: ./configure: Permission denied"])
    assert report.first_error is not None and not report.first_error.fallback
    assert report.primary is not None and report.primary.cause_group == "build-tool-missing"
    assert dict(report.primary.facts) == {"tool": "./configure"}


def test_a_successful_log_is_still_clean() -> None:
    report = diagnose_lines(["running build_ext", "copying build/lib/x.so ->"])
    assert report.first_error is None and not report.failed
    assert "No errors and no known problems" in report.describe()


# -- lines as terminals draw them, versions as folders name them -------------------------------


def test_an_error_after_a_carriage_return_is_the_first_error() -> None:
    line = ("Building wheel for flash-attn (setup.py) ... -\r"
            "csrc/a.cu:3:10: fatal error: cuda/std/utility: No such file or directory")
    report = diagnose_lines([line])
    assert report.first_error is not None
    assert report.first_error.line.startswith("csrc/a.cu:3:10: fatal error")
    assert report.primary is not None and report.primary.signature_id == "cccl-headers-missing"


def test_visual_studio_advice_reads_the_cuda_version_off_a_folder_name() -> None:
    report = diagnose_lines([
        r"E:\Cuda112\include\crt/host_config.h(160): fatal error C1189: #error:  -- unsupported "
        "Microsoft Visual Studio version! Only the versions between 2017 and 2019 (inclusive) "
        "are supported!"])
    assert report.primary is not None and report.primary.signature_id == "msvc-too-new-for-cuda"
    assert "CUDA 11.2 accepts Visual Studio 2017 and 2019 only" in report.primary.fix


# -- the ordinary causes (issue 21, collector f): each named on a variant its rules never saw ---


@pytest.mark.parametrize(("line", "cause", "facts"), [
    ("/usr/bin/ld: final link failed: No space left on device", "disk-full", {}),
    ("OSError: [Errno 28] No space left on device: '/tmp/pip-install-x/flash_attn'",
     "disk-full", {}),
    ("LINK : fatal error LNK1180: insufficient disk space to complete link", "disk-full", {}),
    ("csrc/x.cu:1:1: internal compiler error: in tsubst_copy, at cp/pt.c:16150",
     "compiler-crashed", {}),
    ("nvcc error   : 'cicc' died due to signal 11 (Invalid memory reference)",
     "compiler-crashed", {"compiler": "cicc"}),
    ("x.cpp(12): fatal error C1001: Internal compiler error.", "compiler-crashed", {}),
    ("RuntimeError: Not compiled with CUDA support", "built-without-cuda", {}),
    ("kernel.cu(41): error: no instance of overloaded function \"atomicAdd\" matches the "
     "argument list", "arch-too-old-for-source", {"function": "atomicAdd"}),
    ("nvcc fatal   : Host compiler targets unsupported OS.", "host-compiler-unsupported", {}),
    ("ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: "
     "'/usr/lib/python3/dist-packages/ninja'", "permission-denied",
     {"path": "/usr/lib/python3/dist-packages/ninja"}),
    ("subprocess.CalledProcessError: Command '['which', 'x86_64-conda-linux-gnu-c++']' returned "
     "non-zero exit status 1.", "build-tool-missing", {"tool": "x86_64-conda-linux-gnu-c++"}),
    ("subprocess.CalledProcessError: Command '['which', 'g++ -std=c++17']' returned non-zero "
     "exit status 1.", "bad-env-path", {"value": "g++ -std=c++17"}),
    ("g++: fatal error: cannot execute 'cc1plus': execvp: No such file or directory",
     "build-tool-missing", {"tool": "cc1plus"}),
    ("nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
     "tool-version-required", {"option": "-generate-dependencies-with-compile"}),
    ("src/ops.cpp:3:10: fatal error: cuda_runtime_api.h: No such file or directory",
     "cuda-home-not-set", {}),
    ("RuntimeError: operator torchvision::roi_align does not exist", "extension-abi-mismatch",
     {}),
    ("ImportError: /env/site-packages/x/_C.so: undefined symbol: *ZN3c106detail14torchCheckFail",
     "extension-abi-mismatch", {}),
    ("ImportError: /usr/lib/libstdc++.so.6: version GLIBCXX_3.4.32 not found (required by x.so)",
     "library-mismatch", {"what": "GLIBCXX_3.4.32"}),
    ("ImportError: DLL load failed while importing _C: %1 is not a valid Win32 application.",
     "library-mismatch", {"module": "_C"}),
    ("C:\\src\\kernel.cuh(88): error C2975: 'kIsCausal_': invalid template argument for "
     "'Kernel_traits', expected compile-time constant expression", "msvc-gnu-extensions", {}),
])
def test_an_ordinary_cause_is_named_on_a_variant(line: str, cause: str,
                                                 facts: dict[str, str]) -> None:
    report = diagnose_lines([line])
    assert report.primary is not None, line
    assert report.primary.cause_group == cause
    assert dict(report.primary.facts) == facts
    shown = f"{report.primary.title} {report.primary.cause} {report.primary.fix}"
    assert "{" not in shown
    assert report.first_error is not None and report.first_error.line == line


def test_oom_killed_compiler_is_memory_not_a_crash() -> None:
    # gcc's compiler proper killed is memory where the log shows memory running short; without
    # that, the family alone (late sets l and m: a container's limit, 24 GB that did not help)
    report = diagnose_lines(["c++: internal compiler error: Killed (program cc1plus)"])
    assert report.primary is None or report.primary.signature_id != "compiler-crashed"
    assert report.family is not None and report.family.id == "compiler-crash"
    report = diagnose_lines(["c++: internal compiler error: Killed (program cc1plus)",
                             "dmesg: Out of memory: Killed process 4242 (cc1plus)"])
    assert report.primary is not None and report.primary.cause_group == "out-of-memory"


def test_a_localized_gcc_error_is_the_first_error() -> None:
    report = diagnose_lines([
        "running build_ext",
        "src/a.cpp:5:10: ошибка: «foo» не был объявлен в этой области видимости",
        "error: command '/usr/bin/gcc' failed with exit code 1",
    ], )
    assert report.first_error is not None
    assert "ошибка" in report.first_error.line


# -- round 2: precision first; a family declines when the evidence is not its own --------------


@pytest.mark.parametrize("line", [
    # the package's own functions, not a library's: the build left them out (detectron2 #2013,
    # Lvllm #14)
    "ImportError: /home/wt/detectron2/detectron2/_C.cpython-36m-x86_64-linux-gnu.so: undefined "
    "symbol: _ZN10detectron210detectron218get_cudart_versionEv.",
    "ImportError: /x/vllm/_C.abi3.so: undefined symbol: "
    "_Z20cutlass_moe_mm_sm100RN2at6TensorERKS0_S3_S3_S3_S3_S3_S3_S3_S3_bb",
])
def test_an_undefined_symbol_of_the_package_itself_names_no_library(line: str) -> None:
    report = diagnose_lines([line])
    assert report.first_error is not None and report.first_error.line == line
    assert report.primary is None


@pytest.mark.parametrize(("line", "what"), [
    # a shared library's symbols still name it: C functions and the C++ standard library's
    ("ImportError: /x/triton/_C/libtriton.so: undefined symbol: setupterm", "setupterm"),
    ("ImportError: /x/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister",
     "ncclCommRegister"),
    ("ImportError: /x/_C.so: undefined symbol: _ZNSt15__exception_ptr13exception_ptr9_M_addrefEv",
     "_ZNSt15__exception_ptr13exception_ptr9_M_addrefEv"),
])
def test_an_undefined_symbol_of_a_shared_library_names_it(line: str, what: str) -> None:
    report = diagnose_lines([line])
    assert report.primary is not None and report.primary.cause_group == "library-mismatch"
    assert dict(report.primary.facts)["symbol"] == what


def test_pips_resolver_notice_is_not_the_failure() -> None:
    """pip lists conflicts it installs anyway; the failure is what comes after."""
    report = diagnose_lines([
        "ERROR: pip's dependency resolver does not currently take into account all the packages "
        "that are installed. This behaviour is the source of the following dependency conflicts.",
        "xformers 0.0.26 requires torch==2.3.0, but you have torch 2.1.0 which is incompatible.",
        "Traceback (most recent call last):",
        '  File "x.py", line 3, in <module>',
        "ModuleNotFoundError: No module named 'foo'",
    ])
    assert report.first_error is not None
    assert report.first_error.line == "ModuleNotFoundError: No module named 'foo'"
    assert report.primary is None


def test_torchvisions_image_decoder_warning_claims_no_cause() -> None:
    report = diagnose_lines([
        "/x/torchvision/io/image.py:13: UserWarning: Failed to load image Python extension: "
        "libc10_cuda.so: cannot open shared object file: No such file or directory",
        "Traceback (most recent call last):",
        "RuntimeError: shape mismatch",
    ])
    assert report.first_error is not None
    assert report.first_error.line == "RuntimeError: shape mismatch"
    assert report.primary is None


@pytest.mark.parametrize("header", ["algorithm", "vector", "cstddef", "io.h", "memory"])
def test_any_standard_header_not_found_is_an_incomplete_visual_studio_environment(
        header: str) -> None:
    line = f"x.h(11): fatal error C1083: 无法打开包括文件: “{header}”: No such file or directory"
    report = diagnose_lines([line])
    assert report.primary is not None and report.primary.cause_group == "msvc-env-incomplete"


def test_a_projects_own_header_is_not_the_cuda_toolkits() -> None:
    """PVN3D #37 (German MSVC): the project's cuda_utils.h is not CUDA's cuda.h."""
    line = ('C:/x/_ext-src/src/interpolate_gpu.cu(5): fatal error C1083: Datei (Include) kann '
            'nicht geöffnet werden: "cuda_utils.h": No such file or directory')
    report = diagnose_lines([line])
    assert report.first_error is not None and report.first_error.line == line
    assert report.primary is None


def test_cargos_summary_is_a_wrapper_of_nvccs_error() -> None:
    report = diagnose_lines([
        "error: failed to run custom build command for `candle-kernels v0.5.1`",
        "Caused by:",
        "  --- stderr",
        "nvcc fatal   : Cannot find compiler 'cl.exe' in PATH",
    ])
    assert report.first_error is not None
    assert report.first_error.line == "nvcc fatal   : Cannot find compiler 'cl.exe' in PATH"
    assert report.primary is not None and report.primary.cause_group == "msvc-not-found"
