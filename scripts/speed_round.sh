#!/usr/bin/env bash
# One GPU round for issues 29 and 30 on a lent Hopper machine, longer than one 10-minute device
# command: the work runs in the background (setsid) and each device command waits for it.
#
#   run(command="PART=start bash scripts/speed_round.sh", carry=[".gpu-src/pack", ".whl"])
#   run(command="PART=wait bash scripts/speed_round.sh")     # again until it says "finished"
#
# .gpu-src/pack holds xz tarballs of the sources at the recipes' commits (git-ignored, made on
# the development machine from the mirrors; see docs/recorded/h200-2026-11-28/README.md):
#   fa3.tar.xz (flash-attention hopper/ + README.md at 0251105a, CUTLASS include at 7127592),
#   flashmla.tar.xz (FlashMLA 9241ae3, csrc/cutlass: CUTLASS 147f567 include + tools/util/include),
#   sage.tar.xz (SageAttention d1a57a5 without its images).
#
# Steps (everything lands in $ROUND, copied to $OUT by each PART=wait):
#   1. PyTorch's attention timed at every workload (resources/probes/sdpa_speed.py), GPU idle
#   2. SageAttention built through the wizard in the background, its output recorded for the
#      ETA benchmark (benchmarks/record_build.py: never used to calibrate anything);
#      FlashAttention 3 (default compact variant) and FlashMLA built through the wizard meanwhile
#   3. benchmarks/workload_speed.py: the kernels at every workload, the way the wizard judges
#   4. benchmarks/speed_agreement.py: the wizard's figure against an independent timing
#   5. the boundary sweep of every installed kernel and upstream's tests (scripts/boundary_all.sh)
#   6. --verify and --verify --quick of the installed kernels, timed (benchmarks/reverify_bench.py)
#   7. kernels (the speed verdict per workload) with the new probe
set -uo pipefail
ROUND=${ROUND:-/tmp/round}
HERE=$(cd "$(dirname "$0")/.." && pwd)

