"""Build-log diagnosis on real logs: the FlashMLA builds recorded for this project
(tests/data/logs/flashmla, copied from shared/logs), excerpts of real failures reported upstream
(tests/data/logs, each citing its source thread) and the corpus of real failing logs
(tests/data/logs/real, see its index.toml) with the accuracy goals of issue 14."""

from __future__ import annotations

import importlib.util
import re
import sys
import tracemalloc
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from kernel_wizard.base.errors import DiagnosisDataError, WizardError
from kernel_wizard.base.resources import resource_path
from kernel_wizard.diagnose import (
    MAX_LINE_CHARS,
    DiagnosisReport,
    LogDiagnoser,
    RetryAction,
    Severity,
    default_rules,
    diagnose_file,
    diagnose_lines,
    load_rules,
    required_literal,
)

REPO = Path(__file__).resolve().parents[2]
EXCERPTS = REPO / "tests" / "data" / "logs"
SHARED_LOGS = EXCERPTS / "flashmla"  # the FlashMLA logs of shared/logs, copied (see README.md)
CORPUS = EXCERPTS / "real"

CCCL_LOG = "flashmla-cuda13-missing-cccl.log"
OK_LOGS = ["flashmla-sm90-ok.log", "flashmla-default-archs-ok.log"]
PATHSPEC = "error: pathspec 'csrc/cutlass' did not match any file(s) known to git"


def excerpt(name: str) -> list[str]:
    """An excerpt's lines, without its '## ' header (what it is, where it comes from)."""
    text = (EXCERPTS / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if not line.startswith("## ")]


def ids(report: DiagnosisReport, severity: Severity | None = None) -> list[str]:
    return [h.signature_id for h in report.hits if severity is None or h.severity is severity]


# --------------------------------------------------------------------------------------------
# The shipped data
# --------------------------------------------------------------------------------------------


# Causes found on the real failing logs of the corpus (no row in failures.md yet).
CORPUS_SIGNATURES = {
    # late set m and the precision audit's variants (tests/unit/test_diagnose_late_m.py,
    # test_diagnose_late_ij_causes.py)
    "nvcc-not-on-path", "gpu-too-old-for-torch", "bad-alloc-in-build", "cuda-home-none-in-setup",
    "cuda-too-old-for-old-arch", "cmake-no-compiler-windows",
    "gpu-arch-dropped-by-cuda",  # variants of a cause, with words of their own (issue 21)
    "cmake-cuda-compiler-not-found",  # FAMILIES.md's rulings (issue 31)
    "triton-c-compiler-windows",
    "gnu-inline-asm-on-msvc",
    "cutlass-submodule-missing",
    "gcc-too-new-for-cuda",
    "cuda-too-old-for-gpu-arch",
    "libcuda-not-found",
    "python-dev-files-missing",
    "build-deps-missing",
    "wheel-download-failed",
    "msvc-env-incomplete",
    "msvc-gnu-extensions",
    "cuda13-windows-nvcc-command-line",
    "ninja-createprocess-failed",
    "cuda-device-link-missing",
    "nvshmem-link-failed",
    "link-unresolved-symbols",
    "nccl-too-old-for-deepep",  # recorded on the H100: tests/data/logs/deepep
    # the ordinary causes of issue 21 (collector f)
    "disk-full",
    "compiler-crashed",
    "built-without-cuda",
    "arch-too-old-for-source",
    "host-compiler-unsupported",
    "permission-denied",
    # issue 31: variants bound to their evidence
    "torch-symbol-before-import",
    "gpu-arch-dropped-by-cuda13",
    # Windows' `where cl` finding nothing (late sets b and c: gsplat on Windows)
    "where-cl-not-found",
    # symptoms of several causes, named on evidence (late set d: tests/unit/
    # test_diagnose_shared_symptoms.py)
    "no-kernel-image",
    "dll-procedure-missing",
    # PyTorch's own "Torch not compiled with CUDA enabled": its CPU-only build (late sets b, c, g)
    "torch-cpu-only",
}


def test_every_row_of_the_failures_table_is_a_signature() -> None:
    rules = default_rules()
    assert sorted(s.row for s in rules.signatures if s.row is not None) == list(range(1, 19))
    assert len({s.id for s in rules.signatures}) == len(rules.signatures) == 18 + 58
    # the general families of issue 21, each a cause the reports name
    families = {s.cause_id for s in rules.signatures if s.generic}
    assert families == {"tool-version-required", "build-tool-missing", "bad-env-path",
                        "library-mismatch", "platform-unsupported", "torch-api-changed"}
    assert {s.id for s in rules.signatures if s.row is None and not s.generic} == \
        CORPUS_SIGNATURES
    retries = {s.id: s.retry for s in rules.signatures if s.retry is not None}
    assert retries == {
        "cccl-headers-missing": RetryAction.ADD_CCCL_INCLUDE,
        "out-of-memory": RetryAction.HALVE_JOBS,
        "bad-alloc-in-build": RetryAction.HALVE_JOBS,  # its variant keeps the group's retry
        "flash-attn-wheel-404": RetryAction.FORCE_BUILD,
        "wheel-download-failed": RetryAction.FORCE_BUILD,  # the same retry fixes network errors
        "compiler-crashed": RetryAction.HALVE_JOBS,  # most crashes are memory running short
    }
    assert rules.signature("out-of-memory").row == 8
    with pytest.raises(KeyError):
        rules.signature("no-such-signature")
    for sig in rules.signatures:  # written for people: full sentences, not fragments
        assert sig.cause.endswith(".") and sig.fix.endswith("."), sig.id


def test_every_signature_pattern_has_a_prefilter_needle() -> None:
    # Without one a pattern runs on every line, which costs the speed the build log needs.
    rules = default_rules()
    assert rules.unfiltered == ()
    assert required_literal(re.compile(r"died due to signal 9", re.I)) == "died due to signal 9"
    assert required_literal(re.compile(r"is_(?:unsigned|integral)_v['\"]? is not a member")) == (
        " is not a member"
    )
    assert required_literal(re.compile(r"foo|barbaz")) is None  # nothing every match contains


def test_shipped_rules_are_loaded_once_from_resources() -> None:
    assert default_rules() is default_rules()
    assert default_rules().source == resource_path("diagnosis", "failures.toml")


# --------------------------------------------------------------------------------------------
# The real FlashMLA logs (recorded for this project; tests/data/logs/flashmla)
# --------------------------------------------------------------------------------------------


