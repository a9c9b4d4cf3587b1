from __future__ import annotations

import asyncio
import gzip
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler

import httpx
import pytest

from spectrack.config import FetchConfig
from spectrack.errors import FetchError
from spectrack.fetch import (
    Fetcher,
    Response,
    host_of,
    make_client,
    markdown_text,
    read_sitemap,
)
from spectrack.serve import LocalSite, Reply, sitemap_xml
from tests.conftest import RecordingSleep, in_turn, truncated

SETTINGS = FetchConfig(user_agent="spectrack-test/1", timeout=2.0, retries=2, backoff=0.5)
PAGE = Reply(200, b"# Title\n\nText.\n", {"Content-Type": "text/markdown"})


def get(
    site: LocalSite,
    path: str,
    settings: FetchConfig = SETTINGS,
    sleep: RecordingSleep | None = None,
    **options: object,
) -> tuple[Response, Fetcher]:
    async def main() -> tuple[Response, Fetcher]:
        async with make_client(settings) as client:
            fetcher = Fetcher(
                client,
                settings,
                sleep=sleep or RecordingSleep(),
                clock=lambda: datetime(2030, 1, 1, tzinfo=UTC),
            )
            return await fetcher.get(site.url(path), **options), fetcher  # type: ignore[arg-type]

    return asyncio.run(main())


def test_500_then_success_retries_with_backoff(site: LocalSite) -> None:
    site.routes["/p"] = in_turn([Reply(500), Reply(503), PAGE])
    sleep = RecordingSleep()
    response, fetcher = get(site, "/p", sleep=sleep)
    assert response.status == 200 and response.body == PAGE.body
    assert sleep.delays == [0.5, 1.0]
    assert fetcher.requests == 3


def test_backoff_delays_stop_growing_at_max_retry_after(site: LocalSite) -> None:
    site.routes["/p"] = in_turn([Reply(500), Reply(503), Reply(500), PAGE])
    sleep = RecordingSleep()
    settings = FetchConfig(timeout=2.0, retries=3, backoff=40.0, max_retry_after=100.0)
    response, _ = get(site, "/p", settings, sleep=sleep)
    assert response.status == 200
    assert sleep.delays == [40.0, 80.0, 100.0]


def test_persistent_5xx_gives_up_after_the_retries(site: LocalSite) -> None:
    site.routes["/p"] = Reply(502)
    sleep = RecordingSleep()
    with pytest.raises(FetchError, match=r"HTTP 502 \(gave up after 3 attempts\)"):
        get(site, "/p", sleep=sleep)
    assert sleep.delays == [0.5, 1.0]
    assert site.requests.count("/p") == 3


def test_429_honours_retry_after_seconds(site: LocalSite) -> None:
    site.routes["/p"] = in_turn([Reply(429, headers={"Retry-After": "7"}), PAGE])
    sleep = RecordingSleep()
    response, _ = get(site, "/p", sleep=sleep)
    assert response.status == 200
    assert sleep.delays == [7.0]


def test_retry_after_as_an_http_date(site: LocalSite) -> None:
    later = datetime(2030, 1, 1, tzinfo=UTC) + timedelta(seconds=42)
    site.routes["/p"] = in_turn(
        [Reply(503, headers={"Retry-After": format_datetime(later, usegmt=True)}), PAGE]
    )
    sleep = RecordingSleep()
    get(site, "/p", sleep=sleep)
    assert sleep.delays == [42.0]


def test_retry_after_as_an_http_date_in_no_zone(site: LocalSite) -> None:
    site.routes["/p"] = in_turn(
        [Reply(503, headers={"Retry-After": "Tue, 01 Jan 2030 00:00:42 -0000"}), PAGE]
    )
    sleep = RecordingSleep()
    response, _ = get(site, "/p", sleep=sleep)
    assert response.status == 200
    assert sleep.delays == [42.0]


def test_retry_after_beyond_the_limit_fails_at_once(site: LocalSite) -> None:
    site.routes["/p"] = Reply(429, headers={"Retry-After": "3600"})
    sleep = RecordingSleep()
    with pytest.raises(FetchError, match="retry after 3600 s"):
        get(site, "/p", sleep=sleep)
    assert sleep.delays == [] and site.requests.count("/p") == 1


