"""The history of the store as changes (``spectrack log``): each revision with its verdict.

A revision's verdict comes from the diff engine on the page before and after it: ``normative``,
``editorial``, ``formatting`` (or ``unchanged`` when only bytes the parser ignores moved), and
``added`` / ``removed`` for a page that appeared or left. Each entry carries the nearest recorded
release of its source (`spectrack.releases`), when one falls within its feed's window.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime

from spectrack.dates import iso, period_text
from spectrack.diff import diff_texts
from spectrack.markdown import scan
from spectrack.model import PageReport, Report
from spectrack.paths import PAGE_SUFFIX
from spectrack.progress import Progress, SilentProgress
from spectrack.releases import ReleaseBook, ReleaseMatch
from spectrack.reportcache import ReportCache, RevisionFacts, StoredReport
from spectrack.store import BRANCH, Revision, RevisionEvent, Store

EVENT_VERDICTS = {RevisionEvent.ADDED: "added", RevisionEvent.REMOVED: "removed"}
LOG_CLASSES = ("normative", "editorial", "formatting", "unchanged", "added", "removed")


@dataclass(frozen=True, slots=True)
class LogEntry:
    revision: Revision
    verdict: str
    """One of `LOG_CLASSES`."""
    release: ReleaseMatch | None = None
    """The release nearest the upstream edit, within its feed's window."""


def revision_report(store: Store, revision: Revision) -> PageReport:
    """The diff a revision made: the page at its parent commit against the page at it."""
    return diff_texts(*_versions(store, revision), revision.path)


def _versions(store: Store, revision: Revision) -> tuple[str | None, str | None]:
    """The page's text before and after the revision (None where it did not exist)."""
    return (
        store.read(revision.page, revision.commit + "^"),
        store.read(revision.page, revision.commit),
    )


def net_report(
    store: Store,
    revisions: Iterable[Revision],
    head: str = BRANCH,
    progress: Progress | None = None,
) -> Report:
    """What the revisions changed, page by page: each page before the first of them against the
    page at store commit ``head``. A page that ends as it began is left out."""
    first: dict[str, Revision] = {}
    for revision in revisions:
        first.setdefault(revision.page, revision)
    report = progress or SilentProgress()
    report.start("compare", len(first))
    pages = []
    for page, revision in sorted(first.items()):
        old = store.read(page, revision.commit + "^")
        new = store.read(page, head)
        if old != new:
            pages.append(diff_texts(old, new, page + PAGE_SUFFIX))
        report.advance()
    return Report(tuple(pages))


def revision_facts(store: Store, revision: Revision, cache: ReportCache) -> RevisionFacts:
    """A revision's report and page title: from the cache, else worked out and added to it.

    In a shallow clone the first commit fetched lacks its parent, so its page looks added: that
    report is not kept, or it would outlive the fetch of the rest of the history.
    """
    facts = cache.get(revision.commit)
    if facts is None:
        old, new = _versions(store, revision)
        # The title is the page's after the revision, or before it for a removal.
        text = new or old
        title = scan(text, revision.path).title if text is not None else None
        facts = RevisionFacts(StoredReport.of(diff_texts(old, new, revision.path)), title)
        if revision.commit not in store.shallow_boundary():
            cache.put(revision.commit, facts)
    return facts


def log_entries(
    store: Store,
    *,
    page: str | None = None,
    sources: Collection[str] = (),
    since: datetime | None = None,
    classes: Collection[str] = (),
) -> list[LogEntry]:
    """Revisions (of one page, or all) recorded since ``since``, oldest first, with verdicts."""
    store.require_sources(sources)
    revisions = store.history(page) if page else store.revisions()
    book = ReleaseBook.load(store)
    cache = ReportCache.load(store.path)
    entries = []
    for revision in revisions:
        if sources and revision.source not in sources:
            continue
        if since is not None and revision.recorded_time < since:
            continue
        verdict = EVENT_VERDICTS.get(revision.event) or (
            revision_facts(store, revision, cache).report.verdict
        )
        if not classes or verdict in classes:
            release = book.nearest(revision.source, revision.upstream_time)
            entries.append(LogEntry(revision, verdict, release))
    cache.save()
    return entries


def upstream_label(revision: Revision) -> str:
    """The upstream time as precise as it is known: a year, month or date, or a UTC time."""
    return period_text(revision.upstream_time, revision.precision) or iso(revision.upstream_time)


def log_line(entry: LogEntry) -> str:
    revision = entry.revision
    line = (
        f"{upstream_label(revision):<20}  {revision.time_source.value:<7}  "
        f"recorded {iso(revision.recorded_time)}  {entry.verdict:<10}  "
        f"{revision.page}  {revision.commit[:10]}"
    )
    if entry.release is not None:
        line += f"  {entry.release.note}"
    return line
