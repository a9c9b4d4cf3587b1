"""Windowed diffs (only what changed is parsed) agree with whole-page diffs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import fuzz
from spectrack.diff import diff_texts
from spectrack.markdown.outline import outline
from spectrack.markdown.parser import parser
from spectrack.model import PageReport
from tests.test_properties import meaningful


def windowed_as_whole(old: str, new: str, name: str = "page.md") -> PageReport:
    """The whole-page diff, checked to be what the windowed diff reports too."""
    whole = diff_texts(old, new, name, incremental=False)
    assert diff_texts(old, new, name) == whole
    return whole


def read_alike(old: str, new: str, name: str = "page.md") -> PageReport:
    """The whole-page diff, checked to hold the changes a reader acts on that the windowed diff
    reports (a window sees fewer blocks, so it may group formatting changes otherwise)."""
    whole = diff_texts(old, new, name, incremental=False)
    assert meaningful(diff_texts(old, new, name)) == meaningful(whole)
    return whole


def kinds(report: PageReport) -> list[tuple[str, str]]:
    """(class, kind) of every change that is not formatting."""
    return [(c.change_class.value, c.kind.value) for c in meaningful(report)]


def added_texts(report: PageReport) -> list[str | None]:
    """The report's changes, each as the new text of an addition (None for any other kind)."""
    return [
        change.new.text if change.kind.value == "added" and change.new else None
        for change in report.changes
    ]


HEADING = "## Small kettles\n\n"
NOTE = "<!-- checked by the kettle group -->\n\n"
OLD = HEADING * 4
NEW = (HEADING + NOTE) * 4 + "A kettle is REQUIRED here.\n\n" + NOTE


def test_windows_agree_with_the_whole_page_when_headings_repeat() -> None:
    whole = diff_texts(OLD, NEW, "page.md", incremental=False)
    assert [change.kind.value for change in whole.changes] == ["added"]
    assert diff_texts(OLD, NEW, "page.md") == whole


def test_a_heading_written_again_above_its_twin_is_the_one_added_either_way() -> None:
    old = "- Kettles hum.\n\nThe lid MUST lock.\n\n### Errors\n"
    whole = read_alike(old, "### Errors\n" + old)
    assert [(change.kind.value, change.new and change.new.line) for change in whole.changes] == [
        ("added", 1)
    ]


DIV_OLD = '<div id="enable-section-numbers" />\n\n## Small kettles\n\n## Small kettles\n'
DIV_NEW = "## Small kettles\n\n## Small kettles\n\nA element is **REQUIRED** here.\n"


def test_two_identical_headings_after_a_dropped_div_are_not_moved() -> None:
    whole = diff_texts(DIV_OLD, DIV_NEW, "page.md", incremental=False)
    assert [change.kind.value for change in whole.changes] == ["added"]
    assert diff_texts(DIV_OLD, DIV_NEW, "page.md") == whole


def test_a_title_gaining_a_space_reports_the_same_requirement_either_way() -> None:
    old = "---\ntitle: Small kettles\n---\n\n## Small kettles\n"
    new = "---\ntitle: Small kettles \n---\n\n## Small kettles \n\nThe kettle MUST heat the kettle. \n"
    whole = diff_texts(old, new, "page.md", incremental=False)
    windowed = diff_texts(old, new, "page.md")
    # Whitespace-only windows are reported as one formatting change each, unparsed.
    assert windowed.verdict == whole.verdict == "normative"
    assert meaningful(windowed) == meaningful(whole)


FENCES = (
    "Intro.\n\n````md\n```\n# Not a heading\n```\n````  \n\n## After\n\nText.\n\n"
    "~~~\n~~~~ x\n# Inside\n~~~\n\nEnd.\n"
)


def test_headings_after_fences_closed_by_longer_or_padded_markers_are_found() -> None:
    new = FENCES.replace("Text.", "Text MUST change.").replace("End.", "End MAY too.")
    whole = diff_texts(FENCES, new, "page.md", incremental=False)
    assert [change.new.text for change in whole.changes if change.new] == [
        "Text MUST change.",
        "End MAY too.",
    ]
    assert {change.section for change in whole.changes} == {("After",)}
    assert diff_texts(FENCES, new, "page.md") == whole


@pytest.mark.parametrize("underline", ["=====", "-----"])
def test_setext_headings_with_no_blank_line_between_them_take_only_their_own_text(
    underline: str,
) -> None:
    old = f"Valves\n{underline}\nA valve opens.\nSeals\n{underline}\n\nIntro.\n\nA seal MAY leak.\n"
    whole = windowed_as_whole(old, old.replace("MAY", "MUST NOT"))
    assert [change.section for change in whole.changes] == [("A valve opens. Seals",)]


LEAD_IN = "# Valves\n\nA valve MUST close when:\n\n" + "".join(
    f"- signal {number} arrives\n\n" for number in range(12)
)


def test_a_window_keeps_a_changed_item_with_the_requirement_that_introduces_its_list() -> None:
    new = LEAD_IN.replace("signal 9 arrives", "signal 9 arrives twice")
    whole = diff_texts(LEAD_IN, new, "page.md", incremental=False)
    assert [(c.change_class.value, c.kind.value) for c in whole.changes] == [
        ("normative", "modified")
    ]
    assert whole.changes[0].new is not None
    assert whole.changes[0].new.text == "A valve MUST close when: signal 9 arrives twice"
    assert diff_texts(LEAD_IN, new, "page.md") == whole


@pytest.mark.parametrize(
    "lead_in",
    [
        "Servers MUST reject a request when:\n\n- the header is\nmissing\n\n",
        "Servers MUST reject a request when:\n<!-- checked -->\n",
        'Servers MUST reject a request when:\n<div id="reject" />\n\n',
        "Servers MUST reject the header `Accept:`\n\n",
        "Servers MUST reject [requests when:](#reject)\n\n",
        "Servers <b>MUST reject when:</b>\n\n",
    ],
    ids=["lazy-line", "comment-under", "div-under", "colon-in-code", "colon-in-link", "in-html"],
)
def test_an_item_edited_far_from_its_lead_in_is_part_of_it_either_way(lead_in: str) -> None:
    old = "# Requests\n\n" + lead_in + "".join(f"- case {n} holds\n\n" for n in range(8))
    new = old.replace("case 6 holds", "case 6 holds twice")
    whole = diff_texts(old, new, "page.md", incremental=False)
    assert [(c.change_class.value, c.kind.value) for c in whole.changes] == [
        ("normative", "modified")
    ]
    assert diff_texts(old, new, "page.md") == whole


