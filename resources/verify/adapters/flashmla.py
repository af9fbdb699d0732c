"""FlashMLA (deepseek-ai/FlashMLA).

* SM90 (Hopper): dense MLA decoding, ``flash_mla_with_kvcache`` with ``get_mla_metadata``
  (whose signature changed across versions: it is inspected), d_qk 576, d_v 512, paged KV cache
  of 64-token blocks. Forward only: FlashMLA has no backward on SM90.
* SM100 (Blackwell datacenter): dense MHA prefill ``flash_attn_varlen_func``, forward and
  backward, bf16, (d_qk, d_v) = (128, 128) and (192, 128).

Judged by FlashMLA's own tolerances (its tests' ``check_is_allclose``) against a float32
reference. A call that prints "No kernel instantiated" and returns without computing fails.
"""

from __future__ import annotations

import inspect
import math
import random

import harness_boundary as hb
import harness_common as hc

MODULE = "flash_mla"
BOUNDARY_CALLS = True  # its SM100-only prefill is called on SM90 (harness_boundary)
DIST_NAMES = ("flash_mla", "flash-mla")
D_QK, D_V, BLOCK = 576, 512, 64
DECODE_TOL = {
    "out": {"abs": 8e-4, "rel": 2.01 / 128, "cos": 5e-6, "cast_ref": True},
    "lse": {"abs": 1e-6, "rel": 8.01 / 65536, "cos": None},
}
_PREFILL = {"abs": 1e-3, "rel": 8.01 / 128, "cos": 7e-6}
PREFILL_TOL = {
    "out": _PREFILL,
    "lse": {"abs": 1e-6, "rel": 2.01 / 65536, "cos": None},
    "dq": _PREFILL,
    "dk": _PREFILL,
    "dv": _PREFILL,
}
UPSTREAM_RULE_TEXT = (
    "FlashMLA's own rule (its tests' check_is_allclose): every element of the kernel's result "
    "within an absolute OR a relative tolerance of a float32 reference, NaN/inf in the same "
    "places, and a cosine difference within a limit. Decoding (SM90): out abs 8e-4 / rel "
    "2.01/128 / cosine 5e-6 against the reference rounded to the input dtype, lse abs 1e-6 / "
    "rel 8.01/65536. Prefill (SM100): out, dq, dk, dv abs 1e-3 / rel 8.01/128 / cosine 7e-6, "
    "lse abs 1e-6 / rel 2.01/65536. 'PyTorch' errors are shown for context only."
)
NO_BACKWARD_SM90 = (
    "FlashMLA has no backward pass on SM90 (Hopper): only the forward pass (dense MLA decoding) "
    "was checked."
)


def _lse(torch, scores):
    """Row logsumexp, in float32 at least (FlashMLA returns it in float32)."""
    wide = torch.promote_types(scores.dtype, torch.float32)
    return scores.to(wide).logsumexp(dim=-1)


