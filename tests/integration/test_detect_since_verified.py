"""``detect`` says what changed since the kernels the wizard installed last passed verification
(issue 33, item 4), run as a user runs it: ``python -m app --headless detect``.

Real pieces: the install record in installs.json, a real harness report (made in a CPU torch
venv) in the report history and a verified wheel in the cache, all in the test's data folder;
the tests' CPU torch venv, inspected and asked to import the probe by the real command. Only
the report's "before" side is edited (an older PyTorch), as an update would have left it."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

from kernel_wizard.base.advice import cli_command
from kernel_wizard.install import wheel_cache
from kernel_wizard.install.records import InstallRecord, put_record
from kernel_wizard.machine.environment import PythonEnv, inspect_python
from kernel_wizard.verify import VerifyReport
from kernel_wizard.verify.history import Stage, save_report

REPO = Path(__file__).resolve().parents[2]
REPORT = REPO / "tests" / "data" / "verify" / "probe-cpu-full.json"
H100 = REPO / "tests" / "data" / "nvml" / "h100-driver580.json"
# every GPU generation a wheel could be asked to run on here (the cache matches the GPUs found)
EVERY_ARCH = ("7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0")


def detect(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", "--headless", "detect", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=300, check=False)


def probe_installed_before_a_pytorch_update(python: Path, tmp_path: Path) -> PythonEnv:
    """The probe installed into ``python``, last verified with PyTorch 2.12.1, and a wheel of
    it verified with the PyTorch there now kept in the cache."""
    env = inspect_python(python)
    assert env.torch is not None and env.version is not None
    assert env.interpreter_tag is not None and env.platform_tag is not None
    real = VerifyReport.from_json(json.loads(REPORT.read_text("utf-8")))
    assert real.environment is not None
    save_report(replace(real, environment=replace(real.environment, torch_version="2.12.1+cpu",
                                                  python=env.version)),
                kernel="probe", python=python, stage=Stage.INSTALLED)
    put_record(InstallRecord("ksw-probe-kernel", "0.1.0", str(python), kernel="probe",
                             adapter="probe"))
    wheel = tmp_path / f"ksw_probe_kernel-0.1.0-{env.interpreter_tag}-{env.interpreter_tag}-" \
                       f"{env.platform_tag}.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("ksw_probe/__init__.py", "")
    target = wheel_cache.WheelTarget(env.torch.version, env.interpreter_tag, env.platform_tag,
                                     EVERY_ARCH)
    assert wheel_cache.keep(wheel, kernel="probe", version="0.1.0", variant=None,
                            source="built from the wizard's own Probe kernel source",
                            built_for=target,
                            passed=wheel_cache.PassedOn("2026-11-28T10:00:00+00:00",
                                                        str(python), env.torch.version))
    return env


def test_detect_says_what_changed_and_how_to_re_verify(torch_venv: Path,
                                                       tmp_path: Path) -> None:
    env = probe_installed_before_a_pytorch_update(torch_venv, tmp_path)
    assert env.torch is not None
    result = detect("--python", str(torch_venv))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    notice = out[out.index("Since the last verification:"):].splitlines()
    assert notice == [
        "Since the last verification:",
        "  Probe kernel may not work any more: PyTorch changed (2.12.1+cpu → "
        f"{env.torch.version}). Re-verify now to see what still works.",
        f"  Probe kernel in {torch_venv}: Probe kernel no longer imports after the PyTorch "
        "update: ModuleNotFoundError: No module named 'ksw_probe'",
        f"    What to do: Install the wheel verified with PyTorch {env.torch.version} from the "
        "wizard's cache (verified on 2026-11-28): no compiling.",
        f"  Re-verify now: {cli_command('verify')}",
    ]
    # after the environment it is about
    assert out.index("torch 2.13.0+cpu") < out.index("Since the last verification:")


def test_detect_json_lists_each_install_with_its_changes(torch_venv: Path,
                                                         tmp_path: Path) -> None:
    env = probe_installed_before_a_pytorch_update(torch_venv, tmp_path)
    assert env.torch is not None
    result = detect("--json", "--python", str(torch_venv))
    assert result.returncode == 0, result.stderr
    (item,) = json.loads(result.stdout)["since_verification"]
    assert item["kernel"] == "probe" and item["name"] == "Probe kernel"
    assert item["python"] == str(torch_venv) and item["last_passed"]
    assert item["changes"] == [{"what": "PyTorch", "before": "2.12.1+cpu",
                                "after": env.torch.version}]
    assert "No module named 'ksw_probe'" in item["broken"]
    assert item["fix"].startswith("Install the wheel verified with PyTorch")
    assert item["cached_wheel"].startswith("ksw_probe_kernel-0.1.0-")


def test_a_recorded_machine_is_not_compared(torch_venv: Path, tmp_path: Path) -> None:
    probe_installed_before_a_pytorch_update(torch_venv, tmp_path)
    result = detect("--replay", str(H100), "--python", str(torch_venv))
    assert result.returncode == 0, result.stderr
    assert "NVIDIA H100" in result.stdout
    assert "Since the last verification" not in result.stdout + result.stderr
    document = json.loads(detect("--json", "--replay", str(H100), "--python",
                                 str(torch_venv)).stdout)
    assert document["since_verification"] is None
