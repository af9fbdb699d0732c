"""``python -m app --self-test``: is this installation complete, and does the wizard open?

Works the same from a source checkout and from the PyInstaller bundle, where it is the first
thing to run after building or unpacking one (``kernel-setup-wizard-cli --self-test``). It
checks, one line each (✔ or ✖):

- the shipped data: every recipe loads and validates, each recipe's verification adapter and
  local source exist, the probe kernel's source, the verification harness, the environment
  probes, the known-failures table and the icon;
- hardware detection runs (no NVIDIA driver is a reported state, not a failure);
- the program never offers itself as the target Python (frozen, ``sys.executable`` is the
  wizard, not a Python), and children it starts get the user's library path, not the bundle's;
- Qt starts (offscreen when there is no display), renders text with ICU and shows the
  wizard, whose pages are walked from Welcome on — with real detection, but every service that
  would plan, build, verify or install replaced by a guard — up to the first page that starts
  long work.

Exit code 0 when every check passed, 1 otherwise (the failing lines say what is missing).

``KSW_EXIT_AFTER_FIRST_PAGE`` (see :func:`arm_first_page_probe`) makes the normal GUI start
record when its first page has been shown and quit: the benchmark of the bundle's start-up time.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

# Services the walk may call for real: they detect and read, they don't change anything.
READ_ONLY_SERVICES = {"detect", "discover", "inspect", "installs", "interrupted",
                      "gather_facts", "run_checks", "refresh"}  # the prerequisites: read only
READ_ONLY_PREFIXES = ("detect", "discover", "inspect", "load", "list", "find", "read")
PAGE_TIMEOUT_S = 180.0  # the Hardware page may import torch in the target Python
FIRST_PAGE_MARK = "KSW-FIRST-PAGE"
PAINT_GRACE_MS = 2000  # on a display: how long the probe waits for the first paint after show


@dataclasses.dataclass
class Report:
    out: TextIO
    passed: int = 0
    failed: int = 0
    marks: tuple[str, str] = ("✔", "✖")
    lines: list[str] = dataclasses.field(default_factory=list)

    def add(self, ok: bool, name: str, detail: str = "") -> bool:
        mark = self.marks[0] if ok else self.marks[1]
        line = f"{mark} {name}" + (f": {detail}" if detail else "")
        self.lines.append(line)
        self.out.write(line + "\n")
        self.out.flush()
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok

    def check(self, name: str, fn: Callable[[], str]) -> bool:
        """Run ``fn``; it returns the detail text, or raises to fail with the reason."""
        try:
            detail = fn()
        except Exception as exc:  # noqa: BLE001 - every failure becomes a report line
            return self.add(False, name, _describe(exc))
        return self.add(True, name, detail)


def _describe(exc: BaseException) -> str:
    describe = getattr(exc, "describe", None)  # WizardError: what, why, what to do
    if callable(describe):
        return " ".join(str(describe()).split())
    return f"{type(exc).__name__}: {exc}"


def _marks(stream: TextIO) -> tuple[str, str]:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "✔✖".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return ("OK  ", "FAIL")
    return ("✔", "✖")


# -- the shipped data -----------------------------------------------------------------------


def _where() -> str:
    from kernel_wizard import __version__
    from kernel_wizard.base.resources import is_frozen, resources_root

    kind = "bundle" if is_frozen() else "source checkout"
    return f"version {__version__}, {kind}, resources at {resources_root()}"


def _recipes(report: Report) -> None:
    from kernel_wizard.base.resources import resource_path
    from kernel_wizard.catalog import SourceKind, load_catalog
    from kernel_wizard.verify import adapter_names

    try:
        catalog = load_catalog()
    except Exception as exc:  # noqa: BLE001
        report.add(False, "Recipes", _describe(exc))
        return
    for problem in catalog.problems:
        report.add(False, "Recipe problem", str(problem))
    report.add(
        bool(catalog.recipes) and not catalog.problems,
        "Recipes",
        f"{len(catalog.recipes)} loaded and valid ({', '.join(catalog.ids) or 'none'})",
    )
    adapters = adapter_names()
    for recipe in catalog.recipes:
        missing: list[str] = []
        if recipe.verify_adapter != "none" and recipe.verify_adapter not in adapters:
            adapter = resource_path("verify") / "adapters" / f"{recipe.verify_adapter}.py"
            missing.append(f"verification adapter {adapter}")
        if recipe.source.kind is SourceKind.LOCAL and recipe.source.path:
            source = resource_path() / recipe.source.path
            if not source.is_dir():
                missing.append(f"bundled source {source}")
        if missing:
            report.add(False, f"Recipe {recipe.id}", "missing " + ", ".join(missing))


def _files(*parts: str) -> Callable[[], str]:
    def check() -> str:
        from kernel_wizard.base.resources import resource_path

        path = resource_path(*parts)
        if path.is_file() and path.stat().st_size == 0:
            raise ValueError(f"{path} is empty")
        return str(path)

    return check


def _probe_kernel() -> str:
    from kernel_wizard.base.resources import resource_path

    root = resource_path("probe_kernel")
    needed = ["setup.py", "pyproject.toml", "csrc/probe_attention.cpp",
              "csrc/probe_attention_cuda.cu", "ksw_probe/__init__.py"]
    missing = [n for n in needed if not (root / n).is_file()]
    if missing:
        raise FileNotFoundError(f"{root} lacks {', '.join(missing)}")
    return f"{root} ({len(needed)} files)"


def _verify_scripts() -> str:
    from kernel_wizard.verify import adapter_names, harness_path

    harness = harness_path()
    for name in ("harness_protocol.py", "harness_io.py", "harness_common.py",
                 "harness_measures.py", "harness_timing.py"):
        if not (harness.parent / name).is_file():
            raise FileNotFoundError(f"{harness.parent / name} is missing")
    return f"{harness} (adapters: {', '.join(adapter_names())})"


def _diagnosis() -> str:
    from kernel_wizard.base.resources import resource_path
    from kernel_wizard.diagnose import load_rules

    rules = load_rules(resource_path("diagnosis", "failures.toml"))
    return f"{len(rules.signatures)} known failures ({rules.source})"


# -- the machine and the process ------------------------------------------------------------


def _hardware() -> str:
    from kernel_wizard.machine.hardware import detect

    report = detect()
    host = report.host
    return (f"{report.state.name}: {report.message} — {host.cpu_logical} CPU cores, "
            f"{host.ram_total / 1024**3:.1f} GiB RAM")


def _not_own_target() -> str:
    """Frozen, sys.executable is the wizard: it must never be offered as a target Python."""
    from kernel_wizard.base.resources import is_frozen
    from kernel_wizard.machine.environment import discover_candidates

    candidates = discover_candidates()
    me = os.path.normcase(os.path.abspath(sys.executable))
    if is_frozen() and any(os.path.normcase(os.path.abspath(c.path)) == me
                           for c in candidates):
        raise RuntimeError(f"the wizard itself ({sys.executable}) is offered as a target Python")
    first = f"; first: {candidates[0].path} ({candidates[0].origin})" if candidates else ""
    return f"{len(candidates)} candidate interpreter(s){first}"


def _child_environment() -> str:
    from kernel_wizard.base.resources import is_frozen

    bundle = getattr(sys, "_MEIPASS", None)
    if not is_frozen() or bundle is None:
        return "not frozen: children inherit this shell's environment"
    if sys.platform.startswith("linux"):
        paths = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
        if any(os.path.realpath(p) == os.path.realpath(bundle) for p in paths):
            raise RuntimeError(f"LD_LIBRARY_PATH still points into the bundle ({bundle})")
        return "LD_LIBRARY_PATH is the user's own" + ("" if paths else " (unset)")
    if sys.platform == "win32":
        paths = os.environ.get("PATH", "").split(os.pathsep)
        if any(os.path.normcase(os.path.abspath(p)) == os.path.normcase(bundle)
               for p in paths if p):
            raise RuntimeError(f"PATH still starts with the bundle ({bundle})")
        return "PATH is the user's own"
    return "nothing to restore on this OS"


# -- the GUI --------------------------------------------------------------------------------


def _guarded_services(calls: list[str]) -> Any:
    """The wizard's services: real detection; a guard in place of anything that does work."""
    from kernel_wizard.flow.session import SessionServices

    replaced: dict[str, Callable[..., Any]] = {}
    for item in dataclasses.fields(SessionServices):
        if item.name in READ_ONLY_SERVICES or item.name.startswith(READ_ONLY_PREFIXES):
            continue

        def guard(*_args: Any, _name: str = item.name, **_kwargs: Any) -> Any:
            calls.append(_name)
            raise RuntimeError(f"the self-test does not run '{_name}'")

        replaced[item.name] = guard
    # the Welcome page asks to finish installs that were cut off: the self-test changes
    # nothing, so it finds nothing to finish (recovery itself is tested in tests/faults)
    replaced["recover"] = list
    return SessionServices(**replaced)


