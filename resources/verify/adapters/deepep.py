"""DeepEP (``deep_ep``): intranode MoE dispatch and combine across the GPUs of one machine.

DeepEP moves tokens between GPUs: ``dispatch`` sends every token to the GPUs (ranks) that own one
of its top-k experts, ``combine`` sends the experts' results back and sums them per token. Its
backward passes are the same two operations the other way round: the gradient of ``dispatch`` is
a ``combine`` of the received gradients, and the gradient of ``combine`` is a ``dispatch`` of the
output gradient with the cached routing handle.

The check starts one process per GPU (``torch.multiprocessing`` in the target Python, NCCL) for
each GPU count the machine has (2, 4, 8), feeds seeded random tokens and top-k routing (with
some slots masked as -1, as upstream's own test does) and compares every output with a reference
built from plain PyTorch collectives (``torch.distributed.all_to_all_single``):

- layout: tokens per rank, tokens per expert and the token→rank matrix — exact;
- dispatch: the received tokens, their local expert indices and weights, and the per-expert
  counts — exact (dispatch copies, it must not change a bit);
- combine (= the backward of dispatch): per-token sums of random per-row values, against a
  float64 sum, allowed a small multiple of PyTorch's own bfloat16 error;
- backward of combine: a dispatch of a gradient with the cached handle — exact.

With ``--device cpu`` in the harness's test mode (the wizard's own tests, through the device
hooks of ``verify_kernel.py``) the same comparison runs on the CPU with the gloo backend against
a stand-in package. ``KSW_VERIFY_DEEPEP_WORLDS`` (e.g. ``2`` or ``2,4``) limits the GPU counts
that are tried.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import time
import traceback

import harness_common as hc
import harness_gate

MODULE = "deep_ep"
# the GPU gate (harness_gate) is taken in run_world once the worker processes have started
# (each imports torch: seconds that may overlap another kernel's verification), not before
GPU_GATE_INSIDE = True
GO_WAIT_S = 3600  # how long a worker waits for its turn on the GPU (the runner's limit rules)
DIST_NAMES = ("deep_ep", "deep-ep")
WORLD_SIZES = (2, 4, 8)
WORLDS_ENV = "KSW_VERIFY_DEEPEP_WORLDS"
# one process group per GPU count must finish in this time; a hang is a failure, not a wait
WORLD_TIMEOUT_S = 300
FAILED_GRACE_S = 5  # after one process failed, how long the others get to report
# tokens per rank, hidden size, experts per rank, top-k
GPU_SHAPE = (4096, 7168, 32, 8)
GPU_QUICK_SHAPE = (1024, 4096, 16, 8)
CPU_SHAPE = (96, 128, 4, 4)
COMBINE_FACTOR = 2.0  # allowed multiple of PyTorch's own bfloat16 error in combine
COMBINE_FLOOR = 1e-2  # absolute floor for sums of a few bfloat16 values of size ~1
MASKED_FRACTION = 0.1  # share of top-k slots set to -1 ("no expert")
NVL_BYTES = int(1e9)
RULE_TEXT = (
    "DeepEP's rule: every output is compared with plain PyTorch collectives "
    "(torch.distributed.all_to_all_single) moving the same rows on the same GPUs. The dispatch "
    "layout (tokens per rank, tokens per expert, the token→rank matrix), the received tokens, "
    "their local expert indices and weights, the tokens per local expert, and the backward of "
    "combine (a dispatch with the cached handle) must equal the reference exactly, bit for "
    "bit, in the reference's order (source rank, then token). Combine sums bfloat16 rows per "
    f"token: its largest error against a float64 sum may be at most {COMBINE_FACTOR:g} × "
    f"PyTorch's own bfloat16 error on the same sums + {COMBINE_FLOOR:g}."
)


# --------------------------------------------------------------------------------------------
# The reference: plain PyTorch collectives
# --------------------------------------------------------------------------------------------


def routing(torch, topk_idx, world, num_experts):
    """dst rank of every top-k slot (-1 where masked) and the token→rank matrix."""
    per_rank = num_experts // world
    dst = torch.where(topk_idx >= 0, topk_idx // per_rank, torch.full_like(topk_idx, -1))
    in_rank = torch.zeros((topk_idx.size(0), world), dtype=torch.bool, device=topk_idx.device)
    for r in range(world):
        in_rank[:, r] = (dst == r).any(dim=1)
    return dst, in_rank


def reference_layout(torch, topk_idx, world, num_experts):
    _, in_rank = routing(torch, topk_idx, world, num_experts)
    per_rank = in_rank.sum(dim=0).to(torch.int32)
    valid = topk_idx[topk_idx >= 0]
    per_expert = torch.bincount(valid.flatten().long(), minlength=num_experts).to(torch.int32)
    return per_rank, per_expert, in_rank


def _exchange(torch, dist, rows, send_counts, group=None):
    """all_to_all_single of ``rows`` grouped by destination with ``send_counts``; returns the
    received rows (grouped by source rank) and the receive counts."""
    world = len(send_counts)
    device = rows.device
    send = torch.tensor(send_counts, dtype=torch.int64, device=device)
    recv = torch.empty_like(send)
    dist.all_to_all_single(recv, send, group=group)
    recv_counts = [int(v) for v in recv.tolist()]
    out = torch.empty((sum(recv_counts),) + tuple(rows.shape[1:]), dtype=rows.dtype, device=device)
    dist.all_to_all_single(out, rows.contiguous(), recv_counts, list(send_counts), group=group)
    assert len(recv_counts) == world
    return out, recv_counts


def reference_dispatch(torch, dist, rank, world, x, topk_idx, topk_weights, num_experts):
    """What every rank receives: tokens ordered by source rank, then token index; the local
    expert index of each slot (-1 for slots owned by another rank); their weights (0 there)."""
    per_rank = num_experts // world
    dst, in_rank = routing(torch, topk_idx, world, num_experts)
    rows, idx_rows, weight_rows, token_ids, counts = [], [], [], [], []
    for d in range(world):
        sel = in_rank[:, d].nonzero().flatten()
        counts.append(int(sel.numel()))
        rows.append(x[sel])
        mine = dst[sel] == d
        local = topk_idx[sel] - d * per_rank
        idx_rows.append(torch.where(mine, local, torch.full_like(local, -1)))
        weights = topk_weights[sel]
        weight_rows.append(torch.where(mine, weights, torch.zeros_like(weights)))
        token_ids.append(sel)
    recv_x, recv_counts = _exchange(torch, dist, torch.cat(rows), counts)
    recv_idx, _ = _exchange(torch, dist, torch.cat(idx_rows), counts)
    recv_w, _ = _exchange(torch, dist, torch.cat(weight_rows), counts)
    recv_src, _ = _exchange(torch, dist, torch.cat(token_ids), counts)
    per_expert = [int((recv_idx == e).sum()) for e in range(per_rank)]
    return {
        "x": recv_x,
        "topk_idx": recv_idx,
        "topk_weights": recv_w,
        "per_expert": per_expert,
        "recv_counts": recv_counts,
        "send_counts": counts,
        "src_token": recv_src,
        "sent_token": torch.cat(token_ids),
    }


def reference_combine(torch, dist, values, ref, num_tokens, dtype):
    """Send each received row back to its source and sum per token: float64 (the reference)
    and in ``dtype`` rank by rank (what plain PyTorch gets in that precision)."""
    back, _ = _exchange(torch, dist, values, ref["recv_counts"])
    sent = ref["sent_token"]
    shape = (num_tokens,) + tuple(values.shape[1:])
    exact = torch.zeros(shape, dtype=torch.float64, device=values.device)
    exact.index_add_(0, sent, back.double())
    plain = torch.zeros(shape, dtype=dtype, device=values.device)
    plain.index_add_(0, sent, back.to(dtype))
    return exact, plain


# --------------------------------------------------------------------------------------------
# Comparisons, with reasons in words
# --------------------------------------------------------------------------------------------


def _rows_differ(torch, got, want):
    if got.shape != want.shape:
        return None
    if got.dim() == 1:
        return (got != want).nonzero().flatten()
    return (got != want).reshape(got.size(0), -1).any(dim=1).nonzero().flatten()


def compare_exact(torch, what, got, want, src=None):
    """(ok, reason, details) for an output that must equal the reference bit for bit."""
    if got is None:
        return False, f"{what}: the kernel returned nothing", {}
    if tuple(got.shape) != tuple(want.shape):
        return (
            False,
            f"{what}: the kernel returned shape {list(got.shape)}, the reference "
            f"{list(want.shape)}",
            {"kernel_shape": list(got.shape), "reference_shape": list(want.shape)},
        )
    got_c = got.to(want.dtype) if got.dtype != want.dtype else got
    bad = _rows_differ(torch, got_c, want)
    if bad is None or bad.numel() == 0:
        return True, "", {"rows": int(want.size(0)) if want.dim() else 1}
    first = int(bad[0])
    details = {"rows_differing": int(bad.numel()), "rows": int(want.size(0)), "first_row": first}
    where = f"row {first}"
    if src is not None and first < src.numel():
        where += f" (token {int(src[first])} of its source rank)"
    same_set = False
    if got_c.dim() >= 1 and got_c.numel() and want.numel():
        a = got_c.reshape(got_c.size(0), -1).double()
        b = want.reshape(want.size(0), -1).double()
        same_set = bool(
            torch.equal(torch.sort(a.sum(dim=1)).values, torch.sort(b.sum(dim=1)).values)
        )
    reason = (
        f"{what}: {int(bad.numel())} of {int(want.size(0))} rows differ from the reference, "
        f"first at {where}"
    )
    if same_set:
        reason += "; the same rows arrived in a different order"
        details["same_rows_other_order"] = True
    return False, reason, details


def compare_sum(torch, what, got, exact, plain):
    """(ok, reason, details) for a reduction: the kernel's error against the float64 sum may
    be at most COMBINE_FACTOR × PyTorch's own error in the same precision (+ a small floor)."""
    if got is None:
        return False, f"{what}: the kernel returned nothing", {}
    if tuple(got.shape) != tuple(exact.shape):
        return (
            False,
            f"{what}: the kernel returned shape {list(got.shape)}, the reference "
            f"{list(exact.shape)}",
            {},
        )
    g = got.double()
    if not bool(torch.isfinite(g).all()):
        count = int((~torch.isfinite(g)).sum())
        return False, f"{what}: {count} values are NaN or infinite", {"nonfinite": count}
    err = (g - exact).abs()
    kernel_err = float(err.max()) if err.numel() else 0.0
    torch_err = float((plain.double() - exact).abs().max()) if err.numel() else 0.0
    allowed = COMBINE_FACTOR * torch_err + COMBINE_FLOOR
    details = {
        "max_error": kernel_err,
        "pytorch_error": torch_err,
        "allowed": allowed,
        "factor": COMBINE_FACTOR,
        "floor": COMBINE_FLOOR,
    }
    if kernel_err <= allowed:
        return True, "", details
    flat = int(err.flatten().argmax())
    token = flat // max(1, exact[0].numel()) if exact.dim() > 1 else flat
    ratio = kernel_err / torch_err if torch_err else float("inf")
    reason = (
        f"{what}: the sums are wrong — largest error {kernel_err:.3g} at token {token}, "
        f"{ratio:.1f}× PyTorch's own bfloat16 error ({torch_err:.3g}); allowed "
        f"{COMBINE_FACTOR:g}× plus {COMBINE_FLOOR:g}"
    )
    return False, reason, details


