"""Shared machinery of the verification harness (``verify_kernel.py``).

Run by the Kernel Setup Wizard with the *target* interpreter, never imported by the wizard.
Needs only the standard library, torch and the kernel under test. Keep the syntax compatible
with Python 3.9 (the oldest interpreter the wizard accepts as a target).

The correctness rule is FlashAttention's own (``tests/test_flash_attn.py``): a reference is
computed in a wider dtype (float32 on a GPU for fp16/bf16 inputs, float64 otherwise), plain
PyTorch computes the same attention in the *input* dtype, and the kernel passes when

    max|kernel - reference| <= factor * max|pytorch - reference| + floor(dtype)

with factor 2 for the output and 3 for the gradients dq, dk, dv. The floor is a small absolute
slack per dtype (``FLOORS``); it dominates where PyTorch's own error is ~0 (float64 on the CPU,
where the reference and PyTorch are the same computation), and is chosen so that a correct
float64 kernel passes (its error is ~1e-15) while one that is subtly wrong (a softmax scale off
by 1e-3, or a float64 kernel that secretly computes in float32) fails.

Kernels with their own upstream checks (FlashMLA) are judged by those instead; each measure in
the report names the rule it was judged by.
"""

from __future__ import annotations

import ctypes
import datetime
import importlib
import json
import math
import os
import platform
import sys
import time
import traceback

# The harness's modules, bottom up: harness_protocol (what the wizard reads too), harness_io
# (progress lines, captured output), harness_measures (errors against the reference),
# harness_timing (GPU speed); this module puts them together for the adapters, which reach
# everything as ``hc.<name>``.
import harness_measures as _measures
import harness_timing as _timing
from harness_io import captured_fds, log, short_exception
from harness_protocol import SCHEMA, case_line, report_block, result_line

OUTPUT_FACTOR = 2.0
GRADIENT_FACTOR = 3.0
# Absolute floors added to the tolerance, per input dtype: (output, gradients).
# float64: PyTorch's own float64 reference has no error to scale, so the floor decides. A
# correct float64 kernel was seen 2e-9 (out) / 4e-9 (gradients) off on a loaded CPU (torch's
# CPU kernels pick other code paths with fewer threads), while computing in float32 instead
# shows as 5e-7 … 4e-6: the floors sit between, with margin on both sides.
FLOORS = {
    "float64": (1e-8, 2e-8),
    "float32": (1e-5, 5e-5),
    "float16": (1e-4, 2e-4),
    "bfloat16": (2e-4, 5e-4),
}
RULE_TEXT = (
    f"FlashAttention's rule: max|kernel - reference| <= {OUTPUT_FACTOR:g} x "
    "max|PyTorch - reference| + floor for the output, "
    f"{GRADIENT_FACTOR:g} x for the gradients dq, dk, dv. The reference is computed in float32 "
    "on a GPU (fp16/bf16 inputs) and in float64 otherwise; 'PyTorch' is the same attention "
    "computed by plain PyTorch in the input dtype."
)

NO_KERNEL_MARKERS = ("No kernel instantiated",)
MAX_KERNEL_OUTPUT = 4000  # characters of captured kernel output kept per case


class HarnessError(Exception):
    """The verification could not run at all: the overall status becomes 'error'."""

    def __init__(self, kind, reason, detail=""):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.detail = detail


class CaseFailure(Exception):
    """Raised inside a case to end it as failed with a plain reason."""


class CaseSkipped(Exception):
    """Raised inside a case to end it as skipped (not applicable to this build or GPU)."""


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def finite_or_none(value):
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


# --------------------------------------------------------------------------------------------
# Importing torch and the kernel
# --------------------------------------------------------------------------------------------


def import_torch():
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        raise HarnessError(
            "torch_missing",
            f"PyTorch cannot be imported in this environment ({short_exception(exc)}).",
        ) from None
    except Exception as exc:  # a broken torch can raise anything while importing
        raise HarnessError(
            "torch_broken", f"PyTorch fails to import here: {short_exception(exc)}"
        ) from None
    return sys.modules["torch"]


