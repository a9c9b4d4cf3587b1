"""markdown-it tokens → the leaf blocks of a `Document`.

One pass over the token stream keeps a heading path and a stack of open containers (admonitions,
components, lists). Each heading, paragraph, list item, table row, code block and text-bearing
component becomes a `Block` with its plain text, comparison key, sentences and source lines.
Presentational markup with no text (``<div id="…" />``, HTML comments, rules) yields no block,
so adding or removing it can only ever be formatting.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from html import unescape
from itertools import takewhile
from unicodedata import category

from markdown_it.token import Token

from spectrack.markdown.admonitions import (
    ADMONITION_TOKENS,
    KIND_BY_NAME,
    KINDS,
    is_rendered_title,
)
from spectrack.markdown.inline import (
    ATTRIBUTE_LIST,
    EMOJI_SHORTCODE,
    HEADING_ID,
    HTML_VISIBLE_ATTRIBUTES,
    VISIBLE_ATTRIBUTES,
    InlineText,
    attribute_targets,
    clean,
    hover_title,
    html_inline_text,
    inline_text,
)
from spectrack.model import Admonition, Block, BlockKind, Keyword, Sentence
from spectrack.normative import CONDITIONS, has_keywords, locate_keywords
from spectrack.sentences import Ranges, split_sentences

FIELD_PLACES = ("path", "query", "body", "header")
"""The attributes of a `FIELD_ATTRIBUTES` component that name where the field goes."""

FIELD_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "ParamField": (*FIELD_PLACES, "type", "default", "required", "deprecated"),
    "ResponseField": ("type", "default", "required", "deprecated"),
}
"""Components that document a field of an API, and the attributes they show besides
`VISIBLE_ATTRIBUTES`: the field's name and place, its type and default, and flags (``required``)
shown as their name when set."""

LABEL_DEFAULTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("mdx", "TabItem"): ("value",),
    ("hugo", "tab"): ("header", "0"),
    ("hugo", "details"): ("0",),
    ("hugo", "expand"): ("0",),
    ("hugo", "notice"): ("1",),
    ("hugo", "badge"): ("content", "0"),
}
"""Components (by syntax and name) that show another attribute as their label when they have no
``title``, ``label`` or ``name``, in order of preference: Docusaurus' ``<TabItem value="http">`` is
a tab titled "http"; Docsy titles ``{{% tab header="HTTP" %}}``, hugo-book ``{{< tab "HTTP" >}}``,
``{{< details "Why?" >}}`` and ``{{< expand "Why?" >}}``, and Relearn ``{{% expand "Why?" %}}``
and ``{{% notice warning "Hot" %}}`` (its style, then its title) with those values, as
``title=`` would; Hextra shows a ``{{< badge "New" >}}``'s (or ``content="New"``) text."""
_LABELS = ("title", "label", "name")
_INCLUDES = frozenset({("hugo", "include"), ("hugo", "readfile")})
"""Shortcodes that show the text of the file their first argument names in their place
(``{{< include "jars.md" >}}``): which file it is counts as a link's target."""
_FLAG_VALUES = frozenset({"", "{true}", "{false}", "true", "false"})
"""Values that make an attribute a flag set or unset rather than text."""


_CSS_CLASSES = re.compile(r"\s*[\w-]+(?:\s+[\w-]+)+\s*")
"""An MkDocs admonition's type followed by CSS classes and no quoted title."""
_TITLE = re.compile(
    r"""^(?:title|"title"|'title'):[ \t]*(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|(.*?))[ \t]*$""",
    re.M,
)
_BLOCK_SCALAR = re.compile(r"[>|][+-]?[0-9]?[+-]?")
_TOML_TITLE = re.compile(r"""^title[ \t]*=[ \t]*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')[ \t]*$""", re.M)
_NOTHING_PROTECTED = Ranges(())
_TASK_BOX = re.compile(r"\[([ xX])\][ \t]+")
"""A GFM task list item's box, at the start of its text: ``[ ]`` or ``[x]``."""
_TICKED, _UNTICKED = "task:done", "task:open"
_CHECKBOX = re.compile(r"""<input\b[^>]*\stype\s*=\s*["']?checkbox\b[^>]*>""", re.I)
_CHECKED = re.compile(r"\s(?:default)?checked(?:\s*=\s*\{\s*(\w+)\s*\})?(?=[\s=/>])", re.I)
"""A checkbox's ``checked`` (or React's ``defaultChecked``): ticked, unless MDX gives it the value
``{false}`` (in HTML the attribute ticks the box whatever its value)."""
_LEAD_IN_KINDS = frozenset({BlockKind.PARAGRAPH, BlockKind.LIST_ITEM})
WRAPPERS = frozenset({"div", "figure", "section", "center"})
"""HTML elements that only lay out what they hold: a table or a list that one wraps is still
right below the requirement above it."""
HTML_LISTINGS = frozenset({"table", "ul", "ol", "steps"})
"""HTML elements whose rows or items a requirement right above introduces, as it does a
Markdown table's or list's; and the numbered steps of Mintlify's, Starlight's and Hextra's
``<Steps>`` (``{{% steps %}}``), which show as an ordered list does."""
_TABLE_HEADS = frozenset({"caption", "thead"})
"""Parts of an HTML table that title it or name its columns: no item of the requirement that
introduces the table, whatever cells their rows have."""


