"""SageAttention 2 (thu-ml/SageAttention): ``sageattention.sageattn``, the call that ComfyUI's
``--use-sage-attention`` and most apps make, which picks the kernel for the GPU (sm80: INT8 Q·K
with FP16 P·V; sm86: the Triton kernel; sm89/sm120: FP8 P·V, SageAttention2++; sm90: the Hopper
kernel). Also SageAttention 3 (``sageattn3.sageattn3_blackwell``, FP4, Blackwell only).

**Forward only.** SageAttention is an inference kernel: it has no backward pass, so only the
forward pass is checked (its output carries no gradient; training is not what it is for).

**The rule is SageAttention's, not FlashAttention's.** A quantized kernel is never within a few
ULPs of float attention, so its output is judged by the three measures SageAttention's authors
use (``precision_metric`` in sageattention/core.py at cf85551, 2024-12-20, and the tables of
the SageAttention papers): cosine similarity, relative L1 (sum|o - r| / sum|r|) and RMSE,
against attention computed in float32 (float64 on the CPU) from the same fp16/bf16 inputs.
Upstream publishes no pass/fail threshold for them (no test folder at d1a57a5; its history's
tests/test_torch_compile.py only checks torch.compile's fake tensors). The one published pass
line is woct0rdho's fork (tests/test_sageattn.py, the test its README asks users to run before
ComfyUI): "should be < 0.05" for the mean relative and maximum absolute error against SDPA's
math method. The limits here: cosine similarity >= 0.99 and relative L1 <= 0.08 for the
whole output, and (so that a wrong causal mask or a wrong first row cannot hide in an average)
relative L1 <= 0.25 for the worst query row. 0.08 is twice what a CPU emulation of
SageAttention2's quantization (INT8 Q·K per block with K smoothed, FP8 e4m3 P and V: the
wizard's stand-in, tests/data/bad_kernels/sageattention_standin) measures on these random
inputs (0.038-0.040; worst row 0.06-0.09); woct0rdho's 0.05 is another measure (per element,
against SDPA, 64 tokens). TO BE CALIBRATED on real GPUs: the lead's H100 run records every
measure (scripts/sage_gpu.sh).

**The "black image" cases.** A kernel that overflows produces NaN/Inf, and a diffusion model
turns that into a black (or noise) image. So every output must be finite, and two cases aim at
overflow: Q and K large enough that Q·K^T overflows fp16 (max |Q·K^T| above 65504, with a small
softmax scale so that the softmax itself is ordinary: a kernel that forms the scores in fp16
before scaling returns inf/NaN there), and K with large per-channel offsets (the outliers that
SageAttention's K smoothing exists for). Also: long sequences, head sizes 64 and 128, causal
and not, fp16 and bf16, layouts HND (batch, heads, seqlen, head_dim) and NHD (batch, seqlen,
heads, head_dim), grouped-query attention.
"""

from __future__ import annotations

import math

import harness_common as hc

MODULE = "sageattention"
DIST_NAMES = ("sageattention",)
RULE = "sageattention"
COS_MIN = 0.99
REL_L1_MAX = 0.08
ROW_L1_MAX = 0.25
FP16_MAX = 65504.0
RULE_TEXT = (
    "SageAttention's measures against attention in float32 (float64 on the CPU) from the same "
    f"inputs: cosine similarity >= {COS_MIN:g}, relative L1 (sum|o - r| / sum|r|) <= "
    f"{REL_L1_MAX:g} over the whole output and <= {ROW_L1_MAX:g} for the worst query row; RMSE "
    "is reported. Every output value must be finite (NaN/Inf is the 'black image'). Forward "
    "only: SageAttention has no backward pass."
)
NO_BACKWARD_NOTE = (
    "SageAttention has no backward pass (it is an inference kernel): only the forward pass was "
    "checked."
)
# batch, heads, seqlen, head_dim of the speed line (the FlashAttention adapters' size)
TIMING = (2, 16, 4096, 128)
# the extension module each GPU's sageattn() call needs (core.py at d1a57a5)
NEEDS = {
    (8, 0): "sageattention._qattn_sm80",
    (8, 9): "sageattention._qattn_sm89",
    (9, 0): "sageattention._qattn_sm90",
    (12, 0): "sageattention._qattn_sm89",
    (12, 1): "sageattention._qattn_sm89",
}


