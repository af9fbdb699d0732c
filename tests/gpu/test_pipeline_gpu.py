"""On a real GPU, exactly as a user runs it headless: detect, check, build, verify, install,
re-verify — for the probe kernel's CUDA path and (with FLASHMLA_SOURCE) for FlashMLA.

FLASHMLA_SOURCE: a FlashMLA work tree with csrc/cutlass populated at its pinned commit (the
tree is copied first, so the given one stays clean). KSW_GPU_ARTIFACTS (optional): a folder
that receives the JSON outputs and reports, for the issue notes. These tests install into the
interpreter running them (a GPU machine's torch environment): run them where that is wanted.
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


def test_detect_and_check_on_the_gpu_machine() -> None:
    detected = app("--headless", "detect", "--json")
    assert detected.returncode == 0
    document = json.loads(detected.stdout)
    keep("detect.json", detected.stdout)
    assert document["nvml"]["state"] == "ok"
    gpu = document["gpus"][0]
    assert gpu["arch"] != "unknown" and gpu["compute_capability"]
    assert document["environment"]["status"] == "ready"
    checked = app("--headless", "check", "--json")
    keep("check.json", checked.stdout)
    assert checked.returncode == 0, "something blocks a build on the GPU machine"


def test_probe_cuda_path_builds_verifies_and_installs() -> None:
    result = app("--headless", "build", "--kernel", "probe", "--json", "--yes")
    assert result.returncode == 0
    document = json.loads(result.stdout)
    keep("probe-build.json", result.stdout)
    assert document["status"] == "succeeded" and document["installed"]
    env = document["plan"]["env"]
    assert "KSW_PROBE_CPU_ONLY" not in env
    assert env["TORCH_CUDA_ARCH_LIST"]  # narrowed to the detected GPU
    verification = document["verification"]
    assert verification["status"] == "pass"
    assert any(case["device"].startswith("cuda") for case in verification["cases"])
    # speed: timed at its size against SDPA's default and math methods, and labelled so
    timings = verification["timings"]
    assert [t["name"] for t in timings] == ["forward", "forward+backward"]
    for timing in timings:
        assert timing["label"] == ("float16 · batch 2 · 2,048 tokens · 16 heads · head size "
                                   "64 · causal")
        assert timing["kernel_ms"] and timing["sdpa_ms"] and timing["math_ms"], timing


@pytest.mark.skipif(not os.environ.get("FLASHMLA_SOURCE"),
                    reason="set FLASHMLA_SOURCE to a FlashMLA tree with csrc/cutlass populated")
def test_flashmla_end_to_end(tmp_path: Path) -> None:
    source = tmp_path / "FlashMLA"
    shutil.copytree(os.environ["FLASHMLA_SOURCE"], source, symlinks=True)
    started = time.perf_counter()
    result = app("--headless", "build", "--kernel", "flashmla", "--source", str(source),
                 "--json", "--yes")
    total = time.perf_counter() - started
    keep("flashmla-build.json", result.stdout)
    assert result.returncode == 0
    document = json.loads(result.stdout)
    build_s = sum(s["seconds"] for s in document["steps"])
    print(f"FIGURES: flashmla build {build_s:.1f} s (steps), build→verified+installed "
          f"{total:.1f} s, verification {document['verification']['seconds']:.1f} s")
    env = document["plan"]["env"]
    assert env.get("FLASH_MLA_DISABLE_SM100") == "1"  # an H100: SM90 only
    assert env.get("CPLUS_INCLUDE_PATH", "").endswith("include/cccl")  # the CUDA 13 fix
    assert document["verification"]["status"] == "pass"
    assert any("backward" in note for note in document["verification"]["notes"])
    assert document["installed"]

    again = app("--verify")
    keep("reverify.txt", again.stdout)
    assert again.returncode == 0

    upstream = subprocess.run([sys.executable, "test_flash_mla_dense_decoding.py"],
                              cwd=source / "tests", capture_output=True, text=True, timeout=900)
    keep("upstream-dense-decoding.txt", upstream.stdout[-20000:] + upstream.stderr[-5000:])
    print(upstream.stdout[-3000:], upstream.stderr[-2000:])
    assert upstream.returncode == 0


# FlashAttention 3's compact build: what upstream's tests are told it left out
FA3_COMPACT = {f"FLASH_ATTENTION_DISABLE_{name}": "TRUE" for name in (
    "FP8", "SPLIT", "PAGEDKV", "APPENDKV", "LOCAL", "SOFTCAP", "PACKGQA", "CLUSTER", "HDIM64",
    "HDIM96", "HDIM192", "HDIM256")}


@pytest.mark.skipif(not os.environ.get("FA3_SOURCE"),
                    reason="set FA3_SOURCE to a flash-attention tree (hopper/, README.md and "
                    "csrc/cutlass populated at its pinned commit)")
def test_flash_attention_3_end_to_end(tmp_path: Path) -> None:
    """Build FlashAttention 3 (compact) from hopper/, verify, install, re-verify; then
    upstream's hopper/test_flash_attn.py (output and varlen output tests, told the same
    compact flags) against the installed wheel."""
    source = tmp_path / "flash-attention"
    shutil.copytree(os.environ["FA3_SOURCE"], source, symlinks=True)
    started = time.perf_counter()
    result = app("--headless", "build", "--kernel", "flash_attn_3", "--source", str(source),
                 "--json", "--yes")
    total = time.perf_counter() - started
    keep("fa3-build.json", result.stdout)
    keep("fa3-build-progress.txt", result.stderr)
    assert result.returncode == 0
    document = json.loads(result.stdout)
    plan = document["plan"]
    assert plan["cwd"] == str(source / "hopper") and plan["variant"] == "compact"
    assert plan["env"]["FLASH_ATTENTION_DISABLE_SM80"] == "TRUE"
    assert plan["env"]["FLASH_ATTENTION_DISABLE_FP8"] == "TRUE"
    verification = document["verification"]
    assert verification["status"] == "pass"
    forward = next(t for t in verification["timings"] if t["name"] == "forward")
    assert forward["sdpa_backend"] and forward["flops"] > 0
    build_s = sum(s["seconds"] for s in document["steps"])
    print(f"FIGURES: flash_attn_3 compact build {build_s:.1f} s (steps), build→verified+"
          f"installed {total:.1f} s, verification {verification['seconds']:.1f} s, forward "
          f"{forward['kernel_ms']:.3f} ms vs SDPA {forward['sdpa_backend']} "
          f"{forward['sdpa_ms']:.3f} ms")
    assert document["installed"]

    again = app("--verify")
    keep("fa3-reverify.txt", again.stdout + again.stderr)
    assert again.returncode == 0

    tests = tmp_path / "upstream"  # not the source tree: its hopper/ would shadow the wheel
    tests.mkdir()
    for name in ("test_flash_attn.py", "test_util.py", "padding.py"):
        shutil.copy(source / "hopper" / name, tests / name)
    env = {**os.environ, **FA3_COMPACT}
    upstream = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         "--maxfail=20", "test_flash_attn.py", "-k",
         "test_flash_attn_output or test_flash_attn_varlen_output"],
        cwd=tests, capture_output=True, text=True, timeout=1200, env=env)
    keep("fa3-upstream-test_flash_attn.txt", upstream.stdout[-30000:] + upstream.stderr[-5000:])
    print(upstream.stdout[-3000:], upstream.stderr[-2000:])
    assert upstream.returncode == 0
