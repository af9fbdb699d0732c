"""The publishers' wheel lists in resources/wheels and how the recipes' wheel sources use them:
every list a recipe names loads and says when and where it was read; FlashAttention 3 gets
community wheels from mjun0812 and windreamer (whose names pack the PyTorch version without
dots); a complete upstream list decides whether upstream's computed wheel exists.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kernel_wizard.catalog import Catalog, OsName, WheelSourceKind, load_catalog
from kernel_wizard.catalog import wheels as wheels_module
from kernel_wizard.catalog.wheels import (
    candidate_wheel_urls,
    has_listed_wheel,
    load_wheel_list,
    match,
    parse_wheel_name,
    proposed_version,
    wheel_list_from_json,
    wheel_lists_dir,
)
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo

WINDREAMER_WIN = ("flash_attn_3-3.0.0+20260318.cu128torch2100cxx11abitrue.8afc61-cp39-abi3-"
                  "win_amd64.whl")
OFFICIAL_283 = "flash_attn-2.8.3+cu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def env(torch: str, *, python: str = "cp312", platform: str = "linux_x86_64",
        cxx11_abi: bool = True) -> PythonEnv:
    cuda = None
    if "+cu" in torch:
        digits = torch.split("+cu", 1)[1]
        cuda = f"{digits[:2]}.{digits[2:]}"
    info = TorchInfo(version=torch, cuda=cuda, cuda_available=cuda is not None,
                     device_count=1, arch_list=("sm_90",), cxx11_abi=cxx11_abi)
    return PythonEnv(executable=Path("/x/python"), status=EnvStatus.READY, summary="",
                     version="3.12.3", platform_tag=platform, interpreter_tag=python,
                     torch=info)


def test_every_list_a_recipe_names_loads_with_its_date_and_origin(catalog: Catalog) -> None:
    named = {s.wheel_list for r in catalog.recipes for s in r.wheel_sources if s.wheel_list}
    assert {"dao-ailab", "mjun0812", "windreamer", "woct0rdho"} <= named
    for name in named:
        listed = load_wheel_list(name)
        assert listed.read and listed.origin and listed.publisher
        for wheel in listed.wheels or ():
            parse_wheel_name(wheel.filename)  # every listed file is a valid wheel name
            assert wheel.url.startswith("https://github.com/")
    shipped = {p.stem for p in wheel_lists_dir().glob("*.json")}
    assert shipped == named  # no list nobody reads


def test_community_sources_take_their_wheels_from_the_lists(catalog: Catalog) -> None:
    for recipe_id in ("flash_attn", "flash_attn_3", "sageattention"):
        for source in catalog.get(recipe_id).wheel_sources:
            assert source.wheel_list is not None, (recipe_id, source.id)
            if source.kind is WheelSourceKind.COMMUNITY:
                assert source.assets == ()  # no typed-in addresses left
                assert "Community build" in source.note


def test_windreamer_names_pack_the_torch_version() -> None:
    wheel = parse_wheel_name(WINDREAMER_WIN)
    assert (wheel.torch, wheel.cuda, wheel.cxx11_abi) == ((2, 10), (12, 8), True)
    assert parse_wheel_name(WINDREAMER_WIN.replace("torch2100", "torch291")).torch == (2, 9)
    windows = env("2.9.1+cu128", python="cp313", platform="win_amd64", cxx11_abi=False)
    assert match(WINDREAMER_WIN, windows).texts == (
        "Built for PyTorch 2.10; the target has PyTorch 2.9.1+cu128.",)


def test_fa3_on_windows_gets_both_community_sets(catalog: Catalog) -> None:
    fa3 = catalog.get("flash_attn_3")
    windows = env("2.10.0+cu130", python="cp313", platform="win_amd64", cxx11_abi=False)
    found = candidate_wheel_urls(fa3, fa3.newest, windows)
    assert [(c.source_id, c.filename) for c in found] == [
        ("mjun0812", "flash_attn_3-3.0.0+cu130torch2.10gite2743ab-cp39-abi3-win_amd64.whl"),
        ("windreamer", "flash_attn_3-3.0.0+20260318.cu130torch2100cxx11abitrue.8afc61-cp39-"
                       "abi3-win_amd64.whl"),
    ]  # windreamer's CUDA 12.8 build of the same wheel: another CUDA major, not offered
    cuda12 = env("2.10.0+cu128", python="cp313", platform="win_amd64", cxx11_abi=False)
    assert WINDREAMER_WIN in [c.filename for c in candidate_wheel_urls(fa3, fa3.newest, cuda12)]
    # FlashAttention 2's wheels of the same publisher are not offered for FA3
    assert all(c.filename.startswith("flash_attn_3-") for c in found)


@pytest.fixture
def lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder of wheel lists the catalog reads instead of the shipped ones."""
    for shipped in wheel_lists_dir().glob("*.json"):
        (tmp_path / shipped.name).write_bytes(shipped.read_bytes())
    monkeypatch.setattr(wheels_module, "wheel_lists_dir", lambda: tmp_path)
    load_wheel_list.cache_clear()
    yield tmp_path
    load_wheel_list.cache_clear()