def _process_until(app: Any, done: Callable[[], bool], timeout: float) -> bool:
    from PySide6.QtCore import QEventLoop

    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.005)
    app.processEvents()
    return True


def _platform_plugin_present() -> tuple[bool, str]:
    """Whether Qt's platform plugin can be found (Qt aborts the process if it isn't)."""
    from PySide6.QtCore import QLibraryInfo

    wanted = (os.environ.get("QT_QPA_PLATFORM") or "").split(":")[0].split(";")[0]
    folder = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms"
    present = sorted(p.name for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    if not present:
        return False, f"no platform plugins in {folder}"
    if wanted and not any(wanted in name for name in present):
        return False, f"the '{wanted}' platform plugin is not in {folder} ({', '.join(present)})"
    return True, ", ".join(present)


def _page_name(page_id: int) -> str:
    from kernel_wizard.flow.session import FlowStep

    try:
        return FlowStep(page_id).name
    except ValueError:
        return f"page {page_id}"


def _starts_long_work(page_id: int) -> bool:
    """Whether entering this page starts long work (building, verifying, and what follows
    them): the walk stops before it. Named by the wizard's own page ids, so that a page that
    no longer exists cannot stay on the list."""
    from kernel_wizard.flow.session import FlowStep

    return page_id in (FlowStep.BUILD, FlowStep.VERIFY, FlowStep.DONE)


def _page_detail(wizard: Any, name: str) -> tuple[bool, str]:
    page = wizard.currentPage()
    title = page.title() if page is not None else ""
    if name != "HARDWARE":
        return True, title
    state = wizard.session
    if state.hardware is None:
        banner = getattr(getattr(page, "gpu_banner", None), "title", None)
        text = banner.text() if banner is not None else "no report"
        return False, f"detection failed in the page ({text})"
    env = state.environment
    target = (f"target Python {env.executable}: {env.summary}" if env is not None
              else "no target Python found (Browse… lets the user pick one)")
    return True, f"{state.hardware.message}; {target}"


def _gui(report: Report) -> None:
    from kernel_wizard.machine.platforms import current

    if not current().has_display(os.environ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    try:
        from PySide6.QtWidgets import QApplication
    except Exception as exc:  # noqa: BLE001
        report.add(False, "Qt", f"PySide6 does not import: {_describe(exc)}")
        return
    ok, detail = _platform_plugin_present()
    if not report.add(ok, "Qt platform plugins", detail):
        return
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "ksw"])
    from PySide6 import __version__ as pyside_version

    report.add(True, "Qt started", f"PySide6 {pyside_version}, platform "
               f"'{QApplication.platformName()}'")
    report.check("Qt signals", _signals)
    report.check("Text and ICU", _text_and_icu)
    report.check("Icon", _icon)

    calls: list[str] = []
    from .wizard import InstallerWizard

    try:
        wizard = InstallerWizard(_guarded_services(calls))
    except Exception as exc:  # noqa: BLE001
        report.add(False, "Wizard", f"could not be built: {_describe(exc)}")
        return
    names = [_page_name(i) for i in wizard.pageIds()]
    report.add(True, "Wizard built", f"{len(names)} pages: {', '.join(names)}")
    try:
        _walk(app, wizard, report)
    finally:
        wizard.hide()
        wizard.deleteLater()
        app.processEvents()
    report.add(not calls, "No build started",
               "no plan, build, verification or install ran" if not calls
               else f"the walk called {', '.join(sorted(set(calls)))}")


