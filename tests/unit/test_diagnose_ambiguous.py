"""Symptoms of several known causes name the family alone unless the log says which (issue 31,
late sets a and b: half the specific causes given on unseen logs were wrong). Each input is a
short real excerpt of a corpus log (tests/data/logs/late-2026-11-28*, field)."""

from __future__ import annotations

from kernel_wizard.diagnose import LogDiagnoser, diagnose_lines

# PDF-Extract-Kit #5 (detectron2, Windows, Chinese): Windows does not say which DLL is missing
DLL_UNNAMED = [
    '  File "C:\\Users\\XXX\\miniconda3\\lib\\site-packages\\detectron2\\layers\\deform_conv.py", '
    "line 11, in <module>",
    "    from detectron2 import _C",
    "ImportError: DLL load failed while importing _C: 找不到指定的模块。",
]


def test_a_dll_windows_does_not_name_gives_the_family_alone() -> None:
    report = diagnose_lines(DLL_UNNAMED)
    assert report.primary is None and report.hits == ()
    assert report.first_error is not None and report.first_error.line == DLL_UNNAMED[-1]
    assert report.family is not None and report.family.id == "import"
    # and so in every language Windows reports it in
    for line in ("ImportError: DLL load failed while importing nvdiffrast_plugin_gl: Impossibile "
                 "trovare il modulo specificato",
                 "ImportError: DLL load failed while importing _C: Le module spécifié est "
                 "introuvable.",
                 "ImportError: DLL load failed while importing flash_attn_2_cuda: The specified "
                 "module could not be found."):
        alone = diagnose_lines([line])
        assert alone.primary is None and alone.family is not None
        assert alone.family.id == "import"


def test_a_dll_named_by_another_line_confirms_the_missing_library() -> None:
    named = [*DLL_UNNAMED,
             "FileNotFoundError: Could not find module 'C:\\cuda\\bin\\cudart64_110.dll' (or one "
             "of its dependencies). Try using the full path with constructor syntax."]
    report = diagnose_lines(named)
    assert report.primary is not None and report.primary.cause_group == "library-mismatch"
    assert report.primary.line_number == 3  # the first error, confirmed by the line after it


def test_a_withheld_hit_is_released_when_the_confirming_line_comes() -> None:
    diagnoser = LogDiagnoser()
    assert diagnoser.feed(DLL_UNNAMED[-1]) == []  # not yet: Windows did not say which DLL
    released = diagnoser.feed("Error loading \"C:\\venv\\Lib\\site-packages\\x\\lib\\y.dll\" or "
                              "one of its dependencies.")
    assert [h.signature_id for h in released][:1] == ["dll-dependency-missing"]
    assert released[0].line_number == 1


def test_the_package_s_own_library_missing_is_not_a_library_mismatch() -> None:
    # bitsandbytes #1584: its own libbitsandbytes_cpu.so is not there (no binary for this setup)
    own = ["Could not load bitsandbytes native library: /home/u/.pyenv/versions/v/lib/python3.10/"
           "site-packages/bitsandbytes/libbitsandbytes_cpu.so: cannot open shared object file: "
           "No such file or directory"]
    report = diagnose_lines(own)
    assert report.primary is None
    assert report.family is not None and report.family.id == "import"
    # a library of the system or the toolkit is (field: bitsandbytes and libcusparse.so.11)
    system = diagnose_lines(["libcusparse.so.11: cannot open shared object file: No such file or "
                             "directory"])
    assert system.primary is not None and system.primary.cause_group == "library-mismatch"


def test_xformers_built_for_the_pytorch_installed_is_not_a_pytorch_mismatch() -> None:
    # SEINE #21 (an M1 Mac): the versions xFormers lists agree, so PyTorch is not the reason
    same = ["WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:",
            "    PyTorch 2.0.1 with CUDA 1106 (you have 2.0.1)",
            "    Python  3.9.16 (you have 3.9.16)"]
    report = diagnose_lines(same)
    assert report.primary is None
    # fast-stable-diffusion #2672: built for another PyTorch
    other = ["WARNING:xformers:WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. "
             "xFormers was built for:",
             "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.1.0+cu121)"]
    mismatch = diagnose_lines(other)
    assert mismatch.primary is not None
    assert mismatch.primary.cause_group == "extension-abi-mismatch"


