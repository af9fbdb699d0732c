"""The Prerequisites page, offscreen: rows from checks over facts built from RECORDED real
outputs (gcc banners, nvcc --version, host_config.h, vswhere JSON, MSVC listings, the NVML
recording of a real H100), the Next rule, and fixes that really run: git's core.longpaths
against a temporary global git config, the long-paths fix through its elevation seam (the
Windows UAC prompt cannot exist here, so a stand-in declines or accepts it), a fix that streams
and is cancelled, and the --resume walk back to this page.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWizard

from app.pages.prereqs import PrereqsPage, summarize
from app.resume import resume
from app.widgets.banner import Tone
from app.widgets.check_row import STATUS_STYLE, CheckRow
from app.wizard import InstallerWizard
from kernel_wizard.flow.session import FlowStep, SessionServices
from kernel_wizard.machine.environment import Candidate, EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import HardwareReport, HostInfo, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.machine.platforms.windows import ElevationDeclined
from kernel_wizard.machine.toolchain import (
    parse_gcc_version,
    parse_host_config,
    parse_msvc_toolsets,
    parse_nvcc_version,
    parse_vctools_default,
    parse_vswhere,
)
from kernel_wizard.machine.toolkits import CudaToolkit
from kernel_wizard.prereqs import (
    CheckId,
    CheckResult,
    CheckStatus,
    FixOutcome,
    FixProgress,
    FixStatus,
    SystemFacts,
    load_resume_state,
    run_checks,
)
from kernel_wizard.prereqs.facts import (
    GccFacts,
    GitFacts,
    LongPathsFacts,
    MsvcFacts,
    ToolkitFacts,
    VsInstanceFacts,
    gather_git,
    parse_os_release,
    prereq_platform,
)
from kernel_wizard.prereqs.fixes import GitLongPathsFix, ManualCommandFix, PipInstallFix
from kernel_wizard.prereqs.resume import RUN_ONCE_NAME, restart_pending, save_resume_state

DATA = Path(__file__).resolve().parents[1] / "data"
GIB = 1024**3
HOST = HostInfo(cpu_logical=16, cpu_physical=8, ram_total=64 * GIB, ram_available=60 * GIB,
                disk_path=Path("/ksw"), disk_free=200 * GIB, os_name="Linux 6.8")
BT_2022 = r"C:\Program Files (x86)\Microsoft Visual Studio\2022\BuildTools"


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """A modal dialog offscreen would wait forever: questions are answered Yes (tests that
    want No patch their own), warnings/errors/information are recorded and never shown."""
    shown: list[tuple[str, str]] = []

    def record(kind: str, answer: QMessageBox.StandardButton) -> Callable[..., Any]:
        def dialog(_parent: object, title: str, text: str, *_a: object, **_k: object) -> Any:
            shown.append((kind, f"{title}\n{text}"))
            return answer
        return dialog

    monkeypatch.setattr(QMessageBox, "question", record("question",
                                                        QMessageBox.StandardButton.Yes))
    for kind in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, kind, record(kind, QMessageBox.StandardButton.Ok))
    return shown


# -- facts from recorded outputs ---------------------------------------------------------------


def text(*parts: str) -> str:
    return DATA.joinpath(*parts).read_bytes().decode("utf-8")


def h100() -> HardwareReport:
    """The real H100 machine (driver 580.159.04, CUDA 13.0), replayed from its recording."""
    replay = ReplayNvmlApi.from_file(DATA / "nvml" / "h100-driver580.json")
    return replace(detect(lambda: replay), host=HOST)


def gcc(gxx: bool = True) -> GccFacts:
    version = parse_gcc_version(text("gcc", "gcc-version-debian12.txt"))
    distro = parse_os_release('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n'
                              'VERSION_ID="12"\n')
    return GccFacts(Path("/usr/bin/gcc"), version, Path("/usr/bin/g++") if gxx else None,
                    version if gxx else None, distro)


def cuda13(root: str = "/usr/local/cuda-13.0", header: str = "cuda-13.0.h",
           cccl: bool = True) -> ToolkitFacts:
    version = parse_nvcc_version(text("nvcc", "nvcc-13.0-linux.txt"))
    path = Path(root)
    toolkit = CudaToolkit(path, path / "bin" / "nvcc", version, "CUDA_HOME")
    return ToolkitFacts(toolkit, parse_host_config(text("host_config", header)), "",
                        path / "include" / "cccl" if cccl else None)


def build_tools_2022() -> MsvcFacts:
    """vswhere's answer on a machine with VS Build Tools 2022 17.14, and its MSVC folders."""
    output = text("vswhere", "buildtools-2022.json")
    found = []
    for instance in parse_vswhere(output):
        assert str(instance.installation_path) == BT_2022
        toolsets = parse_msvc_toolsets(
            text("msvc", "buildtools-2022-17.14.dir-b.txt").splitlines(),
            instance.installation_path)
        found.append(VsInstanceFacts(instance, tuple(toolsets), parse_vctools_default(
            text("msvc", "vctools-default-2022-17.14.txt"))))
    vswhere = Path(r"C:\Program Files (x86)\Microsoft Visual Studio\Installer\vswhere.exe")
    return MsvcFacts(vswhere, output, tuple(found), ("10.0.26100.0", "10.0.22621.0"))


