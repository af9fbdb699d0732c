"""The first level of a diagnosis: the *family* of a failure, read from where the log stopped.

Every failed log gets one, whether or not a specific cause is known: prerequisites and
environment, resolving or downloading, configuring, compiling the package's source, the
compiler itself crashing, linking, packaging, importing, first use. Each family has a title in
words and a next step that is right for the whole family; a specific cause (the second level,
``DiagnosisReport.primary``) is added only when the evidence is unambiguous.

:func:`family_of` decides from the specific cause when there is one (its stage is known), else
from the shape of the first error line and what the log showed before it (compiler command
lines, pip's wheel-building lines, an import of the built module).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kernel_wizard.base.messages import N_


@dataclass(frozen=True)
class Family:
    """Where a failed log stopped: ``id`` (one of :data:`FAMILY_IDS`), a title in words (it
    completes "Stopped while ..."), and the next step right for the family."""

    id: str
    title: str
    next_step: str
    usually: str  # what stopping there usually means (said when the cause is not known)


_FAMILIES = (
    Family("environment",
           N_("checking the prerequisites (compiler, CUDA toolkit, PyTorch, Python)"),
           N_("Check the prerequisites the build needs before anything compiles: the C++ "
              "compiler, the CUDA toolkit and its version, PyTorch, Python and the settings "
              "(CUDA_HOME, PATH) that point at them. The wizard's Prerequisites page checks "
              "each one."),
           N_("a prerequisite is missing, is the wrong version, or a setting points at the "
              "wrong place")),
    Family("resolve",
           N_("resolving or downloading packages"),
           N_("Check the package name and version pin, the index URL for builds such as "
              "+cu121 (pip's --index-url or --extra-index-url), and the network connection "
              "(proxy, firewall, git access)."),
           N_("pip or git could not find or fetch something: a version that does not exist "
              "for this Python or platform, a pin without its index URL, or the network")),
    Family("configure",
           N_("preparing the build (setup.py, CMake, package metadata)"),
           N_("Read the first error line: the package's build script stopped before compiling. "
              "Usually a tool or package the script looks for is missing or not the version "
              "it expects."),
           N_("the build script stopped before compiling, most often because it did not find "
              "a tool, library or package it looks for")),
    Family("compile",
           N_("compiling the package's source"),
           N_("Read the first error line: the compiler rejected the package's source. Check "
              "that the package's version fits your PyTorch, CUDA and compiler versions (its "
              "README or issue tracker), or try another version of the package."),
           N_("the compiler rejected the package's source, often because the source was "
              "written for other versions of PyTorch, CUDA or the compiler")),
    Family("compiler-crash",
           N_("compiling, when the compiler itself crashed or was stopped"),
           N_("Build again with fewer parallel jobs (MAX_JOBS=1 or 2) and close other "
              "programs; if it stops again at the same file, use another version of the "
              "compiler that the CUDA toolkit accepts."),
           N_("the compiler was stopped by the system (most often short of memory) or "
              "crashed on its own")),
    Family("link",
           N_("linking the compiled files"),
           N_("Read the first error line for the library or symbol the linker could not find; "
              "make sure that library is installed and is the version the build expects, then "
              "build again from a clean build folder."),
           N_("a library is missing, or the compiled parts do not fit a library they use")),
    Family("package",
           N_("building or installing the wheel"),
           N_("Check that the build and install folders (the output folder, site-packages) may "
              "be written by you, and that no program holds the old files open; install into "
              "a virtual environment you own rather than a system Python."),
           N_("the files could not be written or copied where the wheel or the installation "
              "goes")),
    Family("import",
           N_("importing the installed package"),
           N_("Make sure the installed wheel fits this Python, PyTorch and CUDA (reinstall the "
              "wheel made for them, or rebuild it against the PyTorch installed now), and "
              "import torch before the package."),
           N_("the installed files do not fit the PyTorch, CUDA or Python loading them, or a "
              "library they need is not found")),
    Family("first-use",
           N_("running the kernel for the first time"),
           N_("Read the first error line: the code failed the first time it ran. \"No kernel "
              "image\" or \"not supported\" means PyTorch or the kernel has no code for your "
              "GPU's architecture (its compute capability): when PyTorch warns that the GPU "
              "\"is not compatible with the current PyTorch installation\", install a PyTorch "
              "build that supports it, else the kernel was not built for it or does not "
              "support that GPU; \"driver version is "
              "insufficient\" means the NVIDIA driver is older than the CUDA it was built with; "
              "\"Torch not compiled with CUDA\" means a PyTorch without CUDA; a compiler or build "
              "error means the code compiles itself on first use and needs the C++ compiler and "
              "CUDA toolkit it names."),
           N_("the kernel was built without code for this GPU or does not support it, the NVIDIA "
              "driver is too old for its CUDA, or the code that compiles itself on first use "
              "found no compiler")),
)
FAMILIES: dict[str, Family] = {f.id: f for f in _FAMILIES}
FAMILY_IDS: tuple[str, ...] = tuple(FAMILIES)

# The family of a specific cause whose stage it fixes (the cause group: failures.toml's id or
# its group).
CAUSE_FAMILY: dict[str, str] = {
    # prerequisites and environment
    "cuda-home-not-set": "environment", "msvc-not-found": "environment",
    "msvc-too-new-for-cuda": "environment", "msvc-stl-needs-newer-cuda": "environment",
    "gcc-too-new-for-cuda": "environment", "host-compiler-unsupported": "environment",
    "msvc-env-incomplete": "environment",
    "torch-missing-in-build": "environment", "python-dev-files-missing": "environment",
    "build-deps-missing": "environment", "windows-long-paths": "environment",
    "disk-full": "environment", "cccl-headers-missing": "environment",
    "crlf-shell-script": "environment", "cuda-too-old-for-gpu-arch": "environment",
    # resolving or downloading
    "wheel-download-failed": "resolve", "flash-attn-wheel-404": "resolve",
    # compiling the package's source
    "torch-api-changed": "compile", "msvc-gnu-extensions": "compile",
    "msvc-cplusplus-macro": "compile", "cutlass-submodule-missing": "compile",
    "arch-too-old-for-source": "compile",
    "cuda13-windows-nvcc-command-line": "compile", "windows-command-line-too-long": "compile",
    "ninja-createprocess-failed": "compile",
    # the compiler itself
    "out-of-memory": "compiler-crash", "compiler-crashed": "compiler-crash",
    # linking
    "libcuda-not-found": "link", "link-unresolved-symbols": "link",
    "cuda-device-link-missing": "link", "nvshmem-link-failed": "link",
    # importing
    "nccl-too-old-for-deepep": "import",
    # first use
    "gpu-arch-unsupported": "first-use", "flashmla-head-dim-unsupported": "first-use",
}
# Causes met at several stages (a version requirement, a library that does not fit: at link
# time or at import): the first error line's shape decides, else this default.
CAUSE_DEFAULT: dict[str, str] = {
    "tool-version-required": "environment", "build-tool-missing": "environment",
    "bad-env-path": "environment", "library-mismatch": "import",
    "extension-abi-mismatch": "import", "platform-unsupported": "import",
    "permission-denied": "package", "cuda-torch-mismatch": "environment",
    # (met when a kernel is first called, or at import where its CUDA module was never built:
    # "No module named 'fused_layer_norm_cuda'", late set p)
    "built-without-cuda": "first-use",
}
# Shapes of the first error line that tell the stage of such a cause: the others (a compiler's
# #error that a version requirement raises, a build tool that could not run) keep its default.
# Causes a package's own check raises at import as well (a version it needs, a library)
_CHECKED_AT_IMPORT = frozenset({"tool-version-required", "library-mismatch",
                                "extension-abi-mismatch", "platform-unsupported"})
_TELLING = frozenset({"resolve", "compiler-crash", "link", "package", "import", "first-use"})

# -- the shape of the first error line -------------------------------------------------------
_RESOLVE = re.compile(
    r"(?i:No matching distribution found|Could not find a version that satisfies"
    r"|ResolutionImpossible|Could not fetch URL|Failed to establish a new connection"
    r"|Max retries exceeded|Name or service not known|Temporary failure in name resolution"
    r"|getaddrinfo failed|Connection (?:timed out|refused|reset)|SSLError|urlopen error"
    r"|HTTP Error \d{3}|HTTPError|ReadTimeoutError|ProxyError"
    r"|fatal: unable to access|Could not resolve host|RPC failed|early EOF"
    r"|fatal: could not read Username|Repository not found|did not match any file\(s\) known"
    r"|error: subprocess-exited-with-error.*git clone|Failed to clone"
    r"|fatal: unable to connect to|errno=Connection|git clone .*did not run successfully"
    # git over ssh without access (a submodule's git@github.com URL and no ssh key)
    r"|Could not read from remote repository|Permission denied \(publickey\)"
    r"|Host key verification failed|kex_exchange_identification"
    r"|is not a supported wheel on this platform|none of the candidates"
    r"|requires a different Python"  # pip: no version of the package for this Python
    # pip's resolver: "Cannot install a and b because these package versions have conflicting
    # dependencies" (late set b: vllm and xformers pinning another torch than requirements.txt)
    r"|because these package versions have conflicting dependencies"
    # uv: "error: Failed to determine installation plan", "Caused by: A URL dependency is
    # incompatible with the current platform", "No solution found when resolving dependencies"
    r"|Failed to determine installation plan|incompatible with the current platform"
    r"|No solution found when resolving"
    # uv fetching: "x Failed to download `torch==2.6.0+cu124`", "HTTP status client error (404 Not
    # Found) for url (...)", "error: Failed to fetch: `https://...`", "Caused by: Request failed
    # after 3 retries", "dns error: failed to lookup address information"
    r"|Failed to download `|HTTP status (?:client|server) error|Failed to fetch:"
    r"|Request failed after \d+ retries|error sending request for url|dns error"
    # conda and mamba: no channel has the package for this platform (late set l)
    r"|ResolvePackageNotFound|PackagesNotFoundError|Could not solve for environment specs"
    # ... or no version of it can be installed with the others ("LibMambaUnsatisfiableError:
    # Encountered problems while solving", conda's "UnsatisfiableError: The following
    # specifications were found to be incompatible", late set m)
    r"|\b(?:LibMamba)?UnsatisfiableError\b"
    r"|does not exist \(perhaps a (?:typo or a )?missing channel\))"
)
_CRASH = re.compile(
    r"(?i:^\s*Killed\s*$|\bKilled signal\b|internal compiler error|died due to signal"
    r"|terminated (?:with|by) signal|killed by signal|Segmentation fault|core dumped"
    r"|out of (?:heap|memory)|virtual memory exhausted|Cannot allocate memory(?! in static TLS)"
    r"|std::bad_alloc"
    r"|signal terminated program|\bC1001\b|\bC1060\b|\bC1076\b|\bC1002\b|\bLNK1102\b"
    r"|signal (?:9|11|6)\b"
    # clang's words for the same ("clang: error: clang frontend command failed due to signal",
    # "clang: error: unable to execute command: Segmentation fault: 11"), as nvcc's "died due
    # to signal"
    r"|failed due to signal|unable to execute command: (?:Killed|Segmentation fault)"
    # the CUDA front end's own assertion (EDG): "x.cu(10): internal error: assertion failed: ..."
    r"|\(\d+\): internal error: )"
)
# The shell's report that the program it ran crashed ("python test.py", then "Segmentation
# fault"): a compiler crashing names itself ("internal compiler error: Segmentation fault")
_SHELL_SEGFAULT = re.compile(r"^\s*`*\s*Segmentation fault(?: \(core dumped\))?\s*`*\s*$")
_LINK = re.compile(
    r"(?i:undefined reference to|multiple definition of|\bLNK\d{4}\b|collect2|"
    r"^\s*(?:\S*/)?(?:ld(?:\.\w+)?|lld|ld\.lld)(?:\.exe)?:\s|cannot find -l|nvlink error"
    r"|unresolved external symbol|ld returned"
    # the linker exiting with an error status ("...\\bin\\HostX86\\x64\\link.exe' failed with
    # exit code 1120")
    r"|\b(?:link|ld|lld|ld\.lld)(?:\.exe)?['\"]?\s+failed with exit (?:code|status)\s*[1-9]"
    # the compiler driver not finding an object or library it was to link ("gcc: error:
    # /usr/local/cuda-8.0/lib64/libcudart.so: No such file or directory")
    r"|(?:gcc|g\+\+|c\+\+|clang)(?:\.exe)?: error: \S+\.(?:o|obj|so(?:\.\d+)*|a|lib)"
    r": No such file)"
)
_IMPORT = re.compile(
    r"(?i:\bImportError\b|ModuleNotFoundError|DLL load failed|undefined symbol"
    r"|cannot open shared object|\bWinError 12[67]\b|Illegal instruction"
    r"|OSError: .*\.(?:so|dll)\b|image not found|Library not loaded"
    r"|was compiled against|compiled with different|is not compiled with CUDA"
    # a package's warning when it is imported without its compiled CUDA part (AutoGPTQ's
    # "WARNING:CUDA extension not installed.", late set t)
    r"|CUDA extension not installed|CUDA kernels for [\w.-]+ (?:are|is) not installed"
    r"|specified module could not be found|specified procedure could not be found"
    r"|^\s*(?:AttributeError:\s*)?function '\w+' not found"  # ctypes: a library without it
    r"|找不到指定的(?:模块|程序))"
)
# A failure that can only happen when the kernel runs
_FIRST_USE_STRONG = re.compile(
    r"(?i:no kernel image is available|invalid device function|No such operator"
    r"|provided PTX was compiled|Cuda failure|No operator found|requires device with capability"
    r"|is not compatible with the current PyTorch installation"
    # cuDNN finding no algorithm for a convolution it is first asked for
    r"|unable to find an engine to execute"
    # the CUDA runtime failing on its first call: a driver older than the runtime ("cuda runtime
    # error (35) : CUDA driver version is insufficient", Torch7's "THCudaCheck FAIL ... error=35")
    r"|driver version is insufficient|cuda runtime error \(\d+\)|THCudaCheck FAIL"
    r"|cudaErrorInsufficientDriver|NVIDIA driver on your system is too old)"
)
_FIRST_USE = re.compile(
    r"(?i:no kernel image is available|CUDA error|invalid device function"
    r"|not compatible with the current PyTorch installation|sm_\d+ is not"
    r"|only supports?\b|is not supported on|unsupported (?:GPU|architecture|gpu)"
    r"|cudaError|CUBLAS_STATUS|CUDNN_STATUS|illegal memory access|device-side assert"
    r"|No operator found|NotImplementedError|requires device with capability)"
)
_PACKAGE = re.compile(
    r"(?i:Could not install packages due to an|RECORD file|\bRECORD\b"
    r"|site-packages.*(?:Permission denied|Access is denied|拒绝访问)"
    r"|(?:Permission denied|Access is denied|拒绝访问).*(?:site-packages|\.egg|\.whl|dist-info"
    r"|build[\\/](?:lib|bdist))|error: could not create|could not copy|copying .*(?:denied|failed)"
    r"|PermissionError|bdist_wheel|error: \[Errno 13\]|WinError 5\b|WinError 32\b"
    r"|wheel .*is not a valid|Invalid wheel filename"
    r"|can't create or remove files in install directory"  # setuptools' easy_install
    # uv installing a wheel's files ("Caused by: failed to hardlink file from ... to ...:
    # Permission denied (os error 13)")
    r"|failed to (?:hardlink|copy|clone|symlink|reflink|write|create|remove|rename) (?:file|dir))"
)
_CONFIGURE = re.compile(
    r"(?i:CMake Error|CMakeLists|egg_info|metadata-generation-failed"
    r"|Getting requirements to build|error in .* setup command|setup\.py"
    r"|pyproject\.toml|Preparing metadata|build dependencies|configure: error"
    r"|Could NOT find|Could not find a package configuration file"
    r"|No CUDA toolset found"  # CMake's Visual Studio generator without CUDA's integration
    r"|Configuring incomplete, errors occurred)"  # CMake's closing line after its errors
)
_ENVIRONMENT = re.compile(
    r"(?i:CUDA_HOME|CUDA_PATH|\bnvcc\b.*(?:not found|not recognized)"
    r"|cl(?:\.exe)?['\"]?\s*(?:not found|is not recognized)|checking compiler version for cl|"
    r"Microsoft Visual C\+\+ (?:14\.0 )?or greater is required|unsupported Microsoft Visual Studio"
    r"|unsupported GNU version|No CUDA runtime is found|Python\.h|python\d+\.lib"
    r"|The detected CUDA version|mismatches the version that was used to compile PyTorch"
    r"|No module named ['\"]?torch['\"]?$|is not recognized as an internal or external command"
    r"|command not found|Failed to find C compiler|No such file or directory: ['\"].*(?:nvcc|cl|gcc"
    r"|g\+\+|ninja|cmake)['\"]|requires (?:at least )?(?:GCC|CUDA|Python|torch|PyTorch|cmake)"
    r"|Unknown compiler|CC environment variable"
    # CMake not finding the CUDA toolkit, or a part of it (a prerequisite, as its missing CUDA
    # compiler: FAMILIES.md; late set n)
    r"|Could NOT find CUDA(?:Toolkit)?\b(?!:\s*Found unsuitable version)"
    # the header of a library installed apart from the package that needs it (NCCL, cuDNN,
    # TensorRT, MPI, Google's sparsehash): a prerequisite missing, not the package's own code
    # (late sets m, n); and the CUDA toolkit refusing what sits on the path before it (another
    # CUB than its Thrust's, another cl.exe than -ccbin names)
    r"|[\s:/\\](?:nccl|cudnn|NvInfer\w*|NvOnnxParser|mpi|cusolverDn|cublasLt)\.h\b[^\n]*"
    r"(?:No such file|cannot open|not found)"
    r"|google/(?:dense|sparse)_hash_(?:map|set)\b[^\n]*No such file"
    r"|version of CUB in your include path is not compatible"
    r"|cl\.exe in PATH \([^)]*\) is different than one specified with -ccbin"
    # a prerequisite tool reported missing wherever it surfaced: a binary that "could not be
    # located" ("The nvcc binary could not be located in your $PATH"), Debian's alternatives
    # naming a compiler that is not installed ("update-alternatives: error: alternative path
    # /usr/bin/gcc-12 doesn't exist"), the modules only a build needs ("No module named
    # 'wheel'", "ModuleNotFoundError for 'packaging'")
    r"|\b(?:nvcc|gcc|g\+\+|cl|clang|ninja|cmake|CUDA|compiler)\b[^\n]*\bcould not be located\b"
    r"|update-alternatives: error:"
    r"|(?:未找到|找不到)\s*(?:cl(?:\.exe)?|nvcc|gcc|g\+\+)\b"  # "not found" in Chinese
    r"|(?:No module named|ModuleNotFoundError for) ['\"]?(?:wheel|packaging|setuptools)\b"
    # the CUDA toolkit's check of its host compiler, in its own header, whatever the message's
    # wording or its cut (".../crt/host_config.h(153): fatal error C1189: #error:  -- unsupp"):
    # a compiler version the toolkit does not support
    r"|host_config\.h(?:\(\d+\)|:\d+)"
    # torch.utils.cpp_extension's checks before it compiles: the compiler's version, the
    # architecture list ("Unknown CUDA arch (9.0+PTX) or GPU not supported")
    r"|is less than the minimum required version|Unknown CUDA arch \("
    # nvcc refusing its own set-up, not the package's source: an architecture this toolkit does
    # not know, an option it does not have, a host compiler it cannot use
    # a library header's check of the compiler or toolkit that includes it (MSVC's STL:
    # "yvals_core.h(498): fatal error C1189: #error:  STL1001: Unexpected compiler version,
    # expected MSVC 19.26 or newer", "STL1002: Unexpected CUDA version"): a version not supported
    r"|#error\W+(?:STL\d{4}:\s*)?(?:Unexpected|unsupported)\b[^\n]*\b(?:compiler|CUDA|GNU"
    r"|Visual Studio|MSVC|clang)\b[^\n]*\bversion"
    # a GCC-style compiler driver rejecting an option of its command line ("clang: error:
    # unsupported option '-fopenmp'" of Apple's clang, "gcc: error: unrecognized command line
    # option '-std=c++14'" of gcc 4.8): this compiler lacks what the build asks of it
    r"|^\s*(?:\S*[\\/])?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|[\w.-]+-g(?:cc|\+\+))(?:-\d+)?"
    r"(?:\.exe)?: (?:fatal )?error: (?:unsupported option|unrecognized command[- ]line option"
    r"|unknown argument)"
    r"|nvcc(?:\.exe)?\s+fatal\s*:\s*(?:Unsupported gpu architecture|Value '[^']*' is not defined"
    r"|Unknown option|Could not set up the environment|Host compiler targets))"
)
# A compiler-style error in a source file: "x.cu(12): error", "x.cpp:5:10: error:", "error C2039"
_COMPILE = re.compile(
    r"(?i:\.(?:c|cc|cpp|cxx|cu|cuh|h|hpp|hxx|inl)(?:\(\d+\)|:\d+)[^\n]*\b(?:error|错误|fehler"
    r"|erreur|errore|ошибка|błąd|エラー|오류|hata)\b"
    r"|\berror\s+C\d{4}\b|\bC\d{4}\s*[:：]|#error|catastrophic error"
    # the compiler not finding a header, where the post leaves out the file it compiled
    # ("fatal error: glm/gtx/pca.hpp: 没有那个文件或目录", late set t)
    r"|^\W{0,3}\s*fatal error\s*[:：]\s*[\w./\\+-]+\.(?:h|hh|hpp|hxx|cuh|inl|inc)\s*[:：]"
    r"|\bMSB3721\t"  # MSBuild's list of errors: the compiler it ran (nvcc) failed (late set o)
    r"|\berror\s*:\s*(?:identifier|expected|no (?:instance|member|matching)|namespace|class"
    r"|incomplete|invalid|use of|call of|'|\""
    # the CUDA front end's and C++ compilers' own wording, where the file is left out ("error:
    # calling a __device__ function("__expf") from a __host__ __device__ function ... is not
    # allowed", "error: a value of type ... cannot be used", "error: unknown type name 'x'")
    r"|calling a __\w+__ function|a value of type|argument of type|too (?:few|many) arguments"
    r"|more than one (?:instance|operator|conversion)|no suitable|expression must"
    r"|unknown type name|use of undeclared|static assertion failed|redefinition of"
    r"|conflicting (?:types|declaration))"
    r"|ptxas (?:fatal|error)|nvcc (?:fatal|error)"
    r"|\bptxas(?:\.exe)?\s+\S.*,\s*line\s+\d+;\s*(?:fatal|error)\s*:"  # at a line of its input
    r"|\bCommand line error D\d{4}\b"  # cl.exe rejecting an option the build script gives it
    # the compiler exiting with an error status ("...\\bin\\nvcc.exe' failed with exit code 2"),
    # setuptools' summary of it ("Error compiling objects for extension")
    r"|\b(?:nvcc|cl|gcc|g\+\+|c\+\+|clang)(?:\.exe)?['\"]?\s+failed with exit (?:code|status)"
    r"\s*[1-9]|Error compiling objects for extension"
    r"|(?-i:^\s*FAILED:)|ninja: build stopped|\berrors? detected in the compilation of\b"
    r"|error: command .*(?:nvcc|gcc|g\+\+|cl\.exe|c\+\+|x86_64).* failed"
    # Rust builds of CUDA crates (late set r): rustc's own error, the cc crate's and
    # bindgen_cuda's report of a failed nvcc
    r"|^\s*error\[E\d{4}\]|error occurred: Command \"?[^\"\s]*nvcc|\bnvcc error while executing\b"
    # the compiler driver not finding the source file it is to compile ("gcc: error: x.cu: No
    # such file or directory", in Chinese "gcc: 错误：x.cu：没有那个文件或目录": late set q)
    r"|^\s*(?:\S*[\\/])?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|nvcc)(?:\.exe)?:\s+(?:error|错误"
    r"|Fehler|erreur|errore|ошибка|エラー|오류)\s*[:：]\s*\S+\.(?:c|cc|cpp|cxx|cu|cuh)\s*[:：])"
)


def structural_family(line: str, *, compiled: bool, built: bool) -> tuple[str, bool]:
    """The family a first error line shows by its shape alone, and whether the shape is telling
    (False: a guess from what the log showed before it). ``compiled``: the log showed the
    compiler running before it; ``built``: it showed a build (pip building a wheel, setup.py,
    CMake) at all."""
    if _TOOL_CANNOT_RUN.search(line):
        return "environment", True  # the program itself could not run: not the source's fault
    if _OUTPUT_DENIED.search(line):
        return "package", True  # the linker or installer may not write its output there
    if _NO_CUDA_AT_RUN.search(line):
        # a check that CUDA is there: in a build script (before compiling), the environment;
        # anywhere else, when the code first uses the GPU
        return ("environment" if built and not compiled else "first-use"), True
    if _LOADED_AT_FIRST_USE.search(line):
        return "first-use", True  # the driver's library, opened only when a kernel runs
    if _LIBRARY_NOT_LOADED.search(line):
        return "import", True  # a library the installed package needs did not load
    if _CUDA_INIT.search(line):
        return "first-use", True  # the CUDA runtime failing to start, whatever its error says
    if _NATIVE_LIB_MISSING.search(line):
        return "import", True  # a package's loader not finding its own native library
    if _GPU_MEMORY.search(line):
        return "first-use", True  # the GPU's memory, not the compiler's: the kernel ran
    if _SIGILL.search(line) and not _COMPILER_NAMED.search(line):
        return "import", True  # code for a CPU feature this one lacks, met when loaded
    if _SHELL_SEGFAULT.match(line) and not compiled:
        return "first-use", True  # the shell's report of a program that crashed, no compiler
    if "DataLoader worker" in line:
        # "DataLoader worker (pid 729) is killed by signal: Bus error": a program's own worker
        # process at run time, no compiler (field/index-i.toml, the precision audit)
        return "first-use", True
    if _CRASH.search(line):
        return "compiler-crash", True
    if _RESOLVE.search(line):
        return "resolve", True
    if _LINK.search(line) and "undefined symbol" not in line:
        return "link", True
    if _PACKAGE.search(line):
        return "package", True
    if _FIRST_USE_STRONG.search(line):
        return "first-use", True
    if _ENVIRONMENT.search(line):
        return "environment", True
    if _COMPILE.search(line):
        return "compile", True
    if _CONFIGURE.search(line):
        return ("compile" if compiled else "configure"), False
    if _IMPORT.search(line):
        if compiled and not _IMPORT_ONLY.search(line):
            return "compile", False
        return "import", True
    if _FIRST_USE.search(line):
        return "first-use", True
    if compiled or WHEEL_NOT_BUILT.search(line):
        # (pip's summary alone, "ERROR: Failed building wheel for sageattention", the build's
        # output left out: most such builds stopped in the compiler; late sets i and t)
        return "compile", False
    if built:
        return "configure", False
    if _RUNTIME_EXCEPTION.search(line):
        return "first-use", False  # nothing built, and code that ran raised it, not a loader
    return "import", False

# pip's summary that a package's wheel did not build ("ERROR: Failed building wheel for natten",
# its last line "Failed to build grouped_gemm"), read by the matcher as well
WHEEL_NOT_BUILT = re.compile(r"(?i:\bFailed\s+building\s+wheel\s+for\b"
                             r"|^\s*Failed\s+to\s+build\s+[\w.-]+(?:\s+[\w.-]+)*\s*$)")

# Exceptions that running code raises, never loading a module: in a log that shows no build,
# the program stopped while it ran (Wan2GP: "torch._dynamo.exc.InternalTorchDynamoError:
# NameError: name 'flash_attn_interface' is not defined", the attention it chose not installed)
_RUNTIME_EXCEPTION = re.compile(
    r"\b(?:NameError|TypeError|ValueError|KeyError|IndexError|ZeroDivisionError"
    r"|\w*TorchDynamoError)\b"
    # PyTorch's own assertion, raised by its dispatcher when an operator is called
    r"|\bINTERNAL ASSERT FAILED\b")

# Lines that show loading whatever ran before them (a build can be followed by its test import)
_IMPORT_ONLY = re.compile(r"(?i:undefined symbol|DLL load failed|cannot open shared object"
                          r"|WinError 12[67]|Illegal instruction)")


def family_of(cause: str | None, line: str | None, *, compiled: bool = False,
              built: bool = False, jit: bool = False, ran: bool = False,
              traceback: str = "", probe: bool = False) -> Family:
    """The family of a failed log: from its specific cause when that cause's stage is known,
    else from its first error line (``line``; None: no line shows the failure). ``jit``: the
    log shows code compiled when it was first used (a PyTorch extension loaded with
    ``torch.utils.cpp_extension.load``, Triton's launcher), so whatever failed, failed there.
    ``ran``: the log shows a program being run (``python chat.py``, a script's traceback) and no
    package build: a failure of a build step (a compiler, a linker, a build tool or setting
    missing) came from code compiled when it was first used; any other failure stays where it
    stopped (an import, a kernel's first call).

    Where no specific cause is known: ``traceback`` is what the Python traceback ending in the
    first error shows ("import": one of its frames is an import statement; "call": it has frames
    and none imports; "": no traceback), so that an exception raised inside a call of a program
    that built nothing stopped at the kernel's first use, not at an import. ``probe``: the first
    error is a linker's, right after a lone source file name and before anything was compiled
    (a build script compiling a test program to find a library, as DeepSpeed's setup does for
    libaio): the build stopped while preparing, not while linking the package."""
    if jit or (not built and line and _INSTALLED_SOURCE_ERROR.search(line)):
        return FAMILIES["first-use"]
    if cause is None:
        shape, strong = structural_family(line or "", compiled=compiled, built=built)
        if probe and shape == "link" and not compiled:
            return FAMILIES["configure"]
        if not strong and not (compiled or built) and traceback == "call":
            return FAMILIES["first-use"]
    family = _family_of(cause, line, compiled=compiled, built=built)
    if ran and not built and family.id in _BUILD_STEPS:
        shape, strong = structural_family(line or "", compiled=compiled, built=built)
        if not strong or shape in _BUILD_STEPS:  # (a module that fails to load: an import)
            return FAMILIES["first-use"]
    return family


# The families of a build step: met while a program runs, the build ran when first used
_BUILD_STEPS = frozenset({"environment", "configure", "compile", "compiler-crash", "link"})


def _family_of(cause: str | None, line: str | None, *, compiled: bool, built: bool) -> Family:
    staged = CAUSE_FAMILY.get(cause or "")
    if staged is not None:
        return FAMILIES[staged]
    shape, strong = structural_family(line or "", compiled=compiled, built=built)
    if cause in CAUSE_DEFAULT:
        if strong and shape in _TELLING:
            return FAMILIES[shape]
        if strong and shape == "environment" and _ENVIRONMENT.search(line or ""):
            return FAMILIES["environment"]  # a prerequisite checked before anything compiles
        if cause in _CHECKED_AT_IMPORT and not (compiled or built) \
                and _PY_EXCEPTION.match(line or "") is not None:
            return FAMILIES["import"]  # a Python exception and no build: a check at import
        if CAUSE_DEFAULT[cause or ""] == "import" and (compiled or built) and strong \
                and shape == "compile":
            return FAMILIES["compile"]  # met by the compiler in a build ("#error ... SSE2")
        return FAMILIES[CAUSE_DEFAULT[cause or ""]]
    return FAMILIES[shape]


_PY_EXCEPTION = re.compile(r"^\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)\b")

# A program that could not run at all, whatever it was asked to do: a tool in a toolkit's bin
# folder that may not be executed, a toolchain program (or one in a bin folder) that "cannot
# execute" (a package's own helper that cannot is its build's, not the toolchain's), Python's
# distutils reporting no exit status
# ("error: command 'cl.exe' failed: None": the program was never started), another program of a
# compiler's name first on PATH (a Python script's optparse: "cl: error: no such option: -E"),
# CMake that cannot enable a language (no working compiler: "CMAKE_CXX_COMPILER not set", an
# error at project()) or whose Find module for a toolkit fails (FindCUDA.cmake).
_TOOL_CANNOT_RUN = re.compile(
    r"(?i:Permission denied:?\s*['\"]?[^'\"\s]*[\\/]bin[\\/][\w.+-]+['\"]?\s*$"
    r"|[\\/]bin[\\/][^\n]*\bcannot execute\b"
    r"|\b(?:nvcc|cl|gcc|g\+\+|c\+\+|cc|clang|ld|ninja|cmake)(?:\.exe)?\b[^\n]*\bcannot execute\b"
    r"|\bexecvp\b|^\s*error: command '[^']*' failed: None\b"
    r"|^\s*(?:\S*[\\/])?(?:cl|gcc|g\+\+|c\+\+|cc|nvcc|clang)(?:\.exe)?: error: no such option"
    r"|CMAKE_\w+_COMPILER not set|No CMAKE_\w+_COMPILER could be found"
    r"|CMake Error\W*at CMakeLists\.txt:\d+ \(project\)"
    r"|CMake Error at \S*Find(?:CUDA|CUDAToolkit|Python\w*|Torch)\.cmake"
    # ... or whose test of the compiler it was given fails ("CMake Error at .../CMakeDetermine
    # CompilerId.cmake:739 (message):" over "Compiling the CUDA compiler identification source
    # file ... failed.": 4 of the 5 labelled logs of sets d, h, i, o, t, u say environment)
    r"|CMake Error at [^\n]*CMakeDetermineCompilerId\.cmake"
    r"|Compiling the \w+ compiler identification source file\b"
    # CMake's test of the compiler it was given ("The C compiler \"C:/.../cmake.exe\" is not
    # able to compile a simple test program."): no working compiler
    r"|is not able to compile a simple test program"
    # Windows' "file not found" without a file's name ("FileNotFoundError: [WinError 2] The system
    # cannot find the file specified", "error: [WinError 2] 系统找不到指定的文件。"): a program the
    # build starts (cl.exe, nvcc, ninja, git) was not found; a file that is missing is named
    r"|\[WinError 2\][^'\"\\/\n]*$"
    # a toolchain program reporting that it itself is missing ("gcc: No such file or
    # directory", as nvcc prints it for the host compiler it cannot find)
    r"|^\s*(?:\S*[\\/])?(?:gcc|g\+\+|cc|c\+\+|cl|nvcc|clang|clang\+\+|ninja|cmake)(?:\.exe)?:"
    r"\s+No such file or directory\s*$)"
)
# The GPU running out of memory while the code runs ("torch.cuda.OutOfMemoryError: CUDA out of
# memory. Tried to allocate ..."): the compiler's own memory is "out of memory" without "CUDA"
_GPU_MEMORY = re.compile(r"(?i:CUDA out of memory|\bcuda\.OutOfMemoryError\b"
                         r"|\bcudaErrorMemoryAllocation\b"
                         # a kernel asking more of the GPU than it has (Triton's shared memory)
                         r"|\bOutOfResources\b|out of resource: shared memory)")
# The CUDA runtime failing to initialise when the code first asks for the GPU ("UserWarning: CUDA
# initialization: Unexpected error from cudaGetDeviceCount() ... Error 2: out of memory"; the
# memory it names is not the compiler's)
_CUDA_INIT = re.compile(r"(?i:\bcudaGetDeviceCount\b|\bCUDA initialization:"
                        r"|CUDA driver initialization failed"
                        r"|no CUDA-capable device is detected"
                        # the driver refusing a kernel's PTX when it is loaded (Blender's Cycles,
                        # late set s)
                        r"|Unsupported PTX version|CUDA_ERROR_UNSUPPORTED_PTX_VERSION"
                        # JAX's GPU backend, started when the GPU is first used (late set r)
                        r"|CUDA backend failed to initialize|Backend 'cuda' failed to initialize)")
# A package's loader not finding its own native library ("Could not find the bitsandbytes CUDA
# binary at PosixPath('.../libbitsandbytes_cuda124.so')"): met when the package is imported
_NATIVE_LIB_MISSING = re.compile(
    r"(?i:\bCould not find the \S+(?: \S+)? (?:binary|library) at\b)")
# A compiler error in a file of an installed package (under site-packages, not an include
# folder of headers), in a log that shows no package build: the package compiles its code
# itself when first used (DeepSpeed's ops, nvdiffrast's plugin)
_INSTALLED_SOURCE_ERROR = re.compile(
    r"(?i:(?:site|dist)-packages[\\/](?![^\s:(]*[\\/]include[\\/])[^\s:(]+"
    r"\.(?:c|cc|cpp|cxx|cu|cuh|h|hpp)(?:\(\d+\)|:\d+)[^\n]*\berror\b)")
# Libraries loaded only when the code first uses the GPU, not when the package is imported:
# cuDNN's sub-libraries at the first convolution ("Could not load library
# libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file"), the driver's
# libcuda that cuda-python opens at its first call ("Failed to dlopen libcuda.so")
# (only where what cannot be opened is the driver's own library, libcuda: a library the
# package needs that is not installed, cuDNN or cuBLAS itself, is an import, whoever reported it)
_LOADED_AT_FIRST_USE = re.compile(
    r"(?i:Could not load library (?:lib)?cudnn\S*\. Error: (?:lib)?cuda\.so"
    r"|Failed to dlopen (?:lib)?cuda\b)")
# A shared library that cannot be found or loaded, named by its file, whoever reports it (a
# loader at import, or a library opened lazily at a first call: CTranslate2's "Library
# cublas64_12.dll is not found or cannot be loaded", cuDNN's "Could not load library
# cudnn_ops_infer64_8.dll. Error code 126", onnxruntime's "LoadLibrary failed with error 126 ...
# onnxruntime_providers_cuda.dll"): the installed files do not fit, an import (FAMILIES.md)
_LIBRARY_NOT_LOADED = re.compile(
    r"(?i:\bCould not (?:load library|locate) \S+\.(?:so|dll|dylib)\b"
    # cuDNN 9's loader trying each name of a sub-library ("Unable to load any of
    # {libcudnn_engines_precompiled.so.9.1.0, ...}")
    r"|\bUnable to load any of \{?\S+\.(?:so|dll|dylib)\b"
    r"|\bLibrary \S+\.(?:so|dll|dylib)(?:\.\d+)* is not found or cannot be loaded"
    r"|\bLoadLibrary(?:Ex\w*)? failed with error \d+"
    r"|\b(?:Unable|Failed) to load (?:library )?\S+\.(?:so|dll|dylib)\b)")
# SIGILL of a program ("Illegal instruction (core dumped)"), not of a compiler crashing
_SIGILL = re.compile(r"(?i:\bIllegal instruction\b)")
_COMPILER_NAMED = re.compile(r"(?i:\b(?:cc1plus|cc1|cicc|ptxas|cudafe\+\+|nvcc|gcc|g\+\+|cl\.exe"
                             r"|clang)\b)")
# The linker or an installer may not write its output where it was told to
_OUTPUT_DENIED = re.compile(r"(?i:cannot open output file .*Permission denied"
                            # CMake's install step (late set r)
                            r"|file INSTALL cannot (?:copy file|make directory|set permissions))")
# A check that CUDA is usable: "Torch not compiled with CUDA enabled" (a CPU-only PyTorch),
# "CUDA is not available", "No CUDA GPUs are available"
_NO_CUDA_AT_RUN = re.compile(
    r"(?i:Torch not compiled with CUDA enabled|\bCUDA is not availab|No CUDA GPUs are available)")

# A program being run, not a package being built: its command line ("python chat.py",
# "python3 -m sglang.launch_server"; not setup.py, pip or build), the outermost frame of its
# traceback (a script's "<module>" outside site-packages), PyCUDA compiling a kernel.
RUN_MARK = re.compile(
    r"^\s*(?:\([\w.-]+\)\s*)?(?:\S*[>$#]\s*)?python[\d.]*(?:\.exe)?\s+(?:-u\s+)?"
    r"(?:-m\s+(?!pip\b|build\b|setuptools\b|pytest\b)\w[\w.]*"
    r"|(?![\w./\\-]*setup\w*\.py\b)[\w./\\-]+\.py\b(?!.*\b(?:install|develop|build\w*|bdist\w*)\b))"
    r"|^\s*File \"(?![^\"]*(?:site|dist)-packages)[^\"]*[\\/](?!setup\w*\.py\")[\w.-]+\.py\", "
    r"line \d+, in <module>"
    r"|pycuda\.driver\.CompileError"
)

# A build run when the code is first used (a PyTorch extension's JIT load, Triton's launcher)
JIT_MARKS = ("torch_extensions", "_jit_compile", "load_inline", "__triton_launcher",
             "cuda_utils.c", "triton/runtime/build", "triton\\runtime\\build",
             "triton/runtime/compiler",
             "triton\\runtime\\compiler",
             # messages only code compiled when first used prints: torch's JIT load without
             # ninja, Triton's build finding no C compiler, Triton's launcher module not loading
             "Ninja is required to load C++ extensions",
             "Failed to find C compiler. Please specify via CC",
             "while importing cuda_utils",
             # torch.compile's check for Triton, made when the compiled code first runs
             "Cannot find a working triton installation")
# More of them, each on a short line or near a line's start (a traceback's frame, an exception,
# a message): looked for in a line's first characters only (JIT_HEAD), so that the long
# command lines of a build cost nothing more
JIT_HEAD_MARKS = (
             # torch.compile: Inductor generates and compiles code when the model first runs
             # ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:")
             "BackendCompilerFailed", "backend='inductor'", "torch._inductor",
             "torch/_inductor/", "torch\\_inductor\\", "_dynamo/eval_frame",
             "_dynamo\\eval_frame",
             # NVRTC compiles at run time (TorchScript's fusers, CuPy): "nvrtc: error: invalid
             # value for --gpu-architecture"; TorchScript's interpreter runs a scripted model
             "nvrtc: error", "NVRTC_ERROR", "Traceback of TorchScript",
             "failed in the TorchScript interpreter",
             # plugin loaders that build their CUDA code when first called: nvdiffrast's
             # _get_plugin, StyleGAN's custom_ops.get_plugin, DeepSpeed's op builders' jit_load,
             # and the compiler search only they print; triton-windows finding its toolchain
             "in _get_plugin", "in get_plugin", "in jit_load",
             "Could not locate a supported Microsoft Visual C++ installation",
             "Could not find MSVC/GCC/CLANG installation",
             "triton/windows_utils", "triton\\windows_utils",
             # torch's JIT build failing (a setup.py build's says "Error compiling objects for
             # extension")
             "Error building extension '",
             # Triton assembling the PTX it generated when a kernel is first called; PTX that a
             # program hands the driver's JIT (Numba, CuPy: "ptxas application ptx input, line
             # 9; fatal : Unsupported .version 7.8")
             "Triton PTX codegen error", "ptxas application ptx input")
# The same, as patterns: torch.utils.cpp_extension.load() in a traceback's frame; ninja's
# FAILED: line for an object named without a folder, as only torch's JIT build.ninja writes
# them ("FAILED: torch_rasterize_gl.o", "FAILED: fused_bias_act_kernel.cuda.o"; a setup.py or
# CMake build names build/temp.../x.o or CMakeFiles/x.dir/x.o)
JIT_HEAD = 300  # characters of a line JIT_HEAD_MARKS and JIT_LINE are looked for in
JIT_LINE = re.compile(
    r'cpp_extension\.py", line \d+, in load\b'
    r"|^\s*FAILED:\s+[\w-]+(?:\.cuda)?\.o\s*$"
    # the compiler's command line in that build.ninja: its dependency file named without a
    # folder too ("[2/3] c++ -MMD -MF fused_adam_frontend.o.d -DTORCH_EXTENSION_NAME=...")
    r"|^\s*(?:\[\d+/\d+\]\s+)?\S*(?:c\+\+|g\+\+|gcc|nvcc|cl)(?:\.exe)?\s+-MMD\s+-MF\s+"
    r"[\w-]+(?:\.cuda)?\.o\.d\s"
    # MSVC's linker naming an object of that build.ninja, without a folder ("half_matmul.cuda.o
    # : error LNK2019: unresolved external symbol cublasHgemm"; a setup.py build's are .obj)
    r"|^\s*[\w-]+(?:\.cuda)?\.o\s*:\s*(?:fatal\s+)?error\s+LNK\d{4}"
    # ptxas given a PTX file that Python's tempfile named ("ptxas /tmp/tmpqgu1f9dk.ptx, line 5;
    # fatal : ..."): generated by a program when a kernel is first called (Triton); nvcc's own
    # are tmpxft_..._x.ptx
    r"|\bptxas(?:\.exe)?\s+\S*[\\/]tmp[a-z0-9_]{8}\.ptx\b"
    # Triton's launcher: the main.c it writes to a folder of Python's tempfile and compiles when a
    # kernel is first called ("CalledProcessError: Command '['C:\\MinGW\\bin\\gcc.EXE',
    # 'C:\\...\\Temp\\tmpuu9daoqv\\main.c', '-O3', '-shared', ...", late set t)
    r"|[\\/]tmp[a-z0-9_]{8}[\\/]+main\.c\b")

__all__ = ["CAUSE_DEFAULT", "CAUSE_FAMILY", "FAMILIES", "FAMILY_IDS", "JIT_HEAD",
           "JIT_HEAD_MARKS", "JIT_LINE", "JIT_MARKS",
           "RUN_MARK", "WHEEL_NOT_BUILT",
           "Family",
           "family_of", "structural_family"]
