"""First error lines and families of issue 31's late set k (tests/data/logs/late-2026-11-29k),
fixed as classes after the set was scored once: each test copies a short excerpt of the real log
it cites and asserts what a person is shown first and where the log stopped. The classes hold
whatever the cause level names (these assert no cause, except where a warning must not name one).
"""

from __future__ import annotations

from diagnose_testsupport import cause, failed, family, first

# "K name.log": the log of late set k the excerpt is copied from.


# -- a library that cannot be loaded is an import, whoever reported it ---------------------------

def test_a_library_that_cannot_be_loaded_is_import_even_when_a_run_reported_it() -> None:
    # K faster-whisper-85-windows-cudnn-ops-infer64-8-dll-error-126.log
    report = failed([
        "OUTPUT:",
        "",
        "Could not load library cudnn_ops_infer64_8.dll. Error code 126",
        "Please make sure cudnn_ops_infer64_8.dll is in your library path!",
    ])
    assert first(report) == "Could not load library cudnn_ops_infer64_8.dll. Error code 126"
    assert family(report) == "import"
    # K stable-ts-368-libcudnn-ops-infer-so-8-missing.log (a progress bar redrawn before it)
    report = failed([
        "Transcribe:   0%|          | 0/4240.94 [00:00<?, ?sec/s]Could not load library "
        "libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object "
        "file: No such file or directory",
    ])
    assert family(report) == "import"


def test_a_library_not_found_or_not_loadable_in_a_call_is_import() -> None:
    # K whisper-ctranslate2-74-colab-libcublas-so-11.log (CTranslate2 opens cuBLAS lazily)
    report = failed([
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.10/dist-packages/faster_whisper/transcribe.py", '
        "line 629, in encode",
        "    return self.model.encode(features, to_cpu=to_cpu)",
        "RuntimeError: Library libcublas.so.11 is not found or cannot be loaded",
    ])
    assert first(report) == \
        "RuntimeError: Library libcublas.so.11 is not found or cannot be loaded"
    assert family(report) == "import"


def test_the_library_named_on_a_line_of_its_own_comes_before_the_exception() -> None:
    # K ballonstranslator-404-windows-ctranslate2-cublas64-12-dll.log
    report = failed([
        "Library cublas64_12.dll is not found or cannot be loaded",
        "",
        "> Traceback (most recent call last):",
        '  File "C:\\Users\\simon\\Desktop\\BallonsTranslator_dev_src_with_gitpython\\modules'
        '\\translators\\trans_sugoi.py", line 25, in _translate',
        "    tokenized_translated = self.translator.translate_batch(tokenized_text)",
        "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded",
    ])
    assert first(report) == "Library cublas64_12.dll is not found or cannot be loaded"
    assert family(report) == "import"


def test_a_runtimes_log_line_that_a_library_failed_to_load_is_the_first_error() -> None:
    # K deep-live-cam-954-windows-onnxruntime-providers-cuda-error-126.log
    line = ("2025-02-23 00:51:23.0112321 [E:onnxruntime:Default, provider_bridge_ort.cc:1862 "
            "onnxruntime::TryGetProviderInfo_CUDA] D:\\a\\_work\\1\\s\\onnxruntime\\core\\session"
            "\\provider_bridge_ort.cc:1539 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : "
            '1 : FAIL : LoadLibrary failed with error 126 "" when trying to load "C:\\Users\\Tuga'
            '\\Desktop\\sandbox\\deeplive\\deeplive\\venv\\lib\\site-packages\\onnxruntime\\capi'
            '\\onnxruntime_providers_cuda.dll"')
    report = failed([
        "Applied providers: ['CPUExecutionProvider'], with options: {'CPUExecutionProvider': {}}",
        line,
    ])
    assert first(report) == line
    assert family(report) == "import"


def test_cudnn_not_finding_the_drivers_libcuda_at_its_first_call_stays_first_use() -> None:
    # F yolov10-395-libcudnn-cnn-infer-libcuda-so-missing-wsl.log (the driver's library, met
    # when the first convolution runs, not a library of the package)
    report = failed([
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared "
        "object file: No such file or directory",
    ])
    assert family(report) == "first-use"


# -- a tool's summary or trailer is not the first error: the line it sums up is ----------------

def test_ptxas_summary_gives_way_to_its_error_at_a_line_of_the_ptx() -> None:
    # K triton-5929-windows-comfyui-ptxas-unsupported-version-8-6.log
    report = failed([
        "`D:\\AI\\ComfyUI_windows_portable\\python_embeded>python test_triton.py",
        "ptxas C:\\Users\\JJ\\AppData\\Local\\Temp\\tmpafhfmeeh.ptx, line 5; fatal   : "
        "Unsupported .version 8.6; current version is '8.5'",
        "ptxas fatal   : Ptx assembly aborted due to errors",
        "Traceback (most recent call last):",
    ])
    assert first(report) == (
        "ptxas C:\\Users\\JJ\\AppData\\Local\\Temp\\tmpafhfmeeh.ptx, line 5; fatal   : "
        "Unsupported .version 8.6; current version is '8.5'")
    assert family(report) == "first-use"


