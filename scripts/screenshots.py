"""Refresh the README's screenshots from the GUI walkthrough (tests/gui/test_walkthrough.py).

    python scripts/screenshots.py [--out docs/screenshots] [--keep DIR]

Runs the walkthrough (every page through real clicks, offscreen, at three window sizes) with
``KSW_SCREENSHOTS`` pointing at a folder, then copies the README's pictures into ``--out``:
welcome, hardware, verify-pass and done at the default size, and the Verify and Build pages as
a 1366×768 laptop at 125 % shows them. ``--keep DIR`` keeps every screenshot (7 pages × 3 sizes).
The other scripts render the unhappy states (screenshots_flow.py, screenshots_kernel.py,
screenshots_prereqs.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WALKTHROUGH = REPO / "tests" / "gui" / "test_walkthrough.py"

# walkthrough file (page-size) → README file
PICKED = {
    "welcome-default.png": "welcome.png",
    "hardware-default.png": "hardware.png",
    "verify-default.png": "verify-pass.png",
    "done-default.png": "done.png",
    "verify-laptop.png": "laptop-verify.png",
    "build-laptop.png": "laptop-build.png",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--keep", type=Path, help="also keep every screenshot in this folder")
    args = parser.parse_args()
    shots = args.keep or Path(tempfile.mkdtemp(prefix="ksw-walkthrough-"))
    shots.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, KSW_SCREENSHOTS=str(shots), QT_QPA_PLATFORM="offscreen")
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(WALKTHROUGH)], cwd=REPO, env=env)
    if done.returncode != 0:
        print("The walkthrough failed; docs/screenshots was not changed.", file=sys.stderr)
        return done.returncode
    args.out.mkdir(parents=True, exist_ok=True)
    for source, target in PICKED.items():
        shutil.copyfile(shots / source, args.out / target)
        print(args.out / target)
    if args.keep is None:
        shutil.rmtree(shots, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
