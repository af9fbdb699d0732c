"""The verification report model: :class:`VerifyReport` and its cases, measures, timings and
facts, with the JSON round trip (schema ``ksw.verify/1``) and the statuses and error kinds."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from kernel_wizard.base.errors import WizardError
from kernel_wizard.base.messages import N_

SCHEMA = "ksw.verify/1"


class VerifyError(WizardError):
    """The verification could not be started as asked (unknown adapter or device)."""



class VerifyStatus(Enum):
    PASS = "pass"
    FAIL = "fail"  # the kernel computed something wrong, crashed, or has no working backward
    ERROR = "error"  # the verification could not run (see VerifyReport.error_kind)


# the verdict in one word or three, as the logs, the command line and the Markdown report say it
VERDICT_WORDS = {
    VerifyStatus.PASS: "PASS",
    VerifyStatus.FAIL: "FAIL",
    VerifyStatus.ERROR: "could not be verified",
}


class CaseStatus(Enum):
    PASS = "pass"
    FAIL = "fail"
    SKIPPED = "skipped"  # did not run here (not applicable to this build or GPU)
    ERROR = "error"

    @property
    def label(self) -> str:
        """How a person reads it: a check that did not run is "NOT RUN", never a failure."""
        return _STATUS_LABELS[self]


_STATUS_LABELS = {
    CaseStatus.PASS: N_("PASS"),
    CaseStatus.FAIL: N_("FAIL"),
    CaseStatus.SKIPPED: N_("NOT RUN"),
    CaseStatus.ERROR: N_("ERROR"),
}


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
    NOT_ENOUGH_GPUS = "not_enough_gpus"  # a multi-GPU kernel (DeepEP) on a machine with fewer
    BAD_OPTION = "bad_option"
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
    # rule "sageattention": SageAttention's own measures (cos_sim, rel_l1, rmse, worst_row_l1)
    # and the limits they were held to (cos_min, rel_l1_max, row_l1_max)
    stats: Mapping[str, float] = field(default_factory=dict)

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
            **({"stats": dict(self.stats)} if self.stats else {}),
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
            stats=_float_map(data.get("stats")),
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
        if self.rule == "sageattention" and "cos_sim" in self.stats:
            s = self.stats
            text = (f"cos {s['cos_sim']:.5f}, L1 {s.get('rel_l1', float('nan')):.3g}, "
                    f"RMSE {s.get('rmse', float('nan')):.2g}")
            return text if self.passed else text + " (too far)"
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
    (CUDA events, median): ``sdpa_ms`` with SDPA's default choice of method, ``math_ms`` with
    its plain math method. ``speedup`` = sdpa_ms / kernel_ms: above 1 the kernel is faster.
    ``label`` says in words what was timed (dtype, sizes, mask). ``reference`` names the
    baseline when it is not SDPA (DeepEP: 'all_to_all_single (NCCL)'); ``sdpa_ms`` is then
    that baseline's time. ``sdpa_backend``: which of SDPA's methods gave ``sdpa_ms`` (the
    fastest of "cuDNN", "flash", "memory-efficient", or "default": SDPA's own choice), with
    every method's time in ``backends`` (None: not available for this shape or GPU).
    ``flops`` / ``bytes``: the work of one call, for TFLOPs / GB/s (0: not given).
    ``method``: how the calls were timed: "queued" (``runs`` calls back to back between two
    CUDA events, median of ``groups`` groups: how a model runs them) or "" (a report from
    before: one call at a time). ``host_ms`` / ``sdpa_host_ms``: the CPU's time to issue one
    call of the kernel / of the baseline (None: not measured)."""

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
    math_ms: float | None = None
    label: str = ""
    reference: str = ""
    sdpa_backend: str = ""
    backends: Mapping[str, float | None] = field(default_factory=dict)
    flops: float = 0.0
    bytes: float = 0.0
    method: str = ""
    groups: int = 0
    host_ms: float | None = None
    sdpa_host_ms: float | None = None

    @property
    def cpu_bound(self) -> bool:
        """Issuing a call of the kernel takes the CPU about as long as the GPU takes to run
        it: at this shape the kernel's speed hardly matters, the Python around it does."""
        return bool(self.host_ms and self.kernel_ms and self.host_ms >= 0.8 * self.kernel_ms)

    def rate(self, ms: float | None) -> str:
        """What a call taking ``ms`` reached: '650 TFLOPs', '1,200 GB/s', both, or ''."""
        if not ms:
            return ""
        parts = []
        if self.flops > 0:
            parts.append(f"{self.flops / ms / 1e9:,.0f} TFLOPs")
        if self.bytes > 0:
            parts.append(f"{self.bytes / ms / 1e6:,.0f} GB/s")
        return ", ".join(parts)

    @property
    def math_speedup(self) -> float | None:
        if self.kernel_ms and self.math_ms:
            return self.math_ms / self.kernel_ms
        return None

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
            "math_ms": self.math_ms,
            "label": self.label,
            "reference": self.reference,
            "sdpa_backend": self.sdpa_backend,
            "backends": dict(self.backends),
            "flops": self.flops,
            "bytes": self.bytes,
            "method": self.method,
            "groups": self.groups,
            "host_ms": self.host_ms,
            "sdpa_host_ms": self.sdpa_host_ms,
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
            math_ms=_float_or_none(data.get("math_ms")),
            label=_str(data.get("label")),
            reference=_str(data.get("reference")),
            sdpa_backend=_str(data.get("sdpa_backend")),
            backends=_backend_times(data.get("backends")),
            flops=_float_or_none(data.get("flops")) or 0.0,
            bytes=_float_or_none(data.get("bytes")) or 0.0,
            method=_str(data.get("method")),
            groups=_int(data.get("groups")),
            host_ms=_float_or_none(data.get("host_ms")),
            sdpa_host_ms=_float_or_none(data.get("sdpa_host_ms")),
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
    def quick(self) -> bool:
        """Whether this was a quick verification (fewer, partly different checks)."""
        return bool(self.options.get("quick"))

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
        verdict = VERDICT_WORDS[self.status]
        if self.status is VerifyStatus.PASS:
            return f"{kernel}: {verdict} - all {counts[CaseStatus.PASS]} checks passed."
        if self.status is VerifyStatus.FAIL:
            first = self.reasons[0] if self.reasons else "see the failed checks"
            return (f"{kernel}: {verdict} - {counts[CaseStatus.FAIL]} of {ran} checks failed. "
                    f"{first}")
        first = self.reasons[0] if self.reasons else "the verification could not run"
        return f"{kernel}: {verdict} - {first}"

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


def _float_map(value: object) -> dict[str, float]:
    """A {name: number} table from a report (other entries are left out)."""
    if not isinstance(value, Mapping):
        return {}
    found: dict[str, float] = {}
    for key, item in value.items():
        number = _float_or_none(item)
        if isinstance(key, str) and number is not None:
            found[key] = number
    return found


def _float_or_none(value: object) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        result = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return result if math.isfinite(result) else None


def _backend_times(value: Any) -> dict[str, float | None]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): _float_or_none(v) for k, v in value.items()}


def _json_safe(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return value