# --------------------------------------------------------------------------------------------
# One process per GPU
# --------------------------------------------------------------------------------------------


def _inputs(torch, seed, world, rank, shape, device, dtype, index_dtype):
    tokens, hidden, experts_per_rank, topk = shape
    num_experts = experts_per_rank * world
    gen = torch.Generator(device="cpu")
    gen.manual_seed(seed * 1000003 + world * 7919 + rank * 104729 + 17)
    x = torch.randn((tokens, hidden), generator=gen).to(dtype)
    scores = torch.rand((tokens, num_experts), generator=gen)
    topk_idx = torch.topk(scores, min(topk, num_experts), dim=-1).indices
    masked = torch.rand(topk_idx.shape, generator=gen) < MASKED_FRACTION
    topk_idx = torch.where(masked, torch.full_like(topk_idx, -1), topk_idx)
    topk_weights = torch.rand(topk_idx.shape, generator=gen).float()
    values_seed = torch.Generator(device="cpu")
    values_seed.manual_seed(seed * 31 + world * 7 + rank)
    return {
        "x": x.to(device),
        "topk_idx": topk_idx.to(index_dtype).to(device),
        "topk_weights": topk_weights.to(device),
        "num_experts": num_experts,
        "gen": values_seed,
    }


def _median_ms(torch, fn, cuda, warmup, reps):
    """The median in milliseconds (a float), on either device."""
    median, _reps = hc.median_ms(torch, fn, warmup, reps, cuda)
    return float(median)


