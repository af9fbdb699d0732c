"""kernel_wizard.build.plan: one request → the exact plan, for every recipe on recorded machines."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from kernel_wizard.base.resources import resource_path
from kernel_wizard.build.plan import (
    BuildRequest,
    PlanError,
    build_archs,
    estimate_build,
    machine_for,
    plan_build,
    plan_parallelism,
)
from kernel_wizard.catalog import Catalog, Recipe, load_catalog
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.machine.platforms.linux import LinuxPlatform
from kernel_wizard.machine.toolkits import discover_toolkits

H100 = Path(__file__).resolve().parents[1] / "data" / "nvml" / "h100-driver580.json"
CUDA13 = Path("/usr/local/cuda-13.0")


def h100_report() -> HardwareReport:
    recording = json.loads(H100.read_text(encoding="utf-8"))
    return detect(lambda: ReplayNvmlApi(recording))


def with_gpus(report: HardwareReport, *ccs: tuple[int, int]) -> HardwareReport:
    """The recorded H100 host with other GPUs in it (names as NVML reports them)."""
    names = {(8, 6): "NVIDIA GeForce RTX 3090", (8, 9): "NVIDIA GeForce RTX 4090",
             (9, 0): "NVIDIA H100 80GB HBM3", (10, 0): "NVIDIA B200",
             (12, 0): "NVIDIA GeForce RTX 5090", (6, 1): "NVIDIA GeForce GTX 1080"}
    template = report.gpus[0]
    gpus = tuple(replace(template, index=i, name=names[cc], compute_capability=cc)
                 for i, cc in enumerate(ccs))
    return replace(report, gpus=gpus)


def env(cuda: str | None, tmp_path: Path, torch_version: str = "2.11.0") -> PythonEnv:
    torch = TorchInfo(f"{torch_version}+cu130" if cuda else "2.13.0+cpu", cuda, bool(cuda),
                      1 if cuda else 0, ("sm_90",) if cuda else (), True)
    return PythonEnv(
        executable=tmp_path / "env" / "bin" / "python",
        status=EnvStatus.READY if cuda else EnvStatus.CPU_TORCH,
        summary="test",
        torch=torch,
        raw={"python": {"scripts": str(tmp_path / "env" / "bin")}},
    )


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture()
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KSW_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def source_tree(tmp_path: Path) -> Path:
    folder = tmp_path / "src tree"
    folder.mkdir(exist_ok=True)
    return folder


# Every recipe on recorded machines: what the arch knob and the CPU switch are told.
# (recipe, version, GPUs' compute capabilities, selected GPUs, expected variables, absent ones)
CASES = [
    ("probe", "0.1.0", [(9, 0)], None, {"TORCH_CUDA_ARCH_LIST": "9.0"},
     ["KSW_PROBE_CPU_ONLY"]),
    ("probe", "0.1.0", [(8, 6), (8, 9), (6, 1)], None, {"TORCH_CUDA_ARCH_LIST": "8.6;8.9"}, []),
    ("probe", "0.1.0", [(8, 6), (12, 0)], (1,), {"TORCH_CUDA_ARCH_LIST": "12.0"}, []),
    ("flash_attn", "2.8.3", [(9, 0)], None, {"FLASH_ATTN_CUDA_ARCHS": "90"}, []),
    ("flash_attn", "2.8.3", [(8, 6), (8, 9)], None, {"FLASH_ATTN_CUDA_ARCHS": "80"}, []),
    ("flash_attn", "2.8.3", [(8, 6), (12, 0)], None, {"FLASH_ATTN_CUDA_ARCHS": "80;120"}, []),
    ("flash_attn", "2.6.3", [(8, 6)], None, {}, ["FLASH_ATTN_CUDA_ARCHS", "TORCH_CUDA_ARCH_LIST"]),
    ("flashmla", None, [(9, 0)], None, {"FLASH_MLA_DISABLE_SM100": "1"},
     ["FLASH_MLA_DISABLE_SM90"]),
    ("flashmla", None, [(10, 0)], None, {"FLASH_MLA_DISABLE_SM90": "1"},
     ["FLASH_MLA_DISABLE_SM100"]),
    ("flashmla", None, [(9, 0), (10, 0)], None, {},
     ["FLASH_MLA_DISABLE_SM90", "FLASH_MLA_DISABLE_SM100"]),
    ("deepep", None, [(9, 0), (9, 0)], None, {}, ["KSW_PROBE_CPU_ONLY"]),
]


@pytest.mark.parametrize(("rid", "version", "ccs", "selected", "expected", "absent"), CASES)
def test_every_recipe_on_recorded_machines(
    catalog: Catalog, tmp_path: Path, data_dir: Path, rid: str, version: str | None,
    ccs: list[tuple[int, int]], selected: tuple[int, ...] | None, expected: dict[str, str],
    absent: list[str],
) -> None:
    recipe = catalog.get(rid)
    v = recipe.version(version) if version else recipe.newest
    hardware = with_gpus(h100_report(), *ccs)
    request = BuildRequest(recipe, v, env("13.0", tmp_path), hardware,
                           source_dir=source_tree(tmp_path), gpu_indices=selected)
    plan = plan_build(request, build_root=tmp_path / "root", toolkits=[],
                      platform=LinuxPlatform())
    for name, value in expected.items():
        assert plan.env_value(name) == value, plan.describe()
    for name in absent:
        assert plan.env_value(name) is None, plan.describe()
    for name, value in recipe.env.items():  # the recipe's fixed settings always go along
        assert plan.env_value(name) == value
    assert plan.env_value("MAX_JOBS") == str(plan.parallelism.jobs)
    threads_read = recipe.nvcc_threads(v)[1]
    assert (plan.env_value("NVCC_THREADS") is not None) == threads_read
    assert plan.kernel == rid and plan.version == v.label


def test_the_knob_rule_is_read_from_the_recipe(catalog: Catalog, tmp_path: Path,
                                                data_dir: Path) -> None:
    """No hard-coded copy: a recipe whose targets name other switches gets those switches."""
    mla = catalog.get("flashmla")
    renamed = tuple(replace(t, disable_env=f"MY_SKIP_{t.name.upper()}") for t in mla.targets)
    custom: Recipe = replace(mla, targets=renamed)
    request = BuildRequest(custom, custom.newest, env("13.0", tmp_path),
                           with_gpus(h100_report(), (9, 0)), source_dir=source_tree(tmp_path))
    plan = plan_build(request, build_root=tmp_path / "root", toolkits=[],
                      platform=LinuxPlatform())
    assert plan.env_value("MY_SKIP_SM100") == "1"
    assert plan.env_value("FLASH_MLA_DISABLE_SM100") is None


def test_probe_on_a_cpu_torch_plans_the_bundled_source(catalog: Catalog, tmp_path: Path,
                                                       data_dir: Path) -> None:
    probe = catalog.get("probe")
    request = BuildRequest(probe, probe.newest, env(None, tmp_path), h100_report())
    plan = plan_build(request, build_root=tmp_path / "root", toolkits=[])
    # the source where it ships: the build runs it in its own copy (tests/integration/
    # test_worktree.py), the plan only names it
    assert plan.source_dir == resource_path("probe_kernel")
    assert plan.cwd == plan.source_dir
    assert plan.env_value("KSW_PROBE_CPU_ONLY") == "1"  # probe.toml's cpu_only_env
    assert plan.env_value("CUDA_HOME") is None
    assert plan.env_value("TORCH_CUDA_ARCH_LIST") is None
    assert plan.output_dir.parent == data_dir / "staging"
    assert plan.log_path.parent == data_dir / "logs"


def listing(*folders: Path) -> list[tuple[str, int, int]]:
    """Every file and folder under ``folders``: path, size and modification time."""
    found = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            st = path.stat()
            found.append((str(path), st.st_size if path.is_file() else 0, st.st_mtime_ns))
    return found


@pytest.mark.parametrize("bundled", [True, False])
def test_planning_writes_nothing(catalog: Catalog, tmp_path: Path, data_dir: Path,
                                 bundled: bool) -> None:
    """--plan-only, the pages' preview and the build plan alike: no copy, no staging or log
    folder, no build root, and the source (the wizard's own, or the user's) untouched."""
    recipe = catalog.get("probe" if bundled else "flash_attn")
    if bundled:
        source = resource_path("probe_kernel")
    else:
        source = source_tree(tmp_path)
        (source / "setup.py").write_text("print('setup')\n", encoding="utf-8")
    request = BuildRequest(recipe, recipe.newest, env(None if bundled else "13.0", tmp_path),
                           h100_report(), source_dir=None if bundled else source)
    before = listing(tmp_path, source)
    plan = plan_build(request, build_root=tmp_path / "root", toolkits=[])
    assert listing(tmp_path, source) == before
    assert not (tmp_path / "root").exists() and not data_dir.exists()
    assert plan.source_dir == source and (plan.cwd / "setup.py").is_file()


@pytest.mark.skipif(not (CUDA13 / "include" / "cccl").is_dir(), reason="needs CUDA 13.0 here")
def test_cuda_plan_uses_the_toolkit_that_fits_torch(catalog: Catalog, tmp_path: Path,
                                                    data_dir: Path) -> None:
    probe = catalog.get("probe")
    request = BuildRequest(probe, probe.newest, env("13.0", tmp_path), h100_report())
    plan = plan_build(request, build_root=tmp_path / "root")
    assert plan.env_value("TORCH_CUDA_ARCH_LIST") == "9.0"  # the H100 only
    assert plan.env_value("CUDA_HOME") == str(CUDA13)
    assert plan.env_value("CPLUS_INCLUDE_PATH") == str(CUDA13 / "include" / "cccl")
    assert plan.env_value("KSW_PROBE_CPU_ONLY") is None


def test_no_gpu_selected_builds_the_default_list_and_says_so(
    catalog: Catalog, tmp_path: Path, data_dir: Path
) -> None:
    fa = catalog.get("flash_attn")
    request = BuildRequest(fa, fa.version("2.8.3"), env("13.0", tmp_path), h100_report(),
                           source_dir=source_tree(tmp_path), gpu_indices=())
    plan = plan_build(request, build_root=tmp_path / "root", toolkits=[])
    assert plan.env_value("FLASH_ATTN_CUDA_ARCHS") is None
    assert any("default architecture list" in note for note in plan.notes)


def test_unusable_environments_are_refused_naming_the_python(
    catalog: Catalog, tmp_path: Path, data_dir: Path
) -> None:
    probe = catalog.get("probe")
    broken = replace(env(None, tmp_path), status=EnvStatus.NO_PIP, hint="install pip")
    with pytest.raises(PlanError) as caught:
        plan_build(BuildRequest(probe, probe.newest, broken, h100_report()),
                   build_root=tmp_path, toolkits=[])
    assert caught.value.hint == "install pip"
    assert str(broken.executable) in caught.value.what
    no_torch = replace(env(None, tmp_path), status=EnvStatus.NO_TORCH, torch=None)
    with pytest.raises(PlanError, match="no PyTorch"):
        plan_build(BuildRequest(probe, probe.newest, no_torch, h100_report()),
                   build_root=tmp_path, toolkits=[])
    mla = catalog.get("flashmla")
    with pytest.raises(PlanError, match="CUDA build of PyTorch"):
        plan_build(BuildRequest(mla, mla.newest, env(None, tmp_path), h100_report(),
                                source_dir=source_tree(tmp_path)),
                   build_root=tmp_path, toolkits=[])


def test_missing_source_folder(catalog: Catalog, tmp_path: Path, data_dir: Path) -> None:
    mla = catalog.get("flashmla")
    request = BuildRequest(mla, mla.newest, env("13.0", tmp_path), h100_report(),
                           source_dir=tmp_path / "gone")
    with pytest.raises(PlanError, match="does not exist"):
        plan_build(request, build_root=tmp_path, toolkits=[])
    with pytest.raises(PlanError, match="needs its source"):
        plan_build(replace(request, source_dir=None), build_root=tmp_path, toolkits=[])


def test_estimate_and_plan_agree_on_parallelism(catalog: Catalog, tmp_path: Path,
                                                data_dir: Path) -> None:
    """The Kernel page's estimate assumes exactly the jobs × threads the build will use."""
    report = h100_report()
    host = report.host
    for rid in ("flashmla", "flash_attn", "probe"):
        recipe = catalog.get(rid)
        request = BuildRequest(recipe, recipe.newest, env("13.0", tmp_path), report,
                               source_dir=source_tree(tmp_path))
        plan = plan_build(request, build_root=tmp_path / "root", toolkits=[])
        machine = machine_for(report, request.env, toolkits=[], platform=LinuxPlatform())
        selection = build_archs(recipe, recipe.newest, machine)
        estimate = estimate_build(recipe, recipe.newest, list(selection.gpu_archs),
                                  host.cpu_logical, host.ram_available / 1024**3,
                                  machine.os)
        assert (estimate.jobs, estimate.nvcc_threads) == (
            plan.parallelism.jobs, plan.parallelism.nvcc_threads), rid


