"""The calls of the boundary sweep (scripts/boundary_sweep.py), kernel by kernel.

Each call is ``(name, head_size, setup)``: ``setup`` is Python source run in a child process after
the shared PRELUDE and the kernel's import line; it defines ``call()`` and, where the result can
be judged, ``check(result) -> (ok, detail)`` (harness_boundary.py runs it). Every tolerance rule
is the kernel's own:

* FlashAttention 2 and 3: upstream's (hopper/test_flash_attn.py, tests/test_flash_attn.py):
  max|out - ref| <= 2 * max|pt - ref| + atol (3x for gradients), ``ref`` the same math in
  float32, ``pt`` in the input dtype.
* FlashMLA: its tests' ``check_is_allclose`` (tests/kernelkit/compare.py): every element within
  an absolute OR a relative tolerance, NaN/inf in the same places, a cosine difference limit;
  the limits of tests/test_flash_mla_dense_decoding.py and test_flash_mla_sparse_prefill.py (the
  wizard's adapter resources/verify/adapters/flashmla.py uses the same).
* SageAttention (quantized): the wizard's adapter's measures and limits (cosine similarity,
  relative L1 of the whole output and of the worst query row; resources/verify/adapters/
  sageattention.py), against float32 attention from the same inputs.
* DeepEP: the wizard's adapter's reference (plain PyTorch collectives; exact for dispatch).

With KSW_SWEEP_DEVICE=cpu (the wizard's own tests, against stand-ins in tests/data/
sweep_standins) the same calls run on the CPU; sequences longer than 1,000 tokens are cut to a
quarter there (4097 -> 1025), so that the tests stay small.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "resources" / "verify"))

from adapters import flashmla as _flashmla_adapter  # noqa: E402
from adapters import sageattention as _sage_adapter  # noqa: E402

# Shared by every call: inputs, the float reference and the tolerance rules.
PRELUDE = '''
import math, os, torch
torch.manual_seed(0)
dev = torch.device(os.environ.get("KSW_SWEEP_DEVICE", "cuda"))  # "cpu": the tests' stand-ins
if dev.type == "cuda" and getattr(torch.cuda, "_is_in_bad_fork", lambda: False)():
    # else every call would raise "Cannot re-initialize CUDA in forked subprocess" and pass
    raise RuntimeError("the sweep's parent process started CUDA before forking: no call can "
                       "use the GPU (a problem of the sweep, not of the kernel)")
def sync():
    if dev.type == "cuda":
        torch.cuda.synchronize()
def tokens(n):
    # the sizes of the GPU run; on the CPU (the wizard's tests) long sequences are cut
    return n if dev.type == "cuda" or n <= 1000 else n // 4 + 1
def t(*shape, dtype=torch.bfloat16, grad=False):
    x = torch.randn(*shape, device=dev, dtype=torch.float32).to(dtype)
    return x.requires_grad_(grad) if grad else x
def attn(q, k, v, causal=False, window=(-1, -1), softcap=0.0, upcast=True, keep=None, p=0.0,
         align="bottom_right"):
    # q (b, sq, hq, d), k (b, sk, hk, d), v (b, sk, hk, dv) -> (b, sq, hq, dv); keep: the
    # dropout mask (b, hq, sq, sk), True where kept
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
    shift = sk - sq if align == "bottom_right" else 0
    i = torch.arange(sq, device=q.device).view(-1, 1) + shift
    j = torch.arange(sk, device=q.device).view(1, -1)
    mask = torch.zeros(sq, sk, dtype=torch.bool, device=q.device)
    if causal:
        mask |= j > i
    if window[0] >= 0:
        mask |= j < i - window[0]
    if window[1] >= 0:
        mask |= j > i + window[1]
    s = s.masked_fill(mask, float("-inf"))
    p_ = torch.softmax(s.float(), dim=-1).nan_to_num(0.0)
    if keep is not None:
        p_ = p_.masked_fill(~keep, 0.0) / (1.0 - p)
    out = torch.einsum("bhqk,bkhd->bqhd", p_.to(v.dtype), v)
    return out if upcast else out.to(dtype)
def rule(out, ref, pt, factor=2.0, name="out"):
    # FlashAttention's rule
    out, ref, pt = out.float(), ref.float(), pt.float()
    if out.shape != ref.shape:
        return False, "%s has shape %s, expected %s" % (name, tuple(out.shape), tuple(ref.shape))
    if not torch.isfinite(out).all():
        return False, "%s has %d non-finite values" % (name, int((~torch.isfinite(out)).sum()))
    atol = 2 * (ref + 0.3 - 0.3 - ref).abs().max().item() + 1e-5 if ref.numel() else 1e-5
    if not out.numel():
        return True, "%s is empty, as expected" % name
    err, pterr = (out - ref).abs().max().item(), (pt - ref).abs().max().item()
    ok = err <= factor * pterr + atol
    return ok, "%s max err %.3g vs PyTorch %.3g (limit %.3g)" % (name, err, pterr,
                                                                 factor * pterr + atol)
def both(*results):
    ok = all(r[0] for r in results)
    return ok, "; ".join(r[1] for r in results)
def close(name, ans, ref, abs_tol, rel_tol, cos_tol=None):
    # FlashMLA's rule (its tests' kernelkit check_is_allclose)
    if tuple(ans.shape) != tuple(ref.shape):
        return False, "%s has shape %s, expected %s" % (name, tuple(ans.shape), tuple(ref.shape))
    ans, ref = ans.detach().float().clone(), ref.detach().float().clone()
    for val in (float("inf"), float("-inf"), float("nan")):
        rm = torch.isnan(ref) if val != val else ref == val
        am = torch.isnan(ans) if val != val else ans == val
        if not torch.equal(rm, am):
            return False, "%s: %d %s values in the kernel's result, %d in the reference" % (
                name, int(am.sum()), val, int(rm.sum()))
        ref[rm] = 0.0
        ans[am] = 0.0
    a, r = ans.double(), ref.double()
    denom = (a * a + r * r).sum().item()
    cos_diff = 0.0 if (r * r).sum().item() < 1e-12 else 1 - 2 * (a * r).sum().item() / denom
    abs_err = (ans - ref).abs()
    rel_err = abs_err / (ref.abs() + 1e-6)
    bad = ~((abs_err < abs_tol) | (rel_err < rel_tol))
    ok = not bool(bad.any()) and (cos_tol is None or cos_diff <= cos_tol)
    return ok, "%s: %d of %d elements outside abs %.3g / rel %.3g (max abs err %.3g), cosine " \\
        "diff %.2g (limit %s)" % (name, int(bad.sum()), ans.numel(), abs_tol, rel_tol,
                                  abs_err.max().item() if ans.numel() else 0.0, cos_diff,
                                  "none" if cos_tol is None else "%.2g" % cos_tol)
SAGE_COS_MIN, SAGE_REL_L1_MAX, SAGE_ROW_L1_MAX = @SAGE_LIMITS@
def sage_rule(out, ref):
    # SageAttention's measures (the wizard's adapter): out and ref in one layout, head_dim last
    if tuple(out.shape) != tuple(ref.shape):
        return False, "out has shape %s, expected %s" % (tuple(out.shape), tuple(ref.shape))
    o, r = out.detach().double(), ref.detach().double()
    if not torch.isfinite(o).all():
        bad = int((~torch.isfinite(o)).sum())
        return False, "out has %d non-finite values (a black image)" % bad
    diff = (o - r).abs()
    ref_l1 = r.abs().sum().item()
    rel_l1 = diff.sum().item() / ref_l1 if ref_l1 > 0 else diff.sum().item()
    norms = o.norm().item() * r.norm().item()
    cos = (o * r).sum().item() / norms if norms > 0 else (1.0 if ref_l1 == 0 else 0.0)
    worst = (diff.sum(dim=-1) / r.abs().sum(dim=-1).clamp_min(1e-12)).max().item()
    ok = cos >= SAGE_COS_MIN and rel_l1 <= SAGE_REL_L1_MAX and worst <= SAGE_ROW_L1_MAX
    return ok, "cosine %.5f (min %g), relative L1 %.4f (max %g), worst row %.4f (max %g)" % (
        cos, SAGE_COS_MIN, rel_l1, SAGE_REL_L1_MAX, worst, SAGE_ROW_L1_MAX)
'''.replace("@SAGE_LIMITS@", repr((_sage_adapter.COS_MIN, _sage_adapter.REL_L1_MAX,
                                         _sage_adapter.ROW_L1_MAX)))


# ---------------------------------------------------------------------------------------------
# FlashAttention 3 (flash_attn_interface) and FlashAttention 2 (flash_attn): the same API shape
# ---------------------------------------------------------------------------------------------


def fa_fwd(d, dv=None, causal=False, dtype="torch.bfloat16", extra="", window="(-1, -1)",
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


def fa_fwd_bwd(d, causal=True, dtype="torch.bfloat16"):
    return f'''
q, k, v = (t(2, 257, 4, {d}, dtype={dtype}, grad=True) for _ in range(3))
g = t(2, 257, 4, {d}, dtype={dtype})
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


FA_VARLEN_EMPTY = '''
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


def fa_kvcache(d=128, paged=False, append=False, splits=1, table_kw="page_table", page=64):
    """``table_kw``: FlashAttention 3 calls the block table ``page_table``, 2 ``block_table``
    (whose pages must hold a multiple of 256 tokens)."""
    return f'''
b, h, page = 2, 4, {page}
lens = torch.tensor([60, 100], dtype=torch.int32, device=dev)
q = t(b, 1, h, {d})
if {paged}:
    kc, vc = t(6, page, h, {d}), t(6, page, h, {d})
    table = torch.tensor([[4, 1], [0, 5]], dtype=torch.int32, device=dev)
    kfull = kc[table].reshape(b, -1, h, {d}).clone()
    vfull = vc[table].reshape(b, -1, h, {d}).clone()
else:
    kc, vc = t(b, 128, h, {d}), t(b, 128, h, {d})
    table = None
    kfull, vfull = kc.clone(), vc.clone()
kn = vn = None
if {append}:
    kn, vn = t(b, 1, h, {d}), t(b, 1, h, {d})
def call():
    return fa.flash_attn_with_kvcache(q, kc, vc, k=kn, v=vn, cache_seqlens=lens,
                                      {table_kw}=table, num_splits={splits})
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
        rows.append((f"flash_attn_func bf16 head {d}", d, fa_fwd(d)))
    rows.append(("flash_attn_func fp16 head 128 causal", 128,
                 fa_fwd(128, causal=True, dtype="torch.float16")))
    for d in (64, 128, 192):
        rows.append((f"flash_attn_func forward+backward head {d} causal", d, fa_fwd_bwd(d)))
    for d, dv in ((192, 128), (64, 256), (64, 512), (128, 64)):
        rows.append((f"flash_attn_func q/k head {d}, v head {dv}", d, fa_fwd(d, dv)))
    rows.append(("flash_attn_func softcap 30", 128, fa_fwd(128, softcap="30.0")))
    rows.append(("flash_attn_func sliding window (64, 0)", 128, fa_fwd(128, window="(64, 0)")))
    rows.append(("flash_attn_func GQA pack_gqa=True", 128,
                 fa_fwd(128, h=8, hk=2, extra=", pack_gqa=True")))
    rows.append(("flash_attn_func GQA 8/2 heads", 128, fa_fwd(128, h=8, hk=2, causal=True)))
    rows.append(("flash_attn_func num_splits=4", 128, fa_fwd(128, extra=", num_splits=4")))
    rows.append(("flash_attn_func FP8 e4m3", 128, fa_fwd(
        128, dtype="torch.float8_e4m3fn").replace("def check(out):", "def _unused(out):")))
    rows.append(("flash_attn_varlen_func with an empty sequence, forward+backward", 128,
                 FA_VARLEN_EMPTY))
    rows.append(("flash_attn_with_kvcache", 128, fa_kvcache()))
    rows.append(("flash_attn_with_kvcache paged KV", 128, fa_kvcache(paged=True)))
    rows.append(("flash_attn_with_kvcache append k/v", 128, fa_kvcache(append=True)))
    rows.append(("flash_attn_with_kvcache num_splits=4", 128, fa_kvcache(splits=4)))
    rows.append(("flash_attn_func head 59 (not a multiple of 8)", 59, fa_fwd(59)))
    rows.append(("flash_attn_func head 264 (above 256)", 264, fa_fwd(264)))
    return rows


UNGUARD_FA3 = "\nfa._ksw_check = lambda *a, **k: None\n"


def fa3_before_calls():
    """The left-out calls with the wizard's checks switched off: the extension as shipped."""
    return [(f"{call} (extension without the wizard's checks)", d, setup + UNGUARD_FA3)
            for call, d, setup in fa3_calls()
            if call.endswith(("head 160", "head 192", "head 256", "softcap 30", "(64, 0)",
                              "num_splits=4", "paged KV", "e4m3", "(not a multiple of 8)"))]


