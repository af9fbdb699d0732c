"""Build-log diagnosis on real logs: the FlashMLA builds in shared/logs and excerpts of real
failures reported upstream (tests/data/logs, each citing its source thread)."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest

from build_backend.diagnose import (
    MAX_LINE_CHARS,
    DiagnosisReport,
    LogDiagnoser,
    RetryAction,
    Severity,
    default_rules,
    diagnose_file,
    diagnose_lines,
    load_rules,
    required_literal,
)
from build_backend.errors import DiagnosisDataError, WizardError
from build_backend.resources import resource_path

# CI clones the repository with shared/ beside it: <root>/<repo>/tests/unit/this_file.py.
SHARED = Path(__file__).absolute().parents[3] / "shared"
SHARED_LOGS = SHARED / "logs"
EXCERPTS = Path(__file__).resolve().parent.parent / "data" / "logs"

needs_shared_logs = pytest.mark.skipif(
    not SHARED_LOGS.is_dir(),
    reason=f"the real build logs are not at {SHARED_LOGS} "
    "(CI checks out the shared/ folder beside the repository)",
)

CCCL_LOG = "flashmla-cuda13-missing-cccl.log"
OK_LOGS = ["flashmla-sm90-ok.log", "flashmla-default-archs-ok.log"]
PATHSPEC = "error: pathspec 'csrc/cutlass' did not match any file(s) known to git"


def excerpt(name: str) -> list[str]:
    """An excerpt's lines, without its '## ' header (what it is, where it comes from)."""
    text = (EXCERPTS / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if not line.startswith("## ")]


def ids(report: DiagnosisReport, severity: Severity | None = None) -> list[str]:
    return [h.signature_id for h in report.hits if severity is None or h.severity is severity]


# --------------------------------------------------------------------------------------------
# The shipped data
# --------------------------------------------------------------------------------------------


def test_every_row_of_the_failures_table_is_a_signature() -> None:
    rules = default_rules()
    assert sorted(s.row for s in rules.signatures if s.row is not None) == list(range(1, 19))
    assert len({s.id for s in rules.signatures}) == len(rules.signatures) == 18
    retries = {s.id: s.retry for s in rules.signatures if s.retry is not None}
    assert retries == {
        "cccl-headers-missing": RetryAction.ADD_CCCL_INCLUDE,
        "out-of-memory": RetryAction.HALVE_JOBS,
        "flash-attn-wheel-404": RetryAction.FORCE_BUILD,
    }
    assert rules.signature("out-of-memory").row == 8
    with pytest.raises(KeyError):
        rules.signature("no-such-signature")
    for sig in rules.signatures:  # written for people: full sentences, not fragments
        assert sig.cause.endswith(".") and sig.fix.endswith("."), sig.id


def test_every_signature_pattern_has_a_prefilter_needle() -> None:
    # Without one a pattern runs on every line, which costs the speed the build log needs.
    rules = default_rules()
    assert rules.unfiltered == ()
    assert required_literal(re.compile(r"died due to signal 9", re.I)) == "died due to signal 9"
    assert required_literal(re.compile(r"is_(?:unsigned|integral)_v['\"]? is not a member")) == (
        " is not a member"
    )
    assert required_literal(re.compile(r"foo|barbaz")) is None  # nothing every match contains


@pytest.mark.skipif(not (SHARED / "knowledge").is_dir(), reason="shared/knowledge not present")
def test_signature_count_matches_the_knowledge_table() -> None:
    table = (SHARED / "knowledge" / "failures.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \|", table, flags=re.MULTILINE)
    assert [int(r) for r in rows] == sorted(s.row or 0 for s in default_rules().signatures)


def test_shipped_rules_are_loaded_once_from_resources() -> None:
    assert default_rules() is default_rules()
    assert default_rules().source == resource_path("diagnosis", "failures.toml")


# --------------------------------------------------------------------------------------------
# The real FlashMLA logs
# --------------------------------------------------------------------------------------------


