"""``python -m app --headless check`` and ``... fix <id>``: the Prerequisites page without a
window. JSON schema of ``check --json``: docs/check-schema.md (``ksw.check/1``)."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from kernel_wizard.base.advice import fix_command
from kernel_wizard.base.errors import ExitCode
from kernel_wizard.cli.consent import add_yes_option, confirm
from kernel_wizard.flow.session import Session
from kernel_wizard.machine.ai_apps import python_argument
from kernel_wizard.machine.environment import PYTHON_DEFAULT, discover_candidates, inspect_python
from kernel_wizard.machine.hardware import NvmlApi, detect
from kernel_wizard.machine.lifetime import run_cancellable
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.prereqs.checks import CHECKS, find_fix, run_check
from kernel_wizard.prereqs.facts import SystemFacts, refresh
from kernel_wizard.prereqs.model import (
    CheckResult,
    CheckStatus,
    FixOutcome,
    FixProgress,
    FixStatus,
    needed_for_text,
)

SCHEMA = "ksw.check/1"
FIX_IDS = ("git-longpaths", "ninja")  # fixes that can be asked for by name at any time


def check_options(check: argparse.ArgumentParser) -> None:
    """``check``'s description and options (the command registry: :mod:`.main`)."""
    check.description = ("Check everything a kernel build needs. Exit code 0 when nothing "
                         "blocks the build, 1 when something does.")
    _common(check)
    check.add_argument("--json", action="store_true", help=f"print JSON (schema {SCHEMA})")


def fix_options(fix: argparse.ArgumentParser) -> None:
    """``fix``'s description and options (the command registry: :mod:`.main`)."""
    fix.description = ("Run the fix for one check, then check again. ID is a check id "
                       f"({', '.join(c.value for c in CHECKS)}) or a fix id "
                       f"({', '.join(FIX_IDS)}, or the one 'check' shows).")
    fix.add_argument("target", metavar="ID", help="the check (or fix) to fix")
    _common(fix)
    add_yes_option(fix)
    fix.add_argument("--dry-run", action="store_true",
                     help="show what the fix would run, and run nothing")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--python", metavar="PATH", type=python_argument,
                        help="the interpreter that gets the kernel, or an AI program's folder "
                        f"({PYTHON_DEFAULT})")
    parser.add_argument("--build-root", metavar="DIR", type=Path,
                        help="the build folder to check (default: the wizard's own, "
                        f"{current_platform().default_build_root()})")
    parser.add_argument("--replay", metavar="FILE", type=Path,
                        help="use a recorded NVML answer (from 'detect --record') for the GPUs "
                        "(default: this computer's)")


def _checked(args: argparse.Namespace) -> tuple[SystemFacts, list[CheckResult]]:
    """The facts and the checks of the target Python (``--python``, else the first one found)
    and the GPUs (``--replay``: a recorded machine's), through the session as the
    Prerequisites page gets them."""
    python: Path | None = args.python
    if python is None:
        candidates = discover_candidates()
        python = candidates[0].path if candidates else None
    if args.replay is not None:
        from kernel_wizard.machine.nvml_record import read_recording

        replay = read_recording(args.replay)

        def nvml_factory() -> NvmlApi:
            return replay

        hardware = detect(nvml_factory)
    else:
        hardware = detect()
    session = Session(hardware=hardware,
                      environment=inspect_python(python) if python is not None else None)
    results = session.check(build_root=args.build_root)
    assert session.facts is not None  # set by check()
    return session.facts, results


def format_result(result: CheckResult, verbose: bool = True) -> str:
    lines = [f"{result.status.label:<8} {result.title} — {result.summary}"]
    if result.needed_for:
        lines.append(f"           {needed_for_text(result.needed_for, first=True)} (the probe "
                     "kernel builds without it).")
    if verbose and result.detail:
        lines += [f"           {line}" for line in result.detail.splitlines()]
    if result.hint:
        lines.append(f"           What to do: {result.hint}")
    fix = result.fix
    if fix is not None and (result.status is not CheckStatus.OK):
        admin = "; needs administrator rights" if fix.needs_admin else ""
        if fix.automatic:
            lines.append(f"           Fix ({fix.id}): {fix.title}{admin} — run: "
                         f"{fix_command(result.id.value)}")
        else:
            lines.append(f"           Fix ({fix.id}): {fix.title} — run it yourself:")
            lines += [f"             {command}" for command in fix.command_preview]
    return "\n".join(lines)


def document(facts: SystemFacts, results: Sequence[CheckResult]) -> dict[str, Any]:
    """The ``ksw.check/1`` JSON document."""
    blocking = [r.id.value for r in results if r.blocks]
    return {
        "schema": SCHEMA,
        "platform": facts.platform,
        "python": str(facts.env.executable) if facts.env is not None else None,
        "build_root": str(facts.build_root),
        "blocking": bool(blocking),
        "blocking_checks": blocking,
        "checks": [r.to_json() for r in results],
        "seconds": round(facts.seconds, 3),
    }


