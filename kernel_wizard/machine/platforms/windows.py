"""Windows. Importable on any OS: Windows-only modules are imported inside the functions.

Everything that interprets what Windows returned is a pure function (``parse_py_launcher``
and friends) so it is tested on any OS with recorded real outputs.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kernel_wizard.base.errors import ProcessError, WizardError
from kernel_wizard.machine.platforms import InterpreterHint, ProgramOutput, run_program

# ``py -0p`` of the launcher shipped with Python >= 3.11:
#   " -V:3.12 *        C:\Users\me\AppData\Local\Programs\Python\Python312\python.exe"
# and of older launchers (Python <= 3.10):
#   " -3.9-64        C:\Python39\python.exe *"
_PY_LAUNCHER_LINE = re.compile(
    r"^\s*-(?:V:)?(?P<tag>\S+)\s+(?:\*\s+)?(?P<path>.+?)(?:\s+\*)?\s*$"
)


def parse_py_launcher(output: str) -> list[InterpreterHint]:
    """Interpreters listed by ``py -0p`` (either launcher generation)."""
    hints: list[InterpreterHint] = []
    for line in output.splitlines():
        if not line.strip().startswith("-"):
            continue  # headers such as "Installed Pythons found by py Launcher for Windows"
        match = _PY_LAUNCHER_LINE.match(line)
        if match is None:
            continue
        path = match.group("path").strip()
        if not path.lower().endswith(".exe"):
            continue  # "-V:3.13 (Store)" entries without a path, or unknown formats
        hints.append(InterpreterHint(Path(path), f"py launcher (-{match.group('tag')})"))
    return hints


class WindowsPlatform:
    name = "windows"
    host_include_var = "INCLUDE"  # cl.exe reads extra include folders from INCLUDE
    # CUTLASS and friends have paths beyond 260 characters under any build root
    git_config: tuple[tuple[str, str], ...] = (("core.longpaths", "true"),)

    def python_in_prefix(self, prefix: Path) -> Path:
        # venvs keep it in Scripts\, conda environments in the prefix itself
        scripts = prefix / "Scripts" / "python.exe"
        return scripts if scripts.exists() else prefix / "python.exe"

    def registered_interpreters(self) -> list[InterpreterHint]:
        from kernel_wizard.base.errors import ProcessError
        from kernel_wizard.base.processes import run_captured

        try:
            completed = run_captured(["py", "-0p"], timeout_s=15)
        except ProcessError:
            return []  # no launcher installed
        return parse_py_launcher(completed.stdout + "\n" + completed.stderr)

    def tree_cpu_seconds(self, pid: int) -> float | None:
        """Not measured on Windows: the build's ETA keeps its unit-based model there. (The
        build's Job Object could say it, ``JOBOBJECT_BASIC_ACCOUNTING_INFORMATION``'s total
        user and kernel time, ended processes included; not done, as it cannot be run and
        checked on the machines this is developed on.)"""
        return None

    def has_display(self, environ: Mapping[str, str]) -> bool:
        return True  # an interactive Windows session always has a desktop

    def missing_display_libraries(self, environ: Mapping[str, str]) -> list[str]:
        return []  # Qt's Windows plugin needs nothing beyond the system's own DLLs

    def default_build_root(self) -> Path:
        # Short on purpose: nvcc and cl.exe still trip over 260-character paths.
        override = os.environ.get("KSW_BUILD_ROOT")  # tests, portable installs, another disk
        if override:
            return Path(override)
        drive = os.environ.get("SystemDrive", "C:")
        return Path(drive + "\\") / "ksw"

    def interpreter_names(self) -> Sequence[str]:
        return ("python.exe",)

    def cuda_toolkit_folders(self) -> list[Path]:
        base = Path(os.environ.get("ProgramFiles", r"C:\Program Files"))
        root = base / "NVIDIA GPU Computing Toolkit" / "CUDA"
        try:
            return sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            return []

    def executable(self, name: str) -> str:
        return name if name.lower().endswith(".exe") else name + ".exe"

    # -- prerequisites (kernel_wizard.prereqs): what the checks read and the fixes do --------

    def max_path(self) -> int | None:
        """The path length classic Windows programs are limited to (without long paths)."""
        return MAX_PATH

    def vswhere_path(self) -> Path | None:
        """vswhere.exe of the Visual Studio Installer; None when it is not installed."""
        from kernel_wizard.machine.toolchain import vswhere_locations

        for path in vswhere_locations(os.environ):
            if path.is_file():
                return path
        return None

    def read_long_paths_enabled(self) -> int | None:
        """LongPathsEnabled (HKLM); None when the value is not set. Read with ``winreg``;
        ``reg query`` (judged by its exit code) only when winreg cannot be imported."""
        from kernel_wizard.machine.toolchain import LONG_PATHS_KEY, LONG_PATHS_VALUE

        try:
            import importlib

            winreg = importlib.import_module("winreg")
        except ImportError:
            return read_dword_reg_exe(LONG_PATHS_KEY, LONG_PATHS_VALUE,
                                      encodings=self.console_encodings())
        return read_dword_winreg(winreg, LONG_PATHS_KEY, LONG_PATHS_VALUE)

    def console_encodings(self) -> tuple[str, ...]:
        """The OEM code page (console programs print in it: reg.exe, vswhere 3.0.1, cl.exe)
        and the ANSI one (``locale.getencoding()``), e.g. ("cp932", "cp932")."""
        return console_encodings()

    def run_program(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
                    timeout: float = 30.0) -> ProgramOutput:
        return run_program(argv, env=env, timeout=timeout)

    def run_capture(self, command: str, env: Mapping[str, str] | None = None,
                    timeout: float = 120) -> bytes:
        return run_capture(command, env=env, timeout=timeout)

    def windows_sdk_versions(self) -> list[str]:
        """Installed Windows 10/11 SDKs ("10.0.22621.0"), newest first."""
        base = Path(os.environ.get("ProgramFiles(x86)", r"C:\Program Files (x86)"))
        include = base / "Windows Kits" / "10" / "Include"
        try:
            names = [p.name for p in include.iterdir() if (p / "um").is_dir()]
        except OSError:
            return []
        return parse_windows_sdk_versions(names)

    def run_elevated(self, argv: Sequence[str], *, show_window: bool = True) -> int:
        """Run ``argv`` with administrator rights (one UAC prompt); its exit code."""
        return run_elevated(argv, show_window=show_window)

    def register_resume_once(self, name: str, argv: Sequence[str]) -> str:
        """Start ``argv`` once at the user's next logon (HKCU RunOnce); the command line."""
        return register_run_once(name, argv)

    def os_release_text(self) -> str:
        return ""


