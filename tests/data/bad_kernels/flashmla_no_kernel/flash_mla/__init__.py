"""A stand-in for an older FlashMLA (get_mla_metadata(cache_seqlens, num_heads_per_head_k,
num_heads_k)) whose SM100 prefill has no kernel for the head dims asked: like the real one, it
prints "No kernel instantiated ..." from native code (straight to file descriptor 1) and returns
the output buffers it allocated without writing them."""

import os

import torch

__version__ = "1.0.0"


def get_mla_metadata(cache_seqlens, num_heads_per_head_k, num_heads_k):
    return torch.zeros(4, 8, dtype=torch.int32), torch.zeros(
        cache_seqlens.numel() + 1, dtype=torch.int32
    )


def flash_mla_with_kvcache(
    q,
    k_cache,
    block_table,
    cache_seqlens,
    head_dim_v,
    tile_scheduler_metadata,
    num_splits,
    softmax_scale=None,
    causal=False,
):
    b, sq, hq, d = q.shape
    block, hk = k_cache.shape[1], k_cache.shape[2]
    scale = softmax_scale if softmax_scale is not None else d**-0.5
    outs, lses = [], []
    for i in range(b):
        n = int(cache_seqlens[i])
        blocks = block_table[i, : (n + block - 1) // block].long()
        kv = k_cache[blocks].reshape(-1, hk, d)[:n].float().transpose(0, 1)
        kv = kv.repeat_interleave(hq // hk, dim=0)
        s = torch.matmul(q[i].float().transpose(0, 1), kv.transpose(-2, -1)) * scale
        if causal:
            r = torch.arange(sq, device=q.device).unsqueeze(1)
            c = torch.arange(n, device=q.device).unsqueeze(0)
            s = s.masked_fill(c > r + (n - sq), float("-inf"))
        lses.append(s.logsumexp(dim=-1))
        outs.append(torch.matmul(torch.softmax(s, dim=-1), kv[..., :head_dim_v]).transpose(0, 1))
    return torch.stack(outs).to(q.dtype), torch.stack(lses)


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
    out = torch.empty(q.shape[0], q.shape[1], v.shape[-1], dtype=q.dtype, device=q.device)
    lse = torch.empty(q.shape[1], q.shape[0], dtype=torch.float32, device=q.device).T
    message = f"No kernel instantiated for head_dim_qk={q.shape[-1]} head_dim_vo={v.shape[-1]}\n"
    os.write(1, message.encode())
    return out, lse
