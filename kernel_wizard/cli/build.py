"""``python -m app --headless build``: the Build page without a window."""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from packaging.utils import InvalidWheelFilename, parse_wheel_filename
from packaging.version import InvalidVersion

from kernel_wizard.base.durations import duration
from kernel_wizard.base.errors import EnvironmentProbeError, ExitCode, WizardError
from kernel_wizard.base.paths import same_env
from kernel_wizard.build.plan import estimate_build_seconds
from kernel_wizard.build.run import BuildOutcome, BuildStatus
from kernel_wizard.catalog import (
    Recipe,
)
from kernel_wizard.catalog.wheels import WheelCandidate
from kernel_wizard.catalog.worth import (
    METHOD_WORDS,
    SdpaSpeed,
    SpeedUnavailable,
    Verdict,
    Worth,
    user_workloads,
    workload_named,
)
from kernel_wizard.cli.consent import confirm
from kernel_wizard.cli.terminal import TerminalProgress, slowest_text
from kernel_wizard.diagnose import DiagnosisReport
from kernel_wizard.flow.pipeline import KernelChoice
from kernel_wizard.flow.session import (
    DoesNotFit,
    FlowEvent,
    FlowOptions,
    KernelRequest,
    NoMatchingWheel,
    Session,
    SessionServices,
    StepNotice,
)
from kernel_wizard.flow.verify_install import verify_then_install
from kernel_wizard.install.installer import LOCK_TAG, InstallRecord
from kernel_wizard.install.wheel_cache import CachedWheel
from kernel_wizard.machine.ai_apps.usage import UseHint, hint_for_python
from kernel_wizard.machine.environment import PythonEnv, discover_candidates, inspect_python
from kernel_wizard.machine.hardware import CheckedGpus, GpuSelectionError, HardwareReport, detect
from kernel_wizard.machine.lifetime import run_cancellable
from kernel_wizard.machine.nvml_record import read_recording
from kernel_wizard.verify import report_view


def resolve_env(python: Path | None) -> PythonEnv:
    """The target environment: --python, or the first discovered candidate; must be usable."""
    if python is None:
        candidates = discover_candidates()
        if not candidates:
            raise EnvironmentProbeError(
                "No Python interpreter was found to build into.",
                hint="Pass one with --python PATH.",
            )
        python = candidates[0].path
        if candidates[0].app:
            apps = [c for c in candidates if c.app]
            others = f" (also found: {', '.join(c.app for c in apps[1:])})" if apps[1:] else ""
            print(f"Using the Python of {candidates[0].app}: {python}{others}. Choose another "
                  "with --python PATH.", file=sys.stderr)
    env = inspect_python(python)
    if not env.usable:
        raise EnvironmentProbeError(f"{python}: {env.summary}", hint=env.hint)
    return env


def parse_gpus(text: str | None) -> list[int] | None:
    """``--gpus 0,1`` → [0, 1]; None when the option is not given. Anything but whole numbers
    separated by commas is a usage error (exit code 2); whether the GPUs exist is
    :func:`kernel_wizard.machine.hardware.check_gpu_selection`'s question."""
    if text is None:
        return None
    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or not all(re.fullmatch(r"-?\d+", part) for part in parts):
        raise GpuSelectionError(f"--gpus {text!r} is not a list of GPU indices.",
                                hint="Write them like 0 or 0,1 (the numbers 'detect' shows), "
                                "or leave out --gpus to build for all GPUs.")
    return [int(part) for part in parts]


def build_hardware(args: argparse.Namespace) -> HardwareReport:
    """This computer's GPUs, or those of a recording (``--replay``)."""
    replay_file = getattr(args, "replay", None)
    if replay_file is None:
        return detect()
    replay = read_recording(replay_file)
    return detect(lambda: replay)


def wheel_version(filename: str) -> str | None:
    """The version in a wheel's file name (PEP 427: name-version-...), if it parses."""
    try:
        parse_wheel_filename(filename)
    except (InvalidWheelFilename, InvalidVersion):
        return None
    return filename.split("-")[1]  # as written (packaging would lower-case a local version)


