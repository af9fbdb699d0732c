"""The downloader against a real HTTP server on 127.0.0.1 (see loopback_http.py)."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path

import pytest
from loopback_http import LoopbackServer, Resource, refused_port

from kernel_wizard.base.download import (
    DownloadError,
    DownloadProgress,
    download,
    part_path,
    record_path,
)
from kernel_wizard.base.download.wording import check_scheme
from kernel_wizard.base.errors import Cancelled, ExitCode

SIZE = 2 * 1024 * 1024 + 12345  # a little over 2 MiB: many chunks, still fast
DATA = bytes((i * 7 + i // 251) % 256 for i in range(SIZE))
SHA = hashlib.sha256(DATA).hexdigest()


pytestmark = pytest.mark.usefixtures("no_proxy")  # tests/integration/conftest.py


def leftovers(dest: Path) -> list[str]:
    """Names in dest's folder that belong to this download (dest, part, side files)."""
    if not dest.parent.exists():
        return []
    return sorted(p.name for p in dest.parent.iterdir() if p.name.startswith(dest.name))


def test_success_verifies_sha256_and_writes_only_dest(
    server: LoopbackServer, tmp_path: Path
) -> None:
    url = server.add("/file.bin", Resource(DATA))
    dest = tmp_path / "file.bin"
    seen: list[DownloadProgress] = []

    result = download(
        url, dest, sha256=SHA, expected_size=SIZE, allow_http=True, progress=seen.append
    )

    assert dest.read_bytes() == DATA
    assert (result.path, result.size, result.sha256) == (dest, SIZE, SHA)
    assert not result.resumed and not result.from_cache
    assert leftovers(dest) == ["file.bin", "file.bin.json"]  # the file and its record
    record = json.loads(record_path(dest).read_text(encoding="utf-8"))
    assert record["sha256"] == SHA and record["size"] == SIZE and record["url"] == url
    hit = server.hits_for("/file.bin")[0]
    assert hit.header("Accept-Encoding") == "identity"
    # progress: throttled, monotonic, ends with the complete file
    assert seen and seen[-1].received == SIZE and seen[-1].total == SIZE
    assert seen[-1].eta_seconds == 0.0
    assert [p.received for p in seen] == sorted(p.received for p in seen)
    assert len(seen) <= 2 + 10 * (result.seconds + 0.2)


