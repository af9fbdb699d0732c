"""Check 5: the target Python environment — 64-bit with pip, a CUDA build of PyTorch whose CUDA
the driver supports and that knows the GPU, and ninja. Fixes are ``pip install`` into that
environment (ninja from PyPI, PyTorch from the download.pytorch.org index that fits the
driver)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from kernel_wizard.base.advice import choose_python
from kernel_wizard.base.messages import N_, Msg, join, msg
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo
from kernel_wizard.prereqs.cuda import gpu_ccs
from kernel_wizard.prereqs.facts import SystemFacts
from kernel_wizard.prereqs.fixes import PipInstallFix, PipStep, PythonDevFilesFix
from kernel_wizard.prereqs.model import CheckId, CheckResult, CheckStatus, Fix, scoped, worst
from kernel_wizard.prereqs.pipfix import EnsurePipFix
from kernel_wizard.prereqs.versions import TORCH_INDEX_BASE, pick_torch_cuda, torch_index_url, vtext

TITLE = N_("Python environment")
WHY = N_("Why it matters: kernels are built against the PyTorch in this environment, with its "
         "pip; ninja compiles many files at once (without it a build can take hours).")


CPU_TORCH_INDEX = TORCH_INDEX_BASE + "cpu"
CPU_TORCH_SIZE = N_("about 200 MB")  # torch 2.x CPU wheels: ~180 MB (Linux), ~200 MB (Windows)
CUDA_TORCH_SIZE = "2–3 GB"  # a CUDA wheel with its NVIDIA libraries


# NumPy with it: PyTorch does not require it, and without it every import of torch (so every
# build log) warns "Failed to initialize NumPy". The PyTorch indexes carry NumPy too.
TORCH_PACKAGES = ("torch", "numpy")


def torch_step(facts: SystemFacts, *, replace: bool) -> tuple[PipStep, Msg]:
    """The pip step that installs the PyTorch that fits this computer, and a sentence saying
    which: a CUDA build fitting the driver and the GPUs; without a usable NVIDIA GPU, the CPU
    build (a CUDA build, 10× the download, would be of no use there)."""
    cuda = pick_torch_cuda(facts.hardware.cuda_driver_version, gpu_ccs(facts))
    options = ("--upgrade", "--force-reinstall") if replace else ()
    if not facts.hardware.usable_gpus:
        return (PipStep(TORCH_PACKAGES, CPU_TORCH_INDEX, options),
                msg("PyTorch's CPU build (from {index}): no NVIDIA GPU answered here, so a CUDA "
                    "build would be of no use. If this computer has an NVIDIA GPU, install its "
                    "driver first, then check again", index=CPU_TORCH_INDEX))
    if cuda is None:
        return (PipStep(TORCH_PACKAGES, None, options),
                msg("PyTorch from PyPI (the driver is too old for every CUDA build the wizard "
                    "knows; updating the NVIDIA driver is better)"))
    url = torch_index_url(cuda)
    return (PipStep(TORCH_PACKAGES, url, options),
            msg("PyTorch built for CUDA {cuda} (from {url}, the newest CUDA your driver "
                "supports)", cuda=vtext(cuda), url=url))


def ninja_step() -> PipStep:
    return PipStep(("ninja",))


def packages_fix(python: Path, pip_version: str | None,
                 steps: list[tuple[PipStep, Msg | str]]) -> PipInstallFix:
    names = [s.packages[0] for s, _ in steps]
    fix_id = "ninja" if names == ["ninja"] else "torch" if names == ["torch"] else \
        "python-packages"
    cpu = any(s.index_url == CPU_TORCH_INDEX for s, _ in steps)
    torch_name = (msg("PyTorch (CPU build)") if cpu else msg("PyTorch with CUDA")
                  if any(s.index_url for s, _ in steps) else "PyTorch")
    title = {"ninja": msg("Install ninja"),
             "torch": msg("Install {torch}", torch=torch_name)}.get(
        fix_id, msg("Install {torch} and ninja", torch=torch_name))
    what = join([text for _, text in steps], "; ")
    replacing = any("--force-reinstall" in s.options for s, _ in steps)
    parts: list[Msg | str] = [msg("Runs pip in {python} to install {what}.", python=python,
                                  what=what)]
    if replacing:
        parts.append(N_("It replaces the PyTorch installed there now."))
    if "torch" in names:
        parts.append(msg("PyTorch's CPU build is a download of {size}.", size=CPU_TORCH_SIZE)
                     if cpu else msg("PyTorch is a download of {size}.", size=CUDA_TORCH_SIZE))
    description = join(parts)
    return PipInstallFix(id=fix_id, title=title, description=description, python=python,
                         steps=tuple(s for s, _ in steps), pip_version=pip_version)


NINJA_TEXT = N_("ninja (the build tool PyTorch compiles with in parallel, from PyPI)")


def _arch_supported(arch_list: tuple[str, ...], cc: tuple[int, int]) -> bool:
    """Whether torch's arch list has this GPU (sm_XY), or PTX (compute_XY) it can JIT from."""
    sm = cc[0] * 10 + cc[1]
    for entry in arch_list:
        kind, _, number = entry.partition("_")
        if not number.isdigit():
            continue
        value = int(number)
        if kind == "sm" and value == sm:
            return True
        if kind == "compute" and value <= sm:
            return True
    return False


