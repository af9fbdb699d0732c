"""Does the wizard's speed figure agree with an independent timing? (issue 29, item 2)

On a GPU machine, for each installed kernel: run the wizard's own verification harness in this
process (resources/verify/verify_kernel.py, as the wizard does after a build), take its forward
timing (kernel, and the SDPA method it found fastest / its plain-PyTorch baseline), then time
the same call at the same shape with a method written here, apart from the harness: plain CUDA
events around N calls queued back to back (N: about 60 ms of GPU time), 0.3 s of warm-up, the
median of 7 groups. It also times each call alone with a synchronize in between (the wizard's
earlier method), to show what that method reported. Ratios are compared within this one process.

    python3 benchmarks/speed_agreement.py --out docs/recorded/<machine-date>/speed_agreement.json
    python3 benchmarks/speed_agreement.py --recorded docs/recorded/*/speed_agreement.json

``--recorded`` prints, per kernel, both figures and their ratio and exits 1 when any pair
(kernel time, baseline time, speed-up) differs by more than 10 %. A live run exits the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOLERANCE = 0.10
ADAPTERS = ("flash_attn_3", "sageattention", "flash_attn", "flashmla")
MODULES = {"flash_attn_3": "flash_attn_interface", "sageattention": "sageattention",
           "flash_attn": "flash_attn", "flashmla": "flash_mla"}
BACKEND_MEMBERS = {"cuDNN": "CUDNN_ATTENTION", "flash": "FLASH_ATTENTION",
                   "memory-efficient": "EFFICIENT_ATTENTION"}


# -- the independent timing (no harness code) ---------------------------------------------------

def plain_queued_ms(torch, fn, calls=None, groups=7, warmup_s=0.3, group_ms=60.0):
    """Median ms per call of ``groups`` groups of calls queued between two CUDA events, after
    ``warmup_s`` seconds of the same calls. ``calls`` None: as many as take about ``group_ms``
    of GPU time. Sustained groups, as a model's layers keep the GPU busy: with fixed 50-call
    groups (11 ms of FlashAttention 3) and a 10-call warm-up, one run's figure moved by 17 %
    from one measurement to the next on an H200 while the GPU's clock settled
    (benchmarks/timing_drift.py, docs/recorded/h200x2-2026-11-28)."""
    started = time.perf_counter()
    done = 0
    while done < 3 or time.perf_counter() - started < warmup_s:
        fn()
        done += 1
        if done % 10 == 0:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    if calls is None:
        probe_start = torch.cuda.Event(enable_timing=True)
        probe_stop = torch.cuda.Event(enable_timing=True)
        probe_start.record()
        for _ in range(10):
            fn()
        probe_stop.record()
        probe_stop.synchronize()
        one = probe_start.elapsed_time(probe_stop) / 10
        calls = max(10, min(2000, int(group_ms / max(one, 1e-4))))
    per_call = []
    for _ in range(groups):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        stop.record()
        stop.synchronize()
        per_call.append(start.elapsed_time(stop) / calls)
    return statistics.median(per_call)


def one_at_a_time_ms(torch, fn, reps=20, warmup_s=0.1):
    """Each call alone between its two events (the wizard's earlier method)."""
    return plain_queued_ms(torch, fn, calls=1, groups=reps, warmup_s=warmup_s)


def attention_calls(torch, adapter, backend):
    """(kernel call, baseline call) at the harness's forward shape: float16 · batch 2 · 4,096
    tokens · 16 heads · head size 128 · causal (FlashAttention 2/3, SageAttention)."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    b, s, h, d = 2, 4096, 16, 128
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    q, k, v = (torch.randn((b, s, h, d), device="cuda", dtype=torch.float16, generator=gen)
               for _ in range(3))
    qh, kh, vh = (x.transpose(1, 2).contiguous() for x in (q, k, v))
    if adapter == "flash_attn_3":
        import flash_attn_interface as fa

        def kernel():
            return fa.flash_attn_func(q, k, v, causal=True)
    elif adapter == "flash_attn":
        import flash_attn

        def kernel():
            return flash_attn.flash_attn_func(q, k, v, causal=True)
    else:
        import sageattention

        def kernel():
            return sageattention.sageattn(qh, kh, vh, tensor_layout="HND", is_causal=True)
    member = BACKEND_MEMBERS.get(backend)

    def baseline():
        if member is None:
            return F.scaled_dot_product_attention(qh, kh, vh, is_causal=True)
        with sdpa_kernel(getattr(SDPBackend, member)):
            return F.scaled_dot_product_attention(qh, kh, vh, is_causal=True)
    return kernel, baseline


def flashmla_calls(torch):
    """FlashMLA decoding (batch 8, 4,096 cached tokens, 128 query heads, head size 576/512)
    against torch.bmm + a float32 softmax, as the harness times it."""
    import flash_mla

    b, s_k, h_q, d_qk, d_v, block = 8, 4096, 128, 576, 512, 64
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    q = (torch.randn((b, 1, h_q, d_qk), device="cuda", generator=gen) / 10).clamp(-1, 1)
    k = (torch.randn((b, s_k, 1, d_qk), device="cuda", generator=gen) / 10).clamp(-1, 1)
    q, k = q.to(torch.bfloat16), k.to(torch.bfloat16)
    per_seq = s_k // block
    blocked = k.reshape(b * per_seq, block, 1, d_qk)
    table = torch.arange(b * per_seq, dtype=torch.int32, device="cuda").view(b, per_seq)
    seqlens = torch.full((b,), s_k, dtype=torch.int32, device="cuda")
    try:
        meta = flash_mla.get_mla_metadata()
    except TypeError:
        meta = flash_mla.get_mla_metadata(seqlens, h_q, 1)
    qh, kc = q.view(b, h_q, d_qk), k.view(b, s_k, d_qk)
    vc = kc[..., :d_v]

    def kernel():
        return flash_mla.flash_mla_with_kvcache(q, blocked, table, seqlens, d_v, meta[0], meta[1],
                                                causal=False)

    def baseline():
        scores = torch.bmm(qh, kc.transpose(1, 2)).float() * d_qk ** -0.5
        return torch.bmm(torch.softmax(scores, dim=-1).to(torch.bfloat16), vc)
    return kernel, baseline


# -- the wizard's own figure --------------------------------------------------------------------

def wizard_timing(adapter):
    """The harness's forward timing for ``adapter``, run in this process."""
    sys.path.insert(0, str(ROOT / "resources" / "verify"))
    import verify_kernel

    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "report.json")
        log = io.StringIO()
        with contextlib.redirect_stdout(log):
            code = verify_kernel.main(["--adapter", adapter, "--out", out])
        report = json.loads(Path(out).read_text(encoding="utf-8"))
    timings = [t for t in report.get("timings", []) if t.get("name", "").startswith("forward")
               and "backward" not in t.get("name", "")]
    return code, report.get("status"), (timings[0] if timings else None)