def test_parallelism_of_a_version_with_fixed_nvcc_threads(catalog: Catalog) -> None:
    fa = catalog.get("flash_attn")
    old = plan_parallelism(fa, fa.version("2.5.0"), 1, 32, 64 * 1024**3)
    assert old.nvcc_threads == 4 and old.jobs == 2  # 64 GB × .85 / (5 GB × 4 threads)
    assert "fixed by this version" in old.reason


def test_machine_for_picks_the_toolkit_that_fits_torch(tmp_path: Path) -> None:
    if not (CUDA13 / "bin" / "nvcc").is_file():
        pytest.skip("needs CUDA 13.0 here")
    machine = machine_for(h100_report(), env("13.0", tmp_path), selected=(0,))
    assert machine.toolkit == (13, 0)
    assert machine.selected == (0,)
    assert machine_for(h100_report(), env(None, tmp_path)).toolkit is None  # CPU torch


@pytest.mark.skipif(not (CUDA13 / "bin" / "nvcc").is_file(), reason="needs CUDA 13.0 here")
def test_toolkit_discovery_on_this_machine(tmp_path: Path) -> None:
    wrapper_dir = tmp_path / "bin"
    wrapper_dir.mkdir()
    wrapper = wrapper_dir / "nvcc"  # like /usr/local/bin/nvcc: a script, not a toolkit root
    wrapper.write_text(f"#!/bin/sh\nexec {CUDA13}/bin/nvcc \"$@\"\n")
    wrapper.chmod(0o755)
    found = discover_toolkits(LinuxPlatform(), {"PATH": f"{wrapper_dir}{os.pathsep}/usr/bin"})
    roots = [t.root.resolve() for t in found]
    assert CUDA13.resolve() in roots
    assert tmp_path.resolve() not in roots  # the wrapper's parent is no toolkit
    toolkit = found[roots.index(CUDA13.resolve())]
    assert toolkit.release == (13, 0)
    assert toolkit.cccl_include == toolkit.root / "include" / "cccl"