def test_hung_connection_times_out_and_is_retried(
    site: LocalSite, release: threading.Event
) -> None:
    def hang(handler: BaseHTTPRequestHandler) -> None:
        release.wait(10)

    site.routes["/p"] = hang
    settings = FetchConfig(timeout=0.3, retries=1, backoff=0.1)
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"no complete answer within 0.3 s \(gave up after 2"):
        get(site, "/p", settings)
    assert time.monotonic() - started < 5, "the deadline, not the server, ended the request"
    assert site.requests.count("/p") == 2


def test_slow_trickle_is_cut_by_the_whole_answer_deadline(
    site: LocalSite, release: threading.Event
) -> None:
    def trickle(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", "1000")
        handler.end_headers()
        for _ in range(100):
            handler.wfile.write(b"x")
            handler.wfile.flush()
            if release.wait(0.1):
                return

    site.routes["/p"] = trickle
    with pytest.raises(FetchError, match=r"no complete answer within 0\.5 s"):
        get(site, "/p", FetchConfig(timeout=0.5, retries=0))


def test_truncated_body_is_retried(site: LocalSite) -> None:
    calls = []

    def route(handler: BaseHTTPRequestHandler) -> Reply | None:
        calls.append(1)
        if len(calls) == 1:
            truncated(handler)
            return None
        return PAGE

    site.routes["/p"] = route
    response, fetcher = get(site, "/p")
    assert response.body == PAGE.body
    assert fetcher.requests == 2


def test_always_truncated_body_fails(site: LocalSite) -> None:
    site.routes["/p"] = truncated
    with pytest.raises(FetchError, match="connection failed"):
        get(site, "/p")


def test_truncated_gzip_body_is_retried_then_fails(site: LocalSite) -> None:
    body = gzip.compress(b"# Page\n" * 1000)[:-20]
    site.routes["/p"] = Reply(200, body, {"Content-Encoding": "gzip"})
    with pytest.raises(FetchError, match=r"gzip data ends early \(truncated\)"):
        get(site, "/p")
    assert site.requests.count("/p") == 3


def test_gzip_body_is_decoded(site: LocalSite) -> None:
    site.routes["/p"] = Reply(200, gzip.compress(PAGE.body), {"Content-Encoding": "gzip"})
    response, _ = get(site, "/p")
    assert response.body == PAGE.body


def test_gzip_bomb_stops_at_the_decoded_cap(site: LocalSite) -> None:
    bomb = gzip.compress(b"\0" * (200 * 1024 * 1024), 9)
    assert len(bomb) < 1024 * 1024
    site.routes["/p"] = Reply(200, bomb, {"Content-Encoding": "gzip"})
    settings = FetchConfig(max_page_bytes=1024 * 1024, retries=2)
    with pytest.raises(FetchError, match="larger than 1,048,576 bytes once decoded"):
        get(site, "/p", settings)
    assert site.requests.count("/p") == 1, "an oversized body is not retried"


def test_an_encoding_not_asked_for_fails_the_page_at_once(site: LocalSite) -> None:
    site.routes["/p"] = Reply(200, b"\x0b\x02\x80squeezed\x03", {"Content-Encoding": "br"})
    with pytest.raises(FetchError, match="unsupported Content-Encoding 'br'"):
        get(site, "/p")
    assert site.requests.count("/p") == 1


def test_plain_body_over_the_cap_fails(site: LocalSite) -> None:
    site.routes["/p"] = Reply(200, b"x" * 5000)
    with pytest.raises(FetchError, match="larger than 4,096 bytes"):
        get(site, "/p", FetchConfig(max_page_bytes=4096))


def test_off_host_redirect_is_refused(site: LocalSite) -> None:
    port = site.base_url.rsplit(":", 1)[1]
    site.routes["/p"] = Reply(302, headers={"Location": f"http://localhost:{port}/q"})
    site.routes["/q"] = PAGE
    with pytest.raises(FetchError, match=r"redirected to http://localhost:\d+/q, another host"):
        get(site, "/p")
    assert "/q" not in site.requests


def test_redirect_to_an_allowed_host_is_followed(site: LocalSite) -> None:
    port = site.base_url.rsplit(":", 1)[1]
    site.routes["/p"] = Reply(301, headers={"Location": f"http://localhost:{port}/q"})
    site.routes["/q"] = PAGE
    response, _ = get(site, "/p", redirect_hosts=[f"localhost:{port}"])
    assert response.body == PAGE.body and response.url.endswith("/q")


def test_same_host_relative_redirect_is_followed(site: LocalSite) -> None:
    site.routes["/p"] = Reply(308, headers={"Location": "/q"})
    site.routes["/q"] = PAGE
    response, fetcher = get(site, "/p")
    assert response.status == 200 and fetcher.requests == 2


def test_redirect_loops_end(site: LocalSite) -> None:
    site.routes["/p"] = Reply(302, headers={"Location": "/p"})
    with pytest.raises(FetchError, match="more than 10 redirects"):
        get(site, "/p")


@pytest.mark.parametrize(
    "location", ["", "http://[::1", "https://docs.example.org:port/q", "//[docs.example.org"]
)
def test_a_redirect_to_no_url_fails_at_once_naming_it(site: LocalSite, location: str) -> None:
    # An empty Location redirected the page to itself until the redirect limit; a malformed one
    # was a "connection failed (RemoteProtocolError …)", retried with backoff.
    site.routes["/p"] = Reply(308, headers={"Location": "/q"})
    site.routes["/q"] = Reply(302, headers={"Location": location})
    sleep = RecordingSleep()
    with pytest.raises(FetchError) as failure:
        get(site, "/p", sleep=sleep)
    assert str(failure.value) == (
        f"{site.url('/p')}: redirected to {location!r} (at {site.url('/q')}), which is no URL; "
        "not followed"
    )
    assert site.requests == ["/p", "/q"] and sleep.delays == []


def test_conditional_request_and_user_agent(site: LocalSite) -> None:
    seen: list[tuple[str | None, str | None]] = []

    def route(handler: BaseHTTPRequestHandler) -> Reply:
        seen.append((handler.headers.get("User-Agent"), handler.headers.get("If-None-Match")))
        return Reply(200, PAGE.body, {"ETag": '"v1"'})

    site.routes["/p"] = route
    first, _ = get(site, "/p")
    again, _ = get(site, "/p", etag=first.etag)
    assert (first.status, first.etag) == (200, '"v1"')
    assert again.status == 304 and again.body == b""
    assert seen == [("spectrack-test/1", None), ("spectrack-test/1", '"v1"')]


def test_requests_to_one_host_are_bounded(site: LocalSite) -> None:
    lock = threading.Lock()
    active = [0, 0]

    def route(handler: BaseHTTPRequestHandler) -> Reply:
        with lock:
            active[0] += 1
            active[1] = max(active[1], active[0])
        time.sleep(0.05)
        with lock:
            active[0] -= 1
        return PAGE

    for i in range(12):
        site.routes[f"/p{i}"] = route

    async def main() -> None:
        async with make_client(SETTINGS) as client:
            fetcher = Fetcher(client, SETTINGS, default_concurrency=3)
            await asyncio.gather(*(fetcher.get(site.url(f"/p{i}")) for i in range(12)))

    asyncio.run(main())
    assert active[1] == 3


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"<!DOCTYPE html><html><head></head><body><div id=root></div></body></html>", "text/html"),
        (b"\n  <!-- app --><html lang=en><body>Loading</body></html>", "text/plain"),
        (b"<head><title>Not found</title></head>", "text/html; charset=utf-8"),
    ],
)
def test_html_where_markdown_was_expected_is_an_error(body: bytes, content_type: str) -> None:
    response = Response("https://x.org/p", 200, body, content_type, None, None)
    with pytest.raises(FetchError, match="served an HTML document where Markdown was expected"):
        markdown_text(response, "https://x.org/p")


