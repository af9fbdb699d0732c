"""``python -m app --headless explain FILE [--json]``: explain any saved log of a failure.

For failures outside the wizard: a ``pip install flash-attn`` that failed in a terminal, a
ComfyUI node that failed to load. ``FILE`` may be ``-`` (standard input). It prints the first
error line verbatim, where the log stopped, the cause when it is known, the next step and a
search link for the first error line in the failing package's issue tracker. Exit code 1 when
the log shows a failure, 0 when it shows none. JSON schema ``ksw.explain/1``:
docs/explain-schema.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from kernel_wizard.base.errors import StorageError
from kernel_wizard.diagnose.explain import SCHEMA, explain_file


def explain_options(cmd: argparse.ArgumentParser) -> None:
    """``explain``'s description and options (the command registry: :mod:`.main`)."""
    cmd.description = ("Read a saved log (FILE, or - for standard input) of a build, install "
                       "or import that failed, also outside the wizard, and say where it "
                       "stopped, the first error line, the cause when it is known, what to do "
                       "next, and where to search for the error. Exit code 1 when the log "
                       "shows a failure, 0 when it shows none.")
    cmd.add_argument("file", metavar="FILE", help="the log file, or - to read standard input")
    cmd.add_argument("--json", action="store_true", help=f"print JSON (schema {SCHEMA})")


def run_explain_command(args: argparse.Namespace, out: TextIO) -> int:
    if args.file != "-" and not Path(args.file).is_file():
        raise StorageError(f"There is no log file {args.file}.",
                           hint="Give the path of a saved log, or - to read standard input.")
    result = explain_file(args.file)
    if args.json:
        json.dump(result.to_json(), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(result.describe() + "\n")
    return result.exit_code
