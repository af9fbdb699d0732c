"""scripts/boundary_sweep.py beyond FlashAttention 3: FlashAttention 2, FlashMLA, SageAttention
2 and DeepEP, each call in a child process, against CPU stand-ins (tests/data/sweep_standins)
in the tests' real torch venv (torch 2.13.0 CPU).

The stand-ins compute what the kernels compute and refuse what their extensions refuse, with
upstream's messages; KSW_SWEEP_STANDIN_FAIL plants each failure kind a GPU run can meet (a
process that aborts or exits, wrong numbers, a call that never returns), so that these tests
prove the sweep tells each one apart from a right answer and from a plain error. The calls and
tolerance rules are the GPU run's (scripts/boundary_calls.py); only sequences longer than 1,000
tokens are shorter on the CPU.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "boundary_sweep.py"
STANDINS = REPO / "tests" / "data" / "sweep_standins"
ALL = "flashmla,sageattention,flash_attn,deepep"
GOOD = ("ran-correct", "raised")


def run_sweep(python: Path, tmp_path: Path, *args: str, fail: str = "",
              standins: bool = True) -> tuple[int, dict[str, Any], str]:
    out = tmp_path / "boundary.json"
    path = os.pathsep.join(str(STANDINS / k) for k in ("flashmla", "sageattention",
                                                        "flash_attn", "deepep"))
    env = {**os.environ, "KSW_SWEEP_DEVICE": "cpu", "KSW_SWEEP_STANDIN_FAIL": fail,
           "PYTHONPATH": path if standins else ""}
    done = subprocess.run([str(python), str(SCRIPT), "--out", str(out), *args],
                          capture_output=True, text=True, timeout=900, check=False, env=env)
    assert out.is_file(), done.stdout + done.stderr
    return done.returncode, json.loads(out.read_text(encoding="utf-8")), done.stdout


def by_call(rows: list[dict[str, Any]], kernel: str) -> dict[str, dict[str, Any]]:
    return {row["call"]: row for row in rows if row["kernel"] == kernel}


def test_every_kernel_s_calls_ran_right_or_raised(torch_venv: Path, tmp_path: Path) -> None:
    code, document, _ = run_sweep(torch_venv, tmp_path, "--kernels", ALL, "--timeout", "120")
    assert code == 0, [r for r in document["boundary"] if r["outcome"] not in GOOD]
    assert document["summary"]["failures"] == 0 and document["summary"]["complete"] is True
    # no call raised a Python error that could be the sweep's own (a wrong API guess)
    assert document["summary"]["check_these"] == []
    assert all(set(row) >= {"kernel", "call", "head_size", "outcome", "message"}
               for row in document["boundary"])
    assert {row["kernel"] for row in document["boundary"]} == set(ALL.split(","))
    assert document["kernels"]["flashmla"] == "1.0.0+standin"
    assert document["not_installed"] == [] and document["not_swept"] == []

    mla = by_call(document["boundary"], "flashmla")
    decode = mla["flash_mla_with_kvcache decode bf16, 16 heads, 140 cached tokens"]
    assert decode["outcome"] == "ran-correct" and decode["head_size"] == 576
    assert "outside abs 0.0008 / rel 0.0157" in decode["message"]  # FlashMLA's own rule
    assert mla["flash_mla_with_kvcache decode, one sequence with no cached tokens"][
        "outcome"] == "ran-correct"
    assert mla["flash_mla_sparse_fwd bf16, 128 heads, top-128 of 592"]["outcome"] == \
        "ran-correct"
    for call in ("flash_mla_with_kvcache decode, v head size 256",
                 "flash_mla_sparse_fwd 32 heads"):
        assert mla[call]["outcome"] == "raised", call
    prefill = mla["flash_attn_varlen_func dense MHA prefill forward, q/k head 192, v head 128"]
    assert prefill["outcome"] == "raised"
    assert "runs on SM100 GPUs (B200, GB200) only; this GPU is sm_90" in prefill["message"]
    backward = mla["dense MHA prefill backward (_flash_attn_varlen_backward), head 128"]
    assert backward["outcome"] == "raised" and "backward" in backward["message"]
    # without the wizard's check (recipe patch sm100-prefill-guard): upstream's bare CUDA
    # launch failure, after which the process has no usable GPU: a crash
    before = by_call(document["before_patch"], "flashmla")
    assert [row["outcome"] for row in before.values()] == ["crashed", "crashed"]
    assert all("the GPU stopped the call" in row["message"] and "CUDA error" in row["message"]
               for row in before.values())

    sage = by_call(document["boundary"], "sageattention")
    assert sage["sageattn head 256"]["outcome"] == "raised"
    assert "Unsupported head_dim: 256" in sage["sageattn head 256"]["message"]
    for d in (64, 96, 128):
        row = sage[f"sageattn fp16 HND causal head {d}, 1000 tokens"]
        assert row["outcome"] == "ran-correct" and "cosine 0.99" in row["message"]
    assert sage["sageattn fp16 HND head 128, 1 token"]["outcome"] == "ran-correct"
    # the stand-in aligns the causal mask top-left when the lengths differ: accepted, and said
    differ = sage["sageattn fp16 HND causal head 128, 77 queries over 1000 keys"]
    assert differ["outcome"] == "ran-correct" and "top-left" in differ["message"]

    fa2 = by_call(document["boundary"], "flash_attn")
    for d in (32, 64, 96, 128, 160, 192, 224, 256):
        assert fa2[f"flash_attn_func bf16 head {d}"]["outcome"] == "ran-correct", d
    assert fa2["flash_attn_func head 512 (above 256)"]["outcome"] == "raised"
    assert fa2["flash_attn_func head 260 (above 256 once padded)"]["outcome"] == "raised"
    dropout = fa2["flash_attn_func dropout 0.17 (checked with the kernel's dropout mask)"]
    assert dropout["outcome"] == "ran-correct" and "dropped 0.1" in dropout["message"]
    assert fa2["flash_attn_varlen_func with an empty sequence, forward+backward"][
        "outcome"] == "ran-correct"
    assert fa2["flash_attn_with_kvcache paged KV (256-token pages)"]["outcome"] == "ran-correct"
    assert fa2["flash_attn_with_kvcache paged KV (16-token pages)"]["outcome"] == "raised"

    ep = by_call(document["boundary"], "deepep")
    assert [row["outcome"] for row in ep.values()] == ["ran-correct", "ran-correct", "raised",
                                                       "raised"]
    assert "process 1 of 2" in ep["dispatch+combine, hidden 100 (not a multiple of 8)"][
        "message"] or "process 0 of 2" in ep[
        "dispatch+combine, hidden 100 (not a multiple of 8)"]["message"]


def test_crashes_are_failures_with_the_signal_or_exit_code(
    torch_venv: Path, tmp_path: Path
) -> None:
    """Planted: aborts (SIGABRT) for a head size, for FlashMLA's unguarded dense prefill and in
    a DeepEP worker; FlashMLA's FLASH_ASSERT (exit code 1, no Python error)."""
    # (--only splits at commas: these parts of call names have none)
    only = ("head 96,bf16 head 256,bf16 head 128,head size 512,dense MHA prefill,hidden 100,"
            "140 cached tokens")
    code, document, _ = run_sweep(torch_venv, tmp_path, "--kernels", ALL, "--only", only,
                                  "--timeout", "120", fail="crash")
    assert code == 1
    rows = {(r["kernel"], r["call"]): r for r in document["boundary"]}
    crashed = {key for key, r in rows.items() if r["outcome"] == "crashed"}
    assert crashed == {
        ("flashmla", "flash_mla_with_kvcache decode, head size 512 (the check lets it through)"),
        ("flashmla", "flash_attn_varlen_func dense MHA prefill forward, q/k head 192, v head 128"),
        ("flashmla", "dense MHA prefill backward (_flash_attn_varlen_backward), head 128"),
        ("sageattention", "sageattn fp16 HND causal head 96, 1000 tokens"),
        ("sageattention", "sageattn bf16 NHD head 96, 1000 tokens"),
        ("sageattention", "sageattn_qk_int8_pv_fp8_cuda_sm90 fp16 HND causal head 96, 1000 tokens"),
        ("flash_attn", "flash_attn_func bf16 head 256"),
        ("deepep", "dispatch+combine, hidden 100 (not a multiple of 8)"),
    }
    assert all(r["outcome"] in GOOD for key, r in rows.items() if key not in crashed)
    exit1 = rows[("flashmla",
                  "flash_mla_with_kvcache decode, head size 512 (the check lets it through)")]
    # the process's last words come along: here upstream's FLASH_ASSERT
    assert "exit code 1" in exit1["message"] and "Assertion failed" in exit1["message"]
    assert "SIGABRT" in rows[("flash_attn", "flash_attn_func bf16 head 256")]["message"]
    assert "SIGABRT" in rows[("deepep", "dispatch+combine, hidden 100 (not a multiple of 8)")][
        "message"]
    assert document["summary"]["failures"] == len(crashed)
    assert document["summary"]["failures_by_kernel"] == {"deepep": 1, "flash_attn": 1,
                                                         "flashmla": 3, "sageattention": 3}
    assert document["summary"]["crashes_before_patch"] == 2