def classify_import_error(module, text):
    """(kind, plain reason) for an ImportError text of the kernel module ``module``."""
    lowered = text.lower()
    if (f"no module named '{module}'") in lowered or (f"no module named {module}") in lowered:
        return (
            "not_installed",
            f"{module} is not installed in this environment (no module named '{module}').",
        )
    if "undefined symbol" in lowered or "procedure could not be found" in lowered:
        return (
            "abi_mismatch",
            f"{module} was built against another version of PyTorch ({text.strip()}); "
            "rebuild it for the PyTorch installed here.",
        )
    if "glibcxx" in lowered or "cxxabi" in lowered:
        return (
            "abi_mismatch",
            f"{module} needs a newer C++ runtime than this system has ({text.strip()}); "
            "rebuild it on this machine.",
        )
    if "dll load failed" in lowered or "cannot open shared object file" in lowered:
        return (
            "import_failed",
            f"{module} could not load a library it needs ({text.strip()}); usually a CUDA or "
            "PyTorch version that differs from the one it was built with: rebuild it.",
        )
    return ("import_failed", f"{module} fails to import: {text.strip()}")


def import_kernel(module):
    """Import the kernel under test; raise HarnessError with a plain reason when it fails."""
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        kind, reason = classify_import_error(module, str(exc))
        raise HarnessError(kind, reason, traceback.format_exc(limit=4)) from None
    except Exception as exc:
        raise HarnessError(
            "import_failed",
            f"{module} fails to import: {short_exception(exc)}",
            traceback.format_exc(limit=4),
        ) from None
    return mod


def kernel_facts(mod, dist_names=()):
    facts = {
        "module": mod.__name__,
        "version": str(getattr(mod, "__version__", "") or "") or None,
        "file": getattr(mod, "__file__", None),
        "dist_version": None,
    }
    try:
        from importlib import metadata

        for name in dist_names:
            try:
                facts["dist_version"] = metadata.version(name)
                facts["dist_name"] = name
                break
            except Exception:
                continue
    except ImportError:
        pass
    return facts


# --------------------------------------------------------------------------------------------
# Environment facts
# --------------------------------------------------------------------------------------------


def _nvml_driver_version():
    try:
        import pynvml  # type: ignore

        pynvml.nvmlInit()
        try:
            value = pynvml.nvmlSystemGetDriverVersion()
        finally:
            pynvml.nvmlShutdown()
        return value.decode() if isinstance(value, bytes) else str(value)
    except Exception:
        pass
    names = ["nvml.dll"] if sys.platform == "win32" else ["libnvidia-ml.so.1", "libnvidia-ml.so"]
    for name in names:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        try:
            init = getattr(lib, "nvmlInit_v2", None) or lib.nvmlInit
            if init() != 0:
                continue
            buf = ctypes.create_string_buffer(96)
            rc = lib.nvmlSystemGetDriverVersion(buf, ctypes.c_uint(96))
            lib.nvmlShutdown()
            if rc == 0:
                return buf.value.decode("ascii", "replace")
        except Exception:
            continue
    return None


def _cuda_driver_api_version():
    names = ["nvcuda.dll"] if sys.platform == "win32" else ["libcuda.so.1", "libcuda.so"]
    for name in names:
        try:
            lib = ctypes.CDLL(name)
            value = ctypes.c_int(0)
            if lib.cuDriverGetVersion(ctypes.byref(value)) == 0 and value.value:
                return f"{value.value // 1000}.{(value.value % 1000) // 10}"
        except Exception:
            continue
    return None


def environment_facts(torch, use_cuda):
    facts = {
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "platform": platform.platform(),
        "torch_version": str(torch.__version__),
        "torch_cuda": getattr(torch.version, "cuda", None),
        "torch_hip": getattr(torch.version, "hip", None),
        "cuda_available": False,
        "device_name": None,
        "device_capability": None,
        "device_memory_bytes": None,
        "driver_version": None,
        "cuda_driver_api": None,
        "cpu": platform.processor() or platform.machine(),
        "cpu_threads": torch.get_num_threads(),
    }
    try:
        facts["cuda_available"] = bool(torch.cuda.is_available())
    except Exception as exc:
        facts["cuda_error"] = short_exception(exc)
    if facts["cuda_available"] and use_cuda:
        try:
            props = torch.cuda.get_device_properties(0)
            facts["device_name"] = str(props.name)
            facts["device_capability"] = [int(props.major), int(props.minor)]
            facts["device_memory_bytes"] = int(props.total_memory)
        except Exception as exc:
            facts["cuda_error"] = short_exception(exc)
        facts["driver_version"] = _nvml_driver_version()
        facts["cuda_driver_api"] = _cuda_driver_api_version()
    return facts


