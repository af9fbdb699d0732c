"""Fetching kernel sources for real: a small git repository with a submodule made with git in a
temporary folder, cloned through git (its path is the clone URL), and its ``git archive``
tarballs served by a real HTTP server on 127.0.0.1 (loopback_http.py) for the archive route.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import socket
import subprocess
import tarfile
import threading
import time
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

import psutil
import pytest
from loopback_http import LoopbackServer, Resource, refused_port

from kernel_wizard.base.errors import Cancelled
from kernel_wizard.build.patches import PatchContext, apply_patches
from kernel_wizard.build.sources import (
    SOURCE_RECORD,
    FetchRoute,
    SourceError,
    SourceEvent,
    SourceEventKind,
    SourceHosts,
    SourceSpec,
    SourceTree,
    SubmoduleSpec,
    TreeKind,
    fetch_source,
    prepare_local,
    prepare_local_archive,
    source_spec,
)
from kernel_wizard.catalog import OsName, Patch, PatchKind, load_catalog

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

FILE_PROTOCOL = (("protocol.file.allow", "always"),)  # local submodule URLs in tests only
MARKER = "include/cutlass/cutlass.h"
ODD_ROOT = "Bäu Wurzel ü"  # build roots with spaces and non-ASCII characters are normal


def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
    })
    return env


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
         "-c", "tag.gpgsign=false", "-c", "protocol.file.allow=always", *args],
        cwd=cwd, env=_git_env(), capture_output=True, text=True, check=True,
    )
    return done.stdout.strip()


@dataclass(frozen=True)
class Repos:
    main: Path
    sub: Path
    tag_commit: str  # what tag v1.0 points at
    first_commit: str  # its parent
    sub_pinned: str  # the submodule commit v1.0 pins
    sub_later: str  # a newer submodule commit nobody pins
    main_archive: bytes  # git archive of v1.0 (tar.gz, one top folder)
    sub_archive: bytes  # git archive of the pinned submodule commit


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> Repos:
    base = tmp_path_factory.mktemp("repos") / "upstream repos ä"
    sub = base / "cutlass-mini"
    main = base / "kernel-mini"
    sub.mkdir(parents=True)
    main.mkdir()

    git(sub, "init", "-q")
    (sub / "include" / "cutlass").mkdir(parents=True)
    (sub / MARKER).write_text("// cutlass, pinned version\n", encoding="utf-8")
    (sub / "README.md").write_text("mini cutlass\n", encoding="utf-8")
    git(sub, "add", "-A")
    git(sub, "commit", "-q", "-m", "pinned")
    sub_pinned = git(sub, "rev-parse", "HEAD")
    (sub / MARKER).write_text("// cutlass, a later version\n", encoding="utf-8")
    git(sub, "commit", "-q", "-am", "later")
    sub_later = git(sub, "rev-parse", "HEAD")

    git(main, "init", "-q")
    (main / "setup.py").write_text("print('setup v0')\n", encoding="utf-8")
    git(main, "add", "-A")
    git(main, "commit", "-q", "-m", "first")
    first = git(main, "rev-parse", "HEAD")
    (main / "setup.py").write_text(
        'cxx_args = ["/O2", "/std:c++20"]\nprint("setup v1")\n', encoding="utf-8")
    (main / "csrc").mkdir()
    (main / "csrc" / "kernel.cu").write_text("__global__ void k() {}\n", encoding="utf-8")
    rng = random.Random(7)  # incompressible: the archive is big enough to be cut mid-body
    (main / "data.bin").write_bytes(bytes(rng.getrandbits(8) for _ in range(300_000)))
    (main / ".gitmodules").write_text(
        f'[submodule "csrc/cutlass"]\n\tpath = csrc/cutlass\n\turl = {sub.as_posix()}\n',
        encoding="utf-8")
    git(main, "add", "-A")
    git(main, "update-index", "--add", "--cacheinfo", f"160000,{sub_pinned},csrc/cutlass")
    git(main, "commit", "-q", "-m", "v1")
    git(main, "tag", "-a", "v1.0", "-m", "release 1.0")  # annotated: ^{commit} matters
    tag_commit = git(main, "rev-parse", "v1.0^{commit}")
    (main / "setup.py").write_text("print('setup v2, unreleased')\n", encoding="utf-8")
    git(main, "commit", "-q", "-am", "v2")

    def archive(repo: Path, ref: str, prefix: str) -> bytes:
        return subprocess.run(
            ["git", "archive", "--format=tar.gz", f"--prefix={prefix}/", ref],
            cwd=repo, env=_git_env(), capture_output=True, check=True).stdout

    return Repos(
        main=main, sub=sub, tag_commit=tag_commit, first_commit=first, sub_pinned=sub_pinned,
        sub_later=sub_later,
        main_archive=archive(main, "v1.0", f"kernel-mini-{tag_commit}"),
        sub_archive=archive(sub, sub_pinned, f"cutlass-mini-{sub_pinned}"),
    )


def make_spec(repos: Repos, *, ref: str = "v1.0", commit: str | None = "tag",
              pin: str | None = "pinned") -> SourceSpec:
    return SourceSpec(
        name="Kernel Mini",
        url=str(repos.main),
        ref=ref,
        commit=repos.tag_commit if commit == "tag" else commit,
        submodules=(SubmoduleSpec("csrc/cutlass",
                                  commit=repos.sub_pinned if pin == "pinned" else pin,
                                  marker=MARKER),),
        slug="kmini-v1.0",
    )


@dataclass
class Recorder:
    events: list[SourceEvent]
    lines: list[str]

    def kinds(self) -> list[SourceEventKind]:
        return [e.kind for e in self.events]

    def messages(self, kind: SourceEventKind) -> list[str]:
        return [e.message for e in self.events if e.kind is kind]


@pytest.fixture
def rec() -> Recorder:
    return Recorder([], [])


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / ODD_ROOT / "src"


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch, no_proxy: None) -> None:
    """No proxy for loopback; no global git configuration of this machine."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)


