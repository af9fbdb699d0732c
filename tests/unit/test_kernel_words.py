"""The Kernel page's core sentences (fit reasons, advice, the parallelism and build estimate, the
GPU links) are translatable (kernel_wizard/base/messages.py) and still read, word for word, as the
English the CLI has always printed (tests/gui/test_translation_kernel.py shows them in
Chinese)."""

from __future__ import annotations

from kernel_wizard.base import advice
from kernel_wizard.base.messages import Msg
from kernel_wizard.base.parallelism import GIB, choose_parallelism
from kernel_wizard.build.plan import estimate_build, plan_parallelism
from kernel_wizard.catalog import OsName, Reason, ReasonKind, Verdict, load_catalog
from kernel_wizard.catalog.model import Requirements
from kernel_wizard.flow.recommend import minutes_text
from kernel_wizard.machine.hardware import Interconnect


def test_the_parallelism_reads_as_before_and_keeps_its_template() -> None:
    one = choose_parallelism(1, 64 * GIB, 5.0, 4)
    assert one.reason == ("1 parallel compile job × 1 nvcc thread: limited by CPU cores "
                          "(1 cores, 64.0 GB RAM available, ~5 GB per compile thread)")
    many = choose_parallelism(32, 16 * GIB, 5.0, 2)
    assert many.reason == ("1 parallel compile job × 2 nvcc threads: limited by RAM (32 cores, "
                           "16.0 GB RAM available, ~5 GB per compile thread)")
    wide = choose_parallelism(16, 256 * GIB, 2.5, 1)
    assert wide.reason == ("16 parallel compile jobs × 1 nvcc thread: limited by CPU cores "
                           "(16 cores, 256.0 GB RAM available, ~2.5 GB per compile thread)")
    assert isinstance(wide.reason, Msg) and "{limit}" in wide.reason.template


def test_a_fixed_thread_count_says_so() -> None:
    catalog = load_catalog()
    recipe = catalog.get("flash_attn")
    version = recipe.version("2.5.0")  # nvcc uses 4 threads, fixed
    par = plan_parallelism(recipe, version, 1, 16, 64 * GIB)
    assert par.reason == (f"{par.jobs} parallel compile jobs × 4 nvcc threads (fixed by this "
                          "version): limited by RAM (16 cores, 64.0 GB RAM available, ~5 GB "
                          "per compile thread)")


def test_the_build_estimate_explains_itself_as_before() -> None:
    catalog = load_catalog()
    probe = catalog.get("probe")
    cpu = estimate_build(probe, probe.newest, [], 8, 32.0, OsName.LINUX, cpu_only=True)
    assert cpu.jobs > 1
    assert cpu.explanation == (
        f"the CPU part: ~{cpu.core_seconds:,.0f} CPU-core-seconds on {cpu.parallel:.0f} compile "
        f"threads ({cpu.jobs} jobs × 1 nvcc thread, 8 cores, 32 GB RAM)")
    recipe = catalog.get("flash_attn")
    version = recipe.newest
    units = recipe.translation_units(version)
    est = estimate_build(recipe, version, ["9.0"], 32, 128.0, OsName.WINDOWS)
    assert est.explanation.startswith(f"1 arch × {units} units: ~")
    assert " jobs × 1 nvcc thread, 32 cores, 128 GB RAM)" in est.explanation
    assert ", × " in est.explanation and est.explanation.endswith(" on Windows")
    assert isinstance(est.explanation, Msg) and est.explanation.parts


def test_minutes_and_hours_read_as_before() -> None:
    assert [minutes_text(s) for s in (30, 120, 2940, 6600, 7200)] == [
        "1 min", "2 min", "49 min", "1 h 50 min", "2 h"]
    assert isinstance(minutes_text(6600), Msg)


def test_a_verdict_counts_its_other_reasons() -> None:
    reasons = tuple(Reason(ReasonKind.PYTHON, text) for text in ("A.", "B.", "C."))
    assert Verdict("x", "1", reasons[:1]).summary == "A."
    assert Verdict("x", "1", reasons[:2]).summary == "A. (and 1 more reason)"
    assert Verdict("x", "1", reasons).summary == "A. (and 2 more reasons)"
    assert Verdict("x", "1", ()).summary == "Fits this computer."
    assert Verdict("x", "1", (), cpu_only=True).summary == "Fits this computer (CPU part only)."


def test_the_gpus_a_kernel_needs() -> None:
    listed = Requirements(os=(OsName.LINUX,), supported_cc=((9, 0), (10, 0), (10, 3)))
    assert listed.describe_gpus() == "a GPU with compute capability 9.0, 10.0 or 10.3"
    assert Requirements(os=(OsName.LINUX,), min_cc=(8, 0)).describe_gpus() == (
        "Ampere (cc 8.0) or newer")
    assert Requirements(os=(OsName.LINUX,)).describe_gpus() == "an NVIDIA GPU"


def test_advice_reads_as_before_in_both_front_ends() -> None:
    try:
        advice.use_terminal(True)
        assert advice.prerequisite_fix("python-env") == (
            "run: python -m app --headless fix python-env")
        assert advice.prerequisite_commands("cuda") == (
            "'python -m app --headless fix cuda' shows the commands to run")
        assert advice.prerequisite_check("msvc") == (
            "'python -m app --headless check' says what to do")
        assert advice.choose_python() == "pass another one with --python PATH"
        assert advice.choose_source() == "pass it with --source PATH"
        assert advice.choose_kernel_version() == "'python -m app --headless kernels' lists them"
    finally:
        advice.use_terminal(False)
    assert advice.prerequisite_fix("python-env") == (
        "the Prerequisites step can do it (its Fix button)")
    assert advice.choose_python() == "choose another one on the Hardware step"
    assert isinstance(advice.choose_source(), Msg)


def test_gpu_links_read_as_before() -> None:
    assert Interconnect((18, 18), {(0, 1): True}).describe() == (
        "GPUs 0–1 are all connected with NVLink (18 links each).")
    assert Interconnect((4, 2), {(0, 1): True}).describe() == (
        "GPUs 0–1 are all connected with NVLink.")
    assert Interconnect((0, 0, 0), {(0, 1): False, (0, 2): True, (1, 2): False}).describe() == (
        "Not every pair of GPUs is connected with NVLink (no NVLink between 0↔1, 1↔2); they "
        "talk over PCIe.")
    assert Interconnect((2,), {}).describe() == (
        "One GPU: no GPU-to-GPU connection to check (2 NVLink links active).")