def python_env(status: EnvStatus = EnvStatus.READY, ninja: bool = True, bits: int = 64,
               torch: bool = True, path: str = "/envs/ml/bin/python") -> PythonEnv:
    info = TorchInfo("2.9.0+cu130", "13.0", True, 1, ("sm_80", "sm_90", "sm_100", "sm_120"),
                     True) if torch else None
    return PythonEnv(Path(path), status, "Python 3.12 (test environment)", version="3.12.3",
                     bits=bits, pip_version="24.2", ninja="/envs/ml/bin/ninja" if ninja else None,
                     torch=info)


def linux(**kw: Any) -> SystemFacts:
    base = SystemFacts(
        platform="linux", compiler=gcc(), toolkits=(cuda13(),),
        long_paths=LongPathsFacts(applicable=False), git=GitFacts(Path("/usr/bin/git"), True),
        build_root=Path("/home/me/.cache/kernel-setup-wizard/b"),
        host_include_var="CPLUS_INCLUDE_PATH", hardware=h100(), env=python_env(),
    )
    return replace(base, **kw)


def windows(**kw: Any) -> SystemFacts:
    base = linux(platform="windows", compiler=build_tools_2022(),
                 toolkits=(cuda13(r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v13.0",
                                  "cuda-13.0-msvc-bound-edited.h"),),
                 long_paths=LongPathsFacts(True, 1, 260),
                 git=GitFacts(Path(r"C:\Program Files\Git\cmd\git.exe"), True),
                 build_root=Path("C:\\ksw"), host_include_var="INCLUDE")
    return replace(base, **kw)


# -- opening the page --------------------------------------------------------------------------


def open_page(
    qtbot: Any,
    gather: Callable[..., SystemFacts],
    checks: Callable[[SystemFacts], list[CheckResult]] = run_checks,
    refresh: Callable[[SystemFacts, CheckId], SystemFacts] | None = None,
    wait: bool = True,
) -> tuple[InstallerWizard, PrereqsPage]:
    services = SessionServices(
        detect=h100,
        discover=lambda: [Candidate(Path("/envs/ml/bin/python"), "test")],
        inspect=lambda path: python_env(path=str(path)),
        gather_facts=gather,
        run_checks=checks,
        refresh=refresh or (lambda facts, _check: facts),
    )
    wizard = InstallerWizard(services)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    hardware = wizard.page_of(FlowStep.HARDWARE)
    qtbot.waitUntil(hardware.isComplete, timeout=30_000)
    wizard.next()
    assert wizard.currentId() == FlowStep.PREREQS
    page = wizard.page_of(FlowStep.PREREQS)
    assert isinstance(page, PrereqsPage)
    if wait:
        settle(qtbot, page)
    return wizard, page