def git_fetch(repos: Repos, root: Path, rec: Recorder, **kw: object) -> SourceTree:
    spec = kw.pop("spec", None) or make_spec(repos)
    return fetch_source(
        spec,  # type: ignore[arg-type]
        build_root=root, route=FetchRoute.GIT, git_config=FILE_PROTOCOL,
        on_event=rec.events.append, on_line=rec.lines.append, **kw,  # type: ignore[arg-type]
    )


def serve_archives(server: LoopbackServer, repos: Repos, **main_res: object) -> SourceHosts:
    server.add(f"/kernel-mini/{repos.tag_commit}.tar.gz",
               Resource(repos.main_archive, **main_res))  # type: ignore[arg-type]
    server.add(f"/cutlass-mini/{repos.sub_pinned}.tar.gz", Resource(repos.sub_archive))

    def archive(repo_url: str, ref: str) -> str:
        name = repo_url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
        return server.url(f"/{name}/{ref}.tar.gz")

    return SourceHosts(archive=archive, gitlink=None)


def archive_fetch(repos: Repos, root: Path, rec: Recorder, hosts: SourceHosts,
                  **kw: object) -> SourceTree:
    spec = kw.pop("spec", None) or make_spec(repos)
    return fetch_source(
        spec,  # type: ignore[arg-type]
        build_root=root, route=kw.pop("route", FetchRoute.ARCHIVE), hosts=hosts,
        allow_http=True, on_event=rec.events.append, on_line=rec.lines.append,
        **kw,  # type: ignore[arg-type]
    )


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(".tmp-"))


def assert_v1_tree(tree: SourceTree) -> None:
    assert "setup v1" in (tree.path / "setup.py").read_text(encoding="utf-8")
    cutlass = tree.path / "csrc" / "cutlass" / MARKER
    assert cutlass.read_text(encoding="utf-8") == "// cutlass, pinned version\n"


# ---------------------------------------------------------------------------------------------
# git route


def test_git_clone_at_tag_with_submodule_at_pinned_commit(
    repos: Repos, root: Path, rec: Recorder
) -> None:
    tree = git_fetch(repos, root, rec)
    assert tree.kind is TreeKind.GIT and not tree.from_cache
    assert tree.path == root / "kmini-v1.0" and ODD_ROOT in str(tree.path)
    assert tree.commit == repos.tag_commit  # the tag, not main's newer HEAD
    assert_v1_tree(tree)
    (state,) = tree.submodules
    assert (state.path, state.commit, state.populated) == (
        "csrc/cutlass", repos.sub_pinned, True)
    assert any("Cloning into" in line for line in rec.lines)  # git's own output, streamed
    assert SourceEventKind.DONE in rec.kinds()
    assert leftovers(root) == []
    record = json.loads((tree.path / SOURCE_RECORD).read_text(encoding="utf-8"))
    assert record["commit"] == repos.tag_commit
    # the wizard's record does not make the checkout dirty
    assert git(tree.path, "status", "--porcelain") == ""


