"""Computes in float32 whatever the input dtype: right for float32, subtly wrong for float64."""

import math

import torch

__version__ = "0.0.0+low-precision"


def attention(q, k, v, causal=False, scale=None):
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    dtype = q.dtype
    q, k, v = q.float(), k.float(), v.float()
    s = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        n, m = s.shape[-2], s.shape[-1]
        hidden = torch.ones(n, m, dtype=torch.bool, device=s.device).triu(1)
        s = s.masked_fill(hidden, float("-inf"))
    return torch.matmul(torch.softmax(s, dim=-1), v).to(dtype)


def has_cuda():
    return False


def build_info():
    return {"version": __version__, "cuda": False}
