"""Newer upstream versions: GitHub's tags API against a real HTTP server on 127.0.0.1, and the
merge with the real FlashAttention 2 recipe.

The server speaks the shape of GitHub's ``GET /repos/{owner}/{repo}/tags`` answer as recorded in
``tests/data/github/`` (see its README), with real ETag / If-None-Match, ``Link`` pagination,
rate-limit headers, a refused port and a server that accepts connections but never answers.
"""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from loopback_http import Hit, LoopbackServer, _Handler, refused_port

from kernel_wizard.catalog import Recipe, load_catalog
from kernel_wizard.catalog.tags import (
    NEW_VERSION_NOTES,
    FetchStatus,
    RemoteTag,
    cache_file,
    fetch_tags,
    github_repo,
    merge_versions,
    new_recipe_version,
)

REPO_URL = "https://github.com/o/r"
RECORDED = Path(__file__).resolve().parents[1] / "data" / "github" / "tags-cli-cli-v2.79.0.json"
TOKEN = "ghp_TestOnlyToken_0123456789abcdefXYZ"


def sha(name: str) -> str:
    """A stable 40-hex commit id for a test tag."""
    return hashlib.sha1(name.encode()).hexdigest()


def tag_entry(name: str, commit: str) -> dict[str, object]:
    """One element of GitHub's tags answer for the test repository o/r (the recorded shape)."""
    node = base64.b64encode(f"03:Ref42:refs/tags/{name}".encode()).decode()
    return {
        "name": name,
        "zipball_url": f"https://api.github.com/repos/o/r/zipball/refs/tags/{name}",
        "tarball_url": f"https://api.github.com/repos/o/r/tarball/refs/tags/{name}",
        "commit": {"sha": commit, "url": f"https://api.github.com/repos/o/r/commits/{commit}"},
        "node_id": node,
    }


# ---------------------------------------------------------------------------------------------
# A loopback server with programmable answers


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


Route = Callable[[Hit, dict[str, str]], Reply]  # (the request, its query) -> the answer


class _ApiHandler(_Handler):
    owner: ApiServer

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        route = self.owner.routes.get(path)
        if route is None:
            super().do_GET()
            return
        hit = Hit("GET", self.path, {k: v for k, v in self.headers.items()})
        with self.owner.lock:
            self.owner.hits.append(hit)
        reply = route(hit, dict(parse_qsl(query)))
        hit.status = reply.status
        self.send_response(reply.status)
        for key, value in reply.headers.items():
            self.send_header(key, value)
        if reply.status != 304:
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        if reply.status != 304:
            hit.body_bytes += len(reply.body)
            self.wfile.write(reply.body)


@dataclass
class ApiServer(LoopbackServer):
    routes: dict[str, Route] = field(default_factory=dict)

    def start(self) -> ApiServer:
        server = self

        class Handler(_ApiHandler):
            owner = server

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    @property
    def api_base(self) -> str:
        return self.url("")

    def api_hits(self) -> list[Hit]:
        with self.lock:
            return list(self.hits)


