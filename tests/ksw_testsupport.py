"""Plain helper functions for the tests (importable from every test folder)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kernel_wizard.build.plan import BuildPlan
    from kernel_wizard.build.run import BuildOutcome
    from kernel_wizard.flow.session import BuildRunner, Session


def pip_freeze(python: Path) -> str:
    """The environment's package list, for 'left exactly as before' comparisons."""
    return subprocess.run(
        [str(python), "-m", "pip", "freeze", "--all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def build_this_plan(make_plan: Callable[[Session], BuildPlan],
                    run: Callable[..., BuildOutcome] | None = None) -> BuildRunner:
    """A session build step that builds exactly the plan ``make_plan(session)`` gives, with the
    real build runner (or ``run``: a stand-in), in place of the source → patches → plan
    pipeline (for a build from a test's own folder)."""
    from kernel_wizard.build.run import PlanEvent, run_build

    runner = run if run is not None else run_build

    def build(session: Session, sink: Callable[[object], None],
              cancel: threading.Event) -> BuildOutcome:
        plan = make_plan(session)
        sink(PlanEvent(plan))
        return runner(plan, sink, cancel)

    return build


def probe_plan(session: Session) -> BuildPlan:
    """The plan of a bundled probe build for the session's target (what the screenshots and
    some tests start from), already moved into the build's own copy of the probe's source (the
    pipeline's one copy step, into the build root): building it never writes into the
    wizard's ``resources/``."""
    from kernel_wizard.build.plan import BuildRequest, plan_build
    from kernel_wizard.flow.pipeline import stage_plan
    from kernel_wizard.machine.platforms import current

    env, hardware = session.require_target()
    probe = session.catalog().get("probe")
    plan = plan_build(BuildRequest(probe, probe.newest, env, hardware),
                      toolkits=session.toolkits())
    staged, _copy = stage_plan(plan, env, current().default_build_root())
    return staged


def installed(page: Any) -> Any:
    """What the current verification installed, as the session knows it (the Verify page
    keeps no copy): an ``InstallResult``, or None."""
    flow = page.session.current_verification()
    return flow.installed if flow is not None else None


def load_file(name: str, path: Path) -> Any:
    """The Python file ``path`` as the module ``name`` (loaded once, then kept in
    ``sys.modules``): a benchmark or a conftest that is no importable module."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
