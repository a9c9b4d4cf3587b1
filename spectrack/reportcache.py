"""What each recorded revision changed, kept between runs so that only new revisions are diffed.

A revision's report depends only on the two versions of the page it compares (never rewritten:
see the store contract) and on spectrack's code. The cache lives inside the store's ``.git``
folder (`spectrack.chunkfile`), outside its history: a clone starts without it, and losing it
costs only time. A cache written by another version of spectrack, or one that cannot be read, is
set aside and rebuilt.

Each report stays pickled on its own (`StoredReport`) until something reads its changes or
hunks: the lists of a site, a feed's key or ``spectrack log`` need only its summary, so loading
the cache of thousands of revisions makes a few objects per revision, not hundreds. A report
whose pickle cannot be read then is worked out again from the store.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spectrack.chunkfile import MAX_CHUNKS, ChunkFile, reduce_by_constructor
from spectrack.collector import collector_paused
from spectrack.diff import diff_texts
from spectrack.model import Change, Hunk, PageReport, PageStatus
from spectrack.paths import PAGE_SUFFIX
from spectrack.store import Store

SCHEMA = "spectrack.reports/2"
CACHE_FILE = "spectrack-reports.pickle"
"""File name inside the store's ``.git`` folder."""


class StoredReport:
    """A page's report: its summary at hand, its changes and hunks unpickled on first use."""

    __slots__ = (
        "_full",
        "_origin",
        "_pickled",
        "lines_added",
        "lines_removed",
        "path",
        "status",
        "verdict",
    )

    def __init__(
        self,
        summary: tuple[str, PageStatus, str, int, int],
        pickled: bytes | None = None,
        full: PageReport | None = None,
    ) -> None:
        self.path, self.status, self.verdict, self.lines_added, self.lines_removed = summary
        self._pickled = pickled
        self._full = full
        self._origin: tuple[Path, str] | None = None
        """The store and commit of the revision, where the report can be worked out again."""

    @classmethod
    def of(cls, report: PageReport) -> StoredReport:
        summary = (
            report.path,
            report.status,
            report.verdict,
            report.lines_added,
            report.lines_removed,
        )
        return cls(summary, full=report)

    @property
    def full(self) -> PageReport:
        if self._full is None:
            assert self._pickled is not None, "a stored report is made from one or the other"
            try:
                with collector_paused():
                    full = pickle.loads(self._pickled)
                if not isinstance(full, PageReport):
                    raise TypeError(f"a stored report holds {type(full).__name__}")
            except Exception:
                # The summary was loaded and shown already; failing now, mid-build, would leave
                # a half-written site and a cache that fails the same way next time.
                if self._origin is None:
                    raise
                full = self._worked_out(*self._origin)
                self._pickled = None
            self._full = full
        return self._full

    def _worked_out(self, store_path: Path, commit: str) -> PageReport:
        """The report made afresh from the page before and after the store commit."""
        page = self.path.removesuffix(PAGE_SUFFIX)
        with Store.open(store_path) as store:
            old, new = store.read(page, commit + "^"), store.read(page, commit)
        return diff_texts(old, new, self.path)

    @property
    def changes(self) -> tuple[Change, ...]:
        return self.full.changes

    @property
    def hunks(self) -> tuple[Hunk, ...]:
        return self.full.hunks

    def __reduce__(self) -> tuple[Any, ...]:
        pickled = self._pickled
        if pickled is None:
            pickled = pickle.dumps(self._full, protocol=pickle.HIGHEST_PROTOCOL)
        summary = (self.path, self.status, self.verdict, self.lines_added, self.lines_removed)
        return (StoredReport, (summary, pickled))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StoredReport):
            return NotImplemented
        return self.full == other.full

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StoredReport({self.path!r}, verdict={self.verdict!r})"


@dataclass(frozen=True, slots=True)
class RevisionFacts:
    """What the site shows of a revision that takes reading and diffing the store to know."""

    report: StoredReport
    title: str | None
    """The page's title after the revision (before it, for a removal), when it has one."""

    __reduce__ = reduce_by_constructor


def _facts_by_commit(chunk: dict[Any, Any], store_path: Path) -> bool:
    """Whether a chunk maps commit ids to revision facts; each report it holds learns where it
    can be worked out again."""
    for commit, value in chunk.items():
        if not (isinstance(commit, str) and isinstance(value, RevisionFacts)):
            return False
        value.report._origin = (store_path, commit)
    return True


class ReportCache:
    """Revision facts by store commit, loaded from and saved to one `ChunkFile`.

    Each chunk is a dict of facts: a save appends one chunk with what this run added, so a
    rebuild after one fetch writes a few kilobytes, not the whole history. After `MAX_CHUNKS`
    appends, or when the file could not be read whole, a save writes it afresh.
    """

    def __init__(
        self, path: Path, facts: dict[str, RevisionFacts], chunks: int = 0, intact: bool = False
    ) -> None:
        self.file = ChunkFile(path, SCHEMA)
        self._facts = facts
        self._chunks = chunks
        self._intact = intact
        self._added: dict[str, RevisionFacts] = {}

    @classmethod
    def load(cls, store_path: Path) -> ReportCache:
        """The store's cache; an empty one when there is none or it cannot be used."""
        path = store_path / ".git" / CACHE_FILE
        found = ChunkFile(path, SCHEMA).read()
        facts: dict[str, RevisionFacts] = {}
        intact = found.intact
        chunks = 0
        for chunk in found.chunks:
            if not isinstance(chunk, dict) or not _facts_by_commit(chunk, store_path):
                # Not what this version writes: stop trusting the file here, and let the next
                # save write it afresh.
                intact = False
                break
            facts.update(chunk)
            chunks += 1
        return cls(path, facts, chunks, intact)

    def get(self, commit: str) -> RevisionFacts | None:
        return self._facts.get(commit)

    def put(self, commit: str, facts: RevisionFacts) -> None:
        self._facts[commit] = facts
        self._added[commit] = facts

    def save(self) -> None:
        """Add to the file what was put since loading (or write it afresh); not an error when
        that fails: the next run works those revisions out again."""
        if not self._added:
            return
        try:
            if self._intact and self._chunks < MAX_CHUNKS:
                self.file.append(self._added)
                self._chunks += 1
            else:
                self.file.rewrite(self._facts)
                self._chunks = 1
                self._intact = True
        except OSError:
            return
        self._added = {}
