"""The one downloader: every fix and every source fetch gets its files through :func:`download`.

What it promises:

* **HTTPS only.** A ``http://`` URL, or a redirect to one, is refused unless the caller opts in
  with ``allow_http=True`` (the loopback tests do; production code never does).
* **Nothing half-done at** ``dest``. The body goes to ``<dest>.part``; only after its size and
  SHA-256 check out is it renamed onto ``dest`` with :func:`os.replace`.
* **Resume.** Next to the part lies ``<dest>.part.json`` (URL, ETag / Last-Modified, sizes). A
  later attempt, in the same call after a dropped connection or in a later run, asks for the
  rest with ``Range: bytes=N-`` and ``If-Range: <validator>``. A server that answers 200 (it
  ignores ranges, or the file changed) is read from byte zero again. A part is only resumed
  when the server gave a validator (a strong ETag or a Last-Modified date) and the side file
  names the same URL and the same expected size and hash; otherwise it is thrown away.
* **Damaged files do not survive.** A wrong size or SHA-256 deletes the part and its side file,
  so no later run trusts them, and raises :class:`~build_backend.errors.DownloadError`.
* **Cache.** An existing ``dest`` is returned without touching the network when

  - a ``sha256`` is given and ``dest`` hashes to it (a ``dest`` with another hash is deleted), or
  - no ``sha256`` is given, but the record ``<dest>.json`` that :func:`download` writes after
    every verified download names the same URL, the file's size and SHA-256, and the file
    still hashes to that SHA-256 (and has ``expected_size``, when given). A ``dest`` without
    such a record is downloaded again. Known limit: without a ``sha256`` a file replaced on the
    server under the same URL is not noticed; callers that care pass the hash.

* **Errors a person can act on**: unreachable server, HTTP status in plain words, a connection
  that kept dropping ("stopped at 12.3 MB of 40.0 MB"), a damaged file, a full disk.
* **Progress** as :class:`DownloadProgress`, at most ~10 times a second plus once at the end,
  and **cancel** through a :class:`threading.Event`, checked before every chunk (64 KiB) and
  during the pause between retries; the part is kept for a later resume.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
import urllib3

from .errors import Cancelled, DownloadError

__all__ = [
    "DownloadError",
    "DownloadProgress",
    "DownloadResult",
    "download",
    "part_path",
    "record_path",
]

CHUNK_SIZE = 64 * 1024
PROGRESS_INTERVAL_S = 0.1  # at most ~10 progress reports a second
RATE_WINDOW_S = 3.0  # the speed shown is the average over the last few seconds
BACKOFF_S = (0.25, 0.5, 1.0)  # pause before retry 1, 2, 3...; the last one repeats
MAX_RESTARTS = 3  # restarts from byte zero within one call (server ignored or changed ranges)
_RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
_GONE_STATUSES = frozenset({404, 410})
_SHA256_RE = re.compile(r"[0-9a-f]{64}")
_CONTENT_RANGE_RE = re.compile(r"bytes\s+(\d+)-(\d+)/(\d+|\*)", re.IGNORECASE)
_UNSATISFIED_RANGE_RE = re.compile(r"bytes\s+\*/(\d+)", re.IGNORECASE)




@dataclass(frozen=True)
class DownloadProgress:
    """How far a download is. Sizes in bytes; ``total`` is None when the server did not say."""

    received: int  # bytes of the file on disk so far, including a resumed part
    total: int | None
    bytes_per_second: float  # recent average; 0.0 until it can be measured
    eta_seconds: float | None  # None while the total or the speed is unknown
    resumed_from: int  # bytes that were already on disk when the current response began

    @property
    def fraction(self) -> float | None:
        """0.0 … 1.0, or None when the total is unknown."""
        if not self.total:
            return None
        return min(1.0, self.received / self.total)


@dataclass(frozen=True)
class DownloadResult:
    """A verified file at ``path``."""

    path: Path
    size: int  # bytes
    sha256: str  # lower-case hex
    resumed: bool  # the file was completed from a part written by an earlier attempt
    from_cache: bool  # an existing verified file was returned without any network traffic
    seconds: float


def part_path(dest: Path) -> Path:
    """Where the body is written until it is verified: ``<dest>.part``."""
    return dest.with_name(dest.name + ".part")


def _part_meta_path(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part.json")


def record_path(dest: Path) -> Path:
    """The record written next to a verified download: ``<dest>.json``."""
    return dest.with_name(dest.name + ".json")


def download(
    url: str,
    dest: Path,
    *,
    expected_size: int | None = None,
    sha256: str | None = None,
    session: requests.Session | None = None,
    progress: Callable[[DownloadProgress], None] | None = None,
    cancel: threading.Event | None = None,
    timeout: float = 30,
    allow_http: bool = False,
    max_retries: int = 3,
) -> DownloadResult:
    """Download ``url`` to ``dest``, verified, resumable and cancellable (see the module doc).

    ``expected_size`` and ``sha256`` are checked when given; ``timeout`` is the connect and
    per-read timeout in seconds; ``max_retries`` is how many times a dropped connection or a
    temporary server error (408, 429, 500, 502-504) is retried after a short pause, resuming
    where it stopped. A server that could not be reached at all during this call (refused,
    no DNS, connect timeout) is not retried: the person hears at once that they seem offline.

    Raises :class:`DownloadError` (and :class:`~build_backend.errors.Cancelled` when ``cancel`` is
    set: the part file is kept, a later call resumes it) with a message for a person,
    and :class:`ValueError` for a malformed argument (a programming error).
    """
    started = time.monotonic()
    dest = Path(dest)
    want_sha = _normalise_sha256(sha256)
    if expected_size is not None and expected_size < 0:
        raise ValueError(f"expected_size must be >= 0, not {expected_size}")
    if max_retries < 0:
        raise ValueError(f"max_retries must be >= 0, not {max_retries}")
    _check_scheme(url, url, allow_http)

    cached = _cached(url, dest, expected_size, want_sha)
    if cached is not None:
        size, digest = cached
        if progress is not None:  # one report, so that a progress bar reaches its end
            progress(DownloadProgress(size, size, 0.0, 0.0, resumed_from=0))
        return DownloadResult(
            path=dest,
            size=size,
            sha256=digest,
            resumed=False,
            from_cache=True,
            seconds=time.monotonic() - started,
        )

    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _disk_error(dest, exc) from exc

    own_session = session is None
    http = session if session is not None else requests.Session()
    try:
        job = _Job(
            url=url,
            dest=dest,
            expected_size=expected_size,
            sha256=want_sha,
            session=http,
            reporter=_Reporter(progress),
            cancel=cancel,
            timeout=timeout,
            allow_http=allow_http,
            max_retries=max_retries,
        )
        size, digest = job.run()
    finally:
        if own_session:
            http.close()
    return DownloadResult(
        path=dest,
        size=size,
        sha256=digest,
        resumed=job.resumed,
        from_cache=False,
        seconds=time.monotonic() - started,
    )


# ---------------------------------------------------------------------------------------------
# The download itself


@dataclass(frozen=True)
class _PartMeta:
    """The side file ``<dest>.part.json``: what the part belongs to."""

    url: str
    etag: str | None
    last_modified: str | None
    total: int | None  # the full size the server announced, if it did
    expected_size: int | None
    sha256: str | None

    @property
    def validator(self) -> str | None:
        """What goes into If-Range: a strong ETag, else Last-Modified (RFC 9110 §13.1.5)."""
        if self.etag and not self.etag.startswith("W/"):
            return self.etag
        return self.last_modified or None

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": "ksw.download-part/1",
            "url": self.url,
            "etag": self.etag,
            "last_modified": self.last_modified,
            "total": self.total,
            "expected_size": self.expected_size,
            "sha256": self.sha256,
        }

    @staticmethod
    def load(path: Path) -> _PartMeta | None:
        data = _read_json(path)
        if data is None or data.get("schema") != "ksw.download-part/1":
            return None
        try:
            return _PartMeta(
                url=str(data["url"]),
                etag=_opt_str(data.get("etag")),
                last_modified=_opt_str(data.get("last_modified")),
                total=_opt_int(data.get("total")),
                expected_size=_opt_int(data.get("expected_size")),
                sha256=_opt_str(data.get("sha256")),
            )
        except (KeyError, TypeError, ValueError):
            return None


class _Retry(Exception):
    """Internal: a temporary failure; ``error`` is what the person sees if it is the last."""

    def __init__(self, error: DownloadError) -> None:
        super().__init__(error.what)
        self.error = error


class _Restart(Exception):
    """Internal: the part cannot be continued; start again from byte zero."""


class _Job:
    """One call of :func:`download` that goes to the network."""

    def __init__(
        self,
        *,
        url: str,
        dest: Path,
        expected_size: int | None,
        sha256: str | None,
        session: requests.Session,
        reporter: _Reporter,
        cancel: threading.Event | None,
        timeout: float,
        allow_http: bool,
        max_retries: int,
    ) -> None:
        self.url = url
        self.dest = dest
        self.part = part_path(dest)
        self.meta_path = _part_meta_path(dest)
        self.expected_size = expected_size
        self.sha256 = sha256
        self.session = session
        self.reporter = reporter
        self.cancel = cancel
        self.timeout = timeout
        self.allow_http = allow_http
        self.max_retries = max_retries
        self.reached_server = False  # some answer came from the server during this call
        self.resumed = False  # the file on disk continues a part from an earlier attempt
        self.meta: _PartMeta | None = None

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> tuple[int, str]:
        failures = 0
        restarts = 0
        while True:
            self._check_cancel(self._part_size(), None)
            try:
                size, digest = self._attempt()
            except _Restart:
                restarts += 1
                self._discard_part()
                if restarts > MAX_RESTARTS:
                    raise DownloadError(
                        f"The download of {self.dest.name} kept starting over.",
                        why=f"The server at {_host(self.url)} answered every attempt to continue "
                        "the file with a different file.",
                        hint="Try again later; the file may be being replaced on the server.",
                    ) from None
                continue
            except _Retry as retry:
                failures += 1
                if failures > self.max_retries:
                    raise retry.error from None
                delay = BACKOFF_S[min(failures, len(BACKOFF_S)) - 1]
                if self.cancel is not None and self.cancel.wait(delay):
                    self._check_cancel(self._part_size(), None)
                elif self.cancel is None:
                    time.sleep(delay)
                continue
            self._finish(size, digest)
            return size, digest

    def _attempt(self) -> tuple[int, str]:
        """One request. Returns (size, sha256) of a complete part, or raises."""
        offset, meta = self._usable_part()
        headers = {"Accept-Encoding": "identity"}  # the bytes as stored: Range and hash fit
        if offset and meta is not None and meta.validator is not None:
            headers["Range"] = f"bytes={offset}-"
            headers["If-Range"] = meta.validator
        try:
            response = self.session.get(
                self.url, headers=headers, stream=True, timeout=self.timeout
            )
        except requests.exceptions.SSLError as exc:
            raise self._tls_error(exc) from exc
        except (requests.ConnectionError, requests.Timeout) as exc:
            if self.reached_server:  # it answered moments ago: a blip, worth a retry
                raise _Retry(self._stopped_error(offset, self._total_hint(), exc)) from exc
            raise self._unreachable_error(exc) from exc
        except requests.RequestException as exc:
            raise DownloadError(
                f"The download of {self.dest.name} could not start.",
                why=f"{type(exc).__name__}: {exc}",
                hint="Check the address; if it came with the wizard, report this as a bug.",
            ) from exc

        with contextlib.closing(response):
            self.reached_server = True
            for hop in [*response.history, response]:
                _check_scheme(self.url, hop.url, self.allow_http)
            status = response.status_code
            if status == 416 and "Range" in headers:
                return self._range_not_satisfiable(response, offset, meta)
            if status == 200:
                return self._receive(response, start=0, meta=self._fresh_meta(response))
            if status == 206 and "Range" in headers and meta is not None:
                return self._receive(
                    response, start=offset, meta=self._resume_meta(response, offset, meta)
                )
            raise self._status_error(response)

    def _receive(
        self, response: requests.Response, *, start: int, meta: _PartMeta
    ) -> tuple[int, str]:
        """Stream the body into the part from ``start`` on; the part's side file is ``meta``."""
        total = meta.total
        if total is not None and self.expected_size is not None and total != self.expected_size:
            self._discard_part()
            raise self._damaged_error(
                why=f"The server offers {_exact(total)}, but the wizard expects "
                f"{_exact(self.expected_size)}."
            )
        hasher = hashlib.sha256()
        if start:
            try:
                _hash_into(self.part, hasher.update, limit=start)
            except OSError as exc:
                raise _Restart from exc
            self.resumed = True
        else:
            self.resumed = False
        self.meta = meta
        try:
            _write_json(self.meta_path, meta.to_json())
            handle = self.part.open("ab" if start else "wb")
        except OSError as exc:
            raise _disk_error(self.dest, exc) from exc

        received = start
        chunks: Iterator[bytes] = response.raw.stream(CHUNK_SIZE, decode_content=False)
        self.reporter.begin(start)
        with handle:
            if start:
                handle.truncate(start)  # in case the part grew since it was measured
            while True:
                self._check_cancel(received, total, handle)
                try:
                    chunk = next(chunks)
                except StopIteration:
                    break
                except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as exc:
                    raise _Retry(self._stopped_error(received, total, exc)) from exc
                try:
                    handle.write(chunk)
                except OSError as exc:
                    raise _disk_error(self.dest, exc) from exc
                hasher.update(chunk)
                received += len(chunk)
                limit = total if total is not None else self.expected_size
                if limit is not None and received > limit:
                    handle.close()
                    self._discard_part()
                    raise self._damaged_error(
                        why=f"The server sent more than the {_exact(limit)} "
                        + ("it announced." if total is not None else "expected.")
                    )
                self.reporter.update(received, total)
        if total is not None and received < total:
            raise _Retry(self._stopped_error(received, total, None))
        return received, hasher.hexdigest()

    def _range_not_satisfiable(
        self, response: requests.Response, offset: int, meta: _PartMeta | None
    ) -> tuple[int, str]:
        """416 to ``Range: bytes=<part size>-``: the part may already be the whole file."""
        match = _UNSATISFIED_RANGE_RE.fullmatch(response.headers.get("Content-Range", "").strip())
        total = int(match.group(1)) if match else (meta.total if meta is not None else None)
        if meta is None or total is None or total != offset:
            raise _Restart
        hasher = hashlib.sha256()
        try:
            _hash_into(self.part, hasher.update, limit=offset)
        except OSError as exc:
            raise _Restart from exc
        self.meta = meta
        self.resumed = True
        self.reporter.begin(offset)
        return offset, hasher.hexdigest()

    def _finish(self, size: int, digest: str) -> None:
        """Verify the complete part, then move it onto ``dest`` and write the record."""
        if self.expected_size is not None and size != self.expected_size:
            self._discard_part()
            raise self._damaged_error(
                why=f"It has {_exact(size)}, but {_exact(self.expected_size)} were expected."
            )
        if self.sha256 is not None and digest != self.sha256:
            self._discard_part()
            raise self._damaged_error(
                why=f"Its SHA-256 is {digest}, but {self.sha256} was expected."
            )
        record = record_path(self.dest)
        try:
            _unlink(record)  # no record may vouch for a dest that is about to change
            _replace(self.part, self.dest)
            _unlink(self.meta_path)
            meta = self.meta
            _write_json(
                record,
                {
                    "schema": "ksw.download/1",
                    "url": self.url,
                    "size": size,
                    "sha256": digest,
                    "etag": meta.etag if meta is not None else None,
                    "last_modified": meta.last_modified if meta is not None else None,
                    "verified": True,
                },
            )
        except OSError as exc:
            raise _disk_error(self.dest, exc) from exc
        self.reporter.finish(size)

    # -- the part and its side file ---------------------------------------------------------

    def _usable_part(self) -> tuple[int, _PartMeta | None]:
        """(bytes to continue from, side file) — (0, None) after discarding an unusable part."""
        size = self._part_size()
        if size is None:
            _unlink_quietly(self.meta_path)
            return 0, None
        meta = _PartMeta.load(self.meta_path)
        usable = (
            meta is not None
            and size > 0
            and meta.url == self.url
            and meta.validator is not None
            and _same_or_unknown(meta.sha256, self.sha256)
            and _same_or_unknown(meta.expected_size, self.expected_size)
            and (meta.total is None or size <= meta.total)
            and (self.expected_size is None or size <= self.expected_size)
        )
        if not usable:
            self._discard_part()
            return 0, None
        return size, meta

    def _fresh_meta(self, response: requests.Response) -> _PartMeta:
        return _PartMeta(
            url=self.url,
            etag=response.headers.get("ETag"),
            last_modified=response.headers.get("Last-Modified"),
            total=_content_length(response),
            expected_size=self.expected_size,
            sha256=self.sha256,
        )

    def _resume_meta(self, response: requests.Response, offset: int, meta: _PartMeta) -> _PartMeta:
        match = _CONTENT_RANGE_RE.fullmatch(response.headers.get("Content-Range", "").strip())
        if match is None or int(match.group(1)) != offset:
            raise _Restart
        total = None if match.group(3) == "*" else int(match.group(3))
        if total is not None and meta.total is not None and total != meta.total:
            raise _Restart
        if total is not None and int(match.group(2)) != total - 1:
            raise _Restart  # only part of the rest: this downloader asks for all of it
        return _PartMeta(
            url=meta.url,
            etag=meta.etag,
            last_modified=meta.last_modified,
            total=total if total is not None else meta.total,
            expected_size=self.expected_size,
            sha256=self.sha256,
        )

    def _part_size(self) -> int | None:
        try:
            return self.part.stat().st_size
        except OSError:
            return None

    def _discard_part(self) -> None:
        _unlink_quietly(self.part)
        _unlink_quietly(self.meta_path)

    def _total_hint(self) -> int | None:
        meta = self.meta or _PartMeta.load(self.meta_path)
        return meta.total if meta is not None else self.expected_size

    def _check_cancel(
        self, received: int | None, total: int | None, handle: io.BufferedIOBase | None = None
    ) -> None:
        if self.cancel is None or not self.cancel.is_set():
            return
        if handle is not None:
            handle.flush()
        kept = received or 0
        why = ""
        if kept:
            of = f" of {_size(total)}" if total is not None else ""
            why = f"{_size(kept)}{of} had arrived."
        raise Cancelled(
            f"The download of {self.dest.name} was cancelled.",
            why=why,
            hint="Start it again to continue: the part already downloaded is kept." if kept else "",
        )

    # -- errors for a person ----------------------------------------------------------------

    def _stopped_error(
        self, received: int | None, total: int | None, exc: BaseException | None
    ) -> DownloadError:
        got = received or 0
        of = f" of {_size(total)}" if total is not None else ""
        cause = _connection_reason(exc) if exc is not None else "the server closed it early"
        meta = self.meta or _PartMeta.load(self.meta_path)
        if got and meta is not None and meta.validator is not None:
            keep = "the part already downloaded is kept and a later attempt continues from it."
        else:
            keep = "a later attempt starts from the beginning."
        return DownloadError(
            f"The download of {self.dest.name} stopped at {_size(got)}{of}.",
            why=f"The connection to {_host(self.url)} was lost ({cause})"
            + _after_retries(self.max_retries),
            hint=f"Check the internet connection and try again; {keep}",
        )

    def _unreachable_error(self, exc: BaseException) -> DownloadError:
        return DownloadError(
            f"Could not reach the server {_host(self.url)} to download {self.dest.name}.",
            why="The computer seems to be offline, or the server is unreachable "
            f"({_connection_reason(exc)}).",
            hint="Check the internet connection (and the proxy settings, if your network uses "
            "one), then try again.",
        )

    def _tls_error(self, exc: BaseException) -> DownloadError:
        return DownloadError(
            f"The secure connection to {_host(self.url)} could not be established.",
            why=f"The server's certificate was not accepted ({_short(exc)}).",
            hint="Check that the computer's date and time are right. On a company network a "
            "proxy may inspect HTTPS traffic: ask the IT department for its certificate.",
        )

    def _status_error(self, response: requests.Response) -> Exception:
        status = response.status_code
        code = f"HTTP {status}"
        name = self.dest.name
        if status in _GONE_STATUSES:
            self._discard_part()  # the file is gone: its part is worthless
            return DownloadError(
                f"The file {name} was not found on the server ({code}).",
                why=f"{self.url} does not exist (any more).",
                hint="The link may be out of date: look for a newer version of the wizard, or "
                "download the file by hand and point the wizard at it.",
            )
        if status in (401, 403):
            return DownloadError(
                f"The server refused to hand out {name} ({code}).",
                why=f"{_host(self.url)} requires a login or denies access from this network.",
                hint="Try again later or from another network; a company network may block "
                "the download.",
            )
        if status in _RETRY_STATUSES:
            if status == 429:
                what = f"The server is limiting requests and did not send {name} ({code})."
            elif status == 408:
                what = f"The server gave up waiting while sending {name} ({code})."
            else:
                what = f"The server had a problem and could not send {name} ({code})."
            return _Retry(
                DownloadError(
                    what,
                    why=f"{_host(self.url)} answered {status} {response.reason or ''}".rstrip()
                    + _after_retries(self.max_retries),
                    hint="This is on the server's side: try again in a few minutes.",
                )
            )
        return DownloadError(
            f"The server did not send {name}: it answered {code} {response.reason or ''}".rstrip()
            + ".",
            why=f"The address was {self.url}.",
            hint="Try again later; if this persists, report it with the address above.",
        )

    def _damaged_error(self, *, why: str) -> DownloadError:
        return DownloadError(
            f"The downloaded file {self.dest.name} was damaged or has changed on the server.",
            why=why,
            hint="The damaged file was deleted. Try again; if it happens again, the file on the "
            "server was probably replaced: look for a newer version of the wizard.",
        )