def test_missing_cccl_headers_are_diagnosed_with_the_cccl_retry() -> None:
    report = diagnose_file(SHARED_LOGS / CCCL_LOG)

    cccl = next(h for h in report.hits if h.signature_id == "cccl-headers-missing")
    assert cccl.severity is Severity.ERROR
    assert cccl.retry is RetryAction.ADD_CCCL_INCLUDE
    assert "fatal error: cuda/std/utility: No such file or directory" in cccl.line
    assert report.retry is RetryAction.ADD_CCCL_INCLUDE
    assert report.primary == cccl

    first = report.first_error
    assert first is not None
    assert "fatal error: cuda/std/utility: No such file or directory" in first.line
    assert "pathspec" not in first.line and "ninja: build stopped" not in first.line
    assert first.line_number == 56 == cccl.line_number
    # The lines before it say which file included what: what a person needs to see.
    assert len(first.context_before) == LogDiagnoser().ring_size
    assert any("In file included from" in line for line in first.context_before)
    assert any("compilation terminated" in line for line in first.context_after)
    # Everything else the log shows is a consequence of that one error.
    assert ids(report, Severity.ERROR) == ["cccl-headers-missing"]
    assert ids(report, Severity.INFO) == ["ninja-build-stopped"]
    assert report.lines_seen == len(
        (SHARED_LOGS / CCCL_LOG).read_text(encoding="utf-8").splitlines()
    )


@pytest.mark.parametrize("name", OK_LOGS)
def test_successful_builds_show_no_error(name: str) -> None:
    log = SHARED_LOGS / name
    assert PATHSPEC in log.read_text(encoding="utf-8")  # the harmless git message is there...
    report = diagnose_file(log)
    assert report.first_error is None  # ...and not taken for the build's failure
    assert ids(report, Severity.ERROR) == []
    assert report.primary is None and report.retry is None
    assert "No errors" in report.describe()


def test_streaming_a_long_log_reports_each_problem_once_in_bounded_memory() -> None:
    lines = (SHARED_LOGS / CCCL_LOG).read_text(encoding="utf-8").splitlines(keepends=True)
    diagnoser = LogDiagnoser(context_lines=4)
    seen: list[str] = []
    tracemalloc.start()
    try:
        for _ in range(100):  # ~63,000 lines, ~10 MB of text
            for line in lines:
                seen.extend(h.signature_id for h in diagnoser.feed(line))
                assert diagnoser.buffered_lines <= diagnoser.ring_size == 4
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seen == ["cccl-headers-missing", "ninja-build-stopped"]
    assert diagnoser.lines_seen == 100 * len(lines)
    assert peak < 1_000_000  # the log itself is ~10 MB: it was not kept
    report = diagnoser.summary()
    assert report.first_error is not None and report.first_error.line_number == 56
    assert len(report.first_error.context_before) == 4


# --------------------------------------------------------------------------------------------
# Excerpts of real failures (tests/data/logs/*.log)
# --------------------------------------------------------------------------------------------

# file, error-severity hits, text of the first error (None: no error), suggested retry
EXCERPT_CASES = [
    (  # vllm-windows #57: nvcc on Windows rejects GCC's inline assembly, then prints the line
        "real/vllm-windows-57-asm-volatile-nvcc.log",
        ["gnu-inline-asm-on-msvc"],
        "sm100_visitor_store_tma_warpspecialized.hpp(63): error: expected a",
        None,
    ),
    # a compiler killed by a signal is named out of memory only with evidence (late sets a and
    # g showed "Killed" and signal 9 naming wrong causes): here FlashAttention's own sources
    # being compiled (tests/unit/test_diagnose_calibration.py has the family-only case)
    ("nvcc-cicc-killed.log", ["out-of-memory"], "died due to signal 9", RetryAction.HALVE_JOBS),
    ("shell-killed.log", ["out-of-memory"], "Killed", RetryAction.HALVE_JOBS),
    (
        "msvc-unsupported-vs.log",
        ["msvc-too-new-for-cuda"],
        "fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version!",
        None,
    ),
    ("msvc-stl1002.log", ["msvc-stl-needs-newer-cuda"], "STL1002", None),
    (
        "build-isolation-no-torch.log",
        ["torch-missing-in-build"],
        "ModuleNotFoundError: No module named 'torch'",
        None,
    ),
    # "RuntimeError:" alone, its message on the next line: the message is the first error
    ("cuda-torch-mismatch.log", ["cuda-torch-mismatch"], "The detected CUDA version (12.1)", None),
    (
        "cuda-home-not-set.log",
        ["cuda-home-not-set"],
        "OSError: CUDA_HOME environment variable is not set.",
        None,
    ),
    (
        "cutlass-is-unsigned-v.log",
        ["msvc-cplusplus-macro"],
        "error C2039: 'is_unsigned_v': is not a member of 'cutlass::platform'",
        None,
    ),
    ("long-path-git.log", ["windows-long-paths"], "Filename too long", None),
    ("long-path-ninja.log", ["windows-long-paths"], "Filename longer than 260 characters", None),
    ("flash-attn-wheel-404.log", [], None, RetryAction.FORCE_BUILD),
    (
        "flash-attn-404-then-oom.log",
        ["out-of-memory"],
        "died due to signal 9",
        RetryAction.HALVE_JOBS,
    ),
    # (dll-load-failed.log, "procedure not found": tests/unit/test_diagnose_shared_symptoms.py)
    ("undefined-symbol.log", ["extension-abi-mismatch"], "undefined symbol: _ZN3c10", None),
    (
        "no-kernel-image.log",  # the call into flash_attn_gpu says whose code has no kernel
        ["no-kernel-image"],
        "no kernel image is available for execution on the device",
        None,
    ),
    ("ampere-only.log", ["gpu-arch-unsupported"], "only supports Ampere GPUs", None),
    ("crlf-shell-script.log", ["crlf-shell-script"], r"$'\r': command not found", None),
    ("flashmla-head-dim.log", ["flashmla-head-dim-unsupported"], "No kernel instantiated", None),
    ("msvc-missing.log", ["msvc-not-found"], "error: [WinError 2]", None),
]


@pytest.mark.parametrize(
    ("name", "errors", "first_error", "retry"),
    EXCERPT_CASES,
    ids=[case[0].removesuffix(".log") for case in EXCERPT_CASES],
)
def test_real_failure_excerpts(
    name: str, errors: list[str], first_error: str | None, retry: RetryAction | None
) -> None:
    lines = excerpt(name)
    report = diagnose_lines(lines)
    assert ids(report, Severity.ERROR) == errors
    assert report.retry is retry
    if first_error is None:
        assert report.first_error is None
        return
    first = report.first_error
    assert first is not None
    assert first_error in first.line
    assert lines[first.line_number - 1].rstrip() == first.line  # numbers count every line fed
    # The first error is explained by the diagnosis it belongs to (also when the explanation is
    # on the next line, as in torch's "RuntimeError:" + message).
    if not errors:  # the family alone (a symptom whose evidence has not held up)
        assert report.primary is None and report.family is not None
    else:
        assert report.primary is not None and report.primary.signature_id == errors[0]
    for wrapper in ("ninja: build stopped", "Failed building wheel", "CalledProcessError"):
        assert wrapper not in first.line


def test_cuda_mismatch_message_after_the_exception_line_is_kept() -> None:
    report = diagnose_lines(excerpt("cuda-torch-mismatch.log"))
    assert report.first_error is not None
    # the bare "RuntimeError:" is context; the message after it is what a person is shown
    assert "The detected CUDA version (12.1) mismatches" in report.first_error.line
    assert report.first_error.context_before[-1].strip() == "RuntimeError:"
    assert "cuda-torch-mismatch" in report.first_error.signature_ids