# ---------------------------------------------------------------------------------------------
# The measures
# ---------------------------------------------------------------------------------------------


def sage_measure(torch, name, out, ref, layout):
    """SageAttention's measures of ``out`` against ``ref`` (both in ``layout``), as a measure
    entry of the report (rule "sageattention")."""
    m = hc.new_measure(name, RULE, tolerance=REL_L1_MAX)
    m["stats"] = {"cos_min": COS_MIN, "rel_l1_max": REL_L1_MAX, "row_l1_max": ROW_L1_MAX}
    if hc.not_comparable(m, out, ref):
        return m
    o = out.detach().to(torch.float64)
    r = ref.detach().to(torch.float64)
    m["nan_count"], m["inf_count"], first = hc.nonfinite_summary(torch, o)
    if m["nan_count"] or m["inf_count"]:
        m["problem"] = "nonfinite"
        m["fraction_over"] = (m["nan_count"] + m["inf_count"]) / o.numel()
        m["worst_index"] = first
        return m
    diff = (o - r).abs()
    m["kernel_err"] = float(diff.max().item())
    m["worst_index"] = hc.unravel(int(diff.reshape(-1).argmax().item()), diff.shape)
    ref_l1 = float(r.abs().sum().item())
    rel_l1 = float(diff.sum().item()) / ref_l1 if ref_l1 > 0 else float(diff.sum().item())
    norms = float(o.norm().item()) * float(r.norm().item())
    cos = float((o * r).sum().item()) / norms if norms > 0 else (1.0 if ref_l1 == 0 else 0.0)
    rmse = math.sqrt(float((diff * diff).mean().item()))
    # per query row: the head_dim values of one token of one head
    row_err = diff.sum(dim=-1)
    row_ref = r.abs().sum(dim=-1).clamp_min(1e-12)
    row_l1 = row_err / row_ref
    worst_row = float(row_l1.max().item())
    m["stats"].update({"cos_sim": cos, "rel_l1": rel_l1, "rmse": rmse,
                       "worst_row_l1": worst_row})
    m["fraction_over"] = float((row_l1 > ROW_L1_MAX).double().mean().item())
    problems = []
    if cos < COS_MIN:
        problems.append(f"cosine similarity {cos:.5f} is below {COS_MIN:g}")
    if rel_l1 > REL_L1_MAX:
        problems.append(f"relative L1 error {rel_l1:.3g} is above {REL_L1_MAX:g}")
    if worst_row > ROW_L1_MAX:
        row = hc.unravel(int(row_l1.reshape(-1).argmax().item()), row_l1.shape)
        m["worst_index"] = row + [0]
        problems.append(f"the worst query row (index {row}, {layout}) is off by "
                        f"{worst_row:.3g} relative L1, above {ROW_L1_MAX:g}")
    m["passed"] = not problems
    if problems:
        m["problem"] = "accuracy"
        m["detail"] = "; ".join(problems)
    return m


def describe(m, ref_dtype):
    """One plain sentence for a failed measure (the harness's words for the report)."""
    label = m.get("label") or m["name"]
    problem = m.get("problem")
    if problem == "nonfinite":
        parts = []
        if m.get("nan_count"):
            parts.append(f"{m['nan_count']} NaN")
        if m.get("inf_count"):
            parts.append(f"{m['inf_count']} infinite")
        share = 100.0 * (m.get("fraction_over") or 0.0)
        return (f"{label} contains {' and '.join(parts)} value(s) ({share:.3g}% of the "
                f"elements), the first at index {m.get('worst_index')}: the kernel overflowed "
                "or left part of its output unwritten (in an image model: a black or noise "
                "image).")
    if problem == "accuracy":
        s = m.get("stats", {})
        return (f"{label} is too far from the {ref_dtype} reference: {m.get('detail')} "
                f"(cosine {s.get('cos_sim', float('nan')):.5f}, relative L1 "
                f"{s.get('rel_l1', float('nan')):.3g}, RMSE {s.get('rmse', float('nan')):.3g}).")
    if problem == "shape":
        return f"{label}: wrong shape ({m.get('detail', '')})."
    return f"{label}: the kernel returned nothing for it."


# ---------------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------------


def _reference(torch, q, k, v, layout, causal, scale, ref_dtype):
    """Float attention from the same inputs, in ``layout``; fewer kv heads are repeated."""
    if layout == "NHD":
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    out = hc.attention_bhsd(torch, q.to(ref_dtype), k.to(ref_dtype), v.to(ref_dtype),
                            causal, scale)
    return out.transpose(1, 2) if layout == "NHD" else out


