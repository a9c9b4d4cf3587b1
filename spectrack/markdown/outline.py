"""A cheap scan of a page: where it can be cut into independently parseable chunks, its headings.

A full markdown-it parse is the costly step of a diff, and most of a page is unchanged between two
revisions. The outline lets the differ parse only the chunks around changed lines: a chunk starts
at a non-indented line after a blank line, unless that line lies inside something that spans
blank lines — front matter, a fenced code block, a component or shortcode body, a ``:::``
container, an HTML or MDX comment. Parsed alone, such a chunk yields the same blocks as in the
whole page; link reference definitions, the title and the heading path come from the outline so
that no context is lost.

The scan is one regular-expression pass over the lines that start with a character that can open
one of those constructs or a heading; everything else is computed on demand.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Generic, TypeVar

from markdown_it.common.html_blocks import block_names

from spectrack.markdown import hugo, mdx, pymdown
from spectrack.markdown.blocks import (
    ANNOTATE,
    HTML_LISTINGS,
    SNIPPET,
    WRAPPERS,
    Context,
    front_matter_title,
)
from spectrack.markdown.hugo import TOML_FRONT_MATTER
from spectrack.markdown.inline import HEADING_ID, clean, inline_text
from spectrack.markdown.parser import INLINE_COMMENTS, Dialect, detect_dialect, parser
from spectrack.markdown.tabs import TAB_MARKER
from spectrack.normative import has_keywords

_CANDIDATE_LINE = r"[ \t]*(?:[`~<{:#/]|(?:[-+*]|\d{1,9}[.)])[ \t]+(?:`{3}|~{3}))"
"""How a line starts that can open one of the constructs the scan looks for, or a heading."""
_CANDIDATE = re.compile(rf"\n{_CANDIDATE_LINE}")
_MDX_CANDIDATE = re.compile(rf"\n(?:{_CANDIDATE_LINE}|{mdx.ESM.pattern})")
"""`_CANDIDATE`, or an MDX ``import``/``export`` statement."""
_TAG_LINE = re.compile(r"</?([A-Za-z][\w.:-]*)(?:\s[^<>]*)?/?>")
"""An element's tag alone on its line: the parser reads it as a block of its own."""
_HTML_BLOCK_NAMES = frozenset(block_names)
"""Tag names that open an HTML block wherever they start a line (CommonMark's sixth kind)."""
_BLANK_LINE = mdx.BLANK_LINE
_SETEXT = re.compile(r"\n {0,3}(=+|-+)[ \t]*(?=\n|$)")
_LIST_ITEM = re.compile(r"(?:[-+*]|\d{1,9}[.)])[ \t]+\S")
_QUOTE_MARKERS = re.compile(r" {0,3}>")
_ITEM_START = re.compile(r" *(?:[-+*]|\d{1,9}[.)])(?: {1,4}|\t)(?=\S)")
"""A list item's marker with the spaces after it: where the item's content starts."""
_ORDERED_MARKER = re.compile(r"(\d{1,9})[.)]")
_TABLE_DELIMITER = re.compile(
    r" {0,3}(?=[^|\n]*\|)\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*(?:\|[ \t]*)?$"
)
"""A table's delimiter row (``|---|:--:|``), which holds a pipe somewhere."""
_DEFINITION = re.compile(r"[:~][ \t]")
"""A definition list's definition, under its term (see `parser`'s definition lists)."""


def _opening(names: frozenset[str]) -> re.Pattern[str]:
    """A line that opens one of the elements ``names``, as the parser reads them: an HTML or
    JSX tag (``<Steps>``) or a Hugo shortcode (``{{% steps %}}``, ``{{< steps >}}``), whose
    names `blocks.walk` reads alike (see `blocks.HTML_LISTINGS`)."""
    alternatives = "|".join(sorted(names))
    return re.compile(
        rf" {{0,3}}(?:<(?:{alternatives})[\s>]|\{{\{{[<%]\s*(?:{alternatives})(?![\w./-]))",
        re.IGNORECASE,
    )


