"""The parser (`spectrack.markdown.parse`): the `Document` model, admonitions, MDX, bad input."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from spectrack.diff import diff_texts
from spectrack.errors import InputError
from spectrack.markdown import Dialect, parse
from spectrack.markdown.admonitions import KINDS
from spectrack.markdown.parser import _INLINE_SYNTAX, parser
from spectrack.model import BlockKind, Document
from spectrack.pages import decode_page

PUMP_MANUAL = """\
---
title: Pump manual
---

Intro text. Second
sentence.

## Installing

### Wall

Mount it high.

## Using

| Mode | Effect |
|---|---|
| eco | slow |

```Shell title="eco mode"
pump --eco
```

- Step one.
- Step two.

---

<Card title="Spare parts" href="/parts.md">
Order filters online.
</Card>
"""


def outline(document: Document) -> list[tuple[str, str, tuple[str, ...], int, int]]:
    return [(b.kind.value, b.text, b.section, b.line, b.end_line) for b in document.blocks]


def test_document_has_sections_blocks_and_lines() -> None:
    document = parse(PUMP_MANUAL, name="pump.mdx")
    assert document.title == "Pump manual"
    assert document.line_count == 31
    manual, installing, using = (
        ("Pump manual",),
        ("Pump manual", "Installing"),
        ("Pump manual", "Using"),
    )
    assert outline(document) == [
        ("heading", "Pump manual", manual, 1, 3),
        ("paragraph", "Intro text. Second sentence.", manual, 5, 6),
        ("heading", "Installing", installing, 8, 8),
        ("heading", "Wall", (*installing, "Wall"), 10, 10),
        ("paragraph", "Mount it high.", (*installing, "Wall"), 12, 12),
        ("heading", "Using", using, 14, 14),
        ("table_row", "Mode | Effect", using, 16, 16),
        ("table_row", "eco | slow", using, 18, 18),
        ("code", "pump --eco", using, 20, 22),
        ("list_item", "Step one.", using, 24, 24),
        ("list_item", "Step two.", using, 25, 25),
        ("component", "Spare parts", using, 29, 29),
        ("paragraph", "Order filters online.", using, 30, 30),
    ]


def test_blocks_keep_their_source_and_details() -> None:
    blocks = {b.text: b for b in parse(PUMP_MANUAL, name="pump.mdx").blocks}
    assert blocks["pump --eco"].language == "shell"
    assert blocks["pump --eco"].raw == '```Shell title="eco mode"\npump --eco\n```'
    assert blocks["Spare parts"].key == "Spare parts ⟨/parts⟩"
    intro = blocks["Intro text. Second sentence."]
    assert intro.raw == "Intro text. Second\nsentence."
    assert [(s.text, s.line, s.end_line) for s in intro.sentences] == [
        ("Intro text.", 5, 5),
        ("Second sentence.", 5, 6),
    ]


@pytest.mark.parametrize(
    ("markdown", "title"),
    [
        ("# Pumps\n\nText.\n", "Pumps"),
        ("Intro.\n\n# Pumps *and* hoses\n", "Pumps and hoses"),
        ('---\ntitle: "Pumps \\"Pro\\""\n---\n\nText.\n', 'Pumps "Pro"'),
        ("---\ntitle: 'Pump''s guide'\n---\n\nText.\n", "Pump's guide"),
        ("---\ntitle: Pumps\n---\n\n# Hoses\n", "Pumps"),
        ('---\n"title": Pumps\n---\n\nText.\n', "Pumps"),
        ("---\n'title': 'Pumps'\n---\n\nText.\n", "Pumps"),
        ('+++\ntitle = "Pumps \\"Pro\\""\nweight = 2\n+++\n\n# Hoses\n', 'Pumps "Pro"'),
        ("+++\ntitle = 'Pumps'\n+++\n", "Pumps"),
        ("---\ntitle: >-\n  Pumps and\n  hoses\nweight: 2\n---\n", "Pumps and hoses"),
        ('+++\ntitle = "Pumps"\n\nText.\n', None),
        ("## Pumps\n\nText.\n", None),
        ("Just text.\n", None),
    ],
)
def test_title_from_front_matter_or_first_h1(markdown: str, title: str | None) -> None:
    assert parse(markdown).title == title


def test_front_matter_title_equals_a_leading_h1() -> None:
    with_front_matter = parse("---\ntitle: Pumps\nsidebar: 2\n---\n\n## Care\n\nOil it.\n")
    with_heading = parse("# Pumps\n\n## Care\n\nOil it.\n")

    def shape(document: Document) -> list[tuple[str, str, tuple[str, ...]]]:
        return [(b.kind.value, b.key, b.section) for b in document.blocks]

    assert shape(with_front_matter) == shape(with_heading)
    assert with_front_matter.title == with_heading.title == "Pumps"


def test_a_leading_h1_repeating_the_front_matter_title_is_one_heading() -> None:
    document = parse("---\ntitle: Pumps\n---\n\n# Pumps\n\nOil it.\n")
    assert [(b.kind.value, b.text) for b in document.blocks] == [
        ("heading", "Pumps"),
        ("paragraph", "Oil it."),
    ]


# --- Admonitions fold into GitHub's five kinds ------------------------------------------------

ADMONITIONS = [
    ("<Note>\nOil it.\n</Note>\n", "note", "mdx"),
    ("<Info>\nOil it.\n</Info>\n", "note", "mdx"),
    ("<Tip>\nOil it.\n</Tip>\n", "tip", "mdx"),
    ("<Check>\nOil it.\n</Check>\n", "tip", "mdx"),
    ("<Warning>\nOil it.\n</Warning>\n", "warning", "mdx"),
    ("<Danger>\nOil it.\n</Danger>\n", "caution", "mdx"),
    ("<Caution>\nOil it.\n</Caution>\n", "caution", "mdx"),
    ("<Important>\nOil it.\n</Important>\n", "important", "mdx"),
    ("<Callout>\nOil it.\n</Callout>\n", "note", "mdx"),
    ('<Callout type="warning">\nOil it.\n</Callout>\n', "warning", "mdx"),
    ('<Callout kind="danger">\nOil it.\n</Callout>\n', "caution", "mdx"),
    ("> [!NOTE]\n> Oil it.\n", "note", "github"),
    ("> [!TIP]\n>\n> Oil it.\n", "tip", "github"),
    ("> [!IMPORTANT]\n> Oil it.\n", "important", "github"),
    ("> [!WARNING]\n> Oil it.\n", "warning", "github"),
    ("> [!CAUTION]\n> Oil it.\n", "caution", "github"),
    ("> [!note]\n> Oil it.\n", "note", "github"),
    (":::note\n\nOil it.\n\n:::\n", "note", "docusaurus"),
    (":::info\nOil it.\n:::\n", "note", "docusaurus"),
    (":::tip\n\nOil it.\n\n:::\n", "tip", "docusaurus"),
    (":::warning\n\nOil it.\n\n:::\n", "warning", "docusaurus"),
    (":::danger\n\nOil it.\n\n:::\n", "caution", "docusaurus"),
    ("!!! note\n\n    Oil it.\n", "note", "mkdocs"),
    ("!!! info\n    Oil it.\n", "note", "mkdocs"),
    ("!!! warning\n\n    Oil it.\n", "warning", "mkdocs"),
    ("!!! danger\n\n    Oil it.\n", "caution", "mkdocs"),
    ("!!! success\n\n    Oil it.\n", "tip", "mkdocs"),
    ("??? note\n\n    Oil it.\n", "note", "mkdocs"),
    (
        '<div class="admonition danger">\n<p class="admonition-title">Danger</p>\n'
        "<p>Oil it.</p>\n</div>\n",
        "caution",
        "mkdocs",
    ),
    (
        '<details class="tip" open>\n<summary>Tip</summary>\n<p>Oil it.</p>\n</details>\n',
        "tip",
        "mkdocs",
    ),
    ('{{< callout type="info" >}}\nOil it.\n{{< /callout >}}\n', "note", "hugo"),
    ('{{< callout type="warning" >}}\nOil it.\n{{< /callout >}}\n', "warning", "hugo"),
    ('{{< callout type="error" >}}\nOil it.\n{{< /callout >}}\n', "caution", "hugo"),
    ("{{< callout >}}\nOil it.\n{{< /callout >}}\n", "note", "hugo"),
]


@pytest.mark.parametrize("extension", [".md", ".mdx"])
@pytest.mark.parametrize(("markdown", "kind", "syntax"), ADMONITIONS)
def test_admonitions_fold_to_github_kinds(
    markdown: str, kind: str, syntax: str, extension: str
) -> None:
    document = parse("Before.\n\n" + markdown + "\nAfter.\n", name="pump" + extension)
    assert [(a.kind, a.syntax, a.line) for a in document.admonitions] == [(kind, syntax, 3)]
    assert [(b.text, b.admonition) for b in document.blocks] == [
        ("Before.", None),
        ("Oil it.", kind),
        ("After.", None),
    ]


def test_every_kind_is_one_of_githubs_five() -> None:
    assert {kind for _, kind, _ in ADMONITIONS} == set(KINDS)


def test_nested_admonitions_give_blocks_the_innermost_kind() -> None:
    document = parse("<Warning>\nHot.\n\n> [!TIP]\n> Use a cloth.\n\nStill hot.\n</Warning>\n")
    assert [(a.kind, a.line, a.end_line) for a in document.admonitions] == [
        ("warning", 1, 8),
        ("tip", 4, 5),
    ]
    assert [(b.text, b.admonition) for b in document.blocks] == [
        ("Hot.", "warning"),
        ("Use a cloth.", "tip"),
        ("Still hot.", "warning"),
    ]


@pytest.mark.parametrize(
    ("markdown", "title"),
    [
        (":::tip Handy hint\n\nOil it.\n\n:::\n", "Handy hint"),
        ('!!! tip "Handy hint"\n\n    Oil it.\n', "Handy hint"),
        (":::tip[Handy hint]\n\nOil it.\n\n:::\n", "Handy hint"),
        # Directive attributes after the label (an id, a class) are not seen.
        (":::tip[Handy hint]{#oiling .wide}\n\nOil it.\n\n:::\n", "Handy hint"),
        ('!!! tip inline end "Handy hint"\n\n    Oil it.\n', "Handy hint"),
        # Not CSS classes after the kind: words readers see.
        ("!!! tip Oil it `well`?\n\n    Oil it.\n", "Oil it well?"),
        # A container's title is Markdown too, as Docusaurus renders it.
        (":::tip[Oil it `well`, **twice**]\n\nOil it.\n\n:::\n", "Oil it well, twice"),
        ("/// tip | Oil it *well*\n\nOil it.\n///\n", "Oil it well"),
    ],
)
def test_a_callout_title_is_text(markdown: str, title: str) -> None:
    document = parse(markdown)
    assert [a.kind for a in document.admonitions] == ["tip"]
    assert [(b.kind, b.text) for b in document.blocks] == [
        (BlockKind.COMPONENT, title),
        (BlockKind.PARAGRAPH, "Oil it."),
    ]


@pytest.mark.parametrize(
    ("markdown", "kind", "texts"),
    [
        ("> [!WARNING] Mains power\n> It MUST be earthed.\n", "warning", ["Mains power"]),
        ("> [!danger]\n> It MUST be earthed.\n", "caution", []),
        ("> [!tip]- Folded *away*\n> It MUST be earthed.\n", "tip", ["Folded away"]),
        ("> [!NOTE]\n> It MUST be earthed.\n", "note", []),
    ],
)
def test_an_alert_marker_may_carry_a_title_a_fold_sign_or_another_name(
    markdown: str, kind: str, texts: list[str]
) -> None:
    document = parse(markdown)
    assert [a.kind for a in document.admonitions] == [kind]
    assert [(b.text, b.line, b.admonition) for b in document.blocks] == [
        *((text, 1, kind) for text in texts),
        ("It MUST be earthed.", 2, kind),
    ]


def test_a_quote_starting_with_an_unknown_marker_is_a_quote() -> None:
    document = parse("> [!pump] Mains power\n> It MUST be earthed.\n")
    assert document.admonitions == ()
    assert [b.text for b in document.blocks] == ["[!pump] Mains power It MUST be earthed."]


def test_a_default_callout_title_is_not_text() -> None:
    document = parse('!!! warning "Warning"\n\n    Oil it.\n')
    assert [b.text for b in document.blocks] == ["Oil it."]


@pytest.mark.parametrize(
    ("markdown", "name", "kind"),
    [
        ('<Warning title="warning">\nThe pump MUST be earthed.\n</Warning>\n', "p.mdx", "warning"),
        (
            '<Callout type="tip" title="Hint">\nThe pump MUST be earthed.\n</Callout>\n',
            "p.mdx",
            "tip",
        ),
        (
            '{{% alert title="Warning" color="danger" %}}\nThe pump MUST be earthed.\n'
            "{{% /alert %}}\n",
            "pump.md",
            "caution",
        ),
    ],
)
def test_a_callout_component_titled_with_a_kind_name_shows_no_text_for_it(
    markdown: str, name: str, kind: str
) -> None:
    document = parse(markdown, name=name)
    assert [b.text for b in document.blocks] == ["The pump MUST be earthed."]
    assert [a.kind for a in document.admonitions] == [kind]


def test_a_component_titled_with_a_kind_name_that_is_no_callout_keeps_its_title() -> None:
    document = parse('<Card title="Warning">\nThe pump MUST be earthed.\n</Card>\n', name="p.mdx")
    assert [b.text for b in document.blocks] == ["Warning", "The pump MUST be earthed."]


def test_css_classes_after_an_mkdocs_callout_kind_are_not_text() -> None:
    document = parse("!!! warning inline end\n\n    Oil it.\n")
    assert [b.text for b in document.blocks] == ["Oil it."]


def test_hugo_hint_takes_its_kind_from_the_positional_argument() -> None:
    document = parse("{{< hint warning >}}\nOil it.\n{{< /hint >}}\n")
    assert [a.kind for a in document.admonitions] == ["warning"]


# --- MDX ------------------------------------------------------------------------------------


def test_mdx_components_hold_markdown_at_any_indentation() -> None:
    markdown = (
        "import { Steps } from '/snippets/steps.mdx'\n"
        "export const pump = 'P1'\n\n"
        "<Steps>\n"
        '  <Step\n    title="Prime"\n    icon={{ name: "drop" }}\n  >\n'
        "    Fill the housing. It **MUST** be full.\n\n"
        "    ```sh\n    pump --prime\n    ```\n"
        "  </Step>\n"
        "</Steps>\n\n"
        "{/* the next step is still being written */}\n\n"
        '<Frame caption="The pump, opened" />\n\n'
        '<div id="enable-section-numbers" />\n'
    )
    document = parse(markdown, name="pump.mdx")
    assert [(b.kind.value, b.text, b.line) for b in document.blocks] == [
        ("component", "Prime", 5),
        ("paragraph", "Fill the housing. It MUST be full.", 9),
        ("code", "pump --prime", 11),
        ("component", "The pump, opened", 19),
    ]
    assert [k.word for k in document.blocks[1].sentences[1].keywords] == ["MUST"]
    assert document.admonitions == ()


@pytest.mark.parametrize(
    "markdown",
    [
        "<>\nFill the **housing**.\n\nIt MUST be full.\n</>\n",
        "<>Fill the **housing**.</>\n\n<>\n  It MUST be full.\n</>\n",
        "Fill the <>**housing**</>.\n\nIt MUST<> </>be full.\n",
        "</>\n\nFill the **housing**.\n\nIt MUST be full.\n<>\n",
    ],
    ids=["block", "one-line-and-indented", "inline", "stray-tags"],
)
def test_a_jsx_fragment_shows_its_markdown_alone(markdown: str) -> None:
    blocks = parse(markdown, name="pump.mdx").blocks
    assert [(b.kind, b.text) for b in blocks] == [
        (BlockKind.PARAGRAPH, "Fill the housing."),
        (BlockKind.PARAGRAPH, "It MUST be full."),
    ]


@pytest.mark.parametrize(
    ("statement", "texts"),
    [
        ('export const pump = {\n  model: "P1",\n\n  note: "It MUST be primed.",\n};\n', []),
        ("export default {\n  notes: `Prime it.\n\n## Draft`,\n};\n", []),
        ('import { Steps } from "/steps.mdx";\nexport const sizes = [\n\n  "small",\n];\n', []),
        # Brackets that never close: the statement ends at its first blank line.
        ("export const pump = {\n\nThe pump hums.\n", ["The pump hums."]),
    ],
    ids=["object", "template-literal", "array", "never-closed"],
)
def test_an_mdx_statement_runs_past_blank_lines_until_its_brackets_close(
    statement: str, texts: list[str]
) -> None:
    document = parse(statement + "\nFill the housing.\n", name="pump.mdx")
    assert [(b.text, b.section) for b in document.blocks] == [
        (text, ()) for text in [*texts, "Fill the housing."]
    ]


@pytest.mark.parametrize("name", ["pump.md", "pump.mdx"])
@pytest.mark.parametrize(
    "markdown",
    [
        "<section><p>Prime it.</p><p>Then start.</p></section>\n",
        "<Note>\n<p>Prime it.</p><p>Then start.</p></Note>\n",
    ],
)
def test_an_element_closed_on_its_last_line_keeps_none_of_its_closing_tag(
    markdown: str, name: str
) -> None:
    assert [b.text for b in parse(markdown, name=name).blocks] == ["Prime it. Then start."]


@pytest.mark.parametrize(
    ("markdown", "shown"),
    [
        (
            '<ParamField path="pump_id" type="string" required>\nThe pump.\n</ParamField>\n',
            "pump_id · string · required",
        ),
        ('<ParamField query="limit" type="number" default="10" />\n', "limit · number · 10"),
        (
            '<ResponseField name="flow" type="number" required={true} deprecated={false}>\nL/s.\n'
            "</ResponseField>\n",
            "flow · number · required",
        ),
        ('<Note type="hint">\nOil it.\n</Note>\n', None),
        ('<ParamField query="limit" default={10} max={"a"} min={a.b} />\n', "limit · 10"),
    ],
    ids=[
        "param-in-path",
        "param-in-query",
        "response-field",
        "type-of-another-component",
        "literal-expression",
    ],
)
def test_a_field_component_shows_its_name_type_default_and_flags(
    markdown: str, shown: str | None
) -> None:
    document = parse(markdown, name="pump.mdx")
    components = [b.text for b in document.blocks if b.kind is BlockKind.COMPONENT]
    assert components == ([shown] if shown else [])


def test_where_a_field_goes_is_in_its_key() -> None:
    query, header = (
        parse(f'<ParamField {place}="limit" type="number" />\n', name="pump.mdx").blocks[0]
        for place in ("query", "header")
    )
    assert query.text == header.text == "limit · number"
    assert (query.key, header.key) == ("limit · number ⟨in:query⟩", "limit · number ⟨in:header⟩")
    # A field's name and type are code: their signs count (`string[]`).
    assert query.sentences[0].code == ("limit", "number")


def test_a_page_with_components_is_mdx_whatever_its_name() -> None:
    markdown = "<Note>\n    Indented text is not code in MDX.\n</Note>\n"
    for name in ("pump.md", "pump.mdx"):
        (block,) = parse(markdown, name=name).blocks
        assert (block.kind, block.text) == (
            BlockKind.PARAGRAPH,
            "Indented text is not code in MDX.",
        )


def test_an_mdx_suffix_in_capitals_reads_the_page_as_mdx() -> None:
    # A folder diff takes PUMP.MDX for a page, as it takes any suffix's case.
    (block,) = parse("Intro.\n\n    Pumps MUST prime.\n", name="docs/PUMP.MDX").blocks[1:]
    assert (block.kind, block.text) == (BlockKind.PARAGRAPH, "Pumps MUST prime.")


def test_indentation_makes_code_in_plain_markdown() -> None:
    (block,) = parse("Intro.\n\n    pump --prime\n", name="pump.md").blocks[1:]
    assert (block.kind, block.text) == (BlockKind.CODE, "pump --prime")


def test_a_content_tab_holds_markdown_and_shows_its_title() -> None:
    markdown = (
        '=== "Electric"\n\n    The pump MUST be earthed.\n\n    - Check the plug\n\n'
        '===+ "Manual"\n    !!! warning\n        Pumps MAY jam.\n\n\n    Not in the tab.\n'
    )
    document = parse(markdown, name="pump.md")
    assert [(b.kind.value, b.text, b.admonition) for b in document.blocks] == [
        ("component", "Electric", None),
        ("paragraph", "The pump MUST be earthed.", None),
        ("list_item", "Check the plug", None),
        ("component", "Manual", None),
        ("paragraph", "Pumps MAY jam.", "warning"),
        ("code", "Not in the tab.", None),
    ]
    # A line of equals signs under text stays a heading's underline.
    (heading,) = parse("Pumps\n===\n").blocks
    assert (heading.kind, heading.text) == (BlockKind.HEADING, "Pumps")


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("Pumps MUST stop.\n{: #stop .rule }", "Pumps MUST stop."),
        ('Pumps MUST stop.\n{ .rule width="50%" }', "Pumps MUST stop."),
        ("Pumps MUST stop. { .rule }", "Pumps MUST stop. { .rule }"),
        ("Pumps MUST stop.\n{ stop }", "Pumps MUST stop. { stop }"),
        ("Pumps MUST stop.\n{ ...all pumps... }", "Pumps MUST stop. { ...all pumps... }"),
    ],
)
def test_an_attribute_list_on_its_own_last_line_is_no_text(markdown: str, text: str) -> None:
    (block,) = parse(markdown).blocks
    assert block.text == text


@pytest.mark.parametrize(
    ("markdown", "text", "key"),
    [
        ("Pumps<sup>1</sup> MUST stop.", "Pumps MUST stop.", "Pumps MUST stop. ⟨^1⟩"),
        ('Pumps MUST stop."<sup>[2](#n)</sup>', 'Pumps MUST stop."', 'Pumps MUST stop." ⟨#n ^2⟩'),
        ("Pumps MUST stop at 10<sup>5</sup> Pa.", "Pumps MUST stop at 10^5 Pa.", None),
        ("Pumps MUST stop <sup>2</sup>", "Pumps MUST stop 2", None),
        ("Pumps MUST fill n<sup>2</sup> jars.", "Pumps MUST fill n^2 jars.", None),
    ],
)
def test_a_superscript_after_a_word_marks_it(markdown: str, text: str, key: str | None) -> None:
    (block,) = parse(markdown).blocks
    assert (block.text, block.key) == (text, key or text)


def test_a_tooltip_shows_its_words_and_counts_its_tip_as_a_link_target() -> None:
    markdown = 'Prime the <Tooltip tip="The pump that MUST start first" href="/pumps">pump</Tooltip> first.'
    (block,) = parse(markdown, name="pump.mdx").blocks
    assert (block.text, block.key) == (
        "Prime the pump first.",
        "Prime the pump first. ⟨tip: The pump that MUST start first /pumps⟩",
    )
    assert block.sentences[0].keywords == ()


@pytest.mark.parametrize(
    ("markdown", "key"),
    [
        ('Prime the [pump](pump.md "It MUST be primed").', "⟨pump title: It MUST be primed⟩"),
        ('Prime the ![pump](pump.png "A pump") now.', "⟨pump.png title: A pump⟩"),
        ('Prime the <abbr title="Pump MUST run">PMP</abbr>.', "⟨title: Pump MUST run⟩"),
    ],
)
def test_a_hover_title_counts_as_a_link_target_and_holds_no_requirement(
    markdown: str, key: str
) -> None:
    (block,) = parse(markdown).blocks
    assert block.key.endswith(key)
    assert block.sentences[0].keywords == ()


def test_punctuation_after_an_inline_component_stays_at_its_words() -> None:
    markdown = 'Prime the <Tooltip tip="Fill it">pump</Tooltip>, then <Highlight>start</Highlight>.'
    (block,) = parse(markdown, name="pump.mdx").blocks
    assert block.text == "Prime the pump, then start."


@pytest.mark.parametrize(
    ("markdown", "text", "key"),
    [
        ('## Pumps <Badge text="Beta" />\n', "Pumps", "Pumps ⟨text: Beta⟩"),
        (
            'Prime the pump <Icon name="drop" />.',
            "Prime the pump .",
            "Prime the pump . ⟨name: drop⟩",
        ),
        ('<Icon name="drop" /> Prime the pump.', "Prime the pump.", "Prime the pump. ⟨name: drop⟩"),
    ],
)
def test_a_self_closing_component_in_a_sentence_marks_the_words_before_it(
    markdown: str, text: str, key: str
) -> None:
    (block,) = parse(markdown, name="pump.mdx").blocks
    assert (block.text, block.key) == (text, key)


def test_a_mark_at_a_sentence_start_leaves_no_space_before_it() -> None:
    (block, _) = parse("[^1] Prime the pump.\n\n[^1]: Fill it first.\n").blocks
    assert (block.text, block.key) == ("Prime the pump.", "Prime the pump. ⟨^1⟩")


def test_a_footnote_mark_is_no_text_and_its_note_is_a_block_of_its_own() -> None:
    markdown = (
        "Pumps MUST stop.[^1] They hum[^hum] when on.\n\n[^1]: When the tank is empty.\n"
        "    Or when it is full.\n\n    A second paragraph MAY follow.\n\nText after.\n"
        "[^2]: is no note here, as a link's definition is none after text.\n"
    )
    assert [(b.text, b.key, b.line) for b in parse(markdown).blocks] == [
        ("Pumps MUST stop. They hum when on.", "Pumps MUST stop. They hum when on. ⟨^1 ^hum⟩", 1),
        (
            "When the tank is empty. Or when it is full.",
            "When the tank is empty. Or when it is full.",
            3,
        ),
        ("A second paragraph MAY follow.", "A second paragraph MAY follow.", 6),
        (
            "Text after. : is no note here, as a link's definition is none after text.",
            "Text after. : is no note here, as a link's definition is none after text. ⟨^2⟩",
            8,
        ),
    ]


def test_a_hugo_highlight_shortcode_is_code_as_a_fence_is() -> None:
    body = "pump.start(MUST)\n\n// the valve MAY open\n"
    shortcode = parse(f'{{{{< highlight go "linenos=table" >}}}}\n{body}{{{{< /highlight >}}}}\n')
    fence = parse(f"```go\n{body}```\n")
    assert [(b.kind, b.text, b.key, b.language) for b in shortcode.blocks] == [
        (b.kind, b.text, b.key, b.language) for b in fence.blocks
    ]
    assert [b.kind for b in shortcode.blocks] == [BlockKind.CODE]


@pytest.mark.parametrize("name", ["pump.md", "pump.mdx"])
def test_an_html_pre_block_is_code_as_a_fence_is(name: str) -> None:
    body = "pump.start(MUST)\n\n# the valve MAY open\nif a < b && c > 0\n"
    pre = parse(
        f'Before.\n\n<pre><code class="language-go">{body.replace("(", "&#40;").replace("&&", "&amp;&amp;")}</code></pre>\n',
        name=name,
    )
    fence = parse(f"Before.\n\n```go\n{body}```\n", name=name)
    assert [(b.kind, b.text, b.key, b.language) for b in pre.blocks] == [
        (b.kind, b.text, b.key, b.language) for b in fence.blocks
    ]
    assert [b.kind for b in pre.blocks] == [BlockKind.PARAGRAPH, BlockKind.CODE]


def test_a_content_tab_title_reads_as_markdown_without_its_icon() -> None:
    mkdocs = parse('=== ":material-water-pump: **Electric**"\n\n    It MUST be earthed.\n')
    mdx = parse('<Tab title="Electric">\nIt MUST be earthed.\n</Tab>\n', name="pump.mdx")
    assert [(b.kind, b.text) for b in mkdocs.blocks] == [(b.kind, b.text) for b in mdx.blocks]
    assert mkdocs.blocks[0].text == "Electric"


def test_a_shortcode_that_shows_no_text_marks_the_words_before_it() -> None:
    (_, row) = parse('| Pump | Since |\n|---|---|\n| PX-1 | {{< param "since" >}} |\n').blocks
    assert (row.text, row.key) == ("PX-1 |", "PX-1 | ⟨param 0=since⟩")


@pytest.mark.parametrize(
    ("markdown", "text", "key"),
    [
        (
            'A {{< glossary_tooltip text="pump" term_id="pump" >}} MUST be earthed.',
            "A pump MUST be earthed.",
            "A pump MUST be earthed. ⟨glossary_tooltip term_id=pump⟩",
        ),
        (
            '{{% added-in v="1.2" %}} The pump MAY idle.',
            "The pump MAY idle.",
            "The pump MAY idle. ⟨added-in v=1.2⟩",
        ),
        (
            "The {{< mark >}}pump{{< /mark >}} MAY idle.",
            "The pump MAY idle.",
            "The pump MAY idle. ⟨mark⟩",
        ),
    ],
)
def test_a_shortcode_inside_a_sentence_shows_its_text_and_counts_as_a_target(
    markdown: str, text: str, key: str
) -> None:
    (block,) = parse(markdown).blocks
    assert (block.text, block.key) == (text, key)


def test_an_abbreviation_definition_is_a_block_of_its_own_with_no_requirement() -> None:
    markdown = (
        "The PSU MUST be earthed.\n*[PSU]: Power supply unit\n*[MUST]: what a pump does\nIt hums.\n"
    )
    blocks = parse(markdown).blocks
    assert [(b.text, [k.word for s in b.sentences for k in s.keywords]) for b in blocks] == [
        ("The PSU MUST be earthed.", ["MUST"]),
        ("PSU: Power supply unit", []),
        ("MUST: what a pump does", []),
        ("It hums.", []),
    ]
    # MDX has no abbreviations: there the line is text.
    (block,) = parse(markdown, name="pump.mdx").blocks
    assert "*[PSU]: Power supply unit" in block.text


def test_a_definition_list_reads_its_term_and_each_definition_apart() -> None:
    markdown = (
        "Pumps come in kinds.\n\nhttp://\n: Used for pumps on the net\n: Pumps SHOULD use it\n\n"
        "file://\n\n~   Pumps MAY read\n    local files.\n\nAfter.\n"
    )
    blocks = parse(markdown).blocks
    assert [(b.text, b.line) for b in blocks] == [
        ("Pumps come in kinds.", 1),
        ("http://", 3),
        ("Used for pumps on the net", 4),
        ("Pumps SHOULD use it", 5),
        ("file://", 7),
        ("Pumps MAY read local files.", 9),
        ("After.", 12),
    ]
    # MDX has no definition lists: there the lines are text of one paragraph.
    assert "http:// : Used for pumps" in parse(markdown, name="pump.mdx").blocks[1].text


def test_hugo_tabs_take_their_titles_from_their_items() -> None:
    markdown = (
        '{{< tabs items="Electric, Manual,Solar" >}}\n{{< tab >}}\nThe pump MUST be earthed.\n'
        '{{< /tab >}}\n{{< tab name="Hand" >}}\nIt MAY jam.\n{{< /tab >}}\n{{< /tabs >}}\n'
    )
    assert [(b.kind.value, b.text) for b in parse(markdown).blocks] == [
        ("component", "Electric"),
        ("paragraph", "The pump MUST be earthed."),
        ("component", "Hand"),
        ("paragraph", "It MAY jam."),
    ]


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        (":rocket: Pumps MUST stop. :+1:", "Pumps MUST stop."),
        ("At 10:30:00 the pump starts.", "At 10:30:00 the pump starts."),
        ("Set ratio:fast: first.", "Set ratio:fast: first."),
        ("See <https://pump.example/:x:> first.", "See https://pump.example/:x: first."),
    ],
)
def test_an_emoji_shortcode_is_no_text(markdown: str, text: str) -> None:
    (block,) = parse(markdown).blocks
    assert block.text == text


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        (":warning: Pumps MUST stop.", "⚠ Pumps MUST stop."),
        ("| pump | :white_check_mark: | :x: | :green_circle: |\n|-|-|-|-|", "pump | ✅ | ❌ | 🟢"),
    ],
)
def test_an_emoji_shortcode_of_a_symbol_is_that_symbol(markdown: str, text: str) -> None:
    """A tick, a cross or a warning sign counts as a word (a feature table's ✅ → ❌ says
    something else), written as a character or by its name."""
    (block,) = parse(markdown).blocks
    assert block.text == text


def test_a_task_box_is_no_text() -> None:
    (item, paragraph) = parse("- [x] Prime the pump\n\n[ ] is a box\n").blocks
    assert (item.text, item.key) == ("Prime the pump", "Prime the pump ⟨task:done⟩")
    assert paragraph.text == "[ ] is a box"


@pytest.mark.parametrize("name", ["pump.md", "pump.mdx"])
@pytest.mark.parametrize(
    "rows",
    [
        "<tr><th>Part</th><th>Level</th></tr>\n<tr><td>The **valve**</td><td>MUST</td></tr>\n",
        "<tr>\n  <th>Part</th>\n  <th>Level</th>\n</tr>\n"
        '<tr>\n  <td align="left">\n    The **valve**\n  </td>\n  <td>MUST</td>\n</tr>\n',
    ],
)
def test_an_html_table_row_reads_as_a_markdown_row_however_its_cells_are_laid_out(
    rows: str, name: str
) -> None:
    html = parse(f"<table>\n{rows}</table>\n", name=name).blocks
    markdown = parse("| Part | Level |\n|---|---|\n| The **valve** | MUST |\n", name=name).blocks
    assert [(b.kind, b.text) for b in html] == [(b.kind, b.text) for b in markdown]
    assert [k.word for k in html[-1].sentences[0].keywords] == ["MUST"]


@pytest.mark.parametrize(
    ("markdown", "text", "keywords"),
    [
        ('Pumps MUST{" "}\n**not** run dry.', "Pumps MUST not run dry.", ["MUST NOT"]),
        (
            "Pumps SHOULD{' '}\n<a href=\"/prime\">prime</a> first.",
            "Pumps SHOULD prime first.",
            ["SHOULD"],
        ),
        ("Write {'{'} to open {props.block}.", "Write { to open {props.block}.", []),
    ],
)
def test_an_mdx_string_expression_shows_its_string(
    markdown: str, text: str, keywords: list[str]
) -> None:
    (block,) = parse(markdown, name="pump.mdx").blocks
    assert block.text == text
    assert [k.word for s in block.sentences for k in s.keywords] == keywords


def test_a_docusaurus_tab_item_without_a_label_shows_its_value() -> None:
    markdown = (
        '<Tabs>\n<TabItem value="Electric">\nIt MUST be earthed.\n</TabItem>\n'
        '<TabItem value="hand" label="Manual">\nIt MAY jam.\n</TabItem>\n</Tabs>\n'
    )
    assert [(b.kind.value, b.text) for b in parse(markdown, name="pump.mdx").blocks] == [
        ("component", "Electric"),
        ("paragraph", "It MUST be earthed."),
        ("component", "Manual"),
        ("paragraph", "It MAY jam."),
    ]


@pytest.mark.parametrize(
    "opening",
    [
        '{{% tab header="Electric" %}}',
        '{{< tab "Electric" >}}',
        '{{< tab name="Electric" header="Ignored" >}}',
    ],
)
def test_a_hugo_tab_is_titled_by_its_header_or_first_argument(opening: str) -> None:
    closing = "{{% /tab %}}" if "%" in opening else "{{< /tab >}}"
    markdown = f"{opening}\nIt MUST be earthed.\n{closing}\n"
    assert [b.text for b in parse(markdown).blocks] == ["Electric", "It MUST be earthed."]


def test_a_hugo_details_is_titled_by_its_first_argument() -> None:
    markdown = '{{< details "Why earth it?" >}}\nIt MUST be earthed.\n{{< /details >}}\n'
    assert [b.text for b in parse(markdown).blocks] == ["Why earth it?", "It MUST be earthed."]


def test_an_attribute_shows_its_entities_decoded() -> None:
    markdown = '<Tab title="Flow &gt; 3 l&#47;s">\nIt MUST be earthed.\n</Tab>\n'
    assert parse(markdown, name="pump.mdx").blocks[0].text == "Flow > 3 l/s"


@pytest.mark.parametrize(
    ("markdown", "text", "key"),
    [
        (
            "The pump <span style={{color: 'red'}}>MUST</span> be earthed.",
            "The pump MUST be earthed.",
            "The pump MUST be earthed.",
        ),
        (
            'Prime the <Tooltip tip={"Fill it first"}>pump</Tooltip> now.',
            "Prime the pump now.",
            "Prime the pump now. ⟨tip: Fill it first⟩",
        ),
        ("Prime the <a href={pumpUrl}>pump</a>.", "Prime the pump.", "Prime the pump. ⟨{pumpUrl}⟩"),
    ],
)
def test_an_inline_jsx_tag_with_an_expression_attribute_is_a_tag(
    markdown: str, text: str, key: str
) -> None:
    (block,) = parse(markdown, name="pump.mdx").blocks
    assert (block.text, block.key) == (text, key)
    assert [k.word for s in block.sentences for k in s.keywords] == (
        ["MUST"] if "MUST" in text else []
    )


def test_a_card_subtitle_and_a_badge_text_are_text() -> None:
    markdown = (
        '{{< card link="/pumps" title="Pumps" subtitle="Electric ones" >}}\n\n'
        '<Badge text="Beta" type="tip" />\n'
    )
    assert [b.text for b in parse(markdown, name="pump.mdx").blocks] == [
        "Pumps · Electric ones",
        "Beta",
    ]


def test_a_tab_item_takes_its_label_from_the_values_of_its_tabs() -> None:
    markdown = (
        "<Tabs values={[{label: 'Electric', value: 'e'}, {value: \"h\", label: \"Manual\"}]}>\n"
        '<TabItem value="e">\nIt MUST be earthed.\n</TabItem>\n'
        '<TabItem value="h" label="By hand">\nIt MAY jam.\n</TabItem>\n</Tabs>\n'
    )
    assert [b.text for b in parse(markdown, name="pump.mdx").blocks] == [
        "Electric",
        "It MUST be earthed.",
        "By hand",
        "It MAY jam.",
    ]


def test_unknown_components_keep_their_text() -> None:
    document = parse('<Gauge label="Pressure" unit="bar">\nKeep it under four.\n</Gauge>\n')
    assert [(b.kind.value, b.text) for b in document.blocks] == [
        ("component", "Pressure"),
        ("paragraph", "Keep it under four."),
    ]


# --- Malformed input ------------------------------------------------------------------------


def test_an_unclosed_note_keeps_its_text_and_what_follows() -> None:
    document = parse("<Note>\nPrime it first.\n\n## Care\n\nOil it. It MAY squeak.\n")
    assert [(b.text, b.section) for b in document.blocks] == [
        ("Prime it first.", ()),
        ("Care", ("Care",)),
        ("Oil it. It MAY squeak.", ("Care",)),
    ]


def test_a_stray_closing_tag_is_dropped() -> None:
    document = parse("Prime it first.\n\n</Warning>\n\nOil it.\n")
    assert [b.text for b in document.blocks] == ["Prime it first.", "Oil it."]


def test_an_unclosed_fence_runs_to_the_end_of_the_page() -> None:
    document = parse("Prime it.\n\n```sh\npump --prime\n\nOil it. It MUST turn.\n")
    assert [(b.kind.value, b.text) for b in document.blocks] == [
        ("paragraph", "Prime it."),
        ("code", "pump --prime\n\nOil it. It MUST turn."),
    ]
    assert document.blocks[1].sentences[0].keywords == ()


MALFORMED = [
    "<Note>\n<Warning>\nText\n</Note>\n",
    "</Warning>\n</Note>\n</div>\n",
    "```\nno end\n",
    "~~~~\n```\n~~~\n",
    "<Note",
    '<Note title="open\n\nText.\n',
    '<Card title={"a" + {b}>\nText.\n</Card>\n',
    "{/* never closed\n\nText.\n",
    '{{< callout type="info" >}}\nText.\n',
    "{{< /callout >}}\n",
    ":::note\nText.\n",
    ":::\n:::\n",
    "!!!\n",
    "---\ntitle: never closed\n\nText.\n",
    "---\n---\n",
    "> [!NOTE]\n",
    "> [!BOGUS]\n> Text.\n",
    ">" * 200 + " deep\n",
    "<Note>\n" * 300,
    "- " * 300 + "item\n",
    "[a]: \n[b]:\n[a][b][c]\n",
    "| a |\n|---|---|\n| b | c | d |\n",
    "export\nimport\n",
    "\x00\x01\x02 text\n",
    "\ufeff\u200b\u202e\n",
    "",
]


@pytest.mark.parametrize("markdown", MALFORMED)
@pytest.mark.parametrize("extension", [".md", ".mdx"])
def test_malformed_input_never_raises(markdown: str, extension: str) -> None:
    assert isinstance(parse(markdown, name="bad" + extension), Document)
    page = diff_texts(markdown, "# Fixed\n\nText.\n", "bad" + extension)
    assert page.changes


MARKDOWN_PIECES = st.sampled_from(
    [
        "<Note>",
        "</Note>",
        "<Warning>",
        "</Warning>",
        '<Card title="x" />',
        '<div id="a" />',
        "```",
        "~~~",
        "```json theme={null}",
        ":::note",
        ":::",
        "!!! tip",
        "    ",
        "> [!NOTE]",
        ">",
        "{/*",
        "*/}",
        "{{< callout >}}",
        "{{< /callout >}}",
        "---",
        "title: T",
        "# ",
        "## ",
        "Setext",
        "===",
        "- ",
        "1. ",
        "* ",
        "| a | b |",
        "|---|---|",
        "--- | :--",
        "[x]: /y",
        "[^1]:",
        "[^1]",
        "[x][]",
        "[l](/t)",
        "![i](/p.png)",
        "<https://a.b>",
        "~~",
        "**",
        "__",
        "`",
        "MUST",
        "SHOULD NOT",
        "may",
        "e.g.",
        "Text.",
        "&mdash;",
        "&nbsp;",
        "\\",
        "\u200b",
        "\t",
        "import x",
        "export y",
        "",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(MARKDOWN_PIECES, max_size=6).map(" ".join), max_size=25),
    st.sampled_from([".md", ".mdx"]),
)
def test_random_markdown_never_raises(lines: list[str], extension: str) -> None:
    text = "\n".join(lines)
    document = parse(text, name="fuzz" + extension)
    for block in document.blocks:
        assert 1 <= block.line <= block.end_line
    diff_texts(text, text.replace("Text.", "Other text."), "fuzz" + extension)
    diff_texts(None, text, "fuzz" + extension)


@cache
def every_rule_on_every_line(dialect: Dialect) -> MarkdownIt:
    """The parser without its dispatch by first character: markdown-it's own rule chains."""
    md = parser.__wrapped__(dialect)
    del md.block.ruler.getRules
    del md.inline.ruler.getRules
    return md


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(MARKDOWN_PIECES, max_size=6).map(" ".join), max_size=25),
    st.sampled_from(list(Dialect)),
)
def test_rules_tried_by_first_character_give_the_same_tokens(
    lines: list[str], dialect: Dialect
) -> None:
    text = "\n".join(lines)
    assert parser(dialect).parse(text, {}) == every_rule_on_every_line(dialect).parse(text, {})


