"""Returns one NaN in the output (the last row of the first head), the rest is right."""

import math

import torch

__version__ = "0.0.0+nan-output"


def attention(q, k, v, causal=False, scale=None):
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    s = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        n, m = s.shape[-2], s.shape[-1]
        hidden = torch.ones(n, m, dtype=torch.bool, device=s.device).triu(1)
        s = s.masked_fill(hidden, float("-inf"))
    out = torch.matmul(torch.softmax(s, dim=-1), v)
    poison = torch.zeros_like(out)
    poison[0, 0, -1, 1] = float("nan")
    return out + poison


def has_cuda():
    return False


def build_info():
    return {"version": __version__, "cuda": False}
