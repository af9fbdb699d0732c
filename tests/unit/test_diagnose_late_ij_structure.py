"""First error lines and families of issue 31's late sets i and j (tests/data/logs/
late-2026-11-28i, late-2026-11-28j), fixed as classes: each test copies a short excerpt of the
real log it cites and asserts what a person is shown first and where the log stopped. The
classes hold whatever the cause level names (these assert no cause).
"""

from __future__ import annotations

from diagnose_testsupport import failed, family, first

# "I name.log" / "J name.log": the log of late set i or j the excerpt is copied from.


# -- the first error line --------------------------------------------------------------------

def test_a_bare_error_label_is_not_the_first_error_the_line_under_it_is() -> None:
    # J caffe2-pytorch-13175-ld-cannot-find-lcudart-lnvrtc.log
    report = failed([
        "Ubuntu 16.04, cuda 8.0, cudnn 7.1.3, caffe2 tag v0.4.0",
        "",
        "error: ",
        "/usr/bin/ld: cannot find -lcudart",
        "/usr/bin/ld: cannot find -lnvrtc",
    ])
    assert first(report) == "/usr/bin/ld: cannot find -lcudart"
    assert family(report) == "link"


def test_cmakes_closing_line_stands_over_a_traceback_header() -> None:
    # I vllm-windows-39-blackwell-sm120-configuring-incomplete-zh.log
    report = failed([
        "pip install -vvv vllm",
        "  -- Configuring incomplete, errors occurred!",
        "  Traceback (most recent call last):",
        '    File "E:\\conda\\envs\\vllm\\lib\\site-packages\\setuptools\\build_meta.py", '
        "line 317, in run_setup",
        "      exec(code, locals())",
        '    File "<string>", line 989, in <module>',
    ])
    assert first(report) == "-- Configuring incomplete, errors occurred!"
    assert family(report) == "configure"


def test_pips_failed_wheel_is_shown_when_the_build_output_was_left_out() -> None:
    # I sam-3d-objects-89-failed-building-wheel-pytorch3d.log
    report = failed([
        "$ pip install -e '.[p3d]'",
        "...",
        " note: This error originates from a subprocess, and is likely not a problem with pip.",
        "  ERROR: Failed building wheel for pytorch3d",
        "  Running setup.py clean for pytorch3d",
        "Successfully built sam3d_objects flash-attn",
        "Failed to build pytorch3d",
        "ERROR: Failed to build installable wheels for some pyproject.toml based projects "
        "(pytorch3d)",
    ])
    assert first(report) == "ERROR: Failed building wheel for pytorch3d"


def test_the_windows_loaders_dialog_is_a_first_error() -> None:
    # I forge-2746-xformers-cu128-wheel-procedure-entry-point-c10.log
    report = failed([
        "I did the whole install process and then installed this version of xformers, but "
        "when I start with xformers I get the following error:",
        "",
        "The procedure entry point",
        "?_singleton@UndefinedTensorImpl@c10@@0U12@A could",
        "not be located in the dynamic link library",
        "C:\\stable-diffusion-webui-forge\\venv\\Lib\\site-packages\\xformers\\_C.pyd.",
    ])
    assert first(report) == "The procedure entry point"


def test_torchs_internal_assert_is_a_first_error_met_when_code_runs() -> None:
    # I res4lyf-210-flash-attention-schema-internal-assert-windows.log
    line = ('`Flash Attention failed, using default SDPA: schema_.has_value() INTERNAL ASSERT '
            'FAILED at "C:\\\\actions-runner\\\\_work\\\\pytorch\\\\pytorch\\\\pytorch\\\\aten'
            '\\\\src\\\\ATen/core/dispatch/OperatorEntry.h":84, please report a bug to PyTorch.')
    report = failed([
        "Hi, I noticed I started getting the following error during inference right after "
        "installing the node pack:",
        "",
        line,
    ])
    assert first(report) == line
    assert family(report) == "first-use"


def test_a_python_warning_is_the_last_resort_and_cuda_initialisation_is_first_use() -> None:
    # I pytorch-150048-wsl2-cudagetdevicecount-error-2-out-of-memory.log
    warning = ("/home/user/another/lib/python3.12/site-packages/torch/cuda/__init__.py:129: "
               "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). "
               "Did you run some cuda functions before calling NumCudaDevices() that might have "
               "already set an error? Error 2: out of memory (Triggered internally at "
               "/pytorch/c10/cuda/CUDAFunctions.cpp:109.)")
    report = failed([
        ">>> import torch",
        ">>> torch.cuda.is_available()",
        warning,
        "  return torch._C._cuda_getDeviceCount() > 0",
        "False",
    ])
    assert first(report) == warning
    assert family(report) == "first-use"  # the GPU's runtime, not a compiler out of memory


