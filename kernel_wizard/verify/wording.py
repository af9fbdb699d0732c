"""A verification report in plain words: what a check tested, why it failed, how fast it ran.

The Verify page (and anyone else who shows a report to a person) leads with one plain sentence
and names checks in words — "float16 · causal · 257 tokens · head size 64" — instead of the
harness's case ids; the numbers stay in the details. Every sentence is a whole template with
named fields (no fragments glued together): the English is what the CLI and the reports say,
and each sentence remembers its template (``base.messages``) so that the GUI shows it in
the user's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.verify.report import (
    CaseStatus,
    ErrorMeasure,
    Timing,
    VerifyCase,
    VerifyReport,
    VerifyStatus,
)

SEP = " · "

# -- the texts (one place, whole sentences) ------------------------------------------------------
# Sentences with values are made where they are used, with msg() (so that the GUI translates
# them); the fixed ones are marked N_() here.

CAUSAL = N_("causal")
FULL = N_("full attention")
DECODE = N_("decoding")
ON_CPU = N_("on the CPU")
NOTHING_INSTALLED = N_("Nothing was installed: your Python environment is as it was.")
NO_RESULT = N_("no result")
# the harness's sentence for a build without a backward (resources/verify/harness_common.py)
BACKWARD_NOT_CONNECTED = N_("backward: the kernel's output is not connected to autograd, so no "
                            "gradients can be computed (this build has no backward).")
SPEED_NONE_CPU = N_("Speed was not measured: it is measured on an NVIDIA GPU only, and these "
                    "checks ran on the CPU.")
SPEED_NONE = N_("Speed was not measured.")
TIMING_NAMES = {
    "forward": N_("Forward pass"),
    "forward+backward": N_("Forward and backward"),
    "forward (decode)": N_("Decoding step"),
}


def _backend(backend: str) -> Msg:
    if backend == "default":
        return msg("built-in attention (SDPA, its fastest method here)")
    if backend == "math":
        return msg("plain math attention")
    return msg("built-in attention (SDPA's {method} method, the fastest here)", method=backend)


def _failed_sentence(kind: str, failed: int, ran: int) -> Msg:
    if kind == "nonfinite":
        return msg("{failed} of {ran} checks failed: the kernel produced invalid numbers (NaN or "
                   "infinity) or left part of its result unwritten.", failed=failed, ran=ran)
    if kind == "backward":
        return msg("{failed} of {ran} checks failed: the kernel's backward pass (needed for "
                   "training) does not work.", failed=failed, ran=ran)
    if kind == "crash":
        return msg("{failed} of {ran} checks failed: the kernel stopped with an error.",
                   failed=failed, ran=ran)
    return msg("{failed} of {ran} checks failed: the kernel's results are further from the exact "
               "answer than PyTorch's own are allowed to be.", failed=failed, ran=ran)


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


def case_words(case: VerifyCase) -> Msg:
    """'float16 · causal · 257 tokens · head size 64' (plus what else sets the check apart:
    query/key lengths, grouped heads, varying sequence lengths, decoding, a custom scale)."""
    parts: list[Msg | str] = []
    decoding = case.name.startswith("decode") or case.api.endswith("with_kvcache")
    if decoding:
        parts.append(DECODE)
    if case.dtype:
        parts.append(case.dtype)
    parts.append(CAUSAL if case.causal else FULL)
    axes = _axes(case.layout)
    q = case.shapes.get("q", ())
    k = case.shapes.get("k", ())
    seq_q = case.shapes.get("seqlens_q")
    seq_k = case.shapes.get("seqlens_k")
    cached = case.shapes.get("cache_seqlens")
    if seq_q:
        parts.append(msg("{n} sequences of {low}–{high} tokens", n=len(seq_q),
                         low=_number(min(seq_q)), high=_number(max(seq_q))))
        if seq_k and list(seq_k) != list(seq_q):
            parts.append(msg("{q} queries, {k} keys", q=_number(sum(seq_q)),
                             k=_number(sum(seq_k))))
    elif decoding:
        if cached:
            low, high = min(cached), max(cached)
            parts.append(msg("{n} cached tokens", n=_number(low)) if low == high else
                         msg("{low}–{high} cached tokens", low=_number(low), high=_number(high)))
    else:
        sq = _dim(q, axes, "seqlen", "seqlen_q")
        sk = _dim(k, axes, "seqlen", "seqlen_k") if k else sq
        if sq is not None and sk is not None and sq != sk:
            parts.append(msg("{q} queries, {k} keys", q=_number(sq), k=_number(sk)))
        elif sq is not None:
            parts.append(msg("{n} tokens", n=_number(sq)))
    hq = _dim(q, axes, "heads", "heads_q")
    hk = _dim(k, axes, "heads") if k else None
    if hq is not None and hk is not None and hk != hq:
        parts.append(msg("{q} query heads sharing {k} key/value heads", q=hq, k=hk))
    elif decoding and hq is not None:
        parts.append(msg("{n} heads", n=hq))
    d = _dim(q, axes, "head_dim")
    if d is not None and not decoding:
        parts.append(msg("head size {d}", d=d))
    scale = case.extra.get("scale") if isinstance(case.extra, Mapping) else None
    if isinstance(scale, (int, float)) and not isinstance(scale, bool):
        parts.append(msg("scale {s}", s=f"{scale:g}"))
    if case.device == "cpu":
        parts.append(ON_CPU)
    return join(parts, SEP)


def error_share(case: VerifyCase) -> Msg | str:
    """The largest error of a check as a share of what it was allowed: "3 % of the allowed
    error", "12× the allowed error" (the numbers themselves are in the details)."""
    ratios: list[float] = []
    for m in case.measures:
        if m.nan_count or m.inf_count or m.problem == "nonfinite":
            return N_("invalid numbers (NaN or infinity)")
        if m.problem in ("missing", "shape"):
            return NO_RESULT
        if m.kernel_err is not None and m.tolerance > 0:
            ratios.append(m.kernel_err / m.tolerance)
    if not ratios:
        return "—" if case.passed else NO_RESULT
    worst = max(ratios)
    if worst <= 1:
        percent = worst * 100
        text = f"{percent:.2g}" if percent >= 0.1 else "< 0.1"
        return msg("{percent} % of the allowed error", percent=text)
    return msg("{times}× the allowed error",
               times=f"{worst:.2g}" if worst < 10 else f"{worst:.0f}")


