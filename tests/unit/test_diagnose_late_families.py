"""Families (where a log stopped) that the late sets b and c (tests/data/logs/late-2026-11-28b
and -28c, scored once, then studied) showed going wrong on logs the project had not seen, and
first error lines that hid them (issue 31). Each test is a short excerpt of one thread's log, as
the thread printed it; each stands for a class: the CUDA runtime failing on its first call, the
CUDA front end asserting, an excerpt quoted in a post, pip's and uv's notices, gcc's source echo,
Windows' `where` finding no cl.exe, a traceback of a call against one of an import, ctypes not
finding a function."""

from __future__ import annotations

from diagnose_testsupport import failed, family, first

# -- the CUDA runtime failing on its first call: first use, not the environment --------------

def test_a_driver_older_than_the_runtime_stops_at_first_use() -> None:
    # cutorch #318 (macOS), nvidia-docker #414: a CUDA runtime error on the first call
    line = ("luajit: cuda runtime error (35) : CUDA driver version is insufficient for CUDA "
            "runtime version at /tmp/luarocks_cutorch-scm-1-384/cutorch/lib/THC/THCGeneral.c:16")
    report = failed([line])
    assert first(report) == line
    assert report.primary is not None and report.primary.signature_id == "driver-too-old"
    assert family(report) == "first-use"
    torch7 = failed(["THCudaCheck FAIL file=/root/torch/extra/cutorch/lib/THC/THCGeneral.c "
                     "line=66 error=35 : CUDA driver version is insufficient for CUDA runtime "
                     "version"])
    assert family(torch7) == "first-use"


# -- the CUDA front end's own assertion: the compiler crashed ---------------------------------

def test_an_internal_error_of_the_cuda_front_end_is_a_compiler_crash() -> None:
    # torch7 #1065 (CUDA 8): EDG's assertion, with no "error:" of the usual kind
    line = (".../torch/extra/cutorch/lib/THC/generic/THCTensorMath.cu(10): internal error: "
            "assertion failed: traverse_expr: bad expr kind (/dvs/p4/build/sw/rel/gpu_drv/r361/"
            "r361_00/drivers/compiler/edg/EDG_4.10/src/il_walk.c, line 348)")
    report = failed(["[ 36%] Building NVCC (Device) object lib/THC/CMakeFiles/THC.dir/generated/"
                     "THC_generated_THCTensorMathPointwiseChar.cu.o", line])
    assert first(report) == line
    assert report.primary is not None and report.primary.cause_group == "compiler-crashed"
    assert family(report) == "compiler-crash"
    # cytnx #1124 (CUDA 13): the assertion, then nvcc saying its front end died
    cytnx = failed(["/project/include/backend/Storage.hpp(767): internal error: "
                    "check_for_and_take_source_seq_entry: wrong entry",
                    "",
                    '1 catastrophic error detected in the compilation of "/project/src/Kron.cpp".',
                    "nvcc error   : 'cudafe++' died due to signal 6"])
    assert first(cytnx) == ("/project/include/backend/Storage.hpp(767): internal error: "
                            "check_for_and_take_source_seq_entry: wrong entry")
    assert family(cytnx) == "compiler-crash"


# -- excerpts: a line quoted in a post, pip's notices before the failure ----------------------

def test_a_pip_error_quoted_in_a_post_is_the_first_error_and_a_resolve() -> None:
    # ComfyUI-Trellis2 #131: the reply quotes pip's output with "> "
    line = ("> ERROR: Could not find a version that satisfies the requirement torch==2.10.0 "
            "(from versions: none)")
    report = failed(["`pip install torch==2.10.0 torchvision torchaudio --index-url "
                     "https://download.pytorch.org/whl/cu131`",
                     "> Looking in indexes: https://download.pytorch.org/whl/cu131", line])
    assert first(report) == line
    assert family(report) == "resolve"