def settle(qtbot: Any, page: PrereqsPage, timeout: int = 30_000) -> None:
    qtbot.waitUntil(lambda: page.session.facts is not None and not page.is_busy(), timeout=timeout)


def next_enabled(wizard: InstallerWizard) -> bool:
    return wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def badge(row: CheckRow) -> str:
    return row.badge.text()


def click(qtbot: Any, button: Any) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def fixed(results: list[CheckResult], check: CheckId, **changes: Any) -> list[CheckResult]:
    """``results`` with the fix of ``check`` changed (e.g. its elevation seam replaced)."""
    out = []
    for result in results:
        if result.id is check and result.fix is not None:
            result = replace(result, fix=replace(result.fix, **changes))  # type: ignore[type-var]
        out.append(result)
    return out


# -- rendering and the Next rule ---------------------------------------------------------------


def test_each_status_renders_with_colour_symbol_summary_and_detail(qtbot: Any) -> None:
    facts = linux(compiler=gcc(gxx=False), toolkits=(cuda13(cccl=False),),
                  env=python_env(EnvStatus.BITS32, bits=32))
    expected = run_checks(facts)
    wizard, page = open_page(qtbot, lambda **_: facts)

    statuses = {r.id: r.status for r in expected}
    assert set(statuses.values()) == set(CheckStatus)  # OK, WARNING, MISSING and BLOCKED
    assert list(page.rows) == [r.id for r in expected]  # one row per check, in order
    for result in expected:
        row = page.rows[result.id]
        symbol, word, colour, _background = STATUS_STYLE[result.status]
        assert badge(row) == f"{symbol} {word}"
        assert colour in row.badge.styleSheet() and colour in row.styleSheet()
        assert row.title_label.text() == f"<b>{result.title}</b>"
        assert row.summary_label.text() == result.summary
        assert not row.detail_label.isVisible()
        click(qtbot, row.details_toggle)  # the expandable detail: what, where, why
        assert row.detail_label.isVisible()
        assert result.detail.splitlines()[0] in row.detail_label.text()
    assert badge(page.rows[CheckId.COMPILER]) == "✖ Missing"
    assert badge(page.rows[CheckId.COMPAT]) == "⚠ Warning"
    assert badge(page.rows[CheckId.PYTHON_ENV]) == "⊘ Blocked"
    assert badge(page.rows[CheckId.CUDA]) == "✔ OK"
    assert "g++ is not installed" in page.rows[CheckId.COMPILER].summary_label.text()
    assert "Why it matters" in page.rows[CheckId.COMPILER].detail_label.text()

    assert page.banner.tone is Tone.ERROR
    assert "2 things must be fixed before building" in page.banner.title.text()
    assert not page.isComplete() and not next_enabled(wizard)
    assert wizard.session.checks == expected
    assert not page.rows[CheckId.CUDA].recheck_button.isVisible()  # OK rows stay quiet
    assert page.rows[CheckId.PYTHON_ENV].recheck_button.isVisible()
    blocked = page.rows[CheckId.PYTHON_ENV]
    assert not blocked.fix_button.isVisible() and not blocked.manual.isVisible()


def test_a_manual_fix_shows_its_exact_command_with_copy(qtbot: Any) -> None:
    facts = linux(compiler=gcc(gxx=False))
    wizard, page = open_page(qtbot, lambda **_: facts)
    row = page.rows[CheckId.COMPILER]
    fix = row.result.fix
    assert isinstance(fix, ManualCommandFix) and not fix.automatic
    assert not row.fix_button.isVisible()  # nothing runs sudo for the user
    assert row.manual.isVisible()
    assert row.command_text.toPlainText() == (
        "sudo apt-get update\nsudo apt-get install -y build-essential")
    assert "run this in a terminal" in row.manual_label.text()
    click(qtbot, row.copy_button)
    assert QGuiApplication.clipboard().text() == row.command_text.toPlainText()
    assert row.copy_button.text() == "Copied"
    assert "1 thing must be fixed before building" in page.banner.title.text()
    assert not next_enabled(wizard)


