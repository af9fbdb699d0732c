"""Nothing the runner starts outlives the program: stop requests (what a signal does), the
shield around installs, PR_SET_PDEATHSIG, the watchdog, and the handlers' exit codes — with
real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from kernel_wizard.base import process_guard
from kernel_wizard.base.errors import Cancelled
from kernel_wizard.base.processes import MARKER_VAR, run_captured, stream
from kernel_wizard.machine import lifetime

REPO = Path(__file__).resolve().parents[2]
LOOP = "import time\nwhile True: time.sleep(0.2)"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="POSIX signals, PR_SET_PDEATHSIG and the watchdog")


@pytest.fixture(autouse=True)
def no_stop_left() -> Iterator[None]:
    yield
    process_guard.clear_stop()


@pytest.fixture
def word() -> Iterator[str]:
    """A word in the command line of every process a test starts; killed at the end."""
    text = f"ksw-life-{uuid.uuid4().hex[:10]}"
    yield text
    for proc in with_word(text):
        proc.kill()


def with_word(text: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if any(text in part for part in proc.info["cmdline"] or []):
            found.append(proc)
    return found


def gone(text: str, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while with_word(text) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not with_word(text)


def test_a_stop_request_stops_a_running_child_and_says_why(word: str) -> None:
    started = threading.Event()

    def lines(batch: list[str]) -> None:
        if "up" in batch:
            started.set()

    threading.Thread(target=lambda: started.wait(30) and process_guard.request_stop(
        "cancelled: the terminal was closed (SIGHUP)"), daemon=True).start()
    code = f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', {LOOP!r}, " \
           f"{word!r}], start_new_session=True); print('up', flush=True)\n{LOOP}"
    with pytest.raises(Cancelled) as caught:
        stream([sys.executable, "-c", code, word], lines)
    assert caught.value.reason == "cancelled: the terminal was closed (SIGHUP)"
    assert caught.value.leftover_pids == ()
    assert gone(word, 2)
    with pytest.raises(Cancelled):  # nothing new starts while the stop stands
        run_captured([sys.executable, "-c", "print('never')"])


def test_a_shielded_child_finishes_despite_a_stop_request() -> None:
    """An install's pip is let finish after Ctrl-C: never half-installed."""
    process_guard.request_stop("cancelled by the user (Ctrl-C)")
    with process_guard.shielded():
        done = run_captured([sys.executable, "-c", "import time; time.sleep(0.3); print('done')"])
    assert done.stdout.strip() == "done"


def test_cancel_stops_a_daemon_that_left_with_setsid_and_an_empty_environment(
        word: str) -> None:
    """The grandchild that survived a cancel while the result said "nothing left" (issue 12,
    item 10): its own session, a cleared environment, its parent gone at once."""
    cancel = threading.Event()
    daemon = (f"import subprocess, sys; subprocess.Popen(['/bin/sh', '-c', "
              f"'env -i \"$0\" -c \"$1\" \"$2\" & exit 0', sys.executable, {LOOP!r}, {word!r}], "
              f"start_new_session=True).wait(); print('daemon started', flush=True)\n{LOOP}")

    def lines(batch: list[str]) -> None:
        if "daemon started" in batch:
            threading.Timer(0.7, cancel.set).start()

    with pytest.raises(Cancelled) as caught:
        stream([sys.executable, "-c", daemon], lines, cancel=cancel)
    assert caught.value.leftover_pids == ()
    assert gone(word, 3)


MIDDLE = """
import sys, threading
from kernel_wizard.base.processes import stream
child = [sys.executable, "-c", {loop!r}, {word!r}]
worker = threading.Thread(target=lambda: stream(child, lambda lines: None))
worker.start()
worker.join()
"""


def test_a_child_dies_with_a_program_killed_outright(word: str) -> None:
    """kill -9 of the program (no handler runs, no watchdog here): its child gets SIGKILL from
    the kernel (PR_SET_PDEATHSIG), also when a worker thread started it."""
    middle = subprocess.Popen([sys.executable, "-c", MIDDLE.format(loop=LOOP, word=word)],
                              cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))
    deadline = time.monotonic() + 30
    while len(with_word(word)) < 2 and time.monotonic() < deadline:  # the middle + its child
        time.sleep(0.05)
    child = [p for p in with_word(word) if p.pid != middle.pid]
    assert child and child[0].ppid() == middle.pid
    middle.kill()
    middle.wait()
    assert gone(word, 3)


