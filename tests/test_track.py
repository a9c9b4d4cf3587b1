from __future__ import annotations

import functools
import gzip
import threading
from dataclasses import replace
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import regex

from spectrack.config import Config, FetchConfig, PathGlob, SourceConfig, StoreConfig
from spectrack.dates import Precision, TimeSource
from spectrack.progress import SilentProgress
from spectrack.serve import LocalSite, Reply, Route, sitemap_xml
from spectrack.store import RevisionEvent, Store
from spectrack.track import FetchSummary, run_fetch, summary_lines
from tests.conftest import RecordingSleep, StepClock, in_turn, truncated
from tests.storecheck import assert_consistent, git, head, page_bytes

V1 = {
    "/spec/tools": b"# Tools\n\nServers SHOULD validate input.\n",
    "/spec/prompts": b"# Prompts\n\nPrompts are templates.\n",
    "/spec/resources": b"# Resources\n\nA resource has a URI.\n",
}
FAST = FetchConfig(timeout=0.5, retries=1, backoff=0.01, user_agent="spectrack-test")


def make_config(site: LocalSite, store: Path, **source: object) -> Config:
    options: dict[str, object] = {"markdown": "{url}.md", **source}
    return Config(
        store=StoreConfig(path=store, lock_wait=0.5),
        sources=(SourceConfig("spec", site.url("/sitemap.xml"), **options),),  # type: ignore[arg-type]
        fetch=FAST,
    )


def fetch(config: Config, clock: StepClock | None = None, **options: object) -> FetchSummary:
    summary = run_fetch(config, clock=clock or StepClock(), sleep=RecordingSleep(), **options)  # type: ignore[arg-type]
    assert_counts_add_up(summary, config)
    return summary


def assert_counts_add_up(summary: FetchSummary, config: Config) -> None:
    """Each listed or unlisted page has one fate: new, changed, unchanged or failed."""
    for source, counts in zip(config.sources, summary.sources, strict=True):
        failed_pages = [f for f in counts.failures if f.url != source.sitemap]
        fates = counts.new + counts.changed_total + counts.unchanged + len(failed_pages)
        assert fates == counts.listed + counts.unlisted, counts


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "snapshots"


def test_pages_that_change_become_one_commit_each(site: LocalSite, store: Path) -> None:
    config = make_config(site, store)
    site.publish(V1, lastmod="2025-03-26")
    first = fetch(config)
    assert first.ok and first.sources[0].new == 3 and first.requests == 4
    v2 = dict(V1)
    v2["/spec/tools"] = b"# Tools\n\nServers MUST validate input.\n"
    v2["/spec/prompts"] = b"# Prompts\n\nPrompts are reusable templates.\n"
    site.publish(
        v2,
        lastmod={
            "/spec/tools": "2025-06-18T10:00:00+02:00",
            "/spec/prompts": "2025-06-19",
            "/spec/resources": "2025-03-26",
        },
    )
    second = fetch(config, StepClock(datetime(2031, 5, 5, tzinfo=UTC)))
    summary = second.sources[0]
    assert (summary.listed, summary.fetched, summary.new, summary.unchanged) == (3, 2, 0, 1)
    assert summary.changed == {"normative": 1, "editorial": 1, "formatting": 0}
    assert second.requests == 3
    assert summary_lines(second) == [
        "spec: listed 3, fetched 2, new 0, changed 2 (normative 1, editorial 1, formatting 0), "
        "unchanged 1, removed 0, unlisted 0, failed 0"
    ]
    with Store.open(store) as opened:
        tools = opened.history("spec/spec/tools")
        assert [r.event for r in tools] == [RevisionEvent.ADDED, RevisionEvent.CHANGED]
        latest = tools[-1]
        assert latest.upstream_time == datetime(2025, 6, 18, 8, tzinfo=UTC)
        assert latest.upstream_time.utcoffset().total_seconds() == 7200  # type: ignore[union-attr]
        assert (latest.time_source, latest.precision) == (TimeSource.SITEMAP, Precision.SECOND)
        assert latest.lastmod_raw == "2025-06-18T10:00:00+02:00"
        assert latest.url == site.url("/spec/tools")
        assert latest.recorded_time.year == 2031
        assert tools[0].precision is Precision.DAY
        assert opened.read("spec/spec/tools", tools[0].commit) == V1["/spec/tools"].decode()
        assert len(opened.revisions()) == 5
    message = git(store, "log", "-1", "--format=%B", latest.commit)
    assert f"Spectrack-URL: {site.url('/spec/tools')}" in message
    assert "Spectrack-Lastmod: 2025-06-18T10:00:00+02:00" in message
    assert "Spectrack-Time-Source: sitemap" in message
    assert "Spectrack-Time-Precision: second" in message
    authored, committed = git(
        store, "log", "-1", "--format=%ad|%cd", "--date=iso-strict", latest.commit
    ).split("|")
    assert authored == "2025-06-18T10:00:00+02:00"
    assert committed.startswith("2031-05-05T00:00:0"), "recorded by the injected clock"
    assert_consistent(store)


def test_rerun_with_nothing_changed_requests_only_the_sitemap(site: LocalSite, store: Path) -> None:
    config = make_config(site, store)
    site.publish(V1, lastmod="2025-03-26")
    fetch(config)
    before = head(store)
    again = fetch(config)
    assert again.requests == 1 and again.sources[0].unchanged == 3
    assert head(store) == before