class _Finding(NamedTuple):
    """One thing wrong with the environment. ``gpu_only``: only the kernels with GPU code need
    it put right (a CPU-only or mismatched PyTorch, a missing ninja: the probe still builds its
    CPU part), so it rules those out instead of stopping every build."""

    status: CheckStatus
    text: Msg | str
    hint: Msg | str
    gpu_only: bool


# What a fix installs with pip, each with the words that say so.
_Steps = list[tuple[PipStep, Msg | str]]

_UNUSABLE = {EnvStatus.NOT_AN_INTERPRETER, EnvStatus.BROKEN, EnvStatus.UNREADABLE,
             EnvStatus.BITS32, EnvStatus.UNSUPPORTED_PYTHON}


def check_python_env(facts: SystemFacts) -> CheckResult:
    """Check 5: the target Python can build kernels (its C files, PyTorch, ninja). The worst
    finding leads, except that what rules the GPU kernels out leads over a warning; the fix
    installs the missing development files first, else what pip can install."""
    env = facts.env
    if env is None:
        return _no_environment()
    payload = _payload(env)
    lines = _environment_lines(env)

    def done(status: CheckStatus, summary: Msg | str, hint: Msg | str = "",
             fix: Fix | None = None, needed_for: tuple[str, ...] = ()) -> CheckResult:
        return CheckResult(CheckId.PYTHON_ENV, TITLE, status, summary,
                           join([*lines, WHY], "\n"), hint, fix, payload, needed_for)

    if env.status in _UNUSABLE:
        return done(CheckStatus.BLOCKED, env.summary, env.hint)
    if env.status is EnvStatus.NO_PIP:  # Python's own ensurepip installs it (no download)
        return done(CheckStatus.BLOCKED, env.summary, "", EnsurePipFix(env.executable))

    dev_fix, dev_finding = _dev_files(env, payload, lines)
    findings, steps = _torch_findings(facts, env)
    if env.ninja is None:
        findings.append(_Finding(CheckStatus.MISSING, N_("ninja is missing, so the big kernels "
                                 "would compile one file at a time (hours instead of "
                                 "minutes)."), "", True))
        steps.append((ninja_step(), NINJA_TEXT))
    if dev_finding is not None:
        findings.insert(0, dev_finding)
    fix: Fix | None = packages_fix(env.executable, env.pip_version, steps) if steps else None
    if dev_fix is not None:
        fix = dev_fix  # first things first: without headers nothing builds (pip fixes next)
    ruled_out = any(f.status.blocks and f.gpu_only for f in findings)
    findings = [f._replace(status=scoped(f.status, f.gpu_only)) for f in findings]
    status = worst(*(f.status for f in findings))
    if not findings:
        return done(CheckStatus.OK, _ready_summary(env))
    lead = next(f for f in findings if f.status is status)
    if ruled_out and not status.blocks:  # lead with what rules the GPU kernels out
        lead = next(f for f in findings if f.gpu_only)
    lines += [msg("• {finding}", finding=f.text) for f in findings if f is not lead]
    return done(status, lead.text, lead.hint, fix, facts.gpu_kernels if ruled_out else ())


