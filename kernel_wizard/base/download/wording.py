"""What a failed download tells a person: plain words for sizes, hosts, causes and errors."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from kernel_wizard.base.errors import DownloadError
from kernel_wizard.base.messages import N_, Msg, msg
from kernel_wizard.base.oserrors import explain

if TYPE_CHECKING:
    import requests

GONE_STATUSES = frozenset({404, 410})


def check_scheme(original: str, url: str | None, allow_http: bool) -> None:
    """HTTPS only (plain HTTP with ``allow_http``); ``url`` may be a redirect of ``original``."""
    scheme = urlsplit(url or "").scheme.lower()
    if scheme == "https" or (scheme == "http" and allow_http):
        return
    redirected = url != original
    if scheme == "http":
        what = (
            msg("The download from {host} was redirected to an insecure address.",
                host=host(original))
            if redirected
            else msg("The wizard does not download over plain HTTP ({host}).",
                     host=host(original))
        )
        raise DownloadError(
            what,
            why=msg("{url} is not an https:// address, so the file could be altered on the way.",
                    url=url),
            hint=N_("Use the https:// address of the file; if it came with the wizard, report "
                    "this as a bug."),
        )
    raise DownloadError(
        msg("The address {url} is not one the wizard can download from.", url=repr(url)),
        why=N_("Only https:// addresses are supported."),
        hint=N_("Check the address; if it came with the wizard, report this as a bug."),
    )


def stopped_error(
    name: str, url: str, received: int, total: int | None, cause: str, *, kept: bool,
    retries: int,
) -> DownloadError:
    """The connection kept dropping; ``kept``: the part stays for a later attempt."""
    if total is not None:
        what = msg("The download of {name} stopped at {received} of {total}.", name=name,
                   received=size_text(received), total=size_text(total))
    else:
        what = msg("The download of {name} stopped at {received}.", name=name,
                   received=size_text(received))
    if received and kept:
        hint = N_("Check the internet connection and try again; the part already downloaded "
                  "is kept and a later attempt continues from it.")
    else:
        hint = N_("Check the internet connection and try again; a later attempt starts from "
                  "the beginning.")
    return DownloadError(
        what,
        why=msg("The connection to {host} was lost ({cause}){after}", host=host(url),
                cause=cause, after=after_retries(retries)),
        hint=hint,
    )


def unreachable_error(name: str, url: str, exc: BaseException) -> DownloadError:
    return DownloadError(
        msg("Could not reach the server {host} to download {name}.", host=host(url), name=name),
        why=msg("The computer seems to be offline, or the server is unreachable ({reason}).",
                reason=connection_reason(exc)),
        hint=N_("Check the internet connection (and the proxy settings, if your network uses "
                "one), then try again."),
    )


def tls_error(url: str, exc: BaseException) -> DownloadError:
    return DownloadError(
        msg("The secure connection to {host} could not be established.", host=host(url)),
        why=msg("The server's certificate was not accepted ({error}).", error=short(exc)),
        hint=N_("Check that the computer's date and time are right. On a company network a "
                "proxy may inspect HTTPS traffic: ask the IT department for its certificate."),
    )


def status_error(name: str, url: str, response: requests.Response, retries: int) -> DownloadError:
    """An HTTP status that is not a file, in plain words (the caller decides about retrying)."""
    status = response.status_code
    code = f"HTTP {status}"
    reason = f"{status} {response.reason or ''}".rstrip()
    if status in GONE_STATUSES:
        return DownloadError(
            msg("The file {name} was not found on the server ({code}).", name=name, code=code),
            why=msg("{url} does not exist (any more).", url=url),
            hint=N_("The link may be out of date: look for a newer version of the wizard, or "
                    "download the file by hand and point the wizard at it."),
        )
    if status in (401, 403):
        return DownloadError(
            msg("The server refused to hand out {name} ({code}).", name=name, code=code),
            why=msg("{host} requires a login or denies access from this network.",
                    host=host(url)),
            hint=N_("Try again later or from another network; a company network may block "
                    "the download."),
        )
    if status == 429:
        what = msg("The server is limiting requests and did not send {name} ({code}).",
                   name=name, code=code)
    elif status == 408:
        what = msg("The server gave up waiting while sending {name} ({code}).", name=name,
                   code=code)
    elif status >= 500:
        what = msg("The server had a problem and could not send {name} ({code}).", name=name,
                   code=code)
    else:
        return DownloadError(
            msg("The server did not send {name}: it answered {answer}.", name=name,
                answer=f"{code} {response.reason or ''}".rstrip()),
            why=msg("The address was {url}.", url=url),
            hint=N_("Try again later; if this persists, report it with the address above."),
        )
    return DownloadError(
        what,
        why=msg("{host} answered {reason}{after}", host=host(url), reason=reason,
                after=after_retries(retries)),
        hint=N_("This is on the server's side: try again in a few minutes."),
    )


def damaged_error(name: str, *, why: str) -> DownloadError:
    return DownloadError(
        msg("The downloaded file {name} was damaged or has changed on the server.", name=name),
        why=why,
        hint=N_("The damaged file was deleted. Try again; if it happens again, the file on the "
                "server was probably replaced: look for a newer version of the wizard."),
    )


def disk_error(dest_name: str, folder: object, exc: OSError) -> DownloadError:
    """A failed write in the words every disk problem gets (:func:`kernel_wizard.base.oserrors.
    explain`: the path, the cause — disk full with the space left, no permission, read-only,
    name too long — and the fix), as a download error."""
    explained = explain(exc, path=Path(str(folder)) / dest_name, action=f"save {dest_name}")
    return DownloadError(msg("The wizard could not write {name} to disk.", name=dest_name),
                         why=explained.why, hint=explained.hint)


def after_retries(n: int) -> Msg:
    """The end of a sentence about a lost connection: '.', or ', also after 2 retries.'."""
    if n == 0:
        return msg(".")  # the full stop alone (a translation may use its own)
    if n == 1:
        return msg(", also after {n} retry.", n=n)
    return msg(", also after {n} retries.", n=n)


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
    import requests  # lazily: not needed to start the wizard
    import urllib3

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
        return msg("the server's name could not be looked up")
    if any(isinstance(e, requests.exceptions.ProxyError) for e in chain):
        return msg("the proxy server could not be reached")
    if any(isinstance(e, ConnectionRefusedError) for e in chain) or "refused" in text:
        return msg("the connection was refused")
    if any(isinstance(e, ConnectionResetError) for e in chain) or "reset by peer" in text:
        return msg("the connection was reset")
    if (
        any(
            isinstance(e, (TimeoutError, requests.Timeout, urllib3.exceptions.TimeoutError))
            for e in chain
        )
        or "timed out" in text
    ):
        return msg("no answer in time")
    if "incompleteread" in text or "connection broken" in text:
        return msg("the server closed it early")
    return short(exc)
