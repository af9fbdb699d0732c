"""SageAttention in the catalog (issue 22): the recipes' facts as a user meets them on the Kernel
page (which GPUs, which CUDA, why not), the build's arch list narrowed to the detected GPUs,
woct0rdho's Windows wheels matched exactly (abi3, "andhigher" = libtorch's stable ABI), the
Triton check with its fix, and the report's SageAttention measures."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_catalog import machine, python_env
from test_prereqs import env as prereq_env
from test_prereqs import facts, windows

from kernel_wizard.build.plan import arch_env
from kernel_wizard.catalog import Catalog, ReasonKind, assess, load_catalog, select_targets
from kernel_wizard.catalog.wheels import candidate_wheel_urls, match
from kernel_wizard.prereqs import CheckId, CheckStatus, run_checks
from kernel_wizard.prereqs.triton import check_triton
from kernel_wizard.verify.report import ErrorMeasure

RTX3090 = ("NVIDIA GeForce RTX 3090", (8, 6), 24)
RTX4090 = ("NVIDIA GeForce RTX 4090", (8, 9), 24)
RTX5090 = ("NVIDIA GeForce RTX 5090", (12, 0), 32)
H100 = ("NVIDIA H100 80GB HBM3", (9, 0), 80)
B200 = ("NVIDIA B200", (10, 0), 180)
T4 = ("Tesla T4", (7, 5), 16)
WOCT = "https://github.com/woct0rdho/SageAttention/releases/download"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def sage_verdict(catalog: Catalog, gpus: tuple, os: str = "linux",
                 toolkit: tuple[int, int] | None = (12, 8), torch: str = "2.8.0+cu128",
                 recipe: str = "sageattention"):
    r = catalog.get(recipe)
    return assess(r, r.recommended_for(machine(gpus, os, toolkit).os) or r.newest,
                  machine(gpus, os, toolkit, torch))


def test_recipe_pins_main_and_the_release(catalog: Catalog) -> None:
    sage = catalog.get("sageattention")
    assert [v.commit for v in sage.versions] == ["eb615cf6cf4d221338033340ee2de1c37fbdba4a",
                                                 "d1a57a546c3d395b1ffcbeecc66d81db76f3b4b5"]
    assert sage.versions[0].tag == "v2.2.0"
    from kernel_wizard.catalog import OsName
    assert sage.recommended_for(OsName.LINUX) is sage.versions[1]  # main d1a57a5
    assert sage.recommended_for(OsName.WINDOWS) is sage.versions[1]
    assert sage.env == {"EXT_PARALLEL": "1"}  # MAX_JOBS alone decides the compile jobs
    assert sage.verify_adapter == "sageattention" and sage.import_name == "sageattention"


@pytest.mark.parametrize(("gpus", "archs"), [
    ((RTX3090,), "8.6"),
    ((RTX4090,), "8.9"),
    ((H100,), "9.0"),
    ((RTX5090,), "12.0"),
    ((RTX3090, RTX4090), "8.6;8.9"),
])
def test_the_arch_list_is_the_detected_gpus(catalog: Catalog, gpus: tuple, archs: str) -> None:
    sage = catalog.get("sageattention")
    version = sage.newest
    selection = select_targets(sage, version, [f"{g[1][0]}.{g[1][1]}" for g in gpus])
    changes = {c.name: c.value for c in arch_env(sage, version, selection)}
    assert changes == {"TORCH_CUDA_ARCH_LIST": archs}


def test_rtx_cards_fit_with_the_cuda_each_needs(catalog: Catalog) -> None:
    assert sage_verdict(catalog, (RTX3090,), toolkit=(12, 1), torch="2.5.1+cu121").available
    ada = sage_verdict(catalog, (RTX4090,), toolkit=(12, 1), torch="2.5.1+cu121")
    assert ada.kinds() == {ReasonKind.CUDA_TOO_OLD}
    assert "needs CUDA 12.4 or newer" in ada.texts[0]
    blackwell = sage_verdict(catalog, (RTX5090,), toolkit=(12, 6), torch="2.7.1+cu126")
    assert "needs CUDA 12.8 or newer" in blackwell.texts[0]
    assert sage_verdict(catalog, (RTX5090,), toolkit=(12, 8), torch="2.7.1+cu128").available
    assert sage_verdict(catalog, (H100,), toolkit=(13, 0), torch="2.11.0+cu130").available
    windows = sage_verdict(catalog, (RTX4090,), os="windows")
    assert windows.available
    assert any("triton-windows" in w for w in windows.warnings)


def test_gpus_without_sageattention_2_kernels_are_told_why(catalog: Catalog) -> None:
    turing = sage_verdict(catalog, (T4,))
    assert turing.kinds() == {ReasonKind.GPU_UNSUPPORTED}
    assert "RTX 30xx, RTX 40xx, H100/H200, RTX 50xx" in turing.texts[0]
    # a B200: sageattn() raises "Unsupported CUDA architecture: sm100" at d1a57a5
    assert ReasonKind.GPU_UNSUPPORTED in sage_verdict(catalog, (B200,)).kinds()


def test_sageattention_3_is_for_blackwell_only(catalog: Catalog) -> None:
    hopper = sage_verdict(catalog, (H100,), toolkit=(13, 0), torch="2.11.0+cu130",
                          recipe="sageattention3")
    assert ReasonKind.GPU_UNSUPPORTED in hopper.kinds()
    assert "Hopper, Ada and Ampere GPUs use SageAttention 2" in hopper.texts[0]
    old_cuda = sage_verdict(catalog, (RTX5090,), toolkit=(12, 6), torch="2.8.0+cu126",
                            recipe="sageattention3")
    assert ReasonKind.CUDA_TOO_OLD in old_cuda.kinds()
    # python 3.12 (the test's Python): the README asks for 3.13
    fits = sage_verdict(catalog, (RTX5090,), toolkit=(12, 8), torch="2.8.0+cu128",
                        recipe="sageattention3")
    assert fits.kinds() == {ReasonKind.PYTHON} and "3.13" in fits.texts[0]
    sage3 = catalog.get("sageattention3")
    assert sage3.source.subdir == "sageattention3_blackwell"
    assert any("cutlass" in u for u in sage3.requirements.unchecked)


# -- prebuilt wheels --------------------------------------------------------------------------


def windows_env(torch: str, python: str = "3.12.9"):
    return python_env(torch, os="windows", python=python, cxx11_abi=False)


def test_an_andhigher_wheel_fits_every_newer_torch_of_its_cuda_major(catalog: Catalog) -> None:
    sage = catalog.get("sageattention")
    found = candidate_wheel_urls(sage, sage.newest, windows_env("2.13.0+cu130", "3.13.2"))
    # the publisher's newest build first (later posts fix bugs)
    assert [c.url for c in found] == [
        f"{WOCT}/v2.2.0-windows.post6/sageattention-2.2.0%2Bcu130torch2.10.0andhigher.post6-"
        "cp310-abi3-win_amd64.whl",
        f"{WOCT}/v2.2.0-windows.post5/sageattention-2.2.0%2Bcu130torch2.10.0andhigher.post5-"
        "cp310-abi3-win_amd64.whl",
        f"{WOCT}/v2.2.0-windows.post4/sageattention-2.2.0%2Bcu130torch2.9.0andhigher.post4-cp39-"
        "abi3-win_amd64.whl",
    ]
    # the digest published beside the post5 wheel goes with it to the download check
    assert [c.sha256 is not None for c in found] == [False, True, False]
    # torch 2.9: the post3 wheel built for 2.9.0 and the andhigher one from 2.9.0 on
    names = [c.filename for c in candidate_wheel_urls(sage, sage.newest,
                                                      windows_env("2.9.1+cu130"))]
    assert names == ["sageattention-2.2.0+cu130torch2.9.0andhigher.post4-cp39-abi3-"
                     "win_amd64.whl",
                     "sageattention-2.2.0+cu130torch2.9.0.post3-cp39-abi3-win_amd64.whl"]


def test_no_wheel_where_nothing_matches_exactly(catalog: Catalog) -> None:
    sage = catalog.get("sageattention")
    # CUDA 12 PyTorch 2.10: only the CUDA 12 andhigher wheel (the 2.10 ones are CUDA 13 builds)
    names = [c.filename for c in candidate_wheel_urls(sage, sage.newest,
                                                      windows_env("2.10.0+cu128"))]
    assert names == ["sageattention-2.2.0+cu128torch2.9.0andhigher.post4-cp39-abi3-"
                     "win_amd64.whl"]
    # torch 2.7 on Python 3.11: the cp311 wheel and the abi3 ones (not the cp312/cp313 ones)
    names = [c.filename for c in candidate_wheel_urls(sage, sage.newest,
                                                      windows_env("2.7.1+cu128", "3.11.9"))]
    assert names == ["sageattention-2.2.0+cu128torch2.7.1.post3-cp39-abi3-win_amd64.whl",
                     "sageattention-2.2.0+cu128torch2.7.1.post2-cp39-abi3-win_amd64.whl",
                     "sageattention-2.2.0+cu128torch2.7.1-cp311-cp311-win_amd64.whl"]
    # Linux: woct0rdho publishes Windows wheels only; a source build
    assert candidate_wheel_urls(sage, sage.newest, python_env("2.9.0+cu130")) == []
    older = match("sageattention-2.2.0+cu130torch2.10.0andhigher.post6-cp310-abi3-win_amd64.whl",
                  windows_env("2.9.1+cu130"))
    assert older.texts == ("Built for PyTorch 2.10 or newer; the target has PyTorch 2.9.1+cu130.",)


# -- the Triton check ---------------------------------------------------------------------------


def with_triton(base, version: str | None, dist: str, torch: str = "2.8.0+cu128"):
    """``version`` None: looked for and not installed (the probe's ``""``)."""
    env = prereq_env(torch=torch, cuda="12.8")
    return replace(base, env=replace(env, triton=version or "", triton_dist=dist))


def test_windows_without_triton_windows_gets_the_matching_one(catalog: Catalog) -> None:
    result = check_triton(with_triton(windows(), None, ""))
    assert result.status is CheckStatus.WARNING and not result.blocks
    assert result.needed_for == ("SageAttention 2",)
    assert "triton-windows is missing; SageAttention needs version 3.4" in result.summary
    assert result.fix is not None and result.fix.id == "triton"
    assert [s.packages for s in result.fix.steps] == [("triton-windows>=3.4,<3.5",)]
    assert "triton-windows>=3.4,<3.5" in result.fix.command_preview[0]
    # the check is on the page's list and its fix re-reads the environment
    assert CheckId.TRITON in {r.id for r in run_checks(windows())}
    names = {c.name for c in catalog.recipes}
    assert set(result.needed_for) <= names


def test_windows_triton_versions(catalog: Catalog) -> None:
    ok = check_triton(with_triton(windows(), "3.4.0.post21", "triton-windows"))
    assert ok.status is CheckStatus.OK and ok.fix is None
    assert ok.summary == "triton-windows 3.4.0.post21 matches PyTorch 2.8.0+cu128."
    wrong = check_triton(with_triton(windows(), "3.5.1.post24", "triton-windows"))
    assert wrong.status is CheckStatus.WARNING and wrong.fix is not None
    assert "does not match PyTorch 2.8.0+cu128, which works with Triton 3.4" in wrong.summary
    stock = check_triton(with_triton(windows(), "2.1.0", "triton"))
    assert stock.status is CheckStatus.WARNING and stock.fix is None
    assert "pip uninstall -y triton" in stock.hint
    newer = check_triton(with_triton(windows(), None, "", torch="2.14.0+cu130"))
    assert newer.status is CheckStatus.WARNING and newer.fix is None
    assert "not known to the wizard" in newer.summary


def test_linux_uses_the_triton_that_comes_with_torch() -> None:
    ok = check_triton(with_triton(facts(), "3.4.0", "triton"))
    assert ok.status is CheckStatus.OK
    assert ok.summary == "Triton 3.4.0 (it comes with PyTorch 2.8.0+cu128)."
    missing = check_triton(with_triton(facts(), None, ""))
    assert missing.status is CheckStatus.WARNING and missing.fix is not None
    assert [s.packages for s in missing.fix.steps] == [("triton>=3.4,<3.5",)]
    no_torch = check_triton(replace(facts(), env=prereq_env(torch=None)))
    # nothing to check yet: not shown as "OK" (the row said OK before it was ever checked)
    assert no_torch.status is CheckStatus.NOT_CHECKED and no_torch.needed_for == ()
    assert not no_torch.status.blocks
    # an environment inspected by an older probe (no answer about Triton) is not judged
    unknown = check_triton(replace(facts(), env=prereq_env(torch="2.8.0+cu128", cuda="12.8")))
    assert unknown.status is CheckStatus.NOT_CHECKED and "Not checked" in unknown.summary


def test_the_probe_reads_triton_from_package_metadata(tmp_path: Path) -> None:
    from kernel_wizard.machine.environment import _libraries

    found = _libraries({"triton": {"dist": "triton-windows", "version": "3.4.0.post21"}}, {})
    assert found == {"triton": "3.4.0.post21", "triton_dist": "triton-windows"}
    assert _libraries({"triton": None}, {}) == {"triton": ""}  # looked for: missing
    assert _libraries({}, {}) == {}  # not looked for


# -- the report's measures -----------------------------------------------------------------------


def test_sageattention_measures_survive_the_report() -> None:
    data = {"name": "out", "rule": "sageattention", "kernel_err": 0.02, "tolerance": 0.08,
            "passed": True, "stats": {"cos_sim": 0.99921, "rel_l1": 0.0391, "rmse": 0.0021,
                                      "worst_row_l1": 0.07, "cos_min": 0.99, "bogus": "x"}}
    m = ErrorMeasure.from_json(data)
    assert m.stats["cos_sim"] == 0.99921 and "bogus" not in m.stats
    assert m.cell() == "cos 0.99921, L1 0.0391, RMSE 0.0021"
    assert ErrorMeasure.from_json(m.to_json()) == m
    failed = replace(m, passed=False, problem="accuracy")
    assert failed.cell().endswith("(too far)")
    assert "stats" not in ErrorMeasure.from_json({"name": "out"}).to_json()
