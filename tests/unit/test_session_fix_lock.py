"""``Session.run_fix`` holds the target environment's lock, the lock a kernel's install holds:
a fix started while another process (a ``build`` command installing) holds it waits, says
whom it waits for, and runs once it is free; another environment is not waited for; a fix that
fails lets go of the lock. Real processes, real lock files in the test's own data folder."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kernel_wizard.base.paths import hold_env
from kernel_wizard.flow.session import Session
from kernel_wizard.prereqs import FixOutcome, FixProgress, FixStatus
from kernel_wizard.prereqs.fixes import PipInstallFix

REPO = Path(__file__).resolve().parents[2]

# what a kernel install does with the environment (kernel_wizard.install.installer): hold it,
# here until the test says "done" on stdin
INSTALLING = """
import sys
from pathlib import Path
from kernel_wizard.base.paths import hold_env

python = Path(sys.argv[1])
with hold_env(python, f"installing ksw-probe-kernel into {python}"):
    print("held", flush=True)
    sys.stdin.readline()
"""


@pytest.fixture
def installing(tmp_path: Path) -> Iterator[Callable[[Path], subprocess.Popen[str]]]:
    """Start a process that holds an environment's lock as an install does, until released."""
    started: list[subprocess.Popen[str]] = []

    def start(python: Path) -> subprocess.Popen[str]:
        process = subprocess.Popen([sys.executable, "-c", INSTALLING, str(python)], cwd=REPO,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started.append(process)
        assert process.stdout is not None and process.stdout.readline().strip() == "held"
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def release(process: subprocess.Popen[str]) -> None:
    assert process.stdin is not None
    process.stdin.write("done\n")
    process.stdin.flush()
    assert process.wait(10) == 0


@dataclass(frozen=True)
class RecordingFix(PipInstallFix):
    """A pip fix into ``python`` whose run is only recorded (or fails), no pip started."""

    ran: threading.Event = threading.Event()
    fails: bool = False

    def run(self, on_line: Callable[[str], None], cancel: threading.Event,
            on_progress: Callable[[FixProgress], None] | None = None) -> FixOutcome:
        self.ran.set()
        if self.fails:
            raise RuntimeError("pip crashed")
        on_line("Successfully installed ninja")
        return FixOutcome(FixStatus.DONE, "Installed ninja.")


def fix_into(python: Path, *, fails: bool = False) -> RecordingFix:
    return RecordingFix("ninja", "Install ninja", "Runs pip to install ninja.", python, (),
                        ran=threading.Event(), fails=fails)


def env_python(tmp_path: Path, name: str) -> Path:
    python = tmp_path / name / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.touch()
    return python


def test_a_fix_waits_for_an_install_into_its_environment_and_says_whom_it_waits_for(
        tmp_path: Path, installing: Callable[[Path], subprocess.Popen[str]]) -> None:
    python = env_python(tmp_path, "env")
    holder = installing(python)
    fix = fix_into(python)
    lines: list[str] = []
    outcomes: list[FixOutcome] = []
    worker = threading.Thread(
        target=lambda: outcomes.append(Session().run_fix(fix, lines.append, threading.Event())))
    worker.start()
    try:
        for _ in range(200):  # the wait is said at once, not after the other run ends
            if lines:
                break
            threading.Event().wait(0.05)
        assert lines, "the fix neither ran nor said that it waits"
        assert lines[0].startswith("[lock] Waiting: process "), lines
        assert f"process {holder.pid} " in lines[0]
        assert "installing ksw-probe-kernel into" in lines[0]
        assert not fix.ran.is_set()  # it waits: pip did not start beside the install
    finally:
        release(holder)
    worker.join(10)
    assert fix.ran.is_set() and outcomes and outcomes[0].status is FixStatus.DONE
    assert lines[-1] == "Successfully installed ninja"


def test_a_fix_into_another_environment_does_not_wait(
        tmp_path: Path, installing: Callable[[Path], subprocess.Popen[str]]) -> None:
    holder = installing(env_python(tmp_path, "busy"))
    fix = fix_into(env_python(tmp_path, "other"))
    lines: list[str] = []
    outcome = Session().run_fix(fix, lines.append, threading.Event())
    assert outcome.status is FixStatus.DONE and fix.ran.is_set()
    assert lines == ["Successfully installed ninja"]  # no wait was said
    release(holder)


def test_a_fix_cancelled_while_it_waits_never_runs(
        tmp_path: Path, installing: Callable[[Path], subprocess.Popen[str]]) -> None:
    python = env_python(tmp_path, "env")
    holder = installing(python)
    fix = fix_into(python)
    cancel = threading.Event()

    def say(line: str) -> None:
        cancel.set()  # the person cancels on seeing that it waits

    outcome = Session().run_fix(fix, say, cancel)
    assert outcome.status is FixStatus.CANCELLED and not fix.ran.is_set()
    assert "waiting for another run" in outcome.message
    release(holder)


def test_a_fix_that_fails_lets_go_of_the_lock(tmp_path: Path) -> None:
    python = env_python(tmp_path, "env")
    with pytest.raises(RuntimeError, match="pip crashed"):
        Session().run_fix(fix_into(python, fails=True), lambda _line: None, threading.Event())
    # free again at once: a kernel install would not wait (wait=False raises if it is held)
    with hold_env(python, "installing ksw-probe-kernel", wait=False):
        pass
    # and another process can take it too (the lock file, not only this process's handle)
    check = subprocess.run([sys.executable, "-c", INSTALLING, str(python)], cwd=REPO,
                           input="done\n", capture_output=True, text=True, timeout=30)
    assert check.returncode == 0 and check.stdout.strip() == "held"
