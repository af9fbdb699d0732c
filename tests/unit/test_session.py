"""The flow object driven without Qt: order, invalidation, and the headless sequence."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from ksw_testsupport import build_this_plan
from session_testsupport import set_kernel_choice

from kernel_wizard.build.plan import BuildPlan, BuildRequest, PlanError, plan_build
from kernel_wizard.build.run import BuildOutcome, BuildStatus, PlanEvent
from kernel_wizard.catalog import load_catalog
from kernel_wizard.flow.pipeline import KernelChoice, SourceMode, SourceRoute
from kernel_wizard.flow.session import (
    ChoiceError,
    FlowError,
    FlowOptions,
    FlowStep,
    KernelRequest,
    Session,
    SessionServices,
    StepNotice,
)
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.prereqs import CheckId, CheckResult, CheckStatus

H100 = Path(__file__).resolve().parents[1] / "data" / "nvml" / "h100-driver580.json"


def h100() -> HardwareReport:
    recording = json.loads(H100.read_text(encoding="utf-8"))
    return detect(lambda: ReplayNvmlApi(recording))


def cpu_env(tmp_path: Path, name: str = "env") -> PythonEnv:
    torch = TorchInfo("2.13.0+cpu", None, False, 0, (), True)
    return PythonEnv(executable=tmp_path / name / "bin" / "python", status=EnvStatus.CPU_TORCH,
                     summary="test", torch=torch,
                     raw={"python": {"scripts": str(tmp_path / name / "bin")}})


class Recorder:
    """Stand-ins for the slow steps that record what the flow asked of them."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.calls: list[str] = []
        self.wheel = tmp_path / "ksw_probe_kernel-0.1.0-py3-none-any.whl"
        self.wheel.write_bytes(b"stand-in")
        self.checks: list[CheckResult] = []

    def build(self, session: Session, sink: Any, cancel: threading.Event) -> BuildOutcome:
        self.calls.append(f"build {session.effective_choice().recipe.id}")
        return BuildOutcome(BuildStatus.SUCCEEDED, "Built.", "", None, self.wheel,
                            self.tmp_path / "build.log", 1.0, 1, 0, None)

    def verify(self, python: Path, wheel: Path, **options: Any) -> Any:
        self.calls.append(f"verify {wheel.name} {options}")
        return "verified"

    def install(self, python: Path, wheel: Path, **options: Any) -> Any:
        on_line = options.pop("on_line", None)
        if on_line is not None:  # what a real install says while it waits for another run
            on_line("Waiting: process 4242 (python -m app) is using this.")
        self.calls.append(f"install {wheel.name} {options}")
        return "installed"

    def services(self) -> SessionServices:
        return SessionServices(detect=h100, discover=lambda: [], build=self.build,
                               verify_then_install=self.verify, install_wheel=self.install,
                               discover_toolkits=lambda: [],
                               # the prerequisites: gathered instantly, found as the test says
                               gather_facts=lambda **_kw: SimpleNamespace(env=None),
                               run_checks=lambda _facts: list(self.checks),
                               refresh=lambda facts, _check: facts)


def test_steps_refuse_to_run_before_what_they_need(tmp_path: Path) -> None:
    session = Session(Recorder(tmp_path).services())
    assert session.blocker(FlowStep.PREREQS) == "The hardware has not been detected yet."
    with pytest.raises(FlowError, match="not been detected"):
        session.build()
    session.detect()
    assert session.hardware is not None and session.hardware.gpus[0].name.startswith("NVIDIA H100")
    assert session.blocker(FlowStep.PREREQS) == "Choose a working Python environment first."
    with pytest.raises(FlowError, match="No Python environment"):
        session.machine()
    session.choose_environment(cpu_env(tmp_path))
    assert session.blocker(FlowStep.KERNEL) == "The prerequisites have not been checked yet."
    session.check()
    assert session.blocker(FlowStep.KERNEL) is None
    assert (session.blocker(FlowStep.VERIFY)
            == "The kernel has not been built for these choices yet.")
    with pytest.raises(FlowError, match="Nothing to verify"):
        session.verify_and_install()


def test_a_build_belongs_to_the_choices_it_was_made_for(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path)
    session = Session(recorder.services())
    session.detect()
    session.choose_environment(cpu_env(tmp_path))
    session.check()
    outcome = session.build()
    assert session.current_build() is outcome and session.blocker(FlowStep.VERIFY) is None
    assert session.verify_and_install() == "verified"
    assert session.current_verification() == "verified"

    catalog = load_catalog()
    mla = catalog.get("flashmla")
    set_kernel_choice(session, KernelChoice(mla, mla.newest, SourceMode.LOCAL, tmp_path))
    assert session.current_build() is None  # built for the probe, not for FlashMLA
    assert session.current_verification() is None
    with pytest.raises(FlowError):
        session.install_unverified()

    set_kernel_choice(session, None)  # back to the probe: that build is current again
    assert session.current_build() is outcome
    session.choose_environment(cpu_env(tmp_path, "other"))  # another Python
    assert session.current_build() is None
    assert session.checks == [] and session.facts is None  # its checks were for the old one


