"""CUDA 13 on Windows keeps its runtime DLLs in ``bin\\x64``: the verification harness gets the
chosen toolkit's folders first on PATH, from staging (:func:`verify_then_install`), on
re-verification (:func:`reverify_all`) and from the Session.

The harness runs for real (the probe adapter, the shared CPU torch venv); the target "python" is
a real shell script in front of that venv's interpreter that writes down its arguments and the
PATH it was given, then ``exec``s the interpreter. The toolkit is a real folder layout on disk
(``CUDA/v13.0/bin/x64/cudart64_13.dll``); PATH itself is what a Windows child would get, only
the loading of the DLLs needs a real Windows machine.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import make_plan
from kernel_wizard.build.run import BuildOutcome, BuildStatus
from kernel_wizard.flow.reverify import reverify_all, runtime_path_for
from kernel_wizard.flow.session import Session, SessionServices
from kernel_wizard.flow.verify_install import verify_then_install
from kernel_wizard.install.installer import load_installs
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.toolchain import CudaVersion
from kernel_wizard.machine.toolkits import CudaToolkit, cuda_bin_dirs, runtime_path
from kernel_wizard.verify import report_view

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the wrapper is a POSIX script")


def cuda_folder(root: Path, version: str) -> Path:
    """A CUDA toolkit's folder layout as the Windows installer makes it (13.0: DLLs in x64)."""
    cuda = root / "NVIDIA GPU Computing Toolkit" / "CUDA" / f"v{version}"
    dlls = cuda / "bin" / "x64" if version.startswith("13") else cuda / "bin"
    dlls.mkdir(parents=True)
    (cuda / "bin" / "nvcc.exe").write_bytes(b"MZ")
    major = version.split(".")[0]
    (dlls / f"cudart64_{major}.dll").write_bytes(b"MZ marker")
    return cuda


def toolkit(cuda: Path, major: int, minor: int) -> CudaToolkit:
    version = CudaVersion(major, minor, (major, minor, 0))
    return CudaToolkit(cuda, cuda / "bin" / "nvcc.exe", version, "CUDA_PATH")


def recording_python(folder: Path, real: Path) -> tuple[Path, Path]:
    """A 'python' that logs each call's arguments and PATH, then runs ``real`` (or, once
    ``folder/only-record`` exists, stops there: what the harness was given is all a test
    needs, and a full harness run costs ~10 s)."""
    log = folder / "calls.log"
    wrapper = folder / "wrapped env" / "python"
    wrapper.parent.mkdir(parents=True)
    # with a file "only-record" beside it, it stops after writing down (exit 3)
    wrapper.write_text(f'#!/bin/sh\nprintf "ARGS %s\\nPATH %s\\n" "$*" "$PATH" >> "{log}"\n'
                       f'[ -e "{folder}/only-record" ] && exit 3\n'
                       f'exec "{real}" "$@"\n', encoding="utf-8")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return wrapper, log


def harness_paths(log: Path) -> list[list[str]]:
    """The PATH of every harness run in the log, split into folders."""
    lines = log.read_text(encoding="utf-8").splitlines()
    return [lines[i + 1].removeprefix("PATH ").split(os.pathsep)
            for i, line in enumerate(lines)
            if line.startswith("ARGS ") and "verify_kernel.py" in line]


def test_cuda13_x64_folder_is_first_on_the_harness_path_from_staging_and_on_reverify(
    tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any
) -> None:
    cuda = cuda_folder(tmp_path, "13.0")
    python, log = recording_python(tmp_path, scratch_torch_env)
    dirs = cuda_bin_dirs(cuda, (13, 0), "windows")
    assert dirs == [cuda / "bin" / "x64", cuda / "bin"]

    flow = verify_then_install(python, kernel_wheel("correct"), kernel="probe", adapter="probe",
                               quick=True, path_prepend=dirs)
    assert flow.report.passed, report_view(flow.report).lines()  # torch and the kernel still load
    assert flow.installed is not None
    (staged,) = harness_paths(log)
    assert staged[:2] == [str(cuda / "bin" / "x64"), str(cuda / "bin")]
    assert (Path(staged[0]) / "cudart64_13.dll").is_file()  # the folder with the runtime DLLs
    assert staged[2:] == os.environ["PATH"].split(os.pathsep)  # the rest is the user's PATH

    # Re-verification of that install gets the toolkit's folders first too (the harness is
    # started, and stopped by the wrapper once it has written down its PATH).
    (record,) = load_installs()
    assert record.python == str(python)
    (tmp_path / "only-record").touch()
    (result,) = reverify_all(quick=True, toolkits=[toolkit(cuda, 13, 0)], os_name="windows")
    assert result.report.exit_code == 3  # the wrapper's, not a verdict on the kernel
    again = harness_paths(log)[-1]
    assert again[:2] == [str(cuda / "bin" / "x64"), str(cuda / "bin")]


