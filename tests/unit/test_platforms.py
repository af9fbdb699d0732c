"""The platform seam: Windows parsers on recorded outputs, Linux behaviour for real."""

from __future__ import annotations

from pathlib import Path

from build_backend.platforms import current
from build_backend.platforms.linux import LinuxPlatform
from build_backend.platforms.windows import parse_py_launcher

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
