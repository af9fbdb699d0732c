"""A prebuilt wheel instead of a build: downloaded, checked, and handed on like a built one.

The wheel goes to one stable folder per URL (:func:`kernel_wizard.base.paths.url_cache_dir`), so

* a download that was cut off or cancelled keeps its part there, and the next attempt (the
  Build step again, or the same command) continues it with ``Range`` / ``If-Range``;
* a wheel that was downloaded and checked before is reused, and the outcome says so.

Whatever the source publishes is checked (its SHA-256, its size); what it does not publish is
checked anyway: the size the server announced, and the wheel itself (a readable zip whose name
matches its metadata and whose files match their ``RECORD`` hashes; an error page served as a
file is named as one). The SHA-256 of the checked file and the checks it passed go into the
outcome (:attr:`BuildOutcome.download`), the log, and the verification report (which reads the
download record next to the wheel: :func:`kernel_wizard.base.download.verified_record`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kernel_wizard.base.download import (
    DownloadProgress,
    DownloadResult,
    download,
    resumable_bytes,
    size_text,
    wheel_check,
)
from kernel_wizard.base.errors import Cancelled, WizardError
from kernel_wizard.base.messages import N_, join, msg
from kernel_wizard.base.paths import logs_dir, storage_error, timestamp, url_cache_dir
from kernel_wizard.build.run import (
    BuildEvent,
    BuildOutcome,
    BuildStatus,
    LogLine,
    ProgressEvent,
    Step,
    StepEvent,
    StepState,
    StepTiming,
)
from kernel_wizard.catalog.wheels import WheelCandidate


def fetch_prebuilt(
    candidate: WheelCandidate,
    kernel: str,
    on_event: Callable[[BuildEvent], None],
    cancel: threading.Event,
    **download_options: Any,
) -> BuildOutcome:
    """Download a matching prebuilt wheel (checked, resumable) instead of building one.

    The wheel is then verified and installed exactly like a built one. A failed or cancelled
    download is an outcome with the reason; the environment is untouched."""
    stamp = timestamp()
    dest = url_cache_dir(candidate.url, create=False) / candidate.filename
    log_path = logs_dir() / f"{stamp}-{kernel}-download.log"
    started = time.monotonic()
    on_event(StepEvent(Step.DOWNLOAD, StepState.RUNNING))
    lines = [f"# prebuilt wheel from {candidate.source_name}", f"# {candidate.url}",
             f"# kept in {dest.parent}"]
    earlier = resumable_bytes(dest, candidate.url)
    if earlier:
        lines.append(f"# continuing an earlier download: {size_text(earlier)} are already here")
    for line in lines[1:]:
        on_event(LogLine(line, 0))

    def progress(p: DownloadProgress) -> None:
        total = (p.total or 0) // 1024
        on_event(ProgressEvent(p.received // 1024, total, p.eta_seconds, unit="KiB"))

    status, hint = BuildStatus.SUCCEEDED, ""
    result: DownloadResult | None = None
    try:
        result = download(candidate.url, dest, progress=progress, cancel=cancel,
                          sha256=candidate.sha256, expected_size=candidate.size,
                          check=wheel_check(candidate.filename), **download_options)
    except Cancelled as exc:
        status = BuildStatus.CANCELLED
        kept = resumable_bytes(dest, candidate.url)
        message = N_("The download was cancelled; nothing was installed.")
        if kept:
            hint = msg("{size} of the wheel are kept in {folder}: start the same download again "
                       "and it continues from there.", size=size_text(kept), folder=dest.parent)
        else:
            hint = N_("Nothing was kept; start the download again, or build from source "
                      "instead.")
        lines.append(exc.describe())
    except WizardError as exc:
        status = BuildStatus.FAILED
        message = join([N_("The prebuilt wheel could not be downloaded."), exc.what, exc.why])
        hint = exc.hint or N_("Build from source instead (Kernel page).")
        lines.append(exc.describe())
    else:
        message = _success_message(candidate.filename, result, earlier)
        lines += [message, f"sha256 {result.sha256}",
                  *(f"checked: {line}" for line in result.checks)]
    if result is None:
        with contextlib.suppress(OSError):
            dest.parent.rmdir()  # only when empty: nothing kept, no folder left behind
    seconds = time.monotonic() - started
    state = (StepState.DONE if result is not None
             else StepState.CANCELLED if status is BuildStatus.CANCELLED else StepState.FAILED)
    on_event(StepEvent(Step.DOWNLOAD, state, seconds))
    write_log(log_path, lines, action="write the download log")
    return BuildOutcome(status=status, message=message, hint=hint, plan=None,
                        wheel=result.path if result is not None else None,
                        log_path=log_path, seconds=seconds, attempts=1, exit_code=None,
                        diagnosis=None, steps=(StepTiming(Step.DOWNLOAD, state, seconds),),
                        download=result)


def write_log(log_path: Path, lines: list[str], *, action: str) -> None:
    """The log of a step that got a wheel without building one (a download, the verified
    cache): its lines, one per line; a disk problem in plain words."""
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:
        raise storage_error(exc, path=log_path, action=action) from exc


def _success_message(filename: str, result: DownloadResult, earlier: int) -> str:
    size = size_text(result.size)
    if result.from_cache:
        return msg("Reusing {name} ({size}): it was downloaded and checked before.",
                   name=filename, size=size)
    if result.resumed and earlier:
        return msg("Downloaded {name} ({size}), continuing the earlier download that had "
                   "stopped at {earlier}; checked.", name=filename, size=size,
                   earlier=size_text(earlier))
    if result.resumed:
        return msg("Downloaded {name} ({size}), continuing after the connection dropped; "
                   "checked.", name=filename, size=size)
    return msg("Downloaded {name} ({size}) and checked it.", name=filename, size=size)
