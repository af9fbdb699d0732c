"""`python -m app` on an X11 desktop without libxcb-cursor0: Qt 6.5+ aborted the process (exit
134) with its raw "could not load the Qt platform plugin xcb". The wizard now looks before Qt
starts and says which package to install."""

from __future__ import annotations

import sys

import pytest

import app.__main__ as entry
from kernel_wizard.base.errors import ExitCode
from kernel_wizard.machine.platforms import linux
from kernel_wizard.machine.platforms.linux import missing_xcb_libraries


def never(_name: str) -> bool:
    return False


def test_an_x11_session_without_xcb_cursor_is_named() -> None:
    assert missing_xcb_libraries({"DISPLAY": ":0"}, loads=never) == ["libxcb-cursor.so.0"]
    assert missing_xcb_libraries({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w"},
                                 loads=never) == ["libxcb-cursor.so.0"]
    assert missing_xcb_libraries({"DISPLAY": ":0"}, loads=lambda _n: True) == []


@pytest.mark.parametrize("environ", [
    {"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"},  # no xcb plugin at all
    {"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"},
    {},  # no display: the no-display message says what to do instead
])
def test_sessions_where_qt_takes_no_xcb_plugin_need_nothing(environ: dict[str, str]) -> None:
    assert missing_xcb_libraries(environ, loads=never) == []


def test_the_bundle_carries_its_own_copy() -> None:
    assert missing_xcb_libraries({"DISPLAY": ":0"}, frozen=True, loads=never) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Qt's xcb plugin is Linux's")
def test_the_wizard_says_which_package_before_qt_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(linux, "_loads", never)
    assert entry.main([]) == int(ExitCode.NO_DISPLAY)
    said = capsys.readouterr().err
    assert said.startswith("The Kernel Setup Wizard cannot open its window: Qt needs "
                           "libxcb-cursor.so.0")
    assert "sudo apt install libxcb-cursor0" in said and "xcb-util-cursor" in said
    assert "--headless detect" in said
