"""The "Re-verify GPU kernels" shortcut (kernel_wizard/machine/platforms/shortcuts.py).

Linux: real files in a temporary home, launched by GLib's own desktop-entry reader (``gio
launch``), so the Exec quoting is checked by the program that reads it. Windows: the PowerShell
call is decoded and its output read from recordings (tests/data/windows); only Windows can
confirm the .lnk files themselves.
"""

from __future__ import annotations

import base64
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path, PureWindowsPath

import pytest

from kernel_wizard.base.errors import ProcessStartError
from kernel_wizard.machine.platforms import ProgramOutput
from kernel_wizard.machine.platforms.shortcuts import (
    REVERIFY_NAME,
    WINDOWS_SCRIPT,
    Shortcut,
    create_linux,
    create_shortcuts,
    create_windows,
    desktop_entry,
    linux_places,
    parse_user_dirs,
    parse_windows_output,
    reverify_shortcut,
    windows_command,
    wizard_argv,
)

WINDOWS = Path(__file__).resolve().parents[1] / "data" / "windows"


def recorded(name: str) -> bytes:
    return (WINDOWS / name).read_bytes()


def home_with_desktop(tmp_path: Path, desktop: str = "Schreibtisch") -> Path:
    home = tmp_path / "home"
    (home / desktop).mkdir(parents=True)
    config = home / ".config"
    config.mkdir()
    (config / "user-dirs.dirs").write_text(
        f'# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR="$HOME/{desktop}"\n'
        'XDG_DOWNLOAD_DIR="$HOME/Downloads"\n', encoding="utf-8")
    return home


@pytest.mark.skipif(shutil.which("gio") is None, reason="needs GLib's gio to launch the entry")
def test_linux_shortcut_starts_exactly_its_command(tmp_path: Path) -> None:
    home = home_with_desktop(tmp_path)
    odd = tmp_path / "a folder with spaces $HOME 100% \"quoted\""
    odd.mkdir()
    script = odd / "record argv.py"
    out = tmp_path / "argv.txt"
    script.write_text("import sys, json\n"
                      f"open({str(out)!r}, 'w').write(json.dumps(sys.argv[1:]))\n",
                      encoding="utf-8")
    argv = (sys.executable, str(script), "--reverify", "it's `odd` \\ too")
    shortcut = Shortcut(REVERIFY_NAME, "comment", argv, working_dir=odd)
    applications, desktop = linux_places({}, home)
    assert applications == home / ".local" / "share" / "applications"
    assert desktop == home / "Schreibtisch"  # named by user-dirs.dirs, not ~/Desktop

    result = create_linux(shortcut, applications, desktop)

    assert result.ok and len(result.created) == 2
    menu_entry, desktop_entry_file = result.created
    assert menu_entry.parent == applications and desktop_entry_file.parent == desktop
    assert stat.S_IMODE(desktop_entry_file.stat().st_mode) == 0o755  # launchable from there
    assert "Name=Re-verify GPU kernels" in menu_entry.read_text(encoding="utf-8")
    subprocess.run(["gio", "launch", str(menu_entry)], check=True, timeout=30,
                   env=dict(os.environ, HOME=str(home)))
    deadline = time.monotonic() + 20
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    import json

    assert json.loads(out.read_text(encoding="utf-8")) == list(argv[2:])
    assert result.messages[0].startswith("Added “Re-verify GPU kernels” to the applications menu")


