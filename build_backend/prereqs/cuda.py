"""Check 2: the CUDA toolkit — every toolkit found, the one the build will use, and whether it
fits PyTorch's CUDA, the driver and the GPUs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..toolkits import choose_toolkit
from .distro import CUDA_DOWNLOADS_PAGE, cuda_install_commands
from .facts import GccFacts, SystemFacts, ToolkitFacts
from .fixes import CudaToolkitFix, ManualCommandFix
from .model import CheckId, CheckResult, CheckStatus, Fix, scoped, worst
from .versions import (
    DRIVER_FOR_CUDA_MAJOR,
    FullVersion,
    cc_support,
    pick_cuda_release,
    vtext,
)

TITLE = "CUDA toolkit"
WHY = ("Why it matters: nvcc, the CUDA compiler, turns the kernels into GPU code. Its major "
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
    """The toolkit the build will use (:func:`build_backend.toolkits.choose_toolkit`)."""
    picked = choose_toolkit([t.toolkit for t in facts.toolkits], facts.torch_cuda)
    if picked is None:
        return None
    return next(t for t in facts.toolkits if t.toolkit is picked)


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
    return ManualCommandFix(
        id="cuda-toolkit",
        title=f"Install CUDA {version[0]}.{version[1]}",
        description=f"Installs the CUDA {version[0]}.{version[1]} toolkit (compiler and "
        f"libraries, no driver) from NVIDIA's package repository ({reason}). Needs sudo: run "
        "the commands yourself.",
        commands=commands,
    )


def _reason(facts: SystemFacts, version: FullVersion) -> str:
    torch = facts.torch_cuda
    if torch is not None and torch == (version[0], version[1]):
        return f"matches PyTorch's CUDA {vtext(torch)}"
    driver = facts.hardware.cuda_driver_version
    if driver is not None:
        return f"your driver supports CUDA up to {vtext(driver)}"
    return "the newest this wizard knows"


def _toolkit_line(t: ToolkitFacts, chosen: ToolkitFacts | None) -> str:
    tk = t.toolkit
    mark = " ← the build uses this one" if chosen is not None and t is chosen else ""
    if tk.version is None:
        return f"  • {tk.root} ({tk.origin}): nvcc did not answer: {tk.error}"
    return f"  • CUDA {tk.version.full_text} at {tk.root} ({tk.origin}){mark}"


def check_cuda(facts: SystemFacts) -> CheckResult:
    torch = facts.torch_cuda
    hw = facts.hardware
    driver = hw.cuda_driver_version
    chosen = chosen_toolkit(facts)
    suggestion = suggested_release(facts)
    findings: list[Finding] = []

    def fix_for(version: FullVersion | None) -> Fix | None:
        return install_fix(facts, version, _reason(facts, version)) if version else None

    no_fit_hint = ("No CUDA version fits your driver, GPU and PyTorch together: update the "
                   f"NVIDIA driver first, or see {CUDA_DOWNLOADS_PAGE}.")

    if not facts.toolkits:
        if gpu_build_expected(facts):
            findings.append(Finding(CheckStatus.MISSING, "No CUDA toolkit is installed.",
                                    fix_for(suggestion), "" if suggestion else no_fit_hint))
        else:
            findings.append(Finding(
                CheckStatus.WARNING, "No CUDA toolkit is installed; without an NVIDIA GPU and a "
                "CUDA build of PyTorch only the CPU probe kernel can be built.",
                fix_for(suggestion)))
    elif chosen is None:
        findings.append(Finding(CheckStatus.BLOCKED, "CUDA toolkits were found, but none of "
                                "their nvcc compilers runs.", fix_for(suggestion),
                                "Reinstall the CUDA toolkit."))
    else:
        release = chosen.toolkit.release
        assert release is not None
        if torch is not None and release[0] != torch[0]:
            findings.append(Finding(
                CheckStatus.BLOCKED,
                f"CUDA {vtext(release)} does not match PyTorch's CUDA {vtext(torch)}: PyTorch "
                "refuses to build extensions when the major versions differ.",
                fix_for(suggestion) if suggestion and suggestion[0] == torch[0] else None,
                f"Install CUDA {vtext(torch)}, or a PyTorch built for CUDA {release[0]}."))
        elif torch is not None and release != torch:
            findings.append(Finding(
                CheckStatus.WARNING,
                f"CUDA {vtext(release)} differs from PyTorch's CUDA {vtext(torch)} in the minor "
                "version; PyTorch only warns about that, and builds normally work.",
                fix_for(suggestion) if suggestion and suggestion[:2] == torch else None))
        if driver is not None and release[0] > driver[0]:
            need = DRIVER_FOR_CUDA_MAJOR.get(release[0], "a newer one")
            findings.append(Finding(
                CheckStatus.BLOCKED,
                f"The NVIDIA driver supports CUDA up to {vtext(driver)}; kernels built with "
                f"CUDA {vtext(release)} would not run on it.", None,
                f"Update the NVIDIA driver (CUDA {release[0]} needs driver {need} or newer)."))
        elif driver is not None and release > driver:
            findings.append(Finding(
                CheckStatus.WARNING,
                f"The NVIDIA driver supports CUDA up to {vtext(driver)}, older than CUDA "
                f"{vtext(release)}: kernels still run (minor version compatibility), but "
                "code compiled just-in-time from PTX would not.", None,
                "Updating the NVIDIA driver removes this limit."))
        elif driver is None:
            findings.append(Finding(
                CheckStatus.WARNING,
                "No NVIDIA driver answered, so whether it supports this CUDA is unknown; "
                "kernels can be built here but not run or verified.", None,
                hw.hint or "Install the NVIDIA driver to run kernels on this computer."))
        unsupported: list[str] = []
        unknown: list[str] = []
        for gpu in hw.usable_gpus:
            assert gpu.compute_capability is not None
            ok, why = cc_support(release, gpu.compute_capability)
            if ok is False:
                unsupported.append(f"{gpu.label} — {why}")
            elif ok is None:
                unknown.append(f"{gpu.label} — {why}")
        if unsupported:
            every = len(unsupported) == len(hw.usable_gpus)
            findings.append(Finding(
                CheckStatus.BLOCKED if every else CheckStatus.WARNING,
                f"CUDA {vtext(release)} cannot compile for "
                + ("your GPU" if len(unsupported) == 1 and every else
                   f"{len(unsupported)} of your GPUs") + ": " + "; ".join(unsupported) + ".",
                fix_for(suggestion) if suggestion and suggestion[:2] != release else None,
                "" if suggestion else no_fit_hint))
        if unknown:
            findings.append(Finding(CheckStatus.WARNING, "Not sure this CUDA supports "
                                    + "; ".join(unknown) + ".", None,
                                    "Use the newest CUDA toolkit if the build fails."))

    status = worst(*(f.status for f in findings))
    lead = next((f for f in findings if f.status is status), None)
    if lead is None:
        assert chosen is not None and chosen.toolkit.version is not None
        summary = f"CUDA {chosen.toolkit.version.text} at {chosen.toolkit.root} will be used"
        summary += (f", matching PyTorch's CUDA {vtext(torch)}." if torch is not None else ".")
    else:
        summary = lead.text
    fix = next((f.fix for f in sorted(findings, key=lambda f: -f.status.severity) if f.fix),
               None)
    hint = lead.hint if lead is not None else ""

    lines = ["CUDA toolkits found:" if facts.toolkits else "CUDA toolkits found: none"]
    lines += [_toolkit_line(t, chosen) for t in facts.toolkits]
    lines.append(f"PyTorch's CUDA: {vtext(torch) if torch else 'none (no CUDA build of PyTorch)'}"
                 "; the driver supports CUDA up to "
                 + (f"{vtext(driver)}." if driver else "? (no NVIDIA driver answered)."))
    for gpu in hw.usable_gpus:
        assert gpu.compute_capability is not None
        lines.append(f"{gpu.label}: {gpu.arch}, compute capability "
                     f"{vtext(gpu.compute_capability)}")
    lines += [f"• {f.text}" for f in findings if f is not lead]
    if suggestion is not None and fix is not None:
        lines.append(f"Best fit to install: CUDA {vtext(suggestion)} ({_reason(facts, suggestion)}"
                     ").")
    lines.append(WHY)
    payload: dict[str, Any] = {
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
    # Only kernels with GPU code need a CUDA toolkit: the probe builds its CPU part without
    # one, so what is missing here rules those kernels out instead of stopping every build.
    ruled_out = status.blocks
    return CheckResult(CheckId.CUDA, TITLE, scoped(status, True), summary, "\n".join(lines),
                       hint, fix, payload, facts.gpu_kernels if ruled_out else ())


__all__ = ["check_cuda", "chosen_toolkit", "gpu_build_expected", "install_fix",
           "suggested_release"]
