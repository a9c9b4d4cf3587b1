"""Blocks nested hundreds of levels deep: read, never refused, nothing dropped.

Each level of nesting costs markdown-it a few Python frames, so such a page (which any upstream
site may serve) once exhausted Python's recursion and was refused; past a depth the parser now
reads the rest as plain paragraphs (`spectrack.markdown.deep`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from spectrack.diff import diff_texts
from spectrack.markdown import parse
from spectrack.model import BlockKind, ChangeClass, ChangeKind, Document

REQUIREMENT = "A kettle MUST whistle.\n"


def _indented(text: str, first: str, rest: str) -> str:
    return "".join(
        ((first if index == 0 else rest) + line if line else rest.rstrip()) + "\n"
        for index, line in enumerate(text.splitlines())
    )


def nest(kinds: list[str], inner: str = REQUIREMENT) -> str:
    """``inner`` inside blocks of these kinds, outermost first."""
    text = inner
    colons = 3
    for kind in reversed(kinds):
        if kind == "quote":
            text = _indented(text, "> ", "> ")
        elif kind == "list":
            text = _indented(text, "- ", "  ")
        elif kind == "component":
            text = "<Note>\n" + text + "</Note>\n"
        elif kind == "shortcode":
            text = "{{< callout >}}\n" + text + "{{< /callout >}}\n"
        elif kind == "container":
            # The marker of a container holding another is longer than that one's.
            text = ":" * colons + " note\n" + text + ":" * colons + "\n"
            colons += 1
        elif kind == "admonition":
            text = "!!! note\n" + _indented(text, "    ", "    ")
        else:
            raise AssertionError(kind)
    return text


def items(depth: int, inner: str = REQUIREMENT) -> str:
    """A list ``depth`` levels deep, an item on each line, ``inner`` the deepest one's text."""
    return "".join("  " * level + f"- level {level}\n" for level in range(depth)) + (
        "  " * depth + "- " + inner
    )


MIXTURE = ["quote", "list", "component", "shortcode", "admonition", "container"]

DEEP_PAGES: dict[str, Callable[[], str]] = {
    # Each was refused: deeper than Python's recursion let markdown-it follow.
    "quotes": lambda: ">" * 400 + " " + REQUIREMENT,
    "spaced-quotes": lambda: "> " * 2000 + REQUIREMENT,
    "lists": lambda: items(350),
    "stacked-lists": lambda: nest(["list"] * 350),
    "components": lambda: nest(["component"] * 210),
    "shortcodes": lambda: nest(["shortcode"] * 210),
    "quoted-containers": lambda: nest(["quote", "container"] * 200),
    "admonitions": lambda: nest(["admonition"] * 340),
    "mixture": lambda: nest(MIXTURE * 50),
}
DIALECTS = ["p.md", "p.mdx"]


def _keywords(document: Document) -> list[str]:
    return [
        keyword.word
        for block in document.blocks
        for sentence in block.sentences
        for keyword in sentence.keywords
    ]


@pytest.mark.parametrize("name", DIALECTS)
@pytest.mark.parametrize("page", DEEP_PAGES.values(), ids=DEEP_PAGES.keys())
def test_a_requirement_nested_hundreds_of_levels_deep_is_read(
    page: Callable[[], str], name: str
) -> None:
    document = parse(page(), name=name)
    assert _keywords(document) == ["MUST"]
    assert "A kettle MUST whistle." in document.blocks[-1].text


CHANGED_PAGES = [
    *((page, name) for page in ("quotes", "lists", "mixture") for name in DIALECTS),
    ("components", "p.mdx"),
]
"""Components, the slowest to parse, only in the dialect made for them."""


def _page_around(deep: str) -> str:
    return "# Kettles\n\nA kettle boils water.\n\n" + deep + "\nThe lid MAY rattle.\n"


@pytest.mark.parametrize("incremental", [True, False])
@pytest.mark.parametrize(("page", "name"), CHANGED_PAGES)
def test_a_keyword_changed_deep_inside_is_reported(page: str, name: str, incremental: bool) -> None:
    old = _page_around(DEEP_PAGES[page]())
    report = diff_texts(old, old.replace("MUST", "SHOULD"), name, incremental=incremental)
    assert [(c.change_class, c.kind) for c in report.changes] == [
        (ChangeClass.NORMATIVE, ChangeKind.WEAKENED)
    ]


@pytest.mark.parametrize("incremental", [True, False])
@pytest.mark.parametrize("name", DIALECTS)
@pytest.mark.parametrize("page", ["quotes", "lists"])
def test_a_word_changed_deep_inside_is_reported(page: str, name: str, incremental: bool) -> None:
    old = _page_around(DEEP_PAGES[page]())
    report = diff_texts(old, old.replace("whistle", "sing"), name, incremental=incremental)
    assert [(c.change_class, c.kind) for c in report.changes] == [
        (ChangeClass.NORMATIVE, ChangeKind.MODIFIED)
    ]
    assert "A kettle MUST sing." in report.changes[0].new.text  # type: ignore[union-attr]


SHALLOW = {
    "list": items(10, "A lid MUST fit.\n"),
    "quote": nest(["quote"] * 10, "A lid MUST fit.\n"),
    "mixture": nest(MIXTURE * 2, "A lid MUST fit.\n"),
}


@pytest.mark.parametrize("name", DIALECTS)
@pytest.mark.parametrize("shallow", SHALLOW.values(), ids=SHALLOW.keys())
def test_ordinary_nesting_beside_deep_nesting_is_parsed_as_before(shallow: str, name: str) -> None:
    """Blocks ten levels deep keep their structure; what follows a deep part is read as usual."""
    deep = DEEP_PAGES["quotes"]()
    after = "## Lids\n\n- A lid MAY rattle.\n"
    page = shallow + "\n" + deep + "\n" + after
    document = parse(page, name=name)
    alone = parse(shallow, name=name)
    assert document.blocks[: len(alone.blocks)] == alone.blocks
    assert [(b.kind, b.text, b.section, b.line) for b in document.blocks[-2:]] == [
        (BlockKind.HEADING, "Lids", ("Lids",), page.count("\n") - 2),
        (BlockKind.LIST_ITEM, "A lid MAY rattle.", ("Lids",), page.count("\n")),
    ]
    assert _keywords(document) == ["MUST", "MUST", "MAY"]


def test_ten_levels_of_list_items_stay_list_items_beside_deep_ones() -> None:
    page = items(10, "A lid MUST fit.\n") + "\n" + DEEP_PAGES["lists"]()
    document = parse(page, name="p.md")
    assert [b.kind for b in document.blocks[:11]] == [BlockKind.LIST_ITEM] * 11
    assert document.blocks[10].text == "A lid MUST fit."


def test_an_item_after_a_deep_list_is_its_own_item() -> None:
    page = items(400) + "- A lid MAY rattle.\n"
    document = parse(page, name="p.md")
    assert document.blocks[-1].text == "A lid MAY rattle."
    assert document.blocks[-1].kind is BlockKind.LIST_ITEM
    assert _keywords(document) == ["MUST", "MAY"]


@contextmanager
def _frames_left(frames: int) -> Iterator[None]:
    """Let only ``frames`` more Python frames be entered than the caller's."""
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("page", ["components", "mixture"])
def test_deep_nesting_leaves_room_on_the_stack(page: str) -> None:
    """Nesting is followed to a depth far from where Python's recursion gives out: components,
    the most costly, need about 520 frames of the 1000 Python allows."""
    text = DEEP_PAGES[page]()
    with _frames_left(650):
        document = parse(text, name="p.mdx")
    assert _keywords(document) == ["MUST"]