def test_git_cache_is_reused_without_cloning(repos: Repos, root: Path, rec: Recorder) -> None:
    first = git_fetch(repos, root, rec)
    inode = first.path.stat().st_ino
    second_rec = Recorder([], [])
    # build outputs in the tree do not count as changes
    (first.path / "build" / "temp").mkdir(parents=True)
    (first.path / "build" / "temp" / "kernel.o").write_bytes(b"\0obj")
    (first.path / "kernel_mini.egg-info").mkdir()
    (first.path / "kernel_mini.egg-info" / "PKG-INFO").write_text("x", encoding="utf-8")
    second = git_fetch(repos, root, second_rec)
    assert second.from_cache and second.kind is TreeKind.GIT
    assert second.commit == repos.tag_commit
    assert second.path.stat().st_ino == inode  # the same folder: nothing was cloned again
    assert SourceEventKind.CACHE_HIT in second_rec.kinds()
    assert not any(m.startswith("Cloning") for m in second_rec.messages(SourceEventKind.STEP))
    assert second_rec.lines == []  # git printed no clone progress


def _tamper_file(tree: Path, repos: Repos) -> str:
    (tree / "setup.py").write_text("import os; os.system('evil')\n", encoding="utf-8")
    return "setup.py"


def _tamper_head(tree: Path, repos: Repos) -> str:
    git(tree, "checkout", "-q", "--detach", repos.first_commit)
    return "HEAD is at"


def _tamper_submodule_head(tree: Path, repos: Repos) -> str:
    git(tree / "csrc" / "cutlass", "checkout", "-q", "--detach", repos.sub_later)
    return "csrc/cutlass"


def _tamper_submodule_file(tree: Path, repos: Repos) -> str:
    (tree / "csrc" / "cutlass" / MARKER).write_text("// edited\n", encoding="utf-8")
    return "csrc/cutlass"


def _tamper_new_file(tree: Path, repos: Repos) -> str:
    (tree / "csrc" / "injected.cu").write_text("// not upstream\n", encoding="utf-8")
    return "csrc/injected.cu"


@pytest.mark.parametrize("tamper", [_tamper_file, _tamper_head, _tamper_submodule_head,
                                    _tamper_submodule_file, _tamper_new_file],
                         ids=["file", "head", "submodule-head", "submodule-file", "new-file"])
def test_git_cache_tampered_is_detected_and_refetched(
    repos: Repos, root: Path, rec: Recorder, tamper: object
) -> None:
    tree = git_fetch(repos, root, rec)
    clue = tamper(tree.path, repos)  # type: ignore[operator]
    again = Recorder([], [])
    fresh = git_fetch(repos, root, again)
    rejected = again.messages(SourceEventKind.CACHE_REJECTED)
    assert len(rejected) == 1 and clue in rejected[0], rejected
    assert not fresh.from_cache
    assert any(m.startswith("Cloning") for m in again.messages(SourceEventKind.STEP))
    assert_v1_tree(fresh)
    assert fresh.commit == repos.tag_commit
    assert not (fresh.path / "csrc" / "injected.cu").exists()
    assert git(fresh.path, "status", "--porcelain") == ""


def test_patched_cache_is_put_back_and_reused(repos: Repos, root: Path, rec: Recorder) -> None:
    tree = git_fetch(repos, root, rec)
    patch = Patch(id="zc", file="setup.py", kind=PatchKind.LITERAL,
                  pattern='"/std:c++20"]', replacement='"/std:c++20", "/Zc:__cplusplus"]',
                  expected_count=1)
    ctx = PatchContext(os=OsName.WINDOWS, recipe="Kernel Mini")
    (result,) = apply_patches(tree, [patch], ctx)
    assert result.count == 1
    again = Recorder([], [])
    reused = git_fetch(repos, root, again)
    assert reused.from_cache, again.events  # our own patch is not tampering
    assert "/Zc:__cplusplus" not in (reused.path / "setup.py").read_text(encoding="utf-8")
    (result,) = apply_patches(reused, [patch], ctx)  # the build patches the pristine tree again
    assert result.status.value == "applied"
    # a file changed after patching is not ours to put back: the cache is re-fetched
    with (reused.path / "setup.py").open("a", encoding="utf-8") as handle:
        handle.write("# edited after patching\n")
    third = Recorder([], [])
    fresh = git_fetch(repos, root, third)
    assert not fresh.from_cache and third.messages(SourceEventKind.CACHE_REJECTED)
    assert "edited" not in (fresh.path / "setup.py").read_text(encoding="utf-8")


