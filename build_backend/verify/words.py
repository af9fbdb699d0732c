"""A verification report in plain words: what a check tested, why it failed, how fast it ran.

The Verify page (and anyone else who shows a report to a person) leads with one plain sentence
and names checks in words — "float16 · causal · 257 tokens · head size 64" — instead of the
harness's case ids; the numbers stay in the details. Every sentence is a whole template with
named fields (no fragments glued together), so it can be translated later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .report import CaseStatus, Timing, VerifyCase, VerifyReport, VerifyStatus

SEP = " · "

# -- the texts (one place, whole sentences) ------------------------------------------------------

WORDS = {
    "causal": "causal",
    "full": "full attention",
    "tokens": "{n} tokens",
    "tokens_qk": "{q} queries, {k} keys",
    "sequences": "{n} sequences of {low}–{high} tokens",
    "head": "head size {d}",
    "heads": "{n} heads",
    "grouped": "{q} query heads sharing {k} key/value heads",
    "batch": "batch {n}",
    "decode": "decoding",
    "cached": "{n} cached tokens",
    "cached_var": "{low}–{high} cached tokens",
    "scale": "scale {s}",
    "cpu": "on the CPU",
    "gpu": "on the GPU",
    "sizes": "{name} {dims}",
}

PASS_INSTALLED = ("The kernel computes the same results as PyTorch in all {n} checks, and it is "
                  "installed.")
PASS_NOT_INSTALLED = "The kernel computes the same results as PyTorch in all {n} checks."
FAIL = {
    "numbers": "{failed} of {ran} checks failed: the kernel's results are further from the exact "
               "answer than PyTorch's own are allowed to be.",
    "nonfinite": "{failed} of {ran} checks failed: the kernel produced invalid numbers (NaN or "
                 "infinity) or left part of its result unwritten.",
    "backward": "{failed} of {ran} checks failed: the kernel's backward pass (needed for "
                "training) does not work.",
    "crash": "{failed} of {ran} checks failed: the kernel stopped with an error.",
}
NOTHING_INSTALLED = "Nothing was installed: your Python environment is as it was."
ERROR = "The kernel could not be checked: {reason}"

DETAIL_CASE = "{words}: {reason}"

ERROR_SHARE = {
    "within": "{percent} % of the allowed error",
    "over": "{times}× the allowed error",
    "invalid": "invalid numbers (NaN or infinity)",
    "missing": "no result",
    "none": "—",
}

SPEED_NONE_CPU = ("Speed was not measured: it is measured on an NVIDIA GPU only, and these checks "
                  "ran on the CPU.")
SPEED_NONE = "Speed was not measured."
SPEED_WHAT = "Speed, measured on {what}:"
SPEED_LINE = "{name}: {kernel_ms} ms — {default}; {math}."
SPEED_FASTER = "{x}× as fast as PyTorch's {backend}"
SPEED_SLOWER = "{x}× slower than PyTorch's {backend}"
SPEED_SAME = "as fast as PyTorch's {backend}"
SPEED_MISSING = "PyTorch's {backend} could not be timed ({why})"
SPEED_FAILED = "{name}: could not be timed ({why})."
BACKENDS = {
    "default": "built-in attention (SDPA, its fastest method here)",
    "math": "plain math attention",
}
TIMING_NAMES = {
    "forward": "Forward pass",
    "forward+backward": "Forward and backward",
    "forward (decode)": "Decoding step",
}


# -- what a check tested -------------------------------------------------------------------------


def _axes(layout: str) -> list[str]:
    return [part.strip() for part in layout.split(",") if part.strip()]


def _dim(shape: Sequence[int], axes: list[str], *names: str) -> int | None:
    if len(shape) != len(axes):
        return None
    for name in names:
        if name in axes:
            return int(shape[axes.index(name)])
    return None


def _number(n: int) -> str:
    return f"{n:,}"


def case_words(case: VerifyCase) -> str:
    """'float16 · causal · 257 tokens · head size 64' (plus what else sets the check apart:
    query/key lengths, grouped heads, varying sequence lengths, decoding, a custom scale)."""
    parts: list[str] = []
    decoding = case.name.startswith("decode") or case.api.endswith("with_kvcache")
    if decoding:
        parts.append(WORDS["decode"])
    if case.dtype:
        parts.append(case.dtype)
    parts.append(WORDS["causal"] if case.causal else WORDS["full"])
    axes = _axes(case.layout)
    q = case.shapes.get("q", ())
    k = case.shapes.get("k", ())
    seq_q = case.shapes.get("seqlens_q")
    seq_k = case.shapes.get("seqlens_k")
    cached = case.shapes.get("cache_seqlens")
    if seq_q:
        parts.append(WORDS["sequences"].format(n=len(seq_q), low=_number(min(seq_q)),
                                               high=_number(max(seq_q))))
        if seq_k and list(seq_k) != list(seq_q):
            parts.append(WORDS["tokens_qk"].format(q=_number(sum(seq_q)), k=_number(sum(seq_k))))
    elif decoding:
        if cached:
            low, high = min(cached), max(cached)
            parts.append(WORDS["cached"].format(n=_number(low)) if low == high else
                         WORDS["cached_var"].format(low=_number(low), high=_number(high)))
    else:
        sq = _dim(q, axes, "seqlen", "seqlen_q")
        sk = _dim(k, axes, "seqlen", "seqlen_k") if k else sq
        if sq is not None and sk is not None and sq != sk:
            parts.append(WORDS["tokens_qk"].format(q=_number(sq), k=_number(sk)))
        elif sq is not None:
            parts.append(WORDS["tokens"].format(n=_number(sq)))
    hq = _dim(q, axes, "heads", "heads_q")
    hk = _dim(k, axes, "heads") if k else None
    if hq is not None and hk is not None and hk != hq:
        parts.append(WORDS["grouped"].format(q=hq, k=hk))
    elif decoding and hq is not None:
        parts.append(WORDS["heads"].format(n=hq))
    d = _dim(q, axes, "head_dim")
    if d is not None and not decoding:
        parts.append(WORDS["head"].format(d=d))
    scale = case.extra.get("scale") if isinstance(case.extra, Mapping) else None
    if isinstance(scale, (int, float)) and not isinstance(scale, bool):
        parts.append(WORDS["scale"].format(s=f"{scale:g}"))
    if case.device == "cpu":
        parts.append(WORDS["cpu"])
    return SEP.join(parts)


def error_share(case: VerifyCase) -> str:
    """The largest error of a check as a share of what it was allowed: "3 % of the allowed
    error", "12× the allowed error" (the numbers themselves are in the details)."""
    ratios: list[float] = []
    for m in case.measures:
        if m.nan_count or m.inf_count or m.problem == "nonfinite":
            return ERROR_SHARE["invalid"]
        if m.problem in ("missing", "shape"):
            return ERROR_SHARE["missing"]
        if m.kernel_err is not None and m.tolerance > 0:
            ratios.append(m.kernel_err / m.tolerance)
    if not ratios:
        return ERROR_SHARE["none"] if case.passed else ERROR_SHARE["missing"]
    worst = max(ratios)
    if worst <= 1:
        percent = worst * 100
        text = f"{percent:.2g}" if percent >= 0.1 else "< 0.1"
        return ERROR_SHARE["within"].format(percent=text)
    return ERROR_SHARE["over"].format(times=f"{worst:.2g}" if worst < 10 else f"{worst:.0f}")