def test_the_versions_pip_ignored_are_not_the_failure() -> None:
    # OneTrainer #169: a +cu118 pin on an Apple M2
    line = ("ERROR: Could not find a version that satisfies the requirement torch==2.1.2+cu118 "
            "(from versions: 1.11.0, 1.12.0, 2.1.2, 2.2.0, 2.2.1)")
    report = failed(["ERROR: Ignored the following versions that require a different python "
                     "version: 1.6.2 Requires-Python >=3.7,<3.10; 1.6.3 Requires-Python "
                     ">=3.7,<3.10",
                     line,
                     "ERROR: No matching distribution found for torch==2.1.2+cu118"])
    assert first(report) == line
    assert family(report) == "resolve"


def test_gcc_echoing_the_source_line_is_not_the_error() -> None:
    # pypims #9: the excerpt starts with gcc's echo of the line, the error with its file follows
    line = ("/usr/local/cuda-10.1/include/crt/host_config.h:129:2: error: #error -- unsupported "
            "GNU version! gcc versions later than 8 are not supported!")
    report = failed(["        129 | #error -- unsupported GNU version! gcc versions later than 8 "
                     "are not supported!",
                     "            |  ^~~~~",
                     "      In file included from /usr/local/cuda-10.1/include/cuda_runtime.h:83,",
                     "      " + line])
    assert first(report) == line
    assert report.primary is not None and report.primary.cause_group == "gcc-too-new-for-cuda"


def test_uv_saying_the_build_backend_failed_only_wraps_the_error() -> None:
    # Step1X-3D #35: uv's summary comes before the build script's traceback
    report = failed(["error: The build backend returned an error",
                     "  Caused by: Call to `setuptools.build_meta:__legacy__.build_wheel` failed "
                     "(exit code: 1)",
                     "  File \"<string>\", line 15, in <module>",
                     "ModuleNotFoundError: No module named 'torch'"])
    assert first(report) == "ModuleNotFoundError: No module named 'torch'"


# -- Windows' `where cl` finding nothing: cl.exe is missing -----------------------------------

def test_where_cl_failing_is_the_missing_compiler() -> None:
    # ml-sharp #52 (gsplat on Windows): the exception of `where cl` is the cause, not a wrapper
    line = ("subprocess.CalledProcessError: Command '['where', 'cl']' returned non-zero exit "
            "status 1.")
    report = failed(['  File "C:\\Users\\me\\miniconda3\\envs\\sharp\\Lib\\subprocess.py", '
                     'line 577, in run',
                     "    raise CalledProcessError(retcode, process.args,",
                     line,
                     "gsplat: No CUDA toolkit found. gsplat will be disabled.",
                     "AttributeError: 'NoneType' object has no attribute 'CameraModelType'"])
    assert first(report) == line
    assert report.primary is not None and report.primary.cause_group == "msvc-not-found"
    assert family(report) == "environment"


def test_where_finding_nothing_is_the_missing_compiler_when_the_log_says_cl() -> None:
    # nerfstudio #3003: torch's warning names cl, then `where` prints that it found nothing
    where = ("(   ●  ) gsplat: Setting up CUDA (This may take a few minutes the first time)"
             "INFO: Could not find files for the given pattern(s).")
    report = failed(["C:\\envs\\ns\\lib\\site-packages\\torch\\utils\\cpp_extension.py:383: "
                     "UserWarning: Error checking compiler version for cl: [WinError 2] The "
                     "system cannot find the file specified",
                     where,
                     "Traceback (most recent call last):",
                     '  File "C:\\envs\\ns\\lib\\site-packages\\gsplat\\cuda\\_backend.py", '
                     "line 56, in <module>",
                     "    from gsplat import csrc as _C",
                     "ImportError: cannot import name 'csrc' from 'gsplat'"])
    assert first(report) == where
    assert report.primary is not None and report.primary.cause_group == "msvc-not-found"
    assert family(report) == "environment"
    # `where` alone does not say which program it looked for: no cause
    alone = failed(["INFO: Could not find files for the given pattern(s).",
                    "error: command 'x' failed"])
    assert alone.primary is None or alone.primary.cause_group != "msvc-not-found"


# -- a traceback of a call at run time, against one of an import ------------------------------

