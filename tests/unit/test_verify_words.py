"""The Verify page's plain words, from real reports: checks named in words, one sentence for the
verdict, speed lines that say what was compared (recorded H100 reports, and reports the real
harness wrote for the test kernels of tests/data/bad_kernels)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from kernel_wizard.verify import Timing, VerifyReport, render_markdown
from kernel_wizard.verify.wording import (
    case_words,
    failure_details,
    speed_text,
    timing_what,
    verdict_sentence,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "verify"


def report(name: str) -> VerifyReport:
    return VerifyReport.from_json(json.loads((DATA / name).read_text(encoding="utf-8")))


def test_probe_checks_are_named_in_words() -> None:
    probe = report("h100-probe-report.json")
    words = {case.name: case_words(case) for case in probe.cases}
    assert words["cuda-float16-causal-b2h4s256d64"] == (
        "float16 · causal · 256 tokens · head size 64")
    assert words["cpu-float64-full-b2h3s77d32-scale0.3"] == (
        "float64 · full attention · 77 tokens · head size 32 · scale 0.3 · on the CPU")
    assert len(set(words.values())) == len(words)  # every check reads differently


def test_flashmla_decoding_checks_are_named_in_words() -> None:
    mla = report("h100-flashmla-report.json")
    words = [case_words(case) for case in mla.cases]
    assert words[0].startswith("decoding · bfloat16 · full attention · 140 cached tokens")
    assert "16 heads" in words[0]
    assert "cached tokens" in words[1] and "–" in words[1]  # varying lengths: a range


def test_flash_attn_cases_name_query_key_lengths_and_grouped_heads() -> None:
    base = report("h100-probe-report.json").cases[0]
    func = replace(base, name="func-float16-causal-b2-sq113-sk250-h8kv2-d128",
                   dtype="float16", causal=True, device="cuda",
                   layout="batch, seqlen, heads, head_dim",
                   shapes={"q": (2, 113, 8, 128), "k": (2, 250, 2, 128), "v": (2, 250, 2, 128)},
                   extra={})
    assert case_words(func) == ("float16 · causal · 113 queries, 250 keys · 8 query heads "
                                "sharing 2 key/value heads · head size 128")
    varlen = replace(func, layout="total_tokens, heads, head_dim", causal=False,
                     shapes={"q": (181, 4, 64), "k": (181, 4, 64),
                             "seqlens_q": (37, 128, 16), "seqlens_k": (37, 128, 16)})
    assert case_words(varlen) == ("float16 · full attention · 3 sequences of 16–128 tokens · "
                                  "head size 64")


def test_verdicts_are_one_plain_sentence() -> None:
    probe = report("h100-probe-report.json")
    assert verdict_sentence(probe, installed=True) == (
        "The kernel computes the same results as PyTorch in all 20 checks, and it is installed.")
    assert failure_details(probe) == []


def test_speed_of_an_old_report_says_what_was_timed_and_compared() -> None:
    probe = report("h100-probe-report.json")
    speed = speed_text(probe)
    assert speed.heading == "Speed, measured on float16 · q 4×8×1024×64 · k 4×8×1024×64 · " \
                            "v 4×8×1024×64:"
    assert speed.lines[0].startswith("Forward pass: 4.69 ms — 91× slower than PyTorch's "
                                     "built-in attention")
    assert "math" not in speed.lines[0]  # not measured then: nothing is said of it


def test_speed_lines_name_both_sdpa_methods() -> None:
    timing = Timing("forward", {"q": (2, 4096, 16, 128)}, "float16", kernel_ms=0.8,
                    sdpa_ms=0.5, speedup=0.625, math_ms=9.6,
                    label="float16 · batch 2 · 4,096 tokens · 16 heads · head size 128 · causal")
    probe = replace(report("h100-probe-report.json"), timings=(timing,))
    speed = speed_text(probe)
    assert speed.heading == ("Speed, measured on float16 · batch 2 · 4,096 tokens · 16 heads · "
                             "head size 128 · causal:")
    assert speed.lines[:-1] == ("Forward pass: 0.8 ms — 1.6× slower than PyTorch's built-in "
                                "attention (SDPA, its fastest method here); 12× as fast as "
                                "PyTorch's plain math attention.",)
    assert speed.lines[-1].startswith("Timed one call at a time (a report of an earlier version")
    oom = replace(timing, math_ms=None, error="math: not enough GPU memory at this size")
    assert "plain math attention could not be timed (not enough GPU memory at this size)" in \
        speed_text(replace(probe, timings=(oom,))).lines[0]
    assert timing_what(timing) == timing.label
    assert Timing.from_json(timing.to_json()) == timing  # the new fields round-trip


def test_speed_lines_name_the_fastest_sdpa_method_and_the_rates() -> None:
    """FlashAttention 3 on the H100 against cuDNN attention, PyTorch's fastest method there."""
    flops = 4.0 * 2 * 16 * 4096 * 4096 * 128 / 2
    timing = Timing("forward", {"q": (2, 4096, 16, 128)}, "float16", kernel_ms=0.215,
                    sdpa_ms=0.261, speedup=0.261 / 0.215, math_ms=14.6, sdpa_backend="cuDNN",
                    backends={"cuDNN": 0.261, "flash": 0.509, "memory-efficient": None},
                    flops=flops, label="float16 · batch 2 · 4,096 tokens · causal")
    probe = replace(report("h100-probe-report.json"), timings=(timing,))
    line, method = speed_text(probe).lines
    assert method.startswith("Timed one call at a time")
    assert line == ("Forward pass: 0.215 ms, 639 TFLOPs — 1.2× as fast as PyTorch's built-in "
                    "attention (SDPA's cuDNN method, the fastest here); 68× as fast as PyTorch's "
                    "plain math attention.")
    assert timing.rate(timing.sdpa_ms) == "527 TFLOPs"
    assert Timing.from_json(timing.to_json()) == timing
    table = render_markdown(probe)
    assert "| forward | float16 · batch 2 · 4,096 tokens · causal | 0.215 | 639 TFLOPs | cuDNN | " \
        "0.261 | 527 TFLOPs | 14.600 | 1.21x | 67.91x |" in table
    decode = Timing("forward (decode)", {}, "bfloat16", kernel_ms=0.06, sdpa_ms=0.3,
                    speedup=5.0, reference="torch.bmm + softmax", flops=9.1e9, bytes=3.8e7)
    (line,) = speed_text(replace(probe, timings=(decode,))).lines  # no attention: no method line
    assert line == ("Decoding step: 0.06 ms, 152 TFLOPs, 633 GB/s — 5× as fast as plain "
                    "PyTorch (torch.bmm + softmax) doing the same work.")


