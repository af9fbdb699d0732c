"""Check 2: the CUDA toolkit — every toolkit found, the one the build will use, and whether it
fits PyTorch's CUDA, the driver and the GPUs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.machine.toolkits import CudaToolkit, choose_toolkit
from kernel_wizard.prereqs.distro import CUDA_DOWNLOADS_PAGE, cuda_install_commands
from kernel_wizard.prereqs.facts import GccFacts, SystemFacts, ToolkitFacts
from kernel_wizard.prereqs.fixes import CudaToolkitFix, ManualCommandFix
from kernel_wizard.prereqs.model import CheckId, CheckResult, CheckStatus, Fix, scoped, worst
from kernel_wizard.prereqs.versions import (
    DRIVER_FOR_CUDA_MAJOR,
    FullVersion,
    cc_support,
    pick_cuda_release,
    vtext,
)

TITLE = N_("CUDA toolkit")
WHY = N_("Why it matters: nvcc, the CUDA compiler, turns the kernels into GPU code. Its major "
         "version must match the CUDA that PyTorch was built with, the NVIDIA driver must "
         "support it, and it must know your GPU's architecture.")


@dataclass(frozen=True)
class Finding:
    status: CheckStatus
    text: str
    fix: Fix | None = None
    hint: str = ""


def gpu_build_expected(facts: SystemFacts) -> bool:
    """Whether this machine wants CUDA kernels: a GPU is there or PyTorch is a CUDA build.
    Without either, only the CPU probe kernel can be built, so a missing toolkit only warns."""
    return bool(facts.hardware.usable_gpus) or facts.torch_cuda is not None


def chosen_toolkit(facts: SystemFacts) -> ToolkitFacts | None:
    """The toolkit the build will use: the session's decision the facts came with, else (facts
    gathered on their own) :func:`kernel_wizard.machine.toolkits.choose_toolkit`'s."""
    decided = facts.toolkit_choice
    picked: CudaToolkit | None
    if decided is not None and decided.torch_cuda == facts.torch_cuda and \
            decided.chosen is not None:
        picked = decided.chosen
    else:
        # Facts on their own, or a session that chose none because PyTorch is a CPU-only
        # build: the toolkit a build would use is checked all the same (against the driver and
        # the GPUs), so the Prerequisites page and 'check' give one verdict; "none runs" only
        # when none does.
        picked = choose_toolkit([t.toolkit for t in facts.toolkits], facts.torch_cuda)
    if picked is None:
        return None
    return next((t for t in facts.toolkits if t.toolkit == picked), None)


def gpu_ccs(facts: SystemFacts) -> list[tuple[int, int]]:
    return [g.compute_capability for g in facts.hardware.usable_gpus
            if g.compute_capability is not None]


def suggested_release(facts: SystemFacts) -> FullVersion | None:
    """The toolkit version a fix would install (see :func:`.versions.pick_cuda_release`)."""
    return pick_cuda_release(facts.torch_cuda, facts.hardware.cuda_driver_version,
                             gpu_ccs(facts))


def install_fix(facts: SystemFacts, version: FullVersion, reason: str) -> Fix | None:
    """Windows: the network installer. Linux: the package-manager command to run yourself."""
    if facts.platform == "windows":
        return CudaToolkitFix(version=version, reason=reason)
    distro = facts.compiler.distro if isinstance(facts.compiler, GccFacts) else None
    commands = cuda_install_commands(distro, (version[0], version[1]))
    if not commands:
        return None
    cuda = f"{version[0]}.{version[1]}"
    return ManualCommandFix(
        id="cuda-toolkit",
        title=msg("Install CUDA {cuda}", cuda=cuda),
        description=msg("Installs the CUDA {cuda} toolkit (compiler and libraries, no driver) "
                        "from NVIDIA's package repository ({reason}). Needs sudo: run the "
                        "commands yourself.", cuda=cuda, reason=reason),
        commands=commands,
    )


