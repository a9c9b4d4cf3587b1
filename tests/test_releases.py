"""Release feeds read from bytes, and the choice and wording of the nearest release."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from spectrack.errors import ReleaseFeedError, StoreError
from spectrack.releases import (
    FeedSpec,
    RecordedFeed,
    Release,
    ReleaseBook,
    distance_words,
    duration_words,
    feeds_from_json,
    feeds_to_json,
    is_prerelease,
    merge_releases,
    nearest_release,
    parse_feed,
    parse_window,
)
from tests.feeds import atom, github_atom, npm_document, pypi_document, rss

EDIT = datetime(2025, 6, 18, 10, 0, tzinfo=UTC)
DAY = timedelta(hours=24)


def spec(kind: str, target: str | None = None, url: str = "https://feeds.test/doc") -> FeedSpec:
    return FeedSpec(kind, target, url)


def release(version: str, offset: timedelta, prerelease: bool | None = None) -> Release:
    """A release published ``offset`` from the edit."""
    pre = is_prerelease(version) if prerelease is None else prerelease
    return Release(version, EDIT + offset, f"https://example.org/{version}", pre)


def feed(
    *releases: Release, window: timedelta = DAY, label: str = "github acme/tool"
) -> RecordedFeed:
    return RecordedFeed(label.replace(" ", ":"), label, "https://feeds.test/doc", window, releases)


# -- parsing ------------------------------------------------------------------------------------


def test_github_versions_come_from_the_tag_in_the_link() -> None:
    data = github_atom(
        "acme/tool",
        [("v2.0.0", "2025-06-18T12:00:00Z"), ("v2.1.0-rc.1", "2025-06-20T08:30:00+02:00")],
    )
    parsed = parse_feed(data, spec("github", "acme/tool"))
    assert [(r.version, r.published, r.prerelease) for r in parsed.releases] == [
        ("v2.0.0", datetime(2025, 6, 18, 12, tzinfo=UTC), False),
        ("v2.1.0-rc.1", datetime(2025, 6, 20, 6, 30, tzinfo=UTC), True),
    ]
    assert parsed.releases[0].url == "https://github.com/acme/tool/releases/tag/v2.0.0"
    assert parsed.skipped == 0


def test_atom_prefers_published_and_keeps_only_web_links() -> None:
    data = atom(
        [
            ("1.0", "/releases/1.0", "2025-06-01T00:00:00Z", "2025-06-09T00:00:00Z"),
            ("1.1", "javascript:alert(1)", None, "2025-06-10T00:00:00Z"),
            ("1.2", None, None, None),
            ("1.3", "http://[::1/releases/1.3", None, "2025-06-11T00:00:00Z"),
        ]
    )
    parsed = parse_feed(data, spec("atom", url="https://news.test/feed.xml"))
    first, second, third = parsed.releases
    assert third.url is None, "nor a link that is no URL"
    assert first.published == datetime(2025, 6, 1, tzinfo=UTC), "published wins over updated"
    assert first.url == "https://news.test/releases/1.0", "relative links resolve"
    assert second.published == datetime(2025, 6, 10, tzinfo=UTC)
    assert second.url is None, "a javascript: link is never kept"
    assert parsed.skipped == 1


def test_rss_items_are_dated_by_pubdate() -> None:
    data = rss(
        [
            ("Tool 5.0", "https://example.org/5", "Wed, 18 Jun 2025 06:00:00 GMT"),
            ("Tool 5.1", "https://example.org/5.1", "Thu, 19 Jun 2025 08:00:00 +0200"),
        ]
    )
    parsed = parse_feed(data, spec("atom"))
    assert [(r.version, r.published) for r in parsed.releases] == [
        ("Tool 5.0", datetime(2025, 6, 18, 6, tzinfo=UTC)),
        ("Tool 5.1", datetime(2025, 6, 19, 6, tzinfo=UTC)),
    ]


def test_times_are_utc_and_those_before_1970_or_past_the_last_date_are_left_out() -> None:
    data = atom(
        [
            ("2.0", None, "2025-06-18T14:00:00+02:00", None),
            ("0.0", None, "0001-01-01T00:00:00Z", None),
            ("0.1", None, "1969-12-31T23:59:59Z", None),
            ("9.9", None, "9999-12-31T23:59:59-01:00", None),
            ("0.2", None, "0001-01-01T00:30:00+01:00", None),
        ]
    )
    parsed = parse_feed(data, spec("atom"))
    (only,) = parsed.releases
    assert (only.version, only.published) == ("2.0", datetime(2025, 6, 18, 12, tzinfo=UTC))
    assert only.published.tzinfo is UTC
    assert parsed.skipped == 4


def test_an_rss_date_with_a_year_past_any_date_is_left_out() -> None:
    data = rss(
        [
            ("Tool 5.0", "https://example.org/5", "Wed, 18 Jun 2025 06:00:00 GMT"),
            ("Tool 6.0", "https://example.org/6", "Fri, 31 Dec 99999999999999999999 23:59:59 GMT"),
            ("Tool 7.0", "https://example.org/7", "Fri, 31 Dec 9999 23:59:59 -0100"),
        ]
    )
    parsed = parse_feed(data, spec("atom"))
    assert [r.version for r in parsed.releases] == ["Tool 5.0"]
    assert parsed.skipped == 2


def test_a_title_wrapped_over_lines_is_a_version_on_one_line() -> None:
    data = rss(
        [
            (
                "\n   Tool 2.0:\n\t  faster\r\n sync  \n",
                "https://e.org/2",
                "Wed, 18 Jun 2025 06:00:00 GMT",
            )
        ]
    )
    (wrapped,) = parse_feed(data, spec("atom")).releases
    assert wrapped.version == "Tool 2.0: faster sync"
    tag = github_atom("acme/tool", [("v1%0A%20.2", "2025-06-18T12:00:00Z")])
    (tagged,) = parse_feed(tag, spec("github", "acme/tool")).releases
    assert tagged.version == "v1 .2", "an escaped line break in a tag is a space too"


def test_npm_reads_the_time_map_without_created_and_modified() -> None:
    data = npm_document(
        "@acme/sdk",
        {
            "3.1.0": "2025-06-17T09:30:00.000Z",
            "3.2.0-beta.1": "2025-06-18T10:10:00.000Z",
            "4.0.0": 7,
        },
    )
    parsed = parse_feed(data, spec("npm", "@acme/sdk"))
    assert [(r.version, r.prerelease) for r in parsed.releases] == [
        ("3.1.0", False),
        ("3.2.0-beta.1", True),
    ]
    assert parsed.releases[0].url == "https://www.npmjs.com/package/@acme/sdk/v/3.1.0"
    assert parsed.skipped == 1, "a version whose time is not a string is left out and counted"


def test_pypi_dates_a_version_by_its_first_upload() -> None:
    data = pypi_document(
        {
            "0.4.0": ["2025-06-19T10:00:00.000000Z", "2025-06-19T09:00:00.000000Z"],
            "0.5.0rc1": ["2025-06-25T00:00:00Z"],
            "0.3.0": [],
        }
    )
    parsed = parse_feed(data, spec("pypi", "acme-sdk"))
    assert [(r.version, r.published, r.prerelease) for r in parsed.releases] == [
        ("0.4.0", datetime(2025, 6, 19, 9, tzinfo=UTC), False),
        ("0.5.0rc1", datetime(2025, 6, 25, tzinfo=UTC), True),
    ]
    assert parsed.releases[0].url == "https://pypi.org/project/acme-sdk/0.4.0/"
    assert parsed.skipped == 1, "a version without files has no time"


def test_a_pypi_upload_time_that_is_no_string_is_left_out() -> None:
    document = {
        "info": {"name": "acme-sdk"},
        "releases": {
            "1.0": [{"upload_time_iso_8601": "2025-06-18T12:00:00Z"}],
            "1.1": [{"upload_time_iso_8601": 1750248000}],
            "1.2": [{"upload_time_iso_8601": ["2025-06-19T12:00:00Z"]}],
        },
    }
    parsed = parse_feed(json.dumps(document).encode(), spec("pypi", "acme-sdk"))
    assert [r.version for r in parsed.releases] == ["1.0"]
    assert parsed.skipped == 2


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        (
            "npm",
            rb'{"time": {"3.1.0\ud800": "2025-06-18T08:30:00Z", "3.2.0": "2025-06-19T08:30:00Z"}}',
        ),
        (
            "pypi",
            rb'{"releases": {"1.0\udc80": [{"upload_time": "2025-06-18T08:30:00"}],'
            rb' "1.1": [{"upload_time": "2025-06-19T08:30:00"}]}}',
        ),
    ],
)
def test_a_json_version_with_a_lone_surrogate_is_left_out(kind: str, data: bytes) -> None:
    """JSON may escape half of a UTF-16 pair (``\\ud800``): no text, no link, no record holds it."""
    feed_spec = spec(kind, "sdk")
    parsed = parse_feed(data, feed_spec)
    assert [r.version for r in parsed.releases] == ["3.2.0" if kind == "npm" else "1.1"]
    assert parsed.skipped == 1
    recorded = RecordedFeed(feed_spec.key, feed_spec.label, feed_spec.url, DAY, parsed.releases)
    assert feeds_from_json(feeds_to_json([recorded]), "record") == (recorded,)


@pytest.mark.parametrize(
    ("kind", "data", "fragment"),
    [
        ("github", b"<feed><entry>", "not well-formed XML"),
        (
            "atom",
            b'<!DOCTYPE feed [<!ENTITY big "xxxxxxxx">]><feed>&big;</feed>',
            "refused",
        ),
        ("atom", b"<html><body>Not a feed</body></html>", "neither an Atom <feed> nor an RSS"),
        ("npm", b"{not json", "not valid JSON"),
        ("npm", b"[1, 2]", "not a JSON object"),
        ("npm", b'{"name": "x"}', "no 'time' map"),
        ("pypi", b'{"info": {}}', "no 'releases' map"),
        ("pypi", pypi_document({"1.0": [], "1.1": []}), "none of its 2 entries"),
        ("atom", atom([("1.0", None, None, None)]), "none of its 1 entries"),
        (
            "atom",
            b"<?xml version='1.0' encoding='x-no-such-code'?><feed/>",
            "not readable XML (unknown encoding: x-no-such-code)",
        ),
        ("github", b"<?xml version='1.0' encoding='utf-32'?><feed/>", "not readable XML"),
        ("npm", b"[" * 100_000 + b"]" * 100_000, "JSON nested too deeply to be read"),
        ("pypi", b'{"releases": ' * 100_000 + b"{}" + b"}" * 100_000, "nested too deeply"),
    ],
)
def test_bad_documents_are_errors_naming_the_feed(kind: str, data: bytes, fragment: str) -> None:
    target = {"github": "acme/tool", "npm": "sdk", "pypi": "sdk", "atom": None}[kind]
    feed_spec = spec(kind, target)
    with pytest.raises(ReleaseFeedError) as error:
        parse_feed(data, feed_spec)
    message = str(error.value)
    assert message.startswith(f"release feed {feed_spec.label} (https://feeds.test/doc): ")
    assert fragment in message


def test_an_empty_feed_has_no_releases_and_is_no_error() -> None:
    assert parse_feed(github_atom("acme/tool", []), spec("github", "acme/tool")).releases == ()


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("1.2.3", False),
        ("v1.2.3", False),
        ("cli-v1.2.3", False),
        ("1.0.post1", False),
        ("1.0.0+build.7", False),
        ("1.0.0+sha.5114f8c", False),
        ("2.3.1+git.9e1a", False),
        ("1.0.0+20240101.1b.x", False),
        ("1.0.0-rc.1+sha.5114f8c", True),
        ("1.4.0rc1+local.7", True),
        ("2024.06", False),
        ("1.2.3-rc.1", True),
        ("v2.0.0-alpha", True),
        ("1.0.0-1", True),
        ("1.4.0rc1", True),
        ("2.0b3", True),
        ("1.0.dev2", True),
        ("3.1-alpha", True),
        ("0.9a1", True),
    ],
)
def test_prereleases_are_told_by_their_version(version: str, expected: bool) -> None:
    assert is_prerelease(version) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("24h", timedelta(hours=24)),
        ("90m", timedelta(minutes=90)),
        ("2d", timedelta(days=2)),
        ("1w", timedelta(weeks=1)),
        ("1d12h", timedelta(hours=36)),
        (" 45S ", timedelta(seconds=45)),
    ],
)
def test_windows_are_durations(text: str, expected: timedelta) -> None:
    assert parse_window(text) == expected


@pytest.mark.parametrize("text", ["", "24", "h", "24 hours", "1y", "0h", "-3h", "2h30"])
def test_bad_windows_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_window(text)


@pytest.mark.parametrize("text", ["1000000000d", "99999999999999d", "999999999d86400s"])
def test_windows_longer_than_any_time_span_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"is too long \(at most 999999999 days\)"):
        parse_window(text)


# -- the nearest release ------------------------------------------------------------------------


def test_a_release_exactly_one_window_away_counts_and_one_second_more_does_not() -> None:
    edge = release("1.0.0", -DAY)
    match = nearest_release([feed(edge)], EDIT)
    assert match is not None and match.release == edge
    assert match.delta_seconds == -86400 and match.distance == "1 day before"
    assert nearest_release([feed(release("1.0.0", DAY + timedelta(seconds=1)))], EDIT) is None
    after = nearest_release([feed(release("1.0.0", DAY))], EDIT)
    assert after is not None and after.distance == "1 day after"
    assert nearest_release([feed(release("1.0.0", -DAY - timedelta(seconds=1)))], EDIT) is None


def test_the_nearest_release_wins_before_or_after_the_edit() -> None:
    before, after = release("1.0.0", timedelta(hours=-3)), release("1.1.0", timedelta(hours=5))
    match = nearest_release([feed(before, after)], EDIT)
    assert match is not None and match.release == before and match.distance == "3 hours before"
    later = nearest_release([feed(before, after)], EDIT + timedelta(hours=2))
    assert later is not None and later.release == after and later.distance == "3 hours after"
    assert later.delta_seconds == 3 * 3600


def test_a_tie_goes_to_the_release_published_first() -> None:
    before, after = release("1.0.0", timedelta(hours=-2)), release("1.1.0", timedelta(hours=2))
    for order in ((before, after), (after, before)):
        match = nearest_release([feed(*order)], EDIT)
        assert match is not None and match.release == before


def test_a_tie_at_the_same_moment_goes_to_the_feed_configured_first() -> None:
    npm = feed(release("3.0.0", timedelta(hours=1)), label="npm sdk")
    pypi = feed(release("3.0.0.post0", timedelta(hours=1)), label="pypi sdk")
    first = nearest_release([npm, pypi], EDIT)
    assert first is not None and first.feed == "npm sdk"
    second = nearest_release([pypi, npm], EDIT)
    assert second is not None and second.feed == "pypi sdk"


def test_a_final_release_wins_over_a_nearer_prerelease() -> None:
    candidate = release("2.0.0-rc.1", timedelta(minutes=10))
    final = release("1.9.0", timedelta(hours=-20))
    match = nearest_release([feed(candidate, final)], EDIT)
    assert match is not None and match.release == final
    alone = nearest_release([feed(candidate, release("1.8.0", -2 * DAY))], EDIT)
    assert alone is not None and alone.release == candidate, (
        "a pre-release shows when no final does"
    )
    assert alone.note == "pre-release 2.0.0-rc.1 came out under an hour after the edit"


def test_no_release_near_the_edit_gives_none() -> None:
    assert nearest_release([], EDIT) is None
    assert nearest_release([feed()], EDIT) is None
    assert (
        nearest_release([feed(release("1.0.0", -3 * DAY), release("2.0.0", 3 * DAY))], EDIT) is None
    )


def test_each_feed_has_its_own_window() -> None:
    narrow = feed(release("1.0.0", timedelta(hours=2)), window=timedelta(hours=1), label="npm a")
    wide = feed(release("7.0.0", timedelta(hours=30)), window=timedelta(days=2), label="pypi b")
    match = nearest_release([narrow, wide], EDIT)
    assert match is not None and match.release.version == "7.0.0" and match.feed == "pypi b"


def test_feeds_no_longer_configured_are_not_shown() -> None:
    retired = RecordedFeed(
        "npm:a",
        "npm a",
        "https://x.test",
        DAY,
        (release("1.0.0", timedelta(hours=1)),),
        configured=False,
    )
    assert nearest_release([retired], EDIT) is None


def test_the_book_answers_per_source() -> None:
    book = ReleaseBook({"mcp": [feed(release("1.0.0", timedelta(hours=1)))], "other": []})
    match = book.nearest("mcp", EDIT)
    assert match is not None and match.release.version == "1.0.0"
    assert book.nearest("other", EDIT) is None
    assert book.nearest("unknown", EDIT) is None


# -- wording ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("delta", "words"),
    [
        (timedelta(0), "at the same time as"),
        (timedelta(minutes=59, seconds=59), "under an hour after"),
        (timedelta(minutes=-1), "under an hour before"),
        (timedelta(hours=-1), "1 hour before"),
        (timedelta(hours=5, minutes=30), "5 hours after"),
        (timedelta(hours=23, minutes=59), "23 hours after"),
        (timedelta(hours=-24), "1 day before"),
        (timedelta(hours=47), "1 day after"),
        (timedelta(days=-3, hours=-2), "3 days before"),
    ],
)
def test_distances_in_words(delta: timedelta, words: str) -> None:
    assert distance_words(delta) == words


@pytest.mark.parametrize(
    ("span", "words"),
    [
        (timedelta(hours=24), "24 hours"),
        (timedelta(hours=1), "1 hour"),
        (timedelta(days=3), "3 days"),
        (timedelta(minutes=90), "90 minutes"),
        (timedelta(seconds=45), "45 seconds"),
    ],
)
def test_windows_in_words(span: timedelta, words: str) -> None:
    assert duration_words(span) == words


def test_the_line_names_the_release_the_distance_and_what_it_does_not_mean() -> None:
    match = nearest_release([feed(release("v2.0.0", timedelta(hours=5)))], EDIT)
    assert match is not None
    assert match.line == (
        "Nearest release: v2.0.0 (github acme/tool), published 5 hours after this edit. It is "
        "shown only because the two fall within 24 hours of each other; nothing suggests that "
        "one caused the other."
    )
    assert match.to_json() == {
        "version": "v2.0.0",
        "published": "2025-06-18T15:00:00Z",
        "url": "https://example.org/v2.0.0",
        "delta_seconds": 18000,
    }


# -- recording ----------------------------------------------------------------------------------


def test_merging_adds_new_versions_and_never_rewrites_recorded_ones() -> None:
    recorded = (release("1.0.0", timedelta(hours=-5)),)
    redated = Release("1.0.0", EDIT, "https://elsewhere.test", False)
    new = Release("1.1.0", EDIT + timedelta(hours=1, microseconds=500), None, False)
    merged, added = merge_releases(recorded, [new, redated])
    assert added == 1
    assert merged == (recorded[0], Release("1.1.0", EDIT + timedelta(hours=1), None, False))


def test_records_round_trip_and_damage_is_a_store_error() -> None:
    feeds = (
        feed(release("1.0.0", timedelta(hours=1)), release("2.0.0-rc.1", DAY)),
        RecordedFeed(
            "atom:x", "atom x", "https://x.test", timedelta(hours=6), configured=False, etag='"e"'
        ),
    )
    data = feeds_to_json(feeds)
    assert feeds_from_json(data, "r.json") == feeds
    assert feeds_to_json(feeds_from_json(data, "r.json")) == data, "same feeds, same bytes"
    with pytest.raises(StoreError, match=r"r\.json: unreadable release record"):
        feeds_from_json(b'{"feeds": [{"key": "x"}]}', "r.json")


def test_a_release_before_the_year_1000_is_recorded_so_that_it_reads_back() -> None:
    early = feed(Release("0.1", datetime(999, 3, 4, 5, 6, 7, tzinfo=UTC), None, False))
    data = feeds_to_json([early])
    assert b'"published": "0999-03-04T05:06:07Z"' in data
    assert feeds_from_json(data, "r.json") == (early,)


def _damaged(change: str, value: object) -> bytes:
    """A good record with one value replaced: ``change`` is where, as a path of keys."""
    record = json.loads(feeds_to_json([feed(release("1.0.0", timedelta(hours=1)))]))
    where = record
    *path, last = change.split("/")
    for step in path:
        where = where[int(step)] if step.isdigit() else where[step]
    where[last] = value
    return json.dumps(record).encode()


@pytest.mark.parametrize(
    ("change", "value"),
    [
        ("feeds/0/releases/0/published", "2025-06-18T11:00:00"),
        ("feeds/0/releases/0/published", "2025-06-18"),
        ("feeds/0/releases/0/published", 1750244400),
        ("feeds/0/window_seconds", 10**20),
        ("feeds/0/window_seconds", 1e300),
        ("feeds/0/key", ["github", "acme/tool"]),
        ("feeds/0/etag", 7),
        ("feeds/0/releases/0/url", {"href": "https://example.org"}),
        ("feeds/0/releases/0/version", "1.0.0\ud800"),
        ("feeds/0/label", "github \udc80"),
        ("feeds/0/etag", '"\ud800"'),
    ],
)
def test_a_record_of_the_right_syntax_but_wrong_values_is_a_store_error(
    change: str, value: object
) -> None:
    with pytest.raises(StoreError, match=r"^r\.json: unreadable release record \("):
        feeds_from_json(_damaged(change, value), "r.json")


def test_a_record_nested_too_deeply_to_be_read_is_a_store_error() -> None:
    with pytest.raises(StoreError, match=r"^r\.json: unreadable release record \(RecursionError"):
        feeds_from_json(b'{"feeds": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "r.json")


def test_a_recorded_time_is_read_in_utc_and_refused_when_utc_has_no_such_date() -> None:
    late = _damaged("feeds/0/releases/0/published", "9999-12-31T22:00:00-01:00")
    (read,) = feeds_from_json(late, "r.json")
    assert read.releases[0].published == datetime(9999, 12, 31, 23, tzinfo=UTC)
    assert read.releases[0].published.tzinfo is UTC
    beyond = _damaged("feeds/0/releases/0/published", "9999-12-31T23:59:59-01:00")
    with pytest.raises(StoreError, match="unreadable release record"):
        feeds_from_json(beyond, "r.json")
