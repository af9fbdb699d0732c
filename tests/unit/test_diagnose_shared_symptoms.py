"""Symptoms that several causes share, and where a log stopped, from late set d
(tests/data/logs/late-2026-11-28d, scored once, then studied; issue 31). Each test is a short
excerpt of one thread's log, as the thread printed it, and stands for a class: CUDA's "no kernel
image" that does not say whose code lacks the GPU, PyTorch's own warning that names the cause,
Windows' "procedure not found" that does not name the DLL, git over ssh without access, gcc
that cannot run its compiler proper, pip's account of a build step, a pip error quoted in a
sentence, an exception raised by a program that ran."""

from __future__ import annotations

from diagnose_testsupport import failed, family, first

from kernel_wizard.diagnose.context import context_for_package

NO_KERNEL = "RuntimeError: CUDA error: no kernel image is available for execution on the device"








# -- "no kernel image": whose code has none is for other lines to say ------------------------

def test_no_kernel_image_alone_names_the_family_not_the_kernel() -> None:
    # ComfyUI #10382 (RTX 5080), pytorch #149845 (RTX 5090D, a PyTorch operator), rPPG-Toolbox
    # #409: the error alone; the kernel, PyTorch or neither was the cause
    for lines in (
        ["CUDA error: no kernel image is available for execution on the device",
         "CUDA kernel errors might be asynchronously reported at some other API call, so the "
         "stacktrace below might be incorrect.",
         "For debugging consider passing CUDA_LAUNCH_BLOCKING=1"],
        [">>> x != 0", "Traceback (most recent call last):",
         '  File "<stdin>", line 1, in <module>', NO_KERNEL],
        ["`CUDA error: no kernel image is available for execution on the device` "],
    ):
        report = failed(lines)
        assert report.primary is None and report.cause_unknown, lines
        assert family(report) == "first-use"
        assert first(report) is not None and "no kernel image" in (first(report) or "")
        assert "PyTorch or the kernel" in report.describe()  # the family's next step


def test_no_kernel_image_is_the_kernels_when_the_log_shows_its_code() -> None:
    # mmcv #2201: the call into mmcv's compiled module, after the error
    mmcv = failed(["Exception has occurred: RuntimeError",
                   "CUDA error: no kernel image is available for execution on the device",
                   '  File "/root/mmcv/mmcv/ops/focal_loss.py", line 60, in forward',
                   "    ext_module.sigmoid_focal_loss_forward("])
    assert mmcv.primary is not None and mmcv.primary.cause_group == "gpu-arch-unsupported"
    assert family(mmcv) == "first-use"
    # MiniGPT-4 #156: bitsandbytes names its own source file
    bnb = failed(["Error no kernel image is available for execution on the device at line 479 "
                  "in file D:\\ai\\tool\\bitsandbytes\\csrc\\ops.cu"])
    assert bnb.primary is not None and bnb.primary.cause_group == "gpu-arch-unsupported"
    # BMInf #29: the program states the GPU's capability (a P100, 6.0)
    bminf = failed(['GPU Device 0: "Pascal" with compute capability 6.0',
                    "RuntimeError: CUDA Error: no kernel image is available for execution on "
                    "the device"])
    assert bminf.primary is not None and bminf.primary.cause_group == "gpu-arch-unsupported"
    # the wizard's own kernel: what ran is the kernel it built
    own = failed([NO_KERNEL], context_for_package("flash-attn"))
    assert own.primary is not None and own.primary.cause_group == "gpu-arch-unsupported"
    assert "Ampere" in own.primary.cause


def test_pytorchs_own_warning_names_pytorch_as_the_cause() -> None:
    # fsdl-text-recognizer #12 (RTX 3080, PyTorch without sm_86), its warning after the error
    report = failed([NO_KERNEL, "GPU available: True, used: True",
                     "/home/u/envs/x/lib/python3.6/site-packages/torch/cuda/__init__.py:104: "
                     "UserWarning:",
                     "GeForce RTX 3080 with CUDA capability sm_86 is not compatible with the "
                     "current PyTorch installation.",
                     "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 "
                     "sm_70 sm_75."])
    assert report.primary is not None
    assert report.primary.signature_id == "torch-too-old-for-gpu-arch"
    assert "sm_86" in report.primary.title
    assert "Build for the GPU" not in report.primary.fix
    assert "supports your GPU" in report.primary.fix
    assert first(report) == NO_KERNEL and family(report) == "first-use"
    # Kimi-Audio #90: the reporter's words for the same warning
    kimi = failed(["CUDA error: no kernel image is available for execution on the device",
                   "PyTorch also issues a warning that my GPU (`sm_120`) is not supported by the "
                   "current installation, and the supported architectures listed do not "
                   "include `sm_120`."])
    assert kimi.primary is not None and kimi.primary.signature_id == "torch-too-old-for-gpu-arch"
    assert "sm_120" in kimi.primary.title and "PyTorch 2.7" in kimi.primary.cause


