"""The boundary sweep: every call a user's model may make into an installed kernel, each in its own
child process, classified as ran-correct / raised / a failure (crashed, hung, wrong, ran
unchecked). Run it on a GPU machine with the Python that has the kernels installed:

    python3 scripts/boundary_sweep.py --out docs/recorded/<machine-date>/boundary.json
    python3 scripts/boundary_sweep.py --kernels flashmla,sageattention --out ...

Kernels (``--kernels``, default all): flash_attn_3 (alias fa3), flash_attn (FlashAttention 2,
alias fa2), flashmla, sageattention (alias sage), deepep. The calls and the tolerance rule of
each are in scripts/boundary_calls.py. A kernel that is not importable is listed under
"not_installed" and skipped; DeepEP, whose calls need 2 GPUs (one process each), is listed under
"not_swept" with the reason on a machine with fewer.

A FlashAttention 3 wheel built by the wizard carries the recipe's Python checks (patch
fa3-build-guard), a FlashMLA wheel the check that its SM100-only dense prefill raises elsewhere
(patch sm100-prefill-guard); the rows under "before_patch" call the same left-out variants with
those checks switched off, i.e. the extension as upstream ships it, to record what a user met
without them.

Output: {"boundary": [{"kernel", "call", "head_size", "outcome", "message"}, ...],
"before_patch": [...], "machine": {...}, "kernels": {kernel: version}, "not_installed": [...],
"not_swept": [{"kernel", "reason"}], "summary": {...}}. Exit 0 when no row of "boundary" is a
failure, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "resources" / "verify"))

import boundary_calls as bc  # noqa: E402
import harness_boundary as hb  # noqa: E402

GOOD = ("ran-correct", "raised")
PYTHON_ERRORS = ("TypeError", "AttributeError", "NameError", "ImportError",
                 "ModuleNotFoundError", "KeyError", "IndexError", "UnboundLocalError")

# kernel id (the catalog's recipe id), its aliases, the module that says it is installed, its
# distribution names (for the version), and the import lines every call of it shares
KERNELS = {
    "flash_attn_3": (("fa3",), "flash_attn_interface", ("flash_attn_3", "flash-attn-3"),
                     "import flash_attn_interface as fa\n"),
    "flash_attn": (("fa2", "flash_attn_2"), "flash_attn", ("flash_attn", "flash-attn"),
                   "import flash_attn as fa\n"),
    "flashmla": (("flash_mla",), "flash_mla", ("flash_mla", "flash-mla"),
                 "import flash_mla\nimport flash_mla.flash_mla_interface as fmi\n"),
    "sageattention": (("sage", "sageattention2"), "sageattention", ("sageattention",),
                      "import sageattention as sa\n"),
    "deepep": (("deep_ep",), "deep_ep", ("deep_ep", "deep-ep"), "import deep_ep\n"),
}


def resolve(names):
    """The kernel ids for ``--kernels`` (ids or aliases, comma-separated); all when empty."""
    wanted = [n.strip().lower() for n in names.split(",") if n.strip()]
    if not wanted:
        return list(KERNELS)
    out = []
    for name in wanted:
        match = [k for k, (aliases, *_rest) in KERNELS.items() if name == k or name in aliases]
        if not match:
            raise SystemExit(f"unknown kernel {name!r}: one of "
                             + ", ".join(f"{k} ({'/'.join(a)})" for k, (a, *_r) in
                                         KERNELS.items()))
        if match[0] not in out:
            out.append(match[0])
    return out


def importable(module, python):
    code = f"import importlib.util, sys; sys.exit(0 if importlib.util.find_spec({module!r}) else 1)"
    return subprocess.run([python, "-c", code], check=False).returncode == 0


def version(module, dists):
    """The installed distribution's version, else the module's __version__."""
    code = ("import importlib, importlib.metadata as m, sys\n"
            "for name in sys.argv[2:]:\n"
            "    try:\n        print(m.version(name)); sys.exit()\n"
            "    except Exception:\n        pass\n"
            "print(getattr(importlib.import_module(sys.argv[1]), '__version__', ''))\n")
    out = subprocess.run([sys.executable, "-c", code, module, *dists], capture_output=True,
                         text=True, check=False).stdout.strip()
    return out.splitlines()[-1] if out else "unknown"


def gpu_count():
    """GPUs that torch sees, asked in a process of its own (this one stays off the GPU)."""
    if os.environ.get("KSW_SWEEP_DEVICE", "cuda") != "cuda":
        return None
    done = subprocess.run([sys.executable, "-c",
                           "import torch; print(torch.cuda.device_count())"],
                          capture_output=True, text=True, check=False)
    try:
        return int(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return 0


def sweep(kernel, imports, rows, timeout_s):
    """Every row in a process of its own (forked from one that ran ``imports``)."""
    if not rows:
        return []
    started = time.monotonic()
    # the zygote's imports run in a namespace of their own: each call imports again (at no cost)
    results = hb.run_calls(imports, [imports + bc.PRELUDE + setup for _, _, setup in rows],
                           timeout_s)
    out = []
    for (call, head, _), (outcome, message) in zip(rows, results, strict=True):
        if outcome == "ran":
            outcome = "ran-unchecked"
        out.append({"kernel": kernel, "call": call, "head_size": head, "outcome": outcome,
                    "message": message})
        print(f"{kernel:14s} {call:70s} {outcome:13s} {message[:120]}", flush=True)
    print(f"{kernel}: {len(rows)} calls in {time.monotonic() - started:.1f} s", flush=True)
    return out


def machine():
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             check=False).stdout.strip()
    except OSError:
        gpu = ""
    code = "import torch; print(torch.__version__, torch.version.cuda)"
    torch = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=False).stdout.strip()
    return {"gpu": gpu, "torch": torch, "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def calls_of(kernel, timeout_s):
    """(boundary rows, before_patch rows) of one kernel."""
    cpu = os.environ.get("KSW_SWEEP_DEVICE", "cuda") == "cpu"
    if kernel == "flash_attn_3":
        return bc.fa3_calls(), bc.fa3_before_calls()
    if kernel == "flash_attn":
        return bc.fa2_calls(), []
    if kernel == "flashmla":
        return bc.flashmla_calls(), bc.flashmla_before_calls()
    if kernel == "sageattention":
        return bc.sage_calls(), []
    return bc.deepep_calls(timeout_s, cpu=cpu), []


def save(report, path, complete=False):
    """Writes the report with its summary; returns the failing rows. "complete" stays false
    until every chosen kernel was swept (a run stopped half way says so)."""
    failures = [r for r in report["boundary"] if r["outcome"] not in GOOD]
    report["summary"] = {
        "calls": len(report["boundary"]),
        "ran_correct": sum(r["outcome"] == "ran-correct" for r in report["boundary"]),
        "raised": sum(r["outcome"] == "raised" for r in report["boundary"]),
        "failures": len(failures),
        "failures_by_kernel": {k: sum(r["kernel"] == k for r in failures)
                               for k in sorted({r["kernel"] for r in failures})},
        "crashes_before_patch": sum(r["outcome"] == "crashed" for r in report["before_patch"]),
        "complete": complete,
        # a call that raised one of these may have been the sweep's own mistake (a wrong guess
        # at an API): read its message before counting it as the kernel's refusal
        "check_these": [f"{r['kernel']}: {r['call']}: {r['message'][:200]}"
                        for r in report["boundary"] if r["outcome"] == "raised"
                        and r["message"].startswith(PYTHON_ERRORS)],
    }
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds one call may take before it counts as hung")
    parser.add_argument("--kernels", default="",
                        help="comma-separated: " + ", ".join(KERNELS) + " (default: all)")
    parser.add_argument("--only", default="",
                        help="only the calls whose name contains one of these (comma-separated)")
    parser.add_argument("--skip-before", action="store_true",
                        help="leave out the rows without the wizard's checks")
    args = parser.parse_args(argv)
    kernels = resolve(args.kernels)
    report = {"machine": machine(), "kernels": {}, "boundary": [], "before_patch": [],
              "not_installed": [], "not_swept": []}
    wanted = [w for w in args.only.split(",") if w]

    def chosen(rows):
        return [r for r in rows if not wanted or any(w in r[0] for w in wanted)]

    for kernel in kernels:
        _aliases, module, dists, imports = KERNELS[kernel]
        if not importable(module, sys.executable):
            report["not_installed"].append(kernel)
            print(f"{kernel}: not installed ({module} does not import)", flush=True)
            continue
        report["kernels"][kernel] = version(module, dists)
        if kernel == "flash_attn_3":
            config = subprocess.run(
                [sys.executable, "-c", "from flash_attn_config import CONFIG; import json; "
                 "print(json.dumps(CONFIG['build_flags']))"], capture_output=True, text=True,
                check=False).stdout.strip()
            report["flash_attn_3_build_flags"] = json.loads(config) if config else {}
        if kernel == "deepep":
            gpus = gpu_count()
            if gpus is not None and gpus < 2:
                reason = (f"DeepEP moves tokens between GPUs: each of its calls needs 2 GPUs "
                          f"(one process per GPU, NCCL); this machine has {gpus}.")
                report["not_swept"].append({"kernel": kernel, "reason": reason})
                print(f"{kernel}: not swept: {reason}", flush=True)
                continue
        rows, before = calls_of(kernel, args.timeout)
        prefix = "import torch\n" + imports
        report["boundary"] += sweep(kernel, prefix, chosen(rows), args.timeout)
        if not args.skip_before:
            report["before_patch"] += sweep(kernel, prefix, chosen(before), args.timeout)
        save(report, args.out)  # what is done so far stays, should the run be stopped
    failures = save(report, args.out, complete=True)
    print(json.dumps(report["summary"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
