"""A stand-in for `pip wheel` that prints a recorded build's output without timestamps.

    python replay_output.py LOG

Every line of LOG as it was, a short pause after each ninja ``[n/N]`` line (so that the
runner's poller and its estimates see the units arrive one by one). Writes no wheel.
"""

import sys
import time

for line in open(sys.argv[1], encoding="utf-8"):
    sys.stdout.write(line)
    sys.stdout.flush()
    if line.lstrip().startswith("["):
        time.sleep(0.01)
