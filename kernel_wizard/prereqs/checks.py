"""Run every prerequisite check over one set of facts. All checks are pure functions."""

from __future__ import annotations

from collections.abc import Callable

from kernel_wizard.prereqs.compat import check_compat
from kernel_wizard.prereqs.compiler import check_compiler
from kernel_wizard.prereqs.cuda import check_cuda
from kernel_wizard.prereqs.facts import SystemFacts
from kernel_wizard.prereqs.fixes import GitLongPathsFix
from kernel_wizard.prereqs.longpaths import check_long_paths
from kernel_wizard.prereqs.model import CheckId, CheckResult, Fix
from kernel_wizard.prereqs.resources import check_resources
from kernel_wizard.prereqs.target import NINJA_TEXT, check_python_env, ninja_step, packages_fix
from kernel_wizard.prereqs.triton import check_triton

CheckFunction = Callable[[SystemFacts], CheckResult]

CHECKS: dict[CheckId, CheckFunction] = {
    CheckId.COMPILER: check_compiler,
    CheckId.CUDA: check_cuda,
    CheckId.COMPAT: check_compat,
    CheckId.LONG_PATHS: check_long_paths,
    CheckId.PYTHON_ENV: check_python_env,
    CheckId.RESOURCES: check_resources,
    CheckId.TRITON: check_triton,
}


def run_checks(facts: SystemFacts) -> list[CheckResult]:
    """One result per check, in the page's order."""
    return [check(facts) for check in CHECKS.values()]


def run_check(check: CheckId, facts: SystemFacts) -> CheckResult:
    return CHECKS[check](facts)


def parse_check_id(text: str) -> CheckId | None:
    for check in CheckId:
        if check.value == text.strip().lower():
            return check
    return None


def standalone_fix(fix_id: str, facts: SystemFacts) -> Fix | None:
    """A fix asked for by its own id even when no check offers it right now (headless
    ``fix git-longpaths`` / ``fix ninja``); None when it cannot apply here or there is nothing
    to fix (git's long paths on Linux or already allowed, ninja already found)."""
    if fix_id == "git-longpaths" and facts.git.executable is not None \
            and facts.long_paths.applicable and facts.git.core_longpaths is not True:
        # only where paths are limited (Windows), and only while git does not allow long ones
        return GitLongPathsFix(facts.git.executable)
    if fix_id == "ninja" and facts.env is not None and facts.env.pip_version \
            and facts.env.ninja is None:  # found already: nothing to install
        return packages_fix(facts.env.executable, facts.env.pip_version,
                            [(ninja_step(), NINJA_TEXT)])
    return None


def find_fix(target: str, facts: SystemFacts, results: list[CheckResult],
             ) -> tuple[CheckResult | None, Fix | None]:
    """``target`` is a check id (its current fix) or a fix id (offered by a check, or one of
    the standalone fixes). Returns (the check it belongs to, the fix)."""
    check = parse_check_id(target)
    if check is not None:
        found = next(r for r in results if r.id is check)
        return found, found.fix
    for result in results:
        if result.fix is not None and result.fix.id == target:
            return result, result.fix
    fix = standalone_fix(target, facts)
    owner = {"git-longpaths": CheckId.LONG_PATHS, "ninja": CheckId.PYTHON_ENV}.get(target)
    return next((r for r in results if r.id is owner), None), fix


__all__ = ["CHECKS", "find_fix", "parse_check_id", "run_check", "run_checks", "standalone_fix"]