def test_an_exception_raised_inside_a_call_stops_at_first_use() -> None:
    # gsplat #266: the kernel's launch fails, several calls deep below the script
    line = ("RuntimeError: Failed to set maximum shared memory size (requested 7168 bytes), "
            "try lowering tile_size.")
    report = failed(["Traceback (most recent call last):",
                     '  File "test.py", line 17, in <module>',
                     "    colors, alphas, meta = rasterization(",
                     '  File "/env/lib/python3.8/site-packages/gsplat/cuda/_wrapper.py", '
                     "line 12, in call_cuda",
                     "    return getattr(_C, name)(*args, **kwargs)",
                     line])
    assert first(report) == line and report.primary is None
    assert family(report) == "first-use"


def test_an_exception_raised_while_importing_stays_an_import() -> None:
    report = failed(["Traceback (most recent call last):",
                     '  File "run.py", line 3, in <module>',
                     "    import mypkg",
                     '  File "/env/lib/python3.10/site-packages/mypkg/__init__.py", line 9, '
                     "in <module>",
                     "    _lib = _load()",
                     '  File "/env/lib/python3.10/site-packages/mypkg/_loader.py", line 20, '
                     "in _load",
                     "    raise RuntimeError('mypkg could not set itself up')",
                     "RuntimeError: mypkg could not set itself up"])
    assert report.primary is None
    assert family(report) == "import"


# -- ctypes not finding a function in a loaded library ----------------------------------------

def test_a_function_missing_from_a_loaded_library_is_an_import() -> None:
    # bitsandbytes-windows-webui #15: the CPU-only library loaded, then a CUDA function is not in
    # it; the warning above says so, the line below is where it stopped
    line = "function 'cadam32bit_grad_fp32' not found"
    report = failed([">python -m bitsandbytes",
                     "",
                     "\\Roaming\\Python\\Python310\\site-packages\\bitsandbytes\\cextension.py:34: "
                     "UserWarning: The installed version of bitsandbytes was compiled without GPU "
                     "support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are "
                     "unavailable.",
                     '  warn("The installed version of bitsandbytes was compiled without GPU '
                     'support. "',
                     line])
    assert first(report) == line
    assert family(report) == "import"


# -- short excerpts: the line alone tells where it stopped ------------------------------------

def test_messages_only_code_compiled_at_first_use_prints_are_first_use() -> None:
    # sageattention #7 (Triton on Windows), unifiedparsing #12 (torch's JIT load), triton-windows
    # #21 (Triton's launcher module): each alone, as a post quotes it
    for line in ["RuntimeError: Failed to find C compiler. Please specify via CC environment "
                 "variable.",
                 "RuntimeError: Ninja is required to load C++ extensions",
                 "ImportError: DLL load failed while importing cuda_utils: The specified module "
                 "could not be found."]:
        assert family(failed([line])) == "first-use", line


def test_cmake_finding_no_cuda_toolset_is_configure() -> None:
    # llama-cpp-python #744: CMake's Visual Studio generator, quoted without its header
    assert family(failed(["No CUDA toolset found."])) == "configure"


def test_setuptools_that_may_not_write_its_install_folder_is_package() -> None:
    report = failed(["error: can't create or remove files in install directory"])
    assert family(report) == "package"


def test_the_gpu_out_of_memory_is_first_use_not_a_compiler_crash() -> None:
    line = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; "
            "23.65 GiB total capacity)")
    assert family(failed([line])) == "first-use"
    # the compiler short of memory stays a crash
    assert family(failed(["cc1plus: out of memory allocating 65536 bytes"])) == "compiler-crash"


def test_an_illegal_instruction_of_a_program_is_not_a_compiler_crash() -> None:
    # a CPU without AVX: the program stops when its library is loaded
    assert family(failed(["Illegal instruction (core dumped)"])) == "import"


def test_a_compiler_error_in_another_language_is_compile() -> None:
    for line in ["src/x.cpp:5:10: エラー: 'foo' was not declared in this scope",
                 "src/x.cpp:5:10: Fehler: »foo« wurde in diesem Gültigkeitsbereich nicht "
                 "definiert",
                 "src/x.cpp:3:1: 오류: 'foo' was not declared in this scope"]:
        assert family(failed([line])) == "compile", line