def test_same_bytes_make_no_revision_but_remember_the_lastmod(site: LocalSite, store: Path) -> None:
    config = make_config(site, store)
    site.publish(V1, lastmod="2025-03-26")
    fetch(config)
    site.publish(V1, lastmod="2025-04-01")
    moved = fetch(config)
    assert moved.sources[0].fetched == 3 and moved.sources[0].unchanged == 3
    with Store.open(store) as opened:
        assert len(opened.revisions()) == 3
        assert opened.state("spec/spec/tools").lastmod == "2025-04-01"  # type: ignore[union-attr]
    assert git(store, "log", "-1", "--format=%s") == "Update page state (3 pages)\n"
    assert fetch(config).requests == 1


def test_pages_without_lastmod_are_asked_conditionally(site: LocalSite, store: Path) -> None:
    config = make_config(site, store)
    site.publish(V1)
    fetch(config)
    before = head(store)
    again = fetch(config)
    assert again.sources[0].fetched == 3 and again.sources[0].unchanged == 3
    assert head(store) == before, "304 answers change nothing"


def test_all_refetches_and_a_stale_lastmod_is_not_the_upstream_time(
    site: LocalSite, store: Path
) -> None:
    config = make_config(site, store)
    site.publish(V1, lastmod="2025-03-26")
    fetch(config)
    edited = dict(
        V1, **{"/spec/tools": b"# Tools\n\nServers SHOULD validate input.\n\nSee also.\n"}
    )
    site.publish(edited, lastmod="2025-03-26")
    assert fetch(config).sources[0].fetched == 0, "lastmod did not move"
    clock = StepClock(datetime(2032, 1, 1, tzinfo=UTC))
    summary = fetch(config, clock, everything=True)
    assert summary.sources[0].fetched == 3 and summary.sources[0].changed["editorial"] == 1
    with Store.open(store) as opened:
        latest = opened.history("spec/spec/tools")[-1]
    assert latest.time_source is TimeSource.FETCH and latest.upstream_time.year == 2032
    assert latest.lastmod_raw == "2025-03-26"


def test_include_exclude_and_strip(site: LocalSite, store: Path) -> None:
    pages = {
        "/spec/a": b"# A\n<!-- injected banner -->\nText.\n",
        "/spec/old/b": b"# B\n",
        "/blog/c": b"# C\n",
    }
    site.publish(pages, lastmod="2025-01-01")
    config = make_config(
        site,
        store,
        include=(PathGlob("/spec/**"),),
        exclude=(PathGlob("/spec/old/**"),),
        strip=(regex.compile(r"^<!-- injected banner -->\n", regex.M),),
    )
    summary = fetch(config)
    assert summary.sources[0].listed == 1
    with Store.open(store) as opened:
        assert opened.pages() == ["spec/spec/a"]
    assert page_bytes(store, "spec/spec/a") == b"# A\nText.\n"


def test_a_folder_url_has_its_markdown_without_the_slash(site: LocalSite, store: Path) -> None:
    site.publish({"/": b"# Home\n", "/spec/guide/": b"# Guide\n", "/spec/a": b"# A\n"})
    # Served where sites that append .md serve a folder's page and the root's.
    site.routes["/index.md"] = site.routes.pop("/.md")
    site.routes["/spec/guide.md"] = site.routes.pop("/spec/guide/.md")
    summary = fetch(make_config(site, store))
    assert summary.ok and summary.sources[0].new == 3
    assert "/spec/guide/.md" not in site.requests and "/.md" not in site.requests
    assert page_bytes(store, "spec/spec/guide/index") == b"# Guide\n"
    assert page_bytes(store, "spec/index") == b"# Home\n"


def test_a_strip_pattern_that_backtracks_without_end_fails_only_its_page(
    site: LocalSite, store: Path
) -> None:
    config = make_config(
        site,
        store,
        strip=(regex.compile(r"^<!-- ad -->\n", regex.M), regex.compile(r"(a|aa)+!$", regex.M)),
    )
    config = replace(config, fetch=replace(FAST, strip_timeout=0.2))
    site.publish(V1, lastmod="2025-03-26")
    assert fetch(config).ok
    first_head = head(store)
    v2 = dict(V1)
    v2["/spec/tools"] = b"# Tools\n\nServers MUST validate input.\n"
    v2["/spec/prompts"] = b"# Prompts\n<!-- ad -->\n" + b"a" * 60 + b"?\n"
    site.publish(v2, lastmod="2025-06-18")
    summary = fetch(config)
    assert [f.url for f in summary.failures] == [site.url("/spec/prompts")]
    message = summary.failures[0].message
    assert "'strip' pattern #2 ('(a|aa)+!$')" in message and "strip_timeout" in message
    assert site.url("/spec/prompts") in message and "\n" not in message
    assert page_bytes(store, "spec/spec/prompts") == V1["/spec/prompts"], "nothing lost"
    assert page_bytes(store, "spec/spec/tools") == v2["/spec/tools"], "other pages go on"
    assert_consistent(store, [first_head])


