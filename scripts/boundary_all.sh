#!/usr/bin/env bash
# Every kernel the wizard installed into python3, at its boundary (issue 30), then upstream's own
# test scripts that fit this machine. Run on the GPU machine after the wizard has built, verified
# and installed the kernels into python3:
#
#   PART=sweep    : scripts/boundary_sweep.py over every installed kernel (FlashAttention 3 and
#                   2, FlashMLA, SageAttention 2, DeepEP), each call in a process of its own
#   PART=upstream : upstream's test scripts, each in a process of its own with a time limit:
#                   FlashMLA's tests/test_flash_mla_dense_decoding.py, _sparse_decoding.py,
#                   _sparse_prefill.py and test_fmha_sm100.py (on SM90 it must raise, not crash);
#                   FlashAttention 2's tests/test_flash_attn.py subset (when flash_attn is
#                   installed and its tests were carried); DeepEP's tests/test_intranode.py (2 GPUs
#                   and its tests carried). SageAttention has no accuracy script runnable
#                   without models at the built commit: the sweep's rows are its measures.
#   PART=all      : both (default); about 12 minutes with the default limits, more than one
#                   10-minute device command: on the lent machine run PART=sweep, then
#                   PART=upstream.
#
# Sources (git-ignored, carried): .gpu-src/FlashMLA (git -C <FlashMLA mirror> archive HEAD |
# tar -x -C .gpu-src/FlashMLA), optionally .gpu-src/flash-attention-2 (tests/ of the FA2 tag
# that was built) and .gpu-src/DeepEP (tests/ of its commit).
#
#   run(command="PART=sweep bash scripts/boundary_all.sh", carry=[".gpu-src/FlashMLA"])
#
# $OUT gets three files (the device returns at most eight): boundary.json (PART=sweep/all),
# summary-<part>.txt (each step's exit status, seconds and the tail of its output) and
# logs-<part>.tar.gz (every step's whole output). Limits: SWEEP_LIMIT, CALL_LIMIT (one call),
# MLA_DENSE_LIMIT, MLA_SPARSE_DECODE_LIMIT, MLA_SPARSE_PREFILL_LIMIT, MLA_SM100_LIMIT,
# FA2_LIMIT, DEEPEP_LIMIT (seconds); KERNELS (the sweep's --kernels); FA2_TESTS (pytest -k);
# UPSTREAM (fa2, mla or deepep: PART=upstream runs that kernel's tests alone).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
SRC=${SRC:-$REPO/.gpu-src}
OUT=${OUT:-/tmp/boundary-all-out}
PART=${PART:-all}
R=/tmp/ksw-boundary-all-$PART  # every step's whole output; the steps' lines in steps.txt
rm -rf "$R"
mkdir -p "$R" "$OUT"
export PYTHONUNBUFFERED=1
# shellcheck source=scripts/gpu_steps.sh
source "$HERE/gpu_steps.sh"  # step

has() { python3 -c "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('$1') else 1)"; }
note() { echo "$*" | tee -a "$R/steps.txt"; }
GPUS=$(python3 -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null || echo 0)

{
    date -u +"%Y-%m-%d %H:%M UTC"
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    echo "cores: $(nproc)"
    python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)'
    python3 -m pip list 2>/dev/null | grep -i -E "^(flash|sage|deep|torch |triton)" || true
} >"$R/machine.txt" 2>&1

sweep() {
    step sweep "${SWEEP_LIMIT:-480}" python3 "$HERE/boundary_sweep.py" --out "$R/boundary.json" \
        --timeout "${CALL_LIMIT:-90}" ${KERNELS:+--kernels "$KERNELS"}
    cp "$R/boundary.json" "$OUT/boundary.json" 2>/dev/null || note "sweep: no boundary.json"
}

