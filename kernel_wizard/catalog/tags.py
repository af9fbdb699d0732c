"""Newer upstream versions: a kernel's tags on GitHub, merged with the versions the wizard ships.

The bundled list in ``resources/recipes/*.toml`` always works, offline too. When the machine is
online, :func:`fetch_tags` asks GitHub's REST API which tags the kernel's repository has, and
:func:`merge_versions` adds the ones that are newer than the newest bundled version, flagged
*unverified* (not tested with this wizard; the Kernel page says so).

:func:`fetch_tags` promises:

* **It never raises for network trouble.** No network, a timeout, a server error, a rate limit,
  an answer that is not what GitHub sends: the caller gets a :class:`TagFetch` whose
  :class:`FetchStatus` and ``message`` say what happened, with the tags last read from GitHub
  (the cache) or none. The bundled versions are the caller's in any case.
* **One request per page, no retry loop.**
  ``GET {api_base}/repos/{owner}/{repo}/tags?per_page=100``, then the
  ``Link: <...>; rel="next"`` pages, at most ``max_pages``. A next link to another
  host or scheme is not followed (the token must not travel there).
* **Conditional requests.** Every page is cached with its ETag in
  ``data_dir()/cache/github/<owner>_<repo>_tags.json``; the next call sends ``If-None-Match``
  and a 304 reuses the cached page (status :attr:`FetchStatus.NOT_MODIFIED`, as good as fresh).
  Only a walk that reached the last page (or ``max_pages``) replaces the cache.
* **Rate limits are respected** (GitHub's REST docs, "Troubleshooting the REST API"): a 403 or
  429 with ``X-RateLimit-Remaining: 0`` (until ``X-RateLimit-Reset``, UTC epoch seconds), with
  ``Retry-After`` (seconds or an HTTP date), or a 429 / "secondary rate limit" answer without
  either (one minute) ends the call with :attr:`FetchStatus.RATE_LIMITED` and "GitHub's rate
  limit is reached until HH:MM; ...". The time is remembered in the cache: calls before it
  make no request at all (continuing to ask while limited can get a client banned), unless a
  ``GITHUB_TOKEN`` is now set and the limit was met without one.
* **The token stays secret.** ``GITHUB_TOKEN`` from the environment goes into
  ``Authorization: Bearer ...`` of requests to ``api_base`` only, and only over HTTPS or to a
  loopback address; it is never part of a message, a hint or the cache file.

The tags answer (GitHub REST "List repository tags") is a JSON array of objects with ``name``,
``commit`` (``sha``, ``url``), ``zipball_url``, ``tarball_url`` and ``node_id``; only ``name``
and ``commit.sha`` are used and cached. Entries without them are skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from packaging.version import InvalidVersion, Version

if TYPE_CHECKING:
    import requests

from kernel_wizard import __version__
from kernel_wizard.base.jsonfile import read_json_file
from kernel_wizard.base.paths import data_dir
from kernel_wizard.catalog import Recipe, RecipeVersion

__all__ = [
    "API_BASE",
    "NEW_VERSION_NOTES",
    "FetchStatus",
    "MergedVersions",
    "MovedTag",
    "NewUpstreamVersion",
    "RemoteTag",
    "TagFetch",
    "cache_file",
    "fetch_tags",
    "github_repo",
    "merge_versions",
    "new_recipe_version",
]

API_BASE = "https://api.github.com"
API_VERSION = "2022-11-28"  # X-GitHub-Api-Version
PER_PAGE = 100  # GitHub's maximum for this endpoint
TOKEN_ENV = "GITHUB_TOKEN"
CACHE_SCHEMA = "ksw.github-tags/1"
SECONDARY_LIMIT_WAIT = timedelta(minutes=1)  # GitHub: "wait for at least one minute"
KNOWN = "showing the versions known to the wizard"
NEW_VERSION_NOTES = "New upstream version, not yet tested by the wizard"

_GITHUB_URL_RES = (
    re.compile(r"^(?:https?|git)://(?:[^@/]+@)?github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$"),
    re.compile(r"^ssh://git@github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$"),
    re.compile(r"^git@github\.com:([\w.-]+)/([\w.-]+?)(?:\.git)?/?$"),
)
_SHA_RE = re.compile(r"^[0-9a-f]{40}$")
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


# =============================================================================================
# Results
# =============================================================================================


class FetchStatus(Enum):
    """What :func:`fetch_tags` got, and so what its ``tags`` are."""

    FRESH = "fresh"  # read from GitHub now (some pages may have been 304: unchanged)
    NOT_MODIFIED = "not_modified"  # GitHub said 304 for every page: the cache is current
    STALE_CACHE = "stale_cache"  # GitHub answered with an error; the tags are the cache's
    OFFLINE = "offline"  # no connection or no answer in time; tags: the cache's, or none
    RATE_LIMITED = "rate_limited"  # GitHub's rate limit; tags: the cache's, or none
    ERROR = "error"  # an error answer and no cache, or not a GitHub repository

    @property
    def fresh(self) -> bool:
        """The tags are what GitHub has now."""
        return self in (FetchStatus.FRESH, FetchStatus.NOT_MODIFIED)


@dataclass(frozen=True)
class RemoteTag:
    """One tag of the repository on GitHub."""

    name: str  # "v2.8.3"
    commit: str  # 40 hex digits


@dataclass(frozen=True)
class TagFetch:
    """The answer of :func:`fetch_tags`; ``message`` is one line for a person."""

    tags: tuple[RemoteTag, ...]  # GitHub's order (newest first, roughly); may be empty
    status: FetchStatus
    message: str
    fetched_at: datetime | None  # when GitHub last confirmed ``tags`` (UTC); None: never
    from_cache: bool = False  # ``tags`` come from the cache file (304 included)
    limited_until: datetime | None = None  # RATE_LIMITED: when to ask again (UTC)
    hint: str = ""  # what a person can do, when there is something

    @property
    def fresh(self) -> bool:
        return self.status.fresh


# =============================================================================================
# Fetching
# =============================================================================================


def github_repo(repo_url: str) -> tuple[str, str] | None:
    """``https://github.com/Dao-AILab/flash-attention.git`` → ("Dao-AILab", "flash-attention").

    Also ``git@github.com:o/r.git`` and ``ssh://git@github.com/o/r``; None for other hosts.
    """
    text = repo_url.strip()
    for pattern in _GITHUB_URL_RES:
        match = pattern.match(text)
        if match is not None:
            return match.group(1), match.group(2)
    return None


def cache_file(owner: str, repo: str, cache_dir: Path | None = None) -> Path:
    """Where the tags of ``owner/repo`` are cached (``cache_dir`` or data_dir()/cache/github)."""
    folder = cache_dir if cache_dir is not None else data_dir() / "cache" / "github"
    return Path(folder) / f"{owner}_{repo}_tags.json"


def fetch_tags(
    repo_url: str,
    *,
    session: requests.Session | None = None,
    api_base: str = API_BASE,
    cache_dir: Path | None = None,
    timeout: float = 10,
    max_pages: int = 5,
) -> TagFetch:
    """The tags of the GitHub repository ``repo_url`` (see the module doc for the promises).

    ``timeout`` is the connect and per-read timeout of each request in seconds. Raises only
    :class:`ValueError` for a malformed argument (a programming error).
    """
    if max_pages < 1:
        raise ValueError(f"max_pages must be >= 1, not {max_pages}")
    if timeout <= 0:
        raise ValueError(f"timeout must be > 0, not {timeout}")
    parts = github_repo(repo_url)
    if parts is None:
        return TagFetch(
            (), FetchStatus.ERROR,
            f"Newer versions can only be looked up on GitHub, and {repo_url} is not a GitHub "
            f"repository; {KNOWN}.",
            None,
        )
    owner, repo = parts
    api = api_base.rstrip("/")
    walk = _Walk(
        owner=owner,
        repo=repo,
        api=api,
        path=cache_file(owner, repo, cache_dir),
        token=_token(),
        timeout=timeout,
        max_pages=max_pages,
    )
    own_session = session is None
    import requests  # lazily: not needed to start the wizard

    http = session if session is not None else requests.Session()
    try:
        return walk.run(http)
    finally:
        if own_session:
            http.close()


@dataclass(frozen=True)
class _Page:
    url: str
    etag: str | None
    next_url: str | None
    tags: tuple[RemoteTag, ...]


@dataclass(frozen=True)
class _Cache:
    """The cache file: the pages of the last complete walk, and a rate limit to respect."""

    api_base: str
    repo: str  # "owner/repo"
    fetched_at: datetime | None  # None: no walk completed yet
    pages: tuple[_Page, ...] = ()
    limited_until: datetime | None = None
    limited_with_token: bool = False

    @property
    def has_tags(self) -> bool:
        return self.fetched_at is not None

    @property
    def tags(self) -> tuple[RemoteTag, ...]:
        return _unique(t for page in self.pages for t in page.tags)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": CACHE_SCHEMA,
            "api_base": self.api_base,
            "repo": self.repo,
            "fetched_at": _iso(self.fetched_at),
            "limited_until": _iso(self.limited_until),
            "limited_with_token": self.limited_with_token,
            "pages": [
                {
                    "url": p.url,
                    "etag": p.etag,
                    "next": p.next_url,
                    "tags": [{"name": t.name, "commit": t.commit} for t in p.tags],
                }
                for p in self.pages
            ],
        }

    @staticmethod
    def load(path: Path, api_base: str, repo: str) -> _Cache | None:
        """The cache for this API and repository; None when missing, unreadable or foreign."""
        try:
            data = read_json_file(path)
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("schema") != CACHE_SCHEMA:
            return None
        if data.get("api_base") != api_base or data.get("repo") != repo:
            return None
        try:
            pages = tuple(
                _Page(
                    url=str(p["url"]),
                    etag=_opt_str(p.get("etag")),
                    next_url=_opt_str(p.get("next")),
                    tags=tuple(
                        RemoteTag(str(t["name"]), str(t["commit"])) for t in p["tags"]
                    ),
                )
                for p in data.get("pages", [])
            )
            return _Cache(
                api_base=api_base,
                repo=repo,
                fetched_at=_parse_iso(data.get("fetched_at")),
                pages=pages,
                limited_until=_parse_iso(data.get("limited_until")),
                limited_with_token=bool(data.get("limited_with_token", False)),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def save(self, path: Path) -> None:
        """Atomically (temporary file + rename); a cache that can't be written is no error."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    json.dump(self.to_json(), out, indent=1)
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError:
            pass