def test_a_page_the_strip_patterns_empty_fails_and_keeps_its_text(
    site: LocalSite, store: Path
) -> None:
    # The banner pattern runs to the end of the page: once the banner moves to the top, it
    # takes the whole page, which must not be stored as every requirement removed.
    config = make_config(site, store, strip=(regex.compile(r"<!-- banner -->.*", regex.S),))
    site.publish(V1, lastmod="2025-03-26")
    assert fetch(config).ok
    first_head = head(store)
    v2 = dict(V1)
    v2["/spec/tools"] = b"<!-- banner -->\n# Tools\n\nServers MUST validate input.\n"
    site.publish(v2, lastmod="2025-06-18")
    summary = fetch(config)
    assert [f.url for f in summary.failures] == [site.url("/spec/tools")]
    message = summary.failures[0].message
    assert "'strip' patterns left nothing" in message and "\n" not in message
    assert page_bytes(store, "spec/spec/tools") == V1["/spec/tools"], "nothing lost"
    assert summary.sources[0].changed_total == 0
    assert_consistent(store, [first_head])


def six_pages() -> dict[str, bytes]:
    return {f"/spec/p{i}": f"# Page {i}\n\nText {i}.\n".encode() for i in range(6)}


def fetched_then_dropped(site: LocalSite, store: Path) -> tuple[Config, dict[str, bytes], Reply]:
    """Six pages fetched, then a sitemap without p5 (whose page route is returned)."""
    config = make_config(site, store)
    pages = six_pages()
    site.publish(pages, lastmod="2025-01-01")
    fetch(config)
    hidden = site.routes["/spec/p5.md"]
    site.publish({k: v for k, v in pages.items() if k != "/spec/p5"}, lastmod="2025-01-01")
    assert isinstance(hidden, Reply)
    return config, pages, hidden


def test_page_dropped_and_gone_is_removed_but_its_history_stays(
    site: LocalSite, store: Path
) -> None:
    config, _, _ = fetched_then_dropped(site, store)
    summary = fetch(config).sources[0]
    assert summary.removed == 1 and summary.fetched == 1
    with Store.open(store) as opened:
        assert "spec/spec/p5" not in opened.pages()
        history = opened.history("spec/spec/p5")
        assert [r.event for r in history] == [RevisionEvent.ADDED, RevisionEvent.REMOVED]
        assert opened.read("spec/spec/p5", history[0].commit) == "# Page 5\n\nText 5.\n"
    assert_consistent(store)


def fetched_with_an_old_page(site: LocalSite, store: Path) -> tuple[Config, dict[str, bytes]]:
    """A source of six pages and `/spec/old`, fetched once."""
    config = make_config(site, store)
    old = {"/spec/old": b"# Old\n\nClients MUST retry.\n", **six_pages()}
    site.publish(old, lastmod="2025-01-01")
    fetch(config)
    return config, old


def test_a_page_renamed_with_a_redirect_is_removed_not_kept_as_a_copy(
    site: LocalSite, store: Path
) -> None:
    # /spec/old became /spec/new, and its old URL redirects there. Kept as an unlisted page, it
    # held the new page's text and recorded each of its edits twice, alerting twice.
    config, old = fetched_with_an_old_page(site, store)
    renamed = {"/spec/new": b"# New\n\nClients MUST retry twice.\n", **six_pages()}
    site.publish(renamed, lastmod="2025-01-02")
    site.routes["/spec/old.md"] = Reply(301, b"", {"Location": "/spec/new.md"})
    summary = fetch(config).sources[0]
    assert (summary.new, summary.removed, summary.unlisted) == (1, 1, 0)
    edited = {**renamed, "/spec/new": b"# New\n\nClients SHOULD retry twice.\n"}
    site.publish(edited, lastmod="2025-01-03")
    site.routes["/spec/old.md"] = Reply(301, b"", {"Location": "/spec/new.md"})
    summary = fetch(config).sources[0]
    assert summary.changed == {"normative": 1, "editorial": 0, "formatting": 0}
    with Store.open(store) as opened:
        assert "spec/spec/old" not in opened.pages() and "spec/spec/new" in opened.pages()
        history = opened.history("spec/spec/old")
        assert [r.event for r in history] == [RevisionEvent.ADDED, RevisionEvent.REMOVED]
        assert opened.read("spec/spec/old", history[0].commit) == old["/spec/old"].decode()
    message = git(store, "log", "-1", "--format=%s", history[-1].commit)
    assert site.url("/spec/new") in message
    assert_consistent(store)


class Warnings(SilentProgress):
    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []

    def warn(self, message: str) -> None:
        self.said.append(message)


def test_a_listed_page_that_redirects_to_another_listed_page_is_recorded_once(
    site: LocalSite, store: Path
) -> None:
    # /spec/old, renamed /spec/new, is still listed and redirects there: it was stored with
    # /spec/new's text, and each edit of /spec/new was recorded (and alerted) twice.
    config, old = fetched_with_an_old_page(site, store)
    before = head(store)
    renamed = {**old, "/spec/new": b"# New\n\nClients MUST retry twice.\n"}
    for day, text in (("2025-01-02", b"MUST"), ("2025-01-03", b"SHOULD")):
        site.publish(
            {**renamed, "/spec/new": renamed["/spec/new"].replace(b"MUST", text)}, lastmod=day
        )
        site.routes["/spec/old.md"] = Reply(301, b"", {"Location": "/spec/new.md"})
        warnings = Warnings()
        summary = fetch(config, progress=warnings).sources[0]
        assert (summary.listed, summary.unchanged, summary.removed) == (8, 7, 0), "6 pages and old"
        assert warnings.said == [
            f"sitemap {config.sources[0].sitemap}: 1 listed page(s) redirect to other pages the "
            f"sitemap lists, and are recorded once, as those (first: {site.url('/spec/old')} → "
            f"{site.url('/spec/new')})"
        ]
    assert (summary.new, summary.changed["normative"]) == (0, 1)
    with Store.open(store) as opened:
        assert [r.event for r in opened.history("spec/spec/old")] == [RevisionEvent.ADDED]
        assert [r.event for r in opened.history("spec/spec/new")] == [
            RevisionEvent.ADDED,
            RevisionEvent.CHANGED,
        ]
    assert page_bytes(store, "spec/spec/old") == old["/spec/old"], "its own text stays"
    assert_consistent(store, [before])


