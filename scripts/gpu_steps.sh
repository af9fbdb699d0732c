# Shared by the GPU machine scripts (fa3_hopper.sh, sage_gpu.sh, deepep_multi_gpu.sh): sourced
# after they set $R, the folder every step's output goes to.

step() {  # step NAME TIMEOUT COMMAND...: output to $R/NAME.txt, a line on stdout
    local name=$1 limit=$2
    shift 2
    local started=$SECONDS
    timeout "$limit" "$@" >"$R/$name.txt" 2>&1
    local rc=$?
    printf '%-16s exit %3s  %4s s  %s\n' "$name" "$rc" "$((SECONDS - started))" "$*" \
        | tee -a "$R/steps.txt"
    return $rc
}

machine_facts() {  # machine_facts FILE: the date, the GPUs, the cores and PyTorch of this machine
    {
        date -u +"%Y-%m-%d %H:%M UTC"
        nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
        echo "cores: $(nproc)"
        python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)'
    } >"$1" 2>&1
}

fresh_env() {  # fresh_env DIR: a new environment that sees the machine's PyTorch (its python)
    python3 -c "import sys; sys.path.insert(0, 'benchmarks')
from pathlib import Path; from cache_reinstall import make_env
print(make_env(Path(sys.argv[1]), Path(sys.executable)))" "$1"
}

sample_memory() {  # peak resident memory of the compile processes, once a second
    local peak_one=0 peak_all=0 line
    while sleep 1; do
        line=$(ps -eo rss=,comm= | awk '$2 ~ /^(cicc|ptxas|cudafe\+\+|cc1plus|nvcc)$/ \
            {s += $1; if ($1 > m) m = $1; n++} END {printf "%d %d %d", m, s, n}')
        set -- $line
        [ "${1:-0}" -gt "$peak_one" ] && peak_one=$1
        [ "${2:-0}" -gt "$peak_all" ] && peak_all=$2
        printf '%s one=%s KiB all=%s KiB procs=%s peak_one=%s KiB peak_all=%s KiB\n' \
            "$(date +%T)" "${1:-0}" "${2:-0}" "${3:-0}" "$peak_one" "$peak_all" >>"$R/memory.txt"
    done
}
