"""Prerequisites: one check per family, each a pure function of :class:`SystemFacts` that
returns a :class:`CheckResult` and may offer a :class:`Fix`.

For a page (or a script)::

    facts = gather_facts(python)            # slow: run it off the GUI thread
    results = run_checks(facts)             # pure and fast
    for r in results: r.status, r.summary, r.detail, r.hint, r.fix
    outcome = r.fix.run(on_line, cancel, on_progress)   # on a worker thread
    facts = refresh(facts, r.id)            # re-read what the fix can have changed
    results = run_checks(facts)

``any(r.blocks for r in results)`` says whether the build may start.
"""

from __future__ import annotations

from kernel_wizard.prereqs.checks import (
    CHECKS,
    find_fix,
    parse_check_id,
    run_check,
    run_checks,
    standalone_fix,
)
from kernel_wizard.prereqs.facts import SystemFacts, gather_facts, refresh
from kernel_wizard.prereqs.model import (
    CheckId,
    CheckResult,
    CheckStatus,
    Fix,
    FixOutcome,
    FixProgress,
    FixStatus,
    blocking,
    needed_for_text,
)
from kernel_wizard.prereqs.resume import clear_resume_state, load_resume_state

__all__ = [
    "CHECKS",
    "CheckId",
    "CheckResult",
    "CheckStatus",
    "Fix",
    "FixOutcome",
    "FixProgress",
    "FixStatus",
    "SystemFacts",
    "blocking",
    "clear_resume_state",
    "find_fix",
    "gather_facts",
    "load_resume_state",
    "needed_for_text",
    "parse_check_id",
    "refresh",
    "run_check",
    "run_checks",
    "standalone_fix",
]
