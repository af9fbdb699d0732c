"""Re-verify every kernel the wizard installed (``python -m app --verify``).

Reads ``installs.json``, runs each kernel's verification in its environment, saves the report,
compares with the last passing report of that kernel there (of the same mode, quick or full,
where there is one: see :func:`verify.history.baseline_for`), and says what changed (driver, CUDA,
torch, kernel version) and what regressed among the checks that ran both times. Exit code 0
only when everything passes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.base.advice import cli_command
from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.base.paths import env_key
from kernel_wizard.install.installer import InstallRecord, load_installs
from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.machine.toolkits import CudaToolkit, discover_toolkits, runtime_path
from kernel_wizard.verify import CaseStatus, VerifyReport, report_view, run_verifications
from kernel_wizard.verify.history import (
    Comparison,
    SavedReport,
    Stage,
    baseline_for,
    compare,
    save_report,
)
from kernel_wizard.verify.wording import verdict_sentence

_RAN = (CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.ERROR)  # SKIPPED: did not run


@dataclass(frozen=True)
class ReverifyResult:
    record: InstallRecord
    saved: SavedReport
    previous: SavedReport | None  # the last passing report before this run
    comparison: Comparison | None

    @property
    def report(self) -> VerifyReport:
        return self.saved.report

    @property
    def label(self) -> str:
        return msg("{kernel} in {python}", kernel=self.record.kernel_id,
                   python=self.record.python)

    @property
    def disagreement(self) -> str | None:
        """What the environment has when it is not what the wizard's record names (the kernel
        was changed outside the wizard, or an install or roll-back was cut off); None when
        they agree or the harness could not tell."""
        kernel = self.report.kernel
        found = (kernel.dist_version or kernel.version) if kernel is not None else None
        recorded = self.record.version
        if not found or not recorded or found.split("+")[0] == recorded.split("+")[0]:
            return None
        return msg("The wizard's record says {name} {recorded} is installed in {python}, but "
                   "{found} was verified there: it was changed outside the wizard. Install the "
                   "version you want with the wizard ('{command}' lists what it recorded).",
                   name=self.record.name, recorded=recorded, python=self.record.python,
                   found=found, command=cli_command("installs"))

    @property
    def comparison_sentence(self) -> str | None:
        """How this run compares with the last passing one, in one sentence (the changes, when
        it names some, follow it as lines); None when there was none. A comparison that had no
        check in common says that nothing could be compared, never that nothing changed."""
        comparison, previous = self.comparison, self.previous
        if comparison is None or previous is None:
            return None
        when = previous.saved_at
        other_mode = previous.report.quick != self.report.quick
        mode = "quick" if previous.report.quick else "full"
        n = comparison.compared
        if n == 0:
            if other_mode:
                when = f"{when}, a {mode} one"
            if not any(case.status in _RAN for case in self.report.cases):
                return msg("Not compared: this verification ran no check to compare with the "
                           "last passing one ({when}).", when=when)
            return msg("Not compared: the last passing verification ({when}) ran none of the "
                       "checks this one ran.", when=when)
        if other_mode:
            when = (f"{when}, a {mode} one; only the {n} check{'s' if n != 1 else ''} both "
                    f"ran {'is' if n == 1 else 'are'} compared")
        if comparison.changes:
            return f"Changed since the last passing verification ({when}):"
        return f"Nothing changed since the last passing verification ({when})."

    @property
    def ok(self) -> bool:
        """It passed, and no check that passed last time fails now."""
        return self.report.passed and not (self.comparison and self.comparison.regressed)

    def summary(self) -> list[Msg | str]:
        """For a person: whether the kernel still works (one sentence), then what changed since
        its last passing check; never "nothing changed" when nothing could be compared."""
        lines: list[Msg | str] = [msg("{kernel}: {sentence}", kernel=self.label,
                                      sentence=verdict_sentence(self.report, installed=False))]
        comparison = self.comparison
        if comparison is None:
            return [*lines, NO_EARLIER_PASS]
        if comparison.compared == 0 and self.comparison_sentence is not None:
            lines.append(self.comparison_sentence)  # the one wording of "not compared"
        if comparison.changes:
            lines.append(msg("Changed since the last passing verification: {changes}.",
                             changes=join([c.sentence() for c in comparison.changes], "; ")))
        elif comparison.compared:
            lines.append(NOTHING_CHANGED)
        if comparison.regressions:
            lines.append(msg("These checks passed before and fail now: {checks}.",
                             checks=", ".join(comparison.regressions)))
        return lines

    def lines(self) -> list[str]:
        out = [("✔ " if self.report.passed else "✖ ") + self.label, *(
            "  " + line for line in report_view(self.report).lines())]
        if self.disagreement is not None:
            out.append("  NOTE: " + self.disagreement)
        comparison, previous = self.comparison, self.previous
        if comparison is not None and previous is not None:
            out.append("  " + str(self.comparison_sentence))
            if comparison.changes:
                if comparison.compared == 0:
                    out.append("  Changed since then:")
                out += [f"    {change}" for change in comparison.changes]
            elif comparison.compared == 0:
                out.append("  The driver, CUDA, PyTorch, GPU, Python and kernel version are the "
                           "same as then.")
            if comparison.regressions:
                out.append("  REGRESSION: these checks passed before and fail now: "
                           + ", ".join(comparison.regressions))
            if comparison.not_run and comparison.compared and (
                    previous.report.quick == self.report.quick):
                count = len(comparison.not_run)
                out.append(f"  Not run this time ({count} check{'s' if count != 1 else ''} "
                           "that ran before; not compared): " + ", ".join(comparison.not_run))
        else:
            out.append("  (no earlier passing verification to compare with)")
        out.append(f"  Report: {self.saved.markdown_path}")
        return out


NO_EARLIER_PASS = N_("There is no earlier passing verification to compare with.")
NOTHING_CHANGED = N_("Nothing changed since the last passing verification.")


def reverify_title(results: Sequence[ReverifyResult]) -> Msg | str:
    """The verdict of a re-verification of every install, in a few words."""
    if not results:
        return N_("Nothing to check yet: this wizard has not installed a kernel.")
    if not all(r.ok for r in results):
        return N_("✖ Something no longer works — see below.")
    if len(results) == 1:
        return N_("✔ PASS — the installed kernel works.")
    return msg("✔ PASS — all {n} installed kernels work.", n=len(results))


def runtime_path_for(python: Path, toolkits: Sequence[CudaToolkit], os_name: str) -> list[Path]:
    """The CUDA folders a re-verification in ``python`` gets first on PATH: those of the
    toolkit a build for it would use. Only when toolkits of several CUDA versions are
    installed is the environment asked for torch's CUDA (that runs it once)."""
    releases = {t.release for t in toolkits if t.release is not None}
    torch_cuda: tuple[int, int] | None = None
    if len(releases) > 1:
        env = inspect_python(python)
        torch_cuda = env.torch.cuda_version if env.torch is not None else None
    return runtime_path(toolkits, torch_cuda, os_name)


