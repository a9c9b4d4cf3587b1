"""Parse the Markdown inside a block element (an MDX component, a Hugo shortcode) in place.

markdown-it-py sees such elements as raw HTML or text. The block rules of this package find an
element's extent and hand the content between its tags to :func:`tokenize_between`, which runs the
ordinary block tokenizer over it, so that nested Markdown keeps its real line numbers.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token


def line_of(state: StateBlock, pos: int, first: int, last: int) -> int:
    """The line in ``[first, last)`` that holds source offset ``pos``."""
    return min(bisect_left(state.eMarks, pos, first, last), last - 1)


def is_blank(text: str) -> bool:
    return not text.strip()


def indented_as_code(state: StateBlock, line: int) -> bool:
    """Whether ``line`` is indented four columns or more past the block it stands in, where
    Markdown reads indented code and no block rule starts."""
    return state.sCount[line] - state.blkIndent >= 4


def line_rest_is_blank(state: StateBlock, pos: int, line: int) -> bool:
    """Whether nothing but whitespace follows offset ``pos`` on ``line``."""
    return is_blank(state.src[pos : state.eMarks[line]])


def drop_comment(
    state: StateBlock, start_line: int, end_line: int, silent: bool, opener: str, closer: str
) -> bool:
    """Drop a comment from ``opener`` to ``closer`` (MDX's, Hugo's) that starts a line and ends
    its last one, blank lines and all, as an HTML comment block is dropped."""
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if not src.startswith(opener, pos):
        return False
    limit = state.eMarks[end_line - 1]
    if _last_closer(src, closer, limit) < pos:
        return False
    close = src.find(closer, pos, limit)
    last_line = line_of(state, close, start_line, end_line)
    if not line_rest_is_blank(state, close + len(closer), last_line):
        return False
    if not silent:
        state.line = last_line + 1
    return True


def drop_inline_comment(state: StateInline, silent: bool, opener: str, closer: str) -> bool:
    """Drop a comment from ``opener`` to ``closer`` (MDX's, Hugo's) inside a sentence, whole,
    before its words can be read as markup (``{/* *always* */}``)."""
    src, pos = state.src, state.pos
    if not src.startswith(opener, pos) or _last_closer(src, closer, state.posMax) < pos:
        return False
    # A comment ends at its first "*/": `{/* why */ name}` is an expression, no comment.
    close = src.find(closer[:2], pos + len(opener), state.posMax)
    if close < 0 or not src.startswith(closer, close, state.posMax):
        return False
    state.pos = close + len(closer)
    return True


@lru_cache(maxsize=16)
def _last_closer(src: str, closer: str, limit: int) -> int:
    """Where the last ``closer`` before ``limit`` starts (-1 if none): a comment opened after it
    is never closed, which spares each such comment a search to the end of the text."""
    return src.rfind(closer, 0, limit)


def finish_element(
    state: StateBlock,
    meta: dict[str, object],
    start_line: int,
    last_line: int,
    end: int,
    body: tuple[int, int] | None,
    silent: bool,
) -> bool:
    """Emit a block element that ends at offset ``end`` on ``last_line``.

    ``body`` is the (start, end) of its Markdown content, or None for a self-contained element.
    The element must end its line; otherwise it is inline markup and the rule declines.
    """
    # Not through `finish_as`: nested components recurse through here, and each frame more per
    # level takes room on the stack that deep nesting needs (see `deep`).
    if not line_rest_is_blank(state, end, last_line):
        return False
    if silent:
        return True
    token = state.push(
        "component" if body is None else "component_open", "", 0 if body is None else 1
    )
    token.meta = meta
    token.map = [start_line, last_line + 1]
    if body is not None:
        body_line = line_of(state, body[0] - 1, start_line, last_line + 1)
        tokenize_between(state, body[0], body[1], body_line, last_line)
        state.push("component_close", "", -1)
    state.line = last_line + 1
    return True


def finish_as(
    state: StateBlock, last_line: int, end: int, silent: bool, push: Callable[[], None]
) -> bool:
    """Emit a block element that ends at offset ``end`` on ``last_line`` as the tokens ``push``
    makes (a fence's for a code shortcode, a table row's for ``<tr>``), as `finish_element`
    emits a component. The element must end its line; otherwise it is inline markup and the
    rule declines."""
    if not line_rest_is_blank(state, end, last_line):
        return False
    if silent:
        return True
    push()
    state.line = last_line + 1
    return True


def finish_as_code(
    state: StateBlock,
    start_line: int,
    last_line: int,
    end: int,
    silent: bool,
    language: str,
    code: str,
) -> bool:
    """Emit an element whose body is code (Hugo's code shortcodes, HTML's ``<pre>``) as a
    ``fence`` token (see `finish_as`): a keyword in it is no requirement, as in a fence."""

    def push() -> None:
        token = state.push("fence", "code", 0)
        token.info = language
        token.content = code.strip("\n") + "\n"
        token.map = [start_line, last_line + 1]

    return finish_as(state, last_line, end, silent, push)


def child_elements(tokens: Sequence[Token], *names: str) -> Iterator[Token]:
    """The elements of one of ``names`` right inside the element whose tokens are ``tokens`` (its
    opening token first): the tabs of a set of tabs."""
    return (
        token
        for token in tokens
        if token.type in ("component_open", "component")
        and token.level == tokens[0].level + 1
        and token.meta.get("name") in names
    )


def title_tabs(
    tokens: Sequence[Token], tabs: tuple[str, ...], titles: Sequence[str], own: tuple[str, ...]
) -> None:
    """Give the n-th of the ``tabs`` right inside the element whose tokens are ``tokens`` (its
    opening token first) the n-th of ``titles``, as themes show them, unless the tab titles
    itself by one of its ``own`` attributes."""
    for tab, title in zip(child_elements(tokens, *tabs), titles, strict=False):
        attrs = tab.meta["attrs"]
        if title and not any(attrs.get(name) for name in own):
            tab.meta = {**tab.meta, "attrs": {**attrs, "title": title}}


_ENCLOSING = "spectrack_enclosing"
"""``env`` key of a dict: for the blocks read up to a line (``lineMax``, where the block that
holds them ends) at a depth, the opening token of that block."""


def enclosing_opening(state: StateBlock, line: int) -> Token | None:
    """The opening token of the block (a container, an element) that ``line``, being read,
    stands right inside; None at the top. Found once per such block and depth, from the tokens
    back to that opening, so asking at each of its lines costs no more."""
    if state.level == 0:
        return None
    known: dict[tuple[int, int], Token | None] = state.env.setdefault(_ENCLOSING, {})
    key = (state.lineMax, state.level)
    opening = known.get(key)
    # Blocks that end where the block around them does share a key: one read before holds
    # other lines.
    if opening is None or opening.map is None or not opening.map[0] <= line < opening.map[1]:
        # Every token of the block's blocks lies deeper than its opening, pushed before them.
        opening = next(
            (token for token in reversed(state.tokens) if token.level < state.level), None
        )
        known[key] = opening
    return opening


def tokenize_between(
    state: StateBlock, start: int, end: int, start_line: int, end_line: int
) -> None:
    """Tokenize the source between offsets ``start`` and ``end`` as nested blocks.

    ``start`` lies on ``start_line`` and ``end`` on ``end_line``. Partial first and last lines are
    narrowed for the duration of the call, the block indent is set to the content's smallest
    indentation (authors and Prettier indent component bodies), and everything is restored after.
    """
    src = state.src
    first = start_line
    if is_blank(src[start : state.eMarks[start_line]]):
        first = start_line + 1
    last = end_line + 1
    if is_blank(src[state.bMarks[end_line] : end]):
        last = end_line
    if first >= last:
        return

    saved = {
        line: (state.bMarks[line], state.eMarks[line], state.tShift[line], state.sCount[line])
        for line in {first, last - 1}
    }
    narrowed = first == start_line
    if last - 1 == end_line:
        state.eMarks[end_line] = min(state.eMarks[end_line], end)
    indents = [
        state.sCount[line]
        for line in range(first + narrowed, last)
        if state.bMarks[line] + state.tShift[line] < state.eMarks[line]
    ]
    indent = min(indents, default=0)
    if narrowed:
        _narrow_start(state, first, start, indent)

    old_indent, old_line_max, old_parent = state.blkIndent, state.lineMax, state.parentType
    state.blkIndent = indent
    state.lineMax = last
    state.parentType = "container"
    emitted = len(state.tokens)
    try:
        state.md.block.tokenize(state, first, last)
        if last - 1 == end_line and end < saved[end_line][1]:
            _end_before_closing_tag(state.tokens[emitted:], src[end], last)
    finally:
        state.blkIndent, state.lineMax, state.parentType = old_indent, old_line_max, old_parent
        for line, (begin, stop, shift, count) in saved.items():
            state.bMarks[line], state.eMarks[line] = begin, stop
            state.tShift[line], state.sCount[line] = shift, count


def _end_before_closing_tag(tokens: list[Token], cut: str, last: int) -> None:
    """Take the character ``cut`` that ends a body cut short before its closing tag off the
    HTML blocks that run to that end: markdown-it-py copies an HTML block's last line with the
    character after it, which it takes to be the line's newline (its code rules end their
    content with a newline of their own)."""
    for token in tokens:
        if (
            token.type == "html_block"
            and token.map is not None
            and token.map[1] == last
            and token.content.endswith(cut)
        ):
            token.content = token.content[: -len(cut)] + "\n"


def _narrow_start(state: StateBlock, line: int, start: int, indent: int) -> None:
    """Make ``line`` begin at ``start``, as if its content sat at the block's indent."""
    src = state.src
    pos = start
    stop = state.eMarks[line]
    while pos < stop and src[pos] in " \t":
        pos += 1
    state.bMarks[line] = start
    state.tShift[line] = pos - start
    state.sCount[line] = indent
