"""The git route: clone without checkout, resolve and check the ref, check out, fetch the
submodules the recipe needs; and the checks of a cached git checkout. Every git command runs
through :mod:`kernel_wizard.base.processes` with the platform's ``git -c`` settings, in English,
never waiting for a password."""

from __future__ import annotations

import os
import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from kernel_wizard.base import processes
from kernel_wizard.base.errors import Cancelled, ProcessError, ProcessStartError
from kernel_wizard.base.messages import N_, msg
from kernel_wizard.base.processes import run_captured
from kernel_wizard.build.patches import LEDGER_DIR
from kernel_wizard.build.sources.cache import (
    disk_error,
    is_build_output,
    new_work,
    remove_tree,
    write_record,
)
from kernel_wizard.build.sources.local import submodule_problem
from kernel_wizard.build.sources.model import (
    DISK_FULL_MARKERS,
    GIT_ENV,
    MIN_GIT_SUBMODULE_FILTER,
    OFFLINE_MARKERS,
    OWN_NAMES,
    SHA_RE,
    SOURCE_RECORD,
    Route,
    SourceError,
    SourceEventKind,
    SourceTree,
    SubmoduleSpec,
    SubmoduleState,
    TreeKind,
    check_cancel,
    last_lines,
    opt_str,
    some_of,
)

GIT_TIMEOUT_S = 600.0  # one short git command (rev-parse, status, fetch of one commit)


class GitFailed(Exception):
    """Internal: git could not fetch; the archive route may still work."""

    def __init__(self, summary: str, offline: bool) -> None:
        super().__init__(summary)
        self.summary = summary
        self.offline = offline