def test_markdown_with_inline_html_is_fine() -> None:
    body = b'# Title\n\n<div id="x" />\n\nText <b>bold</b>.\n'
    response = Response("https://x.org/p", 200, body, "text/html", None, None)
    assert markdown_text(response, "https://x.org/p").startswith("# Title")


def test_non_utf8_bytes_are_an_error() -> None:
    response = Response("https://x.org/p", 200, b"caf\xe9\n", "text/markdown", None, None)
    with pytest.raises(FetchError, match="not UTF-8"):
        markdown_text(response, "https://x.org/p")


def test_sitemap_index_with_a_failing_child_is_incomplete(site: LocalSite) -> None:
    site.routes["/one.xml"] = Reply(200, sitemap_xml({site.url("/a"): None}))
    site.routes["/two.xml.gz"] = Reply(200, gzip.compress(sitemap_xml({site.url("/b"): None})))
    site.routes["/sitemap.xml"] = Reply(
        200,
        (
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"<sitemap><loc>{site.url('/one.xml')}</loc></sitemap>"
            f"<sitemap><loc>{site.url('/two.xml.gz')}</loc></sitemap>"
            f"<sitemap><loc>{site.url('/missing.xml')}</loc></sitemap>"
            "</sitemapindex>"
        ).encode(),
    )

    async def main():
        async with make_client(SETTINGS) as client:
            return await read_sitemap(
                Fetcher(client, SETTINGS, sleep=RecordingSleep()), site.url("/sitemap.xml")
            )

    sitemap = asyncio.run(main())
    assert [e.url for e in sitemap.entries] == [site.url("/a"), site.url("/b")]
    assert not sitemap.complete
    assert any("missing.xml: HTTP 404" in e for e in sitemap.errors)


