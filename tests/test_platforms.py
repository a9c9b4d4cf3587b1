"""Documentation platforms' structures (Mintlify, Docusaurus, MkDocs Material, Hugo themes,
GitHub): a page re-rendered by another platform keeps its words, so the change is formatting;
a keyword changed inside such a structure is normative, reported as plain sentences."""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts
from spectrack.markdown import parse


def assert_formatting(old: str, new: str, path: str = "page.md") -> None:
    for incremental in (True, False):
        report = diff_texts(old, new, path, incremental=incremental)
        assert report is not None
        assert report.verdict == "formatting", [
            (change.change_class, change.old, change.new) for change in report.changes
        ]


STORING_JARS = """\
:::note[Storing jars]

Jars MUST be kept upright.

:::
"""


def test_a_notice_titled_by_position_is_titled() -> None:
    # Relearn's notice: its style, then its title, as positional arguments.
    new = '{{% notice note "Storing jars" %}}\nJars MUST be kept upright.\n{{% /notice %}}\n'
    assert_formatting(STORING_JARS, new)
    # A title that is the kind's name is the default one, not shown as text.
    titled = new.replace('note "Storing jars"', 'warning "Warning"')
    assert [block.text for block in parse(titled, name="page.md").blocks] == [
        "Jars MUST be kept upright."
    ]


def test_a_notice_takes_its_kind_from_its_style() -> None:
    page = '{{% notice style="caution" title="Hot" %}}\nRelays MUST vent.\n{{% /notice %}}\n'
    assert parse(page, name="page.md").admonitions[0].kind == "caution"


def test_an_expand_titled_by_position_is_titled() -> None:
    old = '{{% expand "Why vent?" %}}\nRelays MUST vent the jar first.\n{{% /expand %}}\n'
    new = '{{< details "Why vent?" >}}\nRelays MUST vent the jar first.\n{{< /details >}}\n'
    assert_formatting(old, new)
    assert parse(old, name="page.md").blocks[0].text == "Why vent?"


def test_a_flag_named_like_text_shows_nothing() -> None:
    old = """\
{{< tabs items="Glass,Clay" >}}
{{< tab >}}
Relays MUST rinse glass jars.
{{< /tab >}}
{{< tab >}}
Relays MUST dry clay jars.
{{< /tab >}}
{{< /tabs >}}
"""
    # Docsy's `text=true` renders the tabs' bodies as Markdown: no word of the page.
    new = """\
{{< tabpane text=true >}}
{{% tab header="Glass" %}}
Relays MUST rinse glass jars.
{{% /tab %}}
{{% tab header="Clay" %}}
Relays MUST dry clay jars.
{{% /tab %}}
{{< /tabpane >}}
"""
    assert_formatting(old, new)
    assert "true" not in [block.text for block in parse(new, name="page.md").blocks]


def assert_verdict(old: str, new: str, verdict: str, path: str = "page.md") -> None:
    for incremental in (True, False):
        report = diff_texts(old, new, path, incremental=incremental)
        assert report is not None
        assert report.verdict == verdict, [
            (change.change_class, change.old, change.new) for change in report.changes
        ]


@pytest.mark.parametrize(
    "snippet",
    [
        '--8<-- "jars/intro.md"',
        "--8<-- 'jars/intro.md'",
        "--8<-- jars/intro.md",
        "--8<--\njars/intro.md\njars/lids.md\n--8<--",
    ],
)
def test_a_snippet_line_is_the_file_it_includes_not_text(snippet: str) -> None:
    # MkDocs (PyMdown's snippets) shows the file's text in its place, never the marker.
    page = f"# Jars\n\n{snippet}\n\nRelays MUST log each seal.\n"
    texts = [block.text for block in parse(page, name="page.md").blocks]
    assert texts == ["Jars", "", "Relays MUST log each seal."]
    # Quoting the name otherwise is formatting; including another file is editorial.
    requoted = page.replace('"jars/intro.md"', "'jars/intro.md'")
    if requoted != page:
        assert_verdict(page, requoted, "formatting")
    assert_verdict(page, page.replace("intro.md", "outro.md"), "editorial")