def test_wrong_numbers_are_failures(torch_venv: Path, tmp_path: Path) -> None:
    """Planted: a causal mask that lets each query see one future key (SageAttention, FlashMLA
    decoding), softcap ignored (FlashAttention 2), DeepEP weights scaled by 1.5."""
    only = ("HND causal head 128,NHD head 64,decode fp16 causal,140 cached tokens,softcap 2,"
            "bf16 head 128,2 GPUs")
    code, document, _ = run_sweep(torch_venv, tmp_path, "--kernels", ALL, "--only", only,
                                  "--timeout", "120", fail="wrong")
    assert code == 1
    rows = {(r["kernel"], r["call"]): r for r in document["boundary"]}
    wrong = {key for key, r in rows.items() if r["outcome"] == "wrong"}
    causal_sage = {key for key in rows if key[0] == "sageattention" and "causal" in key[1]}
    assert len(causal_sage) == 5  # sageattn (3 lengths), the sm90 and Triton entry points
    assert wrong == causal_sage | {
        ("flashmla", "flash_mla_with_kvcache decode fp16 causal, 2 query tokens"),
        ("flash_attn", "flash_attn_func softcap 2"),
        ("deepep", "dispatch+combine, 2 GPUs, hidden 128, 8 experts, top-4"),
    }
    assert all(r["outcome"] == "ran-correct" for key, r in rows.items() if key not in wrong)
    assert {k for k, r in rows.items() if r["outcome"] == "ran-correct"} >= {
        ("sageattention", "sageattn bf16 NHD head 64, 1000 tokens"),
        ("flashmla", "flash_mla_with_kvcache decode bf16, 16 heads, 140 cached tokens"),
        ("flash_attn", "flash_attn_func bf16 head 128"),
    }
    sage = rows[("sageattention", "sageattn fp16 HND causal head 128, 1000 tokens")]["message"]
    assert "worst row" in sage and "(max 0.25)" in sage
    differ = rows[("sageattention",
                   "sageattn fp16 HND causal head 128, 77 queries over 1000 keys")]["message"]
    assert differ.startswith("neither alignment of the causal mask")
    assert "received weights" in rows[
        ("deepep", "dispatch+combine, 2 GPUs, hidden 128, 8 experts, top-4")]["message"]
    assert "max err" in rows[("flash_attn", "flash_attn_func softcap 2")]["message"]


