"""The kernel catalog: recipes as data, and whether a kernel version fits this machine.

Every ``resources/recipes/*.toml`` file is one kernel library. :func:`load_catalog` reads and
validates them all when the wizard starts; a broken recipe never crashes it: it is left out and
reported as a :class:`RecipeProblem` that names the file and the field
(``flash_attn.toml: versions[3].tag: missing``), and the other recipes still load.

:func:`assess` answers "does this kernel version fit here?" for a :class:`Machine` (the hardware
report, the target Python, the OS, the chosen CUDA toolkit and the selected GPUs) with a
:class:`Verdict` that lists *every* reason in plain words, and warnings that don't block.
:func:`arch_list`, :func:`select_targets`, :func:`recommended_version` are the
other questions the Kernel page and the build plan ask (the build-time estimate is
:func:`kernel_wizard.build.plan.estimate_build`).

The package: :mod:`.model` (the schema as dataclasses), :mod:`.validate` (typed field access
that names every problem), :mod:`.load` (the folder → :class:`Catalog`), :mod:`.assess` (the
machine, verdicts, GPU architectures and targets).

Recipe format (schema 1)
========================

Top level::

    schema = 1
    id = "flash_attn"                 # slug: a-z, 0-9, _ ; unique in the catalog
    name, description                 # shown to people; description is one line
    homepage, license                 # homepage optional for local sources
    package, import_name              # the distribution and the module it installs
    verify_adapter = "flash_attn"     # which resources/verify adapter checks the result
    arch_knob = "torch_cuda_arch_list" | "flash_attn_cuda_archs" | "flashmla_disable_flags" | "none"
    usage = '''...'''                 # optional: how a person calls it once installed
    tag_pattern = '^v2[.]...'         # optional: the upstream tags that are its releases
    verify_alone = true               # optional: verified in a harness process of its own
    toolchain_probe = true            # optional, one recipe: built when no kernel is chosen

Everything that is particular to one kernel is in its recipe and its verification adapter
(``resources/verify/adapters/<verify_adapter>.py``); no Python code of the wizard names a
kernel. ``usage`` (Python code, shown after a passing verification and on the summary page),
``tag_pattern`` (a regular expression matched against the whole tag name: which newer upstream
tags :func:`kernel_wizard.catalog.tags.merge_versions` offers; none: upstream tags are not
followed; it must compile), ``verify_alone`` (the kernel's check starts processes of its own,
DeepEP's one per GPU: never verified beside other kernels in one harness process) and
``toolchain_probe`` (:attr:`Catalog.probe`; a second recipe that says so is a problem).
Kernels of one's own, outside the program: ``KSW_EXTRA_KERNELS`` names folders with
``recipes/`` and ``adapters/`` laid out like the shipped ones
(:mod:`kernel_wizard.base.resources`); their recipes join the catalog after the shipped ones,
whose ids they cannot take.

``[source]``: ``kind = "git"`` with ``url`` (and optional ``submodules``, ``submodule_commits``,
``submodule_markers``: table path → a file, relative to the submodule, that a populated checkout
has, e.g. ``"csrc/cutlass" = "include/cutlass/cutlass.h"``) or ``kind = "local"`` with ``path``
(relative to ``resources/``). ``subdir``: the folder, relative to the source root, that holds the
package's setup.py (FlashAttention 3: ``"hopper"``); the build runs there.

``[requirements]``: ``os`` (list of "linux", "windows"), ``min_cc`` / ``max_cc`` /
``supported_cc`` (compute capabilities as strings, "8.0"), ``gpu_text`` (how to name the GPUs it
needs), ``min_cuda``, ``min_cuda_per_arch`` (table cc → CUDA version), ``min_torch``,
``min_python``, ``max_python``, ``min_gpus``, ``gpu_counts`` (allowed GPU counts), ``nvlink``,
``cpu_fallback`` (true: without a usable GPU/CUDA it still builds a CPU part), ``os_warnings``
(table os → text), ``unchecked`` (requirements the wizard can't check, shown as warnings) and
``[[requirements.blocked]]`` (``os``, ``archs``, ``label``, ``reason``, ``alternative =
"wsl2"``): builds that can't work natively on that OS.

``[[targets]]``: what the library can compile and which GPUs can run it: ``arch`` (the value
handed to the arch knob, "8.0"), ``name`` ("sm_80"), ``runs_on`` (list of cc), ``min_cuda``,
``disable_env`` (for ``flashmla_disable_flags``). No targets: each GPU's own arch is built
(``torch_cuda_arch_list``).

``[build]``: ``memory_gb_per_thread`` (peak RAM of one compile thread), ``nvcc_threads_knob``
(whether NVCC_THREADS is read), ``nvcc_threads_default``, ``max_nvcc_threads`` (the most the
build plan uses), ``translation_units_per_arch``, ``core_seconds_per_unit`` (CPU-core-seconds to
compile one unit for one arch), ``host_core_seconds`` (arch-independent compile work),
``fixed_seconds`` (work that doesn't run in parallel: setup, link, packing), of it
``tail_seconds`` (link and packing, after the last unit), ``slowest_unit_core_seconds`` (the
slowest unit for one arch: the build can't end before it),
``slowest_unit_core_seconds_per_target`` (the same for the ``[[targets]]`` archs whose slowest
unit differs, ``{ "10.0" = 214 }``: nvcc's threads compile the targets side by side, so the
slowest target bounds the unit), ``windows_factor`` and
``extensions`` (torch extensions setup.py builds one after another, one ninja run each; the
ETA then expects the units of all of them from the first run on; default 1). A recipe that
knows them one by one lists them instead, in the order setup.py builds them, as
``[[build.extension]]``: ``name``, ``units`` (what ninja compiles for it), ``archs`` (the
targets that build it; none: always), ``host_units`` (of them, host-compiler units; default 1)
and, where they differ from ``[build]``'s, ``core_seconds_per_unit``,
``slowest_unit_core_seconds`` and ``host_core_seconds``: the estimate then knows each run's
units for the selected targets and plans the runs one after another. See
:func:`estimate_build`; the figures are calibrated from measured builds
(``tests/data/buildtimes/``).

``[[variants]]``: ways of building that a person chooses between (FlashAttention 3: a compact
build and the full one): ``id``, ``label``, ``description``, ``default`` (the one used unless
another is chosen), ``env`` (variables set for this variant only) and the estimate's figures
that differ: ``translation_units_per_arch``, ``core_seconds_per_unit``,
``slowest_unit_core_seconds``.

``[env]``: variables always set for a source build. ``[[knobs]]``: ``name``, ``default``,
``meaning`` (documentation of the library's build switches).

``[[patches]]``: declarative source patches (applied by :mod:`kernel_wizard.build.patches`): ``id``,
``file``, ``kind = "literal" | "regex"``, ``pattern``, ``replacement``, ``expected_count``,
``why`` and ``when = { os = [...], min_cuda = "...", max_cuda = "...", versions = [...] }``.

``[[wheel_sources]]``: prebuilt wheels (see :mod:`kernel_wizard.catalog.wheels`): ``id``, ``kind =
"official" | "community"``, ``name``, ``homepage``, ``os``, ``url`` (a template: ``{tag}``,
``{filename}`` or ``{asset}``), ``filename`` (official: a template with ``{version}``,
``{cuda}``, ``{torch}``, ``{cxx11abi}``, ``{python}``, ``{platform}``), ``cuda_match = "major" |
"major_minor"``, ``assets`` (community: "release/filename" entries), ``wheel_list`` (the
publisher's list in resources/wheels/<name>.json: a community source's wheels instead of
``assets`` and ``url``; for an official source, which computed names exist) and ``note``.

``[[versions]]`` (oldest first): ``tag`` and/or ``commit`` (git), ``label``, ``version`` (PEP 440,
default: the tag without its "v"), ``released``, ``recommended`` (list of OS), ``notes``, and
overrides of the recipe's defaults: ``min_python``, ``max_python``, ``min_torch``, ``min_cuda``,
``arch_knob``, ``targets`` (list of target archs this version can build),
``nvcc_threads_default``, ``nvcc_threads_knob``, ``max_jobs_auto``,
``translation_units_per_arch``, ``wheel_cuda`` (table: PyTorch's CUDA major → the "cu" part of
the official wheel name) and ``official_wheels = { python, torch, platforms }`` (what upstream's
release build matrix covered).
"""