def test_a_snippet_line_below_a_requirement_is_no_word_of_it() -> None:
    old = 'Relays MUST log each seal.\n--8<-- "jars/intro.md"\n'
    assert [block.text for block in parse(old, name="page.md").blocks] == [
        "Relays MUST log each seal."
    ]
    assert_verdict(old, old.replace("intro", "outro"), "editorial")


@pytest.mark.parametrize(
    "old",
    ["![](jars/glass.png)\n", "Relays MUST log each seal.\n![](jars/glass.png)\n"],
)
def test_a_picture_without_words_after_the_last_word_is_still_compared(old: str) -> None:
    # The picture's address counts as a link's target, also where no word follows it.
    assert_verdict(old, old.replace("glass", "clay"), "editorial")


@pytest.mark.parametrize(
    "old",
    [
        '<Admonition type="tip" title="Tip">\nLids MAY be reused.\n</Admonition>\n',
        '<Aside type="tip" title="Tip">\nLids MAY be reused.\n</Aside>\n',
    ],
)
def test_an_admonition_component_is_a_callout_of_its_type(old: str) -> None:
    # Docusaurus' `<Admonition>` and Starlight's `<Aside>`: a title that is the kind's name is
    # the default one, as a `:::tip` shows it.
    assert_verdict(old, ":::tip\nLids MAY be reused.\n:::\n", "formatting", "page.mdx")
    assert parse(old, name="page.mdx").admonitions[0].kind == "tip"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Relays MUST seal each jar before shipping.\n",
            "Relays MUST seal each jar (1) before shipping.\n{ .annotate }\n\n"
            "1.  Any lidded glass container.\n",
        ),
        (
            '!!! note "Jars"\n\n    Relays MUST seal each jar before shipping.\n',
            '!!! note annotate "Jars"\n\n    Relays MUST seal each jar (1) before shipping.\n\n'
            "    1.  Any lidded glass container.\n",
        ),
    ],
)
def test_an_annotation_marker_is_no_word_of_a_requirement(old: str, new: str) -> None:
    # MkDocs Material shows an icon for `(1)` in a block of the class `annotate`, whose note
    # opens on a click: a note added, as a footnote is, with no requirement changed.
    assert_verdict(old, new, "editorial")
    texts = [block.text for block in parse(new, name="page.md").blocks]
    assert "Relays MUST seal each jar before shipping." in texts


ANNOTATED_ADMONITION = """\
!!! note annotate

    Relays MUST retry (3) times before closing the jar.

    Lids hold. (1)

1. Cold lids.
"""
ANNOTATED_PARAGRAPH = """\
Relays MUST retry (3) times before closing the jar. (1)
{ .annotate }

1. Cold lids.
"""


@pytest.mark.parametrize("page", [ANNOTATED_ADMONITION, ANNOTATED_PARAGRAPH])
@pytest.mark.parametrize("paragraphs_above", [0, 40])
def test_a_number_with_no_annotation_stays_a_word(page: str, paragraphs_above: int) -> None:
    # Material makes `(N)` a marker only where the list of annotations below has an N-th item.
    old = "".join(f"Lid {number} is round.\n\n" for number in range(paragraphs_above)) + page
    new = old.replace("(3)", "(5)")
    report = diff_texts(old, new, "page.md")
    assert report == diff_texts(old, new, "page.md", incremental=False)
    assert [
        (change.change_class.value, change.new and change.new.text) for change in report.changes
    ] == [("normative", "Relays MUST retry (5) times before closing the jar.")]


@pytest.mark.parametrize("page", [ANNOTATED_ADMONITION, ANNOTATED_PARAGRAPH])
def test_an_annotation_added_below_makes_its_number_a_marker_in_windows_too(page: str) -> None:
    new = page.replace("1. Cold lids.\n", "1. Cold lids.\n2. Dry lids.\n3. Warm lids.\n")
    report = diff_texts(page, new, "page.md")
    assert report == diff_texts(page, new, "page.md", incremental=False)
    texts = [block.text for block in parse(new, name="page.md").blocks]
    assert "Relays MUST retry times before closing the jar." in texts