case "${PART:-start}" in
start)
    rm -rf "$ROUND" && mkdir -p "$ROUND" /tmp/src
    for t in .gpu-src/pack/*.tar.xz; do tar -xJf "$t" -C /tmp/src; done
    if ! python3 -c 'import platformdirs' 2>/dev/null && ls .whl/*.whl >/dev/null 2>&1; then
        python3 -m pip install -q --no-index --no-deps .whl/*.whl
    fi
    # a verified-wheel cache an earlier round brought back (RUN=run-cached installs from it)
    if ls .gpu-src/cache/cache-part-* >/dev/null 2>&1; then
        rm -rf /tmp/ksw-cache-in && mkdir -p /tmp/ksw-cache-in
        cat .gpu-src/cache/cache-part-* | tar -xf - -C /tmp/ksw-cache-in
    fi
    # the round runs from its own copy (the device may replace ours): the committed tree from
    # .gpu-src/head/wizard.tar.xz (git archive --prefix=wizard/ HEAD) when carried, else this one
    if [ -f .gpu-src/head/wizard.tar.xz ]; then
        rm -rf /tmp/wizard && tar -xJf .gpu-src/head/wizard.tar.xz -C /tmp
    else
        cp -r "$HERE" /tmp/wizard
    fi
    (cd /tmp/wizard && setsid nohup env PART="${RUN:-run}" ROUND="$ROUND" bash scripts/speed_round.sh \
        >"$ROUND/run.log" 2>&1 &)
    sleep 5
    PART=wait WAIT=${WAIT:-560} bash "$0"
    ;;
wait)
    limit=${WAIT:-570}
    while [ ! -f "$ROUND/finished" ] && [ "$SECONDS" -lt "$limit" ]; do sleep 5; done
    cat "$ROUND/steps.txt" 2>/dev/null
    [ -f "$ROUND/finished" ] && echo "finished" || echo "still running"
    # the device returns at most 8 files: one archive (no wheels), the steps and, once the
    # round has finished, up to 5 parts of the verified-wheel cache (RUN=run-all)
    mkdir -p "${OUT:-/tmp/out}"
    tar -czf "${OUT:-/tmp/out}/round.tar.gz" --exclude='*.whl' --exclude='cache-part-*' \
        -C "$ROUND" . 2>/dev/null
    cp "$ROUND/steps.txt" "${OUT:-/tmp/out}/" 2>/dev/null
    [ -f "$ROUND/finished" ] && cp "$ROUND"/cache-part-* "${OUT:-/tmp/out}/" 2>/dev/null
    ;;
run-all)
    # RUN=run-all with PART=start on 2+ NVLink GPUs (64 cores: nvidia-h200-x4): every kernel of
    # the catalog built through the wizard into one fresh environment (FlashAttention 2 from
    # its 2.8.3 sdist, fa2.tar.xz, and SageAttention in the background, recorded for the ETA
    # benchmark), then (issue 29) re-verification timed with its reports kept and the speed
    # agreement; (issue 30) FlashAttention 2 at its boundary and upstream's tests on its wheel;
    # (issue 33) FlashAttention 3, SageAttention and FlashAttention 2 into a second fresh
    # environment from the verified cache, timed; the cache (without FlashAttention 2's wheel)
    # comes back in parts for a later round to install from.
    export PYTHONUNBUFFERED=1 KSW_DATA_DIR=/tmp/ksw-data
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
    R=$ROUND
    # shellcheck source=scripts/gpu_steps.sh
    source scripts/gpu_steps.sh  # step, machine_facts, fresh_env
    machine_facts "$R/machine.txt"
    A=$(fresh_env /tmp/env-first) && B=$(fresh_env /tmp/env-second) || { touch "$R/finished"; exit 1; }
    echo "first environment $A, second $B" >>"$R/steps.txt"
    (
        started=$SECONDS
        timeout 1500 python3 -m app --headless build --kernel flash_attn --python "$A" \
            --version 2.8.3 --source /tmp/src/flash-attention-2 --json --yes >"$R/fa2-build.txt" 2>&1
        echo "fa2-build exit $? $((SECONDS - started)) s" >>"$R/steps.txt"
    ) &
    FA2=$!
    (
        started=$SECONDS
        KSW_BUILD_ROOT=/tmp/ksw-rec-build timeout 1500 python3 benchmarks/record_build.py \
            "$R/sage-x4" . -- python3 -m app --headless build --kernel sageattention \
            --python "$A" --source /tmp/src/SageAttention --verbose --yes >"$R/sage-record.txt" 2>&1
        echo "sage-build exit $? $((SECONDS - started)) s" >>"$R/steps.txt"
    ) &
    SAGE=$!
    step fa3-build 900 python3 -m app --headless build --kernel flash_attn_3 --python "$A" \
        --source /tmp/src/flash-attention --json --yes
    step flashmla-build 900 python3 -m app --headless build --kernel flashmla --python "$A" \
        --source /tmp/src/FlashMLA --json --yes
    step deepep-build 900 python3 -m app --headless build --kernel deepep --python "$A" \
        --version 1.2.1+567632d --source /tmp/src/DeepEP --json --yes
    wait "$SAGE" "$FA2"
    step installs 60 python3 -m app --headless installs
    step reverify-quick 300 python3 benchmarks/reverify_bench.py --json "$R/reverify-quick.json"
    step reverify-full 300 python3 benchmarks/reverify_bench.py --full --json "$R/reverify-full.json"
    cp -r "$KSW_DATA_DIR/reports" "$R/reports" 2>/dev/null
    # the speed agreement and FA2's boundary and tests run with env A's python3 (the kernels)
    (
        export PATH="$(dirname "$A"):$PATH"
        step speed-agreement 400 python3 benchmarks/speed_agreement.py \
            --out "$R/speed_agreement.json"
        step fa2-sweep 400 env PART=sweep KERNELS=flash_attn SRC=/tmp/src OUT="$R/sweep-fa2" \
            CALL_LIMIT=60 bash scripts/boundary_all.sh
        step fa2-upstream 400 env PART=upstream UPSTREAM=fa2 SRC=/tmp/src OUT="$R/upstream" \
            FA2_LIMIT=300 bash scripts/boundary_all.sh
    )
    step cache-fa3 300 python3 -m app --headless build --kernel flash_attn_3 --python "$B" \
        --json --yes
    step cache-sage 300 python3 -m app --headless build --kernel sageattention --python "$B" \
        --json --yes
    step cache-fa2 300 python3 -m app --headless build --kernel flash_attn --python "$B" \
        --version 2.8.3 --json --yes
    step wheel-cache 60 python3 -m app --headless installs
    du -ab "$KSW_DATA_DIR/wheel-cache" >"$R/wheel-cache-sizes.txt" 2>&1
    # the cache without FlashAttention 2's wheel (too large to come back), in 15 MiB parts
    (cd "$KSW_DATA_DIR" && tar -cf - --exclude='flash_attn-2*' wheel-cache | split -b 15M - \
        "$R/cache-part-")
    ls -la "$R"/cache-part-* >>"$R/steps.txt" 2>&1
    touch "$R/finished"
    ;;
run-cached)
    # RUN=run-cached with PART=start on 2 NVLink GPUs (nvidia-h200-x2; DeepEP needs two), no
    # compiling: the verified-wheel cache that a run-all round brought back (carried as
    # .gpu-src/cache/cache-part-*: FA3 compact, SageAttention 2, FlashMLA, DeepEP) is the
    # wizard's cache here. (issue 33) each kernel installed from it into a fresh environment,
    # verified there first, timed; (issue 29) --verify --quick of the four timed twice and once
    # in full, where its seconds go (benchmarks/harness_timeline.py), the speed agreement and
    # how far a queued timing drifts from one measurement to the next.
    export PYTHONUNBUFFERED=1 KSW_DATA_DIR=/tmp/ksw-data
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
    R=$ROUND
    # shellcheck source=scripts/gpu_steps.sh
    source scripts/gpu_steps.sh  # step, machine_facts, fresh_env
    machine_facts "$R/machine.txt"
    rm -rf "$KSW_DATA_DIR" && mkdir -p "$KSW_DATA_DIR"
    cp -r /tmp/ksw-cache-in/wheel-cache "$KSW_DATA_DIR/" || { touch "$R/finished"; exit 1; }
    B=$(fresh_env /tmp/env-cached) || { touch "$R/finished"; exit 1; }
    echo "environment $B" >>"$R/steps.txt"
    step kernels-before 120 python3 -m app --headless kernels --python "$B"
    step cache-fa3 300 python3 -m app --headless build --kernel flash_attn_3 --python "$B" \
        --json --yes
    step cache-sage 300 python3 -m app --headless build --kernel sageattention --python "$B" \
        --json --yes
    step cache-mla 300 python3 -m app --headless build --kernel flashmla --python "$B" \
        --json --yes
    step cache-deepep 300 python3 -m app --headless build --kernel deepep --python "$B" \
        --version 1.2.1+567632d --json --yes
    step installs 60 python3 -m app --headless installs
    step reverify-quick 300 python3 benchmarks/reverify_bench.py --json "$R/reverify-quick.json"
    step reverify-quick2 300 python3 benchmarks/reverify_bench.py --json "$R/reverify-quick2.json"
    step reverify-full 300 python3 benchmarks/reverify_bench.py --full --json "$R/reverify-full.json"
    cp -r "$KSW_DATA_DIR/reports" "$R/reports" 2>/dev/null
    step timeline-shared 200 python3 benchmarks/harness_timeline.py --python "$B" --quick \
        --startup --adapters flash_attn_3,flashmla,sageattention
    step timeline-deepep 200 python3 benchmarks/harness_timeline.py --python "$B" --quick \
        --startup --adapters deepep
    (
        export PATH="$(dirname "$B"):$PATH"
        step speed-agreement 400 python3 benchmarks/speed_agreement.py \
            --out "$R/speed_agreement.json"
        step drift-fa3 300 python3 benchmarks/timing_drift.py --adapter flash_attn_3
        step drift-sage 300 python3 benchmarks/timing_drift.py --adapter sageattention \
            --backend default
    )
    touch "$R/finished"
    ;;
run-sage)
    # RUN=run-sage with PART=start (nvidia-h200-x2: 32 cores): one SageAttention 2 build through
    # the wizard into a fresh environment, recorded by benchmarks/record_build.py (its output
    # with timestamps and, on Linux, the CPU seconds its compilers got) for the ETA benchmark's
    # held-out part: never used to calibrate anything (issue 29, item 4). A cold build: its own
    # data folder, no build history.
    export PYTHONUNBUFFERED=1 KSW_DATA_DIR=/tmp/ksw-data-rec
    R=$ROUND
    # shellcheck source=scripts/gpu_steps.sh
    source scripts/gpu_steps.sh  # step, machine_facts, fresh_env
    machine_facts "$R/machine.txt"
    rm -rf "$KSW_DATA_DIR" /tmp/ksw-rec-build
    A=$(fresh_env /tmp/env-sage) || { touch "$R/finished"; exit 1; }
    started=$SECONDS
    KSW_BUILD_ROOT=/tmp/ksw-rec-build timeout 1500 python3 benchmarks/record_build.py \
        "$R/sage-${REC_NAME:-x2}" . -- python3 -m app --headless build --kernel sageattention \
        --python "$A" --source /tmp/src/SageAttention --verbose --yes >"$R/sage-record.txt" 2>&1
    echo "sage-build exit $? $((SECONDS - started)) s" >>"$R/steps.txt"
    touch "$R/finished"
    ;;
run-record)
    # RUN=run-record with PART=start (one GPU is enough): the kernels of KERNELS (default
    # FlashAttention 3's compact variant, then FlashMLA) built through the wizard one after the
    # other, each into its own fresh environment, cold (own data folder, no history), each
    # recorded by benchmarks/record_build.py for the ETA benchmark's held-out part (issue 29,
    # item 4): build shapes other than SageAttention's, never used to calibrate anything
    export PYTHONUNBUFFERED=1
    R=$ROUND
    # shellcheck source=scripts/gpu_steps.sh
    source scripts/gpu_steps.sh  # step, machine_facts, fresh_env
    machine_facts "$R/machine.txt"
    for k in ${KERNELS:-flash_attn_3 flashmla}; do
        case $k in
        flash_attn_3) src=/tmp/src/flash-attention ;;
        flashmla) src=/tmp/src/FlashMLA ;;
        sageattention) src=/tmp/src/SageAttention ;;
        *) echo "$k: no source in the packs" >>"$R/steps.txt"; continue ;;
        esac
        export KSW_DATA_DIR=/tmp/ksw-data-rec-$k
        rm -rf "$KSW_DATA_DIR" "/tmp/ksw-rec-build-$k"
        A=$(fresh_env "/tmp/env-rec-$k") || { echo "$k: no fresh environment" >>"$R/steps.txt"; continue; }
        started=$SECONDS
        KSW_BUILD_ROOT=/tmp/ksw-rec-build-$k timeout 1200 python3 benchmarks/record_build.py \
            "$R/$k-${REC_NAME:-rec}" . -- python3 -m app --headless build --kernel "$k" \
            --python "$A" --source "$src" --verbose --yes >"$R/$k-record.txt" 2>&1
        echo "$k-build exit $? $((SECONDS - started)) s" >>"$R/steps.txt"
    done
    touch "$R/finished"
    ;;
run-deepep)
    # RUN=run-deepep with PART=start on 2+ NVLink GPUs: DeepEP (deepep.tar.xz) built through
    # the wizard, its boundary sweep and upstream's intranode test (issue 30)
    export PYTHONUNBUFFERED=1 KSW_DATA_DIR=/tmp/ksw-data
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
    R=$ROUND
    # shellcheck source=scripts/gpu_steps.sh
    source scripts/gpu_steps.sh  # step
    nvidia-smi --query-gpu=index,name,driver_version --format=csv >"$R/machine.txt" 2>&1
    step deepep-build 900 python3 -m app --headless build --kernel deepep \
        --version 1.2.1+567632d --source /tmp/src/DeepEP --json --yes
    step deepep-sweep 600 env PART=sweep KERNELS=deepep SRC=/tmp/src OUT="$R/sweep-deepep" \
        CALL_LIMIT=120 bash scripts/boundary_all.sh
    step deepep-upstream 400 env PART=upstream SRC=/tmp/src OUT="$R/upstream" \
        DEEPEP_LIMIT=240 bash scripts/boundary_all.sh
    touch "$R/finished"
    ;;
run-mla)
    # RUN=run-mla with PART=start: FlashMLA again after its size-check patches (issue 30), its
    # sweep and upstream's tests, then FlashAttention 3 and the re-verification timed (issue 29)
    export PYTHONUNBUFFERED=1 KSW_DATA_DIR=/tmp/ksw-data
    R=$ROUND
    # shellcheck source=scripts/gpu_steps.sh
    source scripts/gpu_steps.sh  # step
    nvidia-smi --query-gpu=index,name,driver_version --format=csv >"$R/machine.txt" 2>&1
    step flashmla-build 900 python3 -m app --headless build --kernel flashmla \
        --source /tmp/src/FlashMLA --json --yes
    step flashmla-sweep 600 env PART=sweep KERNELS=flashmla SRC=/tmp/src OUT="$R/sweep-flashmla" \
        CALL_LIMIT=60 bash scripts/boundary_all.sh
    step flashmla-upstream 600 env PART=upstream SRC=/tmp/src OUT="$R/upstream" \
        MLA_DENSE_LIMIT=120 MLA_SPARSE_DECODE_LIMIT=120 MLA_SPARSE_PREFILL_LIMIT=120 \
        MLA_SM100_LIMIT=30 bash scripts/boundary_all.sh
    step fa3-build 900 python3 -m app --headless build --kernel flash_attn_3 \
        --source /tmp/src/flash-attention --json --yes
    step installs 60 python3 -m app --headless installs
    step reverify-quick 300 python3 benchmarks/reverify_bench.py --json "$R/reverify-quick.json"
    step reverify-full 300 python3 benchmarks/reverify_bench.py --full --json "$R/reverify-full.json"
    touch "$R/finished"
    ;;
run)
    export PYTHONUNBUFFERED=1 KSW_DATA_DIR=/tmp/ksw-data
    R=$ROUND
    # shellcheck source=scripts/gpu_steps.sh
    source scripts/gpu_steps.sh  # step, machine_facts
    machine_facts "$R/machine.txt"
    WORKLOADS=$(python3 -c 'import json, sys; sys.path.insert(0, "."); from kernel_wizard.catalog.worth import load_workloads
print(json.dumps([{"id": w.id, "shapes": [s.as_dict() for s in w.shapes]} for w in sorted(load_workloads(), key=lambda w: w.id != "reference")]))')
    step probe 240 python3 resources/probes/sdpa_speed.py --workloads "$WORKLOADS"
    # SageAttention in the background, recorded for the ETA benchmark (a fresh build folder and
    # no build history of it: a cold build; benchmarks/eta_accuracy.py --recording scores it)
    (
        started=$SECONDS
        KSW_BUILD_ROOT=/tmp/ksw-rec-build python3 benchmarks/record_build.py "$R/sage-h200" . -- \
            python3 -m app --headless build --kernel sageattention \
            --source /tmp/src/SageAttention --verbose --yes >"$R/sage-record.txt" 2>&1
        echo "sage-build exit $? $((SECONDS - started)) s" >>"$R/steps.txt"
    ) &
    SAGE=$!
    step fa3-build 900 python3 -m app --headless build --kernel flash_attn_3 \
        --source /tmp/src/flash-attention --json --yes
    step flashmla-build 900 python3 -m app --headless build --kernel flashmla \
        --source /tmp/src/FlashMLA --json --yes
    # FlashMLA at its boundary and upstream's tests while SageAttention still compiles (the GPU
    # is free: correctness only, nothing timed)
    step flashmla-sweep 600 env PART=sweep KERNELS=flashmla SRC=/tmp/src OUT="$R/sweep-flashmla" \
        CALL_LIMIT=60 bash scripts/boundary_all.sh
    step flashmla-upstream 600 env PART=upstream SRC=/tmp/src OUT="$R/upstream" \
        MLA_DENSE_LIMIT=120 MLA_SPARSE_DECODE_LIMIT=120 MLA_SPARSE_PREFILL_LIMIT=120 \
        MLA_SM100_LIMIT=30 bash scripts/boundary_all.sh
    wait "$SAGE"
    step installs 60 python3 -m app --headless installs
    # timing: the GPU and the CPU are otherwise idle from here on
    step workload-speed 400 python3 benchmarks/workload_speed.py --json "$R/workload_speed.json" \
        --toml "$R/workload_speed.toml"
    step speed-agreement 400 python3 benchmarks/speed_agreement.py \
        --out "$R/speed_agreement.json"
    [ -f benchmarks/reverify_bench.py ] && step reverify-bench 300 python3 benchmarks/reverify_bench.py
    step sage-sweep 600 env PART=sweep KERNELS=sageattention SRC=/tmp/src OUT="$R/sweep-sage" \
        CALL_LIMIT=60 SWEEP_LIMIT=${SAGE_SWEEP_LIMIT:-240} bash scripts/boundary_all.sh
    step kernels-llm 120 python3 -m app --headless kernels --workload llm
    step kernels-video 120 python3 -m app --headless kernels --workload video --json
    touch "$R/finished"
    ;;
esac