FA2_DROPOUT = '''
p = 0.17
q, k, v = (t(2, 257, 4, 128) for _ in range(3))
def call():
    return fa.flash_attn_func(q, k, v, dropout_p=p, return_attn_probs=True)
def check(res):
    out, lse, s_dmask = res
    # upstream's test: the kernel's own dropout mask is where the returned S is negative
    keep = s_dmask[:, :, :257, :257] >= 0
    dropped = 1.0 - keep.float().mean().item()
    ref = attn(q, k, v, keep=keep, p=p)
    pt = attn(q, k, v, keep=keep, p=p, upcast=False)
    ok, detail = rule(out, ref, pt)
    fraction_ok = abs(dropped - p) < 0.01
    return ok and fraction_ok, "%s; dropped %.4f of the probabilities (p %.2f)" % (
        detail, dropped, p)
'''


def fa2_calls():
    """(call, head_size, setup) for FlashAttention 2 (flash_attn; its interface pads head
    sizes that are not multiples of 8 and its extension refuses sizes above 256)."""
    rows = []
    for d in (32, 64, 96, 128, 160, 192, 224, 256):
        rows.append((f"flash_attn_func bf16 head {d}", d, fa_fwd(d)))
    rows.append(("flash_attn_func bf16 head 59 (padded to 64 by the interface)", 59, fa_fwd(59)))
    rows.append(("flash_attn_func fp16 head 128 causal", 128,
                 fa_fwd(128, causal=True, dtype="torch.float16")))
    for d in (64, 128, 256):
        rows.append((f"flash_attn_func forward+backward head {d} causal", d, fa_fwd_bwd(d)))
    rows.append(("flash_attn_func forward+backward fp16 head 96 causal", 96,
                 fa_fwd_bwd(96, dtype="torch.float16")))
    rows.append(("flash_attn_func head 512 (above 256)", 512, fa_fwd(512)))
    rows.append(("flash_attn_func head 260 (above 256 once padded)", 260, fa_fwd(260)))
    rows.append(("flash_attn_func q/k head 128, v head 64", 128, fa_fwd(128, 64)))
    rows.append(("flash_attn_func dropout 0.17 (checked with the kernel's dropout mask)", 128,
                 FA2_DROPOUT))
    # scores of about one standard deviation: a cap of 2 changes them visibly (30 would not)
    rows.append(("flash_attn_func softcap 2", 128, fa_fwd(128, softcap="2.0")))
    rows.append(("flash_attn_func sliding window (64, 0)", 128, fa_fwd(128, window="(64, 0)")))
    rows.append(("flash_attn_func sliding window (32, 32)", 128,
                 fa_fwd(128, window="(32, 32)")))
    rows.append(("flash_attn_func GQA 8/2 heads causal", 128,
                 fa_fwd(128, h=8, hk=2, causal=True)))
    rows.append(("flash_attn_varlen_func with an empty sequence, forward+backward", 128,
                 FA_VARLEN_EMPTY))
    kv = {"table_kw": "block_table"}
    rows.append(("flash_attn_with_kvcache", 128, fa_kvcache(**kv)))
    rows.append(("flash_attn_with_kvcache paged KV (256-token pages)", 128,
                 fa_kvcache(paged=True, page=256, **kv)))
    rows.append(("flash_attn_with_kvcache paged KV (16-token pages)", 128,
                 fa_kvcache(paged=True, page=16, **kv)))
    rows.append(("flash_attn_with_kvcache append k/v, paged", 128,
                 fa_kvcache(paged=True, append=True, page=256, **kv)))
    rows.append(("flash_attn_with_kvcache num_splits=4", 128, fa_kvcache(splits=4, **kv)))
    rows.append(("flash_attn_with_kvcache head 64", 64, fa_kvcache(d=64, **kv)))
    return rows