def _worker(rank, world, options):
    """Runs in each spawned process; writes its results to ``<out>/rank<N>.json``."""
    import torch
    import torch.distributed as dist

    results = {"rank": rank, "checks": [], "timings": [], "error": None}
    out_path = os.path.join(options["out"], f"rank{rank}.json")
    cuda = options["device"] == "cuda"
    try:
        if options.get("gate"):
            _ready_then_wait(options["out"], rank)
        if cuda:
            torch.cuda.set_device(rank)
        dist.init_process_group(
            "nccl" if cuda else "gloo",
            init_method="file://" + options["init_file"],
            rank=rank,
            world_size=world,
        )
        device = torch.device("cuda", rank) if cuda else torch.device("cpu")
        deep_ep = __import__(MODULE)
        group = dist.new_group(list(range(world)))
        buffer = deep_ep.Buffer(group, options["nvl_bytes"], 0)
        index_dtype = getattr(deep_ep, "topk_idx_t", torch.int64)
        shape = tuple(options["shape"])
        inp = _inputs(torch, options["seed"], world, rank, shape, device, torch.bfloat16,
                      index_dtype)
        x, topk_idx, topk_weights, num_experts = (
            inp["x"], inp["topk_idx"], inp["topk_weights"], inp["num_experts"]
        )

        def record(name, ok, reason, details):
            results["checks"].append(
                {"name": name, "ok": bool(ok), "reason": reason, "details": details}
            )

        # layout
        per_rank, _, per_expert, in_rank, _ = buffer.get_dispatch_layout(topk_idx, num_experts)
        ref_rank, ref_expert, ref_in = reference_layout(torch, topk_idx, world, num_experts)
        checks = [
            compare_exact(torch, "tokens per rank", per_rank, ref_rank),
            compare_exact(torch, "tokens per expert", per_expert, ref_expert),
            compare_exact(torch, "token→rank matrix", in_rank, ref_in),
        ]
        bad = [c for c in checks if not c[0]]
        record("layout", not bad, bad[0][1] if bad else "", {"parts": [c[2] for c in checks]})

        # dispatch
        recv_x, recv_idx, recv_w, recv_per_expert, handle, _ = buffer.dispatch(
            x,
            num_tokens_per_rank=per_rank,
            is_token_in_rank=in_rank,
            num_tokens_per_expert=per_expert,
            topk_idx=topk_idx,
            topk_weights=topk_weights,
        )
        ref = reference_dispatch(torch, dist, rank, world, x, topk_idx, topk_weights, num_experts)
        checks = [
            compare_exact(torch, "received tokens", recv_x, ref["x"], ref["src_token"]),
            compare_exact(torch, "received expert indices", recv_idx, ref["topk_idx"],
                          ref["src_token"]),
            compare_exact(torch, "received weights", recv_w, ref["topk_weights"], ref["src_token"]),
        ]
        if list(recv_per_expert) != ref["per_expert"]:
            checks.append(
                (
                    False,
                    f"tokens per local expert: the kernel says {list(recv_per_expert)[:8]}, "
                    f"the reference {ref['per_expert'][:8]}",
                    {},
                )
            )
        bad = [c for c in checks if not c[0]]
        record(
            "dispatch",
            not bad,
            bad[0][1] if bad else "",
            {"received_tokens": int(ref["x"].size(0)), "parts": [c[2] for c in checks]},
        )

        # combine (also the backward of dispatch)
        rows = int(ref["x"].size(0))
        values = torch.randn((rows, shape[1]), generator=inp["gen"]).to(torch.bfloat16).to(device)
        combined, _, _ = buffer.combine(values, handle)
        exact, plain = reference_combine(torch, dist, values, ref, shape[0], torch.bfloat16)
        ok, reason, details = compare_sum(torch, "combined tokens", combined, exact, plain)
        record("combine", ok, reason, details)

        # backward of combine: dispatch of a gradient with the cached handle
        grad = torch.randn((shape[0], shape[1]), generator=inp["gen"]).to(torch.bfloat16).to(device)
        recv_grad = buffer.dispatch(grad, handle=handle)[0]
        ref_grad = reference_dispatch(torch, dist, rank, world, grad, topk_idx, topk_weights,
                                      num_experts)
        ok, reason, details = compare_exact(
            torch, "received gradient", recv_grad, ref_grad["x"], ref_grad["src_token"]
        )
        record("combine backward", ok, reason, details)

        if options["timing"]:
            try:
                # the checks' results are kept first: a rank stuck in a timing loop is
                # stopped by the parent, and what it checked still counts
                _write_results(out_path, results)
                results["timings"] = _timings(torch, dist, buffer, options,
                                              dict(inp, in_rank=in_rank), ref, handle, values,
                                              shape, world, cuda, device)
            except Exception as exc:
                # speed is secondary: the checks above stand, the timing says why it is missing
                results["timing_error"] = hc.short_exception(exc)
        if hasattr(buffer, "destroy"):
            try:
                buffer.destroy()
            except Exception:
                pass
        dist.barrier()
    except Exception as exc:
        results["error"] = hc.short_exception(exc)
        results["error_time"] = time.time()
        results["traceback"] = traceback.format_exc(limit=8)
    finally:
        _write_results(out_path, results)
        try:
            if dist.is_initialized():
                dist.destroy_process_group()
        except Exception:
            pass


