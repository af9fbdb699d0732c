"""Hardware detection: every NVIDIA GPU through NVML, plus the host's cores, RAM and disk.

Failures are states with a plain explanation (:class:`NvmlState`), never exceptions in the
user's face. One GPU that errors on a query is shown with that error; the others still are.

NVML is reached through the small :class:`NvmlApi` protocol: :class:`PynvmlApi` is the real
one; :mod:`kernel_wizard.machine.nvml_record` records a machine's answers and replays them, which is
how the mapping is tested on machines without a GPU.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Protocol, TypeVar

from kernel_wizard.base.errors import ExitCode, WizardError
from kernel_wizard.base.messages import N_, msg

# NVML return codes (nvml.h); pynvml raises NVMLError subclasses carrying them in ``.value``.
NVML_ERROR_NO_PERMISSION = 4
NVML_ERROR_DRIVER_NOT_LOADED = 9
NVML_ERROR_LIBRARY_NOT_FOUND = 12
NVML_ERROR_GPU_IS_LOST = 15
NVML_ERROR_NOT_SUPPORTED = 3

T = TypeVar("T")


class NvmlApi(Protocol):
    """The NVML calls the wizard makes. Errors are raised as ``pynvml.NVMLError``."""

    def init(self) -> None: ...
    def shutdown(self) -> None: ...
    def driver_version(self) -> str: ...
    def cuda_driver_version(self) -> int: ...
    def device_count(self) -> int: ...
    def device_name(self, index: int) -> str: ...
    def device_uuid(self, index: int) -> str: ...
    def device_compute_capability(self, index: int) -> tuple[int, int]: ...
    def device_memory(self, index: int) -> tuple[int, int]:
        """(total, free) in bytes."""
        ...
    def nvlink_state(self, index: int, link: int) -> bool:
        """Whether NVLink ``link`` of GPU ``index`` is active (NOT_SUPPORTED: no NVLink)."""
        ...
    def p2p_nvlink_status(self, index: int, peer: int) -> int:
        """NVML's P2P status for NVLink between two GPUs (0: OK)."""
        ...


class PynvmlApi:
    """The real NVML, through ``nvidia-ml-py`` (import name ``pynvml``)."""

    def __init__(self) -> None:
        import pynvml  # imported lazily: a bundle without it still starts

        self._nvml = pynvml

    def init(self) -> None:
        self._nvml.nvmlInit()

    def shutdown(self) -> None:
        self._nvml.nvmlShutdown()

    def driver_version(self) -> str:
        return _text(self._nvml.nvmlSystemGetDriverVersion())

    def cuda_driver_version(self) -> int:
        return int(self._nvml.nvmlSystemGetCudaDriverVersion_v2())

    def device_count(self) -> int:
        return int(self._nvml.nvmlDeviceGetCount())

    def _handle(self, index: int) -> Any:
        return self._nvml.nvmlDeviceGetHandleByIndex(index)

    def device_name(self, index: int) -> str:
        return _text(self._nvml.nvmlDeviceGetName(self._handle(index)))

    def device_uuid(self, index: int) -> str:
        return _text(self._nvml.nvmlDeviceGetUUID(self._handle(index)))

    def device_compute_capability(self, index: int) -> tuple[int, int]:
        major, minor = self._nvml.nvmlDeviceGetCudaComputeCapability(self._handle(index))
        return int(major), int(minor)

    def device_memory(self, index: int) -> tuple[int, int]:
        info = self._nvml.nvmlDeviceGetMemoryInfo(self._handle(index))
        return int(info.total), int(info.free)

    def nvlink_state(self, index: int, link: int) -> bool:
        return bool(self._nvml.nvmlDeviceGetNvLinkState(self._handle(index), link))

    def p2p_nvlink_status(self, index: int, peer: int) -> int:
        caps = self._nvml.NVML_P2P_CAPS_INDEX_NVLINK
        caps = caps[0] if isinstance(caps, tuple) else caps  # nvidia-ml-py defines it as (4,)
        return int(self._nvml.nvmlDeviceGetP2PStatus(self._handle(index), self._handle(peer),
                                                     caps))


def _text(value: str | bytes) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


