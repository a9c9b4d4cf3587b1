"""The Atom feeds: valid RFC 4287 documents with stable ids, the right entries and their content."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from spectrack.site import build, present
from spectrack.site.build import FEED_LIMIT
from tests.site.conftest import BuiltSite
from tests.site.fixtures import (
    KETTLE_V1,
    KETTLE_V2,
    LAMP_RELEASE,
    NEXT_EDIT,
    SAMPLE_EDITS,
    Edit,
    sample_data,
    site_data,
)
from tests.site.scan import scan_html

ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def parse(path: Path) -> ET.Element:
    root = ET.fromstring(path.read_bytes())
    assert root.tag == f"{ATOM}feed"
    return root


def text(element: ET.Element, name: str) -> str:
    found = element.find(f"{ATOM}{name}")
    assert found is not None, name
    return found.text or ""


def entries(feed: ET.Element) -> list[ET.Element]:
    return feed.findall(f"{ATOM}entry")


def entry_ids(path: Path) -> dict[str, str]:
    """Change page link → Atom id of each entry."""
    return {
        entry.find(f"{ATOM}link").get("href"): text(entry, "id")  # type: ignore[union-attr]
        for entry in entries(parse(path))
    }


def feed_files(folder: Path) -> list[Path]:
    return sorted((folder / "feeds").rglob("*.xml"))


def test_every_feed_has_the_required_atom_elements(sample_site: BuiltSite) -> None:
    feeds = feed_files(sample_site.folder)
    assert len(feeds) == 2 + len({e.page_key for e in sample_site.data.changes})
    for path in feeds:
        feed = parse(path)
        assert text(feed, "id").startswith("tag:spectrack,2025:")
        assert text(feed, "title")
        assert RFC3339.fullmatch(text(feed, "updated"))
        author = feed.find(f"{ATOM}author/{ATOM}name")
        assert author is not None and author.text
        selves = [link for link in feed.findall(f"{ATOM}link") if link.get("rel") == "self"]
        assert len(selves) == 1
        assert (path.parent / (selves[0].get("href") or "")).resolve() == path.resolve()
        for entry in entries(feed):
            assert text(entry, "id").startswith("tag:spectrack,2025:change/")
            assert text(entry, "title")
            assert RFC3339.fullmatch(text(entry, "updated"))
            link = entry.find(f"{ATOM}link")
            assert link is not None and link.get("rel") == "alternate"
            assert (path.parent / (link.get("href") or "")).is_file()
            content = entry.find(f"{ATOM}content")
            assert content is not None and content.get("type") == "html"


def test_feeds_hold_the_right_changes_newest_recorded_first(sample_site: BuiltSite) -> None:
    data = sample_site.data
    newest = sorted(data.changes, key=lambda e: e.recorded_at, reverse=True)
    all_feed = parse(sample_site.folder / "feeds/all.xml")
    assert [text(e, "id") for e in entries(all_feed)] == [
        present.tag_uri("change", e.change_id) for e in newest
    ]
    assert text(all_feed, "updated") == present.rfc3339(newest[0].recorded_at)
    normative = parse(sample_site.folder / "feeds/normative.xml")
    assert [text(e, "id") for e in entries(normative)] == [
        present.tag_uri("change", e.change_id) for e in newest if e.verdict == "normative"
    ]
    for page_key in {e.page_key for e in data.changes}:
        page_feed = parse(sample_site.folder / present.page_feed_href(page_key))
        expected = [e for e in newest if e.page_key == page_key]
        assert len(entries(page_feed)) == len(expected) == expected[0].page_edits


def test_an_entry_carries_the_normative_summary_and_the_diff(sample_site: BuiltSite) -> None:
    feed = parse(sample_site.folder / "feeds/normative.xml")
    wanted = present.tag_uri("change", "c03")
    entry = next(e for e in entries(feed) if text(e, "id") == wanted)
    assert text(entry, "summary").startswith("SHOULD → MUST: strengthened; — → MAY: added")
    content = scan_html(text(entry, "content"))
    assert "The lamp SHOULD glow amber while it waits." in content.text
    assert "-The lamp SHOULD glow amber while it waits.\n+The lamp MUST glow amber" in content.text
    assert [tag.attrs.get("class") for tag in content.all("mark")] == ["keyword"] * 3
    assert LAMP_RELEASE.line in " ".join(content.text.split())


def test_ids_stay_the_same_when_the_site_grows(tmp_path: Path) -> None:
    build(sample_data(), tmp_path / "before")
    build(site_data([*SAMPLE_EDITS, NEXT_EDIT]), tmp_path / "after")
    for name in ("all.xml", "normative.xml"):
        before = entry_ids(tmp_path / "before/feeds" / name)
        after = entry_ids(tmp_path / "after/feeds" / name)
        assert before.items() <= after.items()
        assert len(set(after.values())) == len(after)
        feed_ids = {
            text(parse(tmp_path / run / "feeds" / name), "id") for run in ("before", "after")
        }
        assert len(feed_ids) == 1


def test_a_base_url_makes_every_feed_link_absolute(tmp_path: Path) -> None:
    build(sample_data(), tmp_path, base_url="https://changes.example/spec")
    feed = parse(tmp_path / "feeds/all.xml")
    links = [link.get("href") or "" for link in feed.iter(f"{ATOM}link")]
    assert "https://changes.example/spec/feeds/all.xml" in links
    assert all(link.startswith("https://changes.example/spec/") for link in links)
    relative = tmp_path / "relative"
    build(sample_data(), relative)
    relative_ids = set(entry_ids(relative / "feeds/all.xml").values())
    assert relative_ids == set(entry_ids(tmp_path / "feeds/all.xml").values())


def test_a_published_sites_feeds_are_named_by_their_address(tmp_path: Path) -> None:
    """RFC 4287: a feed's id is unique. A site with a base URL is the only one at that address:
    its feed's URL is its id, so a reader keying feeds by id never merges two sites'."""
    build(sample_data(), tmp_path, base_url="https://changes.example/spec")
    assert text(parse(tmp_path / "feeds/all.xml"), "id") == (
        "https://changes.example/spec/feeds/all.xml"
    )
    build(sample_data(), tmp_path / "other", base_url="https://other.example/")
    assert text(parse(tmp_path / "other/feeds/all.xml"), "id") == (
        "https://other.example/feeds/all.xml"
    )


def test_sites_without_an_address_name_their_feeds_by_their_oldest_change(
    tmp_path: Path,
) -> None:
    build(sample_data(), tmp_path / "one")
    build(site_data(SAMPLE_EDITS[1:]), tmp_path / "other")
    for name in ("all.xml", "normative.xml"):
        one = text(parse(tmp_path / "one/feeds" / name), "id")
        other = text(parse(tmp_path / "other/feeds" / name), "id")
        assert one == present.tag_uri("site", SAMPLE_EDITS[0].change_id, "feeds", name)
        assert other == present.tag_uri("site", SAMPLE_EDITS[1].change_id, "feeds", name)


def test_a_feed_keeps_only_the_latest_changes(tmp_path: Path) -> None:
    versions = [KETTLE_V1, KETTLE_V2]
    edits = [
        Edit(f"k{n:03d}", "lamps", "docs/kettle.md", versions[n % 2], versions[(n + 1) % 2], n)
        for n in range(FEED_LIMIT + 5)
    ]
    build(site_data(edits), tmp_path)
    ids = [text(e, "id") for e in entries(parse(tmp_path / "feeds/all.xml"))]
    assert ids == [
        present.tag_uri("change", f"k{n:03d}") for n in reversed(range(5, FEED_LIMIT + 5))
    ]


def test_characters_xml_cannot_hold_are_dropped(tmp_path: Path) -> None:
    page = "# Bell\n\nThe bell MUST ring\x0b twice\x01.\n"
    build(site_data([Edit("b01", "bells", "bell.md", None, page, 0, title="Bell\x0c")]), tmp_path)
    feed = parse(tmp_path / "feeds/all.xml")
    assert "The bell MUST ring twice." in scan_html(text(entries(feed)[0], "content")).text
    assert text(entries(feed)[0], "title").startswith("Bell added")


def test_a_rebuild_copies_unchanged_entries_from_the_feed_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    feed = out / "feeds" / "all.xml"
    # Mark an entry of the written feed: the next build copies it rather than render it again.
    mark = "Handbook changed · Normative"
    feed.write_text(feed.read_text().replace(mark, mark + " (as written)", 1))
    grown = site_data([*SAMPLE_EDITS, NEXT_EDIT])
    build(grown, out)
    build(grown, tmp_path / "fresh")
    rebuilt = feed.read_text()
    assert mark + " (as written)" in rebuilt
    assert rebuilt.replace(" (as written)", "") == (tmp_path / "fresh/feeds/all.xml").read_text()


def test_an_entry_is_rendered_again_when_what_it_shows_moves(tmp_path: Path) -> None:
    build(sample_data(), tmp_path)
    retitled = [
        replace(edit, title="Manual") if edit.change_id == "c08" else edit for edit in SAMPLE_EDITS
    ]
    build(site_data(retitled), tmp_path)
    titles = {
        text(entry, "id"): text(entry, "title")
        for entry in entries(parse(tmp_path / "feeds/all.xml"))
    }
    assert titles["tag:spectrack,2025:change/c08"] == "Manual changed · Normative"


def test_feed_entries_leave_out_the_page_edit_count_that_later_edits_change(
    sample_site: BuiltSite,
) -> None:
    feed = (sample_site.folder / "feeds/all.xml").read_text()
    change_page = (sample_site.folder / present.change_href("c08")).read_text()
    assert "Recorded edits of this page" in change_page
    assert "Recorded edits of this page" not in feed and "Page first seen" in feed
