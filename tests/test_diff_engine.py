"""The semantic diff (`spectrack.diff`): formatting-only transforms, classes and kinds, pages, hunks.

The pages describe made-up household devices, written for these tests.
"""

from __future__ import annotations

import difflib
import itertools
from pathlib import Path

import pytest

from spectrack.diff import diff_documents, diff_paths, diff_texts
from spectrack.errors import InputError
from spectrack.markdown import parse
from spectrack.model import ChangeClass, ChangeKind, PageReport, PageStatus, Report
from tests.test_properties import explain, meaningful

Finding = tuple[str, str, tuple[str, ...], tuple[str, ...]]


def findings(page: PageReport) -> list[Finding]:
    """(class, kind, old keywords, new keywords) of every change that is not formatting."""
    return [
        (
            change.change_class.value,
            change.kind.value,
            change.old.keywords if change.old else (),
            change.new.keywords if change.new else (),
        )
        for change in page.changes
        if change.change_class is not ChangeClass.FORMATTING
    ]


def assert_formatting_only(old: str, new: str, path: str = "page.md") -> PageReport:
    page = diff_texts(old, new, path)
    assert page.verdict == "formatting", [
        (c.change_class.value, c.kind.value, c.old, c.new) for c in page.changes
    ]
    assert page.changes
    assert all(c.change_class is ChangeClass.FORMATTING for c in page.changes)
    return page


# --- Formatting-only transforms ------------------------------------------------------------

FORMATTING_TRANSFORMS = [
    pytest.param(
        "# Toaster\n\nThe toaster browns bread on both sides. The lever MUST pop up when the timer ends.\n",
        "# Toaster\n\nThe toaster browns bread\non both sides. The lever MUST\npop up when the timer ends.\n",
        id="re-wrapping",
    ),
    pytest.param(
        "# Toaster\n\nThe crumb tray slides out.\nEmpty it weekly.\n",
        "# Toaster\n\n   The crumb tray slides out.\n  Empty it weekly.\n",
        id="paragraph-indentation",
    ),
    pytest.param(
        "- Bread goes in the slot.\n\n  Bagels SHOULD go in cut side in.\n",
        "- Bread goes in the slot.\n\n    Bagels SHOULD go in cut side in.\n",
        id="list-continuation-indentation",
    ),
    pytest.param(
        "* Bread goes in the slot.\n* The lever goes down.\n",
        "- Bread goes in the slot.\n- The lever goes down.\n",
        id="bullets-star-to-dash",
    ),
    pytest.param(
        "+ Bread goes in the slot.\n+ The lever goes down.\n",
        "* Bread goes in the slot.\n* The lever goes down.\n",
        id="bullets-plus-to-star",
    ),
    pytest.param(
        "1. Bread goes in the slot.\n2. The lever goes down.\n",
        "1) Bread goes in the slot.\n2) The lever goes down.\n",
        id="ordered-list-delimiter",
    ),
    pytest.param(
        "Keep the toaster **away** from curtains.\n",
        "Keep the toaster __away__ from curtains.\n",
        id="strong-stars-to-underscores",
    ),
    pytest.param(
        "Keep the toaster *well away* from curtains.\n",
        "Keep the toaster _well away_ from curtains.\n",
        id="emphasis-star-to-underscore",
    ),
    pytest.param(
        "# Toaster\n\n## Cleaning\n\nUnplug it first.\n",
        "Toaster\n=======\n\nCleaning\n--------\n\nUnplug it first.\n",
        id="atx-to-setext-headings",
    ),
    pytest.param(
        "## Cleaning\n\nUnplug it first.\n",
        "## Cleaning ##\n\nUnplug it first.\n",
        id="atx-closing-hashes",
    ),
    pytest.param(
        "## Cleaning\n\nUnplug it first.\n\n### Descaling\n\nRinse twice.\n",
        "## Cleaning {#cleaning}\n\nUnplug it first.\n\n### Descaling { #descale .wide }\n\n"
        "Rinse twice.\n",
        id="heading-ids",
    ),
    pytest.param(
        "| Part | Rule |\n|---|---|\n| `lid` | MUST lock. |\n",
        "<table>\n<tr><th>Part</th><th>Rule</th></tr>\n"
        "<tr><td><code>lid</code></td><td>MUST lock.</td></tr>\n</table>\n",
        id="table-to-html-table",
    ),
    pytest.param(
        'The lid MUST lock (see <a href="https://kettle.example/lid">the lid</a>).\n',
        "The lid MUST lock (see [the lid](https://kettle.example/lid)).\n",
        id="html-link-to-markdown-link",
    ),
    pytest.param(
        '<Tabs>\n<Tab title="Electric">\nThe pump MUST be earthed.\n</Tab>\n</Tabs>\n',
        '=== "Electric"\n\n    The pump MUST be earthed.\n',
        id="mdx-tab-to-content-tab",
    ),
    pytest.param(
        '!!! tip "Handy hint"\n    The lever MUST pop up.\n\n??? warning "Why?"\n    It is hot.\n',
        '<div class="admonition tip">\n<p class="admonition-title">Handy hint</p>\n'
        "<p>The lever MUST pop up.</p>\n</div>\n"
        '<details class="warning">\n<summary>Why?</summary>\n<p>It is hot.</p>\n</details>\n',
        id="mkdocs-admonitions-to-their-html",
    ),
    pytest.param(
        "The lid MUST lock.[^1] It clicks.[^2]\n\n[^1]: Tested at 90 degrees.\n[^2]: Twice.\n",
        "The lid MUST lock.[^heat] It clicks.[^2]\n\n[^heat]: Tested at 90 degrees.\n"
        "[^2]: Twice.\n",
        id="footnote-label-renamed",
    ),
    pytest.param(
        "The hob MUST cool down.\n\n- Wipe the glass.\n",
        "The hob MUST cool down.\n{: #cooling .rule }\n\n- Wipe the glass.\n  { .step data-n=1 }\n",
        id="attribute-lists",
    ),
    pytest.param(
        '{{< tabs items="Gas,Electric" >}}\n{{< tab >}}\nThe hob MUST be vented.\n{{< /tab >}}\n'
        "{{< tab >}}\nThe hob MUST be earthed.\n{{< /tab >}}\n{{< /tabs >}}\n",
        '<Tabs>\n<Tab title="Gas">\nThe hob MUST be vented.\n</Tab>\n'
        '<Tab title="Electric">\nThe hob MUST be earthed.\n</Tab>\n</Tabs>\n',
        id="hugo-tabs-to-mdx-tabs",
    ),
    pytest.param(
        '---\ntitle: "Toaster"\nweight: 2\n---\n\nThe lever MUST pop up.\n',
        '+++\ntitle = "Toaster"\nweight = 3\ndescription = "It MUST pop up."\n+++\n\n'
        "The lever MUST pop up.\n",
        id="yaml-to-toml-front-matter",
    ),
    pytest.param(
        '+++\ntitle = "Toaster"\n+++\n\nThe lever MUST pop up.\n',
        "# Toaster\n\nThe lever MUST pop up.\n",
        id="toml-front-matter-title-to-h1",
    ),
    pytest.param(
        "A kettle MUST NOT hold more than 10<sup>3</sup> ml.\n",
        "A kettle MUST NOT hold more than 10^3 ml.\n",
        id="power-as-a-caret",
    ),
    pytest.param(
        "The lid MUST call `seal(jar, lid)` first.\n",
        "The lid MUST call `seal(jar,lid)` first.\n",
        id="space-after-a-comma-of-a-call",
    ),
    pytest.param(
        "The lid MUST lock before heating.\n",
        ":lock: The lid MUST lock before heating :+1:.\n",
        id="emoji-shortcodes",
    ),
    pytest.param(
        "The offset MUST be -1 when unknown.\n",
        "The offset MUST be \u22121 when unknown.\n",
        id="minus-sign-typeset",
    ),
    pytest.param(
        "| Part | Rule |\n|---|---|\n| lid | MUST lock |\n",
        "| Part | Rule | |\n|---|---|---|\n| lid | MUST lock | |\n",
        id="empty-column-added",
    ),
    pytest.param(
        "Read the [care guide](https://toaster.example/care) before cleaning.\n",
        "Read the [care guide][care] before cleaning.\n\n[care]: https://toaster.example/care\n",
        id="inline-to-reference-link",
    ),
    pytest.param(
        "Read the [care guide][] before cleaning.\n\n[care guide]: https://toaster.example/care\n",
        "Read the [care guide](https://toaster.example/care) before cleaning.\n",
        id="collapsed-reference-to-inline-link",
    ),
    pytest.param(
        "Toast pops up &mdash; always &mdash; when the timer ends.\n",
        "Toast pops up — always — when the timer ends.\n",
        id="mdash-entity-to-character",
    ),
    pytest.param(
        "Toast pops up &#8212; always.\n",
        "Toast pops up — always.\n",
        id="numeric-entity-to-character",
    ),
    pytest.param(
        "Set the dial to level&nbsp;4 for bagels.\n",
        "Set the dial to level 4 for bagels.\n",
        id="nbsp-entity-to-space",
    ),
    pytest.param(
        "Crumbs &amp; ash collect in the tray.\n",
        "Crumbs & ash collect in the tray.\n",
        id="amp-entity-to-character",
    ),
    pytest.param(
        "Press the \\*cancel\\* button \\(on the left\\).\n",
        "Press the &ast;cancel&ast; button (on the left).\n",
        id="backslash-escapes",
    ),
    pytest.param(
        "| Setting | Bread |\n|---|---|\n| 2 | white |\n| 5 | rye |\n",
        "| Setting | Bread |\n| ------- | ----- |\n| 2       | white |\n| 5       | rye   |\n",
        id="table-padding",
    ),
    pytest.param(
        "| Setting | Bread |\n|---|---|\n| 2 | white |\n",
        "Setting | Bread\n--- | ---\n2 | white\n",
        id="table-outer-pipes",
    ),
    pytest.param(
        "# Toaster\n\nUnplug it first.\nLet it cool.\n",
        "# Toaster   \n\nUnplug it first.\t\nLet it cool. \n",
        id="trailing-whitespace",
    ),
    pytest.param(
        "The lever MUST pop up when the timer ends.\n",
        "The\u200b lever MUST pop\u2060 up when the\ufeff timer ends.\u200c\n",
        id="zero-width-characters",
    ),
    pytest.param(
        "The caf\u00e9 toaster MUST stop at na\u00efve settings.\n",
        "The cafe\u0301 toaster MUST stop at nai\u0308ve settings.\n",
        id="accents-composed-to-combining",
    ),
    pytest.param(
        "!!! note\n    The lever MUST pop up when the timer ends.\n",
        "!!! note inline end\n    The lever MUST pop up when the timer ends.\n",
        id="mkdocs-admonition-classes",
    ),
    pytest.param(
        '```json\n{"level": 4}\n```\n',
        '```json theme={null}\n{"level": 4}\n```\n',
        id="code-fence-metadata",
    ),
    pytest.param(
        "```sh\ntoast --level 4\n```\n",
        '~~~sh title="Start"\ntoast --level 4\n~~~\n',
        id="code-fence-markers",
    ),
    pytest.param(
        "# Toaster\n\nUnplug it first.\n",
        '# Toaster\n\n<div id="enable-section-numbers" />\n\nUnplug it first.\n',
        id="div-added",
    ),
    pytest.param(
        '# Toaster\n\n<div id="x" />\n\nUnplug it first.\n',
        "# Toaster\n\nUnplug it first.\n",
        id="div-removed",
    ),
    pytest.param(
        "# Toaster\n\nUnplug it first.\n",
        "# Toaster\n\n<!-- reviewed in spring -->\n\nUnplug it first.\n",
        id="html-comment-added",
    ),
    pytest.param(
        "# Toaster\n\nUnplug it first.\n",
        "# Toaster\n\n{{/* Checked by the lab.\n\nThe plug MUST be earthed. */}}\n\n"
        "Unplug it {{/* always */}}first.\n",
        id="hugo-comments-added",
    ),
    pytest.param(
        "---\ntitle: Toaster\n---\n\nUnplug it first.\n",
        "# Toaster\n\nUnplug it first.\n",
        id="front-matter-title-to-h1",
    ),
    pytest.param(
        "---\ntitle: 'Toaster'\ndescription: Care and use.\n---\n\n# Toaster\n\nUnplug it first.\n",
        "# Toaster\n\nUnplug it first.\n",
        id="front-matter-and-repeated-h1-to-h1",
    ),
    pytest.param(
        "The lever MUST pop up. Crumbs SHOULD NOT pile up.\n",
        "The lever **MUST** pop up. Crumbs _SHOULD NOT_ pile up.\n",
        id="emphasis-added-around-keywords",
    ),
    pytest.param(
        "# Toaster\n\nUnplug it first.\n\nLet it cool.\n",
        "# Toaster\n\n\n\nUnplug it first.\n\n\nLet it cool.\n",
        id="blank-lines",
    ),
    pytest.param(
        "The lever MUST pop up.\n",
        "{/* wording agreed with the safety group */}\n\nThe lever MUST pop up.\n",
        id="mdx-comment-added",
    ),
    pytest.param(
        "import { Lever } from './lever.mdx'\n\nThe lever MUST pop up.\n\nIt clicks twice.\n",
        "import { Lever } from './lever.mdx'\n\n<>\nThe lever MUST pop up.\n\n"
        "It <>clicks</> twice.\n</>\n",
        id="mdx-fragments-added",
    ),
    pytest.param(
        "> **Note**\n> The lever MUST pop up.\n",
        "> [!NOTE]\n> The lever MUST pop up.\n",
        id="bold-label-quote-to-alert",
    ),
    pytest.param(
        "**Warning:** The lever MUST NOT stick.\n",
        "<Warning>\nThe lever MUST NOT stick.\n</Warning>\n",
        id="bold-label-to-component",
    ),
    pytest.param(
        "**Tip**: Crumbs MAY be shaken out.\n",
        ":::tip\nCrumbs MAY be shaken out.\n:::\n",
        id="bold-label-and-colon-to-container",
    ),
    pytest.param(
        "A jar MUST be washed, dried and sealed.\n",
        "A jar MUST be:\n\n- washed,\n- dried and\n- sealed.\n",
        id="requirement-laid-out-as-a-lead-in-and-a-list",
    ),
    pytest.param(
        "## 🚀 Lids\n\n🔒 Lids MUST click.\n",
        "## Lids\n\nLids MUST click.\n",
        id="pictures-dropped",
    ),
    pytest.param(
        "A limit MUST be ≥ 1, ≤ 9 and ≠ 7.\n",
        "A limit MUST be >= 1, <= 9 and != 7.\n",
        id="comparisons-typeset-or-typed",
    ),
    pytest.param(
        "Lids MUST dry.\n",
        "Lids MUST {/* *always*\nor _never_ */} dry {{/* *soon* */}}.\n",
        id="comments-holding-markup-inside-a-sentence",
    ),
    pytest.param(
        "See https://jars.example/care. Lids MUST fit.\n",
        "See <https://jars.example/care>. Lids MUST fit.\n",
        id="bare-url-or-autolink",
    ),
    pytest.param(
        "See www.jars.example for lids. Lids MUST fit.\n",
        "See [www.jars.example](http://www.jars.example) for lids. Lids MUST fit.\n",
        id="bare-www-url-or-link-written-out",
    ),
    pytest.param(
        "| Lid | Sealed |\n|---|---|\n| glass | :white_check_mark: |\n\n:warning: Lids MUST fit.\n",
        "| Lid | Sealed |\n|---|---|\n| glass | ✅ |\n\n⚠️ Lids MUST fit.\n",
        id="symbol-emoji-by-name-or-character",
    ),
    pytest.param(
        "Lids MUST fit [the jar](jar.md){ .md-button } and `seal`{.sh}.\n",
        "Lids MUST fit [the jar](jar.md) and `seal`.\n",
        id="attribute-list-after-a-link-or-code-span",
    ),
    pytest.param(
        "## Lids {: #lids }\n\nLids MUST fit.\n",
        "## Lids {#lids}\n\nLids MUST fit.\n",
        id="mkdocs-attribute-list-on-a-heading",
    ),
    pytest.param(
        "## Lids {.unnumbered}\n\nLids MUST fit.\n",
        "## Lids\n\nLids MUST fit.\n",
        id="pandoc-class-on-a-heading",
    ),
]