def test_a_call_that_never_returns_is_stopped_as_hung(torch_venv: Path, tmp_path: Path) -> None:
    code, document, _ = run_sweep(
        torch_venv, tmp_path, "--kernels", "flashmla", "--only",
        "top-128 of 592,140 cached tokens", "--timeout", "20",
        fail="hang")
    assert code == 1
    outcomes = {r["call"]: r["outcome"] for r in document["boundary"]}
    assert outcomes == {
        "flash_mla_sparse_fwd bf16, 128 heads, top-128 of 592": "hung",
        "flash_mla_with_kvcache decode bf16, 16 heads, 140 cached tokens": "ran-correct",
    }


def test_kernels_not_installed_are_listed_and_skipped(torch_venv: Path, tmp_path: Path) -> None:
    code, document, stdout = run_sweep(torch_venv, tmp_path, "--kernels", "fa2,sage",
                                       standins=False)
    assert code == 0
    assert document["not_installed"] == ["flash_attn", "sageattention"]
    assert document["boundary"] == [] and document["summary"]["calls"] == 0
    assert "flash_attn: not installed" in stdout


def load_sweep(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The script as a module (its own sys.path entries are undone after the test)."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    spec = importlib.util.spec_from_file_location("ksw_boundary_sweep", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_deepep_on_fewer_than_two_gpus_is_listed_as_not_swept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sweep = load_sweep(monkeypatch)
    monkeypatch.setenv("KSW_SWEEP_DEVICE", "cuda")
    monkeypatch.setattr(sweep, "importable", lambda module, python: True)
    monkeypatch.setattr(sweep, "version", lambda module, dists: "1.2.1")
    monkeypatch.setattr(sweep, "gpu_count", lambda: 1)
    monkeypatch.setattr(sweep, "machine", lambda: {})
    out = tmp_path / "boundary.json"
    assert sweep.main(["--out", str(out), "--kernels", "deep_ep"]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["boundary"] == []
    (entry,) = document["not_swept"]
    assert entry["kernel"] == "deepep"
    assert "needs 2 GPUs" in entry["reason"] and "this machine has 1" in entry["reason"]


def test_kernel_names_and_aliases(monkeypatch: pytest.MonkeyPatch) -> None:
    sweep = load_sweep(monkeypatch)
    assert sweep.resolve("") == ["flash_attn_3", "flash_attn", "flashmla", "sageattention",
                                 "deepep"]
    assert sweep.resolve("fa3, FA2,sage,flash_mla,deep_ep,fa3") == [
        "flash_attn_3", "flash_attn", "sageattention", "flashmla", "deepep"]
    with pytest.raises(SystemExit, match="unknown kernel 'fa4'"):
        sweep.resolve("fa4")