def _walk(app: Any, wizard: Any, report: Report) -> None:
    wizard.show()
    if not _process_until(app, lambda: wizard.currentId() != -1, 10):
        report.add(False, "Wizard shown", "no page became current")
        return
    seen: set[int] = set()
    while True:
        page_id = wizard.currentId()
        page = wizard.currentPage()
        name = _page_name(page_id)
        seen.add(page_id)
        busy = getattr(page, "is_busy", None)

        def settled_now(busy: Any = busy) -> bool:
            return not (callable(busy) and busy())

        settled = _process_until(app, settled_now, PAGE_TIMEOUT_S)
        if not settled:
            report.add(False, f"Page {name}", f"still busy after {PAGE_TIMEOUT_S:.0f} s")
            return
        ok, detail = _page_detail(wizard, name)
        grab = wizard.grab()
        if grab.isNull() or grab.width() < 100:
            ok, detail = False, f"renders nothing ({grab.width()}×{grab.height()})"
        report.add(ok, f"Page {name}", detail)
        if not ok:
            return
        next_id = page.nextId()
        if next_id == -1:
            report.add(True, "Walk finished", f"{name} is the last page")
            return
        next_name = _page_name(next_id)
        if _starts_long_work(next_id):
            report.add(True, "Walk stopped", f"before {next_name}: it starts long work")
            return
        if not page.isComplete():
            report.add(True, "Walk stopped", f"at {name}: Next is disabled until the user "
                       "acts (see the page above)")
            return
        if next_id in seen:
            report.add(False, "Walk", f"{name} leads back to {next_name}")
            return
        wizard.next()
        def opened(target: int = next_id) -> bool:
            return bool(wizard.currentId() == target)

        if not _process_until(app, opened, 10):
            report.add(False, f"Page {next_name}", f"Next on {name} did not open it")
            return


