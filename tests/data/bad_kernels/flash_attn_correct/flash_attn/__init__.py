"""A stand-in for FlashAttention 2 in plain torch (runs on the CPU), with its API and layout:
q (batch, seqlen, heads, head_dim), fewer kv heads allowed, causal mask aligned bottom-right."""

import math

import torch

__version__ = "2.99.0+fake"


def _attention(q, k, v, softmax_scale, causal):
    # q (sq, hq, d), k/v (sk, hk, d) -> (sq, hq, d)
    sq, hq, d = q.shape
    sk, hk = k.shape[0], k.shape[1]
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(d)
    k = k.repeat_interleave(hq // hk, dim=1)
    v = v.repeat_interleave(hq // hk, dim=1)
    s = torch.einsum("qhd,khd->hqk", q.float(), k.float()) * softmax_scale
    if causal:
        i = torch.arange(sq, device=q.device).unsqueeze(1)
        j = torch.arange(sk, device=q.device).unsqueeze(0)
        s = s.masked_fill(j > i + (sk - sq), float("-inf"))
    p = torch.softmax(s, dim=-1)
    return torch.einsum("hqk,khd->qhd", p, v.float()).to(q.dtype)


def flash_attn_func(
    q,
    k,
    v,
    dropout_p=0.0,
    softmax_scale=None,
    causal=False,
    window_size=(-1, -1),
    softcap=0.0,
    alibi_slopes=None,
    deterministic=False,
    return_attn_probs=False,
):
    assert dropout_p == 0.0
    return torch.stack(
        [_attention(q[b], k[b], v[b], softmax_scale, causal) for b in range(q.shape[0])]
    )


def flash_attn_varlen_func(
    q,
    k,
    v,
    cu_seqlens_q,
    cu_seqlens_k,
    max_seqlen_q,
    max_seqlen_k,
    dropout_p=0.0,
    softmax_scale=None,
    causal=False,
    window_size=(-1, -1),
    softcap=0.0,
    alibi_slopes=None,
    deterministic=False,
    return_attn_probs=False,
    block_table=None,
):
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    parts = [
        _attention(
            q[cq[i] : cq[i + 1]], k[ck[i] : ck[i + 1]], v[ck[i] : ck[i + 1]], softmax_scale, causal
        )
        for i in range(len(cq) - 1)
    ]
    return torch.cat(parts, dim=0)