REPOSITORY = Path(__file__).resolve().parents[1]
PAGES = [
    *sorted(
        path.relative_to(REPOSITORY)
        for folder in ("examples", "tests/fixtures", "docs")
        for path in (REPOSITORY / folder).rglob("*.md*")
    ),
    Path("README.md"),
]


TRICKY = [
    "a | b\n--- | :--:\n1 | 2\nlazy",
    "Text\n:-: | -\nx",
    "- x--\n---\n- y\n\n---\n",
    "Setext\n  ===\ntext\n-\n* * *\n_ _ _",
    "> quote\nlazy\n> - item\n>   1) nested\n\n> [!WARNING]\n> careful",
    "para\n    indented continuation\n\n    code\n\ttab code",
    "1. one\n2) two\n10. ten\n\n[ref]: /target 'title'\n[ref]",
    '!!! note "Title"\n    body\n\n??? tip\n    folded\n\n::: warning\nbody\n:::',
    "text <span>*a* `b` ~~c~~ \\* &amp; ![i](/p.png) <https://a.b></span>\nnext line  \nhard",
    "{/* comment */}\n\nexport const a = 1\n\nimport x from 'y'\n{{< ref \"p\" >}}",
    "Note[^1] and [^x].\n[^1]: not here\n\n[^1]: A note\n    more\n\n    > quoted\n[^2]:\n[^ a]: /t",
    "<Note>\n     <Note>\n\n<details>\n    <summary>Why</summary>\n\n    code",
]


