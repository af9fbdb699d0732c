"""From the wizard's choices to a :class:`~build_backend.build.BuildPlan`.

:class:`BuildRequest` is what the pages (or the CLI options) chose: which kernel and version,
where its source is, which Python gets it, which GPUs it is for. :func:`plan_build` turns it
into the exact plan: source staged into a short build root, the GPU architectures narrowed to
the selected GPUs, parallelism from this machine's cores and RAM, the CUDA toolkit that fits
torch (with CUDA 13's CCCL header folder), and the recipe's knobs.
"""

from __future__ import annotations

import hashlib
import shutil
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from .build import (
    ArchKnob,
    BuildEvent,
    BuildOutcome,
    BuildPlan,
    EnvChange,
    LogLine,
    PlanEvent,
    Step,
    StepEvent,
    StepState,
    choose_parallelism,
    make_plan,
    run_build,
)
from .catalog import Recipe, RecipeVersion, SourceKind, select_targets
from .environment import PythonEnv
from .errors import WizardError
from .hardware import GpuInfo, HardwareReport
from .paths import logs_dir, staging_dir, timestamp
from .platforms import Platform
from .platforms import current as current_platform
from .resources import resource_path
from .toolkits import CudaToolkit, choose_toolkit, discover_toolkits
from .wheels import WheelCandidate


class PlanError(WizardError):
    """The build cannot be planned (no usable environment, no source, ...)."""


@dataclass(frozen=True)
class KernelSpec:
    """What the build needs to know about a kernel library (from its recipe)."""

    kernel: str
    version: str
    arch_knob: ArchKnob = ArchKnob.TORCH_CUDA_ARCH_LIST
    gb_per_thread: float = 1.5  # peak RAM of one compile thread
    nvcc_threads: int = 1  # threads per nvcc the recipe would like
    uses_nvcc_threads: bool = False  # whether the build honours NVCC_THREADS
    knobs: Mapping[str, str] = field(default_factory=dict)
    min_cc: tuple[int, int] | None = None  # GPUs below this are not built for


PROBE = KernelSpec(kernel="probe", version="0.1.0", gb_per_thread=1.5)


@dataclass(frozen=True)
class BuildRequest:
    spec: KernelSpec
    source_dir: Path  # a prepared source tree (fetched, patched) or the bundled probe
    env: PythonEnv
    hardware: HardwareReport
    gpu_indices: Sequence[int] | None = None  # None: every usable GPU
    stage_source: bool = False  # copy the source into the build root first (bundled sources)
    archs: Sequence[str] | None = None  # the arch knob's values; None: the selected GPUs' own


def spec_from_recipe(
    recipe: Recipe, version: RecipeVersion, arch_values: Sequence[str]
) -> KernelSpec:
    """The build facts of one recipe version.

    nvcc's ``--threads`` only parallelises the *architectures* of one file, so a build for one
    arch gets one thread per nvcc and as many parallel jobs as cores and RAM allow (FlashMLA's
    upstream default of 32 threads would otherwise leave 31 of them idle and starve the jobs).
    """
    default_threads, threads_knob = recipe.nvcc_threads(version)
    threads = max(1, min(default_threads, recipe.build.max_nvcc_threads))
    if arch_values:
        threads = max(1, min(threads, len(arch_values)))
    return KernelSpec(
        kernel=recipe.id,
        version=version.label,
        arch_knob=recipe.knob_for(version),
        gb_per_thread=recipe.build.memory_gb_per_thread,
        nvcc_threads=threads,
        uses_nvcc_threads=threads_knob,
        knobs=dict(recipe.env),
    )


def recipe_request(
    recipe: Recipe,
    version: RecipeVersion,
    source_dir: Path,
    env: PythonEnv,
    hardware: HardwareReport,
    gpu_indices: Sequence[int] | None = None,
) -> BuildRequest:
    """A build of ``recipe`` at ``version`` from a prepared source tree.

    The arch knob gets the recipe's *targets* that serve the selected GPUs (an RTX 3090, cc
    8.6, runs FlashAttention's sm_80 code: FLASH_ATTN_CUDA_ARCHS=80, not 86).
    """
    gpu_archs = selected_archs(hardware.gpus, gpu_indices, None)
    selection = select_targets(recipe, version, gpu_archs)
    spec = spec_from_recipe(recipe, version, selection.values)
    bundled = recipe.source.kind is SourceKind.LOCAL
    return BuildRequest(
        spec=spec,
        source_dir=source_dir,
        env=env,
        hardware=hardware,
        gpu_indices=gpu_indices,
        stage_source=bundled,
        archs=selection.values,
    )


