"""Verification reports kept per run, compared over time, and bundled for bug reports.

Each verification writes ``<data>/reports/<timestamp>-<kernel>/report.json`` (the harness's
``ksw.verify/1`` report plus what was verified where) and ``report.md`` beside it. Re-running
after a driver or torch update compares with the last passing report of the same kernel in
the same environment and names what changed and what regressed. Quick and full verifications
run different checks, so each mode has its own history (:func:`baseline_for`), and only the
checks that ran both times are compared (:func:`compare`).
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

from kernel_wizard import __version__
from kernel_wizard.base.download import hash_file, verified_record
from kernel_wizard.base.messages import N_, Msg, msg
from kernel_wizard.base.paths import (
    data_dir,
    logs_dir,
    reports_dir,
    same_env,
    storage_error,
    timestamp,
)
from kernel_wizard.base.statefile import StateStatus, read_json, write_json
from kernel_wizard.verify import CaseStatus, VerifyReport, write_markdown

META_KEY = "ksw_meta"


class Stage:
    """Where a verified kernel was when it was verified."""

    STAGED = "staged"  # a freshly built wheel, before install
    INSTALLED = "installed"  # re-verification of what is installed


@dataclass(frozen=True)
class VerificationRecord:
    """What was verified where, kept beside the harness's report in ``report.json`` (under
    :data:`META_KEY`). Read by :meth:`from_json` only, written by :meth:`to_json` only. A
    report of the first wizard versions has no ``wheel_sha256``/``wheel_download``, one of
    before the record has none of it: the report itself then names the kernel (its adapter)
    and the Python, and the folder's name says when it was saved."""

    kernel: str
    python: str
    stage: str  # a :class:`Stage`; empty in a report of before the record
    wheel: str | None
    saved_at: str  # the timestamp the report's folder starts with
    wheel_sha256: str | None = None
    wheel_download: Mapping[str, Any] | None = None  # where a downloaded wheel came from
    wizard_version: str | None = None

    @classmethod
    def from_json(cls, meta: object, report: VerifyReport, folder: Path) -> VerificationRecord:
        """The record of a saved report (``meta``: what was under :data:`META_KEY`, None when
        nothing was); raises ValueError when it is not a record."""
        if meta is None:
            meta = {}
        if not isinstance(meta, dict):
            raise ValueError("its description of what was verified is not an object")
        download = meta.get("wheel_download")
        return cls(
            kernel=str(meta.get("kernel", report.adapter)),
            python=str(meta.get("python", report.python)),
            stage=str(meta.get("stage", "")),
            wheel=_text_or_none(meta.get("wheel")),
            saved_at=str(meta.get("saved_at", folder.name[:15])),
            wheel_sha256=_text_or_none(meta.get("wheel_sha256")),
            wheel_download=download if isinstance(download, dict) else None,
            wizard_version=_text_or_none(meta.get("wizard_version")),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kernel": self.kernel,
            "python": self.python,
            "stage": self.stage,
            "wheel": self.wheel,
            "wheel_sha256": self.wheel_sha256,
            "wheel_download": dict(self.wheel_download) if self.wheel_download else None,
            "saved_at": self.saved_at,
            "wizard_version": self.wizard_version,
        }


def _text_or_none(value: object) -> str | None:
    return str(value) if value is not None else None


@dataclass(frozen=True)
class SavedReport:
    """A verification report in its folder of the history, with its record."""

    folder: Path
    report: VerifyReport
    record: VerificationRecord

    @property
    def kernel(self) -> str:
        return self.record.kernel

    @property
    def python(self) -> str:
        return self.record.python

    @property
    def stage(self) -> str:
        return self.record.stage

    @property
    def wheel(self) -> str | None:
        return self.record.wheel

    @property
    def saved_at(self) -> str:
        return self.record.saved_at

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
    origin = wheel_origin(wheel) if wheel else None
    record = VerificationRecord(
        kernel=kernel, python=str(python), stage=stage, wheel=str(wheel) if wheel else None,
        saved_at=stamp, wheel_sha256=origin["sha256"] if origin else None,
        wheel_download=origin.get("download") if origin else None,
        wizard_version=__version__)
    document = {**report.to_json(), META_KEY: record.to_json()}
    try:
        write_json(folder / "report.json", document, keep_previous=False)
        write_markdown(report, folder / "report.md")
        if wheel and origin:
            with (folder / "report.md").open("a", encoding="utf-8") as markdown:
                markdown.write(_wheel_markdown(wheel, origin))
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)  # no half-written report in the history
        raise storage_error(exc, path=folder, action=N_("save the verification report")) from exc
    return SavedReport(folder, report, record)


def wheel_origin(wheel: Path) -> dict[str, Any] | None:
    """The SHA-256 of the wheel that is verified and, for a downloaded one, where it came from
    and what was checked (the downloader's record next to it); None when it can't be read."""
    try:
        digest = hash_file(wheel)
    except OSError:
        return None
    origin: dict[str, Any] = {"sha256": digest}
    record = verified_record(wheel, digest)
    if record is not None:
        origin["download"] = {
            "url": record.get("url"),
            "size": record.get("size"),
            "announced_size": record.get("announced_size"),
            "checks": record.get("checks") or [],
            "verified_at": record.get("verified_at"),
        }
    return origin


