"""A prebuilt wheel instead of a build: downloaded over (loopback) HTTP, verified, installed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from loopback_http import LoopbackServer, Resource

from kernel_wizard.build.run import BuildStatus, LogLine, Step, StepEvent, StepState
from kernel_wizard.catalog import WheelSourceKind, load_catalog
from kernel_wizard.catalog.wheels import WheelCandidate, WheelMatch
from kernel_wizard.flow.pipeline import KernelChoice, run_pipeline
from kernel_wizard.flow.verify_install import verify_then_install
from kernel_wizard.install.installer import load_installs
from kernel_wizard.machine.environment import inspect_python
from kernel_wizard.machine.hardware import detect


@pytest.fixture()
def server() -> Any:
    running = LoopbackServer().start()
    yield running
    running.stop()


def candidate(url: str, filename: str, sha256: str | None = None) -> WheelCandidate:
    return WheelCandidate(url=url, filename=filename, source_id="test",
                          source_kind=WheelSourceKind.OFFICIAL, source_name="a test release",
                          match=WheelMatch(filename, None, ()), listed=True, sha256=sha256)


def test_prebuilt_wheel_is_downloaded_verified_and_installed(
    server: Any, scratch_torch_env: Path, kernel_wheel: Any
) -> None:
    wheel = kernel_wheel("correct")
    url = server.add("/releases/" + wheel.name, Resource(wheel.read_bytes()))
    recipe = load_catalog().get("probe")
    choice = KernelChoice.default(recipe, recipe.newest)
    choice = KernelChoice(choice.recipe, choice.version, prebuilt=candidate(url, wheel.name))
    env = inspect_python(scratch_torch_env)
    events: list[object] = []
    outcome = run_pipeline(choice, env, detect(), events.append, allow_http=True)
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.message
    assert outcome.plan is None and outcome.wheel is not None
    assert outcome.wheel.read_bytes() == wheel.read_bytes()
    steps = [(e.step, e.state) for e in events if isinstance(e, StepEvent)]
    assert steps == [(Step.DOWNLOAD, StepState.RUNNING), (Step.DOWNLOAD, StepState.DONE)]
    assert any(isinstance(e, LogLine) and url in e.text for e in events)
    assert "sha256" in outcome.log_path.read_text(encoding="utf-8")

    flow = verify_then_install(scratch_torch_env, outcome.wheel, kernel="probe", adapter="probe")
    assert flow.report.passed and flow.installed is not None
    assert load_installs()[0].name == "ksw-probe-kernel"
    # the report names exactly what was verified: its digest, where it came from, the checks
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert outcome.download is not None and outcome.download.sha256 == digest
    meta = json.loads(flow.saved.json_path.read_text(encoding="utf-8"))["ksw_meta"]
    assert meta["wheel_sha256"] == digest
    assert meta["wheel_download"]["url"] == url
    assert any("RECORD hashes" in check for check in meta["wheel_download"]["checks"])
    markdown = flow.saved.markdown_path.read_text(encoding="utf-8")
    assert f"- SHA-256: `{digest}`" in markdown and f"- Downloaded from: {url}" in markdown


def test_a_missing_prebuilt_wheel_is_a_clear_failure(server: Any, torch_venv: Path) -> None:
    recipe = load_catalog().get("probe")
    url = server.url("/releases/missing-0.1-py3-none-any.whl")
    choice = KernelChoice(recipe, recipe.newest,
                          prebuilt=candidate(url, "missing-0.1-py3-none-any.whl"))
    outcome = run_pipeline(choice, inspect_python(torch_venv), detect(), allow_http=True)
    assert outcome.status is BuildStatus.FAILED
    assert "could not be downloaded" in outcome.message
    assert "404" in outcome.message or "not found" in outcome.message.lower()
    assert outcome.wheel is None


def test_a_prebuilt_wheel_with_the_wrong_digest_is_rejected_and_removed(
    server: Any, torch_venv: Path, kernel_wheel: Any
) -> None:
    wheel = kernel_wheel("correct")
    url = server.add("/releases/" + wheel.name, Resource(wheel.read_bytes()))
    recipe = load_catalog().get("probe")
    choice = KernelChoice(recipe, recipe.newest,
                          prebuilt=candidate(url, wheel.name, sha256="0" * 64))
    outcome = run_pipeline(choice, inspect_python(torch_venv), detect(), allow_http=True)
    assert outcome.status is BuildStatus.FAILED
    assert outcome.wheel is None
    assert "damaged or has changed" in outcome.message
    data = outcome.log_path.parent.parent
    kept = [p for p in data.rglob("*") if ".whl" in p.name]
    assert kept == []  # no half or wrong file left for a later run to trust