class _Walk:
    """One call of :func:`fetch_tags` for a GitHub repository."""

    def __init__(
        self,
        *,
        owner: str,
        repo: str,
        api: str,
        path: Path,
        token: str | None,
        timeout: float,
        max_pages: int,
    ) -> None:
        self.full_name = f"{owner}/{repo}"
        self.api = api
        self.first_url = f"{api}/repos/{owner}/{repo}/tags?per_page={PER_PAGE}"
        self.path = path
        self.token = token
        self.timeout = timeout
        self.max_pages = max_pages
        self.cache = _Cache.load(path, api, self.full_name)
        self.now = datetime.now(timezone.utc)
        self.pages: list[_Page] = []  # what this call has read so far

    def run(self, http: requests.Session) -> TagFetch:
        import requests  # lazily: not needed to start the wizard

        cache = self.cache
        if cache is not None and cache.limited_until is not None and cache.limited_until > self.now:
            token_is_new = self.token is not None and not cache.limited_with_token
            if not token_is_new:
                return self._limited(cache.limited_until)

        known = {p.url: p for p in cache.pages} if cache is not None else {}
        url: str | None = self.first_url
        changed = False
        for _ in range(self.max_pages):
            if url is None:
                break
            old = known.get(url)
            try:
                response = http.get(
                    url, headers=self._headers(url, old), timeout=self.timeout
                )
            except requests.exceptions.SSLError:
                return self._failed(
                    FetchStatus.ERROR, "The secure connection to GitHub failed",
                    hint="A proxy or security program may intercept HTTPS; check its "
                    "certificate settings.",
                )
            except requests.Timeout:
                return self._failed(
                    FetchStatus.OFFLINE, f"GitHub did not answer within {self.timeout:g} s"
                )
            except requests.ConnectionError:
                return self._failed(
                    FetchStatus.OFFLINE, "GitHub could not be reached (no network connection?)"
                )
            except requests.RequestException as exc:
                return self._failed(
                    FetchStatus.ERROR, f"The request to GitHub failed ({type(exc).__name__})"
                )
            with contextlib.closing(response):
                if response.status_code == 304 and old is not None:
                    self.pages.append(old)
                    url = old.next_url
                    continue
                until = _rate_limit_until(response, self.now)
                if until is not None:
                    self._remember_limit(until)
                    return self._limited(until)
                if response.status_code == 401:
                    return self._failed(
                        FetchStatus.ERROR, "GitHub refused the token in GITHUB_TOKEN (401)",
                        hint="Check the token in the GITHUB_TOKEN environment variable, or "
                        "remove it.",
                    )
                if response.status_code != 200:
                    return self._failed(FetchStatus.ERROR, self._status_text(response))
                try:
                    tags = _parse_tags(response.json())
                except ValueError:
                    tags = None
                if tags is None:
                    return self._failed(
                        FetchStatus.ERROR, "GitHub's answer was not the expected list of tags"
                    )
                next_url = response.links.get("next", {}).get("url")
                if next_url is not None and not _same_origin(next_url, self.api):
                    next_url = None  # never send the token elsewhere
                self.pages.append(_Page(url, response.headers.get("ETag"), next_url, tags))
                changed = True
                url = next_url

        tags = _unique(t for page in self.pages for t in page.tags)
        _Cache(self.api, self.full_name, self.now, tuple(self.pages)).save(self.path)
        more = (
            f" (only the first {self.max_pages} pages were read)" if url is not None else ""
        )
        if changed:
            return TagFetch(
                tags, FetchStatus.FRESH,
                f"{_count(len(tags))} read from GitHub{more}.", self.now,
            )
        return TagFetch(
            tags, FetchStatus.NOT_MODIFIED,
            f"No change on GitHub since the last check; {_count(len(tags))} known{more}.",
            self.now, from_cache=True,
        )

    # -- requests --------------------------------------------------------------------------

    def _headers(self, url: str, old: _Page | None) -> dict[str, str]:
        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": API_VERSION,
            "User-Agent": f"kernel-setup-wizard/{__version__}",
        }
        if old is not None and old.etag:
            headers["If-None-Match"] = old.etag
        if self.token is not None and _token_may_go_to(url):
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def _status_text(self, response: requests.Response) -> str:
        code = response.status_code
        if code == 404:
            return f"GitHub does not know the repository {self.full_name} (404)"
        if code >= 500:
            return f"GitHub answered with a server error ({code})"
        reason = f" {response.reason}" if response.reason else ""
        return f"GitHub answered {code}{reason}"

    # -- outcomes --------------------------------------------------------------------------

    def _fallback(self) -> tuple[tuple[RemoteTag, ...], datetime | None, bool]:
        """(tags, fetched_at, from_cache): the cache's tags, else what this call has read."""
        if self.cache is not None and self.cache.has_tags:
            return self.cache.tags, self.cache.fetched_at, True
        partial = _unique(t for page in self.pages for t in page.tags)
        return partial, (self.now if partial else None), False

    def _failed(self, status: FetchStatus, what: str, *, hint: str = "") -> TagFetch:
        tags, fetched_at, from_cache = self._fallback()
        if from_cache and status is FetchStatus.ERROR:
            status = FetchStatus.STALE_CACHE
        shown = KNOWN
        if from_cache and fetched_at is not None:
            shown += f" and the tags GitHub listed on {_local(fetched_at, '%Y-%m-%d %H:%M')}"
        elif tags:
            shown += " and the newest tags GitHub listed before the error"
        if not hint and status is FetchStatus.OFFLINE:
            hint = "Connect to the internet to see newer versions; the known ones work offline."
        return TagFetch(
            tags, status, f"{what}; {shown}.", fetched_at, from_cache=from_cache, hint=hint
        )

    def _limited(self, until: datetime) -> TagFetch:
        tags, fetched_at, from_cache = self._fallback()
        hint = (
            "A GitHub token in the GITHUB_TOKEN environment variable raises the limit."
            if self.token is None
            else "The limit of the token in GITHUB_TOKEN is used up; it resets at "
            f"{_local(until, '%H:%M')}."
        )
        return TagFetch(
            tags, FetchStatus.RATE_LIMITED,
            f"GitHub's rate limit is reached until {_local(until, '%H:%M')}; {KNOWN}.",
            fetched_at, from_cache=from_cache, limited_until=until, hint=hint,
        )

    def _remember_limit(self, until: datetime) -> None:
        base = self.cache or _Cache(self.api, self.full_name, None)
        replace(base, limited_until=until, limited_with_token=self.token is not None).save(
            self.path
        )


