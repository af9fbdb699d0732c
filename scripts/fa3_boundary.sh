#!/usr/bin/env bash
# FlashAttention 3 at its boundary on a Hopper machine (issue: an installed kernel never crashes
# the user's program). Two parts, each within one 10-minute device command:
#
#   PART=build  : build the default (compact) variant through the wizard, verify it (with the
#                 boundary checks) and install it; then scripts/boundary_sweep.py -> boundary.json
#   WITH_UPSTREAM=1: the upstream part right after, in the same command
#   PART=upstream: upstream's hopper/test_flash_attn.py subsets on the installed wheel, with the
#                 build's FLASH_ATTENTION_DISABLE_* flags exported as upstream intends
#
#   mkdir -p .gpu-src/flash-attention/csrc/cutlass
#   git -C <flash-attention mirror> archive 0251105a hopper README.md | tar -x -C .gpu-src/flash-attention
#   git -C <cutlass mirror> archive 7127592 include | tar -x -C .gpu-src/flash-attention/csrc/cutlass
#   run(command="PART=build bash scripts/fa3_boundary.sh", carry=[".gpu-src/flash-attention", ".whl"])
#
# Everything lands in $OUT (build JSON, progress, sweep JSON, upstream output).
set -uo pipefail
SRC=${FA3_SOURCE:-$PWD/.gpu-src/flash-attention}
OUT=${OUT:-/tmp/fa3-boundary-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export KSW_DATA_DIR=${KSW_DATA_DIR:-/tmp/ksw-data}
if ! python3 -c 'import platformdirs' 2>/dev/null && ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps .whl/*.whl
fi
R=$OUT
# shellcheck source=scripts/gpu_steps.sh
source "$(dirname "$0")/gpu_steps.sh"  # step

upstream() {
    T=/tmp/fa3-upstream && rm -rf "$T" && mkdir -p "$T"
    for f in test_flash_attn.py test_util.py padding.py; do cp "$SRC/hopper/$f" "$T/"; done
    eval "$(python3 -c 'from flash_attn_config import CONFIG
for k, v in CONFIG["build_flags"].items():
    if v and k.startswith(("FLASHATTENTION_DISABLE_", "FLASH_ATTENTION_DISABLE_")):
        print("export FLASH_ATTENTION_DISABLE_" + k.split("DISABLE_", 1)[1] + "=TRUE")')"
    env | grep FLASH_ATTENTION_DISABLE_ | sort >"$OUT/upstream-flags.txt"
    (
        cd "$T" || exit 1
        step upstream-kvcache "${KV_LIMIT:-300}" python3 -m pytest -q -p no:cacheprovider \
            -o addopts= test_flash_attn.py -k kvcache
        step upstream-race "${RACE_LIMIT:-200}" python3 -m pytest -q -p no:cacheprovider \
            -o addopts= test_flash_attn.py -k "race_condition and 128-128"
    )
}

case "${PART:-build}" in
build)
    {
        date -u +"%Y-%m-%d %H:%M UTC"
        nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
        echo "cores: $(nproc)"
        python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)'
    } >"$OUT/machine.txt" 2>&1
    rm -rf /tmp/fa3-src && cp -r "$SRC" /tmp/fa3-src
    step build 560 python3 -m app --headless build --kernel flash_attn_3 --source /tmp/fa3-src \
        --json --yes
    cp "$OUT/build.txt" "$OUT/build-output.txt" 2>/dev/null
    step sweep "${SWEEP_LIMIT:-400}" python3 scripts/boundary_sweep.py --out "$OUT/boundary.json"
    [ -n "${WITH_UPSTREAM:-}" ] && upstream
    ;;
upstream)
    upstream
    ;;
esac
