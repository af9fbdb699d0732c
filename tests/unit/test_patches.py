"""Recipe source patches on small real files: applied once, a no-op on re-run, mismatches that
name the file, recipe and patch, conditions, line endings and bytes kept as they were."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from kernel_wizard.build.patches import (
    LEDGER_DIR,
    PatchContext,
    PatchError,
    PatchStatus,
    apply_patches,
    condition_reason,
    revert_patches,
)
from kernel_wizard.catalog import (
    OsName,
    Patch,
    PatchCondition,
    PatchKind,
    RecipeVersion,
    load_catalog,
)

LINUX = PatchContext(os=OsName.LINUX, cuda=(12, 8), recipe="Demo Kernel")
WINDOWS = PatchContext(os=OsName.WINDOWS, cuda=(12, 8), recipe="Demo Kernel")

SETUP = (
    'cxx_args = ["/O2", "/std:c++20", "/DNDEBUG", "/W0"]\n'
    "nvcc_flags = [\n"
    '    "-D_USE_MATH_DEFINES",\n'
    '    "--use_fast_math",\n'
    "]\n"
)


def literal(pid: str, file: str, pattern: str, replacement: str, count: int = 1,
            **when: object) -> Patch:
    return Patch(id=pid, file=file, kind=PatchKind.LITERAL, pattern=pattern,
                 replacement=replacement, expected_count=count,
                 when=PatchCondition(**when))  # type: ignore[arg-type]


def regex(pid: str, file: str, pattern: str, replacement: str, count: int = 1) -> Patch:
    return Patch(id=pid, file=file, kind=PatchKind.REGEX, pattern=pattern,
                 replacement=replacement, expected_count=count)


ZC_HOST = literal("zc-host", "setup.py", 'cxx_args = ["/O2", "/std:c++20", "/DNDEBUG", "/W0"]',
                  'cxx_args = ["/O2", "/std:c++20", "/DNDEBUG", "/W0", "/Zc:__cplusplus"]')
ZC_NVCC = regex("zc-nvcc", "setup.py",
                r'"-D_USE_MATH_DEFINES",(?!\s*"-Xcompiler", "/Zc:__cplusplus")',
                '"-D_USE_MATH_DEFINES", "-Xcompiler", "/Zc:__cplusplus",')


def write(root: Path, rel: str, data: bytes | str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def test_applied_once_then_recorded_as_already_applied(tmp_path: Path) -> None:
    setup = write(tmp_path, "setup.py", SETUP)
    first = apply_patches(tmp_path, [ZC_HOST, ZC_NVCC], WINDOWS)
    assert [(r.status, r.count) for r in first] == [(PatchStatus.APPLIED, 1)] * 2
    patched = setup.read_bytes()
    assert b'"/W0", "/Zc:__cplusplus"]' in patched
    assert b'"-D_USE_MATH_DEFINES", "-Xcompiler", "/Zc:__cplusplus",\n' in patched

    second = apply_patches(tmp_path, [ZC_HOST, ZC_NVCC], WINDOWS)
    assert [r.status for r in second] == [PatchStatus.ALREADY_APPLIED] * 2
    assert all("recorded" in r.detail for r in second)
    assert setup.read_bytes() == patched  # a re-run is a no-op
    assert second[0].describe() == (
        "patch zc-host (setup.py): already applied (recorded by the wizard; the file is "
        "unchanged since)")
    assert first[0].describe() == "patch zc-host (setup.py): applied, 1 replacement"


def test_already_applied_found_by_content_when_nothing_was_recorded(tmp_path: Path) -> None:
    setup = write(tmp_path, "setup.py", SETUP)
    apply_patches(tmp_path, [ZC_HOST, ZC_NVCC], WINDOWS)
    shutil.rmtree(tmp_path / LEDGER_DIR)  # patched by an older run, or by hand
    patched = setup.read_bytes()
    results = apply_patches(tmp_path, [ZC_HOST, ZC_NVCC], WINDOWS)
    assert [r.status for r in results] == [PatchStatus.ALREADY_APPLIED] * 2
    assert results[0].detail == "pattern gone, replacement found 1 time"
    assert setup.read_bytes() == patched
    # ... and now it is recorded, so the next run is proven rather than inferred
    assert all("recorded" in r.detail for r in apply_patches(tmp_path, [ZC_HOST], WINDOWS))


def test_replacement_that_occurs_elsewhere_is_not_guessed_to_be_ours(tmp_path: Path) -> None:
    # FlashMLA's lambda patch: "() {" also occurs in upstream code that was never patched.
    src = ("auto a = [&]() __attribute__((always_inline)) {};\n"
           "auto b = [&]() {};\n")
    write(tmp_path, "phase1.cuh", src)
    patch = literal("lambda", "phase1.cuh", "() __attribute__((always_inline)) {", "() {")
    (applied,) = apply_patches(tmp_path, [patch], WINDOWS)
    assert applied.status is PatchStatus.APPLIED
    (again,) = apply_patches(tmp_path, [patch], WINDOWS)
    assert again.status is PatchStatus.ALREADY_APPLIED  # proven by the record
    shutil.rmtree(tmp_path / LEDGER_DIR)
    with pytest.raises(PatchError) as info:  # without it, 2 x "() {" for 1 expected: unsure
        apply_patches(tmp_path, [patch], WINDOWS)
    assert "replacement found 2 times (expected 1 if already applied)" in info.value.what


def test_mismatch_names_file_recipe_and_patch_and_writes_nothing(tmp_path: Path) -> None:
    setup = write(tmp_path, "setup.py", SETUP)
    kernel = write(tmp_path, "csrc/k.cu", "twice(); twice();\n")
    before = (setup.read_bytes(), kernel.read_bytes())
    bad = literal("once-only", "csrc/k.cu", "twice();", "once();", count=1)
    version = RecipeVersion(label="1.0.0", version="1.0.0", tag="v1.0.0")
    ctx = PatchContext(os=OsName.WINDOWS, cuda=(12, 8), version=version, recipe="FlashMLA")
    with pytest.raises(PatchError) as info:
        apply_patches(tmp_path, [ZC_HOST, bad], ctx)
    err = info.value
    assert (err.recipe, err.patch_id, err.file) == ("FlashMLA", "once-only", "csrc/k.cu")
    assert err.what == ("The FlashMLA 1.0.0 source patch 'once-only' does not fit csrc/k.cu: "
                        "pattern found 2 times, expected 1.")
    assert "upstream source" in err.why and "No file was changed" in err.why
    assert "version the recipe pins" in err.hint
    assert [r.status for r in err.results] == [PatchStatus.APPLIED, PatchStatus.MISMATCH]
    assert "MISMATCH: pattern found 2 times, expected 1" in err.results[1].describe()
    # the patch that did fit was not written either: never a half-patched tree
    assert (setup.read_bytes(), kernel.read_bytes()) == before
    assert not (tmp_path / LEDGER_DIR).exists()


def test_neither_pattern_nor_replacement_and_missing_file(tmp_path: Path) -> None:
    write(tmp_path, "setup.py", "cxx_args = ['-O3']\n")  # upstream rewrote the line
    with pytest.raises(PatchError) as info:
        apply_patches(tmp_path, [ZC_HOST], WINDOWS)
    assert "pattern not found (expected 1) and the replacement found 0 times" in info.value.what
    with pytest.raises(PatchError) as info:
        apply_patches(tmp_path, [literal("gone", "csrc/gone.cu", "a", "b")], WINDOWS)
    assert info.value.file == "csrc/gone.cu"
    assert "the file does not exist in this source tree" in info.value.what


def test_conditions_skip_with_reasons(tmp_path: Path) -> None:
    setup = write(tmp_path, "setup.py", SETUP)
    v274 = RecipeVersion(label="2.7.4.post1", version="2.7.4.post1", tag="v2.7.4.post1")
    v283 = RecipeVersion(label="2.8.3", version="2.8.3", tag="v2.8.3")
    win_only = literal("w", "setup.py", "/W0", "/W1", os=(OsName.WINDOWS,))
    new_cuda = literal("c", "setup.py", "/W0", "/W1", min_cuda=(12, 8))
    old_cuda = literal("o", "setup.py", "/W0", "/W1", max_cuda=(12, 4))
    some = literal("v", "setup.py", "/W0", "/W1", versions=("v2.7.4.post1",))
    ctx = PatchContext(os=OsName.LINUX, cuda=(12, 6), version=v283, recipe="FA")
    results = apply_patches(tmp_path, [win_only, new_cuda, old_cuda, some], ctx)
    assert [r.status for r in results] == [PatchStatus.SKIPPED] * 4
    assert [r.detail for r in results] == [
        "only on Windows; this is Linux",
        "needs CUDA 12.8 or newer; this is CUDA 12.6",
        "only up to CUDA 12.4; this is CUDA 12.6",
        "only for version v2.7.4.post1; this is 2.8.3",
    ]
    assert results[0].describe() == "patch w (setup.py): skipped: only on Windows; this is Linux"
    assert setup.read_text(encoding="utf-8") == SETUP
    unknown = PatchContext(os=OsName.WINDOWS, cuda=None, version=None)
    assert condition_reason(new_cuda, unknown) == (
        "needs CUDA 12.8 or newer; the CUDA version is not known")
    assert "version being built is not known" in str(condition_reason(some, unknown))
    # the reasons agree with the catalog's own rule for every combination
    for patch in (win_only, new_cuda, old_cuda, some):
        for os_name in (OsName.LINUX, OsName.WINDOWS):
            for cuda in (None, (12, 4), (12, 4, 1), (12, 6), (12, 8), (13, 0)):
                for version in (v274, v283):
                    c = PatchContext(os=os_name, cuda=cuda, version=version)
                    assert (condition_reason(patch, c) is None) == patch.when.applies(
                        os_name, cuda, version), (patch.id, os_name, cuda, version.label)


def test_crlf_files_keep_crlf(tmp_path: Path) -> None:
    text = "int main() {\r\n    old_call(1);\r\n    return 0;\r\n}\r\n"
    path = write(tmp_path, "main.cpp", text.encode("utf-8"))
    multi = literal("multi", "main.cpp", "int main() {\n    old_call(1);",
                    "int main() {\n    new_call(1);\n    log();")
    grouped = regex("rx", "main.cpp", r"return (\d+);", "cleanup();\n    return \\1 + 0;")
    results = apply_patches(tmp_path, [multi, grouped], LINUX)
    assert [r.status for r in results] == [PatchStatus.APPLIED] * 2
    data = path.read_bytes()
    assert data == (b"int main() {\r\n    new_call(1);\r\n    log();\r\n    cleanup();\r\n"
                    b"    return 0 + 0;\r\n}\r\n")
    assert data.count(b"\n") == data.count(b"\r\n")  # no lone LF anywhere
    shutil.rmtree(tmp_path / LEDGER_DIR)
    again = apply_patches(tmp_path, [multi, grouped], LINUX)  # evidence found in CRLF text
    assert [r.status for r in again] == [PatchStatus.ALREADY_APPLIED] * 2
    assert path.read_bytes() == data


def test_regex_with_groups(tmp_path: Path) -> None:
    src = "x = kernel_v1(3);\ny = other_v1(42);\nz = kernel_v2(1, 0);\n"
    path = write(tmp_path, "api.py", src)
    patch = regex("bump", "api.py", r"(?P<name>\w+)_v1\((\d+)\)", r"\g<name>_v2(\2, 0)", count=2)
    (result,) = apply_patches(tmp_path, [patch], LINUX)
    assert (result.status, result.count) == (PatchStatus.APPLIED, 2)
    assert path.read_text(encoding="utf-8") == (
        "x = kernel_v2(3, 0);\ny = other_v2(42, 0);\nz = kernel_v2(1, 0);\n")
    shutil.rmtree(tmp_path / LEDGER_DIR)
    with pytest.raises(PatchError) as info:  # three "*_v2(*, 0)" now, 2 expected: not sure
        apply_patches(tmp_path, [patch], LINUX)
    assert "replacement found 3 times" in info.value.what


def test_bytes_outside_the_patch_are_kept_exactly(tmp_path: Path) -> None:
    raw = ("\ufeff// Zoë\n".encode() + b"\xff\xfe latin-1 \xe9 bytes\r\n"
           + b"FLAG_OLD\nmixed\r\n")
    path = write(tmp_path, "odd.h", raw)
    apply_patches(tmp_path, [literal("flag", "odd.h", "FLAG_OLD", "FLAG_NEW")], LINUX)
    assert path.read_bytes() == raw.replace(b"FLAG_OLD", b"FLAG_NEW")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_file_mode_is_kept(tmp_path: Path) -> None:
    path = write(tmp_path, "build.sh", "#!/bin/sh\necho old\n")
    path.chmod(0o755)
    apply_patches(tmp_path, [literal("sh", "build.sh", "echo old", "echo new")], LINUX)
    assert stat.S_IMODE(path.stat().st_mode) == 0o755


def test_patch_that_would_patch_again_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "b.py", "x = f(a)\n")
    bad = literal("bad", "b.py", "f(a)", "f(a) or f(a)")
    with pytest.raises(PatchError) as info:
        apply_patches(tmp_path, [bad], LINUX)
    assert "not idempotent" in info.value.what
    assert (tmp_path / "b.py").read_text(encoding="utf-8") == "x = f(a)\n"


def test_patch_outside_the_tree_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tree").mkdir()
    write(tmp_path, "outside.txt", "a")
    with pytest.raises(PatchError) as info:
        apply_patches(tmp_path / "tree", [literal("esc", "../outside.txt", "a", "b")], LINUX)
    assert "not inside the source tree" in info.value.what
    assert (tmp_path / "outside.txt").read_text(encoding="utf-8") == "a"


def test_revert_puts_originals_back_and_keeps_foreign_edits(tmp_path: Path) -> None:
    setup = write(tmp_path, "setup.py", SETUP)
    other = write(tmp_path, "csrc/k.cu", "OLD\n")
    apply_patches(tmp_path, [ZC_HOST, ZC_NVCC, literal("k", "csrc/k.cu", "OLD", "NEW")],
                  WINDOWS)
    other.write_text("NEW\n// edited by someone\n", encoding="utf-8")
    result = revert_patches(tmp_path)
    assert result.reverted == ("setup.py",) and result.kept == ("csrc/k.cu",)
    assert setup.read_text(encoding="utf-8") == SETUP
    assert (tmp_path / LEDGER_DIR).exists()  # kept: it still explains csrc/k.cu's history


def test_skipped_patch_still_in_the_file_is_said(tmp_path: Path) -> None:
    write(tmp_path, "setup.py", SETUP)
    apply_patches(tmp_path, [ZC_HOST], WINDOWS)
    windows_only = replace(ZC_HOST, when=PatchCondition(os=(OsName.WINDOWS,)))
    (result,) = apply_patches(tmp_path, [windows_only], LINUX)
    assert result.status is PatchStatus.SKIPPED
    assert "applied in an earlier run and is still in the file" in result.detail


def test_shipped_recipe_patches_parse_and_apply_to_their_own_text(tmp_path: Path) -> None:
    catalog = load_catalog()
    mla = catalog.get("flashmla")
    assert not catalog.problems
    ids = [p.id for p in mla.patches]
    assert ids == ["msvc-lambda-always-inline", "msvc-zc-cplusplus-host",
                   "msvc-zc-cplusplus-nvcc", "sm100-prefill-guard",
                   "sm100-prefill-guard-forward", "sm100-prefill-guard-backward",
                   "mla-size-checks", "mla-size-checks-decode",
                   "mla-size-checks-sparse-prefill"]
    windows_only = [p for p in mla.patches if p.id.startswith("msvc-")]
    for patch in mla.patches:
        assert isinstance(patch, Patch) and patch.expected_count >= 1
        assert patch.when.os == ((OsName.WINDOWS,) if patch in windows_only else ())
        if patch.kind is PatchKind.REGEX:
            re.compile(patch.pattern)
    version = mla.versions[0]
    ctx = PatchContext(os=OsName.LINUX, cuda=(12, 8), version=version, recipe=mla.name)
    assert {r.status for r in apply_patches(tmp_path, windows_only, ctx)} == {
        PatchStatus.SKIPPED}
    # each patch applied to a file made of its own pattern's text: applied, then a no-op
    for patch in mla.patches:
        root = tmp_path / patch.id
        sample = patch.pattern if patch.kind is PatchKind.LITERAL else (
            re.sub(r"\(\?!.*\)$", "", patch.pattern).replace("\\s", " "))
        write(root, patch.file, "\n".join([sample] * patch.expected_count) + "\n")
        win = PatchContext(os=OsName.WINDOWS, cuda=(12, 8), version=version, recipe=mla.name)
        (first,) = apply_patches(root, [patch], win)
        assert (first.status, first.count) == (PatchStatus.APPLIED, patch.expected_count)
        shutil.rmtree(root / LEDGER_DIR)
        (second,) = apply_patches(root, [patch], win)
        assert second.status is PatchStatus.ALREADY_APPLIED, second.describe()


@pytest.mark.skipif(not os.environ.get("FLASHMLA_SOURCE"),
                    reason="set FLASHMLA_SOURCE to an upstream FlashMLA work tree")
def test_flashmla_windows_patches_fit_upstream(tmp_path: Path) -> None:
    upstream = Path(os.environ["FLASHMLA_SOURCE"])
    mla = load_catalog().get("flashmla")
    for patch in mla.patches:  # a copy: the upstream tree is never changed by the test
        target = tmp_path / patch.file
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(upstream / patch.file, target)
    ctx = PatchContext(os=OsName.WINDOWS, cuda=(12, 8), version=mla.versions[0],
                       recipe=mla.name)
    first = apply_patches(tmp_path, mla.patches, ctx)
    assert [(r.patch_id, r.status, r.count) for r in first] == [
        ("msvc-lambda-always-inline", PatchStatus.APPLIED, 3),
        ("msvc-zc-cplusplus-host", PatchStatus.APPLIED, 1),
        ("msvc-zc-cplusplus-nvcc", PatchStatus.APPLIED, 1),
        ("sm100-prefill-guard", PatchStatus.APPLIED, 1),  # every OS: the SM90 prefill guard
        ("sm100-prefill-guard-forward", PatchStatus.APPLIED, 1),
        ("sm100-prefill-guard-backward", PatchStatus.APPLIED, 1),
        ("mla-size-checks", PatchStatus.APPLIED, 1),
        ("mla-size-checks-decode", PatchStatus.APPLIED, 1),
        ("mla-size-checks-sparse-prefill", PatchStatus.APPLIED, 1),
    ]
    compile((tmp_path / "flash_mla" / "flash_mla_interface.py").read_text("utf-8"),
            "flash_mla_interface.py", "exec")
    second = apply_patches(tmp_path, mla.patches, ctx)
    assert {r.status for r in second} == {PatchStatus.ALREADY_APPLIED}
    revert_patches(tmp_path)
    for patch in mla.patches:
        assert (tmp_path / patch.file).read_bytes() == (upstream / patch.file).read_bytes()


def test_flashmla_size_checks_raise_where_the_extension_crashed(torch_venv: Path) -> None:
    """The sizes that killed the process on an H200 (boundary sweep, 2026-11-28: dense decoding
    with head size 512 exit code 1, sparse prefill with 32 heads or head size 256 SIGSEGV) get
    a ValueError from recipe patch mla-size-checks, and the sizes FlashMLA has pass through to
    the extension. Runs the patch's own code with real (CPU) torch tensors."""
    mla = load_catalog().get("flashmla")
    checks = next(p for p in mla.patches if p.id == "mla-size-checks")
    definitions = checks.replacement.split("@dataclasses.dataclass")[0]
    script = "import torch\n" + definitions + textwrap.dedent('''
        def outcome(fn, *args):
            try:
                fn(*args)
            except (ValueError, TypeError) as exc:
                return type(exc).__name__ + ": " + str(exc)
            return "passed"

        bf = torch.bfloat16
        def t(*shape, dtype=bf):
            return torch.zeros(*shape, dtype=dtype)
        idx = t(8, 1, 128, dtype=torch.int32)
        print(outcome(_ksw_check_dense_decode, t(2, 1, 16, 576), t(4, 64, 1, 576), 512))
        print(outcome(_ksw_check_dense_decode, t(2, 1, 16, 512), t(4, 64, 1, 512), 512))
        print(outcome(_ksw_check_sparse_prefill, t(8, 128, 576), t(64, 1, 576), idx, 512))
        print(outcome(_ksw_check_sparse_prefill, t(8, 64, 512), t(64, 1, 512), idx, 512))
        print(outcome(_ksw_check_sparse_prefill, t(8, 32, 576), t(64, 1, 576), idx, 512))
        print(outcome(_ksw_check_sparse_prefill, t(8, 128, 256), t(64, 1, 256), idx, 512))
        print(outcome(_ksw_check_sparse_prefill, t(8, 128, 576, dtype=torch.float16),
                      t(64, 1, 576), idx, 512))
    ''')
    done = subprocess.run([str(torch_venv), "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "passed" and lines[2] == "passed" and lines[3] == "passed"
    assert lines[1].startswith("ValueError: FlashMLA's dense decoding has kernels for head "
                               "size 576 with v head size 512 only")
    assert "got q 512, KV cache 512, v 512" in lines[1]
    assert "has kernels for 64 or 128 query heads only; got 32" in lines[4]
    assert "head size 576 or 512 (the same for q and kv)" in lines[5] and "got q 256" in lines[5]
    assert lines[6].startswith("TypeError: FlashMLA's sparse prefill takes bf16 q and kv")
    assert all("scaled_dot_product_attention takes any size" in line
               for line in lines[1:2] + lines[4:6])
