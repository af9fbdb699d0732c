"""Verification reports kept per run, compared over time, and bundled for bug reports.

Each verification writes ``<data>/reports/<timestamp>-<kernel>/report.json`` (the harness's
``ksw.verify/1`` report plus what was verified where) and ``report.md`` beside it. Re-running
after a driver or torch update compares with the last passing report of the same kernel in
the same environment and names what changed and what regressed.
"""

from __future__ import annotations

import json
import platform
import shutil
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import __version__
from .oserrors import write_text_atomic
from .paths import data_dir, logs_dir, reports_dir, storage_error, timestamp
from .verify import CaseStatus, VerifyReport, write_markdown

META_KEY = "ksw_meta"


class Stage:
    """Where a verified kernel was when it was verified."""

    STAGED = "staged"  # a freshly built wheel, before install
    INSTALLED = "installed"  # re-verification of what is installed


@dataclass(frozen=True)
class SavedReport:
    folder: Path
    report: VerifyReport
    kernel: str
    python: str
    stage: str
    wheel: str | None
    saved_at: str

    @property
    def json_path(self) -> Path:
        return self.folder / "report.json"

    @property
    def markdown_path(self) -> Path:
        return self.folder / "report.md"


def save_report(
    report: VerifyReport,
    *,
    kernel: str,
    python: Path | str,
    stage: str,
    wheel: Path | None = None,
    root: Path | None = None,
) -> SavedReport:
    stamp = timestamp()
    base = root if root is not None else reports_dir()
    folder = base / f"{stamp}-{kernel}"
    suffix = 1
    while folder.exists():  # two runs within one second
        suffix += 1
        folder = base / f"{stamp}-{kernel}-{suffix}"
    document = report.to_json()
    document[META_KEY] = {
        "kernel": kernel,
        "python": str(python),
        "stage": stage,
        "wheel": str(wheel) if wheel else None,
        "saved_at": stamp,
        "wizard_version": __version__,
    }
    try:
        folder.mkdir(parents=True)
        write_text_atomic(folder / "report.json", json.dumps(document, indent=2))
        write_markdown(report, folder / "report.md")
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)  # no half-written report in the history
        raise storage_error(exc, path=folder, action="save the verification report") from exc
    return SavedReport(folder, report, kernel, str(python), stage,
                       str(wheel) if wheel else None, stamp)


def load_saved(folder: Path) -> SavedReport | None:
    try:
        document = json.loads((folder / "report.json").read_text(encoding="utf-8"))
        meta = document.get(META_KEY, {})
        report = VerifyReport.from_json(document)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # a damaged or foreign folder is skipped, never fatal
    return SavedReport(folder, report, str(meta.get("kernel", report.adapter)),
                       str(meta.get("python", report.python)), str(meta.get("stage", "")),
                       meta.get("wheel"), str(meta.get("saved_at", folder.name[:15])))


def history(kernel: str | None = None, python: Path | str | None = None,
            root: Path | None = None) -> list[SavedReport]:
    """Saved reports, oldest first, optionally of one kernel in one environment."""
    base = root if root is not None else reports_dir()
    found = []
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        saved = load_saved(folder)
        if saved is None:
            continue
        if kernel is not None and saved.kernel != kernel:
            continue
        if python is not None and saved.python != str(python):
            continue
        found.append(saved)
    return found


def last_passing(kernel: str, python: Path | str, root: Path | None = None,
                 before: Path | None = None) -> SavedReport | None:
    passing = [s for s in history(kernel, python, root) if s.report.passed
               and (before is None or s.folder != before)]
    return passing[-1] if passing else None


@dataclass(frozen=True)
class Change:
    what: str  # "NVIDIA driver", "PyTorch", ...
    before: str
    after: str

    def __str__(self) -> str:
        return f"{self.what}: {self.before} → {self.after}"


@dataclass(frozen=True)
class Comparison:
    changes: tuple[Change, ...]
    regressions: tuple[str, ...]  # checks that passed before and do not now
    fixed: tuple[str, ...]  # checks that failed before and pass now

    @property
    def regressed(self) -> bool:
        return bool(self.regressions)


def _facts(report: VerifyReport) -> dict[str, str]:
    env = report.environment
    kernel = report.kernel
    facts: dict[str, str] = {}
    if env is not None:
        facts["NVIDIA driver"] = env.driver_version or ""
        facts["CUDA driver API"] = env.cuda_driver_api or ""
        facts["PyTorch"] = env.torch_version or ""
        facts["PyTorch's CUDA"] = env.torch_cuda or "none"
        facts["GPU"] = env.device_name or "none"
        facts["Python"] = env.python or ""
    if kernel is not None:
        facts["kernel version"] = kernel.display_version
    return facts


def compare(previous: VerifyReport, current: VerifyReport) -> Comparison:
    before, after = _facts(previous), _facts(current)
    changes = tuple(
        Change(name, before.get(name) or "unknown", after.get(name) or "unknown")
        for name in after
        if before.get(name, "") != after.get(name, "")
    )
    old = {c.name: c.status for c in previous.cases}
    new = {c.name: c.status for c in current.cases}
    regressions = tuple(sorted(
        name for name, status in old.items()
        if status is CaseStatus.PASS and new.get(name) not in (CaseStatus.PASS, CaseStatus.SKIPPED)
    ))
    if not current.cases and previous.passed and not current.passed:
        regressions = ("the whole verification",)
    fixed = tuple(sorted(
        name for name, status in new.items()
        if status is CaseStatus.PASS and old.get(name) not in (None, CaseStatus.PASS)
    ))
    return Comparison(changes, regressions, fixed)


def make_bundle(dest: Path, environment: Mapping[str, Any] | None = None,
                extra_files: Sequence[Path] = ()) -> Path:
    """Zip the logs, reports, install records and an environment summary for a bug report.
    Written whole or not at all; a disk or path problem raises a StorageError naming it."""
    try:
        return _write_bundle(dest, environment, extra_files)
    except OSError as exc:
        try:
            dest.unlink()
        except OSError:
            pass
        raise storage_error(exc, path=dest, action="write the report bundle") from exc


def _write_bundle(dest: Path, environment: Mapping[str, Any] | None,
                  extra_files: Sequence[Path]) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    root = data_dir()
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        summary = {
            "wizard_version": __version__,
            "created": timestamp(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "environment": dict(environment or {}),
        }
        archive.writestr("environment.json", json.dumps(summary, indent=2))
        for folder in (logs_dir(), reports_dir()):
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    archive.write(path, path.relative_to(root).as_posix())
        installs = root / "installs.json"
        if installs.exists():
            archive.write(installs, "installs.json")
        for path in extra_files:
            if path.is_file():
                archive.write(path, f"extra/{path.name}")
    return dest