@pytest.mark.parametrize(
    "item",
    ['- ```json\n  {"a": 1}\n```\n', '- Send:\n  ```json\n  {"a": 1}\n```\n'],
    ids=["opening-the-item", "inside-the-item"],
)
def test_a_fence_in_an_item_ends_with_the_item(item: str) -> None:
    old = f"# Title\n\n{item}\n## Errors\n\nServers MUST reject it.\n"
    new = old.replace("MUST", "MAY")
    whole = diff_texts(old, new, "page.md", incremental=False)
    assert whole.verdict == "editorial", "the page ends in a fence the last line opens"
    assert diff_texts(old, new, "page.md") == whole


def test_an_item_moved_to_a_weaker_lead_in_is_weakened_not_moved() -> None:
    old = (
        "# T\n\nServers MUST reject a request when:\n\n- the header is missing\n- the body is "
        "empty\n\nServers MAY accept a request when:\n\n- the body is large\n"
    )
    new = old.replace("- the header is missing\n", "").replace(
        "- the body is large", "- the header is missing\n- the body is large"
    )
    whole = diff_texts(old, new, "page.md", incremental=False)
    assert [(c.change_class.value, c.kind.value) for c in whole.changes] == [
        ("normative", "weakened")
    ]
    assert whole.changes[0].new is not None
    assert whole.changes[0].new.keywords == ("MAY",)
    assert diff_texts(old, new, "page.md") == whole


@pytest.mark.parametrize(
    ("below", "moved"),
    [
        ("- the body is large\n", "- the body is large\n- the header is missing\n"),
        ("- the body is large\n", "- the header is missing\n- the body is large\n"),
    ],
    ids=["to-the-end", "to-the-head"],
)
def test_an_item_moved_to_another_requirement_with_the_same_keyword_is_modified(
    below: str, moved: str
) -> None:
    old = (
        "# T\n\nClients MUST reject a request when:\n\n- the header is missing\n- the body "
        "is empty\n\nServers MUST reject a request when:\n\n" + below
    )
    new = old.replace("- the header is missing\n", "").replace(below, moved)
    assert [
        (c.change_class.value, c.kind.value, c.old and c.old.text, c.new and c.new.text)
        for c in meaningful(windowed_as_whole(old, new))
    ] == [
        (
            "normative",
            "modified",
            "Clients MUST reject a request when: the header is missing",
            "Servers MUST reject a request when: the header is missing",
        )
    ]


def test_the_only_item_of_a_list_moved_to_another_requirement_is_modified() -> None:
    old = (
        "# T\n\nClients MUST reject a request when:\n\n- the header is missing\n\n"
        "Servers MUST reject a request when:\n\n- the body is large\n"
    )
    new = old.replace("- the header is missing\n\n", "").replace(
        "when:\n\n- the body", "when:\n\n- the header is missing\n- the body"
    )
    assert kinds(windowed_as_whole(old, new)) == [("normative", "modified")]


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        (
            [("reject", "refuse"), ("the body", "a body")],
            [("normative", "modified"), ("editorial", "modified")],
        ),
        ([("MUST", "SHOULD")], [("normative", "weakened")]),
    ],
    ids=["reworded-beside-a-grammar-edit", "weakened"],
)
def test_a_changed_lead_in_is_reported_once(
    edits: list[tuple[str, str]], expected: list[tuple[str, str]]
) -> None:
    old = "# T\n\nServers MUST reject a request when:\n\n- the body is empty\n- it is late\n"
    new = old
    for before, after in edits:
        new = new.replace(before, after)
    assert kinds(diff_texts(old, new, "page.md")) == expected


@pytest.mark.parametrize(
    "between", ["<!-- to check -->", "{/* to check */}", '<div id="x" />', "[spec]: https://x.test"]
)
def test_markup_that_shows_nothing_between_items_keeps_them_in_one_requirement(
    between: str,
) -> None:
    old = (
        "# T\n\nServers MUST reject a request when:\n\n- the token is late\n\n"
        f"{between}\n\n- the scope is missing\n"
    )
    new = old.replace("scope is missing", "scope is wider")
    assert [
        (c.change_class.value, c.kind.value, c.new and c.new.text)
        for c in meaningful(windowed_as_whole(old, new, "page.mdx"))
    ] == [("normative", "modified", "Servers MUST reject a request when: the scope is wider")]
    assert windowed_as_whole(old.replace(f"{between}\n\n", ""), old, "page.mdx").verdict == (
        "formatting"
    )


@pytest.mark.parametrize("between", ["---", "```\n```"], ids=["rule", "empty-code-block"])
def test_a_rule_or_a_code_block_between_items_ends_the_requirement(between: str) -> None:
    old = (
        "# T\n\nServers MUST reject a request when:\n\n- the token is late\n\n"
        f"{between}\n\n- the scope is missing\n"
    )
    new = old.replace("scope is missing", "scope is wider")
    assert windowed_as_whole(old, new).verdict == "editorial"


@pytest.mark.parametrize(
    ("between", "name"),
    [
        ("[spec]: https://x.test", "page.md"),
        ("```\n```", "page.md"),
        ('import { Valve } from "/snippets/valve.mdx"', "page.mdx"),
    ],
    ids=["definition", "empty-code-block", "import"],
)
def test_a_lead_in_and_its_list_are_read_alike_in_a_window(between: str, name: str) -> None:
    old = f"# T\n\nServers SHOULD send:\n\n{between}\n\n* the token\n"
    read_alike(old, old.replace(between, "Valves"), name)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "# T\n\nServers MUST send one of:\n\n- `ok`\n- `busy`\n\nB.\n\nA.\n",
            "# T\n\nA.\n\n- `busy`\n\nB.\n\nServers MUST send one of:\n\n- `ok`\n",
        ),
        (
            "# T\n\nServers SHOULD send:\n <!-- below the lead-in -->\n+ the token\n+ the seal",
            "# T\n\nServers SHOULD send:\n <!-- below the lead-in -->\n+ the token",
        ),
    ],
    ids=["to-a-plain-list-in-another-window", "below-an-indented-comment"],
)
def test_an_item_that_leaves_its_requirement_is_seen_in_every_window(old: str, new: str) -> None:
    assert kinds(read_alike(old, new)) == [("normative", "removed")]


def test_an_item_moved_within_its_list_is_a_move() -> None:
    old = "# T\n\nClients MUST reject a request when:\n\n- the header is missing\n- it is empty\n"
    new = old.replace(
        "- the header is missing\n- it is empty", "- it is empty\n- the header is missing"
    )
    assert [c.kind.value for c in diff_texts(old, new, "page.md").changes] == ["moved"]