def _shape(layout, b, h, s, d):
    return [b, h, s, d] if layout == "HND" else [b, s, h, d]


def _case(call, api, device, dtype_name, layout, b, hq, hk, s, d, causal, index, kind="",
          qk_scale=1.0, k_offset=0.0, sm_scale=None):
    mask = "causal" if causal else "full"
    kv = f"kv{hk}" if hk != hq else ""
    name = f"{kind + '-' if kind else ''}{dtype_name}-{layout}-{mask}-b{b}-h{hq}{kv}-s{s}-d{d}"
    layout_words = ("batch, heads, seqlen, head_dim" if layout == "HND"
                    else "batch, seqlen, heads, head_dim")

    def run(h, case):
        torch = h.torch
        dtype = getattr(torch, dtype_name)
        q = h.randn(_shape(layout, b, hq, s, d), torch.float32, device, 3 * index) * qk_scale
        k = h.randn(_shape(layout, b, hk, s, d), torch.float32, device, 3 * index + 1) * qk_scale
        v = h.randn(_shape(layout, b, hk, s, d), torch.float32, device, 3 * index + 2)
        if k_offset:
            # outliers shared by every token in a few channels (what smooth_k removes)
            gen = torch.Generator(device="cpu")
            gen.manual_seed(h.generator_seed(10000 + index))
            channels = torch.randperm(d, generator=gen)[: max(1, d // 8)].to(device)
            k[..., channels] += k_offset
        q, k, v = q.to(dtype), k.to(dtype), v.to(dtype)
        scale = sm_scale if sm_scale is not None else 1.0 / math.sqrt(d)
        ref_dtype = hc.reference_dtype_for(torch, q.device, dtype)
        case["reference_dtype"] = hc.dtype_name(torch, ref_dtype)
        case["backward"] = False
        case["layout"] = layout_words
        if kind == "overflow":
            # the scores as fp16 would hold them: this case is only meaningful when they overflow
            qs, ks = (q, k) if layout == "HND" else (q.transpose(1, 2), k.transpose(1, 2))
            peak = float(torch.matmul(qs.float(), ks.float().transpose(-2, -1)).abs().max())
            case["max_abs_scores"] = peak
            if peak <= FP16_MAX:
                raise hc.CaseFailure(f"the inputs meant to overflow fp16 scores peak at {peak:g}, "
                                     "under 65504: the check itself is wrong")
        captured = []
        try:
            with hc.captured_fds(captured):
                out = call(q, k, v, layout, causal, sm_scale)
                if device.type == "cuda":
                    torch.cuda.synchronize()
        except Exception as exc:
            _note(case, captured)
            raise hc.CaseFailure(f"the kernel raised {hc.short_exception(exc)}") from None
        _note(case, captured)
        if isinstance(out, (tuple, list)):
            out = out[0]
        ref = _reference(torch, q, k, v, layout, causal, scale, ref_dtype)
        m = sage_measure(torch, "out", out, ref, layout_words)
        if out is not None and getattr(out, "dtype", None) is not None and out.dtype != dtype:
            m["passed"] = False
            m["problem"] = m["problem"] or "shape"
            m["detail"] = f"dtype {out.dtype}, expected {dtype}"
        case["measures"].append(m)
        if not m["passed"]:
            case["reasons"].append(describe(m, case["reference_dtype"]))
        case["status"] = "pass" if not case["reasons"] else "fail"

    return hc.Case(
        name, run, api=api, device=device.type, dtype=dtype_name, causal=causal,
        shapes={"q": _shape(layout, b, hq, s, d), "k": _shape(layout, b, hk, s, d),
                "v": _shape(layout, b, hk, s, d)},
        extra={"tensor_layout": layout, "kind": kind or "accuracy", "gqa": hk != hq,
               "sm_scale": sm_scale, "qk_scale": qk_scale, "k_offset": k_offset},
    )


def _note(case, captured):
    text = "".join(captured).strip()
    if text:
        case["kernel_output"] = text[-hc.MAX_KERNEL_OUTPUT:]


def overflow_scale(d):
    """(Q/K scale, softmax scale): Q·K^T of about 48² · sqrt(d) standard deviation, so that its
    largest values pass fp16's 65504, and a softmax scale that brings the logits back to about
    one standard deviation."""
    qk = 48.0
    return qk, 1.0 / (qk * qk * math.sqrt(d))


def plan(call, api, device, quick, long_s):
    cases = []

    def add(dtype, layout, b, hq, hk, s, *rest, **kwargs):
        # on the CPU (the wizard's own tests, against a stand-in in float64) a quarter of the
        # tokens: the same layouts, masks, head sizes and a partial last block (1000 -> 250),
        # at a sixteenth of the work; the long cases get long_s as given
        if device.type != "cuda" and kwargs.get("kind") != "long":
            s //= 4
        cases.append(_case(call, api, device, dtype, layout, b, hq, hk, s, *rest, len(cases),
                           **kwargs))

    qk, tiny = overflow_scale(128)
    if quick:
        add("float16", "HND", 2, 8, 8, 1024, 128, True)
        add("bfloat16", "NHD", 2, 8, 8, 1000, 64, False)
        add("float16", "HND", 1, 8, 8, 1024, 128, False, kind="overflow", qk_scale=qk,
            sm_scale=tiny)
        return cases
    for dtype in ("float16", "bfloat16"):
        for layout in ("HND", "NHD"):
            for d in (128, 64):
                for causal in (False, True):
                    add(dtype, layout, 2, 8, 8, 1000, d, causal)
    add("float16", "HND", 2, 8, 2, 1024, 128, True)  # grouped-query attention
    add("bfloat16", "NHD", 2, 8, 2, 1024, 64, False)
    add("float16", "HND", 1, 4, 4, long_s, 128, True, kind="long")
    add("bfloat16", "NHD", 1, 4, 4, long_s, 64, False, kind="long")
    add("float16", "HND", 1, 8, 8, 1024, 128, False, kind="overflow", qk_scale=qk, sm_scale=tiny)
    add("float16", "NHD", 1, 8, 8, 1024, 128, True, kind="overflow", qk_scale=qk, sm_scale=tiny)
    add("float16", "NHD", 2, 8, 8, 1024, 64, False, kind="k-outliers", k_offset=60.0)
    add("bfloat16", "HND", 2, 8, 8, 1024, 128, True, kind="k-outliers", k_offset=60.0)
    return cases


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def _rule(h):
    h.report["rule"] = {
        "text": RULE_TEXT,
        "name": RULE,
        "cos_min": COS_MIN,
        "rel_l1_max": REL_L1_MAX,
        "row_l1_max": ROW_L1_MAX,
        "reference_dtype": {"cuda fp16/bf16": "float32", "otherwise": "float64"},
        "sources": [
            "measures: thu-ml/SageAttention sageattention/core.py precision_metric (cf85551)",
            "pass line 0.05 (per element, vs SDPA math): woct0rdho/SageAttention "
            "tests/test_sageattn.py",
            "0.08: twice the relative L1 of a CPU emulation of SageAttention2's quantization",
        ],
    }


def _extensions(h):
    """Which of SageAttention's compiled parts import (SM80/SM89/SM90_ENABLED in core.py)."""
    import importlib

    found = {}
    for name in ("sageattention._qattn_sm80", "sageattention._qattn_sm89",
                 "sageattention._qattn_sm90", "sageattention._fused"):
        try:
            importlib.import_module(name)
            found[name] = True
        except Exception as exc:
            found[name] = hc.short_exception(exc, 200)
    h.report["kernel"]["extensions"] = found
    return found


def run(h):
    torch = h.torch
    kernel = hc.import_kernel(MODULE)
    h.report["kernel"] = hc.kernel_facts(kernel, DIST_NAMES)
    sageattn = getattr(kernel, "sageattn", None)
    if not callable(sageattn):
        raise hc.HarnessError("import_failed", f"{MODULE} (from {getattr(kernel, '__file__', '?')})"
                              " has no sageattn(): not a SageAttention 2 package this check "
                              "knows.")
    _rule(h)
    h.note(NO_BACKWARD_NOTE)
    device = hc.gpu_device(h, "SageAttention")
    cc = hc.device_capability(h, device)
    if device.type == "cuda":
        name = torch.cuda.get_device_name(device)
        if cc is not None and cc < (8, 0):
            raise hc.HarnessError(
                "unsupported_gpu",
                f"SageAttention 2 needs an NVIDIA GPU of compute capability 8.0 or newer; this "
                f"one ({name}) is {cc[0]}.{cc[1]}.")
        found = _extensions(h)
        needed = NEEDS.get(cc) if cc is not None else None
        if needed is not None and found.get(needed) is not True:
            raise hc.HarnessError(
                "import_failed",
                f"This SageAttention build has no kernel for this GPU ({name}, compute "
                f"capability {cc[0]}.{cc[1]}): {needed} does not import ({found.get(needed)}). "
                "It was built for other GPUs; rebuild it for this one (an old build left "
                "behind can shadow a new one: uninstall it first).")

    def call(q, k, v, layout, causal, sm_scale):
        kwargs = {"tensor_layout": layout, "is_causal": causal}
        if sm_scale is not None:
            kwargs["sm_scale"] = sm_scale
        return sageattn(q, k, v, **kwargs)

    long_s = 8192 if device.type == "cuda" else 1024
    if device.type != "cuda":
        h.note("On the CPU the cases use a quarter of the tokens, and the long-sequence cases "
               "1,024 (8,192 on a GPU).")
    h.run_cases(plan(call, f"{MODULE}.sageattn", device, h.quick, long_s))
    if device.type == "cuda" and not h.cuda_broken:
        timings(h, lambda q, k, v: sageattn(q, k, v, tensor_layout="HND", is_causal=True))


def run_sage3(h):
    """SageAttention 3 (FP4, Blackwell): ``sageattn3_blackwell(q, k, v, is_causal)``, HND."""
    kernel = hc.import_kernel("sageattn3")
    h.report["kernel"] = hc.kernel_facts(kernel, ("sageattn3",))
    fn = getattr(kernel, "sageattn3_blackwell", None)
    if not callable(fn):
        raise hc.HarnessError("import_failed", "sageattn3 has no sageattn3_blackwell(): not a "
                              "SageAttention 3 package this check knows.")
    _rule(h)
    h.note(NO_BACKWARD_NOTE)
    h.note("SageAttention 3 quantizes to FP4; its authors say it 'does not guarantee lossless "
           "acceleration for all models'. The limits are SageAttention 2's, not yet calibrated "
           "on a Blackwell GPU.")
    device = hc.gpu_device(h, "SageAttention 3")
    cc = hc.device_capability(h, device)
    if device.type == "cuda" and cc not in ((10, 0), (12, 0), (12, 1)):
        raise hc.HarnessError(
            "unsupported_gpu",
            "SageAttention 3 runs on Blackwell GPUs only (compute capability 10.0, 12.0 or 12.1: "
            f"B200, RTX 50xx, DGX Spark); this one is {cc[0]}.{cc[1]}.")

    def call(q, k, v, layout, causal, sm_scale):
        return fn(q, k, v, is_causal=causal)

    cases = []
    for dtype in ("float16", "bfloat16"):
        for d in (128, 64):
            for causal in (False, True):
                cases.append(_case(call, "sageattn3.sageattn3_blackwell", device, dtype, "HND",
                                   2, 8, 8, 1024, d, causal, len(cases)))
    h.run_cases(cases if not h.quick else cases[:2])
    if device.type == "cuda" and not h.cuda_broken:
        timings(h, lambda q, k, v: fn(q, k, v, is_causal=True))


def timings(h, kernel_fn):
    """The speed line: the kernel against the fastest SDPA method on this GPU (causal, fp16,
    batch 2, 16 heads, 4,096 tokens, head size 128, HND: the same tensors for both)."""
    torch = h.torch
    b, heads, s, d = TIMING
    dev = torch.device("cuda")
    shape = [b, heads, s, d]
    q, k, v = (h.randn(shape, torch.float16, dev, 90000 + i) for i in range(3))
    sdpa = torch.nn.functional.scaled_dot_product_attention
    label = hc.timing_label("float16", (b, "batch {n}"), (s, "{n} tokens"), (heads, "{n} heads"),
                            (d, "head size {n}"), causal=True)
    with torch.no_grad():
        hc.time_pair(
            h, "forward", {"q": shape, "k": shape, "v": shape}, "float16",
            lambda: kernel_fn(q, k, v), lambda: sdpa(q, k, v, is_causal=True),
            note="causal; (batch, heads, seqlen, head_dim) for both", label=label,
            flops=4.0 * b * heads * s * s * d / 2,
        )
