"""Lists that a requirement introduces, generated in many shapes: a windowed diff reads them as
the whole-page diff does, whatever stands between the lead-in and its items."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spectrack.diff import diff_texts
from tests.test_properties import ADJECTIVES, NOUNS, meaningful

PHRASE = st.lists(st.sampled_from(NOUNS + ADJECTIVES), min_size=3, max_size=5).map(" ".join)
BETWEEN = ["\n\n", "\n", "\n<!-- checked -->\n", '\n\n<div id="parts" />\n\n', "\n{/* x */}\n\n"]


@st.composite
def lead_in(draw: st.DrawFn) -> str:
    # A plain lead-in ("The … :", no keyword) introduces the items that open with a keyword.
    keyword = draw(st.sampled_from(["MUST", "SHOULD NOT", "MAY", "REQUIRED", ""]))
    text = f"{draw(st.sampled_from(['', '  ']))}The {draw(PHRASE)} {keyword} {draw(PHRASE)}"
    if keyword and draw(st.booleans()):
        text = text.replace(f" {keyword} ", f"\n{keyword} ", 1)
    ending = draw(st.sampled_from([":", " when:", ":**", " `Accept:`", " [when:](#when)"]))
    return f"**{text}:**" if ending == ":**" else text + ending


@st.composite
def item_list(draw: st.DrawFn, indent: str = "", depth: int = 0) -> str:
    ordered = draw(st.booleans())
    gap = "\n" if draw(st.booleans()) else ""
    lines = []
    for number in range(draw(st.integers(1, 5))):
        marker = f"{number + 1}." if ordered else "-"
        inner = indent + " " * (len(marker) + 1)
        shape = draw(st.sampled_from(["plain", "lazy", "nested", "fence", "opening-fence"]))
        if shape == "opening-fence":
            lines.append(f'{indent}{marker} ```json\n{inner}{{"{draw(PHRASE)}": 1}}\n{inner}```')
            continue
        opening = draw(st.sampled_from(["", "", "MUST ", "**MAY** "]))
        lines.append(f"{indent}{marker} {opening}{draw(PHRASE)}")
        if shape == "lazy":
            lines.append(draw(PHRASE))
        elif shape == "nested" and depth < 2:
            lines.append(draw(item_list(inner, depth + 1)))
        elif shape == "fence":
            lines.append(f"{inner}```\n{inner}{draw(PHRASE)}\n{inner}```")
        lines[-1] += gap
    return "\n".join(lines)


BLOCKS = st.one_of(
    st.builds("{}{}{}".format, lead_in(), st.sampled_from(BETWEEN), item_list()),
    PHRASE.map(lambda text: f"The {text} stays."),
    item_list(),
    PHRASE.map(lambda text: f"## {text}"),
    PHRASE.map(lambda text: f"```\n{text} MUST\n```"),
)
PAGES = st.lists(BLOCKS, min_size=1, max_size=6).map(
    lambda blocks: "# Kettles\n\n" + "\n\n".join(blocks) + "\n"
)


@st.composite
def edited(draw: st.DrawFn) -> tuple[str, str]:
    """A page, and the page with one of its items reworded, followed by a new one, or dropped
    (not an item a fence opens)."""
    page = draw(PAGES)
    lines = page.split("\n")
    items = [
        n
        for n, line in enumerate(lines)
        if line.lstrip().startswith(("- ", "1. ", "2. ")) and "```" not in line
    ]
    if not items:
        return page, page.replace("Kettles", "Kettle")
    chosen = draw(st.sampled_from(items))
    line = lines[chosen]
    edit = draw(st.sampled_from(["reword", "add", "drop"]))
    if edit == "reword":
        lines[chosen] = line + " twice"
    elif edit == "add":
        lines.insert(chosen + 1, line[: len(line) - len(line.lstrip())] + "- spare lid")
    else:
        del lines[chosen]
    return page, "\n".join(lines)


@settings(max_examples=300, deadline=None)
@given(edited(), st.sampled_from(["page.md", "page.mdx"]))
def test_windows_read_introduced_lists_as_the_whole_page_does(
    pages: tuple[str, str], name: str
) -> None:
    old, new = pages
    whole = diff_texts(old, new, name, incremental=False)
    windowed = diff_texts(old, new, name)
    assert windowed.verdict == whole.verdict, (old, new)
    assert meaningful(windowed) == meaningful(whole), (old, new)
