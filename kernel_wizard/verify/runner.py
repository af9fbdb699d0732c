"""Running the harness: ``resources/verify/verify_kernel.py`` with the target interpreter,
through the one process runner (:mod:`kernel_wizard.base.processes`); its report read back into a
:class:`~kernel_wizard.verify.report.VerifyReport`, or a report that says why there is none.
:func:`run_verifications`: several kernels of one Python in one harness process, falling back
to one process each for those it gave no report."""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kernel_wizard.base.errors import Cancelled, ProcessStartError, ProcessTimeout
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.processes import EnvChange, EnvMode, exit_text, stream
from kernel_wizard.base.resources import extra_adapter_folders, resource_path
from kernel_wizard.catalog import load_catalog
from kernel_wizard.verify.protocol import (
    ADAPTER_LINE,
    ADAPTER_PATH_OPTION,
    BEGIN,
    CASE_LINE,
    END,
    STOP_LINE,
    adapter_names,
    result_prefix,
)
from kernel_wizard.verify.report import ErrorKind, VerifyError, VerifyReport, VerifyStatus

DEVICES = ("auto", "cpu", "cuda")
# the file lock that lets one verification at a time use the GPU (resources/verify/harness_gate.py)
GPU_GATE_ENV = "KSW_VERIFY_GPU_GATE"
DEFAULT_TIMEOUT_S = 1200.0  # importing torch cold + a full GPU run with timings
LOG_TAIL_LINES = 60


def harness_path() -> Path:
    return resource_path("verify", "verify_kernel.py")


def _adapter_path_args() -> list[str]:
    """The harness's options for the adapters of ``KSW_EXTRA_KERNELS``' folders."""
    return [arg for folder in extra_adapter_folders()
            for arg in (ADAPTER_PATH_OPTION, str(folder))]


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
    return command + _adapter_path_args()