@dataclass
class TagPages:
    """GitHub's paginated tags list: per page an ETag and the tags; 304 on a matching ETag."""

    server: ApiServer
    pages: list[tuple[str, list[dict[str, object]]]]
    override: Reply | None = None  # answer every request with this instead (errors, limits)

    def __call__(self, hit: Hit, query: dict[str, str]) -> Reply:
        if self.override is not None:
            return self.override
        index = int(query.get("page", "1")) - 1
        etag, entries = self.pages[index]
        headers = {"ETag": etag, "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "59"}
        if index + 1 < len(self.pages):
            page = self.server.url("/repositories/42/tags?per_page=100&page={}")
            headers["Link"] = (
                f'<{page.format(index + 2)}>; rel="next", '
                f'<{page.format(len(self.pages))}>; rel="last"'
            )
        if hit.header("If-None-Match") == etag:
            return Reply(304, headers)
        return Reply(200, headers, json.dumps(entries).encode())

    def serve(self) -> TagPages:
        self.server.routes["/repos/o/r/tags"] = self
        self.server.routes["/repositories/42/tags"] = self
        return self


PAGE1 = [tag_entry(f"v2.9.{n}", sha(f"v2.9.{n}")) for n in range(3)]
PAGE2 = [tag_entry("v2.8.3", sha("v2.8.3")), tag_entry("v1.0.9", sha("v1.0.9"))]
ALL_TAGS = tuple(RemoteTag(str(e["name"]), sha(str(e["name"]))) for e in PAGE1 + PAGE2)


@pytest.fixture(autouse=True)
def _no_proxy_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback must not go through a proxy; a developer's own token must not leak in."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)


@pytest.fixture
def server() -> Iterator[ApiServer]:
    srv = ApiServer().start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def pages(server: ApiServer) -> TagPages:
    return TagPages(server, [('W/"p1-v1"', PAGE1), ('W/"p2-v1"', PAGE2)]).serve()


@pytest.fixture(scope="module")
def flash_attn() -> Recipe:
    return load_catalog().get("flash_attn")


# ---------------------------------------------------------------------------------------------
# Fetching


def test_recorded_answer_shape_is_what_the_server_serves_and_parses(
    server: ApiServer, tmp_path: Path
) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    ours = tag_entry("v1", sha("v1"))
    assert set(ours) == set(recorded[0])
    assert set(json.loads(json.dumps(ours["commit"]))) == set(recorded[0]["commit"])
    body = json.dumps(recorded).encode()
    server.routes["/repos/o/r/tags"] = lambda hit, query: Reply(200, {"ETag": '"x"'}, body)

    result = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert result.status is FetchStatus.FRESH
    assert result.tags == (RemoteTag("v2.79.0", "6b19a854710ff2c81070f109f35434cd20e40115"),)


def test_pages_are_followed_cached_with_etags_and_a_304_reuses_the_cache(
    server: ApiServer, pages: TagPages, isolated_wizard_data: Path
) -> None:
    first = fetch_tags(REPO_URL, api_base=server.api_base)

    assert first.status is FetchStatus.FRESH and first.fresh and not first.from_cache
    assert first.tags == ALL_TAGS  # both pages, GitHub's order
    assert first.message == "5 tags read from GitHub."
    hits = server.api_hits()
    assert [h.path for h in hits] == [
        "/repos/o/r/tags?per_page=100",
        "/repositories/42/tags?per_page=100&page=2",
    ]
    assert all(h.header("If-None-Match") is None for h in hits)
    assert hits[0].header("Accept") == "application/vnd.github+json"
    assert hits[0].header("Authorization") is None  # no token in the environment
    # the cache is where the wizard keeps its data, with each page's ETag
    path = isolated_wizard_data / "cache" / "github" / "o_r_tags.json"
    assert cache_file("o", "r") == path
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert [p["etag"] for p in stored["pages"]] == ['W/"p1-v1"', 'W/"p2-v1"']

    second = fetch_tags(REPO_URL, api_base=server.api_base)

    again = server.api_hits()[2:]
    assert [h.header("If-None-Match") for h in again] == ['W/"p1-v1"', 'W/"p2-v1"']
    assert [h.status for h in again] == [304, 304] and sum(h.body_bytes for h in again) == 0
    assert second.status is FetchStatus.NOT_MODIFIED and second.fresh and second.from_cache
    assert second.tags == ALL_TAGS
    assert second.fetched_at is not None and first.fetched_at is not None
    assert second.fetched_at >= first.fetched_at


def test_a_changed_first_page_is_read_again_the_unchanged_second_comes_from_the_cache(
    server: ApiServer, pages: TagPages, tmp_path: Path
) -> None:
    fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    pages.pages[0] = ('W/"p1-v2"', [tag_entry("v2.10.0", sha("v2.10.0")), *PAGE1])

    result = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert result.status is FetchStatus.FRESH
    assert result.tags == (RemoteTag("v2.10.0", sha("v2.10.0")), *ALL_TAGS)
    assert [h.status for h in server.api_hits()[2:]] == [200, 304]


def test_a_damaged_cache_file_is_ignored_and_replaced(
    server: ApiServer, pages: TagPages, tmp_path: Path
) -> None:
    path = cache_file("o", "r", tmp_path)
    path.write_text('{"schema": "ksw.github-tags/1", "pages": [', encoding="utf-8")

    result = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert result.status is FetchStatus.FRESH and result.tags == ALL_TAGS
    assert all(h.header("If-None-Match") is None for h in server.api_hits())
    assert json.loads(path.read_text(encoding="utf-8"))["repo"] == "o/r"


def test_rate_limit_shows_the_cache_until_the_reset_and_asks_nothing_meanwhile(
    server: ApiServer, pages: TagPages, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    reset = int(time.time()) + 3600
    pages.override = Reply(403, {
        "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": str(reset), "X-RateLimit-Used": "60",
    }, b'{"message": "API rate limit exceeded for 127.0.0.1."}')

    limited = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    hhmm = datetime.fromtimestamp(reset).strftime("%H:%M")  # the user's local time
    assert limited.status is FetchStatus.RATE_LIMITED and not limited.fresh
    assert limited.message == (
        f"GitHub's rate limit is reached until {hhmm}; showing the versions known to the wizard."
    )
    assert limited.tags == ALL_TAGS and limited.from_cache  # the stale list, not nothing
    assert limited.limited_until == datetime.fromtimestamp(reset, tz=timezone.utc)
    assert "GITHUB_TOKEN" in limited.hint
    assert len(server.api_hits()) == 3  # one request, no retry loop

    # until the reset, later calls don't ask GitHub at all
    later = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    assert later.status is FetchStatus.RATE_LIMITED and later.tags == ALL_TAGS
    assert len(server.api_hits()) == 3

    # ...unless a token is set now: its own, higher limit is worth one request
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    pages.override = None
    with_token = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    assert with_token.status is FetchStatus.NOT_MODIFIED
    assert server.api_hits()[3].header("Authorization") == f"Bearer {TOKEN}"


def test_429_with_retry_after_and_no_cache_is_rate_limited_with_no_tags(
    server: ApiServer, pages: TagPages, tmp_path: Path
) -> None:
    pages.override = Reply(429, {"Retry-After": "120"}, b'{"message": "secondary rate limit"}')
    before = datetime.now(timezone.utc)

    result = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert result.status is FetchStatus.RATE_LIMITED
    assert result.tags == () and not result.from_cache and result.fetched_at is None
    assert result.limited_until is not None
    assert timedelta(seconds=119) <= result.limited_until - before <= timedelta(seconds=125)
    assert result.limited_until.astimezone().strftime("%H:%M") in result.message
    assert len(server.api_hits()) == 1


def test_a_plain_403_is_an_error_not_a_rate_limit(
    server: ApiServer, pages: TagPages, tmp_path: Path
) -> None:
    pages.override = Reply(403, {}, b'{"message": "Resource not accessible"}')

    result = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert result.status is FetchStatus.ERROR and result.limited_until is None
    assert result.message.startswith("GitHub answered 403")


def test_server_error_gives_the_stale_cache_or_nothing(
    server: ApiServer, pages: TagPages, tmp_path: Path
) -> None:
    pages.override = Reply(500, {}, b'{"message": "Server Error"}')
    nothing = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    assert nothing.status is FetchStatus.ERROR and nothing.tags == ()
    assert nothing.message == (
        "GitHub answered with a server error (500); showing the versions known to the wizard."
    )

    pages.override = None
    fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    pages.override = Reply(502, {}, b"bad gateway")
    stale = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert stale.status is FetchStatus.STALE_CACHE and not stale.fresh
    assert stale.tags == ALL_TAGS and stale.from_cache
    assert "server error (502)" in stale.message and "tags GitHub listed on" in stale.message
    assert [h.status for h in server.api_hits()] == [500, 200, 200, 502]  # no retries


def test_an_answer_that_is_not_a_tag_list_is_an_error(
    server: ApiServer, pages: TagPages, tmp_path: Path
) -> None:
    pages.override = Reply(200, {}, b"<html>captive portal</html>")

    result = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert result.status is FetchStatus.ERROR and result.tags == ()
    assert "not the expected list of tags" in result.message


def test_a_closed_port_is_offline_and_keeps_the_cache(
    server: ApiServer, pages: TagPages, tmp_path: Path
) -> None:
    fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    sock, port = refused_port()
    try:
        # the cache belongs to one API address: copy it to the closed port's address
        cached = json.loads(cache_file("o", "r", tmp_path).read_text(encoding="utf-8"))
        other = tmp_path / "other"
        cached["api_base"] = f"http://127.0.0.1:{port}"
        other.mkdir()
        cache_file("o", "r", other).write_text(json.dumps(cached), encoding="utf-8")

        empty = fetch_tags(REPO_URL, api_base=f"http://127.0.0.1:{port}",
                           cache_dir=tmp_path / "none")
        kept = fetch_tags(REPO_URL, api_base=f"http://127.0.0.1:{port}", cache_dir=other)
    finally:
        sock.close()

    assert empty.status is FetchStatus.OFFLINE and empty.tags == ()
    assert empty.message == (
        "GitHub could not be reached (no network connection?); "
        "showing the versions known to the wizard."
    )
    assert kept.status is FetchStatus.OFFLINE and kept.tags == ALL_TAGS and kept.from_cache


def test_a_server_that_never_answers_is_offline_after_the_timeout(tmp_path: Path) -> None:
    hang = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    hang.bind(("127.0.0.1", 0))
    hang.listen(8)  # the kernel accepts the connection; nobody ever reads or answers
    port = hang.getsockname()[1]
    try:
        started = time.monotonic()
        result = fetch_tags(REPO_URL, api_base=f"http://127.0.0.1:{port}", cache_dir=tmp_path,
                            timeout=0.5)
        elapsed = time.monotonic() - started
    finally:
        hang.close()

    assert result.status is FetchStatus.OFFLINE and result.tags == ()
    assert result.message.startswith("GitHub did not answer within 0.5 s;")
    assert elapsed < 1.5


def test_github_token_is_sent_as_bearer_and_never_shown(
    server: ApiServer, pages: TagPages, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", f"  {TOKEN}\n")

    ok = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    pages.override = Reply(401, {}, b'{"message": "Bad credentials"}')
    refused = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert ok.status is FetchStatus.FRESH
    assert all(h.header("Authorization") == f"Bearer {TOKEN}" for h in server.api_hits())
    assert refused.status is FetchStatus.STALE_CACHE
    assert "GITHUB_TOKEN" in refused.message and "GITHUB_TOKEN" in refused.hint
    for result in (ok, refused):
        assert TOKEN not in repr(result)
    assert TOKEN not in cache_file("o", "r", tmp_path).read_text(encoding="utf-8")


def test_a_next_link_to_another_host_is_not_followed(
    server: ApiServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    elsewhere = f"http://localhost:{server.port}/repositories/42/tags?page=2"
    body = json.dumps(PAGE1).encode()
    server.routes["/repos/o/r/tags"] = lambda hit, query: Reply(
        200, {"ETag": '"a"', "Link": f'<{elsewhere}>; rel="next"'}, body
    )

    result = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)

    assert result.status is FetchStatus.FRESH and len(result.tags) == 3
    assert [h.path for h in server.api_hits()] == ["/repos/o/r/tags?per_page=100"]


def test_pagination_stops_at_max_pages(server: ApiServer, tmp_path: Path) -> None:
    many = [(f'"p{n}"', [tag_entry(f"v2.{n}.0", sha(f"v2.{n}.0"))]) for n in range(10)]
    TagPages(server, many).serve()

    result = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path, max_pages=2)

    assert [t.name for t in result.tags] == ["v2.0.0", "v2.1.0"]
    assert "only the first 2 pages" in result.message
    assert len(server.api_hits()) == 2


def test_repository_urls(tmp_path: Path) -> None:
    assert github_repo("https://github.com/Dao-AILab/flash-attention.git") == (
        "Dao-AILab", "flash-attention")
    assert github_repo("git@github.com:deepseek-ai/FlashMLA.git") == ("deepseek-ai", "FlashMLA")
    assert github_repo("https://gitlab.com/o/r") is None
    result = fetch_tags("https://gitlab.com/o/r", cache_dir=tmp_path)  # no network traffic
    assert result.status is FetchStatus.ERROR and "not a GitHub repository" in result.message


# ---------------------------------------------------------------------------------------------
# Merging with the real FlashAttention 2 recipe


def test_a_newer_tag_is_added_as_unverified_and_the_bundled_list_stays(
    flash_attn: Recipe,
) -> None:
    newest = flash_attn.version("v2.8.3.post1")
    remote = [
        RemoteTag("v2.8.4", sha("v2.8.4")),
        RemoteTag("v2.8.3.post1", newest.commit or ""),  # equal: the bundled one
        RemoteTag("v2.8.2", flash_attn.version("v2.8.2").commit or ""),
        RemoteTag("v2.7.5", sha("v2.7.5")),  # older than the newest bundled: ignored
        RemoteTag("v2.9.0.post1", sha("v2.9.0.post1")),
        RemoteTag("fa3-v3.0.0", sha("fa3")),  # other series: not the pattern
        RemoteTag("v3.0.0b1", sha("v3.0.0b1")),
        RemoteTag("v2.9.0-rc1", sha("rc")),
    ]

    merged = merge_versions(flash_attn, remote)

    assert merged.bundled == flash_attn.versions  # untouched, with their data
    assert flash_attn.version("2.8.3.post1").recommended  # still recommended for Linux
    assert [(n.label, n.tag, n.commit) for n in merged.new] == [
        ("2.8.4", "v2.8.4", sha("v2.8.4")),
        ("2.9.0.post1", "v2.9.0.post1", sha("v2.9.0.post1")),
    ]
    assert all(n.unverified for n in merged.new)
    assert merged.moved == () and merged.warnings == ()

    version = new_recipe_version(flash_attn, merged.new[0])
    assert (version.label, version.tag, version.commit, version.version) == (
        "2.8.4", "v2.8.4", sha("v2.8.4"), "2.8.4")
    assert version.recommended == () and version.notes == NEW_VERSION_NOTES
    assert version.released is None
    # everything else follows the newest bundled version
    assert version.targets == newest.targets and version.arch_knob == newest.arch_knob
    assert version.min_python == newest.min_python and version.wheel_cuda == newest.wheel_cuda


def test_nothing_newer_means_nothing_added(flash_attn: Recipe) -> None:
    remote = [RemoteTag(v.tag, v.commit) for v in flash_attn.versions if v.tag and v.commit]

    merged = merge_versions(flash_attn, remote)

    assert merged.new == () and merged.moved == ()
    assert merged.bundled == flash_attn.versions


def test_a_recipe_without_a_tag_pattern_follows_no_upstream_tags(flash_attn: Recipe) -> None:
    """Which tags are releases is the recipe's ``tag_pattern``: without one, nothing newer is
    merged, however it is named; a pattern given by the caller overrides the recipe's."""
    remote = [RemoteTag("v2.9.0", sha("v2.9.0"))]
    untracked = replace(flash_attn, tag_pattern=None)

    assert merge_versions(untracked, remote).new == ()
    assert [n.tag for n in merge_versions(untracked, remote, pattern=r"v\d+\.\d+\.\d+").new] == [
        "v2.9.0"]
    assert [n.tag for n in merge_versions(flash_attn, remote).new] == ["v2.9.0"]


def test_a_moved_tag_is_reported_not_merged(flash_attn: Recipe) -> None:
    bundled = flash_attn.version("v2.8.3")
    moved_to = sha("moved v2.8.3")

    merged = merge_versions(flash_attn, [RemoteTag("v2.8.3", moved_to)])

    assert merged.new == () and merged.bundled == flash_attn.versions
    assert [(m.tag, m.bundled_commit, m.remote_commit) for m in merged.moved] == [
        ("v2.8.3", bundled.commit, moved_to)
    ]
    (warning,) = merged.warnings
    assert "v2.8.3" in warning and moved_to[:12] in warning and "moved" in warning


def test_fetched_tags_merge_into_the_kernel_list(
    server: ApiServer, tmp_path: Path, flash_attn: Recipe
) -> None:
    """The whole path: GitHub's answer → TagFetch → a new unverified FlashAttention version."""
    page = [tag_entry("v2.8.4", sha("v2.8.4")),
            tag_entry("v2.8.3.post1", flash_attn.version("v2.8.3.post1").commit or "")]
    TagPages(server, [('W/"only"', page)]).serve()

    fetched = fetch_tags(REPO_URL, api_base=server.api_base, cache_dir=tmp_path)
    merged = merge_versions(flash_attn, fetched.tags)

    assert [n.tag for n in merged.new] == ["v2.8.4"]
    assert new_recipe_version(flash_attn, merged.new[0]).ref == "v2.8.4"