def test_a_page_redirected_to_a_page_the_sitemap_does_not_list_stays_unlisted(
    site: LocalSite, store: Path
) -> None:
    # Only a redirect to a listed page says where the page went; anything else is kept.
    config, old = fetched_with_an_old_page(site, store)
    site.publish(six_pages(), lastmod="2025-01-01")
    site.routes["/spec/old.md"] = Reply(302, b"", {"Location": "/archive/old.md"})
    site.routes["/archive/old.md"] = Reply(200, old["/spec/old"], {})
    summary = fetch(config).sources[0]
    assert (summary.removed, summary.unlisted) == (0, 1)
    with Store.open(store) as opened:
        assert "spec/spec/old" in opened.pages()


def test_a_page_renamed_in_letter_case_only_keeps_a_plain_name(
    site: LocalSite, store: Path
) -> None:
    config = make_config(site, store)
    old = {"/spec/Guide": b"# Guide\n\nClients MUST retry.\n", **six_pages()}
    site.publish(old, lastmod="2025-01-01")
    fetch(config)
    earlier = head(store)
    renamed = {"/spec/guide": old["/spec/Guide"], **six_pages()}
    site.publish(renamed, lastmod="2025-01-02")
    summary = fetch(config).sources[0]
    assert (summary.new, summary.removed) == (1, 1)
    with Store.open(store) as opened:
        assert "spec/spec/guide" in opened.pages(), "the renamed page is stored plainly"
        assert "spec/spec/Guide" not in opened.pages()
        history = opened.history("spec/spec/Guide")
        assert [r.event for r in history] == [RevisionEvent.ADDED, RevisionEvent.REMOVED]
        assert opened.read("spec/spec/Guide", history[0].commit) == old["/spec/Guide"].decode()
    assert page_bytes(store, "spec/spec/guide") == old["/spec/Guide"]
    assert_consistent(store, [earlier])


def test_page_dropped_but_still_served_stays_unlisted(site: LocalSite, store: Path) -> None:
    config, pages, hidden = fetched_then_dropped(site, store)
    site.routes["/spec/p5.md"] = hidden
    summary = fetch(config).sources[0]
    assert (summary.removed, summary.unlisted) == (0, 1)
    with Store.open(store) as opened:
        assert opened.state("spec/spec/p5").unlisted  # type: ignore[union-attr]
    site.publish(pages, lastmod="2025-01-01")
    fetch(config)
    with Store.open(store) as opened:
        assert not opened.state("spec/spec/p5").unlisted  # type: ignore[union-attr]
    assert_consistent(store)


def test_a_dropped_page_served_as_an_html_shell_is_kept_with_a_warning(
    site: LocalSite, store: Path
) -> None:
    config, pages, _ = fetched_then_dropped(site, store)
    site.routes["/spec/p5.md"] = Reply(
        200, b"<!doctype html><html><body>Not here</body></html>", {"Content-Type": "text/html"}
    )
    progress = SilentProgress()
    summary = fetch(config, progress=progress)
    assert summary.ok, "a page the site no longer lists does not fail the run"
    assert (summary.sources[0].removed, summary.sources[0].unlisted) == (0, 1)
    assert [w for w in progress.warnings if "/spec/p5.md" in w and "no longer listed" in w]
    assert page_bytes(store, "spec/spec/p5") == pages["/spec/p5"]
    with Store.open(store) as opened:
        assert opened.state("spec/spec/p5").unlisted  # type: ignore[union-attr]


def test_a_failed_check_is_never_a_removal(site: LocalSite, store: Path) -> None:
    config, pages, _ = fetched_then_dropped(site, store)
    site.routes["/spec/p5.md"] = Reply(503)
    summary = fetch(config)
    assert summary.sources[0].removed == 0 and not summary.ok
    assert "HTTP 503" in summary.failures[0].message
    assert page_bytes(store, "spec/spec/p5") == pages["/spec/p5"]


def test_an_incomplete_sitemap_removes_nothing(site: LocalSite, store: Path) -> None:
    config, _, _ = fetched_then_dropped(site, store)
    site.routes["/part.xml"] = site.routes["/sitemap.xml"]
    site.routes["/sitemap.xml"] = Reply(
        200,
        (
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"<sitemap><loc>{site.url('/part.xml')}</loc></sitemap>"
            f"<sitemap><loc>{site.url('/broken.xml')}</loc></sitemap></sitemapindex>"
        ).encode(),
    )
    site.requests.clear()
    summary = fetch(config)
    assert not summary.ok and summary.sources[0].removed == 0
    assert "/spec/p5.md" not in site.requests
    with Store.open(store) as opened:
        assert "spec/spec/p5" in opened.pages()