def _timings(torch, dist, buffer, options, inp, ref, handle, values, shape, world, cuda,
             device):
    """Median times of DeepEP's dispatch and combine and of plain PyTorch collectives moving
    the same rows (all_to_all_single, and index_add for combine's sums)."""
    x, in_rank = inp["x"], inp["in_rank"]
    warmup, reps = (2, 5) if options["quick"] else (3, 10)
    dispatch_ms = _median_ms(
        torch,
        lambda: buffer.dispatch(x, handle=handle),
        cuda, warmup, reps,
    )
    # the plain way: gather the rows for each destination (their indices precomputed, as
    # DeepEP's handle holds its layout), then one all_to_all_single
    order = torch.cat([in_rank[:, d].nonzero().flatten() for d in range(world)])
    send_rows = x.index_select(0, order)
    recv_rows = torch.empty_like(ref["x"])
    send_counts, recv_counts = ref["send_counts"], ref["recv_counts"]

    def reference_dispatch_step():
        torch.index_select(x, 0, order, out=send_rows)
        dist.all_to_all_single(recv_rows, send_rows, recv_counts, send_counts)

    a2a_ms = _median_ms(torch, reference_dispatch_step, cuda, warmup, reps)
    combine_ms = _median_ms(torch, lambda: buffer.combine(values, handle), cuda, warmup,
                            reps)
    back = torch.empty_like(send_rows)
    sent = ref["sent_token"]
    acc = torch.zeros((shape[0], shape[1]), dtype=torch.bfloat16, device=device)

    def reference_combine_step():
        dist.all_to_all_single(back, values, send_counts, recv_counts)
        acc.zero_()
        acc.index_add_(0, sent, back)

    combine_ref_ms = _median_ms(torch, reference_combine_step, cuda, warmup, reps)
    return [
        {"name": "dispatch", "kernel_ms": dispatch_ms, "reference_ms": a2a_ms},
        {"name": "combine", "kernel_ms": combine_ms, "reference_ms": combine_ref_ms},
    ]


