"""What the wizard and the verification harness share (resources/verify/harness_protocol.py),
and the harness's own layering: one definition read by both sides, the adapters listed from
their folder, no import circle, no test switch in production code. The harness runs as it
does for real: a child interpreter with the harness folder on its path, torch not needed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kernel_wizard.catalog import load_catalog
from kernel_wizard.verify import adapter_names, harness_command, harness_path
from kernel_wizard.verify import protocol as core_protocol
from kernel_wizard.verify import report as report_module

VERIFY = harness_path().parent


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=VERIFY, capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout


def test_the_core_reads_the_harness_protocol_itself() -> None:
    """The markers, the schema and the progress prefix the runner uses are the ones the
    harness prints: both come from the harness's file."""
    harness_side = json.loads(run_python(
        "import json, harness_protocol as p; print(json.dumps([p.SCHEMA, p.BEGIN, p.END, "
        "p.PROGRESS, list(p.adapter_names())]))"))
    core_side = [core_protocol.SCHEMA, core_protocol.BEGIN, core_protocol.END,
                 core_protocol.PROGRESS_PREFIX, list(adapter_names())]
    assert harness_side == core_side
    assert report_module.SCHEMA == core_protocol.SCHEMA  # reports are read by that schema


def test_the_adapters_are_the_folders_modules_and_every_recipe_has_one() -> None:
    files = sorted(p.stem for p in (VERIFY / "adapters").glob("*.py") if p.stem != "__init__")
    assert list(adapter_names()) == files
    for recipe in load_catalog():
        assert recipe.verify_adapter in adapter_names(), recipe.id


def test_an_unknown_adapter_is_a_bad_command_line_naming_the_known_ones(tmp_path: Path) -> None:
    command = harness_command(sys.executable, "no_such_kernel", tmp_path / "r.json")
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 64
    assert "unknown adapter 'no_such_kernel' (known: " in done.stderr
    assert all(name in done.stderr for name in adapter_names())


def test_the_harness_modules_import_bottom_up_without_a_circle() -> None:
    """harness_timing (and the protocol and output modules below it) can be imported without
    harness_common: the old circle (common imported timing at its end, timing imported
    common) is gone."""
    loaded = json.loads(run_python(
        "import json, sys; import harness_timing, harness_measures, harness_io; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('harness_'))))"))
    assert "harness_common" not in loaded
    assert {"harness_timing", "harness_io", "harness_protocol"} <= set(loaded)


def test_the_production_harness_reads_no_test_switches() -> None:
    """The test mode (GPU adapters on the CPU) lives in tests/support/verify_hooks, reached
    through the harness's documented device hooks; no harness file names its variables."""
    for path in VERIFY.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "KSW_VERIFY_TEST" not in text, path
    assert "ksw_verify_hooks" in (VERIFY / "verify_kernel.py").read_text(encoding="utf-8")
