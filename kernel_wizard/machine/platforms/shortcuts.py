"""Shortcuts that start the wizard: "Re-verify GPU kernels" in the start menu and on the desktop.

Someone who double-clicked the wizard once should find the re-verification again after a driver
or PyTorch update without a terminal. On request (a button on the Done page) the wizard puts a
shortcut that opens it straight at the re-verification:

* Linux: a desktop entry (``.desktop``, freedesktop.org) in ``$XDG_DATA_HOME/applications``
  (the menu) and, where the user has one, in the desktop folder named by
  ``~/.config/user-dirs.dirs`` (else ``~/Desktop``).
* Windows: ``.lnk`` files in the Start menu's Programs folder and on the desktop, made by
  WScript.Shell through one PowerShell call (:func:`windows_command` builds it, the values
  travel in environment variables so nothing needs quoting; :func:`parse_windows_output` reads
  what the script printed). Tested with recorded output; only Windows can confirm it.

Nothing here raises for an expected failure: :class:`ShortcutResult` lists what was created and,
in plain sentences, what could not be.
"""

from __future__ import annotations

import base64
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kernel_wizard.base.errors import ProcessError
from kernel_wizard.base.messages import N_, Msg
from kernel_wizard.base.oserrors import write_text_atomic
from kernel_wizard.base.processes import QuoteStyle, quote_arg
from kernel_wizard.machine.platforms import ProgramOutput, current, run_program

REVERIFY_FLAG = "--reverify"
REVERIFY_NAME = "Re-verify GPU kernels"
REVERIFY_COMMENT = ("Check the GPU kernels the Kernel Setup Wizard installed, e.g. after a driver "
                    "or PyTorch update")
FILE_STEM = "kernel-setup-wizard-reverify"

# -- the texts (one place, whole sentences) ------------------------------------------------------

TEXT = {
    "saved_menu": N_("Added “{name}” to the applications menu ({path})."),
    "saved_desktop": N_("Put “{name}” on the desktop ({path})."),
    "no_desktop": N_("There is no desktop folder here, so the shortcut is only in the menu."),
    "write_failed": N_("The shortcut could not be saved in {folder}: {why}."),
    "place_failed": N_("Windows could not save the shortcut to {place}: {why}."),
    "no_powershell": N_("Windows PowerShell could not be started, so no shortcut was made "
                        "({why})."),
    "script_failed": N_("Windows could not make the shortcut (PowerShell exit code {code}): {why}"),
    "no_folder": N_("Windows did not name the folder of {place}, so no shortcut was put there."),
    "nothing": N_("No shortcut was made."),
}
PLACE_WORDS = {"Programs": N_("the Start menu"), "Desktop": N_("the desktop")}


def _say(key: str, **fields: object) -> Msg:
    """TEXT[key] filled in, a sentence the GUI translates (kernel_wizard.base.messages)."""
    return Msg(TEXT[key], fields)


@dataclass(frozen=True)
class Shortcut:
    """What a shortcut starts: ``argv`` (program and arguments) in ``working_dir``."""

    name: str
    comment: str
    argv: tuple[str, ...]
    working_dir: Path | None = None
    icon: Path | None = None
    file_stem: str = FILE_STEM


@dataclass(frozen=True)
class ShortcutResult:
    created: tuple[Path, ...] = ()
    messages: tuple[str, ...] = ()  # one sentence per place: saved where, or why not
    problems: tuple[str, ...] = ()  # the sentences about what failed

    @property
    def ok(self) -> bool:
        return bool(self.created) and not self.problems


def wizard_argv(flag: str = REVERIFY_FLAG, frozen: bool | None = None,
                executable: Path | None = None) -> tuple[list[str], Path | None]:
    """The command that opens the wizard with ``flag``, and the folder to start it in.

    The bundled program: ``<wizard> --reverify``. From source: ``python -m app --reverify``
    (``pythonw.exe`` where it exists: no console window) started in the folder that holds the
    ``app`` package."""
    is_frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    exe = Path(executable if executable is not None else sys.executable)
    if is_frozen:
        return [str(exe), flag], exe.parent
    windowless = exe.with_name("pythonw.exe")
    if exe.name.lower() == "python.exe" and windowless.is_file():
        exe = windowless
    source_root = Path(__file__).resolve().parents[3]
    return [str(exe), "-m", "app", flag], source_root


def reverify_shortcut(icon: Path | None = None) -> Shortcut:
    argv, folder = wizard_argv()
    return Shortcut(REVERIFY_NAME, REVERIFY_COMMENT, tuple(argv), folder, icon)


# -- Linux: desktop entries ----------------------------------------------------------------------