@pytest.mark.parametrize(
    ("page", "path"),
    [
        ('# Jars\n\n<Snippet file="intro.mdx" />\n', "page.mdx"),
        ('# Jars\n\n{{< include "intro.md" >}}\n', "page.md"),
        ('# Jars\n\n{{< readfile file="intro.md" >}}\n', "page.md"),
    ],
)
def test_including_another_file_is_editorial(page: str, path: str) -> None:
    # Readers see the included file's text in its place: another file, other words.
    assert_verdict(page, page.replace("intro", "outro"), "editorial", path)


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        (
            '{{< card header="Glass jars" >}}\nRelays MUST rinse them.\n{{< /card >}}\n',
            '{{< card header="Clay jars" >}}\nRelays MUST rinse them.\n{{< /card >}}\n',
            "page.md",
        ),
        (
            '<Card title="Jars" href="/jars" cta="Read the guide">\nRelays MUST rinse.\n</Card>\n',
            '<Card title="Jars" href="/jars" cta="Skip the guide">\nRelays MUST rinse.\n</Card>\n',
            "page.mdx",
        ),
        (
            'Relays MUST rinse <Tooltip headline="Jar" tip="A lidded pot">jars</Tooltip>.\n',
            'Relays MUST rinse <Tooltip headline="Pot" tip="A lidded pot">jars</Tooltip>.\n',
            "page.mdx",
        ),
    ],
)
def test_a_cards_header_and_call_to_action_are_words_readers_see(
    old: str, new: str, path: str
) -> None:
    assert_verdict(old, new, "editorial", path)


def test_a_cards_header_reads_as_its_title_elsewhere() -> None:
    old = '{{< card header="Glass jars" >}}\nRelays MUST rinse them.\n{{< /card >}}\n'
    assert_verdict(
        old, '<Card title="Glass jars">\nRelays MUST rinse them.\n</Card>\n', "formatting"
    )
    # A field's place is the field's: `header="X-Jar"` shows once.
    field = '<ParamField header="X-Jar" type="string">\nThe jar.\n</ParamField>\n'
    assert parse(field, name="page.mdx").blocks[0].text == "X-Jar · string"


def test_a_directive_title_attribute_titles_a_container() -> None:
    old = ':::note{title="Hot jars"}\nRelays MUST vent.\n:::\n'
    assert_verdict(old, ":::note[Hot jars]\nRelays MUST vent.\n:::\n", "formatting")
    assert [block.text for block in parse(old, name="page.md").blocks] == [
        "Hot jars",
        "Relays MUST vent.",
    ]


@pytest.mark.parametrize(
    "new",
    [
        "Relays ==MUST== vent *hot* jars.\n",
        "Relays **MUST** vent ^^hot^^ jars.\n",
        "Relays ==**MUST**== vent *hot* jars. :material-fire:{ .hot }\n",
    ],
)
def test_pymdown_marks_and_icon_attributes_show_the_words_alone(new: str) -> None:
    # MkDocs Material highlights `==…==` and underlines `^^…^^`, as emphasis sets words off;
    # an icon's attribute list (`{ .hot }`) colours it.
    old = "Relays **MUST** vent *hot* jars.\n"
    assert_verdict(old, new, "formatting")
    assert parse(new, name="page.md").blocks[0].text == "Relays MUST vent hot jars."


@pytest.mark.parametrize("delimiter", ["==", "^^"])
def test_a_mark_closes_past_code_not_inside_it(delimiter: str) -> None:
    # The delimiters inside the code span are code: the mark closes after "y".
    marked = f"Relays MUST retry {delimiter}`x{delimiter}` or y{delimiter}.\n"
    assert_formatting(marked, f"Relays MUST retry `x{delimiter}` or y.\n")


