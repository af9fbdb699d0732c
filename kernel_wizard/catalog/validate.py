"""Typed, path-naming access to a recipe's TOML tables (every problem names its field)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from kernel_wizard.catalog.model import (
    E,
    RecipeProblem,
    or_list,
)

# =============================================================================================
# Loading and validation
# =============================================================================================

_TYPE_NAMES: dict[type, str] = {
    str: "a string",
    bool: "true or false",
    int: "an integer",
    float: "a number",
    list: "a list",
    dict: "a table",
}


def type_name(value: object) -> str:
    for kind, name in _TYPE_NAMES.items():
        if type(value) is kind:
            return name
    return type(value).__name__


class Fields:
    """Typed access to one TOML table; every problem is recorded with its field path."""

    def __init__(
        self,
        problems: list[RecipeProblem],
        file: Path,
        data: Mapping[str, Any],
        where: str,
        allowed: Iterable[str],
    ) -> None:
        self.problems = problems
        self.file = file
        self.data = data
        self.where = where
        allowed_set = set(allowed)
        for key in data:
            if key not in allowed_set:
                self.problem(key, "unknown field (a typo?)")

    def path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def problem(self, key: str, message: str) -> None:
        self.problems.append(RecipeProblem(self.file.name, self.path(key), message, self.file))

    def _get(self, key: str, kind: type | tuple[type, ...], required: bool) -> Any:
        if key not in self.data:
            if required:
                self.problem(key, "missing")
            return None
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = any(
            type(value) is k or (k is float and type(value) is int) for k in kinds
        )
        if not ok:
            wanted = or_list(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
            self.problem(key, f"expected {wanted}, got {type_name(value)} ({value!r})")
            return None
        return value

    def text(self, key: str, default: str = "", *, required: bool = True) -> str:
        value = self._get(key, str, required)
        if value is None:
            return default
        if required and not value.strip():
            self.problem(key, "empty")
        return str(value)

    def opt_text(self, key: str) -> str | None:
        value = self._get(key, str, False)
        return str(value) if value is not None else None

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._get(key, bool, False)
        return bool(value) if value is not None else default

    def opt_flag(self, key: str) -> bool | None:
        value = self._get(key, bool, False)
        return bool(value) if value is not None else None

    def integer(self, key: str, default: int, *, minimum: int = 0) -> int:
        value = self._get(key, int, False)
        if value is None:
            return default
        if value < minimum:
            self.problem(key, f"must be {minimum} or more, got {value}")
            return default
        return int(value)

    def opt_integer(self, key: str, *, minimum: int = 0) -> int | None:
        if key not in self.data:
            return None
        return self.integer(key, minimum, minimum=minimum)

    def number(self, key: str, default: float, *, positive: bool = False) -> float:
        value = self._get(key, float, False)
        if value is None:
            return default
        if value < 0 or (positive and value <= 0):
            self.problem(key, f"must be {'more than' if positive else 'at least'} 0, got {value}")
            return default
        return float(value)

    def opt_number(self, key: str) -> float | None:
        if key not in self.data:
            return None
        return self.number(key, 0.0, positive=True)

    def convert(self, key: str, parse: Callable[[str], Any], *, required: bool = False) -> Any:
        value = self._get(key, str, required)
        if value is None:
            return None
        try:
            return parse(value)
        except ValueError as exc:
            self.problem(key, str(exc))
            return None

    def texts(self, key: str) -> tuple[str, ...]:
        value = self._get(key, list, False)
        if value is None:
            return ()
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str):
                self.problem(f"{key}[{i}]", f"expected a string, got {type_name(item)}")
            else:
                out.append(item)
        return tuple(out)

    def converted_list(self, key: str, parse: Callable[[str], Any]) -> tuple[Any, ...]:
        out: list[Any] = []
        value = self._get(key, list, False)
        for i, item in enumerate(value or ()):
            if not isinstance(item, str):
                self.problem(f"{key}[{i}]", f"expected a string, got {type_name(item)}")
                continue
            try:
                out.append(parse(item))
            except ValueError as exc:
                self.problem(f"{key}[{i}]", str(exc))
        return tuple(out)

    def enum(
        self, key: str, kind: type[E], *, required: bool = True, what: str = "value"
    ) -> E | None:
        value = self._get(key, str, required)
        if value is None:
            return None
        try:
            return kind(value)
        except ValueError:
            known = ", ".join(f'"{m.value}"' for m in kind)
            self.problem(key, f"unknown {what} {value!r} (known: {known})")
            return None

    def enums(self, key: str, kind: type[E], *, what: str = "value") -> tuple[E, ...]:
        out: list[E] = []
        value = self._get(key, list, False)
        for i, item in enumerate(value or ()):
            try:
                out.append(kind(item))
            except ValueError:
                known = ", ".join(f'"{m.value}"' for m in kind)
                self.problem(f"{key}[{i}]", f"unknown {what} {item!r} (known: {known})")
        return tuple(out)

    def table(self, key: str, allowed: Iterable[str], *, required: bool = False) -> Fields | None:
        value = self._get(key, dict, required)
        if value is None:
            return None
        return Fields(self.problems, self.file, value, self.path(key), allowed)

    def free_table(self, key: str) -> Mapping[str, Any]:
        """A table whose keys are data (env names, cc values), not field names."""
        value = self._get(key, dict, False)
        return value if value is not None else {}

    def tables(self, key: str, allowed: Iterable[str], *, required: bool = False) -> list[Fields]:
        value = self._get(key, list, required)
        if value is None:
            return []
        if required and not value:
            self.problem(key, "empty: at least one entry is needed")
        out: list[Fields] = []
        allowed_list = list(allowed)
        for i, item in enumerate(value):
            where = f"{key}[{i}]"
            if not isinstance(item, dict):
                self.problem(where, f"expected a table, got {type_name(item)}")
                continue
            out.append(Fields(self.problems, self.file, item, self.path(where), allowed_list))
        return out


TOP_KEYS = {
    "schema", "id", "name", "description", "homepage", "license", "package", "import_name",
    "verify_adapter", "arch_knob", "source", "requirements", "targets", "build", "env", "knobs",
    "patches", "wheel_sources", "versions", "variants", "usage", "tag_pattern", "verify_alone",
    "toolchain_probe",
}
SOURCE_KEYS = {
    "kind", "url", "path", "submodules", "submodule_commits", "submodule_markers", "subdir",
}
VARIANT_KEYS = {
    "id", "label", "description", "default", "env", "translation_units_per_arch",
    "core_seconds_per_unit", "slowest_unit_core_seconds",
}
REQUIREMENTS_KEYS = {
    "os", "min_cc", "max_cc", "supported_cc", "gpu_text", "min_cuda", "min_cuda_per_arch",
    "min_torch", "min_python", "max_python", "min_gpus", "gpu_counts", "nvlink", "cpu_fallback",
    "blocked", "os_warnings", "unchecked", "min_nccl", "nvshmem",
}
BLOCKED_KEYS = {"os", "archs", "label", "reason", "alternative"}
TARGET_KEYS = {"arch", "name", "runs_on", "min_cuda", "disable_env"}
BUILD_KEYS = {
    "memory_gb_per_thread", "nvcc_threads_knob", "nvcc_threads_default", "max_nvcc_threads",
    "translation_units_per_arch", "core_seconds_per_unit", "host_core_seconds", "fixed_seconds",
    "windows_factor", "cpu_only_env", "slowest_unit_core_seconds", "tail_seconds",
    "slowest_unit_core_seconds_per_target", "extensions", "extension",
}
EXTENSION_KEYS = {
    "name", "units", "archs", "host_units", "core_seconds_per_unit", "slowest_unit_core_seconds",
    "host_core_seconds",
}
KNOB_KEYS = {"name", "default", "meaning"}
PATCH_KEYS = {"id", "file", "kind", "pattern", "replacement", "expected_count", "why", "when"}
WHEN_KEYS = {"os", "min_cuda", "max_cuda", "versions"}
WHEEL_KEYS = {
    "id", "kind", "name", "homepage", "os", "url", "filename", "cuda_match", "assets", "note",
    "wheel_list",
}
VERSION_KEYS = {
    "tag", "commit", "label", "version", "released", "recommended", "notes", "min_python",
    "max_python", "min_torch", "min_cuda", "arch_knob", "targets", "nvcc_threads_default",
    "nvcc_threads_knob", "max_jobs_auto", "translation_units_per_arch", "wheel_cuda",
    "official_wheels", "min_nccl", "nvshmem",
}
OFFICIAL_KEYS = {"python", "torch", "platforms"}
KNOWN_ALTERNATIVES = {"wsl2"}
ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


