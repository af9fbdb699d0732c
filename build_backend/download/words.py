"""What a failed download tells a person: plain words for sizes, hosts, causes and errors."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import requests
import urllib3

from ..errors import DownloadError
from ..oserrors import explain

GONE_STATUSES = frozenset({404, 410})


def check_scheme(original: str, url: str | None, allow_http: bool) -> None:
    """HTTPS only (plain HTTP with ``allow_http``); ``url`` may be a redirect of ``original``."""
    scheme = urlsplit(url or "").scheme.lower()
    if scheme == "https" or (scheme == "http" and allow_http):
        return
    redirected = url != original
    if scheme == "http":
        what = (
            f"The download from {host(original)} was redirected to an insecure address."
            if redirected
            else f"The wizard does not download over plain HTTP ({host(original)})."
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


def stopped_error(
    name: str, url: str, received: int, total: int | None, cause: str, *, kept: bool,
    retries: int,
) -> DownloadError:
    """The connection kept dropping; ``kept``: the part stays for a later attempt."""
    of = f" of {size_text(total)}" if total is not None else ""
    if received and kept:
        keep = "the part already downloaded is kept and a later attempt continues from it."
    else:
        keep = "a later attempt starts from the beginning."
    return DownloadError(
        f"The download of {name} stopped at {size_text(received)}{of}.",
        why=f"The connection to {host(url)} was lost ({cause})" + after_retries(retries),
        hint=f"Check the internet connection and try again; {keep}",
    )


def unreachable_error(name: str, url: str, exc: BaseException) -> DownloadError:
    return DownloadError(
        f"Could not reach the server {host(url)} to download {name}.",
        why="The computer seems to be offline, or the server is unreachable "
        f"({connection_reason(exc)}).",
        hint="Check the internet connection (and the proxy settings, if your network uses "
        "one), then try again.",
    )


def tls_error(url: str, exc: BaseException) -> DownloadError:
    return DownloadError(
        f"The secure connection to {host(url)} could not be established.",
        why=f"The server's certificate was not accepted ({short(exc)}).",
        hint="Check that the computer's date and time are right. On a company network a "
        "proxy may inspect HTTPS traffic: ask the IT department for its certificate.",
    )


def status_error(name: str, url: str, response: requests.Response, retries: int) -> DownloadError:
    """An HTTP status that is not a file, in plain words (the caller decides about retrying)."""
    status = response.status_code
    code = f"HTTP {status}"
    reason = f"{status} {response.reason or ''}".rstrip()
    if status in GONE_STATUSES:
        return DownloadError(
            f"The file {name} was not found on the server ({code}).",
            why=f"{url} does not exist (any more).",
            hint="The link may be out of date: look for a newer version of the wizard, or "
            "download the file by hand and point the wizard at it.",
        )
    if status in (401, 403):
        return DownloadError(
            f"The server refused to hand out {name} ({code}).",
            why=f"{host(url)} requires a login or denies access from this network.",
            hint="Try again later or from another network; a company network may block "
            "the download.",
        )
    if status == 429:
        what = f"The server is limiting requests and did not send {name} ({code})."
    elif status == 408:
        what = f"The server gave up waiting while sending {name} ({code})."
    elif status >= 500:
        what = f"The server had a problem and could not send {name} ({code})."
    else:
        return DownloadError(
            f"The server did not send {name}: it answered {code} {response.reason or ''}"
            .rstrip() + ".",
            why=f"The address was {url}.",
            hint="Try again later; if this persists, report it with the address above.",
        )
    return DownloadError(
        what,
        why=f"{host(url)} answered {reason}" + after_retries(retries),
        hint="This is on the server's side: try again in a few minutes.",
    )


def damaged_error(name: str, *, why: str) -> DownloadError:
    return DownloadError(
        f"The downloaded file {name} was damaged or has changed on the server.",
        why=why,
        hint="The damaged file was deleted. Try again; if it happens again, the file on the "
        "server was probably replaced: look for a newer version of the wizard.",
    )


def disk_error(dest_name: str, folder: object, exc: OSError) -> DownloadError:
    """A failed write in the words every disk problem gets (:func:`build_backend.oserrors.
    explain`: the path, the cause — disk full with the space left, no permission, read-only,
    name too long — and the fix), as a download error."""
    explained = explain(exc, path=Path(str(folder)) / dest_name, action=f"save {dest_name}")
    return DownloadError(f"The wizard could not write {dest_name} to disk.",
                         why=explained.why, hint=explained.hint)


def after_retries(n: int) -> str:
    if n == 0:
        return "."
    return f", also after {n} {'retry' if n == 1 else 'retries'}."


def host(url: str) -> str:
    parts = urlsplit(url)
    return parts.hostname or url


def size_text(n: int) -> str:
    """12_345_678 → '12.3 MB' (decimal units, as download pages show them)."""
    if n < 1000:
        return f"{n} bytes"
    for unit, scale in (("kB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if n < scale * 1000 or unit == "GB":
            return f"{n / scale:.1f} {unit}"
    raise AssertionError("unreachable")


def exact(n: int) -> str:
    """'2.0 MB (2048000 bytes)'; just '5 bytes' when that says it all."""
    return size_text(n) if n < 1000 else f"{size_text(n)} ({n} bytes)"


def short(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def connection_reason(exc: BaseException) -> str:
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
    return short(exc)