# ---------------------------------------------------------------------------------------------
# Progress


class _Reporter:
    """Turns byte counts into :class:`DownloadProgress` at most every PROGRESS_INTERVAL_S."""

    def __init__(self, callback: Callable[[DownloadProgress], None] | None) -> None:
        self.callback = callback
        self.samples: deque[tuple[float, int]] = deque()
        self.last_emit = float("-inf")
        self.resumed_from = 0

    def begin(self, start: int) -> None:
        self.samples.clear()
        self.samples.append((time.monotonic(), start))
        self.resumed_from = start

    def update(self, received: int, total: int | None) -> None:
        if self.callback is None:
            return
        now = time.monotonic()
        self.samples.append((now, received))
        while len(self.samples) > 2 and now - self.samples[0][0] > RATE_WINDOW_S:
            self.samples.popleft()
        if now - self.last_emit >= PROGRESS_INTERVAL_S:
            self.last_emit = now
            self._emit(received, total, final=False)

    def finish(self, size: int) -> None:
        if self.callback is None:
            return
        self.samples.append((time.monotonic(), size))
        self._emit(size, size, final=True)

    def _emit(self, received: int, total: int | None, *, final: bool) -> None:
        assert self.callback is not None
        (t0, b0), (t1, b1) = self.samples[0], self.samples[-1]
        rate = (b1 - b0) / (t1 - t0) if t1 > t0 else 0.0
        if final:
            eta: float | None = 0.0
        elif total is not None and rate > 0:
            eta = max(0.0, (total - received) / rate)
        else:
            eta = None
        self.callback(
            DownloadProgress(
                received=received,
                total=total,
                bytes_per_second=rate,
                eta_seconds=eta,
                resumed_from=self.resumed_from,
            )
        )


