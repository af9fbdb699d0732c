"""The headless front end: ``python -m app --headless <command> ...``.

Anything a wizard page can do, a command here can do. Human-readable output by default,
``--json`` for scripts (schemas in docs/). Exit codes: :class:`build_backend.errors.ExitCode`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from . import __version__
from .environment import Candidate, PythonEnv, discover_candidates, inspect_python
from .errors import ExitCode, WizardError
from .hardware import HardwareReport, NvmlState, detect, format_bytes
from .nvml_record import ReplayNvmlApi, save_recording


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m app --headless",
        description="Kernel Setup Wizard, headless: the wizard's steps from the command line.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    detect_cmd = commands.add_parser(
        "detect",
        help="show GPUs, driver, host resources and the target Python environment",
        description="Detect NVIDIA GPUs (through NVML), host resources, and inspect the "
        "target Python environment.",
    )
    detect_cmd.add_argument("--json", action="store_true", help="print JSON (schema ksw.detect/1)")
    detect_cmd.add_argument(
        "--python",
        metavar="PATH",
        type=Path,
        help="the interpreter to inspect (default: the first discovered candidate)",
    )
    detect_cmd.add_argument(
        "--record",
        metavar="FILE",
        type=Path,
        help="also save NVML's raw answers to FILE (for bug reports)",
    )
    detect_cmd.add_argument(
        "--replay",
        metavar="FILE",
        type=Path,
        help="show a recorded machine (a file written by --record) instead of this one",
    )
    build_cmd = commands.add_parser(
        "build",
        help="build a kernel, verify it, and install it",
        description="Build a kernel library into a wheel for the target Python (in a staging "
        "folder), verify it against PyTorch from there, and install it only if it passes.",
    )
    build_cmd.add_argument("--kernel", default="probe", help="the kernel to build (default: probe)")
    build_cmd.add_argument("--version", dest="kernel_version", help="the kernel version")
    build_cmd.add_argument("--source", type=Path, help="a local source folder to build from")
    build_cmd.add_argument("--python", type=Path, help="the target interpreter")
    build_cmd.add_argument("--gpus", help="GPU indices to build for, e.g. 0,1 (default: all)")
    build_cmd.add_argument("--no-install", action="store_true",
                           help="stop after the verification; do not install")
    build_cmd.add_argument("--skip-verify", action="store_true",
                           help="install without verifying first (not recommended)")
    build_cmd.add_argument("--allow-failed", action="store_true",
                           help="install even if the verification fails (you are warned)")
    build_cmd.add_argument("--quick-verify", action="store_true",
                           help="run only the essential verification cases")
    build_cmd.add_argument("--prebuilt", action="store_true",
                           help="download a matching prebuilt wheel instead of building")
    build_cmd.add_argument("--force", action="store_true",
                           help="build even if the catalog says the kernel does not fit")
    build_cmd.add_argument("--plan-only", action="store_true",
                           help="print what would run, and run nothing")
    build_cmd.add_argument("--verbose", "-v", action="store_true",
                           help="print every line of the build log")
    build_cmd.add_argument("--json", action="store_true", help="print the outcome as JSON")
    verify_cmd = commands.add_parser(
        "verify",
        help="re-verify installed kernels (after a driver or torch update)",
        description="Verify kernels the wizard installed, compare with the last passing "
        "report, and name what changed. Exit code 0 only when everything passes.",
    )
    verify_cmd.add_argument("--kernel", help="only this kernel (with --python)")
    verify_cmd.add_argument("--python", type=Path, help="the environment it is installed in")
    verify_cmd.add_argument("--quick", action="store_true", help="only the essential cases")
    verify_cmd.add_argument("--json", action="store_true", help="print the reports as JSON")

    kernels_cmd = commands.add_parser(
        "kernels",
        help="list the kernels and versions, and whether each fits this computer",
    )
    kernels_cmd.add_argument("--python", type=Path, help="the target interpreter")
    kernels_cmd.add_argument("--json", action="store_true", help="print JSON (ksw.kernels/1)")
    kernels_cmd.add_argument("--online", action="store_true",
                             help="also ask GitHub for versions newer than the bundled list")
    from .prereqs.cli import add_parsers as add_prereq_parsers

    add_prereq_parsers(commands)  # check, fix
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse prints its own message
        return int(exc.code) if isinstance(exc.code, int) else int(ExitCode.USAGE)
    from .lifetime import guard

    # Ctrl-C, SIGTERM, SIGHUP: the running step stops its whole process tree, the log is
    # finished, and the exit code is 128 + the signal (130, 143, 129); see lifetime.py.
    with guard(out=sys.stderr, terminal=True) as life:
        return life.exit_code(_run(parser, args, out if out is not None else sys.stdout))


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace, stream: TextIO) -> int:
    try:
        if args.command == "detect":
            return _detect(args, stream)
        if args.command == "build":
            from .cli_build import run_build_command

            return run_build_command(args, stream)
        if args.command == "verify":
            from .cli_build import run_verify_command

            return run_verify_command(args, stream)
        if args.command == "kernels":
            from .cli_build import run_kernels_command

            return run_kernels_command(args, stream)
        if args.command in ("check", "fix"):
            from .prereqs.cli import run_check_command, run_fix_command

            run = run_check_command if args.command == "check" else run_fix_command
            return run(args, stream)
    except WizardError as exc:
        print(exc.describe(), file=sys.stderr)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        print("Cancelled.", file=sys.stderr)
        return int(ExitCode.CANCELLED)
    parser.error(f"unknown command {args.command}")  # pragma: no cover - argparse checks
    return int(ExitCode.USAGE)  # pragma: no cover


def _detect(args: argparse.Namespace, out: TextIO) -> int:
    if args.replay is not None:
        try:
            replay = ReplayNvmlApi.from_file(args.replay)
        except (OSError, ValueError, KeyError) as exc:
            raise WizardError(
                f"Could not read the NVML recording {args.replay}.",
                why=str(exc),
                hint="Pass a file written by 'detect --record FILE'.",
            ) from exc
        hardware = detect(lambda: replay)
    else:
        hardware = detect()
    if args.record is not None:
        save_recording(args.record)

    candidates = discover_candidates()
    if args.python is not None:
        chosen: Candidate | None = Candidate(args.python, "given with --python")
    else:
        chosen = candidates[0] if candidates else None
    env = inspect_python(chosen.path) if chosen is not None else None

    if args.json:
        document = hardware.to_json()
        document["environment"] = env.to_json() if env is not None else None
        document["candidates"] = [{"path": str(c.path), "origin": c.origin} for c in candidates]
        json.dump(document, out, indent=2)
        out.write("\n")
    else:
        out.write(format_hardware(hardware))
        out.write("\n")
        out.write(format_environment(env, chosen, candidates))
    if args.python is not None and env is not None and not env.usable:
        print(f"\n{env.summary}\nWhat to do: {env.hint}", file=sys.stderr)
        return int(ExitCode.ENVIRONMENT)
    return int(ExitCode.OK)


def format_hardware(report: HardwareReport) -> str:
    lines = ["GPUs"]
    if report.state is NvmlState.OK:
        lines.append(f"  {report.message}")
    else:
        lines.append(f"  {report.message}")
        if report.hint:
            lines.append(f"  What to do: {report.hint}")
        if report.nvml_error:
            lines.append(f"  (NVML said: {report.nvml_error})")
    if report.driver_version or report.cuda_driver_version:
        cuda = report.cuda_driver_version
        lines.append(
            f"  Driver {report.driver_version or 'unknown'}, supports CUDA up to "
            f"{f'{cuda[0]}.{cuda[1]}' if cuda else 'unknown'}"
        )
    for gpu in report.gpus:
        cc = gpu.compute_capability
        cc_text = f"cc {cc[0]}.{cc[1]}" if cc else "cc unknown"
        lines.append(
            f"  [{gpu.index}] {gpu.name or 'unknown'} — {gpu.arch}, {cc_text}, "
            f"{format_bytes(gpu.memory_total)} ({format_bytes(gpu.memory_free)} free)"
        )
        if gpu.uuid:
            lines.append(f"      {gpu.uuid}")
        for error in gpu.errors:
            lines.append(f"      could not read {error}")
    host = report.host
    lines += [
        "",
        "Host",
        f"  {host.os_name}",
        f"  CPU cores: {host.cpu_logical} logical"
        + (f", {host.cpu_physical} physical" if host.cpu_physical else ""),
        f"  RAM: {format_bytes(host.ram_available)} available of {format_bytes(host.ram_total)}",
        f"  Disk: {format_bytes(host.disk_free)} free at {host.disk_path}",
        f"  (detected in {report.seconds * 1000:.0f} ms)",
    ]
    return "\n".join(lines) + "\n"


def format_environment(
    env: PythonEnv | None, chosen: Candidate | None, candidates: Sequence[Candidate]
) -> str:
    lines = ["Target Python environment"]
    if env is None or chosen is None:
        lines.append("  No Python interpreter found. Pass one with --python PATH.")
        return "\n".join(lines) + "\n"
    lines.append(f"  {chosen.path} ({chosen.origin})")
    lines.append(f"  {'OK' if env.usable else 'NOT USABLE'}: {env.summary}")
    if env.hint:
        lines.append(f"  What to do: {env.hint}")
    if env.detail:
        lines.extend(f"    {line}" for line in env.detail.splitlines())
    if env.version:
        lines.append(
            f"  Python {env.version}, {env.bits}-bit, {env.interpreter_tag}-{env.platform_tag}"
            f"; pip {env.pip_version or 'missing'}; ninja {env.ninja or 'missing'}"
        )
    if env.torch is not None:
        torch = env.torch
        arch = " ".join(torch.arch_list) or "none"
        lines.append(
            f"  torch {torch.version}, CUDA {torch.cuda or 'none (CPU build)'}, "
            f"GPU usable: {'yes' if torch.cuda_available else 'no'}, archs: {arch}, "
            f"C++11 ABI: {'yes' if torch.cxx11_abi else 'no'}"
        )
    others = [c for c in candidates if c.path != chosen.path]
    if others:
        lines.append("  Other candidates (choose with --python PATH):")
        lines.extend(f"    {c.path} ({c.origin})" for c in others)
    return "\n".join(lines) + "\n"
