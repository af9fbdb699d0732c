"""Record a machine's NVML answers, and replay them.

``python -m app --headless detect --record FILE`` writes what NVML answered on this machine
(values and error codes, call by call). :class:`ReplayNvmlApi` answers the same calls from such
a file, raising pynvml's own exception classes for the recorded error codes. Recordings are
how the NVML mapping is tested on machines without a GPU, and they go into bug reports.
"""

from __future__ import annotations

import json
import platform
from collections.abc import Callable
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

from kernel_wizard.base.errors import HardwareError
from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.machine.hardware import NVLINK_MAX_LINKS, NvmlApi, PynvmlApi

Answer = dict[str, Any]  # {"ok": value} or {"error": code, "text": message}


def _answer(call: Callable[[], Any]) -> Answer:
    try:
        value = call()
    except Exception as exc:  # pynvml.NVMLError and subclasses
        code = getattr(exc, "value", None)
        if not isinstance(code, int):
            raise
        return {"error": code, "text": str(exc)}
    if isinstance(value, tuple):
        value = list(value)
    return {"ok": value}


def _links(nvml: NvmlApi, index: int) -> list[Answer]:
    """NVLink state link by link, up to the first link NVML says does not exist."""
    answers = []
    for link in range(NVLINK_MAX_LINKS):
        answer = _answer(partial(nvml.nvlink_state, index, link))
        answers.append(answer)
        if "error" in answer:
            break
    return answers


def record(api: NvmlApi | None = None) -> dict[str, Any]:
    """Everything :func:`kernel_wizard.machine.hardware.detect` asks NVML, with NVML's answers."""
    nvml = api if api is not None else PynvmlApi()
    calls: dict[str, Any] = {"init": _answer(nvml.init)}
    if "ok" in calls["init"]:
        calls["driver_version"] = _answer(nvml.driver_version)
        calls["cuda_driver_version"] = _answer(nvml.cuda_driver_version)
        calls["device_count"] = _answer(nvml.device_count)
        count = calls["device_count"].get("ok") or 0
        calls["devices"] = [
            {
                "name": _answer(partial(nvml.device_name, i)),
                "uuid": _answer(partial(nvml.device_uuid, i)),
                "compute_capability": _answer(partial(nvml.device_compute_capability, i)),
                "memory": _answer(partial(nvml.device_memory, i)),
            }
            for i in range(count)
        ]
        for i, device in enumerate(calls["devices"]):
            try:  # a replayed recording from before these calls has no answers: leave them out
                device["nvlink"] = _links(nvml, i)
                device["p2p_nvlink"] = {
                    str(j): _answer(partial(nvml.p2p_nvlink_status, i, j))
                    for j in range(count) if j != i
                }
            except KeyError:
                device.pop("nvlink", None)
        try:
            nvml.shutdown()
        except Exception:  # noqa: BLE001
            pass
    return {
        "format": "ksw.nvml-recording/1",
        "recorded": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "host": platform.platform(),
        "calls": calls,
    }


def save_recording(path: Path, api: NvmlApi | None = None) -> dict[str, Any]:
    """Record NVML's answers and write them to ``path`` (whole or not at all)."""
    from kernel_wizard.base.oserrors import write_text_atomic

    data = record(api)
    write_text_atomic(path, json.dumps(data, indent=2) + "\n")
    return data


class ReplayNvmlApi:
    """An :class:`NvmlApi` that answers from a recording."""

    def __init__(self, recording: dict[str, Any]) -> None:
        self._calls: dict[str, Any] = recording["calls"]

    @classmethod
    def from_file(cls, path: Path) -> ReplayNvmlApi:
        document = read_json_file(path)
        check_recording(document)
        return cls(document)

    def _play(self, answer: Answer | None) -> Any:
        if answer is None:
            raise KeyError("the recording has no answer for this call")
        if "error" in answer:
            import pynvml

            raise pynvml.NVMLError(answer["error"])
        return answer["ok"]

    def _device(self, index: int, what: str) -> Any:
        devices = self._calls.get("devices", [])
        if index >= len(devices):
            import pynvml

            raise pynvml.NVMLError(pynvml.NVML_ERROR_INVALID_ARGUMENT)
        return self._play(devices[index].get(what))

    def init(self) -> None:
        self._play(self._calls.get("init"))

    def shutdown(self) -> None:
        return None

    def driver_version(self) -> str:
        return str(self._play(self._calls.get("driver_version")))

    def cuda_driver_version(self) -> int:
        return int(self._play(self._calls.get("cuda_driver_version")))

    def device_count(self) -> int:
        return int(self._play(self._calls.get("device_count")))

    def device_name(self, index: int) -> str:
        return str(self._device(index, "name"))

    def device_uuid(self, index: int) -> str:
        return str(self._device(index, "uuid"))

    def device_compute_capability(self, index: int) -> tuple[int, int]:
        major, minor = self._device(index, "compute_capability")
        return int(major), int(minor)

    def device_memory(self, index: int) -> tuple[int, int]:
        total, free = self._device(index, "memory")
        return int(total), int(free)

    def nvlink_state(self, index: int, link: int) -> bool:
        links = self._device_entry(index).get("nvlink")
        if links is None:
            raise KeyError("the recording has no NVLink answers")
        if link >= len(links):  # recorded up to the first error: the same error again
            return bool(self._play(links[-1]))
        return bool(self._play(links[link]))

    def p2p_nvlink_status(self, index: int, peer: int) -> int:
        table = self._device_entry(index).get("p2p_nvlink")
        if table is None:
            raise KeyError("the recording has no P2P answers")
        return int(self._play(table.get(str(peer))))

    def _device_entry(self, index: int) -> dict[str, Any]:
        devices = self._calls.get("devices", [])
        if index >= len(devices):
            import pynvml

            raise pynvml.NVMLError(pynvml.NVML_ERROR_INVALID_ARGUMENT)
        entry: dict[str, Any] = devices[index]
        return entry


