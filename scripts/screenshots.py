"""Render the wizard's pages offscreen to PNG files (for the README and for review).

    QT_QPA_PLATFORM=offscreen python scripts/screenshots.py [--out docs/screenshots]
        [--nvml tests/data/nvml/h100-driver580.json] [--python PATH]

With --nvml, the Hardware page shows that recorded machine; without, this machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offscreen import wait_until
from PySide6.QtCore import QCoreApplication  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.wizard import InstallerWizard, PageId, Services  # noqa: E402
from build_backend.environment import Candidate, discover_candidates  # noqa: E402
from build_backend.hardware import detect  # noqa: E402
from build_backend.nvml_record import ReplayNvmlApi  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--nvml", type=Path, help="an NVML recording to show")
    parser.add_argument("--python", type=Path, help="the target interpreter to show")
    parser.add_argument("--prefix", default="", help="file name prefix")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    app = QApplication.instance() or QApplication(sys.argv)
    services = Services()
    if args.nvml is not None:
        recording = json.loads(args.nvml.read_text(encoding="utf-8"))
        services.detect = lambda: detect(lambda: ReplayNvmlApi(recording))
    if args.python is not None:
        python = args.python
        services.discover = lambda: [Candidate(python, "chosen for this screenshot")] + [
            c for c in discover_candidates() if c.path != python
        ]
    wizard = InstallerWizard(services)
    wizard.resize(900, 680)
    wizard.show()
    QCoreApplication.processEvents()
    shots = []
    path = args.out / f"{args.prefix}welcome.png"
    wizard.grab().save(str(path))
    shots.append(path)

    wizard.next()
    page = wizard.page_of(PageId.HARDWARE)
    wait_until(lambda: not page.is_busy())  # type: ignore[attr-defined]
    QCoreApplication.processEvents()
    path = args.out / f"{args.prefix}hardware.png"
    wizard.grab().save(str(path))
    shots.append(path)
    for shot in shots:
        print(shot)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
