"""Markdown and MDX → `Document`: one model for every syntax a specification site serves.

`parse` reads a whole page. `outline` scans a page cheaply, and `parse_window` parses only some
of its lines with the context they have in the page, which is how the differ avoids parsing what
did not change.
"""

from __future__ import annotations

from spectrack.markdown.blocks import walk
from spectrack.markdown.hugo import resolve_links
from spectrack.markdown.outline import Outline, outline
from spectrack.markdown.parser import Dialect, detect_dialect, parser
from spectrack.model import Admonition, Block, Document

__all__ = ["Dialect", "Outline", "detect_dialect", "parse", "parse_window", "scan"]


def scan(text: str, name: str = "") -> Outline:
    """The outline of a page's text (link shortcodes resolved, as the parser sees it)."""
    return outline(resolve_links(text), name)


def parse_window(page: Outline, start: int, end: int) -> tuple[list[Block], list[Admonition]]:
    """Blocks and admonitions of lines ``[start, end)`` of a page, which must be chunk starts."""
    lines = page.lines[start:end]
    env = {"references": dict(page.references)}
    tokens = parser(page.dialect).parse("\n".join(lines), env)
    result = walk(tokens, lines, page.context_at(start))
    return result.blocks, result.admonitions


def parse(text: str, *, name: str = "") -> Document:
    """Parse a whole page. ``name`` (a file name) tells ``.mdx`` pages apart."""
    page = scan(text, name)
    blocks, admonitions = parse_window(page, 0, len(page.lines))
    return Document(
        title=page.title,
        blocks=tuple(blocks),
        admonitions=tuple(admonitions),
        line_count=len(page.lines) - (1 if text.endswith("\n") else 0),
    )
