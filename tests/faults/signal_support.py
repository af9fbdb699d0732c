"""Pieces of the signal trials (tests/faults/test_signals.py): fixture trees that spawn every
kind of descendant, a kernel whose verification hangs, the real wizard offscreen on its Build
page, a headless prebuilt download, and a reader of a child's output that can be waited on.

Every process these fixtures start carries the trial's marker word (in its command line or its
environment), so that ``wait_until_gone(marker)`` sees all of them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import ksw_faults

REPO = Path(__file__).resolve().parents[2]


_SUITE = ksw_faults
start_cli: Callable[..., subprocess.Popen[str]] = _SUITE.start_cli
wait_until_gone: Callable[..., list[Any]] = _SUITE.wait_until_gone

# A loop that runs until it is killed; the marker is its last argument.
_LOOP = "import time\nwhile True: time.sleep(0.5)"

FAMILY_SETUP = '''
import os, signal, subprocess, sys, time
from setuptools import setup
MARKER = {marker!r}
LOOP = {loop!r}
STUBBORN = {stubborn!r}
if STUBBORN:  # this setup.py and one grandchild ignore SIGTERM: only SIGKILL ends them
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    subprocess.Popen([sys.executable, "-c",
                      "import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN)\\n" + LOOP,
                      MARKER])
subprocess.Popen([sys.executable, "-c", LOOP, MARKER])  # same session
subprocess.Popen([sys.executable, "-c", LOOP, MARKER], start_new_session=True)  # setsid
# a daemon: its own session, an empty environment (no marker variable), its parent gone at
# once (double fork): only the subreaper (or the watchdog's record of it) still knows it
subprocess.Popen(["/bin/sh", "-c", 'env -i "$0" -c "$1" "$2" & exit 0',
                  sys.executable, LOOP, MARKER], start_new_session=True).wait()
print("compiling forever", flush=True)
print("started grandchildren", flush=True)
while True:
    time.sleep(0.5)
setup(name="ksw-fault", version="0.0.1")
'''


def family_source(folder: Path, marker: str, *, stubborn: bool = False) -> Path:
    """A source tree whose setup.py starts a grandchild in its session, one in a new session
    (``setsid``) and a daemon (new session, cleared environment, double fork), then hangs."""
    tree = folder / f"src-family-{marker}"
    tree.mkdir(parents=True)
    (tree / "setup.py").write_text(
        FAMILY_SETUP.format(marker=marker, loop=_LOOP, stubborn=stubborn), encoding="utf-8")
    return tree


HANGING_KERNEL = '''
"""A ksw_probe whose import never ends (a kernel that hangs the verification), after starting
a grandchild in a session of its own."""
import os, subprocess, sys, time
subprocess.Popen([sys.executable, "-c", {loop!r}, {marker!r}], start_new_session=True)
with open(os.environ["KSW_TEST_HANG_READY"], "w") as ready:
    ready.write(str(os.getpid()))
while True:
    time.sleep(0.5)
'''


def hanging_kernel(folder: Path, marker: str) -> Path:
    """A folder with a ``ksw_probe`` package that hangs when imported (put it on PYTHONPATH)."""
    root = folder / f"kernel-hang-{marker}"
    (root / "ksw_probe").mkdir(parents=True)
    (root / "ksw_probe" / "__init__.py").write_text(
        HANGING_KERNEL.format(loop=_LOOP, marker=marker), encoding="utf-8")
    return root


class Output:
    """Collects a child's output on a thread; :meth:`wait_for` waits for a piece of text."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self._stream = stream
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._stream:
            self.lines.append(line)

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def wait_for(self, needle: str, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise AssertionError(f"{needle!r} never came; the output was:\n{self.text}")
            time.sleep(0.05)

    def finish(self, timeout: float = 10.0) -> str:
        self._thread.join(timeout)
        return self.text


def wait_for_file(path: Path, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} never appeared")
        time.sleep(0.05)


def log_tail(data: Path, pattern: str = "*.log", lines: int = 2) -> list[str]:
    """The last non-empty lines of the newest log under ``data``/logs."""
    logs = sorted((data / "logs").glob(pattern), key=lambda p: p.stat().st_mtime)
    assert logs, f"no log in {data / 'logs'}"
    text = logs[-1].read_text(encoding="utf-8", errors="replace")
    return [line for line in text.splitlines() if line.strip()][-lines:]


# -- the real wizard, offscreen, building a fixture tree ---------------------------------------

GUI_DRIVER = '''
"""The real wizard (offscreen) opened on its Build page, building SOURCE with PYTHON's pip,
run exactly as ``python -m app`` runs it (app.wizard.run_wizard: the program's lifetime)."""
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from app.wizard import InstallerWizard, run_wizard
from ksw_testsupport import build_this_plan
from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.machine.hardware import detect
from kernel_wizard.base.parallelism import Parallelism
from kernel_wizard.build.plan import make_plan
from kernel_wizard.flow.session import FlowStep, SessionServices

python, source, out = (Path(a) for a in sys.argv[1:4])


def plan(session):
    return make_plan(kernel="probe", version="0.1.0", source_dir=source, python=python,
                     python_scripts=None, output_dir=out / "staging",
                     log_path=out / "build.log", parallelism=Parallelism(1, 1, "a test"))


app = QApplication(sys.argv[:1])
wizard = InstallerWizard(SessionServices(build=build_this_plan(plan), run_checks=lambda facts: []))
wizard.session.hardware = detect()
wizard.session.choose_environment(inspect_python(python))
wizard.setStartId(int(FlowStep.BUILD))
print("wizard open", flush=True)
sys.exit(run_wizard(app, wizard))
'''


def start_gui(python: Path, source: Path, out: Path, data: Path) -> subprocess.Popen[str]:
    """The wizard in a subprocess (its own session, as a desktop starts it), offscreen."""
    script = out / "gui_driver.py"
    out.mkdir(parents=True, exist_ok=True)
    script.write_text(GUI_DRIVER, encoding="utf-8")
    env = dict(os.environ, KSW_DATA_DIR=str(data), PYTHONUNBUFFERED="1",
               QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests")]))  # ksw_testsupport
    return subprocess.Popen([sys.executable, str(script), str(python), str(source), str(out)],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, stdin=subprocess.DEVNULL, env=env,
                            start_new_session=True)


# -- a headless prebuilt download --------------------------------------------------------------

DOWNLOAD_DRIVER = '''
"""A prebuilt wheel downloaded by the build step of the headless front end (the CLI's own
pieces: lifetime.guard and run_cancellable around Session.build), from URL over plain HTTP;
the CLI cannot be pointed at a loopback server, so this is its build step, driven directly."""
import sys
import threading
from pathlib import Path

from kernel_wizard.catalog import WheelSourceKind
from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.machine.hardware import detect
from kernel_wizard.machine.lifetime import guard, run_cancellable
from kernel_wizard.flow.pipeline import KernelChoice, run_pipeline
from kernel_wizard.flow.session import Session
from kernel_wizard.catalog.wheels import WheelCandidate, WheelMatch

python, url = Path(sys.argv[1]), sys.argv[2]
filename = url.rsplit("/", 1)[1]
session = Session()
session.hardware, session.environment = detect(), inspect_python(python)
recipe = session.catalog().get("probe")
wheel = WheelCandidate(url=url, filename=filename, source_id="test",
                       source_kind=WheelSourceKind.OFFICIAL, source_name="a test release",
                       match=WheelMatch(filename, None, ()), listed=True)
choice = KernelChoice(recipe, recipe.newest, prebuilt=wheel)


def events(event):
    text = getattr(event, "text", None)
    if text:
        print(text, flush=True)


with guard(out=sys.stderr) as life:
    cancel = threading.Event()
    outcome = run_cancellable(
        lambda: run_pipeline(choice, session.environment, session.hardware, events, cancel,
                             allow_http=True),
        cancel, "the download")
    print(f"{outcome.status.value}: {outcome.message}", flush=True)
    sys.exit(life.exit_code(0 if outcome.status.value == "succeeded" else 1))
'''


def start_download(python: Path, url: str, out: Path, data: Path) -> subprocess.Popen[str]:
    script = out / "download_driver.py"
    out.mkdir(parents=True, exist_ok=True)
    script.write_text(DOWNLOAD_DRIVER, encoding="utf-8")
    env = dict(os.environ, KSW_DATA_DIR=str(data), PYTHONUNBUFFERED="1", PYTHONPATH=str(REPO),
               NO_PROXY="127.0.0.1,localhost")
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        env.pop(name, None)
    return subprocess.Popen([sys.executable, str(script), str(python), url], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True)
