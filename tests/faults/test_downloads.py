"""Fault trials: prebuilt wheel downloads through the real CLI (``build --prebuilt URL``)
against a real HTTPS server on 127.0.0.1 whose test CA the CLI is told to trust
(REQUESTS_CA_BUNDLE), so the production rule "HTTPS only" holds in every trial.

Every trial asserts the documented exit code, a clear message, no traceback, the target
environment unchanged (``pip freeze``) and nothing installed. Most trials fail before anything
would need PyTorch, so they target the shared venv without it (``--force``: the probe kernel
"does not fit" a Python without PyTorch); the resume trial verifies the resumed wheel in a
Python with PyTorch.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import ksw_faults
import pytest
from download_testsupport import big_wheel, rewrite_wheel, tls_context
from ksw_testsupport import pip_freeze

from kernel_wizard.base.download import size_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from loopback_http import LoopbackServer, Resource, refused_port  # noqa: E402

_KIT = ksw_faults
assert_clean_failure, run_cli, start_cli = (_KIT.assert_clean_failure, _KIT.run_cli,
                                            _KIT.start_cli)

NAME = "ksw_probe_kernel-0.1.0-py3-none-any.whl"
FAILURE, CANCELLED = 1, 130
NO_PROXY = {"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
            "HTTPS_PROXY": "", "https_proxy": "", "HTTP_PROXY": "", "http_proxy": "",
            "ALL_PROXY": "", "all_proxy": ""}


@dataclass
class Https:
    server: LoopbackServer
    ca: Path


@pytest.fixture(scope="module")
def https(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Https]:
    context, ca = tls_context(tmp_path_factory.mktemp("tls"))
    server = LoopbackServer(tls=context).start()
    try:
        yield Https(server, ca)
    finally:
        server.stop()


@pytest.fixture(scope="module")
def target(plain_venv: Path) -> tuple[Path, str]:
    """The shared venv with pip and no PyTorch (tests/conftest.py) as the target, and its
    ``pip freeze`` before these trials: every trial checks it is still exactly that."""
    return plain_venv, pip_freeze(plain_venv)


@pytest.fixture
def wheel(kernel_wheel: Callable[[str], Path]) -> Path:
    return kernel_wheel("correct")


def prebuilt(url: str, data: Path, python: Path, https: Https | None,
             *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``build --kernel probe --prebuilt URL`` into ``python``, trusting the test CA."""
    if https is not None:
        env.setdefault("REQUESTS_CA_BUNDLE", str(https.ca))
    return run_cli("build", "--kernel", "probe", "--python", str(python), "--force", "--yes",
                   "--prebuilt", url, *extra, data=data, timeout=240, **NO_PROXY, **env)


def untouched(target: tuple[Path, str], data: Path) -> None:
    """The target environment exactly as before, and no install recorded."""
    python, before = target
    assert pip_freeze(python) == before
    assert not (data / "installs.json").exists()


def wheels_kept(data: Path) -> list[str]:
    folder = data / "downloads"
    return sorted(p.name for p in folder.rglob("*.whl*")) if folder.exists() else []


def test_html_page_served_as_200(https: Https, target: tuple[Path, str], tmp_path: Path) -> None:
    """a login page served with status 200 → exit 1, "a web page instead of the wheel" with its first words; nothing kept"""  # noqa: E501
    page = (b"<!doctype html><html><head><title>Corporate proxy: sign in</title></head>"
            b"<body><p>Your session has expired.</p></body></html>")
    url = https.server.add("/html/" + NAME, Resource(page, content_type="text/html"))
    result = prebuilt(url, tmp_path / "data", target[0], https)
    assert_clean_failure(result, FAILURE, f"The server sent a web page instead of the wheel "
                         f"{NAME}", "“Corporate proxy: sign in — Your session has expired.”",
                         "Nothing was installed")
    untouched(target, tmp_path / "data")
    assert wheels_kept(tmp_path / "data") == []


def test_404(https: Https, target: tuple[Path, str], tmp_path: Path) -> None:
    """the wheel's address answers 404 → exit 1, "not found on the server (HTTP 404)"; nothing kept"""  # noqa: E501
    result = prebuilt(https.server.url("/missing/" + NAME), tmp_path / "data", target[0], https)
    assert_clean_failure(result, FAILURE, f"The file {NAME} was not found on the server "
                         "(HTTP 404)", "The link may be out of date")
    # the header names the wheel's own version, not the recipe's (0.1.0)
    newer = "ksw_probe_kernel-0.2.0-py3-none-any.whl"
    result = prebuilt(https.server.url("/missing/" + newer), tmp_path / "data", target[0], https)
    assert "Kernel: Probe kernel 0.2.0 (prebuilt wheel: " in result.stderr + result.stdout
    assert "Probe kernel 0.1.0" not in result.stderr + result.stdout
    untouched(target, tmp_path / "data")
    assert wheels_kept(tmp_path / "data") == []


