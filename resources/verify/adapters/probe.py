"""The bundled probe kernel: ``ksw_probe.attention(q, k, v, causal=False, scale=None)``.

Tensors are (batch, heads, seqlen, head_dim); forward and backward through autograd; the causal
mask is aligned top-left (as in SDPA's ``is_causal``). CPU: float64 and float32. CUDA (when the
build has CUDA kernels and PyTorch sees a GPU): float16, bfloat16 and float32.
"""

from __future__ import annotations

import math

import harness_common as hc

MODULE = "ksw_probe"
DIST_NAMES = ("ksw-probe-kernel", "ksw_probe_kernel", "ksw-probe")
LAYOUT = "batch, heads, seqlen, head_dim"

# (batch, heads, seqlen, head_dim): a non-power-of-two seqlen with head dim 32, and head dim 64
SHAPES = ((2, 3, 77, 32), (1, 2, 128, 64))
CUDA_SHAPES = ((2, 3, 77, 32), (2, 4, 256, 64))
# (batch, heads, seqlen, head_dim) of the speed measurement. The probe is a plain teaching
# kernel, many times slower than SDPA: it is timed at a moderate size (within its shared-memory
# limit) so that its measurement stays within the harness's time budget.
TIMING_SHAPE = (2, 16, 2048, 64)


def _case(kernel, device, dtype_name, shape, causal, scale, index):
    b, heads, seqlen, head_dim = shape
    mask = "causal" if causal else "full"
    name = f"{device}-{dtype_name}-{mask}-b{b}h{heads}s{seqlen}d{head_dim}"
    if scale is not None:
        name += f"-scale{scale:g}"
    dims = [b, heads, seqlen, head_dim]

    def run(h, case):
        torch = h.torch
        dev = torch.device(device)
        dtype = getattr(torch, dtype_name)
        q = h.randn(dims, dtype, dev, 4 * index)
        k = h.randn(dims, dtype, dev, 4 * index + 1)
        v = h.randn(dims, dtype, dev, 4 * index + 2)
        dout = h.randn(dims, dtype, dev, 4 * index + 3)
        used_scale = scale if scale is not None else 1.0 / math.sqrt(head_dim)

        def kernel_fn(q, k, v):
            return {"out": kernel.attention(q, k, v, causal=causal, scale=scale)}

        def reference_fn(q, k, v):
            return {"out": hc.attention_bhsd(torch, q, k, v, causal, used_scale)}

        hc.run_check(
            h,
            case,
            inputs={"q": q, "k": k, "v": v},
            grad_keys=("q", "k", "v"),
            kernel_fn=kernel_fn,
            reference_fn=reference_fn,
            backward=True,
            dout=dout,
            layout=LAYOUT,
        )

    return hc.Case(
        name,
        run,
        api="ksw_probe.attention",
        device=device,
        dtype=dtype_name,
        causal=causal,
        shapes={"q": dims, "k": dims, "v": dims},
        extra={"scale": scale},
    )


def plan(kernel, quick, run_cpu, run_cuda):
    cases = []
    if run_cpu:
        if quick:
            combos = [
                ("float64", SHAPES[0], True, None),
                ("float32", SHAPES[1], False, 0.3),
            ]
        else:
            combos = [
                (dtype, shape, causal, 0.3 if (shape is SHAPES[0] and not causal) else None)
                for dtype in ("float64", "float32")
                for shape in SHAPES
                for causal in (False, True)
            ]
        for dtype, shape, causal, scale in combos:
            cases.append(_case(kernel, "cpu", dtype, shape, causal, scale, len(cases)))
    if run_cuda:
        if quick:
            combos = [
                ("float16", CUDA_SHAPES[1], True, None),
                ("bfloat16", CUDA_SHAPES[0], False, None),
                ("float32", CUDA_SHAPES[0], True, 0.3),
            ]
        else:
            combos = [
                (dtype, shape, causal, None)
                for dtype in ("float16", "bfloat16", "float32")
                for shape in CUDA_SHAPES
                for causal in (False, True)
            ]
        for dtype, shape, causal, scale in combos:
            cases.append(_case(kernel, "cuda", dtype, shape, causal, scale, len(cases)))
    return cases