def test_a_keyword_changed_in_a_pymdown_mark_is_reported_without_it() -> None:
    report = diff_texts("Relays ==MUST== vent.\n", "Relays ==SHOULD== vent.\n", "page.md")
    assert report is not None
    assert [(change.kind.value, change.new and change.new.text) for change in report.changes] == [
        ("weakened", "Relays SHOULD vent.")
    ]


STEPS_LED_IN = """\
Relays MUST do this:

<Steps>
  <Step title="Fill">
    Fill the jar.
  </Step>
  <Step title="Seal">
    Seal the lid.
  </Step>
</Steps>
"""


@pytest.mark.parametrize(
    ("wrapped", "path"),
    [
        # Starlight's and Hextra's steps wrap an ordered list, which a lead-in above introduces.
        ("<Steps>\n\n1. Fill the jar.\n2. Seal the lid.\n\n</Steps>\n", "page.mdx"),
        ("{{% steps %}}\n\n1. Fill the jar.\n2. Seal the lid.\n\n{{% /steps %}}\n", "page.md"),
    ],
)
def test_steps_read_as_the_numbered_list_they_show(wrapped: str, path: str) -> None:
    lead_in = "Relays MUST do this:\n\n"
    plain = lead_in + "1. Fill the jar.\n2. Seal the lid.\n"
    assert_verdict(lead_in + wrapped, plain, "formatting", path)


@pytest.mark.parametrize(
    ("opening", "closing", "path"),
    [
        ("<Steps>", "</Steps>", "page.mdx"),
        ("{{% steps %}}", "{{% /steps %}}", "page.md"),
        ("{{< steps >}}", "{{< /steps >}}", "page.md"),
        ("<div>\n\n{{< steps >}}", "{{< /steps >}}\n\n</div>", "page.md"),
        ("<ol>", "</ol>", "page.md"),
        ("", "", "page.md"),
    ],
)
@pytest.mark.parametrize("items_above", [0, 40])
def test_a_step_edited_under_its_lead_in_reads_alike_in_windows_and_whole(
    opening: str, closing: str, path: str, items_above: int
) -> None:
    # The window scan finds the steps' opening as the parser does, whatever its syntax, so a
    # window keeps the requirement that introduces them, however far down the edited step is.
    items = "".join(f"{number}. Stir {number}\n" for number in range(1, items_above + 1))
    old = f"Relays MUST do this:\n\n{opening}\n\n{items}1. Fill\n2. Seal\n\n{closing}\n"
    new = old.replace("Fill", "Drain")
    windowed = diff_texts(old, new, path)
    assert windowed == diff_texts(old, new, path, incremental=False)
    assert windowed.verdict == "normative"


def test_mintlify_steps_re_rendered_as_a_list_keep_their_requirement() -> None:
    listed = (
        "Relays MUST do this:\n\n1. **Fill**\n\n   Fill the jar.\n\n"
        "2. **Seal**\n\n   Seal the lid.\n"
    )
    assert_verdict(STEPS_LED_IN, listed, "formatting", "page.mdx")


def test_a_step_changed_under_a_requirement_changes_it() -> None:
    new = STEPS_LED_IN.replace("Seal the lid.", "Seal the rim.")
    report = diff_texts(STEPS_LED_IN, new, "page.mdx")
    assert report is not None
    assert [(change.kind.value, change.new and change.new.text) for change in report.changes] == [
        ("modified", "Relays MUST do this: Seal the rim.")
    ]


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        (
            "::: details Why vent?\nRelays MUST vent the jar first.\n:::\n",
            '??? note "Why vent?"\n    Relays MUST vent the jar first.\n',
            "page.md",
        ),
        (
            "::: details Why vent?\nRelays MUST vent the jar first.\n:::\n",
            "<details>\n<summary>Why vent?</summary>\n\nRelays MUST vent the jar first.\n\n"
            "</details>\n",
            "page.md",
        ),
        (
            "::: details\nRelays MUST vent the jar first.\n:::\n",
            "Relays MUST vent the jar first.\n",
            "page.md",
        ),
        (
            "<CodeGroup>\n```sh npm\nnpm i jar\n```\n</CodeGroup>\n\nRelays MUST seal.\n",
            "::: code-group\n```sh [npm]\nnpm i jar\n```\n:::\n\nRelays MUST seal.\n",
            "page.mdx",
        ),
        (
            "Relays MUST seal {{ jar }}.\n",
            "::: v-pre\nRelays MUST seal {{ jar }}.\n:::\n",
            "page.md",
        ),
    ],
)
def test_vitepress_containers_show_what_they_hold(old: str, new: str, path: str) -> None:
    # `::: details Title` folds as MkDocs' `??? note` does; `::: code-group`, `::: raw` and
    # `::: v-pre` lay out or pass through their contents: no marker is a word.
    assert_formatting(old, new, path)


