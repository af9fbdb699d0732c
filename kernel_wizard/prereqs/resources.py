"""Check 6: disk and memory — free space on the build drive, and the parallelism the RAM and
cores allow (decided by :func:`base.parallelism.choose_parallelism`, the one place that
sets MAX_JOBS and NVCC_THREADS)."""

from __future__ import annotations

from typing import Any

from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.base.parallelism import choose_parallelism
from kernel_wizard.machine.hardware import existing_folder, format_bytes
from kernel_wizard.prereqs.facts import SystemFacts
from kernel_wizard.prereqs.model import CheckId, CheckResult, CheckStatus, scoped, worst

TITLE = N_("Disk space and memory")
GIB = 1024**3
DISK_MIN_GIB = 10  # below this a FlashAttention build (sources, objects, wheel) runs out
DISK_PROBE_GIB = 1  # below this even the probe (a few hundred MB at most) may not fit
DISK_WARN_GIB = 25
RAM_WARN_GIB = 8
HEAVY_GB_PER_THREAD = 5.0  # FlashAttention's peak per nvcc thread (failures.md #8)
HEAVY_NVCC_THREADS = 4
WHY = msg("Why it matters: a kernel build needs several GB for sources and object files, and "
          "each compile thread of the heaviest kernels needs about {gb} GB of memory; too many "
          "at once and the build is killed for lack of memory.", gb=f"{HEAVY_GB_PER_THREAD:g}")


def check_resources(facts: SystemFacts) -> CheckResult:
    host = facts.hardware.host
    plan = choose_parallelism(host.cpu_logical, host.ram_available, HEAVY_GB_PER_THREAD,
                              HEAVY_NVCC_THREADS)
    payload: dict[str, Any] = {
        "build_root": str(facts.build_root),
        "disk_free_bytes": host.disk_free,
        "ram_total_bytes": host.ram_total,
        "ram_available_bytes": host.ram_available,
        "cpu_logical": host.cpu_logical,
        "parallelism": {"jobs": plan.jobs, "nvcc_threads": plan.nvcc_threads,
                        "reason": plan.reason, "gb_per_thread": HEAVY_GB_PER_THREAD},
    }
    # (status, text, hint, only the big GPU kernels need it)
    findings: list[tuple[CheckStatus, Msg | str, Msg | str, bool]] = []
    disk = host.disk_free
    elsewhere = N_("Free some space, or choose a build folder on another drive.")
    if disk is None:
        findings.append((CheckStatus.WARNING, msg("The free space at {folder} could not be "
                         "read.", folder=facts.build_root),
                         N_("Make sure the build drive has 25 GB free."), False))
    elif disk < DISK_PROBE_GIB * GIB:
        findings.append((CheckStatus.BLOCKED, msg("Only {free} free on the build drive: not "
                         "even the small probe kernel fits.", free=format_bytes(disk)),
                         elsewhere, False))
    elif disk < DISK_MIN_GIB * GIB:
        findings.append((CheckStatus.BLOCKED, msg("Only {free} free on the build drive; the big "
                         "kernels need at least {least} GB to build.", free=format_bytes(disk),
                         least=DISK_MIN_GIB), elsewhere, True))
    elif disk < DISK_WARN_GIB * GIB:
        findings.append((CheckStatus.WARNING, msg("{free} free on the build drive: enough for "
                         "small kernels, tight for FlashAttention (~{recommended} GB "
                         "recommended).", free=format_bytes(disk), recommended=DISK_WARN_GIB),
                         N_("Free some space if a big build fails."), False))
    if host.ram_total < RAM_WARN_GIB * GIB:
        findings.append((CheckStatus.WARNING, msg("{ram} of memory: big kernels build one file "
                         "at a time and may still run out of memory.",
                         ram=format_bytes(host.ram_total)),
                         N_("Close other programs while building."), False))
    ruled_out = any(f[0].blocks and f[3] for f in findings)
    findings = [(scoped(f[0], f[3]), f[1], f[2], f[3]) for f in findings]
    values = dict(disk=format_bytes(disk), folder=existing_folder(facts.build_root),
                  ram=format_bytes(host.ram_available))
    summary = (msg("{disk} free for builds (in {folder}) and {ram} of memory: enough to compile "
                   "one file at a time for the biggest kernels.", **values) if plan.jobs == 1
               else msg("{disk} free for builds (in {folder}) and {ram} of memory: enough to "
                        "compile {jobs} files at a time for the biggest kernels.", jobs=plan.jobs,
                        **values))
    lines: list[Msg | str] = [
        msg("Build folder: {folder} ({free} free on its drive)", folder=facts.build_root,
            free=format_bytes(disk)),
        msg("Memory: {available} available of {total}; {cores} logical CPU cores",
            available=format_bytes(host.ram_available), total=format_bytes(host.ram_total),
            cores=host.cpu_logical),
        msg("Parallelism for FlashAttention-sized builds: {reason}. Lighter kernels run more "
            "jobs at once.", reason=plan.reason),
    ]
    status = worst(*(f[0] for f in findings))
    lead = next((f for f in findings if f[0] is status), None)
    if ruled_out and not status.blocks:  # lead with what rules the big kernels out
        lead = next(f for f in findings if f[3])
    lines += [msg("• {finding}", finding=f[1]) for f in findings if f is not lead]
    lines.append(WHY)
    return CheckResult(CheckId.RESOURCES, TITLE, status, lead[1] if lead else summary,
                       join(lines, "\n"), lead[2] if lead else "", None, payload,
                       facts.gpu_kernels if ruled_out else ())


__all__ = ["check_resources"]
