"""A stand-in ``deep_ep`` for the wizard's CPU tests of the DeepEP verification adapter.

It implements the intranode part of DeepEP's ``Buffer`` API (``get_dispatch_layout``,
``dispatch`` with and without a cached handle, ``combine``) on the CPU with gloo, by a different
route from the adapter's reference: every rank gathers every rank's tokens
(``all_gather_object``) and picks its own, instead of ``all_to_all_single``.

Its return values have the types of the real API at the pinned V1 commit (567632d,
``deep_ep/buffer.py``): ``get_dispatch_layout`` gives ``(tensor, None, tensor, tensor,
EventOverlap)``; ``dispatch`` gives ``(recv_x, recv_topk_idx, recv_topk_weights, list of ints,
handle, EventOverlap)``, the handle a tuple of six tensors ``(rank_prefix_matrix,
channel_prefix_matrix, recv_channel_prefix_matrix, recv_src_idx, is_token_in_rank,
send_head)``, and with a cached handle ``(recv_x, None, None, None, None, EventOverlap)``;
``combine`` gives ``(combined_x, None, EventOverlap)``. The adapter is tested against these
types on the CPU, so that what it does with them is what it will do on the GPUs.

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
NUM_CHANNELS = 1


class EventOverlap:
    """What the real API returns for its CUDA event (deep_ep/utils.py): here never set."""

    def __init__(self, event=None, extra_tensors=None):
        self.event = event
        self.extra_tensors = extra_tensors

    def current_stream_wait(self):
        assert self.event is not None


class Config:
    def __init__(self, *args, **kwargs):
        self.args = args


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
        return per_rank, None, per_expert, in_rank, EventOverlap()

    def dispatch(self, x, handle=None, num_tokens_per_rank=None, num_tokens_per_rdma_rank=None,
                 is_token_in_rank=None, num_tokens_per_expert=None, topk_idx=None,
                 topk_weights=None, *args, **kwargs):
        if BUG == "crash" and self.rank == 1:
            raise RuntimeError("stand-in: dispatch failed on purpose")
        if handle is not None:
            assert isinstance(handle, tuple) and len(handle) == 6, "the handle is a 6-tuple"
            assert topk_idx is None and topk_weights is None  # as the real API asserts
            is_token_in_rank = handle[4]
            num_experts = self.world  # unused with a cached handle: no expert indices move
        else:
            num_experts = num_tokens_per_expert.numel()
        xs = self._gather(x)
        ins = self._gather(is_token_in_rank)
        idxs = self._gather(topk_idx) if topk_idx is not None else [None] * self.world
        ws = self._gather(topk_weights) if topk_weights is not None else [None] * self.world
        everything = list(zip(xs, idxs, ws, ins, strict=False))
        per_rank_experts = num_experts // self.world
        rows, idx, weights, src_idx = [], [], [], []
        received = [0] * self.world
        for src, (sx, sidx, sw, sin) in enumerate(everything):
            tokens = [t for t in range(sx.size(0)) if bool(sin[t, self.rank])]
            if BUG == "order":
                tokens = tokens[::-1]
            if BUG == "drop" and src != self.rank and tokens:
                tokens = tokens[:-1]
            received[src] = len(tokens)
            for t in tokens:
                rows.append(sx[t])
                src_idx.append(t)
                if sidx is not None:
                    local = [e - self.rank * per_rank_experts
                             if e >= 0 and e // per_rank_experts == self.rank else -1
                             for e in sidx[t].tolist()]
                    idx.append(torch.tensor(local, dtype=topk_idx_t))
                    weights.append(torch.tensor([w if local[i] >= 0 else 0.0
                                                 for i, w in enumerate(sw[t].tolist())]))
        recv_x = torch.stack(rows) if rows else x.new_zeros((0, x.size(1)))
        if handle is not None:
            return recv_x, None, None, None, None, EventOverlap()
        # rank_prefix_matrix[s, d]: tokens that ranks 0..s send to rank d
        counts = self._gather(torch.tensor([received], dtype=torch.int32))
        matrix = torch.cat(counts).t().contiguous().cumsum(dim=0).to(torch.int32)
        channels = torch.zeros((self.world, NUM_CHANNELS), dtype=torch.int32)
        new_handle = (
            matrix,
            channels,
            channels.clone(),
            torch.tensor(src_idx, dtype=torch.int32),
            is_token_in_rank,
            torch.zeros((x.size(0), self.world), dtype=torch.int32),
        )
        recv_idx = torch.stack(idx) if idx else topk_idx.new_zeros((0, topk_idx.size(1)))
        recv_w = torch.stack(weights).float() if weights else topk_weights.new_zeros(
            (0, topk_weights.size(1)))
        if BUG == "weights":
            recv_w = recv_w * 1.5
        per_expert = [int((recv_idx == e).sum()) for e in range(per_rank_experts)]
        return recv_x, recv_idx, recv_w, per_expert, new_handle, EventOverlap()

    def combine(self, x, handle, topk_weights=None, *args, **kwargs):
        if BUG == "hang" and self.rank == 1:
            while True:
                time.sleep(1)
        assert isinstance(handle, tuple) and len(handle) == 6, "the handle is a 6-tuple"
        rank_prefix_matrix, _, _, src_idx, is_token_in_rank, _ = handle
        column = rank_prefix_matrix[:, self.rank].tolist()
        starts = [0] + column[:-1]
        src_rank = [next(s for s in range(self.world) if row < column[s])
                    for row in range(src_idx.numel())]
        assert all(starts[r] <= row for row, r in enumerate(src_rank))
        sources = torch.tensor(list(zip(src_rank, src_idx.tolist(), strict=True)),
                               dtype=torch.int64).reshape(-1, 2)
        everything = list(zip(self._gather(x), self._gather(sources), strict=False))
        out = torch.zeros((is_token_in_rank.size(0), x.size(1)), dtype=torch.float32)
        for dst, (values, sources) in enumerate(everything):
            if BUG == "combine" and dst == 0:
                continue
            for row, (src, t) in enumerate(sources.tolist()):
                if src == self.rank:
                    out[t] += values[row].float()
        return out.to(x.dtype), None, EventOverlap()
