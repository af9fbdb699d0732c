"""DeepEP V2 against PyTorch 2.11's NCCL 2.28 (a real log recorded on the H100 device): the
first error is the nccl.cu line, and the diagnosis says to install a newer NCCL or use V1."""

from __future__ import annotations

from pathlib import Path

from kernel_wizard.diagnose import diagnose_file

LOG = Path(__file__).resolve().parents[1] / "data" / "logs" / "deepep" / "deepep-v2-nccl-2.28.log"


def test_deepep_v2_with_an_old_nccl_is_named() -> None:
    report = diagnose_file(LOG)
    assert report.primary is not None
    assert report.primary.signature_id == "nccl-too-old-for-deepep"
    assert report.first_error is not None
    assert 'identifier "ncclCommProperties" is undefined' in report.first_error.line
    assert "nvidia-nccl-cu13>=2.30.4" in report.primary.fix
    assert "DeepEP V1" in report.primary.fix
