"""FlashAttention 3 (Dao-AILab/flash-attention, ``hopper/``): ``flash_attn_interface``'s
``flash_attn_func`` and ``flash_attn_varlen_func``, forward and backward, fp16 and bf16, GQA,
against the float reference with FlashAttention's tolerance rule (the FlashAttention 2 checks,
called through FlashAttention 3's signature: no dropout argument).

The wheel says what it was built with (``flash_attn_config.CONFIG["build_flags"]``): a compact
build has head size 128 only, so the checks run on the head sizes it has and the report says
which were left out. Needs a Hopper GPU (sm_90a code runs on compute capability 9.0 only).
"""

from __future__ import annotations

import importlib

import harness_boundary as hb
import harness_common as hc

from adapters import flash_attn as fa2

MODULE = "flash_attn_interface"
# a compact build's verification calls what it left out, each in a process of its own
# (harness_boundary): the harness starts those processes' torch import ahead
BOUNDARY_CALLS = True
DIST_NAMES = ("flash_attn_3", "flash-attn-3")
HEAD_DIMS = (128, 64, 96, 192, 256)  # the head sizes a build can have, 128 first
CHECKED_DIMS = (128, 64, 256)  # the ones checked when built (as for FlashAttention 2)


class _Fa2Signature:
    """FlashAttention 3's functions called the way the FlashAttention 2 checks call them."""

    def __init__(self, module):
        self.module = module

    def flash_attn_func(self, q, k, v, dropout_p=0.0, softmax_scale=None, causal=False):
        if dropout_p:
            raise ValueError("FlashAttention 3 has no dropout")
        return self.module.flash_attn_func(q, k, v, softmax_scale=softmax_scale, causal=causal)

    def flash_attn_varlen_func(self, q, k, v, cu_q, cu_k, max_q, max_k, dropout_p=0.0,
                               softmax_scale=None, causal=False):
        if dropout_p:
            raise ValueError("FlashAttention 3 has no dropout")
        return self.module.flash_attn_varlen_func(
            q, k, v, cu_q, cu_k, max_q, max_k, softmax_scale=softmax_scale, causal=causal
        )


def build_flags():
    """The wheel's build flags ({} when it does not say: an older or a foreign build)."""
    try:
        config = importlib.import_module("flash_attn_config")
    except Exception:
        return {}
    flags = getattr(config, "CONFIG", {}).get("build_flags", {})
    return {str(k): bool(v) for k, v in flags.items()} if isinstance(flags, dict) else {}


def built_head_dims(flags):
    return [d for d in HEAD_DIMS if not flags.get(f"FLASHATTENTION_DISABLE_HDIM{d}")]


def left_out(flags):
    """What this build left out, in words (empty for a full build)."""
    names = {
        "FP8": "FP8", "SPLIT": "split-KV", "PAGEDKV": "paged KV", "APPENDKV": "append-KV",
        "LOCAL": "sliding windows", "SOFTCAP": "softcap", "PACKGQA": "packed GQA",
        "CLUSTER": "clusters", "VARLEN": "variable-length batches", "BACKWARD": "backward",
    }
    out = [f"head size {d}" for d in HEAD_DIMS
           if flags.get(f"FLASHATTENTION_DISABLE_HDIM{d}")]
    out += [word for key, word in names.items() if flags.get(f"FLASHATTENTION_DISABLE_{key}")]
    return out


def run(h):
    torch = h.torch
    module = fa2.import_api(h, MODULE, DIST_NAMES, "FlashAttention 3")
    flags = build_flags()
    h.report["kernel"]["build_flags"] = flags
    device = hc.gpu_device(h, "FlashAttention 3")
    cc = hc.device_capability(h, device)
    if device.type == "cuda" and cc is not None and cc != (9, 0):
        raise hc.HarnessError(
            "unsupported_gpu",
            "FlashAttention 3 runs on Hopper GPUs (compute capability 9.0: H100, H800, H200) "
            f"only; this one ({torch.cuda.get_device_name(device)}) is {cc[0]}.{cc[1]}. "
            "FlashAttention 2 is the kernel for other GPUs.",
        )
    dims = [d for d in built_head_dims(flags) if d in CHECKED_DIMS]
    if not dims:
        raise hc.HarnessError(
            "import_failed",
            "This FlashAttention 3 build has none of the head sizes the check uses "
            f"({', '.join(str(d) for d in CHECKED_DIMS)}).",
        )
    missing = left_out(flags)
    if missing:
        h.note("This build leaves out " + ", ".join(missing) + " (a compact build): those "
               "were not checked, and a call that needs them raises an error.")
    if flags.get("FLASHATTENTION_DISABLE_FP16"):
        raise hc.HarnessError(
            "import_failed", "This FlashAttention 3 build has no fp16 kernels, which the check "
            "uses; rebuild it without FLASH_ATTENTION_DISABLE_FP16.")
    kernel = _Fa2Signature(module)
    api = MODULE
    if flags.get("FLASHATTENTION_DISABLE_VARLEN"):
        cases = [c for c in fa2.plan(kernel, device, h.quick, dims, api=api)
                 if "varlen" not in c.api]
    else:
        cases = fa2.plan(kernel, device, h.quick, dims, api=api)
    h.run_cases(cases + boundary_cases(flags, device, h.quick))
    boundary_note(h)
    h.backward_broken = hc.backward_failed(h.report["cases"])
    if device.type == "cuda" and not h.cuda_broken and 128 in dims:
        fa2.timings(h, kernel)


