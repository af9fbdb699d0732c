"""Check 3: does the chosen CUDA toolkit accept the installed host compiler?

The bounds come from the toolkit's own ``include/crt/host_config.h`` (what nvcc enforces). On
Windows the newest accepted MSVC toolset of the usable Visual Studio instances is picked —
e.g. 14.44 from VS 2022 when VS 2026's 14.50 is installed too and CUDA 12.x rejects it — and
the build pins it with ``vcvarsall -vcvars_ver``. CUDA 13 keeps its CCCL headers in
``include/cccl``, which the build adds to the host compiler's include path.
"""

from __future__ import annotations

from typing import Any

from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.machine.msvc import MsvcChoice, MsvcFacts, choose_msvc, judge_instances
from kernel_wizard.machine.toolchain import (
    CompilerBound,
    describe_msvc_bound,
    gcc_supported,
)
from kernel_wizard.prereqs.cuda import chosen_toolkit, gpu_build_expected
from kernel_wizard.prereqs.facts import GccFacts, SystemFacts, ToolkitFacts
from kernel_wizard.prereqs.fixes import VsBuildToolsFix
from kernel_wizard.prereqs.model import CheckId, CheckResult, CheckStatus, Fix, scoped
from kernel_wizard.prereqs.versions import vtext

TITLE = N_("Compiler and CUDA fit together")
WHY = N_("Why it matters: each CUDA version accepts only certain compiler versions "
         "(include/crt/host_config.h); a newer compiler stops the build with "
         "'unsupported Microsoft Visual Studio version' or 'unsupported GNU version'.")


def describe_gcc_bound(bound: CompilerBound | None) -> Msg:
    if bound is None:
        return msg("any gcc version (this CUDA does not check)")
    parts: list[Msg] = []
    if bound.minimum is not None:
        parts.append(msg("gcc {version} or newer", version=vtext(bound.minimum)))
    if bound.maximum is not None:
        last = bound.maximum[0] - 1 if len(bound.maximum) == 1 else None
        parts.append(msg("gcc {version} or older", version=last) if last is not None
                     else msg("gcc older than {version}", version=vtext(bound.maximum)))
    if len(parts) == 2:
        return msg("{lowest} and {highest}", lowest=parts[0], highest=parts[1])
    return parts[0] if parts else msg("any gcc version")


def _cccl_note(facts: SystemFacts, tk: ToolkitFacts) -> tuple[Msg | str, bool]:
    """(text, ok) about CUDA 13's include/cccl folder; ('', True) before CUDA 13."""
    release = tk.toolkit.release
    if release is None or release < (13, 0):
        return "", True
    if tk.cccl_include is None:
        return msg("CUDA {cuda} should have its C++ library headers in {folder}, but that "
                   "folder is missing: builds will fail with 'cuda/std/...: No such file'. "
                   "Reinstall the toolkit.", cuda=vtext(release),
                   folder=tk.toolkit.root / "include" / "cccl"), False
    return msg("CUDA {cuda} keeps its C++ library headers (cuda/std/…) in {folder}; the build "
               "adds that folder to {variable} so the host compiler finds them too.",
               cuda=vtext(release), folder=tk.cccl_include,
               variable=facts.host_include_var), True


