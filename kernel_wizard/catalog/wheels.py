"""Prebuilt wheels: parse kernel wheel names, match them to an environment, list candidates.

A matching prebuilt wheel is offered before a source build. Kernel wheels carry what they were
built against in their *local version label*, and pip does not check it: a wheel for another
PyTorch installs fine and then fails at import (undefined symbol, DLL load failed) or, worse,
imports and computes garbage. So :func:`match` checks every part against the target
environment and says in words what does not fit:

* the Python tag and ABI (``cp312``; ``cp313t`` is the free-threaded build; ``abi3``) and the
  platform tag (``linux_x86_64`` also accepts ``manylinux*_x86_64``), through
  :mod:`packaging.tags`;
* PyTorch's major.minor (``torch2.8``);
* the CUDA version PyTorch was built with (``cu12``: major only; ``cu128``: major.minor; upstream
  FlashAttention's binned ``cu118`` / ``cu122`` / ``cu123`` mean "CUDA 11" / "CUDA 12"). A
  recipe's wheel source can say to compare the major only: the community's ``cu128`` is the
  toolkit the wheel was compiled with, against a PyTorch of the same CUDA major;
* the C++ ABI (``cxx11abiTRUE`` / ``cxx11abiFALSE``; Linux only), where the name carries it.

Names understood (from the recipes' wheel sources)::

    flash_attn-2.8.3+cu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl   (upstream)
    flash_attn-2.8.3+cu128torch2.9-cp312-cp312-win_amd64.whl                 (mjun0812, community)
    sageattention-2.2.0+cu128torch2.7.1.post3-cp39-abi3-win_amd64.whl        (woct0rdho)
    sageattention-2.2.0+cu130torch2.10.0andhigher.post6-cp310-abi3-win_amd64.whl
    flash_attn_3-3.0.0+cu128torch2.9gite2743ab-cp39-abi3-win_amd64.whl        (mjun0812, FA3)
    flash_attn_3-3.0.0+20260318.cu128torch2100cxx11abitrue.8afc61-cp39-abi3-win_amd64.whl
                                                                   (windreamer: build date,
                                                                    torch 2.10.0 packed)

(``andhigher``: built on libtorch's stable ABI, for that PyTorch and every newer one.)

**Publishers' lists.** A wheel source may name a *wheel list* (``wheel_list = "mjun0812"``):
``resources/wheels/<name>.json``, the publisher's wheels as last read (each wheel's address
and, where the publisher gives them, its SHA-256 and size), with the date and where it was
read; ``scripts/refresh_wheel_lists.py`` rewrites it from the publisher's GitHub release list.
A community source offers exactly the listed wheels; upstream's official source still computes
its file name (the rule in ``setup.py``: see the recipe's ``wheel_cuda``) and the list says
whether that wheel exists and what its digest is (a list that could not be read leaves
upstream's build matrix, ``official_wheels``, to judge).

:func:`candidate_wheel_urls` puts these together for one version and environment;
:func:`candidate_from_url` takes a wheel the person names by its address (a mirror, a release
they found), matched the same way.
Downloading is :mod:`kernel_wizard.base.download`'s job.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from packaging.tags import Tag, compatible_tags, cpython_tags
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

from kernel_wizard.base.resources import resources_root
from kernel_wizard.catalog import (
    CudaMatch,
    OsName,
    Recipe,
    RecipeVersion,
    WheelSource,
    WheelSourceKind,
    parse_version,
)
from kernel_wizard.machine.environment import PythonEnv

_LOCAL_RE = re.compile(
    r"^cu(?P<cuda>\d+)torch(?P<torch_major>\d+)\.(?P<torch_minor>\d+)"
    r"(?:\.\d+)?(?P<and_higher>andhigher)?"
    r"(?:cxx11abi(?P<abi>true|false))?"
)
# windreamer's FA3 wheels: "<build date>.cu128torch2100cxx11abitrue.<commit>", the PyTorch
# version packed without dots (280 = 2.8.0, 291 = 2.9.1, 2100 = 2.10.0)
_PACKED_LOCAL_RE = re.compile(
    r"^(?:\d{8}\.)?cu(?P<cuda>\d+)torch(?P<torch_major>\d)(?P<torch_minor>\d{1,2})\d"
    r"cxx11abi(?P<abi>true|false)\b"
)
_SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")
_MANYLINUX_RE = re.compile(r"^manylinux(?:_(?P<major>\d+)_(?P<minor>\d+)|(?P<legacy>1|2010|2014))_"
                           r"(?P<arch>.+)$")
_FRAGMENT_SHA256 = re.compile(r"sha256=([0-9a-fA-F]{64})")
_LEGACY_GLIBC = {"1": (2, 5), "2010": (2, 12), "2014": (2, 17)}
_MAX_GLIBC_MINOR = 60  # accepted when the target's glibc is unknown


class MismatchKind(Enum):
    NOT_A_WHEEL = "not_a_wheel"
    PACKAGE = "package"  # a wheel of another package than the chosen kernel's
    PYTHON = "python"
    PLATFORM = "platform"
    NO_TORCH = "no_torch"
    TORCH_CPU_ONLY = "torch_cpu_only"
    TORCH = "torch"
    CUDA = "cuda"
    CXX11_ABI = "cxx11_abi"
    UNKNOWN_BUILD = "unknown_build"  # the name doesn't say which torch/CUDA it was built for


@dataclass(frozen=True)
class WheelName:
    """What a kernel wheel's file name says."""

    filename: str
    distribution: str  # normalized: "flash-attn"
    version: str  # "2.8.3+cu12torch2.8cxx11abitrue" (packaging lower-cases the label)
    base_version: str  # "2.8.3" / "2.8.3.post1"
    local: str | None
    cuda: tuple[int, ...] | None  # (12,) for cu12, (12, 8) for cu128
    cuda_tag: str | None  # "cu12", "cu128"
    torch: tuple[int, int] | None
    cxx11_abi: bool | None  # None: the name doesn't say
    tags: frozenset[Tag]
    # "torch2.10.0andhigher" (woct0rdho's SageAttention wheels on libtorch's stable ABI): any
    # PyTorch from that version on
    torch_and_higher: bool = False

    @property
    def official_style(self) -> bool:
        """Upstream FlashAttention names carry the C++ ABI; community names don't."""
        return self.cxx11_abi is not None


