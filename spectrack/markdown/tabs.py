"""MkDocs Material content tabs: ``=== "HTTP"`` over a body indented four columns; and
vitepress-plugin-tabs' ``== HTTP`` lines, each a tab's title, inside a ``:::tabs`` container.

A tab reads as an MDX ``<Tab title="HTTP">`` does: ``component_open``/``component_close`` around
its Markdown body (``meta["syntax"] == "mkdocs"``), so switching between the two syntaxes is
formatting, and a requirement in a tab is one, not indented code. The title is read as inline
Markdown, as MkDocs renders it. Its body ends as a ``!!!`` admonition's does (mdit-py-plugins'
admon rule, which the outline mirrors): at a line indented less than the body, or at a second
blank line in a row.
"""

from __future__ import annotations

import re

from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from spectrack.markdown.admonitions import TABS_CONTAINER, container_name_and_title
from spectrack.markdown.inline import inline_text
from spectrack.markdown.nesting import enclosing_opening, indented_as_code

TAB_MARKER = re.compile(r'===[+!]?( +)"(.*)"[ \t]*$')
"""A tab's first line, its indentation set aside: the marker (``===``, ``===+`` for the tab
shown first, ``===!`` for a new set), spaces, and the quoted title."""

_BODY_INDENT = 3
"""The columns past the marker's spaces that its body is indented: four in all (``=== "A"``)."""


def tab_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if indented_as_code(state, start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    marker = TAB_MARKER.match(state.src, begin, state.eMarks[start_line])
    if marker is None:
        return False
    if silent:
        return True
    body_indent = state.sCount[start_line] + _BODY_INDENT + len(marker[1])
    line = start_line + 1
    outside = False
    while line < end_line:
        below = state.sCount[line] < body_indent
        if below and (outside or state.bMarks[line] + state.tShift[line] < state.eMarks[line]):
            break
        outside = below
        line += 1

    _push_tab(state, marker[2], "mkdocs", start_line, line, body_indent)
    return True


def _push_tab(
    state: StateBlock, title: str, syntax: str, start_line: int, end_line: int, body_indent: int
) -> None:
    """The tokens of a tab titled ``title`` on ``start_line``, its body the lines below it up
    to ``end_line``, indented ``body_indent`` columns.

    The title is rendered as Markdown: an icon (``:material-language-python: Python``) or
    emphasis in it shows no signs, so it is what its inline text reads.
    """
    title_tokens: list[Token] = []
    state.md.inline.parse(title, state.md, state.env, title_tokens)
    token = state.push("component_open", "", 1)
    token.meta = {
        "name": "Tab",
        "attrs": {"title": inline_text(title_tokens).text},
        "syntax": syntax,
    }
    token.map = [start_line, end_line]
    old_indent, old_line_max, old_parent = state.blkIndent, state.lineMax, state.parentType
    state.blkIndent, state.lineMax, state.parentType = body_indent, end_line, "container"
    try:
        state.md.block.tokenize(state, start_line + 1, end_line)
    finally:
        state.blkIndent, state.lineMax, state.parentType = old_indent, old_line_max, old_parent
    state.push("component_close", "", -1)
    state.line = end_line


_SECTION_MARKER = re.compile(r"==[ \t]+(\S.*)")
"""A vitepress-plugin-tabs tab's first line: two equals signs, then its title."""
_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")


def section_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A ``== Title`` line right inside a ``:::tabs`` container opens a tab, which runs to the
    next such line or the container's end, as an MDX ``<Tab title="Title">`` does."""
    if indented_as_code(state, start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    marker = _SECTION_MARKER.fullmatch(state.src, begin, state.eMarks[start_line])
    if marker is None or not _in_tabs(state, start_line):
        return False
    if silent:
        return True
    line = _next_section(state, start_line, end_line)
    _push_tab(state, marker[1].strip(), "vitepress", start_line, line, state.blkIndent)
    return True


def _in_tabs(state: StateBlock, line: int) -> bool:
    """Whether ``line`` stands right inside a ``:::tabs`` container."""
    opening = enclosing_opening(state, line)
    return (
        opening is not None
        and opening.type == "container_admonition_open"
        and container_name_and_title(opening.info)[0] == TABS_CONTAINER
    )


def _next_section(state: StateBlock, start_line: int, end_line: int) -> int:
    """The line of the next tab's title at the same indentation (outside fenced code), or
    ``end_line``."""
    fence = ""
    for line in range(start_line + 1, end_line):
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        opening = _FENCE.match(text)
        if fence:
            if opening and opening[1][0] == fence[0] and len(opening[1]) >= len(fence):
                fence = ""
        elif opening:
            fence = opening[1]
        elif state.sCount[line] == state.sCount[start_line] and _SECTION_MARKER.fullmatch(text):
            return line
    return end_line
