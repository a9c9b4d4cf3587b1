"""Release feeds fetched from a local server into a real snapshot store."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from spectrack.config import Config, FetchConfig, SourceConfig, StoreConfig
from spectrack.errors import ConfigError
from spectrack.progress import SilentProgress
from spectrack.releaserun import ReleasesSummary, releases_summary_lines, run_releases
from spectrack.releases import FeedSpec, RecordedFeed, ReleaseBook, load_feeds, release_path
from spectrack.serve import LocalSite, Reply
from spectrack.store import Store
from spectrack.track import run_fetch
from tests.conftest import RecordingSleep, StepClock
from tests.feeds import (
    atom,
    github_atom,
    npm_document,
    publish_good_feeds,
    pypi_document,
    serve,
    specs,
)
from tests.storecheck import assert_consistent, git, head

FAST = FetchConfig(timeout=0.5, retries=1, backoff=0.01, user_agent="spectrack-test")


def make_config(site: LocalSite, store: Path, feeds: tuple[FeedSpec, ...]) -> Config:
    source = SourceConfig("spec", site.url("/sitemap.xml"), markdown="{url}.md", releases=feeds)
    return Config(store=StoreConfig(path=store, lock_wait=0.5), sources=(source,), fetch=FAST)


def releases(config: Config) -> ReleasesSummary:
    return run_releases(config, clock=StepClock(), sleep=RecordingSleep())


def recorded(store: Path) -> tuple[RecordedFeed, ...]:
    with Store.open(store) as opened:
        return load_feeds(opened, "spec")


def recorded_versions(store: Path) -> dict[str, list[str]]:
    return {f.label: [r.version for r in f.releases] for f in recorded(store)}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "snapshots"


GOOD = {
    "github acme/tool": ["v1.9.0", "v2.0.0"],
    "npm @acme/sdk": ["3.1.0", "3.2.0-beta.1"],
    "pypi acme-sdk": ["0.4.0"],
    f"atom {'{url}'}": ["Tool 5.0 is out"],
}


def good_versions(site: LocalSite) -> dict[str, list[str]]:
    return {label.replace("{url}", site.url("/news.xml")): v for label, v in GOOD.items()}


def test_every_kind_is_fetched_and_recorded_in_one_commit(site: LocalSite, store: Path) -> None:
    publish_good_feeds(site)
    config = make_config(site, store, specs(site))
    summary = releases(config)
    assert summary.ok and summary.messages == []
    assert releases_summary_lines(summary) == [
        "spec: github acme/tool: 2 recorded, 2 new",
        "spec: npm @acme/sdk: 2 recorded, 2 new",
        "spec: pypi acme-sdk: 1 recorded, 1 new",
        f"spec: atom {site.url('/news.xml')}: 1 recorded, 1 new",
    ]
    assert recorded_versions(store) == good_versions(site)
    log = git(store, "log", "--format=%s%n%b", "-1")
    assert log.startswith("Record releases of spec\n") and "Spectrack-Event: releases" in log
    assert_consistent(store)
    with Store.open(store) as opened:
        assert opened.revisions() == [], "a release record is not a page revision"
        book = ReleaseBook.load(opened)
    assert list(book.feeds) == ["spec"], "a source's releases count before any page is fetched"
    match = book.nearest("spec", datetime(2025, 6, 18, 10, tzinfo=UTC))
    assert match is not None and match.release.version == "v2.0.0"
    assert (store / release_path("spec")).is_file(), "the record is checked out for people"


def test_a_rerun_with_nothing_new_commits_nothing_and_asks_conditionally(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    config = make_config(site, store, specs(site))
    releases(config)
    before = head(store)
    site.requests.clear()
    served = site.routes["/gh/releases.atom"]
    asked: list[str | None] = []

    def github(handler: BaseHTTPRequestHandler) -> Reply:
        asked.append(handler.headers.get("If-None-Match"))
        assert isinstance(served, Reply)
        return served

    site.routes["/gh/releases.atom"] = github
    again = releases(config)
    assert again.ok and [f.added for f in again.feeds] == [0, 0, 0, 0]
    assert head(store) == before, "same releases, same bytes: no commit"
    assert len(site.requests) == 4, "one request per feed"
    assert asked == ['"gh-1"'], "the recorded ETag makes the request conditional"
    gh = next(f for f in again.feeds if f.feed == "github acme/tool")
    assert gh.recorded == 2


def test_bad_feeds_are_warnings_that_keep_what_was_recorded(site: LocalSite, store: Path) -> None:
    publish_good_feeds(site)
    config = make_config(site, store, specs(site))
    releases(config)
    before = head(store)
    serve(site, "/gh/releases.atom", b"<feed><entry><title>cut", "application/atom+xml")
    serve(site, "/npm/sdk", b'{"name": "@acme/sdk", "time": ', "application/json")
    serve(site, "/pypi/acme-sdk/json", pypi_document({"0.5.0": []}), "application/json")
    del site.routes["/news.xml"]
    summary = releases(config)
    assert not summary.ok and len(summary.failures) == 4
    messages = summary.messages
    assert messages[0].startswith(
        f"release feed github acme/tool ({site.url('/gh/releases.atom')}): not well-formed XML"
    )
    assert messages[0].endswith("; the 2 releases recorded before are kept")
    assert "release feed npm @acme/sdk" in messages[1] and "not valid JSON" in messages[1]
    assert "release feed pypi acme-sdk" in messages[2] and "none of its 1 entries" in messages[2]
    assert messages[2].endswith("; the 1 release recorded before is kept")
    assert messages[3].startswith(f"release feed atom {site.url('/news.xml')}") and (
        "HTTP 404" in messages[3]
    )
    assert releases_summary_lines(summary)[0] == "spec: github acme/tool: 2 recorded, not read"
    assert recorded_versions(store) == good_versions(site)
    assert head(store) == before, "nothing recorded was rewritten"
    assert_consistent(store, [before])


def test_a_releases_web_page_given_as_a_feed_is_named_an_html_page(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    page = b"<!doctype html>\n<html><body><h1>Kettle releases</h1></body></html>\n"
    serve(site, "/news.xml", page, "text/html")
    serve(site, "/npm/sdk", page, "text/html")
    summary = releases(make_config(site, store, specs(site)))
    assert summary.messages == [
        f"release feed npm @acme/sdk ({site.url('/npm/sdk')}): served an HTML page, not the "
        "feed; `url` must name the feed's document; no release was recorded before",
        f"release feed atom {site.url('/news.xml')} ({site.url('/news.xml')}): served an HTML "
        "page, not the feed; `url` must name the feed's document; no release was recorded before",
    ]


def test_documents_that_cannot_be_decoded_fail_alone_and_the_other_feeds_are_recorded(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    serve(site, "/news.xml", b"<?xml version='1.0' encoding='x-made-up'?><feed/>", "text/xml")
    serve(site, "/npm/sdk", b"[" * 50_000 + b"]" * 50_000, "application/json")
    summary = releases(make_config(site, store, specs(site)))
    assert [f.feed for f in summary.failures] == [
        "npm @acme/sdk",
        f"atom {site.url('/news.xml')}",
    ]
    assert summary.messages == [
        f"release feed npm @acme/sdk ({site.url('/npm/sdk')}): JSON nested too deeply to be "
        "read; no release was recorded before",
        f"release feed atom {site.url('/news.xml')} ({site.url('/news.xml')}): not readable XML "
        "(unknown encoding: x-made-up); no release was recorded before",
    ]
    versions = recorded_versions(store)
    assert versions["github acme/tool"] == ["v1.9.0", "v2.0.0"]
    assert versions["pypi acme-sdk"] == ["0.4.0"]


def test_entries_dated_before_1970_or_past_the_last_date_are_left_out_with_a_warning(
    site: LocalSite, store: Path
) -> None:
    serve(
        site,
        "/news.xml",
        atom(
            [
                ("2.0", None, None, "2025-06-18T12:00:00Z"),
                ("placeholder", None, None, "0001-01-01T00:00:00Z"),
                ("far", None, None, "9999-12-31T23:59:59-01:00"),
            ]
        ),
        "application/atom+xml",
    )
    summary = releases(make_config(site, store, (specs(site)[3],)))
    assert summary.ok and [f.added for f in summary.feeds] == [1]
    assert summary.messages == [
        f"release feed atom {site.url('/news.xml')} ({site.url('/news.xml')}): 2 entries "
        "without a version or a readable publish time left out"
    ]
    (feed,) = recorded(store)
    assert [(r.version, r.published) for r in feed.releases] == [
        ("2.0", datetime(2025, 6, 18, 12, tzinfo=UTC))
    ]


def test_a_feed_failing_on_first_run_is_recorded_empty_and_the_others_are_kept(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    site.routes["/npm/sdk"] = Reply(500, b"down")
    sleep = RecordingSleep()
    summary = run_releases(make_config(site, store, specs(site)), clock=StepClock(), sleep=sleep)
    (failure,) = summary.failures
    assert failure.feed == "npm @acme/sdk" and failure.error is not None
    assert "HTTP 500 (gave up after 2 attempts); no release was recorded before" in failure.error
    assert failure.error.startswith(f"release feed npm @acme/sdk ({site.url('/npm/sdk')}): HTTP")
    assert sleep.delays == [0.01], "retried like a page, with backoff"
    versions = recorded_versions(store)
    assert versions["npm @acme/sdk"] == [] and versions["github acme/tool"] == ["v1.9.0", "v2.0.0"]


def test_new_releases_merge_with_those_the_feed_no_longer_lists(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    config = make_config(site, store, specs(site))
    releases(config)
    serve(
        site,
        "/gh/releases.atom",
        github_atom(
            "acme/tool", [("v2.1.0", "2025-07-01T00:00:00Z"), ("v2.0.0", "2025-07-09T00:00:00Z")]
        ),
        "application/atom+xml",
        etag='"gh-2"',
    )
    summary = releases(config)
    assert [f.added for f in summary.feeds] == [1, 0, 0, 0]
    gh = recorded(store)[0]
    assert [r.version for r in gh.releases] == ["v1.9.0", "v2.0.0", "v2.1.0"]
    assert gh.releases[1].published == datetime(2025, 6, 18, 12, tzinfo=UTC), "never re-dated"
    assert gh.etag == '"gh-2"'


def test_a_feed_left_out_of_the_configuration_stays_recorded_but_is_not_shown(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    feeds = specs(site)
    releases(make_config(site, store, feeds))
    summary = releases(make_config(site, store, feeds[2:]))
    assert releases_summary_lines(summary)[2:] == [
        "spec: github acme/tool: 2 recorded, no longer configured (kept, not shown)",
        "spec: npm @acme/sdk: 2 recorded, no longer configured (kept, not shown)",
    ]
    assert summary.ok
    again = releases(make_config(site, store, feeds[2:]))
    assert [feed.retired for feed in again.feeds] == [False, False], "said once, when it happens"
    feeds_now = recorded(store)
    assert [(f.label, f.configured) for f in feeds_now] == [
        ("pypi acme-sdk", True),
        (f"atom {site.url('/news.xml')}", True),
        ("github acme/tool", False),
        ("npm @acme/sdk", False),
    ]
    assert [r.version for r in feeds_now[2].releases] == ["v1.9.0", "v2.0.0"]
    book = ReleaseBook({"spec": feeds_now})
    match = book.nearest("spec", datetime(2025, 6, 18, 12, tzinfo=UTC))
    assert match is not None and match.feed != "github acme/tool"


def test_a_repository_written_in_another_letter_case_keeps_its_recorded_feed(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    feeds = specs(site)
    releases(make_config(site, store, feeds))
    recased = (replace(feeds[0], target="Acme/Tool"), *feeds[1:])
    summary = releases(make_config(site, store, recased))
    assert releases_summary_lines(summary)[0] == "spec: github Acme/Tool: 2 recorded, 0 new"
    assert len(summary.feeds) == 4, "no feed is retired: it is the same repository"
    github, *_ = recorded(store)
    assert (github.key, github.label, github.configured) == (
        "github:acme/tool",
        "github Acme/Tool",
        True,
    ), "the recorded key stays as it was first written"
    assert [r.version for r in github.releases] == ["v1.9.0", "v2.0.0"]
    assert_consistent(store)


def test_a_changed_window_is_recorded_even_when_the_feed_is_down(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    feeds = specs(site)
    releases(make_config(site, store, feeds))
    site.routes.clear()
    wider = (replace(feeds[0], window=feeds[0].window * 3),)
    assert not releases(make_config(site, store, wider)).ok
    gh = recorded(store)[0]
    assert gh.window == feeds[0].window * 3 and len(gh.releases) == 2


def test_no_feeds_configured_is_a_configuration_error(site: LocalSite, store: Path) -> None:
    with pytest.raises(ConfigError, match=r"no \[\[source.releases\]\] configured for spec"):
        releases(make_config(site, store, ()))
    assert not store.exists(), "a configuration error creates no store"


def test_taking_out_the_last_feeds_of_a_source_stops_showing_their_releases(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    releases(make_config(site, store, specs(site)))
    before = head(store)
    site.requests.clear()
    summary = releases(make_config(site, store, ()))
    assert summary.ok and [feed.retired for feed in summary.feeds] == [True] * 4
    assert [line.split(": ", 1)[1] for line in releases_summary_lines(summary)] == [
        f"{label}: {len(versions)} recorded, no longer configured (kept, not shown)"
        for label, versions in good_versions(site).items()
    ]
    assert site.requests == [], "no feed is configured, so none is fetched"
    feeds_now = recorded(store)
    assert [f.configured for f in feeds_now] == [False] * 4
    assert recorded_versions(store) == good_versions(site), "their releases stay recorded"
    assert git(store, "log", "--format=%s", f"{before}..") == "Record releases of spec\n"
    with Store.open(store) as opened:
        assert (
            ReleaseBook.load(opened).nearest("spec", datetime(2025, 6, 18, 12, tzinfo=UTC)) is None
        )
    with pytest.raises(ConfigError, match="nothing to fetch"):
        releases(make_config(site, store, ()))
    releases(make_config(site, store, specs(site)[:1]))
    assert [f.configured for f in recorded(store)] == [True, False, False, False], "back again"


V1 = {"/spec/tools": b"# Tools\n\nServers SHOULD validate input.\n"}
V2 = {"/spec/tools": b"# Tools\n\nServers MUST validate input.\n"}


def test_fetch_refreshes_releases_and_a_bad_feed_does_not_fail_it(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    site.routes["/npm/sdk"] = Reply(200, npm_document("@acme/sdk", {"3.1.0": "yesterday"}))
    pages = dict(site.routes)
    site.publish(V1, lastmod="2025-06-17T00:00:00Z")
    site.routes.update(pages)
    config = make_config(site, store, specs(site))
    progress = SilentProgress()
    summary = run_fetch(config, clock=StepClock(), sleep=RecordingSleep(), progress=progress)
    assert summary.ok, "a bad feed never fails a fetch"
    assert len(progress.warnings) == 1
    assert progress.warnings[0].startswith(f"release feed npm @acme/sdk ({site.url('/npm/sdk')})")
    versions = recorded_versions(store)
    assert versions["github acme/tool"] == ["v1.9.0", "v2.0.0"] and versions["npm @acme/sdk"] == []
    site.publish(V2, lastmod="2025-06-18T10:00:00Z")
    site.routes.update(pages)
    run_fetch(config, clock=StepClock(), sleep=RecordingSleep())
    with Store.open(store) as opened:
        latest = opened.history("spec/spec/tools")[-1]
        match = ReleaseBook.load(opened).nearest(latest.source, latest.upstream_time)
    assert match is not None
    assert (match.release.version, match.distance) == ("v2.0.0", "2 hours after")
    assert_consistent(store)


def test_fetch_marks_the_feeds_of_a_source_left_without_any_as_no_longer_configured(
    site: LocalSite, store: Path
) -> None:
    publish_good_feeds(site)
    pages = dict(site.routes)
    site.publish(V1, lastmod="2025-06-17T00:00:00Z")
    site.routes.update(pages)
    run_fetch(make_config(site, store, specs(site)), clock=StepClock(), sleep=RecordingSleep())
    assert [f.configured for f in recorded(store)] == [True] * 4
    run_fetch(make_config(site, store, ()), clock=StepClock(), sleep=RecordingSleep())
    assert [f.configured for f in recorded(store)] == [False] * 4
    assert recorded_versions(store) == good_versions(site)
    assert_consistent(store)


def test_a_damaged_record_is_left_as_it_is(site: LocalSite, store: Path) -> None:
    publish_good_feeds(site)
    with Store.create(store) as created, created.writer(StepClock()) as writer:
        writer.record_file(release_path("spec"), b'{"feeds": [{', "Damage", {"Event": "releases"})
    before = head(store)
    summary = releases(make_config(site, store, specs(site)))
    assert len(summary.failures) == 4
    assert all("unreadable release record" in message for message in summary.messages)
    assert site.requests == [], "nothing is fetched for a record that cannot be merged into"
    assert head(store) == before
    assert (store / release_path("spec")).read_bytes() == b'{"feeds": [{'


EDIT = datetime(2025, 6, 18, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("times", "expected"),
    [
        ({"1.0.0": "2025-06-17T10:00:00Z"}, ("1.0.0", "1 day before", -86400)),
        ({"1.0.0": "2025-06-19T10:00:00Z"}, ("1.0.0", "1 day after", 86400)),
        ({"1.0.0": "2025-06-19T10:00:01Z"}, None),
        (
            {"1.0.0": "2025-06-17T09:59:59Z", "1.1.0": "2025-06-19T09:00:00Z"},
            ("1.1.0", "23 hours after", 82800),
        ),
        (
            {"1.0.0": "2025-06-18T08:00:00Z", "1.1.0": "2025-06-18T12:00:00Z"},
            ("1.0.0", "2 hours before", -7200),
        ),
        (
            {"2.0.0-rc.1": "2025-06-18T10:05:00Z", "1.9.0": "2025-06-17T14:00:00Z"},
            ("1.9.0", "20 hours before", -72000),
        ),
        ({"2.0.0-rc.1": "2025-06-18T10:05:00Z"}, ("2.0.0-rc.1", "under an hour after", 300)),
        ({}, None),
    ],
)
def test_the_nearest_served_release_is_chosen_from_the_store(
    site: LocalSite, store: Path, times: dict[str, str], expected: tuple[str, str, int] | None
) -> None:
    serve(site, "/npm/sdk", npm_document("@acme/sdk", times), "application/json")
    assert releases(make_config(site, store, (specs(site)[1],))).ok
    with Store.open(store) as opened:
        match = ReleaseBook.load(opened).nearest("spec", EDIT)
    found = None if match is None else (match.release.version, match.distance, match.delta_seconds)
    assert found == expected
