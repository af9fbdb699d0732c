"""How long a reinstall from the verified-wheel cache takes against the first build (issue 33).

    python benchmarks/cache_reinstall.py [--kernel probe] [--python PY] [--source DIR]
                                         [--variant NAME] [--json out.json]

Makes two fresh environments that see the same PyTorch (``PY``'s: a venv of its Python with
PyTorch reached through a .pth, as an AI program's recreated venv or a second program would
have it), then runs the wizard's headless ``build`` as a user does, into the first (source →
compile → verify → install; the wheel goes to the verified cache) and into the second (the
cached wheel → verify here → install: nothing compiled), each timed from the command's start to
its end. ``--source`` is given to the first build only: a source folder a person names is built
as asked (it need not be the source the cached wheel came from), so the second build names the
kernel alone, as a second AI program's install does. A fresh data folder and build folder
(under a temporary folder) keep the machine's own wizard data out of it. Prints both times and
their ratio; the issue's goal is a reinstall of the probe in at most 35 % of the first build's
time on the development machine, and under 30 s for FlashAttention 3 and SageAttention on the
lent GPU.

``PY`` defaults to the tests' CPU PyTorch venv (``~/.cache/ksw-tests``) and must have PyTorch."""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def purelib(python: Path) -> Path:
    return Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"], check=True,
                               capture_output=True, text=True).stdout.strip())


def base_python(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import sys; print(sys._base_executable)"],
                          check=True, capture_output=True, text=True).stdout.strip()


def make_env(folder: Path, python: Path) -> Path:
    """A fresh venv of ``python``'s interpreter that sees its PyTorch (and pip) but keeps its
    own site-packages: what the wizard installs lands there only."""
    subprocess.run([base_python(python), "-m", "venv", "--system-site-packages", "--without-pip",
                    str(folder)], check=True)
    bin_dir = folder / ("Scripts" if os.name == "nt" else "bin")
    env_python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    (purelib(env_python) / "ksw_bench_torch.pth").write_text(str(purelib(python)) + "\n",
                                                             encoding="utf-8")
    return env_python


def run_build(python: Path, kernel: str, data: Path, root: Path,
              extra: list[str]) -> tuple[float, dict[str, Any]]:
    env = dict(os.environ, KSW_DATA_DIR=str(data), KSW_BUILD_ROOT=str(root))
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "app", "--headless", "build", "--kernel",
                             kernel, "--python", str(python), "--yes", "--json", *extra],
                            cwd=ROOT, capture_output=True, text=True, env=env)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        sys.exit(f"build into {python} failed (exit {result.returncode}):\n"
                 f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return seconds, json.loads(result.stdout)


def default_python() -> Path:
    cache = Path(os.environ.get("KSW_TEST_CACHE", Path.home() / ".cache" / "ksw-tests"))
    found = sorted(cache.glob("venv-torch-*/bin/python")) + sorted(
        cache.glob("venv-torch-*/Scripts/python.exe"))
    if not found:
        sys.exit("No PyTorch venv of the tests was found; pass --python PY (with PyTorch).")
    return found[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernel", default="probe")
    parser.add_argument("--python", type=Path, help="an interpreter with PyTorch")
    parser.add_argument("--source", type=Path, help="the kernel's source folder")
    parser.add_argument("--variant", help="the build variant (FlashAttention 3: compact)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    python = args.python or default_python()
    extra = [*(["--source", str(args.source)] if args.source else []),
             *(["--variant", args.variant] if args.variant else [])]
    with tempfile.TemporaryDirectory(prefix="ksw-cache-bench-") as tmp:
        folder = Path(tmp)
        data, root = folder / "data", folder / "build root"
        first_env = make_env(folder / "first env", python)
        second_env = make_env(folder / "second env", python)
        first, built = run_build(first_env, args.kernel, data, root, extra)
        print(f"(first build done in {first:.1f} s)", flush=True)
        # the second program asks for the kernel, not for a source folder: a source the
        # person names is built as asked (it may not be the source the cached wheel came from)
        variant = ["--variant", args.variant] if args.variant else []
        second, taken = run_build(second_env, args.kernel, data, root, variant)
    cached = [s["step"] for s in taken.get("steps", [])] == ["cache"]
    ratio = second / first
    lines = [
        f"Machine: {platform.node()} ({os.cpu_count()} cores), {platform.system()}, "
        f"Python {platform.python_version()} for the wizard, target {python}",
        f"{args.kernel}: first build into a fresh environment (compile, verify, install): "
        f"{first:.1f} s",
        f"{args.kernel}: into a second matching environment "
        f"({'from the verified cache, nothing compiled' if cached else 'NOT from the cache'}, "
        f"verify, install): {second:.1f} s",
        f"ratio {ratio:.2f} ({ratio * 100:.0f} % of the first build's time)",
    ]
    print("\n".join(lines))
    if args.json is not None:
        args.json.write_text(json.dumps({
            "kernel": args.kernel, "first_s": round(first, 2), "second_s": round(second, 2),
            "ratio": round(ratio, 3), "second_from_cache": cached,
            "first_steps": built.get("steps"), "second_steps": taken.get("steps"),
            "machine": {"node": platform.node(), "cores": os.cpu_count()},
        }, indent=2) + "\n", encoding="utf-8")
    return 0 if cached else 1


if __name__ == "__main__":
    raise SystemExit(main())