def _no_environment() -> CheckResult:
    """No interpreter found to install into: say where to choose one."""
    # choose_python() for a first choice: "choose one on the Hardware step" (the GUI's,
    # marked here for translation) or "pass one with --python PATH"
    N_("choose one on the Hardware step")
    where = Msg(str(choose_python()).replace("another one", "one"))
    return CheckResult(CheckId.PYTHON_ENV, TITLE, CheckStatus.MISSING,
                       N_("No Python environment is chosen for the kernel."),
                       N_("The wizard found no Python interpreter to install into."),
                       msg("Choose the Python that should get the kernel: {where}.",
                           where=where))


def _payload(env: PythonEnv) -> dict[str, Any]:
    """The check's data for ``check --json``."""
    torch = env.torch
    return {
        "python": str(env.executable),
        "status": env.status.value,
        "python_version": env.version,
        "bits": env.bits,
        "pip": env.pip_version,
        "ninja": env.ninja,
        "torch": torch.version if torch else None,
        "torch_cuda": torch.cuda if torch else None,
        "torch_cuda_available": torch.cuda_available if torch else None,
    }


def _environment_lines(env: PythonEnv) -> list[Msg | str]:
    """The details' first lines: the interpreter, its Python, pip, ninja and PyTorch."""
    torch = env.torch
    lines: list[Msg | str] = [msg("Python: {python}", python=env.executable)]
    if env.version:
        lines.append(msg("Python {version}, {bits}-bit; pip {pip}; ninja {ninja}",
                         version=env.version, bits=env.bits,
                         pip=env.pip_version or msg("missing"),
                         ninja=env.ninja or msg("missing")))
    if torch is not None:
        lines.append(msg("PyTorch {version}, CUDA {cuda}, GPU usable from PyTorch: {usable}, "
                         "architectures: {archs}", version=torch.version,
                         cuda=torch.cuda or msg("none (CPU-only build)"),
                         usable=msg("yes") if torch.cuda_available else msg("no"),
                         archs=" ".join(torch.arch_list) or msg("none")))
    if env.detail:
        lines.append(env.detail)
    return lines


def _dev_files(env: PythonEnv, payload: dict[str, Any],
               lines: list[Msg | str]) -> tuple[PythonDevFilesFix | None, _Finding | None]:
    """Python's C headers and import library, which every build needs: what is missing (added
    to ``payload`` and ``lines``), and the fix that copies them in where one can."""
    dev = env.dev_files
    if dev is None or not dev.missing:
        return None, None
    payload["missing_dev_files"] = list(dev.missing)
    headers = msg("C headers (Python.h)") if not dev.python_h else None
    library = (msg("import library ({name})", name=dev.import_lib)
               if dev.import_lib_present is False else None)
    what: Msg | str = (msg("{first} and {second}", first=headers, second=library)
                       if headers and library else headers or library or "")
    lines.append(msg("Missing: {files}. Embedded Pythons (ComfyUI portable, python.org's "
                     "embeddable zip) come without them.", files=", ".join(dev.missing)))
    fix: PythonDevFilesFix | None = None
    if (env.implementation in (None, "CPython") and dev.release_level == "final"
            and env.version is not None and dev.include_dir is not None):
        fix = PythonDevFilesFix(env.version, dev.include_dir, dev.libs_dir,
                                dev.import_lib if dev.import_lib_present is False else None)
    return fix, _Finding(CheckStatus.MISSING, msg("This Python has no {what}, so no kernel can "
                         "be built for it.", what=what), "" if fix is not None else
                         msg("Install the full Python {version} from python.org (it has them) "
                             "and use that instead.", version=env.version), False)


