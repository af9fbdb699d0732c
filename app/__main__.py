"""Entry point: ``python -m app`` opens the wizard; ``--headless ...`` runs the CLI."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

# What the program takes, and what it does (the usage text names the program as it is started:
# ``python -m app`` from source, the bundle's console program when frozen).
USAGE_ROWS = (
    ("", "open the wizard"),
    ("--verify [--quick]", "re-verify every kernel the wizard installed"),
    ("--headless COMMAND", "run a step without a window (try: --headless --help)"),
    ("--headless explain FILE", "explain a failed build, install or import log (- for stdin)"),
    ("--self-test", "check this installation and that the wizard opens"),
    ("--resume", "open the wizard where it was before a restart"),
    ("--reverify", "open the wizard at the re-verification (the shortcut)"),
)

NO_DISPLAY_TEMPLATE = """\
The Kernel Setup Wizard cannot open its window: this session has no display
(neither DISPLAY nor WAYLAND_DISPLAY is set, e.g. over SSH or in a container).

Everything the wizard does also runs without a window, for example:
    {detect}
    {help}
Or connect with a display (ssh -X, a desktop session) and run '{program}' again.
"""


MISSING_LIBRARIES_TEMPLATE = """\
The Kernel Setup Wizard cannot open its window: Qt needs {libraries}, which this system
does not have. Install the package {packages}, for example:
    sudo apt install libxcb-cursor0        (Debian, Ubuntu)
    sudo dnf install xcb-util-cursor       (Fedora)
then run '{program}' again.

Everything the wizard does also runs without a window, for example:
    {detect}
    {help}
"""


def missing_libraries(names: Sequence[str]) -> str:
    from kernel_wizard.base.advice import cli_command, program
    from kernel_wizard.machine.platforms.linux import XCB_LIBRARIES

    return MISSING_LIBRARIES_TEMPLATE.format(
        libraries=", ".join(names), packages="; ".join(XCB_LIBRARIES.get(n, n) for n in names),
        program=program(), detect=cli_command("detect"), help=cli_command("--help"))


def usage() -> str:
    """The usage text, naming the program as it is started here (source or bundle)."""
    from kernel_wizard.base.advice import program

    name = program()
    width = max(len(f"{name} {args}") for args, _ in USAGE_ROWS) + 4
    lines = [f"{'usage:' if i == 0 else '      '} {f'{name} {args}'.rstrip():<{width}}{what}"
             for i, (args, what) in enumerate(USAGE_ROWS)]
    return "\n".join(lines) + "\n"


def no_display() -> str:
    """What to do without a display, with commands this program (source or bundle) takes."""
    from kernel_wizard.base.advice import cli_command, program

    return NO_DISPLAY_TEMPLATE.format(detect=cli_command("detect"), help=cli_command("--help"),
                                      program=program())


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in {"-h", "--help"}:
        print(usage(), end="")
        return 0
    if args[:1] == ["--ksw-watchdog"]:  # the frozen program's watchdog (machine/lifetime)
        from kernel_wizard.machine.watchdog import main as watchdog_main

        return watchdog_main(args[1:])
    if "--headless" in args:
        args.remove("--headless")
        from kernel_wizard.cli.main import main as cli_main

        return cli_main(args)
    if args and args[0] == "--self-test":
        from .selftest import main as self_test_main

        return self_test_main(args[1:])
    if args and args[0] == "--verify":
        # after a driver or torch update: re-verify everything the wizard installed
        from kernel_wizard.cli.main import main as cli_main

        return cli_main(["verify", *args[1:]])
    resume = reverify = False
    if args and args[0] == "--resume":  # Windows starts this once after a fix's restart
        resume, args = True, args[1:]
    elif args and args[0] == "--reverify":  # the "Re-verify GPU kernels" shortcut
        reverify, args = True, args[1:]
    if args:
        print(f"unknown arguments: {' '.join(args)}\n\n{usage()}", end="", file=sys.stderr)
        return 2

    from kernel_wizard.base.errors import ExitCode
    from kernel_wizard.machine.platforms import current

    if not current().has_display(os.environ):
        print(no_display(), end="", file=sys.stderr)
        return int(ExitCode.NO_DISPLAY)
    missing = current().missing_display_libraries(os.environ)
    if missing:  # before Qt starts: Qt would abort the process with its own words
        print(missing_libraries(missing), end="", file=sys.stderr)
        return int(ExitCode.NO_DISPLAY)

    if os.environ.get("KSW_EXIT_AFTER_FIRST_PAGE"):  # start-up benchmark (app/selftest.py)
        from .selftest import arm_first_page_probe

        arm_first_page_probe(os.environ["KSW_EXIT_AFTER_FIRST_PAGE"])

    from .wizard import run_gui

    return run_gui(resume=resume, reverify=reverify)


if __name__ == "__main__":
    sys.exit(main())
