"""``python -m app --headless clean [--all] [--cache] [--dry-run] [--json]``: free disk space.

Removes old builds (all but the last :data:`~install.housekeeping.KEEP` of each kernel;
with ``--all`` every one not in use), old build logs and leftover temporary folders, holds the
verified-wheel cache under its size cap (``--cache`` empties it), and says how much it freed.
Installed kernels, their backups and the verification reports are kept. JSON schema
``ksw.clean/1``: docs/clean-schema.md.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from kernel_wizard.base.errors import ExitCode, StorageError
from kernel_wizard.install import wheel_cache
from kernel_wizard.install.housekeeping import KEEP, CleanResult, clean, format_size, plan_clean

SCHEMA = "ksw.clean/1"


def clean_options(cmd: argparse.ArgumentParser) -> None:
    """``clean``'s description and options (the command registry: :mod:`.main`)."""
    cmd.description = (f"Remove old builds (all but the last {KEEP} of each kernel), their "
                       "logs and leftover temporary folders, and say how much space that "
                       "freed. Installed kernels, their backups and the verification reports "
                       "are always kept, and so is anything a running build uses.")
    cmd.add_argument("--all", dest="everything", action="store_true",
                     help="remove every old build and downloaded source, not only the older "
                     "ones (the next build fetches and compiles again)")
    cmd.add_argument("--cache", action="store_true",
                     help="also empty the verified-wheel cache (the next install of a kernel "
                     "into a new environment compiles again); without it the cache is only "
                     f"held under its size cap ({wheel_cache.CAP_VARIABLE})")
    cmd.add_argument("--dry-run", action="store_true",
                     help="only show what would be removed")
    cmd.add_argument("--build-root", metavar="DIR", type=Path,
                     help="the build folder to clean (default: the wizard's own)")
    cmd.add_argument("--json", action="store_true", help=f"print JSON (schema {SCHEMA})")


def result_json(result: CleanResult, cache: CacheResult | None = None) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "status": "failed" if result.failed else "ok",
        "dry_run": result.dry_run,
        "keep": result.plan.keep,
        "freed_bytes": result.freed,
        "removed": [item.to_json() for item in result.removed],
        "kept": [kept.to_json() for kept in result.plan.protected],
        "failed": [{**item.to_json(), "error": why} for item, why in result.failed],
        **({"verified_wheels": cache.to_json()} if cache is not None else {}),
    }


@dataclass(frozen=True)
class CacheResult:
    """What ``clean`` did to the verified-wheel cache: the wheels it removed, how many (and
    how many bytes) it keeps, and whether it emptied it (``--cache``)."""

    removed: list[wheel_cache.CachedWheel]
    kept: int
    kept_bytes: int
    emptied: bool

    @property
    def freed(self) -> int:
        return sum(w.size for w in self.removed)

    def to_json(self) -> dict[str, Any]:
        return {"emptied": self.emptied, "removed": [w.filename for w in self.removed],
                "freed_bytes": self.freed, "kept": self.kept, "kept_bytes": self.kept_bytes}


def clean_cache(*, empty: bool, dry_run: bool) -> CacheResult:
    """Empty the cache (``empty``) or hold it under its cap; nothing is removed on a dry run."""
    kept = wheel_cache.entries()
    if empty:
        if not dry_run:
            wheel_cache.clear()
        return CacheResult(kept, 0, 0, True)
    if dry_run:
        return CacheResult([], len(kept), sum(w.size for w in kept), False)
    removed = wheel_cache.prune()
    left = wheel_cache.entries()
    return CacheResult(removed, len(left), sum(w.size for w in left), False)


def run_clean_command(args: argparse.Namespace, out: TextIO) -> int:
    keep = 0 if args.everything else KEEP
    plan = plan_clean(keep=keep, build_root=args.build_root)
    result = clean(plan, dry_run=args.dry_run)
    cache = clean_cache(empty=args.cache, dry_run=args.dry_run)
    if args.json:
        json.dump(result_json(result, cache), out, indent=2)
        out.write("\n")
    else:
        out.write(describe(result))
        out.write(describe_cache(cache, dry_run=args.dry_run))
    if result.failed:
        first = result.failed[0]
        raise StorageError(
            f"{len(result.failed)} of {len(plan.remove)} old items could not be removed "
            f"({format_size(result.freed)} freed).",
            why=first[1], hint="Close programs that use those folders, then run 'clean' again.",
            path=first[0].path)
    return int(ExitCode.OK)


def describe(result: CleanResult) -> str:
    plan = result.plan
    rule = ("every old build" if plan.keep == 0
            else f"all but the last {plan.keep} builds of each kernel")
    lines: list[str] = []
    items = result.plan.remove if result.dry_run else result.removed
    if items:
        lines.append(("Would remove" if result.dry_run else "Removed") + f" ({rule}):")
        lines += [f"  {format_size(i.size):>9}  {i.kind.value}: {i.path}" for i in items]
    for kept in plan.protected:
        lines.append(f"  kept: {kept.item.path} ({kept.reason})")
    for item, why in result.failed:
        lines.append(f"  could not remove {item.path}: {why.splitlines()[0]}")
    if result.dry_run:
        lines.append(f"Would free {format_size(plan.size)}; nothing was removed "
                     "(run without --dry-run to remove it).")
    elif not plan.remove:
        lines.append("Nothing to remove: no old builds" + (
            "." if plan.keep == 0 else f" beyond the last {plan.keep} of each kernel "
            "(--all removes those too)."))
    else:
        lines.append(f"Freed {format_size(result.freed)}.")
    return "".join(line + "\n" for line in lines)


def describe_cache(cache: CacheResult, *, dry_run: bool) -> str:
    if cache.emptied:
        if not cache.removed:
            return "The verified-wheel cache is empty.\n"
        verb = "Would remove" if dry_run else "Removed"
        return (f"{verb} the verified-wheel cache: {_wheels(len(cache.removed))}, "
                f"{format_size(cache.freed)} (the next install into a new environment "
                "compiles again).\n")
    lines = []
    if cache.removed:
        lines.append(f"Removed the {_wheels(len(cache.removed))} used least recently "
                     f"({format_size(cache.freed)}) to stay under the cache's limit.")
    if cache.kept:
        size = format_size(cache.kept_bytes)
        lines.append(f"Kept {_wheels(cache.kept, 'verified ')} ({size}) for reinstalling "
                     "without compiling (--cache removes them).")
    return "".join(line + "\n" for line in lines)


def _wheels(count: int, kind: str = "") -> str:
    return f"{count} {kind}wheel{'' if count == 1 else 's'}"
