"""Check 1: a C++ compiler — Visual Studio (Build Tools) with the x64 MSVC tools on Windows,
gcc and g++ on Linux."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.machine.msvc import (
    MsvcFacts,
    VsInstanceFacts,
    VsVerdict,
    instance_json,
    judge_instances,
)
from kernel_wizard.machine.toolchain import GccVersion
from kernel_wizard.prereqs.distro import gcc_install_commands
from kernel_wizard.prereqs.facts import CompilerVariable, GccFacts, SystemFacts
from kernel_wizard.prereqs.fixes import ManualCommandFix, VsBuildToolsFix
from kernel_wizard.prereqs.model import CheckId, CheckResult, CheckStatus

TITLE = N_("C++ compiler")
WHY_MSVC = N_("Why it matters: PyTorch builds C++/CUDA extensions with Microsoft's C++ compiler "
              "(cl.exe), and nvcc uses it for the host code. It comes with Visual Studio or the "
              "free Visual Studio Build Tools.")
WHY_GCC = N_("Why it matters: PyTorch builds C++/CUDA extensions with g++, and nvcc uses gcc "
             "for the host code.")
C_COMPILER = N_("C compiler")


def _instance_line(i: VsInstanceFacts) -> Msg:
    toolsets: Msg | str = join(
        [msg("{toolset} (default)", toolset=t.text) if t.version == i.default_toolset
         else t.text for t in i.toolsets], ", ") if i.toolsets else msg("no MSVC toolset")
    return msg("  • {name} at {path}: {toolsets}", name=i.instance.label,
               path=i.instance.installation_path, toolsets=toolsets)


def _check_msvc(msvc: MsvcFacts) -> CheckResult:
    verdict = judge_instances(msvc)
    facts: dict[str, Any] = {
        "vswhere": str(msvc.vswhere) if msvc.vswhere else None,
        "instances": [instance_json(i, True, "") for i in verdict.usable]
        + [instance_json(i, False, why) for i, why in verdict.rejected],
        "windows_sdks": list(msvc.windows_sdks),
        "error": msvc.error or None,
    }
    lines: list[Msg | str] = []
    if msvc.vswhere is None:
        lines.append(N_("The Visual Studio Installer (vswhere.exe) is not installed, so there "
                        "is no Visual Studio on this computer."))
    else:
        lines.append(msg("Asked vswhere ({vswhere}) for Visual Studio with the x64 C++ tools:",
                         vswhere=msvc.vswhere))
        lines += [_instance_line(i) for i in verdict.usable]
        lines += [msg("  • {name} at {path} can't be used: {why}", name=i.instance.label,
                      path=i.instance.installation_path, why=why)
                  for i, why in verdict.rejected]
        if not msvc.instances and not msvc.error:
            lines.append(N_("  (none found)"))
    if msvc.error:
        lines.append(msg("vswhere did not give a usable answer: {error}", error=msvc.error))
    if msvc.encoding not in ("utf-8", "ascii"):
        lines.append(msg("(vswhere answered in the {encoding} code page although it was asked "
                         "for UTF-8; the wizard read it in that code page.)",
                         encoding=msvc.encoding))
    for i in verdict.usable:
        lines += [msg("  • MSVC {toolset} in {name} is not used: {reason}.",
                      toolset=u.toolset.text, name=i.instance.label, reason=u.reason)
                  for u in i.unusable_toolsets]
    sdks = ", ".join(msvc.windows_sdks) or msg("none found")
    lines.append(msg("Windows SDK: {sdks} (needed for windows.h and the system libraries).",
                     sdks=sdks))
    lines.append(WHY_MSVC)
    detail = join(lines, "\n")
    install = VsBuildToolsFix()

    def result(status: CheckStatus, summary: str, hint: str = "",
               fix: VsBuildToolsFix | None = None) -> CheckResult:
        return CheckResult(CheckId.COMPILER, TITLE, status, summary, detail, hint, fix, facts)

    if verdict.usable:
        best = verdict.usable[0]
        newest = best.toolsets[0]
        summary = msg("{name} is installed, with the x64 C++ compiler (MSVC {version}).",
                      name=best.instance.label,
                      version=f"{newest.version[0]}.{newest.version[1]}")
        if not msvc.windows_sdks:
            return result(CheckStatus.MISSING, N_("The Windows SDK is missing, so C++ programs "
                          "cannot be linked."), N_("Install the Build Tools' recommended parts "
                          "(they include the Windows SDK)."), install)
        if verdict.rejected:
            summary = join([summary, N_("Another installation can't be used (see details).")])
        return result(CheckStatus.OK, summary)
    if verdict.rejected:
        first_reason = verdict.rejected[0][1]
        if any(i.instance.is_reboot_required for i, _ in verdict.rejected):
            return result(CheckStatus.BLOCKED, N_("Visual Studio is installed but Windows must "
                          "restart to finish installing it."),
                          N_("Restart the computer, then run the wizard again."))
        return result(CheckStatus.BLOCKED, msg("Visual Studio is installed but cannot be used: "
                      "{why}.", why=first_reason.split(". ")[0]),
                      N_("Open the Visual Studio Installer and repair it, or let the wizard "
                      "install the Build Tools."), install)
    if msvc.error:
        return result(CheckStatus.BLOCKED, N_("The Visual Studio Installer did not answer "
                      "properly, so no compiler could be found."),
                      N_("Update or repair the Visual Studio Installer; installing the Build "
                      "Tools also updates it."), install)
    return result(CheckStatus.MISSING, N_("No C++ compiler: Visual Studio Build Tools are not "
                  "installed."), N_("The Build Tools are free; the Fix button installs them."),
                  install)


def _variable_missing(variable: CompilerVariable, role: str, result: CheckResult,
                      windows: bool = False) -> CheckResult:
    """``CC``/``CXX`` names no program: the build would fail at its first compile."""
    what = Msg(role)
    return CheckResult(
        CheckId.COMPILER, TITLE, CheckStatus.BLOCKED,
        msg("The {name} variable is set to {value}, but no such program exists: the build "
            "uses the {role} {name} names, so it would fail.", name=variable.name,
            value=variable.value, role=what),
        join([msg("{variable}: {program} was not found.", variable=variable.text,
                  program=variable.first_word), result.detail], "\n"),
        (msg("Remove the {name} environment variable (Settings → System → About → "
             "Advanced system settings → Environment Variables) or point it to an installed "
             "{role}, then start the wizard again.", name=variable.name, role=what) if windows
         else msg("Unset {name} (in a terminal: unset {name}) or point it to an installed "
                  "{role}, then start the wizard again from that terminal.",
                  name=variable.name, role=what)),
        None, {**result.facts, "variable": {"name": variable.name, "value": variable.value,
                                            "program": None}})


def _check_gcc(gcc: GccFacts) -> CheckResult:
    facts: dict[str, Any] = {
        "gcc": str(gcc.gcc) if gcc.gcc else None,
        "gcc_version": gcc.gcc_version.text if gcc.gcc_version else None,
        "gxx": str(gcc.gxx) if gcc.gxx else None,
        "gxx_version": gcc.gxx_version.text if gcc.gxx_version else None,
        "distro": gcc.distro.pretty_name if gcc.distro else None,
        "error": gcc.error or None,
    }
    def line(name: str, path: Path | None, version: GccVersion | None,
             variable: CompilerVariable | None) -> Msg:
        if path is None:
            return msg("{name}: {variable} names no program", name=name,
                       variable=variable.text) if variable else \
                msg("{name}: not found on PATH", name=name)
        shown: Msg | str = version.text if version else msg("version unknown")
        if variable:
            return msg("{name}: {path} (from {variable}: the build uses it) ({version})",
                       name=name, path=path, variable=variable.text, version=shown)
        return msg("{name}: {path} ({version})", name=name, path=path, version=shown)

    lines: list[Msg | str] = [line("gcc", gcc.gcc, gcc.gcc_version, gcc.gcc_variable),
                              line("g++", gcc.gxx, gcc.gxx_version, gcc.gxx_variable)]
    if gcc.error:
        lines.append(gcc.error)
    lines.append(WHY_GCC)
    detail = join(lines, "\n")
    commands = gcc_install_commands(gcc.distro)
    fix = ManualCommandFix(
        id="gcc", title=N_("Install gcc and g++"),
        description=N_("Installs the GNU C and C++ compilers with the system package manager "
                       "(needs sudo; run the command yourself)."),
        commands=commands,
    ) if commands else None
    hint = "" if commands else N_("Install gcc and g++ with your distribution's package "
                                  "manager.")
    for variable, found, role in ((gcc.gxx_variable, gcc.gxx, TITLE),
                                  (gcc.gcc_variable, gcc.gcc, C_COMPILER)):
        if variable is not None and found is None:
            return _variable_missing(variable, role, CheckResult(
                CheckId.COMPILER, TITLE, CheckStatus.BLOCKED, "", detail, "", None, facts))
    if gcc.gcc is None or gcc.gxx is None:
        missing = [n for n, p in (("gcc", gcc.gcc), ("g++", gcc.gxx)) if p is None]
        summary = (msg("No C++ compiler: {program} is not installed.", program=missing[0])
                   if len(missing) == 1 else
                   N_("No C++ compiler: gcc and g++ is not installed."))
        return CheckResult(CheckId.COMPILER, TITLE, CheckStatus.MISSING, summary, detail, hint,
                           fix, facts)
    if gcc.gcc_version is None or gcc.gxx_version is None:
        return CheckResult(CheckId.COMPILER, TITLE, CheckStatus.WARNING,
                           N_("gcc/g++ are there but did not report a gcc version (is it "
                              "clang?)."),
                           detail, N_("nvcc checks the compiler itself when the build starts."),
                           None, facts)
    same = gcc.gcc_version == gcc.gxx_version
    chosen = " and ".join(v.text for v in (gcc.gcc_variable, gcc.gxx_variable) if v is not None)
    if same and chosen:
        summary = msg("gcc and g++ {version} are installed; the build uses {chosen}.",
                      version=gcc.gcc_version.text, chosen=chosen)
    elif same:
        summary = msg("gcc and g++ {version} are installed.", version=gcc.gcc_version.text)
    elif chosen:
        summary = msg("gcc {gcc} and g++ {gxx} are installed; the build uses {chosen}.",
                      gcc=gcc.gcc_version.text, gxx=gcc.gxx_version.text, chosen=chosen)
    else:
        summary = msg("gcc {gcc} and g++ {gxx} are installed.", gcc=gcc.gcc_version.text,
                      gxx=gcc.gxx_version.text)
    return CheckResult(CheckId.COMPILER, TITLE, CheckStatus.OK, summary, detail, "", None, facts)


def _msvc_variables(result: CheckResult, variables: tuple[CompilerVariable, ...],
                    ) -> CheckResult:
    """Windows: ``CXX``/``CC`` replace the Visual Studio cl.exe the wizard chose."""
    for variable in variables:
        if variable.program is None and variable.is_path:
            role = TITLE if variable.name == "CXX" else C_COMPILER
            return _variable_missing(variable, role, result, windows=True)
    notes = [v for v in variables
             if v.first_word.lower().removesuffix(".exe") != "cl"]  # "cl" is what it chooses
    if not notes or result.blocks:
        return result
    names = " and ".join(v.text for v in notes)
    outside = N_("not on PATH outside the Visual Studio environment")
    where = join([msg("{name}: {program}", name=v.name, program=v.program or Msg(outside))
                  for v in notes], "; ")
    return CheckResult(
        CheckId.COMPILER, TITLE, CheckStatus.WARNING,
        msg("{names} is set: the build uses it instead of the Visual Studio compiler (cl.exe) "
            "the wizard chose.", names=names), join([where, result.detail], "\n"),
        msg("Unset {names} to build with cl.exe (the tested way).",
            names=" and ".join(v.name for v in notes)),
        result.fix, result.facts)


def check_compiler(facts: SystemFacts) -> CheckResult:
    if isinstance(facts.compiler, MsvcFacts):
        return _msvc_variables(_check_msvc(facts.compiler), facts.compiler_variables)
    return _check_gcc(facts.compiler)


__all__ = ["VsVerdict", "check_compiler", "judge_instances"]  # re-exported from ..msvc
