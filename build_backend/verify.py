"""Verify a kernel in the target environment: run ``resources/verify/verify_kernel.py`` with the
target interpreter and read its JSON report into :class:`VerifyReport`.

The wizard never imports torch or the kernel itself: the harness runs in a subprocess (an
argument list, never a shell string), its output lines are streamed to ``on_line`` as they come,
and the report (schema ``ksw.verify/1``) is read from the file it writes (or, failing that, from
between the markers it prints). A staged wheel (``pip install --target <dir>``) is verified
before it is installed by passing that folder in ``extra_pythonpath``: it is put first on the
child's ``PYTHONPATH``.

Outcomes: :class:`VerifyStatus` PASS / FAIL (the kernel computed something wrong, crashed, or
lacks a backward) / ERROR (the verification could not run: kernel not importable, no GPU,
timeout...). Only cancellation raises (:class:`VerifyCancelled`); a bad adapter or device name
raises :class:`VerifyError`. Reports round-trip through :meth:`VerifyReport.to_json` /
:meth:`VerifyReport.from_json`; :func:`write_markdown` writes a readable summary.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from .errors import ExitCode, WizardError
from .platforms import process_group_options
from .resources import resource_path

SCHEMA = "ksw.verify/1"
BEGIN = "@@KSW-VERIFY-BEGIN@@"
END = "@@KSW-VERIFY-END@@"
PROGRESS_PREFIX = "[ksw-verify] "
ADAPTERS = ("probe", "flash_attn", "flashmla")
DEVICES = ("auto", "cpu", "cuda")
DEFAULT_TIMEOUT_S = 1200.0  # importing torch cold + a full GPU run with timings
LOG_TAIL_LINES = 60

_CASE_LINE = re.compile(r"^\[ksw-verify\] case \d+/\d+: (?P<name>.+)$")


class VerifyError(WizardError):
    """The verification could not be started as asked (unknown adapter or device)."""


class VerifyCancelled(VerifyError):
    """The user cancelled the verification; the harness process was stopped."""

    exit_code = ExitCode.CANCELLED


class VerifyStatus(Enum):
    PASS = "pass"
    FAIL = "fail"  # the kernel computed something wrong, crashed, or has no working backward
    ERROR = "error"  # the verification could not run (see VerifyReport.error_kind)


class CaseStatus(Enum):
    PASS = "pass"
    FAIL = "fail"
    SKIPPED = "skipped"
    ERROR = "error"


class ErrorKind(Enum):
    """Why a report has status ERROR."""

    NOT_INSTALLED = "not_installed"
    ABI_MISMATCH = "abi_mismatch"  # built against another torch: rebuild
    IMPORT_FAILED = "import_failed"
    TORCH_MISSING = "torch_missing"
    TORCH_BROKEN = "torch_broken"
    NO_DEVICE = "no_device"  # no usable GPU for a GPU kernel
    NO_CUDA_BUILD = "no_cuda_build"  # a CUDA check was asked of a CPU-only probe build
    UNSUPPORTED_GPU = "unsupported_gpu"
    HARNESS_CRASH = "harness_crash"
    HARNESS_ERROR = "harness_error"
    NOTHING_RUN = "nothing_run"
    INTERRUPTED = "interrupted"
    TIMEOUT = "timeout"
    CRASHED = "crashed"  # the process died before writing a report
    NOT_STARTED = "not_started"  # the interpreter could not be started
    BAD_REPORT = "bad_report"
    UNKNOWN = "unknown"

    @classmethod
    def parse(cls, value: object) -> ErrorKind | None:
        if value is None or value == "":
            return None
        try:
            return cls(str(value))
        except ValueError:
            return cls.UNKNOWN


# ----------------------------------------------------------------------------------------------
# Report model
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorMeasure:
    """One compared tensor (out, lse, dq, dk, dv) of one case.

    ``kernel_err`` is max|kernel - reference| (None when the kernel's tensor had NaN/inf or was
    missing); ``reference_dtype_err`` is max|PyTorch in the input dtype - reference|;
    ``tolerance`` is what ``kernel_err`` had to stay within.
    """

    name: str
    kernel_err: float | None
    reference_dtype_err: float | None
    tolerance: float
    passed: bool
    rule: str = "flash_attn"  # or "upstream_allclose"
    label: str = ""
    factor: float | None = None
    floor: float | None = None
    nan_count: int = 0
    inf_count: int = 0
    worst_index: tuple[int, ...] | None = None
    fraction_over: float | None = None  # share of elements outside the tolerance
    problem: str | None = None  # "error", "nonfinite", "missing", "shape", "cosine"
    abs_tol: float | None = None
    rel_tol: float | None = None
    cos_tol: float | None = None
    cos_diff: float | None = None
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "rule": self.rule,
            "factor": self.factor,
            "floor": self.floor,
            "kernel_err": self.kernel_err,
            "reference_dtype_err": self.reference_dtype_err,
            "tolerance": self.tolerance,
            "passed": self.passed,
            "nan_count": self.nan_count,
            "inf_count": self.inf_count,
            "worst_index": list(self.worst_index) if self.worst_index is not None else None,
            "fraction_over": self.fraction_over,
            "problem": self.problem,
            "abs_tol": self.abs_tol,
            "rel_tol": self.rel_tol,
            "cos_tol": self.cos_tol,
            "cos_diff": self.cos_diff,
            "detail": self.detail,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ErrorMeasure:
        worst = data.get("worst_index")
        return cls(
            name=_str(data.get("name")),
            kernel_err=_float_or_none(data.get("kernel_err")),
            reference_dtype_err=_float_or_none(data.get("reference_dtype_err")),
            tolerance=_float_or_none(data.get("tolerance")) or 0.0,
            passed=bool(data.get("passed")),
            rule=_str(data.get("rule"), "flash_attn"),
            label=_str(data.get("label")),
            factor=_float_or_none(data.get("factor")),
            floor=_float_or_none(data.get("floor")),
            nan_count=_int(data.get("nan_count")),
            inf_count=_int(data.get("inf_count")),
            worst_index=_int_tuple(worst) if isinstance(worst, list) else None,
            fraction_over=_float_or_none(data.get("fraction_over")),
            problem=_str_or_none(data.get("problem")),
            abs_tol=_float_or_none(data.get("abs_tol")),
            rel_tol=_float_or_none(data.get("rel_tol")),
            cos_tol=_float_or_none(data.get("cos_tol")),
            cos_diff=_float_or_none(data.get("cos_diff")),
            detail=_str(data.get("detail")),
        )

    def cell(self) -> str:
        """'1.2e-06 <= 1.2e-05', 'NaN x5', ... for tables."""
        if self.problem == "missing":
            return "missing"
        if self.problem == "shape":
            return "wrong shape"
        if self.nan_count or self.inf_count:
            parts = []
            if self.nan_count:
                parts.append(f"NaN x{self.nan_count}")
            if self.inf_count:
                parts.append(f"inf x{self.inf_count}")
            return ", ".join(parts)
        if self.kernel_err is None:
            return "n/a"
        if self.rule == "upstream_allclose":  # per element: within abs_tol OR within rel_tol
            if self.problem == "cosine" and self.cos_diff is not None:
                return f"{self.kernel_err:.2g}, cos diff {self.cos_diff:.2g} too large"
            if self.passed:
                return f"{self.kernel_err:.2g} (allclose ok)"
            share = 100.0 * (self.fraction_over or 0.0)
            return f"{self.kernel_err:.2g} ({share:.2g}% not close)"
        sign = "<=" if self.passed else ">"
        return f"{self.kernel_err:.2g} {sign} {self.tolerance:.2g}"


@dataclass(frozen=True)
class VerifyCase:
    name: str
    status: CaseStatus
    api: str
    device: str
    dtype: str
    causal: bool
    shapes: Mapping[str, tuple[int, ...]]
    measures: tuple[ErrorMeasure, ...]
    reasons: tuple[str, ...]
    backward: bool = False
    reference_dtype: str | None = None
    layout: str = ""
    seconds: float = 0.0
    kernel_output: str = ""
    notes: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # scale, gqa, metadata_call...

    @property
    def passed(self) -> bool:
        return self.status is CaseStatus.PASS

    def measure(self, name: str) -> ErrorMeasure | None:
        return next((m for m in self.measures if m.name == name), None)

    def failed_measures(self) -> tuple[ErrorMeasure, ...]:
        return tuple(m for m in self.measures if not m.passed)

    _KNOWN = frozenset(
        {
            "name", "status", "api", "device", "dtype", "causal", "shapes", "measures",
            "reasons", "backward", "reference_dtype", "layout", "seconds", "kernel_output",
            "notes",
        }
    )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.extra)
        data.update(
            {
                "name": self.name,
                "status": self.status.value,
                "api": self.api,
                "device": self.device,
                "dtype": self.dtype,
                "causal": self.causal,
                "shapes": {k: list(v) for k, v in self.shapes.items()},
                "measures": [m.to_json() for m in self.measures],
                "reasons": list(self.reasons),
                "backward": self.backward,
                "reference_dtype": self.reference_dtype,
                "layout": self.layout,
                "seconds": self.seconds,
                "kernel_output": self.kernel_output,
                "notes": list(self.notes),
            }
        )
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VerifyCase:
        try:
            status = CaseStatus(str(data.get("status")))
        except ValueError:
            status = CaseStatus.ERROR
        shapes_raw = data.get("shapes") or {}
        shapes = {
            str(k): _int_tuple(v)
            for k, v in (shapes_raw.items() if isinstance(shapes_raw, Mapping) else ())
            if isinstance(v, list)
        }
        return cls(
            name=_str(data.get("name")),
            status=status,
            api=_str(data.get("api")),
            device=_str(data.get("device")),
            dtype=_str(data.get("dtype")),
            causal=bool(data.get("causal")),
            shapes=shapes,
            measures=tuple(
                ErrorMeasure.from_json(m) for m in _list(data.get("measures")) if _is_map(m)
            ),
            reasons=tuple(str(r) for r in _list(data.get("reasons"))),
            backward=bool(data.get("backward")),
            reference_dtype=_str_or_none(data.get("reference_dtype")),
            layout=_str(data.get("layout")),
            seconds=_float_or_none(data.get("seconds")) or 0.0,
            kernel_output=_str(data.get("kernel_output")),
            notes=tuple(str(n) for n in _list(data.get("notes"))),
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
        )


@dataclass(frozen=True)
class Timing:
    """Kernel vs ``torch.nn.functional.scaled_dot_product_attention`` on the same shapes
    (CUDA events, median). ``speedup`` = sdpa_ms / kernel_ms: above 1 the kernel is faster."""

    name: str
    shapes: Mapping[str, tuple[int, ...]]
    dtype: str
    kernel_ms: float | None
    sdpa_ms: float | None
    speedup: float | None
    runs: int = 0
    warmup: int = 0
    note: str = ""
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "shapes": {k: list(v) for k, v in self.shapes.items()},
            "dtype": self.dtype,
            "kernel_ms": self.kernel_ms,
            "sdpa_ms": self.sdpa_ms,
            "speedup": self.speedup,
            "runs": self.runs,
            "warmup": self.warmup,
            "note": self.note,
            "error": self.error,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Timing:
        shapes_raw = data.get("shapes") or {}
        return cls(
            name=_str(data.get("name")),
            shapes={
                str(k): _int_tuple(v)
                for k, v in (shapes_raw.items() if isinstance(shapes_raw, Mapping) else ())
                if isinstance(v, list)
            },
            dtype=_str(data.get("dtype")),
            kernel_ms=_float_or_none(data.get("kernel_ms")),
            sdpa_ms=_float_or_none(data.get("sdpa_ms")),
            speedup=_float_or_none(data.get("speedup")),
            runs=_int(data.get("runs")),
            warmup=_int(data.get("warmup")),
            note=_str(data.get("note")),
            error=_str_or_none(data.get("error")),
        )


@dataclass(frozen=True)
class EnvironmentFacts:
    """What the harness saw in the target environment."""

    python: str = ""
    python_executable: str = ""
    platform: str = ""
    torch_version: str | None = None
    torch_cuda: str | None = None
    cuda_available: bool = False
    device_name: str | None = None
    device_capability: tuple[int, int] | None = None
    device_memory_bytes: int | None = None
    driver_version: str | None = None
    cuda_driver_api: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    _KNOWN = frozenset(
        {
            "python", "python_executable", "platform", "torch_version", "torch_cuda",
            "cuda_available", "device_name", "device_capability", "device_memory_bytes",
            "driver_version", "cuda_driver_api",
        }
    )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.extra)
        data.update(
            {
                "python": self.python,
                "python_executable": self.python_executable,
                "platform": self.platform,
                "torch_version": self.torch_version,
                "torch_cuda": self.torch_cuda,
                "cuda_available": self.cuda_available,
                "device_name": self.device_name,
                "device_capability": list(self.device_capability)
                if self.device_capability
                else None,
                "device_memory_bytes": self.device_memory_bytes,
                "driver_version": self.driver_version,
                "cuda_driver_api": self.cuda_driver_api,
            }
        )
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EnvironmentFacts:
        cc = data.get("device_capability")
        capability: tuple[int, int] | None = None
        if isinstance(cc, list) and len(cc) == 2:
            capability = (_int(cc[0]), _int(cc[1]))
        memory = data.get("device_memory_bytes")
        return cls(
            python=_str(data.get("python")),
            python_executable=_str(data.get("python_executable")),
            platform=_str(data.get("platform")),
            torch_version=_str_or_none(data.get("torch_version")),
            torch_cuda=_str_or_none(data.get("torch_cuda")),
            cuda_available=bool(data.get("cuda_available")),
            device_name=_str_or_none(data.get("device_name")),
            device_capability=capability,
            device_memory_bytes=_int(memory) if memory is not None else None,
            driver_version=_str_or_none(data.get("driver_version")),
            cuda_driver_api=_str_or_none(data.get("cuda_driver_api")),
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
        )


@dataclass(frozen=True)
class KernelFacts:
    """The kernel package as the harness imported it (which copy, which version)."""

    module: str
    version: str | None = None
    dist_version: str | None = None
    file: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)  # build_info, has_cuda, ...

    _KNOWN = frozenset({"module", "version", "dist_version", "file"})

    @property
    def display_version(self) -> str:
        return self.dist_version or self.version or "unknown version"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.extra)
        data.update(
            {
                "module": self.module,
                "version": self.version,
                "dist_version": self.dist_version,
                "file": self.file,
            }
        )
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KernelFacts:
        return cls(
            module=_str(data.get("module")),
            version=_str_or_none(data.get("version")),
            dist_version=_str_or_none(data.get("dist_version")),
            file=_str_or_none(data.get("file")),
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
        )


@dataclass(frozen=True)
class VerifyReport:
    adapter: str
    status: VerifyStatus
    reasons: tuple[str, ...]
    cases: tuple[VerifyCase, ...] = ()
    timings: tuple[Timing, ...] = ()
    environment: EnvironmentFacts | None = None
    kernel: KernelFacts | None = None
    notes: tuple[str, ...] = ()
    error_kind: ErrorKind | None = None
    rule: Mapping[str, Any] = field(default_factory=dict)  # text, factors, floors per dtype
    options: Mapping[str, Any] = field(default_factory=dict)  # device, quick, seed
    started_at: str = ""
    seconds: float = 0.0
    schema: str = SCHEMA
    python: str = ""  # the interpreter the runner started
    extra_pythonpath: tuple[str, ...] = ()
    exit_code: int | None = None
    log_tail: tuple[str, ...] = ()  # the harness's last output lines, for the details view
    detail: str = ""  # a traceback or the raw error, for the details view

    @property
    def passed(self) -> bool:
        return self.status is VerifyStatus.PASS

    @property
    def counts(self) -> dict[CaseStatus, int]:
        result = dict.fromkeys(CaseStatus, 0)
        for case in self.cases:
            result[case.status] += 1
        return result

    @property
    def headline(self) -> str:
        """One line for a person: the verdict and why."""
        kernel = (
            f"{self.kernel.module} {self.kernel.display_version}" if self.kernel else self.adapter
        )
        counts = self.counts
        ran = counts[CaseStatus.PASS] + counts[CaseStatus.FAIL] + counts[CaseStatus.ERROR]
        if self.status is VerifyStatus.PASS:
            return f"{kernel}: PASS - all {counts[CaseStatus.PASS]} checks passed."
        if self.status is VerifyStatus.FAIL:
            first = self.reasons[0] if self.reasons else "see the failed checks"
            return f"{kernel}: FAIL - {counts[CaseStatus.FAIL]} of {ran} checks failed. {first}"
        first = self.reasons[0] if self.reasons else "the verification could not run"
        return f"{kernel}: could not be verified - {first}"

    def summary_lines(self) -> list[str]:
        """A short text summary for the command line."""
        lines = [self.headline]
        env = self.environment
        if env is not None:
            torch_text = f"torch {env.torch_version or '?'}"
            torch_text += f" (CUDA {env.torch_cuda})" if env.torch_cuda else " (CPU build)"
            gpu = ""
            if env.device_name:
                cc = env.device_capability
                gpu = f"; GPU {env.device_name}"
                if cc:
                    gpu += f" (cc {cc[0]}.{cc[1]})"
                if env.driver_version:
                    gpu += f", driver {env.driver_version}"
            lines.append(f"  Python {env.python}, {torch_text}{gpu}")
        if self.kernel is not None and self.kernel.file:
            lines.append(f"  kernel imported from {self.kernel.file}")
        for case in self.cases:
            cells = ", ".join(f"{m.name} {m.cell()}" for m in case.measures)
            line = f"  {case.status.value.upper():7s} {case.name}"
            if cells:
                line += f": {cells}"
            lines.append(line)
            if case.status is not CaseStatus.PASS:
                lines.extend(f"          - {reason}" for reason in case.reasons[:3])
        for timing in self.timings:
            lines.append("  timing " + _timing_text(timing))
        if self.status is VerifyStatus.ERROR:
            lines.extend(f"  - {reason}" for reason in self.reasons[1:])  # [0] is the headline
        lines.extend(f"  note: {note}" for note in self.notes)
        lines.append(f"  ({self.seconds:.1f} s)")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "adapter": self.adapter,
            "status": self.status.value,
            "error_kind": self.error_kind.value if self.error_kind else None,
            "reasons": list(self.reasons),
            "notes": list(self.notes),
            "started_at": self.started_at,
            "seconds": self.seconds,
            "options": dict(self.options),
            "rule": dict(self.rule),
            "environment": self.environment.to_json() if self.environment else None,
            "kernel": self.kernel.to_json() if self.kernel else None,
            "cases": [c.to_json() for c in self.cases],
            "timings": [t.to_json() for t in self.timings],
            "runner": {
                "python": self.python,
                "extra_pythonpath": list(self.extra_pythonpath),
                "exit_code": self.exit_code,
                "log_tail": list(self.log_tail),
            },
            "detail": self.detail,
        }

    def to_json_text(self) -> str:
        return json.dumps(_json_safe(self.to_json()), indent=2, allow_nan=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VerifyReport:
        """Read a report written by the harness or by :meth:`to_json`.

        Raises :class:`VerifyError` for something that is not a ``ksw.verify/1`` report.
        """
        schema = _str(data.get("schema"))
        if not schema.startswith("ksw.verify/"):
            raise VerifyError(
                "This file is not a kernel verification report.",
                why=f"Its schema is {schema or 'missing'!r}, expected {SCHEMA!r}.",
            )
        if schema != SCHEMA:
            raise VerifyError(
                f"This verification report has the format {schema!r}, which this version of "
                "the wizard cannot read.",
                hint="Run the verification again with this version of the wizard.",
            )
        try:
            status = VerifyStatus(str(data.get("status")))
        except ValueError:
            status = VerifyStatus.ERROR
        env = data.get("environment")
        kernel = data.get("kernel")
        runner = data.get("runner") if _is_map(data.get("runner")) else {}
        assert isinstance(runner, Mapping)
        exit_code = runner.get("exit_code")
        return cls(
            schema=schema,
            adapter=_str(data.get("adapter")),
            status=status,
            error_kind=ErrorKind.parse(data.get("error_kind")),
            reasons=tuple(str(r) for r in _list(data.get("reasons"))),
            notes=tuple(str(n) for n in _list(data.get("notes"))),
            started_at=_str(data.get("started_at")),
            seconds=_float_or_none(data.get("seconds")) or 0.0,
            options=dict(data["options"]) if _is_map(data.get("options")) else {},
            rule=dict(data["rule"]) if _is_map(data.get("rule")) else {},
            environment=EnvironmentFacts.from_json(env)
            if isinstance(env, Mapping) and env
            else None,
            kernel=KernelFacts.from_json(kernel) if isinstance(kernel, Mapping) else None,
            cases=tuple(VerifyCase.from_json(c) for c in _list(data.get("cases")) if _is_map(c)),
            timings=tuple(Timing.from_json(t) for t in _list(data.get("timings")) if _is_map(t)),
            python=_str(runner.get("python")),
            extra_pythonpath=tuple(str(p) for p in _list(runner.get("extra_pythonpath"))),
            exit_code=_int(exit_code) if exit_code is not None else None,
            log_tail=tuple(str(x) for x in _list(runner.get("log_tail"))),
            detail=_str(data.get("detail")),
        )

    @classmethod
    def from_json_text(cls, text: str) -> VerifyReport:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise VerifyError("The verification report is not valid JSON.", why=str(exc)) from None
        if not isinstance(data, dict):
            raise VerifyError("The verification report is not a JSON object.")
        return cls.from_json(data)


# ----------------------------------------------------------------------------------------------
# Running the harness
# ----------------------------------------------------------------------------------------------


def harness_path() -> Path:
    return resource_path("verify", "verify_kernel.py")


def harness_command(
    python: Path | str,
    adapter: str,
    out: Path,
    *,
    device: str = "auto",
    quick: bool = False,
    seed: int = 0,
) -> list[str]:
    command = [
        str(python),
        "-u",
        str(harness_path()),
        "--adapter",
        adapter,
        "--out",
        str(out),
        "--device",
        device,
        "--seed",
        str(seed),
    ]
    if quick:
        command.append("--quick")
    return command


def child_environment(
    extra_pythonpath: Iterable[Path | str], base: Mapping[str, str] | None = None,
    path_prepend: Sequence[Path | str] = (),
) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    if path_prepend:  # e.g. CUDA 13's bin\x64 (toolkits.cuda_bin_dirs): its runtime DLLs
        key = next((k for k in env if k.upper() == "PATH"), "PATH")
        env[key] = os.pathsep.join([*(str(p) for p in path_prepend),
                                    *([env[key]] if env.get(key) else [])])
    env.pop("PYTHONHOME", None)  # a frozen wizard's own settings must not leak into the target
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONUNBUFFERED"] = "1"
    paths = [str(Path(p)) for p in extra_pythonpath]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    else:
        env.pop("PYTHONPATH", None)
    return env


def run_verification(
    python: Path,
    adapter: str,
    *,
    device: str = "auto",
    extra_pythonpath: Sequence[Path] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    cancel: threading.Event | None = None,
    on_line: Callable[[str], None] | None = None,
    quick: bool = False,
    seed: int = 0,
    path_prepend: Sequence[Path] = (),
) -> VerifyReport:
    """Verify ``adapter``'s kernel in the environment of ``python``; see the module docstring.
    ``path_prepend``: folders put in front of PATH (CUDA 13's ``bin\\x64`` on Windows).

    ``on_line`` receives each output line of the harness (progress lines start with
    ``[ksw-verify]``), from a reader thread, as it comes; the JSON report itself is not passed.
    """
    if adapter not in ADAPTERS:
        raise VerifyError(
            f"Unknown verification adapter {adapter!r}.",
            hint=f"Use one of: {', '.join(ADAPTERS)}.",
        )
    if device not in DEVICES:
        raise VerifyError(
            f"Unknown device {device!r} for the verification.",
            hint=f"Use one of: {', '.join(DEVICES)}.",
        )
    started = time.perf_counter()
    # absolute: the harness runs in a temporary working folder
    extra = tuple(str(Path(p).absolute()) for p in extra_pythonpath)

    def failure(
        kind: ErrorKind,
        reason: str,
        *,
        detail: str = "",
        lines: Sequence[str] = (),
        exit_code: int | None = None,
        status: VerifyStatus = VerifyStatus.ERROR,
    ) -> VerifyReport:
        return VerifyReport(
            adapter=adapter,
            status=status,
            reasons=(reason,),
            error_kind=kind,
            options={"device": device, "quick": quick, "seed": seed},
            seconds=round(time.perf_counter() - started, 3),
            python=str(python),
            extra_pythonpath=extra,
            exit_code=exit_code,
            log_tail=tuple(_visible(lines)[-LOG_TAIL_LINES:]),
            detail=detail,
        )

    with tempfile.TemporaryDirectory(prefix="ksw-verify-") as tmp:
        out = Path(tmp) / "report.json"
        command = harness_command(python, adapter, out, device=device, quick=quick, seed=seed)
        group = process_group_options()
        try:
            proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env=child_environment(extra, path_prepend=path_prepend),
                cwd=tmp,
                start_new_session=group.start_new_session,
                creationflags=group.creationflags,
            )
        except OSError as exc:
            return failure(
                ErrorKind.NOT_STARTED,
                f"{python} could not be started to run the verification ({exc.strerror or exc}).",
                detail=str(exc),
            )
        lines: list[str] = []
        reader = threading.Thread(
            target=_pump, args=(proc, lines, on_line), name="ksw-verify-reader", daemon=True
        )
        reader.start()
        timed_out = False
        deadline = time.monotonic() + timeout
        while proc.poll() is None:
            if cancel is not None and cancel.is_set():
                _stop(proc)
                reader.join(timeout=5)
                raise VerifyCancelled("The verification was cancelled.")
            if time.monotonic() > deadline:
                timed_out = True
                _stop(proc)
                break
            reader.join(timeout=0.05)
        reader.join(timeout=10)
        exit_code = proc.wait()
        current = _current_case(lines)
        if timed_out:
            where = f" (it was running the check '{current}')" if current else ""
            return failure(
                ErrorKind.TIMEOUT,
                f"The verification did not finish within {timeout:.0f} seconds{where}.",
                lines=lines,
                exit_code=exit_code,
            )
        data = _read_report(out, lines)
    if data is None:
        if current:
            reason = (
                f"The kernel crashed the verification process ({_describe_exit(exit_code)}) "
                f"during the check '{current}'. A kernel built for another GPU architecture or "
                "another PyTorch can do this: rebuild it."
            )
            return failure(
                ErrorKind.CRASHED,
                reason,
                lines=lines,
                exit_code=exit_code,
                status=VerifyStatus.FAIL,
            )
        return failure(
            ErrorKind.CRASHED,
            f"The verification process ended ({_describe_exit(exit_code)}) without a report.",
            detail="\n".join(_visible(lines)[-20:]),
            lines=lines,
            exit_code=exit_code,
        )
    try:
        report = VerifyReport.from_json(data)
    except VerifyError as exc:
        return failure(ErrorKind.BAD_REPORT, exc.describe(), lines=lines, exit_code=exit_code)
    return _with_runner_facts(report, python, extra, exit_code, lines)


def _with_runner_facts(
    report: VerifyReport,
    python: Path | str,
    extra: tuple[str, ...],
    exit_code: int | None,
    lines: Sequence[str],
) -> VerifyReport:
    return replace(
        report,
        python=str(python),
        extra_pythonpath=extra,
        exit_code=exit_code,
        log_tail=tuple(_visible(lines)[-LOG_TAIL_LINES:]),
    )


def _pump(
    proc: subprocess.Popen[bytes], lines: list[str], on_line: Callable[[str], None] | None
) -> None:
    assert proc.stdout is not None
    inside_report = False
    for raw in iter(proc.stdout.readline, b""):
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        lines.append(line)
        if line.strip() == BEGIN:
            inside_report = True
            continue
        if inside_report:
            if line.strip() == END:
                inside_report = False
            continue
        if on_line is not None:
            try:
                on_line(line)
            except Exception:  # a broken callback must not stall the pipe
                on_line = None
    proc.stdout.close()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the harness (one process; torch's threads go with it)."""
    try:
        proc.kill()
    except OSError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def _visible(lines: Sequence[str]) -> list[str]:
    """The output lines without the JSON report between the markers."""
    result: list[str] = []
    inside = False
    for line in lines:
        if line.strip() == BEGIN:
            inside = True
        elif line.strip() == END:
            inside = False
        elif not inside:
            result.append(line)
    return result


def _current_case(lines: Sequence[str]) -> str | None:
    """The check that was started last and has no result line yet, if any."""
    current: str | None = None
    for line in lines:
        match = _CASE_LINE.match(line)
        if match:
            current = match.group("name")
        elif current and line.startswith(f"{PROGRESS_PREFIX}result {current}:"):
            current = None
    return current


def _read_report(out: Path, lines: Sequence[str]) -> dict[str, Any] | None:
    try:
        text = out.read_text(encoding="utf-8")
        data = json.loads(text)
        if isinstance(data, dict):
            return data
    except (OSError, json.JSONDecodeError):
        pass
    joined = "\n".join(lines)
    begin, end = joined.rfind(BEGIN), joined.rfind(END)
    if begin < 0 or end < begin:
        return None
    try:
        data = json.loads(joined[begin + len(BEGIN) : end])
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "no exit code"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    if code >= 0xC0000000:  # a Windows NTSTATUS such as 0xC0000005 (access violation)
        return f"exit code 0x{code:08X}"
    return f"exit code {code}"


# ----------------------------------------------------------------------------------------------
# Markdown
# ----------------------------------------------------------------------------------------------


def render_markdown(report: VerifyReport) -> str:
    verdict = {
        VerifyStatus.PASS: "PASS",
        VerifyStatus.FAIL: "FAIL",
        VerifyStatus.ERROR: "could not be verified",
    }[report.status]
    kernel = report.kernel
    out: list[str] = [f"# Kernel verification: {verdict}", "", _md(report.headline), ""]
    facts: list[tuple[str, str]] = []
    if kernel is not None:
        where = f" (`{kernel.file}`)" if kernel.file else ""
        facts.append(("Kernel", f"{kernel.module} {kernel.display_version}{where}"))
    facts.append(("Adapter", report.adapter))
    env = report.environment
    if env is not None:
        facts.append(("Python", f"{env.python} (`{env.python_executable or report.python}`)"))
        cuda = f"CUDA {env.torch_cuda}" if env.torch_cuda else "CPU build"
        facts.append(("PyTorch", f"{env.torch_version or '?'} ({cuda})"))
        if env.device_name:
            gpu = env.device_name
            if env.device_capability:
                gpu += f", compute capability {env.device_capability[0]}."
                gpu += f"{env.device_capability[1]}"
            if env.device_memory_bytes:
                gpu += f", {env.device_memory_bytes / 1024**3:.0f} GiB"
            facts.append(("GPU", gpu))
        if env.driver_version or env.cuda_driver_api:
            facts.append(
                (
                    "Driver",
                    f"{env.driver_version or '?'}"
                    + (f" (CUDA {env.cuda_driver_api})" if env.cuda_driver_api else ""),
                )
            )
        facts.append(("Platform", env.platform))
    elif report.python:
        facts.append(("Python", f"`{report.python}`"))
    if report.extra_pythonpath:
        facts.append(("Extra PYTHONPATH", ", ".join(f"`{p}`" for p in report.extra_pythonpath)))
    options = report.options
    facts.append(
        (
            "Run",
            f"{report.started_at or '?'}, {report.seconds:.1f} s, device "
            f"{options.get('device', '?')}, seed {options.get('seed', '?')}"
            + (", quick" if options.get("quick") else ""),
        )
    )
    out += ["| | |", "| --- | --- |"]
    out += [f"| {_md(k)} | {_md(v)} |" for k, v in facts]
    out.append("")
    if report.status is not VerifyStatus.PASS and report.reasons:
        out += ["## Why", ""]
        out += [f"- {_md(r)}" for r in report.reasons]
        out.append("")
    if report.cases:
        names: list[str] = []
        for case in report.cases:
            for m in case.measures:
                if m.name not in names:
                    names.append(m.name)
        out += ["## Checks", ""]
        header = ["Result", "Check", "Device", "dtype", "Causal", "Shapes", *names]
        out.append("| " + " | ".join(header) + " |")
        out.append("| " + " | ".join("---" for _ in header) + " |")
        for case in report.cases:
            shapes = ", ".join(
                f"{k} {'x'.join(str(n) for n in v)}"
                for k, v in case.shapes.items()
                if k in ("q", "k", "v", "k_cache")
            )
            row = [
                case.status.value.upper(),
                case.name,
                case.device,
                case.dtype,
                "yes" if case.causal else "no",
                shapes,
            ]
            for name in names:
                found = case.measure(name)
                cell = found.cell() if found is not None else ""
                row.append(f"**{cell}**" if found is not None and not found.passed else cell)
            out.append("| " + " | ".join(_md(c) for c in row) + " |")
        out.append("")
        problems = [c for c in report.cases if c.status is not CaseStatus.PASS]
        if problems:
            out += ["### Problems", ""]
            for case in problems:
                out.append(f"- **{_md(case.name)}** ({case.status.value}):")
                out += [f"  - {_md(r)}" for r in case.reasons]
                if case.kernel_output:
                    first = case.kernel_output.strip().splitlines()[0]
                    out.append(f"  - the kernel printed: `{_md(first)}`")
            out.append("")
    if report.timings:
        out += [
            "## Speed against PyTorch SDPA",
            "",
            "| Measure | Shapes | dtype | Kernel (ms) | SDPA (ms) | Kernel speed vs SDPA |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for t in report.timings:
            shapes = ", ".join(f"{k} {'x'.join(str(n) for n in v)}" for k, v in t.shapes.items())
            row = [
                t.name,
                shapes,
                t.dtype,
                f"{t.kernel_ms:.3f}" if t.kernel_ms is not None else "-",
                f"{t.sdpa_ms:.3f}" if t.sdpa_ms is not None else "-",
                f"{t.speedup:.2f}x" if t.speedup is not None else (t.error or "-"),
            ]
            out.append("| " + " | ".join(_md(c) for c in row) + " |")
        out.append("")
    rule = report.rule
    if rule:
        out += ["## Rule", "", _md(str(rule.get("text", ""))), ""]
        floors = rule.get("floors")
        if isinstance(floors, Mapping) and floors:
            out += ["| dtype | floor (output) | floor (gradients) |", "| --- | --- | --- |"]
            for dtype, values in floors.items():
                if isinstance(values, Mapping):
                    out.append(
                        f"| {_md(str(dtype))} | {values.get('output')} | {values.get('gradient')} |"
                    )
            out.append("")
    if report.notes:
        out += ["## Notes", ""]
        out += [f"- {_md(n)}" for n in report.notes]
        out.append("")
    return "\n".join(out)


def write_markdown(report: VerifyReport, path: Path) -> Path:
    """Write :func:`render_markdown` to ``path`` (UTF-8); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_markdown(report), encoding="utf-8")
    return path


def _timing_text(t: Timing) -> str:
    kernel = f"{t.kernel_ms:.3f} ms" if t.kernel_ms is not None else "-"
    sdpa = f"{t.sdpa_ms:.3f} ms" if t.sdpa_ms is not None else "-"
    text = f"{t.name}: kernel {kernel}, SDPA {sdpa}"
    if t.speedup is not None:
        text += f" (kernel {t.speedup:.2f}x SDPA's speed)"
    if t.error:
        text += f" [{t.error}]"
    return text


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# ----------------------------------------------------------------------------------------------
# JSON helpers
# ----------------------------------------------------------------------------------------------


def _is_map(value: object) -> bool:
    return isinstance(value, Mapping)


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def _str(value: object, default: str = "") -> str:
    return default if value is None else str(value)


def _str_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def _int(value: object) -> int:
    try:
        return int(value)  # type: ignore[call-overload, no-any-return]
    except (TypeError, ValueError):
        return 0


def _int_tuple(value: object) -> tuple[int, ...]:
    return tuple(_int(v) for v in _list(value))


def _float_or_none(value: object) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        result = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return result if math.isfinite(result) else None


def _json_safe(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return value


__all__ = [
    "ADAPTERS",
    "CaseStatus",
    "EnvironmentFacts",
    "ErrorKind",
    "ErrorMeasure",
    "KernelFacts",
    "Timing",
    "VerifyCancelled",
    "VerifyCase",
    "VerifyError",
    "VerifyReport",
    "VerifyStatus",
    "render_markdown",
    "run_verification",
    "write_markdown",
]
