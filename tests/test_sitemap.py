import gzip
from datetime import UTC, datetime, timedelta, timezone

import pytest

from spectrack.dates import Precision, parse_lastmod, parse_when
from spectrack.errors import InputError, SitemapError
from spectrack.serve import sitemap_xml
from spectrack.sitemap import MAX_URLS, parse_sitemap, same_site

BASE = "https://docs.example.org/sitemap.xml"


@pytest.mark.parametrize(
    ("raw", "expected", "precision"),
    [
        ("2025-06-18", datetime(2025, 6, 18, tzinfo=UTC), Precision.DAY),
        ("2025-06", datetime(2025, 6, 1, tzinfo=UTC), Precision.MONTH),
        ("2025", datetime(2025, 1, 1, tzinfo=UTC), Precision.YEAR),
        ("2025-06-18T10:20Z", datetime(2025, 6, 18, 10, 20, tzinfo=UTC), Precision.SECOND),
        ("2025-06-18T10:20:30Z", datetime(2025, 6, 18, 10, 20, 30, tzinfo=UTC), Precision.SECOND),
        (
            "2025-06-18T10:20:30.123456789+02:00",
            datetime(2025, 6, 18, 10, 20, 30, 123456, tzinfo=timezone(timedelta(hours=2))),
            Precision.SECOND,
        ),
        (
            "2025-06-18T10:20:30-0530",
            datetime(2025, 6, 18, 10, 20, 30, tzinfo=timezone(-timedelta(hours=5, minutes=30))),
            Precision.SECOND,
        ),
        ("2025-06-18 10:20:30", datetime(2025, 6, 18, 10, 20, 30, tzinfo=UTC), Precision.SECOND),
        (
            "  2025-06-18T10:20:30  ",
            datetime(2025, 6, 18, 10, 20, 30, tzinfo=UTC),
            Precision.SECOND,
        ),
    ],
)
def test_every_lastmod_form(raw: str, expected: datetime, precision: Precision) -> None:
    parsed = parse_lastmod(raw)
    assert parsed is not None
    assert parsed.time == expected
    assert parsed.time.utcoffset() == expected.utcoffset()
    assert parsed.precision is precision
    assert parsed.raw == raw


@pytest.mark.parametrize(
    "raw", ["", "yesterday", "2025-13-01", "2025-02-30", "2025-06-18T25:00", "18/06/2025"]
)
def test_invalid_lastmod_is_none(raw: str) -> None:
    assert parse_lastmod(raw) is None


@pytest.mark.parametrize(
    "raw",
    [
        "1969-12-31",
        "1900-01-01T00:00:00Z",
        "0001-01-01",
        "1970-01-01T00:30:00+01:00",
        "9999-12-31T23:59:59-12:00",
        "9999-12-31T12:00:00-13:00",
    ],
)
def test_lastmod_outside_1970_to_9999_in_utc_is_unusable(raw: str) -> None:
    assert parse_lastmod(raw) is None
    parsed = parse_sitemap(sitemap_xml({"https://docs.example.org/old": raw}), BASE)
    assert parsed.entries[0].lastmod is None and parsed.entries[0].lastmod_raw == raw
    assert any(f"{raw!r} is not a date from 1970 to 9999; ignored" in w for w in parsed.warnings)
    assert parse_lastmod("1970-01-01") is not None
    assert parse_lastmod("9999-12-31T23:59:59+01:00") is not None


def test_command_line_dates() -> None:
    now = datetime(2025, 6, 18, 12, tzinfo=UTC)
    assert parse_when("2025-06-01", now) == datetime(2025, 6, 1, tzinfo=UTC)
    assert parse_when("3d", now) == now - timedelta(days=3)
    assert parse_when("12h", now) == now - timedelta(hours=12)
    assert parse_when("1969-07-20", now) == datetime(1969, 7, 20, tzinfo=UTC)
    with pytest.raises(InputError, match="not a date"):
        parse_when("last tuesday", now)
    with pytest.raises(InputError, match="further back than any date"):
        parse_when("99999999d", now)


def test_urlset_with_lastmods_and_warnings() -> None:
    data = sitemap_xml(
        {
            "https://docs.example.org/a": "2025-06-18",
            "https://docs.example.org/b": None,
            "https://docs.example.org/c": "soon",
            "http://docs.example.org/insecure": None,
            "https://evil.example.net/x": None,
        }
    )
    parsed = parse_sitemap(data, BASE)
    assert not parsed.is_index
    assert [e.url for e in parsed.entries] == [
        "https://docs.example.org/a",
        "https://docs.example.org/b",
        "https://docs.example.org/c",
    ]
    a, b, c = parsed.entries
    assert a.lastmod is not None and a.lastmod.precision is Precision.DAY
    assert b.lastmod is None and b.lastmod_raw is None
    assert c.lastmod is None and c.lastmod_raw == "soon"
    assert any("'soon' is not a date" in w for w in parsed.warnings)
    assert any("2 URL(s) on another scheme or host" in w for w in parsed.warnings)


def test_malformed_urls_are_left_out_with_a_warning() -> None:
    data = sitemap_xml(
        {
            "https://docs.example.org/kept": None,
            "https://[::1/unclosed": None,
            "https://[fe80::1/other": None,
        }
    )
    parsed = parse_sitemap(data, BASE)
    assert [e.url for e in parsed.entries] == ["https://docs.example.org/kept"]
    assert parsed.warnings == (
        f"sitemap {BASE}: 2 malformed URL(s) left out (first: https://[::1/unclosed)",
    )


