"""Release feed documents of every kind, written for the tests, and a local site serving them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import timedelta
from xml.sax.saxutils import escape, quoteattr

from spectrack.releases import FeedSpec
from spectrack.serve import LocalSite, Reply

ATOM = "http://www.w3.org/2005/Atom"


def github_atom(repo: str, releases: Iterable[tuple[str, str]]) -> bytes:
    """A releases feed shaped like GitHub's: (tag, updated) pairs; titles are release names."""
    entries = "".join(
        f"<entry><id>tag:example,2008:Repository/1/{escape(tag)}</id>"
        f"<updated>{updated}</updated>"
        f'<link rel="alternate" type="text/html" '
        f'href="https://github.com/{repo}/releases/tag/{escape(tag)}"/>'
        f"<title>Release name for {escape(tag)}</title>"
        f"<content type='html'>Notes written for a test.</content></entry>"
        for tag, updated in releases
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><feed xmlns="{ATOM}">'
        f"<id>tag:example,2008:{repo}/releases</id><title>Releases of a test repository</title>"
        f"<updated>2025-06-30T00:00:00Z</updated>{entries}</feed>"
    ).encode()


def atom(entries: Iterable[tuple[str, str | None, str | None, str | None]]) -> bytes:
    """A generic Atom feed of (title, link, published, updated) entries; None leaves one out."""
    parts = []
    for title, link, published, updated in entries:
        parts.append(
            "<entry>"
            + f"<title>{escape(title)}</title>"
            + (f"<link href={quoteattr(link)}/>" if link is not None else "")
            + (f"<published>{published}</published>" if published else "")
            + (f"<updated>{updated}</updated>" if updated else "")
            + "</entry>"
        )
    return (
        f'<feed xmlns="{ATOM}"><title>Test product news</title>{"".join(parts)}</feed>'
    ).encode()


def rss(items: Iterable[tuple[str, str, str | None]]) -> bytes:
    """An RSS 2.0 feed of (title, link, pubDate) items."""
    body = "".join(
        f"<item><title>{escape(title)}</title><link>{escape(link)}</link>"
        + (f"<pubDate>{date}</pubDate>" if date else "")
        + "</item>"
        for title, link, date in items
    )
    return (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Test product</title>'
        f"{body}</channel></rss>"
    ).encode()


def npm_document(name: str, times: Mapping[str, object]) -> bytes:
    """An npm registry package document with a ``time`` map (created and modified included)."""
    return json.dumps(
        {
            "name": name,
            "dist-tags": {"latest": "1.0.0"},
            "time": {
                "created": "2020-01-01T00:00:00.000Z",
                "modified": "2025-07-01T00:00:00.000Z",
                **times,
            },
        }
    ).encode()


def pypi_document(releases: Mapping[str, list[str]]) -> bytes:
    """A PyPI JSON API document: version → upload times of its files."""
    return json.dumps(
        {
            "info": {"name": "testproject"},
            "releases": {
                version: [
                    {"filename": f"file{n}", "upload_time_iso_8601": moment}
                    for n, moment in enumerate(moments)
                ]
                for version, moments in releases.items()
            },
        }
    ).encode()


def serve(site: LocalSite, path: str, body: bytes, content_type: str, etag: str = "") -> None:
    headers = {"Content-Type": content_type}
    if etag:
        headers["ETag"] = etag
    site.routes[path] = Reply(200, body, headers)


def specs(site: LocalSite, window: timedelta = timedelta(hours=24)) -> tuple[FeedSpec, ...]:
    """One feed of each kind, each served by ``site`` at a path of its own."""
    return (
        FeedSpec("github", "acme/tool", site.url("/gh/releases.atom"), window),
        FeedSpec("npm", "@acme/sdk", site.url("/npm/sdk"), window),
        FeedSpec("pypi", "acme-sdk", site.url("/pypi/acme-sdk/json"), window),
        FeedSpec("atom", None, site.url("/news.xml"), window),
    )


def publish_good_feeds(site: LocalSite) -> None:
    """Every kind with releases around 2025-06-18."""
    serve(
        site,
        "/gh/releases.atom",
        github_atom(
            "acme/tool", [("v2.0.0", "2025-06-18T12:00:00Z"), ("v1.9.0", "2025-06-01T08:00:00Z")]
        ),
        "application/atom+xml",
        etag='"gh-1"',
    )
    serve(
        site,
        "/npm/sdk",
        npm_document(
            "@acme/sdk",
            {"3.1.0": "2025-06-17T09:30:00.000Z", "3.2.0-beta.1": "2025-06-18T10:10:00.000Z"},
        ),
        "application/json",
    )
    serve(
        site,
        "/pypi/acme-sdk/json",
        pypi_document({"0.4.0": ["2025-06-19T10:00:00.000000Z", "2025-06-19T09:00:00.000000Z"]}),
        "application/json",
    )
    serve(
        site,
        "/news.xml",
        rss([("Tool 5.0 is out", "https://example.org/news/5", "Wed, 18 Jun 2025 06:00:00 GMT")]),
        "application/rss+xml",
    )
