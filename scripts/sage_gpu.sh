#!/usr/bin/env bash
# SageAttention 2 on a GPU machine (issue 22), as a user runs it headless: detect → check (the
# Triton row) → kernels → tests/gpu/test_sageattention_gpu.py (build through the wizard from a
# local source copy, narrowed to this GPU; verify, forward only; install; --verify; the
# accuracy check of every SageAttention entry point against the installed wheel), with every
# compile job's memory sampled once a second (the recipe's memory_gb_per_thread is an estimate
# to be replaced by this figure). Everything lands in $OUT/sage-<cores>cores.tar.gz.
#
#   OUT=/tmp/out bash scripts/sage_gpu.sh                 # source: .gpu-src/SageAttention
#   SAGE_SOURCE=/path/to/SageAttention OUT=... bash scripts/sage_gpu.sh
#   SAGE_BUILD_ONLY=1 ...: only the build, without verifying or installing (compile timing)
#
# The source copy (git-ignored), made on the development machine from the mirror at the
# recipe's commit, without the images (assets/, example/videos/) so that it travels small:
#   mkdir -p .gpu-src/SageAttention && git -C /work/.mirror/thu-ml+SageAttention/repo archive \
#     d1a57a546c3d395b1ffcbeecc66d81db76f3b4b5 -- . ':!assets' ':!example/videos' \
#     | tar -x -C .gpu-src/SageAttention
# On the device: run(command="bash scripts/sage_gpu.sh", carry=[".gpu-src/SageAttention"]).
#
# Run from the repository root with the Python that holds CUDA torch as python3.
set -uo pipefail
SRC=${SAGE_SOURCE:-$PWD/.gpu-src/SageAttention}
if [ ! -f "$SRC/setup.py" ]; then
    echo "no SageAttention source at $SRC (see the top of this script)" >&2
    exit 2
fi
OUT=${OUT:-/tmp/sage-out}
export PYTHONUNBUFFERED=1
export KSW_DATA_DIR=${KSW_DATA_DIR:-/tmp/ksw-data}
CORES=$(nproc)
R="${SAGE_WORK:-/tmp/sage-work}/sage-${CORES}cores"
mkdir -p "$R"
# shellcheck source=scripts/gpu_steps.sh
source "$(dirname "$0")/gpu_steps.sh"  # step, sample_memory

{
    date -u +"%Y-%m-%d %H:%M UTC"
    nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total --format=csv
    echo "cores: $CORES"; free -g
    python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)'
    python3 -c 'import triton; print("triton", triton.__version__)'
    nvcc --version | tail -2
    echo "source: $SRC"; ls "$SRC"
} >"$R/machine.txt" 2>&1

sample_memory & SAMPLER=$!
if [ -n "${SAGE_BUILD_ONLY:-}" ]; then
    step build 1500 python3 -m app --headless build --kernel sageattention --source "$SRC" \
        --no-install --skip-verify --json
else
    step detect 120 python3 -m app --headless detect
    step check 180 python3 -m app --headless check
    step kernels 180 python3 -m app --headless kernels
    step kernels-json 120 python3 -m app --headless kernels --json
    step gpu-test 3000 env SAGE_SOURCE="$SRC" KSW_GPU_ARTIFACTS="$R/gpu-test" \
        python3 -m pytest -p no:cacheprovider -o addopts="" -v -s \
        tests/gpu/test_sageattention_gpu.py
    step installs 60 python3 -m app --headless installs
fi
kill "$SAMPLER" 2>/dev/null
tail -1 "$R/memory.txt" >"$R/memory-peak.txt" 2>/dev/null

mkdir -p "$R/data"
(cd "$KSW_DATA_DIR" && find . -type f \( -name '*.md' -o -name '*.json' -o -name '*.log' \) \
    -size -4M -print0 | xargs -0 -r cp --parents -t "$R/data")
mkdir -p "$OUT"; tar -czf "$OUT/sage-${CORES}cores.tar.gz" -C "$(dirname "$R")" "sage-${CORES}cores"
cat "$R/steps.txt"
