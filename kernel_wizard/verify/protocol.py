"""What the wizard and the verification harness agree on, read from the harness's own file.

``resources/verify/harness_protocol.py`` defines the markers around the report, the report's
schema, the progress lines, the exit codes and where the adapters are; the harness imports it
in the target interpreter, and this module loads the same file by its path, so the two sides
cannot drift apart. The adapters are the folder's modules (plus those of the folders named by
``KSW_EXTRA_KERNELS``, :func:`kernel_wizard.base.resources.extra_adapter_folders`): there is no
list of them to keep up to date."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from types import ModuleType
from typing import cast

from kernel_wizard.base.resources import extra_adapter_folders, resource_path


@cache
def _harness_protocol() -> ModuleType:
    path = resource_path("verify", "harness_protocol.py")
    spec = importlib.util.spec_from_file_location("_ksw_harness_protocol", path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_P = _harness_protocol()

SCHEMA = cast(str, _P.SCHEMA)  # "ksw.verify/1"
BEGIN = cast(str, _P.BEGIN)  # the line before the report's JSON
END = cast(str, _P.END)  # the line after it
PROGRESS_PREFIX = cast(str, _P.PROGRESS)  # "[ksw-verify] "
ADAPTER_PATH_OPTION = cast(str, _P.ADAPTER_PATH_OPTION)  # "--adapter-path"
CASE_LINE = cast("re.Pattern[str]", _P.CASE_LINE)  # "[ksw-verify] case 3/12: NAME"
ADAPTER_LINE = cast("re.Pattern[str]", _P.ADAPTER_LINE)  # "... verifying adapter 'NAME' ..."
STOP_LINE = cast("re.Pattern[str]", _P.STOP_LINE)  # "... stopping after 'NAME': WHY; ..."


def result_prefix(name: str) -> str:
    """How the progress line that ends check ``name`` starts."""
    return cast(str, _P.result_prefix(name))


def adapter_names() -> tuple[str, ...]:
    """The adapters the harness has: the modules of ``resources/verify/adapters/`` and of the
    extra kernel folders, sorted (read anew each time: a folder can gain one)."""
    return cast("tuple[str, ...]", _P.adapter_names(extra_adapter_folders()))