# ---------------------------------------------------------------------------------------------
# FlashMLA (flash_mla)
# ---------------------------------------------------------------------------------------------

_DECODE = _flashmla_adapter.DECODE_TOL


def mla_decode(b=2, s_q=1, mean_sk=140, h_q=16, h_kv=1, varlen=False, causal=False,
               dtype="torch.bfloat16", d=576, dv=512, block=64, zero_len=False):
    """Dense MLA decoding with a paged KV cache, as upstream's
    tests/test_flash_mla_dense_decoding.py makes its data: what lies past a sequence's end is
    NaN and unused block-table entries are invalid, so a kernel that reads them shows it."""
    out_tol, lse_tol = _DECODE["out"], _DECODE["lse"]
    return f'''
import random
rng = random.Random(0)
b, s_q, h_q, h_kv, d, dv, block = {b}, {s_q}, {h_q}, {h_kv}, {d}, {dv}, {block}
lens = [max(int(rng.normalvariate({mean_sk}, {mean_sk} / 2)), s_q) if {varlen} else {mean_sk}
        for _ in range(b)]
if {zero_len}:
    lens[0] = 0
per_seq = max(1, int(math.ceil(max(lens) / 256.0)) * 256 // block)
table = torch.randperm(b * per_seq).to(torch.int32).view(b, per_seq)
q = (torch.randn(b, s_q, h_q, d) / 10).clamp(-1, 1)
kc = (torch.randn(b * per_seq, block, h_kv, d) / 10).clamp(-1, 1)
used = []
for i, n in enumerate(lens):
    nb = (n + block - 1) // block
    used.append(table[i, :nb].tolist())
    kc[table[i, nb:].long()] = float("nan")
    if n % block:
        kc[int(table[i, nb - 1]), n % block:] = float("nan")
    table[i, nb:] = 2147480000
q, kc = q.to(dev, {dtype}), kc.to(dev, {dtype})
table = table.to(dev)
seqlens = torch.tensor(lens, dtype=torch.int32, device=dev)
try:
    meta = flash_mla.get_mla_metadata()  # FlashMLA >= 2025-09: lazy, no arguments
except TypeError:
    meta = flash_mla.get_mla_metadata(seqlens, s_q * h_q // h_kv, h_kv)
def call():
    return flash_mla.flash_mla_with_kvcache(q, kc, table, seqlens, dv, meta[0], meta[1],
                                            causal={causal})
def check(res):
    out, lse = res[0], res[1]
    outs, lses = [], []
    for i, n in enumerate(lens):
        idx = torch.tensor(used[i], dtype=torch.long, device=dev)
        kv = kc[idx].reshape(-1, h_kv, d)[:n].float().transpose(0, 1)
        kv = kv.repeat_interleave(h_q // h_kv, dim=0)
        qi = q[i].float().transpose(0, 1)
        s = torch.matmul(qi, kv.transpose(-2, -1)) / math.sqrt(d)
        if {causal} and s_q > 1:
            ii = torch.arange(s_q, device=dev).view(-1, 1) + (n - s_q)
            jj = torch.arange(n, device=dev).view(1, -1)
            s = s.masked_fill(jj > ii, float("-inf"))
        l = s.logsumexp(dim=-1)
        o = torch.matmul(torch.softmax(s, dim=-1).nan_to_num(0.0), kv[..., :dv])
        o[(l == float("-inf")).unsqueeze(-1).expand_as(o)] = 0.0  # no key: 0, lse +inf
        l[l == float("-inf")] = float("inf")
        outs.append(o.transpose(0, 1))
        lses.append(l)
    ref_out, ref_lse = torch.stack(outs).to({dtype}), torch.stack(lses)
    return both(close("out", out, ref_out, {out_tol["abs"]!r}, {out_tol["rel"]!r},
                      {out_tol["cos"]!r}),
                close("lse", lse, ref_lse, {lse_tol["abs"]!r}, {lse_tol["rel"]!r}))
'''