def _signals() -> str:
    from .qt_health import SAFE_EMISSIONS, describe_problem, true_refcount_change

    problem = describe_problem(true_refcount_change())
    if problem:
        raise RuntimeError(problem)
    return f"{3 * SAFE_EMISSIONS} emissions, the reference count of True held"


def _text_and_icu() -> str:
    from PySide6.QtCore import QCollator, QLocale

    collator = QCollator(QLocale("en_US"))
    # ICU's collation puts "a" before "B"; comparing code points would not.
    if collator.compare("a", "B") >= 0:
        raise RuntimeError("collation does not work (ICU data missing?)")
    upper = QLocale("de_DE").toUpper("straße")
    if upper not in ("STRASSE", "STRAẞE"):
        raise RuntimeError(f"locale case mapping gave {upper!r}")
    return "collation and case mapping work"


def _icon() -> str:
    from PySide6.QtGui import QPixmap

    from kernel_wizard.base.resources import resource_path

    path = resource_path("icons", "ksw.png")
    pixmap = QPixmap(str(path))
    if pixmap.isNull():
        raise RuntimeError(f"{path} does not load as an image")
    ico = resource_path("icons", "ksw.ico")
    return f"{path.name} {pixmap.width()}×{pixmap.height()}, {ico.name} present"


# -- entry points ---------------------------------------------------------------------------


