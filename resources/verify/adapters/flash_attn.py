"""FlashAttention 2 (Dao-AILab/flash-attention): ``flash_attn_func`` and
``flash_attn_varlen_func``, forward and backward, fp16 and bf16, GQA.

Layout (batch, seqlen, heads, head_dim); varlen: (total_tokens, heads, head_dim) with int32
``cu_seqlens``. Needs a GPU of compute capability 8.0 or newer. The causal mask is aligned
bottom-right when seqlen_q != seqlen_k (FlashAttention >= 2.1). A build whose backward raises
or returns no gradients fails, with that reason.
"""

from __future__ import annotations

import math

import harness_common as hc

MODULE = "flash_attn"
DIST_NAMES = ("flash_attn", "flash-attn")
LAYOUT = "batch, seqlen, heads, head_dim"
VARLEN_LAYOUT = "total_tokens, heads, head_dim"
NO_BACKWARD_HINT = (
    "This flash-attn build has no working backward pass (some community wheels are built "
    "forward-only); training needs a build with the backward."
)
# batch, seqlen, heads, head_dim: a realistic size (a 4k-token context of a mid-sized model), the
# same for the quick verification (which times fewer repetitions), so speeds stay comparable
TIMING = (2, 4096, 16, 128)


def _first(result):
    return result[0] if isinstance(result, (tuple, list)) else result


def _bshd_reference(torch, causal, scale):
    def reference(q, k, v):
        out = hc.attention_bhsd(
            torch,
            q.transpose(1, 2),
            k.transpose(1, 2),
            v.transpose(1, 2),
            causal,
            scale,
            align="bottom_right",
        )
        return {"out": out.transpose(1, 2)}

    return reference


def _func_case(kernel, device, dtype_name, b, sq, sk, hq, hk, d, causal, scale, index,
               api=MODULE):
    mask = "causal" if causal else "full"
    kv = f"kv{hk}" if hk != hq else ""
    name = f"func-{dtype_name}-{mask}-b{b}-sq{sq}-sk{sk}-h{hq}{kv}-d{d}"
    if scale is not None:
        name += f"-scale{scale:g}"
    qs, ks = [b, sq, hq, d], [b, sk, hk, d]

    def run(h, case):
        torch = h.torch
        dtype = getattr(torch, dtype_name)
        q = h.randn(qs, dtype, device, 4 * index)
        k = h.randn(ks, dtype, device, 4 * index + 1)
        v = h.randn(ks, dtype, device, 4 * index + 2)
        dout = h.randn(qs, dtype, device, 4 * index + 3)
        used_scale = scale if scale is not None else 1.0 / math.sqrt(d)

        def kernel_fn(q, k, v):
            out = kernel.flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=scale, causal=causal)
            return {"out": _first(out)}

        hc.run_check(
            h,
            case,
            inputs={"q": q, "k": k, "v": v},
            grad_keys=("q", "k", "v"),
            kernel_fn=kernel_fn,
            reference_fn=_bshd_reference(torch, causal, used_scale),
            backward=True,
            dout=dout,
            no_backward_hint=NO_BACKWARD_HINT,
            layout=LAYOUT,
        )

    return hc.Case(
        name,
        run,
        api=f"{api}.flash_attn_func",
        device=device.type,
        dtype=dtype_name,
        causal=causal,
        shapes={"q": qs, "k": ks, "v": ks},
        extra={"scale": scale, "gqa": hk != hq},
    )


