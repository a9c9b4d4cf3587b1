"""Hostile page text, titles, URLs and site names show as text and never run, in files and browser."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Dialog, expect

from spectrack.site import build, present
from tests.site.conftest import BuiltSite
from tests.site.fixtures import (
    HOSTILE_LASTMOD,
    HOSTILE_SOURCE,
    HOSTILE_TITLE,
    HOSTILE_URL,
    Edit,
    site_data,
)
from tests.site.scan import html_files, scan_file, scan_html

ATOM = "{http://www.w3.org/2005/Atom}"


def test_no_built_page_holds_a_tag_or_link_from_the_data(hostile_site: BuiltSite) -> None:
    pages = html_files(hostile_site.folder)
    assert pages
    for path in pages:
        scan = scan_file(path)
        assert not scan.all("img"), path
        assert not scan.all("b") and not scan.all("svg"), path
        assert [tag.attrs.get("src") for tag in scan.all("script")] == [
            "../assets/site.js"
            if "/" in path.relative_to(hostile_site.folder).as_posix()
            else "assets/site.js"
        ], path
        for tag in scan.tags:
            assert not [name for name in tag.attrs if name.startswith("on")], (path, tag)
            for name in ("href", "src"):
                assert not (tag.attrs.get(name) or "").lower().startswith("javascript"), path


def test_hostile_text_reads_as_written(hostile_site: BuiltSite) -> None:
    change_page = scan_file(hostile_site.folder / present.change_href("x02"))
    assert f"{HOSTILE_TITLE} changed" in change_page.text
    assert HOSTILE_URL in change_page.text
    assert "(not a web link)" in change_page.text
    assert "{{ 7 * 7 }}" in change_page.text
    assert "{% if true %}yes{% endif %}" in change_page.text
    assert "{{ config }}" in change_page.text
    assert "<script>window.__pwned = 4</script>" in change_page.text
    assert HOSTILE_SOURCE in change_page.text
    assert f"from the site's sitemap: {HOSTILE_LASTMOD}" in change_page.text
    index = scan_file(hostile_site.folder / "index.html")
    assert hostile_site.data.title in index.text


def test_feeds_escape_hostile_text_inside_their_html(hostile_site: BuiltSite) -> None:
    for path in sorted((hostile_site.folder / "feeds").rglob("*.xml")):
        feed = ET.fromstring(path.read_bytes())
        for content in feed.iter(f"{ATOM}content"):
            html = scan_html(content.text or "")
            assert not html.all("img") and not html.all("script"), path
            assert all(
                (tag.attrs.get("href") or "").startswith(("http://", "https://", "../"))
                for tag in html.all("a")
            ), path
            assert "<script>window.__pwned = 4</script>" in html.text


@pytest.mark.browser
def test_nothing_hostile_runs_in_the_browser(browser: Browser, hostile_site: BuiltSite) -> None:
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    for path in html_files(hostile_site.folder):
        page.goto(hostile_site.url + path.relative_to(hostile_site.folder).as_posix())
        page.wait_for_load_state("load")
        page.mouse.move(5, 5)
        page.mouse.move(200, 20)
        assert page.evaluate("window.__pwned === undefined"), path
        assert page.locator("main img, main script").count() == 0, path
    page.goto(hostile_site.url + present.change_href("x02"))
    expect(page.locator("h1")).to_have_text(f"{HOSTILE_TITLE} changed")
    expect(page.locator(".live.dead")).to_contain_text(HOSTILE_URL)
    page.fill("#hunk-filter", "<img")
    expect(page.locator("#hunk-status")).to_contain_text("“<img”")
    assert page.evaluate("window.__pwned === undefined")
    assert dialogs == []
    context.close()


def test_an_override_in_page_text_cannot_turn_the_sites_words_around(tmp_path: Path) -> None:
    """A right-to-left override left open in a title, heading or path would show the site's own
    words after it ("added") backwards, also past a pop of an isolate the text holds: the site
    shows no bidirectional control at all (they are invisible)."""
    controls = "\u2069\u202e"
    markdown = f"# Lamp\n\n## Wick {controls}kcik\n\nThe lamp MUST glow.\n"
    edit = Edit(
        "x01",
        "lamps",
        f"docs/l{controls}amp.md",
        None,
        markdown,
        1,
        title=f"Harmless {controls}txet",
    )
    build(site_data([edit]), tmp_path)
    for path in [*html_files(tmp_path), *sorted((tmp_path / "feeds").rglob("*.xml"))]:
        text = path.read_text(encoding="utf-8")
        assert not any(
            control in text for control in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
        ), path
    change_page = scan_file(tmp_path / present.change_href("x01")).text
    assert "Harmless txet added" in change_page
    assert "Section: Lamp › Wick kcik" in change_page