_EXEC_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def _exec_arg(arg: str) -> str:
    """One argument of an Exec key (the Desktop Entry Specification's quoting rules): quoted
    when it has a reserved character, with ", `, $ and \\ escaped inside; % doubled."""
    arg = arg.replace("%", "%%")
    if arg and not (set(arg) & _EXEC_RESERVED):
        return arg
    inner = "".join("\\" + c if c in '"`$\\' else c for c in arg)
    return f'"{inner}"'


def _string_value(text: str) -> str:
    """The escapes of a string value (applied after the Exec quoting)."""
    return (text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
            .replace("\r", "\\r"))


def desktop_entry(shortcut: Shortcut) -> str:
    """The ``.desktop`` file of ``shortcut``."""
    exec_line = " ".join(_exec_arg(a) for a in shortcut.argv)
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.0",
        f"Name={_string_value(shortcut.name)}",
        f"Comment={_string_value(shortcut.comment)}",
        f"Exec={_string_value(exec_line)}",
        "Terminal=false",
        "Categories=Development;Utility;",
    ]
    if shortcut.working_dir is not None:
        lines.append(f"Path={_string_value(str(shortcut.working_dir))}")
    if shortcut.icon is not None:
        lines.append(f"Icon={_string_value(str(shortcut.icon))}")
    return "\n".join(lines) + "\n"


def parse_user_dirs(text: str, home: Path) -> dict[str, Path]:
    """``~/.config/user-dirs.dirs`` (``XDG_DESKTOP_DIR="$HOME/Desktop"``) → {"DESKTOP": path}."""
    found: dict[str, Path] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip()
        if not (key.startswith("XDG_") and key.endswith("_DIR")):
            continue
        value = value.strip().strip('"')
        if value.startswith("$HOME"):
            path = home / value[len("$HOME"):].lstrip("/")
        elif value.startswith("/"):
            path = Path(value)
        else:
            continue
        found[key[len("XDG_"):-len("_DIR")]] = path
    return found


def linux_places(environ: Mapping[str, str], home: Path) -> tuple[Path, Path | None]:
    """(the applications folder of the menu, the desktop folder or None when there is none)."""
    data_home = environ.get("XDG_DATA_HOME") or str(home / ".local" / "share")
    applications = Path(data_home) / "applications"
    config = Path(environ.get("XDG_CONFIG_HOME") or str(home / ".config"))
    desktop: Path | None = None
    try:
        dirs = parse_user_dirs((config / "user-dirs.dirs").read_text(encoding="utf-8",
                                                                     errors="replace"), home)
        desktop = dirs.get("DESKTOP")
    except OSError:
        pass
    if desktop is None:
        desktop = home / "Desktop"
    if desktop == home or not desktop.is_dir():  # "$HOME/" means: no desktop folder
        desktop = None
    return applications, desktop


def _write(path: Path, text: str, mode: int) -> None:
    """Write ``text`` to ``path`` atomically (a half-written shortcut is never left)."""
    write_text_atomic(path, text, mode=mode)


def create_linux(shortcut: Shortcut, applications: Path, desktop: Path | None,
                 menu: bool = True, on_desktop: bool = True) -> ShortcutResult:
    text = desktop_entry(shortcut)
    created: list[Path] = []
    messages: list[str] = []
    problems: list[str] = []
    targets: list[tuple[Path, int, str]] = []
    if menu:
        targets.append((applications, 0o644, "saved_menu"))
    if on_desktop and desktop is not None:
        targets.append((desktop, 0o755, "saved_desktop"))  # launchable from the desktop
    for folder, mode, saved in targets:
        path = folder / f"{shortcut.file_stem}.desktop"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            _write(path, text, mode)
        except OSError as exc:
            problem = _say("write_failed", folder=folder, why=exc.strerror or exc)
            problems.append(problem)
            messages.append(problem)
            continue
        created.append(path)
        messages.append(_say(saved, name=shortcut.name, path=path))
    if on_desktop and desktop is None:
        messages.append(_say("no_desktop"))
    return ShortcutResult(tuple(created), tuple(messages), tuple(problems))


# -- Windows: .lnk files through WScript.Shell ---------------------------------------------------

WINDOWS_SCRIPT = r"""
$ErrorActionPreference = 'Stop'
[Console]::OutputEncoding = [System.Text.Encoding]::UTF8
$shell = New-Object -ComObject WScript.Shell
foreach ($place in $env:KSW_LNK_PLACES.Split(';')) {
  $folder = [Environment]::GetFolderPath($place)
  if (-not $folder) { Write-Output "KSW-NOFOLDER`t$place"; continue }
  $path = Join-Path $folder ($env:KSW_LNK_NAME + '.lnk')
  try {
    $link = $shell.CreateShortcut($path)
    $link.TargetPath = $env:KSW_LNK_TARGET
    $link.Arguments = $env:KSW_LNK_ARGS
    $link.WorkingDirectory = $env:KSW_LNK_DIR
    if ($env:KSW_LNK_ICON) { $link.IconLocation = $env:KSW_LNK_ICON }
    $link.Description = $env:KSW_LNK_COMMENT
    $link.Save()
    Write-Output "KSW-SAVED`t$place`t$path"
  } catch {
    Write-Output ("KSW-FAILED`t$place`t" + $_.Exception.Message)
  }
}
""".strip()


