"""How many compile jobs × nvcc threads this machine can run: the one rule, from cores and RAM.

It sits low in the core because two layers ask it: the resources check (prerequisites: "this PC
can run N compile jobs") and the build plan (:mod:`.plan`, which sets MAX_JOBS/NVCC_THREADS).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
    limit = "RAM" if jobs_by_ram < jobs_by_cores else "CPU cores"
    reason = (
        f"{jobs} parallel compile job{'s' if jobs != 1 else ''} × {threads} nvcc "
        f"thread{'s' if threads != 1 else ''}: limited by {limit} ({cores} cores, "
        f"{ram_gb:.1f} GB RAM available, ~{gb_per_thread:g} GB per compile thread)"
    )
    return Parallelism(jobs=jobs, nvcc_threads=threads, reason=reason)