@pytest.mark.parametrize(
    ("lead_in", "order_matters"),
    [
        ("Valves MUST be opened sequentially:", True),
        ("Routes MUST be tried by priority:", True),
        ("Codecs SHOULD be offered, most preferred first:", True),
        ("Valves MUST be checked in the order listed:", True),
        ("After connecting, clients MUST send these first:", False),
        ("The server MUST run these checks, in any order:", False),
        ("Every purchase order MUST hold:", False),
        ("Each packet MUST carry a sequence number and:", False),
        ("In order to connect, clients MUST send:", False),
    ],
)
def test_an_item_moved_in_its_list_is_modified_only_where_the_order_is_required(
    lead_in: str, order_matters: bool
) -> None:
    old = f"# T\n\n{lead_in}\n\n- the header\n- the token\n"
    new = old.replace("- the header\n- the token", "- the token\n- the header")
    expected = [("normative", "modified")] if order_matters else []
    assert kinds(read_alike(old, new)) == expected


def test_a_heading_moved_past_a_list_in_a_required_order_moves_no_item() -> None:
    old = "# T\n\n## Valves\n\nValves MUST open in this order:\n\n- the inlet\n- the outlet\n\n## Pipes\n\nText.\n"
    new = old.replace("## Valves\n\n", "").replace("## Pipes\n\n", "## Pipes\n\n## Valves\n\n")
    assert kinds(read_alike(old, new)) == []


@pytest.mark.parametrize("marker", ["- ", "1. "])
def test_an_item_moved_within_a_list_whose_order_is_required_is_modified(marker: str) -> None:
    old = (
        f"# T\n\nClients MUST send these, in this order:\n\n{marker}the header\n"
        f"{marker}the token\n{marker}the body\n"
    )
    new = old.replace(f"{marker}the header\n", "").replace(
        "the body\n", "the body\n" + marker + "the header\n"
    )
    assert kinds(read_alike(old, new)) == [("normative", "modified")]


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
@pytest.mark.parametrize(
    ("lead_in", "added"),
    [
        ("<b>Lids</b> MUST NOT leak when:", "- the jar is hot:\n  - the lid is open.\n"),
        ('<span title="x">Cups</span> SHOULD rest when:', "\n    the handle is hot\n"),
    ],
    ids=["nested-item", "indented-paragraph"],
)
def test_a_lead_in_that_starts_with_a_tag_keeps_its_list_in_a_window(
    lead_in: str, added: str, name: str
) -> None:
    old = f"{lead_in}\n- the jar tips.\n- the lid is open.\n"
    new = old.replace("- the lid is open.\n", added) if added.startswith("- ") else old + added
    assert kinds(read_alike(old, new, name)) == [("normative", "added")]


TABLE_UNDER_A_LEAD_IN = (
    "# Jars\n\nIntro text.\n\nEvery jar label MUST show these fields:\n\n"
    "| Field | Form |\n|---|---|\n| `name` | text |\n| `size` | litres |\n\nMore text.\n"
)


@pytest.mark.parametrize(
    ("old_row", "new_row", "expected"),
    [
        (
            "| `size` | litres |\n",
            "| `size` | litres |\n| `lid` | text |\n",
            [("normative", "added")],
        ),
        ("| `size` | litres |\n", "", [("normative", "removed")]),
        ("| `size` | litres |", "| `size` | millilitres |", [("normative", "modified")]),
        ("| Field | Form |", "| Label field | Form |", [("editorial", "modified")]),
    ],
    ids=["row-added", "row-removed", "row-changed", "header-renamed"],
)
def test_the_rows_of_a_table_a_requirement_introduces_are_part_of_it(
    old_row: str, new_row: str, expected: list[tuple[str, str]]
) -> None:
    new = TABLE_UNDER_A_LEAD_IN.replace(old_row, new_row)
    assert kinds(read_alike(TABLE_UNDER_A_LEAD_IN, new)) == expected


HTML_TABLE_UNDER_A_LEAD_IN = (
    "# Jars\n\nIntro text.\n\nEvery jar label MUST show these fields:\n\n<table>\n"
    "<tr><th>Field</th><th>Form</th></tr>\n<tr><td>name</td><td>text</td></tr>\n"
    "<tr><td>size</td><td>litres</td></tr>\n</table>\n\nMore text.\n"
)


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
@pytest.mark.parametrize(
    ("old_row", "new_row", "expected"),
    [
        ("<tr><td>size</td><td>litres</td></tr>\n", "", [("normative", "removed")]),
        ("<td>litres</td>", "<td>millilitres</td>", [("normative", "modified")]),
        ("<th>Field</th>", "<th>Label field</th>", [("editorial", "modified")]),
        (
            "<tr><td>size</td>",
            '<tr><th scope="row">volume</th>',
            [("normative", "modified")],
        ),
    ],
    ids=["row-removed", "row-changed", "header-renamed", "row-that-heads-itself-changed"],
)
def test_the_rows_of_an_html_table_a_requirement_introduces_are_part_of_it(
    old_row: str, new_row: str, expected: list[tuple[str, str]], name: str
) -> None:
    new = HTML_TABLE_UNDER_A_LEAD_IN.replace(old_row, new_row)
    assert kinds(read_alike(HTML_TABLE_UNDER_A_LEAD_IN, new, name)) == expected


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
@pytest.mark.parametrize("wrapper", ["div", "figure"])
def test_a_table_a_wrapper_lays_out_is_still_part_of_the_requirement(
    wrapper: str, name: str
) -> None:
    old = TABLE_UNDER_A_LEAD_IN.replace(
        "| Field | Form |", f'<{wrapper} class="wide">\n\n| Field | Form |'
    ).replace("\n\nMore text.", f"\n\n</{wrapper}>\n\nMore text.")
    new = old.replace("| `size` | litres |", "| `size` | millilitres |")
    assert kinds(read_alike(old, new, name)) == [("normative", "modified")]


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_table_under_a_requirement_written_in_html_is_formatting(name: str) -> None:
    report = read_alike(TABLE_UNDER_A_LEAD_IN, HTML_TABLE_UNDER_A_LEAD_IN, name)
    assert report.verdict == "formatting"


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
@pytest.mark.parametrize(
    "header",
    [
        "<thead><tr><td>Field</td><td>Form</td></tr></thead>",
        "<tr><td><b>Field</b></td><td><strong>Form</strong></td></tr>",
        "<tr><td>**Field**</td><td>**Form**</td></tr>",
    ],
    ids=["head-of-plain-cells", "first-row-in-bold-tags", "first-row-in-bold-markdown"],
)
def test_a_header_row_without_header_cells_names_columns(header: str, name: str) -> None:
    new = HTML_TABLE_UNDER_A_LEAD_IN.replace("<tr><th>Field</th><th>Form</th></tr>", header)
    assert read_alike(TABLE_UNDER_A_LEAD_IN, new, name).verdict == "formatting"


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_bold_row_below_the_first_is_an_item(name: str) -> None:
    new = HTML_TABLE_UNDER_A_LEAD_IN.replace(
        "<tr><td>size</td><td>litres</td></tr>", "<tr><td><b>size</b></td><td><b>cl</b></td></tr>"
    )
    assert kinds(read_alike(HTML_TABLE_UNDER_A_LEAD_IN, new, name)) == [("normative", "modified")]


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_first_row_with_bold_words_among_others_is_an_item(name: str) -> None:
    old = HTML_TABLE_UNDER_A_LEAD_IN.replace(
        "<th>Field</th><th>Form</th>", "<td>**a** or **b**</td>"
    )
    new = old.replace("**a** or **b**", "**a** or **c**")
    assert kinds(read_alike(old, new, name)) == [("normative", "modified")]


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_table_caption_is_no_item_of_the_requirement(name: str) -> None:
    new = HTML_TABLE_UNDER_A_LEAD_IN.replace(
        "<table>\n", "<table>\n<caption>Label fields</caption>\n"
    )
    assert kinds(read_alike(HTML_TABLE_UNDER_A_LEAD_IN, new, name)) == [("editorial", "added")]