def test_warnings_do_not_block_next(qtbot: Any) -> None:
    facts = linux(toolkits=(cuda13(cccl=False),),
                  git=GitFacts(Path("/usr/bin/git"), None), build_root=Path("/b"))
    wizard, page = open_page(qtbot, lambda **_: facts)
    assert badge(page.rows[CheckId.COMPAT]) == "⚠ Warning"
    assert page.banner.tone is Tone.WARNING
    assert "Nothing blocks the build (1 warning)" in page.banner.title.text()
    assert page.isComplete() and next_enabled(wizard)


def test_summary_line_counts() -> None:
    def result(status: CheckStatus) -> CheckResult:
        return CheckResult(CheckId.RESOURCES, "x", status, "x")

    assert summarize([result(CheckStatus.OK)])[1] == "Nothing blocks the build"
    warn = summarize([result(CheckStatus.WARNING), result(CheckStatus.WARNING)])
    assert warn[:2] == (Tone.WARNING, "Nothing blocks the build (2 warnings)")
    bad = summarize([result(CheckStatus.MISSING), result(CheckStatus.BLOCKED),
                     result(CheckStatus.WARNING)])
    assert bad[:2] == (Tone.ERROR, "2 things must be fixed before building")


def test_gathering_runs_in_the_background(qtbot: Any) -> None:
    gate = threading.Event()
    seen: dict[str, Any] = {}

    def slow(**kw: Any) -> SystemFacts:
        seen.update(kw)
        gate.wait(30)
        return linux()

    wizard, page = open_page(qtbot, slow, wait=False)
    try:
        assert page.is_busy() and page.busy.isVisible()
        assert not next_enabled(wizard)
        qtbot.wait(200)  # the window stays responsive meanwhile
        assert page.is_busy() and page.session.facts is None
    finally:
        gate.set()
    settle(qtbot, page)
    assert not page.busy.isVisible()
    assert len(page.rows) == 7  # the six checks and Triton (SageAttention)
    # the page passes what the Hardware page found
    assert seen["env"] == wizard.session.environment and seen["hardware"] is wizard.session.hardware
    assert next_enabled(wizard)


# -- fixes -------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_fix_really_runs_and_the_row_is_rechecked(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    no_modal_dialogs: list[tuple[str, str]],
) -> None:
    config = tmp_path / "gitconfig"
    config.write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    git = Path(shutil.which("git") or "git")

    def gather(**_kw: Any) -> SystemFacts:
        return windows(git=gather_git(prereq_platform()))  # git's setting, read for real

    def refresh(facts: SystemFacts, check: CheckId) -> SystemFacts:
        assert check is CheckId.LONG_PATHS
        return replace(facts, git=gather_git(prereq_platform()))  # the registry: recorded

    wizard, page = open_page(qtbot, gather, refresh=refresh)
    row = page.rows[CheckId.LONG_PATHS]
    assert badge(row) == "⚠ Warning"
    assert "core.longpaths is off" in row.summary_label.text()
    fix = row.result.fix
    assert isinstance(fix, GitLongPathsFix) and fix.automatic and not fix.needs_admin
    assert "administrator" not in row.fix_button.toolTip()

    click(qtbot, row.fix_button)
    asked = [text for kind, text in no_modal_dialogs if kind == "question"]
    assert len(asked) == 1 and f"{git} config --global core.longpaths true" in asked[0]
    qtbot.waitUntil(lambda: not page.is_busy() and badge(row) == "✔ OK", timeout=30_000)

    assert "longpaths = true" in config.read_text()
    assert "core.longpaths = true" in row.fix_status.text()
    assert row.fix_status_tone is Tone.OK
    assert "config --global core.longpaths true" in row.log.toPlainText()
    assert row.summary_label.text().startswith("Long paths are on for Windows and git")
    assert {c.id: c for c in wizard.session.checks} == {
        i: row.result for i, row in page.rows.items()}
    assert not [d for d in no_modal_dialogs if d[0] != "question"]


