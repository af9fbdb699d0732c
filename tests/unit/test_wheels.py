"""Prebuilt wheels: names against environments, and the URLs offered for each version family.

Wheel names are real ones: upstream FlashAttention's naming (setup.py's get_wheel_url) and the
community Windows wheels listed in the flash_attn recipe. Environments are PythonEnv values as
the environment probe reports them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kernel_wizard.catalog import Catalog, CudaMatch, WheelSourceKind, load_catalog
from kernel_wizard.catalog.wheels import (
    MismatchKind,
    WheelCandidate,
    candidate_from_url,
    candidate_wheel_urls,
    match,
    parse_cuda_tag,
    parse_wheel_name,
)
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo

RELEASES = "https://github.com/Dao-AILab/flash-attention/releases/download"
COMMUNITY = "https://github.com/mjun0812/flash-attention-prebuild-wheels/releases/download"


def env(
    torch: str | None = "2.8.0+cu128",
    *,
    python: str = "cp312",
    platform: str = "linux_x86_64",
    cxx11_abi: bool = True,
) -> PythonEnv:
    info = None
    if torch is not None:
        local = torch.partition("+")[2]
        cuda = f"{local[2:4]}.{local[4:]}" if local.startswith("cu") else None
        info = TorchInfo(version=torch, cuda=cuda, cuda_available=cuda is not None,
                         device_count=1, arch_list=(), cxx11_abi=cxx11_abi)
    return PythonEnv(
        executable=Path("/venv/bin/python"),
        status=EnvStatus.READY if info else EnvStatus.NO_TORCH,
        summary="",
        version=f"3.{python[3:]}.1",
        bits=64,
        platform_tag=platform,
        interpreter_tag=python,
        torch=info,
    )


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


OFFICIAL_283 = "flash_attn-2.8.3+cu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl"


def test_parse_official_and_community_names() -> None:
    w = parse_wheel_name(OFFICIAL_283)
    assert (w.distribution, w.base_version) == ("flash-attn", "2.8.3")
    assert (w.cuda, w.cuda_tag, w.torch, w.cxx11_abi) == ((12,), "cu12", (2, 8), True)
    assert w.official_style
    c = parse_wheel_name("flash_attn-2.7.4.post1+cu128torch2.7-cp312-cp312-win_amd64.whl")
    assert (c.base_version, c.cuda, c.torch, c.cxx11_abi) == ("2.7.4.post1", (12, 8), (2, 7), None)
    assert not c.official_style
    assert parse_cuda_tag("118") == (11, 8) and parse_cuda_tag("13") == (13,)
    with pytest.raises(ValueError):
        parse_wheel_name("flash_attn-2.8.3.tar.gz")


# (wheel name, environment, expected mismatch kinds, expected texts (exact) or None)
MATCHES = [
    pytest.param(OFFICIAL_283, env(), [], [], id="official-match"),
    pytest.param(
        "flash_attn-2.8.3+cu12torch2.8cxx11abiTRUE-cp311-cp311-linux_x86_64.whl", env(),
        [MismatchKind.PYTHON],
        ["Built for Python 3.11 (cp311); the target is Python 3.12 (cp312)."], id="python"),
    pytest.param(
        "flash_attn-2.8.3+cu128torch2.8-cp312-cp312-win_amd64.whl", env(),
        [MismatchKind.PLATFORM],
        ["Built for win_amd64; the target platform is linux_x86_64."], id="platform"),
    pytest.param(
        "flash_attn-2.8.3+cu12torch2.7cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", env(),
        [MismatchKind.TORCH],
        ["Built for PyTorch 2.7; the target has PyTorch 2.8.0+cu128."], id="torch"),
    pytest.param(
        OFFICIAL_283, env("2.8.0+cu130"), [MismatchKind.CUDA],
        ["Built for CUDA 12 (cu12); the target's PyTorch uses CUDA 13.0."], id="cuda-major"),
    pytest.param(
        "flash_attn-2.8.3+cu128torch2.8-cp312-cp312-linux_x86_64.whl", env("2.8.0+cu126"),
        [MismatchKind.CUDA],
        ["Built for CUDA 12.8 (cu128); the target's PyTorch uses CUDA 12.6."],
        id="cuda-major-minor"),
    pytest.param(
        "flash_attn-2.8.3+cu12torch2.8cxx11abiFALSE-cp312-cp312-linux_x86_64.whl", env(),
        [MismatchKind.CXX11_ABI],
        ["Built with the C++11 ABI off (cxx11abiFALSE); the target's PyTorch has it on "
         "(cxx11abiTRUE)."], id="cxx11-abi"),
    pytest.param(
        OFFICIAL_283, env("2.8.0+cpu"), [MismatchKind.TORCH_CPU_ONLY],
        ["Built for CUDA (cu12); the target's PyTorch 2.8.0+cpu is a CPU-only build."],
        id="cpu-torch"),
    pytest.param(
        OFFICIAL_283, env(None), [MismatchKind.NO_TORCH],
        ["PyTorch is not installed in the target environment."], id="no-torch"),
    pytest.param(
        # binned upstream name: cu122 means "a PyTorch built for CUDA 12"
        "flash_attn-2.5.9.post1+cu122torch2.3cxx11abiFALSE-cp311-cp311-linux_x86_64.whl",
        env("2.3.1+cu121", python="cp311", cxx11_abi=False), [], [], id="official-binned-cu122"),
    pytest.param(
        "flash_attn-2.8.3+cu130torch2.9-cp312-cp312-manylinux_2_24_x86_64.manylinux_2_28_x86_64"
        ".whl", env("2.9.1+cu130"), [], [], id="manylinux-on-linux"),
    pytest.param(
        "flash_attn-2.8.3+cu128torch2.9-cp313-cp313t-win_amd64.whl",
        env("2.9.1+cu128", python="cp313", platform="win_amd64"), [MismatchKind.PYTHON],
        ["Built for free-threaded Python 3.13 (cp313t); the target is Python 3.13 (cp313)."],
        id="free-threaded"),
    pytest.param(
        "flash_attn-2.7.4.post1+cu126torch2.6-cp312-cp312-win_amd64.whl",
        env("2.6.0+cu126", platform="win_amd64", cxx11_abi=False), [], [],
        id="community-windows-match"),
    pytest.param(
        "flash_attn-2.6.3+cu123torch2.4cxx11abiTRUE-cp310-cp310-linux_x86_64.whl",
        env("2.5.1+cu124", python="cp312", platform="win_amd64"),
        [MismatchKind.PYTHON, MismatchKind.PLATFORM, MismatchKind.TORCH], None,
        id="several-at-once"),
    pytest.param(
        "flash_attn-2.8.3.tar.gz", env(), [MismatchKind.NOT_A_WHEEL], None, id="not-a-wheel"),
    pytest.param(
        "flash_attn-2.8.3-cp312-cp312-linux_x86_64.whl", env(), [MismatchKind.UNKNOWN_BUILD],
        ["The name doesn't say which PyTorch and CUDA it was built for (no local version "
         "label)."], id="plain-pypi-style"),
]


@pytest.mark.parametrize(("wheel", "environment", "kinds", "texts"), MATCHES)
def test_match(
    wheel: str,
    environment: PythonEnv,
    kinds: list[MismatchKind],
    texts: list[str] | None,
) -> None:
    result = match(wheel, environment)
    assert [m.kind for m in result.mismatches] == kinds
    assert result.matched is (not kinds)
    if texts is not None:
        assert list(result.texts) == texts


def test_cuda_rule_can_be_forced() -> None:
    binned = "flash_attn-2.5.9.post1+cu122torch2.3cxx11abiFALSE-cp311-cp311-linux_x86_64.whl"
    e = env("2.3.1+cu121", python="cp311", cxx11_abi=False)
    strict = match(binned, e, cuda_match=CudaMatch.MAJOR_MINOR)
    assert strict.texts == ("Built for CUDA 12.2 (cu122); the target's PyTorch uses CUDA 12.1.",)
    community = "flash_attn-2.8.3+cu128torch2.8-cp312-cp312-linux_x86_64.whl"
    assert match(community, env("2.8.0+cu126"), cuda_match=CudaMatch.MAJOR).matched


def test_manylinux_respects_a_known_glibc() -> None:
    name = ("flash_attn-2.8.3+cu130torch2.9-cp312-cp312-manylinux_2_24_x86_64."
            "manylinux_2_28_x86_64.whl")
    assert match(name, env("2.9.1+cu130"), glibc=(2, 28)).matched
    old = match(name, env("2.9.1+cu130"), glibc=(2, 17))
    assert [m.kind for m in old.mismatches] == [MismatchKind.PLATFORM]
    arm = match(name, env("2.9.1+cu130", platform="linux_aarch64"))
    assert [m.kind for m in arm.mismatches] == [MismatchKind.PLATFORM]


# ---------------------------------------------------------------------------------------------
# Official URLs per version family (setup.py's rule, recorded per version in the recipe)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "torch", "python", "abi", "expected", "listed"),
    [
        # 2.5.x: cu118 / cu122
        ("2.5.9.post1", "2.3.1+cu121", "cp311", False,
         "v2.5.9.post1/flash_attn-2.5.9.post1+cu122torch2.3cxx11abiFALSE-cp311-cp311-"
         "linux_x86_64.whl", True),
        ("2.5.0", "2.1.2+cu118", "cp310", True,
         "v2.5.0/flash_attn-2.5.0+cu118torch2.1cxx11abiTRUE-cp310-cp310-linux_x86_64.whl", True),
        # 2.6.x: cu118 / cu123 (2.6.0 and 2.6.0.post1 still cu122)
        ("2.6.3", "2.4.1+cu124", "cp312", False,
         "v2.6.3/flash_attn-2.6.3+cu123torch2.4cxx11abiFALSE-cp312-cp312-linux_x86_64.whl", True),
        ("2.6.3", "2.3.1+cu118", "cp39", False,
         "v2.6.3/flash_attn-2.6.3+cu118torch2.3cxx11abiFALSE-cp39-cp39-linux_x86_64.whl", True),
        ("2.6.0", "2.3.1+cu121", "cp311", False,
         "v2.6.0/flash_attn-2.6.0+cu122torch2.3cxx11abiFALSE-cp311-cp311-linux_x86_64.whl", True),
        # 2.7.0 ... 2.8.3: the CUDA major only
        ("2.7.4.post1", "2.6.0+cu124", "cp312", False,
         "v2.7.4.post1/flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp312-cp312-"
         "linux_x86_64.whl", True),
        ("2.7.0", "2.5.1+cu118", "cp310", False,
         "v2.7.0/flash_attn-2.7.0+cu11torch2.5cxx11abiFALSE-cp310-cp310-linux_x86_64.whl", True),
        ("2.8.3", "2.8.0+cu128", "cp312", True,
         "v2.8.3/flash_attn-2.8.3+cu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", True),
        # torch 2.9 is not in 2.8.3's build matrix: offered, but marked as probably missing
        ("2.8.3", "2.9.1+cu128", "cp312", True,
         "v2.8.3/flash_attn-2.8.3+cu12torch2.9cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", False),
        # 2.8.3.post1 adds cu13
        ("2.8.3.post1", "2.10.0+cu130", "cp312", True,
         "v2.8.3.post1/flash_attn-2.8.3.post1+cu13torch2.10cxx11abiTRUE-cp312-cp312-"
         "linux_x86_64.whl", True),
    ],
)
def test_official_url_per_version_family(
    catalog: Catalog, version: str, torch: str, python: str, abi: bool, expected: str,
    listed: bool,
) -> None:
    fa = catalog.get("flash_attn")
    candidates = candidate_wheel_urls(fa, fa.version(version), env(torch, python=python,
                                                                  cxx11_abi=abi))
    official = [c for c in candidates if c.source_kind is WheelSourceKind.OFFICIAL]
    assert [c.url for c in official] == [f"{RELEASES}/{expected}"]
    assert official[0].listed is listed
    assert official[0].match.matched


def test_no_official_cu13_wheel_before_2_8_3_post1(catalog: Catalog) -> None:
    fa = catalog.get("flash_attn")

    def official(version: str) -> list[WheelCandidate]:
        return [c for c in candidate_wheel_urls(fa, fa.version(version), env("2.10.0+cu130"))
                if c.source_kind is WheelSourceKind.OFFICIAL]

    assert official("2.8.3") == []
    post1 = official("2.8.3.post1")
    assert [c.filename for c in post1] == [
        "flash_attn-2.8.3.post1+cu13torch2.10cxx11abiTRUE-cp312-cp312-linux_x86_64.whl"]


def test_no_candidates_without_cuda_torch(catalog: Catalog) -> None:
    fa = catalog.get("flash_attn")
    v = fa.version("2.8.3")
    assert candidate_wheel_urls(fa, v, env("2.8.0+cpu")) == []
    assert candidate_wheel_urls(fa, v, env(None)) == []
    probe = catalog.get("probe")
    assert candidate_wheel_urls(probe, probe.versions[0], env()) == []  # no wheel sources


# ---------------------------------------------------------------------------------------------
# Community Windows wheels
# ---------------------------------------------------------------------------------------------


def test_windows_gets_community_wheels_exact_cuda_first(catalog: Catalog) -> None:
    fa = catalog.get("flash_attn")
    windows = env("2.6.0+cu126", platform="win_amd64", cxx11_abi=False)
    found = candidate_wheel_urls(fa, fa.version("2.7.4.post1"), windows)
    assert all(c.source_kind is WheelSourceKind.COMMUNITY for c in found)  # no official ones
    assert [c.url for c in found] == [
        f"{COMMUNITY}/v0.4.19/flash_attn-2.7.4.post1%2Bcu126torch2.6-cp312-cp312-win_amd64.whl",
        f"{COMMUNITY}/v0.4.19/flash_attn-2.7.4.post1%2Bcu124torch2.6-cp312-cp312-win_amd64.whl",
    ]
    assert all(c.listed and c.match.matched for c in found)
    assert "Community build" in found[0].note


def test_windows_newest_community_release_is_used(catalog: Catalog) -> None:
    fa = catalog.get("flash_attn")
    found = candidate_wheel_urls(fa, fa.version("2.8.3"),
                                 env("2.9.1+cu128", platform="win_amd64", cxx11_abi=False))
    assert found[0].url == (f"{COMMUNITY}/v0.9.28/flash_attn-2.8.3%2Bcu128torch2.9-cp312-cp312-"
                            "win_amd64.whl")
    # Nothing for a torch the community never built for this version.
    assert candidate_wheel_urls(fa, fa.version("2.7.4.post1"),
                                env("2.3.1+cu121", platform="win_amd64")) == []


def test_a_wheel_named_by_its_address_is_matched_like_the_catalogs(catalog: Catalog) -> None:
    flash = catalog.get("flash_attn")
    url = f"{RELEASES}/v2.8.3/flash_attn-2.8.3%2Bcu12torch2.8cxx11abiTRUE-cp312-cp312-" \
          "linux_x86_64.whl"
    fits = candidate_from_url(url, flash, env("2.8.0+cu128"))
    assert fits.filename == OFFICIAL_283 and fits.match.matched and fits.sha256 is None
    assert fits.url == url and fits.source_name == "the address you gave"
    other_torch = candidate_from_url(url, flash, env("2.9.1+cu128"))
    assert [m.kind for m in other_torch.match.mismatches] == [MismatchKind.TORCH]


def test_an_address_with_a_published_digest_and_a_wheel_of_another_package(
    catalog: Catalog,
) -> None:
    flash, probe = catalog.get("flash_attn"), catalog.get("probe")
    digest = "AB" * 32
    with_digest = candidate_from_url(f"{RELEASES}/x/{OFFICIAL_283}#sha256={digest}", flash,
                                     env())
    assert with_digest.sha256 == digest.lower()
    assert with_digest.url == f"{RELEASES}/x/{OFFICIAL_283}"  # the fragment is not sent
    bad_fragment = candidate_from_url(f"{RELEASES}/x/{OFFICIAL_283}#md5=abc", flash, env())
    assert "#sha256=<64 hex digits>" in bad_fragment.match.texts[-1]
    wrong_package = candidate_from_url(f"{RELEASES}/x/{OFFICIAL_283}", probe, env())
    assert wrong_package.match.mismatches[0].kind is MismatchKind.PACKAGE
    assert "a wheel of flash-attn, not of Probe kernel" in wrong_package.match.texts[0]
    not_a_wheel = candidate_from_url("https://example.org/download?id=7", probe, env())
    assert not_a_wheel.match.mismatches[0].kind is MismatchKind.NOT_A_WHEEL
