"""The prerequisites for real on this Linux machine, and the fixes through their seams.

* Facts gathered for real: gcc/g++, the CUDA 13.0 toolkit in /usr/local/cuda-13.0 with its own
  host_config.h and include/cccl, git, the target venvs, NVML (no driver here, or a replayed
  H100). The real ``check`` output is printed (run pytest with ``-s`` to see it).
* The headless CLI as a user runs it: ``check --json`` exit codes, ``fix git-longpaths``
  against a temporary HOME / GIT_CONFIG_GLOBAL.
* Fixes that would elevate, run the VS bootstrapper or the CUDA installer go through the seam
  with a stand-in executable (``sys.executable`` + a small script) that exits with each
  documented exit code; the bootstrapper and installer are downloaded from the real loopback
  server with the production URL replaced. Nothing touches the registry or installs anything
  system-wide.
* One real ``pip install ninja`` into a throwaway venv.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from loopback_http import LoopbackServer, Resource

from kernel_wizard.base.errors import Cancelled
from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.machine.platforms.linux import LinuxPlatform
from kernel_wizard.machine.platforms.windows import ERROR_CANCELLED, ElevationDeclined
from kernel_wizard.machine.toolchain import LONG_PATHS_KEY
from kernel_wizard.prereqs import CheckId, CheckStatus, FixStatus, gather_facts, run_checks
from kernel_wizard.prereqs.facts import GccFacts, gather_git, prereq_platform
from kernel_wizard.prereqs.fixes import (
    VS_BUILDTOOLS_ARGS,
    CudaToolkitFix,
    FixLog,
    GitLongPathsFix,
    LongPathsFix,
    PipInstallFix,
    PipStep,
    VsBuildToolsFix,
    stream_command,
)
from kernel_wizard.prereqs.model import FixProgress
from kernel_wizard.prereqs.resume import (
    RUN_ONCE_NAME,
    load_resume_state,
    restart_pending,
)

REPO = Path(__file__).resolve().parents[2]
H100 = REPO / "tests" / "data" / "nvml" / "h100-driver580.json"
CUDA_13 = Path("/usr/local/cuda-13.0")

# A stand-in for vs_buildtools.exe, the CUDA installer and reg.exe: records its arguments,
# prints a line, exits with the code it is told to. Windows exit codes are 32-bit (3010, 5007)
# but a POSIX exit status keeps only the low 8 bits, so the stand-in also writes its full code
# to a file, which the stand-in elevator returns, as GetExitCodeProcess does on Windows.
STANDIN = b"""\
import json, os, sys
from pathlib import Path
record = os.environ.get("KSW_STANDIN_RECORD")
if record:
    Path(record).write_text(json.dumps(sys.argv[1:]), encoding="utf-8")
print("stand-in running with", len(sys.argv) - 1, "arguments", flush=True)
code = int(os.environ.get("KSW_STANDIN_EXIT", "0"))
Path(os.environ["KSW_STANDIN_CODE_FILE"]).write_text(str(code), encoding="utf-8")
sys.exit(code % 256)
"""


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, no_proxy: None) -> None:
    """Logs and resume state go to a temp data folder; git's global config to a temp file;
    loopback must not go through a proxy."""
    monkeypatch.setenv("KSW_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KSW_STANDIN_CODE_FILE", str(tmp_path / "standin-exit-code"))


class StandinElevator:
    """Stands in for ShellExecuteExW "runas": runs the program unelevated (through this
    Python), records the call, and turns exit code 1223 (ERROR_CANCELLED, what Windows reports
    when the user declines the UAC prompt) into ElevationDeclined, as the real seam does."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], bool]] = []

    def __call__(self, argv: Sequence[str], *, show_window: bool = True) -> int:
        self.calls.append((list(argv), show_window))
        code_file = Path(os.environ["KSW_STANDIN_CODE_FILE"])
        code_file.unlink(missing_ok=True)
        status = subprocess.run([sys.executable, *argv], timeout=60, check=False).returncode
        code = int(code_file.read_text(encoding="utf-8"))  # the full 32-bit exit code
        assert code % 256 == status  # the real process exit status agrees
        if code == ERROR_CANCELLED:
            raise ElevationDeclined("The administrator prompt was declined.")
        return code


