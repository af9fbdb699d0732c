"""The diagnosis of a target Python that is not what the wizard needs: a real Python 2.7 (and its
recorded answers where none is installed), Pythons older than 3.9, a PyTorch whose import kills
the interpreter (a real venv), and probe answers that are cut off or damaged."""

from __future__ import annotations

import platform
import shlex
import sys
from pathlib import Path

import pytest
from ksw_target_pythons import (
    answering_python,
    real_python,
    recorded_python2,
    torch_crash_env,
)

from kernel_wizard.machine.environment import (
    PROBE_BEGIN,
    PROBE_END,
    EnvStatus,
    inspect_python,
    reinstall_torch_command,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX stand-ins and venvs")

PYTHON2 = real_python("2.7")


def assert_python2_named(env_python: Path, env: object) -> None:
    from kernel_wizard.machine.environment import PythonEnv

    assert isinstance(env, PythonEnv)
    assert env.status is EnvStatus.UNSUPPORTED_PYTHON and not env.usable
    assert env.summary == (f"This is Python 2.7.18 at {env_python}; kernels need Python 3.9 or "
                           "newer with PyTorch.")
    assert "Choose another Python (3.9 or newer)" in env.hint
    assert "working Python" not in env.summary + env.hint  # not "reinstall Python"
    assert env.version == "2.7.18"
    assert "shutil" in env.detail  # what the probe ran into, for the details view


@pytest.mark.skipif(PYTHON2 is None, reason="no Python 2.7 on this machine")
def test_a_real_python_2_is_named_with_its_version(tmp_path: Path) -> None:
    assert PYTHON2 is not None
    env = inspect_python(PYTHON2)
    assert_python2_named(PYTHON2, env)


def test_the_recorded_python_2_answers_give_the_same_diagnosis(tmp_path: Path) -> None:
    stand_in = recorded_python2(tmp_path)
    assert_python2_named(stand_in, inspect_python(stand_in))


@pytest.mark.parametrize("version", ["3.6", "3.7", "3.8"])
def test_a_real_python_older_than_3_9_is_named(version: str) -> None:
    python = real_python(version)
    if python is None:
        pytest.skip(f"no Python {version} on this machine")
    env = inspect_python(python)
    assert env.status is EnvStatus.UNSUPPORTED_PYTHON
    assert env.summary.startswith(f"This is Python {version}.") and str(python) in env.summary


@pytest.mark.parametrize(("crash", "how"), [
    ("abort", "killed by signal SIGABRT"),
    ("segfault", "killed by signal SIGSEGV"),
    ("exit", "exit code 7"),
])
def test_a_torch_that_kills_the_interpreter_at_import(tmp_path: Path, crash: str,
                                                      how: str) -> None:
    python = torch_crash_env(tmp_path, crash)
    env = inspect_python(python)
    assert env.status is EnvStatus.TORCH_BROKEN and not env.usable
    assert env.summary == (f"Python {platform.python_version()} works, but importing PyTorch "
                           f"2.5.1+cu124 crashes it ({how}).")
    command = (f"{shlex.quote(str(python))} -m pip install --force-reinstall torch==2.5.1 "
               "--index-url https://download.pytorch.org/whl/cu124")
    assert f"Reinstall PyTorch in that environment: {command}" in env.hint
    # what the Python facts say is still known: the prerequisites page can offer its fix
    assert env.version == platform.python_version() and env.pip_version
    if crash != "exit":  # faulthandler's stack names the file that crashed
        assert "torch/__init__.py" in env.detail, env.detail


def test_how_a_crash_is_told() -> None:
    from kernel_wizard.base.processes import exit_text as _exit_text

    assert _exit_text(-6) == "killed by signal SIGABRT"
    assert _exit_text(7) == "exit code 7"
    # Windows: abort() ends a process with STATUS_STACK_BUFFER_OVERRUN (fast fail)
    assert _exit_text(0xC0000409) == ("exit code 0xC0000409, it stopped itself (abort or a "
                                      "failed check)")
    assert _exit_text(0xC0000005) == "exit code 0xC0000005, an access violation"


def test_the_reinstall_command_names_the_index_of_the_build() -> None:
    exe = Path("/envs/my env/bin/python")
    assert reinstall_torch_command(exe, "2.9.0+cpu") == (
        "'/envs/my env/bin/python' -m pip install --force-reinstall torch==2.9.0 "
        "--index-url https://download.pytorch.org/whl/cpu")
    assert reinstall_torch_command(exe, "2.9.0").endswith("--force-reinstall torch==2.9.0")
    assert reinstall_torch_command(exe, None).endswith("--force-reinstall torch")


def block(text: str) -> str:
    return f"\n{PROBE_BEGIN}\n{text}\n{PROBE_END}\n"


GOOD = ('{"python": {"version": "3.11.7", "bits": 64, "platform": "linux-x86_64"}, '
        '"pip": {"present": true, "version": "24.0"}, "torch": {"present": false}}')


@pytest.mark.parametrize(("answer", "why"), [
    (f"\n{PROBE_BEGIN}\n" + GOOD[:60], "cut off"),  # the process died while writing
    (block("{'python': not json}"), "cut off or damaged"),
    (block('["python", "3.11"]'), "cut off or damaged"),
    (block('{"python": "3.11.7", "pip": {}, "torch": {}}'), "'python' is missing"),
    (block('{"python": {"bits": 64}, "pip": {}, "torch": {}}'), "no Python version"),
    (block(GOOD.replace('"bits": 64', '"bits": "sixty-four"')), "ValueError"),
    (block(GOOD.replace('{"present": false}', '{"present": true, "version": "2.5", '
                        '"arch_list": "sm_90"}')), "TypeError"),
    (block(GOOD.replace('"version": "24.0"', '"version": 24')), "TypeError"),
], ids=["cut-off", "not-json", "a-list", "python-not-a-table", "no-version", "bits-not-a-number",
        "arch-list-not-a-list", "pip-version-not-text"])
def test_a_damaged_answer_is_unreadable_not_a_traceback(tmp_path: Path, answer: str,
                                                        why: str) -> None:
    python = answering_python(tmp_path, answer)
    env = inspect_python(python)
    assert env.status is EnvStatus.UNREADABLE and not env.usable
    assert env.summary.startswith(f"The wizard could not read the answer of {python}")
    assert "Try again" in env.hint
    assert why in env.detail, env.detail


def test_the_well_formed_answer_of_the_same_stand_in_is_read(tmp_path: Path) -> None:
    # the control for the damaged answers above: the same shape, intact, is understood
    env = inspect_python(answering_python(tmp_path, block(GOOD)))
    assert env.status is EnvStatus.NO_TORCH and env.version == "3.11.7"


def test_a_python_that_starts_but_fails_the_probe_is_not_called_not_python(
    tmp_path: Path
) -> None:
    traceback = "Traceback (most recent call last):\nImportError: bad magic number in 'json'\n"
    python = answering_python(tmp_path, traceback, version="3.12.1", code=1)
    env = inspect_python(python)
    assert env.status is EnvStatus.BROKEN
    assert env.summary.startswith("Python 3.12.1 starts, but it failed while the wizard looked")
    assert "exit code 1" in env.summary and "bad magic number" in env.detail
    assert "reinstall Python" not in env.hint
