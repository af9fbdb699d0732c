"""Classes of first-error and family mistakes found across issue 31's late sets a-g, fixed as
classes (each case below is written from the class, not copied from one log): the line a person
is shown first is the one that says why, and the family names where the log really stopped.
"""

from __future__ import annotations

from diagnose_testsupport import failed, family, fed, first


def test_git_saying_not_a_checkout_in_another_language_is_not_the_failure() -> None:
    # setup scripts ask git for a version in a source tree that is not a checkout and carry on;
    # in a Chinese or German locale git says so in words the English ignore rule did not read
    for notice in ("fatal: 不是 git 仓库（或者任何父目录）：.git",
                   "fatal: Kein Git-Repository (oder irgendeines der Elternverzeichnisse): .git"):
        report = failed([
            "running build_ext",
            notice,
            "RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.",
        ])
        assert first(report) == "RuntimeError: FlashAttention is only supported on CUDA 11.6 " \
            "and above."


def test_pythons_report_that_the_compiler_failed_is_not_shown_over_the_compilers_error() -> None:
    # a post that pastes the summary first and the compiler's message under it
    report = failed([
        "distutils.errors.CompileError: command 'C:\\\\VS\\\\bin\\\\cl.exe' failed with exit "
        "status 2",
        "error C2872: 'std': ambiguous symbol",
    ])
    assert first(report) == "error C2872: 'std': ambiguous symbol"
    assert family(report) == "compile"


def test_a_web_ui_launcher_that_could_not_install_torch_shows_pips_reason() -> None:
    report = failed([
        "Installing torch and torchvision",
        "Traceback (most recent call last):",
        '  File "C:\\webui\\launch.py", line 33, in run',
        "    raise RuntimeError(message)",
        "RuntimeError: Couldn't install torch.",
        'Command: "C:\\webui\\venv\\Scripts\\python.exe" -m pip install torch==1.12.1+cu113',
        "Error code: 1",
        "stderr: ERROR: Could not find a version that satisfies the requirement "
        "torch==1.12.1+cu113 (from versions: none)",
        "ERROR: No matching distribution found for torch==1.12.1+cu113",
    ])
    assert first(report) == ("stderr: ERROR: Could not find a version that satisfies the "
                             "requirement torch==1.12.1+cu113 (from versions: none)")
    assert family(report) == "resolve"


def test_the_shells_killed_gives_way_to_the_compiler_naming_itself() -> None:
    report = failed([
        "[ 74%] Building CXX object src/CMakeFiles/core.dir/layer.cpp.o",
        "Killed",
        "c++: internal compiler error: Killed (program cc1plus)",
        "Please submit a full bug report,",
    ])
    assert first(report) == "c++: internal compiler error: Killed (program cc1plus)"
    assert family(report) == "compiler-crash"
    # a "Killed" followed by anything else stays the first error
    alone = failed(["[2/33] c++ -MMD -MF a.o.d -c a.cpp -o a.o", "Killed",
                    "[3/33] c++ -MMD -MF b.o.d -c b.cpp -o b.o"])
    assert first(alone) == "Killed"


def test_uvs_error_chain_shows_the_cause_and_counts_as_resolving() -> None:
    report = failed([
        "Resolved 120 packages in 2.1s",
        "error: Failed to determine installation plan",
        "  Caused by: A URL dependency is incompatible with the current platform: "
        "https://example.org/flash_attn-2.8.3-cp312-cp312-linux_x86_64.whl",
    ])
    assert first(report) == ("Caused by: A URL dependency is incompatible with the current "
                             "platform: https://example.org/flash_attn-2.8.3-cp312-cp312-"
                             "linux_x86_64.whl")
    assert family(report) == "resolve"
    # a cause that only says a command failed is not the reason: the output above it says more
    chained = failed(["error: Failed to resolve the build requirements",
                      "  Caused by: Call to `setuptools.build_meta.build_wheel` failed (exit "
                      "code: 1)"])
    assert first(chained) == "error: Failed to resolve the build requirements"


def test_a_library_the_cuda_runtime_loads_when_a_kernel_runs_is_first_use() -> None:
    # cuDNN opens its sub-libraries at the first convolution, cuda-python the driver at its
    # first call: the import succeeded, the first use failed
    for line in ("Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot "
                 "open shared object file: No such file or directory",
                 "RuntimeError: Failed to dlopen libcuda.so"):
        report = failed(["python predict.py --image a.png", line])
        assert family(report) == "first-use", line
    # a module that fails to load while being imported stays an import
    report = failed(["python -c 'import mypkg'",
                     "ImportError: libcudart.so.11.0: cannot open shared object file: No such "
                     "file or directory"])
    assert family(report) == "import"


def test_nvcc_refusing_its_own_set_up_is_the_environment_not_the_source() -> None:
    # an architecture the toolkit does not know, Visual Studio it cannot set up: the next step
    # is the toolkit or the compiler, whatever the package's source says
    for line in ("nvcc fatal   : Unsupported gpu architecture 'compute_N'",
                 "nvcc fatal   : Could not set up the environment for Microsoft Visual Studio "
                 "using 'C:/Program Files (x86)/Microsoft Visual Studio/2019/Community/VC/"
                 "Auxiliary/Build/vcvars64.bat'"):
        report = failed(["running build_ext", "building 'ext' extension", line])
        assert family(report) == "environment", line
    # the compiler rejecting the package's source stays compile
    source = failed(["running build_ext", "building 'ext' extension",
                     "csrc/ext.cu(12): error: identifier \"foo\" is undefined"])
    assert family(source) == "compile"