def test_discarding_a_build_asks_for_a_new_one(tmp_path: Path) -> None:
    session = Session(Recorder(tmp_path).services())
    session.detect()
    session.choose_environment(cpu_env(tmp_path))
    session.build()
    before = session.discarded_builds
    session.discard_build()
    assert session.current_build() is None and session.discarded_builds == before + 1


def test_headless_flow_verifies_then_installs(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path)
    session = Session(recorder.services())
    session.detect()
    session.choose_environment(cpu_env(tmp_path))
    events: list[object] = []
    result = session.run_build_flow(FlowOptions(quick=True), events.append)
    assert result.verification == "verified"
    assert recorder.calls[0] == "build probe"
    assert "'install': True" in recorder.calls[1] and "'quick': True" in recorder.calls[1]
    assert any(isinstance(e, StepNotice) and "verifying" in e.text for e in events)

    recorder.calls.clear()
    events.clear()
    result = session.run_build_flow(FlowOptions(verify=False), events.append)
    assert result.installed_unverified == "installed" and result.verification is None
    assert [c.split()[0] for c in recorder.calls] == ["build", "install"]
    # an install without verification still says what it waits for (it was silent)
    assert any(isinstance(e, StepNotice) and e.text.startswith("Waiting: process 4242")
               for e in events), events

    recorder.calls.clear()
    result = session.run_build_flow(FlowOptions(verify=False, install=False))
    assert [c.split()[0] for c in recorder.calls] == ["build"]


def test_a_failed_build_stops_the_flow(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path)

    def failing(session: Session, sink: Any, cancel: threading.Event) -> BuildOutcome:
        ok = recorder.build(session, sink, cancel)
        return replace(ok, status=BuildStatus.FAILED, wheel=None, message="The build failed.")

    services = replace(recorder.services(), build=failing)
    session = Session(services)
    session.detect()
    session.choose_environment(cpu_env(tmp_path))
    result = session.run_build_flow(FlowOptions())
    assert not result.ok and result.verification is None
    assert [c.split()[0] for c in recorder.calls] == ["build"]  # nothing verified or installed


def test_a_fixed_plan_is_announced_and_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """services.make_plan (screenshots, GUI tests) builds exactly that plan through the runner."""
    monkeypatch.setenv("KSW_DATA_DIR", str(tmp_path / "data"))
    recorder = Recorder(tmp_path)
    ran: list[object] = []

    def run_build(plan: object, sink: Any, cancel: threading.Event) -> BuildOutcome:
        ran.append(plan)
        return recorder.build(session, sink, cancel)

    def probe_plan(session: Session) -> BuildPlan:
        env, hardware = session.require_target()
        probe = session.catalog().get("probe")
        return plan_build(BuildRequest(probe, probe.newest, env, hardware), toolkits=[])

    services = replace(recorder.services(), build=build_this_plan(probe_plan, run_build))
    session = Session(services)
    session.detect()
    session.choose_environment(cpu_env(tmp_path))
    events: list[object] = []
    session.build(events.append)
    assert isinstance(events[0], PlanEvent) and ran == [events[0].plan]


@dataclass
class StandInFlow:
    """A verification as the session keeps it (report, saved report, install), stood in."""

    report: Any
    saved: Any
    installed: Any = None
    installed_despite_failure: bool = False


def verified(tmp_path: Path, status: str) -> StandInFlow:
    report = SimpleNamespace(passed=status == "pass", status=SimpleNamespace(value=status),
                             quick=False)
    return StandInFlow(report, SimpleNamespace(json_path=tmp_path / "report.json"))


@pytest.mark.parametrize("status", ["pass", "fail"])
def test_install_after_a_verification_records_it(tmp_path: Path, status: str) -> None:
    """The GUI verifies first and installs on request: a passed verification through
    install_verified (recorded with status pass), a failed one only through install_anyway."""
    recorder = Recorder(tmp_path)
    session = Session(recorder.services())
    session.detect()
    session.choose_environment(cpu_env(tmp_path))
    with pytest.raises(FlowError, match="no verification of this build"):
        session.install_verified()
    session.build()
    flow = verified(tmp_path, status)
    recorder.verify = lambda python, wheel, **options: flow  # type: ignore[method-assign]
    session.services = replace(session.services, verify_then_install=recorder.verify)
    assert session.verify_and_install(install=False) is flow
    assert recorder.calls == ["build probe"]  # verified only: nothing installed
    passed = status == "pass"
    if not passed:
        with pytest.raises(FlowError, match="did not pass its verification"):
            session.install_verified()
        assert recorder.calls == ["build probe"]
    lines: list[str] = []
    installed = (session.install_verified if passed else session.install_anyway)(lines.append)
    assert installed == "installed" and lines and lines[0].startswith("Waiting: process 4242")
    call = recorder.calls[-1]
    assert call.startswith("install ksw_probe_kernel-0.1.0-py3-none-any.whl")
    assert f"'status': '{status}'" in call and "'quick': False" in call
    assert f"'installed_despite_failure': {not passed}" in call
    assert str(tmp_path / "report.json") in call
    current = session.current_verification()
    assert current is not None and current.installed == "installed"
    assert current.installed_despite_failure is not passed
    with pytest.raises(FlowError, match="already installed"):  # never twice
        session.install_verified() if passed else session.install_anyway()