def run(out: TextIO) -> Report:
    report = Report(out=out, marks=_marks(out))
    report.check("Installation", _where)
    _recipes(report)
    report.check("Probe kernel source", _probe_kernel)
    report.check("Verification harness", _verify_scripts)
    report.check("Environment probe", _files("probes", "inspect_env.py"))
    report.check("Install probe", _files("probes", "dist_files.py"))
    report.check("Known build failures", _diagnosis)
    report.check("Hardware detection", _hardware)
    report.check("Target Pythons", _not_own_target)
    report.check("Child processes", _child_environment)
    _gui(report)
    return report


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(
        prog="kernel-setup-wizard --self-test",
        description="Check that this installation of the Kernel Setup Wizard is complete and "
        "that its window opens (offscreen when there is no display). Builds nothing.",
    )
    parser.add_argument("--report", type=Path, metavar="FILE",
                        help="also write the report to FILE (for the windowed Windows program, "
                        "which has no console)")
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    out = sys.stdout if sys.stdout is not None else open(os.devnull, "w", encoding="utf-8")
    out.write("Kernel Setup Wizard self-test\n")
    report = run(out)
    total = report.passed + report.failed
    if report.failed:
        summary = f"Self-test FAILED: {report.failed} of {total} checks failed."
    else:
        summary = f"Self-test passed: {total} checks."
    out.write(summary + "\n")
    out.flush()
    if args.report is not None:
        args.report.write_text("\n".join([*report.lines, summary]) + "\n", encoding="utf-8")
    return 1 if report.failed else 0


# -- start-up timing ------------------------------------------------------------------------


_probe_keepalive: list[Any] = []


def arm_first_page_probe(target: str) -> None:
    """Record when the wizard's first page has been shown, then quit the application.

    ``target`` is ``KSW_EXIT_AFTER_FIRST_PAGE``: ``1`` prints ``KSW-FIRST-PAGE <unix time>`` on
    stdout; anything else is a file that gets that line. Call before the GUI starts; the
    normal start-up (:func:`app.wizard.run_gui`) then runs unchanged and returns 0.

    "Shown" is the first page's Show event followed by one turn of the event loop (a zero
    timer), so that what Qt queued when the window appeared has run. It does not wait for a
    paint event: with the offscreen platform (PySide6 6.12) a page may never get one. On a
    real display the window's first paint (of any of its widgets: on X11 the page itself gets
    none, its children cover it) also comes before the line, where it arrives within
    :data:`PAINT_GRACE_MS` of the show.
    """
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication, QWidget, QWizardPage

    app = QApplication.instance() or QApplication(sys.argv)

    class FirstPage(QObject):
        shown = painted = fired = False

        def record(self) -> None:
            if self.fired:
                return
            self.fired = True
            line = f"{FIRST_PAGE_MARK} {time.time():.6f}\n"
            if target == "1":
                if sys.stdout is not None:
                    sys.stdout.write(line)
                    sys.stdout.flush()
            else:
                with open(target, "a", encoding="utf-8") as f:
                    f.write(line)
            QTimer.singleShot(0, app.quit)

        def after_show(self) -> None:
            if self.painted or QGuiApplication.platformName() in {"offscreen", "minimal"}:
                self.record()
            else:  # a real display: the first paint follows the expose; don't wait forever
                QTimer.singleShot(PAINT_GRACE_MS, self.record)

        def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
            if self.fired or not isinstance(obj, QWidget):
                return False
            kind = event.type()
            if kind == QEvent.Type.Show and isinstance(obj, QWizardPage) and not self.shown:
                self.shown = True
                QTimer.singleShot(0, self.after_show)
            elif kind == QEvent.Type.Paint and self.shown:
                # any widget of the window: on X11 the page itself gets no paint event (its
                # children cover it), the wizard frame, its buttons and the page's labels do
                self.painted = True
                QTimer.singleShot(0, self.record)
            return False

    probe = FirstPage()
    app.installEventFilter(probe)
    _probe_keepalive.append(probe)