DEFINITIONS = "".join(f"Paragraph {n} about lids.\n\n" for n in range(6)) + (
    "Seal time\n\n:   The lid MUST seal in 5 s.\n\n:   It MAY click.\n\n"
    "Open time\n: The lid SHOULD open in 2 s.\n\n"
)


@pytest.mark.parametrize(
    ("old_text", "new_text", "expected"),
    [
        ("5 s", "9 s", [("normative", "modified")]),
        ("MAY click", "MUST click", [("normative", "strengthened")]),
        ("Seal time", "Sealing time", [("editorial", "added"), ("editorial", "removed")]),
        ("\n\n:   It MAY", "\n\nIt MAY", []),
    ],
    ids=["definition-changed", "definition-strengthened", "term-renamed", "definition-as-text"],
)
def test_a_definition_is_read_alike_in_a_window_and_on_the_whole_page(
    old_text: str, new_text: str, expected: list[tuple[str, str]]
) -> None:
    old = "# Lids\n\n" + DEFINITIONS * 2
    new = "# Lids\n\n" + DEFINITIONS + DEFINITIONS.replace(old_text, new_text)
    assert kinds(read_alike(old, new)) == expected


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_an_html_list_a_requirement_introduces_is_part_of_it(name: str) -> None:
    html = (
        "# T\n\nIntro.\n\nValves MUST be checked for:\n\n<ul>\n<li>rust on the seat</li>\n"
        "<li>leaks at the gland</li>\n</ul>\n\nMore text.\n"
    )
    markdown = html.replace("<ul>\n<li>", "- ").replace("</li>\n<li>", "\n- ")
    markdown = markdown.replace("</li>\n</ul>", "")
    assert read_alike(markdown, html, name).verdict == "formatting"
    added = html.replace("</ul>", "<li>cracks in the body</li>\n</ul>")
    assert kinds(read_alike(html, added, name)) == [("normative", "added")]


def test_an_item_lists_the_keywords_of_its_lead_in_first() -> None:
    old = "# T\n\nServers MUST retry when:\n\n- the client SHOULD wait\n"
    (change,) = diff_texts(old, old.replace("SHOULD", "MAY"), "page.md").changes
    assert change.new is not None and change.new.keywords == ("MUST", "MAY")


def test_an_ordered_list_that_no_longer_starts_at_one_is_windowed_alike() -> None:
    old = (
        "# Kettles\n\nThe lid MUST hold the spout:\n\n1. blue lid\nsteel lid\n"
        '2. ```json\n   {"spout": 1}\n   ```\n3. cold handle\n\nThe base stays.\n'
    )
    new = old.replace("1. blue lid\n", "")
    windowed = diff_texts(old, new, "page.md")
    assert meaningful(windowed) == meaningful(diff_texts(old, new, "page.md", incremental=False))


FENCE_PIECES = [
    "Text of a kettle.",
    "2. ```json",
    "1. ```json",
    "- ```json",
    "   ```",
    "```",
    "- a lid",
    "3. a spout",
    "",
    "# Kettles",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(FENCE_PIECES), max_size=14))
def test_the_outline_opens_fences_where_the_parser_does(lines: list[str]) -> None:
    """An item numbered other than 1 cannot interrupt a paragraph outside a list, and a fence
    it seems to open is paragraph text; the windows are cut by the outline's fences. (Lines
    indented by one to three spaces are left out: after a blank line the outline takes them
    for more of a list item, as it did before.)"""
    text = "\n".join(lines) + "\n"
    page = outline(text, "page.md")
    tokens = parser(page.dialect).parse(text, {})
    assert set(page.fenced.firsts) == {t.map[0] for t in tokens if t.type == "fence" and t.map}


ESM_PAGE = (
    "import { Kettle } from '../kettles'\n"
    "export const lids = [\n"
    "# not a heading: the statement runs to the blank line\n"
    "<Kettle spout />,\n"
    "]\n"
    "\n"
    "# Kettles\n"
    "\n"
    "## Lids\n"
    "\n"
    "A lid SHOULD fit the kettle.\n"
)


def test_an_mdx_statement_runs_to_the_blank_line_in_the_outline_as_in_the_parser() -> None:
    page = outline(ESM_PAGE, "kettles.mdx")
    assert [(heading.line, heading.source) for heading in page.headings] == [
        (6, "Kettles"),
        (8, "Lids"),
    ]
    assert not any(page.is_chunk_start(line) for line in range(1, 5))
    whole = windowed_as_whole(ESM_PAGE, ESM_PAGE.replace("SHOULD", "MUST"), "kettles.mdx")
    assert [(c.kind.value, c.section) for c in whole.changes] == [
        ("strengthened", ("Kettles", "Lids"))
    ]


