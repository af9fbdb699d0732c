"""The bundled probe kernel (resources/probe_kernel) built for real and checked in a real torch.

The wheel is built with ``pip wheel --no-build-isolation --no-deps`` by the ``torch_venv``
python (torch 2.13.0 CPU, ninja, setuptools, wheel) from a copy of the source, so the resources
folder never gains build/ or *.egg-info. It is installed with ``--target`` into a temporary
folder (the venv stays as created) and checked in a subprocess of that venv: forward against a
float64 reference, gradients against autograd on the reference and torch.autograd.gradcheck,
and the errors a user gets for wrong inputs.

``CHECK_SCRIPT`` takes the device as its argument, so the same checks run on a CUDA build on a
GPU machine (``python - cuda`` with the script on stdin).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
PROBE_SRC = REPO / "resources" / "probe_kernel"

pytestmark = pytest.mark.slow

# Runs inside the target venv with ksw_probe importable. Prints one JSON line, last.
CHECK_SCRIPT = r'''
import json
import math
import sys

import torch

import ksw_probe

device = sys.argv[1] if len(sys.argv) > 1 else "cpu"
torch.manual_seed(1234)
res = {
    "device": device,
    "module_file": ksw_probe.__file__,
    "torch_version": torch.__version__,
    "has_cuda": ksw_probe.has_cuda(),
    "build_info": ksw_probe.build_info(),
    "forward": [],
    "grad": [],
    "gradcheck": [],
    "errors": {},
    "extra": {},
}


def rand(*shape, dtype):
    return torch.randn(*shape, dtype=torch.float64).to(device=device, dtype=dtype)


def reference(q, k, v, causal, scale):
    """float64 attention in plain PyTorch on the CPU, differentiable."""
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    s = (q @ k.transpose(-2, -1)) * scale
    if causal:
        mask = torch.ones(s.shape[-2], s.shape[-1], dtype=torch.bool).tril()
        s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v


# (batch, heads, seqlen_q, seqlen_k, head_dim, head_dim_v)
SHAPES = [(2, 3, 7, 7, 16, 16), (1, 2, 5, 9, 8, 12), (2, 1, 9, 4, 4, 4), (1, 1, 1, 1, 3, 3)]
DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16]

for dtype in DTYPES:
    for causal in (False, True):
        for n, shape in enumerate(SHAPES):
            b, h, lq, lk, d, dv = shape
            scale = 0.3 if n == 1 else None
            q = rand(b, h, lq, d, dtype=dtype)
            k = rand(b, h, lk, d, dtype=dtype)
            v = rand(b, h, lk, dv, dtype=dtype)
            out, lse = ksw_probe.attention_with_lse(q, k, v, causal=causal, scale=scale)
            q64, k64, v64 = (t.detach().cpu().double() for t in (q, k, v))
            ref = reference(q64, k64, v64, causal, scale)
            s = (q64 @ k64.transpose(-2, -1)) * (scale if scale is not None else 1 / math.sqrt(d))
            if causal:
                s = s.masked_fill(~torch.ones(lq, lk, dtype=torch.bool).tril(), float("-inf"))
            res["forward"].append({
                "dtype": str(dtype).replace("torch.", ""),
                "causal": causal,
                "shape": shape,
                "out_dtype": str(out.dtype).replace("torch.", ""),
                "out_shape": list(out.shape),
                "max_abs_err": (out.detach().cpu().double() - ref).abs().max().item(),
                "lse_max_abs_err": (lse.cpu().double() - torch.logsumexp(s, -1)).abs().max().item(),
            })

# Gradients of a float32 and a float64 run against autograd through the float64 reference.
for dtype in (torch.float64, torch.float32):
    for causal in (False, True):
        q, k, v = (rand(2, 2, 6, 8, dtype=dtype).requires_grad_() for _ in range(3))
        out = ksw_probe.attention(q, k, v, causal=causal)
        grad_out = rand(*out.shape, dtype=dtype)
        out.backward(grad_out)
        q64, k64, v64 = (t.detach().cpu().double().requires_grad_() for t in (q, k, v))
        reference(q64, k64, v64, causal, None).backward(grad_out.cpu().double())
        res["grad"].append({
            "dtype": str(dtype).replace("torch.", ""),
            "causal": causal,
            "max_abs_err": max(
                (a.grad.cpu().double() - b.grad).abs().max().item()
                for a, b in ((q, q64), (k, k64), (v, v64))
            ),
        })

for causal in (False, True):
    for shape, scale in (
        ((1, 2, 4, 4, 3, 3), None), ((2, 1, 3, 5, 4, 2), 0.7), ((1, 1, 5, 3, 2, 3), None)
    ):
        b, h, lq, lk, d, dv = shape
        q = rand(b, h, lq, d, dtype=torch.float64).requires_grad_()
        k = rand(b, h, lk, d, dtype=torch.float64).requires_grad_()
        v = rand(b, h, lk, dv, dtype=torch.float64).requires_grad_()
        ok = torch.autograd.gradcheck(
            lambda a, b_, c: ksw_probe.attention(a, b_, c, causal=causal, scale=scale),
            (q, k, v),
            raise_exception=False,
        )
        res["gradcheck"].append({"causal": causal, "shape": shape, "ok": bool(ok)})


def error_of(fn):
    try:
        fn()
    except Exception as exc:
        return {"type": type(exc).__name__, "message": str(exc).splitlines()[0]}
    return None


f32 = torch.float32
res["errors"]["rank"] = error_of(lambda: ksw_probe.attention(
    rand(2, 7, 16, dtype=f32), rand(2, 7, 16, dtype=f32), rand(2, 7, 16, dtype=f32)))
res["errors"]["head_dim"] = error_of(lambda: ksw_probe.attention(
    rand(1, 2, 4, 8, dtype=f32), rand(1, 2, 4, 7, dtype=f32), rand(1, 2, 4, 8, dtype=f32)))
res["errors"]["seqlen_kv"] = error_of(lambda: ksw_probe.attention(
    rand(1, 2, 4, 8, dtype=f32), rand(1, 2, 5, 8, dtype=f32), rand(1, 2, 6, 8, dtype=f32)))
res["errors"]["dtype_mix"] = error_of(lambda: ksw_probe.attention(
    rand(1, 2, 4, 8, dtype=f32), rand(1, 2, 4, 8, dtype=torch.float64),
    rand(1, 2, 4, 8, dtype=f32)))
res["errors"]["dtype_int"] = error_of(lambda: ksw_probe.attention(
    *(torch.ones(1, 2, 4, 8, dtype=torch.int64, device=device) for _ in range(3))))

if device == "cuda":
    # Mixed devices; larger shapes; a non-default stream; non-contiguous inputs.
    res["errors"]["device_mix"] = error_of(lambda: ksw_probe.attention(
        rand(1, 2, 4, 8, dtype=f32), rand(1, 2, 4, 8, dtype=f32).cpu(),
        rand(1, 2, 4, 8, dtype=f32)))
    q, k, v = (rand(2, 4, 300, 128, dtype=f32) for _ in range(3))
    res["extra"]["large_fwd_err"] = (
        ksw_probe.attention(q, k, v, causal=True).double().cpu()
        - reference(q.double().cpu(), k.double().cpu(), v.double().cpu(), True, None)
    ).abs().max().item()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        o_stream = ksw_probe.attention(q, k, v)
    stream.synchronize()
    res["extra"]["stream_err"] = (o_stream - ksw_probe.attention(q, k, v)).abs().max().item()
    qt = rand(2, 5, 3, 16, dtype=f32).transpose(1, 2)
    res["extra"]["noncontig_err"] = (
        ksw_probe.attention(qt, qt, qt).double().cpu()
        - reference(qt.double().cpu(), qt.double().cpu(), qt.double().cpu(), False, None)
    ).abs().max().item()
    torch.cuda.synchronize()

print(json.dumps(res))
'''

# Absolute tolerances on randn inputs against the float64 reference.
FWD_TOL = {"float64": 1e-10, "float32": 1e-5, "float16": 4e-3, "bfloat16": 3e-2}


def _copy_source(dest: Path) -> Path:
    """A clean copy of the probe source: the build writes build/ and *.egg-info next to it."""
    shutil.copytree(
        PROBE_SRC,
        dest,
        ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", "*.so"),
    )
    return dest


@pytest.fixture(scope="module")
def probe_build(torch_venv: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("probe-kernel")
    src = _copy_source(root / "probe_kernel")
    dist = root / "dist"
    env = dict(os.environ)
    env.pop("KSW_PROBE_CPU_ONLY", None)
    start = time.monotonic()
    result = subprocess.run(
        [
            str(torch_venv),
            "-m",
            "pip",
            "wheel",
            ".",
            "--no-build-isolation",
            "--no-deps",
            "-v",
            "-w",
            str(dist),
        ],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    elapsed = time.monotonic() - start
    log = result.stdout + result.stderr
    assert result.returncode == 0, f"probe build failed ({elapsed:.0f} s):\n{log[-8000:]}"
    wheels = sorted(dist.glob("ksw_probe_kernel-0.1.0-*.whl"))
    assert len(wheels) == 1, f"expected one ksw-probe-kernel 0.1.0 wheel: {sorted(dist.iterdir())}"
    return {"wheel": wheels[0], "log": log, "seconds": elapsed, "root": root}


@pytest.fixture(scope="module")
def probe_results(torch_venv: Path, probe_build: dict[str, Any]) -> dict[str, Any]:
    site = probe_build["root"] / "site"
    subprocess.run(
        [
            str(torch_venv),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-compile",
            "--target",
            str(site),
            str(probe_build["wheel"]),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    result = subprocess.run(
        [str(torch_venv), "-", "cpu"],
        input=CHECK_SCRIPT,
        cwd=probe_build["root"],  # not the source folder: ksw_probe must come from the wheel
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"check script failed:\n{result.stdout}\n{result.stderr}"
    res = json.loads(result.stdout.strip().splitlines()[-1])
    assert Path(res["module_file"]).is_relative_to(site), res["module_file"]
    return res


def test_wheel_builds_with_ninja_and_holds_the_extension(probe_build: dict[str, Any]) -> None:
    names = zipfile.ZipFile(probe_build["wheel"]).namelist()
    assert any(n.startswith("ksw_probe/_C.") and n.endswith((".so", ".pyd")) for n in names), names
    assert "ksw_probe/__init__.py" in names
    assert "ksw_probe/_build_info.py" in names  # generated into the build tree only
    log = probe_build["log"]
    assert "building CPU-only (torch 2.13.0+cpu is not a CUDA build)" in log
    # ninja drives the compile: the wizard's progress/ETA reads these [n/N] lines
    assert "[1/1] c++" in log, log[-4000:]
    print(f"probe wheel built in {probe_build['seconds']:.1f} s")


def test_build_info_reports_a_cpu_build(probe_results: dict[str, Any]) -> None:
    info = probe_results["build_info"]
    assert info["cuda"] is False
    assert probe_results["has_cuda"] is False
    assert info["version"] == "0.1.0"
    assert info["cuda_arch_list"] == []
    assert info["cuda_version"] is None
    assert info["torch_version"] == probe_results["torch_version"] == "2.13.0+cpu"
    assert info["torch_version_now"] == info["torch_version"]


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("dtype", list(FWD_TOL))
def test_forward_matches_float64_reference(
    probe_results: dict[str, Any], dtype: str, causal: bool
) -> None:
    cases = [c for c in probe_results["forward"] if c["dtype"] == dtype and c["causal"] == causal]
    assert len(cases) == 4
    for case in cases:
        b, h, lq, _lk, _d, dv = case["shape"]
        assert case["out_dtype"] == dtype and case["out_shape"] == [b, h, lq, dv]
        assert case["max_abs_err"] < FWD_TOL[dtype], case
        lse_tol = 1e-10 if dtype == "float64" else 1e-4
        assert case["lse_max_abs_err"] < lse_tol, case


def test_gradients_match_reference_and_pass_gradcheck(probe_results: dict[str, Any]) -> None:
    grads = {(g["dtype"], g["causal"]): g["max_abs_err"] for g in probe_results["grad"]}
    assert len(grads) == 4
    for causal in (False, True):
        assert grads[("float64", causal)] < 1e-10, grads
        assert grads[("float32", causal)] < 1e-4, grads
    checks = probe_results["gradcheck"]
    assert len(checks) == 6 and all(c["ok"] for c in checks), checks


def test_wrong_inputs_raise_clear_errors(probe_results: dict[str, Any]) -> None:
    errors = probe_results["errors"]
    expected = {
        "rank": "must be 4-D (batch, heads, seqlen, head_dim)",
        "head_dim": "q and k must have the same head_dim; got q (1, 2, 4, 8), k (1, 2, 4, 7)",
        "seqlen_kv": "k and v must have the same seqlen",
        "dtype_mix": "q, k and v must have the same dtype",
        "dtype_int": "unsupported dtype Long; supported: float32, float64, float16, bfloat16",
    }
    for case, text in expected.items():
        err = errors[case]
        assert err is not None, f"{case}: no error raised"
        assert err["type"] == "RuntimeError", err
        assert err["message"].startswith("ksw_probe.attention: "), err
        assert text in err["message"], err