def _reason(facts: SystemFacts, version: FullVersion) -> Msg:
    torch = facts.torch_cuda
    if torch is not None and torch == (version[0], version[1]):
        return msg("matches PyTorch's CUDA {cuda}", cuda=vtext(torch))
    driver = facts.hardware.cuda_driver_version
    if driver is not None:
        return msg("your driver supports CUDA up to {cuda}", cuda=vtext(driver))
    return msg("the newest this wizard knows")


def _toolkit_line(t: ToolkitFacts, chosen: ToolkitFacts | None) -> Msg:
    tk = t.toolkit
    if tk.version is None:
        return msg("  • {root} ({origin}): nvcc did not answer: {error}", root=tk.root,
                   origin=tk.origin, error=tk.error)
    if chosen is not None and t is chosen:
        return msg("  • CUDA {version} at {root} ({origin}) ← the build uses this one",
                   version=tk.version.full_text, root=tk.root, origin=tk.origin)
    return msg("  • CUDA {version} at {root} ({origin})", version=tk.version.full_text,
               root=tk.root, origin=tk.origin)


def _fix_for(facts: SystemFacts, version: FullVersion | None) -> Fix | None:
    """The fix that installs ``version`` (None: no version fits, no fix)."""
    return install_fix(facts, version, _reason(facts, version)) if version else None


def _no_fit_hint() -> Msg:
    return msg("No CUDA version fits your driver, GPU and PyTorch together: update the "
               "NVIDIA driver first, or see {page}.", page=CUDA_DOWNLOADS_PAGE)


def check_cuda(facts: SystemFacts) -> CheckResult:
    """Check 2: the toolkit the build will use against PyTorch's CUDA, the driver and the GPUs.
    The worst finding leads (its text is the summary, its hint the hint), the others are
    listed in the details, and the fix is the most severe finding's."""
    chosen = chosen_toolkit(facts)
    suggestion = suggested_release(facts)
    findings = _findings(facts, chosen, suggestion)
    status = worst(*(f.status for f in findings))
    lead = next((f for f in findings if f.status is status), None)
    fix = next((f.fix for f in sorted(findings, key=lambda f: -f.status.severity) if f.fix),
               None)
    details = _details(facts, chosen, [f for f in findings if f is not lead],
                       suggestion if fix is not None else None)
    # Only kernels with GPU code need a CUDA toolkit: the probe builds its CPU part without
    # one, so what is missing here rules those kernels out instead of stopping every build.
    ruled_out = status.blocks
    return CheckResult(CheckId.CUDA, TITLE, scoped(status, True),
                       _summary(facts, chosen) if lead is None else lead.text,
                       join(details, "\n"), lead.hint if lead is not None else "", fix,
                       _payload(facts, chosen, suggestion),
                       facts.gpu_kernels if ruled_out else ())


def _findings(facts: SystemFacts, chosen: ToolkitFacts | None,
              suggestion: FullVersion | None) -> list[Finding]:
    """Whether a toolkit is installed and runs; then the chosen one's fit."""
    if not facts.toolkits:
        if gpu_build_expected(facts):
            return [Finding(CheckStatus.MISSING, N_("No CUDA toolkit is installed."),
                            _fix_for(facts, suggestion), "" if suggestion else _no_fit_hint())]
        return [Finding(
            CheckStatus.WARNING, N_("No CUDA toolkit is installed; without an NVIDIA GPU "
                                    "and a CUDA build of PyTorch only the CPU probe kernel "
                                    "can be built."),
            _fix_for(facts, suggestion))]
    if chosen is None:
        return [Finding(CheckStatus.BLOCKED, N_("CUDA toolkits were found, but none of "
                        "their nvcc compilers runs."), _fix_for(facts, suggestion),
                        N_("Reinstall the CUDA toolkit."))]
    release = chosen.toolkit.release
    assert release is not None
    return [*_torch_findings(facts, release, suggestion),
            *_driver_findings(facts, release),
            *_gpu_findings(facts, release, suggestion)]


