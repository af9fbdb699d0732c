#!/usr/bin/env bash
# DeepEP's whole flow on a machine with 2, 4 or 8 NVLink GPUs, as a user runs it headless:
# detect → kernels → build (verify on every GPU count the machine has, then install) → --verify
# → --verify --quick → upstream's tests/test_intranode.py against the installed wheel →
# rollback, then tests/gpu/test_deepep_gpu.py. Every output lands in one archive,
# $OUT/deepep-<N>gpu.tar.gz (the device tool brings back few files).
#
#   DEEPEP_SOURCE=/path/to/DeepEP-567632d OUT=/tmp/out bash scripts/deepep_multi_gpu.sh
#
# Run from the repository root with the Python that holds CUDA torch as python3. NVLink
# multicast stays off (the machine's rule, and the wizard's for every child it starts).
set -uo pipefail
SRC=${DEEPEP_SOURCE:?set DEEPEP_SOURCE to a DeepEP work tree (the V1 line, 567632d)}
OUT=${OUT:-/tmp/deepep-out}
VERSION=${DEEPEP_VERSION:-1.2.1+567632d}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
export KSW_DATA_DIR=${KSW_DATA_DIR:-/tmp/ksw-data}
N=$(python3 -c 'import torch; print(torch.cuda.device_count())')
R="${DEEPEP_WORK:-/tmp/deepep-work}/deepep-${N}gpu"
mkdir -p "$R"
# shellcheck source=scripts/gpu_steps.sh
source "$(dirname "$0")/gpu_steps.sh"  # step, sample_memory

{
    date -u +"%Y-%m-%d %H:%M UTC"
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    nvidia-smi topo -m
    nproc
    python3 -c 'import torch; print("torch", torch.__version__, "NCCL", torch.cuda.nccl.version())'
} >"$R/machine.txt" 2>&1

step detect 120 python3 -m app --headless detect
step kernels 120 python3 -m app --headless kernels
step build 900 python3 -m app --headless build --kernel deepep --version "$VERSION" \
    --source "$SRC" --json --yes
# stdout (the JSON) and stderr (progress) apart
python3 - "$R" <<'EOF'
import pathlib, sys
r = pathlib.Path(sys.argv[1])
text = (r / "build.txt").read_text(encoding="utf-8")
start = text.find("\n{\n")
(r / "build-progress.txt").write_text(text[: start + 1], encoding="utf-8")
(r / "build.json").write_text(text[start + 1:], encoding="utf-8")
EOF
step installs 60 python3 -m app --headless installs
step verify 600 python3 -m app --verify
step verify-quick 600 python3 -m app --verify --quick
# upstream's own test, against the installed wheel (run from its tests folder, so that the
# source tree's deep_ep folder is not on the path)
(cd "$SRC/tests" && python3 -c 'import deep_ep; print("deep_ep from", deep_ep.__file__)' \
    >"$R/upstream-import.txt" 2>&1 && \
    step upstream-intranode 600 python3 test_intranode.py --num-processes "$N")
step rollback 300 python3 -m app --headless rollback --kernel deepep --yes
step installs-after 60 python3 -m app --headless installs
python3 -c 'import deep_ep' >"$R/import-after-rollback.txt" 2>&1
echo "import after rollback: exit $?" >>"$R/import-after-rollback.txt"

# the reports the wizard wrote (report.md, report.json, the build log)
mkdir -p "$R/data"
(cd "$KSW_DATA_DIR" && find . -type f \( -name '*.md' -o -name '*.json' -o -name '*.log' \) \
    -size -4M -print0 | xargs -0 -r cp --parents -t "$R/data")

step gpu-test 900 env DEEPEP_SOURCE="$SRC" KSW_GPU_ARTIFACTS="$R/gpu-test" \
    python3 -m pytest -p no:cacheprovider -o addopts="" -v -s tests/gpu/test_deepep_gpu.py

mkdir -p "$OUT"; tar -czf "$OUT/deepep-${N}gpu.tar.gz" -C "$(dirname "$R")" "deepep-${N}gpu"

