"""One home for planning: a build request becomes the exact :class:`BuildPlan`.

Everything that decides *how* a kernel is built lives here, and every front end asks this
module: the pipeline before a build, ``build --plan-only``, the Kernel page's estimate and the
Build page's "what will run".

* :class:`BuildRequest` — the kernel and version (a recipe; the bundled probe is one too), the
  source tree, the target Python, the hardware and the selected GPUs.
* :func:`machine_for` — the one description of "this machine" that the compatibility verdicts
  (:func:`kernel_wizard.catalog.assess`) and the plan share.
* :func:`build_archs` — the one place that turns the selected GPUs into what is compiled
  (the recipe's targets that serve them, or their own archs), honouring the recipe's limits.
* :func:`arch_env` — how the recipe's arch knob is told, read from the recipe alone.
* :func:`plan_parallelism` — MAX_JOBS × NVCC_THREADS for this recipe on this machine (the
  estimate uses the same numbers).
* :func:`plan_build` — the plan: the source folder it reads, the CUDA toolkit that fits torch
  (CUDA 13's CCCL folder on the host include path), the compiler environment (Windows:
  :func:`windows_compiler_env`, through :mod:`.msvc`), the recipe's knobs, a CPU-only switch
  where the recipe has one, and where the wheel and the log go. Planning writes nothing: the
  build step copies the source into the build root (:mod:`kernel_wizard.build.worktree`, one
  copy step for every source, the bundled probe included) and creates the wheel's and the
  log's folders when it runs.
* :func:`estimate_build` — how long that takes here, from the recipe's measured costs.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from kernel_wizard.base.advice import choose_python, choose_source, prerequisite_fix
from kernel_wizard.base.errors import WizardError
from kernel_wizard.base.messages import join, msg
from kernel_wizard.base.parallelism import (
    RAM_HEADROOM,
    Parallelism,
    choose_parallelism,
    jobs_text,
    limit_text,
    threads_text,
)
from kernel_wizard.base.paths import logs_dir, staging_dir, timestamp
from kernel_wizard.base.processes import (
    EnvChange,
    EnvMode,
    QuoteStyle,
    child_environment,
    quote_arg,
)
from kernel_wizard.base.resources import resource_path
from kernel_wizard.build.buildtimes import (
    BuildRecord,
    find_record,
    load_records,
    prior_from_record,
    record_version,
)
from kernel_wizard.build.eta import Prior, PriorSource, RunPlan, plan_run
from kernel_wizard.catalog import (
    GIB,
    ArchKnob,
    ArchSelection,
    BuildCosts,
    BuildVariant,
    Machine,
    OsName,
    Recipe,
    RecipeVersion,
    SourceKind,
    arch_list,
    select_targets,
)
from kernel_wizard.machine.environment import PythonEnv
from kernel_wizard.machine.hardware import HardwareReport
from kernel_wizard.machine.platforms import Platform
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.machine.toolchain import cccl_include_dir
from kernel_wizard.machine.toolkits import CudaToolkit, ToolkitChoice, cuda_bin_dirs, decide_toolkit


class PlanError(WizardError):
    """The build cannot be planned (no usable environment, no source, ...)."""


# -- the plan ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BuildPlan:
    """Exactly what a build will run. Nothing else is run."""

    kernel: str  # recipe id
    version: str
    source_dir: Path
    python: Path
    command: tuple[str, ...]
    cwd: Path
    env_changes: tuple[EnvChange, ...]
    output_dir: Path  # the wheel appears here (a staging folder, never site-packages)
    log_path: Path
    parallelism: Parallelism
    archs: tuple[str, ...] = ()
    cuda_home: Path | None = None
    cuda_version: tuple[int, int] | None = None
    host_include_var: str = "CPLUS_INCLUDE_PATH"  # INCLUDE for MSVC
    notes: tuple[str, ...] = ()
    estimate: BuildEstimate | None = None  # how long it should take (the ETA's prior)
    variant: str = ""  # the recipe's build variant ("compact"); "" for a recipe without any

    def environment(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """The full environment of the build: ``base`` (default: this process's) without
        secrets, + changes (:func:`kernel_wizard.base.processes.child_environment`)."""
        return child_environment(self.env_changes, base)

    def env_value(self, name: str) -> str | None:
        for change in reversed(self.env_changes):
            if change.name == name:
                return change.value
        return None

    def with_env(self, *changes: EnvChange, note: str = "") -> BuildPlan:
        """A copy with these changes replacing any earlier change of the same variable."""
        names = {c.name for c in changes if c.mode is EnvMode.SET}
        kept = tuple(c for c in self.env_changes if c.name not in names)
        notes = self.notes + ((note,) if note else ())
        return replace(self, env_changes=kept + tuple(changes), notes=notes)

    def moved_to(self, source: Path) -> BuildPlan:
        """The same plan run in a copy of its source (the build's own copy, see
        :mod:`kernel_wizard.build.worktree`): the working folder moves along."""
        cwd = source / self.cwd.relative_to(self.source_dir) if self.cwd.is_relative_to(
            self.source_dir) else self.cwd
        return replace(self, source_dir=source, cwd=cwd)

    def describe(self) -> str:
        """'What will run', copyable into a terminal (POSIX shell syntax)."""
        lines = [f"# {self.kernel} {self.version}: build a wheel into {self.output_dir}"]
        lines += [f"# {note}" for note in self.notes]
        lines.append(f"cd {_quote(str(self.cwd))}")
        for change in self.env_changes:
            value = _quote(change.value)
            if change.mode is EnvMode.PREPEND:
                value = f'{value}"{os.pathsep}${change.name}"'
            comment = f"  # {change.why}" if change.why else ""
            lines.append(f"export {change.name}={value}{comment}")
        lines.append(" ".join(_quote(part) for part in self.command))
        return "\n".join(lines)


def _quote(text: str) -> str:
    return quote_arg(text, QuoteStyle.POSIX)  # "what will run" is shown in POSIX shell syntax


def make_plan(
    *,
    kernel: str,
    version: str,
    source_dir: Path,
    python: Path,
    python_scripts: Path | None,
    output_dir: Path,
    log_path: Path,
    parallelism: Parallelism,
    archs: Sequence[str] = (),
    arch_changes: Sequence[EnvChange] = (),
    uses_nvcc_threads: bool = False,
    cuda_home: Path | None = None,
    cuda_version: tuple[int, int] | None = None,
    host_include_var: str = "CPLUS_INCLUDE_PATH",
    knobs: Mapping[str, str] | None = None,
    extra: Sequence[EnvChange] = (),
    compiler_env: Sequence[EnvChange] = (),
    platform_name: str | None = None,
) -> BuildPlan:
    """Compose the plan from decided parts (:func:`plan_build` decides them). ``compiler_env``:
    the captured MSVC environment (Windows), applied first so the PATH and include additions
    below go in front of it; ``arch_changes``: :func:`arch_env`'s; ``extra``: the rest;
    ``platform_name``: "windows"/"linux" (default: this machine's)."""
    changes: list[EnvChange] = [
        EnvChange("PYTHONUNBUFFERED", "1", why="stream the build's output as it happens"),
        EnvChange("PIP_NO_INPUT", "1"),
        EnvChange("PIP_DISABLE_PIP_VERSION_CHECK", "1"),
        *compiler_env,
        EnvChange("MAX_JOBS", str(parallelism.jobs), why=parallelism.reason),
    ]
    if uses_nvcc_threads:
        changes.append(EnvChange("NVCC_THREADS", str(parallelism.nvcc_threads)))
    if python_scripts is not None:
        changes.append(EnvChange("PATH", str(python_scripts), EnvMode.PREPEND,
                                 why="the target environment's ninja"))
    notes: list[str] = []
    if cuda_home is not None:
        changes.append(EnvChange("CUDA_HOME", str(cuda_home), why="the CUDA toolkit to use"))
        for folder in reversed(cuda_bin_dirs(cuda_home, cuda_version, platform_name
                                             or current_platform().name)):
            changes.append(EnvChange("PATH", str(folder), EnvMode.PREPEND,
                                     why="its nvcc first on PATH" if folder.name == "bin"
                                     else "CUDA 13's runtime DLLs (Windows)"))
        cccl = cccl_include_dir(cuda_home, cuda_version) if cuda_version else None
        if cccl is not None:
            changes.append(
                EnvChange(host_include_var, str(cccl), EnvMode.PREPEND,
                          why="CUDA 13 keeps the CCCL headers (cuda/std/...) here; the host "
                          "compiler does not look there by itself")
            )
            notes.append("CUDA 13: CCCL headers added to the host include path")
    changes += list(arch_changes)
    for name, value in (knobs or {}).items():
        changes.append(EnvChange(name, value, why="recipe setting"))
    changes += list(extra)
    command = (
        str(python), "-m", "pip", "wheel", ".", "--no-build-isolation", "--no-deps",
        "-w", str(output_dir), "-v",
    )
    return BuildPlan(
        kernel=kernel,
        version=version,
        source_dir=source_dir,
        python=python,
        command=command,
        cwd=source_dir,
        env_changes=tuple(changes),
        output_dir=output_dir,
        log_path=log_path,
        parallelism=parallelism,
        archs=tuple(archs),
        cuda_home=cuda_home,
        cuda_version=cuda_version,
        host_include_var=host_include_var,
        notes=tuple(notes),
    )


# -- the request and the machine ------------------------------------------------------------


@dataclass(frozen=True)
class BuildRequest:
    """What the pages (or the CLI's options) chose for one build."""

    recipe: Recipe
    version: RecipeVersion
    env: PythonEnv
    hardware: HardwareReport
    # the source tree as fetched or chosen (read, never written: the build runs in its own
    # copy); None: the recipe's bundled source, where it ships
    source_dir: Path | None = None
    gpu_indices: tuple[int, ...] | None = None  # None: every usable GPU
    # builds of one bundled source running at once each hold a slot (the pipeline holds its
    # lock): a slot > 1 gets wheel and log names of its own, and a copy of its own
    build_slot: int = 1
    variant: str | None = None  # the recipe's build variant; None: its default


def machine_for(
    hardware: HardwareReport,
    env: PythonEnv,
    *,
    selected: Sequence[int] | None = None,
    toolkits: Sequence[CudaToolkit] | ToolkitChoice | None = None,
    platform: Platform | None = None,
) -> Machine:
    """The machine the verdicts and the plan look at: the hardware, the target Python, this
    OS, the CUDA toolkit a build would use and the GPUs. ``toolkits``: the session's decision
    (:class:`~kernel_wizard.machine.toolkits.ToolkitChoice`, taken as it is), or for direct callers
    the toolkits to choose from (None: those found here)."""
    plat = platform if platform is not None else current_platform()
    torch_cuda = env.torch.cuda_version if env.torch is not None else None
    release = decide_toolkit(toolkits, torch_cuda, plat).release
    # the OS the hardware report was taken on (a recording of another machine says its own)
    os_name = platform.name if platform is not None else None
    return Machine.from_reports(hardware, env, os_name=os_name, toolkit=release,
                                selected=selected)


def build_archs(recipe: Recipe, version: RecipeVersion, machine: Machine) -> ArchSelection:
    """What a build of ``version`` compiles for the machine's selected GPUs.

    The one place GPU architectures are computed for a build: the selected GPUs' own archs
    (:func:`kernel_wizard.catalog.arch_list`), of which the recipe's targets that serve them
    are chosen (an RTX 3090, cc 8.6, runs FlashAttention's sm_80 code) — or, for recipes
    without targets, the archs the recipe supports (the probe's ``min_cc``)."""
    return select_targets(recipe, version, arch_list(machine))


def arch_env(recipe: Recipe, version: RecipeVersion,
             selection: ArchSelection) -> list[EnvChange]:
    """The environment changes that narrow a build to ``selection``, read from the recipe:
    its ``arch_knob`` says the form, its targets' ``disable_env`` the flags to set."""
    knob = recipe.knob_for(version)
    values = selection.values
    if not values or knob is ArchKnob.NONE:
        return []
    why = "build only for the selected GPUs"
    if knob is ArchKnob.TORCH_CUDA_ARCH_LIST:
        return [EnvChange("TORCH_CUDA_ARCH_LIST", ";".join(values), why=why)]
    if knob is ArchKnob.FLASH_ATTN_CUDA_ARCHS:
        return [EnvChange("FLASH_ATTN_CUDA_ARCHS",
                          ";".join(v.replace(".", "") for v in values), why=why)]
    return [EnvChange(t.disable_env, "1", why=f"no GPU that runs {t.name} code is selected")
            for t in recipe.targets_for(version) if t.disable_env and t.arch not in values]


def _n_targets(recipe: Recipe, selection: ArchSelection, cpu_only: bool) -> int:
    """How many architectures the build compiles (0: the CPU part only)."""
    if cpu_only:
        return 0
    if recipe.targets:
        return len(selection.targets)
    if selection.values:
        return len(selection.values)
    return 0 if recipe.requirements.cpu_fallback and not selection.gpu_archs else 1


def plan_parallelism(recipe: Recipe, version: RecipeVersion, n_targets: int, cpu_cores: int,
                     ram_available_bytes: int) -> Parallelism:
    """Compile jobs × nvcc threads for this recipe version here.

    nvcc's ``--threads`` only parallelises the *architectures* of one file, so a build for one
    arch gets one thread per nvcc and as many parallel jobs as cores and RAM allow (FlashMLA's
    upstream default of 32 threads would leave 31 of them idle and starve the jobs). A version
    that does not read NVCC_THREADS runs its fixed thread count: the RAM sum counts it."""
    costs = recipe.build
    default_threads, knob = recipe.nvcc_threads(version)
    if knob:
        cap = max(1, min(default_threads, costs.max_nvcc_threads, max(1, n_targets)))
        return choose_parallelism(cpu_cores, ram_available_bytes, costs.memory_gb_per_thread,
                                  cap)
    threads = max(1, default_threads)
    if threads == 1:
        return choose_parallelism(cpu_cores, ram_available_bytes, costs.memory_gb_per_thread, 1)
    cores = max(1, cpu_cores)
    ram_gb = max(ram_available_bytes, 0) / GIB
    per_job = costs.memory_gb_per_thread * threads
    by_ram = max(1, math.floor(ram_gb * RAM_HEADROOM / max(per_job, 0.1)))
    jobs = max(1, min(cores, by_ram))
    return Parallelism(
        jobs, threads,
        msg("{jobs} × {threads} (fixed by this version): limited by {limit} ({cores} cores, "
            "{ram_gb:.1f} GB RAM available, ~{gb:g} GB per compile thread)",
            jobs=jobs_text(jobs), threads=threads_text(threads), limit=limit_text(by_ram < cores),
            cores=cores, ram_gb=ram_gb, gb=costs.memory_gb_per_thread))


# -- the plan of a request --------------------------------------------------------------------


CompilerEnv = Callable[[CudaToolkit | None, Path], tuple[list[EnvChange], str]]


def plan_build(
    request: BuildRequest,
    *,
    platform: Platform | None = None,
    toolkits: Sequence[CudaToolkit] | ToolkitChoice | None = None,
    build_root: Path | None = None,
    compiler_env: CompilerEnv | None = None,
) -> BuildPlan:
    """The plan for ``request``, computed from what it is given: it reads the source folder
    (that it exists, where the package lives) and the build-time records (the estimate), and
    writes nothing. The plan names the request's source where it is; the build runs it in its
    own copy (:func:`kernel_wizard.flow.pipeline.stage_plan`), so one plan serves
    ``--plan-only``, the pages' preview and the build alike.

    ``compiler_env`` (default on Windows: the Visual Studio environment of the toolset this
    CUDA accepts, with its short TEMP under ``build_root``) gives extra environment changes and
    a note. ``toolkits``: the session's toolkit decision, taken as it is; a direct caller may
    give the toolkits to choose from, or None (those found here)."""
    plat = platform if platform is not None else current_platform()
    env = request.env
    recipe, version = request.recipe, request.version
    if not env.usable:
        raise PlanError(f"The chosen Python ({env.executable}) cannot be built into: "
                        f"{env.summary}", hint=env.hint)
    if env.torch is None:
        raise PlanError(
            f"The chosen Python ({env.executable}) has no PyTorch, which every kernel build "
            "needs.",
            hint=f"Install PyTorch into it ({prerequisite_fix('python-env')}), or "
            f"{choose_python()}.",
        )
    torch_cuda = env.torch.cuda_version
    cpu_only = torch_cuda is None
    if cpu_only and not recipe.requirements.cpu_fallback:
        raise PlanError(
            f"{recipe.name} needs a CUDA build of PyTorch; {env.executable} has a CPU-only one.",
            hint=f"Install a CUDA build of PyTorch ({prerequisite_fix('python-env')}), or "
            f"{choose_python()}.",
        )
    source = request.source_dir
    if source is None:  # the bundled route: the source that comes with the wizard
        if recipe.source.kind is not SourceKind.LOCAL:
            raise PlanError(f"{recipe.name} needs its source first.",
                            hint=f"Say where the source comes from: {choose_source()}.")
        source = resource_path(recipe.source.path or "")
    if not source.is_dir():
        raise PlanError(f"The source folder {source} does not exist.",
                        hint=f"Choose the kernel's source again: {choose_source()}.")
    variant = recipe.variant(request.variant)
    package_dir = source / recipe.source.subdir if recipe.source.subdir else source
    if not package_dir.is_dir():
        raise PlanError(
            f"The source folder {source} has no '{recipe.source.subdir}' folder, where "
            f"{recipe.name}'s setup.py lives.",
            hint=f"Choose the whole {recipe.name} repository as the source: "
            f"{choose_source()}.")
    root = build_root if build_root is not None else plat.default_build_root()

    # the toolkit decided once: the session's decision as it is (a direct caller's: here)
    decided = decide_toolkit(toolkits, torch_cuda, plat)
    toolkit = decided.chosen
    # the one machine description (the OS the hardware report was taken on: a --replay
    # recording plans for its own OS), with that toolkit
    machine = machine_for(request.hardware, env, selected=request.gpu_indices,
                          toolkits=decided)
    selection = build_archs(recipe, version, machine)
    archs: tuple[str, ...] = () if cpu_only else selection.values
    notes: list[str] = []
    if not cpu_only and not selection.gpu_archs:
        notes.append("no GPU selected: the library's default architecture list is built")
    host = request.hardware.host
    parallelism = plan_parallelism(recipe, version, _n_targets(recipe, selection, cpu_only),
                                   host.cpu_logical, host.ram_available)
    stamp = timestamp()
    slot = f"-{request.build_slot}" if request.build_slot > 1 else ""  # builds side by side
    scripts = Path(env.raw.get("python", {}).get("scripts") or env.executable.parent)
    if compiler_env is None and plat.name == "windows":
        compiler_env = windows_compiler_env
    msvc: list[EnvChange] = []
    if compiler_env is not None:
        msvc, msvc_note = compiler_env(toolkit, root)
        notes.append(msvc_note)
    extra: list[EnvChange] = []
    if cpu_only and recipe.build.cpu_only_env:
        extra.append(EnvChange(recipe.build.cpu_only_env, "1",
                               why="PyTorch here is a CPU-only build: the CPU part only"))
    if variant is not None:
        for name, value in variant.env.items():
            extra.append(EnvChange(name, value, why=variant.label))
        notes.append(msg("{label}: {description}", label=variant.label,
                         description=variant.description))
    _, threads_knob = recipe.nvcc_threads(version)
    plan = make_plan(
        kernel=recipe.id,
        version=version.label,
        source_dir=source,
        python=env.executable,
        python_scripts=scripts,
        output_dir=staging_dir(create=False) / f"{recipe.id}-{stamp}{slot}",
        log_path=logs_dir(create=False) / f"{stamp}-{recipe.id}{slot}.log",
        parallelism=parallelism,
        archs=archs,
        arch_changes=() if cpu_only else arch_env(recipe, version, selection),
        uses_nvcc_threads=threads_knob,
        cuda_home=toolkit.root if toolkit else None,
        cuda_version=toolkit.release if toolkit else None,
        host_include_var=plat.host_include_var,
        knobs=recipe.env,
        extra=extra,
        compiler_env=msvc,
        platform_name=plat.name,
    )
    if package_dir != source:
        plan = replace(plan, cwd=package_dir)
    for note in notes:
        plan = plan.with_env(note=note)
    expected = estimate_build(recipe, version, list(selection.gpu_archs), host.cpu_logical,
                              host.ram_available / GIB, machine.os, cpu_only=cpu_only,
                              records=load_records(), variant=variant)
    return replace(plan, estimate=expected, variant=variant.id if variant else "")


def windows_compiler_env(
    toolkit: CudaToolkit | None, build_root: Path
) -> tuple[list[EnvChange], str]:
    """Windows: the captured ``vcvarsall.bat`` environment of the MSVC toolset that the
    chosen CUDA toolkit accepts (see :func:`.msvc.build_environment`)."""
    from kernel_wizard.machine.msvc import build_environment

    cuda_text = toolkit.version.text if toolkit is not None and toolkit.version else "(none)"
    return build_environment(toolkit.root if toolkit is not None else None, cuda_text,
                             build_root)


# -- how long it takes ------------------------------------------------------------------------


@dataclass(frozen=True)
class BuildEstimate:
    seconds: float
    jobs: int  # parallel compile jobs (MAX_JOBS)
    nvcc_threads: int  # threads per nvcc
    parallel: float  # compile threads busy at once
    core_seconds: float  # total compile work
    targets: int  # archs compiled
    explanation: str
    units: int = 0  # what ninja compiles ([n/N]'s N)
    unit_seconds: float = 0.0  # one unit, wall clock, at this parallelism (mean)
    longest_unit_seconds: float = 0.0  # the slowest unit (0: none stands out)
    # where the targets' slowest units differ (FlashMLA for sm90 and sm100: 214 s and 128 s),
    # each target's, longest first (the first is ``longest_unit_seconds``); () otherwise
    slow_unit_seconds: tuple[float, ...] = ()
    setup_seconds: float = 0.0  # pip and setup.py before the first unit
    tail_seconds: float = 0.0  # link and wheel after the last unit
    extensions: int = 1  # ninja runs (one per torch extension) that share ``units``
    # those runs one by one where the recipe lists its extensions (the selected targets'),
    # or from the user's last build
    runs: tuple[RunPlan, ...] = ()
    history: BuildRecord | None = None  # set: from the user's own last build of it here

    def prior(self) -> Prior:
        """What the build's ETA expects before the build has measured anything."""
        if self.history is not None:
            return prior_from_record(self.history, self.jobs)
        return Prior(
            total_seconds=self.seconds, jobs=self.jobs, unit_seconds=self.unit_seconds,
            units=self.units or None, setup_seconds=self.setup_seconds,
            tail_seconds=self.tail_seconds, longest_unit_seconds=self.longest_unit_seconds,
            slow_unit_seconds=self.slow_unit_seconds,
            source=PriorSource.RECIPE, runs=self.extensions, run_plan=self.runs,
            # no CPU signal from the recipe's core-seconds: they were measured on other CPUs
            # (the probe's 34 on the H100 machine's Xeons took 27.5-29.8 here), and divided by
            # a small share that error grows to minutes; a fresh SageAttention build on an H200
            # held 28/100 of its moments within the goal with it, 100/100 without
            # (docs/recorded/h200-2026-11-28b). The user's own last build here gives them.
            compile_core_seconds=0.0,
        )


def estimate_build(
    recipe: Recipe,
    version: RecipeVersion,
    archs: Sequence[str],
    cpu_cores: int,
    ram_gb: float,
    os: OsName,
    *,
    cpu_only: bool = False,
    records: Sequence[BuildRecord] = (),
    variant: BuildVariant | None = None,
) -> BuildEstimate:
    """A build-time estimate: the user's own last build of this kernel version for these
    archs on this machine when ``records`` hold one, else the recipe's calibrated costs and
    this machine's parallelism.

    * Work: ``translation_units_per_arch × targets × core_seconds_per_unit`` CPU-core-seconds
      of device code, plus ``host_core_seconds`` of arch-independent code. ``targets`` is what
      :func:`select_targets` picks for ``archs`` (a fixed list when the version has no knob;
      upstream's default list when ``archs`` is empty; none for a CPU-only probe).
    * Parallelism: :func:`plan_parallelism`, the build plan's own rule (jobs × nvcc threads
      from the cores and ``memory_gb_per_thread`` of the available RAM). An nvcc thread only
      helps with more than one arch, and there can't be more jobs than units.
    * The longest unit: ``slowest_unit_core_seconds`` per arch; the compile can't end before
      it, however many jobs run.
    * Time: ``(fixed_seconds + max(work / parallel, longest unit)) × windows_factor`` (on
      Windows).

    A build ``variant`` (default: the recipe's default one) replaces the unit count and costs
    it names.

    Calibrated from measured builds (``tests/data/buildtimes/README.md``).
    """
    costs = recipe.build
    if variant is None:
        variant = recipe.default_variant
    selection = select_targets(recipe, version, archs)
    n_targets = _n_targets(recipe, selection, cpu_only)
    units = recipe.translation_units(version)
    if variant is not None:
        if variant.core_seconds_per_unit is not None:
            costs = replace(costs, core_seconds_per_unit=variant.core_seconds_per_unit)
        if variant.slowest_unit_core_seconds is not None:
            costs = replace(costs, slowest_unit_core_seconds=variant.slowest_unit_core_seconds)
        if variant.translation_units_per_arch is not None:
            units = variant.translation_units_per_arch
    cores = max(1, cpu_cores)
    par = plan_parallelism(recipe, version, n_targets, cores, int(max(ram_gb, 0.0) * GIB))
    jobs, threads = par.jobs, par.nvcc_threads
    useful_threads = max(1, min(threads, max(1, n_targets)))
    factor = costs.windows_factor if os is OsName.WINDOWS else 1.0
    runs = _extension_runs(costs, {t.arch for t in selection.targets}, n_targets,
                           useful_threads, min(jobs, cores), factor)
    slow: tuple[float, ...] = ()
    if runs:  # the recipe knows its extensions: each run's units for the selected targets
        ninja_units = sum(r.units for r in runs)
        all_costs = [c for r in runs for _, c in r.costs]
        work = sum(all_costs) / factor * useful_threads
        parallel = float(max(1, min(cores, jobs * useful_threads, ninja_units * useful_threads)))
        per_unit = sum(all_costs) / factor / max(1, len(all_costs))
        longest = max(all_costs, default=0.0) / factor
        compile_s = sum(r.seconds for r in runs) / factor
    else:
        device_work = units * n_targets * costs.core_seconds_per_unit
        work = device_work + costs.host_core_seconds
        # what ninja compiles: the device units (when there are archs) and the host unit
        ninja_units = max(1, (units if n_targets else 0)
                          + (1 if costs.host_core_seconds > 0 else 0))
        parallel = float(max(1, min(cores, jobs * useful_threads, ninja_units * useful_threads)))
        per_unit = (device_work / useful_threads + costs.host_core_seconds) / ninja_units
        longest = _slowest_unit(costs, [t.arch for t in selection.targets], n_targets,
                                useful_threads)
        slow = _slow_units(costs, [t.arch for t in selection.targets], longest, useful_threads,
                           n_targets)
        compile_s = max(work / parallel, longest)
    seconds = (costs.fixed_seconds + compile_s) * factor
    tail = min(costs.tail_seconds, costs.fixed_seconds) * factor
    what = (msg("the CPU part") if n_targets == 0 else
            msg("{count} extensions, {units} units", count=len(runs), units=ninja_units)
            if len(runs) > 1 else
            msg("{count} arch × {units} units", count=n_targets, units=units) if n_targets == 1
            else msg("{count} archs × {units} units", count=n_targets, units=units))
    explanation = join([
        msg("{what}: ~{work:,.0f} CPU-core-seconds on {parallel:.0f} compile threads ({jobs} × "
            "{threads}, {cores} cores, {ram_gb:.0f} GB RAM)", what=what, work=work,
            parallel=parallel, jobs=msg("{count} job", count=jobs) if jobs == 1
            else msg("{count} jobs", count=jobs), threads=threads_text(threads), cores=cores,
            ram_gb=ram_gb),
        msg("; one extension after another, each bound by its slowest unit (~{seconds:,.0f} s "
            "in all)", seconds=compile_s)
        if len(runs) > 1 and compile_s > work / parallel * 1.05 else
        msg("; bound by its slowest unit (~{seconds:,.0f} s)", seconds=longest)
        if longest > work / parallel else "",
        msg(", × {factor:g} on Windows", factor=factor) if factor != 1.0 else "",
    ], "")
    history = find_record(recipe.id, record_version(version.label, variant.id if variant else ""),
                          () if cpu_only else selection.values, records) if records else None
    estimate = BuildEstimate(
        seconds=seconds,
        jobs=jobs,
        nvcc_threads=threads,
        parallel=parallel,
        core_seconds=work,
        targets=n_targets,
        explanation=explanation,
        units=ninja_units,
        extensions=len(runs) or costs.extensions,
        runs=runs,
        unit_seconds=per_unit * factor,
        longest_unit_seconds=longest * factor,
        slow_unit_seconds=tuple(c * factor for c in slow),
        setup_seconds=max(0.0, costs.fixed_seconds * factor - tail),
        tail_seconds=tail,
    )
    if history is None:
        return estimate
    prior = prior_from_record(history, jobs)
    when = history.when[:10] or msg("earlier")
    return replace(
        estimate, seconds=prior.total_seconds, history=history,
        units=prior.units or ninja_units, unit_seconds=prior.unit_seconds,
        runs=prior.run_plan, extensions=prior.runs if prior.run_plan else estimate.extensions,
        longest_unit_seconds=prior.longest_unit_seconds, setup_seconds=prior.setup_seconds,
        tail_seconds=prior.tail_seconds,
        explanation=join([
            msg("your last build of it on this computer ({when}) took {took} with {jobs} "
                "parallel jobs", when=when, took=_minutes(history.total_seconds),
                jobs=history.jobs),
            msg("; this one runs {jobs}", jobs=jobs) if jobs != history.jobs else "",
        ], ""),
    )


def _slowest_unit(costs: BuildCosts, targets: Sequence[str], n_targets: int,
                  useful_threads: int) -> float:
    """The slowest unit's wall-clock seconds: each target's slowest-unit core-seconds (its
    own figure where the recipe gives one, else ``slowest_unit_core_seconds``), compiled by
    ``useful_threads`` nvcc threads side by side: at least the slowest target's, and at least
    their sum shared among the threads. 0: no unit stands out, or no arch is compiled."""
    if not n_targets or not costs.slowest_unit_core_seconds:
        return 0.0
    per_target = costs.slowest_unit_core_seconds_per_target
    each = [per_target.get(t, costs.slowest_unit_core_seconds) for t in targets]
    each += [costs.slowest_unit_core_seconds] * max(0, n_targets - len(each))
    return max(max(each), sum(each) / max(1, useful_threads))


def _slow_units(costs: BuildCosts, targets: Sequence[str], longest: float, useful_threads: int,
                n_targets: int) -> tuple[float, ...]:
    """Each target's slowest unit where they differ and nvcc compiles the targets side by
    side (a thread each), longest first: the build has a slow unit of each. () otherwise."""
    per_target = costs.slowest_unit_core_seconds_per_target
    if not longest or not per_target or useful_threads < n_targets:
        return ()
    each = sorted({per_target.get(t, costs.slowest_unit_core_seconds) for t in targets},
                  reverse=True)
    return (longest, *each[1:]) if len(each) > 1 else ()


def _extension_runs(costs: BuildCosts, targets: set[str], n_targets: int, useful_threads: int,
                    slots: int, factor: float) -> tuple[RunPlan, ...]:
    """The ninja runs of a recipe that lists its extensions (``[[build.extension]]``): those
    the selected ``targets`` build, in setup.py's order, each unit's expected wall-clock time
    (a device unit's work grows with the archs, nvcc's threads share it) scheduled onto
    ``slots`` compile jobs. () when the recipe does not list them."""
    runs = []
    for ext in costs.extension_list:
        if not ext.built_for(targets):
            continue
        per_unit = ext.core_seconds_per_unit if ext.core_seconds_per_unit is not None \
            else costs.core_seconds_per_unit
        slowest = ext.slowest_unit_core_seconds if ext.slowest_unit_core_seconds is not None \
            else per_unit
        host = ext.host_core_seconds if ext.host_core_seconds is not None \
            else costs.host_core_seconds
        device = max(0, ext.units - ext.host_units)
        scale = max(1, n_targets) / useful_threads * factor
        unit_costs = ([slowest * scale] if device else []) + [per_unit * scale] * (device - 1) \
            + [host * factor] * (ext.units - device)
        runs.append(plan_run([("", c) for c in unit_costs], slots))
    return tuple(runs)


def _minutes(seconds: float) -> str:
    if seconds < 90:
        return msg("{seconds:.0f} s", seconds=seconds)
    return msg("{minutes:.0f} min", minutes=seconds / 60)


def estimate_build_seconds(
    recipe: Recipe,
    version: RecipeVersion,
    archs: Sequence[str],
    cpu_cores: int,
    ram_gb: float,
    os: OsName,
    variant: BuildVariant | None = None,
) -> float:
    """Seconds a source build should take (of ``variant``; None: the recipe's default one);
    see :func:`estimate_build` for the model."""
    return estimate_build(recipe, version, archs, cpu_cores, ram_gb, os, variant=variant).seconds