def make_choice(args: argparse.Namespace, env: PythonEnv, session: Session,
                gpus: CheckedGpus | None) -> KernelChoice:
    """The recipe, version and source the options name, decided by the session
    (:meth:`Session.choose`: the recommended version, the GPU check, the fit, the wheel)."""
    if args.kernel is None:  # no kernel named: the catalog's toolchain probe
        args.kernel = session.catalog().probe.id
    recipe = session.catalog().get(args.kernel)
    prebuilt = getattr(args, "prebuilt", False)
    wheel: bool | WheelCandidate = (wheel_at(prebuilt, recipe, env, force=args.force)
                                     if isinstance(prebuilt, str) else bool(prebuilt))
    request = KernelRequest(args.kernel, version=args.kernel_version, gpus=gpus,
                            variant=getattr(args, "variant", None), local_path=args.source,
                            prebuilt=wheel, force=args.force, gpu_option="--gpus",
                            from_cache=not getattr(args, "no_cache", False))
    try:
        return session.choose(request).choice
    except DoesNotFit as exc:
        raise WizardError(exc.what, hint="Choose another kernel or version ('kernels' lists "
                          "what fits), or pass --force to try anyway.") from exc
    except NoMatchingWheel as exc:
        raise WizardError(exc.what, hint="Build from source (run the same command "
                          "without --prebuilt).") from exc


def wheel_at(url: str, recipe: Recipe, env: PythonEnv, *, force: bool) -> WheelCandidate:
    """``--prebuilt URL``: the wheel at that address, if its name fits this environment (or
    ``--force``); never a file that is not a wheel of the chosen kernel."""
    from kernel_wizard.catalog.wheels import MismatchKind, candidate_from_url

    candidate = candidate_from_url(url, recipe, env)
    problems = candidate.match.mismatches
    hard = [m for m in problems if m.kind in (MismatchKind.NOT_A_WHEEL, MismatchKind.PACKAGE)]
    unfit = [m for m in problems if m.kind is not MismatchKind.UNKNOWN_BUILD and m not in hard]
    if hard:
        raise WizardError(
            f"{url} is not a {recipe.name} wheel.",
            why=" ".join(m.text for m in hard),
            hint=f"Give the address of a {recipe.package} wheel (a file ending in .whl), or "
            "leave out the address to let the wizard find one.",
        )
    if unfit and not force:
        raise WizardError(
            f"The wheel {candidate.filename} does not fit this environment:\n"
            + "\n".join(f"  - {m.text}" for m in unfit),
            hint="Give the address of a wheel built for this Python, PyTorch and CUDA, or pass "
            "--force to try it anyway (the verification before installing will tell).",
        )
    return candidate


def failure_lines(report: DiagnosisReport | None) -> list[str]:
    """What a failed build's diagnosis says on the terminal: where it stopped (its family) and
    the next step right for it, then the first error line verbatim."""
    lines: list[str] = []
    if report is not None and report.family is not None:
        lines.append(f"Stopped while {report.family.title}: {report.family.next_step}")
    if report is not None and report.first_error is not None:
        lines.append(f"First error (log line {report.first_error.line_number}): "
                     f"{report.first_error.line.strip()}")
    return lines


