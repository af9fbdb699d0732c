"""The build step of the flow: source → patches → plan → build (or a prebuilt download).

:class:`KernelChoice` is what the Kernel page (or the build command's options) chose.
:func:`run_pipeline` fetches or checks the source, asks :mod:`.plan` for the exact plan, copies
the source into the build's own folder (:func:`stage_plan`, for every source), applies the
recipe's patches there and runs the plan (:func:`kernel_wizard.build.run.run_build`), reporting
every step as events. Planning itself lives in :mod:`.plan`; a prebuilt wheel instead of a
build is :mod:`.prebuilt`'s.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from kernel_wizard.base.locks import LockBusy, hold
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.paths import (
    BUILD_ROOT_ALTERNATIVE,
    build_lock_path,
    logs_dir,
    staging_dir,
    storage_error,
    timestamp,
)
from kernel_wizard.build.plan import BuildPlan, BuildRequest, PlanError, plan_build
from kernel_wizard.build.prebuilt import fetch_prebuilt, write_log
from kernel_wizard.build.run import (
    BuildEvent,
    BuildOutcome,
    BuildStatus,
    LogLine,
    PlanEvent,
    Step,
    StepEvent,
    StepState,
    StepTiming,
    run_build,
)
from kernel_wizard.build.sources.model import SourceError
from kernel_wizard.build.worktree import SourceChanged, StagedSource, source_change, stage_source
from kernel_wizard.catalog import Recipe, RecipeVersion, SourceKind
from kernel_wizard.catalog.wheels import WheelCandidate
from kernel_wizard.install.wheel_cache import CacheChanged, CachedWheel, take
from kernel_wizard.machine.environment import PythonEnv
from kernel_wizard.machine.hardware import HardwareReport
from kernel_wizard.machine.platforms import Platform
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.machine.toolkits import CudaToolkit, ToolkitChoice, decide_toolkit

# the plan's variables that change how fast a build runs, not what it compiles
PARALLELISM_VARIABLES = frozenset({"MAX_JOBS", "NVCC_THREADS"})

# -- the whole pipeline: source → patches → plan → build ------------------------------------

MAX_BUNDLED_SLOTS = 4  # bundled-source builds at once before a further one waits


class SourceMode(Enum):
    BUNDLED = "bundled"  # shipped with the wizard (the probe)
    DOWNLOAD = "download"  # git clone, or source archives, at the recipe's pinned ref
    LOCAL = "local"  # a folder or archive the user chose (offline, air-gapped)


class SourceRoute(Enum):
    """How the build gets what it installs: decided once per choice (:class:`KernelChoice`'s
    ``route``), read by every step after (the source, the build folder's lock, the plan, the
    preview, the command line's ``--plan-only``), none of which derives it again."""

    BUNDLED = "bundled"  # shipped with the wizard (the probe): copied per build, slots
    CACHED = "verified cache"  # no source: the same wheel passed verification here before
    PREBUILT = "prebuilt wheel"  # no source: a matching wheel is downloaded
    DOWNLOAD = "download"  # the recipe's pinned ref: git, else source archives (fetch decides)
    ARCHIVE = "archive"  # a .tar.gz/.zip the user chose, extracted into the cache
    LOCAL_FOLDER = "local folder"  # a folder the user chose, copied for the build

    @property
    def needs_fetch(self) -> bool:
        """Whether the exact plan needs the source fetched or extracted first (so a preview
        can only say so): a download or an archive."""
        return self in (SourceRoute.DOWNLOAD, SourceRoute.ARCHIVE)


def source_route(recipe: Recipe, source_mode: SourceMode, local_path: Path | None,
                 prebuilt: WheelCandidate | None,
                 cached: CachedWheel | None = None) -> SourceRoute:
    """The one formula of the route: a wheel from the verified cache; a prebuilt wheel; else
    the user's folder or archive (``SourceMode.LOCAL``); else the recipe's own source, shipped
    (bundled) or downloaded."""
    if cached is not None:
        return SourceRoute.CACHED
    if prebuilt is not None:
        return SourceRoute.PREBUILT
    if source_mode is SourceMode.LOCAL:
        return SourceRoute.ARCHIVE if local_path is not None and local_path.is_file() \
            else SourceRoute.LOCAL_FOLDER
    if recipe.source.kind is SourceKind.LOCAL:
        return SourceRoute.BUNDLED
    return SourceRoute.DOWNLOAD


@dataclass(frozen=True)
class KernelChoice:
    """What the Kernel page (or the build command's options) chose, as
    :meth:`~kernel_wizard.flow.session.Session.choose` decided it. ``route`` follows from the
    rest when the choice is made (and again for every changed copy: it cannot go stale)."""

    recipe: Recipe
    version: RecipeVersion
    source_mode: SourceMode = SourceMode.DOWNLOAD
    local_path: Path | None = None  # a folder or a .tar.gz/.zip, with SourceMode.LOCAL
    gpu_indices: tuple[int, ...] | None = None  # None: every usable GPU
    prebuilt: WheelCandidate | None = None  # set: download this wheel instead of building
    variant: str | None = None  # the recipe's build variant ("compact"/"full"); None: default
    # set: this wheel, which passed verification with the same PyTorch build, Python and GPU
    # architectures, is taken from the verified-wheel cache instead of building
    cached: CachedWheel | None = None
    route: SourceRoute = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "route", source_route(self.recipe, self.source_mode,
                                                       self.local_path, self.prebuilt,
                                                       self.cached))

    @classmethod
    def default(cls, recipe: Recipe, version: RecipeVersion) -> KernelChoice:
        """The recipe's own source, built: shipped with the wizard (bundled) or downloaded."""
        choice = cls(recipe, version)
        if choice.route is SourceRoute.BUNDLED:
            return replace(choice, source_mode=SourceMode.BUNDLED)
        return choice