@dataclass(frozen=True)
class Mismatch:
    kind: MismatchKind
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class WheelMatch:
    filename: str
    wheel: WheelName | None
    mismatches: tuple[Mismatch, ...]

    @property
    def matched(self) -> bool:
        return not self.mismatches

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(m.text for m in self.mismatches)


@dataclass(frozen=True)
class WheelCandidate:
    url: str
    filename: str
    source_id: str
    source_kind: WheelSourceKind
    source_name: str
    match: WheelMatch
    listed: bool  # in upstream's release build matrix / a known asset; False: may be a 404
    note: str = ""
    sha256: str | None = None  # the published digest, when the source publishes one
    size: int | None = None  # the published size in bytes, when known

    @property
    def origin(self) -> str:
        """Who publishes it, for a person: "mjun0812/…, a community build", "Dao-AILab/…
        releases"; empty for a wheel the person named by its address."""
        if self.source_id == "address":
            return ""
        if self.source_kind is WheelSourceKind.COMMUNITY:
            return f"{self.source_name}, a community build"
        return self.source_name


@dataclass(frozen=True)
class PublishedWheel:
    """One wheel in a publisher's list: its address, and its digest and size where given."""

    filename: str
    url: str
    sha256: str | None = None
    size: int | None = None


@dataclass(frozen=True)
class WheelList:
    """A publisher's wheels as last read (``resources/wheels/<id>.json``).

    ``wheels`` is None when the list could not be read at all (``origin`` says why); a list
    that is not ``complete`` holds only the wheels seen published, not all of them."""

    id: str
    publisher: str
    homepage: str
    read: str  # the date it was read, ISO 8601
    origin: str  # where (and how) it was read
    complete: bool
    wheels: tuple[PublishedWheel, ...] | None

    def find(self, filename: str) -> PublishedWheel | None:
        return next((w for w in self.wheels or () if w.filename == filename), None)


def wheel_lists_dir() -> Path:
    """Where the publishers' wheel lists are kept."""
    return resources_root() / "wheels"


