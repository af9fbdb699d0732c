"""Is building this kernel worth it on this GPU? Advice before the build, from measurement.

1. :func:`measure_sdpa` runs ``resources/probes/sdpa_speed.py`` in the target Python: PyTorch's
   own attention (SDPA) timed at the shapes of each workload (``resources/speed/workloads.toml``:
   LLM prompts, images, video, and the earlier single reference shape) with each of its methods
   (cuDNN, flash, memory-efficient, math), calls queued back to back as a model runs them. A few
   seconds; the answer is kept per (GPU, driver, PyTorch, CUDA) in the data folder, so it runs
   once per setup, and it can be skipped.
2. ``resources/speed/measured.toml`` holds kernels measured against the same SDPA methods on the
   lent GPUs, per GPU family and workload, with where each number comes from.
3. :func:`worth_building` scales the kernel's measured time by the ratio of the same SDPA
   method here and there, and compares the expected time with the fastest method PyTorch already
   has here, for the user's workload (taken from the AI program the wizard found, or chosen),
   naming the other workloads' figures beside it. A family with no measurement gets "not
   measured yet", never a guess.

It never blocks: no GPU, a CPU-only PyTorch, a timeout or a broken probe give a
:class:`SpeedUnavailable` with the reason, and the advice is simply left out.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any

from kernel_wizard.base.errors import ProcessError
from kernel_wizard.base.messages import N_, Msg, msg
from kernel_wizard.base.paths import data_dir
from kernel_wizard.base.processes import EnvChange, run_captured
from kernel_wizard.base.resources import resource_path
from kernel_wizard.base.statefile import StateFileError, StateStatus, read_json, write_json
from kernel_wizard.machine.environment import PythonEnv
from kernel_wizard.machine.hardware import HardwareReport, arch_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the tomli backport, a declared dependency there
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

BEGIN = "@@KSW-SPEED-BEGIN@@"
END = "@@KSW-SPEED-END@@"
TIMEOUT_S = 240.0  # importing torch and timing four methods at 7 shapes, even on a cold disk
PROBE_VERSION = "2"  # part of the cache key: answers of an earlier probe are measured again
METHOD_WORDS = {"cudnn": "cuDNN", "flash": "flash", "efficient": "memory-efficient",
                "math": "math"}
# Within this factor of each other two times count as "about as fast".
SIMILAR = 1.15


@dataclass(frozen=True)
class MethodTime:
    ms: float
    tflops: float


@dataclass(frozen=True)
class WorkloadShape:
    """One attention call of a workload (resources/speed/workloads.toml)."""

    batch: int
    tokens: int
    heads: int
    kv_heads: int
    head_dim: int
    causal: bool
    dtype: str

    def words(self) -> str:
        heads = (f"{self.heads} heads" if self.kv_heads == self.heads
                 else f"{self.heads} heads ({self.kv_heads} KV heads)")
        return (f"{self.dtype} · batch {self.batch} · {self.tokens:,} tokens · {heads} · head "
                f"size {self.head_dim}" + (" · causal" if self.causal else ""))

    def as_dict(self) -> dict[str, Any]:
        return {"batch": self.batch, "tokens": self.tokens, "heads": self.heads,
                "kv_heads": self.kv_heads, "head_dim": self.head_dim, "causal": self.causal,
                "dtype": self.dtype}


@dataclass(frozen=True)
class Workload:
    """What the user runs attention for: its id ("llm", "image", "video", "reference"), its
    name in words and its shapes (a workload's time is the sum over them)."""

    id: str
    name: str
    about: str
    shapes: tuple[WorkloadShape, ...]

    def shape_words(self) -> str:
        return "; ".join(shape.words() for shape in self.shapes)


REFERENCE = "reference"  # the earlier single-shape probe's shape (workloads.toml)
DEFAULT_WORKLOAD = "llm"  # when neither the program nor the user says


@lru_cache(maxsize=4)
def load_workloads(path: Path | None = None) -> tuple[Workload, ...]:
    """The workloads of ``resources/speed/workloads.toml`` (read once per process)."""
    data = tomllib.loads((path or resource_path("speed", "workloads.toml"))
                         .read_text(encoding="utf-8"))
    return tuple(
        Workload(str(w["id"]), str(w["name"]), str(w.get("about", "")), tuple(
            WorkloadShape(int(s["batch"]), int(s["tokens"]), int(s["heads"]),
                          int(s.get("kv_heads") or s["heads"]), int(s["head_dim"]),
                          bool(s["causal"]), str(s.get("dtype", "float16")))
            for s in w["shapes"]))
        for w in data.get("workload", []))


def workload_named(workload_id: str) -> Workload | None:
    return next((w for w in load_workloads() if w.id == workload_id), None)


def user_workloads() -> tuple[Workload, ...]:
    """The workloads a user chooses among (not the reference shape)."""
    return tuple(w for w in load_workloads() if w.id != REFERENCE)


@dataclass(frozen=True)
class WorkloadTimes:
    """SDPA's methods timed at one workload's shapes: per method the sum over the shapes."""

    methods: Mapping[str, MethodTime]
    failed: Mapping[str, str]
    default: MethodTime | None = None

    @property
    def fastest(self) -> tuple[str, MethodTime] | None:
        fast = [(n, t) for n, t in self.methods.items() if n != "math"]
        return min(fast, key=lambda item: item[1].ms) if fast else None


@dataclass(frozen=True)
class SdpaSpeed:
    """PyTorch's attention timed on this GPU, per method (those that ran): ``methods``,
    ``failed``, ``default`` and ``shape`` at the reference shape, ``workloads`` per workload
    (an answer of the earlier probe has the reference shape only)."""

    gpu: str
    cc: tuple[int, int]
    torch: str
    cuda: str
    shape: Mapping[str, Any]
    methods: Mapping[str, MethodTime]
    failed: Mapping[str, str]  # method → why it did not run here
    default: MethodTime | None
    measured_at: str = ""
    cached: bool = False
    workloads: Mapping[str, WorkloadTimes] = field(default_factory=dict)
    method: str = ""  # "queued" (as a model runs calls), "" for the earlier one-call timing

    def times(self, workload: str) -> WorkloadTimes:
        """SDPA's methods at ``workload``'s shapes (the reference shape's for an old answer)."""
        found = self.workloads.get(workload)
        if found is not None:
            return found
        if workload == REFERENCE:
            return WorkloadTimes(self.methods, self.failed, self.default)
        return WorkloadTimes({}, {})

    @property
    def family(self) -> str:
        return arch_name(self.cc)

    @property
    def fastest(self) -> tuple[str, MethodTime] | None:
        """The fastest method other than plain math, if any ran."""
        fast = [(n, t) for n, t in self.methods.items() if n != "math"]
        return min(fast, key=lambda item: item[1].ms) if fast else None

    def shape_words(self) -> str:
        s = self.shape
        return (f"{s.get('dtype', '?')} · batch {s.get('batch', '?')} · "
                f"{int(s.get('tokens', 0)):,} tokens · {s.get('heads', '?')} heads · head size "
                f"{s.get('head_dim', '?')}" + (" · causal" if s.get("causal") else ""))


@dataclass(frozen=True)
class SpeedUnavailable:
    """Why no measurement could be made (no advice is given then)."""

    reason: str


class Verdict(Enum):
    PAYS_OFF = "pays-off"
    SIMILAR = "similar"
    NOT_WORTH = "not-worth"
    NOT_MEASURED = "not-measured"


@dataclass(frozen=True)
class Measure:
    """One kernel measured against SDPA's methods on one GPU family at one workload's shapes
    (measured.toml; times are sums over the workload's shapes)."""

    kernel: str
    name: str
    family: str
    shape: str
    kernel_ms: float
    sdpa_ms: Mapping[str, float]
    source: str
    in_catalog: bool = True  # a kernel the wizard can build (else: measured for comparison)
    workload: str = REFERENCE
    method: str = ""  # "queued" or "" (one call at a time, an earlier measurement)


@dataclass(frozen=True)
class Worth:
    """The advice for one kernel on this GPU."""

    kernel: str
    verdict: Verdict
    sentence: str  # one plain sentence (translatable)
    expected_ms: float | None = None
    best_here: tuple[str, float] | None = None  # the fastest method PyTorch has here
    source: str = ""  # where the kernel's number comes from
    better: tuple[str, ...] = field(default_factory=tuple)  # faster kernels measured here
    workload: str = ""  # the workload judged ("" for the only-math case: any workload)
    others: tuple[tuple[str, float], ...] = ()  # (workload name, expected speed-up) elsewhere


# -- measuring ----------------------------------------------------------------------------------


def cache_key(speed_gpu: str, driver: str, torch: str, cuda: str) -> str:
    shapes = json.dumps([[w.id, [sh.as_dict() for sh in w.shapes]] for w in load_workloads()])
    # a change of the probe or of the workloads' shapes measures again
    text = "\0".join((speed_gpu, driver, torch, cuda, PROBE_VERSION, shapes))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _cache_file() -> Path:
    return data_dir() / "sdpa-speed.json"


def _workload_times(document: Mapping[str, Any]) -> WorkloadTimes:
    methods: dict[str, MethodTime] = {}
    failed: dict[str, str] = {}
    for name, value in dict(document["backends"]).items():
        if isinstance(value, Mapping) and isinstance(value.get("ms"), (int, float)):
            methods[str(name)] = MethodTime(float(value["ms"]), float(value.get("tflops") or 0))
        elif isinstance(value, Mapping):
            failed[str(name)] = str(value.get("error", "did not run"))
    default = document.get("default")
    return WorkloadTimes(
        methods, failed,
        MethodTime(float(default["ms"]), float(default.get("tflops") or 0))
        if isinstance(default, Mapping) and isinstance(default.get("ms"), (int, float)) else None)


def _parse(document: Mapping[str, Any], *, measured_at: str = "",
           cached: bool = False) -> SdpaSpeed:
    first = _workload_times(document)
    workloads = {str(k): _workload_times(v)
                 for k, v in dict(document.get("workloads") or {}).items()}
    return SdpaSpeed(
        gpu=str(document["gpu"]), cc=(int(document["cc"][0]), int(document["cc"][1])),
        torch=str(document["torch"]), cuda=str(document.get("cuda") or ""),
        shape=dict(document.get("shape") or {}), methods=first.methods, failed=first.failed,
        default=first.default, measured_at=measured_at, cached=cached, workloads=workloads,
        method=str(document.get("method") or ""),
    )


def speed_from_probe(document: Mapping[str, Any], *, measured_at: str = "") -> SdpaSpeed:
    """An answer of ``resources/probes/sdpa_speed.py`` (a recorded one: tests, screenshots)."""
    return _parse(document, measured_at=measured_at)


def _extract(stdout: str) -> dict[str, Any] | None:
    start, end = stdout.rfind(BEGIN), stdout.rfind(END)
    if start < 0 or end < start:
        return None
    try:
        value = json.loads(stdout[start + len(BEGIN):end])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def measure_sdpa(python: Path, *, gpu: str, driver: str, torch: str, cuda: str,
                 use_cache: bool = True,
                 timeout_s: float = TIMEOUT_S) -> SdpaSpeed | SpeedUnavailable:
    """SDPA's speed in ``python`` on its first GPU; the answer kept per (GPU, driver, PyTorch,
    CUDA) is used when there is one (``use_cache``). Never raises for what the child does."""
    key = cache_key(gpu, driver, torch, cuda)
    cache: dict[str, Any] = {}
    try:
        read = read_json(_cache_file(), lambda v: dict(v), repair=True)
        if read.status is StateStatus.OK and read.value is not None:
            cache = read.value
    except OSError:
        cache = {}
    if use_cache and isinstance(cache.get(key), Mapping):
        try:
            entry = cache[key]
            return _parse(entry["document"], measured_at=str(entry.get("measured_at", "")),
                          cached=True)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # measured again below
    try:
        shapes = [{"id": w.id, "shapes": [s.as_dict() for s in w.shapes]}
                  for w in sorted(load_workloads(), key=lambda w: w.id != REFERENCE)]
        done = run_captured([str(python), str(resource_path("probes", "sdpa_speed.py")),
                             "--workloads", json.dumps(shapes)],
                            timeout_s=timeout_s,
                            env_changes=[EnvChange("PYTHONIOENCODING", "utf-8")],
                            unset=["PYTHONHOME"])
    except ProcessError as exc:
        return SpeedUnavailable(msg("PyTorch's attention could not be timed: {why}",
                                    why=exc.why or exc.what))
    document = _extract(done.stdout)
    if document is None:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [""]
        return SpeedUnavailable(msg("PyTorch's attention could not be timed ({tail}).",
                                    tail=tail[0][:200]))
    if not document.get("ok"):
        return SpeedUnavailable(str(document.get("error") or N_("no measurement")))
    try:
        speed = _parse(document, measured_at=time.strftime("%Y-%m-%d %H:%M"))
    except (KeyError, TypeError, ValueError, IndexError):
        return SpeedUnavailable(N_("The measurement of PyTorch's attention was not readable."))
    cache[key] = {"measured_at": speed.measured_at, "document": document}
    try:
        write_json(_cache_file(), cache)
    except StateFileError:
        pass  # measured again next time
    return speed


def sdpa_speed_here(hardware: HardwareReport | None,
                    env: PythonEnv | None) -> SdpaSpeed | SpeedUnavailable | None:
    """PyTorch's attention timed in ``env`` on its first GPU (kept per GPU, driver, PyTorch and
    CUDA); None where there is nothing to time (no GPU, no CUDA build of PyTorch)."""
    torch = env.torch if env is not None else None
    gpus = hardware.usable_gpus if hardware is not None else ()
    if env is None or hardware is None or torch is None or not torch.cuda \
            or not torch.cuda_available or not gpus:
        return None
    return measure_sdpa(env.executable, gpu=gpus[0].name or "",
                        driver=hardware.driver_version or "", torch=torch.version,
                        cuda=torch.cuda)


# -- the measured kernels ---------------------------------------------------------------------


def load_measures(path: Path | None = None) -> tuple[Measure, ...]:
    """The measured kernels (the shipped file is read once per process)."""
    return _read_measures(path or resource_path("speed", "measured.toml"))


@lru_cache(maxsize=4)
def _read_measures(path: Path) -> tuple[Measure, ...]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(
        Measure(kernel=str(m["kernel"]), name=str(m["name"]), family=str(m["family"]),
                shape=str(m["shape"]), kernel_ms=float(m["kernel_ms"]),
                sdpa_ms={str(k): float(v) for k, v in dict(m["sdpa_ms"]).items()},
                source=str(m["source"]), in_catalog=bool(m.get("in_catalog", True)),
                workload=str(m.get("workload", REFERENCE)), method=str(m.get("method", "")))
        for m in data.get("measure", [])
    )


def _expected_ms(measure: Measure, times: WorkloadTimes) -> tuple[float, str] | None:
    """The kernel's expected time here: its measured time scaled by the same SDPA method's time
    here and there (the method PyTorch runs fastest here that the measurement also has)."""
    shared = [(n, t) for n, t in times.methods.items() if n in measure.sdpa_ms]
    if not shared:
        return None
    name, here = min(shared, key=lambda item: item[1].ms)
    return measure.kernel_ms * here.ms / measure.sdpa_ms[name], name


def _times(x: float) -> str:
    return f"{x:.1f}" if x < 10 else f"{x:.0f}"


def _judged(measures: Sequence[Measure], kernel: str, family: str, speed: SdpaSpeed,
            workload: str) -> tuple[Measure, WorkloadTimes] | None:
    """The measurement of ``kernel`` to judge ``workload`` by, with SDPA's times here at its
    shapes: the workload's own, else the reference shape's (an earlier measurement)."""
    for wanted in (workload, REFERENCE):
        measure = next((m for m in measures if m.kernel == kernel and m.family == family
                        and m.workload == wanted), None)
        times = speed.times(wanted)
        if measure is not None and times.methods:
            return measure, times
    return None


def _ratio_at(measures: Sequence[Measure], kernel: str, speed: SdpaSpeed,
              workload: str) -> float | None:
    """Expected speed-up of ``kernel`` over PyTorch's fastest method here at ``workload``'s
    own shapes (None: not measured there)."""
    measure = next((m for m in measures if m.kernel == kernel and m.family == speed.family
                    and m.workload == workload), None)
    times = speed.times(workload)
    fastest = times.fastest
    expected = _expected_ms(measure, times) if measure is not None else None
    if expected is None or fastest is None:
        return None
    return fastest[1].ms / expected[0]


def worth_building(kernel: str, speed: SdpaSpeed, measures: Sequence[Measure] | None = None,
                   workload: str = DEFAULT_WORKLOAD) -> Worth | None:
    """The advice for ``kernel`` (a recipe id) on the measured GPU for ``workload`` ("llm",
    "image", "video"); None for kernels that are no attention to compare with SDPA (no
    measurement of theirs exists on any GPU)."""
    measures = load_measures() if measures is None else measures
    mine = [m for m in measures if m.kernel == kernel]
    if not mine:
        return None
    family = speed.family
    judged = _judged(measures, kernel, family, speed, workload)
    times = judged[1] if judged is not None else speed.times(workload)
    if not times.methods:
        times = speed.times(REFERENCE)
    fastest = times.fastest
    if fastest is None and "math" in times.methods:  # only the math method ran
        return Worth(kernel, Verdict.PAYS_OFF, msg(
            "Expected to pay off: this PyTorch has only its slow math attention on this GPU "
            "({ms} ms at {shape}), and fast kernels are many times faster than that.",
            ms=f"{times.methods['math'].ms:.3g}", shape=_shape_words(speed, REFERENCE)))
    if fastest is None:
        return Worth(kernel, Verdict.NOT_MEASURED, msg(
            "PyTorch's attention could not be timed at these shapes on this GPU."))
    best_name, best = fastest
    method = METHOD_WORDS.get(best_name, best_name)
    if judged is None:
        return Worth(kernel, Verdict.NOT_MEASURED, msg(
            "Not measured on {family} GPUs yet: whether it beats PyTorch's own attention here "
            "is not known. PyTorch's fastest method here ({method}) takes {ms} ms at {shape} "
            "({tflops} TFLOPs).", family=family, method=method, ms=f"{best.ms:.3g}",
            shape=_shape_words(speed, workload), tflops=f"{best.tflops:.0f}"),
            best_here=(best_name, best.ms), workload=workload)
    measure, times = judged
    expected = _expected_ms(measure, times)
    if expected is None:
        return Worth(kernel, Verdict.NOT_MEASURED, msg(
            "Not comparable here: the methods PyTorch ran on this GPU are not those {name} was "
            "measured against.", name=measure.name), best_here=(best_name, best.ms),
            source=measure.source, workload=measure.workload)
    expected_ms, _via = expected
    better = tuple(
        m.name + ("" if m.in_catalog else " " + N_("(not in the wizard's catalog yet)"))
        for m in measures if m.family == family and m.kernel != kernel
        and m.workload == measure.workload
        and (e := _expected_ms(m, times)) is not None and e[0] < min(expected_ms, best.ms))
    ratio = best.ms / expected_ms
    shape = _shape_words(speed, measure.workload)
    if ratio >= SIMILAR:
        sentence: Msg = msg(
            "Expected to pay off: about {x}× as fast as PyTorch's fastest attention here "
            "({method}, {best} ms; {name} about {expected} ms at {shape}).", x=_times(ratio),
            method=method, best=f"{best.ms:.3g}", name=measure.name,
            expected=f"{expected_ms:.3g}", shape=shape)
        verdict = Verdict.PAYS_OFF
    elif ratio > 1 / SIMILAR:
        sentence = msg(
            "About as fast as PyTorch's own {method} attention here ({best} ms; {name} about "
            "{expected} ms at {shape}): building gains little speed.", method=method,
            best=f"{best.ms:.3g}", name=measure.name, expected=f"{expected_ms:.3g}",
            shape=shape)
        verdict = Verdict.SIMILAR
    else:
        sentence = msg(
            "Not expected to pay off: PyTorch's own {method} attention is about {x}× faster on "
            "this GPU ({best} ms; {name} about {expected} ms at {shape}). You can still build "
            "it, e.g. for a program that calls it directly.", method=method,
            x=_times(1 / ratio), best=f"{best.ms:.3g}", name=measure.name,
            expected=f"{expected_ms:.3g}", shape=shape)
        verdict = Verdict.NOT_WORTH
    named = workload_named(measure.workload)
    if measure.workload != REFERENCE and named is not None:
        sentence = msg("For {workload}: {sentence}", workload=named.name, sentence=sentence)
    elif workload != REFERENCE and (wanted := workload_named(workload)) is not None:
        sentence = msg("{sentence} (Measured at this one shape only, not yet at {workload}.)",
                       sentence=sentence, workload=wanted.name)
    others = tuple((w.name, r) for w in user_workloads() if w.id != measure.workload
                   and (r := _ratio_at(measures, kernel, speed, w.id)) is not None)
    if others:
        sentence = msg("{sentence} Elsewhere: {others}.", sentence=sentence, others="; ".join(
            msg("{workload} {x}× PyTorch's fastest", workload=name, x=f"{r:.2f}")
            for name, r in others))
    if better and verdict is not Verdict.PAYS_OFF:
        sentence = msg("{sentence} Faster on {family} GPUs: {better} (measured).",
                       sentence=sentence, family=family, better=", ".join(better))
    return Worth(kernel, verdict, sentence, expected_ms=expected_ms,
                 best_here=(best_name, best.ms), source=measure.source, better=better,
                 workload=measure.workload, others=others)


def _shape_words(speed: SdpaSpeed, workload: str) -> str:
    """The shapes SDPA was timed at for ``workload``, in words."""
    if workload == REFERENCE and not speed.workloads:
        return speed.shape_words()
    named = workload_named(workload)
    return named.shape_words() if named is not None else speed.shape_words()


__all__ = ["DEFAULT_WORKLOAD", "METHOD_WORDS", "Measure", "MethodTime", "REFERENCE", "SdpaSpeed",
           "SpeedUnavailable", "Verdict", "Workload", "WorkloadShape", "WorkloadTimes", "Worth",
           "cache_key", "load_measures", "load_workloads", "measure_sdpa", "sdpa_speed_here",
           "speed_from_probe",
           "user_workloads", "workload_named", "worth_building"]
