"""Record a real build for the ETA benchmark: every output line with its arrival time, and
ninja's own ``.ninja_log`` (every unit's start and end) of every extension it compiled.

    python benchmarks/record_build.py [--build-dir DIR]... OUT_PREFIX SOURCE_DIR -- COMMAND...

writes

* ``OUT_PREFIX.tlog``: lines "<seconds since start, 3 decimals>\\t<line>", every 5 s the
  machine's load average "<seconds>\\t[load <1-minute load average>]", every second (Linux)
  the CPU seconds the command's process tree has received so far, its compilers included
  "<seconds>\\t[cpu <CPU seconds>]" (``kernel_wizard/machine/platforms/proc_cpu.py``, what
  the wizard's runner samples for the ETA), then "<seconds>\\t[exit <code>]";
* ``OUT_PREFIX.ninja_log``: every ``.ninja_log`` found after the command ended under
  ``SOURCE_DIR/build``, under each ``--build-dir`` and anywhere under the copy the wizard built
  in (its output names it: "building in a fresh copy of the source: PATH"; FlashAttention 3
  builds in its ``hopper/build``), in the order their ninja
  runs began (the ``build.ninja`` beside each), each with its own ``# ninja log`` header (a
  setup.py that builds several extensions in folders of their own, SageAttention's four, has
  one log each);
* ``OUT_PREFIX.toml``: what this machine is (cores, memory, load average before and after,
  CPU, GPUs) and the command. ``benchmarks/eta_accuracy.py --recording OUT_PREFIX`` scores it;
  the kernel, version, archs and jobs it reads from the wizard's own output (``build
  --verbose`` prints the plan).

Standard library only, so that it runs on a bare GPU machine. The command runs in SOURCE_DIR
with this process's environment. Run the wizard with a fresh ``KSW_BUILD_ROOT`` (a reused
build copy compiles nothing) and ``KSW_DATA_DIR`` (no earlier build of it: the recipe's
estimate, as for a first build).
"""

from __future__ import annotations

import importlib.util
import os
import platform
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

LOAD_EVERY = 5.0  # seconds between two looks at the load average
CPU_EVERY = 1.0  # seconds between two looks at the CPU time of the command's process tree
PROC_CPU = Path(__file__).resolve().parent.parent / "kernel_wizard" / "machine" / "platforms" \
    / "proc_cpu.py"

_COPY = re.compile(r"building in (?:a fresh copy of the source: )?(.+?)(?: \(the original folder"
                   r"|, the copy of an earlier build)")


def _load() -> float | None:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def _tree_cpu() -> Callable[[int], float | None] | None:
    """The wizard's reader of a process tree's CPU time, loaded by its path (standard library
    only, no package imports: this script runs on bare machines); None where there is no
    ``/proc`` (not Linux)."""
    if not Path("/proc/self/stat").exists():
        return None
    spec = importlib.util.spec_from_file_location("ksw_proc_cpu", PROC_CPU)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    reader: Callable[[int], float | None] = module.tree_cpu_seconds
    return reader


def _meminfo() -> dict[str, float]:
    found: dict[str, float] = {}
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key in ("MemTotal", "MemAvailable"):
                    found[key] = int(value.split()[0]) / 1024 / 1024  # kB → GiB
    except OSError:
        pass
    return found


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _gpus() -> list[str]:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def ninja_logs(folders: list[Path]) -> list[Path]:
    """Every ``.ninja_log`` under these build folders, in the order their runs began."""
    found: set[Path] = set()
    for folder in folders:
        if folder.is_dir():
            found.update(folder.rglob(".ninja_log"))

    def began(log: Path) -> float:
        script = log.with_name("build.ninja")
        try:
            return script.stat().st_mtime if script.exists() else log.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(found, key=lambda p: (began(p), str(p)))


def _toml_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(round(value, 2)) if isinstance(value, float) else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_text(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def main(argv: list[str]) -> int:
    extra: list[Path] = []
    while argv[:1] == ["--build-dir"] and len(argv) > 1:
        extra.append(Path(argv[1]))
        argv = argv[2:]
    if "--" not in argv or argv.index("--") != 2:
        print(__doc__)
        return 2
    prefix, source = Path(argv[0]), Path(argv[1])
    command = argv[3:]
    prefix.parent.mkdir(parents=True, exist_ok=True)
    load_before = _load()
    memory = _meminfo()
    copies: list[Path] = []
    started = time.monotonic()
    lock = threading.Lock()
    done = threading.Event()
    with open(f"{prefix}.tlog", "w", encoding="utf-8") as out:

        def write(text: str) -> None:
            with lock:
                out.write(f"{time.monotonic() - started:.3f}\t{text}\n")
                out.flush()

        def sample_load() -> None:
            while True:
                load = _load()
                if load is not None:
                    write(f"[load {load:.2f}]")
                if done.wait(LOAD_EVERY):
                    return

        sampler = threading.Thread(target=sample_load, daemon=True)
        sampler.start()
        proc = subprocess.Popen(command, cwd=source, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        tree_cpu = _tree_cpu()
        cpu_last: list[float] = [0.0]

        def sample_cpu() -> None:
            assert tree_cpu is not None
            while True:
                used = tree_cpu(proc.pid)
                if used is not None:  # never backwards (a reaped child is counted late)
                    cpu_last[0] = max(cpu_last[0], used)
                    write(f"[cpu {cpu_last[0]:.2f}]")
                if done.wait(CPU_EVERY):
                    return

        cpu_sampler = threading.Thread(target=sample_cpu, daemon=True)
        if tree_cpu is not None:
            cpu_sampler.start()
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            write(line)
            if (m := _COPY.search(line)) is not None:
                copies.append(Path(m.group(1).strip()))
        code = proc.wait()
        done.set()
        sampler.join()
        if cpu_sampler.is_alive():
            cpu_sampler.join()
        write(f"[exit {code}]")
    took = time.monotonic() - started
    # the whole build copy: a package may build in a folder of its own under it
    # (FlashAttention 3 in hopper/build)
    folders = [source / "build"] + copies + extra
    logs = ninja_logs(folders)
    if logs:
        with open(f"{prefix}.ninja_log", "w", encoding="utf-8") as joined:
            for log in logs:
                text = log.read_text(encoding="utf-8", errors="replace")
                if not text.startswith("# ninja log"):
                    joined.write("# ninja log v5\n")
                joined.write(text if text.endswith("\n") else text + "\n")
    meta = {
        "machine": f"{platform.node()}: {os.cpu_count()} × {_cpu()}, "
                   f"{memory.get('MemTotal', 0):.0f} GiB"
                   + (f", {', '.join(_gpus())}" if _gpus() else ""),
        "cpu_count": os.cpu_count() or 0,
        "memory_available_gib": memory.get("MemAvailable", 0.0),
        "load_before": load_before if load_before is not None else -1.0,
        "load_after": _load() or -1.0,
        "seconds": took,
        "cpu_samples": tree_cpu is not None,
        "exit_code": code,
        "command": " ".join(command),
        "ninja_logs": [str(p) for p in logs],
    }
    with open(f"{prefix}.toml", "w", encoding="utf-8") as fh:
        fh.write("# written by benchmarks/record_build.py\n")
        for key, value in meta.items():
            fh.write(f"{key} = {_toml_text(value)}\n")
    print(f"exit {code}, {took:.1f} s, {len(logs)} ninja log(s): "
          + (", ".join(str(p) for p in logs) or "none"))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
