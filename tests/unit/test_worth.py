"""Is building worth it on this GPU (issue 20, item 1): PyTorch's own attention timed in the
target Python, scaled measurements of the kernels per GPU family, one plain sentence per kernel.

The SDPA timings are real: tests/data/speed/*.json are what resources/probes/sdpa_speed.py
printed on the lent machines (see the files' "recorded" field)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from build_backend.worth import (
    MethodTime,
    SdpaSpeed,
    SpeedUnavailable,
    Verdict,
    _parse,
    cache_key,
    load_measures,
    measure_sdpa,
    worth_building,
)

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
    # FlashAttention 3, measured through the wizard, is only as fast as cuDNN attention there:
    # nothing is named as faster, and PyTorch's own attention is the advice
    assert worth.better == ()
    assert "You can still build it" in worth.sentence  # advice, never a block
    assert "H100" in worth.source


def test_on_hopper_flashattention_3_is_said_to_gain_little_over_cudnn_attention() -> None:
    worth = worth_building("flash_attn_3", recorded("h100-sdpa.json"))
    assert worth is not None and worth.verdict is Verdict.SIMILAR
    assert worth.sentence.startswith("About as fast as PyTorch's own cuDNN attention here")
    assert "building gains little speed" in worth.sentence
    assert worth.better == ()
    # a PyTorch without cuDNN attention (many Windows builds): FA3 pays off against flash
    speed = with_methods(recorded("h100-sdpa.json"), flash=0.523, efficient=0.911)
    worth = worth_building("flash_attn_3", speed)
    assert worth is not None and worth.verdict is Verdict.PAYS_OFF


def test_the_expectation_scales_with_the_method_this_pytorch_has() -> None:
    # a PyTorch without cuDNN attention (flash and memory-efficient only), twice as slow
    speed = with_methods(recorded("h100-sdpa.json"), flash=1.018, efficient=1.786)
    worth = worth_building("flash_attn", speed)
    assert worth is not None and worth.expected_ms == pytest.approx(0.637 * 2, rel=1e-3)
    assert worth.verdict is Verdict.NOT_WORTH  # its flash method is still faster than FA2


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