def mla_sparse(s_q=62, s_kv=592, topk=128, h_q=128, d_qk=576, d_v=512):
    """Sparse MLA prefill (flash_mla_sparse_fwd), data and reference as upstream's
    tests/lib.py and tests/ref.py: indices past s_kv are invalid (the last ones when
    topk > s_kv)."""
    return f'''
s_q, s_kv, topk, h_q, d_qk, d_v = {s_q}, {s_kv}, {topk}, {h_q}, {d_qk}, {d_v}
q = (torch.randn(s_q, h_q, d_qk) / 10).to(dev, torch.bfloat16)
kv = (torch.randn(s_kv, 1, d_qk) / 10).to(dev, torch.bfloat16)
rand = torch.rand(s_q, max(s_kv, topk))
rand[:, s_kv:] = float("-inf")
idx = rand.topk(topk, dim=-1).indices.to(torch.int32)
idx[idx >= s_kv] = -1
idx = idx.view(s_q, 1, topk).to(dev)
scale = d_qk ** -0.5
def call():
    return flash_mla.flash_mla_sparse_fwd(q, kv, idx, scale, d_v)
def check(res):
    out, max_logits, lse = res[0], res[1], res[2]
    ind = idx.squeeze(1).long()
    invalid = (ind < 0) | (ind >= s_kv)
    ind = ind.masked_fill(invalid, 0)
    g = kv.squeeze(1).float()[ind.flatten()].view(s_q, topk, d_qk)
    p = torch.matmul(q.float(), g.transpose(1, 2)) * scale
    p[invalid.unsqueeze(1).expand_as(p)] = float("-inf")
    ref_lse = p.logsumexp(dim=-1)
    ref_max = p.max(dim=-1).values
    lse_o = ref_lse.clone()
    lse_o[lse_o == float("-inf")] = float("inf")
    ref_out = torch.matmul(torch.exp(p - lse_o.unsqueeze(-1)), g[..., :d_v])
    ref_lse[ref_lse == float("-inf")] = float("inf")
    return both(close("out", out.float(), ref_out, 8e-4, 3.01 / 128, 7e-6),
                close("max_logits", max_logits, ref_max, 1e-6, 2.01 / 65536),
                close("lse", lse, ref_lse, 1e-6, 2.01 / 65536))
'''