def test_queued_timings_say_their_method_and_a_cpu_bound_call() -> None:
    """The verification times calls queued as a model runs them (issue 29): the report says
    so in one sentence, and a call whose CPU overhead is as long as its GPU time is named."""
    prefill = Timing("forward", {}, "float16", kernel_ms=0.218, sdpa_ms=0.266,
                     speedup=0.266 / 0.218, sdpa_backend="cuDNN", runs=40, groups=5,
                     method="queued", host_ms=0.071, sdpa_host_ms=0.02)
    decode = replace(prefill, name="forward (decode)", kernel_ms=0.03, sdpa_ms=0.05,
                     speedup=0.05 / 0.03, runs=200, host_ms=0.06)
    probe = replace(report("h100-probe-report.json"), timings=(prefill, decode))
    lines = speed_text(probe).lines
    assert lines[0].startswith("Forward pass: 0.218 ms — 1.2× as fast as")
    assert lines[2] == ("Decoding step: at this size, issuing one call takes the CPU 0.06 ms, "
                        "about as long as the GPU needs (0.03 ms): the Python around the kernel "
                        "sets the pace here, not the kernel.")
    assert lines[-1] == ("Timed as a model runs them: 40–200 calls queued back to back between "
                         "two CUDA events after a warm-up; each time is the median per call.")
    assert not prefill.cpu_bound and decode.cpu_bound
    assert Timing.from_json(decode.to_json()) == decode
    table = render_markdown(probe)
    assert "40–200 calls queued back to back" in table and "0.060 (CPU-bound)" in table


def test_no_timing_on_the_cpu_is_said_plainly() -> None:
    probe = report("h100-probe-report.json")
    cpu_only = replace(probe, timings=(), cases=tuple(c for c in probe.cases
                                                      if c.device == "cpu"))
    assert speed_text(cpu_only).heading.startswith("Speed was not measured: it is measured on "
                                                   "an NVIDIA GPU only")
    assert speed_text(cpu_only).lines == ()