# --------------------------------------------------------------------------------------------
# Prerequisite helpers: elevation (ShellExecuteExW "runas"), RunOnce, Windows SDK folders
# --------------------------------------------------------------------------------------------

MAX_PATH = 260
ERROR_CANCELLED = 1223  # ShellExecuteExW's last error when the user declines the UAC prompt
RUN_ONCE_KEY = r"Software\Microsoft\Windows\CurrentVersion\RunOnce"
RUN_ONCE_MAX_CHARS = 260  # Windows ignores longer Run/RunOnce command lines


class ElevationDeclined(WizardError):
    """The user answered No at the administrator (UAC) prompt. A choice, not a failure."""


class ElevationFailed(WizardError):
    """The elevated program could not be started, or could not be waited for."""


def parse_windows_sdk_versions(names: Sequence[str]) -> list[str]:
    """The Windows SDK versions among folder names of ``Windows Kits\\10\\Include``, newest
    first ("10.0.22621.0"); other names (``wdf``, stray files) are skipped."""
    found: list[tuple[tuple[int, ...], str]] = []
    for name in names:
        if re.fullmatch(r"10\.0\.\d+\.\d+", name.strip()):
            found.append((tuple(int(p) for p in name.strip().split(".")), name.strip()))
    return [name for _, name in sorted(set(found), reverse=True)]


def run_once_command(argv: Sequence[str]) -> str:
    """The RunOnce value for ``argv`` (Windows quoting); ValueError when Windows would ignore it
    for being longer than 260 characters."""
    command = subprocess.list2cmdline(list(argv))
    if len(command) > RUN_ONCE_MAX_CHARS:
        raise ValueError(
            f"the command line is {len(command)} characters long; RunOnce allows "
            f"{RUN_ONCE_MAX_CHARS}"
        )
    return command