def test_a_package_not_finding_its_own_native_library_is_the_first_error_at_import() -> None:
    # I bitsandbytes-1510-windows-rtx5090-cuda128-dll-missing.log (the line after it names
    # another symptom); late set h's bitsandbytes-1559 has the same shape
    line = ("Could not find the bitsandbytes CUDA binary at WindowsPath('A:/ai/comfy_me/ComfyUI/"
            "venv/lib/site-packages/bitsandbytes/libbitsandbytes_cuda128.dll')")
    report = failed([line, "Could not load bitsandbytes native library: /x/libbitsandbytes_cpu."
                     "so: cannot open shared object file: No such file or directory"])
    assert first(report) == line
    assert family(report) == "import"


def test_a_host_compiler_reported_missing_is_the_first_error_and_environment() -> None:
    # J simple-knn-vllm-3541-gcc-missing-nvcc-host-compiler.log
    report = failed([
        "      FAILED: /home/zhang/MonoGS/submodules/simple-knn/build/"
        "temp.linux-x86_64-cpython-37/spatial.o",
        "      /usr/local/cuda-11.6/bin/nvcc  -I/home/zhang/anaconda3/envs/MonoGS/lib/python3.7/"
        "site-packages/torch/include -c spatial.cu -o spatial.o -std=c++14",
        "      gcc: No such file or directory",
        "      nvcc fatal   : Failed to preprocess host compiler properties.",
    ])
    assert first(report) == "gcc: No such file or directory"
    assert family(report) == "environment"


def test_cmakes_message_under_its_header_says_what_failed() -> None:
    # J llama-cpp-python-700-windows-cc-set-to-cmake-exe.log
    report = failed([
        "      CMake Error at C:/Users/mark/AppData/Local/Temp/pip-build-env-kzjd2rgx/overlay/"
        "Lib/site-packages/cmake/data/share/cmake-3.27/Modules/CMakeTestCCompiler.cmake:67 "
        "(message):",
        "        The C compiler",
        "",
        '          "C:/Program Files/CMake/bin/cmake.exe"',
        "",
        "        is not able to compile a simple test program.",
    ])
    assert first(report) == "is not able to compile a simple test program."
    assert family(report) == "environment"  # no working compiler: a prerequisite


def test_the_linkers_context_line_is_not_the_first_error() -> None:
    # I amgcl-232-solver-cuda-undefined-fatbinwrap-cuda-device-runtime.log
    report = failed([
        "/usr/lib64/gcc/x86_64-suse-linux/7/../../../../x86_64-suse-linux/bin/ld: "
        "CMakeFiles/solver_cuda.dir/solver_cuda_intermediate_link.o: in function "
        "`__cudaRegisterLinkedBinary_38_cuda_device_runtime_compute_86_cpp1_ii_8b1a5d37':",
        "link.stub:(.text+0xad): undefined reference to "
        "`__fatbinwrap_38_cuda_device_runtime_compute_86_cpp1_ii_8b1a5d37'",
    ])
    assert first(report) == ("link.stub:(.text+0xad): undefined reference to "
                             "`__fatbinwrap_38_cuda_device_runtime_compute_86_cpp1_ii_8b1a5d37'")
    assert family(report) == "link"


def test_a_persons_sentence_about_the_error_gives_way_to_the_logs_own_line() -> None:
    # I comfyui-11699-comfy-kitchen-dll-load-failed-c-zh.log
    log_line = ("Found comfy_kitchen backend cuda: {'available': False, 'disabled': True, "
                "'unavailable_reason': 'DLL load failed while importing _C: 找不到指定的模块。', "
                "'capabilities': []}")
    report = failed([
        "****I've already upgraded comfy_kitchen to 0.2.3, but starting ComfyUI still prompts "
        "'DLL load failed while importing _C: The specified module could not be found'.**Could "
        "you please teach me how to solve this problem?**",
        "",
        "pytorch version: 2.9.1+cu128",
        log_line,
    ])
    assert first(report) == log_line
    assert family(report) == "import"


