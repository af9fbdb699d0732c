"""What the prerequisite checks mean for each kernel of the catalog.

A check whose :attr:`~.model.CheckResult.needed_for` names a kernel (a CUDA toolkit, a CUDA
build of PyTorch, ninja, long paths, disk space for the big builds) does not stop the wizard:
the probe can still be built. It rules that kernel out, though, and the Kernel page says so with
a way back to the check's Fix. :func:`with_prerequisites` adds those reasons to the kernel's own
verdict (:func:`kernel_wizard.catalog.assess`), without repeating one the verdict already has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kernel_wizard.base.advice import prerequisite_check, prerequisite_commands, prerequisite_fix
from kernel_wizard.base.messages import N_, Msg, msg
from kernel_wizard.catalog import Reason, ReasonKind, Recipe, Verdict
from kernel_wizard.prereqs.model import CheckResult

# prerequisite_check() at the start of a sentence, as the wizard says it (marked for translation)
N_("The Prerequisites step says what to do")


def missing_for(recipe: Recipe, checks: Sequence[CheckResult]) -> list[CheckResult]:
    """The checks that found something this kernel needs missing (empty for the probe)."""
    return [c for c in checks if recipe.name in c.needed_for]


def prerequisite_reason(check: CheckResult) -> Reason:
    """One reason a kernel cannot be built yet, pointing to the check's Fix."""
    fix = check.fix
    hint: Msg | str
    if fix is not None and fix.automatic:
        hint = msg("{fix}: {where}.", fix=fix.title, where=prerequisite_fix(check.id.value))
    elif fix is not None:  # commands to run yourself (sudo)
        hint = msg("{fix}: {where}.", fix=fix.title,
                   where=prerequisite_commands(check.id.value))
    elif check.hint:
        hint = check.hint
    else:
        where = prerequisite_check(check.id.value)
        hint = msg("{where}.", where=Msg(where[:1].upper() + where[1:]))
    return Reason(ReasonKind.PREREQUISITE, msg("{check}: {summary}", check=check.title,
                                               summary=check.summary), hint,
                  fix_check=check.id.value)


def with_prerequisites(verdict: Verdict, recipe: Recipe,
                       checks: Sequence[CheckResult]) -> Verdict:
    """``verdict`` plus a reason for every check that rules this kernel out."""
    said = {r.fix_check for r in verdict.reasons if r.fix_check}
    extra = tuple(prerequisite_reason(c) for c in missing_for(recipe, checks)
                  if c.id.value not in said)
    if not extra:
        return verdict
    return replace(verdict, reasons=verdict.reasons + extra)


__all__ = ["missing_for", "prerequisite_reason", "with_prerequisites"]