@pytest.mark.parametrize("statement", ["export const lids = 1", "import { Kettle } from './k'"])
def test_an_mdx_statement_swallows_the_lines_up_to_the_blank_line_either_way(
    statement: str,
) -> None:
    """Written without a blank line, what follows a statement is part of it for the parser."""
    old = f"{statement}\n## Lids\nA lid MUST fit.\n\nThe end.\n"
    assert windowed_as_whole(old, old.replace("MUST", "MAY"), "page.mdx").verdict == "formatting"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "# Kettles\n---\n- A kettle MUST whistle.\n---\n",
            "# Kettles\n- A kettle MUST whistle.\n",
        ),
        (
            "# Kettles\n\n***\n\nA lid SHOULD fit.\n\n***\n\nThe end.\n",
            "# Kettles\n\n---\nA lid SHOULD fit.\n\n---\n\nThe end.\n",
        ),
    ],
    ids=["rules-removed", "rules-restyled"],
)
def test_a_window_that_starts_at_a_rule_opens_no_front_matter(old: str, new: str) -> None:
    """Only the page's first line may open front matter; a window starting at a rule of
    dashes is in the middle of the page."""
    assert windowed_as_whole(old, new).verdict == "formatting"


@pytest.mark.parametrize("above", ["\n", "<!-- draft -->\n\n"], ids=["blank-line", "comment"])
def test_front_matter_pushed_down_from_the_first_line_is_read_anew_either_way(above: str) -> None:
    """Its lines are unchanged, but below a new first line they are a rule and a heading."""
    old = "---\ntitle: Kettles\n---\n\nA kettle MUST whistle.\n"
    title = windowed_as_whole(old, above + old).changes[-1]
    assert title.kind.value == "modified"
    assert title.old is not None and title.old.text == "Kettles"
    assert title.new is not None and title.new.text == "title: Kettles"


@pytest.mark.parametrize(
    ("name", "closing", "closes"),
    [
        ("page.mdx", "    ---", True),
        ("page.mdx", "\t----", True),
        ("page.md", "    ---", False),
        ("page.md", "   ---", True),
    ],
)
def test_front_matter_closed_by_an_indented_line_of_dashes_is_read_as_the_parser_reads_it(
    name: str, closing: str, closes: bool
) -> None:
    """MDX reads no indented code, so there an indented line of dashes closes front matter."""
    old = f"---\ntitle: Kettles\n{closing}\n\nA kettle SHOULD whistle.\n\nThe end.\n"
    new = old.replace("SHOULD", "MUST")
    page = outline(old, name)
    assert (page.body_start, page.title) == ((3, "Kettles") if closes else (0, None))
    assert windowed_as_whole(old, new, name).verdict == "normative"


@pytest.mark.parametrize(
    "above",
    [
        "***",
        '<div id="kettles" />',
        "<!-- a note -->",
        "[guide]: https://kettles.example/",
        '!!! warning "Hot"\n    Handles get hot.',
        '!!! warning "Hot"\n    Handles get hot.\n{/* a note */}',
        'Kettles are tall.\n<div id="kettles" />',
    ],
    ids=[
        "rule",
        "element",
        "comment",
        "definition",
        "admonition-body",
        "comment-below-admonition-body",
        "block-level-tag-below-text",
    ],
)
def test_an_mdx_statement_after_a_line_that_ends_itself_runs_to_the_blank_line(
    above: str,
) -> None:
    old = f"{above}\nexport const meta = 1\n# Kettles\nA kettle MUST whistle.\n\nThe end.\n"
    assert windowed_as_whole(old, old.replace("MUST", "MAY"), "page.mdx").verdict == "formatting"


def test_a_page_whose_dialect_changes_is_read_anew_either_way() -> None:
    """Its last MDX comment gone, a page is Markdown, where an indented line is code."""
    old = "    A kettle MUST whistle.\n\n{/* a note */}\n"
    new = "    A kettle MUST whistle.\n\n### Spouts\n"
    whole = windowed_as_whole(old, new)
    assert [(c.change_class.value, c.kind.value) for c in whole.changes] == [
        ("editorial", "added"),
        ("normative", "removed"),
        ("editorial", "added"),
    ]


@pytest.mark.parametrize(
    "opening",
    ["<p>A kettle sings.", '<div id="lids" /> Lids below.'],
    ids=["unclosed", "text-after-the-tag"],
)
def test_an_html_block_runs_to_the_blank_line_in_the_outline_as_in_the_parser(
    opening: str,
) -> None:
    """A block-level tag whose element does not end its line is left to the HTML block rule,
    which reads every line up to a blank one as raw HTML: there is no heading in it."""
    old = f"# Kettles\n\n{opening}\n## Lids\nA lid MUST fit.\n\nThe end.\n"
    whole = windowed_as_whole(old, old.replace("MUST", "MAY"))
    assert [change.section for change in whole.changes] == [("Kettles",)]
    assert [heading.source for heading in outline(old, "page.md").headings] == ["Kettles"]


