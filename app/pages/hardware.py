"""Hardware: GPUs through NVML, host resources, and the target Python environment."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import cast

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from kernel_wizard.flow.session import FlowStep
from kernel_wizard.machine.ai_apps import AppEnvironment, environments_in_folder
from kernel_wizard.machine.environment import Candidate, EnvStatus, PythonEnv
from kernel_wizard.machine.hardware import HardwareReport, NvmlState, existing_folder, format_bytes
from kernel_wizard.machine.platforms import current as current_platform
from kernel_wizard.prereqs import FixOutcome, FixStatus
from kernel_wizard.prereqs.pipfix import EnsurePipFix

from ..i18n import N_, Texts, tr, tr_core
from ..widgets.banner import Banner, Tone
from ..widgets.busy import BusyRow
from ..widgets.dialogs import ask
from ..workers import BackgroundTask
from .base import SessionPage

GPU_COLUMNS = ("#", "GPU", N_("Architecture"), N_("Compute capability"),
               N_("Memory (free / total)"), N_("Status"))
# where a Python environment was found (machine.environment's fixed words; those with a
# name in them, such as "active conda env 'ml'", are shown as they are)
ORIGINS = (N_("active virtual environment"), N_("the Python running this wizard"),
           N_("chosen by you"))
CHOSEN_BY_YOU = "chosen by you"

# -- the texts (one place) ---------------------------------------------------------------------

TEXT = Texts("Hardware", {
    "disk": "Disk: {free} free for builds (in {folder})",
    "browse_title": "Choose the Python program of the environment",
    "filter_windows": "Python programs (python.exe pythonw.exe);;All files (*)",
    "filter_other": "Python programs (python python3 python3.*);;All files (*)",
    "pip_button": "Install pip",
    "pip_tip": "Python's own installer of pip (ensurepip); nothing is downloaded",
    "pip_running": "Installing pip into {python}…",
    "pip_confirm_title": "Install pip?",
    "pip_confirm": "{description}\n\nThis will run:\n    {command}",
    "pip_do": "Install pip",
    "pip_dont": "Not now",
    "degraded": "{count} GPU(s) did not answer every question; see Status.",
    "unknown": "unknown",
    "ok": "OK",
    "cc": "{cc} (sm_{sm})",
    "driver": "NVIDIA driver {version} — supports CUDA up to {cuda}",
    "driver_unknown": "NVIDIA driver {version} — it did not say which CUDA versions it supports",
    "links": "GPU links: {links}",
    "cpu": "CPU: {cores} cores",
    "cpu_physical": "CPU: {cores} cores ({physical} physical)",
    "ram": "RAM: {available} available of {total}",
    "apps": "Found the Python of {apps}. Choose the program you want the kernel in: it goes "
            "into that program's own Python.",
    "apps_one": "Found the Python of {app} and selected it: the kernel goes into that "
                "program's own Python. Nothing is installed until you confirm it at the end; "
                "choose another Python here if you like.",
    "cannot_start": "{item}  (cannot start)",
    "add_folder": "Add a folder…",
    "folder_busy": "Looking for an AI program's Python in {folder}…",
    "add_folder_tip": "An AI program installed somewhere else: choose its folder (where it was "
                      "unpacked or cloned) and its Python is found by the program's own layout",
    "add_folder_title": "Choose the folder of an AI program",
    "folder_none": "No Python of an AI program was found in {folder}.",
    "folder_none_hint": "Choose the program's own folder (where it was unpacked or cloned, "
                        "e.g. ComfyUI_windows_portable), or its python executable with Browse…",
    "candidate": "{path}  ({origin})",
    "inspecting": "Inspecting {path} …",
    "inspecting_busy": "Inspecting the Python environment…",
    "detecting_busy": "Detecting GPUs and Python environments…",
    "python_line": "Python {version}, {bits}-bit, for {platform} · pip (the package "
                   "installer) {pip} · ninja (compiles many files at once) {ninja}",
    "missing": "missing",
    "found": "found",
    "torch_line": "PyTorch {version} · {cuda} · {gpus}",
    "torch_cuda": "built for CUDA {cuda}",
    "torch_cpu": "a CPU-only build (no CUDA)",
    "gpus": "has GPU code for compute capability {ccs}",
    "gpus_ptx": "has GPU code for compute capability {ccs}, and code newer GPUs can compile "
                "when first used",
    "gpus_none": "no GPU code",
    "tags_tip": "What a prebuilt wheel for this Python must be made for: Python tag "
                "{interpreter}, platform {platform}{abi}.",
    "abi_new": ", the C++ library's newer string layout (C++11 ABI)",
    "abi_old": ", the C++ library's older string layout (pre-C++11 ABI)",
    "platform_linux": "Linux",
    "platform_windows": "Windows",
    "platform_mac": "macOS",
    "arch_x86": "x86-64 processors",
    "arch_arm": "ARM processors",
    "platform_other": "the platform {tag}",
    "platform_on": "{system} on {arch}",
})


def platform_words(tag: str | None) -> str:
    """'linux_x86_64' → 'Linux on x86-64 processors' (plain words for a wheel platform tag)."""
    tag = tag or ""
    system = ("platform_linux" if tag.startswith(("linux", "manylinux")) else
              "platform_windows" if tag.startswith("win") else
              "platform_mac" if tag.startswith("macosx") else "")
    arch = ("arch_x86" if tag.endswith(("x86_64", "amd64")) else
            "arch_arm" if tag.endswith(("aarch64", "arm64")) else "")
    if not system:
        return TEXT["platform_other"].format(tag=tag or "?")
    return TEXT["platform_on"].format(system=TEXT[system], arch=TEXT[arch]) if arch \
        else TEXT[system]


def arch_words(arch_list: tuple[str, ...]) -> str:
    """PyTorch's arch list ('sm_80', 'sm_90', 'compute_90') in words."""
    ccs: list[str] = []
    ptx = False
    for entry in arch_list:
        kind, _, number = entry.partition("_")
        if not number.isdigit():
            continue
        ptx = ptx or kind == "compute"
        if kind == "sm":
            ccs.append(f"{number[:-1]}.{number[-1]}")
    if not ccs:
        return TEXT["gpus_none"]
    return TEXT["gpus_ptx" if ptx else "gpus"].format(ccs=", ".join(dict.fromkeys(ccs)))


