"""Issue 13, items 3, 4 and 5, without Qt: which prerequisites block, the compiler the build
really uses (CC/CXX), and advice that fits the machine and the front end.

Machines are the recorded ones: the H100 (tests/data/nvml/h100-driver580.json) and this
project's test machine without an NVIDIA driver (tests/data/nvml/no-driver-linux.json, written
by ``detect --record``), replayed through NVML; Windows compilers come from recorded vswhere
output (the builders of test_prereqs.py).
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from test_prereqs import GIB, HOST, env, facts, gcc_facts, windows

from kernel_wizard.base import advice
from kernel_wizard.catalog import assess, load_catalog, recommended_label
from kernel_wizard.cli.main import main as cli_main
from kernel_wizard.flow.session import Session, SessionServices
from kernel_wizard.machine.environment import EnvStatus
from kernel_wizard.machine.hardware import HardwareReport, detect
from kernel_wizard.machine.nvml_record import ReplayNvmlApi
from kernel_wizard.prereqs import CheckId, CheckStatus, run_checks
from kernel_wizard.prereqs.compiler import check_compiler
from kernel_wizard.prereqs.facts import (
    CompilerVariable,
    gather_compiler,
    gather_compiler_variables,
    prereq_platform,
)
from kernel_wizard.prereqs.fixes import PipInstallFix
from kernel_wizard.prereqs.kernels import with_prerequisites
from kernel_wizard.prereqs.resources import check_resources
from kernel_wizard.prereqs.target import check_python_env

NVML = Path(__file__).resolve().parents[1] / "data" / "nvml"


def replayed(name: str) -> HardwareReport:
    return replace(detect(lambda: ReplayNvmlApi.from_file(NVML / name)), host=HOST)


@pytest.fixture()
def terminal() -> Iterator[None]:
    advice.use_terminal()
    yield
    advice.use_terminal(False)


CPU_TORCH = {"torch": "2.13.0+cpu", "cuda": None, "available": False,
             "status": EnvStatus.CPU_TORCH}


# -- item 3: block only on what no kernel can do without ----------------------------------------


def test_a_gpu_with_cpu_torch_and_no_toolkit_blocks_nothing_but_rules_out_gpu_kernels() -> None:
    results = run_checks(facts(env=env(**CPU_TORCH), toolkits=()))
    assert [r.title for r in results if r.blocks] == []
    ruling = {r.id for r in results if r.rules_out}
    assert ruling == {CheckId.CUDA, CheckId.PYTHON_ENV}  # compat only waits for a toolkit
    names = {n for r in results for n in r.needed_for}
    assert {"FlashAttention 2", "FlashMLA"} <= names and "Probe kernel" not in names


def test_what_every_kernel_needs_still_blocks() -> None:
    no_torch = check_python_env(facts(env=env(torch=None, status=EnvStatus.NO_TORCH)))
    assert no_torch.blocks and not no_torch.rules_out
    no_gxx = check_compiler(facts(compiler=gcc_facts(gxx=False)))
    assert no_gxx.blocks
    tiny = check_resources(facts(hardware=replace(replayed("h100-driver580.json"),
                                                  host=replace(HOST, disk_free=GIB // 2))))
    assert tiny.blocks and "not even the small probe kernel fits" in tiny.summary


def test_the_session_verdict_rules_out_what_the_checks_found_missing(tmp_path: Path) -> None:
    hardware = replayed("h100-driver580.json")
    target = env(torch="2.9.0+cu130")  # a CUDA PyTorch: only the toolkit is missing
    session = Session(SessionServices(discover_toolkits=lambda: []), hardware=hardware,
                      environment=target)
    session.checks = run_checks(facts(hardware=hardware, env=target, toolkits=()))
    catalog = load_catalog()
    fa = catalog.get("flash_attn")
    machine = session.machine()
    alone = assess(fa, fa.newest, machine)
    assert alone.available  # the recipe alone: a warning that no toolkit is selected
    verdict = session.verdict(fa, fa.newest, machine)
    assert not verdict.available
    (reason,) = [r for r in verdict.reasons if r.fix_check]
    assert reason.fix_check == "cuda-toolkit"
    assert reason.text == "CUDA toolkit: No CUDA toolkit is installed."
    assert reason.hint == "Install CUDA 13.0: the Prerequisites step shows the commands to run."
    probe = catalog.get("probe")
    assert session.verdict(probe, probe.newest, machine).available  # the probe still builds
    # never the same prerequisite twice (the recipe's own CPU-only reason names python-env)
    cpu = replace(target, torch=env(**CPU_TORCH).torch)
    checks = run_checks(facts(hardware=hardware, env=cpu, toolkits=()))
    cpu_machine = replace(machine, env=cpu)
    both = with_prerequisites(assess(fa, fa.newest, cpu_machine), fa, checks)
    assert [r.fix_check for r in both.reasons].count("python-env") == 1


# -- item 4: the compiler the build uses ---------------------------------------------------------


def test_cxx_naming_no_program_blocks_the_compiler_check_and_names_the_variable() -> None:
    variables = gather_compiler_variables({"CXX": "/opt/nonexistent/g++",
                                           "PATH": os.environ.get("PATH", "")})
    assert variables == (CompilerVariable("CXX", "/opt/nonexistent/g++", None),)
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed here")
    compiler = gather_compiler(prereq_platform(), variables)  # the real gcc, the CXX given
    result = check_compiler(facts(compiler=compiler, compiler_variables=variables))
    assert result.status is CheckStatus.BLOCKED
    assert result.summary.startswith("The CXX variable is set to /opt/nonexistent/g++")
    assert "unset CXX" in result.hint


def test_cxx_naming_a_real_compiler_is_the_one_checked() -> None:
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ is not installed here")
    variables = gather_compiler_variables({"CXX": f"ccache {gxx}", "PATH": ""})
    compiler = gather_compiler(prereq_platform(), variables)
    result = check_compiler(facts(compiler=compiler, compiler_variables=variables))
    assert result.status is CheckStatus.OK
    assert f"the build uses CXX=ccache {gxx}" in result.summary


def test_windows_cxx_replacing_the_chosen_cl_exe_is_said() -> None:
    missing = (CompilerVariable("CXX", r"C:\LLVM\bin\clang-cl.exe", None),)
    blocked = check_compiler(windows(compiler_variables=missing))
    assert blocked.blocks and "CXX variable is set to C:\\LLVM\\bin\\clang-cl.exe" in \
        blocked.summary
    assert "Environment Variables" in blocked.hint
    other = (CompilerVariable("CXX", "clang-cl", None),)  # a name: maybe in the VS environment
    warned = check_compiler(windows(compiler_variables=other))
    assert warned.status is CheckStatus.WARNING
    assert "instead of the Visual Studio compiler (cl.exe)" in warned.summary
    plain = check_compiler(windows(compiler_variables=(CompilerVariable("CXX", "cl", None),)))
    assert plain.status is CheckStatus.OK  # "cl" is the compiler the wizard chose anyway


# -- item 5: advice that fits the machine and the front end ---------------------------------------


def test_no_driver_the_torch_fix_installs_the_cpu_build_and_says_its_size() -> None:
    machine = replayed("no-driver-linux.json")
    assert not machine.usable_gpus and machine.cuda_driver_version is None
    result = check_python_env(facts(hardware=machine, env=env(torch=None,
                                                              status=EnvStatus.NO_TORCH)))
    fix = result.fix
    assert isinstance(fix, PipInstallFix) and fix.title == "Install PyTorch (CPU build)"
    assert "--index-url https://download.pytorch.org/whl/cpu" in fix.command_preview[0]
    assert "about 200 MB" in fix.description and "GB" not in fix.description
    assert fix.description.count("200 MB") == 1  # the size once (it was said twice)
    assert " torch numpy " in " ".join(fix.command_preview) + " "  # no NumPy warning later
    text = " ".join([result.summary, result.hint, result.detail, fix.description])
    assert "fits your driver" not in text and "a CUDA build would be of no use" in text


def test_the_h100_torch_fix_installs_the_cuda_build_and_says_its_size() -> None:
    result = check_python_env(facts(hardware=replayed("h100-driver580.json"),
                                    env=env(torch=None, status=EnvStatus.NO_TORCH)))
    fix = result.fix
    assert isinstance(fix, PipInstallFix) and fix.title == "Install PyTorch with CUDA"
    assert "/whl/cu130" in fix.command_preview[0] and "2–3 GB" in fix.description


def test_the_probe_under_fits_never_says_it_needs_cuda() -> None:
    catalog = load_catalog()
    hardware = replayed("h100-driver580.json")
    machine = Session(hardware=hardware, environment=env(**CPU_TORCH),
                      services=SessionServices(discover_toolkits=lambda: [])).machine()
    probe = catalog.get("probe")
    verdict = assess(probe, probe.newest, machine)
    assert verdict.available and verdict.cpu_only
    assert not [w for w in verdict.warnings if w.startswith("Probe kernel needs")]
    assert any("the Probe kernel's GPU part needs a CUDA build of PyTorch" in w
               for w in verdict.warnings)
    fa = catalog.get("flash_attn")
    assert not recommended_label(fa, fa.newest, machine)  # it does not fit: never recommended
    assert all(not recommended_label(fa, v, machine) for v in fa.versions)


def test_the_terminal_hears_commands_never_pages(terminal: None, capsys: pytest.CaptureFixture[str]
                                                 ) -> None:
    catalog = load_catalog()
    hardware = replayed("h100-driver580.json")
    machine = Session(hardware=hardware, environment=env(**CPU_TORCH),
                      services=SessionServices(discover_toolkits=lambda: [])).machine()
    fa = catalog.get("flash_attn")
    reason = next(r for r in assess(fa, fa.newest, machine).reasons if r.fix_check)
    assert reason.hint.endswith("run: python -m app --headless fix python-env.")
    out = io.StringIO()
    code = cli_main(["check", "--replay", str(NVML / "no-driver-linux.json")], out=out)
    text = out.getvalue() + capsys.readouterr().err
    assert code in (0, 1) and "Prerequisites (" in text
    assert "page" not in text.lower()