def test_resume_after_dropped_connection(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add(
        "/drop.bin", Resource(DATA, cut_after=1024 * 1024, cut_times=1, cut_mode="reset")
    )
    dest = tmp_path / "drop.bin"

    result = download(url, dest, sha256=SHA, allow_http=True)

    assert dest.read_bytes() == DATA
    assert result.resumed
    first, second = server.hits_for("/drop.bin")
    assert first.header("Range") is None
    assert second.status == 206
    resumed_at = int((second.header("Range") or "bytes=0-").removeprefix("bytes=").rstrip("-"))
    assert 0 < resumed_at <= 1024 * 1024  # it asked only for what it did not have
    assert second.header("If-Range") == '"v1"'
    assert server.body_bytes("/drop.bin") < 2 * SIZE
    assert leftovers(dest) == ["drop.bin", "drop.bin.json"]


def test_404_is_a_plain_error_and_leaves_nothing(server: LoopbackServer, tmp_path: Path) -> None:
    dest = tmp_path / "missing.bin"
    with pytest.raises(DownloadError) as info:
        download(server.url("/missing.bin"), dest, allow_http=True)
    err = info.value
    assert "not found" in err.what and "HTTP 404" in err.what
    assert err.hint
    assert leftovers(dest) == []
    assert len(server.hits_for("/missing.bin")) == 1  # a 404 is not retried


def test_403_and_5xx_in_plain_words(server: LoopbackServer, tmp_path: Path) -> None:
    forbidden = server.add("/forbidden", Resource(status=403))
    with pytest.raises(DownloadError) as info:
        download(forbidden, tmp_path / "f.bin", allow_http=True)
    assert "refused" in info.value.what and "HTTP 403" in info.value.what

    broken = server.add("/broken", Resource(status=503))
    with pytest.raises(DownloadError) as info:
        download(broken, tmp_path / "b.bin", allow_http=True, max_retries=1)
    assert "server had a problem" in info.value.what and "HTTP 503" in info.value.what
    assert "try again in a few minutes" in info.value.hint
    assert len(server.hits_for("/broken")) == 2  # a 5xx is retried
    assert leftovers(tmp_path / "f.bin") == [] and leftovers(tmp_path / "b.bin") == []


def test_truncated_body_keeps_part_and_a_later_call_resumes(
    server: LoopbackServer, tmp_path: Path
) -> None:
    cut = 700 * 1024
    url = server.add("/trunc.bin", Resource(DATA, cut_after=cut, cut_times=1, cut_mode="close"))
    dest = tmp_path / "trunc.bin"

    with pytest.raises(DownloadError) as info:
        download(url, dest, sha256=SHA, allow_http=True, max_retries=0)
    err = info.value
    assert "stopped at 716.8 kB of 2.1 MB" in err.what
    assert "kept" in err.hint and "continues" in err.hint
    assert not dest.exists()
    assert part_path(dest).read_bytes() == DATA[:cut]
    assert leftovers(dest) == ["trunc.bin.part", "trunc.bin.part.json"]

    result = download(url, dest, sha256=SHA, allow_http=True, max_retries=0)
    assert result.resumed and dest.read_bytes() == DATA
    assert server.hits_for("/trunc.bin")[1].header("Range") == f"bytes={cut}-"
    assert server.body_bytes("/trunc.bin") == SIZE  # not one byte twice
    assert leftovers(dest) == ["trunc.bin", "trunc.bin.json"]


def test_wrong_sha256_deletes_everything(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/file.bin", Resource(DATA))
    dest = tmp_path / "file.bin"
    with pytest.raises(DownloadError) as info:
        download(url, dest, sha256="0" * 64, allow_http=True)
    assert "damaged or has changed" in info.value.what
    assert SHA in info.value.why
    assert leftovers(dest) == []


def test_wrong_expected_size_deletes_everything(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/file.bin", Resource(DATA))
    dest = tmp_path / "file.bin"
    with pytest.raises(DownloadError) as info:
        download(url, dest, expected_size=SIZE - 1, allow_http=True)
    assert "damaged or has changed" in info.value.what
    assert leftovers(dest) == []


def test_wrong_expected_size_without_content_length_deletes_everything(
    server: LoopbackServer, tmp_path: Path
) -> None:
    # The server's Content-Length agrees; the caller expected more: found only at the end.
    url = server.add("/file.bin", Resource(DATA))
    dest = tmp_path / "file.bin"
    with pytest.raises(DownloadError) as info:
        download(url, dest, expected_size=SIZE + 1, allow_http=True)
    assert "damaged or has changed" in info.value.what
    assert leftovers(dest) == []


def test_server_ignoring_range_restarts_from_zero(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add(
        "/norange.bin",
        Resource(DATA, ranges=False, cut_after=900 * 1024, cut_times=1, cut_mode="close"),
    )
    dest = tmp_path / "norange.bin"

    result = download(url, dest, sha256=SHA, allow_http=True)

    assert dest.read_bytes() == DATA
    assert not result.resumed
    first, second = server.hits_for("/norange.bin")
    assert second.header("Range") == f"bytes={900 * 1024}-"  # it asked ...
    assert second.status == 200  # ... and got the whole file again


def test_changed_file_on_server_restarts_from_zero(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/v.bin", Resource(DATA, cut_after=500 * 1024, cut_times=1))
    dest = tmp_path / "v.bin"
    with pytest.raises(DownloadError):
        download(url, dest, allow_http=True, max_retries=0)
    new = DATA[::-1]
    server.add("/v.bin", Resource(new, etag='"v2"', last_modified=None))

    result = download(url, dest, sha256=hashlib.sha256(new).hexdigest(), allow_http=True)

    assert dest.read_bytes() == new and not result.resumed
    assert server.hits_for("/v.bin")[1].header("If-Range") == '"v1"'
    assert server.hits_for("/v.bin")[1].status == 200  # If-Range did not match: whole file


def test_complete_part_answered_416_is_verified(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/done.bin", Resource(DATA, cut_after=SIZE, cut_times=1, cut_mode="reset"))
    dest = tmp_path / "done.bin"
    # A part that holds every byte but whose rename never happened (as after a crash).
    part_path(dest).write_bytes(DATA)
    part_path(dest).with_name("done.bin.part.json").write_text(
        json.dumps(
            {
                "schema": "ksw.download-part/1",
                "url": url,
                "etag": '"v1"',
                "last_modified": None,
                "total": SIZE,
                "expected_size": None,
                "sha256": None,
            }
        ),
        encoding="utf-8",
    )

    result = download(url, dest, sha256=SHA, allow_http=True)

    assert dest.read_bytes() == DATA and result.resumed
    (hit,) = server.hits_for("/done.bin")
    assert hit.status == 416 and hit.body_bytes == 0


def test_part_of_another_url_is_discarded(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/file.bin", Resource(DATA))
    dest = tmp_path / "file.bin"
    part_path(dest).write_bytes(b"x" * 1000)
    part_path(dest).with_name("file.bin.part.json").write_text(
        json.dumps(
            {
                "schema": "ksw.download-part/1",
                "url": server.url("/other.bin"),
                "etag": '"v1"',
                "last_modified": None,
                "total": SIZE,
                "expected_size": None,
                "sha256": None,
            }
        ),
        encoding="utf-8",
    )

    result = download(url, dest, sha256=SHA, allow_http=True)

    assert dest.read_bytes() == DATA and not result.resumed
    assert server.hits_for("/file.bin")[0].header("Range") is None


def test_resume_by_last_modified_and_no_resume_without_validator(
    server: LoopbackServer, tmp_path: Path
) -> None:
    dated = server.add("/dated.bin", Resource(DATA, etag=None, cut_after=300_000, cut_times=1))
    result = download(dated, tmp_path / "dated.bin", sha256=SHA, allow_http=True)
    assert result.resumed
    assert server.hits_for("/dated.bin")[1].header("If-Range") == "Wed, 21 Oct 2015 07:28:00 GMT"

    bare = server.add(
        "/bare.bin", Resource(DATA, etag=None, last_modified=None, cut_after=300_000, cut_times=1)
    )
    result = download(bare, tmp_path / "bare.bin", sha256=SHA, allow_http=True)
    assert not result.resumed and (tmp_path / "bare.bin").read_bytes() == DATA
    assert server.hits_for("/bare.bin")[1].header("Range") is None  # nothing to check it against


def test_cached_dest_with_matching_hash_makes_no_request(
    server: LoopbackServer, tmp_path: Path
) -> None:
    url = server.add("/file.bin", Resource(DATA))
    dest = tmp_path / "file.bin"
    dest.write_bytes(DATA)  # put there by hand: the hash alone vouches for it

    seen: list[DownloadProgress] = []
    result = download(url, dest, sha256=SHA, allow_http=True, progress=seen.append)

    assert [(p.received, p.total) for p in seen] == [(SIZE, SIZE)]  # the bar still completes
    assert result.from_cache and result.sha256 == SHA and result.size == SIZE
    assert server.hits == []


def test_cached_dest_with_wrong_hash_is_downloaded_again(
    server: LoopbackServer, tmp_path: Path
) -> None:
    url = server.add("/file.bin", Resource(DATA))
    dest = tmp_path / "file.bin"
    dest.write_bytes(DATA[:-1] + b"\x00")

    result = download(url, dest, sha256=SHA, allow_http=True)

    assert not result.from_cache and dest.read_bytes() == DATA
    assert len(server.hits) == 1


def test_cache_without_sha256_trusts_only_its_own_record(
    server: LoopbackServer, tmp_path: Path
) -> None:
    url = server.add("/file.bin", Resource(DATA))
    dest = tmp_path / "file.bin"

    dest.write_bytes(DATA)  # no record: not trusted
    assert not download(url, dest, expected_size=SIZE, allow_http=True).from_cache
    assert len(server.hits) == 1

    # now the record exists: reused without a request
    again = download(url, dest, expected_size=SIZE, allow_http=True)
    assert again.from_cache and again.sha256 == SHA
    assert len(server.hits) == 1

    # the file changed on disk after it was verified: downloaded again
    dest.write_bytes(b"tampered" + DATA[8:])
    assert not download(url, dest, allow_http=True).from_cache
    assert dest.read_bytes() == DATA and len(server.hits) == 2


def test_cancel_mid_download_keeps_part_then_resumes(
    server: LoopbackServer, tmp_path: Path
) -> None:
    url = server.add("/slow.bin", Resource(DATA, chunk_delay=0.01))
    dest = tmp_path / "slow.bin"
    cancel = threading.Event()
    cancelled_at: list[float] = []

    def on_progress(p: DownloadProgress) -> None:
        if p.received >= 256 * 1024 and not cancel.is_set():
            cancelled_at.append(time.monotonic())
            cancel.set()

    with pytest.raises(Cancelled) as info:
        download(url, dest, sha256=SHA, allow_http=True, progress=on_progress, cancel=cancel)
    assert time.monotonic() - cancelled_at[0] < 1.0
    assert info.value.exit_code is ExitCode.CANCELLED
    assert not isinstance(info.value, DownloadError)  # not reported as a failed download
    kept = part_path(dest).stat().st_size
    assert 256 * 1024 <= kept < SIZE
    assert not dest.exists()

    result = download(url, dest, sha256=SHA, allow_http=True)
    assert result.resumed and dest.read_bytes() == DATA
    assert server.hits_for("/slow.bin")[1].header("Range") == f"bytes={kept}-"


def test_cancel_before_start_makes_no_request(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/file.bin", Resource(DATA))
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        download(url, tmp_path / "file.bin", allow_http=True, cancel=cancel)
    assert server.hits == []


def test_connection_refused_says_unreachable(tmp_path: Path) -> None:
    sock, port = refused_port()
    try:
        started = time.monotonic()
        with pytest.raises(DownloadError) as info:
            download(f"http://127.0.0.1:{port}/file.bin", tmp_path / "file.bin", allow_http=True)
    finally:
        sock.close()
    err = info.value
    assert "Could not reach the server" in err.what
    assert "offline" in err.why and "unreachable" in err.why and "refused" in err.why
    assert "internet connection" in err.hint
    assert time.monotonic() - started < 5  # not retried: nothing was ever reached
    assert leftovers(tmp_path / "file.bin") == []


def test_plain_http_is_refused_without_opt_in(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/file.bin", Resource(DATA))
    with pytest.raises(DownloadError) as info:
        download(url, tmp_path / "file.bin")
    assert "plain HTTP" in info.value.what and "https://" in info.value.why
    assert server.hits == []
    with pytest.raises(DownloadError):
        download("ftp://example.invalid/x", tmp_path / "file.bin")


def test_spaces_and_non_ascii_in_dest(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.add("/file.bin", Resource(DATA, cut_after=400_000, cut_times=1, cut_mode="reset"))
    dest = tmp_path / "Dösen Ordner" / "file name ü.bin"  # the folder does not exist yet

    result = download(url, dest, sha256=SHA, allow_http=True)

    assert dest.read_bytes() == DATA and result.resumed
    assert leftovers(dest) == ["file name ü.bin", "file name ü.bin.json"]
    assert download(url, dest, sha256=SHA, allow_http=True).from_cache


def test_bad_arguments_are_programming_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        download("https://example.invalid/x", tmp_path / "x", sha256="abc")
    with pytest.raises(ValueError):
        download("https://example.invalid/x", tmp_path / "x", max_retries=-1)


def test_redirect_from_https_to_http_is_refused() -> None:
    # No HTTPS server on loopback without a certificate: the check every hop passes through.
    check_scheme("https://a.example/x", "https://b.example/x", False)
    with pytest.raises(DownloadError) as info:
        check_scheme("https://a.example/x", "http://b.example/x", False)
    assert "redirected to an insecure address" in info.value.what
