"""The Kernel page's recommendation and its prebuilt-or-build offer (Qt-free)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from kernel_wizard.catalog import Machine, assess, load_catalog
from kernel_wizard.flow.recommend import how_to_get, is_probe, minutes_text, recommend_kernel
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

H100 = Path(__file__).resolve().parents[1] / "data" / "nvml" / "h100-driver580.json"


def h100() -> HardwareReport:
    return detect(lambda: ReplayNvmlApi(json.loads(H100.read_text(encoding="utf-8"))))


def env(cuda: str | None, torch: str = "2.11.0", platform: str = "linux_x86_64") -> PythonEnv:
    version = f"{torch}+cu{cuda.replace('.', '')}" if cuda else f"{torch}+cpu"
    return PythonEnv(
        executable=Path("/envs/test/bin/python"), status=EnvStatus.READY, summary="test",
        version="3.12.3", bits=64, platform_tag=platform, interpreter_tag="cp312",
        torch=TorchInfo(version, cuda, bool(cuda), 1 if cuda else 0, (), True),
    )


def with_gpu(report: HardwareReport, name: str, cc: tuple[int, int]) -> HardwareReport:
    return replace(report, gpus=(replace(report.gpus[0], name=name, compute_capability=cc),))


def pick_id(hardware: HardwareReport, python: PythonEnv, toolkit: tuple[int, int] | None = (13, 0),
            selected: list[int] | None = None) -> str:
    machine = Machine.from_reports(hardware, python, toolkit=toolkit, selected=selected)
    pick = recommend_kernel(load_catalog(), machine)
    assert pick is not None
    return pick.recipe.id


def test_the_specialist_that_fits_the_gpu_is_recommended() -> None:
    # Hopper: FlashAttention 3 (general attention) before FlashMLA (DeepSeek's MLA decoding
    # only); both fit the H100 alone, and the catalog's order settles the tie
    assert pick_id(h100(), env("13.0")) == "flash_attn_3"
    assert pick_id(with_gpu(h100(), "NVIDIA A100", (8, 0)), env("13.0")) == "flash_attn"
    assert pick_id(with_gpu(h100(), "NVIDIA GeForce RTX 4090", (8, 9)), env("13.0")) == (
        "flash_attn")
    windows = replace(h100(), host=replace(h100().host, os_name="Windows 11"))
    assert pick_id(windows, env("13.0", platform="win_amd64")) == "flash_attn"


def test_the_probe_where_no_gpu_library_can_be_built() -> None:
    catalog = load_catalog()
    assert [r.id for r in catalog if is_probe(r)] == ["probe"]
    assert pick_id(h100(), env(None), toolkit=None) == "probe"  # CPU-only torch
    no_gpu = replace(h100(), gpus=())
    machine = Machine.from_reports(no_gpu, env(None))
    pick = recommend_kernel(catalog, machine)
    assert pick is not None and pick.recipe.id == "probe" and pick.verdict.cpu_only
    assert "no usable NVIDIA GPU" in pick.why
    turing = with_gpu(h100(), "NVIDIA T4", (7, 5))  # too old for every library
    machine = Machine.from_reports(turing, env("13.0"), toolkit=(13, 0))
    pick = recommend_kernel(catalog, machine)
    assert pick is not None and pick.recipe.id == "probe" and "None of the libraries" in pick.why
    assert pick_id(h100(), env("13.0"), selected=[]) == "probe"  # no GPU selected


def test_how_to_get_offers_matching_wheels_and_estimates_the_build() -> None:
    catalog = load_catalog()
    fa = catalog.get("flash_attn")
    python = env("13.0", torch="2.10.0")
    machine = Machine.from_reports(h100(), python, toolkit=(13, 0))
    verdict = assess(fa, fa.newest, machine)
    how = how_to_get(fa, fa.newest, verdict, machine)
    assert how.prebuilt is not None and how.prebuilt.listed and how.prebuilt.match.matched
    assert how.build.seconds > 60 and how.build.targets == 1
    mla = catalog.get("flashmla")
    assert how_to_get(mla, mla.newest, assess(mla, mla.newest, machine), machine).prebuilt is None


def test_minutes_text() -> None:
    assert minutes_text(5) == "1 min"
    assert minutes_text(120) == "2 min"
    assert minutes_text(2940) == "49 min"
    assert minutes_text(6600) == "1 h 50 min"
    assert minutes_text(7200) == "2 h"
