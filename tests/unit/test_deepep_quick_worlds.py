"""A quick re-verification of DeepEP checks one GPU count, the largest there is (issue 29).

Each GPU count costs its own start of worker processes (8.6 s at 2 GPUs, 10.9 s at 4 on the
4-GPU H200 machine, docs/recorded/h200x4-2026-11-28/reverify), and the quick mode is the one a
person runs after a driver update: the largest count still takes every GPU and NVLink path.
The full verification keeps every count.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType, SimpleNamespace

import pytest
from verify_testsupport import harness_module


@pytest.fixture(scope="module")
def deepep() -> Iterator[ModuleType]:
    yield from harness_module("adapters.deepep")


@pytest.mark.parametrize(("available", "full", "quick"), [
    (2, [2], [2]), (4, [2, 4], [4]), (8, [2, 4, 8], [8]), (6, [2, 4], [4]), (1, [], []),
])
def test_the_quick_mode_checks_the_largest_gpu_count_alone(
        deepep: ModuleType, monkeypatch: pytest.MonkeyPatch,
        available: int, full: list[int], quick: list[int]) -> None:
    monkeypatch.delenv(deepep.WORLDS_ENV, raising=False)
    assert deepep.world_sizes(SimpleNamespace(quick=False), available) == full
    assert deepep.world_sizes(SimpleNamespace(quick=True), available) == quick


def test_gpu_counts_a_person_names_are_kept_in_the_quick_mode(
        deepep: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(deepep.WORLDS_ENV, "2,4")
    assert deepep.world_sizes(SimpleNamespace(quick=True), 8) == [2, 4]