# -- helpers ---------------------------------------------------------------------------------


def _token() -> str | None:
    value = os.environ.get(TOKEN_ENV, "").strip()
    return value or None


def _token_may_go_to(url: str) -> bool:
    """Over HTTPS, or to this machine (the loopback tests): never in clear text elsewhere."""
    parts = urlsplit(url)
    return parts.scheme == "https" or (parts.hostname or "") in _LOOPBACK_HOSTS


def _same_origin(url: str, base: str) -> bool:
    a, b = urlsplit(url), urlsplit(base)
    return (a.scheme, a.netloc.lower()) == (b.scheme, b.netloc.lower())


def _rate_limit_until(response: requests.Response, now: datetime) -> datetime | None:
    """When a rate-limited answer allows the next request; None when it is no rate limit."""
    if response.status_code not in (403, 429):
        return None
    headers = response.headers
    candidates: list[datetime] = []
    retry_after = _retry_after(headers.get("Retry-After"), now)
    if retry_after is not None:
        candidates.append(retry_after)
    if (headers.get("X-RateLimit-Remaining") or "").strip() == "0":
        reset = _epoch(headers.get("X-RateLimit-Reset"))
        candidates.append(reset if reset is not None else now + SECONDARY_LIMIT_WAIT)
    if not candidates:
        if response.status_code != 429 and "rate limit" not in response.text.lower():
            return None  # a plain 403: forbidden, not limited
        candidates.append(now + SECONDARY_LIMIT_WAIT)
    return max(max(candidates), now)