@needs_shared_logs
def test_missing_cccl_headers_are_diagnosed_with_the_cccl_retry() -> None:
    report = diagnose_file(SHARED_LOGS / CCCL_LOG)

    cccl = next(h for h in report.hits if h.signature_id == "cccl-headers-missing")
    assert cccl.severity is Severity.ERROR
    assert cccl.retry is RetryAction.ADD_CCCL_INCLUDE
    assert "fatal error: cuda/std/utility: No such file or directory" in cccl.line
    assert report.retry is RetryAction.ADD_CCCL_INCLUDE
    assert report.primary == cccl

    first = report.first_error
    assert first is not None
    assert "fatal error: cuda/std/utility: No such file or directory" in first.line
    assert "pathspec" not in first.line and "ninja: build stopped" not in first.line
    assert first.line_number == 56 == cccl.line_number
    # The lines before it say which file included what: what a person needs to see.
    assert len(first.context_before) == LogDiagnoser().ring_size
    assert any("In file included from" in line for line in first.context_before)
    assert any("compilation terminated" in line for line in first.context_after)
    # Everything else the log shows is a consequence of that one error.
    assert ids(report, Severity.ERROR) == ["cccl-headers-missing"]
    assert ids(report, Severity.INFO) == ["ninja-build-stopped"]
    assert report.lines_seen == len(
        (SHARED_LOGS / CCCL_LOG).read_text(encoding="utf-8").splitlines()
    )


@needs_shared_logs
@pytest.mark.parametrize("name", OK_LOGS)
def test_successful_builds_show_no_error(name: str) -> None:
    log = SHARED_LOGS / name
    assert PATHSPEC in log.read_text(encoding="utf-8")  # the harmless git message is there...
    report = diagnose_file(log)
    assert report.first_error is None  # ...and not taken for the build's failure
    assert ids(report, Severity.ERROR) == []
    assert report.primary is None and report.retry is None
    assert "No errors" in report.describe()


@needs_shared_logs
def test_streaming_a_long_log_reports_each_problem_once_in_bounded_memory() -> None:
    lines = (SHARED_LOGS / CCCL_LOG).read_text(encoding="utf-8").splitlines(keepends=True)
    diagnoser = LogDiagnoser(context_lines=4)
    seen: list[str] = []
    tracemalloc.start()
    try:
        for _ in range(100):  # ~63,000 lines, ~10 MB of text
            for line in lines:
                seen.extend(h.signature_id for h in diagnoser.feed(line))
                assert diagnoser.buffered_lines <= diagnoser.ring_size == 4
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seen == ["cccl-headers-missing", "ninja-build-stopped"]
    assert diagnoser.lines_seen == 100 * len(lines)
    assert peak < 1_000_000  # the log itself is ~10 MB: it was not kept
    report = diagnoser.summary()
    assert report.first_error is not None and report.first_error.line_number == 56
    assert len(report.first_error.context_before) == 4


# --------------------------------------------------------------------------------------------
# Excerpts of real failures (tests/data/logs/*.log)
# --------------------------------------------------------------------------------------------