@pytest.mark.parametrize(
    "text",
    [*TRICKY, *((REPOSITORY / page).read_text(encoding="utf-8") for page in PAGES)],
    ids=[*(f"tricky-{index}" for index in range(len(TRICKY))), *map(str, PAGES)],
)
@pytest.mark.parametrize("dialect", list(Dialect))
def test_rules_tried_by_first_character_give_pages_the_same_tokens(
    text: str, dialect: Dialect
) -> None:
    assert parser(dialect).parse(text, {}) == every_rule_on_every_line(dialect).parse(text, {})


# --- Reading pages --------------------------------------------------------------------------


def test_binary_input_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"^pump\.png: binary data"):
        decode_page(b"\x89PNG\r\n\x1a\n\x00\x00", "pump.png")


def test_non_utf8_input_is_an_input_error_naming_the_byte() -> None:
    with pytest.raises(InputError, match=r"^old/pump\.md: not UTF-8 \(byte 0xe9 at offset 3\)"):
        decode_page("Caf\u00e9 pumps.\n".encode("latin-1"), "old/pump.md")


def test_decoding_drops_the_byte_order_mark_and_normalizes_line_ends() -> None:
    assert decode_page(b"\xef\xbb\xbfOne\r\nTwo\rThree\n", "p.md") == "One\nTwo\nThree\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\x01binary", "binary data"),
        ("Caf\u00e9\n".encode("latin-1"), "not UTF-8"),
        ("# Pump\n".encode("utf-16"), "UTF-16 text"),
    ],
)
def test_the_cli_reports_unreadable_pages_on_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    good = tmp_path / "good.md"
    bad = tmp_path / "bad.md"
    good.write_text("# Pump\n", encoding="utf-8")
    bad.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "spectrack", "diff", str(good), str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"spectrack: error: {bad}: {message}")
    assert "Traceback" not in done.stderr