def test_source_lines_quoted_in_a_traceback_are_not_the_error() -> None:
    report = diagnose_lines(excerpt("cuda-home-not-set.log"))
    # the first error is the exception, not the source line "raise OSError('CUDA_HOME ..." that
    # the traceback quotes (setup.py's warning above it names the same cause)
    assert report.first_error is not None
    assert report.first_error.line.lstrip().startswith("OSError:")
    assert not any(h.line.lstrip().startswith("raise") for h in report.hits)
    # and the git message at the top is a known-harmless line
    assert report.first_error is not None and "fatal: not a git" not in report.first_error.line


# Single lines from real outputs, at least one per row of the table.
LINE_CASES = [
    # the ordinary causes of issue 21's collector f (tests/data/logs/field/index-f.toml, training)
    ("/usr/local/cuda/include/driver_functions.h(133): catastrophic error: error while writing "
     "generated C++ file: No space left on device", "disk-full"),
    # qicosmos/cinatra#146 (a thread the rule was not written from)
    ("编译过程中总是会有  internal compiler error: Segmentation fault。", "compiler-crashed"),
    ("RuntimeError: Not compiled with GPU support", "built-without-cuda"),
    ("RuntimeError: apex.optimizers.FusedAdam requires cuda extensions", "built-without-cuda"),
    ('dcn_v2_im2col_cuda_double.cu(248): error: no instance of overloaded function "atomicAdd" '
     "matches the argument list", "arch-too-old-for-source"),
    ("nvcc fatal   : Host compiler targets unsupported OS.", "host-compiler-unsupported"),
    ("PermissionError: [Errno 13] Permission denied: '/tmp/torch_extensions/fused'",
     "permission-denied"),
    ("nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
     "nvcc-too-old-for-option"),
    # the families (issue 21): lines of the field corpus's training part (tests/data/logs/field)
    # and of public threads
    # a program path made from a variable that holds a list or quotes (bad-env-path)
    ("/bin/sh: 1: [path-to-my-cuda]/lib64:/bin/nvcc: not found", "tool-path-malformed"),
    ("error: [Errno 2] No such file or directory: '/usr/local/cuda-11.8:/bin/nvcc'",
     "tool-path-malformed"),
    ("unable to execute \"'/usr/local/cuda'/bin/nvcc\": No such file or directory",
     "tool-path-malformed"),
    ("ValueError: Unknown CUDA arch (3.0) or GPU not supported", "bad-env-path"),
    # a program the build runs cannot be found or started (build-tool-missing)
    ("error: command 'C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA\\\\v10.1\\\\bin\\\\nvcc' "
     "failed: No such file or directory", "build-tool-missing"),
    ("'ninja' n’est pas reconnu en tant que commande interne", "build-tool-missing"),
    ("'ninja' 不是内部或外部命令，也不是可运行的程序", "build-tool-missing"),
    ("'cl' は、内部コマンドまたは外部コマンド、"
     "操作可能なプログラムまたはバッチ ファイルとして認識されていません。", "msvc-not-found"),
    # versions (tool-version-required)
    ("/home/dawn/somethings/pkg/libtorch/include/torch/csrc/api/include/torch/all.h:4:2: error: "
     "#error C++17 or later compatible compiler is required to use PyTorch.",
     "tool-version-required"),
    ("ImportError: cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main'",
     "dependency-version-mismatch"),
    ("RuntimeError: CUDA driver version is insufficient for CUDA runtime version",
     "driver-too-old"),
    ("nvcc fatal   : Value 'c++17' is not defined for option 'std'",
     "nvcc-too-old-for-cxx-standard"),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_30'", "gpu-arch-dropped-by-cuda"),
    ("RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match "
     "the version used to compile Pytorch binaries.  Pytorch binaries were compiled with Cuda "
     "11.3.", "cuda-torch-mismatch"),
    # PyTorch's own interfaces (torch-api-changed)
    ("/DCNv2_latest/src/cpu/dcn_v2_cpu.cpp:7:10: fatal error: TH/TH.h: No such file or directory",
     "torch-api-changed"),
    ("AttributeError: module 'torch.library' has no attribute 'register_fake'",
     "torch-python-api-missing"),
    # libraries (library-mismatch), platforms (platform-unsupported), compilers
    ("ImportError: /home/users/user/anaconda3/envs/zeronvs/lib/python3.8/site-packages/torch/lib/"
     "libtorch_cuda.so: undefined symbol: ncclCommRegister", "library-symbol-missing"),
    # ("argument of type 'WindowsPath' is not iterable" names platform-unsupported only with
    # bitsandbytes in the log since late set i: tests/unit/test_diagnose_late_ij_causes.py)
    ('AssertionError: vLLM only supports Linux platform (including WSL).', "platform-unsupported"),
    ("    xFormers wasn't build with CUDA support", "extension-abi-mismatch"),
    ("libcusparse.so.11: cannot open shared object file: No such file or directory",
     "library-mismatch"),
    ("ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.20' not found", "library-mismatch"),
    ("ImportError: DLL load failed while importing libtriton: Eine DLL-Initialisierungsroutine ist "
     "fehlgeschlagen.", "library-mismatch"),
    ("RuntimeError: causal_conv1d is only supported on CUDA 11.6 and above.  Note: make sure nvcc "
     "has a supported version by running nvcc -V.", "tool-version-required"),
    ("ImportError: Requires Flash-Attention version >=2.7.1,<=2.7.4 but got 2.8.0.post2.",
     "tool-version-required"),
    ("tiny-cuda-nn/dependencies/json/json.hpp:3954:14: fatal error: filesystem: No such file or "
     "directory", "gcc-too-old-for-filesystem"),
    ('src/math_functions.cu(76): error: identifier "cusparseScsrmv" is undefined',
     "source-for-other-cuda"),
    # BasicSR #354 (RTX 3090, PyTorch 1.3)
    ("ValueError: Unknown CUDA arch (8.6) or GPU not supported", "torch-too-old-for-gpu-arch"),
    # Scene-Graph-Benchmark.pytorch #216 (a full-width semicolon in the list)
    ("ValueError: Unknown CUDA arch (8.6；8.9) or GPU not supported", "bad-env-path"),
    # ("sh: 1: nvcc: not found": the family alone since late set i, test_diagnose_late_ij_causes)
    ("sh: 1: make: not found", "build-tool-missing"),
    ("/bin/sh: /usr/local/cuda-11.2/bin/nvcc: No such file or directory", "build-tool-missing"),
    ("/root/bitsandbytes/include/Portable.h:35:2: error: #error Compiler must support SSE2",
     "platform-unsupported"),
    # pytorch-loss #36, Zooming-Slow-Mo-CVPR-2020 #74 (PyTorch 2.2)
    (" fatal error: THC/THC.h: No such file or directory", "torch-api-changed"),
    ('/tmp/dv2/csrc/kernels/backend/nccl.cu(83): error: identifier "ncclCommProperties" is '
     "undefined", "nccl-too-old-for-deepep"),
    ("ModuleNotFoundError: No module named 'torch'", "torch-missing-in-build"),
    (
        "/src/FlashMLA/csrc/cutlass/include/cutlass/cutlass.h:43:35: fatal error: "
        "cuda/std/utility: No such file or directory",
        "cccl-headers-missing",
    ),
    (
        r"C:\ksw\b\fm\csrc\cutlass\include\cutlass/cutlass.h(43): fatal error C1083: "
        "Cannot open include file: 'cuda/std/utility': No such file or directory",
        "cccl-headers-missing",
    ),
    (
        r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8\include\crt/host_config.h(153):"
        " fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the "
        "versions between 2017 and 2022 (inclusive) are supported!",
        "msvc-too-new-for-cuda",
    ),
    (
        "error STL1002: Unexpected compiler version, expected CUDA 12.4 or newer.",
        "msvc-stl-needs-newer-cuda",
    ),
    ("nvcc fatal   : Cannot find compiler 'cl.exe' in PATH", "msvc-not-found"),
    (
        "'cl' is not recognized as an internal or external command,",
        "msvc-not-found",
    ),
    (
        'cutlass/exmy_base.h(404): error: namespace "cutlass::platform" has no member '
        '"is_unsigned_v"',
        "msvc-cplusplus-macro",
    ),
    (
        "HINT: This error might have occurred since this system does not have Windows Long Path "
        "support enabled. You can find information on how to enable this at "
        "https://pip.pypa.io/warnings/enable-long-paths",
        "windows-long-paths",
    ),
    (
        "c1xx : fatal error C1060: compiler is out of heap space [C:\\ksw\\b\\x.vcxproj]",
        "out-of-memory",
    ),
    ("c++: fatal error: Killed signal terminated program cc1plus", "out-of-memory"),
    ("fatal error: out of memory allocating 65536 bytes", "out-of-memory"),
    (
        "UserWarning: Attempted to use ninja as the BuildExtension backend but we could not find "
        "ninja.. Falling back to using the slow distutils backend.",
        "slow-build-no-ninja",
    ),
    (
        "The detected CUDA version (12.1) mismatches the version that was used to compile",
        "cuda-torch-mismatch",
    ),
    (
        "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install "
        "root.",
        "cuda-home-not-set",
    ),
    ("urllib.error.HTTPError: HTTP Error 404: Not Found", "flash-attn-wheel-404"),
    ("Precompiled wheel not found. Building from source...", "flash-attn-wheel-404"),
    # (Windows' loader's "procedure not found": a DLL it does not name lacks a function, several
    # causes, tests/unit/test_diagnose_shared_symptoms.py)
    (
        "ImportError: /opt/venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-"
        "linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
        "extension-abi-mismatch",
    ),
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "gpu-arch-unsupported"),
    (
        "CUDA error (/build/source/flash-attn/flash_fwd_launch_template.h:184): no kernel image is "
        "available for execution on the device",
        "no-kernel-image",  # the error at the kernel's own source: its code lacks this GPU
    ),
    ("ninja: build stopped: subcommand failed.", "ninja-build-stopped"),
    (
        "testQ.exe.rsp : fatal error LNK1170: line in command file contains 131071 or more "
        "characters",
        "windows-command-line-too-long",
    ),
    (
        "ninja: fatal: CreateProcess: The parameter is incorrect (is the command line too long?)",
        "windows-command-line-too-long",
    ),
    ("./build.sh: line 1: $'\\r': command not found", "crlf-shell-script"),
    (
        "-bash: ./build.sh: /bin/bash^M: bad interpreter: No such file or directory",
        "crlf-shell-script",
    ),
    ("No kernel instantiated for head_dim_qk=64 head_dim_vo=64", "flashmla-head-dim-unsupported"),
    # Causes found on the real failing logs (tests/data/logs/real): one real line each.
    (
        "/root/flash-attention-main/csrc/flash_attn/src/flash_fwd_kernel.h:7:10: fatal error: "
        "cute/tensor.hpp: No such file or directory",
        "cutlass-submodule-missing",
    ),
    (
        r"C:\code\rust\candle\candle-flash-attn\kernels\flash_fwd_kernel.h(9): fatal error "
        "C1083: Cannot open include file: 'cute/tensor.hpp': No such file or directory",
        "cutlass-submodule-missing",
    ),
    (
        "/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU "
        "version! gcc versions later than 12 are not supported!",
        "gcc-too-new-for-cuda",
    ),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_120a'", "cuda-too-old-for-gpu-arch"),
    ("/usr/bin/ld: cannot find -lcuda: No such file or directory", "libcuda-not-found"),
    (
        "LINK : fatal error LNK1104 : cannot open file 'python35.lib' "
        "[~~~/dlib/tools/python/build/dlib_.vcproj]",
        "python-dev-files-missing",
    ),
    (
        "/tmp/tmpp5hos7sz/main.c:5:10: fatal error: Python.h: No such file or directory",
        "python-dev-files-missing",
    ),
    ("ModuleNotFoundError: No module named 'packaging'", "build-deps-missing"),
    ("ModuleNotFoundError: No module named 'wheel'", "build-deps-missing"),
    ("error: <urlopen error [Errno 110] Connection timed out>", "wheel-download-failed"),
    ("error: Remote end closed connection without response", "wheel-download-failed"),
    (
        r"C:\Program Files (x86)\Windows Kits\10\Include\10.0.10240.0\ucrt\corecrt.h(10): "
        "fatal error C1083: Cannot open include file: 'vcruntime.h': No such file or directory",
        "msvc-env-incomplete",
    ),
    (
        r"C:\cygwin\tmp\PGM-index\include\pgm\piecewise_linear_model.hpp(37): error C4235: "
        "nonstandard extension used: '__int128' keyword not supported on this architecture",
        "msvc-gnu-extensions",
    ),
    (
        "CreateProcess failed: The system cannot find the file specified.",
        "ninja-createprocess-failed",
    ),
    (
        "ImportError: /opt/env/deep_ep_cpp.cpython-312-x86_64-linux-gnu.so: undefined symbol: "
        "__cudaRegisterLinkedBinary_ba346c27_12_intranode_cu_6b1dae6a",
        "cuda-device-link-missing",
    ),
    (
        "47.98 nvlink error   : Undefined reference to 'nvshmemi_ibgda_device_state_d' in "
        "'/usr/src/DeepEP/build/temp.linux-x86_64-cpython-312/csrc/kernels/internode_ll.o'",
        "nvshmem-link-failed",
    ),
]