_PREFILL = _flashmla_adapter.PREFILL_TOL["out"]


def mla_dense_prefill(d_qk=192, d_v=128, backward=False):
    """The dense MHA prefill (SM100 kernels only): on SM90 the wizard's recipe patch
    sm100-prefill-guard makes it raise. Judged by FlashMLA's prefill tolerances where it runs."""
    tol = f'{_PREFILL["abs"]!r}, {_PREFILL["rel"]!r}, {_PREFILL["cos"]!r}'
    head = f'''
lens = [100, 257]
cu = torch.tensor([0, 100, 357], dtype=torch.int32, device=dev)
q = (torch.randn(357, 8, {d_qk}) * 0.1).to(dev, torch.bfloat16)
k = (torch.randn(357, 8, {d_qk}) * 0.1).to(dev, torch.bfloat16)
v = (torch.randn(357, 8, {d_v}) * 0.1).to(dev, torch.bfloat16)
do = (torch.randn(357, 8, {d_v}) * 0.1).to(dev, torch.bfloat16)
def reference():
    qf, kf, vf = (x.float().requires_grad_() for x in (q, k, v))
    outs, lses = [], []
    for i in range(2):
        sl = slice(int(cu[i]), int(cu[i + 1]))
        s = torch.matmul(qf[sl].transpose(0, 1), kf[sl].transpose(0, 1).transpose(-2, -1))
        s = s * {d_qk} ** -0.5
        n = s.shape[-1]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=dev).triu(1), float("-inf"))
        lses.append(s.logsumexp(dim=-1).transpose(0, 1))
        outs.append(torch.matmul(torch.softmax(s, dim=-1), vf[sl].transpose(0, 1)).transpose(0, 1))
    out, lse = torch.cat(outs), torch.cat(lses)
    grads = torch.autograd.grad(out, (qf, kf, vf), do.float())
    return out.detach(), lse.detach(), grads
'''
    if not backward:
        return head + f'''
def call():
    return flash_mla.flash_attn_varlen_func(q, k, v, cu, cu, 257, 257, causal=True)
def check(res):
    out, lse, _ = reference()
    return both(close("out", res[0], out, {tol}), close("lse", res[1], lse, 1e-6, 2.01 / 65536))
'''
    return head + f'''
ref_out, ref_lse, ref_grads = reference()
# the forward's own layout: lse (total, heads) stored heads first
o_in, lse_in = ref_out.to(torch.bfloat16), ref_lse.t().contiguous().t()
def call():
    return fmi._flash_attn_varlen_backward(do, q, k, v, o_in, lse_in, cu, cu, 257, 257,
                                           causal=True)
def check(res):
    return both(*(close(n, a, r, {tol}) for n, a, r in zip(("dq", "dk", "dv"), res, ref_grads)))
'''