@pytest.mark.parametrize(
    "text",
    [
        "- item\n  <div>para\n## Lids\n",
        ":::note\n<p>Some text\n:::\n## Lids\n",
        ":::tip\n2. ```sh\nls\n```\n:::\n",
        "!!! note\n2. ```sh\nls\n```\n",
        "[ref]: https://kettles.example/\n2) ```\nls\n```\n",
        "<!--\na note\n-->\n2) ```\nls\n```\n",
        "===\nexport const a = 1\n# Kettles\n",
        "Some text\n<Kettle />\nexport const a = 1\n# Kettles\n",
        "<Warning>\nHandles stay cool.\n</Warning>\nexport const a = 1\n## Lids\n",
        '!!! note "Hot"\n    Handles get hot.\nexport const a = 1\n## Lids\n',
        '!!! note "Hot"\n    Handles get hot.\n\n\n    Spouts pour.\nexport const a = 1\n## Lids\n',
        'Kettles are tall.\n<div id="kettles" />\nexport const a = 1\n## Lids\n',
        "Kettles are tall.\n<span>tall</span>\nexport const a = 1\n## Lids\n",
        "Kettles are tall.\n\t<div />\nexport const a = 1\n## Lids\n",
        "!!!\n    Handles get hot.\nexport const a = 1\n## Lids\n",
        "!!!  note\n    Handles get hot.\nexport const a = 1\n## Lids\n",
        "!!!note\n   Handles get hot.\nexport const a = 1\n## Lids\n",
        "!!! note\n    Handles get hot.\n    \n\n    Spouts pour.\nexport const a = 1\n## Lids\n",
        "[a]: https://k.example/a\n[b]: https://k.example/b\nexport const a = 1\n## Lids\n",
        "# Kettles\n\n[a]: https://k.example/a\n[b]: https://k.example/b\n[c]: https://k.example/c\n"
        "export const a = 1\n## Lids\n",
        "Kettles.\n[a]: https://k.example/a\n[b]: https://k.example/b\nexport const a = 1\n## Lids\n",
        "    - ```\n\n## Lids\n",
        "- a\n\n      - ```\n\n## Lids\n",
        "Text.\n\n    1. ~~~\n\n## Lids\n",
        ">\n\t```\n\n## Lids\n",
        "> Kettles are tall.\nand wide.\n    ```\n\n## Lids\n",
        "Kettles.\n> Lids.\n    ## Lids\n",
        "> Kettles.\n## Spouts\nSpouts pour.\n\t```\n\n## Lids\n",
        "   - Kettles.\n    ```\n\n## Lids\n",
        "   - Kettles.\n    ## Spouts\n\n## Lids\n",
        "- Kettles.\n      ```\n\n## Lids\n",
        ">\nKettles.\n2. ~~~json\n   ~~~\n\n## Lids\n",
        "> Kettles.\n2. ~~~json\n   ~~~\n\n## Lids\n",
        "Kettles.\n    ```\n3. Lids\n   ~~~\n\n## Lids\n",
        ":::info\n+ Kettles.\n:::\n  ````python\n\n## Lids\n",
        " <div /> Kettles.\n````python\n\n## Lids\n",
        "Kettles.\n   <div /> Lids.\n````python\n\n## Lids\n",
        "    kettle = 1\nKettles.\n2. ~~~json\n   ~~~\n\n## Lids\n",
        "# Kettles\n    kettle = 1\nKettles.\n2. ~~~json\n   ~~~\n\n## Lids\n",
        "    kettle = 1\n    lid = 2\n2. ~~~\n   ~~~\n## Lids\n",
    ],
)
@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_the_outline_finds_the_fences_and_headings_the_parser_finds(text: str, name: str) -> None:
    """Blocks inside list items and containers, lines that end a paragraph or go on with it."""
    page = outline(text, name)
    tokens = parser(page.dialect).parse(text, {})
    assert set(page.fenced.firsts) == {t.map[0] for t in tokens if t.type == "fence" and t.map}
    assert {heading.line for heading in page.headings} == {
        t.map[0] for t in tokens if t.type == "heading_open" and t.map
    }


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('1. ```json\n   {"kettle": 1}\n\n> Boil first.\n', "> Boil first.\n"),
        ("```\nkettle = 1\n\n", "> Boil first.\n\n"),
    ],
)
def test_a_code_block_that_runs_to_a_window_end_keeps_its_last_blank_line(
    old: str, new: str
) -> None:
    whole = windowed_as_whole(old, new)
    removed = [change.old for change in whole.changes if change.old is not None]
    assert [(side.line, side.end_line) for side in removed][:1] == [(1, 3)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "4) The kettle MUST whistle.\n",
            "Read on.\n3) Kettles cool.\n4) The kettle MUST whistle.\n",
        ),
        (
            "3. The kettle MUST whistle.\n4. Done.\n",
            "Read on.\n3. The kettle MUST whistle.\n4. Done.\n",
        ),
        # Indented text at the page's start or below a heading opens a paragraph as well.
        (
            "4) The kettle MUST whistle.\n",
            " Read on.\n3) Kettles cool.\n4) The kettle MUST whistle.\n",
        ),
        (
            "## Lids\n3. The kettle MUST whistle.\n4. Done.\n",
            "## Lids\n  Read on.\n3. The kettle MUST whistle.\n4. Done.\n",
        ),
        # A lone bar is text without a delimiter row below it; so is a line below code.
        (
            "4) The kettle MUST whistle.\n",
            "|\n3) Kettles cool.\n4) The kettle MUST whistle.\n",
        ),
        (
            "4) The kettle MUST whistle.\n",
            "\tkettle = 1\nRead on.\n3) Kettles cool.\n4) The kettle MUST whistle.\n",
        ),
    ],
)
def test_lines_numbered_past_one_below_text_stay_in_its_paragraph_either_way(
    old: str, new: str
) -> None:
    # Outside a list only an item numbered 1 interrupts a paragraph: the requirement joins it.
    whole = windowed_as_whole(old, new)
    assert whole.verdict == "normative"


def test_a_heading_with_a_reference_link_names_the_section_alike_either_way() -> None:
    old = "## Kettles of [the guild]\n\nKettles boil.\n\n[the guild]: https://kettles.example\n"
    whole = windowed_as_whole(old, old.replace("boil", "whistle"))
    assert {change.section for change in whole.changes} == {("Kettles of the guild",)}


def test_an_indented_heading_of_an_mdx_page_names_the_section_alike_either_way() -> None:
    # MDX reads no indented code: a heading indented four spaces or a tab is still a heading.
    old = "<Tabs>\n    ## Lids\n\n\t### Spouts\n\nKettles boil.\n</Tabs>\n\nSpouts pour.\n"
    whole = windowed_as_whole(old, old.replace("pour", "drip"), "page.mdx")
    assert {change.section for change in whole.changes} == {("Lids", "Spouts")}


def test_a_fence_left_open_in_a_container_ends_with_the_container_either_way() -> None:
    old = ":::note\n```\n:::\n\nKettles MAY whistle.\n"
    whole = windowed_as_whole(old, old.replace("MAY", "MUST"))
    assert [change.kind.value for change in whole.changes] == ["strengthened"]


@pytest.mark.parametrize(
    "above",
    ["  Kettles vary.\n", " ## Kettle rules\n", "\tkettle = 1\n", "    kettle = 1\n", ""],
)
@pytest.mark.parametrize("indent", ["", " ", "   "])
def test_a_lead_in_below_or_at_an_indented_line_keeps_its_items_either_way(
    above: str, indent: str
) -> None:
    page = above + indent + "A kettle MUST stop when:\n- it is dry\n{}- it is open\n\nEnd.\n"
    whole = windowed_as_whole(page.format(""), page.format("- it is cold\n"))
    assert added_texts(whole) == ["A kettle MUST stop when: it is cold"]


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_fence_indented_by_a_tab_in_an_item_ends_with_the_item_either_way(name: str) -> None:
    # The tab reaches the item's content (column 4, past "1. "): the fence is the item's, and
    # the line at the margin below ends both, so the bare marker after it opens a fence of its
    # own that runs to the page's end and makes the requirement code.
    old = "1. Kettles MUST whistle.\n\nA lid is REQUIRED.\n"
    new = '1. Kettles MUST whistle.\n\t```json\n{"lid": 1}\n```\n\nA lid is REQUIRED.\n'
    whole = read_alike(old, new, name)
    assert ("normative", "removed") in kinds(whole)


