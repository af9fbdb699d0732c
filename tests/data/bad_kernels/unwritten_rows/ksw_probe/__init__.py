"""Leaves the last query rows of the output unwritten (torch.empty memory is returned there)."""

import math

import torch

__version__ = "0.0.0+unwritten-rows"

UNWRITTEN_ROWS = 5


def attention(q, k, v, causal=False, scale=None):
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    s = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        n, m = s.shape[-2], s.shape[-1]
        hidden = torch.ones(n, m, dtype=torch.bool, device=s.device).triu(1)
        s = s.masked_fill(hidden, float("-inf"))
    full = torch.matmul(torch.softmax(s, dim=-1), v)
    written = full.shape[-2] - UNWRITTEN_ROWS
    out = torch.empty(full.shape, dtype=full.dtype, device=full.device)
    out[..., :written, :] = full[..., :written, :]
    return out


def has_cuda():
    return False


def build_info():
    return {"version": __version__, "cuda": False}
