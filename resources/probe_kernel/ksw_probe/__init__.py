"""ksw_probe: the Kernel Setup Wizard's probe kernel.

Scaled-dot-product attention on small shapes, implemented as a compiled PyTorch extension
(C++ on the CPU, CUDA kernels on the GPU when built with CUDA), with autograd support::

    import torch, ksw_probe
    q, k, v = (torch.randn(2, 4, 16, 32, dtype=torch.float64, requires_grad=True) for _ in "qkv")
    out = ksw_probe.attention(q, k, v, causal=True)
    out.sum().backward()

Tensors are (batch, heads, seqlen, head_dim); k and v share seqlen; v may have its own head_dim.
Dtypes: float32, float64, float16 and bfloat16 (accumulation in float32, float64 for float64) on
the CPU and, in a CUDA build, on CUDA devices. The causal mask is aligned top-left, like
``torch.nn.functional.scaled_dot_product_attention(..., is_causal=True)``.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from . import _C

__version__ = "0.1.0"

__all__ = ["attention", "attention_with_lse", "build_info", "has_cuda", "reference_attention"]


def _resolve_scale(scale: float | None) -> float | None:
    if scale is None:
        return None  # the extension uses 1/sqrt(head_dim)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise TypeError(f"ksw_probe.attention: scale must be a float or None, got {scale!r}")
    if not math.isfinite(scale):
        raise ValueError(f"ksw_probe.attention: scale must be finite, got {scale!r}")
    return float(scale)


class _ProbeAttention(torch.autograd.Function):
    @staticmethod
    def forward(  # type: ignore[override]
        ctx: Any,
        q: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
        causal: bool,
        scale: float | None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        out, lse = _C.forward(q, k, v, causal, scale)
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.causal = causal
        ctx.scale = scale
        ctx.mark_non_differentiable(lse)
        return out, lse

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(  # type: ignore[override]
        ctx: Any, dout: torch.Tensor, _dlse: torch.Tensor | None
    ) -> tuple[torch.Tensor | None, ...]:
        q, k, v, out, lse = ctx.saved_tensors
        if dout is None:
            dout = torch.zeros_like(out)
        dq, dk, dv = _C.backward(dout, q, k, v, out, lse, ctx.causal, ctx.scale)
        return (
            dq if ctx.needs_input_grad[0] else None,
            dk if ctx.needs_input_grad[1] else None,
            dv if ctx.needs_input_grad[2] else None,
            None,
            None,
        )


def attention_with_lse(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Like :func:`attention`, also returning the row logsumexp (batch, heads, seqlen_q) of the
    scaled scores (float32; float64 for float64 inputs). Only ``out`` is differentiable."""
    return _ProbeAttention.apply(q, k, v, bool(causal), _resolve_scale(scale))


def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    causal: bool = False,
    scale: float | None = None,
) -> torch.Tensor:
    """softmax(scale * q @ k^T [causal mask]) @ v, computed by the compiled extension.

    ``scale`` defaults to ``1 / sqrt(head_dim)``. Differentiable in q, k and v. Wrong shapes,
    dtypes or devices raise ``RuntimeError`` with a message naming the problem.
    """
    out, _ = attention_with_lse(q, k, v, causal, scale)
    return out


def reference_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    causal: bool = False,
    scale: float | None = None,
) -> torch.Tensor:
    """The same function in plain PyTorch ops, computed in the inputs' dtype (for comparisons)."""
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        lq, lk = scores.shape[-2], scores.shape[-1]
        mask = torch.ones(lq, lk, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~mask, float("-inf"))
    return torch.matmul(torch.softmax(scores, dim=-1), v)


def has_cuda() -> bool:
    """True if this build contains the CUDA kernels."""
    return bool(_C.has_cuda())


def build_info() -> dict[str, Any]:
    """How this probe was built: a dict with

    version (str), cuda (bool: CUDA kernels compiled in), cuda_version (toolkit runtime version
    the CUDA code was compiled with, or None), cuda_arch_list (list of archs such as "9.0" or
    "8.6+PTX"; [] without CUDA), torch_version (the torch it was built against),
    torch_version_now (the torch imported now; a different one needs a rebuild), torch_cuda
    (torch.version.cuda at build time), cxx11_abi, and build_note (why CUDA was or was not built).
    """
    native = dict(_C.build_info())
    info: dict[str, Any] = {
        "version": __version__,
        "cuda": bool(native.get("cuda")),
        "cuda_version": native.get("cuda_version"),
        "cuda_arch_list": [],
        "torch_version": native.get("torch_version"),
        "torch_version_now": torch.__version__,
        "torch_cuda": None,
        "cxx11_abi": native.get("cxx11_abi"),
        "build_note": None,
    }
    try:
        from . import _build_info as recorded  # written by setup.py into the build tree
    except ImportError:  # e.g. an in-place or editable build
        return info
    info["cuda_arch_list"] = list(recorded.CUDA_ARCH_LIST)
    info["torch_version"] = recorded.TORCH_VERSION
    info["torch_cuda"] = recorded.TORCH_CUDA_VERSION
    info["build_note"] = recorded.CUDA_REASON
    return info
