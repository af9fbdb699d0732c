"""How many compile jobs × nvcc threads this machine can run: the one rule, from cores and RAM.

It sits low in the core because two layers ask it: the resources check (prerequisites: "this PC
can run N compile jobs") and the build plan (:mod:`.plan`, which sets MAX_JOBS/NVCC_THREADS).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kernel_wizard.base.messages import msg

GIB = 1024**3


@dataclass(frozen=True)
class Parallelism:
    """How many compile jobs run at once, and how many threads each nvcc uses."""

    jobs: int
    nvcc_threads: int
    reason: str  # one line: which limit decided it


RAM_HEADROOM = 0.85  # leave 15 % of the available RAM to the system and the linker


def choose_parallelism(
    cpu_cores: int,
    ram_available_bytes: int,
    gb_per_thread: float,
    max_nvcc_threads: int = 1,
) -> Parallelism:
    """Compile jobs × nvcc threads, from cores and the RAM each compile thread needs.

    Every compile thread (an nvcc ``--threads`` worker, or a host compiler job) needs about
    ``gb_per_thread`` GB at its peak (the recipe says how much: ~5 GB for FlashAttention).
    Rules, in order:

    1. threads per job: ``max_nvcc_threads`` (the recipe's), but no more than the cores;
    2. the total of jobs × threads may use at most 85 % of the available RAM;
    3. jobs × threads should not exceed the logical cores (more only queues work);
    4. at least one job with one thread, however little RAM there is (it may still fail;
       the out-of-memory diagnosis then says so).
    """
    cores = max(1, cpu_cores)
    threads = max(1, min(max_nvcc_threads, cores))
    ram_gb = ram_available_bytes / GIB
    ram_threads = max(1, math.floor(ram_gb * RAM_HEADROOM / max(gb_per_thread, 0.1)))
    if ram_threads < threads:
        threads = ram_threads
    jobs_by_cores = max(1, cores // threads)
    jobs_by_ram = max(1, ram_threads // threads)
    jobs = min(jobs_by_cores, jobs_by_ram)
    reason = msg(
        "{jobs} × {threads}: limited by {limit} ({cores} cores, {ram_gb:.1f} GB RAM available, "
        "~{gb:g} GB per compile thread)", jobs=jobs_text(jobs), threads=threads_text(threads),
        limit=limit_text(jobs_by_ram < jobs_by_cores), cores=cores, ram_gb=ram_gb,
        gb=gb_per_thread)
    return Parallelism(jobs=jobs, nvcc_threads=threads, reason=reason)


def jobs_text(jobs: int) -> str:
    """'1 parallel compile job', '8 parallel compile jobs'."""
    if jobs == 1:
        return msg("{count} parallel compile job", count=jobs)
    return msg("{count} parallel compile jobs", count=jobs)


def threads_text(threads: int) -> str:
    """'1 nvcc thread', '4 nvcc threads'."""
    if threads == 1:
        return msg("{count} nvcc thread", count=threads)
    return msg("{count} nvcc threads", count=threads)


def limit_text(by_ram: bool) -> str:
    """What limits the parallelism: "RAM" or "CPU cores"."""
    return msg("RAM") if by_ram else msg("CPU cores")
