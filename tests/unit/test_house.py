"""The house stays findable: a few packages in the core, each module placed in a layer.

docs/architecture.md promises a newcomer that the core is a handful of packages stacked in
layers (pyproject.toml's import contracts, checked by ``lint-imports`` in CI). Those contracts
only guard the modules they name: a module added to no contract could import anything, and a
new top-level module would start the flat core again. These tests read the contracts and the
folders, so they fail the moment a module lands outside the house's plan.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

REPO = Path(__file__).resolve().parents[2]
CORE = REPO / "kernel_wizard"
APP = REPO / "app"
MAX_CORE_ENTRIES = 12  # issue 32: at most 12 top-level modules and packages in the core


def _contracts() -> list[dict[str, object]]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = data["tool"]["importlinter"]["contracts"]
    return contracts


def _layered() -> set[str]:
    """Every module name a layers contract places: ``container.member`` for each layer entry."""
    placed: set[str] = set()
    for contract in _contracts():
        if contract.get("type") != "layers":
            continue
        containers = contract["containers"]
        layers = contract["layers"]
        assert isinstance(containers, list) and isinstance(layers, list)
        for container in containers:
            for layer in layers:
                for member in str(layer).replace(":", "|").split("|"):
                    placed.add(f"{container}.{member.strip()}")
    return placed


def _children(package: Path, dotted: str) -> list[str]:
    """The modules and subpackages directly inside ``package`` (not ``__init__``)."""
    names = []
    for entry in sorted(package.iterdir()):
        if entry.name.startswith(("_", ".")):
            continue
        if entry.is_dir() and (entry / "__init__.py").is_file():
            names.append(f"{dotted}.{entry.name}")
        elif entry.suffix == ".py":
            names.append(f"{dotted}.{entry.stem}")
    return names


def test_the_core_has_at_most_twelve_top_level_entries() -> None:
    entries = _children(CORE, "kernel_wizard")
    assert 0 < len(entries) <= MAX_CORE_ENTRIES, (
        f"{len(entries)} top-level modules in kernel_wizard/: {entries}; put the new module "
        "into the package whose layer it belongs to (docs/architecture.md)"
    )


def test_every_core_package_and_module_is_in_a_layers_contract() -> None:
    placed = _layered()
    missing = []
    for package in _children(CORE, "kernel_wizard"):
        if package not in placed:
            missing.append(package)
        folder = REPO / Path(*package.split("."))
        if folder.is_dir():
            missing += [name for name in _children(folder, package) if name not in placed]
    assert not missing, (
        "not placed in any layers contract of pyproject.toml (add each to its package's "
        f"contract, in the layer of what it imports): {missing}"
    )


def test_every_gui_module_is_in_the_gui_contract() -> None:
    placed = _layered()
    missing = [name for name in _children(APP, "app") if name not in placed]
    assert not missing, f"app modules outside the GUI's layers contract: {missing}"


def test_the_contracts_name_no_module_that_is_gone() -> None:
    """A contract naming a deleted module guards nothing: keep the plan and the folders equal."""
    stale = []
    for name in sorted(_layered()):
        path = REPO / Path(*name.split("."))
        if not (path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()):
            stale.append(name)
    assert not stale, f"contracts name modules that do not exist: {stale}"