def _varlen_case(kernel, device, dtype_name, lens_q, lens_k, hq, hk, d, causal, scale, index,
                 api=MODULE):
    mask = "causal" if causal else "full"
    kv = f"kv{hk}" if hk != hq else ""
    qlens = "_".join(str(n) for n in lens_q)
    klens = "_".join(str(n) for n in lens_k)
    name = f"varlen-{dtype_name}-{mask}-q{qlens}-k{klens}-h{hq}{kv}-d{d}"
    if scale is not None:
        name += f"-scale{scale:g}"
    cu_q, cu_k = [0], [0]
    for n in lens_q:
        cu_q.append(cu_q[-1] + n)
    for n in lens_k:
        cu_k.append(cu_k[-1] + n)
    qs, ks = [cu_q[-1], hq, d], [cu_k[-1], hk, d]

    def run(h, case):
        torch = h.torch
        dtype = getattr(torch, dtype_name)
        q = h.randn(qs, dtype, device, 4 * index)
        k = h.randn(ks, dtype, device, 4 * index + 1)
        v = h.randn(ks, dtype, device, 4 * index + 2)
        dout = h.randn(qs, dtype, device, 4 * index + 3)
        cu_q_t = torch.tensor(cu_q, dtype=torch.int32, device=device)
        cu_k_t = torch.tensor(cu_k, dtype=torch.int32, device=device)
        used_scale = scale if scale is not None else 1.0 / math.sqrt(d)

        def kernel_fn(q, k, v):
            out = kernel.flash_attn_varlen_func(
                q,
                k,
                v,
                cu_q_t,
                cu_k_t,
                max(lens_q),
                max(lens_k),
                dropout_p=0.0,
                softmax_scale=scale,
                causal=causal,
            )
            return {"out": _first(out)}

        def reference_fn(q, k, v):
            parts = []
            for i in range(len(lens_q)):
                qi = q[cu_q[i] : cu_q[i + 1]].transpose(0, 1).unsqueeze(0)
                ki = k[cu_k[i] : cu_k[i + 1]].transpose(0, 1).unsqueeze(0)
                vi = v[cu_k[i] : cu_k[i + 1]].transpose(0, 1).unsqueeze(0)
                oi = hc.attention_bhsd(torch, qi, ki, vi, causal, used_scale, align="bottom_right")
                parts.append(oi.squeeze(0).transpose(0, 1))
            return {"out": torch.cat(parts, dim=0)}

        hc.run_check(
            h,
            case,
            inputs={"q": q, "k": k, "v": v},
            grad_keys=("q", "k", "v"),
            kernel_fn=kernel_fn,
            reference_fn=reference_fn,
            backward=True,
            dout=dout,
            no_backward_hint=NO_BACKWARD_HINT,
            layout=VARLEN_LAYOUT,
        )

    return hc.Case(
        name,
        run,
        api=f"{api}.flash_attn_varlen_func",
        device=device.type,
        dtype=dtype_name,
        causal=causal,
        shapes={"q": qs, "k": ks, "v": ks, "seqlens_q": list(lens_q), "seqlens_k": list(lens_k)},
        extra={"scale": scale, "gqa": hk != hq},
    )


def plan(kernel, device, quick, head_dims, api=MODULE):
    """The checks: ``head_dims`` are the head sizes to check (128 first when it is there: the
    quick and GQA checks use the first two); ``api`` names the module in the report."""
    cases = []
    main = head_dims[0]
    other = head_dims[1] if len(head_dims) > 1 else main

    def add(factory, *args):
        cases.append(factory(kernel, device, *args, len(cases), api=api))

    if quick:
        add(_func_case, "float16", 2, 257, 257, 4, 4, main, True, None)
        add(_func_case, "bfloat16", 2, 200, 200, 8, 2, other, False, None)
        add(_varlen_case, "bfloat16", (17, 100, 64), (40, 100, 200), 8, 2, main, True, None)
        return cases
    for dtype in ("float16", "bfloat16"):
        for d in head_dims:
            for causal in (False, True):
                add(_func_case, dtype, 2, 257, 257, 4, 4, d, causal, None)
    # GQA: fewer key/value heads; causal with seqlen_q < seqlen_k (bottom-right mask)
    add(_func_case, "float16", 2, 113, 250, 8, 2, main, True, None)
    add(_func_case, "bfloat16", 2, 200, 200, 8, 2, other, False, 0.2)
    add(_varlen_case, "float16", (37, 128, 250), (37, 128, 250), 4, 4, other, False, 0.2)
    add(_varlen_case, "bfloat16", (17, 100, 64), (40, 100, 200), 8, 2, main, True, None)
    return cases