def test_the_gate_knows_every_reason_a_step_cannot_be_entered(tmp_path: Path) -> None:
    """Session.blocker is every page's Next: the checks that block, the build, the
    verification and the install question (installed, rolled back or declined)."""
    recorder = Recorder(tmp_path)
    recorder.checks = [CheckResult(CheckId.COMPILER, "C++ compiler", CheckStatus.MISSING,
                                  "missing")]
    session = Session(recorder.services())
    session.detect()
    session.choose_environment(cpu_env(tmp_path))
    session.check()
    assert session.blocker(FlowStep.KERNEL) == "A prerequisite must be fixed first: C++ compiler."
    recorder.checks = []
    session.recheck(CheckId.COMPILER)
    assert session.blocker(FlowStep.BUILD) is None
    session.detect()  # detected again: checked again before the Kernel step
    assert session.blocker(FlowStep.KERNEL) == "The prerequisites have not been checked yet."
    session.check()

    assert not session.build_started()
    session.build()
    assert session.build_started() and session.blocker(FlowStep.VERIFY) is None
    assert session.blocker(FlowStep.DONE) == "The build has not been verified yet."
    flow = verified(tmp_path, "pass")
    session.services = replace(session.services,
                               verify_then_install=lambda python, wheel, **options: flow)
    session.verify_and_install(install=False)
    assert (session.blocker(FlowStep.DONE)
            == "Install the kernel or finish without installing first.")
    session.decline_install()
    assert session.blocker(FlowStep.DONE) is None
    session.verify_and_install(install=False)  # verified again: the question is asked again
    assert session.blocker(FlowStep.DONE) is not None
    session.services = replace(session.services, install_wheel=lambda python, wheel, **_o:
                               SimpleNamespace(python=python, name="ksw-probe-kernel"))
    session.install_verified()
    assert session.blocker(FlowStep.DONE) is None
    session.services = replace(session.services,
                               rollback_install=lambda *a, **k: "rolled back")
    session.rollback()
    assert session.rolled_back == "rolled back" and session.blocker(FlowStep.DONE) is None
    session.discard_build()  # "Build again": nothing of the old build counts
    assert not session.build_started() and session.rolled_back is None
    assert session.blocker(FlowStep.VERIFY) is not None

    session.reverify_only = True  # Welcome → Verify (the installs again) → Done
    assert session.blocker(FlowStep.VERIFY) is None
    assert (session.blocker(FlowStep.DONE)
            == "The installed kernels have not been verified again yet.")
    session.services = replace(session.services, reverify_all=lambda: ["probe: PASS"])
    session.reverify()
    assert session.blocker(FlowStep.DONE) is None


def cuda_session(tmp_path: Path) -> Session:
    session = Session(SessionServices(detect=h100, discover=lambda: [],
                                      discover_toolkits=lambda: []))
    session.detect()
    torch = TorchInfo("2.9.0+cu130", "13.0", True, 1, ("sm_90",), True)
    session.choose_environment(PythonEnv(tmp_path / "python", EnvStatus.READY, "t",
                                         version="3.12.3", bits=64, platform_tag="linux_x86_64",
                                         interpreter_tag="cp312", torch=torch))
    return session


def test_the_session_chooses_the_recommended_version_and_refuses_what_does_not_fit(
        tmp_path: Path) -> None:
    """one decision for both front ends: no version named → the recommended one; a kernel
    that does not fit is refused with every reason, unless forced"""
    session = cuda_session(tmp_path)
    recipe = session.catalog().get("flash_attn")
    decision = session.choose(KernelRequest("flash_attn"))
    assert decision.choice.version is session.recommended_version(recipe, decision.machine)
    assert session.kernel_choice == decision.choice
    assert session.prebuilt is None
    probe = session.choose(KernelRequest("probe", gpus=[0]))
    assert probe.choice.gpu_indices == (0,) and probe.verdict.available
    with pytest.raises(ChoiceError, match="does not fit this computer") as refused:
        session.choose(KernelRequest("flash_attn", gpus=[]))  # no GPU selected
    assert "No GPU is selected" in str(refused.value)
    assert session.kernel_choice == probe.choice  # the refused choice was not taken
    forced = session.choose(KernelRequest("flash_attn", gpus=[], force=True))
    assert forced.choice.recipe is recipe and not forced.verdict.available


