"""The headless CLI's command registry (issue 32): one table, ``kernel_wizard.cli.main.COMMANDS``,
makes both the parser and the dispatch.

Every registered command has a one-line summary, a parser description and a runner that import;
``--help`` lists exactly the registered commands, in the table's order, each with its summary;
and a command added to the table alone is parsed, helped and run (no list of names elsewhere).
"""

from __future__ import annotations

import argparse
import inspect
import io
import re
from collections.abc import Iterator

import pytest

from kernel_wizard.cli.main import COMMANDS, Command, build_parser, main


def listed_commands(help_text: str) -> dict[str, str]:
    """The commands the top-level ``--help`` lists, with their (rejoined) summaries."""
    block = help_text.split("  COMMAND\n", 1)[1].split("\n\n", 1)[0]
    listed: dict[str, str] = {}
    name = ""
    for line in block.splitlines():
        entry = re.match(r"    (\S+)\s+(.*)", line)
        if entry:
            name = entry.group(1)
            listed[name] = entry.group(2)
        else:  # a summary wrapped onto the next line
            listed[name] += " " + line.strip()
    return {key: value.replace("- ", "-") for key, value in listed.items()}


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_has_a_summary_a_description_and_a_runner(name: str) -> None:
    """each entry → a one-line summary, a parser that describes the command, a (args, out) runner"""
    command = COMMANDS[name]
    assert command.summary.strip() and "\n" not in command.summary
    assert not command.summary.endswith("."), "summaries are lines of a list, not sentences"
    parser = subparsers(build_parser())[name]
    assert parser.description or name == "kernels"  # 'kernels' has had none: its summary says it
    runner = command.runner()
    assert callable(runner)
    assert list(inspect.signature(runner).parameters)[:2] == ["args", "out"]


def test_help_lists_exactly_the_registered_commands(capsys: pytest.CaptureFixture[str]) -> None:
    """--help → the registry's commands, in its order, each with its summary, and no others"""
    assert main(["--help"]) == 0
    listed = listed_commands(capsys.readouterr().out)
    assert list(listed) == list(COMMANDS)
    for name, summary in listed.items():
        assert " ".join(summary.split()) == " ".join(COMMANDS[name].summary.split())


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_command_has_its_own_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """<command> --help → exit 0 and that command's usage (the subparser the registry made)"""
    assert main([name, "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: ")


def greet_options(parser: argparse.ArgumentParser) -> None:
    parser.description = "Say hello."
    parser.add_argument("--to", default="world", help="whom to greet (default: world)")


def run_greet_command(args: argparse.Namespace, out: io.StringIO) -> int:
    out.write(f"hello, {args.to}\n")
    return 0


@pytest.fixture
def greet() -> Iterator[None]:
    """A command that exists only in the registry, for the length of one test."""
    COMMANDS["greet"] = Command("say hello", options=f"{__name__}:greet_options",
                                run=f"{__name__}:run_greet_command")
    try:
        yield
    finally:
        del COMMANDS["greet"]


def test_a_command_named_only_in_the_registry_parses_and_runs(
        greet: None, capsys: pytest.CaptureFixture[str]) -> None:
    """a new table entry → listed by --help, with its own options, and dispatched to its runner"""
    out = io.StringIO()
    assert main(["greet", "--to", "registry"], out=out) == 0
    assert out.getvalue() == "hello, registry\n"
    assert main(["--help"]) == 0
    assert listed_commands(capsys.readouterr().out)["greet"] == "say hello"


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """a name not in the table → exit 2 (usage), and the choices named are the table's"""
    assert main(["no-such-command"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'no-such-command'" in err
    for name in COMMANDS:
        assert f"'{name}'" in err

