"""Verify before install: a built wheel is tested from a staging folder, then installed.

The wheel is unpacked with ``pip install --no-deps --target <staging>`` (the target environment
is not touched), the verification harness runs in the target Python with that folder first on
``PYTHONPATH``, and only a pass installs the wheel (:mod:`.install`, with a backup of what it
replaces). A failure leaves the environment exactly as it was; the user may still install after
a clear warning (``allow_failed``).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.base.errors import ProcessError, WizardError
from kernel_wizard.base.oserrors import cause_in_output, cause_line
from kernel_wizard.base.paths import staging_dir, storage_error, storage_problem, timestamp
from kernel_wizard.base.processes import run_captured
from kernel_wizard.install.installer import InstallResult, install_wheel
from kernel_wizard.verify import VerifyReport, run_verification
from kernel_wizard.verify.history import SavedReport, Stage, save_report


class StagingError(WizardError):
    """The wheel could not be unpacked for testing."""


@dataclass(frozen=True)
class VerifyInstallOutcome:
    report: VerifyReport
    saved: SavedReport
    installed: InstallResult | None
    installed_despite_failure: bool = False

    @property
    def message(self) -> str:
        if self.installed is not None and self.installed_despite_failure:
            return (f"{self.installed.name} {self.installed.version} was installed although "
                    "its verification did not pass, as you chose.")
        if self.installed is not None:
            return f"Verified and installed {self.installed.name} {self.installed.version}."
        if self.report.passed:
            return "Verified; not installed (as asked)."
        return "Not installed: the verification did not pass. Your environment is unchanged."


def stage_wheel(python: Path, wheel: Path, into: Path | None = None) -> Path:
    """Unpack ``wheel`` into a fresh folder with the target's pip (never into the env)."""
    folder = into if into is not None else staging_dir() / f"verify-{timestamp()}-{wheel.stem[:40]}"
    action = f"unpack the built wheel {wheel.name} for testing"
    try:
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    except OSError as exc:
        raise storage_error(exc, path=folder, action=action) from exc
    try:
        result = run_captured(
            [str(python), "-m", "pip", "install", "--no-deps", "--no-input",
             "--disable-pip-version-check", "--target", str(folder), str(wheel)],
            timeout_s=600,
        )
    except ProcessError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise StagingError(
            f"The built wheel {wheel.name} could not be unpacked for testing.",
            why=exc.describe(),
            hint="Check that the target Python still works, then build again.",
        ) from exc
    if result.returncode != 0:
        output = result.stderr + "\n" + result.stdout
        cause = cause_in_output(output)
        if cause is not None:  # a full or read-only disk: building again would not help
            problem = storage_problem(cause, folder, action=action, why=cause_line(output))
            shutil.rmtree(folder, ignore_errors=True)
            raise problem
        shutil.rmtree(folder, ignore_errors=True)
        raise StagingError(
            f"The built wheel {wheel.name} could not be unpacked for testing.",
            why=(result.stderr or result.stdout).strip()[-600:],
            hint="Build again; if this repeats, save a report bundle and report it.",
        )
    return folder


def verify_then_install(
    python: Path,
    wheel: Path,
    *,
    kernel: str,
    adapter: str,
    install: bool = True,
    allow_failed: bool = False,
    quick: bool = False,
    on_line: Callable[[str], None] | None = None,
    cancel: threading.Event | None = None,
    path_prepend: Sequence[Path] = (),
) -> VerifyInstallOutcome:
    """Stage, verify, save the report, and install only on a pass (or when allowed).

    ``path_prepend``: folders the harness gets first on PATH, the CUDA toolkit's
    (:func:`machine.toolkits.runtime_path`; on Windows with CUDA 13 its ``bin\\x64``)."""
    folder = stage_wheel(python, wheel)
    try:
        report = run_verification(python, adapter, extra_pythonpath=[folder], quick=quick,
                                  on_line=on_line, cancel=cancel, path_prepend=path_prepend)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    saved = save_report(report, kernel=kernel, python=python, stage=Stage.STAGED, wheel=wheel)
    installed: InstallResult | None = None
    if install and (report.passed or allow_failed):
        verification = {"status": report.status.value, "report": str(saved.json_path),
                        "quick": quick, "installed_despite_failure": not report.passed}
        installed = install_wheel(python, wheel, on_line=on_line, kernel=kernel, adapter=adapter,
                                  verification=verification, cancel=cancel)
    return VerifyInstallOutcome(report, saved, installed,
                       installed_despite_failure=installed is not None and not report.passed)