def harness_env_changes(extra_pythonpath: Iterable[Path | str],
                        path_prepend: Sequence[Path | str] = (),
                        gpu_gate: Path | None = None) -> list[EnvChange]:
    """What the harness's environment adds: UTF-8 and unbuffered output, the staged wheel's
    folder first on ``PYTHONPATH`` and ``path_prepend`` first on ``PATH`` (e.g. CUDA 13's
    ``bin\\x64`` with its runtime DLLs, :func:`kernel_wizard.machine.toolkits.cuda_bin_dirs`).
    (``PYTHONHOME`` is removed: a frozen wizard's own setting must not leak into the target.)"""
    changes = [
        EnvChange("PYTHONIOENCODING", "utf-8"),
        EnvChange("PYTHONUNBUFFERED", "1"),
    ]
    if gpu_gate is not None:
        changes.append(EnvChange(GPU_GATE_ENV, str(gpu_gate),
                                 why="one verification's GPU work at a time"))
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
    gpu_gate: Path | None = None,
) -> VerifyReport:
    """Verify ``adapter``'s kernel in the environment of ``python``; see the module docstring.

    ``on_line`` receives each output line of the harness (progress lines start with
    ``[ksw-verify]``) as it comes, on the calling thread; the JSON report itself is not
    passed. Raises :class:`~kernel_wizard.base.errors.Cancelled` when ``cancel`` is set (the
    harness and everything it started are stopped).
    """
    _check_choices((adapter,), device)
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
        return _failure_report(adapter, python, extra, kind, reason, started=started,
                               options={"device": device, "quick": quick, "seed": seed},
                               detail=detail, lines=lines, exit_code=exit_code, status=status)

    with tempfile.TemporaryDirectory(prefix="ksw-verify-") as tmp:
        out = Path(tmp) / "report.json"
        command = harness_command(python, adapter, out, device=device, quick=quick, seed=seed)
        lines: list[str] = []
        try:
            result = stream(command, _Reader(lines, on_line), cwd=Path(tmp),
                            env_changes=harness_env_changes(extra, path_prepend, gpu_gate),
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


def _check_choices(adapters: Iterable[str], device: str) -> None:
    known = adapter_names()
    for adapter in adapters:
        if adapter not in known:
            raise VerifyError(
                f"Unknown verification adapter {adapter!r}.",
                hint=f"Use one of: {', '.join(known)}.",
            )
    if device not in DEVICES:
        raise VerifyError(
            f"Unknown device {device!r} for the verification.",
            hint=f"Use one of: {', '.join(DEVICES)}.",
        )


def _failure_report(
    adapter: str,
    python: Path | str,
    extra: tuple[str, ...],
    kind: ErrorKind,
    reason: str,
    *,
    started: float,
    options: dict[str, Any],
    detail: str = "",
    lines: Sequence[str] = (),
    exit_code: int | None = None,
    status: VerifyStatus = VerifyStatus.ERROR,
) -> VerifyReport:
    """The report of a verification that ended without the harness's own report."""
    return VerifyReport(
        adapter=adapter,
        status=status,
        reasons=(reason,),
        error_kind=kind,
        options=options,
        seconds=round(time.perf_counter() - started, 3),
        python=str(python),
        extra_pythonpath=extra,
        exit_code=exit_code,
        log_tail=tuple(_visible(lines)[-LOG_TAIL_LINES:]),
        detail=detail,
    )


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
        match = CASE_LINE.match(line)
        if match:
            current = match.group("name")
        elif current and line.startswith(result_prefix(current)):
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
# Several kernels of one environment in one process
# ----------------------------------------------------------------------------------------------

def alone_adapters() -> frozenset[str]:
    """The adapters verified in a process of their own even beside other kernels: those of
    the recipes that say ``verify_alone = true`` (DeepEP, whose check starts one process per
    GPU itself)."""
    return frozenset(r.verify_adapter for r in load_catalog() if r.verify_alone)




def shared_harness_command(
    python: Path | str,
    adapters: Sequence[str],
    out_dir: Path,
    *,
    device: str = "auto",
    quick: bool = False,
    seed: int = 0,
) -> list[str]:
    """The harness verifying the kernels of all ``adapters`` in one process, one report each
    in ``out_dir`` (``<adapter>.json``)."""
    command = [str(python), "-u", str(harness_path())]
    for adapter in adapters:
        command += ["--adapter", adapter]
    command += ["--out-dir", str(out_dir), "--device", device, "--seed", str(seed)]
    if quick:
        command.append("--quick")
    return command + _adapter_path_args()


def run_verifications(
    python: Path,
    adapters: Sequence[str],
    *,
    device: str = "auto",
    extra_pythonpath: Sequence[Path] = (),
    timeout: float = DEFAULT_TIMEOUT_S,
    cancel: threading.Event | None = None,
    on_line: Callable[[str], None] | None = None,
    quick: bool = False,
    seed: int = 0,
    path_prepend: Sequence[Path] = (),
) -> list[VerifyReport]:
    """Verify the kernels of several ``adapters`` in the environment of ``python``: one report
    per adapter, in their order, each what :func:`run_verification` gives for it alone.

    Those not in :func:`alone_adapters` run in one harness process: one torch import and CUDA
    start for all of them, each kernel still allowed ``timeout`` seconds. Where that process ends
    without the report of some (a kernel crashed it, the GPU stopped working), each of those
    is verified in a process of its own, its report notes why, and a line to ``on_line`` says
    so. A kernel that ran past its time there gets the timeout's report at once (alone it
    would only wait as long again); the kernels after it are verified alone. Those in
    :func:`alone_adapters` (DeepEP) are verified meanwhile, beside that process, not after it:
    one kernel's GPU work at a time through a file lock (``resources/verify/harness_gate.py``),
    their start-ups overlapping; ``on_line`` is then called from two threads, one at a time.
    Raises :class:`~kernel_wizard.base.errors.Cancelled` when ``cancel`` is set.
    """
    names = list(dict.fromkeys(adapters))
    _check_choices(names, device)
    alone = alone_adapters()
    shared = [name for name in names if name not in alone]
    apart = [name for name in names if name in alone]
    settings = _Settings(device, tuple(extra_pythonpath), timeout, cancel, on_line, quick, seed,
                         tuple(path_prepend), None)
    if not shared or not apart:
        alone_or_shared = dict(zip(names, _verify_group(python, names, shared, settings),
                                   strict=True))
        return [alone_or_shared[name] for name in adapters]
    # both kinds: the kernels that need processes of their own (DeepEP) are verified beside the
    # shared process, not after it. Their start-up (importing torch, worker processes) overlaps;
    # their GPU work takes turns through the gate (resources/verify/harness_gate.py), so that no
    # timing measures another kernel's work too.
    stop = _EitherEvent(cancel)
    say = _serialized(on_line)
    results: dict[str, list[VerifyReport]] = {}
    failures: list[BaseException] = []

    def group(key: str, members: list[str], together: list[str], limit: float) -> None:
        try:
            results[key] = _verify_group(python, members, together, replace(
                settings, timeout=limit, cancel=stop, on_line=say, gpu_gate=gate))
        except BaseException as exc:  # re-raised on the calling thread
            failures.append(exc)
            stop.set()

    with tempfile.TemporaryDirectory(prefix="ksw-gpu-gate-") as folder:
        gate = Path(folder) / "gpu.lock"
        # the GPU may first be the shared process's: the others' time waiting for their turn
        # must not count against them
        beside = threading.Thread(target=group, name="verify-apart", daemon=True,
                                  args=("apart", apart, [], timeout * (len(shared) + 1)))
        beside.start()
        group("shared", shared, shared, timeout)
        beside.join()
    if failures:
        raise failures[0]
    found = dict(zip(shared, results["shared"], strict=True))
    found.update(zip(apart, results["apart"], strict=True))
    return [found[name] for name in adapters]


@dataclass(frozen=True)
class _Settings:
    """What every harness run of one :func:`run_verifications` call is given (see there)."""

    device: str
    extra_pythonpath: tuple[Path, ...]
    timeout: float
    cancel: threading.Event | None
    on_line: Callable[[str], None] | None
    quick: bool
    seed: int
    path_prepend: tuple[Path, ...]
    gpu_gate: Path | None


def _verify_group(python: Path, names: Sequence[str], shared: Sequence[str],
                  settings: _Settings) -> list[VerifyReport]:
    """The reports of ``names`` in their order: those of ``shared`` (when more than one) in
    one process, each of the others (and any the shared process left without a report) in a
    process of its own, one after the other."""
    shared = list(shared)
    reports: dict[str, VerifyReport] = {}
    notes: dict[str, str] = {}
    if len(shared) > 1:
        found, what = _run_shared(python, shared, settings)
        reports.update(found)
        missing = [name for name in shared if name not in reports]
        if missing:
            kernels = ", ".join(shared)
            note = msg("Verified in a process of its own: the verification of {kernels} in one "
                       "process {what}.", kernels=kernels, what=what)
            notes.update(dict.fromkeys(missing, note))
            _say(settings.on_line, msg(
                "The verification of {kernels} in one process {what}: verifying {missing} each "
                "in a process of its own.", kernels=kernels, what=what,
                missing=", ".join(missing)))
    for name in names:
        if name not in reports:
            report = run_verification(
                python, name, device=settings.device,
                extra_pythonpath=settings.extra_pythonpath, timeout=settings.timeout,
                cancel=settings.cancel, on_line=settings.on_line, quick=settings.quick,
                seed=settings.seed, path_prepend=settings.path_prepend,
                gpu_gate=settings.gpu_gate)
            if name in notes:
                report = replace(report, notes=(*report.notes, notes[name]))
            reports[name] = report
    return [reports[name] for name in names]


class _EitherEvent(threading.Event):
    """Set when set itself or when ``parent`` is: one group's failure stops the other."""

    def __init__(self, parent: threading.Event | None) -> None:
        super().__init__()
        self.parent = parent

    def is_set(self) -> bool:
        return super().is_set() or (self.parent is not None and self.parent.is_set())


def _serialized(on_line: Callable[[str], None] | None) -> Callable[[str], None] | None:
    """``on_line`` called by one thread at a time (two groups stream their lines at once)."""
    if on_line is None:
        return None
    lock = threading.Lock()

    def say(line: str) -> None:
        with lock:
            on_line(line)
    return say


def _say(on_line: Callable[[str], None] | None, line: str) -> None:
    if on_line is not None:
        try:
            on_line(line)
        except Exception:  # a broken callback must not stop the verification
            pass


class _KernelClock(threading.Event):
    """The cancel that the process runner watches for the shared harness: set when the
    caller's ``cancel`` is, or when the kernel being verified has had ``timeout`` seconds
    (the first one's time counts from the start, importing torch included, as alone)."""

    def __init__(self, cancel: threading.Event | None, timeout: float, first: str) -> None:
        super().__init__()
        self.cancel = cancel
        self.timeout = timeout
        self.current = first
        self.since = time.monotonic()
        self.timed_out: str | None = None

    def start(self, adapter: str) -> None:
        self.current, self.since = adapter, time.monotonic()

    def is_set(self) -> bool:
        if self.cancel is not None and self.cancel.is_set():
            return True
        if self.timed_out is None and time.monotonic() - self.since > self.timeout:
            self.timed_out = self.current
        return self.timed_out is not None


def _segments(lines: Sequence[str], adapters: Sequence[str]) -> dict[str, list[str]]:
    """Each kernel's output lines (from its 'verifying adapter' line to the next one), after
    the lines the process wrote before the first (its start: importing torch)."""
    start: list[str] = []
    segments: dict[str, list[str]] = {}
    current: list[str] = start
    for line in lines:
        match = ADAPTER_LINE.match(line)
        if match and match.group("name") in adapters:
            current = segments.setdefault(match.group("name"), list(start))
        current.append(line)
    return segments


def _run_shared(python: Path, adapters: Sequence[str],
                settings: _Settings) -> tuple[dict[str, VerifyReport], str]:
    """The reports of the shared harness (by adapter), and, for when some are missing, what
    happened to it (a phrase: "ended (killed by signal SIGSEGV) during flash_attn's check
    '...'")."""
    device, timeout, cancel, quick, seed = (settings.device, settings.timeout, settings.cancel,
                                            settings.quick, settings.seed)
    extra_pythonpath, path_prepend = settings.extra_pythonpath, settings.path_prepend
    on_line, gpu_gate = settings.on_line, settings.gpu_gate
    started = time.perf_counter()
    extra = tuple(str(Path(p).absolute()) for p in extra_pythonpath)
    options = {"device": device, "quick": quick, "seed": seed, "shared_process": list(adapters)}
    clock = _KernelClock(cancel, timeout, adapters[0])
    reader = _Reader([], on_line)

    def on_lines(batch: list[str]) -> None:
        for line in batch:
            match = ADAPTER_LINE.match(line)
            if match:
                clock.start(match.group("name"))
        reader(batch)

    reports: dict[str, VerifyReport] = {}
    with tempfile.TemporaryDirectory(prefix="ksw-verify-") as tmp:
        out_dir = Path(tmp) / "reports"
        command = shared_harness_command(python, adapters, out_dir, device=device, quick=quick,
                                         seed=seed)
        exit_code: int | None = None
        try:
            result = stream(command, on_lines, cwd=Path(tmp),
                            env_changes=harness_env_changes(extra, path_prepend, gpu_gate),
                            unset=("PYTHONHOME",), cancel=clock,
                            timeout_s=timeout * len(adapters) + 60)
            exit_code = result.returncode
        except Cancelled as exc:
            if clock.timed_out is None or (cancel is not None and cancel.is_set()):
                raise Cancelled(N_("The verification was cancelled."), why=exc.why,
                                hint=N_("It changes nothing; run it again whenever you like."),
                                leftover_pids=exc.leftover_pids, reason=exc.reason) from None
        except ProcessTimeout:
            clock.timed_out = clock.current
        except ProcessStartError as exc:
            reason = msg("{python} could not be started to run the verification ({why}).",
                         python=str(python), why=exc.why)
            return {name: _failure_report(name, python, extra, ErrorKind.NOT_STARTED, reason,
                                          started=started, options=options, detail=exc.why)
                    for name in adapters}, ""
        lines = reader.lines
        segments = _segments(lines, adapters)
        for name in adapters:
            segment = segments.get(name, [])
            data = _read_report(out_dir / f"{name}.json", segment) if segment else None
            if data is None:
                continue
            try:
                report = VerifyReport.from_json(data)
            except VerifyError:
                continue  # verified again alone, where a bad report is said as such
            reports[name] = _with_runner_facts(report, python, extra, exit_code, segment)
    late = clock.timed_out
    if late is not None:
        seconds = f"{timeout:.0f}"
        if late not in reports:
            segment = segments.get(late, [])
            current = _current_case(segment)
            reports[late] = _failure_report(
                late, python, extra, ErrorKind.TIMEOUT,
                msg("The verification did not finish within {seconds} seconds (it was running "
                    "the check '{check}').", seconds=seconds, check=current) if current else
                msg("The verification did not finish within {seconds} seconds.",
                    seconds=seconds),
                started=started, options=options, lines=segment)
        return reports, msg("was stopped: {kernel} did not finish within {seconds} seconds",
                            kernel=late, seconds=seconds)
    stop = next((m for m in map(STOP_LINE.match, lines) if m), None)
    if stop is not None:
        return reports, msg("stopped after {kernel}: {why}", kernel=stop.group("name"),
                            why=stop.group("why"))
    running = next((name for name in reversed(adapters) if name in segments), adapters[0])
    check = _current_case(segments.get(running, []))
    if check:
        return reports, msg("ended ({exit}) during {kernel}'s check '{check}'",
                            exit=_describe_exit(exit_code), kernel=running, check=check)
    return reports, msg("ended ({exit}) during {kernel}", exit=_describe_exit(exit_code),
                        kernel=running)