def test_torch_jit_build_lines_show_code_compiled_when_first_used() -> None:
    # torch.utils.cpp_extension.load() writes its objects without a folder ("-MF x.o.d"); a
    # setup.py or CMake build names them under build/temp... or CMakeFiles/
    jit = failed([
        "[2/3] c++ -MMD -MF fused_adam_frontend.o.d -DTORCH_EXTENSION_NAME=fused_adam -c "
        "/opt/conda/lib/python3.9/site-packages/deepspeed/ops/csrc/adam/fused_adam.cpp -o "
        "fused_adam_frontend.o",
        "nvcc fatal   : Value 'c++17' is not defined for option 'std'",
    ])
    assert family(jit) == "first-use"
    built = failed([
        "[2/3] c++ -MMD -MF /src/build/temp.linux-x86_64-cpython-39/csrc/a.o.d -c "
        "/src/csrc/a.cpp -o /src/build/temp.linux-x86_64-cpython-39/csrc/a.o",
        "nvcc fatal   : Value 'c++17' is not defined for option 'std'",
    ])
    assert family(built) == "environment"


def test_pytorchs_checks_before_compiling_are_the_environment() -> None:
    for line in ("RuntimeError: The current installed version of g++ (4.8.5) is less than the "
                 "minimum required version by CUDA 11.7 (6.0.0). Please make sure to use an "
                 "adequate version of g++ (>=6.0.0, <12.0).",
                 "ValueError: Unknown CUDA arch (9.0+PTX) or GPU not supported"):
        assert family(failed([line])) == "environment", line


def test_a_missing_file_on_a_windows_path_past_the_limit_is_the_long_path_limit() -> None:
    deep = ("C:\\\\Users\\\\me\\\\AppData\\\\Local\\\\Temp\\\\pip-install-3qqihbuf\\\\"
            "flash-attn_457f7cae655c4b80ae656b803b9bc86b\\\\csrc\\\\composable_kernel\\\\library"
            "\\\\include\\\\ck\\\\library\\\\tensor_operation_instance\\\\gpu\\\\"
            "grouped_conv_bwd_weight\\\\device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp")
    report = failed(["ERROR: Could not install packages due to an OSError: [Errno 2] No such "
                     f"file or directory: '{deep}'"])
    assert report.primary is not None and report.primary.cause_group == "windows-long-paths"
    assert family(report) == "environment"
    # a short path that is missing is just missing
    short = failed(["ERROR: Could not install packages due to an OSError: [Errno 2] No such "
                    "file or directory: 'C:\\\\src\\\\LICENSE'"])
    assert short.primary is None or short.primary.cause_group != "windows-long-paths"


def test_pytorchs_own_cpu_only_check_names_pytorch_not_the_package() -> None:
    report = failed([
        # (the line alone named a wrong cause on late set a: named with a CPU build in the log)
        "Successfully installed torch-2.1.0+cpu",
        "Traceback (most recent call last):",
        '  File "demo.py", line 12, in <module>',
        "    model = model.cuda()",
        '  File "C:\\envs\\x\\lib\\site-packages\\torch\\cuda\\__init__.py", line 239, in '
        "_lazy_init",
        '    raise AssertionError("Torch not compiled with CUDA enabled")',
        "AssertionError: Torch not compiled with CUDA enabled"])
    assert report.primary is not None
    assert report.primary.cause_group == "built-without-cuda"
    advice = f"{report.primary.title} {report.primary.fix}"
    assert "CPU-only build" in advice and "download.pytorch.org/whl/" in advice
    assert "Rebuild" not in advice  # the package is not what lacks CUDA
    assert family(report) == "first-use"


def test_apples_linker_missing_libcuda_is_the_driver_library() -> None:
    report = failed([
        "gcc -bundle -undefined dynamic_lookup build/temp/cpyrit/_cpyrit_cuda.o -lcuda -o "
        "build/lib/cpyrit/_cpyrit_cuda.so",
        "ld: library not found for -lcuda",
        "collect2: ld returned 1 exit status",
    ])
    assert report.primary is not None and report.primary.cause_group == "libcuda-not-found"
    assert first(report) == "ld: library not found for -lcuda"


def test_a_failed_log_in_words_alone_still_shows_the_line_that_says_what_went_wrong() -> None:
    # bitsandbytes' set-up report: no "error:" anywhere, the failure in its own words
    report = failed([
        "bin /home/me/bitsandbytes/libbitsandbytes_cpu.so",
        "CUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so",
        "CUDA SETUP: Required library version not found: libbitsandbytes_cuda113_nocublaslt.so. "
        "Maybe you need to compile it from source?",
        "CUDA SETUP: Defaulting to libbitsandbytes_cpu.so...",
    ])
    assert first(report) == ("CUDA SETUP: Required library version not found: "
                             "libbitsandbytes_cuda113_nocublaslt.so. Maybe you need to compile "
                             "it from source?")
    # a log that did not fail is not given one
    assert fed_clean(["CUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so",
                      "CUDA SETUP: WARNING! libcuda.so not found!"]) is None


def fed_clean(lines: list[str]) -> str | None:
    """The first error of a log whose process did not fail."""
    return first(fed(lines).summary())
