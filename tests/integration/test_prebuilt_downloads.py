"""Prebuilt wheel downloads against a real HTTP server on 127.0.0.1: one stable folder per URL
(resume across runs, reuse of a checked wheel), and the checks a source without a published
digest still gets (size, web pages served as 200, RECORD hashes, renamed wheels)."""

from __future__ import annotations

import hashlib
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from download_testsupport import big_wheel, rewrite_wheel
from loopback_http import LoopbackServer, Resource

from kernel_wizard.base.download import DownloadError, download, part_path
from kernel_wizard.base.paths import url_cache_dir
from kernel_wizard.build.prebuilt import fetch_prebuilt
from kernel_wizard.build.progress_view import line_text as progress_text
from kernel_wizard.build.run import BuildOutcome, BuildStatus, LogLine, ProgressEvent
from kernel_wizard.catalog import WheelSourceKind
from kernel_wizard.catalog.wheels import WheelCandidate, WheelMatch

pytestmark = pytest.mark.usefixtures("no_proxy")  # tests/integration/conftest.py

NAME = "ksw_probe_kernel-0.1.0-py3-none-any.whl"
WheelMaker = Callable[[str], Path]


def candidate(url: str, sha256: str | None = None, size: int | None = None,
              filename: str = NAME) -> WheelCandidate:
    return WheelCandidate(url=url, filename=filename, source_id="test",
                          source_kind=WheelSourceKind.OFFICIAL, source_name="a test release",
                          match=WheelMatch(filename, None, ()), listed=True, sha256=sha256,
                          size=size)


def fetch(wheel: WheelCandidate, cancel: threading.Event | None = None,
          events: list[object] | None = None, **options: object) -> BuildOutcome:
    sink = events.append if events is not None else (lambda _e: None)
    return fetch_prebuilt(wheel, "probe", sink, cancel or threading.Event(), allow_http=True,
                          **options)