def ratio_row(name, wizard, independent):
    ratio = independent / wizard if wizard and independent else None
    return {"what": name, "wizard": wizard, "independent": independent, "ratio": ratio,
            "agrees": ratio is not None and abs(ratio - 1) <= TOLERANCE}


def run_live(adapters, out):
    import torch

    props = torch.cuda.get_device_properties(0)
    result = {"machine": {"gpu": props.name, "torch": torch.__version__,
                          "cuda": torch.version.cuda,
                          "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())},
              "tolerance": TOLERANCE, "kernels": {}, "not_installed": []}
    for adapter in adapters:
        try:
            __import__(MODULES[adapter])
        except Exception as exc:
            result["not_installed"].append(f"{adapter}: {type(exc).__name__}: {exc}"[:200])
            continue
        code, status, timing = wizard_timing(adapter)
        entry = {"verification": status, "exit": code, "wizard_timing": timing}
        if timing is None or not timing.get("kernel_ms"):
            entry["error"] = "the verification gave no forward timing"
            result["kernels"][adapter] = entry
            continue
        if adapter == "flashmla":
            kernel, baseline = flashmla_calls(torch)
        else:
            kernel, baseline = attention_calls(torch, adapter, timing.get("sdpa_backend", ""))
        with torch.no_grad():
            k_ms, b_ms = plain_queued_ms(torch, kernel), plain_queued_ms(torch, baseline)
            k_one, b_one = one_at_a_time_ms(torch, kernel), one_at_a_time_ms(torch, baseline)
        entry["independent"] = {"kernel_ms": k_ms, "baseline_ms": b_ms, "speedup": b_ms / k_ms,
                                "baseline": timing.get("reference") or
                                f"SDPA {timing.get('sdpa_backend') or 'default'}"}
        entry["one_at_a_time"] = {"kernel_ms": k_one, "baseline_ms": b_one,
                                  "speedup": b_one / k_one}
        entry["rows"] = [
            ratio_row("kernel ms", timing["kernel_ms"], k_ms),
            ratio_row("baseline ms", timing.get("sdpa_ms"), b_ms),
            ratio_row("speed-up", timing.get("speedup"), b_ms / k_ms),
        ]
        result["kernels"][adapter] = entry
        print_kernel(adapter, entry)
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return result


def print_kernel(adapter, entry):
    print(f"{adapter} (verification {entry.get('verification')}):")
    if "error" in entry:
        print(f"  {entry['error']}")
        return
    for row in entry["rows"]:
        mark = "ok " if row["agrees"] else "OFF"
        ratio = f"{row['ratio']:.3f}" if row["ratio"] is not None else "-"
        print(f"  {mark} {row['what']:12s} wizard {row['wizard']:.4g}  independent "
              f"{row['independent']:.4g}  ratio {ratio}")
    one = entry.get("one_at_a_time")
    if one:
        print(f"      one call at a time (the earlier method): kernel {one['kernel_ms']:.4g} ms, "
              f"baseline {one['baseline_ms']:.4g} ms, speed-up {one['speedup']:.3f}")


def disagreements(result):
    return [(a, r["what"]) for a, e in result["kernels"].items() for r in e.get("rows", [])
            if not r["agrees"]] + [(a, "no timing") for a, e in result["kernels"].items()
                                   if "error" in e]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapters", default=",".join(ADAPTERS))
    parser.add_argument("--out", default="")
    parser.add_argument("--recorded", nargs="*", default=None,
                        help="recorded speed_agreement.json files (globs) to read instead")
    args = parser.parse_args(argv)
    if args.recorded is not None:
        files = sorted({f for pattern in args.recorded for f in glob.glob(pattern)})
        if not files:
            print("no recorded files match", file=sys.stderr)
            return 2
        bad = []
        for path in files:
            result = json.loads(Path(path).read_text(encoding="utf-8"))
            machine = result.get("machine", {})
            print(f"{path}: {machine.get('gpu')}, torch {machine.get('torch')}, "
                  f"{machine.get('date')}")
            for adapter, entry in result.get("kernels", {}).items():
                print_kernel(adapter, entry)
            bad += [(path, *d) for d in disagreements(result)]
        for item in bad:
            print("DISAGREES: " + " / ".join(item))
        return 1 if bad else 0
    result = run_live([a for a in args.adapters.split(",") if a], args.out)
    bad = disagreements(result)
    for item in bad:
        print("DISAGREES: " + " / ".join(item))
    return 1 if bad or not result["kernels"] else 0


if __name__ == "__main__":
    sys.exit(main())
