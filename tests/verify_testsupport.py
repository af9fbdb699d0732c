"""The verification harness's test mode, for tests that verify GPU adapters on the CPU.

The production harness reads no test variables: its device hooks (``verify_kernel.py``) call
``tests/support/verify_hooks/ksw_verify_hooks.py`` when that folder is on the harness's
``PYTHONPATH``, and that module reads ``KSW_VERIFY_TEST_CPU`` / ``KSW_VERIFY_TEST_CC``.
:func:`verify_test_mode` sets all three for the harness processes a test starts."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from types import ModuleType

import pytest

VERIFY_HOOKS = Path(__file__).resolve().parent / "support" / "verify_hooks"
HARNESS = Path(__file__).resolve().parents[1] / "resources" / "verify"


def harness_module(name: str) -> Iterator[ModuleType]:
    """A module of the verification harness (``resources/verify``, imported as the harness
    imports it: ``harness_boundary``, ``adapters.deepep``), for a fixture to ``yield from``;
    the folder leaves ``sys.path`` again when the fixture ends."""
    sys.path.insert(0, str(HARNESS))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(HARNESS))


def test_mode_env(cc: str | None = None,
                  environ: MutableMapping[str, str] | None = None) -> dict[str, str]:
    """The variables of the harness's test mode (``cc``: the compute capability to pretend),
    with :data:`VERIFY_HOOKS` put in front of ``environ``'s PYTHONPATH (default: os.environ)."""
    base = os.environ if environ is None else environ
    paths = [str(VERIFY_HOOKS)] + ([base["PYTHONPATH"]] if base.get("PYTHONPATH") else [])
    env = {"PYTHONPATH": os.pathsep.join(paths), "KSW_VERIFY_TEST_CPU": "1"}
    if cc is not None:
        env["KSW_VERIFY_TEST_CC"] = cc
    return env


def verify_test_mode(monkeypatch: pytest.MonkeyPatch, cc: str | None = None) -> pytest.MonkeyPatch:
    """Turn the harness's test mode on for this test (undone after it); returns
    ``monkeypatch`` for more settings."""
    for name, value in test_mode_env(cc).items():
        monkeypatch.setenv(name, value)
    return monkeypatch