def test_declined_admin_prompt_is_a_status_line_not_an_error(
    qtbot: Any, no_modal_dialogs: list[tuple[str, str]]
) -> None:
    asked: list[Sequence[str]] = []

    def decline(argv: Sequence[str], *, show_window: bool = True) -> int:
        asked.append(list(argv))
        raise ElevationDeclined("The user answered No.")

    facts = windows(long_paths=LongPathsFacts(True, 0, 260))
    wizard, page = open_page(
        qtbot, lambda **_: facts,
        checks=lambda f: fixed(run_checks(f), CheckId.LONG_PATHS, elevate=decline))
    row = page.rows[CheckId.LONG_PATHS]
    # only the big kernels need long paths: a warning naming them, Next stays enabled
    assert badge(row) == "⚠ Warning" and row.needed_label.isVisible()
    assert row.result.fix is not None and row.result.fix.needs_admin
    assert "administrator" in row.fix_button.toolTip()  # and the UAC shield on Windows
    assert "asks for administrator rights" in row.action_label.text()
    assert next_enabled(wizard)

    click(qtbot, row.fix_button)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=30_000)
    assert asked and asked[0][:2] == ["reg.exe", "add"]
    assert row.fix_status_tone is Tone.WARNING
    assert "administrator prompt was declined" in row.fix_status.text()
    assert "Choose Fix again" in row.fix_status.text()
    assert badge(row) == "⚠ Warning"  # nothing changed
    assert row.fix_button.isEnabled()  # can be tried again
    assert [d[0] for d in no_modal_dialogs] == ["question"]  # no error dialog


def test_restart_needed_says_the_wizard_resumes_here(
    qtbot: Any, isolated_wizard_data: Path
) -> None:
    registered: list[tuple[str, list[str]]] = []

    def accept(argv: Sequence[str], *, show_window: bool = True) -> int:
        return 0  # the registry write succeeded (reg.exe cannot run here)

    def autostart(name: str, argv: Sequence[str]) -> str:
        registered.append((name, list(argv)))
        return " ".join(argv)

    facts = windows(long_paths=LongPathsFacts(True, None, 260))

    def refresh(f: SystemFacts, check: CheckId) -> SystemFacts:
        # the value is now 1; whether Windows restarted comes from the real saved state
        return replace(f, long_paths=LongPathsFacts(True, 1, 260,
                                                    restart_pending=restart_pending()))

    wizard, page = open_page(
        qtbot, lambda **_: facts, refresh=refresh,
        checks=lambda f: fixed(run_checks(f), CheckId.LONG_PATHS, elevate=accept,
                               autostart=autostart))
    row = page.rows[CheckId.LONG_PATHS]
    click(qtbot, row.fix_button)
    qtbot.waitUntil(lambda: not page.is_busy() and badge(row) == "⚠ Warning", timeout=30_000)

    assert registered and registered[0][0] == RUN_ONCE_NAME and "--resume" in registered[0][1]
    saved = load_resume_state()
    assert saved is not None and saved.page == "prerequisites"
    assert saved.python == str(facts.env.executable)  # type: ignore[union-attr]
    status = row.fix_status.text()
    assert "Restart needed" in status and "restart" in status.lower()
    assert "opens again by itself" in status and "where you left off" in status
    assert row.fix_status_tone is Tone.WARNING
    assert "has not restarted" in row.summary_label.text()  # the re-check's verdict
    assert next_enabled(wizard)  # a pending restart warns, it doesn't block


@dataclass(frozen=True)
class StreamingFix:
    """A stand-in fix (the Fix protocol) that prints, reports progress and waits to be
    cancelled, like a pip download that takes long."""

    started: threading.Event
    id: str = "slow"
    title: str = "Install something slow"
    description: str = "Downloads a lot."
    needs_admin: bool = False
    automatic: bool = True
    command_preview: tuple[str, ...] = ("pip install something-big",)

    def run(self, on_line: Callable[[str], None], cancel: threading.Event,
            on_progress: Callable[[FixProgress], None] | None = None) -> FixOutcome:
        for n in range(3):
            on_line(f"Collecting part {n}")
        assert on_progress is not None
        on_progress(FixProgress("Downloading something-big", 0.25, 25, 100))
        self.started.set()
        if not cancel.wait(30):
            return FixOutcome(FixStatus.FAILED, "never cancelled")
        return FixOutcome(FixStatus.CANCELLED, "Installing something-big was cancelled.")


