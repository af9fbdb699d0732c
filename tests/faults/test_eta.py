"""Faults around the build's progress, ETA and build-time history, through the real CLI.

The source tree's setup.py does what a torch extension build does in its build folder —
writes ``build/temp.fault/build.ninja``, prints ninja's ``[n/N]`` lines and appends each
unit's ``.ninja_log`` entry — in a second, then packs a small wheel. The estimate and its
history must never cost the user the build.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from ksw_faults import assert_clean_failure, run_cli, wait_until_gone

FAKE_NINJA = textwrap.dedent('''
    import os, sys, time
    from setuptools import setup
    MARKER = {marker!r}
    temp = os.path.abspath(os.path.join("build", "temp.fault"))
    if "bdist_wheel" in sys.argv:
        os.makedirs(os.path.join(temp, "csrc"), exist_ok=True)
        units = [("csrc/a.o", 0.2), ("csrc/slow_b.o", 0.5)]
        with open(os.path.join(temp, "build.ninja"), "w") as fh:
            fh.write("rule compile\\n  command = c++\\n")
            fh.writelines(f"build {{temp}}/{{u}}: compile {{u}}.cpp\\n" for u, _ in units)
        log = os.path.join(temp, ".ninja_log")
        if not os.path.exists(log):
            with open(log, "w") as fh:
                fh.write("# ninja log v7\\n")
        start = time.monotonic()
        for i, (name, seconds) in enumerate(units, 1):
            time.sleep(seconds)
            end = int((time.monotonic() - start) * 1000)
            failed = os.environ.get("FAULT_FAIL_UNIT") == name
            if not failed:  # ninja's log keeps the units that compiled
                with open(log, "a") as fh:
                    fh.write(f"0\\t{{end}}\\t0\\t{{temp}}/{{name}}\\tab\\n")
            print(f"[{{i}}/2] c++ -c {{name}}.cpp -o {{temp}}/{{name}}", flush=True)
            if failed:
                print(f"FAILED: [code=1] {{temp}}/{{name}}", flush=True)
                print(f"{{name}}.cpp:3:1: error: expected ';' before 'return'", flush=True)
                print("ninja: build stopped: subcommand failed.", flush=True)
                sys.exit(1)
    setup(name="ksw-fault", version="0.0.1")
''')


def ninja_tree(folder: Path, marker: str) -> Path:
    tree = folder / f"src-ninja-{marker}"
    tree.mkdir(parents=True)
    (tree / "setup.py").write_text(FAKE_NINJA.format(marker=marker), encoding="utf-8")
    return tree


def build(tree: Path, python: Path, data: Path) -> str:
    """The build, not verified and not installed: the target environment is never touched."""
    result = run_cli("build", "--kernel", "probe", "--source", str(tree), "--python",
                     str(python), "--skip-verify", "--no-install", data=data, timeout=300)
    return assert_clean_failure(result, 0, "Slowest of the 2 compiled units:", "csrc/slow_b.o")


def test_damaged_history(tmp_path: Path, marker: str, torch_venv: Path) -> None:
    """damaged buildtimes.json → the build runs on the recipe's estimate, history rewritten"""
    data = tmp_path / "data"
    data.mkdir()
    (data / "buildtimes.json").write_text('{"schema": "ksw.buildtimes/1", "records": [{', "utf-8")
    output = build(ninja_tree(tmp_path, marker), torch_venv, data)
    assert "preparing · " in output and " elapsed" in output
    history = json.loads((data / "buildtimes.json").read_text(encoding="utf-8"))
    assert [(r["kernel"], [u[0] for u in r["units"]]) for r in history["records"]] == [
        ("probe", ["csrc/a.o", "csrc/slow_b.o"])]
    assert not wait_until_gone(marker)


def test_history_not_writable(tmp_path: Path, marker: str, torch_venv: Path) -> None:
    """buildtimes.json not writable (a folder) → the build succeeds; its log says so"""
    data = tmp_path / "data"
    (data / "buildtimes.json").mkdir(parents=True)
    build(ninja_tree(tmp_path, marker), torch_venv, data)
    log = next((data / "logs").glob("*-probe.log"))
    assert "# build times not kept for the next estimate:" in log.read_text(encoding="utf-8")
    assert not wait_until_gone(marker)


def test_a_unit_fails(tmp_path: Path, marker: str, torch_venv: Path) -> None:
    """the last unit fails ("[2/2] …" then "FAILED:") → exit 1; progress shows 1/2 compiled,
    never "link and package 2/2 units · a few seconds left" before "The build failed"""
    result = run_cli("build", "--kernel", "probe", "--source", str(ninja_tree(tmp_path, marker)),
                     "--python", str(torch_venv), "--skip-verify", "--no-install",
                     data=tmp_path / "data", timeout=300, FAULT_FAIL_UNIT="csrc/slow_b.o")
    output = assert_clean_failure(result, 1, "The build failed", "expected ';' before 'return'")
    progress = [line for line in output.splitlines() if " elapsed" in line]
    assert progress and progress[-1].startswith("  compile 1/2 units"), output
    assert "link and package" not in output and "2/2 units" not in output
    assert not wait_until_gone(marker)
