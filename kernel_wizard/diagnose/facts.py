"""Facts a build log shows (OS, CUDA and MSVC versions), read off the lines around a match,
and the advice that depends on them (the "Visual Studio too new" advice names the MSVC
toolsets that the CUDA version in the log accepts)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.machine.toolchain import msc_ver_for_toolset


@dataclass(frozen=True)
class LogFacts:
    """What some lines of a log say about the machine; None/False where they say nothing."""

    windows: bool = False
    linux: bool = False
    cuda: tuple[int, int] | None = None  # (major, minor)
    msc_ver: int | None = None  # the MSVC in use, as _MSC_VER (1944 for MSVC 14.44)

    def merged(self, other: LogFacts) -> LogFacts:
        return LogFacts(
            windows=self.windows or other.windows,
            linux=self.linux or other.linux,
            cuda=self.cuda if self.cuda is not None else other.cuda,
            msc_ver=self.msc_ver if self.msc_ver is not None else other.msc_ver,
        )

    def satisfies(self, requirement: str) -> bool:
        if requirement == "windows":
            return self.windows
        if requirement == "linux":
            return self.linux
        found = re.match(r"cuda(>=|<)(\d+)\.(\d+)$", requirement)
        if found is None or self.cuda is None:
            return False
        bound = (int(found.group(2)), int(found.group(3)))
        return self.cuda >= bound if found.group(1) == ">=" else self.cuda < bound


# CUDA\v12.4 (Windows, also with doubled backslashes), cuda-12.4 (Linux), nvcc's "release 12.4, V",
# and a folder named after the version without a dot (E:\Cuda112, /opt/cuda118: 11.2, 11.8).
_CUDA_VERSION = re.compile(
    r"(?i:CUDA[\\/]+v(\d+)\.(\d+)(?!\d)|\bcuda-(\d+)\.(\d+)(?!\d)|\brelease (\d+)\.(\d+), V\d"
    r"|(?:^|[\\/:])cuda_?(1\d)(\d)(?![\d.]))"
)
# MSVC\14.44.35207 in a path, or cl's banner "Compiler Version 19.44.35207".
_MSVC_VERSION = re.compile(r"(?i:\bMSVC[\\/]+14\.(\d+)\.\d+|Compiler Version 19\.(\d+)\.\d+)")
# A Windows drive letter starting a path ("C:\\x", "D:/x"), also the diagnoser's sign of Windows
DRIVE = re.compile(r"(?:^|[\s\"'(=])[A-Za-z]:[\\/]")
_WINDOWS_HINT = re.compile(
    DRIVE.pattern + r"|\bwin(?:-amd64|_amd64|32)\b|\.(?:exe|obj|pyd|vcxproj)\b"
)
_LINUX_HINT = re.compile(r"(?:^|[\s\"'(=])/(?:usr|home|opt|tmp|root|mnt)/|linux-x86_64|\.so\b"
                         r"|\bmanylinux\w*_(?:x86_64|aarch64)\b")  # a Linux wheel pip chose


def read_facts(lines: Iterable[str]) -> LogFacts:
    """The facts that ``lines`` show (the first CUDA and MSVC version found)."""
    windows = linux = False
    cuda: tuple[int, int] | None = None
    msc_ver: int | None = None
    for line in lines:
        windows = windows or _WINDOWS_HINT.search(line) is not None
        linux = linux or _LINUX_HINT.search(line) is not None
        if cuda is None and (found := _CUDA_VERSION.search(line)) is not None:
            major, minor = (g for g in found.groups() if g is not None)
            cuda = (int(major), int(minor))
        if msc_ver is None and (found := _MSVC_VERSION.search(line)) is not None:
            minor_text = found.group(1) or found.group(2)
            msc_ver = msc_ver_for_toolset((14, int(minor_text)))
    return LogFacts(windows=windows, linux=linux, cuda=cuda, msc_ver=msc_ver)


# The upper _MSC_VER bound (exclusive) in CUDA's host_config.h, from the first CUDA release with
# that bound. Read off real headers (tests/data/host_config): 11.0 → 1930; 11.8 and 12.1 → 1940;
# 12.4, 12.6, 12.8, 13.0 → 1950. CUDA 11.6 is the first to accept Visual Studio 2022.
_MSVC_UPPER_BOUNDS: tuple[tuple[tuple[int, int], int], ...] = (
    ((11, 0), 1930),
    ((11, 6), 1940),
    ((12, 4), 1950),
)


def msvc_bound_for_cuda(cuda: tuple[int, int]) -> int | None:
    """The newest _MSC_VER + 1 that this CUDA's host_config.h accepts, if known."""
    bound: int | None = None
    for first_release, upper in _MSVC_UPPER_BOUNDS:
        if cuda >= first_release:
            bound = upper
    return bound


