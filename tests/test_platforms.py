"""Documentation platforms' structures (Mintlify, Docusaurus, MkDocs Material, Hugo themes,
GitHub): a page re-rendered by another platform keeps its words, so the change is formatting;
a keyword changed inside such a structure is normative, reported as plain sentences."""

from __future__ import annotations

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