# -- a check's measures -------------------------------------------------------------------------


def measure_label(m: ErrorMeasure) -> Msg | str:
    """What a measure is, in words: "the output", "dq, the gradient of q"; another measure by
    its name."""
    if m.name == "out":
        return N_("the output")
    if len(m.name) == 2 and m.name.startswith("d"):
        return msg("{name}, the gradient of {of}", name=m.name, of=m.name[1:])
    return m.name


def measure_text(m: ErrorMeasure) -> Msg:
    """One measure of a check in words: 'the output: largest error 1.8e-15, allowed 1e-08'."""
    label = measure_label(m)
    if m.problem == "missing":
        return msg("{label}: the kernel returned nothing", label=label)
    if m.problem == "shape":
        return msg("{label}: wrong shape", label=label)
    if m.nan_count or m.inf_count:
        return msg("{label}: {nan} NaN and {inf} infinite values", label=label, nan=m.nan_count,
                   inf=m.inf_count)
    if m.kernel_err is None:
        return msg("{label}: not measured", label=label)
    if m.problem is None and m.rule != "upstream_allclose":
        error, limit = f"{m.kernel_err:.2g}", f"{m.tolerance:.2g}"
        if m.passed:
            return msg("{label}: largest error {error}, allowed {limit}", label=label,
                       error=error, limit=limit)
        return msg("{label}: largest error {error}, more than the {limit} allowed", label=label,
                   error=error, limit=limit)
    return msg("{label}: {value}", label=label, value=m.cell())


# -- why a check failed --------------------------------------------------------------------------


def _g(value: float | None, spec: str) -> str:
    return format(value, spec) if value is not None else "n/a"


def _label(m: ErrorMeasure) -> Msg | str:
    """"dq (gradient of q)" in words; another label as the harness wrote it."""
    label = m.label or m.name
    if m.name[:1] == "d" and label == f"{m.name} (gradient of {m.name[1:]})":
        return msg("{name} (gradient of {of})", name=m.name, of=m.name[1:])
    return label