def take_cached(wheel: CachedWheel, kernel: str,
                on_event: Callable[[BuildEvent], None]) -> BuildOutcome:
    """The verified wheel from the cache, copied into a staging folder (its digest checked
    again) instead of a build: nothing is compiled. A wheel that changed on disk since it
    was kept is an outcome that says so (the entry is dropped: choose again to build)."""
    stamp = timestamp()
    log_path = logs_dir() / f"{stamp}-{kernel}-cache.log"
    started = time.monotonic()
    on_event(StepEvent(Step.CACHE, StepState.RUNNING))
    lines = [f"# the verified wheel from the cache: {wheel.filename}",
             f"# {wheel.source}; verified on {wheel.verified_on} with PyTorch "
             f"{wheel.built_for.torch} ({wheel.built_for.python_tag})",
             f"# kept in {wheel.folder}"]
    for line in lines:
        on_event(LogLine(line, 0))
    status, hint, copied = BuildStatus.SUCCEEDED, "", None
    try:
        copied = take(wheel, staging_dir() / f"{stamp}-{kernel}-cached")
    except CacheChanged as exc:
        status = BuildStatus.FAILED
        message: str = str(exc)
        hint = N_("Choose the kernel again: the wizard builds it from source.")
    else:
        message = msg("Took {wheel} from the verified-wheel cache (verified on {date}); "
                      "nothing was compiled.", wheel=wheel.filename, date=wheel.verified_on)
    lines.append(message)
    seconds = time.monotonic() - started
    state = StepState.DONE if copied is not None else StepState.FAILED
    on_event(StepEvent(Step.CACHE, state, seconds))
    write_log(log_path, lines, action="write the build log")
    return BuildOutcome(status=status, message=message, hint=hint, plan=None, wheel=copied,
                        log_path=log_path, seconds=seconds, attempts=0, exit_code=None,
                        diagnosis=None, steps=(StepTiming(Step.CACHE, state, seconds),))


def acquire_source(
    choice: KernelChoice,
    emit: Callable[[BuildEvent], None],
    cancel: threading.Event,
    **fetch_options: Any,
) -> Path:
    """The source tree for ``choice``, fetched or checked; progress goes to the log."""
    from kernel_wizard.build.sources import (
        fetch_recipe_source,
        fetch_source,
        prepare_local,
        prepare_local_archive,
        source_spec,
    )

    def say(text: object) -> None:
        emit(LogLine(f"[source] {text}", 0))

    recipe, version, route = choice.recipe, choice.version, choice.route
    if route in (SourceRoute.ARCHIVE, SourceRoute.LOCAL_FOLDER):
        if choice.local_path is None:
            raise PlanError("No local source was chosen.",
                            hint="Choose the folder (or archive) with the kernel's source.")
        spec = source_spec(recipe, version) if recipe.source.kind is not SourceKind.LOCAL \
            else None
        if route is SourceRoute.ARCHIVE:
            tree = prepare_local_archive(choice.local_path, spec, on_event=say)
        else:
            tree = prepare_local(choice.local_path, spec, on_event=say)
    elif route is SourceRoute.BUNDLED:
        tree = fetch_recipe_source(recipe, version, on_event=say)
    else:
        tree = fetch_source(source_spec(recipe, version), on_event=say, on_line=say,
                            cancel=cancel, **fetch_options)
    say(f"using {tree.path} ({tree.kind.value}{', from the cache' if tree.from_cache else ''})")
    return tree.path


