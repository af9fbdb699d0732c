"""Classes the late set (tests/data/logs/late-2026-11-28, scored once, then studied) showed the
two-level diagnosis got wrong (issue 31): each test is a short excerpt of one of its logs, as the
thread printed it. A family from where the log stopped; a specific cause only when the log says
which (a generic symptom with several causes names the family alone)."""

from __future__ import annotations

from diagnose_testsupport import failed, family

# -- a program that could not run is the environment, not the package's source ---------------

def test_a_toolkit_program_that_may_not_be_run_is_the_environment_not_a_folder() -> None:
    # stable-dreamfusion #77: nvcc in the toolkit's bin folder may not be executed
    report = failed(["  Building wheel for raymarching (setup.py) ... error",
                     "      running build_ext",
                     "      error: [Errno 13] Permission denied: '/usr/local/cuda/bin/nvcc'"])
    assert report.first_error is not None
    assert report.first_error.line.strip() == \
        "error: [Errno 13] Permission denied: '/usr/local/cuda/bin/nvcc'"
    assert report.primary is None  # no "install into an environment you own"
    assert family(report) == "environment"


def test_a_compiler_that_never_started_is_the_environment() -> None:
    # py2sec #19: distutils reports no exit status at all ("failed: None")
    report = failed(["running build_ext", "building 'main.sa.init' extension",
                     "cl.exe /c /nologo /O2 /W3 /GL /DNDEBUG /MD /Tctmp_build\\main\\sa\\init.c",
                     "error: command 'cl.exe' failed: None"])
    assert family(report) == "environment"


def test_another_program_named_like_the_compiler_is_the_environment() -> None:
    # py-faster-rcnn-windows #25: a Python script called cl answers with optparse's message
    report = failed(["running build_ext", "building 'nms.gpu_nms' extension",
                     "cl: error: no such option: -E"])
    assert report.first_error is not None and report.first_error.line == \
        "cl: error: no such option: -E"
    assert family(report) == "environment"


def test_cmake_that_cannot_enable_a_language_is_the_environment() -> None:
    # spconv #60 (field, training part): NMake and no compiler set
    report = failed(["-- Building for: NMake Makefiles",
                     "**CMake Error** at CMakeLists.txt:7 (project):",
                     "**CMake Error**: CMAKE_CXX_COMPILER not set, after EnableLanguage"])
    assert family(report) == "environment"


def test_cmake_whose_find_module_for_the_toolkit_fails_is_the_environment() -> None:
    # cutorch #352: FindCUDA stops the configure step
    report = failed([
        "-- Found Torch7 in /Users/Voyga/misc/torch/install",
        "CMake Error at /usr/local/Cellar/cmake/3.4.3/share/cmake/Modules/FindCUDA.cmake:617 "
        "(message):",
        "  Specify CUDA_TOOLKIT_ROOT_DIR"])
    assert family(report) == "environment"


# -- a check that CUDA is there: at build time the environment, at run time first use ---------

def test_no_cuda_in_a_build_script_is_the_environment() -> None:
    # Zooming-Slow-Mo #48: setup.py checks torch.cuda before compiling anything
    report = failed(["# bash make.sh",
                     "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'",
                     "Traceback (most recent call last):",
                     '  File "setup.py", line 42, in get_extensions',
                     "    raise NotImplementedError('Cuda is not availabel')",
                     "NotImplementedError: Cuda is not availabel"])
    assert family(report) == "environment"


def test_a_cpu_only_torch_found_at_run_time_is_first_use() -> None:
    # open-reid #97: the model's first .cuda() call
    report = failed([
        "Traceback (most recent call last):",
        '  File "C:\\envs\\open\\lib\\site-packages\\torch\\cuda\\__init__.py", line 75, in '
        "_check_driver",
        '    raise AssertionError("Torch not compiled with CUDA enabled")',
        "AssertionError: Torch not compiled with CUDA enabled"])
    assert report.first_error is not None
    assert report.first_error.line == "AssertionError: Torch not compiled with CUDA enabled"
    assert family(report) == "first-use"


# -- writing the output, not linking it ------------------------------------------------------