@pytest.mark.parametrize(("old", "new"), FORMATTING_TRANSFORMS)
def test_formatting_only_transform(old: str, new: str) -> None:
    assert_formatting_only(old, new)
    assert_formatting_only(new, old)


@pytest.mark.parametrize("incremental", [True, False])
def test_a_heading_id_is_no_part_of_a_section(incremental: bool) -> None:
    plain = "".join(f"Step {number} is plain.\n\n" for number in range(40))
    old = f"# Toaster\n\n## Cleaning {{#clean}}\n\n{plain}The lever MUST pop up.\n"
    new = old.replace("MUST pop up", "MUST NOT pop up")
    page = diff_texts(old, new, "toaster.md", incremental=incremental)
    assert [change.section for change in page.changes] == [("Toaster", "Cleaning")]


def test_identical_pages_are_unchanged() -> None:
    text = "# Toaster\n\nThe lever MUST pop up.\n"
    page = diff_texts(text, text, "toaster.md")
    assert page.verdict == "unchanged"
    assert page.status is PageStatus.UNCHANGED
    assert (page.changes, page.hunks, page.lines_added, page.lines_removed) == ((), (), 0, 0)


def test_line_ends_and_byte_order_mark_leave_a_page_unchanged(tmp_path: Path) -> None:
    (tmp_path / "old.md").write_bytes(b"# Toaster\n\nThe lever MUST pop up.\n")
    (tmp_path / "new.md").write_bytes(b"\xef\xbb\xbf# Toaster\r\n\r\nThe lever MUST pop up.\r\n")
    assert diff_paths(tmp_path / "old.md", tmp_path / "new.md").verdict == "unchanged"


def test_a_byte_order_mark_in_text_handed_in_hides_no_heading() -> None:
    old = "# Toaster\n\nThe lever MUST pop up.\n"
    assert diff_texts(old, "\ufeff" + old, "toaster.md").verdict == "unchanged"
    new = "\ufeff# Toaster\n\nThe lever MAY pop up.\n"
    assert [(c.section, c.kind) for c in diff_texts(old, new, "toaster.md").changes] == [
        (("Toaster",), ChangeKind.WEAKENED)
    ]


# --- Every admonition syntax against every other --------------------------------------------

BODY = ["Descale the kettle once a month.", "Owners SHOULD use the descaler that came with it."]


def _github(kind: str, bare_line: bool, case: str = "upper") -> str:
    marker = kind.upper() if case == "upper" else kind
    return f"> [!{marker}]\n" + (">\n" if bare_line else "") + "".join(f"> {s}\n" for s in BODY)


def admonition_forms(kind: str, mdx_names: list[str], other_names: list[str]) -> dict[str, str]:
    """Every syntax writing a callout of GitHub ``kind`` around the same two sentences."""
    body = "\n".join(BODY)
    indented = "\n".join("    " + s for s in BODY)
    forms = {f"mdx-{name}": f"<{name}>\n{body}\n</{name}>\n" for name in mdx_names}
    forms[f"mdx-{mdx_names[0]}-indented-blank-lines"] = (
        f"<{mdx_names[0]}>\n\n" + "\n".join("  " + s for s in BODY) + f"\n\n</{mdx_names[0]}>\n"
    )
    forms["github"] = _github(kind, bare_line=False)
    forms["github-bare-line"] = _github(kind, bare_line=True)
    forms["github-lowercase"] = _github(kind, bare_line=False, case="lower")
    for name in other_names:
        forms[f"docusaurus-{name}"] = f":::{name}\n\n{body}\n\n:::\n"
        forms[f"mkdocs-{name}"] = f"!!! {name}\n\n{indented}\n"
        forms[f"hugo-{name}"] = f'{{{{< callout type="{name}" >}}}}\n{body}\n{{{{< /callout >}}}}\n'
        # As MkDocs renders `!!! name` and `??? name` in HTML, with the default title.
        forms[f"mkdocs-html-{name}"] = (
            f'<div class="admonition {name}">\n<p class="admonition-title">{name.title()}</p>\n'
            f"<p>{body}</p>\n</div>\n"
        )
        forms[f"mkdocs-html-details-{name}"] = (
            f'<details class="{name}">\n<summary>{name.title()}</summary>\n<p>{body}</p>\n</details>\n'
        )
    return forms


ADMONITION_GROUPS = {
    "note": admonition_forms("note", ["Note", "Info"], ["note", "info"]),
    "tip": admonition_forms("tip", ["Tip", "Check"], ["tip"]),
    "warning": admonition_forms("warning", ["Warning"], ["warning"]),
    "caution": admonition_forms("caution", ["Danger"], ["danger", "caution"]),
    "important": {
        "mdx-Important": "<Important>\n" + "\n".join(BODY) + "\n</Important>\n",
        "github": _github("important", bare_line=False),
        "github-bare-line": _github("important", bare_line=True),
    },
}
PAGE_TOP = "# Kettle care\n\nLimescale builds up in hard water areas.\n\n"
PAGE_END = "\nA clean kettle boils faster.\n"


def _pairs() -> list[object]:
    params = []
    for kind, forms in ADMONITION_GROUPS.items():
        for (old_name, old), (new_name, new) in itertools.permutations(forms.items(), 2):
            params.append(pytest.param(kind, old, new, id=f"{kind}:{old_name}->{new_name}"))
    return params


@pytest.mark.parametrize("extension", [".md", ".mdx"])
@pytest.mark.parametrize(("kind", "old", "new"), _pairs())
def test_admonition_syntax_switch_is_formatting(
    kind: str, old: str, new: str, extension: str
) -> None:
    old_page, new_page = PAGE_TOP + old + PAGE_END, PAGE_TOP + new + PAGE_END
    assert_formatting_only(old_page, new_page, "care" + extension)
    for text in (old_page, new_page):
        document = parse(text, name="care" + extension)
        assert [a.kind for a in document.admonitions] == [kind]
        inside = {b.text: b.admonition for b in document.blocks}
        assert inside[" ".join(BODY)] == kind
        assert inside["A clean kettle boils faster."] is None


def test_changing_only_the_kind_of_a_callout_is_formatting() -> None:
    old = PAGE_TOP + "<Note>\n" + "\n".join(BODY) + "\n</Note>\n"
    new = PAGE_TOP + _github("warning", bare_line=True)
    assert_formatting_only(old, new)


def test_a_requirement_changed_inside_a_switched_callout_is_the_only_finding() -> None:
    old = PAGE_TOP + "<Warning>\n" + "\n".join(BODY) + "\n</Warning>\n" + PAGE_END
    new = PAGE_TOP + _github("warning", bare_line=True).replace("SHOULD", "MUST") + PAGE_END
    page = diff_texts(old, new, "care.md")
    assert findings(page) == [("normative", "strengthened", ("SHOULD",), ("MUST",))]
    (change,) = [c for c in page.changes if c.change_class is ChangeClass.NORMATIVE]
    assert change.section == ("Kettle care",)
    assert change.old is not None and change.new is not None
    assert (change.old.line, change.new.line) == (7, 8)
    assert change.new.text == "Owners MUST use the descaler that came with it."


# --- Classes and kinds -----------------------------------------------------------------------

