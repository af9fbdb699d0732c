"""Install a verified wheel into the target environment, keeping what it replaces.

Before ``pip install`` touches the environment, the files of the version already installed
(if any) are copied to the user's data folder (:func:`backup_distribution`). If the install
fails, they are put back at once; later, :func:`rollback` puts them back on request. Every
install the wizard makes is recorded in ``installs.json`` so ``--verify`` can find it again.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name, parse_wheel_filename

from .errors import ProcessError, WizardError
from .paths import backups_dir, data_dir, timestamp
from .process_guard import shielded
from .processes import CapturedOutput, run_captured
from .resources import resource_path

BEGIN = "@@KSW-DIST-BEGIN@@"
END = "@@KSW-DIST-END@@"


class InstallError(WizardError):
    """Installing into the target environment failed (it was restored)."""


@dataclass(frozen=True)
class Backup:
    """The files of a distribution as they were before an install replaced them."""

    name: str
    version: str
    root: Path  # site-packages (the folder the distribution's file paths are relative to)
    folder: Path  # where the copies are
    files: tuple[str, ...]

    def manifest(self) -> Path:
        return self.folder / "backup.json"


@dataclass(frozen=True)
class InstallResult:
    name: str
    version: str
    python: Path
    wheel: Path
    previous: Backup | None  # None when nothing was installed before
    seconds: float
    output: str


def _run_python(python: Path, args: list[str], timeout: float = 600) -> CapturedOutput:
    """Raises :class:`~build_backend.errors.ProcessError` (cannot start, time limit)."""
    with shielded():  # a stop request (a signal) lets pip finish: never half-installed
        return run_captured([str(python), *args], timeout_s=timeout)


def installed_files(python: Path, name: str) -> dict[str, Any]:
    """What the target environment has installed of ``name`` (``found`` False if nothing)."""
    result = _run_python(python, [str(resource_path("probes", "dist_files.py")), name], 120)
    out = result.stdout
    begin, end = out.rfind(BEGIN), out.rfind(END)
    if begin < 0 or end < begin:
        raise InstallError(
            f"Could not ask {python} which files of {name} it has installed.",
            why=(result.stderr or out).strip()[-500:],
            hint="Check that this Python environment still works (the Hardware page).",
        )
    data: dict[str, Any] = json.loads(out[begin + len(BEGIN) : end])
    return data


def backup_distribution(python: Path, name: str, into: Path | None = None) -> Backup | None:
    """Copy the installed files of ``name`` aside; None when it is not installed."""
    info = installed_files(python, name)
    if not info.get("found"):
        return None
    root = Path(info["root"])
    folder = (into or backups_dir()) / f"{canonicalize_name(name)}-{info['version']}-{timestamp()}"
    folder.mkdir(parents=True, exist_ok=True)
    kept: list[str] = []
    for relative in info.get("files", []):
        source = (root / relative).resolve()
        if not source.is_file() or source.suffix == ".pyc":
            continue  # byte-code caches are rebuilt; scripts outside root may be absent
        try:
            source.relative_to(root.resolve())
        except ValueError:
            continue  # files outside site-packages (console scripts) are restored by pip
        target = folder / "files" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        kept.append(relative)
    backup = Backup(str(info["name"]), str(info["version"]), root, folder, tuple(kept))
    backup.manifest().write_text(
        json.dumps({**asdict(backup), "root": str(root), "folder": str(folder)}, indent=2),
        encoding="utf-8",
    )
    return backup


def load_backup(folder: Path) -> Backup:
    data = json.loads((folder / "backup.json").read_text(encoding="utf-8"))
    return Backup(data["name"], data["version"], Path(data["root"]), folder, tuple(data["files"]))


def rollback(python: Path, name: str, backup: Backup | None) -> None:
    """Remove what the wizard installed of ``name`` and put the backup (if any) back; the
    install record is updated to match."""
    try:
        result = _run_python(python, ["-m", "pip", "uninstall", "-y", name])
    except ProcessError as exc:
        raise InstallError(f"Could not remove {name} from {python}.", why=exc.describe(),
                           hint="Check that this Python environment still works.") from exc
    if result.returncode != 0 and installed_files(python, name).get("found"):
        raise InstallError(f"Could not remove {name} from {python}.",
                           why=(result.stderr or result.stdout).strip()[-600:],
                           hint="Close programs that use it, then try again.")
    forget_install(python, name)
    if backup is None:
        return
    for relative in backup.files:
        source = backup.folder / "files" / relative
        target = backup.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def install_wheel(
    python: Path,
    wheel: Path,
    *,
    on_line: Callable[[str], None] | None = None,
    backup_into: Path | None = None,
    kernel: str | None = None,
    adapter: str | None = None,
) -> InstallResult:
    """``pip install`` the wheel (no dependencies touched); restore the old files on failure."""
    started = time.monotonic()
    name, version, _, _ = parse_wheel_filename(wheel.name)
    previous = backup_distribution(python, str(name), backup_into)
    command = [
        "-m", "pip", "install", "--no-deps", "--force-reinstall", "--no-input",
        "--disable-pip-version-check", str(wheel),
    ]
    try:
        result = _run_python(python, command)
    except (ProcessError, KeyboardInterrupt) as exc:
        _undo_failed_install(python, str(name), previous)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise InstallError(f"Installing {wheel.name} did not finish; the environment was "
                           "restored.", why=exc.describe(),
                           hint="Check that this Python environment still works, then try "
                           "again.") from exc
    output = result.stdout + result.stderr
    if on_line is not None:
        for line in output.splitlines():
            on_line(line)
    if result.returncode != 0:
        _undo_failed_install(python, str(name), previous)
        raise InstallError(
            f"Installing {wheel.name} failed; the environment was restored.",
            why=output.strip()[-800:],
            hint="See the message above; nothing of the new build remains installed.",
        )
    installed = InstallResult(str(name), str(version), python, wheel, previous,
                              time.monotonic() - started, output)
    record_install(installed, kernel, adapter)
    return installed


def _undo_failed_install(python: Path, name: str, previous: Backup | None) -> None:
    """After a failed pip run: put the previous version back, unless pip failed before it
    changed anything (the previous version is still the installed one)."""
    info = installed_files(python, name)
    if previous is not None and info.get("found") and info.get("version") == previous.version:
        return  # untouched: uninstalling now would only lose what the backup skips
    if previous is None and not info.get("found"):
        return
    rollback(python, name, previous)


# -- the record of what the wizard installed (read by --verify) ----------------------------

def installs_file() -> Path:
    return data_dir() / "installs.json"


def record_install(result: InstallResult, kernel: str | None = None,
                   adapter: str | None = None) -> None:
    records = load_installs()
    records = [r for r in records if not (r["python"] == str(result.python)
                                          and r["name"] == result.name)]
    records.append({
        "name": result.name,
        "version": result.version,
        "python": str(result.python),
        "wheel": str(result.wheel),
        "kernel": kernel,
        "adapter": adapter,
        "backup": str(result.previous.folder) if result.previous else None,
        "installed": timestamp(),
    })
    installs_file().write_text(json.dumps(records, indent=2), encoding="utf-8")


def forget_install(python: Path, name: str) -> None:
    """Drop the record of ``name`` in ``python`` (after a roll-back)."""
    records = load_installs()
    kept = [r for r in records if not (r["python"] == str(python) and r["name"] == name)]
    if len(kept) != len(records):
        installs_file().write_text(json.dumps(kept, indent=2), encoding="utf-8")


def load_installs() -> list[dict[str, Any]]:
    try:
        data = json.loads(installs_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return data if isinstance(data, list) else []