# --- The README's admonition table is what the parser does ------------------------------------

README = REPOSITORY / "README.md"
SYNTAX_COLUMNS = ("mdx", "github", "docusaurus", "mkdocs", "hugo")


def _callout(syntax: str, opener: str) -> str:
    """A callout around "Oil it." that starts with ``opener`` as the README writes it."""
    if syntax == "mdx":
        return f"{opener}\nOil it.\n</{opener.strip('<>')}>\n"
    if syntax == "github":
        return f"{opener}\n> Oil it.\n"
    if syntax == "docusaurus":
        return f"{opener}\n\nOil it.\n\n:::\n"
    if syntax == "mkdocs":
        return f"{opener}\n\n    Oil it.\n"
    return f"{{{{< callout {opener} >}}}}\nOil it.\n{{{{< /callout >}}}}\n"


def documented_admonitions() -> list[tuple[str, str, str]]:
    """(kind, syntax, opener) for every entry of the README's admonition table."""
    section = README.read_text(encoding="utf-8").split("### Admonitions\n", 1)[1]
    rows = [line for line in section.split("\n### ", 1)[0].splitlines() if line.startswith("| ")]
    entries = []
    for row in rows:
        kind, *columns = [cell.strip() for cell in row.strip("|").split("|")]
        if kind in KINDS:
            for syntax, cell in zip(SYNTAX_COLUMNS, columns, strict=True):
                entries += [(kind, syntax, opener) for opener in re.findall(r"`([^`]+)`", cell)]
    return entries


