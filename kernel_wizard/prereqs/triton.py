"""Check 7: Triton in the target Python, for the kernels whose Python code calls Triton kernels
(SageAttention 2: its quantization kernels on every GPU, its attention kernel on RTX 30xx).

Triton is compiled against one PyTorch: "Each PyTorch minor version is only guaranteed to work
with a specific Triton minor version" (triton-windows' README, section "3. PyTorch",
github.com/triton-lang/triton-windows, formerly woct0rdho/triton-windows). On Linux, PyTorch's
CUDA wheels depend on the ``triton`` they were tested with, so pip brings it along; on Windows
PyTorch brings none and the ``triton-windows`` package of the matching minor version is needed
(the stock ``triton`` has no Windows wheels; an old unofficial one must be removed first). The
fix is ``pip install "<package>>=3.N,<3.N+1"`` into the target Python, the form triton-windows'
README gives ("limit the version to be < 3.7").

Only the packages' metadata is read (the environment probe never imports triton): a Triton that
is installed but fails to load its DLLs shows when the kernel is verified.
"""

from __future__ import annotations

from typing import Any

from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.prereqs.facts import SystemFacts
from kernel_wizard.prereqs.fixes import PipInstallFix, PipStep
from kernel_wizard.prereqs.model import CheckId, CheckResult, CheckStatus

TITLE = N_("Triton")
WHY = N_("Why it matters: SageAttention runs Triton kernels (compiled when first used), and "
         "Triton only works with the PyTorch version it was made for.")

# The kernels that call Triton at run time (recipe names, as the Kernel page shows them).
NEEDED_FOR = ("SageAttention 2",)

# PyTorch minor version -> the Triton minor version it works with.
# Windows: triton-windows' README, section "3. PyTorch" (github.com/triton-lang/triton-windows,
# README.md at 8743423, 2026-07-24): "| PyTorch | Triton |" 2.4 and 2.5 -> 3.1, 2.6 -> 3.2,
# 2.7 -> 3.3, 2.8 -> 3.4, 2.9 -> 3.5, 2.10 and 2.11 -> 3.6, 2.12 and 2.13 -> 3.7; "PyTorch 2.3
# and older are not supported in this repo" (triton-windows starts at 3.1). Its maintainer on
# 2.13: "torch 2.13 works with triton 3.7.x" (triton-lang/triton-windows#42).
WINDOWS_TRITON: dict[tuple[int, int], tuple[int, int]] = {
    (2, 4): (3, 1),
    (2, 5): (3, 1),
    (2, 6): (3, 2),
    (2, 7): (3, 3),
    (2, 8): (3, 4),
    (2, 9): (3, 5),
    (2, 10): (3, 6),
    (2, 11): (3, 6),
    (2, 12): (3, 7),
    (2, 13): (3, 7),
}
# Linux: the triton that PyTorch's CUDA wheels require (Requires-Dist triton==X, from the
# release branch's .ci/docker/triton_version.txt): the same minor versions as the table above
# (which follows them), except 2.4, whose wheels require triton==3.0.0 ("[Release only] use
# triton 3.0.x from pypi", pytorch/pytorch#130336; "torch 2.4.0 requires triton==3.0.0",
# triton-lang/triton#4460; triton-windows has no 3.0 for Windows). Checked one by one: 2.5.1 ->
# 3.1.0 and 2.6.0 -> 3.2.0 (PyPI dependencies listed in triton-windows#50); 2.12 -> 3.7 ("[release
# 2.12] [triton 3.7] Triton pin Update", pytorch/pytorch#174896; 3.7.1 for 2.12.1, #186814);
# 2.13 -> 3.7 (v2.13.0-rc1 ships triton 3.7.1, intel/intel-xpu-backend-for-triton#7363).
LINUX_TRITON: dict[tuple[int, int], tuple[int, int]] = {**WINDOWS_TRITON, (2, 4): (3, 0)}


def _minor(version: str | None) -> tuple[int, int] | None:
    """'3.4.0.post21' -> (3, 4); '2.10.0+cu130' -> (2, 10); None when unreadable."""
    if not version:
        return None
    parts = version.split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return None


def _vtext(v: tuple[int, int]) -> str:
    return f"{v[0]}.{v[1]}"


def triton_requirement(package: str, triton: tuple[int, int]) -> str:
    """'triton-windows>=3.4,<3.5': the minor version PyTorch needs, any patch or post."""
    return f"{package}>={_vtext(triton)},<{triton[0]}.{triton[1] + 1}"