def flashmla_calls():
    """(call, head_size, setup) for FlashMLA on SM90 (Hopper): dense decoding at its sizes,
    the sizes it has no kernel for, sparse prefill, and the dense prefill that only SM100 has."""
    rows = [
        ("flash_mla_with_kvcache decode bf16, 16 heads, 140 cached tokens", 576, mla_decode()),
        ("flash_mla_with_kvcache decode bf16 causal, 2 query tokens, 64 heads, varlen", 576,
         mla_decode(b=4, s_q=2, mean_sk=600, h_q=64, varlen=True, causal=True)),
        ("flash_mla_with_kvcache decode bf16, 128 heads, 4096 cached tokens", 576,
         mla_decode(b=1, mean_sk=4096, h_q=128)),
        ("flash_mla_with_kvcache decode fp16 causal, 2 query tokens", 576,
         mla_decode(s_q=2, mean_sk=300, causal=True, dtype="torch.float16")),
        ("flash_mla_with_kvcache decode bf16, 2 kv heads (GQA 32/2)", 576,
         mla_decode(b=3, s_q=2, mean_sk=300, h_q=32, h_kv=2, varlen=True)),
        ("flash_mla_with_kvcache decode, one sequence with no cached tokens", 576,
         mla_decode(b=4, s_q=2, mean_sk=300, h_q=16, varlen=True, zero_len=True)),
        ("flash_mla_with_kvcache decode, head size 512 (the check lets it through)", 512,
         mla_decode(d=512)),
        ("flash_mla_with_kvcache decode, head size 128, v 128", 128,
         mla_decode(d=128, dv=128)),
        ("flash_mla_with_kvcache decode, v head size 256", 576, mla_decode(dv=256)),
        ("flash_mla_with_kvcache decode, 32-token pages", 576, mla_decode(block=32)),
        ("flash_mla_with_kvcache decode, 3 query heads over 2 kv heads", 576,
         mla_decode(h_q=3, h_kv=2)),
        ("flash_mla_sparse_fwd bf16, 128 heads, top-128 of 592", 576, mla_sparse()),
        ("flash_mla_sparse_fwd bf16, 64 heads, head 512, top-128 of 95 (invalid indices)", 512,
         mla_sparse(s_q=213, s_kv=95, h_q=64, d_qk=512)),
        ("flash_mla_sparse_fwd 32 heads", 576, mla_sparse(h_q=32)),
        ("flash_mla_sparse_fwd head size 256", 256, mla_sparse(d_qk=256)),
        ("flash_attn_varlen_func dense MHA prefill forward, q/k head 192, v head 128", 192,
         mla_dense_prefill()),
        ("dense MHA prefill backward (_flash_attn_varlen_backward), head 128", 128,
         mla_dense_prefill(128, 128, backward=True)),
    ]
    return rows


UNGUARD_FLASHMLA = "\nfmi._ksw_need_sm100 = lambda *a, **k: None\n"


