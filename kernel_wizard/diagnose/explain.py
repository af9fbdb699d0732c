"""``explain``: any saved log of a failed build, install or import, explained.

For failures outside the wizard (a ``pip install flash-attn`` that failed in a terminal, a
ComfyUI node that failed to load): the log is streamed through :class:`~.matcher.LogDiagnoser`
(never held whole), and besides the diagnosis a few plain markers are watched that show a
failure even where no line reads like a compiler's error and no exit code ends the log: a Python
traceback, ``Illegal instruction``, a ``CalledProcessError``, "command ... failed", "returned
non-zero exit status", pip's ``subprocess-exited-with-error``, a compiler's exit status
(``exit status 1``, ``ninja: build stopped``, "failed with exit code N"). A log that holds one of
them is never called clean.

The explanation names the first error line verbatim, where the log stopped (the report's
``family``, where the diagnoser gives one), the specific cause when the diagnoser knows it, the
next step, and a search link for the first error line in the failing package's own issue
tracker (a general GitHub search for a package not listed here), with local paths and hex
addresses taken out of the query.

Any encoding: a byte-order mark (UTF-8, UTF-16, UTF-32) is honoured, UTF-16 without one is
recognised by its zero bytes, and a line that is not UTF-8 is read as GB18030 (Chinese Windows)
when it reads as such, else as Windows-1252. JSON: schema ``ksw.explain/1``
(docs/explain-schema.md).
"""

from __future__ import annotations

import codecs
import io
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote_plus

from kernel_wizard.base.messages import N_, msg
from kernel_wizard.diagnose.matcher import DiagnosisReport, LogDiagnoser

SCHEMA = "ksw.explain/1"
MAX_QUERY_CHARS = 120  # the search query: enough words to find the thread, not a whole line
_READ_LIMIT = 1 << 20  # a line longer than this is cut (its rest is skipped, not kept)

UNKNOWN_ADVICE = N_("The cause is not one the wizard knows. Search the first error line in the "
                    "package's issues (the link below); when you ask for help, attach the "
                    "whole log.")
NO_FAILURE = N_("No failure found in this log.")
FAILED_NO_LINE = N_("The log shows a failure, but no line that says why.")

# --------------------------------------------------------------------------------------------
# What makes a log "failed" even where no line reads like an error
# --------------------------------------------------------------------------------------------

_MARKER = re.compile(
    r"""(?ix)
      Traceback\s+\(most\s+recent\s+call\s+last\)
    | \bIllegal\s+instruction\b
    | \bCalledProcessError\b
    | \bcommand\b.*\bfailed\b
    | \breturned\s+non-zero\s+exit\s+status\b
    | \bsubprocess-exited-with-error\b
    | \bexit\s+(?:status|code)\s*:?\s*[1-9]\d*
    | \bexited\s+with\s+(?:code\s+)?[1-9]
    | ^\s*ninja:\s+build\s+stopped\b
    | \bfailed\s+with\s+exit\s+(?:code|status)\b
    | ^\s*FAILED:\s
    | \bFailed\s+(?:to\s+build|building\s+(?:wheel|editable)\s+for)\b
    | \bSegmentation\s+fault\b | \bcore\s+dumped\b
    | ^\s*Killed\s*$
    | \bdid\s+not\s+run\s+successfully\b
    | ^\s*File\s+"[^"]+",\s+line\s+\d+,\s+in\s        # a traceback's frame, its header cut off
    | \bNo\s+rule\s+to\s+make\s+target\b | \bmake(?:\[\d+\])?:\s+\*\*\*
    | ^\W*[=-]{3,}\s*ERROR\s*[=-]{3,}\W*$                # a banner ("=====ERROR=====")
    | \blibrary\b.*\bnot\s+found:\s                       # "Required library ... not found: x.so"
    | \(IMPORT\s+FAILED\) | \bCannot\s+import\b.*\bmodule\s+for\s+custom\s+nodes\b  # ComfyUI
    | \bthread\s+'[^']*'\s+panicked\s+at\b            # a Rust panic (its message follows)
    | ^\s*┌\s*Error:\s                                  # Julia's logger (its message below)
    # (late sets o-t, once called clean) the interpreter aborting, an exception of an errors
    # module behind a log prefix (Triton's "OutOfResources"), a CUDA library's status and the
    # runtime's numbered error, MSBuild's nvcc step in any language, a check that failed to
    # compile, .NET not loading a DLL, CMake's compiler identification failing
    | ^\s*Fatal\s+Python\s+error\s*:
    | \b(?:[a-z_]\w*\.)+errors\.[A-Z]\w*:
    | \bCU(?:BLAS|DNN|SPARSE|FFT|SOLVER|RAND)_STATUS_(?!SUCCESS\b)[A-Z_]+\b
    | \bCUDA\s+error\s+\d+\s+at\b
    | \berror\s+MSB\d{4}\b
    | \bfailed\s+to\s+compile\b
    | \bUnable\s+to\s+load\s+DLL\b
    | \bidentification\s+source\s+file\b.*\bfailed\b
    # (late set u) PyTorch's JIT build failing, quoted with its command after it (a wrapper,
    # never the diagnosis's first error), and a package that says it failed to import
    # ("Failed to import CuPy.")
    | \bError\s+building\s+extension\b
    | ^\W{0,3}\s*Failed\s+to\s+import\s+\w
    """
)
_MARKER_WORDS = ("traceback", "illegal instruction", "calledprocesserror", "failed",
                 "non-zero", "subprocess-exited", "exit", "build stopped", "segmentation",
                 "core dumped", "killed", "did not run", "file \"", "no rule", "make", "error",
                 "not found:", "import", "panicked", "fatal python", "errors.", "_status_",
                 "cuda error", "msb", "to compile", "unable to load dll", "identification")
