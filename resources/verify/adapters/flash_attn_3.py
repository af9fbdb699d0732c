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

import harness_common as hc

from adapters import flash_attn as fa2

MODULE = "flash_attn_interface"
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
    h.run_cases(cases)
    h.backward_broken = hc.backward_failed(h.report["cases"])
    if device.type == "cuda" and not h.cuda_broken and 128 in dims:
        fa2.timings(h, kernel)