# -- the verdict in one sentence -----------------------------------------------------------------


def _failure_kind(case: VerifyCase) -> str:
    if case.status is CaseStatus.ERROR:
        return "crash"
    failed = case.failed_measures()
    if any(m.nan_count or m.inf_count or m.problem == "nonfinite" for m in failed):
        return "nonfinite"
    if any(r.startswith("backward") or "returned no gradient" in r for r in case.reasons):
        return "backward"
    if not failed:  # it failed without a wrong number: it raised
        return "crash"
    return "numbers"


def verdict_sentence(report: VerifyReport, installed: bool) -> str:
    """One plain sentence: what the verification found (the numbers go in the details)."""
    counts = report.counts
    passed, failed = counts[CaseStatus.PASS], counts[CaseStatus.FAIL]
    ran = passed + failed + counts[CaseStatus.ERROR]
    if report.status is VerifyStatus.PASS:
        return (PASS_INSTALLED if installed else PASS_NOT_INSTALLED).format(n=passed)
    if report.status is VerifyStatus.FAIL:
        bad = [c for c in report.cases if c.status is CaseStatus.FAIL]
        kinds = [_failure_kind(c) for c in bad]
        order = ("nonfinite", "crash", "backward", "numbers")
        kind = next((k for k in order if k in kinds), "numbers")
        return FAIL[kind].format(failed=len(bad), ran=ran)
    reason = report.reasons[0] if report.reasons else ""
    return ERROR.format(reason=reason).strip()


