"""Is building worth it on this GPU (issue 20, item 1): PyTorch's own attention timed in the
target Python, scaled measurements of the kernels per GPU family, one plain sentence per kernel.

The SDPA timings are real: tests/data/speed/*.json are what resources/probes/sdpa_speed.py
printed on the lent machines (see the files' "recorded" field)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from kernel_wizard.catalog.worth import (
    Measure,
    MethodTime,
    SdpaSpeed,
    SpeedUnavailable,
    Verdict,
    WorkloadTimes,
    _parse,
    cache_key,
    load_measures,
    load_workloads,
    measure_sdpa,
    worth_building,
)
from kernel_wizard.flow.session import Session
from kernel_wizard.machine.ai_apps.usage import workload_for_python
from kernel_wizard.machine.environment import PythonEnv

DATA = Path(__file__).resolve().parents[1] / "data" / "speed"


def recorded(name: str) -> SdpaSpeed:
    document = json.loads((DATA / name).read_text(encoding="utf-8"))
    return _parse(document["probe"])


def with_methods(speed: SdpaSpeed, cc: tuple[int, int] | None = None,
                 **methods: float) -> SdpaSpeed:
    return SdpaSpeed(speed.gpu, cc or speed.cc, speed.torch, speed.cuda, speed.shape,
                     {n: MethodTime(ms, 1.0) for n, ms in methods.items()}, {}, None)


def test_on_hopper_flashattention_2_is_advised_against_and_fa3_named() -> None:
    speed = recorded("h100-sdpa.json")
    assert speed.family == "Hopper"
    worth = worth_building("flash_attn", speed)
    assert worth is not None and worth.verdict is Verdict.NOT_WORTH
    assert worth.best_here is not None and worth.best_here[0] == "cudnn"
    assert "Not expected to pay off: PyTorch's own cuDNN attention is about" in worth.sentence
    # FlashAttention 3, timed as a model runs it (calls queued), beats cuDNN attention there:
    # it is named as the faster kernel (it was "only as fast" when timed one call at a time)
    assert worth.better == ("FlashAttention 3",)
    assert "Faster on Hopper GPUs: FlashAttention 3 (measured)." in worth.sentence
    assert "You can still build it" in worth.sentence  # advice, never a block
    assert "H200" in worth.source  # the queued measurement, not the earlier one-call one


def test_on_hopper_flashattention_3_pays_off_when_timed_as_models_run_it() -> None:
    """Issue 29: timed one call at a time FA3 was "about as fast as cuDNN"; with its calls
    queued (the H200 measurement) it is 1.17x cuDNN at the reference shape."""
    worth = worth_building("flash_attn_3", recorded("h100-sdpa.json"), workload="reference")
    assert worth is not None and worth.verdict is Verdict.PAYS_OFF
    assert worth.sentence.startswith("Expected to pay off: about 1.2× as fast as PyTorch's "
                                     "fastest attention here (cuDNN")
    assert worth.better == ()
    # a PyTorch without cuDNN attention (many Windows builds): FA3 pays off against flash
    speed = with_methods(recorded("h100-sdpa.json"), flash=0.523, efficient=0.911)
    worth = worth_building("flash_attn_3", speed)
    assert worth is not None and worth.verdict is Verdict.PAYS_OFF


def test_the_expectation_scales_with_the_method_this_pytorch_has() -> None:
    # a PyTorch without cuDNN attention (flash and memory-efficient only), twice as slow
    speed = with_methods(recorded("h100-sdpa.json"), flash=1.018, efficient=1.786)
    worth = worth_building("flash_attn", speed)
    # FA2's queued H200 figure (0.4637 ms, SDPA flash 0.5069 ms there) scaled by this flash
    assert worth is not None and worth.expected_ms == pytest.approx(0.4637 * 1.018 / 0.5069,
                                                                    rel=1e-3)
    # queued, FA2 is about 1.1x that flash method: "about as fast", no longer "slower" (timed
    # one call at a time it looked slower than SDPA's flash)
    assert worth.verdict is Verdict.SIMILAR


def test_a_pytorch_with_only_math_attention_makes_any_kernel_pay_off() -> None:
    speed = with_methods(recorded("h100-sdpa.json"), math=40.0)
    worth = worth_building("flash_attn", speed)
    assert worth is not None and worth.verdict is Verdict.PAYS_OFF
    assert "only its slow math attention" in worth.sentence


def test_a_gpu_family_not_measured_gets_no_guess() -> None:
    ampere = with_methods(recorded("h100-sdpa.json"), cc=(8, 6), flash=1.9, efficient=2.4)
    worth = worth_building("flash_attn", ampere)
    assert worth is not None and worth.verdict is Verdict.NOT_MEASURED
    assert worth.sentence.startswith("Not measured on Ampere GPUs yet")
    assert worth.expected_ms is None


def test_kernels_that_are_not_sdpa_replacements_get_no_line() -> None:
    speed = recorded("h100-sdpa.json")
    assert worth_building("flashmla", speed) is None
    assert worth_building("deepep", speed) is None
    assert worth_building("probe", speed) is None


def test_every_measurement_says_where_it_comes_from() -> None:
    measures = load_measures()
    assert measures and all(m.source and m.kernel_ms > 0 and m.sdpa_ms for m in measures)
    assert {m.family for m in measures} <= {"Ampere", "Ada", "Hopper", "Blackwell"}


def test_a_cpu_only_pytorch_gives_a_reason_not_a_measurement(torch_venv: Path) -> None:
    speed = measure_sdpa(torch_venv, gpu="none", driver="", torch="2.13.0+cpu", cuda="",
                         use_cache=False)
    assert isinstance(speed, SpeedUnavailable)
    assert "PyTorch sees no CUDA GPU here" in speed.reason


def test_a_measurement_is_kept_per_gpu_driver_and_pytorch(
        tmp_path: Path, isolated_wizard_data: Path) -> None:
    document = json.loads((DATA / "h100-sdpa.json").read_text(encoding="utf-8"))["probe"]
    key = cache_key("NVIDIA H100 80GB HBM3", "580.159.04", "2.11.0+cu130", "13.0")
    isolated_wizard_data.mkdir(parents=True, exist_ok=True)
    (isolated_wizard_data / "sdpa-speed.json").write_text(json.dumps(
        {key: {"measured_at": "2026-11-26 11:00", "document": document}}), encoding="utf-8")
    missing = tmp_path / "no-python"  # nothing is run when the answer is kept
    kept = measure_sdpa(missing, gpu="NVIDIA H100 80GB HBM3", driver="580.159.04",
                        torch="2.11.0+cu130", cuda="13.0")
    assert isinstance(kept, SdpaSpeed) and kept.cached and kept.measured_at == "2026-11-26 11:00"
    # another driver: measured again (here: the interpreter does not exist, a reason comes back)
    again = measure_sdpa(missing, gpu="NVIDIA H100 80GB HBM3", driver="590.01",
                         torch="2.11.0+cu130", cuda="13.0")
    assert isinstance(again, SpeedUnavailable)


# -- workloads (issue 29): judged at the shapes of what the user runs -----------------------------

def workload_speed(**per_workload: dict[str, float]) -> SdpaSpeed:
    """An H100 answer of the workload probe: per workload, SDPA's method times (sums)."""
    base = recorded("h100-sdpa.json")
    workloads = {w: WorkloadTimes({n: MethodTime(ms, 1.0) for n, ms in methods.items()}, {})
                 for w, methods in per_workload.items()}
    return replace(base, workloads=workloads, method="queued")