@dataclass
class GitRoute(Route):
    git: str
    blob_filter: bool
    git_config: Sequence[tuple[str, str]]
    on_line: Callable[[str], None] | None
    _git_version: tuple[int, ...] | None = field(default=None, init=False)

    # -- a cached checkout -------------------------------------------------------------------

    def check_tree(
        self, final: Path, record: Mapping[str, Any]
    ) -> tuple[str, SourceTree | None]:
        spec = self.spec
        expected = spec.commit or opt_str(record.get("commit"))
        try:
            head = self._git_text(["rev-parse", "HEAD"], final)
            if expected is None:
                expected = self._git_text(["rev-parse", "--verify", f"{spec.ref}^{{commit}}"],
                                          final)
            if head != expected:
                return f"its HEAD is at {head[:12]}, not at {expected[:12]} ({spec.ref})", None
            changed = self._git_changes(final)
            if changed:
                return "files were changed: " + some_of(changed), None
            states, problem = self._git_submodules(final)
            if problem:
                return problem, None
        except GitFailed as failed:
            return f"git could not check it ({failed.summary})", None
        tree = SourceTree(final, TreeKind.GIT, spec.ref, head, True, tuple(states), spec.url)
        return "", tree

    # -- fetching ---------------------------------------------------------------------------

    def fetch(self, final: Path) -> SourceTree:
        spec = self.spec
        work = new_work(self.root, final.name)
        checkout = work / "t"
        try:
            self._emit(SourceEventKind.STEP, f"Cloning {spec.url} ({spec.ref})")
            clone = ["clone", "--no-checkout", "--progress"]
            if self.blob_filter:
                clone.append("--filter=blob:none")
            self._git_stream([*clone, "--", spec.url, str(checkout)], work)
            commit = self._resolve(checkout)
            self._emit(SourceEventKind.STEP, f"Checking out {spec.ref} ({commit[:12]})")
            self._git_stream(["-c", "advice.detachedHead=false", "checkout", "--progress",
                              "--detach", commit], checkout)
            if spec.submodules or (checkout / ".gitmodules").is_file():
                paths = [s.path for s in spec.submodules]
                self._emit(SourceEventKind.STEP,
                           "Fetching submodules" + (": " + ", ".join(paths) if paths else ""))
                update = ["submodule", "update", "--init", "--recursive", "--progress"]
                if self.blob_filter and self._git_at_least(MIN_GIT_SUBMODULE_FILTER):
                    update.append("--filter=blob:none")
                self._git_stream([*update, "--", *paths], checkout)
            states, problem = self._git_submodules(checkout)
            if problem:
                raise SourceError(
                    msg("The {name} submodules are incomplete after the clone: {problem}.",
                        name=spec.name, problem=problem),
                    hint=N_("Try again; if it keeps failing, choose a local copy (Kernel page "
                            "→ Local folder)."),
                )
            for sub, state in zip(spec.submodules, states, strict=False):
                if sub.commit and state.commit and sub.commit != state.commit:
                    self._emit(SourceEventKind.WARNING,
                               f"{spec.name} {spec.ref} pins {sub.path} at "
                               f"{state.commit[:12]}; the recipe names {sub.commit[:12]}. "
                               "Using the commit the source pins.")
            _exclude_own_files(checkout)
            write_record(checkout, {
                "kind": TreeKind.GIT.value, "url": spec.url, "ref": spec.ref, "commit": commit,
                "submodules": {s.path: s.commit for s in states},
            })
            check_cancel(self.cancel)
            os.replace(checkout, final)
        except OSError as exc:
            raise disk_error(exc, self.root) from exc
        finally:
            remove_tree(work, quiet=True)
        self._emit(SourceEventKind.DONE, f"Source ready in {final}")
        return SourceTree(final, TreeKind.GIT, spec.ref, commit, False, tuple(states), spec.url)

    def _resolve(self, checkout: Path) -> str:
        """The commit ``spec.ref`` names in the fresh clone (fetched when it is a bare SHA)."""
        spec = self.spec
        rev = ["rev-parse", "--verify", "--quiet", f"{spec.ref}^{{commit}}"]
        rc, lines = self._git_run(rev, checkout, stream=False)
        if rc != 0 and SHA_RE.match(spec.ref):
            self._git_run(["fetch", "--quiet", "origin", spec.ref], checkout, stream=False)
            rc, lines = self._git_run(rev, checkout, stream=False)
        if rc != 0 or not lines:
            raise SourceError(
                msg("{name} has no tag or commit '{ref}' at {url}.", name=spec.name,
                    ref=spec.ref, url=spec.url),
                why=N_("The repository was reached, but it does not contain that version (a "
                       "tag removed or renamed upstream, or a typing error in a local recipe)."),
                hint=N_("Choose another version on the Kernel page, or report this if the "
                        "version came with the wizard."),
            )
        commit = lines[-1].strip()
        if spec.commit and commit != spec.commit:
            raise SourceError(
                msg("The {name} tag {ref} now points at a different commit.", name=spec.name,
                    ref=spec.ref),
                why=msg("The recipe expects {expected}, the repository has {commit}: the tag "
                        "was moved upstream, so this is not the source the recipe was tested "
                        "with.", expected=spec.commit, commit=commit),
                hint=N_("Choose another version, or report this to the wizard's maintainers."),
            )
        return commit

    def _git_submodules(self, tree: Path) -> tuple[list[SubmoduleState], str]:
        """States of the needed submodules (``git submodule status``), and the first problem."""
        spec = self.spec
        rc, lines = self._git_run(["submodule", "status", "--recursive"], tree, stream=False)
        if rc != 0:
            raise GitFailed("git submodule status failed: " + last_lines(lines), offline=False)
        listed: dict[str, tuple[str, str]] = {}
        for line in lines:
            if len(line) < 42:
                continue
            flag, rest = line[0], line[1:]
            sha, _, tail = rest.partition(" ")
            path = tail.rsplit(" (", 1)[0].strip() if tail.endswith(")") else tail.strip()
            listed[path] = (flag, sha)
        wanted = list(spec.submodules) or [SubmoduleSpec(p) for p in listed
                                           if listed[p][0] != "-"]
        states: list[SubmoduleState] = []
        problem: str = ""
        for sub in wanted:
            flag, sha = listed.get(sub.path, ("?", ""))
            populated = submodule_problem(tree, sub) is None
            states.append(SubmoduleState(sub.path, sha or None, populated and flag == " "))
            if problem:
                continue
            if flag == "?":
                problem = msg("{path} is not a submodule of this source", path=sub.path)
            elif flag == "-":
                problem = msg("the submodule {path} is not checked out", path=sub.path)
            elif flag == "+":
                problem = msg("the submodule {path} is at {commit}, not at the commit the "
                              "source pins", path=sub.path, commit=sha[:12])
            elif flag != " ":
                problem = msg("the submodule {path} is in a conflicted state", path=sub.path)
            elif not populated:
                problem = msg("the submodule folder {path} is {problem}", path=sub.path,
                              problem=submodule_problem(tree, sub))
        return states, problem

    def _git_changes(self, tree: Path) -> list[str]:
        """Paths ``git status`` reports, less build outputs and the wizard's own files."""
        out = self._git_bytes(["status", "--porcelain=v1", "-z", "--untracked-files=all",
                               "--ignore-submodules=none"], tree)
        entries = out.split(b"\0")
        changed: list[str] = []
        i = 0
        while i < len(entries):
            entry = entries[i]
            i += 1
            if len(entry) < 4:
                continue
            code, path = entry[:2].decode("ascii", "replace"), entry[3:].decode(
                "utf-8", "replace")
            if code[0] in "RC":
                i += 1  # the original path follows a rename or copy
            if code == "??" and is_build_output(path):
                continue
            if code == "??" and PurePosixPath(path).parts[0] in OWN_NAMES:
                continue
            changed.append(f"{path} ({_status_words(code)})")
        return changed

    # -- archive route ----------------------------------------------------------------------------

    # -- running git ----------------------------------------------------------------------------

    def _git_cmd(self, args: Sequence[str]) -> list[str]:
        assert self.git
        config = [
            ("core.autocrlf", "false"),  # upstream's bytes on every OS (patches, hashes)
            ("core.quotepath", "false"),
            ("http.lowSpeedLimit", "1"),  # a transfer stalled for 5 minutes fails (then the
            ("http.lowSpeedTime", "300"),  # archive route) instead of hanging forever
            *self.git_config,
        ]
        cmd = [self.git]
        for key, value in config:
            cmd += ["-c", f"{key}={value}"]
        return cmd + list(args)

    def _git_stream(self, args: Sequence[str], cwd: Path) -> None:
        rc, lines = self._git_run(args, cwd, stream=True)
        if rc != 0:
            raise self._classify(args, lines)

    def _git_text(self, args: Sequence[str], cwd: Path) -> str:
        rc, lines = self._git_run(args, cwd, stream=False)
        if rc != 0 or not lines:
            raise GitFailed(f"git {args[0]} failed: {last_lines(lines)}", offline=False)
        return lines[-1].strip()

    def _git_bytes(self, args: Sequence[str], cwd: Path) -> bytes:
        try:
            done = run_captured(self._git_cmd(args), cwd=cwd, env_changes=GIT_ENV,
                                cancel=self.cancel, timeout_s=GIT_TIMEOUT_S)
        except ProcessError as exc:
            raise GitFailed(f"git {args[0]} could not run: {exc.what} {exc.why}",
                             offline=False) from exc
        if done.returncode != 0:
            text = done.stderr.strip().splitlines()
            raise GitFailed(f"git {args[0]} failed: {last_lines(text)}", offline=False)
        return done.stdout_bytes

    def _git_version_tuple(self) -> tuple[int, ...]:
        if self._git_version is None:
            rc, lines = self._git_run(["--version"], None, stream=False)
            match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", " ".join(lines)) if rc == 0 else None
            self._git_version = (tuple(int(g) for g in match.groups() if g is not None)
                                 if match else (0,))
        return self._git_version

    def _git_at_least(self, version: tuple[int, ...]) -> bool:
        return self._git_version_tuple() >= version


    def _git_run(
        self, args: Sequence[str], cwd: Path | None, *, stream: bool
    ) -> tuple[int, list[str]]:
        """Run git; its output lines (progress split at CR too) go to ``on_line`` when
        ``stream``. Returns (exit status, the last 200 lines). Honours ``cancel``: raises
        :class:`~kernel_wizard.base.errors.Cancelled` with git's whole process tree stopped."""
        check_cancel(self.cancel)
        lines: deque[str] = deque(maxlen=200)
        on_line = self.on_line if stream else None

        def take(batch: list[str]) -> None:
            for raw in batch:
                text = raw.rstrip()
                if text:
                    lines.append(text)
                    if on_line is not None:
                        on_line(text)

        try:
            if stream:
                rc = self._stream(args, cwd, take)
            else:
                done = run_captured(self._git_cmd(args), cwd=cwd, env_changes=GIT_ENV,
                                    cancel=self.cancel, timeout_s=GIT_TIMEOUT_S,
                                    merge_stderr=True)
                take(done.stdout.splitlines())
                rc = done.returncode
        except Cancelled as exc:
            raise Cancelled("Fetching the source was cancelled.",
                            why="git was stopped; the unfinished copy is removed.",
                            leftover_pids=exc.leftover_pids) from None
        except ProcessStartError as exc:
            raise GitFailed(f"git could not be started ({exc.why})", offline=False) from exc
        except ProcessError as exc:
            raise GitFailed(f"git {args[0]} failed: {exc.what}", offline=False) from exc
        return rc, list(lines)

    def _stream(self, args: Sequence[str], cwd: Path | None,
                take: Callable[[list[str]], None]) -> int:
        return processes.stream(self._git_cmd(args), take, cwd=cwd, env_changes=GIT_ENV,
                                cancel=self.cancel, split_cr=True).returncode

    def _classify(self, args: Sequence[str], lines: Sequence[str]) -> Exception:
        low = "\n".join(lines).lower()
        if any(m in low for m in DISK_FULL_MARKERS):
            return SourceError(
                msg("The disk is full: git could not write {name}'s source.",
                    name=self.spec.name),
                why=last_lines(lines),
                hint=msg("Free some space on the drive of {folder} (the source with its "
                         "submodules can take a few GB), then try again.", folder=self.root),
            )
        offline = any(m in low for m in OFFLINE_MARKERS)
        return GitFailed(f"git {args[0]} failed: {last_lines(lines)}", offline=offline)

    def git_error(self, failed: GitFailed) -> SourceError:
        host = urlsplit(self.spec.url).hostname or self.spec.url
        if failed.offline:
            return SourceError(
                msg("Could not reach {host} to fetch {name}.", host=host, name=self.spec.name),
                why=failed.summary,
                hint=N_("Check the internet connection and try again, or choose a local copy "
                        "of the source (Kernel page → Local folder)."),
            )
        return SourceError(
            msg("git could not fetch {name}.", name=self.spec.name),
            why=failed.summary,
            hint=N_("Try again; if it keeps failing, let the wizard download the source "
                    "archive or choose a local copy (Kernel page → Local folder)."),
        )


def _exclude_own_files(checkout: Path) -> None:
    """Tell git to ignore the wizard's record and patch ledger in this checkout."""
    info = checkout / ".git" / "info"
    if not (checkout / ".git").is_dir():
        return
    info.mkdir(parents=True, exist_ok=True)
    exclude = info / "exclude"
    old = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
    lines = [f"/{SOURCE_RECORD}", f"/{LEDGER_DIR}/"]
    add = [line for line in lines if line not in old.splitlines()]
    if add:
        sep = "" if not old or old.endswith("\n") else "\n"
        exclude.write_text(old + sep + "\n".join(add) + "\n", encoding="utf-8")


def _status_words(code: str) -> str:
    if code == "??":
        return "not part of the source"
    words = {"M": "modified", "A": "added", "D": "deleted", "R": "renamed", "C": "copied",
             "T": "type changed", "U": "conflict"}
    for ch in code:
        if ch in words:
            return words[ch]
    return code.strip() or "changed"