def write_upstream(folder: Path, names: list[str]) -> None:
    data = {"publisher": "Dao-AILab/flash-attention", "homepage": "https://example.invalid",
            "read": "2026-11-28", "from": "a test", "complete": True,
            "wheels": [{"url": "https://github.com/Dao-AILab/flash-attention/releases/"
                               f"download/v2.8.3/{n.replace('+', '%2B')}",
                        "sha256": "ab" * 32, "size": 1000} for n in names]}
    (folder / "dao-ailab.json").write_text(json.dumps(data), encoding="utf-8")


def test_a_complete_upstream_list_decides_what_exists(catalog: Catalog, lists: Path) -> None:
    fa = catalog.get("flash_attn")
    linux = env("2.8.0+cu128")

    def official() -> list[tuple[bool, str | None]]:
        load_wheel_list.cache_clear()
        return [(c.listed, c.sha256) for c in candidate_wheel_urls(fa, fa.version("2.8.3"), linux)
                if c.source_kind is WheelSourceKind.OFFICIAL]

    write_upstream(lists, [OFFICIAL_283])
    assert official() == [(True, "ab" * 32)]  # listed, with the published digest
    write_upstream(lists, [OFFICIAL_283.replace("cp312", "cp311")])
    assert official() == []  # the whole release list lacks it: no offer of a sure 404


def test_a_list_with_a_wrong_digest_is_refused() -> None:
    data = {"publisher": "p", "homepage": "h", "read": "2026-11-28", "from": "f",
            "complete": False, "wheels": [{"url": "https://x/a-1.0-py3-none-any.whl",
                                           "sha256": "not hex"}]}
    with pytest.raises(ValueError, match=r"wheels\[0\]: 'sha256' must be 64"):
        wheel_list_from_json("p", data)
    data["wheels"] = None  # a list that could not be read at all
    assert wheel_list_from_json("p", data).wheels is None


def test_a_publishers_newest_build_of_a_version_comes_first(catalog: Catalog) -> None:
    """woct0rdho publishes SageAttention 2.2.0 again and again (.post3 ... .post6, later posts
    fix bugs); for PyTorch 2.13 several stable-ABI wheels fit, and the newest is offered."""
    sage = catalog.get("sageattention")
    windows = env("2.13.0+cu130", python="cp312", platform="win_amd64", cxx11_abi=False)
    found = [c.filename for c in candidate_wheel_urls(sage, sage.newest, windows)
             if c.source_id == "woct0rdho-windows"]
    assert len(found) >= 2, found
    posts = [int(name.split(".post")[1].split("-")[0]) for name in found]
    assert posts == sorted(posts, reverse=True) and posts[0] == 6, found


def test_the_proposed_version_is_one_that_installs_from_a_published_wheel(
        catalog: Catalog) -> None:
    """FlashAttention 2 on Windows: the version marked for Windows (2.7.4.post1) is the newest
    that compiles with MSVC; with a PyTorch for which a newer version has a published wheel,
    that one is proposed (no compiling at all). Where none has one, the marked one stays."""
    fa2 = catalog.get("flash_attn")
    marked = fa2.recommended_for(OsName.WINDOWS)
    assert marked is not None and marked.label == "2.7.4.post1"
    windows = env("2.11.0+cu130", python="cp312", platform="win_amd64", cxx11_abi=False)
    proposed = proposed_version(fa2, marked, windows, lambda _version: True)
    assert proposed is not marked and has_listed_wheel(fa2, proposed, windows)
    assert not has_listed_wheel(fa2, marked, windows)
    # a version that does not fit this machine is never proposed for its wheel
    assert proposed_version(fa2, marked, windows, lambda v: v is marked) is marked
    # no published wheel for a CPU-only PyTorch: the marked version, built from source
    cpu = env("2.11.0+cpu", python="cp312", platform="win_amd64", cxx11_abi=False)
    assert proposed_version(fa2, marked, cpu, lambda _version: True) is marked
    # a kernel without wheel sources (the bundled probe) keeps its version
    probe = catalog.probe
    assert proposed_version(probe, probe.newest, windows, lambda _version: True) is probe.newest
