"""``installs`` and ``clean`` know the verified-wheel cache (issue 33, item 1): what is kept
for reinstalling without compiling is listed, held under its cap, and emptied only on request.
The real CLI entry point on a real cache in the test's data folder."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from kernel_wizard.cli.main import main as cli_main
from kernel_wizard.install import wheel_cache
from kernel_wizard.install.wheel_cache import PassedOn, WheelTarget


def keep(tmp_path: Path, version: str, size: int) -> wheel_cache.CachedWheel:
    wheel = tmp_path / version / f"sageattention-{version}-cp312-cp312-win_amd64.whl"
    wheel.parent.mkdir(parents=True)
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("sageattention/__init__.py", version + "\0" * size)
    kept = wheel_cache.keep(wheel, kernel="sageattention", version=version, variant=None,
                            source="built from thu-ml/SageAttention d1a57a5",
                            built_for=WheelTarget("2.11.0+cu130", "cp312", "win_amd64",
                                                  ("8.9",)),
                            passed=PassedOn("2026-11-28T15:00:00+01:00", "C:/ComfyUI/python",
                                            "2.11.0+cu130"))
    assert kept is not None
    return kept


def run(*argv: str) -> str:
    out = io.StringIO()
    assert cli_main(list(argv), out=out) == 0
    return out.getvalue()


def test_installs_lists_the_verified_wheels(tmp_path: Path) -> None:
    keep(tmp_path, "2.2.0", 1000)
    text = run("installs")
    assert "Verified wheels kept for reinstalling without compiling (1," in text
    assert ("sageattention 2.2.0: sageattention-2.2.0-cp312-cp312-win_amd64.whl" in text
            and "for PyTorch 2.11.0+cu130 cp312 GPU 8.9, verified on 2026-11-28" in text)
    assert "clean --cache" in text
    data = json.loads(run("installs", "--json"))
    (entry,) = data["verified_wheels"]
    assert entry["kernel"] == "sageattention" and Path(entry["path"]).is_file()


def test_clean_keeps_the_cache_under_its_cap_and_empties_it_only_with_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = keep(tmp_path, "2.1.1", 600_000)
    keep(tmp_path, "2.2.0", 600_000)
    text = run("clean")
    assert "Kept 2 verified wheels" in text and old.path.is_file()
    monkeypatch.setenv(wheel_cache.CAP_VARIABLE, "1")  # room for one of them
    data = json.loads(run("clean", "--json"))
    assert data["verified_wheels"]["removed"] == [old.filename]  # the older one went
    assert data["verified_wheels"]["kept"] == 1
    assert "Would remove the verified-wheel cache: 1 wheel," in run("clean", "--cache",
                                                                    "--dry-run")
    assert len(wheel_cache.entries()) == 1  # a dry run removes nothing
    text = run("clean", "--cache")
    assert "Removed the verified-wheel cache: 1 wheel," in text
    assert wheel_cache.entries() == []