def test_removing_more_than_the_share_stops(site: LocalSite, store: Path) -> None:
    config = make_config(site, store)
    pages = six_pages()
    site.publish(pages, lastmod="2025-01-01")
    fetch(config)
    before = head(store)
    site.publish(dict(list(pages.items())[:3]), lastmod="2025-01-01")
    summary = fetch(config)
    assert (summary.sources[0].removed, summary.sources[0].unlisted) == (0, 3), "kept"
    assert "would remove 3 of 6 pages (50%, more than max_removal = 20%); removed none" in (
        summary.failures[0].message
    )
    assert head(store) == before
    loose = make_config(site, store, max_removal=0.5)
    assert fetch(loose).sources[0].removed == 3


def test_a_site_moved_to_another_host_continues_the_history_of_its_pages(
    site: LocalSite, store: Path
) -> None:
    """Its sitemap now lists the same paths on another host (as after a move to https or www.):
    each page goes on under its new URL, not as a new page beside an old one that fails."""
    site.publish(V1, lastmod="2025-03-26")
    config = make_config(site, store)
    assert fetch(config).ok
    moved = site.base_url.replace("127.0.0.1", "localhost")
    v2 = {**V1, "/spec/tools": b"# Tools\n\nServers MUST validate input.\n"}
    site.publish(v2, lastmod="2025-06-18")
    site.routes["/sitemap.xml"] = Reply(
        200, sitemap_xml({moved + path: "2025-06-18" for path in v2})
    )
    config = replace(config, sources=(replace(config.sources[0], sitemap=moved + "/sitemap.xml"),))
    progress = SilentProgress()
    summary = fetch(config, progress=progress)
    counts = summary.sources[0]
    assert summary.ok and (counts.new, counts.removed, counts.unlisted) == (0, 0, 0)
    assert counts.changed == {"normative": 1, "editorial": 0, "formatting": 0}
    assert progress.warnings == [
        f"sitemap {moved}/sitemap.xml: 3 page(s) stored under another scheme or host are listed "
        f"at new URLs, and their history goes on there (first: {site.url('/spec/tools')} → "
        f"{moved}/spec/tools)"
    ]
    with Store.open(store) as opened:
        assert opened.pages() == ["spec/spec/prompts", "spec/spec/resources", "spec/spec/tools"]
        assert [r.url for r in opened.history("spec/spec/tools")] == [
            site.url("/spec/tools"),
            moved + "/spec/tools",
        ]
        unchanged = opened.state("spec/spec/prompts")
        assert unchanged is not None and unchanged.url == moved + "/spec/prompts"
    again = fetch(config)
    assert again.ok and again.sources[0].unchanged == 3
    assert_consistent(store)


def test_a_moved_page_is_found_by_its_new_url_before_it_changes(
    site: LocalSite, store: Path
) -> None:
    site.publish(V1, lastmod="2025-03-26")
    config = make_config(site, store)
    assert fetch(config).ok
    moved = site.base_url.replace("127.0.0.1", "localhost")
    site.routes["/sitemap.xml"] = Reply(
        200, sitemap_xml({moved + path: "2025-03-26" for path in V1})
    )
    config = replace(config, sources=(replace(config.sources[0], sitemap=moved + "/sitemap.xml"),))
    assert fetch(config).sources[0].unchanged == 3
    with Store.open(store) as opened:
        assert opened.resolve(moved + "/spec/prompts") == "spec/spec/prompts"
        assert opened.resolve(site.url("/spec/prompts")) == "spec/spec/prompts", "and by its old"


@pytest.mark.parametrize("indexed", [False, True], ids=["sitemap", "index"])
def test_a_sitemap_kept_on_another_host_lists_the_pages_of_the_configured_one(
    site: LocalSite, store: Path, indexed: bool
) -> None:
    """The sitemap asked for redirects to a host that redirect_hosts allows (a CDN): the pages
    it lists are on the host it was asked for, and are the source's; so are those of an index
    kept there with its files beside it, which were judged against the CDN alone (every page
    left out, the source failed)."""
    site.publish(V1, lastmod="2025-03-26")
    docs = site.base_url.replace("127.0.0.1", "localhost")
    listed = "/files/index.xml" if indexed else "/files/pages.xml"
    site.routes["/sitemap.xml"] = Reply(301, headers={"Location": site.url(listed)})
    site.routes["/files/index.xml"] = Reply(
        200,
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + f"<sitemap><loc>{site.url('/files/pages.xml')}</loc></sitemap>".encode()
        + b"</sitemapindex>\n",
    )
    site.routes["/files/pages.xml"] = Reply(
        200, sitemap_xml({docs + path: "2025-03-26" for path in V1})
    )
    config = make_config(site, store, redirect_hosts=(urlsplit(site.base_url).netloc,))
    config = replace(config, sources=(replace(config.sources[0], sitemap=docs + "/sitemap.xml"),))
    summary = fetch(config)
    assert summary.ok and summary.sources[0].new == 3
    with Store.open(store) as opened:
        assert opened.resolve(docs + "/spec/tools") == "spec/spec/tools"