def test_unknown_tag_is_reported_without_falling_back(
    repos: Repos, root: Path, rec: Recorder
) -> None:
    spec = make_spec(repos, ref="v9.9", commit=None)
    with pytest.raises(SourceError) as info:
        fetch_source(spec, build_root=root, git_config=FILE_PROTOCOL, on_event=rec.events.append)
    assert "no tag or commit 'v9.9'" in info.value.what
    assert SourceEventKind.FALLBACK not in rec.kinds()
    assert not (root / "kmini-v1.0").exists() and leftovers(root) == []


def test_moved_tag_is_refused(repos: Repos, root: Path, rec: Recorder) -> None:
    spec = make_spec(repos, commit=repos.first_commit)  # the recipe expects another commit
    with pytest.raises(SourceError) as info:
        git_fetch(repos, root, rec, spec=spec)
    assert "now points at a different commit" in info.value.what
    assert repos.tag_commit in info.value.why
    assert not (root / "kmini-v1.0").exists()


def test_cancel_stops_git(root: Path, rec: Recorder) -> None:
    # A server that accepts the connection and never answers: git waits until it is stopped.
    silent = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    spec = SourceSpec(name="Hanging", url=f"http://127.0.0.1:{port}/x.git", ref="v1",
                      slug="hang-v1")
    cancel = threading.Event()
    timer = threading.Timer(1.0, cancel.set)
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(Cancelled):
            fetch_source(spec, build_root=root, route=FetchRoute.GIT, cancel=cancel,
                         on_event=rec.events.append)
    finally:
        timer.cancel()
        silent.close()
    assert time.monotonic() - started < 10
    assert any(m.startswith("Cloning") for m in rec.messages(SourceEventKind.STEP))
    assert leftovers(root) == [] and not (root / "hang-v1").exists()
    gits = [p for p in psutil.Process().children(recursive=True) if "git" in p.name()]
    assert gits == []


# ---------------------------------------------------------------------------------------------
# archive route


def test_archive_route_with_submodule_archive(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer
) -> None:
    hosts = serve_archives(server, repos)
    tree = archive_fetch(repos, root, rec, hosts)
    assert tree.kind is TreeKind.ARCHIVE and not tree.from_cache
    assert tree.path == root / "kmini-v1.0"
    assert tree.commit == repos.tag_commit
    assert_v1_tree(tree)
    assert [(s.path, s.commit) for s in tree.submodules] == [("csrc/cutlass", repos.sub_pinned)]
    assert not (tree.path / "kernel-mini-" f"{repos.tag_commit}").exists()  # top folder stripped
    record = json.loads((tree.path / SOURCE_RECORD).read_text(encoding="utf-8"))
    assert "csrc/cutlass/" + MARKER in record["files"] and "setup.py" in record["files"]
    assert len(server.hits) == 2 and leftovers(root) == []

    # reused: verified by hashes, no request at all
    again = Recorder([], [])
    cached = archive_fetch(repos, root, again, hosts)
    assert cached.from_cache and SourceEventKind.CACHE_HIT in again.kinds()
    assert len(server.hits) == 2


def test_archive_by_tag_learns_the_commit_and_a_wrong_archive_is_refused(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer
) -> None:
    hosts = serve_archives(server, repos)
    server.add("/kernel-mini/v1.0.tar.gz", Resource(repos.main_archive))
    tree = archive_fetch(repos, root, rec, hosts, spec=make_spec(repos, commit=None))
    assert tree.commit == repos.tag_commit  # from the archive's pax header, like git archive
    assert_v1_tree(tree)

    # the server hands out another commit's archive than the one asked for
    server.add(f"/kernel-mini/{repos.first_commit}.tar.gz", Resource(repos.main_archive))
    other = SourceSpec("Kernel Mini", str(repos.main), "v0.9", repos.first_commit,
                       make_spec(repos).submodules, "kmini-v0.9")
    with pytest.raises(SourceError) as info:
        archive_fetch(repos, root, rec, hosts, spec=other)
    assert "not the expected version" in info.value.what
    assert not (root / "kmini-v0.9").exists() and leftovers(root) == []