def _write_results(path, results):
    with open(path + ".part", "w", encoding="utf-8") as handle_out:
        json.dump(results, handle_out, default=str)
    os.replace(path + ".part", path)


def _any_rank_failed(folder, world):
    for rank in range(world):
        try:
            with open(os.path.join(folder, f"rank{rank}.json"), encoding="utf-8") as handle:
                data = json.load(handle)
                if data.get("error") or data.get("timing_error"):
                    return True
        except (OSError, ValueError):
            continue
    return False


def _ready_then_wait(folder, rank):
    """A worker's start-up is done (torch imported): say so, then wait for the parent's "go"
    (it holds the GPU gate from then on)."""
    with open(os.path.join(folder, f"ready{rank}"), "w", encoding="utf-8"):
        pass
    deadline = time.monotonic() + GO_WAIT_S
    while not os.path.exists(os.path.join(folder, "go")):
        if time.monotonic() > deadline:
            raise RuntimeError(f"no turn on the GPU within {GO_WAIT_S} s")
        time.sleep(0.02)


def _all_ready(folder, world):
    return all(os.path.exists(os.path.join(folder, f"ready{rank}")) for rank in range(world))


def run_world(h, world, device_type, shape, timing):
    """Spawns ``world`` processes and returns their results (one dict per rank)."""
    import torch.multiprocessing as mp

    folder = tempfile.mkdtemp(prefix=f"ksw-deepep-{world}-")
    options = {
        "out": folder,
        "init_file": os.path.join(folder, "rendezvous"),
        "device": device_type,
        "seed": h.seed,
        "shape": list(shape),
        "quick": h.quick,
        "timing": timing,
        "nvl_bytes": NVL_BYTES,
        "gate": harness_gate.configured(),
    }
    gate = harness_gate.Gate() if options["gate"] else None
    context = mp.start_processes(_worker, args=(world, options), nprocs=world, join=False,
                                 start_method="spawn")
    deadline = time.monotonic() + WORLD_TIMEOUT_S
    crashed = None
    failed_seen = False
    waiting = gate is not None
    turn = None
    try:
        while not context.join(timeout=0.1 if waiting else 0.5):
            failed = _any_rank_failed(folder, world)  # read once a look: the ranks' files
            if waiting and (failed or _all_ready(folder, world)):
                gate.enter()  # the workers' GPU work, one verification at a time
                turn = harness_gate.record_turn(h.report, gate)
                waited = harness_gate.waited_words(gate)
                if waited:
                    hc.log(waited)
                with open(os.path.join(folder, "go"), "w", encoding="utf-8"):
                    pass
                waiting = False
                deadline = time.monotonic() + WORLD_TIMEOUT_S
            if not failed_seen and failed:
                # the others are stuck waiting for a partner that is gone: a short grace
                # period for their own results, then they are stopped
                failed_seen = True
                deadline = min(deadline, time.monotonic() + FAILED_GRACE_S)
            if time.monotonic() > deadline:
                if failed_seen:
                    break
                crashed = (
                    f"the {world} processes did not finish within {WORLD_TIMEOUT_S} s (a hang in "
                    "dispatch or combine)"
                )
                break
    except Exception as exc:  # a process died (exit code or signal)
        crashed = f"a process died: {hc.short_exception(exc, 300)}"
    finally:
        for proc in context.processes:
            if proc.is_alive():
                proc.kill()
        if turn is not None:
            harness_gate.end_turn(turn)
        if gate is not None:
            gate.leave()
    ranks = []
    for rank in range(world):
        path = os.path.join(folder, f"rank{rank}.json")
        try:
            with open(path, encoding="utf-8") as handle:
                ranks.append(json.load(handle))
        except (OSError, ValueError):
            ranks.append({"rank": rank, "checks": [], "timings": [],
                          "error": crashed or "this process wrote no result"})
    # the processes are gone (joined or killed): their folder is not left behind in the
    # user's temporary folder
    shutil.rmtree(folder, ignore_errors=True)
    return ranks


