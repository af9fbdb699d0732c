"""NVML mapping, against the real pynvml and NVML answers recorded on a real H100."""

from __future__ import annotations

import copy
import ctypes.util
import json
import os
from pathlib import Path
from typing import Any

import pynvml
import pytest

from kernel_wizard.machine.hardware import (
    NvmlState,
    arch_name,
    decode_cuda_driver_version,
    detect,
    detect_host,
    format_bytes,
)
from kernel_wizard.machine.nvml_record import ReplayNvmlApi, record

DATA = Path(__file__).resolve().parent.parent / "data" / "nvml"


def h100() -> dict[str, Any]:
    return json.loads((DATA / "h100-driver580.json").read_text(encoding="utf-8"))


def replay(recording: dict[str, Any]) -> Any:
    return lambda: ReplayNvmlApi(recording)


@pytest.mark.parametrize(
    ("cc", "name"),
    [
        ((7, 5), "Turing"),
        ((8, 0), "Ampere"),
        ((8, 6), "Ampere"),
        ((8, 7), "Ampere"),
        ((8, 9), "Ada Lovelace"),
        ((9, 0), "Hopper"),
        ((10, 0), "Blackwell"),
        ((10, 3), "Blackwell"),
        ((12, 0), "Blackwell"),
        ((12, 1), "Blackwell"),
        ((6, 1), "Pascal"),
        ((7, 0), "Volta"),
        ((99, 0), "unknown (cc 99.0)"),
    ],
)
def test_architecture_names(cc: tuple[int, int], name: str) -> None:
    assert arch_name(cc) == name


@pytest.mark.parametrize(
    ("raw", "version"), [(13000, (13, 0)), (12080, (12, 8)), (12040, (12, 4)), (11080, (11, 8))]
)
def test_driver_cuda_version_decoding(raw: int, version: tuple[int, int]) -> None:
    assert decode_cuda_driver_version(raw) == version


def test_recorded_h100_is_detected_fully() -> None:
    report = detect(replay(h100()))
    assert report.state is NvmlState.OK
    assert report.message == "1 NVIDIA GPU found."
    assert report.driver_version == "580.159.04"
    assert report.cuda_driver_version == (13, 0)
    (gpu,) = report.gpus
    assert gpu.name == "NVIDIA H100 80GB HBM3"
    assert gpu.compute_capability == (9, 0)
    assert gpu.arch == "Hopper"
    assert gpu.sm == "90"
    assert gpu.uuid == "GPU-87d30d35-3ed4-6b5f-8adb-07279373ab0e"
    assert gpu.memory_total == 85520809984
    assert format_bytes(gpu.memory_total) == "79.6 GiB"
    assert gpu.ok


def test_one_failing_gpu_does_not_hide_the_others() -> None:
    recording = h100()
    calls = recording["calls"]
    broken = copy.deepcopy(calls["devices"][0])
    broken["name"] = {"ok": "NVIDIA GeForce RTX 4090"}
    broken["compute_capability"] = {"error": pynvml.NVML_ERROR_GPU_IS_LOST}
    broken["memory"] = {"error": pynvml.NVML_ERROR_GPU_IS_LOST}
    calls["devices"].append(broken)
    calls["device_count"] = {"ok": 2}

    report = detect(replay(recording))

    assert report.state is NvmlState.OK
    assert report.message == "2 NVIDIA GPUs found."
    first, second = report.gpus
    assert first.ok and first.arch == "Hopper"
    assert not second.ok
    assert second.name == "NVIDIA GeForce RTX 4090"
    assert second.compute_capability is None and second.arch == "unknown"
    assert any("compute capability" in e and "GPU is lost" in e for e in second.errors)
    assert report.usable_gpus == (first,)