def front_matter_title(content: str) -> str | None:
    """The ``title`` of YAML front matter (plain, single- or double-quoted scalar), or of TOML
    front matter (a basic or literal string)."""
    match = _TITLE.search(content)
    if match is None:
        toml = _TOML_TITLE.search(content)
        if toml is None:
            return None
        basic, literal = toml.groups()
        return clean(basic.replace('\\"', '"') if basic is not None else literal) or None
    double, single, plain = match.groups()
    if plain is not None and _BLOCK_SCALAR.fullmatch(plain):
        # A folded or literal block (``title: >-``): the lines indented below it.
        lines = content[match.end() :].split("\n")[1:]
        indented = takewhile(lambda line: line[:1] in (" ", "\t", ""), lines)
        return clean(" ".join(line.strip() for line in indented)) or None
    if double is not None:
        return clean(double.replace('\\"', '"'))
    if single is not None:
        return clean(single.replace("''", "'"))
    return clean(plain or "") or None


@dataclass(frozen=True, slots=True)
class Context:
    """What a window of a page inherits from the rest of the page."""

    line_offset: int = 0
    """0-based page line of the window's first line."""
    headings: tuple[tuple[int, str], ...] = ()
    """(level, text) of the heading path in force where the window starts."""
    title_heading_line: int | None = None
    """0-based page line of a leading H1 that repeats the front-matter title (it is not a block)."""


