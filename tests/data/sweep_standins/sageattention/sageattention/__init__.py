"""A stand-in for SageAttention 2 (``sageattention``, upstream d1a57a5) for the boundary sweep's
tests on the CPU: ``sageattn``, the SM90 entry point ``sageattn_qk_int8_pv_fp8_cuda_sm90``, the
Triton one ``sageattn_qk_int8_pv_fp16_triton`` and ``sageattn_varlen``, with upstream's
signatures and refusals (core.py): fp16/bf16 only (an AssertionError otherwise), head sizes up
to 128 (smaller ones padded, as upstream pads them; above 128 "Unsupported head_dim"). The
numbers come from the verification tests' quantizing stand-in
(tests/data/bad_kernels/sageattention_standin: INT8 Q·K with K smoothed, FP8 P·V), so its error
is a quantized kernel's and the sweep's thresholds are exercised, not float attention's.

KSW_SWEEP_STANDIN_FAIL plants: ``crash``: head size 96 aborts the process; ``wrong``: the causal
mask lets every query see one future key.
"""

import importlib.util
import os
from pathlib import Path

import torch

FAIL = os.environ.get("KSW_SWEEP_STANDIN_FAIL", "")
if FAIL == "wrong":
    os.environ["KSW_SAGE_STANDIN_BUG"] = "causal_shift"

_PATH = (Path(__file__).resolve().parents[3] / "bad_kernels" / "sageattention_standin"
         / "sageattention" / "__init__.py")
_spec = importlib.util.spec_from_file_location("_ksw_sage_quantized", _PATH)
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)

__version__ = "2.2.0+sweep-standin"
SM80_ENABLED = SM89_ENABLED = SM90_ENABLED = True


def _check(q, k, v):
    assert q.dtype in (torch.float16, torch.bfloat16), \
        "Input tensors must be in dtype of torch.float16 or torch.bfloat16"
    assert q.dtype == k.dtype == v.dtype, "All tensors must have the same dtype."
    d = q.size(-1)
    if d > 128:
        raise ValueError(f"Unsupported head_dim: {d}")
    if FAIL == "crash" and d == 96:
        os.abort()


def _run(q, k, v, tensor_layout, is_causal, sm_scale):
    _check(q, k, v)
    return _base.sageattn(q, k, v, tensor_layout=tensor_layout, is_causal=is_causal,
                          sm_scale=sm_scale)


def sageattn(q, k, v, tensor_layout="HND", is_causal=False, sm_scale=None, return_lse=False,
             **kwargs):
    return _run(q, k, v, tensor_layout, is_causal, sm_scale)


def sageattn_qk_int8_pv_fp8_cuda_sm90(q, k, v, tensor_layout="HND", is_causal=False,
                                      qk_quant_gran="per_thread", sm_scale=None,
                                      pv_accum_dtype="fp32+fp32", smooth_k=True,
                                      return_lse=False, **kwargs):
    return _run(q, k, v, tensor_layout, is_causal, sm_scale)


def sageattn_qk_int8_pv_fp16_triton(q, k, v, tensor_layout="HND", quantization_backend="triton",
                                    is_causal=False, attn_mask=None, sm_scale=None,
                                    smooth_k=True, return_lse=False, **kwargs):
    return _run(q, k, v, tensor_layout, is_causal, sm_scale)


def sageattn_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
                    is_causal=False, sm_scale=None, smooth_k=True, **kwargs):
    _check(q, k, v)
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    parts = []
    for i in range(len(cq) - 1):
        qi, ki, vi = (x[a:b].unsqueeze(0) for x, a, b in
                      ((q, cq[i], cq[i + 1]), (k, ck[i], ck[i + 1]), (v, ck[i], ck[i + 1])))
        parts.append(_base.sageattn(qi, ki, vi, tensor_layout="NHD", is_causal=is_causal,
                                    sm_scale=sm_scale)[0])
    return torch.cat(parts)