# ---------------------------------------------------------------------------------------------
# Helpers


def _cached(
    url: str, dest: Path, expected_size: int | None, sha256: str | None
) -> tuple[int, str] | None:
    """(size, sha256) of an existing ``dest`` that may be returned as is (see the module doc)."""
    try:
        if not dest.is_file():
            return None
        size = dest.stat().st_size
        if sha256 is not None:
            digest = _hash_file(dest)
            if digest == sha256 and (expected_size is None or size == expected_size):
                return size, digest
            # A file known to be wrong: nothing may trust it, a fresh download replaces it.
            _unlink_quietly(dest)
            _unlink_quietly(record_path(dest))
            return None
        record = _read_json(record_path(dest))
        if (
            record is None
            or record.get("schema") != "ksw.download/1"
            or record.get("verified") is not True
            or record.get("url") != url
            or record.get("size") != size
            or (expected_size is not None and size != expected_size)
        ):
            return None
        digest = _hash_file(dest)
        return (size, digest) if digest == record.get("sha256") else None
    except OSError:
        return None


def _check_scheme(original: str, url: str | None, allow_http: bool) -> None:
    scheme = urlsplit(url or "").scheme.lower()
    if scheme == "https" or (scheme == "http" and allow_http):
        return
    redirected = url != original
    if scheme == "http":
        what = (
            f"The download from {_host(original)} was redirected to an insecure address."
            if redirected
            else f"The wizard does not download over plain HTTP ({_host(original)})."
        )
        raise DownloadError(
            what,
            why=f"{url} is not an https:// address, so the file could be altered on the way.",
            hint="Use the https:// address of the file; if it came with the wizard, report "
            "this as a bug.",
        )
    raise DownloadError(
        f"The address {url!r} is not one the wizard can download from.",
        why="Only https:// addresses are supported.",
        hint="Check the address; if it came with the wizard, report this as a bug.",
    )