def windows_command(shortcut: Shortcut, places: Sequence[str] = ("Programs", "Desktop"),
                    ) -> tuple[list[str], dict[str, str]]:
    """The PowerShell call that makes the shortcuts, and the variables it reads. ``places``:
    .NET special folders ("Programs": the Start menu's, "Desktop")."""
    program, *arguments = shortcut.argv
    encoded = base64.b64encode(WINDOWS_SCRIPT.encode("utf-16-le")).decode("ascii")
    argv = ["powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
            "-EncodedCommand", encoded]
    variables = {
        "KSW_LNK_PLACES": ";".join(places),
        "KSW_LNK_NAME": shortcut.name,
        "KSW_LNK_TARGET": program,
        "KSW_LNK_ARGS": " ".join(quote_arg(a, QuoteStyle.WINDOWS) for a in arguments),
        "KSW_LNK_DIR": str(shortcut.working_dir or ""),
        "KSW_LNK_ICON": str(shortcut.icon or ""),
        "KSW_LNK_COMMENT": shortcut.comment,
    }
    return argv, variables


def parse_windows_output(output: ProgramOutput, name: str = REVERIFY_NAME) -> ShortcutResult:
    """What the script printed: ``KSW-SAVED<TAB>place<TAB>path`` per shortcut made,
    ``KSW-FAILED<TAB>place<TAB>message`` or ``KSW-NOFOLDER<TAB>place`` per one that was not."""
    text = output.stdout.decode("utf-8", errors="replace")
    created: list[Path] = []
    messages: list[str] = []
    problems: list[str] = []
    for raw in text.splitlines():
        parts = raw.strip().lstrip("\ufeff").split("\t")
        kind, place = parts[0], (parts[1] if len(parts) > 1 else "")
        where = PLACE_WORDS.get(place, place)
        if kind == "KSW-SAVED" and len(parts) >= 3:
            path = Path(parts[2])
            created.append(path)
            key = "saved_desktop" if place == "Desktop" else "saved_menu"
            messages.append(_say(key, name=name, path=path))
        elif kind == "KSW-FAILED":
            why = parts[2].strip() if len(parts) > 2 else "no message"
            problem = _say("place_failed", place=where, why=why)
            problems.append(problem)
            messages.append(problem)
        elif kind == "KSW-NOFOLDER":
            problem = _say("no_folder", place=where)
            problems.append(problem)
            messages.append(problem)
    if output.returncode != 0 and not created:
        said = output.stderr.decode("utf-8", errors="replace").strip().splitlines()
        problem = _say("script_failed", code=output.returncode,
                                               why=said[0] if said else "no message")
        problems.append(problem)
        messages.append(problem)
    if not created and not problems:
        problems.append(_say("nothing"))
        messages.append(_say("nothing"))
    return ShortcutResult(tuple(created), tuple(messages), tuple(problems))


Runner = Callable[..., ProgramOutput]


def create_windows(shortcut: Shortcut, places: Sequence[str] = ("Programs", "Desktop"),
                   run: Runner = run_program) -> ShortcutResult:
    argv, variables = windows_command(shortcut, places)
    env = dict(os.environ)
    env.update(variables)
    try:
        output = run(argv, env=env, timeout=60.0)
    except ProcessError as exc:
        problem = _say("no_powershell", why=exc.what)
        return ShortcutResult((), (problem,), (problem,))
    return parse_windows_output(output, shortcut.name)


# -- this machine ------------------------------------------------------------------------------


def create_shortcuts(shortcut: Shortcut, *, menu: bool = True, desktop: bool = True,
                     environ: Mapping[str, str] | None = None,
                     home: Path | None = None) -> ShortcutResult:
    """Make ``shortcut`` in the menu and/or on the desktop of this machine."""
    if current().name == "windows":
        places = [p for p, wanted in (("Programs", menu), ("Desktop", desktop)) if wanted]
        return create_windows(shortcut, places)
    applications, desktop_dir = linux_places(environ if environ is not None else os.environ,
                                             home if home is not None else Path.home())
    return create_linux(shortcut, applications, desktop_dir, menu, desktop)


__all__ = [
    "REVERIFY_FLAG",
    "REVERIFY_NAME",
    "Shortcut",
    "ShortcutResult",
    "create_linux",
    "create_shortcuts",
    "create_windows",
    "desktop_entry",
    "linux_places",
    "parse_user_dirs",
    "parse_windows_output",
    "reverify_shortcut",
    "windows_command",
    "wizard_argv",
]
