"""A stand-in for `pip wheel`: behaves like a ninja-driven extension build.

    python fake_build.py OUTDIR MODE [ARGS]

Modes:
  ok N            print N ninja steps, a link line, then write a wheel into OUTDIR
  oom-above J     fail like nvcc killed by the OOM killer while MAX_JOBS > J, else build
  cccl            fail like CUDA 13's missing CCCL headers unless CPLUS_INCLUDE_PATH has
                  an include/cccl folder, else build
  replay FILE     print FILE's lines (a real recorded log) and exit 1
  encodings       print lines in UTF-8, cp1252 and broken UTF-8, then build
  grandchildren   start two grandchildren that sleep, print their pids, and wait
  quiet SECONDS   start a child process named 'nvcc' that sleeps, print one line, wait
  flood N [RATE]  print N lines as fast as possible (or RATE lines/s), then build
  copy WHEEL      build, producing a copy of the real wheel WHEEL
"""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

out = Path(sys.argv[1])
mode = sys.argv[2]
args = sys.argv[3:]
write = sys.stdout.buffer.write


def line(text: str) -> None:
    write(text.encode("utf-8") + b"\n")
    sys.stdout.flush()


def build(steps: int = 4, pause: float = 0.0, real: Path | None = None) -> None:
    line("Building wheels for collected packages: ksw-fake")
    line("running build_ext")
    for i in range(1, steps + 1):
        line(f"[{i}/{steps}] c++ -MMD -MF obj{i}.o.d -c src{i}.cpp -o obj{i}.o -O2")
        time.sleep(pause)
    line("g++ -shared build/obj1.o -o build/lib/ksw_fake.so")
    out.mkdir(parents=True, exist_ok=True)
    if real is not None:
        wheel = out / real.name
        shutil.copy(real, wheel)
    else:
        wheel = out / "ksw_fake-0.1-cp311-cp311-linux_x86_64.whl"
        wheel.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip
    line(f"creating '{wheel}' and adding 'build/bdist' to it")
    line("  Created wheel for ksw-fake: filename=" + wheel.name)
    sys.exit(0)


if mode == "ok":
    build(int(args[0]), float(args[1]) if len(args) > 1 else 0.0)
elif mode == "oom-above":
    jobs = int(os.environ.get("MAX_JOBS", "1"))
    if jobs > int(args[0]):
        line("[1/8] /usr/local/cuda/bin/nvcc -c flash_fwd_hdim128_fp16_sm80.cu -o a.o --threads 4")
        line("Killed")
        line("nvcc error   : 'cicc' died due to signal 9 (Kill signal)")
        line("ninja: build stopped: subcommand failed.")
        sys.exit(1)
    build()
elif mode == "cccl":
    folders = os.environ.get("CPLUS_INCLUDE_PATH", "").split(os.pathsep)
    if not any(f.endswith(os.path.join("include", "cccl")) and os.path.isdir(f) for f in folders):
        line("[18/24] c++ -MMD -MF api.o.d -c csrc/api/api.cpp -o api.o")
        line("FAILED: api.o")
        line("In file included from csrc/api/api.cpp:3:")
        line("/usr/local/cuda/include/cuda_fp16.h:99:10: fatal error: cuda/std/utility: "
             "No such file or directory")
        line("compilation terminated.")
        line("ninja: build stopped: subcommand failed.")
        sys.exit(1)
    build()
elif mode == "replay":
    with open(args[0], "rb") as log:
        for raw in log:
            write(raw)
    sys.stdout.flush()
    sys.exit(1)
elif mode == "encodings":
    line("UTF-8: Grüße aus Köln")
    write("cp1252: Fehler in Datei C:\\Benutzer\\Jürgen\\x.cu\n".encode("cp1252"))
    write(b"broken: \xff\xfe\x81 bytes\n")
    sys.stdout.flush()
    build(2)
elif mode == "grandchildren":
    sleepers = [
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"]) for _ in range(2)
    ]
    line("pids " + " ".join(str(p.pid) for p in sleepers))
    time.sleep(120)
elif mode == "quiet":
    nvcc = out / "nvcc"
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(shutil.which("sleep"), nvcc)
    child = subprocess.Popen([str(nvcc), args[0]])
    line("[1/2] nvcc -c big_kernel.cu")
    child.wait()
    build(1)
elif mode == "flood":
    count = int(args[0])
    rate = float(args[1]) if len(args) > 1 else 0.0
    started = time.perf_counter()
    chunk = []
    for i in range(count):
        text = b"[%d/%d] c++ -c some/long/path/to/file_%d.cpp -o obj.o -O3\n"
        chunk.append(text % (i + 1, count, i))
        if len(chunk) == 250:
            write(b"".join(chunk))
            sys.stdout.flush()
            chunk.clear()
            if rate:
                ahead = (i + 1) / rate - (time.perf_counter() - started)
                if ahead > 0:
                    time.sleep(ahead)
    write(b"".join(chunk))
    sys.stdout.flush()
    build(1)
elif mode == "copy":
    build(3, 0.0, Path(args[0]))
else:
    sys.exit(f"unknown mode {mode}")