# Lines from localized compilers: the cause is read off error codes and identifiers.
LOCALIZED_CASES = [
    # zh: the line from issue 14 (flash-attn, MSVC in Chinese)
    ('error C2039: "is_unsigned_v": 不是 "cutlass::platform" 的成员', "msvc-cplusplus-macro"),
    # zh: triton-windows #3
    (
        r"C:\Users\me\AppData\Local\Temp\tmpqu5oyina\main.c(12): fatal error C1083: "
        "无法打开包括文件: “Python.h”: No such file or directory",
        "python-dev-files-missing",
    ),
    # zh: flash-attention #1702
    (
        r"C:\Program Files (x86)\Microsoft Visual Studio\2022\BuildTools\VC\Tools\MSVC"
        r"\14.44.35207\include\cstddef(11): fatal error C1083: 无法打开包括文件: “stddef.h”: "
        "No such file or directory",
        "msvc-env-incomplete",
    ),
    # de: HearthSim/decrunch #24
    (
        "crn_decomp.cpp(3): fatal error C1083: Datei (Include) kann nicht ge”ffnet werden: "
        '"string.h": No such file or directory',
        "msvc-env-incomplete",
    ),
    # de: the missing cl.exe, as torch reports it on a German Windows (star-vector #20)
    (
        r"C:\Python311\Lib\site-packages\torch\utils\cpp_extension.py:383: UserWarning: "
        "Error checking compiler version for cl: [WinError 2] Das System kann die angegebene "
        "Datei nicht finden",
        "msvc-not-found",
    ),
    # es: MSVC in Spanish (the same C1083 wording Visual Studio uses there)
    (
        r"C:\fa\csrc\flash_api.cpp(1): fatal error C1083: No se puede abrir el archivo "
        "incluir: 'cute/tensor.hpp': No such file or directory",
        "cutlass-submodule-missing",
    ),
]