def test_a_keyword_changed_in_a_vitepress_details_is_a_plain_sentence() -> None:
    old = "::: details Why vent?\nRelays MUST vent the jar first.\n:::\n"
    report = diff_texts(old, old.replace("MUST", "MAY"), "page.md")
    assert [(change.kind.value, change.new and change.new.text) for change in report.changes] == [
        ("weakened", "Relays MAY vent the jar first.")
    ]


NEXTRA_TABS = """\
<Tabs items={['Glass', "Clay"]}>
<Tabs.Tab>
Relays MUST rinse glass jars.
</Tabs.Tab>
<Tab>
Relays MUST dry clay jars.
</Tab>
</Tabs>
"""


def test_nextra_tabs_are_titled_by_their_items() -> None:
    mintlify = NEXTRA_TABS.replace("<Tabs items={['Glass', \"Clay\"]}>", "<Tabs>")
    mintlify = mintlify.replace("<Tabs.Tab>", '<Tab title="Glass">', 1)
    mintlify = mintlify.replace("<Tab>", '<Tab title="Clay">').replace("</Tabs.Tab>", "</Tab>")
    assert_formatting(NEXTRA_TABS, mintlify, "page.mdx")
    # An item renamed renames its tab.
    assert_verdict(NEXTRA_TABS, NEXTRA_TABS.replace("'Glass'", "'Stone'"), "editorial", "page.mdx")


@pytest.mark.parametrize("paragraphs_above", [0, 40])
def test_a_tag_indented_below_a_tag_is_an_element_not_code(paragraphs_above: int) -> None:
    # CommonMark's HTML block that `<details>` opens holds the lines below it up to a blank one:
    # GitHub shows the indented `<summary>` as the title, not as a code sample.
    above = "".join(f"Lid {number} is round.\n\n" for number in range(paragraphs_above))
    indented = above + (
        "<details>\n    <summary>Why vent?</summary>\n\nRelays MUST vent the jar first.\n\n"
        "</details>\n"
    )
    flush = indented.replace("    <summary>", "<summary>")
    assert_formatting(indented, flush)
    assert parse(indented, name="page.md").blocks[-2].text == "Why vent?"
    # Below a blank line, an indented tag is code still.
    code = indented.replace("<details>\n", "<details>\n\n")
    assert parse(code, name="page.md").blocks[-2].kind.value == "code"


@pytest.mark.parametrize(
    "labelled",
    [
        "<b>Note:</b> Relays MUST vent the jar first.\n",
        "<strong>Note</strong>: Relays MUST vent the jar first.\n",
        "<STRONG>Warning</STRONG>\nRelays MUST vent the jar first.\n",
    ],
)
def test_a_callout_label_in_html_bold_is_the_callouts_title(labelled: str) -> None:
    # As `**Note:**` is: readers see a callout's title, the requirement after it unchanged.
    assert_formatting("**Note:** Relays MUST vent the jar first.\n", labelled)
    assert [block.text for block in parse(labelled, name="page.md").blocks] == [
        "Relays MUST vent the jar first."
    ]
    # A bold word that starts a sentence is no label.
    assert parse("<b>Note</b> that jars MUST vent.\n", name="page.md").blocks[0].text == (
        "Note that jars MUST vent."
    )