# file, error-severity hits, text of the first error (None: no error), suggested retry
EXCERPT_CASES = [
    ("nvcc-cicc-killed.log", ["out-of-memory"], "died due to signal 9", RetryAction.HALVE_JOBS),
    ("shell-killed.log", ["out-of-memory"], "Killed", RetryAction.HALVE_JOBS),
    (
        "msvc-unsupported-vs.log",
        ["msvc-too-new-for-cuda"],
        "fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version!",
        None,
    ),
    ("msvc-stl1002.log", ["msvc-stl-needs-newer-cuda"], "STL1002", None),
    (
        "build-isolation-no-torch.log",
        ["torch-missing-in-build"],
        "ModuleNotFoundError: No module named 'torch'",
        None,
    ),
    ("cuda-torch-mismatch.log", ["cuda-torch-mismatch"], "RuntimeError:", None),
    (
        "cuda-home-not-set.log",
        ["cuda-home-not-set"],
        "OSError: CUDA_HOME environment variable is not set.",
        None,
    ),
    (
        "cutlass-is-unsigned-v.log",
        ["msvc-cplusplus-macro"],
        "error C2039: 'is_unsigned_v': is not a member of 'cutlass::platform'",
        None,
    ),
    ("long-path-git.log", ["windows-long-paths"], "Filename too long", None),
    ("long-path-ninja.log", ["windows-long-paths"], "Filename longer than 260 characters", None),
    ("flash-attn-wheel-404.log", [], None, RetryAction.FORCE_BUILD),
    (
        "flash-attn-404-then-oom.log",
        ["out-of-memory"],
        "died due to signal 9",
        RetryAction.HALVE_JOBS,
    ),
    (
        "dll-load-failed.log",
        ["extension-abi-mismatch"],
        "ImportError: DLL load failed while importing flash_attn_2_cuda",
        None,
    ),
    ("undefined-symbol.log", ["extension-abi-mismatch"], "undefined symbol: _ZN3c10", None),
    (
        "no-kernel-image.log",
        ["gpu-arch-unsupported"],
        "no kernel image is available for execution on the device",
        None,
    ),
    ("ampere-only.log", ["gpu-arch-unsupported"], "only supports Ampere GPUs", None),
    ("crlf-shell-script.log", ["crlf-shell-script"], r"$'\r': command not found", None),
    ("flashmla-head-dim.log", ["flashmla-head-dim-unsupported"], "No kernel instantiated", None),
    ("msvc-missing.log", ["msvc-not-found"], "error: [WinError 2]", None),
]


@pytest.mark.parametrize(
    ("name", "errors", "first_error", "retry"),
    EXCERPT_CASES,
    ids=[case[0].removesuffix(".log") for case in EXCERPT_CASES],
)
def test_real_failure_excerpts(
    name: str, errors: list[str], first_error: str | None, retry: RetryAction | None
) -> None:
    lines = excerpt(name)
    report = diagnose_lines(lines)
    assert ids(report, Severity.ERROR) == errors
    assert report.retry is retry
    if first_error is None:
        assert report.first_error is None
        return
    first = report.first_error
    assert first is not None
    assert first_error in first.line
    assert lines[first.line_number - 1].rstrip() == first.line  # numbers count every line fed
    # The first error is explained by the diagnosis it belongs to (also when the explanation is
    # on the next line, as in torch's "RuntimeError:" + message).
    assert report.primary is not None and report.primary.signature_id == errors[0]
    for wrapper in ("ninja: build stopped", "Failed building wheel", "CalledProcessError"):
        assert wrapper not in first.line


def test_cuda_mismatch_message_after_the_exception_line_is_kept() -> None:
    report = diagnose_lines(excerpt("cuda-torch-mismatch.log"))
    assert report.first_error is not None
    assert "The detected CUDA version (12.1) mismatches" in report.first_error.context_after[0]
    assert "cuda-torch-mismatch" in report.first_error.signature_ids


def test_source_lines_quoted_in_a_traceback_are_not_the_error() -> None:
    report = diagnose_lines(excerpt("cuda-home-not-set.log"))
    hit = report.hits[0]
    assert hit.line.lstrip().startswith("OSError:")  # not "raise OSError('CUDA_HOME ..."
    # and the git message at the top is a known-harmless line
    assert report.first_error is not None and "fatal: not a git" not in report.first_error.line