def outcome_json(outcome: BuildOutcome) -> dict[str, Any]:
    report = outcome.diagnosis
    return {
        "schema": "ksw.build/1",
        "status": outcome.status.value,
        "message": outcome.message,
        "hint": outcome.hint,
        "wheel": str(outcome.wheel) if outcome.wheel else None,
        "log": str(outcome.log_path),
        "seconds": round(outcome.seconds, 2),
        "attempts": outcome.attempts,
        "exit_code": outcome.exit_code,
        "disk_full": str(outcome.disk_full) if outcome.disk_full else None,
        "steps": [{"step": s.step.value, "state": s.state.value, "seconds": round(s.seconds, 2)}
                  for s in outcome.steps],
        "units": len(outcome.units),
        "slowest_units": [{"name": u.name, "seconds": round(u.seconds, 2)}
                          for u in outcome.slowest_units],
        "diagnoses": [{"id": h.signature_id, "cause_group": h.cause_group, "title": h.title,
                       "cause": h.cause, "fix": h.fix, "facts": dict(h.facts),
                       "line": h.line_number} for h in (report.hits if report else ())],
        "cause_unknown": bool(report and report.cause_unknown),
        "family": None if report is None or report.family is None else {
            "id": report.family.id, "title": report.family.title,
            "next_step": report.family.next_step},
        "first_error": report.first_error.line if report and report.first_error else None,
        "download": None if outcome.download is None else {
            "url": outcome.download.url,
            "path": str(outcome.download.path),
            "size": outcome.download.size,
            "sha256": outcome.download.sha256,
            "resumed": outcome.download.resumed,
            "from_cache": outcome.download.from_cache,
            "checks": list(outcome.download.checks),
        },
        "plan": None if outcome.plan is None else {
            "command": list(outcome.plan.command),
            "cwd": str(outcome.plan.cwd),
            "env": {c.name: c.value for c in outcome.plan.env_changes},
            "variant": outcome.plan.variant or None,
        },
    }


def _install_change(args: argparse.Namespace, choice: KernelChoice, version: str,
                    env: PythonEnv) -> str:
    """What a build command changes, in one sentence (asked before anything runs)."""
    what = f"{choice.recipe.name} {version}"
    first = (f"This downloads a prebuilt {what} wheel" if choice.prebuilt is not None
             else f"This takes the {what} wheel verified before from the cache"
             if choice.cached is not None else f"This builds {what}")
    if args.skip_verify:
        then = " and installs it without verifying it"
    elif args.allow_failed:
        then = ", verifies it and installs it even if the verification fails"
    else:
        then = ", verifies it and, if it passes, installs it"
    return (f"{first}{then} into {env.executable} (what it replaces is kept; 'rollback' puts "
            "it back).")


class _AfterBuild:
    """Lines of the steps after the build (the verification, the install): a wait for another
    run's lock on the environment, pip's lines, notices. Lock lines are shown always, the rest
    with --verbose; the build's log keeps every one (after the build's own lines)."""

    def __init__(self, out: TextIO, *, verbose: bool) -> None:
        self.out = out
        self.verbose = verbose
        self.session: Session | None = None
        self.progress: TerminalProgress | None = None
        self._started = False
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        text = str(text)
        if text.startswith(LOCK_TAG) or self.verbose:
            if self.progress is not None:
                self.progress.close()
            self.out.write(f"  {text}\n")
            self.out.flush()
        self.log(text)

    def log(self, text: str) -> None:
        outcome = self.session.build_outcome if self.session is not None else None
        if outcome is None or outcome.log_path is None:
            return
        with self._lock:
            try:
                with open(outcome.log_path, "a", encoding="utf-8", errors="replace") as log:
                    if not self._started:
                        log.write("\n# after the build: verification and install\n")
                    self._started = True
                    log.write(text.rstrip("\n") + "\n")
            except OSError:
                pass  # the log is a record: the terminal has said it already