# --------------------------------------------------------------------------------------------
# Poisoning freed memory
# --------------------------------------------------------------------------------------------


def poison_freed_memory(torch, device, byte_sizes):
    """Best effort: leave freed blocks of these sizes filled with 0xFF bytes (NaN in every
    floating dtype), so that a kernel that returns ``torch.empty`` memory it never wrote is
    likely to hand back NaNs. On a GPU the caching allocator reuses such blocks; on the CPU
    small blocks are reused by malloc. Either way the comparison of every element catches an
    unwritten region (NaN, garbage or zeros against random data)."""
    blocks = []
    try:
        for size in byte_sizes:
            if size > 0:
                blocks.append(torch.full((int(size),), 255, dtype=torch.uint8, device=device))
        if device.type == "cuda":
            torch.cuda.synchronize()
    except Exception:
        pass
    del blocks


# --------------------------------------------------------------------------------------------
# One check: kernel vs reference vs PyTorch, forward and backward
# --------------------------------------------------------------------------------------------


def dtype_name(torch, dtype):
    return str(dtype).replace("torch.", "")


def reference_dtype_for(torch, device, dtype):
    if device.type == "cuda" and dtype in (torch.float16, torch.bfloat16):
        return torch.float32
    return torch.float64


def _bytes(t):
    return t.numel() * t.element_size()


