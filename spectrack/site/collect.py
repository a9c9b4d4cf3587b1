"""The snapshot store → `SiteData`: one change per recorded revision, diffed by the engine.

Reports and titles come from the store's report cache (`spectrack.reportcache`) when it has them,
so a rebuild after a fetch diffs only the revisions the fetch added.
"""

from __future__ import annotations

from spectrack.collector import collector_paused
from spectrack.dates import UpstreamTime
from spectrack.errors import InputError
from spectrack.history import revision_facts
from spectrack.progress import Progress, SilentProgress
from spectrack.releases import ReleaseBook
from spectrack.reportcache import ReportCache, RevisionFacts
from spectrack.site.model import ChangeEntry, SiteData, Source, link_pages
from spectrack.store import Revision, Store

DEFAULT_TITLE = "Spec changes"


def collect(store: Store, title: str = DEFAULT_TITLE, progress: Progress | None = None) -> SiteData:
    """Every revision in the store as a change: its report, title, page history, nearest release."""
    progress = progress or SilentProgress()
    revisions = store.revisions()
    if not revisions:
        raise InputError(f"{store.path}: nothing recorded yet; run `spectrack fetch` first")
    releases = ReleaseBook.load(store)
    with collector_paused():
        cache = ReportCache.load(store.path)
        progress.start("diffing revisions", len(revisions))
        entries = []
        for revision in revisions:
            facts = revision_facts(store, revision, cache)
            entries.append(_entry(revision, facts, releases))
            progress.advance()
        cache.save()
        changes = link_pages(entries)
    sources = tuple(Source(name) for name in sorted({r.source for r in revisions}))
    generated_at = max(r.recorded_time for r in revisions)
    return SiteData(changes, sources, generated_at, title)


def _entry(revision: Revision, facts: RevisionFacts, releases: ReleaseBook) -> ChangeEntry:
    return ChangeEntry(
        change_id=revision.commit,
        source=revision.source,
        page_path=revision.path,
        title=facts.title,
        url=revision.url,
        upstream=UpstreamTime(
            revision.upstream_time, revision.time_source, revision.precision, revision.lastmod_raw
        ),
        recorded_at=revision.recorded_time,
        first_seen=revision.recorded_time,
        page_edits=1,
        report=facts.report,
        release=releases.nearest(revision.source, revision.upstream_time),
    )