class RecordingShapeError(Exception):
    """Valid JSON, but not shaped like a recording: what is wrong, in words."""


def _check_answer(answer: object, where: str, kind: tuple[type, ...] | None = None,
                  pair: bool = False) -> None:
    if not isinstance(answer, dict) or not ("ok" in answer or "error" in answer):
        raise RecordingShapeError(f"{where} is not an answer ({{\"ok\": ...}} or "
                                  "{\"error\": code})")
    if "error" in answer:
        if not isinstance(answer["error"], int) or isinstance(answer["error"], bool):
            raise RecordingShapeError(f"{where}: the error code is not a number")
        return
    value = answer["ok"]
    if pair and not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise RecordingShapeError(f"{where} is not a pair of numbers")
    if kind is not None and (not isinstance(value, kind) or isinstance(value, bool)
                             and bool not in kind):
        raise RecordingShapeError(f"{where} has a value of the wrong type")


def check_recording(document: object) -> None:
    """Raise :class:`RecordingShapeError` unless ``document`` is shaped like what
    :func:`record` writes, so that replaying it can fail only the way NVML itself fails."""
    if not isinstance(document, dict) or not isinstance(document.get("calls"), dict):
        raise RecordingShapeError('it has no "calls"')
    calls = document["calls"]
    if "init" not in calls:
        raise RecordingShapeError('it has no answer for "init"')
    _check_answer(calls["init"], "init")
    started = "ok" in calls["init"]  # record() asks the rest only when NVML started
    for key, kind in (("driver_version", (str,)), ("cuda_driver_version", (int,)),
                      ("device_count", (int,))):
        if key in calls:
            _check_answer(calls[key], key, kind)
        elif started:
            raise RecordingShapeError(f'it has no answer for "{key}"')
    count = calls.get("device_count", {}).get("ok")
    if isinstance(count, int) and not 0 <= count <= 1024:
        raise RecordingShapeError(f"device_count {count} is not a number of GPUs")
    devices = calls.get("devices", [])
    if not isinstance(devices, list) or len(devices) > 1024:
        raise RecordingShapeError('"devices" is not a list of GPUs')
    if isinstance(count, int) and len(devices) != count:
        raise RecordingShapeError(f"device_count is {count} but it has {len(devices)} GPUs")
    for i, device in enumerate(devices):
        if not isinstance(device, dict):
            raise RecordingShapeError(f"GPU {i} is not an object")
        for key in ("name", "uuid"):
            if key not in device:
                raise RecordingShapeError(f'GPU {i} has no answer for "{key}"')
            _check_answer(device[key], f"GPU {i} {key}", (str,))
        for key in ("compute_capability", "memory"):
            if key not in device:
                raise RecordingShapeError(f'GPU {i} has no answer for "{key}"')
            _check_answer(device[key], f"GPU {i} {key}", pair=True)
        links = device.get("nvlink", [None])
        if not isinstance(links, list) or not links or len(links) > 64:
            # record() writes one answer at least (up to the first error)
            raise RecordingShapeError(f"GPU {i} nvlink is not a list of answers")
        if "nvlink" not in device:
            links = []
        for link, answer in enumerate(links):
            _check_answer(answer, f"GPU {i} nvlink {link}", (bool, int))
        peers = device.get("p2p_nvlink", {})
        if not isinstance(peers, dict):
            raise RecordingShapeError(f"GPU {i} p2p_nvlink is not an object")
        for peer, answer in peers.items():
            _check_answer(answer, f"GPU {i} p2p_nvlink {peer}", (int,))


def read_recording(path: Path) -> ReplayNvmlApi:
    """The recording at ``path`` to replay. Detection cannot run without it: a
    :class:`HardwareError` (exit code 4) says in words what is wrong with the file (missing,
    not JSON, not a recording) instead of a parser's message."""
    why: str
    try:
        return ReplayNvmlApi.from_file(Path(path))
    except OSError as exc:
        why = msg("It could not be read: {error}.", error=exc.strerror or exc)
    except UnicodeDecodeError:
        why = N_("It is not a text file.")
    except ValueError:
        why = N_("It is not a JSON file, so not a recording written by 'detect --record'.")
    except RecordingShapeError as exc:
        why = msg("It is JSON, but not an NVML recording: {problem}.", problem=str(exc))
    except (KeyError, TypeError, AttributeError):
        why = N_("It is JSON, but not an NVML recording (it has no \"calls\").")
    raise HardwareError(msg("Could not read the NVML recording {path}.", path=path), why=why,
                        hint=N_("Pass a file written by 'detect --record FILE'."))
