"""Markdown and MDX → `Document`: one model for every syntax a specification site serves."""

from __future__ import annotations

from spectrack.markdown.blocks import walk
from spectrack.markdown.hugo import resolve_links
from spectrack.markdown.parser import Dialect, detect_dialect, parser
from spectrack.model import Document

__all__ = ["Dialect", "detect_dialect", "parse"]


def parse(text: str, *, dialect: Dialect | None = None, name: str = "") -> Document:
    """Parse a page. ``name`` (a file name) helps pick the dialect when ``dialect`` is None."""
    chosen = dialect or detect_dialect(text, name)
    source = resolve_links(text)
    tokens = parser(chosen).parse(source)
    lines = source.split("\n")
    result = walk(tokens, lines)
    return Document(
        title=result.title,
        blocks=tuple(result.blocks),
        admonitions=tuple(result.admonitions),
        line_count=len(lines) - (1 if text.endswith("\n") else 0),
    )
