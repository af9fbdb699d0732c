"""Running the harness: ``resources/verify/verify_kernel.py`` with the target interpreter,
through the one process runner (:mod:`build_backend.processes`); its report read back into a
:class:`~build_backend.verify.report.VerifyReport`, or a report that says why there is none."""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import Cancelled, ProcessStartError, ProcessTimeout
from ..processes import EnvChange, EnvMode, exit_text, stream
from ..resources import resource_path
from ..words import N_, msg
from .report import ErrorKind, VerifyError, VerifyReport, VerifyStatus

BEGIN = "@@KSW-VERIFY-BEGIN@@"
END = "@@KSW-VERIFY-END@@"
PROGRESS_PREFIX = "[ksw-verify] "
ADAPTERS = ("probe", "flash_attn", "flash_attn_3", "flashmla", "deepep", "sageattention",
            "sageattention3")
DEVICES = ("auto", "cpu", "cuda")
DEFAULT_TIMEOUT_S = 1200.0  # importing torch cold + a full GPU run with timings
LOG_TAIL_LINES = 60

_CASE_LINE = re.compile(r"^\[ksw-verify\] case \d+/\d+: (?P<name>.+)$")


def harness_path() -> Path:
    return resource_path("verify", "verify_kernel.py")


def harness_command(
    python: Path | str,
    adapter: str,
    out: Path,
    *,
    device: str = "auto",
    quick: bool = False,
    seed: int = 0,
) -> list[str]:
    command = [
        str(python),
        "-u",
        str(harness_path()),
        "--adapter",
        adapter,
        "--out",
        str(out),
        "--device",
        device,
        "--seed",
        str(seed),
    ]
    if quick:
        command.append("--quick")
    return command


def harness_env_changes(extra_pythonpath: Iterable[Path | str],
                        path_prepend: Sequence[Path | str] = ()) -> list[EnvChange]:
    """What the harness's environment adds: UTF-8 and unbuffered output, the staged wheel's
    folder first on ``PYTHONPATH`` and ``path_prepend`` first on ``PATH`` (e.g. CUDA 13's
    ``bin\\x64`` with its runtime DLLs, :func:`build_backend.toolkits.cuda_bin_dirs`).
    (``PYTHONHOME`` is removed: a frozen wizard's own setting must not leak into the target.)"""
    changes = [
        EnvChange("PYTHONIOENCODING", "utf-8"),
        EnvChange("PYTHONUNBUFFERED", "1"),
    ]
    if path_prepend:
        changes.append(EnvChange("PATH", os.pathsep.join(str(p) for p in path_prepend),
                                 EnvMode.PREPEND, why="the CUDA toolkit's runtime libraries"))
    paths = [str(Path(p)) for p in extra_pythonpath]
    if paths:
        changes.append(EnvChange("PYTHONPATH", os.pathsep.join(paths), EnvMode.PREPEND,
                                 why="the staged wheel, tested before it is installed"))
    return changes


