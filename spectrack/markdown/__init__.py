"""Markdown and MDX → `Document`: one model for every syntax a specification site serves.

`parse` reads a whole page. `outline` scans a page cheaply, and `parse_window` parses only some
of its lines with the context they have in the page, which is how the differ avoids parsing what
did not change.
"""

from __future__ import annotations

from typing import Any

from spectrack.markdown.blocks import walk
from spectrack.markdown.hugo import resolve_links
from spectrack.markdown.outline import Outline, outline
from spectrack.markdown.parser import INLINE_CACHE, Dialect, detect_dialect, parser
from spectrack.model import Admonition, Block, Document

__all__ = ["Dialect", "Outline", "detect_dialect", "parse", "parse_window", "scan"]


def scan(text: str, name: str = "") -> Outline:
    """The outline of a page's text (link shortcodes resolved, as the parser sees it)."""
    return outline(resolve_links(text), name)


class _References(dict[str, Any]):
    """markdown-it's ``env["references"]`` for a window: the page's link references, read from
    the page's outline (which parses them once, on first use) rather than copied, since a page
    with many definitions has many windows; definitions markdown-it meets in the window, all of
    them also the page's, are kept aside.
    """

    def __init__(self, page: Outline) -> None:
        super().__init__()
        self._page = page

    def get(self, key: str, default: Any = None) -> Any:
        references = self._page.references
        return references[key] if key in references else super().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._page.references or super().__contains__(key)

    def __getitem__(self, key: str) -> Any:
        references = self._page.references
        return references[key] if key in references else super().__getitem__(key)


def parse_window(
    page: Outline, start: int, end: int, inline_cache: dict[str, Any] | None = None
) -> tuple[list[Block], list[Admonition]]:
    """Blocks and admonitions of lines ``[start, end)`` of a page, which must be chunk starts.

    ``inline_cache`` may be shared by parses of pages with the same link reference definitions.
    """
    lines = page.lines[start:end]
    # Inside the page the window's last line ends with a newline: a last blank line stays a line
    # (of a code block that runs to the window's end).
    text = "\n".join(lines) + ("\n" if end < len(page.lines) else "")
    env = {"references": _References(page), INLINE_CACHE: inline_cache}
    tokens = parser(page.dialect, at_page_start=start == 0).parse(text, env)
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