def test_globs_that_leave_none_of_the_listed_pages_fail_the_source(
    site: LocalSite, store: Path
) -> None:
    # A mistyped glob would track nothing and report nothing, run after run.
    site.publish(V1, lastmod="2025-01-01")
    summary = fetch(make_config(site, store, include=(PathGlob("/specs/**"),)))
    assert [f.message for f in summary.failures] == [
        f"sitemap {site.url('/sitemap.xml')}: lists 3 pages, and the include and exclude globs "
        "of source 'spec' leave none of them (first: /spec/tools); check the globs"
    ]
    assert summary.sources[0].listed == 0
    assert fetch(make_config(site, store, include=(PathGlob("/spec/**"),))).ok


def test_the_removal_share_counts_only_the_pages_the_source_still_tracks(
    site: LocalSite, store: Path
) -> None:
    old = {f"/old/o{i}": f"# Old {i}\n".encode() for i in range(14)}
    pages = {**six_pages(), **old}
    site.publish(pages, lastmod="2025-01-01")
    fetch(make_config(site, store))
    before = head(store)
    # The old pages are left out by the configuration now, and two of the six others are gone.
    site.publish(
        {k: v for k, v in pages.items() if k not in ("/spec/p4", "/spec/p5")}, lastmod="2025-01-01"
    )
    config = make_config(site, store, exclude=(PathGlob("/old/**"),))
    summary = fetch(config)
    assert (summary.sources[0].removed, summary.sources[0].unlisted) == (0, 2), "kept"
    assert "would remove 2 of 6 pages (33%, more than max_removal = 20%)" in (
        summary.failures[0].message
    )
    assert head(store) == before
    loose = make_config(site, store, exclude=(PathGlob("/old/**"),), max_removal=0.5)
    assert fetch(loose).sources[0].removed == 2
    with Store.open(store) as opened:
        assert len([page for page in opened.pages() if page.startswith("spec/old/")]) == 14


@functools.cache
def page_bomb() -> bytes:
    return gzip.compress(b"\0" * (40 * 1024 * 1024))


def fault_routes(
    site: LocalSite, release: threading.Event
) -> dict[str, tuple[Route | Reply, str | None]]:
    """Page faults: the route serving the page, and the failure expected (None: recovers)."""
    new_body = b"# Prompts\n\nPrompts are reusable templates.\n"

    def hang(handler: BaseHTTPRequestHandler) -> None:
        release.wait(10)

    port = site.base_url.rsplit(":", 1)[1]
    return {
        "500 then success": (in_turn([Reply(500), Reply(200, new_body)]), None),
        "429 with Retry-After": (
            in_turn([Reply(429, headers={"Retry-After": "2"}), Reply(200, new_body)]),
            None,
        ),
        "hung connection": (hang, "no complete answer within 0.5 s"),
        "truncated body": (truncated, "connection failed"),
        "gzip bomb": (
            Reply(200, page_bomb(), {"Content-Encoding": "gzip"}),
            "once decoded",
        ),
        "off-host redirect": (
            Reply(302, headers={"Location": f"http://localhost:{port}/spec/prompts.md"}),
            "another host; refused",
        ),
        "HTML app shell": (
            Reply(
                200,
                b"<!doctype html><html><body><div id=app></div></body></html>",
                {"Content-Type": "text/html"},
            ),
            "HTML document where Markdown was expected",
        ),
        "non-UTF-8 bytes": (Reply(200, b"# Prompts\n\nna\xefve\n"), "not UTF-8"),
        "empty body": (Reply(200, b" \n"), "answered with an empty body"),
        "byte order mark only": (Reply(200, b"\xef\xbb\xbf\n"), "answered with an empty body"),
        "soft 404 status": (Reply(404, b"gone"), "HTTP 404 for a page the sitemap lists"),
    }


FAULTS = [
    "500 then success",
    "429 with Retry-After",
    "hung connection",
    "truncated body",
    "gzip bomb",
    "off-host redirect",
    "HTML app shell",
    "non-UTF-8 bytes",
    "empty body",
    "byte order mark only",
    "soft 404 status",
]


@pytest.mark.parametrize("fault", FAULTS)
def test_page_faults_leave_the_store_whole(
    site: LocalSite, store: Path, release: threading.Event, fault: str
) -> None:
    config = make_config(site, store)
    site.publish(V1, lastmod="2025-03-26")
    fetch(config)
    first_head = head(store)
    v2 = {
        "/spec/tools": b"# Tools\n\nServers MUST validate input.\n",
        "/spec/prompts": b"# Prompts\n\nPrompts are reusable templates.\n",
        "/spec/resources": V1["/spec/resources"],
    }
    site.publish(v2, lastmod="2025-06-18")
    route, failure = fault_routes(site, release)[fault]
    site.routes["/spec/prompts.md"] = route
    summary = fetch(config)
    assert_consistent(store, [first_head])
    assert page_bytes(store, "spec/spec/tools") == v2["/spec/tools"], "other pages go on"
    if failure is None:
        assert summary.ok
        assert page_bytes(store, "spec/spec/prompts") == v2["/spec/prompts"]
    else:
        assert [f.url for f in summary.failures] == [site.url("/spec/prompts")]
        assert failure in summary.failures[0].message
        assert page_bytes(store, "spec/spec/prompts") == V1["/spec/prompts"], "nothing lost"
        site.publish(v2, lastmod="2025-06-18")
        assert fetch(config).ok, "the next run completes"
        assert page_bytes(store, "spec/spec/prompts") == v2["/spec/prompts"]
        assert_consistent(store, [first_head])