@dataclass(slots=True)
class _Walk:
    lines: Sequence[str]
    context: Context
    blocks: list[Block] = field(default_factory=list)
    admonitions: list[Admonition] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    section: tuple[str, ...] = ()
    """The texts of ``headings``, kept with them: every block carries it."""
    containers: list[str | None] = field(default_factory=list)
    """Admonition kind (or None) of every open container, innermost last."""
    annotated: list[int | None] = field(default_factory=list)
    """For each open container, how many items the ordered list right after the innermost
    MkDocs admonition of the class ``annotate`` around it, itself included (``!!! note
    annotate``, whose paragraphs' ``(1)`` markers are annotations), has (see
    `_annotation_count`); None where no such admonition is."""
    annotation_counts: dict[int, int] = field(default_factory=dict)
    """Token index of an ordered list → how many items it has, for the lists counted so far."""
    closers: dict[int, int] | None = None
    """Token index of each opening token → that of its closing token, made on first use."""
    list_item_pending: bool = False
    lead_in: Sentence | None = None
    """The block just added, when a list that follows would be part of its requirement."""
    lead_ins: list[Sentence | None] = field(default_factory=list)
    """The requirement that introduces each open list or table body (see `Block.lead_in`),
    innermost last."""
    listing_depths: list[int] = field(default_factory=list)
    """How many containers were open as each open HTML ``<table>``, ``<ul>``, ``<ol>``,
    ``<caption>`` or ``<thead>`` began, innermost last: the component that closes at that depth
    ends it."""
    first_row_pending: bool = False
    """Whether the table opened last has no row yet: a first row of bold cells is its header."""

    @property
    def admonition(self) -> str | None:
        if not self.containers:
            return None
        return next((kind for kind in reversed(self.containers) if kind), None)

    def raw(self, start: int, end: int) -> str:
        offset = self.context.line_offset
        return "\n".join(self.lines[start - offset : end - offset])

    def add(
        self,
        kind: BlockKind,
        inline: InlineText,
        span: tuple[int, int],
        *,
        key: str | None = None,
        keywords: bool = True,
        language: str = "",
        led_in: bool = True,
    ) -> None:
        """Add a block of ``inline``'s text on lines ``span``; ``led_in`` False keeps it out of
        the requirement whose list or table it stands in (a table's header row)."""
        self.list_item_pending = False
        if kind is not BlockKind.CODE:
            inline.link_bare_urls()
        text = inline.text
        if not text and not inline.links:
            if kind is BlockKind.CODE:
                # An empty code block still shows a box: it parts a list from its lead-in.
                self.lead_in = None
            return
        start, end = span
        sentences = []
        marks: list[tuple[int, int]] = []
        # Code and headings are one sentence without keywords: what protects text is not needed.
        protected_ranges = inline.protected if keywords else []
        protected = Ranges(protected_ranges) if protected_ranges else _NOTHING_PROTECTED
        breaks = inline.breaks
        # Most blocks hold no keyword at all: then no sentence needs looking at for one.
        with_keywords = keywords and has_keywords(text)
        code_starts = [start for start, _ in inline.code]
        bounds = (
            split_sentences(text, protected, inline.element_starts, code_starts)
            if keywords
            else [(0, len(text))]
        )
        for lo, hi in bounds:
            line = start + 1 + bisect_right(breaks, lo)
            end_line = start + 1 + bisect_left(breaks, hi)
            sentence_text = text[lo:hi]
            found: tuple[Keyword, ...] = ()
            spans: tuple[tuple[int, int], ...] = ()
            code: tuple[str, ...] = ()
            if with_keywords:
                found, spans = locate_keywords(
                    sentence_text,
                    [(a - lo, b - lo) for a, b in protected.starting_within(lo, hi)],
                )
                marks.extend((a + lo, b + lo) for a, b in spans)
            if code_starts:
                code = tuple(
                    text[a:b]
                    for a, b in inline.code[
                        bisect_left(code_starts, lo) : bisect_left(code_starts, hi)
                    ]
                )
            sentences.append(
                Sentence(
                    sentence_text,
                    inline.key(lo, hi),
                    line,
                    max(line, end_line),
                    found,
                    spans,
                    code,
                )
            )
        if key is None:
            # A block whose one sentence is all of its text has that sentence's key.
            whole = len(sentences) == 1 and len(sentences[0].text) == inline.length
            key = sentences[0].key if whole else inline.key()
        self.blocks.append(
            Block(
                kind=kind,
                text=text,
                key=key,
                section=self.section,
                line=start + 1,
                end_line=max(start + 1, end),
                raw=self.raw(start, end),
                sentences=tuple(sentences),
                marks=tuple(marks),
                admonition=self.admonition,
                language=language,
                lead_in=self._lead_in_for(sentences) if led_in else None,
            )
        )
        last = sentences[-1] if sentences else None
        # A plain lead-in stands outside any list: inside one ("This can be either:") it leaves
        # the items below it to what introduces the list around them, and the outline finds it
        # only where it must (see `Outline._lead_in_ends`).
        introduces = (
            kind in _LEAD_IN_KINDS
            and last is not None
            and last.text.endswith(":")
            and (last.keywords or not self.lead_ins)
        )
        self.lead_in = last if introduces else None

    def _lead_in_for(self, sentences: list[Sentence]) -> Sentence | None:
        """The lead-in of a block of ``sentences`` in the innermost open list or table: a
        requirement's always; a plain one's ("Clients:") only for an item that goes on from it,
        naming no subject before its first keyword ("MUST retry.", or after a condition set off:
        "If hot, MUST retry."), so that the item reads with its subject."""
        lead_in = self.lead_ins[-1] if self.lead_ins else None
        if lead_in is None or lead_in.keywords:
            return lead_in
        first = sentences[0] if sentences else None
        if first is None or not first.marks:
            return None
        before = first.text[: first.marks[0][0]].rstrip()
        opening = before.split(maxsplit=1)[0].lower() if before else ""
        return lead_in if not before or (opening in CONDITIONS and before[-1] == ",") else None

    def open_list(self) -> None:
        """A list starts: a requirement just before it, or the enclosing list's, introduces it."""
        self.lead_ins.append(self.lead_in or (self.lead_ins[-1] if self.lead_ins else None))
        self.lead_in = None

    def close_list(self) -> None:
        """A list ends: one that follows with nothing readers see between them (a comment) reads
        as more of it, introduced by the same requirement."""
        self.lead_in = self.lead_ins.pop() if self.lead_ins else None

    def open_table(self) -> None:
        """A table (or an HTML list) starts: its body rows are items of the requirement right
        above it (not one whose list came between), or of the enclosing list's."""
        just_added = self.blocks[-1].sentences[-1:] if self.blocks else ()
        if self.lead_in not in just_added:
            self.lead_in = None
        self.open_list()
        self.first_row_pending = True

    def open_table_head(self) -> None:
        """A table's caption or head starts: what it holds introduces nothing and is no item;
        `close_table` ends it."""
        self.lead_ins.append(None)
        self.lead_in = None

    def close_table(self) -> None:
        """A table (or an HTML list) ends: unlike a Markdown list's end, it leaves something
        readers see before what follows, so nothing below continues its requirement."""
        if self.lead_ins:
            self.lead_ins.pop()
        self.lead_in = None

    def heading(self, level: int, inline: InlineText, span: tuple[int, int]) -> None:
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, inline.text))
        self.section = _texts(self.headings)
        self.add(BlockKind.HEADING, inline, span, keywords=False)


