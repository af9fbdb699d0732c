"""DeepEP's NVLink dispatch raises for a row it cannot move instead of trapping the GPU
(issue 30; recipe patches deepep-hidden-check*).

On a 2× H200 (2026-11-28) DeepEP V1's intranode dispatch at hidden 7000 (bf16) ended in "CUDA
error: unspecified launch failure": a device-side assert in the kernel trapped, and the process
could not use its GPU any more. After the patch the same call raised a ValueError naming the
sizes that work, hidden 8176 ran correctly and 8192 raised
(docs/recorded/h200-2026-11-28/boundary.json). Here: the check's arithmetic on stand-in
tensors, and the patches applied to upstream's buffer.py (DEEPEP_SOURCE: a DeepEP work tree at
567632d) or, without it, to the lines the patterns quote.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from kernel_wizard.build.patches import PatchContext, PatchStatus, apply_patches, revert_patches
from kernel_wizard.catalog import OsName, load_catalog

V1 = "567632dd59810d77b3cc05553df953cc0f779799"


def recipe():  # type: ignore[no-untyped-def]
    return load_catalog().get("deepep")


def check_function():  # type: ignore[no-untyped-def]
    """The check as the patch writes it into deep_ep/buffer.py, compiled on its own."""
    (definition,) = [p for p in recipe().patches if p.id == "deepep-hidden-check"]
    source = definition.replacement.split("\n\nclass Buffer")[0]
    namespace: dict[str, object] = {"torch": type("torch", (), {"Tensor": object})}
    exec(compile(source, "buffer.py (patched)", "exec"), namespace)
    return namespace["_ksw_check_intranode_hidden"]


@dataclass
class Rows:
    """Enough of a tensor for the check: (tokens, hidden) of one element size."""

    hidden: int
    bytes_each: int = 2
    dtype: str = "torch.bfloat16"

    def size(self, dim: int) -> int:
        return (64, self.hidden)[dim]

    def element_size(self) -> int:
        return self.bytes_each


@pytest.mark.parametrize("hidden", [4096, 7168, 2880, 8176])  # 2880: GPT-OSS
def test_rows_the_nvlink_dispatch_moves_pass(hidden: int) -> None:
    check_function()(Rows(hidden))


@pytest.mark.parametrize("hidden", [7000, 100, 8192, 8184])
def test_rows_it_cannot_move_raise_naming_the_sizes_that_work(hidden: int) -> None:
    with pytest.raises(ValueError) as raised:
        check_function()(Rows(hidden))
    text = str(raised.value)
    assert f"got hidden {hidden}" in text
    assert "for bfloat16: a multiple of 16, at most 8176" in text
    assert "Pad the hidden size" in text


def test_fp8_rows_have_their_own_limits() -> None:
    check = check_function()
    check(Rows(7168, 1, "torch.float8_e4m3fn"))
    with pytest.raises(ValueError, match="float8_e4m3fn: a multiple of 32, at most 16352"):
        check(Rows(16384, 1, "torch.float8_e4m3fn"))


# the lines of DeepEP V1's deep_ep/buffer.py that the patterns quote (567632d)
BUFFER_EXCERPT = '''from .utils import EventOverlap, check_nvlink_connections


class Buffer:
    """
    The core expert-parallel (EP) communication buffers for Mixture of Experts (MoE) model.
    """

    def dispatch(self, x, handle=None):
        # Launch the kernel with cached or non-cached mode
        x, x_scales = x if isinstance(x, tuple) else (x, None)
        if handle is not None:
            assert topk_idx is None and topk_weights is None
            rank_prefix_matrix, channel_prefix_matrix = handle

    def internode_dispatch(self, x, handle=None):
        # Launch the kernel with cached or non-cached mode
        x, x_scales = x if isinstance(x, tuple) else (x, None)
        if handle is not None:
            assert topk_idx is None and topk_weights is None
            is_token_in_rank, \\
                rdma_channel_prefix_matrix = handle
'''


def _buffer(tmp_path: Path) -> Path:
    upstream = os.environ.get("DEEPEP_SOURCE")
    target = tmp_path / "deep_ep" / "buffer.py"
    target.parent.mkdir(parents=True)
    if upstream:
        shutil.copyfile(Path(upstream) / "deep_ep" / "buffer.py", target)
    else:
        target.write_text(BUFFER_EXCERPT, encoding="utf-8")
    return target


def test_the_patches_apply_once_to_v1_only_and_revert(tmp_path: Path) -> None:
    deepep = recipe()
    buffer = _buffer(tmp_path)
    original = buffer.read_bytes()
    v1 = next(v for v in deepep.versions if v.commit == V1)
    v2 = next(v for v in deepep.versions if v.commit != V1)
    ours = [p for p in deepep.patches if p.id.startswith("deepep-hidden-check")]
    skipped = apply_patches(tmp_path, ours, PatchContext(os=OsName.LINUX, version=v2,
                                                          recipe=deepep.name))
    assert {r.status for r in skipped} == {PatchStatus.SKIPPED}, "V2's buffer.py differs"
    first = apply_patches(tmp_path, ours, PatchContext(os=OsName.LINUX, version=v1,
                                                        recipe=deepep.name))
    assert [(r.status, r.count) for r in first] == [(PatchStatus.APPLIED, 1)] * 2
    patched = buffer.read_text("utf-8")
    compile(patched, "buffer.py", "exec")
    # the intranode dispatch checks, the internode one (other limits) does not
    dispatch, internode = patched.split("def internode_dispatch")
    assert "_ksw_check_intranode_hidden(x)" in dispatch.split("def dispatch")[1]
    assert "_ksw_check_intranode_hidden" not in internode
    second = apply_patches(tmp_path, ours, PatchContext(os=OsName.LINUX, version=v1,
                                                         recipe=deepep.name))
    assert {r.status for r in second} == {PatchStatus.ALREADY_APPLIED}
    revert_patches(tmp_path)
    assert buffer.read_bytes() == original