_IMPORTS = "import torch\nimport flash_attn_interface\n"

_SETUP = """
import torch
import flash_attn_interface as fa
dev = torch.device(%(device)r)
def t(*shape, dtype=torch.bfloat16):
    return torch.randn(*shape, device=dev, dtype=torch.float32).to(dtype)
def sync():
    if dev.type == "cuda":
        torch.cuda.synchronize()
def call():
    %(call)s
"""


def _boundary_calls(flags):
    """(what, call) for each left-out part of the build, the most common first: calls a user's
    model makes and this build has no kernel for."""
    dims = built_head_dims(flags)
    calls = []
    for d in (192, 256):
        if dims and d > max(dims):
            calls.append((f"head size {d}",
                          f"fa.flash_attn_func(t(1, 128, 2, {d}), t(1, 128, 2, {d}), "
                          f"t(1, 128, 2, {d}))"))
    d = 128 if 128 in dims else (dims[0] if dims else 128)
    qkv = f"t(1, 128, 2, {d}), t(1, 128, 2, {d}), t(1, 128, 2, {d})"
    if flags.get("FLASHATTENTION_DISABLE_SOFTCAP"):
        calls.append(("softcap", f"fa.flash_attn_func({qkv}, softcap=30.0)"))
    if flags.get("FLASHATTENTION_DISABLE_LOCAL"):
        calls.append(("sliding windows", f"fa.flash_attn_func({qkv}, window_size=(32, 0))"))
    if flags.get("FLASHATTENTION_DISABLE_PAGEDKV"):
        calls.append(("paged KV",
                      f"fa.flash_attn_with_kvcache(t(2, 1, 2, {d}), t(4, 64, 2, {d}), "
                      f"t(4, 64, 2, {d}), cache_seqlens=torch.tensor([60, 100], "
                      "dtype=torch.int32, device=dev), page_table=torch.tensor([[0, 1], "
                      "[2, 3]], dtype=torch.int32, device=dev))"))
    if flags.get("FLASHATTENTION_DISABLE_FP8"):
        fp8 = "dtype=torch.float8_e4m3fn"
        calls.append(("FP8", f"fa.flash_attn_func(t(1, 128, 2, {d}, {fp8}), "
                             f"t(1, 128, 2, {d}, {fp8}), t(1, 128, 2, {d}, {fp8}))"))
    if flags.get("FLASHATTENTION_DISABLE_SPLIT"):
        calls.append(("split-KV", f"fa.flash_attn_func({qkv}, num_splits=4)"))
    return calls


def boundary_cases(flags, device, quick):
    """Boundary checks for a build that left something out (none for a full build): each
    left-out call in a process of its own, which must raise, not crash."""
    calls = _boundary_calls(flags)[: 2 if quick else 6]
    return hb.cases([(what, _SETUP % {"device": str(device), "call": call})
                     for what, call in calls],
                    imports=_IMPORTS, device=device.type, api=MODULE + " (left out)")


def boundary_note(h):
    """One note: what a call to a left-out part does (with one message in full)."""
    boundary = [c for c in h.report["cases"] if c.get("boundary")]
    if not boundary:
        return
    raised = [c for c in boundary if c.get("outcome") == "raised"]
    text = ("Calls to what this build left out, each run in a process of its own: "
            + ", ".join(f"{c['left_out']} -> {c.get('outcome', c['status'])}" for c in boundary)
            + ".")
    if raised:
        text += " What such a call says: " + raised[0]["message"]
    h.note(text)
