"""What the change site shows: one `ChangeEntry` per recorded upstream edit, gathered in `SiteData`.

The site is built from these alone, never from the store directly, so the same data always gives
the same bytes. Every text in here came from a fetched page or from the store and is untrusted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from spectrack.dates import UpstreamTime
from spectrack.model import PageReport
from spectrack.releases import ReleaseMatch


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
    report: PageReport
    """The diff of this edit against the previous recorded version."""
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
    sources: tuple[Source, ...]
    generated_at: datetime
    """Taken from the data (the latest recording), never from the clock, so builds repeat exactly."""
    title: str = "Spec changes"


def link_pages(changes: Iterable[ChangeEntry]) -> tuple[ChangeEntry, ...]:
    """Fill in each page's neighbours, edit count and first-seen time from the changes given.

    A page's changes are ordered by recording time, then by id; the result keeps the input order.
    """
    by_page: defaultdict[tuple[str, str], list[ChangeEntry]] = defaultdict(list)
    entries = list(changes)
    for entry in entries:
        by_page[entry.page_key].append(entry)
    linked: dict[str, ChangeEntry] = {}
    for history in by_page.values():
        history.sort(key=lambda entry: (entry.recorded_at, entry.change_id))
        first_seen = history[0].recorded_at
        for index, entry in enumerate(history):
            linked[entry.change_id] = replace(
                entry,
                first_seen=first_seen,
                page_edits=len(history),
                previous_id=history[index - 1].change_id if index else None,
                next_id=history[index + 1].change_id if index + 1 < len(history) else None,
            )
    return tuple(linked[entry.change_id] for entry in entries)