def _retry_after(value: str | None, now: datetime) -> datetime | None:
    """``Retry-After``: delay-seconds or an HTTP date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return now + timedelta(seconds=int(text))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


def _epoch(value: str | None) -> datetime | None:
    try:
        return datetime.fromtimestamp(int((value or "").strip()), tz=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None


def _parse_tags(data: object) -> tuple[RemoteTag, ...] | None:
    """GitHub's list of tag objects → RemoteTags; None when it is not a list at all."""
    if not isinstance(data, list):
        return None
    tags: list[RemoteTag] = []
    for item in data:
        if not isinstance(item, Mapping):
            continue
        name, commit = item.get("name"), item.get("commit")
        sha = commit.get("sha") if isinstance(commit, Mapping) else None
        if isinstance(name, str) and name and isinstance(sha, str) and _SHA_RE.match(sha):
            tags.append(RemoteTag(name, sha))
    return tuple(tags)


def _unique(tags: Iterable[RemoteTag]) -> tuple[RemoteTag, ...]:
    """First occurrence of each tag name (pages can overlap when tags are added meanwhile)."""
    seen: set[str] = set()
    out: list[RemoteTag] = []
    for tag in tags:
        if tag.name not in seen:
            seen.add(tag.name)
            out.append(tag)
    return tuple(out)


