"""Probe round 10: what a window reads must be what the whole page reads, around markup that
shows nothing, HTML lists and Mintlify's steps below a lead-in."""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts
from tests.test_properties import meaningful

STEPS = '<Steps>\n<Step title="Rinse">\nRinse the jar.\n</Step>\n<Step title="Dry">\nDry the jar.\n</Step>\n</Steps>\n'
HTML_LIST = "<ol>\n<li>Rinse the jar.</li>\n<li>Dry the jar.</li>\n</ol>\n"
HTML_TABLE = "<table>\n<tr><td>Rinse the jar.</td></tr>\n<tr><td>Dry the jar.</td></tr>\n</table>\n"


def findings(old: str, new: str, name: str) -> list[tuple[str, str, str | None, str | None]]:
    """The changes a reader acts on, checked to be the same windowed and whole."""
    whole = diff_texts(old, new, name, incremental=False)
    windowed = diff_texts(old, new, name)
    found = [
        (c.change_class.value, c.kind.value, c.old and c.old.text, c.new and c.new.text)
        for c in meaningful(windowed)
    ]
    assert found == [
        (c.change_class.value, c.kind.value, c.old and c.old.text, c.new and c.new.text)
        for c in meaningful(whole)
    ]
    return found


LISTINGS = [
    (STEPS, "page.mdx"),
    (HTML_LIST, "page.mdx"),
    (HTML_LIST, "page.md"),
    (HTML_TABLE, "page.md"),
]
BETWEEN = ["<!-- kept for the jar group -->\n", "[jars]: /jars\n"]


@pytest.mark.parametrize(
    ("listing", "name", "between"),
    [(listing, name, between) for listing, name in LISTINGS for between in BETWEEN]
    + [(listing, name, "{/* kept for the jar group */}\n\n") for listing, name in LISTINGS[:2]],
)
def test_markup_between_a_lead_in_and_its_html_list_keeps_them_in_one_window(
    listing: str, name: str, between: str
) -> None:
    """A window started at the markup, since the HTML list below it is markup too: the step
    edited was read without the requirement that introduces it, a missed alert."""
    old = f"# T\n\nPackers MUST do this:\n\n{between}{listing}"
    new = old.replace("Dry the jar.", "Dry the lid.")
    assert findings(old, new, name) == [
        (
            "normative",
            "modified",
            "Packers MUST do this: Dry the jar.",
            "Packers MUST do this: Dry the lid.",
        )
    ]


@pytest.mark.parametrize(
    "nesting",
    ['!!! note "Sources"\n    ', "> ", '=== "HTTP"\n\n    ', "[^1]: Where jars come from.\n\n    "],
    ids=["admonition", "quote", "content-tab", "footnote"],
)
def test_a_link_defined_inside_a_block_points_where_its_definition_says(nesting: str) -> None:
    """markdown-it reads a definition inside a quote or a container; the outline did not, so
    both versions were taken to define the same links, shared the parsed text of the sentence
    that uses it, and its new target went unseen, windowed and whole."""
    old = f"# T\n\nPackers MUST rinse [jars][rinse].\n\nMore.\n\n{nesting}[rinse]: /rinse\n"
    new = old.replace("]: /rinse", "]: /wash")
    assert findings(old, new, "page.md") == [
        ("editorial", "modified", "Packers MUST rinse jars.", "Packers MUST rinse jars.")
    ]


@pytest.mark.parametrize(
    ("above", "name"),
    [
        ("{{< hint warning >}}\nHot jars burn.\n{{< /hint >}}", "page.md"),
        ('{{< figure src="jar.png" >}}', "page.md"),
        ("{/* checked by the jar group */}", "page.mdx"),
        ("{{/* checked by the jar group */}}", "page.md"),
        ("[jars]: /jars", "page.md"),
        ("[^1]: Jars come from the shelf.", "page.md"),
        ("[^1]: Jars come from the shelf.\nThe top shelf.", "page.md"),
        ("*[PSI]: Pounds per square inch", "page.md"),
        ("Jars are kept cold.\n*[PSI]: Pounds per square inch", "page.md"),
    ],
    ids=[
        "closing-shortcode",
        "shortcode",
        "mdx-comment",
        "hugo-comment",
        "definition",
        "footnote",
        "footnote-lazy-line",
        "abbreviation",
        "abbreviation-below-text",
    ],
)
def test_a_rule_right_below_a_block_of_its_own_underlines_no_heading(above: str, name: str) -> None:
    """The parser reads `---` below such a line as a rule; the outline took it for a setext
    underline, so a window below it named a section the page does not have."""
    old = f"# T\n\n## Jars\n\n{above}\n---\n\nPackers MUST rinse jars.\n"
    new = old.replace("MUST", "SHOULD")
    for incremental in (True, False):
        page = diff_texts(old, new, name, incremental=incremental)
        assert [change.section for change in page.changes] == [("T", "Jars")]