def run_build_command(args: argparse.Namespace, out: TextIO) -> int:
    gpus = parse_gpus(args.gpus)  # usage errors first, before anything runs
    hardware = build_hardware(args)
    # checked once, before the target Python is started; the session takes it as checked
    selection = CheckedGpus.check(hardware, gpus, option="--gpus") if gpus is not None else None
    env = resolve_env(args.python)
    human = sys.stderr if args.json else out
    after_build = _AfterBuild(human, verbose=args.verbose)
    # what the verification and the install say (a wait for another run's lock on the
    # environment too) reaches the terminal and the build's log, as the build's own lines do
    services = SessionServices(verify_then_install=partial(verify_then_install,
                                                           on_line=after_build.line))
    session = Session(services=services, hardware=hardware, environment=env)
    after_build.session = session
    choice = make_choice(args, env, session, selection)
    recipe = choice.recipe
    wheel_from = choice.prebuilt.origin if choice.prebuilt is not None else ""
    source = (f"prebuilt wheel{' from ' + wheel_from if wheel_from else ''}: "
              f"{choice.prebuilt.url}" if choice.prebuilt is not None
              else _cached_words(choice.cached) if choice.cached is not None
              else f"source: {choice.local_path or choice.source_mode.value}")
    # the version is the wheel's own where a prebuilt wheel is used (it may differ from the
    # recipe version it was found for: the header read "0.1.0 (prebuilt wheel: …-0.2.0-…)")
    version = (wheel_version(choice.prebuilt.filename) or choice.version.label
               if choice.prebuilt is not None else choice.version.label)
    human.write(f"Target: {env.executable} ({env.summary})\n"
                f"Kernel: {recipe.name} {version} ({source})\n")
    if choice.prebuilt is not None:
        for mismatch in choice.prebuilt.match.mismatches:
            human.write(f"! {mismatch.text} The verification before installing will tell "
                        "whether it works here.\n")
    if args.plan_only:
        if choice.prebuilt is not None:
            human.write(f"Would download {choice.prebuilt.url}, verify it and install it.\n")
            return int(ExitCode.OK)
        if choice.cached is not None:
            human.write(f"Would take {choice.cached.filename} from the verified-wheel cache, "
                        "verify it here and install it: nothing is compiled (--no-cache "
                        "builds from source).\n")
            return int(ExitCode.OK)
        if choice.route.needs_fetch:
            human.write("The plan needs the source first (a download or an archive to "
                        "extract); run without --plan-only.\n")
            return int(ExitCode.OK)
        plan = session.plan_preview()  # nothing is copied or built: only shown
        human.write("What will run:\n" + "".join(f"  {line}\n"
                                                 for line in plan.describe().splitlines()))
        human.write(f"(The build runs in its own copy of {plan.source_dir} in the build folder; "
                    "the folder itself is never changed.)\n")
        return int(ExitCode.OK)

    if not args.no_install:  # the one consent rule (cli/consent.py): it changes the environment
        confirm(_install_change(args, choice, version, env), "Go on?", yes=args.yes,
                arguments=getattr(args, "arguments", ["build"]), out=human,
                alternative="Or add --no-install: the kernel is built and verified, and nothing "
                "is installed.")
    progress = TerminalProgress(human, verbose=args.verbose)
    after_build.progress = progress

    def on_event(event: FlowEvent) -> None:
        if isinstance(event, StepNotice):
            progress.close()
            text = str(event.text)
            human.write(f"  {text}\n" if text.startswith(LOCK_TAG) else f"• {text}\n")
            human.flush()
            after_build.log(text)
        else:  # the build's own events: the plan, the source's lines, steps, progress, ...
            progress(event)

    options = FlowOptions(verify=not args.skip_verify, install=not args.no_install,
                          allow_failed=args.allow_failed, quick=args.quick_verify)
    cancel = threading.Event()
    result = run_cancellable(lambda: session.run_build_flow(options, on_event, cancel),
                             cancel, "the build and its compilers")
    progress.close()
    outcome = result.build
    if outcome.status is BuildStatus.SUCCEEDED:
        human.write(f"✔ {outcome.message} ({duration(outcome.seconds)})\n  {outcome.wheel}\n")
        human.write("".join(f"  {line}\n" for line in slowest_text(outcome.slowest_units,
                                                                   len(outcome.units))))
        if outcome.download is not None:
            human.write(f"  sha256 {outcome.download.sha256}\n" + "".join(
                f"  checked: {line}\n" for line in outcome.download.checks))
    else:
        human.write(f"✖ {outcome.message}\n  {outcome.hint}\n")
        report = outcome.diagnosis
        human.write("".join(f"  {line}\n" for line in failure_lines(report)))
        human.write(f"  Full log: {outcome.log_path}\n")
    code = {
        BuildStatus.SUCCEEDED: ExitCode.OK,
        BuildStatus.FAILED: ExitCode.FAILURE,
        BuildStatus.CANCELLED: ExitCode.CANCELLED,
    }[outcome.status]
    if outcome.disk_full is not None:
        code = ExitCode.STORAGE  # a full disk, not a broken build
    flow = result.verification
    if flow is not None:
        view = report_view(flow.report, installed=flow.installed is not None)
        human.write("".join(f"  {line}\n" for line in view.lines()))
        human.write(f"{'✔' if flow.report.passed else '✖'} {flow.message}\n")
        human.write(f"  Report: {flow.saved.markdown_path}\n")
        if not flow.report.passed:
            code = ExitCode.FAILURE
    if result.installed_unverified is not None:
        installed = result.installed_unverified
        human.write(f"✔ Installed {installed.name} {installed.version} (not verified, as asked)\n")
    if args.json:
        document = outcome_json(outcome)
        if flow is not None:
            document["verification"] = flow.report.to_json()
            document["report"] = str(flow.saved.json_path)
            document["installed"] = flow.installed is not None
        json.dump(document, out, indent=2)
        out.write("\n")
    return int(code)