def cache_of(url: str) -> list[str]:
    folder = url_cache_dir(url, create=False)
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_cut_transfer_resumes_in_the_next_run_and_a_checked_wheel_is_reused(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    data = big_wheel(kernel_wheel("correct"), tmp_path)
    cut = 200 * 1024
    url = server.add("/r/" + NAME, Resource(data, cut_after=cut, cut_times=1, cut_mode="close"))

    first = fetch(candidate(url), max_retries=0)
    assert first.status is BuildStatus.FAILED and first.wheel is None
    assert "stopped at 204.8 kB of" in first.message
    assert "kept and a later attempt continues" in first.hint
    assert cache_of(url) == [NAME + ".part", NAME + ".part.json"]  # a stable place, not a new one

    events: list[object] = []
    second = fetch(candidate(url), events=events, max_retries=0)
    assert second.status is BuildStatus.SUCCEEDED, second.message
    assert "continuing the earlier download that had stopped at 204.8 kB" in second.message
    hits = server.hits_for("/r/" + NAME)
    assert hits[1].header("Range") == f"bytes={cut}-" and hits[1].status == 206
    assert server.body_bytes("/r/" + NAME) == len(data)  # only the rest was sent again
    assert second.wheel is not None and second.wheel.read_bytes() == data
    assert second.download is not None
    assert second.download.sha256 == hashlib.sha256(data).hexdigest()
    assert any("RECORD hashes" in c for c in second.download.checks)
    assert any("continuing an earlier download" in e.text for e in events
               if isinstance(e, LogLine))

    third = fetch(candidate(url), max_retries=0)
    assert third.status is BuildStatus.SUCCEEDED and third.download is not None
    assert third.download.from_cache and "Reusing" in third.message
    assert len(server.hits_for("/r/" + NAME)) == 2  # reused without a request
    log = third.log_path.read_text(encoding="utf-8")
    assert f"sha256 {hashlib.sha256(data).hexdigest()}" in log


def test_cancel_keeps_the_part_says_so_and_the_next_run_continues(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    data = big_wheel(kernel_wheel("correct"), tmp_path)
    url = server.add("/c/" + NAME, Resource(data, chunk=16 * 1024, chunk_delay=0.02))
    cancel = threading.Event()

    seen: list[ProgressEvent] = []

    def stop_midway(event: object) -> None:
        if isinstance(event, ProgressEvent):
            seen.append(event)
            if event.done >= 100:
                cancel.set()

    outcome = fetch_prebuilt(candidate(url), "probe", stop_midway, cancel, allow_http=True)
    assert outcome.status is BuildStatus.CANCELLED
    assert outcome.message == "The download was cancelled; nothing was installed."
    # a download counts KiB, not compile units (the CLI said "compile 64/234811 units")
    assert seen and all(e.unit == "KiB" for e in seen)
    assert progress_text(seen[-1]).startswith(f"{seen[-1].done}/{len(data) // 1024} KiB")
    kept = part_path(url_cache_dir(url, create=False) / NAME).stat().st_size
    assert 100 * 1024 <= kept < len(data)
    assert "of the wheel are kept" in outcome.hint and "continues from there" in outcome.hint

    resumed = fetch(candidate(url))
    assert resumed.status is BuildStatus.SUCCEEDED, resumed.message
    assert server.hits_for("/c/" + NAME)[-1].header("Range") == f"bytes={kept}-"


def test_a_server_that_ignores_range_is_read_again_from_the_start(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    data = big_wheel(kernel_wheel("correct"), tmp_path)
    url = server.add("/n/" + NAME, Resource(data, ranges=False, cut_after=100_000, cut_times=1))
    assert fetch(candidate(url), max_retries=0).status is BuildStatus.FAILED
    outcome = fetch(candidate(url), max_retries=0)
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.message
    first, second = server.hits_for("/n/" + NAME)
    assert second.header("Range") == "bytes=100000-" and second.status == 200
    assert "continuing" not in outcome.message  # the part was not used
    assert outcome.wheel is not None and outcome.wheel.read_bytes() == data


def test_a_file_changed_on_the_server_is_not_glued_to_the_old_part(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    old = big_wheel(kernel_wheel("correct"), tmp_path)
    new = kernel_wheel("wrong_scale").read_bytes()  # another sound wheel, same name
    resource = Resource(old, cut_after=100_000, cut_times=1)
    url = server.add("/e/" + NAME, resource)
    assert fetch(candidate(url), max_retries=0).status is BuildStatus.FAILED
    resource.data, resource.etag = new, '"v2"'  # replaced on the server
    outcome = fetch(candidate(url), max_retries=0)
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.message
    second = server.hits_for("/e/" + NAME)[1]
    assert second.header("If-Range") == '"v1"' and second.status == 200
    assert outcome.wheel is not None and outcome.wheel.read_bytes() == new


@pytest.mark.parametrize("published_size", [None, 2_000_000])
def test_an_error_page_served_as_200_is_named_and_never_kept(
    server: LoopbackServer, published_size: int | None
) -> None:
    page = (b"<!DOCTYPE html><html><head><title>Page not found &middot; Mirror</title></head>"
            b"<body><h1>404</h1><p>This release asset has moved.</p></body></html>")
    url = server.add("/h/" + NAME, Resource(page, content_type="text/html; charset=utf-8"))
    outcome = fetch(candidate(url, size=published_size))
    assert outcome.status is BuildStatus.FAILED and outcome.wheel is None
    assert "The server sent a web page instead of the" in outcome.message
    assert "“Page not found · Mirror — 404 This release asset has moved.”" in outcome.message
    assert cache_of(url) == []  # nothing left that a later run could take for the wheel


def test_a_wheel_whose_files_do_not_match_record_is_deleted(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    bad = rewrite_wheel(kernel_wheel("correct"), tmp_path / "bad" / NAME,
                        {"ksw_probe/__init__.py": b"print('altered')\n"})
    url = server.add("/x/" + NAME, Resource(bad.read_bytes()))
    outcome = fetch(candidate(url))
    assert outcome.status is BuildStatus.FAILED
    assert "is damaged: its files do not match its own list of hashes (RECORD)" in \
        outcome.message
    assert "ksw_probe/__init__.py" in outcome.message
    assert "deleted" in outcome.hint and cache_of(url) == []


def test_a_renamed_wheel_is_refused(server: LoopbackServer, kernel_wheel: WheelMaker) -> None:
    name = "ksw_probe_kernel-0.2.0-py3-none-any.whl"
    url = server.add("/v/" + name, Resource(kernel_wheel("correct").read_bytes()))
    outcome = fetch(candidate(url, filename=name))
    assert outcome.status is BuildStatus.FAILED
    assert "is not what its name says" in outcome.message
    assert "ksw_probe_kernel-0.1.0" in outcome.message and cache_of(url) == []


def test_a_content_length_smaller_than_the_file_is_caught_by_the_wheel_check(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    data = big_wheel(kernel_wheel("correct"), tmp_path)
    url = server.add("/s/" + NAME, Resource(data, announce=len(data) - 5000))
    outcome = fetch(candidate(url))
    assert outcome.status is BuildStatus.FAILED
    assert "is not a usable wheel" in outcome.message
    assert "damaged or incomplete" in outcome.message and cache_of(url) == []


def test_a_content_length_larger_than_the_file_is_a_contradiction_not_a_wheel(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    data = big_wheel(kernel_wheel("correct"), tmp_path)
    url = server.add("/l/" + NAME, Resource(data, announce=len(data) + 5000))
    outcome = fetch(candidate(url), max_retries=1)
    assert outcome.status is BuildStatus.FAILED
    assert "The server first announced" in outcome.message
    assert f"({len(data) + 5000} bytes), then said the file has" in outcome.message
    assert outcome.message.endswith(f"({len(data)} bytes).")
    hits = server.hits_for("/l/" + NAME)
    assert [h.status for h in hits] == [200, 416]  # it asked for the rest once, then stopped
    assert cache_of(url) == []


def test_a_wrong_published_digest_deletes_the_file_and_says_so(
    server: LoopbackServer, kernel_wheel: WheelMaker
) -> None:
    url = server.add("/d/" + NAME, Resource(kernel_wheel("correct").read_bytes()))
    outcome = fetch(candidate(url, sha256="ab" * 32))
    assert outcome.status is BuildStatus.FAILED
    assert "damaged or has changed on the server" in outcome.message
    assert "but " + "ab" * 32 + " was expected" in outcome.message
    assert outcome.hint.startswith("The damaged file was deleted.") and cache_of(url) == []


def test_server_errors_and_a_dropped_connection(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    missing = fetch(candidate(server.url("/gone/" + NAME)))
    assert missing.status is BuildStatus.FAILED
    assert "was not found on the server (HTTP 404)" in missing.message

    broken = server.add("/500/" + NAME, Resource(status=500))
    failed = fetch(candidate(broken), max_retries=1)
    assert "The server had a problem and could not send" in failed.message
    assert "HTTP 500" in failed.message and "also after 1 retry" in failed.message
    assert len(server.hits_for("/500/" + NAME)) == 2

    data = big_wheel(kernel_wheel("correct"), tmp_path)
    dropped = server.add("/rst/" + NAME, Resource(data, cut_after=300_000, cut_times=1,
                                                  cut_mode="reset"))
    outcome = fetch(candidate(dropped))
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.message
    assert "continuing after the connection dropped" in outcome.message


def test_a_server_that_never_answers_times_out_in_plain_words(
    server: LoopbackServer, tmp_path: Path
) -> None:
    url = server.add("/slow", Resource(b"x" * 10, stall=3.0))
    with pytest.raises(DownloadError) as info:
        download(url, tmp_path / "slow.bin", allow_http=True, timeout=0.3)
    assert "Could not reach the server 127.0.0.1" in info.value.what
    assert "no answer in time" in info.value.why


def test_a_reused_wheel_that_was_damaged_on_disk_is_downloaded_again(
    server: LoopbackServer, kernel_wheel: WheelMaker, tmp_path: Path
) -> None:
    data = kernel_wheel("correct").read_bytes()
    url = server.add("/k/" + NAME, Resource(data))
    first = fetch(candidate(url))
    assert first.wheel is not None
    shutil.copy(rewrite_wheel(first.wheel, tmp_path / "bad" / NAME,
                              {"ksw_probe/__init__.py": b"x = 1\n"}), first.wheel)
    # the record's hash no longer matches: not reused, fetched again and checked
    again = fetch(candidate(url))
    assert again.status is BuildStatus.SUCCEEDED and again.download is not None
    assert not again.download.from_cache and again.wheel is not None
    assert again.wheel.read_bytes() == data
    assert len(server.hits_for("/k/" + NAME)) == 2


def test_a_cached_file_that_fails_the_wheel_check_is_not_reused(
    server: LoopbackServer, kernel_wheel: WheelMaker
) -> None:
    """A page that an older wizard (without content checks) recorded as a verified download
    under the wheel's name is not taken for the wheel: it is fetched again and checked."""
    resource = Resource(b"<html><body>Maintenance until 18:00</body></html>")
    url = server.add("/m/" + NAME, resource)
    dest = url_cache_dir(url) / NAME
    download(url, dest, allow_http=True)  # no check: recorded as verified
    resource.data, resource.etag = kernel_wheel("correct").read_bytes(), '"v2"'
    outcome = fetch(candidate(url))
    assert outcome.status is BuildStatus.SUCCEEDED, outcome.message
    assert outcome.download is not None and not outcome.download.from_cache
    assert outcome.wheel is not None and outcome.wheel.read_bytes() == resource.data
    assert len(server.hits_for("/m/" + NAME)) == 2