def test_the_readme_documents_every_kind_in_every_syntax() -> None:
    entries = documented_admonitions()
    assert {(kind, syntax) for kind, syntax, _ in entries} == {
        (kind, syntax) for kind in KINDS for syntax in SYNTAX_COLUMNS
    }


@pytest.mark.parametrize(("kind", "syntax", "opener"), documented_admonitions())
def test_the_readme_admonition_table_is_what_the_parser_does(
    kind: str, syntax: str, opener: str
) -> None:
    document = parse(_callout(syntax, opener))
    assert [(a.kind, a.syntax) for a in document.admonitions] == [(kind, syntax)]
    assert [(b.text, b.admonition) for b in document.blocks] == [("Oil it.", kind)]


DUPLICATE_DEFINITIONS = (
    "# Kettles\n\nSee [the guide][a].\n\nSome text.\n\n"
    "[a]: https://b.example\n\nMore text.\n\n[A]: https://c.example\n"
)


def link_keys(markdown: str) -> list[str]:
    return [block.key for block in parse(markdown).blocks if "⟨" in block.key]


def test_the_first_definition_of_a_label_wins() -> None:
    """CommonMark: a label defined twice links to its first definition on the page, whatever
    the alphabetical order of the targets."""
    assert link_keys(DUPLICATE_DEFINITIONS) == ["See the guide. ⟨https://b.example⟩"]
    later_first = DUPLICATE_DEFINITIONS.replace("https://b.example", "https://z.example")
    assert link_keys(later_first) == ["See the guide. ⟨https://z.example⟩"]
    html = MarkdownIt("commonmark").render(later_first)
    assert 'href="https://z.example"' in html