def _torch_findings(facts: SystemFacts, env: PythonEnv) -> tuple[list[_Finding], _Steps]:
    """PyTorch: installed and importable, and a CUDA build where there is a GPU (no PyTorch
    stops every build; a CPU-only one only rules out the GPU kernels); with the pip steps that
    install the PyTorch that fits."""
    torch = env.torch
    if env.status is EnvStatus.NO_TORCH:
        return ([_Finding(CheckStatus.MISSING, N_("PyTorch is not installed in this "
                                                  "environment."), "", False)],
                [torch_step(facts, replace=False)])
    if env.status is EnvStatus.TORCH_BROKEN or torch is None:
        return ([_Finding(CheckStatus.BLOCKED, env.summary, env.hint, False)],
                [torch_step(facts, replace=True)])
    if torch.cuda is not None:
        return _cuda_torch_findings(facts, env, torch)
    if facts.hardware.usable_gpus:  # (without one, the Fix could only reinstall the CPU build)
        return ([_Finding(CheckStatus.MISSING, msg("PyTorch {version} here is a CPU-only "
                          "build, so GPU kernels can't be built for it (the probe kernel's "
                          "CPU part can).", version=torch.version), "", True)],
                [torch_step(facts, replace=True)])
    return ([_Finding(CheckStatus.WARNING, msg("PyTorch {version} is a CPU-only build and "
                      "there is no NVIDIA GPU: only the CPU probe kernel can be built.",
                      version=torch.version), "", False)], [])


def _cuda_torch_findings(facts: SystemFacts, env: PythonEnv,
                         torch: TorchInfo) -> tuple[list[_Finding], _Steps]:
    """A CUDA build of PyTorch: its CUDA against the driver's, its architectures against the
    GPUs', and whether it can use the GPU now."""
    findings: list[_Finding] = []
    steps: _Steps = []
    driver = facts.hardware.cuda_driver_version
    torch_cuda = torch.cuda_version
    if torch_cuda is not None and driver is not None and torch_cuda[0] > driver[0]:
        findings.append(_Finding(CheckStatus.BLOCKED, msg("PyTorch is built for CUDA {cuda}, "
                                 "but the driver supports only CUDA {driver}: PyTorch can't "
                                 "use the GPU.", cuda=torch.cuda, driver=vtext(driver)),
                                 N_("Install the PyTorch that fits the driver (Fix), or update "
                                    "the NVIDIA driver."), True))
        steps.append(torch_step(facts, replace=True))
    elif torch_cuda is not None and driver is not None and torch_cuda > driver:
        findings.append(_Finding(CheckStatus.WARNING, msg("PyTorch is built for CUDA {cuda}, "
                                 "newer than the driver's CUDA {driver}; it works through minor "
                                 "version compatibility.", cuda=torch.cuda,
                                 driver=vtext(driver)),
                                 N_("Updating the NVIDIA driver is safer."), False))
    missing_arch = [g for g in facts.hardware.usable_gpus if g.compute_capability is not None
                    and torch.arch_list
                    and not _arch_supported(torch.arch_list, g.compute_capability)]
    if missing_arch:
        names = ", ".join(f"{g.label} (sm_{g.sm})" for g in missing_arch)
        findings.append(_Finding(CheckStatus.BLOCKED, msg("This PyTorch has no code for "
                                                          "{names}.", names=names),
                                 N_("Install a PyTorch built for a newer CUDA (Fix)."), True))
        if not steps:
            steps.append(torch_step(facts, replace=True))
    if not torch.cuda_available and driver is not None and not findings:
        findings.append(_Finding(CheckStatus.WARNING, N_("PyTorch cannot use the GPU right "
                                 "now, so kernels can be built but not verified."), env.hint,
                                 False))
    return findings, steps


def _ready_summary(env: PythonEnv) -> Msg:
    """The summary when nothing is wrong: the Python, its PyTorch and CUDA."""
    torch = env.torch
    assert torch is not None
    if torch.cuda_available:
        return msg("Python {version} with PyTorch {torch} (CUDA {cuda}, GPU usable), pip and "
                   "ninja.", version=env.version, torch=torch.version, cuda=torch.cuda)
    return msg("Python {version} with PyTorch {torch} (CUDA {cuda}), pip and ninja.",
               version=env.version, torch=torch.version, cuda=torch.cuda)


__all__ = ["check_python_env", "packages_fix", "torch_step"]
