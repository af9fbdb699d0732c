"""Check 6: disk and memory — free space on the build drive, and the parallelism the RAM and
cores allow (decided by :func:`build_backend.parallelism.choose_parallelism`, the one place that
sets MAX_JOBS and NVCC_THREADS)."""

from __future__ import annotations

from typing import Any

from ..hardware import existing_folder, format_bytes
from ..parallelism import choose_parallelism
from .facts import SystemFacts
from .model import CheckId, CheckResult, CheckStatus, scoped, worst

TITLE = "Disk space and memory"
GIB = 1024**3
DISK_MIN_GIB = 10  # below this a FlashAttention build (sources, objects, wheel) runs out
DISK_PROBE_GIB = 1  # below this even the probe (a few hundred MB at most) may not fit
DISK_WARN_GIB = 25
RAM_WARN_GIB = 8
HEAVY_GB_PER_THREAD = 5.0  # FlashAttention's peak per nvcc thread (failures.md #8)
HEAVY_NVCC_THREADS = 4
WHY = ("Why it matters: a kernel build needs several GB for sources and object files, and "
       f"each compile thread of the heaviest kernels needs about {HEAVY_GB_PER_THREAD:g} GB of "
       "memory; too many at once and the build is killed for lack of memory.")


SUMMARY = ("{disk} free for builds (in {folder}) and {ram} of memory: enough to compile {jobs} "
           "at a time for the biggest kernels.")


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
    findings: list[tuple[CheckStatus, str, str, bool]] = []
    disk = host.disk_free
    if disk is None:
        findings.append((CheckStatus.WARNING, f"The free space at {facts.build_root} could not "
                         "be read.", "Make sure the build drive has 25 GB free.", False))
    elif disk < DISK_PROBE_GIB * GIB:
        findings.append((CheckStatus.BLOCKED, f"Only {format_bytes(disk)} free on the build "
                         "drive: not even the small probe kernel fits.",
                         "Free some space, or choose a build folder on another drive.", False))
    elif disk < DISK_MIN_GIB * GIB:
        findings.append((CheckStatus.BLOCKED, f"Only {format_bytes(disk)} free on the build "
                         f"drive; the big kernels need at least {DISK_MIN_GIB} GB to build.",
                         "Free some space, or choose a build folder on another drive.", True))
    elif disk < DISK_WARN_GIB * GIB:
        findings.append((CheckStatus.WARNING, f"{format_bytes(disk)} free on the build drive: "
                         f"enough for small kernels, tight for FlashAttention (~{DISK_WARN_GIB} GB "
                         "recommended).", "Free some space if a big build fails.", False))
    if host.ram_total < RAM_WARN_GIB * GIB:
        findings.append((CheckStatus.WARNING, f"{format_bytes(host.ram_total)} of memory: big "
                         "kernels build one file at a time and may still run out of memory.",
                         "Close other programs while building.", False))
    ruled_out = any(f[0].blocks and f[3] for f in findings)
    findings = [(scoped(f[0], f[3]), f[1], f[2], f[3]) for f in findings]
    jobs = "one file" if plan.jobs == 1 else f"{plan.jobs} files"
    summary = SUMMARY.format(disk=format_bytes(disk), folder=existing_folder(facts.build_root),
                             ram=format_bytes(host.ram_available), jobs=jobs)
    lines = [
        f"Build folder: {facts.build_root} ({format_bytes(disk)} free on its drive)",
        f"Memory: {format_bytes(host.ram_available)} available of {format_bytes(host.ram_total)}"
        f"; {host.cpu_logical} logical CPU cores",
        f"Parallelism for FlashAttention-sized builds: {plan.reason}. Lighter kernels run more "
        "jobs at once.",
    ]
    status = worst(*(f[0] for f in findings))
    lead = next((f for f in findings if f[0] is status), None)
    if ruled_out and not status.blocks:  # lead with what rules the big kernels out
        lead = next(f for f in findings if f[3])
    lines += [f"• {f[1]}" for f in findings if f is not lead]
    lines.append(WHY)
    return CheckResult(CheckId.RESOURCES, TITLE, status, lead[1] if lead else summary,
                       "\n".join(lines), lead[2] if lead else "", None, payload,
                       facts.gpu_kernels if ruled_out else ())


__all__ = ["check_resources"]
