"""Fault trials of the wizard's state: installs cut off by kill -9, damaged install lists,
journals and reports, roll-backs that cannot happen, and runs that meet at one lock.

Each trial starts the real CLI (``python -m app --headless``) and checks the documented exit
code, a clear message, no traceback, no process left, and the target environment unchanged
where an install could have touched it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from ksw_state_support import (
    REPO,
    cli,
    faults_conftest,
    fresh_env,
    kill_group,
    padded_wheel,
    pip_install_child,
    site_packages,
    start,
    stash_entries,
    wait_for,
    wheel_source,
)
from ksw_testsupport import pip_freeze as freeze

from kernel_wizard.base.paths import env_lock_path
from kernel_wizard.base.statefile import write_json
from kernel_wizard.install.installer import install_wheel, load_installs
from kernel_wizard.install.records import InstallRecord, write_journal, write_receipt

_faults = faults_conftest()  # tests/faults/conftest.py: the suite's shared checks
assert_clean_failure = _faults.assert_clean_failure
fault_source = _faults.fault_source
run_cli = _faults.run_cli
start_cli = _faults.start_cli
wait_until_gone = _faults.wait_until_gone

PASS = {"status": "pass", "report": "/reports/a/report.json"}


@pytest.fixture()
def data() -> Path:
    return Path(os.environ["KSW_DATA_DIR"])  # each trial's own data folder (tests/conftest.py)


def record(python: Path | str, version: str = "0.1.0", **extra: Any) -> dict[str, Any]:
    return {"name": "ksw-probe-kernel", "version": version, "python": str(python),
            "kernel": "probe", "adapter": "probe", "wheel": None, "backup": None,
            "installed": "2026-11-20 10:00:00", "verification": PASS, **extra}


HOLD = """
import sys, time
from pathlib import Path
from kernel_wizard.base.locks import hold
with hold(Path(sys.argv[1]), sys.argv[2]):
    print("held", flush=True)
    time.sleep(300)
