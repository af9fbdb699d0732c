"""A stand-in for `pip wheel` that replays a real recorded build with its timing.

    python replay_build.py OUTDIR TLOG [SPEED]

TLOG is a recording of tests/data/buildtimes/ ("<seconds>\\t<line>" per output line, from a
`pip wheel` run); NAME.ninja_log beside it is ninja's log of that build. The replay prints
every line at its recorded time divided by SPEED and does in the current folder what ninja did
in the build folder: writes ``build/temp.replay/build.ninja`` (one compile edge per unit) when
ninja started, and appends each unit's ``.ninja_log`` entry (its times divided by SPEED too)
when it ended. Then it writes a wheel into OUTDIR and exits 0, like a successful build.

A build of several extensions (NAME.ninja_log holds one log per extension, each with its own
header; the lines one ``[1/N] … [N/N]`` per extension): each ninja run in a folder of its own,
``build/temp.replay/ext<k>/``, as SageAttention's setup.py does.
"""

import os
import sys
import time
from pathlib import Path

out = Path(sys.argv[1])
tlog = Path(sys.argv[2])
speed = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0

lines = []
for raw in tlog.read_text(encoding="utf-8").splitlines():
    stamp, _, text = raw.partition("\t")
    if text.startswith("[exit "):
        break
    lines.append((float(stamp), text))
runs: list[list[tuple[int, int, str]]] = []  # each ninja run's (start ms, end ms, log line)
for raw in tlog.with_suffix(".ninja_log").read_text(encoding="utf-8").splitlines():
    if raw.startswith("# ninja log"):  # each extension's log begins with its header
        runs.append([])
    fields = raw.split("\t")
    if raw.startswith("#") or len(fields) < 5:
        continue
    start, end = int(fields[0]), int(fields[1])
    line = "\t".join([str(round(start / speed)), str(round(end / speed)), *fields[2:]])
    if not runs:
        runs.append([])
    runs[-1].append((start, end, line))
runs = [run for run in runs if run]

# each run's lines: a [1/N] after the run before's [N/N]; ninja started when the run's first
# unit's line arrived, less that unit's end time
firsts = [t for t, text in lines if text.lstrip().startswith("[1/")]
events = [(t, "line", 0, text) for t, text in lines]
for k, run in enumerate(runs):
    begun = firsts[k] - min(end for _, end, _ in run) / 1000.0
    events.append((begun, "start", k, ""))
    events += [(begun + end / 1000.0, "unit", k, raw) for _, end, raw in run]
events.sort(key=lambda e: (e[0], e[1] != "start", e[1] != "unit"))
top = Path("build") / "temp.replay"
folders = [top / f"ext{k}" for k in range(len(runs))] if len(runs) > 1 else [top]

began = time.monotonic()
for at, kind, k, payload in events:
    wait = at / speed - (time.monotonic() - began)
    if wait > 0:
        time.sleep(wait)
    folder = folders[k]
    if kind == "start":
        folder.mkdir(parents=True, exist_ok=True)
        edges = "".join(f"build u{i}.o: compile u{i}.cu\n" for i in range(len(runs[k])))
        (folder / "build.ninja").write_text("rule compile\n  command = nvcc\n" + edges)
        if not (folder / ".ninja_log").exists():  # ninja appends to an earlier build's log
            with open(folder / ".ninja_log", "w", encoding="utf-8") as log:
                log.write("# ninja log v7\n")
    elif kind == "unit":
        with open(folder / ".ninja_log", "a", encoding="utf-8") as log:
            log.write(payload + "\n")
    else:
        os.write(1, payload.encode("utf-8") + b"\n")

out.mkdir(parents=True, exist_ok=True)
(out / "replayed-0.1-cp312-cp312-linux_x86_64.whl").write_bytes(b"PK\x05\x06" + b"\0" * 18)
print("  Created wheel for replayed: filename=replayed-0.1-cp312-cp312-linux_x86_64.whl",
      flush=True)
sys.exit(0)