class NvmlState(Enum):
    """What NVML could tell us, as a whole."""

    OK = "ok"
    NO_DRIVER = "no_driver"  # the NVML library is missing: no NVIDIA driver installed
    DRIVER_NOT_LOADED = "driver_not_loaded"
    NO_PERMISSION = "no_permission"
    NO_GPU = "no_gpu"  # driver fine, zero NVIDIA GPUs
    NVML_MISSING = "nvml_missing"  # the pynvml module itself is not available
    ERROR = "error"  # any other NVML failure


# Compute capability → architecture name. Majors map to one name except 7 (Volta/Turing)
# and 8 (Ampere/Ada); see shared/knowledge/toolchain.md.
_ARCH_BY_CC: dict[tuple[int, int], str] = {
    (7, 0): "Volta",
    (7, 2): "Volta",
    (7, 5): "Turing",
    (8, 0): "Ampere",
    (8, 6): "Ampere",
    (8, 7): "Ampere",
    (8, 9): "Ada Lovelace",
    (9, 0): "Hopper",
    (11, 0): "Blackwell (Thor)",
}
_ARCH_BY_MAJOR: dict[int, str] = {
    3: "Kepler",
    5: "Maxwell",
    6: "Pascal",
    10: "Blackwell",
    12: "Blackwell",
}


def arch_name(cc: tuple[int, int]) -> str:
    """'Hopper' for (9, 0); 'unknown (cc X.Y)' for a capability this program doesn't know."""
    name = _ARCH_BY_CC.get(cc) or _ARCH_BY_MAJOR.get(cc[0])
    return name if name is not None else f"unknown (cc {cc[0]}.{cc[1]})"


def decode_cuda_driver_version(value: int) -> tuple[int, int]:
    """NVML's integer CUDA version: 13000 → (13, 0), 12080 → (12, 8)."""
    return value // 1000, (value % 1000) // 10


@dataclass(frozen=True)
class GpuInfo:
    index: int
    name: str | None
    uuid: str | None
    compute_capability: tuple[int, int] | None
    memory_total: int | None  # bytes
    memory_free: int | None  # bytes
    errors: tuple[str, ...] = ()  # one line per query that failed

    @property
    def arch(self) -> str:
        cc = self.compute_capability
        return arch_name(cc) if cc is not None else "unknown"

    @property
    def sm(self) -> str | None:
        """'90' for cc 9.0: the number used in sm_XX / TORCH_CUDA_ARCH_LIST."""
        cc = self.compute_capability
        return f"{cc[0]}{cc[1]}" if cc is not None else None

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def label(self) -> str:
        return f"GPU {self.index}: {self.name or 'unknown NVIDIA GPU'}"


NVLINK_MAX_LINKS = 18  # NVML_NVLINK_MAX_LINKS for Hopper (18 links per H100 SXM)
P2P_STATUS_OK = 0