@pytest.mark.parametrize("tamper", ["modify", "delete", "add"])
def test_archive_cache_tampered_is_detected_and_extracted_again(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer, tamper: str
) -> None:
    hosts = serve_archives(server, repos)
    tree = archive_fetch(repos, root, rec, hosts)
    target = tree.path / "csrc" / "kernel.cu"
    if tamper == "modify":
        target.write_text("__global__ void k() { /* evil */ }\n", encoding="utf-8")
    elif tamper == "delete":
        (tree.path / "csrc" / "cutlass" / MARKER).unlink()
    else:
        (tree.path / "csrc" / "extra.cu").write_text("// extra\n", encoding="utf-8")
    # build outputs alone never count
    (tree.path / "build").mkdir()
    (tree.path / "build" / "kernel.o").write_bytes(b"obj")
    again = Recorder([], [])
    fresh = archive_fetch(repos, root, again, hosts)
    rejected = again.messages(SourceEventKind.CACHE_REJECTED)
    assert len(rejected) == 1
    assert {"modify": "changed: csrc/kernel.cu", "delete": "missing: csrc/cutlass/",
            "add": "not part of the source: csrc/extra.cu"}[tamper] in rejected[0]
    assert not fresh.from_cache
    assert_v1_tree(fresh)
    assert target.read_text(encoding="utf-8") == "__global__ void k() {}\n"
    assert not (fresh.path / "csrc" / "extra.cu").exists()
    assert not (fresh.path / "build").exists()  # the old tree was removed first