def run_verify_command(args: argparse.Namespace, out: TextIO) -> int:
    from kernel_wizard.install.installer import load_installs

    if args.kernel and args.python:
        records = [r for r in load_installs()
                   if r.kernel_id == args.kernel and same_env(r.python, args.python)]
        if not records:
            raise WizardError(
                f"The wizard has no record of installing {args.kernel} into {args.python}.",
                hint="Run 'verify' without options to re-verify everything it installed.",
            )
    if not load_installs():
        nothing = WizardError("Nothing to verify: no kernel has been installed by this wizard "
                              "yet.", hint="Install one first (the wizard, or 'build --kernel "
                              "probe').")
        if args.json:
            raise nothing  # the JSON error document
        out.write(f"{nothing.what}\n{nothing.hint}\n")
        return int(ExitCode.FAILURE)
    cancel = threading.Event()

    def chosen(record: InstallRecord) -> bool:  # --kernel (and --python): only those run
        return not args.kernel or (record.kernel_id == args.kernel and (
            args.python is None or same_env(record.python, args.python)))

    from kernel_wizard.flow import reverify

    session = Session(services=SessionServices(reverify_all=reverify.reverify_all))
    results = run_cancellable(lambda: session.reverify(quick=args.quick, cancel=cancel,
                                                       select=chosen), cancel,
                              "the verification")
    ok = all(r.report.passed and not (r.comparison and r.comparison.regressed) for r in results)
    if args.json:
        json.dump([{
            "kernel": r.record.kernel_id,
            "python": r.record.python,
            "status": r.report.status.value,
            "report": str(r.saved.json_path),
            "changes": [str(c) for c in (r.comparison.changes if r.comparison else ())],
            "regressions": list(r.comparison.regressions if r.comparison else ()),
            "not_run": list(r.comparison.not_run if r.comparison else ()),
            # checks that ran both times (0: nothing could be compared), and it in words
            "compared": r.comparison.compared if r.comparison else None,
            "comparison": r.comparison_sentence,
            "quick": r.report.quick,
            "compared_with": str(r.previous.json_path) if r.previous else None,
            "used_by": _use_hint_json(r.record),
            "disagreement": r.disagreement,  # the record names another version than is there
        } for r in results], out, indent=2)
        out.write("\n")
    else:
        for result in results:
            out.write("\n".join(result.lines()) + "\n")
            hint = _use_hint(result.record)
            if hint is not None:  # is it actually used? how its program is told to use it
                out.write("\n".join("  " + line for line in hint.lines()) + "\n")
        out.write("All installed kernels pass.\n" if ok else
                   "Some kernels did not pass: see above.\n")
    return int(ExitCode.OK if ok else ExitCode.FAILURE)


def _use_hint(record: InstallRecord) -> UseHint | None:
    """How the AI program whose Python got this install is told to use the kernel."""
    return hint_for_python(Path(record.python), record.kernel or "")


def _use_hint_json(record: InstallRecord) -> dict[str, str] | None:
    hint = _use_hint(record)
    if hint is None:
        return None
    return {"program": hint.app_id, "name": hint.app_name, "how": hint.how,
            "check": hint.check, "docs": hint.docs, "source": hint.source}


