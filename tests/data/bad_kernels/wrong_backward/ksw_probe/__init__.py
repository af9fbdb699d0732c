"""Correct forward, wrong backward: dv is scaled by 1.01 (dq and dk are right)."""

import math

import torch

__version__ = "0.0.0+wrong-backward"


def _probs(q, k, causal, scale):
    s = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        n, m = s.shape[-2], s.shape[-1]
        hidden = torch.ones(n, m, dtype=torch.bool, device=s.device).triu(1)
        s = s.masked_fill(hidden, float("-inf"))
    return torch.softmax(s, dim=-1)


class _Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, causal, scale):
        p = _probs(q, k, causal, scale)
        out = torch.matmul(p, v)
        ctx.save_for_backward(q, k, v, out, p)
        ctx.scale = scale
        return out

    @staticmethod
    def backward(ctx, dout):
        q, k, v, out, p = ctx.saved_tensors
        dv = torch.matmul(p.transpose(-2, -1), dout) * 1.01  # the bug
        dp = torch.matmul(dout, v.transpose(-2, -1))
        ds = p * (dp - (dout * out).sum(dim=-1, keepdim=True))
        dq = torch.matmul(ds, k) * ctx.scale
        dk = torch.matmul(ds.transpose(-2, -1), q) * ctx.scale
        return dq, dk, dv, None, None


def attention(q, k, v, causal=False, scale=None):
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    return _Attention.apply(q, k, v, bool(causal), float(scale))


def has_cuda():
    return False


def build_info():
    return {"version": __version__, "cuda": False}
