"""What the user's own builds took: per kernel, version, architectures and machine.

After every successful build the runner stores how long each compiled unit took (from
ninja's ``.ninja_log``), how long pip and setup.py took before the first unit
(``setup_seconds``) and link + wheel after the last one (``tail_seconds``). The next build
of the same kernel on the same machine is estimated from that record instead of the recipe's
cost model (:func:`prior_from_record`), and its ETA knows each unit by name — including the
one slow unit that bounds a FlashMLA build.

The store is one JSON file in the wizard's data folder (``buildtimes.json``), written
atomically (a temporary file, then :func:`os.replace`; to be unified with the state module's
atomic writer). A damaged or unreadable file is treated as empty: an estimate is never worth
failing a build for.
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.oserrors import write_text_atomic
from kernel_wizard.base.paths import data_dir
from kernel_wizard.build.eta import Prior, PriorSource, UnitTime, history_compile_seconds, plan_run

SCHEMA = "ksw.buildtimes/1"
KEEP_PER_KEY = 3  # the newest records of each kernel/version/archs/machine
KEEP_ALL = 60


@dataclass(frozen=True)
class Machine:
    """This computer as far as build times go: the same CPU, core count, RAM and OS."""

    id: str  # a short hash of the description
    description: str


@lru_cache(maxsize=1)
def this_machine() -> Machine:
    import psutil  # lazily: not needed before the first page (start-up time)

    cores = psutil.cpu_count(logical=True) or 1
    ram_gb = round(psutil.virtual_memory().total / 1024**3)
    description = (f"{_cpu_model()}, {cores} cores, {ram_gb} GB RAM, "
                   f"{platform.system()} {platform.machine()}")
    return Machine(hashlib.sha256(description.encode()).hexdigest()[:12], description)


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


@dataclass(frozen=True)
class BuildRecord:
    kernel: str
    version: str
    archs: tuple[str, ...]
    machine: str  # Machine.id
    jobs: int
    nvcc_threads: int
    total_seconds: float
    setup_seconds: float
    tail_seconds: float
    units: tuple[tuple[str, float], ...]  # (name, seconds) in the order they started
    when: str = ""  # ISO time
    machine_description: str = ""
    # several torch extensions, one ninja run each: how many of ``units`` each run compiled,
    # in order (``units`` run by run); () one run
    runs: tuple[int, ...] = ()
    # the CPU seconds the build's compilers received from ninja's start to the last unit's
    # end (sampled by the runner; 0: not measured, an older record or Windows): the compile's
    # work on this machine, whatever its load was then
    compile_cpu_seconds: float = 0.0

    def run_units(self) -> list[tuple[tuple[str, float], ...]]:
        """``units`` run by run (one run when the record does not say)."""
        if len(self.runs) < 2 or sum(self.runs) != len(self.units):
            return [self.units]
        out, at = [], 0
        for count in self.runs:
            out.append(self.units[at:at + count])
            at += count
        return out

    @property
    def key(self) -> tuple[str, str, tuple[str, ...], str]:
        return (self.kernel, self.version, self.archs, self.machine)

    @property
    def compile_seconds(self) -> float:
        return max(0.0, self.total_seconds - self.setup_seconds - self.tail_seconds)

    def to_json(self) -> dict[str, Any]:
        return {
            "kernel": self.kernel, "version": self.version, "archs": list(self.archs),
            "machine": self.machine, "machine_description": self.machine_description,
            "jobs": self.jobs, "nvcc_threads": self.nvcc_threads, "when": self.when,
            "total_seconds": round(self.total_seconds, 2),
            "setup_seconds": round(self.setup_seconds, 2),
            "tail_seconds": round(self.tail_seconds, 2),
            "units": [[name, round(seconds, 3)] for name, seconds in self.units],
            **({"runs": list(self.runs)} if len(self.runs) > 1 else {}),
            **({"compile_cpu_seconds": round(self.compile_cpu_seconds, 2)}
               if self.compile_cpu_seconds > 0 else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BuildRecord:
        return cls(
            kernel=str(data["kernel"]), version=str(data["version"]),
            archs=tuple(str(a) for a in data.get("archs", ())),
            machine=str(data["machine"]), jobs=int(data["jobs"]),
            nvcc_threads=int(data.get("nvcc_threads", 1)),
            total_seconds=float(data["total_seconds"]),
            setup_seconds=float(data.get("setup_seconds", 0.0)),
            tail_seconds=float(data.get("tail_seconds", 0.0)),
            units=tuple((str(n), float(s)) for n, s in data.get("units", ())),
            when=str(data.get("when", "")),
            machine_description=str(data.get("machine_description", "")),
            runs=tuple(int(n) for n in data.get("runs", ())),
            compile_cpu_seconds=float(data.get("compile_cpu_seconds", 0.0)),
        )


def record_version(label: str, variant: str = "") -> str:
    """The version key of a record: a build variant is a different build ("3.0.0 (compact)")."""
    return f"{label} ({variant})" if variant else label


def make_record(*, kernel: str, version: str, archs: Sequence[str], jobs: int,
                nvcc_threads: int, total_seconds: float, ninja_started: float,
                units: Sequence[UnitTime], machine: Machine | None = None,
                runs: Sequence[tuple[float, Sequence[UnitTime]]] = (),
                compile_cpu_seconds: float = 0.0) -> BuildRecord:
    """A record of a finished build: ``ninja_started`` in seconds after the build started,
    ``units`` as ninja logged them (seconds since ninja started). A build of several torch
    extensions: ``runs``, each ninja run's start (seconds after the build started) and units
    (seconds since that run's ninja started), in order; ``units`` is then not read.
    ``compile_cpu_seconds``: the CPU seconds the compile received (0: not measured)."""
    where = machine if machine is not None else this_machine()
    if len(runs) < 2:
        runs = [(ninja_started, units)]
    ordered = [sorted(run, key=lambda u: (u.start, u.end)) for _, run in runs]
    last_start, last_run = runs[-1]
    last_end = last_start + max((u.end for u in last_run), default=0.0)
    return BuildRecord(
        kernel=kernel, version=version, archs=tuple(archs), machine=where.id, jobs=jobs,
        nvcc_threads=nvcc_threads, total_seconds=total_seconds,
        setup_seconds=max(0.0, runs[0][0]),
        tail_seconds=max(0.0, total_seconds - last_end),
        units=tuple((u.name, u.seconds) for run in ordered for u in run),
        when=datetime.now().isoformat(timespec="seconds"),
        machine_description=where.description,
        runs=tuple(len(run) for run in ordered) if len(ordered) > 1 else (),
        compile_cpu_seconds=max(0.0, compile_cpu_seconds),
    )


def prior_from_record(record: BuildRecord, jobs: int) -> Prior:
    """The expected build, from the user's own last build of it here (``jobs``: this build's
    parallel compile jobs; with other jobs than last time the units are rescheduled)."""
    costs = record.units
    per_run = record.run_units()
    run_plan = tuple(plan_run(run, jobs) for run in per_run) if costs else ()
    if jobs == record.jobs or not costs:
        compile_s = record.compile_seconds
    elif len(run_plan) > 1:
        compile_s = sum(r.seconds for r in run_plan)
    else:
        compile_s = history_compile_seconds(costs, jobs)
    mean = sum(c for _, c in costs) / len(costs) if costs else compile_s
    return Prior(
        total_seconds=record.setup_seconds + compile_s + record.tail_seconds,
        jobs=jobs,
        unit_seconds=mean,
        units=len(costs) or None,
        setup_seconds=record.setup_seconds,
        tail_seconds=record.tail_seconds,
        longest_unit_seconds=max((c for _, c in costs), default=0.0),
        unit_costs=costs,
        source=PriorSource.HISTORY,
        runs=max(1, len(run_plan)),
        run_plan=run_plan,
        compile_core_seconds=record.compile_cpu_seconds,
    )


# -- the store ----------------------------------------------------------------------------------


def history_file() -> Path:
    return data_dir(create=False) / "buildtimes.json"


def load_records(path: Path | None = None) -> list[BuildRecord]:
    """Every record, oldest first; [] when there is no file or it cannot be read."""
    file = path if path is not None else history_file()
    try:
        data = read_json_file(file)
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return []
    records = []
    for item in data.get("records", ()):
        try:
            records.append(BuildRecord.from_json(item))
        except (KeyError, TypeError, ValueError):
            continue  # one damaged record does not cost the others
    return records


def find_record(kernel: str, version: str, archs: Sequence[str],
                records: Sequence[BuildRecord] | None = None,
                machine: Machine | None = None) -> BuildRecord | None:
    """The newest record of this kernel version, built for these archs on this machine."""
    where = machine if machine is not None else this_machine()
    key = (kernel, version, tuple(archs), where.id)
    found = [r for r in (records if records is not None else load_records()) if r.key == key]
    return found[-1] if found else None


def save_record(record: BuildRecord, path: Path | None = None) -> Path:
    """Add ``record`` (keeping the newest few of its key) and write the file atomically.
    Raises OSError when the data folder cannot be written (the caller says so and goes on)."""
    file = path if path is not None else history_file()
    records = [r for r in load_records(file)]
    records.append(record)
    same = [r for r in records if r.key == record.key]
    drop = {id(r) for r in same[:-KEEP_PER_KEY]}
    records = [r for r in records if id(r) not in drop][-KEEP_ALL:]
    document = {"schema": SCHEMA, "records": [r.to_json() for r in records]}
    file.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(file, json.dumps(document, indent=1) + "\n")
    return file


__all__ = [
    "BuildRecord", "Machine", "find_record", "history_file", "load_records", "make_record",
    "prior_from_record", "save_record", "this_machine",
]
