"""Sitemap XML bytes → entries (``<urlset>``) or child sitemaps (``<sitemapindex>``).

Follows the sitemap protocol: at most 50,000 URLs and 50 MB (uncompressed) per file, gzip
recognised by its magic bytes, ``lastmod`` in any W3C datetime form. XML is parsed with defusedxml
and a DTD is refused outright, so entity expansion and external entities never run. URLs on
another scheme or host than the sitemap itself, and malformed ones, are left out with a warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from spectrack.dates import UpstreamTime, parse_lastmod
from spectrack.errors import SitemapError
from spectrack.inflate import CorruptError, TooLargeError, inflate

MAX_URLS = 50_000
MAX_BYTES = 50 * 1024 * 1024
DEFAULT_PORTS = {"http": "80", "https": "443"}


@dataclass(frozen=True, slots=True)
class SitemapEntry:
    url: str
    lastmod: UpstreamTime | None
    """The parsed ``lastmod``; None when missing or not a valid date."""
    lastmod_raw: str | None
    """The ``lastmod`` text as given, even when it is not a valid date."""


@dataclass(frozen=True, slots=True)
class ParsedSitemap:
    url: str
    is_index: bool
    entries: tuple[SitemapEntry, ...] = ()
    """Pages of a ``<urlset>``."""
    children: tuple[str, ...] = ()
    """Sitemap URLs of a ``<sitemapindex>``."""
    warnings: tuple[str, ...] = ()


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child_text(element: Element, name: str) -> str | None:
    for child in element:
        if _local(child.tag) == name:
            return (child.text or "").strip()
    return None


def well_formed(url: str) -> bool:
    """Whether ``url`` can be split into its parts (``http://[::1/x`` cannot)."""
    try:
        urlsplit(url)
    except ValueError:
        return False
    return True


def without_default_port(scheme: str, netloc: str) -> str:
    """``netloc`` without the scheme's default port: ``https://x:443/`` is ``https://x/``."""
    default = DEFAULT_PORTS.get(scheme.lower())
    if default is not None and netloc.endswith(f":{default}"):
        return netloc[: -len(default) - 1]
    return netloc


def site_of(url: str) -> tuple[str, str]:
    """The scheme and ``host[:port]`` of a well-formed ``url``, in lower case and without the
    scheme's default port, as they name one site."""
    parts = urlsplit(url)
    return parts.scheme.lower(), without_default_port(parts.scheme, parts.netloc.lower())


def same_site(url: str, base: str) -> bool:
    """Whether ``url`` has the scheme and host (port included) of ``base``; False if malformed."""
    if not (well_formed(url) and well_formed(base)):
        return False
    return site_of(url) == site_of(base)


def one_document(url: str) -> str:
    """The URL without a fragment, dot segments (``/a/../b``) or its scheme's default port
    (``:443``): the same document is fetched either way, and must be one page of the store."""
    parts = urlsplit(url)
    path = parts.path
    if "/." in path:
        path = urlsplit(urljoin(f"{parts.scheme}://{parts.netloc}/", path)).path
    netloc = without_default_port(parts.scheme, parts.netloc)
    return urlunsplit(parts._replace(netloc=netloc, path=path, fragment=""))


def _parse_xml(data: bytes, url: str) -> Element:
    try:
        return fromstring(data, forbid_dtd=True)
    except DefusedXmlException as error:
        raise SitemapError(
            f"sitemap {url}: refused: {error} (DTDs and entities are never parsed)"
        ) from None
    except ParseError as error:
        raise SitemapError(f"sitemap {url}: not well-formed XML ({error})") from None


def parse_sitemap(data: bytes, url: str, asked: Sequence[str] = ()) -> ParsedSitemap:
    """Parse one sitemap or sitemap index file fetched from ``url``; ``asked`` are the URLs it
    was asked for on the way when a redirect led to ``url`` (a sitemap, or a sitemap index and
    its files, kept on another host that the source's ``redirect_hosts`` allows): its own, and
    the source's sitemap. Its URLs may be on the scheme and host of any of them."""
    # Each site's scheme and host, worked out once for all the sitemap's URLs (see `same_site`).
    sites = {site_of(site) for site in (url, *asked) if well_formed(site)}
    try:
        xml = inflate(data, MAX_BYTES)
    except TooLargeError:
        raise SitemapError(
            f"sitemap {url}: larger than the protocol's 50 MB; split it with a sitemap index"
        ) from None
    except CorruptError as error:
        raise SitemapError(f"sitemap {url}: {error}") from None
    root = _parse_xml(xml, url)
    kind = _local(root.tag)
    if kind not in ("urlset", "sitemapindex"):
        raise SitemapError(
            f"sitemap {url}: root element <{kind}> is not <urlset> or <sitemapindex>"
        )
    item = "url" if kind == "urlset" else "sitemap"
    items = [child for child in root if _local(child.tag) == item]
    if len(items) > MAX_URLS:
        raise SitemapError(
            f"sitemap {url}: {len(items):,} entries, more than the protocol's {MAX_URLS:,}; "
            "split it with a sitemap index"
        )
    warnings: list[str] = []
    off_site: list[str] = []
    malformed: list[str] = []
    relative: list[str] = []
    entries: list[SitemapEntry] = []
    children: list[str] = []
    seen: set[str] = set()
    for element in items:
        location = _child_text(element, "loc")
        if not location:
            warnings.append(f"sitemap {url}: an <{item}> without <loc> was left out")
            continue
        if not (well_formed(location) and site_of(location) in sites):
            if not well_formed(location):
                malformed.append(location)
            elif not urlsplit(location).scheme:
                relative.append(location)
            else:
                off_site.append(location)
            continue
        location = one_document(location)
        if location in seen:
            continue
        seen.add(location)
        if kind == "sitemapindex":
            children.append(location)
            continue
        raw = _child_text(element, "lastmod") or None
        lastmod = parse_lastmod(raw) if raw else None
        if raw and lastmod is None:
            warnings.append(
                f"sitemap {url}: {location}: lastmod {raw!r} is not a date from 1970 to 9999; ignored"
            )
        entries.append(SitemapEntry(location, lastmod, raw))
    if off_site:
        warnings.append(
            f"sitemap {url}: {len(off_site)} URL(s) on another scheme or host left out "
            f"(first: {off_site[0]})"
        )
    if malformed:
        warnings.append(
            f"sitemap {url}: {len(malformed)} malformed URL(s) left out (first: {malformed[0]})"
        )
    if relative:
        warnings.append(
            f"sitemap {url}: {len(relative)} relative URL(s) left out, where the protocol asks "
            f"for absolute ones (first: {relative[0]})"
        )
    return ParsedSitemap(
        url, kind == "sitemapindex", tuple(entries), tuple(children), tuple(warnings)
    )
