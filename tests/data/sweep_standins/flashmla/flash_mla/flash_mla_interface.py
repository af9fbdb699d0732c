"""A stand-in for FlashMLA's ``flash_mla/flash_mla_interface.py`` (upstream 9241ae3) in plain
torch, for the boundary sweep's tests on the CPU. Its functions have upstream's signatures and
refuse what upstream's extension refuses, with upstream's messages (csrc/api/*.h):

* dense decoding (``flash_mla_with_kvcache``): head size 576 or 512, v head size 512, 64-token
  pages, query heads a multiple of the key/value heads; head size 512 passes upstream's check but
  has no SM90 kernel: here it raises (what a fixed build does);
* sparse prefill (``flash_mla_sparse_fwd``): head size 576 or 512, v 512, 64 or 128 query heads;
* the dense MHA prefill (``flash_attn_varlen_func`` and its backward) runs on SM100 only: like the
  wizard's patched interface (recipe patch sm100-prefill-guard) it raises a plain error elsewhere
  (the GPU it pretends: KSW_SWEEP_TEST_CC, default 9.0); with the check switched off the
  "kernel" fails like upstream's, with a bare CUDA launch failure.

KSW_SWEEP_STANDIN_FAIL plants upstream's failure kinds:
``crash``: the dense prefill on SM90 aborts the process (no check), and decoding with head size
512 ends it with exit code 1 after upstream's FLASH_ASSERT message; ``wrong``: decoding ignores
the causal mask; ``hang``: the sparse prefill never returns.
"""

import dataclasses
import os
import sys
import time

import torch

FAIL = os.environ.get("KSW_SWEEP_STANDIN_FAIL", "")


def _cc():
    major, _, minor = os.environ.get("KSW_SWEEP_TEST_CC", "9.0").partition(".")
    return int(major), int(minor or 0)


@dataclasses.dataclass
class FlashMLASchedMeta:
    have_initialized: bool = False


def get_mla_metadata(*args, **kwargs):
    return FlashMLASchedMeta(), None


