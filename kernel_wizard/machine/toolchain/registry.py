"""A registry value as ``reg query`` prints it (Windows' long-path switch)."""

from __future__ import annotations

import re

from kernel_wizard.machine.toolchain.base import ToolchainParseError, snippet

LONG_PATHS_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem"
LONG_PATHS_VALUE = "LongPathsEnabled"

# "    LongPathsEnabled    REG_DWORD    0x1": reg.exe separates the columns with four spaces.
_REG_VALUE = re.compile(r"^\s+(?P<name>.+?)\s{4}(?P<type>REG_[A-Z_]+)(?:\s{4}(?P<data>.*?))?\s*$")


def parse_reg_query_dword(text: str, value_name: str) -> int | None:
    """The REG_DWORD ``value_name`` in the output of ``reg query <key> /v <value_name>``.

    None when the output does not list the value (reg.exe then prints "ERROR: The system was
    unable to find the specified registry key or value." on stderr, in the user's language).
    Raises :class:`ToolchainParseError` when the value exists with another type.
    """
    for line in text.splitlines():
        match = _REG_VALUE.match(line)
        if match is None or match.group("name").casefold() != value_name.casefold():
            continue
        data = (match.group("data") or "").strip()
        if match.group("type") != "REG_DWORD":
            raise ToolchainParseError(
                f"The registry value {value_name} is a {match.group('type')}, not a REG_DWORD.",
                why=f"reg query printed {snippet(line)!r}",
                hint=f"Delete the value {value_name} and let the wizard set it again.",
            )
        try:
            return int(data, 16) if data.lower().startswith("0x") else int(data)
        except ValueError:
            raise ToolchainParseError(
                f"reg query printed an unreadable number for {value_name}: {data!r}.",
                hint="Run the wizard again.",
            ) from None
    return None

