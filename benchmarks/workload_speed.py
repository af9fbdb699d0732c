"""Measure the installed attention kernels against PyTorch's SDPA at every workload's shapes, the
way the wizard judges them (issue 29): calls queued back to back between two CUDA events
(resources/verify/queued_timing.py, the method of the probe and of the verification), kernel
and every SDPA method in one process on the same inputs. Prints JSON (every shape) and the
[[measure]] entries for resources/speed/measured.toml.

    python3 benchmarks/workload_speed.py [--kernels flash_attn_3,sageattention,flash_attn]
        [--workloads llm,image,video,reference] [--json out.json] [--toml out.toml]

Run on a GPU machine with the Python that holds the kernels; a kernel that does not import is
listed as not installed. The shapes come from resources/speed/workloads.toml (read here with
tomllib: Python 3.11 or later).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "resources" / "verify"))
sys.path.insert(0, str(ROOT / "resources" / "probes"))

import queued_timing as qt  # noqa: E402

BACKENDS = (("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION"),
            ("efficient", "EFFICIENT_ATTENTION"))
NAMES = {"flash_attn_3": "FlashAttention 3", "sageattention": "SageAttention 2",
         "flash_attn": "FlashAttention 2"}
BUDGET_S = 0.5


def kernel_call(kernel: str, q_bshd, k_bshd, v_bshd, causal: bool):
    """The kernel's forward call on (batch, tokens, heads, head size) tensors."""
    if kernel == "flash_attn_3":
        import flash_attn_interface as fa

        def call():
            out = fa.flash_attn_func(q_bshd, k_bshd, v_bshd, causal=causal)
            return out[0] if isinstance(out, tuple) else out
        return call
    if kernel == "flash_attn":
        import flash_attn

        return lambda: flash_attn.flash_attn_func(q_bshd, k_bshd, v_bshd, causal=causal)
    if kernel == "sageattention":
        import sageattention

        return lambda: sageattention.sageattn(q_bshd, k_bshd, v_bshd, tensor_layout="NHD",
                                              is_causal=causal)
    raise ValueError(kernel)


def importable(kernel: str) -> bool:
    module = {"flash_attn_3": "flash_attn_interface", "flash_attn": "flash_attn",
              "sageattention": "sageattention"}[kernel]
    try:
        __import__(module)
    except Exception:
        return False
    return True


def measure_shape(torch, kernels, shape):
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    dtype = getattr(torch, shape["dtype"])
    b, s, h, kvh, d = (shape["batch"], shape["tokens"], shape["heads"], shape["kv_heads"],
                       shape["head_dim"])
    gen = torch.Generator(device="cuda")
    gen.manual_seed(0)
    q = torch.randn((b, s, h, d), device="cuda", dtype=dtype, generator=gen)
    k = torch.randn((b, s, kvh, d), device="cuda", dtype=dtype, generator=gen)
    v = torch.randn((b, s, kvh, d), device="cuda", dtype=dtype, generator=gen)
    causal = bool(shape["causal"])
    # SDPA: (batch, heads, tokens, head size), K/V repeated to every head for GQA
    qh, kh, vh = (x.transpose(1, 2) for x in (q, k, v))
    if kvh != h:
        kh = kh.repeat_interleave(h // kvh, dim=1)
        vh = vh.repeat_interleave(h // kvh, dim=1)
    row = {"shape": shape, "sdpa": {}, "kernels": {}}
    for name, member in BACKENDS:
        try:
            with sdpa_kernel(getattr(SDPBackend, member)):
                t = qt.queued_ms(torch, lambda: F.scaled_dot_product_attention(
                    qh, kh, vh, is_causal=causal), BUDGET_S)
            row["sdpa"][name] = t.as_dict()
        except Exception as exc:
            row["sdpa"][name] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
            torch.cuda.synchronize()
    for kernel in kernels:
        try:
            t = qt.queued_ms(torch, kernel_call(kernel, q, k, v, causal), BUDGET_S)
            row["kernels"][kernel] = t.as_dict()
        except Exception as exc:
            row["kernels"][kernel] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
            torch.cuda.synchronize()
    q = k = v = qh = kh = vh = None  # freed before the next shape
    torch.cuda.empty_cache()
    return row


def words(shape) -> str:
    heads = (f"{shape['heads']} heads" if shape["kv_heads"] == shape["heads"]
             else f"{shape['heads']} heads ({shape['kv_heads']} KV heads)")
    return (f"{shape['dtype']} · batch {shape['batch']} · {shape['tokens']:,} tokens · {heads} "
            f"· head size {shape['head_dim']}" + (" · causal" if shape["causal"] else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", default="flash_attn_3,sageattention,flash_attn")
    parser.add_argument("--workloads", default="llm,image,video,reference")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--toml", type=Path)
    args = parser.parse_args(argv)
    import torch

    data = tomllib.loads((ROOT / "resources" / "speed" / "workloads.toml").read_text("utf-8"))
    wanted = args.workloads.split(",")
    workloads = [w for w in data["workload"] if w["id"] in wanted]
    kernels = [k for k in args.kernels.split(",") if importable(k)]
    missing = [k for k in args.kernels.split(",") if k not in kernels]
    props = torch.cuda.get_device_properties(0)
    machine = {"gpu": props.name, "cc": [props.major, props.minor], "torch": torch.__version__,
               "cuda": torch.version.cuda, "python": platform.python_version(),
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    result = {"machine": machine, "method": qt.METHOD, "not_installed": missing,
              "workloads": {}}
    for w in workloads:
        rows = [measure_shape(torch, kernels, {**{"kv_heads": s["heads"]}, **s})
                for s in w["shapes"]]
        result["workloads"][w["id"]] = rows
        for row in rows:
            sd = {n: round(v["ms"], 4) for n, v in row["sdpa"].items() if "ms" in v}
            kd = {n: round(v["ms"], 4) if "ms" in v else v["error"]
                  for n, v in row["kernels"].items()}
            print(f"{w['id']:9s} {words(row['shape'])}: sdpa {sd} kernels {kd}", flush=True)
    toml = []
    for wid, rows in result["workloads"].items():
        for kernel in kernels:
            if any("ms" not in r["kernels"].get(kernel, {}) for r in rows):
                continue
            kernel_ms = sum(r["kernels"][kernel]["ms"] for r in rows)
            sdpa = {}
            for name, _member in BACKENDS:
                if all("ms" in r["sdpa"].get(name, {}) for r in rows):
                    sdpa[name] = round(sum(r["sdpa"][name]["ms"] for r in rows), 4)
            shapes = "; ".join(words(r["shape"]) for r in rows)
            sdpa_text = ", ".join(f"{n} = {ms}" for n, ms in sdpa.items())
            toml += [
                "[[measure]]",
                f'kernel = "{kernel}"',
                f'name = "{NAMES[kernel]}"',
                'family = "Hopper"' if machine["cc"][0] == 9 else f'family = "cc {machine["cc"]}"',
                f'workload = "{wid}"',
                'method = "queued"',
                f'shape = "{shapes}, forward"',
                f"kernel_ms = {round(kernel_ms, 4)}",
                f"sdpa_ms = {{ {sdpa_text} }}",
                f'source = "{machine["gpu"]}, torch {machine["torch"]}, CUDA {machine["cuda"]}, '
                f'{machine["date"][:10]} (benchmarks/workload_speed.py)"',
                "",
            ]
    text = "\n".join(toml)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    if args.toml:
        args.toml.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