def test_local_source_and_variant_are_part_of_the_choice(tmp_path: Path) -> None:
    session = cuda_session(tmp_path)
    decision = session.choose(KernelRequest("flash_attn_3", local_path=tmp_path,
                                            variant="compact", force=True))
    assert decision.choice.source_mode is SourceMode.LOCAL
    assert decision.choice.local_path == tmp_path
    assert decision.choice.variant == "compact"


def test_the_build_command_gives_the_hint_the_kind_of_refusal_asks_for(
        tmp_path: Path) -> None:
    """``make_choice`` picks its hint from the refusal's type, not from its wording: a kernel
    that does not fit → choose another or --force; no matching prebuilt wheel → build it."""
    from argparse import Namespace

    from kernel_wizard.base.errors import WizardError
    from kernel_wizard.cli.build import make_choice
    from kernel_wizard.flow.session import DoesNotFit, NoMatchingWheel

    session = cuda_session(tmp_path)
    assert session.environment is not None

    def options(kernel: str, **given: Any) -> Namespace:
        return Namespace(**{"kernel": kernel, "kernel_version": None, "variant": None,
                            "source": None, "prebuilt": False, "force": False, **given})

    with pytest.raises(WizardError) as unfit:
        make_choice(options("deepep"), session.environment, session, None)
    assert isinstance(unfit.value.__cause__, DoesNotFit)
    assert "pass --force" in unfit.value.hint and "does not fit" in unfit.value.what
    with pytest.raises(WizardError) as no_wheel:
        make_choice(options("probe", prebuilt=True), session.environment, session, None)
    assert isinstance(no_wheel.value.__cause__, NoMatchingWheel)
    assert no_wheel.value.hint == "Build from source (run the same command without --prebuilt)."
    chosen = make_choice(options("deepep", force=True), session.environment, session, None)
    assert chosen.recipe.id == "deepep"


def test_the_kernel_table_judges_every_version_and_recommends_once(tmp_path: Path) -> None:
    """Session.kernel_table: every kernel of the catalog, every version with the session's
    verdict, the recommended version as choose() would preselect it, the route of its source."""
    session = cuda_session(tmp_path)
    machine = session.machine()
    table = session.kernel_table(machine)
    assert [row.recipe.id for row in table] == [r.id for r in session.catalog()]
    for row in table:
        assert [v.version for v in row.versions] == list(row.recipe.versions)
        for judged in row.versions:
            assert judged.verdict == session.verdict(row.recipe, judged.version, machine)
        assert row.recommended is session.recommended_version(row.recipe, machine)
    rows = {row.recipe.id: row for row in table}
    assert rows["probe"].route is SourceRoute.BUNDLED
    assert rows["flash_attn"].route is SourceRoute.DOWNLOAD
    assert rows["flash_attn"].recommended is session.choose(
        KernelRequest("flash_attn")).choice.version
    assert not rows["deepep"].recommended_verdict.available  # shown, with why it does not fit
    assert all(row.worth is None for row in table)  # not timed: no speed advice


def test_the_source_route_is_decided_with_the_choice(tmp_path: Path) -> None:
    """One formula: the route follows the choice (and every changed copy of it), and every
    step reads it — bundled, a download, a local folder, an archive, a prebuilt wheel."""
    session = cuda_session(tmp_path)
    archive = tmp_path / "flash-attention.tar.gz"
    archive.write_bytes(b"")
    assert session.choose(KernelRequest("probe")).choice.route is SourceRoute.BUNDLED
    assert session.choose(KernelRequest("flash_attn")).choice.route is SourceRoute.DOWNLOAD
    folder = session.choose(KernelRequest("flash_attn", local_path=tmp_path)).choice
    assert folder.route is SourceRoute.LOCAL_FOLDER and not folder.route.needs_fetch
    packed = session.choose(KernelRequest("flash_attn", local_path=archive)).choice
    assert packed.route is SourceRoute.ARCHIVE and packed.route.needs_fetch
    with pytest.raises(PlanError, match="needs the source first"):
        session.plan_preview()  # an archive is extracted by the build first
    wheel = SimpleNamespace(url="https://example.invalid/w.whl")
    assert replace(folder, prebuilt=wheel).route is SourceRoute.PREBUILT  # type: ignore[arg-type]
    shipped = session.catalog().get("probe")
    probe = KernelChoice.default(shipped, shipped.newest)
    assert probe.route is SourceRoute.BUNDLED and probe.source_mode is SourceMode.BUNDLED