def test_pages_that_failed_before_any_answer_count_as_fetched(site: LocalSite, store: Path) -> None:
    # "listed 3, fetched 1, failed 3": the pages asked for and never answered were left out.
    config = make_config(site, store)
    site.publish(V1, lastmod="2025-03-26")
    site.routes["/spec/tools.md"] = Reply(503)
    site.routes["/spec/prompts.md"] = truncated
    site.routes["/spec/resources.md"] = Reply(404)
    summary = fetch(config)
    assert summary_lines(summary) == [
        "spec: listed 3, fetched 3, new 0, changed 0 (normative 0, editorial 0, formatting 0), "
        "unchanged 0, removed 0, unlisted 0, failed 3"
    ]


def oversized_sitemap(site: LocalSite) -> bytes:
    return sitemap_xml({site.url(f"/spec/p{i}"): None for i in range(50_001)})


@pytest.mark.parametrize(
    ("sitemap", "failure"),
    [
        (oversized_sitemap, "more than the protocol's 50,000"),
        (lambda site: gzip.compress(b"<urlset>" + b" " * (51 << 20) + b"</urlset>"), "50 MB"),
        (lambda site: b"<urlset><url><loc>oops</url>", "not well-formed XML"),
        (
            lambda site: (
                b'<!DOCTYPE u [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
                b"<urlset><url><loc>&b;</loc></url></urlset>"
            ),
            "refused",
        ),
        (
            lambda site: (
                b'<!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                b"<urlset><url><loc>&x;</loc></url></urlset>"
            ),
            "refused",
        ),
        (lambda site: b"<html><body>Loading</body></html>", "is not <urlset>"),
    ],
    ids=["oversized", "gzip-bomb", "malformed", "entity-expansion", "external-entity", "html"],
)
def test_sitemap_faults_fail_the_source_and_touch_nothing(
    site: LocalSite, store: Path, sitemap, failure: str
) -> None:
    config = make_config(site, store)
    site.publish(V1, lastmod="2025-03-26")
    fetch(config)
    before = head(store)
    site.routes["/sitemap.xml"] = Reply(200, sitemap(site))
    summary = fetch(config)
    assert not summary.ok and failure in summary.failures[0].message
    assert summary.requests == 1
    assert head(store) == before
    assert_consistent(store, [before])


def test_a_web_page_given_as_the_sitemap_is_named_an_html_page(
    site: LocalSite, store: Path
) -> None:
    # The site's home page given as its sitemap: the XML parser would refuse <!DOCTYPE html> as
    # a DTD, which says nothing of the mistake.
    site.routes["/sitemap.xml"] = Reply(
        200,
        b"<!DOCTYPE html>\n<html><head><title>Kettles</title></head><body>Hi</body></html>\n",
        {"Content-Type": "text/html; charset=utf-8"},
    )
    summary = fetch(make_config(site, store))
    assert [f.message for f in summary.failures] == [
        f"sitemap {site.url('/sitemap.xml')}: served an HTML page: its root element <html> is "
        "not <urlset> or <sitemapindex>; check the source's `sitemap` URL"
    ]


def test_traversal_urls_stay_inside_the_source(site: LocalSite, store: Path) -> None:
    bodies = {
        "/spec/../../escape": b"# one\n",
        "/spec/%2e%2e/%2e%2e/escape2": b"# two\n",
        "/spec/..%2f..%2fescape3": b"# three\n",
        "/spec/.git/config": b"# four\n",
        "/spec/Case": b"# five\n",
        "/spec/case": b"# six\n",
    }
    site.routes = {path + ".md": Reply(200, body) for path, body in bodies.items()}
    site.routes["/escape.md"] = Reply(200, bodies["/spec/../../escape"])  # where httpx asks
    site.routes["/sitemap.xml"] = Reply(
        200, sitemap_xml({site.base_url + path: None for path in bodies})
    )
    summary = fetch(make_config(site, store))
    assert summary.ok and summary.sources[0].new == 6
    files = git(store, "ls-tree", "-r", "--name-only", "HEAD").split()
    pages = [f for f in files if f.endswith(".md")]
    assert len(pages) == 6 and all(f.startswith("spec/") for f in pages)
    # Dot segments are resolved as the server resolves them: the page is the document fetched.
    assert "spec/escape.md" in pages
    assert len({p.casefold() for p in pages}) == 6
    assert not (store.parent / "escape.md").exists() and not (store / "escape.md").exists()
    assert_consistent(store)


def test_off_site_urls_are_left_out_with_a_warning(site: LocalSite, store: Path) -> None:
    site.publish(V1, lastmod="2025-03-26")
    entries = {site.url(path): "2025-03-26" for path in V1}
    entries["https://elsewhere.example.net/spec/tools"] = None
    site.routes["/sitemap.xml"] = Reply(200, sitemap_xml(entries))
    progress = SilentProgress()
    summary = fetch(make_config(site, store), progress=progress)
    assert summary.ok and summary.sources[0].listed == 3
    assert any("1 URL(s) on another scheme or host" in w for w in progress.warnings)