"""


@pytest.fixture()
def holder() -> Iterator[Any]:
    """Starts a process that holds a lock (as another wizard would); killed at the end."""
    started: list[subprocess.Popen[str]] = []

    def hold(lock: Path, purpose: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-c", HOLD, str(lock), purpose], cwd=REPO,
                                text=True, stdout=subprocess.PIPE,
                                env=dict(os.environ, PYTHONPATH=str(REPO)))
        started.append(proc)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        return proc

    yield hold
    for proc in started:
        proc.kill()
        proc.wait()


def module_version(python: Path) -> str:
    code = "import importlib.metadata as m; print(m.version('ksw-probe-kernel'))"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    return done.stdout.strip() or "not installed"


# -- installs cut off --------------------------------------------------------------------------


def test_kill_9_during_pip_install(
    tmp_path: Path, scratch_torch_env: Path, kernel_wheel: Any, data: Path
) -> None:
    """kill -9 of the CLI and pip mid-install → next start rolls back, says so, env as before"""
    env = scratch_torch_env
    install_wheel(env, kernel_wheel("correct"), kernel="probe", verification=PASS)
    before = freeze(env)
    new = padded_wheel(tmp_path, "correct", "0.2.0", pad=1500)
    proc = start("build", "--kernel", "probe", "--source", str(wheel_source(tmp_path, new)),
                 "--python", str(env), "--skip-verify", "--yes", data=data)
    package = site_packages(env) / "ksw_probe"
    try:
        wait_for(lambda: pip_install_child(proc) is not None, 180, "pip install to start")
        wait_for(lambda: len(list(package.glob("pad_*.py"))) > 50, 60, "pip to write files")
    finally:
        kill_group(proc)  # the CLI and pip, mid-install
    assert list((data / "journal").glob("*.json")), "the journal was written before pip ran"
    assert list(package.glob("pad_*.py"))  # half-installed now

    result = cli("installs", data=data)
    output = assert_clean_failure(
        result, 0, "was interrupted; it was rolled back: ksw-probe-kernel 0.1.0 is installed "
        "again, as before", "probe: ksw-probe-kernel 0.1.0")
    assert freeze(env) == before and module_version(env) == "0.1.0"
    assert not list(package.glob("pad_*.py")) and stash_entries(env) == []
    assert not list((data / "journal").glob("*.json")) and "Traceback" not in output
    assert "interrupted" not in cli("installs", data=data).stderr  # said once


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_during_pip_lets_the_install_finish_and_says_so(
    tmp_path: Path, scratch_torch_env: Path, data: Path, signum: int
) -> None:
    """Ctrl-C/TERM/HUP to the wizard while pip installs → pip is not cut in half: the install
    finishes and is recorded, exit code 0 (was 130/143/129 after "✔ Installed"), and the
    last line says the stop came too late to stop anything"""
    env = scratch_torch_env
    new = padded_wheel(tmp_path, "correct", "0.2.0", pad=1500)
    proc = start("build", "--kernel", "probe", "--source", str(wheel_source(tmp_path, new)),
                 "--python", str(env), "--skip-verify", "--yes", data=data)
    try:
        wait_for(lambda: pip_install_child(proc) is not None, 180, "pip install to start")
        os.kill(proc.pid, signum)  # the wizard only, as kill/timeout/a logout would
        output = proc.communicate(timeout=300)[0]
    finally:
        kill_group(proc)
    assert proc.returncode == 0, output
    assert "Installed ksw-probe-kernel 0.2.0" in output
    assert output.rstrip().endswith("it was finished, and its result above stands."), output
    assert module_version(env) == "0.2.0" and [r.version for r in load_installs()] == ["0.2.0"]


@pytest.mark.slow
def test_verify_names_a_kernel_changed_outside_the_wizard(
    tmp_path: Path, scratch_torch_env: Path, data: Path
) -> None:
    """the record names 0.1.0, pip put 0.2.0 there behind the wizard's back → --verify still
    verifies what is there, and says the record names another version (was: silent)"""
    env = scratch_torch_env
    install_wheel(env, padded_wheel(tmp_path / "a", "correct", "0.1.0", pad=0), kernel="probe",
                  verification=PASS)
    other = padded_wheel(tmp_path / "b", "correct", "0.2.0", pad=0)
    done = subprocess.run([str(env), "-m", "pip", "install", "-q", "--no-deps", str(other)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    result = cli("verify", "--quick", data=data)
    output = assert_clean_failure(result, result.returncode)
    assert "NOTE: The wizard's record says ksw-probe-kernel 0.1.0 is installed in" in output
    assert "but 0.2.0 was verified there: it was changed outside the wizard" in output
    as_json = cli("verify", "--quick", "--json", data=data)
    (entry,) = json.loads(as_json.stdout)
    assert "0.2.0 was verified there" in entry["disagreement"]


FINISH_THEN_DIE = """
import os, sys
from pathlib import Path
import kernel_wizard.install.installer as install
install._commit = lambda journal: os._exit(9)  # killed right after pip finished
install.install_wheel(Path(sys.argv[1]), Path(sys.argv[2]), kernel="probe")
"""


def test_killed_after_pip_finished(tmp_path: Path, kernel_wheel: Any, data: Path) -> None:
    """killed after pip finished, before the record → next start completes and records it"""
    env = fresh_env(tmp_path / "env")
    install_wheel(env, kernel_wheel("correct"), kernel="probe", verification=PASS)
    new = padded_wheel(tmp_path, "correct", "0.2.0", pad=3)
    died = subprocess.run([sys.executable, "-c", FINISH_THEN_DIE, str(env), str(new)],
                          cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert died.returncode == 9 and [r.version for r in load_installs()] == ["0.1.0"]
    after_pip = freeze(env)

    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "after pip had finished; it was completed and is now "
                         "recorded", "probe: ksw-probe-kernel 0.2.0",
                         "a roll-back puts back: ksw-probe-kernel 0.1.0")
    (saved,) = load_installs()
    assert saved.version == "0.2.0" and saved.previous is not None \
        and saved.previous.version == "0.1.0"
    assert freeze(env) == after_pip and stash_entries(env) == []


def test_journal_cut_off_before_pip(tmp_path: Path, data: Path) -> None:
    """journal left while the backup was copied (pip never ran) → dropped, 'nothing to undo'"""
    folder = data / "backups" / "ksw-probe-kernel-1"
    (folder / "files").mkdir(parents=True)
    write_journal({"id": "ksw-probe-kernel-1", "phase": "backup", "python": sys.executable,
                   "name": "ksw-probe-kernel", "version": "0.2.0", "folder": str(folder),
                   "started": "2026-11-20 10:00:00"})
    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "interrupted before it changed anything; nothing needed "
                         "undoing")
    assert not folder.exists() and not list((data / "journal").iterdir())


def test_journal_of_a_python_that_is_gone(tmp_path: Path, data: Path) -> None:
    """journal of an environment deleted since → dropped with a plain notice, exit 0"""
    write_journal({"id": "tx-gone", "phase": "install", "python": str(tmp_path / "gone/python"),
                   "name": "ksw-probe-kernel", "version": "0.2.0",
                   "folder": str(data / "backups" / "tx-gone"), "started": "yesterday"})
    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "that Python no longer exists; nothing to undo")
    assert not (data / "journal" / "tx-gone.json").exists()


def test_damaged_journal(data: Path) -> None:
    """a journal that is not JSON → kept aside, said so, the command still runs (exit 0)"""
    journal = data / "journal"
    journal.mkdir(parents=True)
    (journal / "tx-1.json").write_text('{"schema": "ksw.install-journal/1", "id"', "utf-8")
    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "tx-1.json was damaged", "kept aside as tx-1.json.damaged-",
                         "The wizard has not installed any kernel yet.")
    assert len(list(journal.glob("tx-1.json.damaged-*"))) == 1


def test_install_under_way_in_another_run(tmp_path: Path, data: Path, holder: Any) -> None:
    """journal of an install another live run is doing → left alone, no false recovery"""
    env = tmp_path / "env" / "bin" / "python"
    write_journal({"id": "tx-live", "phase": "install", "python": str(env),
                   "name": "ksw-probe-kernel", "version": "0.2.0",
                   "folder": str(data / "backups" / "tx-live"), "started": "now"})
    holder(env_lock_path(env), f"installing ksw-probe-kernel into {env}")
    result = cli("installs", data=data)
    output = assert_clean_failure(result, 0, "an install of ksw-probe-kernel into")
    assert "interrupted" not in result.stderr and "running now" in output
    assert (data / "journal" / "tx-live.json").exists()


# -- damaged install records and reports -----------------------------------------------------


def test_install_list_not_json(data: Path) -> None:
    """installs.json cut short, no earlier copy → kept aside, rebuilt from receipts, said so"""
    folder = data / "backups" / "tx-a"
    write_receipt(folder, InstallRecord.from_json(record("/envs/a/bin/python")), "installed")
    (data / "installs.json").write_text('[{"name": "ksw-probe-kernel", "vers', "utf-8")
    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "installs.json was damaged (it is not valid JSON",
                         "1 install record(s) were rebuilt from the backups folder",
                         "in /envs/a/bin/python")
    kept = list(data.glob("installs.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text("utf-8").startswith('[{"name"')
    assert [r["python"] for r in json.loads((data / "installs.json").read_text("utf-8"))] \
        == ["/envs/a/bin/python"]


def test_install_list_is_an_object(data: Path) -> None:
    """installs.json holds an object, not a list → damaged, the previous copy is used"""
    path = data / "installs.json"
    write_json(path, [record("/envs/a/bin/python")])
    write_json(path, [record("/envs/a/bin/python"), record("/envs/b/bin/python")])
    path.write_text('{"name": "ksw-probe-kernel"}', "utf-8")
    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "installs.json was damaged", "found a dict",
                         "previous copy was used", "in /envs/a/bin/python")


def test_record_without_python(data: Path) -> None:
    """a record without its 'python' → no KeyError: the good records stay, damage is said"""
    write_json(data / "installs.json", [record("/envs/a/bin/python"),
                                        {"name": "ksw-probe-kernel", "version": "0.1.0"}],
               keep_previous=False)
    result = cli("installs", data=data)
    assert_clean_failure(result, 0, "a record has no 'python'", "in /envs/a/bin/python")
    assert len(list(data.glob("installs.json.damaged-*"))) == 1
    assert [r.python for r in load_installs()] == ["/envs/a/bin/python"]


def test_verify_with_only_a_broken_record(data: Path) -> None:
    """--verify when the only record lacks keys → 'damaged' and 'nothing to verify', exit 1"""
    write_json(data / "installs.json", [{"kernel": "probe"}], keep_previous=False)
    env = dict(os.environ, KSW_DATA_DIR=str(data))
    result = subprocess.run([sys.executable, "-m", "app", "--verify"], cwd=REPO, env=env,
                            capture_output=True, text=True, input="", timeout=120)
    assert_clean_failure(result, 1, "installs.json was damaged", "Nothing to verify")


# -- roll-backs that cannot happen -------------------------------------------------------------


def test_rollback_without_a_record(data: Path) -> None:
    """rollback when the wizard installed nothing → exit 1, 'Nothing to roll back', next step"""
    result = cli("rollback", "--kernel", "flash_attn", data=data)
    assert_clean_failure(result, 1, "Nothing to roll back", "flash_attn",
                         "--headless installs' lists what the wizard installed")


def test_rollback_ambiguous(data: Path) -> None:
    """rollback --kernel K installed in two environments → exit 2, both choices named"""
    write_json(data / "installs.json", [record("/envs/a/bin/python"),
                                        record("/envs/b/bin/python")])
    result = cli("rollback", "--kernel", "probe", data=data)
    assert_clean_failure(result, 2, "Several installs match --kernel probe",
                         "--kernel probe --python /envs/a/bin/python",
                         "--kernel probe --python /envs/b/bin/python")
    assert len(load_installs()) == 2


def test_rollback_with_its_backup_gone(tmp_path: Path, data: Path) -> None:
    """rollback when the backup folder was deleted → exit 1, says the copy is missing"""
    env = tmp_path / "env" / "bin" / "python"  # refused before the environment is looked at
    write_json(data / "installs.json", [record(env, backup=str(data / "backups" / "gone"))])
    result = cli("rollback", data=data)
    assert_clean_failure(result, 1, "The copy of what ksw-probe-kernel replaced", "is missing",
                         "Reinstall the version you want")
    assert len(load_installs()) == 1  # the record stays: nothing was changed


# -- runs that meet at one lock ------------------------------------------------------------------


def test_rollback_waits_for_an_install_in_another_run(
    tmp_path: Path, data: Path, holder: Any
) -> None:
    """rollback while another run installs into that env → waits naming it, then goes on"""
    env = fresh_env(tmp_path / "env")
    write_json(data / "installs.json", [record(env)])
    other = holder(env_lock_path(env), f"installing ksw-probe-kernel into {env}")
    proc = start("rollback", "--yes", data=data)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert f"Waiting: process {other.pid}" in first and "installing ksw-probe-kernel" in first
    other.kill()
    other.wait()
    output = first + proc.communicate(timeout=120)[0]
    assert proc.returncode == 0, output
    assert "nothing was installed there before" in output and "Traceback" not in output
    assert load_installs() == []


def test_two_builds_of_one_source_folder(
    tmp_path: Path, torch_venv: Path, data: Path, marker: str
) -> None:
    """a second build of the same source folder → waits naming the first, never deletes it"""
    tree = fault_source(tmp_path, "hang", marker)
    args = ("build", "--kernel", "probe", "--source", str(tree), "--python", str(torch_venv),
            "--no-install", "-v")
    first = start_cli(*args, data=data)
    second: subprocess.Popen[str] | None = None
    try:
        assert first.stdout is not None
        wait_for(lambda: "compiling forever" in first.stdout.readline(), 180, "the 1st build")
        second = start_cli(*args, data=data)
        assert second.stdout is not None
        lines: list[str] = []
        wait_for(lambda: lines.append(second.stdout.readline()) or "[lock]" in lines[-1], 120,
                 "the second build to wait")
        assert f"Waiting: process {first.pid}" in lines[-1] and "building Probe kernel" \
            in lines[-1]
        assert tree.is_dir() and (tree / "setup.py").is_file()  # the first one's work stays
        kill_group(first)  # the first run dies: its lock is released by the system
        wait_for(lambda: lines.append(second.stdout.readline()) or "compiling forever"
                 in lines[-1], 120, "the second build to take over")
    finally:
        kill_group(first)
        if second is not None:
            kill_group(second)
    assert wait_until_gone(marker) == []


def install_until_it_waits(tmp_path: Path, env: Path, data: Path,
                           verify: str) -> tuple[subprocess.Popen[str], list[str]]:
    """Starts a build and install of ksw-probe-kernel 0.3.0 into ``env`` and reads its output
    up to the line that says it waits for the environment's lock."""
    source = wheel_source(tmp_path, padded_wheel(tmp_path, "correct", "0.3.0", pad=0))
    proc = start("build", "--kernel", "probe", "--source", str(source), "--python", str(env),
                 verify, "--yes", data=data, KSW_BUILD_ROOT=str(tmp_path / "b"))
    assert proc.stdout is not None
    lines: list[str] = []
    stdout = proc.stdout
    wait_for(lambda: lines.append(stdout.readline()) or "[lock]" in lines[-1], 300,
             "the install to wait")
    return proc, lines