def register_run_once(name: str, argv: Sequence[str]) -> str:
    """Write ``HKCU\\...\\RunOnce\\<name>`` = ``argv``: Windows runs it once at the next logon
    and removes the value before running it. Needs no administrator rights."""
    import importlib

    command = run_once_command(argv)
    winreg = importlib.import_module("winreg")  # Windows only; Any for the type checker
    with winreg.CreateKeyEx(winreg.HKEY_CURRENT_USER, RUN_ONCE_KEY, 0,
                            winreg.KEY_SET_VALUE) as key:
        winreg.SetValueEx(key, name, 0, winreg.REG_SZ, command)
    return command


def run_elevated(argv: Sequence[str], *, show_window: bool = True, poll_s: float = 0.5) -> int:
    """Run ``argv[0]`` with ``argv[1:]`` as administrator and wait for it; its exit code.

    ``ShellExecuteExW`` with the verb ``runas`` shows the UAC prompt for this one program;
    ``SEE_MASK_NOCLOSEPROCESS`` gives a handle to wait on and to read the exit code from.
    Raises :class:`ElevationDeclined` when the user answers No (``ERROR_CANCELLED``, 1223) and
    :class:`ElevationFailed` for any other failure. An elevated process cannot be stopped from
    this unelevated one: installers run this way offer Cancel in their own window.
    """
    import ctypes
    from ctypes import wintypes

    class ShellExecuteInfoW(ctypes.Structure):
        _fields_ = [
            ("cbSize", wintypes.DWORD),
            ("fMask", ctypes.c_ulong),
            ("hwnd", wintypes.HWND),
            ("lpVerb", wintypes.LPCWSTR),
            ("lpFile", wintypes.LPCWSTR),
            ("lpParameters", wintypes.LPCWSTR),
            ("lpDirectory", wintypes.LPCWSTR),
            ("nShow", ctypes.c_int),
            ("hInstApp", wintypes.HINSTANCE),
            ("lpIDList", ctypes.c_void_p),
            ("lpClass", wintypes.LPCWSTR),
            ("hkeyClass", wintypes.HKEY),
            ("dwHotKey", wintypes.DWORD),
            ("hIconOrMonitor", wintypes.HANDLE),
            ("hProcess", wintypes.HANDLE),
        ]

    see_mask_nocloseprocess = 0x00000040
    see_mask_noasync = 0x00000100
    wait_object_0, wait_timeout = 0x0, 0x102
    win_dll = getattr(ctypes, "WinDLL")  # noqa: B009 - Windows only; keeps mypy quiet elsewhere
    shell32 = win_dll("shell32", use_last_error=True)
    kernel32 = win_dll("kernel32", use_last_error=True)
    shell32.ShellExecuteExW.argtypes = [ctypes.POINTER(ShellExecuteInfoW)]
    shell32.ShellExecuteExW.restype = wintypes.BOOL
    kernel32.WaitForSingleObject.argtypes = [wintypes.HANDLE, wintypes.DWORD]
    kernel32.WaitForSingleObject.restype = wintypes.DWORD
    kernel32.GetExitCodeProcess.argtypes = [wintypes.HANDLE, ctypes.POINTER(wintypes.DWORD)]
    kernel32.GetExitCodeProcess.restype = wintypes.BOOL
    kernel32.CloseHandle.argtypes = [wintypes.HANDLE]
    kernel32.CloseHandle.restype = wintypes.BOOL

    info = ShellExecuteInfoW()
    info.cbSize = ctypes.sizeof(ShellExecuteInfoW)
    info.fMask = see_mask_nocloseprocess | see_mask_noasync
    info.lpVerb = "runas"
    info.lpFile = str(argv[0])
    info.lpParameters = subprocess.list2cmdline([str(a) for a in argv[1:]])
    info.nShow = 1 if show_window else 0  # SW_SHOWNORMAL / SW_HIDE
    if not shell32.ShellExecuteExW(ctypes.byref(info)):
        error = ctypes.get_last_error()  # type: ignore[attr-defined,unused-ignore]
        if error == ERROR_CANCELLED:
            raise ElevationDeclined(
                "The administrator prompt was declined.",
                hint="Nothing was changed. Choose Fix again and answer Yes to the prompt, or "
                "make the change yourself.",
            )
        raise ElevationFailed(
            f"{Path(str(argv[0])).name} could not be started with administrator rights.",
            why=f"Windows error {error}: "
            f"{ctypes.FormatError(error).strip()}",  # type: ignore[attr-defined,unused-ignore]
        )
    handle = info.hProcess
    if not handle:
        raise ElevationFailed(
            f"{Path(str(argv[0])).name} was started, but Windows gave no handle to wait on.",
            hint="Wait until it has finished, then check again.",
        )
    try:
        while True:
            state = kernel32.WaitForSingleObject(handle, int(poll_s * 1000))
            if state == wait_object_0:
                break
            if state != wait_timeout:
                raise ElevationFailed(
                    f"Waiting for {Path(str(argv[0])).name} failed.",
                    why=f"WaitForSingleObject returned {state}",
                )
        code = wintypes.DWORD()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            raise ElevationFailed(f"The exit code of {Path(str(argv[0])).name} is unknown.")
        return int(code.value)
    finally:
        kernel32.CloseHandle(handle)