@pytest.mark.parametrize(("line", "signature_id"), LOCALIZED_CASES)
def test_localized_compiler_lines_match_their_signature(line: str, signature_id: str) -> None:
    report = diagnose_lines([line])
    assert report.primary is not None and report.primary.signature_id == signature_id
    assert report.first_error is not None and report.first_error.line == line


@pytest.mark.parametrize(
    "line",
    [
        # Russian and Italian C1083 on the project's own headers: no toolchain cause
        "error C1083: Не удается открыть файл включение: x86/matchfinder_impl.h: No such file "
        "or directory,",
        r"1>C:\r6xx\zlib-ng\deflate.h(15,10): fatal error C1083: Non è possibile aprire il file "
        "inclusione: 'crc32_fold.h': No such file or directory",
    ],
)
def test_a_missing_project_header_is_not_blamed_on_the_toolchain(line: str) -> None:
    report = diagnose_lines([line])
    assert report.first_error is not None and report.first_error.line == line
    assert report.primary is None and report.hits == ()


@pytest.mark.parametrize(("line", "signature_id"), LINE_CASES)
def test_real_lines_match_their_signature(line: str, signature_id: str) -> None:
    # the pattern reads its real line (the calibration switched off: every pattern as written)
    diagnoser = LogDiagnoser(replace(default_rules(), demoted=frozenset()))
    hits = diagnoser.feed(line + "\n")
    # The specific cause comes first; only the generic link row may match as well.
    assert [h.signature_id for h in hits][:1] == [signature_id]
    assert {h.signature_id for h in hits[1:]} <= {"link-unresolved-symbols"}
    assert hits[0].line == line and hits[0].line_number == 1
    report = diagnoser.summary()
    if hits[0].severity is Severity.ERROR:
        assert report.primary is not None and report.primary.signature_id == signature_id
    # with the calibration the wizard ships: a pattern that named a wrong cause on a labelled
    # log names it only with its evidence, so its line alone gives the family only
    shipped, rules = diagnose_lines([line]), default_rules()
    if (signature_id, hits[0].pattern) in rules.demoted \
            and not any(p.search(line) for p in rules.signature(signature_id).evidence):
        assert shipped.primary is None and shipped.family is not None
    elif hits[0].severity is Severity.ERROR:
        assert shipped.primary is not None and shipped.primary.signature_id == signature_id


def test_every_signature_has_a_real_example() -> None:
    covered = {sig for _, sig in LINE_CASES} | {"cuda13-windows-nvcc-command-line"}
    # symptoms of several causes, named when confirmed (tests/unit/test_diagnose_ambiguous.py)
    covered |= {"dll-dependency-missing", "link-unresolved-symbols"}
    # issue 31's variants, each tested with its line in tests/unit/test_diagnose_two_levels.py
    covered |= {"gpu-arch-dropped-by-cuda13", "torch-symbol-before-import",
                "torch-dll-load-failed"}
    # late sets b and c: Windows' `where cl` finding nothing
    # (tests/unit/test_diagnose_late_families.py)
    covered |= {"where-cl-not-found"}
    # late set d: Windows' "procedure not found", named when confirmed
    # (tests/unit/test_diagnose_shared_symptoms.py)
    covered |= {"dll-procedure-missing"}
    # late sets b, c and g: PyTorch's CPU-only build
    # (tests/unit/test_diagnose_structure_classes.py)
    covered |= {"torch-cpu-only"}
    # FAMILIES.md's rulings: CMake finding no nvcc, Triton finding no C compiler by platform
    # (tests/unit/test_diagnose_families.py, tests/unit/test_diagnose_two_levels.py)
    covered |= {"cmake-cuda-compiler-not-found", "triton-c-compiler-windows",
                "triton-c-compiler-missing"}
    # late set m and the precision audit (tests/unit/test_diagnose_late_m.py,
    # tests/unit/test_diagnose_late_ij_causes.py)
    covered |= {"nvcc-not-on-path", "gpu-too-old-for-torch", "bad-alloc-in-build",
                "cuda-home-none-in-setup", "cuda-too-old-for-old-arch",
                "cmake-no-compiler-windows",  # (and tests/unit/test_diagnose_late_o.py)
                "triton-wheel-for-other-platform",  # (tests/unit/test_diagnose_late_p.py)
                "jax-cuda-libraries"}  # (tests/unit/test_diagnose_late_r.py)
    covered |= {e for _, errors, _, _ in EXCERPT_CASES for e in errors}
    assert covered == {s.id for s in default_rules().signatures}


# --------------------------------------------------------------------------------------------
# Streaming behaviour
# --------------------------------------------------------------------------------------------


def test_harmless_lines_are_never_a_diagnosis_or_the_first_error() -> None:
    report = diagnose_lines(
        [
            PATHSPEC,
            "  " + PATHSPEC,
            "fatal: Needed a single revision",
            "      fatal: not a git repository (or any of the parent directories): .git",
        ]
    )
    assert report.hits == () and report.first_error is None


def test_wrapper_lines_are_never_the_first_error() -> None:
    report = diagnose_lines(
        [
            "ninja: build stopped: subcommand failed.",
            "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit "
            "status 1.",
            "RuntimeError: Error compiling objects for extension",
            "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1",
            "  error: subprocess-exited-with-error",
            "  note: This error originates from a subprocess, and is likely not a problem with "
            "pip.",
            "  ERROR: Failed building wheel for flash_mla",
            "ERROR: Failed to build one or more wheels",
        ]
    )
    assert report.first_error is None
    assert ids(report) == ["ninja-build-stopped"]


CL_WARNING = (
    "cpp_extension.py:382: UserWarning: Error checking compiler version for cl: "
    "[WinError 2] The system cannot find the file specified"
)


