"""The platform seam: Windows parsers on recorded outputs, Linux behaviour for real."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernel_wizard.machine.platforms import current
from kernel_wizard.machine.platforms.linux import LinuxPlatform
from kernel_wizard.machine.platforms.windows import parse_py_launcher

DATA = Path(__file__).resolve().parent.parent / "data" / "windows"


def read(name: str) -> str:
    return (DATA / name).read_bytes().decode("utf-8")


def test_py_launcher_new_format() -> None:
    hints = parse_py_launcher(read("py-0p-launcher-3.12.txt"))
    assert [str(h.path) for h in hints] == [
        r"C:\Users\Zoë Müller\AppData\Local\Programs\Python\Python313\python.exe",
        r"C:\Users\Zoë Müller\AppData\Local\Programs\Python\Python312\python.exe",
        r"C:\Users\Zoë Müller\AppData\Local\Programs\Python\Python311-32\python.exe",
        r"C:\ProgramData\anaconda3\python.exe",
    ]
    assert hints[1].origin == "py launcher (-3.12)"
    assert hints[3].origin == "py launcher (-ContinuumAnalytics/Anaconda39-64)"


def test_py_launcher_old_format() -> None:
    hints = parse_py_launcher(read("py-0p-launcher-3.10.txt"))
    assert [str(h.path) for h in hints] == [
        r"C:\Python310\python.exe",
        r"C:\Program Files\Python39\python.exe",
        r"C:\Python38-32\python.exe",
    ]
    assert hints[0].origin == "py launcher (-3.10-64)"


def test_py_launcher_garbage_gives_nothing() -> None:
    assert parse_py_launcher("") == []
    assert parse_py_launcher("No installed Pythons found!\r\n") == []


def test_linux_display_detection() -> None:
    linux = LinuxPlatform()
    assert not linux.has_display({})
    assert linux.has_display({"DISPLAY": ":0"})
    assert linux.has_display({"WAYLAND_DISPLAY": "wayland-0"})
    assert linux.has_display({"QT_QPA_PLATFORM": "offscreen"})


def test_linux_venv_layout(tmp_path: Path) -> None:
    assert LinuxPlatform().python_in_prefix(tmp_path) == tmp_path / "bin" / "python"


def test_current_platform_is_this_os() -> None:
    assert current().name == "linux"


# -- the registry: winreg first, reg.exe judged by its exit code -----------------------------

REG = Path(__file__).resolve().parent.parent / "data" / "reg"
KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem"


class StandInWinreg:
    """winreg's interface answering like the registry does (it exists only on Windows)."""

    HKEY_LOCAL_MACHINE = 0x80000002
    KEY_READ = 0x20019
    REG_DWORD = 4
    REG_SZ = 1

    def __init__(self, outcome: object) -> None:
        self.outcome = outcome
        self.opened: list[tuple[int, str]] = []

    def OpenKey(self, hive: int, subkey: str, reserved: int, access: int) -> StandInWinreg:  # noqa: N802
        self.opened.append((hive, subkey))
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self

    def __enter__(self) -> StandInWinreg:
        return self

    def __exit__(self, *args: object) -> None:
        return None

    def QueryValueEx(self, key: object, name: str) -> object:  # noqa: N802
        return self.outcome


def test_long_paths_read_with_winreg() -> None:
    from kernel_wizard.machine.platforms.windows import read_dword_winreg

    reg = StandInWinreg((1, StandInWinreg.REG_DWORD))
    assert read_dword_winreg(reg, KEY, "LongPathsEnabled") == 1
    assert reg.opened == [(StandInWinreg.HKEY_LOCAL_MACHINE,
                           r"SYSTEM\CurrentControlSet\Control\FileSystem")]
    assert read_dword_winreg(StandInWinreg(FileNotFoundError(2, "not found")), KEY,
                             "LongPathsEnabled") is None


def test_access_denied_is_not_read_as_not_set() -> None:
    from kernel_wizard.base.errors import WizardError
    from kernel_wizard.machine.platforms.windows import read_dword_winreg

    with pytest.raises(WizardError, match="did not let the wizard read"):
        read_dword_winreg(StandInWinreg(PermissionError(5, "Access is denied")), KEY,
                          "LongPathsEnabled")


def test_reg_exe_fallback_uses_the_exit_code_not_the_localized_text() -> None:
    """German reg.exe, OEM code page 850: "FEHLER: Der angegebene Registrierungsschlüssel bzw.
    Wert wurde nicht gefunden." (exit 1) while the key itself is readable → not set."""
    from kernel_wizard.machine.platforms import ProgramOutput
    from kernel_wizard.machine.platforms.windows import read_dword_reg_exe

    missing = (REG / "longpaths-missing-de.stderr.cp850.txt").read_bytes()
    calls: list[list[str]] = []

    def german(argv: object) -> ProgramOutput:
        calls.append(list(argv))  # type: ignore[call-overload]
        if "/v" in calls[-1]:
            return ProgramOutput(1, b"", missing)
        return ProgramOutput(0, b"\r\nHKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control"
                                b"\\FileSystem\r\n")

    assert read_dword_reg_exe(KEY, "LongPathsEnabled", encodings=("cp850",), run=german) is None
    assert calls == [["reg", "query", KEY, "/v", "LongPathsEnabled"], ["reg", "query", KEY]]

    enabled = (REG / "longpaths-enabled.stdout.txt").read_bytes()
    assert read_dword_reg_exe(KEY, "LongPathsEnabled",
                              run=lambda argv: ProgramOutput(0, enabled)) == 1


def test_reg_exe_access_denied_is_an_error_with_its_own_words() -> None:
    from kernel_wizard.base.errors import WizardError
    from kernel_wizard.machine.platforms import ProgramOutput
    from kernel_wizard.machine.platforms.windows import read_dword_reg_exe

    denied = (REG / "access-denied.stderr.txt").read_bytes()
    with pytest.raises(WizardError) as caught:
        read_dword_reg_exe(KEY, "LongPathsEnabled",
                           run=lambda argv: ProgramOutput(1, b"", denied))
    assert "ERROR: Access is denied." in caught.value.why