def timings(h, kernel):
    torch = h.torch
    shape = TIMING_SHAPE
    b, heads, s, d = shape
    label = hc.timing_label(
        "float16", (b, "batch {n}"), (s, "{n} tokens"), (heads, "{n} heads"),
        (d, "head size {n}"), causal=True,
    )
    dev = torch.device("cuda")
    dtype = torch.float16
    q, k, v, dout = (h.randn(list(shape), dtype, dev, 90000 + i) for i in range(4))
    shapes = {"q": list(shape), "k": list(shape), "v": list(shape)}
    sdpa = torch.nn.functional.scaled_dot_product_attention
    with torch.no_grad():
        hc.time_pair(
            h,
            "forward",
            shapes,
            "float16",
            lambda: kernel.attention(q, k, v, causal=True),
            lambda: sdpa(q, k, v, is_causal=True),
            label=label,
        )
    qg, kg, vg = (t.clone().requires_grad_(True) for t in (q, k, v))

    def kernel_fwd_bwd():
        out = kernel.attention(qg, kg, vg, causal=True)
        torch.autograd.grad(out, (qg, kg, vg), dout)

    def sdpa_fwd_bwd():
        out = sdpa(qg, kg, vg, is_causal=True)
        torch.autograd.grad(out, (qg, kg, vg), dout)

    hc.time_pair(
        h, "forward+backward", shapes, "float16", kernel_fwd_bwd, sdpa_fwd_bwd, label=label
    )


def run(h):
    torch = h.torch
    kernel = hc.import_kernel(MODULE)
    facts = hc.kernel_facts(kernel, DIST_NAMES)
    has_cuda = False
    try:
        has_cuda = bool(kernel.has_cuda())
    except Exception as exc:
        facts["has_cuda_error"] = hc.short_exception(exc)
    facts["has_cuda"] = has_cuda
    try:
        info = kernel.build_info()
        facts["build_info"] = dict(info) if isinstance(info, dict) else str(info)
    except Exception as exc:
        facts["build_info_error"] = hc.short_exception(exc)
    h.report["kernel"] = facts
    if not callable(getattr(kernel, "attention", None)):
        raise hc.HarnessError(
            "import_failed",
            f"The module ksw_probe imported from {facts.get('file')} has no attention() "
            "function: it is not the probe kernel.",
        )

    cuda_ok = h.cuda_usable()
    option = h.device_option
    run_cpu = option in ("auto", "cpu")
    run_cuda = option in ("auto", "cuda") and cuda_ok and has_cuda
    if option == "cuda" and not cuda_ok:
        raise hc.HarnessError(
            "no_device",
            "A CUDA check was asked for, but PyTorch here cannot use a CUDA GPU "
            f"(torch {torch.__version__}, CUDA {torch.version.cuda}).",
        )
    if option == "cuda" and not has_cuda:
        raise hc.HarnessError(
            "no_cuda_build",
            "A CUDA check was asked for, but this ksw_probe build has no CUDA kernels (it was "
            "built CPU-only); rebuild it with a CUDA toolkit to check the GPU path.",
        )
    if option == "auto" and cuda_ok and not has_cuda:
        h.note("This ksw_probe build has no CUDA kernels: only its CPU path was checked.")
    if option == "auto" and not cuda_ok:
        h.note("PyTorch here cannot use a CUDA GPU: only the CPU path was checked.")
    info = facts.get("build_info")
    if isinstance(info, dict):
        built, now = info.get("torch_version"), info.get("torch_version_now")
        if built and now and str(built) != str(now):
            h.note(
                f"ksw_probe was built against torch {built} but torch {now} is imported now; "
                "rebuild it if anything fails."
            )

    cases = plan(kernel, h.quick, run_cpu, run_cuda)
    h.run_cases(cases)
    if run_cuda and not h.cuda_broken:
        timings(h, kernel)
