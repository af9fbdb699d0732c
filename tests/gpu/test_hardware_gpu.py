"""On a real GPU: NVML detection agrees with nvidia-smi, an independent reader of the driver."""

from __future__ import annotations

import re
import subprocess

from kernel_wizard.machine.hardware import NvmlState, detect


def _smi(*args: str) -> str:
    return subprocess.run(
        ["nvidia-smi", *args], capture_output=True, text=True, check=True, timeout=60
    ).stdout


def test_gpus_match_nvidia_smi() -> None:
    report = detect()
    assert report.state is NvmlState.OK, report.message
    rows = [
        [cell.strip() for cell in line.split(",")]
        for line in _smi(
            "--query-gpu=index,name,uuid,compute_cap,driver_version,memory.total",
            "--format=csv,noheader,nounits",
        ).splitlines()
        if line.strip()
    ]
    assert len(report.gpus) == len(rows)
    for gpu, (index, name, uuid, cc, driver, mem_mib) in zip(report.gpus, rows, strict=True):
        print(f"GPU {gpu.index}: {gpu.name} cc {gpu.compute_capability} {gpu.arch} "
              f"driver {report.driver_version} CUDA {report.cuda_driver_version}")
        assert gpu.ok, gpu.errors
        assert gpu.index == int(index)
        assert gpu.name == name
        assert gpu.uuid == uuid
        assert f"{gpu.compute_capability[0]}.{gpu.compute_capability[1]}" == cc
        assert report.driver_version == driver
        assert gpu.memory_total is not None
        assert abs(gpu.memory_total / 2**20 - float(mem_mib)) < 2
        assert not gpu.arch.startswith("unknown")


def test_driver_cuda_version_matches_nvidia_smi_banner() -> None:
    report = detect()
    banner = re.search(r"CUDA Version:\s*(\d+)\.(\d+)", _smi())
    assert banner is not None
    assert report.cuda_driver_version == (int(banner.group(1)), int(banner.group(2)))