def _torch_findings(facts: SystemFacts, release: tuple[int, int],
                    suggestion: FullVersion | None) -> list[Finding]:
    """The toolkit against PyTorch's CUDA: another major version blocks, a minor one warns."""
    torch = facts.torch_cuda
    if torch is not None and release[0] != torch[0]:
        return [Finding(
            CheckStatus.BLOCKED,
            msg("CUDA {cuda} does not match PyTorch's CUDA {torch}: PyTorch refuses to "
                "build extensions when the major versions differ.", cuda=vtext(release),
                torch=vtext(torch)),
            _fix_for(facts, suggestion) if suggestion and suggestion[0] == torch[0] else None,
            msg("Install CUDA {torch}, or a PyTorch built for CUDA {major}.",
                torch=vtext(torch), major=release[0]))]
    if torch is not None and release != torch:
        return [Finding(
            CheckStatus.WARNING,
            msg("CUDA {cuda} differs from PyTorch's CUDA {torch} in the minor version; "
                "PyTorch only warns about that, and builds normally work.",
                cuda=vtext(release), torch=vtext(torch)),
            _fix_for(facts, suggestion) if suggestion and suggestion[:2] == torch else None)]
    return []


def _driver_findings(facts: SystemFacts, release: tuple[int, int]) -> list[Finding]:
    """The toolkit against the driver: kernels built with a newer major CUDA do not run."""
    hw = facts.hardware
    driver = hw.cuda_driver_version
    if driver is None:
        return [Finding(
            CheckStatus.WARNING,
            N_("No NVIDIA driver answered, so whether it supports this CUDA is unknown; "
               "kernels can be built here but not run or verified."), None,
            hw.hint or N_("Install the NVIDIA driver to run kernels on this computer."))]
    if release[0] > driver[0]:
        need = DRIVER_FOR_CUDA_MAJOR.get(release[0]) or msg("a newer one")
        return [Finding(
            CheckStatus.BLOCKED,
            msg("The NVIDIA driver supports CUDA up to {driver}; kernels built with CUDA "
                "{cuda} would not run on it.", driver=vtext(driver), cuda=vtext(release)),
            None,
            msg("Update the NVIDIA driver (CUDA {major} needs driver {need} or newer).",
                major=release[0], need=need))]
    if release > driver:
        return [Finding(
            CheckStatus.WARNING,
            msg("The NVIDIA driver supports CUDA up to {driver}, older than CUDA {cuda}: "
                "kernels still run (minor version compatibility), but code compiled "
                "just-in-time from PTX would not.", driver=vtext(driver),
                cuda=vtext(release)), None,
            N_("Updating the NVIDIA driver removes this limit."))]
    return []


def _gpu_findings(facts: SystemFacts, release: tuple[int, int],
                  suggestion: FullVersion | None) -> list[Finding]:
    """The toolkit against the GPUs: it must know their architectures (every GPU it cannot
    compile for blocks, some of them warn)."""
    usable = facts.hardware.usable_gpus
    unsupported: list[Msg] = []
    unknown: list[Msg] = []
    for gpu in usable:
        assert gpu.compute_capability is not None
        ok, why = cc_support(release, gpu.compute_capability)
        if ok is False:
            unsupported.append(msg("{gpu} — {why}", gpu=gpu.label, why=why))
        elif ok is None:
            unknown.append(msg("{gpu} — {why}", gpu=gpu.label, why=why))
    findings: list[Finding] = []
    if unsupported:
        every = len(unsupported) == len(usable)
        which = join(unsupported, "; ")
        findings.append(Finding(
            CheckStatus.BLOCKED if every else CheckStatus.WARNING,
            msg("CUDA {cuda} cannot compile for your GPU: {which}.", cuda=vtext(release),
                which=which) if len(unsupported) == 1 and every else
            msg("CUDA {cuda} cannot compile for {count} of your GPUs: {which}.",
                cuda=vtext(release), count=len(unsupported), which=which),
            _fix_for(facts, suggestion) if suggestion and suggestion[:2] != release else None,
            "" if suggestion else _no_fit_hint()))
    if unknown:
        findings.append(Finding(CheckStatus.WARNING, msg("Not sure this CUDA supports "
                                "{which}.", which=join(unknown, "; ")), None,
                                N_("Use the newest CUDA toolkit if the build fails.")))
    return findings


