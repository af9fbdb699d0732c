"""Check 4: long paths (Windows). Source trees such as CUTLASS and the build's object files
go deeper than 260 characters; without LongPathsEnabled, git's core.longpaths and a short
build folder, builds fail with 'Filename too long' or C1083. Not applicable on Linux."""

from __future__ import annotations

from typing import Any

from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.prereqs.facts import SystemFacts
from kernel_wizard.prereqs.fixes import GitLongPathsFix, LongPathsFix
from kernel_wizard.prereqs.model import CheckId, CheckResult, CheckStatus, Fix, scoped, worst

TITLE = N_("Long paths")
MAX_BUILD_ROOT_CHARS = 60  # leaves ~200 characters for the deepest paths inside a build
WHY = N_("Why it matters: kernel sources (CUTLASS) and the build's intermediate files have "
         "paths longer than Windows' classic 260-character limit; without long paths the build "
         "stops with 'Filename too long' or 'C1083: Cannot open include file'.")


def check_long_paths(facts: SystemFacts) -> CheckResult:
    lp = facts.long_paths
    git = facts.git
    root_len = len(str(facts.build_root))
    payload: dict[str, Any] = {
        "applicable": lp.applicable,
        "long_paths_enabled": lp.enabled,
        "restart_pending": lp.restart_pending,
        "git": str(git.executable) if git.executable else None,
        "git_core_longpaths": git.core_longpaths,
        "build_root": str(facts.build_root),
        "build_root_length": root_len,
    }
    if not lp.applicable:
        return CheckResult(CheckId.LONG_PATHS, TITLE, CheckStatus.OK,
                           N_("Not needed here: this system has no 260-character path limit."),
                           msg("Build folder: {folder} ({length} characters).",
                               folder=facts.build_root, length=root_len), "",
                           None, payload)

    git_fix = (GitLongPathsFix(git.executable)
               if git.executable is not None and git.core_longpaths is not True else None)
    python = facts.env.executable if facts.env is not None else None
    findings: list[tuple[CheckStatus, Msg | str, Fix | None, Msg | str]] = []
    lines: list[Msg | str] = []
    value: Msg | str = msg("not set") if lp.enabled is None else str(lp.enabled)
    key = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem"
    lines.append(msg("LongPathsEnabled ({key}): {value} (could not be read: {error})", key=key,
                     value=value, error=lp.error) if lp.error else
                 msg("LongPathsEnabled ({key}): {value}", key=key, value=value))
    if lp.enabled != 1:
        status = CheckStatus.WARNING if lp.error else CheckStatus.MISSING
        findings.append((status, N_("Windows long paths are off, so deep source folders and "
                         "build files fail ('Filename too long')."),
                         LongPathsFix(python=python, git_fix=git_fix),
                         N_("Turning them on needs administrator rights once, then a "
                            "restart.")))
    elif lp.restart_pending:
        findings.append((CheckStatus.WARNING, N_("Long paths are on, but Windows has not "
                         "restarted since, so programs do not see it yet."), None,
                         N_("Restart Windows; the wizard opens again and continues here.")))
    if git.executable is None:
        lines.append(N_("git: not installed (sources are downloaded as archives instead)."))
    else:
        state = {True: "true", False: "false", None: msg("not set")}[git.core_longpaths]
        lines.append(msg("git ({git}): core.longpaths = {state}", git=git.executable,
                         state=state))
        if git.core_longpaths is not True:
            findings.append((CheckStatus.WARNING, N_("git's core.longpaths is off, so cloning "
                             "sources with deep folders can fail."), git_fix, ""))
    lines.append(msg("Build folder: {folder} ({length} characters; keep it under {most}).",
                     folder=facts.build_root, length=root_len, most=MAX_BUILD_ROOT_CHARS))
    if root_len > MAX_BUILD_ROOT_CHARS:
        findings.append((CheckStatus.WARNING, msg("The build folder's path is long ({length} "
                         "characters); even with long paths on, the compiler can fail on "
                         "deep files.", length=root_len), None,
                         N_("Choose a short build folder such as C:\\ksw.")))
    lines.append(WHY)
    status = worst(*(f[0] for f in findings))
    if not findings:
        return CheckResult(CheckId.LONG_PATHS, TITLE, CheckStatus.OK,
                           N_("Long paths are on for Windows and git. The build folder path is "
                              "short.") if git.executable else
                           N_("Long paths are on in Windows. The build folder path is short."),
                           join(lines, "\n"), "", None, payload)
    lead = next(f for f in findings if f[0] is status)
    fix = lead[2] or next((f[2] for f in findings if f[2] is not None), None)
    others = [msg("• {finding}", finding=f[1]) for f in findings if f is not lead]
    detail = join(lines[:-1] + others + lines[-1:], "\n")
    # the deep source trees are the big kernels'; the probe builds in the short build folder
    return CheckResult(CheckId.LONG_PATHS, TITLE, scoped(status, True), lead[1], detail,
                       lead[3], fix, payload, facts.gpu_kernels if status.blocks else ())


__all__ = ["MAX_BUILD_ROOT_CHARS", "check_long_paths"]