def run_pipeline(
    choice: KernelChoice,
    env: PythonEnv,
    hardware: HardwareReport,
    on_event: Callable[[BuildEvent], None] | None = None,
    cancel: threading.Event | None = None,
    *,
    platform: Platform | None = None,
    toolkits: Sequence[CudaToolkit] | ToolkitChoice | None = None,
    build_root: Path | None = None,
    **fetch_options: Any,
) -> BuildOutcome:
    """Source, patches, plan and build, reporting every step. Raises a WizardError when the
    source or a patch fails (nothing was built then); a failed build is an outcome."""
    from kernel_wizard.build.patches import PatchContext, apply_patches
    from kernel_wizard.catalog import OsName

    sink = on_event if on_event is not None else (lambda _event: None)
    preamble: list[str] = []

    def emit(event: BuildEvent) -> None:
        if isinstance(event, LogLine):
            preamble.append(event.text)  # the source and patch steps head the build log
        sink(event)

    stop = cancel if cancel is not None else threading.Event()
    plat = platform if platform is not None else current_platform()
    recipe, version = choice.recipe, choice.version
    if choice.cached is not None:
        return take_cached(choice.cached, recipe.id, sink)
    if choice.prebuilt is not None:
        return fetch_prebuilt(choice.prebuilt, recipe.id, sink, stop, **fetch_options)

    def step(which: Step, state: StepState, seconds: float = 0.0) -> None:
        emit(StepEvent(which, state, seconds))

    with build_slot(choice, emit, stop) as slot:
        started = time.monotonic()
        step(Step.SOURCE, StepState.RUNNING)
        try:
            source = acquire_source(choice, emit, stop, **fetch_options)
        except Exception:
            step(Step.SOURCE, StepState.FAILED, time.monotonic() - started)
            raise
        step(Step.SOURCE, StepState.DONE, time.monotonic() - started)

        torch_cuda = env.torch.cuda_version if env.torch is not None else None
        decided = decide_toolkit(toolkits, torch_cuda, plat)  # the session's, as it is
        toolkit = decided.chosen
        os_name = OsName.parse(plat.name) or OsName.LINUX  # the OS this build runs on
        patches = recipe.patches_for(version, os_name, toolkit.release if toolkit else None)
        request = BuildRequest(recipe, version, env, hardware, source_dir=source,
                               gpu_indices=choice.gpu_indices, build_slot=slot,
                               variant=choice.variant)
        plan = plan_build(request, platform=plat, toolkits=decided, build_root=build_root)
        # the build's own copy, whatever the route: the wizard's bundled source, the user's
        # folder and the cache stay as they are
        root = build_root if build_root is not None else plat.default_build_root()
        plan, staged = stage_plan(plan, env, root, [p.id for p in patches], slot)
        emit(LogLine(f"[source] {staged.describe()}", 0))
        source = staged.path
        if patches and recipe.source.kind is not SourceKind.LOCAL:
            patch_started = time.monotonic()
            step(Step.PATCH, StepState.RUNNING)
            context = PatchContext(os_name, toolkit.release if toolkit else None, version,
                                   recipe.name)
            try:
                results = apply_patches(source, patches, context)
            except Exception:
                step(Step.PATCH, StepState.FAILED, time.monotonic() - patch_started)
                raise
            for result in results:
                emit(LogLine(f"[patch] {result.describe()}", 0))
            step(Step.PATCH, StepState.DONE, time.monotonic() - patch_started)

        emit(PlanEvent(plan))
        try:
            outcome = run_build(plan, sink, stop, preamble=preamble)
        except OSError as exc:  # the log or the wheel's folder could not be written
            _discard_empty(plan.log_path, plan.output_dir)  # nothing half-made stays behind
            raise storage_error(exc, path=plan.log_path, action="write the build log" if
                                exc.filename is None else "prepare the build") from exc
        changed = source_change(staged)
        if changed is not None:
            sink(LogLine(f"[source] {changed}", 0))
        return outcome


