"""Late set g (issue 31, fifth round): causes the log states plainly, first error lines a post
decorates or cuts short, and the family of a program that crashed. Each input is a short real
excerpt of a log of tests/data/logs/late-2026-11-28g."""

from __future__ import annotations

from diagnose_testsupport import failed

from kernel_wizard.diagnose import diagnose_lines

# tacotron2 #144 (Windows): the traceback's last frame is PyTorch's own torch/__init__.py
TORCH_C_DLL = [
    'File "train.py", line 7, in <module>',
    "    import torch",
    '  File "~\\Miniconda3\\envs\\python36\\lib\\site-packages\\torch\\__init__.py", line 84, in '
    "<module>",
    "    from torch._C import *",
    "ImportError: DLL load failed: The specified module could not be found.",
]


def test_a_dll_failing_in_torch_s_own_init_is_torch_s_dll() -> None:
    report = diagnose_lines(TORCH_C_DLL)
    assert report.primary is not None and report.primary.signature_id == "torch-dll-load-failed"
    assert report.first_error is not None and report.first_error.line == TORCH_C_DLL[-1]
    assert report.family is not None and report.family.id == "import"


def test_a_dll_failing_in_a_package_s_module_stays_unnamed() -> None:
    # the same wording raised by a package's own module: which DLL is not said
    lines = [
        '  File "C:\\x\\site-packages\\detectron2\\layers\\deform_conv.py", line 11, in <module>',
        "    from detectron2 import _C",
        "ImportError: DLL load failed: The specified module could not be found.",
    ]
    report = diagnose_lines(lines)
    assert report.primary is None
    assert report.family is not None and report.family.id == "import"


def test_thc_s_umbrella_header_in_a_post_s_quotes_is_the_torch_api() -> None:
    # warp-transducer #99: "fatal error:THC.h”: No such file or directory"
    line = "src/binding.cpp:8:14: fatal error:THC.h”: No such file or directory "
    report = diagnose_lines([line])
    assert report.primary is not None and report.primary.signature_id == "torch-api-changed"
    assert "THC.h" in report.primary.title
    # a header of the package's own with THC in its name is not PyTorch's
    other = diagnose_lines(["src/x.cpp:3:10: fatal error: THCudaKernels.h: No such file or "
                            "directory"])
    assert other.primary is None or other.primary.signature_id != "torch-api-changed"


def test_gcc_s_bug_report_trailer_is_a_compiler_crash() -> None:
    # svox2 #47: the post starts below "internal compiler error: ..."
    lines = [
        "    428 |  _S_gcd(intmax_t __m, intmax_t __n) noexcept",
        "        |                           ^~~~~~",
        "  Please submit a full bug report,",
        "  with preprocessed source if appropriate.",
        "  See <file:///usr/share/doc/gcc-10/README.Bugs> for instructions.",
    ]
    report = failed(lines)
    assert report.first_error is not None and report.first_error.line == lines[2]
    assert report.primary is not None and report.primary.signature_id == "compiler-crashed"
    assert report.family is not None and report.family.id == "compiler-crash"


def test_an_out_of_memory_compiler_keeps_its_cause_over_the_trailer() -> None:
    lines = ["c++: internal compiler error: Killed (program cc1plus)",
             "Please submit a full bug report,"]
    report = failed(lines)
    assert report.first_error is not None and report.first_error.line == lines[0]
    # (memory only with memory evidence since set m; never a compiler bug for the trailer)
    assert report.primary is None or report.primary.signature_id != "compiler-crashed"
    report = failed([*lines, "Killed process 4242 (cc1plus) total-vm:9000000kB"])
    assert report.primary is not None and report.primary.cause_group == "out-of-memory"


def test_a_quoted_ninja_failure_is_the_first_error() -> None:
    # GPTQ-for-LLaMa #44: the post opens a code span on ninja's FAILED: line
    line = ("`FAILED: D:/AI/text-generation-webui/repositories/GPTQ-for-LLaMa/build/"
            "temp.win-amd64-cpython-310/Release/quant_cuda_kernel.obj")
    report = failed(["I get the following error when trying to run setup.py", line])
    assert report.first_error is not None and report.first_error.line == line
    assert report.primary is None


def test_a_library_of_another_platform_is_the_first_error() -> None:
    # text-generation-webui #484 (WSL): bitsandbytes loading its Windows .dll on Linux
    line = ("/home/u/miniconda3/envs/textgen/lib/python3.10/site-packages/bitsandbytes/"
            "libbitsandbytes_cuda116.dll: invalid ELF header")
    report = failed([
        "CUDA SETUP: Loading binary /home/u/miniconda3/envs/textgen/lib/python3.10/"
        "site-packages/bitsandbytes/libbitsandbytes_cuda116.dll...", line])
    assert report.first_error is not None and report.first_error.line == line


def test_bitsandbytes_giving_up_is_the_first_error_and_names_no_cause() -> None:
    # ComfyUI-Easy-Use #568: the cause was never pinned down
    line = ("        CUDA Setup failed despite GPU being available. Please run the following "
            "command to get more information:")
    report = failed(["Cannot import C:\\Comfy\\ComfyUI\\custom_nodes\\ComfyUI-Easy-Use module "
                      "for custom nodes:", line, "        python -m bitsandbytes"])
    assert report.first_error is not None and report.first_error.line == line
    assert report.primary is None


def test_a_program_that_crashed_is_its_first_use_not_the_compiler() -> None:
    # DCNv2 #17: the test script crashes after the package installed
    lines = ["Finished processing dependencies for DCNv2==0.1",
             "(env) [root@localhost DCNv2]# python test.py ", "Segmentation fault"]
    report = failed(lines)
    assert report.first_error is not None and report.first_error.line == "Segmentation fault"
    assert report.primary is None
    assert report.family is not None and report.family.id == "first-use"
    # the compiler crashing names itself: still the compiler-crash family
    gcc = diagnose_lines(["x.cpp:3:1: internal compiler error: Segmentation fault"])
    assert gcc.family is not None and gcc.family.id == "compiler-crash"
