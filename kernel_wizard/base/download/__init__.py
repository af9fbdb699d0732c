"""The one downloader: every fix, every source fetch and every prebuilt wheel gets its files
through :func:`download`.

What it promises:

* **HTTPS only.** A ``http://`` URL, or a redirect to one, is refused unless the caller opts in
  with ``allow_http=True`` (the loopback tests do; production code never does).
* **Nothing half-done at** ``dest``. The body goes to ``<dest>.part``; only after its size,
  SHA-256 and content check out is it renamed onto ``dest`` with :func:`os.replace`.
* **Resume.** Next to the part lies ``<dest>.part.json`` (URL, ETag / Last-Modified, sizes). A
  later attempt, in the same call after a dropped connection or in a later run, asks for the
  rest with ``Range: bytes=N-`` and ``If-Range: <validator>``. A server that answers 200 (it
  ignores ranges, or the file changed) is read from byte zero again. A part is only resumed
  when the server gave a validator (a strong ETag or a Last-Modified date) and the side file
  names the same URL and the same expected size and hash; otherwise it is thrown away. So a
  caller that wants resumption across runs downloads to a stable ``dest`` (prebuilt wheels:
  one folder per URL, :func:`kernel_wizard.base.paths.url_cache_dir`).
* **Integrity without a published digest.** The size must match what the server announced
  (``Content-Length`` / ``Content-Range``); a ``check`` (:func:`wheel_check` for wheels) looks
  at the content: an error page served with status 200 is named as such, with its first words,
  and a wheel must be a readable zip whose name matches its metadata and whose files match
  their ``RECORD`` hashes (:mod:`.content`).
* **Damaged files do not survive.** A wrong size, SHA-256 or content deletes the part and its
  side file, so no later run trusts them, and raises :class:`~base.errors.DownloadError`.
* **Cache.** An existing ``dest`` is returned without touching the network (and says so:
  ``from_cache``) when

  - a ``sha256`` is given and ``dest`` hashes to it (a ``dest`` with another hash is deleted), or
  - no ``sha256`` is given, but the record ``<dest>.json`` that :func:`download` writes after
    every verified download names the same URL, the file's size and SHA-256, and the file
    still hashes to that SHA-256 (and has ``expected_size``, when given). A ``dest`` without
    such a record is downloaded again. Known limit: without a ``sha256`` a file replaced on the
    server under the same URL is not noticed; callers that care pass the hash.

  A ``check`` runs on a cached file too; one that fails it is downloaded again.
* **Errors a person can act on**: unreachable server, HTTP status in plain words, a connection
  that kept dropping ("stopped at 12.3 MB of 40.0 MB"), a damaged file, a web page instead of
  the file, a full disk.
* **Progress** as :class:`DownloadProgress`, at most ~10 times a second plus once at the end,
  and **cancel** through a :class:`threading.Event`, checked before every chunk (64 KiB) and
  during the pause between retries; the part is kept for a later resume.
* **A record of what was verified**: :class:`DownloadResult` carries the SHA-256 and the checks
  passed, in words; :func:`verified_record` reads them back for a report.

Modules: :mod:`.transfer` (the HTTP loop), :mod:`.store` (part, side file, record, cache),
:mod:`.content` (content checks), :mod:`.words` (messages), :mod:`.progress`.
"""

from __future__ import annotations

from kernel_wizard.base.download.content import check_wheel, sniff, wheel_check
from kernel_wizard.base.download.progress import DownloadProgress
from kernel_wizard.base.download.store import (
    hash_file,
    part_path,
    record_path,
    resumable_bytes,
    verified_record,
)
from kernel_wizard.base.download.transfer import ContentCheck, DownloadResult, download
from kernel_wizard.base.download.wording import size_text
from kernel_wizard.base.errors import DownloadError

__all__ = [
    "ContentCheck",
    "DownloadError",
    "DownloadProgress",
    "DownloadResult",
    "check_wheel",
    "download",
    "hash_file",
    "part_path",
    "record_path",
    "resumable_bytes",
    "size_text",
    "sniff",
    "verified_record",
    "wheel_check",
]