def run_check(
    h,
    case,
    *,
    inputs,
    grad_keys,
    kernel_fn,
    reference_fn,
    backward,
    dout,
    upstream=None,
    no_backward_hint="",
    layout="",
    poison_bytes=None,
):
    """Run the kernel, the wide reference and plain PyTorch on the same ``inputs`` and fill
    ``case`` (a dict) with measures, status and reasons.

    ``kernel_fn(**tensors)`` and ``reference_fn(**tensors)`` return dicts of named outputs
    ('out' first; extras such as 'lse' are compared too). ``grad_keys`` names the inputs whose
    gradients are checked when ``backward`` is true, with ``dout`` as the output's gradient.
    ``upstream`` maps an output or gradient name to a dict (abs, rel, cos, cast_ref) to judge
    it by upstream's allclose instead of the FlashAttention rule; ``cast_ref`` compares with
    the reference rounded to the input dtype first, as FlashMLA's decoding test does.
    ``poison_bytes`` are the sizes of the blocks to leave poisoned before the kernel runs
    (default: the sizes of the inputs and of ``dout``, which the outputs usually share).
    """
    torch = h.torch
    first = inputs[grad_keys[0]] if grad_keys else next(iter(inputs.values()))
    device, dtype = first.device, first.dtype
    ref_dtype = reference_dtype_for(torch, device, dtype)
    dname, rname = dtype_name(torch, dtype), dtype_name(torch, ref_dtype)
    floor_out, floor_grad = FLOORS.get(dname, (1e-4, 1e-4))
    case["reference_dtype"] = rname
    case["backward"] = bool(backward)
    case["layout"] = layout
    measures = case.setdefault("measures", [])
    reasons = case.setdefault("reasons", [])
    captured = []

    def leaf(t, requires):
        x = t.detach().clone()
        if requires and x.is_floating_point():
            x.requires_grad_(True)
        return x

    def widen(t, requires):
        x = t.detach().to(ref_dtype) if t.is_floating_point() else t.detach().clone()
        if requires and x.is_floating_point():
            x.requires_grad_(True)
        return x

    kin = {name: leaf(t, backward and name in grad_keys) for name, t in inputs.items()}
    if poison_bytes is None:
        poison_bytes = [_bytes(t) for t in inputs.values()] * 2
        if dout is not None:
            poison_bytes.insert(0, _bytes(dout))
    poison_freed_memory(torch, device, poison_bytes)
    try:
        with captured_fds(captured):
            kout = kernel_fn(**kin)
            if device.type == "cuda":
                torch.cuda.synchronize()
    except CaseSkipped:
        _note_output(case, captured)
        raise
    except Exception as exc:
        _note_output(case, captured)
        raise CaseFailure(f"the kernel raised {short_exception(exc)}") from None
    _note_output(case, captured)
    _check_no_kernel_message(case, captured)

    rin = {name: widen(t, backward and name in grad_keys) for name, t in inputs.items()}
    rout = reference_fn(**rin)
    pin = {name: leaf(t, backward and name in grad_keys) for name, t in inputs.items()}
    pout = reference_fn(**pin)

    def judge(name, kernel_t, ref_t, pt_t, is_grad):
        label = name if not is_grad else f"{name} (gradient of {name[1:]})"
        if upstream and name in upstream:
            tol = upstream[name]
            ref_cmp = ref_t
            if tol.get("cast_ref") and kernel_t is not None:
                ref_cmp = ref_t.detach().to(kernel_t.dtype)
            m = allclose_measure(
                torch,
                name,
                kernel_t,
                ref_cmp,
                pt_t,
                abs_tol=tol["abs"],
                rel_tol=tol["rel"],
                cos_tol=tol.get("cos"),
                label=label,
            )
        else:
            m = error_measure(
                torch,
                name,
                kernel_t,
                ref_t,
                pt_t,
                factor=GRADIENT_FACTOR if is_grad else OUTPUT_FACTOR,
                floor=floor_grad if is_grad else floor_out,
                label=label,
            )
        measures.append(m)
        if not m["passed"]:
            reasons.append(describe_measure_failure(m, rname, dname, layout))

    for name, ref_t in rout.items():
        judge(name, kout.get(name) if isinstance(kout, dict) else None, ref_t, pout[name], False)

    if backward:
        kernel_out = kout.get("out") if isinstance(kout, dict) else None
        grads = _kernel_grads(
            h, case, kernel_out, [kin[k] for k in grad_keys], dout, grad_keys, no_backward_hint
        )
        ref_grads = torch.autograd.grad(
            rout["out"], [rin[k] for k in grad_keys], dout.detach().to(ref_dtype)
        )
        pt_grads = torch.autograd.grad(pout["out"], [pin[k] for k in grad_keys], dout.detach())
        if grads is not None:
            # zip(strict=) needs Python 3.10; the target may be 3.9. The lengths match anyway.
            for key, g, rg, pg in zip(grad_keys, grads, ref_grads, pt_grads):  # noqa: B905
                if g is None:
                    hint = (" " + no_backward_hint) if no_backward_hint else ""
                    reasons.append(
                        f"d{key}: the kernel's backward returned no gradient for {key}.{hint}"
                    )
                    measures.append(
                        {
                            "name": "d" + key,
                            "label": f"d{key} (gradient of {key})",
                            "rule": "flash_attn",
                            "kernel_err": None,
                            "reference_dtype_err": None,
                            "tolerance": floor_grad,
                            "passed": False,
                            "problem": "missing",
                        }
                    )
                    continue
                judge("d" + key, g, rg, pg, True)
    case["status"] = "pass" if not reasons else "fail"


def _kernel_grads(h, case, out, leaves, dout, grad_keys, hint):
    torch = h.torch
    reasons = case["reasons"]
    suffix = (" " + hint) if hint else ""
    if out is None:
        return None
    if not out.requires_grad:
        reasons.append(
            "backward: the kernel's output is not connected to autograd, so no gradients can "
            "be computed (this build has no backward)." + suffix
        )
        return None
    captured = []
    device = out.device
    poison_freed_memory(torch, device, [_bytes(t) for t in leaves])
    try:
        with captured_fds(captured):
            grads = torch.autograd.grad(out, leaves, dout, allow_unused=True)
            if device.type == "cuda":
                torch.cuda.synchronize()
    except Exception as exc:
        _note_output(case, captured)
        reasons.append(f"backward raised {short_exception(exc)}.{suffix}")
        return None
    _note_output(case, captured)
    _check_no_kernel_message(case, captured)
    return list(grads)