def triton_fix(facts: SystemFacts, package: str, triton: tuple[int, int]) -> PipInstallFix | None:
    env = facts.env
    if env is None or not env.pip_version:
        return None
    requirement = triton_requirement(package, triton)
    return PipInstallFix(
        id="triton",
        title=msg("Install {package} {version}", package=package, version=_vtext(triton)),
        description=msg("Runs pip in {python} to install {requirement} (the Triton that this "
                        "PyTorch works with; a download of a few hundred MB).",
                        python=env.executable, requirement=requirement),
        python=env.executable,
        steps=(PipStep((requirement,)),),
        pip_version=env.pip_version,
    )


def check_triton(facts: SystemFacts) -> CheckResult:
    env = facts.env
    windows = facts.platform == "windows"
    package = "triton-windows" if windows else "triton"
    table = WINDOWS_TRITON if windows else LINUX_TRITON
    torch = env.torch if env is not None else None
    payload: dict[str, Any] = {
        "package": package,
        "installed": env.triton_dist if env is not None else None,
        "version": env.triton if env is not None else None,
        "torch": torch.version if torch is not None else None,
    }
    if env is None or torch is None or torch.cuda is None:
        return CheckResult(CheckId.TRITON, TITLE, CheckStatus.NOT_CHECKED,
                           N_("Checked once the target Python has a CUDA build of PyTorch."),
                           WHY, facts=payload)
    if env.triton is None:  # the environment was inspected without looking for Triton
        return CheckResult(CheckId.TRITON, TITLE, CheckStatus.NOT_CHECKED,
                           N_("Not checked: Triton was not looked for in this environment."),
                           WHY, facts=payload)
    torch_minor = _minor(torch.version)
    wanted = table.get(torch_minor) if torch_minor is not None else None
    payload["wanted"] = _vtext(wanted) if wanted else None
    have = _minor(env.triton)
    dist = env.triton_dist
    lines: list[Msg | str] = [msg("PyTorch {torch}; {package}: {have}", torch=torch.version,
                                  package=dist or package, have=env.triton or msg("missing"))]
    if wanted is None:
        # a PyTorch newer (or older) than the table: say so, change nothing
        status = CheckStatus.OK if dist == package and env.triton else CheckStatus.WARNING
        summary = (msg("{package} {have} is installed; which Triton PyTorch {torch} needs is "
                       "not known to the wizard.", package=package, have=env.triton,
                       torch=torch.version) if status is CheckStatus.OK else
                   msg("No {package} is installed, and which version PyTorch {torch} needs is not "
                       "known to the wizard.", package=package, torch=torch.version))
        return CheckResult(CheckId.TRITON, TITLE, status, summary, join([*lines, WHY], "\n"),
                           N_("See triton-windows' README for the version that matches this "
                              "PyTorch.") if windows else "",
                           facts=payload,
                           needed_for=NEEDED_FOR if status is CheckStatus.WARNING else ())
    fix = triton_fix(facts, package, wanted)
    if windows and dist == "triton":
        summary = msg("The 'triton' package here is not triton-windows; SageAttention needs "
                      "triton-windows {want} on Windows.", want=_vtext(wanted))
        hint = msg("Uninstall it first ({command}), then install triton-windows {want}.",
                   command=f'"{env.executable}" -m pip uninstall -y triton', want=_vtext(wanted))
        return CheckResult(CheckId.TRITON, TITLE, CheckStatus.WARNING, summary,
                           join([*lines, WHY], "\n"), hint, None, payload, NEEDED_FOR)
    if have is None:
        summary = (msg("triton-windows is missing; SageAttention needs version {want} for "
                       "PyTorch {torch}.", want=_vtext(wanted), torch=torch.version) if windows
                   else msg("Triton is missing (PyTorch's CUDA builds usually bring it); "
                            "SageAttention needs Triton {want} for PyTorch {torch}.",
                            want=_vtext(wanted), torch=torch.version))
        return CheckResult(CheckId.TRITON, TITLE, CheckStatus.WARNING, summary,
                           join([*lines, WHY], "\n"), "" if fix else N_("Install pip first."),
                           fix, payload, NEEDED_FOR)
    if have != wanted:
        summary = msg("{package} {have} does not match PyTorch {torch}, which works with "
                      "Triton {want}.", package=dist or package, have=env.triton,
                      torch=torch.version, want=_vtext(wanted))
        return CheckResult(CheckId.TRITON, TITLE, CheckStatus.WARNING, summary,
                           join([*lines, WHY], "\n"), "", fix, payload, NEEDED_FOR)
    summary = (msg("triton-windows {have} matches PyTorch {torch}.", have=env.triton,
                   torch=torch.version) if windows else
               msg("Triton {have} (it comes with PyTorch {torch}).", have=env.triton,
                   torch=torch.version))
    return CheckResult(CheckId.TRITON, TITLE, CheckStatus.OK, summary,
                       join([*lines, WHY], "\n"), facts=payload)


__all__ = ["LINUX_TRITON", "NEEDED_FOR", "WINDOWS_TRITON", "check_triton", "triton_fix",
           "triton_requirement"]