def test_pytests_e_marker_is_a_decoration_and_triton_codegen_is_first_use() -> None:
    # K triton-4576-ptxas-unsupported-version-8-6-cuda126.log
    report = failed([
        "E                   RuntimeError: Internal Triton PTX codegen error:",
        "E                   ptxas /tmp/tmpqgu1f9dk.ptx, line 5; fatal   : Unsupported .version "
        "8.6; current version is '8.5'",
        "E                   ptxas fatal   : Ptx assembly aborted due to errors",
    ])
    assert first(report) == "E                   RuntimeError: Internal Triton PTX codegen error:"
    assert family(report) == "first-use"


def test_gccs_bug_report_trailer_gives_way_to_its_internal_compiler_error() -> None:
    # K picongpu-4730-cudafe1-stub-gcc-internal-compiler-error.log (the trailer pasted first)
    report = failed([
        "...",
        "Please submit a full bug report,",
        "with preprocessed source if appropriate.",
        "Please include the complete backtrace with any bug report.",
        "...",
        "",
        "In file included from tmpxft_0001ace7_00000000-6_CudaEvent.cudafe1.stub.c:1:",
        "/tmp/tmpxft_0001ace7_00000000-6_CudaEvent.cudafe1.stub.c:12:1016: internal compiler "
        "error: Segmentation fault",
    ])
    assert first(report) == ("/tmp/tmpxft_0001ace7_00000000-6_CudaEvent.cudafe1.stub.c:12:1016: "
                             "internal compiler error: Segmentation fault")
    assert family(report) == "compiler-crash"


def test_inductors_cppcompileerror_wraps_the_compiler_and_the_first_wrapper_is_shown() -> None:
    # K pytorch-106513-inductor-cppcompileerror-g++.log (the compiler's output left out)
    report = failed([
        '  File "/workspace/pytorch/torch/_inductor/codecache.py", line 950, in compile_file',
        "    raise exc.CppCompileError(cmd, e.output) from e",
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
        "CppCompileError: C++ compile error",
        "",
        "Command:",
        "g++ /tmp/tmpmipqltu2/wo/cwofhk5b.cpp -shared -fPIC -Wall -std=c++17",
    ])
    assert first(report) == "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:"
    assert family(report) == "first-use"


def test_cmakes_closing_line_gives_way_to_the_message_it_sums_up() -> None:
    # K natten-88-cmake-python-launch-failed.log (CMake's header left out)
    report = failed([
        "        Python launch failed.",
        "      ",
        "      ",
        "      -- Configuring incomplete, errors occurred!",
        '      See also "/tmp/pip-install-p_zo10cc/natten/build/CMakeFiles/CMakeOutput.log".',
        "      Traceback (most recent call last):",
    ])
    assert first(report) == "Python launch failed."
    assert family(report) == "configure"


def test_pips_failed_wheel_says_less_than_the_command_that_failed() -> None:
    # K overlock-2-natten-cmake-configure-exit-1.log
    called = ("      subprocess.CalledProcessError: Command '['cmake', '/tmp/pip-install-_chbmx_z/"
              "natten/csrc', '-DNATTEN_WITH_CUDA=1']' returned non-zero exit status 1.")
    report = failed([
        called,
        "      [end of output]",
        "",
        "  note: This error originates from a subprocess, and is likely not a problem with pip.",
        "  ERROR: Failed building wheel for natten",
        "  Running setup.py clean for natten",
        "Failed to build natten",
    ])
    assert first(report) == called.strip()


def test_a_warning_gives_way_to_a_tools_failure_after_it() -> None:
    # K frnn-14-windows-link-exe-1120-zh.log: cl's version check failed, the linker ran
    report = failed([
        "pip install -e .",
        "",
        "D:\\Anaconda\\envs\\SPT\\lib\\site-packages\\torch\\utils\\cpp_extension.py:359: "
        "UserWarning: Error checking compiler version for cl: [WinError 2] 系统找不到指定的文件。",
        " warnings.warn(f'Error checking compiler version for {compiler}: {error}')",
        "error: command 'C:\\\\Program Files\\\\Microsoft Visual Studio\\\\2022\\\\Community\\\\VC"
        "\\\\Tools\\\\MSVC\\\\14.37.32822\\\\bin\\\\HostX86\\\\x64\\\\link.exe' failed with exit "
        "code 1120",
        "[end of output]",
    ])
    assert first(report) is not None and first(report).endswith(  # type: ignore[union-attr]
        "link.exe' failed with exit code 1120")
    assert family(report) == "link"
    assert cause(report) is None  # (not "cl.exe not found": it ran)


