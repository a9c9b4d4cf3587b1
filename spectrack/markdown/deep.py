"""Blocks nested too deeply to follow: read as plain paragraphs rather than refused or dropped.

markdown-it-py tokenizes a quote, list item, MDX component, shortcode, ``:::`` container or
``!!!`` admonition by calling its block tokenizer again on the body, so each level of nesting
costs a few Python frames (three a quote, container or admonition level, about one and a half a
list level, five a component level) and a page some hundreds of levels deep, which any upstream
site may serve, exhausts Python's recursion. markdown-it's own ``maxNesting`` silently drops
what lies deeper. Instead, `flat_rule`, the first block rule, takes over once the block level
reaches `DEEPEST_LEVEL`: it reads the rest of the nested range as paragraphs of plain text,
markers and tags included, without recursing, so every word (and keyword) in it stays visible
and a change there is still reported.
"""

from __future__ import annotations

from markdown_it.rules_block import StateBlock

DEEPEST_LEVEL = 100
"""The block level (markdown-it's ``state.level``: one per quote, component, container or
admonition, two per list) at which nested blocks are no longer followed. Far deeper than any
real page nests (a list fifty levels deep), and far from where recursion gives out: the most
costly nesting, components, reaches it in about 500 frames of the 1000 Python allows, and with
Python's default limit a page of components alone failed at 196 levels, quotes at 328."""


def flat_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """At `DEEPEST_LEVEL` or deeper, a paragraph of the lines up to a blank line, the end of the
    nested range or a line indented less than its blocks (which belongs to an enclosing one)."""
    if state.level < DEEPEST_LEVEL:
        return False
    if silent:
        return True
    indent = state.blkIndent
    line = start_line + 1
    while line < end_line and not state.isEmpty(line) and not 0 <= state.sCount[line] < indent:
        line += 1
    token = state.push("paragraph_open", "p", 1)
    token.map = [start_line, line]
    token = state.push("inline", "", 0)
    token.content = state.getLines(start_line, line, indent, False).strip()
    token.map = [start_line, line]
    token.children = []
    state.push("paragraph_close", "p", -1)
    state.line = line
    return True