def run_capture(command: str, env: Mapping[str, str] | None = None,
                timeout: float = 120) -> bytes:
    """Run a ``cmd.exe`` command line (see msvc.vcvars_command: one string, no shell besides
    that cmd) in ``env`` and return its raw stdout (``set`` under ``cmd /u`` is UTF-16-LE)."""
    from kernel_wizard.base.processes import WindowsCommandLine, run_captured

    # ``set`` prints the child's environment: no marker variable in it (see processes)
    return run_captured(WindowsCommandLine(command), timeout_s=timeout, mark=False,
                        env=env).stdout_bytes


# --------------------------------------------------------------------------------------------
# Code pages and the registry
# --------------------------------------------------------------------------------------------


def console_encodings() -> tuple[str, ...]:
    """("cp<OEM>", <ANSI>): what console programs print in when they do not print UTF-8."""
    import locale

    found: list[str] = []
    try:
        import ctypes

        oem = int(getattr(ctypes, "windll").kernel32.GetOEMCP())  # noqa: B009 - Windows only
        if oem and oem != 65001:
            found.append(f"cp{oem}")
    except (ImportError, AttributeError, OSError):
        pass
    getencoding = getattr(locale, "getencoding", None)  # Python 3.11+
    ansi = getencoding() if getencoding is not None else locale.getpreferredencoding(False)
    if ansi and ansi.lower().replace("-", "") not in ("utf8", *found):
        found.append(ansi)
    return tuple(found)


class RegistryReadError(WizardError):
    """A registry value exists (or may exist) but could not be read."""


def _split_hive(key: str) -> tuple[str, str]:
    hive, _, subkey = key.partition("\\")
    names = {"HKLM": "HKEY_LOCAL_MACHINE", "HKCU": "HKEY_CURRENT_USER"}
    return names.get(hive.upper(), hive.upper()), subkey


def read_dword_winreg(winreg: Any, key: str, value_name: str) -> int | None:
    """A REG_DWORD through the ``winreg`` module (passed in: it exists only on Windows);
    None when the value (or its key) does not exist. Access denied is an error, never "not
    set"."""
    from kernel_wizard.machine.toolchain import ToolchainParseError

    hive_name, subkey = _split_hive(key)
    hive = getattr(winreg, hive_name)
    try:
        with winreg.OpenKey(hive, subkey, 0, winreg.KEY_READ) as handle:
            data, kind = winreg.QueryValueEx(handle, value_name)
    except FileNotFoundError:
        return None
    except PermissionError as exc:
        raise RegistryReadError(
            f"Windows did not let the wizard read {key}\\{value_name}.",
            why=str(exc),
            hint="Run the wizard as a user who may read this setting, or ask an administrator.",
        ) from None
    if kind != winreg.REG_DWORD:
        raise ToolchainParseError(
            f"The registry value {value_name} is not a REG_DWORD.",
            hint=f"Delete the value {value_name} and let the wizard set it again.",
        )
    return int(data)


