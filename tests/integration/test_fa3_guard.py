"""The Python checks the FlashAttention 3 recipe adds to ``flash_attn_interface.py`` (patches
fa3-build-guard, -forward, -backward, -combine, -scheduler).

Without them a call that needs a kernel the build left out (the compact build's head size 192,
softcap, FP8, ...) killed the user's program with a segmentation fault on the H200
(docs/recorded/h200-2026-11-28/boundary.json, "before_patch"). The checks' code is taken from
the recipe itself and run in the tests' real torch venv (torch 2.13.0 CPU: only dtypes and
shapes are used), with the compact build's flags, a full build's, and none.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kernel_wizard.build.patches import PatchContext, PatchStatus, apply_patches
from kernel_wizard.catalog import OsName
from kernel_wizard.catalog.load import load_recipe

REPO = Path(__file__).resolve().parents[2]
RECIPE = REPO / "resources" / "recipes" / "flash_attn_3.toml"
COMPACT = REPO / "tests" / "data" / "bad_kernels" / "flash_attn_3_correct" / "flash_attn_config.py"

# (label, keyword arguments of _ksw_check, what the compact build must do, what a full build must
# do): "ok", "build" (FlashAttention3BuildError naming the Full variant), or an error type
CALLS = [
    ("bf16 head 128", {"d": 128}, "ok", "ok"),
    ("fp16 head 128 backward", {"d": 128, "dtype": "float16", "backward": True}, "ok", "ok"),
    ("head 64 runs on the head-128 kernel", {"d": 64}, "ok", "ok"),
    ("head 96", {"d": 96}, "ok", "ok"),
    ("head 160", {"d": 160}, "build", "ok"),
    ("head 192", {"d": 192}, "build", "ok"),
    ("head 256 backward", {"d": 256, "backward": True}, "build", "ok"),
    ("head 59", {"d": 59}, "ValueError", "ValueError"),
    ("head 264", {"d": 264}, "ValueError", "ValueError"),
    ("q/k 192, v 128", {"d": 192, "dv": 128}, "build", "ok"),
    ("q/k 64, v 256", {"d": 64, "dv": 256}, "build", "ok"),
    ("q/k 128, v 64", {"d": 128, "dv": 64}, "ValueError", "ValueError"),
    ("softcap", {"d": 128, "softcap": 30.0}, "build", "ok"),
    ("sliding window", {"d": 128, "window_left": 32, "window_right": 0}, "build", "ok"),
    ("causal is not a window", {"d": 128, "window_right": 0, "causal": True}, "ok", "ok"),
    ("attention chunk", {"d": 128, "attention_chunk": 64}, "build", "ok"),
    ("fp8", {"d": 128, "dtype": "float8_e4m3fn"}, "build", "ok"),
    ("fp8 backward", {"d": 128, "dtype": "float8_e4m3fn", "backward": True}, "TypeError",
     "TypeError"),
    ("float32", {"d": 128, "dtype": "float32"}, "TypeError", "TypeError"),
    ("mixed dtypes", {"d": 128, "other_dtypes": ["float16"]}, "TypeError", "TypeError"),
    ("heads 6 over 4", {"d": 128, "heads": [6, 4]}, "ValueError", "ValueError"),
    ("split-KV", {"d": 128, "num_splits": 4}, "build", "ok"),
    ("automatic splits", {"d": 128, "num_splits": 0}, "ok", "ok"),
    ("pack_gqa", {"d": 128, "pack_gqa": True}, "build", "ok"),
    ("paged KV", {"d": 128, "paged": True}, "build", "ok"),
    ("append k/v", {"d": 128, "append_kv": True}, "build", "ok"),
    ("varlen", {"d": 128, "varlen": True}, "ok", "ok"),
]

RUNNER = r'''
import json, sys, types
import torch
config = sys.argv[2]
if config != "none":
    mod = types.ModuleType("flash_attn_config")
    exec(open(config).read(), mod.__dict__)
    sys.modules["flash_attn_config"] = mod
else:
    sys.modules["flash_attn_config"] = None  # "import flash_attn_config" fails
g = {"torch": torch}
exec(open(sys.argv[1]).read(), g)
out = {}
for label, kw in json.loads(sys.argv[3]):
    kw = dict(kw)
    dtype = getattr(torch, kw.pop("dtype", "bfloat16"))
    others = tuple(getattr(torch, n) for n in kw.pop("other_dtypes", []))
    d = kw.pop("d"); dv = kw.pop("dv", d)
    if "heads" in kw:
        kw["heads"] = tuple(kw["heads"])
    try:
        g["_ksw_check"](dtype, d, dv, other_dtypes=others, **kw)
        out[label] = ["ok", ""]
    except Exception as exc:
        name = type(exc).__name__
        out[label] = ["build" if name == "FlashAttention3BuildError" else name, str(exc),
                      isinstance(exc, RuntimeError)]
print(json.dumps(out))
'''


def guard_code() -> str:
    recipe, problems = load_recipe(RECIPE)
    assert recipe is not None and not problems
    patch = next(p for p in recipe.patches if p.id == "fa3-build-guard")
    first, _, rest = patch.replacement.partition("\n")
    assert first.startswith("    return (x + m - 1) // m * m")  # upstream's line, kept
    return rest


def run_guard(python: Path, tmp_path: Path, config: str) -> dict[str, list]:
    code = tmp_path / "guard.py"
    code.write_text(guard_code(), encoding="utf-8")
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER, encoding="utf-8")
    calls = json.dumps([(label, kw) for label, kw, _, _ in CALLS])
    result = subprocess.run([str(python), str(runner), str(code), config, calls],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_compact_build_raises_a_plain_error_for_what_it_left_out(
    torch_venv: Path, tmp_path: Path
) -> None:
    got = run_guard(torch_venv, tmp_path, str(COMPACT))
    for label, _, compact, _ in CALLS:
        assert got[label][0] == compact, (label, got[label])
    message = got["head 192"][1]
    assert message.startswith("This FlashAttention 3 build has no kernel for head size 192: "
                              "it was built with head size 128 only")
    assert "--variant full" in message and "'Full build'" in message
    assert got["head 192"][2] is True  # a RuntimeError: code that catches those still does
    assert "softcap" in got["softcap"][1]
    assert "multiples of 8; got 59" in got["head 59"][1]


def test_full_build_passes_every_call_the_extension_has(torch_venv: Path, tmp_path: Path) -> None:
    flags = {k: False for k in ("HDIM64", "HDIM96", "HDIM128", "HDIM192", "HDIM256", "FP8",
                                "SOFTCAP", "LOCAL", "SPLIT", "PAGEDKV", "APPENDKV", "PACKGQA",
                                "VARLEN", "BACKWARD", "FP16")}
    config = tmp_path / "flash_attn_config.py"
    config.write_text("CONFIG = " + repr({"build_flags": {
        "FLASHATTENTION_DISABLE_" + k: v for k, v in flags.items()}}) + "\n", encoding="utf-8")
    got = run_guard(torch_venv, tmp_path, str(config))
    for label, _, _, full in CALLS:
        assert got[label][0] == full, (label, got[label])


def test_a_wheel_that_does_not_say_its_flags_is_left_to_the_extension(
    torch_venv: Path, tmp_path: Path
) -> None:
    got = run_guard(torch_venv, tmp_path, "none")
    assert {label: v[0] for label, v in got.items()} == {label: "ok" for label, *_ in CALLS}


@pytest.mark.skipif(not os.environ.get("FA3_SOURCE"),
                    reason="set FA3_SOURCE to a flash-attention tree (hopper/ at 0251105) to "
                           "apply the recipe's patches to upstream's own file")
def test_patches_apply_to_upstream_once_and_the_file_still_compiles(tmp_path: Path) -> None:
    source = tmp_path / "flash-attention"
    (source / "hopper").mkdir(parents=True)
    shutil.copy(Path(os.environ["FA3_SOURCE"]) / "hopper" / "flash_attn_interface.py",
                source / "hopper")
    recipe, _ = load_recipe(RECIPE)
    assert recipe is not None
    version = recipe.versions[0]
    patches = recipe.patches_for(version, OsName.LINUX, (13, 0))
    context = PatchContext(OsName.LINUX, (13, 0), version, recipe.name)
    first = apply_patches(source, patches, context)
    assert [r.status for r in first] == [PatchStatus.APPLIED] * 5
    shutil.rmtree(source / ".ksw-patches")  # no record: idempotent by content alone
    again = apply_patches(source, patches, context)
    assert [r.status for r in again] == [PatchStatus.ALREADY_APPLIED] * 5
    text = (source / "hopper" / "flash_attn_interface.py").read_text(encoding="utf-8")
    compile(text, "flash_attn_interface.py", "exec")
    assert text.count("_ksw_check(") == 4  # forward, backward, scheduler + the definition


def run_sweep(python: Path, tmp_path: Path, **env: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "boundary.json"
    standin = REPO / "tests" / "data" / "bad_kernels" / "flash_attn_3_correct"
    done = subprocess.run(
        [str(python), str(REPO / "scripts" / "boundary_sweep.py"), "--out", str(out),
         "--timeout", "60"],
        capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "PYTHONPATH": str(standin), "KSW_SWEEP_DEVICE": "cpu", **env})
    assert out.is_file(), done.stdout + done.stderr
    return done.returncode, json.loads(out.read_text(encoding="utf-8"))


def test_the_boundary_sweep_classifies_every_call(torch_venv: Path, tmp_path: Path) -> None:
    """scripts/boundary_sweep.py against the compact stand-in on the CPU: the recorded format,
    the head-128 calls checked against the float reference, the rest refused in words"""
    code, document = run_sweep(torch_venv, tmp_path)
    rows = {row["call"]: row for row in document["boundary"]}
    assert code == 0 and document["summary"]["failures"] == 0
    assert all(set(row) >= {"kernel", "call", "head_size", "outcome", "message"}
               for row in document["boundary"])
    assert rows["flash_attn_func bf16 head 128"]["outcome"] == "ran-correct"
    assert "max err" in rows["flash_attn_func bf16 head 128"]["message"]
    assert rows["flash_attn_varlen_func with an empty sequence, forward+backward"]["outcome"] \
        == "ran-correct"
    assert rows["flash_attn_func bf16 head 192"]["outcome"] == "raised"
    assert rows["flash_attn_func bf16 head 192"]["head_size"] == 192


def test_the_boundary_sweep_reports_crashes_as_failures(torch_venv: Path, tmp_path: Path) -> None:
    """the unpatched behaviour planted (a segmentation fault for a left-out head size): the
    sweep records 'crashed' with the signal, and exits 1"""
    code, document = run_sweep(torch_venv, tmp_path, KSW_FA3_STANDIN_CRASH="1")
    rows = {row["call"]: row for row in document["boundary"]}
    assert code == 1
    crashed = rows["flash_attn_func bf16 head 192"]
    assert crashed["outcome"] == "crashed" and "SIGSEGV" in crashed["message"]
    assert rows["flash_attn_func bf16 head 128"]["outcome"] == "ran-correct"
    assert document["summary"]["failures"] == sum(
        row["outcome"] not in ("ran-correct", "raised") for row in document["boundary"])