def origin_text(origin: str) -> str:
    """Where an environment was found, in the user's language where it is a fixed phrase."""
    return tr(origin)


def candidate_text(candidate: Candidate) -> str:
    """One line of the Python list: the program and its Python, or the Python and where it
    was found; a Python that cannot start says so (choosing it says why)."""
    text = (f"{candidate.app} — {candidate.path}" if candidate.app
            else TEXT["candidate"].format(path=candidate.path,
                                          origin=origin_text(candidate.origin)))
    return TEXT["cannot_start"].format(item=text) if candidate.problem else text


def python_file_filter(platform_name: str) -> str:
    """The file dialog's filter: Python programs first (All files as the way out)."""
    return TEXT["filter_windows"] if platform_name == "windows" else TEXT["filter_other"]


def browse_start(current: Path | None, home: Path) -> Path:
    """Where the file dialog opens: the folder of the Python chosen now, else the home folder
    (where venvs, conda and the AI apps keep theirs)."""
    if current is not None and current.parent.is_dir():
        return current.parent
    return home


class HardwarePage(SessionPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(tr("Your hardware"))
        self.setSubTitle(tr("The NVIDIA GPUs and resources of this computer, and where to "
                            "install."))
        self._detect_task: BackgroundTask | None = None
        self._inspect_task: BackgroundTask | None = None
        self._inspect_generation = 0
        self._started = False
        self._shown_env: PythonEnv | None = None

        layout = self.scrolled()
        self.busy = BusyRow(tr("Detecting GPUs and Python environments…"))
        self.busy_label = self.busy.label
        layout.addWidget(self.busy)

        self.gpu_banner = Banner()
        layout.addWidget(self.gpu_banner)

        self.gpu_table = QTableWidget(0, len(GPU_COLUMNS))
        self.gpu_table.setHorizontalHeaderLabels([tr(c) for c in GPU_COLUMNS])
        self.gpu_table.verticalHeader().setVisible(False)
        self.gpu_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.gpu_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.gpu_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.gpu_table)

        self.driver_label = QLabel()
        layout.addWidget(self.driver_label)
        # how the GPUs are connected (NVLink or PCIe): multi-GPU kernels such as DeepEP need it
        self.links_label = QLabel()
        self.links_label.setWordWrap(True)
        layout.addWidget(self.links_label)

        host_box = QGroupBox(tr("This computer"))
        host_layout = QVBoxLayout(host_box)
        self.host_label = QLabel("…")
        self.host_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        host_layout.addWidget(self.host_label)
        layout.addWidget(host_box)

        env_box = QGroupBox(tr("Install into this Python environment"))
        env_layout = QVBoxLayout(env_box)
        self.apps_label = QLabel()
        self.apps_label.setWordWrap(True)
        self.apps_label.setVisible(False)
        env_layout.addWidget(self.apps_label)
        self.limits_label = QLabel()  # what the search for AI programs could not look at
        self.limits_label.setWordWrap(True)
        self.limits_label.setVisible(False)
        env_layout.addWidget(self.limits_label)
        picker_row = QHBoxLayout()
        self.env_combo = QComboBox()
        self.env_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.env_combo.currentIndexChanged.connect(self._on_env_selected)
        self.browse_button = QPushButton(tr("Browse…"))
        self.browse_button.clicked.connect(self._browse)
        self.folder_button = QPushButton(TEXT["add_folder"])
        self.folder_button.setToolTip(TEXT["add_folder_tip"])
        self.folder_button.clicked.connect(self._choose_folder)
        picker_row.addWidget(self.env_combo, 1)
        picker_row.addWidget(self.folder_button)
        picker_row.addWidget(self.browse_button)
        env_layout.addLayout(picker_row)
        self.env_banner = Banner()
        env_layout.addWidget(self.env_banner)
        pip_row = QHBoxLayout()
        self.pip_button = QPushButton(TEXT["pip_button"])
        self.pip_button.setToolTip(TEXT["pip_tip"])
        self.pip_button.clicked.connect(self.install_pip)
        self.pip_button.setVisible(False)
        self._pip_task: BackgroundTask | None = None
        self._folder_task: BackgroundTask | None = None  # "Add a folder…": its lookup
        pip_row.addWidget(self.pip_button)
        pip_row.addStretch(1)
        env_layout.addLayout(pip_row)
        self.env_details = QLabel()
        self.env_details.setWordWrap(True)
        self.env_details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        env_layout.addWidget(self.env_details)
        layout.addWidget(env_box)
        layout.addStretch(1)

    # -- QWizardPage -------------------------------------------------------------------------


    def initializePage(self) -> None:
        if not self._started:  # detection runs once, after the page is first shown
            self._started = True
            self.start_detection()

    def isComplete(self) -> bool:
        return self.flow_allows(FlowStep.PREREQS)

    # -- detection ---------------------------------------------------------------------------

    def is_busy(self) -> bool:
        return (self._detect_task is not None or self._inspect_task is not None
                or self._pip_task is not None or self._folder_task is not None)

    def start_detection(self) -> None:
        session = self.session
        self._set_busy(TEXT["detecting_busy"])
        self.gpu_banner.show_message(Tone.INFO, tr("Detecting…"))

        def work() -> tuple[HardwareReport, list[Candidate]]:
            return session.detect(), session.candidates

        self._detect_task = BackgroundTask(work, self)
        self._detect_task.finished.connect(self._on_detected)
        self._detect_task.failed.connect(self._on_detect_failed)
        self._detect_task.start()

    @Slot(object)
    def _on_detected(self, result: object) -> None:
        report, candidates = cast("tuple[HardwareReport, list[Candidate]]", result)
        self._detect_task = None
        self._show_hardware(report)
        self.env_combo.blockSignals(True)
        self.env_combo.clear()
        for candidate in candidates:
            self.env_combo.addItem(candidate_text(candidate), candidate)
        self.env_combo.blockSignals(False)
        apps = [c.app for c in candidates if c.app]
        usable = [c for c in candidates if c.app and not c.problem]
        if len(usable) == 1 and candidates[0] is usable[0]:  # the one program: proposed
            self.apps_label.setText(TEXT["apps_one"].format(app=usable[0].app))
        else:
            self.apps_label.setText(TEXT["apps"].format(apps=", ".join(apps)) if apps else "")
        self.apps_label.setVisible(bool(apps))
        limits = self.session.scan_limits if self.wizard() else ()
        # one plain sentence per limit, in the user's language (ai_apps._limit_sentence)
        self.limits_label.setText("\n".join(tr_core(limit) for limit in limits))
        self.limits_label.setVisible(bool(limits))
        if candidates:
            self._on_env_selected(0)
        else:
            self.env_banner.show_message(
                Tone.WARNING,
                tr("No Python interpreter was found."),
                tr("Click Browse… and choose the python executable of the environment to use."),
            )
            self._update_busy()

    @Slot(object)
    def _on_detect_failed(self, exc: object) -> None:
        self._detect_task = None
        self.gpu_banner.show_message(
            Tone.ERROR, tr("Hardware detection failed unexpectedly."), str(exc)
        )
        self._update_busy()

    def _show_hardware(self, report: HardwareReport) -> None:
        if report.state is NvmlState.OK:
            degraded = [g for g in report.gpus if not g.ok]
            if degraded:
                self.gpu_banner.show_message(
                    Tone.WARNING,
                    tr_core(report.message),
                    TEXT["degraded"].format(count=len(degraded)),
                )
            else:
                self.gpu_banner.show_message(Tone.OK, tr_core(report.message))
        else:
            self.gpu_banner.show_message(Tone.WARNING, tr_core(report.message),
                                         tr_core(report.hint))
        self.gpu_table.setRowCount(len(report.gpus))
        for row, gpu in enumerate(report.gpus):
            cc = gpu.compute_capability
            cells = (
                str(gpu.index),
                gpu.name or TEXT["unknown"],
                gpu.arch,
                TEXT["cc"].format(cc=f"{cc[0]}.{cc[1]}", sm=gpu.sm) if cc else TEXT["unknown"],
                f"{format_bytes(gpu.memory_free)} / {format_bytes(gpu.memory_total)}",
                TEXT["ok"] if gpu.ok else "; ".join(gpu.errors),
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 1 and gpu.uuid:
                    item.setToolTip(gpu.uuid)
                self.gpu_table.setItem(row, column, item)
        self.gpu_table.setVisible(bool(report.gpus))
        self._fit_table_height()
        if report.driver_version:
            cuda = report.cuda_driver_version
            self.driver_label.setText(
                TEXT["driver"].format(version=report.driver_version, cuda=f"{cuda[0]}.{cuda[1]}")
                if cuda else TEXT["driver_unknown"].format(version=report.driver_version))
        else:
            self.driver_label.setText("")
        self.driver_label.setVisible(bool(report.driver_version))
        links = report.links
        self.links_label.setText(TEXT["links"].format(links=tr_core(links.describe()))
                                 if links is not None else "")
        self.links_label.setVisible(links is not None and len(report.gpus) > 0)
        host = report.host
        cpu = (TEXT["cpu_physical"].format(cores=host.cpu_logical, physical=host.cpu_physical)
               if host.cpu_physical else TEXT["cpu"].format(cores=host.cpu_logical))
        self.host_label.setText("\n".join((
            host.os_name,
            cpu,
            TEXT["ram"].format(available=format_bytes(host.ram_available),
                               total=format_bytes(host.ram_total)),
            TEXT["disk"].format(free=format_bytes(host.disk_free),
                                folder=existing_folder(host.disk_path)),
        )))

    def _fit_table_height(self) -> None:
        """As tall as its rows (up to 8), so one GPU doesn't leave a big empty table."""
        table = self.gpu_table
        rows = min(table.rowCount(), 8)
        height = table.horizontalHeader().height() + 2 * table.frameWidth()
        height += sum(table.rowHeight(r) for r in range(rows))
        table.setFixedHeight(height + 2)

    # -- the target environment --------------------------------------------------------------

    def add_interpreter(self, path: Path) -> None:
        """Add an interpreter the user chose and select it."""
        for index in range(self.env_combo.count()):
            candidate = self.env_combo.itemData(index)
            if isinstance(candidate, Candidate) and candidate.path == path:
                self.env_combo.setCurrentIndex(index)
                return
        self.env_combo.addItem(
            TEXT["candidate"].format(path=path, origin=origin_text(CHOSEN_BY_YOU)),
            Candidate(path, CHOSEN_BY_YOU))
        self.env_combo.setCurrentIndex(self.env_combo.count() - 1)

    def add_folder(self, folder: Path) -> bool:
        """Look for the Pythons of the AI program in ``folder`` (found by the programs' layouts,
        as the search finds them) in the background, the page busy meanwhile: the lookup lists
        the folder, its parent, each subfolder one level down and environments' site-packages,
        which takes seconds on a big folder or a network drive. Then adds them and selects the
        first, or says there is none. False when the page is busy with something else."""
        if self.is_busy():
            return False
        plat = current_platform()
        task = BackgroundTask(lambda: environments_in_folder(folder, plat), self)
        task.finished.connect(lambda envs: self._on_folder_looked_up(folder, envs))
        task.failed.connect(self._on_folder_failed)
        self._folder_task = task
        self._set_busy(TEXT["folder_busy"].format(folder=folder))
        task.start()
        return True

    @Slot(object)
    def _on_folder_failed(self, exc: object) -> None:
        self._folder_task = None
        self.env_banner.show_message(Tone.ERROR, str(exc))
        self._update_busy()

    def _on_folder_looked_up(self, folder: Path, result: object) -> None:  # on the GUI thread
        self._folder_task = None
        self._update_busy()
        envs = cast("list[AppEnvironment]", result)
        if not envs:
            self.env_banner.show_message(Tone.WARNING, TEXT["folder_none"].format(folder=folder),
                                         TEXT["folder_none_hint"])
            return
        first = self.env_combo.count()
        for env in envs:
            candidate = Candidate(env.python, env.origin, env.app, env.app_id, env.problem)
            known = next((i for i in range(self.env_combo.count())
                          if isinstance(self.env_combo.itemData(i), Candidate)
                          and self.env_combo.itemData(i).path == env.python), None)
            if known is None:
                self.env_combo.addItem(candidate_text(candidate), candidate)
            elif env is envs[0]:
                first = known
        self.env_combo.setCurrentIndex(first)

    @Slot()
    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, TEXT["add_folder_title"],
                                                  str(Path.home()))
        if folder:
            self.add_folder(Path(folder))

    @Slot()
    def _browse(self) -> None:
        env = self.session.environment
        start = browse_start(env.executable if env is not None else None, Path.home())
        path, _ = QFileDialog.getOpenFileName(self, TEXT["browse_title"], str(start),
                                              python_file_filter(current_platform().name))
        if path:
            self.add_interpreter(Path(path))

    # -- no pip: Python's own ensurepip ------------------------------------------------------

    @Slot()
    def install_pip(self) -> bool:
        """Ask, then install pip with ensurepip (in the background) and inspect again."""
        env = self._shown_env
        if env is None or self.is_busy():
            return False
        fix = EnsurePipFix(env.executable)
        text = TEXT["pip_confirm"].format(description=fix.description,
                                          command=fix.command_preview[0])
        if not ask(self, TEXT["pip_confirm_title"], text, TEXT["pip_do"], TEXT["pip_dont"]):
            return False
        self.pip_button.setEnabled(False)
        self.env_banner.show_message(Tone.INFO, TEXT["pip_running"].format(python=env.executable))
        # the session runs it, holding the environment's lock as every fix and install does
        flow = self.session
        task = BackgroundTask(lambda: flow.run_fix(fix, lambda _line: None, threading.Event()),
                              self)
        task.finished.connect(self._on_pip_done)
        task.failed.connect(self._on_pip_done)
        self._pip_task = task
        self._set_busy(TEXT["pip_running"].format(python=env.executable))
        task.start()
        return True

    @Slot(object)
    def _on_pip_done(self, outcome: object) -> None:
        self._pip_task = None
        self.pip_button.setEnabled(True)
        if isinstance(outcome, FixOutcome) and outcome.status is FixStatus.DONE:
            self._on_env_selected(self.env_combo.currentIndex())  # inspect it again
            return
        message = tr_core(outcome.message) if isinstance(outcome, FixOutcome) else str(outcome)
        hint = tr_core(outcome.hint) if isinstance(outcome, FixOutcome) else ""
        self.env_banner.show_message(Tone.ERROR, message, hint)
        self._update_busy()

    @Slot(int)
    def _on_env_selected(self, index: int) -> None:
        candidate = self.env_combo.itemData(index)
        if not isinstance(candidate, Candidate):
            return
        session = self.session
        session.choose_environment(None)
        self._inspect_generation += 1
        generation = self._inspect_generation
        self.env_banner.show_message(Tone.INFO, TEXT["inspecting"].format(path=candidate.path))
        self.env_details.setText("")
        self.pip_button.setVisible(False)
        task = BackgroundTask(lambda: session.inspect(candidate.path), self)
        task.finished.connect(lambda env: self._on_inspected(generation, env))
        task.failed.connect(lambda exc: self._on_inspected(generation, exc))
        self._inspect_task = task
        self._set_busy(TEXT["inspecting_busy"])
        self.completeChanged.emit()
        task.start()

    def _on_inspected(self, generation: int, result: object) -> None:
        if generation != self._inspect_generation:
            return  # the user picked another interpreter meanwhile
        self._inspect_task = None
        if isinstance(result, PythonEnv):
            self.session.choose_environment(result)
            self._show_environment(result)
        else:
            self.env_banner.show_message(
                Tone.ERROR, tr("The environment could not be inspected."), str(result)
            )
        self._update_busy()

    def _show_environment(self, env: PythonEnv) -> None:
        self._shown_env = env
        self.pip_button.setVisible(env.status is EnvStatus.NO_PIP)
        if env.usable:
            tone = Tone.OK if not env.hint else Tone.WARNING
        else:
            tone = Tone.ERROR
        self.env_banner.show_message(tone, tr_core(env.summary), tr_core(env.hint))
        lines: list[str] = []
        if env.version:
            lines.append(TEXT["python_line"].format(
                version=env.version, bits=env.bits, platform=platform_words(env.platform_tag),
                pip=env.pip_version or TEXT["missing"],
                ninja=TEXT["found"] if env.ninja else TEXT["missing"]))
        abi = ""
        if env.torch is not None:
            t = env.torch
            lines.append(TEXT["torch_line"].format(
                version=t.version,
                cuda=TEXT["torch_cuda"].format(cuda=t.cuda) if t.cuda else TEXT["torch_cpu"],
                gpus=arch_words(t.arch_list)))
            if (env.platform_tag or "").startswith("linux"):
                abi = TEXT["abi_new"] if t.cxx11_abi else TEXT["abi_old"]
        if env.detail:
            lines.append(tr_core(env.detail))
        self.env_details.setText("\n".join(lines))
        # the wheel tags, for whoever compares a downloaded wheel's name (in words elsewhere)
        self.env_details.setToolTip(TEXT["tags_tip"].format(
            interpreter=env.interpreter_tag or "?", platform=env.platform_tag or "?", abi=abi)
            if env.version else "")

    # -- busy state --------------------------------------------------------------------------

    def _set_busy(self, text: str) -> None:
        self.busy_label.setText(text)
        self.busy.setVisible(True)
        self.browse_button.setEnabled(self._detect_task is None and self._folder_task is None)
        self.folder_button.setEnabled(self._detect_task is None and self._folder_task is None)
        self.completeChanged.emit()

    def _update_busy(self) -> None:
        self.busy.setVisible(self.is_busy())
        self.browse_button.setEnabled(self._detect_task is None and self._folder_task is None)
        self.folder_button.setEnabled(self._detect_task is None and self._folder_task is None)
        self.completeChanged.emit()