def test_a_warning_that_names_the_cause_is_the_headline_when_nothing_else_explains() -> None:
    # torch reports a missing cl.exe only as a warning; the traceback after it is flash-attn's
    # wheel download, which setup.py swallows (star-vector #20 in the corpus).
    report = diagnose_lines(
        [
            CL_WARNING,
            "  warnings.warn(f'Error checking compiler version for {compiler}: {error}')",
            "Traceback (most recent call last):",
            '  File "setup.py", line 478, in run',
            "    urllib.request.urlretrieve(wheel_url, wheel_filename)",
            "urllib.error.HTTPError: HTTP Error 404: Not Found",
            "building 'flash_attn_2_cuda' extension",
        ]
    )
    first = report.first_error
    assert first is not None and first.from_warning
    assert first.line == CL_WARNING and first.line_number == 1
    assert report.primary is not None and report.primary.signature_id == "msvc-not-found"
    assert "First error (line 1)" in report.describe()


def test_a_real_error_with_a_known_cause_beats_a_warning() -> None:
    # The warning is often harmless (setuptools finds cl.exe itself); a later explained error is
    # the failure.
    error = (
        r"C:\ksw\fa\csrc\cutlass\include\cutlass/exmy_base.h(404): error C2039: "
        "'is_unsigned_v': is not a member of 'cutlass::platform'"
    )
    report = diagnose_lines([CL_WARNING, "[1/48] nvcc ...", error])
    assert report.first_error is not None and report.first_error.line == error
    assert not report.first_error.from_warning
    assert report.primary is not None and report.primary.signature_id == "msvc-cplusplus-macro"
    assert ids(report, Severity.ERROR) == ["msvc-not-found", "msvc-cplusplus-macro"]


def test_compiler_errors_without_a_signature_are_still_the_first_error() -> None:
    lines = [
        "[3/24] /usr/bin/g++ -c csrc/api/api.cpp -o api.o",
        "csrc/api/api.cpp:12:5: error: 'foo' was not declared in this scope",
        "csrc/api/api.cpp:20:1: error: expected ';' before '}' token",
    ]
    report = diagnose_lines(lines)
    assert report.hits == ()
    assert report.first_error is not None and report.first_error.line_number == 2
    assert report.first_error.context_before == (lines[0],)
    assert report.primary is None and report.retry is None


@pytest.mark.parametrize(
    "line",
    [
        "foo.obj : error LNK2019: unresolved external symbol cudaLaunchKernel",
        "LINK : fatal error LNK1181: cannot open input file 'cudart.lib'",
        "nvcc fatal   : Unsupported gpu architecture 'compute_120'",
        "ptxas error   : Entry function uses too much shared data",
        'x.cu(7): error: identifier "__nv_bfloat16" is undefined',
        "3>C:\\src\\a.cpp(1,10): error C1083: Cannot open include file: 'b.h': No such file",
        "fatal: unable to access 'https://github.com/NVIDIA/cutlass.git/': Could not resolve host",
        "CMake Error at CMakeLists.txt:12 (find_package):",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ],
)
def test_generic_errors_are_recognised(line: str) -> None:
    report = diagnose_lines(["building...", line])
    assert report.first_error is not None and report.first_error.line == line


@pytest.mark.parametrize(
    "line",
    [
        "  except ImportError as error:",
        "          calls to avoid build errors in the future.",
        "  warnings.warn(f'Error checking compiler version for {compiler}: {error}')",
        "/usr/bin/g++ -Werror=return-type -c api.cpp -o api.o",
        'python.h(93): warning #3189-D: "module" is parsed as an identifier',
        "  Building wheel for flash_mla (setup.py): finished with status 'error'",
    ],
)
def test_ordinary_lines_are_not_errors(line: str) -> None:
    assert diagnose_lines([line]).first_error is None


def test_a_traceback_header_is_never_the_first_error() -> None:
    report = diagnose_lines(
        ["running build_ext", "Traceback (most recent call last):", '  File "setup.py", line 3']
    )
    assert report.first_error is None
    assert "No errors and no known problems" in report.describe()


def test_the_shell_line_is_the_first_error_not_the_traceback_before_it() -> None:
    # Issue 13: CXX=/opt/nonexistent/g++ — the banner named the traceback header.
    lines = [
        "running build_ext",
        "Traceback (most recent call last):",
        '  File "/tmp/x/setup.py", line 12, in <module>',
        "    setup(",
        "/bin/sh: 1: /opt/nonexistent/g++: not found",
        "error: command '/opt/nonexistent/g++' failed with exit code 127",
    ]
    report = diagnose_lines(lines)
    assert report.first_error is not None
    assert report.first_error.line == "/bin/sh: 1: /opt/nonexistent/g++: not found"
    assert "Traceback" not in report.describe().splitlines()[0]


@pytest.mark.parametrize(
    ("lines", "first"),
    [
        (  # Qwen #810: the ld line, not the Python exception printed after it
            [
                "/usr/bin/ld: cannot find -lcuda",
                "collect2: error: ld returned 1 exit status",
                "KeyError: ('2-.-0-.-0-d8251',)",
            ],
            "/usr/bin/ld: cannot find -lcuda",
        ),
        (  # FastChat #2207: "skipping incompatible" is ld's context, not the error
            [
                "/usr/bin/ld: skipping incompatible /usr/lib32/libcuda.so when searching for "
                "-lcuda",
                "/usr/bin/ld: cannot find -lcuda: No such file or directory",
            ],
            "/usr/bin/ld: cannot find -lcuda: No such file or directory",
        ),
        (  # Skywalker #6: ld's "in function" line is context; the undefined reference is
            [
                "/usr/bin/ld: CMakeFiles/main.dir/src/main.cu.o: in function "
                "`__sti____cudaRegisterAll()':",
                "tmpxft_001c002f_00000000-6_main.cudafe1.cpp:(.text.startup+0x15): undefined "
                "reference to `__cudaRegisterLinkedBinary_300b4dcc_7_main_cu_3fe1c8bc_1835068'",
            ],
            "tmpxft_001c002f_00000000-6_main.cudafe1.cpp:(.text.startup+0x15): undefined reference "
            "to `__cudaRegisterLinkedBinary_300b4dcc_7_main_cu_3fe1c8bc_1835068'",
        ),
        (  # collect2 alone (the ld lines were cut off) is the best line there is
            ["[24/24] c++ -shared x.o -o x.so", "collect2: error: ld returned 1 exit status"],
            "collect2: error: ld returned 1 exit status",
        ),
        (
            [
                "[2/3] cl /showIncludes /nologo -c a.cpp",
                "CreateProcess failed: The system cannot find the file specified.",
            ],
            "CreateProcess failed: The system cannot find the file specified.",
        ),
    ],
    ids=["ld-before-exception", "ld-skipping-incompatible", "ld-in-function", "collect2", "ninja"],
)
def test_linker_and_ninja_lines_are_first_errors(lines: list[str], first: str) -> None:
    report = diagnose_lines(lines)
    assert report.first_error is not None and report.first_error.line == first