from __future__ import annotations

from kernel_wizard.catalog.assess import (
    ArchSelection,
    Judge,
    Machine,
    Reason,
    ReasonKind,
    Verdict,
    arch_list,
    assess,
    recommended_label,
    recommended_version,
    select_targets,
)
from kernel_wizard.catalog.load import (
    load_catalog,
    load_recipe,
)
from kernel_wizard.catalog.model import (
    CC,
    GIB,
    SCHEMA_VERSION,
    ArchKnob,
    BlockedBuild,
    BuildCosts,
    BuildExtension,
    BuildVariant,
    Catalog,
    CudaMatch,
    Knob,
    OfficialWheels,
    OsName,
    Patch,
    PatchCondition,
    PatchKind,
    Recipe,
    RecipeProblem,
    RecipeVersion,
    Requirements,
    Source,
    SourceKind,
    Target,
    Ver,
    WheelSource,
    WheelSourceKind,
    cc_text,
    parse_cc,
    parse_version,
    ver_text,
)

__all__ = [
    "ArchKnob",
    "ArchSelection",
    "BlockedBuild",
    "BuildCosts",
    "BuildExtension",
    "BuildVariant",
    "CC",
    "Catalog",
    "CudaMatch",
    "GIB",
    "Knob",
    "Machine",
    "OfficialWheels",
    "OsName",
    "Patch",
    "PatchCondition",
    "PatchKind",
    "Judge",
    "Reason",
    "ReasonKind",
    "Recipe",
    "RecipeProblem",
    "RecipeVersion",
    "Requirements",
    "SCHEMA_VERSION",
    "Source",
    "SourceKind",
    "Target",
    "Ver",
    "Verdict",
    "WheelSource",
    "WheelSourceKind",
    "arch_list",
    "assess",
    "cc_text",
    "load_catalog",
    "load_recipe",
    "parse_cc",
    "parse_version",
    "recommended_label",
    "recommended_version",
    "select_targets",
    "ver_text",
]