def run_kernels_command(args: argparse.Namespace, out: TextIO) -> int:
    env = resolve_env(args.python) if args.python else None
    if env is None:
        candidates = discover_candidates()
        env = inspect_python(candidates[0].path) if candidates else None
    if env is None:
        raise EnvironmentProbeError("No Python interpreter was found.",
                                    hint="Pass one with --python PATH.")
    hardware = detect()
    session = Session(hardware=hardware, environment=env)
    machine = session.machine()
    catalog = session.catalog()
    speed = None if args.no_speed else session.speed_here()
    session.workload_choice = args.workload or ""
    workload, why_workload = session.workload()
    table = session.kernel_table(machine, speed)  # the Kernel page's rows too
    if args.json:
        json.dump({
            "schema": "ksw.kernels/1",
            "problems": [str(p) for p in catalog.problems],
            "kernels": [{
                "id": row.recipe.id, "name": row.recipe.name, "version": v.label,
                # never a version that does not fit
                "recommended": v is row.recommended and d.available,
                "available": d.available, "reasons": list(d.texts),
                "warnings": list(d.warnings), "archs": list(d.archs),
                "speed_here": _worth_json(row.worth) if v is row.recommended else None,
                "verified_cache": (_cached_json(row.cached) if v is row.recommended
                                   and row.cached is not None else None),
                "variants": [{
                    "id": variant.id, "label": variant.label,
                    "description": variant.description,
                    "default": variant is row.recipe.default_variant,
                    "build_seconds": estimate_build_seconds(
                        row.recipe, v, list(d.archs), machine.cpu_cores, machine.ram_gb,
                        machine.os, variant=variant) if d.available else None,
                } for variant in row.recipe.variants],
            } for row in table for v, d in ((r.version, r.verdict) for r in row.versions)],
            "sdpa_speed": _speed_json(speed),
            "workload": {"id": workload, "why": why_workload},
        }, out, indent=2)
        out.write("\n")
        return int(ExitCode.OK)
    out.write(_speed_text(speed))
    if isinstance(speed, SdpaSpeed):
        named = workload_named(workload)
        out.write(f"Speed is judged for {named.name if named else workload} ({why_workload}); "
                  "choose another with --workload llm|image|video.\n\n")
    for row in table:
        recipe = row.recipe
        out.write(f"{recipe.name} ({recipe.id}) — {recipe.description}\n")
        fits = [r.version.label for r in row.versions if r.verdict.available]
        best = (row.recommended, row.recommended_verdict)
        if best[1].available:
            estimate = estimate_build_seconds(recipe, best[0], list(best[1].archs),
                                              machine.cpu_cores, machine.ram_gb, machine.os)
            out.write(f"  ✔ recommended: {best[0].label} — {best[1].summary} "
                      f"(build ≈ {duration(estimate)})\n")
        else:
            out.write(f"  ✖ does not fit: {best[1].summary}\n")
            for reason in best[1].reasons:
                out.write(f"      - {reason.text}\n")
                if reason.hint:
                    out.write(f"        → {reason.hint}\n")
        out.write(f"  versions that fit: {', '.join(fits) if fits else 'none'}\n")
        if row.cached is not None and best[1].available:
            out.write(f"  ✔ ready from the verified cache (verified on "
                      f"{row.cached.verified_on}): {best[0].label} installs without "
                      "compiling\n")
        if recipe.variants:
            out.write("  build variants (build --variant NAME):\n")
            for variant in recipe.variants:
                took = ""
                if best[1].available:
                    seconds = estimate_build_seconds(
                        recipe, best[0], list(best[1].archs), machine.cpu_cores,
                        machine.ram_gb, machine.os, variant=variant)
                    took = f" (build ≈ {duration(seconds)})"
                default = ", the default" if variant is recipe.default_variant else ""
                out.write(f"    {variant.id}{default}: {variant.label} — "
                          f"{variant.description}{took}\n")
        worth = row.worth
        if worth is not None:
            mark = {Verdict.PAYS_OFF: "✔", Verdict.NOT_WORTH: "✖"}.get(worth.verdict, "•")
            out.write(f"  {mark} speed on this GPU: {worth.sentence}\n")
    for problem in catalog.problems:
        out.write(f"! broken recipe: {problem}\n")
    if args.online:
        out.write(online_versions(catalog))
    return int(ExitCode.OK)


