"""A real build of several torch extensions in one setup.py (torch 2.13.0 CPU, ninja), through
the wizard's build runner: setup.py runs ninja once per extension, one after another, each with
its own ``[1/N] … [N/N]`` and its own link, as SageAttention (4 extensions), apex or DeepSpeed
do. The bar counts the units of every run so far and never steps back, compile is not reported
finished while a later extension compiles, and the record covers every extension's units."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import make_plan
from kernel_wizard.build.run import (
    BuildEvent,
    BuildStatus,
    ProgressEvent,
    Step,
    StepEvent,
    StepState,
    run_build,
)

pytestmark = pytest.mark.slow

# extension name → its source files (a unit each)
EXTENSIONS = {"mx_a": 2, "mx_b": 3, "mx_c": 1}

SETUP = """
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

EXTENSIONS = {extensions!r}
setup(
    name="ksw-multi-ext", version="0.1", packages=[],
    ext_modules=[CppExtension(name, [f"{{name}}/u{{i}}.cpp" for i in range(count)])
                 for name, count in EXTENSIONS.items()],
    cmdclass={{"build_ext": BuildExtension}},
)
"""
# Plain C++ units: torch's BuildExtension and ninja build and link them as for any extension
# (one ninja run per extension is what is tested), without torch's headers, which take half a
# minute per unit on a 2-core machine. Nothing imports the modules.
UNIT = "int {name}_u{i}() {{ return {i}; }}\n"


def write_source(folder: Path) -> Path:
    source = folder / "src"
    source.mkdir()
    (source / "setup.py").write_text(SETUP.format(extensions=EXTENSIONS), encoding="utf-8")
    for name, count in EXTENSIONS.items():
        (source / name).mkdir()
        for i in range(count):
            text = UNIT.format(name=name, i=i)
            (source / name / f"u{i}.cpp").write_text(text, encoding="utf-8")
    return source


def test_several_extensions_count_every_run(tmp_path: Path, torch_venv: Path) -> None:
    source = write_source(tmp_path)
    plan = make_plan(kernel="multi", version="0.1", source_dir=source, python=torch_venv,
                     python_scripts=None, output_dir=tmp_path / "dist",
                     log_path=tmp_path / "logs" / "build.log",
                     parallelism=Parallelism(2, 1, "test"))
    events: list[BuildEvent] = []
    outcome = run_build(plan, events.append)
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.log_path.read_text()
    log = outcome.log_path.read_text(encoding="utf-8")
    for count in EXTENSIONS.values():  # one ninja run per extension, one after another
        assert f"[{count}/{count}]" in log

    # every extension's units, in the outcome (and the record) and the slowest of all
    total = sum(EXTENSIONS.values())
    assert len(outcome.units) == total
    assert {u.name.split("/")[0] for u in outcome.units} == set(EXTENSIONS)
    assert len(outcome.slowest_units) == 3

    progress = [e for e in events if isinstance(e, ProgressEvent) and e.total]
    done = [p.done for p in progress]
    assert done == sorted(done), done  # the bar never steps back
    assert progress[-1].done == progress[-1].total == total
    assert max(p.run for p in progress) == len(EXTENSIONS)
    assert all(p.done <= p.total for p in progress)

    # compile is one step, finished once, after the last extension's units
    steps = [(e.step, e.state) for e in events if isinstance(e, StepEvent)]
    assert steps[0] == (Step.COMPILE, StepState.RUNNING)
    assert steps.count((Step.COMPILE, StepState.DONE)) == 1
    compiled = next(i for i, e in enumerate(events) if isinstance(e, StepEvent)
                    and (e.step, e.state) == (Step.COMPILE, StepState.DONE))
    assert all(e.done == total for e in events[compiled:] if isinstance(e, ProgressEvent)), \
        "compile was reported finished while a later extension compiled"
    assert [s for s, state in steps if state is StepState.DONE] == [
        Step.COMPILE, Step.LINK, Step.WHEEL]