def summarize(world, ranks, name):
    """(status, reason, details) of one named check over all ranks."""
    errors = [r for r in ranks if r.get("error")]
    per_rank = {}
    for r in ranks:
        for check in r.get("checks", []):
            if check["name"] == name:
                per_rank[r["rank"]] = check
    failing = [(rank, c) for rank, c in sorted(per_rank.items()) if not c["ok"]]
    if failing:
        rank, check = failing[0]
        more = f" (and on {len(failing) - 1} more)" if len(failing) > 1 else ""
        return "fail", f"on GPU {rank} of {world}{more}: {check['reason']}", {
            "ranks": {str(k): v["details"] for k, v in per_rank.items()}
        }
    if len(per_rank) < world:
        if errors:
            # the process that failed first is the cause; the others usually fail after it
            # because their partner is gone
            first = min(errors, key=lambda r: r.get("error_time", float("inf")))
            return "error", f"process {first['rank']} of {world} failed: {first['error']}", {
                "traceback": first.get("traceback", "")
            }
        return "error", f"only {len(per_rank)} of {world} processes ran this check", {}
    return "pass", "", {"ranks": {str(k): v["details"] for k, v in per_rank.items()}}


CHECKS = (
    ("layout", "dispatch layout (tokens per rank and expert)"),
    ("dispatch", "dispatch (forward)"),
    ("combine", "combine (forward; also the backward of dispatch)"),
    ("combine backward", "backward of combine (dispatch with the cached handle)"),
)


