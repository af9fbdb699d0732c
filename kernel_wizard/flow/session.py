"""The flow, once: detect → environment → check → choose → plan → build → verify → install.

:class:`Session` holds what the steps have learned and runs each step; the wizard's pages and
the headless CLI both drive it, so the order of the steps, what each one needs and what a
change invalidates are decided here, not in a front end:

* a step refuses to run before what it needs (:meth:`Session.blocker` says why, in words);
* a result belongs to the choices it was made for: a build made for another kernel, version,
  source, GPU selection or Python is not current any more (:meth:`Session.current_build`),
  and neither is a verification of an older build (:meth:`Session.current_verification`);
* :meth:`Session.run_build_flow` is the whole headless sequence (build, verify from staging,
  install), made of the same step methods the pages call.

Long steps report through a callback of small typed events and honour a
:class:`threading.Event` for cancel. The front ends only show them: ``app/workers.py`` turns
them into Qt signals, :mod:`.cli_build` prints them.

Tests swap the core functions through :class:`SessionServices` (a replayed NVML, a stand-in
build), never the flow itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from enum import IntEnum
from pathlib import Path

from kernel_wizard.base.advice import choose_python
from kernel_wizard.base.errors import Cancelled, WizardError
from kernel_wizard.base.messages import N_, Msg, msg
from kernel_wizard.base.paths import hold_env
from kernel_wizard.build.plan import BuildPlan, BuildRequest, PlanError, machine_for, plan_build
from kernel_wizard.build.run import BuildEvent, BuildOutcome, BuildStatus, EventSink
from kernel_wizard.catalog import (
    Catalog,
    Machine,
    Recipe,
    RecipeVersion,
    Verdict,
    arch_list,
    assess,
    load_catalog,
    recommended_version,
)
from kernel_wizard.catalog.wheels import WheelCandidate, proposed_version
from kernel_wizard.catalog.worth import (
    DEFAULT_WORKLOAD,
    SdpaSpeed,
    SpeedUnavailable,
    Worth,
    sdpa_speed_here,
    worth_building,
)
from kernel_wizard.flow import changes
from kernel_wizard.flow.changes import SinceVerified
from kernel_wizard.flow.pipeline import KernelChoice, SourceMode, SourceRoute, run_pipeline
from kernel_wizard.flow.recommend import how_to_get
from kernel_wizard.flow.reverify import ReverifyResult, reverify_all
from kernel_wizard.flow.verify_install import VerifyInstallOutcome, verify_then_install
from kernel_wizard.install import wheel_cache
from kernel_wizard.install.housekeeping import prune_after_build
from kernel_wizard.install.installer import (
    InstallRecord,
    InstallResult,
    RollbackResult,
    has_journals,
    install_wheel,
    load_installs,
    lock_line,
    rollback_install,
    startup_notices,
)
from kernel_wizard.install.wheel_cache import CachedWheel, PassedOn, WheelTarget
from kernel_wizard.install.wheel_cache import now as wheel_cache_now
from kernel_wizard.machine.ai_apps.usage import workload_for_python
from kernel_wizard.machine.environment import (
    Candidate,
    PythonEnv,
    discover_candidates,
    inspect_python,
)
from kernel_wizard.machine.hardware import CheckedGpus, HardwareReport, check_gpu_selection, detect
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.machine.toolkits import (
    CudaToolkit,
    ToolkitChoice,
    cuda_bin_dirs,
    discover_toolkits,
)
from kernel_wizard.prereqs import (
    CheckId,
    CheckResult,
    Fix,
    FixOutcome,
    FixProgress,
    FixStatus,
    SystemFacts,
    gather_facts,
    refresh,
    run_checks,
)
from kernel_wizard.prereqs.fixes import PipInstallFix
from kernel_wizard.prereqs.kernels import with_prerequisites
from kernel_wizard.prereqs.pipfix import EnsurePipFix


class FlowStep(IntEnum):
    """The steps of the flow, in order (the wizard has one page per step)."""

    WELCOME = 0
    HARDWARE = 1
    PREREQS = 2
    KERNEL = 3
    BUILD = 4
    VERIFY = 5
    DONE = 6


class FlowError(WizardError):
    """A step was asked for before what it needs (the message says what is missing)."""


class ChoiceError(WizardError):
    """The kernel asked for cannot be chosen here: the message says why, each reason on its
    own line. Raised as one of its two kinds, so that a front end gives the hint right for it
    without reading the message: :class:`DoesNotFit` or :class:`NoMatchingWheel`."""


class DoesNotFit(ChoiceError):
    """The kernel version does not fit this computer (choose another, or force it)."""


class NoMatchingWheel(ChoiceError):
    """A prebuilt wheel was asked for and none matches this environment (build it instead)."""


@dataclass(frozen=True)
class KernelRequest:
    """What the person asked for on the Kernel step (the page's widgets, the build command's
    options); what is left out, the session decides (:meth:`Session.choose`)."""

    kernel: str  # a recipe id
    version: str | None = None  # a version label; None: the recommended version here
    # GPU indices (checked by the session), or a selection the front end checked already;
    # None: every usable GPU
    gpus: Sequence[int] | CheckedGpus | None = None
    variant: str | None = None  # the recipe's build variant; None: its default
    source_mode: SourceMode | None = None  # None: the recipe's own (bundled, or a download)
    local_path: Path | None = None  # with SourceMode.LOCAL: a folder or an archive
    # True: the best matching prebuilt wheel (one must exist); a candidate: that wheel
    prebuilt: bool | WheelCandidate = False
    force: bool = False  # choose a version that does not fit (the command line's --force)
    gpu_option: str | None = None  # the option the GPU indices came from (for the hint)
    # take a wheel of this kernel that passed verification with the same PyTorch build, Python
    # and GPUs from the verified-wheel cache instead of building (False: build from source)
    from_cache: bool = True


@dataclass(frozen=True)
class KernelVersionRow:
    """One version of a kernel on this machine: whether it fits (the session's verdict)."""

    version: RecipeVersion
    verdict: Verdict


@dataclass(frozen=True)
class KernelRow:
    """One kernel as both front ends list it (the Kernel page's row, a ``kernels`` entry):
    every version with its verdict, the version recommended here, the route its own source
    takes, and whether building it pays off on this GPU (where PyTorch's attention was
    timed)."""

    recipe: Recipe
    versions: tuple[KernelVersionRow, ...]  # as the recipe lists them (oldest first)
    recommended: RecipeVersion  # preselected here (it may not fit when no version does)
    route: SourceRoute  # of the recipe's own source: bundled or a download
    worth: Worth | None = None  # the speed advice; None: not timed, or nothing measured
    # a verified wheel of the recommended version (default variant) that fits here: ready from
    # the cache, no compiling
    cached: CachedWheel | None = None

    def verdict(self, version: RecipeVersion) -> Verdict:
        """The verdict of one of this kernel's versions."""
        return next(row.verdict for row in self.versions if row.version is version)

    @property
    def recommended_verdict(self) -> Verdict:
        return self.verdict(self.recommended)


@dataclass(frozen=True)
class KernelDecision:
    """What :meth:`Session.choose` decided: the choice (with its prebuilt wheel, if any), the
    verdict for this machine and the machine it was judged on."""

    choice: KernelChoice
    verdict: Verdict
    machine: Machine


BuildRunner = Callable[["Session", EventSink, threading.Event], BuildOutcome]


def default_build(session: Session, sink: EventSink,
                  cancel: threading.Event) -> BuildOutcome:
    """Source, patches, plan and build of the session's choice (the probe when none)."""
    env, hardware = session.require_target()
    choice = session.effective_choice()
    return run_pipeline(choice, env, hardware, sink, cancel, toolkits=session.toolkit_choice())


def fix_environment(fix: Fix) -> Path | None:
    """The Python environment ``fix`` installs into (PyTorch, ninja, pip: a pip run in it);
    None for a fix that changes the system instead (a compiler, a setting)."""
    return fix.python if isinstance(fix, (PipInstallFix, EnsurePipFix)) else None


@dataclass
class SessionServices:
    """The core functions the flow calls (replaceable in tests: a replayed NVML, a stand-in
    build). Defaults are the real ones."""

    detect: Callable[[], HardwareReport] = detect
    discover: Callable[[], list[Candidate]] = discover_candidates
    inspect: Callable[[Path], PythonEnv] = inspect_python
    # the build step: source, patches, plan and build of the session's choice
    build: BuildRunner = default_build
    verify_then_install: Callable[..., VerifyInstallOutcome] = verify_then_install
    install_wheel: Callable[..., InstallResult] = install_wheel
    reverify_all: Callable[..., list[ReverifyResult]] = reverify_all
    installs: Callable[[], list[InstallRecord]] = load_installs
    rollback_install: Callable[..., RollbackResult] = rollback_install
    recover: Callable[[], list[str]] = startup_notices
    interrupted: Callable[[], bool] = has_journals  # cheap: is there anything to recover?
    gather_facts: Callable[..., SystemFacts] = gather_facts
    run_checks: Callable[[SystemFacts], list[CheckResult]] = run_checks
    refresh: Callable[..., SystemFacts] = refresh  # (facts, check, toolkits=) for CUDA
    load_catalog: Callable[[], Catalog] = load_catalog
    discover_toolkits: Callable[[], list[CudaToolkit]] = discover_toolkits
    # PyTorch's own attention timed in the target Python (the "worth building?" advice)
    time_sdpa: Callable[[HardwareReport | None, PythonEnv | None],
                        SdpaSpeed | SpeedUnavailable | None] = sdpa_speed_here
    # after every build: keep the kernel's last builds, remove older ones (never raises)
    prune: Callable[[str, Sequence[Path]], object] = prune_after_build
    # the verified-wheel cache: a wheel that fits (kernel, version, variant, target), and
    # keeping one that passed verification
    find_cached: Callable[[str, str, str | None, WheelTarget], CachedWheel | None] = \
        wheel_cache.find
    keep_verified: Callable[..., CachedWheel | None] = wheel_cache.keep


@dataclass(frozen=True)
class FlowOptions:
    """How far the headless flow goes after a successful build."""

    verify: bool = True
    install: bool = True
    allow_failed: bool = False  # install even when the verification fails
    quick: bool = False  # the quick verification


@dataclass(frozen=True)
class StepNotice:
    """A line for the person watching: what the flow is doing next."""

    text: str


# what the headless flow reports: the build's events, then what it does after the build
FlowEvent = BuildEvent | StepNotice


@dataclass(frozen=True)
class BuildFlowResult:
    """What the headless flow did: the build, and the verification/install if they ran."""

    build: BuildOutcome
    verification: VerifyInstallOutcome | None = None
    installed_unverified: InstallResult | None = None

    @property
    def ok(self) -> bool:
        if self.build.status is not BuildStatus.SUCCEEDED:
            return False
        return self.verification is None or self.verification.report.passed


@dataclass
class Session:
    """What the flow has learned so far, and the steps that learn more.

    The attributes are plain state (pages and tests read them); the methods are the steps.
    """

    services: SessionServices = field(default_factory=SessionServices)
    hardware: HardwareReport | None = None
    candidates: list[Candidate] = field(default_factory=list)
    scan_limits: tuple[str, ...] = ()  # what the search for AI programs could not look at
    environment: PythonEnv | None = None
    reverify_only: bool = False
    facts: SystemFacts | None = None
    checks: list[CheckResult] = field(default_factory=list)
    kernel_choice: KernelChoice | None = None  # None: the bundled probe kernel
    prebuilt: WheelCandidate | None = None  # a matching prebuilt wheel instead of a build
    build_outcome: BuildOutcome | None = None
    verify_outcome: VerifyInstallOutcome | None = None
    _catalog: Catalog | None = None
    _toolkits: list[CudaToolkit] | None = None
    _toolkit_choice: ToolkitChoice | None = None
    _built_for: tuple[object, ...] | None = None
    _verified_for: object = None
    discarded_builds: int = 0  # how often a build was dropped to be built again
    # the current verification's install, undone on request (cleared by the next verification)
    rolled_back: RollbackResult | None = None
    install_declined: bool = False  # the person finished without installing the verified build
    reverify_results: list[ReverifyResult] | None = None  # the re-verification of the installs
    workload_choice: str = ""  # what the person said they run attention for ("": not said)
    # why a verified wheel could not be kept in the cache (a full data folder); "" when it was
    cache_problem: str = ""

    # -- what the flow knows -------------------------------------------------------------

    @property
    def verify_adapter(self) -> str:
        return self.effective_choice().recipe.verify_adapter

    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = self.services.load_catalog()
        return self._catalog

    def toolkits(self) -> list[CudaToolkit]:
        """The CUDA toolkits of this machine (runs nvcc once: call it off the GUI thread)."""
        if self._toolkits is None:
            self._toolkits = list(self.services.discover_toolkits())
        return self._toolkits

    def toolkit_choice(self) -> ToolkitChoice:
        """The CUDA toolkit decision: the toolkits found (:meth:`toolkits`) and the one a build
        into the target Python uses, the one that fits its PyTorch's CUDA. Decided here, once
        per toolkits and target Python, and passed down as it is to the verdicts' machine, the
        plan, the pipeline and the prerequisite facts (none of them searches or chooses
        again)."""
        env = self.environment
        torch_cuda = env.torch.cuda_version if env is not None and env.torch else None
        found = self.toolkits()
        cached = self._toolkit_choice
        if cached is None or cached.torch_cuda != torch_cuda or cached.found != tuple(found):
            cached = self._toolkit_choice = ToolkitChoice.of(found, torch_cuda)
        return cached

    def toolkit(self) -> CudaToolkit | None:
        """The CUDA toolkit a build into the target Python uses (None: a CPU-only PyTorch, or
        none fits): :meth:`toolkit_choice`'s."""
        return self.toolkit_choice().chosen

    def set_toolkits(self, toolkits: Sequence[CudaToolkit]) -> None:
        self._toolkits = list(toolkits)

    def require_target(self) -> tuple[PythonEnv, HardwareReport]:
        if self.hardware is None:
            raise FlowError(N_("The hardware has not been detected yet."),
                            hint=N_("Go back to the Hardware step and let it finish."))
        if self.environment is None:
            raise FlowError(N_("No Python environment has been chosen yet."),
                            hint=msg("Choose the Python that gets the kernel: {how}.",
                                     how=choose_python().replace("another one", "one")))
        return self.environment, self.hardware

    def machine(self, selected: Sequence[int] | CheckedGpus | None = None,
                option: str | None = None) -> Machine:
        """The one description of this machine that verdicts, estimates and plans share: the
        OS the hardware report was taken on (a ``--replay`` recording's own), the CUDA toolkit
        the session found and the GPU selection, checked here unless it was already
        (:class:`~kernel_wizard.machine.hardware.CheckedGpus`; ``option``: where it came from, for
        the hint)."""
        env, hardware = self.require_target()
        indices: Sequence[int] | None
        if isinstance(selected, CheckedGpus):
            indices = selected.indices
        elif selected is not None:
            indices = check_gpu_selection(hardware, selected, option=option)
        else:
            indices = None
        return machine_for(hardware, env, selected=indices, toolkits=self.toolkit_choice())

    def probe_choice(self) -> KernelChoice:
        """The bundled probe kernel: what "no choice" means, here and only here."""
        recipe = self.catalog().probe
        return KernelChoice.default(recipe, recipe.newest)

    def effective_choice(self) -> KernelChoice:
        """The chosen kernel (the probe when none was chosen), with the prebuilt wheel."""
        choice = self.kernel_choice or self.probe_choice()
        if self.prebuilt is not None:
            choice = replace(choice, prebuilt=self.prebuilt)
        return choice

    # -- detect and choose the environment ------------------------------------------------

    def detect(self) -> HardwareReport:
        """Hardware detection and the Python candidates (slow: off the GUI thread)."""
        report = self.services.detect()
        discovered = self.services.discover()
        candidates = list(discovered)
        self.facts = None  # a new detection: the prerequisites are checked again for it
        self.checks = []
        self.hardware = report
        self.candidates = candidates
        self.scan_limits = tuple(getattr(discovered, "limits", ()))
        return report

    def inspect(self, python: Path) -> PythonEnv:
        """Inspect a Python without choosing it (slow: runs it)."""
        return self.services.inspect(python)

    def choose_environment(self, env: PythonEnv | None) -> None:
        """The Python that gets the kernel; what was checked for another one is dropped."""
        previous = self.environment
        self.environment = env
        if previous is None or env is None or previous.executable != env.executable:
            self.facts = None
            self.checks = []

    def update_environment(self, env: PythonEnv) -> None:
        """The same Python, inspected again (a fix installed PyTorch or ninja into it)."""
        if self.environment is not None and env.executable == self.environment.executable:
            self.environment = env

    # -- prerequisites ------------------------------------------------------------------

    def check(self, build_root: Path | None = None) -> list[CheckResult]:
        """Gather the facts once and run every check (slow: off the GUI thread); the
        ``check`` and ``fix`` commands and the Prerequisites page alike. ``build_root``: the
        build folder to check (default: the wizard's own)."""
        where = {"build_root": build_root} if build_root is not None else {}
        facts = self.services.gather_facts(env=self.environment, hardware=self.hardware,
                                           toolkits=self.toolkit_choice(), **where)
        return self._checked(facts)

    def recheck(self, check: CheckId) -> list[CheckResult]:
        """After a fix: gather that check's facts again and run every check."""
        if self.facts is None:
            return self.check()
        if check in (CheckId.CUDA, CheckId.COMPAT):
            self._toolkits = None  # a fix may have installed one: look again, here, once
            return self._checked(self.services.refresh(self.facts, check,
                                                       toolkits=self.toolkit_choice()))
        return self._checked(self.services.refresh(self.facts, check))

    def _checked(self, facts: SystemFacts) -> list[CheckResult]:
        results = list(self.services.run_checks(facts))
        self.facts = facts
        self.checks = results
        if facts.env is not None:
            self.update_environment(facts.env)  # e.g. PyTorch was just installed into it
        return results

    def run_fix(self, fix: Fix, on_line: Callable[[str], None], cancel: threading.Event,
                on_progress: Callable[[FixProgress], None] | None = None) -> FixOutcome:
        """Run a prerequisite's fix: the one way both front ends run one (the Prerequisites
        page's Fix button, the ``fix`` command). A fix that installs into a Python (PyTorch,
        ninja, pip) holds that environment's lock for its whole run, the lock a kernel's
        install holds: while another run (a build command installing, another wizard's fix)
        changes the same environment, this one waits, telling ``on_line`` once whom it waits
        for (a ``[lock]`` line); another environment is not waited for. ``cancel`` stops the
        wait too (a cancelled outcome). The lock is let go however the fix ends, an exception
        included. The caller checks again afterwards (:meth:`recheck`)."""
        python = fix_environment(fix)
        with ExitStack() as held:
            if python is not None:
                try:
                    held.enter_context(hold_env(
                        python, f"running the fix '{fix.title}' in {python}",
                        on_wait=lambda text: on_line(lock_line(text)), cancel=cancel))
                except Cancelled as stopped:  # while waiting: the fix never started
                    return FixOutcome(FixStatus.CANCELLED, stopped.what)
            return fix.run(on_line, cancel, on_progress)

    def blocking_checks(self) -> list[CheckResult]:
        """What no kernel can do without (the wizard cannot go on to the Kernel step)."""
        return [r for r in self.checks if r.blocks]

    def verdict(self, recipe: Recipe, version: RecipeVersion,
                machine: Machine | None = None) -> Verdict:
        """Whether a kernel version can be built here: the recipe's own verdict
        (:func:`~kernel_wizard.catalog.assess`) plus what the prerequisite checks found missing
        for it, each with a way to its Fix. The Kernel page and the CLI show this."""
        judged = machine if machine is not None else self.machine()
        return with_prerequisites(assess(recipe, version, judged), recipe, self.checks)

    # -- choose -----------------------------------------------------------------------

    def recommended_version(self, recipe: Recipe, machine: Machine,
                            verdicts: dict[str, Verdict] | None = None) -> RecipeVersion:
        """The version of ``recipe`` to preselect on ``machine`` (judged by :meth:`verdict`;
        ``verdicts``: those already made, by version label, which judging adds to)."""
        known = verdicts if verdicts is not None else {}

        def judge(r: Recipe, version: RecipeVersion, m: Machine) -> Verdict:
            if version.label not in known:
                known[version.label] = self.verdict(r, version, m)
            return known[version.label]

        best = recommended_version(recipe, machine, judge)
        if not judge(recipe, best, machine).available:
            return best  # shown with its reasons; no other version fits either
        # a version that installs from a published wheel rather than compiling, where one fits
        return proposed_version(recipe, best, machine.env,
                                lambda version: judge(recipe, version, machine).available)

    def kernel_table(self, machine: Machine | None = None,
                     speed: SdpaSpeed | SpeedUnavailable | None = None) -> list[KernelRow]:
        """Every kernel of the catalog on ``machine`` (default: :meth:`machine`, every usable
        GPU), one :class:`KernelRow` each in the catalog's order: the one table the Kernel page
        and the ``kernels`` command show. Each version is judged once (:meth:`verdict`); the
        recommended version is :meth:`recommended_version`'s, from those verdicts; ``speed``
        (PyTorch's attention timed here) adds the advice for :meth:`workload`."""
        judged = machine if machine is not None else self.machine()
        rows = []
        for recipe in self.catalog():
            verdicts = {version.label: self.verdict(recipe, version, judged)
                        for version in recipe.versions}
            recommended = self.recommended_version(recipe, judged, verdicts)
            rows.append(KernelRow(
                recipe,
                tuple(KernelVersionRow(v, verdicts[v.label]) for v in recipe.versions),
                recommended, KernelChoice.default(recipe, recommended).route,
                self.worth(recipe.id, speed) if isinstance(speed, SdpaSpeed) else None,
                self.cached_wheel(recipe, recommended, None, judged)))
        return rows

    # -- the verified-wheel cache -------------------------------------------------------------

    def wheel_target(self, machine: Machine) -> WheelTarget | None:
        """What a cached wheel must have been built for to run unchanged here: the target
        Python's PyTorch build, Python tag and platform, and the selected GPUs' architectures
        (None: no PyTorch there, nothing to match)."""
        env = self.environment
        if env is None or env.torch is None or not env.interpreter_tag or not env.platform_tag:
            return None
        return WheelTarget(env.torch.version, env.interpreter_tag, env.platform_tag,
                           tuple(arch_list(machine)))

    def cached_wheel(self, recipe: Recipe, version: RecipeVersion, variant: str | None,
                     machine: Machine) -> CachedWheel | None:
        """A wheel of this kernel, version and build variant (None: the recipe's default)
        that passed verification before and runs unchanged here, from the verified-wheel
        cache; None when there is none."""
        target = self.wheel_target(machine)
        if target is None:
            return None
        chosen = recipe.variant(variant)
        return self.services.find_cached(recipe.id, version.version,
                                         chosen.id if chosen is not None else None, target)

    def _keep_verified(self, outcome: BuildOutcome, wheel: Path,
                       result: VerifyInstallOutcome) -> None:
        """A wheel that passed verification goes to the verified-wheel cache (a wheel taken
        from it gets this verification added), with what it was built for and where it came
        from. A full or read-only data folder costs only the cache, never the install."""
        if not isinstance(result, VerifyInstallOutcome):
            return  # a stand-in verification step (tests) has no report to keep a wheel by
        choice = self.effective_choice()
        env = self.environment
        report = result.report
        if not report.passed or env is None:
            return
        machine = self.machine(choice.gpu_indices)
        target = self.wheel_target(machine)
        if target is None:
            return
        facts = report.environment
        variant = choice.recipe.variant(choice.variant) if choice.prebuilt is None else None
        passed = PassedOn(date=wheel_cache_now(), python=str(env.executable),
                          torch=target.torch,
                          torch_cuda=facts.torch_cuda if facts is not None else None,
                          gpus=tuple(g.name for g in machine.gpus if g.name),
                          driver=facts.driver_version if facts is not None else None,
                          report=str(result.saved.json_path), quick=report.quick)
        try:
            self.services.keep_verified(
                wheel, kernel=choice.recipe.id, version=choice.version.version,
                variant=variant.id if variant is not None else None,
                source=self._wheel_source(choice), built_for=target, passed=passed)
        except (WizardError, OSError) as exc:
            self.cache_problem = exc.describe() if isinstance(exc, WizardError) else str(exc)

    @staticmethod
    def _wheel_source(choice: KernelChoice) -> str:
        """Where a wheel came from, in words, for the cache's entry."""
        if choice.cached is not None:
            return choice.cached.source
        if choice.prebuilt is not None:
            return f"prebuilt wheel from {choice.prebuilt.source_name}: {choice.prebuilt.url}"
        version = choice.version
        ref = version.commit[:7] if version.commit else (version.tag or version.version)
        if choice.route is SourceRoute.BUNDLED:
            return f"built from the wizard's own {choice.recipe.name} source"
        if choice.local_path is not None:
            return f"built from {choice.local_path}"
        return f"built from {choice.recipe.name} {ref}"

    def choose(self, request: KernelRequest) -> KernelDecision:
        """Decide the kernel choice from what the person asked for, for both front ends: the
        version (the recommended one when none is named), the GPU selection (checked once,
        here), whether it fits (:meth:`verdict`; :class:`DoesNotFit` with every reason unless
        ``force``), the build variant, the source and the prebuilt wheel
        (:class:`NoMatchingWheel` when one is asked for and none matches). The choice
        becomes the session's; a build made for other choices is no longer current."""
        recipe = self.catalog().get(request.kernel)
        machine = self.machine(request.gpus, option=request.gpu_option)
        version = (recipe.version(request.version) if request.version is not None
                   else self.recommended_version(recipe, machine))
        verdict = self.verdict(recipe, version, machine)
        if not verdict.available and not request.force:
            reasons = "\n".join(f"  - {r.text}" + (f" ({r.hint})" if r.hint else "")
                                 for r in verdict.reasons)
            raise DoesNotFit(msg("{kernel} {version} does not fit this computer:\n{reasons}",
                                  kernel=recipe.name, version=version.label, reasons=reasons),
                              hint=N_("Choose another kernel or version, one that fits."))
        choice = KernelChoice.default(recipe, version)
        variant = recipe.variant(request.variant)  # an unknown one: a usage error
        if variant is not None:
            choice = replace(choice, variant=variant.id)
        if request.source_mode is not None:
            choice = replace(choice, source_mode=request.source_mode)
        if request.local_path is not None:
            choice = replace(choice, source_mode=SourceMode.LOCAL, local_path=request.local_path)
        if machine.selected is not None:
            choice = replace(choice, gpu_indices=machine.selected)
        wheel: WheelCandidate | None = None
        if isinstance(request.prebuilt, WheelCandidate):
            wheel = request.prebuilt
        elif request.prebuilt:
            wheel = how_to_get(recipe, version, verdict, machine).prebuilt
            if wheel is None:
                raise NoMatchingWheel(
                    msg("No prebuilt {kernel} {version} wheel matches this environment.",
                        kernel=recipe.name, version=version.label),
                    hint=N_("Build it from source instead."))
        if wheel is not None:
            choice = replace(choice, variant=None)  # a wheel is installed as it was built
        elif request.from_cache and choice.route in (SourceRoute.BUNDLED, SourceRoute.DOWNLOAD):
            # the same kernel verified before with this PyTorch build, Python and GPUs: no
            # compiling (a source the person chose is built as asked)
            choice = replace(choice, cached=self.cached_wheel(recipe, version, choice.variant,
                                                              machine))
        self.kernel_choice = choice
        self.prebuilt = wheel
        return KernelDecision(replace(choice, prebuilt=wheel), verdict, machine)

    # -- plan and build -----------------------------------------------------------------

    def build_key(self) -> tuple[object, ...]:
        """What a build depends on: the target Python and every choice of the Kernel step."""
        choice = self.kernel_choice
        env = self.environment
        return (
            env.executable if env else None,
            (choice.recipe.id, choice.version.label, choice.source_mode, choice.local_path,
             choice.gpu_indices, choice.variant,
             choice.cached.digest if choice.cached is not None else None) if choice else None,
            self.prebuilt.url if self.prebuilt else None,
        )

    def current_build(self) -> BuildOutcome | None:
        """The build outcome, if it was made for the current choices."""
        if self.build_outcome is None or self._built_for != self.build_key():
            return None
        return self.build_outcome

    def build_started(self) -> bool:
        """Whether a build was started for the current choices (it may still run, or have
        failed or raised): False after another choice or :meth:`discard_build`."""
        return self._built_for is not None and self._built_for == self.build_key()

    def begin_build(self) -> None:
        """Mark a build of the current choices as started: the previous build, its
        verification and its install question are forgotten. :meth:`build` does this itself;
        a front end that runs :meth:`build` in the background calls it first, so that the
        flow's state is right before the worker starts."""
        self.build_outcome = None
        self._forget_verification()
        self._built_for = self.build_key()

    def _forget_verification(self) -> None:
        self.verify_outcome = None
        self.rolled_back = None
        self.install_declined = False

    def plan_preview(self) -> BuildPlan:
        """The plan the build would run, without side effects (``--plan-only``; pages)."""
        env, hardware = self.require_target()
        choice = self.effective_choice()
        if choice.route is SourceRoute.PREBUILT:
            raise PlanError("A prebuilt wheel is downloaded, not built: there is no build plan.")
        if choice.route is SourceRoute.CACHED:
            raise PlanError("A verified wheel is taken from the cache, not built: there is no "
                            "build plan.")
        if choice.route.needs_fetch:
            raise PlanError("The exact plan needs the source first (a download or an archive to "
                            "extract); it is shown once the build has the source.")
        bundled = choice.route is SourceRoute.BUNDLED
        request = BuildRequest(choice.recipe, choice.version, env, hardware,
                               source_dir=None if bundled else choice.local_path,
                               gpu_indices=choice.gpu_indices, variant=choice.variant)
        return plan_build(request, toolkits=self.toolkit_choice())

    def build(self, on_event: EventSink | None = None,
              cancel: threading.Event | None = None) -> BuildOutcome:
        """Build the chosen kernel (or download the chosen prebuilt wheel) into staging.

        Never touches the target environment. A failed or cancelled build is an outcome;
        an error before the build (no source, a patch that does not apply) raises."""
        self.require_target()
        sink = on_event if on_event is not None else (lambda _event: None)
        stop = cancel if cancel is not None else threading.Event()
        self.begin_build()
        services = self.services
        outcome = services.build(self, sink, stop)
        self.build_outcome = outcome
        used = [outcome.wheel, outcome.log_path]
        if outcome.plan is not None:
            used += [outcome.plan.output_dir, outcome.plan.source_dir]
        services.prune(self._kernel_id(outcome), [p for p in used if p is not None])
        return outcome

    def discard_build(self) -> None:
        """Forget the build (and its verification): the next Build step builds again."""
        self.build_outcome = None
        self._forget_verification()
        self._built_for = None
        self.discarded_builds += 1

    # -- verify and install -------------------------------------------------------------

    def current_verification(self) -> VerifyInstallOutcome | None:
        """The verification of the current build (None after a rebuild or another choice)."""
        build = self.current_build()
        if build is None or self.verify_outcome is None or self._verified_for is not build:
            return None
        return self.verify_outcome

    def _kernel_id(self, outcome: BuildOutcome) -> str:
        if outcome.plan is not None:
            return outcome.plan.kernel
        return self.effective_choice().recipe.id

    def _built_wheel(self) -> tuple[PythonEnv, BuildOutcome, Path]:
        env, _ = self.require_target()
        outcome = self.current_build()
        if outcome is None or outcome.status is not BuildStatus.SUCCEEDED \
                or outcome.wheel is None:
            raise FlowError(N_("Nothing to verify: there is no built wheel for these choices."),
                            hint=N_("Build the kernel first (the Build step)."))
        return env, outcome, outcome.wheel

    def verify_and_install(self, *, install: bool = True, allow_failed: bool = False,
                           quick: bool = False,
                           cancel: threading.Event | None = None) -> VerifyInstallOutcome:
        """Verify the staged wheel in the target Python; install it only if it passes (or
        ``allow_failed``). The result is kept as the current verification. ``cancel`` stops
        the verification (raises ``Cancelled``); an install that has begun is let finish."""
        env, outcome, wheel = self._built_wheel()
        self._forget_verification()  # a new verification: the install question is asked again
        # a wheel from the verified cache passed the full verification with this PyTorch build
        # and these GPUs: here the quick one proves it loads and computes right
        from_cache = self.effective_choice().route is SourceRoute.CACHED
        result = self.services.verify_then_install(
            env.executable, wheel, kernel=self._kernel_id(outcome), adapter=self.verify_adapter,
            install=install, allow_failed=allow_failed, quick=quick or from_cache,
            path_prepend=self.verification_path(outcome), cancel=cancel)
        self.verify_outcome = result
        self._verified_for = outcome
        self._keep_verified(outcome, wheel, result)
        return result

    def verification_path(self, outcome: BuildOutcome) -> list[Path]:
        """The CUDA folders the verification harness gets first on PATH: those of the toolkit
        the build used, else (a prebuilt wheel) of the one that fits torch's CUDA. On Windows
        with CUDA 13 that includes ``bin\\x64``, where the runtime DLLs are."""
        os_name = current_platform().name
        plan = outcome.plan
        if plan is not None and plan.cuda_home is not None:
            return cuda_bin_dirs(plan.cuda_home, plan.cuda_version, os_name)
        env = self.environment
        torch_cuda = env.torch.cuda_version if env is not None and env.torch is not None else None
        if torch_cuda is None:
            return []  # a CPU-only PyTorch loads no CUDA runtime
        chosen = self.toolkit()
        return chosen.bin_dirs(os_name) if chosen is not None else []

    def install_unverified(self, on_line: Callable[[str], None] | None = None) -> InstallResult:
        """Install the staged wheel without verifying it (the person chose so). ``on_line``
        hears what the install does, waiting for another run's lock on the environment too."""
        env, outcome, wheel = self._built_wheel()
        installed = self.services.install_wheel(env.executable, wheel, on_line=on_line,
                                                kernel=self._kernel_id(outcome),
                                                adapter=self.verify_adapter,
                                                verification={"status": "skipped"})
        self._record_install(installed)
        return installed

    def decline_install(self) -> None:
        """The person finished without installing the verified build (nothing changes; the
        flow may go on to the summary)."""
        if self.current_verification() is None:
            raise FlowError(N_("There is no verification of this build to decide about."),
                            hint=N_("Verify the build first (the Verify step)."))
        self.install_declined = True

    def _record_install(self, installed: InstallResult | None) -> None:
        if self.verify_outcome is not None:
            self.verify_outcome = replace(self.verify_outcome, installed=installed)

    def install_verified(self, on_line: Callable[[str], None] | None = None) -> InstallResult:
        """Install the wheel whose verification passed, when the person asks for it (the GUI
        verifies first and installs only on "Install into …"). The record names that
        verification (status pass), as a verify-then-install does. ``on_line`` hears what
        the install does (a wait for another run too)."""
        flow = self._verification_to_install()
        if not flow.report.passed:
            raise FlowError(N_("This build did not pass its verification, so it is not "
                               "installed without a warning."),
                            hint=N_("Build it again, or choose “Install anyway…”."))
        return self._install_after(flow, on_line)

    def install_anyway(self, on_line: Callable[[str], None] | None = None) -> InstallResult:
        """Install the wheel whose verification did not pass (the person insisted after a
        warning); the record says so. The current verification then names the install.
        ``on_line`` hears what the install does (a wait for another run too)."""
        return self._install_after(self._verification_to_install(), on_line)

    def _verification_to_install(self) -> VerifyInstallOutcome:
        flow = self.current_verification()
        if flow is None:
            raise FlowError(N_("There is no verification of this build to install after."),
                            hint=N_("Verify the build first (the Verify step)."))
        if flow.installed is not None:
            raise FlowError(N_("This build is already installed."),
                            hint=N_("Roll back first to install it again."))
        return flow

    def _install_after(self, flow: VerifyInstallOutcome,
                       on_line: Callable[[str], None] | None) -> InstallResult:
        """Install the current build after ``flow``, its verification; the record names the
        verification as :func:`kernel_wizard.flow.verify_install.verify_then_install` does."""
        env, outcome, wheel = self._built_wheel()
        passed = flow.report.passed
        installed = self.services.install_wheel(
            env.executable, wheel, on_line=on_line, kernel=self._kernel_id(outcome),
            adapter=self.verify_adapter,
            verification={"status": flow.report.status.value,
                          "report": str(flow.saved.json_path),
                          "quick": flow.report.quick,
                          "installed_despite_failure": not passed})
        self.verify_outcome = replace(flow, installed=installed,
                                      installed_despite_failure=not passed)
        return installed

    def rollback(self, on_line: Callable[[str], None] | None = None) -> RollbackResult:
        """Undo this session's install: remove it and put back what it replaced; the record
        of what comes back returns (with its verification). ``on_line`` hears what it does."""
        flow = self.verify_outcome
        if flow is None or flow.installed is None:
            raise FlowError(N_("Nothing to roll back: nothing was installed in this session."))
        installed = flow.installed
        result = self.services.rollback_install(installed.python, installed.name,
                                                on_line=on_line)
        self.verify_outcome = replace(flow, installed=None, installed_despite_failure=False)
        self.rolled_back = result
        return result

    def recover_interrupted(self) -> list[str]:
        """At start: finish or roll back installs that were cut off, repair a damaged install
        list; what happened, one sentence each (slow when there is something to recover:
        :meth:`needs_recovery` says whether to run it off the GUI thread)."""
        return self.services.recover()

    def needs_recovery(self) -> bool:
        """Whether an install was cut off (then :meth:`recover_interrupted` runs pip)."""
        return self.services.interrupted()

    def installs(self) -> list[InstallRecord]:
        """What the wizard installed where (installs.json), in the order it was recorded."""
        return self.services.installs()

    def speed_here(self) -> SdpaSpeed | SpeedUnavailable | None:
        """PyTorch's own attention timed on this GPU in the chosen Python (kept per GPU,
        driver, PyTorch and CUDA; a few seconds the first time), for the advice whether a
        kernel is worth building here (:func:`kernel_wizard.catalog.worth.worth_building`)."""
        return self.services.time_sdpa(self.hardware, self.environment)

    def workload(self) -> tuple[str, Msg]:
        """(workload id, why it is that one) the speed advice judges at: the person's choice,
        else what the AI program whose Python was chosen runs (resources/apps/<id>.toml),
        else LLM prompts."""
        if self.workload_choice:
            return self.workload_choice, msg("your choice")
        env = self.environment
        if env is not None:
            workload, app = workload_for_python(env.executable)
            if workload:
                return workload, msg("what {app} runs", app=app)
        return DEFAULT_WORKLOAD, msg("the default; no AI program was recognised for this Python")

    def worth(self, kernel: str, speed: SdpaSpeed) -> Worth | None:
        """Whether building ``kernel`` is expected to pay off here, for :meth:`workload`."""
        return worth_building(kernel, speed, workload=self.workload()[0])

    def reverify(self, *, quick: bool = False, cancel: threading.Event | None = None,
                 select: Callable[[InstallRecord], bool] | None = None) -> list[ReverifyResult]:
        """Verify the recorded installs again (the ``--verify`` run, the Verify page after a
        driver update): all of them, or those ``select`` accepts; kept for the flow."""
        if quick or cancel is not None or select is not None:
            results = list(self.services.reverify_all(quick=quick, cancel=cancel, select=select))
        else:
            results = list(self.services.reverify_all())
        self.reverify_results = results
        return results

    def since_verification(self) -> list[SinceVerified]:
        """What changed since each install's last passing verification, and whether it still
        loads (:func:`kernel_wizard.flow.changes.since_verification`), for the notice at
        start: the driver of this computer (the session's detection, else a new one; a
        detection that fails knows no driver), each environment as it is now, each kernel's
        import name and name from the catalog (a record of the first wizard versions, named
        by its distribution, is found by the recipe's package), and as the fix of a kernel
        that no longer imports, a verified wheel of its recorded version (the recipe's default
        build) that fits the environment now and these GPUs. Slow: it inspects every
        environment, and imports a kernel where PyTorch changed (a background task)."""
        records = self.installs()
        if not records:
            return []
        hardware = self.hardware
        if hardware is None:
            try:
                hardware = self.services.detect()
            except (WizardError, OSError):
                hardware = None
        archs = tuple(arch_list(hardware.usable_gpus)) if hardware is not None else ()
        recipes = {r.package: r for r in self.catalog()} | {r.id: r for r in self.catalog()}

        def cached(record: InstallRecord, env: PythonEnv) -> CachedWheel | None:
            recipe = recipes.get(record.kernel_id)
            if (recipe is None or env.torch is None or not env.interpreter_tag
                    or not env.platform_tag):
                return None
            public = record.version.partition("+")[0]  # a wheel's local label aside
            version = next((v for v in recipe.versions if v.version == public), None)
            if version is None:
                return None
            variant = recipe.variant(None)
            return self.services.find_cached(
                recipe.id, version.version, variant.id if variant is not None else None,
                WheelTarget(env.torch.version, env.interpreter_tag, env.platform_tag, archs))

        return changes.since_verification(
            records, driver=hardware.driver_version if hardware is not None else None,
            inspect=self.services.inspect,
            modules={key: r.import_name for key, r in recipes.items()},
            names={key: r.name for key, r in recipes.items()}, cached=cached)

    # -- where the flow stands ------------------------------------------------------------

    def blocker(self, step: FlowStep) -> str | None:
        """Why ``step`` cannot be entered yet, in words; None when it can. The one gate of
        the flow: every page's Next is enabled exactly when nothing runs on it and this says
        None for the step after it."""
        if self.reverify_only:  # Welcome → Verify (re-verify the installs) → Done
            if step >= FlowStep.DONE and not self.reverify_results:
                return N_("The installed kernels have not been verified again yet.")
            return None
        if step >= FlowStep.PREREQS:
            if self.hardware is None:
                return N_("The hardware has not been detected yet.")
            if self.environment is None or not self.environment.usable:
                return N_("Choose a working Python environment first.")
        if step >= FlowStep.KERNEL:
            if self.facts is None:
                return N_("The prerequisites have not been checked yet.")
            blocking = self.blocking_checks()
            if blocking:
                names = ", ".join(r.title for r in blocking)
                return msg("A prerequisite must be fixed first: {names}.", names=names)
        if step >= FlowStep.VERIFY:
            build = self.current_build()
            if build is None or build.status is not BuildStatus.SUCCEEDED:
                return N_("The kernel has not been built for these choices yet.")
        if step >= FlowStep.DONE:
            flow = self.current_verification()
            if flow is None:
                return N_("The build has not been verified yet.")
            if flow.installed is None and self.rolled_back is None \
                    and not self.install_declined:
                return N_("Install the kernel or finish without installing first.")
        return None

    # -- the headless flow ------------------------------------------------------------------

    def run_build_flow(self, options: FlowOptions,
                       on_event: Callable[[FlowEvent], None] | None = None,
                       cancel: threading.Event | None = None) -> BuildFlowResult:
        """Build, then verify from staging and install (as ``options`` say): the headless
        front end's whole sequence, made of the same steps the pages call."""
        sink = on_event if on_event is not None else (lambda _event: None)
        stop = cancel if cancel is not None else threading.Event()
        outcome = self.build(sink, stop)
        if outcome.status is not BuildStatus.SUCCEEDED or outcome.wheel is None:
            return BuildFlowResult(outcome)
        if stop.is_set():
            return BuildFlowResult(replace(outcome, status=BuildStatus.CANCELLED,
                                      message=N_("Cancelled after the build; nothing was "
                                                 "installed.")))
        if options.verify:
            sink(StepNotice(f"verifying {outcome.wheel.name} before installing it…"))
            flow = self.verify_and_install(install=options.install,
                                           allow_failed=options.allow_failed,
                                           quick=options.quick, cancel=stop)
            return BuildFlowResult(outcome, verification=flow)
        if options.install:
            return BuildFlowResult(outcome, installed_unverified=self.install_unverified(
                on_line=lambda line: sink(StepNotice(line))))
        return BuildFlowResult(outcome)


__all__ = [
    "ChoiceError", "DoesNotFit", "FlowError", "FlowEvent", "NoMatchingWheel", "FlowOptions",
    "BuildFlowResult", "KernelDecision",
    "KernelRequest", "KernelRow", "KernelVersionRow", "Session", "SessionServices",
    "FlowStep", "StepNotice", "default_build",
]
