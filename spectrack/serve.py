"""A small documentation site on 127.0.0.1: pages, a generated sitemap, and any route you add.

The demo serves the bundled example specification with it, revision after revision; the tests and
benchmarks serve pages and faults with it. It runs in a background thread on a free port::

    with LocalSite() as site:
        site.publish(pages_in(Path("examples/site/v1")), lastmod="2025-03-26")
        config = single_source_config(store, "example", site.url("/sitemap.xml"), markdown="{url}.md")
        run_fetch(config)
        site.publish(pages_in(Path("examples/site/v2")), lastmod="2025-06-18")
        run_fetch(config)

`publish` replaces the whole site: a page that is no longer published answers 404. Pages answer
conditional requests (ETag) with 304. A route is a `Reply` or a function of the request handler
that returns a `Reply`, or None after writing a raw answer itself (to simulate broken servers).
"""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

from spectrack.pages import PAGE_SUFFIXES, url_path


@dataclass(frozen=True, slots=True)
class Reply:
    status: int = 200
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)


Route = Callable[[BaseHTTPRequestHandler], Reply | None]


def sitemap_xml(entries: Mapping[str, str | None]) -> bytes:
    """A ``<urlset>`` of URL → lastmod (None for none)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    lines.append('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    for url, lastmod in entries.items():
        extra = f"<lastmod>{escape(lastmod)}</lastmod>" if lastmod else ""
        lines.append(f"  <url><loc>{escape(url)}</loc>{extra}</url>")
    lines.append("</urlset>")
    return ("\n".join(lines) + "\n").encode()


def pages_in(directory: Path) -> dict[str, bytes]:
    """The Markdown files under a folder by URL path: ``a/b.md`` → ``/a/b``, ``a/index.md`` → ``/a``."""
    pages = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.suffix.lower() in PAGE_SUFFIXES:
            pages["/" + url_path(path.relative_to(directory).as_posix())] = path.read_bytes()
    return pages


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle's algorithm the second waits for the
    # client's delayed ACK (40 ms) on a kept-alive connection.
    disable_nagle_algorithm = True
    server: _Server
    arrived: float

    def parse_request(self) -> bool:
        # Called as soon as the request line is in: the latency counts from here, so the time
        # this handler spends on headers and routing is part of it rather than added to it.
        self.arrived = time.monotonic()
        return super().parse_request()

    def do_GET(self) -> None:
        site = self.server.site
        path = urlsplit(self.path).path
        site.record(path)
        if site.latency:
            time.sleep(max(0.0, self.arrived + site.latency - time.monotonic()))
        route = site.routes.get(path)
        if route is None:
            self.reply(Reply(404, b"not found\n", {"Content-Type": "text/plain"}))
            return
        reply = route if isinstance(route, Reply) else route(self)
        if reply is not None:
            self.reply(reply)

    def reply(self, reply: Reply) -> None:
        etag = reply.headers.get("ETag")
        if reply.status == 200 and etag and self.headers.get("If-None-Match") == etag:
            reply = Reply(304, b"", {"ETag": etag})
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if "Content-Length" not in reply.headers:
            self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the site's requests are in `LocalSite.requests`."""


class QuietServer(ThreadingHTTPServer):
    """A threading HTTP server that says nothing when a client goes away mid-request."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return  # a browser or a test hanging up early: not the server's fault
        super().handle_error(request, client_address)


class _Server(QuietServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 256

    def __init__(self, site: LocalSite) -> None:
        self.site = site
        super().__init__(("127.0.0.1", 0), _Handler)


class LocalSite:
    """An HTTP server on 127.0.0.1 (a free port) in a background thread."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        """Seconds every answer waits before it starts."""
        self.routes: dict[str, Reply | Route] = {}
        self.requests: list[str] = []
        """Paths requested so far, in order."""
        self._lock = threading.Lock()
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def record(self, path: str) -> None:
        with self._lock:
            self.requests.append(path)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str) -> str:
        return self.base_url + path

    def publish(
        self,
        pages: Mapping[str, bytes],
        *,
        lastmod: str | Mapping[str, str] | None = None,
        markdown_suffix: str = ".md",
        sitemap: str = "/sitemap.xml",
    ) -> None:
        """Serve exactly these pages (URL path → Markdown at path + suffix) and their sitemap."""
        routes: dict[str, Reply | Route] = {}
        entries: dict[str, str | None] = {}
        for path, body in pages.items():
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            headers = {"Content-Type": "text/markdown; charset=utf-8", "ETag": etag}
            routes[path + markdown_suffix] = Reply(200, body, headers)
            entries[self.url(path)] = (
                lastmod if not isinstance(lastmod, Mapping) else lastmod.get(path)
            )
        routes[sitemap] = Reply(200, sitemap_xml(entries), {"Content-Type": "application/xml"})
        self.routes = routes

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> LocalSite:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
