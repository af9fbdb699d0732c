"""At start, the wizard says what changed since each kernel last passed verification, and names
a kernel that no longer loads with its fix (issue 33, item 4).

Real pieces: the tests' CPU torch venv inspected by the wizard's own inspection, a real
harness report (tests/data/verify/probe-cpu-full.json, made in such a venv) saved in the
history, real imports in a child process, a real verified-wheel cache in the test's data
folder. Only the "before" side is edited (an older PyTorch, another driver), as an update
would have left it."""

from __future__ import annotations

import json
import zipfile
from dataclasses import replace
from pathlib import Path

from kernel_wizard.flow.changes import SinceVerified, notice, since_verification
from kernel_wizard.install import wheel_cache
from kernel_wizard.install.records import InstallRecord
from kernel_wizard.machine.environment import PythonEnv, inspect_python
from kernel_wizard.verify import VerifyReport
from kernel_wizard.verify.history import Stage, save_report

DATA = Path(__file__).resolve().parents[1] / "data" / "verify"


def report(**environment: object) -> VerifyReport:
    real = VerifyReport.from_json(json.loads((DATA / "probe-cpu-full.json").read_text("utf-8")))
    assert real.environment is not None
    return replace(real, environment=replace(real.environment, **environment))


def look(python: Path, report_env: VerifyReport, *, module: str = "json",
         record_python: str | None = None, **kw: object) -> SinceVerified:
    where = record_python or str(python)
    save_report(report_env, kernel="probe", python=where, stage=Stage.STAGED)
    record = InstallRecord("ksw-probe-kernel", "0.1.0", where, kernel="probe")
    (item,) = since_verification([record], driver=kw.pop("driver", None),  # type: ignore[arg-type]
                                 inspect=inspect_python, modules={"probe": module},
                                 names={"probe": "The probe kernel"}, **kw)  # type: ignore[arg-type]
    return item


def test_nothing_changed_says_nothing(torch_venv: Path) -> None:
    env = inspect_python(torch_venv)
    assert env.torch is not None and env.version is not None
    item = look(torch_venv, report(torch_version=env.torch.version, python=env.version))
    assert item.changes == () and item.broken is None and not item.needs_attention
    assert notice([item]) is None


def test_a_driver_update_is_named_in_one_line_with_re_verify(torch_venv: Path) -> None:
    env = inspect_python(torch_venv)
    assert env.torch is not None and env.version is not None
    item = look(torch_venv, report(torch_version=env.torch.version, python=env.version,
                                   driver_version="570.86.10"), driver="580.159.04")
    assert [str(c) for c in item.changes] == ["NVIDIA driver: 570.86.10 → 580.159.04"]
    assert item.broken is None  # only a PyTorch change makes it import the kernel again
    assert notice([item]) == (
        "Since The probe kernel last passed verification, NVIDIA driver changed "
        "(570.86.10 → 580.159.04). Re-verify now to be sure it still computes right.")


def test_a_pytorch_update_that_still_imports_is_a_change_not_a_break(torch_venv: Path) -> None:
    env = inspect_python(torch_venv)
    assert env.torch is not None and env.version is not None
    item = look(torch_venv, report(torch_version="2.12.1+cpu", python=env.version))
    assert [str(c) for c in item.changes] == [f"PyTorch: 2.12.1+cpu → {env.torch.version}"]
    assert item.broken is None


def test_a_kernel_that_no_longer_imports_is_named_with_a_rebuild(torch_venv: Path) -> None:
    env = inspect_python(torch_venv)
    assert env.version is not None
    item = look(torch_venv, report(torch_version="2.12.1+cpu", python=env.version),
                module="ksw_kernel_that_is_gone")
    assert item.broken is not None
    assert "no longer imports after the PyTorch update" in item.broken
    assert "No module named 'ksw_kernel_that_is_gone'" in item.broken
    assert item.fix is not None and "Build it again for PyTorch 2.13.0+cpu" in item.fix
    assert "build --kernel probe" in item.fix
    line = notice([item])
    assert line is not None and line.startswith("The probe kernel may not work any more")


def test_the_fix_is_the_verified_wheel_when_the_cache_has_one(torch_venv: Path,
                                                               tmp_path: Path) -> None:
    env = inspect_python(torch_venv)
    assert env.torch is not None and env.version is not None
    wheel = tmp_path / "ksw_probe_kernel-0.1.0-cp311-cp311-linux_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("ksw_probe_kernel/__init__.py", "")
    target = wheel_cache.WheelTarget(env.torch.version, "cp311", "linux_x86_64")
    kept = wheel_cache.keep(wheel, kernel="probe", version="0.1.0", variant=None,
                            source="built", built_for=target,
                            passed=wheel_cache.PassedOn("2026-11-28T10:00:00+00:00",
                                                        str(torch_venv), env.torch.version))
    assert kept is not None

    def cached(record: InstallRecord, now: PythonEnv) -> wheel_cache.CachedWheel | None:
        assert now.torch is not None
        return wheel_cache.find(record.kernel_id, record.version, None,
                                replace(target, torch=now.torch.version))

    item = look(torch_venv, report(torch_version="2.12.1+cpu", python=env.version),
                module="ksw_kernel_that_is_gone", cached=cached)
    assert item.cached == kept
    assert item.fix == (f"Install the wheel verified with PyTorch {env.torch.version} from the "
                        "wizard's cache (verified on 2026-11-28): no compiling.")


def test_an_environment_that_is_gone_is_said_with_its_next_step(tmp_path: Path) -> None:
    gone = tmp_path / "ComfyUI_windows_portable" / "python_embeded" / "python"
    item = look(gone, report(), record_python=str(gone))
    assert item.broken is not None and "is gone or does not start" in item.broken
    assert item.fix is not None and "Install it again" in item.fix
    assert notice([item]) is not None
