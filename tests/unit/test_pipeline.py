"""Planning a build from the wizard's choices: archs, toolkit, parallelism, staged source."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from build_backend.build import ArchKnob
from build_backend.environment import EnvStatus, PythonEnv, TorchInfo
from build_backend.hardware import GpuInfo, detect
from build_backend.nvml_record import ReplayNvmlApi
from build_backend.pipeline import (
    PROBE,
    KernelSpec,
    PlanError,
    plan_build,
    probe_request,
    selected_archs,
)
from build_backend.platforms.linux import LinuxPlatform
from build_backend.toolkits import discover_toolkits

H100 = Path(__file__).resolve().parents[1] / "data" / "nvml" / "h100-driver580.json"
CUDA13 = Path("/usr/local/cuda-13.0")


def h100_report():  # type: ignore[no-untyped-def]
    recording = json.loads(H100.read_text(encoding="utf-8"))
    return detect(lambda: ReplayNvmlApi(recording))


def env(cuda: str | None, tmp_path: Path) -> PythonEnv:
    torch = TorchInfo("2.11.0+cu130" if cuda else "2.13.0+cpu", cuda, bool(cuda), 1 if cuda else 0,
                      ("sm_90",) if cuda else (), True)
    return PythonEnv(
        executable=tmp_path / "env" / "bin" / "python",
        status=EnvStatus.READY if cuda else EnvStatus.CPU_TORCH,
        summary="test",
        torch=torch,
        raw={"python": {"scripts": str(tmp_path / "env" / "bin")}},
    )


def gpu(index: int, cc: tuple[int, int]) -> GpuInfo:
    return GpuInfo(index, "GPU", None, cc, 1, 1)


def test_arch_union_of_selected_gpus() -> None:
    gpus = [gpu(0, (8, 6)), gpu(1, (9, 0)), gpu(2, (8, 6)), gpu(3, (7, 5))]
    assert selected_archs(gpus, None, None) == ["7.5", "8.6", "9.0"]
    assert selected_archs(gpus, [0, 2], None) == ["8.6"]
    assert selected_archs(gpus, None, (8, 0)) == ["8.6", "9.0"]  # the recipe's minimum


@pytest.fixture()
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KSW_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_probe_plan_on_a_cpu_torch_stages_the_source(tmp_path: Path, data_dir: Path) -> None:
    request = probe_request(env(None, tmp_path), h100_report())
    plan = plan_build(request, build_root=tmp_path / "root", toolkits=[])
    assert plan.source_dir.parent == tmp_path / "root"
    assert (plan.source_dir / "setup.py").is_file()
    assert plan.env_value("KSW_PROBE_CPU_ONLY") == "1"
    assert plan.env_value("CUDA_HOME") is None
    assert plan.env_value("TORCH_CUDA_ARCH_LIST") is None
    assert plan.output_dir.parent == data_dir / "staging"
    assert plan.log_path.parent == data_dir / "logs"
    assert plan.env_value("MAX_JOBS") == str(plan.parallelism.jobs)


@pytest.mark.skipif(not (CUDA13 / "include" / "cccl").is_dir(), reason="needs CUDA 13.0 here")
def test_cuda_plan_narrows_archs_and_uses_the_matching_toolkit(
    tmp_path: Path, data_dir: Path
) -> None:
    request = probe_request(env("13.0", tmp_path), h100_report())
    plan = plan_build(request, build_root=tmp_path / "root")
    assert plan.env_value("TORCH_CUDA_ARCH_LIST") == "9.0"  # the H100 only
    assert plan.env_value("CUDA_HOME") == str(CUDA13)
    assert plan.env_value("CPLUS_INCLUDE_PATH") == str(CUDA13 / "include" / "cccl")
    assert plan.env_value("KSW_PROBE_CPU_ONLY") is None


def test_flashmla_style_spec(tmp_path: Path, data_dir: Path) -> None:
    spec = KernelSpec("flashmla", "abc123", ArchKnob.FLASHMLA_DISABLE_FLAGS, 4.0, 32, True,
                      {"FLASH_MLA_DISABLE_FP16": "0"}, (9, 0))
    source = tmp_path / "FlashMLA"
    source.mkdir()
    request = replace(probe_request(env("13.0", tmp_path), h100_report()), spec=spec,
                      source_dir=source, stage_source=False)
    plan = plan_build(request, build_root=tmp_path / "root", toolkits=[])
    assert plan.source_dir == source  # a prepared tree is built where it is
    assert plan.env_value("FLASH_MLA_DISABLE_SM100") == "1"
    assert plan.env_value("FLASH_MLA_DISABLE_SM90") is None
    assert plan.env_value("NVCC_THREADS") == str(plan.parallelism.nvcc_threads)
    assert plan.env_value("FLASH_MLA_DISABLE_FP16") == "0"


def test_unusable_environments_are_refused(tmp_path: Path, data_dir: Path) -> None:
    broken = replace(env(None, tmp_path), status=EnvStatus.NO_PIP, hint="install pip")
    with pytest.raises(PlanError) as caught:
        plan_build(probe_request(broken, h100_report()), build_root=tmp_path, toolkits=[])
    assert caught.value.hint == "install pip"
    no_torch = replace(env(None, tmp_path), status=EnvStatus.NO_TORCH, torch=None)
    with pytest.raises(PlanError, match="no PyTorch"):
        plan_build(probe_request(no_torch, h100_report()), build_root=tmp_path, toolkits=[])


def test_missing_source_folder(tmp_path: Path, data_dir: Path) -> None:
    request = replace(probe_request(env(None, tmp_path), h100_report()),
                      source_dir=tmp_path / "gone", stage_source=False)
    with pytest.raises(PlanError, match="does not exist"):
        plan_build(request, build_root=tmp_path, toolkits=[])


def test_probe_spec_is_small() -> None:
    assert PROBE.gb_per_thread <= 2 and PROBE.arch_knob is ArchKnob.TORCH_CUDA_ARCH_LIST


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