@pytest.mark.parametrize("incremental", [True, False])
def test_only_a_change_to_the_first_definition_changes_the_link(incremental: bool) -> None:
    old = DUPLICATE_DEFINITIONS
    second = old.replace("https://c.example", "https://a.example")
    page = diff_texts(old, second, "page.md", incremental=incremental)
    assert [(c.change_class.value, c.new and c.new.text) for c in page.changes] == [
        ("formatting", "[A]: https://a.example")
    ]
    first = old.replace("https://b.example", "https://d.example")
    page = diff_texts(old, first, "page.md", incremental=incremental)
    assert [(c.change_class.value, c.new and c.new.text) for c in page.changes] == [
        ("editorial", "See the guide."),
        ("formatting", "[a]: https://d.example"),
    ]
    assert link_keys(first) == ["See the guide. ⟨https://d.example⟩"]


@pytest.mark.parametrize("fence", ["```", "~~~~", "```text"])
@pytest.mark.parametrize("incremental", [True, False])
def test_a_definition_shown_in_a_code_block_defines_nothing(fence: str, incremental: bool) -> None:
    closing = fence.removesuffix("text")
    page = f"# Kettles\n\nSee [the guide][a].\n\n{fence}\n[a]: https://code.example\n{closing}\n"
    assert link_keys(page) == []
    assert "See [the guide][a]." in [block.key for block in parse(page).blocks]
    edited = page.replace("code.example", "other.example")
    changes = diff_texts(page, edited, "kettles.md", incremental=incremental).changes
    assert [c.new and c.new.text for c in changes] == ["[a]: https://other.example"]
    defined = page + "\n[a]: https://real.example\n"
    assert link_keys(defined) == ["See the guide. ⟨https://real.example⟩"]