def test_a_persons_sentence_stays_the_first_error_where_the_log_has_nothing_else() -> None:
    sentence = ("I've already upgraded it, but it still prompts 'DLL load failed while "
                "importing _C: The specified module could not be found'.")
    assert first(failed([sentence, "", "pytorch version: 2.9.1+cu128"])) == sentence


def test_the_first_of_two_wrappers_is_shown_where_nothing_else_is() -> None:
    # J fastfcn-49-enclib-gpu-cuda-home-path-list.log: torch's JIT build names the command
    line = ("RuntimeError: Error building extension 'enclib_gpu': [1/3] :/usr/local/cuda-8.0:"
            "/root/cuda:/usr/local/cuda-9.0/bin/nvcc -DTORCH_EXTENSION_NAME=enclib_gpu -c "
            "encoding_kernel.cu -o encoding_kernel.cuda.o")
    report = failed([line, "FAILED: encoding_kernel.cuda.o "])
    assert first(report) == line
    assert family(report) == "first-use"


# -- the family ------------------------------------------------------------------------------

def test_a_prerequisite_reported_missing_is_environment_wherever_it_surfaced() -> None:
    # I jetson-containers-1174-update-alternatives-gcc-12-missing.log,
    # I mamba-68-wsl2-causal-conv1d-no-module-wheel-packaging.log,
    # J alphapose-413-nvcc-binary-could-not-be-located.log
    for lines in (
        ["update-alternatives: error: alternative path /usr/bin/gcc-12 doesn't exist"],
        ["Error: ModuleNotFoundError for 'wheel'"],
        ["running build_ext",
         "OSError: The nvcc binary could not be located in your $PATH. Either add it to your "
         "path, or set $CUDAHOME"],
    ):
        assert family(failed(lines)) == "environment", lines


def test_the_toolkits_host_compiler_check_is_environment_whatever_its_cut() -> None:
    # I mamba-yolo-5-selective-scan-unsupported-visual-studio-cuda-12-1.log (the line is cut
    # before "unsupported Microsoft Visual Studio version")
    report = failed([
        "running build_ext",
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1\\include\\crt/"
        "host_config.h(153): fatal error C1189: #error:  -- unsupp",
    ])
    assert family(report) == "environment"


def test_an_installed_packages_source_compiled_without_a_build_is_first_use() -> None:
    # J deepspeed-889-cpu-adam-cuda-profiler-api-h-missing.log,
    # J comfyui-docker-42-comfyui-3d-pack-nvdiffrast-egl-h.log
    for line in (
        "/root/anaconda3/envs/bitten/lib/python3.8/site-packages/deepspeed/ops/csrc/includes/"
        "gemm_test.h:6:10: fatal error: cuda_profiler_api.h: No such file or directory",
        "/usr/local/lib/python3.11/site-packages/nvdiffrast/torch/../common/glutil.h:36:10: "
        "fatal error: EGL/egl.h: No such file or directory",
    ):
        assert family(failed([line])) == "first-use", line


def test_torch_compile_looking_for_triton_is_first_use() -> None:
    # I pytorch-136361-torch-compile-windows-no-triton.log
    report = failed([
        "RuntimeError: Cannot find a working triton installation. Either the package is not "
        "installed or it is too old. More information on installing Triton can be found at "
        "https://github.com/openai/triton",
    ])
    assert family(report) == "first-use"


# -- classes that the sets i and j showed, fixing logs of the earlier sets (a-h) --------------

def test_pips_error_code_line_is_not_the_first_error() -> None:
    # late set h qwen3-tts-293-flash-attn-error-compiling-objects-cuda131-rtx5070ti.log
    report = failed([
        "     RuntimeError: Error compiling objects for extension",
        "      [end of output]",
        "  note: This error originates from a subprocess, and is likely not a problem with pip.",
        "  ERROR: Failed building wheel for flash-attn",
        "Failed to build flash-attn",
        "error: failed-wheel-build-for-install",
    ])
    assert first(report) == "RuntimeError: Error compiling objects for extension"
    assert family(report) == "compile"


def test_the_network_failing_on_a_line_of_its_own_comes_before_pips_verdict() -> None:
    # late set b llava-1165-flash-attn-no-matching-distribution-dns.log
    report = failed([
        "Failed to establish a new connection: [Errno -3] Temporary failure in name "
        "resolution')': /simple/flash-attn/",
        "ERROR: Could not find a version that satisfies the requirement flash-attn (from "
        "versions: none)",
    ])
    assert first(report) == ("Failed to establish a new connection: [Errno -3] Temporary "
                             "failure in name resolution')': /simple/flash-attn/")
    assert family(report) == "resolve"