TOP = "# Blender\n\n"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param(
            "The lid SHOULD lock.\n",
            "The lid MUST lock.\n",
            [("normative", "strengthened", ("SHOULD",), ("MUST",))],
            id="should-to-must",
        ),
        pytest.param(
            "Blades MAY be removable.\n",
            "Blades SHOULD be removable.\n",
            [("normative", "strengthened", ("MAY",), ("SHOULD",))],
            id="may-to-should",
        ),
        pytest.param(
            "Blades are OPTIONAL.\n",
            "Blades are REQUIRED.\n",
            [("normative", "strengthened", ("OPTIONAL",), ("REQUIRED",))],
            id="optional-to-required",
        ),
        pytest.param(
            "The jar SHOULD NOT be heated.\n",
            "The jar MUST NOT be heated.\n",
            [("normative", "strengthened", ("SHOULD NOT",), ("MUST NOT",))],
            id="should-not-to-must-not",
        ),
        pytest.param(
            "Heating the jar is NOT RECOMMENDED.\n",
            "Heating the jar SHALL NOT happen.\n",
            [("normative", "strengthened", ("NOT RECOMMENDED",), ("SHALL NOT",))],
            id="not-recommended-to-shall-not",
        ),
        pytest.param(
            "The lid MUST lock.\n",
            "The lid SHOULD lock.\n",
            [("normative", "weakened", ("MUST",), ("SHOULD",))],
            id="must-to-should",
        ),
        pytest.param(
            "The jar MUST NOT be heated.\n",
            "The jar SHOULD NOT be heated.\n",
            [("normative", "weakened", ("MUST NOT",), ("SHOULD NOT",))],
            id="must-not-to-should-not",
        ),
        pytest.param(
            "The lid MUST lock.\n",
            "The lid must lock.\n",
            [("normative", "weakened", ("MUST",), ())],
            id="uppercase-to-lowercase",
        ),
        pytest.param(
            "The lid MUST lock.\n",
            "The lid MUST NOT lock.\n",
            [("normative", "modified", ("MUST",), ("MUST NOT",))],
            id="polarity-flip",
        ),
        pytest.param(
            "The lid MUST lock within a second.\n",
            "The lid MUST lock within a minute.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="same-keyword-new-requirement",
        ),
        pytest.param(
            "The motor stops when the lid opens.\n",
            "The motor stops when the lid opens. The motor MUST NOT restart by itself.\n",
            [("normative", "added", (), ("MUST NOT",))],
            id="requirement-added",
        ),
        pytest.param(
            "The motor stops. It MAY beep.\n",
            "The motor stops.\n",
            [("normative", "removed", ("MAY",), ())],
            id="requirement-removed",
        ),
        pytest.param(
            "The lid SHALL lock.\n",
            "The lid MUST lock.\n",
            [("editorial", "modified", ("SHALL",), ("MUST",))],
            id="synonym-keyword",
        ),
        pytest.param(
            "If a toaster has a timer, it MUST stop a heating element after one minute.\n",
            "If the toaster has a timer, it MUST stop the heating element after one minute.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="articles-exchanged",
        ),
        pytest.param(
            "The lid MUST lock before pre-heating and on shut down.\n",
            "The lid MUST lock before preheating and on shutdown.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="words-joined",
        ),
        pytest.param(
            "The lid MUST lock before heating and on shut down.\n",
            "The lid MUST lock before preheating and on shutdown.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="words-joined-and-one-added",
        ),
        pytest.param(
            "The lid MUST open after 1.5 seconds.\n",
            "The lid MUST open after 15 seconds.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="digits-joined-are-another-number",
        ),
        pytest.param(
            'The lid MUST lock (see <a href="https://kettle.example/lid">the lid</a>).\n',
            "The lid MUST lock (see <a href='https://kettle.example/cap'>the lid</a>).\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="html-link-target",
        ),
        pytest.param(
            'The key words "MUST", "SHOULD" and "MAY" are to be read as RFC 2119 says.\n',
            'The key words "MUST", "SHOULD" and "MAY" are to be read as BCP 14 says, when in '
            "capitals.\n",
            [("editorial", "modified", (), ())],
            id="keywords-in-quotes-are-mentioned",
        ),
        pytest.param(
            "Kettles boil water.\n",
            "Kettles boil water. The key words MUST and MAY are to be interpreted as in BCP 14.\n",
            [("editorial", "added", (), ())],
            id="keyword-conventions-added",
        ),
        pytest.param(
            '=== "Electric"\n\n    The kettle MUST be earthed.\n',
            '=== "Electric"\n\n    The kettle SHOULD be earthed.\n',
            [("normative", "weakened", ("MUST",), ("SHOULD",))],
            id="requirement-in-a-content-tab",
        ),
        pytest.param(
            "A kettle MUST pass:\n\n- [ ] the boil test\n- [x] the drop test\n",
            "A kettle MUST pass:\n\n- [x] the boil test\n- [X] the drop test\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="task-ticked",
        ),
        pytest.param(
            "A kettle MUST NOT hold more than 10<sup>3</sup> ml.\n",
            "A kettle MUST NOT hold more than 103 ml.\n",
            [("normative", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="power-written-out-flat",
        ),
        pytest.param(
            "A kettle MUST heat n<sup>2</sup> cups at once.\n",
            "A kettle MUST heat n<sup>3</sup> cups at once.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="power-of-a-one-letter-variable-changed",
        ),
        pytest.param(
            "A kettle MUST switch off when dry.\n",
            "A kettle MUST switch off when dry.[^dry]\n\n[^dry]: Dry means under 50 ml.\n",
            [("editorial", "modified", ("MUST",), ("MUST",)), ("editorial", "added", (), ())],
            id="footnote-added-to-a-requirement",
        ),
        pytest.param(
            "A kettle MUST switch off when dry.[^1]\n\n[^1]: Dry means under 50 ml.\n",
            "A kettle MUST switch off when dry.[^1]\n\n[^1]: Dry means under 50 ml.\n"
            "    It SHOULD be measured by weight.\n",
            [("normative", "added", (), ("SHOULD",))],
            id="requirement-added-to-a-footnote",
        ),
        pytest.param(
            "A kettle MUST switch off when dry.[^1]\n\n[^1]: Dry means under 50 ml.\n\n"
            "[^2]: Hot means over 90 degrees.\n",
            "A kettle MUST switch off when dry.[^2]\n\n[^1]: Dry means under 50 ml.\n\n"
            "[^2]: Hot means over 90 degrees.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="footnote-mark-pointed-at-another-note",
        ),
        pytest.param(
            "A kettle MUST switch off when dry.[^1]\n\n[^1]: Dry means under 50 ml.\n",
            "A kettle MUST switch off when dry.[^dry]\n\n[^dry]: Dry means under 40 ml.\n",
            [("editorial", "modified", ("MUST",), ("MUST",)), ("editorial", "modified", (), ())],
            id="footnote-renamed-and-reworded",
        ),
        pytest.param(
            "A kettle MUST switch off when dry.\n",
            "A kettle MUST switch off when dry<sup>1</sup>.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="superscript-note-mark-added",
        ),
        pytest.param(
            "A kettle MUST switch off when dry.<sup>1</sup>\n",
            "A kettle<sup>[2](#dry-note)</sup> MUST switch off when dry.<sup>3</sup>\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="superscript-note-marks-changed",
        ),
        pytest.param(
            'The <Tooltip tip="The part that holds the water">jug</Tooltip> MUST be emptied.\n',
            'The <Tooltip tip="The glass part">jug</Tooltip> MUST be emptied.\n',
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="tooltip-changed",
        ),
        pytest.param(
            "The jug MUST be emptied.\n",
            'The <Tooltip tip="It MUST NOT be hot">jug</Tooltip> MUST be emptied.\n',
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="tooltip-with-a-keyword-added",
        ),
        pytest.param(
            'The <Tooltip tip="The glass part">jug</Tooltip> is rinsed.\n',
            'The <Tooltip tip="The glass part, which MUST be rinsed">jug</Tooltip> is rinsed.\n',
            [("editorial", "modified", (), ())],
            id="keyword-in-a-tooltip",
        ),
        pytest.param(
            "A kettle MUST NOT hold more than 1,500 ml.\n",
            "A kettle MUST NOT hold more than 1.500 ml.\n",
            [("normative", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="separator-in-a-number",
        ),
        pytest.param(
            "A kettle MUST NOT hold more than 1,500 ml or 2,000,000 drops.\n",
            "A kettle MUST NOT hold more than 1500 ml or 2000000 drops.\n",
            [("editorial", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="commas-between-thousands-dropped",
        ),
        pytest.param(
            "Lids MUST fit any jar (e.g. glass), i.e. every size.\n",
            "Lids MUST fit any jar (for example, glass), that is, every size.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="latin-abbreviations-spelled-out",
        ),
        pytest.param(
            "Servers MAY send JSON-RPC requests and JSON-RPC notifications first.\n",
            "Servers MAY send JSON-RPC requests and notifications first.\n",
            [("editorial", "modified", ("MAY",), ("MAY",))],
            id="qualifier-said-once-for-a-series",
        ),
        pytest.param(
            "Servers MAY send JSON requests and XML notifications first.\n",
            "Servers MAY send JSON requests and notifications first.\n",
            [("normative", "modified", ("MAY",), ("MAY",))],
            id="qualifier-of-one-item-dropped",
        ),
        pytest.param(
            "Messages that are not signed MUST be rejected and not forwarded.\n",
            "Messages that are not signed MUST be rejected and forwarded.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="negation-said-before-dropped-for-the-next-item",
        ),
        pytest.param(
            "A relay MUST answer 415 to a kettle it cannot read.\n",
            "A relay MUST answer 415 Unsupported Media Type to a kettle it cannot read.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="status-code-with-its-reason-phrase",
        ),
        pytest.param(
            "A relay MUST answer 415 to a kettle it cannot read.\n",
            "A relay MUST answer 415 Not Found to a kettle it cannot read.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="status-code-with-another-code-s-phrase",
        ),
        pytest.param(
            "Relays MUST retry within 30 seconds, 2 minutes at most, for 10% of calls.\n",
            "Relays MUST retry within 30 s, 2 min at most, for 10 percent of calls.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="units-as-symbols-or-names",
        ),
        pytest.param(
            "Relays MUST retry within 30 seconds.\n",
            "Relays MUST retry within 30 ms.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="unit-changed",
        ),
        pytest.param(
            "A kettle MUST NOT hold more than 1,50 ml.\n",
            "A kettle MUST NOT hold more than 150 ml.\n",
            [("normative", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="comma-that-parts-no-thousands-dropped",
        ),
        pytest.param(
            "The kettle holds 1,500 ml.\n",
            "The kettle holds 1.500 ml.\n",
            [("editorial", "modified", (), ())],
            id="separator-in-a-number-in-prose",
        ),
        pytest.param(
            "Kettles MUST NOT whistle.\n",
            "Kettles MUST, NOT whistle.\n",
            [("normative", "modified", ("MUST NOT",), ("MUST",))],
            id="keyword-parted-by-a-comma",
        ),
        pytest.param(
            "The lid MUST stay a part of the kettle.\n",
            "The lid MUST stay apart of the kettle.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="article-joined-to-a-word",
        ),
        pytest.param(
            "The lid MUST recieve the steam.\n",
            "The lid MUST receive the steam.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="misspelling-corrected",
        ),
        pytest.param(
            "The lid MUST accomodate a colour sensor.\n",
            "The lid MUST accommodate a color sensor.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="misspelling-and-british-spelling-corrected",
        ),
        pytest.param(
            "Lids MUST be labelled at the centre and SHOULD carry a licence.\n",
            "Lids MUST be labeled at the center and SHOULD carry a license.\n",
            [("editorial", "modified", ("MUST", "SHOULD"), ("MUST", "SHOULD"))],
            id="british-spellings-made-american",
        ),
        pytest.param(
            "Lids MUST be filled before the test.\n",
            "Lids MUST be filed before the test.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="doubled-letter-of-a-one-syllable-word-dropped",
        ),
        pytest.param(
            "A relay MUST list each hostname it serves.\n",
            "A relay MUST list each hostnames it serves.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="word-that-is-no-english-word-made-plural",
        ),
        pytest.param(
            "A relay MUST stop the proces and grant acces.\n",
            "A relay MUST stop the process and grant access.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="letter-doubled-at-a-word-end",
        ),
        pytest.param(
            "A frame MUST NOT exceed four mebibytes.\n",
            "A frame MUST NOT exceed four megabytes.\n",
            [("normative", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="word-that-is-no-english-word-given-other-letters",
        ),
        pytest.param(
            "The lid MUST lock wiht teh latch.\n",
            "The lid MUST lock with the latch.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="letters-swapped-in-short-words",
        ),
        pytest.param(
            "The lid MUST lock form the inside.\n",
            "The lid MUST lock from the inside.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="letters-swapped-into-another-word",
        ),
        pytest.param(
            "Kettles MUST reuse idle filters.\n",
            "Kettles MUST refuse idle filters.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="word-changed-into-another-close-one",
        ),
        pytest.param(
            "The kettle MUST check the content of a request and alert the sender.\n",
            "The kettle MUST check the context of a request and alert the senders.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="words-changed-into-others-close-ones",
        ),
        pytest.param(
            "Kettles MUST report synchronously.\n",
            "Kettles MUST report asynchronously.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="prefix-that-negates",
        ),
        pytest.param(
            "Kettles MUST list cups in ascending order.\n",
            "Kettles MUST list cups in descending order.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="beginning-that-reverses",
        ),
        pytest.param(
            "The offset MUST be -1 when unknown.\n",
            "The offset MUST be 1 when unknown.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="sign-of-a-number",
        ),
        pytest.param(
            "The `limit` MUST be >= 1.\n",
            "The `limit` MUST be <= 1.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="comparison-turned",
        ),
        pytest.param(
            "Replies are sent as application/json.\n",
            "Replies are sent as application+json.\n",
            [("editorial", "modified", (), ())],
            id="symbol-in-prose",
        ),
        pytest.param(
            "The timer (default: 30, most: 60) counts seconds.\n",
            "The timer (default: 60, most: 30) counts seconds.\n",
            [("editorial", "modified", (), ())],
            id="values-exchanged-between-names",
        ),
        pytest.param(
            "Relays MUST use a read timeout (30 s) and a write timeout (60 s).\n",
            "Relays MUST use a read timeout (60 s) and a write timeout (30 s).\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="values-exchanged-between-names-in-a-requirement",
        ),
        pytest.param(
            "Relays MUST accept (in this form) `id` (a string), `ttl` (seconds).\n",
            "Relays MUST accept (in this form) `ttl` (seconds), `id` (a string).\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="fields-reordered-in-a-requirement",
        ),
        pytest.param(
            "Lids MUST fit (glass jars) (steel jars).\n",
            "Lids MUST fit (steel jars) (glass jars).\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="pieces-between-brackets-reordered-in-a-requirement",
        ),
        pytest.param(
            "Jugs MUST be warmed to 40 and 60 degrees, respectively.\n",
            "Jugs MUST be warmed to 60 and 40 degrees, respectively.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="series-reordered-respectively",
        ),
        pytest.param(
            "Kettles **MUST** whistle.\n",
            "Kettles `MUST` whistle.\n",
            [("normative", "removed", ("MUST",), ())],
            id="keyword-into-code",
        ),
        pytest.param(
            "Kettles `MUST` whistle.\n",
            "Kettles **MUST** whistle.\n",
            [("normative", "added", (), ("MUST",))],
            id="keyword-out-of-code",
        ),
        pytest.param(
            "Lids MUST be dried before sealing. Jars MUST be warm.\n",
            "~~Lids MUST be dried before sealing.~~ Jars MUST be warm.\n",
            [("normative", "removed", ("MUST",), ())],
            id="requirement-struck-before-another",
        ),
        pytest.param(
            "Lids MUST be dried before sealing.\n\n<code>seal(lid)</code> MUST NOT fail.\n",
            "<del>Lids MUST be dried before sealing.</del>\n\n<code>seal(lid) MUST NOT fail.</code>\n",
            [("normative", "removed", ("MUST",), ()), ("normative", "removed", ("MUST NOT",), ())],
            id="requirements-struck-or-made-code-alone-on-their-lines",
        ),
        pytest.param(
            "**Note** that the lid MUST lock.\n",
            "**Note** how the lid MUST lock.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="bold-word-that-is-no-label",
        ),
        pytest.param(
            "The lid MUST lock before a cycle.\n",
            "The lid MUST lock before each cycle.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="article-replaced-by-a-word",
        ),
        pytest.param(
            "The motor is loud. The lid MUST lock.\n",
            "The motor is rather loud. The lid MUST lock.\n",
            [("editorial", "modified", (), ())],
            id="prose-next-to-a-requirement",
        ),
        pytest.param(
            "Blend for ten seconds.\n",
            "Blend for twenty seconds, then rest.\n",
            [("editorial", "modified", (), ())],
            id="prose",
        ),
        pytest.param(
            "Blend for ten seconds.\n",
            "Blend for ten seconds. Then rest.\n",
            [("editorial", "added", (), ())],
            id="prose-sentence-added",
        ),
        pytest.param(
            "```sh\nblend --speed 2\n```\n",
            "```sh\nblend --speed 3  # the lid MUST be on\n```\n",
            [("editorial", "modified", (), ())],
            id="code-with-a-keyword",
        ),
        pytest.param(
            "```mermaid\ngraph LR; Jar-->Lid\n```\n",
            "```mermaid\ngraph LR; Jar-->Motor\n```\n",
            [("editorial", "modified", (), ())],
            id="diagram",
        ),
        pytest.param(
            "See the [manual](https://blender.example/v1/manual).\n",
            "See the [manual](https://blender.example/v2/manual).\n",
            [("editorial", "modified", (), ())],
            id="link-target",
        ),
        pytest.param(
            "The jar turns the lid.\n",
            "The lid turns the jar.\n",
            [("editorial", "modified", (), ())],
            id="prose-subject-and-object-exchanged",
        ),
        pytest.param(
            "The motor drives the blade. The blade cuts fruit, and the fan cools it.\n",
            "The motor drives the fan. The blade cuts fruit, and the blade cools it.\n",
            [("editorial", "modified", (), ()), ("editorial", "modified", (), ())],
            id="prose-words-swapped-between-sentences",
        ),
        pytest.param(
            "See the [manual](https://blender.example/v1/parts/manual).\n",
            "See the [manual](https://blender.example/parts/v1/manual).\n",
            [("editorial", "modified", (), ())],
            id="link-target-segments-reordered",
        ),
        pytest.param(
            "| Part | Made of |\n| --- | --- |\n| lid | glass |\n| base | steel |\n",
            "| Part | Made of |\n| --- | --- |\n| lid | steel |\n| base | glass |\n",
            [
                ("editorial", "added", (), ()),
                ("editorial", "removed", (), ()),
                ("editorial", "removed", (), ()),
                ("editorial", "added", (), ()),
            ],
            id="table-cells-swapped-between-rows",
        ),
        pytest.param(
            "| Part | Client | Server |\n| --- | --- | --- |\n| lid | glass | steel |\n",
            "| Part | Server | Client |\n| --- | --- | --- |\n| lid | glass | steel |\n",
            [("editorial", "modified", (), ())],
            id="table-header-cells-exchanged",
        ),
        pytest.param(
            "| Part | Rule |\n|---|---|\n| lid | MAY lock |\n",
            "| Part | Rule |\n|---|---|\n| lid | MUST lock |\n",
            [("normative", "strengthened", ("MAY",), ("MUST",))],
            id="table-row",
        ),
        pytest.param(
            "- The jar MAY be glass.\n- The base is heavy.\n",
            "- The jar SHOULD be glass.\n- The base is heavy.\n",
            [("normative", "strengthened", ("MAY",), ("SHOULD",))],
            id="list-item",
        ),
        pytest.param(
            "The jar MUST be washed. The lid MAY be rinsed.\n",
            "The jar MAY be washed. The lid MUST be rinsed.\n",
            [
                ("normative", "weakened", ("MUST",), ("MAY",)),
                ("normative", "strengthened", ("MAY",), ("MUST",)),
            ],
            id="keywords-swapped-between-sentences",
        ),
        pytest.param(
            "The jar MUST be locked to the base.\n",
            "The base MUST be locked to the jar.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="subject-and-object-exchanged",
        ),
        pytest.param(
            "The motor MUST NOT start. The fan MUST spin.\n",
            "The motor MUST start. The fan MUST NOT spin.\n",
            [
                ("normative", "modified", ("MUST NOT",), ("MUST",)),
                ("normative", "modified", ("MUST",), ("MUST NOT",)),
            ],
            id="negation-moved-to-the-other-sentence",
        ),
        pytest.param(
            "| Part | Washing |\n| --- | --- |\n| lid | MUST |\n| cup | MAY |\n| base | SHOULD |\n",
            "| Part | Washing |\n| --- | --- |\n| lid | MAY |\n| cup | MUST |\n| base | SHOULD |\n",
            [
                ("normative", "weakened", ("MUST",), ("MAY",)),
                ("normative", "strengthened", ("MAY",), ("MUST",)),
            ],
            id="table-rows-exchanged-keywords",
        ),
        pytest.param(
            "- lid: SHOULD\n- cup: MAY\n- jug: MUST NOT\n",
            "- lid: MUST\n- cup: SHOULD\n- jug: SHOULD NOT\n",
            [
                ("normative", "strengthened", ("SHOULD",), ("MUST",)),
                ("normative", "strengthened", ("MAY",), ("SHOULD",)),
                ("normative", "weakened", ("MUST NOT",), ("SHOULD NOT",)),
            ],
            id="short-items-each-changed-keyword",
        ),
        pytest.param(
            "The lid MUST send `lidState` when it opens.\n",
            "The lid MUST send `lidSTATE` when it opens.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="identifier-case-in-code-span",
        ),
        pytest.param(
            "The lid MUST send `lidStaet` when it opens.\n",
            "The lid MUST send `lidState` when it opens.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="identifier-misspelling-in-code-span-corrected",
        ),
        pytest.param(
            "The lid MUST report:\n\n- `openedAt`\n- `closedAt`\n",
            "The lid MUST report:\n\n- `openedAT`\n- `closedAt`\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="identifier-case-in-item-of-a-requirement",
        ),
        pytest.param(
            "The lid MUST return `state`.\n",
            "The lid MUST return `state?`.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="sign-added-at-the-end-of-a-code-span",
        ),
        pytest.param(
            "The lid MUST call `seal(jar, lid)` first.\n",
            "The lid MUST call `seal(lid, jar)` first.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="arguments-of-a-call-exchanged",
        ),
        pytest.param(
            "A jar's label MUST read `[size, color]`.\n",
            "A jar's label MUST read `[color, size]`.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="items-of-a-list-in-code-exchanged",
        ),
        pytest.param(
            "Parts of a jar's label are parted by `;` here.\n",
            "Parts of a jar's label are parted by `,` here.\n",
            [("editorial", "modified", (), ())],
            id="sign-alone-in-a-code-span-of-prose",
        ),
        pytest.param(
            "| Part | Rule |\n| --- | --- |\n| label | A jar MUST use `\\|` between parts. |\n",
            "| Part | Rule |\n| --- | --- |\n| label | A jar MUST use `;` between parts. |\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="escaped-pipe-in-a-code-span-of-a-cell",
        ),
        pytest.param(
            "The lid MUST send the `{state}` of the jar.\n",
            "The lid MUST send the State of the jar.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="code-span-made-prose-in-other-case",
        ),
        pytest.param(
            "The lid MUST send the `State` field.\n",
            "The lid MUST send a `State` field.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="article-beside-a-code-span",
        ),
        pytest.param(
            "```ts\nlid?: string;\n```\n",
            "```ts\nlid: string;\n```\n",
            [("editorial", "modified", (), ())],
            id="code-block-sign-changed",
        ),
        pytest.param(
            "<pre>\nthe relay MUST wait 40 ms\n</pre>\n",
            "<pre>\nthe relay SHOULD wait 40 ms\n</pre>\n",
            [("editorial", "added", (), ()), ("editorial", "removed", (), ())],
            id="keyword-changed-in-an-html-pre-block",
        ),
        pytest.param(
            "Relays MUST send the `Jar-Session-Id` header.\n",
            "Relays MUST send the `JAR-Session-ID` header.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="http-header-name-in-other-case",
        ),
        pytest.param(
            "Relays MUST send the `x-jar-size` key.\n",
            "Relays MUST send the `X-Jar-Size` key.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="key-in-another-style-made-a-header-name",
        ),
        pytest.param(
            "Relays MUST send `jarId`.\n",
            "Relays MUST send `jarID`.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="identifier-in-other-case",
        ),
        pytest.param(
            "A jar MUST call `lid:open` first.\n",
            "A jar MUST call `lid.open` first.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="code-span-punctuation-in-requirement",
        ),
        pytest.param(
            "A jar MUST seal; it SHOULD click.\n",
            "A jar MUST seal. It SHOULD click.\n",
            [("editorial", "modified", ("MUST", "SHOULD"), ("MUST", "SHOULD"))],
            id="requirements-split-with-a-capital",
        ),
        pytest.param(
            "A jar MUST seal. It SHOULD click.\n",
            "A jar MUST seal; it SHOULD click.\n",
            [("editorial", "modified", ("MUST", "SHOULD"), ("MUST", "SHOULD"))],
            id="requirements-joined-without-a-capital",
        ),
        pytest.param(
            "A jar MUST be one of glass, steel, clay, stone.\n",
            "A jar MUST be one of glass, clay, steel, stone.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="series-reordered-in-a-requirement",
        ),
        pytest.param(
            "If the jar is full, the lid MUST lock.\n",
            "The lid MUST lock, if the jar is full.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="condition-put-after-a-requirement",
        ),
        pytest.param(
            "A jar MUST be washed first, then dried.\n",
            "A jar MUST be dried first, then washed.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="steps-exchanged-in-a-requirement",
        ),
        pytest.param(
            "A jar MUST be glass, steel or clay.\n",
            "A jar MUST be steel, glass or clay.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="first-item-of-a-series-moved-in-a-requirement",
        ),
        pytest.param(
            "A jar MUST be tried in order: glass, steel, clay.\n",
            "A jar MUST be tried in order: steel, glass, clay.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="series-in-order-reordered-in-a-requirement",
        ),
        pytest.param(
            "A lid MUST click no more than one hundred twenty times.\n",
            "A lid MUST click no more than 120 times.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="number-of-several-words-made-digits",
        ),
        pytest.param(
            "A lid MUST click no more than one hundred times.\n",
            "A lid MUST click no more than 1000 times.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="number-of-several-words-made-another-number",
        ),
        pytest.param(
            "A lid MUST click twice on the 1st turn.\n",
            "A lid MUST click 2 times on the first turn.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="ordinal-and-repetition-spelled-out",
        ),
        pytest.param(
            "A lid MUST click three times.\n",
            "A lid MUST click 3 times.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="number-in-words-made-digits",
        ),
        pytest.param(
            "A lid MUST click three times.\n",
            "A lid MUST click 4 times.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="number-in-words-made-another-number",
        ),
        pytest.param(
            "A lid SHOULD click, and lids MUST seal.\n",
            "A lid is RECOMMENDED to click, and lids are REQUIRED to seal.\n",
            [("editorial", "modified", ("SHOULD", "MUST"), ("RECOMMENDED", "REQUIRED"))],
            id="verb-keywords-written-as-adjectives",
        ),
        pytest.param(
            "A lid SHOULD NOT click.\n",
            "A lid is NOT RECOMMENDED to click.\n",
            [("editorial", "modified", ("SHOULD NOT",), ("NOT RECOMMENDED",))],
            id="negative-verb-keyword-written-as-an-adjective",
        ),
        pytest.param(
            "A lid SHOULD click.\n",
            "A lid is RECOMMENDED to turn.\n",
            [("normative", "modified", ("SHOULD",), ("RECOMMENDED",))],
            id="verb-keyword-written-as-an-adjective-with-another-verb",
        ),
        pytest.param(
            "Lids MUST click. A jar SHOULD NOT leak.\n",
            "It is REQUIRED that lids click. It is NOT RECOMMENDED that a jar leak.\n",
            [
                ("editorial", "modified", ("MUST",), ("REQUIRED",)),
                ("editorial", "modified", ("SHOULD NOT",), ("NOT RECOMMENDED",)),
            ],
            id="verb-keywords-written-in-impersonal-phrases",
        ),
        pytest.param(
            "Lids MAY click, above all if jars are required to seal.\n",
            "Lids MAY click, above all if jars need to seal.\n",
            [("editorial", "modified", ("MAY",), ("MAY",))],
            id="plain-obligation-said-otherwise-beside-a-keyword",
        ),
        pytest.param(
            "Lids MUST seal jars that need to be stored, when they are able to.\n",
            "Lids MUST seal jars that must be stored, when they can.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="plain-obligation-and-ability-in-other-words",
        ),
        pytest.param(
            "Lids MUST seal jars that need to be stored.\n",
            "Lids MUST seal jars that may be stored.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="plain-obligation-made-a-choice",
        ),
        pytest.param(
            "Lids MUST seal as laid out in the guide. Jars MUST cool as defined in the guide.\n",
            "Lids MUST seal as outlined in the guide. Jars MUST cool according to the guide.\n",
            [
                ("editorial", "modified", ("MUST",), ("MUST",)),
                ("editorial", "modified", ("MUST",), ("MUST",)),
            ],
            id="reference-pointed-at-in-other-words",
        ),
        pytest.param(
            "Lids MUST seal as laid out in the guide.\n",
            "Lids MUST seal as laid out by the guide.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="reference-made-an-agent",
        ),
        pytest.param(
            'Lids MUST start "open", for clarity. Jars MUST cool for backwards compatibility.\n',
            'Lids MUST start "open". Jars MUST cool.\n',
            [
                ("editorial", "modified", ("MUST",), ("MUST",)),
                ("editorial", "modified", ("MUST",), ("MUST",)),
            ],
            id="reason-that-asks-nothing-dropped",
        ),
        pytest.param(
            "Lids MUST click.\n",
            "Lids MUST click for the sake of clarity.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="short-requirement-given-a-reason",
        ),
        pytest.param(
            "Keys MUST NOT be used for security purposes.\n",
            "Keys MUST NOT be used.\n",
            [("normative", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="what-something-is-used-for-dropped",
        ),
        pytest.param(
            "Lids MUST click.\n",
            "Lids MUST click when the jar is full and cold.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="short-requirement-given-a-condition",
        ),
        pytest.param(
            "The packer MAY also rinse the jar. Jars MUST cool.\n",
            "The packer MAY rinse the jar. Additionally, jars MUST cool.\n",
            [
                ("editorial", "modified", ("MAY",), ("MAY",)),
                ("editorial", "modified", ("MUST",), ("MUST",)),
            ],
            id="connectives-said-or-not",
        ),
        pytest.param(
            "Lids may crack. Relays MUST wait an hour.\n",
            "Lids may crack. To prevent this, relays MUST wait an hour.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="opening-purpose-that-points-back",
        ),
        pytest.param(
            "Relays MUST wait an hour.\n",
            "To cool lids, relays MUST wait an hour.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="opening-purpose-of-its-own",
        ),
        pytest.param(
            "The packer MAY also rinse the jar.\n",
            "The packer MAY only rinse the jar.\n",
            [("normative", "modified", ("MAY",), ("MAY",))],
            id="connective-made-a-restriction",
        ),
        pytest.param(
            "- **lid** - OPTIONAL. The lid of the jar.\n",
            "- **lids** - OPTIONAL. The lids of the jar.\n",
            [
                ("normative", "modified", ("OPTIONAL",), ("OPTIONAL",)),
                ("editorial", "modified", (), ()),
            ],
            id="short-requirement-naming-its-field-in-the-plural",
        ),
        pytest.param(
            "- Jars MUST be round.\n- A jar MUST NOT have been filled this season.\n"
            "- Jars MUST be dry.\n",
            "- Jars MUST be round.\n- A jar MUST NOT match another jar still waiting for a lid.\n"
            "- Jars MUST be dry.\n",
            [("normative", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="list-item-rewritten-in-place",
        ),
        pytest.param(
            "- Jars MUST be round.\n- A jar MUST NOT have been filled this season.\n"
            "- Jars MUST be dry.\n",
            "- Jars MUST be round.\n- Relays MUST NOT wake before noon.\n- Jars MUST be dry.\n",
            [
                ("normative", "added", (), ("MUST NOT",)),
                ("normative", "removed", ("MUST NOT",), ()),
            ],
            id="list-item-replaced-by-another-requirement",
        ),
        pytest.param(
            "- Jars MUST be round.\n- A jar MUST NOT have been filled this season.\n"
            "- Jars MUST be dry.\n\nLids are blue.\n\nLids are red.\n",
            "- Jars MUST be round.\n- A jar MUST NOT match another jar still waiting for a lid.\n"
            "- Jars MUST be dry.\n\nLids are blue.\n\n"
            "A jar MUST NOT have been filled this season.\n\nLids are red.\n",
            [("normative", "added", (), ("MUST NOT",))],
            id="list-item-moved-away-and-another-put-in-its-place",
        ),
        pytest.param(
            "Relays MUST list the lids they have to offer.\n",
            "Relays MUST list the lids they need to offer.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="what-one-has-made-an-obligation",
        ),
        pytest.param(
            "Clients MAY label jars however they choose.\n",
            "Clients MAY label jars they choose.\n",
            [("normative", "modified", ("MAY",), ("MAY",))],
            id="however-that-says-how",
        ),
        pytest.param(
            "The old lid MUST NOT be used for backwards compatibility.\n",
            "The old lid MUST NOT be used.\n",
            [("normative", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="what-a-prohibition-is-about-dropped",
        ),
        pytest.param(
            "Relays MUST check each jar for consistency.\n",
            "Relays MUST check each jar.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="what-a-check-looks-for-dropped",
        ),
        pytest.param(
            "Keys MUST NOT be logged, for security reasons.\n",
            "Keys MUST NOT be logged.\n",
            [("editorial", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="reason-set-off-by-a-comma-dropped",
        ),
        pytest.param(
            "Lids MUST be sealed with `RSA-OAEP`.\n",
            "Lids MUST be sealed with `Rsa-Oaep`.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="name-like-a-header-outside-a-header-in-other-case",
        ),
        pytest.param(
            "Lids MUST click.\n\nJars are blue.\n\nBoxes are red.\n",
            "Lids MUST click when the jar is full.\n\nJars are blue.\n\nBoxes are red.\n\n"
            "Lids MUST click.\n",
            [("normative", "added", (), ("MUST",))],
            id="requirement-moved-and-a-longer-one-in-its-place",
        ),
        pytest.param(
            "Packers MUST:\n\n- A jar MUST NOT have been filled.\n- Lids MUST be dry.\n",
            "Packers MUST:\n\n- Lids MUST NOT be cracked or bent.\n- Lids MUST be dry.\n",
            [
                ("normative", "added", (), ("MUST", "MUST NOT")),
                ("normative", "removed", ("MUST", "MUST NOT"), ()),
            ],
            id="item-of-a-lead-in-replaced-by-another-subjects",
        ),
        pytest.param(
            "Jars are glass.\n\nPackers MAY use one, some or all lids from the shelf.\n",
            "Jars are glass.\n\nWhen no size is given, packers SHOULD take all lids from the "
            "shelf. This suits packers that cannot tell sizes apart.\n",
            [("normative", "strengthened", ("MAY",), ("SHOULD",)), ("editorial", "added", (), ())],
            id="only-requirement-of-a-paragraph-rewritten-with-another-keyword",
        ),
        pytest.param(
            "It is RECOMMENDED that lids click.\n",
            "Lids SHOULD click.\n",
            [("editorial", "modified", ("RECOMMENDED",), ("SHOULD",))],
            id="impersonal-phrase-written-as-a-verb-keyword",
        ),
        pytest.param(
            "A lid SHOULD click once.\n",
            "It is RECOMMENDED that a lid clicks once.\n",
            [("editorial", "modified", ("SHOULD",), ("RECOMMENDED",))],
            id="impersonal-phrase-with-its-verb-inflected",
        ),
        pytest.param(
            "Relays SHOULD retry once. Lids MAY be tinted.\n",
            "It is RECOMMENDED for relays to retry once. It is OPTIONAL for lids to be tinted.\n",
            [
                ("editorial", "modified", ("SHOULD",), ("RECOMMENDED",)),
                ("editorial", "modified", ("MAY",), ("OPTIONAL",)),
            ],
            id="impersonal-phrase-with-for-and-to",
        ),
        pytest.param(
            "Relays SHOULD retry once the jar is sealed and cooled.\n",
            "It is RECOMMENDED for relays to retry once the jar is sealed and dried.\n",
            [("normative", "modified", ("SHOULD",), ("RECOMMENDED",))],
            id="impersonal-phrase-with-for-and-other-words",
        ),
        pytest.param(
            "Lids SHOULD NOT click while the jar is being filled.\n",
            "It is RECOMMENDED that lids not click while the jar is filled twice.\n",
            [("normative", "modified", ("SHOULD NOT",), ("RECOMMENDED",))],
            id="impersonal-phrase-with-other-words",
        ),
        pytest.param(
            "Lids SHOULD click once the jar is sealed and cooled.\n",
            "It is RECOMMENDED that jars click once the jar is sealed and cooled.\n",
            [("normative", "modified", ("SHOULD",), ("RECOMMENDED",))],
            id="impersonal-phrase-with-another-subject",
        ),
        pytest.param(
            "| Jar | Lid |\n|---|---|\n| glass | ✓ |\n| clay | ✓ |\n",
            "| Jar | Lid |\n|---|---|\n| glass | ✓ |\n| clay | ✗ |\n",
            [("editorial", "modified", (), ())],
            id="tick-turned-to-a-cross-in-a-table",
        ),
        pytest.param(
            "| Jar | Lid |\n|---|---|\n| glass | 🟢 MUST |\n",
            "| Jar | Lid |\n|---|---|\n| glass | 🔴 MUST |\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="coloured-circle-changed-in-a-requirement",
        ),
        pytest.param(
            "Jars MUST be sealed and SHOULD be labelled.\n",
            "Jars MUST be sealed. They SHOULD be labelled.\n",
            [("editorial", "modified", ("MUST", "SHOULD"), ("MUST", "SHOULD"))],
            id="requirements-split-at-and-with-a-pronoun",
        ),
        pytest.param(
            "Relays wake every hour. They MUST retry twice.\n",
            "Relays wake every hour. Relays MUST retry twice.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="pronoun-replaced-by-the-noun-it-stands-for",
        ),
        pytest.param(
            "Relays wake every hour. They MUST retry twice.\n",
            "Relays wake every hour. Controllers MUST retry twice.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="pronoun-replaced-by-another-noun",
        ),
        pytest.param(
            "Servers listen. The client calls. It MUST send a nonce.\n",
            "Servers listen. The client calls. Servers MUST send a nonce.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="pronoun-replaced-by-a-noun-the-sentence-before-does-not-name",
        ),
        pytest.param(
            "Each relay wakes hourly. They MUST retry twice.\n",
            "Each relay wakes hourly. Relays MUST retry twice.\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="pronoun-replaced-by-the-plural-of-the-subject-before",
        ),
        pytest.param(
            "## Relays\n\nThey MUST retry. Clients call servers. They MUST retry.\n",
            "## Relays\n\nThey MUST retry. Clients call servers. Relays MUST retry.\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="pronoun-of-a-repeated-sentence-replaced",
        ),
        pytest.param(
            "A jar MUST be washed, dried and sealed.\n",
            "A jar MUST be:\n\n- washed\n- dried\n- sealed\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="requirement-listed-without-its-and",
        ),
        pytest.param(
            "A jar MUST be washed, dried and sealed.\n",
            "A jar MUST be:\n\n- sealed\n- washed and\n- dried\n",
            [("editorial", "modified", ("MUST",), ("MUST",))],
            id="requirement-listed-in-another-order",
        ),
        pytest.param(
            "A jar MUST be washed, dried and sealed.\n",
            "A jar MUST be:\n\n1. sealed\n2. washed\n3. dried\n",
            [
                ("normative", "modified", ("MUST",), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
            ],
            id="requirement-numbered-in-another-order",
        ),
        pytest.param(
            "A jar MUST be washed, then sealed.\n",
            "A jar MUST be:\n\n- sealed\n- washed, then\n",
            [
                ("normative", "modified", ("MUST",), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
            ],
            id="steps-listed-in-another-order",
        ),
        pytest.param(
            "A jar MUST be washed, dried and sealed in this order.\n",
            "A jar MUST be, in this order:\n\n- sealed\n- washed\n- dried\n",
            [
                ("normative", "modified", ("MUST",), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
            ],
            id="ordered-requirement-listed-in-another-order",
        ),
        pytest.param(
            "A jar MUST be washed, dried and sealed.\n",
            "A jar MUST be:\n\n- sealed\n- washed\n- chilled\n",
            [
                ("normative", "modified", ("MUST",), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
            ],
            id="requirement-listed-in-another-order-with-an-item-changed",
        ),
        pytest.param(
            "A jar MUST NOT be chipped, cracked or stained.\n",
            "A jar MUST NOT be:\n\n- chipped\n- cracked\n- stained\n",
            [("editorial", "modified", ("MUST NOT",), ("MUST NOT",))],
            id="prohibition-listed-without-its-or",
        ),
        pytest.param(
            "A jar MUST be washed, dried or sealed.\n",
            "A jar MUST be:\n\n- washed\n- dried\n- sealed\n",
            [
                ("normative", "modified", ("MUST",), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
            ],
            id="alternatives-listed-without-their-or",
        ),
        pytest.param(
            "Jars MUST be sealed. Jars MUST be labelled.\n",
            "Jars MUST be sealed and MUST be labelled.\n",
            [("editorial", "modified", ("MUST", "MUST"), ("MUST", "MUST"))],
            id="requirements-of-one-subject-joined-at-and",
        ),
        pytest.param(
            "Jars MUST be sealed and MUST be labelled.\n",
            "Jars MUST be sealed. Lids MUST be labelled.\n",
            [
                ("normative", "removed", ("MUST", "MUST"), ("MUST",)),
                ("normative", "added", (), ("MUST",)),
            ],
            id="requirements-split-at-and-with-another-subject",
        ),
        pytest.param(
            "| Jar | Lid |\n|---|---|\n| glass | ✓ MUST |\n",
            "| Jar | Lid |\n|---|---|\n| glass | ❌ MUST |\n",
            [("normative", "modified", ("MUST",), ("MUST",))],
            id="tick-turned-to-a-cross-in-a-requirement",
        ),
        pytest.param(
            '<ParamField query="lids" type="string">The lids to fit.</ParamField>\n',
            '<ParamField query="lids" type="string[]">The lids to fit.</ParamField>\n',
            [("editorial", "modified", (), ())],
            id="field-type-made-an-array",
        ),
        pytest.param(
            '<Tabs>\n<Tab title="Glass">\nJars MUST be rinsed.\n</Tab>\n'
            '<Tab title="Steel">\nJars MAY be rinsed.\n</Tab>\n</Tabs>\n',
            '<Tabs>\n<Tab title="Glass">\nJars MAY be rinsed.\n</Tab>\n'
            '<Tab title="Steel">\nJars MUST be rinsed.\n</Tab>\n</Tabs>\n',
            [
                ("normative", "weakened", ("MUST",), ("MAY",)),
                ("normative", "strengthened", ("MAY",), ("MUST",)),
            ],
            id="tabs-exchanged-keywords",
        ),
        pytest.param(
            '<ResponseField name="lid" type="string">\nIt MUST be sent.\n</ResponseField>\n'
            '<ResponseField name="cup" type="string">\nIt MAY be sent.\n</ResponseField>\n',
            '<ResponseField name="lid" type="string">\nIt MAY be sent.\n</ResponseField>\n'
            '<ResponseField name="cup" type="string">\nIt MUST be sent.\n</ResponseField>\n',
            [
                ("normative", "weakened", ("MUST",), ("MAY",)),
                ("normative", "strengthened", ("MAY",), ("MUST",)),
            ],
            id="fields-exchanged-keywords",
        ),
        pytest.param(
            "Jars SHOULD.\n",
            "Jars MUST.\n",
            [("normative", "strengthened", ("SHOULD",), ("MUST",))],
            id="short-sentence-strengthened",
        ),
        pytest.param(
            "| Part | Washing |\n| --- | --- |\n| lid | RECOMMENDED |\n",
            "| Part | Washing |\n| --- | --- |\n| lid | REQUIRED |\n",
            [("normative", "strengthened", ("RECOMMENDED",), ("REQUIRED",))],
            id="table-cell-strengthened",
        ),
        pytest.param(
            "The lid MUST lock.\n",
            "Fans MAY spin.\n",
            [
                ("normative", "added", (), ("MAY",)),
                ("normative", "removed", ("MUST",), ()),
            ],
            id="another-requirement-in-its-place",
        ),
    ],
)
def test_change_class_and_kind(old: str, new: str, expected: list[Finding]) -> None:
    page = diff_texts(TOP + old, TOP + new, "blender.md")
    assert findings(page) == expected
    assert page.verdict == expected[0][0]


def test_items_below_an_added_lead_in_are_compared_by_their_own_keywords() -> None:
    """The lead-in's addition is its own change: an item only reworded is no requirement added."""
    old = "- seal jars\n- fill lids\n"
    new = "Packers MUST:\n\n- seal the jars\n- fill lids\n"
    page = diff_texts(TOP + old, TOP + new, "jars.md")
    assert sorted(findings(page)) == [
        ("editorial", "modified", (), ("MUST",)),
        ("normative", "added", (), ("MUST",)),
    ]


def test_items_below_a_dropped_lead_in_are_compared_by_their_own_keywords() -> None:
    """The lead-in's removal is its own change: an item that kept its own keyword and words is
    no requirement removed."""
    old = "Rules MUST be kept:\n\n- Packers MUST seal jars\n- Packers SHOULD label jars\n"
    new = "- Packers MUST seal the jars.\n- Packers SHOULD label jars twice.\n"
    page = diff_texts(TOP + old, TOP + new, "jars.md")
    assert sorted(findings(page)) == [
        ("editorial", "modified", ("MUST", "MUST"), ("MUST",)),
        ("normative", "modified", ("MUST", "SHOULD"), ("SHOULD",)),
        ("normative", "removed", ("MUST",), ()),
    ]


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("colour", "color"),
        ("favourites", "favorites"),
        ("labelled", "labeled"),
        ("travelling", "traveling"),
        ("centres", "centers"),
        ("catalogue", "catalog"),
        ("defence", "defense"),
        ("organisations", "organizations"),
        ("analysed", "analyzed"),
        ("judgement", "judgment"),
        ("grey", "gray"),
    ],
)
def test_a_british_spelling_made_american_keeps_a_requirement(british: str, american: str) -> None:
    old = f"Lids MUST keep the {british} mark.\n"
    page = diff_texts(TOP + old, TOP + old.replace(british, american), "lids.md")
    assert findings(page) == [("editorial", "modified", ("MUST",), ("MUST",))]


@pytest.mark.parametrize(
    ("old_word", "new_word"),
    [
        ("refilled", "refiled"),
        ("scoured", "scored"),
        ("timbre", "timber"),
        ("analyses", "analyzes"),
    ],
)
def test_a_word_made_another_word_is_no_spelling(old_word: str, new_word: str) -> None:
    old = f"Lids MUST keep the {old_word} mark.\n"
    page = diff_texts(TOP + old, TOP + old.replace(old_word, new_word), "lids.md")
    assert findings(page) == [("normative", "modified", ("MUST",), ("MUST",))]


@pytest.mark.parametrize(
    ("old_link", "new_link"),
    [
        pytest.param("(lid.md)", "(/docs/v2/parts/lid)", id="relative-made-absolute"),
        pytest.param("(/docs/v2/parts/lid#care)", "(lid#care)", id="absolute-made-relative"),
        pytest.param('({{< ref "lid" >}})', "(/docs/v2/parts/lid)", id="hugo-ref-resolved"),
    ],
)
def test_a_link_to_the_same_page_in_another_form_is_formatting(
    old_link: str, new_link: str
) -> None:
    assert_formatting_only(
        TOP + f"Each jar MUST fit [the lid]{old_link} it ships with.\n",
        TOP + f"Each jar MUST fit [the lid]{new_link} it ships with.\n",
    )


@pytest.mark.parametrize(
    ("old_link", "new_link"),
    [
        pytest.param("(/docs/v1/parts/lid)", "(/docs/v2/parts/lid)", id="another-version"),
        pytest.param("(/docs/v2/parts/lid)", "(cup)", id="another-page"),
        pytest.param("(/docs/v2/parts/lid#care)", "(lid#fit)", id="another-anchor"),
    ],
)
def test_a_link_to_another_page_is_editorial(old_link: str, new_link: str) -> None:
    page = diff_texts(
        TOP + f"Each jar MUST fit [the lid]{old_link} it ships with.\n",
        TOP + f"Each jar MUST fit [the lid]{new_link} it ships with.\n",
        "blender.md",
    )
    assert findings(page) == [("editorial", "modified", ("MUST",), ("MUST",))]


@pytest.mark.parametrize("written", ["'jar.md'", '{"jar.md"}', "{`jar.md`}"])
def test_an_html_link_target_written_as_an_mdx_string_is_the_same_target(written: str) -> None:
    old = 'Lids MUST fit <a href="jar.md">the jar</a>.\n'
    assert_formatting_only(old, f"Lids MUST fit <a href={written}>the jar</a>.\n", "page.mdx")
    page = diff_texts(old, "Lids MUST fit <a href={'cup.md'}>the jar</a>.\n", "page.mdx")
    assert findings(page) == [("editorial", "modified", ("MUST",), ("MUST",))]


def test_a_tick_made_a_cross_by_emoji_name_is_editorial() -> None:
    table = "| Lid | Sealed |\n|---|---|\n| glass | {} |\n"
    page = diff_texts(table.format(":white_check_mark:"), table.format(":x:"), "page.md")
    assert findings(page) == [("editorial", "modified", (), ())]


def test_a_url_as_the_words_of_a_link_elsewhere_is_no_link_to_itself() -> None:
    """Linkify leaves the words of a link alone: they show a URL, the link goes elsewhere."""
    page = diff_texts(
        "Lids MUST fit [https://jars.example/a](https://jars.example/a).\n",
        "Lids MUST fit [https://jars.example/a](https://jars.example/b).\n",
        "page.md",
    )
    assert findings(page) == [("editorial", "modified", ("MUST",), ("MUST",))]


def test_code_laid_out_again_with_the_same_signs_is_formatting() -> None:
    assert_formatting_only(
        TOP + '```json\n{"lid": 1, "cup": [2, 3]}\n```\n',
        TOP + '```json\n{\n  "lid": 1,\n  "cup": [\n    2,\n    3\n  ]\n}\n```\n',
    )


def test_requirements_split_with_a_keyword_lowered_are_normative() -> None:
    page = diff_texts(
        TOP + "A jar MUST seal; it SHOULD click.\n",
        TOP + "A jar MUST seal. It should click.\n",
        "blender.md",
    )
    assert page.verdict == "normative"


def test_a_sentence_moved_between_sections_is_a_move() -> None:
    old = TOP + "## Jar\n\nThe jar is glass.\n\n## Base\n\nThe base MUST stay dry.\n"
    new = TOP + "## Base\n\nThe base MUST stay dry.\n\n## Jar\n\nThe jar is glass.\n"
    page = assert_formatting_only(old, new)
    assert {c.kind for c in page.changes} == {ChangeKind.MOVED}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "Blades come in three kinds (steel, glass, stone).\n",
            "Blades come in three kinds (glass, stone, steel).\n",
            id="items-of-a-series",
        ),
        pytest.param(
            "`interface Lid { size: number; color?: string; }`\n",
            "`interface Lid { color?: string; size: number; }`\n",
            id="fields-of-a-signature",
        ),
    ],
)
def test_pieces_of_a_sentence_listed_in_another_order_are_formatting(old: str, new: str) -> None:
    assert_formatting_only(TOP + old, TOP + new)


@pytest.mark.parametrize("path", ["page.md", "page.mdx"])
def test_members_of_generated_html_listed_in_another_order_are_moves(path: str) -> None:
    """Each member's name and text are elements of their own: no sentence runs from one member's
    requirement into the next member's name, which starts with a small letter."""
    limit = "<section><h4>limit</h4><p>The limit MUST be positive.</p></section>"
    mode = "<section><h4>mode</h4><p>the mode of the kettle</p></section>"
    page = assert_formatting_only(f"{limit}{mode}\n", f"{mode}{limit}\n", path)
    assert {c.kind for c in page.changes} == {ChangeKind.MOVED}


def test_swapped_sentences_are_a_move() -> None:
    page = assert_formatting_only(
        TOP + "The lid MUST lock. The base SHOULD stay cool.\n",
        TOP + "The base SHOULD stay cool. The lid MUST lock.\n",
    )
    assert [c.kind for c in page.changes] == [ChangeKind.MOVED]


FILLER = "".join(f"Paragraph {number} says nothing new.\n\n" for number in range(12))
DATES = "If present, the value MUST follow the date format of the registry."
TYPES = "If present, the value MUST follow the media type format of the registry."


@pytest.mark.parametrize("incremental", [True, False], ids=["windowed", "whole"])
def test_two_sections_that_changed_places_are_moves(incremental: bool) -> None:
    """Each section's requirement is like the other's: pairing them with each other, as the
    two places' changes, made two false alerts."""
    old = f"# T\n\n## Time\n\n{DATES}\n\n{FILLER}## Type\n\n{TYPES}\n"
    new = f"# T\n\n## Type\n\n{TYPES}\n\n{FILLER}## Time\n\n{DATES}\n"
    page = diff_texts(old, new, "page.md", incremental=incremental)
    assert page.verdict == "formatting", explain(page)
    assert {c.kind for c in page.changes} == {ChangeKind.MOVED}


@pytest.mark.parametrize("incremental", [True, False], ids=["windowed", "whole"])
def test_requirements_that_changed_places_under_their_headings_are_modified(
    incremental: bool,
) -> None:
    old = f"# T\n\n## Time\n\n{DATES}\n\n{FILLER}## Type\n\n{TYPES}\n"
    new = f"# T\n\n## Time\n\n{TYPES}\n\n{FILLER}## Type\n\n{DATES}\n"
    page = diff_texts(old, new, "page.md", incremental=incremental)
    assert [(c.old and c.old.text, c.new and c.new.text) for c in meaningful(page)] == [
        (DATES, TYPES),
        (TYPES, DATES),
    ]
    assert findings(page) == [("normative", "modified", ("MUST",), ("MUST",))] * 2


@pytest.mark.parametrize("incremental", [True, False], ids=["windowed", "whole"])
def test_requirements_that_changed_places_under_headings_that_read_alike_are_modified(
    incremental: bool,
) -> None:
    old = f"# T\n\n## Time\n\n### Rules\n\n{DATES}\n\n{FILLER}## Type\n\n### Rules\n\n{TYPES}\n"
    new = old.replace(DATES, "@").replace(TYPES, DATES).replace("@", TYPES)
    page = diff_texts(old, new, "page.md", incremental=incremental)
    assert findings(page) == [("normative", "modified", ("MUST",), ("MUST",))] * 2


def test_a_moved_and_strengthened_requirement_is_one_strengthening() -> None:
    old = (
        TOP
        + "## Jar\n\nIntro.\n\nThe lid SHOULD lock before the motor starts.\n\n## Base\n\nMore.\n"
    )
    new = (
        TOP + "## Jar\n\nIntro.\n\n## Base\n\nMore.\n\nThe lid MUST lock before the motor starts.\n"
    )
    page = diff_texts(old, new, "blender.md")
    assert findings(page) == [("normative", "strengthened", ("SHOULD",), ("MUST",))]
    assert page.changes[0].section == ("Blender", "Base")


def test_the_same_requirement_in_two_sections_is_told_apart() -> None:
    old = TOP + "## Jar\n\nThe lid MUST lock.\n\n## Bowl\n\nThe lid MUST lock.\n"
    new = TOP + "## Jar\n\nThe lid MUST lock.\n\n## Bowl\n\nThe lid MAY lock.\n"
    page = diff_texts(old, new, "blender.md")
    assert findings(page) == [("normative", "weakened", ("MUST",), ("MAY",))]
    assert page.changes[0].section == ("Blender", "Bowl")
    assert page.changes[0].new is not None and page.changes[0].new.line == 9


def test_changes_name_their_section_and_lines() -> None:
    old = "# Blender\n\n## Safety\n\n### Lid\n\nThe lid is clear.\nThe lid SHOULD lock.\n"
    new = "# Blender\n\n## Safety\n\n### Lid\n\nThe lid is clear.\n\nThe lid MUST lock.\n"
    page = diff_texts(old, new, "blender.md")
    (change,) = [c for c in page.changes if c.change_class is ChangeClass.NORMATIVE]
    assert change.section == ("Blender", "Safety", "Lid")
    assert change.old is not None and change.new is not None
    assert (change.old.line, change.new.line) == (8, 9)
    assert (change.old.text, change.new.text) == ("The lid SHOULD lock.", "The lid MUST lock.")


def test_prose_edit_before_etc_and_a_requirement_is_editorial() -> None:
    old = TOP + "It blends fruit, ice, nuts, etc. The lid MUST lock.\n"
    new = TOP + "It blends fruit, ice, seeds, etc. The lid MUST lock.\n"
    assert diff_texts(old, new, "blender.md").verdict == "editorial"


def test_striking_out_a_keyword_is_normative() -> None:
    page = diff_texts(TOP + "The lid MUST lock.\n", TOP + "The lid ~~MUST~~ lock.\n", "b.md")
    assert page.verdict == "normative"


def test_keyword_in_html_code_is_not_a_requirement() -> None:
    page = diff_texts(TOP + "Type `MUST` here.\n", TOP + "Type <code>MUST</code> here.\n", "b.md")
    assert all(not c.new or not c.new.keywords for c in page.changes)


# --- Whole pages -------------------------------------------------------------------------------

NEW_PAGE = """\
# Warranty

The warranty lasts two years.

- A claim MUST include the receipt.
- Claims SHOULD be filed online. Paper claims MAY take longer.
"""


def test_an_added_page_counts_each_requirement_sentence() -> None:
    page = diff_texts(None, NEW_PAGE, "warranty.md")
    assert page.status is PageStatus.ADDED
    assert findings(page) == [
        ("normative", "added", (), ("MUST",)),
        ("normative", "added", (), ("SHOULD",)),
        ("normative", "added", (), ("MAY",)),
    ]
    assert (page.lines_added, page.lines_removed) == (6, 0)
    assert [c.new.line for c in page.changes if c.new] == [5, 6, 6]


def test_a_removed_page_counts_each_requirement_sentence() -> None:
    page = diff_texts(NEW_PAGE, None, "warranty.md")
    assert page.status is PageStatus.REMOVED
    assert [f[:3] for f in findings(page)] == [
        ("normative", "removed", ("MUST",)),
        ("normative", "removed", ("SHOULD",)),
        ("normative", "removed", ("MAY",)),
    ]
    assert (page.lines_added, page.lines_removed) == (0, 6)


def test_an_added_page_without_requirements_is_editorial() -> None:
    page = diff_texts(None, "# Colours\n\nThe blender comes in red and grey.\n", "colours.md")
    assert page.verdict == "editorial"
    assert [c.kind for c in page.changes] == [ChangeKind.ADDED]


# --- Hunks -------------------------------------------------------------------------------------


def test_hunks_are_tagged_with_the_class_of_what_they_cover() -> None:
    filler = "".join(f"Paragraph {n} says nothing new.\n\n" for n in range(1, 9))
    old = "# Kettle\n\nThe kettle  is  white.\n\n" + filler + "The lid SHOULD lock.\n"
    new = "# Kettle\n\nThe kettle is white.\n\n" + filler + "The lid MUST lock.\n"
    page = diff_texts(old, new, "kettle.md")
    assert [h.change_class for h in page.hunks] == [ChangeClass.FORMATTING, ChangeClass.NORMATIVE]
    first, second = page.hunks
    assert (first.old_start, first.new_start) == (1, 1)
    changed = [(line.op, line.old, line.new) for line in second.lines if line.op != " "]
    assert changed == [("-", 21, None), ("+", None, 21)]
    assert (page.lines_added, page.lines_removed) == (2, 2)


def test_line_counts_are_those_of_a_plain_line_diff() -> None:
    old = "# Kettle\n\nOne.\nTwo.\nThree.\n\nThe lid SHOULD lock.\n"
    new = "# Kettle\n\nOne.\nThree.\nFour.\nFive.\n\nThe lid MUST lock.\n"
    page = diff_texts(old, new, "kettle.md")
    plain = list(difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0))
    added = sum(1 for line in plain if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in plain if line.startswith("-") and not line.startswith("---"))
    assert (page.lines_added, page.lines_removed) == (added, removed)


def test_whole_page_parse_and_incremental_parse_agree() -> None:
    old = "---\ntitle: Kettle\n---\n\n## Lid\n\nThe lid SHOULD lock.\n\n## Base\n\nIt is heavy.\n"
    new = "# Kettle\n\n## Lid\n\nThe lid MUST lock.\n\n## Base\n\nIt is very heavy.\n"
    assert diff_texts(old, new, "k.md") == diff_texts(old, new, "k.md", incremental=False)


def test_front_matter_delimiter_with_trailing_space() -> None:
    old = "--- \ntitle: Kettle\n---\n\n## Lid\n"
    new = old + "\nThe lid MUST lock.\n"
    assert parse(old).title == "Kettle"
    assert diff_texts(old, new, "k.md") == diff_texts(old, new, "k.md", incremental=False)


@pytest.mark.parametrize(
    ("front_matter", "section"),
    [
        ("---\ntitle: Kettle\n----\n", ("Kettle",)),
        ("-----\ntitle: Kettle\n-----\n", ("Kettle",)),
        ("---\ntitle: Kettle\n   ---\n", ("Kettle",)),
        ("---\ntitle: Kettle\n...\n", ("Kettle",)),
        ("--- yaml\ntitle: Kettle\n---\n", ("Kettle",)),
        ("----\ntitle: Kettle\n---\n", ()),  # closed by no line: no front matter at all
    ],
)
def test_front_matter_is_read_alike_by_the_window_scan_and_the_parser(
    front_matter: str, section: tuple[str, ...]
) -> None:
    old = front_matter + "\nThe kettle boils.\n\nThe spout pours.\n\nThe lid MUST lock.\n"
    new = old.replace("MUST", "SHOULD")
    windowed = diff_texts(old, new, "k.md")
    assert windowed == diff_texts(old, new, "k.md", incremental=False)
    (change,) = windowed.changes
    assert change.kind is ChangeKind.WEAKENED
    if section:
        assert change.section == section


@pytest.mark.parametrize(
    ("head", "section", "name"),
    [
        (
            "# Kettle\n\nSpout and lid\nof the kettle\n-------------\n",
            ("Kettle", "Spout and lid of the kettle"),
            "k.md",
        ),
        ("# Kettle\n\n<!--\n# Draft notes\n-->\n", ("Kettle",), "k.md"),
        ("# Kettle\n\n{/*\n## Draft notes\n*/}\n", ("Kettle",), "k.mdx"),
        ("# Kettle\n\n{{/*\n## Draft notes\n\nMore notes.\n*/}}\n", ("Kettle",), "k.md"),
        ("# Kettle\n\nexport const notes = `\n\n## Draft notes\n`;\n", ("Kettle",), "k.mdx"),
        (
            "# Kettle\n\n<>\nHandle care\n-----------\n\nThe handle is warm.\n</>\n",
            ("Kettle", "Handle care"),
            "k.mdx",
        ),
        ("# Kettle\n\nThe kettle boils.\n\n***\n---\n", ("Kettle",), "k.md"),
        (
            "# Kettle\n\n<Note>\nHandle care\n-----------\n\nThe handle is warm.\n</Note>\n",
            ("Kettle", "Handle care"),
            "k.mdx",
        ),
        ("# Kettle\n\n- Parts:\n  - lid\n  -\n", ("Kettle",), "k.md"),
        (
            "# Kettle\n\n- ```\n  # rinse daily\n  ```\n\n```\nboil\n```\n\n```\npour\n```\n",
            ("Kettle",),
            "k.md",
        ),
        ("# Kettle\n\n- Spout care\n  ----------\n", ("Kettle", "Spout care"), "k.md"),
    ],
    ids=[
        "setext-heading-of-two-lines",
        "html-comment",
        "mdx-comment",
        "hugo-comment",
        "mdx-export-with-a-blank-line",
        "in-a-fragment",
        "two-rules",
        "in-a-callout",
        "an-empty-item-under-an-item",
        "a-fence-opening-an-item",
        "setext-heading-in-an-item",
    ],
)
def test_a_window_sees_the_headings_the_whole_page_has(
    head: str, section: tuple[str, ...], name: str
) -> None:
    old = head + "\nThe kettle boils.\n\nThe spout pours.\n\nThe lid MUST lock.\n"
    new = old.replace("MUST", "SHOULD")
    windowed = diff_texts(old, new, name)
    assert windowed == diff_texts(old, new, name, incremental=False)
    assert [change.section for change in windowed.changes] == [section]


def test_a_rewrapped_requirement_is_formatting_that_still_names_its_keywords() -> None:
    old = TOP + "## Lid\n\nThe lid MUST lock. It SHOULD click.\n\nThe base is heavy.\n"
    new = old.replace("lock. It", "lock.\nIt")
    windowed = diff_texts(old, new, "blender.md")
    assert windowed == diff_texts(old, new, "blender.md", incremental=False)
    (change,) = windowed.changes
    assert change.change_class is ChangeClass.FORMATTING
    assert change.section == ("Blender", "Lid")
    assert change.old is not None and change.old.keywords == ("MUST", "SHOULD")


def test_lone_carriage_returns_end_lines_for_changes_and_hunks_alike() -> None:
    old = "# Kettle\r\rThe kettle boils.\r\rThe lid MUST lock.\r"
    page = diff_texts(old, old.replace("MUST", "SHOULD"), "k.md")
    (change,) = page.changes
    assert change.kind is ChangeKind.WEAKENED and change.new is not None
    (hunk,) = page.hunks
    assert hunk.change_class is ChangeClass.NORMATIVE
    changed = [line.new for line in hunk.lines if line.op == "+"]
    assert changed == [change.new.line] == [5]


def test_a_page_renamed_to_mdx_reads_its_sentences_as_mdx_does() -> None:
    page = TOP + "A <span style={{color: 'red'}}>lid</span> MUST fit.\n"
    report = diff_texts(page, page, "lid.mdx", old_name="lid.md")
    assert [
        (c.change_class.value, c.old and c.old.text, c.new and c.new.text) for c in report.changes
    ] == [("normative", "A <span style={{color: 'red'}}>lid MUST fit.", "A lid MUST fit.")]


def test_an_mdx_expression_holding_a_comment_is_no_comment() -> None:
    old = TOP + "Clients MUST send {/* why */ name} tokens. Servers MUST log them {/* later */}.\n"
    new = old.replace("MUST log", "MUST NOT log")
    assert findings(diff_texts(old, new, "lid.mdx")) == [
        ("normative", "modified", ("MUST",), ("MUST NOT",))
    ]


def test_diff_documents_compares_parsed_pages() -> None:
    old = parse(TOP + "The lid SHOULD lock.\n")
    new = parse(TOP + "The lid MUST lock.\n")
    changes = diff_documents(old, new)
    assert [(c.change_class, c.kind) for c in changes] == [
        (ChangeClass.NORMATIVE, ChangeKind.STRENGTHENED)
    ]


def test_diff_documents_reads_a_footnote_renamed_as_diff_texts_does() -> None:
    old = TOP + "The lid MUST lock.[^1]\n\n[^1]: Tested at 90 degrees.\n"
    new = old.replace("[^1]", "[^heat]")
    changes = diff_documents(parse(old), parse(new))
    assert {c.change_class for c in changes} == {ChangeClass.FORMATTING}
    assert {c.change_class for c in diff_texts(old, new, "lid.md").changes} == {
        ChangeClass.FORMATTING
    }


# --- Trees of pages ------------------------------------------------------------------------------


def _tree(root: Path, pages: dict[str, str]) -> Path:
    for name, text in pages.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_directories_pair_pages_by_relative_path(tmp_path: Path) -> None:
    old = _tree(
        tmp_path / "old",
        {
            "index.md": "# Home\n\nWelcome.\n",
            "guide/lid.mdx": "# Lid\n\nThe lid SHOULD lock.\n",
            "guide/gone.md": "# Gone\n\nUsers MAY ask for a refund.\n",
            "notes.txt": "not a page",
        },
    )
    new = _tree(
        tmp_path / "new",
        {
            "index.md": "# Home\n\nWelcome.\n",
            "guide/lid.mdx": "# Lid\n\nThe lid MUST lock.\n",
            "guide/fresh.markdown": "# Fresh\n\nIt is new.\n",
            "image.png": "not a page either",
        },
    )
    report = diff_paths(old, new)
    summary = {p.path: (p.status.value, p.verdict) for p in report.pages}
    assert summary == {
        "guide/fresh.markdown": ("added", "editorial"),
        "guide/gone.md": ("removed", "normative"),
        "guide/lid.mdx": ("modified", "normative"),
        "index.md": ("unchanged", "unchanged"),
    }
    assert [p.path for p in report.pages] == sorted(summary)
    assert report.verdict == "normative"
    assert report.counts == {"normative": 2, "editorial": 1, "formatting": 0}


def test_a_page_whose_suffix_changed_is_the_same_page_read_in_its_own_dialect(
    tmp_path: Path,
) -> None:
    # In Markdown the indented line is code, so its keyword counts for nothing there.
    old_text = "# Lid\n\nThe lid SHOULD lock.\n\n    Jars MUST spin.\n"
    new_text = "# Lid\n\nThe lid MUST lock.\n\n```\nJars MUST spin.\n```\n"
    old = _tree(tmp_path / "old", {"guide/lid.md": old_text, "cup.md": "# Cup\n"})
    new = _tree(
        tmp_path / "new",
        {"guide/lid.mdx": new_text, "cup.mdx": "# Cup\n", "cup.markdown": "# Cup\n"},
    )
    report = diff_paths(old, new)
    summary = {p.path: (p.status.value, p.verdict) for p in report.pages}
    # Two new files could each be the old cup.md: neither is taken for it.
    assert summary == {
        "cup.markdown": ("added", "editorial"),
        "cup.md": ("removed", "editorial"),
        "cup.mdx": ("added", "editorial"),
        "guide/lid.mdx": ("modified", "normative"),
    }
    (lid,) = [p for p in report.pages if p.path == "guide/lid.mdx"]
    assert findings(lid) == [("normative", "strengthened", ("SHOULD",), ("MUST",))]


def test_a_page_renamed_to_mdx_that_reads_alike_is_unchanged() -> None:
    text = "# Lid\n\nThe lid MUST lock.\n"
    for incremental in (True, False):
        page = diff_texts(text, text, "lid.mdx", old_name="lid.md", incremental=incremental)
        assert (page.status, page.changes) == (PageStatus.UNCHANGED, ())


def test_two_folders_without_pages_are_an_input_error(tmp_path: Path) -> None:
    old = _tree(tmp_path / "old", {"notes.txt": "not a page"})
    (tmp_path / "new").mkdir()
    with pytest.raises(InputError, match="neither folder holds a page"):
        diff_paths(old, tmp_path / "new")


def test_two_files_are_one_page_named_after_the_new_file(tmp_path: Path) -> None:
    tree = _tree(tmp_path, {"a/lid.md": "The lid MAY lock.\n", "b/lid.md": "The lid MUST lock.\n"})
    report = diff_paths(tree / "a/lid.md", tree / "b/lid.md")
    assert [(p.path, p.verdict) for p in report.pages] == [("lid.md", "normative")]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("missing.md", "b/lid.md", "missing.md: no such file or directory"),
        ("a/lid.md", "b", "compare two files or two directories"),
    ],
)
def test_bad_paths_are_input_errors(tmp_path: Path, old: str, new: str, message: str) -> None:
    tree = _tree(tmp_path, {"a/lid.md": "Lid.\n", "b/lid.md": "Lid.\n"})
    with pytest.raises(InputError, match=message):
        diff_paths(tree / old, tree / new)


def test_an_empty_report_is_unchanged() -> None:
    report = Report()
    assert report.verdict == "unchanged"
    assert report.counts == {"normative": 0, "editorial": 0, "formatting": 0}


@pytest.mark.parametrize("incremental", [True, False])
def test_a_sentence_written_again_beside_its_twin_is_added_as_the_later_copy(
    incremental: bool,
) -> None:
    old = "## Lids\n\n- A lid MUST fit the pot. The lid rests on the rim.\n"
    new = (
        "## Lids\n\n- A lid MUST fit the pot.\n  A lid MUST fit the pot.\n"
        "  The lid rests on the rim.\n"
    )
    removed = diff_texts(new, old, "lids.md", incremental=incremental)
    added = diff_texts(old, new, "lids.md", incremental=incremental)
    assert [(c.kind, c.new and c.new.line) for c in added.changes] == [(ChangeKind.ADDED, 4)]
    assert [(c.kind, c.old and c.old.line) for c in removed.changes] == [(ChangeKind.REMOVED, 4)]


NESTED_REQUIREMENTS = {
    "list": "".join("  " * depth + f"- level {depth}\n" for depth in range(40))
    + "  " * 40
    + "- A kettle MUST whistle.\n",
    "quote": "> " * 40 + "A kettle MUST whistle.\n",
    "component": "<Note>\n" * 40 + "A kettle MUST whistle.\n" + "</Note>\n" * 40,
}


@pytest.mark.parametrize("page", NESTED_REQUIREMENTS.values(), ids=NESTED_REQUIREMENTS.keys())
def test_a_requirement_forty_levels_deep_is_read(page: str) -> None:
    """markdown-it's CommonMark preset drops what is nested deeper than 20 levels."""
    report = diff_texts(page, page.replace("MUST", "MAY"), "page.mdx")
    assert [(c.change_class, c.kind) for c in report.changes] == [
        (ChangeClass.NORMATIVE, ChangeKind.WEAKENED)
    ]


def test_a_page_nested_too_deeply_to_follow_is_read_not_refused_nor_cut_short() -> None:
    """Past a depth the rest is read as plain text (`spectrack.markdown.deep`)."""
    page = "> " * 2000 + "A kettle MUST whistle.\n"
    report = diff_texts(page, page.replace("MUST", "MAY"), "deep.md")
    assert [(c.change_class, c.kind) for c in report.changes] == [
        (ChangeClass.NORMATIVE, ChangeKind.WEAKENED)
    ]


PLAIN_LEAD_IN = "Kettle owners:\n\n" + "".join(
    f"- **MUST** descale kettle {number} monthly.\n" for number in range(1, 13)
)


@pytest.mark.parametrize("incremental", [True, False])
def test_an_item_that_goes_on_from_a_plain_lead_in_reads_with_its_subject(
    incremental: bool,
) -> None:
    """ "Kettle owners:" then "MUST descale …": the item's subject is the lead-in's, also where
    only the list's last item changed and a window could have started below the lead-in."""
    new = PLAIN_LEAD_IN.replace("MUST** descale kettle 12", "SHOULD** descale kettle 12")
    report = diff_texts(TOP + PLAIN_LEAD_IN, TOP + new, "kettles.md", incremental=incremental)
    assert [(c.kind, c.old and c.old.text, c.new and c.new.text) for c in report.changes] == [
        (
            ChangeKind.WEAKENED,
            "Kettle owners: MUST descale kettle 12 monthly.",
            "Kettle owners: SHOULD descale kettle 12 monthly.",
        )
    ]


def test_a_subject_moved_into_a_plain_lead_in_keeps_the_requirement() -> None:
    old = "- Kettle owners **MUST** descale kettles monthly.\n"
    new = "Kettle owners:\n\n- **MUST** descale kettles monthly.\n"
    assert diff_texts(TOP + old, TOP + new, "kettles.md").verdict == "editorial"


def test_a_plain_lead_in_given_another_subject_changes_its_items_requirements() -> None:
    old = "Kettle owners:\n\n- **MUST** descale kettles monthly.\n- Lids are optional.\n"
    new = old.replace("Kettle owners:", "Kettle makers:")
    report = diff_texts(TOP + old, TOP + new, "kettles.md")
    assert [
        (c.kind, c.new and c.new.text)
        for c in report.changes
        if c.change_class.value == "normative"
    ] == [(ChangeKind.MODIFIED, "Kettle makers: MUST descale kettles monthly.")]
    # An item with a subject of its own does not read with the lead-in.
    assert parse(new, name="kettles.md").blocks[-1].lead_in is None


def test_a_plain_lead_in_inside_a_requirements_list_leaves_its_items_to_the_requirement() -> None:
    """ "Kettles MUST boil with either:" then "a gas ring, which can be:" then its items: each
    item is still part of the requirement, so one changed is normative."""
    old = (
        "Kettles **MUST** boil with either:\n\n"
        "- a gas ring, which can be:\n  - brass\n  - iron\n- an induction plate\n"
    )
    new = old.replace("iron", "tin")
    report = diff_texts(TOP + old, TOP + new, "kettles.md")
    assert [
        (c.change_class, c.old and c.old.text, c.new and c.new.text) for c in report.changes
    ] == [
        (ChangeClass.NORMATIVE, None, "Kettles MUST boil with either: tin"),
        (ChangeClass.NORMATIVE, "Kettles MUST boil with either: iron", None),
    ]


def test_a_colon_inside_a_list_is_no_plain_lead_in() -> None:
    """An item's own lead-in would need the outline to keep the outer list whole as well."""
    page = "1. Kettle owners\nwhen hot:\n- MUST descale kettles.\n- MAY pour water.\n"
    assert [block.lead_in for block in parse(page, name="kettles.md").blocks] == [None] * 3


LISTED = "Kettles **MUST** stop when:\n\n- the lid is open\n- the jug is cold, and owners **SHOULD** wait\n"


@pytest.mark.parametrize("incremental", [True, False])
def test_a_requirement_added_with_its_list_is_one_change(incremental: bool) -> None:
    """The requirement and its items are one sentence, as readers read it and as the corpus
    labels have it, not the lead-in and then each item again after it."""
    old = TOP + "Kettles boil.\n"
    new = TOP + LISTED + "\nKettles boil.\n"
    for report, kind, side in (
        (diff_texts(old, new, "kettles.md", incremental=incremental), ChangeKind.ADDED, "new"),
        (diff_texts(new, old, "kettles.md", incremental=incremental), ChangeKind.REMOVED, "old"),
    ):
        [change] = report.changes
        found = getattr(change, side)
        assert (change.change_class, change.kind) == (ChangeClass.NORMATIVE, kind)
        assert found.text == (
            "Kettles MUST stop when: the lid is open; the jug is cold, and owners SHOULD wait"
        )
        assert (found.line, found.end_line, found.keywords) == (3, 6, ("MUST", "SHOULD"))
        assert [found.text[start:end] for start, end in found.marks] == ["MUST", "SHOULD"]


def test_items_added_under_a_requirement_already_there_are_each_a_change() -> None:
    old = TOP + LISTED
    new = TOP + LISTED + "- the spout is blocked\n- the base is wet\n"
    report = diff_texts(old, new, "kettles.md")
    assert [(c.kind, c.new and c.new.text) for c in report.changes] == [
        (ChangeKind.ADDED, "Kettles MUST stop when: the spout is blocked"),
        (ChangeKind.ADDED, "Kettles MUST stop when: the base is wet"),
    ]


def test_a_requirement_added_above_items_that_were_there_keeps_them_apart() -> None:
    """Only some of the list is new: the lead-in is one change, the items compared apart."""
    old = TOP + "- the lid is open\n- the jug is cold\n"
    new = TOP + "Kettles **MUST** stop when:\n\n- the lid is open\n- the jug is cold\n- it tips\n"
    report = diff_texts(old, new, "kettles.md")
    assert [c.new and c.new.text for c in report.changes if c.kind is ChangeKind.ADDED] == [
        "Kettles MUST stop when:",
        "Kettles MUST stop when: it tips",
    ]


def test_a_requirement_removed_with_a_list_inside_its_list_loses_no_item() -> None:
    """The inner list's items stand under two lead-ins: each change is kept as it is, so that
    no item's words or keywords are lost."""
    old = TOP + "Kettles **MUST** stop when:\n\n- the jug SHOULD be hot:\n  - it MAY be wet.\n"
    report = diff_texts(old, TOP, "kettles.md")
    assert [(c.old and c.old.text, c.old and c.old.keywords) for c in report.changes] == [
        ("Kettles MUST stop when:", ("MUST",)),
        ("Kettles MUST stop when: the jug SHOULD be hot:", ("MUST", "SHOULD")),
        ("the jug SHOULD be hot: it MAY be wet.", ("SHOULD", "MAY")),
    ]


def test_items_that_end_in_semicolons_are_joined_by_them() -> None:
    old = TOP + "Kettles **MUST** stop when:\n\n- the lid is open;\n- the jug is cold.\n- it tips\n"
    [change] = diff_texts(old, TOP, "kettles.md").changes
    assert change.old is not None
    assert change.old.text == "Kettles MUST stop when: the lid is open; the jug is cold. it tips"
