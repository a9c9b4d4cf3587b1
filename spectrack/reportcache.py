"""What each recorded revision changed, kept between runs so that only new revisions are diffed.

A revision's report depends only on the two versions of the page it compares (never rewritten:
see the store contract) and on spectrack's code. The cache lives inside the store's ``.git``
folder, outside its history: a clone starts without it, and losing it costs only time. A cache
written by another version of spectrack, or one that cannot be read, is set aside and rebuilt.

It is a pickle, read back only from the store's own ``.git`` folder: whoever can write there
can already make git run their code through hooks.
"""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass
from pathlib import Path

from spectrack.codedigest import code_digest
from spectrack.collector import collector_paused
from spectrack.model import PageReport

SCHEMA = "spectrack.reports/1"
CACHE_FILE = "spectrack-reports.pickle"
"""File name inside the store's ``.git`` folder."""


@dataclass(frozen=True, slots=True)
class RevisionFacts:
    """What the site shows of a revision that takes reading and diffing the store to know."""

    report: PageReport
    title: str | None
    """The page's title after the revision (before it, for a removal), when it has one."""


MAX_CHUNKS = 64
"""Appended chunks after which a save writes the whole cache afresh as one."""


class ReportCache:
    """Revision facts by store commit, loaded from and saved to one file.

    The file is a header (schema and code digest) followed by pickled chunks, each a dict of
    facts: a save appends one chunk with what this run added, so a rebuild after one fetch writes
    a few kilobytes, not the whole history. An unreadable tail (a save cut short) keeps the chunks
    before it and makes the next save write the file afresh.
    """

    def __init__(
        self, path: Path, facts: dict[str, RevisionFacts], chunks: int = 0, intact: bool = False
    ) -> None:
        self.path = path
        self._facts = facts
        self._chunks = chunks
        """How many chunks the file holds; appending is only for an intact file."""
        self._intact = intact
        self._added: dict[str, RevisionFacts] = {}

    @classmethod
    def load(cls, store_path: Path) -> ReportCache:
        """The store's cache; an empty one when there is none or it cannot be used."""
        path = store_path / ".git" / CACHE_FILE
        facts: dict[str, RevisionFacts] = {}
        chunks = 0
        try:
            with collector_paused(), path.open("rb") as file:
                if pickle.load(file) != _header():
                    return cls(path, {})
                while file.peek(1):
                    facts.update(pickle.load(file))
                    chunks += 1
        except Exception:
            # Missing, cut short, or pickled by a version whose classes moved: what was read
            # stays, the rest is worked out again and the next save writes the file afresh.
            return cls(path, facts, chunks)
        return cls(path, facts, chunks, intact=True)

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
                chunk = pickle.dumps(self._added, protocol=pickle.HIGHEST_PROTOCOL)
                # One unbuffered write in append mode: two runs saving at once (a site build
                # and a log) add whole chunks one after the other rather than interleaved.
                with self.path.open("ab", buffering=0) as file:
                    file.write(chunk)
                self._chunks += 1
            else:
                self._rewrite()
        except OSError:
            return
        self._added = {}

    def _rewrite(self) -> None:
        """The whole cache as one chunk, written aside and moved into place."""
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.partial")
        try:
            with partial.open("wb") as file:
                pickle.dump(_header(), file, protocol=pickle.HIGHEST_PROTOCOL)
                pickle.dump(self._facts, file, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(partial, self.path)
        finally:
            partial.unlink(missing_ok=True)
        self._chunks = 1
        self._intact = True


def _header() -> dict[str, str]:
    return {"schema": SCHEMA, "code": code_digest()}