# pip's note on packages already installed that the new ones conflict with: printed as
# "ERROR:" by installs that succeed. It is not the failure of this install.
_BENIGN = re.compile(r"(?i)^\s*ERROR: pip's dependency resolver does not currently take into "
                     r"account")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")

# --------------------------------------------------------------------------------------------
# The failing package and its issue tracker
# --------------------------------------------------------------------------------------------

TRACKERS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("flash-attn", "Dao-AILab/flash-attention",
     re.compile(r"(?i)flash[-_]?attn|flash[-_]attention")),
    ("sageattention", "thu-ml/SageAttention", re.compile(r"(?i)sage[-_]?attention|sageattn")),
    ("flash-mla", "deepseek-ai/FlashMLA", re.compile(r"(?i)flash[-_]?mla")),
    ("deep-ep", "deepseek-ai/DeepEP", re.compile(r"(?i)\bdeep[-_]?ep\b")),
    ("apex", "NVIDIA/apex", re.compile(r"(?i)\bapex\b")),
    ("xformers", "facebookresearch/xformers", re.compile(r"(?i)\bxformers\b")),
    ("causal-conv1d", "Dao-AILab/causal-conv1d", re.compile(r"(?i)causal[-_]conv1d")),
    ("mamba-ssm", "state-spaces/mamba", re.compile(r"(?i)mamba[-_]ssm|selective_scan")),
)
_TRACKER_NEEDLES = ("flash", "sage", "mla", "deep", "apex", "xformers", "conv1d", "mamba",
                    "selective_scan")
# Lines that name the package being installed or built (pip's own words)
_NAMING = re.compile(
    r"(?i)(?:Building (?:wheel|editable) for|Running setup\.py (?:install|develop) for"
    r"|Failed to build|Failed building (?:wheel|editable) for|Collecting|Downloading"
    r"|pip3? install|No module named|Cannot import)\b")

# Local paths (POSIX, Windows, UNC) and hex addresses: nothing to search for
_WIN_PATH = re.compile(  # a space inside one when the next word goes on with a backslash
    r"(?:\\\\\?\\)?(?:\b[A-Za-z]:[\\/]|(?<!\w)(?=\S*\\\S*\\))"
    r"(?:[^\s\"'<>|:*?]| (?=(?:[^\s\\/\"']+ ){0,3}[^\s\\/\"']*\\))*")
_POSIX_PATH = re.compile(r"(?<![\w.])(?:~|\.{1,2})?(?:/[^\s\"'<>|:()]+){2,}/?")
_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b|\b[0-9a-fA-F]{12,}\b")
_LOCATION = re.compile(r"^[:(]\d+(?:[:,]\d+)?\)?")  # ":12:5" or "(12)" after a file name