def _summary(facts: SystemFacts, chosen: ToolkitFacts | None) -> Msg:
    """The summary when nothing was found wrong: which toolkit the build uses."""
    assert chosen is not None and chosen.toolkit.version is not None
    torch = facts.torch_cuda
    if torch is not None:
        return msg("CUDA {cuda} at {root} will be used, matching PyTorch's CUDA {torch}.",
                   cuda=chosen.toolkit.version.text, root=chosen.toolkit.root,
                   torch=vtext(torch))
    return msg("CUDA {cuda} at {root} works; builds use it once PyTorch here is a CUDA build.",
               cuda=chosen.toolkit.version.text, root=chosen.toolkit.root)


def _details(facts: SystemFacts, chosen: ToolkitFacts | None, others: list[Finding],
             suggestion: FullVersion | None) -> list[Msg | str]:
    """The details: every toolkit found, PyTorch's and the driver's CUDA, the GPUs, the
    findings other than the lead, the release a fix installs (``suggestion``: None when no
    fix is offered), and why the check matters."""
    torch, driver = facts.torch_cuda, facts.hardware.cuda_driver_version
    lines: list[Msg | str] = [N_("CUDA toolkits found:") if facts.toolkits
                              else N_("CUDA toolkits found: none")]
    lines += [_toolkit_line(t, chosen) for t in facts.toolkits]
    torch_text = vtext(torch) if torch else msg("none (no CUDA build of PyTorch)")
    lines.append(msg("PyTorch's CUDA: {torch}; the driver supports CUDA up to {driver}.",
                     torch=torch_text, driver=vtext(driver)) if driver else
                 msg("PyTorch's CUDA: {torch}; no NVIDIA driver answered, so the newest CUDA "
                     "it supports is unknown.", torch=torch_text))
    for gpu in facts.hardware.usable_gpus:
        assert gpu.compute_capability is not None
        lines.append(msg("{gpu}: {arch}, compute capability {cc}", gpu=gpu.label, arch=gpu.arch,
                         cc=vtext(gpu.compute_capability)))
    lines += [msg("• {finding}", finding=f.text) for f in others]
    if suggestion is not None:
        lines.append(msg("Best fit to install: CUDA {cuda} ({reason}).", cuda=vtext(suggestion),
                         reason=_reason(facts, suggestion)))
    lines.append(WHY)
    return lines


def _payload(facts: SystemFacts, chosen: ToolkitFacts | None,
             suggestion: FullVersion | None) -> dict[str, Any]:
    """The check's data for ``check --json``."""
    torch, driver = facts.torch_cuda, facts.hardware.cuda_driver_version
    return {
        "toolkits": [
            {"root": str(t.toolkit.root), "version": t.toolkit.version.full_text
             if t.toolkit.version else None, "origin": t.toolkit.origin,
             "chosen": t is chosen, "error": t.toolkit.error or None}
            for t in facts.toolkits
        ],
        "chosen": str(chosen.toolkit.root) if chosen else None,
        "chosen_version": vtext(chosen.toolkit.release) if chosen else None,
        "torch_cuda": vtext(torch) if torch else None,
        "driver_cuda": vtext(driver) if driver else None,
        "suggested_install": vtext(suggestion) if suggestion else None,
    }


__all__ = ["check_cuda", "chosen_toolkit", "gpu_build_expected", "install_fix",
           "suggested_release"]