def test_install_waits_for_another_run_naming_it_on_screen_and_in_the_log(
    tmp_path: Path, scratch_torch_env: Path, data: Path, holder: Any
) -> None:
    """build → verify → install while another run installs into that env → waits naming it,
    on the terminal and in the build's log (was: silent), then installs"""
    env = scratch_torch_env
    other = holder(env_lock_path(env), f"installing ksw-probe-kernel into {env}")
    proc, lines = install_until_it_waits(tmp_path, env, data, "--quick-verify")
    try:
        waiting = lines[-1]
        assert f"Waiting: process {other.pid}" in waiting, "".join(lines)
        assert f"installing ksw-probe-kernel into {env}" in waiting
        assert "goes on as soon as it has finished" in waiting
        assert module_version(env) == "not installed"  # it waits: nothing installed yet
        (log,) = list((data / "logs").glob("*-probe.log"))
        assert f"[lock] Waiting: process {other.pid}" in log.read_text(encoding="utf-8")
    finally:
        other.kill()  # the other run ends: this one goes on
        other.wait()
    output = "".join(lines) + proc.communicate(timeout=300)[0]
    assert proc.returncode == 0, output
    assert "Verified and installed ksw-probe-kernel 0.3.0" in output
    assert "Traceback" not in output and module_version(env) == "0.3.0"