def check_compat(facts: SystemFacts) -> CheckResult:
    tk = chosen_toolkit(facts)
    payload: dict[str, Any] = {"cuda": None, "bounds": None, "compiler": None}

    def result(status: CheckStatus, summary: str, detail: str, hint: str = "",
               fix: Fix | None = None, waiting: bool = False) -> CheckResult:
        # only CUDA builds pair the compiler with nvcc: a misfit rules out the GPU kernels
        # (``waiting``: nothing to pair yet; the toolkit or compiler row says what is missing)
        rules_out = status.blocks and not waiting
        return CheckResult(CheckId.COMPAT, TITLE, scoped(status, True), summary,
                           join([detail, WHY], "\n"), hint, fix, payload,
                           facts.gpu_kernels if rules_out else ())

    if tk is None:
        if gpu_build_expected(facts):
            return result(CheckStatus.MISSING, N_("Can't be checked until a CUDA toolkit is "
                          "installed."), N_("See the CUDA toolkit row."),
                          N_("Install the CUDA toolkit first (CUDA toolkit row)."), waiting=True)
        return result(CheckStatus.OK, N_("Not needed: no CUDA toolkit and no GPU, so only the "
                      "CPU probe kernel can be built."), N_("Nothing to check."))
    release = tk.toolkit.release
    assert release is not None
    cuda = vtext(release)
    payload["cuda"] = {"root": str(tk.toolkit.root), "version": cuda,
                       "cccl_include": str(tk.cccl_include) if tk.cccl_include else None}
    lines: list[Msg | str] = [msg("CUDA {cuda} at {root}.", cuda=cuda, root=tk.toolkit.root)]
    if tk.bounds is None:
        lines.append(msg("Its host_config.h could not be read: {error}",
                         error=tk.bounds_error))
    cccl_text, cccl_ok = _cccl_note(facts, tk)

    if isinstance(facts.compiler, MsvcFacts):
        accepted = describe_msvc_bound(tk.bounds.msvc if tk.bounds else None)
        payload["bounds"] = {"msvc": accepted}
        lines.append(msg("CUDA {cuda} accepts {accepted}.", cuda=cuda, accepted=accepted))
        usable = judge_instances(facts.compiler).usable
        if not usable:
            return result(CheckStatus.MISSING, N_("Can't be checked until a C++ compiler is "
                          "installed."), join(lines, "\n"), N_("Install the C++ compiler first "
                          "(C++ compiler row)."), waiting=True)
        pick = choose_msvc(usable, tk.bounds)
        installed = sorted({t for i in usable for t in i.toolsets}, key=lambda t: t.version,
                           reverse=True)
        lines.append(msg("Installed MSVC toolsets: {toolsets}.",
                         toolsets=", ".join(t.label for t in installed)))
        if pick is None:
            newest_ok = tk.bounds is None or tk.bounds.msvc is None or \
                tk.bounds.msvc.accepts((1944,))
            fix: Fix | None = VsBuildToolsFix() if newest_ok else None
            hint = (N_("Install Visual Studio Build Tools 2022 (its MSVC 14.44 fits), or a "
                       "newer CUDA toolkit.") if newest_ok else
                    msg("Install a newer CUDA toolkit, or add an MSVC toolset in {accepted} "
                        "with the Visual Studio Installer ('Individual components').",
                        accepted=accepted))
            payload["compiler"] = None
            return result(CheckStatus.BLOCKED, msg("No installed MSVC version is accepted by "
                          "CUDA {cuda}.", cuda=cuda), join(lines, "\n"), hint, fix)
        payload["compiler"] = {
            "instance": str(pick.instance.instance.installation_path),
            "toolset": pick.toolset.text,
            "msc_ver": pick.toolset.msc_ver,
            "vcvarsall": str(pick.vcvarsall),
            "vcvars_ver": pick.vcvars_ver,
            "skipped": sorted({t.text for t, _ in pick.skipped_elsewhere}
                              | {t.text for t in pick.choice.skipped_newer}, reverse=True),
        }
        lines.append(pick.explain(cuda))
        skipped = sorted({t.text for t, _ in pick.skipped_elsewhere}
                         | {t.text for t in pick.choice.skipped_newer}, reverse=True)
        summary: Msg = (
            msg("MSVC {toolset} fits CUDA {cuda} and will be used. The newer MSVC {skipped} "
                "(also installed) is skipped: CUDA {cuda} rejects it.",
                toolset=pick.toolset.text, cuda=cuda, skipped=", ".join(skipped)) if skipped
            else msg("MSVC {toolset} fits CUDA {cuda} and will be used.",
                     toolset=pick.toolset.text, cuda=cuda))
        if tk.bounds is not None and tk.bounds.msvc_deprecated is not None:
            lo, hi = tk.bounds.msvc_deprecated
            if lo <= pick.toolset.msc_ver < hi:
                lines.append(msg("nvcc will warn that this MSVC is deprecated for CUDA {cuda}.",
                                 cuda=cuda))
    else:
        gcc = facts.compiler
        assert isinstance(gcc, GccFacts)
        bound = tk.bounds.gcc if tk.bounds else None
        accepted = describe_gcc_bound(bound)
        payload["bounds"] = {"gcc": accepted}
        lines.append(msg("CUDA {cuda} accepts {accepted}.", cuda=cuda, accepted=accepted))
        version = gcc.gxx_version or gcc.gcc_version
        if version is None:
            return result(CheckStatus.MISSING, N_("Can't be checked until gcc/g++ is "
                          "installed."), join(lines, "\n"),
                          N_("Install the C++ compiler first (C++ compiler row)."), waiting=True)
        payload["compiler"] = {"gcc": version.text}
        if tk.bounds is not None and not gcc_supported(tk.bounds, version.major, version.minor):
            return result(CheckStatus.BLOCKED, msg("gcc {version} is not accepted by CUDA "
                          "{cuda}, which accepts {accepted}.", version=version.text, cuda=cuda,
                          accepted=accepted), join(lines, "\n"),
                          N_("Install a gcc version CUDA accepts (e.g. 'sudo apt-get install "
                          "g++-<N>') and make it the default, or install a newer CUDA "
                          "toolkit."))
        summary = msg("gcc {version} fits CUDA {cuda} ({accepted}).", version=version.text,
                      cuda=cuda, accepted=accepted)
    if cccl_text:
        lines.append(cccl_text)
    if not cccl_ok:
        return result(CheckStatus.WARNING, N_("CUDA's include/cccl folder is missing: builds of "
                      "some kernels will fail."), join(lines, "\n"),
                      N_("Reinstall the CUDA toolkit."))
    if tk.bounds is None:
        return result(CheckStatus.WARNING, msg("CUDA {cuda}'s compiler limits could not be "
                      "read; nvcc checks the compiler itself when the build starts.", cuda=cuda),
                      join(lines, "\n"))
    return result(CheckStatus.OK, summary, join(lines, "\n"))


__all__ = ["MsvcChoice", "check_compat", "choose_msvc", "describe_gcc_bound"]
