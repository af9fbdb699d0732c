"""A stand-in ``deep_ep`` for the wizard's CPU tests of the DeepEP verification adapter.

It implements the intranode part of DeepEP's ``Buffer`` API (``get_dispatch_layout``,
``dispatch`` with and without a cached handle, ``combine``) on the CPU with gloo, by a different
route from the adapter's reference: every rank gathers every rank's tokens
(``all_gather_object``) and picks its own, instead of ``all_to_all_single``.

``KSW_STANDIN_BUG`` plants one bug, so that the tests can see the adapter name it:
``order`` (each source's tokens arrive in reverse order), ``drop`` (the last token a rank sends
to another rank is lost), ``combine`` (combine forgets the contributions of rank 0),
``weights`` (received weights are scaled by 1.5), ``crash`` (dispatch raises on rank 1),
``hang`` (combine never returns on rank 1).
"""

from __future__ import annotations

import os
import time

import torch
import torch.distributed as dist

__version__ = "0.0.0+standin"
topk_idx_t = torch.int64
BUG = os.environ.get("KSW_STANDIN_BUG", "")


class Buffer:
    num_sms = 20

    def __init__(self, group, num_nvl_bytes=0, num_rdma_bytes=0, *args, **kwargs):
        self.group = group
        self.rank = dist.get_rank(group)
        self.world = dist.get_world_size(group)

    @staticmethod
    def is_sm90_compiled():
        return False

    def destroy(self):
        pass

    def _gather(self, t):
        """Every rank's tensor ``t`` (any number of rows), through all_gather with padding."""
        size = torch.tensor([t.size(0)], dtype=torch.int64)
        sizes = [torch.zeros_like(size) for _ in range(self.world)]
        dist.all_gather(sizes, size, group=self.group)
        most = max(int(s) for s in sizes)
        padded = t.new_zeros((most,) + tuple(t.shape[1:]))
        padded[: t.size(0)] = t
        out = [torch.zeros_like(padded) for _ in range(self.world)]
        dist.all_gather(out, padded, group=self.group)
        return [o[: int(s)] for o, s in zip(out, sizes, strict=False)]

    def get_dispatch_layout(self, topk_idx, num_experts, *args, **kwargs):
        per_rank_experts = num_experts // self.world
        per_rank = torch.zeros(self.world, dtype=torch.int32)
        in_rank = torch.zeros((topk_idx.size(0), self.world), dtype=torch.bool)
        per_expert = torch.zeros(num_experts, dtype=torch.int32)
        for t in range(topk_idx.size(0)):
            for e in topk_idx[t].tolist():
                if e < 0:
                    continue
                per_expert[e] += 1
                in_rank[t, e // per_rank_experts] = True
        per_rank = in_rank.sum(dim=0).to(torch.int32)
        return per_rank, None, per_expert, in_rank, None

    def dispatch(self, x, handle=None, num_tokens_per_rank=None, num_tokens_per_rdma_rank=None,
                 is_token_in_rank=None, num_tokens_per_expert=None, topk_idx=None,
                 topk_weights=None, *args, **kwargs):
        if BUG == "crash" and self.rank == 1:
            raise RuntimeError("stand-in: dispatch failed on purpose")
        if handle is not None:
            is_token_in_rank, num_experts = handle["in_rank"], handle["num_experts"]
        else:
            num_experts = num_tokens_per_expert.numel()
        xs = self._gather(x)
        ins = self._gather(is_token_in_rank)
        idxs = self._gather(topk_idx) if topk_idx is not None else [None] * self.world
        ws = self._gather(topk_weights) if topk_weights is not None else [None] * self.world
        everything = list(zip(xs, idxs, ws, ins, strict=False))
        per_rank_experts = num_experts // self.world
        rows, idx, weights, sources = [], [], [], []
        for src, (sx, sidx, sw, sin) in enumerate(everything):
            tokens = [t for t in range(sx.size(0)) if bool(sin[t, self.rank])]
            if BUG == "order":
                tokens = tokens[::-1]
            if BUG == "drop" and src != self.rank and tokens:
                tokens = tokens[:-1]
            for t in tokens:
                rows.append(sx[t])
                sources.append((src, t))
                if sidx is not None:
                    local = [e - self.rank * per_rank_experts
                             if e >= 0 and e // per_rank_experts == self.rank else -1
                             for e in sidx[t].tolist()]
                    idx.append(torch.tensor(local, dtype=topk_idx_t))
                    weights.append(torch.tensor([w if local[i] >= 0 else 0.0
                                                 for i, w in enumerate(sw[t].tolist())]))
        recv_x = torch.stack(rows) if rows else x.new_zeros((0, x.size(1)))
        new_handle = {"in_rank": is_token_in_rank, "num_experts": num_experts,
                      "sources": sources, "tokens": x.size(0)}
        if handle is not None:
            return recv_x, None, None, None, None, None
        recv_idx = torch.stack(idx) if idx else topk_idx.new_zeros((0, topk_idx.size(1)))
        recv_w = torch.stack(weights).float() if weights else topk_weights.new_zeros(
            (0, topk_weights.size(1)))
        if BUG == "weights":
            recv_w = recv_w * 1.5
        per_expert = [int((recv_idx == e).sum()) for e in range(per_rank_experts)]
        return recv_x, recv_idx, recv_w, per_expert, new_handle, None

    def combine(self, x, handle, topk_weights=None, *args, **kwargs):
        if BUG == "hang" and self.rank == 1:
            while True:
                time.sleep(1)
        sources = torch.tensor(handle["sources"], dtype=torch.int64).reshape(-1, 2)
        everything = list(zip(self._gather(x), self._gather(sources), strict=False))
        out = torch.zeros((handle["tokens"], x.size(1)), dtype=torch.float32)
        for dst, (values, sources) in enumerate(everything):
            if BUG == "combine" and dst == 0:
                continue
            for row, (src, t) in enumerate(sources.tolist()):
                if src == self.rank:
                    out[t] += values[row].float()
        return out.to(x.dtype), None, None