def backward_failed(cases):
    """True when some case found the backward pass missing or raising (not merely inexact)."""
    prefixes = ("backward", "dq:", "dk:", "dv:")
    return any(r.startswith(prefixes) for c in cases for r in c.get("reasons", ()))


def _note_output(case, captured):
    text = "".join(captured).strip()
    if text:
        previous = case.get("kernel_output", "")
        combined = (previous + "\n" + text).strip() if previous else text
        case["kernel_output"] = combined[-MAX_KERNEL_OUTPUT:]


def _check_no_kernel_message(case, captured):
    text = "".join(captured)
    for marker in NO_KERNEL_MARKERS:
        if marker in text:
            line = next((ln.strip() for ln in text.splitlines() if marker in ln), marker)
            message = (
                f"the kernel printed '{line}' and returned without computing: this build has no "
                "kernel for these head dimensions or this GPU."
            )
            if message not in case["reasons"]:
                case["reasons"].append(message)


# --------------------------------------------------------------------------------------------
# Devices for GPU-only kernels
# --------------------------------------------------------------------------------------------


def gpu_device(h, label):
    """The device a GPU-only kernel is checked on; HarnessError when there is none."""
    torch = h.torch
    if h.device_option == "cpu":
        raise HarnessError(
            "no_device", f"{label} runs on NVIDIA GPUs only; it cannot be checked on the CPU."
        )
    if not h.cuda_usable():
        raise HarnessError(
            "no_device",
            f"PyTorch here cannot use a CUDA GPU (torch {torch.__version__}, built for CUDA "
            f"{torch.version.cuda}), and {label} can only be checked on one. Check the NVIDIA "
            "driver, and that this PyTorch is a CUDA build that the driver supports.",
        )
    return torch.device("cuda")


def device_capability(h, device):
    """The (major, minor) compute capability of ``device``; None off a GPU."""
    if device.type != "cuda":
        return None
    major, minor = h.torch.cuda.get_device_capability(device)
    return int(major), int(minor)


# --------------------------------------------------------------------------------------------
# The harness: options, cases, report
# --------------------------------------------------------------------------------------------


class Case:
    """One planned check. ``run(h, case)`` fills the case dict (or raises CaseFailure /
    CaseSkipped)."""

    def __init__(self, name, run, *, api, device, dtype, causal, shapes, extra=None):
        self.name = name
        self.run = run
        self.info = {
            "name": name,
            "api": api,
            "device": device,
            "dtype": dtype,
            "causal": causal,
            "shapes": shapes,
        }
        if extra:
            self.info.update(extra)


