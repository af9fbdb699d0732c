"""A stand-in for FlashMLA in plain torch (runs on the CPU) with today's API: lazy
get_mla_metadata(*args, **kwargs), paged dense decoding, and the SM100 dense prefill.

The dense prefill answers for the compute capability the tests pretend (KSW_VERIFY_TEST_CC):
elsewhere than SM100 it raises like the wizard's patched interface (recipe patch
sm100-prefill-guard); KSW_FLASHMLA_STANDIN_UNGUARDED=1 plants upstream's behaviour instead, a
bare CUDA launch failure that says nothing about what to do."""

import math
import os

import torch

__version__ = "1.0.0"


class FlashMLASchedMeta:
    have_initialized = False


def get_mla_metadata(*args, **kwargs):
    return FlashMLASchedMeta(), None


def _attend(q, k, v, scale, causal):
    # q (hq, sq, d), k (hk, sk, d), v (hk, sk, dv) in float32 -> out (hq, sq, dv), lse (hq, sq)
    hq, sq = q.shape[0], q.shape[1]
    hk, sk = k.shape[0], k.shape[1]
    k = k.repeat_interleave(hq // hk, dim=0)
    v = v.repeat_interleave(hq // hk, dim=0)
    s = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        i = torch.arange(sq, device=q.device).unsqueeze(1)
        j = torch.arange(sk, device=q.device).unsqueeze(0)
        s = s.masked_fill(j > i + (sk - sq), float("-inf"))
    lse = s.logsumexp(dim=-1)
    return torch.matmul(torch.softmax(s, dim=-1), v), lse


def flash_mla_with_kvcache(
    q,
    k_cache,
    block_table,
    cache_seqlens,
    head_dim_v,
    tile_scheduler_metadata,
    num_splits=None,
    softmax_scale=None,
    causal=False,
    is_fp8_kvcache=False,
    indices=None,
):
    assert isinstance(tile_scheduler_metadata, FlashMLASchedMeta)
    b, sq, hq, d = q.shape
    block, hk = k_cache.shape[1], k_cache.shape[2]
    if softmax_scale is None:
        softmax_scale = d**-0.5
    outs, lses = [], []
    for i in range(b):
        n = int(cache_seqlens[i])
        blocks = block_table[i, : (n + block - 1) // block].long()
        kv = k_cache[blocks].reshape(-1, hk, d)[:n].float().transpose(0, 1)
        o, lse = _attend(
            q[i].float().transpose(0, 1), kv, kv[..., :head_dim_v], softmax_scale, causal
        )
        outs.append(o.transpose(0, 1))
        lses.append(lse)
    return torch.stack(outs).to(q.dtype), torch.stack(lses)


def _need_sm100(what):
    cc = os.environ.get("KSW_VERIFY_TEST_CC", "10.0")
    if cc.split(".")[0] == "10":
        return
    if os.environ.get("KSW_FLASHMLA_STANDIN_UNGUARDED") == "1":
        raise RuntimeError("CUDA error: unspecified launch failure")
    raise RuntimeError(f"FlashMLA's dense prefill ({what}) runs on SM100 GPUs (B200, GB200) "
                       f"only; this GPU is sm_{cc.replace('.', '')}.")


def flash_attn_varlen_func(
    q,
    k,
    v,
    cu_seqlens_qo,
    cu_seqlens_kv,
    max_seqlen_qo,
    max_seqlen_kv,
    dropout_p=0.0,
    softmax_scale=None,
    causal=False,
    deterministic=False,
    is_varlen=True,
):
    _need_sm100("flash_attn_varlen_func, forward")
    if softmax_scale is None:
        softmax_scale = q.shape[-1] ** -0.5
    cq, ck = cu_seqlens_qo.tolist(), cu_seqlens_kv.tolist()
    outs, lses = [], []
    for i in range(len(cq) - 1):
        o, lse = _attend(
            q[cq[i] : cq[i + 1]].float().transpose(0, 1),
            k[ck[i] : ck[i + 1]].float().transpose(0, 1),
            v[ck[i] : ck[i + 1]].float().transpose(0, 1),
            softmax_scale,
            causal,
        )
        outs.append(o.transpose(0, 1))
        lses.append(lse.transpose(0, 1))
    return torch.cat(outs).to(q.dtype), torch.cat(lses).detach()


__all__ = ["get_mla_metadata", "flash_mla_with_kvcache", "flash_attn_varlen_func", "math"]


def flash_mla_sparse_fwd(q, kv, indices, sm_scale, d_v=512, attn_sink=None, topk_length=None):
    """Sparse prefill: only the sizes FlashMLA has kernels for (64 or 128 query heads). Like
    the wizard's patched interface (recipe patch mla-size-checks) anything else is a
    ValueError; KSW_FLASHMLA_STANDIN_UNGUARDED=1 plants upstream's behaviour on an H200, a
    segmentation fault that kills the process."""
    if q.shape[1] not in (64, 128):
        if os.environ.get("KSW_FLASHMLA_STANDIN_UNGUARDED") == "1":
            import signal

            os.kill(os.getpid(), signal.SIGSEGV)
        raise ValueError(f"FlashMLA's sparse prefill has kernels for 64 or 128 query heads "
                         f"only; got {q.shape[1]} (pad the heads to 64 or 128).")
    raise NotImplementedError("the stand-in computes no sparse prefill")