def _normalise_sha256(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip().lower()
    if not _SHA256_RE.fullmatch(text):
        raise ValueError(f"sha256 must be 64 hex digits, not {value!r}")
    return text


def _content_length(response: requests.Response) -> int | None:
    try:
        value = int(response.headers.get("Content-Length", ""))
    except ValueError:
        return None
    return value if value >= 0 else None


def _hash_file(path: Path) -> str:
    hasher = hashlib.sha256()
    _hash_into(path, hasher.update, limit=None)
    return hasher.hexdigest()


def _hash_into(path: Path, update: Callable[[bytes], None], *, limit: int | None) -> None:
    """Feed the first ``limit`` bytes of ``path`` (all when None) to ``update``.

    Raises OSError when the file is shorter than ``limit``.
    """
    left = limit
    with path.open("rb") as handle:
        while left is None or left > 0:
            block = handle.read(1024 * 1024 if left is None else min(1024 * 1024, left))
            if not block:
                break
            update(block)
            if left is not None:
                left -= len(block)
    if left:
        raise OSError(f"{path} is shorter than expected")


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half of one."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    _replace(tmp, path)


def _replace(src: Path, dst: Path) -> None:
    """os.replace, retried briefly: on Windows a virus scanner may hold a fresh file open."""
    for pause in (0.1, 0.25, 0.5, 1.0):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            time.sleep(pause)
    os.replace(src, dst)


def _unlink(path: Path) -> None:
    path.unlink(missing_ok=True)


def _unlink_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def _after_retries(n: int) -> str:
    if n == 0:
        return "."
    return f", also after {n} {'retry' if n == 1 else 'retries'}."


def _same_or_unknown(a: object, b: object) -> bool:
    return a is None or b is None or a == b


def _opt_str(value: object) -> str | None:
    return None if value is None else str(value)


def _opt_int(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not an integer: {value!r}")
    return value


def _host(url: str) -> str:
    parts = urlsplit(url)
    return parts.hostname or url


def _size(n: int) -> str:
    """12_345_678 → '12.3 MB' (decimal units, as download pages show them)."""
    if n < 1000:
        return f"{n} bytes"
    for unit, scale in (("kB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if n < scale * 1000 or unit == "GB":
            return f"{n / scale:.1f} {unit}"
    raise AssertionError("unreachable")


def _exact(n: int) -> str:
    """'2.0 MB (2048000 bytes)'; just '5 bytes' when that says it all."""
    return _size(n) if n < 1000 else f"{_size(n)} ({n} bytes)"


def _short(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _connection_reason(exc: BaseException) -> str:
    """A few plain words for what went wrong with a connection."""
    chain: list[BaseException] = []
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo:  # walk __cause__/__context__ and the reason urllib3 keeps in args
        e = todo.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        chain.append(e)
        todo.extend(x for x in (e.__cause__, e.__context__) if x is not None)
        todo.extend(a for a in e.args if isinstance(a, BaseException))
        reason = getattr(e, "reason", None)
        if isinstance(reason, BaseException):
            todo.append(reason)
    text = " ".join(str(e) for e in chain).lower()
    if any(isinstance(e, urllib3.exceptions.NameResolutionError) for e in chain) or (
        "name or service not known" in text
        or "nodename nor servname" in text
        or "getaddrinfo failed" in text
        or "temporary failure in name resolution" in text
    ):
        return "the server's name could not be looked up"
    if any(isinstance(e, requests.exceptions.ProxyError) for e in chain):
        return "the proxy server could not be reached"
    if any(isinstance(e, ConnectionRefusedError) for e in chain) or "refused" in text:
        return "the connection was refused"
    if any(isinstance(e, ConnectionResetError) for e in chain) or "reset by peer" in text:
        return "the connection was reset"
    if (
        any(
            isinstance(e, (TimeoutError, requests.Timeout, urllib3.exceptions.TimeoutError))
            for e in chain
        )
        or "timed out" in text
    ):
        return "no answer in time"
    if "incompleteread" in text or "connection broken" in text:
        return "the server closed it early"
    return _short(exc)


def _disk_error(dest: Path, exc: OSError) -> DownloadError:
    return DownloadError(
        f"The wizard could not write {dest.name} to disk.",
        why=f"{exc.strerror or _short(exc)} ({dest.parent}).",
        hint="Check that the drive has enough free space and that the folder may be written "
        "to, then try again.",
    )
