"""What a user sees on real excerpts of late set s (tests/data/logs/late-2026-11-29s, issue 31),
studied after it was scored blind: the driver refusing a kernel's PTX (Blender's Cycles), an
install script asking for nvcc on PATH, Paddle's list of CUDA DLLs that do not load, and a
package's CUDA module with a suffix never built. Each excerpt is copied from the file named
beside it (S/ is the set's folder)."""

from __future__ import annotations

from diagnose_testsupport import cause, failed, family, first

S = "late-2026-11-29s"  # the set the excerpts come from (for the reader)


def test_the_driver_refusing_a_kernels_ptx_when_it_is_loaded() -> None:
    # S/objaverse-rendering-5-blender-cycles-unsupported-ptx-version.log
    line = ("Failed to load CUDA kernel from '/comp_robot/caohe/code/3d/objaverse-rendering/"
            "blender-3.2.2-linux-x64/3.2/scripts/addons/cycles/lib/kernel_compute_75.ptx' "
            "(Unsupported PTX version)")
    report = failed([line, "I use NVIDIA A100-40G with cuda11.1."])
    assert report.primary is not None and report.primary.signature_id == "driver-too-old"
    assert first(report) == line and family(report) == "first-use"


def test_an_install_script_asking_for_nvcc_on_path() -> None:
    # S/von-33-install-sh-nvcc-not-found-add-to-path.log
    report = failed(["bash install.sh",
                     "report error：cuda available but nvcc not found. Please add nvcc to $PATH."])
    assert report.primary is not None and report.primary.signature_id == "nvcc-not-on-path"
    assert family(report) == "environment"


def test_paddles_list_of_cuda_dlls_that_do_not_load() -> None:
    # S/paddle-69102-windows-cublas64-11-dll-run-check.log
    report = failed([
        "PreconditionNotMetError: The third-party dynamic library (cublas64_118.dll;"
        "cublas64_11.dll) that Paddle depends on is not configured correctly. (error code is 126)"])
    assert cause(report) == "library-mismatch" and family(report) == "import"
    assert report.primary is not None and "cublas64_118.dll" in report.primary.title


def test_a_cuda_module_with_a_suffix_never_built() -> None:
    # S/gptqmodel-927-windows-no-module-gptqmodel-cuda-64-cpu-build.log
    report = failed([
        "ValueError: Trying to use the cuda backend, but could not import the C++/CUDA "
        "dependencies with the following error: No module named 'gptqmodel_cuda_64'"])
    assert cause(report) == "built-without-cuda"
    assert cause(failed(["ModuleNotFoundError: No module named 'cuda_64_tools'"])) != \
        "built-without-cuda"