flashmla_upstream() {
    if ! has flash_mla; then
        note "flashmla upstream tests: not run, flash_mla is not installed"
        return
    fi
    if [ ! -d "$SRC/FlashMLA/tests" ]; then
        note "flashmla upstream tests: not run, $SRC/FlashMLA/tests was not carried"
        return
    fi
    # a copy of tests/ alone: the source tree's flash_mla/ must not shadow the installed one
    local T=/tmp/flashmla-tests
    rm -rf "$T" && cp -r "$SRC/FlashMLA/tests" "$T"
    (
        cd "$T" || exit 1
        step mla-dense-decoding "${MLA_DENSE_LIMIT:-180}" python3 test_flash_mla_dense_decoding.py
        step mla-sparse-decoding "${MLA_SPARSE_DECODE_LIMIT:-120}" \
            python3 test_flash_mla_sparse_decoding.py
        step mla-sparse-prefill "${MLA_SPARSE_PREFILL_LIMIT:-120}" \
            python3 test_flash_mla_sparse_prefill.py
        # SM100's dense prefill: on SM90 the wizard's patch makes it raise (exit 1), not crash
        step mla-fmha-sm100 "${MLA_SM100_LIMIT:-60}" python3 test_fmha_sm100.py
    )
}

fa2_upstream() {
    if ! has flash_attn; then
        note "flash_attn upstream tests: not run, flash_attn (FlashAttention 2) is not installed"
        return
    fi
    if [ ! -f "$SRC/flash-attention-2/tests/test_flash_attn.py" ]; then
        note "flash_attn upstream tests: not run, $SRC/flash-attention-2/tests was not carried"
        return
    fi
    local T=/tmp/fa2-tests
    rm -rf "$T" && cp -r "$SRC/flash-attention-2/tests" "$T"
    (
        cd "$T" || exit 1
        step fa2-upstream "${FA2_LIMIT:-150}" python3 -m pytest -q -p no:cacheprovider \
            -o addopts= --maxfail=20 test_flash_attn.py \
            -k "${FA2_TESTS:-test_flash_attn_qkvpacked or test_flash_attn_bwd_overflow}"
    )
}

deepep_upstream() {
    if ! has deep_ep; then
        note "deep_ep upstream tests: not run, deep_ep is not installed"
    elif [ "$GPUS" -lt 2 ]; then
        note "deep_ep tests/test_intranode.py: not run, it needs 2 GPUs; this machine has $GPUS"
    elif [ ! -f "$SRC/DeepEP/tests/test_intranode.py" ]; then
        note "deep_ep tests/test_intranode.py: not run, $SRC/DeepEP/tests was not carried"
    else
        local T=/tmp/deepep-tests
        rm -rf "$T" && cp -r "$SRC/DeepEP/tests" "$T"
        (
            cd "$T" || exit 1
            step deepep-intranode "${DEEPEP_LIMIT:-180}" python3 test_intranode.py \
                --num-processes 2
        )
    fi
}

upstream() {
    case "${UPSTREAM:-all}" in  # UPSTREAM=fa2 (or mla, deepep): that kernel's tests alone
    fa2) fa2_upstream; return ;;
    mla) flashmla_upstream; return ;;
    deepep) deepep_upstream; return ;;
    esac
    flashmla_upstream
    note "sageattention accuracy: the built commit (d1a57a5) has no test or accuracy script" \
        "that runs without a model (precision_metric, cosine/L1/RMSE, was a function of" \
        "core.py until cf85551; bench/ times speed only and needs flash_attn): the sweep's" \
        "sageattention rows apply those measures"
    fa2_upstream
    deepep_upstream
}

finish() {
    {
        echo "== machine"
        cat "$R/machine.txt"
        echo
        echo "== steps (name, exit status: 124 = stopped at its time limit, seconds, command)"
        cat "$R/steps.txt" 2>/dev/null
        for f in "$R"/*.txt; do
            case "$(basename "$f")" in machine.txt | steps.txt) continue ;; esac
            echo
            echo "== $(basename "$f" .txt): last 25 lines"
            tail -n 25 "$f"
        done
    } >"$OUT/summary-$PART.txt" 2>&1
    tar -czf "$OUT/logs-$PART.tar.gz" -C "$R" . 2>/dev/null
}

case "$PART" in
sweep) sweep ;;
upstream) upstream ;;
all)
    sweep
    upstream
    ;;
*)
    echo "PART must be sweep, upstream or all" >&2
    exit 2
    ;;
esac
finish
