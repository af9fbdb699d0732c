"""The harness's output: progress lines, exceptions in one short line, and what a kernel prints
(C and C++ output included) captured while it runs. Run in the *target* interpreter; keep the
syntax compatible with Python 3.9.

The lowest module of the harness after :mod:`harness_protocol`: ``harness_common``,
``harness_timing`` and the adapters use it (``harness_common`` re-exports its names as
``hc.log`` ...), and it imports none of them."""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import tempfile

from harness_protocol import PROGRESS


def log(message):
    """One progress line (see ``harness_protocol``), flushed at once: the wizard shows it."""
    sys.stdout.write(PROGRESS + message + "\n")
    sys.stdout.flush()


def short_exception(exc, limit=600):
    text = f"{type(exc).__name__}: {str(exc).strip()}"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _flush_c_stdio():
    if sys.platform == "win32":
        return
    try:
        ctypes.CDLL(None).fflush(None)
    except Exception:
        pass


@contextlib.contextmanager
def captured_fds(sink):
    """Send file descriptors 1 and 2 to a temporary file while the block runs.

    What was written (by Python, C or C++ code) is appended to ``sink`` (a list) afterwards.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    _flush_c_stdio()
    tmp = tempfile.TemporaryFile()
    saved = (os.dup(1), os.dup(2))
    try:
        os.dup2(tmp.fileno(), 1)
        os.dup2(tmp.fileno(), 2)
        yield
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        _flush_c_stdio()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
        tmp.seek(0)
        sink.append(tmp.read().decode("utf-8", "replace"))
        tmp.close()