def test_archive_route_when_git_is_not_on_path(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hosts = serve_archives(server, repos)
    empty = tmp_path / "no-git-here"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    tree = archive_fetch(repos, root, rec, hosts, route=FetchRoute.AUTO)
    assert tree.kind is TreeKind.ARCHIVE
    assert any("git is not installed" in m for m in rec.messages(SourceEventKind.FALLBACK))
    assert_v1_tree(tree)


def test_git_failure_falls_back_to_the_archive(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer
) -> None:
    hosts = serve_archives(server, repos)
    sock, port = refused_port()
    try:
        spec = make_spec(repos)
        spec = SourceSpec(spec.name, f"http://127.0.0.1:{port}/kernel-mini.git", spec.ref,
                          spec.commit, spec.submodules, spec.slug)
        tree = fetch_source(spec, build_root=root, hosts=hosts, allow_http=True,
                            on_event=rec.events.append)
    finally:
        sock.close()
    fallback = rec.messages(SourceEventKind.FALLBACK)
    assert len(fallback) == 1 and "git could not fetch" in fallback[0]
    assert tree.kind is TreeKind.ARCHIVE
    assert_v1_tree(tree)


def test_offline_error_points_to_a_local_copy(root: Path, rec: Recorder) -> None:
    sock, port = refused_port()
    try:
        spec = SourceSpec(name="Kernel Mini", url=f"http://127.0.0.1:{port}/kernel-mini.git",
                          ref="v1.0", slug="kmini-v1.0")
        hosts = SourceHosts(archive=lambda url, ref: f"http://127.0.0.1:{port}/{ref}.tar.gz",
                            gitlink=None)
        with pytest.raises(SourceError) as info:
            fetch_source(spec, build_root=root, hosts=hosts, allow_http=True,
                         on_event=rec.events.append)
    finally:
        sock.close()
    err = info.value
    assert err.what.startswith("Could not reach 127.0.0.1")
    assert "Kernel page → Local folder" in err.hint
    assert "git had failed before" in err.why
    assert SourceEventKind.FALLBACK in rec.kinds()
    assert leftovers(root) == [] and not (root / "kmini-v1.0").exists()


def test_interrupted_download_is_resumed(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer
) -> None:
    size = len(repos.main_archive)
    hosts = serve_archives(server, repos, cut_after=size // 2, cut_times=1, cut_mode="reset")
    tree = archive_fetch(repos, root, rec, hosts)
    hits = server.hits_for(f"/kernel-mini/{repos.tag_commit}.tar.gz")
    assert len(hits) == 2
    continued = hits[1].header("Range") or ""
    assert continued.startswith("bytes=")  # continued where the part ended, not restarted
    assert 0 < int(continued[6:-1]) <= hits[0].body_bytes
    assert_v1_tree(tree)


def test_interrupted_download_never_leaves_a_half_tree(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer
) -> None:
    size = len(repos.main_archive)
    hosts = serve_archives(server, repos, cut_after=size // 3, cut_times=99)
    with pytest.raises(SourceError) as info:
        archive_fetch(repos, root, rec, hosts, download_retries=0)
    assert "Local folder" in info.value.hint
    assert not (root / "kmini-v1.0").exists() and leftovers(root) == []
    # the connection comes back: the next attempt continues the part and completes the tree
    server.resources[f"/kernel-mini/{repos.tag_commit}.tar.gz"].cut_times = 0
    tree = archive_fetch(repos, root, Recorder([], []), hosts)
    last = server.hits_for(f"/kernel-mini/{repos.tag_commit}.tar.gz")[-1]
    assert last.header("Range") == f"bytes={size // 3}-"
    assert_v1_tree(tree)


def test_submodule_commit_is_asked_for_when_the_recipe_does_not_pin_it(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer
) -> None:
    hosts = serve_archives(server, repos)
    server.add("/gitlink/csrc/cutlass", Resource(json.dumps(
        {"type": "submodule", "sha": repos.sub_pinned}).encode()))
    hosts = SourceHosts(archive=hosts.archive,
                        gitlink=lambda url, ref, path: server.url(f"/gitlink/{path}"))
    tree = archive_fetch(repos, root, rec, hosts, spec=make_spec(repos, pin=None))
    assert_v1_tree(tree)
    assert tree.submodules[0].commit == repos.sub_pinned


# ---------------------------------------------------------------------------------------------
# local folders and archives


def _extract(tar: tarfile.TarFile, dest: Path) -> None:
    """extractall with the "data" filter where this Python has it (3.10.12+, 3.11.4+; Debian
    12's 3.11.2 has not): the archives are the test's own."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(dest, filter="data")
    else:  # pragma: no cover - older patch releases
        tar.extractall(dest)  # noqa: S202 - the test's own archive


def _local_copy(repos: Repos, dest: Path, *, with_submodule: bool) -> Path:
    with tarfile.open(fileobj=io.BytesIO(repos.main_archive)) as tar:
        _extract(tar, dest)
    (tree,) = dest.iterdir()
    if with_submodule:
        with tarfile.open(fileobj=io.BytesIO(repos.sub_archive)) as tar:
            _extract(tar, dest / "sub")
        (sub,) = (dest / "sub").iterdir()
        (tree / "csrc" / "cutlass").rmdir()
        sub.rename(tree / "csrc" / "cutlass")
        (dest / "sub").rmdir()
    return tree


def test_local_folder_with_empty_submodule_is_refused_with_what_to_do(
    repos: Repos, tmp_path: Path
) -> None:
    folder = _local_copy(repos, tmp_path / "Mein Ordner ä", with_submodule=False)
    assert (folder / "csrc" / "cutlass").is_dir()  # there, but empty (a GitHub ZIP looks so)
    with pytest.raises(SourceError) as info:
        prepare_local(folder, make_spec(repos))
    err = info.value
    assert err.what == f"The submodule folder csrc/cutlass in {folder} is empty."
    assert repos.sub_pinned in err.why and str(repos.sub.as_posix()) in err.why
    assert "git submodule update --init --recursive csrc/cutlass" in err.hint

    (folder / "csrc" / "cutlass" / "README.md").write_text("half\n", encoding="utf-8")
    with pytest.raises(SourceError) as info:
        prepare_local(folder, make_spec(repos))
    assert f"incomplete (it has no {MARKER})" in info.value.what


def test_local_folder_is_used_in_place(repos: Repos, tmp_path: Path) -> None:
    folder = _local_copy(repos, tmp_path / "Mein Ordner ä", with_submodule=True)
    before = sorted(p.name for p in tmp_path.iterdir())
    tree = prepare_local(folder, make_spec(repos))
    assert tree.path == folder and tree.kind is TreeKind.LOCAL and not tree.from_cache
    assert [(s.path, s.populated) for s in tree.submodules] == [("csrc/cutlass", True)]
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing copied


def test_local_folder_without_setup_py_names_the_right_folder(
    repos: Repos, tmp_path: Path
) -> None:
    folder = _local_copy(repos, tmp_path / "download", with_submodule=True)
    with pytest.raises(SourceError) as info:
        prepare_local(folder.parent, make_spec(repos))
    assert "neither a setup.py nor a pyproject.toml" in info.value.why
    assert str(folder) in info.value.hint


def test_a_package_in_a_subfolder_wants_the_whole_repository(
    repos: Repos, tmp_path: Path
) -> None:
    """FlashAttention 3: setup.py in hopper/, reading ../README.md and ../csrc/cutlass."""
    folder = _local_copy(repos, tmp_path / "flash attention", with_submodule=True)
    hopper = folder / "hopper"
    hopper.mkdir()
    (folder / "setup.py").rename(hopper / "setup.py")
    spec = replace(make_spec(repos), subdir="hopper")
    tree = prepare_local(folder, spec)  # the repository: accepted
    assert tree.path == folder
    with pytest.raises(SourceError) as info:  # only its hopper/ folder
        prepare_local(hopper, spec)
    assert info.value.what == f"The folder {hopper} is only the hopper part of the kernel's source."
    assert "the whole repository is needed" in info.value.why
    assert info.value.hint == (f"Choose the folder {folder} instead: the repository that holds "
                               "hopper.")
    (hopper / "setup.py").unlink()  # a repository without the package folder's setup.py
    with pytest.raises(SourceError) as info:
        prepare_local(folder, spec)
    assert info.value.what == f"The folder {folder} has no hopper folder with a setup.py."


def test_local_archive_zip_and_tar(repos: Repos, root: Path, tmp_path: Path) -> None:
    folder = _local_copy(repos, tmp_path / "src copy", with_submodule=True)
    zipped = Path(shutil.make_archive(str(tmp_path / "kernel ä"), "zip", folder.parent))
    events: list[SourceEvent] = []
    tree = prepare_local_archive(zipped, make_spec(repos), build_root=root,
                                 on_event=events.append)
    assert tree.kind is TreeKind.ARCHIVE and tree.origin == str(zipped)
    assert_v1_tree(tree)
    again = prepare_local_archive(zipped, make_spec(repos), build_root=root)
    assert again.from_cache and again.path == tree.path

    # GitHub's own source archive: the submodule folder is empty -> told what to do
    plain = tmp_path / "kernel-mini-v1.0.tar.gz"
    plain.write_bytes(repos.main_archive)
    with pytest.raises(SourceError) as info:
        prepare_local_archive(plain, make_spec(repos), build_root=root)
    assert "csrc/cutlass" in info.value.what and "is empty" in info.value.what


def _evil_tar(kind: str) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        ok = tarfile.TarInfo("kernel/setup.py")
        ok.size = 3
        tar.addfile(ok, io.BytesIO(b"x=1"))
        if kind == "dotdot":
            bad = tarfile.TarInfo("kernel/../../evil.txt")
            bad.size = 4
            tar.addfile(bad, io.BytesIO(b"evil"))
        elif kind == "absolute":
            bad = tarfile.TarInfo("/tmp/ksw-evil-absolute.txt")
            bad.size = 4
            tar.addfile(bad, io.BytesIO(b"evil"))
        else:
            link = tarfile.TarInfo("kernel/link")
            link.type = tarfile.SYMTYPE
            link.linkname = "../../../outside"
            tar.addfile(link)
    return buf.getvalue()


@pytest.mark.parametrize("kind", ["dotdot", "absolute", "symlink"])
def test_path_traversal_archive_is_rejected(kind: str, root: Path, tmp_path: Path) -> None:
    archive = tmp_path / "a" / "b" / "evil.tar.gz"
    archive.parent.mkdir(parents=True)
    archive.write_bytes(_evil_tar(kind))
    with pytest.raises(SourceError) as info:
        prepare_local_archive(archive, None, build_root=root)
    assert "unsafe" in info.value.what
    assert not list(tmp_path.rglob("evil.txt"))
    assert not Path("/tmp/ksw-evil-absolute.txt").exists()
    assert leftovers(root) == [] and [p.name for p in root.iterdir()] == []


@pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")
def test_links_inside_the_tree_are_fine(root: Path, tmp_path: Path) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in (("kernel-1.0/setup.py", b"x=1"), ("kernel-1.0/a/b.h", b"//b")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("kernel-1.0/a/up.py")
        link.type = tarfile.SYMTYPE
        link.linkname = "../setup.py"
        tar.addfile(link)
        hard = tarfile.TarInfo("kernel-1.0/a/copy.h")
        hard.type = tarfile.LNKTYPE
        hard.linkname = "kernel-1.0/a/b.h"
        tar.addfile(hard)
    archive = tmp_path / "kernel-1.0.tar.gz"
    archive.write_bytes(buf.getvalue())
    tree = prepare_local_archive(archive, None, build_root=root)
    assert sorted(p.name for p in tree.path.iterdir()) == [SOURCE_RECORD, "a", "setup.py"]
    assert (tree.path / "a" / "up.py").read_text(encoding="utf-8") == "x=1"
    assert (tree.path / "a" / "copy.h").read_text(encoding="utf-8") == "//b"
    assert prepare_local_archive(archive, None, build_root=root).from_cache


def test_path_traversal_zip_is_rejected(root: Path, tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("kernel/setup.py", "x=1")
        zf.writestr("../evil.txt", "evil")
    with pytest.raises(SourceError) as info:
        prepare_local_archive(archive, None, build_root=root)
    assert "'../evil.txt'" in info.value.why
    assert not (tmp_path / "evil.txt").exists() and not (root.parent / "evil.txt").exists()


def test_tar_with_a_device_file_says_what_it_holds(root: Path, tmp_path: Path) -> None:
    """was: 'which would be written outside the source folder' for a device file"""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        data = b"x=1"
        info = tarfile.TarInfo("kernel-1.0/setup.py")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        dev = tarfile.TarInfo("kernel-1.0/null")
        dev.type = tarfile.CHRTYPE
        dev.devmajor, dev.devminor = 1, 3
        tar.addfile(dev)
    archive = tmp_path / "kernel-1.0.tar.gz"
    archive.write_bytes(buf.getvalue())
    with pytest.raises(SourceError) as info:
        prepare_local_archive(archive, None, build_root=root)
    assert "'kernel-1.0/null', a device file or pipe, which a source archive never holds" \
        in info.value.why
    assert "outside the source folder" not in info.value.why


def test_zip_bomb_is_refused_before_anything_is_written(root: Path, tmp_path: Path) -> None:
    """a zip whose file is packed over 1,000 to 1 (was: extracted with no limit; a 1 GB zip
    could fill the disk)"""
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED,
                         compresslevel=9) as zf:
        zf.writestr("kernel/setup.py", "x=1")
        with zf.open("kernel/blob.bin", "w") as blob:
            for _ in range(8):  # 256 MiB of zeros in about 250 KB
                blob.write(b"\0" * (32 * 1024**2))
    with pytest.raises(SourceError) as info:
        prepare_local_archive(archive, None, build_root=root)
    assert "was not extracted: it would unpack to 0.3 GB" in info.value.what
    assert "to 1, as only a damaged or hostile archive is" in info.value.why
    assert not any(p.name == "blob.bin" for p in root.rglob("*"))


def test_served_traversal_archive_is_rejected(
    repos: Repos, root: Path, rec: Recorder, server: LoopbackServer
) -> None:
    server.add(f"/kernel-mini/{repos.tag_commit}.tar.gz", Resource(_evil_tar("dotdot")))
    hosts = SourceHosts(archive=lambda url, ref: server.url(f"/kernel-mini/{ref}.tar.gz"),
                        gitlink=None)
    with pytest.raises(SourceError) as info:
        archive_fetch(repos, root, rec, hosts)
    assert "unsafe" in info.value.what
    assert not (root / "kmini-v1.0").exists() and leftovers(root) == []
    assert not (root.parent / "evil.txt").exists()


# ---------------------------------------------------------------------------------------------
# recipes


def test_shipped_flashmla_recipe_gives_the_pinned_spec() -> None:
    catalog = load_catalog()
    mla = catalog.get("flashmla")
    spec = source_spec(mla, mla.versions[0])
    assert spec.url == "https://github.com/deepseek-ai/FlashMLA.git"
    assert spec.ref == spec.commit == "9241ae3ef9bac614dd25e45e507e089f888280e0"
    assert spec.cache_name == "flashmla-9241ae3ef9ba"
    (sub,) = spec.submodules
    assert (sub.path, sub.commit) == ("csrc/cutlass", "147f5673d0c1c3dcf66f78d677fd647e4a020219")
    hosts = SourceHosts()
    assert hosts.archive(spec.url, spec.ref) == (
        "https://codeload.github.com/deepseek-ai/FlashMLA/tar.gz/"
        "9241ae3ef9bac614dd25e45e507e089f888280e0")