def test_text_below_a_block_of_its_own_is_the_heading_a_rule_underlines() -> None:
    old = "# T\n\n## Jars\n\n[jars]: /jars\nCold jars\n---\n\nPackers MUST rinse jars.\n"
    new = old.replace("MUST", "SHOULD")
    for incremental in (True, False):
        page = diff_texts(old, new, "page.md", incremental=incremental)
        assert [change.section for change in page.changes] == [("T", "Cold jars")]


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_container_left_unclosed_runs_to_the_page_end_in_a_window_too(name: str) -> None:
    """A window started inside it read its tab's title line as a paragraph."""
    old = (
        "# T\n\n::: tabs\n\n== HTTP\n\nPackers MUST rinse jars.\n\nMore.\n\n"
        "== gRPC\n\nKettles SHOULD whistle.\n\nThe end.\n"
    )
    new = old.replace("== HTTP", "== HTTPS")
    assert findings(old, new, name) == [("editorial", "modified", "HTTP", "HTTPS")]


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_snippet_line_below_a_lead_in_keeps_its_list_in_one_window(name: str) -> None:
    """The line shows the file's text, never its words, so the paragraph still ends in the
    colon; a window started at the list read the item edited without its requirement."""
    items = "".join(f"- the jar on shelf {number}\n" for number in range(6))
    old = f'# T\n\nPackers MUST check:\n--8<-- "shelves.md"\n\n{items}\nThe end.\n'
    new = old.replace("shelf 5", "shelf 7")
    assert findings(old, new, name) == [
        (
            "normative",
            "modified",
            "Packers MUST check: the jar on shelf 5",
            "Packers MUST check: the jar on shelf 7",
        )
    ]


COMMENTED_DIAGRAM = {
    "page.md": "<!--\n```mermaid\ngraph TD\nJar-->Lid\n```\n-->",
    "page.mdx": "{/*\n```mermaid\ngraph TD\n*/}\nJar then lid\n```\n*/}",
}


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_fence_inside_a_comment_opens_nothing_in_a_window_either(name: str) -> None:
    """A comment ends at its first closer, here inside the diagram it comments out (a mermaid
    arrow closes an HTML comment), and the fence line after it opens a code block that runs
    on; the outline took the fence inside the comment for one and closed it there, so a
    window read what lies below as prose, and a requirement in it changed."""
    old = (
        f"# T\n\nIntro.\n\n{COMMENTED_DIAGRAM[name]}\n\n## Later\n\n"
        "Packers MUST rinse jars.\n\n```\ncode\n```\n\nThe end.\n"
    )
    new = old.replace("MUST rinse", "SHOULD rinse")
    assert [kind[:2] for kind in findings(old, new, name)] == [
        ("editorial", "added"),
        ("editorial", "removed"),
    ]


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_marker_of_fewer_colons_closes_no_container(name: str) -> None:
    """``:::`` inside ``::::note`` closes nothing for the parser, so a fence left open in the
    container runs on to its end; the outline closed both at the ``:::`` and read what follows
    as prose in a window, where the requirement changed."""
    old = (
        "# T\n\n::::note Jars\n\nJars are kept cold.\n\n```json\n{}\n:::\n\n"
        "Packers MUST rinse jars.\n\n- [x] Lids are counted.\n"
    )
    new = old.replace("- [x] Lids are counted.\n", "")
    assert [kind[:2] for kind in findings(old, new, name)] == [("editorial", "modified")]


@pytest.mark.parametrize(
    "above",
    [
        "- Jars are kept cold.\nand dry",
        "1. Jars are kept cold.\n   and dry",
        "> Jars are kept cold.\nand dry",
        "  > Jars are kept cold.\nand dry",
        "<!-- checked by\nthe jar group -->",
    ],
    ids=["item", "continuation-line", "quote", "indented-quote", "comment"],
)
def test_a_rule_below_a_lazy_line_or_a_comment_underlines_no_heading(above: str) -> None:
    """A lazy line goes on the item's or the quote's paragraph, which an underline at the
    margin cannot reach, and a comment's last line is no text: the parser reads a rule; the
    outline made a heading of the lines, named in the windows below it."""
    old = f"# T\n\n## Jars\n\n{above}\n---\n\nPackers MUST rinse jars.\n"
    new = old.replace("MUST", "SHOULD")
    for incremental in (True, False):
        page = diff_texts(old, new, "page.md", incremental=incremental)
        assert [change.section for change in page.changes] == [("T", "Jars")]
