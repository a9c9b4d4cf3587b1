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


class ReportCache:
    """Revision facts by store commit, loaded from and saved to one file."""

    def __init__(self, path: Path, facts: dict[str, RevisionFacts]) -> None:
        self.path = path
        self._facts = facts
        self._added = False

    @classmethod
    def load(cls, store_path: Path) -> ReportCache:
        """The store's cache; an empty one when there is none or it cannot be used."""
        path = store_path / ".git" / CACHE_FILE
        try:
            with collector_paused(), path.open("rb") as file:
                content = pickle.load(file)
        except Exception:
            # Missing, truncated, or pickled by a version whose classes moved: rebuilt either way.
            return cls(path, {})
        if not (
            isinstance(content, dict)
            and content.get("schema") == SCHEMA
            and content.get("code") == code_digest()
            and isinstance(content.get("facts"), dict)
        ):
            return cls(path, {})
        return cls(path, content["facts"])

    def get(self, commit: str) -> RevisionFacts | None:
        return self._facts.get(commit)

    def put(self, commit: str, facts: RevisionFacts) -> None:
        self._facts[commit] = facts
        self._added = True

    def save(self) -> None:
        """Write the cache when anything was added since loading.

        A failed write keeps the old file (the new one is written aside, then moved into place)
        and is not an error: the next run diffs those revisions again.
        """
        if not self._added:
            return
        content = {"schema": SCHEMA, "code": code_digest(), "facts": self._facts}
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.partial")
        try:
            with partial.open("wb") as file:
                pickle.dump(content, file, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(partial, self.path)
        except OSError:
            partial.unlink(missing_ok=True)