def test_the_watchdog_stops_what_the_program_left_once_it_is_gone(word: str) -> None:
    token = f"{os.getpid()}-watchdogtest"
    env = {k: v for k, v in os.environ.items() if k != MARKER_VAR}

    def start(extra: dict[str, str], tag: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-c", LOOP, word, tag],
                                env={**env, **extra}, start_new_session=True)

    marked = start({MARKER_VAR: f"{token}-abc"}, "marked")  # found by the marker
    reported = start({}, "reported")  # no marker: found because it was reported
    bystander = start({MARKER_VAR: "1-othertoken-abc"}, "bystander")  # another wizard's
    watchdog = subprocess.Popen([sys.executable, "-m", "kernel_wizard.machine.watchdog", token],
                                stdin=subprocess.PIPE, cwd=REPO,
                                env={**env, "PYTHONPATH": str(REPO)}, start_new_session=True)
    assert watchdog.stdin is not None
    created = psutil.Process(reported.pid).create_time()
    watchdog.stdin.write(f"seen {reported.pid} {created:.3f}\n".encode())
    watchdog.stdin.close()  # the program has ended
    assert watchdog.wait(timeout=20) == 0
    for proc in (marked, reported):
        assert proc.wait(timeout=5) is not None
    assert bystander.poll() is None  # not this program's: left alone
    bystander.kill()
    bystander.wait()


def test_a_signal_sets_the_exit_code_and_the_reason() -> None:
    before = signal.getsignal(signal.SIGTERM)
    cancel = threading.Event()
    try:
        with lifetime.guard() as life, life.watch(cancel, "the build"):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # the handler runs between bytecodes of this (main) thread
            assert cancel.is_set()
            assert process_guard.stop_reason() == ("cancelled: the wizard was asked to stop "
                                                   "(SIGTERM)")
            assert life.exit_code(130) == 143  # the work stopped: the signal's code
            assert life.exit_code(0) == 0  # the work finished anyway: its result stands
        assert process_guard.stop_reason() is None
        os.kill(os.getpid(), signal.SIGTERM)  # while the program ends: swallowed, not fatal
        time.sleep(0.05)
    finally:
        signal.signal(signal.SIGTERM, before)


def test_without_a_signal_the_handlers_are_given_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    with lifetime.guard() as life:
        assert signal.getsignal(signal.SIGINT) is not before
    assert signal.getsignal(signal.SIGINT) is before and life.exit_code(3) == 3


def test_ctrl_c_during_run_cancellable_waits_for_the_tree_to_stop(word: str) -> None:
    """The worker is never abandoned: run_cancellable returns only once the runner stopped
    the tree (the IndexError of issue 12, item 1, cannot happen)."""
    cancel = threading.Event()
    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
    before = signal.getsignal(signal.SIGINT)
    try:
        with lifetime.guard() as life, pytest.raises(Cancelled) as caught:
            lifetime.run_cancellable(
                lambda: stream([sys.executable, "-c", LOOP, word], lambda lines: None,
                               cancel=cancel), cancel, "the build")
    finally:
        signal.signal(signal.SIGINT, before)
    assert caught.value.reason == "cancelled by the user (Ctrl-C)"
    assert life.exit_code(1) == 130
    assert not with_word(word)


def test_output_goes_quiet_once_the_terminal_is_gone() -> None:
    class HungUp:
        writes = 0

        def write(self, text: str) -> int:
            self.writes += 1
            raise OSError(5, "Input/output error")

        def flush(self) -> None:
            raise OSError(5, "Input/output error")

    target = HungUp()
    out = lifetime.SurvivingOutput(target)  # type: ignore[arg-type]
    assert out.write("✖ The build was cancelled\n") == len("✖ The build was cancelled\n")
    out.flush()
    out.write("more\n")
    assert out.gone and target.writes == 1


def test_the_frozen_programs_watchdog_entry_runs_the_same_watchdog(
        word: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundle starts its watchdog as ``<program> --ksw-watchdog TOKEN`` (no -m there)."""
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    command = lifetime.watchdog_command()
    assert command == [sys.executable, "--ksw-watchdog", process_guard.RUN_TOKEN]
    token = f"{os.getpid()}-frozentest"
    env = {k: v for k, v in os.environ.items() if k != MARKER_VAR}
    victim = subprocess.Popen([sys.executable, "-c", LOOP, word],
                              env={**env, MARKER_VAR: f"{token}-x"}, start_new_session=True)
    entry = subprocess.run([sys.executable, "-m", "app", "--ksw-watchdog", token], cwd=REPO,
                           stdin=subprocess.DEVNULL, env={**env, "PYTHONPATH": str(REPO)},
                           timeout=60)
    assert entry.returncode == 0
    assert victim.wait(timeout=5) is not None
