"""A fetch run (``spectrack fetch``): sitemap → what to fetch → pages → snapshot store → summary.

For each source, in order:

1. Read the sitemap (index files, gzip, every ``lastmod`` form); keep the URLs the source's
   include/exclude globs want. A sitemap that cannot be read, or whose URLs were all left out (on
   another host, malformed), fails the source; nothing is removed.
2. Fetch the pages already stored that have no ``lastmod``, or whose ``lastmod`` moved (every
   page with ``everything``), conditionally when an ETag or Last-Modified is known
   (unconditionally with ``everything``).
3. Store each body (one commit per changed page, see `spectrack.store`) and classify the change
   with the diff engine for the summary. A listed page redirected to another listed page is
   that page under another address, and is recorded once, as that page.
4. When every sitemap file was read, check the pages the sitemap no longer lists: 404/410, or a
   redirect to a page the sitemap lists (the page moved there), makes them removal candidates,
   an answer keeps them, marked unlisted. When the candidates are more than ``max_removal`` of
   the pages the source tracks, nothing is removed and the source fails.
5. Fetch and store the pages new to the store, after the removals, so that a page renamed in
   letter case only keeps a plain file name.

Then the sources' release feeds are refreshed (`spectrack.releaserun`); a bad feed is only a
warning and never fails the run.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from urllib.parse import urlsplit

import httpx

from spectrack.config import Config, SourceConfig
from spectrack.dates import Clock, Precision, TimeSource, UpstreamTime, utc_now
from spectrack.diff import diff_texts
from spectrack.errors import ConfigError, FetchError, InputError
from spectrack.fetch import (
    Fetcher,
    Response,
    Sitemap,
    Sleep,
    host_of,
    looks_like_html,
    make_client,
    markdown_text,
    read_sitemap,
)
from spectrack.model import UNCHANGED, ChangeClass
from spectrack.pages import decode_page
from spectrack.progress import Progress, SilentProgress
from spectrack.releaserun import refresh_releases
from spectrack.sitemap import SitemapEntry
from spectrack.store import PageState, Recorded, RevisionEvent, Store, StoreWriter

GONE_STATUSES = frozenset({404, 410})


@dataclass(frozen=True, slots=True)
class PageFailure:
    url: str
    message: str


@dataclass(frozen=True, slots=True)
class SourceSummary:
    """Counts of one source's run.

    Each page the run looked at counts once as ``listed``, ``unlisted`` or ``removed`` (what the
    sitemap says of it), and each listed or unlisted page once as ``new``, ``changed``,
    ``unchanged`` or failed (what became of its text). ``failures`` also holds the sitemap's own
    failures, whose URL is the source's sitemap.
    """

    name: str
    listed: int = 0
    """Pages the sitemap lists that the source tracks."""
    fetched: int = 0
    """Pages requested, answered or not (conditional requests answered 304 included): the
    listed pages whose ``lastmod`` did not move, and no others, are not."""
    new: int = 0
    changed: Mapping[str, int] = field(default_factory=dict)
    """Changed pages by class: normative, editorial, formatting."""
    unchanged: int = 0
    removed: int = 0
    unlisted: int = 0
    """Pages the sitemap no longer lists that are kept: still served, failed this run, or held
    back by ``max_removal``."""
    failures: tuple[PageFailure, ...] = ()

    @property
    def changed_total(self) -> int:
        return sum(self.changed.values())


@dataclass(frozen=True, slots=True)
class FetchSummary:
    sources: tuple[SourceSummary, ...]
    requests: int
    """HTTP requests made, sitemaps, redirects and retries included."""

    @property
    def failures(self) -> list[PageFailure]:
        return [f for s in self.sources for f in s.failures]

    @property
    def ok(self) -> bool:
        return not self.failures


FUTURE_SLACK = timedelta(days=1)
"""How far ahead of the fetch a lastmod may lie (a site's clock or time zone slightly off); one
further ahead is wrong, and would keep the edit at the top of every list for years."""


def _page_text(source: SourceConfig, response: Response, strip_timeout: float) -> str:
    """The text of a page answer with the source's ``strip`` patterns cut out."""
    url = response.url
    text = markdown_text(response, url)
    for index, pattern in enumerate(source.strip):
        try:
            text = pattern.sub("", text, timeout=strip_timeout)
        except TimeoutError:
            raise FetchError(
                f"{url}: source {source.name!r} key 'strip' pattern #{index + 1} "
                f"({pattern.pattern!r}) ran longer than {strip_timeout:g} s (strip_timeout) on "
                "this page; it likely backtracks without end: write it so that each character "
                "can match in one way only"
            ) from None
    if source.strip and not text.removeprefix("\ufeff").strip():
        # As for a body empty as served: stored, the page would report every requirement of it
        # as removed, when what changed is more likely the page's layout under the patterns.
        raise FetchError(
            f"{url}: the source {source.name!r} key 'strip' patterns left nothing of the page; "
            "the version stored before is kept (check that no pattern takes the whole page)"
        )
    return text


def _url_key(url: str) -> str:
    """A URL as httpx writes it, so that a redirect's final URL and a listed URL compare."""
    try:
        return str(httpx.URL(url))
    except httpx.InvalidURL:
        return url


def _path_and_query(url: str) -> tuple[str, str]:
    """What names a page within its site, whatever the scheme and host."""
    parts = urlsplit(url)
    return parts.path, parts.query


def _decode(data: bytes | None, name: str) -> str | None:
    if data is None:
        return None
    try:
        return decode_page(data, name)
    except InputError:
        return None


class _SourceRun:
    def __init__(
        self,
        source: SourceConfig,
        writer: StoreWriter,
        fetcher: Fetcher,
        progress: Progress,
        clock: Clock,
    ) -> None:
        self.source = source
        self.writer = writer
        self.fetcher = fetcher
        self.progress = progress
        self.clock = clock
        self.counts = dict.fromkeys(
            ("listed", "fetched", "new", "unchanged", "removed", "unlisted"), 0
        )
        self.changed = {c.value: 0 for c in reversed(ChangeClass)}
        self.failures: list[PageFailure] = []
        self.gone: list[tuple[PageState, str]] = []
        """Pages to remove, each with why."""
        self.listed_entries: Sequence[SitemapEntry] = ()
        self._served_at: dict[str, str] | None = None
        self.aliases: list[tuple[str, str]] = []
        """Listed pages that redirect to another listed page, each with that page."""

    def fail(self, url: str, message: str) -> None:
        self.failures.append(PageFailure(url, message))

    def summary(self) -> SourceSummary:
        counts = self.counts
        return SourceSummary(
            name=self.source.name,
            listed=counts["listed"],
            fetched=counts["fetched"],
            new=counts["new"],
            changed=dict(self.changed),
            unchanged=counts["unchanged"],
            removed=counts["removed"],
            unlisted=counts["unlisted"],
            failures=tuple(self.failures),
        )

    async def count(self, recorded: Recorded, text: str) -> None:
        if recorded.event is None:
            self.counts["unchanged"] += 1
        elif recorded.event is RevisionEvent.ADDED:
            self.counts["new"] += 1
        else:
            old = _decode(recorded.old, recorded.page)
            report = await asyncio.to_thread(diff_texts, old, text, recorded.page)
            verdict = (
                ChangeClass.FORMATTING.value if report.verdict == UNCHANGED else report.verdict
            )
            self.changed[verdict] += 1

    async def get(self, url: str, state: PageState | None, conditional: bool) -> Response:
        use = state is not None and conditional
        # Counted as asked for, answered or not: a page that failed before any answer was
        # fetched all the same, and counts among the failed.
        self.counts["fetched"] += 1
        return await self.fetcher.get(
            self.source.markdown_url(url),
            redirect_hosts=self.source.redirect_hosts,
            etag=state.etag if use and state else None,
            last_modified=state.last_modified if use and state else None,
        )

    def upstream_time(self, entry: SitemapEntry, state: PageState | None) -> UpstreamTime:
        """The sitemap's lastmod when it moved since the last revision and is not in the future
        (a warning says when it is); otherwise the fetch time."""
        now = self.clock()
        lastmod = entry.lastmod
        if lastmod is not None and (state is None or entry.lastmod_raw != state.lastmod_recorded):
            if lastmod.time <= now + FUTURE_SLACK:
                return lastmod
            self.progress.warn(
                f"sitemap {self.source.sitemap}: {entry.url}: lastmod {entry.lastmod_raw!r} is "
                "more than a day in the future; the fetch time is used"
            )
        return UpstreamTime(now, TimeSource.FETCH, Precision.SECOND, entry.lastmod_raw)

    async def listed(self, entry: SitemapEntry, state: PageState | None, conditional: bool) -> None:
        url = entry.url
        try:
            response = await self.get(url, state, conditional)
            alias_of = self.redirected_to_listed(url, response)
            if alias_of is not None:
                # Another address of a page the sitemap lists too (a renamed page's old URL
                # left in the sitemap): recorded, it would hold that page's text and record
                # each of its edits a second time. What it holds from before stays as it is.
                self.aliases.append((url, alias_of))
                self.counts["unchanged"] += 1
            elif response.status == 304 and state is not None:
                self.writer.update(self.source.name, url, lastmod=entry.lastmod_raw, unlisted=False)
                self.counts["unchanged"] += 1
            elif response.status == 200:
                text = _page_text(self.source, response, self.fetcher.settings.strip_timeout)
                recorded = self.writer.record(
                    self.source.name,
                    url,
                    text.encode("utf-8"),
                    self.upstream_time(entry, state),
                    lastmod=entry.lastmod_raw,
                    etag=response.etag,
                    last_modified=response.last_modified,
                )
                await self.count(recorded, text)
            else:
                raise FetchError(
                    f"{self.source.markdown_url(url)}: HTTP {response.status} for a page the "
                    "sitemap lists"
                )
        except FetchError as error:
            self.fail(url, str(error))
        finally:
            self.progress.advance()

    def listed_page_at(self, served: str) -> str | None:
        """The listed page served at a URL (its own or its Markdown URL), if any."""
        if self._served_at is None:
            # Made on the first redirect only: normalising every listed URL costs about 10 µs
            # each, a second for a sitemap of 50,000 pages.
            self._served_at = {
                _url_key(address): entry.url
                for entry in self.listed_entries
                for address in (entry.url, self.source.markdown_url(entry.url))
            }
        return self._served_at.get(_url_key(served))

    def redirected_to_listed(self, url: str, response: Response) -> str | None:
        """The listed page other than ``url`` that the request for ``url``'s page was
        redirected to, if any."""
        if response.url == _url_key(self.source.markdown_url(url)):
            return None
        moved_to = self.listed_page_at(response.url)
        return None if moved_to == url else moved_to

    async def unlisted(self, state: PageState) -> None:
        url = state.url
        try:
            response = await self.get(url, state, conditional=True)
            moved_to = self.redirected_to_listed(url, response)
            if response.status in GONE_STATUSES:
                self.gone.append((state, "no longer listed; answers 404/410"))
            elif moved_to is not None:
                # Redirected to a page the sitemap lists: the page moved there (a renamed page
                # whose old URL redirects). Kept, it would hold the other page's text and record
                # each of its edits a second time.
                self.gone.append((state, f"no longer listed; redirects to {moved_to}"))
            elif response.status == 304:
                self.writer.update(self.source.name, url, unlisted=True)
                self.counts["unlisted"] += 1
                self.counts["unchanged"] += 1
            elif response.status == 200 and looks_like_html(response.body, response.content_type):
                # Dropped from the sitemap and answered by an HTML page (an app shell, a soft
                # 404): most likely gone, though nothing says so surely. Its text stays as
                # stored, and the site's own choice to drop it does not fail every later run.
                self.progress.warn(
                    f"{self.source.markdown_url(url)}: no longer listed, and served as an HTML "
                    "page (a soft 404?); the version stored before is kept"
                )
                self.writer.update(self.source.name, url, unlisted=True)
                self.counts["unlisted"] += 1
                self.counts["unchanged"] += 1
            elif response.status == 200:
                text = _page_text(self.source, response, self.fetcher.settings.strip_timeout)
                now = UpstreamTime(self.clock(), TimeSource.FETCH, Precision.SECOND)
                recorded = self.writer.record(
                    self.source.name,
                    url,
                    text.encode("utf-8"),
                    now,
                    lastmod=state.lastmod,
                    etag=response.etag,
                    last_modified=response.last_modified,
                    unlisted=True,
                )
                await self.count(recorded, text)
                self.counts["unlisted"] += 1
            else:
                raise FetchError(f"{self.source.markdown_url(url)}: HTTP {response.status}")
        except FetchError as error:
            self.fail(url, str(error))
            self.counts["unlisted"] += 1
        finally:
            self.progress.advance()

    async def run(self, reading: Awaitable[Sitemap], everything: bool) -> SourceSummary:
        source = self.source
        try:
            sitemap = await reading
        except FetchError as error:
            self.fail(source.sitemap, str(error))
            return self.summary()
        # What the warnings say left every URL out (all on another host: www. pages in the bare
        # host's sitemap, say): the source would track nothing, run after run, unseen.
        left_all_out = bool(sitemap.warnings) and not sitemap.entries
        for warning in sitemap.warnings:
            if left_all_out:
                self.fail(source.sitemap, warning)
            else:
                self.progress.warn(warning)
        for message in sitemap.errors:
            self.fail(source.sitemap, message)
        if left_all_out:
            # As a sitemap that cannot be read: the pages it does not list are not its pages
            # gone, and removed, they would not go on once it is set right (a site moved).
            return self.summary()
        listed = [e for e in sitemap.entries if source.wants(urlsplit(e.url).path)]
        if sitemap.entries and not listed:
            # Most often a mistyped glob: the source would track nothing, and report nothing,
            # run after run, as if the site never changed.
            self.fail(
                source.sitemap,
                f"sitemap {source.sitemap}: lists {len(sitemap.entries):,} pages, and the "
                f"include and exclude globs of source {source.name!r} leave none of them (first: "
                f"{urlsplit(sitemap.entries[0].url).path}); check the globs",
            )
        self.counts["listed"] = len(listed)
        self.listed_entries = listed
        states = dict(self.writer.states(source.name))
        self.continue_moved(listed, states)
        jobs = []
        new_pages = []
        for entry in listed:
            state = states.get(entry.url)
            if state is None:
                new_pages.append(entry)
                continue
            if everything or entry.lastmod_raw is None or entry.lastmod_raw != state.lastmod:
                jobs.append(self.listed(entry, state, conditional=not everything))
            else:
                self.counts["unchanged"] += 1
                if state is not None and state.unlisted:
                    self.writer.update(source.name, entry.url, unlisted=False)
        # Pages stored before the configuration left them out are neither removed nor part of
        # the share max_removal limits: that share is of the pages the source tracks.
        tracked = [state for url, state in states.items() if source.wants(urlsplit(url).path)]
        if sitemap.complete:
            listed_urls = {e.url for e in listed}
            jobs += [
                self.unlisted(state)
                for state in sorted(tracked, key=lambda state: state.url)
                if state.url not in listed_urls
            ]
        self.progress.start(source.name, len(jobs) + len(new_pages))
        await asyncio.gather(*jobs)
        self.remove_gone(len(tracked))
        # New pages are recorded once the pages gone are removed: a name a removed page frees (a
        # page renamed in letter case only, /Guide → /guide) is then the new page's own, not
        # guide~hash beside a page that no longer exists.
        await asyncio.gather(
            *(self.listed(entry, None, conditional=not everything) for entry in new_pages)
        )
        if self.aliases:
            first, target = min(self.aliases)
            self.progress.warn(
                f"sitemap {source.sitemap}: {len(self.aliases)} listed page(s) redirect to other "
                f"pages the sitemap lists, and are recorded once, as those (first: {first} → "
                f"{target})"
            )
        return self.summary()

    def continue_moved(self, listed: Sequence[SitemapEntry], states: dict[str, PageState]) -> None:
        """Give each listed page new to the store the stored page of its path and query on
        another scheme or host that the sitemap no longer lists: the site moved (to https, to
        www., to a new domain). Its history goes on under the new URL, rather than beginning
        again as a new page (every requirement reported added) beside one that fails or is
        removed (every requirement reported removed)."""
        listed_urls = {entry.url for entry in listed}
        elsewhere = {
            _path_and_query(url): state for url, state in states.items() if url not in listed_urls
        }
        moved = []
        for entry in listed:
            state = None if entry.url in states else elsewhere.pop(_path_and_query(entry.url), None)
            if state is not None:
                del states[state.url]
                states[entry.url] = self.writer.move(self.source.name, state.url, entry.url)
                moved.append((state.url, entry.url))
        if moved:
            self.progress.warn(
                f"sitemap {self.source.sitemap}: {len(moved)} page(s) stored under another scheme "
                f"or host are listed at new URLs, and their history goes on there (first: "
                f"{moved[0][0]} → {moved[0][1]})"
            )

    def remove_gone(self, pages_before: int) -> None:
        if not self.gone:
            return
        share = len(self.gone) / max(pages_before, 1)
        if share > self.source.max_removal:
            self.fail(
                self.source.sitemap,
                f"would remove {len(self.gone)} of {pages_before} pages ({share:.0%}, more than "
                f"max_removal = {self.source.max_removal:.0%}); removed none. If the site really "
                "dropped them, raise max_removal for this source and run again",
            )
            self.counts["unlisted"] += len(self.gone)
            self.counts["unchanged"] += len(self.gone)
            return
        for state, reason in sorted(self.gone, key=lambda gone: gone[0].page):
            self.writer.remove(self.source.name, state.url, reason)
            self.counts["removed"] += 1


async def fetch_sources(
    config: Config,
    store: Store | Awaitable[Store],
    fetcher: Fetcher,
    *,
    names: Sequence[str] = (),
    everything: bool = False,
    progress: Progress | None = None,
    clock: Clock = utc_now,
) -> FetchSummary:
    """Fetch the named sources (all when empty) into ``store`` with one run lock held.

    ``store`` may still be opening (an awaitable); the sitemaps are requested meanwhile.
    """
    sources = config.selected(names)
    report = progress or SilentProgress()
    # The sitemaps are requested while the store opens and its lock is taken (in a thread).
    readings = [
        asyncio.ensure_future(read_sitemap(fetcher, s.sitemap, s.redirect_hosts)) for s in sources
    ]
    summaries = []
    try:
        with contextlib.ExitStack() as stack:

            def begin(opened: Store) -> StoreWriter:
                writer = stack.enter_context(opened.writer(clock, config.store.lock_wait))
                for source in sources:
                    writer.states(source.name)
                return writer

            opened = store if isinstance(store, Store) else await store
            writer = await asyncio.to_thread(begin, opened)
            for source, reading in zip(sources, readings, strict=True):
                run = _SourceRun(source, writer, fetcher, report, clock)
                summaries.append(await run.run(reading, everything))
            releases = await refresh_releases(
                config, writer, fetcher, names=names, conditional=not everything, progress=report
            )
    finally:
        for reading in readings:
            reading.cancel()
        await asyncio.gather(*readings, return_exceptions=True)
    for message in releases.messages:
        report.warn(message)
    return FetchSummary(tuple(summaries), fetcher.requests)


def host_concurrency(sources: Iterable[SourceConfig]) -> dict[str, int]:
    """Connections allowed per host: the smallest ``concurrency`` of the sources on it."""
    limits: dict[str, int] = {}
    for source in sources:
        host = host_of(source.sitemap)
        limits[host] = min(limits.get(host, source.concurrency), source.concurrency)
    return limits


def run_fetch(
    config: Config,
    *,
    names: Sequence[str] = (),
    everything: bool = False,
    progress: Progress | None = None,
    clock: Clock = utc_now,
    sleep: Sleep = asyncio.sleep,
    client: httpx.AsyncClient | None = None,
) -> FetchSummary:
    """`fetch_sources` with the configured store (created when missing) and an httpx client."""
    for name in names:
        config.source(name)
    if not config.sources:
        where = f"{config.path}: " if config.path else ""
        raise ConfigError(f"{where}no [[source]] configured; nothing to fetch")

    async def main() -> FetchSummary:
        # The store is created or opened (git commands, in a thread) while the client is set up
        # and the sitemaps are requested. `run_in_executor` starts the thread at once, where a
        # task would wait for the loop's next turn, that is until the client is made.
        opening = asyncio.get_running_loop().run_in_executor(
            None, Store.create, config.store.path, clock
        )
        try:
            async with contextlib.AsyncExitStack() as stack:
                http = client
                if http is None:
                    http = await stack.enter_async_context(make_client(config.fetch))
                fetcher = Fetcher(
                    http,
                    config.fetch,
                    concurrency=host_concurrency(config.sources),
                    sleep=sleep,
                    clock=clock,
                )
                return await fetch_sources(
                    config,
                    opening,
                    fetcher,
                    names=names,
                    everything=everything,
                    progress=progress,
                    clock=clock,
                )
        finally:
            await asyncio.wait([opening])
            if not opening.cancelled() and opening.exception() is None:
                opening.result().close()

    return asyncio.run(main())


def summary_lines(summary: FetchSummary) -> list[str]:
    """The end-of-run summary, one line per source."""
    lines = []
    for s in summary.sources:
        classes = ", ".join(f"{name} {count}" for name, count in s.changed.items())
        lines.append(
            f"{s.name}: listed {s.listed}, fetched {s.fetched}, new {s.new}, "
            f"changed {s.changed_total} ({classes}), unchanged {s.unchanged}, "
            f"removed {s.removed}, unlisted {s.unlisted}, failed {len(s.failures)}"
        )
    return lines