def test_a_fix_streams_output_and_progress_and_can_be_cancelled(qtbot: Any) -> None:
    started = threading.Event()
    facts = linux(env=python_env(ninja=False))
    rechecked: list[CheckId] = []

    def refresh(f: SystemFacts, check: CheckId) -> SystemFacts:
        rechecked.append(check)
        return f

    wizard, page = open_page(
        qtbot, lambda **_: facts, refresh=refresh,
        checks=lambda f: [replace(r, fix=StreamingFix(started)) if r.id is CheckId.PYTHON_ENV
                          else r for r in run_checks(f)])
    row = page.rows[CheckId.PYTHON_ENV]
    assert badge(row) == "⚠ Warning" and "ninja is missing" in row.summary_label.text()
    other = page.rows[CheckId.CUDA]

    assert page.start_fix(row)
    qtbot.waitUntil(lambda: "Collecting part 2" in row.log.toPlainText(), timeout=10_000)
    qtbot.waitUntil(lambda: row.progress.value() == 250, timeout=10_000)
    assert row.progress.maximum() == 1000
    assert row.progress_text.text() == "Downloading something-big"
    assert row.cancel_button.isVisible() and "Running" in row.fix_status.text()
    assert page.is_busy() and not next_enabled(wizard)
    assert not other.recheck_button.isEnabled() and not page.check_all_button.isEnabled()

    click(qtbot, row.cancel_button)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=10_000)
    assert "cancelled" in row.fix_status.text()
    assert not row.progress_box.isVisible()
    assert rechecked == [CheckId.PYTHON_ENV]  # the row was checked again afterwards
    assert row.fix_button.isEnabled()