def flashmla_before_calls():
    """The SM100-only dense prefill with the recipe's check switched off (patch
    sm100-prefill-guard): what a user met without it."""
    return [(f"{call} (without the wizard's check)", d, setup + UNGUARD_FLASHMLA)
            for call, d, setup in flashmla_calls() if "dense MHA prefill" in call]


# ---------------------------------------------------------------------------------------------
# SageAttention 2 (sageattention)
# ---------------------------------------------------------------------------------------------


def sage(fn="sageattn", d=128, sq=1000, sk=None, causal=False, dtype="torch.float16",
         layout="HND", b=2, h=4, hk=None, extra=""):
    """One SageAttention call against float32 attention from the same inputs. Where the query
    and key lengths differ under a causal mask (upstream: causal is 'only applicable when
    qo_len == kv_len'), either alignment of the mask counts as right; the message says which
    one the kernel used."""
    sk = sk or sq
    hk = hk or h
    return f'''
sq, sk = tokens({sq}), tokens({sk})
def shape(heads, n):
    return ({b}, heads, n, {d}) if "{layout}" == "HND" else ({b}, n, heads, {d})
q, k, v = t(*shape({h}, sq), dtype={dtype}), t(*shape({hk}, sk), dtype={dtype}), \\
    t(*shape({hk}, sk), dtype={dtype})
def nhd(x):
    return x.transpose(1, 2) if "{layout}" == "HND" else x
def call():
    return sa.{fn}(q, k, v, tensor_layout="{layout}", is_causal={causal}{extra})
def check(out):
    out = out[0] if isinstance(out, (tuple, list)) else out
    if out.dtype != q.dtype:
        return False, "out is %s, the inputs %s" % (out.dtype, q.dtype)
    ref = attn(nhd(q), nhd(k), nhd(v), causal={causal})
    ok, detail = sage_rule(nhd(out), ref)
    if {causal} and sq != sk:
        ok2, detail2 = sage_rule(nhd(out), attn(nhd(q), nhd(k), nhd(v), causal=True,
                                                align="top_left"))
        if ok2 and not ok:
            return True, "causal mask aligned top-left (as torch SDPA's is_causal): " + detail2
        return ok, ("causal mask aligned bottom-right (as FlashAttention): " if ok else
                    "neither alignment of the causal mask: ") + detail
    return ok, detail
'''


SAGE_VARLEN = '''
lens = [100, 257, 1, 77]
cu = torch.tensor([0, 100, 357, 358, 435], dtype=torch.int32, device=dev)
q, k, v = (t(435, 4, 128, dtype=torch.float16) for _ in range(3))
def call():
    return sa.sageattn_varlen(q, k, v, cu, cu, 257, 257, is_causal=True)
def check(out):
    parts = []
    for i in range(len(lens)):
        sl = slice(int(cu[i]), int(cu[i + 1]))
        parts.append(attn(q[sl].unsqueeze(0), k[sl].unsqueeze(0), v[sl].unsqueeze(0),
                          causal=True)[0])
    return sage_rule(out, torch.cat(parts))
'''


def sage_calls():
    """(call, head_size, setup) for SageAttention 2: sageattn (which picks the kernel for the
    GPU: on SM90 the sm90 entry point), the sm90 entry point itself and the portable Triton
    one; head sizes 64/96/128 (96 is padded to 128) and 256 (which it refuses), odd lengths,
    causal and not, fp16/bf16, HND/NHD, query and key lengths that differ, GQA, varlen."""
    rows = []
    for d in (64, 96, 128):
        rows.append((f"sageattn fp16 HND causal head {d}, 1000 tokens", d,
                     sage(d=d, causal=True)))
        rows.append((f"sageattn bf16 NHD head {d}, 1000 tokens", d,
                     sage(d=d, dtype="torch.bfloat16", layout="NHD")))
    rows.append(("sageattn head 256", 256, sage(d=256)))
    for n in (1, 77, 4097):
        rows.append((f"sageattn fp16 HND head 128, {n} token{'s' * (n > 1)}", 128,
                     sage(sq=n, b=1)))
    rows.append(("sageattn bf16 NHD causal head 64, 77 tokens", 64,
                 sage(d=64, sq=77, causal=True, dtype="torch.bfloat16", layout="NHD")))
    rows.append(("sageattn bf16 HND causal head 128, 4097 tokens", 128,
                 sage(sq=4097, b=1, causal=True, dtype="torch.bfloat16")))
    rows.append(("sageattn fp16 NHD head 128, 77 queries over 1000 keys", 128,
                 sage(sq=77, sk=1000, layout="NHD")))
    rows.append(("sageattn fp16 HND causal head 128, 77 queries over 1000 keys", 128,
                 sage(sq=77, sk=1000, causal=True)))
    rows.append(("sageattn bf16 HND head 128, 1 query over 4097 keys (decoding)", 128,
                 sage(sq=1, sk=4097, b=1, dtype="torch.bfloat16")))
    rows.append(("sageattn fp16 HND causal GQA 8/2 heads, head 128", 128,
                 sage(h=8, hk=2, causal=True)))
    rows.append(("sageattn float32 inputs", 128, sage(dtype="torch.float32")))
    sm90 = "sageattn_qk_int8_pv_fp8_cuda_sm90"
    for d in (64, 96, 128):
        rows.append((f"{sm90} fp16 HND causal head {d}, 1000 tokens", d,
                     sage(sm90, d=d, causal=True)))
    rows.append((f"{sm90} bf16 NHD head 128, 4097 tokens", 128,
                 sage(sm90, sq=4097, b=1, dtype="torch.bfloat16", layout="NHD")))
    rows.append((f"{sm90} head 256", 256, sage(sm90, d=256)))
    tri = "sageattn_qk_int8_pv_fp16_triton"
    rows.append((f"{tri} fp16 HND causal head 128, 1000 tokens", 128,
                 sage(tri, causal=True)))
    rows.append((f"{tri} bf16 NHD head 64, 77 tokens", 64,
                 sage(tri, d=64, sq=77, dtype="torch.bfloat16", layout="NHD")))
    rows.append((f"{tri} head 256", 256, sage(tri, d=256)))
    rows.append(("sageattn_varlen fp16 causal head 128, lengths 100/257/1/77", 128, SAGE_VARLEN))
    return rows