HOLD_ENV = """
import sys, time
from pathlib import Path
from kernel_wizard.base.paths import hold_env
with hold_env(Path(sys.argv[1]), sys.argv[2]):
    print("held", flush=True)
    time.sleep(300)
"""


@pytest.mark.slow
def test_install_from_another_data_folder_waits_for_the_environment(
    tmp_path: Path, scratch_torch_env: Path, data: Path
) -> None:
    """an install into the env from another data folder (another user, the bundle beside a
    source checkout) is under way → this one waits naming it (was: both ran, two dist-infos)"""
    env = scratch_torch_env
    other_data = tmp_path / "other user's data"
    other = subprocess.Popen([sys.executable, "-c", HOLD_ENV, str(env),
                              f"installing ksw-probe-kernel into {env}"],
                             cwd=REPO, text=True, stdout=subprocess.PIPE,
                             env=dict(os.environ, PYTHONPATH=str(REPO),
                                      KSW_DATA_DIR=str(other_data)))
    assert other.stdout is not None and other.stdout.readline().strip() == "held"
    proc, lines = install_until_it_waits(tmp_path, env, data, "--skip-verify")
    try:
        assert f"Waiting: process {other.pid}" in lines[-1], "".join(lines)
        assert module_version(env) == "not installed"
    finally:
        other.kill()
        other.wait()
    output = "".join(lines) + proc.communicate(timeout=300)[0]
    assert proc.returncode == 0, output
    assert module_version(env) == "0.3.0"
    assert len(list(site_packages(env).glob("ksw_probe_kernel-*.dist-info"))) == 1


