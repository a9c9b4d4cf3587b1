"""The snapshot store: a git repository with one commit per observed upstream edit of a page.

Layout (branch ``main``)::

    .spectrack/store.json                    marks the repository as a spectrack store
    .spectrack/state/<source>/<page>.md.json per-page state (see `PageState`)
    .spectrack/checks/<source>.json          the store commit the last successful
                                             ``spectrack check`` of the source reported up to
    .spectrack/releases/<source>.json        the source's recorded releases (`spectrack.releases`)
    <source>/<url path>.md                   the page, as served (see `spectrack.paths`)

Each revision is one commit touching one page (and its state file): **author date** = upstream
time (the sitemap ``lastmod``, the upstream commit for ``import-git``, or the fetch time when
there is neither), **committer date** = when spectrack recorded it. Trailers say the rest::

    Spectrack-Source: mcp
    Spectrack-Page: mcp/specification/draft/server/tools
    Spectrack-URL: https://example.org/specification/draft/server/tools
    Spectrack-Event: added | changed | removed
    Spectrack-Time-Source: sitemap | commit | fetch
    Spectrack-Time-Precision: year | month | day | second
    Spectrack-Lastmod: 2025-06-18              (the raw sitemap value, when there is one)
    Spectrack-Upstream-Commit: <sha>           (import-git)

A run ends with at most one more commit (``Spectrack-Event: state``) for state-only updates: a
moved ``lastmod`` or new ETag on unchanged bytes, the unlisted flag. Same bytes never make a
revision. A check moves its markers in one commit of its own (``Spectrack-Event: check``); being
committed, they travel with a clone or a push of the store. Release records change in commits of
their own too (``Spectrack-Event: releases``), again only when their bytes change.

Reading (for ``spectrack log``/``diff``, the change site and CI alerting)::

    store = Store.open(path)             # StoreError unless it is a store
    store.sources() -> list[str]
    store.pages(source=None) -> list[str]           # page ids: store path without ".md"
    store.resolve(name) -> str                      # page id, file path or URL -> page id
    store.state(page) -> PageState | None
    store.history(page) -> list[Revision]           # oldest first, removals included
    store.revisions(source=None, since=None) -> list[Revision]   # since: recorded at/after
    store.revisions_between(base, head, source=None) -> list[Revision]  # in base..head
    store.checked(source) -> str | None             # commit the last check reported up to
    store.read(page, commit) -> str | None          # text at any store commit; None if absent
    store.at(page, when) -> Revision | None         # in force at an upstream time
    store.revision_at(page, rev) -> Revision | None # in force at a store commit
    store.first_seen(page) -> datetime | None
    store.read_file(path, rev=BRANCH) -> bytes | None   # any file, e.g. a release record
    store.files(folder, rev=BRANCH) -> list[str]        # store paths of the files in a folder
    store.close()                                   # or use the store as a context manager

Writing goes through `Store.writer` (one run at a time: a file lock on the repository, with a
short wait, then `StoreBusyError`). Commits stream into ``git fast-import``, which never rewrites
existing history (a ref update that is not a fast-forward fails) and publishes commits only at a
checkpoint or at the end of a complete stream: a run killed at any moment leaves the previous
commits intact, and the next run fetches what is missing again. The files of the working tree are
written while the run goes (`spectrack.worktree`); the next run also undoes those of a killed run.
A run refuses to start while tracked files or the index hold changes that no run left (a hand
edit), which that checkout would discard.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Collection, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit, urlunsplit

from spectrack.chunkfile import reduce_by_constructor
from spectrack.dates import (
    Clock,
    Precision,
    TimeSource,
    UpstreamTime,
    git_date,
    in_utc_range,
    iso,
    parse_lastmod,
    utc_now,
)
from spectrack.errors import InputError, StoreBusyError, StoreError
from spectrack.git import git_env, run_git
from spectrack.pages import decode_page
from spectrack.paths import PAGE_SUFFIX, ensure_inside, page_file
from spectrack.revisioncache import RevisionCache
from spectrack.sitemap import one_document, site_of, well_formed
from spectrack.worktree import WorkTree, changed_by_hand, check_out

BRANCH = "refs/heads/main"
META_FILE = ".spectrack/store.json"
STATE_ROOT = ".spectrack/state"
CHECK_ROOT = ".spectrack/checks"
STORE_FORMAT = 1
IDENTITY = "spectrack <spectrack@localhost>"
CHECKPOINT_EVERY = 100
"""Commits between two fast-import checkpoints (the points a killed run keeps)."""
LOCK_FILE = "spectrack.lock"
CHECK_LOCK_FILE = "spectrack-check.lock"
"""Held by a check from reading its markers until it moved them (see `spectrack.check`)."""
CHECKOUT_PENDING = "spectrack-checkout-pending"
"""Exists from a run's first commit until its files are checked out (a killed run leaves it); lists
the files the run wrote into the working tree (see `spectrack.worktree`)."""
_STALE_GIT_LOCKS = ("index.lock", "HEAD.lock", "packed-refs.lock", "refs/heads/main.lock")


class RevisionEvent(StrEnum):
    ADDED = "added"
    CHANGED = "changed"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class Revision:
    """One recorded upstream edit of a page."""

    commit: str
    page: str
    """The page id: its store path without ``.md``, e.g. ``mcp/specification/draft/server/tools``."""
    source: str
    url: str
    event: RevisionEvent
    upstream_time: datetime
    """When upstream edited the page (the commit's author date)."""
    time_source: TimeSource
    precision: Precision
    recorded_time: datetime
    """When spectrack recorded it (the commit's committer date)."""
    lastmod_raw: str | None
    upstream_commit: str | None = None

    __reduce__ = reduce_by_constructor

    @property
    def path(self) -> str:
        return self.page + PAGE_SUFFIX


@dataclass(frozen=True, slots=True)
class PageState:
    """What spectrack remembers about a page between runs (committed in the store)."""

    url: str
    page: str
    first_seen: datetime
    """When spectrack first recorded the page."""
    sha256: str
    """Hash of the stored bytes."""
    lastmod: str | None = None
    """The raw sitemap ``lastmod`` last seen."""
    lastmod_recorded: str | None = None
    """The raw ``lastmod`` of the latest revision (a stale lastmod is not an upstream time)."""
    etag: str | None = None
    last_modified: str | None = None
    unlisted: bool = False
    """Still served, but the sitemap no longer lists it."""

    def to_json(self) -> bytes:
        data = {
            "url": self.url,
            "page": self.page,
            "first_seen": iso(self.first_seen),
            "sha256": self.sha256,
            "lastmod": self.lastmod,
            "lastmod_recorded": self.lastmod_recorded,
            "etag": self.etag,
            "last_modified": self.last_modified,
            "unlisted": self.unlisted,
        }
        return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode()

    @classmethod
    def from_json(cls, data: bytes, name: str) -> PageState:
        try:
            raw: dict[str, Any] = json.loads(data)
            texts = {key: raw[key] for key in ("url", "page", "first_seen", "sha256")}
            optional = {
                key: raw.get(key)
                for key in ("lastmod", "lastmod_recorded", "etag", "last_modified")
            }
            for key, value in [*texts.items(), *optional.items()]:
                if not isinstance(value, str) and not (value is None and key in optional):
                    raise TypeError(f"{key!r} is {type(value).__name__}, not a string")
            return cls(
                url=texts["url"],
                page=texts["page"],
                first_seen=datetime.fromisoformat(texts["first_seen"]),
                sha256=texts["sha256"],
                unlisted=bool(raw.get("unlisted", False)),
                **optional,
            )
        except (ValueError, KeyError, TypeError) as error:
            raise StoreError(f"{name}: unreadable page state ({error})") from None


@dataclass(frozen=True, slots=True)
class Recorded:
    """What `StoreWriter.record` did with a body."""

    page: str
    event: RevisionEvent | None
    """None when the bytes were the same as stored (no revision)."""
    old: bytes | None
    """The previously stored bytes, if any."""


def state_path(page: str) -> str:
    return f"{STATE_ROOT}/{page}{PAGE_SUFFIX}.json"


def checked_out(path: str) -> bool:
    """Whether a store file is in the working tree (the sparse checkout leaves page state out)."""
    return not path.startswith(STATE_ROOT + "/")


def check_path(source: str) -> str:
    return f"{CHECK_ROOT}/{source}.json"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _clean_trailer(value: str) -> str:
    return re.sub(r"[\x00-\x1f\x7f]+", " ", value).strip()[:500]


def git(path: Path, *args: str, data: bytes | None = None, check: bool = True) -> bytes:
    """Run git in the store at ``path``; a failure is a `StoreError` with git's message."""
    return run_git(path, *args, stdin=data, check=check, error=StoreError)


class BlobReader:
    """A long-lived ``git cat-file --batch``: reads objects by ``<rev>:<path>`` cheaply."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            ["git", "-C", str(path), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=git_env(),
        )

    def read(self, spec: str) -> bytes | None:
        if "\n" in spec:
            return None
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        # A name from the command line may hold bytes that are not UTF-8 (as surrogates): git
        # gets them as they were, and finds no such file.
        stdin.write(spec.encode("utf-8", "surrogateescape") + b"\n")
        stdin.flush()
        line = stdout.readline()
        # The answer for an absent object repeats the spec, which may hold spaces.
        if line.rstrip(b"\n").endswith((b" missing", b" ambiguous")):
            return None
        header = line.split()
        if len(header) != 3 or header[1] != b"blob":
            if len(header) == 3:
                stdout.read(int(header[2]) + 1)
            return None
        data = stdout.read(int(header[2]))
        stdout.read(1)
        return data

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()


_TRAILER = re.compile(r"^Spectrack-([A-Za-z-]+): ?(.*)$", re.M)
_LOG_FORMAT = "--format=%H%x1f%aI%x1f%cI%x1f%B%x1e"


def _log_time(text: str) -> datetime | None:
    """A strict ISO date from ``git log``; None where git printed the placeholder instead, and
    for a time past the year 9999 in UTC (an upstream commit's date), which no reader can show."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if in_utc_range(moment) else None


def _lastmod_precision(raw: str | None, recorded: Precision) -> Precision:
    """The precision of an upstream time taken from the sitemap's ``lastmod`` ``raw``: a store
    written before years and months were told apart recorded ``2025`` and ``2025-03`` as known
    to the day, which log and the change site would show as an edit on 2025-01-01."""
    parsed = parse_lastmod(raw) if raw else None
    if parsed is None or parsed.precision not in (Precision.YEAR, Precision.MONTH):
        return recorded
    return parsed.precision


def _parse_log(output: bytes) -> list[Revision]:
    revisions = []
    for record in output.decode("utf-8", "replace").split("\x1e"):
        fields = record.strip("\n").split("\x1f")
        if len(fields) != 4:
            continue
        commit, authored, committed, message = fields
        trailers = {key.lower(): value for key, value in _TRAILER.findall(message)}
        if trailers.get("event") not in tuple(RevisionEvent) or "page" not in trailers:
            continue
        upstream = _log_time(authored)
        recorded = _log_time(committed) or upstream
        if recorded is None:
            continue
        try:
            time_source = TimeSource(trailers.get("time-source", "fetch"))
            precision = Precision(trailers.get("time-precision", "second"))
        except ValueError as error:
            raise StoreError(
                f"store commit {commit}: {error} in its Spectrack- trailers; the store was "
                "edited by hand or written by a newer spectrack"
            ) from None
        if time_source is TimeSource.SITEMAP and precision is Precision.DAY:
            precision = _lastmod_precision(trailers.get("lastmod"), precision)
        if upstream is None:
            # A date git cannot show (a lastmod before 1970 kept by an older version) or that
            # overflows UTC: the time it was recorded is the best known, as for no lastmod.
            upstream, time_source, precision = recorded, TimeSource.FETCH, Precision.SECOND
        revisions.append(
            Revision(
                commit=commit,
                page=trailers["page"],
                source=trailers.get("source", trailers["page"].split("/")[0]),
                url=trailers.get("url", ""),
                event=RevisionEvent(trailers["event"]),
                upstream_time=upstream,
                time_source=time_source,
                precision=precision,
                recorded_time=recorded,
                lastmod_raw=trailers.get("lastmod") or None,
                upstream_commit=trailers.get("upstream-commit") or None,
            )
        )
    return revisions


def _format_problem(meta: bytes) -> str | None:
    """What keeps this spectrack from using a store whose metadata file holds ``meta``."""
    try:
        found = json.loads(meta).get("format")
    except (ValueError, AttributeError):
        return "not the JSON object spectrack writes; restore it from the store's history"
    if found != STORE_FORMAT:
        if isinstance(found, int) and found > STORE_FORMAT:
            return f"store format {found}, newer than this spectrack's ({STORE_FORMAT}); upgrade"
        return f"store format {found!r}, which no spectrack writes; restore it from the history"
    return None


class Store:
    """A snapshot store on disk; see the module docstring for the reading API."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._reader: BlobReader | None = None
        self._cache: tuple[str | None, list[Revision]] | None = None
        self._urls: tuple[str | None, dict[str, str]] | None = None
        self._shallow: frozenset[str] | None = None

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Store:
        """An existing store; `StoreError` when ``path`` is not one."""
        path = Path(path)
        if not (path / ".git").exists():
            raise StoreError(
                f"{path}: no snapshot store here; run `spectrack init` or `spectrack fetch` first"
            )
        if not (path / ".git").is_dir():
            # A linked worktree or a submodule: its repository lies elsewhere, with the locks,
            # caches and checkout list spectrack keeps beside the store's own.
            raise StoreError(
                f"{path}: a git worktree or submodule (its .git is a file); a snapshot store is a "
                f"repository of its own: use `git clone` to make one"
            )
        store = cls(path)
        meta = store._blob(f"{BRANCH}:{META_FILE}") if store.head() is not None else None
        if meta is None:
            store.close()
            raise StoreError(f"{path}: a git repository, but not a spectrack snapshot store")
        problem = _format_problem(meta)
        if problem is not None:
            store.close()
            raise StoreError(f"{path / META_FILE} (as committed): {problem}")
        return store

    @classmethod
    def create(cls, path: str | os.PathLike[str], clock: Clock = utc_now) -> Store:
        """The store at ``path``, created (``git init`` and a first commit) when missing.

        Creation holds a lock on the folder, so two first runs do not both create it, and an
        interrupted creation (a repository that never had a commit, a ref or an index) is
        completed. Any other repository without the store's branch is refused, as `open` does:
        creating the store there would check its first commit out over someone's work.
        """
        path = Path(path)
        if path.exists() and not path.is_dir():
            raise StoreError(f"{path}: exists and is not a folder")
        path.mkdir(parents=True, exist_ok=True)
        folder = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(folder, fcntl.LOCK_EX)
            if not (path / ".git").exists():
                _refuse_to_overwrite(path)
                # No template: its sample hooks are a score of files to create, and fast-import
                # runs no hooks anyway.
                git(path, "init", "--quiet", "--initial-branch=main", "--template=")
                # Page state is for spectrack, not for readers of the files: leaving it out of
                # the checkout halves the files a run writes (`checked_out` says the same).
                git(path, "config", "core.sparseCheckout", "true")
                (path / ".git" / "info").mkdir(exist_ok=True)
                (path / ".git" / "info" / "sparse-checkout").write_text(f"/*\n!/{STATE_ROOT}/\n")
                # A first fetch waits for this: what is known (no branch yet, HEAD on it, the
                # store valid) is not asked of git again.
                _first_commit(path, clock, head_set=True)
                return cls(path)
            if not git(
                path, "rev-parse", "--verify", "--quiet", BRANCH, check=False
            ).strip() and _never_used(path):
                _refuse_to_overwrite(path)
                _first_commit(path, clock)
        finally:
            os.close(folder)
        return cls.open(path)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- low-level reads -----------------------------------------------------------------------

    def head(self) -> str | None:
        out = git(self.path, "rev-parse", "--verify", "--quiet", BRANCH, check=False)
        return out.decode().strip() or None

    def _blob(self, spec: str) -> bytes | None:
        if self._reader is None:
            self._reader = BlobReader(self.path)
        return self._reader.read(spec)

    def _tree_files(self, prefix: str, rev: str = BRANCH) -> list[str]:
        out = git(self.path, "ls-tree", "-r", "-z", "--name-only", rev, "--", prefix, check=False)
        return [name for name in out.decode("utf-8", "surrogateescape").split("\x00") if name]

    # -- pages and state -----------------------------------------------------------------------

    def sources(self) -> list[str]:
        out = git(self.path, "ls-tree", "-z", "--name-only", "-d", BRANCH)
        return sorted(n for n in out.decode().split("\x00") if n and not n.startswith("."))

    def require_sources(self, names: Collection[str]) -> None:
        """`InputError` naming the first of ``names`` that is no source of the store.

        A source whose pages were all removed has no folder any more, but its history counts.
        """
        if not names:
            return
        known = set(self.sources())
        if not known.issuperset(names):
            known.update(revision.source for revision in self.revisions())
        for name in names:
            if name not in known:
                raise InputError(
                    f"--source {name!r}: no such source in the store {self.path} "
                    f"(sources: {', '.join(sorted(known)) or 'none'})"
                )

    def pages(self, source: str | None = None) -> list[str]:
        """Page ids of the pages present now, sorted."""
        names = []
        for folder in [source] if source else self.sources():
            names += [
                n[: -len(PAGE_SUFFIX)]
                for n in self._tree_files(f"{folder}/")
                if n.endswith(PAGE_SUFFIX)
            ]
        return sorted(names)

    def states(self, source: str, rev: str = BRANCH) -> dict[str, PageState]:
        """The state of every page of a source by URL."""
        states = {}
        for name in self._tree_files(f"{STATE_ROOT}/{source}/", rev):
            data = self._blob(f"{rev}:{name}")
            if data is not None:
                state = PageState.from_json(data, name)
                states[state.url] = state
        return states

    def state(self, page: str) -> PageState | None:
        data = self._blob(f"{BRANCH}:{state_path(page)}")
        return PageState.from_json(data, state_path(page)) if data is not None else None

    # -- history -------------------------------------------------------------------------------

    def revisions(self, source: str | None = None, since: datetime | None = None) -> list[Revision]:
        """Every revision, oldest first; ``since`` keeps those *recorded* at or after it."""
        head = self.head()
        if self._cache is None or self._cache[0] != head:
            self._cache = (head, self._list_revisions(head) if head else [])
        return [
            r
            for r in self._cache[1]
            if (source is None or r.source == source)
            and (since is None or r.recorded_time >= since)
        ]

    def _list_revisions(self, head: str) -> list[Revision]:
        """The revisions up to commit ``head``: those listed by an earlier run, then the rest."""
        if self.shallow_boundary():
            # A shallow clone lacks the oldest commits: a list kept now would stay short after
            # the rest of the history is fetched.
            return self._log(head)
        known = RevisionCache.load(self.path)
        if known.head == head:
            return known.revisions
        # Commits merged in since may be older than the listed head: after a merge, git's order
        # of the whole history is not the listed order with the new commits after it.
        follows = (
            known.head is not None
            and self.is_ancestor(known.head, head)
            and not git(self.path, "rev-list", "--merges", "-n", "1", f"{known.head}..{head}")
        )
        listed = self._log(f"{known.head}..{head}" if follows else head)
        if follows:
            known.extend(head, listed)
        else:
            known.restart(head, listed)
        return known.revisions

    def shallow_boundary(self) -> frozenset[str]:
        """The commits of a shallow clone whose parents were not fetched (none in a full clone):
        what they changed cannot be told until the rest of the history is."""
        if self._shallow is None:
            try:
                listed = (self.path / ".git" / "shallow").read_text(encoding="ascii").split()
            except (FileNotFoundError, UnicodeDecodeError):
                listed = []
            self._shallow = frozenset(listed)
        return self._shallow

    def _log(self, span: str) -> list[Revision]:
        """The revisions among the commits of ``span`` (a commit or a range), oldest first."""
        return _parse_log(git(self.path, "log", "--reverse", _LOG_FORMAT, span))

    def revisions_between(
        self, base: str | None, head: str, source: str | None = None
    ) -> list[Revision]:
        """Revisions reachable from commit ``head`` but not from ``base``, oldest first.

        With ``base`` None, every revision up to ``head``.
        """
        excluded = [f"^{base}"] if base else []
        commits = set(git(self.path, "rev-list", head, *excluded, "--").decode().split())
        return [r for r in self.revisions(source) if r.commit in commits]

    def checked(self, source: str) -> str | None:
        """The store commit the last successful ``spectrack check`` of ``source`` reported up to.

        None before the first check. `StoreError` when the marker is unreadable or names a commit
        the repository lacks (a shallow clone).
        """
        name = check_path(source)
        data = self._blob(f"{BRANCH}:{name}")
        if data is None:
            return None
        try:
            commit = json.loads(data)["commit"]
        except (ValueError, KeyError, TypeError, RecursionError) as error:
            raise StoreError(f"{self.path}: {name}: unreadable check marker ({error})") from None
        if not isinstance(commit, str) or not re.fullmatch(r"[0-9a-f]{40}", commit):
            raise StoreError(f"{self.path}: {name}: unreadable check marker (commit {commit!r})")
        if not self._has_commit(commit):
            raise StoreError(
                f"{self.path}: {name}: the last check reported up to commit {commit[:12]}, which "
                "this clone of the store lacks; clone or fetch the store's whole history "
                "(actions/checkout: fetch-depth: 0)"
            )
        return commit

    def _has_commit(self, commit: str) -> bool:
        found = git(
            self.path, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}", check=False
        )
        return bool(found.strip())

    def is_ancestor(self, older: str, newer: str) -> bool:
        """Whether commit ``older`` is ``newer`` or in its history."""
        return git(self.path, "merge-base", older, newer, check=False).decode().strip() == older

    def history(self, page: str) -> list[Revision]:
        """The revisions of one page, oldest first (removals included)."""
        return [r for r in self.revisions() if r.page == page]

    def first_seen(self, page: str) -> datetime | None:
        history = self.history(page)
        return history[0].recorded_time if history else None

    def files(self, folder: str, rev: str = BRANCH) -> list[str]:
        """Store paths of the files under ``folder`` (e.g. ``.spectrack/releases``) at a commit."""
        return self._tree_files(folder.rstrip("/") + "/", rev)

    def read_file(self, path: str, rev: str = BRANCH) -> bytes | None:
        """Any file of the store (e.g. a release record) at a commit; None when absent."""
        return self._blob(f"{rev}:{path}")

    def read_bytes(self, page: str, commit: str) -> bytes | None:
        """The stored bytes of a page at a store commit (any commit-ish); None when absent."""
        return self._blob(f"{commit}:{page}{PAGE_SUFFIX}")

    def read(self, page: str, commit: str) -> str | None:
        """The page's text at a store commit, line ends normalized; None when absent."""
        data = self.read_bytes(page, commit)
        return None if data is None else decode_page(data, f"{page}@{commit[:12]}")

    def at(self, page: str, when: datetime) -> Revision | None:
        """The revision in force at an upstream time: the latest one edited at or before it."""
        found = None
        for revision in self.history(page):
            if revision.upstream_time <= when:
                found = revision
        return found

    def rev_parse(self, rev: str) -> str:
        out = git(self.path, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
        if not out.strip():
            raise InputError(f"{rev}: no such revision in the store {self.path}")
        return out.decode().strip()

    def revision_at(self, page: str, rev: str) -> Revision | None:
        """The revision of ``page`` in force at store commit ``rev`` (that commit or before)."""
        commit = self.rev_parse(rev)
        out = git(self.path, "log", "-1", "--format=%H", commit, "--", page + PAGE_SUFFIX)
        latest = out.decode().strip()
        return next((r for r in self.history(page) if r.commit == latest), None)

    def resolve(self, name: str) -> str:
        """The page id meant by a page id, a store file path or a page URL; `InputError` if none."""
        page = self.find(name)
        if page is None:
            raise InputError(f"{name}: no such page in the store {self.path}")
        return page

    def find(self, name: str) -> str | None:
        """Like `resolve`, but None when nothing matches."""
        if "://" in name:
            found = self._find_url(name)
            return None if found is None else found[1]
        page = name.strip("/")
        page = page[: -len(PAGE_SUFFIX)] if page.endswith(PAGE_SUFFIX) else page
        if not page or page.startswith("."):
            return None
        if self.read_bytes(page, BRANCH) is not None or any(
            r.page == page for r in self.revisions()
        ):
            return page
        return None

    def url_read_as(self, name: str) -> str | None:
        """The page URL of the store that the URL ``name`` is read as when it is none itself but
        for its trailing slash (``…/tools/`` read as ``…/tools``, or the other way); None when
        it names a page as written, or none at all. A site may serve the two as two pages, and
        the store keeps them apart: the URL as written always wins, and a caller says so when
        the other was read."""
        found = self._find_url(name) if "://" in name else None
        if found is None or found[0] == _page_address(name):
            return None
        return found[0]

    def _find_url(self, name: str) -> tuple[str, str] | None:
        """The page URL of the store that ``name`` names, and its page id: ``name`` itself, else
        with its trailing slash dropped or added."""
        by_url = self._pages_by_url()
        wanted = _page_address(name)
        for variant in (wanted, wanted.rstrip("/"), wanted.rstrip("/") + "/"):
            if variant in by_url:
                return variant, by_url[variant]
        return None

    def _pages_by_url(self) -> dict[str, str]:
        """Page ids by every URL they had (as `_page_address` writes it), read once per head."""
        head = self.head()
        if self._urls is None or self._urls[0] != head:
            by_url = {_page_address(r.url): r.page for r in self.revisions()}
            # A page's URL now, also when it moved to it with no revision since (a site moved).
            for source in self.sources():
                by_url.update({_page_address(s.url): s.page for s in self.states(source).values()})
            self._urls = (head, by_url)
        return self._urls[1]

    # -- writing -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def lock(self, wait: float, name: str = LOCK_FILE) -> Iterator[int]:
        """Hold the store's run lock, or the lock file ``name`` in ``.git`` (waiting up to
        ``wait`` seconds); yields the lock's fd."""
        lock_path = self.path / ".git" / name
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
                        raise StoreBusyError(
                            f"{self.path}: another spectrack run is using the store"
                            + (f" (pid {holder})" if holder else "")
                            + f"; waited {wait:g} s. Try again when it has finished."
                        ) from None
                    time.sleep(0.05)
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            yield fd
        finally:
            os.close(fd)

    @contextlib.contextmanager
    def writer(
        self, clock: Clock, lock_wait: float = 10.0, *, whole: bool = False
    ) -> Iterator[StoreWriter]:
        """Record revisions as one run: locked, crash-safe, finished (and checked out) at exit.

        ``whole``: publish every commit of the run or, when the run raises, none of them.
        """
        with self.lock(lock_wait) as fd:
            self._require_branch_checked_out()
            self._clear_stale_locks()
            pending = self.path / ".git" / CHECKOUT_PENDING
            self._refuse_uncommitted_changes(pending)
            if pending.exists():
                # A killed run's files are undone first: a new page's file found in the working
                # tree is then someone's own, never written over (`StoreWriter.record`).
                check_out(self.path, pending, functools.partial(git, self.path))
            writer = StoreWriter(self, clock, fd, checkpoints=not whole)
            failed = False
            try:
                yield writer
            except BaseException:
                failed = whole
                raise
            finally:
                if failed:
                    writer.abort()
                else:
                    writer.finish()
                self._cache = None
                written = pending.exists()
                if written:
                    # After an interrupted run (Ctrl-C) too, whose commits are published: its
                    # index would otherwise hold the files before it, which `git status` shows
                    # as staged changes until the next run. The commits of a failed `whole` run
                    # were dropped, and their files are undone so.
                    check_out(self.path, pending, functools.partial(git, self.path))
            if written:
                git(self.path, "-c", "gc.autoDetach=false", "gc", "--auto", "--quiet", check=False)

    def _require_branch_checked_out(self) -> None:
        """`StoreError` unless HEAD is on the store's branch: a run writes the branch's files into
        the working tree and ends with ``git reset --hard``, which would otherwise discard the
        uncommitted work of whatever is checked out."""
        checked = git(self.path, "symbolic-ref", "--quiet", "HEAD", check=False).decode().strip()
        if checked != BRANCH:
            where = f"on {checked.removeprefix('refs/heads/')}" if checked else "detached"
            raise StoreError(
                f"{self.path}: HEAD is {where}, not on the store's branch main; spectrack writes "
                f"only to a store checked out at main (git -C {self.path} switch main)"
            )

    def _refuse_uncommitted_changes(self, pending: Path) -> None:
        """`StoreError` when tracked files of the working tree or the index hold changes that no
        run left (see `changed_by_hand`): a run ends with ``git reset``, which would discard them."""
        changed = changed_by_hand(
            pending, functools.partial(git, self.path), lambda path: not checked_out(path)
        )
        if changed:
            shown = ", ".join(_clean_trailer(path) for path in changed[:3])
            more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
            raise StoreError(
                f"{self.path}: uncommitted changes to files of the store ({shown}{more}), which "
                f"a run would undo; set them aside with `git -C {self.path} stash` (or drop them "
                f"with `git -C {self.path} restore --staged --worktree .`), then run again"
            )

    def _clear_stale_locks(self) -> None:
        """Remove git lock files a killed run may have left (the run lock proves none is active)."""
        git_dir = self.path / ".git"
        for name in _STALE_GIT_LOCKS:
            with contextlib.suppress(FileNotFoundError):
                (git_dir / name).unlink()


def _never_used(path: Path) -> bool:
    """Whether the repository at ``path`` is as an interrupted creation leaves it: no commit, no
    ref and no index, so that checking the store's first commit out there discards nothing."""
    if not (path / ".git").is_dir() or (path / ".git" / "index").exists():
        return False
    # --all takes HEAD too, which may hold commits that no ref names (a detached HEAD).
    return git(path, "rev-list", "-n", "1", "--all") == b""


def _refuse_to_overwrite(path: Path) -> None:
    """`StoreError` when the folder holds a file the store's first commit would write over."""
    for name in (".gitattributes", META_FILE.split("/")[0]):
        if os.path.lexists(path / name):
            raise StoreError(
                f"{path / name}: exists, and a new snapshot store would write over it; "
                "give the store a folder of its own"
            )


def _page_address(url: str) -> str:
    """A page URL as it names one page: without a fragment or dot segments, as the sitemap's
    URLs are recorded, and with its scheme and host in lower case, which name the same site in
    any case (a URL copied from a browser's address bar, ``…/tools#calling``, is that page)."""
    if not well_formed(url):
        return url
    document = one_document(url)
    scheme, site = site_of(document)
    return urlunsplit(urlsplit(document)._replace(scheme=scheme, netloc=site))


def _first_commit(path: Path, clock: Clock, *, head_set: bool = False) -> None:
    """The store's first commit; ``head_set`` when HEAD already names the branch (a new store)."""
    meta = (json.dumps({"format": STORE_FORMAT}) + "\n").encode()
    attributes = b"# pages are stored byte for byte\n* -text\n"
    stream = _commit_stream(
        "Create spectrack snapshot store\n",
        git_date(clock()),
        git_date(clock()),
        None,
        [(META_FILE, meta), (".gitattributes", attributes)],
        [],
    )
    # Kept as a pack: fast-import would otherwise start `git unpack-objects` to store so few
    # objects loose, one file each, which takes longer than the import.
    git(path, "-c", "fastimport.unpackLimit=0", "fast-import", "--quiet", data=stream + b"done\n")
    if not head_set:
        git(path, "symbolic-ref", "HEAD", BRANCH)
    git(path, "reset", "--hard", "--quiet")


def _commit_stream(
    message: str,
    author_date: str,
    committer_date: str,
    parent: str | None,
    files: list[tuple[str, bytes]],
    deleted: list[str],
) -> bytes:
    body = message.encode()
    parts = [
        f"commit {BRANCH}\n".encode(),
        f"author {IDENTITY} {author_date}\n".encode(),
        f"committer {IDENTITY} {committer_date}\n".encode(),
        f"data {len(body)}\n".encode(),
        body,
        b"\n",
    ]
    if parent:
        parts.append(f"from {parent}\n".encode())
    for path in deleted:
        parts.append(f"D {path}\n".encode())
    for path, data in files:
        parts += [f"M 100644 inline {path}\ndata {len(data)}\n".encode(), data, b"\n"]
    parts.append(b"\n")
    return b"".join(parts)


class StoreWriter:
    """Records revisions of one run into the store through a ``git fast-import`` stream."""

    def __init__(
        self, store: Store, clock: Clock, lock_fd: int, *, checkpoints: bool = True
    ) -> None:
        self.store = store
        self.clock = clock
        self.lock_fd = lock_fd
        self.checkpoints = checkpoints
        """Whether commits are published every `CHECKPOINT_EVERY` (otherwise only at the end)."""
        self.base = store.head()
        self.commits = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._errors: IO[bytes] | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._broken = False
        """fast-import stopped reading (its message says why)."""
        self._worktree: WorkTree | None = None
        self._states: dict[str, dict[str, PageState]] = {}
        self._dirty_states: dict[str, PageState] = {}
        self._written: dict[str, bytes | None] = {}
        self._files: dict[str, bytes] = {}
        """Files other than pages written by this run, by store path."""
        self._taken: dict[str, set[str]] = {}
        """Case-folded store paths in use, by source."""

    # -- state ---------------------------------------------------------------------------------

    def states(self, source: str) -> dict[str, PageState]:
        """Page state by URL for a source, as of this run so far."""
        if source not in self._states:
            self._states[source] = self.store.states(source, self.base) if self.base else {}
        return self._states[source]

    def current(self, page: str) -> bytes | None:
        """The bytes of a page as stored now (this run's writes included)."""
        if page in self._written:
            return self._written[page]
        return self.store.read_bytes(page, self.base) if self.base else None

    def _assign(self, source: str, url: str) -> str:
        states = self.states(source)
        if url in states:
            return states[url].page
        if source not in self._taken:
            self._taken[source] = {(s.page + PAGE_SUFFIX).casefold() for s in states.values()}
        taken = self._taken[source]
        page = page_file(source, url, taken.__contains__)
        taken.add(page.casefold())
        return page[: -len(PAGE_SUFFIX)]

    def update(self, source: str, url: str, **changes: Any) -> None:
        """Change a page's state without a revision (committed once at the end of the run)."""
        state = self.states(source).get(url)
        if state is None:
            return
        new = replace(state, **changes)
        if new != state:
            self.states(source)[url] = new
            self._dirty_states[new.page] = new

    def move(self, source: str, url: str, to: str) -> PageState:
        """Give the page at ``url`` the URL ``to`` (its site moved to another scheme or host);
        its history goes on under it. The state is committed once at the end of the run."""
        states = self.states(source)
        state = replace(states.pop(url), url=to)
        states[to] = state
        self._dirty_states[state.page] = state
        return state

    def current_file(self, path: str) -> bytes | None:
        """A file that is not a page (a release record) as stored now, this run's writes included."""
        if path in self._files:
            return self._files[path]
        return self.store.read_file(path, self.base) if self.base else None

    def _refuse_foreign_file(self, page: str) -> None:
        """A new page's file is not there yet, unless someone put their own file there: a run
        never writes over it (the files a killed run left were deleted when this one began)."""
        target = self.store.path / (page + PAGE_SUFFIX)
        if os.path.lexists(target):
            raise StoreError(
                f"{target}: a file the store does not hold is where page {page} goes; "
                "move it out of the store's folder and run again"
            )

    def record_file(
        self, path: str, data: bytes, subject: str, trailers: dict[str, str | None]
    ) -> bool:
        """Commit a file that is not a page unless it holds these bytes already; True if committed."""
        if self.current_file(path) == data:
            return False
        now = git_date(self.clock())
        self._commit(subject, trailers, now, now, [(path, data)], [])
        self._files[path] = data
        return True

    # -- revisions -----------------------------------------------------------------------------

    def record(
        self,
        source: str,
        url: str,
        body: bytes,
        upstream: UpstreamTime,
        *,
        lastmod: str | None = None,
        etag: str | None = None,
        last_modified: str | None = None,
        unlisted: bool = False,
        upstream_commit: str | None = None,
    ) -> Recorded:
        """Store a fetched body; one commit unless the bytes equal the stored ones."""
        page = self._assign(source, url)
        ensure_inside(source, page + PAGE_SUFFIX)
        old_state = self.states(source).get(url)
        digest = sha256(body)
        if old_state is not None and old_state.sha256 == digest:
            self.update(
                source,
                url,
                lastmod=lastmod,
                etag=etag,
                last_modified=last_modified,
                unlisted=unlisted,
            )
            return Recorded(page, None, body)
        if old_state is None and page not in self._written:
            self._refuse_foreign_file(page)
        old = self.current(page) if old_state is not None else None
        now = self.clock()
        state = PageState(
            url=url,
            page=page,
            first_seen=old_state.first_seen if old_state else now,
            sha256=digest,
            lastmod=lastmod,
            lastmod_recorded=lastmod,
            etag=etag,
            last_modified=last_modified,
            unlisted=unlisted,
        )
        event = RevisionEvent.CHANGED if old_state else RevisionEvent.ADDED
        verb = "Update" if old_state else "Add"
        trailers = {
            "Source": source,
            "Page": page,
            "URL": url,
            "Event": event.value,
            "Time-Source": upstream.source.value,
            "Time-Precision": upstream.precision.value,
            "Lastmod": upstream.raw,
            "Upstream-Commit": upstream_commit,
        }
        self._commit(
            f"{verb} {page}",
            trailers,
            git_date(upstream.time),
            git_date(now),
            [(page + PAGE_SUFFIX, body), (state_path(page), state.to_json())],
            [],
        )
        self.states(source)[url] = state
        self._dirty_states.pop(page, None)
        self._written[page] = body
        return Recorded(page, event, old)

    def remove(
        self,
        source: str,
        url: str,
        reason: str,
        when: UpstreamTime | None = None,
        upstream_commit: str | None = None,
    ) -> str:
        """Remove a page (its history stays); one commit."""
        state = self.states(source).pop(url)
        # Its name is free again, as a later run would find it: a page created again at the URL
        # takes it back, in this run as in the next.
        self._taken.get(source, set()).discard((state.page + PAGE_SUFFIX).casefold())
        now = self.clock()
        upstream = when or UpstreamTime(now, TimeSource.FETCH, Precision.SECOND)
        trailers = {
            "Source": source,
            "Page": state.page,
            "URL": url,
            "Event": RevisionEvent.REMOVED.value,
            "Time-Source": upstream.source.value,
            "Time-Precision": upstream.precision.value,
            "Upstream-Commit": upstream_commit,
        }
        self._commit(
            f"Remove {state.page} ({reason})",
            trailers,
            git_date(upstream.time),
            git_date(now),
            [],
            [state.page + PAGE_SUFFIX, state_path(state.page)],
        )
        self._dirty_states.pop(state.page, None)
        self._written[state.page] = None
        return state.page

    def mark_checked(self, sources: Sequence[str], commit: str) -> list[str]:
        """Record that ``sources`` were checked up to store commit ``commit``; one commit.

        A marker never moves back: a source whose marker already is at or past ``commit`` (a
        concurrent check got there first) keeps it. Returns the sources whose marker moved.
        """
        moved = []
        for source in sources:
            current = self.store.checked(source)
            if current is None or not self.store.is_ancestor(commit, current):
                moved.append(source)
        if moved:
            now = git_date(self.clock())
            self._commit(
                f"Check {', '.join(moved)}",
                {"Event": "check"},
                now,
                now,
                [(check_path(s), (json.dumps({"commit": commit}) + "\n").encode()) for s in moved],
                [],
            )
        return moved

    def _commit(
        self,
        subject: str,
        trailers: dict[str, str | None],
        author_date: str,
        committer_date: str,
        files: list[tuple[str, bytes]],
        deleted: list[str],
    ) -> None:
        lines = [f"Spectrack-{k}: {_clean_trailer(v)}" for k, v in trailers.items() if v]
        message = f"{subject}\n\n" + "\n".join(lines) + "\n"
        parent = self.base if self.commits == 0 else None
        self._send(_commit_stream(message, author_date, committer_date, parent, files, deleted))
        assert self._worktree is not None
        for path, data in files:
            if checked_out(path):
                self._worktree.put(path, data)
        for path in deleted:
            if checked_out(path):
                self._worktree.put(path, None)
        self.commits += 1
        if self.checkpoints and self.commits % CHECKPOINT_EVERY == 0:
            self._send(b"checkpoint\n\n")

    def _send(self, data: bytes) -> None:
        if self._process is None:
            self._errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed in finish)
            self._process = subprocess.Popen(
                ["git", "-C", str(self.store.path), "fast-import", "--quiet"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=self._errors,
                env=git_env(),
                # The child holds the run lock too: a killed run's fast-import finishes exiting
                # before the next run starts.
                pass_fds=(self.lock_fd,),
            )
            assert self._process.stdin is not None
            self._process.stdin.write(b"feature done\n")
            # Writing to the pipe (which wakes fast-import) and the files happens in one thread
            # of its own, in order, so a fetch's event loop only hands bytes over.
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="spectrack-store")
            pending = self.store.path / ".git" / CHECKOUT_PENDING
            self._worktree = WorkTree(self.store.path, pending, self._thread)
        if self._broken:
            self._fail()
        assert self._thread is not None
        self._thread.submit(self._write, data)

    def _write(self, data: bytes) -> None:
        assert self._process is not None and self._process.stdin is not None
        if not self._broken:
            try:
                self._process.stdin.write(data)
            except BrokenPipeError:
                self._broken = True

    def _fail(self) -> None:
        assert self._process is not None and self._errors is not None
        self._process.wait()
        self._errors.seek(0)
        lines = self._errors.read().decode(errors="replace").strip().splitlines()
        raise StoreError(
            f"{self.store.path}: git fast-import failed: {lines[0] if lines else 'no message'}"
        )

    def abort(self) -> None:
        """End the stream without publishing the commits sent since the last checkpoint."""
        if self._process is None:
            return
        assert self._process.stdin is not None and self._errors is not None
        assert self._thread is not None and self._worktree is not None
        try:
            self._thread.shutdown(wait=True)
        finally:
            self._worktree.close()
        # Without "done", fast-import stops before it moves the branch.
        with contextlib.suppress(BrokenPipeError):
            self._process.stdin.close()
        self._process.wait()
        with contextlib.suppress(FileNotFoundError):
            (self.store.path / ".git" / f"fast_import_crash_{self._process.pid}").unlink()
        self._errors.close()
        self._process = None

    def finish(self) -> None:
        """Commit pending state updates and end the stream (publishing every commit)."""
        if self._dirty_states:
            states = sorted(self._dirty_states.values(), key=lambda s: s.page)
            now = git_date(self.clock())
            self._commit(
                f"Update page state ({len(states)} page{'s' if len(states) != 1 else ''})",
                {"Event": "state"},
                now,
                now,
                [(state_path(s.page), s.to_json()) for s in states],
                [],
            )
            self._dirty_states.clear()
        if self._process is None:
            return
        assert self._process.stdin is not None
        assert self._thread is not None and self._worktree is not None
        try:
            self._thread.shutdown(wait=True)
        finally:
            # No file is written once the run lock is released.
            self._worktree.close()
        if self._broken:
            self._fail()
        try:
            self._process.stdin.write(b"done\n")
            self._process.stdin.close()
        except BrokenPipeError:
            self._fail()
        if self._process.wait() != 0:
            self._fail()
        assert self._errors is not None
        self._errors.close()
        self._process = None
