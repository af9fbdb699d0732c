"""The one process runner (kernel_wizard.base.processes) with real children.

Every child here is a real Python process; what is checked is what a person sees: the lines
of a build's log in order and readable, a cancel that leaves nothing running (also a
grandchild that started its own session), a hung program stopped with a message naming it,
tokens that never reach a build's log, and commands shown so that they can be pasted.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

from kernel_wizard.base.errors import Cancelled, ProcessStartError, ProcessTimeout, WizardError
from kernel_wizard.base.processes import (
    MARKER_VAR,
    MULTICAST_OFF,
    EnvChange,
    EnvMode,
    QuoteStyle,
    child_environment,
    quote_arg,
    run_captured,
    show_command,
    stream,
)

PY = sys.executable


def py(code: str) -> list[str]:
    return [PY, "-c", textwrap.dedent(code)]


def collect(argv: list[str], **kw: object) -> tuple[list[str], int]:
    lines: list[str] = []
    result = stream(argv, lines.extend, **kw)  # type: ignore[arg-type]
    return lines, result.returncode


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


# -- streaming and decoding -----------------------------------------------------------------


def test_lines_arrive_in_order_with_stderr_merged_and_line_endings_removed() -> None:
    lines, code = collect(py(r"""
        import sys
        out = sys.stdout.buffer
        out.write(b"one\n"); out.flush()
        sys.stderr.buffer.write(b"two (stderr)\n"); sys.stderr.flush()
        out.write(b"three\r\n\nfive without newline"); out.flush()
        sys.exit(3)
    """))
    assert lines == ["one", "two (stderr)", "three", "", "five without newline"]
    assert code == 3


def test_many_lines_are_all_delivered_in_order() -> None:
    lines, code = collect(py("import sys\nfor i in range(200000): sys.stdout.write(f'{i}\\n')"))
    assert code == 0
    assert len(lines) == 200000 and lines[0] == "0" and lines[-1] == "199999"
    assert lines == [str(i) for i in range(200000)]


def test_invalid_utf8_and_cp1252_output_is_readable_and_does_not_stop_the_stream() -> None:
    lines, code = collect(py(r"""
        import sys
        out = sys.stdout.buffer
        out.write("café ✓\n".encode("utf-8"))
        out.write("Fehler: Datei nicht gefunden – Größe\n".encode("cp1252"))  # MSVC, German
        out.write(b"broken \x81\x8d\x8f bytes\n")  # fit neither UTF-8 nor cp1252
        out.write(b"still streaming\n")
    """))
    assert code == 0
    assert lines[0] == "café ✓"
    assert lines[1] == "Fehler: Datei nicht gefunden – Größe"
    assert lines[2].startswith("broken ") and "\ufffd" in lines[2]
    assert lines[3] == "still streaming"


def test_carriage_return_progress_becomes_separate_lines_when_asked() -> None:
    lines, _ = collect(py(r"""
        import sys, time
        out = sys.stdout.buffer
        out.write(b"Receiving objects:  10%\r"); out.flush(); time.sleep(0.05)
        out.write(b"Receiving objects: 100%\r"); out.flush(); time.sleep(0.05)
        out.write(b"\ndone\r\n")
    """), split_cr=True)
    assert [line for line in lines if line] == [
        "Receiving objects:  10%", "Receiving objects: 100%", "done"]


def test_a_quiet_child_is_reported_once_per_silent_stretch() -> None:
    stalls: list[tuple[float, int]] = []
    lines: list[str] = []
    stream(py("""
        import time
        print('start', flush=True); time.sleep(1.0)
        print('middle', flush=True); time.sleep(1.0)
        print('end', flush=True)
    """), lines.extend, stall_after_s=0.5, on_stall=lambda q, pid: stalls.append((q, pid)))
    assert lines == ["start", "middle", "end"]
    assert len(stalls) == 2
    assert all(quiet >= 0.5 for quiet, _ in stalls)
    assert stalls[0][1] > 0


# -- stopping -------------------------------------------------------------------------------


GRANDCHILDREN = r"""
import os, subprocess, sys, time
code = "import os, time; os.setsid(); time.sleep(300)"
escaped = subprocess.Popen([sys.executable, "-c", code])  # leaves our session
plain = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
pids = [escaped.pid, plain.pid]
if {setsid!r}:
    pids.append(subprocess.Popen(["setsid", "sleep", "300"]).pid)