def measure_reason(m: ErrorMeasure, case: VerifyCase) -> Msg | None:
    """Why ``m`` failed, in the words the harness uses for it (its numbers, the same English),
    as a sentence the GUI can translate; None for a measure the core cannot put in words."""
    label = _label(m)
    where: Msg | str = ""
    if m.worst_index is not None:
        index = list(m.worst_index)
        named = case.layout and len(index) == case.layout.count(",") + 1
        where = (msg(" at index {index} ({layout})", index=index, layout=case.layout) if named
                 else msg(" at index {index}", index=index))
    share_over = m.fraction_over
    if m.problem == "missing":
        return msg("{label}: the kernel returned nothing for it.", label=label)
    if m.problem == "shape":
        return msg("{label}: wrong shape ({detail}).", label=label, detail=m.detail)
    if m.problem == "nonfinite":
        if m.nan_count and m.inf_count:
            values = msg("{nan} NaN and {inf} infinite", nan=m.nan_count, inf=m.inf_count)
        elif m.nan_count:
            values = msg("{nan} NaN", nan=m.nan_count)
        elif m.inf_count:
            values = msg("{inf} infinite", inf=m.inf_count)
        else:
            return None
        share: Msg | str = ""
        if share_over is not None:
            share = msg(" ({percent}% of the elements)", percent=f"{100.0 * share_over:.3g}")
        return msg("{label} contains {values} value(s){share}, the first{where}: the kernel "
                   "produced invalid numbers or left part of its output unwritten.",
                   label=label, values=values, share=share, where=where)
    if m.problem == "cosine":
        if m.cos_diff is None:
            return None
        return msg("{label}: cosine difference {diff} exceeds upstream's limit {limit}.",
                   label=label, diff=f"{m.cos_diff:.3g}", limit=f"{m.cos_tol or 0.0:.3g}")
    percent = f"{100.0 * (share_over or 0.0):.3g}"
    reference = case.reference_dtype or ""
    if m.rule == "upstream_allclose":
        return msg("{label} differs from the {reference} reference by up to {err}{where}; "
                   "{percent}% of the elements are outside upstream's tolerance (abs {abs_tol} "
                   "or rel {rel_tol}).", label=label, reference=reference,
                   err=_g(m.kernel_err, ".3g"), where=where, percent=percent,
                   abs_tol=f"{m.abs_tol or 0.0:.3g}", rel_tol=f"{m.rel_tol or 0.0:.3g}")
    if m.factor is None or m.floor is None:
        return None
    return msg("{label} differs from the {reference} reference by up to {err}{where}, more than "
               "allowed ({factor} x PyTorch's own {dtype} error {own} + floor {floor} = "
               "{tolerance}); {percent}% of the elements are off by more than that.",
               label=label, reference=reference, err=_g(m.kernel_err, ".3g"), where=where,
               factor=f"{m.factor:g}", dtype=case.dtype, own=_g(m.reference_dtype_err, ".3g"),
               floor=f"{m.floor:.3g}", tolerance=f"{m.tolerance:.3g}", percent=percent)


def case_reason(case: VerifyCase, reason: str) -> Msg | str:
    """``reason`` (one of ``case``'s, as the harness wrote it) as a sentence the GUI can
    translate, where the core knows it (a failed measure's, with the same numbers); else
    ``reason`` itself."""
    if isinstance(reason, Msg):
        return reason
    for m in case.failed_measures():
        words = measure_reason(m, case)
        if words is not None and words == reason:
            return words
    return reason  # a fixed one (e.g. BACKWARD_NOT_CONNECTED) is translated as itself


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


VERDICT_TITLES = {
    VerifyStatus.PASS: N_("✔ PASS — the kernel works."),
    VerifyStatus.FAIL: N_("✖ FAIL — the kernel computes wrong results. It was not installed."),
    VerifyStatus.ERROR: N_("✖ The kernel could not be checked, so it was not installed."),
}
PASS_INSTALLED_TITLE = N_("✔ PASS — the kernel works, and it is installed.")
NOT_INSTALLED_YET = N_("It is not installed yet: your Python environment is unchanged.")
FAILED_NEXT = N_("You can build it again, save a report bundle for a bug report, or install "
                 "it anyway (not recommended).")