def test_a_linker_that_may_not_write_its_output_is_packaging_and_permission() -> None:
    # VideoProcessingFramework #270: setup.py links straight into /usr/bin
    line = ("/usr/bin/ld: cannot open output file /usr/bin/PytorchNvCodec.cpython-39-x86_64-"
            "linux-gnu.so: Permission denied")
    report = failed(["g++ -pthread -shared -Wl,-O1 build/temp/PytorchNvCodec.o -o /usr/bin/x.so",
                     line, "collect2: error: ld returned 1 exit status"])
    assert report.first_error is not None and report.first_error.line == line
    assert report.primary is not None and report.primary.cause_group == "permission-denied"
    assert dict(report.primary.facts) == {
        "path": "/usr/bin/PytorchNvCodec.cpython-39-x86_64-linux-gnu.so"}
    assert family(report) == "package"


# -- a library the linker cannot find: the log does not say why ------------------------------

def test_a_library_the_linker_cannot_find_names_no_cause() -> None:
    # DeepSpeed #3145: aio.lib, a library of a feature Windows does not have; the same line
    # comes for a package's own library that an earlier step did not build. Right after a lone
    # "test.c" and before anything compiled, it is setup.py's probe for libaio: the build
    # stopped while preparing (late sets a and b label it so; test_diagnose_late_families.py)
    report = failed(["      test.c",
                     "      LINK : fatal error LNK1181: cannot open input file 'aio.lib'"])
    assert report.primary is None
    assert family(report) == "configure"
    linked = failed(["building 'x' extension",
                     "cl.exe /c /nologo /O2 /W3 /GL /DNDEBUG /MD /Tcsrc\\x.c /Fobuild\\x.obj",
                     "LINK : fatal error LNK1181: cannot open input file 'aio.lib'"])
    assert linked.primary is None and family(linked) == "link"
    assert "not one the wizard knows" in report.describe()
    gnu = failed(["/usr/bin/ld: cannot find -lmistralcuda"])
    assert gnu.primary is None and family(gnu) == "link"
    # the CUDA driver library is a cause of its own, with its own advice
    cuda = failed(["/usr/bin/ld: cannot find -lcuda"])
    assert cuda.primary is not None and cuda.primary.cause_group == "libcuda-not-found"


# -- the first error: what the compiler said, not what wrapped it ----------------------------

def test_nvccs_count_of_errors_is_an_error_line() -> None:
    # ngp_pl #34: the excerpt keeps nvcc's count, then setuptools' wrapper
    report = failed([
        "  Building wheel for vren (setup.py) ... error",
        '      2 errors detected in the compilation of "intersection.cu".',
        "      intersection.cu",
        "      error: command 'C:\\\\CUDA\\\\v11.6\\\\bin\\\\nvcc.exe' failed with exit code 1"])
    assert report.first_error is not None
    assert report.first_error.line.strip() == \
        '2 errors detected in the compilation of "intersection.cu".'
    assert family(report) == "compile"


def test_ninjas_summary_says_more_than_pythons_report_of_ninja() -> None:
    # pytorch3d #1926: nothing else in the excerpt
    report = failed([
        "ninja: build stopped: subcommand failed.",
        "      Traceback (most recent call last):",
        "          raise CalledProcessError(retcode, process.args,",
        "      subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit "
        "status 1."])
    assert report.first_error is not None
    assert report.first_error.line == "ninja: build stopped: subcommand failed."
    assert family(report) == "compile"


def test_the_compiler_error_inside_a_jit_build_message_is_the_first_error() -> None:
    # PyTorch-Encoding #89: torch's "Error building extension" carries ninja's output
    error = ("/home/u/.local/lib/python2.7/site-packages/encoding/lib/cpu/nms_cpu.cpp:1:26: "
             "fatal error: torch/tensor.h: No such file or directory")
    report = failed([
        "RuntimeError: Error building extension 'enclib_cpu': [1/6] c++ -MMD -MF nms_cpu.o.d "
        "-DTORCH_EXTENSION_NAME=enclib_cpu -c nms_cpu.cpp -o nms_cpu.o",
        "FAILED: nms_cpu.o ",
        "c++ -MMD -MF nms_cpu.o.d -DTORCH_EXTENSION_NAME=enclib_cpu -c nms_cpu.cpp -o nms_cpu.o",
        error, " #include <torch/tensor.h>"])
    assert report.first_error is not None and report.first_error.line == error
    assert report.primary is not None and report.primary.cause_group == "torch-api-changed"
    # torch.utils.cpp_extension.load() building when the package is first imported: first-use
    # by tests/data/logs/FAMILIES.md (set a's index still says compile: see issue 31's notes)
    assert family(report) == "first-use"