# Single lines from real outputs, at least one per row of the table.
LINE_CASES = [
    ("ModuleNotFoundError: No module named 'torch'", "torch-missing-in-build"),
    (
        "/src/FlashMLA/csrc/cutlass/include/cutlass/cutlass.h:43:35: fatal error: "
        "cuda/std/utility: No such file or directory",
        "cccl-headers-missing",
    ),
    (
        r"C:\ksw\b\fm\csrc\cutlass\include\cutlass/cutlass.h(43): fatal error C1083: "
        "Cannot open include file: 'cuda/std/utility': No such file or directory",
        "cccl-headers-missing",
    ),
    (
        r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8\include\crt/host_config.h(153):"
        " fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the "
        "versions between 2017 and 2022 (inclusive) are supported!",
        "msvc-too-new-for-cuda",
    ),
    (
        "error STL1002: Unexpected compiler version, expected CUDA 12.4 or newer.",
        "msvc-stl-needs-newer-cuda",
    ),
    ("nvcc fatal   : Cannot find compiler 'cl.exe' in PATH", "msvc-not-found"),
    (
        "'cl' is not recognized as an internal or external command,",
        "msvc-not-found",
    ),
    (
        'cutlass/exmy_base.h(404): error: namespace "cutlass::platform" has no member '
        '"is_unsigned_v"',
        "msvc-cplusplus-macro",
    ),
    (
        "HINT: This error might have occurred since this system does not have Windows Long Path "
        "support enabled. You can find information on how to enable this at "
        "https://pip.pypa.io/warnings/enable-long-paths",
        "windows-long-paths",
    ),
    (
        "c1xx : fatal error C1060: compiler is out of heap space [C:\\ksw\\b\\x.vcxproj]",
        "out-of-memory",
    ),
    ("c++: fatal error: Killed signal terminated program cc1plus", "out-of-memory"),
    ("nvcc error   : 'cudafe++' died due to signal 9 (Kill signal)", "out-of-memory"),
    (
        "UserWarning: Attempted to use ninja as the BuildExtension backend but we could not find "
        "ninja.. Falling back to using the slow distutils backend.",
        "slow-build-no-ninja",
    ),
    (
        "The detected CUDA version (12.1) mismatches the version that was used to compile",
        "cuda-torch-mismatch",
    ),
    (
        "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install "
        "root.",
        "cuda-home-not-set",
    ),
    ("urllib.error.HTTPError: HTTP Error 404: Not Found", "flash-attn-wheel-404"),
    ("Precompiled wheel not found. Building from source...", "flash-attn-wheel-404"),
    (
        "ImportError: DLL load failed while importing flash_attn_2_cuda: The specified module "
        "could not be found.",
        "extension-abi-mismatch",
    ),
    (
        "ImportError: /opt/venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-"
        "linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
        "extension-abi-mismatch",
    ),
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "gpu-arch-unsupported"),
    (
        "CUDA error (/build/source/flash-attn/flash_fwd_launch_template.h:184): no kernel image is "
        "available for execution on the device",
        "gpu-arch-unsupported",
    ),
    ("ninja: build stopped: subcommand failed.", "ninja-build-stopped"),
    (
        "testQ.exe.rsp : fatal error LNK1170: line in command file contains 131071 or more "
        "characters",
        "windows-command-line-too-long",
    ),
    (
        "ninja: fatal: CreateProcess: The parameter is incorrect (is the command line too long?)",
        "windows-command-line-too-long",
    ),
    ("./build.sh: line 1: $'\\r': command not found", "crlf-shell-script"),
    (
        "-bash: ./build.sh: /bin/bash^M: bad interpreter: No such file or directory",
        "crlf-shell-script",
    ),
    ("No kernel instantiated for head_dim_qk=64 head_dim_vo=64", "flashmla-head-dim-unsupported"),
]


@pytest.mark.parametrize(("line", "signature_id"), LINE_CASES)
def test_real_lines_match_their_signature(line: str, signature_id: str) -> None:
    diagnoser = LogDiagnoser()
    hits = diagnoser.feed(line + "\n")
    assert [h.signature_id for h in hits] == [signature_id]
    assert hits[0].line == line and hits[0].line_number == 1


def test_every_signature_has_a_real_example() -> None:
    covered = {sig for _, sig in LINE_CASES}
    covered |= {e for _, errors, _, _ in EXCERPT_CASES for e in errors}
    assert covered == {s.id for s in default_rules().signatures}


# --------------------------------------------------------------------------------------------
# Streaming behaviour
# --------------------------------------------------------------------------------------------


def test_harmless_lines_are_never_a_diagnosis_or_the_first_error() -> None:
    report = diagnose_lines(
        [
            PATHSPEC,
            "  " + PATHSPEC,
            "fatal: Needed a single revision",
            "      fatal: not a git repository (or any of the parent directories): .git",
        ]
    )
    assert report.hits == () and report.first_error is None