def selected_archs(
    gpus: Sequence[GpuInfo], indices: Sequence[int] | None, min_cc: tuple[int, int] | None
) -> list[str]:
    """The union of the selected GPUs' architectures ("8.6", "9.0"), sorted, deduplicated."""
    chosen = [g for g in gpus if indices is None or g.index in indices]
    ccs = {g.compute_capability for g in chosen if g.compute_capability is not None}
    if min_cc is not None:
        ccs = {cc for cc in ccs if cc >= min_cc}
    return [f"{major}.{minor}" for major, minor in sorted(ccs)]


def stage_bundled_source(source: Path, build_root: Path) -> Path:
    """Copy a bundled source (read-only inside a bundle) to a fresh folder in the build root."""
    digest = hashlib.sha256()
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(source)).encode())
            digest.update(path.read_bytes())
    target = build_root / f"{source.name}-{digest.hexdigest()[:12]}"
    if target.exists():
        shutil.rmtree(target)  # leftovers of an earlier build (build/, *.egg-info) go too
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "build",
                                                                   "*.egg-info", "dist"))
    return target


def plan_build(
    request: BuildRequest,
    *,
    platform: Platform | None = None,
    toolkits: Sequence[CudaToolkit] | None = None,
    build_root: Path | None = None,
    compiler_env: Callable[[CudaToolkit | None, Path], tuple[list[EnvChange], str]] | None = None,
) -> BuildPlan:
    """The plan for ``request``. ``compiler_env`` (default on Windows: the Visual Studio
    environment of the toolset this CUDA accepts, see :mod:`.compiler_env`) gives extra
    environment changes and a note."""
    plat = platform if platform is not None else current_platform()
    env = request.env
    if not env.usable:
        raise PlanError(
            f"The chosen Python cannot be built into: {env.summary}", hint=env.hint
        )
    if env.torch is None:
        raise PlanError(
            "The chosen Python has no PyTorch, which every kernel build needs.",
            hint="Install PyTorch into it (the Prerequisites page offers it), or choose "
            "another environment.",
        )
    spec = request.spec
    root = build_root if build_root is not None else plat.default_build_root()
    root.mkdir(parents=True, exist_ok=True)
    source = request.source_dir
    if not source.is_dir():
        raise PlanError(f"The source folder {source} does not exist.",
                        hint="Choose the kernel's source again (Kernel page or --source).")
    if request.stage_source:
        source = stage_bundled_source(source, root)

    torch_cuda = env.torch.cuda_version
    toolkit: CudaToolkit | None = None
    archs: list[str] = []
    notes: list[str] = []
    if torch_cuda is not None:
        found = list(toolkits) if toolkits is not None else discover_toolkits(plat)
        toolkit = choose_toolkit(found, torch_cuda)
        archs = list(request.archs) if request.archs is not None else selected_archs(
            request.hardware.gpus, request.gpu_indices, spec.min_cc)
        if not archs:
            notes.append("no GPU selected: torch's default architecture list is used")
    host = request.hardware.host
    parallelism = choose_parallelism(
        host.cpu_logical, host.ram_available, spec.gb_per_thread, spec.nvcc_threads
    )
    stamp = timestamp()
    scripts = Path(env.raw.get("python", {}).get("scripts") or env.executable.parent)
    if compiler_env is None and plat.name == "windows":
        compiler_env = windows_compiler_env
    msvc: list[EnvChange] = []
    if compiler_env is not None:
        msvc, msvc_note = compiler_env(toolkit, root)
        notes.append(msvc_note)
    plan = make_plan(
        kernel=spec.kernel,
        version=spec.version,
        source_dir=source,
        python=env.executable,
        python_scripts=scripts,
        output_dir=staging_dir() / f"{spec.kernel}-{stamp}",
        log_path=logs_dir() / f"{stamp}-{spec.kernel}.log",
        parallelism=parallelism,
        archs=archs,
        arch_knob=spec.arch_knob,
        uses_nvcc_threads=spec.uses_nvcc_threads,
        cuda_home=toolkit.root if toolkit else None,
        cuda_version=toolkit.release if toolkit else None,
        host_include_var=plat.host_include_var,
        knobs=spec.knobs,
        extra=_cpu_only(torch_cuda),
        compiler_env=msvc,
    )
    for note in notes:
        plan = plan.with_env(note=note)
    return plan