def test_reverify_asks_the_environment_only_when_several_cuda_versions_are_installed(
    tmp_path: Path, plain_venv: Path
) -> None:
    new, old = cuda_folder(tmp_path, "13.0"), cuda_folder(tmp_path, "12.8")
    python, log = recording_python(tmp_path, plain_venv)
    assert runtime_path_for(python, [toolkit(new, 13, 0)], "windows")[0] == new / "bin" / "x64"
    assert not log.exists()  # one toolkit: nothing to ask
    found = [toolkit(old, 12, 8), toolkit(new, 13, 0)]
    # no torch in that environment: no CUDA to match, so the first working toolkit
    assert runtime_path_for(python, found, "windows") == [old / "bin"]
    assert "inspect_env.py" in log.read_text(encoding="utf-8")  # it was asked, once


def test_the_toolkit_that_fits_torch_decides_the_runtime_path(tmp_path: Path) -> None:
    new, old = cuda_folder(tmp_path, "13.0"), cuda_folder(tmp_path, "12.8")
    found = [toolkit(old, 12, 8), toolkit(new, 13, 0)]
    assert runtime_path(found, (13, 0), "windows") == [new / "bin" / "x64", new / "bin"]
    assert runtime_path(found, (12, 8), "windows") == [old / "bin"]  # 12.x: DLLs in bin
    assert runtime_path(found, (13, 0), "linux") == [new / "bin"]  # Linux loads no DLL via PATH
    assert runtime_path([], (13, 0), "windows") == []


class Recorder:
    def __init__(self, outcome: BuildOutcome) -> None:
        self.outcome = outcome
        self.options: dict[str, Any] = {}

    def build(self, session: Session, sink: Any, cancel: threading.Event) -> BuildOutcome:
        return self.outcome

    def verify(self, python: Path, wheel: Path, **options: Any) -> str:
        self.options = options
        return "verified"


def test_the_session_verifies_with_the_toolkit_the_build_used(tmp_path: Path) -> None:
    from kernel_wizard.machine.hardware import detect
    from kernel_wizard.machine.nvml_record import ReplayNvmlApi

    cuda = cuda_folder(tmp_path, "13.0")
    plan = make_plan(kernel="probe", version="0.1.0", source_dir=tmp_path, python=Path("py"),
                     python_scripts=None, output_dir=tmp_path, log_path=tmp_path / "b.log",
                     parallelism=Parallelism(1, 1, "test"), cuda_home=cuda, cuda_version=(13, 0))
    wheel = tmp_path / "ksw_probe_kernel-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"stand-in")
    recorder = Recorder(BuildOutcome(BuildStatus.SUCCEEDED, "Built.", "", plan, wheel,
                                     tmp_path / "b.log", 1.0, 1, 0, None))
    nvml = Path(__file__).resolve().parents[1] / "data" / "nvml" / "h100-driver580.json"
    session = Session(SessionServices(detect=lambda: detect(lambda: ReplayNvmlApi.from_file(nvml)),
                                      discover=lambda: [], build=recorder.build,
                                      verify_then_install=recorder.verify,
                                      discover_toolkits=lambda: []))
    session.detect()
    torch = TorchInfo("2.9.0+cu130", "13.0", True, 1, ("sm_90",), True)
    session.choose_environment(PythonEnv(tmp_path / "python", EnvStatus.READY, "test",
                                         torch=torch))
    session.build()
    assert session.verify_and_install() == "verified"
    # this OS's form of the same rule (Linux: bin; Windows: bin\x64 first)
    os_name = "windows" if sys.platform == "win32" else "linux"
    assert recorder.options["path_prepend"] == cuda_bin_dirs(cuda, (13, 0), os_name)