@dataclass(frozen=True)
class Interconnect:
    """How the GPUs are connected, from NVML: active NVLink links per GPU and, for every pair,
    whether NVLink peer-to-peer works. ``None`` entries: NVML could not answer."""

    active_links: tuple[int | None, ...]  # per GPU (index order)
    nvlink_p2p: Mapping[tuple[int, int], bool | None]  # (i, j) with i < j
    notes: tuple[str, ...] = ()

    def connected(self, indices: Iterable[int] | None = None) -> bool | None:
        """Whether every pair of ``indices`` (default: all GPUs) talks over NVLink: True, False
        (some pair does not), or None (NVML could not tell for some pair)."""
        chosen = sorted(set(range(len(self.active_links)) if indices is None else indices))
        answers = [self.nvlink_p2p.get((a, b))
                   for i, a in enumerate(chosen) for b in chosen[i + 1:]]
        if any(a is False for a in answers):
            return False
        if any(a is None for a in answers):
            return None
        return True

    def describe(self) -> str:
        """One line for people: 'GPUs 0–7 are all connected with NVLink (18 links each).'"""
        count = len(self.active_links)
        if count < 2:
            links = self.active_links[0] if self.active_links else None
            if links:
                return msg("One GPU: no GPU-to-GPU connection to check ({links} NVLink links "
                           "active).", links=links)
            return N_("One GPU: no GPU-to-GPU connection to check.")
        verdict = self.connected()
        counts = [n for n in self.active_links if n is not None]
        same = bool(counts) and len(set(counts)) == 1 and counts[0] > 0
        if verdict is True:
            if same:
                return msg("GPUs 0–{last} are all connected with NVLink ({links} links each).",
                           last=count - 1, links=counts[0])
            return msg("GPUs 0–{last} are all connected with NVLink.", last=count - 1)
        if verdict is None:
            return N_("Whether the GPUs are connected with NVLink could not be read from the "
                      "driver.")
        pairs = [f"{a}↔{b}" for (a, b), ok in sorted(self.nvlink_p2p.items()) if ok is False]
        shown = ", ".join(pairs[:6]) + (" …" if len(pairs) > 6 else "")
        return msg("Not every pair of GPUs is connected with NVLink (no NVLink between "
                   "{pairs}); they talk over PCIe.", pairs=shown)

    def to_json(self) -> dict[str, Any]:
        return {
            "active_nvlinks": list(self.active_links),
            "nvlink_p2p": {f"{a}-{b}": ok for (a, b), ok in sorted(self.nvlink_p2p.items())},
            # one GPU (or none): no pair to judge, so neither true nor false
            "all_nvlink": self.connected() if len(self.active_links) >= 2 else None,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class HostInfo:
    cpu_logical: int
    cpu_physical: int | None
    ram_total: int  # bytes
    ram_available: int  # bytes
    disk_path: Path  # the build drive's folder we measured
    disk_free: int | None  # bytes; None when it could not be read
    os_name: str


@dataclass(frozen=True)
class HardwareReport:
    state: NvmlState
    message: str  # one line for a non-expert
    hint: str  # what to do next ('' when nothing)
    driver_version: str | None
    cuda_driver_version: tuple[int, int] | None
    gpus: tuple[GpuInfo, ...]
    host: HostInfo
    nvml_error: str | None = None  # the raw NVML error text, for the details view
    seconds: float = 0.0
    links: Interconnect | None = None  # None: not read (no GPU, or an old recording)

    @property
    def usable_gpus(self) -> tuple[GpuInfo, ...]:
        return tuple(g for g in self.gpus if g.compute_capability is not None)

    def to_json(self) -> dict[str, Any]:
        """The documented ``detect --json`` schema (see docs/detect-schema.md)."""
        return {
            "schema": "ksw.detect/1",
            "nvml": {
                "state": self.state.value,
                "message": self.message,
                "hint": self.hint,
                "error": self.nvml_error,
            },
            "driver_version": self.driver_version,
            "cuda_driver_version": _version_text(self.cuda_driver_version),
            "gpus": [
                {
                    "index": g.index,
                    "name": g.name,
                    "uuid": g.uuid,
                    "compute_capability": _version_text(g.compute_capability),
                    "sm": g.sm,
                    "arch": g.arch,
                    "memory_total_bytes": g.memory_total,
                    "memory_free_bytes": g.memory_free,
                    "errors": list(g.errors),
                }
                for g in self.gpus
            ],
            "host": {
                "os": self.host.os_name,
                "cpu_logical": self.host.cpu_logical,
                "cpu_physical": self.host.cpu_physical,
                "ram_total_bytes": self.host.ram_total,
                "ram_available_bytes": self.host.ram_available,
                "disk_path": str(self.host.disk_path),
                "disk_free_bytes": self.host.disk_free,
            },
            "links": self.links.to_json() if self.links is not None else None,
            "seconds": round(self.seconds, 4),
        }


def _version_text(v: tuple[int, int] | None) -> str | None:
    return f"{v[0]}.{v[1]}" if v is not None else None


_STATE_TEXT: dict[NvmlState, tuple[str, str]] = {
    NvmlState.NO_DRIVER: (
        N_("No NVIDIA driver was found on this computer."),
        N_("Install the NVIDIA driver for your GPU (nvidia.com/drivers), restart, and run the "
           "wizard again. On WSL2, install the driver on Windows, not inside Linux. Without a GPU "
           "you can still build and verify the CPU probe kernel."),
    ),
    NvmlState.DRIVER_NOT_LOADED: (
        N_("The NVIDIA driver is installed but not running."),
        N_("Restart the computer. If this persists, reinstall the driver; on Linux, check that "
           "'nvidia-smi' works and that Secure Boot is not blocking the nvidia kernel module."),
    ),
    NvmlState.NO_PERMISSION: (
        N_("This user may not talk to the NVIDIA driver."),
        N_("Run the wizard as a user with access to the GPU (on Linux: check the permissions of "
           "/dev/nvidia*, or membership of the 'video' group)."),
    ),
    NvmlState.NO_GPU: (
        N_("The NVIDIA driver is running but reports no GPU."),
        N_("Check that the GPU is seated and powered, and that it is not hidden from this system "
           "(CUDA_VISIBLE_DEVICES, a virtual machine without GPU passthrough)."),
    ),
    NvmlState.NVML_MISSING: (
        N_("The NVML module (nvidia-ml-py) is missing from this installation of the wizard."),
        N_("Reinstall the Kernel Setup Wizard."),
    ),
    NvmlState.ERROR: (
        N_("The NVIDIA driver answered with an error."),
        N_("Restart the computer; if this persists, reinstall the NVIDIA driver."),
    ),
}


def _state_for_init_error(code: int | None) -> NvmlState:
    return {
        NVML_ERROR_LIBRARY_NOT_FOUND: NvmlState.NO_DRIVER,
        NVML_ERROR_DRIVER_NOT_LOADED: NvmlState.DRIVER_NOT_LOADED,
        NVML_ERROR_NO_PERMISSION: NvmlState.NO_PERMISSION,
    }.get(code if code is not None else -1, NvmlState.ERROR)


def _error_code(exc: BaseException) -> int | None:
    value = getattr(exc, "value", None)
    return value if isinstance(value, int) else None


def _describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    code = _error_code(exc)
    return f"{text} (NVML error {code})" if code is not None else text


def _is_nvml_error(exc: BaseException) -> bool:
    # Recognise pynvml's errors without importing pynvml at module import time.
    return any(cls.__name__ == "NVMLError" for cls in type(exc).__mro__)


def existing_folder(path: Path) -> Path:
    """``path`` or, when it does not exist yet, its nearest existing parent (the folder whose
    drive a free-space figure is about: the one to name to a person)."""
    probe = path
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    return probe if probe.exists() else path  # nothing of it exists here (another OS's path)


def detect_host(build_path: Path | None = None) -> HostInfo:
    """Cores, RAM, and free disk on the drive that holds ``build_path``."""
    import platform

    import psutil  # lazily: not needed before the first page (start-up time)

    memory = psutil.virtual_memory()
    if build_path is None:
        from kernel_wizard.machine.platforms import current

        build_path = current().default_build_root()
    path = build_path
    probe = existing_folder(path)  # the build folder may not exist yet: measure its drive
    try:
        disk_free: int | None = int(psutil.disk_usage(str(probe)).free)
    except OSError:
        disk_free = None
    return HostInfo(
        cpu_logical=psutil.cpu_count(logical=True) or 1,
        cpu_physical=psutil.cpu_count(logical=False),
        ram_total=int(memory.total),
        ram_available=int(memory.available),
        disk_path=path,
        disk_free=disk_free,
        os_name=f"{platform.system()} {platform.release()}".strip(),
    )


def detect(
    api_factory: Callable[[], NvmlApi] | None = None,
    build_path: Path | None = None,
) -> HardwareReport:
    """Detect GPUs and host resources. Never raises for hardware or driver problems."""
    started = time.perf_counter()
    host = detect_host(build_path)

    def report(state: NvmlState, **kw: Any) -> HardwareReport:
        message, hint = _STATE_TEXT.get(state, ("", ""))
        if state is NvmlState.OK:
            count = len(kw.get("gpus", ()))
            message = (msg("{count} NVIDIA GPU found.", count=count) if count == 1
                       else msg("{count} NVIDIA GPUs found.", count=count))
        fields: dict[str, Any] = {
            "driver_version": None,
            "cuda_driver_version": None,
            "gpus": (),
            "nvml_error": None,
        }
        fields.update(kw)
        return HardwareReport(
            state=state,
            message=message,
            hint=hint,
            host=host,
            seconds=time.perf_counter() - started,
            **fields,
        )

    try:
        api = api_factory() if api_factory is not None else PynvmlApi()
    except ImportError as exc:
        return report(NvmlState.NVML_MISSING, nvml_error=str(exc))

    try:
        api.init()
    except Exception as exc:  # pynvml.NVMLError, or an OSError from a broken library
        return report(_state_for_init_error(_error_code(exc)), nvml_error=_describe(exc))

    try:
        driver = _query(api.driver_version)
        cuda_raw = _query(api.cuda_driver_version)
        cuda = decode_cuda_driver_version(cuda_raw[0]) if cuda_raw[0] is not None else None
        try:
            count = api.device_count()
        except Exception as exc:
            if not _is_nvml_error(exc):
                raise
            return report(
                NvmlState.ERROR,
                driver_version=driver[0],
                cuda_driver_version=cuda,
                nvml_error=_describe(exc),
            )
        gpus = tuple(_detect_gpu(api, index) for index in range(count))
        links = _detect_links(api, count) if count else None
    finally:
        try:
            api.shutdown()
        except Exception:  # noqa: BLE001 - nothing useful to do about a failed shutdown
            pass

    if not gpus:
        return report(NvmlState.NO_GPU, driver_version=driver[0], cuda_driver_version=cuda)
    return report(
        NvmlState.OK,
        driver_version=driver[0],
        cuda_driver_version=cuda,
        gpus=gpus,
        nvml_error=driver[1] or cuda_raw[1],
        links=links,
    )


def _query(call: Callable[[], T]) -> tuple[T | None, str | None]:
    """(value, None) or (None, error text) for one NVML query."""
    try:
        return call(), None
    except Exception as exc:
        if not _is_nvml_error(exc):
            raise
        return None, _describe(exc)


def _detect_gpu(api: NvmlApi, index: int) -> GpuInfo:
    errors: list[str] = []

    def ask(what: str, call: Callable[[], T]) -> T | None:
        value, error = _query(call)
        if error is not None:
            errors.append(f"{what}: {error}")
        return value

    name = ask("name", lambda: api.device_name(index))
    uuid = ask("UUID", lambda: api.device_uuid(index))
    cc = ask("compute capability", lambda: api.device_compute_capability(index))
    memory = ask("memory", lambda: api.device_memory(index))
    return GpuInfo(
        index=index,
        name=name,
        uuid=uuid,
        compute_capability=cc,
        memory_total=memory[0] if memory else None,
        memory_free=memory[1] if memory else None,
        errors=tuple(errors),
    )


def _detect_links(api: NvmlApi, count: int) -> Interconnect:
    """Active NVLink links per GPU and NVLink P2P per pair. A GPU without NVLink answers
    NOT_SUPPORTED for its first link; a recording made before these calls existed answers
    nothing (KeyError): both leave the facts unknown rather than failing detection."""
    notes: list[str] = []
    active: list[int | None] = []
    for index in range(count):
        links = 0
        for link in range(NVLINK_MAX_LINKS):
            try:
                links += 1 if api.nvlink_state(index, link) else 0
            except KeyError:
                notes.append("NVLink state not recorded")
                links = -1
                break
            except Exception as exc:
                if not _is_nvml_error(exc):
                    raise
                if link == 0 and _error_code(exc) != NVML_ERROR_NOT_SUPPORTED:
                    notes.append(f"GPU {index} NVLink: {_describe(exc)}")
                    links = -1
                break  # no (more) links
        active.append(None if links < 0 else links)
    pairs: dict[tuple[int, int], bool | None] = {}
    for a in range(count):
        for b in range(a + 1, count):
            try:
                pairs[(a, b)] = api.p2p_nvlink_status(a, b) == P2P_STATUS_OK
            except KeyError:
                pairs[(a, b)] = None
            except Exception as exc:
                if not _is_nvml_error(exc):
                    raise
                notes.append(f"GPU {a}↔{b} P2P: {_describe(exc)}")
                pairs[(a, b)] = None
    return Interconnect(tuple(active), pairs, tuple(dict.fromkeys(notes)))


def format_bytes(value: int | None) -> str:
    """'79.6 GiB' — for people, not for parsing."""
    if value is None:
        return "unknown"
    size = float(value)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return f"{size:.1f} {unit}" if unit != "B" else f"{int(size)} B"
        size /= 1024
    return f"{size:.1f} TiB"  # pragma: no cover - loop always returns


# -- which GPUs a build is for ------------------------------------------------------------------


class GpuSelectionError(WizardError):
    """GPU indices this computer does not have, or not written as indices: a usage error,
    raised before anything runs."""

    exit_code = ExitCode.USAGE


def describe_gpus(report: HardwareReport) -> str:
    """'GPU 0 (NVIDIA H100 80GB HBM3)', 'GPUs 0–1 (NVIDIA H100 80GB HBM3, NVIDIA A100 80GB)';
    'no NVIDIA GPU' when there is none."""
    gpus = sorted(report.gpus, key=lambda g: g.index)
    if not gpus:
        return "no NVIDIA GPU"
    names = ", ".join(g.name or "unknown NVIDIA GPU" for g in gpus)
    if len(gpus) == 1:
        return f"GPU {gpus[0].index} ({names})"
    indices = [g.index for g in gpus]
    contiguous = indices == list(range(indices[0], indices[0] + len(indices)))
    numbers = f"{indices[0]}–{indices[-1]}" if contiguous else ", ".join(map(str, indices))
    return f"GPUs {numbers} ({names})"


def check_gpu_selection(report: HardwareReport, indices: Iterable[int],
                        option: str | None = None) -> tuple[int, ...]:
    """``indices`` checked against this computer's GPUs: each one exists, can be used (its
    compute capability is known) and is named once. An empty selection is left to the
    verdicts ("No GPU is selected"). ``option``: the command-line option the indices came
    from, for the hint. Raises :class:`GpuSelectionError` naming the GPUs there are."""
    chosen = tuple(indices)
    there = describe_gpus(report)
    leave_out = (f"leave out {option} to build for all of them" if option
                 else "select none to build for all of them")
    pick = f"Choose from those (the numbers 'detect' shows), or {leave_out}."
    seen: set[int] = set()
    by_index = {g.index: g for g in report.gpus}
    for index in chosen:
        if index < 0:
            raise GpuSelectionError(f"GPU indices start at 0: {index} is not a GPU.",
                                    hint=f"This computer has {there}. {pick}")
        if index in seen:
            raise GpuSelectionError(f"GPU {index} is chosen twice.",
                                    hint="Name each GPU once, e.g. 0,1.")
        seen.add(index)
        if not report.gpus:
            raise GpuSelectionError(
                f"GPU {index} was chosen, but this computer has no NVIDIA GPU that the wizard "
                "can use.",
                why=report.message,
                hint=(f"Leave out {option}" if option else "Select no GPU")
                + " (without a GPU here, a build uses the library's default list of GPU "
                "architectures).",
            )
        gpu = by_index.get(index)
        if gpu is None:
            raise GpuSelectionError(f"There is no GPU {index}: this computer has {there}.",
                                    hint=pick)
        if gpu.compute_capability is None:
            raise GpuSelectionError(
                f"GPU {index} ({gpu.name or 'unknown NVIDIA GPU'}) can't be used: the driver "
                "did not report its compute capability.",
                why="; ".join(gpu.errors),
                hint=f"Choose another GPU, or check the driver ('detect' shows what failed). "
                f"This computer has {there}.",
            )
    return chosen


@dataclass(frozen=True)
class CheckedGpus:
    """A GPU selection already checked against this computer's report
    (:func:`check_gpu_selection`): passed down as it is and never checked again (the build
    command checks ``--gpus`` before it starts the target Python, the session then takes it)."""

    indices: tuple[int, ...]

    @classmethod
    def check(cls, report: HardwareReport, indices: Iterable[int],
              option: str | None = None) -> CheckedGpus:
        return cls(check_gpu_selection(report, indices, option=option))