def search_query(line: str, limit: int = MAX_QUERY_CHARS) -> str:
    """The words of an error line worth searching for: paths cut to their file name (without
    the line and column), hex addresses taken out, spaces squeezed, cut at a word boundary."""
    text = _ANSI.sub("", line).strip()

    def base(match: re.Match[str]) -> str:
        """A path's last part where it names something (a file, a package's folder such as
        ComfyUI-WanVideoWrapper), never a home folder (a user's name)."""
        parts = [p for p in re.split(r"[\\/]", match.group(0)) if p]
        name = parts[-1] if parts else ""
        home = len(parts) >= 2 and parts[-2].lower() in ("home", "users", "user")
        return f" {name} " if not home and ("." in name or "-" in name) else " "

    text = _WIN_PATH.sub(base, text)
    text = _POSIX_PATH.sub(base, text)
    # a location right after a file name ("x.cu(12): error", "x.cpp:12:5: error") is local
    text = re.sub(r"(\S)\s*(?:\(\d+\)|:\d+(?::\d+)?)(?=:|\s|$)", r"\1", text)
    text = _HEX.sub(" ", text)
    text = re.sub(r"\(\s*\+?\s*\)", " ", text)
    text = re.sub(r"\s+", " ", text).strip(" :")
    if len(text) > limit:
        cut = text[:limit]
        space = cut.rfind(" ")
        text = cut[:space] if space > limit // 2 else cut
    return text


def search_url(line: str, repo: str | None, package: str | None = None) -> str:
    """A GitHub issue search for ``line`` in ``repo``'s tracker, or across GitHub (with the
    package's name in front, where the log names one)."""
    query = search_query(line)
    if repo:
        return f"https://github.com/{repo}/issues?q={quote_plus('is:issue ' + query)}"
    if package and package.lower() not in query.lower():
        query = f"{package} {query}"
    return f"https://github.com/search?q={quote_plus(query)}&type=issues"


_NAMED = re.compile(
    r"(?:Building (?:wheel|editable) for|Running setup\.py (?:install|develop) for"
    r"|Failed to build|Failed building (?:wheel|editable) for)\s+([A-Za-z0-9][\w.-]*)")


class _PackageSpotter:
    """Which listed package a log is about: named by pip's own lines (strong), near the first
    error (see :meth:`best`), or anywhere (weak); and the first package pip names at all."""

    def __init__(self) -> None:
        self.scores: dict[str, int] = {}
        self.named: str | None = None  # pip's "Building wheel for x" / "Failed to build x"

    def feed(self, text: str, weight: int = 1) -> None:
        if weight == 1 and ("uild" in text or "setup.py" in text):
            found = _NAMED.search(text)
            if found is not None and (self.named is None or text.lstrip().startswith("Failed")):
                self.named = found.group(1).rstrip(".")
        low = text.lower()
        if not any(n in low for n in _TRACKER_NEEDLES):
            return
        strong = _NAMING.search(text) is not None
        for name, _repo, pattern in TRACKERS:
            if pattern.search(text) is not None:
                self.scores[name] = self.scores.get(name, 0) + (weight * 10 if strong else weight)

    def best(self) -> tuple[str, str] | None:
        if not self.scores:
            return None
        name = max(self.scores, key=lambda n: self.scores[n])
        return name, next(repo for n, repo, _ in TRACKERS if n == name)


# --------------------------------------------------------------------------------------------
# Reading any encoding, streamed
# --------------------------------------------------------------------------------------------

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
_CJK = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")