def run_app(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", "--headless", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300,
                          env=env if env is not None else dict(os.environ), check=False)


needs_cuda13 = pytest.mark.skipif(not (CUDA_13 / "bin" / "nvcc").exists(),
                                  reason="needs the CUDA 13.0 toolkit in /usr/local/cuda-13.0")


# -- the real machine ----------------------------------------------------------------------------


@needs_cuda13
def test_real_facts_and_checks_on_this_machine(torch_venv: Path) -> None:
    facts = gather_facts(torch_venv)
    assert facts.platform == "linux"
    compiler = facts.compiler
    assert isinstance(compiler, GccFacts)
    real_gcc = subprocess.run(["gcc", "-dumpfullversion"], capture_output=True, text=True,
                              check=True).stdout.strip()
    assert compiler.gcc_version is not None and compiler.gcc_version.text == real_gcc
    assert compiler.gxx_version == compiler.gcc_version

    tk = next(t for t in facts.toolkits if t.toolkit.root.resolve() == CUDA_13.resolve())
    assert tk.toolkit.release == (13, 0)
    assert tk.bounds is not None and tk.bounds.gcc is not None
    assert tk.bounds.gcc.maximum == (16,)  # the real header: gcc later than 15 unsupported
    assert tk.cccl_include == CUDA_13 / "include" / "cccl"
    assert (tk.cccl_include / "cuda" / "std").is_dir()

    results = {r.id: r for r in run_checks(facts)}
    assert results[CheckId.COMPILER].status is CheckStatus.OK
    assert results[CheckId.COMPILER].summary == f"gcc and g++ {real_gcc} are installed."
    compat = results[CheckId.COMPAT]
    assert compat.status is CheckStatus.OK
    assert compat.summary == f"gcc {real_gcc} fits CUDA 13.0 (gcc 15 or older)."
    assert str(CUDA_13 / "include" / "cccl") in compat.detail
    assert results[CheckId.LONG_PATHS].status is CheckStatus.OK  # not applicable on Linux
    assert results[CheckId.CUDA].facts["chosen_version"] == "13.0"
    env = results[CheckId.PYTHON_ENV]
    assert env.facts["torch"] == "2.13.0+cpu" and env.facts["ninja"]


@needs_cuda13
def test_cli_check_prints_every_row_and_exits_by_blocking(torch_venv: Path) -> None:
    done = run_app("check", "--python", str(torch_venv))
    print("\n$ python -m app --headless check --python", torch_venv)
    print(done.stdout)
    assert done.stderr == ""
    for title in ("C++ compiler", "CUDA toolkit", "Compiler and CUDA fit together", "Long paths",
                  "Python environment", "Disk space and memory"):
        assert title in done.stdout
    blocked = "block the build" in done.stdout.splitlines()[-1]
    assert done.returncode == (1 if blocked else 0)
    assert "OK       C++ compiler — gcc and g++" in done.stdout


def test_cli_check_json_plain_venv_blocks_on_missing_torch(plain_venv: Path) -> None:
    done = run_app("check", "--json", "--python", str(plain_venv))
    document = json.loads(done.stdout)
    assert document["schema"] == "ksw.check/1"
    assert done.returncode == 1 and document["blocking"] is True
    assert "python-env" in document["blocking_checks"]
    env = next(c for c in document["checks"] if c["id"] == "python-env")
    assert env["status"] == "missing"
    assert env["summary"] == "PyTorch is not installed in this environment."
    assert env["fix"]["id"] in {"torch", "python-packages"}
    assert env["fix"]["needs_admin"] is False
    assert [c["id"] for c in document["checks"]] == [c.value for c in CheckId]


def test_cli_check_json_exit_code_matches_blocking(torch_venv: Path) -> None:
    done = run_app("check", "--json", "--python", str(torch_venv))
    document = json.loads(done.stdout)
    assert done.returncode == (1 if document["blocking"] else 0)
    assert document["blocking"] == any(c["blocks"] for c in document["checks"])


