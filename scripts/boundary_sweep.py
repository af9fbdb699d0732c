"""The boundary sweep: every call a user's model may make into an installed kernel, each in its own
child process, classified as ran-correct / raised / a failure (crashed, hung, wrong, ran
unchecked). Run it on a GPU machine with the Python that has the kernels installed:

    python3 scripts/boundary_sweep.py --out docs/recorded/<machine-date>/boundary.json

Kernels that are not importable are listed under "not_installed" and skipped. A FlashAttention 3
wheel built by the wizard carries the recipe's Python checks (patch fa3-build-guard); the rows
under "before_patch" call the same left-out variants with those checks switched off, i.e. the
extension as upstream ships it, to record what a user met without them.

Output: {"boundary": [{"kernel", "call", "head_size", "outcome", "message"}, ...],
"before_patch": [...], "machine": {...}, "not_installed": [...]}. Exit 0 when no row is a
failure, 1 otherwise. Calls are checked against a float32 reference with FlashAttention's
tolerance rule (upstream's hopper/test_flash_attn.py: max|out - ref| <= 2 * max|pt - ref| +
atol, pt being the same math in the input dtype).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "resources" / "verify"))

import harness_boundary as hb  # noqa: E402

GOOD = ("ran-correct", "raised")

# Shared by every FlashAttention 3 call: inputs, the float reference and the tolerance rule.
FA3_PRELUDE = '''
import math, os, torch
import flash_attn_interface as fa
torch.manual_seed(0)
dev = torch.device(os.environ.get("KSW_SWEEP_DEVICE", "cuda"))  # "cpu": the tests' stand-in
def sync():
    if dev.type == "cuda":
        torch.cuda.synchronize()
def t(*shape, dtype=torch.bfloat16, grad=False):
    x = torch.randn(*shape, device=dev, dtype=torch.float32).to(dtype)
    return x.requires_grad_(grad) if grad else x
def attn(q, k, v, causal=False, window=(-1, -1), softcap=0.0, upcast=True):
    # q (b, sq, hq, d), k (b, sk, hk, d), v (b, sk, hk, dv) -> (b, sq, hq, dv)
    dtype = q.dtype
    if upcast:
        q, k, v = q.float(), k.float(), v.float()
    g = q.shape[2] // k.shape[2]
    k = k.repeat_interleave(g, dim=2)
    v = v.repeat_interleave(g, dim=2)
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(q.shape[-1])
    if softcap:
        s = torch.tanh(s / softcap) * softcap
    sq, sk = q.shape[1], k.shape[1]
    i = torch.arange(sq, device=q.device).view(-1, 1) + (sk - sq)
    j = torch.arange(sk, device=q.device).view(1, -1)
    mask = torch.zeros(sq, sk, dtype=torch.bool, device=q.device)
    if causal:
        mask |= j > i
    if window[0] >= 0:
        mask |= j < i - window[0]
    if window[1] >= 0:
        mask |= j > i + window[1]
    s = s.masked_fill(mask, float("-inf"))
    p = torch.softmax(s.float(), dim=-1).nan_to_num(0.0).to(v.dtype)
    out = torch.einsum("bhqk,bkhd->bqhd", p, v)
    return out if upcast else out.to(dtype)
def rule(out, ref, pt, factor=2.0, name="out"):
    out, ref, pt = out.float(), ref.float(), pt.float()
    if not torch.isfinite(out).all():
        return False, "%s has %d non-finite values" % (name, int((~torch.isfinite(out)).sum()))
    atol = 2 * (ref + 0.3 - 0.3 - ref).abs().max().item() + 1e-5
    err, pterr = (out - ref).abs().max().item(), (pt - ref).abs().max().item()
    ok = err <= factor * pterr + atol
    return ok, "%s max err %.3g vs PyTorch %.3g (limit %.3g)" % (name, err, pterr,
                                                                 factor * pterr + atol)
def both(*results):
    ok = all(r[0] for r in results)
    return ok, "; ".join(r[1] for r in results)
'''


def fa3_fwd(d, dv=None, causal=False, dtype="torch.bfloat16", extra="", window="(-1, -1)",
            softcap="0.0", b=2, s=257, h=4, hk=None):
    dv = dv or d
    hk = hk or h
    return f'''
q = t({b}, {s}, {h}, {d}, dtype={dtype})
k = t({b}, {s}, {hk}, {d}, dtype={dtype})
v = t({b}, {s}, {hk}, {dv}, dtype={dtype})
def call():
    return fa.flash_attn_func(q, k, v, causal={causal}, window_size={window},
                              softcap={softcap}{extra})
def check(out):
    out = out[0] if isinstance(out, tuple) else out
    ref = attn(q, k, v, causal={causal}, window={window}, softcap={softcap})
    pt = attn(q, k, v, causal={causal}, window={window}, softcap={softcap}, upcast=False)
    return rule(out, ref, pt)
'''


def fa3_fwd_bwd(d, causal=True):
    return f'''
q, k, v = (t(2, 257, 4, {d}, grad=True) for _ in range(3))
g = t(2, 257, 4, {d})
def call():
    out = fa.flash_attn_func(q, k, v, causal={causal})
    out = out[0] if isinstance(out, tuple) else out
    return (out,) + torch.autograd.grad(out, (q, k, v), g)
def check(res):
    out, dq, dk, dv = res
    qf, kf, vf = (x.detach().float().requires_grad_() for x in (q, k, v))
    ref = attn(qf, kf, vf, causal={causal})
    rg = torch.autograd.grad(ref, (qf, kf, vf), g.float())
    qp, kp, vp = (x.detach().clone().requires_grad_() for x in (q, k, v))
    pt = attn(qp, kp, vp, causal={causal}, upcast=False)
    pg = torch.autograd.grad(pt, (qp, kp, vp), g)
    return both(rule(out, ref, pt), *(rule(a, r, p, 3.0, n) for a, r, p, n in
                                      zip((dq, dk, dv), rg, pg, ("dq", "dk", "dv"))))
'''


FA3_VARLEN_EMPTY = '''
lens = [100, 0, 150, 7]
cu = torch.tensor([0, 100, 100, 250, 257], dtype=torch.int32, device=dev)
q, k, v = (t(257, 4, 128, grad=True) for _ in range(3))
g = t(257, 4, 128)
def call():
    out = fa.flash_attn_varlen_func(q, k, v, cu, cu, 150, 150, causal=True)
    out = out[0] if isinstance(out, tuple) else out
    return (out,) + torch.autograd.grad(out, (q, k, v), g)
def check(res):
    out, dq, dk, dv = res
    results = []
    start = 0
    for n in lens:
        if n:
            sl = slice(start, start + n)
            qf, kf, vf = (x.detach()[sl].float().unsqueeze(0).requires_grad_() for x in (q, k, v))
            ref = attn(qf, kf, vf, causal=True)
            rg = torch.autograd.grad(ref, (qf, kf, vf), g[sl].float().unsqueeze(0))
            qp, kp, vp = (x.detach()[sl].unsqueeze(0).clone().requires_grad_() for x in (q, k, v))
            pt = attn(qp, kp, vp, causal=True, upcast=False)
            pg = torch.autograd.grad(pt, (qp, kp, vp), g[sl].unsqueeze(0))
            results.append(rule(out[sl].unsqueeze(0), ref, pt))
            results += [rule(a[sl].unsqueeze(0), r, p, 3.0, nm) for a, r, p, nm in
                        zip((dq, dk, dv), rg, pg, ("dq", "dk", "dv"))]
        start += n
    return both(*results)
'''


def fa3_kvcache(d=128, paged=False, append=False, splits=1):
    return f'''
b, h, page = 2, 4, 64
lens = torch.tensor([60, 100], dtype=torch.int32, device=dev)
q = t(b, 1, h, {d})
if {paged}:
    kc, vc = t(6, page, h, {d}), t(6, page, h, {d})
    table = torch.tensor([[4, 1], [0, 5]], dtype=torch.int32, device=dev)
    kfull = kc[table].reshape(b, -1, h, {d}); vfull = vc[table].reshape(b, -1, h, {d})
else:
    kc, vc = t(b, 128, h, {d}), t(b, 128, h, {d})
    table = None
    kfull, vfull = kc, vc
kn = vn = None
if {append}:
    kn, vn = t(b, 1, h, {d}), t(b, 1, h, {d})
def call():
    return fa.flash_attn_with_kvcache(q, kc, vc, k=kn, v=vn, cache_seqlens=lens,
                                      page_table=table, num_splits={splits})
def check(out):
    out = out[0] if isinstance(out, tuple) else out
    results = []
    for i in range(b):
        n = int(lens[i])
        kk, vv = kfull[i:i + 1, :n], vfull[i:i + 1, :n]
        if {append}:
            kk = torch.cat([kk, kn[i:i + 1]], dim=1); vv = torch.cat([vv, vn[i:i + 1]], dim=1)
        ref = attn(q[i:i + 1], kk, vv)
        pt = attn(q[i:i + 1], kk, vv, upcast=False)
        results.append(rule(out[i:i + 1], ref, pt))
    return both(*results)
'''


def fa3_calls():
    """(call, head_size, setup) for FlashAttention 3."""
    rows = []
    for d in (32, 64, 80, 96, 128, 160, 192, 256):
        rows.append((f"flash_attn_func bf16 head {d}", d, fa3_fwd(d)))
    rows.append(("flash_attn_func fp16 head 128 causal", 128,
                 fa3_fwd(128, causal=True, dtype="torch.float16")))
    for d in (64, 128, 192):
        rows.append((f"flash_attn_func forward+backward head {d} causal", d, fa3_fwd_bwd(d)))
    for d, dv in ((192, 128), (64, 256), (64, 512), (128, 64)):
        rows.append((f"flash_attn_func q/k head {d}, v head {dv}", d, fa3_fwd(d, dv)))
    rows.append(("flash_attn_func softcap 30", 128, fa3_fwd(128, softcap="30.0")))
    rows.append(("flash_attn_func sliding window (64, 0)", 128, fa3_fwd(128, window="(64, 0)")))
    rows.append(("flash_attn_func GQA pack_gqa=True", 128,
                 fa3_fwd(128, h=8, hk=2, extra=", pack_gqa=True")))
    rows.append(("flash_attn_func GQA 8/2 heads", 128, fa3_fwd(128, h=8, hk=2, causal=True)))
    rows.append(("flash_attn_func num_splits=4", 128, fa3_fwd(128, extra=", num_splits=4")))
    rows.append(("flash_attn_func FP8 e4m3", 128, fa3_fwd(
        128, dtype="torch.float8_e4m3fn").replace("def check(out):", "def _unused(out):")))
    rows.append(("flash_attn_varlen_func with an empty sequence, forward+backward", 128,
                 FA3_VARLEN_EMPTY))
    rows.append(("flash_attn_with_kvcache", 128, fa3_kvcache()))
    rows.append(("flash_attn_with_kvcache paged KV", 128, fa3_kvcache(paged=True)))
    rows.append(("flash_attn_with_kvcache append k/v", 128, fa3_kvcache(append=True)))
    rows.append(("flash_attn_with_kvcache num_splits=4", 128, fa3_kvcache(splits=4)))
    rows.append(("flash_attn_func head 59 (not a multiple of 8)", 59, fa3_fwd(59)))
    rows.append(("flash_attn_func head 264 (above 256)", 264, fa3_fwd(264)))
    return rows


UNGUARD = "\nfa._ksw_check = lambda *a, **k: None\n"


def fa3_before_calls():
    """The left-out calls with the wizard's checks switched off: the extension as shipped."""
    return [(f"{call} (extension without the wizard's checks)", d, setup + UNGUARD)
            for call, d, setup in fa3_calls()
            if call.endswith(("head 160", "head 192", "head 256", "softcap 30", "(64, 0)",
                              "num_splits=4", "paged KV", "e4m3", "(not a multiple of 8)"))]