PYMDOWN_BLOCKS = """\
/// warning | Mains power

The pump MUST be earthed.

```text
///
```

It hums.
///

/// details | Why earth it?
    type: danger
    open: true

A fault MAY reach the casing.
///

/// tab | Electric

It SHOULD be switched off first.
///
"""

COUNTERPARTS = """\
!!! warning "Mains power"

    The pump MUST be earthed.

    ```text
    ///
    ```

    It hums.

??? danger "Why earth it?"

    A fault MAY reach the casing.

=== "Electric"

    It SHOULD be switched off first.
"""


def test_pymdown_blocks_read_as_their_counterparts_of_the_other_syntaxes() -> None:
    blocks = parse(PYMDOWN_BLOCKS)
    counterparts = parse(COUNTERPARTS)
    assert [(b.kind, b.text, b.admonition) for b in blocks.blocks] == [
        (b.kind, b.text, b.admonition) for b in counterparts.blocks
    ]
    assert [(a.kind, a.syntax) for a in blocks.admonitions] == [
        ("warning", "mkdocs"),
        ("caution", "mkdocs"),
    ]
    assert diff_texts(COUNTERPARTS, PYMDOWN_BLOCKS, "pump.md").verdict == "formatting"


@pytest.mark.parametrize("incremental", [True, False])
def test_a_change_inside_a_pymdown_block_keeps_the_block_around_it(incremental: bool) -> None:
    filler = "".join(f"Line {number} of the manual.\n\n" for number in range(30))
    old = filler + PYMDOWN_BLOCKS + "\n" + filler
    new = old.replace("It hums.", "It hums loudly.")
    page = diff_texts(old, new, "pump.md", incremental=incremental)
    assert [(c.change_class.value, c.new and c.new.text) for c in page.changes] == [
        ("editorial", "It hums loudly.")
    ]
    weakened = old.replace("MUST be earthed", "SHOULD be earthed")
    page = diff_texts(old, weakened, "pump.md", incremental=incremental)
    assert [c.kind.value for c in page.changes] == ["weakened"]