def failure_details(report: VerifyReport, limit: int = 8) -> list[str]:
    """Each failed check in words, with its first reason (numbers included)."""
    lines = []
    for case in report.cases:
        if case.status in (CaseStatus.FAIL, CaseStatus.ERROR):
            reason = case.reasons[0] if case.reasons else case.status.value
            lines.append(DETAIL_CASE.format(words=case_words(case), reason=reason))
    return lines[:limit]


# -- speed ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpeedText:
    """The speed part of a report in words: a heading saying what was timed, one line per
    measurement (empty when nothing was timed: then ``heading`` says why)."""

    heading: str
    lines: tuple[str, ...]


def _ratio_text(kernel_ms: float, other_ms: float | None, backend: str, error: str) -> str:
    name = BACKENDS[backend]
    if other_ms is None:
        return SPEED_MISSING.format(backend=name, why=error or "no result")
    ratio = other_ms / kernel_ms
    if 0.95 <= ratio <= 1.05:
        return SPEED_SAME.format(backend=name)
    if ratio > 1:
        return SPEED_FASTER.format(x=f"{ratio:.2g}" if ratio < 10 else f"{ratio:.0f}",
                                   backend=name)
    slower = 1 / ratio
    return SPEED_SLOWER.format(x=f"{slower:.2g}" if slower < 10 else f"{slower:.0f}",
                               backend=name)


def _error_part(error: str | None, who: str) -> str:
    """The part of a timing's error text about ``who`` ('kernel', 'sdpa', 'math')."""
    for part in (error or "").split("; "):
        if part.startswith(who + ": "):
            return part[len(who) + 2:]
    return ""


def timing_what(timing: Timing) -> str:
    """'float16 · batch 2 · 4,096 tokens · 16 heads · head size 128 · causal'."""
    if timing.label:
        return timing.label
    parts = [timing.dtype] if timing.dtype else []  # a report from before labels: its shapes
    parts += [WORDS["sizes"].format(name=name, dims="×".join(str(n) for n in shape))
              for name, shape in timing.shapes.items()]
    return SEP.join(parts)


def speed_text(report: VerifyReport) -> SpeedText:
    timings = report.timings
    if not timings:
        env = report.environment
        on_cpu = report.options.get("device") == "cpu" or (env is not None
                                                           and not env.cuda_available)
        if on_cpu or all(c.device == "cpu" for c in report.cases):
            return SpeedText(SPEED_NONE_CPU, ())
        return SpeedText(SPEED_NONE, ())
    what = timing_what(timings[0])
    lines = []
    for t in timings:
        name = TIMING_NAMES.get(t.name, t.name)
        if t.kernel_ms is None:
            lines.append(SPEED_FAILED.format(name=name, why=_error_part(t.error, "kernel")
                                             or t.error or "no result"))
            continue
        default = _ratio_text(t.kernel_ms, t.sdpa_ms, "default", _error_part(t.error, "sdpa"))
        math = _ratio_text(t.kernel_ms, t.math_ms, "math", _error_part(t.error, "math"))
        lines.append(SPEED_LINE.format(name=name, kernel_ms=f"{t.kernel_ms:.3g}",
                                       default=default, math=math))
    return SpeedText(SPEED_WHAT.format(what=what), tuple(lines))


__all__ = [
    "SpeedText",
    "case_words",
    "error_share",
    "failure_details",
    "speed_text",
    "timing_what",
    "verdict_sentence",
]
