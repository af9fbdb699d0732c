"""Linux and WSL2."""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import platformdirs

from kernel_wizard.machine.platforms import (
    InterpreterHint,
    ProgramOutput,
    proc_cpu,
    run_program,
)

# Qt 6.5+ refuses to start its xcb (X11) plugin without these; PySide6's wheels do not ship them
# (the bundle does, see docs/bundle.md), and without them `python -m app` aborted (exit 134)
# with Qt's raw "could not load the Qt platform plugin xcb".
XCB_LIBRARIES = {"libxcb-cursor.so.0": "libxcb-cursor0 (Debian, Ubuntu) or xcb-util-cursor "
                                       "(Fedora, Arch, openSUSE)"}


def _loads(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def missing_xcb_libraries(environ: Mapping[str, str], *, frozen: bool = False,
                          loads: Callable[[str], bool] | None = None) -> list[str]:
    """The xcb libraries Qt will need in this session and cannot load: only where Qt takes
    its xcb plugin (an X11 display, or QT_QPA_PLATFORM=xcb), and never for the bundle, which
    carries its own copies."""
    platform = environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if frozen or platform not in ("", "xcb"):
        return []
    if not platform and environ.get("WAYLAND_DISPLAY") and \
            environ.get("XDG_SESSION_TYPE", "").lower() == "wayland":
        return []  # Qt picks its Wayland plugin in a Wayland session
    if not platform and not environ.get("DISPLAY"):
        return []
    can_load = loads if loads is not None else _loads
    return [name for name in XCB_LIBRARIES if not can_load(name)]

class LinuxPlatform:
    name = "linux"
    host_include_var = "CPLUS_INCLUDE_PATH"
    git_config: tuple[tuple[str, str], ...] = ()

    def python_in_prefix(self, prefix: Path) -> Path:
        return prefix / "bin" / "python"

    def registered_interpreters(self) -> list[InterpreterHint]:
        return []

    def tree_cpu_seconds(self, pid: int) -> float | None:
        """From ``/proc/<pid>/stat`` of the tree (:mod:`.proc_cpu`)."""
        return proc_cpu.tree_cpu_seconds(pid)

    def has_display(self, environ: Mapping[str, str]) -> bool:
        if environ.get("QT_QPA_PLATFORM", "").split(":")[0] in {"offscreen", "minimal", "vnc"}:
            return True
        return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))

    def missing_display_libraries(self, environ: Mapping[str, str]) -> list[str]:
        return missing_xcb_libraries(environ, frozen=getattr(sys, "frozen", False))

    def default_build_root(self) -> Path:
        override = os.environ.get("KSW_BUILD_ROOT")  # tests, portable installs, another disk
        if override:
            return Path(override)
        return Path(platformdirs.user_cache_dir("kernel-setup-wizard", appauthor=False)) / "b"

    def interpreter_names(self) -> Sequence[str]:
        return ("python3", "python")

    def cuda_toolkit_folders(self) -> list[Path]:
        found: list[Path] = []
        for base in (Path("/usr/local"), Path("/opt")):
            try:
                found += sorted(
                    p for p in base.iterdir() if p.name.startswith("cuda") and p.is_dir()
                )
            except OSError:
                continue
        return found

    def executable(self, name: str) -> str:
        return name

    # -- prerequisites (kernel_wizard.prereqs) -----------------------------------------------

    def max_path(self) -> int | None:
        """None: Linux has no 260-character path limit."""
        return None

    def vswhere_path(self) -> Path | None:
        return None

    def read_long_paths_enabled(self) -> int | None:
        return None

    def windows_sdk_versions(self) -> list[str]:
        return []

    def console_encodings(self) -> tuple[str, ...]:
        import locale

        getencoding = getattr(locale, "getencoding", None)  # Python 3.11+
        found = getencoding() if getencoding is not None else locale.getpreferredencoding(False)
        return (found,) if found.lower().replace("-", "") != "utf8" else ()

    def run_program(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
                    timeout: float = 30.0) -> ProgramOutput:
        return run_program(argv, env=env, timeout=timeout)

    def run_capture(self, command: str, env: Mapping[str, str] | None = None,
                    timeout: float = 120) -> bytes:
        """Never: there is no cmd.exe and no vcvarsall on Linux."""
        from kernel_wizard.base.errors import WizardError

        raise WizardError("Visual Studio's build environment exists only on Windows.")

    def run_elevated(self, argv: Sequence[str], *, show_window: bool = True) -> int:
        """Never: on Linux the wizard shows the sudo command and the user runs it."""
        from kernel_wizard.base.errors import WizardError

        raise WizardError(
            "The wizard does not run commands as root on Linux.",
            hint="Run the command it shows with sudo in a terminal, then check again.",
        )

    def register_resume_once(self, name: str, argv: Sequence[str]) -> str:
        """Nothing to do: no Linux fix needs a restart."""
        return ""

    def os_release_text(self) -> str:
        """/etc/os-release (the distribution, for package-manager commands); '' if absent."""
        for path in (Path("/etc/os-release"), Path("/usr/lib/os-release")):
            try:
                return path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
        return ""
