#!/usr/bin/env bash
# FlashAttention 3 on a Hopper machine, as a user runs it headless: detect → kernels (the speed
# advice: FA2 against SDPA, FA3) → tests/gpu/test_pipeline_gpu.py's FA3 test (build the compact
# variant from hopper/, verify, install, --verify, upstream's hopper/test_flash_attn.py against
# the installed wheel), with every compile job's memory sampled once a second. Everything
# lands in $OUT/fa3-<cores>cores.tar.gz.
#
#   FA3_SOURCE=/path/to/flash-attention OUT=/tmp/out bash scripts/fa3_hopper.sh
#   FA3_BUILD_ONLY=1 ...: only the build, without verifying or installing (compile timing)
#
# Run from the repository root with the Python that holds CUDA torch as python3.
set -uo pipefail
SRC=${FA3_SOURCE:?set FA3_SOURCE to a flash-attention tree with csrc/cutlass populated}
OUT=${OUT:-/tmp/fa3-out}
export PYTHONUNBUFFERED=1
export KSW_DATA_DIR=${KSW_DATA_DIR:-/tmp/ksw-data}
CORES=$(nproc)
R="${FA3_WORK:-/tmp/fa3-work}/fa3-${CORES}cores"
mkdir -p "$R"
# shellcheck source=scripts/gpu_steps.sh
source "$(dirname "$0")/gpu_steps.sh"  # step, sample_memory

{
    date -u +"%Y-%m-%d %H:%M UTC"
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    echo "cores: $CORES"; free -g
    python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)'
    nvcc --version | tail -2
} >"$R/machine.txt" 2>&1

sample_memory & SAMPLER=$!
if [ -n "${FA3_BUILD_ONLY:-}" ]; then
    step build 900 python3 -m app --headless build --kernel flash_attn_3 --source "$SRC" \
        --no-install --skip-verify --json
else
    step detect 120 python3 -m app --headless detect
    step kernels 180 python3 -m app --headless kernels
    step kernels-json 120 python3 -m app --headless kernels --json
    step gpu-test 1500 env FA3_SOURCE="$SRC" KSW_GPU_ARTIFACTS="$R/gpu-test" \
        python3 -m pytest -p no:cacheprovider -o addopts="" -v -s \
        tests/gpu/test_pipeline_gpu.py -k flash_attention_3
    step installs 60 python3 -m app --headless installs
fi
kill "$SAMPLER" 2>/dev/null
tail -1 "$R/memory.txt" >"$R/memory-peak.txt" 2>/dev/null

mkdir -p "$R/data"
(cd "$KSW_DATA_DIR" && find . -type f \( -name '*.md' -o -name '*.json' -o -name '*.log' \) \
    -size -4M -print0 | xargs -0 -r cp --parents -t "$R/data")
mkdir -p "$OUT"; tar -czf "$OUT/fa3-${CORES}cores.tar.gz" -C "$(dirname "$R")" "fa3-${CORES}cores"