def test_without_a_desktop_folder_the_menu_entry_is_made_and_that_is_said(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    result = create_shortcuts(reverify_shortcut(),
                              environ={"XDG_DATA_HOME": str(tmp_path / "d")}, home=home)
    assert [p.parent for p in result.created] == [tmp_path / "d" / "applications"]
    assert result.ok
    assert "There is no desktop folder here" in result.messages[1]
    assert not (home / "Desktop").exists()  # none is created on a machine without one


def test_an_unwritable_menu_folder_is_a_plain_sentence_and_leaves_no_part_file(
    tmp_path: Path,
) -> None:
    home = home_with_desktop(tmp_path, "Desktop")
    data = tmp_path / "data"
    data.mkdir()
    (data / "applications").write_text("a file where the folder should be")
    result = create_shortcuts(reverify_shortcut(), environ={"XDG_DATA_HOME": str(data)},
                              home=home)
    assert not result.ok
    folder = data / "applications"
    assert result.problems[0].startswith(f"The shortcut could not be saved in {folder}")
    assert [p.parent for p in result.created] == [home / "Desktop"]  # the other place still
    assert not list((home / "Desktop").glob(".*part"))


def test_user_dirs_file_is_read_like_xdg_user_dir(tmp_path: Path) -> None:
    home = Path("/home/jo")
    dirs = parse_user_dirs('XDG_DESKTOP_DIR="$HOME/Bureau"\nXDG_MUSIC_DIR="/srv/music"\n'
                           '# comment\nXDG_TEMPLATES_DIR="$HOME/"\n', home)
    assert dirs == {"DESKTOP": home / "Bureau", "MUSIC": Path("/srv/music"), "TEMPLATES": home}


def test_the_shortcut_opens_the_wizard_at_the_reverification(tmp_path: Path) -> None:
    frozen, folder = wizard_argv(frozen=True, executable=tmp_path / "kernel-setup-wizard")
    assert frozen == [str(tmp_path / "kernel-setup-wizard"), "--reverify"]
    assert folder == tmp_path
    source, root = wizard_argv(frozen=False, executable=Path(sys.executable))
    assert source[1:] == ["-m", "app", "--reverify"]
    assert root is not None and (root / "app" / "__main__.py").is_file()
    entry = desktop_entry(reverify_shortcut())
    assert "Exec=" in entry and "--reverify" in entry and "Terminal=false" in entry


# -- Windows (recorded) -----------------------------------------------------------------------


def test_windows_shortcut_call_passes_every_value_outside_the_script() -> None:
    shortcut = Shortcut(REVERIFY_NAME, "comment",
                        (r"C:\Users\José M\kernel-setup-wizard\kernel-setup-wizard.exe",
                         "--reverify", "two words"),
                        Path(r"C:\Users\José M\kernel-setup-wizard"))
    argv, variables = windows_command(shortcut)
    assert argv[:6] == ["powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy",
                        "Bypass", "-EncodedCommand"]
    assert base64.b64decode(argv[6]).decode("utf-16-le") == WINDOWS_SCRIPT
    assert variables["KSW_LNK_TARGET"] == shortcut.argv[0]
    assert variables["KSW_LNK_ARGS"] == '--reverify "two words"'
    assert variables["KSW_LNK_PLACES"] == "Programs;Desktop"
    assert "José" not in WINDOWS_SCRIPT and "$env:KSW_LNK_TARGET" in WINDOWS_SCRIPT


def test_windows_both_shortcuts_saved_onedrive_desktop() -> None:
    result = parse_windows_output(ProgramOutput(0, recorded("lnk-saved-onedrive-desktop.txt")))
    assert result.ok
    assert [PureWindowsPath(p).name for p in result.created] == ["Re-verify GPU kernels.lnk"] * 2
    assert "José M" in str(result.created[1]) and "OneDrive" in str(result.created[1])
    assert result.messages[1].startswith("Put “Re-verify GPU kernels” on the desktop")


def test_windows_desktop_refused_is_said_and_the_start_menu_one_kept() -> None:
    result = parse_windows_output(ProgramOutput(0, recorded("lnk-desktop-save-failed.txt")))
    assert len(result.created) == 1 and not result.ok
    assert result.problems == ('Windows could not save the shortcut to the desktop: Exception '
                               'calling "Save" with "0" argument(s): "Unable to save shortcut '
                               '"D:\\Desktop\\Re-verify GPU kernels.lnk".".',)


def test_windows_script_host_missing_is_one_plain_sentence() -> None:
    output = ProgramOutput(1, b"", recorded("lnk-wscript-not-registered.stderr.txt"))
    result = parse_windows_output(output)
    assert result.created == ()
    assert result.problems[0].startswith("Windows could not make the shortcut (PowerShell exit "
                                         "code 1): New-Object : Retrieving the COM class factory")


def test_windows_without_powershell() -> None:
    def missing(argv: list[str], **_kw: object) -> ProgramOutput:
        raise ProcessStartError("powershell.exe was not found.", command=tuple(argv),
                                not_found=True)

    result = create_windows(reverify_shortcut(), run=missing)
    assert result.problems == ("Windows PowerShell could not be started, so no shortcut was "
                               "made (powershell.exe was not found.).",)