def _metadata(kernel, cache_seqlens, s_q, h_q, h_kv):
    """Call get_mla_metadata the way this version wants; returns (result, how it was called)."""
    fn = kernel.get_mla_metadata
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = None
    if params is not None:
        named = [
            p
            for p in params
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
        ]
        if not named:  # FlashMLA >= 2025-09: get_mla_metadata(*args, **kwargs), lazy scheduling
            return fn(), "get_mla_metadata()"
    kwargs = {}
    if params is not None and any(p.name == "num_heads_q" for p in params):
        kwargs["num_heads_q"] = h_q
    result = fn(cache_seqlens, s_q * h_q // h_kv, h_kv, **kwargs)
    heads_q = f", num_heads_q={h_q}" if kwargs else ""
    return result, f"get_mla_metadata(cache_seqlens, {s_q * h_q // h_kv}, {h_kv}{heads_q})"


def _decode_inputs(h, torch, device, dtype, b, s_q, lens, h_q, h_kv, index):
    max_pad = int(math.ceil(max(lens) / 256.0)) * 256
    per_seq = max_pad // BLOCK
    gen = torch.Generator(device="cpu")
    gen.manual_seed(h.generator_seed(index) + 5)
    table = torch.randperm(b * per_seq, generator=gen).to(torch.int32).view(b, per_seq)
    q = (h.randn([b, s_q, h_q, D_QK], torch.float32, "cpu", 4 * index) / 10).clamp(-1, 1)
    blocked_k = (
        h.randn([b * per_seq, BLOCK, h_kv, D_QK], torch.float32, "cpu", 4 * index + 1) / 10
    ).clamp(-1, 1)
    used_blocks = []
    for i, n in enumerate(lens):
        nb = (n + BLOCK - 1) // BLOCK
        used_blocks.append(table[i, :nb].tolist())
        # Like upstream's test: what lies past a sequence's end is NaN, so a kernel that reads
        # it shows NaN, and unused block-table entries are invalid indices.
        blocked_k[table[i, nb:].long()] = float("nan")
        if n % BLOCK:
            blocked_k[int(table[i, nb - 1]), n % BLOCK :] = float("nan")
        table[i, nb:] = 2147480000
    return (
        q.to(device=device, dtype=dtype),
        blocked_k.to(device=device, dtype=dtype),
        table.to(device),
        torch.tensor(lens, dtype=torch.int32, device=device),
        used_blocks,
    )


def _decode_case(kernel, device, dtype_name, b, s_q, mean_sk, h_q, h_kv, varlen, causal, index):
    mask = "causal" if causal else "full"
    var = "var" if varlen else ""
    name = f"decode-{dtype_name}-{mask}-b{b}-sq{s_q}-sk{mean_sk}{var}-hq{h_q}-hkv{h_kv}"
    rng = random.Random(index * 1009 + 7)
    lens = [
        max(int(rng.normalvariate(mean_sk, mean_sk / 2)), s_q) if varlen else mean_sk
        for _ in range(b)
    ]

    def run(h, case):
        torch = h.torch
        dtype = getattr(torch, dtype_name)
        q, blocked_k, table, seqlens, used_blocks = _decode_inputs(
            h, torch, device, dtype, b, s_q, lens, h_q, h_kv, index
        )
        case["shapes"]["k_cache"] = list(blocked_k.shape)
        case["shapes"]["cache_seqlens"] = list(lens)
        scale = 1.0 / math.sqrt(D_QK)

        def kernel_fn(q, blocked_k, block_table, cache_seqlens):
            meta, how = _metadata(kernel, cache_seqlens, s_q, h_q, h_kv)
            case["metadata_call"] = how
            try:
                out, lse = kernel.flash_mla_with_kvcache(
                    q,
                    blocked_k,
                    block_table,
                    cache_seqlens,
                    D_V,
                    meta[0],
                    meta[1],
                    causal=causal,
                )
            except Exception as exc:
                if "DISABLE_FP16" in str(exc):
                    raise hc.CaseSkipped(
                        "this FlashMLA build has fp16 turned off (FLASH_MLA_DISABLE_FP16); the "
                        "bf16 cases check it."
                    ) from None
                raise
            return {"out": out, "lse": lse}

        def reference_fn(q, blocked_k, block_table, cache_seqlens):
            outs, lses = [], []
            for i, n in enumerate(lens):
                idx = torch.tensor(used_blocks[i], dtype=torch.long, device=q.device)
                kv = blocked_k[idx].reshape(-1, h_kv, D_QK)[:n].transpose(0, 1)
                if h_kv != h_q:
                    kv = kv.repeat_interleave(h_q // h_kv, dim=0)
                qi = q[i].transpose(0, 1)  # (h_q, s_q, d)
                scores = torch.matmul(qi, kv.transpose(-2, -1)) * scale
                if causal:
                    mask = hc.causal_mask(torch, s_q, n, "bottom_right", q.device)
                    scores = scores.masked_fill(mask, float("-inf"))
                lses.append(_lse(torch, scores))
                probs = torch.softmax(scores, dim=-1)
                outs.append(torch.matmul(probs, kv[..., :D_V]).transpose(0, 1))
            return {"out": torch.stack(outs), "lse": torch.stack(lses)}

        hc.run_check(
            h,
            case,
            inputs={
                "q": q,
                "blocked_k": blocked_k,
                "block_table": table,
                "cache_seqlens": seqlens,
            },
            grad_keys=(),
            kernel_fn=kernel_fn,
            reference_fn=reference_fn,
            backward=False,
            dout=None,
            upstream=DECODE_TOL,
            layout="batch, seqlen_q, heads_q, head_dim_v",
            poison_bytes=[b * s_q * h_q * D_V * q.element_size(), b * h_q * s_q * 4] * 2,
        )

    return hc.Case(
        name,
        run,
        api="flash_mla.flash_mla_with_kvcache",
        device=device.type,
        dtype=dtype_name,
        causal=causal,
        shapes={"q": [b, s_q, h_q, D_QK]},
        extra={"backward": False, "varlen": varlen},
    )


def _prefill_case(kernel, device, lens_q, lens_k, h_q, h_k, d_qk, d_v, causal, scale, index):
    backward = h_q == h_k  # upstream: "SM100 bwd doesn't support GQA now"
    mask = "causal" if causal else "full"
    kv = f"kv{h_k}" if h_k != h_q else ""
    qlens = "_".join(str(n) for n in lens_q)
    klens = "_".join(str(n) for n in lens_k)
    name = f"prefill-bfloat16-{mask}-q{qlens}-k{klens}-h{h_q}{kv}-d{d_qk}_{d_v}"
    cu_q, cu_k = [0], [0]
    for n in lens_q:
        cu_q.append(cu_q[-1] + n)
    for n in lens_k:
        cu_k.append(cu_k[-1] + n)
    qs, ks, vs = [cu_q[-1], h_q, d_qk], [cu_k[-1], h_k, d_qk], [cu_k[-1], h_k, d_v]

    def run(h, case):
        torch = h.torch
        dtype = torch.bfloat16
        q = h.randn(qs, dtype, device, 4 * index, scale=0.1)
        k = h.randn(ks, dtype, device, 4 * index + 1, scale=0.1)
        v = h.randn(vs, dtype, device, 4 * index + 2, scale=0.1)
        dout = h.randn([cu_q[-1], h_q, d_v], dtype, device, 4 * index + 3, scale=0.1)
        cu_q_t = torch.tensor(cu_q, dtype=torch.int32, device=device)
        cu_k_t = torch.tensor(cu_k, dtype=torch.int32, device=device)
        used_scale = scale if scale is not None else d_qk**-0.5

        def kernel_fn(q, k, v):
            out, lse = kernel.flash_attn_varlen_func(
                q,
                k,
                v,
                cu_q_t,
                cu_k_t,
                max(lens_q),
                max(lens_k),
                softmax_scale=scale,
                causal=causal,
            )
            return {"out": out, "lse": lse}

        def reference_fn(q, k, v):
            outs, lses = [], []
            for i in range(len(lens_q)):
                qi = q[cu_q[i] : cu_q[i + 1]].transpose(0, 1)
                ki = k[cu_k[i] : cu_k[i + 1]].transpose(0, 1)
                vi = v[cu_k[i] : cu_k[i + 1]].transpose(0, 1)
                if h_k != h_q:
                    ki = ki.repeat_interleave(h_q // h_k, dim=0)
                    vi = vi.repeat_interleave(h_q // h_k, dim=0)
                scores = torch.matmul(qi, ki.transpose(-2, -1)) * used_scale
                if causal:
                    mask = hc.causal_mask(torch, lens_q[i], lens_k[i], "bottom_right", q.device)
                    scores = scores.masked_fill(mask, float("-inf"))
                lses.append(_lse(torch, scores).transpose(0, 1))
                outs.append(torch.matmul(torch.softmax(scores, dim=-1), vi).transpose(0, 1))
            return {"out": torch.cat(outs), "lse": torch.cat(lses)}

        hc.run_check(
            h,
            case,
            inputs={"q": q, "k": k, "v": v},
            grad_keys=("q", "k", "v") if backward else (),
            kernel_fn=kernel_fn,
            reference_fn=reference_fn,
            backward=backward,
            dout=dout,
            upstream=PREFILL_TOL,
            layout="total_tokens, heads, head_dim",
        )
        if not backward:
            case.setdefault("notes", []).append(
                "forward only: FlashMLA's SM100 backward does not support fewer key/value heads"
            )

    return hc.Case(
        name,
        run,
        api="flash_mla.flash_attn_varlen_func",
        device=device.type,
        dtype="bfloat16",
        causal=causal,
        shapes={"q": qs, "k": ks, "v": vs, "seqlens_q": list(lens_q), "seqlens_k": list(lens_k)},
        extra={"scale": scale, "gqa": h_k != h_q},
    )


def plan_sm90(kernel, device, quick):
    cases = []

    def add(*args):
        cases.append(_decode_case(kernel, device, *args, len(cases)))

    add("bfloat16", 2, 1, 140, 16, 1, False, False)
    add("bfloat16", 4, 2, 600, 64, 1, True, True)
    if not quick:
        add("bfloat16", 1, 1, 4096, 128, 1, False, False)
        add("bfloat16", 3, 2, 300, 32, 2, True, False)
        add("float16", 2, 2, 300, 16, 1, True, True)
    return cases


def plan_sm100(kernel, device, quick):
    cases = []

    def add(*args):
        cases.append(_prefill_case(kernel, device, *args, len(cases)))

    add((100, 257), (100, 300), 8, 8, 192, 128, True, (192 + 100) ** -0.5)
    add((128, 75), (128, 75), 8, 8, 128, 128, False, None)
    if not quick:
        add((100, 257), (100, 300), 8, 8, 128, 128, True, None)
        add((128, 75), (128, 75), 8, 8, 192, 128, False, None)
        add((64, 200), (64, 256), 16, 4, 192, 128, True, None)
    return cases


def _sdpa(torch, q, k, v, causal):
    sdpa = torch.nn.functional.scaled_dot_product_attention
    if q.shape[1] == k.shape[1]:
        return sdpa(q, k, v, is_causal=causal)
    try:
        return sdpa(q, k, v, is_causal=causal, enable_gqa=True)
    except TypeError:  # torch < 2.5
        reps = q.shape[1] // k.shape[1]
        return sdpa(
            q, k.repeat_interleave(reps, dim=1), v.repeat_interleave(reps, dim=1), is_causal=causal
        )


def timings_sm90(h, kernel):
    torch = h.torch
    b, s_k, h_q = 8, 4096, 128  # decoding one token for 8 requests with 4k tokens cached
    dev, dtype = torch.device("cuda"), torch.bfloat16
    per_seq = s_k // BLOCK
    q = (h.randn([b, 1, h_q, D_QK], dtype, dev, 90000) / 10).clamp(-1, 1)
    k = (h.randn([b, s_k, 1, D_QK], dtype, dev, 90001) / 10).clamp(-1, 1)
    blocked_k = k.reshape(b * per_seq, BLOCK, 1, D_QK)
    table = torch.arange(b * per_seq, dtype=torch.int32, device=dev).view(b, per_seq)
    seqlens = torch.full((b,), s_k, dtype=torch.int32, device=dev)
    meta, _ = _metadata(kernel, seqlens, 1, h_q, 1)
    scale = D_QK ** -0.5
    qh = q.view(b, h_q, D_QK)  # one query token: (b, h_q, d)
    kc = k.view(b, s_k, D_QK)  # the one shared (latent) KV head: (b, s_k, d)
    vc = kc[..., :D_V]

    def absorbed_decode():
        # the strongest plain-PyTorch way to decode MLA with absorbed weights: two batched
        # matmuls and a float32 softmax over the cached tokens
        scores = torch.bmm(qh, kc.transpose(1, 2)).float() * scale
        return torch.bmm(torch.softmax(scores, dim=-1).to(dtype), vc)

    # work of one call: QK^T and PV over the whole cache; bytes: the cache, q and the output
    flops = 2.0 * b * h_q * s_k * (D_QK + D_V)
    bytes_moved = 2.0 * (b * s_k * D_QK + b * h_q * D_QK + b * h_q * D_V)
    with torch.no_grad():
        hc.time_pair(
            h,
            "forward (decode)",
            {"q": [b, 1, h_q, D_QK], "k_cache": list(blocked_k.shape)},
            "bfloat16",
            lambda: kernel.flash_mla_with_kvcache(
                q, blocked_k, table, seqlens, D_V, meta[0], meta[1], causal=False
            ),
            absorbed_decode,
            note="plain PyTorch on the same data: torch.bmm (QK^T), a float32 softmax, torch.bmm "
            "(PV), contiguous KV; SDPA is no fair baseline here (it falls back to a slow path "
            "for one query token against 128 heads sharing one KV head)",
            label=hc.timing_label(
                "bfloat16", "decoding", (b, "batch {n}"), (s_k, "{n} cached tokens"),
                (h_q, "{n} query heads"), f"head size {D_QK}",
            ),
            math=False,
            backends=False,
            reference="torch.bmm + softmax",
            flops=flops,
            bytes_moved=bytes_moved,
        )


def timings_sm100(h, kernel):
    torch = h.torch
    b, s, heads, d = 2, 4096, 16, 128
    label = hc.timing_label(
        "bfloat16", (b, "batch {n}"), (s, "{n} tokens"), (heads, "{n} heads"),
        (d, "head size {n}"), causal=True,
    )
    dev, dtype = torch.device("cuda"), torch.bfloat16
    q, k, v, dout = (h.randn([b * s, heads, d], dtype, dev, 90000 + i) for i in range(4))
    cu = torch.arange(0, (b + 1) * s, s, dtype=torch.int32, device=dev)
    qt, kt, vt, doutt = (
        t.view(b, s, heads, d).transpose(1, 2).contiguous() for t in (q, k, v, dout)
    )
    shapes = {"q": [b * s, heads, d], "k": [b * s, heads, d], "v": [b * s, heads, d]}

    def kern(q_, k_, v_):
        return kernel.flash_attn_varlen_func(q_, k_, v_, cu, cu, s, s, causal=True)[0]

    with torch.no_grad():
        hc.time_pair(
            h,
            "forward",
            shapes,
            "bfloat16",
            lambda: kern(q, k, v),
            lambda: _sdpa(torch, qt, kt, vt, True),
            note="causal",
            label=label,
        )
    qg, kg, vg = (t.clone().requires_grad_(True) for t in (q, k, v))
    qtg, ktg, vtg = (t.clone().requires_grad_(True) for t in (qt, kt, vt))

    def kernel_fwd_bwd():
        torch.autograd.grad(kern(qg, kg, vg), (qg, kg, vg), dout)

    def sdpa_fwd_bwd():
        torch.autograd.grad(_sdpa(torch, qtg, ktg, vtg, True), (qtg, ktg, vtg), doutt)

    if h.backward_broken:
        h.note("forward+backward was not timed: the backward pass failed its check.")
    else:
        hc.time_pair(
            h, "forward+backward", shapes, "bfloat16", kernel_fwd_bwd, sdpa_fwd_bwd, label=label
        )


_PREFILL_ON_SM90 = """
import torch
import flash_mla
dev = torch.device(%(device)r)
def sync():
    if dev.type == "cuda":
        torch.cuda.synchronize()
q = torch.randn(128, 2, 192, device=dev).to(torch.bfloat16)
k = torch.randn(128, 2, 192, device=dev).to(torch.bfloat16)
v = torch.randn(128, 2, 128, device=dev).to(torch.bfloat16)
cu = torch.tensor([0, 128], dtype=torch.int32, device=dev)
def call():
    flash_mla.flash_attn_varlen_func(q, k, v, cu, cu, 128, 128)
"""


_SPARSE_32_HEADS = """
import torch
import flash_mla
dev = torch.device(%(device)r)
q = torch.randn(8, 32, 576, device=dev).to(torch.bfloat16)
kv = torch.randn(64, 1, 576, device=dev).to(torch.bfloat16)
indices = torch.zeros(8, 1, 128, dtype=torch.int32, device=dev)
def call():
    flash_mla.flash_mla_sparse_fwd(q, kv, indices, 576 ** -0.5, 512)
    if dev.type == "cuda":
        torch.cuda.synchronize()
"""


def boundary_sm90(kernel, device, quick=False):
    """On SM90 the dense prefill (SM100 only) must raise an error that says so, in a process of
    its own: upstream's call ended in a CUDA launch failure that left the GPU unusable for the
    rest of the program. Not in the quick mode: sparse prefill with 32 query heads (it has
    kernels for 64 and 128) must raise too; upstream's extension ended in a segmentation fault
    (recipe patch mla-size-checks)."""
    out = []
    if callable(getattr(kernel, "flash_attn_varlen_func", None)):
        out += hb.cases([("dense prefill (SM100 only)",
                          _PREFILL_ON_SM90 % {"device": str(device)})],
                        imports="import torch\nimport flash_mla\n", device=device.type,
                        api=MODULE + ".flash_attn_varlen_func (left out on SM90)",
                        needle="SM100")
    if not quick and callable(getattr(kernel, "flash_mla_sparse_fwd", None)):
        out += hb.cases([("sparse prefill with 32 query heads",
                          _SPARSE_32_HEADS % {"device": str(device)})],
                        imports="import torch\nimport flash_mla\n", device=device.type,
                        api=MODULE + ".flash_mla_sparse_fwd (64 or 128 query heads)",
                        needle="64 or 128 query heads")
    return out


def run(h):
    torch = h.torch
    kernel = hc.import_kernel(MODULE)
    h.report["kernel"] = hc.kernel_facts(kernel, DIST_NAMES)
    device = hc.gpu_device(h, "FlashMLA")
    cc = hc.device_capability(h, device)
    if cc is None:
        raise hc.HarnessError(
            "unsupported_gpu",
            "FlashMLA's checks depend on the GPU architecture; none is known here.",
        )
    h.report["kernel"]["checked_arch"] = f"sm_{cc[0]}{cc[1]}"
    h.report["rule"] = {
        "text": UPSTREAM_RULE_TEXT,
        "upstream_tolerances": {
            "decode (SM90)": DECODE_TOL,
            "prefill (SM100)": PREFILL_TOL,
        },
    }
    if cc[0] == 9:
        for name in ("flash_mla_with_kvcache", "get_mla_metadata"):
            if not callable(getattr(kernel, name, None)):
                raise hc.HarnessError(
                    "import_failed", f"flash_mla has no {name}(): not a FlashMLA this check knows."
                )
        h.note(NO_BACKWARD_SM90)
        h.note(
            "Judged by FlashMLA's own decoding tolerances: out within abs 8e-4 or rel 2.01/128 "
            "per element and cosine difference <= 5e-6 against a float32 reference rounded to "
            "the input dtype; lse within abs 1e-6 or rel 8.01/65536."
        )
        cases = plan_sm90(kernel, device, h.quick) + boundary_sm90(kernel, device, h.quick)
        timing = timings_sm90
    elif cc[0] == 10:
        if not callable(getattr(kernel, "flash_attn_varlen_func", None)):
            raise hc.HarnessError(
                "import_failed",
                "flash_mla has no flash_attn_varlen_func(): this FlashMLA has no SM100 prefill.",
            )
        h.note(
            "SM100: the dense prefill kernel (flash_attn_varlen_func) was checked forward and "
            "backward, judged by FlashMLA's own tolerances (abs 1e-3 or rel 8.01/128 per "
            "element, cosine difference <= 7e-6; lse abs 1e-6 or rel 2.01/65536). Dense "
            "decoding is SM90-only."
        )
        cases = plan_sm100(kernel, device, h.quick)
        timing = timings_sm100
    else:
        name = torch.cuda.get_device_name(device) if device.type == "cuda" else "this GPU"
        raise hc.HarnessError(
            "unsupported_gpu",
            "FlashMLA runs on SM90 (Hopper: H100, H200, H800) and SM100 (Blackwell datacenter: "
            f"B200, GB200) only; {name} is compute capability {cc[0]}.{cc[1]}.",
        )
    h.run_cases(cases)
    h.backward_broken = hc.backward_failed(h.report["cases"])
    if device.type == "cuda" and not h.cuda_broken:
        timing(h, kernel)