def flash_mla_with_kvcache(q, k_cache, block_table, cache_seqlens, head_dim_v,
                           tile_scheduler_metadata, num_splits=None, softmax_scale=None,
                           causal=False, is_fp8_kvcache=False, indices=None, attn_sink=None,
                           extra_k_cache=None, extra_indices_in_kvcache=None, topk_length=None,
                           extra_topk_length=None):
    assert isinstance(tile_scheduler_metadata, FlashMLASchedMeta), \
        "tile_scheduler_metadata must be of type FlashMLASchedMeta"
    assert num_splits is None, "num_splits must be None"
    if _cc()[0] != 9:
        raise RuntimeError("Dense decode MLA is only supported on SM90a architecture")
    if q.dtype not in (torch.bfloat16, torch.float16):
        raise RuntimeError("Expected q_dtype == torch::kBFloat16 || q_dtype == torch::kHalf")
    b, s_q, h_q, d = q.shape
    block, h_kv = k_cache.shape[1], k_cache.shape[2]
    if d not in (576, 512):
        raise RuntimeError("Only head_size_k == 576 or 512 is supported")
    if head_dim_v != 512:
        raise RuntimeError("Only head_size_v == 576 is supported")
    if block != 64:
        raise RuntimeError("Currently page_block_size must be 64")
    if h_q % h_kv:
        raise RuntimeError("Number of heads in key/value must divide number of heads in query")
    if d != 576:
        if FAIL == "crash":  # upstream: FLASH_ASSERT(params.d == Config::HEAD_DIM_K), exit(1)
            sys.stderr.write("Assertion failed (splitkv_mla.cuh:1277): "
                             "params.d == Config::HEAD_DIM_K\n")
            sys.stderr.flush()
            os._exit(1)
        raise RuntimeError("FlashMLA's dense decoding on SM90 has a kernel for head size 576 "
                           f"only; got {d}.")
    scale = softmax_scale if softmax_scale is not None else d ** -0.5
    outs, lses = [], []
    for i in range(b):
        n = int(cache_seqlens[i])
        blocks = block_table[i, : (n + block - 1) // block].long()
        kv = k_cache[blocks].reshape(-1, h_kv, d)[:n].float().transpose(0, 1)
        kv = kv.repeat_interleave(h_q // h_kv, dim=0)
        s = torch.matmul(q[i].float().transpose(0, 1), kv.transpose(-2, -1)) * scale
        if causal and s_q > 1 and FAIL != "wrong":
            ii = torch.arange(s_q).view(-1, 1) + (n - s_q)
            s = s.masked_fill(torch.arange(n).view(1, -1) > ii, float("-inf"))
        lse = s.logsumexp(dim=-1)
        o = torch.matmul(torch.softmax(s, dim=-1).nan_to_num(0.0), kv[..., :head_dim_v])
        o[(lse == float("-inf")).unsqueeze(-1).expand_as(o)] = 0.0
        lse[lse == float("-inf")] = float("inf")
        outs.append(o.transpose(0, 1))
        lses.append(lse)
    return torch.stack(outs).to(q.dtype), torch.stack(lses)


def flash_mla_sparse_fwd(q, kv, indices, sm_scale, d_v=512, attn_sink=None, topk_length=None):
    if _cc()[0] not in (9, 10):
        raise RuntimeError("Sparse Attention Forward Kernel is only supported on SM90a and "
                           "SM100f architectures.")
    s_q, h_q, d_qk = q.shape
    s_kv = kv.shape[0]
    topk = indices.shape[-1]
    if d_qk not in (576, 512):
        raise RuntimeError(f"Invalid d_qk: {d_qk}")
    if d_v != 512:
        raise RuntimeError(f"Invalid d_v{d_v}")
    if q.dtype != torch.bfloat16 or kv.dtype != torch.bfloat16:
        raise RuntimeError("q and kv must be bfloat16")
    if h_q not in (64, 128):
        raise RuntimeError(f"Unsupported h_q: {h_q}")
    if FAIL == "hang":
        time.sleep(3600)
    ind = indices.squeeze(1).long()
    invalid = (ind < 0) | (ind >= s_kv)
    ind = ind.masked_fill(invalid, 0)
    g = kv.squeeze(1).float()[ind.flatten()].view(s_q, topk, d_qk)
    p = torch.matmul(q.float(), g.transpose(1, 2)) * sm_scale
    p[invalid.unsqueeze(1).expand_as(p)] = float("-inf")
    lse = p.logsumexp(dim=-1)
    max_logits = p.max(dim=-1).values
    lse_o = lse.clone()
    lse_o[lse_o == float("-inf")] = float("inf")
    out = torch.matmul(torch.exp(p - lse_o.unsqueeze(-1)), g[..., :d_v])
    lse[lse == float("-inf")] = float("inf")
    return out.to(torch.bfloat16), max_logits, lse


def _ksw_need_sm100(t, what):
    # the wizard's check (recipe patch sm100-prefill-guard); an unpatched build has none
    if FAIL == "crash":
        return
    major, minor = _cc()
    if major != 10:
        raise RuntimeError(
            f"FlashMLA's dense prefill ({what}) runs on SM100 GPUs (B200, GB200) only; "
            f"this GPU is sm_{major}{minor}. On Hopper use FlashAttention 3's "
            "flash_attn_varlen_func for MHA prefill, or FlashMLA's sparse prefill "
            "(flash_mla_sparse_fwd).")


def _sm100_kernel():
    """What upstream's SM100 kernels do when launched elsewhere."""
    if _cc()[0] != 10:
        if FAIL == "crash":
            os.abort()
        raise RuntimeError("CUDA error: unspecified launch failure")


def _attend(q, k, v, cu_q, cu_k, causal, scale):
    outs, lses = [], []
    for i in range(len(cu_q) - 1):
        qi = q[cu_q[i]:cu_q[i + 1]].float().transpose(0, 1)
        ki = k[cu_k[i]:cu_k[i + 1]].float().transpose(0, 1)
        vi = v[cu_k[i]:cu_k[i + 1]].float().transpose(0, 1)
        ki = ki.repeat_interleave(qi.shape[0] // ki.shape[0], dim=0)
        vi = vi.repeat_interleave(qi.shape[0] // vi.shape[0], dim=0)
        s = torch.matmul(qi, ki.transpose(-2, -1)) * scale
        if causal:
            sq, sk = s.shape[-2], s.shape[-1]
            ii = torch.arange(sq).view(-1, 1) + (sk - sq)
            s = s.masked_fill(torch.arange(sk).view(1, -1) > ii, float("-inf"))
        lses.append(s.logsumexp(dim=-1).transpose(0, 1))
        outs.append(torch.matmul(torch.softmax(s, dim=-1), vi).transpose(0, 1))
    return torch.cat(outs), torch.cat(lses)


def _flash_attn_varlen_forward(q, k, v, cu_seqlens_qo, cu_seqlens_kv, max_seqlen_qo,
                               max_seqlen_kv, out=None, lse=None, causal=False,
                               softmax_scale=None, is_varlen=True):
    scale = softmax_scale if softmax_scale is not None else q.shape[-1] ** -0.5
    _ksw_need_sm100(q, "flash_attn_varlen_func, forward")
    _sm100_kernel()
    o, l_ = _attend(q, k, v, cu_seqlens_qo.tolist(), cu_seqlens_kv.tolist(), causal, scale)
    return o.to(q.dtype), l_.t().contiguous().t()


def _flash_attn_varlen_backward(do, q, k, v, out, lse, cu_seqlens_qo, cu_seqlens_kv,
                                max_seqlen_qo, max_seqlen_kv, dq=None, dk=None, dv=None,
                                causal=False, softmax_scale=None, is_varlen=True):
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"SM100 bwd doesn't support GQA now. num_qo_heads: {q.shape[1]}, "
                         f"num_kv_heads: {k.shape[1]}.")
    scale = softmax_scale if softmax_scale is not None else q.shape[-1] ** -0.5
    _ksw_need_sm100(q, "flash_attn_varlen_func, backward")
    _sm100_kernel()
    qf, kf, vf = (x.detach().float().requires_grad_() for x in (q, k, v))
    with torch.enable_grad():
        o, _ = _attend(qf, kf, vf, cu_seqlens_qo.tolist(), cu_seqlens_kv.tolist(), causal, scale)
        grads = torch.autograd.grad(o, (qf, kf, vf), do.float())
    return tuple(g.to(q.dtype) for g in grads)


class FlashAttnVarlenFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, cu_seqlens_qo, cu_seqlens_kv, max_seqlen_qo, max_seqlen_kv,
                causal=False, softmax_scale=None, is_varlen=True):
        out, lse = _flash_attn_varlen_forward(q, k, v, cu_seqlens_qo, cu_seqlens_kv,
                                              max_seqlen_qo, max_seqlen_kv, causal=causal,
                                              softmax_scale=softmax_scale)
        ctx.save_for_backward(q, k, v, out, lse, cu_seqlens_qo, cu_seqlens_kv)
        ctx.args = (max_seqlen_qo, max_seqlen_kv, causal, softmax_scale)
        return out, lse

    @staticmethod
    def backward(ctx, do, dlse):
        q, k, v, out, lse, cu_q, cu_k = ctx.saved_tensors
        mq, mk, causal, scale = ctx.args
        dq, dk, dv = _flash_attn_varlen_backward(do, q, k, v, out, lse, cu_q, cu_k, mq, mk,
                                                 causal=causal, softmax_scale=scale)
        return dq, dk, dv, None, None, None, None, None, None, None


def flash_attn_varlen_func(q, k, v, cu_seqlens_qo, cu_seqlens_kv, max_seqlen_qo, max_seqlen_kv,
                           dropout_p=0.0, softmax_scale=None, causal=False, deterministic=False,
                           is_varlen=True):
    assert dropout_p == 0.0
    assert not deterministic
    return FlashAttnVarlenFunc.apply(q, k, v, cu_seqlens_qo, cu_seqlens_kv, max_seqlen_qo,
                                     max_seqlen_kv, causal, softmax_scale, is_varlen)
