"""SageAttention 2 on a real GPU, as a user runs it headless (issue 22): build from a local
source (SAGE_SOURCE, a thu-ml/SageAttention tree at the recipe's commit; it is copied first),
verify, install, re-verify with ``--verify``; then the accuracy check against the installed
wheel.

Upstream (thu-ml/SageAttention at d1a57a5) ships no accuracy test: its measures are
``precision_metric``'s (cosine similarity, relative L1, RMSE; sageattention/core.py at
cf85551), and the one published pass line is woct0rdho's tests/test_sageattn.py (against SDPA's
math method at batch 4, 32 heads, 64 tokens, head size 128, fp16: "should be < 0.05, except
max_rtol"). The check below computes both, written here (no upstream code is copied), for every
SageAttention entry point this GPU has, from a folder outside the source tree so that the
installed wheel is what is imported. KSW_GPU_ARTIFACTS (optional) receives the JSON outputs.
These tests install into the interpreter running them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gpu_support import app, keep

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not os.environ.get("SAGE_SOURCE"),
    reason="set SAGE_SOURCE to a thu-ml/SageAttention tree at the recipe's commit "
    "(e.g. .gpu-src/SageAttention, see scripts/sage_gpu.sh)")

ACCURACY = r'''
import json, math, sys
import torch
import torch.nn.functional as F
import sageattention
from sageattention import core

def measures(out, ref):
    # the three measures of SageAttention's precision_metric: cos sim, relative L1, RMSE
    x, r = out.float(), ref.float()
    finite = bool(torch.isfinite(x).all())
    cos = F.cosine_similarity(x.reshape(1, -1), r.reshape(1, -1)).item()
    l1 = ((x - r).abs().sum() / r.abs().sum()).item()
    rmse = torch.sqrt(((x - r) ** 2).mean()).item()
    return {"finite": finite, "cos_sim": cos, "rel_l1": l1, "rmse": rmse}

def woct(out, ref):
    # woct0rdho's test_sageattn.py measures: relative error per element, absolute error
    a, e = out.float(), ref.float()
    diff = (a - e).abs()
    eps = torch.finfo(torch.float32).eps
    floor = torch.tensor(eps, device=a.device)
    rdiff = diff / torch.maximum(torch.maximum(a.abs(), e.abs()), floor)
    return {"mean_rtol": rdiff.mean().item(), "max_rtol": rdiff.max().item(),
            "max_atol": diff.max().item()}

cc = torch.cuda.get_device_capability()
entries = {"sageattn": sageattention.sageattn,
           "sageattn_qk_int8_pv_fp16_triton": sageattention.sageattn_qk_int8_pv_fp16_triton}
if core.SM80_ENABLED:
    entries["sageattn_qk_int8_pv_fp16_cuda"] = sageattention.sageattn_qk_int8_pv_fp16_cuda
if core.SM89_ENABLED and cc != (9, 0):
    entries["sageattn_qk_int8_pv_fp8_cuda"] = sageattention.sageattn_qk_int8_pv_fp8_cuda
if core.SM90_ENABLED and cc == (9, 0):
    entries["sageattn_qk_int8_pv_fp8_cuda_sm90"] = sageattention.sageattn_qk_int8_pv_fp8_cuda_sm90
result = {"file": sageattention.__file__, "cc": list(cc), "torch": torch.__version__,
          "enabled": {"sm80": core.SM80_ENABLED, "sm89": core.SM89_ENABLED,
                      "sm90": core.SM90_ENABLED}, "cases": []}
torch.manual_seed(0)
for dtype in (torch.float16, torch.bfloat16):
    for (b, h, s, d) in ((4, 32, 64, 128), (2, 16, 4096, 128), (2, 16, 4096, 64)):
        for causal in (False, True):
            q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=dtype) for _ in range(3))
            ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                                 is_causal=causal)
            for name, fn in entries.items():
                entry = {"api": name, "dtype": str(dtype), "shape": [b, h, s, d],
                         "causal": causal}
                try:
                    out = fn(q, k, v, tensor_layout="HND", is_causal=causal)
                    torch.cuda.synchronize()
                    entry.update(measures(out, ref))
                    entry.update(woct(out, ref))
                except Exception as exc:
                    entry["error"] = f"{type(exc).__name__}: {exc}"[:300]
                result["cases"].append(entry)
json.dump(result, sys.stdout)
'''


def test_sageattention_end_to_end(tmp_path: Path) -> None:
    """Build (the detected GPU's arch only), verify (forward only, SageAttention's measures),
    install, --verify; then the accuracy of every entry point against the installed wheel."""
    import torch  # the GPU machine's interpreter has it

    cc = torch.cuda.get_device_capability()
    source = tmp_path / "SageAttention"
    shutil.copytree(os.environ["SAGE_SOURCE"], source, symlinks=True)
    started = time.perf_counter()
    result = app("--headless", "build", "--kernel", "sageattention", "--source", str(source),
                 "--json", "--yes", timeout=3000)
    total = time.perf_counter() - started
    keep("sage-build.json", result.stdout)
    keep("sage-build-progress.txt", result.stderr)
    assert result.returncode == 0
    document = json.loads(result.stdout)
    keep("sage-build.log", Path(document["log"]).read_text(encoding="utf-8", errors="replace"))
    plan = document["plan"]
    assert plan["env"]["TORCH_CUDA_ARCH_LIST"] == f"{cc[0]}.{cc[1]}"  # narrowed to this GPU
    assert plan["env"]["EXT_PARALLEL"] == "1"
    verification = document["verification"]
    assert verification["status"] == "pass"
    assert all(not c["backward"] for c in verification["cases"])
    forward = next(t for t in verification["timings"] if t["name"] == "forward")
    assert forward["sdpa_backend"]
    build_s = sum(s["seconds"] for s in document["steps"])
    worst = max((m["stats"]["rel_l1"] for c in verification["cases"] for m in c["measures"]),
                default=None)
    print(f"FIGURES: sageattention build {build_s:.1f} s (steps), build→verified+installed "
          f"{total:.1f} s, verification {verification['seconds']:.1f} s, worst relative L1 "
          f"{worst}, forward {forward['kernel_ms']:.3f} ms vs SDPA {forward['sdpa_backend']} "
          f"{forward['sdpa_ms']:.3f} ms")
    assert document["installed"]

    again = app("--verify")
    keep("sage-reverify.txt", again.stdout + again.stderr)
    assert again.returncode == 0

    outside = tmp_path / "accuracy"  # not the source tree: its sageattention/ would shadow
    outside.mkdir()
    check = subprocess.run([sys.executable, "-c", ACCURACY], cwd=outside, capture_output=True,
                           text=True, timeout=900)
    keep("sage-accuracy.json", check.stdout)
    keep("sage-accuracy-stderr.txt", check.stderr[-20000:])
    assert check.returncode == 0, check.stderr[-3000:]
    accuracy = json.loads(check.stdout)
    assert str(source) not in accuracy["file"]  # the installed wheel was checked
    for case in accuracy["cases"]:
        print(json.dumps(case))
    auto = [c for c in accuracy["cases"] if c["api"] == "sageattn"]
    assert auto and all("error" not in c and c["finite"] for c in auto)
    assert all(c["cos_sim"] > 0.99 for c in auto)
    # the adapter's limits hold for every entry point this GPU has, at every shape
    for case in accuracy["cases"]:
        assert "error" not in case and case["finite"], case
        assert case["cos_sim"] >= 0.99 and case["rel_l1"] <= 0.08, case
    # woct0rdho's pass line at its own shape (fp16, not causal): < 0.05 mean relative and max
    # absolute error. It holds for the FP16 P·V kernels (measured on the H100: 0.034-0.037 and
    # 0.021-0.034). The FP8 P·V kernel that sageattn() picks on Hopper and Ada is coarser by
    # design (H100: mean relative 0.087, max absolute 0.071, relative L1 0.034): held to the
    # adapter's limits above, not to this line.
    fp16_pv = [c for c in accuracy["cases"] if c["api"].startswith("sageattn_qk_int8_pv_fp16")
               and c["shape"] == [4, 32, 64, 128] and c["dtype"] == "torch.float16"
               and not c["causal"]]
    assert fp16_pv, [c["api"] for c in accuracy["cases"]]
    for case in fp16_pv:
        assert case["mean_rtol"] < 0.05 and case["max_atol"] < 0.05, case
