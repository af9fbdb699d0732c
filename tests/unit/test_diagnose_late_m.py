"""What a user sees on real excerpts of late set m (tests/data/logs/late-2026-11-29m, issue 31)
and of the precision audit (tests/data/logs/field/index-h.toml, index-i.toml): the classes the
set's one blind scoring got wrong or missed, and lines whose meaning the audit found to vary in
the wild. Each excerpt is copied from the file named beside it (M/ is the set's folder, F/ the
field corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest
from diagnose_testsupport import cause, failed, family, first

from kernel_wizard.base.errors import DiagnosisDataError
from kernel_wizard.diagnose import load_rules
from kernel_wizard.diagnose.rules import RetryAction

M = "late-2026-11-29m"  # the set the excerpts come from (for the reader)
FIELD = Path(__file__).resolve().parents[1] / "data" / "logs" / "field"


@pytest.mark.parametrize("lines", [
    # M/cuda-quantum-2065-macos-conda-cuda-nothing-provides-win.log
    ["Platform: osx-arm64",
     "Collecting package metadata (repodata.json): done",
     "Solving environment: failed",
     "",
     "LibMambaUnsatisfiableError: Encountered problems while solving:",
     "  - nothing provides __win needed by cuda-12.0.0-h7428d3b_0"],
    # M/cuquantum-38-macos-m1-conda-packagesnotfound.log
    ["PackagesNotFoundError: The following packages are not available from current channels:",
     "",
     "  - cuquantum-python",
     "",
     "Current channels:",
     "",
     "  - https://conda.anaconda.org/conda-forge/osx-arm64"],
])
def test_conda_without_a_cuda_package_for_a_mac_is_the_platform(lines: list[str]) -> None:
    report = failed(lines)
    assert cause(report) == "platform-unsupported"
    assert family(report) == "resolve"  # where it stopped: conda's solver
    assert report.primary is not None and "does not exist on a Mac" in report.primary.fix


def test_the_same_conda_failure_on_linux_names_no_platform() -> None:
    # the Mac is what makes it the platform: on Linux a package missing from the channels is
    # the resolve family alone
    report = failed([
        "PackagesNotFoundError: The following packages are not available from current channels:",
        "",
        "  - cuquantum-python",
        "",
        "  - https://conda.anaconda.org/conda-forge/linux-64"])
    assert cause(report) is None and family(report) == "resolve"


def test_mamba_unsatisfiable_is_the_solver_and_its_line_the_first_error() -> None:
    report = failed(["LibMambaUnsatisfiableError: Encountered problems while solving:",
                     "  - package foo-1.0 requires bar >=2, but none of the providers can be "
                     "installed"])
    assert family(report) == "resolve"
    assert first(report) == "LibMambaUnsatisfiableError: Encountered problems while solving:"


@pytest.mark.parametrize("line", [
    # M/sam2-59-cannot-import-name-c-from-sam2.log: the extension was never built
    "ImportError: cannot import name '_C' from 'sam2' (../segment/segment-anything-2/sam2/"
    "__init__.py)",
    "ImportError: cannot import name 'deform_conv_cuda' from 'mmdet.ops.dcn'",
])
def test_a_packages_own_compiled_module_missing_is_not_another_version(line: str) -> None:
    report = failed([line])
    assert cause(report) is None  # never "the dependency is not the version this code needs"
    assert family(report) == "import"


def test_another_version_of_a_pure_python_name_still_is() -> None:
    report = failed(["ImportError: cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main'"])
    assert cause(report) == "tool-version-required"


def test_nvccs_missing_host_compiler_with_a_dotted_version_is_the_first_error() -> None:
    # M/cell-detr-13-ccbin-gcc-6-3-0-no-such-file.log: -ccbin=gcc-6.3.0, no such compiler
    report = failed(["gcc-6.3.0: No such file or directory",
                     "nvcc fatal   : Failed to preprocess host compiler properties.",
                     "error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1"])
    assert first(report) == "gcc-6.3.0: No such file or directory"
    assert cause(report) == "build-tool-missing"
    assert report.primary is not None and "gcc-6.3.0" in report.primary.title


def test_onnxruntimes_provider_dll_without_a_closing_quote_is_named() -> None:
    # M/onnxruntime-20589-windows-csharp-providers-cuda-dll-126.log (C#, the line cut after
    # the DLL's path)
    line = ("Microsoft.ML.OnnxRuntime.OnnxRuntimeException:“[ErrorCode:RuntimeException] "
            "D:\\a_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1193 "
            "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary "
            "failed with error 126 \"\" when trying to load \"D:\\Projects\\Yolov8.Net\\bin\\"
            "Debug\\net6.0-windows\\runtimes\\win-x64\\native\\onnxruntime_providers_cuda.dll")
    report = failed([line])
    assert report.primary is not None
    assert report.primary.signature_id == "dll-dependency-missing"
    assert "onnxruntime_providers_cuda.dll" in report.primary.title + report.primary.cause


def test_gccs_killed_compiler_without_memory_evidence_names_no_memory_cause() -> None:
    # M/oneformer3d-87-minkowskiengine-cc1plus-killed.log: 24 GB did not help, never resolved
    report = failed(["c++: internal compiler error: Killed (program cc1plus)",
                     "Please submit a full bug report,",
                     "with preprocessed source if appropriate."])
    assert cause(report) is None
    assert family(report) == "compiler-crash"
    # ... and with the kernel's own memory evidence it does
    report = failed(["c++: internal compiler error: Killed (program cc1plus)",
                     "[ 1234.5] Out of memory: Killed process 4242 (cc1plus)"])
    assert cause(report) == "out-of-memory"


# --- the precision audit (field/index-i.toml) -------------------------------------------------


@pytest.mark.parametrize("line", [
    # F/llama-cpp-5542-nvcc-unknown-option-wall-cxx-flags.log
    "\tnvcc fatal   : Unknown option '-Wall'",
    # F/ahay-src-189-nvcc-unknown-option-fpic-scons.log
    "nvcc fatal   : Unknown option 'fPIC'",
    # F/llama-cpp-1079-nvcc-unknown-option-mf16c-cmake-3-17.log
    "nvcc fatal   : Unknown option '-mf16c'",
])
def test_a_host_compiler_option_given_to_nvcc_is_not_an_old_nvcc(line: str) -> None:
    assert cause(failed([line])) is None


@pytest.mark.parametrize("line", [
    "nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
    "nvcc fatal : Unknown option 't'",
    "nvcc fatal   : Unknown option '--extended-lambda'",
])
def test_an_nvcc_option_an_old_nvcc_lacks_still_is(line: str) -> None:
    report = failed([line])
    assert report.primary is not None
    assert report.primary.signature_id == "nvcc-too-old-for-option"


def test_an_old_gpu_is_not_a_pytorch_too_old() -> None:
    # F/deepstack-129-gt710-sm35-not-compatible-torch-too-new.log: a newer PyTorch dropped sm_35
    log = FIELD / "deepstack-129-gt710-sm35-not-compatible-torch-too-new.log"
    old = failed(log.read_text(encoding="utf-8").splitlines()[1:])
    assert old.primary is not None and old.primary.signature_id == "gpu-too-old-for-torch"
    assert "older PyTorch" in old.primary.fix and family(old) == "first-use"
    assert first(old) == ("NVIDIA GeForce GT 710 with CUDA capability sm_35 is not compatible "
                          "with the current PyTorch installation.")
    # Pascal to Turing are both ways (too new for an old PyTorch, dropped by new builds)
    both = failed(["/usr/lib/python3/torch/cuda/__init__.py:235: UserWarning:",
                   "NVIDIA GeForce GTX 1080 with CUDA capability sm_61 is not compatible with the "
                   "current PyTorch installation."])
    assert cause(both) is None
    # F/wyoming-xtts-1-rtx5060ti-sm120-cu128-image.log: a GPU newer than the PyTorch
    new = failed(["/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:287: "
                  "UserWarning: ",
                  "NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible "
                  "with the current PyTorch installation."])
    assert new.primary is not None
    assert new.primary.signature_id == "torch-too-old-for-gpu-arch"


@pytest.mark.parametrize("line", [
    # F/summarunner-32-torch-c-no-cuda-setdevice.log: a PyTorch without CUDA
    "AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'",
    # F/pytorch-39473-dis-py-shadows-stdlib-no-attribute-tensor.log: a file named like a module
    "AttributeError: module 'torch' has no attribute 'Tensor'",
])
def test_a_name_every_pytorch_has_is_not_a_pytorch_version(line: str) -> None:
    assert cause(failed([line])) is None


def test_a_pytorch_api_that_moved_still_is() -> None:
    report = failed(["AttributeError: module 'torch.library' has no attribute 'register_fake'"])
    assert cause(report) == "torch-api-changed"


def test_a_dataloaders_connection_reset_is_no_download() -> None:
    # F/pytorch-9127-dataloader-connectionreseterror.log
    report = failed([
        '  File "/usr/lib/python3.6/multiprocessing/resource_sharer.py", line 87, in '
        'get_connection',
        "    c = Client(address, authkey=process.current_process().authkey)",
        "ConnectionResetError: [Errno 104] Connection reset by peer"])
    assert cause(report) is None


@pytest.mark.parametrize("line", [
    # F/langchain-chatchat-3189-errno-28-inotify-watch-limit.log
    "OSError: [Errno 28] inotify watch limit reached",
    # F/hopsworks-1557-dataloader-shm-no-space-left.log
    "RuntimeError: unable to write to file </torch_3321_2548489829_0>: No space left on device "
    "(28)",
])
def test_enospc_that_is_not_the_disk_is_not_a_full_disk(line: str) -> None:
    assert cause(failed([line])) is None


def test_a_full_disk_still_is() -> None:
    # F/lerobot-59-errno-28-no-space-tmpdir.log
    assert cause(failed(["OSError: [Errno 28] No space left on device"])) == "disk-full"


def test_a_dataloader_worker_killed_is_the_program_not_the_compiler() -> None:
    # F/hopsworks-1557-dataloader-shm-no-space-left.log
    report = failed(["RuntimeError: DataLoader worker (pid 729) is killed by signal: Bus error. "
                     "It is possible that dataloader's workers are out of shared memory. Please "
                     "try to raise your shared memory limit."])
    assert family(report) == "first-use"


def test_a_container_without_the_gpu_is_not_an_old_driver() -> None:
    # F/denseflow-62-docker-opencv-cuda-driver-insufficient.log
    without = failed(["$ docker run -it -v /data:/data denseflow:latest bash",
                      "error: (-217:Gpu API call) CUDA driver version is insufficient for CUDA "
                      "runtime version in function 'setDevice'"])
    assert cause(without) is None
    with_gpus = failed(["$ docker run --gpus all -it denseflow:latest bash",
                        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA "
                        "runtime version"])
    assert cause(with_gpus) == "tool-version-required"


# --- the precision audit (field/index-h.toml) -------------------------------------------------


def test_a_bad_alloc_outside_any_build_is_not_the_compilers_memory() -> None:
    # F/pytorch-19668-bad-alloc-matlab-engine-after-torch.log: matlab.engine after torch
    lone = failed(["terminate called after throwing an instance of 'std::bad_alloc'",
                   "  what():  std::bad_alloc"])
    assert cause(lone) is None
    # ... in a build it is (the variant keeps the group's advice and retry)
    built = failed(["FAILED: build/temp.linux-x86_64-cpython-310/csrc/flash_api.o",
                    "terminate called after throwing an instance of 'std::bad_alloc'",
                    "  what():  std::bad_alloc",
                    "ninja: build stopped: subcommand failed."])
    assert built.primary is not None and built.primary.signature_id == "bad-alloc-in-build"
    assert built.primary.cause_group == "out-of-memory" and built.retry is not None


def test_a_loaders_tls_block_is_not_memory() -> None:
    # F/jetbot-507-libgomp-static-tls-block.log (aarch64: LD_PRELOAD the library)
    report = failed(["- `OSError: /usr/lib/aarch64-linux-gnu/libgomp.so.1: cannot allocate "
                     "memory in static TLS block`"])
    assert cause(report) is None and family(report) == "import"
    assert first(report) is not None and "static TLS block" in (first(report) or "")


def test_a_nonetype_plus_str_names_cuda_home_only_where_the_log_shows_it() -> None:
    # F/cobbler-1750-nonetype-plus-str-setup-py-install.log: cobbler's own setup.py
    cobbler = failed(['  File "setup.py", line 730, in <module>',
                      "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'"])
    assert cause(cobbler) is None
    # field/apex-990: torch's cpp_extension joining CUDA_HOME (None) with "bin/nvcc"
    apex = failed(['  File "/usr/lib/python3/site-packages/torch/utils/cpp_extension.py", '
                   "line 1180, in _join_cuda_home",
                   "    return os.path.join(CUDA_HOME, *paths)",
                   "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'"])
    assert cause(apex) == "cuda-home-not-set"


def test_an_old_architecture_refused_is_too_old_a_cuda_only_before_cuda_13() -> None:
    line = "nvcc fatal   : Unsupported gpu architecture 'compute_50'"
    # F/formats-9-compute-50-cuda-13-3.log: CUDA 13.3 shown after the error: it dropped sm_50
    dropped = failed([line, "Cuda compilation tools, release 13.3, V13.3.73"])
    assert dropped.primary is not None
    assert dropped.primary.signature_id == "gpu-arch-dropped-by-cuda13"
    # CUDA 7.5 shown: too old a CUDA for compute_60
    old = failed(["Cuda compilation tools, release 7.5, V7.5.17",
                  "nvcc fatal   : Unsupported gpu architecture 'compute_60'"])
    assert old.primary is not None and old.primary.signature_id == "cuda-too-old-for-old-arch"
    assert "too old" in old.primary.title
    # no version shown: either, so the family alone
    assert cause(failed([line])) is None
    # an architecture newer than the toolkit is too old a CUDA, whatever the log shows
    assert cause(failed(["nvcc fatal   : Unsupported gpu architecture 'compute_120'"])) == \
        "cuda-too-old-for-gpu-arch"


def test_cmake_finding_an_unsuitable_cuda_is_not_no_cuda() -> None:
    # F/caffe2-562-cuda-unsuitable-version-opencv-config.log
    lines = ["CMake Error at /usr/share/cmake-3.5/Modules/FindPackageHandleStandardArgs.cmake:148 "
             "(message):",
             '  Could NOT find CUDA: Found unsuitable version "8.0", but required is exact',
             '  version "7.5" (found /usr/local/cuda-8.0)']
    report = failed(lines)
    assert cause(report) is None
    assert first(report) == lines[1].strip()
    assert cause(failed(["  Could NOT find CUDA (missing: CUDA_TOOLKIT_ROOT_DIR "
                         "CUDA_NVCC_EXECUTABLE)"])) == "cuda-home-not-set"


def test_a_rocm_build_asking_for_cuda_home_is_not_told_to_install_cuda() -> None:
    # F/deepep-rocm-1-cuda-home-not-set-rocm-variant.log
    report = failed([" `python3 setup.py --variant rocm build develop`",
                     "`OSError: CUDA_HOME environment variable is not set. Please set it to "
                     "your CUDA install root.`",
                     "8 x AMD Instinct MI300X"])
    assert cause(report) is None


def test_cl_that_ran_and_failed_was_found() -> None:
    # F/monogs-147-cl-version-check-exit-status-2.log
    ran = failed(["UserWarning: Error checking compiler version for cl: Command 'cl' returned "
                  "non-zero exit status 2."])
    assert cause(ran) is None
    missing = failed(["UserWarning: Error checking compiler version for cl: [WinError 2] The "
                      "system cannot find the file specified"])
    assert cause(missing) == "msvc-not-found"


def test_a_path_too_long_is_not_a_command_line_too_long() -> None:
    # F/azure-cli-1221-winerror-206-ansible-long-path.log
    report = failed(["FileNotFoundError: [WinError 206] The filename or extension is too long: "
                     "'C:\\\\Users\\\\User_Name\\\\AppData\\\\Local\\\\Temp\\\\pip-build-ur7jw515"
                     "\\\\ansible\\\\test/integration'"])
    assert report.primary is None or report.primary.signature_id != \
        "windows-command-line-too-long"
    assert cause(failed(["The filename or extension is too long."])) == \
        "windows-command-line-too-long"


def test_a_torch_without_cuda_functions_is_a_cpu_only_pytorch_with_its_evidence() -> None:
    # F/ootdiffusion-110-torch-c-no-cuda-setdevice-cpu-torch.log is the line's first error
    line = "{AttributeError}module 'torch._C' has no attribute '_cuda_setDevice'"
    assert first(failed([line])) == line
    report = failed(["torch 2.0.1+cpu", "AttributeError: module 'torch._C' has no attribute "
                     "'_cuda_setDevice'"])
    assert report.primary is not None and report.primary.signature_id == "torch-cpu-only"


def test_a_variant_without_words_of_its_own_says_its_groups(tmp_path: Path) -> None:
    failures = tmp_path / "failures.toml"
    failures.write_text('''schema = 1

[[signature]]
id = "disk-full"
title = "The disk is full"
patterns = ['No space left on device']
severity = "error"
retry = "halve-jobs"
cause = """A compiler could not write its output."""
fix = """Free some space, then build again."""

[[signature]]
id = "disk-full-in-tmp"
group = "disk-full"
patterns = ['Errno 28']
confirmed_by = ['/tmp']
''', encoding="utf-8")
    rules = load_rules(failures)
    variant = rules.signature("disk-full-in-tmp")
    assert (variant.title, variant.fix, variant.retry) == (
        "The disk is full", "Free some space, then build again.", RetryAction.HALVE_JOBS)
    assert variant.confirmed_by and variant.cause_id == "disk-full"
    # a variant of no known group still needs its own words: a clear error, not a blank report
    failures.write_text(failures.read_text(encoding="utf-8").replace(
        'group = "disk-full"', 'group = "no-such-group"'), encoding="utf-8")
    with pytest.raises(DiagnosisDataError, match="missing the field 'title'"):
        load_rules(failures)