def verdict_title(status: VerifyStatus, installed: bool) -> str:
    """The verdict in a few words, as a title: "✔ PASS — the kernel works." (and whether it is
    installed; a kernel that did not pass was not)."""
    if status is VerifyStatus.PASS and installed:
        return PASS_INSTALLED_TITLE
    return VERDICT_TITLES[status]


def explanation(report: VerifyReport, installed: bool) -> Msg:
    """What the verdict means for the person, under the title: the plain sentence, and what is
    installed and what they can do next."""
    sentence = verdict_sentence(report, installed)
    if report.passed:
        return join((sentence,) if installed else (sentence, NOT_INSTALLED_YET))
    return join((sentence, NOTHING_INSTALLED, FAILED_NEXT))


def verdict_sentence(report: VerifyReport, installed: bool) -> Msg | str:
    """One plain sentence: what the verification found (the numbers go in the details)."""
    counts = report.counts
    passed, failed = counts[CaseStatus.PASS], counts[CaseStatus.FAIL]
    ran = passed + failed + counts[CaseStatus.ERROR]
    if report.status is VerifyStatus.PASS:
        if installed:
            return msg("The kernel computes the same results as PyTorch in all {n} checks, and "
                       "it is installed.", n=passed)
        return msg("The kernel computes the same results as PyTorch in all {n} checks.", n=passed)
    if report.status is VerifyStatus.FAIL:
        bad = [c for c in report.cases if c.status is CaseStatus.FAIL]
        kinds = [_failure_kind(c) for c in bad]
        order = ("nonfinite", "crash", "backward", "numbers")
        kind = next((k for k in order if k in kinds), "numbers")
        return _failed_sentence(kind, len(bad), ran)
    reason = report.reasons[0] if report.reasons else ""
    if not reason.strip():
        return N_("The kernel could not be checked:")
    return msg("The kernel could not be checked: {reason}", reason=_sentence(reason.strip()))


def _sentence(text: str) -> Msg:
    """``text`` as a field a translation translates too (a fixed sentence is looked up as
    itself)."""
    return text if isinstance(text, Msg) else Msg(text)


def failure_details(report: VerifyReport, limit: int = 8) -> list[Msg]:
    """Each failed check in words, with its first reason (numbers included)."""
    lines = []
    for case in report.cases:
        if case.status in (CaseStatus.FAIL, CaseStatus.ERROR):
            reason = case_reason(case, case.reasons[0]) if case.reasons else case.status.value
            lines.append(msg("{words}: {reason}", words=case_words(case),
                             reason=_sentence(reason)))
    return lines[:limit]


# -- speed ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpeedText:
    """The speed part of a report in words: a heading saying what was timed, one line per
    measurement (empty when nothing was timed: then ``heading`` says why)."""

    heading: str
    lines: tuple[str, ...]


def _compare(kernel_ms: float, other_ms: float) -> tuple[str, str]:
    """How the kernel compares: ("same" | "faster" | "slower", the factor in words)."""
    ratio = other_ms / kernel_ms
    if 0.95 <= ratio <= 1.05:
        return "same", ""
    factor = ratio if ratio > 1 else 1 / ratio
    return ("faster" if ratio > 1 else "slower",
            f"{factor:.2g}" if factor < 10 else f"{factor:.0f}")


def _ratio_text(kernel_ms: float, other_ms: float | None, backend: str, error: str) -> Msg:
    name = _backend(backend)
    if other_ms is None:
        return msg("PyTorch's {backend} could not be timed ({why})", backend=name,
                   why=_sentence(error or NO_RESULT))
    how, x = _compare(kernel_ms, other_ms)
    if how == "same":
        return msg("as fast as PyTorch's {backend}", backend=name)
    if how == "faster":
        return msg("{x}× as fast as PyTorch's {backend}", x=x, backend=name)
    return msg("{x}× slower than PyTorch's {backend}", x=x, backend=name)