def _texts(headings: Sequence[tuple[int, str]]) -> tuple[str, ...]:
    return tuple(text for _, text in headings)


def walk(tokens: Sequence[Token], lines: Sequence[str], context: Context) -> _Walk:
    """Turn the tokens of ``lines`` (a window of a page, see `Context`) into blocks."""
    state = _Walk(lines, context)
    state.headings.extend(context.headings)
    state.section = _texts(context.headings)
    offset = context.line_offset
    span = (offset, offset + 1)
    index = 0
    count = len(tokens)
    while index < count:
        token = tokens[index]
        if token.map:
            span = (token.map[0] + offset, token.map[1] + offset)
        read = _READERS.get(token.type)
        if read is not None:
            index = read(state, tokens, index, span)
        index += 1
    return state


Reader = Callable[[_Walk, Sequence[Token], int, tuple[int, int]], int]
"""Reads the token at an index, and any after it that belong to it, into the walk's state, given
the lines (first, end) of the last token that had any; returns the index of the last token read."""


def _front_matter(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    title = front_matter_title(tokens[index].content)
    if title:
        state.heading(1, InlineText.of(title), span)
    return index


def _heading(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    if span[0] != state.context.title_heading_line:
        children = _without_heading_id(tokens[index + 1].children or [])
        state.heading(int(tokens[index].tag[1:]), inline_text(children), span)
    return index + 2


def _paragraph(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    block_kind = BlockKind.LIST_ITEM if state.list_item_pending else BlockKind.PARAGRAPH
    children = _without_attribute_list(
        _without_callout_label(_snippets_read(tokens[index + 1].children or [])),
        partial(_annotation_count, state, tokens, index + 3),
        state.annotated[-1] if state.annotated else None,
    )
    box = None
    if block_kind is BlockKind.LIST_ITEM:
        children, box = _without_task_box(children)
    inline = inline_text(children)
    if box is not None:
        # The box is no word; whether it is ticked counts as a link's target does.
        inline.links.insert(0, (0, box))
    state.add(block_kind, inline, span)
    return index + 2


def _term(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    """A definition list's term: a paragraph of its own, its definitions the next ones."""
    state.add(BlockKind.PARAGRAPH, inline_text(tokens[index + 1].children or []), span)
    return index + 2


def _list_item(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    state.list_item_pending = True
    state.lead_in = None
    return index


def _rule(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    state.lead_in = None
    return index


def _calling(method: Callable[[_Walk], None]) -> Reader:
    """A reader that only calls one of the walk's methods (`_Walk.open_list`)."""

    def read(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
        method(state)
        return index

    return read


def _code(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    token = tokens[index]
    language = fence_language(token.info)
    state.add(
        BlockKind.CODE,
        InlineText.verbatim(token.content.strip()),
        span,
        key=f"```{language} " + "".join(token.content.split()),
        keywords=False,
        language=language,
    )
    return index


def _abbreviation(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    state.add(BlockKind.PARAGRAPH, InlineText.of(tokens[index].content), span, keywords=False)
    return index


def _html_block(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    state.add(BlockKind.PARAGRAPH, html_inline_text(tokens[index].content), span)
    return index


def _element(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    """A component, element or shortcode, opened here or whole in one token."""
    token = tokens[index]
    name = _element_name(token) if token.type == "component_open" else ""
    if name in HTML_LISTINGS:
        # An HTML table or list reads as a Markdown one; its container opens below.
        state.listing_depths.append(len(state.containers))
        state.open_table()
    elif name in _TABLE_HEADS:
        state.listing_depths.append(len(state.containers))
        state.open_table_head()
    _component(state, token, span)
    if name == "li":
        state.list_item_pending = True
    return index


def _element_open(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    if _rendered_title(tokens, index):
        # Its paragraph holds the title, read as a `!!!` admonition's is.
        _admonition_title(state, inline_text(tokens[index + 2].children), span)
        return index + 4
    _element(state, tokens, index, span)
    return _container_open(state, tokens, index, span)


def _title(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    """An admonition's title."""
    # After `!!! note`, MkDocs reads only a quoted title: words of a CSS class are classes
    # (`!!! note inline end`), which mdit-py-plugins reads as the title.
    if tokens[index].type != "admonition_title_open" or not _CSS_CLASSES.fullmatch(
        tokens[index - 1].info
    ):
        _admonition_title(state, inline_text(tokens[index + 1].children), span)
    return index + 2


def _container_open(
    state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]
) -> int:
    token = tokens[index]
    kind = token.type
    folded = ADMONITION_TOKENS[kind](token) if kind in ADMONITION_TOKENS else None
    if folded or _element_name(token) not in WRAPPERS:
        state.lead_in = None
    state.containers.append(folded[0] if folded else None)
    state.annotated.append(
        _annotation_count(state, tokens, _closer(state, tokens, index) + 1)
        if kind == "admonition_open" and "annotate" in token.info.split()
        else state.annotated[-1]
        if state.annotated
        else None
    )
    if folded:
        state.admonitions.append(
            Admonition(folded[0], folded[1], span[0] + 1, max(span[0] + 1, span[1]))
        )
    return index


def _container_close(
    state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]
) -> int:
    if state.containers:
        state.lead_in = None
        state.containers.pop()
        state.annotated.pop()
        if state.listing_depths and state.listing_depths[-1] == len(state.containers):
            state.listing_depths.pop()
            state.close_table()
    return index


def _rendered_title(tokens: Sequence[Token], index: int) -> bool:
    """Whether the element opened at ``index`` is the title of an admonition MkDocs rendered
    (see `is_rendered_title`), holding one paragraph and nothing else."""
    return (
        index > 0
        and is_rendered_title(tokens[index - 1], tokens[index])
        and [token.type for token in tokens[index + 1 : index + 5]]
        == ["paragraph_open", "inline", "paragraph_close", "component_close"]
    )


def _element_name(token: Token) -> str:
    """The lowercase name of the element a token opens (``div``, ``Note``), or ``""``."""
    return str(token.meta.get("name", "")).lower() if token.meta else ""


def _without_task_box(children: list[Token]) -> tuple[list[Token], str | None]:
    """A list item's inline tokens without the box of a task list at their start (``[x]``, or
    the ``<input type="checkbox" checked>`` GitHub renders it as), and whether that box is
    ticked (`_TICKED`, `_UNTICKED`), or None with no box."""
    first = children[0] if children else None
    checkbox = _CHECKBOX.match(first.content) if first and first.type == "html_inline" else None
    if checkbox is not None:
        after = children[1:]
        if after and after[0].type == "text":
            after = [replace(after[0], content=after[0].content.lstrip(" \t")), *after[1:]]
        checked = _CHECKED.search(checkbox[0])
        ticked = checked is not None and checked[1] != "false"
        return after, _TICKED if ticked else _UNTICKED
    box = _TASK_BOX.match(first.content) if first is not None and first.type == "text" else None
    if first is None or box is None:
        return children, None
    rest = replace(first, content=first.content[box.end() :])
    return [rest, *children[1:]], _TICKED if box[1] in "xX" else _UNTICKED


def fence_language(info: str) -> str:
    """A code fence's language: the first word of its info string, lowercase, also where it is
    written in braces (``{.python title="jar.py"}``, as Pandoc and PyMdown's SuperFences read
    attributes; ``{python}``)."""
    words = info.split(maxsplit=1)
    if not words:
        return ""
    first = words[0]
    if first[:1] == "{":
        first = first[1:].removeprefix(".").removesuffix("}")
    return first.lower()


def _without_attribute_list(
    children: list[Token], annotations_below: Callable[[], int], annotations_around: int | None
) -> list[Token]:
    """A paragraph's inline tokens without an `ATTRIBUTE_LIST` that is its last line, and with
    MkDocs Material's annotation markers made marks where the paragraph, or the admonition
    around it, has the class ``annotate``.

    Material makes ``(N)`` a marker only where the ordered list right after the element of that
    class has an N-th item, the annotation: ``annotations_below`` counts the items of the list
    right after the paragraph, ``annotations_around`` those after the admonition (None where
    no admonition around is of the class)."""
    last = children[-1] if children else None
    attributes = (
        ATTRIBUTE_LIST.fullmatch(last.content) if last is not None and last.type == "text" else None
    )
    before = children[:-1]
    if before and before[-1].type not in ("softbreak", "hardbreak"):
        # After text on the same line it is no block's attribute list: readers see it.
        attributes = None
    kept = children if attributes is None else before[:-1]
    if annotations_around is None and (attributes is None or not ANNOTATE.search(attributes[0])):
        return kept
    return _annotation_marks(kept, max(annotations_around or 0, annotations_below()))


def _annotation_count(state: _Walk, tokens: Sequence[Token], index: int) -> int:
    """How many items the ordered list at token ``index`` has: none where no such list is
    (nor where a window of the page ends before it: see `outline`, which keeps an annotated
    block and the list below it in one window)."""
    if index >= len(tokens) or tokens[index].type != "ordered_list_open":
        return 0
    if index not in state.annotation_counts:
        level = tokens[index].level + 1
        state.annotation_counts[index] = sum(
            1
            for token in tokens[index + 1 : _closer(state, tokens, index)]
            if token.type == "list_item_open" and token.level == level
        )
    return state.annotation_counts[index]


def _closer(state: _Walk, tokens: Sequence[Token], index: int) -> int:
    """The index of the token that closes the one opened at ``index`` (the tokens' end for
    one left open)."""
    if state.closers is None:
        state.closers = {}
        opened: list[int] = []
        for position, token in enumerate(tokens):
            if token.nesting == 1:
                opened.append(position)
            elif token.nesting == -1 and opened:
                state.closers[opened.pop()] = position
    return state.closers.get(index, len(tokens))


ANNOTATE = re.compile(r"(?<![\w-])\.annotate(?![\w-])")
"""The class that makes an MkDocs Material block's ``(1)`` markers annotations."""
_ANNOTATION_MARKER = re.compile(r"[ \t]*\((\d+)\)!?")


def _annotation_marks(children: list[Token], annotations: int) -> list[Token]:
    """Inline tokens with each annotation marker (``(1)``) in their text made a mark: Material
    shows an icon there whose note (the list below) opens on a click, no word of the sentence,
    as a footnote's mark is none. Only a number of one of the ``annotations`` is a marker;
    another (``retry (3) times`` under a list of two) stays text."""
    result: list[Token] = []
    for token in children:
        if token.type != "text" or "(" not in token.content:
            result.append(token)
            continue
        position = 0
        for marker in _ANNOTATION_MARKER.finditer(token.content):
            if len(marker[1]) > 9 or not 1 <= int(marker[1]) <= annotations:
                continue
            result.append(replace(token, content=token.content[position : marker.start()]))
            result.append(Token("footnote_ref", "", 0, meta={"label": f"annotation-{marker[1]}"}))
            position = marker.end()
        result.append(replace(token, content=token.content[position:]))
    return result


def _snippets_read(children: list[Token]) -> list[Token]:
    """A paragraph's inline tokens with each line that includes a file (PyMdown's snippets, which
    MkDocs Material reads: ``--8<-- "jars.md"``, or a line ``--8<--`` alone around lines that
    each name a file) made that file's address, as an image with no words is: readers see the
    file's text in its place, never the marker, and which file it is counts as a link's target."""
    if not any(token.type == "text" and token.content.startswith(SNIPPET) for token in children):
        return children
    lines: list[list[Token]] = [[]]
    for token in children:
        if token.type in ("softbreak", "hardbreak"):
            lines.append([])
        lines[-1].append(token)
    result: list[Token] = []
    block: list[list[Token]] | None = None
    opening: list[Token] = []
    for line in lines:
        words = [token for token in line if token.type not in ("softbreak", "hardbreak")]
        text = words[0].content if len(words) == 1 and words[0].type == "text" else None
        if block is not None:
            if text is not None and text.strip() == SNIPPET:
                result.extend(_file(file) for file in block)
                block = None
            elif text is not None and text.strip():
                block.append(line)
            else:
                result.extend(token for kept in [opening, *block, line] for token in kept)
                block = None
            continue
        single = _SNIPPET_LINE.fullmatch(text) if text is not None else None
        if single is not None:
            result.append(_file([Token("text", "", 0, content=single[1].strip("\"'"))]))
        elif text is not None and text.strip() == SNIPPET:
            opening, block = line, []
        else:
            result.extend(line)
    if block is not None:
        result.extend(token for kept in [opening, *block] for token in kept)
    return result


SNIPPET = "--8<--"
"""How a line that includes a file (PyMdown's snippets) starts."""
_SNIPPET_LINE = re.compile(r"""--8<--[ \t]+("[^"\n]+"|'[^'\n]+'|[^\s"']+)[ \t]*""")


def _file(line: list[Token]) -> Token:
    """An image token with no words that stands for the file a snippet line names."""
    name = "".join(token.content for token in line if token.type == "text").strip()
    return Token("image", "img", 0, attrs={"src": name}, children=[])


def _without_heading_id(children: list[Token]) -> list[Token]:
    """A heading's inline tokens without the id written at its end (see `HEADING_ID`)."""
    last = children[-1] if children else None
    if last is None or last.type != "text" or "{" not in last.content:
        return children
    return [*children[:-1], replace(last, content=HEADING_ID.sub("", last.content))]


def _without_callout_label(children: list[Token]) -> list[Token]:
    """A paragraph's inline tokens without a leading callout label in bold (``**Note:**``,
    ``<b>Note:</b>``, or ``**Warning**`` on a line of its own), and an icon before it
    (``:warning: **Warning**``): GitHub's callouts before its alerts, whose label readers see as
    the callout's title, as they see an alert's, and whose icon as the alert's."""
    start = 0
    while (
        start < len(children)
        and children[start].type == "text"
        and (not children[start].content or _is_icon(children[start].content))
    ):
        start += 1
    opening = children[start : start + 3]
    if not (
        len(opening) == 3
        and _opens_bold(opening[0])
        and opening[1].type == "text"
        and _closes_bold(opening[2])
    ):
        return children
    label = opening[1].content.strip()
    if label.rstrip(":").lower() not in KINDS:
        return children
    rest = children[start + 3 :]
    after = next((token for token in rest if token.type != "text" or token.content), None)
    # "**Note** that …" is a sentence; a label ends in a colon or a line.
    if not (
        label.endswith(":")
        or after is None
        or after.type in ("softbreak", "hardbreak")
        or (after.type == "text" and after.content.lstrip().startswith(":"))
    ):
        return children
    while rest and (
        rest[0].type in ("softbreak", "hardbreak")
        or (rest[0].type == "text" and not rest[0].content.lstrip(": \t"))
    ):
        rest = rest[1:]
    if rest and rest[0].type == "text":
        rest = [replace(rest[0], content=rest[0].content.lstrip(": \t")), *rest[1:]]
    return rest


_LETTERLIKE_SYMBOLS = range(0x2100, 0x2150)
"""Symbols drawn from letters (``ℹ``, the information sign), which Unicode files as letters."""


def _is_icon(text: str) -> bool:
    """Whether text shows an icon alone: emoji, by name (``:warning:``) or as symbols (with
    their variation selectors and joiners)."""
    if not text.strip():
        return False
    return all(
        ord(character) > 0x7F
        and (
            category(character)[0] in "SM"
            or category(character) == "Cf"
            or ord(character) in _LETTERLIKE_SYMBOLS
        )
        for character in EMOJI_SHORTCODE.sub("", text).strip()
    )


def _table_row(state: _Walk, tokens: Sequence[Token], index: int, span: tuple[int, int]) -> int:
    row = InlineText()
    cells: set[str] = set()
    all_bold = True
    index += 1
    while index < len(tokens) and tokens[index].type != "tr_close":
        if tokens[index].type == "inline":
            if row.length:
                row.append(" | ")
            children = tokens[index].children or []
            all_bold = all_bold and _bold(children)
            inline_text(children, row)
        elif tokens[index].type in ("th_open", "td_open"):
            cells.add(tokens[index].type)
        index += 1
    # A header row (all its cells headers, or a table's first row all in bold) only names the
    # columns: no item of the requirement that introduces the table. A row that heads itself
    # (`<th scope="row">`) is one.
    header = cells == {"th_open"} or (state.first_row_pending and all_bold and bool(cells))
    state.first_row_pending = False
    state.add(BlockKind.TABLE_ROW, row, span, led_in=not header)
    return index


_BOLD_OPENERS = frozenset({"<b>", "<strong>"})
_BOLD_CLOSERS = frozenset({"</b>", "</strong>"})


def _bold(children: Sequence[Token]) -> bool:
    """Whether a cell's inline tokens are all in one run of bold (``**Field**``,
    ``<b>Field</b>``; not ``**size** or **x**``)."""
    shown = [token for token in children if token.type != "text" or token.content.strip()]
    if not shown:
        return True
    openings = [index for index, token in enumerate(shown) if _opens_bold(token)]
    return openings == [0] and _closes_bold(shown[-1]) and not any(map(_closes_bold, shown[:-1]))


def _opens_bold(token: Token) -> bool:
    return token.type == "strong_open" or (
        token.type == "html_inline" and token.content.lower() in _BOLD_OPENERS
    )


def _closes_bold(token: Token) -> bool:
    return token.type == "strong_close" or (
        token.type == "html_inline" and token.content.lower() in _BOLD_CLOSERS
    )


def _component(state: _Walk, token: Token, span: tuple[int, int]) -> None:
    attrs: dict[str, str] = token.meta["attrs"]
    name_in_syntax = (token.meta["syntax"], token.meta.get("name", ""))
    field = FIELD_ATTRIBUTES.get(name_in_syntax[1], ())
    callout = token.type == "component_open" and ADMONITION_TOKENS[token.type](token) is not None
    defaults = LABEL_DEFAULTS.get(name_in_syntax, ())
    if defaults:
        # What stands for a missing label shows as that label only (Docsy's tab `header=`).
        label = next((attrs[name] for name in defaults if attrs.get(name)), None)
        attrs = {name: value for name, value in attrs.items() if name not in defaults}
        if label is not None and not any(attrs.get(name) for name in _LABELS):
            # A callout's is its title, which the kind's name leaves unshown (see below).
            attrs["title" if callout else "label"] = label
    inline = InlineText()
    # An HTML element's (`<details name="…">`, `<div title="…">`) are no components' labels.
    html = name_in_syntax[0] == "mdx" and name_in_syntax[1][:1].islower()
    visible = HTML_VISIBLE_ATTRIBUTES if html else VISIBLE_ATTRIBUTES
    # A field's place (`header="X-Jar"`) is read as the field's, not as a card's header.
    for name in (*(name for name in visible if name not in field), *field):
        value = attrs.get(name)
        if name not in field and value in _FLAG_VALUES:
            # A flag, not words: Docsy's `{{< tabpane text=true >}}` renders its tabs' bodies as
            # Markdown; only an API field's flags (`required`) show their names.
            continue
        markdown = token.meta.get("markdown", {}).get(name)
        if markdown:
            # Rendered as Markdown (a Hugo figure's caption): its words and links.
            if inline.length:
                inline.append(" · ")
            inline_text(markdown, inline)
            continue
        shown = _shown(name, value)
        if callout and name == "title" and shown.lower() in KIND_BY_NAME:
            # A callout titled with a kind's name shows the title it would have without one,
            # as a `:::warning` or `> [!WARNING]` does: not text (see `_admonition_title`).
            continue
        if shown:
            if inline.length:
                inline.append(" · ")
            if name in field:
                # A field's name, type and default are code: `string[]` is not `string`.
                inline.append_code(shown)
            else:
                inline.append(shown)
    inline.links.extend((0, target) for target in attribute_targets(attrs))
    if html:
        hover_title(inline, attrs.get("title"))
    if name_in_syntax in _INCLUDES and attrs.get("0"):
        inline.links.append((0, attrs["0"]))
    # Where an API field goes (``query="limit"`` or ``header="limit"``) says where to send it.
    inline.links.extend(
        (0, f"in:{place}") for place in field if place in FIELD_PLACES and place in attrs
    )
    kind = BlockKind.COMPONENT
    if _element_name(token) == "step" and state.lead_ins and state.lead_ins[-1] is not None:
        # A step's title is its item's first words, as `1. **Fill**` has them: part of the
        # requirement that introduces the steps (see `HTML_LISTINGS`).
        kind = BlockKind.LIST_ITEM
    state.add(kind, inline, (span[0], span[0] + 1 if token.nesting else span[1]))


def _shown(name: str, value: str | None) -> str:
    """What readers see of an attribute: its value, or its name for a flag set without one
    (``required``, ``required={true}``); nothing for an expression (a literal in braces,
    ``default={10}``, is its value already: see `mdx.scan_tag`)."""
    if value in ("", "{true}"):
        return name
    if value is None or value.startswith("{"):
        return ""
    # A quoted value shows its entities decoded, in HTML and JSX alike (`title="a &gt; b"`).
    return unescape(value)


def _admonition_title(state: _Walk, title: InlineText, span: tuple[int, int]) -> None:
    """A callout's own title is text; a default one (a kind's name) is not."""
    if title.text.lower() not in KIND_BY_NAME:
        state.add(BlockKind.COMPONENT, title, (span[0], span[0] + 1))


_READERS: dict[str, Reader] = {
    "front_matter": _front_matter,
    "heading_open": _heading,
    "paragraph_open": _paragraph,
    "dt_open": _term,
    "list_item_open": _list_item,
    "hr": _rule,
    "bullet_list_open": _calling(_Walk.open_list),
    "ordered_list_open": _calling(_Walk.open_list),
    "bullet_list_close": _calling(_Walk.close_list),
    "ordered_list_close": _calling(_Walk.close_list),
    "fence": _code,
    "code_block": _code,
    "tr_open": _table_row,
    "table_open": _calling(_Walk.open_table),
    "table_close": _calling(_Walk.close_table),
    "abbreviation": _abbreviation,
    "html_block": _html_block,
    "component": _element,
    "component_open": _element_open,
    "alert_title_open": _title,
    "admonition_title_open": _title,
    "container_title_open": _title,
    **dict.fromkeys(
        (
            "alert_open",
            "admonition_open",
            "container_admonition_open",
            "blockquote_open",
            "footnote_reference_open",
        ),
        _container_open,
    ),
    **dict.fromkeys(
        (
            "component_close",
            "alert_close",
            "admonition_close",
            "container_admonition_close",
            "blockquote_close",
            "footnote_reference_close",
        ),
        _container_close,
    ),
}
"""What `walk` does with each kind of token it reads (any other, such as a paragraph's close,
it lets past), in the style of markdown-it's rules."""
