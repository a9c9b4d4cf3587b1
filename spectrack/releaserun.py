"""A release run (``spectrack releases``, and the end of ``spectrack fetch``): feeds → the store.

For each source, every configured release feed is fetched through the run's `Fetcher` (the same
politeness, limits, retries and conditional requests as pages), read with
`spectrack.releases.parse_feed`, and merged into the releases recorded before: new versions are
added, recorded ones are never changed or dropped. The source's record is committed only when its
bytes change.

A feed that cannot be read (an HTTP error, malformed XML or JSON, no usable publish times) is a
warning naming the feed; its recorded releases stay as they were and the run goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

import httpx

from spectrack.config import Config, SourceConfig
from spectrack.dates import Clock, utc_now
from spectrack.errors import ConfigError, FetchError, ReleaseFeedError, StoreError
from spectrack.fetch import Fetcher, Sleep, looks_like_html, make_client
from spectrack.progress import Progress, SilentProgress
from spectrack.releases import (
    FEED_KINDS,
    FeedSpec,
    ParsedFeed,
    RecordedFeed,
    feed_identity,
    feeds_from_json,
    feeds_to_json,
    load_feeds,
    merge_releases,
    parse_feed,
    release_path,
)
from spectrack.store import Store, StoreWriter


@dataclass(frozen=True, slots=True)
class FeedResult:
    """What a run did with one feed."""

    source: str
    feed: str
    """The feed's label, e.g. ``github OWNER/REPO``."""
    recorded: int
    """Releases recorded for the feed after the run."""
    added: int = 0
    """Releases this run added."""
    error: str | None = None
    """Why the feed could not be read, naming it (its recorded releases were kept)."""
    warnings: tuple[str, ...] = ()
    """Problems that did not stop the feed being read (entries left out)."""
    retired: bool = False
    """The feed left the configuration and this run marked it so: its releases stay recorded
    but are no longer shown."""


@dataclass(frozen=True, slots=True)
class ReleasesSummary:
    feeds: tuple[FeedResult, ...]

    @property
    def failures(self) -> list[FeedResult]:
        return [feed for feed in self.feeds if feed.error is not None]

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def messages(self) -> list[str]:
        """Every warning and failure, one line each, each naming its feed."""
        lines: list[str] = []
        for feed in self.feeds:
            lines += feed.warnings
            if feed.error is not None:
                lines.append(feed.error)
        return lines


@dataclass(frozen=True, slots=True)
class _Fetched:
    """A feed's answer: releases (None for 304 Not Modified) and the validators to store."""

    parsed: ParsedFeed | None
    etag: str | None
    last_modified: str | None


async def _fetch_feed(
    fetcher: Fetcher, spec: FeedSpec, recorded: RecordedFeed | None, conditional: bool
) -> _Fetched:
    use = conditional and recorded is not None and recorded.url == spec.url
    response = await fetcher.get(
        spec.url,
        accept=FEED_KINDS[spec.kind].accept,
        etag=recorded.etag if use and recorded else None,
        last_modified=recorded.last_modified if use and recorded else None,
    )
    if response.status == 304 and use and recorded is not None:
        return _Fetched(None, recorded.etag, recorded.last_modified)
    if response.status != 200:
        raise spec.error(f"HTTP {response.status}")
    if looks_like_html(response.body, response.content_type):
        # A releases web page given as the feed: said so, rather than as an XML parser's
        # refusal of <!DOCTYPE html> or a JSON error.
        raise spec.error("served an HTML page, not the feed; `url` must name the feed's document")
    return _Fetched(parse_feed(response.body, spec), response.etag, response.last_modified)


def _skipped_warning(spec: FeedSpec, parsed: ParsedFeed) -> tuple[str, ...]:
    if not parsed.skipped:
        return ()
    return (
        f"release feed {spec.label} ({spec.url}): {parsed.skipped} "
        f"entr{'y' if parsed.skipped == 1 else 'ies'} without a version or a readable publish "
        "time left out",
    )


def _kept(count: int) -> str:
    if count == 0:
        return "no release was recorded before"
    if count == 1:
        return "the 1 release recorded before is kept"
    return f"the {count} releases recorded before are kept"


async def _refresh_feed(
    fetcher: Fetcher, source: str, spec: FeedSpec, old: RecordedFeed | None, conditional: bool
) -> tuple[RecordedFeed, FeedResult]:
    base = old or RecordedFeed(spec.key, spec.label, spec.url, spec.window)
    kept = replace(base, label=spec.label, url=spec.url, window=spec.window, configured=True)
    count = len(kept.releases)
    try:
        fetched = await _fetch_feed(fetcher, spec, old, conditional)
    except FetchError as error:
        if not isinstance(error, ReleaseFeedError):
            error = spec.error(str(error).removeprefix(f"{spec.url}: "))
        return kept, FeedResult(source, spec.label, count, error=f"{error}; {_kept(count)}")
    if fetched.parsed is None:
        return kept, FeedResult(source, spec.label, count)
    releases, added = merge_releases(kept.releases, fetched.parsed.releases)
    feed = replace(kept, releases=releases, etag=fetched.etag, last_modified=fetched.last_modified)
    warnings = _skipped_warning(spec, fetched.parsed)
    return feed, FeedResult(source, spec.label, len(releases), added, warnings=warnings)