def windows_compiler_env(
    toolkit: CudaToolkit | None, build_root: Path
) -> tuple[list[EnvChange], str]:
    """Windows: the captured ``vcvarsall.bat`` environment of the MSVC toolset that the
    chosen CUDA toolkit accepts (see :func:`.msvc.build_environment`)."""
    from .msvc import build_environment

    cuda_text = toolkit.version.text if toolkit is not None and toolkit.version else "(none)"
    return build_environment(toolkit.root if toolkit is not None else None, cuda_text,
                             build_root)


def _cpu_only(torch_cuda: tuple[int, int] | None) -> list[EnvChange]:
    if torch_cuda is None:
        return [EnvChange("KSW_PROBE_CPU_ONLY", "1", why="PyTorch here is a CPU-only build")]
    return []


def probe_request(env: PythonEnv, hardware: HardwareReport,
                  gpu_indices: Sequence[int] | None = None) -> BuildRequest:
    """Build the bundled probe kernel into ``env``."""
    return BuildRequest(
        spec=PROBE,
        source_dir=resource_path("probe_kernel"),
        env=env,
        hardware=hardware,
        gpu_indices=gpu_indices,
        stage_source=True,
    )


# -- the whole pipeline: source → patches → plan → build ------------------------------------


class SourceMode(Enum):
    BUNDLED = "bundled"  # shipped with the wizard (the probe)
    DOWNLOAD = "download"  # git clone, or source archives, at the recipe's pinned ref
    LOCAL = "local"  # a folder or archive the user chose (offline, air-gapped)


@dataclass(frozen=True)
class KernelChoice:
    """What the Kernel page (or the build command's options) chose."""

    recipe: Recipe
    version: RecipeVersion
    source_mode: SourceMode = SourceMode.DOWNLOAD
    local_path: Path | None = None  # a folder or a .tar.gz/.zip, with SourceMode.LOCAL
    gpu_indices: tuple[int, ...] | None = None  # None: every usable GPU
    prebuilt: WheelCandidate | None = None  # set: download this wheel instead of building

    @classmethod
    def default(cls, recipe: Recipe, version: RecipeVersion) -> KernelChoice:
        bundled = recipe.source.kind is SourceKind.LOCAL
        return cls(recipe, version, SourceMode.BUNDLED if bundled else SourceMode.DOWNLOAD)


def acquire_source(
    choice: KernelChoice,
    emit: Callable[[BuildEvent], None],
    cancel: threading.Event,
    **fetch_options: Any,
) -> Path:
    """The source tree for ``choice``, fetched or checked; progress goes to the log."""
    from .sources import (
        fetch_recipe_source,
        fetch_source,
        prepare_local,
        prepare_local_archive,
        source_spec,
    )

    def say(text: object) -> None:
        emit(LogLine(f"[source] {text}", 0))

    recipe, version = choice.recipe, choice.version
    if choice.source_mode is SourceMode.LOCAL:
        if choice.local_path is None:
            raise PlanError("No local source was chosen.",
                            hint="Choose the folder (or archive) with the kernel's source.")
        spec = source_spec(recipe, version) if recipe.source.kind is not SourceKind.LOCAL \
            else None
        if choice.local_path.is_file():
            tree = prepare_local_archive(choice.local_path, spec, on_event=say)
        else:
            tree = prepare_local(choice.local_path, spec, on_event=say)
    elif choice.source_mode is SourceMode.BUNDLED or recipe.source.kind is SourceKind.LOCAL:
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
    toolkits: Sequence[CudaToolkit] | None = None,
    build_root: Path | None = None,
    **fetch_options: Any,
) -> BuildOutcome:
    """Source, patches, plan and build, reporting every step. Raises a WizardError when the
    source or a patch fails (nothing was built then); a failed build is an outcome."""
    from .catalog import OsName
    from .patches import PatchContext, apply_patches

    sink = on_event if on_event is not None else (lambda _event: None)
    preamble: list[str] = []

    def emit(event: BuildEvent) -> None:
        if isinstance(event, LogLine):
            preamble.append(event.text)  # the source and patch steps head the build log
        sink(event)

    stop = cancel if cancel is not None else threading.Event()
    plat = platform if platform is not None else current_platform()
    recipe, version = choice.recipe, choice.version
    if choice.prebuilt is not None:
        return fetch_prebuilt(choice.prebuilt, recipe.id, sink, stop, **fetch_options)

    def step(which: Step, state: StepState, seconds: float = 0.0) -> None:
        emit(StepEvent(which, state, seconds))

    started = time.monotonic()
    step(Step.SOURCE, StepState.RUNNING)
    try:
        source = acquire_source(choice, emit, stop, **fetch_options)
    except Exception:
        step(Step.SOURCE, StepState.FAILED, time.monotonic() - started)
        raise
    step(Step.SOURCE, StepState.DONE, time.monotonic() - started)

    found = list(toolkits) if toolkits is not None else discover_toolkits(plat)
    torch_cuda = env.torch.cuda_version if env.torch is not None else None
    toolkit = choose_toolkit(found, torch_cuda) if torch_cuda is not None else None
    patches = recipe.patches_for(version, OsName.WINDOWS if plat.name == "windows"
                                 else OsName.LINUX, toolkit.release if toolkit else None)
    if patches and recipe.source.kind is not SourceKind.LOCAL:
        patch_started = time.monotonic()
        step(Step.PATCH, StepState.RUNNING)
        context = PatchContext(OsName.WINDOWS if plat.name == "windows" else OsName.LINUX,
                               toolkit.release if toolkit else None, version, recipe.name)
        try:
            results = apply_patches(source, patches, context)
        except Exception:
            step(Step.PATCH, StepState.FAILED, time.monotonic() - patch_started)
            raise
        for result in results:
            emit(LogLine(f"[patch] {result.describe()}", 0))
        step(Step.PATCH, StepState.DONE, time.monotonic() - patch_started)

    request = recipe_request(recipe, version, source, env, hardware, choice.gpu_indices)
    plan = plan_build(request, platform=plat, toolkits=found, build_root=build_root)
    emit(PlanEvent(plan))
    return run_build(plan, sink, stop, preamble=preamble)


