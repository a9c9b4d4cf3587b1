"""HTTP for sitemaps and pages: httpx asynchronously, politely and within limits.

`Fetcher` wraps an injected ``httpx.AsyncClient`` and adds, per request:

- at most ``concurrency`` requests at once to one host;
- conditional requests (``If-None-Match`` / ``If-Modified-Since``);
- a deadline for the whole answer (``timeout``) and a cap on the *decoded* body: the body is
  decompressed here, in bounded steps, so a gzip bomb stops at the cap;
- a descriptive ``User-Agent``;
- retries with exponential backoff after connection errors, timeouts, truncated bodies, 429 and
  5xx answers, honouring ``Retry-After`` (seconds or an HTTP date); the sleep and the clock are
  injected so tests run at full speed;
- redirects followed by hand: one to another host is refused unless that host is allowed.

`read_sitemap` reads a sitemap or sitemap index into entries and says whether every file was read
(only a complete sitemap may lead to removals). `markdown_text` checks a page body: an empty one,
HTML where Markdown was expected (an app shell or soft 404 answering 200) and non-UTF-8 bytes are
errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from urllib.parse import urljoin, urlsplit

import httpx

from spectrack.config import FetchConfig
from spectrack.dates import Clock, utc_now
from spectrack.errors import FetchError, InputError, SpectrackError
from spectrack.inflate import CorruptError, Inflater, TooLargeError
from spectrack.pages import served_text
from spectrack.sitemap import (
    MAX_BYTES,
    ParsedSitemap,
    SitemapEntry,
    parse_sitemap,
    site_of,
    without_default_port,
)

Sleep = Callable[[float], Awaitable[None]]

MAX_REDIRECTS = 10
HANDOVER_TURNS = 10
"""Turns of the event loop a request that handed its slot on waits at most for the next one."""
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ACCEPT_MARKDOWN = "text/markdown, text/x-markdown;q=0.9, text/plain;q=0.8, */*;q=0.1"
ACCEPT_XML = "application/xml, text/xml;q=0.9, */*;q=0.1"


@dataclass(frozen=True, slots=True)
class Response:
    url: str
    """The URL that answered, after redirects."""
    status: int
    body: bytes
    """The decoded body of a 200 answer; empty for other statuses."""
    content_type: str
    etag: str | None
    last_modified: str | None


class _Slots:
    """The requests one host may have in flight at once, each slot handed from request to request.

    A request that hands its slot to a waiting one lets that one go out before its own caller goes
    on: whatever the caller does with the answer (checking it, storing it) would otherwise delay
    the next request on that slot by as long, every time. httpx takes a few turns of the event
    loop from getting a connection to writing the request; its trace extension says when it has.
    """

    def __init__(self, limit: int) -> None:
        self._free = asyncio.Semaphore(limit)
        self._waiting = 0
        self._sent = 0

    async def trace(self, event: str, info: Mapping[str, object]) -> None:
        """httpcore's trace callback for this host's requests."""
        if event.endswith(".send_request_body.complete"):
            self._sent += 1

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        self._waiting += 1
        try:
            await self._free.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            handing_over = self._waiting > 0
            self._free.release()
        if handing_over:
            sent = self._sent
            # Bounded: a request that fails before it is sent must not hold this one up.
            for _ in range(HANDOVER_TURNS):
                await asyncio.sleep(0)
                if self._sent > sent:
                    break


class _Retry(Exception):
    """A failure worth another attempt."""

    def __init__(self, reason: str, after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.after = after


class _BadLocation(Exception):
    """A redirect whose ``Location`` names no URL: every attempt would be answered the same."""

    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.location = location


async def _refuse_bad_location(response: httpx.Response) -> None:
    """httpx's response hook: `_BadLocation` for a redirect to an empty or malformed ``Location``.

    httpx reads the ``Location`` of a redirect before handing the answer over, and a malformed
    one (``http://[::1``) fails as a protocol error, which is retried like a broken connection;
    an empty one is the page itself again, a loop until the redirect limit.
    """
    location = response.headers.get("location")
    if response.status_code not in REDIRECT_STATUSES or location is None:
        return
    try:
        httpx.URL(location)
        # What httpx accepts, urllib may not (``//[bad``, a host of an unclosed bracket).
        urlsplit(urljoin(str(response.url), location))
    except (httpx.InvalidURL, ValueError):
        raise _BadLocation(location) from None
    if not location.strip():
        raise _BadLocation(location)


def host_of(url: str) -> str:
    """The ``host[:port]`` a request to ``url`` goes to, without the scheme's default port."""
    return site_of(url)[1]


def make_client(settings: FetchConfig) -> httpx.AsyncClient:
    """The client `Fetcher` expects: no automatic redirects, decoding or retries of its own, and
    a redirect to no URL refused as soon as it comes."""
    return httpx.AsyncClient(
        timeout=httpx.Timeout(settings.timeout),
        follow_redirects=False,
        event_hooks={"response": [_refuse_bad_location]},
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=64),
        headers={"User-Agent": settings.user_agent},
    )