def read_dword_reg_exe(
    key: str,
    value_name: str,
    *,
    encodings: Sequence[str] = (),
    run: Callable[[Sequence[str]], ProgramOutput] | None = None,
) -> int | None:
    """A REG_DWORD through ``reg query`` (the fallback when winreg is not there).

    reg.exe's messages are localized and printed in the OEM code page, so they are never
    read for meaning: exit code 0 → parse the value; otherwise ``reg query <key>`` alone tells
    "the key is readable, the value is just not set" (exit code 0 → None) from "the key could
    not be read" (access denied, ...: an error carrying reg.exe's own words)."""
    from kernel_wizard.machine.toolchain import parse_reg_query_dword

    runner = run if run is not None else (lambda argv: run_program(argv, timeout=30))

    def text(data: bytes) -> str:
        for encoding in ("utf-8", *encodings):
            try:
                return data.decode(encoding)
            except (UnicodeDecodeError, LookupError):
                continue
        return data.decode("utf-8", errors="replace")

    try:
        done = runner(["reg", "query", key, "/v", value_name])
        if done.returncode == 0:
            return parse_reg_query_dword(text(done.stdout), value_name)
        key_only = runner(["reg", "query", key])
    except ProcessError as exc:
        raise RegistryReadError(f"reg.exe could not read {key}.", why=exc.describe()) from None
    if key_only.returncode == 0:
        return None
    raise RegistryReadError(
        f"Windows did not let the wizard read {key}\\{value_name}.",
        why=f"reg.exe exit code {done.returncode}: "
        f"{text(done.stderr or key_only.stderr).strip()[:300]}",
        hint="Run the wizard as a user who may read this setting, or ask an administrator.",
    )


# --------------------------------------------------------------------------------------------
# Nothing outlives the wizard: a Job Object with kill-on-close, and the console's close event
# --------------------------------------------------------------------------------------------
# Every child the runner starts is created suspended, put into one Job Object (created once per
# wizard process) and only then resumed, so that not even its first grandchild escapes. The job
# is made with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: when the wizard ends in any way (closed,
# crashed, ended from the Task Manager) Windows closes its last handle to the job and ends every
# process in it. Breakaway is not allowed. The calls go through a small seam (``Kernel32Api``)
# so that tests check them with a recording fake; only a real Windows machine runs them.

CREATE_SUSPENDED = 0x00000004
JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x00002000
JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS = 9  # JobObjectExtendedLimitInformation

CTRL_C_EVENT = 0
CTRL_BREAK_EVENT = 1
CTRL_CLOSE_EVENT = 2
CTRL_LOGOFF_EVENT = 5
CTRL_SHUTDOWN_EVENT = 6
# Why the work stops, for a log; Ctrl-C and Ctrl-Break are left to Python (SIGINT, SIGBREAK).
CONSOLE_EVENT_REASONS = {
    CTRL_CLOSE_EVENT: "cancelled: the console window was closed",
    CTRL_LOGOFF_EVENT: "cancelled: the user is signing out",
    CTRL_SHUTDOWN_EVENT: "cancelled: Windows is shutting down",
}
# Windows ends a process about 5 s after CTRL_CLOSE_EVENT, whatever its handler does.
CONSOLE_CLOSE_GRACE_S = 4.5


def _job_structures() -> tuple[type[Any], type[Any]]:
    import ctypes

    class IoCounters(ctypes.Structure):
        _fields_ = [(name, ctypes.c_uint64) for name in (
            "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
            "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]

    class BasicLimits(ctypes.Structure):
        _fields_ = [
            ("PerProcessUserTimeLimit", ctypes.c_int64),
            ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", ctypes.c_uint32),
            ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t),
            ("ActiveProcessLimit", ctypes.c_uint32),
            ("Affinity", ctypes.c_size_t),
            ("PriorityClass", ctypes.c_uint32),
            ("SchedulingClass", ctypes.c_uint32),
        ]

    class ExtendedLimits(ctypes.Structure):  # JOBOBJECT_EXTENDED_LIMIT_INFORMATION
        _fields_ = [
            ("BasicLimitInformation", BasicLimits),
            ("IoInfo", IoCounters),
            ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t),
            ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        ]

    return BasicLimits, ExtendedLimits


def kill_on_close_limits() -> Any:
    """The JOBOBJECT_EXTENDED_LIMIT_INFORMATION that ends every process of the job when its
    last handle closes (nothing else limited)."""
    _, extended = _job_structures()
    info = extended()
    info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    return info