# ---------------------------------------------------------------------------------------------
# DeepEP (deep_ep): one call = 2 processes (one per GPU), spawned by the call's own process
# ---------------------------------------------------------------------------------------------


def deepep(shape, timeout_s):
    """Dispatch and combine over 2 ranks through the wizard's adapter (its worker and its
    reference), with ``shape`` = (tokens per rank, hidden, experts per rank, top-k). A rank that
    raised makes the call raise; a rank that died or hung is reported as such."""
    world_timeout = max(10.0, timeout_s - 30.0)
    return f'''
import adapters.deepep as ad
ad.WORLD_TIMEOUT_S = {world_timeout!r}  # the world is stopped before the sweep stops this call
class H:
    seed, quick = 0, True
def died(ranks):
    for r in ranks:
        text = str(r.get("error") or "")
        if text.startswith("a process died"):
            return "crashed", "rank %d: %s" % (r["rank"], text)
        if "did not finish" in text:
            return "hung", "rank %d: %s" % (r["rank"], text)
    return None
def call():
    ranks = ad.run_world(H, 2, dev.type, {tuple(shape)!r}, False)
    errors = [r for r in ranks if r.get("error")]
    if errors and not died(ranks):
        first = min(errors, key=lambda r: r.get("error_time", float("inf")))
        raise RuntimeError("process %d of 2: %s" % (first["rank"], first["error"]))
    return ranks
def check(ranks):
    dead = died(ranks)
    if dead:
        return dead
    results = [(label, ad.summarize(2, ranks, name)) for name, label in ad.CHECKS]
    bad = ["%s: %s" % (label, r[1]) for label, r in results if r[0] != "pass"]
    if bad:
        return False, "; ".join(bad)
    return True, "layout, dispatch, combine and the backward of combine equal the reference"
'''


def deepep_calls(timeout_s, cpu=False):
    """(call, None, setup) for DeepEP's intranode dispatch and combine over 2 GPUs (on the CPU,
    the tests' stand-in over 2 gloo processes, with smaller sizes)."""
    tokens, hidden, experts, topk = (96, 128, 4, 4) if cpu else (1024, 4096, 16, 8)
    odd = 136 if cpu else 7000
    return [
        (f"dispatch+combine, 2 GPUs, hidden {hidden}, {2 * experts} experts, top-{topk}", None,
         deepep((tokens, hidden, experts, topk), timeout_s)),
        (f"dispatch+combine, hidden {odd} (a multiple of 8, not of 128)", None,
         deepep((tokens, odd, experts, topk), timeout_s)),
        ("dispatch+combine, hidden 100 (not a multiple of 8)", None,
         deepep((tokens, 100, experts, topk), timeout_s)),
        ("dispatch+combine, 1025 experts per GPU (above DeepEP's 1024)", None,
         deepep((tokens, hidden, 1025, topk), timeout_s)),
    ] + ([] if cpu else [
        # the NVLink dispatch's staging buffer: bf16 rows up to 8,176 fit, 8,192 does not
        # (deepseek-ai/DeepEP issue 722)
        ("dispatch+combine, hidden 8176 (the largest bf16 row the NVLink dispatch moves)", None,
         deepep((tokens, 8176, experts, topk), timeout_s)),
        ("dispatch+combine, hidden 8192 (one row too large for the NVLink dispatch)", None,
         deepep((tokens, 8192, experts, topk), timeout_s)),
    ])