@pytest.mark.parametrize(
    ("markdown", "html"),
    [
        ('![A jar](jar.png "Sealed")\n', '<img src="jar.png" alt="A jar" title="Sealed">\n'),
        (
            'Press ![the gear](gear.png "Gear"), then relays MUST vent.\n',
            'Press <img src="gear.png" alt="the gear" title="Gear">, then relays MUST vent.\n',
        ),
    ],
)
def test_an_html_image_shows_its_alt_text_and_hovers_its_title(markdown: str, html: str) -> None:
    # An HTML element's `title` shows on hovering, as a Markdown image's does; an image in a
    # sentence reads as its description in both, and its source is a link's target.
    assert_formatting(markdown, html)
    assert_verdict(html, html.replace(".png", ".svg"), "editorial")


def test_an_html_elements_name_is_no_word() -> None:
    # `<details name>` groups disclosures so that one opens at a time: readers never see it.
    html = (
        '<details name="jars">\n<summary>Why vent?</summary>\n\nRelays MUST vent.\n\n</details>\n'
    )
    assert_formatting('??? note "Why vent?"\n    Relays MUST vent.\n', html)
    assert [block.text for block in parse(html, name="page.md").blocks] == [
        "Why vent?",
        "Relays MUST vent.",
    ]


@pytest.mark.parametrize("attributes", ["{open}", '{open="true"}', "{#why .wide}"])
def test_attributes_after_a_container_title_are_no_words(attributes: str) -> None:
    # VitePress opens `::: details Why vent? {open}` at first; readers see "Why vent?".
    old = f"::: details Why vent? {attributes}\nRelays MUST vent the jar first.\n:::\n"
    new = "<details open>\n<summary>Why vent?</summary>\n\nRelays MUST vent the jar first.\n\n</details>\n"
    assert_formatting(old, new)


VITEPRESS_TABS = """\
:::tabs key:jars
== Glass
Relays MUST rinse glass jars.
== Clay
Relays MUST dry clay jars.
:::
"""


def test_vitepress_plugin_tabs_read_as_tabs() -> None:
    # vitepress-plugin-tabs: each `== Title` line inside `:::tabs` opens a tab with that title.
    mintlify = (
        '<Tabs>\n<Tab title="Glass">\nRelays MUST rinse glass jars.\n</Tab>\n'
        '<Tab title="Clay">\nRelays MUST dry clay jars.\n</Tab>\n</Tabs>\n'
    )
    assert_formatting(VITEPRESS_TABS, mintlify, "page.mdx")
    report = diff_texts(VITEPRESS_TABS, VITEPRESS_TABS.replace("MUST dry", "MAY dry"), "page.md")
    assert [(change.kind.value, change.new and change.new.text) for change in report.changes] == [
        ("weakened", "Relays MAY dry clay jars.")
    ]
    # Outside `:::tabs`, such a line is text.
    assert parse("== Glass\nJars.\n", name="page.md").blocks[0].text == "== Glass Jars."


def test_a_hugo_badge_shows_its_text() -> None:
    # Hextra's badge, by position or `content=`, shows its words, as Starlight's `<Badge>` does.
    old = '{{< badge "Beta" >}}\n\nRelays MUST vent.\n'
    assert_formatting(old, '{{< badge content="Beta" type="info" >}}\n\nRelays MUST vent.\n')
    assert_formatting(old, '<Badge text="Beta" />\n\nRelays MUST vent.\n', "page.mdx")
    assert_verdict(old, old.replace("Beta", "Stable"), "editorial")


def test_a_column_break_is_no_word() -> None:
    # hugo-book parts `{{< columns >}}` at `<--->` lines; elsewhere such a line is text.
    columns = "{{< columns >}}\nRelays MUST vent.\n<--->\nLids MAY rattle.\n{{< /columns >}}\n"
    assert_formatting(columns, "Relays MUST vent.\n\nLids MAY rattle.\n")
    assert_verdict(columns, columns.replace("MAY", "MUST"), "normative")
    hint = columns.replace("columns", "hint")
    assert parse(hint, name="page.md").blocks[0].text == "Relays MUST vent. <---> Lids MAY rattle."