def test_500(https: Https, target: tuple[Path, str], tmp_path: Path) -> None:
    """the server answers 500 every time → exit 1 after 3 retries, "the server had a problem", try later"""  # noqa: E501
    url = https.server.add("/500/" + NAME, Resource(status=500))
    result = prebuilt(url, tmp_path / "data", target[0], https)
    assert_clean_failure(result, FAILURE, "The server had a problem and could not send",
                         "HTTP 500", "also after 3 retries", "try again in a few minutes")
    assert len(https.server.hits_for("/500/" + NAME)) == 4
    untouched(target, tmp_path / "data")


def test_record_hash_mismatch(https: Https, target: tuple[Path, str], wheel: Path,
                              tmp_path: Path) -> None:
    """a wheel one of whose files was altered after packing (no digest published) → exit 1, "damaged" naming the file; deleted"""  # noqa: E501
    bad = rewrite_wheel(wheel, tmp_path / "bad" / NAME,
                        {"ksw_probe/__init__.py": b"raise SystemExit('altered')\n"})
    url = https.server.add("/record/" + NAME, Resource(bad.read_bytes()))
    result = prebuilt(url, tmp_path / "data", target[0], https)
    assert_clean_failure(result, FAILURE, "is damaged: its files do not match its own list of "
                         "hashes (RECORD)", "The file ksw_probe/__init__.py does not match",
                         "the file was deleted")
    untouched(target, tmp_path / "data")
    assert wheels_kept(tmp_path / "data") == []


def test_renamed_wheel(https: Https, target: tuple[Path, str], wheel: Path,
                       tmp_path: Path) -> None:
    """a 0.1.0 wheel renamed to 0.2.0 → exit 1, "not what its name says" (inside is 0.1.0); deleted"""  # noqa: E501
    name = "ksw_probe_kernel-0.2.0-py3-none-any.whl"
    url = https.server.add("/renamed/" + name, Resource(wheel.read_bytes()))
    result = prebuilt(url, tmp_path / "data", target[0], https)
    assert_clean_failure(result, FAILURE, f"The downloaded wheel {name} is not what its name "
                         "says", "but inside is ksw_probe_kernel-0.1.0", "renamed")
    untouched(target, tmp_path / "data")
    assert wheels_kept(tmp_path / "data") == []


def test_content_length_too_small(https: Https, target: tuple[Path, str], wheel: Path,
                                  tmp_path: Path) -> None:
    """the server announces 5 kB less than the wheel, so the file arrives cut short → exit 1, "not a usable wheel … damaged or incomplete\""""  # noqa: E501
    data = big_wheel(wheel, tmp_path)
    url = https.server.add("/short/" + NAME, Resource(data, announce=len(data) - 5000))
    result = prebuilt(url, tmp_path / "data", target[0], https)
    assert_clean_failure(result, FAILURE, f"The downloaded file {NAME} is not a usable wheel",
                         "damaged or incomplete")
    untouched(target, tmp_path / "data")
    assert wheels_kept(tmp_path / "data") == []


def test_wrong_published_digest(https: Https, target: tuple[Path, str], wheel: Path,
                                tmp_path: Path) -> None:
    """a published sha256 (URL#sha256=…) that the file does not have → exit 1, "damaged or has changed", deleted and said so"""  # noqa: E501
    url = https.server.add("/digest/" + NAME, Resource(wheel.read_bytes()))
    result = prebuilt(url + "#sha256=" + "ab" * 32, tmp_path / "data", target[0], https)
    output = assert_clean_failure(result, FAILURE, "was damaged or has changed on the server",
                                  "but " + "ab" * 32 + " was expected",
                                  "The damaged file was deleted")
    assert "#sha256" not in https.server.hits_for("/digest/" + NAME)[0].path
    assert "Its SHA-256 is " in output
    untouched(target, tmp_path / "data")
    assert wheels_kept(tmp_path / "data") == []


def test_offline_connection_refused(target: tuple[Path, str], tmp_path: Path) -> None:
    """nothing listens at the address (as when offline) → exit 1, "Could not reach the server", check the connection"""  # noqa: E501
    sock, port = refused_port()
    try:
        result = prebuilt(f"https://127.0.0.1:{port}/{NAME}", tmp_path / "data", target[0],
                          None)
    finally:
        sock.close()
    assert_clean_failure(result, FAILURE, "Could not reach the server 127.0.0.1",
                         "the connection was refused", "Check the internet connection")
    untouched(target, tmp_path / "data")


def test_dns_failure(target: tuple[Path, str], tmp_path: Path) -> None:
    """a host name that does not resolve → exit 1, "the server's name could not be looked up\""""
    result = prebuilt(f"https://ksw-no-such-host.invalid/{NAME}", tmp_path / "data",
                      target[0], None)
    assert_clean_failure(result, FAILURE, "Could not reach the server ksw-no-such-host.invalid",
                         "the server's name could not be looked up")
    untouched(target, tmp_path / "data")


def test_untrusted_certificate(https: Https, target: tuple[Path, str], wheel: Path,
                               tmp_path: Path) -> None:
    """the server's certificate is not trusted (as behind an inspecting proxy) → exit 1, "secure connection … could not be established\""""  # noqa: E501
    url = https.server.add("/tls/" + NAME, Resource(wheel.read_bytes()))
    result = prebuilt(url, tmp_path / "data", target[0], None)  # the test CA is not given
    assert_clean_failure(result, FAILURE, "The secure connection to 127.0.0.1 could not be "
                         "established", "certificate was not accepted", "date and time")
    assert https.server.hits_for("/tls/" + NAME) == []  # no request went over it
    untouched(target, tmp_path / "data")