async def refresh_source(
    source: SourceConfig,
    writer: StoreWriter,
    fetcher: Fetcher,
    *,
    conditional: bool = True,
    progress: Progress | None = None,
) -> list[FeedResult]:
    """Fetch a source's feeds and commit its merged release record (when its bytes changed).

    Feeds recorded before but no longer configured stay in the record, marked as not configured.
    A record that cannot be read is left as it is: every feed of the source fails, with the reason.
    """
    path = release_path(source.name)
    data = writer.current_file(path)
    try:
        recorded = feeds_from_json(data, path) if data is not None else ()
    except StoreError as error:
        reason = f"{error}; left as it is, nothing fetched"
        return [FeedResult(source.name, spec.label, 0, error=reason) for spec in source.releases]
    # A feed configured in another letter case (or, on PyPI, spelling) than it was recorded in
    # carries on with its record, which keeps its key as first written.
    by_identity: dict[str, RecordedFeed] = {}
    for feed in recorded:
        by_identity.setdefault(feed_identity(feed.key), feed)
    report = progress or SilentProgress()

    async def one(spec: FeedSpec) -> tuple[RecordedFeed, FeedResult]:
        try:
            return await _refresh_feed(
                fetcher, source.name, spec, by_identity.get(spec.identity), conditional
            )
        finally:
            report.advance()

    outcomes = await asyncio.gather(*(one(spec) for spec in source.releases))
    feeds = [feed for feed, _ in outcomes]
    continued = {feed.key for feed in feeds}
    feeds += [replace(feed, configured=False) for feed in recorded if feed.key not in continued]
    retired = [
        FeedResult(source.name, feed.label, len(feed.releases), retired=True)
        for feed in recorded
        if feed.key not in continued and feed.configured
    ]
    if feeds:
        writer.record_file(
            path,
            feeds_to_json(feeds),
            f"Record releases of {source.name}",
            {"Source": source.name, "Event": "releases"},
        )
    return [result for _, result in outcomes] + retired


async def refresh_releases(
    config: Config,
    writer: StoreWriter,
    fetcher: Fetcher,
    *,
    names: Sequence[str] = (),
    conditional: bool = True,
    progress: Progress | None = None,
) -> ReleasesSummary:
    """Refresh the feeds of the named sources (all when empty) within a run's store writer."""
    sources = config.selected(names)
    report = progress or SilentProgress()
    total = sum(len(source.releases) for source in sources)
    if total:
        report.start("releases", total)
    results: list[FeedResult] = []
    # Sources without feeds too: feeds recorded for them are to be marked no longer configured.
    for source in sources:
        results += await refresh_source(
            source, writer, fetcher, conditional=conditional, progress=report
        )
    return ReleasesSummary(tuple(results))


def _recorded_as_configured(config: Config, sources: Sequence[SourceConfig]) -> bool:
    """Whether the store (if any) records feeds of ``sources`` that are still marked configured."""
    try:
        with Store.open(config.store.path) as store:
            return any(
                feed.configured for source in sources for feed in load_feeds(store, source.name)
            )
    except StoreError:
        return False


def run_releases(
    config: Config,
    *,
    names: Sequence[str] = (),
    progress: Progress | None = None,
    clock: Clock = utc_now,
    sleep: Sleep = asyncio.sleep,
    client: httpx.AsyncClient | None = None,
) -> ReleasesSummary:
    """`refresh_releases` with the configured store (created when missing) and an httpx client."""
    sources = config.selected(names)
    if not any(source.releases for source in sources) and not _recorded_as_configured(
        config, sources
    ):
        where = f"{config.path}: " if config.path else ""
        which = ", ".join(s.name for s in sources) or "any source"
        raise ConfigError(f"{where}no [[source.releases]] configured for {which}; nothing to fetch")

    async def main() -> ReleasesSummary:
        async with contextlib.AsyncExitStack() as stack:
            http = client
            if http is None:
                http = await stack.enter_async_context(make_client(config.fetch))
            fetcher = Fetcher(http, config.fetch, sleep=sleep, clock=clock)
            with (
                Store.create(config.store.path, clock) as store,
                store.writer(clock, config.store.lock_wait) as writer,
            ):
                return await refresh_releases(
                    config, writer, fetcher, names=names, progress=progress
                )

    return asyncio.run(main())


def releases_summary_lines(summary: ReleasesSummary) -> list[str]:
    """One line per feed: how many releases are recorded and how many this run added, or that
    the feed is no longer configured."""
    lines = []
    for feed in summary.feeds:
        if feed.retired:
            state = "no longer configured (kept, not shown)"
        elif feed.error:
            state = "not read"
        else:
            state = f"{feed.added} new"
        lines.append(f"{feed.source}: {feed.feed}: {feed.recorded} recorded, {state}")
    return lines
