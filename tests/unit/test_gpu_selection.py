"""Which GPUs a build is for: the selection is checked against the recorded H100 machine and the
recorded machine without a driver, in the Session and in the CLI's parser."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from kernel_wizard.base.errors import ExitCode
from kernel_wizard.cli.build import parse_gpus
from kernel_wizard.flow.pipeline import KernelChoice
from kernel_wizard.flow.session import KernelRequest, Session, SessionServices
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import (
    GpuSelectionError,
    HardwareReport,
    check_gpu_selection,
    describe_gpus,
    detect,
)
from kernel_wizard.machine.nvml_record import ReplayNvmlApi

NVML = Path(__file__).resolve().parents[1] / "data" / "nvml"


def recorded(name: str) -> HardwareReport:
    recording = json.loads((NVML / name).read_text(encoding="utf-8"))
    return detect(lambda: ReplayNvmlApi(recording))


def test_the_gpus_there_are_are_named() -> None:
    h100 = recorded("h100-driver580.json")
    assert describe_gpus(h100) == "GPU 0 (NVIDIA H100 80GB HBM3)"
    assert describe_gpus(recorded("no-driver-linux.json")) == "no NVIDIA GPU"
    # Two GPUs: no multi-GPU recording exists yet, so the H100's entry is listed twice.
    (gpu,) = h100.gpus
    two = replace(h100, gpus=(gpu, replace(gpu, index=1)))
    assert describe_gpus(two) == "GPUs 0–1 (NVIDIA H100 80GB HBM3, NVIDIA H100 80GB HBM3)"
    assert check_gpu_selection(two, [1, 0]) == (1, 0)
    with pytest.raises(GpuSelectionError, match=r"There is no GPU 2: this computer has GPUs 0–1"):
        check_gpu_selection(two, [0, 2])


@pytest.mark.parametrize(("indices", "message"), [
    ([1], "There is no GPU 1: this computer has GPU 0 (NVIDIA H100 80GB HBM3)."),
    ([0, 3], "There is no GPU 3"),
    ([-1], "GPU indices start at 0: -1 is not a GPU."),
    ([0, 0], "GPU 0 is chosen twice."),
])
def test_gpus_this_computer_does_not_have_are_a_usage_error(indices: list[int],
                                                            message: str) -> None:
    with pytest.raises(GpuSelectionError) as caught:
        check_gpu_selection(recorded("h100-driver580.json"), indices, option="--gpus")
    assert message in caught.value.describe()
    assert caught.value.exit_code is ExitCode.USAGE


def test_any_gpu_on_a_machine_without_one_is_refused() -> None:
    with pytest.raises(GpuSelectionError) as caught:
        check_gpu_selection(recorded("no-driver-linux.json"), [0], option="--gpus")
    text = caught.value.describe()
    assert "no NVIDIA GPU that the wizard can use" in text
    assert "No NVIDIA driver was found" in text and "Leave out --gpus" in text
    assert check_gpu_selection(recorded("no-driver-linux.json"), []) == ()  # nothing chosen


def test_a_gpu_whose_capability_is_unknown_is_refused() -> None:
    h100 = recorded("h100-driver580.json")
    (gpu,) = h100.gpus
    lost = replace(h100, gpus=(replace(gpu, compute_capability=None,
                                       errors=("compute capability: GPU is lost",)),))
    with pytest.raises(GpuSelectionError, match="can't be used: the driver did not report"):
        check_gpu_selection(lost, [0])


@pytest.mark.parametrize("text", ["0,x", "1.5", "0;1", "", ",", "0,,1", "one"])
def test_gpus_text_that_is_not_indices(text: str) -> None:
    with pytest.raises(GpuSelectionError, match="is not a list of GPU indices"):
        parse_gpus(text)


def test_gpus_text_that_is_indices() -> None:
    assert parse_gpus(None) is None
    assert parse_gpus("0") == [0] and parse_gpus(" 0, 1 ") == [0, 1]
    assert parse_gpus("-1") == [-1]  # a number: the check against the machine says why not


def test_the_session_refuses_gpus_it_does_not_have(tmp_path: Path) -> None:
    session = Session(SessionServices(detect=lambda: recorded("h100-driver580.json"),
                                      discover=lambda: [], discover_toolkits=lambda: []))
    session.detect()
    torch = TorchInfo("2.9.0+cu130", "13.0", True, 1, ("sm_90",), True)
    session.choose_environment(PythonEnv(tmp_path / "python", EnvStatus.READY, "t",
                                         version="3.12.3", bits=64, platform_tag="linux_x86_64",
                                         interpreter_tag="cp312", torch=torch))
    assert [g.index for g in session.machine([0]).gpus] == [0]
    with pytest.raises(GpuSelectionError, match="There is no GPU 1"):
        session.machine([0, 1])  # before: GPU 1 was silently dropped
    with pytest.raises(GpuSelectionError, match="There is no GPU 4"):
        session.choose(KernelRequest("probe", gpus=[4]))
    assert session.kernel_choice is None  # the bad choice was not taken
    with pytest.raises(GpuSelectionError) as refused:
        session.choose(KernelRequest("probe", gpus=[4], gpu_option="--gpus"))
    assert "leave out --gpus" in refused.value.hint  # the option it came from
    session.choose(KernelRequest("probe", gpus=[0]))
    assert isinstance(session.kernel_choice, KernelChoice)
    assert session.kernel_choice.gpu_indices == (0,)