def test_a_fix_that_works_unblocks_next(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in PyTorch fix (every kernel needs PyTorch, so its absence blocks) that flips
    what the facts read: MISSING → OK, Next enabled."""
    installed = threading.Event()

    @dataclass(frozen=True)
    class NinjaFix:
        id: str = "torch"
        title: str = "Install PyTorch with CUDA"
        description: str = "Runs pip to install PyTorch."
        needs_admin: bool = False
        automatic: bool = True
        command_preview: tuple[str, ...] = (f"{sys.executable} -m pip install torch",)

        def run(self, on_line: Callable[[str], None], cancel: threading.Event,
                on_progress: object = None) -> FixOutcome:
            on_line("Successfully installed torch-2.9.0")
            installed.set()
            return FixOutcome(FixStatus.DONE, "Installed PyTorch.")

    def current(**_kw: Any) -> SystemFacts:
        ready = installed.is_set()
        return linux(env=python_env(torch=ready, status=EnvStatus.READY if ready
                                    else EnvStatus.NO_TORCH))

    def checks(f: SystemFacts) -> list[CheckResult]:
        return [replace(r, fix=NinjaFix()) if r.fix is not None else r for r in run_checks(f)]

    wizard, page = open_page(qtbot, current, checks=checks,
                             refresh=lambda _f, _check: current())
    row = page.rows[CheckId.PYTHON_ENV]
    assert not next_enabled(wizard)

    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.No)
    click(qtbot, row.fix_button)  # the user says No to "This will run: …"
    assert not page.is_busy() and not installed.is_set() and not row.fix_panel.isVisible()

    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    click(qtbot, row.fix_button)
    qtbot.waitUntil(lambda: not page.is_busy() and badge(row) == "✔ OK", timeout=10_000)
    assert "Installed PyTorch." in row.fix_status.text()
    assert page.banner.tone is Tone.OK and next_enabled(wizard)
    assert not any(r.blocks for r in wizard.session.checks)
    assert wizard.session.environment is not None and wizard.session.environment.torch


# what a kernel install does with the environment (kernel_wizard.install.installer): hold it
# until told "done" on stdin
INSTALLING = """
import sys
from pathlib import Path
from kernel_wizard.base.paths import hold_env

python = Path(sys.argv[1])
with hold_env(python, f"installing ksw-probe-kernel into {python}"):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_a_fix_waits_for_a_cli_install_into_the_same_environment_and_says_so(
        qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build command installing into the environment holds its lock: the Fix button's pip
    run waits for it, the busy line names that run (no silent hang), and it runs once the
    install has finished."""
    ran = threading.Event()
    python = Path("/envs/ml/bin/python")

    @dataclass(frozen=True)
    class NinjaFix(PipInstallFix):
        def run(self, on_line: Callable[[str], None], cancel: threading.Event,
                on_progress: object = None) -> FixOutcome:
            ran.set()
            on_line("Successfully installed ninja")
            return FixOutcome(FixStatus.DONE, "Installed ninja.")

    fix = NinjaFix("ninja", "Install ninja", "Runs pip to install ninja.", python, ())
    facts = linux(env=python_env(ninja=False))
    wizard, page = open_page(
        qtbot, lambda **_: facts,
        checks=lambda f: [replace(r, fix=fix) if r.id is CheckId.PYTHON_ENV else r
                          for r in run_checks(f)])
    row = page.rows[CheckId.PYTHON_ENV]
    holder = subprocess.Popen([sys.executable, "-c", INSTALLING, str(python)],
                              cwd=Path(__file__).resolve().parents[2], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(QMessageBox, "question",
                            lambda *a, **k: QMessageBox.StandardButton.Yes)
        click(qtbot, row.fix_button)
        qtbot.waitUntil(lambda: page.busy_label.text().startswith("Waiting: process "),
                        timeout=10_000)
        waiting = page.busy_label.text()
        assert f"process {holder.pid} " in waiting and "installing ksw-probe-kernel" in waiting
        assert page.busy.isVisible() and page.is_busy() and not ran.is_set()
        assert "Waiting: process" in row.log.toPlainText()
    finally:
        assert holder.stdin is not None
        holder.stdin.write("done\n")
        holder.stdin.flush()
        holder.wait(10)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=10_000)
    assert ran.is_set() and "Installed ninja." in row.fix_status.text()


# -- --resume ----------------------------------------------------------------------------------


def test_resume_walks_back_to_this_page_with_the_saved_python(
    qtbot: Any, isolated_wizard_data: Path
) -> None:
    saved_python = Path("/envs/other/bin/python")
    save_resume_state("long-paths", saved_python)
    services = SessionServices(
        detect=h100,
        discover=lambda: [Candidate(Path("/envs/ml/bin/python"), "first found")],
        inspect=lambda path: python_env(path=str(path)),
        gather_facts=lambda **kw: linux(env=kw["env"]),
    )
    wizard = InstallerWizard(services)
    qtbot.addWidget(wizard)
    wizard.show()
    driver = resume(wizard, timeout_s=60)
    assert driver is not None
    qtbot.waitUntil(lambda: driver.done, timeout=60_000)
    assert driver.reached and wizard.currentId() == FlowStep.PREREQS
    env = wizard.session.environment
    assert env is not None and env.executable == saved_python  # chosen again
    page = wizard.page_of(FlowStep.PREREQS)
    assert isinstance(page, PrereqsPage)
    settle(qtbot, page)
    assert page.rows[CheckId.PYTHON_ENV].result.facts["python"] == str(saved_python)
    assert load_resume_state() is None  # used once


def test_resume_without_saved_state_is_a_normal_start(qtbot: Any) -> None:
    wizard = InstallerWizard(SessionServices(detect=h100, discover=lambda: []))
    qtbot.addWidget(wizard)
    wizard.show()
    assert resume(wizard) is None
    assert wizard.currentId() == FlowStep.WELCOME