def measure(kernel: str, workload: str, kernel_ms: float, **sdpa: float) -> Measure:
    return Measure(kernel, {"flash_attn_3": "FlashAttention 3", "sageattention":
                            "SageAttention 2"}[kernel], "Hopper", "shapes", kernel_ms, sdpa,
                   "H200, 2026-11-28", workload=workload, method="queued")


def test_the_verdict_is_given_for_the_users_workload_and_names_the_others() -> None:
    """SageAttention on Hopper (kernels.md, measured 2026-11-28): slower than cuDNN at LLM
    prompt lengths, faster at video lengths. The verdict must follow the workload."""
    measures = [measure("sageattention", "llm", 1.0, cudnn=0.6),
                measure("sageattention", "video", 40.0, cudnn=43.0)]
    speed = workload_speed(llm={"cudnn": 0.6, "flash": 1.1}, video={"cudnn": 43.0})
    video = worth_building("sageattention", speed, measures, workload="video")
    assert video is not None and video.workload == "video"
    assert video.sentence.startswith("For video: About as fast as PyTorch's own cuDNN")
    assert video.others == (("LLM prompts", pytest.approx(0.6)),)
    assert "Elsewhere: LLM prompts 0.60× PyTorch's fastest" in video.sentence
    llm = worth_building("sageattention", speed, measures, workload="llm")
    assert llm is not None and llm.verdict is Verdict.NOT_WORTH
    assert llm.sentence.startswith("For LLM prompts: Not expected to pay off")
    assert "video 1.07× PyTorch's fastest" in llm.sentence


def test_the_expectation_scales_per_workload_with_the_method_this_pytorch_has() -> None:
    measures = [measure("flash_attn_3", "image", 1.0, cudnn=1.2, flash=2.0)]
    # the same PyTorch as measured: cuDNN is there, FA3 is 1.2x as fast
    same = worth_building("flash_attn_3", workload_speed(image={"cudnn": 1.2, "flash": 2.0}),
                          measures, workload="image")
    assert same is not None and same.verdict is Verdict.PAYS_OFF
    assert same.expected_ms == pytest.approx(1.0)
    # a PyTorch without cuDNN attention (many Windows builds), flash 20 % slower than there
    no_cudnn = worth_building("flash_attn_3", workload_speed(image={"flash": 2.4}), measures,
                              workload="image")
    assert no_cudnn is not None and no_cudnn.expected_ms == pytest.approx(1.2)
    assert no_cudnn.verdict is Verdict.PAYS_OFF and "about 2.0× as fast" in no_cudnn.sentence
    # only a method the measurement lacks: not comparable, never a guess
    other = worth_building("flash_attn_3", workload_speed(image={"efficient": 4.0}), measures,
                           workload="image")
    assert other is not None and other.verdict is Verdict.NOT_MEASURED


