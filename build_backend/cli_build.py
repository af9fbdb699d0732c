"""``python -m app --headless build``: the Build page without a window."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

from .build import BuildOutcome, BuildStatus, run_build
from .environment import PythonEnv, discover_candidates, inspect_python
from .errors import EnvironmentProbeError, ExitCode, WizardError
from .hardware import detect
from .pipeline import BuildRequest, plan_build, probe_request
from .terminal import TerminalProgress, duration


def resolve_env(python: Path | None) -> PythonEnv:
    """The target environment: --python, or the first discovered candidate; must be usable."""
    if python is None:
        candidates = discover_candidates()
        if not candidates:
            raise EnvironmentProbeError(
                "No Python interpreter was found to build into.",
                hint="Pass one with --python PATH.",
            )
        python = candidates[0].path
    env = inspect_python(python)
    if not env.usable:
        raise EnvironmentProbeError(f"{python}: {env.summary}", hint=env.hint)
    return env


def parse_gpus(text: str | None) -> list[int] | None:
    if not text:
        return None
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise WizardError(f"--gpus {text!r} is not a list of GPU indices.",
                          hint="Write them like 0 or 0,1 (see 'detect').") from exc


def make_request(args: argparse.Namespace, env: PythonEnv) -> BuildRequest:
    hardware = detect()
    gpus = parse_gpus(args.gpus)
    if args.kernel == "probe":
        request = probe_request(env, hardware, gpus)
        if args.source is not None:
            from dataclasses import replace

            request = replace(request, source_dir=args.source)
        return request
    raise WizardError(
        f"Unknown kernel {args.kernel!r}.",
        hint="Run 'python -m app --headless kernels' to see the kernels this wizard knows.",
    )


def outcome_json(outcome: BuildOutcome) -> dict[str, Any]:
    report = outcome.diagnosis
    return {
        "schema": "ksw.build/1",
        "status": outcome.status.value,
        "message": outcome.message,
        "hint": outcome.hint,
        "wheel": str(outcome.wheel) if outcome.wheel else None,
        "log": str(outcome.log_path),
        "seconds": round(outcome.seconds, 2),
        "attempts": outcome.attempts,
        "exit_code": outcome.exit_code,
        "steps": [{"step": s.step.value, "state": s.state.value, "seconds": round(s.seconds, 2)}
                  for s in outcome.steps],
        "diagnoses": [{"id": h.signature_id, "title": h.title, "cause": h.cause, "fix": h.fix,
                       "line": h.line_number} for h in (report.hits if report else ())],
        "first_error": report.first_error.line if report and report.first_error else None,
        "plan": {
            "command": list(outcome.plan.command),
            "cwd": str(outcome.plan.cwd),
            "env": {c.name: c.value for c in outcome.plan.env_changes},
        },
    }


def run_build_command(args: argparse.Namespace, out: TextIO) -> int:
    env = resolve_env(args.python)
    plan = plan_build(make_request(args, env))
    human = sys.stderr if args.json else out
    human.write(f"Target: {env.executable} ({env.summary})\nWhat will run:\n")
    human.write("".join(f"  {line}\n" for line in plan.describe().splitlines()))
    human.write(f"Log: {plan.log_path}\n")
    if args.plan_only:
        return int(ExitCode.OK)

    progress = TerminalProgress(human, verbose=args.verbose)
    cancel = threading.Event()
    result: list[BuildOutcome] = []
    worker = threading.Thread(
        target=lambda: result.append(run_build(plan, progress, cancel)), daemon=True
    )
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.2)
    except KeyboardInterrupt:
        human.write("\nCancelling: stopping the build and its compilers…\n")
        cancel.set()
        worker.join()
    progress.close()
    outcome = result[0]
    if outcome.status is BuildStatus.SUCCEEDED:
        human.write(f"✔ {outcome.message} ({duration(outcome.seconds)})\n  {outcome.wheel}\n")
    else:
        human.write(f"✖ {outcome.message}\n  {outcome.hint}\n")
        report = outcome.diagnosis
        if report is not None and report.first_error is not None:
            human.write(f"  First error (log line {report.first_error.line_number}): "
                        f"{report.first_error.line.strip()}\n")
        human.write(f"  Full log: {outcome.log_path}\n")
    code = {
        BuildStatus.SUCCEEDED: ExitCode.OK,
        BuildStatus.FAILED: ExitCode.FAILURE,
        BuildStatus.CANCELLED: ExitCode.CANCELLED,
    }[outcome.status]
    if outcome.status is BuildStatus.SUCCEEDED and args.install and outcome.wheel is not None:
        from .install import install_wheel

        installed = install_wheel(env.executable, outcome.wheel, kernel=plan.kernel)
        human.write(f"✔ Installed {installed.name} {installed.version} into {env.executable}\n")
    if args.json:
        json.dump(outcome_json(outcome), out, indent=2)
        out.write("\n")
    return int(code)