def test_one_document_under_several_urls_is_one_entry() -> None:
    """A fragment or dot segments name the document the plain URL names: one page, not three."""
    data = sitemap_xml(
        {
            "https://docs.example.org/spec/tools": None,
            "https://docs.example.org/spec/tools#errors": None,
            "https://docs.example.org/guide/../spec/./tools": None,
            "https://docs.example.org/spec/tools?lang=en#top": None,
            "https://docs.example.org/.well-known/spec": None,
        }
    )
    parsed = parse_sitemap(data, BASE)
    assert [e.url for e in parsed.entries] == [
        "https://docs.example.org/spec/tools",
        "https://docs.example.org/spec/tools?lang=en",
        "https://docs.example.org/.well-known/spec",
    ]


def test_relative_urls_are_left_out_as_relative_not_as_another_host() -> None:
    data = sitemap_xml({"https://docs.example.org/kept": None, "/spec/tools": None})
    parsed = parse_sitemap(data, BASE)
    assert [e.url for e in parsed.entries] == ["https://docs.example.org/kept"]
    assert parsed.warnings == (
        f"sitemap {BASE}: 1 relative URL(s) left out, where the protocol asks for absolute ones "
        "(first: /spec/tools)",
    )


def test_gzip_is_recognised_by_its_magic_bytes() -> None:
    data = sitemap_xml({"https://docs.example.org/a": None})
    parsed = parse_sitemap(gzip.compress(data), BASE)
    assert [e.url for e in parsed.entries] == ["https://docs.example.org/a"]


def test_sitemap_index_lists_same_site_children_only() -> None:
    data = b"""<?xml version="1.0"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://docs.example.org/s1.xml</loc><lastmod>2025-01-01</lastmod></sitemap>
  <sitemap><loc>https://docs.example.org/s2.xml.gz</loc></sitemap>
  <sitemap><loc>https://elsewhere.example.net/s3.xml</loc></sitemap>
</sitemapindex>"""
    parsed = parse_sitemap(data, BASE)
    assert parsed.is_index
    assert parsed.children == (
        "https://docs.example.org/s1.xml",
        "https://docs.example.org/s2.xml.gz",
    )
    assert parsed.warnings


def test_sitemap_without_namespace_is_read() -> None:
    data = b"<urlset><url><loc>https://docs.example.org/a</loc></url></urlset>"
    assert len(parse_sitemap(data, BASE).entries) == 1


def test_more_than_50000_urls_is_refused() -> None:
    entries = {f"https://docs.example.org/p{i}": None for i in range(MAX_URLS + 1)}
    with pytest.raises(SitemapError, match="50,001 entries, more than the protocol's 50,000"):
        parse_sitemap(sitemap_xml(entries), BASE)


def test_exactly_50000_urls_is_fine() -> None:
    entries = {f"https://docs.example.org/p{i}": None for i in range(MAX_URLS)}
    assert len(parse_sitemap(sitemap_xml(entries), BASE).entries) == MAX_URLS


def test_gzip_bomb_sitemap_stops_at_50_mb() -> None:
    head = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    bomb = gzip.compress(head + b" " * (51 * 1024 * 1024) + b"</urlset>", 9)
    assert len(bomb) < 100_000
    with pytest.raises(SitemapError, match="larger than the protocol's 50 MB"):
        parse_sitemap(bomb, BASE)


def test_malformed_xml_is_a_sitemap_error() -> None:
    with pytest.raises(SitemapError, match="not well-formed XML"):
        parse_sitemap(b"<urlset><url><loc>https://docs.example.org/a</url></urlset>", BASE)


def test_html_is_not_a_sitemap() -> None:
    with pytest.raises(SitemapError, match="root element <html>"):
        parse_sitemap(b"<html><body>Not found</body></html>", BASE)


def test_entity_expansion_is_refused() -> None:
    laughs = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<urlset><url><loc>https://docs.example.org/&lol3;</loc></url></urlset>"""
    with pytest.raises(SitemapError, match="refused"):
        parse_sitemap(laughs, BASE)


def test_external_entity_is_refused(tmp_path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    xxe = f"""<?xml version="1.0"?>
<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file://{secret}">]>
<urlset><url><loc>https://docs.example.org/&xxe;</loc></url></urlset>""".encode()
    with pytest.raises(SitemapError, match="refused") as error:
        parse_sitemap(xxe, BASE)
    assert "top secret" not in str(error.value)


def test_a_default_port_written_out_names_the_same_site() -> None:
    """``https://x:443/a`` is ``https://x/a``: neither another host nor another page."""
    data = sitemap_xml(
        {
            "https://docs.example.org:443/a": None,
            "https://docs.example.org/a": None,
            "https://DOCS.example.org:443/b": None,
            "https://docs.example.org:8443/c": None,
        }
    )
    parsed = parse_sitemap(data, BASE)
    assert [e.url for e in parsed.entries] == [
        "https://docs.example.org/a",
        "https://DOCS.example.org/b",
    ]
    assert parsed.warnings == (
        f"sitemap {BASE}: 1 URL(s) on another scheme or host left out "
        "(first: https://docs.example.org:8443/c)",
    )
    plain = sitemap_xml({"http://docs.example.org/a": None, "http://docs.example.org:80/b": None})
    listed = parse_sitemap(plain, "http://docs.example.org:80/sitemap.xml").entries
    assert [e.url for e in listed] == ["http://docs.example.org/a", "http://docs.example.org/b"]
    assert same_site("https://docs.example.org:443/a", "https://docs.example.org/")
    assert not same_site("http://docs.example.org:443/a", "https://docs.example.org/")