def test_each_signature_is_reported_once_and_line_endings_do_not_matter() -> None:
    diagnoser = LogDiagnoser()
    oom_killer = "Out of memory: Killed process 4242 (cc1plus) total-vm:9876543kB"
    assert diagnoser.feed(oom_killer + "\r\n") == []
    first = diagnoser.feed("Killed\r\n")  # (with memory evidence above it)
    assert [h.signature_id for h in first] == ["out-of-memory"]
    assert first[0].line == "Killed"
    assert diagnoser.feed("Killed\n") == []
    assert diagnoser.feed("nvcc error   : 'cicc' died due to signal 9 (Kill signal)") == []
    assert len(diagnoser.summary().hits) == 1


def test_very_long_lines_are_clipped_in_what_is_kept() -> None:
    long_line = "x.cu(1): error: " + "y" * 10 * MAX_LINE_CHARS
    diagnoser = LogDiagnoser()
    diagnoser.feed(long_line)
    first = diagnoser.first_error
    assert first is not None and len(first.line) <= MAX_LINE_CHARS + 2


def test_describe_names_the_first_error_cause_fix_and_retry() -> None:
    oom_killer = "Out of memory: Killed process 4242 (cc1plus) total-vm:9876543kB"
    text = diagnose_lines([*excerpt("nvcc-cicc-killed.log"), oom_killer]).describe()
    assert "First error (line 4)" in text
    assert "ran out of memory" in text and "MAX_JOBS" in text
    assert "Suggested automatic retry: halve-jobs" in text


# --------------------------------------------------------------------------------------------
# A broken failures file is a clear error naming the file and the entry
# --------------------------------------------------------------------------------------------

GOOD_ENTRY = """
[[signature]]
id = "first-ok"
title = "An example"
patterns = ['all good here']
cause = "Because."
fix = "Do this."
severity = "error"
"""


def write_rules(tmp_path: Path, broken_entry: str, *, header: str = "schema = 1\n") -> Path:
    path = tmp_path / "failures.toml"
    path.write_text(header + GOOD_ENTRY + broken_entry, encoding="utf-8")
    return path


def broken(
    entry_id: str = "broken-one",
    *,
    patterns: str = "['fine', 'also fine']",
    severity: str = '"error"',
    extra: str = "",
    drop: str = "",
) -> str:
    fields = {
        "id": f'"{entry_id}"',
        "title": '"Broken"',
        "patterns": patterns,
        "cause": '"Because."',
        "fix": '"Do this."',
        "severity": severity,
    }
    fields.pop(drop, None)
    body = "\n".join(f"{key} = {value}" for key, value in fields.items())
    return f"\n[[signature]]\n{body}\n{extra}\n"


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            broken(patterns="['fine', 'fatal error: (unclosed']"),
            ["broken-one", "pattern 2", "not a valid regular expression"],
        ),
        (
            broken(extra='retry = "reboot-the-moon"'),
            ["broken-one", "retry 'reboot-the-moon'", "halve-jobs"],
        ),
        (broken(severity='"catastrophic"'), ["broken-one", "severity 'catastrophic'"]),
        (broken(drop="fix"), ["broken-one", "missing the field 'fix'"]),
        (broken(drop="id"), ["[[signature]] #2", "missing the field 'id'"]),
        (broken(patterns="[]"), ["broken-one", "patterns"]),
        (broken(patterns="['(?:x)?']"), ["broken-one", "matches an empty line"]),
        (broken(extra="paterns = ['typo']"), ["broken-one", "unknown field(s) paterns"]),
        (broken("first-ok"), ["first-ok", "appears twice"]),
        (broken("Not A Slug"), ["Not A Slug", "invalid id"]),
        ("\n[[signature]]\nid = 'unclosed\n", ["not valid TOML"]),
    ],
    ids=[
        "bad-regex",
        "unknown-retry",
        "unknown-severity",
        "missing-field",
        "missing-id",
        "no-patterns",
        "matches-everything",
        "unknown-field",
        "duplicate-id",
        "bad-id",
        "toml-syntax",
    ],
)
def test_a_broken_failures_file_names_the_file_and_entry(
    tmp_path: Path, entry: str, expected: list[str]
) -> None:
    path = write_rules(tmp_path, entry)
    with pytest.raises(DiagnosisDataError) as caught:
        load_rules(path)
    error = caught.value
    assert isinstance(error, WizardError)
    assert str(path) in error.what
    for text in expected:
        assert text in error.describe()
    assert error.hint  # a person is told what to do


def test_a_failures_file_for_another_schema_is_refused(tmp_path: Path) -> None:
    path = write_rules(tmp_path, "", header="schema = 2\n")
    with pytest.raises(DiagnosisDataError, match="schema"):
        load_rules(path)


def test_a_missing_failures_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DiagnosisDataError, match="Can't read"):
        load_rules(tmp_path / "nope.toml")


def test_a_minimal_valid_file_loads_and_diagnoses(tmp_path: Path) -> None:
    path = write_rules(
        tmp_path,
        '\n[[ignore]]\nid = "noise"\npatterns = [\'^all good here, really\']\nreason = "x"\n',
    )
    rules = load_rules(path)
    assert [s.id for s in rules.signatures] == ["first-ok"]
    report = diagnose_lines(["All GOOD here", "all good here, really"], rules)
    assert [(h.signature_id, h.line_number) for h in report.hits] == [("first-ok", 1)]


# --------------------------------------------------------------------------------------------
# Advice that depends on the versions in the log; causes that need facts around the line
# --------------------------------------------------------------------------------------------

C1189 = (
    "fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the "
    "versions between 2017 and 2022 (inclusive) are supported!"
)


def _c1189(cuda: str) -> str:
    return (
        rf"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v{cuda}\include\crt/host_config.h"
        f"(153): {C1189}"
    )


@pytest.mark.parametrize(
    ("lines", "says", "never_says"),
    [
        # CUDA 11.x: Visual Studio 2019's toolset, or a CUDA that accepts VS 2022 17.10+
        ([_c1189("11.8")], ["CUDA 11.8", "below 1940", "14.29", "CUDA 12.4"], ["14.44"]),
        ([_c1189("11.0")], ["Visual Studio 2017 and 2019 only", "14.29"], ["14.44"]),
        # FLAMEGPU2 #1211: CUDA 12.3 rejects MSVC 14.40, named by MSBuild on the line after
        (
            [
                _c1189("12.3"),
                "  CUDA 12.3.targets(799,9): error MSB3721: The command "
                + r'""C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.3\bin\nvcc.exe" '
                + r'--use-local-env -ccbin "C:\Program Files\Microsoft Visual Studio\2022'
                + r'\Community\VC\Tools\MSVC\14.40.33807\bin\HostX64\x64" -x cu',
            ],
            ["CUDA 12.3", "MSVC 14.40", "_MSC_VER 1940", "14.39", "CUDA 12.4"],
            ["Visual Studio 2026"],
        ),
        # CUDA 12.4+: the VS 2022 toolset 14.4x; VS 2026 is the one too new
        ([_c1189("12.6")], ["CUDA 12.6", "14.44", "Visual Studio 2026"], ["14.29"]),
        # No CUDA version in sight: the general advice, which names both version ranges
        ([f"host_config.h(153): {C1189}"], ["14.4x", "12.4"], []),
    ],
    ids=["cuda-11.8", "cuda-11.0", "cuda-12.3-msvc-14.40", "cuda-12.6", "no-version"],
)
def test_visual_studio_advice_depends_on_the_cuda_version(
    lines: list[str], says: list[str], never_says: list[str]
) -> None:
    report = diagnose_lines(lines)
    assert report.primary is not None and report.primary.signature_id == "msvc-too-new-for-cuda"
    for text in says:
        assert text in report.primary.fix
    for text in never_says:
        assert text not in report.primary.fix
    assert report.primary.fix in report.describe()