# -- a program run, and code compiled when it first ran (field corpus, training part) --------

def test_a_build_step_failing_while_a_program_runs_is_first_use() -> None:
    # exllamav2 #21: the extension is compiled when chat.py first loads it
    report = failed(["PyTorch version: 2.0.1+cu117", "CUDA version: 11.7",
                     'python examples/chat.py -m model.safetensors -p "Are you alive?"',
                     "nvcc fatal   : Unknown option '-generate-dependencies-with-compile'"])
    assert report.primary is not None and report.primary.cause_group == "tool-version-required"
    assert family(report) == "first-use"
    # sglang #4120: a module run with -m
    served = failed(["python3 -m sglang.launch_server --model /m --port 8123",
                     "nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
                     "ninja: build stopped: subcommand failed."])
    assert family(served) == "first-use"
    # pydrr #6: PyCUDA compiles the kernel at run time
    pycuda = failed(["pycuda.driver.CompileError:",
                     "command: nvcc --cubin --ptxas-options=-v -arch sm_61 -m64 ...",
                     "stdout:", "nvcc fatal   : Cannot find compiler 'cl.exe' in PATH"])
    assert family(pycuda) == "first-use"


def test_a_setup_script_run_by_hand_is_a_build_not_a_program() -> None:
    # py-faster-rcnn-windows #31: "python setup_cuda.py install" builds the package
    report = failed(["python setup_cuda.py install",
                     "nvcc fatal   : Host compiler targets unsupported OS."])
    assert family(report) == "environment"


def test_a_module_that_fails_to_load_while_a_program_runs_stays_an_import() -> None:
    report = failed(['  File "/home/me/test.py", line 3, in <module>',
                     "    import deep_ep",
                     "ImportError: /x/deep_ep_cpp.cpython-312-x86_64-linux-gnu.so: undefined "
                     "symbol: _ZN3c104cuda9SetDeviceEi"])
    assert family(report) == "import"


def test_a_cause_met_at_import_is_compile_when_the_compiler_met_it() -> None:
    # bitsandbytes #1190: the platform check is a #error in a header, met by the compiler
    report = failed([
        "[ 14%] Building CXX object CMakeFiles/bitsandbytes.dir/csrc/common.cpp.o",
        "                 from /root/bitsandbytes/csrc/common.cpp:1:",
        "/root/bitsandbytes/include/Portable.h:35:2: error: #error Compiler must support SSE2",
        "   35 | #error Compiler must support SSE2"])
    assert report.primary is not None and report.primary.cause_group == "platform-unsupported"
    assert family(report) == "compile"


# -- a symptom whose cause the log itself contradicts ----------------------------------------

def test_no_kernel_image_names_pytorch_when_pytorch_itself_lacks_the_gpu() -> None:
    # pytorch #167244: PyTorch's own warning says it has no code for sm_120; "build the kernel
    # for your GPU" would mislead, the warning's line names the cause (late set d)
    lines = ["RuntimeError: CUDA error: no kernel image is available for execution on the device",
             "PyTorch prints:",
             "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the "
             "current PyTorch installation.",
             "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 "
             "sm_80 sm_86 sm_90."]
    report = failed(lines)
    assert report.primary is not None and report.retry is None
    assert report.primary.signature_id == "torch-too-old-for-gpu-arch"
    assert "sm_120" in report.primary.title and "PyTorch 2.7" in report.primary.cause
    assert all(h.cause_id != "gpu-arch-unsupported" for h in report.hits)
    assert family(report) == "first-use"
    assert report.first_error is not None and report.first_error.line == lines[0]
    # the error alone does not say whose code lacks the GPU: the family alone
    alone = failed(lines[:1])
    assert alone.primary is None and family(alone) == "first-use"
