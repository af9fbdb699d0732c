"""Check 1: a C++ compiler — Visual Studio (Build Tools) with the x64 MSVC tools on Windows,
gcc and g++ on Linux."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..msvc import MsvcFacts, VsInstanceFacts, VsVerdict, instance_json, judge_instances
from ..toolchain import GccVersion
from .distro import gcc_install_commands
from .facts import CompilerVariable, GccFacts, SystemFacts
from .fixes import ManualCommandFix, VsBuildToolsFix
from .model import CheckId, CheckResult, CheckStatus

TITLE = "C++ compiler"
WHY_MSVC = ("Why it matters: PyTorch builds C++/CUDA extensions with Microsoft's C++ compiler "
            "(cl.exe), and nvcc uses it for the host code. It comes with Visual Studio or the "
            "free Visual Studio Build Tools.")
WHY_GCC = ("Why it matters: PyTorch builds C++/CUDA extensions with g++, and nvcc uses gcc "
           "for the host code.")


def _instance_line(i: VsInstanceFacts) -> str:
    toolsets = ", ".join(
        t.text + (" (default)" if t.version == i.default_toolset else "") for t in i.toolsets
    ) or "no MSVC toolset"
    return f"{i.instance.label} at {i.instance.installation_path}: {toolsets}"


def _check_msvc(msvc: MsvcFacts) -> CheckResult:
    verdict = judge_instances(msvc)
    facts: dict[str, Any] = {
        "vswhere": str(msvc.vswhere) if msvc.vswhere else None,
        "instances": [instance_json(i, True, "") for i in verdict.usable]
        + [instance_json(i, False, why) for i, why in verdict.rejected],
        "windows_sdks": list(msvc.windows_sdks),
        "error": msvc.error or None,
    }
    lines: list[str] = []
    if msvc.vswhere is None:
        lines.append("The Visual Studio Installer (vswhere.exe) is not installed, so there is "
                     "no Visual Studio on this computer.")
    else:
        lines.append(f"Asked vswhere ({msvc.vswhere}) for Visual Studio with the x64 C++ tools:")
        lines += [f"  • {_instance_line(i)}" for i in verdict.usable]
        lines += [f"  • {i.instance.label} at {i.instance.installation_path} can't be used: "
                  f"{why}" for i, why in verdict.rejected]
        if not msvc.instances and not msvc.error:
            lines.append("  (none found)")
    if msvc.error:
        lines.append(f"vswhere did not give a usable answer: {msvc.error}")
    if msvc.encoding not in ("utf-8", "ascii"):
        lines.append(f"(vswhere answered in the {msvc.encoding} code page although it was asked "
                     "for UTF-8; the wizard read it in that code page.)")
    for i in verdict.usable:
        lines += [f"  • MSVC {u.toolset.text} in {i.instance.label} is not used: {u.reason}."
                  for u in i.unusable_toolsets]
    sdks = ", ".join(msvc.windows_sdks) or "none found"
    lines.append(f"Windows SDK: {sdks} (needed for windows.h and the system libraries).")
    lines.append(WHY_MSVC)
    detail = "\n".join(lines)
    install = VsBuildToolsFix()

    def result(status: CheckStatus, summary: str, hint: str = "",
               fix: VsBuildToolsFix | None = None) -> CheckResult:
        return CheckResult(CheckId.COMPILER, TITLE, status, summary, detail, hint, fix, facts)

    if verdict.usable:
        best = verdict.usable[0]
        newest = best.toolsets[0]
        summary = (f"{best.instance.label} is installed, with the x64 C++ compiler "
                   f"(MSVC {newest.version[0]}.{newest.version[1]}).")
        if not msvc.windows_sdks:
            return result(CheckStatus.MISSING, "The Windows SDK is missing, so C++ programs "
                          "cannot be linked.", "Install the Build Tools' recommended parts "
                          "(they include the Windows SDK).", install)
        if verdict.rejected:
            summary += " Another installation can't be used (see details)."
        return result(CheckStatus.OK, summary)
    if verdict.rejected:
        first_reason = verdict.rejected[0][1]
        if any(i.instance.is_reboot_required for i, _ in verdict.rejected):
            return result(CheckStatus.BLOCKED, "Visual Studio is installed but Windows must "
                          "restart to finish installing it.",
                          "Restart the computer, then run the wizard again.")
        return result(CheckStatus.BLOCKED, "Visual Studio is installed but cannot be used: "
                      + first_reason.split(". ")[0] + ".",
                      "Open the Visual Studio Installer and repair it, or let the wizard "
                      "install the Build Tools.", install)
    if msvc.error:
        return result(CheckStatus.BLOCKED, "The Visual Studio Installer did not answer "
                      "properly, so no compiler could be found.",
                      "Update or repair the Visual Studio Installer; installing the Build Tools "
                      "also updates it.", install)
    return result(CheckStatus.MISSING, "No C++ compiler: Visual Studio Build Tools are not "
                  "installed.", "The Build Tools are free; the Fix button installs them.",
                  install)


def _variable_missing(variable: CompilerVariable, role: str, result: CheckResult,
                      windows: bool = False) -> CheckResult:
    """``CC``/``CXX`` names no program: the build would fail at its first compile."""
    return CheckResult(
        CheckId.COMPILER, TITLE, CheckStatus.BLOCKED,
        f"The {variable.name} variable is set to {variable.value}, but no such program "
        f"exists: the build uses the {role} {variable.name} names, so it would fail.",
        f"{variable.text}: {variable.first_word} was not found.\n{result.detail}",
        (f"Remove the {variable.name} environment variable (Settings → System → About → "
         "Advanced system settings → Environment Variables) or point it to an installed "
         f"{role}, then start the wizard again." if windows else
         f"Unset {variable.name} (in a terminal: unset {variable.name}) or point it to an "
         f"installed {role}, then start the wizard again from that terminal."),
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
             variable: CompilerVariable | None) -> str:
        origin = f" (from {variable.text}: the build uses it)" if variable else ""
        if path is None:
            return f"{name}: {variable.text} names no program" if variable else \
                f"{name}: not found on PATH"
        return f"{name}: {path}{origin} ({version.text if version else 'version unknown'})"

    lines = [line("gcc", gcc.gcc, gcc.gcc_version, gcc.gcc_variable),
             line("g++", gcc.gxx, gcc.gxx_version, gcc.gxx_variable)]
    if gcc.error:
        lines.append(gcc.error)
    lines.append(WHY_GCC)
    detail = "\n".join(lines)
    commands = gcc_install_commands(gcc.distro)
    fix = ManualCommandFix(
        id="gcc", title="Install gcc and g++",
        description="Installs the GNU C and C++ compilers with the system package manager "
        "(needs sudo; run the command yourself).",
        commands=commands,
    ) if commands else None
    hint = "" if commands else "Install gcc and g++ with your distribution's package manager."
    for variable, found, role in ((gcc.gxx_variable, gcc.gxx, "C++ compiler"),
                                  (gcc.gcc_variable, gcc.gcc, "C compiler")):
        if variable is not None and found is None:
            return _variable_missing(variable, role, CheckResult(
                CheckId.COMPILER, TITLE, CheckStatus.BLOCKED, "", detail, "", None, facts))
    if gcc.gcc is None or gcc.gxx is None:
        missing = " and ".join(n for n, p in (("gcc", gcc.gcc), ("g++", gcc.gxx)) if p is None)
        return CheckResult(CheckId.COMPILER, TITLE, CheckStatus.MISSING,
                           f"No C++ compiler: {missing} is not installed.", detail, hint, fix,
                           facts)
    if gcc.gcc_version is None or gcc.gxx_version is None:
        return CheckResult(CheckId.COMPILER, TITLE, CheckStatus.WARNING,
                           "gcc/g++ are there but did not report a gcc version (is it clang?).",
                           detail, "nvcc checks the compiler itself when the build starts.",
                           None, facts)
    same = gcc.gcc_version == gcc.gxx_version
    summary = (f"gcc and g++ {gcc.gcc_version.text} are installed." if same else
               f"gcc {gcc.gcc_version.text} and g++ {gcc.gxx_version.text} are installed.")
    chosen = [v.text for v in (gcc.gcc_variable, gcc.gxx_variable) if v is not None]
    if chosen:
        summary = summary.removesuffix(".") + f"; the build uses {' and '.join(chosen)}."
    return CheckResult(CheckId.COMPILER, TITLE, CheckStatus.OK, summary, detail, "", None, facts)


def _msvc_variables(result: CheckResult, variables: tuple[CompilerVariable, ...],
                    ) -> CheckResult:
    """Windows: ``CXX``/``CC`` replace the Visual Studio cl.exe the wizard chose."""
    for variable in variables:
        if variable.program is None and variable.is_path:
            role = "C++ compiler" if variable.name == "CXX" else "C compiler"
            return _variable_missing(variable, role, result, windows=True)
    notes = [v for v in variables
             if v.first_word.lower().removesuffix(".exe") != "cl"]  # "cl" is what it chooses
    if not notes or result.blocks:
        return result
    names = " and ".join(v.text for v in notes)
    outside = "not on PATH outside the Visual Studio environment"
    where = "; ".join(f"{v.name}: {v.program or outside}" for v in notes)
    return CheckResult(
        CheckId.COMPILER, TITLE, CheckStatus.WARNING,
        f"{names} is set: the build uses it instead of the Visual Studio compiler (cl.exe) "
        "the wizard chose.", f"{where}\n{result.detail}",
        f"Unset {' and '.join(v.name for v in notes)} to build with cl.exe (the tested way).",
        result.fix, result.facts)


def check_compiler(facts: SystemFacts) -> CheckResult:
    if isinstance(facts.compiler, MsvcFacts):
        return _msvc_variables(_check_msvc(facts.compiler), facts.compiler_variables)
    return _check_gcc(facts.compiler)


__all__ = ["VsVerdict", "check_compiler", "judge_instances"]  # re-exported from ..msvc
