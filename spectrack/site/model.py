"""What the change site shows: one `ChangeEntry` per recorded upstream edit, gathered in `SiteData`.

The site is built from these alone, never from the store directly, so the same data always gives
the same bytes. Every text in here came from a fetched page or from the store and is untrusted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple

from spectrack.dates import UpstreamTime
from spectrack.releases import ReleaseMatch
from spectrack.reportcache import StoredReport


@dataclass(frozen=True, slots=True)
class ChangeEntry:
    """One recorded upstream edit of one page."""

    change_id: str
    """Permanent id, the change page's file name: letters, digits, ``.``, ``_`` and ``-`` (a commit id)."""
    source: str
    """Name of the source the page belongs to."""
    page_path: str
    """The page's path in the snapshot store, e.g. ``docs/tools.md``."""
    title: str | None
    """The page's title at this edit, when it has one."""
    url: str
    """The live page; shown as a link only when it is an http(s) URL."""
    upstream: UpstreamTime
    recorded_at: datetime
    """When spectrack recorded the edit (timezone-aware)."""
    first_seen: datetime
    """When spectrack first recorded the page (timezone-aware)."""
    page_edits: int
    """How many edits of the page are recorded, all time."""
    report: StoredReport
    """The diff of this edit against the previous recorded version (its changes and hunks are
    read only for the files that show them)."""
    previous_id: str | None = None
    """The previous recorded change of the same page."""
    next_id: str | None = None
    """The next recorded change of the same page."""
    release: ReleaseMatch | None = None
    """The product release published nearest to the upstream edit, when one is near enough."""

    @property
    def page_key(self) -> tuple[str, str]:
        """What identifies the page across its changes."""
        return (self.source, self.page_path)

    @property
    def verdict(self) -> str:
        return self.report.verdict


@dataclass(frozen=True, slots=True)
class Source:
    """A tracked site."""

    name: str
    url: str | None = None
    """The site's home or sitemap; shown as a link only when it is an http(s) URL."""


@dataclass(frozen=True, slots=True)
class SiteData:
    """Everything one build of the site shows."""

    changes: tuple[ChangeEntry, ...]
    """In the store's order, oldest recording first: it orders changes recorded at the same time
    (`spectrack import-git` records a whole history at once)."""
    sources: tuple[Source, ...]
    generated_at: datetime
    """Taken from the data (the latest recording), never from the clock, so builds repeat exactly."""
    title: str = "Spec changes"


class PageLinks(NamedTuple):
    """A change's place among the recorded changes of its page."""

    first_seen: datetime
    page_edits: int
    previous_id: str | None
    next_id: str | None


def page_links(changes: Iterable[tuple[str, tuple[str, str], datetime]]) -> dict[str, PageLinks]:
    """Each change's place in its page's history, by change id, from ``(change id, page key,
    recording time)`` in the store's order. A page's changes are ordered by recording time, and
    those recorded at the same time as given."""
    by_page: defaultdict[tuple[str, str], list[tuple[datetime, int, str]]] = defaultdict(list)
    for order, (change_id, page_key, recorded_at) in enumerate(changes):
        by_page[page_key].append((recorded_at, order, change_id))
    links = {}
    for history in by_page.values():
        history.sort()
        first_seen = history[0][0]
        ids = [change_id for _, _, change_id in history]
        last = len(ids) - 1
        for index, change_id in enumerate(ids):
            links[change_id] = PageLinks(
                first_seen,
                len(ids),
                ids[index - 1] if index else None,
                ids[index + 1] if index < last else None,
            )
    return links


def link_pages(changes: Iterable[ChangeEntry]) -> tuple[ChangeEntry, ...]:
    """Fill in each page's neighbours, edit count and first-seen time from the changes given
    (see `page_links`); the result keeps the input order."""
    entries = list(changes)
    links = page_links((entry.change_id, entry.page_key, entry.recorded_at) for entry in entries)
    return tuple(replace(entry, **links[entry.change_id]._asdict()) for entry in entries)
