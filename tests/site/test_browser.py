"""The site in a real Chromium: filters, collapsed hunks, cards, no JavaScript, the CSP, dark mode."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from spectrack.model import Hunk
from spectrack.site import build, present
from tests.site.conftest import BuiltSite
from tests.site.fixtures import Edit, site_data
from tests.site.scan import html_files

pytestmark = pytest.mark.browser

WORDLESS = {"formatting", "unchanged"}
"""Verdicts of edits that changed no word, hidden by the one toggle."""


class Console:
    """Every console message and uncaught error of a page."""

    def __init__(self, page: Page) -> None:
        self.messages: list[str] = []
        page.on("console", self._message)
        page.on("pageerror", lambda error: self.messages.append(f"pageerror: {error}"))

    def _message(self, message: ConsoleMessage) -> None:
        self.messages.append(f"{message.type}: {message.text}")


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    yield context.new_page()
    context.close()


def visible_titles(page: Page) -> list[str]:
    return page.locator("#change-list > li:visible a.title").all_inner_texts()


def test_the_index_lists_every_change(page: Page, sample_site: BuiltSite) -> None:
    page.goto(sample_site.url)
    rows = page.locator("#change-list > li")
    expect(rows).to_have_count(len(sample_site.data.changes))
    expect(page.locator("#filter-status")).to_have_text(
        f"Showing all {len(sample_site.data.changes)} changes."
    )


def test_the_verdict_filter_shows_one_class(page: Page, sample_site: BuiltSite) -> None:
    page.goto(sample_site.url)
    verdicts = {e.verdict for e in sample_site.data.changes}
    assert verdicts == {"normative", "editorial", "formatting", "unchanged"}
    for verdict in sorted(verdicts):
        page.select_option("#verdict-filter", verdict)
        expected = [e for e in sample_site.data.changes if e.verdict == verdict]
        visible = page.locator("#change-list > li:visible")
        expect(visible).to_have_count(len(expected))
        assert set(visible.evaluate_all("rows => rows.map(r => r.dataset.verdict)")) == {verdict}
    page.select_option("#verdict-filter", "")
    expect(page.locator("#change-list > li:visible")).to_have_count(len(sample_site.data.changes))


def test_the_text_filter_narrows_the_list_and_says_when_nothing_matches(
    page: Page, sample_site: BuiltSite
) -> None:
    page.goto(sample_site.url)
    page.fill("#text-filter", "KETTLE")
    kettle = [e for e in sample_site.data.changes if "kettle" in e.page_path]
    expect(page.locator("#change-list > li:visible")).to_have_count(len(kettle))
    assert all("Kettle" in title for title in visible_titles(page))
    expect(page.locator("#no-change-matches")).to_be_hidden()
    page.fill("#text-filter", "no page says this")
    expect(page.locator("#change-list > li:visible")).to_have_count(0)
    expect(page.locator("#no-change-matches")).to_be_visible()
    expect(page.locator("#filter-status")).to_have_text(
        f"Showing 0 of {len(sample_site.data.changes)} changes."
    )


def test_hiding_changes_without_word_changes_is_remembered(
    page: Page, sample_site: BuiltSite
) -> None:
    wordless = [e for e in sample_site.data.changes if e.verdict in WORDLESS]
    assert {e.verdict for e in wordless} == WORDLESS
    page.goto(sample_site.url)
    expect(page.locator("label", has=page.locator("#hide-formatting"))).to_have_text(
        "Hide formatting-only and unchanged edits"
    )
    page.check("#hide-formatting")
    shown = len(sample_site.data.changes) - len(wordless)
    expect(page.locator("#change-list > li:visible")).to_have_count(shown)
    page.reload()
    expect(page.locator("#hide-formatting")).to_be_checked()
    expect(page.locator("#change-list > li:visible")).to_have_count(shown)
    for verdict in WORDLESS:
        expect(page.locator(f'#change-list > li[data-verdict="{verdict}"]:visible')).to_have_count(
            0
        )
    page.uncheck("#hide-formatting")
    page.reload()
    expect(page.locator("#change-list > li:visible")).to_have_count(len(sample_site.data.changes))


def expected_rows(sample_site: BuiltSite, verdict: str, hide_wordless: bool) -> int:
    return sum(
        (verdict == "" or e.verdict == verdict) and not (hide_wordless and e.verdict in WORDLESS)
        for e in sample_site.data.changes
    )


@pytest.mark.parametrize("storage", ["works", "throws"])
def test_after_going_back_the_list_matches_the_filter_controls(
    browser: Browser, sample_site: BuiltSite, storage: str
) -> None:
    context = browser.new_context()
    if storage == "throws":
        # As in a browser that blocks site data: reading localStorage itself throws.
        context.add_init_script(
            "Object.defineProperty(window, 'localStorage', "
            "{get() { throw new DOMException('blocked', 'SecurityError'); }})"
        )
    page = context.new_page()
    page.goto(sample_site.url)
    page.select_option("#verdict-filter", "editorial")
    page.check("#hide-formatting")
    expect(page.locator("#change-list > li:visible")).to_have_count(
        expected_rows(sample_site, "editorial", True)
    )
    page.click("#change-list > li:visible a.title >> nth=0")
    expect(page.locator("#change-title")).to_be_visible()
    page.go_back()
    page.wait_for_load_state("load")
    verdict = page.input_value("#verdict-filter")
    hide = page.is_checked("#hide-formatting")
    rows = expected_rows(sample_site, verdict, hide)
    expect(page.locator("#change-list > li:visible")).to_have_count(rows)
    all_rows = len(sample_site.data.changes)
    expect(page.locator("#filter-status")).to_have_text(
        f"Showing all {all_rows} changes."
        if rows == all_rows
        else f"Showing {rows} of {all_rows} changes."
    )
    context.close()


def test_formatting_only_hunks_start_collapsed(page: Page, sample_site: BuiltSite) -> None:
    page.goto(sample_site.url + present.change_href("c08"))
    normative = page.locator("section.hunk-normative tbody tr")
    formatting = page.locator("section.hunk-formatting tbody tr")
    expect(normative.first).to_be_visible()
    expect(formatting.first).to_be_hidden()
    page.click("section.hunk-formatting summary")
    expect(formatting.first).to_be_visible()


def test_the_hunk_filter_names_a_hunk_without_matching_lines(
    page: Page, sample_site: BuiltSite
) -> None:
    normative_hunk, formatting_hunk = next(
        e for e in sample_site.data.changes if e.change_id == "c08"
    ).report.hunks

    def matching(hunk: Hunk, needle: str) -> int:
        return sum(needle in line.text.lower() for line in hunk.lines)

    page.goto(sample_site.url + present.change_href("c08"))
    page.fill("#hunk-filter", "dusted")
    expect(page.locator("section.hunk-normative tbody tr:visible")).to_have_count(
        matching(normative_hunk, "dusted")
    )
    messages = page.locator(".no-match")
    expect(messages.nth(0)).to_be_hidden()
    expect(messages.nth(1)).to_be_visible()
    expect(messages.nth(1)).to_have_text("No line of hunk 2 matches “dusted”.")
    expect(page.locator("#hunk-status")).to_have_text("2 lines in 1 hunk match “dusted”.")
    page.fill("#hunk-filter", "kettle")
    expect(messages.nth(0)).to_have_text("No line of hunk 1 matches “kettle”.")
    expect(page.locator("section.hunk-formatting tbody tr:visible")).to_have_count(
        matching(formatting_hunk, "kettle")
    )
    page.fill("#hunk-filter", "")
    expect(page.locator(".no-match:visible")).to_have_count(0)


def test_clearing_the_hunk_filter_folds_again_what_it_unfolded(
    page: Page, sample_site: BuiltSite
) -> None:
    page.goto(sample_site.url + present.change_href("c08"))
    folded = page.locator("section.hunk-formatting details")
    unfolded = page.locator("section.hunk-normative details")
    expect(folded).not_to_have_attribute("open", "")
    page.fill("#hunk-filter", "kettle")
    expect(folded).to_have_attribute("open", "")
    page.fill("#hunk-filter", "")
    expect(folded).not_to_have_attribute("open", "")
    expect(unfolded).to_have_attribute("open", "")
    expect(page.locator("section.hunk-formatting tbody tr").first).to_be_hidden()
    # A hunk the reader unfolded stays so: the filter folds only what it unfolded itself.
    page.click("section.hunk-formatting summary")
    page.fill("#hunk-filter", "kettle")
    page.fill("#hunk-filter", "")
    expect(folded).to_have_attribute("open", "")


def test_a_normative_card_shows_old_and_new_with_the_keywords(
    page: Page, sample_site: BuiltSite
) -> None:
    page.goto(sample_site.url + present.change_href("c03"))
    card = page.locator(".card-normative").first
    expect(card.locator("h3")).to_have_text("SHOULD → MUST: strengthened")
    expect(card.locator(".section-path")).to_have_text("Section: Greeting › Colours")
    expect(card.locator(".side-old .sentence")).to_have_text(
        "The lamp SHOULD glow amber while it waits."
    )
    expect(card.locator(".side-new .sentence")).to_have_text(
        "The lamp MUST glow amber while it waits."
    )
    expect(card.locator(".side-old mark.keyword")).to_have_text("SHOULD")
    expect(card.locator(".side-new mark.keyword")).to_have_text("MUST")
    expect(card.locator(".arrow")).to_be_visible()


def test_a_change_page_names_the_nearest_release(page: Page, sample_site: BuiltSite) -> None:
    page.goto(sample_site.url + present.change_href("c03"))
    fact = page.locator(".facts div", has_text="Nearest release")
    expect(fact.locator("dd")).to_have_text(
        "Nearest release: 2.0.0 (github lamps/lamp), published 5 hours after this edit. "
        "It is shown only because the two fall within 24 hours of each other; nothing suggests "
        "that one caused the other."
    )
    page.goto(sample_site.url + present.change_href("c01"))
    expect(page.locator(".facts div", has_text="Nearest release")).to_have_count(0)


def test_everything_shows_without_javascript(browser: Browser, sample_site: BuiltSite) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(sample_site.url)
    expect(page.locator("#change-list > li:visible")).to_have_count(len(sample_site.data.changes))
    expect(page.locator("#change-filters")).to_be_hidden()
    page.goto(sample_site.url + present.change_href("c08"))
    expect(page.locator("#hunk-filters")).to_be_hidden()
    expect(page.locator("section.hunk-normative tbody tr").first).to_be_visible()
    page.click("section.hunk-formatting summary")
    expect(page.locator("section.hunk-formatting tbody tr").first).to_be_visible()
    page.click("details.formatting summary")
    expect(page.locator("details.formatting li").first).to_be_visible()
    context.close()


def test_no_page_breaks_the_content_security_policy(
    browser: Browser, sample_site: BuiltSite
) -> None:
    context = browser.new_context()
    page = context.new_page()
    console = Console(page)
    pages = html_files(sample_site.folder)
    for path in pages:
        page.goto(sample_site.url + path.relative_to(sample_site.folder).as_posix())
        page.wait_for_load_state("load")
    page.goto(sample_site.url)
    page.fill("#text-filter", "greeting")
    assert console.messages == []
    context.close()


def test_the_site_works_from_file_urls(browser: Browser, sample_site: BuiltSite) -> None:
    context = browser.new_context()
    page = context.new_page()
    console = Console(page)
    page.goto((sample_site.folder / "index.html").as_uri())
    page.select_option("#verdict-filter", "normative")
    normative = [e for e in sample_site.data.changes if e.verdict == "normative"]
    expect(page.locator("#change-list > li:visible")).to_have_count(len(normative))
    page.click("#change-list > li:visible a.title >> nth=0")
    expect(page.locator("h1")).to_contain_text("changed")
    expect(page.locator("#hunk-filters")).to_be_visible()
    assert console.messages == []
    context.close()


def test_dark_mode_follows_the_reader_and_screenshots_are_kept(
    browser: Browser, sample_site: BuiltSite, artifacts: Path
) -> None:
    backgrounds = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme, viewport={"width": 1000, "height": 900})
        page = context.new_page()
        page.goto(sample_site.url)
        backgrounds[scheme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
        page.screenshot(path=artifacts / f"site-index-{scheme}.png", full_page=True)
        page.goto(sample_site.url + present.change_href("c03"))
        page.screenshot(path=artifacts / f"site-change-{scheme}.png", full_page=True)
        context.close()
    assert backgrounds == {"light": "rgb(255, 255, 255)", "dark": "rgb(15, 20, 25)"}


def test_a_phone_sees_the_page_without_sideways_scrolling(
    browser: Browser, sample_site: BuiltSite
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    for path in ("index.html", present.change_href("c08")):
        page.goto(sample_site.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, path
    context.close()


def test_long_unbroken_names_wrap_on_a_phone(browser: Browser, tmp_path: Path) -> None:
    word = "Unbrokenwordwithoutanyspace" * 6
    old = f"# {word}\n\n## {word}\n\nThe lamp MUST glow.\n\nSee *{word}*.\n"
    new = f"# {word}\n\n## {word}\n\nThe lamp MUST shine.\n\nSee _{word}_.\n"
    edit = Edit("x01", "lamps", "docs/lamp.md", old, new, 1, title=word)
    build(site_data([edit]), tmp_path)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto((tmp_path / present.change_href("x01")).as_uri())
    page.click("details.formatting summary")
    expect(page.locator("details.formatting li")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_landmarks_and_headings_outline_a_change_page(page: Page, sample_site: BuiltSite) -> None:
    page.goto(sample_site.url + present.change_href("c08"))
    expect(page.get_by_role("banner")).to_have_count(1)
    expect(page.get_by_role("main")).to_have_count(1)
    expect(page.get_by_role("contentinfo")).to_have_count(1)
    expect(page.get_by_role("heading", level=1)).to_have_text("Handbook changed")
    headings = page.get_by_role("heading", level=2).all_inner_texts()
    assert headings == [
        "Normative changes",
        "Editorial changes",
        "Formatting changes",
        "Changed lines",
    ]
