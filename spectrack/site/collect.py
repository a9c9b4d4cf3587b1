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
from spectrack.site.model import ChangeEntry, PageLinks, SiteData, Source, page_links
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
        links = page_links((r.commit, (r.source, r.path), r.recorded_time) for r in revisions)
        progress.start("diffing revisions", len(revisions))
        changes = []
        for revision in revisions:
            facts = revision_facts(store, revision, cache)
            changes.append(_entry(revision, facts, links[revision.commit], releases))
            progress.advance()
        cache.save()
    sources = tuple(Source(name) for name in sorted({r.source for r in revisions}))
    generated_at = max(r.recorded_time for r in revisions)
    return SiteData(tuple(changes), sources, generated_at, title)


def _entry(
    revision: Revision, facts: RevisionFacts, links: PageLinks, releases: ReleaseBook
) -> ChangeEntry:
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
        first_seen=links.first_seen,
        page_edits=links.page_edits,
        report=facts.report,
        previous_id=links.previous_id,
        next_id=links.next_id,
        release=releases.nearest(revision.source, revision.upstream_time),
    )