def fetch_prebuilt(
    candidate: WheelCandidate,
    kernel: str,
    on_event: Callable[[BuildEvent], None],
    cancel: threading.Event,
    **download_options: Any,
) -> BuildOutcome:
    """Download a matching prebuilt wheel (verified, resumable) instead of building one.

    The wheel is then verified and installed exactly like a built one. A failed download is
    an outcome with the reason; the environment is untouched."""
    from .build import BuildStatus, ProgressEvent, StepTiming
    from .download import DownloadProgress, download

    stamp = timestamp()
    folder = staging_dir() / f"{kernel}-{stamp}"
    log_path = logs_dir() / f"{stamp}-{kernel}-download.log"
    started = time.monotonic()
    on_event(StepEvent(Step.DOWNLOAD, StepState.RUNNING))
    lines = [f"# prebuilt wheel from {candidate.source_name}", f"# {candidate.url}"]
    for line in lines[1:]:
        on_event(LogLine(line, 0))

    def progress(p: DownloadProgress) -> None:
        total = (p.total or 0) // 1024
        on_event(ProgressEvent(p.received // 1024, total, p.eta_seconds))

    status, message, hint, wheel = BuildStatus.SUCCEEDED, "", "", None
    try:
        result = download(candidate.url, folder / candidate.filename, progress=progress,
                          cancel=cancel, sha256=candidate.sha256,
                          expected_size=candidate.size, **download_options)
    except WizardError as exc:
        cancelled = cancel.is_set()
        status = BuildStatus.CANCELLED if cancelled else BuildStatus.FAILED
        message = ("The download was cancelled; nothing was installed." if cancelled
                   else f"The prebuilt wheel could not be downloaded: {exc.what}")
        hint = exc.hint or "Build from source instead (Kernel page)."
        lines.append(exc.describe())
    else:
        wheel = result.path
        message = f"Downloaded {candidate.filename} ({result.size // 1024} KiB)."
        lines.append(f"{message} sha256 {result.sha256}")
    seconds = time.monotonic() - started
    state = (StepState.DONE if wheel is not None
             else StepState.CANCELLED if status is BuildStatus.CANCELLED else StepState.FAILED)
    on_event(StepEvent(Step.DOWNLOAD, state, seconds))
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return BuildOutcome(status=status, message=message, hint=hint, plan=None, wheel=wheel,
                        log_path=log_path, seconds=seconds, attempts=1, exit_code=None,
                        diagnosis=None, steps=(StepTiming(Step.DOWNLOAD, state, seconds),))
