"""The CUDA toolkit is decided once per session (issue 23): nvcc runs once per toolkit in a
whole flow — the prerequisite facts, the Kernel step's machine, the plan preview and the
build's own plan all take the session's decision instead of searching and choosing again."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from test_session import h100

import kernel_wizard.machine.toolkits as toolkits_module
from kernel_wizard.build.run import BuildOutcome, BuildStatus, PlanEvent
from kernel_wizard.flow.session import KernelRequest, Session, SessionServices
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.toolchain import CudaVersion, parse_nvcc_version


def fake_toolkit(root: Path) -> Path:
    (root / "bin").mkdir(parents=True)
    (root / "include").mkdir()
    (root / "bin" / "nvcc").write_text("#!/bin/sh\nexit 1\n")
    (root / "include" / "cuda_runtime.h").write_text("")
    return root


def test_nvcc_discovery_runs_once_in_a_session_flow(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fake_toolkit(tmp_path / "cuda-13.0")
    monkeypatch.setenv("CUDA_HOME", str(root))
    monkeypatch.setenv("KSW_DATA_DIR", str(tmp_path / "data"))
    runs: Counter[str] = Counter()

    def nvcc_version(nvcc: Path | str, timeout: float = 0.0) -> CudaVersion:
        runs[str(nvcc)] += 1
        return parse_nvcc_version("Cuda compilation tools, release 13.0, V13.0.88")

    monkeypatch.setattr(toolkits_module, "run_nvcc_version", nvcc_version)
    planned: list[Any] = []

    def stand_in_build(plan: Any, sink: Any, cancel: threading.Event,
                       **_kw: Any) -> BuildOutcome:
        planned.append(plan)
        return BuildOutcome(BuildStatus.SUCCEEDED, "Built.", "", plan, None,
                            tmp_path / "build.log", 1.0, 1, 0, None)

    monkeypatch.setattr("kernel_wizard.flow.pipeline.run_build", stand_in_build)
    session = Session(SessionServices(detect=h100, discover=lambda: []))
    session.detect()
    torch = TorchInfo("2.9.0+cu130", "13.0", True, 1, ("sm_90",), True)
    session.choose_environment(PythonEnv(
        tmp_path / "env" / "bin" / "python", EnvStatus.READY, "t", version="3.12.3", bits=64,
        platform_tag="linux_x86_64", interpreter_tag="cp312", torch=torch,
        raw={"python": {"scripts": str(tmp_path / "env" / "bin")}}))

    session.check()  # the prerequisite facts
    session.choose(KernelRequest("probe"))  # the Kernel step: machine and verdict
    preview = session.plan_preview()
    events: list[object] = []
    session.build(events.append)  # source, patches and the build's own plan

    assert runs, "the fake toolkit under CUDA_HOME was found"
    twice = {nvcc: n for nvcc, n in runs.items() if n > 1}
    assert not twice, f"nvcc discovery ran more than once in one session: {twice}"
    chosen = session.toolkit()
    assert chosen is not None and chosen.root == root
    assert session.facts is not None and session.facts.toolkit_choice is session.toolkit_choice()
    assert preview.cuda_home == root
    assert planned and planned[0].cuda_home == root
    assert any(isinstance(e, PlanEvent) for e in events)
