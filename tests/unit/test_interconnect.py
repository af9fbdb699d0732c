"""GPU links from NVML: the recorded single-H100 answers (links NOT_SUPPORTED, recorded on the
device), constructed 8×NVLink and 2×PCIe answers (marked as constructed in the files), and an
older recording without these calls; and what the DeepEP verdict makes of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernel_wizard.catalog import Machine, assess, load_catalog
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

NVML = Path(__file__).resolve().parents[1] / "data" / "nvml"


def cuda_env() -> PythonEnv:
    """The recorded H100 target: Python 3.12, torch 2.11.0+cu130 with its NCCL and NVSHMEM."""
    torch = TorchInfo(version="2.11.0+cu130", cuda="13.0", cuda_available=True, device_count=8,
                      arch_list=("sm_90",), cxx11_abi=True)
    return PythonEnv(executable=Path("/venv/bin/python"), status=EnvStatus.READY, summary="",
                     version="3.12.3", bits=64, platform_tag="linux_x86_64",
                     interpreter_tag="cp312", torch=torch, nccl="2.28.9",
                     nccl_source="nvidia-nccl-cu13", nvshmem="3.4.5",
                     nvshmem_source="nvidia-nvshmem-cu13")


def replay(name: str):  # type: ignore[no-untyped-def]
    recording = json.loads((NVML / name).read_text(encoding="utf-8"))
    return detect(lambda: ReplayNvmlApi(recording))


def test_single_h100_has_no_links_to_check() -> None:
    report = replay("h100-driver580-links.json")
    assert report.links is not None
    assert report.links.active_links == (0,)
    assert report.links.connected() is True  # no pair: nothing is unconnected
    assert report.links.describe() == "One GPU: no GPU-to-GPU connection to check."
    assert report.to_json()["links"]["active_nvlinks"] == [0]


def test_eight_nvlinked_gpus() -> None:
    report = replay("constructed-8x-h100-nvlink.json")
    links = report.links
    assert links is not None and len(report.gpus) == 8
    assert links.active_links == (18,) * 8
    assert links.connected() is True and links.connected([0, 3]) is True
    assert links.describe() == "GPUs 0–7 are all connected with NVLink (18 links each)."


def test_pcie_only_pair_is_not_connected() -> None:
    links = replay("constructed-2x-h100-pcie.json").links
    assert links is not None
    assert links.active_links == (0, 0)
    assert links.connected() is False
    assert "no NVLink between 0↔1" in links.describe()


def test_a_recording_without_link_answers_leaves_it_unknown() -> None:
    report = replay("h100-driver580.json")
    assert report.links is not None
    assert report.links.active_links == (None,)
    assert report.links.notes == ("NVLink state not recorded",)


@pytest.mark.parametrize(
    ("name", "selected", "available", "text"),
    [
        ("constructed-8x-h100-nvlink.json", None, True, None),
        ("constructed-8x-h100-nvlink.json", (0, 1, 2), False, "needs 2, 4 or 8 GPUs"),
        ("constructed-2x-h100-pcie.json", None, False,
         "DeepEP needs the GPUs connected with NVLink; the selected GPUs are not."),
        ("h100-driver580-links.json", None, False, "DeepEP needs 2, 4 or 8 GPUs"),
    ],
)
def test_deepep_verdict_reads_the_links(
    name: str, selected: tuple[int, ...] | None, available: bool, text: str | None
) -> None:
    hardware = replay(name)
    machine = Machine.from_reports(hardware, cuda_env(), "linux", (13, 0), selected=selected)
    recipe = load_catalog().get("deepep")
    verdict = assess(recipe, recipe.versions[0], machine)
    assert verdict.available is available, verdict.texts
    if text is not None:
        assert any(text in t for t in verdict.texts), verdict.texts
