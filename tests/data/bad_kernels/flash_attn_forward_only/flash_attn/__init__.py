"""A stand-in for a FlashAttention wheel built with its backward disabled: the forward is right,
the backward raises (as such community wheels do)."""

import math

import torch

__version__ = "2.99.0+fake-forward-only"


def _attention(q, k, v, softmax_scale, causal):
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
    return torch.einsum("hqk,khd->qhd", torch.softmax(s, dim=-1), v.float()).to(q.dtype)


class _ForwardOnly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, out, *inputs):
        return out

    @staticmethod
    def backward(ctx, dout):
        raise RuntimeError("flash_attn_2_cuda: backward was not compiled into this build")


def _forward_only(out, q, k, v):
    return _ForwardOnly.apply(out.detach(), q, k, v)


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, **kwargs):
    with torch.no_grad():
        out = torch.stack(
            [_attention(q[b], k[b], v[b], softmax_scale, causal) for b in range(q.shape[0])]
        )
    return _forward_only(out, q, k, v)


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
    **kwargs,
):
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    with torch.no_grad():
        out = torch.cat(
            [
                _attention(
                    q[cq[i] : cq[i + 1]],
                    k[ck[i] : ck[i + 1]],
                    v[ck[i] : ck[i + 1]],
                    softmax_scale,
                    causal,
                )
                for i in range(len(cq) - 1)
            ]
        )
    return _forward_only(out, q, k, v)