def test_a_sentence_quoting_the_tools_error_beats_a_title_that_only_says_error() -> None:
    # K diff-mts-1-torch-2-1-2-cu121-requirements-zh.log
    sentence = ("使用pip install -r requirements.txt下载所需依赖时，其中的torch==2.1.2+cu121报错，"
                "ERROR: Could not find a version that satisfies the requirement torch==2.1.2+cu121"
                " ，ERROR: No matching distribution found for torch==2.1.2+cu121")
    report = failed(["# torch==2.1.2+cu121报错", sentence, "能否更新一下requirements.txt"])
    assert first(report) == sentence
    assert family(report) == "resolve"


# -- families by the line's shape ---------------------------------------------------------------

def test_a_compiler_driver_rejecting_an_option_is_environment() -> None:
    # K velocyto-74-macos-clang-unsupported-option-fopenmp.log (Apple's clang has no OpenMP)
    report = failed([
        "`gcc -Wno-unused-result -Wsign-compare -DNDEBUG -g -fwrapv -O3 -Wall -arch x86_64 "
        "-I/Users/ddiaz/anaconda3/include -c velocyto/speedboosted.c -o build/speedboosted.o "
        "-fopenmp",
        "    clang: error: unsupported option '-fopenmp'",
        "    error: command 'gcc' failed with exit status 1`",
    ])
    assert first(report) == "clang: error: unsupported option '-fopenmp'"
    assert family(report) == "environment"


def test_a_library_headers_check_of_the_compiler_version_is_environment() -> None:
    # K py-faster-rcnn-windows-34-stl1001-unexpected-compiler-version.log
    report = failed([
        "C:/Program Files (x86)/VisualStudio2019/VC/Tools/MSVC/14.27.29110/include\\yvals_core.h"
        "(498): fatal error C1189: #error:  STL1001: Unexpected compiler version, expected MSVC "
        "19.26 or newer.",
        "error: command 'C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v10.1"
        "\\\\bin\\\\nvcc.exe' failed with exit status 2",
    ])
    assert family(report) == "environment"


def test_the_compilers_wording_without_a_file_is_compile() -> None:
    # K spconv-720-py312-expf-device-from-host-device.log
    report = failed([
        "hitting some issues with trying to build the latest wheel 2.3.6 on python 3.12",
        'error: calling a __device__ function("__expf") from a __host__ __device__ '
        'function("fast_exp") is not allowed',
    ])
    assert family(report) == "compile"
    # K dcnv2-latest-75-windows-th-h-c1083-zh.log (MSVC's code before a full-width colon)
    report = failed([
        "您好，我的配置与您相同，但始终报错，我用的是visual studio2022，报错如下：致命错误 C1083："
        "无法打开包括文件：“TH/TH.h”：没有这样的文件或目录",
    ])
    assert family(report) == "compile"


def test_make_naming_an_object_that_failed_shows_the_compiler_crashed() -> None:
    # K pytorch-38638-nccl-device-build-segfault-error-139.log (Error 139: signal 11)
    report = failed([
        "Segmentation fault (core dumped)",
        "/home/pfyang/software/pytorch/build/nccl/obj/collectives/device/Makefile.rules:732: "
        "recipe for target '/home/pfyang/software/pytorch/build/nccl/obj/collectives/device/"
        "reduce_scatter_sum_i32.o' failed",
        "make[2]: *** [/home/pfyang/software/pytorch/build/nccl/obj/collectives/device/"
        "reduce_scatter_sum_i32.o] Error 139",
    ])
    assert first(report) == "Segmentation fault (core dumped)"
    assert family(report) == "compiler-crash"


def test_msvcs_linker_on_an_object_of_torchs_jit_build_is_first_use() -> None:
    # K exllama-pr36-windows-lnk2019-cublashgemm.log (torch's build.ninja names x.cuda.o)
    report = failed([
        "half_matmul.cuda.o : error LNK2019: unresolved external symbol cublasHgemm referenced "
        'in function "enum cudaError __cdecl half_matmul_cublas_cuda(struct __half const *)"',
        "exllama_ext.pyd : fatal error LNK1120: 1 unresolved externals",
        "ninja: build stopped: subcommand failed.",
    ])
    assert family(report) == "first-use"
    # K autogptq-247-windows-exllama-kernels-lnk2001-cublashgemm-fr.log: a setup.py build's
    # object (.obj) is the link of a build
    report = failed([
        "      q4_matmul.obj : error LNK2001: symbole externe non r‚solu cublasHgemm",
    ])
    assert family(report) == "link"