_HTML_LISTING = _opening(HTML_LISTINGS)
_HTML_WRAPPER = _opening(WRAPPERS)
_ANNOTATE_ATTRIBUTES = re.compile(r"\{[^{}\n]*" + ANNOTATE.pattern + r"[^{}\n]*\}[ \t]*$")
"""An attribute list that gives a block the class ``annotate`` (see `blocks.ANNOTATE`)."""
_THEMATIC_BREAK = re.compile(r"(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_FRONT_MATTER_OPENING = re.compile(r"-{3,}")
_FENCE = re.compile(r"[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})(.*)")
"""A fence, also as the first line of a list item's content (``- ```json``)."""
_ATX_HEADING_TEXT = r"(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$"
_ATX_HEADING = re.compile(r" {0,3}" + _ATX_HEADING_TEXT)
_MDX_ATX_HEADING = re.compile(r"[ \t]*" + _ATX_HEADING_TEXT)
"""`_ATX_HEADING` in MDX, where indentation makes no code: indented as deep as it may be."""
_CONTAINER = re.compile(r"[ \t]*(:{3,})[ \t]*(\S*)")
_CONTAINER_CLOSING = re.compile(r"\n(?P<outside>[ \t]*(:{3,})[ \t]*)(?=\n|\Z)")
"""A line that closes a container (see `_CONTAINER`), after the newline before it: one with
as many colons as the container's opening line, or more."""
_REFERENCE_LABEL = r"\[(?!\^[^\] \n]+\]:)[^\]\n]+\]:"
"""A link reference definition's label and its colon; a footnote's (``[^1]:``) is none."""
_REFERENCE = re.compile(
    r"\n( {0,3}" + _REFERENCE_LABEL + r"(?:[ \t]*\S.*|[ \t]*\n[ \t]+\S.*))(?=\n|\Z)"
)
"""A link reference definition after a newline (a leading literal makes the search fast). A
footnote's (``[^1]: …``) is none: its text is a paragraph, which lines below it go on."""
_FOOTNOTE_DEFINITION = re.compile(r" {0,3}\[\^[^\]\s]+\]:")
_ABBREVIATION = re.compile(r" {0,3}\*\[[^\]\n]+\]:")
"""An abbreviation's definition (``*[HTML]: …``, see `abbreviations`), Markdown pages only."""
_NESTED_REFERENCE = re.compile(
    r"\n[ \t>]*(" + _REFERENCE_LABEL + r"(?:[ \t]*\S.*|[ \t]*\n[ \t>]+\S.*))(?=\n|\Z)"
)
"""A link reference definition as `_REFERENCE` finds it, also inside a quote, an admonition, a
content tab or a footnote (after ``>`` markers or indented as deep): markdown-it reads those
too, and their labels serve the whole page."""
_NESTING_MARKS = " \t>"
"""What a definition's lines inside a quote or a container start with (see
`_NESTED_REFERENCE`), dropped to read it alone."""
_ATX_START = re.compile(r"#{1,6}(?:[ \t]|$)")
_SHOWS_NOTHING = re.compile(
    r"(?:\s|<!--(?:[^-]|-(?!->))*-->|</?[A-Za-z][^<>]*>|\{/\*(?:[^*]|\*(?!/\}))*\*/\}"
    r"|!?\[\]\([^()\s]*\)|\[\^[^\]\s]+\]|\n[ \t]*" + re.escape(SNIPPET) + r"[^\n]*(?=\n|\Z)"
    r"|&(?:nbsp|ZeroWidthSpace|#0*160|#0*8203|#x0*a0|#x0*200b);)*",
    re.IGNORECASE,
)
"""Text that shows no words: whitespace, comments (HTML, MDX), tags, an image or a link without
words, a footnote's mark, a line that includes a file (see `blocks.SNIPPET`), a space
written as an entity; a comment cannot run past its end, nor a snippet's line past its own, so
the pattern has one way to match, in linear time."""
_COLON = re.compile(r":|&(?:colon|#0*58|#x0*3a);", re.IGNORECASE)
"""A colon, also written as an entity."""
_LONGEST_HIDDEN_TAIL = 400
"""Most characters after a paragraph's last colon looked at to see whether they show nothing:
a bound that keeps a long paragraph from being searched to its end."""


def _colon_then_nothing(text: str) -> bool:
    """Whether the last colon of a paragraph's ``text`` is followed only by text that shows
    nothing (see `_SHOWS_NOTHING`)."""
    colons = list(_COLON.finditer(text, max(0, len(text) - _LONGEST_HIDDEN_TAIL)))
    return bool(colons) and _SHOWS_NOTHING.fullmatch(text, colons[-1].end()) is not None


_INLINE_MARKUP = re.compile(r"[\\`*_\[\]<>&{}!~]")
_FENCES = ("```", "~~~")
_MARKUP = ("<", "{")
"""How a line of HTML, MDX or a shortcode starts: it may show no text at all."""
_NOT_PARAGRAPH = ("#", "|", ">", *_FENCES)
"""How a line starts that ends a paragraph or stands outside one (with `_MARKUP`)."""
_NOT_SETEXT_TEXT = (" " * 4, "\t", ">", "#", "<", "|", "```", "~~~")
_ADMONITION_MARKER = re.compile(r"(?:\?\?\?\+|!!!|\?\?\?)( *)\S")
"""The first line of a ``!!!`` admonition, marked at the margin: a tag must follow the marker,
and its body is the lines indented three columns past the spaces after the marker."""
_LEAST_ADMONITION_BODY = 3
"""The least indentation of an admonition's body (``!!!note``)."""
_BRACE_COMMENTS = tuple((opener, closer) for _, opener, closer in INLINE_COMMENTS)
"""The comments that start with a brace, MDX's and Hugo's: how each opens and closes."""
_RAW_RUN_STARTS = frozenset("<ie")
"""The characters a line that opens raw lines (see `_Scan._raw_run`) starts with, its
indentation set aside: a tag's, an ``import``'s or an ``export``'s."""


@dataclass(frozen=True, slots=True)
class Heading:
    line: int
    """0-based line of the heading's text."""
    level: int
    source: str
    """The heading's inline Markdown."""


Answer = TypeVar("Answer")


@dataclass(frozen=True, slots=True)
class _Found(Generic[Answer]):
    """What a walk from line to line found (see `_walk_remembering`)."""

    answer: Answer


def _walk_remembering(
    memo: dict[int, Answer], line: int, step: Callable[[int], int | _Found[Answer]]
) -> Answer:
    """Walk the lines from ``line``: ``step`` names the next line to look at, or the answer.

    Every line passed on the way leads to the same answer, so each is kept in ``memo`` with it,
    and a later walk stops at the first line it holds: a long run of lines leading to one
    answer (lazy lines, markup, the rows of a table, the lines of an item) is walked once, not
    once per line in it.
    """
    visited = []
    while (answer := memo.get(line)) is None:
        visited.append(line)
        following = step(line)
        if isinstance(following, _Found):
            answer = following.answer
            break
        line = following
    for seen in visited:
        memo[seen] = answer
    return answer


def _marker_spaces(text: str) -> str | None:
    """The spaces after the marker of a ``!!!`` admonition or a ``===`` content tab that opens
    ``text``, or None: both bodies are indented three columns past them, and end alike."""
    found = _ADMONITION_MARKER.match(text) or TAB_MARKER.match(text)
    return None if found is None else found[1]


class _Spans:
    """Closed line intervals that chunks may not cut, merged and searchable."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for first, last in sorted(spans):
            if merged and first <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        self.firsts = [first for first, _ in merged]
        self.lasts = [last for _, last in merged]

    def covering(self, line: int) -> int | None:
        """The first line of the span that holds ``line`` past its first line, if any."""
        index = bisect_left(self.firsts, line) - 1
        if index >= 0 and line <= self.lasts[index]:
            return self.firsts[index]
        return None

    def starts_at(self, line: int) -> bool:
        index = bisect_left(self.firsts, line)
        return index < len(self.firsts) and self.firsts[index] == line

    def last_of(self, first: int) -> int:
        return self.lasts[bisect_left(self.firsts, first)]


@dataclass(slots=True)
class Outline:
    text: str
    dialect: Dialect
    lines: list[str]
    headings: list[Heading]
    title: str | None
    """The front-matter title, else the text of the first H1."""
    body_start: int
    """0-based line after the front matter (0 without front matter)."""
    blocked: _Spans
    fenced: _Spans
    """The fenced code blocks: their lines are code, never link reference definitions."""
    front_matter_title: bool = False
    title_heading_line: int | None = None
    """0-based line of a leading H1 that repeats the front-matter title."""
    _plain: dict[int, str] = field(default_factory=dict)
    _introduced: dict[int, bool] = field(default_factory=dict)
    """Line → whether the list it belongs to follows a line ending in a colon (see
    `_introduced_item`), for the lines looked at so far."""
    _in_item: dict[int, bool] = field(default_factory=dict)
    """Line → whether a lazy line right below it would continue a list item (see `_lazy`), for
    the lines looked at so far."""
    _listed_items: dict[int, bool] = field(default_factory=dict)
    """Line → whether an item numbered past 1 right below it is one (see `_listed`), for the
    lines looked at so far."""
    _chunk_before: dict[int, int] = field(default_factory=dict)
    """Line → `chunk_start_at_or_before` of it, for the lines looked at so far."""
    _chunk_after: dict[int, int] = field(default_factory=dict)
    """Line → `chunk_start_at_or_after` of it, for the lines looked at so far."""
    _content_after: dict[int, int] = field(default_factory=dict)
    """Line → `_after_markup` of it, for the lines looked at so far."""
    _references: dict[str, Any] | None = None
    _definitions: list[str] | None = None
    _heading_lines: list[int] | None = None
    _paths: list[tuple[Heading, ...]] = field(default_factory=list)
    """The heading path in force after each heading, built on first use."""

    def is_chunk_start(self, line: int) -> bool:
        """Whether the page can be cut before ``line`` without changing how either part parses.

        That is before a line at the left margin that follows a blank line; or that opens a fenced
        code block or is a heading, or follows a heading or a closing fence (each ends what came
        before); or, between the items of a list, that is the next item (parsed alone, it is the
        same item).
        """
        if line <= 0 or line == self.body_start or line >= len(self.lines):
            return True
        current = self.lines[line]
        if not current or current[0].isspace() or self.blocked.covering(line) is not None:
            return False
        if self.dialect is Dialect.MARKDOWN and _DEFINITION.match(current):
            # A definition belongs to the term above it, blank lines between.
            return False
        if self._introduced_item(line) or self._markup_before_introduced_list(line):
            return False
        previous = self.lines[line - 1]
        if not previous.strip() or _ATX_START.match(current) or _ATX_START.match(previous):
            return self.blocked.covering(line - 1) is None or not previous.strip()
        if current.startswith(_FENCES) and self.blocked.starts_at(line):
            return True
        if previous.startswith(_FENCES):
            first = self.blocked.covering(line - 1)
            if first is not None and self.blocked.last_of(first) == line - 1:
                return self.lines[first].startswith(_FENCES)
        return self._item_follows_item(line)

    def _introduced_item(self, line: int) -> bool:
        """Whether ``line`` is an item of a list that a line ending in a colon introduces.

        The list may be part of a requirement ("Servers MUST reject a request when:"), or its
        items may go on from a subject ("Clients:" then "MUST retry."): its items are read with
        that sentence, so no window may start between them and it.
        """
        if not (
            (_LIST_ITEM.match(self.lines[line]) and not _THEMATIC_BREAK.match(self.lines[line]))
            or self._opens_listing(line)
        ):
            return False

        def step(previous: int) -> int | _Found[bool]:
            if previous < self.body_start:
                return _Found(False)
            text = self.lines[previous]
            first = self.blocked.covering(previous)
            if first is not None and self._shows_nothing(first):
                # Markup that may show no text (a comment, ``<div id="…" />``) does not part a
                # list from its lead-in for the parser, so it does not here either; and where
                # it holds text, that text may be the lead-in (see `_text_may_lead_in`).
                if self._text_may_lead_in(first, previous, line):
                    return _Found(True)
                return first - 1
            content = text.lstrip()
            if not content or _LIST_ITEM.match(content):
                return previous - 1
            if _ANNOTATE_ATTRIBUTES.search(content) or (
                _ADMONITION_MARKER.match(text) and "annotate" in text.split()
            ):
                # A list below a block of the class `annotate` may hold its annotations, which
                # tell which of its `(1)` markers are markers (see `blocks._annotation_count`).
                return _Found(True)
            at_margin = not text[0].isspace()
            # A line that may end a requirement keeps the list with it, whether it is a
            # paragraph of its own or an item's line (indented or lazy) in a list started above,
            # and also where it starts like markup: "<b>Servers</b> MUST:" is text.
            if (
                (_COLON.search(text) or self._hides_its_end(previous))
                and not (at_margin and _ATX_START.match(text))
                and self._lead_in_ends(previous, line)
            ):
                return _Found(True)
            if self._shows_nothing(previous):
                return previous - 1
            if at_margin and not self._lazy(previous):
                return _Found(False)
            return previous - 1

        return _walk_remembering(self._introduced, line - 1, step)

    def _text_may_lead_in(self, first: int, last: int, item: int) -> bool:
        """Whether the last line of text in the markup on lines ``first`` to ``last`` may end
        a lead-in of the list ``item`` is in: a component's closing tag right below a paragraph
        line (``Servers MUST:`` then ``</TabItem>``) is more of that paragraph in MDX, and
        nothing readers see stands between its colon and the list."""
        for line in range(last, first - 1, -1):
            text = self.lines[line].lstrip()
            if text and not text.startswith(_MARKUP):
                return bool(
                    _COLON.search(text) or self._hides_its_end(line)
                ) and self._lead_in_ends(line, item)
        return False

    def _opens_listing(self, line: int) -> bool:
        """Whether ``line`` starts a table (a Markdown table's header row, an HTML ``<table>``)
        or an HTML list, whose rows or items a lead-in introduces as it does a Markdown list's
        items (see `_introduced_item`)."""
        text = self.lines[line]
        if _HTML_WRAPPER.match(text):
            # A wrapper that only lays out the table or list it holds (see `blocks.WRAPPERS`);
            # one wrapper deep, so that a run of markup is not read again from every line of it.
            following = line + 1
            while following < len(self.lines) and not self.lines[following].strip():
                following += 1
            return (
                following < len(self.lines)
                and _HTML_WRAPPER.match(self.lines[following]) is None
                and self._opens_listing(following)
            )
        return _HTML_LISTING.match(text) is not None or (
            "|" in text
            and line + 1 < len(self.lines)
            and _TABLE_DELIMITER.match(self.lines[line + 1]) is not None
        )

    def _markup_before_introduced_list(self, line: int) -> bool:
        """Whether ``line`` opens markup (a comment, an element) or a link reference definition
        that stands between a list and the lead-in that introduces it (see `_introduced_item`)."""
        if self.lines[line].strip() and not self._shows_nothing(line):
            # Most lines show text: the walk past markup would stop at once.
            return False
        following = self._after_markup(line)
        return following > line and following < len(self.lines) and self._introduced_item(following)

    def _after_markup(self, line: int) -> int:
        """The first line from ``line`` on that is neither blank nor shows nothing (see
        `_shows_nothing`), or that opens an HTML list or table (``<ol>``, ``<Steps>``: markup
        too, but what a lead-in introduces), or the page's length."""

        def step(following: int) -> int | _Found[int]:
            if following >= len(self.lines):
                return _Found(len(self.lines))
            text = self.lines[following]
            if not text.strip():
                return following + 1
            if self._shows_nothing(following) and not self._opens_listing(following):
                if self.blocked.starts_at(following):
                    return self.blocked.last_of(following) + 1
                return following + 1
            return _Found(following)

        return _walk_remembering(self._content_after, line, step)

    def _shows_nothing(self, line: int) -> bool:
        """Whether ``line`` starts what may show no text: markup (see `_MARKUP`), a link
        reference definition, an MDX ``import``/``export`` statement. (Taking a paragraph's line
        that reads like one of these for it only keeps more lines together.)"""
        text = self.lines[line]
        if text.startswith(_MARKUP):
            return True
        if self.fenced.covering(line) is not None:
            return False
        # A definition holds "]:", which is quicker to look for than to match one.
        return ("]:" in text and _REFERENCE.match("\n" + text) is not None) or (
            self.dialect is Dialect.MDX and mdx.ESM.match(text) is not None
        )

    def _lazy(self, line: int) -> bool:
        """Whether ``line``, unindented plain text, continues a list item above it (a lazy
        continuation line: no blank line between them)."""
        text = self.lines[line]
        if _ATX_START.match(text) or _THEMATIC_BREAK.match(text) or text.startswith(_FENCES):
            return False

        def step(above: int) -> int | _Found[bool]:
            if above < self.body_start:
                return _Found(False)
            text = self.lines[above]
            if not text.strip() or text.startswith((*_MARKUP, *_FENCES)) or _ATX_START.match(text):
                return _Found(False)
            if text[0].isspace() or _LIST_ITEM.match(text):
                return _Found(True)
            return above - 1

        return _walk_remembering(self._in_item, line - 1, step)

    def _lead_in_ends(self, line: int, item: int) -> bool:
        """Whether the paragraph holding ``line``, the last before the list ``item`` is in, may
        end in a colon and either hold a keyword or stand outside any list (a plain lead-in,
        "Clients:", see `blocks._Walk.add`).

        Any colon on its last line counts: the parser decides on its text without markup, where
        a colon inside code, a link or an element can end it; so does one that only markup
        showing nothing follows ("Clients: <!-- … -->" over two lines).
        """
        last = line
        # Where an indented item is more of the paragraph instead (indented four columns, or
        # numbered past 1), stopping early only keeps more lines whole.
        while (
            last + 1 < item
            and (following := self.lines[last + 1].lstrip())
            and not _LIST_ITEM.match(following)
            and not following.startswith(_MARKUP)
        ):
            last += 1
        if not _COLON.search(self.lines[last]) and not _colon_then_nothing(self._tail(last)):
            return False
        first = line
        # The paragraph of an item starts at the item's marker, where it surely is an item.
        while (
            first > self.body_start
            and self.lines[first - 1].strip()
            and not (_LIST_ITEM.match(self.lines[first].lstrip()) and self._listed(first))
        ):
            first -= 1
        # Only an item's marker surely puts the paragraph in a list: an indented one may be a
        # paragraph of its own, and is taken for one.
        in_a_list = _LIST_ITEM.match(self.lines[first].lstrip()) and self._listed(first)
        return not in_a_list or has_keywords("\n".join(self.lines[first : last + 1]))

    def _hides_its_end(self, line: int) -> bool:
        """Whether ``line`` ends a paragraph (a blank line or an item follows) with markup that
        may show nothing, after which a colon further up may end it (see `_colon_then_nothing`)."""
        following = self.lines[line + 1] if line + 1 < len(self.lines) else ""
        text = self.lines[line]
        return (text.rstrip().endswith((">", "}", ")", "]", ";")) or _snippet_line(text)) and (
            not following.strip() or _LIST_ITEM.match(following.lstrip()) is not None
        )

    def _tail(self, last: int) -> str:
        """The end of the paragraph whose last line is ``last``: its lines back to a blank one,
        `_LONGEST_HIDDEN_TAIL` characters at the most, so that each look costs a bounded time."""
        lines: list[str] = []
        size = 0
        line = last
        while line >= self.body_start and self.lines[line].strip() and size < _LONGEST_HIDDEN_TAIL:
            lines.append(self.lines[line])
            size += len(self.lines[line]) + 1
            line -= 1
        return "\n".join(reversed(lines))

    def _item_follows_item(self, line: int) -> bool:
        current = self.lines[line]
        if not _LIST_ITEM.match(current) or _THEMATIC_BREAK.match(current):
            return False
        previous = line - 1
        while previous > self.body_start and self.lines[previous][:1].isspace():
            previous -= 1
        text = self.lines[previous]
        return (
            bool(text.strip())
            and bool(_LIST_ITEM.match(text))
            and not _THEMATIC_BREAK.match(text)
            and self._listed(line)
        )

    def _listed(self, line: int) -> bool:
        """Whether ``line``, which starts like a list item, surely is one. An item numbered
        other than 1 cannot interrupt a paragraph: it is one only in a run of such items that
        starts a list (below a blank line, a heading, the page's start) or goes on from an
        item that may interrupt one; below other text it may be more of a paragraph."""
        if not _ordered_not_first(self.lines[line]):
            return True

        def step(above: int) -> int | _Found[bool]:
            text = self.lines[above] if above >= self.body_start else ""
            if not text.strip() or _ATX_START.match(text):
                # The run starts a list, unless its first line is indented text (a paragraph,
                # or more of an item above a blank line: unsure), or indented code that a less
                # indented line ends (which opens a paragraph).
                first = self.lines[above + 1]
                if self.dialect is Dialect.MARKDOWN and _columns(first) >= 4:
                    return _Found(self._code_runs_into_item(above + 1))
                return _Found(not first[:1].isspace())
            if text[0].isspace() and self._below_fenced_item(above):
                return _Found(False)
            if text[0].isspace() or _ordered_not_first(text):
                return above - 1
            return _Found(bool(_LIST_ITEM.match(text)) and not _THEMATIC_BREAK.match(text))

        return _walk_remembering(self._listed_items, line - 1, step)

    def _code_runs_into_item(self, line: int) -> bool:
        """Whether the indented code starting at ``line`` runs straight into the unindented line
        below it: a line indented less than code is, on the way, opens a paragraph instead."""
        while (text := self.lines[line])[:1].isspace():
            if text.strip() and _columns(text) < 4:
                return False
            line += 1
        return True

    def _below_fenced_item(self, line: int) -> bool:
        """Whether ``line``, indented, is right below a fenced block in a list item and indented
        less than the item's content: no lazy line goes on a fence, so the item ends above it."""
        last = line - 1
        first = last if self.fenced.starts_at(last) else self.fenced.covering(last)
        if first is None or self.fenced.last_of(first) != last:
            return False
        return _columns(self.lines[line]) < _content_column(self.lines[first])

    def chunk_start_at_or_before(self, line: int) -> int:
        def step(line: int) -> int | _Found[int]:
            if self.is_chunk_start(line):
                return _Found(line)
            first = self.blocked.covering(line)
            return first if first is not None else line - 1

        return _walk_remembering(self._chunk_before, line, step)

    def chunk_start_at_or_after(self, line: int) -> int:
        def step(line: int) -> int | _Found[int]:
            if self.is_chunk_start(line):
                return _Found(min(line, len(self.lines)))
            first = self.blocked.covering(line)
            return self.blocked.last_of(first) + 1 if first is not None else line + 1

        return _walk_remembering(self._chunk_after, line, step)

    def heading_text(self, heading: Heading) -> str:
        text = self._plain.get(heading.line)
        if text is None:
            if _INLINE_MARKUP.search(heading.source) is None:
                text = clean(heading.source)
            else:
                # A reference link in the heading reads as a link only with the page's definitions.
                env = {"references": self.references}
                tokens = parser(self.dialect).parseInline(heading.source, env)
                text = inline_text(tokens[0].children if tokens else None).text
            text = HEADING_ID.sub("", text)
            self._plain[heading.line] = text
        return text

    def context_at(self, line: int) -> Context:
        """What a window starting at ``line`` inherits: its heading path, the title rule."""
        if self._heading_lines is None:
            self._heading_lines = [heading.line for heading in self.headings]
            stack: list[Heading] = []
            for heading in self.headings:
                if heading.line != self.title_heading_line:
                    while stack and stack[-1].level >= heading.level:
                        stack.pop()
                    stack.append(heading)
                self._paths.append(tuple(stack))
        index = bisect_left(self._heading_lines, line)
        path = [(h.level, self.heading_text(h)) for h in (self._paths[index - 1] if index else ())]
        if self.front_matter_title and self.title and line > 0 and not (path and path[0][0] == 1):
            path.insert(0, (1, self.title))
        return Context(line, tuple(path), self.title_heading_line)

    @property
    def title_context(self) -> tuple[str | None, bool, bool]:
        """What decides how the title reads: its text, whether front matter gave it, and
        whether a leading H1 repeats it."""
        return self.title, self.front_matter_title, self.title_heading_line is not None

    @property
    def definitions(self) -> list[str]:
        """The source of every link reference definition (``[label]: target``), in page order.

        The order matters: when a label is defined twice, the first definition on the page wins.
        """
        if self._definitions is None:
            self._definitions = []
            if "]:" in self.text:
                text = "\n" + self.text
                line, position = -1, 0
                for match in _NESTED_REFERENCE.finditer(text):
                    line += text.count("\n", position, match.start() + 1)
                    position = match.start() + 1
                    if self.fenced.covering(line) is None:
                        self._definitions.append(
                            "\n".join(part.lstrip(_NESTING_MARKS) for part in match[1].split("\n"))
                        )
        return self._definitions

    @property
    def references(self) -> dict[str, Any]:
        """markdown-it's ``env["references"]`` for the whole page, parsed on first use.

        Each label maps to its first definition's ``href`` and ``title`` (markdown-it keeps the
        first one it reads); where the definition stands is left out, so two pages whose
        definitions point at the same targets have equal references.
        """
        if self._references is None:
            self._references = {}
            definitions = self.definitions
            if definitions:
                env: dict[str, Any] = {}
                parser(self.dialect).parse("\n\n".join(definitions), env)
                self._references = {
                    label: {"href": found["href"], "title": found["title"]}
                    for label, found in env.get("references", {}).items()
                }
        return self._references


def outline(text: str, name: str = "") -> Outline:
    """Scan a page (already through `hugo.resolve_links`) without parsing it."""
    dialect = detect_dialect(text, name)
    lines = text.split("\n")
    spans: list[tuple[int, int]] = []
    mdx = dialect is Dialect.MDX
    title, body_start = _front_matter(text, spans, mdx)
    scan = _Scan(text, lines, spans, mdx=mdx)
    blocked = scan.run(body_start)
    page = Outline(
        text, dialect, lines, scan.headings, title, body_start, blocked, _Spans(scan.fenced)
    )
    page.front_matter_title = title is not None
    first_h1 = next((h for h in page.headings if h.level == 1), None)
    if first_h1 is not None:
        first_h1_text = page.heading_text(first_h1)
        if page.title is None:
            page.title = first_h1_text
        elif first_h1_text == page.title and not "".join(lines[body_start : first_h1.line]).strip():
            page.title_heading_line = first_h1.line
    return page


def _goes_on_lazily(text: str) -> bool:
    """Whether paragraph text right below a line goes on the paragraph that line opens in a
    list item or a quote (a lazy line): the line is an item's or a quote's first line of text."""
    item = _ITEM_START.match(text)
    if item is not None:
        content = text[item.end() :]
    elif _QUOTE_MARKERS.match(text):
        content = text.lstrip(" >\t")
    else:
        return False
    return bool(content.strip()) and not content.startswith(("#", *_FENCES))


def _snippet_line(text: str) -> bool:
    """Whether a line includes a file, or opens or closes lines that each name one (PyMdown's
    snippets, ``--8<-- "jars.md"``): readers see the file's text, never the line."""
    return text.lstrip(" \t").startswith(SNIPPET)


def _alone_shortcode(stripped: str) -> bool:
    """Whether a line, stripped, is one Hugo shortcode (``{{< tab >}}``, ``{{% /notice %}}``)."""
    return (
        stripped.startswith(("{{<", "{{%"))
        and stripped.endswith((">}}", "%}}"))
        and stripped.find("}}") == len(stripped) - 2
    )


def _alone_comment(stripped: str, opener: str, closer: str) -> bool:
    """Whether a line, stripped, is one comment that opens with ``opener``."""
    return (
        stripped.startswith(opener)
        and stripped.endswith(closer)
        and stripped.find(closer, len(opener)) == len(stripped) - len(closer)
    )


def _ends_itself(line: str, after_text: bool) -> bool:
    """Whether nothing a line is part of goes on below it, so a block may start there: a blank
    line, a heading, a rule, a setext underline (``after_text``: below a line of paragraph
    text), a container's or an admonition's marker, an HTML comment, the tag of a block-level
    HTML name alone on the line (which ends a paragraph above it); and, where no paragraph
    goes on into them (not ``after_text``), an element's or a shortcode's tag, an MDX comment
    or a link reference definition alone on the line."""
    text = line.strip()
    tag = _TAG_LINE.fullmatch(text)
    if tag is not None and _columns(line) < 4 and tag[1].lower() in _HTML_BLOCK_NAMES:
        return True
    if (
        not text
        or _ATX_START.match(text)
        or text.startswith(":::")
        or _marker_spaces(text) is not None
    ):
        return True
    if not text.strip("-*_ \t"):
        return True
    if not text.strip("= \t"):
        return after_text
    if text.startswith("<!--") and text.endswith("-->"):
        return True
    return not after_text and (
        tag is not None
        or hugo.SHORTCODE.fullmatch(text) is not None
        or any(text.startswith(o) and text.endswith(c) for o, c in _BRACE_COMMENTS)
        or _REFERENCE.match("\n" + line) is not None
    )


def _indent(line: str) -> int:
    """How many spaces a line starts with."""
    return len(line) - len(line.lstrip(" "))


def _content_column(line: str) -> int:
    """Where a line's text starts: after its list marker when it opens an item, else after its
    indentation."""
    item = _ITEM_START.match(line)
    return item.end() if item else _columns(line)


def _columns(line: str) -> int:
    """How many columns a line is indented, a tab reaching the next multiple of four."""
    column = 0
    for character in line:
        if character == " ":
            column += 1
        elif character == "\t":
            column += 4 - column % 4
        else:
            break
    return column


def _is_text(line: str) -> bool:
    """Whether a line reads as paragraph text (what a paragraph goes on into)."""
    content = line.lstrip(" ")
    return (
        bool(content.strip())
        and not content.startswith(_MARKUP)
        and _continues_paragraph(content)
        and not _ATX_START.match(content)
        and bool(content.strip("=-*_ \t"))
    )


def _ordered_not_first(text: str) -> bool:
    """Whether a line starts like an ordered list item numbered other than 1 (indented by at
    most three spaces)."""
    marker = _ORDERED_MARKER.match(text.lstrip(" "))
    return marker is not None and int(marker[1]) != 1 and _indent(text) < 4


def _continues_paragraph(content: str) -> bool:
    """Whether a line's content (its indentation set aside) may be more text of a paragraph,
    rather than a list item, a table row, a quote or a fence."""
    return not (content.startswith(_NOT_PARAGRAPH) or _LIST_ITEM.match(content))


def _opens_paragraph(text: str) -> bool:
    """Whether a line after a blank one opens a paragraph outside any list (an indented line
    may be more of a list item above the blank line, and is not taken for one)."""
    return not text[:1].isspace() and _continues_paragraph(text)


@cache
def _fence_end(marker: str, column: int, mdx: bool) -> re.Pattern[str]:
    """A line that can close a fence opened by ``marker``: as many marker characters or more,
    then only whitespace, indented less than code is (any depth in ``mdx``, which reads no
    indented code). For a fence opening a list item whose content starts at ``column``, the
    closing line is indented as the content is, and a line indented less (``outside``) ends
    the item and the fence."""
    closing = rf"{re.escape(marker[0])}{{{len(marker)},}}[^\S\n]*(?=\n|\Z)"
    if not column:
        indent = r"[ \t]*" if mdx else " {0,3}"
        return re.compile(rf"\n{indent}{closing}")
    # A tab in the indentation may reach the item's content too: `_Scan._line` counts columns.
    return re.compile(
        rf"\n(?:(?: {{{column},{column + 3}}}| *\t[ \t]*){closing}"
        rf"|(?P<outside> {{0,{column - 1}}}[^\s]))"
    )


def _front_matter(text: str, spans: list[tuple[int, int]], mdx: bool) -> tuple[str | None, int]:
    """The front matter's title and the line after it, read as mdit-py-plugins' rule reads it:
    three or more dashes open it at the page's start; a line of as many dashes or more (indented
    less than a code block, in Markdown), or an unindented ``...``, closes it."""
    toml = TOML_FRONT_MATTER.match(text) if text.startswith("+++") else None
    if toml is not None:
        last = text.count("\n", 0, toml.end() - 1)
        spans.append((0, last))
        return front_matter_title(toml[1] or ""), last + 1
    opening = _FRONT_MATTER_OPENING.match(text)
    body = text.find("\n") + 1
    if opening is None or not body:
        return None, 0
    end = _front_matter_closing(len(opening[0]), mdx).search(text, body)
    if end is None:
        return None, 0
    last = text.count("\n", 0, end.start())
    spans.append((0, last))
    return front_matter_title(text[body : end.start()]), last + 1


@cache
def _front_matter_closing(dashes: int, mdx: bool) -> re.Pattern[str]:
    indentation = "[ \t]*" if mdx else " {0,3}"
    return re.compile(rf"^(?:\.\.\.[ \t]*|{indentation}-{{{dashes},}}[ \t]*)$", re.M)


class _Scan:
    """One pass over candidate lines, collecting headings and the spans chunks may not cut."""

    def __init__(
        self, text: str, lines: list[str], spans: list[tuple[int, int]], *, mdx: bool = False
    ) -> None:
        self.text = text
        self.mdx = mdx
        """Whether the page is MDX: ``import``/``export`` statements are read, and indentation
        makes no code."""
        self.lines = lines
        self.spans = spans
        self.headings: list[Heading] = []
        self.fence: tuple[int, str, int] | None = None
        """The open fenced block: its first line, its marker and, when it opens a list item
        (``- ```json``), the item's content column (else 0)."""
        self.fenced: list[tuple[int, int]] = []
        """The fenced code blocks found, also among ``spans``."""
        self.containers: list[tuple[int, int]] = []
        """The opening lines of the ``:::`` containers not yet closed, innermost last, each with
        its number of colons."""
        self.pymdown_blocks: list[int] = []
        """The opening lines of the PyMdown blocks (``/// note``) not yet closed, innermost last."""
        self.comments: list[tuple[int, int]] = []
        """The HTML and MDX comments and the MDX ``import``/``export`` statements that span
        lines, also among ``spans``: no heading is inside them."""
        self.skip_to = 0
        """Offset before which elements and shortcodes lie inside a span already recorded."""
        self.comment_to = 0
        """Offset of the end of the last line of the latest comment found that spans lines: the
        parser reads the lines up to it raw, so none of them opens a fence or a container (a
        diagram commented out, ``A-->B`` ending the comment inside its fence)."""
        self.item_columns: dict[int, dict[int, int]] = {}
        """Fence column → line → `_item_column` of a fence at that column below that line, for
        the lines walked."""
        self.body_start = 0
        self.extent: tuple[int, tuple[str, int] | None] = (-1, None)
        """The last `_element_extent` worked out, with its position."""
        self.fence_starts: dict[int, int] = {}
        """Last line → first line of the fenced blocks found so far."""
        self.element_lasts: set[int] = set()
        """The last lines of the elements and shortcodes that span lines, found so far."""
        self.in_paragraph: dict[int, bool] = {}
        """Line → whether it is text of a paragraph outside any list (see
        `_paragraph_text`), for the lines walked."""
        self.admonition_above: dict[int, int] = {}
        """Line → the only line above it that may mark an admonition whose body holds it, or
        -1 (see `_ends_admonition`), for the lines walked."""
        self.admonition_ends: dict[int, int] = {}
        """Marker line → `_admonition_end`, for the admonitions looked at."""
        self.definition_runs: dict[int, bool] = {}
        """Line → whether the link reference definitions below it are definitions (see
        `_definition`), for the lines walked."""

    def run(self, body_start: int) -> _Spans:
        """Scan the lines from ``body_start`` on; the spans that chunks may not cut."""
        text = self.text
        self.body_start = body_start
        body = position = sum(len(line) + 1 for line in self.lines[:body_start])
        line = body_start
        if position < len(text):
            raw = self._raw_run(line, position)
            if raw is None:
                self._line(line, position)
            else:
                position, line = raw
        while True:
            if self.fence is None:
                match = (_MDX_CANDIDATE if self.mdx else _CANDIDATE).search(text, position)
            else:
                # Nothing inside a fenced code block matters but the line that closes it, or,
                # in a list item, a line indented less than the item's content.
                match = _fence_end(self.fence[1], self.fence[2], self.mdx).search(text, position)
                if self.containers:
                    # A container ends at its closing marker, and a fence left open in it too.
                    closing = self._container_closing(position, match.start() if match else None)
                    if closing is not None:
                        match = closing
            if match is None:
                break
            start = match.start() + 1
            line += text.count("\n", position, start)
            position = start
            if self.fence is not None and match.lastgroup == "outside":
                # The item or the container ends, and its fence with it; the line is looked at
                # again.
                self._close_fence(line - 1)
                position, line = start - 1, line - 1
                continue
            raw = self._raw_run(line, start)
            if raw is not None:
                position, line = raw
                continue
            self._line(line, start)
        if self.fence is not None:
            self._close_fence(len(self.lines) - 1)
        if self.containers:
            # A container left open runs to the page's end, as the parser reads it.
            self.spans.append((self.containers[0][0], len(self.lines) - 1))
        blocked = _Spans(self.spans)
        comments = _Spans(self.comments)
        # A heading line inside a comment is no heading.
        self.headings = [h for h in self.headings if comments.covering(h.line) is None]
        self._setext_headings(body_start, body, _Spans(self.fenced), comments)
        return blocked

    def _setext_headings(
        self, body_start: int, body: int, fences: _Spans, comments: _Spans
    ) -> None:
        """Setext headings of the body, which starts at line ``body_start``, offset ``body``.

        A heading's text is the whole paragraph the underline ends, however many lines it has.
        """
        line = body_start
        position = body
        # The underline of the heading before ends that heading's text: a paragraph starts after.
        top = body_start
        for match in _SETEXT.finditer(self.text, body):
            line += self.text.count("\n", position, match.start() + 1)
            position = match.start() + 1
            if fences.covering(line) is not None or comments.covering(line) is not None:
                continue
            first = line
            while (
                first - 1 >= top
                and self._paragraph_line(first - 1)
                and comments.covering(first - 1) is None
            ):
                first -= 1
            while first < line and self._block_of_its_own(first):
                first += 1
            if first < line and _FOOTNOTE_DEFINITION.match(self.lines[first]):
                # The paragraph is the note's, which an underline at the margin does not reach.
                continue
            texts = [text.strip() for text in self.lines[first:line]]
            # A list item's first line starts the paragraph when the underline stands within
            # the item's content; further out it is an empty item of an enclosing list.
            item = _ITEM_START.match(self.lines[first - 1]) if first > body_start else None
            underline = self.lines[line]
            if item and item.end() <= len(underline) - len(underline.lstrip(" ")):
                first -= 1
                texts.insert(0, self.lines[first][item.end() :].strip())
            elif first > body_start and first < line and _goes_on_lazily(self.lines[first - 1]):
                # The lines are more of the paragraph of the item or quote above, lazily: an
                # underline outside it is a rule.
                continue
            if first < line:
                source = "\n".join(texts)
                level = 1 if match.group(1)[0] == "=" else 2
                self.headings.append(Heading(first, level, source))
                top = line + 1
        self.headings.sort(key=lambda heading: heading.line)

    def _paragraph_line(self, line: int) -> bool:
        """Whether a line can belong to a paragraph that an underline below makes a heading:
        not a shortcode's closing line, which ends the body of the element it closes, nor an
        abbreviation's definition, which interrupts a paragraph."""
        text = self.lines[line]
        stripped = text.strip()
        return (
            bool(stripped)
            and not text.startswith(_NOT_SETEXT_TEXT)
            and not _QUOTE_MARKERS.match(text)
            and not _LIST_ITEM.match(text.lstrip(" "))
            and not _THEMATIC_BREAK.match(stripped)
            and not _ATX_START.match(text.lstrip(" "))
            and not (_alone_shortcode(stripped) and stripped[3:].lstrip().startswith("/"))
            and not (not self.mdx and _ABBREVIATION.match(text))
        )

    def _block_of_its_own(self, line: int) -> bool:
        """Whether ``line``, where a block may start, is one by itself that no underline below
        makes a heading: a link reference definition, a shortcode alone on its line, a comment
        of Hugo's (or, in MDX, of MDX's) alone on its line."""
        text = self.lines[line]
        stripped = text.strip()
        return (
            _REFERENCE.match("\n" + text) is not None
            or _alone_shortcode(stripped)
            or _alone_comment(stripped, hugo.COMMENT_OPENER, hugo.COMMENT_CLOSER)
            or (self.mdx and _alone_comment(stripped, mdx.COMMENT_OPENER, mdx.COMMENT_CLOSER))
        )

    def _raw_run(self, line: int, start: int) -> tuple[int, int] | None:
        """Where the scan goes on (offset of the newline ending its last line, and that line)
        when ``line``, at offset ``start``, opens lines the parser reads raw up to a blank line:
        an MDX ``import``/``export`` statement, or an HTML block no element rule takes. Nothing
        in them is a heading or opens anything."""
        # A statement starts at the margin, an HTML block with a tag: most lines the scan looks
        # at are headings and fences, which the first character rules out.
        first = self.lines[line].lstrip(" \t")[:1]
        if first not in _RAW_RUN_STARTS:
            return None
        if self._esm(line, start):
            end = mdx.esm_end(self.text, start, len(self.text))
        elif self._html_block(line, start):
            blank = _BLANK_LINE.search(self.text, start)
            end = blank.start() if blank is not None else len(self.text)
        else:
            return None
        last = line + self.text.count("\n", start, end)
        self.spans.append((line, last))
        self.comments.append((line, last))
        return end, last

    def _block_may_start(self, line: int) -> bool:
        """Whether the line above ``line`` leaves no paragraph or HTML block open."""
        if (
            line <= self.body_start
            or line - 1 in self.fence_starts
            or line - 1 in self.element_lasts
            or self._ends_admonition(line)
        ):
            return True
        above = line - 2
        after_text = (
            above >= self.body_start
            and above not in self.fence_starts
            and _is_text(self.lines[above])
            and not self._ends_admonition(line - 1)
            and not self._definition(above)
        )
        return _ends_itself(self.lines[line - 1], after_text)

    def _ends_admonition(self, line: int) -> bool:
        """Whether ``line`` is the first line below the body of a ``!!!`` admonition marked at
        the margin, so that it starts a block: the parser takes no lazy line into that body."""
        if line <= self.body_start or not self.lines[line].strip():
            return False

        def step(above: int) -> int | _Found[int]:
            # Only the nearest line above indented less than any body can be the marker.
            if above < self.body_start:
                return _Found(-1)
            text = self.lines[above]
            if not text.strip() or _columns(text) >= _LEAST_ADMONITION_BODY:
                return above - 1
            return _Found(above if _marker_spaces(text) is not None else -1)

        marker = _walk_remembering(self.admonition_above, line - 1, step)
        return marker >= 0 and self._admonition_end(marker) == line

    def _admonition_end(self, marker: int) -> int:
        """The first line past the body of the admonition marked on line ``marker``, found as
        mdit-py-plugins' admon rule finds it: a line indented less than the body, or a second
        such line in a row if blank."""
        if marker in self.admonition_ends:
            return self.admonition_ends[marker]
        spaces = _marker_spaces(self.lines[marker])
        assert spaces is not None
        body = _LEAST_ADMONITION_BODY + len(spaces)
        line = marker + 1
        outside = False
        while line < len(self.lines):
            text = self.lines[line]
            below = _columns(text) < body
            if below and (outside or text.strip()):
                break
            outside = below
            line += 1
        self.admonition_ends[marker] = line
        return line

    def _definition(self, line: int) -> bool:
        """Whether ``line`` is a link reference definition, not text that reads like one: the
        run of such lines it ends starts where no paragraph goes on (a definition cannot
        interrupt a paragraph, and ends at its line)."""
        if _REFERENCE.match("\n" + self.lines[line]) is None:
            return False

        def step(above: int) -> int | _Found[bool]:
            if above < self.body_start:
                return _Found(True)
            text = self.lines[above]
            if _REFERENCE.match("\n" + text) is not None:
                return above - 1
            return _Found(above in self.fence_starts or _ends_itself(text, after_text=False))

        return _walk_remembering(self.definition_runs, line - 1, step)

    def _esm(self, line: int, start: int) -> bool:
        """Whether ``line`` opens an MDX statement (which cannot interrupt a paragraph)."""
        return (
            self.mdx and mdx.ESM.match(self.text, start) is not None and self._block_may_start(line)
        )

    def _html_block(self, line: int, start: int) -> bool:
        """Whether ``line`` (at offset ``start``) opens an HTML block: a tag at the margin that the
        element rule leaves alone, since its element does not end its line, of a block-level name
        (such a block may interrupt a paragraph), or alone on its line where a block may start."""
        # Within a list item or a container the block would end with them: not modelled. Out
        # of them the tag may be indented as deep as code is not (any depth in MDX).
        source = self.lines[line]
        indent = len(source) - len(source.lstrip(" \t"))
        if indent and ((not self.mdx and _columns(source) >= 4) or self._item_column(line, indent)):
            return False
        start += indent
        if not self.text.startswith("<", start) or start < self.skip_to or self.containers:
            return False
        extent = self._element_extent(start, self._line_end(start))
        if extent is None:
            return False
        name, end = extent
        if not self.text[end : self._line_end(end)].strip():
            return False
        if name.lower() in _HTML_BLOCK_NAMES:
            return True
        return _TAG_LINE.fullmatch(self.lines[line].strip()) is not None and self._block_may_start(
            line
        )

    def _element_extent(self, position: int, line_end: int) -> tuple[str, int] | None:
        """The name of the element whose tag starts at ``position`` and the offset where the
        element ends: after its closing tag, or after its own tag when it is self-closing,
        void, unclosed or a stray closing tag. None when no tag starts there. (Asked first
        whether the line opens an HTML block, then for its span: the last answer is kept.)"""
        if self.extent[0] == position:
            return self.extent[1]
        text = self.text
        extent: tuple[str, int] | None = None
        stray = mdx.CLOSING_TAG.match(text, position)
        if stray is not None:
            extent = stray[1], stray.end()
        elif (tag := self._tag(position)) is not None:
            end = tag.end
            if not tag.self_closing and tag.name.lower() not in mdx.VOID_ELEMENTS:
                # A closing tag on the tag's own line spares a search to the end of the page.
                same_line = text.find(f"</{tag.name or '>'}", tag.end, line_end) >= 0
                closing = mdx.find_closing(
                    text, tag.name, tag.end, line_end if same_line else len(text)
                )
                if closing is not None:
                    end = closing[1]
            extent = tag.name, end
        self.extent = (position, extent)
        return extent

    def _tag(self, position: int) -> mdx.Tag | None:
        """The opening tag at ``position``, also a fragment's (``<>``) in MDX, as the parser reads
        them."""
        if self.mdx and self.text.startswith("<>", position):
            return mdx.fragment(position)
        return mdx.scan_tag(self.text, position, len(self.text))

    def _item_column(self, line: int, fence: int) -> int:
        """Where the content of the list item that a fence at column ``fence`` of ``line`` is in
        starts (the fence may open the item: ``- ```json``); 0 when it is in no item."""
        if not fence:
            # At the margin: no item's marker can stand before it.
            return 0
        own = _ITEM_START.match(self.lines[line])
        if own is not None and own.end() <= fence:
            return own.end()

        def step(above: int) -> int | _Found[int]:
            if above < self.body_start:
                return _Found(0)
            # A fenced block's lines are code: what decides is the line that opens it.
            above = self.fence_starts.get(above, above)
            text = self.lines[above]
            indent = _indent(text)
            if text.strip() and indent < fence:
                # ``- - -`` and ``* * *`` are rules, which no item's content goes on past.
                rule = _THEMATIC_BREAK.match(text.strip())
                item = None if rule else _ITEM_START.match(text)
                if item is not None and item.end() <= fence and not self._paragraph_text(above):
                    return _Found(item.end())
                if item is None and self._may_be_lazy(above):
                    return above - 1
                return _Found(0)
            return above - 1

        # Many fences in one item share the walk up to it.
        return _walk_remembering(self.item_columns.setdefault(fence, {}), line - 1, step)

    def _indented_as_code(self, line: int, column: int) -> bool:
        """Whether ``line`` is indented four columns past ``column`` (its item's content, or
        the margin) where it can open no block: Markdown reads code there, and a paragraph goes
        on into a line indented so far past its own text without looking whether it starts a
        block, also in MDX; but a quote looks first, even at its lazy lines, and ends there."""
        indentation = _columns(self.lines[line])
        if indentation - column < 4:
            return False
        if not self.mdx:
            return True
        above = self.lines[line - 1] if line > self.body_start else ""
        return (
            indentation - _content_column(above) >= 4
            and not self._block_may_start(line)
            and not self._in_quote(line - 1)
        )

    def _in_quote(self, line: int) -> bool:
        """Whether ``line`` is a line of a quote: one marked ``>``, or a lazy line below one."""
        while line >= self.body_start and (text := self.lines[line].strip()):
            if text.startswith(">"):
                return True
            if _ends_itself(text, after_text=True):
                return False
            line -= 1
        return False

    def _may_be_lazy(self, line: int) -> bool:
        """Whether ``line``, unindented, may continue the paragraph of a list item above it (a
        container's marker never does: it opens or closes its container)."""
        return (
            line > self.body_start
            and bool(self.lines[line - 1].strip())
            and line - 1 not in self.fence_starts
            and _is_text(self.lines[line])
            and not _CONTAINER.match(self.lines[line])
            and (self.mdx or pymdown.BLOCK_FENCE.fullmatch(self.lines[line]) is None)
        )

    def _paragraph_text(self, line: int) -> bool:
        """Whether ``line``, which starts like an ordered list item (``2. ```json``), is more
        text of the paragraph above it: outside a list, only an item numbered 1 may interrupt
        a paragraph (CommonMark), so no fence opens on it either."""
        if not _ordered_not_first(self.lines[line]):
            return False
        if line <= self.body_start or not self.lines[line - 1].strip():
            return False

        def step(above: int) -> int | _Found[bool]:
            text = self.lines[above] if above >= self.body_start else ""
            if (
                text.startswith(_MARKUP)
                or above in self.fence_starts
                or _ends_itself(text, after_text=False)
                or text.rstrip().endswith(("-->", mdx.COMMENT_CLOSER))
                or text.lstrip(" ").startswith(">")
            ):
                # What stood above ended, or is a quote, whose paragraph the run of lines below
                # would go on lazily: is that run a paragraph outside a list?
                below = self.lines[above + 1]
                if above >= self.body_start and not text.strip():
                    return _Found(_opens_paragraph(below))
                # No list goes on past the page's start or a line that ends itself, so an
                # indented line opens a paragraph too, unless it is code.
                code = not self.mdx and _columns(below) >= 4
                return _Found(not code and _continues_paragraph(below.lstrip(" \t")))
            if not self.mdx and _columns(text) >= 4 and self._indented_code(above):
                # The run below the code opens a paragraph, or a list.
                return _Found(_continues_paragraph(self.lines[above + 1].lstrip(" \t")))
            # A paragraph goes on into a line indented four columns, whatever it holds.
            if (
                _ordered_not_first(text)
                or _columns(text) >= 4
                or _continues_paragraph(text.lstrip(" "))
            ):
                return above - 1
            return _Found(False)

        return _walk_remembering(self.in_paragraph, line - 1, step)

    def _indented_code(self, line: int) -> bool:
        """Whether ``line``, indented four columns on a Markdown page, is indented code: the
        run of such lines it ends starts where no paragraph goes on into it."""
        while (
            line > self.body_start
            and self.lines[line - 1].strip()
            and _columns(self.lines[line - 1]) >= 4
        ):
            line -= 1
        return (
            line <= self.body_start
            or line - 1 in self.fence_starts
            or _ends_itself(self.lines[line - 1], after_text=False)
        )

    def _close_fence(self, line: int) -> None:
        """End the open fenced block at ``line`` (its closing fence, or the page's last line)."""
        if self.fence is not None:
            self.spans.append((self.fence[0], line))
            self.fenced.append((self.fence[0], line))
            self.fence_starts[line] = self.fence[0]
            self.fence = None

    def _line(self, line: int, start: int) -> None:
        source = self.lines[line]
        if self.fence is not None:
            if self._closes_fence(source):
                self._close_fence(line)
            return
        if start < self.comment_to:
            return
        stripped = source.lstrip(" \t")
        first = stripped[:1]
        if first not in "<{:#/":
            self._open_fence(line, source)
        elif first == "#":
            heading = (_MDX_ATX_HEADING if self.mdx else _ATX_HEADING).match(source)
            if heading and not (
                self.mdx and self._indented_as_code(line, self._item_column(line, heading.start(1)))
            ):
                self.headings.append(Heading(line, len(heading.group(1)), heading.group(2) or ""))
        elif first == "<" and start >= self.skip_to:
            self._element(line, start + len(source) - len(stripped))
        elif first == "{" and start >= self.skip_to:
            self._brace(line, start + len(source) - len(stripped))
        elif first == ":":
            container = _CONTAINER.match(source)
            if container and container.group(2):
                self.containers.append((line, len(container.group(1))))
            elif container and self.containers and self._closes_container(container.group(1)):
                self.spans.append((self.containers.pop()[0], line))
        elif first == "/" and not self.mdx:
            # A PyMdown block spans blank lines up to its closing line (outside fenced code,
            # which this walk skips), as `pymdown.block_rule` reads it.
            block = pymdown.BLOCK_FENCE.fullmatch(source)
            if block is not None and block.group(1):
                self.pymdown_blocks.append(line)
            elif block is not None and self.pymdown_blocks:
                self.spans.append((self.pymdown_blocks.pop(), line))

    def _closes_fence(self, source: str) -> bool:
        """Whether the line ``source`` closes the open fenced block: a marker of its character,
        as long or longer, nothing after it, and in a list item within three columns of the
        item's content."""
        assert self.fence is not None
        fence = _FENCE.match(source)
        marker = self.fence[1]
        return bool(
            fence
            and fence.group(1)[0] == marker[0]
            and len(fence.group(1)) >= len(marker)
            and not fence.group(2).strip()
            and (not self.fence[2] or 0 <= _columns(source) - self.fence[2] <= 3)
        )

    def _open_fence(self, line: int, source: str) -> None:
        """Open a fenced block at ``line`` if it starts one (not in paragraph text, nor indented
        as code)."""
        fence = _FENCE.match(source)
        if (
            fence
            and (fence.group(1)[0] == "~" or "`" not in fence.group(2))
            and not self._paragraph_text(line)
        ):
            # The line's own indentation decides, also where it opens an item for the fence;
            # in columns, a tab reaching the next multiple of four as it does for the parser.
            enclosing = self._item_column(line, _columns(source))
            if not self._indented_as_code(line, enclosing):
                column = len(source[: fence.start(1)].expandtabs(4))
                self.fence = (line, fence.group(1), self._item_column(line, column))

    def _closes_container(self, colons: str) -> bool:
        """Whether a marker of ``colons`` closes the innermost open container: not one of fewer
        colons (``:::`` inside ``::::note``), as for the parser's container rule."""
        return len(colons) >= self.containers[-1][1]

    def _container_closing(self, position: int, before: int | None) -> re.Match[str] | None:
        """The first line from ``position`` (and before the offset ``before``) that closes the
        innermost open container."""
        end = len(self.text) if before is None else before
        closing = _CONTAINER_CLOSING.search(self.text, position, end)
        while closing is not None and not self._closes_container(closing.group(2)):
            closing = _CONTAINER_CLOSING.search(self.text, closing.end(), end)
        return closing

    def _line_end(self, position: int) -> int:
        end = self.text.find("\n", position)
        return len(self.text) if end < 0 else end

    def _comment_end(self, position: int, closer: str) -> int:
        close = self.text.find(closer, position)
        return len(self.text) if close < 0 else close + len(closer)

    def _element(self, line: int, position: int) -> None:
        text = self.text
        line_end = self._line_end(position)
        if text.startswith("<!--", position):
            end = self._comment_end(position, "-->")
            if end > line_end:
                self._add_comment(line, position, end)
        else:
            extent = self._element_extent(position, line_end)
            if extent is None:
                return
            end = extent[1]
        if end > line_end:
            self._add_span(line, position, end)

    def _brace(self, line: int, position: int) -> None:
        text = self.text
        line_end = self._line_end(position)
        closer = next((c for o, c in _BRACE_COMMENTS if text.startswith(o, position)), None)
        if closer is not None:
            end = self._comment_end(position, closer)
            if end > line_end:
                self._add_comment(line, position, end)
        else:
            shortcode = hugo.SHORTCODE.match(text, position, line_end)
            if shortcode is None or shortcode.group(2):
                return
            closing = hugo.find_closing(text, shortcode.group(3), shortcode.end(), len(text))
            if closing is None:
                return
            end = closing[1]
        if end > line_end:
            self._add_span(line, line_end, end)

    def _add_comment(self, line: int, position: int, end: int) -> None:
        """A comment that opens on ``line`` at ``position`` and spans lines up to ``end``."""
        self.comments.append((line, line + self.text.count("\n", position, end - 1)))
        self.comment_to = self._line_end(end - 1)

    def _add_span(self, line: int, position: int, end: int) -> None:
        last = line + self.text.count("\n", position, end - 1)
        self.spans.append((line, last))
        self.element_lasts.add(last)
        self.skip_to = max(self.skip_to, end)