def test_a_hugo_figure_caption_is_markdown() -> None:
    # Hugo renders its figure's caption as Markdown: emphasis shows no signs, a link is one.
    old = '{{< figure src="jar.png" caption="A **sealed** jar, see [lids](lids.md)" >}}\n'
    assert_formatting(old, old.replace("**sealed**", "*sealed*"))
    assert parse(old, name="page.md").blocks[0].text == "A sealed jar, see lids"
    assert_verdict(old, old.replace("lids.md", "caps.md"), "editorial")


def test_pymdown_keys_show_as_keys() -> None:
    # MkDocs Material shows `++ctrl+s++` as the keys Ctrl and S, as `<kbd>` shows them.
    old = "Relays MUST press ++ctrl+s++ to seal.\n"
    assert_formatting(old, "Relays MUST press <kbd>Ctrl</kbd>+<kbd>S</kbd> to seal.\n")
    assert parse(old, name="page.md").blocks[0].text == "Relays MUST press Ctrl+S to seal."
    assert_verdict(old, old.replace("MUST", "MAY"), "normative")
    # A language's name keeps its signs.
    assert parse("C++ and C++ differ.\n", name="page.md").blocks[0].text == "C++ and C++ differ."


@pytest.mark.parametrize("icon", [":warning:", "⚠️", "ℹ️"])
def test_an_icon_before_a_callout_label_is_the_callouts_icon(icon: str) -> None:
    # GitHub's callouts before its alerts drew their icon with an emoji; an alert draws its own.
    old = f"> {icon} **Warning**\n> Relays MUST vent the jar first.\n"
    assert_formatting(old, "> [!WARNING]\n> Relays MUST vent the jar first.\n")
    # Words before a bold word make a sentence.
    assert parse("Go **Note:** x\n", name="page.md").blocks[0].text == "Go Note: x"


def test_an_html_checkbox_is_a_task_lists_box() -> None:
    # GitHub renders `- [x]` as a ticked `<input type="checkbox">`: the same box, no word.
    old = "- [ ] Relays MUST vent.\n- [x] Lids MAY rattle.\n"
    new = (
        '<ul>\n<li><input type="checkbox" disabled> Relays MUST vent.</li>\n'
        '<li><input type="checkbox" checked disabled> Lids MAY rattle.</li>\n</ul>\n'
    )
    assert_formatting(old, new)
    assert_verdict(old, new.replace(" checked", ""), "editorial")


@pytest.mark.parametrize(
    ("old", "new", "verdict"),
    [
        # MDX's `{false}` leaves the box empty; React's `defaultChecked` ticks it.
        (
            '<ul><li><input type="checkbox" checked={true} /> Jars MUST cool.</li></ul>',
            '<ul><li><input type="checkbox" checked={false} /> Jars MUST cool.</li></ul>',
            "editorial",
        ),
        (
            "- [ ] Jars MUST cool.",
            '<ul><li><input type="checkbox" checked={false} /> Jars MUST cool.</li></ul>',
            "formatting",
        ),
        (
            "- [x] Jars MUST cool.",
            '<ul><li><input type="checkbox" defaultChecked /> Jars MUST cool.</li></ul>',
            "formatting",
        ),
    ],
)
def test_an_mdx_checkbox_is_ticked_as_its_value_says(old: str, new: str, verdict: str) -> None:
    assert diff_texts(f"# Jars\n\n{old}\n", f"# Jars\n\n{new}\n", "page.mdx").verdict == verdict


def test_a_tag_indented_below_a_pre_block_is_code() -> None:
    """A `<pre>` block ends on the line that closes it: the indented line below is code, whose
    keywords make no requirement, as CommonMark renders it."""
    old = "# Jars\n\n<pre>x</pre>\n    <b>Jars MUST cool.</b>\n"
    assert diff_texts(old, old.replace("MUST", "MAY"), "page.md").verdict == "editorial"
