"""docs/detect-schema.md against what ``detect --json`` really prints.

The page had fallen behind the code (no ``links``, none of the environment's ``nccl``,
``nvshmem``, ``triton``, ``triton_dist``, ``dev_files``; exit code 1 where 4 is given). Now every
field printed must be on the page, and every field on the page must be printed (or sit under a
field that is null in this run), for a real target Python and a replayed 8-GPU NVLink machine."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "detect-schema.md"
RECORDING = REPO / "tests" / "data" / "nvml" / "constructed-8x-h100-nvlink.json"


def documented() -> set[str]:
    """The field names of the page's tables (the environment's under ``environment.``)."""
    names: set[str] = set()
    prefix = ""
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("`environment` ("):
            prefix = "environment."
        if not line.startswith("| `"):
            continue
        first = line.split("|")[1]
        for name in re.findall(r"`([^`]+)`", first):
            names.add((prefix + name).removesuffix("[]"))
    return names


def printed(value: Any, names: set[str], path: str = "", out: set[str] | None = None,
            nulls: set[str] | None = None) -> tuple[set[str], set[str]]:
    """Every field path of ``value`` (arrays as their elements' fields) and the null ones; an
    object the page documents without fields of its own (``links.nvlink_p2p``) is a leaf."""
    out = set() if out is None else out
    nulls = set() if nulls is None else nulls
    if path:
        out.add(path)
    if value is None:
        nulls.add(path)
    elif isinstance(value, dict):
        if path and path in names and not any(n.startswith(path + ".") for n in names):
            return out, nulls
        for key, item in value.items():
            printed(item, names, f"{path}.{key}" if path else key, out, nulls)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                printed(item, names, path + "[]", out, nulls)
    return out, nulls


def detect(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", "--headless", "detect", *args],
                          capture_output=True, text=True, timeout=300, cwd=REPO, check=False)


def test_the_schema_page_lists_exactly_what_detect_prints(torch_venv: Path) -> None:
    result = detect("--json", "--python", str(torch_venv), "--replay", str(RECORDING))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    names = documented()
    paths, nulls = printed(output, names)
    paths = {p.removesuffix("[]") for p in paths}
    groups = {p for p in paths if any(n.startswith(p + ".") for n in names)}  # nvml, host
    assert paths - names - groups == set(), "printed but not on docs/detect-schema.md"
    absent = {n for n in names - paths  # under a null object or a null array
              if not any(n.startswith((null + ".", null + "[].")) for null in nulls)}
    assert absent == set(), "on docs/detect-schema.md but not printed"
    # the fields this page had left out
    assert {"links.all_nvlink", "environment.nccl", "environment.triton_dist",
            "environment.dev_files.missing"} <= paths


def test_one_gpu_is_neither_all_nvlink_nor_not() -> None:
    result = detect("--json", "--replay", str(REPO / "tests" / "data" / "nvml" /
                                              "h100-driver580-links.json"))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert len(output["gpus"]) == 1
    assert output["links"]["all_nvlink"] is None  # was true: no pair, nothing to judge


def test_an_unreadable_recording_is_exit_code_4_as_documented(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    for recording in (broken, tmp_path / "missing.json"):
        result = detect("--json", "--replay", str(recording))
        assert result.returncode == 4, result.stdout + result.stderr
        assert "Traceback" not in result.stderr
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert "4 hardware detection could not run (an unreadable or malformed `--replay`" in page