@needs_cuda13
def test_cli_check_on_a_replayed_h100_offers_torch_cu130(torch_venv: Path) -> None:
    done = run_app("check", "--json", "--replay", str(H100), "--python", str(torch_venv))
    document = json.loads(done.stdout)
    checks = {c["id"]: c for c in document["checks"]}
    assert checks["cuda-toolkit"]["status"] == "ok"
    assert checks["cuda-toolkit"]["facts"]["driver_cuda"] == "13.0"
    env = checks["python-env"]
    # a CPU-only PyTorch rules out the GPU kernels only: a warning naming them, with its Fix
    assert env["status"] == "warning" and "CPU-only build" in env["summary"]
    assert "FlashAttention 2" in env["needed_for"] and "Probe kernel" not in env["needed_for"]
    assert env["fix"]["command_preview"][0].endswith(
        "--force-reinstall torch numpy --index-url https://download.pytorch.org/whl/cu130")
    assert done.returncode == 0  # nothing blocks: the probe can be built


def test_cli_fix_git_longpaths_on_linux_changes_nothing(tmp_path: Path) -> None:
    """Linux has no 260-character limit: 'fix git-longpaths' says so and runs nothing (it
    offered to change ~/.gitconfig where nothing needed fixing)"""
    gitconfig = tmp_path / "gitconfig"
    env = dict(os.environ, HOME=str(tmp_path / "home"), GIT_CONFIG_GLOBAL=str(gitconfig))
    done = run_app("fix", "git-longpaths", "--yes", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Nothing to fix: ")
    assert "no 260-character path limit" in done.stdout
    assert "git config" not in done.stdout
    assert not gitconfig.exists()


def test_the_git_longpaths_fix_sets_git_config_against_a_temp_home(tmp_path: Path) -> None:
    """the fix itself (offered on Windows) runs the real git against a temporary home"""
    import threading

    from kernel_wizard.prereqs.fixes import GitLongPathsFix
    from kernel_wizard.prereqs.model import FixStatus

    gitconfig = tmp_path / "gitconfig"
    env = dict(os.environ, HOME=str(tmp_path / "home"), GIT_CONFIG_GLOBAL=str(gitconfig))
    git = gather_git(prereq_platform(), env).executable
    assert git is not None
    fix = GitLongPathsFix(git)
    assert "git config --global core.longpaths true" in " ".join(fix.command_preview)
    lines: list[str] = []
    old_home, old_global = os.environ.get("HOME"), os.environ.get("GIT_CONFIG_GLOBAL")
    os.environ["HOME"], os.environ["GIT_CONFIG_GLOBAL"] = env["HOME"], str(gitconfig)
    try:
        outcome = fix.run(lines.append, threading.Event())
    finally:
        for name, value in (("HOME", old_home), ("GIT_CONFIG_GLOBAL", old_global)):
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    assert outcome.status is FixStatus.DONE, lines
    assert "longpaths = true" in gitconfig.read_text(encoding="utf-8")
    assert gather_git(prereq_platform(), env).core_longpaths is True


def test_cli_fix_dry_run_runs_nothing(plain_venv: Path) -> None:
    done = run_app("fix", "python-env", "--dry-run", "--python", str(plain_venv))
    assert done.returncode == 0
    assert "What will run:" in done.stdout and "-m pip install" in done.stdout
    assert "(dry run: nothing was run)" in done.stdout
    assert "torch" not in subprocess.run([str(plain_venv), "-m", "pip", "list"],
                                         capture_output=True, text=True).stdout


def test_cli_fix_unknown_id_is_a_usage_error() -> None:
    done = run_app("fix", "nonsense")
    assert done.returncode == 2 and "Known: compiler, cuda-toolkit" in done.stderr


# -- fixes through the seam, with stand-ins ------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "status", "words"),
    [
        (0, FixStatus.DONE, "are installed"),
        (3010, FixStatus.DONE_RESTART_NEEDED, "must restart"),
        (1641, FixStatus.DONE_RESTART_NEEDED, "started a restart"),
        (1602, FixStatus.CANCELLED, "cancelled"),
        (5004, FixStatus.CANCELLED, "cancelled"),
        (5003, FixStatus.FAILED, "could not download its files"),
        (5005, FixStatus.FAILED, "rejected its command line"),
        (5007, FixStatus.FAILED, "does not meet"),
        (ERROR_CANCELLED, FixStatus.DECLINED, "administrator prompt was declined"),
        (17, FixStatus.FAILED, "exit code 17"),
    ],
)
def test_vs_bootstrapper_download_and_exit_codes(
    code: int, status: FixStatus, words: str, server: LoopbackServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = server.add("/vs/17/release/vs_buildtools.exe", Resource(STANDIN))
    record = tmp_path / "argv.json"
    monkeypatch.setenv("KSW_STANDIN_EXIT", str(code))
    monkeypatch.setenv("KSW_STANDIN_RECORD", str(record))
    elevator = StandinElevator()
    fix = VsBuildToolsFix(url=url, download_to=tmp_path / "dl" / "vs_buildtools.exe",
                          allow_http=True, elevate=elevator)
    lines: list[str] = []
    progress: list[FixProgress] = []
    outcome = fix.run(lines.append, threading.Event(), progress.append)
    assert outcome.status is status, outcome
    assert words in outcome.message
    # the downloaded file is what ran, with exactly the documented arguments, in a window
    (argv, shown), = elevator.calls
    assert argv[0] == str(tmp_path / "dl" / "vs_buildtools.exe") and shown
    assert json.loads(record.read_text()) == list(VS_BUILDTOOLS_ARGS)
    assert progress and progress[-1].fraction == 1.0
    assert progress[-1].text == "Downloading vs_buildtools.exe"
    assert outcome.log_path is not None and outcome.log_path.is_file()
    log = outcome.log_path.read_text(encoding="utf-8")
    assert f"Downloading {url}" in log and "--includeRecommended" in log
    if status is not FixStatus.DECLINED:
        assert outcome.exit_code == code
        assert f"The installer exited with code {code}." in lines
    if status is FixStatus.FAILED and code != 5005:
        assert "dd_" in outcome.hint


@pytest.mark.parametrize(
    ("code", "status"),
    [(0, FixStatus.DONE), (ERROR_CANCELLED, FixStatus.DECLINED), (1, FixStatus.FAILED)],
)
def test_cuda_installer_download_and_silent_run(
    code: int, status: FixStatus, server: LoopbackServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = server.add("/compute/cuda/13.0.2/network_installers/cuda_13.0.2_windows_network.exe",
                     Resource(STANDIN))
    record = tmp_path / "argv.json"
    monkeypatch.setenv("KSW_STANDIN_EXIT", str(code))
    monkeypatch.setenv("KSW_STANDIN_RECORD", str(record))
    elevator = StandinElevator()
    fix = CudaToolkitFix((13, 0, 2), "matches PyTorch's CUDA 13.0", url=url,
                         download_to=tmp_path / "cuda.exe", allow_http=True, elevate=elevator)
    outcome = fix.run(lambda _line: None, threading.Event())
    assert outcome.status is status, outcome
    args = json.loads(record.read_text())
    assert args[:2] == ["-s", "-n"] and "nvcc_13.0" in args and "crt_13.0" in args
    assert elevator.calls[0][1] is False  # silent: no window
    if status is FixStatus.DONE:
        assert outcome.message == "CUDA 13.0.2 is installed."
    if status is FixStatus.FAILED:
        assert "exit code 1" in outcome.message and "cuda.exe" in outcome.hint


def test_installer_download_404_fails_before_anything_runs(server: LoopbackServer,
                                                          tmp_path: Path) -> None:
    url = server.add("/gone.exe", Resource(status=404))
    elevator = StandinElevator()
    outcome = VsBuildToolsFix(url=url, download_to=tmp_path / "vs.exe", allow_http=True,
                              elevate=elevator).run(lambda _line: None, threading.Event())
    assert outcome.status is FixStatus.FAILED
    assert elevator.calls == []


def test_installer_download_cancel(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/slow.exe", Resource(STANDIN * 20000, chunk_delay=0.2))
    elevator = StandinElevator()
    cancel = threading.Event()

    def on_progress(p: FixProgress) -> None:
        if p.done_bytes:
            cancel.set()

    outcome = VsBuildToolsFix(url=url, download_to=tmp_path / "vs.exe", allow_http=True,
                              elevate=elevator).run(lambda _l: None, cancel, on_progress)
    assert outcome.status is FixStatus.CANCELLED
    assert elevator.calls == []


@pytest.mark.parametrize(
    ("code", "status"),
    [(0, FixStatus.DONE_RESTART_NEEDED), (ERROR_CANCELLED, FixStatus.DECLINED),
     (5, FixStatus.FAILED)],
)
def test_long_paths_registry_write_through_the_elevation_seam(
    code: int, status: FixStatus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    reg = tmp_path / "reg_standin.py"
    reg.write_bytes(STANDIN)
    record = tmp_path / "argv.json"
    monkeypatch.setenv("KSW_STANDIN_EXIT", str(code))
    monkeypatch.setenv("KSW_STANDIN_RECORD", str(record))
    elevator = StandinElevator()
    autostarts: list[tuple[str, list[str]]] = []

    def autostart(name: str, argv: Sequence[str]) -> str:
        autostarts.append((name, list(argv)))
        return " ".join(argv)

    git = gather_git(prereq_platform()).executable
    assert git is not None
    fix = LongPathsFix(python=Path("/envs/ml/bin/python"), git_fix=GitLongPathsFix(git),
                       reg_exe=str(reg), elevate=elevator, autostart=autostart,
                       resume_command=("wizard.exe", "--resume"))
    lines: list[str] = []
    outcome = fix.run(lines.append, threading.Event())
    assert outcome.status is status, outcome
    # exactly one value is written, by an elevated, hidden reg.exe
    assert json.loads(record.read_text()) == ["add", LONG_PATHS_KEY, "/v", "LongPathsEnabled",
                                              "/t", "REG_DWORD", "/d", "1", "/f"]
    assert elevator.calls[0][1] is False
    # git's part needs no administrator and is done either way
    assert "longpaths = true" in (tmp_path / "gitconfig").read_text(encoding="utf-8")
    state = load_resume_state()
    if status is FixStatus.DONE_RESTART_NEEDED:
        assert "Restart Windows" in outcome.hint
        assert autostarts == [(RUN_ONCE_NAME, ["wizard.exe", "--resume"])]
        assert state is not None and state.reason == "long-paths"
        assert state.python == "/envs/ml/bin/python" and state.page == "prerequisites"
        assert restart_pending()  # no restart yet: the check says so
    else:
        assert autostarts == [] and state is None
    if status is FixStatus.DECLINED:
        assert "unchanged" in outcome.message and "git's long paths are on" in outcome.message


def test_long_paths_fix_without_autostart_still_says_restart(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            ) -> None:
    reg = tmp_path / "reg_standin.py"
    reg.write_bytes(STANDIN)
    monkeypatch.setenv("KSW_STANDIN_EXIT", "0")

    def failing_autostart(name: str, argv: Sequence[str]) -> str:
        raise ValueError("the command line is 300 characters long; RunOnce allows 260")

    outcome = LongPathsFix(reg_exe=str(reg), elevate=StandinElevator(),
                           autostart=failing_autostart).run(lambda _l: None, threading.Event())
    assert outcome.status is FixStatus.DONE_RESTART_NEEDED
    assert outcome.hint == "Restart Windows, then start the wizard again yourself."


def test_linux_platform_never_elevates() -> None:
    """The default seam on Linux refuses (the fix shows the sudo command instead)."""
    outcome = LongPathsFix(reg_exe="reg.exe").run(lambda _l: None, threading.Event())
    assert outcome.status is FixStatus.FAILED
    assert "does not run commands as root" in outcome.message
    assert isinstance(prereq_platform(), LinuxPlatform)


def test_stream_command_cancel_stops_the_process_tree(tmp_path: Path) -> None:
    cancel = threading.Event()
    seen: list[str] = []

    def on_line(line: str) -> None:
        seen.append(line)
        cancel.set()

    log = FixLog("cancel-test", on_line)
    started = time.monotonic()
    with pytest.raises(Cancelled):
        stream_command([sys.executable, "-c",
                        "import time; print('working', flush=True); time.sleep(60)"],
                       log, cancel)
    log.close()
    assert seen == ["working"]
    assert time.monotonic() - started < 15


# -- a real pip install (one, ~10 s) -------------------------------------------------------------


@pytest.mark.slow
def test_pip_fix_installs_ninja_into_a_throwaway_venv(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    before = inspect_python(python)
    assert before.raw["ninja"]["module_version"] is None
    fix = PipInstallFix(id="ninja", title="Install ninja", description="", python=python,
                        steps=(PipStep(("ninja",)),), pip_version=before.pip_version)
    lines: list[str] = []
    outcome = fix.run(lines.append, threading.Event())
    assert outcome.status is FixStatus.DONE, "\n".join(lines)
    assert lines[0].startswith(f"$ {python} -m pip install")
    assert any("Successfully installed ninja" in line for line in lines)
    after = inspect_python(python)
    assert after.raw["ninja"]["module_version"] is not None
    assert (venv / "bin" / "ninja").is_file()
    facts = replace(gather_facts(python, env=after), env=after)
    env_result = next(r for r in run_checks(facts) if r.id is CheckId.PYTHON_ENV)
    assert "ninja is missing" not in env_result.summary


@pytest.mark.slow
def test_pip_fix_offline_says_the_server_cannot_be_reached(
    tmp_path: Path, plain_venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline, 'fix python-env' ended with pip's ResolutionImpossible ("from versions: none"),
    which reads like a missing version. A real pip against an index nobody answers on
    (a loopback port that refuses), the machine's pip settings switched off."""
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    index = "http://127.0.0.1:9/whl/cu130"  # the discard port: connection refused
    fix = PipInstallFix(id="python-env", title="Install PyTorch", description="",
                        python=plain_venv,
                        steps=(PipStep(("torch==2.11.0",), index_url=index,
                                       options=("--retries", "0", "--timeout", "3")),))
    lines: list[str] = []
    outcome = fix.run(lines.append, threading.Event())
    assert outcome.status is FixStatus.FAILED
    assert outcome.message == ("pip could not reach the download server (127.0.0.1) to "
                               "install torch==2.11.0.")
    assert "Check the internet connection" in outcome.hint and "HTTPS_PROXY" in outcome.hint
    assert any("from versions: none" in line or "No matching distribution" in line
               for line in lines), "\n".join(lines[-10:])  # what pip itself said


# -- Windows facts gathering, run for real against a stand-in vswhere ------------------------------


def test_msvc_facts_gathered_through_a_stand_in_vswhere(tmp_path: Path) -> None:
    """The Windows gathering path (run vswhere, parse it, list each instance's toolsets, read
    its default-toolset file) on this machine: vswhere is a stand-in that prints the recorded
    Build Tools 2022 answer, pointed at a folder laid out like the real installation."""
    from kernel_wizard.machine.msvc import MsvcFacts
    from kernel_wizard.prereqs.compiler import check_compiler
    from kernel_wizard.prereqs.facts import gather_compiler

    install = tmp_path / "Microsoft Visual Studio" / "2022" / "BuildTools"
    cl = install / "VC" / "Tools" / "MSVC" / "14.44.35207" / "bin" / "Hostx64" / "x64"
    cl.mkdir(parents=True)
    (cl / "cl.exe").write_bytes(b"MZ")
    # a leftover: the folder of an older toolset, without its compiler
    (install / "VC" / "Tools" / "MSVC" / "14.38.33130" / "include").mkdir(parents=True)
    build = install / "VC" / "Auxiliary" / "Build"
    build.mkdir(parents=True)
    recorded = REPO / "tests" / "data"
    (build / "Microsoft.VCToolsVersion.default.txt").write_bytes(
        (recorded / "msvc" / "vctools-default-2022-17.14.txt").read_bytes())
    answer = json.loads((recorded / "vswhere" / "buildtools-2022.json").read_text("utf-8"))
    answer[0]["installationPath"] = str(install)
    args_file = tmp_path / "vswhere-args.json"
    vswhere = tmp_path / "vswhere"
    vswhere.write_text(
        f"#!{sys.executable}\nimport json, sys\n"
        f"open({str(args_file)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
        f"sys.stdout.write({json.dumps(answer, indent=2)!r})\n", encoding="utf-8")
    vswhere.chmod(0o755)

    class WindowsLikePlatform(LinuxPlatform):
        name = "windows"

        def vswhere_path(self) -> Path | None:
            return vswhere

        def windows_sdk_versions(self) -> list[str]:
            return ["10.0.22621.0"]

    compiler = gather_compiler(prereq_platform(WindowsLikePlatform()))
    assert isinstance(compiler, MsvcFacts) and compiler.error == ""
    args = json.loads(args_file.read_text())
    assert args[:4] == ["-all", "-prerelease", "-products", "*"]
    assert "Microsoft.VisualStudio.Component.VC.Tools.x86.x64" in args
    assert args[-2:] == ["-include", "packages"]
    (found,) = compiler.instances
    assert [t.text for t in found.toolsets] == ["14.44.35207"]
    assert [u.toolset.text for u in found.unusable_toolsets] == ["14.38.33130"]
    assert found.default_toolset == (14, 44, 35207)
    facts = gather_facts(None, platform=WindowsLikePlatform(), build_root=tmp_path)
    assert facts.platform == "windows" and facts.host_include_var == "CPLUS_INCLUDE_PATH"
    result = check_compiler(facts)
    assert result.status is CheckStatus.OK
    assert result.summary.startswith("Visual Studio Build Tools 2022 17.14.28 is installed")
    assert "MSVC 14.38.33130 in Visual Studio Build Tools 2022 17.14.28 is not used: its " \
        "folder has no bin\\Hostx64\\x64\\cl.exe" in result.detail



def test_a_vswhere_answering_in_the_japanese_code_page_is_read(tmp_path: Path) -> None:
    """vswhere 3.0.1 ignores -utf8 (microsoft/vswhere#262): a real child process prints the
    recorded CP932 answer; the wizard finds the instance instead of offering to install Build
    Tools that are already there."""
    from kernel_wizard.machine.msvc import gather_msvc

    recorded = REPO / "tests" / "data" / "vswhere" / "community-2017-ja.cp932.json"
    vswhere = tmp_path / "vswhere"
    vswhere.write_text(
        f"#!{sys.executable}\nimport sys\n"
        f"sys.stdout.buffer.write(open({str(recorded)!r}, 'rb').read())\n", encoding="utf-8")
    vswhere.chmod(0o755)

    class JapaneseWindowsLike(LinuxPlatform):
        name = "windows"

        def vswhere_path(self) -> Path | None:
            return vswhere

        def console_encodings(self) -> tuple[str, ...]:
            return ("cp932",)  # GetOEMCP() on Japanese Windows

    facts = gather_msvc(JapaneseWindowsLike())
    assert facts.error == "" and facts.encoding == "cp932"
    assert [i.instance.display_name for i in facts.instances] == ["Visual Studio Community 2017"]


def test_cli_fix_ninja_where_ninja_is_found_changes_nothing(torch_venv: Path) -> None:
    """the torch venv has ninja: 'fix ninja' says where it is and installs nothing"""
    before = subprocess.run([str(torch_venv), "-m", "pip", "list"], capture_output=True,
                            text=True).stdout
    done = run_app("fix", "ninja", "--yes", "--python", str(torch_venv))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Nothing to fix: ninja is already found (")
    assert "pip install" not in done.stdout
    assert subprocess.run([str(torch_venv), "-m", "pip", "list"], capture_output=True,
                          text=True).stdout == before
