"""The streaming matcher: :class:`LogDiagnoser` fed a build log line by line, the first real
error, and the report (:class:`DiagnosisReport`)."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from kernel_wizard.base.messages import Msg, msg
from kernel_wizard.diagnose.context import (
    GENERIC,
    KernelContext,
    context_for_package,
    package_id,
    package_in_line,
)
from kernel_wizard.diagnose.facts import ADVISERS, DRIVE, LogFacts, read_facts, worded_facts
from kernel_wizard.diagnose.families import (
    JIT_HEAD,
    JIT_HEAD_MARKS,
    JIT_LINE,
    JIT_MARKS,
    RUN_MARK,
    WHEEL_NOT_BUILT,
    Family,
    family_of,
)
from kernel_wizard.diagnose.rules import (
    DiagnosisRules,
    FailureSignature,
    RetryAction,
    Severity,
    default_rules,
    required_literal,
)

DEFAULT_CONTEXT_LINES = 6  # lines kept before the first error
DEFAULT_AFTER_LINES = 3  # lines kept after it (gcc's caret, a wrapped Python message)
MAX_LINE_CHARS = 2000  # longer lines are cut in the context kept (nvcc command lines: ~3000)
# A known error this many lines below an unexplained first error explains it (the rest of one
# message: xFormers' list of operators it could not use, CMake's follow-up errors).
FOLLOWING_LINES = 30


@dataclass(frozen=True)
class Diagnosis:
    """A signature found in the log, with the line where it was first seen."""

    signature_id: str
    title: str
    cause: str
    fix: str
    severity: Severity
    retry: RetryAction | None
    line: str
    line_number: int  # 1-based, counting every line fed
    facts: tuple[tuple[str, str], ...] = ()  # what the matched line showed (tool, version, ...)
    cause_id: str = ""  # the group of causes it belongs to ("": its signature_id)
    pattern: int = 0  # which of its signature's patterns matched (-1: the log's structure)

    @property
    def cause_group(self) -> str:
        """The cause reports name: the signature's cause group, else the signature itself
        (not to be confused with the report's :attr:`DiagnosisReport.family`, the stage)."""
        return self.cause_id or self.signature_id


@dataclass(frozen=True)
class FirstError:
    """The first line of the log that looks like a real error, with the lines around it."""

    line: str
    line_number: int  # 1-based
    context_before: tuple[str, ...]  # up to ``context_lines`` lines just before it
    context_after: tuple[str, ...] = ()  # up to ``after_lines`` lines just after it
    signature_ids: tuple[str, ...] = ()  # signatures matched on this line or the lines after
    from_warning: bool = False  # a warning that names the cause (no real error explained it)
    # No known error line: the last line that shows the failure (a tool that could not run, a
    # Python exception, ninja's FAILED:, a non-zero exit), shown because the build failed
    fallback: bool = False


@dataclass(frozen=True)
class DiagnosisReport:
    """What the diagnosis found in a whole log."""

    hits: tuple[Diagnosis, ...]  # in the order they appeared, one per signature
    first_error: FirstError | None
    primary: Diagnosis | None  # the hit that explains the failure, if one does
    retry: RetryAction | None  # the automatic retry worth trying, if any
    lines_seen: int
    failed: bool = False  # the process failed (the report never says "no errors" then)
    # Where the log stopped (the first level of the diagnosis), for every failed log and every
    # log with an error; None for a log that shows no failure
    family: Family | None = None

    @property
    def cause_unknown(self) -> bool:
        """The build failed and no known cause explains it (the report says so plainly)."""
        return self.failed and self.primary is None

    @property
    def errors(self) -> tuple[Diagnosis, ...]:
        return tuple(h for h in self.hits if h.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Diagnosis, ...]:
        return tuple(h for h in self.hits if h.severity is Severity.WARNING)

    def describe(self) -> str:
        """Plain text for the CLI and the saved log: the first error, then each known problem."""
        parts: list[str] = []
        if self.first_error is not None:
            parts.append(
                f"First error (line {self.first_error.line_number}): "
                f"{self.first_error.line.strip()}"
            )
        elif self.failed:
            parts.append("The build failed, and the log shows no line that says why.")
        elif not self.hits:
            parts.append("No errors and no known problems found in the log.")
        if self.family is not None:
            parts.append(f"Stopped while {self.family.title}: {self.family.next_step}")
        if self.cause_unknown:
            usually = (f" It stopped while {self.family.title}: that usually means "
                       f"{self.family.usually}." if self.family is not None else "")
            parts.append("Cause: not one the wizard knows." + usually + " The report bundle "
                         "(log, plan and machine facts) is what to attach when asking for help.")
        for hit in self.hits:
            parts.append(
                f"[{hit.severity.value}] {hit.title} (line {hit.line_number})\n"
                f"  Why: {hit.cause}\n  What to do: {hit.fix}"
            )
        if self.retry is not None:
            parts.append(f"Suggested automatic retry: {self.retry.value}")
        return "\n".join(parts)


# --------------------------------------------------------------------------------------------
# Causes whose advice is to build the kernel again; when the log shows no build at all, the module
# came as a wheel, and reinstalling the wheel that fits is the usual fix.
_REINSTALLABLE = frozenset({"extension-abi-mismatch"})
# A DLL that Windows did not load, raised while PyTorch itself is imported (the traceback's
# last frame is torch/__init__.py: "from torch._C import *", "raise err"): a DLL of PyTorch, not
# of the kernel, whatever the line says (late set f: "DLL load failed: %1" under torch._C was
# given the kernel's "build it on this machine"). Only the causes about a kernel's library.
_TORCH_DLL = "torch-dll-load-failed"
_KERNEL_DLL_CAUSES = frozenset({"library-mismatch", "extension-abi-mismatch"})
_TORCH_INIT_FRAME = re.compile(r'[\\/]torch[\\/]__init__\.py"?, line \d+')
_CTYPES_FRAME = re.compile(r'[\\/]ctypes[\\/]__init__\.py"?, line \d+')
_TORCH_DLL_FAILED = re.compile(r"DLL load failed|WinError 12[67]\b")
_WINDOWS_DLL = re.compile(r"DLL load failed|WinError \d+|\.dll\b")
# A log from macOS: a Mac's home folders (/Users/x, not C:\Users or C:/Users), Homebrew, Darwin,
# its wheels' and compilers' names, the words a post uses (late set l: five CUDA packages built
# on Macs). A Windows drive letter in the same log wins (read at the summary).
_MAC_HINT = re.compile(
    r"(?:^|[\s\"'(=>])/Users/|/opt/homebrew/|/usr/local/Cellar/|\bdarwin\b|\bDarwin\b"
    r"|apple-darwin|\bmacosx_\d|\bApple clang\b|\bApple Silicon\b|\b[Mm]ac ?OS\b|\bMac[Bb]ook\b"
    # Apple's own chips as a post names them ("my Macbook M1 pro", "Apple M2"; late sets n, o)
    r"|\bApple M[1-5]\b|\bM[1-5] (?:[Pp]ro|[Mm]ax|[Uu]ltra)\b"
    r"|\.dylib\b"
    # PyTorch's device for Apple's GPUs, as code names it ("Tango(..., \"mps\")",
    # torch.backends.mps; late set q)
    r"|[\"']mps(?::\d+)?[\"']|\btorch\.backends\.mps\b"
    # conda's platform of a Mac: its channels' subfolders and its "Platform: osx-arm64" (late set m)
    r"|\bosx-(?:arm)?64\b"
)
# NVIDIA CUDA missing where the build or the program wants it: CUDA_HOME unset or None, nvcc not
# found, CMake asking for the toolkit's folder, a PyTorch without CUDA, conda with no cudatoolkit.
# On a Mac none of these has a CUDA toolkit to install: NVIDIA CUDA does not exist there.
_MAC_CUDA_MISSING = re.compile(
    r"CUDA_HOME\b.{0,40}(?:\bNone\b|not set)|[Nn]o CUDA runtime is found"
    r"|Could not find nvcc|nvcc(?:: command)? not found"
    r"|[Nn]o CMAKE_CUDA_COMPILER could be found|Failed to find nvcc"
    r"|(?P<torch>Torch not compiled with CUDA enabled)"
    r"|\b(?:cudatoolkit|pytorch-cuda|cuda-toolkit)\b.{0,40}(?:does not exist|ResolvePackageNotFound"
    r"|not available)"
    # conda's solver: a package that needs Windows, Linux or a CUDA driver ("nothing provides
    # __win needed by cuda-12.0.0", "__cuda, which is missing on the system"), or a CUDA package
    # in the list under "PackagesNotFoundError" ("  - cuquantum-python"; late set m)
    r"|nothing provides __(?:win|linux|cuda|glibc)\b|\b__(?:win|linux|cuda)\b,? which is missing"
    # a setup.py building a CUDAExtension (torch's builder looks for the CUDA toolkit; late set n)
    r"|\bCUDAExtension\("
    r"|^\s*-\s+(?:cuda|cudatoolkit|cudnn|cupy|cuquantum|cutensor|cuml|cudf|nccl|nvidia-|pytorch-cuda)"
    r"[\w.=<>*-]*\s*$"
)
# (substrings every match of the two above holds: most lines are read by a few `in` tests)
_MAC_WORDS = ("/Users/", "/opt/homebrew/", "/usr/local/Cellar/", "arwin", "macosx_", "Apple ",
              "ac OS", "acOS", "MacBook", "Macbook", ".dylib", "osx-", "M1 ", "M2 ", "M3 ", "M4 ",
              "M5 ", "'mps", '"mps', "backends.mps")
_CUDA_MISSING_WORDS = ("CUDA_HOME", "CUDA runtime", "nvcc", "not compiled with CUDA",
                       "cudatoolkit", "pytorch-cuda", "cuda-toolkit", "__win", "__linux",
                       "__cuda", "__glibc", "- cu", "- nccl",
                       "- nvidia-", "- pytorch-cuda", "CUDAExtension(")
_CONDA_MISSING = re.compile(r"does not exist|ResolvePackageNotFound|not available|__(?:win|linux"
                            r"|cuda|glibc)\b|^\s*-\s")
# conda's channels for a 32-bit system ("https://conda.anaconda.org/nvidia/linux-32"): no NVIDIA
# CUDA package is made for one (late set n)
_BITS32 = re.compile(r"[\\/](?:linux|win)-32\b")
_MAC_CUDA_CAUSES = frozenset({"cuda-home-not-set", "built-without-cuda", "nvcc-not-found",
                              "cuda-not-found"})

# --------------------------------------------------------------------------------------------
# What "looks like an error": the generic part, independent of the known signatures.
# --------------------------------------------------------------------------------------------

_ERROR_LINE = re.compile(
    r"""
    (?i:                            # gcc/clang/nvcc/MSVC/link/pip/git messages, at line start
      (?: ^\s*(?:\d+>|>\s*|`+\s*|\*\*)?  # (or MSBuild's "3>", a quote's "> ", a post's ` or **)
          (?:\d{4}-\d\d-\d\dT[\d:.]+Z\s+|\#\d+\s+|\#\d+\s+\d+\.\d+\s+|\d+\.\d+\s+)?  # time stamp
        | :\s+ )                    # or after a location
      (?: fatal\s+ )? error (?: \s+[a-z]+\d+ )? \s*:   # error: / error C2039: / fatal error LNK1
    )
    | (?i: ^\s*(?:\d{4}-\d\d-\d\dT[\d:.]+Z\s+|\#\d+\s+|\#\d+\s+\d+\.\d+\s+|\d+\.\d+\s+)?
           fatal\s*: )                 # git: "fatal: unable to access ..."
    | \berror\s+C\d{4}\s*:               # MSVC's error code, wherever the line quotes it
    # MSBuild's error list in another language ("错误\tMSB3721\t命令“...nvcc.exe ...”已退出，
    # 返回代码为 2。", the English "error MSB3721:" being a wrapper; late set o)
    | (?:^|\t)\s*(?:错误|錯誤|Fehler|Erreur|Error)?\s*\t?\s*\d*\s*\t?\s*(?:error\s+)?MSB3721\t
    # ... and its compiler's or linker's codes copied from the list ("> LNK2001\tunresolved
    # external symbol ...", "Error\tC2664\t..."; late set q)
    | ^\s*(?:>\s*)?(?:(?:错误|錯誤|Fehler|Erreur|Error)\s*\t\s*)?(?:LNK|C)\d{4}\t
    | \bLLVM\s+ERROR\s*:                  # LLVM's own fatal error (cicc, ptxas, Triton)
    # Rust builds of CUDA crates (late set r): rustc's "error[E0422]: ...", the cc crate's
    # "error occurred: Command "nvcc" ... did not execute successfully", bindgen_cuda's "nvcc
    # error while executing compiling: ..."
    | ^\s*error\[E\d{4}\]\s*:
    | ^\s*error\s+occurred:\s
    | \bnvcc\s+error\s+while\s+executing\b
    # Torch7's cutorch checking a CUDA call ("THCudaCheck FAIL file=... error=38 : no
    # CUDA-capable device is detected")
    | \bTHCudaCheck\s+FAIL\b
    # other languages' failures (sets q-s: explain had called these logs clean): Lua's require
    # ("luajit: module 'cutorch' not found:", Torch7's "package cunn not found!"), MATLAB's
    # "Error using vl_compilenn>check_clpath (line 656)", and a Python exception quoted right
    # after Chinese, Japanese or Korean text
    | (?:^|:\s)module\s+'[\w.]+'\s+not\s+found\b | ^\W{0,3}\s*package\s+\w+\s+not\s+found!
    | ^\s*Error\s+using\s+\S
    | [\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af](?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception):
    # nvcc's front end: "x.cu(12): catastrophic error: cannot open source file ...", and its
    # own assertion failing ("x.cu(10): internal error: assertion failed: traverse_expr ...")
    | (?i: \)\s*(?:\(col\.\s*\d+\))?:\s+(?:catastrophic|internal)\s+error\s*: )
    # gcc in other languages, after a location ("x.c:40:1: error fatal:", "x.cpp:5:10: ошибка:")
    # or after the compiler driver's own name (late set q: "gcc: 错误：nms/nms_kernel.cu：没有那个
    # 文件或目录"; the English "gcc: error:" is the first form)
    | (?i: (?: :\d+(?::\d+)?:
             | ^\s*(?:\S*[\\/])?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|cc1|cc1plus|nvcc)(?:\.exe)?: )
           \s+(?:error\s+fatal|(?:schwerwiegender\s+)?Fehler|erreur(?:\s+fatale)?
            |errore(?:\s+fatale)?|(?:фатальная\s+)?ошибка|błąd|致命错误|错误|致命的エラー|エラー|오류|hata)
            \s*[:：] )
    | (?i: \b(?:nvcc|ptxas|nvlink|fatbinary|cicc|cudafe\+\+)(?:\.exe)?\s+(?:fatal|error)\s*: )
    | (?i: (?:^|:)\s*\#error\b )                # preprocessor #error reported on its own
    | (?i: \bCMake\s+Error\b )
    # CMake's compiler check failing, as CMakeError.log records it without the header above it
    # ("Compiling the CUDA compiler identification source file "CMakeCUDACompilerId.cu"
    # failed."; late set t)
    | ^\W{0,3}\s*Compiling\s+the\s+\w+\s+compiler\s+identification\s+source\s+file\b.*\bfailed\b
    # a CUDA runtime call failing, as the CUDA samples report it ("cudaGetDeviceCount returned
    # 35", then "-> CUDA driver version is insufficient for CUDA runtime version"; late set t)
    | ^\W{0,3}\s*cuda[A-Z]\w*\s+returned\s+\d+\s*$
    # ptxas refusing an architecture, where a post leaves out its name ("Value 'sm_30' is not
    # defined for option 'gpu-name'"), JAX's GPU backend failing to start ("CUDA backend failed to
    # initialize: ..."), R's error header ("Error in cpp_torch_tensor(data, ...) : ", its
    # message on the next line; late set u)
    | \bValue\s+\S+\s+is\s+not\s+defined\s+for\s+option\b
    | \bCUDA\s+backend\s+failed\s+to\s+initialize\b
    | ^\s*Error\s+in\s+[\w.]+\(.*:\s*$
    | (?i: \bCommand\s+line\s+error\s+D\d{4}\s*: )   # cl.exe: "cl : Command line error D8021 :"
    | ^\s*Killed\s*$                            # the kernel's OOM killer, as the shell reports it
    # the shell reporting a program that crashed ("python test.py" then "Segmentation fault")
    | ^\s*`*\s*Segmentation\s+fault(?:\s+\(core\s+dumped\))?\s*`*\s*$
    | \bIllegal\s+instruction\b                  # SIGILL: code for a CPU feature this one lacks
    # ctypes not finding a function in a loaded library, as bitsandbytes prints it on Windows
    | ^\s*function\s+'\w+'\s+not\s+found\s*$
    # Python's exceptions (also the bare Exception)
    | ^\s*(?:>\s*)?(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Interrupt|Exit)|Exception)
      (?::|$)
    # ... quoted in a post's list item ("- `OSError: /x/libgomp.so.1: cannot allocate memory in
    # static TLS block`", field/index-h.toml)
    | ^\s*[-*+]\s+`(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception):
    # a Python exception of an errors module whose name says no "Error"
    # ("triton.runtime.errors.OutOfResources: out of resource: shared memory"; not torch._dynamo's
    # exc module, whose BackendCompilerFailed only wraps the error below it)
    | ^\s*(?:[A-Za-z_]\w*\.)+(?:errors|exceptions)\.[A-Z]\w*:
    # GNU ld / lld / collect2 ("/usr/bin/ld: cannot find -lcuda"), not its context lines
    # ("in function `f':", "skipping incompatible ... when searching for -lx") or warnings
    | ^\s*(?:\S*/)?(?:ld(?:\.\w+)?|lld|collect2)(?:\.exe)?:\s
        (?! .*:\s+in\s+function\s ) (?! .*\bskipping\s+incompatible\b ) (?! \s*warning\b )
    | \bundefined\s+reference\s+to\b | \bmultiple\s+definition\s+of\b
    | \bninja:\s+(?:fatal|error)\s*: | \bCreateProcess\s+failed\b
    # nvcc's count of the errors in one file ("2 errors detected in the compilation of "x.cu".")
    | (?<!\d)\d+\s+errors?\s+detected\s+in\s+the\s+compilation\s+of\b
    # the shell reporting a program it could not run ("/bin/sh: 1: /opt/x/g++: not found")
    | ^\s*(?:\S*/)?(?:ba|da|z)?sh:\s.*(?:\bnot\s+found|No\s+such\s+file\s+or\s+directory)\s*$
    # a tool of the toolchain reporting that it itself is missing ("gcc: No such file or
    # directory", as nvcc prints it for its host compiler)
    | ^\s*(?:\S*[\\/])?(?:gcc|g\+\+|cc|c\+\+|cl|nvcc|clang|clang\+\+|ninja|cmake)(?:\.exe)?:
        \s+No\s+such\s+file\s+or\s+directory\s*$
    # a package's loader not finding its own native library ("Could not find the bitsandbytes
    # CUDA binary at WindowsPath('.../libbitsandbytes_cuda128.dll')")
    | ^\W{0,3}\s*Could\s+not\s+find\s+the\s+\S+(?:\s+\S+)?\s+(?:binary|library)\s+at\b
    # the network failing, on the line of its own that a pip or urllib3 message wraps onto
    # ("Failed to establish a new connection: [Errno -3] Temporary failure in name resolution")
    | ^\W{0,3}\s*Failed\s+to\s+establish\s+a\s+new\s+connection\b
    # a shared library that cannot be loaded, named by its file, on a line of its own or in a
    # runtime's log line ("Library cublas64_12.dll is not found or cannot be loaded", "Could not
    # load library cudnn_ops_infer64_8.dll. Error code 126", onnxruntime's "[E:onnxruntime:...]
    # ... LoadLibrary failed with error 126 ... onnxruntime_providers_cuda.dll"; not its warning
    # level, "[W:onnxruntime:...]", after which it runs on the CPU)
    | (?i: \bCould\s+not\s+(?:load\s+library|locate)\s+\S+\.(?:so|dll|dylib)\b
         | \bUnable\s+to\s+load\s+any\s+of\s+\{?\S+\.(?:so|dll|dylib)\b
         | ^\W{0,3}\s*Library\s+\S+\.(?:so|dll|dylib)(?:\.\d+)*\s+is\s+not\s+found\b
         | ^(?![^\n]*\[W:)[^\n]*?\bLoadLibrary(?:Ex\w*)?\s+failed\s+with\s+error\s+\d+ )
    # an assembler's error at a place in its input ("ptxas /tmp/x.ptx, line 5; fatal   :
    # Unsupported .version 8.6"): its summary ("ptxas fatal : Ptx assembly aborted due to
    # errors") comes after it
    | (?i: \bptxas(?:\.exe)?\s+\S.*,\s*line\s+\d+;\s*(?:fatal|error)\s*: )
    # gcc's crash after a location or its own name ("x.c:12:1016: internal compiler error:
    # Segmentation fault", "c++: internal compiler error: Killed"): its trailer ("Please submit
    # a full bug report") comes after it
    | (?i: :\s+internal\s+compiler\s+error\s*: )
    # conda's and mamba's solver: a package that no channel has for this platform
    # ("ResolvePackageNotFound:" above the list of packages, "PackagesNotFoundError: ...", mamba's
    # "Could not solve for environment specs" above "x 11.8** does not exist (perhaps a typo or
    # a missing channel)")
    | ^\W{0,3}\s*ResolvePackageNotFound\s*:
    | ^\W{0,3}\s*Could\s+not\s+solve\s+for\s+environment\s+specs\b
    | ^\W{0,3}\s*(?:LibMamba)?UnsatisfiableError\s*:
    | \bdoes\s+not\s+exist\s+\(perhaps\s+a\s+(?:typo\s+or\s+a\s+)?missing\s+channel\)
    """,
    re.VERBOSE,
)
# The linker's context line ("ld: x.o: in function `f':"): the error is on the line after it, even
# where a known cause reads the symbol's name in it
_LINKER_CONTEXT = re.compile(r"^\s*(?:\S*/)?(?:ld(?:\.\w+)?|lld)(?:\.exe)?:\s.*:\s+in\s+function\s")
# pip's error code on a line of its own ("error: failed-wheel-build-for-install", "error:
# metadata-generation-failed"): it names the step that failed, not why; the output above says
# (uv's "error: Failed to build: `flash-attn==2.7.4`" above the build's output says the same)
_PIP_ERROR_CODE = re.compile(
    r"^\W{0,3}\s*error:\s+(?:[a-z]+(?:-[a-z]+)+\s*$|Failed to build:?\s+`)")
# A sentence a person wrote about the error ("Hi there, I encountered an internal compiler error
# ...", "I've already upgraded X, but it still prompts 'DLL load failed ...'"): it retells the
# error; the log's own line is the first error where the log has one (a tool's error, a failure
# line), the sentence only where it has none.
_PROSE = re.compile(r"(?:^|[\s*\"'(])(?:I|I've|I'm|I'd|[Ww]e|[Ww]e've|[Mm]y)\s+[a-z]"
                    r"|(?i:^\W{0,4}\s*(?:hi|hello)\b|\b(?:could|can) (?:you|anyone|someone)\b)")
# A Python exception line (the end of a traceback), as opposed to a compiler's or linker's error.
_PY_EXCEPTION = re.compile(
    r"^\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit)(?::|$)"
)
# Python's warning line ("x.py:383: UserWarning: ..."); the line after it echoes the source.
_PY_WARNING = re.compile(r":\d+: [A-Z]\w*Warning: ")
# A Python traceback's frame line; the line after it echoes source code, which may well contain
# the text of an error message ("raise OSError('CUDA_HOME environment variable is not set')").
_FRAME = re.compile(r'^\s*File "[^"]*", line \d+')
# IPython's and Jupyter's traceback: a header "RuntimeError    Traceback (most recent call last)"
# and frames "File ~/x/cuda.pyx:8876, in cuda.cuda.cuInit()" (no quotes, no "line")
_IPY_HEADER = re.compile(r"^\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)\s{2,}Traceback \(")
_IPY_FRAME = re.compile(r"^\s*File [^\s\"]\S*:\d+, in \S")
# A traceback's source line that imports ("from gsplat import csrc as _C", "import torch")
_IMPORT_STATEMENT = re.compile(r"^\s*(?:from\s+[\w.]+\s+)?import\s+[\w.]")
# A source file's name alone on its line: MSVC's cl.exe echoes the file it compiles ("test.c"),
# and a build script that compiles a test program to find a library shows nothing else
_LONE_SOURCE = re.compile(r"^\s*[\w.-]+\.(?:c|cc|cpp|cxx|cu)\s*$")
# Warnings are never "the first error", even when they mention a known problem; a warning that
# names a cause can still be the headline when nothing else explains the failure.
_WARNING_LINE = re.compile(r"(?i:\bwarning\s*(?:[a-z]*\d+|\#\d+-d)?\s*:)|\b[A-Z]\w*Warning:")
# Every line _ERROR_LINE can match contains one of these (lower-cased).
_ERROR_WORDS = (
    "error",
    "fehler", "erreur", "errore", "ошибка", "błąd", "错误", "エラー", "오류", "hata",
    "fatal",
    "killed",
    "illegal instruction",
    "segmentation fault",
    "exception",
    "interrupt",
    "exit",
    "ld:",
    "lld:",
    "collect2",
    "undefined reference",
    "multiple definition",
    "createprocess",
    "not found",
    "no such file",
    "could not find the",
    "failed to establish",
    "could not load library",
    "could not locate",
    "unable to load any of",
    "is not found",
    "loadlibrary",
    "ptxas",  # (at a line of its input: "ptxas x.ptx, line 5; fatal   : ...")
    "lnk",  # (a linker code copied from Visual Studio's error list: "LNK2001\tunresolved ...")
    "resolvepackagenotfound",
    "could not solve for environment",
    "missing channel",
    "compiler identification",  # (CMake's check: "... identification source file ... failed.")
    " returned ",  # (the CUDA samples' "cudaGetDeviceCount returned 35")
    "is not defined for option", "backend failed",
)
_ERROR_NEEDLES = tuple((w, frozenset(w)) for w in _ERROR_WORDS)
# A label alone ("error:", "ERROR:", "fatal error:" with nothing after it): its error is on the
# lines below it (a post's "error:" above the linker's "/usr/bin/ld: cannot find -lcudart", above
# a traceback), so it is never the first error itself.
_BARE_LABEL = re.compile(r"(?i)^\W{0,3}\s*(?:fatal\s+)?error\s*[:：]?\s*\W{0,3}$")
# Long lines that are never a failure and never name one: a compiler or linker command echoed
# by ninja or setuptools ("[3/24] /usr/local/cuda/bin/nvcc -I...", "cl /showIncludes ..."),
# whatever error-ish words its flags contain (-Werror, -I.../nvshmem/include), and the CUDA
# tools' info and warning lines ("ptxas info    : Compiling entry function '_ZN...'"), which
# carry kilobytes of mangled names. Checked on long lines only: they are most of a log's bytes.
_LONG_LINE = 400  # characters from which a line is checked by _not_a_message
_PROGRESS_PREFIX = re.compile(r"\[\d+/\d+\]\s+")
_TOOL_NAME = re.compile(
    r"(?:nvcc|g\+\+|gcc|c\+\+|cc|clang\+\+|clang|cl|(?:\w+-)+g(?:cc|\+\+)|hipcc)(?:\.exe)?",
    re.IGNORECASE)
# ... one whose program path begins with a list separator ("[1/12] :/usr/local/cuda/bin/nvcc
# -I..."): it names the cause (tool-path-malformed), the failure reported about it is the first
# error
_COLON_ECHO = re.compile(r"^\s*(?:\[\d+/\d+\]\s+)?:/")
_TOOL_REPORT = re.compile(r"(?:ptxas|nvlink|fatbinary|cicc)\s+(?:info|warning)\s*:", re.IGNORECASE)


# The compiler running (ninja's "[3/24]", setuptools' "building 'x' extension", MSBuild's
# "ClCompile", a compiler's command line) and a build at all (pip, setup.py, CMake).
_COMPILING = re.compile(r"\[\d+/\d+\]\s|building '|(?i:ClCompile|Compiling\s)")
_BUILDING = re.compile(r"(?i:Building wheel|running build|setup\.py|Building editable|"
                       r"-- The (?:C|CXX|CUDA) compiler|Getting requirements to build|"
                       r"Preparing metadata|Running setup|cmake|"
                       # (uv's; no leading \W*: in a search it made a long run of '/' quadratic)
                       r"Failed to build:? `|The build backend returned)")

# A traceback's frame in a package's build or install script ('File "C:\\x\\vllm\\setup.py",
# line 667', ComfyUI-3D-Pack's install.py checking the CUDA toolkit; late set t): the log is of
# a build, though the frame's path pushes the script's name past the line's first characters
_BUILD_SCRIPT_FRAME = re.compile(
    r"""\s*File\s+["'][^"']*[\\/](?:setup|build\w*|install)\.py["']""")


def _not_a_message(text: str) -> bool:
    """A compiler's own command line (``[3/10] /usr/bin/c++ -MMD ...``, ``"cl.exe" /c``, a
    ``x86_64-linux-gnu-g++ -shared``) or a CUDA tool's report (``ptxas info :``): never a
    message. Read token by token, in linear time: the regex it replaces backtracked
    quadratically over a long run of slashes (10,000 lines of '/' took seconds)."""
    head = text[:1024].lstrip()
    if _TOOL_REPORT.match(head) is not None:
        return True
    progress = _PROGRESS_PREFIX.match(head)
    if progress is not None:
        head = head[progress.end():]
    parts = head.split(None, 1)
    token, rest = (parts[0], parts[1] if len(parts) > 1 else "") if parts else ("", "")
    if len(token) > 600 or not rest or token.startswith(":"):
        # (a program path that begins with a list separator, ":/usr/local/cuda/bin/nvcc -I...",
        # cannot be run: that echo is the failure's evidence, tool-path-malformed, though not
        # the first error, which is the failure reported about it)
        return False
    name = re.split(r"[\\/]", token.strip("\"'"))[-1]
    if any(q in token.strip("\"'") for q in "\"'"):
        return False
    return _TOOL_NAME.fullmatch(name) is not None and rest[:1] in ("-", "/")
# Lines that are never a failure whatever their length, settled before any other test: blank
# lines, and the CUDA assembler's reports (a third of a kernel build's lines)
_NOISE = ("ptxas info", "ptxas warning", "0 bytes stack frame")
# Lines that show a failure without being a compiler-style error: a tool that could not be run,
# a non-zero exit, ninja's FAILED:, pip's summary. The last one stands as the first error of a
# failed build when nothing else does (a failed build is never reported clean).
_FAILURE_LINE = re.compile(
    r"""(?i:
        \bPermission\s+denied\b | \bExec\s+format\s+error\b | \bcannot\s+execute\b
      | \bcommand\s+not\s+found\b | \bis\s+not\s+recognized\s+as\s+an\s+internal\b
      | \bnot\s+found\b.*\b(?:nvcc|ninja|cmake|git|cl|gcc|g\+\+)\b
      | ^\s*(?:`+\s*|>\s*|\*\*)?FAILED:\s | \breturned\s+non-zero\s+exit\s+status\b
      | \bexit\s+(?:code|status)\s*:?\s*[1-9]\d* | \bexited\s+with\s+(?:code\s+)?[1-9]
      | \bfailed\s+with\s+exit\s+(?:code|status)\b | \bCommand\s.*\bfailed\b
      | \bsubprocess-exited-with-error\b | \bdid\s+not\s+run\s+successfully\b
      # a package's own message box ("ERROR! Cannot compile nvdiffrast CUDA extension. Please
      # ensure that:", late set n)
      | ^\W{0,3}\s*ERROR!\s
      # CMake not finding the CUDA toolkit (or a part of it), also as a status line ("-- Could
      # NOT find CUDAToolkit (missing: CUDA_CUDART) (found version ...)", late set n)
      | ^\W{0,3}\s*(?:--\s*)?Could\s+NOT\s+find\s+CUDA(?:Toolkit)?\b
      # glog's fatal line ("[F glutil.cpp:338] eglInitialize() failed", "F1129 10:12:01.123
      # x.cc:42] Check failed: ...": the program aborts after it; late set n)
      | ^\W{0,3}\s*(?:\[F\s+[\w.-]+:\d+\]|F\d{4}\s+\d\d:\d\d:\d\d(?:\.\d+)?\s+\S*\s*[\w.-]+:\d+\])\s
      | \bAssertionError\b | \bTraceback\s+\(most\s+recent\s+call\s+last\)
      | \bNo\s+rule\s+to\s+make\s+target\b | ^\s*ninja:\s+build\s+stopped\b
      | \bError\s+building\s+extension\b
      | \bDLL\s+load\s+failed\b  # (also without a reason: no known cause names it)
      | \bNo\s+CUDA\s+toolset\s+found\b     # CMake's message under its header
      # the loader refusing a file of another platform ("x/libbitsandbytes_cuda116.dll: invalid
      # ELF header"), bitsandbytes giving up ("CUDA Setup failed despite GPU being available"),
      # gcc's trailer of an internal compiler error whose first line a post left out
      | \binvalid\s+ELF\s+header\b | \bCUDA\s+Setup\s+failed\b
      | ^\s*Please\s+submit\s+a\s+full\s+bug\s+report\b
      # pip refusing a wheel, also where a post quotes it in a sentence ("The error I get is
      # ERROR: x.whl is not a supported wheel on this platform.")
      | \bis\s+not\s+a\s+supported\s+wheel\b
      # CMake finding no working compiler for a language ("-- The CUDA compiler identification
      # is unknown") or no GPU architecture for it ("Failed to detect a default CUDA
      # architecture."), where the log leaves out the CMake Error above it
      | \bcompiler\s+identification\s+is\s+unknown\b | \bFailed\s+to\s+detect\s+a\s+default\b
      # CMake's closing line after its errors, where the log leaves the errors out
      | \bConfiguring\s+incomplete,\s+errors\s+occurred\b
      # pip's summary of a wheel that failed to build, where the build's own output is left
      # out (uv's: "x Failed to build `flash-attn==2.7.4`")
      | \bFailed\s+building\s+wheel\s+for\b | \bFailed\s+to\s+build:?\s+`
      # ... and pip's last line naming the packages (late set u: "Failed to build grouped_gemm",
      # the build's output left out)
      | ^\s*Failed\s+to\s+build\s+[\w.-]+(?:\s+[\w.-]+)*\s*$
      # uv's resolver and downloader giving up ("x No solution found when resolving
      # dependencies:", "x Failed to download `torch==2.6.0+cu124`")
      | \bNo\s+solution\s+found\s+when\s+resolving\b | \bFailed\s+to\s+download\s+`
      # setuptools' summary that the compiler failed (torch's BuildExtension with ninja)
      | \bError\s+compiling\s+objects\s+for\s+extension\b
      # the Windows loader's dialog ("The procedure entry point ?x@c10@@ could not be located in
      # the dynamic link library ..."), PyTorch's own assertion failing while code runs
      | ^\W{0,3}\s*The\s+procedure\s+entry\s+point\b | \bINTERNAL\s+ASSERT\s+FAILED\b
      # a tool's summary of an error it printed on a line of its own (_SUMMARY_LINE)
      | \bPtx\s+assembly\s+aborted\b | \bCppCompileError: | \bBackendCompilerFailed:
    )""",
    re.VERBOSE,
)
# Every line _FAILURE_LINE can match contains one of these (lower-cased): most lines are
# settled by these substring tests.
_FAILURE_WORDS = ("denied", "format error", "cannot execute", "not found", "not recognized",
                  "build stopped", "configuring incomplete", "procedure entry point",
                  "no solution found", "did not run", "could not find cuda",
                  "failed", "non-zero", "exit", "error", "traceback", "no rule", "toolset",
                  "is unknown", "invalid elf header", "full bug report", "aborted",
                  "cppcompileerror", "backendcompilerfailed")
_FAILURE_NEEDLES = tuple((w, frozenset(w)) for w in _FAILURE_WORDS)
# A Python exception whose message starts on the next line ("RuntimeError:" then the text; an
# ImportError that names the library and breaks the line after it, "ImportError: /x/y.so: ";
# transformers' "... because of the following error (look up to see its traceback):"): the
# message is what a person should see first.
_BARE_EXCEPTION = re.compile(
    r"^\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception):"
    r"\s*(?:[^\s:]+:|.*\bthe following error\b.*:)?\s*$"
)
# What an exception's message lists before the tool's own output (PyCUDA's CompileError:
# "command: nvcc --cubin ...", "stdout:", then "nvcc fatal : Cannot find compiler 'cl.exe'"):
# the command and the stream's name are not the message
_ECHO_LABEL = re.compile(r"(?i)^\W{0,3}\s*(?:command|cmd|stdout|stderr|cwd)\s*:")
# CMake's "CMake Error at CMakeLists.txt:6 (project):" says where; its message follows on the
# next lines. When the first of them names a known cause, it is what a person should see first.
_CMAKE_HEADER = re.compile(r"\bCMake Error\b.*:\s*$")
# First error lines whose detail follows within a few lines: the line that says why is what a
# person should see first. Each: the header, the detail, and how many non-blank lines below it
# the detail may come.
_DETAIL_BELOW: tuple[tuple[re.Pattern[str], re.Pattern[str], int], ...] = (
    # the shell's "Killed", then the compiler naming itself ("c++: internal compiler error:
    # Killed (program cc1plus)", "nvcc error : 'cicc' died due to signal 9")
    (re.compile(r"^\s*Killed\s*$"),
     re.compile(r"(?i:Killed \(program|Killed signal terminated program|died due to signal"
                r"|terminated with signal)"), 1),
    # uv's and cargo's error chains: "error: Failed to determine installation plan", then
    # "  Caused by: A URL dependency is incompatible with the current platform: ..." (not a
    # cause that only says a command failed: its own output says more)
    # CMake's header, then the line of its message that says what failed ("No CUDA toolset
    # found.", "The C compiler ... is not able to compile a simple test program.", a find
    # module's "Could NOT find CUDA: Found unsuitable version ...")
    (re.compile(r"\bCMake Error\b.*:\s*$"),
     re.compile(r"(?i:No CUDA toolset found|is not able to compile a simple test program)"
                r"|\bCould NOT find \w"), 4),
    # nvcc's count of a file's errors put above them by a post ("16 errors detected in the
    # compilation of "x.cu"." then "...vector_types.h(88): error: expected a ">"", late set n)
    (re.compile(r"(?<!\d)\d+\s+errors?\s+detected\s+in\s+the\s+compilation\s+of\b"),
     re.compile(r"(?:\(\d+\)|:\d+:(?:\d+:)?)\s*:?\s*(?:fatal\s+)?error\b"), 10),
    (re.compile(r"^\s*error: \S"),
     re.compile(r"^\s*Caused by: (?!Call to\b|process didn't exit successfully"
                r"|Build backend failed\b)\S"), 1),
)
# Python source that a log quotes without a frame line before it ("raise RuntimeError('Ninja is
# required ...')", "warnings.warn(msg)"): the text of a message in code, never the message.
_PY_SOURCE = re.compile(r"^\W{0,3}\s*(?:raise\s+[\w.]+\(|(?:warnings\.)?warn\()")
# A line that says something went wrong in words no error format has (bitsandbytes' "CUDA SETUP:
# WARNING! libcuda.so not found!", "Unknown CUDA exception!", a failed assert quoted from the
# source, "[Errno 2] No such file or directory: 'LICENSE'"): the last resort of a failed log in
# which nothing else looks like a failure, so that it is never shown without a first line.
_PROBLEM_LINE = re.compile(
    r"(?i:\bnot found\b|\bexception\b|\bWARNING!|\[(?:Errno|WinError) -?\d+\]|^\W*assert\s"
    r"|\bnot available\b|\bno such file\b|\bcannot\b|\bcould not\b|\bunable to\b"
    r"|\bfailed to find\b|^\s*No [\w ]{1,40}? (?:is|was) found\b"
    # an error quoted in a sentence ("... throws error: No matching distribution found for
    # torch==2.1.1+cu121"), and the words for it in Chinese (not found, reported an error)
    r"|\berror\s*[:：]\s*\S|未找到|找不到|报错)")
# A sentence that quotes a tool's error ("... torch==2.1.2+cu121报错，ERROR: Could not find a
# version that satisfies the requirement ..."): it says more than a title that only says an
# error was reported ("# torch==2.1.2+cu121报错"), which it replaces as the last resort
_QUOTED_ERROR = re.compile(r"(?i:\berror\s*[:：]\s*\S)")
_PROBLEM_WORDS = ("not found", "exception", "warning!", "errno", "winerror", "assert",
                  "not available", "no such file", "cannot", "could not", "unable to", "found",
                  "failed to find", "error", "未找到", "找不到", "报错")
# Lines that only wrap the failure above them: shown only when nothing better is found.
_WRAPPER_LIKE = re.compile(
    r"(?i:subprocess-exited-with-error|did not run successfully|^\s*(?:`+\s*|>\s*|\*\*)?FAILED:"
    # pip's box under "× ... did not run successfully." ("│ exit code: 1"): the line above says
    # which step failed (late set n)
    r"|^\s*(?:│\s*)?exit\s+code:\s*-?\d+\s*$"
    r"|\bConfiguring\s+incomplete\b|\bFailed\s+building\s+wheel\b|\bFailed\s+to\s+build:?\s+`"
    r"|\bCall\s+to\s+`[^`]*`\s+failed\b|\bBuild\s+backend\s+failed\b"  # uv's wrappers
    r"|\bError\s+compiling\s+objects\s+for\s+extension\b"
    r"|^\s*ninja:\s+build\s+stopped|\bError\s+building\s+extension\b"
    r"|\bPtx\s+assembly\s+aborted\b|\bfull\s+bug\s+report\b"  # (_SUMMARY_LINE)
    r"|\b(?:CppCompileError|BackendCompilerFailed):)"
)
# A tool's summary or trailer of an error it printed on a line of its own (before or after it,
# as a post pastes them): never the first error, shown only as a failure line where the log
# lacks the error itself. ptxas' "Ptx assembly aborted due to errors" after "ptxas x.ptx, line
# 5; fatal : ...", gcc's "Please submit a full bug report" of an internal compiler error,
# Inductor's "CppCompileError: C++ compile error" over the compiler's output, and
# torch._dynamo's "BackendCompilerFailed: backend='inductor' raised:" over that
_SUMMARY_LINE = re.compile(
    r"(?i:\bPtx\s+assembly\s+aborted\s+due\s+to\s+errors\b"
    r"|^\W{0,3}\s*Please\s+submit\s+a\s+full\s+bug\s+report\b)"
    r"|^\s*(?:(?:[A-Za-z_]\w*\.)*\w*Error:\s*)?(?:[A-Za-z_]\w*\.)*"
    r"(?:CppCompileError:\s*C\+\+\s+compile\s+error\s*$"
    r"|BackendCompilerFailed:)")
# A tool exiting with an error status, as the build reports it ("error: command '...link.exe'
# failed with exit code 1120", "returned non-zero exit status 1")
_TOOL_EXIT = re.compile(r"(?i:\bfailed\s+with\s+exit\s+(?:code|status)\s+[1-9]"
                        r"|\breturned\s+non-zero\s+exit\s+status\b)")
# make or ninja reporting that an object it was compiling failed ("make[2]: ***
# [.../reduce_scatter.o] Error 139", "recipe for target 'x.o' failed", "FAILED: x.o"), read on
# every line: the compiler ran, whatever the shell said above it ("Segmentation fault")
_MAKE_OBJECT_FAILED = re.compile(
    r"\*\*\*\s+\[[^\]]*\.(?:o|obj)\]\s+Error\s+\d+|recipe for target '[^']*\.(?:o|obj)' failed"
    r"|^\s*FAILED:\s+\S+\.(?:o|obj)\s*$")  # (ninja's, as make's)
# pip's summary that a package's build failed ("ERROR: Failed building wheel for natten"): it
# wraps all of the build's output above it, so any other failure line (a CalledProcessError
# naming the command that failed, a traceback's header) is shown before it (uv's "x Failed to
# build `x`" stays over the "Call to `...build_wheel` failed" that it prints under it)
# (pip's last line naming the packages, "Failed to build grouped_gemm", as well)
_PIP_SUMMARY = WHEEL_NOT_BUILT
# CMake's closing line after its errors, and a message saying in words that something failed
_CMAKE_CLOSING = re.compile(r"(?i:\bConfiguring\s+incomplete,\s+errors\s+occurred\b)")
_FAILED_IN_WORDS = re.compile(r"(?i:\bfail(?:ed|ure|s)?\b|\bnot\s+found\b|\bcould\s+not\b"
                              r"|\bcannot\b|\bunable\s+to\b|\berror\b|\bmissing\b)")
# A source line that fails by itself: an assert, a raise
_RAISING_SOURCE = re.compile(r"^\s*(?:assert\s|raise\s+[\w.]+)")
# A traceback's header says least of all: any other failure line is shown before it; so does
# Python's report that a child process failed (CalledProcessError for ninja), when the child's
# own summary ("ninja: build stopped") is in the log too.
_SAYS_LEAST = re.compile(r"Traceback \(most recent call last\)|\bCalledProcessError\b"
                         # pip's "error: subprocess-exited-with-error": its "× <step> did not
                         # run successfully." below says which step (late set n)
                         r"|^\s*error:\s+subprocess-exited-with-error")
# ... and the header least of the two: a chained exception's "CalledProcessError: Command
# '['ninja', '-v']' returned non-zero exit status 1." says what failed, the next traceback's
# header nothing (late set n)
_TRACEBACK_HEADER = "Traceback (most recent call last)"


# --------------------------------------------------------------------------------------------
# The streaming matcher
# --------------------------------------------------------------------------------------------


# What a post or a log runner puts in front of a line it quotes: a quote's "> ", a code span's
# backtick, bold's "**", torchrun's "[rank0]:", a CI runner's or docker's time stamp
# ("2025-06-20T05:54:20.1250272Z ", "#12 6135.8 "). Rules anchored at the line's start (a
# wrapper's "^\s*error: command ... failed") are read on the line without it as well.
_DECORATION = re.compile(
    r"^\s*(?:(?:>\s*|`+|\*\*|\[rank\d+\]:\s*|E(?=\s{3})\s*)+"
    r"|(?:\d{4}-\d\d-\d\dT[\d:.]+Z|\#\d+(?:\s+\d+\.\d+)?|\d+\.\d+)\s+(?=\S))")


def _undecorated(text: str) -> str:
    """``text`` without what quotes it (the same object when nothing does)."""
    found = _DECORATION.match(text)
    return text if found is None or not found.group() else text[found.end():]


# The same decorations, taken off a line before it is read, with the one space after them, so
# that the line's own indentation stays (a traceback's frames and the source they quote are
# told apart by it); a Python prompt (">>> import torch") is no quote. pytest's "E" in front of
# each line of a failed test's exception is one too ("E                   RuntimeError: ...").
_LINE_DECORATION = re.compile(
    r"^[ \t]*(?:>(?!>)|`+|\*\*|\[rank\d+\]:|E(?=[ \t]{3})"
    r"|\d{4}-\d\d-\d\dT[\d:.]+Z|\#\d+\s+\d+\.\d+(?=\s))[ \t]?")


# A terminal's colour codes ("\x1b[01;31m\x1b[Kerror: \x1b[m\x1b[K", as gcc, ninja and pip print
# them to a terminal), and what a copy leaves of them without the escape ("[01;31m[Kerror:[m[K")
_COLOR = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\[(?:\d{1,3}(?:;\d{1,3})*)?m\[K")


def _line_undecorated(text: str) -> str:
    """``text`` without up to three decorations at its start (the same object when none)."""
    for _ in range(3):
        found = _LINE_DECORATION.match(text)
        if found is None or not found.group():
            break
        text = text[found.end():]
    return text


def _clip(line: str) -> str:
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + " …"


class LogDiagnoser:
    """Feed a build log line by line; get each known problem once, and the first real error.

    Memory stays bounded whatever the log's length: a ring of the last ``context_lines`` lines,
    at most ``after_lines`` lines after the first error, and one hit per signature.
    Not thread-safe: feed it from the one thread that reads the build's output.
    """

    def __init__(
        self,
        rules: DiagnosisRules | None = None,
        *,
        context_lines: int = DEFAULT_CONTEXT_LINES,
        after_lines: int = DEFAULT_AFTER_LINES,
        context: KernelContext | None = None,
    ) -> None:
        """``context``: the package being built (its own switches for advice); without it, the
        package the log names, else generic words."""
        if context_lines < 0 or after_lines < 0:
            raise ValueError("context_lines and after_lines must be >= 0")
        self.rules = rules if rules is not None else default_rules()
        self._literals = self.rules.literals
        # each needle with the characters it needs: a line that lacks one of them cannot hold
        # it, and a set test costs far less than a substring search of a long line (10,000
        # lines of one repeated character took 9.8 s: every needle searched every line)
        self._needles = [(literal, frozenset(literal)) for literal in self._literals]
        self._unfiltered = self.rules.unfiltered
        self._ring: deque[str] = deque(maxlen=context_lines)
        self._after_limit = after_lines
        self._line_number = 0
        self._hits: list[Diagnosis] = []
        self._seen: set[str] = set()
        # First error: found once, then filled with the lines after it.
        self._first: tuple[str, int, tuple[str, ...]] | None = None
        self._first_is_exception = False  # a Python exception line, not a tool's error
        self._bare_first = False  # the first error is "XError:" alone: its message follows
        self._cmake_first = False  # the first error is CMake's header: its message may follow
        # the first error is a header whose detail may follow: (the detail, non-blank lines left)
        self._detail: tuple[re.Pattern[str], int] | None = None
        self._first_ids: list[str] = []
        self._after: list[str] = []
        # The first warning that names an error-severity cause (line, number, before, ids).
        self._warning_cause: tuple[str, int, tuple[str, ...], tuple[str, ...]] | None = None
        self._facts: dict[str, LogFacts] = {}  # per advised signature: facts around its hit
        self._previous = ""
        self._context = context
        self._log_package: str | None = None  # the package the log says it builds
        self._mac = False  # a line shows macOS
        self._bits32 = False  # a line shows a 32-bit conda (its linux-32 or win-32 channels)
        self._windows = False  # a line shows a Windows drive letter
        # the first line saying NVIDIA CUDA is missing: (line, number, PyTorch without CUDA)
        self._cuda_missing: tuple[str, int, bool] | None = None
        # the best failure-looking line so far (a wrapper only until something better comes)
        self._failure: tuple[str, int, tuple[str, ...]] | None = None
        self._failure_rank = 5  # 0 a failure, 1 a wrapper of one, 2 a child process failing,
        # 3 pip's summary of the whole build, 4 a traceback's header
        # the first line that says something went wrong in words alone (_PROBLEM_LINE)
        self._problem: tuple[str, int, tuple[str, ...]] | None = None
        self._problem_quotes = False  # the problem line quotes a tool's error message
        # the first Python warning ("x.py:129: UserWarning: CUDA initialization: ..."): the
        # last resort of a failed log that shows nothing else going wrong
        self._py_warning: tuple[str, int, tuple[str, ...]] | None = None
        # the source line a traceback's last frame quotes, where it fails ("assert SM89_ENABLED,
        # ...", "raise RuntimeError(...)"): the failure where the log was cut before its exception
        self._raised: tuple[str, int, tuple[str, ...]] | None = None
        # the first error line that is a person's sentence about the error (_PROSE)
        self._prose: FirstError | None = None
        # What the log showed before its first error: the compiler running (its command lines,
        # ninja's [n/N]), a build at all (pip building a wheel, setup.py, CMake)
        self._compiled = False
        self._built = False
        self._jit = False  # code compiled when first used (a JIT-loaded extension, Triton)
        self._ran = False  # a program being run (its command line, its script's traceback)
        # The Python traceback being read: it has frames; one of them is an import statement
        self._tb_frames = False
        self._tb_import = False
        self._tb_in_torch = False  # its last frame so far is PyTorch's own torch/__init__.py
        self._first_in_torch = False  # the first error is raised there (importing torch)
        self._first_traceback = ""  # the first error's traceback: "import", "call" or ""
        self._first_probe = False  # the first error came right after a lone source file name
        # signatures whose advice a line of the log contradicts (failures.toml's contradicted_by),
        # each with the text every match of the contradicting pattern contains
        self._contradictions = [
            (sig.id, required_literal(pattern) or "", pattern)
            for sig in self.rules.signatures for pattern in sig.contradicted_by]
        # each contradicted signature with the number of the first line that contradicts it
        self._contradicted: dict[str, int] = {}
        # signatures of a known-ambiguous symptom (failures.toml's confirmed_by / confirmed_for):
        # their hits are withheld until a line of the log, its package or the wizard's own build
        # confirms them (then they are released, in the order of their lines)
        self._confirmations = [
            (sig.id, required_literal(pattern) or "", pattern)
            for sig in self.rules.signatures for pattern in sig.confirmed_by]
        self._confirmed: set[str] = {
            sig.id for sig in self.rules.signatures
            if not sig.needs_confirmation or (context is not None and (
                "own-build" in sig.confirmed_for or package_id(context.package)
                in sig.confirmed_for))}
        self._withheld: list[Diagnosis] = []
        # patterns the calibration demoted (resources/diagnosis/calibration.toml): their hits
        # wait for a line of their signature's evidence (then they are released like a
        # confirmed hit); without one the report names the family alone
        self._demoted = self.rules.demoted
        self._evidence = [
            (sig.id, required_literal(pattern) or "", pattern)
            for sig in self.rules.signatures for pattern in sig.evidence]
        self._evidenced: set[str] = set()
        self._unproven: list[Diagnosis] = []

    # -- feeding --------------------------------------------------------------------------

    def feed(self, line: str) -> list[Diagnosis]:
        """Take one line of output (its line ending is ignored); return hits seen for the first
        time on it (usually none)."""
        text = line.rstrip("\r\n")
        if "\r" in text:  # a terminal line redrawn: what it finally shows (progress, then error)
            text = next((part for part in reversed(text.split("\r")) if part.strip()), "")
        if "\x1b" in text or "m[K" in text:
            text = _COLOR.sub("", text)  # a terminal's colours, or what a copy left of them
        kept = text if len(text) <= MAX_LINE_CHARS else _clip(text)
        # read without what quotes or stamps it (a post's "> ", torchrun's "[rank0]: ", a CI
        # runner's time stamp), its own indentation kept; shown as it was (``kept``)
        text = _line_undecorated(text)
        plain = text if len(text) <= MAX_LINE_CHARS else _clip(text)
        self._line_number += 1
        first_found = self._first is not None
        collecting_after = first_found and len(self._after) < self._after_limit

        head = text[:40].lstrip()
        if not self._bits32 and "-32" in text and _BITS32.search(text) is not None:
            self._bits32 = True
        if not self._mac and any(word in text for word in _MAC_WORDS) \
                and _MAC_HINT.search(text) is not None:
            self._mac = True
        if not self._windows and (":\\" in text or ":/" in text) \
                and DRIVE.search(text) is not None:
            self._windows = True
        if self._cuda_missing is None and any(word in text for word in _CUDA_MISSING_WORDS):
            missing = _MAC_CUDA_MISSING.search(text)
            if missing is not None:
                self._cuda_missing = (kept, self._line_number, missing.group("torch") is not None)
        if not first_found and not self._compiled and head:
            self._note_stage(head, text)
        if not self._compiled and ("***" in text or "recipe" in text or "FAILED:" in head) \
                and _MAKE_OBJECT_FAILED.search(text) is not None:
            self._compiled = self._built = True  # (read on every line, as the next)
        if not self._built and "[end of output]" in text:
            # pip's account of a build step's output that ended in an error (after the error,
            # so read on every line): the log is of a package build
            self._built = True
        if not self._jit:
            start = text[:JIT_HEAD]
            if any(mark in text for mark in JIT_MARKS) \
                    or any(mark in start for mark in JIT_HEAD_MARKS) \
                    or (("FAILED" in head or "cpp_extension" in start or "-MF " in start
                         or ".o :" in start or "ptxas" in start or "main.c" in start)
                        and JIT_LINE.search(start) is not None):
                self._jit = True
        if not self._ran and ("python" in head or "File" in head or "pycuda" in text[:60]) \
                and RUN_MARK.search(text[:400]) is not None:
            self._ran = True
        if not first_found and head:
            self._note_traceback(head, text)
        released: list[Diagnosis] = []
        if self._evidence:
            # (on every line: a compiler's command line is evidence too, FlashAttention's
            # sources being compiled)
            lowered = text.lower()
            for sig_id, literal, pattern in self._evidence:
                if sig_id not in self._evidenced and literal in lowered \
                        and pattern.search(text) is not None:
                    released += self._prove(sig_id)
            self._evidence = [e for e in self._evidence if e[0] not in self._evidenced]
        if not head or head.startswith(_NOISE) \
                or (len(text) > _LONG_LINE and _not_a_message(text)):
            if collecting_after:
                self._after.append(kept)
            self._ring.append(kept)
            self._previous = plain
            return released  # (hits its evidence released, if any)

        # Almost every line stops here: none of the needles, so no signature can match.
        low = text.lower()
        candidates: Sequence[FailureSignature] = self._unfiltered
        present = frozenset(low)
        for sig_id, literal, pattern in self._contradictions:
            if sig_id not in self._contradicted and literal in low \
                    and pattern.search(text) is not None:
                self._contradicted[sig_id] = self._line_number
        for sig_id, literal, pattern in self._confirmations:
            if sig_id not in self._confirmed and literal in low \
                    and pattern.search(text) is not None:
                released += self._confirm(sig_id)
        for literal, needs in self._needles:
            if needs <= present and literal in low:
                candidates = self.rules.signatures
                break
        if self._context is None and self._log_package is None \
                and ("uild" in text or "wheel URL" in text):
            self._log_package = package_in_line(text)
            if self._log_package is not None:
                for sig in self.rules.signatures:
                    if sig.id not in self._confirmed and self._log_package in sig.confirmed_for:
                        released += self._confirm(sig.id)
        if not first_found and any(needs <= present and w in low
                                   for w, needs in _FAILURE_NEEDLES) \
                and _FAILURE_LINE.search(text) is not None and not self._quotes_source(text):
            # (not a traceback's quote of the source that raises it, "error_prefix=f'Error
            # building extension ...'", late set n)
            rank = (4 if _TRACEBACK_HEADER in text
                    else 3 if _PIP_SUMMARY.search(text) is not None
                    else 2 if _SAYS_LEAST.search(text) is not None
                    else 1 if _WRAPPER_LIKE.search(text) is not None else 0)
            wrapped = self._wrapped_message() if _CMAKE_CLOSING.search(text) else None
            if wrapped is not None and self._failure_rank > 0:
                self._failure = wrapped  # (the message CMake's closing line sums up)
                self._failure_rank = 0
                self._built = True  # (CMake configured a build)
            elif rank < self._failure_rank or (rank == self._failure_rank
                                               and rank not in (1, 3, 4)):
                self._failure = (kept, self._line_number, tuple(self._ring))
                self._failure_rank = rank
        if (self._problem is None or not self._problem_quotes) and not first_found \
                and self._failure is None \
                and len(text) <= _LONG_LINE and any(w in low for w in _PROBLEM_WORDS) \
                and _PROBLEM_LINE.search(text) is not None and not self._is_ignored(text) \
                and not self._quotes_source(text):
            quotes = _QUOTED_ERROR.search(text) is not None
            if self._problem is None or quotes:
                self._problem = (kept, self._line_number, tuple(self._ring))
                self._problem_quotes = quotes
        if not first_found and ("assert" in head or "raise" in head) \
                and _RAISING_SOURCE.match(text) is not None and self._quotes_source(text):
            self._raised = (kept, self._line_number, tuple(self._ring))  # (the innermost)
        if self._py_warning is None and not first_found and "Warning: " in text \
                and _PY_WARNING.search(text) is not None and not self._is_ignored(text):
            self._py_warning = (kept, self._line_number, tuple(self._ring))
        maybe_error = False
        if not first_found:
            for word, needs in _ERROR_NEEDLES:
                if needs <= present and word in low:
                    maybe_error = _ERROR_LINE.search(text) is not None \
                        and (len(text) > 40 or _BARE_LABEL.match(text) is None)
                    break
        matched = [sig for sig in candidates if sig.matches(text)] if candidates else []
        facts: LogFacts | None = None
        if any(sig.requires or sig.id in ADVISERS for sig in matched):
            # (before a specific signature is preferred: one whose facts are missing is no match)
            facts = read_facts((*self._ring, text))
            matched = [sig for sig in matched if all(facts.satisfies(r) for r in sig.requires)]
        if len(matched) > 1 and any(not s.generic and s.severity is Severity.ERROR
                                    for s in matched):
            matched = [sig for sig in matched if not sig.generic]  # the specific cause alone
        elif len(matched) > 1 and all(s.generic for s in matched):
            # several families read the same line (a program path that is malformed, and so
            # not found): the first listed, the more precise, names it
            matched = matched[:1]

        new_hits: list[Diagnosis] = released
        if (matched or maybe_error) and (self._quotes_source(text)
                                         or _PY_SOURCE.match(text) is not None):
            pass  # source code quoted by a Python traceback, not a message
        elif (matched or maybe_error) and self._is_ignored(text):
            pass  # a known-harmless line: no diagnosis, never the first error
        elif matched or maybe_error:
            for sig in matched:
                index = sig.pattern_index(text)
                unproven = (sig.id, index) in self._demoted and sig.id not in self._evidenced
                if unproven and (sig.id in self._seen
                                 or any(h.signature_id == sig.id for h in self._unproven)):
                    continue
                if sig.id not in self._seen:
                    if not unproven:
                        self._seen.add(sig.id)
                    shown = sig.facts_of(text)
                    title, cause, fix = self._texts(sig, shown, text)
                    if facts is not None and sig.id in ADVISERS:
                        self._facts[sig.id] = facts
                        fix = ADVISERS[sig.id](facts) or fix
                    hit = Diagnosis(
                        signature_id=sig.id,
                        title=title,
                        cause=cause,
                        fix=fix,
                        severity=sig.severity,
                        retry=sig.retry,
                        line=kept,
                        line_number=self._line_number,
                        facts=tuple(sorted(shown.items())),
                        cause_id=sig.cause_id,
                        pattern=index,
                    )
                    if unproven:
                        self._unproven.append(hit)  # its pattern has named wrong causes
                        continue
                    if sig.id not in self._confirmed:
                        self._withheld.append(hit)  # a symptom of several causes: not yet
                        continue
                    self._hits.append(hit)
                    new_hits.append(hit)
            if collecting_after:
                self._first_ids.extend(s.id for s in matched if s.id not in self._first_ids)
            elif not first_found:
                names_cause = any(s.severity is Severity.ERROR for s in matched)
                is_warning = _WARNING_LINE.search(text) is not None
                is_error = maybe_error or (names_cause and not is_warning
                                           and _LINKER_CONTEXT.match(text) is None
                                           and _COLON_ECHO.match(text) is None)
                if is_warning and names_cause and self._warning_cause is None:
                    self._warning_cause = (
                        kept,
                        self._line_number,
                        tuple(self._ring),
                        tuple(s.id for s in matched if s.severity is Severity.ERROR),
                    )
                elif is_error and _PROSE.search(text) is not None \
                        and _PY_EXCEPTION.match(text) is None and not self._is_wrapper(text):
                    if self._prose is None:  # a person's sentence: only if nothing else
                        self._prose = FirstError(kept, self._line_number, tuple(self._ring),
                                                 signature_ids=tuple(s.id for s in matched))
                elif is_error and not self._is_wrapper(text) \
                        and _PIP_ERROR_CODE.match(text) is None \
                        and _SUMMARY_LINE.search(text) is None:
                    self._first = (kept, self._line_number, tuple(self._ring))
                    self._first_traceback = (
                        "" if not self._tb_frames or _PY_EXCEPTION.match(text) is None
                        else "import" if self._tb_import else "call")
                    self._first_in_torch = self._tb_frames and self._tb_in_torch \
                        and _PY_EXCEPTION.match(text) is not None
                    above = next((b for b in reversed(self._ring) if b.strip()), "")
                    self._first_probe = _LONE_SOURCE.match(_line_undecorated(above)) is not None
                    self._bare_first = _BARE_EXCEPTION.match(text) is not None
                    self._cmake_first = _CMAKE_HEADER.search(text) is not None
                    self._detail = next(((detail, lines) for header, detail, lines
                                         in _DETAIL_BELOW if header.search(text) is not None),
                                        None)
                    self._first_is_exception = _PY_EXCEPTION.match(text) is not None
                    self._first_ids = [s.id for s in matched]

        if collecting_after or (first_found and self._detail is not None):
            names_cause = any(s.severity is Severity.ERROR for s in matched)
            if text.strip() and ((self._bare_first and _ECHO_LABEL.match(text) is None)
                                 or (self._cmake_first and names_cause)):
                # "RuntimeError:" alone, or CMake's header: its message (this line) is the
                # first error
                line, _number, before = self._first  # type: ignore[misc]
                self._first = (kept, self._line_number, (*before, line)[-self._ring.maxlen:]
                               if self._ring.maxlen else ())
                self._bare_first = self._cmake_first = False
                self._first_ids.extend(s.id for s in matched if s.id not in self._first_ids)
            elif self._detail is not None and text.strip() \
                    and self._detail[0].search(text) is not None:
                # the header's detail (this line) says why: it is the first error
                line, _number, before = self._first  # type: ignore[misc]
                self._first = (kept, self._line_number,
                               tuple(self._ring)[-self._ring.maxlen:]
                               if self._ring.maxlen else ())
                self._after = []
                self._detail = None
                self._first_ids.extend(s.id for s in matched if s.id not in self._first_ids)
            else:
                if text.strip():
                    self._cmake_first = False
                    if self._detail is not None:
                        pattern, left = self._detail
                        self._detail = (pattern, left - 1) if left > 1 else None
                if collecting_after:
                    self._after.append(kept)
        self._ring.append(kept)
        self._previous = plain
        return new_hits

    def _wrapped_message(self) -> tuple[str, int, tuple[str, ...]] | None:
        """The message that CMake's "Configuring incomplete, errors occurred!" (this line) sums
        up, where the log left out its "CMake Error" header: the nearest line above it, within
        three non-blank lines, that says in words that something failed ("Python launch
        failed.", a package not found)."""
        ring = list(self._ring)
        seen = 0
        for back in range(len(ring) - 1, -1, -1):
            line = ring[back]
            plain = _line_undecorated(line).strip()
            if not plain:
                continue
            seen += 1
            if seen > 3:
                return None
            if plain.startswith(("--", "See also", "Call Stack")):
                continue
            if _FAILED_IN_WORDS.search(plain) is not None:
                number = self._line_number - (len(ring) - back)
                return (line, number, tuple(ring[:back]))
        return None

    def _confirm(self, sig_id: str) -> list[Diagnosis]:
        """Mark a signature confirmed; its withheld hit, if any, joins the hits (returned)."""
        self._confirmed.add(sig_id)
        released = [h for h in self._withheld if h.signature_id == sig_id]
        if released:
            self._withheld = [h for h in self._withheld if h.signature_id != sig_id]
            self._hits = sorted((*self._hits, *released), key=lambda h: h.line_number)
        return released

    def _prove(self, sig_id: str) -> list[Diagnosis]:
        """Mark a signature's evidence seen; its unproven hit, if any, is released (as a hit,
        or withheld while it still needs confirming); the hits that joined are returned."""
        self._evidenced.add(sig_id)
        released = [h for h in self._unproven if h.signature_id == sig_id]
        if not released or sig_id in self._seen:
            return []
        self._unproven = [h for h in self._unproven if h.signature_id != sig_id]
        self._seen.add(sig_id)
        if sig_id not in self._confirmed:
            self._withheld += released
            return []
        self._hits = sorted((*self._hits, *released), key=lambda h: h.line_number)
        return released

    def _note_traceback(self, head: str, text: str) -> None:
        """Follow the Python traceback being printed (before the first error): whether it has
        frames, and whether one of them is an import (the failure came while importing)."""
        if head.startswith("Traceback (most recent call last)") or (
                "Traceback (most recent call last)" in text and _IPY_HEADER.match(text)):
            self._tb_frames = self._tb_import = self._tb_in_torch = False
        elif head.startswith("File ") and (_FRAME.match(text) is not None
                                           or _IPY_FRAME.match(text) is not None):
            self._tb_frames = True
            # (torch/__init__.py loading its DLLs through ctypes: ctypes' own frame comes last,
            # late set n)
            self._tb_in_torch = _TORCH_INIT_FRAME.search(text) is not None or (
                self._tb_in_torch and _CTYPES_FRAME.search(text) is not None)
            if "importlib" in text or "<frozen " in text:
                self._tb_import = True
        elif self._tb_frames and "import" in head and _FRAME.match(self._previous) is not None \
                and _IMPORT_STATEMENT.match(text) is not None:
            self._tb_import = True

    def _note_stage(self, head: str, text: str) -> None:
        """Remember whether the log showed a build, and the compiler running (before its
        first error): the family of a failure that no known cause explains depends on it."""
        if _COMPILING.match(head) is not None or (
                len(text) > 60 and _not_a_message(text)):
            self._compiled = self._built = True
        elif not self._built and (_BUILDING.search(head) is not None or (
                head.startswith("File ") and _BUILD_SCRIPT_FRAME.match(text) is not None)):
            self._built = True

    def context(self) -> KernelContext:
        """The package this log belongs to, as far as known."""
        if self._context is not None:
            return self._context
        if self._log_package is not None:
            return context_for_package(self._log_package)
        return GENERIC

    def _texts(self, sig: FailureSignature, shown: dict[str, str],
               text: str = "") -> tuple[str, str, str]:
        """The signature's title, cause and fix, with this log's facts filled in (each a
        translatable sentence that keeps its template)."""
        names = sig.placeholders
        if not names:
            return sig.title, sig.cause, sig.fix
        if "required" in shown or "tool" in shown:
            shown = worded_facts(sig.cause_id, shown, (*self._ring, text))
        every = {**self.context().facts(), **sig.defaults, **shown}
        values: dict[str, object] = {k: v for k, v in every.items() if k in names}
        return (Msg(sig.title, values), Msg(sig.cause, values), Msg(sig.fix, values))

    def _quotes_source(self, text: str) -> bool:
        """Whether ``text`` is a source line that Python quotes: under a traceback's ``File ...``
        frame (indented deeper than it; frames without source go straight on to the next one),
        or under a warning (``x.py:383: UserWarning: ...`` then ``  warnings.warn(...)``)."""
        previous = self._previous
        if _FRAME.match(previous):
            frame_indent = len(previous) - len(previous.lstrip())
            return len(text) - len(text.lstrip()) > frame_indent
        return (
            text[:1].isspace()
            and _PY_WARNING.search(previous) is not None
            and len(text) - len(text.lstrip()) > len(previous) - len(previous.lstrip())
        )

    def _is_ignored(self, text: str) -> bool:
        plain = _undecorated(text)
        return any(rule.matches(text) or (plain is not text and rule.matches(plain))
                   for rule in self.rules.ignore)

    def _is_wrapper(self, text: str) -> bool:
        plain = _undecorated(text)
        return any(rule.matches(text) or (plain is not text and rule.matches(plain))
                   for rule in self.rules.wrappers)

    # -- results --------------------------------------------------------------------------

    @property
    def lines_seen(self) -> int:
        return self._line_number

    @property
    def ring_size(self) -> int:
        """How many recent lines are kept at most (the context before the first error)."""
        return self._ring.maxlen or 0

    @property
    def buffered_lines(self) -> int:
        """How many recent lines are held right now (never more than :attr:`ring_size`)."""
        return len(self._ring)

    @property
    def hits(self) -> tuple[Diagnosis, ...]:
        return tuple(self._hits)

    @property
    def first_error(self) -> FirstError | None:
        """The first real error so far: never a traceback's header or frames, never a wrapper
        line. A warning that names a cause stands in when nothing after it explains the failure
        (no error at all, or a Python exception without a known cause of its own)."""
        real: FirstError | None = None
        if self._first is not None:
            line, number, before = self._first
            real = FirstError(line, number, before, tuple(self._after), tuple(self._first_ids))
        elif self._prose is not None and not (self._failure is not None
                                              and self._failure_rank == 0):
            real = self._prose  # (a line of the log that shows the failure comes first)
        warned = self._warning_cause
        if warned is None or all(i in self._contradicted for i in warned[3]):
            return real  # (a warning whose cause the log contradicts explains nothing)
        if real is None and self._failure is not None and self._failure_rank == 0 \
                and self._failure[1] > warned[1] \
                and _TOOL_EXIT.search(self._failure[0]) is not None:
            # a tool's own failure after the warning (PyTorch's "UserWarning: Error checking
            # compiler version for cl", then "error: command '...link.exe' failed with exit
            # code 1120": the compiler ran, the linker failed): the failure is the first error,
            # and the warning names no cause
            line, number, before = self._failure
            return FirstError(line, number, before, fallback=True)
        explained = real is not None and any(
            self.rules.signature(i).severity is Severity.ERROR for i in real.signature_ids
        )
        if real is None or (self._first_is_exception and not explained):
            line, number, before, ids = warned
            return FirstError(line, number, before, (), ids, from_warning=True)
        return real

    def summary(self, failed: bool = False) -> DiagnosisReport:
        """The report for everything fed so far (it can be asked for again after more lines).
        ``failed``: the process failed, so a log with no recognised error still gets its
        last failure-looking line as the first error (never "no errors found")."""
        first = self.first_error
        hits = tuple(self._advised(h, first) for h in self._hits)
        by_id = {h.signature_id: h for h in hits}
        primary: Diagnosis | None = None
        if first is not None:
            primary = next(
                (
                    by_id[i]
                    for i in first.signature_ids
                    if i in by_id and by_id[i].severity is Severity.ERROR
                ),
                None,
            )
            if primary is None:
                # The first error names no known cause; a known error a few lines below it
                # (the rest of the same message, e.g. "xFormers wasn't build with CUDA support"
                # under "No operator found", or CMake's second error) explains it.
                primary = next(
                    (h for h in hits if h.severity is Severity.ERROR
                     and 0 < h.line_number - first.line_number <= FOLLOWING_LINES),
                    None,
                )
        else:
            primary = next((h for h in hits if h.severity is Severity.ERROR), None)
        if first is None and failed:
            # no error line: the best candidate the log holds, in this order
            fallback = next((found for found in (self._failure, self._problem, self._raised,
                                                 self._py_warning) if found is not None), None)
            if fallback is not None:
                line, number, before = fallback
                first = FirstError(line, number, before, fallback=True)

        if primary is not None and primary.signature_id in self._contradicted:
            # the log says the symptom has another cause than this signature's: the line that
            # says so names the cause when a signature reads it (PyTorch's own warning that it
            # has no code for this GPU), else the family alone
            where = self._contradicted[primary.signature_id]
            wrong = primary.signature_id
            hits = tuple(h for h in hits if h.signature_id != wrong)
            primary = next((h for h in hits if h.line_number == where
                            and h.severity is Severity.ERROR
                            and h.signature_id not in self._contradicted), None)
        retry: RetryAction | None = None
        if primary is not None:
            retry = primary.retry
        elif first is not None:
            # a demoted pattern's cause is not named, but its retry (half the parallel jobs for
            # a compiler killed by a signal) is harmless and often enough
            # (its hit may sit on the line before: the shell's "Killed", then the compiler's own
            # line, which is shown as the first error and names the same signature)
            retry = next((h.retry for h in self._unproven if h.retry is not None and (
                h.line_number == first.line_number or h.signature_id in first.signature_ids)),
                None)
        elif first is None and not any(h.severity is Severity.ERROR for h in hits):
            # Nothing failed that we can see: a warning's retry (e.g. skip flash-attn's wheel
            # download) is the only thing worth trying, if the build failed at all.
            retry = next((h.retry for h in hits if h.retry is not None), None)
        if primary is not None and self._first_in_torch and first is not None \
                and primary.line_number == first.line_number \
                and primary.cause_group in _KERNEL_DLL_CAUSES \
                and primary.signature_id != _TORCH_DLL and _WINDOWS_DLL.search(primary.line):
            # the DLL that failed to load is PyTorch's own (the traceback's last frame is
            # torch/__init__.py): advice about the kernel's build or wheel does not fit
            primary = self._torch_dll(primary)
            hits = tuple(h for h in hits if h.line_number != primary.line_number
                         or h.severity is not Severity.ERROR) + (primary,)
            hits = tuple(sorted(hits, key=lambda h: h.line_number))
        if primary is None and self._first_in_torch and first is not None \
                and self._first is not None and first.line_number == self._first[1] \
                and _TORCH_DLL_FAILED.search(first.line) is not None \
                and not ((_TORCH_DLL, -1) in self._demoted and _TORCH_DLL not in self._evidenced) \
                and not any(h.line_number == first.line_number for h in self._unproven):
            # a DLL failing to load in PyTorch's own torch/__init__.py ("from torch._C import
            # *"), though no known cause reads its wording: PyTorch's own DLL, whatever it says
            primary = self._torch_dll(Diagnosis(
                signature_id=_TORCH_DLL, title="", cause="", fix="", severity=Severity.ERROR,
                retry=None, line=first.line, line_number=first.line_number, facts=(),
                cause_id=_TORCH_DLL, pattern=-1))
            hits = tuple(sorted((*hits, primary), key=lambda h: h.line_number))
        if primary is not None and primary.signature_id in _REINSTALLABLE \
                and not (self._built or self._compiled or self._jit):
            # nothing was built: the module that fails to load came ready-made (a wheel)
            advised = replace(primary, fix=msg(
                "The log shows no build, so {package} was installed ready-made (a wheel): "
                "reinstall the wheel made for the PyTorch, CUDA and Python installed now (pip "
                "install --force-reinstall with the matching version, or the index URL its "
                "documentation gives). Rebuild it only when no such wheel exists.",
                package=self.context().facts()["package"]))
            hits = tuple(advised if h is primary else h for h in hits)
            primary = advised
        mac_stand_in: str | None = None
        if ((self._mac and not self._windows) or self._bits32) and self._cuda_missing is not None \
                and (primary is None or primary.cause_group in _MAC_CUDA_CAUSES) \
                and (first is None or primary is not None
                     or abs(first.line_number - self._cuda_missing[1]) <= FOLLOWING_LINES):
            # NVIDIA CUDA on a Mac: there is no toolkit to install and no CUDA build of PyTorch
            # (late set l): the package's CUDA part does not run on this platform
            # (its family: where the log stopped, as for the cause it stands in for; conda not
            # finding a CUDA package: its line, resolve)
            mac_stand_in = ("built-without-cuda" if self._cuda_missing[2]
                            else "" if _CONDA_MISSING.search(self._cuda_missing[0])
                            else "cuda-home-not-set")
            primary = self._cuda_on_mac(primary) if not self._bits32 \
                else self._cuda_on_32bit(primary)
            hits = tuple(sorted((*(h for h in hits if h.severity is not Severity.ERROR
                                   or h.line_number != primary.line_number), primary),
                                key=lambda h: h.line_number))
            retry = None
        family: Family | None = None
        if failed or first is not None or primary is not None:
            # a pattern the calibration demoted still says what its line is (a version floor, a
            # GPU check when a kernel runs): where the log stopped is its cause's family
            unproven = next((h.cause_group for h in self._unproven if first is not None
                             and h.line_number == first.line_number), None)
            family = family_of((mac_stand_in or None) if mac_stand_in is not None
                               else primary.cause_group if primary is not None else unproven,
                               _line_undecorated(first.line) if first is not None else None,
                               compiled=self._compiled, built=self._built, jit=self._jit,
                               ran=self._ran,
                               traceback=self._first_traceback if self._first is not None
                               and first is not None and first.line_number == self._first[1]
                               else ("import" if self._tb_import else "call")
                               if self._raised is not None and first is not None
                               and first.line_number == self._raised[1] else "",
                               probe=self._first_probe and self._first is not None
                               and first is not None and first.line_number == self._first[1])
        return DiagnosisReport(
            family=family,
            hits=hits,
            first_error=first,
            primary=primary,
            retry=retry,
            lines_seen=self._line_number,
            failed=failed,
        )

    def _torch_dll(self, hit: Diagnosis) -> Diagnosis:
        """``hit`` (a DLL that did not load) re-read as PyTorch's own DLL failing to load."""
        sig = self.rules.signature(_TORCH_DLL)
        title, cause, fix = self._texts(sig, {})
        return replace(hit, signature_id=sig.id, title=title, cause=cause, fix=fix,
                       severity=sig.severity, retry=sig.retry, facts=(),
                       cause_id=sig.cause_id, pattern=-1)  # (named from the traceback)

    def _cuda_on_32bit(self, hit: Diagnosis | None) -> Diagnosis:
        """The line that says a CUDA package is missing, re-read on a 32-bit conda: the
        platform, not a channel or version to try."""
        return self._cuda_elsewhere(hit, "a 32-bit system", msg(
            "NVIDIA's CUDA packages (and PyTorch's CUDA builds) are made for 64-bit systems "
            "only, and this conda or Python is 32-bit (its channels end in -32). Install the "
            "64-bit Miniconda or Python, make a new environment with it, and install {package} "
            "there.", package=self.context().facts()["package"]))

    def _cuda_on_mac(self, hit: Diagnosis | None) -> Diagnosis:
        """The line that says NVIDIA CUDA is missing (``hit``, if a cause read it), re-read on
        macOS: the platform, not a toolkit to install."""
        return self._cuda_elsewhere(hit, "macOS", msg(
            "NVIDIA CUDA does not exist on a Mac: no CUDA toolkit, CUDA_HOME or CUDA build of "
            "PyTorch can be installed there. Use {package}'s CPU or Apple GPU (MPS) path if it "
            "has one (often a setting or a requirements file for macOS), or build and run it on "
            "a Linux or Windows computer with an NVIDIA GPU.",
            package=self.context().facts()["package"]))

    def _cuda_elsewhere(self, hit: Diagnosis | None, platform: str, fix: Msg) -> Diagnosis:
        """The platform without NVIDIA CUDA as the cause, on the line that said CUDA is missing
        (``hit``'s, where a cause read it)."""
        sig = self.rules.signature("platform-unsupported")
        title, cause, _fix = self._texts(sig, {"platform": platform})
        assert self._cuda_missing is not None
        line, number, _torch = self._cuda_missing
        if hit is not None:
            line, number = hit.line, hit.line_number
        return Diagnosis(
            signature_id=sig.id, title=title, cause=cause, fix=fix, severity=Severity.ERROR,
            retry=None, line=line, line_number=number, facts=(("platform", platform),),
            cause_id=sig.cause_id, pattern=-1)

    def _advised(self, hit: Diagnosis, first: FirstError | None) -> Diagnosis:
        """``hit`` with its advice re-read from everything seen around it (the lines after the
        first error name the compiler too: MSBuild prints nvcc's command line after C1189)."""
        adviser = ADVISERS.get(hit.signature_id)
        if adviser is None:
            return hit
        facts = self._facts.get(hit.signature_id, LogFacts())
        if first is not None and first.line_number == hit.line_number:
            facts = facts.merged(
                read_facts((*first.context_before, first.line, *first.context_after))
            )
        advice = adviser(facts)
        return replace(hit, fix=advice) if advice is not None and advice != hit.fix else hit


def diagnose_lines(lines: Iterable[str], rules: DiagnosisRules | None = None) -> DiagnosisReport:
    """Diagnose a whole log at once (e.g. a saved one)."""
    diagnoser = LogDiagnoser(rules)
    for line in lines:
        diagnoser.feed(line)
    return diagnoser.summary()


def diagnose_file(path: Path, rules: DiagnosisRules | None = None) -> DiagnosisReport:
    """Diagnose a saved log file, streaming it (any encoding; undecodable bytes are replaced)."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        return diagnose_lines(handle, rules)