class Harness:
    def __init__(self, adapter, device, quick, seed):
        self.adapter = adapter
        self.device_option = device
        self.quick = quick
        self.seed = seed
        self.torch = None
        self.kernel = None
        self.cuda_broken = None
        self.backward_broken = False
        self.started = time.perf_counter()
        self.report = {
            "schema": SCHEMA,
            "adapter": adapter,
            "status": "error",
            "error_kind": None,
            "reasons": [],
            "notes": [],
            "started_at": now_iso(),
            "seconds": 0.0,
            "options": {"device": device, "quick": quick, "seed": seed},
            "rule": {
                "text": RULE_TEXT,
                "output_factor": OUTPUT_FACTOR,
                "gradient_factor": GRADIENT_FACTOR,
                "floors": {k: {"output": v[0], "gradient": v[1]} for k, v in FLOORS.items()},
                "reference_dtype": {"cuda fp16/bf16": "float32", "otherwise": "float64"},
            },
            "environment": {},
            "kernel": None,
            "cases": [],
            "timings": [],
        }

    def note(self, text):
        if text not in self.report["notes"]:
            self.report["notes"].append(text)

    def generator_seed(self, index):
        return self.seed * 1000003 + index * 7919 + 17

    def randn(self, shape, dtype, device, index, scale=1.0):
        """Fresh random values for a case, made on the CPU so that every device sees the
        same numbers for the same seed."""
        torch = self.torch
        gen = torch.Generator(device="cpu")
        gen.manual_seed(self.generator_seed(index))
        t = torch.randn(shape, generator=gen, dtype=torch.float32) * scale
        return t.to(device=device, dtype=dtype)

    def cuda_usable(self):
        try:
            return bool(self.torch.cuda.is_available())
        except Exception:
            return False

    def run_cases(self, cases):
        total = len(cases)
        for number, spec in enumerate(cases, 1):
            case = dict(spec.info)
            case.update({"status": "error", "reasons": [], "measures": [], "kernel_output": ""})
            started = time.perf_counter()
            log(case_line(number, total, spec.name))
            if spec.info["device"] == "cuda" and self.cuda_broken:
                case["status"] = "skipped"
                case["reasons"] = ["not run: " + self.cuda_broken]
            else:
                try:
                    spec.run(self, case)
                except CaseFailure as exc:
                    case["status"] = "fail"
                    case["reasons"].insert(0, str(exc))
                except CaseSkipped as exc:
                    case["status"] = "skipped"
                    case["reasons"] = [str(exc)]
                except Exception as exc:
                    case["status"] = "error"
                    case["reasons"].insert(0, f"the check itself failed: {short_exception(exc)}")
                    case["traceback"] = traceback.format_exc(limit=6)
                if spec.info["device"] == "cuda" and case["status"] in ("fail", "error"):
                    self._check_cuda_alive(spec.name)
            case["seconds"] = round(time.perf_counter() - started, 4)
            self.report["cases"].append(case)
            log(result_line(spec.name, case["status"], (case["reasons"] or [""])[0]))

    def _check_cuda_alive(self, name):
        torch = self.torch
        try:
            torch.cuda.synchronize()
            torch.zeros(1, device="cuda").add_(1).item()
        except Exception as exc:
            problem = short_exception(exc, 200)
            self.cuda_broken = f"the GPU stopped working after case '{name}' ({problem})"

    def finish(self, error=None):
        report = self.report
        if error is not None:
            report["status"] = "error"
            report["error_kind"] = error.kind
            report["reasons"].insert(0, error.reason)
            if error.detail:
                report["detail"] = error.detail
        else:
            statuses = [c["status"] for c in report["cases"]]
            if "fail" in statuses:
                report["status"] = "fail"
                for c in report["cases"]:
                    if c["status"] == "fail" and c["reasons"]:
                        report["reasons"].append(f"{c['name']}: {c['reasons'][0]}")
            elif "error" in statuses:
                report["status"] = "error"
                report["error_kind"] = "harness_error"
                for c in report["cases"]:
                    if c["status"] == "error":
                        report["reasons"].append(f"{c['name']}: {c['reasons'][0]}")
            elif "pass" in statuses:
                report["status"] = "pass"
            else:
                report["status"] = "error"
                report["error_kind"] = "nothing_run"
                report["reasons"].append("No check could be run on this machine.")
        report["seconds"] = round(time.perf_counter() - self.started, 3)
        return report


def _json_safe(value):
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return value


def emit_report(report, out_path):
    """Write the report to ``out_path`` (atomically) and print it between the markers."""
    text = json.dumps(_json_safe(report), indent=None, sort_keys=False, allow_nan=False)
    if out_path:
        folder = os.path.dirname(os.path.abspath(out_path))
        if folder and not os.path.isdir(folder):
            os.makedirs(folder)
        tmp = out_path + ".part"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, out_path)
    sys.stdout.write(report_block(text))
    sys.stdout.flush()


# The reference and error measures and GPU timing live in their own modules; they are part of
# this module's names (adapters use ``hc.error_measure``, ``hc.time_pair`` ...).
allclose_measure = _measures.allclose_measure
attention_bhsd = _measures.attention_bhsd
causal_mask = _measures.causal_mask
describe_measure_failure = _measures.describe_measure_failure
error_measure = _measures.error_measure
new_measure = _measures.new_measure
not_comparable = _measures.not_comparable
nonfinite_summary = _measures.nonfinite_summary
unravel = _measures.unravel
MEASURE_BUDGET_S = _timing.MEASURE_BUDGET_S
MIN_REPS = _timing.MIN_REPS
cuda_median_ms = _timing.cuda_median_ms
median_ms = _timing.median_ms
sdpa_math = _timing.sdpa_math
time_pair = _timing.time_pair
timing_label = _timing.timing_label