def test_a_default_port_written_out_is_the_same_host() -> None:
    """A redirect from ``https://x/`` to ``https://x:443/`` stays on the host it was asked for."""
    assert host_of("https://Docs.example.org:443/a") == "docs.example.org"
    assert host_of("http://docs.example.org:80/a") == "docs.example.org"
    assert host_of("http://docs.example.org:443/a") == "docs.example.org:443"
    assert host_of("http://[::1]:80/a") == "[::1]"


@pytest.mark.parametrize(
    ("allowed", "location"),
    [
        ("cdn.example.org", "https://cdn.example.org:443/p"),
        ("cdn.example.org:443", "https://cdn.example.org/p"),
        ("cdn.example.org:443", "https://cdn.example.org:443/p"),
    ],
)
def test_a_redirect_host_with_or_without_its_default_port_is_that_host(
    allowed: str, location: str
) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.host == "docs.example.org":
            return httpx.Response(301, headers={"Location": location})
        return httpx.Response(200, stream=httpx.ByteStream(PAGE.body))

    async def main() -> Response:
        transport = httpx.MockTransport(answer)
        async with httpx.AsyncClient(transport=transport) as client:
            fetcher = Fetcher(client, SETTINGS, sleep=RecordingSleep())
            return await fetcher.get("https://docs.example.org/p", redirect_hosts=[allowed])

    response = asyncio.run(main())
    assert (response.status, response.url) == (200, "https://cdn.example.org/p")


def test_a_body_of_many_comments_is_judged_in_one_pass() -> None:
    """Comments and then no HTML tag (a Markdown page's lint directives, a hostile sitemap): the
    pattern tried every way of splitting them, 2 to the number of comments, and held the run."""
    body = b"<!-- lid -->\n" * 300 + b"# Lids\n"
    script = (
        "from spectrack.fetch import looks_like_html\n"
        f"assert not looks_like_html({body!r}, 'text/plain')\n"
        f"assert looks_like_html({body[:-7] + b'<html>'!r}, 'text/plain')\n"
    )
    # In a process of its own, which a pattern that backtracks without end cannot hold past
    # the timeout (far past the milliseconds one pass takes).
    done = subprocess.run([sys.executable, "-c", script], timeout=60, check=False)
    assert done.returncode == 0