def stage_plan(plan: BuildPlan, env: PythonEnv, root: Path, patch_ids: Sequence[str] = (),
               slot: int = 1) -> tuple[BuildPlan, StagedSource]:
    """The one way a build gets its source: ``plan``'s source folder (the bundled probe where
    the wizard ships it, a download in the cache, the user's folder) copied into the build
    root ``root`` (:func:`kernel_wizard.build.worktree.stage_source`; ``slot`` > 1: the copy of
    a build running beside another one of the same source), and the plan moved into that copy.
    :func:`kernel_wizard.build.plan.plan_build` writes nothing; this is where a build starts
    writing, and never into the original.

    The copy is keyed by everything that decides the compiled files: the plan's environment but
    its parallelism, the target Python (``env``) and torch, the CUDA toolkit, the
    architectures, the build variant and the patches (``patch_ids``)."""
    source = plan.source_dir
    compiler = shutil.which(os.environ.get("CXX") or "c++") or ""
    try:
        compiler_stamp = os.stat(compiler).st_mtime_ns if compiler else 0
    except OSError:
        compiler_stamp = 0
    settings = {
        "compiler": [compiler, compiler_stamp],  # Windows: the MSVC paths are in the env below
        "python": str(env.executable),
        "torch": env.torch.version if env.torch is not None else None,
        "cuda": list(plan.cuda_version) if plan.cuda_version else None,
        "archs": list(plan.archs),
        "variant": plan.variant,
        "env": [(c.name, c.value, c.mode.value) for c in plan.env_changes
                if c.name not in PARALLELISM_VARIABLES],
        "patches": list(patch_ids),
    }
    try:
        root.mkdir(parents=True, exist_ok=True)
        staged = stage_source(source, root, settings, slot)
    except SourceChanged as exc:
        raise SourceError(
            msg("The source folder {folder} changed while the wizard copied it.",
                folder=exc.folder),
            why=msg("Files were written or removed in it at the same time (an editor, a git "
                    "checkout or another build)."),
            hint=msg("Wait until nothing writes into it, then build again."),
        ) from None
    except FileNotFoundError as exc:
        if not source.is_dir():
            raise SourceError(
                msg("The source folder {folder} disappeared before the build started.",
                    folder=source),
                hint=msg("Choose the kernel's source again."),
            ) from None
        raise storage_error(exc, path=root, alternative=BUILD_ROOT_ALTERNATIVE,
                            action="copy the kernel's source into the build folder") from exc
    except OSError as exc:
        raise storage_error(exc, path=root, alternative=BUILD_ROOT_ALTERNATIVE,
                            action="copy the kernel's source into the build folder") from exc
    return plan.moved_to(staged.path), staged


def _discard_empty(log: Path, folder: Path) -> None:
    try:
        if log.is_file() and log.stat().st_size == 0:
            log.unlink()
        folder.rmdir()  # only when empty
    except OSError:
        pass


@contextmanager
def build_slot(choice: KernelChoice, emit: Callable[[BuildEvent], None],
               cancel: threading.Event) -> Iterator[int]:
    """Hold the build folder of ``choice`` for the whole build (source, patches, compile).

    A bundled source is copied per build, so a second build of it at the same time takes the
    next free copy (slot); a downloaded or local source is built in its own folder, so a second
    build of it waits — saying who it waits for — instead of deleting the first one's work."""
    recipe = choice.recipe
    purpose = f"building {recipe.name} {choice.version.label}"

    def say(text: str) -> None:
        emit(LogLine(f"[lock] {text}", 0))

    stack = ExitStack()
    slot = 0
    if choice.route is SourceRoute.BUNDLED:
        busy: LockBusy | None = None
        for candidate in range(1, MAX_BUNDLED_SLOTS + 1):
            try:
                held = stack.enter_context(hold(
                    build_lock_path(f"bundled:{recipe.id}:{candidate}"), purpose, wait=False))
            except LockBusy as exc:
                busy = busy or exc
                continue
            slot = candidate
            if busy is not None:
                who = busy.holder.describe() if busy.holder is not None else "another run"
                say(f"Another build of {recipe.name} is running ({who}); this one builds in "
                    "a folder of its own.")
            break
    if slot == 0:
        if choice.route in (SourceRoute.ARCHIVE, SourceRoute.LOCAL_FOLDER) \
                and choice.local_path is not None:
            key = "local:" + os.path.normcase(os.path.abspath(choice.local_path))
        else:
            key = f"source:{recipe.id}:{choice.version.label}:{choice.source_mode.value}"
        held = stack.enter_context(hold(build_lock_path(key), purpose, on_wait=say,
                                        cancel=cancel))
        slot = 1
    with stack:
        if held.took_over is not None:
            say(f"A build lock left by {held.took_over.describe()} — no longer running — was "
                "taken over.")
        yield slot

