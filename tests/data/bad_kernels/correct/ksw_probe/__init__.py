"""A correct pure-torch ksw_probe: the control that proves the harness does not fail everything.

Computed differently from the harness's reference on purpose (scale folded into q, explicit
max-subtracted softmax, hand-written backward), as a real kernel would be.
"""

import math

import torch

__version__ = "0.0.0+correct"


def _forward(q, k, v, causal, scale):
    s = torch.matmul(q * scale, k.transpose(-2, -1))
    if causal:
        n, m = s.shape[-2], s.shape[-1]
        hidden = torch.ones(n, m, dtype=torch.bool, device=s.device).triu(1)
        s = s.masked_fill(hidden, float("-inf"))
    row_max = s.amax(dim=-1, keepdim=True)
    p = torch.exp(s - row_max)
    p = p / p.sum(dim=-1, keepdim=True)
    return torch.matmul(p, v), p


class _Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, causal, scale):
        out, p = _forward(q, k, v, causal, scale)
        ctx.save_for_backward(q, k, v, out, p)
        ctx.scale = scale
        return out

    @staticmethod
    def backward(ctx, dout):
        q, k, v, out, p = ctx.saved_tensors
        dv = torch.matmul(p.transpose(-2, -1), dout)
        dp = torch.matmul(dout, v.transpose(-2, -1))
        delta = (dout * out).sum(dim=-1, keepdim=True)
        ds = p * (dp - delta)
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
    return {
        "version": __version__,
        "cuda": False,
        "torch_version": torch.__version__,
        "torch_version_now": torch.__version__,
    }