def test_plain_http_refused(target: tuple[Path, str], tmp_path: Path) -> None:
    """an http:// address → exit 1, "does not download over plain HTTP"; no connection made"""
    server = LoopbackServer().start()
    try:
        url = server.add("/" + NAME, Resource(b"never sent"))
        result = prebuilt(url, tmp_path / "data", target[0], None)
        assert server.hits == []
    finally:
        server.stop()
    assert_clean_failure(result, FAILURE, "The wizard does not download over plain HTTP",
                         "Use the https:// address")
    untouched(target, tmp_path / "data")


def test_wheel_of_another_package(https: Https, target: tuple[Path, str],
                                  tmp_path: Path) -> None:
    """--prebuilt names a FlashAttention wheel for the probe kernel → exit 1 before downloading, "is not a Probe kernel wheel\""""  # noqa: E501
    name = "flash_attn-2.8.3-py3-none-any.whl"
    url = https.server.add("/other/" + name, Resource(b"never sent"))
    result = prebuilt(url, tmp_path / "data", target[0], https)
    assert_clean_failure(result, FAILURE, "is not a Probe kernel wheel",
                         "It is a wheel of flash-attn, not of Probe kernel")
    assert https.server.hits_for("/other/" + name) == []
    untouched(target, tmp_path / "data")


def test_drip_then_die_then_resume(https: Https, scratch_torch_env: Path, wheel: Path,
                                   tmp_path: Path) -> None:
    """the server drips and drops the connection on every attempt → exit 1 "stopped at …", the part kept; the next run continues with Range, sends only the rest, verifies and records the sha256"""  # noqa: E501
    target = (scratch_torch_env, pip_freeze(scratch_torch_env))
    data = tmp_path / "data"
    body = big_wheel(wheel, tmp_path)
    resource = Resource(body, chunk=8 * 1024, chunk_delay=0.005, cut_after=64 * 1024,
                        cut_times=1000, cut_mode="reset")
    url = https.server.add("/drip/" + NAME, resource)
    first = prebuilt(url, data, target[0], https, "--no-install")
    assert_clean_failure(first, FAILURE, f"stopped at 262.1 kB of {size_text(len(body))}",
                         "The connection to 127.0.0.1 was lost", "also after 3 retries",
                         "the part already downloaded is kept and a later attempt continues")
    (part,) = (data / "downloads").rglob("*.whl.part")
    assert part.stat().st_size == 4 * 64 * 1024
    untouched(target, data)

    resource.cut_times = 0  # the server is well again
    sent_before = https.server.body_bytes("/drip/" + NAME)
    second = prebuilt(url, data, target[0], https, "--no-install")
    output = assert_clean_failure(second, 0, "continuing the earlier download that had stopped "
                                  "at 262.1 kB", "Verified; not installed (as asked).")
    last = https.server.hits_for("/drip/" + NAME)[-1]
    assert last.header("Range") == f"bytes={4 * 64 * 1024}-" and last.status == 206
    assert https.server.body_bytes("/drip/" + NAME) - sent_before == len(body) - 4 * 64 * 1024
    import hashlib
    import json

    digest = hashlib.sha256(body).hexdigest()
    assert f"sha256 {digest}" in output
    (report,) = (data / "reports").glob("*/report.json")
    meta = json.loads(report.read_text(encoding="utf-8"))["ksw_meta"]
    assert meta["wheel_sha256"] == digest and meta["wheel_download"]["url"] == url
    untouched(target, data)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
def test_ctrl_c_during_download(https: Https, target: tuple[Path, str], wheel: Path,
                                tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) during a slow download → exit 130, "cancelled; nothing was installed", the part kept and said so"""  # noqa: E501
    data = tmp_path / "data"
    body = big_wheel(wheel, tmp_path)
    url = https.server.add("/slow/" + NAME, Resource(body, chunk=4 * 1024, chunk_delay=0.02))
    proc = start_cli("build", "--kernel", "probe", "--python", str(target[0]), "--force",
                     "--yes", "--prebuilt", url, data=data, REQUESTS_CA_BUNDLE=str(https.ca),
                     **NO_PROXY)
    try:
        deadline = time.monotonic() + 60
        parts: list[Path] = []
        while time.monotonic() < deadline:
            parts = [p for p in (data / "downloads").rglob("*.whl.part") if p.stat().st_size]
            if parts or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert parts, "the download never started"
        proc.send_signal(signal.SIGINT)
        output, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    result = subprocess.CompletedProcess(proc.args, proc.returncode, output, "")
    assert_clean_failure(result, CANCELLED, "The download was cancelled; nothing was installed.",
                         "of the wheel are kept in", "continues from there")
    (part,) = (data / "downloads").rglob("*.whl.part")
    assert 0 < part.stat().st_size < len(body)
    untouched(target, data)
