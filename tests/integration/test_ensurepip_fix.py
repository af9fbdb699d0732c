"""A Python without pip gets a Fix: Python's own ensurepip, run for real in a fresh venv."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from kernel_wizard.machine.environment import EnvStatus, inspect_python
from kernel_wizard.machine.hardware import HardwareReport, HostInfo, NvmlState
from kernel_wizard.prereqs import CheckStatus, FixStatus
from kernel_wizard.prereqs.facts import GitFacts, LongPathsFacts, SystemFacts
from kernel_wizard.prereqs.pipfix import EnsurePipFix
from kernel_wizard.prereqs.target import check_python_env


def venv_without_pip(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def facts_for(python: Path) -> SystemFacts:
    host = HostInfo(2, 2, 8 * 2**30, 4 * 2**30, Path("/tmp"), 50 * 2**30, "Linux")
    hardware = HardwareReport(NvmlState.NO_DRIVER, "No NVIDIA driver.", "", None, None, (), host)
    return SystemFacts(platform="linux", compiler=None, toolkits=(),  # type: ignore[arg-type]
                       long_paths=LongPathsFacts(applicable=False),
                       git=GitFacts(None, False), build_root=Path("/tmp"),
                       host_include_var="CPLUS_INCLUDE_PATH", hardware=hardware,
                       env=inspect_python(python))


def test_the_python_env_row_offers_ensurepip_and_it_installs_pip(tmp_path: Path) -> None:
    python = venv_without_pip(tmp_path / "no pip")
    env = inspect_python(python)
    assert env.status is EnvStatus.NO_PIP
    result = check_python_env(facts_for(python))
    assert result.status is CheckStatus.BLOCKED
    fix = result.fix
    assert isinstance(fix, EnsurePipFix) and fix.automatic and fix.title == "Install pip"
    assert "nothing is downloaded" in fix.description
    assert fix.command_preview[0].endswith("-m ensurepip --upgrade --default-pip")

    lines: list[str] = []
    outcome = fix.run(lines.append, threading.Event())

    assert outcome.status is FixStatus.DONE, (outcome, lines)
    assert outcome.message == f"Installed pip into {python}."
    assert inspect_python(python).pip_version  # a real pip now
    assert any("ensurepip" in line for line in lines)  # the command is shown as it runs