def test_the_body_rows_of_a_table_a_requirement_introduces_have_it_as_their_lead_in() -> None:
    document = parse(
        "Every jar MUST show:\n\n| Field | Form |\n|---|---|\n| name | text |\n"
        "- a list right after the table\n"
    )
    lead_ins = {block.text: block.lead_in and block.lead_in.text for block in document.blocks}
    assert lead_ins == {
        "Every jar MUST show:": None,
        "Field | Form": None,
        "name | text": "Every jar MUST show:",
        "a list right after the table": None,
    }


@pytest.mark.parametrize("name", ["pump.md", "pump.mdx"])
def test_an_html_table_row_whose_cells_leave_out_their_end_tags_keeps_its_text(name: str) -> None:
    html = parse("<table>\n<tr>\n<td>The valve\n<td>MUST\n</tr>\n</table>\n", name=name).blocks
    markdown = parse("| The valve | MUST |\n|---|---|\n", name=name).blocks
    assert [(b.kind, b.text) for b in html] == [(b.kind, b.text) for b in markdown]
    assert [k.word for k in html[-1].sentences[0].keywords] == ["MUST"]


def test_a_table_after_the_list_of_a_requirement_is_not_introduced_by_it() -> None:
    document = parse(
        "Labels MUST show these:\n\n- a name\n\n| Part | Size |\n|---|---|\n| lid | 5 |\n"
    )
    lead_ins = {block.text: block.lead_in and block.lead_in.text for block in document.blocks}
    assert lead_ins == {
        "Labels MUST show these:": None,
        "a name": "Labels MUST show these:",
        "Part | Size": None,
        "lid | 5": None,
    }


def test_an_attribute_list_after_a_heading_is_no_part_of_its_words() -> None:
    for heading in ("## Lids {: #lids }", "## Lids {:#lids .wide}", "## Lids { .unnumbered }"):
        document = parse(f"{heading}\n\nLids MUST fit.\n", name="page.md")
        assert [(b.text, b.section) for b in document.blocks] == [
            ("Lids", ("Lids",)),
            ("Lids MUST fit.", ("Lids",)),
        ]
    # Braces without an id or a class are words.
    assert parse("## Set {a}\n").blocks[0].text == "Set {a}"


def test_a_bare_url_is_a_link_to_itself() -> None:
    bare, autolink, www = (
        parse(text).blocks[0].key
        for text in (
            "See https://jars.example/care now.\n",
            "See <https://jars.example/care> now.\n",
            "See www.jars.example now.\n",
        )
    )
    assert bare == autolink == "See https://jars.example/care now. ⟨https://jars.example/care⟩"
    assert www == "See www.jars.example now. ⟨http://www.jars.example⟩"


@pytest.mark.parametrize(
    "info", ["python", 'python title="jar.py"', '{.python title="jar.py"}', "{python}", "{.python}"]
)
def test_a_fence_language_is_read_also_in_braces(info: str) -> None:
    document = parse(f"```{info}\nlid = 1\n```\n")
    assert [(b.language, b.key) for b in document.blocks] == [("python", "```python lid=1")]


def test_an_attribute_list_right_after_an_inline_element_is_no_text() -> None:
    (block,) = parse(
        "[Start](start.md){ .md-button } now, ![Jar](jar.png){: width=300 } and *this*{#x}.\n"
        "Braces after a space stay: [a](b) {.c}, and others too: [a](b){c}.\n"
    ).blocks
    assert block.text == (
        "Start now, Jar and this. Braces after a space stay: a {.c}, and others too: a{c}."
    )


def test_pymdown_marks_are_inline_syntax_in_markdown_pages_only() -> None:
    # MDX pages read no `==mark==`: text holding one and nothing else is plain there.
    text = "Relays ==MUST== vent."
    assert _INLINE_SYNTAX[Dialect.MARKDOWN].search(text) is not None
    assert _INLINE_SYNTAX[Dialect.MDX].search(text) is None
    assert [block.text for block in parse(text + "\n", name="page.mdx").blocks] == [text]
    assert [block.text for block in parse(text + "\n", name="page.md").blocks] == [
        "Relays MUST vent."
    ]
