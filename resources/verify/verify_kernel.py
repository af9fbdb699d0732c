"""Verify an attention kernel against a PyTorch reference, in the environment it runs in.

Run by the Kernel Setup Wizard with the *target* interpreter (never imported by the wizard):

    python verify_kernel.py --adapter probe|flash_attn|flashmla|sageattention... --out report.json
                            [--device auto|cpu|cuda] [--quick] [--seed N] [--adapter-path DIR]

The adapters are the modules of ``adapters/`` (one per kernel family); ``--adapter-path DIR``
(repeatable) adds the adapters of a folder outside the wizard (a kernel of one's own: see
``KSW_EXTRA_KERNELS`` in ``kernel_wizard/base/resources.py``).

Several kernels of one environment in one process (one torch import and CUDA start for all):

    python verify_kernel.py --adapter flash_attn --adapter flashmla ... --out-dir DIR

Each kernel is verified as if alone (its own report, ``DIR/<adapter>.json``, and its own
"verifying adapter '...'" line before its progress lines); between two kernels the process
frees what the first left (garbage, PyTorch's cached GPU memory). When the GPU stops working
after a kernel, the process stops there with exit code 2: the kernels after it get no report,
and the wizard verifies them each in a process of its own.

Needs only the standard library, torch and the kernel under test. What the wizard reads back
(progress lines starting with ``[ksw-verify]``, the report of schema ``ksw.verify/1`` written
to ``--out`` and printed between two marker lines, the exit codes) is defined in
``harness_protocol.py``, which the wizard reads too. Exit code: 0 pass, 1 fail, 2 error (the
verification could not run; with several kernels: the worst of them, 2 also when one got no
report), 64 bad command line.

Device hooks: when a module named ``ksw_verify_hooks`` can be imported (it is on
``PYTHONPATH``), its ``install(hc)`` is called with ``harness_common`` before any adapter runs,
and may replace ``hc.gpu_device`` and ``hc.device_capability``, which choose the device a
GPU-only adapter checks on. The wizard never provides one; its own tests do
(``tests/support/verify_hooks/ksw_verify_hooks.py``: GPU adapters on the CPU against stand-in
packages), and the hooks' file is named in the log.
"""

from __future__ import annotations

import argparse
import copy
import gc
import importlib
import importlib.util
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import adapters  # noqa: E402
import harness_boundary as hb  # noqa: E402
import harness_common as hc  # noqa: E402
import harness_gate  # noqa: E402
import harness_protocol as protocol  # noqa: E402

HOOKS_MODULE = "ksw_verify_hooks"


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", required=True, action="append",
                        help="the kernel's adapter (a module of adapters/); give it several "
                             "times to verify several kernels of this environment in one "
                             "process")
    parser.add_argument(protocol.ADAPTER_PATH_OPTION, dest="adapter_path", action="append",
                        default=[], metavar="DIR",
                        help="a folder with more adapters (repeatable)")
    parser.add_argument("--out", default=None, help="where to write the JSON report")
    parser.add_argument("--out-dir", default=None,
                        help="where to write one JSON report per adapter (<adapter>.json)")
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    parser.add_argument("--quick", action="store_true", help="only the essential cases")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    known = protocol.adapter_names(args.adapter_path)
    unknown = [name for name in args.adapter if name not in known]
    if unknown:
        parser.error(f"unknown adapter {unknown[0]!r} (known: {', '.join(known)})")
    if len(set(args.adapter)) != len(args.adapter):
        parser.error("each adapter may be given once")
    if len(args.adapter) > 1 and args.out:
        parser.error("--out takes the report of one adapter; give --out-dir for several")
    return args


def _options_text(args):
    quick = ", quick" if args.quick else ""
    return f"device {args.device}{quick}, seed {args.seed}"


def _python_text():
    return f"Python {sys.version.split()[0]}"


def _run_adapter(h, args, torch, environment):
    """Run one adapter in ``h``; returns its finished report. ``torch`` and ``environment``
    were imported and recorded once for the whole process (None: import here, as alone)."""
    error = None
    try:
        h.torch = torch if torch is not None else hc.import_torch()
        # recorded before the kernel is imported, so that a report of a kernel that fails to
        # import still says which torch and GPU it met; adapters may refine it
        if environment is None:
            use_cuda = args.device != "cpu" and h.cuda_usable()
            environment = hc.environment_facts(h.torch, use_cuda)
        h.report["environment"] = copy.deepcopy(environment)
        adapter = importlib.import_module("adapters." + h.adapter)
        _adapter_run(h, adapter)
    except hc.HarnessError as exc:
        error = exc
    except KeyboardInterrupt:
        error = hc.HarnessError("interrupted", "The verification was interrupted.")
    except Exception as exc:
        error = hc.HarnessError(
            "harness_crash",
            f"The verification script failed unexpectedly: {hc.short_exception(exc)}",
            traceback.format_exc(limit=8),
        )
    report = h.finish(error)
    first = (" - " + report["reasons"][0]) if report["reasons"] else ""
    hc.log(f"overall: {report['status'].upper()}{first}")
    return report