def world_sizes(h, available):
    """The GPU counts to check: 2, 4 and 8 where there are that many (or what
    KSW_VERIFY_DEEPEP_WORLDS says). The quick mode (a re-verification) checks the largest count
    alone: every GPU and NVLink path still takes part, and each count costs its own start of
    worker processes (8.6 s at 2 GPUs, 10.9 s at 4 on the 4-GPU H200 machine)."""
    text = os.environ.get(WORLDS_ENV, "")
    wanted = WORLD_SIZES
    if text.strip():
        try:
            wanted = tuple(int(v) for v in text.replace(" ", "").split(",") if v)
        except ValueError:
            raise hc.HarnessError(
                "bad_option", f"{WORLDS_ENV}={text!r} is not a list of numbers"
            ) from None
    fit = [w for w in wanted if w <= available]
    if h.quick and not text.strip() and fit:
        return [max(fit)]
    return fit


def run(h):
    torch = h.torch
    kernel = hc.import_kernel(MODULE)
    facts = hc.kernel_facts(kernel, DIST_NAMES)
    h.report["kernel"] = facts
    if not hasattr(kernel, "Buffer"):
        raise hc.HarnessError(
            "import_failed",
            f"The module deep_ep imported from {facts.get('file')} has no Buffer: this DeepEP "
            "version's intranode API is not one the wizard can check.",
        )
    h.report["rule"] = {
        "text": RULE_TEXT,
        "exact": ["layout", "dispatch", "combine backward"],
        "combine_factor": COMBINE_FACTOR,
        "combine_floor": COMBINE_FLOOR,
        "reference": "torch.distributed.all_to_all_single",
    }
    device = hc.gpu_device(h, "DeepEP")
    cuda = device.type == "cuda"
    if cuda:
        available = int(torch.cuda.device_count())
        try:
            facts["sm90_compiled"] = bool(kernel.Buffer.is_sm90_compiled())
        except Exception as exc:
            facts["sm90_compiled_error"] = hc.short_exception(exc)
        # NVLink multicast stays off (the wizard's rule for every child; kept if set)
        for name, value in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"),
                            ("NVSHMEM_DISABLE_NVLS", "1")):
            os.environ.setdefault(name, value)
        shape = GPU_QUICK_SHAPE if h.quick else GPU_SHAPE
    else:
        available = max(WORLD_SIZES)
        shape = CPU_SHAPE
    worlds = world_sizes(h, available)
    h.report["options"]["gpu_counts"] = worlds
    if not worlds:
        raise hc.HarnessError(
            "not_enough_gpus",
            f"DeepEP moves tokens between GPUs: its check needs 2, 4 or 8 GPUs, and PyTorch sees "
            f"{available} here. The library was imported; dispatch and combine were not run.",
        )
    tokens, hidden, experts_per_rank, topk = shape
    results = {}
    cases = []
    for world in worlds:
        for key, label in CHECKS:
            words = (
                f"{world} GPUs · {label} · bfloat16 · {tokens} tokens per GPU · hidden {hidden} · "
                f"top-{topk} of {experts_per_rank * world} experts"
            )

            def check(h, case, world=world, key=key):
                if world not in results:
                    log_name = "GPU" if cuda else "CPU (gloo)"
                    hc.log(f"starting {world} processes on {log_name}")
                    results[world] = run_world(h, world, device.type, shape, timing=True)
                    for timing in _merge_timings(world, results[world], shape, cuda):
                        h.report["timings"].append(timing)
                status, reason, details = summarize(world, results[world], key)
                case["details"] = details
                if status == "fail":
                    raise hc.CaseFailure(reason)
                if status == "error":
                    raise RuntimeError(reason)
                case["status"] = "pass"

            cases.append(
                hc.Case(
                    words,
                    check,
                    api=f"deep_ep.Buffer ({key})",
                    device=device.type,
                    dtype="bfloat16",
                    causal=False,
                    shapes={"x": [tokens, hidden], "topk_idx": [tokens, topk]},
                    extra={"gpus": world, "check": key, "experts": experts_per_rank * world},
                )
            )
    h.run_cases(cases)


