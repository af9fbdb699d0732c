"""What changed since each installed kernel last passed its verification (issue 33, item 4).

"An update broke it" is the second most frequent complaint in the kernels' trackers: a driver,
PyTorch or AI-program update, after which a kernel computes garbage or no longer imports. So
at every start (the GUI's Welcome page and ``detect``) the wizard compares, for each kernel it
installed, the NVIDIA driver, PyTorch, PyTorch's CUDA and Python of the environment now with
those of the kernel's last passing verification (its saved report), and says in one line what
changed, with "Re-verify now". Nothing is run in the kernel's environment unless PyTorch
changed there: then a compiled kernel may no longer load (its C++ ABI is the old PyTorch's),
so one import in a child process tells, and a kernel that no longer imports is named with its
fix: the matching wheel from the verified cache, or a rebuild.

The front ends get :class:`SinceVerified` per install and :func:`notice` for the one line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.base.advice import cli_command
from kernel_wizard.base.errors import ProcessError
from kernel_wizard.base.messages import Msg, join, msg
from kernel_wizard.base.processes import run_captured
from kernel_wizard.install.records import InstallRecord
from kernel_wizard.install.wheel_cache import CachedWheel
from kernel_wizard.machine.environment import PythonEnv
from kernel_wizard.verify.history import Change, SavedReport, last_passing

IMPORT_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Now:
    """The facts of one environment now (what a report's environment facts are compared
    with); ``torch`` None: PyTorch is not importable there any more."""

    python: str | None
    torch: str | None
    torch_cuda: str | None


@dataclass(frozen=True)
class SinceVerified:
    """One install: what changed since its last passing verification, and whether it still
    loads."""

    record: InstallRecord
    name: str  # the kernel's name for people ("FlashAttention 3")
    verified: SavedReport | None  # its last passing verification (None: never passed here)
    changes: tuple[Change, ...] = ()
    broken: Msg | None = None  # why it does not work any more, in words
    fix: Msg | None = None  # what to do about ``broken``
    cached: CachedWheel | None = None  # a verified wheel that fits the environment now

    @property
    def needs_attention(self) -> bool:
        return bool(self.changes) or self.broken is not None


ImportCheck = Callable[[Path, str], "str | None"]


def import_error(python: Path, module: str) -> str | None:
    """None when ``module`` imports in ``python`` (a child process), else its last error
    line."""
    try:
        result = run_captured([str(python), "-c", f"import {module}"],
                              timeout_s=IMPORT_TIMEOUT_S)
    except ProcessError as exc:
        return exc.describe()
    if result.returncode == 0:
        return None
    lines = [line for line in (result.stderr or result.stdout).strip().splitlines() if line]
    return lines[-1] if lines else f"exit code {result.returncode}"


def now_of(env: PythonEnv | None) -> Now | None:
    """The facts of an inspected environment; None when it could not be inspected (gone)."""
    if env is None or env.version is None:
        return None
    torch = env.torch
    return Now(python=env.version, torch=torch.version if torch else None,
               torch_cuda=torch.cuda if torch else None)


def _changes(report: SavedReport, driver: str | None, now: Now) -> tuple[Change, ...]:
    facts = report.report.environment
    if facts is None:
        return ()
    pairs = [
        ("NVIDIA driver", facts.driver_version, driver),
        ("PyTorch", facts.torch_version, now.torch),
        ("PyTorch's CUDA", facts.torch_cuda, now.torch_cuda),
        ("Python", facts.python, now.python),
    ]
    return tuple(Change(what, before, after) for what, before, after in pairs
                 if before and after and before != after)


def since_verification(
    records: Sequence[InstallRecord],
    *,
    driver: str | None,
    inspect: Callable[[Path], PythonEnv | None],
    modules: Mapping[str, str],
    names: Mapping[str, str] | None = None,
    cached: Callable[[InstallRecord, PythonEnv], CachedWheel | None] | None = None,
    check_import: ImportCheck = import_error,
    reports: Path | None = None,
) -> list[SinceVerified]:
    """For each install: its changes since the last passing verification (see the module's
    text). ``inspect`` looks at an environment (None: it is gone); ``modules``: each kernel's
    import name; ``cached``: a verified wheel of that kernel that fits the environment now."""
    out: list[SinceVerified] = []
    looked: dict[str, PythonEnv | None] = {}
    for record in records:
        kernel = record.kernel_id
        name = (names or {}).get(kernel, kernel)
        python = Path(record.python)
        if record.python not in looked:
            looked[record.python] = inspect(python) if python.exists() else None
        env = looked[record.python]
        verified = last_passing(kernel, record.python, reports)
        now = now_of(env)
        if now is None:
            out.append(SinceVerified(
                record, name, verified,
                broken=msg("its Python environment ({python}) is gone or does not start",
                           python=record.python),
                fix=msg("Install it again into the environment the AI program uses now "
                        "(the wizard's Kernel step; a verified wheel is reused where one "
                        "fits).")))
            continue
        changes = _changes(verified, driver, now) if verified is not None else ()
        broken = fix = None
        wheel = cached(record, env) if cached is not None and env is not None else None
        torch_changed = any(c.what in ("PyTorch", "PyTorch's CUDA") for c in changes)
        module = modules.get(kernel)
        if now.torch is None:
            broken = msg("PyTorch does not import in {python} any more", python=record.python)
            fix = msg("Repair PyTorch there first ({command}).",
                      command=cli_command("fix", "python-env"))
        elif torch_changed and module:
            error = check_import(python, module)
            if error is not None:
                broken = msg("{kernel} no longer imports after the PyTorch update: {error}",
                             kernel=name, error=error)
                fix = (msg("Install the wheel verified with PyTorch {torch} from the "
                           "wizard's cache (verified on {date}): no compiling.",
                           torch=now.torch, date=wheel.verified_on) if wheel is not None
                       else msg("Build it again for PyTorch {torch} (the wizard's Kernel "
                                "step, or {command}), or go back to the PyTorch it was built "
                                "for.", torch=now.torch,
                                command=cli_command("build", "--kernel", kernel)))
        out.append(SinceVerified(record, name, verified, changes, broken, fix, wheel))
    return out


def notice(items: Sequence[SinceVerified]) -> Msg | None:
    """One line for the start of the wizard: what changed since the last verification, for
    which kernels; None when nothing did."""
    attention = [i for i in items if i.needs_attention]
    if not attention:
        return None
    broken = [i for i in attention if i.broken is not None]
    if broken:  # the headline; each kernel's own line says why and what to do
        change = next((c for i in broken for c in i.changes), None)
        if change is None:
            return msg("{kernels} may not work any more. Re-verify now to see what still "
                       "works.", kernels=_names(broken))
        return msg("{kernels} may not work any more: {what} changed ({before} → {after}). "
                   "Re-verify now to see what still works.", kernels=_names(broken),
                   what=Msg(change.what), before=change.before, after=change.after)
    whats: list[str] = []
    for item in attention:
        for change in item.changes:
            if change.what not in whats:
                whats.append(change.what)
    first = next(c for i in attention for c in i.changes if c.what == whats[0])
    if len(whats) == 1:
        return msg("Since {kernels} last passed verification, {what} changed ({before} → "
                   "{after}). Re-verify now to be sure it still computes right.",
                   kernels=_names(attention), what=Msg(first.what), before=first.before,
                   after=first.after)
    return msg("Since {kernels} last passed verification, {whats} changed. Re-verify now "
               "to be sure it still computes right.", kernels=_names(attention),
               whats=join([Msg(w) for w in whats], ", "))


def _names(items: Sequence[SinceVerified]) -> str:
    names = list(dict.fromkeys(i.name for i in items))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