NVCC_SINGLE_INPUT = (
    "nvcc fatal   : A single input file is required for a non-link phase when an outputfile is "
    "specified"
)


def test_cuda13_on_windows_is_named_only_with_windows_and_cuda13_in_sight() -> None:
    windows_cuda13 = [
        r"[1/12] C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v13.0\bin\nvcc "
        r"--generate-dependencies-with-compile --dependency-output C:\sa\build\qattn.obj.d "
        r"--use-local-env -Xcompiler /MD -c C:\sa\csrc\qattn.cu -o C:\sa\build\qattn.obj",
        NVCC_SINGLE_INPUT,
    ]
    report = diagnose_lines(windows_cuda13)
    assert report.primary is not None
    assert report.primary.signature_id == "cuda13-windows-nvcc-command-line"
    # The same nvcc message on Linux (ffpa-attn #83: empty '' arguments) or with CUDA 12 on
    # Windows has other causes: the wizard shows the line and says it does not know why.
    for context in (
        "/usr/local/cuda/bin/nvcc -c /mnt/ffpa/csrc/a.cu '' -o /mnt/ffpa/build/a.o",
        windows_cuda13[0].replace("v13.0", "v12.8"),
    ):
        other = diagnose_lines([context, NVCC_SINGLE_INPUT])
        assert other.primary is None
        assert other.first_error is not None and other.first_error.line == NVCC_SINGLE_INPUT


def test_a_device_link_symbol_is_not_blamed_on_pytorch() -> None:
    # DeepEP #429: __cudaRegisterLinkedBinary_* is a missing device-link step, not an ABI mismatch.
    report = diagnose_lines(
        [
            "ImportError: /env/deep_ep_cpp.cpython-312-x86_64-linux-gnu.so: undefined symbol: "
            "__cudaRegisterLinkedBinary_ba346c27_12_intranode_cu_6b1dae6a"
        ]
    )
    assert ids(report) == ["cuda-device-link-missing"]
    torch_symbol = diagnose_lines(
        ["ImportError: /env/site-packages/x.so: undefined symbol: "
         "_ZN2at4_ops9_pad_enum4callERKNS_6TensorE"]
    )
    assert ids(torch_symbol) == ["extension-abi-mismatch"]
    other_symbol = diagnose_lines(["ImportError: /env/x.so: undefined symbol: cublasLtCreate"])
    # not every undefined symbol is PyTorch's: another library's is a library mismatch
    assert ids(other_symbol) == ["library-symbol-missing"]  # a variant of library-mismatch
    assert other_symbol.primary is not None
    assert other_symbol.primary.cause_group == "library-mismatch"
    assert other_symbol.primary is not None
    assert dict(other_symbol.primary.facts) == {"symbol": "cublasLtCreate"}


# --------------------------------------------------------------------------------------------
# The corpus of real failing logs and the goals of issue 14
# --------------------------------------------------------------------------------------------


def _accuracy_module() -> ModuleType:
    path = REPO / "benchmarks" / "diagnose_accuracy.py"
    spec = importlib.util.spec_from_file_location("diagnose_accuracy", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_corpus_is_real_logs_with_their_sources() -> None:
    accuracy = _accuracy_module()
    logs = accuracy.load_corpus(CORPUS)
    assert len(logs) >= 40
    assert {p.name for p in CORPUS.glob("*.log")} == {log.file for log in logs}
    known = {s.id for s in default_rules().signatures} | {"unknown"}
    for log in logs:
        assert log.source.startswith("https://github.com/"), log.file
        assert log.cause in known, log.file
        lines = [line.strip() for line in (CORPUS / log.file).read_text("utf-8").splitlines()]
        assert log.first_error in lines, log.file  # the expected line is really in the log
    assert sum(log.cause == "unknown" for log in logs) >= 3  # causes nobody knows are in it
    assert {log.os for log in logs} == {"windows", "linux"}
    assert len({log.lang for log in logs}) >= 3


def test_the_diagnosis_meets_the_accuracy_goals_on_the_real_logs() -> None:
    scores = _accuracy_module().evaluate(CORPUS)
    misses = [(r.log.file, r.first_error, r.cause) for r in scores.results if not r.first_ok]
    assert scores.first_error >= 0.95, misses
    assert scores.precision >= 0.95, [(r.log.file, r.cause) for r in scores.named if not r.cause_ok]
    assert scores.recall >= 0.75
    # An "unknown" log never gets a guessed cause, and still shows the right first error.
    for result in scores.results:
        if result.log.cause == "unknown":
            assert result.cause is None and result.first_ok, result.log.file
        if result.log.advice is not None:  # version-dependent advice names the right remedy
            assert result.fix is not None and result.log.advice in result.fix, result.log.file


def test_a_requires_field_must_name_known_facts(tmp_path: Path) -> None:
    path = write_rules(tmp_path, broken(extra='requires = ["macos"]'))
    with pytest.raises(DiagnosisDataError, match="requires"):
        load_rules(path)


@pytest.mark.parametrize("name", OK_LOGS)
def test_no_prefilter_needle_is_common_in_a_successful_build(name: str) -> None:
    # A needle that ordinary lines contain ("python.h" in include traces) makes every such line
    # run all signatures and drops the throughput the live log needs (benchmarks/diagnose_bench).
    text = (SHARED_LOGS / name).read_text(encoding="utf-8").lower()
    lines = text.splitlines()
    for needle in default_rules().literals:
        assert sum(needle in line for line in lines) <= 3, needle


@pytest.mark.parametrize(("line", "command"), [
    ("/usr/local/cuda/bin/nvcc -c x.cu", True),
    ("[3/10] /usr/bin/c++ -MMD -o x.o", True),
    ('"C:/tools/cl.exe" /c x.cpp', True),
    ("x86_64-linux-gnu-g++ -shared a.o", True),
    ("nvcc\t-c a.cu", True),
    ("ptxas info    : Used 40 registers", True),
    ("cicc warning : x", True),
    ("nvcc fatal : Unsupported gpu architecture 'compute_35'", False),
    ("gcc: error: unrecognized command-line option", False),
    ("error: nvcc -c failed", False),
    ("/" * 5000, False),
])
def test_a_compilers_own_command_line_is_told_from_a_message(line: str, command: bool) -> None:
    """read token by token (the regex before backtracked quadratically on runs of '/')"""
    from kernel_wizard.diagnose.matcher import _not_a_message

    assert _not_a_message(line) is command
