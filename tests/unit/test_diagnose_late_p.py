"""What a user sees on real excerpts of late set p (tests/data/logs/late-2026-11-29p, issue 31),
the kernels the wizard's own users build: an instruction of a newer GPU than the build targets,
Triton and PyTorch refusing an older GPU, a CUDA extension module never built, pip finding no
Triton for the platform. Each excerpt is copied from the file named beside it (P/ is the set's
folder)."""

from __future__ import annotations

import pytest
from diagnose_testsupport import cause, failed, family

P = "late-2026-11-29p"  # the set the excerpts come from (for the reader)


@pytest.mark.parametrize("line", [
    # P/candle-vllm-207-marlin-ptxas-m16n8k16-requires-sm-80.log
    "55.28   ptxas /tmp/tmpxft_00005dd8_00000000-6_marlin_matmul_awq_f16.ptx, line 296299; "
    "error   : Feature '.m16n8k16' requires .target sm_80 or higher",
    # P/llm-awq-89-ptxas-ldmatrix-requires-sm-75.log
    "ptxas /tmp/tmpxft_00001f6c_00000000-6_gemm_cuda_gen.ptx, line 892; error   : Feature "
    "'ldmatrix' requires .target sm_75 or higher",
])
def test_an_instruction_of_a_newer_gpu_than_the_build_targets(line: str) -> None:
    report = failed([line])
    assert cause(report) == "arch-too-old-for-source" and family(report) == "compile"


@pytest.mark.parametrize("line", [
    # P/chattts-341-triton-gtx-1080-ti-too-old.log
    "[2024-06-18 19:45:55,713] torch._dynamo.convert_frame: [WARNING] RuntimeError: Found "
    "NVIDIA GeForce GTX 1080 Ti which is too old to be supported by the triton GPU compiler, "
    "which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but "
    "your device is of CUDA capability 6.1",
    # P/comfyui-cogvideoxwrapper-40-scaled-mm-needs-cc-8-9-rtx-3090.log
    "`RuntimeError: torch._scaled_mm is only supported on CUDA devices with compute capability "
    ">= 9.0 or 8.9, or ROCm MI300+`",
])
def test_triton_or_pytorch_refusing_an_older_gpu(line: str) -> None:
    report = failed([line])
    assert cause(report) == "gpu-arch-unsupported" and family(report) == "first-use"


@pytest.mark.parametrize("line", [
    # P/open-sora-116-no-module-fused-layer-norm-cuda-apex-zh.log (apex without --cuda_ext)
    "ModuleNotFoundError: No module named 'fused_layer_norm_cuda'",
    # P/openfold-445-no-module-attn-core-inplace-cuda.log
    "`ModuleNotFoundError: No module named 'attn_core_inplace_cuda'`",
])
def test_a_cuda_extension_module_never_built(line: str) -> None:
    report = failed([line])
    assert cause(report) == "built-without-cuda" and family(report) == "import"


def test_no_module_of_another_kind_is_not_a_cuda_build() -> None:
    assert cause(failed(["ModuleNotFoundError: No module named 'einops'"])) != \
        "built-without-cuda"


@pytest.mark.parametrize(("lines", "tool"), [
    # P/latentsync-55-windows-no-matching-distribution-triton-2-2-0.log
    (["PS C:\\Github\\LatentSync> miniconda3/python.exe -m pip install triton==2.2.0",
      "ERROR: Could not find a version that satisfies the requirement triton==2.2.0 (from "
      "versions: none)",
      "ERROR: No matching distribution found for triton==2.2.0"], "triton"),
    # P/comfyui-rmbg-153-linux-no-matching-distribution-triton-windows.log
    (["5.122 ERROR: Could not find a version that satisfies the requirement triton-windows "
      "(from versions: none)",
      "5.247 ERROR: No matching distribution found for triton-windows"], "triton-windows"),
])
def test_pip_finding_no_triton_for_the_platform(lines: list[str], tool: str) -> None:
    report = failed(lines)
    assert report.primary is not None
    assert report.primary.signature_id == "triton-wheel-for-other-platform"
    assert tool in report.primary.title and family(report) == "resolve"


def test_pip_finding_some_triton_versions_is_not_the_platform() -> None:
    # versions exist, only not the pinned one: a version, not a platform
    report = failed(["ERROR: Could not find a version that satisfies the requirement "
                     "triton==9.9.9 (from versions: 2.0.0, 2.1.0, 3.0.0)"])
    assert report.primary is None or report.primary.signature_id != \
        "triton-wheel-for-other-platform"
