"""Get a kernel's source tree into a short, cached build root: git, archive + submodules, local.

Routes (:func:`fetch_source`):

* **git** (when git is installed): ``git clone --no-checkout [--filter=blob:none]``, the tag or
  commit resolved with ``rev-parse <ref>^{commit}`` (and checked against the commit the recipe
  expects: a moved tag is refused), ``checkout --detach``, then ``git submodule update --init
  --recursive`` for the submodules the recipe needs, each at the commit the superproject pins.
  Every git command gets the platform's ``git -c`` settings (Windows: ``core.longpaths=true``)
  plus ``core.autocrlf=false``, so that the bytes are upstream's on every OS. git's progress
  lines go to ``on_line``; ``cancel`` stops the whole git process tree.
* **archive** (git absent, or git failed — not for an unknown tag or a full disk): the
  repository's source archive at the commit (or tag) through :func:`base.download.download`
  (resumable, verified), then each submodule's archive at its pinned commit, extracted into
  the submodule's folder (a GitHub archive has none). The URL builders are
  :class:`SourceHosts` (GitHub by default; tests point them at a loopback server).
* **local**: :func:`prepare_local` checks a folder the user chose (the build copies it:
  :func:`flow.pipeline.stage_plan`) — a ``setup.py`` or ``pyproject.toml``, and every
  submodule the recipe needs populated (the recipe's marker file, e.g.
  ``include/cutlass/cutlass.h``, when it declares one); :func:`prepare_local_archive`
  extracts a ``.tar.gz`` / ``.zip`` the user chose into the cache
  and checks it the same way. For offline and air-gapped machines.

The cache is ``<build root>/<recipe>-<ref>`` (default build root: the platform's
``default_build_root()/src``, short on purpose). A cached tree is **verified, never assumed**:

* every tree carries ``.ksw-source.json`` (what was fetched, from where, at which commit),
  written last, inside the temporary folder, before the folder is renamed into place: a tree
  without it is an interrupted fetch and is not used;
* patches applied by :mod:`kernel_wizard.build.patches` are put back first (only files whose bytes
  are exactly what the patcher wrote), so that what is checked is the pristine upstream tree;
* git trees: ``git rev-parse HEAD`` is the expected commit, ``git status --porcelain`` shows
  nothing but build outputs (``build/``, ``dist/``, ``*.egg-info``, ...), every needed
  submodule is at the commit the superproject pins (``git submodule status``) and populated;
* archive trees: the SHA-256 of every file, recorded right after extraction, is computed again
  and compared (changed, missing and extra files; extra build outputs are allowed).

A tree that fails is reported (:class:`SourceEvent` ``CACHE_REJECTED`` with the reason), removed,
and fetched again. Downloads and extraction go to a temporary folder beside the cache that is
renamed into place only when complete: a half-extracted tree is never trusted.

Errors are :class:`SourceError` (a :class:`~kernel_wizard.base.errors.WizardError`) in plain words:
offline, unknown tag, a tag that moved, git failing, a full disk, a broken or unsafe archive,
an empty submodule folder. Cancel raises :class:`~kernel_wizard.base.errors.Cancelled`.

The package: :mod:`.model` (specs, trees, events, errors), :mod:`.fetch` (the flow and the
cache check), :mod:`.git` and :mod:`.archive` (the two download routes), :mod:`.local` (folders
and archives the user chose), :mod:`.extract` (safe extraction), :mod:`.cache` (record, file
hashes, folders).
"""

from __future__ import annotations

from kernel_wizard.build.sources.fetch import fetch_recipe_source, fetch_source, source_spec
from kernel_wizard.build.sources.local import (
    default_source_root,
    prepare_local,
    prepare_local_archive,
)
from kernel_wizard.build.sources.model import (
    SOURCE_RECORD,
    FetchRoute,
    SourceError,
    SourceEvent,
    SourceEventKind,
    SourceHosts,
    SourceSpec,
    SourceTree,
    SubmoduleSpec,
    SubmoduleState,
    TreeKind,
    github_archive_url,
    github_gitlink_url,
)

__all__ = [
    "SOURCE_RECORD",
    "FetchRoute",
    "SourceError",
    "SourceEvent",
    "SourceEventKind",
    "SourceHosts",
    "SourceSpec",
    "SourceTree",
    "SubmoduleSpec",
    "SubmoduleState",
    "TreeKind",
    "default_source_root",
    "fetch_recipe_source",
    "fetch_source",
    "github_archive_url",
    "github_gitlink_url",
    "prepare_local",
    "prepare_local_archive",
    "source_spec",
]
