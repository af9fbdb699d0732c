"""Record a real build for the ETA benchmark: every output line with its arrival time, and
ninja's own ``.ninja_log`` (every unit's start and end) from the build folder.

    python benchmarks/record_build.py OUT_PREFIX SOURCE_DIR -- COMMAND...

writes ``OUT_PREFIX.tlog`` (lines "<seconds since start, 3 decimals>\\t<line>", then
"<seconds>\\t[exit <code>]") and ``OUT_PREFIX.ninja_log`` (the newest ``.ninja_log`` found
under SOURCE_DIR/build after the command ended). Standard library only, so that it runs on a
bare GPU machine. The command runs in SOURCE_DIR with this process's environment.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") != 2:
        print(__doc__)
        return 2
    prefix, source = Path(argv[0]), Path(argv[1])
    command = argv[3:]
    prefix.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with open(f"{prefix}.tlog", "w", encoding="utf-8") as out:
        proc = subprocess.Popen(command, cwd=source, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            out.write(f"{time.monotonic() - started:.3f}\t{line}\n")
            out.flush()
        code = proc.wait()
        out.write(f"{time.monotonic() - started:.3f}\t[exit {code}]\n")
    logs = sorted((source / "build").rglob(".ninja_log"), key=lambda p: p.stat().st_mtime)
    if logs:
        shutil.copyfile(logs[-1], f"{prefix}.ninja_log")
    print(f"exit {code}, {time.monotonic() - started:.1f} s, ninja log: "
          f"{logs[-1] if logs else 'none'}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
