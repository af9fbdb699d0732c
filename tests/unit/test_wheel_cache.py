"""The verified-wheel cache keeps what passed, gives it back only where it runs unchanged, and
stays under its cap (issue 33, item 1). Real files in a temporary data folder."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from kernel_wizard.install import wheel_cache
from kernel_wizard.install.wheel_cache import PassedOn, WheelTarget

H200 = WheelTarget("2.11.0+cu130", "cp312", "linux_x86_64", ("9.0",))


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KSW_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv(wheel_cache.CAP_VARIABLE, raising=False)


def make_wheel(folder: Path, name: str = "flash_attn_3-3.0.0-cp312-cp312-linux_x86_64.whl",
               payload: bytes = b"kernel code", size: int = 0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("flash_attn_3/__init__.py", payload + b"\0" * size)
    return path


def passed(date: str = "2026-11-28T15:00:00+00:00") -> PassedOn:
    return PassedOn(date=date, python="/envs/comfy/bin/python", torch="2.11.0+cu130",
                    torch_cuda="13.0", gpus=("NVIDIA H200",), driver="580.159.04",
                    report="/data/reports/r.json")


def keep(wheel: Path, **kw: object) -> wheel_cache.CachedWheel:
    args: dict[str, object] = dict(kernel="flash_attn_3", version="3.0.0", variant="compact",
                                   source="built from flash-attention 0251105",
                                   built_for=H200, passed=passed())
    args.update(kw)
    kept = wheel_cache.keep(wheel, **args)  # type: ignore[arg-type]
    assert kept is not None
    return kept


def test_a_kept_wheel_is_found_for_a_matching_environment_only(tmp_path: Path) -> None:
    kept = keep(make_wheel(tmp_path / "build"))
    assert kept.path.is_file() and kept.verified_on == "2026-11-28"
    assert wheel_cache.find("flash_attn_3", "3.0.0", "compact", H200) == kept
    # another environment with the same PyTorch build, Python and GPU: found again
    same = WheelTarget("2.11.0+cu130", "cp312", "linux_x86_64", ("9.0",))
    assert wheel_cache.find("flash_attn_3", "3.0.0", "compact", same) == kept
    # what does not fit is never handed out, and says why in words
    for other, why in [
        (WheelTarget("2.10.0+cu130", "cp312", "linux_x86_64", ("9.0",)), "PyTorch 2.11.0+cu130"),
        (WheelTarget("2.11.0+cu128", "cp312", "linux_x86_64", ("9.0",)), "here 2.11.0+cu128"),
        (WheelTarget("2.11.0+cu130", "cp313", "linux_x86_64", ("9.0",)), "Python cp312"),
        (WheelTarget("2.11.0+cu130", "cp312", "win_amd64", ("9.0",)), "platform"),
        (WheelTarget("2.11.0+cu130", "cp312", "linux_x86_64", ("8.9",)), "architecture 8.9"),
    ]:
        assert wheel_cache.find("flash_attn_3", "3.0.0", "compact", other) is None
        assert any(why in d for d in H200.differences(other)), (other, H200.differences(other))
    assert wheel_cache.find("flash_attn_3", "3.0.0", "full", H200) is None
    assert wheel_cache.find("flash_attn_3", "3.0.1", "compact", H200) is None


def test_the_same_wheel_verified_again_is_one_copy_with_two_verifications(
        tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "build")
    keep(wheel)
    again = keep(wheel, passed=passed("2026-11-29T09:00:00+00:00"))
    assert len(again.passed) == 2 and again.verified_on == "2026-11-29"
    assert len(wheel_cache.entries()) == 1
    assert wheel_cache.total_size() == wheel.stat().st_size


def test_the_cap_removes_the_least_recently_used_wheel_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = keep(make_wheel(tmp_path / "a", payload=b"a", size=400_000))
    second = keep(make_wheel(tmp_path / "b", payload=b"b", size=400_000), version="3.0.1")
    wheel_cache.take(first, tmp_path / "out")  # first is now the most recently used
    monkeypatch.setenv(wheel_cache.CAP_VARIABLE, "1")  # 1 MB: room for two, not three
    third = keep(make_wheel(tmp_path / "c", payload=b"c", size=400_000), version="3.0.2")
    left = {w.version for w in wheel_cache.entries()}
    assert left == {"3.0.0", "3.0.2"}, "the least recently used (3.0.1) goes first"
    assert not second.folder.exists() and third.path.is_file()
    assert wheel_cache.total_size() <= wheel_cache.cache_cap_bytes()


def test_a_zero_cap_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(wheel_cache.CAP_VARIABLE, "0")
    assert wheel_cache.keep(make_wheel(tmp_path), kernel="k", version="1", variant=None,
                            source="", built_for=H200, passed=passed()) is None
    assert wheel_cache.entries() == []


def test_a_wheel_changed_on_disk_is_refused_and_dropped(tmp_path: Path) -> None:
    kept = keep(make_wheel(tmp_path / "build"))
    kept.path.write_bytes(b"not the wheel that was verified")
    with pytest.raises(wheel_cache.CacheChanged, match="changed on disk"):
        wheel_cache.take(kept, tmp_path / "out")
    assert wheel_cache.entries() == [] and not (tmp_path / "out" / kept.filename).exists()


def test_take_copies_the_wheel_and_leaves_the_cache_intact(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "build")
    kept = keep(wheel)
    copied = wheel_cache.take(kept, tmp_path / "stage")
    assert copied.read_bytes() == wheel.read_bytes() and kept.path.is_file()
    assert wheel_cache.entries()[0].last_used >= kept.last_used


def test_an_interrupted_or_damaged_entry_is_ignored_and_cleaned(tmp_path: Path) -> None:
    kept = keep(make_wheel(tmp_path / "build"))
    root = wheel_cache.cache_dir()
    half = root / ("0" * 64)  # a crash after the wheel, before its entry
    half.mkdir()
    (half / "x.whl").write_bytes(b"partial")
    damaged = root / ("1" * 64)
    damaged.mkdir()
    (damaged / "entry.json").write_text("{not json", encoding="utf-8")
    assert [w.digest for w in wheel_cache.entries()] == [kept.digest]
    wheel_cache.prune()
    assert not half.exists() and not damaged.exists() and kept.path.is_file()


def test_clear_removes_everything_and_says_how_much(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "build")
    keep(wheel)
    assert wheel_cache.clear() == (1, wheel.stat().st_size)
    assert wheel_cache.entries() == []


def test_describe_names_what_a_person_needs(tmp_path: Path) -> None:
    line = wheel_cache.describe([keep(make_wheel(tmp_path / "build"))])[0]
    assert line.startswith("flash_attn_3 3.0.0 (compact): flash_attn_3-3.0.0-cp312")
    assert "PyTorch 2.11.0+cu130 cp312 GPU 9.0" in line and "verified on 2026-11-28" in line