def _speed_text(speed: SdpaSpeed | SpeedUnavailable | None) -> str:
    if speed is None:
        return ""
    if isinstance(speed, SpeedUnavailable):
        return f"PyTorch's own attention was not timed: {speed.reason}\n\n"
    parts = [f"{METHOD_WORDS.get(n, n)} {t.ms:.3g} ms ({t.tflops:.0f} TFLOPs)"
             for n, t in sorted(speed.methods.items(), key=lambda item: item[1].ms)]
    when = f"measured {speed.measured_at}" + (", kept from then" if speed.cached else "")
    not_here = "".join(f"; {METHOD_WORDS.get(n, n)}: not available here"
                       for n in speed.failed)
    text = (f"PyTorch's own attention on this {speed.gpu} ({speed.shape_words()}, torch "
            f"{speed.torch}; {when}): {', '.join(parts)}{not_here}\n")
    for workload in user_workloads():
        fastest = speed.times(workload.id).fastest
        if fastest is not None:
            text += (f"  {workload.name}: fastest {METHOD_WORDS.get(fastest[0], fastest[0])} "
                     f"{fastest[1].ms:.3g} ms over {len(workload.shapes)} shape"
                     f"{'s' if len(workload.shapes) != 1 else ''} ({workload.shape_words()})\n")
    if speed.method == "queued":
        text += ("  (calls queued back to back between two CUDA events, as a model runs "
                 "them)\n")
    return text + "\n"


def _speed_json(speed: SdpaSpeed | SpeedUnavailable | None) -> dict[str, Any] | None:
    if speed is None:
        return None
    if isinstance(speed, SpeedUnavailable):
        return {"available": False, "reason": speed.reason}
    return {"available": True, "gpu": speed.gpu, "torch": speed.torch, "cuda": speed.cuda,
            "shape": dict(speed.shape), "measured_at": speed.measured_at, "cached": speed.cached,
            "methods": {n: {"ms": t.ms, "tflops": t.tflops} for n, t in speed.methods.items()},
            "not_available": dict(speed.failed)}


def _cached_words(wheel: CachedWheel) -> str:
    return (f"ready from the verified cache, verified on {wheel.verified_on}: "
            f"{wheel.filename}, no compiling")


def _cached_json(wheel: CachedWheel) -> dict[str, Any]:
    return {"filename": wheel.filename, "sha256": wheel.digest, "verified_on": wheel.verified_on,
            "source": wheel.source, "variant": wheel.variant}


def _worth_json(worth: Worth | None) -> dict[str, Any] | None:
    if worth is None:
        return None
    return {"verdict": worth.verdict.value, "sentence": worth.sentence,
            "expected_ms": worth.expected_ms, "best_here": list(worth.best_here or ()),
            "source": worth.source, "better": list(worth.better),
            "workload": worth.workload,
            "other_workloads": [{"workload": n, "speedup": r} for n, r in worth.others]}


def online_versions(catalog: Any) -> str:
    """Upstream versions newer than the bundled list, from GitHub's API (cached with its ETag;
    offline or rate-limited: says so and keeps the bundled list)."""
    from kernel_wizard.catalog.tags import fetch_tags, merge_versions

    lines = []
    for recipe in catalog:
        if recipe.tag_pattern is None or not recipe.source.url:  # upstream tags not followed
            continue
        fetched = fetch_tags(recipe.source.url)
        merged = merge_versions(recipe, fetched.tags)
        lines.append(f"{recipe.name}: {fetched.message}")
        for new in merged.new:
            lines.append(f"  new upstream version {new.label} ({new.tag}, {new.commit[:10]}): "
                         "not yet tested by the wizard")
        for moved in merged.moved:
            lines.append(f"  ! tag {moved.tag} moved: {moved.bundled_commit[:10]} → "
                         f"{moved.remote_commit[:10]}")
        if fetched.tags and not merged.new:
            lines.append("  the bundled list is up to date")
    return "".join(line + "\n" for line in lines)
