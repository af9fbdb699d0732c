"""Where the seconds of a re-verification go: the harness's own output, each line prefixed with
the seconds since the command started (issue 29, item 5: "four installed kernels in under 20 s
with --quick").

    python3 benchmarks/harness_timeline.py --python ENV_PY \
        --adapters flash_attn_3,flashmla,sageattention [--quick] [--startup]
    python3 benchmarks/harness_timeline.py --python ENV_PY --adapters deepep --quick

Several adapters run in one process (as ``--verify`` runs those that share one), one adapter
alone. Also times, in ``ENV_PY``, the start-up parts every harness pays: importing torch, the
first CUDA call, and importing each kernel's module. Needs a GPU machine with the kernels
installed; prints only (the lines are the record).
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "resources" / "verify"))  # the adapters, as the harness has them

from kernel_wizard.verify.runner import harness_command, shared_harness_command  # noqa: E402


def kernel_module(adapter: str) -> str:
    """The module ``adapter`` verifies (its ``MODULE``: ``flash_attn_interface`` for FA3)."""
    return str(importlib.import_module("adapters." + adapter).MODULE)

STARTUP = r"""
import importlib, sys, time
t = time.perf_counter()
def mark(what):
    global t
    now = time.perf_counter()
    print(f"{now - t:7.2f} s  {what}", flush=True)
    t = now
import torch
mark("import torch")
torch.zeros(1, device="cuda").add_(1).item()
mark(f"first CUDA call ({torch.cuda.device_count()} GPUs visible)")
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
        mark(f"import {name}")
    except Exception as exc:
        mark(f"import {name} failed: {type(exc).__name__}: {exc}")
x = torch.randn(2, 257, 4, 128, device="cuda", dtype=torch.float16, requires_grad=True)
torch.matmul(x.float().flatten(0, 1), x.float().flatten(0, 1).transpose(-1, -2)).sum().item()
mark("first float32 matmul (cuBLAS)")
torch.nn.functional.scaled_dot_product_attention(x, x, x).sum().backward()
torch.cuda.synchronize()
mark("first SDPA forward+backward")
if "flash_attn_interface" in sys.argv[1:]:
    import flash_attn_interface as fa
    y = x.detach().clone().requires_grad_(True)
    out = fa.flash_attn_func(y, y, y, causal=True)
    out = out[0] if isinstance(out, tuple) else out
    torch.cuda.synchronize()
    mark("first FlashAttention 3 forward")
    out.sum().backward()
    torch.cuda.synchronize()
    mark("first FlashAttention 3 backward")
"""


def stream(command: list[str]) -> int:
    started = time.perf_counter()
    print("$ " + " ".join(command), flush=True)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    assert proc.stdout is not None
    for line in proc.stdout:
        print(f"{time.perf_counter() - started:7.2f}  {line.rstrip()}", flush=True)
    code = proc.wait()
    print(f"{time.perf_counter() - started:7.2f}  exit {code}", flush=True)
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--adapters", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--startup", action="store_true",
                        help="also time importing torch, the first CUDA call and the modules")
    args = parser.parse_args(argv)
    adapters = [a for a in args.adapters.split(",") if a]
    if args.startup:
        print("== start-up parts", flush=True)
        stream([args.python, "-c", STARTUP, *(kernel_module(a) for a in adapters)])
    with tempfile.TemporaryDirectory() as folder:
        if len(adapters) == 1:
            command = harness_command(args.python, adapters[0], Path(folder) / "r.json",
                                      quick=args.quick)
        else:
            command = shared_harness_command(args.python, adapters, Path(folder),
                                             quick=args.quick)
        print(f"== harness ({'quick' if args.quick else 'full'})", flush=True)
        return stream(command)


if __name__ == "__main__":
    sys.exit(main())