def wheel_list_from_json(list_id: str, data: Mapping[str, object]) -> WheelList:
    """A wheel list from its JSON form; ValueError naming the first thing that is wrong."""
    def text(key: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value:
            raise ValueError(f"wheel list {list_id}: {key!r} must be a non-empty string")
        return value

    complete = data.get("complete")
    if not isinstance(complete, bool):
        raise ValueError(f"wheel list {list_id}: 'complete' must be true or false")
    raw = data.get("wheels")
    wheels: tuple[PublishedWheel, ...] | None = None
    if raw is not None:
        if not isinstance(raw, list):
            raise ValueError(f"wheel list {list_id}: 'wheels' must be a list or null")
        wheels = tuple(_published_wheel(list_id, i, entry) for i, entry in enumerate(raw))
    return WheelList(id=list_id, publisher=text("publisher"), homepage=text("homepage"),
                     read=text("read"), origin=text("from"), complete=complete, wheels=wheels)


def _published_wheel(list_id: str, index: int, entry: object) -> PublishedWheel:
    where = f"wheel list {list_id}: wheels[{index}]"
    if not isinstance(entry, dict):
        raise ValueError(f"{where} must be an object")
    url = entry.get("url")
    if not isinstance(url, str) or not url.startswith("https://") or not url.endswith(".whl"):
        raise ValueError(f"{where}: 'url' must be an https:// address of a .whl file")
    sha256 = entry.get("sha256")
    if sha256 is not None and not (isinstance(sha256, str) and _SHA256_HEX.match(sha256)):
        raise ValueError(f"{where}: 'sha256' must be 64 lower-case hex digits")
    size = entry.get("size")
    if size is not None and not (isinstance(size, int) and size > 0):
        raise ValueError(f"{where}: 'size' must be a positive number of bytes")
    return PublishedWheel(filename=unquote(urlsplit(url).path.rsplit("/", 1)[-1]), url=url,
                          sha256=sha256, size=size)


def wheel_list_to_json(wheel_list: WheelList) -> dict[str, object]:
    """The JSON form :func:`wheel_list_from_json` reads (the refresh script writes it)."""
    wheels: list[dict[str, object]] | None = None
    if wheel_list.wheels is not None:
        wheels = []
        for w in wheel_list.wheels:
            entry: dict[str, object] = {"url": w.url}
            if w.sha256 is not None:
                entry["sha256"] = w.sha256
            if w.size is not None:
                entry["size"] = w.size
            wheels.append(entry)
    return {"publisher": wheel_list.publisher, "homepage": wheel_list.homepage,
            "read": wheel_list.read, "from": wheel_list.origin,
            "complete": wheel_list.complete, "wheels": wheels}


def read_wheel_list(path: Path) -> WheelList:
    """The wheel list in ``path`` (its id is the file's stem); ValueError when unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"wheel list {path.stem}: cannot be read ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError(f"wheel list {path.stem}: expected a JSON object")
    return wheel_list_from_json(path.stem, data)


@cache
def load_wheel_list(list_id: str) -> WheelList:
    """The shipped wheel list ``list_id`` (read once per process)."""
    return read_wheel_list(wheel_lists_dir() / f"{list_id}.json")


def parse_cuda_tag(digits: str) -> tuple[int, ...]:
    """'12' → (12,), '128' → (12, 8), '118' → (11, 8), '1210' → (12, 10), '9' → (9,)."""
    if len(digits) <= 2:
        return (int(digits),)
    return int(digits[:2]), int(digits[2:])


@lru_cache(maxsize=8192)  # a publisher's list is matched once per version and environment
def parse_wheel_name(filename: str) -> WheelName:
    """Parse a kernel wheel's file name; ValueError when it is not a valid wheel name."""
    try:
        name, version, _build, tags = parse_wheel_filename(filename)
    except InvalidWheelFilename as exc:
        raise ValueError(str(exc)) from exc
    local = version.local
    cuda: tuple[int, ...] | None = None
    cuda_tag: str | None = None
    torch: tuple[int, int] | None = None
    abi: bool | None = None
    and_higher = False
    if local:
        # packaging lower-cases the label: "cu12torch2.8cxx11abiTRUE" → "...cxx11abitrue"
        m = _LOCAL_RE.match(local) or _PACKED_LOCAL_RE.match(local)
        if m is not None:
            cuda = parse_cuda_tag(m.group("cuda"))
            cuda_tag = "cu" + m.group("cuda")
            torch = int(m.group("torch_major")), int(m.group("torch_minor"))
            and_higher = m.groupdict().get("and_higher") is not None
            if m.group("abi") is not None:
                abi = m.group("abi") == "true"
    return WheelName(
        filename=filename,
        distribution=str(name),
        version=str(version),
        base_version=version.public,
        local=local,
        cuda=cuda,
        cuda_tag=cuda_tag,
        torch=torch,
        cxx11_abi=abi,
        tags=frozenset(tags),
        torch_and_higher=and_higher,
    )


def _python_version(interpreter_tag: str | None) -> tuple[int, int] | None:
    m = re.match(r"^cp(\d)(\d+)$", interpreter_tag or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def _platform_ok(wheel_platform: str, env_platform: str, glibc: tuple[int, int] | None) -> bool:
    if wheel_platform in (env_platform, "any"):
        return True
    if not env_platform.startswith("linux_"):
        return False
    arch = env_platform[len("linux_"):]
    m = _MANYLINUX_RE.match(wheel_platform)
    if m is None or m.group("arch") != arch:
        return False
    if glibc is None:
        return True
    needed = (_LEGACY_GLIBC[m.group("legacy")] if m.group("legacy")
              else (int(m.group("major")), int(m.group("minor"))))
    return needed <= glibc


def supported_tags(
    env: PythonEnv, glibc: tuple[int, int] | None = None
) -> frozenset[Tag]:
    """The wheel tags the target interpreter accepts (CPython only), as pip would compute them
    from its interpreter and platform tags."""
    return _tags(env.interpreter_tag, env.platform_tag, glibc)


@lru_cache(maxsize=64)
def _tags(interpreter_tag: str | None, plat: str | None,
          glibc: tuple[int, int] | None) -> frozenset[Tag]:
    py = _python_version(interpreter_tag)
    if py is None or not plat:
        return frozenset()
    platforms = [plat]
    if plat.startswith("linux_"):
        arch = plat[len("linux_"):]
        top = glibc[1] if glibc is not None else _MAX_GLIBC_MINOR
        platforms += [f"manylinux_2_{m}_{arch}" for m in range(top, 4, -1)]
        platforms += [f"manylinux{legacy}_{arch}" for legacy, need in _LEGACY_GLIBC.items()
                      if glibc is None or need <= glibc]
    interpreter = f"cp{py[0]}{py[1]}"
    tags = set(cpython_tags(python_version=py, abis=[interpreter], platforms=platforms))
    tags |= set(compatible_tags(python_version=py, interpreter=interpreter, platforms=platforms))
    return frozenset(tags)


def _python_text(tag: Tag) -> str:
    m = re.match(r"^cp(\d)(\d+)$", tag.interpreter)
    if tag.abi == "abi3" and m:
        return f"Python {m.group(1)}.{m.group(2)} or newer (abi3)"
    if m:
        free = tag.abi.endswith("t")
        return f"{'free-threaded ' if free else ''}Python {m.group(1)}.{m.group(2)} " \
               f"({tag.abi if free else tag.interpreter})"
    return f"{tag.interpreter}-{tag.abi}"


def match(
    wheel_name: str,
    env: PythonEnv,
    *,
    cuda_match: CudaMatch | None = None,
    glibc: tuple[int, int] | None = None,
) -> WheelMatch:
    """Whether a kernel wheel fits the target environment, and every reason it doesn't.

    ``cuda_match``: how to compare the CUDA tag; by default upstream-style names (with a
    ``cxx11abi`` part) and one-number tags compare the major version, others major.minor.
    ``glibc``: the target's glibc, when known, to check manylinux tags (default: accept them).
    """
    try:
        wheel = parse_wheel_name(wheel_name)
    except ValueError as exc:
        return WheelMatch(wheel_name, None,
                          (Mismatch(MismatchKind.NOT_A_WHEEL, f"Not a wheel file name: {exc}"),))
    problems: list[Mismatch] = []
    env_py = _python_version(env.interpreter_tag)
    env_plat = env.platform_tag or "unknown"
    supported = supported_tags(env, glibc)
    if not (wheel.tags & supported):
        accepted = {(s.interpreter, s.abi) for s in supported}
        py_ok = any((t.interpreter, t.abi) in accepted for t in wheel.tags)
        plat_ok = any(_platform_ok(t.platform, env_plat, glibc) for t in wheel.tags)
        if not py_ok:
            built = _or_join(sorted({_python_text(t) for t in wheel.tags}))
            here = (f"Python {env_py[0]}.{env_py[1]} ({env.interpreter_tag})" if env_py
                    else f"an unknown Python ({env.interpreter_tag or 'no tag'})")
            problems.append(Mismatch(MismatchKind.PYTHON,
                                     f"Built for {built}; the target is {here}."))
        if not plat_ok:
            built = _or_join(sorted({t.platform for t in wheel.tags}))
            problems.append(Mismatch(MismatchKind.PLATFORM,
                                     f"Built for {built}; the target platform is {env_plat}."))
        if py_ok and plat_ok:  # each part fits, but no single tag combines them
            problems.append(Mismatch(MismatchKind.PYTHON,
                                     f"Its tags ({', '.join(sorted(map(str, wheel.tags)))}) "
                                     f"don't fit {env.interpreter_tag} on {env_plat}."))
    torch = env.torch
    if wheel.torch is None or wheel.cuda is None:
        problems.append(Mismatch(MismatchKind.UNKNOWN_BUILD,
                                 "The name doesn't say which PyTorch and CUDA it was built for "
                                 f"({wheel.local or 'no local version label'})."))
    elif torch is None:
        problems.append(Mismatch(MismatchKind.NO_TORCH,
                                 "PyTorch is not installed in the target environment."))
    else:
        env_torch = torch.major_minor
        wheel_torch = f"{wheel.torch[0]}.{wheel.torch[1]}"
        if wheel.torch_and_higher:
            try:
                new_enough = parse_version(env_torch)[:2] >= wheel.torch
            except ValueError:
                new_enough = False
            if not new_enough:
                problems.append(Mismatch(MismatchKind.TORCH,
                                         f"Built for PyTorch {wheel_torch} or newer; the target "
                                         f"has PyTorch {torch.version}."))
        elif env_torch != wheel_torch:
            problems.append(Mismatch(MismatchKind.TORCH,
                                     f"Built for PyTorch {wheel_torch}; the target has PyTorch "
                                     f"{torch.version}."))
        torch_cuda = torch.cuda_version
        if torch_cuda is None:
            problems.append(Mismatch(MismatchKind.TORCH_CPU_ONLY,
                                     f"Built for CUDA ({wheel.cuda_tag}); the target's PyTorch "
                                     f"{torch.version} is a CPU-only build."))
        else:
            rule = cuda_match or (CudaMatch.MAJOR if wheel.official_style or len(wheel.cuda) == 1
                                  else CudaMatch.MAJOR_MINOR)
            wanted = wheel.cuda[:1] if rule is CudaMatch.MAJOR else wheel.cuda
            have = torch_cuda[: len(wanted)]
            if tuple(have) != tuple(wanted):
                shown = (f"CUDA {wanted[0]}" if rule is CudaMatch.MAJOR
                         else "CUDA " + ".".join(map(str, wheel.cuda)))
                problems.append(Mismatch(MismatchKind.CUDA,
                                         f"Built for {shown} ({wheel.cuda_tag}); the target's "
                                         f"PyTorch uses CUDA {torch_cuda[0]}.{torch_cuda[1]}."))
        if wheel.cxx11_abi is not None and env_plat.startswith("linux") and (
                wheel.cxx11_abi != torch.cxx11_abi):
            def flag(on: bool) -> str:
                return f"cxx11abi{'TRUE' if on else 'FALSE'}"

            built_on = "on" if wheel.cxx11_abi else "off"
            here_on = "on" if torch.cxx11_abi else "off"
            problems.append(Mismatch(MismatchKind.CXX11_ABI,
                                     f"Built with the C++11 ABI {built_on} "
                                     f"({flag(wheel.cxx11_abi)}); the target's PyTorch has it "
                                     f"{here_on} ({flag(torch.cxx11_abi)})."))
    return WheelMatch(wheel_name, wheel, tuple(problems))


def _or_join(items: Iterable[str]) -> str:
    seq = list(items)
    return seq[0] if len(seq) == 1 else ", ".join(seq[:-1]) + " or " + seq[-1]


def official_wheel_filename(
    source: WheelSource, recipe: Recipe, version: RecipeVersion, env: PythonEnv
) -> str | None:
    """The file name upstream's setup.py would look for in this environment, or None when the
    version publishes no wheel for PyTorch's CUDA major (or torch/CUDA/Python are unknown)."""
    torch = env.torch
    if source.filename is None or torch is None or not env.interpreter_tag:
        return None
    cuda = torch.cuda_version
    if cuda is None or cuda[0] not in version.wheel_cuda:
        return None
    return source.filename.format(
        version=version.version,
        cuda=version.wheel_cuda[cuda[0]],
        torch=torch.major_minor,
        cxx11abi="TRUE" if torch.cxx11_abi else "FALSE",
        python=env.interpreter_tag,
        platform=env.platform_tag or "",
    )


def _listed(version: RecipeVersion, env: PythonEnv) -> bool:
    matrix = version.official_wheels
    torch = env.torch
    py = _python_version(env.interpreter_tag)
    if matrix is None or torch is None or py is None:
        return False
    try:
        torch_v = parse_version(torch.major_minor)
    except ValueError:
        return False
    return (py in matrix.python and torch_v in matrix.torch
            and (env.platform_tag or "") in matrix.platforms)


def candidate_wheel_urls(
    recipe: Recipe, version: RecipeVersion, env: PythonEnv
) -> list[WheelCandidate]:
    """Prebuilt wheels of this version that fit ``env``: upstream's computed URL, then the
    community's matching assets. Listed candidates (in upstream's build matrix, or a known
    asset) come first; an unlisted official URL may well be a 404 — the download says so.
    Empty when PyTorch is missing or CPU-only, or no source serves this OS."""
    env_os = OsName.parse(env.platform_tag or "")
    found: list[WheelCandidate] = []
    if env.torch is None or env.torch.cuda_version is None:
        return found
    for source in recipe.wheel_sources:
        if env_os is None or (source.os and env_os not in source.os):
            continue
        if source.kind is WheelSourceKind.OFFICIAL:
            filename = official_wheel_filename(source, recipe, version, env)
            if filename is None:
                continue
            result = match(filename, env, cuda_match=source.cuda_match)
            if not result.matched:
                continue
            published = _wheel_list(source)
            entry = published.find(filename) if published is not None else None
            if published is not None and published.complete:
                if entry is None:
                    continue  # the publisher's whole list has no such wheel: a sure 404
                listed = True
            else:
                listed = entry is not None or _listed(version, env)
            found.append(WheelCandidate(
                url=entry.url if entry is not None else source.url.format(
                    tag=version.tag or f"v{version.version}", version=version.version,
                    filename=filename),
                filename=filename,
                source_id=source.id,
                source_kind=source.kind,
                source_name=source.name,
                match=result,
                listed=listed,
                note=source.note or ("" if listed else
                                     "Not in the release's build matrix: it may not exist."),
                sha256=entry.sha256 if entry is not None else None,
                size=entry.size if entry is not None else None,
            ))
            continue
        for published_wheel in _community_wheels(source):
            try:
                wheel = parse_wheel_name(published_wheel.filename)
            except ValueError:
                continue
            if wheel.base_version != version.version or (
                    recipe.package and canonicalize_name(wheel.distribution)
                    != canonicalize_name(recipe.package)):
                continue  # another version, or another package of the same publisher
            result = match(published_wheel.filename, env, cuda_match=source.cuda_match)
            if result.matched:
                found.append(WheelCandidate(
                    url=published_wheel.url,
                    filename=published_wheel.filename,
                    source_id=source.id,
                    source_kind=source.kind,
                    source_name=source.name,
                    match=result,
                    listed=True,
                    note=source.note,
                    sha256=published_wheel.sha256,
                    size=published_wheel.size,
                ))
    torch_cuda = env.torch.cuda_version

    order = {source.id: i for i, source in enumerate(recipe.wheel_sources)}

    def rank(c: WheelCandidate) -> tuple[bool, bool, int, int]:
        exact = c.match.wheel is not None and c.match.wheel.cuda == torch_cuda
        return (not c.listed, not exact, order.get(c.source_id, len(order)),
                -build_number(c.match.wheel))

    # listed first, then an exact CUDA major.minor, then the recipe's order of sources, and of
    # one publisher its newest build of the version first (woct0rdho's .post6 before .post4:
    # later posts fix bugs)
    found.sort(key=rank)
    return found


_BUILD_NUMBER_RE = re.compile(r"(?:^|\.)post(\d+)$|^(\d{8})\.")


def build_number(wheel: WheelName | None) -> int:
    """How new a publisher's build of one version is, from its local label: ``.postN``
    (woct0rdho) or a leading build date (windreamer's ``20260318.``); 0 when it says neither."""
    m = _BUILD_NUMBER_RE.search(wheel.local or "") if wheel is not None else None
    if m is None:
        return 0
    return int(m.group(1) or m.group(2))


def has_listed_wheel(recipe: Recipe, version: RecipeVersion, env: PythonEnv) -> bool:
    """Whether a published wheel of ``version`` (one its publisher lists, not a computed
    address that may be a 404) fits ``env``: it installs without compiling."""
    return any(c.listed for c in candidate_wheel_urls(recipe, version, env))


def proposed_version(recipe: Recipe, preferred: RecipeVersion, env: PythonEnv,
                     fits: Callable[[RecipeVersion], bool]) -> RecipeVersion:
    """The version to propose: ``preferred`` (the one marked for this OS, else the newest that
    fits) when a published wheel of it fits ``env``; else the newest version that ``fits`` and
    has one (building FlashAttention 2 takes 14 minutes on 32 cores and hours on a laptop, and
    the versions marked for Windows are those that compile with MSVC, which a wheel does not
    need); else ``preferred``, built from source."""
    if not recipe.wheel_sources or has_listed_wheel(recipe, preferred, env):
        return preferred
    for version in reversed(recipe.versions):
        if version is not preferred and fits(version) and has_listed_wheel(recipe, version,
                                                                            env):
            return version
    return preferred


def _wheel_list(source: WheelSource) -> WheelList | None:
    """The source's wheel list when it names one and the list was read (None otherwise)."""
    if source.wheel_list is None:
        return None
    listed = load_wheel_list(source.wheel_list)
    return listed if listed.wheels is not None else None


def _community_wheels(source: WheelSource) -> tuple[PublishedWheel, ...]:
    """A community source's wheels: its publisher's list, else the assets the recipe names."""
    if source.wheel_list is not None:
        listed = load_wheel_list(source.wheel_list)
        return listed.wheels or ()
    return tuple(PublishedWheel(filename=asset.split("/", 1)[1],
                                url=source.url.format(asset=asset))
                 for asset in source.assets)


def candidate_from_url(url: str, recipe: Recipe, env: PythonEnv) -> WheelCandidate:
    """A wheel named by its address, matched against ``env`` like the catalog's wheels; it must
    also be a wheel of the recipe's package. ``match.mismatches`` says what does not fit.

    A published digest may follow as pip writes it: ``…/name.whl#sha256=<64 hex digits>``."""
    parts = urlsplit(url)
    digest = _FRAGMENT_SHA256.fullmatch(parts.fragment)
    address = parts._replace(fragment="").geturl() if parts.fragment else url
    filename = unquote(parts.path.rsplit("/", 1)[-1])
    result = match(filename, env)
    wheel = result.wheel
    if wheel is not None and recipe.package and \
            canonicalize_name(wheel.distribution) != canonicalize_name(recipe.package):
        wrong = Mismatch(MismatchKind.PACKAGE,
                         f"It is a wheel of {wheel.distribution}, not of {recipe.name} "
                         f"({recipe.package}).")
        result = WheelMatch(filename, wheel, (wrong, *result.mismatches))
    if parts.fragment and digest is None:
        result = WheelMatch(filename, wheel, (*result.mismatches, Mismatch(
            MismatchKind.NOT_A_WHEEL,
            f"The part after '#' is not a digest the wizard can check ({parts.fragment}); "
            "write it as #sha256=<64 hex digits>.")))
    return WheelCandidate(url=address, filename=filename, source_id="address",
                          source_kind=WheelSourceKind.COMMUNITY,
                          source_name="the address you gave", match=result, listed=True,
                          note="A wheel from the address you gave.",
                          sha256=digest.group(1).lower() if digest else None)
