"""Read each wheel publisher's GitHub release list and rewrite its list in resources/wheels/.

    python scripts/refresh_wheel_lists.py                      # every publisher
    python scripts/refresh_wheel_lists.py mjun0812 woct0rdho   # only these
    python scripts/refresh_wheel_lists.py --api http://127.0.0.1:8765 --out /tmp/lists

The recipes' wheel sources name these lists (``wheel_list = "mjun0812"``); the wizard matches
the target environment against them (kernel_wizard/catalog/wheels.py). For each publisher this
reads ``GET {api}/repos/{owner}/{repo}/releases?per_page=100`` and every further page the
``Link: <…>; rel="next"`` header names (GitHub's pagination), and keeps every ``.whl`` asset
of every published release (drafts skipped): its ``browser_download_url``, its SHA-256 (the
asset's ``digest``, ``sha256:<hex>``, which GitHub computes at upload) and its size. A wheel
name found in several releases (mjun0812 rebuilds some) keeps the newest release's copy, as
the release list comes newest first. mjun0812's README and doc/packages.md are generated from
this same release list (its docs/data/releases.json is a copy of this API's answer), so the
API is read for every publisher.

The list is written only when every page was read: a publisher that cannot be read keeps its
previous list, the script says why and exits with status 1. ``--api`` points it at another
server (a test's recorded answers on loopback); ``GITHUB_TOKEN``, when set, is sent as the
token (60 requests an hour without one).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kernel_wizard.catalog.wheels import (
    PublishedWheel,
    WheelList,
    wheel_list_from_json,
    wheel_list_to_json,
    wheel_lists_dir,
)

GITHUB_API = "https://api.github.com"
MAX_PAGES = 100  # 10,000 releases: far more than any publisher has; stops a Link loop
_NEXT_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="next"')


@dataclass(frozen=True)
class Publisher:
    id: str  # the list's file name in resources/wheels
    repo: str  # owner/name on GitHub
    homepage: str


PUBLISHERS = (
    Publisher("dao-ailab", "Dao-AILab/flash-attention",
              "https://github.com/Dao-AILab/flash-attention/releases"),
    Publisher("mjun0812", "mjun0812/flash-attention-prebuild-wheels",
              "https://github.com/mjun0812/flash-attention-prebuild-wheels"),
    Publisher("windreamer", "windreamer/flash-attention3-wheels",
              "https://github.com/windreamer/flash-attention3-wheels"),
    Publisher("woct0rdho", "woct0rdho/SageAttention",
              "https://github.com/woct0rdho/SageAttention/releases"),
)


class ReadError(Exception):
    """A publisher's release list could not be read (the text says where and why)."""


def _get_json(url: str, timeout: float) -> tuple[Any, str | None]:
    """The decoded JSON at ``url`` and the next page's address from its Link header."""
    headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28",
               "User-Agent": "kernel-setup-wizard-refresh"}
    token = os.environ.get("GITHUB_TOKEN")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
            link = response.headers.get("Link") or ""
    except urllib.error.HTTPError as exc:
        raise ReadError(f"{url}: HTTP {exc.code} {exc.reason}") from exc
    except (urllib.error.URLError, OSError) as exc:
        raise ReadError(f"{url}: {exc}") from exc
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ReadError(f"{url}: not JSON ({exc})") from exc
    found = _NEXT_LINK.search(link)
    return data, found.group(1) if found else None


def read_releases(api: str, repo: str, timeout: float = 30.0) -> list[dict[str, Any]]:
    """Every release of ``repo``, newest first, page after page as the Link header says."""
    url: str | None = f"{api.rstrip('/')}/repos/{repo}/releases?per_page=100"
    releases: list[dict[str, Any]] = []
    for _ in range(MAX_PAGES):
        if url is None:
            return releases
        page, url = _get_json(url, timeout)
        if not isinstance(page, list):
            raise ReadError(f"{repo}: a release page is not a list of releases")
        releases += [r for r in page if isinstance(r, dict)]
    raise ReadError(f"{repo}: more than {MAX_PAGES} pages of releases")


def wheels_of(releases: Sequence[dict[str, Any]]) -> tuple[PublishedWheel, ...]:
    """The ``.whl`` assets of the published releases, one per file name (the newest release's
    copy), sorted by file name."""
    found: dict[str, PublishedWheel] = {}
    for release in releases:
        if release.get("draft"):
            continue
        for asset in release.get("assets") or ():
            name = asset.get("name")
            url = asset.get("browser_download_url")
            if not (isinstance(name, str) and name.endswith(".whl") and isinstance(url, str)):
                continue
            digest = asset.get("digest")
            sha256 = (digest[len("sha256:"):].lower()
                      if isinstance(digest, str) and digest.startswith("sha256:") else None)
            size = asset.get("size")
            found.setdefault(name, PublishedWheel(
                filename=name, url=url, sha256=sha256,
                size=size if isinstance(size, int) and size > 0 else None))
    return tuple(found[name] for name in sorted(found))


def refresh(publisher: Publisher, api: str, out: Path, today: str) -> WheelList:
    """Read one publisher's release list and write its wheel list to ``out``."""
    releases = read_releases(api, publisher.repo)
    wheels = wheels_of(releases)
    origin = (f"GitHub release list {api.rstrip('/')}/repos/{publisher.repo}/releases: "
              f"{len(releases)} releases, {len(wheels)} wheel files (written by "
              "scripts/refresh_wheel_lists.py)")
    wheel_list = WheelList(id=publisher.id, publisher=publisher.repo,
                           homepage=publisher.homepage, read=today, origin=origin,
                           complete=True, wheels=wheels)
    data = wheel_list_to_json(wheel_list)
    wheel_list_from_json(publisher.id, data)  # what the wizard will read must load
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{publisher.id}.json"
    temporary = target.with_suffix(".json.part")
    temporary.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    temporary.replace(target)
    return wheel_list


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("publishers", nargs="*", metavar="ID",
                        help="publishers to read (default: all): "
                             + ", ".join(p.id for p in PUBLISHERS))
    parser.add_argument("--api", default=GITHUB_API,
                        help="the GitHub REST API's base address (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the folder to write the lists to (default: resources/wheels)")
    parser.add_argument("--date", default=dt.date.today().isoformat(),
                        help="the date to record as the reading date (default: today)")
    args = parser.parse_args(argv)
    known = {p.id: p for p in PUBLISHERS}
    unknown = [name for name in args.publishers if name not in known]
    if unknown:
        parser.error(f"unknown publisher {', '.join(unknown)}; known: {', '.join(known)}")
    chosen = [known[name] for name in args.publishers] or list(PUBLISHERS)
    out = args.out if args.out is not None else wheel_lists_dir()
    failed = 0
    for publisher in chosen:
        try:
            wheel_list = refresh(publisher, args.api, out, args.date)
        except ReadError as exc:
            failed += 1
            print(f"{publisher.id}: not refreshed, its previous list is kept: {exc}",
                  file=sys.stderr)
            continue
        digests = sum(1 for w in wheel_list.wheels or () if w.sha256)
        print(f"{publisher.id}: {len(wheel_list.wheels or ())} wheels "
              f"({digests} with a SHA-256) -> {out / (publisher.id + '.json')}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