@pytest.mark.parametrize(
    "page",
    [
        # A fence marker indented four columns neither closes a fence nor opens one in Markdown.
        "~~~\n\t~~~\n\nKettles MAY whistle.\n",
        "    ```\n\n## Lids\n\n```\n\nKettles MAY whistle.\n",
    ],
)
def test_fence_markers_indented_as_code_are_code_either_way(page: str) -> None:
    whole = windowed_as_whole(page, page.replace("MAY", "MUST"))
    assert whole.verdict == "editorial"
    assert {change.section for change in whole.changes} == {("Lids",) if "Lids" in page else ()}


def test_fence_markers_indented_any_depth_are_fences_in_mdx() -> None:
    page = "<Lid />\n\n~~~\n\t~~~\n\nKettles MAY whistle.\n"
    assert windowed_as_whole(page, page.replace("MAY", "MUST"), "page.mdx").verdict == "normative"


@pytest.mark.parametrize(
    "above", ["Kettles are tall.\n    ", "- Kettles are tall.\n      ", "Kettles are tall.\n\t"]
)
@pytest.mark.parametrize("marker", ["```", "## Lids"])
def test_a_fence_or_heading_indented_as_code_below_text_of_an_mdx_page_is_text_either_way(
    above: str, marker: str
) -> None:
    # A paragraph goes on into a line indented four columns past its item's content or the
    # margin without looking whether it opens a block, also in MDX, which reads no code there.
    page = f"{above}{marker}\n\nKettles MAY whistle.\n\n## Spouts\n\nSpouts MAY drip.\n"
    whole = windowed_as_whole(page, page.replace("MAY drip", "MUST drip"), "page.mdx")
    assert [(c.change_class.value, c.section) for c in whole.changes] == [
        ("normative", ("Spouts",))
    ]
    assert [heading.line for heading in outline(page, "page.mdx").headings] == [5]


def test_a_lazy_line_of_a_nested_item_does_not_part_a_list_from_its_lead_in() -> None:
    page = (
        "The kettle MUST shut off when:\n\n- the lid opens\n  - by hand\n\n"
        "  - by a latch\nthat slips\n\n- the base is dry\n{}- the light fails\n"
    )
    whole = windowed_as_whole(page.format(""), page.format("- the water boils\n"))
    assert whole.verdict == "normative"


@pytest.mark.parametrize(
    "component",
    [
        'Kettles.\n<TabItem value="a">\n\nA kettle MUST stop when:\n</TabItem>\n\n',
        "Kettles.\n<Note>\nA kettle MUST stop when:\n</Note>\n\n",
    ],
    ids=["tab-with-a-blank-line", "note"],
)
def test_a_lead_in_inside_markup_read_as_text_keeps_the_list_below_either_way(
    component: str,
) -> None:
    # In MDX a tag right below a paragraph line is more of the paragraph: the colon inside the
    # component ends the text that the list below it follows.
    page = component + "- it is dry\n{}"
    whole = windowed_as_whole(page.format(""), page.format("- it is open\n"), "page.mdx")
    assert added_texts(whole) == ["A kettle MUST stop when: it is open"]


@pytest.mark.parametrize("marker", [" - ", "  - ", "   - "])
def test_a_lead_in_whose_list_starts_with_an_indented_item_keeps_it_either_way(marker: str) -> None:
    # The lead-in's paragraph ends where the indented first item starts, however far below it
    # an edit falls in the list.
    page = (
        f"The kettle MUST shut off when:\n{marker}the lid opens\n\n- the base is dry\n\n"
        "- the light fails\n{}- the fuse melts\n"
    )
    whole = windowed_as_whole(page.format(""), page.format("- the water boils\n"))
    assert added_texts(whole) == ["The kettle MUST shut off when: the water boils"]


@pytest.mark.parametrize(
    "block",
    [
        "10. Lids\n    ```\n",
        "1. Lids\n   ```\n   x = 1\n   ```\n",
        "4. ```\n",
        "    kettle = 1\n",
    ],
)
def test_a_line_indented_less_than_a_fenced_item_or_code_ends_the_list_either_way(
    block: str,
) -> None:
    # No lazy line goes on a fence or on indented code: the block ends above the line, which
    # opens a paragraph that an item numbered past 1 cannot interrupt.
    old = "2. Lids.\n3. A kettle MUST whistle.\n13.\n"
    whole = windowed_as_whole(old, block + " Spouts.\n" + old)
    assert [c.kind.value for c in whole.changes if c.change_class.value == "normative"] == [
        "modified"
    ]


@pytest.mark.parametrize(
    ("page", "cut"),
    [
        (
            "1. Kettles MUST boil.\n2. When the lid\n   is open:\n   - the light blinks\n3. Cool.\n",
            4,
        ),
        (
            "- Kettles MUST boil.\n- Lids follow\n  [the guide](https://kettles.example/).\n- Pour.\n",
            3,
        ),
    ],
    ids=["colon-without-keyword", "colon-in-a-link"],
)
def test_an_item_is_a_cut_below_an_item_that_introduces_nothing(page: str, cut: int) -> None:
    """An item's paragraph starts at its own marker: a keyword in an item above it does not
    make its colon a requirement's, so the next item stays a cut and windows stay small."""
    assert outline(page, "page.md").is_chunk_start(cut)


def test_items_below_a_fenced_block_indented_in_their_list_are_still_cuts() -> None:
    """The fence's own lines, indented as code would be, are no indented code: the list goes
    on below the fence, and windows stay as small as the items."""
    page = 'Intro.\n\n1. Heat\n2. Pour:\n   ```json\n   {\n     "a": 1\n   }\n   ```\n3. Cool\n4. Rest\n'
    cuts = [line for line in range(12) if outline(page, "page.md").is_chunk_start(line)]
    assert cuts == [0, 2, 3, 9, 10]


KETTLE = "The kettle MUST heat the kettle."


@pytest.mark.parametrize(
    ("old", "new", "kind", "line"),
    [
        ("- K\n" * 5, "- K\n- K\n- K K\n- K\n- K\n", "added", 3),
        ("K\n" * 4, "K\nK K\nK\nK\n", "added", 2),
        ("- K\n- K K\n- K\n- K\n", "- K\n" * 4, "removed", 2),
        ("K\n\n" * 3, "K\n\nK\n\nK\n\nK\n\n", "added", 7),
    ],
    ids=["item", "paragraph-line", "removed", "new-paragraph"],
)
def test_a_copy_in_a_run_of_equal_sentences_is_the_one_on_the_changed_line(
    old: str, new: str, kind: str, line: int
) -> None:
    whole = windowed_as_whole(old.replace("K", KETTLE), new.replace("K", KETTLE))
    side = [
        (change.kind.value, (change.new or change.old).line)  # type: ignore[union-attr]
        for change in whole.changes
    ]
    assert side == [(kind, line)]