def test_wrapper_lines_are_never_the_first_error() -> None:
    report = diagnose_lines(
        [
            "ninja: build stopped: subcommand failed.",
            "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit "
            "status 1.",
            "RuntimeError: Error compiling objects for extension",
            "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1",
            "  error: subprocess-exited-with-error",
            "  note: This error originates from a subprocess, and is likely not a problem with "
            "pip.",
            "  ERROR: Failed building wheel for flash_mla",
            "ERROR: Failed to build one or more wheels",
            "collect2: error: ld returned 1 exit status",
        ]
    )
    assert report.first_error is None
    assert ids(report) == ["ninja-build-stopped"]


def test_a_warning_mentioning_a_known_problem_is_not_the_first_error() -> None:
    report = diagnose_lines(
        [
            "cpp_extension.py:382: UserWarning: Error checking compiler version for cl: "
            "[WinError 2] The system cannot find the file specified",
            "building 'flash_attn_2_cuda' extension",
        ]
    )
    assert ids(report) == ["msvc-not-found"]
    assert report.first_error is None


def test_compiler_errors_without_a_signature_are_still_the_first_error() -> None:
    lines = [
        "[3/24] /usr/bin/g++ -c csrc/api/api.cpp -o api.o",
        "csrc/api/api.cpp:12:5: error: 'foo' was not declared in this scope",
        "csrc/api/api.cpp:20:1: error: expected ';' before '}' token",
    ]
    report = diagnose_lines(lines)
    assert report.hits == ()
    assert report.first_error is not None and report.first_error.line_number == 2
    assert report.first_error.context_before == (lines[0],)
    assert report.primary is None and report.retry is None


@pytest.mark.parametrize(
    "line",
    [
        "foo.obj : error LNK2019: unresolved external symbol cudaLaunchKernel",
        "LINK : fatal error LNK1181: cannot open input file 'cudart.lib'",
        "nvcc fatal   : Unsupported gpu architecture 'compute_120'",
        "ptxas error   : Entry function uses too much shared data",
        'x.cu(7): error: identifier "__nv_bfloat16" is undefined',
        "3>C:\\src\\a.cpp(1,10): error C1083: Cannot open include file: 'b.h': No such file",
        "fatal: unable to access 'https://github.com/NVIDIA/cutlass.git/': Could not resolve host",
        "CMake Error at CMakeLists.txt:12 (find_package):",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ],
)
def test_generic_errors_are_recognised(line: str) -> None:
    report = diagnose_lines(["building...", line])
    assert report.first_error is not None and report.first_error.line == line


@pytest.mark.parametrize(
    "line",
    [
        "  except ImportError as error:",
        "          calls to avoid build errors in the future.",
        "  warnings.warn(f'Error checking compiler version for {compiler}: {error}')",
        "/usr/bin/g++ -Werror=return-type -c api.cpp -o api.o",
        'python.h(93): warning #3189-D: "module" is parsed as an identifier',
        "  Building wheel for flash_mla (setup.py): finished with status 'error'",
    ],
)
def test_ordinary_lines_are_not_errors(line: str) -> None:
    assert diagnose_lines([line]).first_error is None


def test_a_traceback_without_its_exception_line_is_the_fallback_first_error() -> None:
    report = diagnose_lines(
        ["running build_ext", "Traceback (most recent call last):", '  File "setup.py", line 3']
    )
    assert report.first_error is not None and report.first_error.line_number == 2


def test_each_signature_is_reported_once_and_line_endings_do_not_matter() -> None:
    diagnoser = LogDiagnoser()
    first = diagnoser.feed("Killed\r\n")
    assert [h.signature_id for h in first] == ["out-of-memory"]
    assert first[0].line == "Killed"
    assert diagnoser.feed("Killed\n") == []
    assert diagnoser.feed_lines(["nvcc error   : 'cicc' died due to signal 9 (Kill signal)"]) == []
    assert len(diagnoser.summary().hits) == 1


def test_very_long_lines_are_clipped_in_what_is_kept() -> None:
    long_line = "x.cu(1): error: " + "y" * 10 * MAX_LINE_CHARS
    diagnoser = LogDiagnoser()
    diagnoser.feed(long_line)
    first = diagnoser.first_error
    assert first is not None and len(first.line) <= MAX_LINE_CHARS + 2