def _prestart_boundary(args):
    """Start the torch import of the processes that the adapters' boundary calls fork from
    (harness_boundary.prestart) now, beside this process's own: one per adapter that makes
    such calls (``BOUNDARY_CALLS`` in its module)."""
    count = 0
    for name in args.adapter:
        try:
            count += bool(getattr(importlib.import_module("adapters." + name),
                                  "BOUNDARY_CALLS", False))
        except Exception:
            continue  # its own run reports why it cannot be imported
    if count:
        hb.prestart(count, one_gpu=args.device != "cpu")


def _adapter_run(h, adapter):
    """``adapter.run(h)`` holding the GPU gate (harness_gate), unless the adapter holds it
    itself (``GPU_GATE_INSIDE``: DeepEP, whose worker processes start first)."""
    if getattr(adapter, "GPU_GATE_INSIDE", False) or not harness_gate.configured():
        adapter.run(h)
        return
    with harness_gate.held() as gate:
        turn = harness_gate.record_turn(h.report, gate)
        waited = harness_gate.waited_words(gate)
        if waited:
            hc.log(waited)
        try:
            adapter.run(h)
        finally:
            harness_gate.end_turn(turn)


def _out_path(args, adapter):
    if args.out_dir:
        return os.path.join(args.out_dir, adapter + ".json")
    return args.out


def _install_hooks():
    """Call ``ksw_verify_hooks.install(hc)`` when that module exists (see the docstring)."""
    if importlib.util.find_spec(HOOKS_MODULE) is None:
        return
    hooks = importlib.import_module(HOOKS_MODULE)
    hc.log(f"device hooks from {hooks.__file__}")
    hooks.install(hc)


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return protocol.EXIT_USAGE if exc.code else 0
    # adapters of other folders join the package: ``adapters.<name>`` finds them (and they
    # may import the shipped ones, as ``from adapters import flash_attn``)
    adapters.__path__.extend(os.path.abspath(p) for p in args.adapter_path)
    _install_hooks()
    _prestart_boundary(args)
    if len(args.adapter) == 1:
        adapter = args.adapter[0]
        h = hc.Harness(adapter, args.device, args.quick, args.seed)
        hc.log(protocol.adapter_line(adapter, f"({_options_text(args)}) with {_python_text()}"))
        report = _run_adapter(h, args, None, None)
        hc.emit_report(report, _out_path(args, adapter))
        return protocol.EXIT_CODES.get(report["status"], protocol.EXIT_ERROR)
    return run_several(args)


def run_several(args):
    """Every adapter of ``args`` in this process, one after the other; see the docstring."""
    names = list(args.adapter)
    hc.log(f"verifying {len(names)} kernels in one process: {', '.join(names)} "
           f"({_options_text(args)}) with {_python_text()}")
    torch = environment = None
    try:
        torch = hc.import_torch()
        use_cuda = args.device != "cpu" and bool(torch.cuda.is_available())
        environment = hc.environment_facts(torch, use_cuda)
    except hc.HarnessError:
        torch = None  # each adapter tries again and reports why it cannot, as alone
    except Exception:
        environment = None
    codes = []
    for number, adapter in enumerate(names, 1):
        h = hc.Harness(adapter, args.device, args.quick, args.seed)
        h.report["options"]["shared_process"] = list(names)
        hc.log(protocol.adapter_line(adapter, f"({_options_text(args)}) with {_python_text()} "
                                              f"[{number}/{len(names)} in this process]"))
        report = _run_adapter(h, args, torch, environment)
        hc.emit_report(report, _out_path(args, adapter))
        codes.append(protocol.EXIT_CODES.get(report["status"], protocol.EXIT_ERROR))
        if number == len(names):
            break
        stop = None
        if report.get("error_kind") == "interrupted":
            stop = "the verification was interrupted"
        elif h.cuda_broken:
            stop = h.cuda_broken
        elif h.torch is not None:
            stop = _release(h.torch, adapter)
        del h, report
        if stop:
            hc.log(protocol.stop_line(adapter, stop, names[number:]))
            return protocol.EXIT_ERROR
    return max(codes) if codes else protocol.EXIT_ERROR


def _release(torch, adapter):
    """Free what the last kernel left before the next starts; None, or why the process must
    stop (the GPU no longer works: the next kernel would fail for the last one's fault)."""
    gc.collect()
    try:
        if not torch.cuda.is_initialized():
            return None
    except Exception:
        return None
    try:
        torch.cuda.synchronize()
        torch.zeros(1, device="cuda").add_(1).item()
        torch.cuda.empty_cache()
    except Exception as exc:
        return f"the GPU stopped working after '{adapter}' ({hc.short_exception(exc, 200)})"
    return None


if __name__ == "__main__":
    sys.exit(main())