def timings(h, kernel):
    torch = h.torch
    b, s, heads, d = TIMING
    dev = torch.device("cuda")
    dtype = torch.float16
    shape = [b, s, heads, d]
    q, k, v, dout = (h.randn(shape, dtype, dev, 90000 + i) for i in range(4))
    # SDPA takes (batch, heads, seqlen, head_dim): contiguous copies, made outside the timing
    qt, kt, vt, doutt = (t.transpose(1, 2).contiguous() for t in (q, k, v, dout))
    sdpa = torch.nn.functional.scaled_dot_product_attention
    shapes = {"q": shape, "k": shape, "v": shape}
    label = hc.timing_label(
        "float16", (b, "batch {n}"), (s, "{n} tokens"), (heads, "{n} heads"),
        (d, "head size {n}"), causal=True,
    )
    # matmul work of causal attention (half the square), the convention of FlashAttention's
    # own benchmarks: forward 4·b·h·s²·d/2, backward 2.5 times the forward
    flops = 4.0 * b * heads * s * s * d / 2
    with torch.no_grad():
        hc.time_pair(
            h,
            "forward",
            shapes,
            "float16",
            lambda: kernel.flash_attn_func(q, k, v, causal=True),
            lambda: sdpa(qt, kt, vt, is_causal=True),
            note="causal; SDPA on the same data in (batch, heads, seqlen, head_dim)",
            label=label,
            flops=flops,
        )
    qg, kg, vg = (t.clone().requires_grad_(True) for t in (q, k, v))
    qtg, ktg, vtg = (t.clone().requires_grad_(True) for t in (qt, kt, vt))

    def kernel_fwd_bwd():
        out = _first(kernel.flash_attn_func(qg, kg, vg, causal=True))
        torch.autograd.grad(out, (qg, kg, vg), dout)

    def sdpa_fwd_bwd():
        out = sdpa(qtg, ktg, vtg, is_causal=True)
        torch.autograd.grad(out, (qtg, ktg, vtg), doutt)

    if h.backward_broken:
        h.note("forward+backward was not timed: the backward pass failed its check.")
    elif h.quick:
        # a re-verification asks whether the kernel still works and is still fast: its forward
        # timing says the latter (forward+backward took 2.6 s of FlashAttention 3's 17.8 s on
        # an H200, docs/recorded/h200x2-2026-11-28)
        h.note("Quick re-verification: only the forward pass was timed; the full verification "
               "also times forward+backward.")
    else:
        hc.time_pair(
            h, "forward+backward", shapes, "float16", kernel_fwd_bwd, sdpa_fwd_bwd, label=label,
            flops=3.5 * flops,
        )


def import_api(h, module, dist_names, what):
    """Import ``module`` and check it has both FlashAttention functions; its facts go into the
    report. ``what``: the package in words ('FlashAttention 2')."""
    kernel = hc.import_kernel(module)
    h.report["kernel"] = hc.kernel_facts(kernel, dist_names)
    for name in ("flash_attn_func", "flash_attn_varlen_func"):
        if not callable(getattr(kernel, name, None)):
            raise hc.HarnessError(
                "import_failed",
                f"{module} (from {getattr(kernel, '__file__', '?')}) has no {name}(): not a "
                f"{what} package this check knows.",
            )
    return kernel


def run(h):
    torch = h.torch
    kernel = import_api(h, MODULE, DIST_NAMES, "FlashAttention 2")
    device = hc.gpu_device(h, "FlashAttention")
    cc = hc.device_capability(h, device)
    head_dims = [128, 64]
    if device.type == "cuda":
        if cc is not None and cc < (8, 0):
            raise hc.HarnessError(
                "unsupported_gpu",
                "FlashAttention 2 needs an NVIDIA GPU of compute capability 8.0 (Ampere) or "
                f"newer; this one ({torch.cuda.get_device_name(device)}) is {cc[0]}.{cc[1]}.",
            )
        try:
            free, _total = torch.cuda.mem_get_info(device)
        except Exception:
            free = 0
        if free >= 2 * 1024**3:
            head_dims.append(256)
        else:
            h.note("Head dim 256 was not checked: less than 2 GiB of GPU memory is free.")
    else:
        head_dims.append(256)
    cases = plan(kernel, device, h.quick, head_dims)
    h.run_cases(cases)
    h.backward_broken = hc.backward_failed(h.report["cases"])
    if device.type == "cuda" and not h.cuda_broken:
        timings(h, kernel)