def test_a_kernel_measured_at_the_reference_shape_only_says_so() -> None:
    """FlashAttention 2 on Hopper was measured at the earlier single shape only: its advice
    stays, named as measured there, for any workload."""
    worth = worth_building("flash_attn", workload_speed(llm={"cudnn": 1.0}), workload="llm")
    assert worth is not None and worth.verdict is Verdict.NOT_WORTH
    assert "(Measured at this one shape only, not yet at LLM prompts.)" in worth.sentence
    assert "float16 · batch 2 · 4,096 tokens · 16 heads · head size 128 · causal" in \
        worth.sentence


def test_on_the_h200_each_workload_gets_its_own_verdict() -> None:
    """The lent H200 (2026-11-28), SDPA and kernels timed in one process at every workload:
    SageAttention is slower than cuDNN attention at image sizes, as fast at LLM prompts and
    faster at video lengths; FlashAttention 3 pays off for LLM prompts only (the compact
    build, head size 128)."""
    speed = recorded("h200-workloads.json")
    assert speed.family == "Hopper" and speed.method == "queued"
    assert set(speed.workloads) == {"reference", "llm", "image", "video"}
    verdicts = {(k, w): worth_building(k, speed, workload=w)
                for k in ("sageattention", "flash_attn_3") for w in ("llm", "image", "video")}
    assert {key: v.verdict for key, v in verdicts.items() if v is not None} == {
        ("sageattention", "llm"): Verdict.SIMILAR,
        ("sageattention", "image"): Verdict.NOT_WORTH,
        ("sageattention", "video"): Verdict.PAYS_OFF,
        ("flash_attn_3", "llm"): Verdict.PAYS_OFF,
        ("flash_attn_3", "image"): Verdict.SIMILAR,
        ("flash_attn_3", "video"): Verdict.SIMILAR,
    }
    video = verdicts[("sageattention", "video")]
    assert video is not None and video.sentence.startswith(
        "For video: Expected to pay off: about 1.2× as fast as PyTorch's fastest attention "
        "here (cuDNN, 45.4 ms; SageAttention 2.2.0 about 36.8 ms at bfloat16 · batch 1 · "
        "16,384 tokens")
    assert "Elsewhere: LLM prompts 0.98× PyTorch's fastest; images 0.75× PyTorch's fastest." \
        in video.sentence


def test_the_shipped_workloads_cover_what_the_issue_names() -> None:
    workloads = {w.id: w for w in load_workloads()}
    assert {"llm", "image", "video", "reference"} <= set(workloads)
    llm, image, video = workloads["llm"], workloads["image"], workloads["video"]
    assert all(s.causal for s in llm.shapes) and any(s.kv_heads < s.heads for s in llm.shapes)
    assert {s.tokens for s in llm.shapes} == {4096, 8192}  # prompt lengths, one with GQA
    assert {s.head_dim for s in image.shapes} == {64, 128} and not any(
        s.causal for s in image.shapes)
    assert min(s.tokens for s in video.shapes) >= 16384
    measured = {(m.kernel, m.workload) for m in load_measures()}
    assert all(w in workloads for _k, w in measured)  # every measurement names a workload


@pytest.mark.parametrize(("folder_file", "app", "workload"), [
    ("wgp.py", "Wan2GP", "video"), ("comfy/__init__.py", "ComfyUI", "image")])
def test_the_workload_comes_from_the_ai_program_found(tmp_path: Path, folder_file: str,
                                                      app: str, workload: str) -> None:
    program = tmp_path / "Programs" / app
    (program / folder_file).parent.mkdir(parents=True, exist_ok=True)
    (program / folder_file).write_text("", encoding="utf-8")
    if app == "ComfyUI":
        (program / "main.py").write_text("", encoding="utf-8")
        (program / "nodes.py").write_text("", encoding="utf-8")
    python = program / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("", encoding="utf-8")
    found, name = workload_for_python(python)
    assert (found, name) == (workload, app)
    session = Session(environment=cast(PythonEnv, SimpleNamespace(executable=python)))
    assert session.workload() == (workload, f"what {app} runs")
    session.workload_choice = "llm"
    assert session.workload() == ("llm", "your choice")
    plain = Session(environment=cast(PythonEnv, SimpleNamespace(executable=tmp_path / "py")))
    assert plain.workload()[0] == "llm" and "no AI program" in plain.workload()[1]