@pytest.mark.parametrize("rule", ["- - -", "* * *"])
def test_a_fence_below_a_rule_of_spaced_markers_is_in_no_item_either_way(rule: str) -> None:
    # The rule is no list item, so the indented fence below it opens at the margin's level.
    page = rule + "\n  ```\n\nKettles MAY whistle.\n"
    whole = windowed_as_whole(page, page.replace("MAY", "MUST"))
    assert whole.verdict == "editorial"


@pytest.mark.parametrize("far", [0, 40], ids=["near", "far"])
def test_a_footnote_reads_alike_with_its_definition_in_or_out_of_the_window(far: int) -> None:
    filler = "".join(f"Kettle {number} is steel.\n\n" for number in range(far))
    note = "[^lid]: Lids are tested yearly.\n    Each test MUST be logged.\n"
    old = "A lid MUST lock.\n\n" + filler + note
    new = "A lid MUST lock.[^lid]\n\n" + filler + note.replace("MUST", "SHOULD")
    assert kinds(windowed_as_whole(old, new)) == [
        ("editorial", "modified"),
        ("normative", "weakened"),
    ]


def test_the_fuzzer_diffs_random_pairs_both_ways_and_keeps_each_disagreement(
    tmp_path: Path,
) -> None:
    kept = tmp_path / "disagree.jsonl"
    summary = fuzz.run(seconds=600, most=300, seed=5, out=kept)
    tried, disagree, verdicts, raised = map(int, re.findall(r"\d+", summary))
    assert (tried, raised) == (300, 0)
    pairs = [json.loads(line) for line in kept.read_text(encoding="utf-8").splitlines()]
    assert len(pairs) == disagree >= verdicts
    for pair in pairs:
        windowed = diff_texts(pair["old"], pair["new"], pair["name"])
        whole = diff_texts(pair["old"], pair["new"], pair["name"], incremental=False)
        assert meaningful(windowed) != meaningful(whole)


def test_a_sentence_split_beside_a_moved_item_is_formatting_either_way() -> None:
    # The whole page matches the moved item first, which leaves the old sentence and its two
    # new halves in two regions; the window around the split sees them in one.
    old = "- The lid is blue.\n- Spouts pour.\n- Kettles MAY whistle\nwhen the water boils.\n\nCups.\n"
    new = "- Spouts pour.\n- Kettles MAY whistle\n\nwhen the water boils.\n\nCups.\n- The lid is blue.\n"
    assert read_alike(old, new).verdict == "formatting"


def test_a_sentence_split_below_a_new_title_is_formatting_either_way() -> None:
    # The title is a heading of the whole page's region around the split, and holds none of
    # its words; the front matter's window holds the title alone.
    old = "---\nowner: tea\n---\n\nKettles MUST whistle\nand lids rattle.\n"
    new = "---\ntitle: Kettles\nowner: tea\n---\n\nKettles MUST whistle\n\nand lids rattle.\n"
    assert kinds(read_alike(old, new)) == [("editorial", "added")]


def test_a_keyword_exchanged_in_a_row_of_a_moved_table_is_one_change_either_way() -> None:
    # The window that removes the old row and the one that adds the new row are two regions;
    # the row's words but its keyword pair it across them, as its own region pairs it whole.
    old = (
        "| Part | Rule |\n|---|---|\n| lid | REQUIRED |\n| spout | MUST |\n\n"
        "Kettles are tall:\n</details>\n\n|---|---|\n"
    )
    new = (
        "Kettles are tall:\n</details>\n\n"
        "| Part | Rule |\n|---|---|\n| lid | MUST |\n| spout | MUST |\n"
    )
    whole = read_alike(old, new, "page.mdx")
    assert ("editorial", "modified") in kinds(whole)
    assert whole.verdict == "editorial"


def test_a_lead_in_whose_keyword_changed_beside_other_edits_is_weakened() -> None:
    old = "1. Servers SHOULD:\n   - Rate limit\n\n2. Clients SHOULD:\n   - Handle order\n   - Filter\n"
    new = "1. Servers SHOULD:\n   - Rate limit\n\n2. Clients MAY:\n   - Show logs\n   - Filter\n"
    assert ("normative", "weakened") in kinds(read_alike(old, new))


def test_a_row_split_into_paragraphs_beside_moved_blocks_and_an_addition_is_formatting() -> None:
    # On the whole page the row and its two paragraphs fall into two regions, among other
    # units left alone (a sentence added further down): the paragraphs, which follow each
    # other and hold the row's words, are the row laid out otherwise, as its window finds.
    old = "<tr>\n<td>lid</td>\n<td>MAY</td>\n</tr>\n\nx := 3 // MUST\n\n### Kettles\n"
    new = (
        '### Kettles\n<td>lid</td>\n<td>MAY</td>\n\nx := 3 // MUST\n\n=== "Tab"\n    Spouts pour!\n'
    )
    assert kinds(read_alike(old, new, "page.mdx")) == [
        ("editorial", "added"),
        ("editorial", "added"),
    ]


@pytest.mark.parametrize("lead_in", ["Kettle owners:", "Kettle owners MUST:"])
@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
def test_a_colon_before_a_comment_still_introduces_the_list(lead_in: str, name: str) -> None:
    """The comment after the colon shows nothing: the lead-in ends in the colon, so no window
    may start at an item below it."""
    comment = "<!-- see\nbelow -->" if name == "page.md" else "{/* see\nbelow */}"
    old = f"# Kettles\n\n{lead_in} {comment}\n\n1. MAY descale.\n2. MAY pour.\n3. MAY wipe.\n"
    whole = windowed_as_whole(old, old.replace("MAY wipe", "MAY dry"), name)
    assert [change.new and change.new.text for change in whole.changes] == [f"{lead_in} MAY dry."]


@pytest.mark.parametrize(
    "ending",
    ["&#58;", "&colon;", "&#x3A;", ":\n![](kettle.png)", ":\n[](#owners)", ":\n&nbsp;", ":\n[^1]"],
)
def test_a_colon_written_as_an_entity_or_before_what_shows_no_words_ends_a_lead_in(
    ending: str,
) -> None:
    old = f"# Kettles\n\nA.\n\nB.\n\nKettle owners{ending}\n\n- MUST descale.\n- MAY pour.\n\nC.\n"
    whole = windowed_as_whole(old, old.replace("Kettle owners", "Kettle makers"))
    assert [c.kind.value for c in whole.changes if c.change_class.value == "normative"] == [
        "modified",
        "modified",
    ]
