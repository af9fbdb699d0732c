"""Verify an attention kernel against a PyTorch reference, in the environment it runs in.

Run by the Kernel Setup Wizard with the *target* interpreter (never imported by the wizard):

    python verify_kernel.py --adapter probe|flash_attn|flashmla|sageattention... --out report.json
                            [--device auto|cpu|cuda] [--quick] [--seed N]

Needs only the standard library, torch and the kernel under test. Progress lines start with
``[ksw-verify]``; the report (schema ``ksw.verify/1``) is written to ``--out`` and printed
between ``@@KSW-VERIFY-BEGIN@@`` and ``@@KSW-VERIFY-END@@``. Exit code: 0 pass, 1 fail,
2 error (the verification could not run), 64 bad command line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import harness_common as hc  # noqa: E402

ADAPTERS = ("probe", "flash_attn", "flash_attn_3", "flashmla", "deepep", "sageattention",
            "sageattention3")
EXIT_CODES = {"pass": 0, "fail": 1, "error": 2}


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", required=True, choices=ADAPTERS)
    parser.add_argument("--out", default=None, help="where to write the JSON report")
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    parser.add_argument("--quick", action="store_true", help="only the essential cases")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return 64 if exc.code else 0
    h = hc.Harness(args.adapter, args.device, args.quick, args.seed)
    quick = ", quick" if args.quick else ""
    hc.log(
        f"verifying adapter '{args.adapter}' (device {args.device}{quick}, seed {args.seed}) "
        f"with Python {sys.version.split()[0]}"
    )
    error = None
    try:
        h.torch = hc.import_torch()
        # recorded before the kernel is imported, so that a report of a kernel that fails to
        # import still says which torch and GPU it met; adapters may refine it
        use_cuda = args.device != "cpu" and h.cuda_usable()
        h.report["environment"] = hc.environment_facts(h.torch, use_cuda)
        adapter = importlib.import_module("adapters." + args.adapter)
        adapter.run(h)
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
    hc.emit_report(report, args.out)
    return EXIT_CODES.get(report["status"], 2)


if __name__ == "__main__":
    sys.exit(main())