def test_an_error_quoted_in_a_sentence_is_found_where_nothing_else_is() -> None:
    # late set h medrag-1-torch-211-cu121-no-matching-distribution-windows.log and
    # groundingdino-49-nvcc-cannot-find-cl-exe-zh-windows.log
    line = ("Installing `pip install -r requirements.txt` throws error: No matching distribution "
            "found for torch==2.1.1+cu121")
    report = failed(["**os:** Windows11", "", line])
    assert first(report) == line
    assert family(report) == "resolve"
    zh = ("在Windows系统中安装该项目 nvcc 执行命令时未找到cl.exe 可是我环境变量都没问题 "
          "我也测试过了，为什么会这样呢")
    report = failed([zh])
    assert first(report) == zh
    assert family(report) == "environment"


def test_the_compiler_exiting_with_an_error_status_is_compile() -> None:
    # late set h dcnv4-63-nvcc-exit-code-2-cuda118-windows.log
    report = failed([
        "Why is this error occurring and how can I fix it？C:\\\\Program Files\\\\NVIDIA GPU "
        "Computing Toolkit\\\\CUDA\\\\v11.8\\\\bin\\\\nvcc.exe' failed with exit code 2. "
        "Thank you.",
    ])
    assert family(report) == "compile"


def test_the_compiler_driver_not_finding_a_library_to_link_is_link() -> None:
    # late set h pvnet-40-gcc-error-libcudart-cuda80-no-such-file.log
    report = failed([
        "running build_ext",
        "building '_extend_utils' extension",
        "gcc -pthread -B /home/y/anaconda3/envs/z/compiler_compat -fPIC -c _extend_utils.c -o "
        "./_extend_utils.o",
        "gcc: error: /usr/local/cuda-8.0/lib64/libcudart.so: No such file or directory",
    ])
    assert family(report) == "link"


def test_windows_file_not_found_without_a_file_name_is_a_program_not_found() -> None:
    # late set h flash-attention-203-pip-install-winerror-2-windows.log
    report = failed(["```FileNotFoundError: [WinError 2] The system cannot find the file "
                     "specified```"])
    assert family(report) == "environment"


# -- a log whose every line is decorated reads as the log without it ---------------------------

_TRACEBACK = [  # late set a flownet2-pytorch-218-cuda-home-not-set.log (as pasted, shortened)
    "Traceback (most recent call last):",
    '  File "setup.py", line 62, in <module>',
    "    cmdclass={'build_ext': BuildExtension}",
    '  File "/home/u/.local/lib/python3.6/site-packages/torch/utils/cpp_extension.py", line '
    "476, in CUDAExtension",
    "    library_dirs += library_paths(cuda=True)",
    '  File "/home/u/.local/lib/python3.6/site-packages/torch/utils/cpp_extension.py", line '
    "555, in _join_cuda_home",
    "    raise EnvironmentError('CUDA_HOME environment variable is not set. '",
    "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install "
    "root.",
]


def test_a_quoted_stamped_or_rank_prefixed_log_finds_the_same_first_error_and_family() -> None:
    plain = failed(_TRACEBACK)
    assert first(plain) == _TRACEBACK[-1]
    for prefix in ("> ", "[rank0]: ", "2025-06-20T05:54:20.1250272Z ", "#12 6135.8 "):
        report = failed([prefix + line for line in _TRACEBACK])
        assert first(report) == (prefix + _TRACEBACK[-1]).strip(), prefix  # shown as pasted
        assert family(report) == family(plain), prefix


def test_a_python_prompt_is_not_a_quote() -> None:
    # the source line a prompt echoes is not read as a quoted message
    report = failed([">>> import torch", ">>> torch.cuda.is_available()",
                     "RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 500: named "
                     "symbol not found"])
    assert first(report) == ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Error "
                             "500: named symbol not found")
    assert family(report) == "first-use"  # (late set h cog-consistent-character-19)