def _wheel_markdown(wheel: Path, origin: Mapping[str, Any]) -> str:
    lines = ["", "## The wheel that was verified", "",
             f"- File: `{wheel.name}`", f"- SHA-256: `{origin['sha256']}`"]
    fetched = origin.get("download")
    if isinstance(fetched, Mapping):
        lines.append(f"- Downloaded from: {fetched.get('url')}")
        lines += [f"- Checked: {check}" for check in fetched.get("checks") or []]
    return "\n".join(lines) + "\n"


def load_saved(folder: Path) -> SavedReport | None:
    """A saved report; None for a folder without one or with a damaged one (skipped, never
    fatal: a damaged report is not a passing one, so it cannot hide a regression)."""
    def parse(document: object) -> SavedReport:
        if not isinstance(document, dict):
            raise ValueError(f"a report is an object, not a {type(document).__name__}")
        meta = document.get(META_KEY)
        if meta is not None and not isinstance(meta, dict):  # before the report is parsed
            raise ValueError("its description of what was verified is not an object")
        report = VerifyReport.from_json(document)
        return SavedReport(folder, report, VerificationRecord.from_json(meta, report, folder))

    found = read_json(folder / "report.json", parse, repair=False)
    return found.value if found.status is StateStatus.OK else None


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
        if python is not None and not same_env(saved.python, python):
            continue
        found.append(saved)
    return found


def last_passing(kernel: str, python: Path | str, root: Path | None = None,
                 before: Path | None = None, *, quick: bool | None = None) -> SavedReport | None:
    """The newest passing report of ``kernel`` in ``python``. ``quick`` True/False: only quick
    / only full verifications (their checks differ, so each mode is its own history)."""
    passing = [s for s in history(kernel, python, root) if s.report.passed
               and (before is None or s.folder != before)
               and (quick is None or s.report.quick == quick)]
    return passing[-1] if passing else None


def baseline_for(kernel: str, python: Path | str, *, quick: bool,
                 root: Path | None = None) -> SavedReport | None:
    """What a new verification is compared with: the last passing one of the same mode (quick
    or full); when that mode has never passed here, the last passing one of the other mode
    (then only the checks both ran are compared)."""
    return (last_passing(kernel, python, root, quick=quick)
            or last_passing(kernel, python, root, quick=not quick))


@dataclass(frozen=True)
class Change:
    what: str  # "NVIDIA driver", "PyTorch", ...
    before: str
    after: str

    def __str__(self) -> str:
        return f"{self.what}: {self.before} → {self.after}"

    def sentence(self) -> Msg:
        """The change as a sentence a front end translates (``str()`` in English)."""
        return msg("{what}: {before} → {after}", what=Msg(self.what),
                   before=Msg(self.before) if self.before in _WORDS else self.before,
                   after=Msg(self.after) if self.after in _WORDS else self.after)


@dataclass(frozen=True)
class Comparison:
    changes: tuple[Change, ...]
    regressions: tuple[str, ...]  # checks that passed before and fail now (both times run)
    fixed: tuple[str, ...]  # checks that failed before and pass now
    compared: int = 0  # checks that ran both times (the only ones compared)
    not_run: tuple[str, ...] = ()  # checks that ran before but not this time: not compared
    new: tuple[str, ...] = ()  # checks that ran this time but not before: nothing to compare

    @property
    def regressed(self) -> bool:
        return bool(self.regressions)


def _facts(report: VerifyReport) -> dict[str, str]:
    env = report.environment
    kernel = report.kernel
    facts: dict[str, str] = {}
    if env is not None:
        facts[N_("NVIDIA driver")] = env.driver_version or ""
        facts[N_("CUDA driver API")] = env.cuda_driver_api or ""
        facts["PyTorch"] = env.torch_version or ""
        facts[N_("PyTorch's CUDA")] = env.torch_cuda or NONE
        facts["GPU"] = env.device_name or NONE
        facts["Python"] = env.python or ""
    if kernel is not None:
        facts[N_("kernel version")] = kernel.display_version
    return facts


NONE = N_("none")
UNKNOWN = N_("unknown")
_WORDS = frozenset((NONE, UNKNOWN))  # the values of a change that are words, not versions


_RAN = (CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.ERROR)  # SKIPPED: did not run


def compare(previous: VerifyReport, current: VerifyReport) -> Comparison:
    """What changed between two verifications. Only checks that ran both times are compared:
    a check that did not run this time (a quick verification runs fewer; a skipped one did not
    run) is "not run", never a regression."""
    before, after = _facts(previous), _facts(current)
    changes = tuple(
        Change(name, before.get(name) or UNKNOWN, after.get(name) or UNKNOWN)
        for name in after
        if before.get(name, "") != after.get(name, "")
    )
    old = {c.name: c.status for c in previous.cases if c.status in _RAN}
    new = {c.name: c.status for c in current.cases if c.status in _RAN}
    both = old.keys() & new.keys()
    regressions = tuple(sorted(
        name for name in both if old[name] is CaseStatus.PASS and new[name] is not CaseStatus.PASS
    ))
    if not current.cases and previous.passed and not current.passed:
        regressions = (N_("the whole verification"),)  # it could not run at all any more
    fixed = tuple(sorted(
        name for name in both if new[name] is CaseStatus.PASS and old[name] is not CaseStatus.PASS
    ))
    not_run = tuple(sorted(old.keys() - new.keys())) if current.cases else ()
    return Comparison(changes, regressions, fixed, compared=len(both), not_run=not_run,
                      new=tuple(sorted(new.keys() - old.keys())))


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
        raise storage_error(exc, path=dest, action=N_("write the report bundle")) from exc


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
