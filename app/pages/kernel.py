"""Kernel and version: the catalog, what fits this machine and why not, and how to get it.

Every kernel of the catalog is a row (name, one-line description, a version picker, whether it
fits); what doesn't fit is greyed and the details area lists every reason with what to do. The
recommendation (:func:`build_backend.recommend.recommend_kernel`) is preselected and explained.
Below: where the source comes from (download, or a local folder or archive) and whether to use a
matching prebuilt wheel or build from source, with the estimate for this machine.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import cast

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Slot
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from build_backend.catalog import (
    Catalog,
    Machine,
    Recipe,
    RecipeVersion,
    SourceKind,
    Verdict,
    assess,
    recommended_version,
)
from build_backend.pipeline import KernelChoice, SourceMode
from build_backend.plan import build_archs
from build_backend.recommend import (
    PREBUILT_SECONDS,
    HowToGet,
    KernelPick,
    how_to_get,
    is_probe,
    minutes_text,
    recommend_kernel,
)
from build_backend.toolkits import CudaToolkit, choose_toolkit
from build_backend.wheels import WheelCandidate

from ..widgets.banner import Banner, Tone
from ..widgets.busy import BusyRow
from ..workers import BackgroundTask
from .base import SessionPage

COLUMNS = ("Kernel", "Version", "Fits this computer?")
ID_ROLE = Qt.ItemDataRole.UserRole
DESCRIPTION_ROLE = Qt.ItemDataRole.UserRole + 1
GREY = QColor("#8a8a8a")
GREEN = QColor("#1d6b32")
RED = QColor("#a11d1d")
INDENT = 22  # the sub-options under a radio button
WSL2_STEPS = (
    "This kernel cannot be built natively on Windows for your GPU, but it builds in WSL2 "
    "(Linux inside Windows), which uses this PC's GPU.\n\n"
    "1. Open PowerShell as administrator and run:  wsl --install -d Ubuntu\n"
    "2. Restart when asked, then open Ubuntu from the Start menu and create a user.\n"
    "3. Keep the NVIDIA driver of Windows: WSL2 uses it. Do not install a driver inside Ubuntu.\n"
    "4. Run the Linux version of this wizard inside Ubuntu and choose this kernel there."
)


class _KernelDelegate(QStyledItemDelegate):
    """The kernel column: the name in bold, its one-line description below."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        title = opt.text
        description = str(index.data(DESCRIPTION_ROLE) or "")
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        rect = rect.adjusted(3, 0, -3, 0)
        if opt.state & QStyle.StateFlag.State_Selected:
            color = opt.palette.color(QPalette.ColorRole.HighlightedText)
        else:
            brush = index.data(Qt.ItemDataRole.ForegroundRole)
            color = brush.color() if isinstance(brush, QBrush) else opt.palette.color(
                QPalette.ColorRole.Text)
        bold = QFont(opt.font)
        bold.setBold(True)
        bold_metrics, metrics = QFontMetrics(bold), QFontMetrics(opt.font)
        top = rect.top() + (rect.height() - bold_metrics.height() - metrics.height()) // 2
        painter.save()
        painter.setPen(color)
        painter.setFont(bold)
        painter.drawText(QRect(rect.left(), top, rect.width(), bold_metrics.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         bold_metrics.elidedText(title, Qt.TextElideMode.ElideRight, rect.width()))
        painter.setFont(opt.font)
        painter.drawText(QRect(rect.left(), top + bold_metrics.height(), rect.width(),
                               metrics.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         metrics.elidedText(description, Qt.TextElideMode.ElideRight,
                                            rect.width()))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        metrics = QFontMetrics(option.font)
        return QSize(size.width(), 2 * metrics.height() + 12)


class KernelPage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Kernel and version")
        self.setSubTitle("Choose the kernel library to install. Each one says whether it fits "
                         "this computer and, if not, exactly why.")
        self._task: BackgroundTask | None = None
        self._started = False
        self.catalog: Catalog | None = None
        self.toolkits: list[CudaToolkit] | None = None  # None: not discovered yet
        self._toolkit_error = ""
        self.machine: Machine | None = None
        self.pick: KernelPick | None = None
        self._selected_gpus: set[int] = set()
        self._versions: dict[str, RecipeVersion] = {}  # recipe id → the version shown
        self._user_versions: set[str] = set()  # recipe ids whose version the user picked
        self._verdicts: dict[tuple[str, str], Verdict] = {}
        self._items: dict[str, QTreeWidgetItem] = {}
        self._combos: dict[str, QComboBox] = {}
        self._how: HowToGet | None = None
        self.source_mode = SourceMode.DOWNLOAD
        self.local_path: Path | None = None
        self._populating = False  # the page, not the user, is filling the list
        self._user_picked = False  # the user chose a kernel: don't follow the recommendation

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self._scroll_area = QScrollArea()  # small windows scroll instead of squeezing rows
        self._scroll_area.setWidgetResizable(True)
        self._scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = QWidget()
        self._scroll_area.setWidget(content)
        outer.addWidget(self._scroll_area)
        layout = QVBoxLayout(content)
        self.busy = BusyRow("Looking for CUDA toolkits…")
        self.busy_label = self.busy.label
        layout.addWidget(self.busy)

        self.pick_banner = Banner()
        layout.addWidget(self.pick_banner)

        self.machine_label = QLabel()
        self.machine_label.setWordWrap(True)
        self.machine_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.machine_label)

        self.gpu_row = QWidget()
        gpu_layout = QHBoxLayout(self.gpu_row)
        gpu_layout.setContentsMargins(0, 0, 0, 0)
        gpu_layout.addWidget(QLabel("Build for:"))
        self._gpu_layout = gpu_layout
        self.gpu_checks: dict[int, QCheckBox] = {}
        gpu_layout.addStretch(1)
        self.gpu_row.setVisible(False)
        layout.addWidget(self.gpu_row)

        self.tree = QTreeWidget()
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setWordWrap(True)  # a reason in the last column takes two lines
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setItemDelegateForColumn(0, _KernelDelegate(self.tree))
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(1, 300)
        header.resizeSection(2, 205)
        self.tree.currentItemChanged.connect(self._on_current_changed)
        layout.addWidget(self.tree)

        lower = QHBoxLayout()
        details_column = QVBoxLayout()
        self.details = QTextBrowser()
        self.details.setOpenExternalLinks(True)
        self.details.setMinimumHeight(130)
        details_column.addWidget(self.details, 1)
        self.wsl_button = QPushButton("Use WSL2…")
        self.wsl_button.setToolTip("How to build this kernel in WSL2 on this PC")
        self.wsl_button.clicked.connect(self._explain_wsl2)
        self.wsl_button.setVisible(False)
        wsl_row = QHBoxLayout()
        wsl_row.addWidget(self.wsl_button)
        wsl_row.addStretch(1)
        details_column.addLayout(wsl_row)
        lower.addLayout(details_column, 3)

        self.method_box = QGroupBox("How to get it")
        method_layout = QVBoxLayout(self.method_box)
        self.prebuilt_choice = QRadioButton("A matching prebuilt wheel exists")
        self.build_choice = QRadioButton("Build from source")
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
        self.download_choice = QRadioButton("Download (git or source archive)")
        self.local_choice = QRadioButton("Local folder or archive…")
        self._source_group = QButtonGroup(self)
        self._source_group.addButton(self.download_choice)
        self._source_group.addButton(self.local_choice)
        self.download_choice.setChecked(True)
        self.download_choice.toggled.connect(self._on_source_toggled)
        source_layout.addWidget(self.download_choice)
        local_row = QHBoxLayout()
        local_row.addWidget(self.local_choice)
        local_row.addStretch(1)
        self.folder_button = QPushButton("Folder…")
        self.folder_button.setToolTip("A folder with the kernel's source (a git checkout or an "
                                      "unpacked archive)")
        self.folder_button.clicked.connect(self._choose_folder)
        self.archive_button = QPushButton("Archive…")
        self.archive_button.setToolTip("A .tar.gz or .zip of the kernel's source")
        self.archive_button.clicked.connect(self._choose_archive)
        local_row.addWidget(self.folder_button)
        local_row.addWidget(self.archive_button)
        source_layout.addLayout(local_row)
        self.path_label = QLabel()
        self.path_label.setWordWrap(True)
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        source_layout.addWidget(self.path_label)
        self.bundled_label = QLabel("Bundled with the wizard: nothing to download.")
        source_layout.addWidget(self.bundled_label)
        method_layout.addWidget(self.source_box)
        options = QVBoxLayout()
        options.addWidget(self.method_box)
        options.addStretch(1)
        lower.addLayout(options, 2)
        layout.addLayout(lower, 1)

        self.problems_banner = Banner()
        self.problems_banner.hint.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.problems_banner)
        self._update_options()

    # -- QWizardPage -------------------------------------------------------------------------


    def initializePage(self) -> None:
        if not self._started:  # the catalog and toolkits are read once, after the first show
            self._started = True
            self.start_discovery()
        else:
            self.refresh()

    def is_busy(self) -> bool:
        return self._task is not None

    def isComplete(self) -> bool:
        if self.is_busy() or self.machine is None:
            return False
        recipe, version = self.current_recipe(), self.current_version()
        if recipe is None or version is None or not self.verdict(recipe, version).available:
            return False
        if self.source_mode is SourceMode.LOCAL and self.local_path is None:
            return self.use_prebuilt()  # a prebuilt wheel needs no source
        return True

    def validatePage(self) -> bool:
        recipe, version = self.current_recipe(), self.current_version()
        if not self.isComplete() or recipe is None or version is None:
            return False
        self.session.choose_kernel(
            KernelChoice(
                recipe,
                version,
                self.effective_source_mode(),
                self.local_path if self.effective_source_mode() is SourceMode.LOCAL else None,
                self.gpu_indices(),
            ),
            self.chosen_wheel(),
        )
        return True

    # -- discovery -----------------------------------------------------------------------------

    def start_discovery(self) -> None:
        session = self.session
        self.busy_label.setText("Reading the kernel catalog and looking for CUDA toolkits…")
        self.busy.setVisible(True)

        def work() -> tuple[Catalog, list[CudaToolkit], str]:
            catalog = session.catalog()
            try:
                found, error = session.toolkits(), ""
            except Exception as exc:  # noqa: BLE001 - shown in the page; building may still work
                found, error = [], str(exc)
                session.set_toolkits(found)  # searched once: not again on the GUI thread
            return catalog, found, error

        self._task = BackgroundTask(work, self)
        self._task.finished.connect(self._on_discovered)
        self._task.failed.connect(self._on_discovery_failed)
        self.completeChanged.emit()
        self._task.start()

    @Slot(object)
    def _on_discovered(self, result: object) -> None:
        catalog, toolkits, error = cast("tuple[Catalog, list[CudaToolkit], str]", result)
        self._task = None
        self.busy.setVisible(False)
        self.catalog, self.toolkits, self._toolkit_error = catalog, toolkits, error
        self.refresh()

    @Slot(object)
    def _on_discovery_failed(self, exc: object) -> None:
        self._task = None
        self.busy.setVisible(False)
        self.pick_banner.show_message(Tone.ERROR, "The kernel catalog could not be read.",
                                      str(exc))
        self.completeChanged.emit()

    # -- the machine and the list ---------------------------------------------------------------

    def toolkit(self) -> CudaToolkit | None:
        env = self.session.environment
        torch_cuda = env.torch.cuda_version if env is not None and env.torch else None
        if torch_cuda is None or not self.toolkits:
            return None
        return choose_toolkit(self.toolkits, torch_cuda)

    def _make_machine(self) -> Machine | None:
        session = self.session
        if session.hardware is None or session.environment is None:
            return None
        usable = [g.index for g in session.hardware.usable_gpus]
        selected = [i for i in usable if i in self._selected_gpus] if self.gpu_checks else usable
        return session.machine(selected if usable else None)  # the one machine description

    def refresh(self) -> None:
        """Build the machine from the earlier pages' findings and show the catalog for it."""
        if self.catalog is None:
            return
        state = self.session
        hardware_changed = self.machine is None or self.machine.hardware != state.hardware
        if hardware_changed:
            self._build_gpu_selector()
        machine = self._make_machine()
        if machine is None:
            self.machine = None
            self.pick_banner.show_message(
                Tone.ERROR, "The hardware and the target Python are not known yet.",
                "Go back to the Hardware page and choose a Python environment.")
            self.completeChanged.emit()
            return
        if machine == self.machine:
            self.completeChanged.emit()
            return
        fresh = self.machine is None or self.machine.env != machine.env or hardware_changed
        self.machine = machine
        self._verdicts.clear()
        if fresh:  # a new computer or environment: start again from the recommendation
            self._user_versions.clear()
            self._user_picked = False
        self.pick = recommend_kernel(self.catalog, machine)
        keep = self.current_recipe() if self._user_picked else None
        self._populate(keep.id if keep is not None else
                       (self.pick.recipe.id if self.pick is not None else None))
        self._show_machine()
        self._show_pick()
        self._show_problems()

    def _build_gpu_selector(self) -> None:
        for check in self.gpu_checks.values():
            self._gpu_layout.removeWidget(check)
            check.deleteLater()
        self.gpu_checks.clear()
        hardware = self.session.hardware
        usable = hardware.usable_gpus if hardware is not None else ()
        self._selected_gpus = {g.index for g in usable}
        if len(usable) > 1:
            for position, gpu in enumerate(usable):
                cc = gpu.compute_capability
                assert cc is not None
                check = QCheckBox(f"GPU {gpu.index}: {gpu.name or 'unknown'} ({cc[0]}.{cc[1]})")
                check.setChecked(True)
                check.toggled.connect(lambda on, index=gpu.index: self._on_gpu_toggled(index, on))
                self._gpu_layout.insertWidget(1 + position, check)
                self.gpu_checks[gpu.index] = check
        self.gpu_row.setVisible(len(usable) > 1)

    def _on_gpu_toggled(self, index: int, on: bool) -> None:
        if on:
            self._selected_gpus.add(index)
        else:
            self._selected_gpus.discard(index)
        self.refresh()

    def set_gpu_selected(self, index: int, on: bool) -> None:
        """What ticking a GPU's box does."""
        self.gpu_checks[index].setChecked(on)

    def gpu_indices(self) -> tuple[int, ...] | None:
        """The selected GPUs' indices; None where there is no usable GPU."""
        machine = self.machine
        if machine is None or not machine.hardware.usable_gpus:
            return None
        return tuple(g.index for g in machine.gpus)

    def verdict(self, recipe: Recipe, version: RecipeVersion) -> Verdict:
        assert self.machine is not None
        key = (recipe.id, version.label)
        if key not in self._verdicts:
            self._verdicts[key] = assess(recipe, version, self.machine)
        return self._verdicts[key]

    def _ordered(self) -> list[Recipe]:
        """The probe first (the quick start), then the catalog's order."""
        assert self.catalog is not None
        recipes = list(self.catalog)
        return [r for r in recipes if is_probe(r)] + [r for r in recipes if not is_probe(r)]

    def _populate(self, current_id: str | None) -> None:
        assert self.machine is not None
        self._populating = True
        self.tree.clear()
        self._items.clear()
        self._combos.clear()
        for recipe in self._ordered():
            recommended = recommended_version(recipe, self.machine)
            if recipe.id not in self._user_versions or recipe.id not in self._versions:
                self._versions[recipe.id] = recommended
            item = QTreeWidgetItem(self.tree)
            item.setText(0, recipe.name)
            item.setData(0, ID_ROLE, recipe.id)
            item.setData(0, DESCRIPTION_ROLE, recipe.description)
            item.setToolTip(0, f"{recipe.name}: {recipe.description}")
            combo = QComboBox()
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            for version in reversed(recipe.versions):  # newest first
                verdict = self.verdict(recipe, version)
                text = ("" if verdict.available else "✖ ") + version.label + (
                    " (recommended)" if version is recommended else "")
                combo.addItem(text, version.label)
                row = combo.count() - 1
                if not verdict.available:
                    combo.setItemData(row, QBrush(GREY), Qt.ItemDataRole.ForegroundRole)
                    combo.setItemData(row, "\n".join(verdict.texts), Qt.ItemDataRole.ToolTipRole)
                elif version.notes:
                    combo.setItemData(row, version.notes, Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(combo.findData(self._versions[recipe.id].label))
            combo.currentIndexChanged.connect(
                lambda _row, rid=recipe.id: self._on_version_changed(rid))
            holder = QWidget()
            holder_layout = QVBoxLayout(holder)
            holder_layout.setContentsMargins(2, 2, 2, 2)
            holder_layout.addWidget(combo, 0, Qt.AlignmentFlag.AlignVCenter)
            self.tree.setItemWidget(item, 1, holder)
            self._items[recipe.id] = item
            self._combos[recipe.id] = combo
            self._show_row(recipe)
        self._fit_tree_height()
        target = self._items.get(current_id or "") or (
            self.tree.topLevelItem(0) if self.tree.topLevelItemCount() else None)
        if target is not None:
            self.tree.setCurrentItem(target)
        self._populating = False
        self._on_selection()

    def _fit_tree_height(self) -> None:
        """As tall as its rows (up to 6), so the details below get the rest of the page."""
        tree = self.tree
        rows = min(tree.topLevelItemCount(), 6)
        height = tree.header().sizeHint().height() + 2 * tree.frameWidth() + 2
        if rows:
            height += rows * tree.sizeHintForRow(0)
        tree.setFixedHeight(height)

    def _show_row(self, recipe: Recipe) -> None:
        item = self._items[recipe.id]
        version = self._versions[recipe.id]
        verdict = self.verdict(recipe, version)
        if verdict.available:
            status = "✔ Fits (CPU part only)" if verdict.cpu_only else "✔ Fits"
            item.setForeground(0, QBrush(self.palette().color(QPalette.ColorRole.Text)))
            item.setForeground(2, QBrush(GREEN))
            item.setToolTip(2, "\n".join(verdict.warnings) or verdict.summary)
        else:
            more = len(verdict.reasons) - 1
            status = "✖ " + verdict.reasons[0].text + (f" (+{more} more)" if more else "")
            item.setForeground(0, QBrush(GREY))
            item.setForeground(2, QBrush(RED))
            item.setToolTip(2, "\n".join(f"• {r.text}" for r in verdict.reasons))
        item.setText(2, status)

    # -- selection -------------------------------------------------------------------------------

    def kernel_ids(self) -> list[str]:
        items = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [str(item.data(0, ID_ROLE)) for item in items if item is not None]

    def current_recipe(self) -> Recipe | None:
        item = self.tree.currentItem()
        if item is None or self.catalog is None:
            return None
        rid = item.data(0, ID_ROLE)
        return next((r for r in self.catalog if r.id == rid), None)

    def current_version(self) -> RecipeVersion | None:
        recipe = self.current_recipe()
        return self._versions.get(recipe.id) if recipe is not None else None

    def current_verdict(self) -> Verdict | None:
        recipe, version = self.current_recipe(), self.current_version()
        if recipe is None or version is None or self.machine is None:
            return None
        return self.verdict(recipe, version)

    def select_kernel(self, recipe_id: str) -> None:
        self.tree.setCurrentItem(self._items[recipe_id])

    def select_version(self, recipe_id: str, label: str) -> None:
        """What choosing a version in the kernel's picker does."""
        combo = self._combos[recipe_id]
        row = combo.findData(label)
        assert row >= 0, f"{recipe_id} has no version {label}"
        combo.setCurrentIndex(row)

    def version_combo(self, recipe_id: str) -> QComboBox:
        return self._combos[recipe_id]

    def is_greyed(self, recipe_id: str) -> bool:
        return self._items[recipe_id].foreground(0).color() == GREY

    def status_text(self, recipe_id: str) -> str:
        return self._items[recipe_id].text(2)

    def _on_version_changed(self, recipe_id: str) -> None:
        if self._populating or self.catalog is None:
            return
        recipe = self.catalog.get(recipe_id)
        label = self._combos[recipe_id].currentData()
        self._versions[recipe_id] = recipe.version(str(label))
        self._user_versions.add(recipe_id)
        self._user_picked = True
        self._show_row(recipe)
        if self.tree.currentItem() is not self._items[recipe_id]:
            self.tree.setCurrentItem(self._items[recipe_id])  # calls _on_selection
        else:
            self._on_selection()

    @Slot(object, object)
    def _on_current_changed(self, _current: object, _previous: object) -> None:
        if not self._populating:
            self._user_picked = True
            self._on_selection()

    def _on_selection(self) -> None:
        self._show_details()
        self._update_options()
        self.completeChanged.emit()

    # -- what the page shows ----------------------------------------------------------------------

    def _show_machine(self) -> None:
        machine = self.machine
        assert machine is not None
        parts: list[str] = [machine.os.label]
        gpus = machine.gpus
        if gpus:
            names = ", ".join(dict.fromkeys(g.name or "unknown" for g in gpus))
            archs = ", ".join(sorted({f"{g.compute_capability[0]}.{g.compute_capability[1]}"
                                      for g in gpus if g.compute_capability}))
            label = "architectures" if "," in archs else "architecture"
            union = " (the union of the selected GPUs)" if len(gpus) > 1 else ""
            parts.append(f"GPU: {names} — builds for {label} {archs}{union}")
        elif machine.hardware.usable_gpus:
            parts.append("GPU: none selected")
        else:
            parts.append("GPU: none usable")
        torch = machine.torch
        if torch is None:
            parts.append("PyTorch: not installed")
        else:
            cuda = "" if "+cu" in torch.version else f" (CUDA {torch.cuda})"
            parts.append(f"PyTorch {torch.version}" + (cuda if torch.cuda else " (CPU-only)"))
            if torch.cuda:
                chosen = self.toolkit()
                if chosen is not None:
                    parts.append(f"CUDA toolkit {chosen.version.text if chosen.version else '?'}"
                                 f" ({chosen.root})")
                elif self._toolkit_error:
                    parts.append(f"CUDA toolkit: search failed ({self._toolkit_error})")
                else:
                    parts.append("CUDA toolkit: none found")
        self.machine_label.setText(" · ".join(parts))

    def arch_text(self) -> str:
        machine = self.machine
        return ", ".join(sorted({f"{g.compute_capability[0]}.{g.compute_capability[1]}"
                                 for g in machine.gpus if g.compute_capability})) if machine else ""

    def _show_pick(self) -> None:
        pick = self.pick
        if pick is None:
            self.pick_banner.show_message(Tone.ERROR, "The kernel catalog is empty.",
                                          "Reinstall the wizard: its recipes are missing.")
            return
        tone = Tone.OK if pick.verdict.available else Tone.WARNING
        self.pick_banner.show_message(
            tone, f"Recommended: {pick.recipe.name} {pick.version.label}", pick.why)

    def _show_problems(self) -> None:
        catalog = self.catalog
        if catalog is None or not catalog.problems:
            self.problems_banner.setVisible(False)
            return
        files = sorted({p.file for p in catalog.problems})
        self.problems_banner.show_message(
            Tone.WARNING,
            f"{len(files)} broken recipe{'s were' if len(files) > 1 else ' was'} left out "
            f"({', '.join(files)})",
            "\n".join(str(p) for p in catalog.problems),
        )

    def _show_details(self) -> None:
        recipe, version, verdict = self.current_recipe(), self.current_version(), \
            self.current_verdict()
        if recipe is None or version is None or verdict is None:
            self.details.setHtml("")
            self.wsl_button.setVisible(False)
            return
        e = html.escape
        out = [f"<b>{e(recipe.name)} {e(version.label)}</b> — {e(recipe.description)}"]
        facts = [f"License: {e(recipe.license)}"]
        if recipe.homepage:
            facts.append(f'<a href="{e(recipe.homepage)}">{e(recipe.homepage)}</a>')
        if version.released:
            facts.append(f"released {e(version.released)}")
        out.append("<br>" + " · ".join(facts))
        if version.notes:
            out.append(f"<br><i>{e(version.notes)}</i>")
        if verdict.available:
            if verdict.cpu_only:
                what = "Only its CPU part can be built here (see the warnings)."
            else:
                names = (build_archs(recipe, version, self.machine).names
                         if self.machine is not None else ())
                what = (f"It will be built for {', '.join(names)}." if names
                        else "It will be built for its default architectures.")
            out.append(f"<p style='color:#1d6b32'>✔ Fits this computer. {e(what)}</p>")
        else:
            count = len(verdict.reasons)
            out.append(f"<p style='color:#a11d1d'><b>✖ Does not fit this computer "
                       f"({count} reason{'s' if count > 1 else ''}):</b></p><ul>")
            for reason in verdict.reasons:
                hint = f"<br><span style='color:#555'>→ {e(reason.hint)}</span>" \
                    if reason.hint else ""
                out.append(f"<li>{e(reason.text)}{hint}</li>")
            out.append("</ul>")
        if verdict.warnings:
            out.append("<p style='color:#8a5a00'><b>⚠ Warnings</b></p><ul>")
            out += [f"<li>{e(w)}</li>" for w in verdict.warnings]
            out.append("</ul>")
        if verdict.alternative == "wsl2":
            out.append("<p><b>Use WSL2:</b> this kernel builds in WSL2 on this PC "
                       "(see “Use WSL2…”).</p>")
        self.details.setHtml("".join(out))
        self.wsl_button.setVisible(verdict.alternative == "wsl2")

    # -- source and method ----------------------------------------------------------------------

    def is_bundled(self) -> bool:
        recipe = self.current_recipe()
        return recipe is not None and recipe.source.kind is SourceKind.LOCAL

    def effective_source_mode(self) -> SourceMode:
        return SourceMode.BUNDLED if self.is_bundled() else self.source_mode

    def use_prebuilt(self) -> bool:
        return self._how is not None and self._how.prebuilt is not None and \
            self.prebuilt_choice.isChecked()

    def chosen_wheel(self) -> WheelCandidate | None:
        return self._how.prebuilt if self._how is not None and self.use_prebuilt() else None

    def _update_options(self) -> None:
        recipe, version, verdict = self.current_recipe(), self.current_version(), \
            self.current_verdict()
        bundled = self.is_bundled()
        fits = verdict is not None and verdict.available
        previous = self._how
        self._how = (how_to_get(recipe, version, verdict, self.machine)
                     if recipe is not None and version is not None and verdict is not None
                     and self.machine is not None else None)
        how = self._how
        # -- prebuilt or build
        wheel = how.prebuilt if how is not None and fits else None
        self.prebuilt_choice.setVisible(wheel is not None)
        self.wheel_label.setVisible(wheel is not None)
        if wheel is not None:
            sure = wheel.listed
            self.prebuilt_choice.setText(
                f"A matching prebuilt wheel exists (about {minutes_text(PREBUILT_SECONDS)})"
                if sure else "A matching prebuilt wheel may exist "
                f"(about {minutes_text(PREBUILT_SECONDS)})")
            self.wheel_label.setText(f"From {wheel.source_name}"
                                     + (f". {wheel.note}" if wheel.note else ""))
            self.wheel_label.setToolTip(f"{wheel.filename}\n{wheel.url}")
            self.prebuilt_choice.setToolTip(f"{wheel.filename}\n{wheel.url}")
            same = previous is not None and previous.prebuilt == wheel
            if not same:  # a new offer: a listed wheel is the default, an unlisted one is not
                (self.prebuilt_choice if sure else self.build_choice).setChecked(True)
        else:
            self.build_choice.setChecked(True)
        if how is not None:
            estimate = minutes_text(how.build.seconds)
            self.build_choice.setText(f"Build from source (est. {estimate})")
            self.build_choice.setToolTip(how.build.explanation)
        else:
            self.build_choice.setText("Build from source")
        self.method_box.setEnabled(fits)
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
            self.path_label.setText("Not needed: the prebuilt wheel is installed as it is.")
        elif self.source_mode is SourceMode.LOCAL:
            self.path_label.setText(f"Chosen: {self.local_path}" if self.local_path else
                                    "Choose the folder or archive (.tar.gz, .zip) with the "
                                    "source: Folder… or Archive…")
        else:
            where = recipe.source.url if recipe is not None and recipe.source.url else ""
            ref = version.ref if version is not None else ""
            self.path_label.setText(f"From {where} at {ref[:12]}" if where else "")

    @Slot(bool)
    def _on_source_toggled(self, _checked: bool) -> None:
        self.source_mode = SourceMode.DOWNLOAD if self.download_choice.isChecked() \
            else SourceMode.LOCAL
        self._update_options()
        self.completeChanged.emit()

    @Slot(bool)
    def _on_method_toggled(self, _checked: bool) -> None:
        self._update_options()
        self.completeChanged.emit()

    def set_local_path(self, path: Path) -> None:
        """Use this folder or archive as the source (what Folder…/Archive… do once chosen)."""
        self.local_path = path
        self.local_choice.setChecked(True)
        self.source_mode = SourceMode.LOCAL
        self._update_options()
        self.completeChanged.emit()

    @Slot()
    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self,
                                                  "Choose the folder with the kernel's source")
        if folder:
            self.set_local_path(Path(folder))

    @Slot()
    def _choose_archive(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Choose the kernel's source archive", "",
            "Source archives (*.tar.gz *.tgz *.zip);;All files (*)")
        if path:
            self.set_local_path(Path(path))

    @Slot()
    def _explain_wsl2(self) -> None:
        QMessageBox.information(self, "Build in WSL2", WSL2_STEPS)