class Kernel32Api:
    """The few kernel32 calls the job and the console handler make (Windows only; tests pass a
    recording fake with the same methods)."""

    def __init__(self) -> None:
        import ctypes

        self._k = getattr(ctypes, "WinDLL")("kernel32", use_last_error=True)  # noqa: B009
        self._ctypes = ctypes
        self._k.CreateJobObjectW.restype = ctypes.c_void_p
        self._k.CreateJobObjectW.argtypes = [ctypes.c_void_p, ctypes.c_wchar_p]
        self._k.SetInformationJobObject.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                                    ctypes.c_void_p, ctypes.c_uint32]
        self._k.AssignProcessToJobObject.argtypes = [ctypes.c_void_p, ctypes.c_void_p]

    def CreateJobObjectW(self, attributes: Any, name: Any) -> int:  # noqa: N802 - Win32 name
        return int(self._k.CreateJobObjectW(attributes, name) or 0)

    def SetInformationJobObject(self, job: int, info_class: int, info: Any,  # noqa: N802
                                size: int) -> int:
        return int(self._k.SetInformationJobObject(job, info_class, info, size))

    def AssignProcessToJobObject(self, job: int, process: int) -> int:  # noqa: N802
        return int(self._k.AssignProcessToJobObject(job, process))

    def SetConsoleCtrlHandler(self, handler: Any, add: int) -> int:  # noqa: N802
        return int(self._k.SetConsoleCtrlHandler(handler, add))

    def last_error(self) -> int:
        return int(getattr(self._ctypes, "get_last_error")())  # noqa: B009

    def console_handler(self, function: Callable[[int], int]) -> Any:
        """A C callback (HandlerRoutine) calling ``function``."""
        prototype = getattr(self._ctypes, "WINFUNCTYPE")(self._ctypes.c_int,  # noqa: B009
                                                         self._ctypes.c_uint32)
        return prototype(function)

    def resume(self, pid: int) -> None:
        """Let a process created suspended run (NtResumeProcess, through psutil)."""
        import psutil

        psutil.Process(pid).resume()


class KillOnCloseJob:
    """The wizard's Job Object (a :class:`~kernel_wizard.base.process_guard.ChildGuard`): children
    are created suspended, assigned to it, then resumed."""

    creationflags = CREATE_SUSPENDED

    def __init__(self, api: Any, handle: int) -> None:
        self.api = api
        self.handle = handle
        self.failures: list[tuple[int, int]] = []  # (pid, Win32 error) not assigned

    @classmethod
    def create(cls, api: Any | None = None) -> KillOnCloseJob | None:
        """The job, or None when Windows refused it (the children then run unguarded, as
        before; the runner's own tree stop still works)."""
        import ctypes

        api = api if api is not None else Kernel32Api()
        handle = api.CreateJobObjectW(None, None)
        if not handle:
            return None
        info = kill_on_close_limits()
        if not api.SetInformationJobObject(handle, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS,
                                           ctypes.byref(info), ctypes.sizeof(info)):
            return None
        # The handle is deliberately never closed: Windows closes it when the wizard ends,
        # and that is what ends the job's processes.
        return cls(api, handle)

    def adopt(self, pid: int, handle: int) -> bool:
        """Assign the (suspended) child to the job, then resume it — also when the assignment
        failed, so that no child is left suspended."""
        try:
            assigned = bool(self.api.AssignProcessToJobObject(self.handle, handle))
            if not assigned:
                self.failures.append((pid, self.api.last_error()))
            return assigned
        finally:
            self.api.resume(pid)


_CONSOLE_HANDLERS: list[Any] = []  # the C callbacks must live as long as they are registered


def console_close_handler(on_close: Callable[[str], None],
                          wait: Callable[[float], object]) -> Callable[[int], int]:
    """The console control handler: on closing the console window, signing out or shutting
    down, ``on_close(reason)`` starts the stop, then ``wait(seconds)`` gives it the few seconds
    Windows allows before it ends the process (the Job Object ends what is left). Ctrl-C and
    Ctrl-Break are passed on (0) to Python's own handler (SIGINT, SIGBREAK)."""

    def handler(event: int) -> int:
        reason = CONSOLE_EVENT_REASONS.get(int(event))
        if reason is None:
            return 0
        on_close(reason)
        wait(CONSOLE_CLOSE_GRACE_S)
        return 1

    return handler


def install_console_close_handler(on_close: Callable[[str], None],
                                  wait: Callable[[float], object],
                                  api: Any | None = None) -> bool:
    """Register :func:`console_close_handler` with ``SetConsoleCtrlHandler``."""
    api = api if api is not None else Kernel32Api()
    callback = api.console_handler(console_close_handler(on_close, wait))
    if not api.SetConsoleCtrlHandler(callback, 1):
        return False
    _CONSOLE_HANDLERS.append(callback)
    return True
