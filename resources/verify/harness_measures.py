"""Reference attention and the error measures of the verification harness (see
``harness_common``, which re-exports everything here). Run in the *target* interpreter; keep the
syntax compatible with Python 3.9."""

from __future__ import annotations


def causal_mask(torch, sq, sk, align, device):
    """True where a key is hidden from a query. 'top_left': key j visible to query i when
    j <= i (SDPA's is_causal); 'bottom_right': when j <= i + sk - sq (FlashAttention >= 2.1)."""
    i = torch.arange(sq, device=device).unsqueeze(1)
    j = torch.arange(sk, device=device).unsqueeze(0)
    offset = (sk - sq) if align == "bottom_right" else 0
    return j > i + offset


def attention_bhsd(torch, q, k, v, causal, scale, align="top_left"):
    """Plain attention on (batch, heads, seqlen, head_dim) tensors in their own dtype.

    Fewer key/value heads than query heads (GQA/MQA) are repeated. Scores are computed as in
    FlashAttention's ``attention_ref``: matmul, scale, mask, softmax, matmul, all in the input
    dtype (PyTorch accumulates half-precision matmuls in float32 internally)."""
    hq, hk = q.shape[1], k.shape[1]
    if hk != hq:
        k = k.repeat_interleave(hq // hk, dim=1)
        v = v.repeat_interleave(hq // hk, dim=1)
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    if causal:
        mask = causal_mask(torch, q.shape[2], k.shape[2], align, q.device)
        scores = scores.masked_fill(mask, float("-inf"))
    probs = torch.softmax(scores, dim=-1)
    return torch.matmul(probs, v)


def unravel(index, shape):
    result = []
    for size in reversed(list(shape)):
        result.append(int(index % size))
        index //= size
    return list(reversed(result))


def nonfinite_summary(torch, t64):
    nan = torch.isnan(t64)
    inf = torch.isinf(t64)
    nan_count = int(nan.sum().item())
    inf_count = int(inf.sum().item())
    first = None
    if nan_count or inf_count:
        flat = (nan | inf).reshape(-1).nonzero()
        first = unravel(int(flat[0].item()), t64.shape)
    return nan_count, inf_count, first


def _max_abs_err(torch, a64, r64):
    if a64.numel() == 0:
        return 0.0, None
    diff = (a64 - r64).abs()
    value = float(diff.max().item())
    worst = unravel(int(diff.reshape(-1).argmax().item()), diff.shape)
    return value, worst


def new_measure(name, rule, *, tolerance, label=None, factor=None, floor=None):
    """A measure entry of the report, not judged yet (every rule's entries have these keys)."""
    return {
        "name": name,
        "label": label or name,
        "rule": rule,
        "factor": factor,
        "floor": floor,
        "kernel_err": None,
        "reference_dtype_err": None,
        "tolerance": tolerance,
        "passed": False,
        "nan_count": 0,
        "inf_count": 0,
        "worst_index": None,
        "fraction_over": None,
        "problem": None,
    }


def not_comparable(m, kernel, reference):
    """Mark ``m`` when the kernel gave no output or one of another shape; True if so."""
    if kernel is None:
        m["problem"] = "missing"
        return True
    if tuple(kernel.shape) != tuple(reference.shape):
        m["problem"] = "shape"
        m["detail"] = f"shape {list(kernel.shape)}, expected {list(reference.shape)}"
        return True
    return False


def error_measure(torch, name, kernel, reference, pytorch, *, factor, floor, label=None):
    """Judge one tensor by the FlashAttention rule. ``pytorch`` may be None (then the floor
    alone is the tolerance)."""
    m = new_measure(name, "flash_attn", tolerance=floor, label=label, factor=factor,
                    floor=floor)
    if not_comparable(m, kernel, reference):
        return m
    r64 = reference.detach().to(torch.float64)
    k64 = kernel.detach().to(torch.float64)
    pt_err = None
    if pytorch is not None:
        p64 = pytorch.detach().to(torch.float64)
        if bool(torch.isfinite(p64).all().item()):
            pt_err, _ = _max_abs_err(torch, p64, r64)
    m["reference_dtype_err"] = pt_err
    tolerance = factor * (pt_err or 0.0) + floor
    m["tolerance"] = tolerance
    nan_count, inf_count, first = nonfinite_summary(torch, k64)
    m["nan_count"], m["inf_count"] = nan_count, inf_count
    if nan_count or inf_count:
        m["worst_index"] = first
        m["problem"] = "nonfinite"
        bad = torch.isfinite(k64).logical_not()
        m["fraction_over"] = float(bad.double().mean().item())
        return m
    err, worst = _max_abs_err(torch, k64, r64)
    m["kernel_err"] = err
    m["worst_index"] = worst
    over = (k64 - r64).abs() > tolerance
    m["fraction_over"] = float(over.double().mean().item()) if over.numel() else 0.0
    m["passed"] = err <= tolerance
    if not m["passed"]:
        m["problem"] = "error"
    return m


def allclose_measure(
    torch, name, kernel, reference, pytorch, *, abs_tol, rel_tol, cos_tol=None, label=None
):
    """Judge one tensor the way FlashMLA's own tests do (kernelkit ``check_is_allclose``):
    every element within ``abs_tol`` or within ``rel_tol`` relative error, the same NaN/inf
    positions as the reference, and a cosine difference of at most ``cos_tol``."""
    m = {
        "name": name,
        "label": label or name,
        "rule": "upstream_allclose",
        "factor": None,
        "floor": abs_tol,
        "abs_tol": abs_tol,
        "rel_tol": rel_tol,
        "cos_tol": cos_tol,
        "kernel_err": None,
        "reference_dtype_err": None,
        "tolerance": abs_tol,
        "passed": False,
        "nan_count": 0,
        "inf_count": 0,
        "worst_index": None,
        "fraction_over": None,
        "problem": None,
    }
    if kernel is None:
        m["problem"] = "missing"
        return m
    if tuple(kernel.shape) != tuple(reference.shape):
        m["problem"] = "shape"
        m["detail"] = f"shape {list(kernel.shape)}, expected {list(reference.shape)}"
        return m
    ans = kernel.detach().to(torch.float64).clone()
    ref = reference.detach().to(torch.float64).clone()
    if pytorch is not None:
        p64 = pytorch.detach().to(torch.float64)
        both = torch.isfinite(p64) & torch.isfinite(ref)
        if bool(both.any().item()):
            m["reference_dtype_err"] = float((p64 - ref).abs()[both].max().item())
    anomalies_ok = True
    for kind in ("inf", "-inf", "nan"):
        if kind == "nan":
            ref_mask, ans_mask = torch.isnan(ref), torch.isnan(ans)
        else:
            value = float(kind)
            ref_mask, ans_mask = ref == value, ans == value
        if not torch.equal(ref_mask, ans_mask):
            anomalies_ok = False
            extra = ans_mask & ref_mask.logical_not()
            if kind == "nan":
                m["nan_count"] += int(extra.sum().item())
            else:
                m["inf_count"] += int(extra.sum().item())
            if m["worst_index"] is None and bool(extra.any().item()):
                m["worst_index"] = unravel(int(extra.reshape(-1).nonzero()[0].item()), ans.shape)
        ref[ref_mask] = 0.0
        ans[ans_mask] = 0.0
    if not anomalies_ok:
        m["problem"] = "nonfinite"
        return m
    raw_abs = (ans - ref).abs()
    raw_rel = raw_abs / (ref.abs() + 1e-6)
    pass_mask = (raw_abs < abs_tol) | (raw_rel < rel_tol)
    err, worst = _max_abs_err(torch, ans, ref)
    m["kernel_err"] = err
    m["worst_index"] = worst
    m["fraction_over"] = float(pass_mask.logical_not().double().mean().item())
    cos_diff = 0.0
    denominator = float((ans * ans + ref * ref).sum().item())
    if float((ref * ref).sum().item()) >= 1e-12 and denominator > 0:
        cos_diff = 1.0 - 2.0 * float((ans * ref).sum().item()) / denominator
    m["cos_diff"] = cos_diff
    passed = bool(pass_mask.all().item())
    if passed and cos_tol is not None and abs(cos_diff) > cos_tol:
        passed = False
        m["problem"] = "cosine"
    elif not passed:
        m["problem"] = "error"
    m["passed"] = passed
    return m


def describe_measure_failure(m, ref_dtype, dtype, layout=""):
    """One plain sentence for a failed measure."""
    label = m.get("label") or m["name"]
    where = ""
    index = m.get("worst_index")
    if index is not None:
        named = layout and len(index) == layout.count(",") + 1
        where = f" at index {index}" + (f" ({layout})" if named else "")
    problem = m.get("problem")
    if problem == "missing":
        return f"{label}: the kernel returned nothing for it."
    if problem == "shape":
        return f"{label}: wrong shape ({m.get('detail', '')})."
    if problem == "nonfinite":
        parts = []
        if m.get("nan_count"):
            parts.append(f"{m['nan_count']} NaN")
        if m.get("inf_count"):
            parts.append(f"{m['inf_count']} infinite")
        share = m.get("fraction_over")
        share_text = ""
        if share is not None:
            share_text = f" ({100.0 * share:.3g}% of the elements)"
        return (
            f"{label} contains {' and '.join(parts)} value(s){share_text}, the first{where}: the "
            "kernel produced invalid numbers or left part of its output unwritten."
        )
    if problem == "cosine":
        cos_diff = m.get("cos_diff", float("nan"))
        cos_tol = m.get("cos_tol") or 0.0
        return f"{label}: cosine difference {cos_diff:.3g} exceeds upstream's limit {cos_tol:.3g}."
    share = 100.0 * (m.get("fraction_over") or 0.0)
    err = m.get("kernel_err")
    err_text = f"{err:.3g}" if err is not None else "n/a"
    if m.get("rule") == "upstream_allclose":
        abs_tol, rel_tol = m.get("abs_tol") or 0.0, m.get("rel_tol") or 0.0
        return (
            f"{label} differs from the {ref_dtype} reference by up to {err_text}{where}; "
            f"{share:.3g}% of the elements are outside upstream's tolerance (abs {abs_tol:.3g} "
            f"or rel {rel_tol:.3g})."
        )
    pt = m.get("reference_dtype_err")
    pt_text = f"{pt:.3g}" if pt is not None else "n/a"
    return (
        f"{label} differs from the {ref_dtype} reference by up to {err_text}{where}, more than "
        f"allowed ({m['factor']:g} x PyTorch's own {dtype} error {pt_text} + floor "
        f"{m['floor']:.3g} = {m['tolerance']:.3g}); {share:.3g}% of the elements are off by "
        "more than that."
    )


