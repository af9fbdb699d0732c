#!/usr/bin/env bash
# The verified-wheel cache on a lent GPU (issue 33): FlashAttention 3 (compact) built through the
# wizard into one fresh environment, then installed into a second one from the cache, both
# timed by benchmarks/cache_reinstall.py. Runs from a git archive of the committed tree:
#
#   git archive --prefix=wizard/ HEAD | xz -1 > .gpu-src/head/wizard.tar.xz
#   run(command="bash scripts/cache_round.sh", carry=[".gpu-src/pack", ".gpu-src/head", ".whl"])
#
# .gpu-src/pack/fa3.tar.xz: see scripts/speed_round.sh. Results: $OUT/cache-fa3.json and the
# benchmark's output in $OUT/cache-fa3.txt.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/src
tar -xJf .gpu-src/pack/fa3.tar.xz -C /tmp/src
if ! python3 -c 'import platformdirs' 2>/dev/null && ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps .whl/*.whl
fi
rm -rf /tmp/wizard && tar -xJf .gpu-src/head/wizard.tar.xz -C /tmp
cd /tmp/wizard || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/cache-fa3.txt"
PYTHONUNBUFFERED=1 timeout "${LIMIT:-520}" python3 benchmarks/cache_reinstall.py \
    --kernel flash_attn_3 --python "$(command -v python3)" --source /tmp/src/flash-attention \
    --json "$OUT/cache-fa3.json" 2>&1 | tee -a "$OUT/cache-fa3.txt"