time.sleep(0.5)  # let os.setsid() run
print("pids", *pids, flush=True)
time.sleep(300)
"""


@pytest.mark.skipif(not hasattr(os, "setsid"), reason="POSIX sessions")
def test_cancel_stops_the_whole_tree_including_a_grandchild_in_its_own_session() -> None:
    cancel = threading.Event()
    pids: list[int] = []

    def on_lines(lines: list[str]) -> None:
        for line in lines:
            if line.startswith("pids "):
                pids.extend(int(p) for p in line.split()[1:])
                cancel.set()

    code = GRANDCHILDREN.format(setsid=shutil.which("setsid") is not None)
    started = time.monotonic()
    with pytest.raises(Cancelled) as caught:
        stream([PY, "-c", code], on_lines, cancel=cancel)
    assert time.monotonic() - started < 20
    assert len(pids) >= 2
    time.sleep(0.2)
    alive = [pid for pid in pids if not gone(pid)]
    assert alive == [], f"still running after cancel: {alive}"
    assert caught.value.leftover_pids == ()
    assert caught.value.exit_code == 130


@pytest.mark.skipif(not hasattr(os, "setsid"), reason="POSIX sessions")
def test_cancel_finds_a_grandchild_that_was_orphaned_before_anyone_looked() -> None:
    """The child starts a daemon (double fork + setsid) and exits at once: the daemon is in
    no process tree any more; the runner still finds it (marker / subreaper) and stops it."""
    pid_file_code = r"""
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        print("daemon", os.getpid(), flush=True)
        time.sleep(300)
    os._exit(0)
