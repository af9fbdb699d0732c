"""How fast is PyTorch's own attention here? Print one JSON object.

Run by the Kernel Setup Wizard with the *target* interpreter (never imported by the wizard),
before anything is built: it times ``torch.nn.functional.scaled_dot_product_attention`` at the
shapes of each workload (resources/speed/workloads.toml, passed as JSON) with each of its
methods (cuDNN, flash, memory-efficient, math) and with its default choice, so that the wizard
can say whether building a kernel is expected to pay off on this GPU for what the user runs.
Calls are timed as a model runs them: queued back to back between two CUDA events
(``resources/verify/queued_timing.py``, the same method as the verification after a build).
Standard library and torch only; keep the syntax compatible with Python 3.8.

    python sdpa_speed.py [--workloads '[{"id": "llm", "shapes": [{"batch": 1, "tokens": 2048,
                          "heads": 32, "kv_heads": 8, "head_dim": 128, "causal": true,
                          "dtype": "bfloat16"}]}, ...]']

Without ``--workloads``: one shape (float16 · batch 2 · 4,096 tokens · 16 heads · head size
128 · causal), the id "reference".

Output: {"ok": true, "gpu": ..., "method": "queued", "workloads": {"llm": {"shapes": [...],
"backends": {"cudnn": {"ms": <sum over the shapes>, "tflops": .., "per_shape": [..],
"host_ms": ..}, "flash": {"error": "..."}, ...}, "default": {...}}, ...}, plus "shape",
"backends" and "default" of the first workload (the layout of the single-shape probe)} or
{"ok": false, "error": "..."}.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "verify"))

import queued_timing as qt  # noqa: E402

BEGIN = "@@KSW-SPEED-BEGIN@@"
END = "@@KSW-SPEED-END@@"
BACKENDS = (("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION"),
            ("efficient", "EFFICIENT_ATTENTION"), ("math", "MATH"))
BUDGET_S = 0.3  # per measurement, after the warm-up
MATH_SHARE = 0.6  # the math method holds the whole score matrix: tried where 3 float32 copies
# of it fit in this share of the GPU's free memory
REFERENCE = {"id": "reference", "shapes": [{"batch": 2, "tokens": 4096, "heads": 16,
                                            "kv_heads": 16, "head_dim": 128, "causal": True,
                                            "dtype": "float16"}]}


def emit(document):
    sys.stdout.write(BEGIN + "\n" + json.dumps(document) + "\n" + END + "\n")
    sys.stdout.flush()


def short(exc):
    text = str(exc).strip().splitlines()
    return "%s: %s" % (type(exc).__name__, text[0][:300] if text else "")


def flops_of(shape):
    """Two matrix products of B*H*S*S*D multiply-adds; half of them masked when causal."""
    s = shape
    flops = 4.0 * s["batch"] * s["heads"] * s["tokens"] * s["tokens"] * s["head_dim"]
    return flops / 2 if s["causal"] else flops


def math_fits(torch, shape):
    s = shape
    try:
        free = torch.cuda.mem_get_info()[0]
    except Exception:
        free = 4 << 30
    return 3 * 4 * s["batch"] * s["heads"] * s["tokens"] * s["tokens"] <= MATH_SHARE * free


def make_call(torch, shape):
    """The SDPA call at ``shape`` on fresh random inputs (K and V repeated to all heads for
    grouped-query attention, as transformers' SDPA path does; the repeat is not timed)."""
    import torch.nn.functional as F

    s = shape
    dtype = getattr(torch, s.get("dtype", "float16"))
    gen = torch.Generator(device="cuda")
    gen.manual_seed(0)
    kv_heads = s.get("kv_heads") or s["heads"]
    q = torch.randn((s["batch"], s["heads"], s["tokens"], s["head_dim"]), device="cuda",
                    dtype=dtype, generator=gen)
    k, v = (torch.randn((s["batch"], kv_heads, s["tokens"], s["head_dim"]), device="cuda",
                        dtype=dtype, generator=gen) for _ in range(2))
    if kv_heads != s["heads"]:
        k = k.repeat_interleave(s["heads"] // kv_heads, dim=1)
        v = v.repeat_interleave(s["heads"] // kv_heads, dim=1)
    causal = bool(s["causal"])

    def run():
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    return run


def time_method(torch, run, member, sdpa_kernel, SDPBackend):
    if member is None:
        return qt.queued_ms(torch, run, budget_s=BUDGET_S)
    with sdpa_kernel(getattr(SDPBackend, member)):
        return qt.queued_ms(torch, run, budget_s=BUDGET_S)


def measure_workload(torch, workload, SDPBackend, sdpa_kernel):
    shapes = workload["shapes"]
    out = {"shapes": shapes, "backends": {}, "default": None}
    methods = [(name, member) for name, member in BACKENDS] + [("default", None)]
    totals = {}
    for shape in shapes:
        run = make_call(torch, shape)
        for name, member in methods:
            if name in totals and totals[name] is None:
                continue  # failed at an earlier shape: no total
            if member is not None and (SDPBackend is None or not hasattr(SDPBackend, member)):
                totals[name] = None
                out["backends"][name] = {"error": "not in this PyTorch version"}
                continue
            if name == "math" and not math_fits(torch, shape):
                totals[name] = None
                out["backends"][name] = {"error": "too large for the math method (its score "
                                                  "matrix alone would not fit)"}
                continue
            try:
                timing = time_method(torch, run, member, sdpa_kernel, SDPBackend)
            except Exception as exc:  # not compiled in, not supported for this shape or GPU
                totals[name] = None
                entry = {"error": short(exc)}
                if name == "default":
                    out["default"] = entry
                else:
                    out["backends"][name] = entry
                try:
                    torch.cuda.synchronize()
                    torch.cuda.empty_cache()
                except Exception:
                    pass
                continue
            total = totals.setdefault(name, {"ms": 0.0, "per_shape": [], "host_ms": 0.0,
                                             "calls": []})
            total["ms"] += timing.ms
            total["host_ms"] += timing.host_ms
            total["per_shape"].append(timing.ms)
            total["calls"].append(timing.calls)
        del run
        torch.cuda.empty_cache()
    work = sum(flops_of(s) for s in shapes)
    for name, total in totals.items():
        if total is None:
            continue
        entry = {"ms": total["ms"], "tflops": work / total["ms"] / 1e9,
                 "per_shape": total["per_shape"], "host_ms": total["host_ms"],
                 "runs": min(total["calls"])}
        if name == "default":
            out["default"] = entry
        else:
            out["backends"][name] = entry
    return out


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--workloads", default="", help="JSON: [{id, shapes: [...]}, ...]")
    args = parser.parse_args(argv)
    workloads = json.loads(args.workloads) if args.workloads else [REFERENCE]
    try:
        import torch
    except Exception as exc:
        emit({"ok": False, "error": "PyTorch does not import: " + short(exc)})
        return 0
    if not torch.cuda.is_available():
        emit({"ok": False, "error": "PyTorch sees no CUDA GPU here (torch %s, CUDA %s)"
              % (torch.__version__, torch.version.cuda)})
        return 0
    props = torch.cuda.get_device_properties(0)
    document = {
        "ok": True,
        "gpu": props.name,
        "cc": [props.major, props.minor],
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        "method": qt.METHOD,
        "workloads": {},
    }
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except Exception:  # PyTorch before 2.3: the default method only
        SDPBackend = sdpa_kernel = None
    for workload in workloads:
        document["workloads"][workload["id"]] = measure_workload(torch, workload, SDPBackend,
                                                                 sdpa_kernel)
    first = document["workloads"][workloads[0]["id"]]
    shape = dict(first["shapes"][0])
    document["shape"] = shape
    document["backends"] = first["backends"]
    document["default"] = first["default"]
    emit(document)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
