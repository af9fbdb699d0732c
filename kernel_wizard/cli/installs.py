"""``--headless installs`` and ``--headless rollback``: what the wizard installed, and undoing it.

Every CLI start also finishes or rolls back an install that was cut off earlier
(:func:`announce_recovery`), and says so before the command runs.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from kernel_wizard.base.advice import cli_command
from kernel_wizard.base.errors import ExitCode, WizardError
from kernel_wizard.base.paths import same_env
from kernel_wizard.cli.consent import add_yes_option, confirm
from kernel_wizard.install import wheel_cache
from kernel_wizard.install.installer import (
    InstallRecord,
    load_backup,
    read_installs,
    rollback_backup,
    rollback_install,
    startup_notices,
    unfinished_installs,
)

INSTALLS_SCHEMA = "ksw.installs/1"


def installs_options(installs: argparse.ArgumentParser) -> None:
    """``installs``' description and options (the command registry: :mod:`.main`)."""
    installs.description = ("List every kernel the wizard installed (environment, version, "
                            "verification) and what a roll-back would put back.")
    installs.add_argument("--json", action="store_true", help="print JSON (ksw.installs/1)")


def rollback_options(rollback: argparse.ArgumentParser) -> None:
    """``rollback``'s description and options (the command registry: :mod:`.main`)."""
    rollback.description = ("Remove a kernel the wizard installed and put back what was "
                            "installed before it (or nothing, if nothing was). The install "
                            "record of what comes back returns too.")
    rollback.add_argument("--kernel", help="the kernel (or distribution) to roll back "
                          "(default: the one install the wizard recorded, if only one)")
    rollback.add_argument("--python", type=Path, help="the environment it is installed in "
                          "(default: any environment with a matching install)")
    add_yes_option(rollback)


def announce_recovery(err: TextIO) -> None:
    """Finish or roll back installs that were cut off; tell the person first."""
    for notice in startup_notices():
        err.write(f"! {notice}\n")


def _verification(record: InstallRecord) -> str:
    status = record.verification_status
    if not status:
        return "not recorded"
    names = {"pass": "passed", "fail": "FAILED", "error": "could not run",
             "skipped": "skipped (installed without verifying, as asked)"}
    text = names.get(status, status)
    if record.installed_despite_failure:
        text += " (installed anyway, as chosen)"
    return text


def _backup_text(record: InstallRecord) -> tuple[str, str | None]:
    folder = record.transaction or record.backup
    backup = load_backup(Path(folder)) if folder else None
    if backup is not None:
        return f"{backup.name} {backup.version}", str(backup.folder)
    if record.backup:
        return "missing (the copy is gone)", record.backup

    return "nothing (it was not installed before)", None


def _install_json(record: InstallRecord) -> dict[str, Any]:
    """One install in ``ksw.installs/1``: the record's own keys, with the kernel named (also
    for a record of before kernels were recorded) and what a roll-back would put back."""
    document = record.to_json()
    restores, backup = _backup_text(record)
    return {"kernel": record.kernel_id, "name": record.name, "version": record.version,
            "python": record.python, "installed": record.installed,
            "verification": document["verification"], "rollback_restores": restores,
            "backup": backup, "previous": document["previous"]}


def run_installs_command(args: argparse.Namespace, out: TextIO) -> int:
    found = read_installs()
    records = found.records
    pending = [j for j in unfinished_installs() if j.entry is not None]
    if args.json:
        json.dump({
            "schema": INSTALLS_SCHEMA,
            "installs": [_install_json(r) for r in records],
            "unfinished": [{"python": j.entry["python"], "name": j.entry["name"],
                            "version": j.entry.get("version"), "journal": str(j.path)}
                           for j in pending if j.entry is not None],
            "notices": list(found.notices),
            "verified_wheels": [_cached_json(w) for w in wheel_cache.entries()],
        }, out, indent=2)
        out.write("\n")
        return int(ExitCode.OK)
    if not records:
        out.write("The wizard has not installed any kernel yet.\n")
    for record in records:
        restores, folder = _backup_text(record)
        out.write(f"{record.kernel_id}: {record.name} {record.version}\n"
                  f"  in {record.python}\n"
                  f"  installed {record.installed or 'at an unknown time'}; "
                  f"verification {_verification(record)}\n"
                  f"  a roll-back puts back: {restores}\n")
        if folder:
            out.write(f"  backup: {folder}\n")
    for journal in pending:
        entry = journal.entry or {}
        out.write(f"! an install of {entry.get('name')} into {entry.get('python')} is running "
                  "now (or was cut off; the next start finishes or undoes it)\n")
    _write_cache(out)
    return int(ExitCode.OK)


def _cached_json(wheel: wheel_cache.CachedWheel) -> dict[str, Any]:
    data = wheel.to_json()
    data["path"] = str(wheel.path)
    return data


def _write_cache(out: TextIO) -> None:
    """The verified-wheel cache: what a reinstall into a matching environment takes without
    compiling."""
    kept = wheel_cache.entries()
    if not kept:
        return
    total = sum(w.size for w in kept)
    cap = wheel_cache.cache_cap_bytes()
    out.write(f"\nVerified wheels kept for reinstalling without compiling ({len(kept)}, "
              f"{total / 1e6:.0f} MB of {cap / 1e6:.0f} MB; {wheel_cache.CAP_VARIABLE} sets "
              f"the limit, {cli_command('clean', '--cache')} empties it):\n")
    for line in wheel_cache.describe(kept):
        out.write(f"  {line}\n")


def _say(out: TextIO, line: str) -> None:
    out.write(f"  {line}\n")
    out.flush()  # a wait for another run's lock is seen while it lasts


def run_rollback_command(args: argparse.Namespace, out: TextIO) -> int:
    records = read_installs().records
    python = str(args.python) if args.python is not None else None
    matching = [r for r in records
                if (args.kernel is None or args.kernel in (r.kernel_id, r.name))
                and (python is None or same_env(r.python, python))]
    wanted = " ".join(filter(None, [f"--kernel {args.kernel}" if args.kernel else "",
                                    f"--python {python}" if python else ""]))
    if not matching:
        raise WizardError(
            "Nothing to roll back: the wizard has no record of installing "
            + (f"{args.kernel}" if args.kernel else "a kernel")
            + (f" into {python}." if python else "."),
            hint=f"'{cli_command('installs')}' lists what the wizard installed.")
    if len(matching) > 1:
        choices = "\n".join(f"  --kernel {r.kernel_id} --python {r.python}" for r in matching)
        out.write(f"Several installs match{' ' + wanted if wanted else ''}; name one:\n"
                  f"{choices}\n")
        return int(ExitCode.USAGE)
    record = matching[0]
    backup = rollback_backup(record)  # a copy that is gone: said before anything is asked
    removes = f"{record.name} {record.version} from {record.python}"
    change = (f"This removes {removes} and puts back {backup.name} {backup.version}."
              if backup is not None else
              f"This removes {removes}; nothing was installed there before.")
    confirm(change, "Roll it back?", yes=args.yes,
            arguments=getattr(args, "arguments", ["rollback"]), out=out)
    result = rollback_install(Path(record.python), record.name,
                              on_line=lambda line: _say(out, line))
    out.write(f"✔ {result.message}\n")
    return int(ExitCode.OK)
