"""The Kernel page offers a kernel version verified before with this PyTorch build, Python and
GPUs from the verified-wheel cache: "Ready from the verified cache (verified on <date>)", taken
unless "Build from source instead" is checked (issue 33, item 1).

Real pieces: this machine's detection, the tests' CPU torch venv inspected by the wizard, a wheel
kept in the verified-wheel cache of the test's data folder by the cache's own ``keep`` for that
environment, the real catalog and Session.choose; only the build itself is a stand-in."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from test_kernel_page import go_next, next_enabled, open_kernel_page

from app.pages.kernel import KernelPage
from app.wizard import InstallerWizard
from kernel_wizard.install import wheel_cache
from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.machine.hardware import detect

# every GPU generation the wheel could be asked to run on here (the cache matches the GPUs found)
EVERY_ARCH = ("7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0")


def page_with_a_verified_probe(qtbot: Any, torch_venv: Path, tmp_path: Path
                               ) -> tuple[InstallerWizard, KernelPage, wheel_cache.CachedWheel]:
    env = inspect_python(torch_venv)
    assert env.torch is not None and env.interpreter_tag and env.platform_tag
    wheel = tmp_path / f"ksw_probe_kernel-0.1.0-{env.interpreter_tag}-{env.interpreter_tag}-" \
                       f"{env.platform_tag}.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("ksw_probe/__init__.py", "")
    kept = wheel_cache.keep(
        wheel, kernel="probe", version="0.1.0", variant=None,
        source="built from the wizard's own Probe kernel source",
        built_for=wheel_cache.WheelTarget(env.torch.version, env.interpreter_tag,
                                          env.platform_tag, EVERY_ARCH),
        passed=wheel_cache.PassedOn("2026-11-28T10:00:00+00:00", str(torch_venv),
                                    env.torch.version))
    assert kept is not None
    wizard, page = open_kernel_page(qtbot, detect(), env)
    recipe = page.current_recipe()
    assert recipe is not None and recipe.id == "probe"  # recommended here: it fits
    return wizard, page, kept


def test_a_verified_wheel_is_offered_and_taken_without_compiling(
        qtbot: Any, torch_venv: Path, tmp_path: Path) -> None:
    wizard, page, kept = page_with_a_verified_probe(qtbot, torch_venv, tmp_path)
    assert page.cache_label.isVisible()
    assert page.cache_label.text() == ("Ready from the verified cache (verified on 2026-11-28): "
                                       "installs without compiling")
    assert kept.filename in page.cache_label.toolTip()
    assert page.cache_build.isVisible() and not page.cache_build.isChecked()
    assert not page.build_choice.isVisible()  # nothing to compile, nothing else to choose
    # the picker says it too, at the version that is ready
    combo = page.tree.combo("probe")
    assert combo.itemData(combo.findData("0.1.0"), Qt.ItemDataRole.ToolTipRole) == (
        page.cache_label.text())
    assert next_enabled(wizard)
    go_next(qtbot, wizard)
    choice = wizard.session.kernel_choice
    assert choice is not None and choice.cached == kept


def test_build_from_source_instead_builds_it(qtbot: Any, torch_venv: Path,
                                             tmp_path: Path) -> None:
    wizard, page, _kept = page_with_a_verified_probe(qtbot, torch_venv, tmp_path)
    page.cache_build.click()
    assert page.cache_build.isChecked()
    assert page.build_choice.isVisible() and page.build_choice.isChecked()
    assert page.bundled_label.isVisible()  # the ways to build it are back
    go_next(qtbot, wizard)
    choice = wizard.session.kernel_choice
    assert choice is not None and choice.recipe.id == "probe" and choice.cached is None