def _number(value):
    """A finite float, or None (a rank that reported something else)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _merge_timings(world, ranks, shape, cuda):
    """The slowest rank's time per operation (a collective finishes with its slowest rank).
    Never raises: speed is secondary to the checks, and a rank's odd value becomes the
    entry's error."""
    tokens, hidden, experts_per_rank, topk = shape
    backend = "NCCL" if cuda else "gloo"
    label = hc.timing_label(
        "bfloat16", (world, "{n} GPUs"), (tokens, "{n} tokens per GPU"), (hidden, "hidden {n}"),
        f"top-{topk} of {experts_per_rank * world} experts",
    )
    merged = []
    errors = sorted({r["timing_error"] for r in ranks if r.get("timing_error")})
    for name in ("dispatch", "combine"):
        rows = [t for r in ranks for t in (r.get("timings") or []) if t.get("name") == name]
        kernel = [_number(t.get("kernel_ms")) for t in rows]
        reference = [_number(t.get("reference_ms")) for t in rows]
        error = None
        if len(rows) < world or None in kernel or None in reference:
            error = (errors[0] if errors else
                     f"kernel: {world - len(rows)} of {world} processes reported no time"
                     if len(rows) < world else "kernel: a process reported no time")
            if not error.startswith("kernel: "):
                error = "kernel: " + error
        kernel_ms = None if error else max(kernel)
        ref_ms = None if error else max(reference)
        merged.append(
            {
                "name": f"{name} on {world} GPUs",
                "shapes": {"x": [tokens, hidden], "topk_idx": [tokens, topk]},
                "dtype": "bfloat16",
                "label": label,
                "kernel_ms": kernel_ms,
                "sdpa_ms": ref_ms,
                "reference": (f"index_select + all_to_all_single ({backend})"
                              if name == "dispatch"
                              else f"all_to_all_single ({backend}) + index_add"),
                "speedup": (ref_ms / kernel_ms) if kernel_ms and ref_ms else None,
                "runs": None,
                "warmup": None,
                "note": "compared with plain PyTorch collectives moving the same rows",
                "error": error,
            }
        )
    return merged