def _versus_text(kernel_ms: float, other_ms: float | None, reference: str) -> Msg:
    """Against a named plain-PyTorch baseline: '3.1× as fast as plain PyTorch
    (all_to_all_single (NCCL)) doing the same work'."""
    if other_ms is None:
        return msg("plain PyTorch ({reference}) could not be timed", reference=reference)
    how, x = _compare(kernel_ms, other_ms)
    if how == "same":
        return msg("as fast as plain PyTorch ({reference}) doing the same work",
                   reference=reference)
    if how == "faster":
        return msg("{x}× as fast as plain PyTorch ({reference}) doing the same work",
                   x=x, reference=reference)
    return msg("{x}× slower than plain PyTorch ({reference}) doing the same work",
               x=x, reference=reference)


def _kernel_time(t: Timing) -> str:
    """'0.215 ms' with the rate the kernel reached: '0.215 ms, 650 TFLOPs'."""
    rate = t.rate(t.kernel_ms)
    if rate:
        return msg("{ms} ms, {rate}", ms=f"{t.kernel_ms:.3g}", rate=rate)
    return msg("{ms} ms", ms=f"{t.kernel_ms:.3g}")


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
    parts += [f"{name} {'×'.join(str(n) for n in shape)}"
              for name, shape in timing.shapes.items()]
    return SEP.join(parts)


def method_sentence(timings: Sequence[Timing]) -> Msg | None:
    """How the times were taken, in one plain sentence; None for timings of collectives (DeepEP:
    each call synchronises the GPUs, so there is nothing to queue) and when nothing was timed."""
    queued = [t for t in timings if t.method == "queued" and t.runs]
    if queued:
        calls = sorted({t.runs for t in queued})
        many = f"{calls[0]}" if len(calls) == 1 else f"{calls[0]}–{calls[-1]}"
        return msg("Timed as a model runs them: {calls} calls queued back to back between two "
                   "CUDA events after a warm-up; each time is the median per call.", calls=many)
    if any(not t.reference for t in timings):  # attention timed by an earlier wizard
        return msg("Timed one call at a time (a report of an earlier version of the wizard): "
                   "Python's overhead of each call is in every time, which a model hides.")
    return None


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
    lines: list[str] = []
    for t in timings:
        name = _sentence(TIMING_NAMES.get(t.name, t.name))
        if t.kernel_ms is None:
            why = _error_part(t.error, "kernel") or t.error or NO_RESULT
            lines.append(msg("{name}: could not be timed ({why}).", name=name,
                             why=_sentence(why)))
            continue
        if t.reference:  # a baseline other than SDPA (DeepEP: PyTorch's collectives)
            lines.append(msg("{name}: {kernel} — {versus}.", name=name, kernel=_kernel_time(t),
                             versus=_versus_text(t.kernel_ms, t.sdpa_ms, t.reference)))
            continue
        default = _ratio_text(t.kernel_ms, t.sdpa_ms, t.sdpa_backend or "default",
                              _error_part(t.error, "sdpa"))
        if t.math_ms is None and not _error_part(t.error, "math"):
            lines.append(msg("{name}: {kernel} — {default}.", name=name, kernel=_kernel_time(t),
                             default=default))
            continue
        math = _ratio_text(t.kernel_ms, t.math_ms, "math", _error_part(t.error, "math"))
        lines.append(msg("{name}: {kernel} — {default}; {math}.", name=name,
                         kernel=_kernel_time(t), default=default, math=math))
    for t in timings:
        if t.cpu_bound and t.host_ms is not None:
            lines.append(msg(
                "{name}: at this size, issuing one call takes the CPU {host} ms, about as long "
                "as the GPU needs ({kernel} ms): the Python around the kernel sets the pace "
                "here, not the kernel.", name=_sentence(TIMING_NAMES.get(t.name, t.name)),
                host=f"{t.host_ms:.3g}", kernel=f"{t.kernel_ms:.3g}"))
    method = method_sentence(timings)
    if method is not None:
        lines.append(method)
    return SpeedText(msg("Speed, measured on {what}:", what=what), tuple(lines))


__all__ = [
    "NOTHING_INSTALLED",
    "SpeedText",
    "case_reason",
    "case_words",
    "error_share",
    "explanation",
    "failure_details",
    "measure_label",
    "measure_reason",
    "measure_text",
    "method_sentence",
    "speed_text",
    "timing_what",
    "verdict_sentence",
    "verdict_title",
]