def _sniff(head: bytes) -> str | None:
    """A whole-file encoding told by a BOM or by UTF-16's zero bytes; None: line by line."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    sample = head[:4096]
    if len(sample) >= 4:
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        if odd > len(sample) // 4 and even < odd // 8:
            return "utf-16-le"
        if even > len(sample) // 4 and odd < even // 8:
            return "utf-16-be"
    return None


def _decode_line(raw: bytes, legacy: str | None = None) -> tuple[str, str]:
    """One line of a log without a whole-file encoding: UTF-8, else the legacy code page the
    log's earlier lines were read with, else GB18030 where the line reads as Chinese (two CJK
    characters or more, every run of high bytes in pairs), else Windows-1252."""
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if legacy == "cp1252":
        return raw.decode("cp1252", errors="replace"), "cp1252"
    try:
        text = raw.decode("gb18030")
        if legacy == "gb18030":
            return text, "gb18030"
        high = [ch for ch in text if ord(ch) > 0x7F]
        cjk = sum(1 for ch in high if _CJK.match(ch))
        if cjk >= 2 and cjk * 2 >= len(high) \
                and all(len(run) % 2 == 0 for run in re.findall(rb"[\x80-\xff]+", raw)):
            return text, "gb18030"
    except UnicodeDecodeError:
        pass
    return raw.decode("cp1252", errors="replace"), "cp1252"


class _Lines:
    """The lines of a binary stream, decoded; :attr:`encoding` says how (after reading)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self.encoding = "utf-8"

    def __iter__(self) -> Iterator[str]:
        buffered: Any = self._stream if hasattr(self._stream, "peek") \
            else io.BufferedReader(self._stream)
        head = buffered.peek(4096)[:4096]
        whole = _sniff(head)
        if whole is not None:
            self.encoding = whole.replace("-sig", "")
            text = io.TextIOWrapper(buffered, encoding=whole, errors="replace", newline="")
            for line in iter(lambda: text.readline(_READ_LIMIT), ""):
                yield line
            return
        legacy: str | None = None  # the code page of the first line that is not UTF-8
        while True:
            raw = buffered.readline(_READ_LIMIT)
            if not raw:
                break
            if not raw.endswith(b"\n") and len(raw) >= _READ_LIMIT:
                while True:  # the rest of an overlong line is skipped
                    rest = buffered.readline(_READ_LIMIT)
                    if not rest or rest.endswith(b"\n"):
                        break
            line, used = _decode_line(raw, legacy)
            if used != "utf-8" and legacy is None:
                legacy = self.encoding = used
            yield line


# --------------------------------------------------------------------------------------------
# The explanation
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Explanation:
    """What a log shows: whether it failed, its first error line verbatim, where it stopped,
    the specific cause if known, the next step and a search link."""

    failed: bool
    first_error: str | None
    first_error_line: int | None  # 1-based
    family: str | None  # where the log stopped (the report's family id), when known
    family_title: str | None  # it completes "Stopped while ..."
    cause_id: str | None
    cause: str | None  # the specific cause's title, when the diagnoser is sure
    why: str | None
    advice: str | None
    search_url: str | None
    package: str | None  # the failing package, when the log names a listed one
    tracker: str | None  # its GitHub repository ("Dao-AILab/flash-attention")
    lines: int
    encoding: str
    notes: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 0

    def headline(self) -> str:
        if not self.failed:
            return NO_FAILURE
        if self.first_error is None:
            return FAILED_NO_LINE
        return msg("First error (line {number}):", number=self.first_error_line)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "failed": self.failed,
            "first_error": self.first_error,
            "first_error_line": self.first_error_line,
            "family": self.family,
            "family_title": self.family_title,
            "cause": None if self.cause_id is None else {
                "id": self.cause_id, "title": self.cause, "why": self.why},
            "advice": self.advice,
            "search_url": self.search_url,
            "package": self.package,
            "tracker": self.tracker,
            "lines": self.lines,
            "encoding": self.encoding,
            "notes": list(self.notes),
        }

    def describe(self) -> str:
        """Plain text for the CLI."""
        parts = [self.headline()]
        if self.first_error is not None:
            parts.append(f"  {self.first_error.strip()}")
        if self.failed:
            if self.family_title is not None:
                parts.append(msg("Stopped while {family}.", family=self.family_title))
            if self.cause is not None:
                parts.append(msg("Cause: {cause}", cause=self.cause))
                if self.why:
                    parts.append(msg("Why: {why}", why=self.why))
            if self.advice:
                parts.append(msg("Next step: {advice}", advice=self.advice))
            if self.search_url is not None:
                where = (msg("Search for it in {repo}'s issues:", repo=self.tracker)
                         if self.tracker else N_("Search for it on GitHub:"))
                parts.append(f"{where}\n  {self.search_url}")
        parts.extend(self.notes)
        return "\n".join(parts)