def _count(n: int) -> str:
    return f"{n} tag" if n == 1 else f"{n} tags"


def _local(when: datetime, fmt: str) -> str:
    """A UTC time as this machine's local time."""
    return when.astimezone().strftime(fmt)


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when is not None else None


def _parse_iso(value: object) -> datetime | None:
    if value is None:
        return None
    when = datetime.fromisoformat(str(value))
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


def _opt_str(value: object) -> str | None:
    return None if value is None else str(value)


# =============================================================================================
# Merging with the bundled versions
# =============================================================================================


@dataclass(frozen=True)
class NewUpstreamVersion:
    """A tag on GitHub newer than every bundled version: offered, but untested by the wizard."""

    label: str  # "2.8.4"
    tag: str  # "v2.8.4"
    commit: str
    version: str  # PEP 440 text: "2.8.4"
    unverified: bool = True


@dataclass(frozen=True)
class MovedTag:
    """A bundled version's tag that points at another commit on GitHub now."""

    tag: str
    bundled_commit: str
    remote_commit: str

    @property
    def message(self) -> str:
        return (
            f"The tag {self.tag} on GitHub now points at commit {self.remote_commit[:12]}, not "
            f"at {self.bundled_commit[:12]} that the wizard knows: it was moved upstream. The "
            "wizard keeps the commit it knows; a git checkout of this version will stop with "
            "an error until the wizard's recipe is updated."
        )