def test_a_sitemap_whose_urls_are_all_left_out_fails_the_source(
    site: LocalSite, store: Path
) -> None:
    # The pages of www. listed in the sitemap of the bare host: nothing would ever be tracked.
    entries = {"https://www.kettles.example/spec/tools": None, "relative/lid": None}
    site.routes["/sitemap.xml"] = Reply(200, sitemap_xml(entries))
    progress = SilentProgress()
    summary = fetch(make_config(site, store), progress=progress)
    sitemap = site.url("/sitemap.xml")
    assert [f.message for f in summary.failures] == [
        f"sitemap {sitemap}: 1 URL(s) on another scheme or host left out (first: "
        "https://www.kettles.example/spec/tools)",
        f"sitemap {sitemap}: 1 relative URL(s) left out, where the protocol asks for absolute "
        "ones (first: relative/lid)",
    ]
    assert progress.warnings == []


def test_a_sitemap_whose_urls_are_all_left_out_removes_nothing(
    site: LocalSite, store: Path
) -> None:
    """It failed as a sitemap that cannot be read does: the pages it no longer lists are not
    checked, and none is removed. They were, as if it listed none: the pages answering 404 at
    the old host were removed, which the sitemap set right (to www.) would have continued."""
    pages = {f"/spec/{name}": f"# {name}\n\nA lid MAY seal.\n".encode() for name in "abcde"}
    site.publish(pages, lastmod="2025-03-26")
    config = make_config(site, store)
    assert fetch(config).ok
    moved = site.base_url.replace("127.0.0.1", "localhost")
    site.routes.pop("/spec/a.md")
    site.routes["/sitemap.xml"] = Reply(200, sitemap_xml({moved + path: None for path in pages}))
    summary = fetch(config)
    counts = summary.sources[0]
    assert [f.url for f in summary.failures] == [site.url("/sitemap.xml")]
    assert (counts.fetched, counts.removed, counts.unlisted) == (0, 0, 0)
    with Store.open(store) as opened:
        assert len(opened.pages()) == 5


def test_a_lastmod_more_than_a_day_ahead_falls_back_to_the_fetch_time(
    site: LocalSite, store: Path
) -> None:
    """A lastmod years ahead would keep the edit at the top of every list; a few hours ahead is
    a site's clock or time zone a little off, and kept."""
    site.publish(
        V1,
        lastmod={"/spec/tools": "2999-01-01", "/spec/prompts": "2031-05-01T20:00:00+00:00"},
    )
    progress = SilentProgress()
    clock = StepClock(datetime(2031, 5, 1, tzinfo=UTC))
    summary = fetch(make_config(site, store), clock, progress=progress)
    assert summary.ok and summary.sources[0].new == 3
    assert [w for w in progress.warnings if "in the future" in w] == [
        f"sitemap {site.url('/sitemap.xml')}: {site.url('/spec/tools')}: lastmod '2999-01-01' is "
        "more than a day in the future; the fetch time is used"
    ]
    with Store.open(store) as opened:
        (tools,) = opened.history("spec/spec/tools")
        (prompts,) = opened.history("spec/spec/prompts")
    assert tools.time_source is TimeSource.FETCH and tools.upstream_time.year == 2031
    assert tools.lastmod_raw == "2999-01-01"
    assert prompts.time_source is TimeSource.SITEMAP and prompts.upstream_time.hour == 20
    again = SilentProgress()
    assert fetch(make_config(site, store), clock, progress=again).ok
    assert not [w for w in again.warnings if "in the future" in w], "said once, when it applies"


def test_a_lastmod_before_1970_falls_back_to_the_fetch_time(site: LocalSite, store: Path) -> None:
    site.publish(V1, lastmod={"/spec/tools": "1969-12-31", "/spec/prompts": "2025-03-26"})
    progress = SilentProgress()
    clock = StepClock(datetime(2031, 5, 1, tzinfo=UTC))
    summary = fetch(make_config(site, store), clock, progress=progress)
    assert summary.ok and summary.sources[0].new == 3
    assert any("'1969-12-31' is not a date from 1970 to 9999" in w for w in progress.warnings)
    with Store.open(store) as opened:
        (tools,) = opened.history("spec/spec/tools")
        (prompts,) = opened.history("spec/spec/prompts")
    assert tools.time_source is TimeSource.FETCH and tools.upstream_time.year == 2031
    assert prompts.time_source is TimeSource.SITEMAP and prompts.upstream_time.year == 2025
    assert_consistent(store)


def test_a_markdown_suffix_goes_before_the_page_query(site: LocalSite, store: Path) -> None:
    body = b"# Jars\n\nA jar MUST have a lid.\n"

    def jars(handler: BaseHTTPRequestHandler) -> Reply:
        # Served for its own query only: a suffix after the query would change the query's value.
        found = handler.path == "/spec/jars.md?v=2"
        return Reply(200, body) if found else Reply(404, b"not found\n")

    site.routes = {
        "/sitemap.xml": Reply(200, sitemap_xml({site.url("/spec/jars?v=2"): "2025-03-26"})),
        "/spec/jars.md": jars,
    }
    summary = fetch(make_config(site, store))
    assert summary.ok and summary.sources[0].new == 1
    with Store.open(store) as opened:
        (page,) = opened.pages()
    assert page.startswith("spec/spec/jars~q") and page_bytes(store, page) == body
