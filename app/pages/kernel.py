"""Kernel and version: the catalog, what fits this machine and why not, and how to get it.

Every kernel of the catalog is a row (:mod:`.kernel_list`: name, one-line description, a version
picker, whether it fits); what doesn't fit is greyed and the details area lists every reason with
what to do (:mod:`.kernel_texts`). Whether a version fits is the session's verdict: the recipe's
requirements plus what the prerequisite checks found missing for it (a kernel a missing
prerequisite rules out says so, with a button back to the Prerequisites page and its Fix). The
recommendation (:func:`kernel_wizard.flow.recommend.recommend_kernel`) is preselected and explained.
Below: how to get it (:mod:`.kernel_source`: ready from the verified-wheel cache, a matching
prebuilt wheel or a build, and where the source comes from), with the estimate for this machine.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from kernel_wizard.base.errors import WizardError
from kernel_wizard.build.plan import build_archs
from kernel_wizard.catalog import (
    Catalog,
    Machine,
    Recipe,
    RecipeVersion,
    Verdict,
)
from kernel_wizard.catalog.worth import SdpaSpeed, SpeedUnavailable, user_workloads
from kernel_wizard.catalog.worth import Verdict as SpeedVerdict
from kernel_wizard.flow.pipeline import SourceMode
from kernel_wizard.flow.recommend import KernelPick, is_probe, recommend_kernel
from kernel_wizard.flow.session import FlowStep, KernelRequest, KernelRow
from kernel_wizard.machine.toolkits import CudaToolkit

from ..error_dialog import error_box
from ..i18n import Texts, kernel_name, tr, tr_core
from ..widgets.banner import Banner, Tone
from ..widgets.busy import BusyRow
from ..workers import BackgroundTask
from .base import SessionPage
from .kernel_list import COLUMNS, GREY, KernelList
from .kernel_source import HowToGetBox
from .kernel_texts import (
    details_html,
    go_to_prerequisites,
    machine_text,
    problems_text,
    wsl2_steps,
)

TEXT = Texts("KernelPage", {
    "recommended": "Recommended: {kernel} {version}",
    "gpu_check": "GPU {index}: {name} ({cc})",
    "unknown": "unknown",
    "timing": "Timing PyTorch's own attention on this GPU, to say which kernels pay off here "
              "(a few seconds, once per GPU and PyTorch)…",
    "speed": "Speed on this GPU: {sentence}",
    "not_timed": "PyTorch's own attention was not timed: {reason}",
    "workload": "Judge speed for:",
    "workload_tip": "What you run attention for: the advice compares speed at its sizes "
                    "(LLM prompts: 2k-8k tokens, causal; images: 4k tokens; video: 16k-32k "
                    "tokens). Chosen from the AI program found, where there is one ({why}).",
})


class KernelPage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(tr("Kernel and version"))
        self.setSubTitle(tr("Choose the kernel library to install. Each one says whether it fits "
                         "this computer and, if not, exactly why."))
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
        # the session's table for self.machine: every kernel's versions judged, the
        # recommended version (the same rows as the 'kernels' command's)
        self._table: dict[str, KernelRow] = {}
        self._checks_seen: tuple[object, ...] = ()  # the prerequisite results verdicts used
        self._user_picked = False  # the user chose a kernel: don't follow the recommendation
        # PyTorch's attention timed here (for the "worth building?" line); never blocks Next
        self.speed: SdpaSpeed | SpeedUnavailable | None = None
        self._speed_task: BackgroundTask | None = None
        self._build_layout()
        self._update_options()

    def _build_layout(self) -> None:
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
        self.busy = BusyRow(tr("Looking for CUDA toolkits…"))
        self.busy_label = self.busy.label
        layout.addWidget(self.busy)
        self.pick_banner = Banner()
        layout.addWidget(self.pick_banner)
        self.machine_label = QLabel()
        self.machine_label.setWordWrap(True)
        self.machine_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.machine_label)

        self.gpu_row = QWidget()
        self._gpu_layout = QHBoxLayout(self.gpu_row)
        self._gpu_layout.setContentsMargins(0, 0, 0, 0)
        self._gpu_layout.addWidget(QLabel(tr("Build for:")))
        self.gpu_checks: dict[int, QCheckBox] = {}
        self._gpu_layout.addStretch(1)
        self.gpu_row.setVisible(False)
        layout.addWidget(self.gpu_row)

        self.tree = KernelList()
        self.tree.currentItemChanged.connect(self._on_current_changed)
        self.tree.version_changed.connect(self._on_version_changed)
        layout.addWidget(self.tree)

        lower = QHBoxLayout()
        details_column = QVBoxLayout()
        self.details = QTextBrowser()
        self.details.setOpenExternalLinks(True)
        self.details.setMinimumHeight(130)
        details_column.addWidget(self.details, 1)
        self.speed_label = QLabel()  # worth building here? (measured, see catalog.worth)
        self.speed_label.setWordWrap(True)
        self.speed_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.speed_label.setVisible(False)
        workload_row = QHBoxLayout()
        self.workload_caption = QLabel(TEXT["workload"])
        self.workload_box = QComboBox()  # what the speed advice judges at (catalog.worth)
        for workload in user_workloads():
            self.workload_box.addItem(tr_core(workload.name), workload.id)
        self.workload_box.currentIndexChanged.connect(self._on_workload_changed)
        workload_row.addWidget(self.workload_caption)
        workload_row.addWidget(self.workload_box)
        workload_row.addStretch(1)
        self.workload_caption.setVisible(False)
        self.workload_box.setVisible(False)
        details_column.addLayout(workload_row)
        details_column.addWidget(self.speed_label)
        self.wsl_button = QPushButton(tr("Use WSL2…"))
        self.wsl_button.setToolTip(tr("How to build this kernel in WSL2 on this PC"))
        self.wsl_button.clicked.connect(self._explain_wsl2)
        self.wsl_button.setVisible(False)
        # a kernel a missing prerequisite rules out: the way back to that prerequisite's Fix
        self.prereqs_button = QPushButton(go_to_prerequisites())
        self.prereqs_button.setToolTip(tr("Back to the Prerequisites page, where the Fix buttons "
                                       "are; the kernel list is checked again when you return"))
        self.prereqs_button.clicked.connect(self.go_to_prerequisites)
        self.prereqs_button.setVisible(False)
        button_row = QHBoxLayout()
        button_row.addWidget(self.prereqs_button)
        button_row.addWidget(self.wsl_button)
        button_row.addStretch(1)
        details_column.addLayout(button_row)
        lower.addLayout(details_column, 3)

        self.method_box = HowToGetBox()
        self.method_box.changed.connect(self._on_method_changed)
        box = self.method_box  # its parts, as the tests and screenshots reach them
        self.prebuilt_choice, self.build_choice = box.prebuilt_choice, box.build_choice
        self.wheel_label, self.source_box = box.wheel_label, box.source_box
        self.download_choice, self.local_choice = box.download_choice, box.local_choice
        self.folder_button, self.archive_button = box.folder_button, box.archive_button
        self.path_label, self.bundled_label = box.path_label, box.bundled_label
        self.cache_label, self.cache_build = box.cache_label, box.cache_build
        options = QVBoxLayout()
        options.addWidget(self.method_box)
        options.addStretch(1)
        lower.addLayout(options, 2)
        layout.addLayout(lower, 1)

        self.problems_banner = Banner()
        self.problems_banner.hint.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.problems_banner)

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
        # the session's gate, then what is still only the page's widgets: the kernel and
        # version picked in the list (Session.choose decides them on Next) and its source
        if not self.flow_allows(FlowStep.BUILD) or self.machine is None:
            return False
        recipe, version = self.current_recipe(), self.current_version()
        if recipe is None or version is None or not self.verdict(recipe, version).available:
            return False
        return not self.method_box.needs_source()

    def validatePage(self) -> bool:
        recipe, version = self.current_recipe(), self.current_version()
        if not self.isComplete() or recipe is None or version is None:
            return False
        box = self.method_box
        mode = box.effective_source_mode()
        wheel = box.chosen_wheel()
        gpus = self.gpu_indices()
        try:  # the session decides (the same step as the build command's options)
            self.session.choose(KernelRequest(
                recipe.id, version.label, gpus=list(gpus) if gpus is not None else None,
                variant=box.variant if wheel is None else None,
                source_mode=mode, local_path=box.local_path if mode is SourceMode.LOCAL
                else None, prebuilt=wheel if wheel is not None else False,
                # a verified wheel only where the box offers it and it is not declined: what
                # the page shows is what the build step does
                from_cache=box.use_cache()))
        except WizardError as exc:
            error_box(self, exc).exec()
            return False
        return True

    # -- discovery -----------------------------------------------------------------------------

    def start_discovery(self) -> None:
        session = self.session
        self.busy_label.setText(tr("Reading the kernel catalog and looking for CUDA toolkits…"))
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
        self.start_speed_check()

    def start_speed_check(self) -> None:
        """Time PyTorch's own attention in the chosen Python, in the background (kept per GPU,
        driver and PyTorch by the core): the details then say per kernel whether building it
        is expected to pay off on this GPU. Skipped where there is no CUDA PyTorch and GPU."""
        env, hardware = self.session.environment, self.session.hardware
        torch = env.torch if env is not None else None
        if (self._speed_task is not None or torch is None or not torch.cuda_available
                or hardware is None or not hardware.usable_gpus):
            return
        self.speed_label.setText(TEXT["timing"])
        self.speed_label.setVisible(True)
        self._speed_task = BackgroundTask(self.session.speed_here, self)
        self._speed_task.finished.connect(self._on_speed)
        self._speed_task.failed.connect(self._on_speed_failed)
        self._speed_task.start()

    @Slot(object)
    def _on_speed(self, result: object) -> None:
        self._speed_task = None
        self.speed = cast("SdpaSpeed | SpeedUnavailable | None", result)
        self._show_speed()

    @Slot(object)
    def _on_speed_failed(self, exc: object) -> None:
        self._speed_task = None
        self.speed = SpeedUnavailable(str(exc))
        self._show_speed()

    def _show_speed(self) -> None:
        """The advice for the selected kernel, if there is any to give."""
        recipe, speed = self.current_recipe(), self.speed
        if isinstance(speed, SpeedUnavailable):
            self.speed_label.setText(TEXT["not_timed"].format(reason=tr_core(speed.reason)))
            self.speed_label.setStyleSheet(f"color: {GREY.name()};")
            self.speed_label.setVisible(True)
            return
        self._show_workload(isinstance(speed, SdpaSpeed))
        worth = (self.session.worth(recipe.id, speed)
                 if isinstance(speed, SdpaSpeed) and recipe is not None else None)
        if worth is None:
            self.speed_label.setVisible(self._speed_task is not None)
            return
        colour = {SpeedVerdict.PAYS_OFF: "#1b6e1b",
                  SpeedVerdict.NOT_WORTH: "#8a5a00"}.get(worth.verdict)
        self.speed_label.setStyleSheet(f"color: {colour};" if colour else "")
        self.speed_label.setText(TEXT["speed"].format(sentence=tr_core(worth.sentence)))
        self.speed_label.setVisible(True)

    def _show_workload(self, shown: bool) -> None:
        """The workload chooser, set to what the session judges at (the program's or chosen)."""
        workload, why = self.session.workload()
        index = self.workload_box.findData(workload)
        if index >= 0 and index != self.workload_box.currentIndex():
            self.workload_box.blockSignals(True)
            self.workload_box.setCurrentIndex(index)
            self.workload_box.blockSignals(False)
        self.workload_box.setToolTip(TEXT["workload_tip"].format(why=tr_core(why)))
        self.workload_caption.setVisible(shown)
        self.workload_box.setVisible(shown)

    @Slot(int)
    def _on_workload_changed(self, index: int) -> None:
        self.session.workload_choice = str(self.workload_box.itemData(index) or "")
        self._show_speed()

    @Slot(object)
    def _on_discovery_failed(self, exc: object) -> None:
        self._task = None
        self.busy.setVisible(False)
        self.pick_banner.show_message(Tone.ERROR, tr("The kernel catalog could not be read."),
                                      str(exc))
        self.completeChanged.emit()

    # -- the machine and the list ---------------------------------------------------------------

    def toolkit(self) -> CudaToolkit | None:
        """The toolkit the session chose (None until the search has ended)."""
        return self.session.toolkit() if self.toolkits is not None else None

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
                Tone.ERROR, tr("The hardware and the target Python are not known yet."),
                tr("Go back to the Hardware page and choose a Python environment."))
            self.completeChanged.emit()
            return
        checks = tuple((c.id, c.status, c.summary, c.needed_for) for c in state.checks)
        if machine == self.machine and checks == self._checks_seen:
            self.completeChanged.emit()
            return
        fresh = self.machine is None or self.machine.env != machine.env or hardware_changed
        self.machine = machine
        self._checks_seen = checks
        self._table = {row.recipe.id: row for row in state.kernel_table(machine)}
        if fresh:  # a new computer or environment: start again from the recommendation
            self._user_versions.clear()
            self._user_picked = False
        self.pick = recommend_kernel(self.catalog, machine, self._judge)
        keep = self.current_recipe() if self._user_picked else None
        self._populate(keep.id if keep is not None else
                       (self.pick.recipe.id if self.pick is not None else None))
        self.machine_label.setText(machine_text(machine, self.toolkit(), self._toolkit_error))
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
                check = QCheckBox(TEXT["gpu_check"].format(
                    index=gpu.index, name=gpu.name or TEXT["unknown"], cc=f"{cc[0]}.{cc[1]}"))
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

    def gpu_indices(self) -> tuple[int, ...] | None:
        """The selected GPUs' indices; None where there is no usable GPU."""
        machine = self.machine
        if machine is None or not machine.hardware.usable_gpus:
            return None
        return tuple(g.index for g in machine.gpus)

    def verdict(self, recipe: Recipe, version: RecipeVersion) -> Verdict:
        """The session's verdict for this machine (requirements and prerequisites), from its
        kernel table."""
        assert self.machine is not None
        return self._table[recipe.id].verdict(version)

    def _judge(self, recipe: Recipe, version: RecipeVersion, _machine: Machine) -> Verdict:
        return self.verdict(recipe, version)

    def _ordered(self) -> list[Recipe]:
        """The probe first (the quick start), then the catalog's order."""
        assert self.catalog is not None
        recipes = list(self.catalog)
        return [r for r in recipes if is_probe(r)] + [r for r in recipes if not is_probe(r)]

    def _populate(self, current_id: str | None) -> None:
        rows = [self._table[r.id] for r in self._ordered()]
        for row in rows:
            recipe_id = row.recipe.id
            if recipe_id not in self._user_versions or recipe_id not in self._versions:
                self._versions[recipe_id] = row.recommended
        self.tree.populate(rows, self._versions, current_id)
        self._on_selection()

    # -- selection -------------------------------------------------------------------------------

    def current_recipe(self) -> Recipe | None:
        rid = self.tree.current_id()
        if rid is None or self.catalog is None:
            return None
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
        self.tree.setCurrentItem(self.tree.item(recipe_id))

    @Slot(str)
    def _on_version_changed(self, recipe_id: str) -> None:
        if self.catalog is None:
            return
        recipe = self.catalog.get(recipe_id)
        self._versions[recipe_id] = recipe.version(self.tree.picked_label(recipe_id))
        self._user_versions.add(recipe_id)
        self._user_picked = True
        self.tree.show_row(recipe_id, self.verdict(recipe, self._versions[recipe_id]))
        if self.tree.current_id() != recipe_id:
            self.select_kernel(recipe_id)  # calls _on_selection
        else:
            self._on_selection()

    @Slot(object, object)
    def _on_current_changed(self, _current: object, _previous: object) -> None:
        if not self.tree.populating:
            self._user_picked = True
            self._on_selection()

    def _on_selection(self) -> None:
        self._show_details()
        self._update_options()
        self.completeChanged.emit()

    # -- what the page shows ----------------------------------------------------------------------

    def _show_pick(self) -> None:
        pick = self.pick
        if pick is None:
            self.pick_banner.show_message(Tone.ERROR, tr("The kernel catalog is empty."),
                                          tr("Reinstall the wizard: its recipes are missing."))
            return
        tone = Tone.OK if pick.verdict.available else Tone.WARNING
        self.pick_banner.show_message(
            tone, TEXT["recommended"].format(kernel=kernel_name(pick.recipe.name),
                                             version=kernel_name(pick.version.label)),
            tr_core(pick.why))

    def _show_problems(self) -> None:
        found = problems_text(self.catalog) if self.catalog is not None else None
        if found is None:
            self.problems_banner.setVisible(False)
            return
        self.problems_banner.show_message(Tone.WARNING, *found)

    def _show_details(self) -> None:
        recipe, version, verdict = self.current_recipe(), self.current_version(), \
            self.current_verdict()
        if recipe is None or version is None or verdict is None:
            self.details.setHtml("")
            self.wsl_button.setVisible(False)
            self.prereqs_button.setVisible(False)
            return
        names = (build_archs(recipe, version, self.machine).names
                 if verdict.available and not verdict.cpu_only and self.machine is not None
                 else ())
        way_back = any(r.fix_check for r in verdict.reasons) and self._prerequisites_reachable()
        self.details.setHtml(details_html(recipe, version, verdict, names, way_back))
        self._show_speed()
        self.wsl_button.setVisible(verdict.alternative == "wsl2")
        self.prereqs_button.setVisible(way_back)

    # -- the way back to a prerequisite's Fix ----------------------------------------------------

    def _prerequisites_reachable(self) -> bool:
        wizard = self.wizard()
        return wizard is not None and int(FlowStep.PREREQS) in wizard.visitedIds()

    @Slot()
    def go_to_prerequisites(self) -> None:
        """Back to the Prerequisites page (the Fix buttons); Next brings the person back here,
        where the list is judged again with what the checks find then."""
        wizard = self.installer()
        while wizard.currentId() > int(FlowStep.PREREQS) and self._prerequisites_reachable():
            before = wizard.currentId()
            wizard.back()
            if wizard.currentId() == before:  # Back is locked
                break

    # -- source and method (the "How to get it" box) --------------------------------------------

    def _update_options(self) -> None:
        recipe, version = self.current_recipe(), self.current_version()
        row = self._table.get(recipe.id) if recipe is not None else None
        # the session's table knows the verified wheel of the recommended version
        cached = row.cached if row is not None and version is row.recommended else None
        self.method_box.show_for(recipe, version, self.current_verdict(), self.machine,
                                 row.route if row is not None else None, cached)

    @Slot()
    def _on_method_changed(self) -> None:
        self._update_options()
        self.completeChanged.emit()

    @Slot()
    def _explain_wsl2(self) -> None:
        QMessageBox.information(self, tr("Build in WSL2"), wsl2_steps())


__all__ = ["COLUMNS", "GREY", "KernelPage"]