# -- Windows' "procedure not found": which DLL lacks it, Windows does not say -----------------

KTRANSFORMERS = "ImportError: DLL load failed while importing KTransformersOps: 找不到指定的程序。"


def test_a_missing_procedure_names_the_family_alone() -> None:
    # ktransformers #206 (Chinese Windows), gaussian-splatting #306 (German): a DLL lacks a
    # function; PyTorch's, CUDA's or a library's, the threads differ
    for line in (KTRANSFORMERS,
                 "ImportError: DLL load failed: Die angegebene Prozedur wurde nicht gefunden."):
        report = failed(["Traceback (most recent call last):",
                         '  File "D:\\x\\custom_gguf.py", line 30, in <module>',
                         "    import KTransformersOps", line])
        assert report.primary is None and report.cause_unknown, line
        assert family(report) == "import"
        assert first(report) == line
        assert "Rebuild the kernel" not in report.describe()


def test_a_missing_procedure_is_the_kernels_pytorch_in_the_wizards_own_build() -> None:
    # the wizard built the module against the PyTorch it checks (tests/data/logs/
    # dll-load-failed.log, a flash-attn wheel of another torch)
    line = ("ImportError: DLL load failed while importing flash_attn_2_cuda: The specified "
            "procedure could not be found.")
    own = failed(["    import flash_attn_2_cuda as flash_attn_cuda", line],
                 context_for_package("flash-attn"))
    assert own.primary is not None and own.primary.cause_group == "extension-abi-mismatch"
    assert own.primary.signature_id == "dll-procedure-missing"
    # or the log says what it was built for
    said = failed([line, "flash_attn was built for PyTorch 2.4.0, you have 2.5.1"])
    assert said.primary is not None and said.primary.cause_group == "extension-abi-mismatch"


# -- where it stopped ---------------------------------------------------------------------------

def test_git_over_ssh_without_access_is_resolving() -> None:
    # llama-cpp-python #238, torch-int #22: a submodule's git@github.com URL, no ssh key
    lines = ["Submodule 'submodules/cutlass' (git@github.com:NVIDIA/cutlass.git) registered for "
             "path 'submodules/cutlass'",
             "Cloning into '/opt/conda/bin/torch-int/submodules/cutlass'...",
             "kex_exchange_identification: Connection closed by remote host",
             "fatal: Could not read from remote repository.",
             "Please make sure you have the correct access rights",
             "and the repository exists."]
    report = failed(lines)
    assert first(report) == "fatal: Could not read from remote repository."
    assert family(report) == "resolve"


def test_gcc_that_cannot_run_its_compiler_proper_is_a_missing_tool() -> None:
    # AlphaPose #740: g++ not installed, gcc cannot run cc1plus
    line = "gcc: error trying to exec 'cc1plus': execvp: No such file or directory"
    report = failed(["building 'detector.nms.soft_nms_cpu' extension",
                     "gcc -pthread -B /home/u/anaconda3/envs/alphapose/compiler_compat -fPIC "
                     "-c detector/nms/src/soft_nms_cpu.cpp -o build/soft_nms_cpu.o", line,
                     "error: command 'gcc' failed with exit status 1"])
    assert first(report) == line
    assert report.primary is not None and report.primary.cause_group == "build-tool-missing"
    assert "cc1plus" in report.primary.title
    assert family(report) == "environment"


def test_pips_account_of_a_build_step_shows_a_build() -> None:
    # GLM-4 #235: flash-attn's setup.py check, in pip's "[end of output]" excerpt
    line = ("      RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.  Note: "
            "make sure nvcc has a supported version by running nvcc -V.")
    report = failed(["     raise RuntimeError(", line,
                     "      torch.__version__  = 2.3.1+cu121", "      [end of output]"])
    assert first(report) == line.strip()
    assert family(report) == "environment"


def test_a_pip_error_quoted_in_a_sentence_is_the_first_error() -> None:
    # Wan2GP #1349: the post quotes pip's refusal inside a sentence
    line = ("I carefully went through all the installation instructions listed for windows "
            "40xx/50xx and it fails at the sageattention install step.  The error I get is "
            "ERROR: sageattention-2.2.0+cu128torch2.7.1-cp310-cp310-win_amd64.whl is not a "
            "supported wheel on this platform.")
    report = failed([line])
    assert first(report) == line
    assert family(report) == "resolve"


def test_an_exception_of_running_code_with_no_build_is_first_use() -> None:
    # Wan2GP #26: the attention it chose was never imported; the program was running
    line = ("torch._dynamo.exc.InternalTorchDynamoError: NameError: name 'flash_attn_interface' "
            "is not defined")
    report = failed(["But doesn't seem to be a vram issue?", line, "from user code:",
                     '   File "/home/u/Wan2GP/wan/modules/model.py", line 450, in forward'])
    assert first(report) == line
    assert family(report) == "first-use"
    # an ImportError with no build stays an import
    imported = failed(["ImportError: cannot import name 'x' from 'y'"])
    assert family(imported) == "import"
