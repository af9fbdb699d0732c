"""The double-clickable bundle: its size, its start-up time and how long it takes to build.

    python benchmarks/bundle_bench.py [--runs 9] [--dist DIR | --no-bundle] [--untrimmed]
                                      [--display :N]

(a) size of the one-folder bundle (total and the 10 largest files); (b) time from spawning the
program to its first page being shown — ``python -m app`` from the source tree, and the frozen
program — offscreen (``KSW_EXIT_AFTER_FIRST_PAGE``: the first page's Show event and one turn of
the event loop after it; see ``app.selftest.arm_first_page_probe``), median of ``--runs`` after
one unmeasured warm-up run, goal < 1.5 s; (c) how long ``pyinstaller installer.spec`` takes
(``--clean``: PyInstaller's caches emptied first).

``--display :N`` measures on an X display instead of offscreen (Qt's xcb platform, e.g. a
virtual one: ``Xvfb :77 -screen 0 1920x1080x24 &``): the mark then comes after the window's
first paint, as a user sees it.

``--dist DIR`` measures an existing bundle folder instead of building one (no build time).
``--no-bundle`` measures the start from source only (no bundle built).
``--untrimmed`` also builds ``installer.spec -- --no-trim`` to show what the trimming saves.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NAME = "kernel-setup-wizard"
MARK = "KSW-FIRST-PAGE"
MIB = 1024**2


def build(dist: Path, work: Path, *spec_args: str) -> float:
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level",
               "WARN", "--distpath", str(dist), "--workpath", str(work),
               str(REPO / "installer.spec")]
    if spec_args:
        command += ["--", *spec_args]
    started = time.perf_counter()
    subprocess.run(command, cwd=REPO, check=True)
    return time.perf_counter() - started


def size_report(folder: Path, label: str) -> int:
    files = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    sizes = sorted(((p.stat().st_size, p) for p in files), reverse=True)
    total = sum(size for size, _ in sizes)
    print(f"\n(a) {label}: {total / MIB:.1f} MiB ({total / 1e6:.1f} MB) in {len(files)} files "
          f"at {folder}")
    for size, path in sizes[:10]:
        print(f"    {size / 1e6:7.2f} MB  {path.relative_to(folder)}")
    return total


def load_text() -> str:
    cores = f"{os.cpu_count()} CPU cores"
    if hasattr(os, "getloadavg"):
        return f"load average {os.getloadavg()[0]:.1f} on {cores}"
    return cores


def children_cpu() -> float:
    """CPU seconds (user + system) used by this process's finished children so far."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def first_page_seconds(command: list[str], cwd: Path, scratch: Path,
                       display: str | None = None) -> tuple[float, float, float]:
    """(spawn → first page shown, spawn → process exit, CPU seconds the process used), offscreen
    or, with ``display``, on that X display (shown = first painted).

    The program writes its mark into a file (the windowed Windows program has no stdout).
    From source, Python may write its bytecode caches (as any normal install has them: the
    unmeasured warm-up run writes them). The CPU time (user + system, from ``getrusage``;
    0 where that does not exist) varies less than the wall time on a busy machine.
    """
    mark_file = scratch / "first-page.txt"
    mark_file.unlink(missing_ok=True)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", KSW_EXIT_AFTER_FIRST_PAGE=str(mark_file))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    if display is not None:
        env.update(QT_QPA_PLATFORM="xcb", DISPLAY=display)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cpu_before = children_cpu()
    spawned = time.time()
    proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    ended = time.time()
    cpu = children_cpu() - cpu_before
    text = mark_file.read_text(encoding="utf-8") if mark_file.exists() else ""
    for line in text.splitlines():
        if line.startswith(MARK):
            return float(line.split()[1]) - spawned, ended - spawned, cpu
    raise RuntimeError(f"no {MARK} line (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")


def startup_report(command: list[str], cwd: Path, scratch: Path, runs: int, label: str,
                   display: str | None = None) -> float:
    first_page_seconds(command, cwd, scratch, display)  # warm-up: page cache, fontconfig cache
    shown, exited, cpu = [], [], []
    if display is not None:
        label += f", X display {display} (first paint)"
    for _ in range(runs):
        a, b, c = first_page_seconds(command, cwd, scratch, display)
        shown.append(a)
        exited.append(b)
        cpu.append(c)
    median = statistics.median(shown)
    print(f"\n(b) {label}: spawn → first page shown, {runs} runs: median {median:.3f} s "
          f"(min {min(shown):.3f}, max {max(shown):.3f}); spawn → exit median "
          f"{statistics.median(exited):.3f} s; CPU time median {statistics.median(cpu):.3f} s "
          f"({load_text()})")
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="start-up runs (default 9, min 7)")
    parser.add_argument("--dist", type=Path, help="an existing bundle folder to measure")
    parser.add_argument("--untrimmed", action="store_true",
                        help="also build the untrimmed bundle and compare sizes")
    parser.add_argument("--no-bundle", action="store_true",
                        help="only time 'python -m app' from the source tree")
    parser.add_argument("--keep", action="store_true", help="keep the built bundles")
    parser.add_argument("--display", help="an X display (e.g. :77 of Xvfb) instead of offscreen")
    args = parser.parse_args()
    runs = max(7, args.runs)
    scratch = Path(tempfile.mkdtemp(prefix="ksw-bundle-bench-"))
    try:
        startup_report([sys.executable, "-m", "app"], REPO, scratch, runs, "from source",
                       args.display)
        if args.no_bundle:
            return 0
        if args.dist is not None:
            folder = args.dist.resolve()
        else:
            seconds = build(scratch / "dist", scratch / "work")
            folder = scratch / "dist" / NAME
            print(f"\n(c) build time (pyinstaller --clean installer.spec): {seconds:.1f} s")
        trimmed = size_report(folder, "one-folder bundle")
        if args.untrimmed:
            seconds = build(scratch / "dist-untrimmed", scratch / "work-untrimmed", "--no-trim")
            print(f"\n(c) build time, untrimmed: {seconds:.1f} s")
            untrimmed = size_report(scratch / "dist-untrimmed" / NAME, "untrimmed bundle")
            print(f"\n    trimming saves {(untrimmed - trimmed) / MIB:.1f} MiB "
                  f"({untrimmed / MIB:.1f} → {trimmed / MIB:.1f} MiB)")
        exe = folder / (f"{NAME}.exe" if sys.platform == "win32" else NAME)
        startup_report([str(exe)], scratch, scratch, runs, "frozen program", args.display)
        print(f"\n(goals: bundle ≤ 80 MiB on Linux, first page < 1.5 s; "
              f"{os.cpu_count()} CPU cores here)")
    finally:
        if args.keep:
            print(f"kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
