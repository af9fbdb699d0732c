"""Support for the write-point crash sweep (tests/faults/test_write_points_*.py,
Reliability 3): the real CLI is killed (SIGKILL) right before
each file operation it makes — after the one before it — in a roll-back and in a same-version
reinstall; then the next start must leave the environment fully old or fully new, the install
records must name what is importable, no journal may stay, and a roll-back must still work.

The kill comes from an audit hook (PEP 578) that a ``sitecustomize`` on PYTHONPATH installs in
the wizard's process only (its children, pip among them, run untouched): it counts every write
(``open`` for writing, rename/replace, remove, copy, ``rmtree``, a child started) and kills the
process before the N-th. N runs from 1 until the command finishes on its own. Nothing in the
product knows about it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from ksw_state_support import REPO, cli, site_packages

PASS = {"status": "pass", "report": "/reports/a/report.json"}

KILLER = r'''
import os, signal, sys
_at = int(os.environ.get("KSW_TEST_KILL_AT") or 0)
_log = os.environ.get("KSW_TEST_KILL_LOG", "")
os.environ["KSW_TEST_KILL_AT"] = "0"  # children (pip ...) run untouched
if _at:
    _state = {"count": 0, "busy": False}
    _WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    _EVENTS = {"os.rename", "os.remove", "os.rmdir", "shutil.copyfile", "shutil.rmtree",
               "subprocess.Popen", "os.truncate", "os.symlink", "os.link"}

    def _writes(event, args):
        if event in _EVENTS:
            return True
        if event != "open" or len(args) < 3:
            return False
        path, mode, flags = args[0], args[1], args[2]
        if isinstance(path, int) or path == os.devnull:  # an open descriptor; /dev/null
            return False
        if isinstance(mode, str):
            return any(c in mode for c in "wax+")
        return isinstance(flags, int) and bool(flags & _WRITE)

    def _hook(event, args):
        if _state["busy"] or not _writes(event, args):
            return
        _state["busy"] = True
        try:
            _state["count"] += 1
            if _log:
                with open(_log, "a", encoding="utf-8") as log:
                    log.write("%d %s %r\n" % (_state["count"], event, args[0] if args else ""))
            if _state["count"] == _at:
                os.kill(os.getpid(), signal.SIGKILL)
        finally:
            _state["busy"] = False

    sys.addaudithook(_hook)
'''


WHOLE = r"""
import importlib.metadata as m, pathlib, sys
try:
    dist = m.distribution("ksw-probe-kernel")
except m.PackageNotFoundError:
    print("not installed"); sys.exit()
listed = {str(f) for f in dist.files}
missing = [f for f in listed if "__pycache__" not in f
           and not pathlib.Path(dist.locate_file(f)).exists()]
package = pathlib.Path(dist.locate_file("ksw_probe"))
extra = [p.name for p in package.glob("*.py") if "ksw_probe/" + p.name not in listed]
others = [p.name for p in package.parent.glob("ksw_probe_kernel-*.dist-info")]
print(dist.version if not missing and not extra and len(others) == 1 else
      "broken: missing %s, not its own %s, dist-infos %s" % (missing, extra, others))
"""


def importable(python: Path) -> str:
    """The version installed, when it is whole (every file its RECORD lists, no file of
    another version, one dist-info); else what is wrong. No import of torch: fast."""
    done = subprocess.run([str(python), "-c", WHOLE], capture_output=True, text=True,
                          timeout=120)
    return done.stdout.strip() or f"broken: {done.stderr.strip()[-300:]}"


def recorded(data: Path, python: Path) -> list[str]:
    path = data / "installs.json"
    records = json.loads(path.read_text("utf-8")) if path.exists() else []
    return [r["version"] for r in records if Path(r["python"]) == python]


class Snapshot:
    """The environment's kernel files and the data folder, put back before each trial."""

    def __init__(self, python: Path, data: Path, keep: Path) -> None:
        self.site = site_packages(python)
        self.data = data
        self.keep = keep
        self.names = [p.name for p in self.site.iterdir() if p.name.startswith("ksw_probe")]
        for name in self.names:
            shutil.copytree(self.site / name, keep / "site" / name)
        shutil.copytree(data, keep / "data", symlinks=True)

    def restore(self) -> None:
        for path in self.site.iterdir():
            if path.name.startswith(("ksw_probe", "~")):
                shutil.rmtree(path) if path.is_dir() else path.unlink()
        for name in self.names:
            shutil.copytree(self.keep / "site" / name, self.site / name)
        shutil.rmtree(self.data)
        shutil.copytree(self.keep / "data", self.data, symlinks=True)


def sweep(tmp_path: Path, python: Path, data: Path, command: list[str],
          check: Any, limit: int = 200) -> list[tuple[int, str]]:
    """Run ``command`` killed at write point 1, 2, ... until it finishes; after each kill the
    next start recovers and ``check(killed_at)`` judges it. Returns (point, what) of each
    kill."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(KILLER, encoding="utf-8")
    snapshot = Snapshot(python, data, tmp_path / "snapshot")
    kills: list[tuple[int, str]] = []
    for point in range(1, limit + 1):
        snapshot.restore()
        log = tmp_path / f"points-{point}.log"
        env = {"KSW_TEST_KILL_AT": str(point), "KSW_TEST_KILL_LOG": str(log),
               "PYTHONPATH": os.pathsep.join([str(hook), str(REPO)]),
               "PYTHONDONTWRITEBYTECODE": "1"}
        if command[0] == "-c":  # a Python driver instead of the CLI
            result = subprocess.run([sys.executable, *command], cwd=REPO, capture_output=True,
                                    text=True, timeout=300, input="",
                                    env=dict(os.environ, KSW_DATA_DIR=str(data), **env))
        else:
            result = cli(*command, data=data, **env)
        if result.returncode != -signal.SIGKILL:
            assert result.returncode == 0, result.stdout + result.stderr
            assert kills, "the command was never killed: the hook did not work"
            return kills
        lines = log.read_text("utf-8").splitlines() if log.exists() else []
        kills.append((point, lines[-1] if lines else "?"))
        check(point)
    raise AssertionError(f"{command} still killed at write point {limit}")


REINSTALL = """
import sys
from pathlib import Path
from kernel_wizard.install.installer import install_wheel
install_wheel(Path(sys.argv[1]), Path(sys.argv[2]), kernel="probe",
              verification={"status": "pass", "report": "/reports/b/report.json"})
"""
