"""The Windows compiler environment a CUDA extension build runs in.

torch's and setuptools' own MSVC discovery picks the *newest* Visual Studio, which CUDA 12.x
rejects when VS 2026 is installed beside VS 2022. The wizard instead runs ``vcvarsall.bat`` of
the toolset the prerequisites chose (``-vcvars_ver=14.44`` when it is not the default), captures
the environment it sets (``cmd /u /c "vcvarsall.bat" x64 ... && set``: UTF-16-LE), and hands the
differences to the build together with ``DISTUTILS_USE_SDK=1`` ("the environment is already set
up: use it as it is") and a short TEMP. Everything but the ``cmd`` run is a pure function of
what Windows printed, tested on any OS with recorded output.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from .errors import WizardError
from .processes import EnvChange
from .toolchain import HostCompilerBounds

# Variables the build must not take from the capture (they describe the capturing cmd.exe).
_SKIP = {"prompt", "promptcommand", "=c:", "=d:", "=exitcode", "cmdcmdline", "errorlevel"}


class CompilerEnvError(WizardError):
    """The Visual Studio build environment could not be set up."""


def parse_set_output(data: bytes | str) -> dict[str, str]:
    """``set``'s ``NAME=value`` lines as a dict (``cmd /u`` prints UTF-16-LE)."""
    if isinstance(data, bytes):
        encoding = "utf-16-le" if data[1:2] == b"\x00" else "utf-8"
        text = data.decode(encoding, errors="replace")
    else:
        text = data
    text = text.lstrip("\ufeff")
    result: dict[str, str] = {}
    for line in text.splitlines():
        if "=" not in line or line.startswith("="):
            continue  # cmd's hidden per-drive variables (=C:=C:\...) and stray output
        name, _, value = line.partition("=")
        result[name] = value
    return result


def env_changes_from_capture(
    captured: Mapping[str, str], base: Mapping[str, str]
) -> list[EnvChange]:
    """What vcvarsall changed or added, as changes to ``base`` (names matched ignoring case,
    as Windows does; the base's spelling is kept so no variable exists twice)."""
    base_names = {name.casefold(): name for name in base}
    changes: list[EnvChange] = []
    for name, value in captured.items():
        key = name.casefold()
        if key in _SKIP:
            continue
        existing = base_names.get(key)
        if existing is not None and base[existing] == value:
            continue
        changes.append(EnvChange(existing or name, value, why="Visual Studio build environment"
                                 if key in ("path", "include", "lib", "libpath") else ""))
    return changes


def vcvars_command(vcvarsall: Path, arch: str = "x64", vcvars_ver: str | None = None) -> str:
    """The command line that prints the environment of ``vcvarsall.bat``.

    A batch file's environment can only be read through ``cmd``: this is the one place where
    a command line is handed to a shell (as setuptools does). It is one string on purpose:
    given a list, Python would escape the inner quotes as ``\\"``, which cmd.exe does not
    understand. ``cmd /c ""path with spaces" x64 && set"``: cmd strips the outer pair."""
    pin = f" -vcvars_ver={vcvars_ver}" if vcvars_ver else ""
    return f'cmd.exe /u /c ""{vcvarsall}" {arch}{pin} && set"'


def windows_build_env(
    capture: Callable[[str], bytes],
    instances: Sequence[object],
    bounds: HostCompilerBounds | None,
    cuda_text: str,
    base: Mapping[str, str],
    temp_dir: Path,
) -> tuple[list[EnvChange], str]:
    """The build's MSVC environment and a note saying which toolset it is and why.

    ``capture`` runs a command and returns its stdout (the platform seam; tests replay a
    recorded capture). ``instances``: the usable Visual Studio instances (prerequisites)."""
    from .prereqs.compat import choose_msvc

    choice = choose_msvc(instances, bounds)  # type: ignore[arg-type]
    if choice is None:
        raise CompilerEnvError(
            f"No Visual Studio C++ toolset that CUDA {cuda_text} accepts is installed.",
            hint="Open the Prerequisites page: it can install Visual Studio 2022 Build Tools "
            "with the C++ workload.",
        )
    if not choice.vcvarsall.is_file():
        raise CompilerEnvError(
            f"{choice.vcvarsall} is missing: the Visual Studio installation looks damaged.",
            hint="Repair Visual Studio Build Tools in the Visual Studio Installer.",
        )
    output = capture(vcvars_command(choice.vcvarsall, "x64", choice.vcvars_ver))
    captured = parse_set_output(output)
    if not any(k.casefold() == "vctoolsversion" for k in captured):
        raise CompilerEnvError(
            "vcvarsall.bat did not set up the C++ build environment.",
            why=(output.decode("utf-16-le", "replace") if isinstance(output, bytes)
                 else str(output))[-500:],
            hint="Repair Visual Studio Build Tools (C++ workload) in the Visual Studio Installer.",
        )
    changes = env_changes_from_capture(captured, base)
    changes.append(EnvChange("DISTUTILS_USE_SDK", "1",
                             why="use this environment as it is (and /Zc:__cplusplus in "
                             "flash-attn ≥ 2.8.1)"))
    temp_dir.mkdir(parents=True, exist_ok=True)
    changes.append(EnvChange("TEMP", str(temp_dir), why="a short TEMP: 260-character paths"))
    changes.append(EnvChange("TMP", str(temp_dir)))
    return changes, choice.explain(cuda_text)