class Fetcher:
    """GET with limits, conditional requests, retries and redirect checks over one client."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        settings: FetchConfig,
        *,
        concurrency: Mapping[str, int] | None = None,
        default_concurrency: int = 8,
        sleep: Sleep = asyncio.sleep,
        clock: Clock = utc_now,
    ) -> None:
        self.client = client
        self.settings = settings
        self.concurrency = dict(concurrency or {})
        self.default_concurrency = default_concurrency
        self.sleep = sleep
        self.clock = clock
        self.requests = 0
        """HTTP requests sent so far, redirects and retries included."""
        self._slots: dict[str, _Slots] = {}

    def _slot(self, host: str) -> _Slots:
        if host not in self._slots:
            self._slots[host] = _Slots(self.concurrency.get(host, self.default_concurrency))
        return self._slots[host]

    async def get(
        self,
        url: str,
        *,
        accept: str = ACCEPT_MARKDOWN,
        max_bytes: int | None = None,
        redirect_hosts: Iterable[str] = (),
        etag: str | None = None,
        last_modified: str | None = None,
    ) -> Response:
        """The final answer for ``url`` (any status but 429/5xx); `FetchError` when none came."""
        headers = {"Accept": accept, "Accept-Encoding": "gzip"}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        allowed = {host_of(url), *(h.lower() for h in redirect_hosts)}
        limit = max_bytes or self.settings.max_page_bytes
        attempt = 0
        while True:
            try:
                return await self._follow(url, headers, allowed, limit)
            except _Retry as retry:
                attempts = attempt + 1
                if retry.after is not None and retry.after > self.settings.max_retry_after:
                    raise FetchError(
                        f"{url}: {retry.reason}, asked to retry after {retry.after:.0f} s "
                        f"(more than max_retry_after = {self.settings.max_retry_after:.0f})"
                    ) from None
                if attempt >= self.settings.retries:
                    raise FetchError(
                        f"{url}: {retry.reason} (gave up after {attempts} attempt"
                        f"{'s' if attempts > 1 else ''})"
                    ) from None
                delay = (
                    min(self.settings.backoff * 2**attempt, self.settings.max_retry_after)
                    if retry.after is None
                    else retry.after
                )
                attempt += 1
                await self.sleep(delay)

    async def _follow(
        self, url: str, headers: dict[str, str], allowed: set[str], limit: int
    ) -> Response:
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            try:
                response = await self._request(current, headers, limit)
            except _BadLocation as bad:
                via = "" if current == url else f" (at {current})"
                raise FetchError(
                    f"{url}: redirected to {bad.location!r}{via}, which is no URL; not followed"
                ) from None
            if isinstance(response, Response):
                return response
            target = urljoin(current, response)
            scheme = urlsplit(target).scheme
            # An allowed host:443 is the host of an https URL, as https://host:443/ is.
            hosts = {without_default_port(scheme, host) for host in allowed}
            if scheme not in ("http", "https") or host_of(target) not in hosts:
                raise FetchError(
                    f"{url}: redirected to {target}, another host; refused "
                    "(add the host to redirect_hosts in the source to allow it)"
                )
            current = target
        raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects")

    async def _request(self, url: str, headers: dict[str, str], limit: int) -> Response | str:
        """A `Response`, or the ``Location`` of a redirect."""
        slots = self._slot(host_of(url))
        async with slots.hold():
            self.requests += 1
            try:
                async with (
                    asyncio.timeout(self.settings.timeout),
                    self.client.stream(
                        "GET", url, headers=headers, extensions={"trace": slots.trace}
                    ) as answer,
                ):
                    return await self._answer(url, answer, limit)
            except TimeoutError:
                raise _Retry(f"no complete answer within {self.settings.timeout:g} s") from None
            except httpx.TransportError as error:
                raise _Retry(f"connection failed ({type(error).__name__}: {error})") from None
            except httpx.InvalidURL as error:
                raise FetchError(f"{url}: invalid URL ({error})") from None

    async def _answer(self, url: str, answer: httpx.Response, limit: int) -> Response | str:
        status = answer.status_code
        if status in REDIRECT_STATUSES and "location" in answer.headers:
            return answer.headers["location"]
        if status == 429 or status >= 500:
            raise _Retry(f"HTTP {status}", self._retry_after(answer.headers.get("retry-after")))
        body = b""
        if status == 200:
            try:
                inflater = Inflater(answer.headers.get("content-encoding", ""), limit)
            except CorruptError as error:
                # Asked for gzip only: another encoding would come back the same on a retry.
                raise FetchError(f"{url}: {error}") from None
            try:
                async for piece in answer.aiter_raw():
                    inflater.feed(piece)
                body = inflater.finish()
            except TooLargeError as error:
                raise FetchError(f"{url}: body {error}") from None
            except CorruptError as error:
                raise _Retry(str(error)) from None
        return Response(
            url=str(answer.url),
            status=status,
            body=body,
            content_type=answer.headers.get("content-type", ""),
            etag=answer.headers.get("etag"),
            last_modified=answer.headers.get("last-modified"),
        )

    def _retry_after(self, value: str | None) -> float | None:
        if not value:
            return None
        value = value.strip()
        if value.isdigit():
            return float(value)
        try:
            moment = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if moment.tzinfo is None:
            # RFC 5322's "-0000" (zone unknown) parses without one; HTTP dates are in GMT.
            moment = moment.replace(tzinfo=UTC)
        return max(0.0, (moment - self.clock()).total_seconds())


_HTML_START = re.compile(
    rb"\s*(?:<!--(?:[^-]|-(?!->))*-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I
)
"""An HTML document's start, past comments. A comment cannot run on past its ``-->``: with
``.*?`` it could, and a body of comments followed by no tag was tried split into comments in
every way (2 to the number of comments; a sitemap or page of 30 of them held the run for
minutes)."""
_HTML_TAG = re.compile(rb"<(?:html|head|body)\b", re.I)


def looks_like_html(body: bytes, content_type: str) -> bool:
    """Whether a body is an HTML document rather than Markdown (Markdown may hold HTML pieces)."""
    start = body[:4096].lstrip(b"\xef\xbb\xbf")
    if _HTML_START.match(start):
        return True
    return content_type.split(";")[0].strip().lower() == "text/html" and bool(
        _HTML_TAG.search(start)
    )


def markdown_text(response: Response, url: str) -> str:
    """The page text of a 200 answer; `FetchError` for HTML, binary, non-UTF-8 or empty bodies."""
    if looks_like_html(response.body, response.content_type):
        raise FetchError(
            f"{url}: served an HTML document where Markdown was expected (an app shell or a soft "
            "404); check the source's `markdown` URL template"
        )
    try:
        text = served_text(response.body, url)
    except InputError as error:
        raise FetchError(str(error)) from None
    if not text.removeprefix("\ufeff").strip():
        # A listed page that says nothing is far more often a failed answer than a page emptied
        # upstream; stored, it would report every requirement of the page as removed.
        raise FetchError(
            f"{url}: answered with an empty body; the version stored before is kept (a page "
            "taken down leaves the sitemap)"
        )
    return text


@dataclass(frozen=True, slots=True)
class Sitemap:
    url: str
    entries: tuple[SitemapEntry, ...]
    complete: bool
    """Every sitemap file was read; only then may pages be removed."""
    warnings: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    """Child sitemaps that could not be read."""


async def _sitemap_file(
    fetcher: Fetcher, url: str, redirect_hosts: Iterable[str], source_sitemap: str
) -> ParsedSitemap:
    """One sitemap file; ``source_sitemap`` is the URL the source gives, whose host its pages
    are on, wherever the file is kept."""
    response = await fetcher.get(
        url, accept=ACCEPT_XML, max_bytes=MAX_BYTES, redirect_hosts=redirect_hosts
    )
    if response.status != 200:
        raise FetchError(f"sitemap {url}: HTTP {response.status}")
    if looks_like_html(response.body, response.content_type):
        # Most often the site's home page given as its sitemap: said so, rather than by the
        # XML parser's refusal of <!DOCTYPE html> as a DTD.
        raise FetchError(
            f"sitemap {url}: served an HTML page: its root element <html> is not <urlset> or "
            "<sitemapindex>; check the source's `sitemap` URL"
        )
    return parse_sitemap(response.body, response.url, (url, source_sitemap))


async def read_sitemap(fetcher: Fetcher, url: str, redirect_hosts: Iterable[str] = ()) -> Sitemap:
    """Every entry of a sitemap or sitemap index; `FetchError` when the first file fails."""
    hosts = tuple(redirect_hosts)
    root = await _sitemap_file(fetcher, url, hosts, url)
    if not root.is_index:
        return Sitemap(url, root.entries, True, root.warnings)
    results = await asyncio.gather(
        *(_sitemap_file(fetcher, child, hosts, url) for child in root.children),
        return_exceptions=True,
    )
    entries: dict[str, SitemapEntry] = {}
    warnings = list(root.warnings)
    errors: list[str] = []
    for child, result in zip(root.children, results, strict=True):
        if isinstance(result, SpectrackError):
            errors.append(str(result))
        elif isinstance(result, BaseException):
            raise result
        elif result.is_index:
            errors.append(f"sitemap {child}: a sitemap index inside a sitemap index; not read")
        else:
            warnings.extend(result.warnings)
            for entry in result.entries:
                entries.setdefault(entry.url, entry)
    return Sitemap(url, tuple(entries.values()), not errors, tuple(warnings), tuple(errors))
