"""The headless front end: ``python -m app --headless <command> ...``.

Anything a wizard page can do, a command here can do. Human-readable output by default,
``--json`` for scripts (schemas in docs/). Exit codes: :class:`kernel_wizard.base.errors.ExitCode`
(listed by ``--help``). Every error ends here as a message (what, why, what to do) and its exit
code, never a traceback: the wizard's own errors, and any ``OSError`` (a full or read-only
disk, a name that is too long, ...) through :mod:`.oserrors`. With ``--json`` the error is also
one JSON document on stdout (docs/error-schema.md).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
import textwrap
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from kernel_wizard import __version__
from kernel_wizard.base.advice import cli_command, cli_prefix, use_terminal
from kernel_wizard.base.errors import (
    EXIT_CODE_MEANINGS,
    Cancelled,
    EnvironmentProbeError,
    ExitCode,
    StorageError,
    WizardError,
)
from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.paths import storage_error
from kernel_wizard.cli.consent import ConsentNeeded, add_yes_option
from kernel_wizard.install.records import load_installs
from kernel_wizard.machine.ai_apps import NoPythonInFolder, python_argument, python_in_folder
from kernel_wizard.machine.environment import (
    PYTHON_DEFAULT,
    Candidate,
    Candidates,
    EnvStatus,
    PythonEnv,
    discover_candidates,
    inspect_python,
)
from kernel_wizard.machine.hardware import HardwareReport, NvmlState, detect, format_bytes
from kernel_wizard.machine.nvml_record import read_recording, save_recording

if TYPE_CHECKING:  # the flow is imported when detect has installs to look at
    from kernel_wizard.flow.changes import SinceVerified

ERROR_SCHEMA = "ksw.error/1"


class UsageError(WizardError):
    """The command line is wrong (argparse's message; the usage went to stderr)."""

    exit_code = ExitCode.USAGE


class _Parser(argparse.ArgumentParser):
    """argparse, but a wrong command line raises :class:`UsageError` (so that ``--json`` can
    report it too) instead of exiting."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise UsageError(f"{self.prog}: error: {message}",
                         hint=f"See: {self.prog} --help")


CONSENT_RULE = (
    "Commands that change a Python environment or the system (fix, rollback, and build "
    "unless --no-install) say what they will change and ask first on a terminal (a no "
    "changes nothing: exit code 130); without a terminal to ask in (a script, a pipe) they "
    "change nothing unless --yes is given (exit code 2).")


def exit_code_epilog() -> str:
    lines = ["exit codes:"]
    for code, meaning in EXIT_CODE_MEANINGS.items():
        lines += textwrap.wrap(meaning, 78, initial_indent=f"  {int(code):<4} ",
                               subsequent_indent=" " * 7)
    lines += ["", *textwrap.wrap(CONSENT_RULE, 78), ""]
    lines.append("With --json, an error is also printed on stdout as one JSON document:")
    lines.append('  {"status": "error", "exit_code": N, "error": {"kind", "message", '
                 '"next_step", ...}}')
    return "\n".join(lines)


@dataclass(frozen=True)
class Command:
    """One headless command, as pip's ``commands_dict`` holds them: the one line ``--help``
    lists for it, the function that describes its parser (its description and options), and the
    function that runs it (``(args, out) -> exit code``).

    Both functions are named ``"module:function"`` and imported only when they are needed: the
    runner only when its command runs, so that ``detect`` does not import what a build needs.
    """

    summary: str
    options: str
    run: str

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Describe the command on its (sub)parser."""
        describe: Callable[[argparse.ArgumentParser], None] = _resolve(self.options)
        describe(parser)

    def runner(self) -> Callable[[argparse.Namespace, TextIO], int]:
        """The function that runs the command."""
        run: Callable[[argparse.Namespace, TextIO], int] = _resolve(self.run)
        return run


def _resolve(reference: str) -> Any:
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


_CLI = "kernel_wizard.cli"

# Every headless command, in the order ``--help`` lists them: the parser and the dispatch are
# both made from this table, and a command exists exactly when it is named here.
COMMANDS: dict[str, Command] = {
    "detect": Command(
        "show GPUs, driver, host resources and the target Python environment",
        options=f"{__name__}:detect_options", run=f"{__name__}:run_detect_command"),
    "build": Command(
        "build a kernel, verify it, and install it",
        options=f"{__name__}:build_options", run=f"{_CLI}.build:run_build_command"),
    "verify": Command(
        "re-verify installed kernels (after a driver or torch update)",
        options=f"{__name__}:verify_options", run=f"{_CLI}.build:run_verify_command"),
    "kernels": Command(
        "list the kernels and versions, and whether each fits this computer",
        options=f"{__name__}:kernels_options", run=f"{_CLI}.build:run_kernels_command"),
    "check": Command(
        "check the prerequisites (compiler, CUDA, long paths, Python, disk/RAM)",
        options=f"{_CLI}.prereqs:check_options", run=f"{_CLI}.prereqs:run_check_command"),
    "fix": Command(
        "run the fix a check offers (e.g. 'fix long-paths', 'fix python-env')",
        options=f"{_CLI}.prereqs:fix_options", run=f"{_CLI}.prereqs:run_fix_command"),
    "installs": Command(
        "list what the wizard installed where, with the backups a roll-back restores",
        options=f"{_CLI}.installs:installs_options",
        run=f"{_CLI}.installs:run_installs_command"),
    "rollback": Command(
        "undo the wizard's install of a kernel: put back what it replaced",
        options=f"{_CLI}.installs:rollback_options",
        run=f"{_CLI}.installs:run_rollback_command"),
    "clean": Command(
        "free disk space: remove old builds, logs and temporary folders",
        options=f"{_CLI}.clean:clean_options", run=f"{_CLI}.clean:run_clean_command"),
    "explain": Command(
        "explain why a build, install or import log failed (any log, e.g. a failed pip "
        "install flash-attn)",
        options=f"{_CLI}.explain:explain_options", run=f"{_CLI}.explain:run_explain_command"),
}


def build_parser() -> argparse.ArgumentParser:
    """The headless command line: the program's options, and one subparser per entry of
    :data:`COMMANDS` (its summary is the line ``--help`` lists)."""
    parser = _Parser(
        prog=cli_prefix(),  # the bundle: its own program's name, never "python -m app"
        description="Kernel Setup Wizard, headless: the wizard's steps from the command line.",
        epilog=exit_code_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name, command in COMMANDS.items():
        command.add_options(subparsers.add_parser(name, help=command.summary))
    return parser


def detect_options(parser: argparse.ArgumentParser) -> None:
    """``detect``: what it shows, and where it looks."""
    parser.description = ("Detect NVIDIA GPUs (through NVML), host resources, and inspect the "
                          "target Python environment.")
    parser.add_argument("--json", action="store_true", help="print JSON (schema ksw.detect/1)")
    parser.add_argument(
        "--python",
        metavar="PATH",
        type=Path,
        help="the interpreter to inspect, or an AI program's folder (its Python is found by "
        f"the program's own layout) ({PYTHON_DEFAULT})",
    )
    parser.add_argument(
        "--app-folder",
        metavar="DIR",
        type=Path,
        help="an AI program installed where the search does not look: its Pythons are listed "
        "and the first is inspected (default: only the usual places are searched)",
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        type=Path,
        help="also save NVML's raw answers to FILE, for a bug report (default: not saved)",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE",
        type=Path,
        help="show the GPUs of a recorded machine (a file written by --record) instead of "
        "this one's (default: this computer's)",
    )


def build_options(parser: argparse.ArgumentParser) -> None:
    """``build``: which kernel, for which Python, and how far to go."""
    parser.description = ("Build a kernel library into a wheel for the target Python (in a "
                          "staging folder), verify it against PyTorch from there, and install "
                          "it only if it passes.")
    parser.add_argument("--kernel", help="the kernel to build (default: the catalog's "
                        "toolchain probe, the small kernel that proves the compilers work)")
    parser.add_argument("--version", dest="kernel_version",
                        help="the kernel version (default: the one recommended for this "
                        "computer; 'kernels' lists them)")
    parser.add_argument("--source", type=Path,
                        help="a local source folder or archive to build from (default: "
                        "download the recipe's source)")
    parser.add_argument("--python", type=python_argument, metavar="PATH",
                        help="the interpreter that gets the kernel, or an AI program's "
                        f"folder ({PYTHON_DEFAULT})")
    parser.add_argument("--variant", metavar="NAME",
                        help="the build variant, for kernels that have several (FlashAttention "
                        "3: compact, the default, or full); 'kernels' lists them")
    parser.add_argument("--gpus", help="GPU indices to build for, e.g. 0,1 (default: all)")
    parser.add_argument("--replay", metavar="FILE", type=Path,
                        help="plan for a recorded machine (a file written by 'detect "
                        "--record') instead of this one's GPUs (default: this computer)")
    parser.add_argument("--no-install", action="store_true",
                        help="stop after the verification; do not install")
    add_yes_option(parser)  # installing changes the environment: the consent rule
    parser.add_argument("--skip-verify", action="store_true",
                        help="install without verifying first (not recommended)")
    parser.add_argument("--allow-failed", action="store_true",
                        help="install even if the verification fails (you are warned)")
    parser.add_argument("--quick-verify", action="store_true",
                        help="run only the essential verification cases")
    parser.add_argument("--prebuilt", nargs="?", const=True, default=False, metavar="URL",
                        help="download a matching prebuilt wheel instead of building; with "
                        "URL, that wheel (a mirror, or one you found; a published digest "
                        "as URL#sha256=HEX; default: build from source)")
    parser.add_argument("--no-cache", action="store_true",
                        help="build from source even when the verified-wheel cache holds this "
                        "kernel verified with the same PyTorch build, Python and GPUs (by "
                        "default that wheel is taken, verified here and installed: no "
                        "compiling)")
    parser.add_argument("--force", action="store_true",
                        help="build even if the catalog says the kernel does not fit")
    parser.add_argument("--plan-only", action="store_true",
                        help="print what would run, and run nothing")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="print every line of the build log")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")


def verify_options(parser: argparse.ArgumentParser) -> None:
    """``verify``: which installed kernels, and how thoroughly."""
    parser.description = ("Verify kernels the wizard installed, compare with the last passing "
                          "report, and name what changed. Exit code 0 only when everything "
                          "passes.")
    parser.add_argument("--kernel",
                        help="only this kernel (with --python; default: every kernel the "
                        "wizard installed)")
    parser.add_argument("--python", type=Path,
                        help="only the kernel installed in this interpreter (default: "
                        "every environment the wizard installed into)")
    parser.add_argument("--quick", action="store_true",
                        help="only the essential checks (default: all of them); compared "
                        "with earlier quick verifications")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")


def kernels_options(parser: argparse.ArgumentParser) -> None:
    """``kernels``: for which Python, and what to judge speed by."""
    parser.add_argument("--python", type=python_argument, metavar="PATH",
                        help="the interpreter that gets the kernel, or an AI program's "
                        f"folder ({PYTHON_DEFAULT})")
    parser.add_argument("--json", action="store_true", help="print JSON (ksw.kernels/1)")
    parser.add_argument("--online", action="store_true",
                        help="also ask GitHub for versions newer than the bundled list")
    parser.add_argument("--no-speed", action="store_true",
                        help="do not time PyTorch's own attention on this GPU (default: "
                        "time it once per GPU, driver and PyTorch, a few seconds, and say "
                        "per kernel whether building it is expected to pay off)")
    parser.add_argument("--workload", choices=("llm", "image", "video"), default=None,
                        help="what you run attention for, to judge speed at its shapes: "
                        "llm (prompts, 2k-8k tokens, causal), image (4k tokens), video "
                        "(16k-32k tokens) (default: from the AI program whose Python it "
                        "is, else llm)")


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    use_terminal()  # advice names commands to run, never a page of the wizard
    stream = out if out is not None else sys.stdout
    arguments = list(argv) if argv is not None else sys.argv[1:]
    parser = build_parser()
    try:
        args = parser.parse_args(arguments)
    except SystemExit as exc:  # --help, --version
        return int(exc.code) if isinstance(exc.code, int) else int(ExitCode.USAGE)
    except UsageError as exc:
        return report_error(exc, stream, as_json="--json" in arguments,
                            command=_command_word(arguments))
    as_json = bool(getattr(args, "json", False))
    args.arguments = arguments  # as typed: a refusal to act without --yes repeats them
    from kernel_wizard.machine.lifetime import guard

    # Ctrl-C, SIGTERM, SIGHUP: the running step stops its whole process tree, the log is
    # finished, and the exit code is 128 + the signal (130, 143, 129); see lifetime.py.
    with guard(out=sys.stderr, terminal=True) as life:
        # sys.stdout again: inside the guard it is the stream that stops writing, without an
        # error, once the terminal has hung up
        return life.exit_code(_run(args, out if out is not None else sys.stdout, as_json))


def _run(args: argparse.Namespace, stream: TextIO, as_json: bool) -> int:
    try:
        from kernel_wizard.cli.installs import announce_recovery

        announce_recovery(sys.stderr)  # an install cut off earlier is finished or undone first
        return COMMANDS[args.command].runner()(args, stream)
    except WizardError as exc:
        return report_error(exc, stream, as_json=as_json, command=args.command)
    except OSError as exc:  # a disk or path problem no step explained: explained here
        return report_error(storage_error(exc), stream, as_json=as_json, command=args.command)
    except KeyboardInterrupt:
        return report_error(Cancelled(), stream, as_json=as_json, command=args.command)
    except Exception as exc:  # noqa: BLE001 - a bug: shown in full, and reported as JSON too
        traceback.print_exc()
        bug = WizardError(f"The wizard failed unexpectedly: {type(exc).__name__}: {exc}",
                          hint="This is a bug in the wizard. Please report it, with the text "
                          "above.")
        return report_error(bug, stream, as_json=as_json, command=args.command,
                            kind="internal")


def _command_word(arguments: Sequence[str]) -> str | None:
    return next((a for a in arguments if not a.startswith("-")), None)


def error_kind(exc: WizardError) -> str:
    """A short, stable name of the error's kind: StorageError → "storage",
    EnvironmentProbeError → "environment_probe", Cancelled → "cancelled"."""
    if isinstance(exc, Cancelled):
        return "cancelled"
    if isinstance(exc, StorageError):  # every storage problem, whatever raised it
        return "storage"
    if isinstance(exc, ConsentNeeded):  # no terminal to ask in, and no --yes
        return "usage"
    name = type(exc).__name__
    if name == "WizardError":
        return "error"
    name = re.sub(r"Error$", "", name) or name
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def error_document(exc: WizardError, *, command: str | None = None,
                   kind: str | None = None) -> dict[str, Any]:
    """The ``ksw.error/1`` document (docs/error-schema.md)."""
    error: dict[str, Any] = {
        "kind": kind or error_kind(exc),
        "message": exc.what,
        "detail": exc.why or None,
        "next_step": exc.hint or None,
    }
    if isinstance(exc, StorageError):
        error["path"] = str(exc.path) if exc.path is not None else None
        error["cause"] = exc.cause or None
    return {"schema": ERROR_SCHEMA, "status": "error", "command": command,
            "exit_code": int(exc.exit_code), "error": error}


def report_error(exc: WizardError, out: TextIO, *, as_json: bool, command: str | None,
                 kind: str | None = None) -> int:
    """Say what went wrong (stderr; with ``as_json`` also a JSON document on ``out``) and
    return the exit code."""
    print(exc.describe(), file=sys.stderr)
    if as_json:
        json.dump(error_document(exc, command=command, kind=kind), out, indent=2)
        out.write("\n")
        out.flush()
    return int(exc.exit_code)


def run_detect_command(args: argparse.Namespace, out: TextIO) -> int:
    """``detect``: the GPUs (or a recorded machine's), the host, and the target Python."""
    if args.replay is not None:
        replay = read_recording(args.replay)
        hardware = detect(lambda: replay)
    else:
        hardware = detect()
    notes = sys.stderr if args.json else out  # --json keeps stdout a JSON document
    if args.record is not None:
        try:
            save_recording(args.record)
        except OSError as exc:
            raise storage_error(exc, path=args.record, action="save the NVML recording",
                                alternative="choose another file with --record") from exc
        notes.write(f"Saved NVML's answers for this computer to {args.record.resolve()}\n"
                    "  Attach it to a bug report; 'detect --replay FILE' shows this machine "
                    "from it.\n\n")
    if args.replay is not None:
        notes.write(replay_notice(args.replay))

    candidates = discover_candidates()
    chosen: Candidate | None
    folder = args.app_folder if args.app_folder is not None else (
        args.python if args.python is not None and args.python.is_dir() else None)
    if folder is not None:  # an AI program's folder: its Python by the program's layout
        try:
            choice = python_in_folder(folder)
        except NoPythonInFolder as exc:
            raise EnvironmentProbeError(str(exc), hint="Give the python executable itself "
                                        "with --python PATH.") from None
        notes.write(choice.sentence() + "\n")
        found = [Candidate(e.python, e.origin, e.app, e.app_id, e.problem)
                 for e in choice.environments]
        chosen = found[0]
        paths = {f.path for f in found}
        merged = Candidates([*found, *(c for c in candidates if c.path not in paths)])
        merged.limits = tuple(getattr(candidates, "limits", ()))
        candidates = merged
    elif args.python is not None:
        chosen = next((c for c in candidates if c.path == args.python), None) \
            or Candidate(args.python, "given with --python")
    else:
        chosen = candidates[0] if candidates else None
    env = inspect_python(chosen.path) if chosen is not None else None
    limits = list(getattr(candidates, "limits", ()))
    # a recorded machine is not this one: what changed here is not looked at for it
    since = _since_verification(hardware) if args.replay is None else None

    if args.json:
        document = hardware.to_json()
        document["environment"] = env.to_json() if env is not None else None
        document["program"] = _program_json(chosen)
        document["candidates"] = [{"path": str(c.path), "origin": c.origin,
                                   "program": _program_json(c), "problem": c.problem or None}
                                  for c in candidates]
        document["scan_limits"] = [str(limit) for limit in limits]
        document["since_verification"] = (
            [_since_json(item) for item in since] if since is not None else None)
        json.dump(document, out, indent=2)
        out.write("\n")
    else:
        out.write(format_hardware(hardware))
        out.write("\n")
        out.write(format_environment(env, chosen, candidates))
        for limit in limits:
            out.write(f"  Not searched everywhere: {limit}\n")
        if since:
            out.write(_since_text(since))
    if (args.python is not None or folder is not None) and env is not None and not env.usable:
        print(f"\n{env.executable}: {env.summary}\nWhat to do: {env.hint}", file=sys.stderr)
        return int(ExitCode.ENVIRONMENT)
    return int(ExitCode.OK)


def _since_verification(hardware: HardwareReport) -> list[SinceVerified] | None:
    """What changed since each kernel the wizard installed last passed its verification
    (:meth:`~kernel_wizard.flow.session.Session.since_verification`, with this detection's
    driver and GPUs); empty when the wizard installed nothing. The flow is imported only when
    there are installs: a plain ``detect`` stays light. A look that cannot be made (an
    unreadable data folder) is said on stderr and costs the detection nothing (None)."""
    try:
        if not load_installs():
            return []
        from kernel_wizard.flow.session import Session

        return Session(hardware=hardware).since_verification()
    except (WizardError, OSError) as exc:
        problem = exc if isinstance(exc, WizardError) else storage_error(exc)
        print(f"What changed since the last verification could not be looked at: "
              f"{problem.describe()}", file=sys.stderr)
        return None


def _since_text(items: Sequence[SinceVerified]) -> str:
    """The notice as ``detect`` prints it: the one line, each kernel that no longer loads with
    its fix, and the command that re-verifies (nothing when nothing changed)."""
    from kernel_wizard.flow.changes import notice

    line = notice(items)
    if line is None:
        return ""
    lines = ["", "Since the last verification:", f"  {line}"]
    for item in items:
        if item.broken is not None:
            lines.append(f"  {item.name} in {item.record.python}: {item.broken}")
            if item.fix is not None:
                lines.append(f"    What to do: {item.fix}")
    lines.append(f"  Re-verify now: {cli_command('verify')}")
    return "\n".join(lines) + "\n"


def _since_json(item: SinceVerified) -> dict[str, Any]:
    """One install in ``detect --json``'s ``since_verification`` (docs/detect-schema.md)."""
    return {
        "kernel": item.record.kernel_id,
        "name": item.name,
        "python": item.record.python,
        "last_passed": item.verified.saved_at if item.verified is not None else None,
        "changes": [{"what": c.what, "before": c.before, "after": c.after}
                    for c in item.changes],
        "broken": str(item.broken) if item.broken is not None else None,
        "fix": str(item.fix) if item.fix is not None else None,
        "cached_wheel": item.cached.filename if item.cached is not None else None,
    }


def _program_json(candidate: Candidate | None) -> dict[str, str] | None:
    """The AI program a candidate belongs to, as ``detect --json`` gives it (None: none)."""
    if candidate is None or not candidate.app:
        return None
    folder = candidate.origin.partition(" in ")[2] if " in " in candidate.origin else ""
    return {"id": candidate.app_id, "name": candidate.app, "folder": folder}


# The verdict words of the "Python environment" check ('check'), for the same statuses: the
# two commands say one thing of one environment (no PyTorch: MISSING, it blocks every build).
_ENV_VERDICT = {
    EnvStatus.READY: "OK",
    EnvStatus.CUDA_TORCH_NO_GPU: "WARNING",
    EnvStatus.CPU_TORCH: "WARNING",
    EnvStatus.NO_TORCH: "MISSING",
}


def env_verdict_word(env: PythonEnv) -> str:
    """OK / WARNING / MISSING / BLOCKED, as the 'check' command words the environment."""
    return _ENV_VERDICT.get(env.status, "BLOCKED")


def replay_notice(path: Path) -> str:
    """Says that the GPUs shown are a recording, not this computer's."""
    try:
        meta = read_json_file(path)
    except (OSError, ValueError):
        meta = {}
    when = meta.get("recorded") if isinstance(meta, dict) else None
    where = meta.get("host") if isinstance(meta, dict) else None
    origin = ", ".join(str(x) for x in (f"recorded {when}" if when else None,
                                         f"on {where}" if where else None) if x)
    return (f"A RECORDED MACHINE, not this computer: the GPUs and driver below are replayed "
            f"from {path}" + (f"\n  ({origin})" if origin else "") + ".\n  The host lines and "
            "the Python environment are this computer's.\n\n")


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
    if report.links is not None and report.gpus:
        lines.append(f"  Links: {report.links.describe()}")
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
    proposed = candidates.proposed_app if isinstance(candidates, Candidates) else None
    if proposed is not None and proposed.path == chosen.path:
        lines.append("  Proposed because it is the only AI program found; nothing is installed "
                     "into it unless you build with it (choose another with --python PATH).")
    lines.append(f"  {env_verdict_word(env)}: {env.summary}")
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
        lines.extend(f"    {c.path} ({c.origin})"
                     + (f"\n      cannot start: {c.problem}" if c.problem else "")
                     for c in others)
    return "\n".join(lines) + "\n"