def _family_of(report: DiagnosisReport) -> tuple[str, str, str, str] | None:
    """The report's family (issue 31: where the log stopped) as its id, title, next step and
    what stopping there usually means; None where the report has none."""
    family = report.family
    if family is None:
        return None
    return family.id, family.title, family.next_step, family.usually


def explain_lines(lines: Iterable[str], encoding: str = "utf-8") -> Explanation:
    """Explain a whole log given as lines (streamed: nothing but a few lines is kept)."""
    diagnoser = LogDiagnoser()
    spotter = _PackageSpotter()
    marker: tuple[str, int] | None = None
    benign = 0
    number = 0
    for line in lines:
        number += 1
        text = line.rstrip("\r\n")
        if "\x1b" in text:
            text = _ANSI.sub("", text)
        if _BENIGN.match(text) is not None:
            benign += 1
            diagnoser.feed("")  # keeps the diagnoser's line numbers the file's
            continue
        diagnoser.feed(text)
        spotter.feed(text)
        if marker is None:
            low = text.lower()
            if any(w in low for w in _MARKER_WORDS) and _MARKER.search(text) is not None:
                marker = (text, number)
    report = diagnoser.summary()
    failed = (report.first_error is not None or marker is not None
              or any(True for _ in report.errors))
    if failed and report.first_error is None:
        report = diagnoser.summary(failed=True)
    first_text: str | None = None
    first_number: int | None = None
    if report.first_error is not None:
        first_text, first_number = report.first_error.line, report.first_error.line_number
        for near in (*report.first_error.context_before, report.first_error.line,
                     *report.first_error.context_after):
            spotter.feed(near, weight=5)
    elif marker is not None:
        first_text, first_number = marker
    elif failed and report.primary is not None:
        first_text, first_number = report.primary.line, report.primary.line_number
    notes: list[str] = []
    if benign:
        notes.append(N_("pip said that packages installed before conflict with the new ones "
                        "(\"pip's dependency resolver does not currently take into account "
                        "...\"): that is a note, not a failure of this install."))
    if not failed:
        return Explanation(False, None, None, None, None, None, None, None, None, None, None,
                           None, number, encoding, tuple(notes))
    family = _family_of(report)
    primary = report.primary
    if primary is not None:
        advice: str = primary.fix
    elif family is not None and family[2]:
        advice = family[2]
        if family[3]:
            notes.insert(0, msg("The cause is not one the wizard knows. It stopped while "
                                "{family}: that usually means {usually}.",
                                family=family[1], usually=family[3]))
    else:
        advice = UNKNOWN_ADVICE
    found = spotter.best()
    package, repo = found if found is not None else (spotter.named, None)
    url = search_url(first_text, repo, package) if first_text else None
    return Explanation(
        failed=True,
        first_error=first_text,
        first_error_line=first_number,
        family=family[0] if family is not None else None,
        family_title=(family[1] or None) if family is not None else None,
        cause_id=(primary.cause_id or primary.signature_id) if primary is not None else None,
        cause=primary.title if primary is not None else None,
        why=primary.cause if primary is not None else None,
        advice=advice,
        search_url=url,
        package=package,
        tracker=repo,
        lines=number,
        encoding=encoding,
        notes=tuple(notes),
    )


def explain_stream(stream: IO[bytes]) -> Explanation:
    """Explain a log read from a binary stream (a file, stdin), in any encoding."""
    lines = _Lines(stream)
    result = explain_lines(lines)
    return _with_encoding(result, lines.encoding)


def explain_file(path: Path | str) -> Explanation:
    """Explain a saved log file; ``-`` reads standard input."""
    if str(path) == "-":
        return explain_stream(sys.stdin.buffer)
    with Path(path).open("rb") as handle:
        return explain_stream(handle)


def _with_encoding(result: Explanation, encoding: str) -> Explanation:
    return replace(result, encoding=encoding)


__all__ = [
    "SCHEMA",
    "TRACKERS",
    "Explanation",
    "explain_file",
    "explain_lines",
    "explain_stream",
    "search_query",
    "search_url",
]
