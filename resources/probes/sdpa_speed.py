"""How fast is PyTorch's own attention here? Print one JSON object.

Run by the Kernel Setup Wizard with the *target* interpreter (never imported by the wizard),
before anything is built: it times ``torch.nn.functional.scaled_dot_product_attention`` at one
realistic shape with each of its methods (cuDNN, flash, memory-efficient, math) and with its
default choice, so that the wizard can say whether building a kernel is expected to pay off on
this GPU. Standard library and torch only; keep the syntax compatible with Python 3.8.

    python sdpa_speed.py [--batch 2 --tokens 4096 --heads 16 --head-dim 128 --dtype float16]

Output: {"ok": true, "gpu": ..., "backends": {"cudnn": {"ms": .., "tflops": ..}, "flash":
{"error": "..."}, ...}, "default": {"ms": ..}, ...} or {"ok": false, "error": "..."}.
"""

import argparse
import json
import statistics
import sys
import time

BEGIN = "@@KSW-SPEED-BEGIN@@"
END = "@@KSW-SPEED-END@@"
BACKENDS = (("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION"),
            ("efficient", "EFFICIENT_ATTENTION"), ("math", "MATH"))
BUDGET_S = 0.4  # per measurement, after the warm-up
MAX_REPS = 50


def emit(document):
    sys.stdout.write(BEGIN + "\n" + json.dumps(document) + "\n" + END + "\n")
    sys.stdout.flush()


def short(exc):
    text = str(exc).strip().splitlines()
    return "%s: %s" % (type(exc).__name__, text[0][:300] if text else "")


def median_ms(torch, fn):
    fn()  # warm-up (kernel selection, workspace)
    torch.cuda.synchronize()
    started = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    once = max(time.perf_counter() - started, 1e-6)
    reps = max(3, min(MAX_REPS, int(BUDGET_S / once)))
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times), reps


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--tokens", type=int, default=4096)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--head-dim", type=int, default=128)
    parser.add_argument("--dtype", default="float16")
    parser.add_argument("--no-causal", action="store_true")
    args = parser.parse_args(argv)
    try:
        import torch
        import torch.nn.functional as F
    except Exception as exc:
        emit({"ok": False, "error": "PyTorch does not import: " + short(exc)})
        return 0
    if not torch.cuda.is_available():
        emit({"ok": False, "error": "PyTorch sees no CUDA GPU here (torch %s, CUDA %s)"
              % (torch.__version__, torch.version.cuda)})
        return 0
    causal = not args.no_causal
    dtype = getattr(torch, args.dtype)
    shape = (args.batch, args.heads, args.tokens, args.head_dim)
    props = torch.cuda.get_device_properties(0)
    document = {
        "ok": True,
        "gpu": props.name,
        "cc": [props.major, props.minor],
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        "shape": {"batch": args.batch, "tokens": args.tokens, "heads": args.heads,
                  "head_dim": args.head_dim, "dtype": args.dtype, "causal": causal},
        "backends": {},
        "default": None,
    }
    # a causal forward pass: 2 matrix products of B*H*S*S*D multiply-adds, half of them masked
    flops = 4.0 * args.batch * args.heads * args.tokens * args.tokens * args.head_dim
    flops = flops / 2 if causal else flops
    gen = torch.Generator(device="cuda")
    gen.manual_seed(0)
    q, k, v = (torch.randn(shape, device="cuda", dtype=dtype, generator=gen) for _ in range(3))

    def run():
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except Exception:  # PyTorch before 2.3: the default method only
        SDPBackend = sdpa_kernel = None
    for name, member in BACKENDS:
        if SDPBackend is None or not hasattr(SDPBackend, member):
            document["backends"][name] = {"error": "not in this PyTorch version"}
            continue
        try:
            with sdpa_kernel(getattr(SDPBackend, member)):
                ms, reps = median_ms(torch, run)
            document["backends"][name] = {"ms": ms, "tflops": flops / ms / 1e9, "runs": reps}
        except Exception as exc:  # not compiled in, not supported for this shape or GPU
            document["backends"][name] = {"error": short(exc)}
            torch.cuda.synchronize()
    try:
        ms, reps = median_ms(torch, run)
        document["default"] = {"ms": ms, "tflops": flops / ms / 1e9, "runs": reps}
    except Exception as exc:
        document["default"] = {"error": short(exc)}
    emit(document)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
