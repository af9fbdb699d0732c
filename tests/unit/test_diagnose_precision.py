"""Precision on unseen logs (issue 31, fourth round: late set f named a wrong cause in 6 of 22
logs). A cause is named only on evidence specific to it; in doubt the family alone is given.
Each input is a short real excerpt of a late-set log (tests/data/logs/late-2026-11-28f)."""

from __future__ import annotations

from diagnose_testsupport import failed

# -- a symptom several causes share, named as one of them -------------------------------------

def test_a_dll_load_failure_without_a_reason_names_the_family_alone() -> None:
    # lib_flashattention #1: a prebuilt Windows wheel; the thread never found out why
    bare = ["DLL load failed while importing flash_attn_2_cuda"]
    report = failed(bare)
    assert report.primary is None and report.hits == ()
    assert report.first_error is not None and report.first_error.line == bare[0]
    assert report.family is not None and report.family.id == "import"


def test_a_dll_load_failure_with_its_reason_still_names_the_cause() -> None:
    report = failed(["ImportError: DLL load failed while importing _C: The specified procedure "
                      "could not be found.",
                      "This kernel was built for PyTorch 2.1.0"])
    assert report.primary is not None
    assert report.primary.cause_group == "extension-abi-mismatch"


# -- a word that appears in unrelated contexts ------------------------------------------------

def test_two_options_passed_as_one_argument_are_not_an_old_nvcc() -> None:
    # RWKV-LM #166: the kernel's flag list passes '-Xptxas -O3' as one argument on Windows
    report = failed(["nvcc fatal : Unknown option '-Xptxas -O3'"])
    assert report.primary is None
    assert report.first_error is not None
    assert report.first_error.line == "nvcc fatal : Unknown option '-Xptxas -O3'"


def test_an_option_nvcc_is_too_old_for_is_still_named() -> None:
    for line in ("nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
                 "nvcc fatal : Unknown option '--threads'"):
        report = failed([line])
        assert report.primary is not None
        assert report.primary.signature_id == "nvcc-too-old-for-option"


# -- a cause whose advice the rest of the log contradicts: PyTorch's own DLL ------------------

TORCH_C = [  # pytorch #31324 (Chinese Windows): "the operating system cannot run %1"
    "Traceback (most recent call last):",
    '  File "<stdin>", line 1, in <module>',
    '  File "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python37\\lib\\site-packages\\torch'
    '\\__init__.py", line 81, in <module>',
    "    from torch._C import *",
    "ImportError: DLL load failed: 操作系统无法运行 %1。",
]


def test_a_dll_failing_while_torch_itself_is_imported_is_torch_s_own() -> None:
    report = failed(TORCH_C)
    assert report.primary is not None
    assert report.primary.signature_id == "torch-dll-load-failed"
    assert report.primary.line_number == 5
    assert "Visual C++ Redistributable" in str(report.primary.fix)
    assert "Build the kernel" not in str(report.primary.fix)
    assert [h.signature_id for h in report.errors] == ["torch-dll-load-failed"]


def test_the_same_line_under_a_kernel_s_import_keeps_the_kernel_s_cause() -> None:
    kernel = [*TORCH_C[:2],
              '  File "C:\\venv\\lib\\site-packages\\mykernel\\__init__.py", line 3, in <module>',
              "    from mykernel import _C",
              TORCH_C[-1]]
    report = failed(kernel)
    assert report.primary is not None
    assert report.primary.signature_id == "library-mismatch"


def test_a_dll_only_pytorch_ships_is_torch_s_own_without_its_folder() -> None:
    # StabilityMatrix #777: the post left the folder out of the quoted path
    line = ('OSERROR: [WinError 126] The specified module could not be found. Error loading '
            '"...fbgemm.dll" or one of its dependencies.')
    report = failed([line])
    assert report.primary is not None
    assert report.primary.signature_id == "torch-dll-load-failed"
    other = failed([line.replace("fbgemm.dll", "mykernel_cuda.dll")])
    assert other.primary is not None and other.primary.signature_id == "library-mismatch"
