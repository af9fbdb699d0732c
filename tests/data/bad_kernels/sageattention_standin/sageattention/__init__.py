"""A stand-in for SageAttention 2's ``sageattention.sageattn`` in plain torch (runs on the CPU),
with upstream's signature (q, k, v, tensor_layout="HND", is_causal=False, sm_scale=None,
return_lse=False). It quantizes the way SageAttention2 does, so that its error is a real
quantized kernel's, not float attention's: K smoothed (the mean over tokens subtracted), Q and K
to INT8 per block of tokens, the softmax in float32, P and V to FP8 (e4m3; V scaled per channel,
P by 448) for P·V, the output in the input dtype.

KSW_SAGE_STANDIN_BUG plants one bug:
- ``fp16_scores``: Q·K^T formed in fp16 before the softmax scale (overflows to inf, then NaN);
- ``causal_shift``: the causal mask lets every query see one future key;
- ``nhd_as_hnd``: NHD tensors read as if they were HND;
- ``no_smooth``: K is not smoothed (large per-channel offsets then swamp the INT8 scale).
"""

import math
import os

import torch

__version__ = "2.2.0+standin"

SM80_ENABLED = SM89_ENABLED = SM90_ENABLED = True
FP8 = getattr(torch, "float8_e4m3fn", None)


def _int8_blocks(x, block):
    """x (b, h, s, d) quantized to INT8 per block of ``block`` tokens, returned dequantized."""
    b, h, s, d = x.shape
    pad = (-s) % block
    xp = torch.nn.functional.pad(x, (0, 0, 0, pad))
    xb = xp.reshape(b, h, -1, block, d)
    scale = xb.abs().amax(dim=(-2, -1), keepdim=True).clamp_min(1e-12) / 127.0
    q = torch.round(xb / scale).clamp(-127, 127) * scale
    return q.reshape(b, h, s + pad, d)[:, :, :s]


def _fp8(x):
    return x.to(FP8).to(torch.float32) if FP8 is not None else x


def sageattn(q, k, v, tensor_layout="HND", is_causal=False, sm_scale=None, return_lse=False,
             **kwargs):
    bug = os.environ.get("KSW_SAGE_STANDIN_BUG", "")
    dtype = q.dtype
    if dtype not in (torch.float16, torch.bfloat16):
        raise AssertionError("Input tensors must be in dtype of torch.float16 or torch.bfloat16")
    if tensor_layout not in ("HND", "NHD"):
        raise ValueError(f"tensor_layout {tensor_layout} not supported")
    nhd = tensor_layout == "NHD" and bug != "nhd_as_hnd"
    if nhd:
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    b, hq, sq, d = q.shape
    hk, sk = k.shape[1], k.shape[2]
    scale = sm_scale if sm_scale is not None else 1.0 / math.sqrt(d)
    qf, kf, vf = q.float(), k.float(), v.float()
    if bug != "no_smooth":
        kf = kf - kf.mean(dim=2, keepdim=True)  # softmax is unchanged by it
    if hk != hq:
        kf = kf.repeat_interleave(hq // hk, dim=1)
        vf = vf.repeat_interleave(hq // hk, dim=1)
    if bug == "fp16_scores":
        scores = torch.matmul(qf, kf.transpose(-2, -1)).to(torch.float16).float() * scale
    else:
        scores = torch.matmul(_int8_blocks(qf, 128), _int8_blocks(kf, 64).transpose(-2, -1))
        scores = scores * scale
    if is_causal:
        i = torch.arange(sq).unsqueeze(1)
        j = torch.arange(sk).unsqueeze(0)
        shift = 1 if bug == "causal_shift" else 0
        scores = scores.masked_fill(j > i + shift, float("-inf"))
    p = torch.softmax(scores, dim=-1)
    v_scale = vf.abs().amax(dim=2, keepdim=True).clamp_min(1e-12) / 448.0
    out = torch.matmul(_fp8(p * 448.0) / 448.0, _fp8(vf / v_scale) * v_scale)
    out = out.to(dtype)
    if nhd:
        out = out.transpose(1, 2)
    return out.contiguous()