def test_describe_names_the_first_error_cause_fix_and_retry() -> None:
    text = diagnose_lines(excerpt("nvcc-cicc-killed.log")).describe()
    assert "First error (line 4)" in text
    assert "ran out of memory" in text and "MAX_JOBS" in text
    assert "Suggested automatic retry: halve-jobs" in text


# --------------------------------------------------------------------------------------------
# A broken failures file is a clear error naming the file and the entry
# --------------------------------------------------------------------------------------------

GOOD_ENTRY = """
[[signature]]
id = "first-ok"
title = "An example"
patterns = ['all good here']
cause = "Because."
fix = "Do this."
severity = "error"
"""


def write_rules(tmp_path: Path, broken_entry: str, *, header: str = "schema = 1\n") -> Path:
    path = tmp_path / "failures.toml"
    path.write_text(header + GOOD_ENTRY + broken_entry, encoding="utf-8")
    return path


def broken(
    entry_id: str = "broken-one",
    *,
    patterns: str = "['fine', 'also fine']",
    severity: str = '"error"',
    extra: str = "",
    drop: str = "",
) -> str:
    fields = {
        "id": f'"{entry_id}"',
        "title": '"Broken"',
        "patterns": patterns,
        "cause": '"Because."',
        "fix": '"Do this."',
        "severity": severity,
    }
    fields.pop(drop, None)
    body = "\n".join(f"{key} = {value}" for key, value in fields.items())
    return f"\n[[signature]]\n{body}\n{extra}\n"


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            broken(patterns="['fine', 'fatal error: (unclosed']"),
            ["broken-one", "pattern 2", "not a valid regular expression"],
        ),
        (
            broken(extra='retry = "reboot-the-moon"'),
            ["broken-one", "retry 'reboot-the-moon'", "halve-jobs"],
        ),
        (broken(severity='"catastrophic"'), ["broken-one", "severity 'catastrophic'"]),
        (broken(drop="fix"), ["broken-one", "missing the field 'fix'"]),
        (broken(drop="id"), ["[[signature]] #2", "missing the field 'id'"]),
        (broken(patterns="[]"), ["broken-one", "patterns"]),
        (broken(patterns="['(?:x)?']"), ["broken-one", "matches an empty line"]),
        (broken(extra="paterns = ['typo']"), ["broken-one", "unknown field(s) paterns"]),
        (broken("first-ok"), ["first-ok", "appears twice"]),
        (broken("Not A Slug"), ["Not A Slug", "invalid id"]),
        ("\n[[signature]]\nid = 'unclosed\n", ["not valid TOML"]),
    ],
    ids=[
        "bad-regex",
        "unknown-retry",
        "unknown-severity",
        "missing-field",
        "missing-id",
        "no-patterns",
        "matches-everything",
        "unknown-field",
        "duplicate-id",
        "bad-id",
        "toml-syntax",
    ],
)
def test_a_broken_failures_file_names_the_file_and_entry(
    tmp_path: Path, entry: str, expected: list[str]
) -> None:
    path = write_rules(tmp_path, entry)
    with pytest.raises(DiagnosisDataError) as caught:
        load_rules(path)
    error = caught.value
    assert isinstance(error, WizardError)
    assert str(path) in error.what
    for text in expected:
        assert text in error.describe()
    assert error.hint  # a person is told what to do


def test_a_failures_file_for_another_schema_is_refused(tmp_path: Path) -> None:
    path = write_rules(tmp_path, "", header="schema = 2\n")
    with pytest.raises(DiagnosisDataError, match="schema"):
        load_rules(path)


def test_a_missing_failures_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DiagnosisDataError, match="Can't read"):
        load_rules(tmp_path / "nope.toml")


def test_a_minimal_valid_file_loads_and_diagnoses(tmp_path: Path) -> None:
    path = write_rules(
        tmp_path,
        '\n[[ignore]]\nid = "noise"\npatterns = [\'^all good here, really\']\nreason = "x"\n',
    )
    rules = load_rules(path)
    assert [s.id for s in rules.signatures] == ["first-ok"]
    report = diagnose_lines(["All GOOD here", "all good here, really"], rules)
    assert [(h.signature_id, h.line_number) for h in report.hits] == [("first-ok", 1)]
