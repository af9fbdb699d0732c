"""The Kernel page's "How to get it" box: a matching prebuilt wheel or a source build (with the
estimate for this machine), and where a source build gets its source (a download, or a local
folder or archive; nothing to choose for a kernel bundled with the wizard).

A kernel version that passed verification before with this PyTorch build, Python and GPUs is
ready from the wizard's verified-wheel cache: the box says so first, and that is how it is got
(nothing to compile, nothing else to choose) unless "Build from source instead" is checked.

The box holds the choice; ``changed`` says the user changed it. The page feeds it the kernel
version in view and the route of its own source, as the session decided it
(:meth:`HowToGetBox.show_for`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from kernel_wizard.catalog import Machine, Recipe, RecipeVersion, Verdict
from kernel_wizard.catalog.wheels import WheelCandidate
from kernel_wizard.flow.pipeline import SourceMode, SourceRoute
from kernel_wizard.flow.recommend import (
    PREBUILT_SECONDS,
    HowToGet,
    how_to_get,
    minutes_text,
    source_build_estimate,
)
from kernel_wizard.install.wheel_cache import CachedWheel

from ..i18n import Texts, kernel_name, tr, tr_core

INDENT = 22  # the sub-options under a radio button

TEXT = Texts("KernelPage", {
    "box": "How to get it",
    "cached": "Ready from the verified cache (verified on {date}): installs without compiling",
    "cached_tip": "This version passed the wizard's verification before with the same PyTorch "
                  "build, Python and GPUs; its wheel is kept in the wizard's cache ({file}). It "
                  "is verified again in this environment before it is installed.",
    "cache_build": "Build from source instead",
    "cache_build_tip": "Compile it again from its source, as if it had never been built here "
                       "(the cached wheel is left as it is).",
    "prebuilt_sure": "A matching prebuilt wheel exists (about {time})",
    "prebuilt_maybe": "A matching prebuilt wheel may exist (about {time})",
    "wheel_from": "From {source}",
    "wheel_from_note": "From {source}. {note}",
    "build_estimate": "Build from source (est. {time})",
    "chosen": "Chosen: {path}",
    "choose_local": "Choose the folder or archive (.tar.gz, .zip) with the source: Folder… or "
                    "Archive…",
    "download_from": "From {url} at {ref}",
    "folder_title": "Choose the folder with the kernel's source",
    "variant": "Build:",
    "variant_item": "{label} (est. {time})",
    "variant_tip": "Which parts of the library to compile. The default covers what most programs "
                   "call; the full build is everything the library has, and takes much longer.",
})


class HowToGetBox(QGroupBox):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(TEXT["box"], parent)
        self.how: HowToGet | None = None
        self.source_mode = SourceMode.DOWNLOAD
        self.local_path: Path | None = None
        self._recipe: Recipe | None = None
        self._route: SourceRoute | None = None  # of the recipe's own source (the session's)
        self.cached: CachedWheel | None = None  # the verified wheel offered for the version
        method_layout = QVBoxLayout(self)
        # ready from the verified-wheel cache: said first, with the way to build it anyway
        self.cache_label = QLabel()
        self.cache_label.setWordWrap(True)
        self.cache_label.setStyleSheet("color: #1d6b32; font-weight: bold;")
        self.cache_build = QCheckBox(TEXT["cache_build"])
        self.cache_build.setToolTip(TEXT["cache_build_tip"])
        self.cache_build.toggled.connect(self._on_method_toggled)
        method_layout.addWidget(self.cache_label)
        method_layout.addWidget(self.cache_build)
        self.prebuilt_choice = QRadioButton(tr("A matching prebuilt wheel exists"))
        self.build_choice = QRadioButton(tr("Build from source"))
        self._method_group = QButtonGroup(self)
        self._method_group.addButton(self.prebuilt_choice)
        self._method_group.addButton(self.build_choice)
        self.build_choice.setChecked(True)
        self.prebuilt_choice.toggled.connect(self._on_method_toggled)
        self.wheel_label = QLabel()
        self.wheel_label.setWordWrap(True)
        self.wheel_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.wheel_label.setStyleSheet("color: #555;")
        self.wheel_label.setContentsMargins(INDENT, 0, 0, 0)
        method_layout.addWidget(self.prebuilt_choice)
        method_layout.addWidget(self.wheel_label)
        method_layout.addWidget(self.build_choice)

        # where a source build gets its source (indented under "Build from source")
        self.source_box = QWidget()
        source_layout = QVBoxLayout(self.source_box)
        source_layout.setContentsMargins(INDENT, 0, 0, 0)
        self.download_choice = QRadioButton(tr("Download (git or source archive)"))
        self.local_choice = QRadioButton(tr("Local folder or archive…"))
        self._source_group = QButtonGroup(self)
        self._source_group.addButton(self.download_choice)
        self._source_group.addButton(self.local_choice)
        self.download_choice.setChecked(True)
        self.download_choice.toggled.connect(self._on_source_toggled)
        source_layout.addWidget(self.download_choice)
        local_row = QHBoxLayout()
        local_row.addWidget(self.local_choice)
        local_row.addStretch(1)
        self.folder_button = QPushButton(tr("Folder…"))
        self.folder_button.setToolTip(tr("A folder with the kernel's source (a git checkout or an "
                                      "unpacked archive)"))
        self.folder_button.clicked.connect(self._choose_folder)
        self.archive_button = QPushButton(tr("Archive…"))
        self.archive_button.setToolTip(tr("A .tar.gz or .zip of the kernel's source"))
        self.archive_button.clicked.connect(self._choose_archive)
        local_row.addWidget(self.folder_button)
        local_row.addWidget(self.archive_button)
        source_layout.addLayout(local_row)
        self.path_label = QLabel()
        self.path_label.setWordWrap(True)
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        source_layout.addWidget(self.path_label)
        # a library built in several ways (FlashAttention 3: compact or full): which one
        self.variant_row = QWidget()
        variant_layout = QHBoxLayout(self.variant_row)
        variant_layout.setContentsMargins(0, 0, 0, 0)
        variant_layout.addWidget(QLabel(TEXT["variant"]))
        self.variant_combo = QComboBox()
        self.variant_combo.setToolTip(TEXT["variant_tip"])
        self.variant_combo.currentIndexChanged.connect(self._on_variant_changed)
        variant_layout.addWidget(self.variant_combo, 1)
        self.variant_row.setVisible(False)
        source_layout.addWidget(self.variant_row)
        self.bundled_label = QLabel(tr("Bundled with the wizard: nothing to download."))
        source_layout.addWidget(self.bundled_label)
        method_layout.addWidget(self.source_box)

    # -- the choice ------------------------------------------------------------------------------

    def is_bundled(self) -> bool:
        """Whether the kernel in view ships with the wizard (nothing to choose about its
        source): the session's route of the recipe's own source, not decided here."""
        return self._recipe is not None and self._route is SourceRoute.BUNDLED

    def effective_source_mode(self) -> SourceMode:
        return SourceMode.BUNDLED if self.is_bundled() else self.source_mode

    def use_cache(self) -> bool:
        """Whether the version in view is got from the verified-wheel cache (offered, and
        "Build from source instead" not checked)."""
        return self.cached is not None and not self.cache_build.isChecked()

    def use_prebuilt(self) -> bool:
        return self.how is not None and self.how.prebuilt is not None and \
            self.prebuilt_choice.isChecked() and not self.use_cache()

    def chosen_wheel(self) -> WheelCandidate | None:
        return self.how.prebuilt if self.how is not None and self.use_prebuilt() else None

    @property
    def variant(self) -> str | None:
        """The build variant chosen (None: the recipe has none)."""
        if self.variant_combo.count() == 0:
            return None
        data = self.variant_combo.currentData()
        return str(data) if data else None

    def select_variant(self, variant_id: str) -> None:
        index = self.variant_combo.findData(variant_id)
        if index >= 0:
            self.variant_combo.setCurrentIndex(index)

    def needs_source(self) -> bool:
        """A local source was asked for but none is chosen yet (and no wheel replaces it)."""
        return (self.source_mode is SourceMode.LOCAL and self.local_path is None
                and not self.use_prebuilt() and not self.use_cache())

    # -- what the box shows -----------------------------------------------------------------------

    def show_for(self, recipe: Recipe | None, version: RecipeVersion | None,
                 verdict: Verdict | None, machine: Machine | None,
                 route: SourceRoute | None = None, cached: CachedWheel | None = None) -> None:
        """Show the ways to get this version (the wheels that match, the build estimate).
        ``route``: how the recipe's own source is got, as the session decided it (its kernel
        table's :attr:`~kernel_wizard.flow.session.KernelRow.route`); ``cached``: a verified
        wheel of this version that fits here (:attr:`~kernel_wizard.flow.session.KernelRow.
        cached`), offered for the build variant it was built as."""
        changed_recipe = recipe is not self._recipe
        self._recipe = recipe
        self._route = route
        bundled = self.is_bundled()
        fits = verdict is not None and verdict.available
        previous = self.how
        if changed_recipe:
            self._fill_variants(recipe, version, verdict, machine)
        self.how = (how_to_get(recipe, version, verdict, machine, self.variant)
                    if recipe is not None and version is not None and verdict is not None
                    and machine is not None else None)
        how = self.how
        # -- ready from the verified cache (the choices below are for building it anyway)
        self.cached = cached if fits and cached is not None and cached.variant == self.variant \
            else None
        if self.cached is not None:
            self.cache_label.setText(TEXT["cached"].format(date=self.cached.verified_on))
            self.cache_label.setToolTip(TEXT["cached_tip"].format(file=self.cached.filename))
        self.cache_label.setVisible(self.cached is not None)
        self.cache_build.setVisible(self.cached is not None)
        from_cache = self.use_cache()
        # -- prebuilt or build
        wheel = how.prebuilt if how is not None and fits else None
        if wheel is not None:
            sure = wheel.listed
            about = tr_core(minutes_text(PREBUILT_SECONDS))
            self.prebuilt_choice.setText(
                TEXT["prebuilt_sure" if sure else "prebuilt_maybe"].format(time=about))
            self.wheel_label.setText(
                TEXT["wheel_from_note"].format(source=kernel_name(wheel.source_name),
                                               note=tr_core(wheel.note))
                if wheel.note else
                TEXT["wheel_from"].format(source=kernel_name(wheel.source_name)))
            self.wheel_label.setToolTip(f"{wheel.filename}\n{wheel.url}")
            self.prebuilt_choice.setToolTip(f"{wheel.filename}\n{wheel.url}")
            same = previous is not None and previous.prebuilt == wheel
            if not same:  # a new offer: a listed wheel is the default, an unlisted one is not
                (self.prebuilt_choice if sure else self.build_choice).setChecked(True)
        else:
            self.build_choice.setChecked(True)
        if how is not None:
            estimate = tr_core(minutes_text(how.build.seconds))
            self.build_choice.setText(TEXT["build_estimate"].format(time=estimate))
            self.build_choice.setToolTip(tr_core(how.build.explanation))
        else:
            self.build_choice.setText(tr("Build from source"))
        self.setEnabled(fits)
        # from the cache there is nothing else to choose: the ways to build it come back with
        # "Build from source instead"
        self.prebuilt_choice.setVisible(wheel is not None and not from_cache)
        self.wheel_label.setVisible(wheel is not None and not from_cache)
        self.build_choice.setVisible(not from_cache)
        self.source_box.setVisible(not from_cache)
        # -- source
        self.bundled_label.setVisible(bundled)
        prebuilt = self.use_prebuilt()
        for widget in (self.download_choice, self.local_choice, self.folder_button,
                       self.archive_button):
            widget.setEnabled(fits and not bundled and not prebuilt)
        self.path_label.setVisible(not bundled)
        if bundled:
            self.path_label.setText("")
        elif prebuilt:
            self.path_label.setText(tr("Not needed: the prebuilt wheel is installed as it is."))
        elif self.source_mode is SourceMode.LOCAL:
            self.path_label.setText(TEXT["chosen"].format(path=self.local_path)
                                    if self.local_path else TEXT["choose_local"])
        else:
            where = recipe.source.url if recipe is not None and recipe.source.url else ""
            ref = version.ref if version is not None else ""
            self.path_label.setText(TEXT["download_from"].format(url=where, ref=ref[:12])
                                    if where else "")

    def _fill_variants(self, recipe: Recipe | None, version: RecipeVersion | None,
                       verdict: Verdict | None, machine: Machine | None) -> None:
        """The variants of a newly shown recipe, each with its estimate; its default chosen."""
        self.variant_combo.blockSignals(True)
        self.variant_combo.clear()
        variants = recipe.variants if recipe is not None else ()
        for variant in variants:
            text = tr_core(variant.label)
            if recipe is not None and version is not None and verdict is not None \
                    and machine is not None and verdict.available:
                seconds = source_build_estimate(recipe, version, verdict, machine,
                                                 variant.id).seconds
                text = TEXT["variant_item"].format(label=text,
                                                   time=tr_core(minutes_text(seconds)))
            self.variant_combo.addItem(text, variant.id)
            self.variant_combo.setItemData(self.variant_combo.count() - 1,
                                           tr_core(variant.description),
                                           Qt.ItemDataRole.ToolTipRole)
        if recipe is not None and recipe.default_variant is not None:
            self.select_variant(recipe.default_variant.id)
        self.variant_combo.blockSignals(False)
        self.variant_row.setVisible(bool(variants))
        self._show_variant_tip()

    def _show_variant_tip(self) -> None:
        """The chosen variant's contents on the combo box itself (all are in the details)."""
        recipe = self._recipe
        variant = recipe.variant(self.variant) if recipe is not None and self.variant else None
        self.variant_combo.setToolTip(tr_core(variant.description) if variant is not None
                                      else TEXT["variant_tip"])

    # -- what the user does -----------------------------------------------------------------------

    @Slot(int)
    def _on_variant_changed(self, _index: int) -> None:
        self._show_variant_tip()
        self.changed.emit()

    @Slot(bool)
    def _on_source_toggled(self, _checked: bool) -> None:
        self.source_mode = SourceMode.DOWNLOAD if self.download_choice.isChecked() \
            else SourceMode.LOCAL
        self.changed.emit()

    @Slot(bool)
    def _on_method_toggled(self, _checked: bool) -> None:
        self.changed.emit()

    def set_local_path(self, path: Path) -> None:
        """Use this folder or archive as the source (what Folder…/Archive… do once chosen)."""
        self.local_path = path
        self.local_choice.setChecked(True)
        self.source_mode = SourceMode.LOCAL
        self.changed.emit()

    @Slot()
    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, TEXT["folder_title"])
        if folder:
            self.set_local_path(Path(folder))

    @Slot()
    def _choose_archive(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, tr("Choose the kernel's source archive"), "",
            tr("Source archives (*.tar.gz *.tgz *.zip);;All files (*)"))
        if path:
            self.set_local_path(Path(path))


__all__ = ["INDENT", "HowToGetBox"]
