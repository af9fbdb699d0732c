"""The CUDA toolkit: its version (``nvcc --version``, ``version.json``) and the folders that may
hold one (environment variables, folder names)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.machine.toolchain.base import (
    ToolchainParseError,
    Version,
    dotted_text,
    parse_dotted,
    snippet,
    strip_bom,
)

_NVCC_RELEASE = re.compile(r"release (\d+)\.(\d+), V(\d+(?:\.\d+)*)")
_NVCC_BUILD = re.compile(r"^Build (\S+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class CudaVersion:
    """A CUDA toolkit's version as its compiler reports it."""

    major: int
    minor: int
    full: Version  # (12, 4, 131) from "V12.4.131"
    build: str | None = None  # "cuda_12.4.r12.4/compiler.34097967_0"

    @property
    def release(self) -> tuple[int, int]:
        return self.major, self.minor

    @property
    def text(self) -> str:
        """'12.4': what torch calls the CUDA version."""
        return f"{self.major}.{self.minor}"

    @property
    def full_text(self) -> str:
        """'12.4.131'."""
        return dotted_text(self.full)


def parse_nvcc_version(text: str) -> CudaVersion:
    """The version in the output of ``nvcc --version`` (``ptxas --version`` works too).

    Reads ``Cuda compilation tools, release 12.4, V12.4.131`` and the ``Build ...`` line.
    Raises :class:`ToolchainParseError` on anything else, e.g. cmd.exe's "'nvcc' is not
    recognized..." captured instead of nvcc's answer.
    """
    match = _NVCC_RELEASE.search(text)
    if match is None:
        raise ToolchainParseError(
            "nvcc did not report a CUDA version.",
            why=f"its output was {snippet(text)!r}" if text.strip() else "its output was empty",
            hint="Check that this is the nvcc of a CUDA toolkit (…\\CUDA\\vX.Y\\bin\\nvcc.exe or "
            "/usr/local/cuda-X.Y/bin/nvcc); reinstall the toolkit if it does not run.",
        )
    build = _NVCC_BUILD.search(text)
    return CudaVersion(
        major=int(match.group(1)),
        minor=int(match.group(2)),
        full=parse_dotted(match.group(3)),
        build=build.group(1) if build else None,
    )


def parse_cuda_version_json(text: str) -> Version:
    """The toolkit version in ``<cuda>/version.json``: ``{"cuda": {"version": "12.6.3"}}``.

    Full installers write this file; it tells the version without running anything.
    """
    try:
        data = json.loads(strip_bom(text))
        version = data["cuda"]["version"]
        return parse_dotted(version)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        raise ToolchainParseError(
            "The CUDA toolkit's version.json does not name the toolkit version.",
            why=f"it began with {snippet(text)!r}",
            hint="Reinstall the CUDA toolkit, or let the wizard ask nvcc instead.",
        ) from None


# --------------------------------------------------------------------------------------------
# CUDA toolkit folders
# --------------------------------------------------------------------------------------------

_CUDA_FOLDER = re.compile(r"^(?:cuda-|v)(\d+)(?:\.(\d+))?$", re.IGNORECASE)
_CUDA_PATH_VAR = re.compile(r"^CUDA_PATH_V(\d+)_(\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class CudaCandidate:
    """A folder that may hold a CUDA toolkit, with the version its name promises."""

    root: Path
    version: tuple[int, int] | None  # from the folder or variable name; None = unknown
    origin: str  # "CUDA_PATH, CUDA_PATH_V12_4", "folder"


def _last_component(path_text: str) -> str:
    parts = re.split(r"[\\/]+", path_text.strip().rstrip("\\/"))
    return parts[-1] if parts else ""


def cuda_version_from_folder(path: str | Path) -> tuple[int, int] | None:
    """(12, 4) for ``...\\CUDA\\v12.4`` or ``/usr/local/cuda-12.4``; None for ``cuda``,
    ``cuda-12`` (major only) or any other name."""
    match = _CUDA_FOLDER.match(_last_component(str(path)))
    if match is None or match.group(2) is None:
        return None
    return int(match.group(1)), int(match.group(2))


def _is_cuda_folder(path: str | Path) -> bool:
    name = _last_component(str(path))
    return name.lower() == "cuda" or _CUDA_FOLDER.match(name) is not None


def _path_key(path_text: str) -> str:
    text = path_text.strip().rstrip("\\/")
    windows = "\\" in text or re.match(r"^[A-Za-z]:", text) is not None
    return text.replace("/", "\\").casefold() if windows else text


def _merge_candidates(
    entries: Iterable[tuple[str, tuple[int, int] | None, str]],
) -> list[CudaCandidate]:
    merged: dict[str, tuple[str, tuple[int, int] | None, list[str]]] = {}
    for path_text, version, origin in entries:
        key = _path_key(path_text)
        if key in merged:
            first_text, first_version, origins = merged[key]
            origins.append(origin)
            merged[key] = (first_text, first_version or version, origins)
        else:
            merged[key] = (path_text.strip(), version, [origin])
    return [CudaCandidate(Path(t), v, ", ".join(o)) for t, v, o in merged.values()]


def cuda_candidates_from_env(environ: Mapping[str, str]) -> list[CudaCandidate]:
    """CUDA toolkits named by the environment, in the order torch trusts them.

    ``CUDA_HOME``, then ``CUDA_PATH``, then the ``CUDA_PATH_V12_4``-style variables the
    Windows installers set (newest first). The same folder named twice is one candidate with
    both origins. The version comes from the variable name or the folder name.
    """
    entries: list[tuple[str, tuple[int, int] | None, str]] = []
    for name in ("CUDA_HOME", "CUDA_PATH"):
        value = environ.get(name, "").strip()
        if value:
            entries.append((value, cuda_version_from_folder(value), name))
    versioned: list[tuple[tuple[int, int], str, str]] = []
    for name, value in environ.items():
        match = _CUDA_PATH_VAR.match(name)
        if match and value.strip():
            versioned.append(((int(match.group(1)), int(match.group(2))), name.upper(), value))
    for version, name, value in sorted(versioned, reverse=True):
        entries.append((value, version, name))
    return _merge_candidates(entries)


def cuda_candidates_from_folders(paths: Iterable[str | Path]) -> list[CudaCandidate]:
    """The CUDA toolkit folders among ``paths`` (e.g. a listing of ``/usr/local`` or of
    ``C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA``), versioned newest first,
    then the unversioned ones (``/usr/local/cuda``, ``cuda-12``) in their given order."""
    entries = [(str(p), cuda_version_from_folder(p), "folder") for p in paths if _is_cuda_folder(p)]
    candidates = _merge_candidates(entries)
    versioned = sorted(
        (c for c in candidates if c.version is not None),
        key=lambda c: c.version or (0, 0),
        reverse=True,
    )
    return versioned + [c for c in candidates if c.version is None]


def cccl_include_dir(cuda_root: Path, version: tuple[int, int] | CudaVersion) -> Path | None:
    """``<cuda>/include/cccl`` for CUDA 13 and later, when it exists; None otherwise.

    CUDA 13 moved the CCCL headers (``cuda/std/...``) there. nvcc finds them, but the host
    compiler building a torch extension's .cpp files does not, so the build adds this folder
    to the host include path.
    """
    release = version.release if isinstance(version, CudaVersion) else version
    if release < (13, 0):
        return None
    folder = cuda_root / "include" / "cccl"
    return folder if folder.is_dir() else None

