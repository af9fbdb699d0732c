"""scripts/refresh_wheel_lists.py against a real HTTP server on loopback that answers like
GitHub's REST API (``/repos/{owner}/{repo}/releases``, pages linked by the ``Link`` header),
with release lists recorded from the publishers' real wheels (tests/data/wheel_lists/).

What a maintainer relies on: every page is read, each wheel keeps the digest and size GitHub
publishes (they reach the download check), a wheel rebuilt in several releases keeps the newest
copy, and a publisher that cannot be read keeps its previous list.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

import pytest

from kernel_wizard.catalog import load_catalog
from kernel_wizard.catalog import wheels as wheels_module
from kernel_wizard.catalog.wheels import candidate_wheel_urls, read_wheel_list
from kernel_wizard.machine.environment import EnvStatus, PythonEnv, TorchInfo

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "data" / "wheel_lists"
MJUN = "/repos/mjun0812/flash-attention-prebuild-wheels/releases"
WOCT = "/repos/woct0rdho/SageAttention/releases"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "refresh_wheel_lists", ROOT / "scripts" / "refresh_wheel_lists.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


refresh = _script()


class GitHubLike:
    """Serves recorded release pages: ``pages[path]`` is the list of page files; page N is at
    ``path?per_page=100`` (N = 1) or ``path?per_page=100&page=N``, and every page but the last
    names the next one in its ``Link`` header, as api.github.com does. ``fail[(path, N)]`` is
    an HTTP status to answer instead (GitHub's 403 when the rate limit is used up)."""

    def __init__(self) -> None:
        self.pages: dict[str, list[Path]] = {}
        self.fail: dict[tuple[str, int], int] = {}
        self.requests: list[str] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

            def do_GET(self) -> None:
                owner.requests.append(self.path)
                path, _, query = self.path.partition("?")
                params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
                number = int(params.get("page", "1"))
                files = owner.pages.get(path, [])
                status = owner.fail.get((path, number))
                if status is None and not (params.get("per_page") == "100"
                                           and 1 <= number <= len(files)):
                    status = 404
                if status is not None:
                    body = json.dumps({"message": "API rate limit exceeded" if status == 403
                                       else "Not Found"}).encode()
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                body = files[number - 1].read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                if number < len(files):
                    base = f"http://127.0.0.1:{owner.port}{path}?per_page=100"
                    self.send_header("Link", f'<{base}&page={number + 1}>; rel="next", '
                                             f'<{base}&page={len(files)}>; rel="last"')
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def github() -> Iterator[GitHubLike]:
    server = GitHubLike()
    server.pages[MJUN] = [RECORDED / "mjun0812" / "page-1.json",
                          RECORDED / "mjun0812" / "page-2.json"]
    server.pages[WOCT] = [RECORDED / "woct0rdho" / "page-1.json",
                          RECORDED / "woct0rdho" / "page-2.json"]
    server.thread.start()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()
    server.thread.join(timeout=5)


def test_every_page_is_read_with_digests_and_the_newest_copy(github: GitHubLike,
                                                             tmp_path: Path) -> None:
    status = refresh.main(["mjun0812", "--api", github.base, "--out", str(tmp_path),
                           "--date", "2026-11-28"])
    assert status == 0
    assert github.requests == [f"{MJUN}?per_page=100", f"{MJUN}?per_page=100&page=2"]
    written = read_wheel_list(tmp_path / "mjun0812.json")
    assert written.read == "2026-11-28" and written.complete
    assert written.publisher == "mjun0812/flash-attention-prebuild-wheels"
    assert github.base in written.origin and "3 releases, 7 wheel files" in written.origin
    assert written.wheels is not None and len(written.wheels) == 7
    win = written.find("flash_attn-2.8.3+cu126torch2.13-cp312-cp312-win_amd64.whl")
    assert win is not None
    assert win.sha256 == "51e15c8f887d07b1c99dfd653f8c1ea6c2c829ab75212863683348bc902df8da"
    assert win.size == 114581437
    assert win.url == ("https://github.com/mjun0812/flash-attention-prebuild-wheels/releases/"
                       "download/v0.9.52/flash_attn-2.8.3%2Bcu126torch2.13-cp312-cp312-"
                       "win_amd64.whl")
    # built in v0.4.17 and again in v0.4.15: the newest release's copy is kept
    twice = written.find("flash_attn-2.8.3+cu126torch2.9-cp311-cp311-linux_x86_64.whl")
    assert twice is not None and "/v0.4.17/" in twice.url and twice.sha256 is None


def test_a_refreshed_list_is_what_the_wizard_offers(github: GitHubLike, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert refresh.main(["woct0rdho", "--api", github.base, "--out", str(tmp_path)]) == 0
    monkeypatch.setattr(wheels_module, "wheel_lists_dir", lambda: tmp_path)
    wheels_module.load_wheel_list.cache_clear()
    try:
        sage = load_catalog().get("sageattention")
        torch = TorchInfo(version="2.13.0+cu130", cuda="13.0", cuda_available=True,
                          device_count=1, arch_list=("sm_120",), cxx11_abi=False)
        env = PythonEnv(executable=tmp_path / "python.exe", status=EnvStatus.READY, summary="",
                        version="3.13.2", platform_tag="win_amd64", interpreter_tag="cp313",
                        torch=torch)
        found = candidate_wheel_urls(sage, sage.newest, env)
    finally:
        wheels_module.load_wheel_list.cache_clear()
    # the recorded list's CUDA 13 stable-ABI wheels, the publisher's newest build first; the
    # published digest goes with its wheel to the download check
    assert [(c.filename, c.sha256) for c in found] == [
        ("sageattention-2.2.0+cu130torch2.10.0andhigher.post6-cp310-abi3-win_amd64.whl", None),
        ("sageattention-2.2.0+cu130torch2.10.0andhigher.post5-cp310-abi3-win_amd64.whl",
         "2262bfebb5466a4ed979613bd24ba674aceacb5fed6b43d8d6e4b847d1742943"),
        ("sageattention-2.2.0+cu130torch2.9.0andhigher.post4-cp39-abi3-win_amd64.whl", None),
    ]
    assert all(c.source_name.startswith("woct0rdho/SageAttention") for c in found)


def test_a_publisher_that_cannot_be_read_keeps_its_previous_list(
        github: GitHubLike, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    previous = tmp_path / "woct0rdho.json"
    previous.write_text("the previous list\n", encoding="utf-8")
    github.fail[(WOCT, 2)] = 403  # the rate limit runs out on the second page
    status = refresh.main(["woct0rdho", "mjun0812", "--api", github.base,
                           "--out", str(tmp_path)])
    assert status == 1
    assert previous.read_text(encoding="utf-8") == "the previous list\n"
    err = capsys.readouterr().err
    assert "woct0rdho: not refreshed, its previous list is kept" in err
    assert f"{WOCT}?per_page=100&page=2: HTTP 403" in err
    assert (tmp_path / "mjun0812.json").is_file()  # the other publisher was still refreshed
    assert not list(tmp_path.glob("*.part"))