@dataclass(frozen=True)
class MergedVersions:
    """The bundled versions unchanged, the newer upstream ones, and the warnings."""

    bundled: tuple[RecipeVersion, ...]  # exactly ``recipe.versions``
    new: tuple[NewUpstreamVersion, ...]  # oldest first, like the catalog
    moved: tuple[MovedTag, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(m.message for m in self.moved)


def merge_versions(
    recipe: Recipe, remote_tags: Iterable[RemoteTag], *,
    pattern: str | re.Pattern[str] | None = None,
) -> MergedVersions:
    """Bundled versions as they are, plus the remote tags newer than the newest of them.

    A tag counts when the whole name matches ``pattern`` (default: the recipe's
    ``tag_pattern``; FlashAttention 2's takes v2.5.0 and v2.8.3.post1, not v1.x or its fa3
    tags; without either no tag counts) and its version (the name without a leading "v",
    compared with :class:`packaging.version.Version`) is greater than every bundled version.
    A tag with a bundled version's name but another commit is reported in ``moved``, not
    merged.
    """
    chosen = pattern if pattern is not None else recipe.tag_pattern
    regex = None if chosen is None else re.compile(chosen) if isinstance(chosen, str) else chosen
    bundled = recipe.versions
    newest = _newest_bundled(bundled)
    by_tag = {v.tag: v for v in bundled if v.tag}
    moved: list[MovedTag] = []
    found: dict[str, tuple[Version, NewUpstreamVersion]] = {}
    for tag in _unique(remote_tags):
        known = by_tag.get(tag.name)
        if known is not None:
            if known.commit and known.commit != tag.commit:
                moved.append(MovedTag(tag.name, known.commit, tag.commit))
            continue
        if newest is None or regex is None or not regex.fullmatch(tag.name):
            continue
        text = tag.name[1:] if tag.name[:1] in ("v", "V") else tag.name
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        if version <= newest[0]:
            continue
        found[tag.name] = (version, NewUpstreamVersion(text, tag.name, tag.commit, text))
    new = tuple(item for _, item in sorted(found.values(), key=lambda pair: pair[0]))
    return MergedVersions(bundled=bundled, new=new, moved=tuple(moved))


def new_recipe_version(recipe: Recipe, new: NewUpstreamVersion) -> RecipeVersion:
    """``new`` as a :class:`RecipeVersion`, built on the newest bundled version.

    Its settings (targets, arch knob, Python and torch bounds, wheel names...) are the newest
    bundled version's: the best guess for a version the wizard has not seen. It recommends
    nothing, and its notes say that it is untested; ``released`` is unknown.
    """
    newest = _newest_bundled(recipe.versions)
    template = newest[1] if newest is not None else recipe.newest
    return replace(
        template,
        label=new.label,
        tag=new.tag,
        commit=new.commit,
        version=new.version,
        released=None,
        recommended=(),
        notes=NEW_VERSION_NOTES,
    )


def _newest_bundled(versions: Iterable[RecipeVersion]) -> tuple[Version, RecipeVersion] | None:
    best: tuple[Version, RecipeVersion] | None = None
    for v in versions:
        try:
            parsed = Version(v.version)
        except InvalidVersion:
            continue
        if best is None or parsed > best[0]:
            best = (parsed, v)
    return best
