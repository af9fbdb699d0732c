"""The transfer: :func:`download` and the HTTP loop behind it (retries, resume, restart).

See :mod:`kernel_wizard.base.download` for what it promises; :mod:`.store` for what lies on disk,
:mod:`.words` for the messages and :mod:`.content` for the content checks.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import requests

from kernel_wizard.base.download.content import not_the_file_error, sniff
from kernel_wizard.base.download.progress import DownloadProgress, Reporter
from kernel_wizard.base.download.store import (
    PartMeta,
    cached,
    file_size,
    hash_into,
    normalise_sha256,
    part_meta_path,
    part_path,
    record_path,
    replace,
    same_or_unknown,
    unlink,
    unlink_quietly,
    write_json,
    write_record,
)
from kernel_wizard.base.download.wording import (
    check_scheme,
    connection_reason,
    damaged_error,
    disk_error,
    exact,
    host,
    size_text,
    status_error,
    stopped_error,
    tls_error,
    unreachable_error,
)
from kernel_wizard.base.errors import Cancelled, DownloadError
from kernel_wizard.base.messages import msg

CHUNK_SIZE = 64 * 1024
BACKOFF_S = (0.25, 0.5, 1.0)  # pause before retry 1, 2, 3...; the last one repeats
MAX_RESTARTS = 3  # restarts from byte zero within one call (server ignored or changed ranges)
_RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
_GONE_STATUSES = frozenset({404, 410})
_CONTENT_RANGE_RE = re.compile(r"bytes\s+(\d+)-(\d+)/(\d+|\*)", re.IGNORECASE)
_UNSATISFIED_RANGE_RE = re.compile(r"bytes\s+\*/(\d+)", re.IGNORECASE)

ContentCheck = Callable[[Path], str]
"""Checks a complete file's content; returns what it checked, in words; raises
:class:`DownloadError` when the content is wrong (the file is then deleted)."""


@dataclass(frozen=True)
class DownloadResult:
    """A verified file at ``path``."""

    path: Path
    size: int  # bytes
    sha256: str  # lower-case hex
    resumed: bool  # the file was completed from a part written by an earlier attempt
    from_cache: bool  # an existing verified file was returned without any network traffic
    seconds: float
    url: str = ""
    announced_size: int | None = None  # what the server said the size was (Content-Length)
    checks: tuple[str, ...] = ()  # what was verified, in words


def download(
    url: str,
    dest: Path,
    *,
    expected_size: int | None = None,
    sha256: str | None = None,
    check: ContentCheck | None = None,
    session: requests.Session | None = None,
    progress: Callable[[DownloadProgress], None] | None = None,
    cancel: threading.Event | None = None,
    timeout: float = 30,
    allow_http: bool = False,
    max_retries: int = 3,
) -> DownloadResult:
    """Download ``url`` to ``dest``, verified, resumable and cancellable (see the package doc).

    ``expected_size`` and ``sha256`` are checked when given; ``check`` is a content check
    (e.g. :func:`~kernel_wizard.base.download.wheel_check`) run on the complete file before it
    becomes ``dest``, and on a cached ``dest`` before it is reused; ``timeout`` is the connect
    and per-read timeout in seconds; ``max_retries`` is how many times a dropped connection
    or a temporary server error (408, 429, 500, 502-504) is retried after a short pause,
    resuming where it stopped. A server that could not be reached at all during this call
    (refused, no DNS, connect timeout) is not retried: the person hears at once that they
    seem offline.

    Raises :class:`DownloadError` (and :class:`~base.errors.Cancelled` when ``cancel`` is
    set: the part file is kept, a later call resumes it) with a message for a person,
    and :class:`ValueError` for a malformed argument (a programming error).
    """
    import requests  # lazily: not needed to start the wizard

    started = time.monotonic()
    dest = Path(dest)
    want_sha = normalise_sha256(sha256)
    if expected_size is not None and expected_size < 0:
        raise ValueError(f"expected_size must be >= 0, not {expected_size}")
    if max_retries < 0:
        raise ValueError(f"max_retries must be >= 0, not {max_retries}")
    check_scheme(url, url, allow_http)

    reuse = cached(url, dest, expected_size, want_sha)
    if reuse is not None:
        checks = reuse.checks
        if check is not None:
            try:
                checks = _merge(checks, check(dest))
            except DownloadError:  # damaged since it was verified: download it again
                unlink_quietly(dest)
                unlink_quietly(record_path(dest))
                reuse = None
    if reuse is not None:
        if progress is not None:  # one report, so that a progress bar reaches its end
            progress(DownloadProgress(reuse.size, reuse.size, 0.0, 0.0, resumed_from=0))
        return DownloadResult(
            path=dest,
            size=reuse.size,
            sha256=reuse.sha256,
            resumed=False,
            from_cache=True,
            seconds=time.monotonic() - started,
            url=url,
            announced_size=reuse.announced,
            checks=checks,
        )

    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise disk_error(dest.name, dest.parent, exc) from exc

    own_session = session is None
    http = session if session is not None else requests.Session()
    try:
        job = _Job(
            url=url,
            dest=dest,
            expected_size=expected_size,
            sha256=want_sha,
            check=check,
            session=http,
            reporter=Reporter(progress),
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
        url=url,
        announced_size=job.meta.total if job.meta is not None else None,
        checks=job.checks,
    )


def _merge(checks: tuple[str, ...], line: str) -> tuple[str, ...]:
    return checks if line in checks else (*checks, line)


# ---------------------------------------------------------------------------------------------
# The download itself


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
        check: ContentCheck | None,
        session: requests.Session,
        reporter: Reporter,
        cancel: threading.Event | None,
        timeout: float,
        allow_http: bool,
        max_retries: int,
    ) -> None:
        self.url = url
        self.dest = dest
        self.part = part_path(dest)
        self.meta_path = part_meta_path(dest)
        self.expected_size = expected_size
        self.sha256 = sha256
        self.check = check
        self.session = session
        self.reporter = reporter
        self.cancel = cancel
        self.timeout = timeout
        self.allow_http = allow_http
        self.max_retries = max_retries
        self.reached_server = False  # some answer came from the server during this call
        self.resumed = False  # the file on disk continues a part from an earlier attempt
        self.meta: PartMeta | None = None
        self.checks: tuple[str, ...] = ()  # what _finish verified, in words

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
                        why=f"The server at {host(self.url)} answered every attempt to continue "
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
        import requests  # lazily: not needed to start the wizard
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
            raise tls_error(self.url, exc) from exc
        except (requests.ConnectionError, requests.Timeout) as exc:
            if self.reached_server:  # it answered moments ago: a blip, worth a retry
                raise _Retry(self._stopped_error(offset, self._total_hint(), exc)) from exc
            raise unreachable_error(self.dest.name, self.url, exc) from exc
        except requests.RequestException as exc:
            raise DownloadError(
                f"The download of {self.dest.name} could not start.",
                why=f"{type(exc).__name__}: {exc}",
                hint="Check the address; if it came with the wizard, report this as a bug.",
            ) from exc

        with contextlib.closing(response):
            self.reached_server = True
            for hop in [*response.history, response]:
                check_scheme(self.url, hop.url, self.allow_http)
            status = response.status_code
            if status == 416 and "Range" in headers:
                return self._range_not_satisfiable(response, offset, meta)
            if status == 200:
                return self._receive(response, start=0, meta=self._fresh_meta(response))
            if status == 206 and "Range" in headers and meta is not None:
                return self._receive(
                    response, start=offset, meta=self._resume_meta(response, offset, meta)
                )
            if status in _GONE_STATUSES:
                self._discard_part()  # the file is gone: its part is worthless
            retried = status in _RETRY_STATUSES
            error = status_error(self.dest.name, self.url, response,
                                 self.max_retries if retried else 0)
            if retried:
                raise _Retry(error)
            raise error

    def _receive(
        self, response: requests.Response, *, start: int, meta: PartMeta
    ) -> tuple[int, str]:
        """Stream the body into the part from ``start`` on; the part's side file is ``meta``."""
        import requests  # lazily: not needed to start the wizard
        import urllib3
        total = meta.total
        if total is not None and self.expected_size is not None and total != self.expected_size:
            self._discard_part()
            self._refuse_page(response)
            raise damaged_error(
                self.dest.name,
                why=f"The server offers {exact(total)}, but the wizard expects "
                f"{exact(self.expected_size)}.",
            )
        hasher = hashlib.sha256()
        if start:
            try:
                hash_into(self.part, hasher.update, limit=start)
            except OSError as exc:
                raise _Restart from exc
            self.resumed = True
        else:
            self.resumed = False
        self.meta = meta
        try:
            write_json(self.meta_path, meta.to_json())
            handle = self.part.open("ab" if start else "wb")
        except OSError as exc:
            raise disk_error(self.dest.name, self.dest.parent, exc) from exc

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
                    raise disk_error(self.dest.name, self.dest.parent, exc) from exc
                hasher.update(chunk)
                received += len(chunk)
                limit = total if total is not None else self.expected_size
                if limit is not None and received > limit:
                    handle.close()
                    self._discard_part()
                    raise damaged_error(
                        self.dest.name,
                        why=f"The server sent more than the {exact(limit)} "
                        + ("it announced." if total is not None else "expected."),
                    )
                self.reporter.update(received, total)
        if total is not None and received < total:
            raise _Retry(self._stopped_error(received, total, None))
        return received, hasher.hexdigest()

    def _refuse_page(self, response: requests.Response) -> None:
        """A text answer (an error page served as 200) is named as such, not as a bad size."""
        import requests  # lazily: not needed to start the wizard
        import urllib3
        ctype = response.headers.get("Content-Type", "")
        if not ctype.startswith("text/") and "json" not in ctype and "xml" not in ctype:
            return
        with contextlib.suppress(requests.RequestException, urllib3.exceptions.HTTPError,
                                 OSError):
            found = sniff(response.raw.read(CHUNK_SIZE, decode_content=True), ctype)
            if found is not None:
                raise not_the_file_error(self.dest.name, found)

    def _range_not_satisfiable(
        self, response: requests.Response, offset: int, meta: PartMeta | None
    ) -> tuple[int, str]:
        """416 to ``Range: bytes=<part size>-``: the part may already be the whole file."""
        match = _UNSATISFIED_RANGE_RE.fullmatch(response.headers.get("Content-Range", "").strip())
        total = int(match.group(1)) if match else (meta.total if meta is not None else None)
        if meta is None or total is None:
            raise _Restart
        if meta.total is not None and total != meta.total:
            # It announced one size and now says the file has another: its answers cannot
            # both be right, and starting over would only repeat the first one.
            self._discard_part()
            raise damaged_error(
                self.dest.name,
                why=f"The server first announced {exact(meta.total)}, then said the file "
                f"has {exact(total)}.",
            )
        if total != offset:
            raise _Restart
        hasher = hashlib.sha256()
        try:
            hash_into(self.part, hasher.update, limit=offset)
        except OSError as exc:
            raise _Restart from exc
        self.meta = meta
        self.resumed = True
        self.reporter.begin(offset)
        return offset, hasher.hexdigest()

    def _finish(self, size: int, digest: str) -> None:
        """Verify the complete part, then move it onto ``dest`` and write the record."""
        checks: list[str] = []
        meta = self.meta
        if meta is not None and meta.total is not None:
            checks.append(f"its size matches what the server announced: {exact(size)}")
        if self.check is not None:
            try:
                checks.append(self.check(self.part))
            except DownloadError:
                self._discard_part()
                raise
        if self.expected_size is not None and size != self.expected_size:
            self._discard_part()
            raise damaged_error(
                self.dest.name,
                why=f"It has {exact(size)}, but {exact(self.expected_size)} were expected.",
            )
        if self.expected_size is not None:
            checks.append("its size matches the published size")
        if self.sha256 is not None and digest != self.sha256:
            self._discard_part()
            raise damaged_error(
                self.dest.name,
                why=f"Its SHA-256 is {digest}, but {self.sha256} was expected.",
            )
        if self.sha256 is not None:
            checks.append("its SHA-256 matches the published digest")
        self.checks = tuple(checks)
        try:
            unlink(record_path(self.dest))  # no record may vouch for a dest about to change
            replace(self.part, self.dest)
            unlink(self.meta_path)
            write_record(
                self.dest,
                {
                    "url": self.url,
                    "size": size,
                    "sha256": digest,
                    "etag": meta.etag if meta is not None else None,
                    "last_modified": meta.last_modified if meta is not None else None,
                    "announced_size": meta.total if meta is not None else None,
                    "checks": list(self.checks),
                    "verified_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                },
            )
        except OSError as exc:
            raise disk_error(self.dest.name, self.dest.parent, exc) from exc
        self.reporter.finish(size)

    # -- the part and its side file ---------------------------------------------------------

    def _usable_part(self) -> tuple[int, PartMeta | None]:
        """(bytes to continue from, side file) — (0, None) after discarding an unusable part."""
        size = self._part_size()
        if size is None:
            unlink_quietly(self.meta_path)
            return 0, None
        meta = PartMeta.load(self.meta_path)
        usable = (
            meta is not None
            and size > 0
            and meta.url == self.url
            and meta.validator is not None
            and same_or_unknown(meta.sha256, self.sha256)
            and same_or_unknown(meta.expected_size, self.expected_size)
            and (meta.total is None or size <= meta.total)
            and (self.expected_size is None or size <= self.expected_size)
        )
        if not usable:
            self._discard_part()
            return 0, None
        return size, meta

    def _fresh_meta(self, response: requests.Response) -> PartMeta:
        return PartMeta(
            url=self.url,
            etag=response.headers.get("ETag"),
            last_modified=response.headers.get("Last-Modified"),
            total=_content_length(response),
            expected_size=self.expected_size,
            sha256=self.sha256,
        )

    def _resume_meta(self, response: requests.Response, offset: int, meta: PartMeta) -> PartMeta:
        match = _CONTENT_RANGE_RE.fullmatch(response.headers.get("Content-Range", "").strip())
        if match is None or int(match.group(1)) != offset:
            raise _Restart
        total = None if match.group(3) == "*" else int(match.group(3))
        if total is not None and meta.total is not None and total != meta.total:
            raise _Restart
        if total is not None and int(match.group(2)) != total - 1:
            raise _Restart  # only part of the rest: this downloader asks for all of it
        return PartMeta(
            url=meta.url,
            etag=meta.etag,
            last_modified=meta.last_modified,
            total=total if total is not None else meta.total,
            expected_size=self.expected_size,
            sha256=self.sha256,
        )

    def _part_size(self) -> int | None:
        return file_size(self.part)

    def _discard_part(self) -> None:
        unlink_quietly(self.part)
        unlink_quietly(self.meta_path)

    def _total_hint(self) -> int | None:
        meta = self.meta or PartMeta.load(self.meta_path)
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
            of = f" of {size_text(total)}" if total is not None else ""
            why = f"{size_text(kept)}{of} had arrived."
        raise Cancelled(
            f"The download of {self.dest.name} was cancelled.",
            why=why,
            hint="Start it again to continue: the part already downloaded is kept." if kept else "",
        )

    def _stopped_error(
        self, received: int | None, total: int | None, exc: BaseException | None
    ) -> DownloadError:
        meta = self.meta or PartMeta.load(self.meta_path)
        cause = connection_reason(exc) if exc is not None else msg("the server closed it early")
        return stopped_error(
            self.dest.name, self.url, received or 0, total, cause,
            kept=meta is not None and meta.validator is not None, retries=self.max_retries,
        )


def _content_length(response: requests.Response) -> int | None:
    try:
        value = int(response.headers.get("Content-Length", ""))
    except ValueError:
        return None
    return value if value >= 0 else None