def test_an_assert_a_traceback_quotes_is_the_failure_where_the_exception_was_cut() -> None:
    # field/sageattention-173-sm89-kernel-not-available.log (the AssertionError line left out)
    source = ('    assert SM89_ENABLED, "SM89 kernel is not available. Make sure you GPUs with '
              'compute capability 8.9."')
    report = failed([
        'File "/home/me/anaconda3/envs/ComfyUI-Env/lib/python3.12/site-packages/sageattention/'
        'core.py", line 666, in sageattn_qk_int8_pv_fp8_cuda',
        source,
        "           ^^^^^^^^^^^^",
    ])
    assert first(report) == source.strip()
    assert family(report) == "first-use"  # (raised in a call, no import in the traceback)


def test_onnxruntimes_warning_level_is_not_an_error_line_of_its_own() -> None:
    # K deep-live-cam-954 (its error level, "[E:onnxruntime:...]", is the first error above); the
    # same line at the warning level is followed by a run on the CPU
    from kernel_wizard.diagnose.matcher import _ERROR_LINE

    line = ('2025-02-23 00:51:23.0112321 [{}:onnxruntime:Default, provider_bridge_ort.cc:1862 '
            'onnxruntime::TryGetProviderInfo_CUDA] ... [ONNXRuntimeError] : 1 : FAIL : '
            'LoadLibrary failed with error 126 "" when trying to load "C:\\venv\\lib\\'
            'site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"')
    assert _ERROR_LINE.search(line.format("E")) is not None
    assert _ERROR_LINE.search(line.format("W")) is None


def test_ninja_naming_an_object_that_failed_shows_the_compiler_ran() -> None:
    # as make's "*** [x.o] Error 139" (K pytorch-38638), ninja's "FAILED: x.o" under the shell's
    # report that a program crashed
    report = failed([
        "Segmentation fault (core dumped)",
        "FAILED: /home/pfyang/software/pytorch/build/nccl/obj/collectives/device/"
        "reduce_scatter_sum_i32.o",
    ])
    assert family(report) == "compiler-crash"


def test_ptxas_on_a_ptx_file_pythons_tempfile_named_is_code_generated_at_first_use() -> None:
    # K triton-4576-ptxas-unsupported-version-8-6-cuda126.log, without Triton's own header line:
    # the file's name (tmp + 8 characters) is Python's tempfile's, not nvcc's tmpxft_...
    report = failed([
        "ptxas /tmp/tmpqgu1f9dk.ptx, line 5; fatal   : Unsupported .version 8.6; current "
        "version is '8.5'",
        "ptxas fatal   : Ptx assembly aborted due to errors",
    ])
    assert first(report) == ("ptxas /tmp/tmpqgu1f9dk.ptx, line 5; fatal   : Unsupported .version "
                             "8.6; current version is '8.5'")
    assert family(report) == "first-use"


def test_cppcompileerror_under_another_exception_is_still_a_wrapper() -> None:
    # K pytorch-179135-inductor-cpu-openmp-not-found-cppcompileerror.log (newer PyTorch wraps it
    # in InductorError; the compiler's output left out, so the wrapper is shown)
    report = failed([
        "--> 633 raise exc.CppCompileError(cmd, output) from e",
        "",
        "InductorError: CppCompileError: C++ compile error",
    ])
    assert first(report) == "InductorError: CppCompileError: C++ compile error"
    # with the compiler's output in the log, the compiler's error is the first error
    report = failed([
        "InductorError: CppCompileError: C++ compile error",
        "",
        "Output:",
        "/tmp/tmpx/c2/cc2x.cpp:2:10: fatal error: omp.h: No such file or directory",
    ])
    assert first(report) == \
        "/tmp/tmpx/c2/cc2x.cpp:2:10: fatal error: omp.h: No such file or directory"


def test_a_library_that_could_not_be_located_is_import() -> None:
    # K speech-recognition-835-windows-cudnn-ops64-9-dll.log (CTranslate2 with cuDNN 9)
    report = failed([
        "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!",
    ])
    assert first(report) == \
        "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!"
    assert family(report) == "import"


def test_clangs_frontend_failing_by_a_signal_is_a_compiler_crash() -> None:
    # no log of the sets has it: clang's wording of what nvcc says as "'cicc' died due to signal
    # 9" (late sets a, b, d, f, j), the same class (the compiler itself stopped)
    report = failed([
        "building 'velocyto.speedboosted' extension",
        "clang: error: clang frontend command failed due to signal (use -v to see invocation)",
    ])
    assert family(report) == "compiler-crash"