time.sleep(300)
"""
    cancel = threading.Event()
    pids: list[int] = []

    def on_lines(lines: list[str]) -> None:
        for line in lines:
            if line.startswith("daemon "):
                pids.append(int(line.split()[1]))
                cancel.set()

    with pytest.raises(Cancelled):
        stream([PY, "-c", pid_file_code], on_lines, cancel=cancel)
    time.sleep(0.2)
    assert pids and gone(pids[0]), "the orphaned daemon survived the cancel"


def test_a_time_limit_stops_the_child_and_names_the_command() -> None:
    started = time.monotonic()
    lines: list[str] = []
    with pytest.raises(ProcessTimeout) as caught:
        stream(py("import time; print('working', flush=True); time.sleep(60)"), lines.extend,
               timeout_s=1.0)
    assert time.monotonic() - started < 10
    assert lines == ["working"]
    error = caught.value
    assert isinstance(error, WizardError)
    assert "did not finish within 1 seconds" in error.what
    assert "time.sleep(60)" in error.why  # the command, shown to the person
    assert error.leftover_pids == ()


def test_captured_probe_with_a_time_limit_is_stopped() -> None:
    started = time.monotonic()
    with pytest.raises(ProcessTimeout) as caught:
        run_captured(py("import time; time.sleep(60)"), timeout_s=0.5)
    assert time.monotonic() - started < 10
    assert caught.value.limit_s == 0.5


def test_captured_probe_returns_code_and_both_streams_decoded() -> None:
    done = run_captured(py(r"""
        import sys
        sys.stdout.buffer.write("Größe\n".encode("cp1252"))
        sys.stderr.write("warning\n")
        sys.exit(4)
    """))
    assert done.returncode == 4 and not done.ok
    assert done.stdout == "Größe\n"
    assert done.stderr == "warning\n"
    merged = run_captured(py("import sys; print('a', flush=True); print('b', file=sys.stderr)"),
                          merge_stderr=True)
    assert merged.stdout.split() == ["a", "b"] and merged.stderr == ""


def test_cancel_before_start_runs_nothing(tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    flag = tmp_path / "ran"
    with pytest.raises(Cancelled):
        run_captured(py(f"open({str(flag)!r}, 'w').close()"), cancel=cancel)
    with pytest.raises(Cancelled):
        stream(py(f"open({str(flag)!r}, 'w').close()"), lambda _l: None, cancel=cancel)
    assert not flag.exists()


def test_a_missing_program_is_a_clear_start_error(tmp_path: Path) -> None:
    with pytest.raises(ProcessStartError) as caught:
        stream([str(tmp_path / "no such program")], lambda _l: None)
    assert caught.value.not_found
    assert "no such program could not be started" in caught.value.what


# -- environment ------------------------------------------------------------------------------


PRINT_ENV = "import json, os; print(json.dumps(dict(os.environ)))"


def test_secrets_are_not_passed_to_the_child_but_what_builds_need_is() -> None:
    base = {
        "PATH": os.environ["PATH"],
        "CUDA_HOME": "/usr/local/cuda",
        "TORCH_CUDA_ARCH_LIST": "9.0",
        "TOKENIZERS_PARALLELISM": "false",
        "MAX_JOBS": "4",
        "GITHUB_TOKEN": "ghp_secret1",
        "GH_TOKEN": "secret2",
        "HF_TOKEN": "hf_secret3",
        "HUGGING_FACE_HUB_TOKEN": "secret4",
        "OPENAI_API_KEY": "sk-secret5",
        "MY_SERVICE_PASSWORD": "secret6",
        "CI_DEPLOY_SECRET": "secret7",
        "AWS_ACCESS_KEY_ID": "AKIAsecret8",
        "AWS_SECRET_ACCESS_KEY": "secret9",
        "AWS_SESSION_TOKEN": "secret10",
        "AZURE_CLIENT_SECRET": "secret11",
        "AZURE_STORAGE_CONNECTION_STRING": "secret12",
        "github_token": "secret13",  # Windows names are case-insensitive
    }
    lines, code = collect([PY, "-c", PRINT_ENV], env=base,
                          env_changes=[EnvChange("MAX_JOBS", "2"),
                                       EnvChange("PATH", "/opt/tool/bin", EnvMode.PREPEND)])
    assert code == 0
    seen = json.loads(lines[-1])
    printed = "\n".join(lines)
    assert "secret" not in printed.lower()
    assert seen["CUDA_HOME"] == "/usr/local/cuda"
    assert seen["TORCH_CUDA_ARCH_LIST"] == "9.0"
    assert seen["TOKENIZERS_PARALLELISM"] == "false"
    assert seen["MAX_JOBS"] == "2"
    assert seen["PATH"] == "/opt/tool/bin" + os.pathsep + os.environ["PATH"]
    assert MARKER_VAR in seen
    captured = json.loads(run_captured([PY, "-c", PRINT_ENV], env=base).stdout)
    assert "GITHUB_TOKEN" not in captured and captured["CUDA_HOME"] == "/usr/local/cuda"


def test_child_environment_applies_changes_in_order_and_unsets() -> None:
    env = child_environment(
        [EnvChange("A", "1"), EnvChange("P", "x", EnvMode.PREPEND),
         EnvChange("P", "y", EnvMode.PREPEND), EnvChange("A", "2")],
        {"P": "base", "PYTHONHOME": "/frozen", "HF_TOKEN": "t"},
        unset=["PYTHONHOME"],
    )
    assert env == {"A": "2", "P": os.pathsep.join(["y", "x", "base"]), **MULTICAST_OFF}


def test_nvlink_multicast_is_off_in_every_child_unless_the_user_set_it() -> None:
    env = child_environment([], {"NCCL_NVLS_ENABLE": "1"})
    assert env["NCCL_NVLS_ENABLE"] == "1"  # the user's own choice is kept
    assert env["TORCH_SYMM_MEM_DISABLE_MULTICAST"] == "1"
    assert env["NVSHMEM_DISABLE_NVLS"] == "1"


# -- quoting ----------------------------------------------------------------------------------


def test_posix_quoting_round_trips_through_a_real_shell(tmp_path: Path) -> None:
    if shutil.which("sh") is None:
        pytest.skip("no POSIX shell")
    args = ["plain", "with space", "it's", 'say "hi"', "café/日本", "$HOME", "a;b|c", ""]
    line = show_command([PY, "-c", "import json, sys; print(json.dumps(sys.argv[1:]))", *args],
                        QuoteStyle.POSIX)
    done = run_captured(["sh", "-c", line])
    assert json.loads(done.stdout) == args


def test_windows_quoting_follows_the_c_runtime_rules() -> None:
    w = QuoteStyle.WINDOWS
    assert quote_arg(r"C:\Program Files\NVIDIA\nvcc.exe", w) == \
        r'"C:\Program Files\NVIDIA\nvcc.exe"'
    assert quote_arg(r"HKLM\SYSTEM\CurrentControlSet", w) == r"HKLM\SYSTEM\CurrentControlSet"
    assert quote_arg('say "hi"', w) == r'"say \"hi\""'
    assert quote_arg("C:\\with space\\", w) == '"C:\\with space\\\\"'
    assert quote_arg("", w) == '""'
    assert quote_arg("Größe", w) == "Größe"
    assert show_command(["reg.exe", "add", "/v", "Long Paths"], w) == 'reg.exe add /v "Long Paths"'