@pytest.mark.parametrize(
    ("code", "state", "words"),
    [
        (pynvml.NVML_ERROR_LIBRARY_NOT_FOUND, NvmlState.NO_DRIVER, "No NVIDIA driver"),
        (pynvml.NVML_ERROR_DRIVER_NOT_LOADED, NvmlState.DRIVER_NOT_LOADED, "not running"),
        (pynvml.NVML_ERROR_NO_PERMISSION, NvmlState.NO_PERMISSION, "may not talk"),
        (pynvml.NVML_ERROR_UNKNOWN, NvmlState.ERROR, "answered with an error"),
    ],
)
def test_init_failures_are_states_with_advice(code: int, state: NvmlState, words: str) -> None:
    report = detect(replay({"calls": {"init": {"error": code}}}))
    assert report.state is state
    assert words in report.message
    assert report.hint  # always a next step
    assert report.gpus == ()
    assert report.nvml_error is not None and f"NVML error {code}" in report.nvml_error


def test_driver_without_gpus() -> None:
    recording = h100()
    recording["calls"]["device_count"] = {"ok": 0}
    recording["calls"]["devices"] = []
    report = detect(replay(recording))
    assert report.state is NvmlState.NO_GPU
    assert "no GPU" in report.message
    assert report.driver_version == "580.159.04"  # still shown


def test_device_count_failure_is_an_error_state() -> None:
    recording = h100()
    recording["calls"]["device_count"] = {"error": pynvml.NVML_ERROR_UNKNOWN}
    report = detect(replay(recording))
    assert report.state is NvmlState.ERROR
    assert report.driver_version == "580.159.04"


def test_missing_nvml_module_is_a_state() -> None:
    def no_module() -> Any:
        raise ImportError("No module named 'pynvml'")

    report = detect(no_module)
    assert report.state is NvmlState.NVML_MISSING
    assert "Reinstall" in report.hint


@pytest.mark.skipif(
    ctypes.util.find_library("nvidia-ml") is not None or os.path.exists("/dev/nvidiactl"),
    reason="this machine has an NVIDIA driver; the real no-driver path needs one without",
)
def test_real_pynvml_without_a_driver_says_so() -> None:
    report = detect()  # the real pynvml, on a machine without the NVIDIA driver
    assert report.state is NvmlState.NO_DRIVER
    assert "NVML Shared Library Not Found" in (report.nvml_error or "")
    assert report.host.cpu_logical >= 1


def test_recording_round_trips_through_replay() -> None:
    original = h100()
    again = record(ReplayNvmlApi(original))
    assert again["calls"] == original["calls"]
    for name in ("h100-driver580-links.json", "constructed-8x-h100-nvlink.json"):
        with_links = json.loads((Path(__file__).parents[1] / "data" / "nvml" / name).read_text())
        assert record(ReplayNvmlApi(with_links))["calls"] == with_links["calls"]


def test_replay_raises_pynvmls_own_exception_classes() -> None:
    api = ReplayNvmlApi({"calls": {"init": {"error": pynvml.NVML_ERROR_DRIVER_NOT_LOADED}}})
    with pytest.raises(pynvml.NVMLError_DriverNotLoaded):
        api.init()


def test_host_resources_are_real(tmp_path: Path) -> None:
    not_yet = tmp_path / "build root" / "not created yet"
    host = detect_host(not_yet)
    assert host.cpu_logical == os.cpu_count()
    assert 0 < host.ram_available <= host.ram_total
    assert host.disk_path == not_yet
    assert host.disk_free is not None and host.disk_free > 0  # measured on its drive


def test_json_schema_fields() -> None:
    document = detect(replay(h100())).to_json()
    assert document["schema"] == "ksw.detect/1"
    assert document["nvml"]["state"] == "ok"
    assert document["cuda_driver_version"] == "13.0"
    gpu = document["gpus"][0]
    assert gpu["compute_capability"] == "9.0" and gpu["sm"] == "90" and gpu["arch"] == "Hopper"
    assert set(document["host"]) >= {"cpu_logical", "ram_total_bytes", "disk_free_bytes"}
    json.dumps(document)  # serialisable