def test_cl_that_ran_was_found() -> None:
    # apex #521 (Chinese Windows): PyTorch could not check cl's version, but cl.exe then ran and
    # failed on the source: the compiler was found, the failure is the compile
    lines = ["H:\\Anaconda3\\envs\\main\\lib\\site-packages\\torch\\utils\\cpp_extension.py:189: "
             "UserWarning: Error checking compiler version for cl: [WinError 2] "
             "系統找不到指定的檔案。",
             "error: command 'C:\\\\Program Files (x86)\\\\Microsoft Visual Studio\\\\2017\\\\"
             "Community\\\\VC\\\\Tools\\\\MSVC\\\\14.16.27023\\\\bin\\\\HostX86\\\\x64\\\\cl.exe' "
             "failed with exit status 2"]
    report = diagnose_lines(lines)
    assert report.primary is None
    report = LogDiagnoser()
    for line in lines:
        report.feed(line)
    summary = report.summary(failed=True)
    assert summary.first_error is not None and summary.first_error.line == lines[1]
    assert summary.family is not None and summary.family.id == "compile"
    # the warning alone still names the missing compiler (tests/data/logs/msvc-missing.log)
    alone = diagnose_lines(lines[:1])
    assert alone.primary is not None and alone.primary.signature_id == "msvc-not-found"


def test_gcc_options_handed_to_cl_are_the_compile_family() -> None:
    # CenterNet #287: the fix is to leave -Wno-cpp out of the build script on Windows, not "build
    # on Linux" (the GCC-extensions advice)
    line = "cl : Command line error D8021 : invalid numeric argument '/Wno-cpp'"
    diagnoser = LogDiagnoser()
    diagnoser.feed(line)
    report = diagnoser.summary(failed=True)
    assert report.primary is None
    assert report.first_error is not None and report.first_error.line == line
    assert report.family is not None and report.family.id == "compile"


def test_unresolved_symbols_name_the_link_family_alone() -> None:
    # pytorch3d #1692 (item<long>, not exported by PyTorch on Windows); xformers #625 (Visual
    # Studio 17.4's TLS symbols); kaolin #482 (its own CUDA part not built): several causes
    for line in ('marching_cubes.obj : error LNK2001: unresolved external symbol "public: long '
                 '__cdecl at::Tensor::item<long>(void)const " (??$item@J@Tensor@at@@QEBAJXZ)',
                 "quant_cuda.obj : error LNK2001: unresolved external symbol "
                 "__imp___tls_offset_?init@?1??lazy_init_num_threads@internal@at@@YAXXZ@4_NA"):
        report = diagnose_lines([line])
        assert report.primary is None
        assert report.family is not None and report.family.id == "link"
    # two versions that disagree, shown by the log, say which
    confirmed = diagnose_lines([
        "The detected CUDA version (12.1) mismatches the version that was used to compile",
        "foo.obj : error LNK2019: unresolved external symbol cudaLaunchKernel"])
    assert any(h.signature_id == "link-unresolved-symbols" for h in confirmed.hits)


def test_pip_s_conflicting_dependencies_are_the_resolve_family() -> None:
    # S2R #2 (late set b): vllm 0.5.4 pins torch 2.4.0, requirements.txt torch 2.1.1
    line = ("ERROR: Cannot install -r requirements.txt (line 1) and torch==2.1.1 because these "
            "package versions have conflicting dependencies.")
    diagnoser = LogDiagnoser()
    for text in (line, "", "The conflict is caused by:", "    vllm 0.5.4 depends on torch==2.4.0"):
        diagnoser.feed(text)
    report = diagnoser.summary(failed=True)
    assert report.first_error is not None and report.first_error.line == line
    assert report.family is not None and report.family.id == "resolve"
