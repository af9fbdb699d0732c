"""Reading a JSON file that may be damaged, huge, or not a file at all, within bounds.

The wizard's state files (``installs.json``, journals, backup records, reports, build-time
records, locks) and the files it is handed (``--replay`` recordings, other programs' settings)
are read here. A special file (a FIFO read forever or blocks, ``/dev/zero`` never ends), a file
larger than any the wizard writes, bytes that are not UTF-8, text that is not JSON and JSON
nested deeper than the parser's recursion limit all raise :class:`ValueError` with a plain
reason, never hang, never exhaust memory and never raise RecursionError. A missing file raises
:class:`FileNotFoundError` as before, so callers tell "missing" from "damaged".
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

MAX_BYTES = 64 * 1024 * 1024  # no file the wizard writes comes near this


def read_json_file(path: Path | str, max_bytes: int = MAX_BYTES, *,
                   encoding: str = "utf-8") -> Any:
    """The JSON document in ``path``; ValueError (a plain reason) when it cannot be one."""
    data = read_bounded(path, max_bytes)
    return parse_json_bytes(data, encoding=encoding)


def read_bounded(path: Path | str, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (a link is followed), at most ``max_bytes``."""
    try:
        before = os.stat(path)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise ValueError(f"it could not be read: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(before.st_mode):
        raise ValueError("it is not a regular file (a folder, a pipe or a device)")
    if before.st_size > max_bytes:
        raise ValueError(f"it is {before.st_size:,} bytes, more than the {max_bytes:,} a file "
                         "of the wizard's can be")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise ValueError(f"it could not be read: {exc.strerror or exc}") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else meanwhile
            raise ValueError("it is not a regular file (a folder, a pipe or a device)")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise ValueError(f"it is more than the {max_bytes:,} bytes a file of the "
                                 "wizard's can be")
    except OSError as exc:
        raise ValueError(f"it could not be read: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    return b"".join(chunks)


def parse_json_bytes(data: bytes, *, encoding: str = "utf-8") -> Any:
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise ValueError("it is not text") from exc
    return parse_json_text(text)


def parse_json_text(text: str) -> Any:
    """``json.loads`` whose every failure is a ValueError (also nesting past the recursion
    limit, which json raises as RecursionError)."""
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise ValueError("it is not valid JSON: nested too deep") from exc
    except ValueError as exc:
        raise ValueError(f"it is not valid JSON: {exc}") from exc


__all__ = ["MAX_BYTES", "parse_json_bytes", "parse_json_text", "read_bounded", "read_json_file"]