def run_verification(
    python: Path,
    adapter: str,
    *,
    device: str = "auto",
    extra_pythonpath: Sequence[Path] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    cancel: threading.Event | None = None,
    on_line: Callable[[str], None] | None = None,
    quick: bool = False,
    seed: int = 0,
    path_prepend: Sequence[Path] = (),
) -> VerifyReport:
    """Verify ``adapter``'s kernel in the environment of ``python``; see the module docstring.

    ``on_line`` receives each output line of the harness (progress lines start with
    ``[ksw-verify]``) as it comes, on the calling thread; the JSON report itself is not
    passed. Raises :class:`~build_backend.errors.Cancelled` when ``cancel`` is set (the
    harness and everything it started are stopped).
    """
    if adapter not in ADAPTERS:
        raise VerifyError(
            f"Unknown verification adapter {adapter!r}.",
            hint=f"Use one of: {', '.join(ADAPTERS)}.",
        )
    if device not in DEVICES:
        raise VerifyError(
            f"Unknown device {device!r} for the verification.",
            hint=f"Use one of: {', '.join(DEVICES)}.",
        )
    started = time.perf_counter()
    # absolute: the harness runs in a temporary working folder
    extra = tuple(str(Path(p).absolute()) for p in extra_pythonpath)

    def failure(
        kind: ErrorKind,
        reason: str,
        *,
        detail: str = "",
        lines: Sequence[str] = (),
        exit_code: int | None = None,
        status: VerifyStatus = VerifyStatus.ERROR,
    ) -> VerifyReport:
        return VerifyReport(
            adapter=adapter,
            status=status,
            reasons=(reason,),
            error_kind=kind,
            options={"device": device, "quick": quick, "seed": seed},
            seconds=round(time.perf_counter() - started, 3),
            python=str(python),
            extra_pythonpath=extra,
            exit_code=exit_code,
            log_tail=tuple(_visible(lines)[-LOG_TAIL_LINES:]),
            detail=detail,
        )

    with tempfile.TemporaryDirectory(prefix="ksw-verify-") as tmp:
        out = Path(tmp) / "report.json"
        command = harness_command(python, adapter, out, device=device, quick=quick, seed=seed)
        lines: list[str] = []
        try:
            result = stream(command, _Reader(lines, on_line), cwd=Path(tmp),
                            env_changes=harness_env_changes(extra, path_prepend),
                            unset=("PYTHONHOME",), cancel=cancel, timeout_s=timeout)
        except Cancelled as exc:
            raise Cancelled(N_("The verification was cancelled."), why=exc.why,
                            hint=N_("It changes nothing; run it again whenever you like."),
                            leftover_pids=exc.leftover_pids, reason=exc.reason) from None
        except ProcessStartError as exc:
            return failure(
                ErrorKind.NOT_STARTED,
                msg("{python} could not be started to run the verification ({why}).",
                    python=str(python), why=exc.why),
                detail=exc.why,
            )
        except ProcessTimeout:
            current = _current_case(lines)
            seconds = f"{timeout:.0f}"
            return failure(
                ErrorKind.TIMEOUT,
                msg("The verification did not finish within {seconds} seconds (it was running "
                    "the check '{check}').", seconds=seconds, check=current) if current else
                msg("The verification did not finish within {seconds} seconds.", seconds=seconds),
                lines=lines,
            )
        exit_code: int | None = result.returncode
        current = _current_case(lines)
        data = _read_report(out, lines)
    if data is None:
        if current:
            reason = msg(
                "The kernel crashed the verification process ({exit}) during the check "
                "'{check}'. A kernel built for another GPU architecture or another PyTorch can "
                "do this: rebuild it.", exit=_describe_exit(exit_code), check=current)
            return failure(
                ErrorKind.CRASHED,
                reason,
                lines=lines,
                exit_code=exit_code,
                status=VerifyStatus.FAIL,
            )
        return failure(
            ErrorKind.CRASHED,
            msg("The verification process ended ({exit}) without a report.",
                exit=_describe_exit(exit_code)),
            detail="\n".join(_visible(lines)[-20:]),
            lines=lines,
            exit_code=exit_code,
        )
    try:
        report = VerifyReport.from_json(data)
    except VerifyError as exc:
        return failure(ErrorKind.BAD_REPORT, exc.describe(), lines=lines, exit_code=exit_code)
    return _with_runner_facts(report, python, extra, exit_code, lines)


def _with_runner_facts(
    report: VerifyReport,
    python: Path | str,
    extra: tuple[str, ...],
    exit_code: int | None,
    lines: Sequence[str],
) -> VerifyReport:
    return replace(
        report,
        python=str(python),
        extra_pythonpath=extra,
        exit_code=exit_code,
        log_tail=tuple(_visible(lines)[-LOG_TAIL_LINES:]),
    )


class _Reader:
    """Collects every line; passes the visible ones (not the JSON report between the
    markers) to ``on_line``. A broken callback is dropped, never allowed to stop the run."""

    def __init__(self, lines: list[str], on_line: Callable[[str], None] | None) -> None:
        self.lines = lines
        self.on_line = on_line
        self.inside_report = False

    def __call__(self, batch: list[str]) -> None:
        self.lines.extend(batch)
        for line in batch:
            if line.strip() == BEGIN:
                self.inside_report = True
                continue
            if self.inside_report:
                if line.strip() == END:
                    self.inside_report = False
                continue
            if self.on_line is not None:
                try:
                    self.on_line(line)
                except Exception:  # a broken callback must not stall the pipe
                    self.on_line = None


def _visible(lines: Sequence[str]) -> list[str]:
    """The output lines without the JSON report between the markers."""
    result: list[str] = []
    inside = False
    for line in lines:
        if line.strip() == BEGIN:
            inside = True
        elif line.strip() == END:
            inside = False
        elif not inside:
            result.append(line)
    return result


def _current_case(lines: Sequence[str]) -> str | None:
    """The check that was started last and has no result line yet, if any."""
    current: str | None = None
    for line in lines:
        match = _CASE_LINE.match(line)
        if match:
            current = match.group("name")
        elif current and line.startswith(f"{PROGRESS_PREFIX}result {current}:"):
            current = None
    return current


def _read_report(out: Path, lines: Sequence[str]) -> dict[str, Any] | None:
    try:
        text = out.read_text(encoding="utf-8")
        data = json.loads(text)
        if isinstance(data, dict):
            return data
    except (OSError, json.JSONDecodeError):
        pass
    joined = "\n".join(lines)
    begin, end = joined.rfind(BEGIN), joined.rfind(END)
    if begin < 0 or end < begin:
        return None
    try:
        data = json.loads(joined[begin + len(BEGIN) : end])
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def _describe_exit(code: int | None) -> str:
    return msg("no exit code") if code is None else exit_text(code)


# ----------------------------------------------------------------------------------------------
# Markdown
# ----------------------------------------------------------------------------------------------

