"""``explain FILE`` (issue 31, item 2): any saved log of a failure, explained.

Real failing logs (the field corpus' training part) exit 1 with their first error line; real
logs of builds that succeeded (the recorded builds of tests/data/buildtimes, a pip install, a
ComfyUI start) exit 0; each marker of a failure exits 1 on its own, without an exit code at the
end; stdin, any encoding, a huge log streamed, the search link and the JSON schema.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from kernel_wizard.cli.main import main as cli_main
from kernel_wizard.diagnose.explain import (
    SCHEMA,
    explain_file,
    explain_lines,
    explain_stream,
    search_query,
    search_url,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

REPO = Path(__file__).resolve().parents[2]
LOGS = REPO / "tests" / "data" / "logs"
FIELD = LOGS / "field"
CLEAN = LOGS / "clean"
BUILDTIMES = REPO / "tests" / "data" / "buildtimes"

# A training log that holds no failure line: torch's note that it found no CUDA runtime (a
# machine without a GPU prints it on builds that succeed too); the thread says what failed.
NOT_A_FAILURE_BY_ITSELF = {"vllm-179-windows-no-cuda-runtime.log"}


def train_logs() -> list[dict[str, object]]:
    logs: list[dict[str, object]] = []
    for index in sorted(FIELD.glob("index-*.toml")):  # never tests/data/logs/late-*
        logs += [e for e in tomllib.loads(index.read_text(encoding="utf-8"))["log"]
                 if e["split"] == "train"]
    return logs


def recorded_build_lines(tlog: Path) -> list[str]:
    """What a recorded build printed, without its timestamps, exit and load lines."""
    lines = []
    for raw in tlog.read_text(encoding="utf-8").splitlines():
        _seconds, _tab, text = raw.partition("\t")
        if not text.startswith(("[exit ", "[load ")):
            lines.append(text + "\n")
    return lines


def run_cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli_main(["explain", *args], out=out)
    return code, out.getvalue()


def test_every_failing_training_log_exits_1_with_its_first_error() -> None:
    logs = train_logs()
    assert len(logs) >= 200
    start = time.process_time()  # (this process's CPU: a busy machine must not fail it)
    clean = []
    for entry in logs:
        result = explain_file(FIELD / str(entry["file"]))
        if not result.failed:
            clean.append(entry["file"])
            continue
        assert result.exit_code == 1
        assert result.first_error, entry["file"]
        assert result.search_url and result.search_url.startswith("https://github.com/")
    assert set(clean) == NOT_A_FAILURE_BY_ITSELF
    assert time.process_time() - start < len(logs) * 0.05  # far under 1 s a log


@pytest.mark.parametrize("name", [
    "flash-attention-509-nvcc-not-found.log",
    "apex-1594-no-module-packaging.log",
])
def test_the_cli_prints_the_first_error_verbatim_and_exits_1(name: str) -> None:
    code, text = run_cli(str(FIELD / name))
    assert code == 1
    expected = explain_file(FIELD / name)
    assert expected.first_error is not None
    assert expected.first_error.strip() in text
    assert "Next step:" in text
    assert expected.search_url is not None and expected.search_url in text


def test_recorded_successful_builds_are_clean(tmp_path: Path) -> None:
    tlogs = sorted(BUILDTIMES.glob("*.tlog")) + sorted(BUILDTIMES.glob("*/*.tlog"))
    assert len(tlogs) >= 10
    for tlog in tlogs:
        log = tmp_path / (tlog.stem + ".log")
        log.write_text("".join(recorded_build_lines(tlog)), encoding="utf-8")
        code, text = run_cli(str(log))
        assert (code, text.splitlines()[0]) == (0, "No failure found in this log."), tlog.name


def test_a_successful_pip_install_and_comfyui_start_are_clean() -> None:
    code, text = run_cli(str(CLEAN / "pip-install-flash-attn-ok.log"))
    assert code == 0
    assert "not a failure of this install" in text  # pip's resolver note, said for what it is
    code, _ = run_cli(str(CLEAN / "comfyui-start-ok.log"))
    assert code == 0


# Each marker of a failure, alone after a clean pip log: no exit code follows it.
MARKERS = [
    "Traceback (most recent call last):",
    '  File "/home/u/ComfyUI/nodes.py", line 2131, in load_custom_node',
    "Illegal instruction (core dumped)",
    "Illegal instruction",
    "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
    "    raise CalledProcessError(retcode, process.args,",
    "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 2",
    "error: command 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin\\nvcc.exe'"
    " failed with exit code 1",
    "Command '['which', 'g++']' returned non-zero exit status 1.",
    "ERROR: Command errored out with exit status 1: python setup.py egg_info Check the logs",
    "The command ninja -v failed",
    "  error: subprocess-exited-with-error",
    "ninja: build stopped: subcommand failed.",
    "exit status 1",
    "collect2: error: ld returned 1 exit status",
    "FAILED: /tmp/build/temp.linux-x86_64-cpython-312/csrc/flash_api.o",
    "ERROR: Failed building wheel for flash-attn",
    "Failed to build flash-attn",
    "Segmentation fault (core dumped)",
    "Killed",
    "   0.0 seconds (IMPORT FAILED): E:\\ComfyUI\\custom_nodes\\ComfyUI-WanVideoWrapper",
    # other languages' failures (late sets q-s, once called clean): Lua's require, Torch7's
    # package check, MATLAB's error, a Python exception quoted inside Chinese text
    "/home/intus/torch/install/bin/luajit: module 'cutorch' not found:",
    "package cutorch not found!\t",
    "Error using vl_compilenn>check_clpath (line 656)",
    "训练时一直显示ImportError: No module named bias_act_plugin和upfirdn2d_plugin的警告",
    "thread 'main' panicked at /home/u/.cargo/registry/src/cudarc-0.11.5/src/driver/sys/mod.rs:"
    "61:9:",
    "┌ Error: Error during initialization of CUDA.jl",
    "Fatal Python error: Aborted",
    "[16:10:33] stdout/INFO  triton.runtime.errors.OutOfResources: out of resource: shared memory",
    "CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmulAlgoGetHeuristic( ltHandle, ...)`",
    "I'm getting `CUDA error 100 at /go/src/x/ggml-cuda.cu:484: no CUDA-capable device is "
    "detected`",
    "错误\t1\terror MSB3721: 命令“nvcc.exe -gencode=arch=compute_61,code=sm_61”已退出，"
    "返回代码为 1。",
    "-- *** Found cuDNN, but we failed to compile the dlib/cmake_utils/test_for_cudnn project. ",
    "> Unable to load DLL 'DlibDotNetNativeDnn' or one of its dependencies: 找不到指定的模块。",
    'Compiling the CUDA compiler identification source file "CMakeCUDACompilerId.cu" failed.',
    # late set u: PyTorch's JIT build quoted with its command, a package failing to import
    "> RuntimeError: Error building extension 'nerfacc_cuda': [1/6] C:\\Program Files\\NVIDIA "
    "GPU Computing Toolkit\\CUDA\\v11.6\\bin\\nvcc --generate-dependencies-with-compile",
    "Failed to import CuPy.",
]


@pytest.mark.parametrize("marker", MARKERS)
def test_a_failure_marker_alone_is_never_clean(marker: str) -> None:
    clean = (CLEAN / "pip-install-flash-attn-ok.log").read_text(encoding="utf-8").splitlines()
    result = explain_lines([*clean[:12], marker])
    assert result.failed and result.exit_code == 1
    assert result.first_error is not None
    assert "No failure" not in result.describe()


def test_stdin_is_read_and_json_has_the_schema() -> None:
    log = (FIELD / "flash-attention-509-nvcc-not-found.log").read_bytes()
    run = subprocess.run([sys.executable, "-m", "app", "--headless", "explain", "-", "--json"],
                         input=log, capture_output=True, cwd=REPO, timeout=120, check=False)
    assert run.returncode == 1, run.stderr
    doc = json.loads(run.stdout)
    assert doc["schema"] == SCHEMA == "ksw.explain/1"
    assert {"failed", "first_error", "family", "cause", "advice", "search_url"} <= set(doc)
    assert doc["failed"] is True
    assert doc["first_error"].strip().startswith("RuntimeError: flash_attn was requested")
    assert doc["cause"]["id"] == "cuda-home-not-set"
    assert doc["search_url"].startswith("https://github.com/Dao-AILab/flash-attention/issues?q=")
    assert doc["family"] == "environment"  # the report's family (issue 31, item 1)
    assert doc["family_title"].startswith("checking the prerequisites")

    clean = (CLEAN / "comfyui-start-ok.log").read_bytes()
    run = subprocess.run([sys.executable, "-m", "app", "--headless", "explain", "-", "--json"],
                         input=clean, capture_output=True, cwd=REPO, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["failed"] is False and doc["first_error"] is None and doc["search_url"] is None


CHINESE = ("正在生成代码...\r\n"
           "flash_api.cpp(12): fatal error C1083: 无法打开包括文件: “cuda_runtime.h”: "
           "No such file or directory\r\n")


@pytest.mark.parametrize("encoding, bom", [
    ("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"),
    ("utf-16-le", b""), ("utf-16-be", b"\xfe\xff"), ("gb18030", b""),
])
def test_any_encoding_gives_the_first_error_verbatim(encoding: str, bom: bytes) -> None:
    data = bom + CHINESE.encode(encoding)
    result = explain_stream(io.BytesIO(data))
    assert result.failed
    assert result.first_error is not None
    assert "无法打开包括文件: “cuda_runtime.h”" in result.first_error


def test_a_windows_1252_line_is_read() -> None:
    data = "Fehler: Ungültiger Parameter\r\nerror: command 'cl.exe' failed: Größe\r\n"
    result = explain_stream(io.BytesIO(data.encode("cp1252")))
    assert result.failed and result.encoding == "cp1252"
    assert result.first_error is not None and "Größe" in result.first_error


def test_a_huge_log_is_streamed_and_an_overlong_line_is_cut(tmp_path: Path) -> None:
    log = tmp_path / "huge.log"
    with log.open("w", encoding="utf-8") as handle:
        handle.write("x" * 3_000_000 + "\n")  # one line longer than the read limit
        for i in range(150_000):
            handle.write(f"[{i}/150000] Building CUDA object csrc/unit_{i}.o\n")
        handle.write("/usr/bin/ld: cannot find -lcuda\n")
    # the CPU time of this process, not the wall clock: a machine busy with other work (CI's
    # parallel workers on two cores) must not fail it; a read that is not linear takes minutes
    start = time.process_time()
    result = explain_file(log)
    assert time.process_time() - start < 30
    assert result.failed
    assert result.first_error == "/usr/bin/ld: cannot find -lcuda"
    assert result.lines == 150_002


def test_the_search_link_strips_paths_and_addresses_and_is_short() -> None:
    line = ("/home/alice/.cache/pip/flash-attention/csrc/flash_attn/src/flash_fwd.cu:12:5: "
            "error: identifier \"cute::TMA\" is undefined at 0x7f3abc001234 " + "word " * 60)
    query = search_query(line)
    assert "alice" not in query and "/home" not in query and "0x7f" not in query
    assert query.startswith('flash_fwd.cu: error: identifier "cute::TMA" is undefined at')
    assert len(query) <= 120
    windows = (r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\include\crt"
               r"\host_config.h(153): fatal error C1189: #error: -- unsupported Microsoft "
               r"Visual Studio version!")
    assert search_query(windows).startswith("host_config.h : fatal error C1189")
    comfy = r"   0.0 seconds (IMPORT FAILED): E:\ComfyUI\custom_nodes\ComfyUI-WanVideoWrapper"
    assert search_query(comfy) == "0.0 seconds (IMPORT FAILED): ComfyUI-WanVideoWrapper"
    home = "PermissionError: [Errno 13] Permission denied: '/home/john-doe'"
    assert "john" not in search_query(home)
    url = search_url("ImportError: DLL load failed", "thu-ml/SageAttention")
    parsed = urlparse(url)
    assert (parsed.netloc, parsed.path) == ("github.com", "/thu-ml/SageAttention/issues")
    assert parse_qs(parsed.query)["q"] == ["is:issue ImportError: DLL load failed"]
    general = urlparse(search_url("error: foo", None, "mmcv"))
    assert general.path == "/search" and parse_qs(general.query)["q"] == ["mmcv error: foo"]


@pytest.mark.parametrize("lines, repo", [
    (["Collecting flash-attn", "  Building wheel for flash-attn (setup.py): finished with "
      "status 'error'", "error: command 'gcc' failed with exit code 1"],
     "Dao-AILab/flash-attention"),
    (["Building wheel for sageattention (setup.py) ... error",
      "ninja: build stopped: subcommand failed."], "thu-ml/SageAttention"),
    (["  File \"/x/site-packages/flash_mla/flash_mla_interface.py\", line 5, in <module>",
      "ImportError: libcudart.so.13: cannot open shared object file"], "deepseek-ai/FlashMLA"),
    (["Traceback (most recent call last):", "  File \"test_intranode.py\", line 9",
      "    import deep_ep", "ModuleNotFoundError: No module named 'deep_ep'"],
     "deepseek-ai/DeepEP"),
    (["Running setup.py install for apex ... error", "error: command 'cl.exe' failed"],
     "NVIDIA/apex"),
])
def test_the_search_goes_to_the_failing_packages_tracker(lines: list[str], repo: str) -> None:
    result = explain_lines(lines)
    assert result.failed and result.tracker == repo
    assert result.search_url is not None
    assert result.search_url.startswith(f"https://github.com/{repo}/issues?q=")


def test_an_unknown_package_gets_a_general_search_with_its_name() -> None:
    result = explain_lines(["Building wheel for mmcv-full (setup.py) ... error",
                            "error: command 'g++' failed with exit code 1"])
    assert result.tracker is None and result.search_url is not None
    assert result.search_url.startswith("https://github.com/search?q=mmcv-full+")


def test_an_unknown_cause_gets_where_it_stopped_and_that_familys_next_step() -> None:
    result = explain_lines(["Building wheel for mmcv-full (setup.py) ... error",
                            "[1/3] /usr/local/cuda/bin/nvcc -c roi_align.cu -o roi_align.o",
                            "roi_align.cu(12): error: expected a \";\"",
                            "ninja: build stopped: subcommand failed."])
    assert result.failed and result.cause is None
    assert result.family == "compile"
    assert result.first_error == 'roi_align.cu(12): error: expected a ";"'
    text = result.describe()
    assert "Stopped while compiling the package's source." in text
    assert "The cause is not one the wizard knows. It stopped while" in text
    assert result.advice and "Next step: " + result.advice in text


def test_a_missing_file_is_an_error_not_a_traceback(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run_cli(str(tmp_path / "nope.log"))
    assert code == 6  # ExitCode.STORAGE: neither "failed" (1) nor "clean" (0)
    err = capsys.readouterr().err
    assert "There is no log file" in err and "nope.log" in err and "Traceback" not in err