def test_the_command_an_exception_lists_is_not_its_message() -> None:
    # PyCUDA's CompileError lists the command and the stream before the tool's own line
    report = failed([
        "pycuda.driver.CompileError:",
        "command: nvcc --cubin --ptxas-options=-v -arch sm_61 -m64 ...",
        "stdout:",
        "nvcc fatal   : Cannot find compiler 'cl.exe' in PATH",
    ])
    assert first(report) == "nvcc fatal   : Cannot find compiler 'cl.exe' in PATH"


def test_a_terminals_colour_codes_are_not_read_nor_shown() -> None:
    # gcc's colours as a terminal gets them, and what a copy leaves of them without the escape
    for line in ("x.cpp:5:10: \x1b[01;31m\x1b[Kfatal error: \x1b[m\x1b[Kfoo.h: No such file or "
                 "directory",
                 "x.cpp:5:10: [01;31m[Kfatal error: [m[Kfoo.h: No such file or directory"):
        report = failed(["[1/2] g++ -c x.cpp -o x.o", line,
                         "ninja: build stopped: subcommand failed."])
        assert first(report) == "x.cpp:5:10: fatal error: foo.h: No such file or directory"
        assert family(report) == "compile"


def test_uvs_build_summary_and_install_step() -> None:
    # uv's summary alone: the build that failed, not the backend call that wraps it
    report = failed([
        "  × Failed to build `flash-attn==2.7.4.post1`",
        "  ├─▶ The build backend returned an error",
        "  ╰─▶ Call to `setuptools.build_meta:__legacy__.build_wheel` failed (exit status: 1)",
    ])
    assert first(report) == "× Failed to build `flash-attn==2.7.4.post1`"
    assert family(report) == "configure"
    # uv installing a wheel's files where it may not write them
    report = failed([
        "error: Failed to install: flash_attn-2.7.4-cp311-cp311-linux_x86_64.whl",
        "  Caused by: failed to hardlink file from /a to /b: Permission denied (os error 13)",
    ])
    assert family(report) == "package"


def test_uvs_build_wrapper_gives_way_to_the_builds_own_error() -> None:
    report = failed([
        "error: Failed to build: `flash-attn==2.7.4`",
        "  Caused by: Build backend failed to build wheel through `build_wheel` (exit status: 1)",
        "",
        "[stderr]",
        "fatal error: cuda_runtime_api.h: No such file or directory",
    ])
    assert first(report) == "fatal error: cuda_runtime_api.h: No such file or directory"
    # and where the build's output is left out, the build that failed
    report = failed([
        "error: Failed to build: `flash-attn==2.7.4`",
        "  Caused by: Build backend failed to build wheel through `build_wheel` (exit status: 1)",
    ])
    assert first(report) == "error: Failed to build: `flash-attn==2.7.4`"


def test_uvs_resolver_and_downloader_are_resolve() -> None:
    for lines in (
        ["  × No solution found when resolving dependencies:",
         "  ╰─▶ Because flash-attn==2.7.4 has no wheels with a matching platform tag and you "
         "require flash-attn==2.7.4, we can conclude that your requirements are unsatisfiable."],
        ["  × Failed to download `torch==2.6.0+cu124`",
         "  ╰─▶ HTTP status client error (404 Not Found) for url (https://x/torch-2.6.0.whl)"],
        ["error: Failed to fetch: `https://pypi.org/simple/flash-attn/`",
         "  Caused by: Request failed after 3 retries",
         "  Caused by: dns error: failed to lookup address information: Name or service not "
         "known"],
    ):
        report = failed(lines)
        assert first(report) is not None, lines
        assert family(report) == "resolve", lines


def test_the_gpu_failing_when_code_first_runs_is_first_use() -> None:
    # classes of the first call (no late log of these words yet): the CUDA driver failing to
    # initialise, cuDNN finding no algorithm, a kernel asking more shared memory than the GPU
    # has (an exception of Triton's errors module, whose name says no "Error"), a kernel that
    # supports only some data types
    for line in (
        "RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.",
        "RuntimeError: GET was unable to find an engine to execute this computation",
        "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 65536, "
        "Hardware limit: 49152. Reducing block sizes or `num_stages` may help.",
        "RuntimeError: FlashAttention only support fp16 and bf16 data type",
    ):
        report = failed(["$ python run.py", line])
        assert first(report) == line
        assert family(report) == "first-use", line


def test_pip_refusing_a_package_for_this_python_is_resolve() -> None:
    report = failed(["ERROR: Package 'x' requires a different Python: 3.8.10 not in '>=3.9'"])
    assert family(report) == "resolve"