def reverify_all(
    *,
    quick: bool = False,
    on_line: Callable[[str], None] | None = None,
    cancel: threading.Event | None = None,
    toolkits: Sequence[CudaToolkit] | None = None,
    os_name: str | None = None,
    select: Callable[[InstallRecord], bool] | None = None,
) -> list[ReverifyResult]:
    """Re-verify every recorded install (``select``: only those it accepts; the others are not
    run at all). ``toolkits`` (default: discovered once, when there is anything to verify) and
    ``os_name`` (default: this OS) decide the CUDA folders put first on the harness's PATH
    (:func:`runtime_path_for`). The kernels of one Python are verified in one harness process
    where they can be (:func:`~.verify.runner.run_verifications`: one torch import and CUDA
    start for all; each still reported, saved and compared on its own). The results come in
    the order of the records."""
    records = [r for r in load_installs() if select is None or select(r)]
    if records and toolkits is None:
        toolkits = discover_toolkits()
    system = os_name if os_name is not None else current_platform().name
    by_python: dict[str, list[int]] = {}  # one process per environment, however spelled
    for index, record in enumerate(records):
        by_python.setdefault(env_key(record.python), []).append(index)
    results: dict[int, ReverifyResult] = {}
    for indices in by_python.values():
        python = Path(records[indices[0]].python)
        group = [records[i] for i in indices]
        kernels = [r.kernel_id for r in group]
        # read before any report of this run is saved
        previous = [baseline_for(kernel, python, quick=quick) for kernel in kernels]
        reports = run_verifications(python, [r.adapter or r.kernel_id for r in group],
                                    quick=quick, on_line=on_line, cancel=cancel,
                                    path_prepend=runtime_path_for(python, toolkits or (), system))
        for index, record, kernel, before, report in zip(indices, group, kernels, previous,
                                                         reports, strict=True):
            saved = save_report(report, kernel=kernel, python=python, stage=Stage.INSTALLED)
            comparison = compare(before.report, report) if before is not None else None
            results[index] = ReverifyResult(record, saved, before, comparison)
    return [results[i] for i in range(len(records))]