def run_check_command(args: argparse.Namespace, out: TextIO) -> int:
    facts, results = _checked(args)
    blocked = [r for r in results if r.blocks]
    if args.json:
        json.dump(document(facts, results), out, indent=2)
        out.write("\n")
    else:
        target = facts.env.executable if facts.env is not None else "no Python chosen"
        out.write(f"Prerequisites ({facts.platform}; target: {target})\n\n")
        for result in results:
            out.write(format_result(result) + "\n\n")
        warnings = sum(r.status is CheckStatus.WARNING for r in results)
        if blocked:
            count = "1 check blocks" if len(blocked) == 1 else f"{len(blocked)} checks block"
            out.write(f"✖ {count} the build: {', '.join(r.title for r in blocked)}.\n")
        else:
            out.write("✔ Nothing blocks the build"
                      + (f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings
                         else "") + ".\n")
            ruling = [r for r in results if r.rules_out]
            if ruling:
                kernels = list(dict.fromkeys(k for r in ruling for k in r.needed_for))
                out.write(f"  The probe kernel can be built now. {' / '.join(kernels)} "
                          f"need{'s' if len(kernels) == 1 else ''} a fix first:\n")
                out.write("".join(f"    {r.title}: {fix_command(r.id.value)}\n"
                                  for r in ruling))
    return int(ExitCode.FAILURE if blocked else ExitCode.OK)


class _Printer:
    """Fix output for a terminal: lines indented, progress at every 10 %."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._tenth: tuple[str, int] | None = None

    def line(self, text: str) -> None:
        self.out.write(f"  | {text}\n")
        self.out.flush()

    def progress(self, p: FixProgress) -> None:
        if p.fraction is None:
            return
        key = (p.text, int(p.fraction * 10))
        if key != self._tenth:
            self._tenth = key
            self.out.write(f"  {p.text}: {p.fraction:.0%}\n")
            self.out.flush()


def _nothing_to_fix(fix_id: str, facts: SystemFacts) -> str:
    """Why a fix asked for by name has nothing to do here."""
    if fix_id == "git-longpaths":
        if facts.git.executable is None:
            return "git is not installed here."
        if not facts.long_paths.applicable:
            return ("this system has no 260-character path limit, so git needs no long-path "
                    "setting.")
        return "git already allows long paths (core.longpaths = true)."
    if fix_id == "ninja":
        if facts.env is None:
            return "no target Python was found (choose one with --python)."
        if facts.env.ninja is not None:
            return f"ninja is already found ({facts.env.ninja})."
        return "this Python has no pip to install ninja with (run 'fix python-env' first)."
    return "nothing needs it."


def run_fix_command(args: argparse.Namespace, out: TextIO) -> int:
    facts, results = _checked(args)
    result, fix = find_fix(args.target, facts, results)
    if result is None and fix is None:
        known = [c.value for c in CHECKS] + list(FIX_IDS)
        print(f"Unknown check or fix {args.target!r}. Known: {', '.join(known)}.",
              file=sys.stderr)
        return int(ExitCode.USAGE)
    if fix is None and args.target in FIX_IDS:  # asked for by name, and nothing to fix
        out.write(f"Nothing to fix: {_nothing_to_fix(args.target, facts)}\n")
        return int(ExitCode.OK)
    if fix is None:
        assert result is not None
        out.write(format_result(result, verbose=False) + "\n")
        if result.blocks:
            out.write("There is no automatic fix for this; see 'What to do' above.\n")
            return int(ExitCode.FAILURE)
        out.write("Nothing to fix.\n")
        return int(ExitCode.OK)
    if result is not None and result.fix is fix:
        out.write(format_result(result, verbose=False) + "\n\n")
    out.write(f"Fix: {fix.title}\n  {fix.description}\n")
    if fix.needs_admin:
        out.write("  Needs administrator rights"
                  + (" (Windows will ask)." if fix.automatic else " (sudo).") + "\n")
    out.write("What will run:\n" + "".join(f"  {c}\n" for c in fix.command_preview))
    if args.dry_run:
        out.write("(dry run: nothing was run)\n")
        return int(ExitCode.OK)
    if not fix.automatic:
        outcome = fix.run(lambda _line: None, threading.Event())
        out.write(f"\n{outcome.message}\n{outcome.hint}\n")
        return int(ExitCode.FAILURE)
    # the one consent rule (cli/consent.py): ask on a terminal, else only with --yes
    confirm("This fix changes your computer.", "Run it?", yes=args.yes,
            arguments=getattr(args, "arguments", ["fix", args.target]), out=out)

    printer = _Printer(out)
    cancel = threading.Event()

    def run() -> FixOutcome:  # the session's one way to run a fix (the environment's lock)
        return Session().run_fix(fix, printer.line, cancel, printer.progress)

    outcome = run_cancellable(run, cancel, f"the fix '{fix.title}'")
    mark = "✔" if outcome.status.succeeded else "✖"
    out.write(f"{mark} {outcome.message}\n")
    if outcome.hint:
        out.write(f"  {outcome.hint}\n")
    if outcome.log_path is not None:
        out.write(f"  Log: {outcome.log_path}\n")
    if outcome.status is FixStatus.CANCELLED:
        return int(ExitCode.CANCELLED)
    if not outcome.status.succeeded:
        return int(ExitCode.FAILURE)
    if result is None:
        return int(ExitCode.OK)
    out.write("\nChecking again…\n")
    after = run_check(result.id, refresh(facts, result.id))
    out.write(format_result(after, verbose=False) + "\n")
    return int(ExitCode.FAILURE if after.blocks else ExitCode.OK)


__all__ = ["SCHEMA", "check_options", "document", "fix_options", "format_result",
           "run_check_command", "run_fix_command"]
