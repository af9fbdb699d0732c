"""A stand-in for FlashAttention 3's ``flash_attn_interface`` in plain torch (runs on the CPU),
with its signatures at upstream 0251105 (no dropout argument; ``return_attn_probs`` adds the
log-sum-exp): q (batch, seqlen, heads, head_dim), fewer kv heads allowed (GQA), causal mask
aligned bottom-right. KSW_FA3_STANDIN_GQA=repeat plants the classic GQA bug (kv heads tiled
instead of grouped).

Like the wizard's patched interface (recipe patch fa3-build-guard), a call that needs what the
compact build left out (another head size, softcap, sliding windows, split-KV, FP8, paged KV)
raises an error that names it; KSW_FA3_STANDIN_CRASH=1 plants the unpatched upstream behaviour
instead: such a call kills the process with a segmentation fault."""

import math
import os
import signal

import flash_attn_3  # noqa: F401  (the real module imports its package, which loads _C)
import torch


def _attention(q, k, v, softmax_scale, causal):
    # q (sq, hq, d), k/v (sk, hk, d) -> (out (sq, hq, d), lse (hq, sq))
    sq, hq, d = q.shape
    sk, hk = k.shape[0], k.shape[1]
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(d)
    if os.environ.get("KSW_FA3_STANDIN_GQA") == "repeat":
        k, v = k.repeat(1, hq // hk, 1), v.repeat(1, hq // hk, 1)
    else:
        k, v = k.repeat_interleave(hq // hk, dim=1), v.repeat_interleave(hq // hk, dim=1)
    s = torch.einsum("qhd,khd->hqk", q.float(), k.float()) * softmax_scale
    if causal:
        i = torch.arange(sq, device=q.device).unsqueeze(1)
        j = torch.arange(sk, device=q.device).unsqueeze(0)
        s = s.masked_fill(j > i + (sk - sq), float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.softmax(s, dim=-1)
    return torch.einsum("hqk,khd->qhd", p, v.float()).to(q.dtype), lse


def _left_out(what):
    if os.environ.get("KSW_FA3_STANDIN_CRASH") == "1":
        os.kill(os.getpid(), signal.SIGSEGV)  # what upstream's extension does
    raise RuntimeError(f"This FlashAttention 3 build has no kernel for {what}: it was built "
                       "with head size 128 only. To use it, build FlashAttention 3's Full "
                       "variant.")


def _check(q, softcap=0.0, window_size=(-1, -1), num_splits=1, page_table=None):
    if q.shape[-1] != 128:  # a compact build: head size 128 only
        _left_out(f"head size {q.shape[-1]}")
    if q.dtype not in (torch.float16, torch.bfloat16):
        _left_out("FP8 (e4m3) inputs")
    if softcap:
        _left_out("softcap")
    if window_size[0] >= 0 or window_size[1] >= 0:
        _left_out("sliding-window (local) attention")
    if num_splits > 1:
        _left_out("split-KV (num_splits > 1)")
    if page_table is not None:
        _left_out("a paged KV cache (page_table)")


def flash_attn_with_kvcache(q, k_cache, v_cache, k=None, v=None, cache_seqlens=None,
                            page_table=None, **kwargs):
    _check(q, page_table=page_table)
    raise NotImplementedError("the stand-in has no KV-cache kernel")


def flash_attn_func(q, k, v, softmax_scale=None, causal=False, qv=None, q_descale=None,
                    k_descale=None, v_descale=None, window_size=(-1, -1), attention_chunk=0,
                    softcap=0.0, num_splits=1, pack_gqa=None, deterministic=False, sm_margin=0,
                    return_attn_probs=False):
    _check(q, softcap, window_size, num_splits)
    parts = [_attention(q[b], k[b], v[b], softmax_scale, causal) for b in range(q.shape[0])]
    out = torch.stack([o for o, _ in parts])
    return (out, torch.stack([lse for _, lse in parts])) if return_attn_probs else out


def flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
                           seqused_q=None, seqused_k=None, softmax_scale=None, causal=False,
                           qv=None, q_descale=None, k_descale=None, v_descale=None,
                           window_size=(-1, -1), attention_chunk=0, softcap=0.0, num_splits=1,
                           pack_gqa=None, deterministic=False, sm_margin=0,
                           return_attn_probs=False):
    if q.shape[-1] != 128:
        raise RuntimeError(f"This flash attention build does not support headdim {q.shape[-1]}")
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    parts = [
        _attention(q[cq[i]:cq[i + 1]], k[ck[i]:ck[i + 1]], v[ck[i]:ck[i + 1]], softmax_scale,
                   causal)[0]
        for i in range(len(cq) - 1)
    ]
    return torch.cat(parts, dim=0)