def _msvc_too_new_advice(facts: LogFacts) -> str | None:
    """What to do about C1189 "unsupported Microsoft Visual Studio version", for the CUDA version
    the log shows; None when the log shows none (the generic advice applies)."""
    if facts.cuda is None:
        return None
    bound = msvc_bound_for_cuda(facts.cuda)
    if bound is None:
        return None
    cuda = f"{facts.cuda[0]}.{facts.cuda[1]}"
    yours: str = ""
    if facts.msc_ver is not None:
        yours = msg(" (the compiler here is MSVC 14.{minor}, _MSC_VER {msc_ver})",
                    minor=facts.msc_ver - 1900, msc_ver=facts.msc_ver)
    last_resort = N_(
        "The nvcc flag -allow-unsupported-compiler skips the check, but is a last resort: the "
        "build or the kernel may then fail or compute wrong results."
    )
    advice: Msg
    if bound <= 1930:
        advice = msg(
            "CUDA {cuda} accepts Visual Studio 2017 and 2019 only (MSVC up to 14.29, _MSC_VER "
            "below {bound}){yours}. Build with the Visual Studio 2019 toolset 14.29 (Build Tools "
            'for Visual Studio 2019, or the "MSVC v142 - VS 2019 C++ build tools" component of '
            "Visual Studio 2022, selected with vcvarsall -vcvars_ver=14.29), or install CUDA 12.4 "
            "or newer together with the matching PyTorch.", cuda=cuda, bound=bound, yours=yours)
    elif bound <= 1940:
        advice = msg(
            "CUDA {cuda} accepts MSVC up to 14.39 (_MSC_VER below {bound}){yours}: Visual Studio "
            "2022 17.10 and later bring MSVC 14.40 or newer, which it rejects (and whose C++ "
            "library needs CUDA 12.4 anyway). Install CUDA 12.4 or newer together with the "
            "matching PyTorch, or build with an older toolset installed side by side: 14.39 "
            "(vcvarsall -vcvars_ver=14.39) or, for CUDA 11.x, the Visual Studio 2019 toolset "
            "14.29.", cuda=cuda, bound=bound, yours=yours)
    else:
        advice = msg(
            "CUDA {cuda} accepts MSVC up to 14.4x (_MSC_VER below {bound}){yours}: Visual Studio "
            "2026 (MSVC 14.50 and newer) is too new for it. Build with the Visual Studio 2022 "
            "toolset (Build Tools for Visual Studio 2022, vcvarsall -vcvars_ver=14.44), or install "
            "a CUDA version that supports your Visual Studio.", cuda=cuda, bound=bound,
            yours=yours)
    return join([advice, last_resort])


_BARE_VERSION = re.compile(r"\d+(?:\.\d+)*\+?")
_BOUND = re.compile(r"(>=|~=|>|==)\s*(\d[\w.]*)")


def floor_words(required: str) -> str:
    """A version requirement in words: a bare version or ">=" is a floor ("5 or newer", never
    "5"), ">" says "newer than", "==" says "exactly"; anything else is kept as it is."""
    text = required.strip()
    if _BARE_VERSION.fullmatch(text) is not None:
        return msg("{version} or newer", version=text.rstrip("+"))
    bound = _BOUND.fullmatch(text)
    if bound is None:
        return required
    version = bound.group(2)
    if bound.group(1) in (">=", "~="):
        return msg("{version} or newer", version=version)
    if bound.group(1) == ">":
        return msg("newer than {version}", version=version)
    return msg("exactly {version}", version=version)


def worded_facts(cause_id: str, shown: dict[str, str], lines: Iterable[str]) -> dict[str, str]:
    """The facts a matched line showed, worded for a person who is not an expert: a version
    requirement as a floor ("GCC 5 or newer"), "C compiler" as the product that is one on the
    log's platform (Visual Studio Build Tools (MSVC) on Windows)."""
    worded = dict(shown)
    if cause_id == "tool-version-required" and "required" in worded:
        worded["required"] = floor_words(worded["required"])
    if worded.get("tool", "").lower() == "c compiler":
        facts = read_facts(lines)
        worded["tool"] = (N_("Visual Studio Build Tools (MSVC), the C compiler on Windows")
                          if facts.windows else N_("a C compiler (gcc or clang)"))
    return worded


# Signatures whose advice depends on the facts around the match.
ADVISERS: dict[str, Callable[[LogFacts], str | None]] = {
    "msvc-too-new-for-cuda": _msvc_too_new_advice,
}

