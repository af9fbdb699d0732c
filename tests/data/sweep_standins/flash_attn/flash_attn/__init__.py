"""A stand-in for FlashAttention 2 (``flash_attn``, v2.8.3) in plain torch, for the boundary
sweep's tests on the CPU: ``flash_attn_func`` (dropout with ``return_attn_probs``, softcap,
sliding windows, GQA, backward through autograd), ``flash_attn_varlen_func`` and
``flash_attn_with_kvcache`` (paged with ``block_table``, appended k/v), with upstream's
signatures and refusals (csrc/flash_attn/flash_api.cpp): head sizes up to 256 once padded to a
multiple of 8, v's head size equal to q's, fp16/bf16, pages of a multiple of 256 tokens. The
causal mask and windows are aligned bottom-right, as upstream's.

Dropout: the returned S matrix (rounded up to multiples of 128 like upstream's) holds the
probabilities, negative where dropped, so the sweep checks the output against the mask.

KSW_SWEEP_STANDIN_FAIL plants: ``crash``: head size 256 aborts the process; ``wrong``: softcap is
ignored.
"""

import math
import os

import torch

__version__ = "2.8.3+sweep-standin"
FAIL = os.environ.get("KSW_SWEEP_STANDIN_FAIL", "")


def _check(q, k, v):
    if q.dtype not in (torch.float16, torch.bfloat16):
        raise RuntimeError("FlashAttention only support fp16 and bf16 data type")
    d = q.shape[-1]
    padded = d + (-d) % 8
    if padded > 256:
        raise RuntimeError("FlashAttention forward only supports head dimension at most 256")
    if v.shape[-1] != d:
        raise RuntimeError("v must have shape (batch_size, seqlen_k, num_heads_k, head_size_og)")
    if q.shape[-2] % k.shape[-2]:
        raise RuntimeError("Number of heads in key/value must divide number of heads in query")
    if FAIL == "crash" and d == 256:
        os.abort()


def _attention(q, k, v, scale, causal, window, softcap, dropout_p=0.0):
    """q (sq, hq, d), k/v (sk, hk, d) -> out (sq, hq, d), lse (hq, sq), S (hq, sq, sk) or None"""
    sq, hq, d = q.shape
    sk, hk = k.shape[0], k.shape[1]
    k = k.float().repeat_interleave(hq // hk, dim=1)
    v = v.float().repeat_interleave(hq // hk, dim=1)
    s = torch.einsum("qhd,khd->hqk", q.float(), k) * scale
    if softcap and FAIL != "wrong":
        s = torch.tanh(s / softcap) * softcap
    left, right = window
    if causal:
        right = 0
    i = torch.arange(sq).view(-1, 1) + (sk - sq)
    j = torch.arange(sk).view(1, -1)
    mask = torch.zeros(sq, sk, dtype=torch.bool)
    if right >= 0:
        mask |= j > i + right
    if left >= 0:
        mask |= j < i - left
    s = s.masked_fill(mask, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.softmax(s, dim=-1).nan_to_num(0.0)
    smat = None
    if dropout_p > 0:
        keep = torch.rand(p.shape) >= dropout_p
        smat = torch.where(keep, p, -p).detach()
        p = p.masked_fill(~keep, 0.0) / (1.0 - dropout_p)
    return torch.einsum("hqk,khd->qhd", p, v).to(q.dtype), lse, smat


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False,
                    window_size=(-1, -1), softcap=0.0, alibi_slopes=None, deterministic=False,
                    return_attn_probs=False):
    _check(q, k, v)
    if softcap > 0 and dropout_p > 0:
        raise RuntimeError("Softcapping does not support dropout for now")
    if return_attn_probs and dropout_p == 0:
        raise RuntimeError("return_softmax is only supported when p_dropout > 0.0")
    scale = softmax_scale if softmax_scale is not None else q.shape[-1] ** -0.5
    parts = [_attention(q[b], k[b], v[b], scale, causal, window_size, softcap, dropout_p)
             for b in range(q.shape[0])]
    out = torch.stack([o for o, _, _ in parts])
    if not return_attn_probs:
        return out
    lse = torch.stack([lse for _, lse, _ in parts])
    sq, sk = q.shape[1], k.shape[1]
    smat = torch.zeros(q.shape[0], q.shape[2], math.ceil(sq / 128) * 128,
                       math.ceil(sk / 128) * 128)
    smat[:, :, :sq, :sk] = torch.stack([s for _, _, s in parts])
    return out, lse, smat


def flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
                           dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1),
                           softcap=0.0, alibi_slopes=None, deterministic=False,
                           return_attn_probs=False, block_table=None):
    _check(q, k, v)
    scale = softmax_scale if softmax_scale is not None else q.shape[-1] ** -0.5
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    parts = [_attention(q[cq[i]:cq[i + 1]], k[ck[i]:ck[i + 1]], v[ck[i]:ck[i + 1]], scale,
                        causal, window_size, softcap)[0]
             for i in range(len(cq) - 1) if cq[i + 1] > cq[i]]
    return torch.cat(parts, dim=0)


def flash_attn_with_kvcache(q, k_cache, v_cache, k=None, v=None, rotary_cos=None,
                            rotary_sin=None, cache_seqlens=None, cache_batch_idx=None,
                            cache_leftpad=None, block_table=None, softmax_scale=None,
                            causal=False, window_size=(-1, -1), softcap=0.0,
                            rotary_interleaved=True, alibi_slopes=None, num_splits=0,
                            return_softmax_lse=False):
    _check(q, k_cache, v_cache)
    if block_table is not None and k_cache.shape[1] % 256:
        raise RuntimeError("Paged KV cache block size must be divisible by 256")
    if num_splits > 128:
        raise RuntimeError("num_splits > 128 not supported")
    scale = softmax_scale if softmax_scale is not None else q.shape[-1] ** -0.5
    b = q.shape[0]
    outs, lses = [], []
    for i in range(b):
        if block_table is not None:
            kc = k_cache[block_table[i].long()].reshape(-1, *k_cache.shape[2:])
            vc = v_cache[block_table[i].long()].reshape(-1, *v_cache.shape[2:])
        else:
            kc, vc = k_cache[i], v_cache[i]
        n = int(cache_seqlens[i])
        if k is not None:
            new = k.shape[1]
            kc[n:n + new], vc[n:n + new] = k[i], v[i]  # the cache is updated in place
            if block_table is not None:  # the gathered pages were a copy: write them back
                page = k_cache.shape[1]
                for j in range(n, n + new):
                    blk = int(block_table[i, j // page])
                    k_cache[blk, j % page], v_cache[blk, j % page] = k[i, j - n], v[i, j - n]
            n += new
        o, lse, _ = _attention(q[i], kc[:n], vc[:n], scale, causal, window_size, softcap)
        outs.append(o)
        lses.append(lse)
    out = torch.stack(outs)
    return (out, torch.stack(lses)) if return_softmax_lse else out