def test_toolkit_from_cuda_home_comes_first(tmp_path: Path) -> None:
    if not (CUDA13 / "bin" / "nvcc").is_file():
        pytest.skip("needs CUDA 13.0 here")
    found = discover_toolkits(LinuxPlatform(), {"CUDA_HOME": str(CUDA13), "PATH": ""})
    assert found[0].root == CUDA13 and found[0].origin == "CUDA_HOME"



# FlashAttention 3: setup.py in hopper/, a compact build by default, the full one on request


def fa3_request(catalog: Catalog, tmp_path: Path, variant: str | None = None,
                hopper: bool = True) -> BuildRequest:
    source = source_tree(tmp_path)
    if hopper:
        (source / "hopper").mkdir(exist_ok=True)
    recipe = catalog.get("flash_attn_3")
    return BuildRequest(recipe, recipe.newest, env("13.0", tmp_path), h100_report(),
                        source_dir=source, variant=variant)


def test_flash_attention_3_builds_in_its_hopper_folder_compact_by_default(
        catalog: Catalog, tmp_path: Path, data_dir: Path) -> None:
    plan = plan_build(fa3_request(catalog, tmp_path), build_root=tmp_path / "root",
                      toolkits=[], platform=LinuxPlatform())
    assert plan.cwd == plan.source_dir / "hopper"
    assert f"cd '{plan.source_dir / 'hopper'}'" in plan.describe()
    assert plan.variant == "compact"
    assert plan.env_value("FLASH_ATTENTION_DISABLE_SM80") == "TRUE"  # sm_90a only
    assert plan.env_value("FLASH_ATTENTION_DISABLE_FP8") == "TRUE"
    assert plan.env_value("FLASH_ATTENTION_DISABLE_HDIM128") is None  # head size 128 is kept
    assert plan.env_value("FLASH_ATTENTION_DISABLE_VARLEN") is None
    assert plan.env_value("FLASH_ATTENTION_DISABLE_BACKWARD") is None
    assert any(note.startswith("Compact build: head size 128") for note in plan.notes)
    assert plan.estimate is not None and plan.estimate.units == 6  # 5 device units + the API


