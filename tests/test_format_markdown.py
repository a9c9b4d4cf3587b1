from __future__ import annotations

import html
import io
import re

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from spectrack.diff import diff_texts
from spectrack.fingerprints import page_fingerprints
from spectrack.formats import FORMATS, FormatOptions
from spectrack.formats.markdown import COMMENT_LIMIT, MARKER, escape, fit
from spectrack.formats.text import shown
from spectrack.model import ChangeKind, Report
from tests.ci_support import GLOSSARY, LANTERN_V1, LANTERN_V2

GFM = MarkdownIt("gfm-like")


def rendered_text(markdown: str) -> str:
    """The text a reader sees: the HTML with its one paragraph's tags removed, entities decoded."""
    rendered = GFM.render(markdown).strip()
    if not rendered:
        return ""
    assert rendered.startswith("<p>") and rendered.endswith("</p>"), rendered
    inner = rendered[3:-4]
    assert "<" not in inner, f"markup leaked into the HTML: {inner}"
    return html.unescape(inner)


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",))))
def test_escaped_text_renders_as_the_same_text(text: str) -> None:
    expected = shown(" ".join(text.split())).replace("@", "@\u2060")
    # Markdown drops leading and trailing spaces of a paragraph; control characters are U+FFFD.
    assert rendered_text(escape(text)) == expected.strip()


def test_hostile_markup_stays_text() -> None:
    hostile = (
        '<img src=x onerror="alert(1)"> **bold** [link](javascript:alert(1)) | cell @octocat '
        "www.example.com https://example.org/a_b_ $x^2$ :smile: &amp; #12"
    )
    assert rendered_text(escape(hostile)) == hostile.replace("@", "@\u2060")
    assert "@\u2060octocat" in escape(hostile)


def test_summary_lists_pages_and_normative_changes_old_to_new() -> None:
    report = Report(
        (
            diff_texts(GLOSSARY, GLOSSARY, "spec/glossary.md"),
            diff_texts(LANTERN_V1, LANTERN_V2, "spec/lantern.md"),
        )
    )
    stream = io.StringIO()
    FORMATS["markdown"](report, stream, FormatOptions())
    text = stream.getvalue()
    assert text.startswith(MARKER + "\n### spectrack: normative\n")
    assert "1 of 2 pages changed" in text
    assert "| spec/lantern\\.md | modified | **normative** | 1 | 1 | 1 |" in text
    assert "glossary" not in text, "unchanged pages are counted, not listed"
    assert "  - old: Every beacon **SHOULD** carry the lantern's colour\\." in text
    assert "  - new: Every beacon **MUST** carry the lantern's colour\\." in text
    page = report.pages[1]
    for change, fingerprint in zip(page.changes, page_fingerprints(page), strict=True):
        if change.kind is ChangeKind.REFORMATTED:
            assert fingerprint not in text, "formatting changes only listed with --verbose"
        else:
            assert f"`{fingerprint}`" in text


def test_acknowledged_changes_are_marked_with_their_reason() -> None:
    report = Report((diff_texts(LANTERN_V1, LANTERN_V2, "spec/lantern.md"),))
    page = report.pages[0]
    target = next(
        p
        for c, p in zip(page.changes, page_fingerprints(page), strict=True)
        if c.kind is ChangeKind.STRENGTHENED
    )
    stream = io.StringIO()
    options = FormatOptions(acknowledged={target: "Agreed <b>upstream</b>"})
    FORMATS["markdown"](report, stream, options)
    text = stream.getvalue()
    assert "### spectrack: editorial" in text
    assert "  - ✓ acknowledged: Agreed \\<b\\>upstream\\</b\\>" in text
    assert ", 1 acknowledged" in text


def test_a_long_report_fits_a_comment() -> None:
    new = "# Beacons\n\n" + "".join(
        f"Beacon {n} MUST repeat its colour code {'and call sign ' * 40}.\n\n" for n in range(400)
    )
    report = Report((diff_texts(None, new, "spec/beacons.md"),))
    stream = io.StringIO()
    FORMATS["markdown"](report, stream, FormatOptions())
    text = stream.getvalue()
    assert len(text.encode()) <= COMMENT_LIMIT
    match = re.search(r"(\d+) more entries are left out", text)
    assert match is not None
    listed = text.count("\n- **")
    assert listed + int(match.group(1)) == 400, "every change is either listed or counted"


def test_fit_keeps_everything_that_fits_and_closes_a_cut_fold() -> None:
    assert fit(["a", "b"], 10) == "ab"
    chunks = ["head\n", "<details><summary>More</summary>\n", *(["- item\n"] * 400), "</details>\n"]
    cut = fit(chunks, 1000)
    assert len(cut.encode()) <= 1000
    assert cut.count("<details>") == cut.count("</details>") == 1
    assert cut.index("</details>") < cut.index("Summary cut short")


def test_a_keyword_quoted_as_code_is_not_made_bold() -> None:
    old = "# Relay\n\nSend `MUST` as the flag; relays SHOULD  repeat it.\n"
    report = Report((diff_texts(old, old.replace("SHOULD", "MUST"), "spec/relay.md"),))
    stream = io.StringIO()
    FORMATS["markdown"](report, stream, FormatOptions())
    assert "  - new: Send MUST as the flag; relays **MUST** repeat it\\." in stream.getvalue()
