"""DeepEP on a real GPU machine, from a local tree (DEEPEP_SOURCE, e.g. upstream 567632d, the V1
line): built through the headless pipeline, its wheel imported, and the verification run. On a
machine with one GPU the verification must say in words that DeepEP needs 2, 4 or 8 GPUs (it is
an error, never a pass) and nothing is installed; with 2+ GPUs every dispatch/combine check must
pass. KSW_GPU_ARTIFACTS receives the JSON outputs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_pipeline_gpu import app, keep

SOURCE = os.environ.get("DEEPEP_SOURCE")
pytestmark = pytest.mark.skipif(not SOURCE, reason="DEEPEP_SOURCE is not set")


def gpu_count() -> int:
    code = "import torch; print(torch.cuda.device_count())"
    return int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True).stdout.strip())


def test_deepep_builds_through_the_wizard_and_is_verified_on_every_gpu_count(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "DeepEP"
    shutil.copytree(str(SOURCE), tree)
    gpus = gpu_count()
    args = ["--headless", "build", "--kernel", "deepep", "--version", "1.2.1+567632d",
            "--source", str(tree), "--no-install", "--json"]
    if gpus < 2:
        args.append("--force")  # the catalog says it does not fit one GPU; build it anyway
    result = app(*args, timeout=1800)
    keep(f"deepep-build-{gpus}gpu.json", result.stdout)
    document = json.loads(result.stdout)
    assert document["wheel"], document.get("message")
    assert Path(document["wheel"]).is_file()
    assert not document["installed"]
    verification = document["verification"]
    if gpus < 2:
        assert verification["status"] == "error"
        assert verification["error_kind"] == "not_enough_gpus"
        assert "needs 2, 4 or 8 GPUs" in " ".join(verification["reasons"])
    else:
        assert verification["status"] == "pass", verification["reasons"]
        counts = {c["gpus"] for c in verification["cases"]}
        assert 2 in counts

    # the wheel imports, and its kernels were compiled for SM90
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(site), document["wheel"]], check=True)
    code = "import deep_ep; print(deep_ep.Buffer.is_sm90_compiled())"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(site)))
    keep("deepep-import.txt", run.stdout + run.stderr)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True"