def importable(module, python):
    code = f"import importlib.util, sys; sys.exit(0 if importlib.util.find_spec({module!r}) else 1)"
    return subprocess.run([python, "-c", code], check=False).returncode == 0


def sweep(kernel, imports, rows, timeout_s):
    """Every row in a process of its own (forked from one that imported ``imports``)."""
    started = time.monotonic()
    results = hb.run_calls(imports, [FA3_PRELUDE + setup for _, _, setup in rows], timeout_s)
    out = []
    for (call, head, _), (outcome, message) in zip(rows, results, strict=True):
        if outcome == "ran":
            outcome = "ran-unchecked"
        out.append({"kernel": kernel, "call": call, "head_size": head, "outcome": outcome,
                    "message": message})
        print(f"{kernel:14s} {call:70s} {outcome:13s} {message[:120]}", flush=True)
    print(f"{kernel}: {len(rows)} calls in {time.monotonic() - started:.1f} s", flush=True)
    return out


def machine():
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             check=False).stdout.strip()
    except OSError:
        gpu = ""
    code = "import torch; print(torch.__version__, torch.version.cuda)"
    torch = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=False).stdout.strip()
    return {"gpu": gpu, "torch": torch, "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--only", default="",
                        help="only the calls whose name contains one of these (comma-separated)")
    parser.add_argument("--skip-before", action="store_true",
                        help="leave out the rows without the wizard's checks")
    args = parser.parse_args(argv)
    report = {"machine": machine(), "boundary": [], "before_patch": [], "not_installed": []}
    if importable("flash_attn_interface", sys.executable):
        config = subprocess.run(
            [sys.executable, "-c", "from flash_attn_config import CONFIG; import json; "
             "print(json.dumps(CONFIG['build_flags']))"], capture_output=True, text=True,
            check=False).stdout.strip()
        report["flash_attn_3_build_flags"] = json.loads(config) if config else {}
        imports = "import torch\nimport flash_attn_interface\n"
        wanted = [w for w in args.only.split(",") if w]

        def chosen(rows):
            return [r for r in rows if not wanted or any(w in r[0] for w in wanted)]

        report["boundary"] += sweep("flash_attn_3", imports, chosen(fa3_calls()), args.timeout)
        if not args.skip_before:
            report["before_patch"] += sweep("flash_attn_3", imports,
                                            fa3_before_calls(), args.timeout)
    else:
        report["not_installed"].append("flash_attn_3")
    for kernel, module in (("flash_attn", "flash_attn"), ("sageattention", "sageattention"),
                           ("flashmla", "flash_mla"), ("deepep", "deep_ep")):
        if not importlib.util.find_spec(module):
            report["not_installed"].append(kernel)
    failures = [r for r in report["boundary"] if r["outcome"] not in GOOD]
    report["summary"] = {
        "calls": len(report["boundary"]),
        "ran_correct": sum(r["outcome"] == "ran-correct" for r in report["boundary"]),
        "raised": sum(r["outcome"] == "raised" for r in report["boundary"]),
        "failures": len(failures),
        "crashes_before_patch": sum(r["outcome"] == "crashed" for r in report["before_patch"]),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report["summary"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