def test_the_full_flash_attention_3_build_is_one_choice_away_and_estimated_as_such(
        catalog: Catalog, tmp_path: Path, data_dir: Path) -> None:
    compact = plan_build(fa3_request(catalog, tmp_path), build_root=tmp_path / "root",
                         toolkits=[], platform=LinuxPlatform())
    full = plan_build(fa3_request(catalog, tmp_path, "full"), build_root=tmp_path / "root",
                      toolkits=[], platform=LinuxPlatform())
    assert full.variant == "full"
    assert full.env_value("FLASH_ATTENTION_DISABLE_FP8") is None
    assert full.env_value("FLASH_ATTENTION_DISABLE_SM80") == "TRUE"
    assert compact.estimate is not None and full.estimate is not None
    assert full.estimate.units == 233
    # the same machine: the full build is estimated at dozens of times the compact one
    assert full.estimate.seconds > 20 * compact.estimate.seconds
    assert compact.estimate.seconds < 600  # minutes on the 16-core H100 host


def test_an_unknown_variant_lists_the_known_ones(catalog: Catalog, tmp_path: Path,
                                                 data_dir: Path) -> None:
    from kernel_wizard.base.errors import UnknownChoiceError

    with pytest.raises(UnknownChoiceError) as caught:
        plan_build(fa3_request(catalog, tmp_path, "tiny"), build_root=tmp_path / "root",
                   toolkits=[], platform=LinuxPlatform())
    assert "no build variant 'tiny'" in str(caught.value)
    assert "compact, full" in caught.value.why
    with pytest.raises(UnknownChoiceError, match="has no build variants"):
        recipe = catalog.get("flash_attn")
        plan_build(BuildRequest(recipe, recipe.newest, env("13.0", tmp_path), h100_report(),
                                source_dir=source_tree(tmp_path), variant="compact"),
                   build_root=tmp_path / "root", toolkits=[], platform=LinuxPlatform())


def test_a_source_without_the_hopper_folder_is_refused_before_building(
        catalog: Catalog, tmp_path: Path, data_dir: Path) -> None:
    with pytest.raises(PlanError) as caught:
        plan_build(fa3_request(catalog, tmp_path, hopper=False), build_root=tmp_path / "root",
                   toolkits=[], platform=LinuxPlatform())
    assert "has no 'hopper' folder" in str(caught.value)
    assert "whole FlashAttention 3 repository" in (caught.value.hint or "")
