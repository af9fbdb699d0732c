"""Loading the recipe folder: every file read and validated, broken ones reported."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kernel_wizard.base.resources import extra_recipe_folders, resource_path
from kernel_wizard.catalog.model import (
    CC,
    COMMIT_RE,
    SCHEMA_VERSION,
    SLUG_RE,
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
    parse_cc,
    parse_version,
)
from kernel_wizard.catalog.validate import (
    BLOCKED_KEYS,
    BUILD_KEYS,
    ENV_NAME_RE,
    EXTENSION_KEYS,
    KNOB_KEYS,
    KNOWN_ALTERNATIVES,
    OFFICIAL_KEYS,
    PATCH_KEYS,
    REQUIREMENTS_KEYS,
    SOURCE_KEYS,
    TARGET_KEYS,
    TOP_KEYS,
    VARIANT_KEYS,
    VERSION_KEYS,
    WHEEL_KEYS,
    WHEN_KEYS,
    Fields,
    type_name,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the tomli backport, a declared dependency there
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

def load_catalog(folder: Path | None = None) -> Catalog:
    """Every recipe in ``folder`` (default: the shipped ``resources/recipes``, then the
    ``recipes/`` folders of ``KSW_EXTRA_KERNELS``, :func:`extra_recipe_folders`), validated.

    Never raises for a broken recipe: it is left out and reported in ``Catalog.problems``. So
    is a recipe whose id an earlier one has (a shipped recipe's id cannot be taken), and a
    second ``toolchain_probe``.
    """
    root = folder if folder is not None else resource_path("recipes")
    folders = (root,) if folder is not None else (root, *extra_recipe_folders())
    recipes: list[Recipe] = []
    problems: list[RecipeProblem] = []
    seen: dict[str, str] = {}
    probe: str | None = None
    for path in (p for f in folders for p in sorted(f.glob("*.toml"))):
        recipe, found = load_recipe(path)
        if recipe is not None and recipe.id in seen:
            found = [RecipeProblem(path.name, "id",
                                   f"'{recipe.id}' is already used by {seen[recipe.id]}", path)]
            recipe = None
        elif recipe is not None and recipe.toolchain_probe and probe is not None:
            found = [RecipeProblem(path.name, "toolchain_probe",
                                   f"{probe} is the probe already (only one recipe can be)",
                                   path)]
            recipe = None
        problems += found
        if recipe is not None:
            seen[recipe.id] = path.name
            probe = path.name if recipe.toolchain_probe else probe
            recipes.append(recipe)
    return Catalog(recipes=tuple(recipes), problems=tuple(problems), folder=root)


def load_recipe(path: Path) -> tuple[Recipe | None, list[RecipeProblem]]:
    """One recipe file: (the recipe, []) or (None, every problem found in it)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        return None, [RecipeProblem(path.name, "", f"can't be read ({exc})", path)]
    except UnicodeDecodeError as exc:
        return None, [RecipeProblem(path.name, "", f"is not UTF-8 text ({exc})", path)]
    except tomllib.TOMLDecodeError as exc:
        return None, [RecipeProblem(path.name, "", f"not valid TOML: {exc}", path)]
    return recipe_from_data(data, path)


def recipe_from_data(data: dict[str, Any], path: Path) -> tuple[Recipe | None, list[RecipeProblem]]:
    """A recipe's parsed TOML (``path`` names it in problems): (the recipe, []) or (None,
    every problem). Never raises: whatever the tables hold, a wrong type is a problem."""
    problems: list[RecipeProblem] = []
    top = Fields(problems, path, data, "", TOP_KEYS)
    schema = top._get("schema", int, True)
    if schema is not None and schema != SCHEMA_VERSION:
        top.problem("schema", f"is {schema}; this wizard reads schema {SCHEMA_VERSION}")
    recipe = _recipe(top, path)
    return (None if problems else recipe), problems


def _recipe(top: Fields, path: Path) -> Recipe:
    rid = top.text("id")
    if rid and not SLUG_RE.match(rid):
        top.problem("id", f"{rid!r} is not a slug (lower-case letters, digits, _)")
    knob = top.enum("arch_knob", ArchKnob, what="arch knob") or ArchKnob.NONE
    source = _source(top)
    targets = tuple(_target(t) for t in top.tables("targets", TARGET_KEYS))
    _check_targets(top, targets)
    versions = tuple(_version(v, source)
                     for v in top.tables("versions", VERSION_KEYS, required=True))
    _check_versions(top, versions)
    req_fields = top.table("requirements", REQUIREMENTS_KEYS, required=True)
    requirements = _requirements(req_fields) if req_fields else Requirements(os=())
    build_fields = top.table("build", BUILD_KEYS, required=True)
    build = _build(build_fields) if build_fields else BuildCosts(memory_gb_per_thread=1.0)
    env = _env_table(top)
    knobs = tuple(
        Knob(name=k.text("name"), meaning=k.text("meaning"), default=k.opt_text("default"))
        for k in top.tables("knobs", KNOB_KEYS)
    )
    patches = tuple(_patch(p, versions) for p in top.tables("patches", PATCH_KEYS))
    _unique(top, "patches", [p.id for p in patches])
    wheel_sources = tuple(_wheel_source(w) for w in top.tables("wheel_sources", WHEEL_KEYS))
    _unique(top, "wheel_sources", [w.id for w in wheel_sources])
    variants = tuple(_variant(v) for v in top.tables("variants", VARIANT_KEYS))
    _unique(top, "variants", [v.id for v in variants])
    if sum(v.default for v in variants) > 1:
        top.problem("variants", "more than one is marked default")
    for arch in build.slowest_unit_core_seconds_per_target:
        if arch not in {t.arch for t in targets}:
            top.problem("build.slowest_unit_core_seconds_per_target",
                        f"'{arch}' is not the arch of any [[targets]] entry")
    for i, ext in enumerate(build.extension_list):
        for arch in ext.archs:
            if arch not in {t.arch for t in targets}:
                top.problem(f"build.extension[{i}].archs",
                            f"'{arch}' is not the arch of any [[targets]] entry")
    for i, v in enumerate(versions):
        for arch in v.targets or ():
            if arch not in {t.arch for t in targets}:
                top.problem(f"versions[{i}].targets",
                            f"'{arch}' is not the arch of any [[targets]] entry")
        v_knob = v.arch_knob if v.arch_knob is not None else knob
        _check_knob(top, f"versions[{i}].arch_knob" if v.arch_knob else "arch_knob", v_knob,
                    targets)
    return Recipe(
        id=rid,
        name=top.text("name"),
        description=top.text("description"),
        homepage=top.text("homepage", required=source.kind is SourceKind.GIT),
        license=top.text("license"),
        package=top.text("package"),
        import_name=top.text("import_name"),
        verify_adapter=top.text("verify_adapter"),
        arch_knob=knob,
        source=source,
        requirements=requirements,
        build=build,
        versions=versions,
        targets=targets,
        env=env,
        knobs=knobs,
        patches=patches,
        wheel_sources=wheel_sources,
        variants=variants,
        usage=top.text("usage", required=False).strip("\n"),
        tag_pattern=_tag_pattern(top),
        verify_alone=top.flag("verify_alone"),
        toolchain_probe=top.flag("toolchain_probe"),
        file=path,
    )


def _tag_pattern(top: Fields) -> str | None:
    """The recipe's ``tag_pattern``: a regular expression that compiles, else a problem."""
    pattern = top.opt_text("tag_pattern")
    if pattern is None:
        return None
    try:
        re.compile(pattern)
    except re.error as exc:
        top.problem("tag_pattern", f"not a valid regular expression ({exc})")
        return None
    if not pattern.strip():
        top.problem("tag_pattern", "empty (leave it out to follow no upstream tags)")
        return None
    return pattern


def _unique(top: Fields, key: str, ids: Sequence[str]) -> None:
    seen: set[str] = set()
    for i, ident in enumerate(ids):
        if ident in seen:
            top.problem(f"{key}[{i}].id", f"'{ident}' appears twice")
        seen.add(ident)


def _check_knob(top: Fields, where: str, knob: ArchKnob, targets: Sequence[Target]) -> None:
    if knob in (ArchKnob.FLASH_ATTN_CUDA_ARCHS, ArchKnob.FLASHMLA_DISABLE_FLAGS) and not targets:
        top.problems.append(RecipeProblem(
            top.file.name, where, f"'{knob.value}' needs [[targets]] entries", top.file))
    if knob is ArchKnob.FLASHMLA_DISABLE_FLAGS:
        for i, t in enumerate(targets):
            if not t.disable_env:
                top.problems.append(RecipeProblem(
                    top.file.name, f"targets[{i}].disable_env",
                    "missing (arch_knob \"flashmla_disable_flags\" needs one per target)",
                    top.file))


def _source(top: Fields) -> Source:
    f = top.table("source", SOURCE_KEYS, required=True)
    if f is None:
        return Source(kind=SourceKind.LOCAL, path="")
    kind = f.enum("kind", SourceKind, what="source kind") or SourceKind.GIT
    url = f.opt_text("url")
    path = f.opt_text("path")
    if kind is SourceKind.GIT:
        if url is None:
            f.problem("url", "missing (a git source needs a URL)")
        elif not url.startswith("https://"):
            f.problem("url", f"must be an https:// URL, got {url!r}")
    if kind is SourceKind.LOCAL and not path:
        f.problem("path", "missing (a local source needs a folder under resources/)")
    commits: dict[str, str] = {}
    for name, value in f.free_table("submodule_commits").items():
        if not isinstance(value, str) or not COMMIT_RE.match(value):
            f.problem(f"submodule_commits.{name}", "expected a 40-character commit hash")
        else:
            commits[name] = value
    submodules = f.texts("submodules")
    markers: dict[str, str] = {}
    for name, value in f.free_table("submodule_markers").items():
        if name not in submodules:
            f.problem(f"submodule_markers.{name}", "not one of the listed submodules")
        elif not isinstance(value, str) or not value or value.startswith("/") or ".." in value:
            f.problem(f"submodule_markers.{name}",
                      "expected a file path relative to the submodule folder")
        else:
            markers[name] = value
    subdir = f.text("subdir", "", required=False)
    if subdir and (subdir.startswith(("/", "\\")) or ".." in subdir.split("/")
                   or "\\" in subdir or ":" in subdir):
        f.problem("subdir", "expected a folder path relative to the source root, '/' separated")
    return Source(kind=kind, url=url, path=path, submodules=submodules,
                  submodule_commits=commits, submodule_markers=markers, subdir=subdir)


def _env_table(f: Fields) -> dict[str, str]:
    """The ``env`` table of ``f``: variable names and their string values, each bad entry a
    problem."""
    env: dict[str, str] = {}
    for name, value in f.free_table("env").items():
        if not ENV_NAME_RE.match(name):
            f.problem(f"env.{name}", "not an environment variable name")
        elif not isinstance(value, str):
            f.problem(f"env.{name}", f"expected a string, got {type_name(value)}")
        else:
            env[name] = value
    return env


def _variant(f: Fields) -> BuildVariant:
    vid = f.text("id")
    if vid and not SLUG_RE.match(vid):
        f.problem("id", f"{vid!r} is not a slug (lower-case letters, digits, _)")
    env = _env_table(f)
    return BuildVariant(
        id=vid,
        label=f.text("label"),
        description=f.text("description"),
        env=env,
        default=f.flag("default"),
        translation_units_per_arch=f.opt_integer("translation_units_per_arch"),
        core_seconds_per_unit=f.opt_number("core_seconds_per_unit"),
        slowest_unit_core_seconds=f.opt_number("slowest_unit_core_seconds"),
    )


def _requirements(f: Fields) -> Requirements:
    os_list = f.enums("os", OsName, what="OS")
    if "os" not in f.data:
        f.problem("os", "missing")
    per_arch: dict[CC, Ver] = {}
    for key, value in f.free_table("min_cuda_per_arch").items():
        where = f"min_cuda_per_arch.{key}"
        try:
            cc = parse_cc(key)
        except ValueError as exc:
            f.problem(where, str(exc))
            continue
        if not isinstance(value, str):
            f.problem(where, f"expected a string, got {type_name(value)}")
            continue
        try:
            per_arch[cc] = parse_version(value)
        except ValueError as exc:
            f.problem(where, str(exc))
    blocked: list[BlockedBuild] = []
    for b in f.tables("blocked", BLOCKED_KEYS):
        alternative = b.opt_text("alternative")
        if alternative is not None and alternative not in KNOWN_ALTERNATIVES:
            b.problem("alternative", f"unknown alternative {alternative!r} (known: \"wsl2\")")
        blocked.append(BlockedBuild(
            os=b.enum("os", OsName, what="OS") or OsName.WINDOWS,
            archs=b.converted_list("archs", parse_cc),
            label=b.text("label"),
            reason=b.text("reason"),
            alternative=alternative,
        ))
    os_warnings: dict[OsName, str] = {}
    for key, value in f.free_table("os_warnings").items():
        parsed = OsName(key) if key in {o.value for o in OsName} else None
        if parsed is None:
            f.problem(f"os_warnings.{key}", "unknown OS (known: \"linux\", \"windows\", \"macos\")")
        elif not isinstance(value, str):
            f.problem(f"os_warnings.{key}", f"expected a string, got {type_name(value)}")
        else:
            os_warnings[parsed] = value
    counts: list[int] = []
    raw_counts = f._get("gpu_counts", list, False)
    for i, item in enumerate(raw_counts or ()):
        if type(item) is not int or item < 1:
            f.problem(f"gpu_counts[{i}]", f"expected a positive integer, got {item!r}")
        else:
            counts.append(item)
    return Requirements(
        os=os_list,
        min_cc=f.convert("min_cc", parse_cc),
        max_cc=f.convert("max_cc", parse_cc),
        supported_cc=f.converted_list("supported_cc", parse_cc),
        gpu_text=f.text("gpu_text", required=False),
        min_cuda=f.convert("min_cuda", parse_version),
        min_cuda_per_arch=per_arch,
        min_torch=f.convert("min_torch", parse_version),
        min_python=f.convert("min_python", parse_version),
        max_python=f.convert("max_python", parse_version),
        min_gpus=f.integer("min_gpus", 1, minimum=1),
        gpu_counts=tuple(counts),
        nvlink=f.flag("nvlink"),
        cpu_fallback=f.flag("cpu_fallback"),
        blocked=tuple(blocked),
        os_warnings=os_warnings,
        unchecked=f.texts("unchecked"),
        min_nccl=f.convert("min_nccl", parse_version),
        nvshmem=f.flag("nvshmem"),
    )


def _target(f: Fields) -> Target:
    arch = f.text("arch")
    try:
        parse_cc(arch)
    except ValueError as exc:
        if arch:
            f.problem("arch", str(exc))
    return Target(
        arch=arch,
        name=f.text("name"),
        runs_on=f.converted_list("runs_on", parse_cc),
        min_cuda=f.convert("min_cuda", parse_version),
        disable_env=f.opt_text("disable_env"),
    )


def _check_targets(top: Fields, targets: Sequence[Target]) -> None:
    seen: set[str] = set()
    for i, t in enumerate(targets):
        if t.arch in seen:
            top.problem(f"targets[{i}].arch", f"'{t.arch}' appears twice")
        seen.add(t.arch)
        if not t.runs_on:
            top.problem(f"targets[{i}].runs_on", "missing or empty")


def _build(f: Fields) -> BuildCosts:
    if "memory_gb_per_thread" not in f.data:
        f.problem("memory_gb_per_thread", "missing")
    cpu_only_env = f.text("cpu_only_env", "", required=False)
    extension_list = tuple(_extension(e) for e in f.tables("extension", EXTENSION_KEYS))
    if extension_list and "extensions" in f.data:
        f.problem("extensions", "give either the count or the [[build.extension]] list")
    if cpu_only_env and not ENV_NAME_RE.match(cpu_only_env):
        f.problem("cpu_only_env", f"'{cpu_only_env}' is not an environment variable name")
    return BuildCosts(
        memory_gb_per_thread=f.number("memory_gb_per_thread", 1.0, positive=True),
        nvcc_threads_knob=f.flag("nvcc_threads_knob"),
        nvcc_threads_default=f.integer("nvcc_threads_default", 1, minimum=1),
        max_nvcc_threads=f.integer("max_nvcc_threads", 1, minimum=1),
        translation_units_per_arch=f.integer("translation_units_per_arch", 1),
        core_seconds_per_unit=f.number("core_seconds_per_unit", 60.0),
        host_core_seconds=f.number("host_core_seconds", 0.0),
        fixed_seconds=f.number("fixed_seconds", 30.0),
        windows_factor=f.number("windows_factor", 1.5, positive=True),
        slowest_unit_core_seconds=f.number("slowest_unit_core_seconds", 0.0),
        slowest_unit_core_seconds_per_target=_per_target_seconds(
            f, "slowest_unit_core_seconds_per_target"),
        tail_seconds=f.number("tail_seconds", 3.0),
        extensions=len(extension_list) or f.integer("extensions", 1, minimum=1),
        extension_list=extension_list,
        cpu_only_env=cpu_only_env,
    )


def _per_target_seconds(f: Fields, key: str) -> dict[str, float]:
    """A table of seconds by target arch (``{ "10.0" = 214 }``); the archs are checked
    against ``[[targets]]`` by the caller."""
    out: dict[str, float] = {}
    for arch, value in f.free_table(key).items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            f.problem(f"{key}.{arch}", f"expected a positive number, got {value!r}")
            continue
        out[str(arch)] = float(value)
    return out


def _extension(f: Fields) -> BuildExtension:
    units = f.integer("units", 1, minimum=1)
    host_units = f.integer("host_units", 1)
    if host_units > units:
        f.problem("host_units", f"{host_units} is more than its {units} units")
    return BuildExtension(
        name=f.text("name"),
        units=units,
        archs=f.texts("archs"),
        host_units=host_units,
        core_seconds_per_unit=f.opt_number("core_seconds_per_unit"),
        slowest_unit_core_seconds=f.opt_number("slowest_unit_core_seconds"),
        host_core_seconds=f.opt_number("host_core_seconds"),
    )


def _version(f: Fields, source: Source) -> RecipeVersion:
    tag = f.opt_text("tag")
    commit = f.opt_text("commit")
    if commit is not None and not COMMIT_RE.match(commit):
        f.problem("commit", f"expected a 40-character lower-case commit hash, got {commit!r}")
    if source.kind is SourceKind.GIT and tag is None and commit is None:
        f.problem("tag", "missing (a git version needs a tag or a commit)")
    label = f.text("label", tag[1:] if tag and tag.startswith("v") else (tag or ""),
                   required=tag is None)
    version_text = f.opt_text("version")
    if version_text is None:
        version_text = tag[1:] if tag and tag.startswith("v") else (tag or label)
    wheel_cuda: dict[int, str] = {}
    for key, value in f.free_table("wheel_cuda").items():
        if not key.isdigit() or not isinstance(value, str) or not value.isdigit():
            f.problem(f"wheel_cuda.{key}",
                      "expected a CUDA major version mapped to digits, like \"12\" = \"123\"")
        else:
            wheel_cuda[int(key)] = value
    official: OfficialWheels | None = None
    o = f.table("official_wheels", OFFICIAL_KEYS)
    if o is not None:
        official = OfficialWheels(
            python=o.converted_list("python", parse_version),
            torch=o.converted_list("torch", parse_version),
            platforms=o.texts("platforms"),
        )
    targets = f.texts("targets") if "targets" in f.data else None
    return RecipeVersion(
        label=label,
        version=version_text,
        tag=tag,
        commit=commit,
        released=f.opt_text("released"),
        recommended=f.enums("recommended", OsName, what="OS"),
        notes=f.text("notes", required=False),
        min_python=f.convert("min_python", parse_version),
        max_python=f.convert("max_python", parse_version),
        min_torch=f.convert("min_torch", parse_version),
        min_cuda=f.convert("min_cuda", parse_version),
        arch_knob=f.enum("arch_knob", ArchKnob, required=False, what="arch knob"),
        targets=targets,
        nvcc_threads_default=f.opt_integer("nvcc_threads_default", minimum=1),
        nvcc_threads_knob=f.opt_flag("nvcc_threads_knob"),
        max_jobs_auto=f.opt_flag("max_jobs_auto"),
        translation_units_per_arch=f.opt_integer("translation_units_per_arch"),
        wheel_cuda=wheel_cuda,
        official_wheels=official,
        min_nccl=f.convert("min_nccl", parse_version),
        nvshmem=f.opt_flag("nvshmem"),
    )


def _check_versions(top: Fields, versions: Sequence[RecipeVersion]) -> None:
    seen: set[str] = set()
    for i, v in enumerate(versions):
        if v.label and v.label in seen:
            top.problem(f"versions[{i}].label", f"'{v.label}' appears twice")
        seen.add(v.label)


def _patch(f: Fields, versions: Sequence[RecipeVersion]) -> Patch:
    kind = f.enum("kind", PatchKind, what="patch kind") or PatchKind.LITERAL
    pattern = f.text("pattern")
    if kind is PatchKind.REGEX and pattern:
        try:
            re.compile(pattern)
        except re.error as exc:
            f.problem("pattern", f"not a valid regular expression: {exc}")
    when = PatchCondition()
    w = f.table("when", WHEN_KEYS)
    if w is not None:
        when = PatchCondition(
            os=w.enums("os", OsName, what="OS"),
            min_cuda=w.convert("min_cuda", parse_version),
            max_cuda=w.convert("max_cuda", parse_version),
            versions=w.texts("versions"),
        )
        known = {x for v in versions for x in (v.tag, v.label, v.commit) if x}
        for i, name in enumerate(when.versions):
            if name not in known:
                w.problem(f"versions[{i}]", f"no version {name!r} in this recipe")
    if "expected_count" not in f.data:
        f.problem("expected_count", "missing")
    return Patch(
        id=f.text("id"),
        file=f.text("file"),
        kind=kind,
        pattern=pattern,
        replacement=f.text("replacement", required=False),
        expected_count=f.integer("expected_count", 1, minimum=1),
        why=f.text("why", required=False),
        when=when,
    )


def _wheel_source(f: Fields) -> WheelSource:
    kind = f.enum("kind", WheelSourceKind, what="wheel source kind") or WheelSourceKind.OFFICIAL
    wheel_list = f.opt_text("wheel_list")
    if wheel_list is not None and not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", wheel_list):
        f.problem("wheel_list", f"expected the name of a file in resources/wheels, got "
                                f"{wheel_list!r}")
    listed = kind is WheelSourceKind.COMMUNITY and wheel_list is not None
    url = f.text("url", required=not listed)  # a listed wheel carries its own address
    if url and not url.startswith("https://"):
        f.problem("url", f"must be an https:// URL template, got {url!r}")
    filename = f.opt_text("filename")
    if kind is WheelSourceKind.OFFICIAL and filename is None:
        f.problem("filename", "missing (an official source computes its file names)")
    if kind is WheelSourceKind.COMMUNITY and not listed and "{asset}" not in url:
        f.problem("url", "a community source's URL must contain {asset}")
    assets = f.texts("assets")
    if listed and assets:
        f.problem("assets", "a source with a wheel_list takes its wheels from that list")
    for i, asset in enumerate(assets):
        if asset.count("/") != 1 or not asset.endswith(".whl"):
            f.problem(f"assets[{i}]", f"expected \"release/file.whl\", got {asset!r}")
    return WheelSource(
        id=f.text("id"),
        kind=kind,
        name=f.text("name"),
        url=url,
        os=f.enums("os", OsName, what="OS"),
        homepage=f.text("homepage", required=False),
        filename=filename,
        cuda_match=f.enum("cuda_match", CudaMatch, required=False, what="CUDA match")
        or CudaMatch.MAJOR_MINOR,
        assets=assets,
        note=f.text("note", required=False),
        wheel_list=wheel_list,
    )