def test_clean_after_a_rollback_agrees_with_installs(
    tmp_path: Path, scratch_torch_env: Path, data: Path
) -> None:
    """install, rollback → 'installs' lists nothing, and 'clean' no longer keeps the build for
    an install record (was: 'an install record points to it'); a damaged list later does not
    bring the rolled-back record back"""
    root = str(tmp_path / "b")
    source = wheel_source(tmp_path, padded_wheel(tmp_path, "correct", "0.3.0", pad=0))
    built = cli("build", "--kernel", "probe", "--source", str(source), "--python",
                str(scratch_torch_env), "--skip-verify", "--yes", data=data, KSW_BUILD_ROOT=root)
    assert built.returncode == 0, built.stdout + built.stderr
    (record,) = load_installs()
    assert record.wheel is not None
    staged = str(Path(record.wheel).parent)

    def clean_plan() -> dict[str, Any]:
        result = cli("clean", "--all", "--dry-run", "--json", data=data, KSW_BUILD_ROOT=root)
        assert result.returncode == 0, result.stdout + result.stderr
        document: dict[str, Any] = json.loads(result.stdout)
        return document

    kept = {k["path"]: k["reason"] for k in clean_plan()["kept"]}
    assert kept.get(staged) == "an install record points to it"  # installed: kept

    rolled = cli("rollback", "--yes", data=data)
    assert rolled.returncode == 0, rolled.stdout + rolled.stderr
    assert "has not installed any kernel yet" in cli("installs", data=data).stdout
    plan = clean_plan()
    assert staged in [item["path"] for item in plan["removed"]]
    assert staged not in [k["path"] for k in plan["kept"]]
    text = cli("clean", "--dry-run", data=data, KSW_BUILD_ROOT=root).stdout
    assert "an install record points to it" not in text, text

    (data / "installs.json").write_text("[", encoding="utf-8")  # damaged after the roll-back
    listing = cli("installs", data=data)
    assert_clean_failure(listing, 0, "installs.json was damaged",
                         "The wizard has not installed any kernel yet.")
    assert "probe: ksw-probe-kernel" not in listing.stdout and load_installs() == []


def test_a_fix_waits_for_an_install_into_its_environment(
    tmp_path: Path, data: Path, holder: Any
) -> None:
    """fix python-env --yes while another run installs into that env → waits naming it (pip
    not started), Ctrl-C while waiting → exit 130, the environment unchanged"""
    env = fresh_env(tmp_path / "env")
    before = freeze(env)
    other = holder(env_lock_path(env), f"installing ksw-probe-kernel into {env}")
    proc = start("fix", "python-env", "--python", str(env), "--yes", data=data)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        wait_for(lambda: lines.append(proc.stdout.readline()) or "[lock]" in lines[-1], 120,
                 "the fix to wait")
        assert f"Waiting: process {other.pid}" in lines[-1], "".join(lines)
        assert "installing ksw-probe-kernel into" in lines[-1]
        children = psutil.Process(proc.pid).children(recursive=True)
        assert not [c for c in children if "pip" in " ".join(c.cmdline())]  # pip waits too
        proc.send_signal(signal.SIGINT)
        output = "".join(lines) + proc.communicate(timeout=60)[0]
    finally:
        kill_group(proc)
    assert proc.returncode == 130, output
    assert "Traceback" not in output and freeze(env) == before
